#!/bin/sh
# CPU hotplug under traffic in order flow: as padtun-hotplug, 3 vCPUs and
# the link on CPUs 0-2 with callback CPUs 1 (tx) and 2 (rx), now with 3
# domains, whose serial CPUs are 1, 2 and 0 for tx and 2, 0 and 1 for rx:
# each CPU that goes offline holds a domain's serial stage of each
# direction. Each guest takes CPUs 1 and 2 offline and back in a loop
# while paced streams of 16 flows, each from its own port, go both ways:
# every flow complete and in order, padtun dropped nothing, the serial
# CPUs moved away and back in pairs, and after the loop the domains'
# serial stages run on all three CPUs again.
# kernels: check
# guests: 2
# cpus: 3
# mem: 1024
# timeout: 420
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

FLOWS=16 COUNT=8000 RATE=400

padtun_add cpus 0-2 cbcpu 1 rxcbcpu 2 order flow domains 3
ok $? "ip link add padtun0 cpus 0-2 cbcpu 1 rxcbcpu 2 order flow domains 3"
echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6
padtun_up
ok $? "padtun0 up"
sync_with_peer links-up

# under_hotplug: while the peer's flows come, ours go out and the CPUs go
# off and on.
under_hotplug() {
	hotplug_loop $((COUNT / RATE)) &
	plug=$!
	seqcheck send "$OTHER" 6000 $COUNT 500 --flows $FLOWS --flow-ports \
		--rate $RATE > /dev/null
	ok $? "seqcheck sent $COUNT datagrams over $FLOWS flows to $OTHER"
	wait $plug
	ok $? "CPUs 1 and 2 taken offline and back $(cat "$RESULTS/hotplug-count.txt" 2>/dev/null) times"
}

seqcheck_recv hotplug "$RESULTS/seqcheck.txt" "" 6000 $COUNT \
	--flows $FLOWS --timeout 20 -- under_hotplug
seqcheck_figures "$RESULTS/seqcheck.txt"
[ "$status" = "$COUNT 0 0" ]
ok $? "$FLOWS flows from $OTHER under hotplug: received, lost, reordered within flows: ${status:-?}; interflow reorders ${interflow:-?}"
sync_with_peer hotplug-done

# Each domain's serial CPU away from CPU 1 or 2 (to 0, the first active
# CPU of the list) and back.
hotplug_settled

# Back where they belong: 64 more flows from b, whose 3 domains run a's
# receive and b's transmit serial() on CPUs 0, 1 and 2.
link_serial_snapshot
if [ "$ROLE" = a ]; then
	seqcheck_recv after-loop "$RESULTS/after.txt" \
		"64 flows from $OTHER after the loop" 6000 640 --flows 64
else
	sync_with_peer after-loop
	seqcheck send "$OTHER" 6000 640 500 --flows 64 --flow-ports \
		--rate $RATE > /dev/null
	ok $? "seqcheck sent 640 datagrams over 64 flows"
fi
sync_with_peer after-done
link_serial_since
serial=$rx_serial
[ "$ROLE" = b ] && serial=$tx_serial
[ "$serial" = "0 1 2" ]
ok $? "after the loop serial() of $([ "$ROLE" = a ] && echo rx || echo tx) on CPUs $serial (want 0 1 2)"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
