#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test code stays out of what ships: the modules built for release
# (PADNET_TEST=n, what make demo, make bench and the Debian packages
# load) define no test-hook, fault or knob symbol, and every structure
# the release code uses has the same size in the release build and in
# the test build (PADNET_TEST=y, what make test loads): the structures
# that are tested are the ones that ship. Both built against Debian's
# kernel, whose modules carry the type information pahole reads.
# Negative controls: a symbol list with a fault symbol, and two different
# sizes, must each fail the comparison.
# kernels: distro
. "$(dirname "$0")/../lib/host.sh"
command -v pahole > /dev/null || { echo "pahole (dwarves) is not installed"; exit 4; }
kdir=$(qemu-net/build-kernel.sh distro) || exit 1
work=$top/build/test-seams
rc=0

# The structures of the datapath and of the instance, per module.
structs="padata/padata.ko:padnet_instance padata/padata.ko:padnet_priv
padata/padata.ko:padata_pqueue padata/padata.ko:padata_squeue
padata/padata.ko:padata_cpus padata/padata.ko:padata_stats
net/padtun.ko:padtun_batch net/padtun.ko:padtun_crypt
net/padtun.ko:padtun_queue net/padtun.ko:padtun_dev"
test_symbols='padnet_test_|padnet_fault_|padtun_knob|padtun_test_'

for build in release:n test:y; do
	rm -rf "$work/${build%:*}"
	if ! out=$(PADNET_TEST=${build#*:} qemu-net/build-modules.sh "$kdir" \
			"$work/${build%:*}" -s 2>&1); then
		echo "$out"
		echo "not ok - the ${build%:*} build of the modules failed"
		exit 1
	fi
done

# test_free < nm output: false when a test symbol is defined.
test_free() { ! awk 'NF == 3 { print $3 }' | grep -E "$test_symbols"; }

# size KO STRUCT: the struct's size in the module, from pahole.
size() { pahole -C "$2" "$1" 2>/dev/null | sed -n 's|.*/\* size: \([0-9]*\),.*|\1|p' | head -n 1; }

if nm "$work/release/padata/padata.ko" "$work/release/net/padtun.ko" | test_free; then
	echo "ok - the release modules define no test, fault or knob symbol"
else
	echo "not ok - test symbols in the release modules (above)"
	rc=1
fi
if nm "$work/test/padata/padata.ko" | test_free > /dev/null; then
	echo "not ok - negative control: the test build's padnet_fault_* went unseen"
	rc=1
else
	echo "ok - negative control: the test build's fault symbols are seen"
fi

for entry in $structs; do
	ko=${entry%:*} s=${entry#*:}
	rel=$(size "$work/release/$ko" "$s") tst=$(size "$work/test/$ko" "$s")
	if [ -z "$rel" ] || [ "$rel" != "$tst" ]; then
		echo "not ok - struct $s: ${rel:-?} bytes in release, ${tst:-?} in test"
		rc=1
	else
		echo "ok - struct $s: $rel bytes in both builds"
	fi
done
# The comparison must report a difference: two structs of different sizes.
rel=$(size "$work/release/padata/padata.ko" padata_squeue)
tst=$(size "$work/test/padata/padata.ko" padata_pqueue)
if [ -n "$rel" ] && [ "$rel" != "$tst" ]; then
	echo "ok - negative control: $rel against $tst bytes is reported"
else
	echo "not ok - negative control: different structs compare equal ($rel, $tst)"
	rc=1
fi
exit $rc
