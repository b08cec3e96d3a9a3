// SPDX-License-Identifier: GPL-2.0
/*
 * The serial CPUs, and CPU hotplug. Each direction has its own: tx's is
 * the configured callback CPU, rx's the configured receive callback CPU;
 * with order flow, each further domain takes the next CPU of the list.
 * By default they are one CPU: what the stack does after rx's serial
 * stage (GRO, the inner TCP) mostly transmits (ACKs, the data they
 * release), and a transmit submitted on tx's serial CPU is taken by the
 * worker already running there, where another CPU would be woken for it.
 * Set apart, the two directions' serial stages (and the underlay's
 * transmit, GRO and the inner protocols after them) need not share one.
 *
 * padata stops using a parallel CPU that goes offline by itself, but
 * refuses submissions (-EINVAL) for a callback CPU that is not online. So
 * when a direction's serial CPU leaves, padtun moves that serial stage to
 * another online CPU of the link's list, quiesced as a changelink is (no
 * packet in flight while a serial CPU changes, the rest wait in the
 * backlogs: nothing lost, nothing reordered), and back when the preferred
 * one returns.
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

#include "hotplug.h"
#include "padtun.h"
#include "queueing.h"
#include "stats.h"

static enum cpuhp_state padtun_cpuhp_state;

/* The CPU a domain's serial stage runs on while it is active: the
 * direction's callback CPU for domain 0, and for each further domain the
 * next CPU of the list, round it, so that order flow's domains spread
 * their serial stages (and the sending or delivery after them) over the
 * list.
 */
static int padtun_serial_cpu_preferred(const struct padtun_dev *pt,
				       const struct padtun_queue *q,
				       unsigned int domain)
{
	int cpu = q == &pt->tx ? pt->cb_cpu : pt->rx_cb_cpu;

	while (domain--) {
		cpu = cpumask_next(cpu, pt->cpus);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(pt->cpus);
	}
	return cpu;
}

/* Active, not only online: a CPU on its way down is already inactive when
 * our teardown runs, and one coming up is active only at the very end.
 * -1 when no CPU of the list is active.
 */
static int padtun_serial_cpu_wanted(const struct padtun_dev *pt,
				    const struct padtun_queue *q,
				    unsigned int domain)
{
	int cpu = padtun_serial_cpu_preferred(pt, q, domain);

	if (cpu_active(cpu))
		return cpu;
	cpu = cpumask_first_and(pt->cpus, cpu_active_mask);
	return cpu < nr_cpu_ids ? cpu : -1;
}

static bool padtun_serial_cpu_must_move(const struct padtun_dev *pt,
					const struct padtun_queue *q)
{
	unsigned int d;
	int want;

	for (d = 0; d < pt->domains; d++) {
		want = padtun_serial_cpu_wanted(pt, q, d);
		if (want >= 0 && want != q->serial_cpu[d])
			return true;
	}
	return false;
}

/* Both queues paused and empty. Returns how many serial CPUs changed. */
static unsigned int padtun_serial_cpus_move(struct padtun_dev *pt)
{
	struct padtun_queue *queues[] = { &pt->tx, &pt->rx };
	unsigned int i, d, moved = 0;
	int want;

	/* CPUs may go on coming and going: read what is wanted once. */
	for (i = 0; i < ARRAY_SIZE(queues); i++) {
		for (d = 0; d < pt->domains; d++) {
			want = padtun_serial_cpu_wanted(pt, queues[i], d);
			if (want < 0 || want == queues[i]->serial_cpu[d])
				continue;
			WRITE_ONCE(queues[i]->serial_cpu[d], want);
			moved++;
		}
	}
	return moved;
}

/* Online, not active yet: its activation has no callback of ours. */
static bool padtun_serial_cpu_coming_back(const struct padtun_dev *pt,
					  const struct padtun_queue *q)
{
	unsigned int d;
	int cpu;

	for (d = 0; d < pt->domains; d++) {
		cpu = padtun_serial_cpu_preferred(pt, q, d);
		if (q->serial_cpu[d] != cpu && cpu_online(cpu))
			return true;
	}
	return false;
}

/* Under RTNL: the configuration cannot change meanwhile. */
static void padtun_hotplug_follow(struct padtun_dev *pt)
{
	unsigned int moved;
	int ret;

	if (padtun_serial_cpu_must_move(pt, &pt->tx) ||
	    padtun_serial_cpu_must_move(pt, &pt->rx)) {
		ret = padtun_queue_pause(&pt->rx);
		if (!ret)
			ret = padtun_queue_pause(&pt->tx);
		/* Still in flight: moving now could reorder; try again. */
		moved = ret ? 0 : padtun_serial_cpus_move(pt);
		padtun_queue_resume(&pt->rx);
		padtun_queue_resume(&pt->tx);
		if (ret) {
			netdev_warn(pt->dev, "packets in flight did not drain; serial CPUs still %d (tx), %d (rx)\n",
				    pt->tx.serial_cpu[0], pt->rx.serial_cpu[0]);
			goto again;
		}
		padtun_stat_add(pt, PADTUN_STAT_CB_CPU_MOVES, moved);
		netdev_dbg(pt->dev, "serial CPUs now %d (tx), %d (rx) for domain 0; configured callback CPU %d\n",
			   pt->tx.serial_cpu[0], pt->rx.serial_cpu[0], pt->cb_cpu);
	}
	if (padtun_serial_cpu_coming_back(pt, &pt->tx) ||
	    padtun_serial_cpu_coming_back(pt, &pt->rx))
		goto again;
	return;
again:
	queue_delayed_work(system_unbound_wq, &pt->hotplug_work, HZ / 20);
}

/**
 * padtun_serial_cpus_reset - each direction's serial CPUs, as configured
 * @pt: the device, its CPU list, callback CPUs or domains just set
 *
 * Context: RTNL held, both queues paused and empty or not created yet.
 * The list's CPUs were checked online; should a preferred one not be
 * active yet (coming up at this very moment), another CPU of the list
 * stands in until the hotplug work looks again (changelink kicks it).
 */
void padtun_serial_cpus_reset(struct padtun_dev *pt)
{
	struct padtun_queue *queues[] = { &pt->tx, &pt->rx };
	unsigned int i, d;
	int cpu;

	for (i = 0; i < ARRAY_SIZE(queues); i++) {
		for (d = 0; d < pt->domains; d++) {
			cpu = padtun_serial_cpu_wanted(pt, queues[i], d);
			if (cpu < 0)
				cpu = padtun_serial_cpu_preferred(pt,
								  queues[i], d);
			WRITE_ONCE(queues[i]->serial_cpu[d], cpu);
		}
	}
}

static void padtun_hotplug_work(struct work_struct *work)
{
	struct padtun_dev *pt = container_of(to_delayed_work(work),
					     struct padtun_dev, hotplug_work);

	/* Not rtnl_lock(): newlink's unwinding cancels this work, with RTNL
	 * held, and would wait for ever for a run blocked on it.
	 */
	if (!rtnl_trylock()) {
		queue_delayed_work(system_unbound_wq, &pt->hotplug_work,
				   HZ / 20);
		return;
	}
	if (pt->dev->reg_state == NETREG_REGISTERED)
		padtun_hotplug_follow(pt);
	rtnl_unlock();
}

/**
 * padtun_hotplug_kick - look at the serial CPUs again, soon
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
 * padtun_hotplug_remove - stop following CPU hotplug
 * @pt: the device, unregistered or never registered
 *
 * Context: process, RTNL held or not (the work only tries for it). Both
 * queues are destroyed: nothing kicks the work any more (a submission
 * refused for an inactive serial CPU does). Waits for a look under way
 * and drops one asked for.
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
