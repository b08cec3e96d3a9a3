/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_TRANSFORM_H
#define _PADTUN_TRANSFORM_H

#include <crypto/aead.h>
#include <crypto/chacha20poly1305.h>
#include <linux/types.h>

#include "keys.h"

struct netlink_ext_ack;
struct nlattr;
struct padtun_pkt;
struct sk_buff;

#define PADTUN_KEY_MAX		32
#define PADTUN_TRANSFORM_NAME_MAX 32

struct padtun_transform_desc {
	const char *name;		/* as in IFLA_PADTUN_TRANSFORM */
	const char *alg;		/* crypto API name; NULL: no crypto */
	bool lib;			/* lib/crypto's chacha20poly1305 instead */
	u8 key_lens[3];			/* accepted key lengths, 0-terminated */
};

const struct padtun_transform_desc *padtun_transform_default(void);

const struct padtun_transform_desc *padtun_transform_find(const char *name);
int padtun_transform_check_key(const struct padtun_transform_desc *desc,
			       const struct nlattr *key,
			       struct netlink_ext_ack *extack);

/* The key of one direction and session: a crypto API tfm, or for lib/crypto
 * the key itself. Shared by all CPUs, read-only once set up.
 */
struct padtun_key {
	struct crypto_aead *aead;
	u8 raw[CHACHA20POLY1305_KEY_SIZE];
};

/* Set up at creation, read-only afterwards. The receive side's keys, one
 * per peer session, are in session.c.
 */
struct padtun_transform {
	const struct padtun_transform_desc *desc;
	struct padtun_key tx_key;	/* our session's sending key */
	unsigned int key_len;
	unsigned int tag_len;		/* 0: no crypto (none) */
	unsigned int req_size;		/* aead_request + its context; 0: none */
	u8 prk[PADTUN_PRK_LEN];		/* derives every key; wiped at destroy */
	struct padtun_key_label tx_label;	/* the peer's end: we send */
	struct padtun_key_label rx_label;	/* our end: we receive */
};

int padtun_transform_init(struct padtun_transform *t,
			  const struct padtun_transform_desc *desc,
			  const u8 *key, unsigned int key_len, u64 tx_session,
			  struct netlink_ext_ack *extack);
void padtun_transform_destroy(struct padtun_transform *t);
int padtun_transform_rx_key(struct padtun_transform *t, u64 session,
			    struct padtun_key *key);
void padtun_key_destroy(struct padtun_key *key);

/* Both return -EINPROGRESS when the AEAD went asynchronous:
 * padtun_pkt_crypt_done() is then called later. Any other value is the
 * final result.
 */
int padtun_transform_encrypt(struct padtun_transform *t,
			     struct padtun_pkt *pkt, struct sk_buff *skb);
int padtun_transform_decrypt(struct padtun_transform *t,
			     struct padtun_pkt *pkt, struct sk_buff *skb);

#endif /* _PADTUN_TRANSFORM_H */
