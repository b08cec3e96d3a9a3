// SPDX-License-Identifier: GPL-2.0
/*
 * padtun: a point-to-point IP-in-UDP tunnel whose per-packet crypto runs
 * in parallel through padata and comes back out in order.
 */

#include <linux/module.h>
#include <net/rtnetlink.h>

#include "handshake.h"
#include "hotplug.h"
#include "knobs.h"
#include "netlink.h"
#include "queueing.h"

static int __init padtun_init(void)
{
	int ret;

	ret = padtun_queueing_init();
	if (ret)
		return ret;
	ret = padtun_knobs_init();
	if (ret)
		goto err_queueing;
	ret = padtun_hotplug_init();
	if (ret)
		goto err_knobs;
	ret = padtun_handshake_module_init();
	if (ret)
		goto err_hotplug;

	ret = rtnl_link_register(&padtun_link_ops);
	if (ret)
		goto err_handshake;
	return 0;

err_handshake:
	padtun_handshake_module_exit();
err_hotplug:
	padtun_hotplug_exit();
err_knobs:
	padtun_knobs_exit();
err_queueing:
	padtun_queueing_exit();
	return ret;
}

static void __exit padtun_exit(void)
{
	/* Deletes every link; their destructors wait for padata to drain. */
	rtnl_link_unregister(&padtun_link_ops);
	padtun_handshake_module_exit();
	padtun_hotplug_exit();
	padtun_knobs_exit();
	padtun_queueing_exit();
}

module_init(padtun_init);
module_exit(padtun_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("UDP tunnel with padata-parallel crypto");
MODULE_ALIAS_RTNL_LINK("padtun");
