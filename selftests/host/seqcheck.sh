#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The sequence checker's negative control: its own classification code must
# pass an in-order stream and flag swapped, duplicated, lost and corrupt
# datagrams, with and without --sizes ("seqcheck selftest"), before any
# scenario relies on it. Then over the host's loopback: a --sizes stream
# passes a receiver with the same range, and fails one with another range
# (every datagram of another length is corrupt).
. "$(dirname "$0")/../lib/host.sh"
make -s -C selftests/tools check O="$top/build/tools" || exit 1

sc=$top/build/tools/seqcheck
port=$((20000 + RANDOM % 20000))

# loopback SEND_SIZES RECV_SIZES: the receiver's exit status and report
loopback() {
	local out rc
	out=$(mktemp)
	"$sc" recv $port 2000 --timeout 3 --sizes "$2" > "$out" 2>/dev/null &
	local recv=$!
	sleep 0.5
	"$sc" send 127.0.0.1 $port 2000 --sizes "$1" --rate 20000 > /dev/null
	wait $recv
	rc=$?
	echo "# send --sizes $1, recv --sizes $2: rc $rc: $(tr '\n' ' ' < "$out")"
	rm -f "$out"
	return $rc
}

loopback 64-1472 64-1472 || { echo "not ok - a --sizes stream over loopback"; exit 1; }
echo "ok - a --sizes stream over loopback passes"
if loopback 64-1471 64-1472; then
	echo "not ok - sizes of another range are not caught"
	exit 1
fi
echo "ok - sizes of another range fail the receiver"
