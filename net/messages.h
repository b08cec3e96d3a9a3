/* SPDX-License-Identifier: GPL-2.0 */
/*
 * padtun wire format: see docs/padtun.rst for the byte diagram.
 */
#ifndef _PADTUN_MESSAGES_H
#define _PADTUN_MESSAGES_H

#include <linux/stddef.h>
#include <linux/types.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>

enum {
	/* 2: 64-bit sessions, a key per direction and session (keys.c). */
	PADTUN_VERSION = 2,
	PADTUN_TYPE_DATA = 1,
};

/* In front of every datagram; the whole header is the AEAD's associated
 * data. The session names the key the datagram was sealed with (derived
 * from the configured key, the receiver's address and port, and the
 * session: keys.c), so the sequence number alone is the nonce.
 */
struct padtun_header {
	u8 version;
	u8 type;
	__be16 reserved;
	__be64 session;
	__be64 seq;
} __packed;

#define PADTUN_NONCE_LEN	12
#define PADTUN_TAG_LEN		16

/* Room for everything pushed in front of the inner packet on the way out. */
#define PADTUN_HEADROOM		(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
				 sizeof(struct udphdr) + \
				 sizeof(struct padtun_header))

/* Highest sequence number we send or accept; keeps seq + 1 + window in u64. */
#define PADTUN_SEQ_MAX		(U64_MAX - (1ULL << 16))

#endif /* _PADTUN_MESSAGES_H */
