#!/bin/sh
# The asynchronous AEAD path: with the async_crypto test knob every AEAD
# call is made from a work item and reported through the completion
# callback, which calls padata_do_serial later, from another context.
# Traffic stays in order and complete, and the link and modules go away
# with requests in flight.
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh

# Debian's ip with the padtun plugin, not busybox's applet of the same name.
ip() { /bin/ip "$@"; }

KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
KNOBS=/sys/kernel/debug/padtun
if [ "$ROLE" = a ]; then ME=198.19.0.1 OTHER=198.19.0.2; else ME=198.19.0.2 OTHER=198.19.0.1; fi

echo 1 > $KNOBS/async_crypto && echo 200 > $KNOBS/delay_us_max &&
	echo 1 > $KNOBS/defer_serial
ok $? "test knobs on: async_crypto, delay_us_max 200, defer_serial"
ip link add padtun0 type padtun local "$ADDR" remote "$PEER" port 5555 \
	key $KEY cpus 0-1
ok $? "ip link add padtun0"
ip addr add $ME/24 dev padtun0 && ip link set padtun0 up
sync_with_peer

if [ "$ROLE" = a ]; then
	iperf3 -s -1 > /dev/null 2>&1 &
	wait_for_listen 5201
	sync_with_peer
	wait
	sync_with_peer
	seqcheck send $OTHER 6000 4000 1000 --rate 1000 > /dev/null
	ok $? "seqcheck sent 4000 datagrams"
	sync_with_peer
	iperf3 -s > /dev/null 2>&1 &
	server=$!
	wait_for_listen 5201
	sync_with_peer
	sleep 3
	ip link del padtun0
	ok $? "padtun0 deleted with requests in flight"
	rmmod padtun && rmmod padata
	ok $? "modules unloaded"
	sync_with_peer
	kill $server
else
	sync_with_peer
	iperf3 -c $OTHER -t 4 > /dev/null
	ok $? "iperf3 TCP $ME -> $OTHER"
	seqcheck recv 6000 4000 --timeout 10 > "$RESULTS/seqcheck.txt" 2>&1 &
	recv=$!
	sleep 1
	sync_with_peer
	wait $recv
	ok $? "seqcheck: in order, nothing lost ($(grep received "$RESULTS/seqcheck.txt"))"
	ethtool -S padtun0 > "$RESULTS/ethtool.txt"
	sync_with_peer
	sync_with_peer
	iperf3 -c $OTHER -t 30 > /dev/null 2>&1 &
	sleep 5
	rmmod padtun && rmmod padata
	ok $? "modules unloaded (deleting padtun0) with requests in flight"
	sync_with_peer
	kill %1 2>/dev/null
	wait 2>/dev/null
fi
tap_exit
