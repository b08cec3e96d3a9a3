#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# net/ has no loops: no two files include each other, directly or through
# others, and no two call each other (a function or variable of one used
# by the other's object, found with nm), so its dependencies run one way,
# from the device down to the queueing and the crypto. Built as the tests
# build it (knobs and KUnit suites included: they must not loop either).
# Negative control: the same graph with one call or one include added
# against the grain must be reported.
# kernels: check
. "$(dirname "$0")/../lib/host.sh"
work=$top/build/layering
if ! out=$(make_modules "$work" -s 2>&1); then
	echo "$out"
	echo "not ok - the modules did not build"
	exit 1
fi
check=selftests/host/layering.py
rc=0
if out=$("$check" net "$work/net"); then
	echo "ok - net/: $out"
else
	echo "$out"
	echo "not ok - net/ has loops"
	rc=1
fi
# Receive calls the queueing layer: the queueing layer calling it back, or
# the crypto's header including the device's, closes a loop.
for extra in queueing.c:receive.c transform.h:padtun.h; do
	if out=$("$check" net "$work/net" --add "$extra"); then
		echo "not ok - negative control: $extra added, no loop found: $out"
		rc=1
	else
		echo "ok - negative control: $extra added: $(head -n 1 <<< "$out")"
	fi
done
exit $rc
