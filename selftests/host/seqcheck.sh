#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The sequence checker's negative control: its own classification code must
# pass an in-order stream and flag swapped, duplicated, lost and corrupt
# datagrams ("seqcheck selftest"), before any scenario relies on it.
. "$(dirname "$0")/../lib/host.sh"
make -s -C selftests/tools check O="$top/build/tools"
