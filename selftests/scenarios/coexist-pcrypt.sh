#!/bin/sh
# The kernel's own padata and padnet's padata.ko at work in one guest at
# the same time: an ESP SA whose AEAD runs through pcrypt (the kernel's
# padata) carries iperf3 TCP and a sequence-checked stream while padtun
# (padata.ko) carries another sequence-checked stream. Both arrive
# complete; padtun's in order (ESP's order is reported: it is the kernel's
# pcrypt's, see below). pcrypt really carries the SA: its /proc/crypto instance
# gains references when the SAs are added.
# kernels: distro check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/tunnels.sh

count=3000
rate=500

/sbin/modprobe pcrypt_instance
ok $? "pcrypt instantiated: $(dmesg | sed -n "s/.*pcrypt_instance: //p" | tail -n 1)"
pcrypt=$(crypto_driver "seqiv($ESP_GCM)")
case $pcrypt in pcrypt*) ok 0 "seqiv($ESP_GCM) is served by $pcrypt" ;;
*) ok 1 "seqiv($ESP_GCM) is served by '$pcrypt', not pcrypt" ;;
esac
before=$(crypto_refcnt "$pcrypt")

esp_mode_add 1 "$ESP_GCM" "$ESP_GCM_KEY"
ok $? "ESP SA pair $(mine 18.1) <-> $(theirs 18.1), $ESP_GCM"
after=$(crypto_refcnt "$pcrypt")
[ "${after:-0}" -gt "${before:-0}" ]
ok $? "the SAs took references on $pcrypt: refcnt $before -> $after"

padtun_mode_add padtun0 0 chacha20poly1305
ok $? "padtun0 up, inside $(mine 19.0)"
grep -qw '^pcrypt' /proc/modules && grep -qw '^padata' /proc/modules
ok $? "lsmod: $(lsmod | awk 'NR > 1 && /^(padata|padtun|pcrypt) / { print $1 }' | tr '\n' ' ')"
lsmod > "$RESULTS/lsmod.txt"
sync_with_peer links-up

# a sends both streams at once while b sends TCP to a over ESP.
if [ "$ROLE" = a ]; then
	iperf3 -s -1 -B "$(mine 18.1)" > /dev/null 2>&1 &
	server=$!
	wait_for_listen 5201
	sync_with_peer streams
	seqcheck send "$(theirs 18.1)" 6001 $count 1000 --rate $rate > /dev/null &
	esp=$!
	seqcheck send "$(theirs 19.0)" 6000 $count 1000 --rate $rate > /dev/null
	ok $? "seqcheck sent $count datagrams through padtun"
	wait $esp
	ok $? "seqcheck sent $count datagrams through ESP"
	wait $server
	ok $? "iperf3 TCP through ESP (server)"
else
	# The ESP stream's receiver first, then padtun's, whose helper meets
	# a and runs b's TCP through ESP while both streams come.
	esp_tcp() {
		iperf3 -c "$(theirs 18.1)" -t 5 -J > "$RESULTS/esp-tcp.json"
		ok $? "iperf3 TCP through ESP+pcrypt: $(mbit_per_second "$RESULTS/esp-tcp.json") Mbit/s"
	}
	seqcheck_start "$RESULTS/seqcheck-esp.txt" 6001 $count --timeout 15
	esp=$SEQCHECK_PID
	seqcheck_recv streams "$RESULTS/seqcheck-padtun.txt" \
		"padtun: in order, nothing lost" 6000 $count --timeout 15 -- esp_tcp
	# The ESP stream's order is the kernel's pcrypt's, not ours: one run
	# in several saw 1 of 3000 reordered there (docs/testbed.rst). Its
	# completeness is asserted, its order reported.
	wait $esp
	grep -q "received $count lost 0 duplicates 0 " "$RESULTS/seqcheck-esp.txt"
	ok $? "ESP+pcrypt: complete ($(grep received "$RESULTS/seqcheck-esp.txt"))"
fi
sync_with_peer streams-done

ip -s xfrm state > "$RESULTS/xfrm-state.txt"
[ "$(crypto_refcnt "$pcrypt")" -gt "${before:-0}" ]
ok $? "pcrypt still carries the SAs: refcnt $(crypto_refcnt "$pcrypt")"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
