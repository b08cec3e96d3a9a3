#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# padata.ko and padtun.ko next to a kernel with its own padata built in
# (CONFIG_PADATA=y: the check kernel and Debian's): they build against it,
# modpost accepts their exports, and no symbol they define globally is
# also a symbol of the kernel (System.map: every function and variable,
# static ones too, since those show in traces and kallsyms).
# kernels: check distro
. "$(dirname "$0")/../lib/host.sh"
rc=0
for flavour in check distro; do
	kdir=$(qemu-net/build-kernel.sh "$flavour") || exit 1
	grep -qx 'CONFIG_PADATA=y' "$kdir/.config" "$kdir/include/config/auto.conf" 2>/dev/null ||
		{ echo "$flavour: the kernel has no CONFIG_PADATA=y"; rc=1; }
	work=$top/build/symbols-$flavour
	rm -rf "$work"
	if ! out=$(qemu-net/build-modules.sh "$kdir" "$work" -s 2>&1); then
		echo "$out"
		echo "$flavour: the modules did not build"
		rc=1
		continue
	fi
	clash=$(nm -g --defined-only "$work/padata/padata.ko" "$work/net/padtun.ko" |
		awk 'NF == 3 { print $3 }' | sort -u |
		comm -12 - <(awk '{ print $3 }' "$kdir/System.map" | sort -u))
	if [ -n "$clash" ]; then
		echo "$flavour: symbols of ours that the kernel has too:" $clash
		rc=1
	else
		echo "$flavour: $(nm -g --defined-only "$work/padata/padata.ko" "$work/net/padtun.ko" |
			awk 'NF == 3' | wc -l) global symbols, none in System.map"
	fi
done
exit $rc
