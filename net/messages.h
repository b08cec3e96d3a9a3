/* SPDX-License-Identifier: GPL-2.0 */
/*
 * padtun wire format: see docs/padtun.rst for the byte diagram.
 */
#ifndef _PADTUN_MESSAGES_H
#define _PADTUN_MESSAGES_H

#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>

enum {
	/* 2: 64-bit sessions, a key per direction and session (keys.c).
	 * 3: the inner checksum may be left to the receiver (csum_start).
	 * 4: sessions made by a handshake of both ends' random values
	 *    (handshake.c).
	 * 5: the seq field names an ordering domain in its top 8 bits
	 *    (padtun_seq()).
	 */
	PADTUN_VERSION = 5,
	PADTUN_TYPE_DATA = 1,
	PADTUN_TYPE_INIT = 2,
	PADTUN_TYPE_RESPONSE = 3,
	PADTUN_TYPE_CONFIRM = 4,
};

/* In front of every data datagram; the whole header is the AEAD's
 * associated data. The session names the key the datagram was sealed with
 * (derived from the configured key, both ends' addresses and ports and
 * both ends' handshake nonces: keys.c), so the sequence number alone is
 * the nonce.
 *
 * csum_start, when not 0, says that the inner packet's TCP or UDP checksum
 * holds only its pseudo-header sum, as the sender's stack left it for
 * checksum offload: the sum starts csum_start bytes into the inner packet
 * and is stored csum_offset bytes after that. The receiver hands the
 * packet up as CHECKSUM_PARTIAL, as virtio-net does for a peer's
 * VIRTIO_NET_HDR_F_NEEDS_CSUM, so neither end sums the payload for it.
 */
struct padtun_header {
	u8 version;
	u8 type;
	u8 csum_start;
	u8 csum_offset;
	__be64 session;
	__be64 seq;
} __packed;

#define PADTUN_NONCE_LEN	12
#define PADTUN_TAG_LEN		16

#define PADTUN_HS_RANDOM_LEN	32
#define PADTUN_HS_MAC_LEN	16

/* A handshake message, the same 64 bytes for its three types
 * (handshake.c):
 *
 *  - init: @timestamp is the initiator's clock in nanoseconds, higher in
 *    every init it sends (a responder refuses one not above the last it
 *    took); @random is the initiator's nonce Ni;
 *  - response: @random is the responder's nonce Nr, @timestamp echoes
 *    the init's;
 *  - confirm: @random is zero, @timestamp echoes the init's.
 *
 * @mac is HMAC-BLAKE2s under the link's pseudo-random key, truncated, over
 * the type, the transform, the sender's and receiver's ends, @timestamp
 * and every nonce of the exchange so far: Ni for an init, Ni and Nr after.
 */
struct padtun_handshake_msg {
	u8 version;
	u8 type;
	__be16 zero;
	__be32 zero2;
	__be64 timestamp;
	u8 random[PADTUN_HS_RANDOM_LEN];
	u8 mac[PADTUN_HS_MAC_LEN];
} __packed;

/* A checksum hint the receiver can act on: both numbers even (IP headers
 * and checksum fields are), the sum starting past the smallest IP header.
 * Whether it fits the packet is known only once that is decrypted.
 */
static inline bool padtun_csum_hint_ok(unsigned int start,
				       unsigned int offset)
{
	if (!start)
		return !offset;
	return start >= sizeof(struct iphdr) && start <= U8_MAX &&
	       offset <= U8_MAX && !(start & 1) && !(offset & 1);
}

/* Room for everything pushed in front of the inner packet on the way out. */
#define PADTUN_HEADROOM		(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
				 sizeof(struct udphdr) + \
				 sizeof(struct padtun_header))

/* The header's seq is a domain's number (order flow: docs/padtun.rst,
 * "Ordering domains") in its top PADTUN_DOMAIN_BITS, and that domain's
 * count in the rest. Each domain counts from 0 in each session, and the
 * whole field is the nonce, so no two domains' datagrams share one. A link
 * of one domain (order link) sends domain 0 alone: the field is its count.
 */
#define PADTUN_DOMAIN_BITS	8
#define PADTUN_SEQ_BITS		(64 - PADTUN_DOMAIN_BITS)
#define PADTUN_DOMAINS_MAX	64

/* Highest count of a domain we send or accept. */
#define PADTUN_SEQ_MAX		(BIT_ULL(PADTUN_SEQ_BITS) - 1)

/* The header's seq for count @seq of domain @domain. */
static inline u64 padtun_seq(unsigned int domain, u64 seq)
{
	return (u64)domain << PADTUN_SEQ_BITS | seq;
}

static inline unsigned int padtun_seq_domain(u64 wire)
{
	return wire >> PADTUN_SEQ_BITS;
}

static inline u64 padtun_seq_count(u64 wire)
{
	return wire & PADTUN_SEQ_MAX;
}

#endif /* _PADTUN_MESSAGES_H */
