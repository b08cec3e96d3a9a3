#!/bin/sh
# Sessions made by a handshake of both ends' random values (handshake.c):
#   up: both links come up: each end made a session, and the first
#       packets sent before it was there waited in the qdisc, none lost;
#   rekey: with a's sessions' life cut to 1 s (knob rekey_ms, on a only:
#       a, the sender, initiates the rekeys), a stream of 5,000 datagrams
#       crosses at least three rekeys, nothing lost or reordered; a's
#       parallel() is slowed (delay_us_max) so that datagrams of the old
#       session are still in its pipeline when its confirm, which does not
#       queue behind them, reaches b;
#   rekey-flow: the same over links re-created with order flow domains 4,
#       in 8 flows: each flow in order, nothing lost, though a domain's
#       last datagrams of an old session may come after another domain's
#       first of the new one;
#   vmfork: a's VM-fork notification (knob vmfork: a restored snapshot)
#       makes it drop its sessions and make a new one: a's stream to b,
#       sent across it, arrives complete and in order;
#   flood: b replays a captured init and response to a as fast as it can
#       (an on-path attacker without the key): a looks at no more than its
#       rate limit allows (20 a second), counts the rest as limited, and
#       b's stream to a meanwhile arrives complete and in order;
#   lossy: with netem on both underlays (30% loss, 20% duplicates, delay
#       and reordering), both links re-created: a ping still gets through
#       within 30 s.
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 420
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

KNOBS=/sys/kernel/debug/padtun
CAP=/tmp/capture-init

# link_up: padtun0 with $ORDER (the rekey-flow phase on: order flow).
ORDER=""
link_up() {
	# shellcheck disable=SC2086 # no words, or order flow domains N
	padtun_add $ORDER &&
		echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6 &&
		padtun_up
}

# stream_to_peer BARRIER FILE DESC COUNT [FLOWS]: b receives COUNT
# datagrams from a (b judges them, each flow's order), or a sends them; at
# 1,000 a second, in FLOWS flows (default 1) from as many source ports.
stream_to_peer() {
	_flows=${5:-1}
	if [ "$ROLE" = b ]; then
		seqcheck_recv "$1" "$2" "$3" 6000 "$4" --timeout 30 --flows "$_flows"
	else
		sync_with_peer "$1"
		seqcheck send "$OTHER" 6000 "$4" 500 --rate 1000 \
			--flows "$_flows" --flow-ports > /dev/null
		ok $? "$1: seqcheck sent $4 datagrams to b"
	fi
}

# --- up -----------------------------------------------------------------
link_up
ok $? "padtun0 up"
sync_with_peer links-up
ping -c 3 -W 5 "$OTHER" > /dev/null
ok $? "up: ping $OTHER"
made=$(stat sessions_made)
echo "# up: inits sent $(stat hs_init_sent), responses $(stat hs_response_sent), confirms $(stat hs_confirm_sent), taken $(stat hs_taken), refused $(stat hs_refused), sessions $made"
[ "$made" -ge 1 ] && [ "$(stat tx_dropped)" = 0 ]
ok $? "up: a session made ($made), nothing dropped while it was made"
sync_with_peer up-done

# --- rekey under load ---------------------------------------------------
# rekey NAME FLOWS: the stream across rekeys that a initiates, its
# parallel() slowed so that old-session datagrams are in flight at each.
rekey() {
	[ "$ROLE" = a ] && echo 1000 > $KNOBS/rekey_ms &&
		echo 2000 > $KNOBS/delay_us_max
	before=$(stat sessions_made)
	confirms=$(stat hs_confirm_sent)
	stream_to_peer "$1" "$RESULTS/$1-seqcheck.txt" \
		"$1: 5000 datagrams in $2 flows across rekeys, each in order, nothing lost" \
		5000 "$2"
	sync_with_peer "$1-done"
	echo 0 > $KNOBS/rekey_ms
	echo 0 > $KNOBS/delay_us_max
	rekeys=$(($(stat sessions_made) - before))
	confirms=$(($(stat hs_confirm_sent) - confirms))
	echo "# $1: $rekeys sessions made during the stream, $confirms confirmed by this end; rx_old_session $(stat rx_old_session), rx_unknown_session $(stat rx_unknown_session)"
	[ "$rekeys" -ge 3 ]
	ok $? "$1: at least 3 sessions made during the stream ($rekeys)"
	if [ "$ROLE" = a ]; then
		[ "$confirms" -ge 2 ]
		ok $? "$1: a, the sender, initiated at least 2 of them ($confirms)"
	fi
}

rekey rekey 1
# With order flow the domains keep no order between them: the old
# session's last datagrams in one domain may come after the new one's
# first in another.
ORDER="order flow domains 4"
ip link del padtun0 && link_up
ok $? "padtun0 re-created with $ORDER"
sync_with_peer flow-links-up
ping -c 2 -W 5 "$OTHER" > /dev/null
ok $? "ping $OTHER on the order flow link"
rekey rekey-flow 8

# --- VM fork ------------------------------------------------------------
before=$(stat sessions_made)
if [ "$ROLE" = a ]; then
	( sleep 1; echo 1 > $KNOBS/vmfork ) &
	forked=$!
fi
stream_to_peer vmfork "$RESULTS/vmfork-seqcheck.txt" \
	"vmfork: a's stream across its VM fork, in order, nothing lost" 3000
sync_with_peer vmfork-done
if [ "$ROLE" = a ]; then
	wait $forked
	made=$(($(stat sessions_made) - before))
	[ "$made" -ge 1 ]
	ok $? "vmfork: a made a new session after forgetting its own ($made)"
fi

# --- flood of replayed handshake messages --------------------------------
# b captures its own init and a's response to it by re-creating its link.
if [ "$ROLE" = b ]; then
	replayinject capture eth0 5555 $CAP --timeout 20 > "$RESULTS/capture.txt" 2>&1 &
	cap=$!
	sleep 1
	ip link del padtun0 && link_up
	ok $? "flood: b re-created padtun0"
	wait $cap
	ok $? "flood: captured b's init and a's response ($(tail -n 1 "$RESULTS/capture.txt"))"
	ping -c 2 -W 5 "$OTHER" > /dev/null
	ok $? "flood: ping $OTHER on the new session"
fi
sync_with_peer flood-captured
if [ "$ROLE" = a ]; then
	seen0=$(($(stat hs_taken) + $(stat hs_refused)))
	limited0=$(stat hs_limited)
	t0=$(cut -d' ' -f1 /proc/uptime)
	seqcheck_recv flood "$RESULTS/flood-seqcheck.txt" \
		"flood: b's stream during the flood, in order, nothing lost" \
		6000 3000 --timeout 30
	sync_with_peer flood-sent
	sleep 1
	t1=$(cut -d' ' -f1 /proc/uptime)
	seen=$(($(stat hs_taken) + $(stat hs_refused) - seen0))
	limited=$(($(stat hs_limited) - limited0))
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", b - a + 1 }')
	sent=$(hear_peer)
	echo "# flood: b sent $sent, a looked at $seen in about $secs s, limited $limited, taken $(stat hs_taken), refused $(stat hs_refused), sessions $(stat sessions_made)"
	[ "$seen" -le $((20 * (secs + 1))) ] && [ $((seen + limited)) -ge "$sent" ]
	ok $? "flood: a looked at $seen messages (at most 20 a second over $secs s), the other $limited of the $sent replayed counted as limited"
else
	sync_with_peer flood
	replayinject send eth0 $CAP 5000 --interval-ms 0 > "$RESULTS/flood-inject.txt" &
	flooding=$!
	seqcheck send "$OTHER" 6000 3000 500 --rate 1000 > /dev/null
	ok $? "flood: seqcheck sent 3000 datagrams to a"
	wait $flooding
	ok $? "flood: replayinject $(cat "$RESULTS/flood-inject.txt")"
	sync_with_peer flood-sent
	tell_peer "$(sed -n 's/^sent //p' "$RESULTS/flood-inject.txt")"
fi
sync_with_peer flood-done

# --- handshakes over a lossy underlay -------------------------------------
tc qdisc add dev eth0 root netem loss 30% duplicate 20% delay 20ms 10ms reorder 25%
ok $? "lossy: netem on eth0"
ip link del padtun0 && link_up
ok $? "lossy: padtun0 re-created"
sync_with_peer lossy-links-up
t=0
until ping -c 1 -W 1 "$OTHER" > /dev/null; do
	t=$((t + 1))
	[ $t -ge 30 ] && break
done
[ $t -lt 30 ]
ok $? "lossy: a ping got through after $t failed tries (inits sent $(stat hs_init_sent), refused $(stat hs_refused))"
sync_with_peer lossy-pinged
tc qdisc del dev eth0 root

ethtool -S padtun0 > "$RESULTS/ethtool.txt"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
