// SPDX-License-Identifier: GPL-2.0
/*
 * The underlay's UDP GSO: the datagrams of a tx batch leave as one skb of
 * type SKB_GSO_UDP_L4, so that the batch makes one trip through the IP
 * output path and the qdisc and rings the NIC's doorbell once. The
 * datagrams hang on its frag_list as they are. A NIC takes that whole only
 * with NETIF_F_FRAGLIST; for any other (virtio-net among them) the stack
 * cuts it up in validate_xmit_skb(), where skb_segment() clones each
 * datagram rather than copying it, and hands the pieces over with
 * xmit_more set on all but the last.
 */

#include <linux/ip.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/ip.h>

#include "gso.h"
#include "messages.h"
#include "queueing.h"

/* What one UDP GSO skb may carry: its IPv4 total length is 16 bits. */
#define PADTUN_GSO_MAX_LEN	(IP_MAX_MTU - sizeof(struct iphdr) - \
				 sizeof(struct udphdr))

/* How many datagrams from @skb on fit one UDP GSO skb, which the stack
 * cuts at one size: encrypted ones, each as long as @skb but for a shorter
 * last one. TCP's segments are.
 */
static unsigned int padtun_gso_run(struct sk_buff_head *list,
				   struct sk_buff *skb)
{
	unsigned int size = skb->len, len = 0, n = 0;

	for (; skb; skb = skb_peek_next(skb, list)) {
		if (PADTUN_CB(skb)->err ||
		    skb->len > size || len + skb->len > PADTUN_GSO_MAX_LEN ||
		    n == UDP_MAX_SEGMENTS)
			break;
		len += skb->len;
		n++;
		if (skb->len < size)
			break;
	}
	return n;
}

/* Headroom of the skb that heads a UDP GSO skb: the outer headers, as
 * PADTUN_HEADROOM but for the padtun header, which the datagrams carry.
 * The stack's segmentation clones each datagram and pushes the outer
 * headers into its headroom, which must be at least this (each has
 * PADTUN_HEADROOM less the header it pushed), or it copies the datagram.
 */
#define PADTUN_GSO_HEADROOM	(PADTUN_HEADROOM - sizeof(struct padtun_header))

/* Chain @skb, the next datagram, to the frag_list of @gso. Still owned by
 * the sending socket (TCP's segments are): it is freed, and TCP's
 * small-queue budget given back, when the underlay's qdisc hands @gso to
 * the driver, so that budget bounds what waits in that qdisc, as it does
 * for a packet that is not tunnelled. Its header released: the stack's
 * clone of it may then push the outer headers in place, where a header
 * still shared would be copied first.
 */
static void padtun_gso_chain(struct sk_buff *gso, struct sk_buff ***tail,
			     struct sk_buff *skb)
{
	if (!skb_cloned(skb))
		__skb_header_release(skb);
	gso->len += skb->len;
	gso->data_len += skb->len;
	gso->truesize += skb->truesize;
	**tail = skb;
	*tail = &skb->next;
}

/* One skb for the first @n datagrams of @list: only the outer headers' room
 * in itself, the datagrams as they are on its frag_list. The stack cuts it
 * at the datagrams' size (skb_segment), so each becomes one packet again,
 * by reference: no datagram is copied. NULL (nothing taken off @list) when
 * memory is short.
 */
static struct sk_buff *padtun_gso_build(struct sk_buff_head *list,
					unsigned int n)
{
	struct sk_buff *gso, *skb = skb_peek(list), **tail;
	unsigned int size = skb->len, inner = 0, i;

	gso = alloc_skb(PADTUN_GSO_HEADROOM, GFP_ATOMIC);
	if (unlikely(!gso))
		return NULL;
	skb_reserve(gso, PADTUN_GSO_HEADROOM);
	PADTUN_CB(gso)->seq = PADTUN_CB(skb)->seq;

	tail = &skb_shinfo(gso)->frag_list;
	for (i = 0; i < n; i++) {
		skb = __skb_dequeue(list);
		inner += PADTUN_CB(skb)->len;
		padtun_gso_chain(gso, &tail, skb);
	}
	PADTUN_CB(gso)->len = inner;
	PADTUN_CB(gso)->err = 0;
	skb_shinfo(gso)->gso_type = SKB_GSO_UDP_L4;
	skb_shinfo(gso)->gso_size = size;
	skb_shinfo(gso)->gso_segs = n;
	return gso;
}

/**
 * padtun_tx_coalesce - regroup a tx batch's datagrams into UDP GSO skbs
 * @batch: the batch, every datagram encrypted (or failed, in its err)
 *
 * Context: the end of the parallel stage, BHs disabled. Runs of two or
 * more datagrams become one skb each; the rest, and a run when memory is
 * short, stay as they are. Order is kept.
 */
void padtun_tx_coalesce(struct padtun_batch *batch)
{
	struct sk_buff_head in;
	struct sk_buff *skb, *gso;
	unsigned int n;

	if (skb_queue_len(&batch->skbs) < 2)
		return;
	__skb_queue_head_init(&in);
	skb_queue_splice_init(&batch->skbs, &in);
	while ((skb = skb_peek(&in))) {
		n = padtun_gso_run(&in, skb);
		gso = n > 1 ? padtun_gso_build(&in, n) : NULL;
		if (gso) {
			__skb_queue_tail(&batch->skbs, gso);
			continue;
		}
		for (n = max(n, 1U); n; n--)
			__skb_queue_tail(&batch->skbs, __skb_dequeue(&in));
	}
}
