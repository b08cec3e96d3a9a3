/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_TRANSFORM_H
#define _PADTUN_TRANSFORM_H

#include <crypto/aead.h>
#include <linux/types.h>

struct netlink_ext_ack;
struct padtun_pkt;

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

/* Set up at creation, read-only afterwards; the tfm is shared by all CPUs. */
struct padtun_transform {
	const struct padtun_transform_desc *desc;
	struct crypto_aead *aead;	/* NULL for "none" */
	unsigned int tag_len;
	unsigned int req_size;		/* aead_request + its context */
};

int padtun_transform_init(struct padtun_transform *t,
			  const struct padtun_transform_desc *desc,
			  const u8 *key, unsigned int key_len,
			  struct netlink_ext_ack *extack);
void padtun_transform_destroy(struct padtun_transform *t);

/* Both return -EINPROGRESS when the AEAD went asynchronous: pkt->crypto_done
 * is then called later. Any other value is the final result.
 */
int padtun_transform_encrypt(struct padtun_transform *t,
			     struct padtun_pkt *pkt);
int padtun_transform_decrypt(struct padtun_transform *t,
			     struct padtun_pkt *pkt);

#endif /* _PADTUN_TRANSFORM_H */
