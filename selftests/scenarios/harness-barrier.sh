#!/bin/sh
# Named barriers (lib/guest.sh: sync_with_peer NAME) must not pair two
# different barriers: guest a waits at one name while guest b comes to
# another. a must say so (a TAP "not ok" line naming both) and the
# scenario must fail for it (tap_exit, run in a subshell here so that the
# failure it counts stays there). The same name passes, and after the
# mismatch the guests, which did meet, go on in step.
# kernels: check
# guests: 2
# cpus: 1
# mem: 512
# timeout: 120
. /selftests/lib/guest.sh

sync_with_peer booted
ok $? "the same name on both guests: barrier 'booted' passes"

if [ "$ROLE" = a ]; then
	(sync_with_peer left; tap_exit) 2> "$RESULTS/mismatch.txt"
	rc=$?
	sed 's/^/# /' "$RESULTS/mismatch.txt"
	[ "$rc" != 0 ] &&
		grep -q "^not ok .*barrier 'left': the peer came to barrier 'right'" \
			"$RESULTS/mismatch.txt"
	ok $? "different names: a at 'left', b at 'right': a says so and the scenario fails (exit $rc)"
else
	# b only sends its name: the check is a's.
	sync_with_peer right
	ok $? "b came to barrier 'right'"
fi

sync_with_peer after-mismatch
ok $? "after the mismatch both guests meet at 'after-mismatch'"
tap_exit
