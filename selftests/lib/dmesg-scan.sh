#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scan a guest's kernel log (and kmemleak report) for anything a kernel
# developer would call a bug. Prints each report with its context and
# exits 1 when there is one.
#
# One report is known and not ours: 6.1.192's kernel/padata.c (the stable
# backport of "padata: Fix pd UAF once and for all") calls
# padata_find_next(), which takes a reorder list's lock, while it holds a
# serial queue's lock. Both are struct padata_list locks of one lockdep
# class, always taken in that order, so lockdep calls it recursive locking.
# pcrypt (coexist-pcrypt) hits it. It is reported as known, not as a
# failure; lockdep is off for the rest of that boot, which is said too.
#
# usage: dmesg-scan.sh DMESG_FILE [KMEMLEAK_FILE]

dmesg=${1:?usage: dmesg-scan.sh DMESG_FILE [KMEMLEAK_FILE]}
kmemleak=${2:-}
found=0

pattern='(WARNING:|BUG:|BUG: KASAN|kernel BUG at|Oops|general protection fault'
pattern+='|Kernel panic|UBSAN:|ODEBUG:|DEBUG_LOCKS_WARN_ON|list_(add|del) corruption'
pattern+='|INFO: task .* blocked for more than|INFO: rcu_.* detected stalls'
pattern+='|rcu: INFO:|possible (circular|recursive) locking|inconsistent lock state'
pattern+='|Unable to handle kernel|unregister_netdevice: waiting for .* to become free)'

# without_known_reports: the log minus the known report above, from its
# "possible recursive locking" line to the end of its backtrace.
without_known_reports()
{
	awk '
	function flush() { for (i = 1; i <= n; i++) print buf[i]; n = 0 }
	/possible recursive locking detected/ { flush(); inrep = 1 }
	inrep {
		buf[++n] = $0
		if ($0 ~ /<\/TASK>/ || n > 80) {
			known = 0
			for (i = 1; i < n; i++)
				if (buf[i] ~ /is trying to acquire lock:/ &&
				    buf[i + 1] ~ /\(&pd_list->lock\).* at: padata_do_serial\+/)
					known++
				else if (buf[i] ~ /already holding lock:/ &&
					 buf[i + 1] ~ /\(&pd_list->lock\).* at: padata_do_serial\+/)
					known++
			if (known == 2) {
				print "dmesg-scan-known"
				n = 0
			} else {
				flush()
			}
			inrep = 0
		}
		next
	}
	{ print }
	END { flush() }
	' "$dmesg"
}

scanned=$(without_known_reports)
if grep -q '^dmesg-scan-known$' <<<"$scanned"; then
	echo "dmesg-scan: $dmesg: the 6.1 padata_do_serial lockdep report" \
	     "(not ours: see dmesg-scan.sh); lockdep is off for the rest of that boot"
fi
if grep -qE "$pattern" <<<"$scanned"; then
	found=1
	echo "dmesg-scan: kernel reports in $dmesg:"
	grep -nE -A 25 "$pattern" <<<"$scanned" | head -n 120
fi
if [ -f "$kmemleak" ] && grep -q 'unreferenced object' "$kmemleak"; then
	found=1
	echo "dmesg-scan: kmemleak reports in $kmemleak:"
	head -n 60 "$kmemleak"
fi
exit "$found"
