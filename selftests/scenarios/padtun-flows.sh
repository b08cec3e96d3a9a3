#!/bin/sh
# Order per flow (issue 29): b sends 64 UDP flows, each from a source port
# of its own, through a link of order flow with 4 domains, while the test
# knobs delay parallel() and defer padata_do_serial: every flow arrives
# complete and in order (seqcheck judges each flow), while the stream of
# all flows may be reordered between flows, which is counted and reported
# (interflow reorders). Negative control: with the unordered knob no
# domain keeps its order, and the per-flow check must fail. Then both ends
# go back to order link (changelink, down): the same 64 flows, judged as
# one stream, arrive with 0 reordered, within flows and between them.
# The domains' serial stages spread over both CPUs (padata's serial_cpuN),
# order link's stay on CPU 0. A receiver of order link refuses the other
# domains (rx_malformed). Also: ip shows order and domains, a link that is
# up refuses to change them (EBUSY), domains above 1 need order flow.
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 420
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

# RATE: well below what padtun takes with the knobs on, in TCG guests of a
# busy host (at 1000 a second, one run in three lost datagrams: b's qdisc
# overflowed, and UDP drops that silently without IP_RECVERR).
FLOWS=64 COUNT=6400 RATE=500

echo 2000 > $KNOBS/delay_us_max && echo 1 > $KNOBS/defer_serial
ok $? "test knobs on: delay_us_max 2000, defer_serial 1"

padtun_add cpus 0-1 order flow domains 4
ok $? "ip link add padtun0 type padtun ... order flow domains 4"
ip -d link show padtun0 | grep -q "order flow domains 4 "
ok $? "ip -d link shows order flow domains 4"
ip -j -d link show padtun0 | grep -q '"order":"flow","domains":4'
ok $? "ip -j -d link gives order and domains"
# The stream's order is padtun's to keep: a FIFO in front of it, where a
# flow-fair qdisc would interleave the flows its own way.
tc qdisc replace dev padtun0 root pfifo
ok $? "pfifo on padtun0"
padtun_up
ok $? "padtun0 up"

! ip link set padtun0 type padtun domains 2 2> "$RESULTS/busy.txt" &&
	grep -q "only while the link is down" "$RESULTS/busy.txt"
ok $? "an up link refuses a change of domains: $(head -n 1 "$RESULTS/busy.txt")"
! ip link set padtun0 type padtun order link domains 2 \
	2> "$RESULTS/link-domains.txt" &&
	grep -q "more than one domain needs order flow" "$RESULTS/link-domains.txt"
ok $? "domains above 1 need order flow: $(head -n 1 "$RESULTS/link-domains.txt")"
! ip link set padtun0 type padtun domains 65 2> /dev/null
ok $? "domains 65 refused"
sync_with_peer links-up

# stream NAME [unpaced]: b sends COUNT datagrams to a over FLOWS flows,
# each from its own socket, at RATE a second or as fast as padtun takes
# them; a receives them into $RESULTS/NAME.txt, judged by the caller.
# Sets serial to the CPUs that ran serial() meanwhile: a's rx, b's tx.
stream() {
	_name=$1 _rate="--rate $RATE"
	[ "$2" = unpaced ] && _rate=
	link_serial_snapshot
	if [ "$ROLE" = a ]; then
		seqcheck_recv "$_name" "$RESULTS/$_name.txt" "" 6000 $COUNT \
			--flows $FLOWS --timeout 10 --max-loss $COUNT
		echo "# $_name: $(grep received "$RESULTS/$_name.txt"), $(grep interflow "$RESULTS/$_name.txt")"
	else
		sync_with_peer "$_name"
		# shellcheck disable=SC2086 # --rate N or nothing
		seqcheck send "$OTHER" 6000 $COUNT 200 --flows $FLOWS \
			--flow-ports $_rate > /dev/null
		ok $? "$_name: seqcheck sent $COUNT datagrams over $FLOWS flows"
	fi
	sync_with_peer "$_name-done"
	link_serial_since
	serial=$rx_serial
	[ "$ROLE" = b ] && serial=$tx_serial
}

# serial_on NAME CPUS: the serial stages ran on CPUS, and no others.
serial_on() {
	[ "$serial" = "$2" ]
	ok $? "$1: serial() of $([ "$ROLE" = a ] && echo rx || echo tx) on CPUs $serial (want $2)"
}

stream flow
# Domains 0 and 2 on CPU 0 (cbcpu), 1 and 3 on CPU 1.
serial_on flow "0 1"
if [ "$ROLE" = a ]; then
	seqcheck_figures "$RESULTS/flow.txt"
	[ "$status" = "$COUNT 0 0" ]
	ok $? "order flow: received, lost, reordered within flows: ${status:-?}; flows reordered: $flows_reordered of $FLOWS; interflow reorders ${interflow:-?} (allowed)"
	malformed=$(stat rx_malformed)
	[ "$malformed" = 0 ]
	ok $? "order flow: no datagram of a domain refused (rx_malformed ${malformed:-?})"
fi

# Negative control: no domain keeps its order; the per-flow check fails.
# A flow's next datagram is 64 behind: only a vCPU held up for that long
# lets it overtake, so as many in flight as padtun holds, unpaced.
echo 1 > $KNOBS/unordered
sync_with_peer unordered-on
stream unordered unpaced
if [ "$ROLE" = a ]; then
	seqcheck_figures "$RESULTS/unordered.txt"
	reordered=${status##* }
	[ "${reordered:-0}" -gt 0 ] && [ "$flows_reordered" -gt 0 ]
	ok $? "unordered: the per-flow check fails: $reordered reordered within $flows_reordered of $FLOWS flows (received, lost, reordered: ${status:-?}; interflow reorders ${interflow:-?})"
fi
echo 0 > $KNOBS/unordered
sync_with_peer unordered-off

# to_link: this end back to one order for all, while down.
to_link() {
	ip link set padtun0 down && ip link set padtun0 type padtun order link
	ok $? "changelink to order link while down"
	ip -d link show padtun0 | grep -q "order link domains 1 "
	ok $? "ip -d link shows order link domains 1"
	ip link set padtun0 up
	ok $? "padtun0 up again"
}

# A receiver refuses a domain it does not have: a goes first, while b
# still sends in 4 domains; what a takes is the flows of domain 0.
[ "$ROLE" = a ] && to_link
sync_with_peer a-link
stream mismatch
if [ "$ROLE" = a ]; then
	seqcheck_figures "$RESULTS/mismatch.txt"
	received=${status%% *}
	malformed=$(stat rx_malformed)
	[ "${malformed:-0}" -gt 0 ] && [ "${received:-0}" -gt 0 ] &&
		[ "$received" -lt $COUNT ]
	ok $? "order link against 4 domains: ${malformed:-?} datagrams refused (rx_malformed), ${received:-?} of $COUNT taken"
fi
[ "$ROLE" = b ] && to_link
sync_with_peer link-order
stream link
serial_on link 0
if [ "$ROLE" = a ]; then
	seqcheck_figures "$RESULTS/link.txt"
	[ "$status" = "$COUNT 0 0" ] && [ "$interflow" = 0 ]
	ok $? "order link: the $FLOWS flows as one stream: received, lost, reordered: ${status:-?}; interflow reorders ${interflow:-?}"
fi

ethtool -S padtun0 > "$RESULTS/ethtool.txt"
sync_with_peer flows-done
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
