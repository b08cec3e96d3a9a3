#!/bin/sh
# none, the measurement transform, seals nothing and says so: ip link add
# prints the kernel's warning (the ack's extack message), and ip -d link
# marks the link "measurement only" (-j: "measurement_only": true). Its
# replay window cannot be pinned: b's underlay captures one of b's own
# datagrams to a, and sends it again with the highest sequence number a
# link accepts (anyone can make that datagram: nothing authenticates it).
# a takes it, and its window follows b's next datagram back
# (rx_window_reset) instead of refusing every later one as too old: b's
# pings still get through. Negative control (run by hand, see the note
# of the commit that added it): without the reset, every ping after the
# pin is lost, counted as rx_too_old.
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

CAP=/tmp/capture
SEQ_TOP=72057594037927935	# domain 0, count PADTUN_SEQ_MAX: 2^56 - 1

padtun_add transform none 2> "$RESULTS/add.txt"
ok $? "padtun0 with transform none"
grep -q "measurement only" "$RESULTS/add.txt"
ok $? "ip link add warned: $(cat "$RESULTS/add.txt")"
ip -d link show padtun0 | grep -q "transform none (measurement only"
ok $? "ip -d link marks it measurement only"
ip -j -d link show padtun0 | grep -q '"measurement_only":true'
ok $? "ip -j -d link: measurement_only true"
echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6 && padtun_up
ok $? "padtun0 up"
sync_with_peer links-up

ping_before() {
	ping -c 3 -W 5 "$OTHER" > /dev/null
	ok $? "ping $OTHER before the pin"
}

if [ "$ROLE" = b ]; then
	capture_during $CAP 1 ping_before
	sync_with_peer captured
	replayinject send eth0 $CAP 1 --seq $SEQ_TOP > "$RESULTS/pin.txt"
	ok $? "sent it again with sequence number $SEQ_TOP ($(cat "$RESULTS/pin.txt"))"
	sync_with_peer pinned
	ping -c 5 -W 5 "$OTHER" > "$RESULTS/ping.txt"
	ok $? "ping $OTHER after the pin ($(grep -o '[0-9]* packets received' "$RESULTS/ping.txt"))"
	sync_with_peer pinged
else
	sync_with_peer captured
	too_old=$(stat rx_too_old) resets=$(stat rx_window_reset)
	sync_with_peer pinned
	sync_with_peer pinged
	too_old=$(($(stat rx_too_old) - too_old))
	resets=$(($(stat rx_window_reset) - resets))
	echo "# after the pin: rx_window_reset +$resets, rx_too_old +$too_old"
	[ "$resets" -ge 1 ] && [ "$too_old" = 0 ]
	ok $? "the window followed b back (rx_window_reset +$resets), nothing refused as too old"
fi

ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
