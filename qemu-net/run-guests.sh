#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot one guest, or two guests linked by virtio-net over a unix-socket
# stream netdev, run one script in each (see guest-init) and bring back
# what each produced. Never leaves a QEMU process behind.
#
# usage: run-guests.sh --kernel BZIMAGE --initrd CPIO.GZ --run GUEST_PATH
#                      --out DIR [--guests 1|2] [--cpus N] [--mem MIB]
#                      [--timeout SEC] [--kernel-name NAME]
#                      [--modules m1,m2] [--append ARGS]
#                      [--initrd-extra CPIO.GZ]
#
# --initrd-extra: an archive appended to the initramfs, which the kernel
# unpacks on top of it (files a scenario brings, such as modules built
# elsewhere).
#
# Per guest (a, and b when two): DIR/ROLE/console.log, DIR/ROLE/results/
# (the guest's files, with "status" holding its script's exit code), and
# DIR/pids (the QEMU PIDs this run started).
# Exit: 0 when every guest came back with results, 124 on timeout, 125
# when a guest stopped without results (panic, triple fault).
set -euo pipefail

guests=1 cpus=2 mem=512 timeout=300 kname=unknown modules="" append=""
kernel="" initrd="" run="" out="" extra=""
cpu_model=${PADNET_QEMU_CPU:-qemu64}
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2 ;;
	--initrd) initrd=$2 ;;
	--run) run=$2 ;;
	--out) out=$2 ;;
	--guests) guests=$2 ;;
	--cpus) cpus=$2 ;;
	--mem) mem=$2 ;;
	--timeout) timeout=$2 ;;
	--kernel-name) kname=$2 ;;
	--modules) modules=$2 ;;
	--append) append=$2 ;;
	--initrd-extra) extra=$2 ;;
	*) echo "run-guests.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
for v in kernel initrd run out; do
	[ -n "${!v}" ] || { echo "run-guests.sh: --$v is required" >&2; exit 2; }
done
case $guests in 1) roles="a" ;; 2) roles="a b" ;;
*) echo "run-guests.sh: --guests takes 1 or 2" >&2; exit 2 ;;
esac

rm -rf "$out"
mkdir -p "$out"
sockdir=""
if [ -n "$extra" ]; then
	cat "$initrd" "$extra" > "$out/initramfs.cpio.gz"
	initrd=$out/initramfs.cpio.gz
fi
pids=()

stop_guests() {
	local pid
	for pid in "${pids[@]}"; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	sleep 0.5
	for pid in "${pids[@]}"; do
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$sockdir"
}
trap stop_guests EXIT
trap 'exit 130' INT TERM

address_of() { [ "$1" = a ] && echo 198.18.0.1 || echo 198.18.0.2; }
peer_of() { [ "$1" = a ] && echo b || echo a; }

start_guest() {
	local role=$1 dir=$out/$1 net=()
	mkdir -p "$dir/results"
	if [ "$guests" = 2 ]; then
		local server=off mac=52:54:00:12:34:02
		[ "$role" = a ] && server=on mac=52:54:00:12:34:01
		net=(-netdev "stream,id=link,server=$server,addr.type=unix,addr.path=$sockdir/link"
		     -device "virtio-net-pci,netdev=link,mac=$mac")
	fi
	# pci=noacpi: PCI interrupt routing from the BIOS tables instead of
	# ACPI _PRT, whose AML times out (30 s a device) on KASAN kernels.
	qemu-system-x86_64 -nodefaults -accel tcg,thread=multi -cpu "$cpu_model" \
		-smp "$cpus" -m "$mem" -display none -monitor none -no-reboot \
		-serial "file:$dir/console.log" \
		-device virtio-rng-pci \
		-device virtio-serial-pci \
		-chardev "file,id=results,path=$dir/results.tar" \
		-device virtserialport,chardev=results,name=padnet.results \
		"${net[@]}" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 loglevel=5 panic=-1 pci=noacpi $append padnet.run=$run padnet.role=$role padnet.kernel=$kname padnet.modules=$modules padnet.addr=$(address_of "$role") padnet.peer=$(address_of "$(peer_of "$role")")" \
		</dev/null >"$dir/qemu.log" 2>&1 &
	pids+=($!)
	echo "$!" >> "$out/pids"
}

start_guests() {
	local role
	pids=()
	# Unix socket paths are limited to 108 bytes: keep the link socket
	# short. A fresh one per boot: stop_guests removes it.
	sockdir=$(mktemp -d /tmp/padnet-link.XXXXXX)
	for role in $roles; do
		start_guest "$role"
		if [ "$role" = a ] && [ "$guests" = 2 ]; then
			# The stream client does not retry: the server socket must exist.
			for _ in $(seq 100); do
				[ -S "$sockdir/link" ] && break
				sleep 0.1
			done
		fi
	done
}

# A guest whose console has not shown /init's first line by now stalled in
# early boot. The cause seen so far, a 6.1 rcu-tasks boot deadlock, is
# patched (kernel/patches/); nothing of the project runs that early, so for
# whatever else may stall there all guests boot again, once, and the
# stalled console is kept as console.stalled.log. Checked once, at the
# limit: a guest past /init stays past it.
reached_init() { grep -q '^padnet: running' "$out/$1/console.log" 2>/dev/null; }

boot_stalled() {
	local role
	[ "$stall_checked" = 0 ] || return 1
	[ $(($(date +%s) - start)) -ge "$boot_limit" ] || return 1
	stall_checked=1
	for role in $roles; do
		reached_init "$role" || return 0
	done
	return 1
}

# wait_guests: 0 when every guest stopped, 1 on timeout, 2 on a boot stall.
wait_guests() {
	local pid alive
	while :; do
		alive=0
		for pid in "${pids[@]}"; do
			kill -0 "$pid" 2>/dev/null && alive=1
		done
		[ "$alive" = 0 ] && return 0
		[ $(($(date +%s) - start)) -ge "$timeout" ] && return 1
		boot_stalled && return 2
		sleep 0.5
	done
}

boot_limit=$(( timeout < 240 ? timeout / 2 : 120 ))
stall_checked=0
began=$(date +%s)
boots=0
while :; do
	boots=$((boots + 1))
	start=$(date +%s)
	start_guests
	waited=0
	wait_guests || waited=$?
	[ "$waited" = 2 ] || break
	stop_guests
	for role in $roles; do
		if reached_init "$role"; then
			echo "run-guests.sh: guest $role reached /init; booting again with the others. Its console:"
		else
			echo "run-guests.sh: guest $role stalled before /init; booting again. Its console:"
		fi
		tail -n 5 "$out/$role/console.log" | sed "s/^/[$role] /"
		mv "$out/$role/console.log" "$out/$role/console.stalled.log"
		rm -f "$out/$role/results.tar"
	done
done
timed_out=$(( waited != 0 ))
stop_guests
trap - EXIT
[ -z "$extra" ] || rm -f "$out/initramfs.cpio.gz"

rc=0
for role in $roles; do
	dir=$out/$role
	if [ -s "$dir/results.tar" ]; then
		tar -xf "$dir/results.tar" -C "$dir/results" 2>/dev/null || true
	fi
	if [ "$timed_out" = 1 ]; then
		echo "run-guests.sh: guest $role timed out after ${timeout}s; console:"
		rc=124
	elif [ ! -f "$dir/results/status" ]; then
		echo "run-guests.sh: guest $role stopped without results; console:"
		[ "$rc" = 0 ] && rc=125
	else
		continue
	fi
	tail -n 80 "$dir/console.log" | sed "s/^/[$role] /"
	cat "$dir/qemu.log" | sed "s/^/[$role qemu] /"
done
echo "run-guests.sh: $guests guest(s), $boots boot(s), $(($(date +%s) - began)) s"
exit "$rc"
