#!/bin/sh
# A hostile sender (issue 13, item 3): from b's underlay, without the key,
# datagrams to a's padtun port (replayinject hostile): random bytes,
# truncated datagrams, wrong version, type, checksum hint and sequence
# number, flipped tag and ciphertext bits, valid datagrams replayed, a
# whole earlier session of b's replayed, another source address, a's own
# datagrams reflected, made-up sessions, and what the stack refuses before
# padtun (bad UDP and IP checksums and lengths). Each phase: no crash, no
# splat, and a's counters (ethtool -S padtun0, /proc/net/snmp, netstat)
# add up to what b sent, class by class, while b's legitimate seqcheck
# stream runs through the tunnel.
#   paced: the hostile stream at a rate a drains; the legitimate stream
#          arrives complete and in order.
#   flood: the hostile stream unpaced; the legitimate stream may lose,
#          every loss counted, nothing reordered.
#   jumbo: 64 KB datagrams of the peer's current session in IP fragments:
#          each reassembled and authenticated in full; a's memory held by
#          them stays bounded.
#   jumbo-bound: the same with a's bound on unauthenticated bytes lowered
#          to 256 KiB (knob unauth_max) and a's parallel() slowed
#          (delay_us_max 5000), which b's sender under TCG can outrun:
#          beyond the bound, refused before any crypto (rx_unauth_full);
#          the legitimate stream may lose, every loss counted.
# 100,000 hostile datagrams per phase (jumbo: 2,000, jumbo-bound: 500);
# ten times as many with padnet.full=1.
# kernels: check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 900
# timeout-full: 3600
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

H=100000 J=2000 JB=500
[ "${PADNET_full:-0}" = 1 ] && H=1000000 J=20000 JB=5000
HRATE=${PADNET_hrate:-2000}	# paced phase: hostile datagrams per second
LRATE=500			# the legitimate stream, both phases
CUR=/tmp/capture-cur OLD=/tmp/capture-old

link_up() {
	padtun_add && echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6 &&
		padtun_up
}

# snap FILE: "name value" lines: padtun0's ethtool counters, then the
# /proc/net/snmp and /proc/net/netstat ones as Proto_Name.
snap() {
	{
		ethtool -S padtun0 | sed -n 's/^ *\([a-z_0-9]*\): \([0-9]*\)$/\1 \2/p'
		cat /proc/net/snmp /proc/net/netstat | awk '
			$1 == prev { p = substr($1, 1, length($1) - 1)
				     for (i = 2; i <= NF; i++) print p "_" h[i], $i
				     prev = ""; next }
			{ prev = $1; for (i = 2; i <= NF; i++) h[i] = $i }'
	} > "$1"
}
# d NAME: its change between $RESULTS/$phase-before and -after
d() {
	awk -v n="$1" '$1 == n { v[FILENAME] = $2 }
		END { print v[ARGV[2]] - v[ARGV[1]] }' \
		"$RESULTS/$phase-before.txt" "$RESULTS/$phase-after.txt"
}
# hs NAME: what b said it sent of that class (0 if none)
hs() {
	echo "$told" | tr ' ' '\n' | sed -n "s/^$1=//p" | grep . || echo 0
}
# tx_lost: padtun0's underlay drops and errors (the UDP tunnel core's)
tx_lost() {
	ip -s link show padtun0 | awk '/TX:/ { getline; print $3 + $4 }'
}

# phase NAME [HOSTILE ARGS...]: b sends the hostile stream and, all along,
# the legitimate one; a checks and accounts.
phase() {
	phase=$1
	shift
	if [ "$ROLE" = a ]; then
		if [ "$phase" = jumbo-bound ]; then
			echo 262144 > $KNOBS/unauth_max &&
				echo 5000 > $KNOBS/delay_us_max
			ok $? "$phase: knobs on: unauth_max 262144, delay_us_max 5000"
		fi
		# The legitimate stream's receiver: stopped, not waited for,
		# once b is done (its count is b's to tell).
		seqcheck_start "$RESULTS/$phase-seqcheck.txt" 6000 10000000 \
			--timeout 600 --max-loss 10000000
		recv=$SEQCHECK_PID
		snap "$RESULTS/$phase-before.txt"
		free_min=$(sed -n 's/^MemAvailable: *\([0-9]*\).*/\1/p' /proc/meminfo)
		free_base=$free_min
		sync_with_peer "$phase-start"
		# while b sends: the lowest MemAvailable seen
		hear_peer > "$RESULTS/$phase-told.txt" &
		heard=$!
		while kill -0 $heard 2>/dev/null; do
			m=$(sed -n 's/^MemAvailable: *\([0-9]*\).*/\1/p' /proc/meminfo)
			[ "$m" -lt "$free_min" ] && free_min=$m
			sleep 0.2
		done
		told=$(cat "$RESULTS/$phase-told.txt")
		sleep 5			# what is queued drains
		kill $recv
		wait $recv
		rc=$?
		snap "$RESULTS/$phase-after.txt"
		echo 0 > $KNOBS/unauth_max && echo 0 > $KNOBS/delay_us_max
		account "$rc" "$((free_base - free_min))"
	else
		tx0=$(stat tx_sent) lost0=$(tx_lost)
		sync_with_peer "$phase-start"
		seqcheck send "$OTHER" 6000 10000000 --sizes 64-1000 --rate $LRATE \
			> "$RESULTS/$phase-legit.txt" &
		legit=$!
		t0=$(uptime_cs)
		replayinject hostile eth0 $CUR $OLD "$@" > "$RESULTS/$phase-hostile.txt"
		ok $? "$phase: replayinject hostile $* ($(($(uptime_cs) - t0))0 ms): $(grep sent "$RESULTS/$phase-hostile.txt")"
		sleep 1
		kill $legit
		wait $legit
		echo "# $phase: $(tr '\n' ' ' < "$RESULTS/$phase-hostile.txt")"
		tell_peer "$(sed 's/ /=/' "$RESULTS/$phase-hostile.txt" | tr '\n' ' ') legit=$(sed -n 's/^sent //p' "$RESULTS/$phase-legit.txt") tx=$(($(stat tx_sent) - tx0)) txlost=$(($(tx_lost) - lost0))"
	fi
}
uptime_cs() { tr -d . < /proc/uptime | cut -d' ' -f1; }

# account RC MEM_KB: a's checks of one phase.
account() {
	echo "# $phase: b sent: $told"
	res=$(grep -h 'received\|corrupt' "$RESULTS/$phase-seqcheck.txt" | tr '\n' ' ')
	got=$(sed -n 's/^received \([0-9]*\).*/\1/p' "$RESULTS/$phase-seqcheck.txt")
	drops=$(sed -n 's/.*socket_drops \([0-9]*\).*/\1/p' "$RESULTS/$phase-seqcheck.txt")
	legit=$(hs legit) sent=$(hs sent)
	onwire=$(($(hs tx) - $(hs txlost)))
	malformed=$(($(hs random) + $(hs truncated) + $(hs version) + $(hs type) + $(hs csum) + $(hs seq_max)))
	pt_refused=$(($(d rx_malformed) + $(d rx_wrong_peer) + $(d rx_auth_failed) + $(d rx_replayed) + $(d rx_too_old) + $(d rx_own_session) + $(d rx_old_session) + $(d rx_unknown_session) + $(d rx_unauth_full) + $(d rx_dropped) + $(d rx_stack_dropped)))
	# before padtun: IP header and length errors, UDP checksum and length
	# errors (InErrors less the receive-buffer drops, which are the inner
	# seqcheck socket's), failed reassemblies
	stack=$(($(d Ip_InHdrErrors) + $(d Ip_InAddrErrors) + $(d IpExt_InTruncatedPkts) + $(d Udp_InErrors) - $(d Udp_RcvbufErrors) + $(d Udp_NoPorts) + $(d Ip_ReasmFails)))
	delivered=$(d rx_delivered)
	echo "# $phase: a counted: malformed $(d rx_malformed) wrong_peer $(d rx_wrong_peer) auth_failed $(d rx_auth_failed) replayed $(d rx_replayed) too_old $(d rx_too_old) own_session $(d rx_own_session) old_session $(d rx_old_session) unknown_session $(d rx_unknown_session) unauth_full $(d rx_unauth_full) dropped $(d rx_dropped) stack_dropped $(d rx_stack_dropped) delivered $delivered; Ip InHdrErrors $(d Ip_InHdrErrors) InAddrErrors $(d Ip_InAddrErrors) InTruncatedPkts $(d IpExt_InTruncatedPkts) ReasmFails $(d Ip_ReasmFails) ReasmOKs $(d Ip_ReasmOKs); Udp InErrors $(d Udp_InErrors) InCsumErrors $(d Udp_InCsumErrors) RcvbufErrors $(d Udp_RcvbufErrors) NoPorts $(d Udp_NoPorts); MemAvailable lowest $2 kB below the start"

	[ "$(d rx_malformed)" = "$malformed" ] && [ "$(d rx_wrong_peer)" = "$(hs wrong_peer)" ] &&
		[ "$(d rx_own_session)" = "$(hs own_session)" ] &&
		[ "$(($(d rx_replayed) + $(d rx_too_old)))" = "$(hs replay)" ]
	ok $? "$phase: malformed $malformed, wrong peer $(hs wrong_peer), own session $(hs own_session), replayed or too old $(hs replay): each counted as sent"
	[ "$(d Udp_InCsumErrors)" = "$(hs udp_csum)" ] &&
		[ "$(($(d Udp_InErrors) - $(d Udp_RcvbufErrors)))" = "$(($(hs udp_csum) + $(hs udp_len)))" ] &&
		[ "$(d IpExt_InTruncatedPkts)" = "$(hs ip_len)" ] &&
		[ "$(d Ip_InHdrErrors)" = "$(hs ip_csum)" ]
	ok $? "$phase: the stack refused $(($(hs udp_csum) + $(hs udp_len) + $(hs ip_len) + $(hs ip_csum))) before padtun (UDP checksum $(hs udp_csum), UDP length $(hs udp_len), IP length $(hs ip_len), IP checksum $(hs ip_csum)), each counted"
	[ $((pt_refused + stack + delivered)) = $((sent + onwire)) ]
	ok $? "$phase: padtun refused $pt_refused + the stack $stack + delivered $delivered = $((pt_refused + stack + delivered)); hostile $sent + legitimate on the wire $onwire = $((sent + onwire))"
	if [ "$phase" = paced ] || [ "$phase" = jumbo ]; then
		[ "$(d rx_auth_failed)" -ge "$(($(hs tag) + $(hs cipher) + $(hs jumbo)))" ] 2>/dev/null
		ok $? "$phase: rx_auth_failed $(d rx_auth_failed) >= flipped tag and ciphertext bits and jumbos ($(($(hs tag) + $(hs cipher) + $(hs jumbo))))"
	fi
	[ "$phase" = paced ] && echo "# $phase: legitimate: sent $legit, $res"
	ok "$1" "$phase: legitimate stream: nothing reordered, duplicated or corrupted ($res)"
	[ "$(hs tx)" = "$legit" ]
	ok $? "$phase: b's padtun0 sent all $legit legitimate datagrams (tx_sent +$(hs tx), underlay drops +$(hs txlost))"
	if [ "$phase" = jumbo ]; then
		[ "$2" -lt $((48 * 1024)) ]
		ok $? "$phase: a's MemAvailable at most $2 kB below the start, within 48 MiB (16 MiB unauthenticated, 4 MiB reassembly, the rest slack); rx_unauth_full +$(d rx_unauth_full)"
	fi
	if [ "$phase" = jumbo-bound ]; then
		[ "$(d rx_unauth_full)" -gt 0 ] &&
			[ $(($(d rx_unauth_full) + $(d rx_auth_failed) + $(d rx_dropped))) -ge "$(hs jumbo)" ]
		ok $? "$phase: beyond 256 KiB refused before any crypto: rx_unauth_full +$(d rx_unauth_full), rx_auth_failed +$(d rx_auth_failed) (full-length AEADs), rx_dropped +$(d rx_dropped) of $(hs jumbo) jumbos; MemAvailable at most $2 kB below the start"
	fi
	if [ "$phase" = flood ] || [ "$phase" = jumbo-bound ]; then
		[ $((legit - got)) = $((legit - onwire + onwire - delivered + ${drops:-0})) ] &&
			[ $((delivered - got)) = "${drops:-0}" ]
		ok $? "$phase: legitimate: $((legit - got)) of $legit lost, all counted: $((legit - onwire)) on b's underlay, $((onwire - delivered)) by padtun on a, ${drops:-0} at a's socket"
	else
		[ "$got" = "$legit" ] && [ "$delivered" = "$legit" ]
		ok $? "$phase: legitimate: all $legit arrived (rx_delivered +$delivered)"
	fi
}

link_up
ok $? "padtun0 up"
sync_with_peer links-up

# capture_session FILE COUNT NAME: b captures the first COUNT datagrams of
# its link on the underlay into FILE, all it sends meanwhile: one ping and
# COUNT - 1 seqcheck datagrams, which a receives.
capture_session() {
	if [ "$ROLE" = a ]; then
		seqcheck_recv "capture-$3" "$RESULTS/$3-seqcheck.txt" "" \
			6009 $(($2 - 1)) --timeout 20
		return 0
	fi
	replayinject capture eth0 5555 "$1" --out "$2" --timeout 60 > "$RESULTS/capture-$3.txt" 2>&1 &
	cap=$!
	sleep 1
	sync_with_peer "capture-$3"
	ping -c 1 -W 5 "$OTHER" > /dev/null && sleep 1 &&
		seqcheck send "$OTHER" 6009 $(($2 - 1)) --rate 500 > /dev/null
	wait $cap
	ok $? "the $3 session captured ($(tail -n 1 "$RESULTS/capture-$3.txt"))"
}

# An earlier session of b's, 200 datagrams; then b re-creates its link.
capture_session $OLD 200 old
if [ "$ROLE" = b ]; then
	ip link del padtun0 && link_up
	ok $? "b re-created padtun0"
fi
sync_with_peer b-recreated
ping -c 2 -W 5 "$OTHER" > /dev/null
ok $? "ping $OTHER on b's new session"
sync_with_peer pinged-new-session
# Datagrams of the current session, for replays and flipped bits.
capture_session $CUR 64 current
sync_with_peer captured

phase paced $H --rate "$HRATE"
sync_with_peer paced-done
phase flood $H --seed 2
sync_with_peer flood-done
phase jumbo $J --classes jumbo --seed 3
sync_with_peer jumbo-done
phase jumbo-bound $JB --classes jumbo --seed 4
sync_with_peer jumbo-bound-done

ping -c 2 -W 5 "$OTHER" > /dev/null
ok $? "ping $OTHER after all of it"
ethtool -S padtun0 > "$RESULTS/ethtool.txt"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
