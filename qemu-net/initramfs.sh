#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a guest initramfs: busybox-static, Debian's full iproute2 (ip, and
# tc for netem), iperf3, ethtool, wg and kmod (as /sbin/modprobe, the
# kernel's module loader) with their shared libraries, qemu-net/guest-init
# as /init, and the given overlay directories copied on top (modules,
# tools, scripts).
#
# usage: initramfs.sh OUT.cpio.gz [OVERLAY_DIR...]
# env:   PADNET_GUEST_BINARIES  more host programs to carry, with their
#                               libraries (the benchmark's perf)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: initramfs.sh OUT.cpio.gz [OVERLAY_DIR...]}
shift

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,results}
mkdir -p "$stage/usr/lib/x86_64-linux-gnu/ip"
cp "$(command -v busybox)" "$stage/bin/busybox"
# busybox's own ip applet lacks link plugins and most link types (its tc,
# netem), and its shell runs applets before $PATH: never create the applet
# links for ip and tc.
for applet in $("$stage/bin/busybox" --list); do
	case $applet in
	busybox|ip|tc) continue ;;
	esac
	ln -s busybox "$stage/bin/$applet"
done

binaries="/bin/ip /usr/sbin/tc /usr/bin/iperf3 /usr/sbin/ethtool /usr/bin/wg /bin/kmod ${PADNET_GUEST_BINARIES:-}"
for bin in $binaries; do
	cp "$bin" "$stage$bin"
	ldd "$bin" | grep -o '/[^ ]*' | while read -r lib; do
		cp --parents -L "$lib" "$stage"
	done
done

ln -s /bin/kmod "$stage/sbin/modprobe"
ln -s /bin/kmod "$stage/sbin/depmod"

mknod -m 600 "$stage/dev/console" c 5 1
mknod -m 666 "$stage/dev/null" c 1 3
cp "$here/guest-init" "$stage/init"
chmod 755 "$stage/init"

for overlay in "$@"; do
	cp -a "$overlay/." "$stage/"
done

(cd "$stage" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
