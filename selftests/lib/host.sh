# SPDX-License-Identifier: GPL-2.0
# Shared by the host checks: where the kernel sources are, and which files
# are kernel code (the iproute2 plugin and the selftests tools are not).
top=${PADNET_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
ksrc=$(qemu-net/build-kernel.sh source) || exit 1

kernel_c_files() {
	git ls-files -co --exclude-standard -- 'padata/*.[ch]' 'net/*.[ch]' \
		'selftests/modules/*.[ch]' 'bench/*.[ch]' | grep -v '^net/iproute2/'
}

# make_modules WORKDIR [MAKE ARGS...]: build every module of the project
# afresh in WORKDIR against the check kernel.
make_modules() {
	local work=$1 kdir
	shift
	kdir=$(qemu-net/build-kernel.sh check) || return 1
	rm -rf "$work"
	qemu-net/build-modules.sh "$kdir" "$work" "$@"
}
