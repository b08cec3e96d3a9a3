// SPDX-License-Identifier: GPL-2.0
/*
 * Receive bursts: the UDP encap hook sees one datagram at a time, and
 * 6.1's UDP GRO does not hand a tunnel socket its merged datagrams (they
 * are cut up again before encap_rcv). So the hook only queues each
 * datagram on a per-CPU list and schedules that CPU's NAPI instance, which
 * runs once the underlay driver's poll is done and submits what gathered
 * as a few batches: one padata object per burst rather than per datagram.
 * The per-CPU list keeps the order in which the CPU received them.
 */

#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>

#include "padtun.h"

/* Touched only by its CPU, in softirq: the hook appends, the poll takes.
 * (A CPU going offline hands its scheduled poll to another CPU, after it
 * stopped receiving.)
 */
struct padtun_burst {
	struct sk_buff_head skbs;
	struct napi_struct napi;
	struct padtun_dev *pt;
};

static int padtun_burst_poll(struct napi_struct *napi, int budget)
{
	struct padtun_burst *burst = container_of(napi, struct padtun_burst,
						  napi);
	int done = 0;

	while (done < budget && !skb_queue_empty(&burst->skbs))
		done += padtun_rx_submit_burst(burst->pt, &burst->skbs,
					       budget - done);
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/**
 * padtun_burst_add - queue a received datagram for this CPU's next batch
 * @pt: the device
 * @skb: checked, at the padtun header
 *
 * Context: softirq (the UDP encap hook).
 */
void padtun_burst_add(struct padtun_dev *pt, struct sk_buff *skb)
{
	struct padtun_burst *burst = this_cpu_ptr(pt->bursts);

	/* What gro_cells allows a CPU to hold before its poll runs. */
	if (unlikely(skb_queue_len(&burst->skbs) >
		     READ_ONCE(netdev_max_backlog))) {
		padtun_stat_inc(pt, PADTUN_STAT_RX_DROPPED);
		kfree_skb_reason(skb, SKB_DROP_REASON_CPU_BACKLOG);
		return;
	}
	__skb_queue_tail(&burst->skbs, skb);
	if (skb_queue_len(&burst->skbs) == 1)
		napi_schedule(&burst->napi);
}

/* Context: process, before the socket can deliver (newlink). */
int padtun_bursts_init(struct padtun_dev *pt)
{
	int cpu;

	pt->bursts = alloc_percpu(struct padtun_burst);
	if (!pt->bursts)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct padtun_burst *burst = per_cpu_ptr(pt->bursts, cpu);

		__skb_queue_head_init(&burst->skbs);
		burst->pt = pt;
		set_bit(NAPI_STATE_NO_BUSY_POLL, &burst->napi.state);
		netif_napi_add(pt->dev, &burst->napi, padtun_burst_poll);
		napi_enable(&burst->napi);
	}
	return 0;
}

/* Context: process, the socket detached (nothing adds any more), before
 * the rx queue goes (the poll submits to it).
 */
void padtun_bursts_destroy(struct padtun_dev *pt)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct padtun_burst *burst = per_cpu_ptr(pt->bursts, cpu);

		napi_disable(&burst->napi);
		__netif_napi_del(&burst->napi);
		__skb_queue_purge(&burst->skbs);
	}
	/* netpoll walks dev->napi_list under RCU. */
	synchronize_net();
	free_percpu(pt->bursts);
	pt->bursts = NULL;
}
