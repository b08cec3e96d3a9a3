/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sliding replay window over 64-bit sequence numbers, after RFC 6479 and
 * wireguard's counter_validate, telling "late but in window" apart.
 */
#ifndef _PADTUN_REPLAY_H
#define _PADTUN_REPLAY_H

#include <linux/spinlock.h>
#include <linux/types.h>

#define PADTUN_REPLAY_BITS	2048
#define PADTUN_REPLAY_WINDOW	(PADTUN_REPLAY_BITS - BITS_PER_LONG)

enum padtun_replay_verdict {
	PADTUN_REPLAY_NEW,		/* beyond everything seen: accept */
	PADTUN_REPLAY_LATE,		/* behind the newest, in window: accept */
	PADTUN_REPLAY_DUPLICATE,	/* seen before: drop */
	PADTUN_REPLAY_TOO_OLD,		/* left of the window: drop */
	PADTUN_REPLAY_OLD_SESSION,	/* an earlier session than the window's */
};

struct padtun_replay {
	/* serial() alone would not need it (one CPU, in order), but the
	 * unordered test knob checks from every parallel CPU at once.
	 */
	spinlock_t lock;
	bool started;
	u64 session;			/* the peer's; only a newer one restarts */
	u64 top;			/* highest accepted seq + 1, or 0 */
	unsigned long bitmap[PADTUN_REPLAY_BITS / BITS_PER_LONG];
};

void padtun_replay_init(struct padtun_replay *r);
enum padtun_replay_verdict padtun_replay_check(struct padtun_replay *r,
					       u64 session, u64 seq);
void padtun_replay_reset(struct padtun_replay *r, u64 session, u64 seq);

#endif /* _PADTUN_REPLAY_H */
