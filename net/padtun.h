/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_PADTUN_H
#define _PADTUN_PADTUN_H

#include <linux/cpumask.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <net/dst_cache.h>
#include <net/rtnetlink.h>

#include "burst.h"
#include "handshake.h"
#include "messages.h"
#include "queueing.h"
#include "replay.h"
#include "session.h"
#include "stats.h"
#include "transform.h"

union padtun_addr {
	__be32 v4;
	struct in6_addr v6;
};

/* The underlay: what newlink parses, and what the link keeps for life. */
struct padtun_endpoints {
	sa_family_t family;
	bool has_local;
	union padtun_addr local;
	union padtun_addr remote;
	__be16 local_port;
	__be16 remote_port;
};

struct padtun_dev {
	struct net_device *dev;
	struct net *net;		/* dev_net(dev): NETIF_F_NETNS_LOCAL */

	/* Set by newlink before the device is registered, then read-only. */
	struct padtun_endpoints ep;
	bool key_set;
	struct padtun_transform transform;
	/* The creator's: sessions, made in the handshake work, are charged
	 * to it like the rest of the link. NULL without memory cgroups.
	 */
	struct mem_cgroup *memcg;

	/* Written by changelink under RTNL while both queues are paused and
	 * empty (the in-flight limit lives in the queues:
	 * padtun_queue_set_limits()). Each queue's
	 * serial CPU in use follows from cb_cpu, rx_cb_cpu and CPU hotplug
	 * (hotplug.c).
	 */
	cpumask_var_t cpus;
	char *cpus_str;			/* cpus as a cpulist, for fill_info */
	int cb_cpu;			/* as configured: tx's serial CPU */
	int rx_cb_cpu;			/* as configured: rx's serial CPU */
	/* Ordering domains (docs/padtun.rst): order flow spreads flows
	 * over @domains of them, order link keeps one. Written by
	 * changelink under RTNL while the device is down and both queues
	 * are paused and empty.
	 */
	bool order_flow;
	unsigned int domains;
	struct hlist_node cpuhp_node;
	struct delayed_work hotplug_work;

	struct padtun_queue tx;
	struct padtun_queue rx;
	struct padtun_replay replay[PADTUN_DOMAINS_MAX];	/* per domain */
	struct padtun_sessions sessions;
	struct padtun_handshake hs;

	/* Released only after both padata instances are freed. */
	struct socket *sock;
	struct dst_cache dst_cache;	/* per CPU: serial() or parallel() */
	/* Per domain (@domains of them): received, to submit. Replaced
	 * with the domains, while the socket is detached (no receive hook
	 * runs), under RTNL.
	 */
	struct padtun_bursts *received;
	/* Bytes charged by the receive hook (PADTUN_CB()->charged) for the
	 * datagrams not authenticated or dropped yet.
	 */
	atomic_t rx_unauth_bytes;
	/* Per domain (@domains of them): decrypted, in order, to GRO.
	 * Replaced with the domains, under RTNL with both queues paused
	 * and empty (padtun_set_domains()).
	 */
	struct padtun_bursts *deliver;
	struct padtun_pcpu_stats __percpu *stats;
};

/* What newlink parsed out of the attributes; only lives during newlink. */
struct padtun_config {
	struct padtun_endpoints ep;
	const struct padtun_transform_desc *transform;
	const u8 *key;
	unsigned int key_len;
	cpumask_var_t cpus;
	int cb_cpu;
	int rx_cb_cpu;
	u32 max_inflight;
	bool order_flow;
	unsigned int domains;
	bool mtu_given;			/* IFLA_MTU: keep it */
};

/* device.c */
int padtun_device_create(struct padtun_dev *pt, struct padtun_config *cfg,
			 struct netlink_ext_ack *extack);
int padtun_device_change(struct padtun_dev *pt, const struct cpumask *cpus,
			 int cb_cpu, int rx_cb_cpu, u32 max_inflight,
			 struct netlink_ext_ack *extack);
int padtun_device_set_order(struct padtun_dev *pt, bool order_flow,
			    unsigned int domains,
			    struct netlink_ext_ack *extack);
void padtun_setup(struct net_device *dev);

#endif /* _PADTUN_PADTUN_H */
