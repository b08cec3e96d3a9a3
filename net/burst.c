// SPDX-License-Identifier: GPL-2.0
/*
 * Lists polled by one NAPI instance each, one list per ordering domain,
 * used twice:
 *
 * Receive bursts: the UDP encap hook sees one datagram at a time, and
 * 6.1's UDP GRO does not hand a tunnel socket its merged datagrams (they
 * are cut up again before encap_rcv). So the hook only queues each
 * datagram on its domain's burst list and schedules its NAPI instance,
 * which runs once the underlay driver's poll is done and submits what
 * gathered as a few batches: one padata object per burst rather than per
 * datagram.
 *
 * Delivery: serial() queues the inner packets on its ordering domain's
 * delivery list, whose poll hands them to GRO (napi_gro_receive), so a
 * batch of inner TCP segments is merged before the stack sees it.
 *
 * One per domain, so that a small flow's packet waits for its own
 * domain's packets only: NAPI polls the lists in turn, a weight's worth
 * each, where one list per link would hold a ping's datagram behind every
 * bulk datagram that arrived before it.
 *
 * A packet that finds its list empty and not polled may be handed on at
 * once (padtun_burst_run_one()): the caller then acts as the poll.
 *
 * One list and one NAPI instance per domain, not one per CPU (as
 * gro_cells has): when the CPU that queues moves (the underlay's
 * interrupt, or rx's serial CPU under CPU hotplug), a per-CPU list could
 * still hold packets that later ones, queued on the new CPU, would
 * overtake (padtun-hotplug saw both). A single list keeps the order in
 * which they were queued, and NAPI runs one poll at a time.
 */

#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/overflow.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "burst.h"
#include "padtun.h"

static int padtun_burst_poll(struct napi_struct *napi, int budget)
{
	struct padtun_burst *burst = container_of(napi, struct padtun_burst,
						  napi);
	struct sk_buff_head taken;
	bool more;
	int done;

	/* Take a budget's worth under the lock, consume without it. */
	__skb_queue_head_init(&taken);
	spin_lock(&burst->lock);
	while (skb_queue_len(&taken) < budget && !skb_queue_empty(&burst->skbs))
		__skb_queue_tail(&taken, __skb_dequeue(&burst->skbs));
	more = !skb_queue_empty(&burst->skbs);
	spin_unlock(&burst->lock);

	done = skb_queue_len(&taken);
	burst->ops->consume(burst, &taken, budget);
	if (more || done == budget)
		return budget;
	/* A packet queued since sets NAPI_STATE_MISSED: polled again. */
	napi_complete_done(napi, done);
	return done;
}

/**
 * padtun_burst_add - queue a packet for the list's next poll
 * @burst: a domain's burst list or delivery list
 * @skb: the packet
 * @limit: how many packets the list may already hold
 *
 * Context: softirq, or BHs disabled.
 * Return: false when the list is full; the caller still owns @skb.
 */
bool padtun_burst_add(struct padtun_burst *burst, struct sk_buff *skb,
		      unsigned int limit)
{
	bool first;

	spin_lock(&burst->lock);
	if (unlikely(skb_queue_len(&burst->skbs) > limit)) {
		spin_unlock(&burst->lock);
		return false;
	}
	__skb_queue_tail(&burst->skbs, skb);
	first = skb_queue_len(&burst->skbs) == 1;
	spin_unlock(&burst->lock);
	if (first)
		napi_schedule(&burst->napi);
	return true;
}

/**
 * padtun_burst_run_one - hand one packet on now, as the list's poll would
 * @burst: a domain's burst list or delivery list
 * @skb: the packet
 *
 * Only while the list is empty and its poll neither runs nor is due:
 * then everything added before has been handed on, and the caller holds
 * the NAPI instance, so no poll runs until this returns; what is added
 * meanwhile is polled after. A packet that finds its list idle so skips
 * a turn behind the CPU's other NAPI instances, the bulk flows' GRO
 * among them.
 *
 * Context: softirq, or BHs disabled.
 * Return: false when the list is busy; the caller still owns @skb.
 */
bool padtun_burst_run_one(struct padtun_burst *burst, struct sk_buff *skb)
{
	struct sk_buff_head one;

	/* Ours as a poll's: scheduled, though on no CPU's poll list. */
	if (!napi_schedule_prep(&burst->napi))
		return false;
	/* Added to, and its adder about to schedule the poll: its packet
	 * goes first.
	 */
	if (unlikely(!skb_queue_empty_lockless(&burst->skbs))) {
		napi_complete(&burst->napi);
		return false;
	}
	__skb_queue_head_init(&one);
	__skb_queue_tail(&one, skb);
	burst->ops->consume(burst, &one, 1);
	/* A packet added meanwhile set NAPI_STATE_MISSED: polled now. */
	napi_complete(&burst->napi);
	return true;
}

/* Context: process, before anything adds to the list. */
static void padtun_burst_init(struct padtun_burst *burst,
			      struct padtun_dev *pt,
			      const struct padtun_burst_ops *ops)
{
	spin_lock_init(&burst->lock);
	__skb_queue_head_init(&burst->skbs);
	burst->pt = pt;
	burst->ops = ops;
	set_bit(NAPI_STATE_NO_BUSY_POLL, &burst->napi.state);
	netif_napi_add(pt->dev, &burst->napi, padtun_burst_poll);
	napi_enable(&burst->napi);
}

/* The poll will not run again; its list is freed after a grace period
 * (synchronize_net(), one for all the lists that go together).
 */
static void padtun_burst_stop(struct padtun_burst *burst)
{
	napi_disable(&burst->napi);
	__netif_napi_del(&burst->napi);
}

static void padtun_burst_purge(struct padtun_burst *burst)
{
	struct sk_buff *skb;

	spin_lock_bh(&burst->lock);
	while ((skb = __skb_dequeue(&burst->skbs))) {
		if (burst->ops->unrun)
			burst->ops->unrun(burst->pt, skb);
		kfree_skb(skb);
	}
	spin_unlock_bh(&burst->lock);
}

/**
 * padtun_bursts_create - a list per domain, each with its NAPI instance
 * @pt: the device
 * @n: how many (the ordering domains)
 * @ops: what each list's poll hands its packets to
 *
 * Charged to the caller's memory cgroup, as the device's own memory is.
 * Context: process.
 * Return: the lists, or NULL without memory.
 */
struct padtun_bursts *padtun_bursts_create(struct padtun_dev *pt,
					   unsigned int n,
					   const struct padtun_burst_ops *ops)
{
	struct padtun_bursts *bursts;
	unsigned int i;

	bursts = kvzalloc(struct_size(bursts, list, n), GFP_KERNEL_ACCOUNT);
	if (!bursts)
		return NULL;
	bursts->n = n;
	for (i = 0; i < n; i++)
		padtun_burst_init(&bursts->list[i], pt, ops);
	return bursts;
}

/**
 * padtun_bursts_destroy - undo padtun_bursts_create()
 * @bursts: the lists
 *
 * One grace period for all of them: a list per domain, up to 64, under
 * RTNL when the domains change. What they still hold is dropped.
 *
 * Context: process, once nothing adds any more, before what the polls
 * hand packets to goes.
 */
void padtun_bursts_destroy(struct padtun_bursts *bursts)
{
	unsigned int i;

	for (i = 0; i < bursts->n; i++)
		padtun_burst_stop(&bursts->list[i]);
	synchronize_net();
	for (i = 0; i < bursts->n; i++)
		padtun_burst_purge(&bursts->list[i]);
	kvfree(bursts);
}
