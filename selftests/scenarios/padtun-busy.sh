#!/bin/sh
# padata's own in-flight limit far below padtun's: padata_do_parallel says
# -EBUSY all the time, and the backlogs must keep every packet, in order.
# Over an IPv6 underlay, with gcm-aes.
# kernels: check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
. /selftests/lib/guest.sh

# Debian's ip with the padtun plugin, not busybox's applet of the same name.
ip() { /bin/ip "$@"; }

KEY=000102030405060708090a0b0c0d0e0f
if [ "$ROLE" = a ]; then
	ME=198.19.0.1 OTHER=198.19.0.2 ME6=fd00::1 PEER6=fd00::2
else
	ME=198.19.0.2 OTHER=198.19.0.1 ME6=fd00::2 PEER6=fd00::1
fi

stat() {
	ethtool -S padtun0 | sed -n "s/^ *$1: //p"
}

insmod /lib/modules/padnet/padata.ko max_inflight=8 &&
	insmod /lib/modules/padnet/padtun.ko
ok $? "padata loaded with max_inflight=8, padtun loaded"
ip addr add $ME6/64 dev eth0 nodad
ok $? "eth0 has $ME6"

ip link add padtun0 type padtun local $ME6 remote $PEER6 port 5555 \
	key $KEY transform gcm-aes cpus 0-1 maxinflight 1000
ok $? "padtun0 over IPv6, gcm-aes, maxinflight 1000"
ip addr add $ME/24 dev padtun0 && ip link set padtun0 up
ok $? "padtun0 up, mtu $(cat /sys/class/net/padtun0/mtu)"
sync_with_peer

ping -c 3 -W 5 $OTHER > /dev/null
ok $? "ping $OTHER"

if [ "$ROLE" = a ]; then
	iperf3 -s -1 > /dev/null 2>&1 &
	wait_for_listen 5201
	sync_with_peer
	wait
	sync_with_peer
	seqcheck send $OTHER 6000 6000 1000 --rate 2000 > /dev/null
	ok $? "seqcheck sent 6000 datagrams"
else
	sync_with_peer
	iperf3 -c $OTHER -t 4 > /dev/null
	ok $? "iperf3 TCP $ME -> $OTHER"
	seqcheck recv 6000 6000 --timeout 10 > "$RESULTS/seqcheck.txt" 2>&1 &
	recv=$!
	sleep 1
	sync_with_peer
	wait $recv
	ok $? "seqcheck: in order, nothing lost ($(grep received "$RESULTS/seqcheck.txt"))"
fi
sync_with_peer

ethtool -S padtun0 > "$RESULTS/ethtool.txt"
busy=$(($(stat tx_busy) + $(stat rx_busy)))
echo "# tx_busy $(stat tx_busy) rx_busy $(stat rx_busy)"
[ "$busy" -gt 0 ]
ok $? "padata said -EBUSY ($busy times)"
[ "$(stat tx_dropped)" = 0 ] && [ "$(stat rx_dropped)" = 0 ]
ok $? "and nothing was dropped for it"

ip link del padtun0 && rmmod padtun && rmmod padata
ok $? "link deleted, modules unloaded"
tap_exit
