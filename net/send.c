// SPDX-License-Identifier: GPL-2.0
/*
 * Transmit: ndo_start_xmit numbers each skb, a GSO packet with as many
 * numbers as it may have segments, and submits it to the tx padata
 * instance as one batch; parallel() segments, checksums and encrypts,
 * then puts the datagrams in UDP GSO skbs (gso.c); serial() sends them in
 * the order they were numbered.
 */

#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <net/ip.h>

#include "gso.h"
#include "messages.h"
#include "padtun.h"
#include "queueing.h"
#include "send.h"
#include "session.h"
#include "socket.h"
#include "split.h"
#include "stats.h"
#include "transform.h"

/* Below this many queued packets a stopped queue is woken again. */
static unsigned int padtun_tx_wake_level(struct padtun_dev *pt)
{
	return padtun_queue_max_inflight(&pt->tx) / 2;
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
	if (padtun_queue_len(&pt->tx) < padtun_queue_max_inflight(&pt->tx))
		return;
	netif_stop_queue(pt->dev);
	/* serial() may have emptied the queue between the test and the stop
	 * and seen nothing to wake: look again now that the bit is visible.
	 */
	smp_mb__after_atomic();
	padtun_tx_maybe_wake(&pt->tx);
}

/* padtun is a layer-3 device: a packet starts at its IP header, whose
 * version must be the one skb->protocol says.
 */
static bool padtun_tx_ip_ok(struct sk_buff *skb)
{
	u8 version;

	skb_reset_network_header(skb);
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

/* How many sequence numbers an skb takes: at least as many as the
 * segments it becomes (the headers counted as payload make it an upper
 * bound); parallel() drops any segment beyond them, so no number is used
 * twice. Numbers left unused are gaps the receiver never waits for.
 */
static unsigned int padtun_tx_count(const struct sk_buff *skb)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);

	if (!skb_is_gso(skb))
		return 1;
	if (shinfo->gso_size == GSO_BY_FRAGS)
		return max_t(unsigned int, shinfo->gso_segs, 1);
	return DIV_ROUND_UP(skb->len, shinfo->gso_size);
}

/* No session to send under yet (the handshake is on its way): the
 * packet waits in the qdisc, behind a stopped queue, which the handshake
 * wakes (handshake.c) once there is one.
 */
static void padtun_tx_wait_for_session(struct padtun_dev *pt)
{
	netif_stop_queue(pt->dev);
	/* The handshake may have woken the queue between the caller's look
	 * and the stop: look again now that the bit is visible.
	 */
	smp_mb__after_atomic();
	if (padtun_sessions_have_tx(pt))
		netif_wake_queue(pt->dev);
}

/* order flow: the inner flow picks the domain, so a flow's packets keep
 * one order and flows of different domains do not wait for each other.
 * order link: domain 0 alone, no hash computed.
 */
static unsigned int padtun_tx_domain(struct padtun_dev *pt,
				     struct sk_buff *skb)
{
	unsigned int domains = READ_ONCE(pt->domains);

	if (likely(domains == 1))
		return 0;
	return reciprocal_scale(skb_get_hash(skb), domains);
}

/* 1 / 2^8 s of the pacing rate: about 4 ms. */
#define PADTUN_PACING_SHIFT	8

netdev_tx_t padtun_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct padtun_dev *pt = netdev_priv(dev);
	enum skb_drop_reason reason;
	struct padtun_session *s;
	struct padtun_batch *batch;
	unsigned int count, domain;
	u64 *seq;

	s = padtun_sessions_tx_get(pt);
	if (unlikely(!s)) {
		padtun_tx_wait_for_session(pt);
		return NETDEV_TX_BUSY;
	}

	/* The parallel stage holds packets longer than a NIC's ring does: let
	 * the sending TCP socket keep 4 ms of its pacing rate in flight, not
	 * its usual 1 ms (TCP small queues), as mac80211 does for its
	 * aggregation. Less, and TCP waits for the pipeline to drain rather
	 * than keeping it full; much more, and what waits in the underlay's
	 * qdisc outstays fq_codel's 5 ms target and is dropped.
	 */
	sk_pacing_shift_update(skb->sk, PADTUN_PACING_SHIFT);
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (unlikely(!skb))
		goto drop_counted;
	skb_dst_drop(skb);

	/* The tx lock (no LLTX) makes the order of calls the seq order of
	 * each domain. A domain's count never passes PADTUN_SEQ_MAX + 1, so
	 * a packet's numbers stay in its domain; the session's rekey comes
	 * long before.
	 */
	count = padtun_tx_count(skb);
	domain = padtun_tx_domain(pt, skb);
	seq = &s->tx_seq[domain];
	reason = SKB_DROP_REASON_NOT_SPECIFIED;
	if (unlikely(count > PADTUN_SEQ_MAX + 1 - *seq))
		goto drop;
	reason = SKB_DROP_REASON_NOMEM;
	batch = padtun_batch_alloc(&pt->tx);
	if (unlikely(!batch))
		goto drop;
	__skb_queue_tail(&batch->skbs, skb);
	batch->count = count;
	batch->sess = s;
	batch->crypt.key = &s->tx_key;
	batch->session = s->tx_id;
	batch->domain = domain;
	batch->seq = padtun_seq(domain, *seq);
	*seq += count;
	padtun_tx_submit(pt, batch);
	goto out;

drop:
	kfree_skb_reason(skb, reason);
drop_counted:
	padtun_session_put(s);
	padtun_stat_inc(pt, PADTUN_STAT_TX_DROPPED);
out:
	padtun_tx_maybe_stop(pt);
	return NETDEV_TX_OK;
}

/* Segmentation sums nothing: the inner checksum is the receiver's
 * (padtun_tx_checksum()). With a cipher it copies the payload (the cipher
 * then writes in place, never into the sender's pages); with none,
 * nothing writes it, and the segments refer to the GSO packet's pages.
 */
static netdev_features_t padtun_tx_segment_features(struct padtun_dev *pt)
{
	return pt->transform.tag_len ? NETIF_F_HW_CSUM :
				       NETIF_F_SG | NETIF_F_HW_CSUM;
}

/* parallel(), first: cut a GSO packet into segments, here rather than in
 * ndo_start_xmit so that the copy and checksum of every byte spread over
 * the parallel CPUs; number them. A piece of a split packet (split.c)
 * comes segmented and numbered.
 */
static void padtun_tx_segment(struct padtun_batch *batch)
{
	struct padtun_dev *pt = batch->queue->pt;
	struct sk_buff *skb, *segs, *next;
	unsigned int n = 0;

	if (skb_queue_len(&batch->skbs) > 1)
		return;
	skb = __skb_dequeue(&batch->skbs);
	if (skb_is_gso(skb)) {
		segs = skb_gso_segment(skb, padtun_tx_segment_features(pt));
		if (IS_ERR(segs)) {
			padtun_stat_inc(pt, PADTUN_STAT_TX_DROPPED);
			kfree_skb_reason(skb, SKB_DROP_REASON_SKB_GSO_SEG);
			return;
		}
		if (segs) {
			consume_skb(skb);
			skb = segs;
		} else {
			/* One segment's worth (e.g. a dodgy GSO packet from
			 * a guest): send it as it is, as a plain packet.
			 */
			skb_gso_reset(skb);
		}
	}
	skb_list_walk_safe(skb, skb, next) {
		skb_mark_not_on_list(skb);
		if (unlikely(n == batch->count)) {
			padtun_stat_inc(pt, PADTUN_STAT_TX_ERRORS);
			kfree_skb_reason(skb, SKB_DROP_REASON_SKB_GSO_SEG);
			continue;
		}
		PADTUN_CB(skb)->seq = batch->seq + n++;
		__skb_queue_tail(&batch->skbs, skb);
	}
}

/* A checksum the stack left for offload is left to the receiver, through
 * the header's hint (messages.h, written from the skb's partial state by
 * padtun_transform_encrypt()): the peer hands the packet up as
 * CHECKSUM_PARTIAL, and no pass over the payload is made for it on either
 * end. Summed here only where the hint cannot say it: once encrypted,
 * nobody after us can fill it in.
 */
static int padtun_tx_checksum(struct sk_buff *skb)
{
	int start;

	if (skb->ip_summed != CHECKSUM_PARTIAL)
		return 0;
	start = skb_checksum_start_offset(skb);
	if (start > 0 && padtun_csum_hint_ok(start, skb->csum_offset))
		return 0;
	return skb_checksum_help(skb);
}

/* parallel(), per segment: checksum and encrypt. -EPROTO: not IP. */
static int padtun_tx_crypt(struct padtun_batch *batch, struct sk_buff *skb)
{
	struct padtun_dev *pt = batch->queue->pt;
	int ret;

	if (unlikely(!padtun_tx_ip_ok(skb)))
		return -EPROTO;
	PADTUN_CB(skb)->len = skb->len;
	if (padtun_tx_checksum(skb))
		return -EINVAL;
	ret = skb_cow_head(skb, PADTUN_HEADROOM);
	if (unlikely(ret))
		return ret;
	return padtun_transform_encrypt(&pt->transform, &batch->crypt, skb,
					batch->session, PADTUN_CB(skb)->seq);
}

/* serial(), per datagram or UDP GSO skb of them (gso.c): on tx's serial
 * CPU, in submission order.
 */
static bool padtun_tx_finish(struct padtun_dev *pt,
			     struct padtun_batch *batch, struct sk_buff *skb)
{
	const struct padtun_cb *cb = PADTUN_CB(skb);
	unsigned int packets = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
	unsigned int len = cb->len;

	if (unlikely(cb->err == -EPROTO)) {
		padtun_stat_inc(pt, PADTUN_STAT_TX_DROPPED);
		kfree_skb_reason(skb, SKB_DROP_REASON_INVALID_PROTO);
		return false;
	}
	if (unlikely(cb->err)) {
		padtun_stat_inc(pt, PADTUN_STAT_TX_ERRORS);
		kfree_skb(skb);
		return false;
	}
	if (unlikely(padtun_socket_send(pt, skb, batch->domain))) {
		padtun_stat_add(pt, PADTUN_STAT_TX_ERRORS, packets);
		return false;
	}
	padtun_stat_add_packets(pt, PADTUN_STAT_TX_SENT, PADTUN_STAT_TX_BYTES,
				packets, len);
	if (packets > 1)
		padtun_stat_inc(pt, PADTUN_STAT_TX_GSO);
	return false;
}

/* The batch is done with: so is its hold on the session. */
static void padtun_tx_release(struct padtun_batch *batch)
{
	padtun_session_put(batch->sess);
}

const struct padtun_queue_ops padtun_tx_ops = {
	.prepare	= padtun_tx_segment,
	.crypt		= padtun_tx_crypt,
	.parallel_done	= padtun_tx_coalesce,
	.finish		= padtun_tx_finish,
	.drained	= padtun_tx_maybe_wake,
	.release	= padtun_tx_release,
	.stat_submitted	= PADTUN_STAT_TX_SUBMITTED,
	.stat_busy	= PADTUN_STAT_TX_BUSY,
	.stat_passed	= PADTUN_STAT_TX_PASSED,
	.stat_in_place	= PADTUN_STAT_TX_IN_PLACE,
	.stat_dropped	= PADTUN_STAT_TX_DROPPED,
	.stat_parallel	= PADTUN_STAT_TX_PARALLEL,
};
