// SPDX-License-Identifier: GPL-2.0
/*
 * The padata glue shared by both directions: submit in order, keep what
 * padata cannot take yet in a backlog (nothing is dropped for -EBUSY), and
 * run the serial stage.
 */

#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "knobs.h"
#include "queueing.h"

/* How long changelink waits for the packets in flight to come out. */
#define PADTUN_PAUSE_TIMEOUT	(5 * HZ)

/* Batches a queue keeps for reuse: enough for its in-flight limit at the
 * default (512 packets) even when every batch is one packet.
 */
#define PADTUN_POOL_SIZE	512

/* A smaller batch does not feed the cost per byte: its fixed cost (the
 * work item, the skbs, an ACK's few bytes) would pass for a cost per byte
 * many times the transform's. A GSO packet of six segments is above, and
 * so is a piece of a split one (split.c).
 */
#define PADTUN_COST_SAMPLE_MIN	(8 * 1024)

/* A batch below the average weighs 1/2^1 in it, one above 1/2^4. Time a
 * vCPU was preempted by the host, or took an interrupt, only ever adds to
 * a sample, so the low ones are the truer; and coming up from 0 slowly, a
 * new link splits nothing on its first, cold, batches. A cost that really
 * rises is followed within some 16 batches.
 */
#define PADTUN_COST_DOWN	1
#define PADTUN_COST_UP		4

/* padata runs parallel() from this queue with queue_work_on(), so it must
 * be a per-CPU one; the resubmit work and the receive keys' derivation and
 * freeing go here too, so destroying it at unload waits for the last of
 * them.
 *
 * Not WQ_CPU_INTENSIVE: a batch queued while this CPU's worker runs is
 * then taken by that worker when it is done, where an intensive worker,
 * which concurrency management does not count, would have another one
 * woken for it, a context switch per batch. A batch is bounded (a GSO
 * packet, a receive burst) and the worker yields between batches.
 */
struct workqueue_struct *padtun_wq;

int padtun_queueing_init(void)
{
	padtun_wq = alloc_workqueue("padtun", WQ_MEM_RECLAIM, 0);
	return padtun_wq ? 0 : -ENOMEM;
}

/* Every link is gone: their destructors drained padata. */
void padtun_queueing_exit(void)
{
	/* Sessions are freed by RCU callbacks queueing work here. */
	rcu_barrier();
	destroy_workqueue(padtun_wq);
}

/**
 * padtun_batch_free - return a batch to its queue's pool
 * @batch: one padtun_queue_submit() was not given, or serial() is done with
 *
 * Packets still on it are dropped uncounted (ops->unrun is told).
 */
void padtun_batch_free(struct padtun_batch *batch)
{
	const struct padtun_queue_ops *ops = batch->queue->ops;
	struct sk_buff *skb;

	/* Not empty only if the batch never reached parallel(): serial()
	 * hands every packet on.
	 */
	while ((skb = __skb_dequeue(&batch->skbs))) {
		if (ops->unrun)
			ops->unrun(batch->queue->pt, skb);
		kfree_skb(skb);
	}
	if (ops->release)
		ops->release(batch);
	if (ptr_ring_produce_any(&batch->queue->pool, batch))
		kfree(batch);
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
static void padtun_batch_finish(struct padtun_batch *batch)
{
	struct padtun_queue *q = batch->queue;
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&batch->skbs)))
		if (q->ops->finish(q->pt, batch, skb))
			batch->held++;
}

static void padtun_queue_serial(struct padata_priv *padata)
{
	struct padtun_batch *batch = container_of(padata, struct padtun_batch,
						  padata);
	struct padtun_queue *q = batch->queue;
	unsigned int count;

	/* Empty if the unordered knob already finished it from parallel(). */
	padtun_batch_finish(batch);
	count = batch->count - batch->held;
	padtun_batch_free(batch);
	padtun_queue_complete(q, count);
}

/* parallel(), first: if @batch is large enough to tell the cost per byte
 * apart from its fixed cost, start measuring it.
 */
static void padtun_queue_measure_start(struct padtun_queue *q,
				       struct padtun_batch *batch)
{
	unsigned int bytes = 0;
	struct sk_buff *skb;

	batch->cost_bytes = 0;
	skb_queue_walk(&batch->skbs, skb)
		bytes += skb->len;
	if (bytes < PADTUN_COST_SAMPLE_MIN)
		return;
	batch->cost_bytes = bytes;
	batch->started = ktime_get_ns();
}

/* The end of the parallel stage: what it cost per byte goes into the
 * queue's moving average. The time includes an asynchronous AEAD's wait.
 */
static void padtun_queue_measure_end(struct padtun_queue *q,
				     struct padtun_batch *batch)
{
	unsigned int cost, sample;
	u64 ns;

	if (!batch->cost_bytes)
		return;
	ns = ktime_get_ns() - batch->started;
	sample = min_t(u64, div_u64(ns * 1000, batch->cost_bytes), U32_MAX);
	cost = READ_ONCE(q->cost_ps);
	if (sample < cost)
		cost -= (cost - sample) >> PADTUN_COST_DOWN;
	else
		cost += (sample - cost) >> PADTUN_COST_UP;
	WRITE_ONCE(q->cost_ps, cost);
}

/* The end of the parallel stage, sync or async: every packet's outcome is
 * in its PADTUN_CB()->err. Runs with BHs disabled.
 */
static void padtun_batch_parallel_done(struct padtun_batch *batch)
{
	struct padtun_queue *q = batch->queue;

	/* Once per batch, here on a parallel CPU rather than on the one
	 * serial CPU.
	 */
	if (q->req_size)
		padtun_crypt_wipe(&batch->crypt, q->req_size);
	if (q->ops->parallel_done)
		q->ops->parallel_done(batch);
	padtun_queue_measure_end(q, batch);
	if (batch->in_place) {
		padtun_queue_serial(&batch->padata);
		return;
	}
	if (padtun_knob_unordered())
		padtun_batch_finish(batch);
	if (padtun_knob_defer_serial(&batch->padata))
		return;
	padata_do_serial(&batch->padata);
}

/* Record the outcome of batch->cur and move on to the next packet. */
static void padtun_batch_crypted(struct padtun_batch *batch, int err)
{
	const struct padtun_queue_ops *ops = batch->queue->ops;
	struct sk_buff *skb = batch->cur;

	if (ops->crypted)
		err = ops->crypted(batch, skb, err);
	PADTUN_CB(skb)->err = err;
	batch->cur = skb_peek_next(skb, &batch->skbs);
}

/* Crypt the batch from batch->cur on, one packet after the other: they
 * share the one request.
 */
static void padtun_batch_crypt_from_cur(struct padtun_batch *batch)
{
	const struct padtun_queue_ops *ops = batch->queue->ops;
	int err;

	while (batch->cur) {
		err = ops->crypt(batch, batch->cur);
		if (err == -EINPROGRESS)
			return;
		padtun_batch_crypted(batch, err);
	}
	padtun_batch_parallel_done(batch);
}

/* The asynchronous AEAD finished batch->cur: go on with the rest of the
 * batch. Context: BHs disabled.
 */
static void padtun_batch_crypt_done(struct padtun_crypt *crypt, int err)
{
	struct padtun_batch *batch = container_of(crypt, struct padtun_batch,
						  crypt);

	padtun_batch_crypted(batch, err);
	padtun_batch_crypt_from_cur(batch);
}

static void padtun_queue_parallel(struct padata_priv *padata)
{
	struct padtun_batch *batch = container_of(padata, struct padtun_batch,
						  padata);
	struct padtun_queue *q = batch->queue;

	padtun_knob_delay();
	padtun_stat_inc(q->pt, q->ops->stat_parallel);
	padtun_queue_measure_start(q, batch);
	if (q->ops->prepare)
		q->ops->prepare(batch);
	batch->cur = skb_peek(&batch->skbs);
	padtun_batch_crypt_from_cur(batch);
}

/**
 * padtun_batch_alloc - a new, empty batch
 * @q: the direction it is for
 *
 * Context: any; GFP_ATOMIC when the pool is empty.
 */
struct padtun_batch *padtun_batch_alloc(struct padtun_queue *q)
{
	struct padtun_batch *batch = ptr_ring_consume_any(&q->pool);

	if (unlikely(!batch))
		batch = kmalloc(offsetofend(struct padtun_batch, crypt) +
				q->req_size, GFP_ATOMIC);
	if (unlikely(!batch))
		return NULL;
	/* A batch padata refused is resubmitted as it is. */
	batch->padata = (struct padata_priv) {
		.parallel = padtun_queue_parallel,
		.serial = padtun_queue_serial,
	};
	batch->queue = q;
	__skb_queue_head_init(&batch->skbs);
	batch->crypt.key = NULL;
	batch->crypt.done = padtun_batch_crypt_done;
	batch->sess = NULL;
	batch->count = 0;
	batch->held = 0;
	batch->domain = 0;
	batch->in_place = false;
	return batch;
}

static bool padtun_queue_full(struct padtun_queue *q)
{
	return atomic_read(&q->inflight) >= READ_ONCE(q->max_inflight);
}

/* Caller holds q->lock. -EAGAIN: keep it for later; other errors: drop.
 * @pass: the batch passes the backlog and the in-flight limit
 * (padtun_queue_may_pass()); counted when accepted.
 */
static int padtun_queue_try(struct padtun_queue *q, struct padtun_batch *batch,
			    bool pass)
{
	struct padtun_dev *pt = q->pt;
	int cb_cpu, ret;

	/* Numbered before changelink lowered the domain count: drop it. */
	if (unlikely(batch->domain >= q->domains))
		return -ECHRNG;
	if (!pass && padtun_queue_full(q))
		return -EAGAIN;

	/* Counted first: serial() may run before padata_do_parallel returns. */
	atomic_add(batch->count, &q->inflight);
	cb_cpu = READ_ONCE(q->serial_cpu[batch->domain]);
	ret = padata_do_parallel_domain(q->doms[batch->domain], &batch->padata,
					cb_cpu);
	if (likely(ret == -EINPROGRESS)) {
		padtun_stat_inc(pt, q->ops->stat_submitted);
		if (pass)
			padtun_stat_inc(pt, q->ops->stat_passed);
		return 0;
	}
	atomic_sub(batch->count, &q->inflight);
	if (ret == -EBUSY) {
		padtun_stat_inc(pt, q->ops->stat_busy);
		return -EAGAIN;
	}
	/* The callback CPU went offline: wait until hotplug.c, which its
	 * CPU hotplug callback has kicked, moved it.
	 */
	if (ret == -EINVAL && !cpu_active(cb_cpu)) {
		padtun_stat_inc(pt, q->ops->stat_busy);
		return -EAGAIN;
	}
	return ret ?: -ESHUTDOWN;
}

static void padtun_backlog_add(struct padtun_queue *q,
			       struct padtun_batch *batch, bool head)
{
	if (head)
		list_add(&batch->backlog, &q->backlog);
	else
		list_add_tail(&batch->backlog, &q->backlog);
	WRITE_ONCE(q->backlog_len, q->backlog_len + batch->count);
	q->domain_backlog[batch->domain] += batch->count;
}

static void padtun_backlog_del(struct padtun_queue *q,
			       struct padtun_batch *batch)
{
	list_del(&batch->backlog);
	WRITE_ONCE(q->backlog_len, q->backlog_len - batch->count);
	q->domain_backlog[batch->domain] -= batch->count;
}

/* Caller holds q->lock. A batch whose domain has nothing in the backlog
 * and nothing in flight waits for nothing of its own order: behind the
 * backlog it would wait for other domains' packets only, a small flow's
 * behind a bulk flow's, which is what order flow is there to spare it.
 * So it goes ahead, past the in-flight limit too, and padata's express
 * lane takes it past their queued batches (docs/padtun.rst, "Ordering
 * domains"). One batch per domain at a time: the next finds it in flight.
 * Asked only where it decides: for a light batch, or one the backlog or
 * the limit would hold back (padtun_queue_enter()).
 */
static bool padtun_queue_may_pass(struct padtun_queue *q,
				  unsigned int domain)
{
	return domain < q->domains && !q->domain_backlog[domain] &&
	       padata_domain_idle(q->doms[domain]);
}

/* A packet whose parallel stage costs less than this, by the queue's
 * measured cost per byte, costs more to hand to another CPU (a work item,
 * a wake-up, a turn in the reorder and on the serial CPU: some tens of
 * microseconds in the test bed's TCG guests, split.c) than to transform
 * where it is. In the test bed a ping's 84 bytes cost 2 to 3 us under
 * chacha20poly1305, a 1400-byte datagram 24 to 49 us (17 to 35 ns a
 * byte), under none 4 to 7 us.
 */
#define PADTUN_IN_PLACE_NS	(16 * NSEC_PER_USEC)

/* A packet of @len bytes costs less than a hand-over by the queue's
 * measured cost per byte, or is small while there is no measure yet.
 */
static bool padtun_queue_light_len(struct padtun_queue *q, unsigned int len)
{
	unsigned int cost = padtun_queue_cost_ps(q);

	/* Until a batch large enough to measure (PADTUN_COST_SAMPLE_MIN)
	 * has set the cost per byte, only a small packet counts as light. A
	 * stream of single datagrams (a UDP load without GSO) never sets it,
	 * and taken in place they would all stay on the sending CPU: each
	 * finds its domain idle behind the one before.
	 */
	if (!cost)
		return len <= PADTUN_SMALL_BYTES;
	return div_u64((u64)len * cost, 1000) < PADTUN_IN_PLACE_NS;
}

static bool padtun_queue_light(struct padtun_queue *q,
			       const struct padtun_batch *batch)
{
	return batch->count == 1 &&
	       padtun_queue_light_len(q, skb_peek(&batch->skbs)->len);
}

/* A batch of one light packet whose domain waits for nothing
 * (@pass, padtun_queue_may_pass()) is transformed and handed on by its
 * submitter, in place, where padata would only make it wait: its order is
 * kept because everything before it in its domain is done, and the
 * callers submit a domain's batches one at a time (ndo_start_xmit under
 * the tx lock, the domain's burst list's poll), so nothing after it
 * starts before it is done. Not with an AEAD that may complete later, nor
 * under a test knob that reorders on purpose.
 */
static bool padtun_queue_in_place_ok(struct padtun_queue *q,
				     struct padtun_batch *batch, bool pass)
{
	if (unlikely(padtun_knob_in_place_any()))
		return batch->domain < q->domains;
	return pass;
}

/* The part of padtun_queue_in_place_ok() that needs no look at the
 * domain: is this batch one to take in place at all?
 */
static bool padtun_queue_light_here(struct padtun_queue *q,
				    struct padtun_batch *batch)
{
	return padtun_queue_light(q, batch) &&
	       padtun_key_sync(batch->crypt.key) && !padtun_knobs_reorder();
}

/**
 * padtun_queue_in_place_now - whether a packet submitted now, alone, would
 * be transformed in place
 * @q: the direction
 * @domain: its ordering domain
 * @len: its bytes
 *
 * For a caller that would otherwise hold the packet back for a later
 * submission, with others. The answer holds while the caller keeps the
 * domain's other submitters out. The packet's key is not asked: under an
 * AEAD that may complete later, padata takes the packet after all.
 *
 * Context: softirq, or BHs disabled.
 */
bool padtun_queue_in_place_now(struct padtun_queue *q, unsigned int domain,
			       unsigned int len)
{
	bool idle;

	if (!padtun_queue_light_len(q, len) || padtun_knobs_reorder())
		return false;
	spin_lock(&q->lock);
	idle = !q->paused && padtun_queue_may_pass(q, domain);
	spin_unlock(&q->lock);
	return idle;
}

/* Both stages, here and now: padata's parallel() and serial() run on the
 * submitter's CPU, BHs off as padata would have them.
 */
static void padtun_queue_run_in_place(struct padtun_queue *q,
				      struct padtun_batch *batch)
{
	batch->in_place = true;
	padtun_stat_inc(q->pt, q->ops->stat_in_place);
	local_bh_disable();
	padtun_queue_parallel(&batch->padata);
	local_bh_enable();
}

/* Caller holds q->lock, the queue not paused. 1: the batch is to run in
 * place, counted in flight as padtun_queue_try() counts (its serial()
 * uncounts); otherwise what padtun_queue_try() returns, or -EAGAIN: it
 * waits behind the backlog or the in-flight limit.
 */
static int padtun_queue_enter(struct padtun_queue *q,
			      struct padtun_batch *batch)
{
	bool light = padtun_queue_light_here(q, batch);
	bool held = !list_empty(&q->backlog) || padtun_queue_full(q);
	/* Two atomic reads: asked once, and only where it decides. */
	bool pass = (light || held) && padtun_queue_may_pass(q, batch->domain);

	if (light && padtun_queue_in_place_ok(q, batch, pass)) {
		atomic_add(batch->count, &q->inflight);
		return 1;
	}
	if (!held)
		return padtun_queue_try(q, batch, false);
	return pass ? padtun_queue_try(q, batch, true) : -EAGAIN;
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

static void padtun_batch_drop(struct padtun_queue *q,
			      struct padtun_batch *batch)
{
	padtun_stat_add(q->pt, q->ops->stat_dropped, batch->count);
	padtun_batch_free(batch);
}

/**
 * padtun_batch_discard - free a batch that never reached padata
 * @batch: from padtun_batch_alloc()
 * @stat: the counter that says why
 */
void padtun_batch_discard(struct padtun_batch *batch, enum padtun_stat stat)
{
	padtun_stat_add(batch->queue->pt, stat, batch->count);
	padtun_batch_free(batch);
}

/**
 * padtun_queue_submit - hand a batch to padata, or queue it behind others
 * @q: the direction
 * @batch: the batch, batch->count set; owned by the queue from now on
 *
 * Beyond the queue's backlog limit, the batch is dropped and counted.
 */
void padtun_queue_submit(struct padtun_queue *q, struct padtun_batch *batch)
{
	int ret = -EAGAIN;

	spin_lock_bh(&q->lock);
	if (!q->paused)
		ret = padtun_queue_enter(q, batch);
	if (ret == -EAGAIN && q->backlog_len < READ_ONCE(q->backlog_max)) {
		padtun_backlog_add(q, batch, false);
		padtun_queue_retry_later(q);
		ret = 0;
	}
	spin_unlock_bh(&q->lock);

	if (ret > 0)
		padtun_queue_run_in_place(q, batch);
	else if (unlikely(ret))
		padtun_batch_drop(q, batch);
}

static void padtun_queue_resubmit(struct work_struct *work)
{
	struct padtun_queue *q = container_of(to_delayed_work(work),
					      struct padtun_queue, resubmit);
	struct padtun_batch *batch, *next;
	LIST_HEAD(dead);
	int ret;

	spin_lock_bh(&q->lock);
	while (!q->paused) {
		batch = list_first_entry_or_null(&q->backlog,
						 struct padtun_batch, backlog);
		if (!batch)
			break;
		/* Off the list first: once accepted, it may be freed. */
		padtun_backlog_del(q, batch);
		ret = padtun_queue_try(q, batch, false);
		if (ret == -EAGAIN) {
			padtun_backlog_add(q, batch, true);
			padtun_queue_retry_later(q);
			break;
		}
		if (ret)
			list_add_tail(&batch->backlog, &dead);
	}
	spin_unlock_bh(&q->lock);

	local_bh_disable();
	list_for_each_entry_safe(batch, next, &dead, backlog)
		padtun_batch_drop(q, batch);
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

/**
 * padtun_queue_set_limits - how much a direction holds
 * @q: the direction
 * @max_inflight: packets accepted by padata, serial() not done with
 * @backlog_max: packets waiting for padata: beyond, drop
 *
 * Context: RTNL held. A higher limit takes effect at the next submission
 * or padtun_queue_kick().
 */
void padtun_queue_set_limits(struct padtun_queue *q, u32 max_inflight,
			     unsigned int backlog_max)
{
	WRITE_ONCE(q->max_inflight, max_inflight);
	WRITE_ONCE(q->backlog_max, backlog_max);
}

/* Free the domains from @from on (domain 0 is the instance's). Each waits
 * for the serial() of what it accepted.
 */
static void padtun_queue_free_domains(struct padtun_queue *q,
				      unsigned int from)
{
	unsigned int i;

	for (i = max(from, 1U); i < PADTUN_DOMAINS_MAX; i++) {
		if (!q->doms[i])
			continue;
		padata_free_domain(q->doms[i]);
		q->doms[i] = NULL;
	}
}

/**
 * padtun_queue_set_domains - how many ordering domains a direction has
 * @q: the direction
 * @domains: 1 (the instance's own) to PADTUN_DOMAINS_MAX
 *
 * On failure the domains it had are kept, and so may be some of the new
 * ones: calling it again with the old count frees them. A batch of a
 * domain it no longer has is dropped when it would be submitted.
 *
 * Context: process, RTNL held, the queue paused and empty or not yet
 * used.
 */
int padtun_queue_set_domains(struct padtun_queue *q, unsigned int domains)
{
	unsigned int i;

	for (i = 1; i < domains; i++) {
		if (q->doms[i])
			continue;
		q->doms[i] = padata_alloc_domain(q->pinst);
		if (!q->doms[i])
			return -ENOMEM;
	}
	padtun_queue_free_domains(q, domains);
	q->domains = domains;
	return 0;
}

/**
 * padtun_queue_init - set up a direction
 * @q: the direction
 * @pt: the device, which its ops and counters are given
 * @ops: the direction's stages
 * @cpus: the parallel CPUs
 * @req_size: the size of an AEAD request with its context (0: none)
 *
 * Its limits are set with padtun_queue_set_limits() before it is used.
 * Context: process.
 */
int padtun_queue_init(struct padtun_queue *q, struct padtun_dev *pt,
		      const struct padtun_queue_ops *ops,
		      const struct cpumask *cpus, unsigned int req_size)
{
	struct padata_instance *pinst;
	int ret;

	q->pt = pt;
	q->ops = ops;
	memset(q->doms, 0, sizeof(q->doms));
	q->domains = 1;
	q->req_size = req_size;
	q->cost_ps = 0;
	atomic_set(&q->inflight, 0);
	init_waitqueue_head(&q->idle);
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->backlog);
	q->backlog_len = 0;
	q->paused = false;
	INIT_DELAYED_WORK(&q->resubmit, padtun_queue_resubmit);
	ret = ptr_ring_init(&q->pool, PADTUN_POOL_SIZE, GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;

	pinst = padata_alloc(cpus, padtun_wq);
	if (IS_ERR_OR_NULL(pinst)) {
		ptr_ring_cleanup(&q->pool, NULL);
		return pinst ? PTR_ERR(pinst) : -ENOMEM;
	}
	q->pinst = pinst;
	q->doms[0] = padata_instance_domain(pinst);
	padata_start(pinst);
	return 0;
}

/* Context: process, no lock that serial() needs. New packets must have
 * stopped coming (socket detached, device unregistered) and every batch
 * held elsewhere (rx: waiting for a key) must be freed before this.
 */
void padtun_queue_destroy(struct padtun_queue *q)
{
	struct padtun_batch *batch, *next;

	spin_lock_bh(&q->lock);
	q->paused = true;
	spin_unlock_bh(&q->lock);
	cancel_delayed_work_sync(&q->resubmit);

	/* Each waits for the serial() of every packet padata accepted. */
	padtun_queue_free_domains(q, 1);
	padata_free(q->pinst);
	q->pinst = NULL;
	q->doms[0] = NULL;
	/* A serial() that read !paused just before may have re-armed it. */
	cancel_delayed_work_sync(&q->resubmit);

	local_bh_disable();
	list_for_each_entry_safe(batch, next, &q->backlog, backlog) {
		padtun_backlog_del(q, batch);
		padtun_batch_drop(q, batch);
	}
	/* The pool, through the locking its users take (cleanup's own
	 * destroy loop takes the lock without disabling BHs).
	 */
	while ((batch = ptr_ring_consume(&q->pool)))
		kfree(batch);
	local_bh_enable();
	ptr_ring_cleanup(&q->pool, NULL);
}
