#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the modules of a padnet-dkms package with dkms, as its postinst
# would on an installed system, but against a kernel headers directory
# that is only unpacked (the test bed's Debian kernel) and with DKMS trees
# of our own under OUT: nothing goes to /usr/src, /var/lib/dkms or
# /lib/modules of this machine, and nothing is signed (there is no key to
# sign with here; dkms would otherwise make one in /var/lib/dkms). The
# built modules land in OUT/lib/modules/RELEASE/updates/dkms/, where dkms
# install puts them on Debian.
#
# With the same package contents and headers as the last build in OUT,
# nothing is built again (--force: always).
#
# usage: dkms-build.sh [--force] PADNET-DKMS.deb KDIR OUT
set -euo pipefail

force=0
[ "${1:-}" = --force ] && { force=1; shift; }
deb=${1:?usage: dkms-build.sh [--force] PADNET-DKMS.deb KDIR OUT}
kdir=${2:?usage: dkms-build.sh [--force] PADNET-DKMS.deb KDIR OUT}
out=${3:?usage: dkms-build.sh [--force] PADNET-DKMS.deb KDIR OUT}

release=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h")
[ -n "$release" ] || { echo "dkms-build.sh: no kernel release in $kdir" >&2; exit 1; }
stamp=$( { dpkg-deb --fsys-tarfile "$deb"; echo "$kdir"; } | sha256sum | cut -d' ' -f1)
if [ "$force" = 0 ] && [ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "dkms-build.sh: $out is up to date" >&2
	exit 0
fi

rm -rf "$out"
mkdir -p "$out/root" "$out/dkms"
out=$(cd "$out" && pwd)
dpkg-deb -x "$deb" "$out/root"
conf=$(echo "$out"/root/usr/src/padnet-*/dkms.conf)
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$conf")
src=$out/root/usr/src
dkms() {
	# sign_file: a path with no program, so dkms signs nothing and makes
	# no key (dkms reads it from the environment).
	sign_file=/nonexistent/sign-file command dkms "$@" \
		--sourcetree "$src" --dkmstree "$out/dkms" --installtree "$out/install"
}
dkms add -m padnet -v "$version"
if ! dkms build -m padnet -v "$version" -k "$release" -a x86_64 \
	--kernelsourcedir "$kdir"; then
	cat "$out/dkms/padnet/$version/build/make.log" >&2 2>/dev/null || true
	exit 1
fi
built=$out/dkms/padnet/$version/$release/x86_64/module
dest=$out/lib/modules/$release/updates/dkms
mkdir -p "$dest"
cp "$built"/* "$dest/"
echo "$stamp" > "$out/.stamp"
echo "dkms-build.sh: $(cd "$dest" && echo *) for $release in $dest" >&2
