// SPDX-License-Identifier: GPL-2.0
/*
 * Receive bursts: the UDP encap hook sees one datagram at a time, and
 * 6.1's UDP GRO does not hand a tunnel socket its merged datagrams (they
 * are cut up again before encap_rcv). So the hook only queues each
 * datagram on the link's burst list and schedules the link's NAPI
 * instance, which runs once the underlay driver's poll is done and submits
 * what gathered as a few batches: one padata object per burst rather than
 * per datagram.
 *
 * One list and one NAPI instance per link, not one per CPU: when the
 * underlay's interrupt moves to another CPU (CPU hotplug, affinity), a
 * per-CPU list could still hold datagrams that later ones, received on the
 * new CPU, would overtake. A single list keeps the order in which they
 * were received, and NAPI runs one poll at a time.
 */

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>

#include "padtun.h"

static int padtun_burst_poll(struct napi_struct *napi, int budget)
{
	struct padtun_burst *burst = container_of(napi, struct padtun_burst,
						  napi);
	struct sk_buff_head taken;
	bool more;
	int done;

	/* Take a budget's worth under the lock, submit without it. */
	__skb_queue_head_init(&taken);
	spin_lock(&burst->lock);
	while (skb_queue_len(&taken) < budget && !skb_queue_empty(&burst->skbs))
		__skb_queue_tail(&taken, __skb_dequeue(&burst->skbs));
	more = !skb_queue_empty(&burst->skbs);
	spin_unlock(&burst->lock);

	done = skb_queue_len(&taken);
	while (!skb_queue_empty(&taken))
		padtun_rx_submit_burst(burst->pt, &taken, budget);
	if (more || done == budget)
		return budget;
	/* A datagram queued since sets NAPI_STATE_MISSED: polled again. */
	napi_complete_done(napi, done);
	return done;
}

/**
 * padtun_burst_add - queue a received datagram for the link's next batch
 * @pt: the device
 * @skb: checked, at the padtun header
 *
 * Context: softirq (the UDP encap hook).
 */
void padtun_burst_add(struct padtun_dev *pt, struct sk_buff *skb)
{
	struct padtun_burst *burst = &pt->burst;
	bool first;

	spin_lock(&burst->lock);
	/* What gro_cells allows before its poll runs. */
	if (unlikely(skb_queue_len(&burst->skbs) >
		     READ_ONCE(netdev_max_backlog))) {
		spin_unlock(&burst->lock);
		padtun_stat_inc(pt, PADTUN_STAT_RX_DROPPED);
		kfree_skb_reason(skb, SKB_DROP_REASON_CPU_BACKLOG);
		return;
	}
	__skb_queue_tail(&burst->skbs, skb);
	first = skb_queue_len(&burst->skbs) == 1;
	spin_unlock(&burst->lock);
	if (first)
		napi_schedule(&burst->napi);
}

/* Context: process, before the socket can deliver (newlink). */
void padtun_burst_init(struct padtun_dev *pt)
{
	struct padtun_burst *burst = &pt->burst;

	spin_lock_init(&burst->lock);
	__skb_queue_head_init(&burst->skbs);
	burst->pt = pt;
	set_bit(NAPI_STATE_NO_BUSY_POLL, &burst->napi.state);
	netif_napi_add(pt->dev, &burst->napi, padtun_burst_poll);
	napi_enable(&burst->napi);
}

/* Context: process, the socket detached (nothing adds any more), before
 * the rx queue goes (the poll submits to it).
 */
void padtun_burst_destroy(struct padtun_dev *pt)
{
	struct padtun_burst *burst = &pt->burst;

	napi_disable(&burst->napi);
	netif_napi_del(&burst->napi);
	spin_lock_bh(&burst->lock);
	__skb_queue_purge(&burst->skbs);
	spin_unlock_bh(&burst->lock);
}
