/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-only entry points of padata.ko, exported in the PADNET_TEST symbol
 * namespace. Not part of the public interface: they exist only in test
 * builds (PADNET_TEST=y, which defines PADNET_TEST_HOOKS), and a module
 * built for the demo or the benchmark has none of them.
 */
#ifndef _PADATA_TEST_HOOKS_H
#define _PADATA_TEST_HOOKS_H

#include <padnet/padata.h>

#include "stats.h"

/* Where the core calls the hook set with padnet_test_set_hook(). */
enum padnet_test_point {
	PADNET_TP_WALK,		/* a token holder starts a walk at @padata */
	PADNET_TP_RELEASE,	/* it is about to release @padata */
	PADNET_TP_NEXT,		/* it released one, and next tries the next slot */
	PADNET_TP_SEQ,		/* a submitter read @done, not yet @seq */
	PADNET_TP_RESET,	/* a new CPU set is published (mutex held) */
};

typedef void (*padnet_test_hook_t)(struct padata_instance *pinst,
				   enum padnet_test_point point,
				   struct padata_priv *padata, void *arg);

/* Faults the core injects into its own release path. */
enum padnet_test_fault {
	PADNET_FAULT_NONE,
	PADNET_FAULT_SWAP,	/* release the chosen object after the next one */
	PADNET_FAULT_DROP,	/* hold the chosen object until the fault is cleared */
	PADNET_FAULT_DELAY,	/* stop the walk at the chosen object for a while */
	PADNET_FAULT_NO_EXPRESS, /* until disarmed: no object passes the queue */
	PADNET_FAULT_NO_SLICE,	/* until disarmed: a worker runs its whole queue */
};

#ifdef PADNET_TEST_HOOKS
struct padata_instance *padnet_alloc_limit(const struct cpumask *cpumask,
					   struct workqueue_struct *wq,
					   unsigned int limit);
int padnet_test_preset_seq(struct padata_instance *pinst, u32 seq);
void padnet_test_set_hook(struct padata_instance *pinst,
			  padnet_test_hook_t hook, void *arg);
int padnet_test_set_fault(struct padata_instance *pinst,
			  enum padnet_test_fault fault, unsigned int nth,
			  unsigned int delay_ms);
void padnet_test_read_stats(struct padata_instance *pinst,
			    struct padata_stats *sum, unsigned long *parallel);
int padnet_test_debugfs_id(struct padata_instance *pinst);
#endif

#endif /* _PADATA_TEST_HOOKS_H */
