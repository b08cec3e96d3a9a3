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
 * Module-wide rather than per device: names would clash across namespaces.
 */

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/random.h>
#include <linux/smp.h>

#include <crypto/aead.h>

#include "knobs.h"
#include "padtun.h"
#include "queueing.h"

#define PADTUN_DELAY_US_LIMIT	5000

static struct dentry *padtun_debugfs;
static u32 padtun_delay_us_max;
static bool padtun_defer_serial;
static bool padtun_unordered;
static bool padtun_async_crypto;
static u32 padtun_unauth_max;

void padtun_knobs_init(void)
{
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
}

void padtun_knobs_exit(void)
{
	debugfs_remove_recursive(padtun_debugfs);
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
	struct padtun_pkt *pkt = container_of(work, struct padtun_pkt,
					      knob_work);

	/* padata_do_serial() expects what parallel() had: BHs off. */
	local_bh_disable();
	padata_do_serial(&pkt->padata);
	local_bh_enable();
}

/* When on, half the packets go to padata_do_serial() from a work item on
 * the next online CPU: returns true for those.
 */
bool padtun_knob_defer_serial(struct padtun_pkt *pkt)
{
	int cpu;

	if (likely(!READ_ONCE(padtun_defer_serial)) ||
	    (get_random_u32() & 1))
		return false;
	cpu = cpumask_next(raw_smp_processor_id(), cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	INIT_WORK(&pkt->knob_work, padtun_knob_deferred_serial);
	queue_work_on(cpu, padtun_wq, &pkt->knob_work);
	return true;
}

/* The AEAD call from a work item, the way an asynchronous driver would
 * make it, reported through the request's own completion.
 */
static void padtun_knob_async_work(struct work_struct *work)
{
	struct padtun_pkt *pkt = container_of(work, struct padtun_pkt,
					      knob_work);
	struct aead_request *req = padtun_pkt_req(pkt);
	int ret;

	local_bh_disable();
	ret = pkt->encrypt ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
	/* A really asynchronous tfm calls the completion itself. */
	if (ret != -EINPROGRESS && ret != -EBUSY)
		req->base.complete(&req->base, ret);
	local_bh_enable();
}

/* When on, every AEAD call goes through padtun_knob_async_work: returns
 * true, and the request completes later.
 */
bool padtun_knob_async_crypto(struct padtun_pkt *pkt, bool encrypt)
{
	if (likely(!READ_ONCE(padtun_async_crypto)))
		return false;
	pkt->encrypt = encrypt;
	INIT_WORK(&pkt->knob_work, padtun_knob_async_work);
	queue_work(padtun_wq, &pkt->knob_work);
	return true;
}

/* The limit on what a link holds unauthenticated: @limit, or the knob's. */
u32 padtun_knob_unauth_max(u32 limit)
{
	return READ_ONCE(padtun_unauth_max) ?: limit;
}
