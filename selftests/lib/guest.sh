# SPDX-License-Identifier: GPL-2.0
# Helpers for scenario scripts, sourced inside a guest: . /selftests/lib/guest.sh
#
# Set by guest-init: ROLE (a|b), PEER (the other guest's eth0 address),
# ADDR (ours), KERNEL (check|sanitizer|fast), RESULTS (copied to the host).

# Debian's busybox shell runs its own applets before $PATH: make "ip" mean
# Debian's full iproute2 (with the padtun plugin), not busybox's applet.
ip() { /bin/ip "$@"; }
# The same for tc (busybox may have its own applet): Debian's, with netem.
tc() { /usr/sbin/tc "$@"; }

tap_count=0
tap_failed=0

# ok CONDITION_STATUS DESCRIPTION: one TAP line; remembers failures.
ok() {
	tap_count=$((tap_count + 1))
	if [ "$1" = 0 ]; then
		echo "ok $tap_count - $2"
	else
		echo "not ok $tap_count - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

# tap_exit: the scenario's exit status under kselftest conventions.
tap_exit() {
	[ "$tap_failed" = 0 ] && exit 0
	exit 1
}

# sync_with_peer: a barrier between the two guests. Guest a listens, guest
# b retries until a is there; both return only once they have met. Every
# barrier uses the same port, so both guests must call it equally often.
sync_with_peer() {
	if [ "$ROLE" = a ]; then
		nc -l -p 7999 > /dev/null
	else
		until echo sync | nc "$PEER" 7999 2>/dev/null; do
			sleep 0.2
		done
	fi
}

# tell_peer LINE (one end) / hear_peer (the other): one line of text from
# one guest to the other, after the pattern of sync_with_peer but on its
# own port, so that barriers are not miscounted.
tell_peer() {
	until echo "$1" | nc "$PEER" 7998 2>/dev/null; do
		sleep 0.2
	done
}

hear_peer() {
	nc -l -p 7998
}

# wait_for_listen PORT [NETNS]: until a local TCP listener (in network
# namespace NETNS if given) is bound to PORT, so a server is up before the
# peer is told to connect (a probing connect would use up an "iperf3 -s -1"
# server's one test).
wait_for_listen() {
	for _ in $(seq 300); do
		if [ -n "${2:-}" ]; then
			ip netns exec "$2" netstat -ltn 2>/dev/null
		else
			netstat -ltn 2>/dev/null
		fi | grep -q ":$1 " && return 0
		sleep 0.1
	done
	return 1
}

# iperf3_serve: an iperf3 server on port 5201 for any number of tests,
# listening when this returns; iperf3_stop ends it.
iperf3_serve() {
	iperf3 -s > /dev/null 2>&1 &
	IPERF3_SERVER=$!
	wait_for_listen 5201
}

iperf3_stop() {
	kill "$IPERF3_SERVER" 2>/dev/null
}

# serve_iperf3_once: one iperf3 test as the server; returns its exit status
# when the test is over. The client end calls sync_with_peer, then connects.
serve_iperf3_once() {
	iperf3 -s -1 > /dev/null 2>&1 &
	wait_for_listen 5201
	sync_with_peer
	wait $!
}

# mbit_per_second FILE: the summary throughput of an iperf3 -J report.
mbit_per_second() {
	sed -n 's/.*"bits_per_second":[[:space:]]*\([0-9.e+]*\).*/\1/p' "$1" |
		tail -n 1 | awk '{ printf "%.1f", $1 / 1e6 }'
}

# out_of_order FILE: the receiver's out-of-order count from an iperf3 -J
# --get-server-output report, whichever end received (the server's report
# is text inside the JSON).
out_of_order() {
	{
		sed -n 's/.*"out_of_order":[[:space:]]*\([0-9]*\).*/\1/p' "$1"
		grep -o '[0-9]* datagrams received out-of-order' "$1" | cut -d' ' -f1
	} | sort -n | tail -n 1
}

# running PID: is our child PID still running? (A zombie has finished: the
# shell reaps it only in wait.)
running() {
	case $(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) in
	''|Z) return 1 ;;
	esac
}

# bounded SECONDS CMD [ARGS...]: CMD's exit status, or 124 when it is still
# running after SECONDS. It is then left running, its PID in BOUNDED_PID:
# a task stuck in the kernel (rmmod waiting on a lock, say) takes no
# signal, so timeout(1), which waits for the child it killed, would hang
# with it. The caller reports and gets out (the host still gets dmesg).
bounded() {
	_end=$(($(cut -d. -f1 /proc/uptime) + $1))
	shift
	"$@" &
	BOUNDED_PID=$!
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$_end" ]; do
		running $BOUNDED_PID || { wait $BOUNDED_PID; return; }
		sleep 0.1
	done
	running $BOUNDED_PID || { wait $BOUNDED_PID; return; }
	return 124
}

# stuck_report PID WHAT: say what a task bounded() gave up on is doing, in
# the TAP output and (sysrq w: every blocked task) in dmesg.
stuck_report() {
	echo "# $2 (pid $1) still running; its kernel stack:"
	sed 's/^/#   /' /proc/$1/stack 2>/dev/null
	echo w > /proc/sysrq-trigger 2>/dev/null
}
