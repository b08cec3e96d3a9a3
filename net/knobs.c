// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only knobs, module-wide, in /sys/kernel/debug/padtun/:
 *   delay_us_max	parallel() first spins a random 0..N us (capped)
 *   defer_serial	half of the padata_do_serial calls move to another CPU
 *   unordered		finish packets in parallel(), bypassing the ordering:
 *			exists only to show the sequence checkers catch it
 *   async_crypto	the AEAD call is made from a work item and reported
 *			through the asynchronous completion: the software
 *			AEADs are synchronous, so that path is otherwise idle
 *   unauth_max		if not 0, the bytes a link holds unauthenticated
 *			instead of PADTUN_RX_UNAUTH_MAX: a test VM's sender
 *			cannot outrun the receiver's AEAD up to 16 MiB
 *   rekey_ms		if not 0, a session is rekeyed after N ms instead
 *			of PADTUN_REKEY_AFTER, or 2N ms if the peer
 *			initiated it: rekeys under load in seconds, all
 *			initiated by the end that has the knob on
 *   fixed_random	every handshake nonce is zero: sessions repeat across
 *			restarts, so the replay tests must fail (their
 *			negative control)
 *   vmfork		writing 1 acts as the VM-fork notification (a
 *			restored snapshot) that no test VM can raise
 *   split_reversed	submit the batches a GSO packet is split into last
 *			first (split.c): exists only to show that the
 *			sequence checkers catch a split that breaks order
 *   in_place_any	half the light packets of a domain with packets in
 *			flight are transformed in place all the same
 *			(queueing.c), the rest wait: exists only to show
 *			that the sequence checkers catch the overtaking
 * Module-wide rather than per device: names would clash across namespaces.
 *
 * What a knob needs per object it holds (a work item) it allocates on the
 * side, so that the datapath's structures are the same in the builds that
 * are tested and in the ones that ship.
 */

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/notifier.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include <crypto/aead.h>
#include <padnet/padata.h>

#include "knobs.h"

#define PADTUN_DELAY_US_LIMIT	5000

static struct dentry *padtun_debugfs;
/* Per CPU (queue_work_on); destroyed at unload after the last link. */
static struct workqueue_struct *padtun_knobs_wq;
static u32 padtun_delay_us_max;
static bool padtun_defer_serial;
static bool padtun_unordered;
static bool padtun_async_crypto;
static u32 padtun_unauth_max;
static u32 padtun_rekey_ms;
static bool padtun_fixed_random;
static BLOCKING_NOTIFIER_HEAD(padtun_vmfork_chain);
static bool padtun_split_reversed;
static bool padtun_in_place_any;

/* A padata object or an AEAD request a knob holds in a work item. */
struct padtun_knob_work {
	struct work_struct work;
	union {
		struct padata_priv *padata;
		struct aead_request *req;
	};
	bool encrypt;
};

static ssize_t padtun_knob_vmfork_write(struct file *file,
					const char __user *buf, size_t len,
					loff_t *ppos)
{
	blocking_notifier_call_chain(&padtun_vmfork_chain, 0, NULL);
	return len;
}

static const struct file_operations padtun_knob_vmfork_fops = {
	.owner = THIS_MODULE,
	.write = padtun_knob_vmfork_write,
	.llseek = noop_llseek,
};

int padtun_knobs_init(void)
{
	padtun_knobs_wq = alloc_workqueue("padtun_knobs", WQ_MEM_RECLAIM, 0);
	if (!padtun_knobs_wq)
		return -ENOMEM;
	padtun_debugfs = debugfs_create_dir("padtun", NULL);
	debugfs_create_u32("delay_us_max", 0600, padtun_debugfs,
			   &padtun_delay_us_max);
	debugfs_create_bool("defer_serial", 0600, padtun_debugfs,
			    &padtun_defer_serial);
	debugfs_create_bool("unordered", 0600, padtun_debugfs,
			    &padtun_unordered);
	debugfs_create_bool("async_crypto", 0600, padtun_debugfs,
			    &padtun_async_crypto);
	debugfs_create_u32("unauth_max", 0600, padtun_debugfs,
			   &padtun_unauth_max);
	debugfs_create_u32("rekey_ms", 0600, padtun_debugfs, &padtun_rekey_ms);
	debugfs_create_bool("fixed_random", 0600, padtun_debugfs,
			    &padtun_fixed_random);
	debugfs_create_file("vmfork", 0200, padtun_debugfs, NULL,
			    &padtun_knob_vmfork_fops);
	debugfs_create_bool("split_reversed", 0600, padtun_debugfs,
			    &padtun_split_reversed);
	debugfs_create_bool("in_place_any", 0600, padtun_debugfs,
			    &padtun_in_place_any);
	return 0;
}

void padtun_knobs_exit(void)
{
	debugfs_remove_recursive(padtun_debugfs);
	destroy_workqueue(padtun_knobs_wq);
}

/* Off the datapath's allocations: a test knob's, in atomic context. */
static struct padtun_knob_work *padtun_knob_work_alloc(work_func_t fn)
{
	struct padtun_knob_work *kw = kmalloc(sizeof(*kw), GFP_ATOMIC);

	if (kw)
		INIT_WORK(&kw->work, fn);
	return kw;
}

/* BHs are off in parallel(): busy-wait, in slices udelay() accepts. */
void padtun_knob_delay(void)
{
	u32 max = min_t(u32, READ_ONCE(padtun_delay_us_max),
			PADTUN_DELAY_US_LIMIT);
	u32 us;

	if (likely(!max))
		return;
	us = get_random_u32_below(max + 1);
	mdelay(us / USEC_PER_MSEC);
	udelay(us % USEC_PER_MSEC);
}

bool padtun_knob_unordered(void)
{
	return READ_ONCE(padtun_unordered);
}

static void padtun_knob_deferred_serial(struct work_struct *work)
{
	struct padtun_knob_work *kw = container_of(work,
						   struct padtun_knob_work,
						   work);

	/* padata_do_serial() expects what parallel() had: BHs off. */
	local_bh_disable();
	padata_do_serial(kw->padata);
	local_bh_enable();
	kfree(kw);
}

/* When on, half the objects go to padata_do_serial() from a work item on
 * the next online CPU: returns true for those.
 */
bool padtun_knob_defer_serial(struct padata_priv *padata)
{
	struct padtun_knob_work *kw;
	int cpu;

	if (likely(!READ_ONCE(padtun_defer_serial)) ||
	    (get_random_u32() & 1))
		return false;
	kw = padtun_knob_work_alloc(padtun_knob_deferred_serial);
	if (!kw)
		return false;
	kw->padata = padata;
	cpu = cpumask_next(raw_smp_processor_id(), cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	queue_work_on(cpu, padtun_knobs_wq, &kw->work);
	return true;
}

/* The AEAD call from a work item, the way an asynchronous driver would
 * make it, reported through the request's own completion.
 */
static void padtun_knob_async_work(struct work_struct *work)
{
	struct padtun_knob_work *kw = container_of(work,
						   struct padtun_knob_work,
						   work);
	struct aead_request *req = kw->req;
	bool encrypt = kw->encrypt;
	int ret;

	/* The completion may reuse the request's batch for its next packet
	 * and call us again: done with kw before it runs.
	 */
	kfree(kw);
	local_bh_disable();
	ret = encrypt ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
	/* A really asynchronous tfm calls the completion itself. */
	if (ret != -EINPROGRESS && ret != -EBUSY)
		req->base.complete(&req->base, ret);
	local_bh_enable();
}

/* When on, every AEAD call goes through padtun_knob_async_work: returns
 * true, and the request completes later.
 */
bool padtun_knob_async_crypto(struct aead_request *req, bool encrypt)
{
	struct padtun_knob_work *kw;

	if (likely(!READ_ONCE(padtun_async_crypto)))
		return false;
	kw = padtun_knob_work_alloc(padtun_knob_async_work);
	if (!kw)
		return false;
	kw->req = req;
	kw->encrypt = encrypt;
	queue_work(padtun_knobs_wq, &kw->work);
	return true;
}

/* The limit on what a link holds unauthenticated: @limit, or the knob's. */
u32 padtun_knob_unauth_max(u32 limit)
{
	return READ_ONCE(padtun_unauth_max) ?: limit;
}

/* A rekey interval in jiffies: @after, or the knob's. */
unsigned long padtun_knob_rekey_after(unsigned long after)
{
	u32 ms = READ_ONCE(padtun_rekey_ms);

	return ms ? msecs_to_jiffies(ms) : after;
}

/* A handshake nonce: @random as it is, or all zero with the knob on. */
void padtun_knob_fixed_random(u8 *random, size_t len)
{
	if (READ_ONCE(padtun_fixed_random))
		memset(random, 0, len);
}

int padtun_knob_vmfork_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&padtun_vmfork_chain, nb);
}

void padtun_knob_vmfork_unregister(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&padtun_vmfork_chain, nb);
}

bool padtun_knob_split_reversed(void)
{
	return READ_ONCE(padtun_split_reversed);
}

bool padtun_knob_in_place_any(void)
{
	return READ_ONCE(padtun_in_place_any) && (get_random_u32() & 1);
}

/* A knob that delays, moves or reorders what padata runs is on: what it
 * stresses must go through padata (queueing.c runs nothing in place).
 */
bool padtun_knobs_reorder(void)
{
	return READ_ONCE(padtun_delay_us_max) || READ_ONCE(padtun_defer_serial) ||
	       READ_ONCE(padtun_unordered) || READ_ONCE(padtun_async_crypto) ||
	       READ_ONCE(padtun_split_reversed);
}
