#!/bin/sh
# padtun carries iperf3 TCP and UDP both ways with chacha20poly1305 while
# the test knobs delay parallel() and defer padata_do_serial to the other
# CPU: UDP arrives in order (iperf3 out_of_order 0, seqcheck reordered 0),
# live CPU-list changes on both ends lose and reorder nothing, and TCP's
# datagrams leave in UDP GSO skbs.
# kernels: check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 420
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

echo 500 > $KNOBS/delay_us_max && echo 1 > $KNOBS/defer_serial
ok $? "test knobs on: delay_us_max 500, defer_serial 1"

padtun_add transform chacha20poly1305 cpus 0-1 cbcpu 1
ok $? "ip link add padtun0 type padtun"
padtun_up
ok $? "padtun0 up with $ME"
ip -d link show padtun0 > "$RESULTS/link.txt"
! grep -q "$KEY" "$RESULTS/link.txt"
ok $? "the key is not shown"
sync_with_peer links-up

ping -c 3 -W 5 $OTHER > /dev/null
ok $? "ping $OTHER through the tunnel"

if [ "$ROLE" = a ]; then
	iperf3_serve_peer
else
	sync_with_peer iperf3-serving
	iperf3 -c $OTHER -t 4 -J > "$RESULTS/tcp.json"
	ok $? "iperf3 TCP $ME -> $OTHER"
	iperf3 -c $OTHER -t 4 -R -J > "$RESULTS/tcp-r.json"
	ok $? "iperf3 TCP $OTHER -> $ME"
	for dir in "" -R; do
		iperf3 -c $OTHER -u -b 10M -l 1200 -t 4 $dir --get-server-output -J > "$RESULTS/udp$dir.json"
		ok $? "iperf3 UDP $dir"
		ooo=$(out_of_order "$RESULTS/udp$dir.json")
		echo "# iperf3 UDP $dir: out_of_order ${ooo:-?}"
		[ "$ooo" = 0 ]
		ok $? "iperf3 UDP $dir: 0 out-of-order datagrams"
	done
	sync_with_peer iperf3-done
fi

# seqcheck from a to b while both ends change their CPU list.
uptime_cs() { tr -d . < /proc/uptime | cut -d' ' -f1; }
churn() {
	for c in 1 0 0-1 1 0-1 0 0-1; do
		t0=$(uptime_cs)
		ip link set padtun0 type padtun cpus $c || return 1
		echo "cpus $c: $(($(uptime_cs) - t0))0 ms" >> "$RESULTS/churn.txt"
		sleep 0.5
	done
}
receiver_churn() {
	churn
	ok $? "cpus changed 7 times on the receiver"
}
if [ "$ROLE" = b ]; then
	seqcheck_recv stream "$RESULTS/seqcheck.txt" \
		"seqcheck: in order, nothing lost" 6000 8000 --timeout 15 \
		-- receiver_churn
else
	sync_with_peer stream
	churn &
	churner=$!
	seqcheck send $OTHER 6000 8000 1000 --rate 1000 > /dev/null
	ok $? "seqcheck sent 8000 datagrams"
	wait $churner
	ok $? "cpus changed 7 times on the sender"
fi
sync_with_peer stream-done

ethtool -S padtun0 > "$RESULTS/ethtool.txt"
ip -s link show padtun0 > "$RESULTS/ip-s-link.txt"
[ "$(stat rx_auth_failed)" = 0 ] && [ "$(stat rx_replayed)" = 0 ]
ok $? "no auth failure, no replay"
[ "$(stat rx_delivered)" -gt 0 ] && [ "$(stat tx_sent)" -gt 0 ]
ok $? "packets sent and delivered: $(stat tx_sent) / $(stat rx_delivered)"
# Each end sent TCP (b forward, a with -R): its GSO packets left as UDP
# GSO skbs, and they authenticated at the other end (above).
[ "$(stat tx_gso)" -gt 0 ]
ok $? "TCP's datagrams left in UDP GSO skbs (tx_gso $(stat tx_gso))"
grep -q "cpu1_rx_parallel" "$RESULTS/ethtool.txt"
ok $? "per-CPU parallel counters"

ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
