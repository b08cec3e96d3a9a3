/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keys per direction and per session, derived from the configured key;
 * sessions that only move forward; the nonce from the sequence number.
 * See keys.c and docs/padtun.rst ("Keys, sessions and replay").
 */
#ifndef _PADTUN_KEYS_H
#define _PADTUN_KEYS_H

#include <crypto/blake2s.h>
#include <linux/types.h>

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

void padtun_kdf_extract(u8 prk[PADTUN_PRK_LEN], const u8 *key,
			unsigned int key_len);
void padtun_kdf_expand(u8 *out, unsigned int out_len,
		       const u8 prk[PADTUN_PRK_LEN], const char *transform,
		       const struct padtun_key_label *label, u64 session);
u64 padtun_session_next(void);
void padtun_nonce(u8 *iv, u64 seq);

#endif /* _PADTUN_KEYS_H */
