# SPDX-License-Identifier: GPL-2.0
# Helpers for scenario scripts, sourced inside a guest: . /selftests/lib/guest.sh
#
# Set by guest-init: ROLE (a|b), PEER (the other guest's eth0 address),
# ADDR (ours), KERNEL (check|sanitizer|up|distro: qemu-net/build-kernel.sh),
# RESULTS (copied to the host).

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

# sync_with_peer NAME: the barrier NAME between the two guests. Guest a
# listens, guest b sends NAME until a is there; both return once they
# have met. Named, so that a barrier one guest skips or calls once more
# does not silently pair with the other's next one: a checks that b came
# to the same NAME, and if not says so in a TAP "not ok" line (on stderr:
# a caller may have stdout in a file) and returns 1, which fails the
# scenario. Only a can tell: busybox nc exits at the peer's end of
# stream, so b's could leave before it sent its name if a answered.
sync_with_peer() {
	if [ -z "${1:-}" ]; then
		ok 1 "sync_with_peer: a barrier needs a name" >&2
		return 1
	fi
	if [ "$ROLE" = a ]; then
		_heard=$(nc -l -p 7999)
		[ "$_heard" = "$1" ] && return 0
		ok 1 "barrier '$1': the peer came to barrier '$_heard'" >&2
		return 1
	fi
	until echo "$1" | nc "$PEER" 7999 > /dev/null 2>&1; do
		sleep 0.2
	done
}

# tell_peer LINE (one end) / hear_peer (the other): one line of text from
# one guest to the other, after the pattern of sync_with_peer but on its
# own port, so that a line is never taken for a barrier's name.
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

# iperf3_serve_peer: the server end of the peer's iperf3 tests, from the
# barrier iperf3-serving (the peer then connects) to iperf3-done.
iperf3_serve_peer() {
	iperf3_serve
	sync_with_peer iperf3-serving
	sync_with_peer iperf3-done
	iperf3_stop
}

# serve_iperf3_once BARRIER: one iperf3 test as the server, the peer met
# at BARRIER once it listens; returns its exit status when the test is
# over. The client end calls sync_with_peer BARRIER, then connects.
serve_iperf3_once() {
	iperf3 -s -1 > /dev/null 2>&1 &
	_server=$!
	wait_for_listen 5201
	sync_with_peer "$1"
	wait $_server
}

# seqcheck_start FILE PORT COUNT [OPTION...]: seqcheck recv in the
# background, its report (and its stderr) in FILE, its PID in
# SEQCHECK_PID; returns once it listens (its "listening" line), so that
# the peer may be told to send: a datagram sent before would be lost.
# False if it did not start listening within 5 s.
seqcheck_start() {
	_file=$1
	shift
	seqcheck recv "$@" > "$_file" 2>&1 &
	SEQCHECK_PID=$!
	for _ in $(seq 50); do
		grep -q listening "$_file" && return 0
		running $SEQCHECK_PID || break
		sleep 0.1
	done
	echo "# seqcheck recv $*: not listening: $(cat "$_file")"
	return 1
}

# rfc4737 FILE KEY: one of seqcheck recv's RFC 4737 figures for all flows
# together (its line "rfc4737 total packets ... KEY VALUE ...") in FILE.
rfc4737() {
	sed -n "s/^rfc4737 total packets .* $2 \([^ ]*\).*/\1/p" "$1"
}

# reordering_reported FILE NAME: a negative control's verdict on the
# seqcheck report FILE, two TAP lines: seqcheck saw reordering ($reordered
# datagrams), and RFC 4737's count agrees.
reordering_reported() {
	reordered=$(sed -n 's/.*reordered \([0-9]*\).*/\1/p' "$1")
	[ "${reordered:-0}" -gt 0 ]
	ok $? "$2: seqcheck reports reordering (${reordered:-?})"
	_reorders=$(rfc4737 "$1" reorders)
	[ "$_reorders" = "$reordered" ]
	ok $? "$2: RFC 4737 agrees (${_reorders:-?} reordered packets, extent max $(rfc4737 "$1" extent_max))"
}

# seqcheck_recv BARRIER FILE DESC PORT COUNT [OPTION...] [-- CMD [ARG...]]:
# receive a seqcheck stream while the peer sends it: the receiver
# (seqcheck_start FILE PORT COUNT OPTION...) listens, the peer is met at
# BARRIER (and sends then), CMD runs meanwhile if given (what this guest
# does during the stream, its own TAP lines included), and when the
# receiver is done, one TAP line "DESC (received ...)" on its exit status,
# unless DESC is empty (the caller judges FILE itself). Returns seqcheck's
# exit status.
seqcheck_recv() {
	local barrier=$1 file=$2 desc=$3 args="" pid rc
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		args="$args $1"
		shift
	done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2086 # PORT COUNT OPTION...: one word each
	seqcheck_start "$file" $args
	pid=$SEQCHECK_PID
	sync_with_peer "$barrier"
	[ $# -gt 0 ] && "$@"
	wait "$pid"
	rc=$?
	[ -n "$desc" ] && ok "$rc" "$desc ($(grep received "$file"))"
	return "$rc"
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
