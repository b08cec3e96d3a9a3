#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The iproute2 plugin against this machine's stock ip, without the module:
# the exported-symbol check, then help texts, netlink encoding (strace in a
# fresh netns), client-side errors and printing (iproute2-plugin.py).
. "$(dirname "$0")/../lib/host.sh"
make -s tools || exit 1
python3 selftests/host/iproute2-plugin.py build/tools
