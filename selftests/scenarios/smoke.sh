#!/bin/sh
# Both guests boot, ping each other over the virtio-net link and carry
# iperf3 TCP for a few seconds; guest b prints the throughput.
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 240
. /selftests/lib/guest.sh

# The guests boot side by side but not in step: on a loaded host one may
# be up seconds before the other, longer than ping's few tries wait.
sync_with_peer booted
ping -c 3 -W 5 "$PEER" > /dev/null
ok $? "ping $PEER"

if [ "$ROLE" = a ]; then
	serve_iperf3_once iperf3-tcp
	ok $? "iperf3 server"
else
	sync_with_peer iperf3-tcp
	seconds=5
	[ "$KERNEL" = sanitizer ] && seconds=2
	iperf3 -c "$PEER" -t "$seconds" -J > "$RESULTS/iperf3-tcp.json"
	ok $? "iperf3 TCP to $PEER"
	echo "smoke: iperf3 TCP $ADDR -> $PEER: $(mbit_per_second "$RESULTS/iperf3-tcp.json") Mbit/s"
fi
tap_exit
