// SPDX-License-Identifier: GPL-2.0
/*
 * Key derivation, sessions and nonces.
 *
 * The configured key is never used to encrypt. At creation it goes through
 * an HKDF extract (RFC 5869, with HMAC-BLAKE2s as in wireguard's noise.c,
 * from lib/crypto: always built in) into a pseudo-random key, kept for the
 * life of the link; the configured key itself is not kept. Each datagram
 * is sealed with
 *
 *   HKDF-expand(prk, "padtun v2 data" || transform || label || session)
 *
 * where label is the receiving end's address and port and session is the
 * sender's 64-bit session number. So a key belongs to one direction (the
 * two ends have different addresses, or ports) of one session, and the
 * receiver never holds the key its own datagrams were sealed with: a
 * datagram sent back to where it came from does not authenticate.
 *
 * Sessions only move forward: a new link takes the wall-clock time in
 * nanoseconds, or the previous session of this module plus one if that is
 * higher. The receiver never goes back to an older session, so a replayed
 * earlier session is refused once a newer one was seen.
 *
 * The nonce is the sequence number alone (0^32 || le64(seq), the layout of
 * lib/crypto's chacha20poly1305 with a u64 nonce): the key changes with
 * the direction and the session, the sequence number within a session
 * never repeats, so no (key, nonce) pair is used twice as long as no
 * session number repeats for one label: guaranteed within a module's life,
 * and across reloads and reboots as long as the clock does not go back.
 */

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <asm/unaligned.h>

#include "keys.h"
#include "padtun_test_export.h"

static const char padtun_kdf_salt[] = "padtun v2 key derivation";
static const char padtun_kdf_info[] = "padtun v2 data";

/* HMAC-BLAKE2s, as wireguard's noise.c: the key is at most one block. */
static void padtun_hmac(u8 out[BLAKE2S_HASH_SIZE], const u8 *key,
			size_t key_len, const u8 *const in[],
			const size_t in_len[], int n)
{
	u8 x_key[BLAKE2S_BLOCK_SIZE] __aligned(__alignof__(u32)) = { 0 };
	u8 i_hash[BLAKE2S_HASH_SIZE] __aligned(__alignof__(u32));
	struct blake2s_state state;
	int i;

	memcpy(x_key, key, min_t(size_t, key_len, BLAKE2S_BLOCK_SIZE));
	for (i = 0; i < BLAKE2S_BLOCK_SIZE; i++)
		x_key[i] ^= 0x36;
	blake2s_init(&state, BLAKE2S_HASH_SIZE);
	blake2s_update(&state, x_key, BLAKE2S_BLOCK_SIZE);
	for (i = 0; i < n; i++)
		blake2s_update(&state, in[i], in_len[i]);
	blake2s_final(&state, i_hash);

	for (i = 0; i < BLAKE2S_BLOCK_SIZE; i++)
		x_key[i] ^= 0x5c ^ 0x36;
	blake2s_init(&state, BLAKE2S_HASH_SIZE);
	blake2s_update(&state, x_key, BLAKE2S_BLOCK_SIZE);
	blake2s_update(&state, i_hash, BLAKE2S_HASH_SIZE);
	blake2s_final(&state, out);

	memzero_explicit(x_key, sizeof(x_key));
	memzero_explicit(i_hash, sizeof(i_hash));
}

/**
 * padtun_kdf_extract - the link's pseudo-random key from the configured key
 * @prk: the result
 * @key: the configured key (16, 24 or 32 bytes)
 * @key_len: its length
 */
void padtun_kdf_extract(u8 prk[PADTUN_PRK_LEN], const u8 *key,
			unsigned int key_len)
{
	const u8 *in[] = { key };
	const size_t in_len[] = { key_len };

	padtun_hmac(prk, padtun_kdf_salt, sizeof(padtun_kdf_salt) - 1, in,
		    in_len, 1);
}
EXPORT_SYMBOL_PADTUN_TEST(padtun_kdf_extract);

/**
 * padtun_kdf_expand - the key of one direction of one session
 * @out: the key
 * @out_len: its length, at most PADTUN_DERIVED_KEY_MAX
 * @prk: from padtun_kdf_extract()
 * @transform: the transform's name: one key never serves two algorithms
 * @label: the receiving end of the direction
 * @session: the sender's session
 */
void padtun_kdf_expand(u8 *out, unsigned int out_len,
		       const u8 prk[PADTUN_PRK_LEN], const char *transform,
		       const struct padtun_key_label *label, u64 session)
{
	static const u8 counter = 1;	/* one block: T(1) of RFC 5869 */
	u8 okm[BLAKE2S_HASH_SIZE];
	__be64 be_session = cpu_to_be64(session);
	const u8 *in[] = { padtun_kdf_info, transform, (const u8 *)label,
			   (const u8 *)&be_session, &counter };
	const size_t in_len[] = { sizeof(padtun_kdf_info), strlen(transform) + 1,
				  sizeof(*label), sizeof(be_session),
				  sizeof(counter) };

	padtun_hmac(okm, prk, PADTUN_PRK_LEN, in, in_len, ARRAY_SIZE(in));
	memcpy(out, okm, min_t(unsigned int, out_len, sizeof(okm)));
	memzero_explicit(okm, sizeof(okm));
}
EXPORT_SYMBOL_PADTUN_TEST(padtun_kdf_expand);

static atomic64_t padtun_last_session = ATOMIC64_INIT(0);

/**
 * padtun_session_next - a session number for a new sending link
 *
 * Strictly above every one this module handed out before, and normally
 * the wall-clock time in nanoseconds: a re-created link, or one created
 * after a reload or a reboot, starts a session its peer sees as newer.
 */
u64 padtun_session_next(void)
{
	s64 last = atomic64_read(&padtun_last_session);
	u64 next;

	do {
		next = max_t(u64, ktime_get_real_ns(), (u64)last + 1);
	} while (!atomic64_try_cmpxchg(&padtun_last_session, &last, next));
	return next;
}
EXPORT_SYMBOL_PADTUN_TEST(padtun_session_next);

/**
 * padtun_nonce - the 96-bit AEAD nonce of sequence number @seq
 * @iv: 12 bytes: 4 zero bytes, then @seq little-endian, as lib/crypto's
 *	chacha20poly1305 lays out its u64 nonce
 * @seq: the sequence number
 */
void padtun_nonce(u8 *iv, u64 seq)
{
	memset(iv, 0, 4);
	put_unaligned_le64(seq, iv + 4);
}
EXPORT_SYMBOL_PADTUN_TEST(padtun_nonce);
