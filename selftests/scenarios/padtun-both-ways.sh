#!/bin/sh
# padtun as a tester meets it, no test knobs: on Debian's stock kernel (the
# modules built as for the demo and the benchmark) and on the check kernel,
# iperf3 TCP and UDP both ways (UDP: 0 datagrams out of order), then a
# sequence-checked stream each way: complete and in order.
# kernels: distro check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

padtun_add transform chacha20poly1305
ok $? "ip link add padtun0 type padtun"
padtun_up
ok $? "padtun0 up with $ME"
# The link's two padata instances, tx's created first.
[ "$(padata_instances)" = 2 ]
ok $? "the link's two padata instances, the guest's only ones"
link_serial_snapshot
sync_with_peer links-up

if [ "$ROLE" = a ]; then
	iperf3_serve
	sync_with_peer iperf3-serving
	sync_with_peer iperf3-done
	iperf3_stop
else
	sync_with_peer iperf3-serving
	for dir in "" -R; do
		iperf3 -c $OTHER -t 4 $dir -J > "$RESULTS/tcp$dir.json"
		ok $? "iperf3 TCP $dir: $(mbit_per_second "$RESULTS/tcp$dir.json") Mbit/s"
		iperf3 -c $OTHER -u -b 20M -l 1200 -t 4 $dir --get-server-output -J > "$RESULTS/udp$dir.json"
		ok $? "iperf3 UDP $dir"
		ooo=$(out_of_order "$RESULTS/udp$dir.json")
		[ "$ooo" = 0 ]
		ok $? "iperf3 UDP $dir: ${ooo:-?} datagrams out of order"
	done
	sync_with_peer iperf3-done
fi

# One stream each way, both at once.
send_stream() {
	seqcheck send $OTHER 6000 5000 1000 --rate 1000 > /dev/null
	ok $? "seqcheck sent 5000 datagrams to $OTHER"
}
seqcheck_recv streams "$RESULTS/seqcheck.txt" \
	"seqcheck from $OTHER: in order, nothing lost" 6000 5000 --timeout 15 \
	-- send_stream
sync_with_peer streams-done

ethtool -S padtun0 > "$RESULTS/ethtool.txt"
[ "$(stat rx_auth_failed)" = 0 ] && [ "$(stat rx_replayed)" = 0 ]
ok $? "no auth failure, no replay"
# serial() of both directions on the callback CPU, the list's first (0):
# receive's callback CPU is transmit's unless configured apart.
link_serial_since
[ "$tx_serial" = 0 ] && [ "$rx_serial" = 0 ]
ok $? "serial() of tx on CPU $tx_serial, of rx on CPU $rx_serial (want 0 and 0)"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
