/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keys per direction and per session, derived from the configured key and
 * both ends' handshake nonces; handshake MACs; the nonce from the sequence
 * number. See keys.c and docs/padtun.rst ("Keys, sessions and replay").
 */
#ifndef _PADTUN_KEYS_H
#define _PADTUN_KEYS_H

#include <crypto/blake2s.h>
#include <linux/types.h>

#include "messages.h"

#define PADTUN_PRK_LEN		BLAKE2S_HASH_SIZE
#define PADTUN_DERIVED_KEY_MAX	BLAKE2S_HASH_SIZE

/* Who a key is for: the receiving end of a direction, as both ends name
 * it from their configuration (the sender: its remote address and port;
 * the receiver: its local ones). Fixed size, zero-padded.
 */
struct padtun_key_label {
	u8 family;			/* 4 or 6 */
	u8 zero;
	__be16 port;
	u8 addr[16];
} __packed;

/* What one handshake contributed: the initiator's and the responder's
 * random values.
 */
struct padtun_hs_nonces {
	u8 ni[PADTUN_HS_RANDOM_LEN];
	u8 nr[PADTUN_HS_RANDOM_LEN];
};

/* One direction of one session, as both ends name it. */
struct padtun_direction {
	const struct padtun_key_label *to;	/* the receiving end */
	const struct padtun_key_label *from;	/* the sending end */
	const struct padtun_hs_nonces *nonces;
};

void padtun_kdf_extract(u8 prk[PADTUN_PRK_LEN], const u8 *key,
			unsigned int key_len);
void padtun_kdf_key(u8 *out, unsigned int out_len,
		    const u8 prk[PADTUN_PRK_LEN], const char *transform,
		    const struct padtun_direction *dir);
u64 padtun_kdf_session_id(const u8 prk[PADTUN_PRK_LEN],
			  const struct padtun_direction *dir);
void padtun_hs_mac(u8 mac[PADTUN_HS_MAC_LEN], const u8 prk[PADTUN_PRK_LEN],
		   const char *transform, const struct padtun_handshake_msg *msg,
		   const struct padtun_direction *dir);
void padtun_nonce(u8 *iv, u64 seq);

#endif /* _PADTUN_KEYS_H */
