#!/bin/sh
# The asynchronous AEAD path: with the async_crypto test knob every crypto
# API call is made from a work item and reported through the completion
# callback, which goes on with the batch and calls padata_do_serial later,
# from another context. gcm-aes: chacha20poly1305 calls lib/crypto, which
# is synchronous and never takes that path.
# Traffic stays in order and complete, and the link and modules go away
# with requests in flight.
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

echo 1 > $KNOBS/async_crypto && echo 200 > $KNOBS/delay_us_max &&
	echo 1 > $KNOBS/defer_serial
ok $? "test knobs on: async_crypto, delay_us_max 200, defer_serial"
padtun_add cpus 0-1 transform gcm-aes
ok $? "ip link add padtun0"
padtun_up
sync_with_peer links-up

tcp_then_seqcheck 4000 1000
if [ "$ROLE" = a ]; then
	sync_with_peer seqcheck-done
	iperf3_serve
	sync_with_peer iperf3-serving
	sleep 3
	ip link del padtun0
	ok $? "padtun0 deleted with requests in flight"
	rmmod padtun && rmmod padata
	ok $? "modules unloaded"
	sync_with_peer unloaded
	iperf3_stop
else
	ethtool -S padtun0 > "$RESULTS/ethtool.txt"
	sync_with_peer seqcheck-done
	sync_with_peer iperf3-serving
	iperf3 -c $OTHER -t 30 > /dev/null 2>&1 &
	sleep 5
	rmmod padtun && rmmod padata
	ok $? "modules unloaded (deleting padtun0) with requests in flight"
	sync_with_peer unloaded
	kill %1 2>/dev/null
	wait 2>/dev/null
fi
tap_exit
