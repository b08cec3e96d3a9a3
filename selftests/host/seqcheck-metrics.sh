#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# seqcheck's reordering metrics against the RFCs' own worked examples (their
# numbers are the oracle; section numbers below are the RFCs'), then
# hand-built corners (loss, duplicates, a datagram late beyond the window,
# a counter that wraps), then many flows over the host's loopback with the
# text report's first three lines unchanged and the JSON report complete.
# Negative controls: a wrong expected value must fail the same check, and a
# seqcheck built with REORDER_METRICS_MISCOMPUTE (every extent one too
# long) must fail the RFC checks.
. "$(dirname "$0")/../lib/host.sh"
make -s -C selftests/tools O="$top/build/tools" || exit 1

sc=$top/build/tools/seqcheck
failed=0

# metrics BINARY ARGS... < "SEQ [SECONDS [BYTES]]" lines
metrics() {
	local bin=$1
	shift
	"$bin" metrics "$@"
}

# has OUTPUT "key value"...: every pair is in OUTPUT, whole words; a
# JSON fragment (starting with a quote) anywhere.
has() {
	local out=$1 kv pad
	shift
	for kv in "$@"; do
		case $kv in
		\"*) pad=$kv ;;
		*) pad=" $kv " ;;
		esac
		printf '%s\n' "$out" | sed 's/^/ /; s/$/ /' | grep -qF -- "$pad" || {
			echo "# missing \"$kv\""
			return 1
		}
	done
}

# verdict NAME STATUS: one TAP-ish line; counts failures.
verdict() {
	if [ "$2" = 0 ]; then
		echo "ok - $1"
	else
		echo "not ok - $1"
		failed=$((failed + 1))
	fi
}

# rfc_examples BINARY [QUIET]: every RFC check against BINARY; prints
# the lines (unless QUIET) and returns the number of failed checks.
rfc_examples() {
	local bin=$1 quiet=$2 out bad=0
	check() {
		local name=$1 rc
		shift
		has "$out" "$@" > /dev/null
		rc=$?
		[ "$rc" = 0 ] || bad=$((bad + 1))
		[ -n "$quiet" ] || verdict "$name" $rc
	}

	# RFC 4737 7.1, Table 1: packet 4 reordered; 100-byte payloads.
	# 4.1.3 R = 1/10; 4.2.3 e = 4; 4.3.3 LateTime = 210 - 148 = 62 ms;
	# 4.4.3 ByteOffset = 400; 5.3 packet 4 is 4-reordered.
	out=$(printf '%s\n' "1 0.068 100" "2 0.088 100" "3 0.108 100" \
		"5 0.148 100" "6 0.168 100" "7 0.188 100" "8 0.208 100" \
		"4 0.210 100" "9 0.228 100" "10 0.248 100" |
		metrics "$bin" --first 1)
	check "RFC 4737 7.1: ratio 0.1, extent 4, late time 62 ms, byte offset 400, 4-reordered" \
		"reorders 1" "ratio 0.100000" "extent_max 4" \
		"late_time_max_seconds 0.062000" "byte_offset_max 400" \
		"n_reordering_max 4" "extent_histogram 4:1" "n_histogram 4:1"

	# RFC 4737 7.2, Table 2: packets 5 and 6 behind 7. e = 1 and 2;
	# late times 1 and 2 ms; byte offsets 100 each; 5 is 1-reordered,
	# 6 not n-reordered; one reordering discontinuity (packet 7).
	out=$(printf '%s\n' "1 0.068 100" "2 0.088 100" "3 0.108 100" \
		"4 0.128 100" "7 0.188 100" "5 0.189 100" "6 0.190 100" \
		"8 0.208 100" "9 0.228 100" "10 0.248 100" |
		metrics "$bin" --first 1)
	check "RFC 4737 7.2: extents 1 and 2, late 1 and 2 ms, byte offsets 100, one discontinuity" \
		"reorders 2" "extent_histogram 1:1 2:1" \
		"late_time_max_seconds 0.002000" "byte_offset_max 100" \
		"n_histogram 0:1 1:1" "discontinuities 1"
	out=$(printf '%s\n' "1 0.068 100" "2 0.088 100" "3 0.108 100" \
		"4 0.128 100" "7 0.188 100" "5 0.189 100" "6 0.190 100" \
		"8 0.208 100" "9 0.228 100" "10 0.248 100" |
		metrics "$bin" --first 1 --json)
	check "RFC 4737 7.2 (JSON): mean late time 1.5 ms, mean byte offset 100" \
		'"late_time_seconds":{"max":0.002000,"mean":0.001500},"byte_offset":{"max":100,"mean":100.000},'

	# RFC 4737 7.3, Table 3: packets 4, 5, 6 late. Extent histogram
	# bins 4, 5, 6 one each; byte offsets 400 each; late times 62, 64,
	# 68 ms; only packet 4 n-reordered (n = 4).
	out=$(printf '%s\n' "1 0.068 100" "2 0.088 100" "3 0.108 100" \
		"7 0.188 100" "8 0.208 100" "9 0.228 100" "10 0.248 100" \
		"4 0.250 100" "5 0.252 100" "6 0.256 100" "11 0.268 100" |
		metrics "$bin" --first 1 --json)
	check "RFC 4737 7.3: extent histogram 4, 5, 6; byte offsets 400; late max 68 ms; only packet 4 n-reordered" \
		'"histogram":{"4":1,"5":1,"6":1}' '"byte_offset":{"max":400,"mean":400.000}' \
		'"late_time_seconds":{"max":0.068000,"mean":0.064667}' \
		'"n_reordering":{"max":4,'

	# RFC 4737 7.4, Table 4: extents 2, 3 (packets 4, 5) and 2 (11);
	# Gap(Packet 12) = 11 - 4 = 7; reordering-free runs 5, 0, 5.
	out=$(echo 1 2 3 6 7 4 5 8 9 10 12 13 11 14 15 16 | tr ' ' '\n' |
		metrics "$bin" --first 1)
	check "RFC 4737 7.4: extents 2, 3, 2; gap 7; runs 5, 0, 5" \
		"extent_histogram 2:2 3:1" "discontinuities 2" "gaps 1" \
		"gap_max 7" "free_runs 3" "free_sum_squares 50"

	# RFC 4737 4.6.4: 36 packets, 3 runs of 11: q = 363; runs of 1, 1,
	# 31: q = 963; a = 33 both.
	out=$( (seq 2 12; echo 1; seq 14 24; echo 13; seq 26 36; echo 25) |
		metrics "$bin" --first 1)
	check "RFC 4737 4.6.4: 3 runs of 11 in 36 packets, q = 363" \
		"packets 36" "free_runs 3" "free_in_order 33" "free_sum_squares 363"
	out=$( (echo 2 1 4 3 | tr ' ' '\n'; seq 6 36; echo 5) |
		metrics "$bin" --first 1)
	check "RFC 4737 4.6.4: runs of 1, 1 and 31 in 36 packets, q = 963" \
		"packets 36" "free_runs 3" "free_in_order 33" "free_sum_squares 963"

	# RFC 4737 5.3: in {1,2,3,7,8,9,4,5,6} only packet 4 is
	# n-reordered, with n = 3.
	out=$(echo 1 2 3 7 8 9 4 5 6 | tr ' ' '\n' | metrics "$bin" --first 1)
	check "RFC 4737 5.3: only packet 4 is n-reordered, n = 3" \
		"reorders 3" "n_reordering_max 3" "n_histogram 0:2 3:1" \
		"degree_3 0.111111"

	# RFC 5236 8a, Tables 2 and 4: (1,4,2,5,3,6,7,8), DT = BT = 4.
	out=$(echo 1 4 2 5 3 6 7 8 | tr ' ' '\n' |
		metrics "$bin" --first 1 --dt 4 --bt 4)
	check "RFC 5236 8a: RD -2..2 = .125 .125 .5 .125 .125, RBD 0..2 = .625 .25 .125" \
		"n 8 discarded 0 -2:0.125000 -1:0.125000 0:0.500000 1:0.125000 2:0.125000" \
		"n 8 discarded 0 0:0.625000 1:0.250000 2:0.125000"

	# RFC 5236 8b, Tables 5 and 6: (1,2,4,5,6,7), DT = BT = 3:
	# packet 3 lost; RD[0] = 1, FB 3, 1, 1, 1.
	out=$(echo 1 2 4 5 6 7 | tr ' ' '\n' |
		metrics "$bin" --first 1 --dt 3 --bt 3 --json)
	check "RFC 5236 8b (loss): RD[0] = 1; FB = 3 1 1 1, RBD[0] = 0.5" \
		'"rd":{"dt":3,"n":6,"discarded":0,"frequency":{"0":6}' \
		'"frequency":{"0":3,"1":1,"2":1,"3":1},"density":{"0":0.500000,"1":0.166667,"2":0.166667,"3":0.166667}'

	# RFC 5236 8c, Tables 7 and 8: (1,3,2,3,4,5), DT = 2: the second 3
	# is a duplicate; RD .2 .6 .2, RBD .8 .2.
	out=$(echo 1 3 2 3 4 5 | tr ' ' '\n' |
		metrics "$bin" --first 1 --dt 2 --bt 2)
	check "RFC 5236 8c (duplicate): RD -1..1 = .2 .6 .2, RBD .8 .2" \
		"duplicates 1" \
		"n 5 discarded 0 -1:0.200000 0:0.600000 1:0.200000" \
		"n 5 discarded 0 0:0.800000 1:0.200000"

	# RFC 5236 3.1 Example 1 (2,1,4,5,3), 3.3 Example 3 (2 lost, 3
	# twice: D = 0 -1 1 0 - -2 0 2) and 4 Examples 4 and 5.
	out=$(echo 2 1 4 5 3 | tr ' ' '\n' | metrics "$bin" --first 1 --dt 2)
	check "RFC 5236 3.1 Example 1: D = -1 1 -1 -1 2" \
		"rd dt 2 n 5 discarded 0 -1:0.600000 1:0.200000 2:0.200000"
	out=$(echo 1 4 3 5 3 8 7 6 | tr ' ' '\n' | metrics "$bin" --first 1 --dt 2)
	check "RFC 5236 3.3 Example 3: D = 0 -1 1 0 - -2 0 2" \
		"rd dt 2 n 7 discarded 0 -2:0.142857 -1:0.142857 0:0.428571 1:0.142857 2:0.142857"
	out=$(echo 1 2 3 5 4 6 | tr ' ' '\n' | metrics "$bin" --first 1 --dt 2)
	check "RFC 5236 4 Example 4: R = {(4,1), (5,-1)}" \
		"rd dt 2 n 6 discarded 0 -1:0.166667 0:0.666667 1:0.166667"
	out=$(echo 1 2 5 3 6 2 | tr ' ' '\n' | metrics "$bin" --first 1 --dt 2)
	check "RFC 5236 4 Example 5: R = {(3,2), (5,-2)}" \
		"rd dt 2 n 5 discarded 0 -2:0.200000 0:0.600000 2:0.200000"
	return $bad
}

rfc_examples "$sc"

# ---- corners, hand-built -------------------------------------------------

# Loss alone reorders nothing (RFC 4737 6, RFC 5236 2b): 0 1 3 4.
out=$(echo 0 1 3 4 | tr ' ' '\n' | metrics "$sc")
has "$out" "packets 4" "reorders 0" "discontinuities 0" \
	"rd dt 64 n 4 discarded 0 0:1.000000" "rbd bt 64 n 4 discarded 0 0:0.500000 1:0.250000 2:0.250000"
verdict "loss: 0 1 3 4 has no reordering; RBD holds 3, then 3 and 4" $?

# Duplicates: only the first copy counts (RFC 4737 3.6), in place (5236 2b).
out=$(echo 0 1 2 2 3 1 | tr ' ' '\n' | metrics "$sc")
has "$out" "arrivals 6 duplicates 2" "packets 4" "reorders 0" \
	"rd dt 64 n 4 discarded 0 0:1.000000"
verdict "duplicates: 0 1 2 2 3 1 is 4 packets in order, 2 duplicates" $?

# Late beyond the windows: 1 arrives after 2..7. With --history 4 its
# extent (6) is beyond RFC 4737 6's history window, and with DT = BT = 3
# RFC 5236 declares it lost (3.4, 6) and discards it.
out=$(echo 2 3 4 5 6 7 1 | tr ' ' '\n' | metrics "$sc" --first 1 --history 4 --dt 3 --bt 3)
has "$out" "reorders 1" "extent_beyond_history 1" "extent_max 0" \
	"rd dt 3 n 6 discarded 1 0:1.000000" \
	"rbd bt 3 n 6 discarded 1 0:0.500000 1:0.166667 2:0.166667 3:0.166667"
verdict "late beyond the window: extent beyond history, lost to RD and RBD" $?
out=$(echo 2 3 4 5 6 7 1 | tr ' ' '\n' | metrics "$sc" --first 1)
has "$out" "reorders 1" "extent_max 6" "n_reordering_max 6" "rd dt 64 n 7 discarded 0 -1:0.857143 6:0.142857"
verdict "the same, inside the default windows: extent 6, 6-reordered, D = 6" $?

# A 32-bit counter that wraps (RFC 4737 6: a jump of more than half the
# range is a rollover): only 0 is reordered, extent 1. Without --wrap32
# everything after the wrap is reordered, as 6 warns.
wrap="4294967294 4294967295 1 0 2 3"
out=$(echo $wrap | tr ' ' '\n' | metrics "$sc" --first 4294967294 --wrap32)
has "$out" "packets 6" "reorders 1" "extent_max 1" \
	"rd dt 64 n 6 discarded 0 -1:0.166667 0:0.666667 1:0.166667"
verdict "wrap: 2^32-2 2^32-1 1 0 2 3 with --wrap32 reorders only 0" $?
out=$(echo $wrap | tr ' ' '\n' | metrics "$sc" --first 4294967294)
has "$out" "reorders 4"
verdict "wrap: without --wrap32 the 4 after the wrap are reordered" $?

# ---- negative controls ------------------------------------------------------

# A known-wrong expected value (extent 5 for RFC 4737 7.1) fails the check.
out=$(printf '%s\n' 1 2 3 5 6 7 8 4 9 10 | metrics "$sc" --first 1)
! has "$out" "extent_max 5" > /dev/null
verdict "negative control: a wrong expected extent fails the check" $?

# A miscomputed metric fails the RFC checks.
broken=$(mktemp -d)
trap 'rm -rf "$broken"' EXIT
if make -s -C selftests/tools O="$broken" CPPFLAGS=-DREORDER_METRICS_MISCOMPUTE \
	"$broken/seqcheck" > /dev/null; then
	rfc_examples "$broken/seqcheck" quiet
	nbad=$?
	echo "# REORDER_METRICS_MISCOMPUTE: $nbad RFC checks failed"
	[ "$nbad" -ge 4 ]
	verdict "negative control: extents miscomputed by one fail the RFC checks" $?
else
	verdict "negative control: build with REORDER_METRICS_MISCOMPUTE" 1
fi

# ---- many flows over loopback ---------------------------------------------

port=$((20000 + RANDOM % 20000))

# loopback FLOWS RECV-ARGS...: the receiver's report in $out, status in $rc
loopback() {
	local flows=$1 file
	shift
	file=$(mktemp)
	"$sc" recv $port 3000 --timeout 3 --flows "$flows" "$@" > "$file" 2>/dev/null &
	local recv=$!
	sleep 0.5
	"$sc" send 127.0.0.1 $port 3000 200 --flows "$flows" --rate 30000 > /dev/null
	wait $recv
	rc=$?
	out=$(cat "$file")
	rm -f "$file"
}

loopback 4
echo "# recv --flows 4: rc $rc: $(head -3 <<< "$out" | tr '\n' ' ')"
first3=$(head -3 <<< "$out")
# The lines scenarios and bench parse, exactly as before, and only once:
# no later line matches what they grep, sed or regex out of the report.
[ "$rc" = 0 ] &&
	grep -qE '^received 3000 lost 0 duplicates 0 reordered 0$' <<< "$first3" &&
	grep -qE '^corrupt 0 invalid 0 socket_drops [0-9]+$' <<< "$first3" &&
	grep -qE '^first_to_last_seconds [0-9.]+$' <<< "$first3" &&
	! tail -n +4 <<< "$out" | grep -qE 'received|corrupt|socket_drops|reordered |first_to_last|verdict|^cpu[0-9]' &&
	has "$out" "flow 3 expected 750 got 750 missing 0 repeats 0 reorders 0" \
		"rfc4737 total packets 3000 reorders 0" "rfc4737 flow3 packets 750 reorders 0"
verdict "4 flows over loopback: in order, today's three lines first and alone, each flow reported" $?

loopback 3 --json
rc_json=$rc
python3 - "$out" <<'EOF'
import json, sys
r = json.loads(sys.argv[1])
assert r["flows"] == 3 and r["received"] == 3000 and r["pass"] is True, r
assert [f["expected"] for f in r["per_flow"]] == [1000] * 3
assert r["total"]["rfc4737"]["packets"] == 3000
assert r["total"]["rfc5236"]["rd"]["density"] == {"0": 1.0}
EOF
[ $? = 0 ] && [ "$rc_json" = 0 ]
verdict "3 flows over loopback, --json: valid JSON, every flow complete, RD all 0" $?

# A receiver expecting one flow counts the other flows' datagrams invalid
# and misses a share: exit 1, as for any loss.
out=$("$sc" recv $port 3000 --timeout 2 2>/dev/null & sleep 0.5
	"$sc" send 127.0.0.1 $port 3000 200 --flows 2 --rate 30000 > /dev/null; wait $!)
grep -q '^received 1500 lost 1500 ' <<< "$out" && grep -q '^corrupt 0 invalid 1500 ' <<< "$out"
verdict "a one-flow receiver takes flow 0 and counts flow 1 invalid" $?

[ "$failed" = 0 ]
