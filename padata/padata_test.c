// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for padata.ko. "padata" is the contract: return codes,
 * every completion context, sequence wrap, order across mask changes,
 * lifetime, several instances, several ordering domains of one instance,
 * backpressure, debugfs counters, the three
 * rules the core once broke (walk bound, -EBUSY only at the limit, CPU
 * offline refusing only its own instances), deterministic races through
 * the core's test hooks, and negative controls that break the core on
 * purpose. "padata_stress" is load: 100,000 objects, mask changes and CPU
 * hotplug under load, the walk bound under load. The module runs the
 * suite its "suite" parameter names.
 *
 * The oracles are the suite's own: every object records the callback CPU
 * it asked for, where serial() really ran, and how often parallel() and
 * serial() saw it; order is checked per requested callback CPU and
 * submitter. No check reads back a field the core wrote.
 *
 * Nothing waits for ever: a case that stalls reports what is missing and
 * fails, and its instance is abandoned (and the module pinned) instead of
 * freed, since padata_free() would wait for the missing objects.
 */

#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <padnet/padata.h>

#include "padata_test_hooks.h"

MODULE_IMPORT_NS(PADNET_TEST);

static unsigned int stress_objects = 100000;
module_param(stress_objects, uint, 0444);
MODULE_PARM_DESC(stress_objects, "objects in the ordering stress test (>= 100000)");

static unsigned int stress_submitters = 4;
module_param(stress_submitters, uint, 0444);
MODULE_PARM_DESC(stress_submitters, "concurrent submitters in the stress tests");

static unsigned int load_objects = 20000;
module_param(load_objects, uint, 0444);
MODULE_PARM_DESC(load_objects, "objects in the mask-change and hotplug tests");

static char *suite = "padata";
module_param(suite, charp, 0444);
MODULE_PARM_DESC(suite, "the suite to run: padata (contract) or padata_stress");

#define PT_SUBMITTERS_MAX 16
/* A wait that sees no progress for this long is a stall. */
#define PT_STALL_MS 15000
/*
 * Once one case stalled, the core is broken: later cases wait this long
 * only, so that every case still reports within the scenario's timeout.
 */
#define PT_STALL_AGAIN_MS 2000
static bool pt_stalled_before;
/*
 * Well below KUnit's 300 s per case, whose timeout cannot stop a case,
 * and below the 60 s after which the hung task detector reports insmod.
 */
#define PT_WAIT_MS 45000

/* How parallel() finishes an object. */
enum pt_mode {
	PT_INLINE,	/* padata_do_serial() from parallel() */
	PT_DELAY,	/* after a random busy wait, from parallel() */
	PT_TIMER,	/* from a timer (softirq) */
	PT_TASKLET,	/* from a tasklet (softirq) */
	PT_WORK,	/* from a work item on another CPU */
	PT_IRQ,		/* from an IPI on another CPU (hard interrupt) */
	PT_PARK,	/* not until the test calls pt_unpark() */
	PT_HOLD,	/* not until the test completes it by hand */
	PT_CHAIN,	/* by serial() of its object submitted to nest_pinst */
	PT_NR_MODES,
};

#define PT_ASYNC_MODES (BIT(PT_INLINE) | BIT(PT_DELAY) | BIT(PT_TIMER) | \
			BIT(PT_TASKLET) | BIT(PT_WORK) | BIT(PT_IRQ))

struct pt_ctx;

struct pt_obj {
	struct padata_priv padata;
	struct pt_ctx *ctx;
	struct llist_node defer;
	u32 id;
	u32 sub_idx;		/* position in its submitter's sequence */
	u8 submitter;
	u8 mode;
	int want_cb;		/* the callback CPU the test asked for */
	int ran_cpu;		/* where serial() ran */
	int serialized_before;	/* serial() calls done when parallel() began */
	atomic_t parallel_calls;
	atomic_t serial_calls;
	atomic_t finished;	/* PT_HOLD: the test called padata_do_serial() */
	struct padata_priv *nested;	/* submitted to ctx->nest_pinst */
	struct padata_priv *chain;	/* PT_CHAIN: the other instance's */
	bool resubmit;		/* serial() submits ctx->extra (see ebusy_exact) */
};

/* Strictly increasing, wrap-safe: the suite's order checker. */
struct pt_order {
	u32 last;
	bool started;
};

static bool pt_order_next(struct pt_order *o, u32 v)
{
	bool ok = !o->started || (s32)(v - o->last) > 0;

	o->last = v;
	o->started = true;
	return ok;
}

struct pt_percpu {
	struct llist_head work_list;
	struct work_struct work;
	struct llist_head irq_list;
	call_single_data_t csd;
	struct pt_ctx *ctx;
	/* Touched by serial() of this requested callback CPU only. */
	struct pt_order sub_order[PT_SUBMITTERS_MAX];
	atomic_t in_serial;
};

struct pt_ctx {
	struct kunit *test;
	struct workqueue_struct *wq;
	struct padata_instance *pinst;
	/* A domain of @parent's instance, if not NULL: submissions go there. */
	struct padata_domain *dom;
	struct pt_ctx *parent;
	struct pt_obj *objs;
	u32 nr;
	struct pt_percpu *pcpu;		/* nr_cpu_ids entries */
	cpumask_var_t par_mask;		/* parallel() must run here */
	cpumask_var_t cb_mask;		/* callback CPUs submitters pick */
	cpumask_var_t defer_mask;	/* CPUs async completions go to */
	bool check_par_cpu;
	bool check_cb_cpu;
	u32 modes;			/* bit mask of enum pt_mode */

	atomic_t accepted;
	atomic_t serialized;
	int max_seen_in_flight;		/* a lower bound of the real maximum */
	atomic_t ebusy;
	atomic_t err_order;
	atomic_t err_overlap;
	atomic_t err_par_ctx;
	atomic_t err_ser_ctx;
	atomic_t err_ret;
	atomic_t in_mode_ctx[PT_NR_MODES];	/* completions seen in context */
	atomic_t in_hardirq;		/* IPI functions run in hard IRQ */
	unsigned int stall_ms;		/* no progress for this long: stall */
	unsigned int delay_us;		/* PT_DELAY's wait, if not 0 */
	bool enough;			/* submitters stop, no error */
	int overlaps;			/* churn events with objects in flight */
	bool abort;			/* submitters give up */
	bool stalled;			/* abandon the instance, never free it */
	bool stopped;			/* padata_stop() returned */

	struct llist_head park_list;
	struct llist_head timer_list;
	struct timer_list timer;
	struct llist_head tasklet_list;
	struct tasklet_struct tasklet;

	struct padata_instance *nest_pinst;
	atomic_t nest_serialized;
	atomic_t nest_err;
	struct completion last_serial;
	u32 last_target;

	/* ebusy_exact: serial() submits one of these each. */
	struct pt_obj *extra;
	u32 nr_extra;
	atomic_t extra_next;
	atomic_t extra_busy;
	int extra_ret[64];
};

/* A domain's context is in a later slot than its instance's. */
struct pt_priv {
	struct pt_ctx *ctx[3];
};

static struct pt_obj *pt_obj(struct padata_priv *padata)
{
	return container_of(padata, struct pt_obj, padata);
}

/* Completes a PT_HOLD object by hand, once. */
static void pt_finish(struct pt_obj *obj)
{
	if (atomic_inc_return(&obj->finished) == 1)
		padata_do_serial(&obj->padata);
}

/* After a failed assertion: objects the case held are let go. */
static void pt_finish_held(struct pt_ctx *ctx)
{
	u32 i;

	for (i = 0; i < ctx->nr; i++)
		if (ctx->objs[i].mode == PT_HOLD &&
		    atomic_read(&ctx->objs[i].parallel_calls))
			pt_finish(&ctx->objs[i]);
}

static void pt_complete(struct pt_obj *obj, enum pt_mode ctx_ok)
{
	atomic_inc(&obj->ctx->in_mode_ctx[ctx_ok]);
	padata_do_serial(&obj->padata);
}

static void pt_drain(struct llist_head *list, enum pt_mode mode, bool ok)
{
	struct llist_node *batch = llist_reverse_order(llist_del_all(list));
	struct pt_obj *obj, *next;

	llist_for_each_entry_safe(obj, next, batch, defer) {
		if (ok)
			atomic_inc(&obj->ctx->in_mode_ctx[mode]);
		padata_do_serial(&obj->padata);
	}
}

static void pt_timer_fn(struct timer_list *t)
{
	struct pt_ctx *ctx = from_timer(ctx, t, timer);

	pt_drain(&ctx->timer_list, PT_TIMER, in_serving_softirq());
}

static void pt_tasklet_fn(struct tasklet_struct *t)
{
	struct pt_ctx *ctx = from_tasklet(ctx, t, tasklet);

	pt_drain(&ctx->tasklet_list, PT_TASKLET, in_serving_softirq());
}

static void pt_work_fn(struct work_struct *work)
{
	struct pt_percpu *pc = container_of(work, struct pt_percpu, work);

	pt_drain(&pc->work_list, PT_WORK, !in_interrupt());
}

/*
 * An IPI's function runs in hard interrupt context, except when the
 * target CPU was polling in its idle loop: then the sender sends no IPI
 * and the idle task runs the function, interrupts off. Both count; the
 * case asserts that the hard interrupt was seen too.
 */
static void pt_irq_fn(void *info)
{
	struct pt_percpu *pc = info;

	if (in_hardirq())
		atomic_inc(&pc->ctx->in_hardirq);
	pt_drain(&pc->irq_list, PT_IRQ, irqs_disabled() &&
		 (in_hardirq() || is_idle_task(current)));
}

/* A CPU of defer_mask other than this one, if there is one. */
static int pt_other_cpu(struct pt_ctx *ctx, u32 rnd)
{
	unsigned int n = cpumask_weight(ctx->defer_mask);
	int cpu = cpumask_nth(rnd % n, ctx->defer_mask);

	if (cpu == raw_smp_processor_id() && n > 1)
		cpu = cpumask_nth((rnd + 1) % n, ctx->defer_mask);
	return cpu;
}

static void pt_defer(struct pt_obj *obj)
{
	struct pt_ctx *ctx = obj->ctx;
	u32 rnd = obj->id * 2654435761U;
	struct pt_percpu *pc;
	int cpu;

	switch (obj->mode) {
	case PT_TIMER:
		if (llist_add(&obj->defer, &ctx->timer_list))
			mod_timer(&ctx->timer, jiffies + 1 + rnd % 2);
		break;
	case PT_TASKLET:
		if (llist_add(&obj->defer, &ctx->tasklet_list))
			tasklet_schedule(&ctx->tasklet);
		break;
	case PT_WORK:
		cpu = pt_other_cpu(ctx, rnd);
		pc = &ctx->pcpu[cpu];
		if (llist_add(&obj->defer, &pc->work_list))
			queue_work_on(cpu, system_wq, &pc->work);
		break;
	case PT_IRQ:
		cpu = pt_other_cpu(ctx, rnd);
		pc = &ctx->pcpu[cpu];
		/* The csd is unlocked before pt_irq_fn() empties the list. */
		if (llist_add(&obj->defer, &pc->irq_list))
			smp_call_function_single_async(cpu, &pc->csd);
		break;
	case PT_PARK:
		llist_add(&obj->defer, &ctx->park_list);
		break;
	case PT_CHAIN:
		/* pcrypt's shape: B's serial() finishes this object. */
		if (padata_do_parallel(ctx->nest_pinst, obj->chain,
				       raw_smp_processor_id()) != -EINPROGRESS) {
			atomic_inc(&ctx->nest_err);
			padata_do_serial(&obj->padata);
		}
		break;
	}
}

static void pt_parallel(struct padata_priv *padata)
{
	struct pt_obj *obj = pt_obj(padata);
	struct pt_ctx *ctx = obj->ctx;
	int cpu = raw_smp_processor_id();

	obj->serialized_before = atomic_read(&ctx->serialized);
	if (atomic_inc_return(&obj->parallel_calls) != 1 ||
	    !in_softirq() || in_hardirq() || !cpu_online(cpu) ||
	    (ctx->check_par_cpu && !cpumask_test_cpu(cpu, ctx->par_mask)))
		atomic_inc(&ctx->err_par_ctx);

	switch (obj->mode) {
	case PT_DELAY:
		udelay(ctx->delay_us ?: obj->id % 7);
		fallthrough;
	case PT_INLINE:
		pt_complete(obj, obj->mode);
		break;
	default:
		pt_defer(obj);
	}
}

/*
 * Called by serial(); also fed a swapped sequence by the negative test.
 * Objects of one submitter for one requested callback CPU must come in
 * the order that submitter had them accepted.
 */
static void pt_check_serial(struct pt_ctx *ctx, struct pt_obj *obj, int cpu)
{
	struct pt_percpu *pc = &ctx->pcpu[obj->want_cb];

	if (!pt_order_next(&pc->sub_order[obj->submitter], obj->sub_idx))
		atomic_inc(&ctx->err_order);
	if (ctx->check_cb_cpu && cpu != obj->want_cb)
		atomic_inc(&ctx->err_ser_ctx);
}

static int pt_do_parallel(struct pt_ctx *ctx, struct pt_obj *obj, int cb_cpu)
{
	/* Before the call: serial() may run before it returns. */
	obj->want_cb = cb_cpu;
	if (ctx->dom)
		return padata_do_parallel_domain(ctx->dom, &obj->padata,
						 cb_cpu);
	return padata_do_parallel(ctx->pinst, &obj->padata, cb_cpu);
}

/* ebusy_exact: each serial() submits one more object to its instance. */
static void pt_resubmit(struct pt_ctx *ctx, struct pt_obj *obj)
{
	int k = atomic_inc_return(&ctx->extra_next) - 1;
	struct pt_obj *extra;
	int ret;

	if (k >= ctx->nr_extra)
		return;
	extra = &ctx->extra[k];
	extra->mode = PT_INLINE;
	extra->sub_idx = ctx->nr + k;
	ret = pt_do_parallel(ctx, extra, obj->want_cb);
	ctx->extra_ret[k] = ret;
	if (ret == -EINPROGRESS)
		atomic_inc(&ctx->accepted);
	else
		atomic_inc(&ctx->extra_busy);
}

static void pt_serial(struct padata_priv *padata)
{
	struct pt_obj *obj = pt_obj(padata);
	struct pt_ctx *ctx = obj->ctx;
	struct pt_percpu *pc = &ctx->pcpu[obj->want_cb];
	int ret;

	obj->ran_cpu = raw_smp_processor_id();
	if (atomic_inc_return(&pc->in_serial) != 1)
		atomic_inc(&ctx->err_overlap);
	if (atomic_inc_return(&obj->serial_calls) != 1 || !in_softirq() ||
	    in_hardirq())
		atomic_inc(&ctx->err_ser_ctx);
	pt_check_serial(ctx, obj, obj->ran_cpu);
	if (obj->nested) {
		ret = padata_do_parallel(ctx->nest_pinst, obj->nested,
					 obj->want_cb);
		if (ret != -EINPROGRESS)
			atomic_inc(&ctx->nest_err);
	}
	if (obj->resubmit)
		pt_resubmit(ctx, obj);
	atomic_dec(&pc->in_serial);
	if (atomic_inc_return(&ctx->serialized) == READ_ONCE(ctx->last_target))
		complete(&ctx->last_serial);
}

static void pt_nested_parallel(struct padata_priv *padata)
{
	padata_do_serial(padata);
}

static void pt_nested_serial(struct padata_priv *padata)
{
	struct pt_obj *obj = container_of(padata, struct pt_obj, padata);

	atomic_inc(&obj->ctx->nest_serialized);
}

/*
 * After a stall the core may still call back into @ctx one day, and
 * padata_free() would wait for the missing objects: keep everything, and
 * keep this module loaded, so that the stall costs a failed case (and a
 * failed rmmod), not a hung or crashed guest.
 */
static void pt_abandon(struct pt_ctx *ctx)
{
	kunit_err(ctx->test, "stalled: instance abandoned, module pinned\n");
	__module_get(THIS_MODULE);
	pt_stalled_before = true;
}

static bool pt_wait_all(struct pt_ctx *ctx);
static void pt_unpark(struct pt_ctx *ctx, bool reverse);

static void pt_ctx_destroy(struct pt_ctx *ctx)
{
	int cpu;

	if (ctx->pinst) {
		/* Their arguments may be gone after a failed assertion. */
		padnet_test_set_hook(ctx->pinst, NULL, NULL);
		padnet_test_set_fault(ctx->pinst, PADNET_FAULT_NONE, 0, 0);
	}
	/* A case that failed half-way may have left objects parked. */
	if (ctx->pinst && !ctx->stalled) {
		pt_unpark(ctx, false);
		pt_finish_held(ctx);
		pt_wait_all(ctx);
	}
	if (ctx->stalled) {
		/* Its instance waits for the missing objects too. */
		if (ctx->parent)
			ctx->parent->stalled = true;
		pt_abandon(ctx);
		return;
	}
	if (ctx->dom)
		padata_free_domain(ctx->dom);
	else if (ctx->pinst)
		padata_free(ctx->pinst);
	ctx->pinst = NULL;
	if (ctx->nest_pinst)
		padata_free(ctx->nest_pinst);
	ctx->nest_pinst = NULL;
	del_timer_sync(&ctx->timer);
	tasklet_kill(&ctx->tasklet);
	for_each_possible_cpu(cpu)
		if (ctx->pcpu)
			flush_work(&ctx->pcpu[cpu].work);
	/* A csd in flight is unlocked before its function runs. */
	synchronize_rcu();
	if (ctx->wq)
		destroy_workqueue(ctx->wq);
	kvfree(ctx->objs);
	kfree(ctx->pcpu);
	free_cpumask_var(ctx->defer_mask);
	free_cpumask_var(ctx->cb_mask);
	free_cpumask_var(ctx->par_mask);
	kfree(ctx);
}

/* A context with @nr objects, for an instance on @mask. */
static struct pt_ctx *pt_ctx_new(struct kunit *test, int slot,
				 const struct cpumask *mask, u32 nr)
{
	struct pt_priv *priv = test->priv;
	struct pt_ctx *ctx;
	int cpu;
	u32 i;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	priv->ctx[slot] = ctx;
	ctx->test = test;
	timer_setup(&ctx->timer, pt_timer_fn, 0);
	tasklet_setup(&ctx->tasklet, pt_tasklet_fn);
	init_completion(&ctx->last_serial);
	ctx->pcpu = kcalloc(nr_cpu_ids, sizeof(*ctx->pcpu), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->pcpu);
	for_each_possible_cpu(cpu) {
		struct pt_percpu *pc = &ctx->pcpu[cpu];

		pc->ctx = ctx;
		INIT_WORK(&pc->work, pt_work_fn);
		INIT_CSD(&pc->csd, pt_irq_fn, pc);
	}
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&ctx->par_mask, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&ctx->cb_mask, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&ctx->defer_mask, GFP_KERNEL));
	cpumask_copy(ctx->par_mask, mask ? mask : cpu_online_mask);
	cpumask_and(ctx->cb_mask, ctx->par_mask, cpu_online_mask);
	cpumask_copy(ctx->defer_mask, cpu_online_mask);
	ctx->check_par_cpu = true;
	ctx->check_cb_cpu = true;
	ctx->modes = BIT(PT_INLINE);
	ctx->stall_ms = pt_stalled_before ? PT_STALL_AGAIN_MS : PT_STALL_MS;

	ctx->nr = nr;
	ctx->objs = kvcalloc(max(nr, 1U), sizeof(*ctx->objs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->objs);
	for (i = 0; i < nr; i++) {
		ctx->objs[i].ctx = ctx;
		ctx->objs[i].id = i;
		ctx->objs[i].padata.parallel = pt_parallel;
		ctx->objs[i].padata.serial = pt_serial;
	}
	return ctx;
}

/* Creates a started instance on @mask (all online CPUs if NULL). */
static struct pt_ctx *pt_ctx_create(struct kunit *test, int slot,
				    const struct cpumask *mask, u32 nr,
				    unsigned int limit)
{
	struct pt_ctx *ctx = pt_ctx_new(test, slot, mask, nr);

	ctx->wq = alloc_workqueue("padata_test", WQ_MEM_RECLAIM, 0);
	KUNIT_ASSERT_NOT_NULL(test, ctx->wq);
	ctx->pinst = padnet_alloc_limit(ctx->par_mask, ctx->wq, limit);
	KUNIT_ASSERT_NOT_NULL(test, ctx->pinst);
	padata_start(ctx->pinst);
	return ctx;
}

/* Creates a new ordering domain of @parent's instance, in a later slot. */
static struct pt_ctx *pt_domain_create(struct kunit *test, int slot,
				       struct pt_ctx *parent, u32 nr)
{
	struct pt_ctx *ctx = pt_ctx_new(test, slot, parent->par_mask, nr);

	ctx->parent = parent;
	ctx->dom = padata_alloc_domain(parent->pinst);
	KUNIT_ASSERT_NOT_NULL(test, ctx->dom);
	ctx->pinst = parent->pinst;
	return ctx;
}

static int pt_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct pt_priv), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

/* Runs after a failed assertion too: nothing is left running. */
static void pt_exit(struct kunit *test)
{
	struct pt_priv *priv = test->priv;
	int i;

	/* Domains first: padata_free() wants them freed. */
	for (i = ARRAY_SIZE(priv->ctx) - 1; i >= 0; i--) {
		if (priv->ctx[i])
			pt_ctx_destroy(priv->ctx[i]);
		priv->ctx[i] = NULL;
	}
}

static int pt_random_cpu(const struct cpumask *mask, struct rnd_state *rnd)
{
	unsigned int n = cpumask_weight(mask);

	return n ? cpumask_nth(prandom_u32_state(rnd) % n, mask) : 0;
}

static u8 pt_random_mode(u32 modes, struct rnd_state *rnd)
{
	u8 mode;

	do {
		mode = prandom_u32_state(rnd) % PT_NR_MODES;
	} while (!(modes & BIT(mode)));
	return mode;
}

/*
 * accepted is counted after acceptance and serialized before serial()
 * returns, so their difference never exceeds the real in-flight count;
 * racy max updates only lower it further.
 */
static void pt_note_in_flight(struct pt_ctx *ctx, int in_flight)
{
	if (in_flight > READ_ONCE(ctx->max_seen_in_flight))
		WRITE_ONCE(ctx->max_seen_in_flight, in_flight);
}

/*
 * Submits one object until accepted; -EBUSY (limit or mask change) and
 * -EINVAL (its callback CPU left the mask) are retried with a new CPU,
 * for at most ctx->stall_ms: an instance that never takes an object again
 * has stalled. Returns -ETIMEDOUT then, and when the case gave up.
 */
static int pt_submit(struct pt_ctx *ctx, struct pt_obj *obj,
		     struct rnd_state *rnd, bool retry)
{
	unsigned long end = jiffies + msecs_to_jiffies(ctx->stall_ms);
	int ret, cb_cpu;

	for (;;) {
		cb_cpu = pt_random_cpu(ctx->cb_mask, rnd);
		ret = pt_do_parallel(ctx, obj, cb_cpu);
		if (ret == -EINPROGRESS) {
			pt_note_in_flight(ctx, atomic_inc_return(&ctx->accepted) -
					  atomic_read(&ctx->serialized));
			return ret;
		}
		if (ret == -EBUSY)
			atomic_inc(&ctx->ebusy);
		if (!retry || (ret != -EBUSY && ret != -EINVAL))
			return ret;
		if (READ_ONCE(ctx->abort) || time_after(jiffies, end)) {
			/* The next submission would wait as long in vain. */
			WRITE_ONCE(ctx->abort, true);
			return -ETIMEDOUT;
		}
		if (ret == -EBUSY)
			usleep_range(20, 100);
		else
			cond_resched();
	}
}

struct pt_submitter {
	struct pt_ctx *ctx;
	struct task_struct *task;
	u32 first, count;
	u8 index;
	struct completion done;
};

static int pt_submitter_fn(void *arg)
{
	struct pt_submitter *s = arg;
	struct pt_ctx *ctx = s->ctx;
	struct rnd_state rnd;
	u32 i;

	prandom_seed_state(&rnd, 0x9adaa + s->index);
	for (i = 0; i < s->count && !READ_ONCE(ctx->enough); i++) {
		struct pt_obj *obj = &ctx->objs[s->first + i];

		obj->submitter = s->index;
		obj->sub_idx = i;
		obj->mode = pt_random_mode(ctx->modes, &rnd);
		if (pt_submit(ctx, obj, &rnd, true) != -EINPROGRESS) {
			atomic_inc(&ctx->err_ret);
			/* Stalled or aborted: the rest would wait as long. */
			WRITE_ONCE(ctx->abort, true);
			break;
		}
	}
	complete(&s->done);
	return 0;
}

/*
 * Whether submitter @s finished. Waits as long as objects are accepted, in
 * short slices (the hung task detector watches each one), and gives up
 * after PT_WAIT_MS without a single acceptance.
 */
static bool pt_wait_submitter(struct pt_ctx *ctx, struct pt_submitter *s)
{
	unsigned long idle_end = jiffies + msecs_to_jiffies(PT_WAIT_MS);
	int last = atomic_read(&ctx->accepted), now;

	while (!wait_for_completion_timeout(&s->done, HZ)) {
		now = atomic_read(&ctx->accepted);
		if (now != last) {
			last = now;
			idle_end = jiffies + msecs_to_jiffies(PT_WAIT_MS);
		} else if (time_after(jiffies, idle_end)) {
			return false;
		}
	}
	return true;
}

/* Pushes every object of @ctx from @nsub kthreads; returns once queued. */
static void pt_run_submitters(struct pt_ctx *ctx, unsigned int nsub,
			      void (*meanwhile)(struct pt_ctx *ctx))
{
	struct pt_submitter *subs;
	unsigned int i;
	u32 per;

	nsub = clamp(nsub, 1U, (unsigned int)PT_SUBMITTERS_MAX);
	per = ctx->nr / nsub;
	subs = kcalloc(nsub, sizeof(*subs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(ctx->test, subs);
	for (i = 0; i < nsub; i++) {
		subs[i].ctx = ctx;
		subs[i].index = i;
		subs[i].first = i * per;
		subs[i].count = i == nsub - 1 ? ctx->nr - i * per : per;
		init_completion(&subs[i].done);
		subs[i].task = kthread_run(pt_submitter_fn, &subs[i],
					   "pt_submit/%u", i);
		if (IS_ERR(subs[i].task)) {
			KUNIT_FAIL(ctx->test, "kthread_run failed");
			complete(&subs[i].done);
		}
	}
	if (meanwhile)
		meanwhile(ctx);
	for (i = 0; i < nsub; i++) {
		if (pt_wait_submitter(ctx, &subs[i]))
			continue;
		KUNIT_FAIL(ctx->test, "submitter %u: nothing accepted for %u ms",
			   i, PT_WAIT_MS);
		/* It may still touch @subs and @ctx. */
		WRITE_ONCE(ctx->abort, true);
		ctx->stalled = true;
		return;
	}
	kfree(subs);
	KUNIT_EXPECT_EQ_MSG(ctx->test, atomic_read(&ctx->err_ret), 0,
			    "submissions that never got in (-EBUSY/-EINVAL for %u ms)",
			    ctx->stall_ms);
}

/*
 * The stall detector: waits until every accepted object reached serial(),
 * without further help, giving up when serial() made no progress for
 * ctx->stall_ms (or after PT_WAIT_MS in all). Returns false on a stall and
 * then describes the first object of [0, nr) that did not get serial().
 * It only reports, for negative controls; pt_wait_all() fails the case.
 */
static bool pt_wait_progress(struct pt_ctx *ctx, const char **why,
			     u32 *first_missing)
{
	unsigned long end = jiffies + msecs_to_jiffies(PT_WAIT_MS);
	unsigned long idle_end = jiffies + msecs_to_jiffies(ctx->stall_ms);
	int last = atomic_read(&ctx->serialized), now;
	u32 i;

	for (;;) {
		now = atomic_read(&ctx->serialized);
		if (now == atomic_read(&ctx->accepted))
			return true;
		if (now != last) {
			last = now;
			idle_end = jiffies + msecs_to_jiffies(ctx->stall_ms);
		}
		if (time_after(jiffies, idle_end)) {
			*why = "no serial() for stall_ms";
			break;
		}
		if (time_after(jiffies, end)) {
			*why = "still short after PT_WAIT_MS";
			break;
		}
		usleep_range(1000, 3000);
	}
	*first_missing = U32_MAX;
	for (i = 0; i < ctx->nr; i++) {
		if (atomic_read(&ctx->objs[i].parallel_calls) &&
		    !atomic_read(&ctx->objs[i].serial_calls)) {
			*first_missing = i;
			break;
		}
	}
	return false;
}

/*
 * After the last submission: every accepted object must reach serial()
 * without further help. A parked object here is the lost-wakeup stall: the
 * case fails saying what is missing, and the instance is abandoned.
 */
static bool pt_wait_all(struct pt_ctx *ctx)
{
	const char *why;
	u32 miss;
	struct pt_obj *o;

	if (pt_wait_progress(ctx, &why, &miss))
		return true;
	o = miss < ctx->nr ? &ctx->objs[miss] : NULL;
	KUNIT_FAIL(ctx->test,
		   "stall (%s): %d of %d accepted objects never reached serial(); first: object %d (submitter %d, index %d, callback CPU %d, parallel() %d times)",
		   why, atomic_read(&ctx->accepted) - atomic_read(&ctx->serialized),
		   atomic_read(&ctx->accepted), o ? (int)miss : -1,
		   o ? o->submitter : -1, o ? (int)o->sub_idx : -1,
		   o ? o->want_cb : -1,
		   o ? atomic_read(&o->parallel_calls) : -1);
	ctx->stalled = true;
	return false;
}

/* parallel() calls on @cpu since @before was read. */
static unsigned long pt_calls_delta(struct pt_ctx *ctx,
				    const unsigned long *before, int cpu)
{
	unsigned long *now = kcalloc(nr_cpu_ids, sizeof(*now), GFP_KERNEL);
	unsigned long delta;

	if (!now)
		return ULONG_MAX;
	padnet_test_read_stats(ctx->pinst, &(struct padata_stats){}, now);
	delta = now[cpu] - before[cpu];
	kfree(now);
	return delta;
}

/* Exactly-once and the error counters, for objects [0, nr). */
static void pt_verify(struct pt_ctx *ctx, u32 nr)
{
	struct kunit *test = ctx->test;
	u32 i, bad = 0;

	for (i = 0; i < nr; i++)
		if (atomic_read(&ctx->objs[i].parallel_calls) != 1 ||
		    atomic_read(&ctx->objs[i].serial_calls) != 1)
			bad++;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "objects not run exactly once");
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->err_order), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->err_overlap), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->err_par_ctx), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->err_ser_ctx), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->err_ret), 0);
}

static void pt_unpark(struct pt_ctx *ctx, bool reverse)
{
	struct llist_node *batch = llist_del_all(&ctx->park_list);
	struct pt_obj *obj, *next;

	/* The list is newest first: "reverse" completes the newest first. */
	if (!reverse)
		batch = llist_reverse_order(batch);
	llist_for_each_entry_safe(obj, next, batch, defer)
		padata_do_serial(&obj->padata);
}

static void pt_wait_parked(struct pt_ctx *ctx, u32 n)
{
	unsigned long end = jiffies + msecs_to_jiffies(PT_WAIT_MS);
	struct llist_node *node;
	u32 cnt;

	do {
		cnt = 0;
		/* Only the test thread removes from park_list. */
		llist_for_each(node, READ_ONCE(ctx->park_list.first))
			cnt++;
		if (cnt >= n)
			return;
		usleep_range(1000, 2000);
	} while (time_before(jiffies, end));
	KUNIT_FAIL(ctx->test, "only %u of %u objects reached parallel()",
		   cnt, n);
}

/* Negative control: the checker must flag a swapped or repeated order. */
static void padata_test_checker_flags_reorder(struct kunit *test)
{
	static const u32 good[] = { 0xfffffffeU, 0xffffffffU, 0, 1, 5 };
	static const u32 swapped[] = { 0, 1, 3, 2, 4 };
	static const u32 repeated[] = { 7, 8, 8 };
	struct pt_order o = {};
	struct pt_ctx *ctx;
	struct pt_obj a = {}, b = {};
	int i, flagged = 0;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		KUNIT_EXPECT_TRUE(test, pt_order_next(&o, good[i]));
	o = (struct pt_order){};
	for (i = 0; i < ARRAY_SIZE(swapped); i++)
		flagged += !pt_order_next(&o, swapped[i]);
	KUNIT_EXPECT_EQ(test, flagged, 1);
	o = (struct pt_order){};
	flagged = 0;
	for (i = 0; i < ARRAY_SIZE(repeated); i++)
		flagged += !pt_order_next(&o, repeated[i]);
	KUNIT_EXPECT_EQ(test, flagged, 1);

	/* The serial() side checker, fed two swapped objects. */
	ctx = pt_ctx_create(test, 0, NULL, 0, 16);
	a.sub_idx = 5;
	b.sub_idx = 4;
	pt_check_serial(ctx, &a, 0);
	pt_check_serial(ctx, &b, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->err_order), 1);
}

static void pt_expect_untouched(struct kunit *test, struct pt_obj *obj,
				const struct padata_priv *before)
{
	KUNIT_EXPECT_EQ(test, memcmp(&obj->padata, before, sizeof(*before)), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&obj->parallel_calls), 0);
}

static void padata_test_ret_not_started(struct kunit *test)
{
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, 2, 16);
	struct pt_obj *obj = &ctx->objs[0];
	int cpu = cpumask_first(cpu_online_mask);
	struct padata_priv before;

	padata_stop(ctx->pinst);
	before = obj->padata;
	KUNIT_EXPECT_EQ(test, pt_do_parallel(ctx, obj, cpu), 0);
	pt_expect_untouched(test, obj, &before);

	padata_start(ctx->pinst);
	padata_stop(ctx->pinst);
	KUNIT_EXPECT_EQ(test, pt_do_parallel(ctx, obj, cpu), 0);
	pt_expect_untouched(test, obj, &before);

	padata_start(ctx->pinst);
	KUNIT_EXPECT_EQ(test, pt_do_parallel(ctx, obj, cpu),
			-EINPROGRESS);
	atomic_inc(&ctx->accepted);
	pt_wait_all(ctx);
	pt_verify(ctx, 1);
}

static void padata_test_ret_einval(struct kunit *test)
{
	int first = cpumask_first(cpu_online_mask);
	int second = cpumask_next(first, cpu_online_mask);
	struct padata_priv before;
	cpumask_var_t mask;
	struct pt_ctx *ctx;
	struct pt_obj *obj;
	int cpu;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	cpumask_set_cpu(first, mask);
	ctx = pt_ctx_create(test, 0, mask, 1, 16);
	obj = &ctx->objs[0];
	before = obj->padata;

	KUNIT_EXPECT_EQ(test, pt_do_parallel(ctx, obj, -1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pt_do_parallel(ctx, obj, nr_cpu_ids), -EINVAL);
	if (second < nr_cpu_ids)
		KUNIT_EXPECT_EQ(test, pt_do_parallel(ctx, obj, second),
				-EINVAL);
	pt_expect_untouched(test, obj, &before);

	/* Masks with no online CPU are refused and change nothing. */
	cpumask_clear(mask);
	KUNIT_EXPECT_EQ(test, padata_set_cpumask(ctx->pinst, mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, padata_remove_cpu(ctx->pinst, first), -EINVAL);
	KUNIT_EXPECT_EQ(test, padata_add_cpu(ctx->pinst, nr_cpu_ids), -EINVAL);
	KUNIT_EXPECT_EQ(test, padata_add_cpu(ctx->pinst, -1), -EINVAL);
	for_each_possible_cpu(cpu) {
		if (cpu_online(cpu))
			continue;
		cpumask_set_cpu(cpu, mask);
		KUNIT_EXPECT_EQ(test, padata_set_cpumask(ctx->pinst, mask),
				-EINVAL);
		break;
	}
	cpumask_clear(mask);
	KUNIT_EXPECT_NULL(test, padata_alloc(mask, ctx->wq));
	free_cpumask_var(mask);

	KUNIT_EXPECT_EQ(test, pt_do_parallel(ctx, obj, first), -EINPROGRESS);
	atomic_inc(&ctx->accepted);
	pt_wait_all(ctx);
	pt_verify(ctx, 1);
}

/* Tries a submission each time the instance publishes a new CPU set. */
struct pt_reset_probe {
	struct pt_ctx *ctx;
	struct pt_obj *obj;
	int cpu;
	int ret;
	int calls;
	int busy;
};

static void pt_reset_hook(struct padata_instance *pinst,
			  enum padnet_test_point point,
			  struct padata_priv *padata, void *arg)
{
	struct pt_reset_probe *p = arg;

	if (point != PADNET_TP_RESET)
		return;
	p->calls++;
	p->ret = pt_do_parallel(p->ctx, p->obj, p->cpu);
	if (p->ret == -EBUSY)
		p->busy++;
}

static struct pt_reset_probe *pt_reset_probe(struct pt_ctx *ctx,
					     struct pt_obj *obj, int cpu)
{
	/* Freed after pt_exit(), which removes the hook. */
	struct pt_reset_probe *p = kunit_kzalloc(ctx->test, sizeof(*p),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(ctx->test, p);
	p->ctx = ctx;
	p->obj = obj;
	p->cpu = cpu;
	padnet_test_set_hook(ctx->pinst, pt_reset_hook, p);
	return p;
}

/* -EBUSY while the CPU mask is being replaced. */
static void padata_test_ret_ebusy_mask_change(struct kunit *test)
{
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, 1, 16);
	struct padata_priv before = ctx->objs[0].padata;
	struct pt_reset_probe *probe;

	probe = pt_reset_probe(ctx, &ctx->objs[0],
			       cpumask_first(cpu_online_mask));
	KUNIT_EXPECT_EQ(test, padata_set_cpumask(ctx->pinst, ctx->par_mask), 0);
	padnet_test_set_hook(ctx->pinst, NULL, NULL);
	KUNIT_EXPECT_EQ(test, probe->calls, 1);
	KUNIT_EXPECT_EQ(test, probe->ret, -EBUSY);
	pt_expect_untouched(test, &ctx->objs[0], &before);

	KUNIT_EXPECT_EQ(test, pt_do_parallel(ctx, &ctx->objs[0],
					     probe->cpu), -EINPROGRESS);
	atomic_inc(&ctx->accepted);
	pt_wait_all(ctx);
	pt_verify(ctx, 1);
}

/* Far more objects than the limit: exactly limit accepted, rest -EBUSY. */
static void padata_test_backpressure(struct kunit *test)
{
	const unsigned int limit = 64, nr = 64 * 20;
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, nr, limit);
	struct padata_stats st;
	struct rnd_state rnd;
	u32 i, accepted = 0, busy = 0;

	prandom_seed_state(&rnd, 1);
	for (i = 0; i < nr; i++) {
		struct pt_obj *obj = &ctx->objs[i];
		struct padata_priv before;
		int ret;

		obj->mode = PT_PARK;
		obj->sub_idx = i;
		before = obj->padata;
		ret = pt_submit(ctx, obj, &rnd, false);
		if (ret == -EINPROGRESS) {
			accepted++;
		} else {
			KUNIT_EXPECT_EQ(test, ret, -EBUSY);
			pt_expect_untouched(test, obj, &before);
			busy++;
		}
	}
	KUNIT_EXPECT_EQ(test, accepted, limit);
	KUNIT_EXPECT_EQ(test, busy, nr - limit);
	padnet_test_read_stats(ctx->pinst, &st, NULL);
	KUNIT_EXPECT_EQ(test, st.ebusy, (unsigned long)(nr - limit));
	KUNIT_EXPECT_EQ(test, st.submitted, (unsigned long)limit);

	pt_wait_parked(ctx, limit);
	pt_unpark(ctx, true);
	pt_wait_all(ctx);
	pt_verify(ctx, limit);

	/* Rejected objects are resubmitted as they are, in rounds. */
	for (i = limit; i < nr; i++)
		ctx->objs[i].mode = PT_INLINE;
	for (i = limit; i < nr; i++)
		KUNIT_EXPECT_EQ(test, pt_submit(ctx, &ctx->objs[i], &rnd, true),
				-EINPROGRESS);
	pt_wait_all(ctx);
	pt_verify(ctx, nr);
}

/* The main ordering stress: many objects, submitters and contexts. */
static void padata_test_order_stress(struct kunit *test)
{
	u32 nr = max(stress_objects, 100000U);
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, nr, 1000);
	struct padata_stats st;

	ctx->modes = PT_ASYNC_MODES;
	pt_run_submitters(ctx, stress_submitters, NULL);
	pt_wait_all(ctx);
	pt_verify(ctx, nr);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->accepted), (int)nr);
	KUNIT_EXPECT_LE(test, ctx->max_seen_in_flight, 1000);
	padnet_test_read_stats(ctx->pinst, &st, NULL);
	kunit_info(test, "%u objects, %d -EBUSY retries, max reorder depth %lu\n",
		   nr, atomic_read(&ctx->ebusy), st.max_depth);
}

/*
 * The limit is never within reach here, so every -EBUSY would be a
 * spurious one: the in-flight count computed from a stale sequence
 * number and a newer completion count underflows.
 */
static void padata_test_no_spurious_ebusy(struct kunit *test)
{
	u32 nr = max(stress_objects, 100000U);
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, nr, nr + 1);

	pt_run_submitters(ctx, max(stress_submitters, 4U), NULL);
	pt_wait_all(ctx);
	pt_verify(ctx, nr);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->ebusy), 0);
}

static const enum pt_mode pt_context_params[] = {
	PT_INLINE, PT_DELAY, PT_TIMER, PT_TASKLET, PT_WORK, PT_IRQ,
};

static void pt_context_desc(const enum pt_mode *mode, char *desc)
{
	static const char * const names[] = {
		"inline", "delay", "timer", "softirq-tasklet",
		"other-cpu-work", "hardirq-ipi",
	};

	strscpy(desc, names[*mode], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pt_context, pt_context_params, pt_context_desc);

/* Completion from each context, with the callback CPU asserted. */
static void padata_test_completion_context(struct kunit *test)
{
	enum pt_mode mode = *(const enum pt_mode *)test->param_value;
	struct pt_ctx *ctx;

	/* On one CPU an "IPI" to itself is a plain call with IRQs off. */
	if (mode == PT_IRQ && num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs for a hard interrupt");
	ctx = pt_ctx_create(test, 0, NULL, 4000, 1000);

	ctx->modes = BIT(mode);
	pt_run_submitters(ctx, 2, NULL);
	pt_wait_all(ctx);
	pt_verify(ctx, ctx->nr);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->in_mode_ctx[mode]),
			(int)ctx->nr);
	if (mode == PT_IRQ)
		KUNIT_EXPECT_GT_MSG(test, atomic_read(&ctx->in_hardirq), 0,
				    "no completion in hard interrupt context");
}

/*
 * Parallel and serial context, and spread over the mask's CPUs: with a
 * backlog (three submitters, delayed completions) every CPU of the mask
 * takes at least a quarter of an even share; callback CPUs take more, what
 * they take while idle (padata_test_callback_cpu_first).
 */
static void padata_test_context_and_spread(struct kunit *test)
{
	unsigned long *calls;
	cpumask_var_t mask;
	struct pt_ctx *ctx;
	u32 nr = 3000, expect_lo;
	unsigned long total = 0;
	int cpu, n;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	/* Leave the first CPU out when there is more than one. */
	cpumask_copy(mask, cpu_online_mask);
	if (num_online_cpus() > 1)
		cpumask_clear_cpu(cpumask_first(mask), mask);
	ctx = pt_ctx_create(test, 0, mask, nr, 1000);
	free_cpumask_var(mask);
	ctx->modes = BIT(PT_INLINE) | BIT(PT_DELAY);
	pt_run_submitters(ctx, 3, NULL);
	pt_wait_all(ctx);
	pt_verify(ctx, nr);

	calls = kcalloc(nr_cpu_ids, sizeof(*calls), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, calls);
	padnet_test_read_stats(ctx->pinst, &(struct padata_stats){}, calls);
	n = cpumask_weight(ctx->par_mask);
	expect_lo = nr / (4 * n);
	for_each_possible_cpu(cpu) {
		if (cpumask_test_cpu(cpu, ctx->par_mask))
			KUNIT_EXPECT_GE(test, calls[cpu], expect_lo);
		else
			KUNIT_EXPECT_EQ(test, calls[cpu], 0UL);
		total += calls[cpu];
	}
	KUNIT_EXPECT_EQ(test, total, (unsigned long)nr);
	kfree(calls);
}

/*
 * serial() in place: on one CPU, a completion from parallel() runs the
 * serial() calls itself, in order, on the callback CPU; a completion from
 * any other context (here a work item of another workqueue) never does.
 */
static void padata_test_serial_in_place(struct kunit *test)
{
	struct padata_stats st;
	cpumask_var_t mask;
	struct pt_ctx *ctx;
	u32 nr = 2000;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	cpumask_set_cpu(cpumask_first(cpu_online_mask), mask);
	ctx = pt_ctx_create(test, 0, mask, nr, 100);
	free_cpumask_var(mask);
	pt_run_submitters(ctx, 2, NULL);
	pt_wait_all(ctx);
	pt_verify(ctx, nr);
	padnet_test_read_stats(ctx->pinst, &st, NULL);
	KUNIT_EXPECT_GT_MSG(test, st.serial_in_place, 0UL,
			    "no serial() ran in place from parallel()");
	KUNIT_EXPECT_LE(test, st.serial_in_place, (unsigned long)nr);

	ctx = pt_ctx_create(test, 1, NULL, nr, 100);
	ctx->modes = BIT(PT_WORK);
	pt_run_submitters(ctx, 2, NULL);
	pt_wait_all(ctx);
	pt_verify(ctx, nr);
	padnet_test_read_stats(ctx->pinst, &st, NULL);
	KUNIT_EXPECT_EQ_MSG(test, st.serial_in_place, 0UL,
			    "serial() ran in place outside parallel()");
}

/*
 * CVE-2024-47739 class: the sequence number wraps in the middle (6000
 * objects from 2^32 - 2501: the core's numbers wrap after 2501 of them).
 */
static void padata_test_seq_wrap(struct kunit *test)
{
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, 6000, 1000);

	KUNIT_ASSERT_EQ(test, padnet_test_preset_seq(ctx->pinst,
						     0xffffffffU - 2500), 0);
	ctx->modes = PT_ASYNC_MODES;
	pt_run_submitters(ctx, 3, NULL);
	pt_wait_all(ctx);
	pt_verify(ctx, ctx->nr);
}

static void pt_submit_range(struct pt_ctx *ctx, u32 from, u32 to, u8 mode,
			    int cb_cpu)
{
	u32 i;

	for (i = from; i < to; i++) {
		struct pt_obj *obj = &ctx->objs[i];

		obj->mode = mode;
		obj->sub_idx = i;
		KUNIT_EXPECT_EQ(ctx->test, pt_do_parallel(ctx, obj, cb_cpu),
				-EINPROGRESS);
		atomic_inc(&ctx->accepted);
	}
}

/*
 * While its callback CPU's parallel stage is idle, an object's parallel()
 * runs there and its serial() in place: objects submitted one at a time,
 * each waited for, never leave the callback CPU.
 */
static void padata_test_callback_cpu_first(struct kunit *test)
{
	struct padata_stats st;
	unsigned long *calls;
	struct pt_ctx *ctx;
	u32 nr = 200, i;
	int cb;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	ctx = pt_ctx_create(test, 0, NULL, nr, 100);
	cb = cpumask_last(ctx->cb_mask);
	for (i = 0; i < nr; i++) {
		pt_submit_range(ctx, i, i + 1, PT_INLINE, cb);
		if (!pt_wait_all(ctx))
			return;
		/* serial() returns inside parallel(): let its worker finish. */
		flush_workqueue(ctx->wq);
	}
	pt_verify(ctx, nr);
	calls = kunit_kcalloc(test, nr_cpu_ids, sizeof(*calls), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, calls);
	padnet_test_read_stats(ctx->pinst, &st, calls);
	KUNIT_EXPECT_EQ(test, calls[cb], (unsigned long)nr);
	KUNIT_EXPECT_EQ(test, st.serial_in_place, (unsigned long)nr);
}

/*
 * While one object is in parallel() on the callback CPU, the next one
 * still goes there (its worker takes it next, no wake-up elsewhere); once
 * one waits behind it, the less loaded CPU. Two CPUs, the callback CPU
 * second: object 0 (idle) and 1 (a long parallel()) go to the callback
 * CPU, 2 joins them, and 3 and 4 go to cpu[0], which has less pending.
 * Round robin from the first object waiting would have sent 2 to cpu[0]
 * as well; round robin by turn would have sent 3 to the callback CPU,
 * cpu[3 % 2], behind the long one.
 */
static void padata_test_callback_cpu_while_running(struct kunit *test)
{
	struct padata_stats st;
	unsigned long *calls;
	cpumask_var_t mask;
	struct pt_ctx *ctx;
	int cb, other;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	other = cpumask_first(cpu_online_mask);
	cb = cpumask_last(cpu_online_mask);
	cpumask_set_cpu(other, mask);
	cpumask_set_cpu(cb, mask);
	ctx = pt_ctx_create(test, 0, mask, 5, 100);
	free_cpumask_var(mask);

	pt_submit_range(ctx, 0, 1, PT_INLINE, cb);
	if (!pt_wait_all(ctx))
		return;
	/* serial() returns inside parallel(): let its worker finish. */
	flush_workqueue(ctx->wq);
	/* Long enough that 2 to 4 are all submitted while 1 runs. */
	ctx->delay_us = 50000;
	pt_submit_range(ctx, 1, 2, PT_DELAY, cb);
	pt_submit_range(ctx, 2, 5, PT_INLINE, cb);
	if (!pt_wait_all(ctx))
		return;
	pt_verify(ctx, 5);
	calls = kunit_kcalloc(test, nr_cpu_ids, sizeof(*calls), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, calls);
	padnet_test_read_stats(ctx->pinst, &st, calls);
	KUNIT_EXPECT_EQ(test, calls[cb], 3UL);
	KUNIT_EXPECT_EQ(test, calls[other], 2UL);
}

/*
 * Objects accepted before a mask change are serialised before objects
 * accepted after it, even when the later ones finish first.
 */
static void padata_test_order_across_mask_change(struct kunit *test)
{
	const u32 half = 200;
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, 2 * half, 1000);
	int cb = cpumask_first(cpu_online_mask);
	cpumask_var_t mask;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	ctx->check_par_cpu = false;
	pt_submit_range(ctx, 0, half, PT_PARK, cb);
	pt_wait_parked(ctx, half);

	cpumask_set_cpu(cpumask_last(cpu_online_mask), mask);
	cpumask_set_cpu(cb, mask);
	KUNIT_EXPECT_EQ(test, padata_set_cpumask(ctx->pinst, mask), 0);
	free_cpumask_var(mask);
	pt_submit_range(ctx, half, 2 * half, PT_INLINE, cb);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->serialized), 0);

	pt_unpark(ctx, true);
	pt_wait_all(ctx);
	pt_verify(ctx, 2 * half);
}

/*
 * Objects whose callback CPU leaves the mask still get serial() there, in
 * order; new objects for that CPU are refused, and it gets no new
 * parallel work.
 */
static void padata_test_cb_cpu_leaves_mask(struct kunit *test)
{
	const u32 n = 100;
	int x = cpumask_last(cpu_online_mask);
	struct pt_ctx *ctx;
	struct padata_priv before;
	unsigned long *calls;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	ctx = pt_ctx_create(test, 0, NULL, n + 1, 1000);
	ctx->check_par_cpu = false;
	pt_submit_range(ctx, 0, n, PT_PARK, x);
	pt_wait_parked(ctx, n);
	KUNIT_EXPECT_EQ(test, padata_remove_cpu(ctx->pinst, x), 0);

	before = ctx->objs[n].padata;
	KUNIT_EXPECT_EQ(test, pt_do_parallel(ctx, &ctx->objs[n], x), -EINVAL);
	pt_expect_untouched(test, &ctx->objs[n], &before);

	pt_unpark(ctx, true);
	pt_wait_all(ctx);
	pt_verify(ctx, n);	/* check_cb_cpu: serial() ran on x */

	calls = kcalloc(nr_cpu_ids, sizeof(*calls), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, calls);
	padnet_test_read_stats(ctx->pinst, &(struct padata_stats){}, calls);
	ctx->objs[n].mode = PT_INLINE;
	ctx->objs[n].sub_idx = n;
	pt_submit_range(ctx, n, n + 1, PT_INLINE, cpumask_first(cpu_online_mask));
	pt_wait_all(ctx);
	pt_verify(ctx, n + 1);
	KUNIT_EXPECT_EQ(test, pt_calls_delta(ctx, calls, x), 0UL);
	kfree(calls);
}

static void pt_churn_masks(struct pt_ctx *ctx)
{
	struct kunit *test = ctx->test;
	struct rnd_state rnd;
	cpumask_var_t mask;
	int i, cpu, ret;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL)) {
		KUNIT_FAIL(test, "no memory");
		return;
	}
	prandom_seed_state(&rnd, 42);
	for (i = 0; atomic_read(&ctx->accepted) < ctx->nr * 9 / 10 && i < 2000;
	     i++) {
		ctx->overlaps += atomic_read(&ctx->accepted) !=
				 atomic_read(&ctx->serialized);
		cpu = pt_random_cpu(cpu_online_mask, &rnd);
		switch (i % 3) {
		case 0:
			cpumask_clear(mask);
			while (cpumask_empty(mask))
				for_each_online_cpu(cpu)
					if (prandom_u32_state(&rnd) & 1)
						cpumask_set_cpu(cpu, mask);
			ret = padata_set_cpumask(ctx->pinst, mask);
			break;
		case 1:
			ret = padata_add_cpu(ctx->pinst, cpu);
			break;
		default:
			ret = padata_remove_cpu(ctx->pinst, cpu);
			/* Removing the last online CPU is refused. */
			if (ret == -EINVAL)
				ret = 0;
			break;
		}
		KUNIT_EXPECT_EQ(test, ret, 0);
		usleep_range(500, 2000);
	}
	cpumask_copy(mask, cpu_online_mask);
	KUNIT_EXPECT_EQ(test, padata_set_cpumask(ctx->pinst, mask), 0);
	free_cpumask_var(mask);
}

/* set_cpumask, add_cpu and remove_cpu while objects are in flight. */
static void padata_test_mask_change_under_load(struct kunit *test)
{
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, load_objects, 1000);

	ctx->modes = PT_ASYNC_MODES;
	ctx->check_par_cpu = false;	/* the mask moves under parallel() */
	pt_run_submitters(ctx, 2, pt_churn_masks);
	pt_wait_all(ctx);
	pt_verify(ctx, ctx->nr);
	KUNIT_EXPECT_GT_MSG(test, ctx->overlaps, 0,
			    "no mask change overlapped objects in flight");
}

static void pt_reuse_obj(struct pt_obj *obj, u32 sub_idx)
{
	obj->padata.dom = NULL;
	atomic_set(&obj->parallel_calls, 0);
	atomic_set(&obj->serial_calls, 0);
	obj->mode = PT_INLINE;
	obj->submitter = 0;
	obj->sub_idx = sub_idx;
}

/* @cpu is a valid callback CPU and gets its share of parallel work. */
static void pt_expect_rejoined(struct pt_ctx *ctx, int cpu)
{
	u32 i, n = 8 * num_online_cpus();
	unsigned long *before, *after;

	before = kcalloc(nr_cpu_ids, sizeof(*before), GFP_KERNEL);
	after = kcalloc(nr_cpu_ids, sizeof(*after), GFP_KERNEL);
	if (!before || !after) {
		KUNIT_FAIL(ctx->test, "no memory");
		goto out;
	}
	padnet_test_read_stats(ctx->pinst, &(struct padata_stats){}, before);
	for (i = 0; i < n; i++) {
		pt_reuse_obj(&ctx->objs[i], ctx->nr + i);
		KUNIT_EXPECT_EQ(ctx->test,
				pt_do_parallel(ctx, &ctx->objs[i], cpu),
				-EINPROGRESS);
		atomic_inc(&ctx->accepted);
	}
	pt_wait_all(ctx);
	pt_verify(ctx, n);
	padnet_test_read_stats(ctx->pinst, &(struct padata_stats){}, after);
	KUNIT_EXPECT_GE(ctx->test, after[cpu] - before[cpu], 8UL);
out:
	kfree(after);
	kfree(before);
}

static int pt_victim;

static void pt_churn_hotplug(struct pt_ctx *ctx)
{
	struct kunit *test = ctx->test;
	int i, ret;

	for (i = 0; i < 6 && atomic_read(&ctx->accepted) < ctx->nr * 9 / 10;
	     i++) {
		ctx->overlaps += atomic_read(&ctx->accepted) !=
				 atomic_read(&ctx->serialized);
		ret = remove_cpu(pt_victim);
		KUNIT_EXPECT_EQ(test, ret, 0);
		msleep(30);
		ret = add_cpu(pt_victim);
		KUNIT_EXPECT_EQ(test, ret, 0);
		msleep(30);
	}
}

/* CPU offline/online while objects are in flight. */
static void padata_test_hotplug_under_load(struct kunit *test)
{
	struct pt_ctx *ctx;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs CONFIG_HOTPLUG_CPU and two online CPUs");
	pt_victim = cpumask_last(cpu_online_mask);
	if (pt_victim == 0)
		kunit_skip(test, "CPU 0 is the only hotpluggable candidate");

	ctx = pt_ctx_create(test, 0, NULL, load_objects, 1000);
	ctx->modes = BIT(PT_INLINE) | BIT(PT_DELAY) | BIT(PT_TIMER) |
		     BIT(PT_WORK) | BIT(PT_IRQ);
	/* Async completions never target the CPU that goes away. */
	cpumask_clear_cpu(pt_victim, ctx->defer_mask);
	/* serial() of the victim's objects runs elsewhere while it is down. */
	ctx->check_cb_cpu = false;
	pt_run_submitters(ctx, 2, pt_churn_hotplug);
	pt_wait_all(ctx);
	pt_verify(ctx, ctx->nr);
	KUNIT_EXPECT_GT_MSG(test, ctx->overlaps, 0,
			    "no hotplug event overlapped objects in flight");

	/* The CPU is back online and in the mask: it gets work again. */
	if (!cpu_online(pt_victim))
		KUNIT_EXPECT_EQ(test, add_cpu(pt_victim), 0);
	pt_expect_rejoined(ctx, pt_victim);
}

/*
 * A CPU coming online rejoins an instance only if the user's mask names
 * it: @in gets it added while it is offline, @out never names it.
 */
static void padata_test_hotplug_rejoin_user_mask(struct kunit *test)
{
	int first = cpumask_first(cpu_online_mask), victim, ret;
	u32 n = 8 * num_online_cpus();
	struct padata_priv before;
	struct pt_ctx *in, *out;
	unsigned long *calls;
	cpumask_var_t mask;

	victim = cpumask_last(cpu_online_mask);
	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || victim == first)
		kunit_skip(test, "needs CONFIG_HOTPLUG_CPU and two online CPUs");
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	cpumask_copy(mask, cpu_online_mask);
	cpumask_clear_cpu(victim, mask);
	in = pt_ctx_create(test, 0, mask, n, 1000);
	out = pt_ctx_create(test, 1, mask, n + 1, 1000);
	free_cpumask_var(mask);
	calls = kunit_kcalloc(test, nr_cpu_ids, sizeof(*calls), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, calls);

	/* No assertion until the CPU is back: it must not stay offline. */
	ret = remove_cpu(victim);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, padata_add_cpu(in->pinst, victim), 0);
	KUNIT_EXPECT_EQ(test, pt_do_parallel(in, &in->objs[0], victim), -EINVAL);
	if (!ret)
		KUNIT_ASSERT_EQ(test, add_cpu(victim), 0);
	cpumask_set_cpu(victim, in->par_mask);
	pt_expect_rejoined(in, victim);

	before = out->objs[n].padata;
	KUNIT_EXPECT_EQ(test, pt_do_parallel(out, &out->objs[n], victim),
			-EINVAL);
	pt_expect_untouched(test, &out->objs[n], &before);
	padnet_test_read_stats(out->pinst, &(struct padata_stats){}, calls);
	pt_submit_range(out, 0, n, PT_INLINE, first);
	pt_wait_all(out);
	pt_verify(out, n);	/* check_par_cpu: parallel() never on victim */
	KUNIT_EXPECT_EQ(test, pt_calls_delta(out, calls, victim), 0UL);
}

/* padata_stop: nothing new accepted, in-flight objects still complete. */
static void padata_test_stop_start(struct kunit *test)
{
	const u32 n = 300;
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, 2 * n, 1000);
	int cb = cpumask_first(cpu_online_mask);
	struct padata_priv before;
	u32 i;

	pt_submit_range(ctx, 0, n, PT_PARK, cb);
	padata_stop(ctx->pinst);
	for (i = n; i < 2 * n; i++) {
		before = ctx->objs[i].padata;
		KUNIT_EXPECT_EQ(test, pt_do_parallel(ctx, &ctx->objs[i], cb), 0);
		pt_expect_untouched(test, &ctx->objs[i], &before);
	}
	pt_wait_parked(ctx, n);
	pt_unpark(ctx, true);
	pt_wait_all(ctx);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->serialized), (int)n);

	padata_start(ctx->pinst);
	pt_submit_range(ctx, n, 2 * n, PT_INLINE, cb);
	pt_wait_all(ctx);
	pt_verify(ctx, 2 * n);
}

struct pt_freer {
	struct padata_instance *pinst;
	struct completion done;
};

static int pt_free_fn(void *arg)
{
	struct pt_freer *f = arg;

	padata_free(f->pinst);
	complete(&f->done);
	return 0;
}

/*
 * padata_free() with objects in flight, from a kthread: if it does not
 * return in time, the case fails and the kthread and instance are left.
 */
static bool pt_free_bounded(struct pt_ctx *ctx)
{
	struct task_struct *task;
	struct pt_freer *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(ctx->test, f);
	f->pinst = ctx->pinst;
	init_completion(&f->done);
	task = kthread_run(pt_free_fn, f, "pt_free");
	if (IS_ERR(task)) {
		kfree(f);
		KUNIT_FAIL(ctx->test, "kthread_run failed");
		return false;
	}
	if (!wait_for_completion_timeout(&f->done,
					 msecs_to_jiffies(PT_WAIT_MS))) {
		KUNIT_FAIL(ctx->test,
			   "padata_free() still waiting after %u ms: %d of %d objects not serialised",
			   PT_WAIT_MS, atomic_read(&ctx->accepted) -
			   atomic_read(&ctx->serialized),
			   atomic_read(&ctx->accepted));
		ctx->stalled = true;
		return false;
	}
	kfree(f);
	ctx->pinst = NULL;
	return true;
}

/* padata_free() racing with the tail of the last serial() (UAF class). */
static void padata_test_free_after_last_serial(struct kunit *test)
{
	struct pt_priv *priv = test->priv;
	int round;

	for (round = 0; round < 20; round++) {
		struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, 64, 1000);

		ctx->modes = BIT(PT_INLINE) | BIT(PT_TIMER) | BIT(PT_WORK);
		WRITE_ONCE(ctx->last_target, ctx->nr);
		pt_run_submitters(ctx, 2, NULL);
		if (!wait_for_completion_timeout(&ctx->last_serial,
						 msecs_to_jiffies(ctx->stall_ms))) {
			pt_wait_all(ctx);	/* says what is missing */
			return;
		}
		padata_free(ctx->pinst);
		ctx->pinst = NULL;
		pt_verify(ctx, ctx->nr);
		pt_ctx_destroy(ctx);
		priv->ctx[0] = NULL;
	}
}

/* padata_free() with objects in flight waits for every serial(). */
static void padata_test_free_in_flight(struct kunit *test)
{
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, 3000, 1000);

	ctx->modes = BIT(PT_DELAY) | BIT(PT_TIMER) | BIT(PT_TASKLET) |
		     BIT(PT_WORK) | BIT(PT_IRQ);
	pt_run_submitters(ctx, 2, NULL);
	if (!pt_free_bounded(ctx))
		return;
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->serialized),
			atomic_read(&ctx->accepted));
	pt_verify(ctx, ctx->nr);
}

/* A stuck instance does not hold up another one. */
static void padata_test_two_instances(struct kunit *test)
{
	struct pt_ctx *a = pt_ctx_create(test, 0, NULL, 200, 1000);
	struct pt_ctx *b = pt_ctx_create(test, 1, NULL, 3000, 1000);

	pt_submit_range(a, 0, a->nr, PT_PARK, cpumask_first(cpu_online_mask));
	b->modes = PT_ASYNC_MODES;
	pt_run_submitters(b, 2, NULL);
	pt_wait_all(b);
	pt_verify(b, b->nr);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->serialized), 0);

	pt_wait_parked(a, a->nr);
	pt_unpark(a, true);
	pt_wait_all(a);
	pt_verify(a, a->nr);
}

/*
 * Completes the objects parked in @n contexts, newest first, one of each
 * context in turn.
 */
static void pt_unpark_turns(struct pt_ctx **ctx, int n)
{
	struct llist_node *batch[ARRAY_SIZE(((struct pt_priv *)0)->ctx)];
	struct pt_obj *obj;
	bool more;
	int i;

	for (i = 0; i < n; i++)
		batch[i] = llist_del_all(&ctx[i]->park_list);
	do {
		more = false;
		for (i = 0; i < n; i++) {
			if (!batch[i])
				continue;
			obj = llist_entry(batch[i], struct pt_obj, defer);
			/* Before: serial() may reuse the object. */
			batch[i] = batch[i]->next;
			padata_do_serial(&obj->padata);
			more = true;
		}
	} while (more);
}

/* Submits object @i of each of @n contexts in turn, @i from @from to @to. */
static void pt_submit_turns(struct pt_ctx **ctx, int n, u32 from, u32 to,
			    u8 mode, const int *cb)
{
	u32 i;
	int d;

	for (i = from; i < to; i++)
		for (d = 0; d < n; d++)
			pt_submit_range(ctx[d], i, i + 1, mode, cb[(i + d) % 2]);
}

/*
 * padata_instance_domain() names the instance's own order: objects
 * submitted in turn with padata_do_parallel() and through it, parked,
 * then completed newest first, are serialised in one order. Were it
 * another domain, its first object would be serialised before the
 * instance's, completed last.
 */
static void padata_test_instance_domain(struct kunit *test)
{
	const u32 nr = 200;
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, nr, 1000);
	struct padata_domain *own = padata_instance_domain(ctx->pinst);
	int cb = cpumask_first(cpu_online_mask);
	u32 i;

	for (i = 0; i < nr; i++) {
		ctx->dom = i % 2 ? own : NULL;
		pt_submit_range(ctx, i, i + 1, PT_PARK, cb);
	}
	/* pt_ctx_destroy() would free a domain it found here. */
	ctx->dom = NULL;
	pt_wait_parked(ctx, nr);
	pt_unpark(ctx, true);
	pt_wait_all(ctx);
	pt_verify(ctx, nr);
}

/*
 * Three ordering domains of one instance, its own and two more, limit 64:
 * objects submitted to them in turn, half before a mask change and half
 * after, parked, then completed newest first, the domains in turn. Each
 * domain is serialised in its own order, and each has its own limit: each
 * takes exactly 64, then returns -EBUSY, whatever the others hold. Serial
 * batches mix the domains, and each domain must be credited its own
 * completions: drained, each takes 64 again.
 */
static void padata_test_domains_interleaved(struct kunit *test)
{
	const u32 limit = 64, nr = 2 * limit + 1;
	int cb[2] = { cpumask_first(cpu_online_mask),
		      cpumask_last(cpu_online_mask) };
	struct padata_priv before;
	struct pt_ctx *ctx[3];
	cpumask_var_t mask;
	struct pt_obj *obj;
	int d;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	ctx[0] = pt_ctx_create(test, 0, NULL, nr, limit);
	ctx[1] = pt_domain_create(test, 1, ctx[0], nr);
	ctx[2] = pt_domain_create(test, 2, ctx[0], nr);
	for (d = 0; d < ARRAY_SIZE(ctx); d++)
		ctx[d]->check_par_cpu = false;

	pt_submit_turns(ctx, ARRAY_SIZE(ctx), 0, limit / 2, PT_PARK, cb);
	cpumask_set_cpu(cb[0], mask);
	cpumask_set_cpu(cb[1], mask);
	KUNIT_EXPECT_EQ(test, padata_set_cpumask(ctx[0]->pinst, mask), 0);
	free_cpumask_var(mask);
	pt_submit_turns(ctx, ARRAY_SIZE(ctx), limit / 2, limit, PT_PARK, cb);
	for (d = 0; d < ARRAY_SIZE(ctx); d++) {
		obj = &ctx[d]->objs[nr - 1];
		before = obj->padata;
		KUNIT_EXPECT_EQ_MSG(test, pt_do_parallel(ctx[d], obj, cb[0]),
				    -EBUSY, "domain %d past its limit", d);
		pt_expect_untouched(test, obj, &before);
		pt_wait_parked(ctx[d], limit);
	}
	pt_unpark_turns(ctx, ARRAY_SIZE(ctx));
	for (d = 0; d < ARRAY_SIZE(ctx); d++) {
		pt_wait_all(ctx[d]);
		pt_verify(ctx[d], limit);
	}
	/* A serial() returned is counted just after: let the workers end. */
	flush_workqueue(ctx[0]->wq);
	pt_submit_turns(ctx, ARRAY_SIZE(ctx), limit, 2 * limit, PT_INLINE, cb);
	for (d = 0; d < ARRAY_SIZE(ctx); d++) {
		pt_wait_all(ctx[d]);
		pt_verify(ctx[d], 2 * limit);
	}
}

/*
 * A domain whose first object is held (parallel() returned, no
 * padata_do_serial() yet) holds up neither the instance's own domain nor
 * another one, though all share the CPUs, the callback CPU of the held
 * object and the serial queues: both run 3000 objects in every completion
 * context to the end while the held domain serialises nothing. Then the
 * held object completes and its domain follows, in order.
 */
static void padata_test_domain_stalled(struct kunit *test)
{
	int cb = cpumask_first(cpu_online_mask);
	struct pt_ctx *own, *held, *other;

	own = pt_ctx_create(test, 0, NULL, 3000, 1000);
	held = pt_domain_create(test, 1, own, 200);
	other = pt_domain_create(test, 2, own, 3000);

	pt_submit_range(held, 0, 1, PT_HOLD, cb);
	pt_submit_range(held, 1, held->nr, PT_INLINE, cb);
	own->modes = PT_ASYNC_MODES;
	other->modes = PT_ASYNC_MODES;
	pt_run_submitters(own, 2, NULL);
	pt_run_submitters(other, 2, NULL);
	if (!pt_wait_all(own) || !pt_wait_all(other))
		return;
	pt_verify(own, own->nr);
	pt_verify(other, other->nr);
	KUNIT_EXPECT_EQ(test, atomic_read(&held->serialized), 0);

	pt_finish(&held->objs[0]);
	pt_wait_all(held);
	pt_verify(held, held->nr);
}

/*
 * A one-CPU mask of a CPU other than this thread's, which stays on its
 * own until migrate_enable(): a busy worker there must not keep it from
 * looking. Skips the case on fewer than two CPUs.
 */
static int pt_away_cpu(struct kunit *test, cpumask_var_t *mask)
{
	int cpu;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(mask, GFP_KERNEL));
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	cpumask_set_cpu(cpu, *mask);
	return cpu;
}

/*
 * Two rounds on @cpu: @heavy objects of @busy (PT_DELAY), then one of
 * @other. In the first, @fault armed on @busy (the negative control), the
 * one passes at most @off_max of them; in the second at least heavy - 2.
 */
static void pt_pass_rounds(struct kunit *test, struct pt_ctx *busy,
			   struct pt_ctx *other, int cpu, u32 heavy,
			   enum padnet_test_fault fault, int off_max)
{
	int passed;
	u32 r;

	for (r = 0; r < 2; r++) {
		bool off = r == 0;

		KUNIT_EXPECT_EQ(test,
				padnet_test_set_fault(busy->pinst,
						      off ? fault : PADNET_FAULT_NONE,
						      0, 0),
				0);
		pt_submit_range(busy, r * heavy, (r + 1) * heavy, PT_DELAY, cpu);
		pt_submit_range(other, r, r + 1, PT_INLINE, cpu);
		if (!pt_wait_all(other))
			return;
		passed = (r + 1) * heavy - atomic_read(&busy->serialized);
		if (off)
			KUNIT_EXPECT_LE_MSG(test, passed, off_max,
					    "fault armed: passed %d of %u",
					    passed, heavy);
		else
			KUNIT_EXPECT_GE_MSG(test, passed, (int)heavy - 2,
					    "fault off: passed %d of %u",
					    passed, heavy);
		if (!pt_wait_all(busy))
			return;
		/* Counted done just after serial(): let the worker end. */
		flush_workqueue(busy->wq);
	}
}

/*
 * The express lane: an object of a domain with nothing in flight passes
 * the objects other domains queued before it on its CPU, and waits only
 * for the one in parallel() there. One CPU, not this thread's: four
 * objects of the instance's own domain, 100 ms of parallel() each, then
 * one of another domain, which is serialised before the second of the
 * four is. With the lane shut (PADNET_FAULT_NO_EXPRESS, the negative
 * control, run first) the same object waits for all four.
 */
static void padata_test_express(struct kunit *test)
{
	const u32 heavy = 4;
	struct padata_stats st;
	struct pt_ctx *own, *other;
	cpumask_var_t mask;
	int cb = pt_away_cpu(test, &mask);

	own = pt_ctx_create(test, 0, mask, 2 * heavy, 1000);
	free_cpumask_var(mask);
	other = pt_domain_create(test, 1, own, 2);
	own->delay_us = 100000;
	pt_pass_rounds(test, own, other, cb, heavy, PADNET_FAULT_NO_EXPRESS, 1);
	migrate_enable();
	pt_verify(own, 2 * heavy);
	pt_verify(other, 2);
	padnet_test_read_stats(own->pinst, &st, NULL);
	/* Round 2's first object of each domain; round 1 had the lane shut. */
	KUNIT_EXPECT_EQ(test, st.express, 2UL);
}

/*
 * The time slice: on a per-CPU workqueue, a parallel worker with a long
 * queue lets the other work items of its CPU run between two of its
 * objects once it has run PADATA_WORKER_SLICE_NS. One CPU, not this
 * thread's: six objects of one instance, 100 ms of parallel() each, then
 * one of a second instance on the same CPU, whose worker shares the CPU's
 * worker pool: it is serialised before the third of the six is. With the
 * slice off (PADNET_FAULT_NO_SLICE, the negative control, run first) it
 * waits for all six.
 */
static void padata_test_slice(struct kunit *test)
{
	const u32 heavy = 6;
	struct pt_ctx *busy, *other;
	cpumask_var_t mask;
	int cpu = pt_away_cpu(test, &mask);

	busy = pt_ctx_create(test, 0, mask, 2 * heavy, 1000);
	other = pt_ctx_create(test, 1, mask, 2, 1000);
	free_cpumask_var(mask);
	/* As long as the express lane's: the host may hold a vCPU back for
	 * tens of ms (TCG, a sanitizer kernel), and each such stall at the
	 * wrong moment would cost the second instance one more object.
	 */
	busy->delay_us = 100000;
	pt_pass_rounds(test, busy, other, cpu, heavy, PADNET_FAULT_NO_SLICE, 0);
	migrate_enable();
	pt_verify(busy, 2 * heavy);
	pt_verify(other, 2);
}

/*
 * CPU hotplug of one domain's callback CPU. A domain serialises on the
 * victim, the instance's own domain on another CPU; both have objects
 * parked when the victim goes offline. The own domain takes new objects
 * and completes in full meanwhile, held up neither by the other domain
 * nor by the hotplug; then the domain's objects complete newest first and
 * are serialised in order, elsewhere; once the victim is back, its
 * serial() runs there again.
 */
static void padata_test_domain_hotplug_cb_cpu(struct kunit *test)
{
	const u32 parked = 100, more = 20;
	int victim = cpumask_last(cpu_online_mask);
	int other = cpumask_first(cpu_online_mask);
	u32 i, elsewhere = 0, home = 0;
	struct pt_ctx *own, *dom;
	int ret;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || victim == other || victim == 0)
		kunit_skip(test, "needs CONFIG_HOTPLUG_CPU and two online CPUs");
	own = pt_ctx_create(test, 0, NULL, parked + more, 1000);
	dom = pt_domain_create(test, 1, own, parked + more);
	own->check_par_cpu = false;
	dom->check_par_cpu = false;
	dom->check_cb_cpu = false;
	for (i = 0; i < parked; i++) {
		pt_submit_range(dom, i, i + 1, PT_PARK, victim);
		pt_submit_range(own, i, i + 1, PT_PARK, other);
	}
	pt_wait_parked(dom, parked);
	pt_wait_parked(own, parked);

	/* No assertion until the CPU is back: it must not stay offline. */
	ret = remove_cpu(victim);
	KUNIT_EXPECT_EQ(test, ret, 0);
	pt_submit_range(own, parked, parked + more, PT_INLINE, other);
	pt_unpark(own, true);
	pt_wait_all(own);
	KUNIT_EXPECT_EQ(test, atomic_read(&dom->serialized), 0);
	pt_unpark(dom, true);
	pt_wait_all(dom);
	for (i = 0; i < parked; i++)
		elsewhere += dom->objs[i].ran_cpu != victim;
	if (!ret)
		KUNIT_ASSERT_EQ(test, add_cpu(victim), 0);
	KUNIT_EXPECT_EQ_MSG(test, elsewhere, parked,
			    "serial() ran on the offline CPU");
	pt_verify(own, parked + more);
	pt_verify(dom, parked);

	pt_submit_range(dom, parked, parked + more, PT_INLINE, victim);
	pt_wait_all(dom);
	for (i = parked; i < parked + more; i++)
		home += dom->objs[i].ran_cpu == victim;
	KUNIT_EXPECT_EQ_MSG(test, home, more,
			    "serial() did not return to the CPU once online");
	pt_verify(dom, parked + more);
}

/* One instance's serial() submits into another: no deadlock, no loss. */
static void padata_test_nested(struct kunit *test)
{
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, 3000, 1000);
	struct pt_obj *inner;
	unsigned long end;
	u32 i;

	inner = kvcalloc(ctx->nr, sizeof(*inner), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, inner);
	/* Big enough that serial() never meets -EBUSY: it cannot retry. */
	ctx->nest_pinst = padnet_alloc_limit(cpu_online_mask, ctx->wq, 4096);
	KUNIT_ASSERT_NOT_NULL(test, ctx->nest_pinst);
	padata_start(ctx->nest_pinst);
	for (i = 0; i < ctx->nr; i++) {
		inner[i].ctx = ctx;
		inner[i].padata.parallel = pt_nested_parallel;
		inner[i].padata.serial = pt_nested_serial;
		ctx->objs[i].nested = &inner[i].padata;
	}
	ctx->modes = PT_ASYNC_MODES;
	pt_run_submitters(ctx, 2, NULL);
	pt_wait_all(ctx);
	end = jiffies + msecs_to_jiffies(PT_WAIT_MS);
	while (atomic_read(&ctx->nest_serialized) +
	       atomic_read(&ctx->nest_err) < ctx->nr &&
	       time_before(jiffies, end))
		usleep_range(2000, 5000);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->nest_err), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->nest_serialized), (int)ctx->nr);
	pt_verify(ctx, ctx->nr);
	padata_free(ctx->nest_pinst);
	ctx->nest_pinst = NULL;
	kvfree(inner);
}

/* Reads one "name value" line of the instance's debugfs stats file. */
static long pt_debugfs_value(const char *buf, const char *name)
{
	size_t len = strlen(name);
	const char *p = buf;
	long val;

	while (p && *p) {
		if (!strncmp(p, name, len) && p[len] == ' ' &&
		    sscanf(p + len + 1, "%ld", &val) == 1)
			return val;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

static void padata_test_debugfs_counters(struct kunit *test)
{
	const unsigned int limit = 100, nr = 400;
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, nr, limit);
	char path[64], *buf;
	struct rnd_state rnd;
	long parallel = 0, serial = 0, v;
	struct file *f;
	ssize_t len;
	loff_t pos = 0;
	int cpu;
	u32 i, busy = 0;
	char key[32];

	prandom_seed_state(&rnd, 7);
	for (i = 0; i < 150; i++) {
		ctx->objs[i].mode = PT_PARK;
		ctx->objs[i].sub_idx = i;
		if (pt_submit(ctx, &ctx->objs[i], &rnd, false) == -EBUSY)
			busy++;
	}
	KUNIT_EXPECT_EQ(test, busy, 50U);
	pt_wait_parked(ctx, limit);
	/*
	 * Newest first by submission, not by park_list, whose order is the
	 * order parallel() ran on several CPUs: the oldest completes last.
	 */
	llist_del_all(&ctx->park_list);
	for (i = limit; i-- > 0;)
		padata_do_serial(&ctx->objs[i].padata);
	pt_wait_all(ctx);
	for (i = 150; i < nr; i++) {
		ctx->objs[i].mode = PT_INLINE;
		ctx->objs[i].sub_idx = i;
		pt_submit(ctx, &ctx->objs[i], &rnd, true);
	}
	pt_wait_all(ctx);
	/* serial workers count their batch after its last serial() */
	for (i = 0; i < 1000; i++) {
		struct padata_stats st;

		padnet_test_read_stats(ctx->pinst, &st, NULL);
		if (st.completed == atomic_read(&ctx->accepted))
			break;
		usleep_range(1000, 2000);
	}

	snprintf(path, sizeof(path), "/sys/kernel/debug/padata/%d/stats",
		 padnet_test_debugfs_id(ctx->pinst));
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		kunit_skip(test, "cannot open %s (%ld)", path, PTR_ERR(f));
	buf = kunit_kzalloc(test, PAGE_SIZE * 4, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = kernel_read(f, buf, PAGE_SIZE * 4 - 1, &pos);
	filp_close(f, NULL);
	KUNIT_ASSERT_GT(test, len, 0L);

	v = atomic_read(&ctx->accepted);
	KUNIT_EXPECT_EQ(test, pt_debugfs_value(buf, "submitted"), v);
	KUNIT_EXPECT_EQ(test, pt_debugfs_value(buf, "completed"), v);
	KUNIT_EXPECT_EQ(test, pt_debugfs_value(buf, "in_flight"), 0L);
	KUNIT_EXPECT_EQ(test, pt_debugfs_value(buf, "ebusy"),
			(long)atomic_read(&ctx->ebusy));
	/* limit objects unparked in reverse: one walk of exactly limit. */
	KUNIT_EXPECT_EQ(test, pt_debugfs_value(buf, "max_reorder_depth"),
			(long)limit);
	for_each_possible_cpu(cpu) {
		snprintf(key, sizeof(key), "parallel_cpu%d", cpu);
		parallel += pt_debugfs_value(buf, key);
		snprintf(key, sizeof(key), "serial_cpu%d", cpu);
		serial += pt_debugfs_value(buf, key);
	}
	KUNIT_EXPECT_EQ(test, parallel, v);
	KUNIT_EXPECT_EQ(test, serial, v);
	pt_verify(ctx, 150 - busy);
}

/*
 * Hooks of the cases below run inside the core with preemption off (and
 * wait for other CPUs there), so every wait in them is a bounded spin.
 */
#define PT_SPIN_MS 2000

static bool pt_spin_wait(atomic_t *v, int want)
{
	u64 end = ktime_get_ns() + (u64)PT_SPIN_MS * NSEC_PER_MSEC;

	while (atomic_read(v) < want) {
		if (ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

/* The same from process context: sleeps, so the work it waits for can run. */
static bool pt_wait_count(atomic_t *v, int want)
{
	unsigned long end = jiffies + msecs_to_jiffies(PT_SPIN_MS);

	while (atomic_read(v) < want) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

static void pt_complete_fn(void *info)
{
	pt_finish(info);
}

/*
 * serial() of objects that a token holder on another CPU released to a
 * CPU whose parallel worker is busy runs after that worker's current
 * object, not after its whole batch (padnet_serial_catch_up()): the serial
 * work item would wait for the batch, the worker never sleeping. A mask of
 * one CPU, not the test's: object 0 is held, 1 runs a long parallel()
 * there with 2 to 4 queued behind it. An IPI on the test's CPU completes
 * 0 meanwhile, releasing it to the busy CPU's serial queue; 1 follows it
 * there when its parallel() returns. Both are serialised before parallel()
 * of 2 begins.
 */
static void padata_test_serial_catch_up(struct kunit *test)
{
	cpumask_var_t mask;
	struct pt_ctx *ctx;
	int cb, here;
	bool running;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	/* The busy worker must not keep this thread from completing 0. */
	migrate_disable();
	here = raw_smp_processor_id();
	cb = cpumask_any_but(cpu_online_mask, here);
	cpumask_set_cpu(cb, mask);
	ctx = pt_ctx_create(test, 0, mask, 5, 100);
	free_cpumask_var(mask);
	ctx->delay_us = 50000;
	pt_submit_range(ctx, 0, 1, PT_HOLD, cb);
	pt_submit_range(ctx, 1, 5, PT_DELAY, cb);
	running = pt_wait_count(&ctx->objs[1].parallel_calls, 1);
	KUNIT_EXPECT_TRUE(test, running);
	if (running)
		smp_call_function_single(here, pt_complete_fn, &ctx->objs[0], 1);
	migrate_enable();
	pt_finish_held(ctx);
	if (!pt_wait_all(ctx))
		return;
	pt_verify(ctx, 5);
	KUNIT_EXPECT_EQ(test, ctx->objs[2].serialized_before, 2);
}

/* A CPU other than this one if there is one, else this one. */
static int pt_another_cpu(int cpu)
{
	int other = cpumask_any_but(cpu_online_mask, cpu);

	return other < nr_cpu_ids ? other : cpu;
}

/*
 * Counts the releases of each walk, through the core's test points: one
 * token holder at a time, so plain fields do, ordered by the hand-off.
 */
struct pt_walks {
	struct pt_ctx *ctx;
	unsigned int cur, max, walks;
	struct pt_obj *last;		/* the last object released */
	/* walk_bound: extend each walk with new objects */
	u32 extend, extended;
	int cb;
	int errors;
	/* race_release_next: complete @late in the window, once */
	struct pt_obj *late;
	int late_cpu;
	int fired;
};

static void pt_walk_count(struct pt_walks *w, enum padnet_test_point point,
			  struct padata_priv *padata)
{
	if (point == PADNET_TP_WALK) {
		w->cur = 0;
		w->walks++;
	} else if (point == PADNET_TP_RELEASE) {
		w->last = pt_obj(padata);
		if (++w->cur > w->max)
			w->max = w->cur;
	}
}

static void pt_count_hook(struct padata_instance *pinst,
			  enum padnet_test_point point,
			  struct padata_priv *padata, void *arg)
{
	pt_walk_count(arg, point, padata);
}

/*
 * After each release: wait until that object's serial() returned, so a
 * new object fits under the limit, submit it, wait for its parallel(),
 * and complete it by IPI on the callback CPU while this walk still holds
 * the token. Without a bound the walk never ends while this goes on.
 */
static void pt_extend_hook(struct padata_instance *pinst,
			   enum padnet_test_point point,
			   struct padata_priv *padata, void *arg)
{
	struct pt_walks *w = arg;
	struct pt_ctx *ctx = w->ctx;
	struct pt_obj *obj;
	u64 end;
	int ret;

	pt_walk_count(w, point, padata);
	if (point != PADNET_TP_NEXT || w->extended == w->extend || w->errors)
		return;
	obj = &ctx->objs[ctx->nr - w->extend + w->extended];
	obj->mode = PT_HOLD;
	obj->sub_idx = obj->id;
	if (!pt_spin_wait(&w->last->serial_calls, 1)) {
		w->errors++;
		return;
	}
	end = ktime_get_ns() + (u64)PT_SPIN_MS * NSEC_PER_MSEC;
	do {
		ret = pt_do_parallel(ctx, obj, w->cb);
	} while (ret == -EBUSY && ktime_get_ns() < end);
	if (ret != -EINPROGRESS) {
		w->errors++;
		return;
	}
	atomic_inc(&ctx->accepted);
	if (!pt_spin_wait(&obj->parallel_calls, 1)) {
		w->errors++;
		return;
	}
	smp_call_function_single(w->cb, pt_complete_fn, obj, 1);
	w->extended++;
}

static struct pt_walks *pt_walks_hook(struct pt_ctx *ctx,
				      padnet_test_hook_t fn)
{
	struct pt_walks *w = kunit_kzalloc(ctx->test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(ctx->test, w);
	w->ctx = ctx;
	padnet_test_set_hook(ctx->pinst, fn, w);
	return w;
}

static int pt_walk_kick(void *arg)
{
	struct pt_obj *obj = arg;

	pt_finish(obj);
	return 0;
}

/*
 * Fix 1, the walk bound: a token holder releases at most limit objects,
 * even when objects keep completing behind it (here: 2 * limit of them,
 * completed by IPI on another CPU while it walks); a work item goes on.
 */
static void padata_test_walk_bound(struct kunit *test)
{
	const u32 limit = 8, nr = 3 * limit;
	int t = cpumask_first(cpu_online_mask), cb;
	struct pt_walks *w;
	struct pt_ctx *ctx;
	cpumask_var_t mask;
	u32 i;

	cb = pt_another_cpu(t);
	if (cb == t)
		kunit_skip(test, "needs two online CPUs");
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	cpumask_set_cpu(cb, mask);
	ctx = pt_ctx_create(test, 0, mask, nr, limit);
	free_cpumask_var(mask);

	/* Objects 1 .. limit - 1 parked, 0 due: one walk takes them all. */
	for (i = 0; i < limit; i++) {
		ctx->objs[i].mode = PT_HOLD;
		ctx->objs[i].sub_idx = i;
		KUNIT_ASSERT_EQ(test, pt_do_parallel(ctx, &ctx->objs[i], cb),
				-EINPROGRESS);
		atomic_inc(&ctx->accepted);
	}
	for (i = 0; i < limit; i++)
		KUNIT_ASSERT_TRUE(test, pt_wait_count(&ctx->objs[i].parallel_calls, 1));
	for (i = limit - 1; i > 0; i--)
		pt_finish(&ctx->objs[i]);

	w = pt_walks_hook(ctx, pt_extend_hook);
	w->extend = nr - limit;
	w->cb = cb;
	/* The walker: process context on t, so its hook may wait for cb. */
	KUNIT_ASSERT_EQ(test, smp_call_on_cpu(t, pt_walk_kick, &ctx->objs[0],
					      false), 0);
	pt_wait_all(ctx);
	padnet_test_set_hook(ctx->pinst, NULL, NULL);
	KUNIT_EXPECT_EQ(test, w->errors, 0);
	KUNIT_EXPECT_EQ_MSG(test, w->extended, nr - limit,
			    "the walk was not extended: the case proves nothing");
	KUNIT_EXPECT_LE_MSG(test, w->max, limit,
			    "one walk released %u objects, limit %u", w->max,
			    limit);
	KUNIT_EXPECT_GE(test, w->walks, nr / limit);
	pt_verify(ctx, nr);
}

/*
 * 7(c): the walk bound under load. Mask {0, 1}, completions by IPI to the
 * other CPUs, a small limit, 100,000 objects. The submitters are waited for
 * as long as they make progress (pt_wait_submitter()), not for a fixed
 * time; at limit 8 this took 100 s under TCG, limit 32 keeps the case
 * short while walks still reach the bound.
 */
static void padata_test_walk_bound_load(struct kunit *test)
{
	const u32 limit = 32;
	u32 nr = max(stress_objects, 100000U), i, ran = 0, bad = 0;
	struct pt_walks *w;
	struct pt_ctx *ctx;
	cpumask_var_t mask;

	if (!cpu_online(0) || !cpu_online(1))
		kunit_skip(test, "needs CPUs 0 and 1 online");
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	cpumask_set_cpu(0, mask);
	cpumask_set_cpu(1, mask);
	ctx = pt_ctx_create(test, 0, mask, nr, limit);
	cpumask_andnot(ctx->defer_mask, cpu_online_mask, mask);
	if (cpumask_empty(ctx->defer_mask))
		cpumask_copy(ctx->defer_mask, cpu_online_mask);
	free_cpumask_var(mask);
	ctx->modes = BIT(PT_IRQ);
	w = pt_walks_hook(ctx, pt_count_hook);
	pt_run_submitters(ctx, 2, NULL);
	pt_wait_all(ctx);
	padnet_test_set_hook(ctx->pinst, NULL, NULL);
	for (i = 0; i < nr; i++) {
		int p = atomic_read(&ctx->objs[i].parallel_calls);

		ran += p == 1;
		bad += p > 1 || atomic_read(&ctx->objs[i].serial_calls) != p;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "objects not run exactly once");
	KUNIT_EXPECT_EQ(test, ran, (u32)atomic_read(&ctx->accepted));
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->err_order), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->err_ret), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->in_mode_ctx[PT_IRQ]), (int)ran);
	KUNIT_EXPECT_EQ_MSG(test, ran, nr, "not every object ran");
	KUNIT_EXPECT_LE_MSG(test, w->max, limit,
			    "one walk released %u objects, limit %u", w->max,
			    limit);
	kunit_info(test, "%u objects, %u walks, longest %u\n", ran, w->walks,
		   w->max);
}

/* 7(a): in the window between a release and the next slot's cmpxchg. */
static void pt_late_hook(struct padata_instance *pinst,
			 enum padnet_test_point point,
			 struct padata_priv *padata, void *arg)
{
	struct pt_walks *w = arg;

	pt_walk_count(w, point, padata);
	if (point != PADNET_TP_NEXT || w->fired || w->last == w->late)
		return;
	w->fired++;
	/* On one CPU, an IPI to itself: a completion nested in the walk. */
	smp_call_function_single(w->late_cpu, pt_complete_fn, w->late, 1);
}

/*
 * A release, then the next object completes on another CPU (and is
 * parked: the token is not published yet), then the walker's cmpxchg:
 * the walker must take it, or it is parked with nobody to release it.
 */
static void padata_test_race_release_vs_next(struct kunit *test)
{
	int cb = cpumask_first(cpu_online_mask);
	struct pt_walks *w;
	struct pt_ctx *ctx;
	u32 i;

	ctx = pt_ctx_create(test, 0, NULL, 2, 16);
	for (i = 0; i < 2; i++) {
		ctx->objs[i].mode = PT_HOLD;
		ctx->objs[i].sub_idx = i;
		KUNIT_ASSERT_EQ(test, pt_do_parallel(ctx, &ctx->objs[i], cb),
				-EINPROGRESS);
		atomic_inc(&ctx->accepted);
		KUNIT_ASSERT_TRUE(test, pt_wait_count(&ctx->objs[i].parallel_calls, 1));
	}
	w = pt_walks_hook(ctx, pt_late_hook);
	w->late = &ctx->objs[1];
	preempt_disable();
	w->late_cpu = pt_another_cpu(smp_processor_id());
	preempt_enable();
	pt_finish(&ctx->objs[0]);
	pt_wait_all(ctx);
	padnet_test_set_hook(ctx->pinst, NULL, NULL);
	KUNIT_EXPECT_EQ(test, w->fired, 1);
	KUNIT_EXPECT_EQ(test, w->walks, 1U);
	KUNIT_EXPECT_EQ_MSG(test, w->max, 2U,
			    "the walker did not take the object completed in the window");
	pt_verify(ctx, 2);
}

/* 7(b): between the submitter's reads of the completion count and seq. */
struct pt_seq_race {
	struct pt_ctx *ctx;
	int cb;
	u32 n;
	int fired;
	bool inside;
	int errors;
};

static void pt_seq_hook(struct padata_instance *pinst,
			enum padnet_test_point point,
			struct padata_priv *padata, void *arg)
{
	struct pt_seq_race *r = arg;
	struct pt_ctx *ctx = r->ctx;
	u32 i;

	if (point != PADNET_TP_SEQ || r->inside || r->fired)
		return;
	r->fired++;
	r->inside = true;
	/* Others submit and finish r->n objects meanwhile. */
	for (i = 0; i < r->n; i++) {
		ctx->objs[i].mode = PT_INLINE;
		ctx->objs[i].sub_idx = i;
		if (pt_do_parallel(ctx, &ctx->objs[i], r->cb) != -EINPROGRESS)
			r->errors++;
		else
			atomic_inc(&ctx->accepted);
	}
	if (!pt_spin_wait(&ctx->serialized, r->n))
		r->errors++;
	/* Time for the serial worker to publish the count it added. */
	mdelay(20);
	r->inside = false;
}

static int pt_seq_submit(void *arg)
{
	struct pt_seq_race *r = arg;
	struct pt_obj *obj = &r->ctx->objs[r->n];

	obj->mode = PT_INLINE;
	obj->sub_idx = r->n;
	return pt_do_parallel(r->ctx, obj, r->cb);
}

/*
 * A submitter delayed between its two reads while n objects are
 * submitted and serialised elsewhere: far below the limit, it must not
 * get -EBUSY (a stale sequence number with a newer count underflows).
 */
static void padata_test_race_done_seq(struct kunit *test)
{
	int t = cpumask_first(cpu_online_mask);
	struct pt_seq_race *r;
	struct pt_ctx *ctx;
	cpumask_var_t mask;
	int ret;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->cb = pt_another_cpu(t);
	if (r->cb == t)
		kunit_skip(test, "needs two online CPUs");
	r->n = 32;
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	cpumask_set_cpu(r->cb, mask);
	ctx = pt_ctx_create(test, 0, mask, r->n + 1, 64);
	free_cpumask_var(mask);
	r->ctx = ctx;
	padnet_test_set_hook(ctx->pinst, pt_seq_hook, r);
	ret = smp_call_on_cpu(t, pt_seq_submit, r, false);
	if (ret == -EINPROGRESS)
		atomic_inc(&ctx->accepted);
	pt_wait_all(ctx);
	padnet_test_set_hook(ctx->pinst, NULL, NULL);
	KUNIT_EXPECT_EQ(test, r->fired, 1);
	KUNIT_EXPECT_EQ(test, r->errors, 0);
	KUNIT_EXPECT_EQ(test, ret, -EINPROGRESS);
	pt_verify(ctx, r->n + 1);
}

static void pt_unpark_reverse_fn(void *info)
{
	struct pt_ctx *ctx = info;
	u32 i;

	for (i = ctx->nr; i-- > 0;)
		pt_finish(&ctx->objs[i]);
}

/*
 * Fix 2, -EBUSY only at the limit: limit 64, one callback CPU, one batch
 * of 64 serial() calls, each submitting one more object. Before the k-th
 * serial() returns, 64 + accepted extras - (k - 1) are in flight: only the
 * first submission (64 in flight) may get -EBUSY, all later ones fit.
 */
static void padata_test_ebusy_exact(struct kunit *test)
{
	const u32 limit = 64;
	int cb = cpumask_first(cpu_online_mask);
	struct pt_ctx *ctx;
	u32 i, bad = 0;

	ctx = pt_ctx_create(test, 0, NULL, limit, limit);
	ctx->nr_extra = limit;
	ctx->extra = kunit_kcalloc(test, limit, sizeof(*ctx->extra), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->extra);
	for (i = 0; i < limit; i++) {
		ctx->extra[i].ctx = ctx;
		ctx->extra[i].id = limit + i;
		ctx->extra[i].padata.parallel = pt_parallel;
		ctx->extra[i].padata.serial = pt_serial;
		ctx->objs[i].mode = PT_HOLD;
		ctx->objs[i].sub_idx = i;
		ctx->objs[i].resubmit = true;
		KUNIT_ASSERT_EQ(test, pt_do_parallel(ctx, &ctx->objs[i], cb),
				-EINPROGRESS);
		atomic_inc(&ctx->accepted);
	}
	for (i = 0; i < limit; i++)
		KUNIT_ASSERT_TRUE(test, pt_wait_count(&ctx->objs[i].parallel_calls, 1));
	/* One walk on cb with interrupts off: serial() runs as one batch. */
	smp_call_function_single(cb, pt_unpark_reverse_fn, ctx, 1);
	pt_wait_all(ctx);
	pt_verify(ctx, limit);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->extra_next), (int)limit);
	KUNIT_EXPECT_EQ_MSG(test, ctx->extra_ret[0], -EBUSY,
			    "accepted beyond the limit");
	for (i = 1; i < limit; i++)
		bad += ctx->extra_ret[i] != -EINPROGRESS;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U,
			    "-EBUSY below the limit (from serial() #20: %d)",
			    ctx->extra_ret[19]);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->extra_busy), 1);
	/* Accepted extras ran once each, refused ones not at all. */
	bad = 0;
	for (i = 0; i < limit; i++) {
		int want = ctx->extra_ret[i] == -EINPROGRESS;

		bad += atomic_read(&ctx->extra[i].parallel_calls) != want ||
		       atomic_read(&ctx->extra[i].serial_calls) != want;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "extra objects not run exactly once");
}

/*
 * Fix 3: a CPU going offline or online changes nothing for an instance
 * whose mask does not contain it: no new CPU set, no -EBUSY. The
 * instance that does contain it is the control: its probe sees both.
 */
static void padata_test_hotplug_spares_other_instances(struct kunit *test)
{
	int first = cpumask_first(cpu_online_mask);
	int victim = cpumask_last(cpu_online_mask), ret;
	struct pt_reset_probe *pin, *pout;
	struct pt_ctx *in, *out;
	cpumask_var_t mask;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || victim == first || victim == 0)
		kunit_skip(test, "needs CONFIG_HOTPLUG_CPU and two online CPUs");
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	cpumask_copy(mask, cpu_online_mask);
	cpumask_clear_cpu(victim, mask);
	in = pt_ctx_create(test, 0, NULL, 1, 16);
	out = pt_ctx_create(test, 1, mask, 1, 16);
	free_cpumask_var(mask);
	pin = pt_reset_probe(in, &in->objs[0], first);
	pout = pt_reset_probe(out, &out->objs[0], first);

	ret = remove_cpu(victim);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (!ret)
		KUNIT_EXPECT_EQ(test, add_cpu(victim), 0);
	padnet_test_set_hook(in->pinst, NULL, NULL);
	padnet_test_set_hook(out->pinst, NULL, NULL);
	KUNIT_EXPECT_EQ(test, pin->calls, 2);
	KUNIT_EXPECT_EQ(test, pin->busy, 2);
	KUNIT_EXPECT_EQ_MSG(test, pout->calls, 0,
			    "CPU %d's hotplug replaced the CPU set of an instance without it",
			    victim);
	KUNIT_EXPECT_EQ(test, pout->busy, 0);
}

/* The negative controls: a fault in the core, a checker that sees it. */
static struct pt_ctx *pt_fault_ctx(struct kunit *test,
				   enum padnet_test_fault fault,
				   unsigned int delay_ms)
{
	const u32 nr = 64;
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, nr, 1000);

	KUNIT_ASSERT_EQ(test, padnet_test_set_fault(ctx->pinst, fault, 10,
						    delay_ms), 0);
	pt_submit_range(ctx, 0, nr, PT_INLINE, cpumask_first(cpu_online_mask));
	return ctx;
}

static u32 pt_count_serial_calls(struct pt_ctx *ctx, int calls)
{
	u32 i, n = 0;

	for (i = 0; i < ctx->nr; i++)
		n += atomic_read(&ctx->objs[i].serial_calls) == calls;
	return n;
}

/* Object 10 released after object 11: the order checker fires once. */
static void padata_test_fault_swap(struct kunit *test)
{
	struct pt_ctx *ctx = pt_fault_ctx(test, PADNET_FAULT_SWAP, 0);

	pt_wait_all(ctx);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&ctx->err_order), 1,
			    "the order checker missed a swap");
	KUNIT_EXPECT_EQ(test, pt_count_serial_calls(ctx, 1), ctx->nr);
	atomic_set(&ctx->err_order, 0);
	pt_verify(ctx, ctx->nr);
}

/* Object 10 never released: the exactly-once checker names it. */
static void padata_test_fault_drop(struct kunit *test)
{
	struct pt_ctx *ctx = pt_fault_ctx(test, PADNET_FAULT_DROP, 0);
	const char *why;
	u32 miss;

	ctx->stall_ms = 1000;
	KUNIT_EXPECT_FALSE_MSG(test, pt_wait_progress(ctx, &why, &miss),
			       "the stall detector missed a lost object");
	KUNIT_EXPECT_EQ(test, miss, 10U);
	KUNIT_EXPECT_EQ(test, pt_count_serial_calls(ctx, 0), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->objs[10].serial_calls), 0);
	/* Let it go, late: now the order checker fires too. */
	padnet_test_set_fault(ctx->pinst, PADNET_FAULT_NONE, 0, 0);
	ctx->stall_ms = PT_STALL_MS;
	pt_wait_all(ctx);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->err_order), 1);
	atomic_set(&ctx->err_order, 0);
	pt_verify(ctx, ctx->nr);
}

/* The walk stops at object 10 for 3 s: the stall detector (1 s) fires. */
static void padata_test_fault_delay(struct kunit *test)
{
	struct pt_ctx *ctx = pt_fault_ctx(test, PADNET_FAULT_DELAY, 3000);
	const char *why;
	u32 miss;

	ctx->stall_ms = 1000;
	KUNIT_EXPECT_FALSE_MSG(test, pt_wait_progress(ctx, &why, &miss),
			       "the stall detector missed a stopped walk");
	KUNIT_EXPECT_EQ(test, miss, 10U);
	KUNIT_EXPECT_EQ(test, pt_count_serial_calls(ctx, 0), ctx->nr - 10);
	ctx->stall_ms = PT_STALL_MS;
	pt_wait_all(ctx);
	pt_verify(ctx, ctx->nr);
}

/*
 * CPU hotplug, deterministic: 200 objects parked whose callback CPU is
 * the victim, its parallel queue busy; offline; complete in reverse.
 */
static void padata_test_hotplug_parked_victim(struct kunit *test)
{
	const u32 parked = 200, busy = 64, back = 20;
	int victim = cpumask_last(cpu_online_mask);
	int other = cpumask_first(cpu_online_mask);
	struct pt_ctx *ctx;
	u32 i, elsewhere = 0, home = 0;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || victim == other || victim == 0)
		kunit_skip(test, "needs CONFIG_HOTPLUG_CPU and two online CPUs");
	ctx = pt_ctx_create(test, 0, NULL, parked + busy + back, 1000);
	ctx->check_cb_cpu = false;
	ctx->delay_us = 1000;
	pt_submit_range(ctx, 0, parked, PT_PARK, victim);
	pt_wait_parked(ctx, parked);
	/* Busy parallel() calls, some queued on the victim, when it goes. */
	pt_submit_range(ctx, parked, parked + busy, PT_DELAY, other);
	KUNIT_ASSERT_EQ(test, remove_cpu(victim), 0);
	pt_unpark(ctx, true);
	pt_wait_all(ctx);
	for (i = 0; i < parked; i++)
		elsewhere += ctx->objs[i].ran_cpu != victim;
	KUNIT_EXPECT_EQ(test, add_cpu(victim), 0);
	KUNIT_EXPECT_EQ_MSG(test, elsewhere, parked,
			    "serial() ran on the offline CPU");
	pt_verify(ctx, parked + busy);

	pt_submit_range(ctx, parked + busy, ctx->nr, PT_INLINE, victim);
	pt_wait_all(ctx);
	for (i = parked + busy; i < ctx->nr; i++)
		home += ctx->objs[i].ran_cpu == victim;
	KUNIT_EXPECT_EQ_MSG(test, home, back,
			    "serial() did not return to the CPU once online");
	pt_verify(ctx, ctx->nr);
}

/*
 * Submitters in softirq context (a timer, a tasklet) and with interrupts
 * off, next to a kthread: padtun submits from softirq. Each submits its
 * own range of objects; one that meets -EBUSY in softirq tries again on
 * the next tick, as a driver would.
 */
struct pt_softsub {
	struct pt_ctx *ctx;
	u32 first, count, next;
	u8 index;
	bool tasklet;
	struct rnd_state rnd;
	struct timer_list timer;
	struct tasklet_struct task;
	unsigned long end;
	int in_softirq, errors;
	struct completion done;
};

static void pt_softsub_run(struct pt_softsub *s)
{
	struct pt_ctx *ctx = s->ctx;
	int ret;

	while (s->next < s->count) {
		struct pt_obj *obj = &ctx->objs[s->first + s->next];

		obj->submitter = s->index;
		obj->sub_idx = s->next;
		obj->mode = pt_random_mode(ctx->modes, &s->rnd);
		ret = pt_do_parallel(ctx, obj,
				     pt_random_cpu(ctx->cb_mask, &s->rnd));
		if (ret != -EINPROGRESS)
			break;
		s->in_softirq += in_serving_softirq() && !in_hardirq();
		atomic_inc(&ctx->accepted);
		s->next++;
	}
	if (s->next == s->count) {
		complete(&s->done);
	} else if (time_after(jiffies, s->end) || READ_ONCE(ctx->abort)) {
		s->errors++;
		complete(&s->done);
	} else {
		mod_timer(&s->timer, jiffies + 1);
	}
}

static void pt_softsub_timer(struct timer_list *t)
{
	struct pt_softsub *s = from_timer(s, t, timer);

	if (s->tasklet)
		tasklet_schedule(&s->task);
	else
		pt_softsub_run(s);
}

static void pt_softsub_tasklet(struct tasklet_struct *t)
{
	struct pt_softsub *s = from_tasklet(s, t, task);

	pt_softsub_run(s);
}

struct pt_irqoff_sub {
	struct pt_ctx *ctx;
	u32 first, count;
	int irqs_off, errors;
	struct completion done;
};

static int pt_irqoff_fn(void *arg)
{
	struct pt_irqoff_sub *s = arg;
	struct pt_ctx *ctx = s->ctx;
	unsigned long end = jiffies + msecs_to_jiffies(ctx->stall_ms);
	struct rnd_state rnd;
	unsigned long flags;
	u32 i = 0;
	int ret;

	prandom_seed_state(&rnd, 77);
	while (i < s->count) {
		struct pt_obj *obj = &ctx->objs[s->first + i];

		obj->submitter = 3;
		obj->sub_idx = i;
		obj->mode = pt_random_mode(ctx->modes, &rnd);
		local_irq_save(flags);
		ret = pt_do_parallel(ctx, obj, pt_random_cpu(ctx->cb_mask, &rnd));
		s->irqs_off += ret == -EINPROGRESS && irqs_disabled();
		local_irq_restore(flags);
		if (ret == -EINPROGRESS) {
			atomic_inc(&ctx->accepted);
			i++;
			continue;
		}
		if (time_after(jiffies, end) || READ_ONCE(ctx->abort)) {
			s->errors++;
			break;
		}
		usleep_range(20, 100);
	}
	complete(&s->done);
	return 0;
}

static void padata_test_softirq_submitters(struct kunit *test)
{
	const u32 per = 2000;
	struct pt_softsub *soft;
	struct pt_irqoff_sub *off;
	struct task_struct *task;
	struct pt_ctx *ctx;
	int i;

	ctx = pt_ctx_create(test, 0, NULL, 4 * per, 256);
	ctx->modes = PT_ASYNC_MODES;
	soft = kunit_kcalloc(test, 2, sizeof(*soft), GFP_KERNEL);
	off = kunit_kzalloc(test, sizeof(*off), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, soft);
	KUNIT_ASSERT_NOT_NULL(test, off);
	for (i = 0; i < 2; i++) {
		struct pt_softsub *s = &soft[i];

		s->ctx = ctx;
		s->index = 1 + i;
		s->first = (1 + i) * per;
		s->count = per;
		s->tasklet = i == 1;
		s->end = jiffies + msecs_to_jiffies(PT_WAIT_MS);
		prandom_seed_state(&s->rnd, 31 + i);
		init_completion(&s->done);
		timer_setup(&s->timer, pt_softsub_timer, 0);
		tasklet_setup(&s->task, pt_softsub_tasklet);
	}
	off->ctx = ctx;
	off->first = 3 * per;
	off->count = per;
	init_completion(&off->done);
	task = kthread_run(pt_irqoff_fn, off, "pt_irqoff");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	for (i = 0; i < 2; i++)
		mod_timer(&soft[i].timer, jiffies + 1);

	/* A kthread submitter takes objects [0, per) meanwhile. */
	ctx->nr = per;
	pt_run_submitters(ctx, 1, NULL);
	ctx->nr = 4 * per;
	for (i = 0; i < 2; i++) {
		if (!wait_for_completion_timeout(&soft[i].done,
						 msecs_to_jiffies(2 * PT_WAIT_MS))) {
			KUNIT_FAIL(test, "softirq submitter %d did not finish", i);
			/* It stops re-arming its timer. */
			WRITE_ONCE(ctx->abort, true);
		}
		del_timer_sync(&soft[i].timer);
		tasklet_kill(&soft[i].task);
		KUNIT_EXPECT_EQ(test, soft[i].errors, 0);
		KUNIT_EXPECT_EQ(test, soft[i].in_softirq, (int)per);
	}
	if (!wait_for_completion_timeout(&off->done,
					 msecs_to_jiffies(2 * PT_WAIT_MS))) {
		KUNIT_FAIL(test, "irqs-off submitter did not finish");
		ctx->stalled = true;
		return;
	}
	KUNIT_EXPECT_EQ(test, off->errors, 0);
	KUNIT_EXPECT_EQ(test, off->irqs_off, (int)per);
	pt_wait_all(ctx);
	pt_verify(ctx, ctx->nr);
}

static void pt_chain_inner_parallel(struct padata_priv *padata)
{
	padata_do_serial(padata);
}

static void pt_chain_inner_serial(struct padata_priv *padata)
{
	struct pt_obj *inner = pt_obj(padata);

	atomic_inc(&inner->ctx->nest_serialized);
	padata_do_serial(inner->chain);
}

/*
 * pcrypt's shape on one shared workqueue: A's parallel() submits to B,
 * and B's serial() finishes A's object.
 */
static void padata_test_chain(struct kunit *test)
{
	struct pt_ctx *ctx = pt_ctx_create(test, 0, NULL, 3000, 1000);
	struct pt_obj *inner;
	u32 i;

	inner = kunit_kcalloc(test, ctx->nr, sizeof(*inner), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, inner);
	/* Never full while A is not: parallel() cannot retry. */
	ctx->nest_pinst = padnet_alloc_limit(cpu_online_mask, ctx->wq, 4096);
	KUNIT_ASSERT_NOT_NULL(test, ctx->nest_pinst);
	padata_start(ctx->nest_pinst);
	for (i = 0; i < ctx->nr; i++) {
		inner[i].ctx = ctx;
		inner[i].padata.parallel = pt_chain_inner_parallel;
		inner[i].padata.serial = pt_chain_inner_serial;
		inner[i].chain = &ctx->objs[i].padata;
		ctx->objs[i].chain = &inner[i].padata;
	}
	ctx->modes = BIT(PT_CHAIN);
	pt_run_submitters(ctx, 2, NULL);
	pt_wait_all(ctx);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->nest_err), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->nest_serialized), (int)ctx->nr);
	pt_verify(ctx, ctx->nr);
}

struct pt_stop_sub {
	struct pt_ctx *ctx;
	u32 first, count;
	u8 index;
	int late_accepts;
	struct completion done;
};

static int pt_stop_sub_fn(void *arg)
{
	struct pt_stop_sub *s = arg;
	struct pt_ctx *ctx = s->ctx;
	struct rnd_state rnd;
	bool stopped;
	u32 i = 0;
	int ret;

	prandom_seed_state(&rnd, 100 + s->index);
	while (i < s->count && !READ_ONCE(ctx->abort)) {
		struct pt_obj *obj = &ctx->objs[s->first + i];

		obj->submitter = s->index;
		obj->sub_idx = i;
		obj->mode = pt_random_mode(ctx->modes, &rnd);
		/* Pairs with the release after padata_stop() returned. */
		stopped = smp_load_acquire(&ctx->stopped);
		ret = pt_do_parallel(ctx, obj, pt_random_cpu(ctx->cb_mask, &rnd));
		if (ret == -EINPROGRESS) {
			atomic_inc(&ctx->accepted);
			s->late_accepts += stopped;
			i++;
			continue;
		}
		if (ret == 0 && stopped)
			break;
		cond_resched();
	}
	complete(&s->done);
	return 0;
}

/*
 * padata_stop() racing four submitters: once it returned nothing is
 * accepted any more, and everything accepted before completes.
 */
static void padata_test_stop_vs_submitters(struct kunit *test)
{
	const u32 per = 5000;
	struct pt_stop_sub *subs;
	struct pt_ctx *ctx;
	u32 i, accepted = 0, bad = 0;
	unsigned long end;

	ctx = pt_ctx_create(test, 0, NULL, 4 * per, 1000);
	ctx->modes = PT_ASYNC_MODES;
	subs = kunit_kcalloc(test, 4, sizeof(*subs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, subs);
	for (i = 0; i < 4; i++) {
		subs[i].ctx = ctx;
		subs[i].index = i;
		subs[i].first = i * per;
		subs[i].count = per;
		init_completion(&subs[i].done);
		if (IS_ERR(kthread_run(pt_stop_sub_fn, &subs[i], "pt_stop/%u", i))) {
			KUNIT_FAIL(test, "kthread_run failed");
			complete(&subs[i].done);
		}
	}
	/* Stop while they run: some objects in, some not. */
	end = jiffies + msecs_to_jiffies(PT_WAIT_MS);
	while (atomic_read(&ctx->accepted) < per / 2 && time_before(jiffies, end))
		usleep_range(100, 200);
	padata_stop(ctx->pinst);
	/* Pairs with the acquire in pt_stop_sub_fn(). */
	smp_store_release(&ctx->stopped, true);
	for (i = 0; i < 4; i++) {
		if (!wait_for_completion_timeout(&subs[i].done,
						 msecs_to_jiffies(PT_WAIT_MS))) {
			KUNIT_FAIL(test, "submitter %u did not see the stop", i);
			WRITE_ONCE(ctx->abort, true);
			ctx->stalled = true;
			return;
		}
		KUNIT_EXPECT_EQ(test, subs[i].late_accepts, 0);
	}
	pt_wait_all(ctx);
	for (i = 0; i < ctx->nr; i++) {
		int p = atomic_read(&ctx->objs[i].parallel_calls);
		int q = atomic_read(&ctx->objs[i].serial_calls);

		accepted += p == 1;
		bad += p > 1 || q != p;
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	KUNIT_EXPECT_EQ(test, accepted, (u32)atomic_read(&ctx->accepted));
	KUNIT_EXPECT_LT(test, accepted, ctx->nr);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->err_order), 0);
}

static struct kunit_case padata_test_cases[] = {
	KUNIT_CASE(padata_test_checker_flags_reorder),
	KUNIT_CASE(padata_test_fault_swap),
	KUNIT_CASE(padata_test_fault_drop),
	KUNIT_CASE(padata_test_fault_delay),
	KUNIT_CASE(padata_test_ret_not_started),
	KUNIT_CASE(padata_test_ret_einval),
	KUNIT_CASE(padata_test_ret_ebusy_mask_change),
	KUNIT_CASE(padata_test_backpressure),
	KUNIT_CASE(padata_test_ebusy_exact),
	KUNIT_CASE(padata_test_walk_bound),
	KUNIT_CASE(padata_test_race_release_vs_next),
	KUNIT_CASE(padata_test_race_done_seq),
	KUNIT_CASE_PARAM(padata_test_completion_context, pt_context_gen_params),
	KUNIT_CASE(padata_test_context_and_spread),
	KUNIT_CASE(padata_test_serial_catch_up),
	KUNIT_CASE(padata_test_callback_cpu_first),
	KUNIT_CASE(padata_test_callback_cpu_while_running),
	KUNIT_CASE(padata_test_serial_in_place),
	KUNIT_CASE(padata_test_seq_wrap),
	KUNIT_CASE(padata_test_order_across_mask_change),
	KUNIT_CASE(padata_test_cb_cpu_leaves_mask),
	KUNIT_CASE(padata_test_hotplug_spares_other_instances),
	KUNIT_CASE(padata_test_hotplug_rejoin_user_mask),
	KUNIT_CASE(padata_test_stop_start),
	KUNIT_CASE(padata_test_stop_vs_submitters),
	KUNIT_CASE(padata_test_softirq_submitters),
	KUNIT_CASE(padata_test_chain),
	KUNIT_CASE(padata_test_two_instances),
	KUNIT_CASE(padata_test_instance_domain),
	KUNIT_CASE(padata_test_domains_interleaved),
	KUNIT_CASE(padata_test_domain_stalled),
	KUNIT_CASE(padata_test_express),
	KUNIT_CASE(padata_test_slice),
	KUNIT_CASE(padata_test_domain_hotplug_cb_cpu),
	KUNIT_CASE(padata_test_nested),
	KUNIT_CASE(padata_test_free_after_last_serial),
	KUNIT_CASE(padata_test_free_in_flight),
	KUNIT_CASE(padata_test_debugfs_counters),
	{}
};

static struct kunit_suite padata_test_suite = {
	.name = "padata",
	.init = pt_init,
	.exit = pt_exit,
	.test_cases = padata_test_cases,
};

static struct kunit_case padata_stress_cases[] = {
	KUNIT_CASE(padata_test_order_stress),
	KUNIT_CASE(padata_test_no_spurious_ebusy),
	KUNIT_CASE(padata_test_walk_bound_load),
	KUNIT_CASE(padata_test_mask_change_under_load),
	KUNIT_CASE(padata_test_hotplug_under_load),
	KUNIT_CASE(padata_test_hotplug_parked_victim),
	{}
};

static struct kunit_suite padata_stress_suite = {
	.name = "padata_stress",
	.init = pt_init,
	.exit = pt_exit,
	.test_cases = padata_stress_cases,
};

/*
 * One module, two suites, and the "suite" parameter picks the one to run:
 * the contract suite runs on every test kernel, the stress suite only
 * where it is fast enough. kunit_test_suites() would run both at load.
 */
static struct kunit_suite *pt_suites[] = {
	&padata_test_suite,
	&padata_stress_suite,
};

static struct kunit_suite *pt_chosen[1];

static int __init pt_module_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(pt_suites); i++) {
		if (!strcmp(suite, pt_suites[i]->name)) {
			pt_chosen[0] = pt_suites[i];
			return __kunit_test_suites_init(pt_chosen, 1);
		}
	}
	pr_err("padata_test: no suite \"%s\"\n", suite);
	return -EINVAL;
}

static void __exit pt_module_exit(void)
{
	__kunit_test_suites_exit(pt_chosen, 1);
}

module_init(pt_module_init);
module_exit(pt_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for padnet padata");
