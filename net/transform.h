/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_TRANSFORM_H
#define _PADTUN_TRANSFORM_H

#include <crypto/aead.h>
#include <linux/types.h>

#include "keys.h"

struct netlink_ext_ack;
struct padtun_pkt;
struct sk_buff;

#define PADTUN_KEY_MAX		32
#define PADTUN_TRANSFORM_NAME_MAX 32

struct padtun_transform_desc {
	const char *name;		/* as in IFLA_PADTUN_TRANSFORM */
	const char *alg;		/* crypto API name; NULL: no crypto */
	u8 key_lens[3];			/* accepted key lengths, 0-terminated */
	const char *key_msg;		/* extack text for a wrong key length */
};

const struct padtun_transform_desc *padtun_transform_default(void);

const struct padtun_transform_desc *padtun_transform_find(const char *name);
bool padtun_transform_key_ok(const struct padtun_transform_desc *desc,
			     unsigned int len);

/* Set up at creation, read-only afterwards; the tfms are shared by all
 * CPUs. The receive side's tfms, one per peer session, are in session.c.
 */
struct padtun_transform {
	const struct padtun_transform_desc *desc;
	struct crypto_aead *aead;	/* our session's sending key; NULL: none */
	unsigned int key_len;
	unsigned int tag_len;
	unsigned int req_size;		/* aead_request + its context */
	u8 prk[PADTUN_PRK_LEN];		/* derives every key; wiped at destroy */
	struct padtun_key_label tx_label;	/* the peer's end: we send */
	struct padtun_key_label rx_label;	/* our end: we receive */
};

int padtun_transform_init(struct padtun_transform *t,
			  const struct padtun_transform_desc *desc,
			  const u8 *key, unsigned int key_len, u64 tx_session,
			  struct netlink_ext_ack *extack);
void padtun_transform_destroy(struct padtun_transform *t);
struct crypto_aead *padtun_transform_rx_aead(struct padtun_transform *t,
					     u64 session);

/* Both return -EINPROGRESS when the AEAD went asynchronous:
 * padtun_pkt_crypt_done() is then called later. Any other value is the
 * final result.
 */
int padtun_transform_encrypt(struct padtun_transform *t,
			     struct padtun_pkt *pkt, struct sk_buff *skb);
int padtun_transform_decrypt(struct padtun_transform *t,
			     struct padtun_pkt *pkt, struct sk_buff *skb);

#endif /* _PADTUN_TRANSFORM_H */
