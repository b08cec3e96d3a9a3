#!/bin/sh
# A guest that never reaches /init (its rdinit is a shell waiting for input
# that never comes, as a kernel stalled in early boot would): the launcher
# boots it once more, then fails at the timeout and leaves no QEMU behind.
# kernels: check
# guests: 1
# cpus: 1
# mem: 256
# timeout: 40
# append: rdinit=/bin/sh
# expect: stall
echo "harness-stall: /init ran, which this test must prevent"
exit 1
