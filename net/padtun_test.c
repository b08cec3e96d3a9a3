// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for padtun's replay window (replay.c), key derivation
 * (keys.c), nonce layout (transform.c), the checksum hint's bounds and
 * the seq field's domains (messages.h), built for test kernels only
 * (PADNET_TEST=y and CONFIG_KUNIT) and run by
 * selftests/scenarios/padtun-kunit.sh.
 */

#include <crypto/aead.h>
#include <crypto/chacha20poly1305.h>
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "keys.h"
#include "messages.h"
#include "replay.h"

#define S1	1000
#define S2	2000

static struct padtun_replay *replay_new(struct kunit *test)
{
	struct padtun_replay *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	padtun_replay_init(r);
	return r;
}

static enum padtun_replay_verdict check(struct padtun_replay *r, u64 session,
					u64 seq)
{
	return padtun_replay_check(r, session, seq);
}

/* Every number above the highest seen is new, whatever the gaps. */
static void replay_in_order(struct kunit *test)
{
	struct padtun_replay *r = replay_new(test);
	u64 seq;

	for (seq = 0; seq < 3 * PADTUN_REPLAY_BITS; seq++)
		KUNIT_EXPECT_EQ(test, check(r, S1, seq), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(r, S1, seq + 100), PADTUN_REPLAY_NEW);
}

/* Behind the newest but in the window, not seen: late, accepted once. */
static void replay_late_in_window(struct kunit *test)
{
	struct padtun_replay *r = replay_new(test);
	u64 top = 3000, seq;

	KUNIT_EXPECT_EQ(test, check(r, S1, top), PADTUN_REPLAY_NEW);
	for (seq = top - 1; seq + PADTUN_REPLAY_WINDOW >= top; seq -= 97)
		KUNIT_EXPECT_EQ(test, check(r, S1, seq), PADTUN_REPLAY_LATE);
	/* The oldest number the window still holds. */
	KUNIT_EXPECT_EQ(test, check(r, S1, top - PADTUN_REPLAY_WINDOW),
			PADTUN_REPLAY_LATE);
	KUNIT_EXPECT_EQ(test, check(r, S1, top - PADTUN_REPLAY_WINDOW),
			PADTUN_REPLAY_DUPLICATE);
}

/* Seen before: refused, new, late or at the top of the window alike. */
static void replay_duplicates(struct kunit *test)
{
	struct padtun_replay *r = replay_new(test);
	u64 seq;

	for (seq = 0; seq < 200; seq += 2)
		KUNIT_EXPECT_EQ(test, check(r, S1, seq), PADTUN_REPLAY_NEW);
	for (seq = 0; seq < 200; seq += 2)
		KUNIT_EXPECT_EQ(test, check(r, S1, seq),
				PADTUN_REPLAY_DUPLICATE);
	for (seq = 1; seq < 198; seq += 2) {
		KUNIT_EXPECT_EQ(test, check(r, S1, seq), PADTUN_REPLAY_LATE);
		KUNIT_EXPECT_EQ(test, check(r, S1, seq),
				PADTUN_REPLAY_DUPLICATE);
	}
}

/* Left of the window: too old, even if never seen. */
static void replay_far_behind(struct kunit *test)
{
	struct padtun_replay *r = replay_new(test);
	u64 top = 5 * PADTUN_REPLAY_BITS;

	KUNIT_EXPECT_EQ(test, check(r, S1, top), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(r, S1, top - PADTUN_REPLAY_WINDOW - 1),
			PADTUN_REPLAY_TOO_OLD);
	KUNIT_EXPECT_EQ(test, check(r, S1, 0), PADTUN_REPLAY_TOO_OLD);
	/* A jump beyond the whole ring forgets everything below it. */
	KUNIT_EXPECT_EQ(test, check(r, S1, top + 10 * PADTUN_REPLAY_BITS),
			PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(r, S1, top), PADTUN_REPLAY_TOO_OLD);
}

/* none's window, pinned at the top by one made-up datagram, follows the
 * peer back: the reset number is new, what follows it too, and it is
 * remembered as seen.
 */
static void replay_reset_follows_back(struct kunit *test)
{
	struct padtun_replay *r = replay_new(test);
	u64 seq;

	for (seq = 0; seq < 10; seq++)
		KUNIT_EXPECT_EQ(test, check(r, S1, seq), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(r, S1, PADTUN_SEQ_MAX), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(r, S1, 10), PADTUN_REPLAY_TOO_OLD);
	padtun_replay_reset(r, S1, 10);
	KUNIT_EXPECT_EQ(test, check(r, S1, 10), PADTUN_REPLAY_DUPLICATE);
	KUNIT_EXPECT_EQ(test, check(r, S1, 11), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(r, S1, 9), PADTUN_REPLAY_LATE);
	KUNIT_EXPECT_EQ(test, check(r, S1, PADTUN_SEQ_MAX), PADTUN_REPLAY_NEW);
}

/* A newer session restarts the window; an older one never comes back. */
static void replay_session_change(struct kunit *test)
{
	struct padtun_replay *r = replay_new(test);
	u64 seq;

	for (seq = 0; seq < 10; seq++)
		KUNIT_EXPECT_EQ(test, check(r, S1, seq), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(r, S2, 0), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(r, S2, 0), PADTUN_REPLAY_DUPLICATE);
	/* The attack of issue 13: alternating sessions re-admit nothing. */
	for (seq = 0; seq < 50; seq++) {
		KUNIT_EXPECT_EQ(test, check(r, S1, seq % 10),
				PADTUN_REPLAY_OLD_SESSION);
		KUNIT_EXPECT_EQ(test, check(r, S2, 0),
				PADTUN_REPLAY_DUPLICATE);
	}
	/* Old-session numbers never seen are refused too. */
	KUNIT_EXPECT_EQ(test, check(r, S1, 1000), PADTUN_REPLAY_OLD_SESSION);
	KUNIT_EXPECT_EQ(test, check(r, S2, 1), PADTUN_REPLAY_NEW);
}

/* The ring wraps (bit index and word index) and the sequence space ends. */
static void replay_wrap_at_top(struct kunit *test)
{
	struct padtun_replay *r = replay_new(test);
	u64 base = 7 * PADTUN_REPLAY_BITS - 3, seq;

	/* Across the ring's end, one word at a time, then in a jump. */
	for (seq = base; seq < base + PADTUN_REPLAY_BITS + 70; seq++)
		KUNIT_EXPECT_EQ(test, check(r, S1, seq), PADTUN_REPLAY_NEW);
	for (seq = base + PADTUN_REPLAY_BITS + 69;
	     seq > base + PADTUN_REPLAY_BITS - 60; seq--)
		KUNIT_EXPECT_EQ(test, check(r, S1, seq),
				PADTUN_REPLAY_DUPLICATE);
	seq = base + PADTUN_REPLAY_BITS + 69;	/* the highest so far */
	KUNIT_EXPECT_EQ(test, check(r, S1, seq + PADTUN_REPLAY_WINDOW),
			PADTUN_REPLAY_NEW);
	/* Now exactly at the window's left edge: still remembered. */
	KUNIT_EXPECT_EQ(test, check(r, S1, seq), PADTUN_REPLAY_DUPLICATE);
	KUNIT_EXPECT_EQ(test, check(r, S1, seq - 1), PADTUN_REPLAY_TOO_OLD);
	KUNIT_EXPECT_EQ(test, check(r, S1, seq + 1), PADTUN_REPLAY_LATE);

	/* The highest number a sender uses and its neighbours. */
	KUNIT_EXPECT_EQ(test, check(r, S2, PADTUN_SEQ_MAX - 1),
			PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(r, S2, PADTUN_SEQ_MAX), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(r, S2, PADTUN_SEQ_MAX - 2),
			PADTUN_REPLAY_LATE);
	KUNIT_EXPECT_EQ(test, check(r, S2, PADTUN_SEQ_MAX),
			PADTUN_REPLAY_DUPLICATE);
	KUNIT_EXPECT_EQ(test, check(r, S2, PADTUN_SEQ_MAX - 1),
			PADTUN_REPLAY_DUPLICATE);
	KUNIT_EXPECT_EQ(test, check(r, S2, 0), PADTUN_REPLAY_TOO_OLD);
}

/* Order flow's domains: one window each, so the same counts of another
 * domain are new, and a newer session restarts a domain's window alone
 * (the other keeps refusing what it saw).
 */
static void replay_per_domain(struct kunit *test)
{
	struct padtun_replay *d0 = replay_new(test), *d1 = replay_new(test);
	u64 seq;

	for (seq = 0; seq < 100; seq++) {
		KUNIT_EXPECT_EQ(test, check(d0, S1, seq), PADTUN_REPLAY_NEW);
		KUNIT_EXPECT_EQ(test, check(d1, S1, seq), PADTUN_REPLAY_NEW);
	}
	KUNIT_EXPECT_EQ(test, check(d0, S2, 0), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(d0, S1, 100), PADTUN_REPLAY_OLD_SESSION);
	/* Domain 1 has seen no data of S2 yet: S1's still counts there. */
	KUNIT_EXPECT_EQ(test, check(d1, S1, 100), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(d1, S1, 99), PADTUN_REPLAY_DUPLICATE);
	KUNIT_EXPECT_EQ(test, check(d1, S2, 0), PADTUN_REPLAY_NEW);
	KUNIT_EXPECT_EQ(test, check(d1, S1, 101), PADTUN_REPLAY_OLD_SESSION);
}

/* The header's seq: the domain in the top 8 bits, its count below, so
 * that domain 0 is the plain count and no two domains share a nonce.
 */
static void seq_domain_encoding(struct kunit *test)
{
	u8 n1[PADTUN_NONCE_LEN], n2[PADTUN_NONCE_LEN];
	unsigned int d;
	u64 wire;

	KUNIT_EXPECT_EQ(test, padtun_seq(0, 12345), 12345ULL);
	for (d = 0; d < PADTUN_DOMAINS_MAX; d++) {
		wire = padtun_seq(d, PADTUN_SEQ_MAX);
		KUNIT_EXPECT_EQ(test, padtun_seq_domain(wire), d);
		KUNIT_EXPECT_EQ(test, padtun_seq_count(wire), PADTUN_SEQ_MAX);
		/* A domain's last number is just below the next's first. */
		KUNIT_EXPECT_EQ(test, wire + 1, padtun_seq(d + 1, 0));
		KUNIT_EXPECT_EQ(test, padtun_seq_count(padtun_seq(d, 7)), 7ULL);
	}
	KUNIT_EXPECT_EQ(test, padtun_seq_domain(U64_MAX), 255U);

	padtun_nonce(n1, padtun_seq(1, 5));
	padtun_nonce(n2, padtun_seq(2, 5));
	KUNIT_EXPECT_NE(test, memcmp(n1, n2, sizeof(n1)), 0);
	padtun_nonce(n2, padtun_seq(0, 5));
	KUNIT_EXPECT_NE(test, memcmp(n1, n2, sizeof(n1)), 0);
}

static const u8 test_key[32] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};

static void label4(struct padtun_key_label *l, u8 last, u16 port)
{
	memset(l, 0, sizeof(*l));
	l->family = 4;
	l->port = htons(port);
	l->addr[0] = 198;
	l->addr[1] = 18;
	l->addr[3] = last;
}

static void nonces_fill(struct padtun_hs_nonces *n, u8 ni, u8 nr)
{
	memset(n->ni, ni, sizeof(n->ni));
	memset(n->nr, nr, sizeof(n->nr));
}

static void key_of(u8 key[32], const u8 *prk, const char *transform,
		   const struct padtun_key_label *to,
		   const struct padtun_key_label *from,
		   const struct padtun_hs_nonces *n)
{
	const struct padtun_direction dir = { .to = to, .from = from,
					      .nonces = n };

	padtun_kdf_key(key, 32, prk, transform, &dir);
}

/* One configured key, two ends (198.18.0.1 and .2, port 5555 on both),
 * two handshakes: the four keys differ, so with the sequence number as
 * the nonce no (key, nonce) pair repeats; both ends of a direction derive
 * the same key; another port, another transform, another key.
 */
static void keys_directions_and_sessions(struct kunit *test)
{
	struct padtun_key_label a, b;
	struct padtun_hs_nonces h1, h2;
	u8 prk_a[PADTUN_PRK_LEN], prk_b[PADTUN_PRK_LEN];
	u8 keys[4][32], again[32];
	u8 n1[PADTUN_NONCE_LEN], n2[PADTUN_NONCE_LEN];
	const struct padtun_direction dir = { .to = &b, .from = &a,
					      .nonces = &h1 };
	u64 id;
	int i, j;

	label4(&a, 1, 5555);
	label4(&b, 2, 5555);
	nonces_fill(&h1, 1, 2);
	nonces_fill(&h2, 3, 4);
	padtun_kdf_extract(prk_a, test_key, sizeof(test_key));
	padtun_kdf_extract(prk_b, test_key, sizeof(test_key));
	KUNIT_EXPECT_EQ(test, memcmp(prk_a, prk_b, sizeof(prk_a)), 0);
	KUNIT_EXPECT_NE(test, memcmp(prk_a, test_key, sizeof(prk_a)), 0);

	key_of(keys[0], prk_a, "chacha20poly1305", &b, &a, &h1);
	key_of(keys[1], prk_a, "chacha20poly1305", &a, &b, &h1);
	key_of(keys[2], prk_a, "chacha20poly1305", &b, &a, &h2);
	key_of(keys[3], prk_a, "chacha20poly1305", &a, &b, &h2);
	for (i = 0; i < 4; i++)
		for (j = i + 1; j < 4; j++)
			KUNIT_EXPECT_NE_MSG(test, memcmp(keys[i], keys[j], 32), 0,
					    "keys %d and %d are equal", i, j);

	/* The receiver of a->b (b) derives a's sending key. */
	key_of(again, prk_b, "chacha20poly1305", &b, &a, &h1);
	KUNIT_EXPECT_EQ(test, memcmp(again, keys[0], 32), 0);
	/* Another link with the same key between the same hosts, on another
	 * port, even with the same nonces: another key and another name, so
	 * its datagrams are refused here as of an unknown session.
	 */
	id = padtun_kdf_session_id(prk_a, &dir);
	label4(&b, 2, 5556);
	key_of(again, prk_a, "chacha20poly1305", &b, &a, &h1);
	KUNIT_EXPECT_NE(test, memcmp(again, keys[0], 32), 0);
	KUNIT_EXPECT_NE(test, padtun_kdf_session_id(prk_a, &dir), id);
	label4(&b, 2, 5555);
	key_of(again, prk_a, "gcm-aes", &b, &a, &h1);
	KUNIT_EXPECT_NE(test, memcmp(again, keys[0], 32), 0);

	/* The nonce is the sequence number alone, as lib/crypto lays it. */
	padtun_nonce(n1, 0x0102030405060708ULL);
	KUNIT_EXPECT_EQ(test, n1[0] | n1[1] | n1[2] | n1[3], 0);
	KUNIT_EXPECT_EQ(test, n1[4], 0x08);
	KUNIT_EXPECT_EQ(test, n1[11], 0x01);
	padtun_nonce(n2, 0x0102030405060709ULL);
	KUNIT_EXPECT_NE(test, memcmp(n1, n2, sizeof(n1)), 0);
}

/* A restored snapshot (or a re-created link, or a rebooted peer) replays
 * one end's state, its nonce included; the other end's fresh nonce alone
 * makes every key and session name of the new session new: no (key,
 * nonce) pair of the old session can come back.
 */
static void keys_one_fresh_nonce_suffices(struct kunit *test)
{
	struct padtun_hs_nonces old, restored;
	struct padtun_key_label a, b;
	u8 prk[PADTUN_PRK_LEN], k_old[32], k_new[32];
	struct padtun_direction dir = { .to = &b, .from = &a };
	u64 id_old;
	int role;

	label4(&a, 1, 5555);
	label4(&b, 2, 5555);
	padtun_kdf_extract(prk, test_key, sizeof(test_key));
	get_random_bytes(&old, sizeof(old));
	for (role = 0; role < 2; role++) {
		restored = old;
		/* Role 0: the initiator restored, the responder fresh. */
		get_random_bytes(role ? restored.ni : restored.nr,
				 PADTUN_HS_RANDOM_LEN);
		key_of(k_old, prk, "gcm-aes", &b, &a, &old);
		key_of(k_new, prk, "gcm-aes", &b, &a, &restored);
		KUNIT_EXPECT_NE(test, memcmp(k_old, k_new, 32), 0);
		dir.nonces = &old;
		id_old = padtun_kdf_session_id(prk, &dir);
		dir.nonces = &restored;
		KUNIT_EXPECT_NE(test, padtun_kdf_session_id(prk, &dir), id_old);
	}
}

/* A handshake MAC holds for its direction only: an init sent back to its
 * sender, or one with a bit changed, does not verify.
 */
static void handshake_mac_binds_direction(struct kunit *test)
{
	struct padtun_handshake_msg msg = { .version = PADTUN_VERSION,
					    .type = PADTUN_TYPE_INIT };
	struct padtun_hs_nonces n = { };
	struct padtun_key_label a, b;
	struct padtun_direction ab = { .to = &b, .from = &a, .nonces = &n };
	struct padtun_direction ba = { .to = &a, .from = &b, .nonces = &n };
	u8 prk[PADTUN_PRK_LEN], mac[PADTUN_HS_MAC_LEN];

	label4(&a, 1, 5555);
	label4(&b, 2, 5555);
	padtun_kdf_extract(prk, test_key, sizeof(test_key));
	get_random_bytes(n.ni, sizeof(n.ni));
	memcpy(msg.random, n.ni, sizeof(n.ni));
	padtun_hs_mac(msg.mac, prk, "chacha20poly1305", &msg, &ab);

	padtun_hs_mac(mac, prk, "chacha20poly1305", &msg, &ab);
	KUNIT_EXPECT_EQ(test, memcmp(mac, msg.mac, sizeof(mac)), 0);
	padtun_hs_mac(mac, prk, "chacha20poly1305", &msg, &ba);
	KUNIT_EXPECT_NE(test, memcmp(mac, msg.mac, sizeof(mac)), 0);
	padtun_hs_mac(mac, prk, "gcm-aes", &msg, &ab);
	KUNIT_EXPECT_NE(test, memcmp(mac, msg.mac, sizeof(mac)), 0);
	msg.timestamp ^= cpu_to_be64(1);
	padtun_hs_mac(mac, prk, "chacha20poly1305", &msg, &ab);
	KUNIT_EXPECT_NE(test, memcmp(mac, msg.mac, sizeof(mac)), 0);
}

/* chacha20poly1305 is sealed with lib/crypto and a 64-bit nonce (the
 * sequence number); a peer that opens it with the crypto API's
 * rfc7539(chacha20,poly1305) and padtun_nonce() must agree, and so the
 * wire version did not change with the switch.
 */
static void nonce_lib_matches_crypto_api(struct kunit *test)
{
	const u64 seq = 0x1122334455667788ULL;
	const size_t ad_len = sizeof(struct padtun_header), len = 300;
	u8 key[CHACHA20POLY1305_KEY_SIZE], iv[PADTUN_NONCE_LEN];
	struct crypto_aead *aead;
	struct aead_request *req;
	struct scatterlist sg;
	u8 *buf, *plain;
	int i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = i * 7 + 1;
	buf = kunit_kzalloc(test, ad_len + len + CHACHA20POLY1305_AUTHTAG_SIZE,
			    GFP_KERNEL);
	plain = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	for (i = 0; i < ad_len + len; i++)
		buf[i] = i;
	memcpy(plain, buf + ad_len, len);

	/* lib/crypto's output: ciphertext then tag, after the header. */
	chacha20poly1305_encrypt(buf + ad_len, buf + ad_len, len, buf, ad_len,
				 seq, key);

	aead = crypto_alloc_aead("rfc7539(chacha20,poly1305)", 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(aead));
	KUNIT_ASSERT_EQ(test, crypto_aead_setauthsize(aead, PADTUN_TAG_LEN), 0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setkey(aead, key, sizeof(key)), 0);
	req = aead_request_alloc(aead, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	padtun_nonce(iv, seq);
	sg_init_one(&sg, buf, ad_len + len + CHACHA20POLY1305_AUTHTAG_SIZE);
	aead_request_set_callback(req, 0, NULL, NULL);
	aead_request_set_ad(req, ad_len);
	aead_request_set_crypt(req, &sg, &sg,
			       len + CHACHA20POLY1305_AUTHTAG_SIZE, iv);
	KUNIT_EXPECT_EQ(test, crypto_aead_decrypt(req), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + ad_len, plain, len), 0);

	/* Another nonce must not open it: the check above could not pass
	 * by accident.
	 */
	chacha20poly1305_encrypt(buf + ad_len, plain, len, buf, ad_len, seq,
				 key);
	padtun_nonce(iv, seq + 1);
	KUNIT_EXPECT_EQ(test, crypto_aead_decrypt(req), -EBADMSG);

	aead_request_free(req);
	crypto_free_aead(aead);
}

/* The checksum hint the header check accepts: what a TCP or UDP packet
 * over IPv4 or IPv6 can carry, and nothing the receiver could not hand to
 * skb_partial_csum_set() as it is.
 */
static void csum_hint_bounds(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, padtun_csum_hint_ok(0, 0));	/* complete */
	KUNIT_EXPECT_TRUE(test, padtun_csum_hint_ok(20, 16));	/* IPv4 TCP */
	KUNIT_EXPECT_TRUE(test, padtun_csum_hint_ok(60, 6));	/* options, UDP */
	KUNIT_EXPECT_TRUE(test, padtun_csum_hint_ok(40, 16));	/* IPv6 TCP */
	KUNIT_EXPECT_TRUE(test, padtun_csum_hint_ok(254, 254));

	KUNIT_EXPECT_FALSE(test, padtun_csum_hint_ok(0, 16));	/* no start */
	KUNIT_EXPECT_FALSE(test, padtun_csum_hint_ok(18, 16));	/* in the IP header */
	KUNIT_EXPECT_FALSE(test, padtun_csum_hint_ok(21, 16));	/* odd */
	KUNIT_EXPECT_FALSE(test, padtun_csum_hint_ok(20, 7));
	KUNIT_EXPECT_FALSE(test, padtun_csum_hint_ok(256, 16));	/* not a u8 */
	KUNIT_EXPECT_FALSE(test, padtun_csum_hint_ok(20, 256));
}

static struct kunit_case padtun_test_cases[] = {
	KUNIT_CASE(replay_in_order),
	KUNIT_CASE(replay_late_in_window),
	KUNIT_CASE(replay_duplicates),
	KUNIT_CASE(replay_far_behind),
	KUNIT_CASE(replay_reset_follows_back),
	KUNIT_CASE(replay_session_change),
	KUNIT_CASE(replay_wrap_at_top),
	KUNIT_CASE(replay_per_domain),
	KUNIT_CASE(seq_domain_encoding),
	KUNIT_CASE(keys_directions_and_sessions),
	KUNIT_CASE(keys_one_fresh_nonce_suffices),
	KUNIT_CASE(handshake_mac_binds_direction),
	KUNIT_CASE(nonce_lib_matches_crypto_api),
	KUNIT_CASE(csum_hint_bounds),
	{}
};

static struct kunit_suite padtun_test_suite = {
	.name = "padtun",
	.test_cases = padtun_test_cases,
};

kunit_test_suite(padtun_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for padtun's replay window, keys, nonces and checksum hint");
MODULE_IMPORT_NS(PADNET_TEST);
