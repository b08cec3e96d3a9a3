#!/bin/sh
# Replay and reflection from an on-path attacker without the key: b's
# underlay captures one ping exchange through the tunnel (b's echo request
# to a, a's echo reply to b) and sends a the pair alternately, 50 times
# each, a's own datagram turned around to look like it came from b
# (replayinject). Then again after b re-created its link (the peer
# restarted), after a re-created its own (a fresh receiver) and after a
# reloaded the module. a must deliver nothing of it, answer nothing, count
# every one, and legitimate traffic must flow both ways all along.
# Negative control: with every handshake nonce zero (the fixed_random
# knob), a re-created receiver makes the captured session again, and the
# replay must be delivered: freshness comes from the nonces alone.
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 420
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

N=50
CAP=/tmp/capture

link_up() {
	padtun_add && echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6 &&
		padtun_up
}

# counters: the ones the attack may move, on one line (0 if absent).
counters() {
	for c in rx_delivered tx_sent rx_replayed rx_own_session \
		 rx_unknown_session rx_auth_failed; do
		v=$(stat $c)
		printf '%s ' "${v:-0}"
	done
}

# attack ROUND REPLAYED OWN UNKNOWN: b sends the capture N times each way
# while a watches its counters: nothing delivered, nothing sent, and the
# expected numbers counted as replayed, own session, unknown session.
attack() {
	if [ "$ROLE" = a ]; then
		set -- "$@" $(counters)
		sync_with_peer "$1-counted"
		sync_with_peer "$1-sent"
		sleep 1
		set -- "$@" $(counters)
		echo "# $1: before: $5 $6 $7 $8 $9 ${10}; after: ${11} ${12} ${13} ${14} ${15} ${16}"
		[ "${11}" = "$5" ]
		ok $? "$1: nothing delivered (rx_delivered ${11})"
		[ "${12}" = "$6" ]
		ok $? "$1: nothing answered (tx_sent ${12})"
		[ $((${13} - $7)) = "$2" ] && [ $((${14} - $8)) = "$3" ] &&
			[ $((${15} - $9)) = "$4" ] && [ "${16}" = "${10}" ]
		ok $? "$1: each counted: replayed +$((${13} - $7)), own session +$((${14} - $8)), unknown session +$((${15} - $9))"
	else
		sync_with_peer "$1-counted"
		replayinject send eth0 $CAP $N --interval-ms 10 > "$RESULTS/inject-$1.txt"
		ok $? "$1: replayinject $(cat "$RESULTS/inject-$1.txt")"
		sync_with_peer "$1-sent"
	fi
}

# both_ways: a ping each way through the tunnel.
both_ways() {
	ping -c 3 -W 5 "$OTHER" > /dev/null
	ok $? "$1: ping $OTHER"
}

link_up
ok $? "padtun0 up"
sync_with_peer links-up

exchange() {
	ping -c 1 -W 5 "$OTHER" > /dev/null
	ok $? "ping $OTHER (the exchange to capture)"
}

# capture: b captures one ping exchange (after a's handshake is done).
capture() {
	if [ "$ROLE" = b ]; then
		capture_during $CAP 1 exchange
	fi
	sync_with_peer "$1"
}

# Round 1: the captured exchange, on the link that carried it.
capture captured
attack same-session $N $N 0
sync_with_peer same-session-attacked
both_ways same-session
sync_with_peer same-session-pinged

# Round 2: b re-creates its link (the peer restarts): a new handshake, so
# the capture is of a session a no longer holds, a's own datagram too.
if [ "$ROLE" = b ]; then
	ip link del padtun0 && link_up
	ok $? "b re-created padtun0"
fi
sync_with_peer b-recreated
both_ways "b re-created"
sync_with_peer b-recreated-pinged
attack earlier-session 0 0 $((2 * N))
sync_with_peer earlier-session-attacked

# Round 3: a re-creates its link: a fresh receiver holds only the session
# its own new nonce went into.
if [ "$ROLE" = a ]; then
	ip link del padtun0 && link_up
	ok $? "a re-created padtun0"
fi
sync_with_peer a-recreated
both_ways "a re-created"
sync_with_peer a-recreated-pinged
attack fresh-receiver 0 0 $((2 * N))
sync_with_peer fresh-receiver-attacked

# Round 4: a reloads the module: nothing of it survives but the wire.
if [ "$ROLE" = a ]; then
	ip link del padtun0 && rmmod padtun && modprobe padtun && link_up
	ok $? "a reloaded padtun and re-created padtun0"
fi
sync_with_peer a-reloaded
both_ways "a reloaded"
sync_with_peer a-reloaded-pinged
attack reloaded 0 0 $((2 * N))
sync_with_peer reloaded-attacked

# Negative control: every nonce zero on both ends; a capture of such a
# session, a re-created receiver: the same keys and names come back, and
# the echo requests replayed are delivered (a's own replies are still
# refused: its sending session came back too).
knob=/sys/kernel/debug/padtun/fixed_random
echo 1 > $knob
ip link del padtun0 && link_up
ok $? "padtun0 re-created, fixed_random on"
sync_with_peer fixed-links-up
capture fixed-captured
if [ "$ROLE" = a ]; then
	ip link del padtun0 && link_up
	ok $? "a re-created padtun0 (fixed_random)"
	set -- $(counters)
	sync_with_peer fixed-counted
	sync_with_peer fixed-sent
	sleep 1
	delivered=$(($(stat rx_delivered) - $1))
	echo "# negative control: $delivered of $N replayed requests delivered"
	[ "$delivered" -gt 0 ]
	ok $? "negative control: with fixed nonces the replay is delivered ($delivered)"
else
	sync_with_peer fixed-counted
	replayinject send eth0 $CAP $N --interval-ms 10 > "$RESULTS/inject-fixed.txt"
	ok $? "fixed: replayinject $(cat "$RESULTS/inject-fixed.txt")"
	sync_with_peer fixed-sent
fi
echo 0 > $knob
ip link del padtun0 && link_up
ok $? "padtun0 re-created, fixed_random off"
sync_with_peer fixed-off

# Legitimate traffic both ways after all of it: a receives on 6000, b on
# 6001.
if [ "$ROLE" = a ]; then
	me=a peer=b port=6000 peer_port=6001
else
	me=b peer=a port=6001 peer_port=6000
fi
send_stream() {
	seqcheck send "$OTHER" $peer_port 2000 1000 --rate 1000 > /dev/null
	ok $? "seqcheck sent 2000 datagrams to $peer"
}
seqcheck_recv streams "$RESULTS/seqcheck-$me.txt" \
	"seqcheck from $peer: in order, nothing lost" $port 2000 --timeout 10 \
	-- send_stream
sync_with_peer streams-done
ethtool -S padtun0 > "$RESULTS/ethtool.txt"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
