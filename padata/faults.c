// SPDX-License-Identifier: GPL-2.0
/*
 * padata's faults, built only into test builds (PADNET_TEST=y): what
 * padnet_test_set_fault() arms, for the KUnit suite's negative controls
 * (a checker of the suite must see each one). The token holder's walk
 * (reorder.c) asks the two predicates below whether a fault stops it or
 * takes the due object, and submitters (core.c) whether the express lane
 * is shut; release builds have inline stand-ins (internal.h) that are
 * always false, so the walk compiles as if there were no faults.
 *
 * Faults act on the walks of domain 0, the instance's own, only. They are
 * called by its token holder, so the fault's fields need no atomics: the
 * token hand-off orders one holder's writes before the next holder's
 * reads. Token holders of other domains run at the same time.
 */

#include <linux/workqueue.h>

#include "internal.h"

/*
 * Which fault, if any, is due at the walk's due object; disarms it when
 * one is. The countdown lets the first objects pass, one per due object.
 */
static enum padnet_test_fault padnet_fault_due(struct padata_test_state *t)
{
	/* Acquire: pairs with the release in padnet_test_set_fault(). */
	enum padnet_test_fault fault = smp_load_acquire(&t->fault);

	if (likely(fault == PADNET_FAULT_NONE))
		return PADNET_FAULT_NONE;
	if (t->countdown) {
		t->countdown--;
		return PADNET_FAULT_NONE;
	}
	WRITE_ONCE(t->fault, PADNET_FAULT_NONE);
	return fault;
}

/**
 * padnet_fault_stops_walk - PADNET_FAULT_DELAY: stop the walk at @padata
 * @pinst: the instance
 * @padata: the due object, still in its ring slot
 *
 * The token stays with @padata until the delayed resume, as it does when
 * a walk reaches the in-flight limit.
 *
 * Return: true when the walk must stop here.
 */
bool padnet_fault_stops_walk(struct padata_instance *pinst,
			     struct padata_priv *padata)
{
	struct padata_test_state *t = pinst->test;

	if (likely(READ_ONCE(t->fault) != PADNET_FAULT_DELAY) ||
	    padata->dom != &pinst->dom0 ||
	    padnet_fault_due(t) != PADNET_FAULT_DELAY)
		return false;
	WRITE_ONCE(pinst->dom0.reorder_resume, padata);
	queue_delayed_work(pinst->wq, &t->delay_work,
			   msecs_to_jiffies(t->delay_ms));
	return true;
}

/*
 * Queues @padata for serial() on its callback CPU: padata_release()
 * without serial() in place, which the walk keeps to itself (static, so
 * that a release build inlines it). What a fault holds goes out this way,
 * late on purpose; the serial worker and PADATA_SQ_RUNNING still keep
 * serial() calls of one queue from overlapping.
 */
static void padnet_fault_queue(struct padata_instance *pinst,
			       struct padata_priv *padata)
{
	struct padata_squeue *sq = per_cpu_ptr(pinst->squeue, padata->cb_cpu);

	if (llist_add(&padata->node, &sq->list))
		queue_work_on(READ_ONCE(sq->run_cpu), pinst->wq, &sq->work);
}

/**
 * padnet_fault_takes - whether a fault takes the due object from the walk
 * @pinst: the instance
 * @padata: the due object, its ring slot cleared
 *
 * PADNET_FAULT_DROP holds @padata until the fault is cleared;
 * PADNET_FAULT_SWAP holds it, takes the next due object too and queues
 * that one, then the held one.
 *
 * Return: true when the fault took @padata: the walk must not release it.
 */
bool padnet_fault_takes(struct padata_instance *pinst,
			struct padata_priv *padata)
{
	struct padata_test_state *t = pinst->test;
	enum padnet_test_fault fault;
	struct padata_priv *held;

	if (padata->dom != &pinst->dom0)
		return false;
	if (unlikely(t->swap_pending)) {
		t->swap_pending = false;
		padnet_test_point(pinst, PADNET_TP_RELEASE, padata);
		padnet_fault_queue(pinst, padata);
		held = xchg(&t->held, NULL);
		if (held)
			padnet_fault_queue(pinst, held);
		return true;
	}
	/* Only SWAP and DROP take: DELAY is padnet_fault_stops_walk()'s,
	 * counted there, NO_EXPRESS the submitters' and NO_SLICE the
	 * parallel workers'.
	 */
	fault = READ_ONCE(t->fault);
	if (fault != PADNET_FAULT_SWAP && fault != PADNET_FAULT_DROP)
		return false;
	switch (padnet_fault_due(t)) {
	case PADNET_FAULT_SWAP:
		t->swap_pending = true;
		fallthrough;
	case PADNET_FAULT_DROP:
		WRITE_ONCE(t->held, padata);
		return true;
	default:
		return false;
	}
}

/**
 * padnet_fault_release_held - release what a fault still holds
 * @pinst: the instance
 *
 * Out of order, on purpose. Context: process.
 */
void padnet_fault_release_held(struct padata_instance *pinst)
{
	struct padata_priv *padata;

	rcu_read_lock_sched();
	padata = xchg(&pinst->test->held, NULL);
	if (padata)
		padnet_fault_queue(pinst, padata);
	rcu_read_unlock_sched();
}

/**
 * padnet_fault_no_express - PADNET_FAULT_NO_EXPRESS: the lane is shut
 * @pinst: the instance
 *
 * Armed until disarmed, for every domain of @pinst: objects of a domain
 * with nothing in flight queue behind the others, as every object did
 * before the express lane.
 *
 * Return: true while the fault is armed.
 */
bool padnet_fault_no_express(struct padata_instance *pinst)
{
	return READ_ONCE(pinst->test->fault) == PADNET_FAULT_NO_EXPRESS;
}

/**
 * padnet_fault_no_slice - PADNET_FAULT_NO_SLICE: workers keep their CPU
 * @pinst: the instance
 *
 * Armed until disarmed: a parallel worker of @pinst runs its whole queue,
 * however long, before the other work items of its CPU, as every worker
 * did before the time slice.
 *
 * Return: true while the fault is armed.
 */
bool padnet_fault_no_slice(struct padata_instance *pinst)
{
	return READ_ONCE(pinst->test->fault) == PADNET_FAULT_NO_SLICE;
}
