// SPDX-License-Identifier: GPL-2.0
/*
 * padata test hooks, built only into test builds (PADNET_TEST=y): the
 * entry points of padata_test_hooks.h, exported in the PADNET_TEST symbol
 * namespace for the KUnit suite. The fast paths call the hook and the
 * faults through internal.h, which compiles them to nothing otherwise.
 */

#include <linux/module.h>
#include <linux/slab.h>

#include "internal.h"

static void padnet_test_delay_worker(struct work_struct *work)
{
	struct padata_test_state *t = container_of(to_delayed_work(work),
						   struct padata_test_state,
						   delay_work);

	padnet_reorder_resume(&t->pinst->dom0);
}

/* An instance's test state; its hook and fault start off. */
int padnet_test_init(struct padata_instance *pinst)
{
	struct padata_test_state *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	t->pinst = pinst;
	INIT_DELAYED_WORK(&t->delay_work, padnet_test_delay_worker);
	pinst->test = t;
	return 0;
}

/* Drained: a walk DELAY stopped has been resumed; let that run end. */
void padnet_test_flush(struct padata_instance *pinst)
{
	flush_delayed_work(&pinst->test->delay_work);
}

/* Nothing runs for the instance any more. */
void padnet_test_free(struct padata_instance *pinst)
{
	kfree(pinst->test);
	pinst->test = NULL;
}

/**
 * padnet_alloc_limit - allocate an instance with a given in-flight limit
 * @cpumask: the CPUs for parallel() and the allowed callback CPUs.
 * @wq: a per-CPU (not WQ_UNBOUND) workqueue that runs both stages.
 * @limit: objects in flight before padata_do_parallel() returns -EBUSY.
 *
 * Like padata_alloc(), which uses the max_inflight module parameter.
 *
 * Context: process context; may sleep.
 * Return: the new, stopped instance, or NULL on failure or when @cpumask
 * has no online CPU.
 */
struct padata_instance *padnet_alloc_limit(const struct cpumask *cpumask,
					   struct workqueue_struct *wq,
					   unsigned int limit)
{
	return padnet_instance_alloc(cpumask, wq, limit);
}
EXPORT_SYMBOL_NS_GPL(padnet_alloc_limit, PADNET_TEST);

/**
 * padnet_test_preset_seq - move an idle instance's sequence space
 * @pinst: the instance, with no object of its domain 0 in flight.
 * @seq: the sequence number the next accepted object gets.
 *
 * Test hook, e.g. to start just below the 32-bit wrap.
 *
 * Context: process context.
 * Return: 0, or -EBUSY if objects are in flight.
 */
int padnet_test_preset_seq(struct padata_instance *pinst, u32 seq)
{
	int ret = -EBUSY;

	mutex_lock(&pinst->lock);
	if (padnet_drained(&pinst->dom0)) {
		/* The last token holder may still be publishing the token. */
		synchronize_rcu();
		padnet_reorder_init(&pinst->dom0, seq);
		ret = 0;
	}
	mutex_unlock(&pinst->lock);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(padnet_test_preset_seq, PADNET_TEST);

/**
 * padnet_test_set_hook - call a function at the core's test points
 * @pinst: the instance.
 * @hook: called at each &enum padnet_test_point with @arg; NULL removes it.
 * @arg: passed to @hook.
 *
 * The hook runs in the context of the code at the point: with preemption
 * off (and maybe in an interrupt) everywhere but %PADNET_TP_RESET, which
 * runs with the instance's mutex held while padata_do_parallel() returns
 * -EBUSY for a CPU set change. Set it while nothing runs for the instance.
 *
 * Context: process context; sleeps when removing the hook, until no
 * caller can still be running it.
 */
void padnet_test_set_hook(struct padata_instance *pinst,
			  padnet_test_hook_t hook, void *arg)
{
	mutex_lock(&pinst->lock);
	WRITE_ONCE(pinst->test->arg, arg);
	/* Pairs with the acquire in padnet_test_point(). */
	smp_store_release(&pinst->test->hook, hook);
	mutex_unlock(&pinst->lock);
	if (!hook)
		synchronize_rcu();
}
EXPORT_SYMBOL_NS_GPL(padnet_test_set_hook, PADNET_TEST);

/**
 * padnet_test_set_fault - make the release path misbehave once
 * @pinst: the instance, with no walk in progress when arming.
 * @fault: what to do to the chosen object; %PADNET_FAULT_NONE disarms and
 *         releases an object a fault still holds (out of order).
 * @nth: the chosen object is the @nth one of domain 0 due from now (0: the
 *       next); other domains' walks meet no fault.
 * @delay_ms: for %PADNET_FAULT_DELAY, how long the walk stops.
 *
 * %PADNET_FAULT_NO_EXPRESS and %PADNET_FAULT_NO_SLICE are not due once:
 * they hold, for every domain and CPU, until disarmed; @nth does not apply.
 *
 * For negative controls: a checker of the suite must see each fault.
 *
 * Context: process context.
 * Return: 0, or -EBUSY when arming while a fault is armed or holds an
 * object.
 */
int padnet_test_set_fault(struct padata_instance *pinst,
			  enum padnet_test_fault fault, unsigned int nth,
			  unsigned int delay_ms)
{
	struct padata_test_state *t = pinst->test;
	int ret = 0;

	mutex_lock(&pinst->lock);
	if (fault == PADNET_FAULT_NONE) {
		WRITE_ONCE(t->fault, PADNET_FAULT_NONE);
		padnet_fault_release_held(pinst);
	} else if (READ_ONCE(t->fault) != PADNET_FAULT_NONE ||
		   READ_ONCE(t->held)) {
		ret = -EBUSY;
	} else {
		t->countdown = nth;
		t->delay_ms = delay_ms;
		/* Pairs with the acquire in padnet_fault_due(). */
		smp_store_release(&t->fault, fault);
	}
	mutex_unlock(&pinst->lock);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(padnet_test_set_fault, PADNET_TEST);

/**
 * padnet_test_read_stats - sum an instance's per-CPU counters
 * @pinst: the instance.
 * @sum: where to store the sums; max_depth is the maximum instead.
 * @parallel: if not NULL, nr_cpu_ids entries for parallel() calls per CPU.
 *
 * The debugfs stats file prints exactly these values.
 *
 * Context: any context.
 */
void padnet_test_read_stats(struct padata_instance *pinst,
			    struct padata_stats *sum, unsigned long *parallel)
{
	padnet_stats_sum(pinst, sum, parallel);
}
EXPORT_SYMBOL_NS_GPL(padnet_test_read_stats, PADNET_TEST);

/**
 * padnet_test_debugfs_id - the debugfs directory number of an instance
 * @pinst: the instance.
 *
 * Context: any context.
 * Return: N for /sys/kernel/debug/padata/N, or -1 without a directory.
 */
int padnet_test_debugfs_id(struct padata_instance *pinst)
{
	return pinst->debugfs ? pinst->id : -1;
}
EXPORT_SYMBOL_NS_GPL(padnet_test_debugfs_id, PADNET_TEST);
