#!/bin/sh
# The padtun KUnit suite (net/padtun_test.c): the replay window (in order,
# late in the window, duplicates, far behind, session change, wrap at the
# top, one window per ordering domain), the seq field's domain and count,
# and the keys (directions and sessions of one configured key never
# share a key, so never a (key, nonce) pair; sessions only move forward)
# and the nonce (lib/crypto's chacha20poly1305 and the crypto API's agree)
# and the bounds of the header's checksum hint.
# kernels: check sanitizer
# guests: 1
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh

suite=padtun
results=/sys/kernel/debug/kunit/$suite/results

# insmod returns when the suite has run: kunit runs it at module load.
insmod /lib/modules/padnet/padtun_test.ko
ok $? "insmod padtun_test.ko"

if [ -f "$results" ]; then
	cp "$results" "$RESULTS/$suite.ktap"
	ok 0 "KTAP results copied"
	grep -Eq "^ok [0-9]+ (- )?$suite\b" "$results"
	ok $? "suite $suite passed"
else
	ok 1 "no $results"
fi

rmmod padtun_test
ok $? "rmmod padtun_test"
rmmod padtun
ok $? "rmmod padtun"
tap_exit
