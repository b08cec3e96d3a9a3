#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel-log scanner's controls: the known 6.1 padata lockdep report
# alone passes, the same report from our own padnet_do_serial fails, and a
# real report next to the known one still fails; a net device that never
# becomes free (a leaked reference) fails.
. "$(dirname "$0")/../lib/host.sh"
fixtures=selftests/host/dmesg-scan
scan=selftests/lib/dmesg-scan.sh
rc=0
expect() {	# expect EXIT_CODE FIXTURE
	local got
	"$scan" "$fixtures/$2" > /dev/null
	got=$?
	[ "$got" = "$1" ] && return 0
	echo "dmesg-scan $2: exit $got, expected $1"
	rc=1
}
expect 0 known-padata.txt
expect 1 recursive-ours.txt
expect 1 known-and-kasan.txt
expect 1 netdev-refleak.txt
exit $rc
