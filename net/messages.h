/* SPDX-License-Identifier: GPL-2.0 */
/*
 * padtun wire format: see docs/padtun.rst for the byte diagram.
 */
#ifndef _PADTUN_MESSAGES_H
#define _PADTUN_MESSAGES_H

#include <linux/limits.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>

enum {
	/* 2: 64-bit sessions, a key per direction and session (keys.c).
	 * 3: the inner checksum may be left to the receiver (csum_start).
	 */
	PADTUN_VERSION = 3,
	PADTUN_TYPE_DATA = 1,
};

/* In front of every datagram; the whole header is the AEAD's associated
 * data. The session names the key the datagram was sealed with (derived
 * from the configured key, the receiver's address and port, and the
 * session: keys.c), so the sequence number alone is the nonce.
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

/* Highest sequence number we send or accept; keeps seq + 1 + window in u64. */
#define PADTUN_SEQ_MAX		(U64_MAX - (1ULL << 16))

#endif /* _PADTUN_MESSAGES_H */
