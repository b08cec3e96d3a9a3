#!/bin/sh
# Every invalid attribute is refused with a clear extack message, and no
# half-created link stays behind.
# kernels: check
# guests: 1
# cpus: 2
# mem: 512
# timeout: 180
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

BASE="local 127.0.0.1 remote 127.0.0.2"
ip link set lo up

# refused "MESSAGE" ARGS...: ip link add ARGS fails saying MESSAGE (an
# extended regexp: the iproute2 plugin refuses some values before the
# kernel sees them, with its own words), and leaves no padtun9 behind.
refused() {
	msg=$1
	shift
	err=$(ip link add padtun9 type padtun "$@" 2>&1)
	rc=$?
	echo "# $*: $err"
	[ $rc != 0 ] && echo "$err" | grep -qE "$msg" &&
		! ip link show padtun9 > /dev/null 2>&1
	ok $? "refused: $msg"
}

refused "unknown transform" $BASE port 5555 key $KEY transform rot13
refused "chacha20poly1305 takes a 32-byte key" $BASE port 5555 key 0011223344556677
refused "gcm-aes takes a 16, 24 or 32-byte key" $BASE port 5555 key 0011223344 transform gcm-aes
refused "the transform needs a key" $BASE port 5555
refused "CPU list is empty|invalid cpu list" $BASE port 5555 key $KEY cpus ""
refused "CPU list names a CPU that does not exist" $BASE port 5555 key $KEY cpus 0-4095
refused "invalid CPU list" $BASE port 5555 key $KEY cpus zero
refused "callback CPU must be one of the CPU list" $BASE port 5555 key $KEY cpus 0 cbcpu 1
refused "callback CPU is offline" $BASE port 5555 key $KEY cbcpu 77
refused "receive's callback CPU must be one of the CPU list" $BASE port 5555 key $KEY cpus 0 rxcbcpu 1
refused "callback CPU is offline" $BASE port 5555 key $KEY rxcbcpu 77
err=$(ip link add padtun9 address 02:00:00:00:00:01 type padtun $BASE port 5555 key $KEY 2>&1)
[ $? != 0 ] && echo "$err" | grep -q "layer-3 device: it has no link-layer address" &&
	! ip link show padtun9 > /dev/null 2>&1
ok $? "refused: a link-layer address ($err)"
refused "local port must not be 0|invalid localport" $BASE localport 0 remoteport 5555 key $KEY
refused "remote port must not be 0|invalid remoteport" $BASE localport 5555 remoteport 0 key $KEY
refused "a UDP port is required" $BASE key $KEY
refused "the remote address is required" local 127.0.0.1 port 5555 key $KEY
refused "remote address must be a unicast address" local 127.0.0.1 remote 224.0.0.1 port 5555 key $KEY
refused "same (address )?family" local 127.0.0.1 remote ::1 port 5555 key $KEY
# Ranges the netlink policy states: the kernel's own message.
refused "integer out of range" $BASE port 5555 key $KEY maxinflight 0
refused "integer out of range" $BASE port 5555 key $KEY maxinflight 65537
refused "local address is not configured" local 192.0.2.1 remote 127.0.0.2 port 5555 key $KEY

# Link-level attributes come before "type", so not through refused().
err=$(ip link add padtun9 numtxqueues 4 type padtun $BASE port 5555 key $KEY 2>&1)
[ $? != 0 ] && echo "$err" | grep -q "exactly one tx queue" &&
	! ip link show padtun9 > /dev/null 2>&1
ok $? "refused: numtxqueues 4 ($err)"

# The offline case needs a CPU to take offline.
if [ -e /sys/devices/system/cpu/cpu1/online ] &&
   echo 0 > /sys/devices/system/cpu/cpu1/online; then
	refused "CPU list names an offline CPU" $BASE port 5555 key $KEY cpus 0-1
	echo 1 > /sys/devices/system/cpu/cpu1/online
fi

ip link add padtun0 type padtun $BASE port 5555 key $KEY cpus 0-1
ok $? "a valid link is created"
refused "local UDP port is already in use" $BASE port 5555 key $KEY
# register_netdevice itself fails (the name is taken) after the socket,
# padata and crypto were set up: all of it must be undone, port included.
! ip link add padtun0 type padtun $BASE port 5557 key $KEY 2> /dev/null
ok $? "a second padtun0 is refused"
ip link add padtun2 type padtun $BASE port 5557 key $KEY && ip link del padtun2
ok $? "and it left its UDP port free"
ip -d link show padtun0 > "$RESULTS/link.txt"
cat "$RESULTS/link.txt"
! grep -q "$KEY" "$RESULTS/link.txt"
ok $? "the key is not shown"
grep -q "link/none" "$RESULTS/link.txt" && ! grep -qiE "([0-9a-f]{2}:){5}[0-9a-f]{2}" "$RESULTS/link.txt"
ok $? "a layer-3 device: link/none, no MAC address"
err=$(ip link set padtun0 type padtun key $KEY 2>&1)
[ $? != 0 ] && echo "$err" | grep -q "only cpus, cbcpu, rxcbcpu, maxinflight, order and domains can change"
ok $? "changelink refuses a new key: $err"
err=$(ip link set padtun0 type padtun cpus 0-4095 2>&1)
[ $? != 0 ] && echo "$err" | grep -q "does not exist"
ok $? "changelink refuses a bad CPU list: $err"
ip -d link show padtun0 | grep -q "cbcpu 0 rxcbcpu 0"
ok $? "by default receive's callback CPU is transmit's"
err=$(ip link set padtun0 type padtun cpus 1 rxcbcpu 0 2>&1)
[ $? != 0 ] && echo "$err" | grep -q "receive's callback CPU must be one of the CPU list"
ok $? "changelink refuses rxcbcpu outside the list: $err"
ip -d link show padtun0 | grep -q "cpus 0-1 cbcpu 0 rxcbcpu 0"
ok $? "and changed nothing"
ip link set padtun0 type padtun rxcbcpu 1
ok $? "changelink: rxcbcpu 1"
ip -d link show padtun0 | grep -q "cbcpu 0 rxcbcpu 1"
ok $? "receive's callback CPU apart: cbcpu 0 rxcbcpu 1"
ip link set padtun0 type padtun cpus 1 maxinflight 64
ok $? "changelink: cpus 1 maxinflight 64"
ip -d link show padtun0 | grep -q "cbcpu 1 rxcbcpu 1"
ok $? "the callback CPU moved into the new list"
ip link del padtun0
ok $? "ip link del padtun0"

# A path MTU at or below the overhead gives the minimum MTU (68), not a
# wrapped-around one. No traffic: the link is only created.
ip route add 198.18.200.1/32 dev lo mtu lock 40 &&
	ip link add padtun3 type padtun local 127.0.0.1 remote 198.18.200.1 port 5558 key $KEY
ok $? "a link over a 40-byte path MTU is created"
echo "# mtu over a 40-byte path: $(cat /sys/class/net/padtun3/mtu)"
[ "$(cat /sys/class/net/padtun3/mtu)" = 68 ]
ok $? "its MTU is the minimum, 68"
ip link del padtun3; ip route del 198.18.200.1/32

ip link add padtun1 type padtun local ::1 remote ::1 port 5556 transform none key 00 2> "$RESULTS/none.txt"
ok $? "transform none over IPv6 ($(cat "$RESULTS/none.txt"))"
ip link del padtun1
tap_exit
