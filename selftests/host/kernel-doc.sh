#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-doc -none on the exported headers and the files that export: any
# complaint (a missing parameter, a misnamed member) fails.
# kernels: source
. "$(dirname "$0")/../lib/host.sh"
files=$(git ls-files -co --exclude-standard -- 'padata/include/*.h' 'net/include/*.h')
files+=" $(grep -l 'EXPORT_SYMBOL' $(kernel_c_files))"
# shellcheck disable=SC2086
out=$("$ksrc/scripts/kernel-doc" -none $files 2>&1)
[ -z "$out" ] || { echo "$out"; exit 1; }
