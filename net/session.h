/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive side's keys: one per peer session, derived in process
 * context when a newer session shows up, taken over once a packet of it
 * authenticates. See session.c.
 */
#ifndef _PADTUN_SESSION_H
#define _PADTUN_SESSION_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "transform.h"

struct padtun_dev;
struct padtun_batch;

/* Freed (after an RCU grace period, from padtun_wq) with its last
 * reference: one for each of cur/next that points at it, one per packet.
 */
struct padtun_rx_key {
	refcount_t refs;
	u64 session;
	struct padtun_key key;
	struct rcu_work free_work;
};

struct padtun_rx_keys {
	/* Read under RCU by the receive hook; written under @lock. */
	struct padtun_rx_key __rcu *cur;	/* the peer's newest authenticated session */
	struct padtun_rx_key __rcu *next;	/* a newer one, not authenticated yet */

	/* Guards next, want, deriving and pending. Nests outside the rx
	 * queue's lock (packets are submitted under it, to keep their order).
	 */
	spinlock_t lock;
	bool deriving;
	u64 want;			/* the session being derived */
	struct list_head pending;	/* its packets, waiting for the key */
	unsigned int pending_len;
	struct work_struct derive;
};

void padtun_rx_keys_init(struct padtun_rx_keys *k);
void padtun_rx_keys_stop(struct padtun_dev *pt);
void padtun_rx_keys_release(struct padtun_dev *pt);
void padtun_rx_key_put(struct padtun_rx_key *key);
void padtun_rx_submit(struct padtun_dev *pt, struct padtun_batch *batch);
void padtun_rx_session_authenticated(struct padtun_dev *pt,
				     struct padtun_batch *batch);

#endif /* _PADTUN_SESSION_H */
