// SPDX-License-Identifier: GPL-2.0
/*
 * The underlay's UDP GSO: the datagrams of a tx batch leave as one skb of
 * type SKB_GSO_UDP_L4, so that the batch makes one trip through the IP
 * output path and the qdisc and rings the NIC's doorbell once. A NIC
 * without UDP segmentation offload (virtio-net in 6.1) has the stack cut
 * the skb up in validate_xmit_skb(), by reference, and gets the pieces
 * with xmit_more set on all but the last.
 */

#include <linux/ip.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/ip.h>

#include "messages.h"
#include "padtun.h"

/* What one UDP GSO skb may carry: its IPv4 total length is 16 bits. */
#define PADTUN_GSO_MAX_LEN	(IP_MAX_MTU - sizeof(struct iphdr) - \
				 sizeof(struct udphdr))

/* How many datagrams from @skb on fit one UDP GSO skb, which the stack
 * cuts at one size: encrypted ones, each as long as @skb but for a shorter
 * last one. TCP's segments are.
 */
static unsigned int padtun_gso_run(struct sk_buff_head *list,
				   struct sk_buff *skb, unsigned int *len)
{
	unsigned int size = skb->len, n = 0;

	for (*len = 0; skb; skb = skb_peek_next(skb, list)) {
		if (PADTUN_CB(skb)->err ||
		    skb->len > size || *len + skb->len > PADTUN_GSO_MAX_LEN ||
		    n == UDP_MAX_SEGMENTS)
			break;
		*len += skb->len;
		n++;
		if (skb->len < size)
			break;
	}
	return n;
}

/* Copy all of @skb (linear or not: none's datagrams still refer to the
 * GSO packet's pages) into @gso's page fragments, from byte @off of them.
 * Their pages are low memory (alloc_skb_with_frags): no kmap.
 */
static void padtun_gso_copy(struct sk_buff *gso, unsigned int off,
			    const struct sk_buff *skb)
{
	unsigned int done = 0, i, n;

	for (i = 0; done < skb->len; i++) {
		const skb_frag_t *frag = &skb_shinfo(gso)->frags[i];

		if (off >= skb_frag_size(frag)) {
			off -= skb_frag_size(frag);
			continue;
		}
		n = min(skb_frag_size(frag) - off, skb->len - done);
		/* In range by construction: cannot fail. */
		skb_copy_bits(skb, done, skb_frag_address(frag) + off, n);
		done += n;
		off = 0;
	}
}

/* One skb for the first @n datagrams of @list, @len bytes in all: the
 * headroom in its linear part, the datagrams back to back in page
 * fragments. NULL (nothing taken off @list) when memory is short.
 */
static struct sk_buff *padtun_gso_build(struct sk_buff_head *list,
					unsigned int n, unsigned int len)
{
	struct sk_buff *gso, *skb = skb_peek(list);
	unsigned int size = skb->len, inner = 0, off = 0;
	int err;

	gso = alloc_skb_with_frags(PADTUN_HEADROOM, len,
				   PAGE_ALLOC_COSTLY_ORDER, &err, GFP_ATOMIC);
	if (unlikely(!gso))
		return NULL;
	skb_reserve(gso, PADTUN_HEADROOM);
	gso->len = len;
	gso->data_len = len;
	PADTUN_CB(gso)->seq = PADTUN_CB(skb)->seq;

	while (off < len) {
		skb = __skb_dequeue(list);
		padtun_gso_copy(gso, off, skb);
		off += skb->len;
		inner += PADTUN_CB(skb)->len;
		consume_skb(skb);
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
 * @pkt: the batch, every datagram encrypted (or failed, in its err)
 *
 * Context: the end of the parallel stage, BHs disabled. Runs of two or
 * more datagrams become one skb each; the rest, and a run when memory is
 * short, stay as they are. Order is kept.
 */
void padtun_tx_coalesce(struct padtun_pkt *pkt)
{
	struct sk_buff_head in;
	struct sk_buff *skb, *gso;
	unsigned int n, len;

	if (skb_queue_len(&pkt->skbs) < 2)
		return;
	__skb_queue_head_init(&in);
	skb_queue_splice_init(&pkt->skbs, &in);
	while ((skb = skb_peek(&in))) {
		n = padtun_gso_run(&in, skb, &len);
		gso = n > 1 ? padtun_gso_build(&in, n, len) : NULL;
		if (gso) {
			__skb_queue_tail(&pkt->skbs, gso);
			continue;
		}
		for (n = max(n, 1U); n; n--)
			__skb_queue_tail(&pkt->skbs, __skb_dequeue(&in));
	}
}
