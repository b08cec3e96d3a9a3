// SPDX-License-Identifier: GPL-2.0
/*
 * A link's sessions. Each is made by one handshake (handshake.c) and holds
 * both directions' keys and names. A link points at up to three:
 *
 *  - tx: what we send under. The initiator sends under a session as soon
 *    as the response proves the peer holds it; the responder once the
 *    peer says it sends under it too (its confirm, or its data
 *    authenticated);
 *  - cur: the newest session whose data authenticated; each domain's
 *    replay window follows it once that domain's data of it comes;
 *  - prev: with several ordering domains, the cur before, until the next
 *    promotion: the domains keep no order between them, so the peer's
 *    datagrams of the old session in one domain may come after the new
 *    one's in another. With one domain nothing of the old session can
 *    follow the new one's first datagram but what the wire reordered,
 *    which its window refuses anyway: the old session is dropped, and a
 *    capture of it costs no crypto (a peer that restarted);
 *  - next: the newest session made, none of whose data was seen yet.
 *
 * Only data moves cur: the confirm overtakes the initiator's datagrams
 * still in its pipeline, numbered under the old session, which must
 * still find it here. And tx is accepted as well as cur and next: a
 * newer init may replace next before the peer's first datagram of a
 * session we already send under arrives.
 *
 * A received datagram is checked, before any crypto, against cur, next,
 * tx and prev by the name in its header; a datagram of any other session is refused
 * (rx_unknown_session), so an end never spends crypto on data of a
 * session it did not help make, and a datagram of ours sent back is told
 * apart by our sending name (rx_own_session). Keys are made in process
 * context by the handshake: nothing received makes us derive one.
 *
 * A session's sequence numbers start at 0 and are taken under the netdev
 * tx lock (send.c), so moving tx to a newer session needs no lock of the
 * datapath's: batches numbered under the old session go out before those
 * of the new, in submission order.
 */

#include <linux/jiffies.h>
#include <linux/slab.h>

#include "padtun.h"
#include "queueing.h"
#include "session.h"

static void padtun_session_free(struct work_struct *work)
{
	struct padtun_session *s = container_of(to_rcu_work(work),
						struct padtun_session,
						free_work);

	padtun_key_destroy(&s->tx_key);
	padtun_key_destroy(&s->rx_key);
	kfree_sensitive(s);
}

/**
 * padtun_session_put - drop a reference on a session
 * @s: the session, or NULL
 *
 * Context: any. The last reference frees it after an RCU grace period
 * (the datapath may still be looking at it) from padtun_wq.
 */
void padtun_session_put(struct padtun_session *s)
{
	if (s && refcount_dec_and_test(&s->refs)) {
		INIT_RCU_WORK(&s->free_work, padtun_session_free);
		queue_rcu_work(padtun_wq, &s->free_work);
	}
}

/* Caller holds ss->lock or is in an RCU read-side section with @s read
 * from one of the pointers: the session may be on its way out.
 */
static bool padtun_session_get(struct padtun_session *s)
{
	return s && refcount_inc_not_zero(&s->refs);
}

/**
 * padtun_session_create - a session from one handshake's nonces
 * @pt: the device
 * @n: both ends' random values
 * @initiated: whether we sent the init
 *
 * Context: process (the crypto API allocates, gcm's setkey sleeps).
 * Returns the session with one reference, or NULL.
 */
struct padtun_session *padtun_session_create(struct padtun_dev *pt,
					     const struct padtun_hs_nonces *n,
					     bool initiated)
{
	const struct padtun_transform *t = &pt->transform;
	const struct padtun_direction out = {
		.to = &t->tx_label, .from = &t->rx_label, .nonces = n,
	};
	const struct padtun_direction in = {
		.to = &t->rx_label, .from = &t->tx_label, .nonces = n,
	};
	struct padtun_session *s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);

	if (!s)
		return NULL;
	if (padtun_transform_session_key(t, &out, &s->tx_key))
		goto err_free;
	if (padtun_transform_session_key(t, &in, &s->rx_key))
		goto err_tx_key;
	s->tx_id = padtun_kdf_session_id(t->prk, &out);
	s->rx_id = padtun_kdf_session_id(t->prk, &in);
	s->made = jiffies;
	s->initiated = initiated;
	s->nonces = *n;
	refcount_set(&s->refs, 1);
	return s;

err_tx_key:
	padtun_key_destroy(&s->tx_key);
err_free:
	kfree_sensitive(s);
	return NULL;
}

/* Point @slot at @s (a reference of its own), returning what it held. */
static struct padtun_session *
padtun_sessions_swap(struct padtun_sessions *ss,
		     struct padtun_session __rcu **slot,
		     struct padtun_session *s)
{
	struct padtun_session *old;

	old = rcu_dereference_protected(*slot, lockdep_is_held(&ss->lock));
	if (s)
		refcount_inc(&s->refs);
	rcu_assign_pointer(*slot, s);
	return old;
}

/* We have something to send under for the first time since the link came
 * up or forgot its sessions: let the packets waiting in the qdisc go
 * (send.c).
 */
static void padtun_sessions_tx_started(struct padtun_dev *pt)
{
	if (netif_running(pt->dev))
		netif_wake_queue(pt->dev);
}

/**
 * padtun_sessions_add - a handshake made a session
 * @pt: the device
 * @s: the session; the caller keeps its reference
 *
 * It becomes next; the initiator also sends under it from now on.
 *
 * Context: process (the handshake work).
 */
void padtun_sessions_add(struct padtun_dev *pt, struct padtun_session *s)
{
	struct padtun_sessions *ss = &pt->sessions;
	struct padtun_session *old_next, *old_tx = NULL;

	spin_lock_bh(&ss->lock);
	s->gen = ++ss->gen;
	old_next = padtun_sessions_swap(ss, &ss->next, s);
	if (s->initiated)
		old_tx = padtun_sessions_swap(ss, &ss->tx, s);
	spin_unlock_bh(&ss->lock);
	if (s->initiated && !old_tx)
		padtun_sessions_tx_started(pt);
	padtun_session_put(old_next);
	padtun_session_put(old_tx);
}

/* Caller holds ss->lock. Send under @s if it is newer than what we send
 * under; *@old_tx gets what tx held. True: tx held nothing (the queue
 * waits for padtun_sessions_tx_started()).
 */
static bool padtun_sessions_move_tx(struct padtun_sessions *ss,
				    struct padtun_session *s,
				    struct padtun_session **old_tx)
{
	struct padtun_session *tx;

	tx = rcu_dereference_protected(ss->tx, lockdep_is_held(&ss->lock));
	if (tx && tx->gen >= s->gen)
		return false;
	*old_tx = padtun_sessions_swap(ss, &ss->tx, s);
	return !tx;
}

/* Nothing to promote: @s is the window's, and we send under it or under
 * a newer one (the initiator of a rekey, until the peer uses it too).
 */
static bool padtun_sessions_settled(struct padtun_sessions *ss,
				    struct padtun_session *s)
{
	struct padtun_session *tx;
	bool settled;

	if (rcu_access_pointer(ss->cur) != s)
		return false;
	rcu_read_lock();
	tx = rcu_dereference(ss->tx);
	settled = tx && (tx == s || tx->gen > s->gen);
	rcu_read_unlock();
	return settled;
}

/**
 * padtun_sessions_promote - the peer is seen using a session
 * @pt: the device
 * @s: the session of an authenticated datagram
 *
 * A newer session than cur becomes cur (each domain's replay window
 * restarts on it with that domain's first datagram of it: replay.c), the
 * old cur prev if the link has several domains, and what we send under,
 * if that is older.
 *
 * Context: BHs disabled (serial()).
 */
void padtun_sessions_promote(struct padtun_dev *pt, struct padtun_session *s)
{
	struct padtun_sessions *ss = &pt->sessions;
	struct padtun_session *old_prev = NULL, *old_next = NULL, *old_tx = NULL;
	struct padtun_session *old_cur = NULL, *cur;
	bool started;

	if (likely(padtun_sessions_settled(ss, s)))
		return;

	spin_lock_bh(&ss->lock);
	cur = rcu_dereference_protected(ss->cur, lockdep_is_held(&ss->lock));
	if (!cur || s->gen > cur->gen) {
		/* cur's reference moves to prev, or is dropped. */
		old_prev = padtun_sessions_swap(ss, &ss->prev, NULL);
		if (READ_ONCE(pt->domains) > 1)
			rcu_assign_pointer(ss->prev, cur);
		else
			old_cur = cur;
		rcu_assign_pointer(ss->cur, padtun_session_hold(s));
		if (rcu_access_pointer(ss->next) == s)
			old_next = padtun_sessions_swap(ss, &ss->next, NULL);
	}
	started = padtun_sessions_move_tx(ss, s, &old_tx);
	spin_unlock_bh(&ss->lock);
	if (started)
		padtun_sessions_tx_started(pt);
	padtun_session_put(old_cur);
	padtun_session_put(old_prev);
	padtun_session_put(old_next);
	padtun_session_put(old_tx);
}

/**
 * padtun_sessions_confirmed - the peer says it sends under a session
 * @pt: the device
 * @s: the session its confirm names
 *
 * We send under it too, if it is newer than ours. The window stays on
 * cur until the peer's data of @s authenticates (padtun_sessions_promote()).
 *
 * Context: process (the handshake work).
 */
void padtun_sessions_confirmed(struct padtun_dev *pt, struct padtun_session *s)
{
	struct padtun_sessions *ss = &pt->sessions;
	struct padtun_session *old_tx = NULL;
	bool started;

	spin_lock_bh(&ss->lock);
	started = padtun_sessions_move_tx(ss, s, &old_tx);
	spin_unlock_bh(&ss->lock);
	if (started)
		padtun_sessions_tx_started(pt);
	padtun_session_put(old_tx);
}

/**
 * padtun_sessions_forget - drop every session: their keys are not to be
 *	used again (a restored snapshot, teardown)
 * @pt: the device
 *
 * Batches in flight keep theirs until they are done.
 *
 * Context: process.
 */
void padtun_sessions_forget(struct padtun_dev *pt)
{
	struct padtun_sessions *ss = &pt->sessions;
	struct padtun_session *old[4];
	int i;

	spin_lock_bh(&ss->lock);
	old[0] = padtun_sessions_swap(ss, &ss->tx, NULL);
	old[1] = padtun_sessions_swap(ss, &ss->cur, NULL);
	old[2] = padtun_sessions_swap(ss, &ss->prev, NULL);
	old[3] = padtun_sessions_swap(ss, &ss->next, NULL);
	spin_unlock_bh(&ss->lock);
	for (i = 0; i < ARRAY_SIZE(old); i++)
		padtun_session_put(old[i]);
}

/**
 * padtun_sessions_tx_get - the session to send under, with a reference
 * @pt: the device
 *
 * Context: RCU read side (ndo_start_xmit). NULL: none yet.
 */
struct padtun_session *padtun_sessions_tx_get(struct padtun_dev *pt)
{
	struct padtun_session *s = rcu_dereference_bh(pt->sessions.tx);

	return padtun_session_get(s) ? s : NULL;
}

/**
 * padtun_sessions_have_tx - whether there is a session to send under
 * @pt: the device
 */
bool padtun_sessions_have_tx(struct padtun_dev *pt)
{
	return rcu_access_pointer(pt->sessions.tx);
}

/**
 * padtun_sessions_next_get - the newest session not seen in use yet, with
 *	a reference
 * @pt: the device
 *
 * Context: process or BHs disabled.
 */
struct padtun_session *padtun_sessions_next_get(struct padtun_dev *pt)
{
	struct padtun_sessions *ss = &pt->sessions;
	struct padtun_session *s;

	spin_lock_bh(&ss->lock);
	s = rcu_dereference_protected(ss->next, lockdep_is_held(&ss->lock));
	if (!padtun_session_get(s))
		s = NULL;
	spin_unlock_bh(&ss->lock);
	return s;
}

/* The session a datagram names among those we accept data of, or NULL.
 * Caller is in an RCU read-side section.
 */
static struct padtun_session *padtun_rx_session_find(struct padtun_dev *pt,
						     u64 id)
{
	struct padtun_sessions *ss = &pt->sessions;
	struct padtun_session *s = rcu_dereference(ss->cur);

	if (likely(s && s->rx_id == id))
		return s;
	s = rcu_dereference(ss->next);
	if (s && s->rx_id == id)
		return s;
	s = rcu_dereference(ss->tx);
	if (s && s->rx_id == id)
		return s;
	s = rcu_dereference(ss->prev);
	if (s && s->rx_id == id)
		return s;
	return NULL;
}

/**
 * padtun_rx_session_held - whether a datagram names a session we hold
 * @pt: the device
 * @id: the name in its header
 *
 * Context: RCU read side.
 */
bool padtun_rx_session_held(struct padtun_dev *pt, u64 id)
{
	return padtun_rx_session_find(pt, id);
}

/**
 * padtun_rx_own_session - whether a datagram names our sending session:
 *	ours, sent back to us
 * @pt: the device
 * @id: the name in its header
 *
 * Context: RCU read side.
 */
bool padtun_rx_own_session(struct padtun_dev *pt, u64 id)
{
	struct padtun_session *tx = rcu_dereference(pt->sessions.tx);

	return tx && tx->tx_id == id;
}

/* The session a datagram names, with a reference, or NULL. */
static struct padtun_session *padtun_rx_session_get(struct padtun_dev *pt,
						    u64 id)
{
	struct padtun_session *s = padtun_rx_session_find(pt, id);

	return padtun_session_get(s) ? s : NULL;
}

/**
 * padtun_rx_submit - choose the key of a received batch and submit it
 * @pt: the device
 * @batch: batch->session is the name in the header
 *
 * Context: softirq, RCU read side (the receive burst's poll). A batch of
 * no session we hold (it was dropped since padtun_rx_session_held() said
 * otherwise) is discarded and counted.
 */
void padtun_rx_submit(struct padtun_dev *pt, struct padtun_batch *batch)
{
	struct padtun_session *s = padtun_rx_session_get(pt, batch->session);

	if (unlikely(!s)) {
		padtun_batch_discard(batch,
				     padtun_rx_own_session(pt, batch->session) ?
				     PADTUN_STAT_RX_OWN_SESSION :
				     PADTUN_STAT_RX_UNKNOWN_SESSION);
		return;
	}
	batch->sess = s;
	batch->crypt.key = &s->rx_key;
	padtun_queue_submit(&pt->rx, batch);
}

void padtun_sessions_init(struct padtun_sessions *ss)
{
	RCU_INIT_POINTER(ss->tx, NULL);
	RCU_INIT_POINTER(ss->cur, NULL);
	RCU_INIT_POINTER(ss->prev, NULL);
	RCU_INIT_POINTER(ss->next, NULL);
	spin_lock_init(&ss->lock);
	ss->gen = 0;
}
