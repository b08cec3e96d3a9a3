#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# modpost on the project's modules, against the check kernel (built with
# CONFIG_DEBUG_SECTION_MISMATCH): a section mismatch or any other modpost
# warning fails, as an in-tree build would flag it.
# kernels: check
. "$(dirname "$0")/../lib/host.sh"
out=$(make_modules "$top/build/modpost" 2>&1)
rc=$?
echo "$out" | grep -E 'WARNING|ERROR|mismatch'
[ "$rc" = 0 ] && ! echo "$out" | grep -qE 'WARNING: modpost|mismatch'
