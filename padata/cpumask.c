// SPDX-License-Identifier: GPL-2.0
/*
 * padata CPU masks and CPU hotplug.
 *
 * The reorder ring does not depend on the CPU set, so a mask change or a
 * hotplug event only swaps the set of CPUs new objects are spread over:
 * objects already accepted keep their sequence numbers and their order,
 * and nothing has to be drained. The set is published with RCU; while a
 * new one is published padata_do_parallel() returns -EBUSY.
 */

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/slab.h>

#include "internal.h"

static enum cpuhp_state padata_cpuhp_state;

/* Builds @cpus from @user_mask and the online CPUs, minus @dying (or -1). */
static void padata_cpus_fill(struct padata_cpus *cpus,
			     const struct cpumask *user_mask, int dying)
{
	int cpu;

	cpumask_and(cpus->mask, user_mask, cpu_online_mask);
	if (dying >= 0)
		cpumask_clear_cpu(dying, cpus->mask);
	cpus->nr = 0;
	for_each_cpu(cpu, cpus->mask)
		cpus->cpu[cpus->nr++] = cpu;
}

static struct padata_cpus *padata_cpus_spare(struct padata_instance *pinst)
{
	struct padata_cpus *cur;

	cur = rcu_dereference_protected(pinst->cpus,
					lockdep_is_held(&pinst->lock));
	return cur == &pinst->cpus_buf[0] ? &pinst->cpus_buf[1] :
					    &pinst->cpus_buf[0];
}

/*
 * Publishes a new CPU set built into the spare buffer. The grace period
 * makes sure no submitter still reads the old set before the next
 * replacement rewrites it, and, during hotplug, that nobody queues on the
 * dying CPU once this returns.
 * Caller: holds cpus_read_lock (or is a hotplug callback) and pinst->lock.
 */
static void padata_cpus_publish(struct padata_instance *pinst,
				struct padata_cpus *cpus)
{
	set_bit(PADNET_RESET, &pinst->flags);
	rcu_assign_pointer(pinst->cpus, cpus);
	padnet_test_point(pinst, PADNET_TP_RESET, NULL);
	synchronize_rcu();
	clear_bit(PADNET_RESET, &pinst->flags);
}

/*
 * Replaces the user's mask. Refuses a mask with no online CPU.
 * Caller: holds cpus_read_lock and pinst->lock.
 */
static int padata_replace_mask(struct padata_instance *pinst,
			       const struct cpumask *user_mask)
{
	struct padata_cpus *cpus = padata_cpus_spare(pinst);

	padata_cpus_fill(cpus, user_mask, -1);
	if (!cpus->nr)
		return -EINVAL;
	cpumask_copy(pinst->user_mask, user_mask);
	padata_cpus_publish(pinst, cpus);
	return 0;
}

/*
 * Points every serial queue at a CPU that can run it: its own CPU while
 * that is online, else another online CPU. Sets @moved, unless NULL, to
 * the queues that were running on @dying. Caller: holds cpus_read_lock
 * or is a hotplug callback, and owns the instance's configuration.
 */
static void padata_route_squeues(struct padata_instance *pinst, int dying,
				 struct cpumask *moved)
{
	int cpu, fallback;

	/* cpumask_any_but() checks its CPU argument: -1 is not one. */
	fallback = dying < 0 ? cpumask_first(cpu_online_mask) :
			       cpumask_any_but(cpu_online_mask, dying);

	if (moved)
		cpumask_clear(moved);
	for_each_possible_cpu(cpu) {
		struct padata_squeue *sq = per_cpu_ptr(pinst->squeue, cpu);
		bool up = cpu_online(cpu) && cpu != dying;

		if (moved && sq->run_cpu == dying)
			cpumask_set_cpu(cpu, moved);
		WRITE_ONCE(sq->run_cpu, up ? cpu : fallback);
	}
}

/*
 * Catches up with hotplug events between the first fill and the callbacks
 * seeing the instance. Nobody submits before padata_alloc() returns, so
 * the current set is rewritten in place.
 */
static void padata_cpus_sync(struct padata_instance *pinst)
{
	struct padata_cpus *cur;

	cpus_read_lock();
	mutex_lock(&pinst->lock);
	cur = rcu_dereference_protected(pinst->cpus,
					lockdep_is_held(&pinst->lock));
	padata_cpus_fill(cur, pinst->user_mask, -1);
	padata_route_squeues(pinst, -1, NULL);
	mutex_unlock(&pinst->lock);
	cpus_read_unlock();
}

int padnet_cpus_init(struct padata_instance *pinst,
		     const struct cpumask *user_mask)
{
	int i, ret = -ENOMEM;

	for (i = 0; i < ARRAY_SIZE(pinst->cpus_buf); i++) {
		struct padata_cpus *cpus = &pinst->cpus_buf[i];

		if (!zalloc_cpumask_var(&cpus->mask, GFP_KERNEL_ACCOUNT))
			goto err;
		cpus->cpu = kcalloc(nr_cpu_ids, sizeof(int),
				    GFP_KERNEL_ACCOUNT);
		if (!cpus->cpu)
			goto err;
	}
	if (!zalloc_cpumask_var(&pinst->user_mask, GFP_KERNEL_ACCOUNT))
		goto err;
	if (!zalloc_cpumask_var(&pinst->scratch, GFP_KERNEL_ACCOUNT))
		goto err;

	cpus_read_lock();
	padata_cpus_fill(&pinst->cpus_buf[0], user_mask, -1);
	cpus_read_unlock();
	if (!pinst->cpus_buf[0].nr) {
		ret = -EINVAL;
		goto err;
	}
	cpumask_copy(pinst->user_mask, user_mask);
	RCU_INIT_POINTER(pinst->cpus, &pinst->cpus_buf[0]);
	ret = cpuhp_state_add_instance_nocalls(padata_cpuhp_state,
					       &pinst->cpuhp_node);
	if (ret)
		goto err;
	padata_cpus_sync(pinst);
	return 0;

err:
	padnet_cpus_destroy(pinst);
	return ret;
}

/* Frees what padnet_cpus_init() allocated; safe on a partial init. */
void padnet_cpus_destroy(struct padata_instance *pinst)
{
	int i;

	free_cpumask_var(pinst->scratch);
	free_cpumask_var(pinst->user_mask);
	for (i = ARRAY_SIZE(pinst->cpus_buf) - 1; i >= 0; i--) {
		kfree(pinst->cpus_buf[i].cpu);
		free_cpumask_var(pinst->cpus_buf[i].mask);
	}
}

/**
 * padata_set_cpumask - replace the CPU mask of an instance
 * @pinst: the instance.
 * @cpumask: the new mask; it may name offline CPUs, which join when they
 *           come online, but must name at least one online CPU.
 *
 * Objects in flight are not affected: they keep their order relative to
 * objects submitted afterwards, and serial() still runs on their callback
 * CPU even if it left the mask. New objects are spread over the new mask,
 * and their callback CPU must be in it. While the new mask is being
 * published, padata_do_parallel() returns -EBUSY.
 *
 * Context: process context; sleeps.
 * Return: 0, or -EINVAL if @cpumask has no online CPU.
 */
int padata_set_cpumask(struct padata_instance *pinst, cpumask_var_t cpumask)
{
	int ret;

	cpus_read_lock();
	mutex_lock(&pinst->lock);
	ret = padata_replace_mask(pinst, cpumask);
	mutex_unlock(&pinst->lock);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(padata_set_cpumask);

static int padata_edit_cpu(struct padata_instance *pinst, int cpu, bool add)
{
	int ret;

	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	cpus_read_lock();
	mutex_lock(&pinst->lock);
	cpumask_copy(pinst->scratch, pinst->user_mask);
	if (add)
		cpumask_set_cpu(cpu, pinst->scratch);
	else
		cpumask_clear_cpu(cpu, pinst->scratch);
	ret = padata_replace_mask(pinst, pinst->scratch);
	mutex_unlock(&pinst->lock);
	cpus_read_unlock();
	return ret;
}

/**
 * padata_add_cpu - add a CPU to the mask of an instance
 * @pinst: the instance.
 * @cpu: a possible CPU; if it is offline, it joins when it comes online.
 *
 * Same rules as padata_set_cpumask().
 *
 * Context: process context; sleeps.
 * Return: 0, or -EINVAL if @cpu is not a possible CPU or the resulting
 * mask has no online CPU.
 */
int padata_add_cpu(struct padata_instance *pinst, int cpu)
{
	return padata_edit_cpu(pinst, cpu, true);
}
EXPORT_SYMBOL_GPL(padata_add_cpu);

/**
 * padata_remove_cpu - remove a CPU from the mask of an instance
 * @pinst: the instance.
 * @cpu: the CPU to remove.
 *
 * Same rules as padata_set_cpumask(): objects in flight whose callback CPU
 * is @cpu still get serial() there.
 *
 * Context: process context; sleeps.
 * Return: 0, or -EINVAL if @cpu is not a possible CPU or no online CPU
 * would be left in the mask.
 */
int padata_remove_cpu(struct padata_instance *pinst, int cpu)
{
	return padata_edit_cpu(pinst, cpu, false);
}
EXPORT_SYMBOL_GPL(padata_remove_cpu);

/* Nothing can fail here: the CPU set buffers are preallocated. */
static int padata_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct padata_instance *pinst;
	struct padata_cpus *cpus;

	pinst = hlist_entry(node, struct padata_instance, cpuhp_node);
	mutex_lock(&pinst->lock);
	padata_route_squeues(pinst, -1, NULL);
	if (cpumask_test_cpu(cpu, pinst->user_mask)) {
		cpus = padata_cpus_spare(pinst);
		padata_cpus_fill(cpus, pinst->user_mask, -1);
		padata_cpus_publish(pinst, cpus);
	}
	mutex_unlock(&pinst->lock);
	return 0;
}

/*
 * Runs on the dying CPU while it can still run work items. After the new
 * CPU set is published no submitter queues on @cpu, and after the serial
 * queues are rerouted (the same grace period covers both) the token holder
 * does not either; flushing then completes whatever @cpu still held.
 * An instance whose mask has no online CPU left refuses every submission
 * with -EINVAL until one comes back.
 *
 * An instance whose CPU set does not contain @cpu keeps its set, so its
 * submitters never see -EBUSY for it; @cpu can still run serial queues of
 * objects in flight (their callback CPU left the mask), so those are
 * rerouted and flushed all the same.
 */
static int padata_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct padata_instance *pinst;
	struct padata_cpus *cpus;
	int i;

	pinst = hlist_entry(node, struct padata_instance, cpuhp_node);
	mutex_lock(&pinst->lock);
	padata_route_squeues(pinst, cpu, pinst->scratch);
	cpus = rcu_dereference_protected(pinst->cpus,
					 lockdep_is_held(&pinst->lock));
	if (cpumask_test_cpu(cpu, cpus->mask)) {
		cpus = padata_cpus_spare(pinst);
		padata_cpus_fill(cpus, pinst->user_mask, cpu);
		padata_cpus_publish(pinst, cpus);
	} else {
		/* The token holder reads run_cpu under RCU. */
		synchronize_rcu();
	}
	/* A worker past its time slice queued itself again: until none is. */
	while (flush_work(&per_cpu_ptr(pinst->pqueue, cpu)->work))
		;
	for_each_cpu(i, pinst->scratch)
		flush_work(&per_cpu_ptr(pinst->squeue, i)->work);
	mutex_unlock(&pinst->lock);
	return 0;
}

void padnet_hotplug_remove(struct padata_instance *pinst)
{
	cpuhp_state_remove_instance_nocalls(padata_cpuhp_state,
					    &pinst->cpuhp_node);
}

int padnet_hotplug_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "padnet/padata:online",
				      padata_cpu_online, padata_cpu_offline);
	if (ret < 0)
		return ret;
	padata_cpuhp_state = ret;
	return 0;
}

void padnet_hotplug_exit(void)
{
	cpuhp_remove_multi_state(padata_cpuhp_state);
}
