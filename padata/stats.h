/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU counters of an instance, each written only by its own CPU,
 * summed for debugfs (and for the test hooks, which read the same sums).
 */
#ifndef _PADATA_STATS_H
#define _PADATA_STATS_H

struct padata_stats {
	unsigned long submitted;
	unsigned long completed;
	unsigned long ebusy;
	unsigned long parallel;
	unsigned long express;		/* objects that passed the queue */
	unsigned long serial_in_place;	/* serial() batches run by a releaser */
	unsigned long serial_caught_up;	/* ... by a parallel worker between objects */
	unsigned long max_depth;
};

#endif /* _PADATA_STATS_H */
