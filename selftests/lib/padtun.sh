# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the padtun scenarios, sourced inside a guest after
# guest.sh (which already makes "ip" Debian's iproute2 with the plugin):
#
#   . /selftests/lib/guest.sh
#   . /selftests/lib/padtun.sh
#
# Sets KEY (a chacha20poly1305 key; a scenario may set its own after
# sourcing), KNOBS (the debugfs test knobs), and ME and OTHER: this guest's
# and the peer's address inside the tunnel.

KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
KNOBS=/sys/kernel/debug/padtun
if [ "$ROLE" = a ]; then ME=198.19.0.1 OTHER=198.19.0.2; else ME=198.19.0.2 OTHER=198.19.0.1; fi

# padtun_add [ARGS...]: padtun0 from our eth0 address to the peer's, UDP
# port 5555, key $KEY, and ARGS (transform, cpus, ...).
padtun_add() {
	ip link add padtun0 type padtun local "$ADDR" remote "$PEER" port 5555 \
		key "$KEY" "$@"
}

# padtun_up: $ME/24 on padtun0, and the link up.
padtun_up() {
	ip addr add "$ME/24" dev padtun0 && ip link set padtun0 up
}

# stat NAME: one ethtool -S counter of padtun0.
stat() {
	ethtool -S padtun0 | sed -n "s/^ *$1: //p"
}

# tcp_then_seqcheck COUNT RATE: b sends 4 s of iperf3 TCP to a, then a
# sends COUNT seqcheck datagrams at RATE per second, which b must receive
# all and in order. One TAP line per step, on the end that checks it.
tcp_then_seqcheck() {
	if [ "$ROLE" = a ]; then
		serve_iperf3_once
		sync_with_peer
		seqcheck send "$OTHER" 6000 "$1" 1000 --rate "$2" > /dev/null
		ok $? "seqcheck sent $1 datagrams"
	else
		sync_with_peer
		iperf3 -c "$OTHER" -t 4 > /dev/null
		ok $? "iperf3 TCP $ME -> $OTHER"
		seqcheck recv 6000 "$1" --timeout 10 > "$RESULTS/seqcheck.txt" 2>&1 &
		recv=$!
		sleep 1
		sync_with_peer
		wait $recv
		ok $? "seqcheck: in order, nothing lost ($(grep received "$RESULTS/seqcheck.txt"))"
	fi
}
