/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packets waiting for a NAPI poll: datagrams received (one list per link),
 * or inner packets to deliver (one per ordering domain). See burst.c.
 */
#ifndef _PADTUN_BURST_H
#define _PADTUN_BURST_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>

struct padtun_dev;
struct padtun_burst;

/* Hands what a poll took on, in order; owns every skb of @taken. */
typedef void (*padtun_burst_consume_t)(struct padtun_burst *burst,
				       struct sk_buff_head *taken, int budget);

struct padtun_burst {
	spinlock_t lock;		/* guards skbs: adders and poll, BH */
	struct sk_buff_head skbs;
	struct napi_struct napi;
	struct padtun_dev *pt;
	padtun_burst_consume_t consume;
};

void padtun_burst_init(struct padtun_burst *burst, struct padtun_dev *pt,
		       padtun_burst_consume_t consume);
void padtun_burst_destroy(struct padtun_burst *burst);
bool padtun_burst_add(struct padtun_burst *burst, struct sk_buff *skb,
		      unsigned int limit);
struct padtun_burst *padtun_bursts_create(struct padtun_dev *pt,
					  unsigned int n,
					  padtun_burst_consume_t consume);
void padtun_bursts_destroy(struct padtun_burst *bursts, unsigned int n);

#endif /* _PADTUN_BURST_H */
