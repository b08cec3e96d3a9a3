#!/bin/sh
# Lifecycle with traffic in flight: a link in a network namespace that is
# torn down while a UDP load drives it, and on the real link: delete padtun0
# and unload padtun and padata while iperf3 runs through it, on both ends.
# The host scans dmesg for splats and (sanitizer) kmemleak reports.
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 360
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

# A namespace with a link looped onto itself, flooded, then deleted with
# the namespace while packets are in flight.
mkdir -p /run/netns
ip netns add pt
ip -n pt link set lo up
ip -n pt link add padtun0 type padtun local 127.0.0.1 remote 127.0.0.1 port 5555 key $KEY
ok $? "padtun0 created in a namespace"
ip -n pt addr add 198.19.1.1/24 dev padtun0 && ip -n pt link set padtun0 up
ok $? "namespaced padtun0 up"

# udpload runs in the init namespace: give it a looped link there too.
ip link add pg0 type padtun local 127.0.0.1 remote 127.0.0.1 port 5556 key $KEY cpus 0-1
ip link set lo up
ip addr add 198.19.2.1/24 dev pg0 && ip link set pg0 up
udpload 198.19.2.200 9 200 30 > /dev/null 2>&1 &
flood=$!
sleep 3
sent=$(ethtool -S pg0 | sed -n 's/^ *tx_sent: //p')
echo "# udpload through pg0: tx_sent ${sent:-?}"
[ "${sent:-0}" -gt 0 ]
ok $? "udpload drives padtun (tx_sent $sent)"
# /bin/ip, not guest.sh's ip function: in the background that function
# is a subshell, and killing it would leave seqcheck sending in the
# namespace, which then outlives "ip netns del".
/bin/ip netns exec pt seqcheck send 198.19.1.2 6000 1000000 500 > /dev/null 2>&1 &
blast=$!
sleep 2
sent=$(ip netns exec pt ethtool -S padtun0 | sed -n 's/^ *tx_sent: //p')
[ "${sent:-0}" -gt 0 ]
ok $? "traffic through the namespaced link (tx_sent $sent)"
kill $blast
ip netns del pt
ok $? "namespace deleted with packets in flight"
ip link del pg0
ok $? "pg0 deleted while udpload runs"
wait $flood 2>/dev/null
wait

# Now the real link: delay and deferral on, so packets sit in padata.
echo 300 > $KNOBS/delay_us_max && echo 1 > $KNOBS/defer_serial
padtun_add cpus 0-1
ok $? "ip link add padtun0"
padtun_up
sync_with_peer links-up

if [ "$ROLE" = a ]; then
	iperf3 -s > /dev/null 2>&1 &
	server=$!
	iperf3 -s -p 5202 > /dev/null 2>&1 &
	server2=$!
	wait_for_listen 5201 && wait_for_listen 5202
	sync_with_peer iperf3-serving
	sleep 3			# b's iperf3 TCP and UDP are running
	ip link del padtun0
	ok $? "padtun0 deleted while iperf3 runs"
	rmmod padtun && rmmod padata
	ok $? "padtun and padata unloaded while iperf3 runs"
	sync_with_peer unloaded
	kill $server $server2 2>/dev/null
else
	sync_with_peer iperf3-serving
	iperf3 -c $OTHER -t 30 > /dev/null 2>&1 &
	tcp=$!
	iperf3 -c $OTHER -p 5202 -u -b 5M -t 30 > /dev/null 2>&1 &
	udp=$!
	sleep 5
	rmmod padtun
	ok $? "padtun unloaded (deleting padtun0) while iperf3 runs"
	rmmod padata
	ok $? "padata unloaded"
	sync_with_peer unloaded
	# Both clients: one still waiting for a's server to answer on a link
	# that is gone would wait for ever (seen on a slow guest).
	kill $tcp $udp 2>/dev/null
	wait 2>/dev/null
fi
! lsmod | grep -q '^padtun '
ok $? "padtun is gone"
tap_exit
