#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scan a guest's kernel log (and kmemleak report) for anything a kernel
# developer would call a bug. Prints each report with its context and
# exits 1 when there is one.
#
# usage: dmesg-scan.sh DMESG_FILE [KMEMLEAK_FILE]

dmesg=${1:?usage: dmesg-scan.sh DMESG_FILE [KMEMLEAK_FILE]}
kmemleak=${2:-}
found=0

pattern='(WARNING:|BUG:|BUG: KASAN|kernel BUG at|Oops|general protection fault'
pattern+='|Kernel panic|UBSAN:|ODEBUG:|DEBUG_LOCKS_WARN_ON|list_(add|del) corruption'
pattern+='|INFO: task .* blocked for more than|INFO: rcu_.* detected stalls'
pattern+='|rcu: INFO:|possible (circular|recursive) locking|inconsistent lock state'
pattern+='|Unable to handle kernel)'

if grep -qE "$pattern" "$dmesg"; then
	found=1
	echo "dmesg-scan: kernel reports in $dmesg:"
	grep -nE -A 25 "$pattern" "$dmesg" | head -n 120
fi
if [ -f "$kmemleak" ] && grep -q 'unreferenced object' "$kmemleak"; then
	found=1
	echo "dmesg-scan: kmemleak reports in $kmemleak:"
	head -n 60 "$kmemleak"
fi
exit "$found"
