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

struct padata_instance;
struct workqueue_struct;

/**
 * struct padata_priv - one object submitted to a padata instance
 * @node: private to padata: links the object on a parallel or serial queue.
 * @pinst: private to padata: the instance that accepted the object.
 * @seq_nr: private to padata: the object's place in submission order.
 * @cb_cpu: private to padata: the CPU serial() runs on.
 * @parallel: called once on a CPU of the instance's mask, BHs disabled.
 * @serial: called once on @cb_cpu, BHs disabled, in submission order.
 *
 * Embed this in the caller's own structure and zero it before first use.
 * padata only writes the private fields when it accepts the object, so a
 * rejected object can be submitted again as it is.
 */
struct padata_priv {
	struct llist_node node;
	struct padata_instance *pinst;
	u32 seq_nr;
	int cb_cpu;
	void (*parallel)(struct padata_priv *padata);
	void (*serial)(struct padata_priv *padata);
};

struct padata_instance *padata_alloc(const struct cpumask *cpumask,
				     struct workqueue_struct *wq);
void padata_free(struct padata_instance *pinst);
void padata_start(struct padata_instance *pinst);
void padata_stop(struct padata_instance *pinst);
int padata_set_cpumask(struct padata_instance *pinst, cpumask_var_t cpumask);
int padata_add_cpu(struct padata_instance *pinst, int cpu);
int padata_remove_cpu(struct padata_instance *pinst, int cpu);
int padata_do_parallel(struct padata_instance *pinst,
		       struct padata_priv *padata, int cb_cpu);
void padata_do_serial(struct padata_priv *padata);

#endif /* _PADNET_PADATA_H */
