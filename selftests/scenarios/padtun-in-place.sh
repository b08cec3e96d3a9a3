#!/bin/sh
# Light packets of an idle domain are transformed in place, and order
# holds when they mix with packets padata runs (issue 29; docs/padtun.rst,
# "Pipeline", "In place"). chacha20poly1305, order link, CPUs 0-1.
# 1. On an idle link b pings a 20 times: each request and each reply is
#    transformed in place on both ends (tx_in_place, rx_in_place +20
#    each), none handed to padata, and received by the receive hook
#    itself, past its burst list (rx_in_hook +20).
# 2. Once bulk TCP has measured the cipher's cost, a 1,400-byte ping is
#    heavy: b hands each of 5 to padata (tx_submitted +5, tx_in_place +0).
# 3. b sends a seqcheck stream of 64-byte datagrams to a beside bulk TCP
#    from b to a in the same domain: some go in place, the rest wait in
#    padata behind the bulk batches; a receives them in order (seqcheck
#    and RFC 4737: 0 reordered), some through its receive hook in place
#    (rx_in_hook grew), the rest through padata.
# Negative control (test builds: the knob in_place_any on b, which takes
# half the light packets in place whether their domain is idle or not):
# the same stream is reported reordered.
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

PINGS=20 HEAVY=5 COUNT=6000 RATE=2000

padtun_add cpus 0-1 && echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6 &&
	padtun_up
ok $? "padtun0 up: chacha20poly1305, order link, CPUs 0-1"
sync_with_peer links-up

# counters: "tx_in_place rx_in_place tx_submitted rx_in_hook
# rx_submitted" now.
counters() {
	echo "$(stat tx_in_place) $(stat rx_in_place) $(stat tx_submitted)" \
		"$(stat rx_in_hook) $(stat rx_submitted)"
}

# grew BEFORE NAME N MIN MAX: field N (1-5) of counters grew by MIN to
# MAX since BEFORE, a TAP line NAME.
grew() {
	_d=$(echo "$1 $(counters)" | awk -v n="$3" '{ print $(n + 5) - $n }')
	[ "$_d" -ge "$4" ] && [ "$_d" -le "$5" ]
	ok $? "$2: +$_d (expected $4 to $5)"
}

# Step 1: the handshake and a first exchange first, then PINGS.
[ "$ROLE" = b ] && ping -c 1 -W 5 "$OTHER" > /dev/null
sync_with_peer warm
before=$(counters)
sync_with_peer idle-pings
[ "$ROLE" = b ] && ping -c $PINGS -i 0.1 -W 5 "$OTHER" > /dev/null
sync_with_peer idle-pings-done
grew "$before" "idle link: tx_in_place" 1 $PINGS $PINGS
grew "$before" "idle link: rx_in_place" 2 $PINGS $PINGS
grew "$before" "idle link: tx_submitted" 3 0 0
grew "$before" "idle link: rx_in_hook" 4 $PINGS $PINGS

# stream NAME: bulk TCP from b to a and, beside it, COUNT seqcheck
# datagrams of 64 bytes from b to a at RATE per second; a writes the
# receiver's report to $RESULTS/NAME.txt, judged by the caller.
stream() {
	if [ "$ROLE" = a ]; then
		iperf3 -s -1 > /dev/null 2>&1 &
		server=$!
		wait_for_listen 5201
		seqcheck_recv "$1" "$RESULTS/$1.txt" "" 6000 $COUNT \
			--timeout 10 --max-loss $COUNT
		wait $server
		echo "# $1: $(grep received "$RESULTS/$1.txt")"
	else
		sync_with_peer "$1"
		iperf3 -c "$OTHER" -t $((COUNT / RATE + 2)) > /dev/null &
		client=$!
		sleep 1
		seqcheck send "$OTHER" 6000 $COUNT 64 --rate $RATE > /dev/null
		ok $? "$1: seqcheck sent $COUNT datagrams beside bulk TCP"
		wait $client
		ok $? "$1: iperf3 TCP $ME -> $OTHER"
	fi
	sync_with_peer "$1-done"
}

before=$(counters)
stream mixed
if [ "$ROLE" = a ]; then
	status=$(sed -n 's/^received \([0-9]*\) lost [0-9]* .*reordered \([0-9]*\)$/\1 \2/p' "$RESULTS/mixed.txt")
	[ "${status#* }" = 0 ] && [ "${status%% *}" -gt 0 ]
	ok $? "mixed: received, reordered: ${status:-?}"
	reorders=$(rfc4737 "$RESULTS/mixed.txt" reorders)
	[ "$reorders" = 0 ]
	ok $? "mixed: RFC 4737 reordered packets: ${reorders:-?}"
	# Both ways taken on receive too.
	grew "$before" "mixed: rx_in_hook" 4 1 $COUNT
	grew "$before" "mixed: rx_submitted" 5 1 1000000
else
	# Both ways taken: without the first nothing mixed.
	grew "$before" "mixed: tx_in_place" 1 1 $COUNT
	grew "$before" "mixed: tx_submitted" 3 1 1000000
fi

# Step 2, now that the bulk flow measured the cost per byte.
sync_with_peer heavy
before=$(counters)
[ "$ROLE" = b ] && ping -c $HEAVY -i 0.2 -s 1372 -W 5 "$OTHER" > /dev/null
sync_with_peer heavy-done
if [ "$ROLE" = b ]; then
	grew "$before" "1,400-byte pings: tx_submitted" 3 $HEAVY $HEAVY
	grew "$before" "1,400-byte pings: tx_in_place" 1 0 0
fi

# The negative control needs the knob, which release builds have not.
if [ -e $KNOBS/in_place_any ]; then
	[ "$ROLE" = b ] && echo 1 > $KNOBS/in_place_any
	sync_with_peer any-on
	stream any
	if [ "$ROLE" = a ]; then
		reordering_reported "$RESULTS/any.txt" in_place_any
	else
		echo 0 > $KNOBS/in_place_any
	fi
else
	echo "# no in_place_any knob (a release build): no negative control"
fi

ethtool -S padtun0 > "$RESULTS/ethtool.txt"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
