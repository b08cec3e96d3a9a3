/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-only knobs in /sys/kernel/debug/padtun/: they exist to show that
 * the ordering holds under stress, and that the sequence checkers notice
 * when it does not. Never turn them on outside a test.
 */
#ifndef _PADTUN_KNOBS_H
#define _PADTUN_KNOBS_H

#include <linux/types.h>
/* Its 2010 names are macros onto padnet_*: a bare declaration would not do. */
#include <padnet/padata.h>

struct aead_request;
struct notifier_block;

/* Release builds have no knobs: the stubs fold away from the datapath. */
#ifdef PADNET_TEST_HOOKS
int padtun_knobs_init(void);
void padtun_knobs_exit(void);

void padtun_knob_delay(void);
bool padtun_knob_unordered(void);
bool padtun_knob_defer_serial(struct padata_priv *padata);
bool padtun_knob_async_crypto(struct aead_request *req, bool encrypt);
u32 padtun_knob_unauth_max(u32 limit);
unsigned long padtun_knob_rekey_after(unsigned long after);
void padtun_knob_fixed_random(u8 *random, size_t len);
int padtun_knob_vmfork_register(struct notifier_block *nb);
void padtun_knob_vmfork_unregister(struct notifier_block *nb);
bool padtun_knob_split_reversed(void);
bool padtun_knob_in_place_any(void);
bool padtun_knobs_reorder(void);
#else
static inline int padtun_knobs_init(void) { return 0; }
static inline void padtun_knobs_exit(void) { }

static inline void padtun_knob_delay(void) { }
static inline bool padtun_knob_unordered(void) { return false; }
static inline bool padtun_knob_defer_serial(struct padata_priv *padata)
{
	return false;
}

static inline bool padtun_knob_async_crypto(struct aead_request *req,
					    bool encrypt)
{
	return false;
}

static inline u32 padtun_knob_unauth_max(u32 limit)
{
	return limit;
}

static inline unsigned long padtun_knob_rekey_after(unsigned long after)
{
	return after;
}

static inline void padtun_knob_fixed_random(u8 *random, size_t len) { }

static inline int padtun_knob_vmfork_register(struct notifier_block *nb)
{
	return 0;
}

static inline void padtun_knob_vmfork_unregister(struct notifier_block *nb) { }
static inline bool padtun_knob_split_reversed(void) { return false; }
static inline bool padtun_knob_in_place_any(void) { return false; }
static inline bool padtun_knobs_reorder(void) { return false; }
#endif

#endif /* _PADTUN_KNOBS_H */
