/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet reordering metrics of RFC 4737 (Packet Reordering Metrics) and
 * RFC 5236 (Improved Packet Reordering Metrics), computed on the fly for
 * one stream of sequence numbers: no I/O, no allocation per packet.
 *
 * The caller removes duplicates first (RFC 4737 section 3.6: only the
 * first copy counts) and feeds every first copy, in arrival order, with its
 * arrival time and payload size: rm_feed(). rm_finish() flushes RFC 5236's
 * stay-back window (its RD lags the arrivals by up to DT packets), then
 * rm_summarize() gives the sample metrics, which rm_summary_add() pools
 * over several streams (flows).
 */
#ifndef PADNET_TOOLS_REORDER_METRICS_H
#define PADNET_TOOLS_REORDER_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RM_DEF_DT	64	/* RFC 5236 displacement threshold */
#define RM_DEF_BT	64	/* RFC 5236 buffer-occupancy threshold */
#define RM_DEF_HISTORY	1024	/* arrivals kept for RFC 4737's extents */
#define RM_MAX_THRESHOLD 65536

struct rm_params {
	unsigned int dt;	/* RFC 5236 3.4, DT */
	unsigned int bt;	/* RFC 5236 3.9, BT */
	unsigned int history;	/* RFC 4737 6: the sliding history window */
	uint64_t first;		/* the stream's first sequence number */
};

/* one arrival remembered for RFC 4737's extents and offsets */
struct rm_arrival {
	uint64_t seq;
	uint64_t prefix_max;	/* highest seq up to and including this one */
	double time;		/* only set where the caller was asked for it */
	uint32_t bytes;
};

struct rm_state {
	struct rm_params p;
	/* RFC 4737 */
	bool started;
	uint64_t next_exp;		/* 3.3, NextExp */
	uint64_t arrivals;		/* i of the last arrival, L at the end */
	uint64_t reordered;
	struct rm_arrival *ring;	/* arrival i at ring[i % history] */
	uint64_t evicted_max;		/* prefix_max of the last evicted one */
	uint64_t *extent_hist;		/* [e], e <= history */
	uint64_t extent_beyond;		/* j older than the history window */
	uint64_t *n_hist;		/* [n] of each reordered packet */
	double late_max, late_sum;	/* 4.3, seconds */
	uint64_t byte_max, byte_sum;	/* 4.4 */
	uint64_t last_disc;		/* 4.5: arrival index j, 0: none yet */
	double last_disc_time;
	uint64_t discontinuities, gaps, gap_max, gap_sum;
	double gap_time_max;
	uint64_t run, runs, in_order;	/* 4.6: r, x, a */
	double sum_squares;		/* 4.6: q (r*r may pass 2^64) */
	/* RFC 5236 RD, 7.1 (stay-back) */
	uint64_t *window;		/* FIFO of up to DT+1 */
	unsigned int win_head, win_len;
	uint64_t *rd_buf;		/* early arrivals, up to DT */
	unsigned int rd_buf_len;
	uint64_t ri;
	uint64_t *fd;			/* FD[-DT..DT] at fd[D + DT] */
	uint64_t rd_discarded;		/* |D| > DT, or arrived behind RI */
	/* RFC 5236 RBD, 7.2 */
	uint64_t expected;		/* E */
	uint64_t *rbd_buf;		/* B entries */
	unsigned int occupancy;		/* B */
	uint64_t *fb;			/* FB[0..BT] */
	uint64_t rbd_discarded;		/* duplicate or behind E */
};

/* The sample metrics of one stream, or of several pooled. */
struct rm_summary {
	struct rm_params p;
	uint64_t packets, reordered;		/* L and the reordered */
	uint64_t *extent_hist, extent_max, extent_beyond;
	uint64_t *n_hist, n_max;
	uint64_t offsets;			/* reordered with an extent */
	double late_max, late_sum;
	uint64_t byte_max, byte_sum;
	uint64_t discontinuities, gaps, gap_max, gap_sum;
	double gap_time_max;
	uint64_t runs, in_order;
	double sum_squares;
	uint64_t *fd, rd_discarded;
	uint64_t *fb, rbd_discarded;
};

int rm_init(struct rm_state *st, const struct rm_params *p);
void rm_free(struct rm_state *st);
bool rm_wants_time(const struct rm_state *st, uint64_t seq);
void rm_feed(struct rm_state *st, uint64_t seq, double time, uint32_t bytes);
void rm_finish(struct rm_state *st);

int rm_summary_init(struct rm_summary *sum, const struct rm_params *p);
void rm_summary_free(struct rm_summary *sum);
void rm_summarize(const struct rm_state *st, struct rm_summary *sum);
void rm_summary_add(struct rm_summary *sum, const struct rm_summary *more);

void rm_print_text(FILE *f, const char *scope, const struct rm_summary *sum);
void rm_print_json(FILE *f, const struct rm_summary *sum);

/* RFC 4737 section 6: a 32-bit counter that wraps, made 64-bit. */
struct rm_unwrap {
	bool started;
	uint64_t highest;
};

uint64_t rm_unwrap32(struct rm_unwrap *u, uint32_t counter);

#endif /* PADNET_TOOLS_REORDER_METRICS_H */
