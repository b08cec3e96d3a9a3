# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the padtun scenarios, sourced inside a guest after
# guest.sh (which already makes "ip" Debian's iproute2 with the plugin):
#
#   . /selftests/lib/guest.sh
#   . /selftests/lib/padtun.sh
#
# Sets KEY (lib/addresses.sh's test key, a chacha20poly1305 key; a
# scenario may set its own after sourcing), KNOBS (the debugfs test
# knobs), and ME and OTHER: this guest's and the peer's address inside
# the tunnel (addresses.sh's plan, tunnel 0).
. /selftests/lib/addresses.sh

KNOBS=/sys/kernel/debug/padtun
ME=$(mine 19.0) OTHER=$(theirs 19.0)

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

# capture_during FILE OUT CMD...: b's underlay keeps the first OUT padtun
# datagrams b sends and the first one it receives (replayinject capture,
# into FILE) while CMD runs; one TAP line for the capture. A ping first:
# the handshake's messages are over before the capture starts.
capture_during() {
	_file=$1 _out=$2
	shift 2
	ping -c 1 -W 5 "$OTHER" > /dev/null
	replayinject capture eth0 5555 "$_file" --timeout 30 --out "$_out" \
		> "$RESULTS/capture.txt" 2>&1 &
	_cap=$!
	sleep 1
	"$@"
	wait $_cap
	ok $? "captured $_out of b's datagrams and one to b ($(tail -n 1 "$RESULTS/capture.txt"))"
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
		serve_iperf3_once tcp-to-a
		sync_with_peer seqcheck-to-b
		seqcheck send "$OTHER" 6000 "$1" 1000 --rate "$2" > /dev/null
		ok $? "seqcheck sent $1 datagrams"
	else
		sync_with_peer tcp-to-a
		iperf3 -c "$OTHER" -t 4 > /dev/null
		ok $? "iperf3 TCP $ME -> $OTHER"
		seqcheck_recv seqcheck-to-b "$RESULTS/seqcheck.txt" \
			"seqcheck: in order, nothing lost" 6000 "$1" --timeout 10
	fi
}

# both_ways_traffic: b runs iperf3 TCP and UDP to a and back (UDP: 0
# datagrams out of order), then a sequence-checked stream goes each way,
# both at once: complete and in order. One TAP line per check, on the end
# that checks it.
both_ways_traffic() {
	if [ "$ROLE" = a ]; then
		iperf3_serve_peer
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
	seqcheck_recv streams "$RESULTS/seqcheck.txt" \
		"seqcheck from $OTHER: in order, nothing lost" 6000 5000 --timeout 15 \
		-- both_ways_send_stream
	sync_with_peer streams-done
}

both_ways_send_stream() {
	seqcheck send $OTHER 6000 5000 1000 --rate 1000 > /dev/null
	ok $? "seqcheck sent 5000 datagrams to $OTHER"
}

# padata_instances: how many instances padata.ko has (a debugfs directory
# each, /sys/kernel/debug/padata/ID; a link holds two, tx and rx). Empty
# when padata is not loaded.
padata_instances() {
	[ -d /sys/kernel/debug/padata ] || return 0
	ls /sys/kernel/debug/padata | wc -l
}

# padata_max_id: the highest instance ID padata.ko has handed out among the
# live ones (IDs come from an IDA: freed with the instance, reused), -1 if
# none.
padata_max_id() {
	{ echo -1; ls /sys/kernel/debug/padata 2>/dev/null; } | sort -n | tail -n 1
}

# padata_serial_snapshot ID FILE: instance ID's serial() calls per CPU
# ("CPU COUNT" lines) into FILE.
padata_serial_snapshot() {
	sed -n 's/^serial_cpu\([0-9]*\) \([0-9]*\)$/\1 \2/p' \
		"/sys/kernel/debug/padata/$1/stats" > "$2" 2>/dev/null
}

# padata_serial_cpus_since ID FILE: the CPUs on which instance ID ran
# serial() since padata_serial_snapshot ID FILE, space-separated ("?" for
# none).
padata_serial_cpus_since() {
	padata_serial_snapshot "$1" "$2.now"
	_cpus=$(awk 'NR == FNR { before[$1] = $2; next }
		$2 > before[$1] { printf "%s ", $1 }' "$2" "$2.now")
	echo "${_cpus% }" | sed 's/^$/?/'
}

# link_serial_snapshot: padata_serial_snapshot of the guest's one link's
# two instances (tx's created first, so the highest ID is rx's).
link_serial_snapshot() {
	padata_serial_snapshot $(($(padata_max_id) - 1)) "$RESULTS/tx-serial"
	padata_serial_snapshot "$(padata_max_id)" "$RESULTS/rx-serial"
}

# link_serial_since: sets tx_serial and rx_serial to the CPUs on which the
# link's tx and rx ran serial() since link_serial_snapshot.
link_serial_since() {
	tx_serial=$(padata_serial_cpus_since $(($(padata_max_id) - 1)) \
		"$RESULTS/tx-serial")
	rx_serial=$(padata_serial_cpus_since "$(padata_max_id)" \
		"$RESULTS/rx-serial")
}

# wait_padata_instances N SECONDS: until padata.ko has N instances (a
# namespace's links go away with it, after "ip netns del" returned).
wait_padata_instances() {
	_end=$(($(cut -d. -f1 /proc/uptime) + $2))
	while [ "$(padata_instances)" != "$1" ]; do
		[ "$(cut -d. -f1 /proc/uptime)" -lt "$_end" ] || return 1
		sleep 0.1
	done
}

# ns_stat NS NAME: one ethtool -S counter of padtun0 in namespace NS.
ns_stat() {
	ip netns exec "$1" ethtool -S padtun0 | sed -n "s/^ *$2: //p"
}

# wg_netns_pair NS1 NS2 PORT: two network namespaces joined by WireGuard,
# for scenarios that put padtun links in namespaces of their own on one
# guest (the guest kernels have no veth). wg1 in NS1 is 198.18.1.1/24, wg2
# in NS2 198.18.1.2/24. Both are created in the init namespace and then
# moved, so their UDP sockets (ports PORT and PORT + 1 on 127.0.0.1) stay
# there, and deleting a namespace deletes its wg device with it. A port
# stays bound until its device is gone: a new pair takes new ports.
wg_netns_pair() {
	if [ ! -f /tmp/wg1.key ]; then
		(umask 077 && wg genkey > /tmp/wg1.key && wg genkey > /tmp/wg2.key) || return 1
	fi
	mkdir -p /run/netns
	ip netns add "$1" && ip netns add "$2" &&
	ip link add wg1 type wireguard && ip link add wg2 type wireguard &&
	wg set wg1 listen-port "$3" private-key /tmp/wg1.key \
		peer "$(wg pubkey < /tmp/wg2.key)" endpoint "127.0.0.1:$(($3 + 1))" \
		allowed-ips 198.18.1.2/32 &&
	wg set wg2 listen-port "$(($3 + 1))" private-key /tmp/wg2.key \
		peer "$(wg pubkey < /tmp/wg1.key)" endpoint "127.0.0.1:$3" \
		allowed-ips 198.18.1.1/32 &&
	ip link set wg1 netns "$1" && ip link set wg2 netns "$2" &&
	ip -n "$1" link set lo up && ip -n "$2" link set lo up &&
	ip -n "$1" addr add 198.18.1.1/24 dev wg1 &&
	ip -n "$2" addr add 198.18.1.2/24 dev wg2 &&
	ip -n "$1" link set wg1 up && ip -n "$2" link set wg2 up
}

# ns_padtun_pair NS1 NS2 [ARGS...]: padtun0 in each namespace of a
# wg_netns_pair, over the WireGuard addresses, key $KEY, UDP port 5555,
# ARGS added; 198.19.1.1/24 in NS1 and 198.19.1.2/24 in NS2, both up.
ns_padtun_pair() {
	_n1=$1 _n2=$2
	shift 2
	ip -n "$_n1" link add padtun0 type padtun local 198.18.1.1 \
		remote 198.18.1.2 port 5555 key "$KEY" "$@" &&
	ip -n "$_n2" link add padtun0 type padtun local 198.18.1.2 \
		remote 198.18.1.1 port 5555 key "$KEY" "$@" &&
	ip -n "$_n1" addr add 198.19.1.1/24 dev padtun0 &&
	ip -n "$_n2" addr add 198.19.1.2/24 dev padtun0 &&
	ip -n "$_n1" link set padtun0 up && ip -n "$_n2" link set padtun0 up
}

# hotplug_loop SECONDS: CPUs 1 and 2 off and on again until time is up;
# how many rounds into $RESULTS/hotplug-count.txt.
hotplug_loop() {
	end=$(($(cut -d. -f1 /proc/uptime) + $1))
	n=0
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
		for c in 1 2; do
			echo 0 > /sys/devices/system/cpu/cpu$c/online || return 1
			sleep 0.3
			echo 1 > /sys/devices/system/cpu/cpu$c/online || return 1
			sleep 0.3
			n=$((n + 1))
		done
	done
	echo "$n" > "$RESULTS/hotplug-count.txt"
}

# seqcheck_figures FILE: of a seqcheck recv report, status ("RECEIVED LOST
# REORDERED"), interflow (the interflow reorders of several flows) and
# flows_reordered (the flows with a reorder of their own).
seqcheck_figures() {
	status=$(sed -n 's/^received \([0-9]*\) lost \([0-9]*\) .*reordered \([0-9]*\)$/\1 \2 \3/p' "$1")
	interflow=$(sed -n 's/^interflow reorders \([0-9]*\)$/\1/p' "$1")
	flows_reordered=$(grep -c '^flow [0-9]* .* reorders [1-9]' "$1")
}

# hotplug_settled: after hotplug_loop, with every CPU back: padtun0
# dropped nothing, and its serial CPUs moved away and back (the moves come
# in pairs). Two TAP lines.
hotplug_settled() {
	ethtool -S padtun0 > "$RESULTS/ethtool.txt"
	[ "$(stat tx_dropped)" = 0 ] && [ "$(stat rx_dropped)" = 0 ]
	ok $? "padtun dropped nothing (tx_busy $(stat tx_busy), rx_busy $(stat rx_busy), tx_dropped $(stat tx_dropped), rx_dropped $(stat rx_dropped))"
	sleep 1
	moves=$(stat cb_cpu_moves)
	[ "${moves:-0}" -gt 0 ] && [ $((moves % 2)) = 0 ]
	ok $? "serial CPUs moved away and back ($moves moves)"
}
