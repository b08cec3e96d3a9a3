#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the padtun-dkms scenario adds to a guest image (its "# initrd-extra:"
# header; see selftests/run.sh): the packages of the current tree
# (build-debs.sh into build/deb/), padnet-dkms's modules built by dkms for
# KERNEL (dkms-build.sh; what the host check deb built is reused when the
# package and the headers are the same), as dkms installs them in
# /lib/modules/RELEASE/updates/dkms/, and padnet-tools unpacked as dpkg
# installs it (plugin, seqcheck, ...) with the libraries its programs
# need. Prints the path of the gzipped cpio archive.
#
# usage: guest-overlay.sh KERNEL      (a test bed kernel: distro)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
kernel=${1:?usage: guest-overlay.sh KERNEL}
kdir=$(qemu-net/build-kernel.sh "$kernel")
out=$top/build/deb

debs=$(packaging/build-debs.sh "$out")
dkms_deb=$(echo "$debs" | grep '/padnet-dkms_')
tools_deb=$(echo "$debs" | grep '/padnet-tools_')
packaging/dkms-build.sh "$dkms_deb" "$kdir" "$out/dkms-$kernel" >&2

stage=$out/guest-$kernel
rm -rf "$stage"
mkdir -p "$stage"
cp -a "$out/dkms-$kernel/lib" "$stage/"
dpkg-deb -x "$tools_deb" "$stage"
for f in "$stage"/usr/bin/* "$stage"/usr/lib/*/ip/*.so; do
	ldd "$f" | grep -o '/[^ ]*' | while read -r lib; do
		cp --parents -L "$lib" "$stage"
	done
done
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 > "$stage.cpio.gz"
rm -rf "$stage"
echo "$stage.cpio.gz"
