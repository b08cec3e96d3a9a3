#!/bin/sh
# Negative control: with the "unordered" knob, padtun finishes packets in
# parallel() and skips padata's ordering; iperf3 and seqcheck must see the
# reordering that the padtun-traffic scenario shows does not happen, and
# seqcheck's RFC 4737 figures must agree: as many reordered packets by
# RFC 4737's count as by its own, each late by an extent of at least 1.
# kernels: check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

echo 2000 > $KNOBS/delay_us_max && echo 1 > $KNOBS/unordered
ok $? "test knobs on: delay_us_max 2000, unordered 1"

padtun_add cpus 0-1
ok $? "ip link add padtun0"
padtun_up
ok $? "padtun0 up"
sync_with_peer links-up

if [ "$ROLE" = a ]; then
	serve_iperf3_once iperf3-udp
	sync_with_peer stream
	seqcheck send $OTHER 6000 4000 1000 > /dev/null
	ok $? "seqcheck sent 4000 datagrams unpaced"
else
	sync_with_peer iperf3-udp
	iperf3 -c $OTHER -u -b 20M -l 1200 -t 4 --get-server-output -J > "$RESULTS/udp.json"
	ooo=$(out_of_order "$RESULTS/udp.json")
	echo "# iperf3 UDP: out_of_order ${ooo:-?}"
	[ "${ooo:-0}" -gt 0 ]
	ok $? "iperf3 UDP reports reordering (out_of_order $ooo)"
	# The verdict is the reordering below, not seqcheck's exit status.
	seqcheck_recv stream "$RESULTS/seqcheck.txt" "" \
		6000 4000 --timeout 10 --max-loss 4000
	reordered=$(sed -n 's/.*reordered \([0-9]*\).*/\1/p' "$RESULTS/seqcheck.txt")
	echo "# seqcheck: $(grep received "$RESULTS/seqcheck.txt")"
	[ "${reordered:-0}" -gt 0 ]
	ok $? "seqcheck reports reordering ($reordered)"
	reorders=$(rfc4737 "$RESULTS/seqcheck.txt" reorders)
	extent=$(rfc4737 "$RESULTS/seqcheck.txt" extent_max)
	echo "# RFC 4737: ratio $(rfc4737 "$RESULTS/seqcheck.txt" ratio), extent max $extent, n-reordering max $(rfc4737 "$RESULTS/seqcheck.txt" n_reordering_max), late time max $(rfc4737 "$RESULTS/seqcheck.txt" late_time_max_seconds) s"
	[ "$reorders" = "$reordered" ] && [ "${extent:-0}" -ge 1 ]
	ok $? "RFC 4737: $reorders reordered packets (seqcheck: $reordered), extent max $extent"
	ethtool -S padtun0 > "$RESULTS/ethtool.txt"
fi
sync_with_peer stream-done
echo 0 > $KNOBS/unordered
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
