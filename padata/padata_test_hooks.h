/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-only entry points of padata.ko, exported in the PADNET_TEST symbol
 * namespace. Not part of the public interface.
 */
#ifndef _PADATA_TEST_HOOKS_H
#define _PADATA_TEST_HOOKS_H

#include <padnet/padata.h>

/* Per-CPU counters of an instance (internal.h); summed by the hook below. */
struct padata_stats {
	unsigned long submitted;
	unsigned long completed;
	unsigned long ebusy;
	unsigned long parallel;
	unsigned long max_depth;
};

struct padata_instance *padnet_alloc_limit(const struct cpumask *cpumask,
					   struct workqueue_struct *wq,
					   unsigned int limit);
int padnet_test_preset_seq(struct padata_instance *pinst, u32 seq);
void padnet_test_set_reset_hook(struct padata_instance *pinst,
				void (*hook)(struct padata_instance *pinst,
					     void *arg),
				void *arg);
void padnet_test_read_stats(struct padata_instance *pinst,
			    struct padata_stats *sum, unsigned long *parallel);
int padnet_test_debugfs_id(struct padata_instance *pinst);

#endif /* _PADATA_TEST_HOOKS_H */
