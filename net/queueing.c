// SPDX-License-Identifier: GPL-2.0
/*
 * The padata glue shared by both directions: submit in order, keep what
 * padata cannot take yet in a backlog (nothing is dropped for -EBUSY), and
 * run the serial stage.
 */

#include <linux/slab.h>
#include <linux/string.h>

#include "knobs.h"
#include "padtun.h"
#include "queueing.h"
#include "session.h"

/* How long changelink waits for the packets in flight to come out. */
#define PADTUN_PAUSE_TIMEOUT	(5 * HZ)

/* Batches a queue keeps for reuse: enough for its in-flight limit at the
 * default (512 packets) even when every batch is one packet.
 */
#define PADTUN_POOL_SIZE	512

static void padtun_pkt_free(struct padtun_pkt *pkt)
{
	const struct padtun_queue_ops *ops = pkt->queue->ops;
	struct sk_buff *skb;

	/* Not empty only if the batch never reached parallel(): serial()
	 * hands every packet on.
	 */
	while ((skb = __skb_dequeue(&pkt->skbs))) {
		if (ops->unrun)
			ops->unrun(pkt->queue->pt, skb);
		kfree_skb(skb);
	}
	padtun_rx_key_put(pkt->rx_key);
	if (ptr_ring_produce_any(&pkt->queue->pool, pkt))
		kfree(pkt);
}

/**
 * padtun_queue_complete - packets leave the direction's in-flight count
 * @q: the direction
 * @count: how many
 *
 * Called once per accepted batch after its serial stage, for the packets
 * finish() did not hold, and by the owner of the ones it held once it
 * handed them on: the in-flight limit then covers them until there, and
 * submission waits rather than the owner dropping.
 *
 * Context: BHs disabled.
 */
void padtun_queue_complete(struct padtun_queue *q, unsigned int count)
{
	if (atomic_sub_return(count, &q->inflight) <= 0 && READ_ONCE(q->paused))
		wake_up(&q->idle);
	if (READ_ONCE(q->backlog_len) && !READ_ONCE(q->paused))
		mod_delayed_work(padtun_wq, &q->resubmit, 0);
	if (q->ops->drained)
		q->ops->drained(q);
}

/* Hand each packet, in order, to the direction's serial stage, which
 * consumes it.
 */
static void padtun_pkt_finish(struct padtun_pkt *pkt)
{
	struct padtun_queue *q = pkt->queue;
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&pkt->skbs)))
		if (q->ops->finish(q->pt, pkt, skb))
			pkt->held++;
}

static void padtun_queue_serial(struct padata_priv *padata)
{
	struct padtun_pkt *pkt = container_of(padata, struct padtun_pkt,
					      padata);
	struct padtun_queue *q = pkt->queue;
	unsigned int count;

	/* Empty if the unordered knob already finished it from parallel(). */
	padtun_pkt_finish(pkt);
	count = pkt->count - pkt->held;
	padtun_pkt_free(pkt);
	padtun_queue_complete(q, count);
}

/* The end of the parallel stage, sync or async: every packet's outcome is
 * in its PADTUN_CB()->err. Runs with BHs disabled.
 */
static void padtun_pkt_parallel_done(struct padtun_pkt *pkt)
{
	const struct padtun_queue_ops *ops = pkt->queue->ops;
	unsigned int req_size = pkt->queue->pt->transform.req_size;

	/* The AEAD is done with its request, which may hold key material:
	 * wipe it once per batch, here on a parallel CPU rather than on the
	 * one serial CPU.
	 */
	if (req_size)
		memzero_explicit(padtun_pkt_req(pkt), req_size);
	if (ops->parallel_done)
		ops->parallel_done(pkt);
	if (padtun_knob_unordered())
		padtun_pkt_finish(pkt);
	if (padtun_knob_defer_serial(pkt))
		return;
	padata_do_serial(&pkt->padata);
}

/* Record the outcome of pkt->cur and move on to the next packet. */
static void padtun_pkt_crypted(struct padtun_pkt *pkt, int err)
{
	const struct padtun_queue_ops *ops = pkt->queue->ops;
	struct sk_buff *skb = pkt->cur;

	PADTUN_CB(skb)->err = ops->crypted ? ops->crypted(pkt, skb, err) : err;
	pkt->cur = skb_peek_next(skb, &pkt->skbs);
}

/* Crypt the batch from pkt->cur on, one packet after the other: they
 * share the one request.
 */
static void padtun_pkt_crypt_from_cur(struct padtun_pkt *pkt)
{
	const struct padtun_queue_ops *ops = pkt->queue->ops;
	int err;

	while (pkt->cur) {
		err = ops->crypt(pkt, pkt->cur);
		if (err == -EINPROGRESS)
			return;
		padtun_pkt_crypted(pkt, err);
	}
	padtun_pkt_parallel_done(pkt);
}

/**
 * padtun_pkt_crypt_done - the asynchronous AEAD finished pkt->cur
 * @pkt: the batch
 * @err: the AEAD's result
 *
 * Context: BHs disabled. Goes on with the rest of the batch.
 */
void padtun_pkt_crypt_done(struct padtun_pkt *pkt, int err)
{
	padtun_pkt_crypted(pkt, err);
	padtun_pkt_crypt_from_cur(pkt);
}

static void padtun_queue_parallel(struct padata_priv *padata)
{
	struct padtun_pkt *pkt = container_of(padata, struct padtun_pkt,
					      padata);
	struct padtun_queue *q = pkt->queue;

	padtun_knob_delay();
	padtun_stat_inc(q->pt, q->ops->stat_parallel);
	if (q->ops->prepare)
		q->ops->prepare(pkt);
	pkt->cur = skb_peek(&pkt->skbs);
	padtun_pkt_crypt_from_cur(pkt);
}

/**
 * padtun_pkt_alloc - a new, empty batch
 * @q: the direction it is for
 *
 * Context: any; GFP_ATOMIC when the pool is empty.
 */
struct padtun_pkt *padtun_pkt_alloc(struct padtun_queue *q)
{
	struct padtun_pkt *pkt = ptr_ring_consume_any(&q->pool);

	if (unlikely(!pkt))
		pkt = kmalloc(q->pt->pkt_size, GFP_ATOMIC);
	if (unlikely(!pkt))
		return NULL;
	/* A batch padata refused is resubmitted as it is. */
	pkt->padata = (struct padata_priv) {
		.parallel = padtun_queue_parallel,
		.serial = padtun_queue_serial,
	};
	pkt->queue = q;
	__skb_queue_head_init(&pkt->skbs);
	pkt->key = NULL;
	pkt->rx_key = NULL;
	pkt->count = 0;
	pkt->held = 0;
	return pkt;
}

/* Caller holds q->lock. -EAGAIN: keep it for later; other errors: drop. */
static int padtun_queue_try(struct padtun_queue *q, struct padtun_pkt *pkt)
{
	struct padtun_dev *pt = q->pt;
	int cb_cpu, ret;

	if (atomic_read(&q->inflight) >= READ_ONCE(pt->max_inflight))
		return -EAGAIN;

	/* Counted first: serial() may run before padata_do_parallel returns. */
	atomic_add(pkt->count, &q->inflight);
	cb_cpu = READ_ONCE(q->serial_cpu);
	ret = padata_do_parallel(q->pinst, &pkt->padata, cb_cpu);
	if (likely(ret == -EINPROGRESS)) {
		padtun_stat_inc(pt, q->ops->stat_submitted);
		return 0;
	}
	atomic_sub(pkt->count, &q->inflight);
	if (ret == -EBUSY) {
		padtun_stat_inc(pt, q->ops->stat_busy);
		return -EAGAIN;
	}
	/* The callback CPU went offline: wait until hotplug.c moved it. */
	if (ret == -EINVAL && !cpu_active(cb_cpu)) {
		padtun_stat_inc(pt, q->ops->stat_busy);
		padtun_hotplug_kick(pt);
		return -EAGAIN;
	}
	return ret ?: -ESHUTDOWN;
}

static void padtun_backlog_add(struct padtun_queue *q, struct padtun_pkt *pkt,
			       bool head)
{
	if (head)
		list_add(&pkt->backlog, &q->backlog);
	else
		list_add_tail(&pkt->backlog, &q->backlog);
	WRITE_ONCE(q->backlog_len, q->backlog_len + pkt->count);
}

static void padtun_backlog_del(struct padtun_queue *q, struct padtun_pkt *pkt)
{
	list_del(&pkt->backlog);
	WRITE_ONCE(q->backlog_len, q->backlog_len - pkt->count);
}

/* Nothing in flight means no serial() will come to kick the backlog: poll
 * it from the workqueue instead.
 */
static void padtun_queue_retry_later(struct padtun_queue *q)
{
	/* Pairs with padtun_queue_complete(): it decrements inflight, then
	 * reads backlog_len; we wrote backlog_len, then read inflight. One of
	 * us sees the other.
	 */
	smp_mb();
	if (!atomic_read(&q->inflight) && !q->paused)
		queue_delayed_work(padtun_wq, &q->resubmit, 1);
}

static void padtun_pkt_drop(struct padtun_queue *q, struct padtun_pkt *pkt)
{
	padtun_stat_add(q->pt, q->ops->stat_dropped, pkt->count);
	padtun_pkt_free(pkt);
}

/**
 * padtun_pkt_discard - free a batch that never reached padata
 * @pkt: from padtun_pkt_alloc()
 * @stat: the counter that says why
 */
void padtun_pkt_discard(struct padtun_pkt *pkt, enum padtun_stat stat)
{
	padtun_stat_add(pkt->queue->pt, stat, pkt->count);
	padtun_pkt_free(pkt);
}

/**
 * padtun_queue_submit - hand a batch to padata, or queue it behind others
 * @q: the direction
 * @pkt: the batch, pkt->count set; owned by the queue from now on
 * @backlog_max: drop (and count) rather than grow the backlog beyond this
 */
void padtun_queue_submit(struct padtun_queue *q, struct padtun_pkt *pkt,
			 unsigned int backlog_max)
{
	int ret = -EAGAIN;

	spin_lock_bh(&q->lock);
	if (!q->paused && list_empty(&q->backlog))
		ret = padtun_queue_try(q, pkt);
	if (ret == -EAGAIN && q->backlog_len < backlog_max) {
		padtun_backlog_add(q, pkt, false);
		padtun_queue_retry_later(q);
		ret = 0;
	}
	spin_unlock_bh(&q->lock);

	if (unlikely(ret))
		padtun_pkt_drop(q, pkt);
}

static void padtun_queue_resubmit(struct work_struct *work)
{
	struct padtun_queue *q = container_of(to_delayed_work(work),
					      struct padtun_queue, resubmit);
	struct padtun_pkt *pkt, *next;
	LIST_HEAD(dead);
	int ret;

	spin_lock_bh(&q->lock);
	while (!q->paused) {
		pkt = list_first_entry_or_null(&q->backlog, struct padtun_pkt,
					       backlog);
		if (!pkt)
			break;
		/* Off the list first: once accepted, it may be freed. */
		padtun_backlog_del(q, pkt);
		ret = padtun_queue_try(q, pkt);
		if (ret == -EAGAIN) {
			padtun_backlog_add(q, pkt, true);
			padtun_queue_retry_later(q);
			break;
		}
		if (ret)
			list_add_tail(&pkt->backlog, &dead);
	}
	spin_unlock_bh(&q->lock);

	local_bh_disable();
	list_for_each_entry_safe(pkt, next, &dead, backlog)
		padtun_pkt_drop(q, pkt);
	if (q->ops->drained)
		q->ops->drained(q);
	local_bh_enable();
}

/* Packets accepted or waiting: what the tx flow control looks at. */
unsigned int padtun_queue_len(struct padtun_queue *q)
{
	return atomic_read(&q->inflight) + READ_ONCE(q->backlog_len);
}

void padtun_queue_kick(struct padtun_queue *q)
{
	mod_delayed_work(padtun_wq, &q->resubmit, 0);
}

/**
 * padtun_queue_pause - hold new packets in the backlog, wait for the rest
 * @q: the direction
 *
 * Context: process, RTNL held (serial() never takes it).
 * Return: 0 when nothing is in flight any more, -ETIMEDOUT otherwise; the
 * queue is paused either way, padtun_queue_resume() undoes it.
 */
int padtun_queue_pause(struct padtun_queue *q)
{
	spin_lock_bh(&q->lock);
	q->paused = true;
	spin_unlock_bh(&q->lock);

	if (!wait_event_timeout(q->idle, !atomic_read(&q->inflight),
				PADTUN_PAUSE_TIMEOUT))
		return -ETIMEDOUT;
	return 0;
}

void padtun_queue_resume(struct padtun_queue *q)
{
	spin_lock_bh(&q->lock);
	q->paused = false;
	spin_unlock_bh(&q->lock);
	padtun_queue_kick(q);
}

int padtun_queue_init(struct padtun_queue *q, struct padtun_dev *pt,
		      const struct padtun_queue_ops *ops,
		      const struct cpumask *cpus)
{
	struct padata_instance *pinst;
	int ret;

	q->pt = pt;
	q->ops = ops;
	atomic_set(&q->inflight, 0);
	init_waitqueue_head(&q->idle);
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->backlog);
	q->backlog_len = 0;
	q->paused = false;
	INIT_DELAYED_WORK(&q->resubmit, padtun_queue_resubmit);
	ret = ptr_ring_init(&q->pool, PADTUN_POOL_SIZE, GFP_KERNEL);
	if (ret)
		return ret;

	pinst = padata_alloc(cpus, padtun_wq);
	if (IS_ERR_OR_NULL(pinst)) {
		ptr_ring_cleanup(&q->pool, NULL);
		return pinst ? PTR_ERR(pinst) : -ENOMEM;
	}
	q->pinst = pinst;
	padata_start(pinst);
	return 0;
}

/* Context: process, no lock that serial() needs. New packets must have
 * stopped coming (socket detached, device unregistered) and every batch
 * held elsewhere (rx: waiting for a key) must be freed before this.
 */
void padtun_queue_destroy(struct padtun_queue *q)
{
	struct padtun_pkt *pkt, *next;

	spin_lock_bh(&q->lock);
	q->paused = true;
	spin_unlock_bh(&q->lock);
	cancel_delayed_work_sync(&q->resubmit);

	/* Waits for the serial() of every packet padata accepted. */
	padata_free(q->pinst);
	q->pinst = NULL;
	/* A serial() that read !paused just before may have re-armed it. */
	cancel_delayed_work_sync(&q->resubmit);

	local_bh_disable();
	list_for_each_entry_safe(pkt, next, &q->backlog, backlog) {
		padtun_backlog_del(q, pkt);
		padtun_pkt_drop(q, pkt);
	}
	/* The pool, through the locking its users take (cleanup's own
	 * destroy loop takes the lock without disabling BHs).
	 */
	while ((pkt = ptr_ring_consume(&q->pool)))
		kfree(pkt);
	local_bh_enable();
	ptr_ring_cleanup(&q->pool, NULL);
}
