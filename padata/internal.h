/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private data structures of padata.ko, shared by its source files.
 *
 * Lock order (outermost first):
 *   cpu_hotplug_lock (cpus_read_lock, or held by the cpuhp machinery)
 *     -> padata_instance.lock (mutex)
 * The submit and complete fast paths take no lock at all: they use RCU,
 * llists and atomics only, so padata_do_serial() may be called from any
 * context and padata_do_parallel() from process or softirq context.
 * Their RCU read sections are rcu_read_lock_sched(), not preemptible
 * (see the callers for why); synchronize_rcu() waits for them.
 */
#ifndef _PADATA_INTERNAL_H
#define _PADATA_INTERNAL_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/idr.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include <padnet/padata.h>

#include "padata_test_hooks.h"
#include "stats.h"

/* Written into the reorder ring slot of the next due object. */
#define PADATA_DUE ((struct padata_priv *)1UL)

/* Bits of padata_squeue.flags. */
#define PADATA_SQ_RUNNING	0

enum padata_flag {
	PADNET_STARTED,	/* padata_start() called, padata_stop() not since */
	PADNET_RESET,	/* the parallel CPU set is being replaced */
};

/*
 * The CPUs that get parallel work: the user's mask and'ed with the online
 * CPUs. Published with RCU; submitters read it without a lock. There are
 * two per instance and a replacement rewrites the one not published, after
 * a grace period, so mask changes and hotplug never allocate.
 */
struct padata_cpus {
	cpumask_var_t mask;
	unsigned int nr;
	int *cpu;		/* nr entries: the CPUs of mask, in order */
};

/*
 * One per CPU: the objects waiting for parallel(). Any submitter adds,
 * one work item bound to @cpu takes the whole list at once, and between
 * two of its objects whatever is on @express: objects of domains that had
 * nothing else in flight (core.c, padata_submit()). @pending counts
 * the objects queued on either or in parallel() now: submitters read it
 * to see whether this CPU's parallel stage is idle.
 *
 * @carry: the oldest objects, the rest of a list whose worker used up its
 * time and queued itself again (padnet_parallel_worker()). Only the work
 * item touches it, and the workqueue never runs one item twice at once.
 */
struct padata_pqueue {
	struct llist_head list;
	struct llist_head express;
	struct llist_node *carry;
	struct work_struct work;
	struct padata_instance *pinst;
	int cpu;
	atomic_t pending;
};

/*
 * One per callback CPU: objects released in order, waiting for serial().
 * Only the reorder token holder adds, so the list is in sequence order.
 * @run_cpu is where the work item is queued: its own CPU while online,
 * another online CPU while it is not. It is written under
 * padata_instance.lock and read under RCU by the token holder.
 */
struct padata_squeue {
	struct llist_head list;
	struct work_struct work;
	struct padata_instance *pinst;
	int run_cpu;
	/*
	 * Bit PADATA_SQ_RUNNING: held by whoever calls serial() for this
	 * queue, its work item or a token holder running a batch in place
	 * (padata_release()), so that the two never overlap or swap.
	 */
	unsigned long flags;
	/*
	 * serial() calls returned but not yet added to padata_domain.done,
	 * written by whoever holds PADATA_SQ_RUNNING after each one; read
	 * only by a submitter that finds its domain full (padata_serialised()).
	 * The low PADATA_UNPUB_SHIFT bits count, the others are the tag of
	 * the domain counted: one word, so that a reader never pairs one
	 * domain's count with another's tag. Its own line: token holders
	 * write @list from other CPUs.
	 */
	u32 unpublished ____cacheline_aligned_in_smp;
};

/*
 * padata_squeue.unpublished: its count never exceeds PADATA_DONE_BATCH
 * (reorder.c), the tags above it number the domains of an instance.
 */
#define PADATA_UNPUB_SHIFT	8
#define PADATA_UNPUB_COUNT	(BIT(PADATA_UNPUB_SHIFT) - 1)
#define PADATA_MAX_DOMAINS	(U32_MAX >> PADATA_UNPUB_SHIFT)

/*
 * An ordering domain: one submission order, its own sequence space and
 * reorder ring. Domains of one instance share its CPUs, queues and limit
 * (each domain may have that many objects in flight); only objects of one
 * domain wait for each other. Domain 0 is embedded in the instance.
 */
struct padata_domain {
	/* Set at allocation, then read-only. */
	struct padata_instance *pinst;
	struct padata_priv **ring;	/* reorder ring, limit rounded up */
	u32 ring_mask;
	u32 tag;	/* in padata_squeue.unpublished: its id, shifted */

	/*
	 * The next sequence number. This is the one cache line every submit
	 * to the domain writes: its submission order is a total order, so
	 * something has to hand it out. One cmpxchg also enforces the
	 * in-flight limit.
	 */
	atomic_t seq ____cacheline_aligned_in_smp;

	/* Objects whose serial() returned, added by serial workers in batches. */
	atomic_t done ____cacheline_aligned_in_smp;
	bool draining;		/* padata_free(_domain)() waits on @done */

	/*
	 * A token holder that released the instance's limit of objects and
	 * finds the next one parked too leaves it in its slot, holding the
	 * token, for this work item, which continues the walk from
	 * @reorder_resume.
	 */
	struct work_struct reorder_work;
	struct padata_priv *reorder_resume;
};

#ifdef PADNET_TEST_HOOKS
/*
 * Test builds only: the hook and the fault of padata_test_hooks.h,
 * allocated on the side (padnet_test_init()), so that struct
 * padata_instance is the same in the builds that are tested and in the
 * ones that ship.
 */
struct padata_test_state {
	padnet_test_hook_t hook;
	void *arg;
	enum padnet_test_fault fault;
	unsigned int countdown;		/* releases to let pass first */
	unsigned int delay_ms;
	bool swap_pending;
	struct padata_priv *held;	/* taken by SWAP or DROP */
	struct delayed_work delay_work;	/* resumes a walk DELAY stopped */
	struct padata_instance *pinst;
};
#endif

struct padata_instance {
	/* Read by every submitter, written only on configuration changes. */
	struct padata_cpus __rcu *cpus;
	unsigned long flags;
	u32 limit;
	struct workqueue_struct *wq;
	struct padata_pqueue __percpu *pqueue;
	struct padata_squeue __percpu *squeue;
	struct padata_stats __percpu *stats;

	/* The domain of padata_do_parallel(), tag 0. */
	struct padata_domain dom0;
	/* Tags of the other domains; has its own lock. */
	struct ida domain_ida;

	/* Configuration, all guarded by @lock. */
	struct mutex lock;
	cpumask_var_t user_mask;
	cpumask_var_t scratch;
	struct padata_cpus cpus_buf[2];
	struct hlist_node cpuhp_node;
	struct dentry *debugfs;
	int id;
	/* Test builds: their hook and faults (test_hooks.c); NULL otherwise. */
	struct padata_test_state *test;
};

/* core.c */
void padnet_parallel_worker(struct work_struct *work);
struct padata_instance *padnet_instance_alloc(const struct cpumask *cpumask,
					      struct workqueue_struct *wq,
					      unsigned int limit);

static inline bool padnet_drained(struct padata_domain *dom)
{
	return atomic_read_acquire(&dom->done) == atomic_read(&dom->seq);
}

/* reorder.c */
void padnet_serial_worker(struct work_struct *work);
void padnet_serial_catch_up(struct padata_instance *pinst);
void padnet_reorder_worker(struct work_struct *work);
void padnet_reorder_resume(struct padata_domain *dom);
void padnet_reorder_init(struct padata_domain *dom, u32 seq);

/* cpumask.c; padnet_cpus_init() also registers for hotplug */
int padnet_cpus_init(struct padata_instance *pinst,
		     const struct cpumask *user_mask);
void padnet_cpus_destroy(struct padata_instance *pinst);
int padnet_hotplug_init(void);
void padnet_hotplug_exit(void);
void padnet_hotplug_remove(struct padata_instance *pinst);

/* debugfs.c */
void padnet_debugfs_init(void);
void padnet_debugfs_exit(void);
void padnet_debugfs_add(struct padata_instance *pinst);
void padnet_debugfs_remove(struct padata_instance *pinst);
void padnet_stats_sum(struct padata_instance *pinst, struct padata_stats *sum,
		      unsigned long *parallel);

#ifdef PADNET_TEST_HOOKS
/* test_hooks.c */
int padnet_test_init(struct padata_instance *pinst);
void padnet_test_flush(struct padata_instance *pinst);
void padnet_test_free(struct padata_instance *pinst);

/*
 * faults.c: what padnet_test_set_fault() arms. The walk asks predicates,
 * rather than calling the faults to release for it, so that it keeps
 * padata_release() static and a release build inlines it there.
 */
bool padnet_fault_stops_walk(struct padata_instance *pinst,
			     struct padata_priv *padata);
bool padnet_fault_takes(struct padata_instance *pinst,
			struct padata_priv *padata);
bool padnet_fault_no_express(struct padata_instance *pinst);
bool padnet_fault_no_slice(struct padata_instance *pinst);
void padnet_fault_release_held(struct padata_instance *pinst);

static inline void padnet_test_point(struct padata_instance *pinst,
				     enum padnet_test_point point,
				     struct padata_priv *padata)
{
	struct padata_test_state *t = pinst->test;
	/* Pairs with padnet_test_set_hook(): @arg is set first. */
	padnet_test_hook_t hook = smp_load_acquire(&t->hook);

	if (unlikely(hook))
		hook(pinst, point, padata, t->arg);
}
#else
/* Release builds: no hook, no fault, no symbol; these compile to nothing. */
static inline int padnet_test_init(struct padata_instance *pinst)
{
	return 0;
}

static inline void padnet_test_flush(struct padata_instance *pinst) {}
static inline void padnet_test_free(struct padata_instance *pinst) {}

static inline void padnet_test_point(struct padata_instance *pinst,
				     enum padnet_test_point point,
				     struct padata_priv *padata) {}

static inline bool padnet_fault_stops_walk(struct padata_instance *pinst,
					   struct padata_priv *padata)
{
	return false;
}

static inline bool padnet_fault_takes(struct padata_instance *pinst,
				      struct padata_priv *padata)
{
	return false;
}

static inline bool padnet_fault_no_express(struct padata_instance *pinst)
{
	return false;
}

static inline bool padnet_fault_no_slice(struct padata_instance *pinst)
{
	return false;
}
#endif

#endif /* _PADATA_INTERNAL_H */
