/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_PADTUN_H
#define _PADTUN_PADTUN_H

#include <linux/cpumask.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <net/dst_cache.h>
#include <net/rtnetlink.h>

#include "queueing.h"
#include "replay.h"
#include "session.h"
#include "stats.h"
#include "transform.h"

#define PADTUN_DEFAULT_MAX_INFLIGHT	512
#define PADTUN_MAX_MAX_INFLIGHT		65536

/* What a link holds of received datagrams whose tag is not checked yet,
 * in bytes (skb->truesize: reassembled fragments included), besides the
 * limits in packets: beyond it, the receive hook drops (rx_unauth_full).
 */
#define PADTUN_RX_UNAUTH_MAX		(16 << 20)

struct padtun_burst;
/* Hands what a poll took on, in order; owns every skb of @taken. */
typedef void (*padtun_burst_consume_t)(struct padtun_burst *burst,
				       struct sk_buff_head *taken, int budget);

/* Packets waiting for a link-wide NAPI poll (burst.c): datagrams received,
 * or inner packets to deliver.
 */
struct padtun_burst {
	spinlock_t lock;		/* guards skbs: adders and poll, BH */
	struct sk_buff_head skbs;
	struct napi_struct napi;
	struct padtun_dev *pt;
	padtun_burst_consume_t consume;
};

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
	u64 session;			/* ours, sending: keys.c */
	struct padtun_transform transform;
	unsigned int pkt_size;		/* struct padtun_pkt + aead request */

	/* Written by changelink under RTNL while both queues are paused and
	 * empty; the datapath reads max_inflight with READ_ONCE. Each queue's
	 * serial CPU in use follows from cb_cpu, rx_cb_cpu and CPU hotplug
	 * (hotplug.c).
	 */
	cpumask_var_t cpus;
	char *cpus_str;			/* cpus as a cpulist, for fill_info */
	int cb_cpu;			/* as configured: tx's serial CPU */
	int rx_cb_cpu;			/* as configured: rx's serial CPU */
	u32 max_inflight;
	struct hlist_node cpuhp_node;
	struct delayed_work hotplug_work;

	struct padtun_queue tx;
	struct padtun_queue rx;
	u64 tx_seq;			/* guarded by the netdev tx lock (no LLTX) */
	struct padtun_replay replay;
	struct padtun_rx_keys rx_keys;

	/* Released only after both padata instances are freed. */
	struct socket *sock;
	struct dst_cache dst_cache;	/* per CPU: serial() or parallel() */
	struct padtun_burst burst;	/* received, to submit */
	/* Bytes charged by the receive hook (PADTUN_CB()->charged) for the
	 * datagrams not authenticated or dropped yet.
	 */
	atomic_t rx_unauth_bytes;
	struct padtun_burst deliver;	/* decrypted, in order, to GRO */
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
	bool mtu_given;			/* IFLA_MTU: keep it */
};

extern struct workqueue_struct *padtun_wq;
extern struct rtnl_link_ops padtun_link_ops;

/* burst.c */
void padtun_burst_init(struct padtun_burst *burst, struct padtun_dev *pt,
		       padtun_burst_consume_t consume);
void padtun_burst_destroy(struct padtun_burst *burst);
bool padtun_burst_add(struct padtun_burst *burst, struct sk_buff *skb,
		      unsigned int limit);

/* device.c */
int padtun_device_create(struct padtun_dev *pt, struct padtun_config *cfg,
			 struct netlink_ext_ack *extack);
int padtun_device_change(struct padtun_dev *pt, const struct cpumask *cpus,
			 int cb_cpu, int rx_cb_cpu, u32 max_inflight,
			 struct netlink_ext_ack *extack);
void padtun_setup(struct net_device *dev);

/* gso.c */
void padtun_tx_coalesce(struct padtun_pkt *pkt);

/* hotplug.c */
int padtun_hotplug_init(void);
void padtun_hotplug_exit(void);
void padtun_hotplug_init_dev(struct padtun_dev *pt);
int padtun_hotplug_add(struct padtun_dev *pt);
void padtun_hotplug_remove(struct padtun_dev *pt);
void padtun_hotplug_kick(struct padtun_dev *pt);
void padtun_serial_cpus_reset(struct padtun_dev *pt);

/* netlink.c */
int padtun_config_parse(struct padtun_config *cfg, struct nlattr *data[],
			struct netlink_ext_ack *extack);
void padtun_config_free(struct padtun_config *cfg);
int padtun_parse_cpus(const struct nlattr *attr, struct cpumask *mask,
		      struct netlink_ext_ack *extack);

/* send.c */
netdev_tx_t padtun_xmit(struct sk_buff *skb, struct net_device *dev);
extern const struct padtun_queue_ops padtun_tx_ops;

/* receive.c */
extern const struct padtun_queue_ops padtun_rx_ops;
void padtun_rx_submit_taken(struct padtun_burst *burst,
			    struct sk_buff_head *taken, int budget);
void padtun_rx_to_gro(struct padtun_burst *deliver, struct sk_buff_head *taken,
		      int budget);
unsigned int padtun_rx_backlog_max(struct padtun_dev *pt);
void padtun_rx_uncharge(struct padtun_dev *pt, struct sk_buff *skb);

#endif /* _PADTUN_PADTUN_H */
