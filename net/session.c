// SPDX-License-Identifier: GPL-2.0
/*
 * Which key a received datagram is checked with, before any crypto:
 *
 *  - our own sending session: refused (rx_own_session). A datagram sent
 *    back to us would not authenticate anyway (its key is the peer's
 *    direction), but it costs nothing to say so;
 *  - the peer's current session: its key (cur);
 *  - an older session: refused (rx_old_session): sessions only move forward;
 *  - a newer one: its key, derived in process context (the crypto API
 *    allocates, gcm's setkey sleeps) while its packets wait, in order, in
 *    @pending; only one session is derived at a time, packets of another
 *    new session meanwhile are dropped (rx_session_busy). The key waits in
 *    @next until one of its packets authenticates and reaches serial():
 *    then it becomes @cur, and the replay window moves to that session.
 *
 * A header's session is not authenticated before the crypto: anyone can
 * make us derive a key for a made-up session (one at a time, at most
 * the rx queue's backlog limit of packets held), but only the peer's key makes a
 * session current.
 */

#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "padtun.h"
#include "queueing.h"
#include "session.h"

static void padtun_rx_key_free(struct work_struct *work)
{
	struct padtun_rx_key *key = container_of(to_rcu_work(work),
						 struct padtun_rx_key,
						 free_work);

	padtun_key_destroy(&key->key);
	kfree(key);
}

/**
 * padtun_rx_key_put - drop a reference on a receive key
 * @key: the key, or NULL
 *
 * Context: any. The last reference frees it after an RCU grace period
 * (the receive hook may still be looking at it) from padtun_wq.
 */
void padtun_rx_key_put(struct padtun_rx_key *key)
{
	if (key && refcount_dec_and_test(&key->refs)) {
		INIT_RCU_WORK(&key->free_work, padtun_rx_key_free);
		queue_rcu_work(padtun_wq, &key->free_work);
	}
}

static struct padtun_rx_key *padtun_rx_key_create(struct padtun_dev *pt,
						  u64 session)
{
	struct padtun_rx_key *key = kzalloc(sizeof(*key), GFP_KERNEL);

	if (!key)
		return NULL;
	if (padtun_transform_rx_key(&pt->transform, session, &key->key)) {
		kfree(key);
		return NULL;
	}
	refcount_set(&key->refs, 1);
	key->session = session;
	return key;
}

/* Caller holds k->lock or is in an RCU read-side section with @key read
 * from k->cur or k->next: the key may be on its way out.
 */
static bool padtun_rx_key_get(struct padtun_rx_key *key)
{
	return refcount_inc_not_zero(&key->refs);
}

static void padtun_rx_send_on(struct padtun_dev *pt,
			      struct padtun_batch *batch,
			      struct padtun_rx_key *key)
{
	batch->rx_key = key;
	batch->crypt.key = &key->key;
	padtun_queue_submit(&pt->rx, batch);
}

/* The work: derive the wanted session's key, publish it as next and send
 * on what waited for it, all under the lock so that no later packet of
 * the session overtakes them.
 */
static void padtun_rx_derive(struct work_struct *work)
{
	struct padtun_dev *pt = container_of(work, struct padtun_dev,
					     rx_keys.derive);
	struct padtun_rx_keys *k = &pt->rx_keys;
	struct padtun_rx_key *key, *old = NULL;
	struct padtun_batch *batch, *tmp;
	LIST_HEAD(list);
	u64 session;

	spin_lock_bh(&k->lock);
	session = k->want;
	spin_unlock_bh(&k->lock);

	key = padtun_rx_key_create(pt, session);

	spin_lock_bh(&k->lock);
	if (key) {
		old = rcu_dereference_protected(k->next,
						lockdep_is_held(&k->lock));
		rcu_assign_pointer(k->next, key);
	}
	list_splice_init(&k->pending, &list);
	k->pending_len = 0;
	k->deriving = false;
	list_for_each_entry_safe(batch, tmp, &list, backlog) {
		list_del(&batch->backlog);
		if (key && padtun_rx_key_get(key))
			padtun_rx_send_on(pt, batch, key);
		else
			padtun_batch_discard(batch, PADTUN_STAT_RX_DROPPED);
	}
	spin_unlock_bh(&k->lock);
	padtun_rx_key_put(old);
}

/* A session newer than the current one (or the first one). */
static void padtun_rx_new_session(struct padtun_dev *pt,
				  struct padtun_batch *batch)
{
	struct padtun_rx_keys *k = &pt->rx_keys;
	struct padtun_rx_key *cur, *next;
	u64 session = batch->session;

	spin_lock(&k->lock);
	/* Taken over since the lockless look: look again. */
	cur = rcu_dereference_protected(k->cur, lockdep_is_held(&k->lock));
	if (cur && session < cur->session) {
		spin_unlock(&k->lock);
		padtun_batch_discard(batch, PADTUN_STAT_RX_OLD_SESSION);
		return;
	}
	if (cur && session == cur->session && padtun_rx_key_get(cur)) {
		padtun_rx_send_on(pt, batch, cur);
		goto unlock;
	}
	next = rcu_dereference_protected(k->next, lockdep_is_held(&k->lock));
	if (next && session == next->session && padtun_rx_key_get(next)) {
		padtun_rx_send_on(pt, batch, next);
		goto unlock;
	}
	if (k->deriving && k->want != session) {
		spin_unlock(&k->lock);
		padtun_batch_discard(batch, PADTUN_STAT_RX_SESSION_BUSY);
		return;
	}
	if (k->pending_len >= padtun_queue_backlog_max(&pt->rx)) {
		spin_unlock(&k->lock);
		padtun_batch_discard(batch, PADTUN_STAT_RX_DROPPED);
		return;
	}
	list_add_tail(&batch->backlog, &k->pending);
	k->pending_len++;
	if (!k->deriving) {
		k->deriving = true;
		k->want = session;
		queue_work(padtun_wq, &k->derive);
	}
unlock:
	spin_unlock(&k->lock);
}

/**
 * padtun_rx_submit - choose the key of a received datagram and submit it
 * @pt: the device (with an AEAD)
 * @batch: batch->session and batch->seq are set from the header
 *
 * Context: softirq, RCU read side (the receive burst's poll).
 */
void padtun_rx_submit(struct padtun_dev *pt, struct padtun_batch *batch)
{
	struct padtun_rx_key *cur;

	if (unlikely(batch->session == pt->session)) {
		padtun_batch_discard(batch, PADTUN_STAT_RX_OWN_SESSION);
		return;
	}
	cur = rcu_dereference(pt->rx_keys.cur);
	if (likely(cur && batch->session == cur->session &&
		   padtun_rx_key_get(cur))) {
		padtun_rx_send_on(pt, batch, cur);
		return;
	}
	if (cur && batch->session < cur->session) {
		padtun_batch_discard(batch, PADTUN_STAT_RX_OLD_SESSION);
		return;
	}
	padtun_rx_new_session(pt, batch);
}

/**
 * padtun_rx_session_authenticated - a packet authenticated: its session
 *	becomes the current one if it is newer
 * @pt: the device
 * @batch: the packet, authenticated, accepted by the replay window
 *
 * Context: serial(), BHs disabled.
 */
void padtun_rx_session_authenticated(struct padtun_dev *pt,
				     struct padtun_batch *batch)
{
	struct padtun_rx_keys *k = &pt->rx_keys;
	struct padtun_rx_key *key = batch->rx_key, *cur, *next;
	struct padtun_rx_key *old_cur = NULL, *old_next = NULL;

	if (likely(rcu_access_pointer(k->cur) == key))
		return;

	spin_lock(&k->lock);
	cur = rcu_dereference_protected(k->cur, lockdep_is_held(&k->lock));
	next = rcu_dereference_protected(k->next, lockdep_is_held(&k->lock));
	/* Usually next; or a key that next no longer holds (another new
	 * session took its place) but that packets still did.
	 */
	if ((!cur || key->session > cur->session) && padtun_rx_key_get(key)) {
		old_cur = cur;
		rcu_assign_pointer(k->cur, key);
		if (next && next->session <= key->session) {
			old_next = next;
			RCU_INIT_POINTER(k->next, NULL);
		}
	}
	spin_unlock(&k->lock);
	padtun_rx_key_put(old_cur);
	padtun_rx_key_put(old_next);
}

void padtun_rx_keys_init(struct padtun_rx_keys *k)
{
	RCU_INIT_POINTER(k->cur, NULL);
	RCU_INIT_POINTER(k->next, NULL);
	spin_lock_init(&k->lock);
	k->deriving = false;
	INIT_LIST_HEAD(&k->pending);
	k->pending_len = 0;
	INIT_WORK(&k->derive, padtun_rx_derive);
}

/**
 * padtun_rx_keys_stop - stop deriving, drop what waited for a key
 * @pt: the device; its receive hook is detached, so nothing new comes
 *
 * Context: process, before the rx queue is destroyed (the derive work
 * submits to it).
 */
void padtun_rx_keys_stop(struct padtun_dev *pt)
{
	struct padtun_rx_keys *k = &pt->rx_keys;
	struct padtun_batch *batch, *tmp;

	cancel_work_sync(&k->derive);
	local_bh_disable();
	list_for_each_entry_safe(batch, tmp, &k->pending, backlog) {
		list_del(&batch->backlog);
		padtun_batch_discard(batch, PADTUN_STAT_RX_DROPPED);
	}
	k->pending_len = 0;
	local_bh_enable();
}

/**
 * padtun_rx_keys_release - drop the current and candidate keys
 * @pt: the device
 *
 * Context: process, after the rx queue is destroyed: no serial() can make
 * a key current any more.
 */
void padtun_rx_keys_release(struct padtun_dev *pt)
{
	struct padtun_rx_keys *k = &pt->rx_keys;

	padtun_rx_key_put(rcu_dereference_protected(k->cur, 1));
	padtun_rx_key_put(rcu_dereference_protected(k->next, 1));
	RCU_INIT_POINTER(k->cur, NULL);
	RCU_INIT_POINTER(k->next, NULL);
}
