#!/bin/sh
# One large batch spread over CPUs keeps packet order (issue 25, item 3).
# b sends a seqcheck stream to a in UDP GSO sends of 40 datagrams (one GSO
# packet of 56,000 bytes each through padtun0), then iperf3 TCP: with
# chacha20poly1305 b's padtun splits such packets into pieces on both CPUs
# (tx_split grows), and a receives every datagram once and in order
# (seqcheck, RFC 4737: 0 reordered; rx_reordered_on_wire 0). With none,
# whose measured cost per byte is small, at most NONE_SPLIT_MAX of the 100
# packets are split: the cost is wall time, and a host that takes the
# vCPU away for several batches in a row raises it for a while (1 and 3
# of 100 in two of eleven runs). Negative control (test builds: the
# split_reversed knob submits the pieces last first): the same stream must
# be reported reordered, by seqcheck and RFC 4737 alike, and a must count
# the late datagrams.
# kernels: check distro
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 420
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

COUNT=4000 GSO=40 SIZE=1400 NONE_SPLIT_MAX=5

# link TRANSFORM: padtun0 on both CPUs, up, the peer's too.
link() {
	padtun_add transform "$1" cpus 0-1
	ok $? "padtun0 with $1 on CPUs 0-1"
	padtun_up
	sync_with_peer "$1-up"
}

# stream NAME: b sends COUNT datagrams to a, GSO at a time, paced (the
# check kernel's receiver decrypts some 2,000 a second); a receives them
# into $RESULTS/NAME.txt, judged by the caller.
stream() {
	if [ "$ROLE" = a ]; then
		seqcheck_recv "$1" "$RESULTS/$1.txt" "" 6000 $COUNT \
			--timeout 10 --max-loss $COUNT
		echo "# $1: $(grep received "$RESULTS/$1.txt")"
	else
		sync_with_peer "$1"
		seqcheck send $OTHER 6000 $COUNT $SIZE --gso $GSO --rate 1000 \
			> /dev/null
		ok $? "$1: seqcheck sent $COUNT datagrams, $GSO per GSO send"
	fi
	sync_with_peer "$1-done"
}

# in_order NAME: a's verdict on stream NAME: all received, 0 reordered by
# seqcheck and by RFC 4737, no datagram behind a later one at padtun.
in_order() {
	seqcheck_status=$(sed -n 's/^received \([0-9]*\) lost \([0-9]*\) .*reordered \([0-9]*\)$/\1 \2 \3/p' "$RESULTS/$1.txt")
	[ "$seqcheck_status" = "$COUNT 0 0" ]
	ok $? "$1: received, lost, reordered: ${seqcheck_status:-?}"
	reorders=$(rfc4737 "$RESULTS/$1.txt" reorders)
	[ "$reorders" = 0 ]
	ok $? "$1: RFC 4737 reordered packets: ${reorders:-?}"
	late=$(stat rx_reordered_on_wire)
	[ "$late" = 0 ]
	ok $? "$1: datagrams behind a later one at padtun: ${late:-?}"
}

# split_since N: b's verdict: tx_split grew above N.
split_since() {
	split=$(stat tx_split)
	echo "# $2: tx_split ${split:-?}, tx_submitted $(stat tx_submitted), parallel per CPU: $(ethtool -S padtun0 | sed -n 's/^ *cpu\([0-9]*\)_tx_parallel: /\1:/p' | tr '\n' ' ')"
	[ "${split:-0}" -gt "$1" ]
	ok $? "$2: GSO packets split (tx_split ${split:-?}, before $1)"
}

link chacha20poly1305
stream split
if [ "$ROLE" = a ]; then
	in_order split
else
	split_since 0 split
	split_before=$split
fi

# TCP's GSO packets, split as well, arrive in order.
if [ "$ROLE" = a ]; then
	serve_iperf3_once tcp
	late=$(stat rx_reordered_on_wire)
	[ "$late" = 0 ]
	ok $? "tcp: datagrams behind a later one at padtun: ${late:-?}"
else
	sync_with_peer tcp
	iperf3 -c $OTHER -t 3 -J > "$RESULTS/tcp.json"
	ok $? "iperf3 TCP $ME -> $OTHER: $(mbit_per_second "$RESULTS/tcp.json") Mbit/s"
	split_since "$split_before" tcp
fi
sync_with_peer tcp-done

# The negative control needs the knob, which release builds have not.
if [ -e $KNOBS/split_reversed ]; then
	[ "$ROLE" = b ] && echo 1 > $KNOBS/split_reversed
	sync_with_peer reversed-on
	stream reversed
	if [ "$ROLE" = a ]; then
		reordering_reported "$RESULTS/reversed.txt" reversed
		late=$(stat rx_reordered_on_wire)
		[ "${late:-0}" -gt 0 ]
		ok $? "reversed: datagrams behind a later one at padtun: ${late:-?}"
	else
		echo 0 > $KNOBS/split_reversed
		split_since "$split" reversed
	fi
else
	echo "# no split_reversed knob (a release build): no negative control"
fi

ethtool -S padtun0 > "$RESULTS/ethtool-chacha20poly1305.txt"
ip link del padtun0
sync_with_peer chacha20poly1305-gone

# none costs little per byte: its GSO packets stay whole.
link none
stream none
if [ "$ROLE" = a ]; then
	in_order none
else
	split=$(stat tx_split)
	[ -n "$split" ] && [ "$split" -le $NONE_SPLIT_MAX ]
	ok $? "none: GSO packets split: ${split:-?} of $((COUNT / GSO)) (at most $NONE_SPLIT_MAX)"
fi
ethtool -S padtun0 > "$RESULTS/ethtool-none.txt"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
