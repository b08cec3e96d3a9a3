// SPDX-License-Identifier: GPL-2.0
/*
 * Spread what is heavy: a transmit batch whose parallel stage costs more
 * than one CPU should carry alone (a GSO packet under a cipher) is cut into
 * a few batches of consecutive segments, its pieces, submitted one after
 * the other: padata runs their parallel() on several CPUs and their
 * serial() in submission order, so they leave in order. What is light stays
 * one batch, and on the serial CPU while that one keeps up (docs/padtun.rst,
 * "Pipeline").
 *
 * The cost is measured, not told by the transform's name: the tx queue's
 * cost per byte of its parallel stage (queueing.c) times the packet's
 * bytes, in one piece for each PADTUN_SPLIT_PIECE_NS of it.
 *
 * The packet is segmented here, in ndo_start_xmit, with scatter-gather:
 * the segments refer to its pages, and no payload is copied on this CPU.
 * A cipher then makes each segment writable in its piece's parallel()
 * (skb_cow_data copies the pages into the segment's own head), so the copy
 * of every byte still spreads, and TCP's pages are never written.
 */

#include <linux/cpumask.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "knobs.h"
#include "padtun.h"
#include "queueing.h"
#include "session.h"
#include "split.h"
#include "stats.h"

/* The parallel work one piece must carry. A piece costs one more padata
 * object (a work item, often a wake-up of another CPU, its turn in the
 * reorder) and one more UDP GSO skb through the underlay's output path:
 * some tens of microseconds in the test bed's TCG guests, where sending a
 * UDP GSO skb of ten datagrams took 40 to 300 us, their copy included.
 * There a GSO packet of 56,028 bytes cost 1.0 to 2.0 ms of parallel stage
 * with chacha20poly1305 (17 to 35 ns a byte) and 170 to 310 us with none
 * (3 to 5): at 250 us a piece, the cipher's is split in three or four,
 * none's, below the three pieces a split needs, never.
 */
#define PADTUN_SPLIT_PIECE_NS	(250 * NSEC_PER_USEC)

/* padata keeps an object on its callback CPU while fewer than two wait
 * there (docs/padata.rst): of pieces submitted to an idle link, the first
 * two stay on the serial CPU. So a split pays from three pieces on, and
 * two per CPU of the list keep them all busy.
 */
#define PADTUN_SPLIT_MIN	3
#define PADTUN_SPLIT_PER_CPU	2

/* Pieces of one packet, at most: two for each CPU of a list of four. */
#define PADTUN_SPLIT_MAX	8U

/* How many pieces @batch is worth: one per PADTUN_SPLIT_PIECE_NS of its
 * measured cost, at most PADTUN_SPLIT_PER_CPU per CPU of the list and one
 * per two of its segments. Below PADTUN_SPLIT_MIN: keep it whole.
 */
static unsigned int padtun_split_pieces(struct padtun_dev *pt,
					const struct padtun_batch *batch)
{
	const struct sk_buff *skb = skb_peek(&batch->skbs);
	unsigned int cpus;
	u64 ns;

	if (!skb_is_gso(skb) || batch->count < 2 * PADTUN_SPLIT_MIN)
		return 1;
	ns = div_u64((u64)skb->len * padtun_queue_cost_ps(&pt->tx), 1000);
	/* changelink may rewrite the list meanwhile (under RTNL, the queues
	 * paused): the old list's count or the new one's does as well.
	 */
	cpus = data_race(cpumask_weight(pt->cpus));
	return min_t(u64, div_u64(ns, PADTUN_SPLIT_PIECE_NS),
		     min3(PADTUN_SPLIT_PER_CPU * cpus, batch->count / 2,
			  PADTUN_SPLIT_MAX));
}

/* The pieces after the first, which is @batch itself, from the queue's
 * pool: false, and none taken, if it could not give them all.
 */
static bool padtun_split_alloc(struct padtun_queue *q,
			       struct padtun_batch *batch,
			       struct padtun_batch **pieces, unsigned int n)
{
	unsigned int i;

	pieces[0] = batch;
	for (i = 1; i < n; i++) {
		pieces[i] = padtun_batch_alloc(q);
		if (!pieces[i])
			goto err_free;
		/* The packet's session (its key, name and a reference) and
		 * domain, whose order keeps the pieces in theirs.
		 */
		pieces[i]->session = batch->session;
		pieces[i]->domain = batch->domain;
		pieces[i]->sess = padtun_session_hold(batch->sess);
		pieces[i]->crypt.key = batch->crypt.key;
	}
	return true;

err_free:
	while (--i)
		padtun_batch_free(pieces[i]);
	return false;
}

/* Give back the pieces from @n on, of @count taken. */
static void padtun_split_free(struct padtun_batch **pieces, unsigned int n,
			      unsigned int count)
{
	while (count > n)
		padtun_batch_free(pieces[--count]);
}

static unsigned int padtun_split_len(struct sk_buff *segs)
{
	unsigned int n = 0;

	for (; segs; segs = segs->next)
		n++;
	return n;
}

/* Deal @segs, in order, to @n pieces, @nsegs of them in as even shares,
 * numbered on from the packet's first number. None beyond the numbers
 * ndo_start_xmit reserved, pieces[0]->count: parallel() would drop such a
 * segment too.
 */
static void padtun_split_deal(struct padtun_dev *pt, struct sk_buff *segs,
			      unsigned int nsegs, struct padtun_batch **pieces,
			      unsigned int n)
{
	u64 seq = pieces[0]->seq, end = seq + pieces[0]->count;
	struct padtun_batch *piece = pieces[0];
	struct sk_buff *skb, *next;
	unsigned int i = 0, dealt = 0;

	piece->count = 0;
	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		if (unlikely(seq == end)) {
			padtun_stat_inc(pt, PADTUN_STAT_TX_ERRORS);
			kfree_skb_reason(skb, SKB_DROP_REASON_SKB_GSO_SEG);
			continue;
		}
		if (dealt == (i + 1) * nsegs / n) {
			piece = pieces[++i];
			piece->seq = seq;
			piece->count = 0;
		}
		PADTUN_CB(skb)->seq = seq++;
		__skb_queue_tail(&piece->skbs, skb);
		piece->count++;
		dealt++;
	}
}

/* In order; last first only for a test's negative control. */
static void padtun_split_submit(struct padtun_queue *q,
				struct padtun_batch **pieces, unsigned int n)
{
	bool reversed = padtun_knob_split_reversed();
	unsigned int i;

	for (i = 0; i < n; i++)
		padtun_queue_submit(q, pieces[reversed ? n - 1 - i : i]);
}

/**
 * padtun_tx_submit - submit a transmit batch, in pieces if it is heavy
 * @pt: the device
 * @batch: one skb, GSO or not; its seq, count and session set
 *
 * A packet that cannot be split (no batch or memory for its pieces, its
 * segmentation failed) goes whole, and parallel() segments it or counts
 * why not. Context: ndo_start_xmit, under the tx lock, which makes the
 * order of the pieces the order of the numbers.
 */
void padtun_tx_submit(struct padtun_dev *pt, struct padtun_batch *batch)
{
	struct padtun_batch *pieces[PADTUN_SPLIT_MAX];
	unsigned int n = padtun_split_pieces(pt, batch), taken, nsegs;
	struct sk_buff *skb = skb_peek(&batch->skbs), *segs;

	if (n < PADTUN_SPLIT_MIN ||
	    !padtun_split_alloc(&pt->tx, batch, pieces, n))
		goto whole;
	segs = skb_gso_segment(skb, NETIF_F_SG | NETIF_F_HW_CSUM);
	if (IS_ERR_OR_NULL(segs)) {
		padtun_split_free(pieces, 1, n);
		goto whole;
	}
	__skb_unlink(skb, &batch->skbs);
	consume_skb(skb);

	nsegs = min(padtun_split_len(segs), batch->count);
	taken = n;
	n = clamp(nsegs / 2, 1U, n);
	padtun_split_free(pieces, n, taken);
	padtun_split_deal(pt, segs, nsegs, pieces, n);
	if (n > 1)
		padtun_stat_inc(pt, PADTUN_STAT_TX_SPLIT);
	padtun_split_submit(&pt->tx, pieces, n);
	return;

whole:
	padtun_queue_submit(&pt->tx, batch);
}
