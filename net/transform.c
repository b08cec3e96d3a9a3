// SPDX-License-Identifier: GPL-2.0
/*
 * The per-packet crypto: an AEAD over the padtun header (associated data)
 * and the inner packet, in place in the skb, under the key of the packet's
 * direction and session (keys.c), with its sequence number as the nonce.
 * chacha20poly1305 calls lib/crypto directly, as wireguard does: no
 * request, no template, nothing per packet to set up or wipe; gcm-aes goes
 * through the crypto API (any driver, synchronous or not).
 */

#include <crypto/chacha20poly1305.h>
#include <linux/netlink.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <net/netlink.h>

#include "knobs.h"
#include "messages.h"
#include "transform.h"

static const struct padtun_transform_desc padtun_transforms[] = {
	{
		.name = "chacha20poly1305",
		.alg = "rfc7539(chacha20,poly1305)",
		.lib = true,
		.key_lens = { 32 },
	},
	{
		.name = "gcm-aes",
		.alg = "gcm(aes)",
		.key_lens = { 16, 24, 32 },
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

static bool padtun_transform_key_ok(const struct padtun_transform_desc *desc,
				    unsigned int len)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(desc->key_lens) && desc->key_lens[i]; i++)
		if (len == desc->key_lens[i])
			return true;
	return false;
}

/**
 * padtun_transform_check_key - refuse a key @desc cannot take
 * @desc: the transform
 * @key: IFLA_PADTUN_KEY
 * @extack: for the reason of a refusal
 *
 * Return: 0, or -EINVAL with the lengths @desc takes in @extack.
 */
int padtun_transform_check_key(const struct padtun_transform_desc *desc,
			       const struct nlattr *key,
			       struct netlink_ext_ack *extack)
{
	if (!desc->alg || padtun_transform_key_ok(desc, nla_len(key)))
		return 0;
	/* NL_SET_ERR_MSG_ATTR takes a literal: one per transform. */
	if (desc->lib)
		NL_SET_ERR_MSG_ATTR(extack, key,
				    "chacha20poly1305 takes a 32-byte key");
	else
		NL_SET_ERR_MSG_ATTR(extack, key,
				    "gcm-aes takes a 16, 24 or 32-byte key");
	return -EINVAL;
}

/* A tfm keyed with @raw. */
static struct crypto_aead *
padtun_transform_aead(const struct padtun_transform *t, const u8 *raw)
{
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
	/* The batches are sized for the first tfm's requests. */
	if (t->req_size &&
	    sizeof(struct aead_request) + crypto_aead_reqsize(aead) > t->req_size)
		goto err_free;
	ret = crypto_aead_setkey(aead, raw, t->key_len);
	if (ret)
		goto err_free;
	return aead;

err_free:
	crypto_free_aead(aead);
	return ERR_PTR(ret);
}

/**
 * padtun_transform_session_key - the key of one direction of a session
 * @t: the device's transform
 * @dir: the direction and the session's nonces
 * @key: filled in; padtun_key_destroy() frees it. lib/crypto keeps the key
 *	as it is, the crypto API in a tfm; none has none.
 *
 * Context: process (the crypto API allocates; gcm's setkey sleeps).
 */
int padtun_transform_session_key(const struct padtun_transform *t,
				 const struct padtun_direction *dir,
				 struct padtun_key *key)
{
	struct crypto_aead *aead;

	key->aead = NULL;
	if (!t->desc->alg)
		return 0;
	padtun_kdf_key(key->raw, t->key_len, t->prk, t->desc->name, dir);
	if (t->desc->lib)
		return 0;
	aead = padtun_transform_aead(t, key->raw);
	memzero_explicit(key->raw, sizeof(key->raw));
	if (IS_ERR(aead))
		return PTR_ERR(aead);
	key->aead = aead;
	return 0;
}

/**
 * padtun_key_destroy - free a key's tfm and wipe it
 * @key: from padtun_transform_session_key()
 */
void padtun_key_destroy(struct padtun_key *key)
{
	crypto_free_aead(key->aead);
	key->aead = NULL;
	memzero_explicit(key->raw, sizeof(key->raw));
}

/**
 * padtun_key_sync - whether crypting with @key is done when the call returns
 * @key: a session key
 *
 * lib/crypto's and none's always are; a tfm's unless its algorithm may
 * complete later (CRYPTO_ALG_ASYNC, a hardware driver or cryptd).
 */
bool padtun_key_sync(const struct padtun_key *key)
{
	return !key->aead ||
	       !(crypto_aead_alg(key->aead)->base.cra_flags & CRYPTO_ALG_ASYNC);
}

/* The crypto API's algorithm exists and takes our key length: a link
 * that could never make a session is refused at creation. Its request
 * size sizes the batches (keys of later sessions are checked against it).
 */
static int padtun_transform_probe(struct padtun_transform *t)
{
	static const u8 zero[PADTUN_KEY_MAX];
	struct crypto_aead *aead;

	if (t->desc->lib)
		return 0;
	aead = padtun_transform_aead(t, zero);
	if (IS_ERR(aead))
		return PTR_ERR(aead);
	t->req_size = sizeof(struct aead_request) + crypto_aead_reqsize(aead);
	crypto_free_aead(aead);
	return 0;
}

/**
 * padtun_transform_init - keep what derives the link's keys, check the
 *	algorithm
 * @t: the transform; its labels are set already
 * @desc: the transform chosen
 * @key: the configured key, or NULL (none); not kept (only what
 *	padtun_kdf_extract makes of it, which also authenticates the
 *	handshake)
 * @key_len: its length, checked against @desc
 * @extack: for the reason of a failure
 *
 * Context: process (the crypto API allocates).
 */
int padtun_transform_init(struct padtun_transform *t,
			  const struct padtun_transform_desc *desc,
			  const u8 *key, unsigned int key_len,
			  struct netlink_ext_ack *extack)
{
	int ret;

	t->desc = desc;
	t->tag_len = 0;
	t->req_size = 0;
	t->key_len = key_len;
	padtun_kdf_extract(t->prk, key, key_len);
	if (!desc->alg)
		return 0;

	ret = padtun_transform_probe(t);
	if (ret) {
		memzero_explicit(t->prk, sizeof(t->prk));
		if (ret == -ENOENT)
			NL_SET_ERR_MSG(extack, "the transform's crypto algorithm is not available");
		else
			NL_SET_ERR_MSG(extack, "the crypto algorithm refused the key");
		return ret;
	}
	t->tag_len = PADTUN_TAG_LEN;
	return 0;
}

void padtun_transform_destroy(struct padtun_transform *t)
{
	memzero_explicit(t->prk, sizeof(t->prk));
}

/* The AEAD went asynchronous and is done now; -EINPROGRESS only says that a
 * backlogged request has started.
 */
static void padtun_transform_complete(struct crypto_async_request *base,
				      int err)
{
	struct padtun_crypt *crypt = base->data;

	if (err == -EINPROGRESS)
		return;
	local_bh_disable();
	crypt->done(crypt, err);
	local_bh_enable();
}

/* The crypto API: the header is the associated data at the start of the
 * scatterlist; @crypt_len bytes follow it (the tag not counted).
 */
static int padtun_transform_run(struct padtun_crypt *crypt,
				struct sk_buff *skb, int nsg, u64 seq,
				unsigned int crypt_len, bool encrypt)
{
	struct aead_request *req = (struct aead_request *)(crypt + 1);
	int ret;

	sg_init_table(crypt->sg, nsg);
	ret = skb_to_sgvec(skb, crypt->sg, 0, skb->len);
	if (unlikely(ret < 0))
		return ret;

	/* The key is the direction's and the session's: seq alone is new. */
	padtun_nonce(crypt->iv, seq);
	aead_request_set_tfm(req, crypt->key->aead);
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_BACKLOG,
				  padtun_transform_complete, crypt);
	aead_request_set_ad(req, sizeof(struct padtun_header));
	aead_request_set_crypt(req, crypt->sg, crypt->sg, crypt_len, crypt->iv);

	if (unlikely(padtun_knob_async_crypto(req, encrypt)))
		return -EINPROGRESS;
	ret = encrypt ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
	/* -EBUSY with MAY_BACKLOG: queued, the callback will come. */
	return ret == -EBUSY ? -EINPROGRESS : ret;
}

/* lib/crypto: the header, linear at skb->data, is the associated data;
 * the scatterlist covers what follows it, @crypt_len bytes and the tag.
 * Its 64-bit nonce is the sequence number, laid out as padtun_nonce()
 * lays the crypto API's: the two agree on the wire.
 */
static int padtun_transform_lib(struct padtun_crypt *crypt,
				struct sk_buff *skb, int nsg, u64 seq,
				unsigned int crypt_len, bool encrypt)
{
	const unsigned int ad_len = sizeof(struct padtun_header);
	int ret;

	sg_init_table(crypt->sg, nsg);
	ret = skb_to_sgvec(skb, crypt->sg, ad_len, skb->len - ad_len);
	if (unlikely(ret < 0))
		return ret;
	if (encrypt)
		return chacha20poly1305_encrypt_sg_inplace(crypt->sg, crypt_len,
							   skb->data, ad_len,
							   seq, crypt->key->raw) ?
		       0 : -EINVAL;
	return chacha20poly1305_decrypt_sg_inplace(crypt->sg,
						   crypt_len + PADTUN_TAG_LEN,
						   skb->data, ad_len, seq,
						   crypt->key->raw) ? 0 : -EBADMSG;
}

static int padtun_transform_crypt(const struct padtun_transform *t,
				  struct padtun_crypt *crypt,
				  struct sk_buff *skb, int nsg, u64 seq,
				  bool encrypt)
{
	unsigned int crypt_len = skb->len - sizeof(struct padtun_header) -
				 t->tag_len;

	if (t->desc->lib)
		return padtun_transform_lib(crypt, skb, nsg, seq, crypt_len,
					    encrypt);
	return padtun_transform_run(crypt, skb, nsg, seq,
				    encrypt ? crypt_len : crypt_len + t->tag_len,
				    encrypt);
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
 * @crypt: the batch's: request (crypto API) and scatterlist
 * @skb: the packet, at the inner packet, with headroom; its checksum
 *	complete or left partial for the header's hint
 * @session: the name of our sending session, for the header
 * @seq: the packet's sequence number
 *
 * crypt->key is the session's sending key.
 */
int padtun_transform_encrypt(const struct padtun_transform *t,
			     struct padtun_crypt *crypt, struct sk_buff *skb,
			     u64 session, u64 seq)
{
	u8 csum_start = 0, csum_offset = 0;
	struct sk_buff *trailer = NULL;
	struct padtun_header *hdr;
	int nsg = 0;

	if (skb->ip_summed == CHECKSUM_PARTIAL) {
		csum_start = skb_checksum_start_offset(skb);
		csum_offset = skb->csum_offset;
	}

	/* none writes only the header, into the headroom. */
	if (t->tag_len) {
		nsg = padtun_skb_prepare(skb, t->tag_len, &trailer);
		if (unlikely(nsg < 0))
			return nsg;
	}

	hdr = skb_push(skb, sizeof(*hdr));
	hdr->version = PADTUN_VERSION;
	hdr->type = PADTUN_TYPE_DATA;
	hdr->csum_start = csum_start;
	hdr->csum_offset = csum_offset;
	hdr->session = cpu_to_be64(session);
	hdr->seq = cpu_to_be64(seq);
	if (!t->tag_len)
		return 0;

	pskb_put(skb, trailer, t->tag_len);
	return padtun_transform_crypt(t, crypt, skb, nsg, seq, true);
}

/**
 * padtun_transform_decrypt - verify and decrypt in place
 * @t: the device's transform
 * @crypt: the batch's: its session's key, request (crypto API) and
 *	scatterlist
 * @skb: the datagram, at the padtun header, which is in the linear part
 * @seq: its sequence number, from the header
 *
 * The header and tag stay: the caller strips them once this succeeded.
 */
int padtun_transform_decrypt(const struct padtun_transform *t,
			     struct padtun_crypt *crypt, struct sk_buff *skb,
			     u64 seq)
{
	struct sk_buff *trailer;
	int nsg;

	if (!t->tag_len)
		return 0;

	nsg = padtun_skb_prepare(skb, 0, &trailer);
	if (unlikely(nsg < 0))
		return nsg;

	return padtun_transform_crypt(t, crypt, skb, nsg, seq, false);
}
