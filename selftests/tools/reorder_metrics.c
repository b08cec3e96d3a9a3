// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 4737 and RFC 5236 reordering metrics; see reorder_metrics.h.
 *
 * Section numbers in the comments are the RFCs'. Arrival indexes are
 * 1-based as in RFC 4737 4.2.2. Every per-packet step is O(1) for a packet
 * that arrives in order; a reordered one costs O(its extent) at most, and
 * RFC 5236's window scans cost O(DT) only while something is out of order.
 */

#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include "reorder_metrics.h"

/*
 * The negative control of selftests/host/seqcheck-metrics.sh builds with
 * this defined: every extent one too long. Never defined otherwise.
 */
#ifdef REORDER_METRICS_MISCOMPUTE
#define RM_EXTENT_BIAS	1
#else
#define RM_EXTENT_BIAS	0
#endif

static uint64_t *zalloc(size_t n)
{
	return calloc(n, sizeof(uint64_t));
}

int rm_init(struct rm_state *st, const struct rm_params *p)
{
	memset(st, 0, sizeof(*st));
	st->p = *p;
	st->ring = calloc(p->history, sizeof(*st->ring));
	st->extent_hist = zalloc(p->history + 2);
	st->n_hist = zalloc(p->history + 2);
	st->window = zalloc(p->dt + 1);
	st->rd_buf = zalloc(p->dt + 1);
	st->fd = zalloc(2 * (size_t)p->dt + 1);
	st->rbd_buf = zalloc(p->bt + 1);
	st->fb = zalloc(p->bt + 1);
	st->ri = p->first;
	st->expected = p->first;
	if (!st->ring || !st->extent_hist || !st->n_hist || !st->window ||
	    !st->rd_buf || !st->fd || !st->rbd_buf || !st->fb) {
		rm_free(st);
		return -1;
	}
	return 0;
}

void rm_free(struct rm_state *st)
{
	free(st->ring);
	free(st->extent_hist);
	free(st->n_hist);
	free(st->window);
	free(st->rd_buf);
	free(st->fd);
	free(st->rbd_buf);
	free(st->fb);
	memset(st, 0, sizeof(*st));
}

/*
 * Arrival times matter only at reordered packets and at sequence
 * discontinuities (the j of 4.3): the caller reads its clock for those
 * alone, not for the in-order bulk.
 */
bool rm_wants_time(const struct rm_state *st, uint64_t seq)
{
	return !st->started || seq != st->next_exp;
}

/* ---- RFC 4737 ------------------------------------------------------------ */

static struct rm_arrival *arrival(struct rm_state *st, uint64_t i)
{
	return &st->ring[i % st->p.history];
}

static uint64_t oldest_kept(const struct rm_state *st)
{
	return st->arrivals >= st->p.history ?
	       st->arrivals - st->p.history + 1 : 1;
}

static void remember_arrival(struct rm_state *st, uint64_t seq, double time,
			     uint32_t bytes)
{
	struct rm_arrival *a;
	uint64_t prev_max = st->arrivals ?
			    arrival(st, st->arrivals)->prefix_max : 0;

	st->arrivals++;
	a = arrival(st, st->arrivals);
	if (st->arrivals > st->p.history)
		st->evicted_max = a->prefix_max;
	a->seq = seq;
	a->prefix_max = st->arrivals == 1 || seq > prev_max ? seq : prev_max;
	a->time = time;
	a->bytes = bytes;
}

/*
 * 4.2.3: the smallest j < i with s[j] > s. The prefix maxima never
 * decrease, so j is the first kept arrival whose prefix maximum passes s:
 * a binary search. 0 if j lies before the history window (6: "expressed
 * as greater than the window length").
 */
static uint64_t find_discontinuity(struct rm_state *st, uint64_t i,
				   uint64_t seq)
{
	uint64_t lo = oldest_kept(st), hi = i - 1;

	if (lo > 1 && st->evicted_max > seq)
		return 0;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (arrival(st, mid)->prefix_max > seq)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* 5.3 Definition 1: how many arrivals just before i all exceed s. */
static uint64_t count_n_reordering(struct rm_state *st, uint64_t i,
				   uint64_t j, uint64_t seq)
{
	uint64_t n = 0;

	while (i - n - 1 >= j && arrival(st, i - n - 1)->seq > seq)
		n++;
	return n;
}

/* 4.4.3: payloads of the arrivals j..i-1 whose s exceeds s[i]. */
static uint64_t sum_byte_offset(struct rm_state *st, uint64_t i, uint64_t j,
				uint64_t seq)
{
	uint64_t sum = 0;

	for (uint64_t k = j; k < i; k++)
		if (arrival(st, k)->seq > seq)
			sum += arrival(st, k)->bytes;
	return sum;
}

/* 4.5.4: a new reordering discontinuity j' after j gives Gap = j' - j. */
static void note_discontinuity(struct rm_state *st, uint64_t j)
{
	double t = arrival(st, j)->time;

	if (j <= st->last_disc)	/* the same one, or nested inside it */
		return;
	st->discontinuities++;
	if (st->last_disc) {
		uint64_t gap = j - st->last_disc;

		st->gaps++;
		st->gap_sum += gap;
		if (gap > st->gap_max)
			st->gap_max = gap;
		if (t - st->last_disc_time > st->gap_time_max)
			st->gap_time_max = t - st->last_disc_time;
	}
	st->last_disc = j;
	st->last_disc_time = t;
}

static void measure_reordered(struct rm_state *st, uint64_t seq, double time)
{
	uint64_t i = st->arrivals, j = find_discontinuity(st, i, seq), e, bytes;
	double late;

	if (!j) {
		st->extent_beyond++;
		return;
	}
	e = i - j + RM_EXTENT_BIAS;
	st->extent_hist[e <= st->p.history ? e : st->p.history + 1]++;
	st->n_hist[count_n_reordering(st, i, j, seq)]++;
	late = time - arrival(st, j)->time;	/* 4.3.3 */
	st->late_sum += late;
	if (late > st->late_max)
		st->late_max = late;
	bytes = sum_byte_offset(st, i, j, seq);
	st->byte_sum += bytes;
	if (bytes > st->byte_max)
		st->byte_max = bytes;
	note_discontinuity(st, j);
}

/* 3.3 and 4.6.3, then the sample metrics of a reordered packet. */
static void classify_4737(struct rm_state *st, uint64_t seq, double time,
			  uint32_t bytes)
{
	bool in_order = !st->started || seq >= st->next_exp;

	remember_arrival(st, seq, time, bytes);
	if (in_order) {
		st->next_exp = seq + 1;
		st->started = true;
		st->run++;
		st->in_order++;
		return;
	}
	st->reordered++;
	st->sum_squares += (double)st->run * st->run;
	st->run = 0;
	st->runs++;
	measure_reordered(st, seq, time);
}

/* ---- RFC 5236 RD: 7.1, the stay-back method ----------------------------- */

static bool list_has(const uint64_t *v, unsigned int len, uint64_t x)
{
	for (unsigned int k = 0; k < len; k++)
		if (v[k] == x)
			return true;
	return false;
}

static void list_del(uint64_t *v, unsigned int *len, uint64_t x)
{
	for (unsigned int k = 0; k < *len; k++) {
		if (v[k] == x) {
			v[k] = v[--*len];
			return;
		}
	}
}

static uint64_t window_at(const struct rm_state *st, unsigned int k)
{
	return st->window[(st->win_head + k) % (st->p.dt + 1)];
}

static bool window_has(const struct rm_state *st, uint64_t x)
{
	if (st->win_len && window_at(st, 0) == x)	/* the in-order case */
		return true;
	for (unsigned int k = 1; k < st->win_len; k++)
		if (window_at(st, k) == x)
			return true;
	return false;
}

/* min and max over window and buffer; the window is not empty */
static void rd_bounds(const struct rm_state *st, uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = window_at(st, 0);
	for (unsigned int k = 1; k < st->win_len; k++) {
		uint64_t x = window_at(st, k);

		*lo = x < *lo ? x : *lo;
		*hi = x > *hi ? x : *hi;
	}
	for (unsigned int k = 0; k < st->rd_buf_len; k++) {
		*lo = st->rd_buf[k] < *lo ? st->rd_buf[k] : *lo;
		*hi = st->rd_buf[k] > *hi ? st->rd_buf[k] : *hi;
	}
}

/* Step 2, "If (window or buffer contains sequence number RI)". */
static void rd_take_window_head(struct rm_state *st)
{
	uint64_t s = window_at(st, 0);
	int64_t d = (int64_t)(st->ri - s);	/* D = RI - S */

	st->win_head = (st->win_head + 1) % (st->p.dt + 1);
	st->win_len--;
	if (d > (int64_t)st->p.dt || d < -(int64_t)st->p.dt) {
		st->rd_discarded++;	/* beyond the threshold: lost */
		return;
	}
	st->fd[d + st->p.dt]++;
	list_del(st->rd_buf, &st->rd_buf_len, st->ri);
	if (d < 0)
		st->rd_buf[st->rd_buf_len++] = s;	/* early arrival */
	st->ri++;
}

/*
 * Step 2 until one window entry is consumed. The printed algorithm steps
 * RI one by one when RI >= the minimum; where nothing left is >= RI it
 * would step forever, so then the head is taken as it is (its D > 0).
 */
static void rd_consume_one(struct rm_state *st)
{
	for (;;) {
		uint64_t lo, hi;

		if (window_has(st, st->ri) ||
		    list_has(st->rd_buf, st->rd_buf_len, st->ri)) {
			rd_take_window_head(st);
			return;
		}
		rd_bounds(st, &lo, &hi);
		if (hi < st->ri) {
			rd_take_window_head(st);
			return;
		}
		st->ri = st->ri < lo ? lo : st->ri + 1;
	}
}

/* get_next_arrival(): duplicates are gone already; a packet behind RI is. */
static void rd_arrive(struct rm_state *st, uint64_t seq)
{
	if (seq < st->ri) {
		st->rd_discarded++;
		return;
	}
	st->window[(st->win_head + st->win_len) % (st->p.dt + 1)] = seq;
	st->win_len++;
	if (st->win_len == st->p.dt + 1)	/* step 1's window is full */
		rd_consume_one(st);
}

/* ---- RFC 5236 RBD: 7.2 -------------------------------------------------- */

static bool rbd_has(const struct rm_state *st, uint64_t x)
{
	return st->occupancy && list_has(st->rbd_buf, st->occupancy, x);
}

/* Case b (and the end of case c): release what is now in order. */
static void rbd_release_in_order(struct rm_state *st)
{
	while (rbd_has(st, st->expected)) {
		list_del(st->rbd_buf, &st->occupancy, st->expected);
		st->expected++;
	}
}

static uint64_t rbd_min(const struct rm_state *st, uint64_t seq)
{
	uint64_t lo = seq;

	for (unsigned int k = 0; k < st->occupancy; k++)
		lo = st->rbd_buf[k] < lo ? st->rbd_buf[k] : lo;
	return lo;
}

/*
 * Case c with the buffer full: the expected packet is lost. "Repeat E++
 * until in_buffer(E) or E == S" is a jump to the smallest of them.
 * Where S is not reached by the release, the printed algorithm drops S
 * from the buffer it has just arrived at; 3.8 says an arrived packet
 * above E is in the buffer, so it is stored.
 */
static void rbd_give_up_expected(struct rm_state *st, uint64_t seq)
{
	st->expected = rbd_min(st, seq);
	for (;;) {
		if (st->expected == seq) {
			st->expected++;
		} else if (rbd_has(st, st->expected)) {
			list_del(st->rbd_buf, &st->occupancy, st->expected);
			st->expected++;
		} else {
			break;
		}
	}
	if (seq >= st->expected)
		st->rbd_buf[st->occupancy++] = seq;
}

static void rbd_arrive(struct rm_state *st, uint64_t seq)
{
	if (seq < st->expected || rbd_has(st, seq)) {	/* case a */
		st->rbd_discarded++;
		return;
	}
	if (seq == st->expected) {			/* case b */
		st->expected++;
		rbd_release_in_order(st);
	} else if (st->occupancy < st->p.bt) {		/* case c */
		st->rbd_buf[st->occupancy++] = seq;
	} else {
		rbd_give_up_expected(st, seq);
	}
	st->fb[st->occupancy]++;
}

/* ---- feeding and summing ------------------------------------------------- */

void rm_feed(struct rm_state *st, uint64_t seq, double time, uint32_t bytes)
{
	classify_4737(st, seq, time, bytes);
	rd_arrive(st, seq);
	rbd_arrive(st, seq);
}

/* Step 2 with get_next_arrival() returning null: drain the window. */
void rm_finish(struct rm_state *st)
{
	while (st->win_len)
		rd_consume_one(st);
}

int rm_summary_init(struct rm_summary *sum, const struct rm_params *p)
{
	memset(sum, 0, sizeof(*sum));
	sum->p = *p;
	sum->extent_hist = zalloc(p->history + 2);
	sum->n_hist = zalloc(p->history + 2);
	sum->fd = zalloc(2 * (size_t)p->dt + 1);
	sum->fb = zalloc(p->bt + 1);
	if (!sum->extent_hist || !sum->n_hist || !sum->fd || !sum->fb) {
		rm_summary_free(sum);
		return -1;
	}
	return 0;
}

void rm_summary_free(struct rm_summary *sum)
{
	free(sum->extent_hist);
	free(sum->n_hist);
	free(sum->fd);
	free(sum->fb);
	memset(sum, 0, sizeof(*sum));
}

static uint64_t highest_bin(const uint64_t *hist, size_t len)
{
	while (len && !hist[len - 1])
		len--;
	return len ? len - 1 : 0;
}

/* A summary of one stream: rm_summary_add() onto a zeroed one. */
void rm_summarize(const struct rm_state *st, struct rm_summary *sum)
{
	struct rm_summary one = {
		.p = st->p,
		.packets = st->arrivals,
		.reordered = st->reordered,
		.extent_hist = st->extent_hist,
		.extent_beyond = st->extent_beyond,
		.n_hist = st->n_hist,
		.late_max = st->late_max, .late_sum = st->late_sum,
		.byte_max = st->byte_max, .byte_sum = st->byte_sum,
		.discontinuities = st->discontinuities, .gaps = st->gaps,
		.gap_max = st->gap_max, .gap_sum = st->gap_sum,
		.gap_time_max = st->gap_time_max,
		.runs = st->runs, .in_order = st->in_order,
		.sum_squares = st->sum_squares,
		.fd = st->fd, .rd_discarded = st->rd_discarded,
		.fb = st->fb, .rbd_discarded = st->rbd_discarded,
	};

	one.extent_max = highest_bin(st->extent_hist, st->p.history + 2);
	one.n_max = highest_bin(st->n_hist, st->p.history + 2);
	one.offsets = st->reordered - st->extent_beyond;
	rm_summary_add(sum, &one);
}

static void add_hist(uint64_t *to, const uint64_t *from, size_t len)
{
	for (size_t k = 0; k < len; k++)
		to[k] += from[k];
}

#define MAX(a, b)	((a) > (b) ? (a) : (b))

/* Pool another stream's sample into sum (same parameters). */
void rm_summary_add(struct rm_summary *sum, const struct rm_summary *more)
{
	sum->packets += more->packets;
	sum->reordered += more->reordered;
	add_hist(sum->extent_hist, more->extent_hist, sum->p.history + 2);
	sum->extent_max = MAX(sum->extent_max, more->extent_max);
	sum->extent_beyond += more->extent_beyond;
	add_hist(sum->n_hist, more->n_hist, sum->p.history + 2);
	sum->n_max = MAX(sum->n_max, more->n_max);
	sum->offsets += more->offsets;
	sum->late_max = MAX(sum->late_max, more->late_max);
	sum->late_sum += more->late_sum;
	sum->byte_max = MAX(sum->byte_max, more->byte_max);
	sum->byte_sum += more->byte_sum;
	sum->discontinuities += more->discontinuities;
	sum->gaps += more->gaps;
	sum->gap_max = MAX(sum->gap_max, more->gap_max);
	sum->gap_sum += more->gap_sum;
	sum->gap_time_max = MAX(sum->gap_time_max, more->gap_time_max);
	sum->runs += more->runs;
	sum->in_order += more->in_order;
	sum->sum_squares += more->sum_squares;
	add_hist(sum->fd, more->fd, 2 * (size_t)sum->p.dt + 1);
	sum->rd_discarded += more->rd_discarded;
	add_hist(sum->fb, more->fb, sum->p.bt + 1);
	sum->rbd_discarded += more->rbd_discarded;
}

/* ---- reports --------------------------------------------------------------- */

static double ratio(double a, uint64_t b)
{
	return b ? a / (double)b : 0;
}

/* 5.3 Definition 2: packets n-reordered for this n (or more), over L. */
static double n_degree(const struct rm_summary *sum, uint64_t n)
{
	uint64_t m = 0;

	for (uint64_t k = n; k < sum->p.history + 2; k++)
		m += sum->n_hist[k];
	return ratio((double)m, sum->packets);
}

static uint64_t total(const uint64_t *hist, size_t len)
{
	uint64_t t = 0;

	for (size_t k = 0; k < len; k++)
		t += hist[k];
	return t;
}

/* "k:count" for each non-empty bin from the first (k = from + index) */
static void print_bins(FILE *f, const uint64_t *hist, size_t len,
		       long long from, uint64_t norm, bool as_json)
{
	bool first = true;

	for (size_t k = 0; k < len; k++) {
		if (!hist[k])
			continue;
		if (as_json && norm)
			fprintf(f, "%s\"%lld\":%.6f", first ? "" : ",",
				(long long)k + from, ratio((double)hist[k], norm));
		else if (as_json)
			fprintf(f, "%s\"%lld\":%" PRIu64, first ? "" : ",",
				(long long)k + from, hist[k]);
		else if (norm)
			fprintf(f, " %lld:%.6f", (long long)k + from,
				ratio((double)hist[k], norm));
		else
			fprintf(f, " %lld:%" PRIu64, (long long)k + from,
				hist[k]);
		first = false;
	}
}

/*
 * Text: one line per group, keys and values in pairs. No key is one of
 * the words the scenarios and bench parse from the first three lines.
 */
void rm_print_text(FILE *f, const char *scope, const struct rm_summary *s)
{
	uint64_t hl = s->p.history + 2, nd = total(s->fd, 2 * s->p.dt + 1);
	uint64_t nb = total(s->fb, s->p.bt + 1);

	fprintf(f, "rfc4737 %s packets %" PRIu64 " reorders %" PRIu64
		" ratio %.6f extent_max %" PRIu64 " extent_beyond_history %"
		PRIu64 " late_time_max_seconds %.6f byte_offset_max %" PRIu64
		" n_reordering_max %" PRIu64 " degree_1 %.6f degree_3 %.6f\n",
		scope, s->packets, s->reordered, ratio((double)s->reordered,
		s->packets), s->extent_max, s->extent_beyond, s->late_max,
		s->byte_max, s->n_max, n_degree(s, 1), n_degree(s, 3));
	fprintf(f, "rfc4737 %s discontinuities %" PRIu64 " gaps %" PRIu64
		" gap_max %" PRIu64 " gap_time_max_seconds %.6f free_runs %"
		PRIu64 " free_in_order %" PRIu64 " free_sum_squares %.0f\n",
		scope, s->discontinuities, s->gaps, s->gap_max, s->gap_time_max,
		s->runs, s->in_order, s->sum_squares);
	fprintf(f, "rfc4737 %s extent_histogram", scope);
	print_bins(f, s->extent_hist, hl, 0, 0, false);
	fprintf(f, "\nrfc4737 %s n_histogram", scope);
	print_bins(f, s->n_hist, hl, 0, 0, false);
	fprintf(f, "\nrfc5236 %s rd dt %u n %" PRIu64 " discarded %" PRIu64,
		scope, s->p.dt, nd, s->rd_discarded);
	print_bins(f, s->fd, 2 * s->p.dt + 1, -(long long)s->p.dt, nd, false);
	fprintf(f, "\nrfc5236 %s rbd bt %u n %" PRIu64 " discarded %" PRIu64,
		scope, s->p.bt, nb, s->rbd_discarded);
	print_bins(f, s->fb, s->p.bt + 1, 0, nb, false);
	fprintf(f, "\n");
}

static void print_json_4737(FILE *f, const struct rm_summary *s)
{
	uint64_t hl = s->p.history + 2;

	fprintf(f, "\"rfc4737\":{\"packets\":%" PRIu64 ",\"reordered\":%"
		PRIu64 ",\"ratio\":%.6f,\"extent\":{\"max\":%" PRIu64
		",\"beyond_history\":%" PRIu64 ",\"history\":%u,\"histogram\":{",
		s->packets, s->reordered, ratio((double)s->reordered, s->packets),
		s->extent_max, s->extent_beyond, s->p.history);
	print_bins(f, s->extent_hist, hl, 0, 0, true);
	fprintf(f, "}},\"late_time_seconds\":{\"max\":%.6f,\"mean\":%.6f},"
		"\"byte_offset\":{\"max\":%" PRIu64 ",\"mean\":%.3f},"
		"\"n_reordering\":{\"max\":%" PRIu64 ",\"degree_1\":%.6f,"
		"\"degree_3\":%.6f,\"histogram\":{", s->late_max,
		ratio(s->late_sum, s->offsets), s->byte_max,
		ratio((double)s->byte_sum, s->offsets), s->n_max,
		n_degree(s, 1), n_degree(s, 3));
	print_bins(f, s->n_hist, hl, 0, 0, true);
	fprintf(f, "}},\"gaps\":{\"discontinuities\":%" PRIu64 ",\"count\":%"
		PRIu64 ",\"max\":%" PRIu64 ",\"mean\":%.3f,\"time_max_seconds\":"
		"%.6f},\"free_runs\":{\"runs\":%" PRIu64 ",\"in_order\":%" PRIu64
		",\"sum_squares\":%.0f}}", s->discontinuities, s->gaps,
		s->gap_max, ratio((double)s->gap_sum, s->gaps), s->gap_time_max,
		s->runs, s->in_order, s->sum_squares);
}

static void print_json_5236(FILE *f, const struct rm_summary *s)
{
	uint64_t nd = total(s->fd, 2 * s->p.dt + 1);
	uint64_t nb = total(s->fb, s->p.bt + 1);

	fprintf(f, "\"rfc5236\":{\"rd\":{\"dt\":%u,\"n\":%" PRIu64
		",\"discarded\":%" PRIu64 ",\"frequency\":{", s->p.dt, nd,
		s->rd_discarded);
	print_bins(f, s->fd, 2 * s->p.dt + 1, -(long long)s->p.dt, 0, true);
	fprintf(f, "},\"density\":{");
	print_bins(f, s->fd, 2 * s->p.dt + 1, -(long long)s->p.dt, nd, true);
	fprintf(f, "}},\"rbd\":{\"bt\":%u,\"n\":%" PRIu64 ",\"discarded\":%"
		PRIu64 ",\"frequency\":{", s->p.bt, nb, s->rbd_discarded);
	print_bins(f, s->fb, s->p.bt + 1, 0, 0, true);
	fprintf(f, "},\"density\":{");
	print_bins(f, s->fb, s->p.bt + 1, 0, nb, true);
	fprintf(f, "}}}");
}

/* The two metric objects, "rfc4737":{...},"rfc5236":{...}, no braces. */
void rm_print_json(FILE *f, const struct rm_summary *sum)
{
	print_json_4737(f, sum);
	fputc(',', f);
	print_json_5236(f, sum);
}

/*
 * RFC 4737 section 6's rollover mitigation: a jump of more than half the
 * counter's range is a wrap, and numbers are kept in a wider precision.
 */
uint64_t rm_unwrap32(struct rm_unwrap *u, uint32_t counter)
{
	int32_t delta;
	uint64_t v;

	if (!u->started) {
		u->started = true;
		u->highest = counter;
		return counter;
	}
	delta = (int32_t)(counter - (uint32_t)u->highest);
	if (delta < 0 && (uint64_t)-(int64_t)delta > u->highest)
		return counter;		/* before the first epoch: as is */
	v = u->highest + (int64_t)delta;
	if (v > u->highest)
		u->highest = v;
	return v;
}
