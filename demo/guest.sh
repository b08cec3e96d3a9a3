#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo, inside each guest: a padtun link over the virtio-net link, then
# iperf3 TCP from b to a, alternating plain link and padtun, ROUNDS times.
# Guest b writes one line per run to $RESULTS/runs: "MODE ROUND MBIT/S".
. /selftests/lib/guest.sh

rounds=${PADNET_rounds:-3}
seconds=${PADNET_seconds:-4}
key=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
inner_a=198.19.0.1 inner_b=198.19.0.2

ip link add padtun0 type padtun local "$ADDR" remote "$PEER" port 4789 \
	key "$key" transform chacha20poly1305 || exit 1
if [ "$ROLE" = a ]; then
	ip addr add "$inner_a/24" dev padtun0
else
	ip addr add "$inner_b/24" dev padtun0
fi
ip link set padtun0 up

for round in $(seq "$rounds"); do
	for mode in plain padtun; do
		server=$PEER
		[ "$mode" = padtun ] && server=$inner_a
		if [ "$ROLE" = a ]; then
			serve_iperf3_once
		else
			sync_with_peer
			json=$RESULTS/$mode-$round.json
			iperf3 -c "$server" -t "$seconds" -J > "$json"
			mbps=$(mbit_per_second "$json")
			echo "$mode $round ${mbps:-0}" | tee -a "$RESULTS/runs"
		fi
	done
done
ip -s link show padtun0 > "$RESULTS/padtun0-stats.txt"
ethtool -S padtun0 >> "$RESULTS/padtun0-stats.txt" 2>&1
