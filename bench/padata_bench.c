// SPDX-License-Identifier: GPL-2.0
/*
 * The padata core alone: objects per second through padnet's padata, through
 * the kernel's own padata, and through plain per-CPU work items with no
 * ordering (the reference: what the parallel stage costs without a serial
 * one), with the same per-object work, on one CPU and on all. Every
 * combination runs as the module loads and prints one line, @reps times in
 * turn (engines, CPU sets and work sizes alternate, as the link modes of
 * make bench do, so that a noisy moment of the host spreads over all rows
 * instead of deciding one); the module then stays loaded, idle, until it is
 * removed.
 *
 * One module drives both cores, so it writes padnet_* for ours and
 * padata_* for the kernel's (docs/padata.rst, "Names").
 */
#define PADNET_NO_SEED_NAMES
#include <padnet/padata.h>

#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/padata.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

static unsigned int objects = 20000;
module_param(objects, uint, 0444);
MODULE_PARM_DESC(objects, "objects per run");

static unsigned int reps = 5;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "rounds of every combination");

static char *engines = "padnet,kernel,unordered";
module_param(engines, charp, 0444);
MODULE_PARM_DESC(engines, "engines to run, a list (padnet, kernel, unordered)");

static char *work_us = "0,1,10,50";
module_param(work_us, charp, 0444);
MODULE_PARM_DESC(work_us, "per-object work in microseconds, a list");

/* One CPU set alone is what a profile of the core needs. */
static char *cpu_sets = "one,all";
module_param(cpu_sets, charp, 0444);
MODULE_PARM_DESC(cpu_sets, "CPU sets to run on, a list (one: CPU 0, all: every online CPU)");

/*
 * The time of a run is from its first submission to the last object's
 * completion: an engine's setup and teardown (an instance's allocation,
 * its CPU mask, the RCU grace periods of padata_free()) are not part of
 * its throughput, and in a run of 20,000 light objects they would be a
 * good part of the time, for the ordered engines only.
 */
struct bench_run {
	unsigned int work_us;
	atomic_t left;
	struct completion done;
	u64 start;
	u64 end;
	/* Written by serial() only, which runs on one CPU at a time. */
	unsigned int next;
	unsigned int misordered;
	/* A submitter that met -EBUSY sleeps until serial() reaches this. */
	unsigned int wake_at;
	wait_queue_head_t room;
};

/*
 * The work per object is CPU work, not udelay(): a vCPU waiting in
 * udelay() finishes its "work" while the host runs something else, so
 * under TCG two CPUs could seem to do more than twice the work of one.
 * Loop iterations per microsecond, measured once at load on an idle
 * guest.
 */
static u64 bench_loops_per_us;
static u64 bench_sink;

static noinline u64 bench_spin(u64 loops)
{
	u64 x = loops;

	while (loops--)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

static void bench_work(unsigned int us)
{
	/* Kept, so that the compiler keeps the loop. */
	WRITE_ONCE(bench_sink, bench_spin(us * bench_loops_per_us));
}

/* The fastest of three tries: a slower one was interrupted. */
static void bench_calibrate(void)
{
	const u64 loops = 1000000;
	u64 ns, best = U64_MAX;
	int i;

	for (i = 0; i < 3; i++) {
		ns = ktime_get_ns();
		WRITE_ONCE(bench_sink, bench_spin(loops));
		best = min(best, ktime_get_ns() - ns);
	}
	bench_loops_per_us = max_t(u64, div64_u64(loops * NSEC_PER_USEC, best ?: 1), 1);
	pr_info("padata_bench: calibrated %llu loops per us\n", bench_loops_per_us);
}

struct bench_obj {
	unsigned int index;
	struct bench_run *run;
	union {
		struct padnet_priv ours;
		struct padata_priv kernels;
		struct work_struct work;
	};
};

static void bench_finish(struct bench_obj *obj, bool ordered)
{
	struct bench_run *run = obj->run;

	if (ordered && obj->index != run->next++)
		run->misordered++;
	if (unlikely(ordered && run->next >= READ_ONCE(run->wake_at)))
		wake_up(&run->room);
	if (atomic_dec_and_test(&run->left)) {
		run->end = ktime_get_ns();
		complete(&run->done);
	}
}

static void ours_parallel(struct padnet_priv *padata)
{
	struct bench_obj *obj = container_of(padata, struct bench_obj, ours);

	bench_work(obj->run->work_us);
	padnet_do_serial(padata);
}

static void ours_serial(struct padnet_priv *padata)
{
	bench_finish(container_of(padata, struct bench_obj, ours), true);
}

static void kernels_parallel(struct padata_priv *padata)
{
	struct bench_obj *obj = container_of(padata, struct bench_obj, kernels);

	bench_work(obj->run->work_us);
	padata_do_serial(padata);
}

static void kernels_serial(struct padata_priv *padata)
{
	bench_finish(container_of(padata, struct bench_obj, kernels), true);
}

static void unordered_work(struct work_struct *work)
{
	struct bench_obj *obj = container_of(work, struct bench_obj, work);

	bench_work(obj->run->work_us);
	bench_finish(obj, false);
}

struct bench_engine {
	const char *name;
	int (*run)(struct bench_obj *objs, const struct cpumask *mask,
		   struct workqueue_struct *wq);
};

/*
 * -EBUSY is the in-flight limit doing its job. The submitter then waits
 * as a real user does (padtun stops its queue and wakes it at half its
 * limit): asleep until half the limit is free, so one sleep per
 * BENCH_REFILL objects. Spinning, or waking for every few objects, would
 * take CPU time from the workers on the submitter's CPU, and the ordered
 * engines would lose to unordered work items for it, which have no limit
 * and whose submitter sleeps once all objects are queued. serial() reads
 * @wake_at without a barrier, so it may miss a sleeper that set it just
 * then: the timeout bounds what that costs.
 */
#define BENCH_REFILL 500

static void bench_wait_for_room(struct bench_run *run, unsigned int submitted)
{
	unsigned int target = submitted > BENCH_REFILL ? submitted - BENCH_REFILL : 0;

	WRITE_ONCE(run->wake_at, target);
	wait_event_timeout(run->room, READ_ONCE(run->next) >= target, 1);
	WRITE_ONCE(run->wake_at, UINT_MAX);
}

/* Submit until accepted. */
static int ours_run(struct bench_obj *objs, const struct cpumask *mask,
		    struct workqueue_struct *wq)
{
	struct padnet_instance *pinst = padnet_alloc(mask, wq);
	int cb_cpu = cpumask_first(mask);
	unsigned int i;
	int ret = 0;

	if (!pinst)
		return -ENOMEM;
	padnet_start(pinst);
	objs->run->start = ktime_get_ns();
	for (i = 0; i < objects && !ret; i++) {
		objs[i].ours.parallel = ours_parallel;
		objs[i].ours.serial = ours_serial;
		while ((ret = padnet_do_parallel(pinst, &objs[i].ours, cb_cpu)) == -EBUSY)
			bench_wait_for_room(objs->run, i);
		if (ret == -EINPROGRESS)
			ret = 0;
	}
	if (!ret && !wait_for_completion_timeout(&objs->run->done, 60 * HZ))
		ret = -ETIMEDOUT;
	/* After a timeout padnet_free() would wait for the stalled objects. */
	if (ret != -ETIMEDOUT) {
		padnet_stop(pinst);
		padnet_free(pinst);
	}
	return ret;
}

static int kernels_run(struct bench_obj *objs, const struct cpumask *mask,
		       struct workqueue_struct *wq)
{
	struct padata_instance *pinst = padata_alloc("padata_bench");
	struct padata_shell *ps;
	cpumask_var_t cpus;
	unsigned int i;
	int cb_cpu;
	int ret;

	if (!pinst)
		return -ENOMEM;
	ret = -ENOMEM;
	if (!alloc_cpumask_var(&cpus, GFP_KERNEL))
		goto free_pinst;
	cpumask_copy(cpus, mask);
	ret = padata_set_cpumask(pinst, PADATA_CPU_PARALLEL, cpus) ?:
	      padata_set_cpumask(pinst, PADATA_CPU_SERIAL, cpus);
	if (ret)
		goto free_cpus;
	ret = -ENOMEM;
	ps = padata_alloc_shell(pinst);
	if (!ps)
		goto free_cpus;
	ret = 0;
	objs->run->start = ktime_get_ns();
	for (i = 0; i < objects && !ret; i++) {
		objs[i].kernels.parallel = kernels_parallel;
		objs[i].kernels.serial = kernels_serial;
		for (;;) {
			cb_cpu = cpumask_first(mask);
			ret = padata_do_parallel(ps, &objs[i].kernels, &cb_cpu);
			if (ret != -EBUSY)
				break;
			bench_wait_for_room(objs->run, i);
		}
	}
	if (!ret && !wait_for_completion_timeout(&objs->run->done, 60 * HZ))
		ret = -ETIMEDOUT;
	if (ret != -ETIMEDOUT)
		padata_free_shell(ps);
free_cpus:
	free_cpumask_var(cpus);
free_pinst:
	if (ret != -ETIMEDOUT)
		padata_free(pinst);
	return ret;
}

static int unordered_run(struct bench_obj *objs, const struct cpumask *mask,
			 struct workqueue_struct *wq)
{
	int cpu = cpumask_first(mask);
	unsigned int i;

	objs->run->start = ktime_get_ns();
	for (i = 0; i < objects; i++) {
		INIT_WORK(&objs[i].work, unordered_work);
		queue_work_on(cpu, wq, &objs[i].work);
		cpu = cpumask_next(cpu, mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(mask);
	}
	if (!wait_for_completion_timeout(&objs->run->done, 60 * HZ))
		return -ETIMEDOUT;
	flush_workqueue(wq);
	return 0;
}

static const struct bench_engine bench_engines[] = {
	{ "padnet", ours_run },
	{ "kernel", kernels_run },
	{ "unordered", unordered_run },
};

/* Whether @name is an item of the comma-separated @list. */
static bool bench_listed(const char *list, const char *name)
{
	const char *p = strstr(list, name);
	size_t len = strlen(name);

	return p && (p == list || p[-1] == ',') &&
	       (p[len] == '\0' || p[len] == ',');
}

static int bench_one(const struct bench_engine *engine, unsigned int us,
		     const struct cpumask *mask, struct bench_obj *objs,
		     struct workqueue_struct *wq, unsigned int rep)
{
	struct bench_run run = { .work_us = us, .wake_at = UINT_MAX };
	unsigned int i;
	u64 ns;
	int ret;

	atomic_set(&run.left, objects);
	init_completion(&run.done);
	init_waitqueue_head(&run.room);
	memset(objs, 0, objects * sizeof(*objs));
	for (i = 0; i < objects; i++) {
		objs[i].index = i;
		objs[i].run = &run;
	}
	ret = engine->run(objs, mask, wq);
	if (ret) {
		pr_err("padata_bench: rep=%u engine=%s work_us=%u cpus=%u: error %d\n",
		       rep, engine->name, us, cpumask_weight(mask), ret);
		return ret;
	}
	/* Written before complete(), read after the wait for it. */
	ns = run.end - run.start;
	pr_info("padata_bench: rep=%u engine=%s work_us=%u cpus=%u objects=%u ns=%llu objs_per_s=%llu misordered=%u\n",
		rep, engine->name, us, cpumask_weight(mask), objects, ns,
		div64_u64((u64)objects * NSEC_PER_SEC, ns ?: 1), run.misordered);
	return 0;
}

/* One round: every work size, CPU set and chosen engine once, in turn. */
static int bench_round(unsigned int rep, const int *us, struct bench_obj *objs,
		       struct workqueue_struct *wq)
{
	const struct cpumask *masks[] = { cpumask_of(0), cpu_online_mask };
	static const char * const mask_names[] = { "one", "all" };
	int i, j, m, ret;

	for (i = 1; i <= us[0]; i++)
		for (m = 0; m < ARRAY_SIZE(masks); m++)
			for (j = 0; j < ARRAY_SIZE(bench_engines); j++) {
				if (!bench_listed(cpu_sets, mask_names[m]) ||
				    !bench_listed(engines, bench_engines[j].name))
					continue;
				ret = bench_one(&bench_engines[j], us[i], masks[m],
						objs, wq, rep);
				if (ret)
					return ret;
			}
	return 0;
}

static int __init padata_bench_init(void)
{
	struct workqueue_struct *wq;
	struct bench_obj *objs;
	unsigned int rep;
	int us[8];
	int ret = -ENOMEM;

	get_options(work_us, ARRAY_SIZE(us), us);
	bench_calibrate();
	objs = kvcalloc(objects, sizeof(*objs), GFP_KERNEL);
	if (!objs)
		return -ENOMEM;
	wq = alloc_workqueue("padata_bench", 0, 0);
	if (!wq)
		goto free_objs;
	ret = 0;
	for (rep = 1; rep <= reps && !ret; rep++)
		ret = bench_round(rep, us, objs, wq);
	/* A stalled run's objects and work items may still be in use. */
	if (ret == -ETIMEDOUT)
		return ret;
	destroy_workqueue(wq);
free_objs:
	kvfree(objs);
	return ret;
}

static void __exit padata_bench_exit(void)
{
}

module_init(padata_bench_init);
module_exit(padata_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("padnet benchmark: padnet's padata, the kernel's, and unordered work items");
