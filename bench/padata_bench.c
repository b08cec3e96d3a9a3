// SPDX-License-Identifier: GPL-2.0
/*
 * The padata core alone: objects per second through padnet's padata, through
 * the kernel's own padata, and through plain per-CPU work items with no
 * ordering (the reference: what the parallel stage costs without a serial
 * one), with the same per-object work, on one CPU and on all. Every
 * combination runs as the module loads and prints one line; the module then
 * stays loaded, idle, until it is removed.
 *
 * One module drives both cores, so it writes padnet_* for ours and
 * padata_* for the kernel's (docs/padata.rst, "Names").
 */
#define PADNET_NO_SEED_NAMES
#include <padnet/padata.h>

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/padata.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

static unsigned int objects = 20000;
module_param(objects, uint, 0444);
MODULE_PARM_DESC(objects, "objects per run");

static char *work_us = "0,1,10";
module_param(work_us, charp, 0444);
MODULE_PARM_DESC(work_us, "per-object work in microseconds, a list");

struct bench_run {
	unsigned int work_us;
	atomic_t left;
	struct completion done;
	/* Written by serial() only, which runs on one CPU at a time. */
	unsigned int next;
	unsigned int misordered;
};

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
	if (atomic_dec_and_test(&run->left))
		complete(&run->done);
}

static void ours_parallel(struct padnet_priv *padata)
{
	struct bench_obj *obj = container_of(padata, struct bench_obj, ours);

	udelay(obj->run->work_us);
	padnet_do_serial(padata);
}

static void ours_serial(struct padnet_priv *padata)
{
	bench_finish(container_of(padata, struct bench_obj, ours), true);
}

static void kernels_parallel(struct padata_priv *padata)
{
	struct bench_obj *obj = container_of(padata, struct bench_obj, kernels);

	udelay(obj->run->work_us);
	padata_do_serial(padata);
}

static void kernels_serial(struct padata_priv *padata)
{
	bench_finish(container_of(padata, struct bench_obj, kernels), true);
}

static void unordered_work(struct work_struct *work)
{
	struct bench_obj *obj = container_of(work, struct bench_obj, work);

	udelay(obj->run->work_us);
	bench_finish(obj, false);
}

struct bench_engine {
	const char *name;
	int (*run)(struct bench_obj *objs, const struct cpumask *mask,
		   struct workqueue_struct *wq);
};

/* Submit until accepted: -EBUSY is the in-flight limit doing its job. */
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
	for (i = 0; i < objects && !ret; i++) {
		objs[i].ours.parallel = ours_parallel;
		objs[i].ours.serial = ours_serial;
		while ((ret = padnet_do_parallel(pinst, &objs[i].ours, cb_cpu)) == -EBUSY)
			cond_resched();
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
	for (i = 0; i < objects && !ret; i++) {
		objs[i].kernels.parallel = kernels_parallel;
		objs[i].kernels.serial = kernels_serial;
		for (;;) {
			cb_cpu = cpumask_first(mask);
			ret = padata_do_parallel(ps, &objs[i].kernels, &cb_cpu);
			if (ret != -EBUSY)
				break;
			cond_resched();
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

static int bench_one(const struct bench_engine *engine, unsigned int us,
		     const struct cpumask *mask, struct bench_obj *objs,
		     struct workqueue_struct *wq)
{
	struct bench_run run = { .work_us = us };
	unsigned int i;
	u64 ns;
	int ret;

	atomic_set(&run.left, objects);
	init_completion(&run.done);
	memset(objs, 0, objects * sizeof(*objs));
	for (i = 0; i < objects; i++) {
		objs[i].index = i;
		objs[i].run = &run;
	}
	ns = ktime_get_ns();
	ret = engine->run(objs, mask, wq);
	ns = ktime_get_ns() - ns;
	if (ret) {
		pr_err("padata_bench: engine=%s work_us=%u cpus=%u: error %d\n",
		       engine->name, us, cpumask_weight(mask), ret);
		return ret;
	}
	pr_info("padata_bench: engine=%s work_us=%u cpus=%u objects=%u ns=%llu objs_per_s=%llu misordered=%u\n",
		engine->name, us, cpumask_weight(mask), objects, ns,
		div64_u64((u64)objects * NSEC_PER_SEC, ns ?: 1), run.misordered);
	return 0;
}

static int __init padata_bench_init(void)
{
	const struct cpumask *masks[] = { cpumask_of(0), cpu_online_mask };
	struct workqueue_struct *wq;
	struct bench_obj *objs;
	int us[8];
	int i, j, m, ret = -ENOMEM;

	get_options(work_us, ARRAY_SIZE(us), us);
	objs = kvcalloc(objects, sizeof(*objs), GFP_KERNEL);
	if (!objs)
		return -ENOMEM;
	wq = alloc_workqueue("padata_bench", 0, 0);
	if (!wq)
		goto free_objs;
	ret = 0;
	for (i = 1; i <= us[0] && !ret; i++)
		for (m = 0; m < ARRAY_SIZE(masks) && !ret; m++)
			for (j = 0; j < ARRAY_SIZE(bench_engines) && !ret; j++)
				ret = bench_one(&bench_engines[j], us[i], masks[m], objs, wq);
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
