/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-only knobs in /sys/kernel/debug/padtun/: they exist to show that
 * the ordering holds under stress, and that the sequence checkers notice
 * when it does not. Never turn them on outside a test.
 */
#ifndef _PADTUN_KNOBS_H
#define _PADTUN_KNOBS_H

#include <linux/types.h>

struct padtun_pkt;

/* Release builds have no knobs: the stubs fold away from the datapath. */
#ifdef PADNET_TEST_HOOKS
void padtun_knobs_init(void);
void padtun_knobs_exit(void);

void padtun_knob_delay(void);
bool padtun_knob_unordered(void);
bool padtun_knob_defer_serial(struct padtun_pkt *pkt);
bool padtun_knob_async_crypto(struct padtun_pkt *pkt, bool encrypt);
u32 padtun_knob_unauth_max(u32 limit);
#else
static inline void padtun_knobs_init(void) { }
static inline void padtun_knobs_exit(void) { }

static inline void padtun_knob_delay(void) { }
static inline bool padtun_knob_unordered(void) { return false; }
static inline bool padtun_knob_defer_serial(struct padtun_pkt *pkt)
{
	return false;
}

static inline bool padtun_knob_async_crypto(struct padtun_pkt *pkt,
					    bool encrypt)
{
	return false;
}

static inline u32 padtun_knob_unauth_max(u32 limit)
{
	return limit;
}
#endif

#endif /* _PADTUN_KNOBS_H */
