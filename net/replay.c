// SPDX-License-Identifier: GPL-2.0
/*
 * The receive replay window: a ring of PADTUN_REPLAY_BITS bits that moves
 * forward one word at a time, so advancing it costs at most one pass over
 * the ring (RFC 6479, as in wireguard's counter_validate).
 */

#include <linux/bitops.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "padtun_test_export.h"
#include "replay.h"

#define PADTUN_REPLAY_WORDS	(PADTUN_REPLAY_BITS / BITS_PER_LONG)

/**
 * padtun_replay_init - an empty window, no session seen yet
 * @r: the window
 */
void padtun_replay_init(struct padtun_replay *r)
{
	spin_lock_init(&r->lock);
	r->started = false;
	r->session = 0;
	r->top = 0;
	bitmap_zero(r->bitmap, PADTUN_REPLAY_BITS);
}
EXPORT_SYMBOL_PADTUN_TEST(padtun_replay_init);

/* The peer re-created its link: its sequence restarts under a newer
 * session, and only an authenticated packet gets here to say so. Sessions
 * never go back, so the window forgets only what can never be admitted
 * again.
 */
static void padtun_replay_restart(struct padtun_replay *r, u64 session)
{
	r->started = true;
	r->session = session;
	r->top = 0;
	bitmap_zero(r->bitmap, PADTUN_REPLAY_BITS);
}

/**
 * padtun_replay_check - classify a sequence number and remember it
 * @r: the window
 * @session: the sender's session from the authenticated header
 * @seq: the sequence number; the caller refused anything above
 *	PADTUN_SEQ_MAX
 *
 * A session newer than the window's restarts the window; an older one is
 * refused for good (PADTUN_REPLAY_OLD_SESSION).
 */
enum padtun_replay_verdict padtun_replay_check(struct padtun_replay *r,
					       u64 session, u64 seq)
{
	const unsigned int shift = ilog2(BITS_PER_LONG);
	enum padtun_replay_verdict verdict = PADTUN_REPLAY_LATE;
	u64 counter = seq + 1, index, index_top, i, n;

	spin_lock_bh(&r->lock);
	if (unlikely(r->started && session < r->session)) {
		verdict = PADTUN_REPLAY_OLD_SESSION;
		goto out;
	}
	if (unlikely(!r->started || session > r->session))
		padtun_replay_restart(r, session);

	if (counter + PADTUN_REPLAY_WINDOW < r->top) {
		verdict = PADTUN_REPLAY_TOO_OLD;
		goto out;
	}

	index = counter >> shift;
	if (counter > r->top) {
		index_top = r->top >> shift;
		n = min_t(u64, index - index_top, PADTUN_REPLAY_WORDS);
		for (i = 1; i <= n; i++)
			r->bitmap[(index_top + i) &
				  (PADTUN_REPLAY_WORDS - 1)] = 0;
		r->top = counter;
		verdict = PADTUN_REPLAY_NEW;
	}

	if (__test_and_set_bit(counter & (BITS_PER_LONG - 1),
			       &r->bitmap[index & (PADTUN_REPLAY_WORDS - 1)]))
		verdict = PADTUN_REPLAY_DUPLICATE;
out:
	spin_unlock_bh(&r->lock);
	return verdict;
}
EXPORT_SYMBOL_PADTUN_TEST(padtun_replay_check);

/**
 * padtun_replay_reset - restart the window at a sequence number left of
 *	it, as the newest one seen
 * @r: the window
 * @session: the sender's session from the header
 * @seq: the sequence number padtun_replay_check() found too old
 *
 * For a transform that authenticates nothing (none): there, anyone can
 * move the window to the top of the sequence space with one datagram,
 * and the peer's, all left of it, would be refused until the link is
 * re-created. A window that follows the peer back costs nothing such a
 * transform promised.
 */
void padtun_replay_reset(struct padtun_replay *r, u64 session, u64 seq)
{
	const unsigned int shift = ilog2(BITS_PER_LONG);
	u64 counter = seq + 1;

	spin_lock_bh(&r->lock);
	padtun_replay_restart(r, session);
	r->top = counter;
	__set_bit(counter & (BITS_PER_LONG - 1),
		  &r->bitmap[(counter >> shift) & (PADTUN_REPLAY_WORDS - 1)]);
	spin_unlock_bh(&r->lock);
}
EXPORT_SYMBOL_PADTUN_TEST(padtun_replay_reset);
