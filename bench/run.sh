#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: padtun next to the plain link, VXLAN, FOU, WireGuard, ESP and
# ESP through pcrypt, on Debian's stock kernel, in one run of two guests:
# every mode and test alternating, REPS times (bench/guest.sh), then the
# memory run, perf profiles and the padata core microbenchmark; a report
# with medians, min, max, CPU use and ratios, raw data and plots
# (bench/report.py) in build/bench/. Never part of make test.
#
# env: PADNET_BENCH_REPS (3), PADNET_BENCH_SECONDS (4), PADNET_BENCH_VCPUS (2),
#      PADNET_BENCH_MEM (1024 MiB), PADNET_QEMU_CPU (qemu64: the guest CPU
#      model), PADNET_BENCH_PADTUN_CPUS (padtun's CPU list; all CPUs),
#      PADNET_BENCH_TESTS (tcp1,tcp4,udp1400,udp64,lat_idle,lat_load,tx1400,rx1400),
#      PADNET_BENCH_MEM_PACKETS (1000000), PADNET_BENCH_PROFILE (modes to
#      profile with perf under TCP, or MODE@tx1400 under the one-sided
#      test; padtun-chacha20poly1305,wireguard; empty: none),
#      PADNET_BENCH_CALLGRAPH (1: the profiles record call graphs too, in
#      profile.MODE.ROLE.callers and .inclusive), PADNET_BENCH_FLAVOUR (distro),
#      PADNET_BENCH_MODES (a comma-separated subset of the modes, for a quick
#      look while developing; every mode when unset: the run that judges)
set -euo pipefail
cd "$(dirname "$0")/.."

flavour=${PADNET_BENCH_FLAVOUR:-distro}
reps=${PADNET_BENCH_REPS:-3}
seconds=${PADNET_BENCH_SECONDS:-4}
vcpus=${PADNET_BENCH_VCPUS:-2}
mem=${PADNET_BENCH_MEM:-1024}
tests=${PADNET_BENCH_TESTS:-tcp1,tcp4,udp1400,udp64,lat_idle,lat_load,tx1400,rx1400}
padtun_cpus=${PADNET_BENCH_PADTUN_CPUS:-}
mem_packets=${PADNET_BENCH_MEM_PACKETS:-1000000}
profile=${PADNET_BENCH_PROFILE-padtun-chacha20poly1305,wireguard}
callgraph=${PADNET_BENCH_CALLGRAPH:-}
modes=${PADNET_BENCH_MODES:-}
out=build/bench
res=$out/guests
t0=$SECONDS
say() { echo "bench: $* ($(( (SECONDS - t0) / 60 )) min $(( (SECONDS - t0) % 60 )) s)"; }

say "the $flavour kernel"
kdir=$(qemu-net/build-kernel.sh "$flavour")
say "our modules for it and the guest image, with perf (log: $out/build.log)"
mkdir -p "$out"
make -s initramfs FLAVOUR="$flavour" > "$out/build.log" 2>&1 || { tail -n 30 "$out/build.log"; exit 1; }
PADNET_GUEST_BINARIES=/usr/bin/perf qemu-net/initramfs.sh "$out/initramfs.cpio.gz" "build/$flavour/root"

nmodes=$( [ -n "$modes" ] && echo "$modes" | tr , '\n' | grep -c . || echo 16)
ntests=$(echo "$tests" | tr , '\n' | grep -c .)
per_test=$((seconds + 3))
estimate=$((30 + reps * nmodes * ntests * per_test + 90 + 40 + 2 * (seconds + 10)))
timeout=$((estimate * 2 + 300))
say "two guests, $vcpus vCPUs each: $nmodes modes x $ntests tests x $reps rounds of ${seconds} s; about $((estimate / 60)) min (stops at $((timeout / 60)) min)"

# Progress: guest b prints a line per mode and round; show each with the
# time elapsed and an estimate of what is left.
start=$SECONDS seen=0
( set +e	# a grep that finds nothing yet must not end the loop
while sleep 5; do
	[ -f "$res/b/console.log" ] || continue
	grep -a '^bench: ' "$res/b/console.log" 2>/dev/null | tr -d '\r' | tail -n +$(( seen + 1 )) |
	while IFS= read -r line; do
		done_=$(echo "$line" | sed -n 's/.*(\([0-9]*\)\/\([0-9]*\) tests).*/\1 \2/p')
		left=""
		if [ -n "$done_" ]; then
			set -- $done_
			el=$((SECONDS - start))
			left=", about $(( el * ($2 - $1) / ($1 > 0 ? $1 : 1) / 60 + 2 )) min left"
		fi
		echo "$line ($(( (SECONDS - t0) / 60 )) min elapsed$left)"
	done
	seen=$(grep -ac '^bench: ' "$res/b/console.log" 2>/dev/null || true)
done ) &
progress=$!
trap 'kill $progress 2>/dev/null || true' EXIT

rc=0
qemu-net/run-guests.sh \
	--kernel "$kdir/arch/x86/boot/bzImage" --initrd "$out/initramfs.cpio.gz" \
	--run /bench/guest.sh --out "$res" --guests 2 --cpus "$vcpus" --mem "$mem" \
	--kernel-name "$flavour" --modules padata,padtun --timeout "$timeout" \
	--append "padnet.reps=$reps padnet.seconds=$seconds padnet.tests=$tests padnet.padtun_cpus=$padtun_cpus padnet.mem_packets=$mem_packets padnet.profile=$profile padnet.callgraph=$callgraph padnet.modes=$modes" \
	> "$out/guests.log" 2>&1 || rc=$?
kill $progress 2>/dev/null || true
if [ "$rc" != 0 ] || [ "$(cat "$res/a/results/status" "$res/b/results/status" 2>/dev/null | tr -d '\n')" != 00 ]; then
	tail -n 40 "$out/guests.log" "$res"/*/results/output.log 2>/dev/null
	echo "bench: the guests did not finish (rc $rc); see $out/guests.log" >&2
	exit 1
fi

say "report"
command="make bench"
for v in REPS SECONDS VCPUS MEM TESTS PADTUN_CPUS MEM_PACKETS PROFILE CALLGRAPH FLAVOUR MODES; do
	val=$(printenv "PADNET_BENCH_$v" || true)
	[ -n "$val" ] && command="PADNET_BENCH_$v=$val $command"
done
[ -n "${PADNET_QEMU_CPU:-}" ] && command="PADNET_QEMU_CPU=$PADNET_QEMU_CPU $command"
python3 bench/report.py "$res" "$out" "$command"
for f in "$res"/*/results/profile.*.[ab] "$res"/*/results/profile.*.[ab].*; do
	[ -f "$f" ] && cp "$f" "$out/"
done
say "done: $out/report.md, runs.csv, summary.json, *.png, profile.* (date $(date -u +%F))"
