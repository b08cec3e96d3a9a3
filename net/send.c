// SPDX-License-Identifier: GPL-2.0
/*
 * Transmit: ndo_start_xmit segments and numbers the packets and submits
 * them to the tx padata instance; parallel() encrypts; serial() sends them
 * in the order they were numbered.
 */

#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <net/ip.h>

#include "messages.h"
#include "padtun.h"
#include "queueing.h"
#include "socket.h"

/* Below this many queued packets a stopped queue is woken again. */
static unsigned int padtun_tx_wake_level(struct padtun_dev *pt)
{
	return READ_ONCE(pt->max_inflight) / 2;
}

/* The tx queue's drained hook: serial() or the resubmit work freed room. */
static void padtun_tx_maybe_wake(struct padtun_queue *q)
{
	struct padtun_dev *pt = q->pt;

	if (unlikely(netif_queue_stopped(pt->dev)) && netif_running(pt->dev) &&
	    padtun_queue_len(q) <= padtun_tx_wake_level(pt))
		netif_wake_queue(pt->dev);
}

/* Stop before padata would say -EBUSY, so that it rarely does; a packet
 * that still gets -EBUSY waits in the backlog and is not lost.
 */
static void padtun_tx_maybe_stop(struct padtun_dev *pt)
{
	if (padtun_queue_len(&pt->tx) < READ_ONCE(pt->max_inflight))
		return;
	netif_stop_queue(pt->dev);
	/* serial() may have emptied the queue between the test and the stop
	 * and seen nothing to wake: look again now that the bit is visible.
	 */
	smp_mb__after_atomic();
	padtun_tx_maybe_wake(&pt->tx);
}

/* padtun is an Ethernet-type device (pktgen only drives those), but only
 * the IP packet goes on the wire: start the skb at its network header.
 */
static bool padtun_tx_strip_link_header(struct sk_buff *skb)
{
	int offset = skb_network_offset(skb);
	u8 version;

	if (unlikely(offset < 0 || offset > skb_headlen(skb)))
		return false;
	__skb_pull(skb, offset);
	if (unlikely(!pskb_may_pull(skb, sizeof(struct iphdr))))
		return false;
	version = ip_hdr(skb)->version;
	if (skb->protocol == htons(ETH_P_IP))
		return version == 4;
	if (skb->protocol == htons(ETH_P_IPV6))
		return version == 6 &&
		       pskb_may_pull(skb, sizeof(struct ipv6hdr));
	return false;
}

/* Called under the netdev tx lock: the order of calls is the seq order. */
static void padtun_tx_submit(struct padtun_dev *pt, struct sk_buff *skb)
{
	enum skb_drop_reason reason = SKB_DROP_REASON_INVALID_PROTO;
	struct padtun_pkt *pkt;

	skb = skb_share_check(skb, GFP_ATOMIC);
	if (unlikely(!skb))
		goto drop_counted;
	if (unlikely(!padtun_tx_strip_link_header(skb)))
		goto drop;
	skb_dst_drop(skb);

	/* Per packet, not per xmit: a GSO packet takes many numbers. The
	 * receiver refuses anything above PADTUN_SEQ_MAX; only a fresh link
	 * (new session) goes on.
	 */
	reason = SKB_DROP_REASON_NOT_SPECIFIED;
	if (unlikely(pt->tx_seq > PADTUN_SEQ_MAX))
		goto drop;
	reason = SKB_DROP_REASON_NOMEM;
	pkt = padtun_pkt_alloc(&pt->tx, skb);
	if (unlikely(!pkt))
		goto drop;
	pkt->len = skb->len;
	pkt->session = pt->session;
	pkt->seq = pt->tx_seq++;
	padtun_queue_submit(&pt->tx, pkt, UINT_MAX);
	return;

drop:
	kfree_skb_reason(skb, reason);
drop_counted:
	padtun_stat_inc(pt, PADTUN_STAT_TX_DROPPED);
}

netdev_tx_t padtun_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct padtun_dev *pt = netdev_priv(dev);
	struct sk_buff *segs, *next;

	if (!skb_is_gso(skb)) {
		padtun_tx_submit(pt, skb);
		goto out;
	}

	segs = skb_gso_segment(skb, 0);
	if (IS_ERR(segs)) {
		padtun_stat_inc(pt, PADTUN_STAT_TX_DROPPED);
		kfree_skb_reason(skb, SKB_DROP_REASON_SKB_GSO_SEG);
		goto out;
	}
	if (!segs) {
		/* Nothing to segment (one segment's worth, e.g. a dodgy GSO
		 * packet from a guest): send it as it is, as a plain packet.
		 */
		skb_gso_reset(skb);
		padtun_tx_submit(pt, skb);
		goto out;
	}
	consume_skb(skb);
	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		padtun_tx_submit(pt, skb);
	}
out:
	padtun_tx_maybe_stop(pt);
	return NETDEV_TX_OK;
}

/* parallel(): checksum and encrypt, on one of the device's CPUs. */
static void padtun_tx_work(struct padtun_pkt *pkt)
{
	struct padtun_dev *pt = pkt->queue->pt;
	struct sk_buff *skb = pkt->skb;
	int ret;

	/* Once encrypted, nobody after us can fill the checksum in. */
	if (skb->ip_summed == CHECKSUM_PARTIAL && skb_checksum_help(skb)) {
		ret = -EINVAL;
		goto done;
	}
	ret = skb_cow_head(skb, PADTUN_HEADROOM);
	if (unlikely(ret))
		goto done;

	pkt->crypto_done = padtun_pkt_parallel_done;
	ret = padtun_transform_encrypt(&pt->transform, pkt);
	if (ret == -EINPROGRESS)
		return;
done:
	padtun_pkt_parallel_done(pkt, ret);
}

/* serial(): on the callback CPU, in submission order. */
static void padtun_tx_finish(struct padtun_dev *pt, struct padtun_pkt *pkt,
			     struct sk_buff *skb)
{
	if (unlikely(pkt->err)) {
		padtun_stat_inc(pt, PADTUN_STAT_TX_ERRORS);
		kfree_skb(skb);
		return;
	}
	if (unlikely(padtun_socket_send(pt, skb))) {
		padtun_stat_inc(pt, PADTUN_STAT_TX_ERRORS);
		return;
	}
	padtun_stat_add_packet(pt, PADTUN_STAT_TX_SENT, PADTUN_STAT_TX_BYTES,
			       pkt->len);
}

const struct padtun_queue_ops padtun_tx_ops = {
	.work		= padtun_tx_work,
	.finish		= padtun_tx_finish,
	.drained	= padtun_tx_maybe_wake,
	.stat_submitted	= PADTUN_STAT_TX_SUBMITTED,
	.stat_busy	= PADTUN_STAT_TX_BUSY,
	.stat_dropped	= PADTUN_STAT_TX_DROPPED,
	.stat_parallel	= PADTUN_STAT_TX_PARALLEL,
};
