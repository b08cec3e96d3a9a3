#!/bin/sh
# Receive batches per domain, not per run (issue 29): with order flow the
# peer's domains arrive interleaved, often datagram by datagram, and a
# poll that cut a batch at every change of domain would pay a padata
# object for each run of one or two. a's receive makes one batch of each
# domain's datagrams in a poll instead.
# b's underlay captures K of its own datagrams to a, sent as 8 flows, each
# from a port of its own, first through order link, then through order
# flow domains 2; each time b sends the capture to a again back to back
# (replayinject hostile --classes replay: each is authenticated, then
# refused by the window), while a's parallel() is slowed (delay_us_max)
# so that polls are long. a counts padata objects (rx_submitted) per
# replayed datagram: with 2 domains at most twice order link's plus 0.1
# (a poll makes one batch per domain in it, and polls differ in length
# from one run to the next).
# Negative control (run by hand, see the note of the commit that added
# it): with a batch per run of consecutive datagrams, the check fails.
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

padtun_add order link && echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6 &&
	padtun_up
ok $? "padtun0 up, order link"
if [ "$ROLE" = a ]; then
	echo 300 > $KNOBS/delay_us_max
	ok $? "a's parallel() slowed: delay_us_max 300"
fi
sync_with_peer links-up

# send_to_capture: a ping exchange, then K datagrams of b's to a, 8 flows.
send_to_capture() {
	ping -c 2 -W 5 "$OTHER" > /dev/null
	seqcheck send "$OTHER" 6001 $K 64 --rate 1000 --flows 8 --flow-ports \
		> /dev/null
}

# run NAME: b captures its datagrams, then sends the capture again; a
# writes "objects replayed" of the second sending to $RESULTS/NAME.txt.
run() {
	[ "$ROLE" = b ] && capture_during $CAP $K send_to_capture
	sync_with_peer "$1-captured"
	if [ "$ROLE" = a ]; then
		s0=$(stat rx_submitted) r0=$(($(stat rx_replayed) + $(stat rx_too_old)))
		sync_with_peer "$1-start"
		sync_with_peer "$1-sent"
		sleep 2		# what is queued drains
		echo "$(($(stat rx_submitted) - s0)) $(($(stat rx_replayed) + $(stat rx_too_old) - r0))" \
			> "$RESULTS/$1.txt"
		return
	fi
	sync_with_peer "$1-start"
	replayinject hostile eth0 $CAP $CAP $K --classes replay > "$RESULTS/$1.txt"
	ok $? "$1: replayinject $(tr '\n' ' ' < "$RESULTS/$1.txt")"
	sync_with_peer "$1-sent"
}

run link
ip link set padtun0 down &&
	ip link set padtun0 type padtun order flow domains 2 &&
	ip link set padtun0 up
ok $? "padtun0 down, order flow domains 2, up"
sync_with_peer flow-up
run flow

if [ "$ROLE" = a ]; then
	echo 0 > $KNOBS/delay_us_max
	# shellcheck disable=SC2046 # four numbers
	set -- $(cat "$RESULTS/link.txt" "$RESULTS/flow.txt")
	echo "# order link: $1 objects for $2 replayed; order flow domains 2: $3 objects for $4 replayed"
	awk -v o1="$1" -v d1="$2" -v o2="$3" -v d2="$4" 'BEGIN {
		if (d1 < '$K' / 2 || d2 < '$K' / 2)
			exit 1
		r1 = o1 / d1; r2 = o2 / d2
		printf "# objects per replayed datagram: order link %.3f, order flow %.3f\n", r1, r2
		exit !(r2 <= 2 * r1 + 0.1) }'
	ok $? "interleaved domains are batched per domain: $1 objects for $2 datagrams with order link, $3 for $4 with 2 domains"
fi

ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
