#!/bin/sh
# Throughput, knobs off: iperf3 TCP over the plain link and through padtun
# with each transform; prints a small table (padtun-perf: lines). Passes
# when every run carried traffic, each transform's sender used UDP GSO,
# no datagram reached the receiver behind a later one (the underlay keeps a
# flow's order, so the sender must have; on Debian's kernel eth0's qdisc is
# fq_codel, which keeps the order of what hashes alike only), and the
# receiver counted no TCP checksum error.
# kernels: check distro
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

# measure NAME DEST: a serves, b sends for 4 s.
measure() {
	if [ "$ROLE" = a ]; then
		serve_iperf3_once "iperf3-$1"
	else
		sync_with_peer "iperf3-$1"
		iperf3 -c "$2" -t 4 -J > "$RESULTS/$1.json"
		ok $? "iperf3 TCP over $1"
		echo "padtun-perf: $1 $(mbit_per_second "$RESULTS/$1.json") Mbit/s"
	fi
	sync_with_peer "$1-done"
}

measure plain "$PEER"
for t in chacha20poly1305 gcm-aes none; do
	padtun_add transform $t
	padtun_up
	sync_with_peer "$t-up"
	measure "$t" $OTHER
	if [ "$ROLE" = b ]; then
		gso=$(stat tx_gso)
		[ "${gso:-0}" -gt 0 ]
		ok $? "$t: TCP's datagrams left in UDP GSO skbs (tx_gso ${gso:-?})"
	else
		late=$(stat rx_reordered_on_wire)
		[ "$late" = 0 ]
		ok $? "$t: datagrams that arrived behind a later one: ${late:-?}"
	fi
	ip link del padtun0
done
# The receiver took over the outer checksum's sum for none's inner packets
# (receive.c): a sum kept wrong would show here.
if [ "$ROLE" = a ]; then
	errs=$(awk '$1 == "Tcp:" { if (!c) { for (i = 2; i <= NF; i++)
		if ($i == "InCsumErrors") c = i } else print $c }' /proc/net/snmp)
	[ "$errs" = 0 ]
	ok $? "TCP checksum errors at the receiver: ${errs:-?}"
fi
tap_exit
