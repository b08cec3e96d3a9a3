#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sparse (make C=2) over every module of the project, against the check
# kernel: any sparse warning fails.
# kernels: check
. "$(dirname "$0")/../lib/host.sh"
out=$(make_modules "$top/build/sparse" -s C=2 2>&1)
rc=$?
echo "$out"
[ "$rc" = 0 ] && ! echo "$out" | grep -qE 'warning:|error:'
