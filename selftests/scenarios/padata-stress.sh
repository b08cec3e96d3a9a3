#!/bin/sh
# The padata KUnit load suite "padata_stress" (padata/padata_test.c):
# 100,000 objects from several submitters, the walk bound under load, mask
# changes and CPU hotplug under load, a deterministic hotplug with parked
# objects. Only on "check": KASAN under TCG is too slow for it, and the up
# kernel has neither a second CPU nor hotplug.
# kernels: check
# guests: 1
# cpus: 4
# mem: 1024
# timeout: 900
# modules: padata
PADATA_SUITE=padata_stress
# insmod waits for each case uninterruptibly. The walk-bound case runs its
# 100,000 objects in about 35 s on a quiet host, nearer the detector's 60 s
# on a busy one; a case that stops making progress fails by itself after
# 45 s, so the detector only needs to catch what the suite cannot.
echo 120 > /proc/sys/kernel/hung_task_timeout_secs
. /selftests/scenarios/padata-kunit.sh
