#!/bin/sh
# A module that WARNs on load: the dmesg scan must report it, so that any
# scenario with a kernel warning fails.
# kernels: check
# guests: 1
# cpus: 1
# mem: 256
# timeout: 60
# modules: warn_on_load
# expect: dmesg-report
echo "harness-warn: warn_on_load is loaded"
