// SPDX-License-Identifier: GPL-2.0
/*
 * Key derivation, session names, handshake MACs and nonces.
 *
 * The configured key is never used to encrypt. At creation it goes through
 * an HKDF extract (RFC 5869, with HMAC-BLAKE2s as in wireguard's noise.c,
 * from lib/crypto: always built in) into a pseudo-random key, kept for the
 * life of the link; the configured key itself is not kept. Each datagram
 * is sealed with
 *
 *   HKDF-expand(prk, "padtun v4 data" || transform || to || from || Ni || Nr)
 *
 * where to and from are the receiving and sending ends' addresses and
 * ports and Ni, Nr the random values both ends contributed to the
 * session's handshake (handshake.c). So a key belongs to one direction of
 * one session of one pair of endpoints, the receiver never holds the key
 * its own datagrams were sealed with (a datagram sent back to where it
 * came from does not authenticate), and no end ever accepts data of a
 * session it did not put its own fresh random value into: nothing
 * captured before a restart, a re-created link or on another link using
 * the same key authenticates.
 *
 * The nonce is the sequence number alone (0^32 || le64(seq), the layout of
 * lib/crypto's chacha20poly1305 with a u64 nonce): the key changes with
 * every handshake, the sequence number within a session never repeats, so
 * no (key, nonce) pair is used twice, whatever the clock does or a
 * restored snapshot remembers (its sessions are dropped: handshake.c).
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/unaligned.h>

#include "keys.h"
#include "padtun_test_export.h"

static const char padtun_kdf_salt[] = "padtun v2 key derivation";
static const char padtun_kdf_data[] = "padtun v4 data";
static const char padtun_kdf_session[] = "padtun v4 session";
static const char padtun_kdf_handshake[] = "padtun v4 handshake";

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

/* T(1) of RFC 5869's expand, over @info || transform || the direction. */
static void padtun_kdf_expand(u8 okm[BLAKE2S_HASH_SIZE],
			      const u8 prk[PADTUN_PRK_LEN], const char *info,
			      size_t info_len, const char *transform,
			      const struct padtun_direction *dir)
{
	static const u8 counter = 1;
	const u8 *in[] = { info, transform, (const u8 *)dir->to,
			   (const u8 *)dir->from, dir->nonces->ni,
			   dir->nonces->nr, &counter };
	const size_t in_len[] = { info_len, strlen(transform) + 1,
				  sizeof(*dir->to), sizeof(*dir->from),
				  PADTUN_HS_RANDOM_LEN, PADTUN_HS_RANDOM_LEN,
				  sizeof(counter) };

	padtun_hmac(okm, prk, PADTUN_PRK_LEN, in, in_len, ARRAY_SIZE(in));
}

/**
 * padtun_kdf_key - the key of one direction of one session
 * @out: the key
 * @out_len: its length, at most PADTUN_DERIVED_KEY_MAX
 * @prk: from padtun_kdf_extract()
 * @transform: the transform's name: one key never serves two algorithms
 * @dir: the direction, and the session's nonces
 */
void padtun_kdf_key(u8 *out, unsigned int out_len,
		    const u8 prk[PADTUN_PRK_LEN], const char *transform,
		    const struct padtun_direction *dir)
{
	u8 okm[BLAKE2S_HASH_SIZE];

	padtun_kdf_expand(okm, prk, padtun_kdf_data, sizeof(padtun_kdf_data),
			  transform, dir);
	memcpy(out, okm, min_t(unsigned int, out_len, sizeof(okm)));
	memzero_explicit(okm, sizeof(okm));
}
EXPORT_SYMBOL_PADTUN_TEST(padtun_kdf_key);

/**
 * padtun_kdf_session_id - the name data of one direction of a session
 *	carries in its header
 * @prk: from padtun_kdf_extract()
 * @dir: the direction, and the session's nonces
 *
 * Not secret: it only lets the receiver pick the key without trying them.
 */
u64 padtun_kdf_session_id(const u8 prk[PADTUN_PRK_LEN],
			  const struct padtun_direction *dir)
{
	u8 okm[BLAKE2S_HASH_SIZE];

	padtun_kdf_expand(okm, prk, padtun_kdf_session,
			  sizeof(padtun_kdf_session), "", dir);
	return get_unaligned_be64(okm);
}
EXPORT_SYMBOL_PADTUN_TEST(padtun_kdf_session_id);

/**
 * padtun_hs_mac - the MAC of a handshake message
 * @mac: the result
 * @prk: from padtun_kdf_extract()
 * @transform: the link's transform: links of two transforms never agree
 * @msg: the message; its mac field is not read
 * @dir: from the message's sender to its receiver; the nonces known at
 *	this step (an init's: Nr all zero)
 */
void padtun_hs_mac(u8 mac[PADTUN_HS_MAC_LEN], const u8 prk[PADTUN_PRK_LEN],
		   const char *transform, const struct padtun_handshake_msg *msg,
		   const struct padtun_direction *dir)
{
	const u8 *in[] = { padtun_kdf_handshake, transform, (const u8 *)msg,
			   (const u8 *)dir->to, (const u8 *)dir->from,
			   dir->nonces->ni, dir->nonces->nr };
	const size_t in_len[] = { sizeof(padtun_kdf_handshake),
				  strlen(transform) + 1,
				  offsetof(struct padtun_handshake_msg, mac),
				  sizeof(*dir->to), sizeof(*dir->from),
				  PADTUN_HS_RANDOM_LEN, PADTUN_HS_RANDOM_LEN };
	u8 full[BLAKE2S_HASH_SIZE];

	padtun_hmac(full, prk, PADTUN_PRK_LEN, in, in_len, ARRAY_SIZE(in));
	memcpy(mac, full, PADTUN_HS_MAC_LEN);
	memzero_explicit(full, sizeof(full));
}
EXPORT_SYMBOL_PADTUN_TEST(padtun_hs_mac);

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
