/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packets waiting for a NAPI poll, one list per ordering domain: datagrams
 * received, or inner packets to deliver. See burst.c.
 */
#ifndef _PADTUN_BURST_H
#define _PADTUN_BURST_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>

struct padtun_dev;
struct padtun_burst;

struct padtun_burst_ops {
	/* Hands what a poll took on, in order; owns every skb of @taken. */
	void (*consume)(struct padtun_burst *burst, struct sk_buff_head *taken,
			int budget);
	/* Told of each packet the list still held when it went (then freed). */
	void (*unrun)(struct padtun_dev *pt, struct sk_buff *skb);
};

struct padtun_burst {
	spinlock_t lock;		/* guards skbs: adders and poll, BH */
	struct sk_buff_head skbs;
	struct napi_struct napi;
	struct padtun_dev *pt;
	const struct padtun_burst_ops *ops;
};

/* One list per ordering domain. */
struct padtun_bursts {
	unsigned int n;
	struct padtun_burst list[];
};

bool padtun_burst_add(struct padtun_burst *burst, struct sk_buff *skb,
		      unsigned int limit);
bool padtun_burst_run_one(struct padtun_burst *burst, struct sk_buff *skb);
struct padtun_bursts *padtun_bursts_create(struct padtun_dev *pt,
					   unsigned int n,
					   const struct padtun_burst_ops *ops);
void padtun_bursts_destroy(struct padtun_bursts *bursts);

#endif /* _PADTUN_BURST_H */
