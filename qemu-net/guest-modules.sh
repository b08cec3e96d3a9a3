#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Put a guest kernel's own modules, and the given modules of ours (in
# extra/), under STAGE/lib/modules/RELEASE/ with a modules.dep, so that
# kmod's modprobe in the guest loads ours with their dependencies and
# serves the kernel's own module requests (crypto templates, rtnl-link-*,
# xfrm types). A kernel we built installs all of its modules (the few that
# are not built in); Debian's kernel, the part of its 4000 that the guests
# use: virtio, networking, tunnels, IPsec, qdiscs, crypto. The scenarios
# insmod ours from /lib/modules/padnet/, a link to extra/.
#
# usage: guest-modules.sh KDIR STAGE [MODULE.ko...]
set -euo pipefail

kdir=${1:?usage: guest-modules.sh KDIR STAGE [MODULE.ko...]}
stage=${2:?usage: guest-modules.sh KDIR STAGE [MODULE.ko...]}
shift 2
release=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h")
dest=$stage/lib/modules/$release

if [ -f "$kdir/.padnet-distro" ]; then
	from=$(cat "$kdir/.padnet-distro")/lib/modules/$release
	mkdir -p "$dest"
	cp "$from"/modules.builtin* "$from/modules.order" "$dest/"
	(cd "$from" && cp -a --parents \
		kernel/crypto kernel/arch/x86/crypto kernel/lib \
		kernel/net/ipv4 kernel/net/ipv6 kernel/net/xfrm kernel/net/core \
		kernel/net/sched kernel/drivers/virtio kernel/drivers/char/virtio_console.ko \
		kernel/drivers/char/hw_random/virtio-rng.ko \
		kernel/drivers/net/wireguard kernel/drivers/net/vxlan \
		kernel/drivers/net/virtio_net.ko kernel/drivers/net/net_failover.ko \
		"$dest/")
else
	make -s -C "$kdir" INSTALL_MOD_PATH="$stage" INSTALL_MOD_STRIP=1 \
		DEPMOD=/bin/true modules_install
	rm -f "$dest/build" "$dest/source"
fi
mkdir -p "$dest/extra"
[ $# = 0 ] || cp "$@" "$dest/extra/"
ln -sfn "$release/extra" "$stage/lib/modules/padnet"
depmod -b "$stage" "$release"
