#!/bin/sh
# Spoofed datagrams do not split the peer's runs (issue 26, item 3): a's
# receive groups each burst into runs of one session, one padata object
# each, and refuses datagrams of sessions it does not hold before that.
# b's underlay captures K of b's own datagrams to a, then sends them to a
# again back to back (replayinject hostile --classes replay: each is
# authenticated, then refused by the window), first alone, then with a
# made-up-session datagram after each one (--classes replay,new_session),
# while a's parallel() is slowed (delay_us_max) so that bursts are long.
# a counts padata objects (rx_submitted) per replayed datagram in each:
# with the spoofed ones at most 0.7, where grouping first would make
# every replayed datagram a run of its own, one object each; and at most
# three times what it is alone, plus 0.05 (a poll takes its budget of
# datagrams, the spoofed ones among them, so it carries as few as half
# the peer's: about twice the objects, measured 1.0 to 1.9 times). Every
# spoofed one is counted (rx_unknown_session).
# Negative control (run by hand, see the note of the commit that added
# it): with the refusal moved after the grouping, the check fails.
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

K=2000
CAP=/tmp/capture

padtun_add && echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6 &&
	padtun_up
ok $? "padtun0 up"
sync_with_peer links-up

# send_to_capture: a ping exchange, then K datagrams of b's to a.
send_to_capture() {
	ping -c 2 -W 5 "$OTHER" > /dev/null
	seqcheck send "$OTHER" 6001 $K 64 --rate 1000 > /dev/null
}

if [ "$ROLE" = b ]; then
	capture_during $CAP $K send_to_capture
else
	echo 300 > $KNOBS/delay_us_max
	ok $? "a's parallel() slowed: delay_us_max 300"
fi
sync_with_peer captured

# run NAME CLASSES COUNT: b sends the capture again; a writes "objects
# replayed unknown" of the run to $RESULTS/NAME.txt.
run() {
	if [ "$ROLE" = a ]; then
		s0=$(stat rx_submitted) r0=$(($(stat rx_replayed) + $(stat rx_too_old)))
		u0=$(stat rx_unknown_session)
		sync_with_peer "$1-start"
		sync_with_peer "$1-sent"
		sleep 2		# what is queued drains
		echo "$(($(stat rx_submitted) - s0)) $(($(stat rx_replayed) + $(stat rx_too_old) - r0)) $(($(stat rx_unknown_session) - u0))" \
			> "$RESULTS/$1.txt"
		return
	fi
	sync_with_peer "$1-start"
	replayinject hostile eth0 $CAP $CAP "$3" --classes "$2" > "$RESULTS/$1.txt"
	ok $? "$1: replayinject $(tr '\n' ' ' < "$RESULTS/$1.txt")"
	sync_with_peer "$1-sent"
}

run alone replay $K
run spoofed replay,new_session $((2 * K))

if [ "$ROLE" = a ]; then
	echo 0 > $KNOBS/delay_us_max
	# shellcheck disable=SC2046 # six numbers
	set -- $(cat "$RESULTS/alone.txt" "$RESULTS/spoofed.txt")
	echo "# alone: $1 objects for $2 replayed; spoofed: $4 objects for $5 replayed, $6 refused as unknown"
	awk -v o1="$1" -v d1="$2" -v o2="$4" -v d2="$5" 'BEGIN {
		if (!d1 || !d2)
			exit 1
		r1 = o1 / d1; r2 = o2 / d2
		printf "# objects per replayed datagram: alone %.3f, spoofed %.3f\n", r1, r2
		exit !(r2 <= 0.7 && r2 <= 3 * r1 + 0.05) }'
	ok $? "spoofed datagrams do not split the peer's runs: $1 objects for $2 datagrams alone, $4 for $5 with them"
	[ "$6" = $K ]
	ok $? "every spoofed datagram was refused as of an unknown session ($6 of $K)"
fi

ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
