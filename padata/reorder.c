// SPDX-License-Identifier: GPL-2.0
/*
 * padata reorder and serial stages.
 *
 * Completed objects park in a ring indexed by sequence number. Exactly one
 * party at a time, the token holder, releases objects in order: the ring
 * slot of the next due object holds PADATA_DUE when nobody is releasing.
 * A completer swaps its object into its slot with xchg(); if it finds
 * PADATA_DUE there, it is due and becomes the token holder. The token
 * holder releases consecutive parked objects and, at the first empty slot,
 * leaves PADATA_DUE with cmpxchg(). Both steps are atomic on the same
 * word, so either the completer sees the token or the token holder sees
 * the object: no object can be parked with nobody left to release it, and
 * no trylock, timer or extra work item is needed.
 *
 * The in-flight limit is at most the ring size, so a slot is reused only
 * after the object that had it has been released and serialised.
 *
 * Each ordering domain has its own ring, token and sequence space; the
 * serial queues are the instance's, shared by its domains. Token holders
 * of several domains may add to one serial queue at once: each adds its
 * own domain's objects in order, and a batch is serialised in the order
 * they were added, so each domain's order holds there too.
 */

#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/sched.h>
#include <linux/wait_bit.h>

#include "internal.h"

/*
 * The serial worker adds to a domain's shared completion count every this
 * many objects, not per object; a submitter that finds the domain full
 * counts the rest exactly (padata_serialised()).
 */
#define PADATA_DONE_BATCH 32
static_assert(PADATA_DONE_BATCH <= PADATA_UNPUB_COUNT);

/*
 * Caller: the domain's allocation or the preset test hook, with nothing
 * in flight and no padata code running on behalf of the domain.
 */
void padnet_reorder_init(struct padata_domain *dom, u32 seq)
{
	u32 due = atomic_read(&dom->seq);	/* drained: the token is here */

	WRITE_ONCE(dom->ring[due & dom->ring_mask], NULL);
	atomic_set(&dom->seq, seq);
	atomic_set(&dom->done, seq);
	/* Orders the ring and counters before later submissions. */
	smp_store_release(&dom->ring[seq & dom->ring_mask], PADATA_DUE);
}

static void padata_serial_run(struct padata_squeue *sq, bool in_worker);

/*
 * Whether the token holder may call serial() itself, in place, instead of
 * waking the queue's work item: only when padata_do_serial() was called
 * from parallel() of this instance in its parallel work item (task
 * context, interrupts on) on the CPU the queue runs on. That is serial()'s
 * own context, a worker of the instance's workqueue on that CPU with BHs
 * disabled, without the context switch to the serial work item. On a
 * guest, where waking a worker is an IPI to a halted vCPU or at least a
 * switch of threads, that hand-off is what ordered processing costs most.
 */
static bool padata_serial_in_place_ok(struct padata_squeue *sq)
{
	struct padata_instance *pinst = sq->pinst;

	return in_task() && !irqs_disabled() &&
	       READ_ONCE(sq->run_cpu) == smp_processor_id() &&
	       current_work() == &this_cpu_ptr(pinst->pqueue)->work;
}

/*
 * Hands an in-order object to its callback CPU's serial queue. Each
 * domain has one producer at a time there, its token holder, so the
 * queue holds each domain's objects in order.
 */
static void padata_release(struct padata_instance *pinst,
			   struct padata_priv *padata)
{
	struct padata_squeue *sq = per_cpu_ptr(pinst->squeue, padata->cb_cpu);

	/*
	 * Once on the list, serial() may run and free @padata; the caller's
	 * RCU read section keeps @pinst alive until queue_work_on() returned,
	 * see padata_drain(). run_cpu is rerouted under RCU by hotplug.
	 */
	if (!llist_add(&padata->node, &sq->list))
		return;
	/*
	 * The list was empty, so no batch is waiting for the work item: if
	 * nobody is calling serial() for this queue either, this object is
	 * next and may be serialised here.
	 */
	if (padata_serial_in_place_ok(sq) &&
	    !test_and_set_bit(PADATA_SQ_RUNNING, &sq->flags)) {
		this_cpu_inc(pinst->stats->serial_in_place);
		padata_serial_run(sq, false);
		return;
	}
	queue_work_on(READ_ONCE(sq->run_cpu), pinst->wq, &sq->work);
}

/*
 * The reorder backlog a token holder cleared in one walk: the due object
 * and the objects parked behind it. Recorded once per walk in per-CPU
 * statistics, so that no shared line is written per object for it.
 * Caller: padata_reorder(), inside rcu_read_lock_sched(), so preemption
 * is already off.
 */
static void padata_note_depth(struct padata_instance *pinst, u32 depth)
{
	struct padata_stats *stats = this_cpu_ptr(pinst->stats);

	if (depth > stats->max_depth)
		WRITE_ONCE(stats->max_depth, depth);
}

/*
 * Called by the token holder with @padata, the due object, still in its
 * ring slot. Returns with the token published in the first empty slot, or
 * handed to the reorder work item.
 *
 * Objects completed during the walk (by an interrupt on this CPU, or on
 * other CPUs while serial workers free room for new submissions) extend
 * it, and it runs with preemption off. So one walk releases at most
 * @limit objects, no more than could be parked when it began: if the next
 * object is parked then too, it stays in its slot, the token with it,
 * and the work item continues from there on this CPU.
 */
static void padata_reorder(struct padata_domain *dom,
			   struct padata_priv *padata)
{
	struct padata_instance *pinst = dom->pinst;
	struct padata_priv **ring = dom->ring;
	u32 mask = dom->ring_mask;
	u32 first = padata->seq_nr, next = first;

	padnet_test_point(pinst, PADNET_TP_WALK, padata);
	do {
		if (next - first == pinst->limit) {
			/* Ordered before the work runs: queue_work(). */
			WRITE_ONCE(dom->reorder_resume, padata);
			queue_work(pinst->wq, &dom->reorder_work);
			break;
		}
		/* Test builds: a fault may stop here and resume later. */
		if (unlikely(padnet_fault_stops_walk(pinst, padata)))
			break;
		WRITE_ONCE(ring[next & mask], NULL);
		next++;
		/* Test builds: a fault may hold the object back. */
		if (likely(!padnet_fault_takes(pinst, padata))) {
			padnet_test_point(pinst, PADNET_TP_RELEASE, padata);
			padata_release(pinst, padata);
		}
		padnet_test_point(pinst, PADNET_TP_NEXT, NULL);
		/*
		 * Full barrier: pairs with the xchg() in padata_do_serial().
		 * When it fails it is unordered, but it returns the object
		 * whose contents the next padata_release() publishes with
		 * llist_add(), a full barrier, before anyone else reads them.
		 */
		padata = cmpxchg(&ring[next & mask], NULL, PADATA_DUE);
	} while (padata);
	/* At most the in-flight limit, so the u32 difference survives wrap. */
	padata_note_depth(pinst, next - first);
}

/*
 * Continues a walk that stopped with the token at dom->reorder_resume.
 * Not preemptible, for the same reason as padata_do_serial(); the RCU read
 * section keeps @dom alive as there, see padata_drain().
 */
void padnet_reorder_resume(struct padata_domain *dom)
{
	rcu_read_lock_sched();
	padata_reorder(dom, READ_ONCE(dom->reorder_resume));
	rcu_read_unlock_sched();
}

void padnet_reorder_worker(struct work_struct *work)
{
	padnet_reorder_resume(container_of(work, struct padata_domain,
					   reorder_work));
}

/**
 * padata_do_serial - report that an object's parallel work is finished
 * @padata: an object accepted by padata_do_parallel() whose parallel()
 *          has been called; each object is reported exactly once.
 *
 * serial() is then called on the object's callback CPU once every object
 * accepted into its domain before it has been reported too. If @padata is
 * the next object due, the caller releases it and the objects parked
 * behind it, at most the instance's in-flight limit of them; a work item
 * releases the rest.
 * Called from parallel() on the CPU a released object's serial queue runs
 * on, it may call that serial() itself before returning: parallel() must
 * not hold a lock serial() takes around this call.
 *
 * Context: any context, including hard interrupts; does not sleep and
 * takes no lock.
 */
void padata_do_serial(struct padata_priv *padata)
{
	struct padata_domain *dom = padata->dom;
	u32 seq = padata->seq_nr;
	struct padata_priv *prev;

	/*
	 * Keeps @dom alive after @padata is released, see padata_drain().
	 * Not preemptible: a preempted token holder would stall every
	 * completion behind it.
	 */
	rcu_read_lock_sched();
	prev = xchg(&dom->ring[seq & dom->ring_mask], padata);
	if (prev == PADATA_DUE)
		padata_reorder(dom, padata);
	else if (WARN_ON_ONCE(prev))
		pr_err("padata: seq %u collides with seq %u\n",
		       seq, prev->seq_nr);
	rcu_read_unlock_sched();
}
EXPORT_SYMBOL_GPL(padata_do_serial);

static void padata_serial_done(struct padata_squeue *sq,
			       struct padata_domain *dom, unsigned int cnt)
{
	this_cpu_add(sq->pinst->stats->completed, cnt);
	/*
	 * Zeroed before @done grows, so that padata_serialised(), which reads
	 * @done first, never counts these objects twice.
	 */
	WRITE_ONCE(sq->unpublished, 0);
	/*
	 * Fully ordered: serial() has returned before @done counts it, and
	 * @draining is read after, pairing with smp_mb() in padata_drain().
	 */
	atomic_add_return(cnt, &dom->done);
	if (READ_ONCE(dom->draining))
		wake_up_var(&dom->done);
}

/*
 * Calls serial() for the batch on @sq's list, oldest first. The caller
 * holds PADATA_SQ_RUNNING: serial() calls of one queue never overlap, and
 * a batch is taken only after the previous one finished, so they never
 * swap. serial() may free the object. Only the work item may reschedule
 * between objects; a token holder runs with preemption off.
 *
 * Objects are counted to their own domain: a run of one domain's objects
 * is published to it before the next domain's are counted.
 */
static void padata_serial_run(struct padata_squeue *sq, bool in_worker)
{
	struct padata_domain *dom = NULL;
	struct padata_priv *padata, *next;
	struct llist_node *batch;
	unsigned int cnt = 0;
	u32 tag = 0;

	batch = llist_reverse_order(llist_del_all(&sq->list));
	llist_for_each_entry_safe(padata, next, batch, node) {
		if (padata->dom != dom) {
			if (cnt)
				padata_serial_done(sq, dom, cnt);
			cnt = 0;
			dom = padata->dom;
			tag = dom->tag;
		}
		local_bh_disable();
		padata->serial(padata);
		local_bh_enable();
		/*
		 * Release: a submitter that counts this object (acquire) is
		 * ordered after serial() and after the walk freed its slot.
		 */
		smp_store_release(&sq->unpublished, tag | ++cnt);
		if (cnt == PADATA_DONE_BATCH) {
			padata_serial_done(sq, dom, cnt);
			cnt = 0;
		}
		if (in_worker)
			cond_resched();
	}
	if (cnt)
		padata_serial_done(sq, dom, cnt);
	clear_bit_unlock(PADATA_SQ_RUNNING, &sq->flags);
	/*
	 * A releaser that found the bit held queued the work item, and that
	 * run may have found it held too and returned (see the worker): look
	 * at the list once more. Full barrier: the releaser's llist_add() and
	 * test_and_set_bit() are fully ordered too, so one of us sees the
	 * other.
	 */
	smp_mb__after_atomic();
	if (!llist_empty(&sq->list))
		queue_work_on(READ_ONCE(sq->run_cpu), sq->pinst->wq, &sq->work);
}

/*
 * Called by a parallel work item after each object. Token holders on
 * other CPUs release objects to this CPU's serial queue and queue its
 * work item, but on a per-CPU workqueue that item waits while this one
 * runs, however long its batch: concurrency management starts another
 * worker only when the running one sleeps. Until then those objects stay
 * in flight, submitters meet the limit, and the other CPUs run dry. So the
 * parallel worker calls their serial() itself, in serial()'s own context;
 * the serial work item, when it runs, finds less or nothing left.
 */
void padnet_serial_catch_up(struct padata_instance *pinst)
{
	struct padata_squeue *sq;
	bool mine;

	/* A bound worker stays on its CPU; off only for smp_processor_id(). */
	preempt_disable();
	sq = this_cpu_ptr(pinst->squeue);
	mine = !llist_empty(&sq->list) &&
	       READ_ONCE(sq->run_cpu) == smp_processor_id() &&
	       !test_and_set_bit(PADATA_SQ_RUNNING, &sq->flags);
	if (mine)
		this_cpu_inc(pinst->stats->serial_caught_up);
	preempt_enable();
	if (mine)
		padata_serial_run(sq, true);
}

void padnet_serial_worker(struct work_struct *work)
{
	struct padata_squeue *sq = container_of(work, struct padata_squeue,
						work);

	/* Its holder looks at the list again when it lets go of the bit. */
	if (test_and_set_bit(PADATA_SQ_RUNNING, &sq->flags))
		return;
	padata_serial_run(sq, true);
}
