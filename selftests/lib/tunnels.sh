# SPDX-License-Identifier: GPL-2.0
# The tunnels padtun is compared with, and padtun itself, side by side in
# one pair of guests: each mode on its own addresses, so that all of them
# stay up together and runs can alternate between them without
# reconfiguring. Sourced inside a guest after guest.sh:
#
#   . /selftests/lib/guest.sh
#   . /selftests/lib/tunnels.sh
#
# The addresses (mine, theirs: tunnel N inside 198.19.N.0/24, ESP SA N on
# 198.18.N.x) and the key (KEY) are lib/addresses.sh's. The other keys
# here are fixed test keys as well, the same in both guests.
. /selftests/lib/addresses.sh

# padtun_mode_add DEV N TRANSFORM [ARGS...]: padtun DEV over the link, UDP
# port 5500+N, inside 198.19.N.0/24, with TRANSFORM and ARGS (cpus, cbcpu,
# order, domains). With order flow domain d sends from port 5500+N+d:
# bench/guest.sh numbers its links so that no two share a port.
padtun_mode_add() {
	local dev=$1 n=$2 transform=$3 key=""
	shift 3
	[ "$transform" = none ] || key="key $KEY"
	# shellcheck disable=SC2086
	ip link add "$dev" type padtun local "$ADDR" remote "$PEER" \
		port $((5500 + n)) transform "$transform" $key "$@" &&
	ip addr add "$(mine "19.$n")/24" dev "$dev" &&
	ip link set "$dev" up
}

# wg_mode_add DEV N: WireGuard DEV, UDP port 51800+N, inside 198.19.N.0/24.
WG_PRIV_A=MKQw71oWv8tlUjTGx3tkjRndXj8sC5J24Q4Q8GeziU4=
WG_PUB_A=7vy9lQ3ZrHICxJGkPaaFZyTiXCj+MGwhC98WZkvOIGU=
WG_PRIV_B=aIZUORDpu+yGqRJPulub6xoQel9hg8HxQpCDeZNwaVs=
WG_PUB_B=DSPCS4wdA1KT3JhER/C0GAL7WOY/E1joC4gBlyTbVhg=
wg_mode_add() {
	local dev=$1 n=$2 priv=$WG_PRIV_A pub=$WG_PUB_B
	[ "$ROLE" = b ] && priv=$WG_PRIV_B pub=$WG_PUB_A
	echo "$priv" > "/tmp/$dev.key"
	ip link add "$dev" type wireguard &&
	wg set "$dev" private-key "/tmp/$dev.key" listen-port $((51800 + n)) \
		peer "$pub" allowed-ips "198.19.$n.0/24" endpoint "$PEER:$((51800 + n))" &&
	ip addr add "$(mine "19.$n")/24" dev "$dev" &&
	ip link set "$dev" up
}

# esp_mode_add N AEAD KEYHEX: 198.18.N.x on eth0 and an ESP transport-mode
# SA pair with AEAD (as ip xfrm names it, 128-bit ICV) between them. The
# replay window is on, so reordering on the way shows as reordering
# rather than as drops.
esp_mode_add() {
	local n=$1 aead=$2 key=$3 me them spi_out spi_in
	me=$(mine "18.$n") them=$(theirs "18.$n")
	spi_out=$((0x1000 + n * 2)) spi_in=$((0x1001 + n * 2))
	[ "$ROLE" = b ] && spi_out=$((0x1001 + n * 2)) spi_in=$((0x1000 + n * 2))
	ip addr add "$me/24" dev eth0 &&
	ip xfrm state add src "$me" dst "$them" proto esp spi "$spi_out" reqid "$n" \
		mode transport replay-window 64 aead "$aead" "0x$key" 128 &&
	ip xfrm state add src "$them" dst "$me" proto esp spi "$spi_in" reqid "$n" \
		mode transport replay-window 64 aead "$aead" "0x$key" 128 &&
	ip xfrm policy add src "$me" dst "$them" dir out \
		tmpl src "$me" dst "$them" proto esp reqid "$n" mode transport &&
	ip xfrm policy add src "$them" dst "$me" dir in \
		tmpl src "$them" dst "$me" proto esp reqid "$n" mode transport
}

# The ESP AEADs, with their keys (key, then the 4-byte salt).
ESP_CHACHA='rfc7539esp(chacha20,poly1305)'
ESP_CHACHA_KEY=${KEY}01020304
ESP_GCM='rfc4106(gcm(aes))'
ESP_GCM_KEY=000102030405060708090a0b0c0d0e0f01020304

# crypto_driver NAME: the driver /proc/crypto lists first for algorithm
# NAME (the one with the highest priority, which allocations get).
crypto_driver() {
	awk -v n="$1" '
		/^name/ { name = $3 }
		/^driver/ { drv = $3 }
		/^priority/ { if (name == n && $3 > best) { best = $3; pick = drv } }
		END { print pick }' /proc/crypto
}

# lib_chacha20poly1305: what padtun's chacha20poly1305 runs on. It calls
# lib/crypto, which /proc/crypto does not list: x86's chacha20 takes SIMD
# from SSSE3 on, poly1305 is x86_64 assembly either way.
lib_chacha20poly1305() {
	if grep -qw ssse3 /proc/cpuinfo; then
		echo "lib/crypto (chacha20 SIMD, poly1305 x86_64)"
	else
		echo "lib/crypto (chacha20 generic: no SSSE3, poly1305 x86_64)"
	fi
}

# crypto_refcnt DRIVER: the reference count /proc/crypto shows for DRIVER.
crypto_refcnt() {
	awk -v d="$1" '/^driver/ { hit = ($3 == d) } /^refcnt/ && hit { print $3; exit }' /proc/crypto
}

# mode_peer MODE: the peer's address through MODE's tunnel, as demo/ and
# bench/ number them (padtun_mode_add padtun0 10 none, padtun6 16 and
# padtun7 18 with order flow, wg_mode_add wg0 20,
# esp_mode_add 1 ..., VXLAN and FOU at 19.30 and 19.31).
mode_peer() {
	case $1 in
	plain) echo "$PEER" ;;
	padtun-none) theirs 19.10 ;;
	padtun-chacha20poly1305) theirs 19.11 ;;
	padtun-gcm-aes) theirs 19.12 ;;
	padtun-chacha20poly1305-1cpu) theirs 19.13 ;;
	padtun-none-1cpu) theirs 19.14 ;;
	padtun-gcm-aes-1cpu) theirs 19.15 ;;
	padtun-chacha20poly1305-flow2) theirs 19.16 ;;
	padtun-chacha20poly1305-flow) theirs 19.18 ;;
	wireguard) theirs 19.20 ;;
	vxlan) theirs 19.30 ;;
	fou) theirs 19.31 ;;
	esp-chacha20poly1305) theirs 18.1 ;;
	esp-gcm-aes) theirs 18.2 ;;
	esp-pcrypt-chacha20poly1305) theirs 18.3 ;;
	esp-pcrypt-gcm-aes) theirs 18.4 ;;
	esac
}
