// SPDX-License-Identifier: GPL-2.0
/*
 * The net_device: creation and teardown of everything a link owns, and
 * the live CPU-list change.
 *
 * padtun is a layer-3 device, as WireGuard, ipip and GRE are
 * (ARPHRD_NONE, point-to-point, no ARP, no link-layer header): packets
 * are IP packets from the stack's first byte to the tunnel's.
 */

#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/memcontrol.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/ip.h>
#include <net/ip_tunnels.h>
#include <net/pkt_sched.h>

#include "burst.h"
#include "handshake.h"
#include "hotplug.h"
#include "keys.h"
#include "messages.h"
#include "padtun.h"
#include "queueing.h"
#include "receive.h"
#include "send.h"
#include "session.h"
#include "socket.h"
#include "stats.h"
#include "transform.h"

#define PADTUN_FEATURES	(NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_HIGHDMA | \
			 NETIF_F_GSO_SOFTWARE)

/* TSO packets up to this size: with an MTU of 1,100 or more, their
 * segments, each 36 bytes longer on the wire, fit one UDP GSO skb of at
 * most 64 KiB (gso.c), so a GSO packet goes out as one; a 64 KiB one
 * would take two.
 */
#define PADTUN_TSO_MAX_SIZE	60000

/* Outer IP + UDP + padtun header + tag: what the underlay MTU loses. */
static unsigned int padtun_overhead(const struct padtun_dev *pt)
{
	unsigned int ip = pt->ep.family == AF_INET ? sizeof(struct iphdr) :
						     sizeof(struct ipv6hdr);

	return ip + sizeof(struct udphdr) + sizeof(struct padtun_header) +
	       pt->transform.tag_len;
}

/* Without a session the queue waits, stopped, for the handshake (send.c). */
static int padtun_open(struct net_device *dev)
{
	netif_start_queue(dev);
	padtun_handshake_start(netdev_priv(dev));
	return 0;
}

static int padtun_stop(struct net_device *dev)
{
	netif_stop_queue(dev);
	return 0;
}

/* A light packet is encrypted and sent from ndo_start_xmit itself
 * (queueing.c, in place), into the underlay's qdisc and driver while ours
 * are held: their locks need classes of their own, as every tunnel that
 * sends in place gives them, or lockdep sees one lock taken twice.
 */
static int padtun_init(struct net_device *dev)
{
	netdev_lockdep_set_classes(dev);
	return 0;
}

static const struct net_device_ops padtun_netdev_ops = {
	.ndo_init		= padtun_init,
	.ndo_open		= padtun_open,
	.ndo_stop		= padtun_stop,
	.ndo_start_xmit		= padtun_xmit,
	.ndo_get_stats64	= padtun_get_stats64,
};

void padtun_setup(struct net_device *dev)
{
	struct padtun_dev *pt = netdev_priv(dev);

	dev->netdev_ops = &padtun_netdev_ops;
	dev->ethtool_ops = &padtun_ethtool_ops;
	dev->header_ops = &ip_tunnel_header_ops;
	dev->needs_free_netdev = true;

	dev->type = ARPHRD_NONE;
	dev->flags = IFF_POINTOPOINT | IFF_NOARP;
	dev->hard_header_len = 0;
	dev->addr_len = 0;
	dev->mtu = ETH_DATA_LEN;
	/* A qdisc: flow control stops the queue while padata is full. */
	dev->tx_queue_len = DEFAULT_TX_QUEUE_LEN;

	/* Sockets stay in the creating namespace: so does the device. */
	dev->features |= NETIF_F_NETNS_LOCAL | PADTUN_FEATURES;
	dev->hw_features |= PADTUN_FEATURES;
	netif_set_tso_max_size(dev, PADTUN_TSO_MAX_SIZE);
	dev->needed_headroom = PADTUN_HEADROOM;
	dev->needed_tailroom = PADTUN_TAG_LEN;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = IP_MAX_MTU - sizeof(struct ipv6hdr) -
		       sizeof(struct udphdr) - sizeof(struct padtun_header) -
		       PADTUN_TAG_LEN;

	memset(pt, 0, sizeof(*pt));
	pt->dev = dev;
}

static int padtun_set_cpus(struct padtun_dev *pt, const struct cpumask *cpus,
			   int cb_cpu, int rx_cb_cpu)
{
	char *str = kasprintf(GFP_KERNEL, "%*pbl", cpumask_pr_args(cpus));

	if (!str)
		return -ENOMEM;
	kfree(pt->cpus_str);
	pt->cpus_str = str;
	cpumask_copy(pt->cpus, cpus);
	pt->cb_cpu = cb_cpu;
	pt->rx_cb_cpu = rx_cb_cpu;
	padtun_serial_cpus_reset(pt);
	return 0;
}

/* Receive's backlog is bounded (the wire cannot be told to wait), transmit's
 * by the device queue's flow control (send.c).
 */
static void padtun_set_limits(struct padtun_dev *pt, u32 max_inflight)
{
	padtun_queue_set_limits(&pt->tx, max_inflight, UINT_MAX);
	padtun_queue_set_limits(&pt->rx, max_inflight,
				padtun_rx_backlog_max(max_inflight));
}

static void padtun_copy_config(struct padtun_dev *pt,
			       const struct padtun_config *cfg)
{
	unsigned int i;

	pt->net = dev_net(pt->dev);
	pt->ep = cfg->ep;
	pt->key_set = !!cfg->key;
	pt->order_flow = cfg->order_flow;
	pt->domains = cfg->domains;
	padtun_set_limits(pt, cfg->max_inflight);
	for (i = 0; i < PADTUN_DOMAINS_MAX; i++)
		padtun_replay_init(&pt->replay[i]);
	padtun_sessions_init(&pt->sessions);
	padtun_hotplug_init_dev(pt);
}

static void padtun_key_label(struct padtun_key_label *label,
			     sa_family_t family, const union padtun_addr *addr,
			     __be16 port)
{
	memset(label, 0, sizeof(*label));
	label->family = family == AF_INET ? 4 : 6;
	label->port = port;
	if (family == AF_INET)
		memcpy(label->addr, &addr->v4, sizeof(addr->v4));
	else
		memcpy(label->addr, &addr->v6, sizeof(addr->v6));
}

/* Each direction's keys are named after its receiving end, as both ends
 * see it: the sender by its remote address and port, the receiver by its
 * local ones (keys.c).
 */
static int padtun_set_key_labels(struct padtun_dev *pt,
				 struct netlink_ext_ack *extack)
{
	union padtun_addr local;
	int ret;

	ret = padtun_socket_local_addr(pt, &local);
	if (ret) {
		NL_SET_ERR_MSG(extack,
			       "no route to the remote, so no local address for the keys");
		return ret;
	}
	padtun_key_label(&pt->transform.tx_label, pt->ep.family,
			 &pt->ep.remote, pt->ep.remote_port);
	padtun_key_label(&pt->transform.rx_label, pt->ep.family, &local,
			 pt->ep.local_port);
	return 0;
}

/* The underlay path's MTU minus our overhead, unless the user gave one;
 * a path at or below the overhead (mtu lock 40) gives the minimum, not a
 * wrapped-around maximum.
 */
static void padtun_set_default_mtu(struct padtun_dev *pt)
{
	unsigned int path = padtun_socket_path_mtu(pt);
	unsigned int overhead = padtun_overhead(pt);
	unsigned int mtu = path > overhead ? path - overhead : 0;

	pt->dev->mtu = clamp(mtu, pt->dev->min_mtu, pt->dev->max_mtu);
}

/* What padtun_device_create() has set up, in the order it does it;
 * padtun_unwind() takes a link down from any of them, in reverse.
 */
enum padtun_stage {
	PADTUN_STAGE_NONE,
	PADTUN_STAGE_STATS,
	PADTUN_STAGE_TSTATS,
	PADTUN_STAGE_TRANSFORM,
	PADTUN_STAGE_CPUS,
	PADTUN_STAGE_DST_CACHE,
	PADTUN_STAGE_SOCKET,
	PADTUN_STAGE_HOTPLUG,
	PADTUN_STAGE_TX,
	PADTUN_STAGE_DELIVER,
	PADTUN_STAGE_RX,
	PADTUN_STAGE_RECEIVING,
};

static void padtun_unwind(struct padtun_dev *pt, enum padtun_stage reached)
{
	switch (reached) {
	case PADTUN_STAGE_RECEIVING:
		padtun_socket_detach(pt);
		/* The burst lists' polls submit to the rx queue and kick
		 * the handshake, which sends.
		 */
		padtun_bursts_destroy(pt->received);
		padtun_handshake_stop(pt);
		fallthrough;
	case PADTUN_STAGE_RX:
		padtun_queue_destroy(&pt->rx);
		fallthrough;
	case PADTUN_STAGE_DELIVER:
		/* rx serial() delivered its last. */
		padtun_bursts_destroy(pt->deliver);
		padtun_sessions_forget(pt);
		fallthrough;
	case PADTUN_STAGE_TX:
		padtun_queue_destroy(&pt->tx);
		fallthrough;
	case PADTUN_STAGE_HOTPLUG:
		/* Only now: a submission refused until here may have kicked it. */
		padtun_hotplug_remove(pt);
		fallthrough;
	case PADTUN_STAGE_SOCKET:
		/* tx serial() sent its last. */
		padtun_socket_release(pt);
		fallthrough;
	case PADTUN_STAGE_DST_CACHE:
		dst_cache_destroy(&pt->dst_cache);
		fallthrough;
	case PADTUN_STAGE_CPUS:
		kfree(pt->cpus_str);
		free_cpumask_var(pt->cpus);
		fallthrough;
	case PADTUN_STAGE_TRANSFORM:
		padtun_transform_destroy(&pt->transform);
		fallthrough;
	case PADTUN_STAGE_TSTATS:
		free_percpu(pt->dev->tstats);
		fallthrough;
	case PADTUN_STAGE_STATS:
		padtun_stats_free(pt);
		fallthrough;
	case PADTUN_STAGE_NONE:
		mem_cgroup_put(pt->memcg);
		break;
	}
}

/* After the device left every list and its last reference went: nothing
 * transmits any more, and receive is cut off first.
 */
static void padtun_destruct(struct net_device *dev)
{
	padtun_unwind(netdev_priv(dev), PADTUN_STAGE_RECEIVING);
}

/* Everything but receiving and the device's registration; *@reached says
 * how far it got.
 */
static int padtun_device_setup(struct padtun_dev *pt, struct padtun_config *cfg,
			       struct netlink_ext_ack *extack,
			       enum padtun_stage *reached)
{
	int ret;

	/* Whatever the link allocates while it lives is the creator's. */
	pt->memcg = get_mem_cgroup_from_mm(current->mm);
	ret = padtun_stats_init(pt);
	if (ret)
		return ret;
	*reached = PADTUN_STAGE_STATS;
	/* The UDP tunnel core counts what it sends in dev->tstats. */
	pt->dev->tstats = __netdev_alloc_pcpu_stats(struct pcpu_sw_netstats,
						    GFP_KERNEL_ACCOUNT);
	if (!pt->dev->tstats)
		return -ENOMEM;
	*reached = PADTUN_STAGE_TSTATS;
	ret = padtun_set_key_labels(pt, extack);
	if (ret)
		return ret;
	ret = padtun_transform_init(&pt->transform, cfg->transform, cfg->key,
				    cfg->key_len, extack);
	if (ret)
		return ret;
	*reached = PADTUN_STAGE_TRANSFORM;

	/* Freeing a mask that was never allocated is a no-op. */
	*reached = PADTUN_STAGE_CPUS;
	if (!zalloc_cpumask_var(&pt->cpus, GFP_KERNEL_ACCOUNT))
		return -ENOMEM;
	ret = padtun_set_cpus(pt, cfg->cpus, cfg->cb_cpu, cfg->rx_cb_cpu);
	if (ret)
		return ret;
	ret = dst_cache_init(&pt->dst_cache, GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;
	*reached = PADTUN_STAGE_DST_CACHE;

	ret = padtun_socket_open(pt, padtun_receive, extack);
	if (ret)
		return ret;
	*reached = PADTUN_STAGE_SOCKET;
	if (!cfg->mtu_given)
		padtun_set_default_mtu(pt);
	ret = padtun_hotplug_add(pt);
	if (ret)
		return ret;
	*reached = PADTUN_STAGE_HOTPLUG;

	ret = padtun_queue_init(&pt->tx, pt, &padtun_tx_ops, pt->cpus,
				pt->transform.req_size);
	if (ret)
		goto err_padata;
	*reached = PADTUN_STAGE_TX;
	ret = padtun_queue_set_domains(&pt->tx, pt->domains);
	if (ret)
		goto err_padata;
	/* rx serial() hands packets to them: made before the rx queue. */
	pt->deliver = padtun_bursts_create(pt, pt->domains,
					   &padtun_rx_delivery_ops);
	if (!pt->deliver) {
		NL_SET_ERR_MSG(extack, "no memory for the delivery lists");
		return -ENOMEM;
	}
	*reached = PADTUN_STAGE_DELIVER;
	atomic_set(&pt->rx_unauth_bytes, 0);
	ret = padtun_queue_init(&pt->rx, pt, &padtun_rx_ops, pt->cpus,
				pt->transform.req_size);
	if (ret)
		goto err_padata;
	*reached = PADTUN_STAGE_RX;
	ret = padtun_queue_set_domains(&pt->rx, pt->domains);
	if (ret)
		goto err_padata;
	return 0;

err_padata:
	NL_SET_ERR_MSG(extack, "cannot set up padata on these CPUs");
	return ret;
}

/**
 * padtun_device_create - allocate what a link owns and register it
 * @pt: the new device's private part, zeroed by padtun_setup()
 * @cfg: the parsed attributes
 * @extack: for the reason of a failure
 *
 * Context: newlink, RTNL held. On failure nothing is left behind.
 */
int padtun_device_create(struct padtun_dev *pt, struct padtun_config *cfg,
			 struct netlink_ext_ack *extack)
{
	enum padtun_stage reached = PADTUN_STAGE_NONE;
	int ret;

	padtun_copy_config(pt, cfg);
	ret = padtun_device_setup(pt, cfg, extack, &reached);
	if (ret)
		goto err;
	/* Their polls submit to the rx queue: made after it. */
	pt->received = padtun_bursts_create(pt, pt->domains,
					    &padtun_rx_arrival_ops);
	if (!pt->received) {
		NL_SET_ERR_MSG(extack, "no memory for the burst lists");
		ret = -ENOMEM;
		goto err;
	}
	padtun_handshake_init(pt);
	padtun_socket_attach(pt);
	reached = PADTUN_STAGE_RECEIVING;

	ret = register_netdevice(pt->dev);
	if (ret)
		goto err;
	/* Only now: register_netdevice would call it on its own failure. */
	pt->dev->priv_destructor = padtun_destruct;
	return 0;

err:
	padtun_unwind(pt, reached);
	return ret;
}

/* Hold both directions' new packets back and wait for the ones in flight:
 * 0 when none is left. padtun_resume_queues() undoes it either way.
 */
static int padtun_pause_queues(struct padtun_dev *pt)
{
	int ret = padtun_queue_pause(&pt->rx);

	return ret ?: padtun_queue_pause(&pt->tx);
}

static void padtun_resume_queues(struct padtun_dev *pt)
{
	padtun_queue_resume(&pt->rx);
	padtun_queue_resume(&pt->tx);
}

/* Both queues paused and empty: padata can change CPUs with nothing held. */
static int padtun_move_cpus(struct padtun_dev *pt, struct cpumask *cpus,
			    int cb_cpu, int rx_cb_cpu,
			    struct netlink_ext_ack *extack)
{
	int ret;

	if (cpumask_equal(cpus, pt->cpus))
		goto set;
	ret = padata_set_cpumask(pt->tx.pinst, cpus);
	if (ret)
		goto err;
	ret = padata_set_cpumask(pt->rx.pinst, cpus);
	if (ret) {
		padata_set_cpumask(pt->tx.pinst, pt->cpus);
		goto err;
	}
set:
	ret = padtun_set_cpus(pt, cpus, cb_cpu, rx_cb_cpu);
	if (ret) {
		padata_set_cpumask(pt->rx.pinst, pt->cpus);
		padata_set_cpumask(pt->tx.pinst, pt->cpus);
	}
	return ret;

err:
	NL_SET_ERR_MSG(extack, "padata refused the CPU list");
	return ret;
}

/**
 * padtun_device_change - apply a changelink
 * @pt: the device
 * @cpus: the new parallel CPUs (online, not empty)
 * @cb_cpu: the new serial CPU of transmit, one of @cpus
 * @rx_cb_cpu: the new serial CPU of receive, one of @cpus
 * @max_inflight: the new in-flight limit per direction
 * @extack: for the reason of a failure
 *
 * New packets wait in the backlogs while the ones in flight drain, so a
 * CPU change loses and reorders nothing. Context: RTNL held.
 */
int padtun_device_change(struct padtun_dev *pt, const struct cpumask *cpus,
			 int cb_cpu, int rx_cb_cpu, u32 max_inflight,
			 struct netlink_ext_ack *extack)
{
	cpumask_var_t new_cpus;
	int ret = 0;

	if (cpumask_equal(cpus, pt->cpus) && cb_cpu == pt->cb_cpu &&
	    rx_cb_cpu == pt->rx_cb_cpu)
		goto set_limit;

	if (!alloc_cpumask_var(&new_cpus, GFP_KERNEL))
		return -ENOMEM;
	cpumask_copy(new_cpus, cpus);

	ret = padtun_pause_queues(pt);
	if (ret)
		NL_SET_ERR_MSG(extack, "packets in flight did not drain; CPU list unchanged");
	else
		ret = padtun_move_cpus(pt, new_cpus, cb_cpu, rx_cb_cpu,
				       extack);
	padtun_resume_queues(pt);
	free_cpumask_var(new_cpus);
	if (ret)
		return ret;
	/* A serial CPU not active yet has a stand-in: look again soon. */
	padtun_hotplug_kick(pt);
set_limit:
	/* Only once nothing can fail: a refused change changes nothing. */
	padtun_set_limits(pt, max_inflight);
	/* A higher limit may let backlogged packets and the tx queue go. */
	padtun_queue_kick(&pt->rx);
	padtun_queue_kick(&pt->tx);
	return 0;
}

/* Both queues paused and empty. The receive hook is held off while the
 * burst lists change (datagrams meanwhile are dropped: the link is down,
 * padtun_device_set_order()); what the old lists still hold is dropped
 * with them.
 */
static int padtun_set_domains(struct padtun_dev *pt, unsigned int domains)
{
	struct padtun_bursts *deliver, *received;
	unsigned int old = pt->domains;
	int ret = -ENOMEM;

	deliver = padtun_bursts_create(pt, domains, &padtun_rx_delivery_ops);
	if (!deliver)
		return ret;
	received = padtun_bursts_create(pt, domains, &padtun_rx_arrival_ops);
	if (!received)
		goto err_deliver;
	ret = padtun_queue_set_domains(&pt->tx, domains);
	if (!ret)
		ret = padtun_queue_set_domains(&pt->rx, domains);
	if (ret)
		goto err_domains;

	padtun_socket_detach(pt);
	padtun_bursts_destroy(pt->received);
	pt->received = received;
	WRITE_ONCE(pt->domains, domains);
	padtun_socket_attach(pt);
	/* Empty: what they held was counted in flight, and nothing is. */
	padtun_bursts_destroy(pt->deliver);
	pt->deliver = deliver;
	padtun_serial_cpus_reset(pt);
	return 0;

err_domains:
	padtun_queue_set_domains(&pt->tx, old);
	padtun_queue_set_domains(&pt->rx, old);
	padtun_bursts_destroy(received);
err_deliver:
	padtun_bursts_destroy(deliver);
	return ret;
}

/**
 * padtun_device_set_order - apply a changelink of order and domains
 * @pt: the device, down
 * @order_flow: order flow (true) or order link
 * @domains: the domains of order flow, 1 for order link
 * @extack: for the reason of a failure
 *
 * Only while the device is down: the peer must be set to as many domains
 * (it refuses datagrams of others), which is no change to make under
 * traffic. Received datagrams still come in meanwhile, so the queues are
 * paused and drained all the same; what they hold back of a domain that
 * is gone is dropped (queueing.c).
 *
 * Context: RTNL held.
 */
int padtun_device_set_order(struct padtun_dev *pt, bool order_flow,
			    unsigned int domains,
			    struct netlink_ext_ack *extack)
{
	int ret;

	if (order_flow == pt->order_flow && domains == pt->domains)
		return 0;
	if (netif_running(pt->dev)) {
		NL_SET_ERR_MSG(extack,
			       "order and domains change only while the link is down: the peer must change with it");
		return -EBUSY;
	}
	ret = padtun_pause_queues(pt);
	if (ret)
		NL_SET_ERR_MSG(extack, "packets in flight did not drain; order unchanged");
	else
		ret = padtun_set_domains(pt, domains);
	if (!ret)
		pt->order_flow = order_flow;
	else if (ret == -ENOMEM)
		NL_SET_ERR_MSG(extack, "no memory for the ordering domains");
	padtun_resume_queues(pt);
	if (!ret)
		padtun_hotplug_kick(pt);
	return ret;
}
