#!/bin/sh
# The padata KUnit contract suite "padata" (padata/padata_test.c): return
# codes, completion contexts, sequence wrap, order across mask changes,
# hotplug rules, lifetime, several instances and ordering domains,
# backpressure, the walk bound and exact -EBUSY, deterministic races,
# negative controls, debugfs. The load suite is padata-stress.sh.
# kernels: check sanitizer up
# guests: 1
# cpus: 4
# mem: 1024
# timeout: 900
# modules: padata
. /selftests/lib/guest.sh

suite=${PADATA_SUITE:-padata}
results=/sys/kernel/debug/kunit/$suite/results

# insmod returns when the suite has run: the module runs it at load.
insmod /lib/modules/padnet/padata_test.ko suite="$suite"
ok $? "insmod padata_test.ko suite=$suite"

if [ -f "$results" ]; then
	# KUnit 6.1 keeps 512 bytes of log per case in debugfs: a case with a
	# long failure report loses its own result line there. The kernel log
	# has every line: take the suite's KTAP from it.
	dmesg | sed 's/^\[[ 0-9.]*\] //' |
		sed -n "/^    # Subtest: $suite\$/,/^\(not \)\{0,1\}ok [0-9]* $suite\$/p" \
		> "$RESULTS/$suite.ktap"
	cp "$results" "$RESULTS/$suite.debugfs.txt"
	[ -s "$RESULTS/$suite.ktap" ]
	ok $? "KTAP results copied"
	# The suite's own verdict: its top-level "ok/not ok N padata" line.
	grep -Eq "^ok [0-9]+ (- )?$suite\b" "$RESULTS/$suite.ktap"
	ok $? "suite $suite passed"
else
	ok 1 "no $results"
fi

rmmod padata_test
ok $? "rmmod padata_test"
rmmod padata
ok $? "rmmod padata (no instance left behind)"
tap_exit
