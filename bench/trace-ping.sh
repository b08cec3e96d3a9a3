#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where a ping waits beside bulk TCP, stage by stage, in padtun's modes
# on Debian's stock kernel: two guests trace the ping's packets
# (bench/trace-guest.sh) and bench/trace_report.py prints, per mode, each
# stage's mean, median, 90th and 99th percentile. The profile behind
# docs/benchmarks.md, "Ordering per flow"; never part of make test.
#
# env: PADNET_TRACE_MODES (padtun-chacha20poly1305,padtun-chacha20poly1305-flow),
#      PADNET_TRACE_REPS (3)
set -euo pipefail
cd "$(dirname "$0")/.."

modes=${PADNET_TRACE_MODES:-padtun-chacha20poly1305,padtun-chacha20poly1305-flow}
reps=${PADNET_TRACE_REPS:-3}
out=build/trace
t0=$SECONDS
say() { echo "trace: $* ($((SECONDS - t0)) s)"; }

make -s deps
say "the distro kernel"
kdir=$(qemu-net/build-kernel.sh distro)
say "our modules for it and the guest image (log: $out/build.log)"
mkdir -p "$out"
make -s initramfs FLAVOUR=distro > "$out/build.log" 2>&1 || { tail -n 30 "$out/build.log"; exit 1; }
len_at=$(pahole -C sk_buff build/distro/src/net/padtun.ko |
	 sed -n 's/^[[:space:]]*unsigned int[[:space:]]*len;[[:space:]]*\/\*[[:space:]]*\([0-9]*\).*/\1/p')
[ -n "$len_at" ] || { echo "trace: no offset of sk_buff.len in padtun.ko" >&2; exit 1; }
nmodes=$(echo "$modes" | tr , '\n' | grep -c .)
say "two guests: $nmodes modes x $reps rounds of 8 s, about $(( (nmodes * reps * 14 + 60) / 60 )) min"
qemu-net/run-guests.sh --kernel "$kdir/arch/x86/boot/bzImage" \
	--initrd build/distro/initramfs.cpio.gz --run /bench/trace-guest.sh \
	--out "$out/guests" --guests 2 --cpus 2 --mem 1024 --kernel-name distro \
	--modules padata,padtun --timeout $((nmodes * reps * 40 + 300)) \
	--append "padnet.modes=$modes padnet.reps=$reps padnet.skb_len=$len_at" \
	> "$out/guests.log" 2>&1 || { tail -n 30 "$out/guests.log"; exit 1; }
grep -a '^trace: ' "$out/guests/b/console.log" | tr -d '\r' || true
python3 bench/trace_report.py "$out/guests" "$modes" "$reps" | tee "$out/report.txt"
say "done: $out/report.txt"
