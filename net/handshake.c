// SPDX-License-Identifier: GPL-2.0
/*
 * The handshake: every session gets both ends' fresh random values, so an
 * end only ever accepts data of a session it took part in making.
 *
 *   initiator                                responder
 *   init: timestamp, Ni, mac      ------->   timestamp above the last taken?
 *                                            makes the session (Ni, Nr) as
 *                                            next; still sends under the
 *                                            old one
 *                                 <-------   response: Nr, mac over Ni, Nr
 *   makes the session, sends
 *   under it from now on
 *   confirm: mac over Ni, Nr      ------->   sends under it from now on
 *   data of the new session       ------->   (also takes it over, should
 *                                            the confirm be lost)
 *
 * Every mac is HMAC-BLAKE2s under the link's pseudo-random key (keys.c),
 * over the message, the transform and both ends: only a holder of the
 * configured key makes one, and only for this pair of endpoints. The keys
 * derive from Ni and Nr, so nothing sealed under a session made before a
 * restart, a re-created link or a snapshot (whose sessions are dropped on
 * the VM-fork notification) is ever accepted again.
 *
 * An init is sent when the device comes up without a session, and before
 * the session gets old
 * (PADTUN_REKEY_AFTER, IKE's usual child SA lifetime; by the end that
 * initiated it, the other one a grace period later). Data of a session we
 * do not hold starts nothing: anyone can send it, and the peer that lost
 * its session makes a new one itself (its link comes up, or it forgot
 * its sessions on a VM fork). The old session is kept until the
 * new one is confirmed: nothing in flight is lost or reordered (session.c).
 * Unanswered inits are repeated with a backoff up to PADTUN_HS_RETRY_MAX,
 * for as long as the device is up: a peer that is down costs a trickle.
 * Two inits that cross are settled by the ends' addresses: the lower end
 * answers the higher's and drops its own.
 *
 * Received messages are checked for their length in the receive hook,
 * rate limited (PADTUN_HS_PER_SECOND, then at most PADTUN_HS_INBOX
 * waiting) and handled in a work item: the keys' crypto API allocates and
 * sleeps, and nothing a sender without the key can send makes us do more
 * than one MAC per message.
 */

#include <crypto/algapi.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/notifier.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/sched/mm.h>

#include "handshake.h"
#include "knobs.h"
#include "messages.h"
#include "padtun.h"
#include "queueing.h"
#include "session.h"
#include "socket.h"
#include "stats.h"

#define PADTUN_HS_INBOX		16
#define PADTUN_HS_PER_SECOND	20
#define PADTUN_HS_RETRY		HZ
#define PADTUN_HS_RETRY_MAX	(16 * HZ)
#define PADTUN_HS_TICK		HZ
#define PADTUN_REKEY_AFTER	(3600 * HZ)
#define PADTUN_REKEY_GRACE	(60 * HZ)

/* Every link, for the VM-fork notification. */
static LIST_HEAD(padtun_hs_links);
static DEFINE_MUTEX(padtun_hs_links_lock);

/* From the peer to us, or from us to the peer, with @n. */
static struct padtun_direction padtun_hs_in(struct padtun_dev *pt,
					    const struct padtun_hs_nonces *n)
{
	return (struct padtun_direction) {
		.to = &pt->transform.rx_label,
		.from = &pt->transform.tx_label,
		.nonces = n,
	};
}

static struct padtun_direction padtun_hs_out(struct padtun_dev *pt,
					     const struct padtun_hs_nonces *n)
{
	return (struct padtun_direction) {
		.to = &pt->transform.tx_label,
		.from = &pt->transform.rx_label,
		.nonces = n,
	};
}

static void padtun_hs_mac_out(struct padtun_dev *pt,
			      struct padtun_handshake_msg *msg,
			      const struct padtun_hs_nonces *n)
{
	struct padtun_direction dir = padtun_hs_out(pt, n);

	padtun_hs_mac(msg->mac, pt->transform.prk, pt->transform.desc->name,
		      msg, &dir);
}

static bool padtun_hs_mac_ok(struct padtun_dev *pt,
			     const struct padtun_handshake_msg *msg,
			     const struct padtun_hs_nonces *n)
{
	struct padtun_direction dir = padtun_hs_in(pt, n);
	u8 mac[PADTUN_HS_MAC_LEN];

	padtun_hs_mac(mac, pt->transform.prk, pt->transform.desc->name, msg,
		      &dir);
	return !crypto_memneq(mac, msg->mac, sizeof(mac));
}

static void padtun_hs_send(struct padtun_dev *pt, u8 type, u64 timestamp,
			   const u8 *random, const struct padtun_hs_nonces *n,
			   enum padtun_stat stat)
{
	struct padtun_handshake_msg *msg;
	struct sk_buff *skb;
	int ret;

	skb = alloc_skb(PADTUN_HEADROOM + sizeof(*msg), GFP_KERNEL);
	if (!skb)
		return;
	skb_reserve(skb, PADTUN_HEADROOM);
	msg = skb_put_zero(skb, sizeof(*msg));
	msg->version = PADTUN_VERSION;
	msg->type = type;
	msg->timestamp = cpu_to_be64(timestamp);
	if (random)
		memcpy(msg->random, random, PADTUN_HS_RANDOM_LEN);
	padtun_hs_mac_out(pt, msg, n);

	local_bh_disable();
	ret = padtun_socket_send(pt, skb, 0);
	local_bh_enable();
	if (!ret)
		padtun_stat_inc(pt, stat);
}

static void padtun_hs_random(u8 random[PADTUN_HS_RANDOM_LEN])
{
	get_random_bytes(random, PADTUN_HS_RANDOM_LEN);
	padtun_knob_fixed_random(random, PADTUN_HS_RANDOM_LEN);
}

/* Caller holds hs->lock. */
static void padtun_hs_send_init(struct padtun_dev *pt)
{
	struct padtun_handshake *hs = &pt->hs;
	unsigned int shift = min_t(unsigned int, hs->tries, 4);

	padtun_hs_random(hs->ours.ni);
	memset(hs->ours.nr, 0, sizeof(hs->ours.nr));
	/* Above every init this link sent, whatever the clock does. */
	hs->init_timestamp = max_t(u64, ktime_get_real_ns(),
				   hs->init_timestamp + 1);
	hs->initiating = true;
	hs->last_init = jiffies;
	hs->next_try = jiffies + min_t(unsigned long, PADTUN_HS_RETRY << shift,
				       PADTUN_HS_RETRY_MAX);
	hs->tries++;
	padtun_hs_send(pt, PADTUN_TYPE_INIT, hs->init_timestamp, hs->ours.ni,
		       &hs->ours, PADTUN_STAT_HS_INIT_SENT);
}

/* Make the session of @n; false if it could not be made. */
static bool padtun_hs_make(struct padtun_dev *pt,
			   const struct padtun_hs_nonces *n, bool initiated)
{
	struct mem_cgroup *old_memcg = set_active_memcg(pt->memcg);
	struct padtun_session *s = padtun_session_create(pt, n, initiated);

	set_active_memcg(old_memcg);
	if (!s)
		return false;
	padtun_sessions_add(pt, s);
	padtun_session_put(s);
	padtun_stat_inc(pt, PADTUN_STAT_SESSIONS_MADE);
	return true;
}

/* A link looped onto its own endpoint (tests flood one) would answer its
 * own init: it makes its sessions alone.
 */
static bool padtun_hs_looped(struct padtun_dev *pt)
{
	return !memcmp(&pt->transform.rx_label, &pt->transform.tx_label,
		       sizeof(pt->transform.rx_label));
}

static void padtun_hs_make_alone(struct padtun_dev *pt)
{
	struct padtun_hs_nonces n;

	padtun_hs_random(n.ni);
	padtun_hs_random(n.nr);
	padtun_hs_make(pt, &n, true);
	memzero_explicit(&n, sizeof(n));
}

/* Our end's address and port above the peer's: our init wins a crossing. */
static bool padtun_hs_we_win(struct padtun_dev *pt)
{
	return memcmp(&pt->transform.rx_label, &pt->transform.tx_label,
		      sizeof(pt->transform.rx_label)) > 0;
}

static bool padtun_hs_take_init(struct padtun_dev *pt,
				const struct padtun_handshake_msg *msg)
{
	struct padtun_handshake *hs = &pt->hs;
	u64 timestamp = be64_to_cpu(msg->timestamp);
	struct padtun_hs_nonces n = { };

	memcpy(n.ni, msg->random, sizeof(n.ni));
	if (!padtun_hs_mac_ok(pt, msg, &n))
		return false;
	/* Replayed, or the peer's clock went back: nothing is made of it
	 * (answering a replay would replace a session being made). A peer
	 * whose clock went back waits for our next rekey.
	 */
	if (timestamp <= hs->peer_timestamp)
		return false;
	if (hs->initiating && padtun_hs_we_win(pt))
		return true;
	hs->initiating = false;
	hs->peer_timestamp = timestamp;
	padtun_hs_random(n.nr);
	if (padtun_hs_make(pt, &n, false))
		padtun_hs_send(pt, PADTUN_TYPE_RESPONSE, timestamp, n.nr, &n,
			       PADTUN_STAT_HS_RESPONSE_SENT);
	memzero_explicit(&n, sizeof(n));
	return true;
}

static bool padtun_hs_take_response(struct padtun_dev *pt,
				    const struct padtun_handshake_msg *msg)
{
	struct padtun_handshake *hs = &pt->hs;
	struct padtun_hs_nonces n = hs->ours;
	bool ok = false;

	if (!hs->initiating ||
	    be64_to_cpu(msg->timestamp) != hs->init_timestamp)
		goto out;
	memcpy(n.nr, msg->random, sizeof(n.nr));
	if (!padtun_hs_mac_ok(pt, msg, &n))
		goto out;
	ok = true;
	hs->initiating = false;
	hs->tries = 0;
	if (!padtun_hs_make(pt, &n, true))
		goto out;
	padtun_hs_send(pt, PADTUN_TYPE_CONFIRM, hs->init_timestamp, NULL, &n,
		       PADTUN_STAT_HS_CONFIRM_SENT);
out:
	memzero_explicit(&n, sizeof(n));
	return ok;
}

static bool padtun_hs_take_confirm(struct padtun_dev *pt,
				   const struct padtun_handshake_msg *msg)
{
	struct padtun_session *s = padtun_sessions_next_get(pt);
	bool ok;

	ok = s && !s->initiated && padtun_hs_mac_ok(pt, msg, &s->nonces);
	if (ok)
		padtun_sessions_confirmed(pt, s);
	padtun_session_put(s);
	return ok;
}

/* Caller holds hs->lock. */
static void padtun_hs_take(struct padtun_dev *pt, struct sk_buff *skb)
{
	const struct padtun_handshake_msg *msg = (const void *)skb->data;
	bool ok;

	switch (msg->type) {
	case PADTUN_TYPE_INIT:
		ok = padtun_hs_take_init(pt, msg);
		break;
	case PADTUN_TYPE_RESPONSE:
		ok = padtun_hs_take_response(pt, msg);
		break;
	default:
		ok = padtun_hs_take_confirm(pt, msg);
		break;
	}
	padtun_stat_inc(pt, ok ? PADTUN_STAT_HS_TAKEN : PADTUN_STAT_HS_REFUSED);
	if (!ok)
		net_dbg_ratelimited("%s: handshake message (type %u) refused\n",
				    pt->dev->name, msg->type);
}

/* Whether a new session is wanted: none yet, or ours is getting old. */
static bool padtun_hs_wanted(struct padtun_dev *pt)
{
	unsigned long after = padtun_knob_rekey_after(PADTUN_REKEY_AFTER);
	unsigned long grace = padtun_knob_rekey_after(PADTUN_REKEY_GRACE);
	struct padtun_session *s;
	bool wanted;

	rcu_read_lock();
	s = rcu_dereference(pt->sessions.tx);
	wanted = !s || time_after_eq(jiffies, s->made + after +
				     (s->initiated ? 0 : grace));
	rcu_read_unlock();
	return wanted;
}

/* Caller holds hs->lock. When to look again. */
static unsigned long padtun_hs_tick(struct padtun_dev *pt)
{
	struct padtun_handshake *hs = &pt->hs;

	if (!netif_running(pt->dev))
		return 0;
	if (hs->initiating) {
		if (time_after_eq(jiffies, hs->next_try))
			padtun_hs_send_init(pt);
	} else if (padtun_hs_wanted(pt) && padtun_hs_looped(pt)) {
		padtun_hs_make_alone(pt);
	} else if (padtun_hs_wanted(pt) &&
		   time_after_eq(jiffies, hs->last_init + PADTUN_HS_RETRY)) {
		hs->tries = 0;
		padtun_hs_send_init(pt);
	}
	if (hs->initiating)
		return max_t(long, hs->next_try - jiffies, 1);
	return PADTUN_HS_TICK;
}

static void padtun_hs_work(struct work_struct *work)
{
	struct padtun_handshake *hs = container_of(to_delayed_work(work),
						   struct padtun_handshake,
						   work);
	struct padtun_dev *pt = container_of(hs, struct padtun_dev, hs);
	unsigned long delay;
	struct sk_buff *skb;

	mutex_lock(&hs->lock);
	while ((skb = skb_dequeue(&hs->inbox))) {
		padtun_hs_take(pt, skb);
		consume_skb(skb);
	}
	delay = padtun_hs_tick(pt);
	mutex_unlock(&hs->lock);
	/* Down: nothing to initiate until padtun_handshake_start(). */
	if (delay)
		queue_delayed_work(padtun_wq, &hs->work, delay);
}

/* A message of ours, whole, in the linear part. */
static bool padtun_hs_msg_ok(struct sk_buff *skb)
{
	const struct padtun_handshake_msg *msg;

	if (skb->len != sizeof(*msg) || !pskb_may_pull(skb, sizeof(*msg)))
		return false;
	msg = (const struct padtun_handshake_msg *)skb->data;
	return msg->type == PADTUN_TYPE_INIT ||
	       msg->type == PADTUN_TYPE_RESPONSE ||
	       msg->type == PADTUN_TYPE_CONFIRM;
}

/**
 * padtun_handshake_receive - a handshake message from the peer
 * @pt: the device
 * @skb: at the padtun header, version checked; consumed
 *
 * Context: softirq (the socket's receive hook).
 */
void padtun_handshake_receive(struct padtun_dev *pt, struct sk_buff *skb)
{
	struct padtun_handshake *hs = &pt->hs;
	unsigned long flags;
	bool taken = false;

	if (!padtun_hs_msg_ok(skb)) {
		padtun_stat_inc(pt, PADTUN_STAT_RX_MALFORMED);
		kfree_skb_reason(skb, SKB_DROP_REASON_INVALID_PROTO);
		return;
	}
	spin_lock_irqsave(&hs->inbox.lock, flags);
	if (time_after(jiffies, hs->limit_start + HZ)) {
		hs->limit_start = jiffies;
		hs->limit_count = 0;
	}
	if (hs->limit_count < PADTUN_HS_PER_SECOND &&
	    skb_queue_len(&hs->inbox) < PADTUN_HS_INBOX) {
		hs->limit_count++;
		__skb_queue_tail(&hs->inbox, skb);
		taken = true;
	}
	spin_unlock_irqrestore(&hs->inbox.lock, flags);
	if (!taken) {
		padtun_stat_inc(pt, PADTUN_STAT_HS_LIMITED);
		kfree_skb_reason(skb, SKB_DROP_REASON_SOCKET_RCVBUFF);
		return;
	}
	mod_delayed_work(padtun_wq, &hs->work, 0);
}

/**
 * padtun_handshake_start - the device came up: handshake if it has no
 *	session, and keep the sessions fresh from now on
 * @pt: the device
 *
 * Context: process (ndo_open).
 */
void padtun_handshake_start(struct padtun_dev *pt)
{
	mod_delayed_work(padtun_wq, &pt->hs.work, 0);
}

/* A restored snapshot: the sessions it remembers may be in use by
 * another copy of this VM, and so may the init it was waiting on.
 */
static void padtun_hs_forget(struct padtun_dev *pt)
{
	mutex_lock(&pt->hs.lock);
	pt->hs.initiating = false;
	padtun_sessions_forget(pt);
	mutex_unlock(&pt->hs.lock);
	padtun_handshake_start(pt);
}

static int padtun_hs_vmfork(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct padtun_handshake *hs;

	mutex_lock(&padtun_hs_links_lock);
	list_for_each_entry(hs, &padtun_hs_links, link)
		padtun_hs_forget(container_of(hs, struct padtun_dev, hs));
	mutex_unlock(&padtun_hs_links_lock);
	return NOTIFY_DONE;
}

static struct notifier_block padtun_hs_vmfork_nb = {
	.notifier_call = padtun_hs_vmfork,
};

/* Test builds: the same, from the vmfork knob (knobs.c). */
static struct notifier_block padtun_hs_vmfork_knob_nb = {
	.notifier_call = padtun_hs_vmfork,
};

/**
 * padtun_handshake_init - set up a link's handshake, before its socket
 *	receives
 * @pt: the device
 */
void padtun_handshake_init(struct padtun_dev *pt)
{
	struct padtun_handshake *hs = &pt->hs;

	skb_queue_head_init(&hs->inbox);
	hs->limit_start = jiffies;
	INIT_DELAYED_WORK(&hs->work, padtun_hs_work);
	mutex_init(&hs->lock);
	hs->last_init = jiffies - PADTUN_HS_RETRY;
	mutex_lock(&padtun_hs_links_lock);
	list_add(&hs->link, &padtun_hs_links);
	mutex_unlock(&padtun_hs_links_lock);
}

/**
 * padtun_handshake_stop - no more handshakes; drop the sessions
 * @pt: the device; its socket no longer receives
 *
 * Context: process, before the queues are destroyed.
 */
void padtun_handshake_stop(struct padtun_dev *pt)
{
	struct padtun_handshake *hs = &pt->hs;

	mutex_lock(&padtun_hs_links_lock);
	list_del(&hs->link);
	mutex_unlock(&padtun_hs_links_lock);
	/* The work re-arms itself only while the device runs: it is down. */
	cancel_delayed_work_sync(&hs->work);
	skb_queue_purge(&hs->inbox);
	memzero_explicit(&hs->ours, sizeof(hs->ours));
	mutex_destroy(&hs->lock);
}

int padtun_handshake_module_init(void)
{
	int ret = register_random_vmfork_notifier(&padtun_hs_vmfork_nb);

	if (ret)
		return ret;
	ret = padtun_knob_vmfork_register(&padtun_hs_vmfork_knob_nb);
	if (ret)
		unregister_random_vmfork_notifier(&padtun_hs_vmfork_nb);
	return ret;
}

void padtun_handshake_module_exit(void)
{
	padtun_knob_vmfork_unregister(&padtun_hs_vmfork_knob_nb);
	unregister_random_vmfork_notifier(&padtun_hs_vmfork_nb);
}
