#!/bin/sh
# A wrong key on one side: no session is made, so nothing is sent or
# delivered, and each side refuses every handshake init the other sent
# (hs_refused, counted as rx errors). Then the same key on
# both sides, a's local address given as 0.0.0.0 (unspecified: a binds to
# every address, and its keys are named by the address routing picks,
# the one b sends to): the link works both ways.
# kernels: check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 240
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

# a keeps the usual key, b's differs in its first byte.
same_key=$KEY
[ "$ROLE" = b ] && KEY=ff0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

# exchange VALUE: send ours to the peer, print theirs.
exchange() {
	if [ "$ROLE" = a ]; then
		nc -l -p 7998
		sleep 0.5
		echo "$1" | nc "$PEER" 7997
	else
		until echo "$1" | nc "$PEER" 7998 2>/dev/null; do sleep 0.2; done
		nc -l -p 7997
	fi
}

padtun_add
ok $? "ip link add padtun0 (each side its own key)"
# Keep IPv6 autoconfiguration out of the count.
echo 1 > /proc/sys/net/ipv6/conf/padtun0/disable_ipv6
# Both sockets open before either end sends its first init: every init
# then reaches the other link.
sync_with_peer links-added
padtun_up
ok $? "padtun0 up"
sync_with_peer links-up

! ping -c 10 -i 0.2 -W 1 $OTHER > /dev/null
ok $? "ping $OTHER fails"
# Down, a link sends no more inits: the counts settle.
ip link set padtun0 down
sync_with_peer pinged
sleep 1

ethtool -S padtun0 > "$RESULTS/ethtool.txt"
inits=$(stat hs_init_sent)
refused=$(stat hs_refused)
theirs=$(exchange "$inits")
echo "# inits sent $inits, peer sent $theirs, refused here $refused, sessions $(stat sessions_made)"
[ "$(stat rx_delivered)" = 0 ] && [ "$(stat tx_sent)" = 0 ] &&
	[ "$(stat sessions_made)" = 0 ]
ok $? "no session, nothing sent or delivered"
[ -n "$theirs" ] && [ "$theirs" -gt 0 ] && [ "$refused" = "$theirs" ]
ok $? "hs_refused ($refused) equals the inits the peer sent ($theirs)"
ip -s link show padtun0 > "$RESULTS/ip-s-link.txt"
grep -A1 "RX:" "$RESULTS/ip-s-link.txt" | tail -n 1 | awk -v f="$refused" '{ exit !($3 == f) }'
ok $? "ip -s link counts them as rx errors"

ip link del padtun0
ok $? "ip link del padtun0"

KEY=$same_key
local=$ADDR
[ "$ROLE" = a ] && local=0.0.0.0
ip link add padtun0 type padtun local $local remote "$PEER" port 5555 key "$KEY"
ok $? "ip link add padtun0 local $local (the same key on both sides)"
padtun_up
sync_with_peer same-key-up
ping -c 5 -i 0.2 -W 5 $OTHER > /dev/null
ok $? "ping $OTHER through the link"
sync_with_peer same-key-pinged
[ "$(stat rx_auth_failed)" = 0 ]
ok $? "no authentication failure ($(stat rx_auth_failed))"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
