#!/bin/sh
# A complete inner checksum is checked by the receiver's stack, also under
# an AEAD: the tag vouches only that the bytes are those the sender had,
# and a packet the sender forwarded carries a sum nobody checked there. a
# sends b datagrams whose UDP checksum it computed itself (seqcheck send
# --raw-csum: a raw socket, no offload, so padtun's checksum hint is 0):
# right ones arrive, every one; wrong ones are counted by b's UDP as
# checksum errors (Udp InCsumErrors) and none arrives. Before, a hint of 0
# under an AEAD marked the packet CHECKSUM_UNNECESSARY and the wrong ones
# were delivered (the negative control, run by hand: see the note of the
# commit that added it).
# kernels: check sanitizer
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 240
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

N=200

# csum_errors: b's UDP checksum errors so far.
csum_errors() {
	awk '$1 == "Udp:" { if (h) { for (i = 2; i <= NF; i++) if (n[i] == "InCsumErrors") print $i; exit } else { h = 1; for (i = 2; i <= NF; i++) n[i] = $i } }' /proc/net/snmp
}

padtun_add && echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6 &&
	padtun_up
ok $? "padtun0 up (chacha20poly1305)"
sync_with_peer links-up

# phase NAME good|bad MAX_LOSS: a sends N datagrams with that checksum.
phase() {
	if [ "$ROLE" = b ]; then
		e0=$(csum_errors)
		seqcheck_start "$RESULTS/$1.txt" 6000 $N --timeout 5 --max-loss $3
		sync_with_peer "$1"
		wait $SEQCHECK_PID
		rc=$?
		sync_with_peer "$1-done"
		echo "$rc $(sed -n 's/^received \([0-9]*\).*/\1/p' "$RESULTS/$1.txt") $(($(csum_errors) - e0))"
	else
		sync_with_peer "$1"
		seqcheck send "$OTHER" 6000 $N 200 --rate 1000 --raw-csum "$2" > /dev/null
		ok $? "$1: sent $N datagrams, UDP checksum $2, from a raw socket"
		sync_with_peer "$1-done"
	fi
}

if [ "$ROLE" = b ]; then
	# shellcheck disable=SC2046 # three numbers
	set -- $(phase good good 0)
	[ "$1" = 0 ] && [ "$2" = $N ] && [ "$3" = 0 ]
	ok $? "right checksums: received $2 of $N, $3 checksum errors"
	# shellcheck disable=SC2046
	set -- $(phase bad bad $N)
	[ "$2" = 0 ] && [ "$3" = $N ]
	ok $? "wrong checksums: received $2 of $N, $3 counted as Udp InCsumErrors"
else
	phase good good 0
	phase bad bad $N
fi

ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
