/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_TRANSFORM_H
#define _PADTUN_TRANSFORM_H

#include <crypto/aead.h>
#include <crypto/chacha20poly1305.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/types.h>

#include "keys.h"

struct netlink_ext_ack;
struct nlattr;

#define PADTUN_KEY_MAX		32
#define PADTUN_MAX_SG		(MAX_SKB_FRAGS + 2)
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

/* Set up at creation, read-only afterwards. The keys, two per session,
 * are in session.c.
 */
struct padtun_transform {
	const struct padtun_transform_desc *desc;
	unsigned int key_len;
	unsigned int tag_len;		/* 0: no crypto (none) */
	unsigned int req_size;		/* aead_request + its context; 0: none */
	u8 prk[PADTUN_PRK_LEN];		/* derives every key; wiped at destroy */
	struct padtun_key_label tx_label;	/* the peer's end: we send to */
	struct padtun_key_label rx_label;	/* our end: we receive at */
};

struct padtun_crypt;
/* The asynchronous AEAD finished the packet it was given: @err its result. */
typedef void (*padtun_crypt_done_t)(struct padtun_crypt *crypt, int err);

/* What crypting a run of packets needs, one packet after the other: a
 * batch (queueing.c) carries one, at its very end, and the crypto API's
 * request with its transform-specific context follows it in the same
 * allocation (padtun_crypt_size()). Not in skb->cb (48 bytes: struct
 * padata_priv alone fills it) nor in the headroom (skb_cow_data may move
 * the data while the request is live).
 */
struct padtun_crypt {
	const struct padtun_key *key;	/* its direction's and session's */
	padtun_crypt_done_t done;	/* set by the batch's owner */
	u8 iv[16];
	struct scatterlist sg[PADTUN_MAX_SG];
} CRYPTO_MINALIGN_ATTR;

/* The crypt and its request: what a batch reserves at its end. */
static inline size_t padtun_crypt_size(const struct padtun_transform *t)
{
	return sizeof(struct padtun_crypt) + t->req_size;
}

/* The AEAD is done with the request, which may hold key material. */
static inline void padtun_crypt_wipe(struct padtun_crypt *crypt,
				     unsigned int req_size)
{
	memzero_explicit(crypt + 1, req_size);
}

int padtun_transform_init(struct padtun_transform *t,
			  const struct padtun_transform_desc *desc,
			  const u8 *key, unsigned int key_len,
			  struct netlink_ext_ack *extack);
void padtun_transform_destroy(struct padtun_transform *t);
int padtun_transform_session_key(const struct padtun_transform *t,
				 const struct padtun_direction *dir,
				 struct padtun_key *key);
void padtun_key_destroy(struct padtun_key *key);
bool padtun_key_sync(const struct padtun_key *key);

/* Both return -EINPROGRESS when the AEAD went asynchronous: crypt->done
 * is then called later. Any other value is the final result.
 */
int padtun_transform_encrypt(const struct padtun_transform *t,
			     struct padtun_crypt *crypt, struct sk_buff *skb,
			     u64 session, u64 seq);
int padtun_transform_decrypt(const struct padtun_transform *t,
			     struct padtun_crypt *crypt, struct sk_buff *skb,
			     u64 seq);

#endif /* _PADTUN_TRANSFORM_H */
