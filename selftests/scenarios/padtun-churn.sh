#!/bin/sh
# Lifecycle churn (issue 13): what padtun-teardown does once, over and over,
# with traffic through the links. Two namespaces on one guest, joined by
# WireGuard (lib/padtun.sh: wg_netns_pair), a padtun link in each:
#   1. create, ping, seqcheck traffic both ways, delete with the traffic
#      running; every third cycle by deleting both namespaces, the others
#      with "ip link del". After each: padata.ko holds no instance (its
#      debugfs directories), the links' UDP sockets are gone, and instance
#      IDs are reused;
#   2. rmmod padtun and padata with iperf3 TCP and seqcheck in flight
#      (bounded: a stuck rmmod fails, it does not hang), both modules and
#      their debugfs directories gone, modprobe again;
#   3. iperf3 TCP and seqcheck through the links while both ends cycle
#      down/up and MTU changes; afterwards ping and a seqcheck run arrive
#      whole and in order.
# The test knobs delay parallel() and defer serial() so that packets sit
# in padata when their link goes. At the end both modules are unloaded;
# the host fails the run on any splat in dmesg or kmemleak report.
# padtun's batches come from its per-direction pools, kmalloc'ed (no named
# kmem cache): once the links are gone only kmemleak can see one left.
# On the sanitizer kernel, as issue 13 asks, and, smaller, on the check
# kernel: the sanitizer kernel has no lockdep, and lockdep needs to see
# each lock order once (a reload and a namespace deletion with traffic in
# flight), not many rounds of them.
# kernels: check sanitizer
# guests: 1
# cpus: 2
# mem: 1024
# timeout: 1500
# timeout-full: 5400
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

# CI sizes keep a cold .ci/run within its hour: KASAN under TCG takes
# about 12 s per cycle, 15 s per reload and 45 s for a flap round. On
# the check kernel two cycles: one by namespace deletion, one by link.
if [ -n "${PADNET_full:-}" ]; then
	CYCLES=100 RELOADS=20 FLAPS=30
elif [ "$KERNEL" = check ]; then
	CYCLES=2 RELOADS=1 FLAPS=1
else
	CYCLES=4 RELOADS=2 FLAPS=1
fi
# Other sizes for a trial: padnet.cycles=N (etc.) on the kernel command line.
CYCLES=${PADNET_cycles:-$CYCLES} RELOADS=${PADNET_reloads:-$RELOADS}
FLAPS=${PADNET_flaps:-$FLAPS}
N1=churn1 N2=churn2
IN1=198.19.1.1 IN2=198.19.1.2
wgport=51000
uptime_s() { cut -d. -f1 /proc/uptime; }
t_start=$(uptime_s)

knobs_on() {
	echo 300 > $KNOBS/delay_us_max && echo 1 > $KNOBS/defer_serial
}

# pair_up: the namespaces and their WireGuard link, unless they are there.
pair_up() {
	[ -e /run/netns/$N1 ] && return 0
	wgport=$((wgport + 2))
	wg_netns_pair $N1 $N2 $wgport
}

# Commands whose PID is kept call /bin/ip itself: guest.sh's ip() would
# run in a subshell of its own, and killing that leaves the command
# running (and its namespace alive).

# sender NS DST: seqcheck datagrams to DST:6000 from NS, 2000/s, started
# again when a send fails (a link going down takes its route with it).
sender() {
	trap 'kill $c 2>/dev/null; exit 0' TERM
	while :; do
		/bin/ip netns exec "$1" seqcheck send "$2" 6000 100000000 500 --rate 2000 > /dev/null 2>&1 &
		c=$!
		wait $c
		sleep 0.2
	done
}

# traffic_start: seqcheck both ways through the links; PIDs in $senders.
traffic_start() {
	sender $N1 $IN2 &
	senders=$!
	sender $N2 $IN1 &
	senders="$senders $!"
}

traffic_stop() {
	# shellcheck disable=SC2086 # a list of PIDs
	kill $senders 2>/dev/null
	# shellcheck disable=SC2086
	wait $senders 2>/dev/null
}

# iperf3_start PORT SECONDS [OUT]: iperf3 TCP from N1 to N2 through the
# links, a one-test server on PORT in N2; PIDs in $client and $server.
# The server waits for data as long as the client runs: by default it ends
# the test after 120 s without any, and under minutes of flapping TCP's
# retransmission backoff can be that long (the first full-size run: the
# client wrote nothing after 43 s, and at 172 s "control socket has
# closed unexpectedly").
iperf3_start() {
	/bin/ip netns exec $N2 iperf3 -s -1 -p "$1" \
		--rcv-timeout $((($2 + 120) * 1000)) > /dev/null 2>&1 &
	server=$!
	wait_for_listen "$1" $N2
	/bin/ip netns exec $N1 iperf3 -c $IN2 -p "$1" -t "$2" > "${3:-/dev/null}" 2>&1 &
	client=$!
}

iperf3_stop() {
	kill "$@" $client 2>/dev/null
	kill $server 2>/dev/null
	wait $client $server 2>/dev/null
}

# udp_bound NS: is anything bound to UDP port 5555 (hex 15B3) in NS?
udp_bound() {
	ip netns exec "$1" cat /proc/net/udp /proc/net/udp6 | grep -q ':15B3 '
}

knobs_on
ok $? "test knobs on: delay_us_max 300, defer_serial 1"

# 1. Create, traffic, delete.
by_netns=0 by_link=0 done_cycles=0 fail=""
min_tx='' min_rx='' max_id=-1 ns_wait_max=0
i=0
while [ $i -lt $CYCLES ]; do
	i=$((i + 1))
	c0=$(uptime_s)
	pair_up || { fail="cycle $i: namespaces and wg not set up"; break; }
	ns_padtun_pair $N1 $N2 cpus 0-1 || { fail="cycle $i: links not created"; break; }
	[ "$(padata_instances)" = 4 ] || { fail="cycle $i: $(padata_instances) padata instances, not 4"; break; }
	id=$(padata_max_id)
	[ "$id" -gt "$max_id" ] && max_id=$id
	c1=$(uptime_s)
	ip netns exec $N1 ping -c 1 -W 5 $IN2 > /dev/null ||
		{ fail="cycle $i: no ping through the links"; break; }
	traffic_start
	sleep 1
	tx=$(ns_stat $N1 tx_sent) rx=$(ns_stat $N2 rx_delivered)
	if [ "${tx:-0}" -le 2 ] || [ "${rx:-0}" -le 2 ]; then
		traffic_stop
		fail="cycle $i: no traffic (tx_sent ${tx:-?}, rx_delivered ${rx:-?})"
		break
	fi
	[ -z "$min_tx" ] || [ "$tx" -lt "$min_tx" ] && min_tx=$tx
	[ -z "$min_rx" ] || [ "$rx" -lt "$min_rx" ] && min_rx=$rx
	c2=$(uptime_s)
	if [ $((i % 3)) = 1 ]; then
		# The namespaces go as their last users, the senders, exit.
		t0=$(uptime_s)
		ip netns del $N1 && ip netns del $N2 ||
			{ traffic_stop; fail="cycle $i: ip netns del failed"; break; }
		traffic_stop
		wait_padata_instances 0 60 ||
			{ fail="cycle $i: $(padata_instances) padata instances 60 s after ip netns del"; break; }
		t=$(($(uptime_s) - t0))
		[ $t -gt $ns_wait_max ] && ns_wait_max=$t
		by_netns=$((by_netns + 1))
	else
		ip -n $N1 link del padtun0 && ip -n $N2 link del padtun0 ||
			{ traffic_stop; fail="cycle $i: ip link del failed"; break; }
		traffic_stop
		# The destructor ran before "ip link del" returned.
		n=$(padata_instances)
		[ "$n" = 0 ] || { fail="cycle $i: $n padata instances after ip link del"; break; }
		if udp_bound $N1 || udp_bound $N2; then
			fail="cycle $i: a UDP socket still bound to port 5555"
			break
		fi
		by_link=$((by_link + 1))
	fi
	done_cycles=$i
	echo "# cycle $i: tx_sent $tx rx_delivered $rx; s to set up $((c1 - c0)), to traffic $((c2 - c1)), to delete $(($(uptime_s) - c2)); at $(($(uptime_s) - t_start)) s"
done
t_cycles=$(($(uptime_s) - t_start))
echo "# cycles: ${fail:-all done} ($t_cycles s)"
[ -z "$fail" ] && [ $done_cycles = $CYCLES ]
ok $? "$done_cycles create/traffic/delete cycles, $by_netns by netns deletion, $by_link by ip link del, traffic in flight each time (tx_sent >= ${min_tx:-?}, rx_delivered >= ${min_rx:-?} per link after 1 s) ($t_cycles s)"
[ -z "$fail" ] && [ "$max_id" -le 3 ]
ok $? "after each: no padata instance left (netns teardown done within ${ns_wait_max} s), no UDP socket on 5555; instance IDs reused (highest $max_id over $((2 * done_cycles)) links)"

# 2. Unload and reload with traffic in flight.
reloads=0 fail=""
t1=$(uptime_s)
pair_up
iperf3_alive=0
j=0
while [ -z "$fail" ] && [ $j -lt $RELOADS ]; do
	j=$((j + 1))
	ns_padtun_pair $N1 $N2 cpus 0-1 || { fail="reload $j: links not created"; break; }
	ip netns exec $N1 ping -c 1 -W 5 $IN2 > /dev/null ||
		{ fail="reload $j: no ping through the links"; break; }
	iperf3_start $((5300 + j)) 300
	traffic_start
	sleep 2
	tx=$(ns_stat $N1 tx_sent) rx=$(ns_stat $N2 rx_delivered)
	if [ "${tx:-0}" -le 2 ] || [ "${rx:-0}" -le 2 ]; then
		fail="reload $j: no traffic (tx_sent ${tx:-?}, rx_delivered ${rx:-?})"
	else
		running $client && iperf3_alive=$((iperf3_alive + 1))
		for m in padtun padata; do
			bounded 60 rmmod $m
			rc=$?
			if [ $rc = 124 ]; then
				stuck_report $BOUNDED_PID "rmmod $m"
				ok 1 "reload $j: rmmod $m done within 60 s"
				tap_exit
			fi
			[ $rc = 0 ] || { fail="reload $j: rmmod $m: exit $rc"; break; }
		done
	fi
	iperf3_stop
	traffic_stop
	[ -n "$fail" ] && break
	if [ -e /sys/module/padtun ] || [ -e /sys/module/padata ] ||
	   [ -e /sys/kernel/debug/padtun ] || [ -e /sys/kernel/debug/padata ]; then
		fail="reload $j: a module or its debugfs directory left after rmmod"
		break
	fi
	/sbin/modprobe padata && /sbin/modprobe padtun && knobs_on ||
		{ fail="reload $j: modprobe failed"; break; }
	reloads=$j
done
t_reload=$(($(uptime_s) - t1))
echo "# reloads: ${fail:-all done} ($t_reload s)"
[ -z "$fail" ] && [ $iperf3_alive = $reloads ]
ok $? "$reloads rmmod padtun + padata with iperf3 TCP ($iperf3_alive running at rmmod) and seqcheck both ways in flight, both modules and debugfs directories gone, modprobe again ($t_reload s)"

# 3. Down/up and MTU changes under load.
t2=$(uptime_s)
ns_padtun_pair $N1 $N2 cpus 0-1
ok $? "links up again"
mtu0=$(ip -n $N1 -o link show padtun0 | sed -n 's/.* mtu \([0-9]*\).*/\1/p')
ip netns exec $N1 ping -c 2 -W 5 $IN2 > /dev/null
ok $? "ping through the new links (mtu $mtu0)"
# Longer than the flapping takes (a round: 23 to 86 s on sanitizer), so
# that "running" means the connection survived, not that it had ended.
iperf3_start 5400 $((FLAPS * 120 + 120)) "$RESULTS/iperf3-flap.txt"
traffic_start
tx0=$(ns_stat $N1 tx_sent)
flap() {	# flap NS: down/up and MTU changes, FLAPS rounds
	for _ in $(seq $FLAPS); do
		for m in 1280 576 1400 $mtu0; do
			ip -n "$1" link set padtun0 down && sleep 0.2 &&
			ip -n "$1" link set padtun0 up &&
			ip -n "$1" link set padtun0 mtu $m || return 1
			sleep 0.3
		done
	done
}
sleep 1
flap $N1 &
f1=$!
flap $N2
rc2=$?
wait $f1
rc1=$?
[ $rc1 = 0 ] && [ $rc2 = 0 ]
ok $? "both ends: $FLAPS rounds of down/up with mtu 1280, 576, 1400, $mtu0 under iperf3 TCP and seqcheck both ways ($(($(uptime_s) - t2)) s)"
sleep 2
tx=$(($(ns_stat $N1 tx_sent) - tx0))
running $client
alive=$?
iperf3_stop -INT	# SIGINT: iperf3 prints its summary
traffic_stop
[ $alive = 0 ] && [ "$tx" -gt 0 ]
ok $? "iperf3 survived the flapping ($(grep sender "$RESULTS/iperf3-flap.txt" | tail -n 1 | awk '{print $5, $6, $7, $8}')); N1 sent $tx datagrams meanwhile"

# Traffic resumes.
ip netns exec $N1 ping -c 3 -W 5 $IN2 > /dev/null
ok $? "ping after the churn"
/bin/ip netns exec $N2 seqcheck recv 6001 2000 --timeout 10 > "$RESULTS/seqcheck.txt" 2>&1 &
recv=$!
sleep 1
ip netns exec $N1 seqcheck send $IN2 6001 2000 500 --rate 500 > /dev/null
wait $recv
ok $? "seqcheck after the churn: $(grep received "$RESULTS/seqcheck.txt")"
iperf3_start 5401 3 "$RESULTS/iperf3-after.txt"
wait $client $server
ok $? "iperf3 TCP after the churn: $(grep receiver "$RESULTS/iperf3-after.txt" | awk '{print $5, $6, $7, $8}')"
for n in $N1 $N2; do
	ip netns exec $n ethtool -S padtun0 > "$RESULTS/ethtool-$n.txt"
done
echo "# flaps: $(($(uptime_s) - t2)) s"

# The end: both namespaces, then both modules.
ip netns del $N1 && ip netns del $N2 && wait_padata_instances 0 60
ok $? "namespaces deleted, no padata instance left"
bounded 60 sh -c 'rmmod padtun && rmmod padata'
rc=$?
[ $rc = 124 ] && stuck_report $BOUNDED_PID "rmmod at the end"
[ $rc = 0 ] && ! [ -e /sys/module/padtun ] && ! [ -e /sys/module/padata ]
ok $? "padtun and padata unloaded at the end"
# kmemleak reports only objects older than 5 s: let the last frees age.
sleep 6
echo "# total: $(($(uptime_s) - t_start)) s"
tap_exit
