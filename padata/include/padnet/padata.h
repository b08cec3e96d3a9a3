/* SPDX-License-Identifier: GPL-2.0 */
/*
 * padnet's padata: run objects in parallel on a set of CPUs, then hand
 * them back in the order they were submitted.
 *
 * See docs/padata.rst for the interface contract and the design.
 */
#ifndef _PADNET_PADATA_H
#define _PADNET_PADATA_H

#include <linux/cpumask.h>
#include <linux/llist.h>
#include <linux/types.h>

/*
 * Distribution kernels build the kernel's own padata in (CONFIG_PADATA=y),
 * with the same names and another API. So the symbols of this core are
 * padnet_*, and the 2010 names that callers write are macros onto them, as
 * the kernel's backports project renames what it ships next to a kernel
 * that has it too. <linux/padata.h> comes first, before the macros exist:
 * its declarations keep their own names whichever header a file includes
 * first, and its include guard makes any later #include of it a no-op.
 * A file that drives both cores defines PADNET_NO_SEED_NAMES before this
 * header and writes padnet_* for ours, padata_* for the kernel's.
 */
#include <linux/padata.h>

#ifndef PADNET_NO_SEED_NAMES
#define padata_priv		padnet_priv
#define padata_instance		padnet_instance
#define padata_alloc		padnet_alloc
#define padata_free		padnet_free
#define padata_start		padnet_start
#define padata_stop		padnet_stop
#define padata_set_cpumask	padnet_set_cpumask
#define padata_add_cpu		padnet_add_cpu
#define padata_remove_cpu	padnet_remove_cpu
#define padata_do_parallel	padnet_do_parallel
#define padata_do_serial	padnet_do_serial
#define padata_domain		padnet_domain
#define padata_alloc_domain	padnet_alloc_domain
#define padata_free_domain	padnet_free_domain
#define padata_instance_domain	padnet_instance_domain
#define padata_do_parallel_domain padnet_do_parallel_domain
#define padata_domain_idle	padnet_domain_idle
#endif

struct padnet_instance;
struct padnet_domain;
struct workqueue_struct;

/**
 * struct padnet_priv - one object submitted to a padata instance
 * @node: private to padata: links the object on a parallel or serial queue.
 * @dom: private to padata: the ordering domain that accepted the object.
 * @seq_nr: private to padata: the object's place in its domain's order.
 * @cb_cpu: private to padata: the CPU serial() runs on.
 * @parallel: called once on a CPU of the instance's mask, BHs disabled.
 * @serial: called once on @cb_cpu, BHs disabled, in its domain's order.
 *
 * Embed this in the caller's own structure and zero it before first use.
 * padata only writes the private fields when it accepts the object, so a
 * rejected object can be submitted again as it is.
 */
struct padnet_priv {
	struct llist_node node;
	struct padnet_domain *dom;
	u32 seq_nr;
	int cb_cpu;
	void (*parallel)(struct padnet_priv *padata);
	void (*serial)(struct padnet_priv *padata);
};

struct padnet_instance *padnet_alloc(const struct cpumask *cpumask,
				     struct workqueue_struct *wq);
void padnet_free(struct padnet_instance *pinst);
void padnet_start(struct padnet_instance *pinst);
void padnet_stop(struct padnet_instance *pinst);
int padnet_set_cpumask(struct padnet_instance *pinst, cpumask_var_t cpumask);
int padnet_add_cpu(struct padnet_instance *pinst, int cpu);
int padnet_remove_cpu(struct padnet_instance *pinst, int cpu);
int padnet_do_parallel(struct padnet_instance *pinst,
		       struct padnet_priv *padata, int cb_cpu);
void padnet_do_serial(struct padnet_priv *padata);
struct padnet_domain *padnet_alloc_domain(struct padnet_instance *pinst);
void padnet_free_domain(struct padnet_domain *dom);
struct padnet_domain *padnet_instance_domain(struct padnet_instance *pinst);
int padnet_do_parallel_domain(struct padnet_domain *dom,
			      struct padnet_priv *padata, int cb_cpu);
bool padnet_domain_idle(struct padnet_domain *dom);

#endif /* _PADNET_PADATA_H */
