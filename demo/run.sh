#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# padnet's main job: two guests, iperf3 TCP through the plain virtio-net
# link and through padtun (chacha20poly1305), alternating, and a table of
# medians with the padtun/plain ratio. Under TCG absolute figures mean
# little; the ratio from one run is the figure to quote.
#
# usage: demo/run.sh [FLAVOUR]   (default: check; "fast" for benchmarks)
# env:   PADNET_ROUNDS (3), PADNET_SECONDS (4)
set -euo pipefail
cd "$(dirname "$0")/.."

flavour=${1:-check}
rounds=${PADNET_ROUNDS:-3}
seconds=${PADNET_SECONDS:-4}
out=build/results/demo@$flavour

make -s initramfs FLAVOUR="$flavour"
qemu-net/run-guests.sh \
	--kernel "$(qemu-net/build-kernel.sh "$flavour")/arch/x86/boot/bzImage" \
	--initrd "build/$flavour/initramfs.cpio.gz" --run /demo/guest.sh \
	--out "$out" --guests 2 --cpus 2 --mem 1024 --kernel-name "$flavour" \
	--modules padata,padtun \
	--timeout $((120 + rounds * 2 * (seconds + 15))) \
	--append "padnet.rounds=$rounds padnet.seconds=$seconds"

runs=$out/b/results/runs
[ "$(cat "$out/a/results/status") $(cat "$out/b/results/status")" = "0 0" ] || {
	cat "$out"/*/results/output.log
	exit 1
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
plain=$(awk '$1 == "plain" { print $3 }' "$runs" | median)
padtun=$(awk '$1 == "padtun" { print $3 }' "$runs" | median)
[ "$(echo "$plain > 0 && $padtun > 0" | bc)" = 1 ] || {
	echo "demo: a path carried no traffic; every run: $runs" >&2
	exit 1
}

echo
echo "padnet demo: iperf3 TCP guest b -> guest a, $rounds alternating rounds of ${seconds}s,"
echo "$flavour kernel, 2 vCPUs per guest under TCG (QEMU CPU ${PADNET_QEMU_CPU:-qemu64})"
echo
printf '| %-28s | %14s | %9s |\n' "path" "median Mbit/s" "ratio"
printf '|%s|%s|%s|\n' "------------------------------" "----------------" "-----------"
printf '| %-28s | %14.1f | %9s |\n' "virtio-net (plain)" "$plain" "1.00"
printf '| %-28s | %14.1f | %9.3f |\n' "padtun chacha20poly1305" "$padtun" \
	"$(echo "$padtun / $plain" | bc -l)"
echo
echo "every run: $runs; device counters: $out/*/results/padtun0-stats.txt"
