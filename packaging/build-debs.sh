#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build padnet-dkms (the sources of padata.ko and padtun.ko with a
# dkms.conf) and padnet-tools (the iproute2 plugin, seqcheck, udpload,
# replayinject and the manual pages in docs/man/) as .deb files into OUTDIR,
# with dpkg-deb from a staging tree under OUTDIR: nothing is written into
# the source tree. Offline; needs gcc, dpkg-dev (dpkg-buildflags,
# dpkg-shlibdeps) and git.
#
# The version comes from the tree: "git describe" of the last tag vX.Y
# (X.Y, or X.Y+gitN.HASH N commits later), or, with no tag yet,
# 0.0+gitN.HASH (N: the commits in HEAD). PADNET_VERSION overrides. The
# Debian revision is -1; the files' times are the commit's
# (SOURCE_DATE_EPOCH), so the same tree gives the same packages.
#
# usage: build-debs.sh OUTDIR      (prints the two .deb paths)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${1:?usage: build-debs.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$top"

if [ -n "${PADNET_VERSION:-}" ]; then
	version=$PADNET_VERSION
elif desc=$(git describe --tags --long --match 'v[0-9]*' 2>/dev/null); then
	# vX.Y-N-gHASH
	hash=${desc##*-g}
	rest=${desc%-g*}
	n=${rest##*-}
	version=${rest%-*}
	version=${version#v}
	[ "$n" = 0 ] || version="$version+git$n.$hash"
else
	version="0.0+git$(git rev-list --count HEAD).$(git rev-parse --short=7 HEAD)"
fi
if ! [[ $version =~ ^[0-9][A-Za-z0-9.+~]*$ ]]; then
	echo "build-debs.sh: '$version' is not a Debian upstream version" >&2
	exit 1
fi
debversion=$version-1
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
export SOURCE_DATE_EPOCH
maintainer=${PADNET_MAINTAINER:-$(git log -1 --format='%an <%ae>')}
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

work=$out/stage
rm -rf "$work"
mkdir -p "$work"
umask 022

# fill FILE: the @NAME@ fields of a template
fill() {
	sed -e "s|@VERSION@|$version|g" -e "s|@DEBVERSION@|$debversion|g" \
		-e "s|@MAINTAINER@|$maintainer|g" -e "s|@ARCH@|$arch|g" \
		-e "s|@SHLIBS@|${shlibs:-}|g" -e "s|@SIZE@|${size:-0}|g" "$1"
}

# docs PKG ROOT: copyright and changelog.Debian.gz (one entry: this build)
docs() {
	local doc=$2/usr/share/doc/$1
	install -d "$doc"
	fill "$here/copyright" > "$doc/copyright"
	chmod 644 "$doc/copyright"
	{
		echo "padnet ($debversion) unstable; urgency=medium"
		echo
		echo "  * Built by \"make deb\" from commit $(git rev-parse --short=12 HEAD)."
		echo
		echo " -- $maintainer  $(date -R -u -d "@$SOURCE_DATE_EPOCH")"
	} | gzip -9n > "$doc/changelog.Debian.gz"
	chmod 644 "$doc/changelog.Debian.gz"
}

# overrides PKG ROOT [TEXT]: the package's lintian overrides, each with
# its reason; the first for both packages: the changelog's one entry is
# this local build, not an upload to Debian, so no ITP bug is closed.
overrides() {
	install -d "$2/usr/share/lintian/overrides"
	{
		echo "# Built locally by \"make deb\", never uploaded to Debian: no ITP bug to close."
		echo "$1: initial-upload-closes-no-bugs"
		printf '%s' "${3:-}"
	} > "$2/usr/share/lintian/overrides/$1"
	chmod 644 "$2/usr/share/lintian/overrides/$1"
}

# finish PKG ROOT: control (from PKG.control), maintainer scripts, md5sums,
# then dpkg-deb.
finish() {
	local pkg=$1 root=$2 s
	install -d "$root/DEBIAN"
	for s in postinst prerm; do
		[ -f "$here/$pkg.$s" ] || continue
		fill "$here/$pkg.$s" > "$root/DEBIAN/$s"
		chmod 755 "$root/DEBIAN/$s"
	done
	(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
		LC_ALL=C sort -z | xargs -0r md5sum) > "$root/DEBIAN/md5sums"
	size=$(du -k -s --exclude=DEBIAN "$root" | cut -f1)
	fill "$here/$pkg.control" > "$root/DEBIAN/control"
	chmod 644 "$root/DEBIAN/md5sums" "$root/DEBIAN/control"
	dpkg-deb --root-owner-group -Zxz --build "$root" \
		"$out/${pkg}_${debversion}_$(sed -n 's/^Architecture: //p' "$root/DEBIAN/control").deb" > /dev/null
	echo "$out/${pkg}_${debversion}_$(sed -n 's/^Architecture: //p' "$root/DEBIAN/control").deb"
}

rm -f "$out"/padnet-dkms_*.deb "$out"/padnet-tools_*.deb

# padnet-dkms: the module sources as they are in the tree (Kbuild, C
# files and headers of padata/ and net/, public headers included; not
# the iproute2 plugin) and dkms.conf, in /usr/src/padnet-VERSION/.
root=$work/debian/padnet-dkms
src=$root/usr/src/padnet-$version
install -d "$src"
find padata net -path net/iproute2 -prune -o -type f \
	\( -name Kbuild -o -name '*.[ch]' \) -print | LC_ALL=C sort |
	while read -r f; do
		install -D -m 644 "$f" "$src/$f"
	done
fill "$here/dkms.conf" > "$src/dkms.conf"
chmod 644 "$src/dkms.conf"
docs padnet-dkms "$root"
overrides padnet-dkms "$root"
shlibs="" finish padnet-dkms "$root"

# padnet-tools: built with Debian's build flags, dynamically linked (the
# test bed's copies are static, for the busybox guests).
root=$work/debian/padnet-tools
bin=$work/build
install -d "$bin" "$root/usr/bin" "$root/usr/lib/$multiarch/ip"
cppflags=$(dpkg-buildflags --get CPPFLAGS)
cflags="$(dpkg-buildflags --get CFLAGS) -Wall -Wextra"
ldflags="$(dpkg-buildflags --get LDFLAGS) -Wl,-z,now"
make -s -C selftests/tools O="$bin" CPPFLAGS="$cppflags" CFLAGS="$cflags" \
	LDFLAGS="$ldflags" all
# shellcheck disable=SC2086
gcc $cppflags $cflags -fPIC -shared $ldflags -Inet/include/uapi \
	-o "$bin/link_padtun.so" net/iproute2/link_padtun.c
net/iproute2/check-symbols.sh "$bin/link_padtun.so" > /dev/null
tools="seqcheck udpload replayinject"
for t in $tools; do
	install -m 755 "$bin/$t" "$root/usr/bin/$t"
	strip --remove-section=.comment --remove-section=.note "$root/usr/bin/$t"
done
# Where Debian's ip looks for link_KIND.so (iproute2's LIBDIR/ip, which
# Debian's build sets to /usr/lib/MULTIARCH; IP_LIB_DIR overrides it).
plugin=$root/usr/lib/$multiarch/ip/link_padtun.so
install -m 644 "$bin/link_padtun.so" "$plugin"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$plugin"
# Every manual page in docs/man/ that exists; a tool without one gets a
# lintian override (its documentation: --help and README.md).
overrides=""
shopt -s nullglob
for page in docs/man/*.[1-8]; do
	sec=${page##*.}
	install -d "$root/usr/share/man/man$sec"
	gzip -9n < "$page" > "$root/usr/share/man/man$sec/$(basename "$page").gz"
	chmod 644 "$root/usr/share/man/man$sec/$(basename "$page").gz"
done
shopt -u nullglob
for t in $tools; do
	[ -f "$root/usr/share/man/man1/$t.1.gz" ] && continue
	overrides+="# $t has no manual page yet: its usage is in \"$t --help\" and
# /usr/share/doc/padnet-tools/README.md.gz.
padnet-tools: no-manual-page [usr/bin/$t]
"
done
doc=$root/usr/share/doc/padnet-tools
install -d "$doc"
gzip -9n < selftests/tools/README.md > "$doc/README.md.gz"
gzip -9n < docs/padtun-iproute2.rst > "$doc/padtun-iproute2.rst.gz"
chmod 644 "$doc"/*.gz
docs padnet-tools "$root"
overrides padnet-tools "$root" "$overrides"
# The libc (and any other library) dependency, as dpkg-shlibdeps finds it
# (it wants a debian/control, and the package's files in debian/PACKAGE/
# under a DEBIAN directory).
install -d "$root/DEBIAN"
printf 'Source: padnet\n\nPackage: padnet-tools\nArchitecture: any\n' \
	> "$work/debian/control"
# shellcheck disable=SC2046
shlibs=$(cd "$work" && dpkg-shlibdeps -O \
	$(for t in $tools; do echo "debian/padnet-tools/usr/bin/$t"; done) \
	"debian/padnet-tools/usr/lib/$multiarch/ip/link_padtun.so" |
	sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "build-debs.sh: dpkg-shlibdeps found no dependency" >&2; exit 1; }
finish padnet-tools "$root"
