#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/trace-ping.sh, inside each guest: where one ping waits beside bulk
# TCP. Every mode is up as in make bench (selftests/lib/tunnels.sh); per
# mode and round b pings a through it every 50 ms beside one iperf3 TCP
# flow, b -> a, while both guests trace the ping's packets: ftrace's net
# events on padtun and eth0, and kprobes at padtun's encap hook, its
# parallel() (padtun_tx_crypt, padtun_rx_crypt) and serial()
# (padtun_tx_finish, padtun_rx_finish), each filtered on the ping's length
# there (make bench's ping: 84 bytes, longer than any ACK, shorter than
# any data segment), and the ping process's wake-ups and switches.
# bench/trace_report.py pairs them up. chacha20poly1305 only: the lengths
# count its 16-byte tag.
#
# Files in $RESULTS: MODE.REP.trace.ROLE, MODE.REP.ping (b).
. /selftests/lib/guest.sh
. /selftests/lib/tunnels.sh

modes=$(echo "${PADNET_modes:-padtun-chacha20poly1305,padtun-chacha20poly1305-flow}" | tr , ' ')
reps=${PADNET_reps:-3}
# offsetof(struct sk_buff, len) in this kernel (the host reads it off
# padtun.ko's debug information).
len_at=${PADNET_skb_len:?}

padtun_mode_add padtun1 11 chacha20poly1305 &&
padtun_mode_add padtun7 18 chacha20poly1305 order flow domains 4 &&
wg_mode_add wg0 20 || exit 1
[ "$ROLE" = a ] && iperf3 -s -D

T=/sys/kernel/tracing
mount -t tracefs tracefs $T 2>/dev/null
echo mono > $T/trace_clock
echo 20000 > $T/buffer_size_kb
# The ping's lengths: its IP packet 84 bytes; with the padtun header and
# tag 120, with the UDP header 128, the outer IP packet 148, the Ethernet
# frame 162.
for e in net_dev_queue net_dev_start_xmit; do
	echo 'len == 84 || len == 162' > $T/events/net/$e/filter &&
	echo 1 > $T/events/net/$e/enable || exit 1
done
for e in netif_receive_skb napi_gro_receive_entry; do
	echo 'len == 84 || len == 148' > $T/events/net/$e/filter &&
	echo 1 > $T/events/net/$e/enable || exit 1
done
# name function register-of-the-skb length-there
for p in "pt_rcv padtun_receive si 128" "pt_txc padtun_tx_crypt si 84" \
	 "pt_txf padtun_tx_finish dx 120" "pt_rxc padtun_rx_crypt si 120" \
	 "pt_rxf padtun_rx_finish dx 84"; do
	set -- $p
	echo "p:$1 $2 len=+$len_at(%$3):u32" >> $T/kprobe_events &&
	echo "len == $4" > $T/events/kprobes/$1/filter &&
	echo 1 > $T/events/kprobes/$1/enable || exit 1
done
echo 'comm == "ping"' > $T/events/sched/sched_wakeup/filter
echo 'next_comm == "ping"' > $T/events/sched/sched_switch/filter
echo 1 > $T/events/sched/sched_wakeup/enable
echo 1 > $T/events/sched/sched_switch/enable

for r in $(seq "$reps"); do
	for m in $modes; do
		sync_with_peer "trace-$m-$r"
		echo > $T/trace
		echo 1 > $T/tracing_on
		if [ "$ROLE" = b ]; then
			t=$(mode_peer "$m")
			ping -c 3 -w 8 "$t" > /dev/null
			iperf3 -c "$t" -t 7 > /dev/null &
			sleep 1
			ping -c 100 -i 0.05 "$t" > "$RESULTS/$m.$r.ping"
			wait
			echo "trace: round $r/$reps, $m done"
		fi
		sync_with_peer "trace-$m-$r-done"
		echo 0 > $T/tracing_on
		cat $T/trace > "$RESULTS/$m.$r.trace.$ROLE"
	done
done
