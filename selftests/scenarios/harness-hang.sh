#!/bin/sh
# A guest whose script never ends: the harness must stop it at its timeout,
# show its console and leave no QEMU process behind.
# kernels: check
# guests: 1
# cpus: 1
# mem: 256
# timeout: 25
# expect: timeout
echo "harness-hang: sleeping forever"
while :; do sleep 1000; done
