/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One direction of the pipeline: a padata instance, the packets it holds,
 * and a backlog for the ones it could not take yet.
 */
#ifndef _PADTUN_QUEUEING_H
#define _PADTUN_QUEUEING_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/ptr_ring.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <padnet/padata.h>

#include "messages.h"
#include "stats.h"
#include "transform.h"

struct padtun_dev;
struct padtun_queue;
struct padtun_session;

/* padata runs parallel() from it; see queueing.c. */
extern struct workqueue_struct *padtun_wq;

/* What each packet of a batch carries on its own, in skb->cb: set by the
 * parallel stage (tx) or the receive hook (rx), read by serial().
 */
struct padtun_cb {
	u64 seq;
	unsigned int len;		/* inner bytes, for the counters */
	int err;			/* outcome of the parallel stage */
	unsigned int charged;		/* rx: bytes held unauthenticated */
};

#define PADTUN_CB(skb)	((struct padtun_cb *)(skb)->cb)

/* A packet this small (a ping, a TCP ACK, a DNS query) is light under any
 * transform, and has no batch to join that is worth waiting for.
 */
#define PADTUN_SMALL_BYTES	128

/* A batch on its way through padata: one object, one work item and one
 * serial() for a run of packets with consecutive sequence numbers (a GSO
 * packet's segments on tx, a receive burst of one session on rx), so the
 * cross-CPU hand-offs and the wait for order are paid once per run.
 * Taken from the queue's pool (kmalloc'ed only while the pool is still
 * filling), at the size the queue computed from its AEAD's request: this
 * struct, then the request of @crypt, reused for every packet of the run
 * in turn.
 */
struct padtun_batch {
	struct padata_priv padata;
	struct list_head backlog;	/* on queue->backlog until submitted */
	struct padtun_queue *queue;
	/* tx: one skb, GSO or not, until parallel() segments it; rx: the
	 * burst. Emptied by serial(), which hands each on in order.
	 */
	struct sk_buff_head skbs;
	struct sk_buff *cur;		/* parallel(): the one being crypted */
	/* Its session (key), one reference held for the batch; dropped by
	 * ops->release.
	 */
	struct padtun_session *sess;
	u64 seq;			/* tx: the first of @count numbers */
	u64 session;			/* the name in the header */
	/* parallel(): what the batch's stage costs, for the queue's cost_ps */
	u64 started;			/* ktime_get_ns() */
	unsigned int cost_bytes;	/* its bytes; 0: not measured */
	unsigned int count;		/* packets: what inflight counts */
	unsigned int held;		/* of them, kept counted by finish() */
	unsigned int domain;		/* its ordering domain, 0 in order link */
	bool in_place;			/* run by its submitter, not by padata */
	struct padtun_crypt crypt;	/* last: its request follows it */
};

/* What tells the two directions apart: one const table each. */
struct padtun_queue_ops {
	/* Parallel stage, first: make batch->skbs the packets to crypt
	 * (optional).
	 */
	void (*prepare)(struct padtun_batch *batch);
	/* Parallel stage, per packet: start its crypto. -EINPROGRESS: the
	 * AEAD went asynchronous and batch->crypt.done follows.
	 */
	int (*crypt)(struct padtun_batch *batch, struct sk_buff *skb);
	/* Parallel stage, per packet, once crypted: returns its outcome
	 * (optional).
	 */
	int (*crypted)(struct padtun_batch *batch, struct sk_buff *skb, int err);
	/* Parallel stage, last, every packet crypted: may regroup batch->skbs
	 * in the same order (optional).
	 */
	void (*parallel_done)(struct padtun_batch *batch);
	/* Serial stage, per packet: owns @skb whatever PADTUN_CB(skb)->err
	 * says. True: @skb stays counted in flight until the owner hands it
	 * on and calls padtun_queue_complete() for it.
	 */
	bool (*finish)(struct padtun_dev *pt, struct padtun_batch *batch,
		       struct sk_buff *skb);
	/* Optional: packets left the queue, so the owner can wake up. */
	void (*drained)(struct padtun_queue *q);
	/* Optional: a packet freed without a parallel stage (the batch was
	 * refused or dropped before padata ran it).
	 */
	void (*unrun)(struct padtun_dev *pt, struct sk_buff *skb);
	/* Optional: the batch is done with; drop what the direction hung on
	 * it.
	 */
	void (*release)(struct padtun_batch *batch);
	enum padtun_stat stat_submitted;
	enum padtun_stat stat_busy;
	enum padtun_stat stat_passed;
	enum padtun_stat stat_in_place;
	enum padtun_stat stat_dropped;
	enum padtun_stat stat_parallel;
};

struct padtun_queue {
	struct padtun_dev *pt;		/* the ops' and the counters' */
	struct padata_instance *pinst;
	const struct padtun_queue_ops *ops;
	/* The ordering domains of order flow (docs/padtun.rst); domain 0 is
	 * the instance's own, set and cleared with it. The others change
	 * under RTNL with the queue paused and empty
	 * (padtun_queue_set_domains()).
	 */
	struct padata_domain *doms[PADTUN_DOMAINS_MAX];
	unsigned int domains;		/* how many: under @lock or paused */
	unsigned int req_size;		/* of each batch's AEAD request */
	/* The CPU each domain's serial() runs on (hotplug.c). Written under
	 * RTNL with both queues paused and empty, read by the datapath with
	 * READ_ONCE.
	 */
	int serial_cpu[PADTUN_DOMAINS_MAX];

	/* Packets (not batches) accepted by padata, serial() not done or
	 * finish() holding them.
	 */
	atomic_t inflight;
	wait_queue_head_t idle;		/* woken when inflight drops to 0 */

	/* Taken around every padata_do_parallel() call, so that submission
	 * order is the order in which callers got this lock. Guards backlog,
	 * backlog_len (also read locklessly for the limits), domain_backlog
	 * and paused. While the backlog is not empty, new packets go behind
	 * it, but for a domain with nothing in it or in flight
	 * (padtun_queue_may_pass()).
	 */
	spinlock_t lock;
	struct list_head backlog;
	unsigned int backlog_len;
	/* Of backlog_len, each domain's: one with none may pass the rest. */
	unsigned int domain_backlog[PADTUN_DOMAINS_MAX];
	/* The limits (padtun_queue_set_limits()): written under RTNL,
	 * read locklessly.
	 */
	u32 max_inflight;		/* packets accepted by padata */
	unsigned int backlog_max;	/* packets waiting: beyond, drop */
	bool paused;			/* changelink or teardown: hold back */
	struct delayed_work resubmit;

	/* The parallel stage's cost per byte in picoseconds, a moving
	 * average over its batches of PADTUN_COST_SAMPLE_MIN bytes or more,
	 * from 0 (queueing.c): written by every parallel CPU without a lock
	 * (a lost update only delays it), read by the submitter.
	 */
	unsigned int cost_ps;

	/* Batches serial() is done with, for the next ones: after the first
	 * few hundred, a direction allocates nothing. Its own locks.
	 */
	struct ptr_ring pool;
};

int padtun_queueing_init(void);
void padtun_queueing_exit(void);

int padtun_queue_init(struct padtun_queue *q, struct padtun_dev *pt,
		      const struct padtun_queue_ops *ops,
		      const struct cpumask *cpus, unsigned int req_size);
void padtun_queue_destroy(struct padtun_queue *q);
int padtun_queue_set_domains(struct padtun_queue *q, unsigned int domains);
void padtun_queue_set_limits(struct padtun_queue *q, u32 max_inflight,
			     unsigned int backlog_max);

static inline u32 padtun_queue_max_inflight(const struct padtun_queue *q)
{
	return READ_ONCE(q->max_inflight);
}

static inline unsigned int
padtun_queue_backlog_max(const struct padtun_queue *q)
{
	return READ_ONCE(q->backlog_max);
}

static inline unsigned int padtun_queue_cost_ps(const struct padtun_queue *q)
{
	return READ_ONCE(q->cost_ps);
}

struct padtun_batch *padtun_batch_alloc(struct padtun_queue *q);
void padtun_batch_free(struct padtun_batch *batch);
void padtun_queue_submit(struct padtun_queue *q, struct padtun_batch *batch);
bool padtun_queue_in_place_now(struct padtun_queue *q, unsigned int domain,
			       unsigned int len);
void padtun_batch_discard(struct padtun_batch *batch, enum padtun_stat stat);
void padtun_queue_complete(struct padtun_queue *q, unsigned int count);

unsigned int padtun_queue_len(struct padtun_queue *q);
int padtun_queue_pause(struct padtun_queue *q);
void padtun_queue_resume(struct padtun_queue *q);
void padtun_queue_kick(struct padtun_queue *q);

#endif /* _PADTUN_QUEUEING_H */
