#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-symbols.sh PLUGIN.so [IP_BINARY]
#
# Fails if an undefined symbol of an iproute2 plugin is neither exported by
# the ip binary (nm -D --defined-only) nor defined by libc. Such a symbol
# would kill ip at call time ("symbol lookup error") or, for data, make the
# dlopen() fail silently ("Garbage instead of arguments").
#
# Weak undefined symbols (w: __cxa_finalize, __gmon_start__, ...) may stay
# unresolved and are not checked.

set -eu

plugin=${1:?usage: check-symbols.sh PLUGIN.so [IP_BINARY]}
ip=${2:-/usr/bin/ip}

[ -r "$plugin" ] || { echo "check-symbols: cannot read $plugin" >&2; exit 2; }
[ -r "$ip" ] || { echo "check-symbols: cannot read $ip" >&2; exit 2; }

# libc as the ip binary resolves it (falls back to the toolchain's)
libc=$(ldd "$ip" 2>/dev/null | awk '$1 ~ /^libc\.so/ { print $3 }')
[ -n "$libc" ] || libc=$(gcc -print-file-name=libc.so.6)
[ -r "$libc" ] || { echo "check-symbols: cannot find libc" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Names without their @VERSION / @@VERSION suffix.
defined() {
	nm -D --defined-only "$1" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }'
}

{ defined "$ip"; defined "$libc"; } | sort -u > "$tmp/provided"
nm -D --undefined-only "$plugin" |
	awk '$1 == "U" { sub(/@.*/, "", $2); print $2 }' | sort -u > "$tmp/needed"

missing=$(comm -23 "$tmp/needed" "$tmp/provided")
if [ -n "$missing" ]; then
	echo "check-symbols: $plugin needs symbols that neither $ip nor $libc provide:" >&2
	printf '  %s\n' $missing >&2
	exit 1
fi

# The link_util object must be there, named after the kind, and writable.
kind=$(basename "$plugin" .so)
kind=${kind#link_}
if ! nm -D --defined-only "$plugin" | awk -v s="${kind}_link_util" \
	'$3 == s && ($2 == "D" || $2 == "B") { f = 1 } END { exit !f }'; then
	echo "check-symbols: $plugin lacks a writable (non-const) ${kind}_link_util" >&2
	exit 1
fi

echo "check-symbols: $plugin OK ($(wc -l < "$tmp/needed") undefined symbols, all provided)"
