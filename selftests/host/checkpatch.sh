#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch --strict on every kernel C file of the project.
# kernels: source
. "$(dirname "$0")/../lib/host.sh"
# shellcheck disable=SC2046
"$ksrc/scripts/checkpatch.pl" --no-tree --strict --terse --show-types \
	--ignore SPDX_LICENSE_TAG -f $(kernel_c_files) | grep -E ': (ERROR|WARNING|CHECK):'
[ "${PIPESTATUS[0]}" = 0 ]
