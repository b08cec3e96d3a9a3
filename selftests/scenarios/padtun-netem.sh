#!/bin/sh
# Impairments on the underlay (issue 13): netem on b's eth0 reorders,
# delays beyond the replay window, duplicates and drops the tunnel's
# datagrams while b sends seqcheck datagrams to a through padtun0. Per
# phase, a compares seqcheck's figures with its own padtun counters and
# b's netem figures:
#   - nothing delivered twice: seqcheck duplicates 0 (rx_replayed counts
#     the wire's duplicates, which padtun drops);
#   - delivered in the order the replay window judged them: seqcheck
#     reordered == rx_reordered_on_wire (late but in the window: accepted,
#     delivered late). The window runs in serial(), in padata's order,
#     which is the arrival order, so that is the wire's reordering. The
#     receiver's test knobs (delay_us_max, defer_serial) make padata's
#     ordering matter, and where netem does not reorder, seqcheck reordered
#     must be 0;
#   - every loss accounted for: seqcheck lost == netem's dropped (tc -s
#     qdisc show dev eth0 on b) + rx_too_old (left of the window);
#   - seqcheck received == rx_delivered.
# netem sees only the tunnel's datagrams: the barriers run with no qdisc,
# b's neighbour entry for a is static (no ARP through netem), b's eth0 has
# no IPv6 (its router solicitations went through netem), and a checks
# netem sent + dropped == b's tx_sent in the phases without duplication.
# kernels: check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 480
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

COUNT=5000
RATE=1000
DRAIN=2		# s for netem's queue to drain after the last datagram

uptime_cs() { tr -d . < /proc/uptime | cut -d' ' -f1; }

# rx_counters: padtun0's receive counters the phases judge, on one line.
rx_counters() {
	for c in rx_delivered rx_reordered_on_wire rx_replayed rx_too_old \
		 rx_dropped rx_stack_dropped rx_auth_failed; do
		v=$(stat $c)
		printf '%s ' "${v:-0}"
	done
}

# netem_figures FILE: "sent dropped requeues backlog" of the root netem
# qdisc in a tc -s qdisc show output.
netem_figures() {
	sed -n 's/^ *Sent [0-9]* bytes \([0-9]*\) pkt (dropped \([0-9]*\), overlimits [0-9]* requeues \([0-9]*\)).*/\1 \2 \3/p' "$1" | head -n 1 | tr '\n' ' '
	sed -n 's/^ *backlog [0-9a-zA-Z]* \([0-9]*\)p.*/\1/p' "$1" | head -n 1
}

# send_phase NAME NETEM_ARGS...: b puts netem on eth0, sends COUNT
# datagrams at RATE, lets netem's queue drain, records its figures, removes
# it and tells a "sent dropped requeues backlog tx_sent".
send_phase() {
	name=$1
	shift
	sync_with_peer "$name"
	tx0=$(stat tx_sent)
	tc qdisc add dev eth0 root netem limit 100000 "$@"
	ok $? "$name: tc qdisc add dev eth0 root netem $*"
	t0=$(uptime_cs)
	seqcheck send "$OTHER" 6000 $COUNT 64 --rate $RATE > /dev/null
	ok $? "$name: seqcheck sent $COUNT datagrams in $(($(uptime_cs) - t0))0 ms (paced at $RATE/s)"
	sleep $DRAIN
	tc -s qdisc show dev eth0 > "$RESULTS/tc-$name.txt"
	tc qdisc del dev eth0 root
	ok $? "$name: netem removed ($(sed -n 's/^ *Sent/Sent/p' "$RESULTS/tc-$name.txt"))"
	tx=$(($(stat tx_sent) - tx0))
	tell_peer "$(netem_figures "$RESULTS/tc-$name.txt") $tx"
}

# recv_phase NAME MODE: a receives, hears b's netem figures and checks the
# accounting; the phase-specific checks follow in the caller, from the
# variables set here (late, replayed, too_old, dropped, ...). MODE: plain
# (netem neither duplicates nor drops duplicates: the exact equalities),
# dup (duplicates, no loss), mixed (duplicates and loss: netem's dropped
# may include duplicates, so lost <= dropped + too old).
recv_phase() {
	name=$1 mode=$2
	# shellcheck disable=SC2046 # one word per counter
	set -- $(rx_counters)
	b_deliv=$1 b_late=$2 b_repl=$3 b_old=$4 b_drop=$5 b_stack=$6 b_auth=$7
	seqcheck_recv "$name" "$RESULTS/seqcheck-$name.txt" "" \
		6000 $COUNT --timeout 5 --max-loss $COUNT
	rc=$?
	# shellcheck disable=SC2046 # one word per figure
	set -- $(hear_peer)
	n_sent=$1 dropped=$2 requeues=$3 backlog=$4 tx=$5
	sleep 1
	# shellcheck disable=SC2046
	set -- $(rx_counters)
	delivered=$(($1 - b_deliv)) late=$(($2 - b_late)) replayed=$(($3 - b_repl))
	too_old=$(($4 - b_old)) rx_drop=$(($5 - b_drop)) stack=$(($6 - b_stack))
	auth=$(($7 - b_auth))
	# shellcheck disable=SC2046
	set -- $(sed -n 's/^received \([0-9]*\) lost \([0-9]*\) duplicates \([0-9]*\) reordered \([0-9]*\)$/\1 \2 \3 \4/p' \
		"$RESULTS/seqcheck-$name.txt")
	received=${1:--1} lost=${2:--1} dups=${3:--1} reordered=${4:--1}
	corrupt=$(sed -n 's/^corrupt \([0-9]*\) .*/\1/p' "$RESULTS/seqcheck-$name.txt")
	echo "# $name: seqcheck (exit $rc): $(tr '\n' ' ' < "$RESULTS/seqcheck-$name.txt")"
	echo "# $name: netem on b: sent $n_sent dropped $dropped requeues $requeues backlog $backlog; b tx_sent +$tx"
	echo "# $name: padtun on a: rx_delivered +$delivered rx_reordered_on_wire +$late rx_replayed +$replayed rx_too_old +$too_old rx_dropped +$rx_drop rx_stack_dropped +$stack rx_auth_failed +$auth"

	[ "$rc" -le 1 ] && [ "$received" -ge 0 ] && [ "${corrupt:-1}" = 0 ]
	ok $? "$name: seqcheck received $received lost $lost duplicates $dups reordered $reordered, corrupt ${corrupt:-?}"
	[ "$backlog" = 0 ] && [ "$tx" = $COUNT ]
	ok $? "$name: b sent $tx tunnel datagrams, netem's queue drained (backlog $backlog)"
	if [ "$mode" = plain ]; then
		[ $((n_sent + dropped)) = "$tx" ]
		ok $? "$name: netem saw only the tunnel's datagrams: sent $n_sent + dropped $dropped == b tx_sent +$tx"
	else
		[ $((n_sent + dropped)) -ge "$tx" ]
		ok $? "$name: netem sent $n_sent + dropped $dropped >= b tx_sent +$tx (duplicates on top)"
	fi
	[ "$dups" = 0 ]
	ok $? "$name: nothing delivered twice: seqcheck duplicates $dups (rx_replayed +$replayed)"
	[ "$reordered" = "$late" ]
	ok $? "$name: no reordering beyond the wire's: seqcheck reordered $reordered == rx_reordered_on_wire +$late"
	# How far the wire's reordering went, in the standard's terms.
	echo "# $name: RFC 4737 extent max $(rfc4737 "$RESULTS/seqcheck-$name.txt" extent_max), late time max $(rfc4737 "$RESULTS/seqcheck-$name.txt" late_time_max_seconds) s, n-reordering max $(rfc4737 "$RESULTS/seqcheck-$name.txt" n_reordering_max)"
	[ "$received" = "$delivered" ]
	ok $? "$name: seqcheck received $received == rx_delivered +$delivered"
	if [ "$mode" = mixed ]; then
		[ "$lost" -ge 0 ] && [ "$lost" -le $((dropped + too_old)) ]
		ok $? "$name: seqcheck lost $lost <= netem dropped $dropped + rx_too_old +$too_old"
	else
		[ "$lost" = $((dropped + too_old)) ]
		ok $? "$name: seqcheck lost $lost == netem dropped $dropped + rx_too_old +$too_old"
	fi
}

# phase NAME MODE NETEM_ARGS...
phase() {
	if [ "$ROLE" = a ]; then
		recv_phase "$1" "$2"
	else
		n=$1
		shift 2
		send_phase "$n" "$@"
	fi
}

if [ "$ROLE" = a ]; then
	echo 200 > "$KNOBS/delay_us_max" && echo 1 > "$KNOBS/defer_serial"
	# shellcheck disable=SC2320 # the writes' status
	ok $? "receiver's test knobs on: delay_us_max 200, defer_serial 1"
fi
padtun_add transform chacha20poly1305 cpus 0-1
ok $? "ip link add padtun0 type padtun"
echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6 && padtun_up
ok $? "padtun0 up with $ME, no IPv6 on it"
sync_with_peer links-up
ping -c 3 -W 5 "$OTHER" > /dev/null
ok $? "ping $OTHER through the tunnel"
if [ "$ROLE" = b ]; then
	# No ARP probe through netem: a's address fixed on b's eth0.
	mac=$(ip neigh show "$PEER" dev eth0 | sed -n 's/.*lladdr \([^ ]*\).*/\1/p')
	[ -n "$mac" ] && ip neigh replace "$PEER" lladdr "$mac" dev eth0 nud permanent
	ok $? "static neighbour $PEER lladdr ${mac:-?} on eth0"
	# No IPv6 on eth0 either: its router solicitations would go through
	# netem (and be dropped in the loss phase).
	echo 1 > /proc/sys/net/ipv6/conf/eth0/disable_ipv6 &&
		[ -z "$(ip -6 addr show dev eth0)" ]
	ok $? "no IPv6 on eth0"
	tc qdisc show dev eth0 > "$RESULTS/tc-before.txt"
fi
sync_with_peer eth0-ready

# 1. Reordering within the window: 75% held 10 ms, the rest overtake.
phase reorder plain delay 10ms reorder 25% 50%
if [ "$ROLE" = a ]; then
	[ "$late" -gt 0 ]
	ok $? "reorder: late datagrams accepted (rx_reordered_on_wire +$late)"
fi

# 2. Reordering beyond the window: 2% held 5 s, while the others overtake
# them: more than the window's 1984 at any rate above 400/s (TCG manages
# 600 to 1000): too old, but those of the last 2 s are still in it.
DRAIN=6
phase far plain delay 5s reorder 98%
DRAIN=2
if [ "$ROLE" = a ]; then
	[ "$too_old" -gt 0 ] && [ "$late" -gt 0 ]
	ok $? "far: too old dropped (rx_too_old +$too_old), late accepted (rx_reordered_on_wire +$late)"
fi

# 3. Duplication.
phase duplicate dup duplicate 5%
if [ "$ROLE" = a ]; then
	[ "$replayed" -gt 0 ]
	ok $? "duplicate: the wire's duplicates dropped (rx_replayed +$replayed)"
	[ "$reordered" = 0 ]
	ok $? "duplicate: the wire did not reorder, nor did padtun (seqcheck reordered $reordered)"
fi

# 4. Loss.
phase loss plain loss 2%
if [ "$ROLE" = a ]; then
	[ "$dropped" -gt 0 ] && [ "$lost" -gt 0 ]
	ok $? "loss: netem dropped $dropped, seqcheck lost $lost"
	[ "$reordered" = 0 ]
	ok $? "loss: the wire did not reorder, nor did padtun (seqcheck reordered $reordered)"
fi

# 5. All at once, with jitter. A duplicate that netem drops counts in its
# dropped without being a loss: here the loss is bounded, not equal.
phase all mixed delay 10ms 5ms reorder 25% 50% duplicate 2% loss 1%
if [ "$ROLE" = a ]; then
	[ "$late" -gt 0 ] && [ "$replayed" -gt 0 ] && [ "$dropped" -gt 0 ]
	ok $? "all: late +$late, replayed +$replayed, netem dropped $dropped"
fi

sync_with_peer phases-done
if [ "$ROLE" = b ]; then
	echo 0 > /proc/sys/net/ipv6/conf/eth0/disable_ipv6
	ip neigh del "$PEER" dev eth0
fi
[ "$ROLE" = a ] && echo 0 > "$KNOBS/delay_us_max" && echo 0 > "$KNOBS/defer_serial"
ethtool -S padtun0 > "$RESULTS/ethtool.txt"
ip -s link show padtun0 > "$RESULTS/ip-s-link.txt"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
