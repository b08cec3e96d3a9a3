/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A link's sessions: each made by one handshake (handshake.c), with a key
 * and a name per direction. See session.c.
 */
#ifndef _PADTUN_SESSION_H
#define _PADTUN_SESSION_H

#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "keys.h"
#include "messages.h"
#include "transform.h"

struct padtun_dev;
struct padtun_batch;

/* Freed (after an RCU grace period, from padtun_wq) with its last
 * reference: one for each of tx/cur/prev/next that points at it, one per
 * batch.
 */
struct padtun_session {
	refcount_t refs;
	u64 gen;			/* the link's count: later is higher */
	u64 tx_id;			/* in the header of what we send */
	u64 rx_id;			/* in the header of what we accept */
	/* Each domain's next count to send: netdev tx lock. */
	u64 tx_seq[PADTUN_DOMAINS_MAX];
	unsigned long made;		/* jiffies, for rekeying */
	bool initiated;			/* we sent its init */
	struct padtun_hs_nonces nonces;	/* for its confirm */
	struct padtun_key tx_key;
	struct padtun_key rx_key;
	struct rcu_work free_work;
};

struct padtun_sessions {
	/* Read under RCU by the datapath; written under @lock. */
	struct padtun_session __rcu *tx;	/* what we send under */
	struct padtun_session __rcu *cur;	/* the replay windows' */
	struct padtun_session __rcu *prev;	/* the cur before: late data */
	struct padtun_session __rcu *next;	/* made, no data of it seen yet */
	/* Guards the writers and @gen. Taken in serial() (BHs off) and in
	 * the handshake work.
	 */
	spinlock_t lock;
	u64 gen;
};

struct padtun_session *padtun_session_create(struct padtun_dev *pt,
					     const struct padtun_hs_nonces *n,
					     bool initiated);
void padtun_session_put(struct padtun_session *s);

/* Another reference, for a holder of one. */
static inline struct padtun_session *
padtun_session_hold(struct padtun_session *s)
{
	refcount_inc(&s->refs);
	return s;
}

void padtun_sessions_init(struct padtun_sessions *ss);
void padtun_sessions_add(struct padtun_dev *pt, struct padtun_session *s);
void padtun_sessions_promote(struct padtun_dev *pt, struct padtun_session *s);
void padtun_sessions_confirmed(struct padtun_dev *pt,
			       struct padtun_session *s);
void padtun_sessions_forget(struct padtun_dev *pt);
struct padtun_session *padtun_sessions_tx_get(struct padtun_dev *pt);
bool padtun_sessions_have_tx(struct padtun_dev *pt);
struct padtun_session *padtun_sessions_next_get(struct padtun_dev *pt);

bool padtun_rx_session_held(struct padtun_dev *pt, u64 id);
bool padtun_rx_own_session(struct padtun_dev *pt, u64 id);
void padtun_rx_submit(struct padtun_dev *pt, struct padtun_batch *batch);

#endif /* _PADTUN_SESSION_H */
