#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, inside each guest: every mode up at once (selftests/lib/
# tunnels.sh), then REPS rounds; each round runs every test through every
# mode in turn (modes alternate: A B C ... A B C ...). Guest b drives and
# keeps the raw output (iperf3 JSON, ping lines); both guests keep
# /proc/stat around each test for their CPU use. The host turns all of it
# into the table (bench/report.py). Then the memory run and, in guest a
# alone, the padata core microbenchmark.
#
# Files in $RESULTS: MODE.TEST.REP.{json,ping} (b), cpu.ROLE (one line per
# test: "MODE TEST REP busy_before total_before busy_after total_after"),
# info (b: kernel, CPU, crypto drivers, pcrypt evidence), memory.ROLE,
# core.txt (a), counters.ROLE.{before,after} (around the rounds),
# MODE.tx1400.REP.tx (b: the one-sided transmit test's wire counters),
# MODE.rx1400.REP.rx (b: what the one-sided receive test recorded and
# played; a: what it delivered, its order and a's CPU time).
. /selftests/lib/guest.sh
. /selftests/lib/tunnels.sh

reps=${PADNET_reps:-3}
seconds=${PADNET_seconds:-4}
tests=${PADNET_tests:-tcp1,tcp4,udp1400,udp64,lat_idle,lat_load,tx1400,rx1400}
padtun_cpus=${PADNET_padtun_cpus:-}
mem_packets=${PADNET_mem_packets:-1000000}
profile_modes=$(echo "${PADNET_profile:-}" | tr , ' ')
callgraph=${PADNET_callgraph:-}

modes="plain padtun-none padtun-chacha20poly1305 padtun-gcm-aes padtun-chacha20poly1305-1cpu
padtun-none-1cpu padtun-gcm-aes-1cpu padtun-chacha20poly1305-flow padtun-chacha20poly1305-flow2
vxlan fou wireguard esp-chacha20poly1305 esp-gcm-aes esp-pcrypt-chacha20poly1305 esp-pcrypt-gcm-aes"
# Every mode is set up either way; PADNET_BENCH_MODES only picks which run.
[ -n "${PADNET_modes:-}" ] && modes=$(echo "$PADNET_modes" | tr , ' ')

cpus_arg=""
[ -n "$padtun_cpus" ] && cpus_arg="cpus $padtun_cpus"
# shellcheck disable=SC2086
padtun_mode_add padtun0 10 none $cpus_arg &&
padtun_mode_add padtun1 11 chacha20poly1305 $cpus_arg &&
padtun_mode_add padtun2 12 gcm-aes $cpus_arg &&
padtun_mode_add padtun3 13 chacha20poly1305 cpus 0 cbcpu 0 &&
padtun_mode_add padtun4 14 none cpus 0 cbcpu 0 &&
padtun_mode_add padtun5 15 gcm-aes cpus 0 cbcpu 0 &&
padtun_mode_add padtun6 16 chacha20poly1305 $cpus_arg order flow domains 2 &&
padtun_mode_add padtun7 18 chacha20poly1305 $cpus_arg order flow domains 4 &&
wg_mode_add wg0 20 &&
ip link add vxlan0 type vxlan id 42 local "$ADDR" remote "$PEER" dstport 4789 dev eth0 &&
ip addr add "$(mine 19.30)/24" dev vxlan0 && ip link set vxlan0 up &&
/sbin/modprobe fou && ip fou add port 5555 ipproto 4 &&
ip link add fou0 type ipip local "$ADDR" remote "$PEER" encap fou encap-sport auto encap-dport 5555 &&
ip addr add "$(mine 19.31)/24" dev fou0 && ip link set fou0 up &&
esp_mode_add 1 "$ESP_CHACHA" "$ESP_CHACHA_KEY" &&
esp_mode_add 2 "$ESP_GCM" "$ESP_GCM_KEY" || exit 1

# ESP through pcrypt: SAs 1 and 2 exist already and keep their plain
# tfms; pcrypt's instances win every allocation after this.
pcrypt_sa() {	# pcrypt_sa N AEAD KEY
	local drv before
	/sbin/modprobe pcrypt_instance alg="seqiv($2)" && rmmod pcrypt_instance || return 1
	drv=$(crypto_driver "seqiv($2)")
	before=$(crypto_refcnt "$drv")
	esp_mode_add "$1" "$2" "$3" || return 1
	echo "pcrypt esp-pcrypt-${4} $drv refcnt $before -> $(crypto_refcnt "$drv")"
}
{
	pcrypt_sa 3 "$ESP_CHACHA" "$ESP_CHACHA_KEY" chacha20poly1305 &&
	pcrypt_sa 4 "$ESP_GCM" "$ESP_GCM_KEY" gcm-aes
} > "$RESULTS/pcrypt" || exit 1

# counters FILE: where packets were dropped or queued, in this guest: the
# qdiscs, padtun's counters, the IP/UDP/TCP MIBs. Taken around the rounds
# (counters.ROLE.before, .after), so with PADNET_BENCH_MODES naming one
# mode they tell whose they are.
counters() {
	local dev
	{
		tc -s qdisc show
		for dev in /sys/class/net/padtun*; do
			echo "${dev##*/}:"
			ethtool -S "${dev##*/}"
		done
		# Each padata instance's counters, the express lane's among them.
		for dev in /sys/kernel/debug/padata/*/stats; do
			echo "$dev:"
			cat "$dev"
		done
		cat /proc/net/snmp /proc/net/netstat
	} > "$1" 2>&1
}

# cpu_now: busy and total CPU time, the IPIs that woke or interrupted a CPU
# (function call and rescheduling, all CPUs) and context switches so far.
cpu_now() {
	awk '($1 == "CAL:" || $1 == "RES:") { for (i = 2; $i ~ /^[0-9]+$/; i++) ipis += $i }
	     $1 == "cpu" { busy = $2 + $3 + $4 + $7 + $8; total = busy + $5 + $6 }
	     $1 == "ctxt" { ctxt = $2 }
	     END { print busy, total, ipis + 0, ctxt }' /proc/interrupts /proc/stat
}

# memory_run: slab before and after mem_packets 64-byte datagrams from b
# through padtun, and what padtun and padata allocate (kmem events summed
# by call site, in both guests).
memory_run() {
	local tracing=/sys/kernel/tracing ev
	mount -t tracefs tracefs $tracing 2>/dev/null
	for ev in kmalloc kmem_cache_alloc kmalloc_node kmem_cache_alloc_node; do
		[ -d "$tracing/events/kmem/$ev" ] &&
			echo 'hist:keys=call_site.sym:vals=hitcount,bytes_alloc' > \
				"$tracing/events/kmem/$ev/trigger"
	done
	grep -E '^(Slab|SUnreclaim)' /proc/meminfo > "$RESULTS/memory.$ROLE.before"
	ip -s link show padtun1 > "$RESULTS/memory.$ROLE.link.before"
	sync_with_peer memory-run
	if [ "$ROLE" = b ]; then
		iperf3 -c "$(mode_peer padtun-chacha20poly1305)" -u -b 0 -l 64 \
			-k "$mem_packets" -J > "$RESULTS/memory.json"
		sleep 2
	fi
	sync_with_peer memory-run-done
	grep -E '^(Slab|SUnreclaim)' /proc/meminfo > "$RESULTS/memory.$ROLE.after"
	ip -s link show padtun1 > "$RESULTS/memory.$ROLE.link.after"
	for ev in kmalloc kmem_cache_alloc kmalloc_node kmem_cache_alloc_node; do
		[ -f "$tracing/events/kmem/$ev/hist" ] || continue
		cat "$tracing/events/kmem/$ev/hist"
		# The profiles come next: no trigger cost in them.
		echo '!hist:keys=call_site.sym:vals=hitcount,bytes_alloc' > \
			"$tracing/events/kmem/$ev/trigger"
	done > "$RESULTS/memory.$ROLE.hist"
}

# profile MODE[@TEST]: perf in both guests while b runs TEST (tcp1, or
# the one-sided tx1400; for rx1400, while b plays its recording) through
# MODE. Under
# TCG perf samples cpu-clock, idle included: the file gives the idle share,
# then each symbol's share of the busy samples, in
# $RESULTS/profile.MODE[@TEST].ROLE. With call graphs, .callers says which paths
# reach each hot symbol and .inclusive what each function costs with all
# it calls (both in shares of all samples, idle included).
profile() {
	local mode=${1%@*} test=tcp1 data=/tmp/perf.$1 recorder out=$RESULTS/profile.$1.$ROLE g=""
	case $1 in *@*) test=${1#*@} ;; esac
	[ -n "$callgraph" ] && g=-g
	one_sided_begin "$test" "$mode"
	sync_with_peer "profile-$1"
	case $test in
	rx*)
		rx_perf="$g -o $data"
		if [ "$ROLE" = b ]; then
			rx_play "$(mode_peer "$mode")" 1400 > "$RESULTS/profile.$1.rx"
		else
			rx_receive > "$RESULTS/profile.$1.rx"
		fi
		rx_perf=""
		;;
	*)
		perf record -a $g -o "$data" -- sleep "$seconds" > /dev/null 2>&1 &
		recorder=$!
		if [ "$ROLE" = b ]; then
			case $test in
			tx1400) tx_test "$(mode_peer "$mode")" 1400 > "$RESULTS/profile.$1.tx" ;;
			*) iperf3 -c "$(mode_peer "$mode")" -t "$seconds" -J > "$RESULTS/profile.$1.json" ;;
			esac
		fi
		wait $recorder
		;;
	esac
	perf report -i "$data" --stdio --no-children --sort dso,sym --percent-limit 0 -g none \
		2>/dev/null | awk -f /bench/busy-share.awk > "$out"
	if [ -n "$callgraph" ]; then
		perf report -i "$data" --stdio --no-children --sort sym --percent-limit 0.4 \
			-g graph,0.1,callee > "$out.callers" 2>/dev/null
		perf report -i "$data" --stdio --children --sort sym --percent-limit 0.5 \
			-g none > "$out.inclusive" 2>/dev/null
	fi
	rm -f "$data"
	sync_with_peer "profile-$1-done"
	one_sided_end "$test"
}

# one_sided_begin TEST MODE: a one-sided test (tx*, rx*) measures one
# guest alone. For it the peer of the sender discards every UDP datagram
# and ESP packet at its underlay's ingress, before any protocol or tunnel
# sees them, so its crypto never sets the pace: for tx* the whole test,
# for rx* while b records (rx_receive lifts it for the playback). b first
# pings through MODE, so that a handshake (WireGuard's, which retries a
# lost one after 5 s: hence eight tries) gets through before the barrier
# and the filter after it; TCP (the barriers) passes. One echo a second
# until one comes back: a lifts the last test's filter only once it is
# past that test's last barrier, so the first echo may still be dropped,
# and a single echo with a deadline waited all of it out (8 s idle before
# each one-sided test that came right after a transmit test).
one_sided_begin() {
	case $1 in tx*|rx*) ;; *) return 0 ;; esac
	if [ "$ROLE" = b ]; then
		for _ in 1 2 3 4 5 6 7 8; do
			ping -c 1 -W 1 "$(mode_peer "$2")" > /dev/null && break
		done
	fi
	sync_with_peer "pinged-$2"
	[ "$ROLE" = a ] && discard_at_underlay on
	return 0
}

one_sided_end() {
	case $1 in tx*) [ "$ROLE" = a ] && discard_at_underlay off ;; esac
	return 0
}

# discard_at_underlay on|off (guest a): tc's ingress hook on eth0 drops
# every UDP datagram and ESP packet, or no longer.
discard_at_underlay() {
	if [ "$1" = off ]; then
		tc qdisc del dev eth0 ingress
		return
	fi
	tc qdisc add dev eth0 ingress &&
	tc filter add dev eth0 ingress protocol ip u32 match ip protocol 17 0xff action drop &&
	tc filter add dev eth0 ingress protocol ip u32 match ip protocol 50 0xff action drop
}

# The one-sided receive test (rx*), after one_sided_begin: b records what
# its tunnel sends for the test's time (seqcheck's numbered datagrams, a
# discarding them, so a's window has seen none of them), then plays the
# recording back at full speed to a, which now decrypts and delivers it to
# a sequence checker: the rate no longer depends on b's crypto. No fresh
# link is needed for the playback: the recorded sequence numbers are all
# ahead of what a accepted. Two barriers in each guest: recorded, and
# listening.
RX_PORT=9009
RX_COUNT=4000000
# The one-sided loads (tx_test, rx_play) are this many flows, each from a
# source port of its own, so that order flow spreads them over its
# domains; one flow would hash to one domain. Every mode gets the same.
ONE_SIDED_FLOWS=8
rx_perf=""	# perf record's options: profile the playback (profile())

# rx_perf_start / rx_perf_wait: perf in this guest during the playback,
# when profile() asks for it. Started before the barrier that starts the
# playback, with a second to set up: under TCG perf took seconds to start
# recording, and one profile begun after the barrier missed the playback.
rx_perf_start() {
	[ -n "$rx_perf" ] || return 0
	# shellcheck disable=SC2086
	perf record -a $rx_perf -- sleep $((seconds + 2)) > /dev/null 2>&1 &
	rx_perf_pid=$!
	sleep 1
}

rx_perf_wait() {
	[ -n "$rx_perf" ] && wait "$rx_perf_pid"
	return 0
}

# rx_play ADDR SIZE (b): "recorded N dropped N fixed N", "played N seconds S".
rx_play() {
	local rec=/tmp/rx.recording recorder sender
	replayinject record eth0 $rec "$seconds" &
	recorder=$!
	seqcheck send "$1" $RX_PORT $RX_COUNT "$2" --flows $ONE_SIDED_FLOWS --flow-ports \
		> /dev/null &
	sender=$!
	wait $recorder
	kill $sender
	wait $sender
	# What the tunnel still held reaches a while it discards: once
	# accepted, its later numbers would make the playback's too old.
	until_sent_all eth0
	sync_with_peer rx-recorded
	rx_perf_start
	sync_with_peer rx-listening
	replayinject play eth0 $rec
	rm -f $rec
	rx_perf_wait
}

# until_sent_all DEV: until DEV's transmit count stands still for 0.2 s
# (at most 10 s).
until_sent_all() {
	local s=/sys/class/net/$1/statistics/tx_packets last now
	now=$(cat "$s")
	for _ in $(seq 50); do
		last=$now
		sleep 0.2
		now=$(cat "$s")
		[ "$now" = "$last" ] && return 0
	done
}

# rx_receive (a): seqcheck's report of what the playback delivered,
# "verdict" its exit code (0: nothing reordered, duplicated or corrupt)
# and each CPU's busy and total jiffies from before the playback to the
# checker's end (cpu_delta).
rx_receive() {
	local checker c0 rc
	sync_with_peer rx-recorded
	discard_at_underlay off
	seqcheck recv $RX_PORT $RX_COUNT --flows $ONE_SIDED_FLOWS --timeout 3 \
		--max-loss $RX_COUNT > /tmp/rx.check 2> /tmp/rx.listening &
	checker=$!
	for _ in $(seq 50); do
		grep -q listening /tmp/rx.listening && break
		sleep 0.1
	done
	rx_perf_start
	c0=$(cpu_each)
	sync_with_peer rx-listening
	wait $checker
	rc=$?
	cpu_delta "$c0"
	cat /tmp/rx.check
	echo "verdict $rc"
	rx_perf_wait
}

# cpu_each: "cpuN busy total" per CPU (jiffies, counted as cpu_now does):
# which CPU did the transform and which the load.
cpu_each() {
	awk '$1 ~ /^cpu[0-9]/ { busy = $2 + $3 + $4 + $7 + $8; print $1, busy, busy + $5 + $6 }' /proc/stat
}

# cpu_delta BEFORE: "cpuN busy total" since BEFORE (cpu_each's output).
cpu_delta() {
	{ echo "$1"; cpu_each; } | awk '{ if ($1 in busy) print $1, $2 - busy[$1], $3 - total[$1]; else { busy[$1] = $2; total[$1] = $3 } }'
}

if [ "$ROLE" = a ]; then
	iperf3_serve
	counters "$RESULTS/counters.a.before"
	sync_with_peer bench-start
	for rep in $(seq "$reps"); do
		for mode in $modes; do
			for test in $(echo "$tests" | tr , ' '); do
				one_sided_begin "$test" "$mode"
				sync_with_peer "$mode-$test-$rep"
				before=$(cpu_now)
				case $test in
				rx*) rx_receive > "$RESULTS/$mode.$test.$rep.rx" ;;
				esac
				sync_with_peer "$mode-$test-$rep-done"
				echo "$mode $test $rep $before $(cpu_now)" >> "$RESULTS/cpu.a"
				one_sided_end "$test"
			done
		done
	done
	counters "$RESULTS/counters.a.after"
	memory_run
	if [ -n "$profile_modes" ]; then
		for mode in $profile_modes; do profile "$mode"; done
	fi
	iperf3_stop
	# The padata core alone, with the link idle.
	/sbin/modprobe padata_bench && rmmod padata_bench
	dmesg | grep 'padata_bench:' > "$RESULTS/core.txt"
	exit 0
fi

{
	echo "kernel $(uname -r)"
	echo "cpu $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "vcpus $(nproc)"
	echo "crypto padtun-chacha20poly1305 $(lib_chacha20poly1305)"
	echo "crypto padtun-gcm-aes $(crypto_driver 'gcm(aes)')"
	echo "crypto esp-chacha20poly1305 $(ip -s xfrm state list src "$(mine 18.1)" | sed -n 's/.*aead \([^ ]*\) .*/\1/p' | head -n 1) (plain)"
	echo "crypto esp-gcm-aes $(ip -s xfrm state list src "$(mine 18.2)" | sed -n 's/.*aead \([^ ]*\) .*/\1/p' | head -n 1) (plain)"
	sed 's/^pcrypt \([^ ]*\) \([^ ]*\) .*/crypto \1 \2/' "$RESULTS/pcrypt"
	echo "padtun_cpus ${padtun_cpus:-all}"
	# Ordering domains as the links report them (bench/report.py's goals
	# and scaling model compare the rows by this count).
	for m in padtun-chacha20poly1305:padtun1 padtun-chacha20poly1305-flow2:padtun6 \
		 padtun-chacha20poly1305-flow:padtun7; do
		echo "domains ${m%%:*} $(ip -d link show "${m#*:}" | sed -n 's/.* domains \([0-9]*\) .*/\1/p')"
	done
} > "$RESULTS/info"

# run_test MODE TEST REP: one test through one mode; raw output kept.
run_test() {
	local t f
	t=$(mode_peer "$1") f=$RESULTS/$1.$2.$3
	case $2 in
	tcp1) iperf3 -c "$t" -t "$seconds" -J > "$f.json" ;;
	tcp4) iperf3 -c "$t" -t "$seconds" -P 4 -J > "$f.json" ;;
	udp1400) iperf3 -c "$t" -u -b 0 -l 1400 -t "$seconds" -J > "$f.json" ;;
	udp64) iperf3 -c "$t" -u -b 0 -l 64 -t "$seconds" -J > "$f.json" ;;
	lat_idle) ping -c $((seconds * 50)) -i 0.02 "$t" > "$f.ping" ;;
	lat_load)
		iperf3 -c "$t" -t $((seconds + 2)) -J > "$f.json" &
		sleep 1
		ping -c $((seconds * 50)) -i 0.02 "$t" > "$f.ping"
		wait
		;;
	tx1400) tx_test "$t" 1400 > "$f.tx" ;;
	rx1400) rx_play "$t" 1400 > "$f.rx" ;;
	esac
}

# tx_test ADDR SIZE: the one-sided transmit test, the peer discarding
# (one_sided_begin): udpload's datagrams, ONE_SIDED_FLOWS flows, into the
# mode for the test's time; udpload's own line, what left through eth0
# ("wire_packets N wire_bytes N") and each CPU's busy and total jiffies
# meanwhile ("cpuN BUSY TOTAL", for the scaling model in bench/report.py).
tx_test() {
	local s=/sys/class/net/eth0/statistics p0 b0 c0
	p0=$(cat $s/tx_packets) b0=$(cat $s/tx_bytes) c0=$(cpu_each)
	udpload "$1" 9 "$2" "$seconds" --flows $ONE_SIDED_FLOWS
	echo "wire_packets $(($(cat $s/tx_packets) - p0)) wire_bytes $(($(cat $s/tx_bytes) - b0))"
	cpu_delta "$c0"
}

total=$((reps * $(echo $modes | wc -w) * $(echo "$tests" | tr , ' ' | wc -w)))
done_tests=0
counters "$RESULTS/counters.b.before"
sync_with_peer bench-start
for rep in $(seq "$reps"); do
	for mode in $modes; do
		for test in $(echo "$tests" | tr , ' '); do
			one_sided_begin "$test" "$mode"
			sync_with_peer "$mode-$test-$rep"
			before=$(cpu_now)
			run_test "$mode" "$test" "$rep"
			after=$(cpu_now)
			sync_with_peer "$mode-$test-$rep-done"
			echo "$mode $test $rep $before $after" >> "$RESULTS/cpu.b"
			done_tests=$((done_tests + 1))
		done
		echo "bench: round $rep/$reps, $mode done ($done_tests/$total tests)"
	done
done
counters "$RESULTS/counters.b.after"

memory_run
echo "bench: memory run done"
if [ -n "$profile_modes" ]; then
	for mode in $profile_modes; do profile "$mode"; done
	echo "bench: profiles taken"
fi
