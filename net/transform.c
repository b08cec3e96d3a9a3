// SPDX-License-Identifier: GPL-2.0
/*
 * The per-packet crypto: an AEAD over the padtun header (associated data)
 * and the inner packet, in place in the skb, under the key of the packet's
 * direction and session (keys.c), with its sequence number as the nonce.
 */

#include <linux/netlink.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <net/netlink.h>

#include "knobs.h"
#include "messages.h"
#include "padtun.h"
#include "queueing.h"
#include "transform.h"

static const struct padtun_transform_desc padtun_transforms[] = {
	{
		.name = "chacha20poly1305",
		.alg = "rfc7539(chacha20,poly1305)",
		.key_lens = { 32 },
		.key_msg = "chacha20poly1305 takes a 32-byte key",
	},
	{
		.name = "gcm-aes",
		.alg = "gcm(aes)",
		.key_lens = { 16, 24, 32 },
		.key_msg = "gcm-aes takes a 16, 24 or 32-byte key",
	},
	{
		/* Header and sequence number only: measures the machinery. */
		.name = "none",
	},
};

/* chacha20poly1305: fast without AES instructions, and what we test most. */
const struct padtun_transform_desc *padtun_transform_default(void)
{
	return &padtun_transforms[0];
}

const struct padtun_transform_desc *padtun_transform_find(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(padtun_transforms); i++)
		if (!strcmp(name, padtun_transforms[i].name))
			return &padtun_transforms[i];
	return NULL;
}

bool padtun_transform_key_ok(const struct padtun_transform_desc *desc,
			     unsigned int len)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(desc->key_lens) && desc->key_lens[i]; i++)
		if (len == desc->key_lens[i])
			return true;
	return false;
}

/* A tfm keyed with the key of one direction and session. */
static struct crypto_aead *padtun_transform_aead(struct padtun_transform *t,
						 const struct padtun_key_label *label,
						 u64 session)
{
	u8 key[PADTUN_DERIVED_KEY_MAX];
	struct crypto_aead *aead;
	int ret;

	aead = crypto_alloc_aead(t->desc->alg, 0, 0);
	if (IS_ERR(aead))
		return aead;
	ret = crypto_aead_setauthsize(aead, PADTUN_TAG_LEN);
	if (ret)
		goto err_free;
	ret = -EINVAL;
	if (crypto_aead_ivsize(aead) != PADTUN_NONCE_LEN)
		goto err_free;
	/* The packets are sized for the first tfm's requests. */
	if (t->req_size &&
	    sizeof(struct aead_request) + crypto_aead_reqsize(aead) > t->req_size)
		goto err_free;
	padtun_kdf_expand(key, t->key_len, t->prk, t->desc->name, label,
			  session);
	ret = crypto_aead_setkey(aead, key, t->key_len);
	memzero_explicit(key, sizeof(key));
	if (ret)
		goto err_free;
	return aead;

err_free:
	crypto_free_aead(aead);
	return ERR_PTR(ret);
}

/**
 * padtun_transform_init - derive the link's keys and set up the sending one
 * @t: the transform; its labels are set already
 * @desc: the transform chosen
 * @key: the configured key; not kept (only what padtun_kdf_extract makes
 *	of it)
 * @key_len: its length, checked against @desc
 * @tx_session: the session this link sends under
 * @extack: for the reason of a failure
 *
 * Context: process (the crypto API allocates).
 */
int padtun_transform_init(struct padtun_transform *t,
			  const struct padtun_transform_desc *desc,
			  const u8 *key, unsigned int key_len, u64 tx_session,
			  struct netlink_ext_ack *extack)
{
	struct crypto_aead *aead;

	t->desc = desc;
	t->aead = NULL;
	t->tag_len = 0;
	t->req_size = 0;
	if (!desc->alg)
		return 0;

	t->key_len = key_len;
	padtun_kdf_extract(t->prk, key, key_len);
	aead = padtun_transform_aead(t, &t->tx_label, tx_session);
	if (IS_ERR(aead)) {
		memzero_explicit(t->prk, sizeof(t->prk));
		if (PTR_ERR(aead) == -ENOENT)
			NL_SET_ERR_MSG(extack, "the transform's crypto algorithm is not available");
		else
			NL_SET_ERR_MSG(extack, "the crypto algorithm refused the key");
		return PTR_ERR(aead);
	}
	t->aead = aead;
	t->tag_len = PADTUN_TAG_LEN;
	t->req_size = sizeof(struct aead_request) + crypto_aead_reqsize(aead);
	return 0;
}

/**
 * padtun_transform_rx_aead - a tfm for receiving a peer session
 * @t: the device's transform (with an AEAD)
 * @session: the peer's session
 *
 * Context: process (the crypto API allocates; gcm's setkey sleeps).
 * Return: the tfm, or an ERR_PTR.
 */
struct crypto_aead *padtun_transform_rx_aead(struct padtun_transform *t,
					     u64 session)
{
	return padtun_transform_aead(t, &t->rx_label, session);
}

void padtun_transform_destroy(struct padtun_transform *t)
{
	crypto_free_aead(t->aead);
	t->aead = NULL;
	memzero_explicit(t->prk, sizeof(t->prk));
}

/* The AEAD went asynchronous and is done now; -EINPROGRESS only says that a
 * backlogged request has started.
 */
static void padtun_transform_complete(struct crypto_async_request *base,
				      int err)
{
	struct padtun_pkt *pkt = base->data;

	if (err == -EINPROGRESS)
		return;
	local_bh_disable();
	padtun_pkt_crypt_done(pkt, err);
	local_bh_enable();
}

static int padtun_transform_run(struct padtun_pkt *pkt, struct sk_buff *skb,
				int nsg, unsigned int crypt_len, bool encrypt)
{
	struct aead_request *req = padtun_pkt_req(pkt);
	int ret;

	sg_init_table(pkt->sg, nsg);
	ret = skb_to_sgvec(skb, pkt->sg, 0, skb->len);
	if (unlikely(ret < 0))
		return ret;

	/* The key is the direction's and the session's: seq alone is new. */
	padtun_nonce(pkt->iv, PADTUN_CB(skb)->seq);
	aead_request_set_tfm(req, pkt->aead);
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_BACKLOG,
				  padtun_transform_complete, pkt);
	aead_request_set_ad(req, sizeof(struct padtun_header));
	aead_request_set_crypt(req, pkt->sg, pkt->sg, crypt_len, pkt->iv);

	if (unlikely(padtun_knob_async_crypto(pkt, encrypt)))
		return -EINPROGRESS;
	ret = encrypt ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
	/* -EBUSY with MAY_BACKLOG: queued, the callback will come. */
	return ret == -EBUSY ? -EINPROGRESS : ret;
}

/* Writable, with @tailbits of tailroom, in at most PADTUN_MAX_SG pieces:
 * returns how many, or -errno.
 */
static int padtun_skb_prepare(struct sk_buff *skb, int tailbits,
			      struct sk_buff **trailer)
{
	int nsg = skb_cow_data(skb, tailbits, trailer);

	if (likely(nsg <= PADTUN_MAX_SG))
		return nsg;
	/* Too scattered for the scatterlist in the packet: flatten it. */
	if (skb_linearize(skb))
		return -ENOMEM;
	nsg = skb_cow_data(skb, tailbits, trailer);
	return nsg <= PADTUN_MAX_SG ? nsg : -EMSGSIZE;
}

/**
 * padtun_transform_encrypt - push the header, append and fill in the tag
 * @t: the device's transform
 * @pkt: the batch: its session, request and scatterlist
 * @skb: one packet of it, at the inner packet, checksummed, with headroom;
 *	its sequence number in PADTUN_CB(skb)->seq
 */
int padtun_transform_encrypt(struct padtun_transform *t,
			     struct padtun_pkt *pkt, struct sk_buff *skb)
{
	struct sk_buff *trailer;
	struct padtun_header *hdr;
	int nsg;

	nsg = padtun_skb_prepare(skb, t->tag_len, &trailer);
	if (unlikely(nsg < 0))
		return nsg;

	hdr = skb_push(skb, sizeof(*hdr));
	hdr->version = PADTUN_VERSION;
	hdr->type = PADTUN_TYPE_DATA;
	hdr->reserved = 0;
	hdr->session = cpu_to_be64(pkt->session);
	hdr->seq = cpu_to_be64(PADTUN_CB(skb)->seq);
	if (!t->aead)
		return 0;

	pkt->aead = t->aead;
	pskb_put(skb, trailer, t->tag_len);
	return padtun_transform_run(pkt, skb, nsg,
				    skb->len - sizeof(*hdr) - t->tag_len, true);
}

/**
 * padtun_transform_decrypt - verify and decrypt in place
 * @t: the device's transform
 * @pkt: the batch: its key, request and scatterlist
 * @skb: one packet of it, at the padtun header, which is in the linear
 *	part; its sequence number in PADTUN_CB(skb)->seq
 *
 * The header and tag stay: the caller strips them once this succeeded.
 */
int padtun_transform_decrypt(struct padtun_transform *t,
			     struct padtun_pkt *pkt, struct sk_buff *skb)
{
	struct sk_buff *trailer;
	int nsg;

	if (!t->aead)
		return 0;

	nsg = padtun_skb_prepare(skb, 0, &trailer);
	if (unlikely(nsg < 0))
		return nsg;

	return padtun_transform_run(pkt, skb, nsg,
				    skb->len - sizeof(struct padtun_header),
				    false);
}
