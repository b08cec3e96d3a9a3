// SPDX-License-Identifier: GPL-2.0
/*
 * padata debugfs: /sys/kernel/debug/padata/<id>/{cpumask,stats}.
 *
 * Counters are per CPU and summed when read, so the fast paths never write
 * a shared line for them; a read taken under load is not a snapshot.
 */

#include <linux/debugfs.h>
#include <linux/idr.h>
#include <linux/seq_file.h>

#include "internal.h"

static struct dentry *padata_debugfs_root;
static DEFINE_IDA(padata_ida);

static int padata_cpumask_show(struct seq_file *m, void *v)
{
	struct padata_instance *pinst = m->private;
	const struct padata_cpus *cpus;

	mutex_lock(&pinst->lock);
	seq_printf(m, "user %*pbl\n", cpumask_pr_args(pinst->user_mask));
	cpus = rcu_dereference_protected(pinst->cpus,
					 lockdep_is_held(&pinst->lock));
	seq_printf(m, "parallel %*pbl\n", cpumask_pr_args(cpus->mask));
	mutex_unlock(&pinst->lock);
	return 0;
}

/*
 * Sums an instance's per-CPU counters into @sum (max_depth is the maximum
 * instead) and, unless @parallel is NULL, stores nr_cpu_ids entries of
 * parallel() calls per CPU there. The stats file prints these values.
 */
void padnet_stats_sum(struct padata_instance *pinst, struct padata_stats *sum,
		      unsigned long *parallel)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct padata_stats *s = per_cpu_ptr(pinst->stats, cpu);

		sum->submitted += READ_ONCE(s->submitted);
		sum->completed += READ_ONCE(s->completed);
		sum->ebusy += READ_ONCE(s->ebusy);
		sum->parallel += READ_ONCE(s->parallel);
		sum->express += READ_ONCE(s->express);
		sum->serial_in_place += READ_ONCE(s->serial_in_place);
		sum->serial_caught_up += READ_ONCE(s->serial_caught_up);
		sum->max_depth = max(sum->max_depth, READ_ONCE(s->max_depth));
		if (parallel)
			parallel[cpu] = READ_ONCE(s->parallel);
	}
}

static int padata_stats_show(struct seq_file *m, void *v)
{
	struct padata_instance *pinst = m->private;
	struct padata_stats sum;
	int cpu;

	padnet_stats_sum(pinst, &sum, NULL);
	seq_printf(m, "submitted %lu\n", sum.submitted);
	seq_printf(m, "completed %lu\n", sum.completed);
	seq_printf(m, "in_flight %lu\n", sum.submitted - sum.completed);
	seq_printf(m, "ebusy %lu\n", sum.ebusy);
	seq_printf(m, "express %lu\n", sum.express);
	seq_printf(m, "serial_in_place %lu\n", sum.serial_in_place);
	seq_printf(m, "serial_caught_up %lu\n", sum.serial_caught_up);
	seq_printf(m, "max_reorder_depth %lu\n", sum.max_depth);
	seq_printf(m, "limit %u\n", pinst->limit);
	for_each_possible_cpu(cpu)
		seq_printf(m, "parallel_cpu%d %lu\n", cpu,
			   READ_ONCE(per_cpu_ptr(pinst->stats, cpu)->parallel));
	for_each_possible_cpu(cpu)
		seq_printf(m, "serial_cpu%d %lu\n", cpu,
			   READ_ONCE(per_cpu_ptr(pinst->stats, cpu)->completed));
	return 0;
}

/*
 * The files are created "unsafe" so that their own file_operations, with
 * read_iter, are installed at open (the full proxy has no read_iter, and
 * kernel_read() needs it). debugfs pins the file during open; each read
 * pins it the way the full proxy would, so debugfs_remove() waits for
 * readers and a read after it fails instead of touching a freed instance.
 */
static ssize_t padata_debugfs_read_iter(struct kiocb *iocb,
					struct iov_iter *to)
{
	struct dentry *dentry = iocb->ki_filp->f_path.dentry;
	ssize_t ret;

	ret = debugfs_file_get(dentry);
	if (ret)
		return ret;
	ret = seq_read_iter(iocb, to);
	debugfs_file_put(dentry);
	return ret;
}

static int padata_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, padata_stats_show, inode->i_private);
}

static int padata_cpumask_open(struct inode *inode, struct file *file)
{
	return single_open(file, padata_cpumask_show, inode->i_private);
}

static const struct file_operations padata_stats_fops = {
	.owner = THIS_MODULE,
	.open = padata_stats_open,
	.read_iter = padata_debugfs_read_iter,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations padata_cpumask_fops = {
	.owner = THIS_MODULE,
	.open = padata_cpumask_open,
	.read_iter = padata_debugfs_read_iter,
	.llseek = seq_lseek,
	.release = single_release,
};

/* debugfs is best effort: an instance works without its directory. */
void padnet_debugfs_add(struct padata_instance *pinst)
{
	char name[16];

	pinst->id = ida_alloc(&padata_ida, GFP_KERNEL);
	if (pinst->id < 0 || IS_ERR_OR_NULL(padata_debugfs_root))
		return;
	snprintf(name, sizeof(name), "%d", pinst->id);
	pinst->debugfs = debugfs_create_dir(name, padata_debugfs_root);
	if (IS_ERR(pinst->debugfs)) {
		pinst->debugfs = NULL;
		return;
	}
	debugfs_create_file_unsafe("cpumask", 0444, pinst->debugfs, pinst,
				   &padata_cpumask_fops);
	debugfs_create_file_unsafe("stats", 0444, pinst->debugfs, pinst,
				   &padata_stats_fops);
}

void padnet_debugfs_remove(struct padata_instance *pinst)
{
	debugfs_remove(pinst->debugfs);
	if (pinst->id >= 0)
		ida_free(&padata_ida, pinst->id);
}

void padnet_debugfs_init(void)
{
	padata_debugfs_root = debugfs_create_dir("padata", NULL);
}

void padnet_debugfs_exit(void)
{
	debugfs_remove(padata_debugfs_root);
	ida_destroy(&padata_ida);
}
