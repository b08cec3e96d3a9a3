#!/bin/sh
# The padata KUnit suite (padata/padata_test.c): return codes, ordering of
# 100,000 objects, completion contexts, sequence wrap, mask changes and CPU
# hotplug under load, lifetime, several instances, backpressure, debugfs.
# kernels: check sanitizer up
# guests: 1
# cpus: 4
# mem: 1024
# timeout: 900
# modules: padata
. /selftests/lib/guest.sh

suite=padata
results=/sys/kernel/debug/kunit/$suite/results

# insmod returns when the suite has run: kunit runs it at module load.
# The same sizes on both kernels: the suite takes seconds on "check".
insmod /lib/modules/padnet/padata_test.ko
ok $? "insmod padata_test.ko"

if [ -f "$results" ]; then
	cp "$results" "$RESULTS/$suite.ktap"
	ok 0 "KTAP results copied"
	# The suite's own verdict: its top-level "ok/not ok N padata" line.
	grep -Eq "^ok [0-9]+ (- )?$suite\b" "$results"
	ok $? "suite $suite passed"
else
	ok 1 "no $results"
fi

rmmod padata_test
ok $? "rmmod padata_test"
rmmod padata
ok $? "rmmod padata (no instance left behind)"
tap_exit
