#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the project's modules (padata, net, the test and benchmark modules)
# against a kernel build tree, in a copy of their sources under WORKDIR so
# that nothing is built inside the repository and flavours never share
# objects.
#
# usage: build-modules.sh KDIR WORKDIR [MAKE ARGS...]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kdir=${1:?usage: build-modules.sh KDIR WORKDIR [MAKE ARGS...]}
work=${2:?usage: build-modules.sh KDIR WORKDIR [MAKE ARGS...]}
shift 2

# A test build (for every kernel of ours) compiles in the test hooks,
# knobs and KUnit suites; the build for Debian's kernel, which the demo and
# the benchmark load, has none. PADNET_TEST=y or n overrides.
if [ -f "$kdir/.padnet-distro" ]; then
	test_build=${PADNET_TEST:-n}
else
	test_build=${PADNET_TEST:-y}
fi
set -- PADNET_TEST="$test_build" "$@"

mkdir -p "$work"
# Objects are kept (excluded from --delete) for incremental rebuilds.
# Sources are compared by content and a copied one gets the time of the
# copy, never its own: a source edited during a build is older than the
# object that build made from its previous text, and with its own time
# kept (rsync -a) make would never compile it again.
rsync -rlp --checksum --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
	"$top/padata" "$top/net" "$top/selftests" "$top/bench" "$work/"
make -C "$kdir" M="$work/padata" "$@" modules
make -C "$kdir" M="$work/net" "$@" \
	KBUILD_EXTRA_SYMBOLS="$work/padata/Module.symvers" modules
make -C "$kdir" M="$work/selftests/modules" "$@" modules
make -C "$kdir" M="$work/bench" "$@" \
	KBUILD_EXTRA_SYMBOLS="$work/padata/Module.symvers" modules
