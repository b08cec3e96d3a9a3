#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's stock kernel as a guest kernel: the image and headers packages of
# the version apt offers for linux-image-amd64, fetched with apt-get download
# and unpacked (never installed) into the cache, keyed by that version. Prints
# the headers directory, which the rest of the test bed treats as a kernel
# build tree: modules build against it (M=...), and it holds the links
# arch/x86/boot/bzImage (Debian's vmlinuz) and System.map, and the file
# .padnet-distro (the unpacked root, where lib/modules/<release>/ is).
#
# usage: distro-kernel.sh
set -euo pipefail

cache=${PADNET_CACHE:-$HOME/.cache/padnet}

candidate() { apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p'; }

version=$(candidate linux-image-amd64)
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
	echo "distro-kernel.sh: apt knows no linux-image-amd64; running apt-get update" >&2
	apt-get update -qq >&2
	version=$(candidate linux-image-amd64)
fi
abi=$(apt-cache depends linux-image-amd64 |
	sed -n 's/^ *Depends: linux-image-\(.*\)-amd64$/\1/p' | head -n 1)
if [ -z "$abi" ]; then
	echo "distro-kernel.sh: cannot tell which kernel linux-image-amd64 $version depends on" >&2
	exit 1
fi

root=$cache/distro/linux-$version-$abi
kdir=$root/usr/src/linux-headers-$abi-amd64
if [ -f "$kdir/.padnet-distro" ]; then
	echo "$kdir"
	exit 0
fi

echo "distro-kernel.sh: fetching Debian's kernel $abi-amd64 ($version): image, headers, kbuild" >&2
rm -rf "$root" "$root.tmp"
mkdir -p "$root.tmp/debs"
(cd "$root.tmp/debs" && apt-get download -q -o APT::Sandbox::User=root \
	"linux-image-$abi-amd64=$version" "linux-headers-$abi-amd64=$version" \
	"linux-headers-$abi-common=$version" "linux-kbuild-6.1=$version" >&2)
for deb in "$root.tmp"/debs/*.deb; do
	echo "distro-kernel.sh: unpacking $(basename "$deb")" >&2
	dpkg-deb -x "$deb" "$root.tmp"
done
rm -rf "$root.tmp/debs"
mv "$root.tmp" "$root"

# The headers' Makefile includes the common headers by an absolute path
# under /usr/src: point it at the unpacked copy. The scripts and tools
# links are relative and work as they are.
sed -i "s|^include /usr/src/|include $root/usr/src/|" "$kdir/Makefile"
mkdir -p "$kdir/arch/x86/boot"
ln -sf "$root/boot/vmlinuz-$abi-amd64" "$kdir/arch/x86/boot/bzImage"
ln -sf "$root/boot/System.map-$abi-amd64" "$kdir/System.map"
echo "$root" > "$kdir/.padnet-distro"
echo "distro-kernel.sh: Debian's kernel $abi-amd64 is in $root" >&2
echo "$kdir"
