#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo, inside each guest: every mode up at once (selftests/lib/
# tunnels.sh), then iperf3 TCP from b to a through each in turn, ROUNDS
# times, then the ordering check of each padtun mode: iperf3 UDP (its
# out-of-order count) and a seqcheck stream. Guest b writes
# $RESULTS/runs ("MODE ROUND MBIT/S") and $RESULTS/order ("MODE OOO");
# guest a writes $RESULTS/seqcheck-MODE.txt; b writes $RESULTS/info.
. /selftests/lib/guest.sh
. /selftests/lib/tunnels.sh

rounds=${PADNET_rounds:-1}
seconds=${PADNET_seconds:-4}

modes="plain padtun-none padtun-chacha20poly1305 padtun-gcm-aes wireguard esp-chacha20poly1305 esp-gcm-aes"
padtun_modes="padtun-none padtun-chacha20poly1305 padtun-gcm-aes"

padtun_mode_add padtun0 10 none &&
padtun_mode_add padtun1 11 chacha20poly1305 &&
padtun_mode_add padtun2 12 gcm-aes &&
wg_mode_add wg0 20 &&
esp_mode_add 1 "$ESP_CHACHA" "$ESP_CHACHA_KEY" &&
esp_mode_add 2 "$ESP_GCM" "$ESP_GCM_KEY" || exit 1

if [ "$ROLE" = a ]; then
	iperf3_serve
	sync_with_peer iperf3-serving
	sync_with_peer throughput-done
	port=6010 receivers=""
	for mode in $padtun_modes; do
		seqcheck_start "$RESULTS/seqcheck-$mode.txt" $port 2000 --timeout 10
		receivers="$receivers $SEQCHECK_PID" port=$((port + 1))
	done
	sync_with_peer streams
	# shellcheck disable=SC2086
	wait $receivers
	iperf3_stop
	exit 0
fi

{
	echo "kernel $(uname -r)"
	echo "cpu $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) vCPUs"
	echo "crypto padtun-chacha20poly1305 $(lib_chacha20poly1305)"
	echo "crypto padtun-gcm-aes $(crypto_driver 'gcm(aes)')"
	echo "crypto esp-chacha20poly1305 $(crypto_driver "seqiv($ESP_CHACHA)")"
	echo "crypto esp-gcm-aes $(crypto_driver "seqiv($ESP_GCM)")"
} > "$RESULTS/info"
sync_with_peer iperf3-serving
for round in $(seq "$rounds"); do
	for mode in $modes; do
		json=$RESULTS/$mode-$round.json
		iperf3 -c "$(mode_peer "$mode")" -t "$seconds" -J > "$json"
		echo "$mode $round $(mbit_per_second "$json")" | tee -a "$RESULTS/runs"
	done
done
for mode in $padtun_modes; do
	json=$RESULTS/$mode-udp.json
	iperf3 -c "$(mode_peer "$mode")" -u -b 20M -l 1200 -t 2 --get-server-output -J > "$json"
	echo "$mode $(out_of_order "$json")" | tee -a "$RESULTS/order"
done
sync_with_peer throughput-done
sync_with_peer streams
port=6010
for mode in $padtun_modes; do
	seqcheck send "$(mode_peer "$mode")" $port 2000 1000 --rate 1000 > /dev/null &
	port=$((port + 1))
done
wait
