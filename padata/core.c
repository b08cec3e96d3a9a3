// SPDX-License-Identifier: GPL-2.0
/*
 * padata core: instances, submission and the parallel stage.
 *
 * padata_do_parallel() gives each object a sequence number, then adds it
 * to the parallel queue of one CPU of the instance's mask: its callback
 * CPU's while nothing waits there, otherwise the less loaded of two. One
 * work item per CPU drains its queue, and before it and between two of
 * its objects the CPU's express list: objects of domains that had nothing
 * else in flight. After PADATA_WORKER_SLICE_NS it lets the other work
 * items of its CPU run first.
 */

#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/cpu.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "internal.h"

static unsigned int max_inflight = 1000;
module_param(max_inflight, uint, 0644);
MODULE_PARM_DESC(max_inflight,
		 "objects an instance accepts before -EBUSY, read by padata_alloc (default 1000)");

/* Largest limit: the reorder ring must stay a power of two below 2^31. */
#define PADATA_MAX_LIMIT BIT(20)

static void padata_run_parallel(struct padata_pqueue *pq,
				struct padata_priv *padata)
{
	local_bh_disable();
	this_cpu_inc(pq->pinst->stats->parallel);
	padata->parallel(padata);
	/* Before BHs run: a softirq submitting next finds it idle. */
	atomic_dec(&pq->pending);
	local_bh_enable();
	padnet_serial_catch_up(pq->pinst);
	cond_resched();
}

/*
 * parallel() may hand the object to padata_do_serial() and it may be
 * freed before parallel() returns, hence the _safe walks.
 */
static void padata_run_express(struct padata_pqueue *pq)
{
	struct padata_priv *padata, *next;
	struct llist_node *batch;

	if (llist_empty(&pq->express))
		return;
	batch = llist_reverse_order(llist_del_all(&pq->express));
	llist_for_each_entry_safe(padata, next, batch, node)
		padata_run_parallel(pq, padata);
}

/*
 * On a per-CPU workqueue the work items of one CPU run one after another
 * while none sleeps, those of every instance (a tunnel's transmit and
 * receive, other users) and their serial work: a worker with a long queue
 * would hold them all back. Once it has run this long it queues itself
 * again, behind them, which costs no context switch.
 */
#define PADATA_WORKER_SLICE_NS	(500 * NSEC_PER_USEC)

/* Oldest first: the list is LIFO, and early objects are due first. */
static struct llist_node *padata_take_list(struct padata_pqueue *pq)
{
	return llist_reverse_order(llist_del_all(&pq->list));
}

void padnet_parallel_worker(struct work_struct *work)
{
	struct padata_pqueue *pq = container_of(work, struct padata_pqueue, work);
	u64 end = local_clock() + PADATA_WORKER_SLICE_NS;
	struct llist_node *batch = pq->carry ?: padata_take_list(pq);
	struct padata_priv *padata;

	pq->carry = NULL;
	padata_run_express(pq);
	while (batch) {
		padata = llist_entry(batch, struct padata_priv, node);
		/* parallel() may free the object. */
		batch = batch->next;
		padata_run_parallel(pq, padata);
		padata_run_express(pq);
		/*
		 * Whoever added to the list while the carry waited found the
		 * work already queued: take the list before returning.
		 */
		if (!batch)
			batch = padata_take_list(pq);
		if (batch && local_clock() > end &&
		    !padnet_fault_no_slice(pq->pinst)) {
			pq->carry = batch;
			queue_work_on(pq->cpu, pq->pinst->wq, &pq->work);
			return;
		}
	}
}

/*
 * Objects of @dom whose serial() returned, counted exactly: @done and what
 * each serial queue has not added to it yet. For the slow path only: it
 * reads every CPU's serial queue.
 *
 * @done is read first, with acquire: a worker zeroes its count before it
 * adds it to @done, so no object is counted twice. Each count is read with
 * acquire before the caller reads @seq, so every object counted was
 * accepted before that read and the difference cannot underflow. Racing
 * workers can only make the result smaller than the truth, never larger.
 * A queue serialising another domain's objects counts none of @dom's.
 */
static u32 padata_serialised(struct padata_domain *dom)
{
	u32 done = atomic_read_acquire(&dom->done);
	int cpu;

	for_each_possible_cpu(cpu) {
		struct padata_squeue *sq = per_cpu_ptr(dom->pinst->squeue, cpu);
		/* Pairs with the release in padata_serial_run(). */
		u32 unpub = smp_load_acquire(&sq->unpublished);

		if ((unpub & ~PADATA_UNPUB_COUNT) == dom->tag)
			done += unpub & PADATA_UNPUB_COUNT;
	}
	return done;
}

/*
 * Takes @dom's next sequence number unless @limit of its objects are in
 * flight (the limit is the instance's, and holds per domain). An
 * object is in flight from acceptance until its serial() returned, so a
 * reorder ring slot is never needed twice.
 *
 * The fast path compares with @done, which serial workers publish per
 * batch (see PADATA_DONE_BATCH) and which so runs behind: only when that
 * says full is the exact count taken, so no shared line is written per
 * object and -EBUSY still means @limit objects in flight.
 *
 * @done is read before @seq, with acquire: every object @done counts was
 * accepted before, so @seq read afterwards is at least @done. Read the
 * other way round, a submitter delayed between the two reads (interrupt,
 * vCPU preemption) could pair a stale @seq with a newer @done, and the
 * unsigned difference would underflow into a spurious -EBUSY.
 */
static __always_inline bool padata_get_seq(struct padata_instance *pinst,
					   struct padata_domain *dom, u32 *seq,
					   bool *idle)
{
	u32 done, cur;

	do {
		done = atomic_read_acquire(&dom->done);
		padnet_test_point(pinst, PADNET_TP_SEQ, NULL);
		cur = atomic_read(&dom->seq);
		if (cur - done >= pinst->limit) {
			done = padata_serialised(dom);
			cur = atomic_read(&dom->seq);
			if (cur - done >= pinst->limit)
				return false;
		}
	} while ((u32)atomic_cmpxchg(&dom->seq, cur, cur + 1) != cur);

	*seq = cur;
	/* Every object before this one serialised: see padata_submit(). */
	*idle = done == cur;
	return true;
}

static __always_inline bool padata_cb_cpu_ok(const struct padata_cpus *cpus,
					     int cb_cpu)
{
	return cb_cpu >= 0 && cb_cpu < nr_cpu_ids &&
	       cpumask_test_cpu(cb_cpu, cpus->mask);
}

/*
 * An object whose parallel() runs on its callback CPU needs no hand-off
 * to serial(): the token holder calls it in place (reorder.c). So while
 * nothing waits in that CPU's parallel stage, spreading would only add a
 * wake-up of another CPU on the way there and one back, which costs more
 * than light parallel() work gains (a guest's vCPU woken by an IPI, above
 * all). That holds while one object is still in parallel() there, too:
 * the worker running it takes the next one when it returns, without a
 * wake-up. Once an object waits behind the one running, the work is
 * heavier than one CPU keeps up with, and it spreads over the mask.
 */
#define PADATA_CB_CPU_MAX_PENDING 2

/*
 * Spreading goes by load, not by turn: of two CPUs of the mask, the one
 * with fewer objects pending. CPUs are not equal: the callback CPU also
 * runs every serial() and the submitter may share a CPU with a worker,
 * and in order the whole instance goes at the pace of its slowest
 * parallel queue, so a strict turn would leave the others idle while that
 * one catches up. Two candidates, not the whole mask, so two reads per
 * submission whatever the mask's size: the sequence number's turn and the
 * CPU after it, so that every CPU is a candidate as often as any other and
 * a CPU that falls behind hands its share to a neighbour.
 */
static __always_inline int
padata_parallel_cpu(struct padata_instance *pinst,
		    const struct padata_cpus *cpus, const struct padata_priv *padata)
{
	const struct padata_pqueue *cb_pq = per_cpu_ptr(pinst->pqueue,
							padata->cb_cpu);
	unsigned int turn = padata->seq_nr % cpus->nr;
	int a, b;

	if (atomic_read(&cb_pq->pending) < PADATA_CB_CPU_MAX_PENDING)
		return padata->cb_cpu;
	a = cpus->cpu[turn];
	b = cpus->cpu[turn + 1 < cpus->nr ? turn + 1 : 0];
	if (atomic_read(&per_cpu_ptr(pinst->pqueue, b)->pending) <
	    atomic_read(&per_cpu_ptr(pinst->pqueue, a)->pending))
		return b;
	return a;
}

/* @express: the object takes its CPU's express list (padata_submit()). */
static __always_inline void
padata_queue_parallel(struct padata_instance *pinst,
		      const struct padata_cpus *cpus, struct padata_priv *padata,
		      bool express)
{
	int cpu = padata_parallel_cpu(pinst, cpus, padata);
	struct padata_pqueue *pq = per_cpu_ptr(pinst->pqueue, cpu);
	struct llist_head *list = &pq->list;

	if (express) {
		this_cpu_inc(pinst->stats->express);
		list = &pq->express;
	}
	atomic_inc(&pq->pending);
	/*
	 * Only the adder that finds a list empty queues the work: any other
	 * adder's object is picked up by the work that adder (or an earlier
	 * one) queued, which has not emptied the list yet. The work takes
	 * both lists.
	 */
	if (llist_add(&padata->node, list))
		queue_work_on(cpu, pinst->wq, &pq->work);
}

/*
 * Both submit functions inline this and the helpers it calls on the way to
 * queueing (hence __always_inline on them: with two callers the compiler
 * would call them instead), padata_do_parallel() with domain 0 at a
 * constant offset in @pinst: the domains cost its fast path nothing.
 */
static __always_inline int padata_submit(struct padata_instance *pinst,
					 struct padata_domain *dom,
					 struct padata_priv *padata,
					 int cb_cpu)
{
	const struct padata_cpus *cpus;
	int ret = -EINPROGRESS;
	bool idle;
	u32 seq;

	/*
	 * The RCU read section pins the CPU set and lets padata_stop(),
	 * mask changes and hotplug wait until this submission is queued.
	 * It is not preemptible: once the object has its sequence number,
	 * every later object waits for it, so a submitter preempted before
	 * queueing it would stall the whole instance.
	 */
	rcu_read_lock_sched();
	if (!test_bit(PADNET_STARTED, &pinst->flags)) {
		ret = 0;
		goto out;
	}
	if (test_bit(PADNET_RESET, &pinst->flags))
		goto busy;
	cpus = rcu_dereference_sched(pinst->cpus);
	if (!padata_cb_cpu_ok(cpus, cb_cpu)) {
		ret = -EINVAL;
		goto out;
	}
	if (!padata_get_seq(pinst, dom, &seq, &idle))
		goto busy;

	padata->dom = dom;
	padata->seq_nr = seq;
	padata->cb_cpu = cb_cpu;
	this_cpu_inc(pinst->stats->submitted);
	/*
	 * An object of a domain whose every earlier object was serialised
	 * waits for nothing once its parallel() is done. Queued behind other
	 * domains' objects, it would wait for work it has no order with, the
	 * head-of-line blocking that domains are there to remove: a small
	 * packet of one flow behind a bulk flow's batches. So it passes them,
	 * on the express list. One object per domain at a time, as the next
	 * one finds it in flight: the lane cannot starve the queue. @done may
	 * lag behind the serial() calls that returned; then the object takes
	 * the queue, as it would have anyway.
	 */
	padata_queue_parallel(pinst, cpus, padata,
			      idle && !padnet_fault_no_express(pinst));
	goto out;

busy:
	this_cpu_inc(pinst->stats->ebusy);
	ret = -EBUSY;
out:
	rcu_read_unlock_sched();
	return ret;
}

/**
 * padata_do_parallel - submit an object to a padata instance
 * @pinst: the instance.
 * @padata: the object, embedded in the caller's structure, with
 *          @padata->parallel and @padata->serial set.
 * @cb_cpu: the CPU serial() should run on; must be in the instance's mask.
 *
 * The object joins the instance's own ordering domain, domain 0: it is
 * serialised after every object accepted into that domain before it.
 *
 * Context: process or softirq context. Does not sleep and takes no lock.
 *
 * Return: -EINPROGRESS when the object was accepted: parallel() and then
 * serial() will be called once each. Otherwise the object was not touched
 * and may be submitted again: 0 when the instance is not started, -EBUSY
 * while the CPU mask is being replaced or when the domain's in-flight
 * limit is reached, -EINVAL when @cb_cpu is not an online CPU of the mask.
 */
int padata_do_parallel(struct padata_instance *pinst,
		       struct padata_priv *padata, int cb_cpu)
{
	return padata_submit(pinst, &pinst->dom0, padata, cb_cpu);
}
EXPORT_SYMBOL_GPL(padata_do_parallel);

/**
 * padata_do_parallel_domain - submit an object to an ordering domain
 * @dom: a domain from padata_alloc_domain().
 * @padata: the object, embedded in the caller's structure, with
 *          @padata->parallel and @padata->serial set.
 * @cb_cpu: the CPU serial() should run on; must be in the instance's mask.
 *
 * As padata_do_parallel() on @dom's instance, but the object is ordered
 * only after the objects accepted into @dom before it, and waits for no
 * object of another domain.
 *
 * Context: process or softirq context. Does not sleep and takes no lock.
 *
 * Return: as padata_do_parallel(); -EBUSY at @dom's in-flight limit.
 */
int padata_do_parallel_domain(struct padata_domain *dom,
			      struct padata_priv *padata, int cb_cpu)
{
	return padata_submit(dom->pinst, dom, padata, cb_cpu);
}
EXPORT_SYMBOL_GPL(padata_do_parallel_domain);

/**
 * padata_domain_idle - whether an ordering domain has nothing in flight
 * @dom: a domain from padata_alloc_domain() or padata_instance_domain().
 *
 * True when every object accepted into @dom has been serialised, so that
 * an object submitted next waits for no other: it takes the express lane
 * of the parallel queues. Never true while an object is in flight; it may
 * stay false a short while after the last serial() returned.
 *
 * Context: any. The answer holds only while the caller keeps other
 * submitters to @dom out, as a caller that serialises its submissions
 * does.
 */
bool padata_domain_idle(struct padata_domain *dom)
{
	return padnet_drained(dom);
}
EXPORT_SYMBOL_GPL(padata_domain_idle);

/**
 * padata_start - let an instance accept objects
 * @pinst: the instance.
 *
 * Context: process context; may sleep.
 */
void padata_start(struct padata_instance *pinst)
{
	mutex_lock(&pinst->lock);
	set_bit(PADNET_STARTED, &pinst->flags);
	mutex_unlock(&pinst->lock);
}
EXPORT_SYMBOL_GPL(padata_start);

/**
 * padata_stop - stop an instance from accepting objects
 * @pinst: the instance.
 *
 * When this returns, padata_do_parallel() returns 0 and no submission that
 * raced with the stop is still in progress. Objects already accepted run to
 * completion as usual.
 *
 * Context: process context; may sleep (waits for an RCU grace period).
 */
void padata_stop(struct padata_instance *pinst)
{
	mutex_lock(&pinst->lock);
	clear_bit(PADNET_STARTED, &pinst->flags);
	mutex_unlock(&pinst->lock);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(padata_stop);

static void padata_queues_init(struct padata_instance *pinst)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct padata_pqueue *pq = per_cpu_ptr(pinst->pqueue, cpu);
		struct padata_squeue *sq = per_cpu_ptr(pinst->squeue, cpu);

		init_llist_head(&pq->list);
		init_llist_head(&pq->express);
		INIT_WORK(&pq->work, padnet_parallel_worker);
		pq->pinst = pinst;
		pq->cpu = cpu;
		init_llist_head(&sq->list);
		INIT_WORK(&sq->work, padnet_serial_worker);
		sq->pinst = pinst;
		sq->run_cpu = cpu;
	}
}

static int padata_percpu_alloc(struct padata_instance *pinst)
{
	pinst->pqueue = alloc_percpu_gfp(struct padata_pqueue,
					 GFP_KERNEL_ACCOUNT);
	if (!pinst->pqueue)
		goto err;
	pinst->squeue = alloc_percpu_gfp(struct padata_squeue,
					 GFP_KERNEL_ACCOUNT);
	if (!pinst->squeue)
		goto err_free_pqueue;
	pinst->stats = alloc_percpu_gfp(struct padata_stats,
					GFP_KERNEL_ACCOUNT);
	if (!pinst->stats)
		goto err_free_squeue;
	return 0;

err_free_squeue:
	free_percpu(pinst->squeue);
err_free_pqueue:
	free_percpu(pinst->pqueue);
err:
	return -ENOMEM;
}

static void padata_percpu_free(struct padata_instance *pinst)
{
	free_percpu(pinst->stats);
	free_percpu(pinst->squeue);
	free_percpu(pinst->pqueue);
}

/* A domain's reorder state: @dom is zeroed, its tag set. */
static int padata_domain_init(struct padata_instance *pinst,
			      struct padata_domain *dom)
{
	dom->pinst = pinst;
	dom->ring_mask = roundup_pow_of_two(pinst->limit) - 1;
	dom->ring = kvcalloc(dom->ring_mask + 1, sizeof(*dom->ring),
			     GFP_KERNEL_ACCOUNT);
	if (!dom->ring)
		return -ENOMEM;
	INIT_WORK(&dom->reorder_work, padnet_reorder_worker);
	padnet_reorder_init(dom, 0);
	return 0;
}

/*
 * padata_alloc() with a given in-flight limit (the test hook
 * padnet_alloc_limit() sets one per instance).
 */
struct padata_instance *padnet_instance_alloc(const struct cpumask *cpumask,
					      struct workqueue_struct *wq,
					      unsigned int limit)
{
	struct padata_instance *pinst;

	if (!wq || !limit || limit > PADATA_MAX_LIMIT)
		return NULL;
	/* Charged to the caller's memory cgroup, as a netdev's own memory
	 * is: an instance is per user (a tunnel, a crypto instance).
	 */
	pinst = kzalloc(sizeof(*pinst), GFP_KERNEL_ACCOUNT);
	if (!pinst)
		goto err;
	pinst->wq = wq;
	pinst->limit = limit;
	if (padata_domain_init(pinst, &pinst->dom0))
		goto err_free_pinst;
	if (padata_percpu_alloc(pinst))
		goto err_free_ring;
	mutex_init(&pinst->lock);
	ida_init(&pinst->domain_ida);
	padata_queues_init(pinst);
	if (padnet_test_init(pinst))
		goto err_free_percpu;
	if (padnet_cpus_init(pinst, cpumask))
		goto err_free_test;
	padnet_debugfs_add(pinst);
	return pinst;

err_free_test:
	padnet_test_free(pinst);
err_free_percpu:
	mutex_destroy(&pinst->lock);
	padata_percpu_free(pinst);
err_free_ring:
	kvfree(pinst->dom0.ring);
err_free_pinst:
	kfree(pinst);
err:
	return NULL;
}

/**
 * padata_alloc - allocate a padata instance
 * @cpumask: the CPUs for parallel() and the allowed callback CPUs. It may
 *           name offline CPUs; they join when they come online.
 * @wq: a per-CPU (not WQ_UNBOUND) workqueue that runs both stages; the
 *      caller keeps ownership and destroys it after padata_free().
 *
 * The in-flight limit is the max_inflight module parameter at this time.
 *
 * Context: process context; may sleep.
 * Return: the new instance, stopped, or NULL on failure or when @cpumask
 * has no online CPU.
 */
struct padata_instance *padata_alloc(const struct cpumask *cpumask,
				     struct workqueue_struct *wq)
{
	return padnet_instance_alloc(cpumask, wq, READ_ONCE(max_inflight));
}
EXPORT_SYMBOL_GPL(padata_alloc);

/*
 * Waits until every object accepted into @dom had its serial() return,
 * then until no padata code touches @dom any more: padata_do_serial()
 * callers leave their RCU read section, the work items that may still be
 * counting its last objects (serial work, or a parallel worker catching
 * up) return.
 */
static void padata_drain(struct padata_domain *dom)
{
	struct padata_instance *pinst = dom->pinst;
	int cpu;

	WRITE_ONCE(dom->draining, true);
	smp_mb(); /* Pairs with the full barrier in padata_serial_done(). */
	wait_var_event(&dom->done, padnet_drained(dom));
	synchronize_rcu();
	padnet_test_flush(pinst);
	/* Its last run may still be past its last release. */
	flush_work(&dom->reorder_work);
	for_each_possible_cpu(cpu) {
		flush_work(&per_cpu_ptr(pinst->pqueue, cpu)->work);
		flush_work(&per_cpu_ptr(pinst->squeue, cpu)->work);
	}
}

/**
 * padata_alloc_domain - add an ordering domain to an instance
 * @pinst: the instance.
 *
 * Objects submitted to the new domain with padata_do_parallel_domain() are
 * serialised in their own submission order, independently of every other
 * domain of @pinst, and of padata_do_parallel()'s objects. The domain
 * shares the instance's CPUs, workqueue, start/stop state and in-flight
 * limit: it may have as many objects in flight as the limit, next to the
 * other domains' objects.
 *
 * Context: process context; may sleep.
 * Return: the new domain, or NULL when out of memory.
 */
struct padata_domain *padata_alloc_domain(struct padata_instance *pinst)
{
	struct padata_domain *dom;
	int id;

	dom = kzalloc(sizeof(*dom), GFP_KERNEL_ACCOUNT);
	if (!dom)
		return NULL;
	id = ida_alloc_range(&pinst->domain_ida, 1, PADATA_MAX_DOMAINS,
			     GFP_KERNEL);
	if (id < 0)
		goto err_free_dom;
	dom->tag = (u32)id << PADATA_UNPUB_SHIFT;
	if (padata_domain_init(pinst, dom))
		goto err_free_id;
	return dom;

err_free_id:
	ida_free(&pinst->domain_ida, id);
err_free_dom:
	kfree(dom);
	return NULL;
}
EXPORT_SYMBOL_GPL(padata_alloc_domain);

/**
 * padata_instance_domain - an instance's own ordering domain
 * @pinst: the instance.
 *
 * Submitting to it with padata_do_parallel_domain() is padata_do_parallel()
 * on @pinst, so a caller that keeps its domains in a table can put this
 * one first and submit every object the same way. It lives as long as
 * @pinst: never pass it to padata_free_domain().
 *
 * Context: any context.
 * Return: @pinst's domain 0.
 */
struct padata_domain *padata_instance_domain(struct padata_instance *pinst)
{
	return &pinst->dom0;
}
EXPORT_SYMBOL_GPL(padata_instance_domain);

/**
 * padata_free_domain - wait for a domain's objects, and free it
 * @dom: a domain from padata_alloc_domain().
 *
 * The caller must have stopped submitting to @dom: no
 * padata_do_parallel_domain() call for it may be in progress or follow.
 * Waits until every object accepted into @dom has had its serial()
 * return; the instance and its other domains go on meanwhile.
 *
 * Context: process context; sleeps. Not from parallel() or serial().
 */
void padata_free_domain(struct padata_domain *dom)
{
	struct padata_instance *pinst = dom->pinst;

	padata_drain(dom);
	ida_free(&pinst->domain_ida, dom->tag >> PADATA_UNPUB_SHIFT);
	kvfree(dom->ring);
	kfree(dom);
}
EXPORT_SYMBOL_GPL(padata_free_domain);

/**
 * padata_free - stop an instance, wait for its objects, and free it
 * @pinst: the instance; padata_free_domain() has freed each of its
 *         domains.
 *
 * Waits until every accepted object's serial() has returned, so it must
 * not be called from parallel() or serial() of the same instance, and
 * every object's parallel() must eventually call padata_do_serial().
 *
 * Context: process context; sleeps.
 */
void padata_free(struct padata_instance *pinst)
{
	/* Their objects would use the queues freed here. */
	WARN_ON(!ida_is_empty(&pinst->domain_ida));
	padata_stop(pinst);
	/* Hotplug still reroutes the queues of objects in flight meanwhile. */
	padata_drain(&pinst->dom0);
	padnet_debugfs_remove(pinst);
	padnet_hotplug_remove(pinst);
	padnet_cpus_destroy(pinst);
	ida_destroy(&pinst->domain_ida);
	mutex_destroy(&pinst->lock);
	padata_percpu_free(pinst);
	padnet_test_free(pinst);
	kvfree(pinst->dom0.ring);
	kfree(pinst);
}
EXPORT_SYMBOL_GPL(padata_free);

static int __init padnet_module_init(void)
{
	int ret;

	ret = padnet_hotplug_init();
	if (ret)
		return ret;
	padnet_debugfs_init();
	return 0;
}

static void __exit padnet_module_exit(void)
{
	padnet_debugfs_exit();
	padnet_hotplug_exit();
}

module_init(padnet_module_init);
module_exit(padnet_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("padnet padata: parallel processing, serial completion in submission order");
