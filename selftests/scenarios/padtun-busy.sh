#!/bin/sh
# padata's own in-flight limit far below padtun's: padata_do_parallel says
# -EBUSY all the time, and the backlogs must keep every packet, in order.
# Over an IPv6 underlay, with gcm-aes. The limit is 2 objects: since a
# light batch stays on its serial CPU and its worker takes the next one,
# a TCP sender rarely has 8 batches in flight.
# kernels: check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

KEY=000102030405060708090a0b0c0d0e0f
if [ "$ROLE" = a ]; then ME6=fd00::1 PEER6=fd00::2; else ME6=fd00::2 PEER6=fd00::1; fi

insmod /lib/modules/padnet/padata.ko max_inflight=2 &&
	insmod /lib/modules/padnet/padtun.ko
ok $? "padata loaded with max_inflight=2, padtun loaded"
ip addr add $ME6/64 dev eth0 nodad
ok $? "eth0 has $ME6"

ip link add padtun0 type padtun local $ME6 remote $PEER6 port 5555 \
	key $KEY transform gcm-aes cpus 0-1 maxinflight 1000
ok $? "padtun0 over IPv6, gcm-aes, maxinflight 1000"
padtun_up
ok $? "padtun0 up, mtu $(cat /sys/class/net/padtun0/mtu)"
sync_with_peer links-up

ping -c 3 -W 5 $OTHER > /dev/null
ok $? "ping $OTHER"

tcp_then_seqcheck 6000 2000
sync_with_peer seqcheck-done

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
