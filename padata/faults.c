// SPDX-License-Identifier: GPL-2.0
/*
 * padata's faults, built only into test builds (PADNET_TEST=y): what
 * padnet_test_set_fault() arms, for the KUnit suite's negative controls
 * (a checker of the suite must see each one). The token holder's walk
 * (reorder.c) calls the two entry points below; release builds have
 * inline stand-ins (internal.h) that release the due object and nothing
 * else.
 *
 * Called by the token holder only, so the fault's fields need no atomics:
 * the token hand-off orders one holder's writes before the next holder's
 * reads.
 */

#include <linux/workqueue.h>

#include "internal.h"

/*
 * Whether the armed fault is due at @padata, the due object; disarms it
 * when it is. The countdown lets the first objects pass.
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
	    padnet_fault_due(t) != PADNET_FAULT_DELAY)
		return false;
	WRITE_ONCE(pinst->reorder_resume, padata);
	queue_delayed_work(pinst->wq, &t->delay_work,
			   msecs_to_jiffies(t->delay_ms));
	return true;
}

/**
 * padnet_release_due - release the due object, unless a fault takes it
 * @pinst: the instance
 * @padata: the due object, its ring slot cleared
 *
 * PADNET_FAULT_DROP holds @padata until the fault is cleared;
 * PADNET_FAULT_SWAP holds it until the next object has been released.
 */
void padnet_release_due(struct padata_instance *pinst,
			struct padata_priv *padata)
{
	struct padata_test_state *t = pinst->test;

	switch (READ_ONCE(t->fault) == PADNET_FAULT_DELAY ?
		PADNET_FAULT_NONE : padnet_fault_due(t)) {
	case PADNET_FAULT_SWAP:
		t->swap_pending = true;
		fallthrough;
	case PADNET_FAULT_DROP:
		WRITE_ONCE(t->held, padata);
		return;
	default:
		break;
	}
	padnet_test_point(pinst, PADNET_TP_RELEASE, padata);
	padnet_release(pinst, padata);
	if (unlikely(t->swap_pending)) {
		t->swap_pending = false;
		padata = xchg(&t->held, NULL);
		if (padata)
			padnet_release(pinst, padata);
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
		padnet_release(pinst, padata);
	rcu_read_unlock_sched();
}
