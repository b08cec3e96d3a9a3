// SPDX-License-Identifier: GPL-2.0
/*
 * padtun: a point-to-point IP-in-UDP tunnel whose per-packet crypto runs
 * in parallel through padata and comes back out in order.
 */

#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include <net/rtnetlink.h>

#include "knobs.h"
#include "padtun.h"

/* padata runs parallel() from this queue with queue_work_on(), so it must
 * be a per-CPU one; the resubmit and deferred-serial work go here too, so
 * destroying it at unload waits for the last of them.
 *
 * Not WQ_CPU_INTENSIVE: a batch queued while this CPU's worker runs is
 * then taken by that worker when it is done, where an intensive worker,
 * which concurrency management does not count, would have another one
 * woken for it, a context switch per batch. A batch is bounded (a GSO
 * packet, a receive burst) and the worker yields between batches.
 */
struct workqueue_struct *padtun_wq;

static int __init padtun_init(void)
{
	int ret;

	padtun_wq = alloc_workqueue("padtun", WQ_MEM_RECLAIM, 0);
	if (!padtun_wq)
		return -ENOMEM;
	padtun_knobs_init();
	ret = padtun_hotplug_init();
	if (ret)
		goto err_knobs;

	ret = rtnl_link_register(&padtun_link_ops);
	if (ret)
		goto err_hotplug;
	return 0;

err_hotplug:
	padtun_hotplug_exit();
err_knobs:
	padtun_knobs_exit();
	destroy_workqueue(padtun_wq);
	return ret;
}

static void __exit padtun_exit(void)
{
	/* Deletes every link; their destructors wait for padata to drain. */
	rtnl_link_unregister(&padtun_link_ops);
	padtun_hotplug_exit();
	padtun_knobs_exit();
	/* Receive keys are freed by RCU callbacks queueing work here. */
	rcu_barrier();
	destroy_workqueue(padtun_wq);
}

module_init(padtun_init);
module_exit(padtun_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("UDP tunnel with padata-parallel crypto");
MODULE_ALIAS_RTNL_LINK("padtun");
