#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test code stays out of what ships: the modules built for release
# (PADNET_TEST=n, what make demo, make bench and the Debian packages
# load) define no test-hook, fault or knob symbol, and every structure
# the release code uses has the same size in the release build and in
# the test build (PADNET_TEST=y, what make test loads): the structures
# that are tested are the ones that ship. Both built against Debian's
# kernel, whose modules carry the type information pahole reads.
# Negative controls: the same two comparisons must fail on a symbol list
# with a fault symbol (the test build's, and a made-up line) and on two
# structures of different sizes.
# kernels: distro
. "$(dirname "$0")/../lib/host.sh"
command -v pahole > /dev/null || { echo "pahole (dwarves) is not installed"; exit 4; }
kdir=$(qemu-net/build-kernel.sh distro) || exit 1
work=$top/build/test-seams
rc=0

# The structures of the datapath and of the instance, per module: add a
# line MODULE.ko:STRUCT (the name in the debug information, e.g. padnet_*
# for what padata callers write padata_*) to compare one more.
structs="padata/padata.ko:padnet_instance padata/padata.ko:padnet_priv
padata/padata.ko:padnet_domain
padata/padata.ko:padata_pqueue padata/padata.ko:padata_squeue
padata/padata.ko:padata_cpus padata/padata.ko:padata_stats
net/padtun.ko:padtun_batch net/padtun.ko:padtun_crypt
net/padtun.ko:padtun_queue net/padtun.ko:padtun_dev"
# Not a bare "fault": padtun_transform_default would match it.
test_symbols='padnet_test_|padnet_fault_|padtun_knob|knob_|padtun_test_'

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

# same_size KO_A STRUCT_A KO_B STRUCT_B: prints both sizes; false unless
# both are known and equal.
same_size() {
	local a b
	a=$(size "$1" "$2") b=$(size "$3" "$4")
	echo "${a:-?} ${b:-?}"
	[ -n "$a" ] && [ "$a" = "$b" ]
}

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
if echo '0000000000000000 T padnet_fault_takes' | test_free > /dev/null; then
	echo "not ok - negative control: a made-up fault symbol went unseen"
	rc=1
else
	echo "ok - negative control: a made-up fault symbol is seen"
fi

for entry in $structs; do
	ko=${entry%:*} s=${entry#*:}
	if sizes=$(same_size "$work/release/$ko" "$s" "$work/test/$ko" "$s"); then
		echo "ok - struct $s: ${sizes% *} bytes in both builds"
	else
		echo "not ok - struct $s: ${sizes% *} bytes in release, ${sizes#* } in test"
		rc=1
	fi
done
# The comparison must report a difference: two structs of different
# sizes, both found (a struct pahole cannot find fails too, vacuously).
if sizes=$(same_size "$work/release/padata/padata.ko" padata_squeue \
		"$work/test/padata/padata.ko" padata_pqueue); then
	echo "not ok - negative control: different structs compare equal ($sizes)"
	rc=1
elif [[ " $sizes " == *" ? "* ]]; then
	echo "not ok - negative control: pahole found no size ($sizes)"
	rc=1
else
	echo "ok - negative control: ${sizes% *} against ${sizes#* } bytes is reported"
fi
exit $rc
