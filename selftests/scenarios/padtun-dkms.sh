#!/bin/sh
# padtun installed the Debian way on Debian's stock kernel: padata.ko and
# padtun.ko as dkms built them from the padnet-dkms package (in
# /lib/modules/RELEASE/updates/dkms/, the image's own copies removed, so
# modprobe can only find these), the iproute2 plugin and seqcheck from the
# padnet-tools package. The modules load and taint the kernel (E: not
# signed), and padtun carries iperf3 TCP and UDP both ways, UDP with 0
# datagrams out of order, and a sequence-checked stream each way, complete
# and in order (both_ways_traffic, as padtun-both-ways).
# The package build and the dkms build run on the host, before the guests
# boot (initrd-extra; the host check deb builds the same and is reused).
# kernels: distro
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# initrd-extra: packaging/guest-overlay.sh
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

# What dpkg installed comes before the test bed's own tools.
export PATH=/usr/bin:$PATH
mods=/lib/modules/$(uname -r)
[ -f $mods/updates/dkms/padata.ko ] && [ -f $mods/updates/dkms/padtun.ko ]
ok $? "dkms's padata.ko and padtun.ko in $mods/updates/dkms"
# As "dkms install" leaves it: the modules in updates/dkms, depmod run
# (kmod's, by path: busybox's shell prefers its own applets).
rm -f $mods/extra/padata.ko $mods/extra/padtun.ko
/sbin/depmod
ok $? "depmod"
/sbin/modprobe --show-depends padtun > "$RESULTS/show-depends.txt"
grep -q "^insmod $mods/updates/dkms/padata.ko" "$RESULTS/show-depends.txt" &&
	grep -q "^insmod $mods/updates/dkms/padtun.ko" "$RESULTS/show-depends.txt"
ok $? "modprobe padtun loads dkms's padata.ko and padtun.ko"
/sbin/modprobe padtun
ok $? "modprobe padtun (and padata with it)"
grep -q E /sys/module/padata/taint && grep -q E /sys/module/padtun/taint
ok $? "the modules are unsigned and taint the kernel: $(cat /sys/module/padtun/taint)"
[ "$(command -v seqcheck)" = /usr/bin/seqcheck ]
ok $? "padnet-tools' seqcheck: $(command -v seqcheck)"

padtun_add transform chacha20poly1305
ok $? "ip link add padtun0 type padtun (padnet-tools' plugin)"
padtun_up
ok $? "padtun0 up with $ME"
sync_with_peer links-up
ping -c 3 -W 5 $OTHER > /dev/null
ok $? "ping $OTHER through the tunnel"
both_ways_traffic

ethtool -S padtun0 > "$RESULTS/ethtool.txt"
[ "$(stat rx_auth_failed)" = 0 ] && [ "$(stat rx_replayed)" = 0 ]
ok $? "no auth failure, no replay"
ip link del padtun0
ok $? "ip link del padtun0"
/sbin/modprobe -r padtun padata
ok $? "modprobe -r padtun padata"
tap_exit
