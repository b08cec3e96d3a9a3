#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# padnet's main job: two guests on Debian's stock kernel (nothing to
# build but our modules), every mode up at once, iperf3 TCP through each
# in turn, and a table: throughput, ratios to the plain link and of padtun
# to WireGuard and ESP, and each padtun mode's ordering result. One short
# round per mode: a first look. `make bench` is the measurement to quote.
#
# usage: demo/run.sh [FLAVOUR]   (default: distro, Debian's stock kernel)
# env:   PADNET_ROUNDS (1), PADNET_SECONDS (4), PADNET_QEMU_CPU (qemu64)
set -euo pipefail
cd "$(dirname "$0")/.."

flavour=${1:-distro}
rounds=${PADNET_ROUNDS:-1}
seconds=${PADNET_SECONDS:-4}
out=build/results/demo@$flavour
log=build/results/demo-build-$flavour.log
t0=$SECONDS

say() { echo "demo: $* ($((SECONDS - t0)) s)"; }

say "the $flavour kernel (Debian's own is fetched once, then cached)"
kdir=$(qemu-net/build-kernel.sh "$flavour")
say "building padata.ko and padtun.ko for it, and the guest image (log: $log)"
mkdir -p build/results
make -s initramfs FLAVOUR="$flavour" > "$log" 2>&1 || { tail -n 30 "$log"; exit 1; }
nmodes=7
timeout=$((90 + rounds * nmodes * (seconds + 6) + 60))
say "two guests, 2 vCPUs each: $nmodes modes x $rounds round(s) of ${seconds} s, then the ordering checks (at most $timeout s)"
qemu-net/run-guests.sh \
	--kernel "$kdir/arch/x86/boot/bzImage" \
	--initrd "build/$flavour/initramfs.cpio.gz" --run /demo/guest.sh \
	--out "$out" --guests 2 --cpus 2 --mem 1024 --kernel-name "$flavour" \
	--modules padata,padtun --timeout "$timeout" \
	--append "padnet.rounds=$rounds padnet.seconds=$seconds" | sed 's/^/demo: /'

a=$out/a/results b=$out/b/results
if [ "$(cat "$a/status" 2>/dev/null) $(cat "$b/status" 2>/dev/null)" != "0 0" ]; then
	tail -n 30 "$a/output.log" "$b/output.log" 2>/dev/null
	echo "demo: the guests did not finish; consoles in $out/*/console.log" >&2
	exit 1
fi

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mbit() { awk -v m="$1" '$1 == m { print $3 }' "$b/runs" | median; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { if (y > 0) printf "%.2f", x / y; else print "-" }'; }
info() { sed -n "s/^$1 //p" "$b/info"; }

plain=$(mbit plain)
wg=$(mbit wireguard)
echo
echo "padnet demo: iperf3 TCP, guest b -> guest a, one stream, $rounds round(s) of ${seconds} s per mode"
echo "kernel: $(info kernel) (Debian's stock kernel unless named otherwise; our modules unsigned, taint E)"
echo "guests: QEMU TCG, -cpu ${PADNET_QEMU_CPU:-qemu64} ($(info cpu)), on $(nproc) host cores"
echo
printf '| %-24s | %8s | %8s | %8s | %8s | %-36s | %-58s |\n' \
	mode Mbit/s "x plain" "x WG" "x ESP" "order (iperf3 UDP, seqcheck)" "crypto driver"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..26})" "----------" "----------" \
	"----------" "----------" "$(printf -- '-%.0s' {1..38})" "$(printf -- '-%.0s' {1..60})"
for mode in plain padtun-none padtun-chacha20poly1305 padtun-gcm-aes wireguard \
	    esp-chacha20poly1305 esp-gcm-aes; do
	v=$(mbit "$mode")
	vs_wg="" vs_esp="" order="" driver=$(info "crypto $mode")
	case $mode in
	padtun-*)
		vs_wg=$(ratio "$v" "$wg")
		case $mode in
		padtun-none) ;;
		*) vs_esp=$(ratio "$v" "$(mbit "esp-${mode#padtun-}")") ;;
		esac
		sc=$(sed -n 's/^received \([0-9]*\) lost \([0-9]*\) duplicates \([0-9]*\) reordered \([0-9]*\).*/\4 reordered, \2 lost/p' \
			"$a/seqcheck-$mode.txt")
		order="$(awk -v m="$mode" '$1 == m { print $2 }' "$b/order") out of order; ${sc:-no result}"
		;;
	wireguard) driver="lib/crypto (chacha20poly1305)" ;;
	plain) driver="-" ;;
	esac
	printf '| %-24s | %8.1f | %8s | %8s | %8s | %-36s | %-58s |\n' \
		"$mode" "${v:-0}" "$(ratio "$v" "$plain")" "$vs_wg" "$vs_esp" "$order" "$driver"
done
echo
echo "x WG, x ESP: padtun's throughput over WireGuard's, and over ESP's with the same AEAD."
echo "One short round per mode under TCG on a shared machine: a first look, not a measurement."
echo "Quote \`make bench\` (repeated, alternating runs; medians) instead."
echo "Every run: $b/runs; guest logs: $out/*/results/output.log"
say "done"
