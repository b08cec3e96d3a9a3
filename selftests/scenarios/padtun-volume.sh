#!/bin/sh
# Volume under forced disorder (issue 13, item 2): a sends b sequence-
# checked datagrams of mixed sizes, 64 bytes up to what padtun0's MTU
# carries (seqcheck --sizes: each datagram's size and content follow from
# its sequence number), through chacha20poly1305 with the test knobs that
# make packets overtake each other inside padata (delay_us_max,
# defer_serial), paced below what the guests keep up with. b must receive
# every one, in order, once, unmodified, and padtun must have dropped
# nothing. 100,000 datagrams; 1,000,000 with padnet.full=1.
# kernels: check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 420
# timeout-full: 2400
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

N=100000
[ "${PADNET_full:-0}" = 1 ] && N=1000000
# Below capacity: unpaced (padnet.rate=0: the sender waits whenever
# padtun's transmit queue is full), 100,000 of these datagrams took 92 s
# under these knobs on the 2-core host, about 1,080/s end to end, nothing
# lost; 600/s leaves room for a slower run.
RATE=${PADNET_rate:-600}

echo 500 > $KNOBS/delay_us_max && echo 1 > $KNOBS/defer_serial
ok $? "test knobs on: delay_us_max 500, defer_serial 1"
padtun_add transform chacha20poly1305 cpus 0-1 cbcpu 1 &&
	echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6 && padtun_up
ok $? "padtun0 up with $ME, chacha20poly1305, cpus 0-1"
MAX=$(($(cat /sys/class/net/padtun0/mtu) - 28))	# IPv4 + UDP headers
sync_with_peer links-up
ping -c 3 -W 5 "$OTHER" > /dev/null
ok $? "ping $OTHER through the tunnel"
sync_with_peer pinged

uptime_cs() { tr -d . < /proc/uptime | cut -d' ' -f1; }
# counters NAME...: their values, space-separated
counters() {
	for c in "$@"; do
		v=$(stat "$c")
		printf '%s ' "${v:-0}"
	done
}
RX="rx_delivered rx_dropped rx_stack_dropped rx_auth_failed rx_malformed rx_replayed rx_too_old rx_reordered_on_wire"

if [ "$ROLE" = a ]; then
	set -- $(counters tx_sent tx_dropped tx_errors)
	sync_with_peer stream
	t0=$(uptime_cs)
	if [ "$RATE" = 0 ]; then
		seqcheck send "$OTHER" 6000 "$N" --sizes 64-$MAX > "$RESULTS/send.txt"
	else
		seqcheck send "$OTHER" 6000 "$N" --sizes 64-$MAX --rate "$RATE" > "$RESULTS/send.txt"
	fi
	ok $? "seqcheck sent $N datagrams of 64-$MAX bytes at ${RATE}/s ($(($(uptime_cs) - t0))0 ms)"
	set -- "$@" $(counters tx_sent tx_dropped tx_errors)
	[ $(($4 - $1)) = "$N" ] && [ "$5" = "$2" ] && [ "$6" = "$3" ]
	ok $? "tx_sent +$(($4 - $1)), tx_dropped +$(($5 - $2)), tx_errors +$(($6 - $3))"
	sync_with_peer stream-done
else
	set -- $(counters $RX)
	max_loss=0
	[ "$RATE" = 0 ] && max_loss=$N
	# The time is taken from the barrier on: what the stream took.
	stream_started() { t0=$(uptime_cs); }
	seqcheck_recv stream "$RESULTS/seqcheck.txt" "" 6000 "$N" --timeout 20 \
		--sizes 64-$MAX --max-loss $max_loss -- stream_started
	rc=$?
	t=$(($(uptime_cs) - t0))
	set -- "$@" $(counters $RX)
	res=$(grep -h 'received\|corrupt' "$RESULTS/seqcheck.txt" | tr '\n' ' ')
	got=$(sed -n 's/^received \([0-9]*\).*/\1/p' "$RESULTS/seqcheck.txt")
	echo "# volume: $N datagrams, 64-$MAX bytes, rate ${RATE}/s, ${t}0 ms: $res"
	echo "# counters +: delivered $((${9} - $1)) dropped $((${10} - $2)) stack_dropped $((${11} - $3)) auth_failed $((${12} - $4)) malformed $((${13} - $5)) replayed $((${14} - $6)) too_old $((${15} - $7)) reordered_on_wire $((${16} - $8))"
	if [ "$RATE" = 0 ]; then
		echo "# probe: received ${got:-0} in ${t}0 ms: $((${got:-0} * 100 / t)) datagrams/s (with the 20 s timeout if any were lost)"
		ok 0 "probe only (padnet.rate=0)"
	else
		ok $rc "volume: $N datagrams of 64-$MAX bytes at ${RATE}/s with delay_us_max 500 and defer_serial in ${t}0 ms: $res"
		[ $((${9} - $1)) = "$N" ] && [ "${10}" = "$2" ] && [ "${11}" = "$3" ] &&
			[ "${12}" = "$4" ] && [ "${13}" = "$5" ] && [ "${14}" = "$6" ] &&
			[ "${15}" = "$7" ]
		ok $? "padtun: rx_delivered +$((${9} - $1)), nothing dropped, refused or replayed, rx_reordered_on_wire +$((${16} - $8))"
	fi
	sync_with_peer stream-done
fi

ethtool -S padtun0 > "$RESULTS/ethtool.txt"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
