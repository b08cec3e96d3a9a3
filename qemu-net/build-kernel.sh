#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build one guest kernel flavour (check, sanitizer or up) from Debian's
# linux-source tarball, outside the repository, and print its build
# directory. The distro flavour is Debian's stock kernel, fetched rather
# than built (distro-kernel.sh). The patches in kernel/patches/ (fixes to 6.1 that the test
# bed needs, each saying why) are applied to the unpacked source. The
# cache key is the source package version plus the patches plus the config
# fragments, so a second run with the same inputs builds nothing.
#
# usage: build-kernel.sh FLAVOUR    (check, sanitizer, up or distro)
#        build-kernel.sh source    (unpack only; print the source tree)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
flavour=${1:?usage: build-kernel.sh check|sanitizer|up|distro}
cache=${PADNET_CACHE:-$HOME/.cache/padnet}
tarball=/usr/src/linux-source-6.1.tar.xz

case $flavour in
check)     fragments="guest net check" ;;
sanitizer) fragments="guest net check sanitizer" ;;
up)        fragments="guest check up" ;;
distro)    exec "$here/distro-kernel.sh" ;;
source)    fragments="" ;;
*) echo "build-kernel.sh: unknown flavour '$flavour'" >&2; exit 2 ;;
esac

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
shopt -s nullglob
patches=("$here"/kernel/patches/*.patch)
shopt -u nullglob
srckey=$( { echo "$srcver"; cat "${patches[@]}" /dev/null; } | sha256sum | cut -c1-8)
frag_files=()
for f in $fragments; do frag_files+=("$here/kernel/$f.config"); done
key=$( { echo "$srckey"; cat "${frag_files[@]}" /dev/null; } | sha256sum | cut -c1-16)
src=$cache/src/linux-source-6.1-$srcver-$srckey
out=$cache/kernel/$flavour-$key

if [ -f "$out/.padnet-built" ]; then
	echo "$out"
	exit 0
fi

# The runner's background builds and its host checks may all ask for the
# tree at once: one unpacks it, the others wait for it.
unpack_source() {
	echo "build-kernel.sh: unpacking $tarball (about 15 s)" >&2
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
	for p in "${patches[@]}"; do
		echo "build-kernel.sh: applying $(basename "$p")" >&2
		patch -s -p1 -d "$src.tmp" < "$p"
	done
	touch "$src.tmp/.padnet-unpacked"
	mv "$src.tmp" "$src"
}

if [ ! -f "$src/.padnet-unpacked" ]; then
	mkdir -p "$cache/src"
	exec {lock}> "$src.lock"
	flock -n "$lock" ||
		{ echo "build-kernel.sh: waiting for another unpack of the source" >&2; flock "$lock"; }
	[ -f "$src/.padnet-unpacked" ] || unpack_source
	exec {lock}>&-
fi

if [ "$flavour" = source ]; then
	echo "$src"
	exit 0
fi

start=$(date +%s)
rm -rf "$out"
mkdir -p "$out"
log=$out/build.log
echo "build-kernel.sh: building the $flavour kernel (not cached for these config fragments and patches); log: $log" >&2
make -s -C "$src" O="$out" ARCH=x86_64 allnoconfig > "$log" 2>&1
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
	"${frag_files[@]}" >> "$log" 2>&1
make -s -C "$src" O="$out" olddefconfig >> "$log" 2>&1

# A fragment line that did not survive olddefconfig means a dependency is
# missing: fail now rather than boot a kernel without the feature. A later
# fragment overrides an earlier one, as merge_config.sh does.
declare -A want
for f in "${frag_files[@]}"; do
	while IFS= read -r line; do
		want[${line%%=*}]=$line
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=[y0-9]' "$f")
	while IFS= read -r sym; do
		want[$sym]=unset
	done < <(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$f")
done
missing=0
for sym in "${!want[@]}"; do
	if [ "${want[$sym]}" = unset ]; then
		grep -q "^$sym=" "$out/.config" || continue
		echo "build-kernel.sh: $sym is set but must not be" >&2
	else
		grep -qxF "${want[$sym]}" "$out/.config" && continue
		echo "build-kernel.sh: '${want[$sym]}' did not take" >&2
	fi
	missing=1
done
[ "$missing" = 0 ] || exit 1

# A kernel build takes minutes: say every minute that it is still going.
( while sleep 60; do
	echo "build-kernel.sh: $flavour kernel still building, $(( ($(date +%s) - start) / 60 )) min so far" >&2
done ) &
ticker=$!
trap 'kill "$ticker" 2>/dev/null' EXIT
if ! make -s -C "$src" O="$out" -j"$(($(nproc) + 1))" bzImage modules >> "$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "build-kernel.sh: the $flavour kernel did not build; log: $log" >&2
	exit 1
fi
touch "$out/.padnet-built"
echo "build-kernel.sh: $flavour kernel built in $(($(date +%s) - start)) s" >&2
echo "$out"
