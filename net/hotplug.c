// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug: padata stops using a parallel CPU that goes offline by
 * itself, but refuses submissions (-EINVAL) for a callback CPU that is not
 * online. So when a link's callback CPU leaves, padtun moves its serial
 * stage to another online CPU of the link's list, quiesced as a changelink
 * is (no packet in flight while the callback CPU changes, the rest wait
 * in the backlogs: nothing lost, nothing reordered), and back when the
 * configured one returns.
 *
 * The hotplug callbacks only kick a work item: the move waits for packets
 * in flight and takes RTNL (it must not run against a changelink), which
 * a hotplug callback must not do (changelink takes cpus_read_lock under
 * RTNL). Between a CPU leaving and the move, padata's -EINVAL keeps the
 * packets in the backlog (queueing.c).
 */

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/rtnetlink.h>

#include "padtun.h"
#include "queueing.h"

static enum cpuhp_state padtun_cpuhp_state;

/* Active, not only online: a CPU on its way down is already inactive when
 * our teardown runs, and one coming up is active only at the very end.
 */
static int padtun_cb_cpu_wanted(struct padtun_dev *pt)
{
	int cpu = pt->cb_cpu;

	if (cpu_active(cpu))
		return cpu;
	cpu = cpumask_first_and(pt->cpus, cpu_active_mask);
	return cpu < nr_cpu_ids ? cpu : -1;
}

/* Under RTNL: the configuration cannot change meanwhile. */
static void padtun_hotplug_follow(struct padtun_dev *pt)
{
	int want = padtun_cb_cpu_wanted(pt);
	int ret;

	if (want >= 0 && want != pt->cb_cpu_now) {
		ret = padtun_queue_pause(&pt->rx);
		if (!ret)
			ret = padtun_queue_pause(&pt->tx);
		/* Still in flight: moving now could reorder; try again. */
		if (!ret)
			WRITE_ONCE(pt->cb_cpu_now, want);
		padtun_queue_resume(&pt->rx);
		padtun_queue_resume(&pt->tx);
		if (ret) {
			netdev_warn(pt->dev, "packets in flight did not drain; callback CPU still %d\n",
				    pt->cb_cpu_now);
			goto again;
		}
		padtun_stat_inc(pt, PADTUN_STAT_CB_CPU_MOVES);
		netdev_dbg(pt->dev, "callback CPU now %d (configured %d)\n",
			   want, pt->cb_cpu);
	}
	/* Online, not active yet: its activation has no callback of ours. */
	if (pt->cb_cpu_now != pt->cb_cpu && cpu_online(pt->cb_cpu))
		goto again;
	return;
again:
	queue_delayed_work(system_unbound_wq, &pt->hotplug_work, HZ / 20);
}

static void padtun_hotplug_work(struct work_struct *work)
{
	struct padtun_dev *pt = container_of(to_delayed_work(work),
					     struct padtun_dev, hotplug_work);

	rtnl_lock();
	if (pt->dev->reg_state == NETREG_REGISTERED)
		padtun_hotplug_follow(pt);
	rtnl_unlock();
}

/**
 * padtun_hotplug_kick - look at the callback CPU again, soon
 * @pt: the device
 *
 * Context: any.
 */
void padtun_hotplug_kick(struct padtun_dev *pt)
{
	mod_delayed_work(system_unbound_wq, &pt->hotplug_work, 0);
}

static int padtun_cpu_event(unsigned int cpu, struct hlist_node *node)
{
	struct padtun_dev *pt = hlist_entry(node, struct padtun_dev,
					    cpuhp_node);

	if (cpumask_test_cpu(cpu, pt->cpus))
		padtun_hotplug_kick(pt);
	return 0;
}

void padtun_hotplug_init_dev(struct padtun_dev *pt)
{
	INIT_DELAYED_WORK(&pt->hotplug_work, padtun_hotplug_work);
}

/**
 * padtun_hotplug_add - follow CPU hotplug for a new link
 * @pt: the device, registered
 *
 * Context: RTNL held.
 */
int padtun_hotplug_add(struct padtun_dev *pt)
{
	return cpuhp_state_add_instance_nocalls(padtun_cpuhp_state,
						&pt->cpuhp_node);
}

/**
 * padtun_hotplug_remove - stop following, and wait for a move under way
 * @pt: the device, unregistered
 *
 * Context: process, RTNL not held (the work takes it).
 */
void padtun_hotplug_remove(struct padtun_dev *pt)
{
	cpuhp_state_remove_instance_nocalls(padtun_cpuhp_state,
					    &pt->cpuhp_node);
	cancel_delayed_work_sync(&pt->hotplug_work);
}

int padtun_hotplug_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "net/padtun:online",
				      padtun_cpu_event, padtun_cpu_event);
	if (ret < 0)
		return ret;
	padtun_cpuhp_state = ret;
	return 0;
}

void padtun_hotplug_exit(void)
{
	cpuhp_remove_multi_state(padtun_cpuhp_state);
}
