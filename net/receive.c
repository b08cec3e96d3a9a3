// SPDX-License-Identifier: GPL-2.0
/*
 * Receive: the UDP encap handler checks the header and queues the
 * datagram on its domain's burst list (burst.c), whose poll submits the
 * datagrams of each session to the rx padata instance as one batch;
 * parallel() authenticates and decrypts; serial() runs the replay window
 * and delivers through its domain's delivery list (burst.c) to GRO, in
 * arrival order. A small datagram of an idle domain skips both lists
 * (padtun_rx_now()).
 */

#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/udp_tunnel.h>

#include "burst.h"
#include "handshake.h"
#include "knobs.h"
#include "messages.h"
#include "padtun.h"
#include "queueing.h"
#include "receive.h"
#include "replay.h"
#include "session.h"
#include "stats.h"
#include "transform.h"

/* A point-to-point link: only the configured remote may talk to us. */
static bool padtun_rx_from_peer(struct padtun_dev *pt, struct sk_buff *skb)
{
	if (pt->ep.family == AF_INET)
		return ip_hdr(skb)->saddr == pt->ep.remote.v4;
	return ipv6_addr_equal(&ipv6_hdr(skb)->saddr, &pt->ep.remote.v6);
}

/* Only the header: the rest is for parallel() to check, after the tag.
 * Returns why it is refused, or SKB_NOT_DROPPED_YET.
 */
static enum skb_drop_reason padtun_rx_header_check(struct padtun_dev *pt,
						   struct sk_buff *skb)
{
	const struct padtun_header *hdr;

	if (!pskb_may_pull(skb, sizeof(*hdr)))
		return SKB_DROP_REASON_PKT_TOO_SMALL;
	hdr = (const struct padtun_header *)skb->data;
	/* A domain we do not have: the two ends' domains differ. */
	if (hdr->type != PADTUN_TYPE_DATA ||
	    !padtun_csum_hint_ok(hdr->csum_start, hdr->csum_offset) ||
	    padtun_seq_domain(be64_to_cpu(hdr->seq)) >= READ_ONCE(pt->domains))
		return SKB_DROP_REASON_INVALID_PROTO;
	if (skb->len < sizeof(*hdr) + pt->transform.tag_len)
		return SKB_DROP_REASON_PKT_TOO_SMALL;
	return SKB_NOT_DROPPED_YET;
}

/* The wire cannot be told to wait: hold enough to ride out a changelink
 * pause or a burst beyond the in-flight limit, then drop.
 */
unsigned int padtun_rx_backlog_max(u32 max_inflight)
{
	return max_t(u32, 2 * max_inflight, 2048);
}

/* Past the UDP header: is this our version's? Its type says which
 * message it is.
 */
static bool padtun_rx_version_ok(struct sk_buff *skb)
{
	if (!pskb_may_pull(skb, sizeof(struct udphdr) + 2))
		return false;
	skb_pull_rcsum(skb, sizeof(struct udphdr));
	return skb->data[0] == PADTUN_VERSION;
}

static u64 padtun_rx_session(const struct sk_buff *skb)
{
	return be64_to_cpu(((const struct padtun_header *)skb->data)->session);
}

/* Count @skb against what the link holds unauthenticated; false when that
 * is full.
 */
static bool padtun_rx_charge(struct padtun_dev *pt, struct sk_buff *skb)
{
	unsigned int size = skb->truesize;

	if (unlikely(atomic_add_return(size, &pt->rx_unauth_bytes) >
		     padtun_knob_unauth_max(PADTUN_RX_UNAUTH_MAX))) {
		atomic_sub(size, &pt->rx_unauth_bytes);
		return false;
	}
	PADTUN_CB(skb)->charged = size;
	return true;
}

/**
 * padtun_rx_uncharge - a received datagram is dropped before its tag is
 * checked (padtun_rx_uncharge_batch() gives back the rest)
 * @pt: the device
 * @skb: charged by padtun_receive(); charged no more
 *
 * Context: any, while the link exists: teardown's drops from the burst
 * lists and the backlog come here too, before the count dies with it.
 */
static void padtun_rx_uncharge(struct padtun_dev *pt, struct sk_buff *skb)
{
	atomic_sub(PADTUN_CB(skb)->charged, &pt->rx_unauth_bytes);
	PADTUN_CB(skb)->charged = 0;
}

static unsigned int padtun_rx_domain(const struct sk_buff *skb)
{
	return padtun_seq_domain(PADTUN_CB(skb)->seq);
}

/* Submit the head of @burst and the datagrams of its session (one key)
 * after it, at most @max, as one batch. The list is one domain's, in
 * arrival order. Returns how many it took off @burst.
 */
static int padtun_rx_submit_burst(struct padtun_dev *pt,
				  struct sk_buff_head *burst, int max)
{
	struct sk_buff *skb = skb_peek(burst);
	u64 session = padtun_rx_session(skb);
	struct padtun_batch *batch;
	int count;

	batch = padtun_batch_alloc(&pt->rx);
	if (unlikely(!batch)) {
		__skb_unlink(skb, burst);
		padtun_rx_uncharge(pt, skb);
		padtun_stat_inc(pt, PADTUN_STAT_RX_DROPPED);
		kfree_skb_reason(skb, SKB_DROP_REASON_NOMEM);
		return 1;
	}
	batch->domain = padtun_rx_domain(skb);
	while ((skb = skb_peek(burst)) &&
	       padtun_rx_session(skb) == session &&
	       skb_queue_len(&batch->skbs) < max)
		__skb_queue_tail(&batch->skbs, __skb_dequeue(burst));
	count = skb_queue_len(&batch->skbs);
	batch->count = count;
	batch->session = session;
	/* The sessions are RCU-protected. */
	rcu_read_lock();
	padtun_rx_submit(pt, batch);
	rcu_read_unlock();
	/* Not batch->count: once submitted, batch may be gone already. */
	return count;
}

/* Refuse what names no session we hold before the rest is grouped into
 * batches: one spoofed datagram between the peer's must not split their
 * run into batches that each pay a padata object.
 */
static void padtun_rx_refuse_strangers(struct padtun_dev *pt,
				       struct sk_buff_head *taken)
{
	struct sk_buff *skb, *tmp;
	enum padtun_stat stat;
	u64 id;

	rcu_read_lock();
	skb_queue_walk_safe(taken, skb, tmp) {
		id = padtun_rx_session(skb);
		if (likely(padtun_rx_session_held(pt, id)))
			continue;
		stat = padtun_rx_own_session(pt, id) ?
		       PADTUN_STAT_RX_OWN_SESSION :
		       PADTUN_STAT_RX_UNKNOWN_SESSION;
		__skb_unlink(skb, taken);
		padtun_rx_uncharge(pt, skb);
		padtun_stat_inc(pt, stat);
		kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
	}
	rcu_read_unlock();
}

/* What a domain's burst list's poll took: datagrams from
 * padtun_receive(), in arrival order, submitted in batches of at most
 * @budget. Context: softirq (the poll).
 */
static void padtun_rx_submit_taken(struct padtun_burst *burst,
				   struct sk_buff_head *taken, int budget)
{
	padtun_rx_refuse_strangers(burst->pt, taken);
	while (!skb_queue_empty(taken))
		padtun_rx_submit_burst(burst->pt, taken, budget);
}

/* A domain's burst list submits what its poll took; the datagrams it
 * still holds when it goes (padtun_bursts_destroy()) give back their
 * unauthenticated bytes.
 */
const struct padtun_burst_ops padtun_rx_arrival_ops = {
	.consume	= padtun_rx_submit_taken,
	.unrun		= padtun_rx_uncharge,
};

/* What a domain's delivery list's poll took: decrypted inner packets, in
 * sequence order, to GRO. They leave rx's in-flight count only here
 * (padtun_rx_finish() held them), so the list holds no more than the
 * in-flight limit; the poll took no more than @budget.
 * Context: softirq (the poll).
 */
static void padtun_rx_to_gro(struct padtun_burst *deliver,
			     struct sk_buff_head *taken, int budget)
{
	unsigned int count = skb_queue_len(taken);
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(taken)))
		napi_gro_receive(&deliver->napi, skb);
	padtun_queue_complete(&deliver->pt->rx, count);
}

const struct padtun_burst_ops padtun_rx_delivery_ops = {
	.consume	= padtun_rx_to_gro,
};

/* A small datagram (a ping, a TCP ACK) whose domain has nothing in flight
 * and nothing on its burst list has no batch to wait for: decrypted here
 * and now, in place (queueing.c), it is delivered past both lists' NAPI
 * turns (padtun_rx_deliver()). Bigger ones go on the list: a burst of them
 * is one padata object, and their GRO merges on the delivery list. True:
 * consumed.
 */
static bool padtun_rx_now(struct padtun_dev *pt, struct padtun_burst *burst,
			  unsigned int domain, struct sk_buff *skb)
{
	if (skb->len > PADTUN_SMALL_BYTES ||
	    !padtun_queue_in_place_now(&pt->rx, domain, skb->len) ||
	    !padtun_burst_run_one(burst, skb))
		return false;
	padtun_stat_inc(pt, PADTUN_STAT_RX_IN_HOOK);
	return true;
}

/**
 * padtun_receive - the encap_rcv hook of the link's UDP socket
 * @sk: the socket
 * @skb: starts at the UDP header
 *
 * Context: softirq, RCU read side. Always consumes @skb (returns 0).
 */
int padtun_receive(struct sock *sk, struct sk_buff *skb)
{
	struct padtun_dev *pt = rcu_dereference_sk_user_data(sk);
	enum skb_drop_reason reason = SKB_DROP_REASON_DEV_READY;
	const struct padtun_header *hdr;
	struct padtun_burst *burst;
	unsigned int domain;

	/* Not attached yet, or being torn down (padtun_socket_detach()). */
	if (unlikely(!pt))
		goto drop;

	if (unlikely(!padtun_rx_from_peer(pt, skb))) {
		padtun_stat_inc(pt, PADTUN_STAT_RX_WRONG_PEER);
		/* Not for this socket, as a connected socket would filter. */
		reason = SKB_DROP_REASON_SOCKET_FILTER;
		goto drop;
	}
	reason = SKB_DROP_REASON_INVALID_PROTO;
	if (unlikely(!padtun_rx_version_ok(skb)))
		goto malformed;
	/* The underlay's input route may be a noref dst, valid only in this
	 * RCU section, and we have no use for it: the packet lives on in
	 * padata's work items, or the handshake's.
	 */
	skb_dst_drop(skb);
	if (unlikely(((const struct padtun_header *)skb->data)->type !=
		     PADTUN_TYPE_DATA)) {
		padtun_handshake_receive(pt, skb);
		return 0;
	}
	reason = padtun_rx_header_check(pt, skb);
	if (unlikely(reason != SKB_NOT_DROPPED_YET))
		goto malformed;

	hdr = (const struct padtun_header *)skb->data;
	PADTUN_CB(skb)->seq = be64_to_cpu(hdr->seq);
	if (unlikely(!padtun_rx_charge(pt, skb))) {
		padtun_stat_inc(pt, PADTUN_STAT_RX_UNAUTH_FULL);
		kfree_skb_reason(skb, SKB_DROP_REASON_NOMEM);
		return 0;
	}
	domain = padtun_rx_domain(skb);
	burst = &pt->received->list[domain];
	if (padtun_rx_now(pt, burst, domain, skb))
		return 0;
	/* What gro_cells allows before its poll runs, per domain; the
	 * unauthenticated bytes' limit bounds them all.
	 */
	if (unlikely(!padtun_burst_add(burst, skb,
				       READ_ONCE(netdev_max_backlog)))) {
		padtun_rx_uncharge(pt, skb);
		padtun_stat_inc(pt, PADTUN_STAT_RX_DROPPED);
		kfree_skb_reason(skb, SKB_DROP_REASON_CPU_BACKLOG);
	}
	return 0;

malformed:
	padtun_stat_inc(pt, PADTUN_STAT_RX_MALFORMED);
	net_dbg_ratelimited("%s: malformed datagram from the peer (%u bytes)\n",
			    pt->dev->name, skb->len);
drop:
	kfree_skb_reason(skb, reason);
	return 0;
}

/* The inner packet must be IP and as long as it says it is. */
static int padtun_rx_check_inner(struct sk_buff *skb)
{
	unsigned int len;

	if (!pskb_may_pull(skb, sizeof(struct iphdr)))
		return -EPROTO;

	switch (ip_hdr(skb)->version) {
	case 4:
		len = ntohs(ip_hdr(skb)->tot_len);
		if (len < ip_hdr(skb)->ihl * 4)
			return -EPROTO;
		skb->protocol = htons(ETH_P_IP);
		break;
	case 6:
		if (!pskb_may_pull(skb, sizeof(struct ipv6hdr)))
			return -EPROTO;
		len = ntohs(ipv6_hdr(skb)->payload_len) +
		      sizeof(struct ipv6hdr);
		skb->protocol = htons(ETH_P_IPV6);
		break;
	default:
		return -EPROTO;
	}
	if (len > skb->len || pskb_trim_rcsum(skb, len))
		return -EPROTO;
	return 0;
}

/* parallel(), per datagram: authenticate and decrypt. */
static int padtun_rx_crypt(struct padtun_batch *batch, struct sk_buff *skb)
{
	return padtun_transform_decrypt(&batch->queue->pt->transform,
					&batch->crypt, skb, PADTUN_CB(skb)->seq);
}

/* parallel(), last: every datagram of the batch has been authenticated
 * or refused, so none waits for it any more. One atomic for the batch,
 * not one per datagram, on the line the receive hook charges.
 */
static void padtun_rx_uncharge_batch(struct padtun_batch *batch)
{
	unsigned int bytes = 0;
	struct sk_buff *skb;

	skb_queue_walk(&batch->skbs, skb) {
		bytes += PADTUN_CB(skb)->charged;
		PADTUN_CB(skb)->charged = 0;
	}
	atomic_sub(bytes, &batch->queue->pt->rx_unauth_bytes);
}

/* The inner IP header's length, options included (IPv6: the fixed
 * header; a checksum never starts before its extension headers end).
 */
static unsigned int padtun_rx_inner_hlen(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		return ip_hdr(skb)->ihl * 4;
	return sizeof(struct ipv6hdr);
}

/* What the inner packet's checksum is worth: left to us by the sender
 * (the header's hint, messages.h), or as far as the outer checksum went.
 * A complete one is checked by the stack, also under an AEAD: the tag
 * vouches only that these are the bytes the sender had, and a packet it
 * forwarded carries a sum nobody checked there.
 */
static int padtun_rx_inner_checksum(struct sk_buff *skb, unsigned int start,
				    unsigned int offset)
{
	/* A checksum starts past the inner IP header (checked above), never
	 * inside it; skb_partial_csum_set() wants the field in the linear
	 * part.
	 */
	if (start)
		return start >= padtun_rx_inner_hlen(skb) &&
		       pskb_may_pull(skb, start + offset + sizeof(__sum16)) &&
		       skb_partial_csum_set(skb, start, offset) ? 0 : -EPROTO;
	/* A driver's CHECKSUM_UNNECESSARY was for the outer UDP only.
	 * CHECKSUM_COMPLETE (with none: the outer check's sum, kept up to
	 * date by the _rcsum pulls and trims) saves the inner TCP or UDP
	 * check another pass over the data.
	 */
	if (skb->ip_summed != CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;
	return 0;
}

/* Decrypted: strip our header and tag, check what is left. */
static int padtun_rx_decrypted(struct padtun_batch *batch, struct sk_buff *skb,
			       int err)
{
	struct padtun_dev *pt = batch->queue->pt;
	const struct padtun_header *hdr;
	unsigned int csum_start, csum_offset;

	if (err)
		return err;
	hdr = (const struct padtun_header *)skb->data;
	csum_start = hdr->csum_start;
	csum_offset = hdr->csum_offset;
	/* Decrypted bytes are not what the outer checksum summed. */
	if (pt->transform.tag_len)
		skb->ip_summed = CHECKSUM_NONE;
	if (pskb_trim_rcsum(skb, skb->len - pt->transform.tag_len))
		return -EPROTO;
	skb_pull_rcsum(skb, sizeof(struct padtun_header));
	skb_reset_network_header(skb);
	err = padtun_rx_check_inner(skb);
	if (err)
		return err;
	err = padtun_rx_inner_checksum(skb, csum_start, csum_offset);
	if (err)
		return err;
	PADTUN_CB(skb)->len = skb->len;
	return 0;
}

/* Hand the packet, an IP packet from our layer-3 device, to its domain's
 * GRO queue; a small one of a batch run in place (by the burst list's
 * poll or by padtun_rx_now()) to GRO at once when that queue is idle:
 * there is nothing for it to merge with. True: held in flight until
 * padtun_rx_to_gro().
 */
static bool padtun_rx_deliver(struct padtun_dev *pt,
			      const struct padtun_batch *batch,
			      struct sk_buff *skb, unsigned int len)
{
	struct padtun_burst *list = &pt->deliver->list[batch->domain];
	struct net_device *dev = pt->dev;

	/* Same namespace: the socket lives in the device's own. */
	skb_scrub_packet(skb, false);
	skb->encapsulation = 0;
	skb->dev = dev;
	/* No link-layer header: it starts where the IP header does. */
	skb_reset_mac_header(skb);

	/* Down, or unregistered and its NAPI instances going: drop. No
	 * bound of the list's own: rx's in-flight limit is it.
	 */
	if (likely(netif_running(dev) &&
		   ((batch->in_place && len <= PADTUN_SMALL_BYTES &&
		     padtun_burst_run_one(list, skb)) ||
		    padtun_burst_add(list, skb, UINT_MAX)))) {
		padtun_stat_add_packets(pt, PADTUN_STAT_RX_DELIVERED,
					PADTUN_STAT_RX_BYTES, 1, len);
		return true;
	}
	padtun_stat_inc(pt, PADTUN_STAT_RX_STACK_DROPPED);
	kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
	return false;
}

/* serial(), per datagram: in arrival order, on rx's serial CPU. True:
 * delivered, and held in flight (padtun_rx_deliver()).
 */
static bool padtun_rx_finish(struct padtun_dev *pt,
			     struct padtun_batch *batch, struct sk_buff *skb)
{
	const struct padtun_cb *cb = PADTUN_CB(skb);
	/* 6.1 has no drop reason for authentication or replay (nor can a
	 * module add one): those are NOT_SPECIFIED, and told apart by the
	 * counters. docs/padtun.rst lists the mapping.
	 */
	enum skb_drop_reason reason = SKB_DROP_REASON_NOT_SPECIFIED;

	if (unlikely(cb->err)) {
		if (cb->err == -EBADMSG) {
			padtun_stat_inc(pt, PADTUN_STAT_RX_AUTH_FAILED);
			net_dbg_ratelimited("%s: datagram failed authentication (session %llu, seq %llu)\n",
					    pt->dev->name, batch->session,
					    cb->seq);
		} else if (cb->err == -EPROTO) {
			padtun_stat_inc(pt, PADTUN_STAT_RX_MALFORMED);
			reason = SKB_DROP_REASON_IP_INHDR;
			net_dbg_ratelimited("%s: authenticated datagram with a bad inner packet\n",
					    pt->dev->name);
		} else {
			padtun_stat_inc(pt, PADTUN_STAT_RX_DROPPED);
			reason = SKB_DROP_REASON_NOMEM;
		}
		goto drop;
	}

	switch (padtun_replay_check(&pt->replay[batch->domain],
				    batch->sess->gen, padtun_seq_count(cb->seq))) {
	case PADTUN_REPLAY_NEW:
		break;
	case PADTUN_REPLAY_LATE:
		/* Padata keeps arrival order: the wire reordered this one. */
		padtun_stat_inc(pt, PADTUN_STAT_RX_REORDERED);
		break;
	case PADTUN_REPLAY_DUPLICATE:
		padtun_stat_inc(pt, PADTUN_STAT_RX_REPLAYED);
		goto drop;
	case PADTUN_REPLAY_TOO_OLD:
		if (!pt->transform.tag_len) {
			padtun_replay_reset(&pt->replay[batch->domain],
					    batch->sess->gen,
					    padtun_seq_count(cb->seq));
			padtun_stat_inc(pt, PADTUN_STAT_RX_WINDOW_RESET);
			break;
		}
		padtun_stat_inc(pt, PADTUN_STAT_RX_TOO_OLD);
		goto drop;
	case PADTUN_REPLAY_OLD_SESSION:
		/* Authenticated under a key that was current once. */
		padtun_stat_inc(pt, PADTUN_STAT_RX_OLD_SESSION);
		goto drop;
	}
	padtun_sessions_promote(pt, batch->sess);
	return padtun_rx_deliver(pt, batch, skb, cb->len);

drop:
	kfree_skb_reason(skb, reason);
	return false;
}

/* The batch is done with: so is its hold on the session. */
static void padtun_rx_release(struct padtun_batch *batch)
{
	padtun_session_put(batch->sess);
}

const struct padtun_queue_ops padtun_rx_ops = {
	.crypt		= padtun_rx_crypt,
	.crypted	= padtun_rx_decrypted,
	.parallel_done	= padtun_rx_uncharge_batch,
	.finish		= padtun_rx_finish,
	.unrun		= padtun_rx_uncharge,
	.release	= padtun_rx_release,
	.stat_submitted	= PADTUN_STAT_RX_SUBMITTED,
	.stat_busy	= PADTUN_STAT_RX_BUSY,
	.stat_passed	= PADTUN_STAT_RX_PASSED,
	.stat_in_place	= PADTUN_STAT_RX_IN_PLACE,
	.stat_dropped	= PADTUN_STAT_RX_DROPPED,
	.stat_parallel	= PADTUN_STAT_RX_PARALLEL,
};
