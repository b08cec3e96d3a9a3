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
. /selftests/scenarios/padata-kunit.sh
