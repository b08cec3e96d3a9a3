#!/bin/sh
# CPU hotplug under traffic: 3 vCPUs, the link on CPUs 0-2 with callback
# CPU 1 (tx's serial CPU) and rx's serial CPU 2. Each guest takes CPUs 1 and 2 (x86
# keeps CPU 0) offline and back online in a loop, both serial CPUs
# included, while paced seqcheck streams flow both ways and iperf3 TCP
# runs from b to a: nothing lost, reordered or duplicated, and the serial
# CPUs come back to 1 and 2. The host scans dmesg for splats.
# kernels: check
# guests: 2
# cpus: 3
# mem: 1024
# timeout: 420
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

COUNT=15000
RATE=500

padtun_add cpus 0-2 cbcpu 1 rxcbcpu 2
ok $? "ip link add padtun0 cpus 0-2 cbcpu 1 rxcbcpu 2"
echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6
padtun_up
ok $? "padtun0 up"
sync_with_peer links-up
ping -c 3 -W 5 "$OTHER" > /dev/null
ok $? "ping $OTHER"

# under_hotplug: while the peer's stream comes, ours goes out, b's TCP
# runs and the CPUs go off and on.
under_hotplug() {
	hotplug_loop $((COUNT / RATE)) &
	plug=$!
	if [ "$ROLE" = b ]; then
		iperf3 -c "$OTHER" -t $((COUNT / RATE)) -b 20M > "$RESULTS/iperf3.txt" 2>&1 &
		tcp=$!
	fi
	seqcheck send "$OTHER" 6000 $COUNT 500 --rate $RATE > /dev/null
	ok $? "seqcheck sent $COUNT datagrams to $OTHER"
	wait $plug
	ok $? "CPUs 1 and 2 taken offline and back $(cat "$RESULTS/hotplug-count.txt" 2>/dev/null) times"
	if [ "$ROLE" = b ]; then
		wait $tcp
		ok $? "iperf3 TCP $ME -> $OTHER under hotplug ($(grep receiver "$RESULTS/iperf3.txt" | awk '{print $7, $8}'))"
	else
		wait $server
	fi
}

if [ "$ROLE" = a ]; then
	iperf3 -s -1 > /dev/null 2>&1 &
	server=$!
	wait_for_listen 5201
fi
seqcheck_recv hotplug "$RESULTS/seqcheck.txt" \
	"seqcheck from $OTHER: in order, nothing lost" 6000 $COUNT --timeout 20 \
	-- under_hotplug
sync_with_peer hotplug-done

# tx's serial CPU away from CPU 1, rx's from CPU 2 (each to 0, the first
# active CPU of the list) and back.
hotplug_settled
# Back, each where it belongs: the link's two padata instances (tx's
# created first) ran serial() for the pings only on CPU 1 (tx) and 2 (rx).
# Pings of 1,400 bytes: a small one would be encrypted and decrypted in
# place, without padata (docs/padtun.rst, "In place").
link_serial_snapshot
ping -c 3 -s 1372 -W 5 "$OTHER" > /dev/null
ok $? "ping $OTHER after the loop"
link_serial_since
[ "$(padata_instances)" = 2 ] && [ "$tx_serial" = 1 ] && [ "$rx_serial" = 2 ]
ok $? "after the loop serial() of tx on CPU $tx_serial, of rx on CPU $rx_serial (want 1 and 2)"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
