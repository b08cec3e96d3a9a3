// SPDX-License-Identifier: GPL-2.0
/*
 * seqcheck - UDP sequence checker for the padnet test scenarios.
 *
 *   seqcheck send ADDR PORT COUNT [SIZE] [--rate PPS] [--sizes MIN-MAX]
 *                 [--flows N] [--flow-ports] [--gso N] [--raw-csum good|bad]
 *   seqcheck recv PORT COUNT [--timeout SEC] [--max-loss N] [--sizes MIN-MAX]
 *                 [--flows N] [--dt N] [--bt N] [--history N] [--json]
 *   seqcheck metrics [--first N] [--dt N] [--bt N] [--history N] [--wrap32]
 *                 [--json] < ARRIVALS
 *   seqcheck selftest
 *
 * Each datagram starts with a 64-bit sequence field (network order), a
 * 32-bit magic and the 32-bit datagram size, followed by a pattern derived
 * from the sequence field, so that the receiver detects reordering,
 * duplicates, loss and corrupted payloads. The field's high 32 bits are
 * the flow, its low 32 bits the flow's sequence number: with one flow (the
 * default) it is the plain sequence number 0..COUNT-1 it always was, so
 * old and new binaries read each other's datagrams. With --flows N,
 * datagram n goes to flow n % N as that flow's number n / N; with
 * --flow-ports as well, each flow is sent from a socket of its own (its own
 * source port: a flow of its own to a tunnel that hashes flows), still in
 * the order of n. With --sizes, each
 * datagram's size is a pseudo-random function of its sequence number
 * between MIN and MAX (seq_size()), and a receiver given the same range
 * also counts a datagram of any other length as corrupt. With --gso N, the
 * sender hands the kernel N datagrams at a time in one UDP GSO send
 * (UDP_SEGMENT), so that a device under test sees one large packet. With
 * --raw-csum (IPv4), each datagram goes out of a raw socket with the UDP
 * checksum computed here, right or deliberately wrong: a device under test
 * sees a complete checksum (no offload), and a receiver that checks it
 * must count the wrong ones as errors, not deliver them.
 *
 * The receiver prints
 *
 *   received N lost N duplicates N reordered N
 *   corrupt N invalid N socket_drops N
 *   first_to_last_seconds S
 *
 * then the RFC 4737 and RFC 5236 metrics in total and, with several flows,
 * per flow (reorder_metrics.c), or all of it as one JSON object (--json),
 * and exits 0 only if nothing was reordered, duplicated or corrupted and at
 * most --max-loss (default 0) datagrams were lost; 1 otherwise; 2 on usage
 * or system errors. "reordered" counts datagrams whose sequence number is
 * lower than the highest seen before them in their flow (and not seen
 * before: a repeat is a duplicate only): RFC 4737's Type-P-Reordered.
 * With several flows, "interflow reorders" counts the same over the
 * stream as sent, datagram n of all flows: what keeping each flow's order
 * alone allows, reported and not judged.
 * "invalid" datagrams (foreign: bad magic, short, a flow >= N or a
 * sequence number beyond the flow's share of COUNT) are ignored and
 * reported, not judged. "metrics" computes the same metrics on sequence
 * numbers read from its input, for the tests and for other sources.
 *
 * The classification is seq_account(), which both the receiver and the
 * selftest call on raw datagram bytes; the selftest is the negative
 * control that shows the checker can fail.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <arpa/inet.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/sock_diag.h>

#include "pace.h"
#include "reorder_metrics.h"

#define SEQ_MAGIC	0x50445351u	/* "PDSQ" */
#define SEQ_HDR_LEN	16		/* seq (8), magic (4), size (4) */
#define SEQ_MIN_SIZE	SEQ_HDR_LEN
#define SEQ_MAX_SIZE	65507		/* the largest IPv4 UDP payload */
#define SEQ_DEF_SIZE	64
#define SEQ_MAX_COUNT	4294967296ULL	/* 2^32 */
#define SEQ_DEF_TIMEOUT	5
#define SEQ_RCVBUF	(16 << 20)
#define SEQ_MAX_FLOWS	1024
#define SEQ_FLOW_SHIFT	32		/* flow in the field's high half */
#define SEQ_MAX_GSO	64		/* Linux 6.1's UDP_MAX_SEGMENTS */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- datagram format ---------------------------------------------------- */

static uint8_t seq_pattern(uint64_t seq, size_t i)
{
	return (uint8_t)(seq * 131 + i * 7 + (seq >> 8));
}

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/*
 * The size of datagram number seq under --sizes MIN-MAX: splitmix64 of the
 * sequence number, so that sender and receiver agree without state and
 * neighbours differ.
 */
static size_t seq_size(uint64_t seq, size_t min, size_t max)
{
	uint64_t z = seq + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return min + (size_t)(z % (max - min + 1));
}

/* Build datagram number seq of size bytes (size >= SEQ_MIN_SIZE) in buf. */
static void seq_build(uint8_t *buf, size_t size, uint64_t seq)
{
	put_be64(buf, seq);
	put_be32(buf + 8, SEQ_MAGIC);
	put_be32(buf + 12, (uint32_t)size);
	for (size_t i = SEQ_HDR_LEN; i < size; i++)
		buf[i] = seq_pattern(seq, i);
}

/* ---- the checker: no I/O ------------------------------------------------ */

/* What the receiver follows per flow: its own sequence space. */
struct seq_flow {
	uint64_t received, duplicates, reordered;
	uint64_t highest;	/* highest seq seen so far, if any_seen */
	bool any_seen;
	struct rm_state rm;	/* RFC 4737 / 5236 metrics */
};

struct seq_state {
	uint64_t count;		/* datagrams expected, over all flows */
	uint8_t *seen;		/* bitmap of count bits, bit seq * nflows + flow */
	uint64_t received;	/* distinct valid sequence numbers */
	uint64_t duplicates;
	uint64_t reordered;
	uint64_t interflow;	/* reordered in the stream of all flows */
	uint64_t highest;	/* the highest datagram n seen, if received */
	uint64_t corrupt;	/* right magic and seq, wrong size or payload */
	uint64_t invalid;	/* foreign datagrams, ignored */
	size_t size_min, size_max;	/* --sizes; 0: any size */
	uint32_t nflows;
	struct seq_flow *flow;
};

enum seq_class {
	SEQ_IN_ORDER,
	SEQ_REORDERED,
	SEQ_DUPLICATE,
	SEQ_CORRUPT,
	SEQ_INVALID,
};

static const char *const seq_class_name[] = {
	[SEQ_IN_ORDER] = "in order",
	[SEQ_REORDERED] = "reordered",
	[SEQ_DUPLICATE] = "duplicate",
	[SEQ_CORRUPT] = "corrupt",
	[SEQ_INVALID] = "invalid",
};

static const struct rm_params seq_def_params = {
	.dt = RM_DEF_DT, .bt = RM_DEF_BT, .history = RM_DEF_HISTORY,
};

static void seq_free(struct seq_state *st)
{
	for (uint32_t f = 0; st->flow && f < st->nflows; f++)
		rm_free(&st->flow[f].rm);
	free(st->flow);
	free(st->seen);
	st->flow = NULL;
	st->seen = NULL;
}

static int seq_init_flows(struct seq_state *st, uint64_t count,
			  uint32_t nflows, const struct rm_params *p)
{
	memset(st, 0, sizeof(*st));
	st->count = count;
	st->nflows = nflows;
	st->seen = calloc(count / 8 + 1, 1);
	st->flow = calloc(nflows, sizeof(*st->flow));
	if (!st->seen || !st->flow) {
		seq_free(st);
		return -1;
	}
	for (uint32_t f = 0; f < nflows; f++) {
		if (rm_init(&st->flow[f].rm, p)) {
			st->nflows = f;
			seq_free(st);
			return -1;
		}
	}
	return 0;
}

static int seq_init(struct seq_state *st, uint64_t count)
{
	return seq_init_flows(st, count, 1, &seq_def_params);
}

/* Datagrams flow f expects: its share of count, the first ones one more. */
static uint64_t flow_expected(const struct seq_state *st, uint32_t f)
{
	return st->count / st->nflows + (f < st->count % st->nflows);
}

static bool payload_intact(const struct seq_state *st, const uint8_t *buf,
			   size_t len, uint64_t field)
{
	if (get_be32(buf + 12) != len ||
	    (st->size_max && len != seq_size(field, st->size_min, st->size_max)))
		return false;
	for (size_t i = SEQ_HDR_LEN; i < len; i++)
		if (buf[i] != seq_pattern(field, i))
			return false;
	return true;
}

/* A first copy, in flow order or not: both counts and the RFC metrics. */
static enum seq_class account_first_copy(struct seq_flow *fl, uint64_t seq,
					 size_t len)
{
	double t = rm_wants_time(&fl->rm, seq) ? pace_now() : 0;
	bool late = fl->any_seen && seq < fl->highest;

	rm_feed(&fl->rm, seq, t, (uint32_t)len);
	fl->received++;
	if (late) {
		fl->reordered++;
		return SEQ_REORDERED;
	}
	fl->highest = seq;
	fl->any_seen = true;
	return SEQ_IN_ORDER;
}

/* Classify one received datagram and account for it. */
static enum seq_class seq_account(struct seq_state *st, const uint8_t *buf,
				  size_t len)
{
	uint64_t field, seq, bit;
	enum seq_class c;
	uint32_t f;

	if (len < SEQ_HDR_LEN || get_be32(buf + 8) != SEQ_MAGIC) {
		st->invalid++;
		return SEQ_INVALID;
	}
	field = get_be64(buf);
	f = (uint32_t)(field >> SEQ_FLOW_SHIFT);
	seq = field & UINT32_MAX;
	bit = seq * st->nflows + f;
	if (f >= st->nflows || bit >= st->count) {
		st->invalid++;
		return SEQ_INVALID;
	}
	if (!payload_intact(st, buf, len, field)) {
		st->corrupt++;
		return SEQ_CORRUPT;
	}
	if (st->seen[bit / 8] & (1u << (bit % 8))) {
		st->duplicates++;
		st->flow[f].duplicates++;
		return SEQ_DUPLICATE;
	}
	st->seen[bit / 8] |= 1u << (bit % 8);
	if (st->received && bit < st->highest)
		st->interflow++;
	else
		st->highest = bit;
	st->received++;
	c = account_first_copy(&st->flow[f], seq, len);
	if (c == SEQ_REORDERED)
		st->reordered++;
	return c;
}

static uint64_t seq_lost(const struct seq_state *st)
{
	return st->count - st->received;
}

static bool seq_passed(const struct seq_state *st, uint64_t max_loss)
{
	return st->reordered == 0 && st->duplicates == 0 &&
	       st->corrupt == 0 && seq_lost(st) <= max_loss;
}

static void seq_report(FILE *f, const struct seq_state *st,
		       uint64_t socket_drops)
{
	fprintf(f, "received %" PRIu64 " lost %" PRIu64 " duplicates %" PRIu64
		" reordered %" PRIu64 "\n", st->received, seq_lost(st),
		st->duplicates, st->reordered);
	fprintf(f, "corrupt %" PRIu64 " invalid %" PRIu64
		" socket_drops %" PRIu64 "\n", st->corrupt, st->invalid,
		socket_drops);
}

/* The RFC metrics of every flow, pooled (RFC 5236's windows flushed). */
static int summarize_flows(struct seq_state *st, struct rm_summary *all)
{
	if (rm_summary_init(all, &st->flow[0].rm.p))
		return -1;
	for (uint32_t f = 0; f < st->nflows; f++) {
		rm_finish(&st->flow[f].rm);
		rm_summarize(&st->flow[f].rm, all);
	}
	return 0;
}

/* One flow's own metrics into a fresh summary, for the per-flow report. */
static int summarize_flow(const struct seq_flow *fl, struct rm_summary *one)
{
	if (rm_summary_init(one, &fl->rm.p))
		return -1;
	rm_summarize(&fl->rm, one);
	return 0;
}

/*
 * After the three lines of seq_report() and first_to_last_seconds: the
 * metrics in total and, with several flows, each flow's counts and
 * metrics. Scripts parse the first three lines; these come after them.
 */
static int report_metrics_text(FILE *out, struct seq_state *st)
{
	struct rm_summary sum;
	char scope[24];

	if (summarize_flows(st, &sum))
		return -1;
	rm_print_text(out, "total", &sum);
	rm_summary_free(&sum);
	if (st->nflows > 1)
		fprintf(out, "interflow reorders %" PRIu64 "\n", st->interflow);
	for (uint32_t f = 0; st->nflows > 1 && f < st->nflows; f++) {
		const struct seq_flow *fl = &st->flow[f];

		fprintf(out, "flow %u expected %" PRIu64 " got %" PRIu64
			" missing %" PRIu64 " repeats %" PRIu64 " reorders %"
			PRIu64 "\n", f, flow_expected(st, f), fl->received,
			flow_expected(st, f) - fl->received, fl->duplicates,
			fl->reordered);
		if (summarize_flow(fl, &sum))
			return -1;
		snprintf(scope, sizeof(scope), "flow%u", f);
		rm_print_text(out, scope, &sum);
		rm_summary_free(&sum);
	}
	return 0;
}

struct seq_run {		/* what recv knows beyond the checker */
	uint64_t socket_drops, max_loss;
	double seconds;
};

static int report_flows_json(FILE *out, struct seq_state *st)
{
	struct rm_summary sum;

	fprintf(out, ",\"per_flow\":[");
	for (uint32_t f = 0; f < st->nflows; f++) {
		const struct seq_flow *fl = &st->flow[f];

		if (summarize_flow(fl, &sum))
			return -1;
		fprintf(out, "%s{\"flow\":%u,\"expected\":%" PRIu64
			",\"received\":%" PRIu64 ",\"lost\":%" PRIu64
			",\"duplicates\":%" PRIu64 ",\"reordered\":%" PRIu64 ",",
			f ? "," : "", f, flow_expected(st, f), fl->received,
			flow_expected(st, f) - fl->received, fl->duplicates,
			fl->reordered);
		rm_print_json(out, &sum);
		fputc('}', out);
		rm_summary_free(&sum);
	}
	fprintf(out, "]");
	return 0;
}

/* Everything recv knows as one JSON object (--json), on one line. */
static int report_json(FILE *out, struct seq_state *st,
		       const struct seq_run *run)
{
	struct rm_summary sum;

	if (summarize_flows(st, &sum))
		return -1;
	fprintf(out, "{\"version\":1,\"count\":%" PRIu64 ",\"flows\":%u,"
		"\"received\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"duplicates\":%"
		PRIu64 ",\"reordered\":%" PRIu64 ",\"corrupt\":%" PRIu64
		",\"invalid\":%" PRIu64 ",\"socket_drops\":%" PRIu64
		",\"first_to_last_seconds\":%.6f,\"max_loss\":%" PRIu64
		",\"pass\":%s,\"interflow_reorders\":%" PRIu64 ",\"total\":{",
		st->count, st->nflows, st->received, seq_lost(st),
		st->duplicates, st->reordered, st->corrupt, st->invalid,
		run->socket_drops, run->seconds, run->max_loss,
		seq_passed(st, run->max_loss) ? "true" : "false",
		st->interflow);
	rm_print_json(out, &sum);
	fputc('}', out);
	rm_summary_free(&sum);
	if (report_flows_json(out, st))
		return -1;
	fprintf(out, "}\n");
	return 0;
}

/* ---- command line helpers ---------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: seqcheck send ADDR PORT COUNT [SIZE] [--rate PPS] [--sizes MIN-MAX]\n"
		"                     [--flows N] [--flow-ports] [--gso N] [--raw-csum good|bad]\n"
		"       seqcheck recv PORT COUNT [--timeout SEC] [--max-loss N] [--sizes MIN-MAX]\n"
		"                     [--flows N] [--dt N] [--bt N] [--history N] [--json]\n"
		"       seqcheck metrics [--first N] [--dt N] [--bt N] [--history N]\n"
		"                     [--wrap32] [--json] < ARRIVALS\n"
		"       seqcheck selftest\n"
		"       seqcheck --help\n"
		"\n"
		"ADDR is a numeric IPv4 or IPv6 address (fe80::1%%IFACE allowed).\n"
		"SIZE is the UDP payload size, %d..%d (default %d).\n"
		"--sizes: each datagram's size is a function of its sequence\n"
		"number between MIN and MAX (both in the SIZE range; instead of\n"
		"SIZE); recv then also checks every datagram's length.\n"
		"PPS paces the sender (default: as fast as possible).\n"
		"--flows N (1..%d, default 1): datagram n goes to flow n %% N as its\n"
		"number n / N; give recv the sender's N. recv reports each flow,\n"
		"and as \"interflow reorders\" how far the flows came out of n's order.\n"
		"--flow-ports (not with --gso): each flow from its own socket, so\n"
		"its own source port.\n"
		"--gso N (1..%d, not with --sizes): send N datagrams at a time, in\n"
		"one UDP GSO send (UDP_SEGMENT); N * SIZE at most %d.\n"
		"--raw-csum good|bad (IPv4, not with --gso or --flow-ports): send\n"
		"from a raw socket, the UDP checksum right, or wrong on purpose.\n"
		"SEC is how long recv waits for a datagram before giving up\n"
		"(default %d; the clock restarts at every datagram).\n"
		"--max-loss N: lost datagrams still accepted (default 0).\n"
		"--dt, --bt: RFC 5236's displacement and buffer-occupancy\n"
		"thresholds (default %d, %d); --history: arrivals kept for RFC\n"
		"4737's extents (default %d); --json: one JSON object instead of text.\n"
		"metrics reads one arrival a line, \"SEQ [SECONDS [BYTES]]\", in\n"
		"arrival order (--first: the first number sent, default 0;\n"
		"--wrap32: SEQ is a 32-bit counter that wraps).\n"
		"\n"
		"Exit status: 0 pass (recv: nothing reordered, duplicated or corrupt\n"
		"and lost <= --max-loss; send: all sent; metrics: report printed),\n"
		"1 fail, 2 usage or system error. See seqcheck(1).\n",
		SEQ_MIN_SIZE, SEQ_MAX_SIZE, SEQ_DEF_SIZE, SEQ_MAX_FLOWS,
		SEQ_MAX_GSO, SEQ_MAX_SIZE, SEQ_DEF_TIMEOUT, RM_DEF_DT, RM_DEF_BT, RM_DEF_HISTORY);
}

static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v,
		     const char *what)
{
	unsigned long long x;
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		goto bad;
	x = strtoull(s, &end, 10);
	if (errno || *end || x < min || x > max)
		goto bad;
	*v = x;
	return 0;
bad:
	fprintf(stderr, "seqcheck: invalid %s \"%s\" (%" PRIu64 "..%" PRIu64
		")\n", what, s, min, max);
	return -1;
}

/* --sizes MIN-MAX */
static int parse_sizes(const char *s, size_t *min, size_t *max)
{
	const char *dash = strchr(s, '-');
	char lo[24];
	uint64_t a, b;

	if (!dash || dash == s || (size_t)(dash - s) >= sizeof(lo)) {
		fprintf(stderr, "seqcheck: invalid sizes \"%s\" (MIN-MAX)\n", s);
		return -1;
	}
	memcpy(lo, s, dash - s);
	lo[dash - s] = '\0';
	if (parse_u64(lo, SEQ_MIN_SIZE, SEQ_MAX_SIZE, &a, "size") ||
	    parse_u64(dash + 1, a, SEQ_MAX_SIZE, &b, "size"))
		return -1;
	*min = (size_t)a;
	*max = (size_t)b;
	return 0;
}

static int parse_port(const char *s, uint16_t *port)
{
	uint64_t v;

	if (parse_u64(s, 1, 65535, &v, "port"))
		return -1;
	*port = (uint16_t)v;
	return 0;
}

static int parse_addr(const char *s, uint16_t port,
		      struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	char host[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
	char *scope;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		*len = sizeof(*sin);
		return 0;
	}
	if (strlen(s) >= sizeof(host))
		goto bad;
	strcpy(host, s);
	scope = strchr(host, '%');
	if (scope)
		*scope++ = '\0';
	if (inet_pton(AF_INET6, host, &sin6->sin6_addr) != 1)
		goto bad;
	if (scope) {
		uint64_t id;

		sin6->sin6_scope_id = if_nametoindex(scope);
		if (!sin6->sin6_scope_id) {
			if (parse_u64(scope, 1, UINT32_MAX, &id, "scope id"))
				goto bad;
			sin6->sin6_scope_id = (uint32_t)id;
		}
	}
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(port);
	*len = sizeof(*sin6);
	return 0;
bad:
	fprintf(stderr, "seqcheck: invalid address \"%s\" (numeric IPv4 or IPv6 expected)\n",
		s);
	return -1;
}

/* the C standard type for a flag a signal handler sets */
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: interrupt poll() */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* --flows N */
static int parse_flows(const char *s, uint32_t *nflows)
{
	uint64_t v;

	if (parse_u64(s, 1, SEQ_MAX_FLOWS, &v, "flows"))
		return -1;
	*nflows = (uint32_t)v;
	return 0;
}

/*
 * The options recv and metrics share: the RFC parameters and --json.
 * 1 if argv[*i] was one (its value consumed), 0 if not, -1 if invalid.
 */
static int parse_metric_opt(int argc, char **argv, int *i,
			    struct rm_params *p, bool *json)
{
	unsigned int *thr = NULL;
	const char *what = argv[*i] + 2;
	uint64_t v, max = RM_MAX_THRESHOLD;

	if (strcmp(argv[*i], "--json") == 0) {
		*json = true;
		return 1;
	}
	if (strcmp(what, "dt") == 0)
		thr = &p->dt;
	else if (strcmp(what, "bt") == 0)
		thr = &p->bt;
	else if (strcmp(what, "history") == 0)
		thr = &p->history;
	if (strncmp(argv[*i], "--", 2) != 0 || !thr)
		return 0;
	if (++*i == argc || parse_u64(argv[*i], 1, max, &v, what))
		return -1;
	*thr = (unsigned int)v;
	return 1;
}

/* The sequence field of datagram n of a stream spread over nflows. */
static uint64_t seq_field(uint64_t n, uint32_t nflows)
{
	return (n % nflows) << SEQ_FLOW_SHIFT | n / nflows;
}

/* ---- send --------------------------------------------------------------- */

#define SEQ_RAW_SPORT	40000	/* --raw-csum: no socket of ours owns it */

static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	for (; len > 1; p += 2, len -= 2)
		sum += (uint32_t)p[0] << 8 | p[1];
	if (len)
		sum += (uint32_t)p[0] << 8;
	return sum;
}

/* --raw-csum: the address the kernel sends from to @dst. */
static int raw_source(const struct sockaddr_in *dst, struct sockaddr_in *src)
{
	socklen_t len = sizeof(*src);
	int fd = socket(AF_INET, SOCK_DGRAM, 0), ret;

	if (fd < 0)
		return -1;
	ret = connect(fd, (const struct sockaddr *)dst, sizeof(*dst)) ||
	      getsockname(fd, (struct sockaddr *)src, &len) ? -1 : 0;
	close(fd);
	return ret;
}

/* --raw-csum: the UDP header in front of @len bytes of payload at @udp + 8,
 * its checksum over the pseudo-header right, or wrong by a fixed bit.
 */
static void raw_udp_header(uint8_t *udp, size_t len,
			   const struct sockaddr_in *src,
			   const struct sockaddr_in *dst, bool bad)
{
	uint32_t sum = IPPROTO_UDP + len + 8;
	uint16_t c;

	udp[0] = SEQ_RAW_SPORT >> 8;
	udp[1] = SEQ_RAW_SPORT & 0xff;
	memcpy(udp + 2, &dst->sin_port, 2);
	udp[4] = (len + 8) >> 8;
	udp[5] = (len + 8) & 0xff;
	udp[6] = 0;
	udp[7] = 0;
	sum = csum_add(sum, (const uint8_t *)&src->sin_addr, 4);
	sum = csum_add(sum, (const uint8_t *)&dst->sin_addr, 4);
	sum = csum_add(sum, udp, len + 8);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	c = ~sum & 0xffff;
	if (!c)
		c = 0xffff;
	if (bad)
		c ^= 0x0100;	/* never 0: that would mean "no checksum" */
	udp[6] = c >> 8;
	udp[7] = c & 0xff;
}

static void close_senders(int *fds, uint32_t n)
{
	while (n--)
		close(fds[n]);
	free(fds);
}

/* The sending sockets: @n of them, each its own ephemeral source port;
 * with @raw one raw socket that writes its own UDP header.
 */
static int *open_senders(int family, uint32_t n, uint64_t gso, uint64_t size,
			 bool raw)
{
	int *fds = calloc(n, sizeof(*fds));
	uint32_t i;

	if (!fds) {
		perror("seqcheck: calloc");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		fds[i] = raw ? socket(AF_INET, SOCK_RAW, IPPROTO_UDP) :
			       socket(family, SOCK_DGRAM, 0);
		if (fds[i] < 0) {
			perror("seqcheck: socket");
			goto err;
		}
		if (gso > 1 && setsockopt(fds[i], IPPROTO_UDP, UDP_SEGMENT,
					  &(int){ size }, sizeof(int))) {
			perror("seqcheck: UDP_SEGMENT");
			i++;
			goto err;
		}
	}
	return fds;

err:
	close_senders(fds, i);
	return NULL;
}

static int cmd_send(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	struct timespec start;
	uint64_t count, size = SEQ_DEF_SIZE, rate = 0, seq, sent = 0, field;
	uint64_t gso = 1, n;
	size_t size_min = 0, size_max = 0, hdr = 0;
	uint32_t nflows = 1, nfds = 1;
	struct sockaddr_in src;
	int raw = -1;	/* --raw-csum: 0 good, 1 bad */
	bool flow_ports = false;
	uint16_t port;
	int npos = 0, fd, *fds, ret = 0;
	const char *pos[4];
	uint8_t *buf;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--flows") == 0) {
			if (++i == argc || parse_flows(argv[i], &nflows))
				return 2;
		} else if (strcmp(argv[i], "--flow-ports") == 0) {
			flow_ports = true;
		} else if (strcmp(argv[i], "--rate") == 0) {
			if (++i == argc ||
			    parse_u64(argv[i], 1, 100000000, &rate, "rate"))
				return 2;
		} else if (strcmp(argv[i], "--sizes") == 0) {
			if (++i == argc ||
			    parse_sizes(argv[i], &size_min, &size_max))
				return 2;
		} else if (strcmp(argv[i], "--gso") == 0) {
			if (++i == argc ||
			    parse_u64(argv[i], 1, SEQ_MAX_GSO, &gso, "gso"))
				return 2;
		} else if (strcmp(argv[i], "--raw-csum") == 0) {
			if (++i == argc || (strcmp(argv[i], "good") &&
					    strcmp(argv[i], "bad"))) {
				usage(stderr);
				return 2;
			}
			raw = strcmp(argv[i], "good") != 0;
		} else if (npos < 4 && strncmp(argv[i], "--", 2) != 0) {
			pos[npos++] = argv[i];
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (npos < 3 || (npos > 3 && size_max) ||
	    (gso > 1 && (size_max || flow_ports)) ||
	    (raw >= 0 && (gso > 1 || flow_ports))) {
		usage(stderr);
		return 2;
	}
	if (parse_port(pos[1], &port) || parse_addr(pos[0], port, &ss, &sslen) ||
	    parse_u64(pos[2], 1, SEQ_MAX_COUNT, &count, "count") ||
	    (npos > 3 && parse_u64(pos[3], SEQ_MIN_SIZE, SEQ_MAX_SIZE, &size,
				   "size")))
		return 2;
	if (gso * size > SEQ_MAX_SIZE) {
		fprintf(stderr, "seqcheck: --gso %" PRIu64 " of %" PRIu64
			" bytes is more than %d\n", gso, size, SEQ_MAX_SIZE);
		return 2;
	}

	if (raw >= 0) {
		if (ss.ss_family != AF_INET ||
		    raw_source((struct sockaddr_in *)&ss, &src)) {
			fprintf(stderr, "seqcheck: --raw-csum needs a reachable IPv4 address\n");
			return 2;
		}
		hdr = 8;
	}
	if (flow_ports)
		nfds = nflows;
	fds = open_senders(ss.ss_family, nfds, gso, size, raw >= 0);
	if (!fds)
		return 2;
	if (size_max)
		size = size_max;
	buf = malloc(hdr + size * gso);
	if (!buf) {
		perror("seqcheck: malloc");
		close_senders(fds, nfds);
		return 2;
	}
	catch_signals();
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (seq = 0; seq < count && !stop; seq += n) {
		if (rate)
			pace_until(&start, seq, rate, &stop);
		n = count - seq < gso ? count - seq : gso;
		for (uint64_t i = 0; i < n; i++) {
			field = seq_field(seq + i, nflows);
			if (size_max)
				size = seq_size(field, size_min, size_max);
			seq_build(buf + hdr + i * size, size, field);
		}
		if (raw >= 0)
			raw_udp_header(buf, size, &src,
				       (struct sockaddr_in *)&ss, raw);
		/* One datagram at a time with several sockets (no --gso). */
		fd = fds[seq % nfds];
		for (;;) {
			if (sendto(fd, buf, hdr + n * size, 0,
				   (struct sockaddr *)&ss,
				   sslen) == (ssize_t)(hdr + n * size)) {
				sent += n;
				break;
			}
			if (errno == ENOBUFS || errno == EAGAIN ||
			    errno == EINTR) {
				/* local queue full: wait, do not lose */
				struct timespec ts = { 0, 50000 };

				if (stop)
					break;
				nanosleep(&ts, NULL);
				continue;
			}
			if (errno == ECONNREFUSED)	/* stale ICMP error */
				continue;
			fprintf(stderr, "seqcheck: sendto seq %" PRIu64 ": %s\n",
				seq, strerror(errno));
			ret = 2;
			goto out;
		}
	}
out:
	printf("sent %" PRIu64 "\n", sent);
	free(buf);
	close_senders(fds, nfds);
	if (!ret && sent != count)
		ret = 1;
	return ret;
}

/* ---- recv --------------------------------------------------------------- */

static int open_receiver(uint16_t port)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
				     .sin6_port = htons(port),
				     .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port),
				   .sin_addr.s_addr = htonl(INADDR_ANY) };
	int zero = 0, bufsz = SEQ_RCVBUF;
	int fd;

	/* dual-stack socket; plain IPv4 if the kernel has no IPv6 */
	fd = socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd >= 0) {
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero,
			       sizeof(zero)) ||
		    bind(fd, (struct sockaddr *)&sin6, sizeof(sin6))) {
			perror("seqcheck: bind");
			close(fd);
			return -1;
		}
	} else {
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0) {
			perror("seqcheck: socket");
			return -1;
		}
		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin))) {
			perror("seqcheck: bind");
			close(fd);
			return -1;
		}
	}
	/* as root, beyond net.core.rmem_max; else as much as allowed */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bufsz, sizeof(bufsz)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
	return fd;
}

/*
 * Datagrams our own socket queue dropped (receive buffer full): local loss,
 * to tell apart from loss in the network or the tunnel.
 */
static uint64_t read_socket_drops(int fd)
{
	uint32_t mem[SK_MEMINFO_VARS];
	socklen_t len = sizeof(mem);

	memset(mem, 0, sizeof(mem));
	if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mem, &len) ||
	    len < (SK_MEMINFO_DROPS + 1) * sizeof(uint32_t))
		return 0;
	return mem[SK_MEMINFO_DROPS];
}

struct recv_opts {
	uint64_t count, timeout, max_loss;
	size_t size_min, size_max;
	uint32_t nflows;
	struct rm_params params;
	bool json;
	uint16_t port;
};

static int parse_recv(int argc, char **argv, struct recv_opts *o)
{
	const char *pos[2];
	int npos = 0, r;

	for (int i = 0; i < argc; i++) {
		r = parse_metric_opt(argc, argv, &i, &o->params, &o->json);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		if (strcmp(argv[i], "--timeout") == 0) {
			if (++i == argc ||
			    parse_u64(argv[i], 1, 86400, &o->timeout, "timeout"))
				return -1;
		} else if (strcmp(argv[i], "--max-loss") == 0) {
			if (++i == argc ||
			    parse_u64(argv[i], 0, SEQ_MAX_COUNT, &o->max_loss,
				      "max-loss"))
				return -1;
		} else if (strcmp(argv[i], "--sizes") == 0) {
			if (++i == argc ||
			    parse_sizes(argv[i], &o->size_min, &o->size_max))
				return -1;
		} else if (strcmp(argv[i], "--flows") == 0) {
			if (++i == argc || parse_flows(argv[i], &o->nflows))
				return -1;
		} else if (npos < 2 && strncmp(argv[i], "--", 2) != 0) {
			pos[npos++] = argv[i];
		} else {
			usage(stderr);
			return -1;
		}
	}
	if (npos < 2) {
		usage(stderr);
		return -1;
	}
	if (parse_port(pos[0], &o->port) ||
	    parse_u64(pos[1], 1, SEQ_MAX_COUNT, &o->count, "count"))
		return -1;
	return 0;
}

/*
 * Account datagrams until all came, the idle timeout or a signal; the
 * time from the first valid one to the last in *seconds. 0 or 2.
 */
static int receive_all(int fd, struct seq_state *st, uint64_t timeout,
		       double *seconds)
{
	static uint8_t buf[SEQ_MAX_SIZE + 1];
	double first = 0, last;
	bool idle = false;
	int ret = 0;

	while (st->received < st->count && !stop) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int r;

		r = poll(&pfd, 1, (int)timeout * 1000);
		if (r == 0) {
			fprintf(stderr, "seqcheck: no datagram for %" PRIu64
				" s, giving up\n", timeout);
			idle = true;
			break;
		}
		if (r < 0) {
			if (errno == EINTR)
				continue;
			perror("seqcheck: poll");
			ret = 2;
			break;
		}
		n = recv(fd, buf, SEQ_MAX_SIZE + 1, MSG_TRUNC);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			perror("seqcheck: recv");
			ret = 2;
			break;
		}
		/* a truncated datagram (> SEQ_MAX_SIZE) is foreign */
		if (seq_account(st, buf, n > SEQ_MAX_SIZE ? 0 : (size_t)n) !=
		    SEQ_INVALID && !first)
			first = pace_now();
	}
	/* Not a clock read per datagram: given up after the idle timeout,
	 * the last one came that long ago.
	 */
	last = pace_now() - (idle ? (double)timeout : 0);
	*seconds = first ? last - first : 0;
	return ret;
}

/* Today's three lines, then the metrics; or one JSON object. */
static int report_recv(struct seq_state *st, const struct recv_opts *o,
		       const struct seq_run *run)
{
	if (o->json)
		return report_json(stdout, st, run);
	seq_report(stdout, st, run->socket_drops);
	printf("first_to_last_seconds %.6f\n", run->seconds);
	return report_metrics_text(stdout, st);
}

static int cmd_recv(int argc, char **argv)
{
	struct recv_opts o = { .timeout = SEQ_DEF_TIMEOUT, .nflows = 1,
			       .params = seq_def_params };
	struct seq_run run = { 0 };
	struct seq_state st;
	int fd, ret;

	if (parse_recv(argc, argv, &o))
		return 2;
	if (seq_init_flows(&st, o.count, o.nflows, &o.params)) {
		perror("seqcheck: malloc");
		return 2;
	}
	st.size_min = o.size_min;
	st.size_max = o.size_max;
	fd = open_receiver(o.port);
	if (fd < 0) {
		seq_free(&st);
		return 2;
	}
	catch_signals();
	fprintf(stderr, "seqcheck: listening on port %u for %" PRIu64
		" datagrams\n", o.port, o.count);

	ret = receive_all(fd, &st, o.timeout, &run.seconds);
	run.socket_drops = read_socket_drops(fd);
	run.max_loss = o.max_loss;
	close(fd);
	if (report_recv(&st, &o, &run)) {
		perror("seqcheck: report");
		ret = 2;
	}
	if (!ret)
		ret = seq_passed(&st, o.max_loss) ? 0 : 1;
	seq_free(&st);
	return ret;
}

/* ---- metrics: sequence numbers from a file -------------------------------- */

struct arrivals {
	uint64_t *seq;
	double *time;
	uint32_t *bytes;
	size_t len, cap;
};

static int arrivals_push(struct arrivals *a, uint64_t seq, double t,
			 uint32_t bytes)
{
	if (a->len == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 1024;
		uint64_t *s = realloc(a->seq, cap * sizeof(*s));
		double *tm = s ? realloc(a->time, cap * sizeof(*tm)) : NULL;
		uint32_t *b = tm ? realloc(a->bytes, cap * sizeof(*b)) : NULL;

		if (s)
			a->seq = s;
		if (tm)
			a->time = tm;
		if (!b)
			return -1;
		a->bytes = b;
		a->cap = cap;
	}
	a->seq[a->len] = seq;
	a->time[a->len] = t;
	a->bytes[a->len++] = bytes;
	return 0;
}

/* "SEQ [SECONDS [BYTES]]" a line; blank lines and "#" comments skipped. */
static int read_arrivals(FILE *in, bool wrap32, struct arrivals *a)
{
	struct rm_unwrap uw = { 0 };
	unsigned long long seq, bytes;
	char line[256];
	int n;

	while (fgets(line, sizeof(line), in)) {
		double t = 0;

		bytes = 0;
		if (line[strspn(line, " \t")] == '#' ||
		    line[strspn(line, " \t\r\n")] == '\0')
			continue;
		n = sscanf(line, "%llu %lf %llu", &seq, &t, &bytes);
		if (n < 1 || bytes > UINT32_MAX || (wrap32 && seq > UINT32_MAX)) {
			fprintf(stderr, "seqcheck: bad arrival line: %s", line);
			return -1;
		}
		if (wrap32)
			seq = rm_unwrap32(&uw, (uint32_t)seq);
		if (arrivals_push(a, seq, t, (uint32_t)bytes))
			return -1;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Feed the first copy of each number (RFC 4737 3.6) in arrival order.
 * Duplicates: a sorted copy and a flag per distinct number.
 */
static int feed_first_copies(const struct arrivals *a, struct rm_state *st,
			     uint64_t *duplicates)
{
	uint64_t *sorted = malloc((a->len + 1) * sizeof(*sorted));
	bool *seen = calloc(a->len + 1, 1);

	if (!sorted || !seen) {
		free(sorted);
		free(seen);
		return -1;
	}
	memcpy(sorted, a->seq, a->len * sizeof(*sorted));
	qsort(sorted, a->len, sizeof(*sorted), cmp_u64);
	for (size_t k = 0; k < a->len; k++) {
		uint64_t *at = bsearch(&a->seq[k], sorted, a->len,
				       sizeof(*sorted), cmp_u64);

		while (at > sorted && at[-1] == *at)	/* first of equals */
			at--;
		if (seen[at - sorted]) {
			++*duplicates;
			continue;
		}
		seen[at - sorted] = true;
		rm_feed(st, a->seq[k], a->time[k], a->bytes[k]);
	}
	rm_finish(st);
	free(sorted);
	free(seen);
	return 0;
}

static int print_metrics(const struct rm_state *st, uint64_t arrivals,
			 uint64_t duplicates, bool json)
{
	struct rm_summary sum;

	if (rm_summary_init(&sum, &st->p))
		return -1;
	rm_summarize(st, &sum);
	if (json) {
		printf("{\"version\":1,\"arrivals\":%" PRIu64
		       ",\"duplicates\":%" PRIu64 ",", arrivals, duplicates);
		rm_print_json(stdout, &sum);
		printf("}\n");
	} else {
		printf("arrivals %" PRIu64 " duplicates %" PRIu64 "\n",
		       arrivals, duplicates);
		rm_print_text(stdout, "stream", &sum);
	}
	rm_summary_free(&sum);
	return 0;
}

static int cmd_metrics(int argc, char **argv)
{
	struct rm_params p = seq_def_params;
	struct arrivals a = { 0 };
	uint64_t duplicates = 0;
	bool json = false, wrap32 = false;
	struct rm_state st;
	int r, ret = 2;

	for (int i = 0; i < argc; i++) {
		r = parse_metric_opt(argc, argv, &i, &p, &json);
		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		if (strcmp(argv[i], "--wrap32") == 0) {
			wrap32 = true;
		} else if (strcmp(argv[i], "--first") == 0) {
			if (++i == argc ||
			    parse_u64(argv[i], 0, UINT64_MAX, &p.first, "first"))
				return 2;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (read_arrivals(stdin, wrap32, &a) == 0 && rm_init(&st, &p) == 0) {
		if (feed_first_copies(&a, &st, &duplicates) == 0 &&
		    print_metrics(&st, a.len, duplicates, json) == 0)
			ret = 0;
		rm_free(&st);
	}
	if (ret)
		fprintf(stderr, "seqcheck: metrics failed\n");
	free(a.seq);
	free(a.time);
	free(a.bytes);
	return ret;
}

/* ---- selftest: the negative control ------------------------------------ */

struct stream_case {
	const char *name;
	uint64_t count;
	/*
	 * The datagrams, in arrival order: sequence numbers, "x" for a
	 * foreign datagram, "c" for seq 0 with a payload bit flipped, "t"
	 * for seq 0 one byte short (its size field saying so), "f" for seq
	 * 0 at the fixed default size; NULL for 0..count-1 in order.
	 */
	const char *stream;
	uint64_t max_loss;
	/* expected classification */
	uint64_t received, lost, duplicates, reordered, corrupt, invalid;
	bool pass;
	bool sized;		/* sender and checker use --sizes 64-1400 */
};

#define TEST_SIZE_MIN	64
#define TEST_SIZE_MAX	1400

static void feed(struct seq_state *st, const char *tok)
{
	static uint8_t buf[TEST_SIZE_MAX];
	uint64_t seq = strchr("xctf", tok[0]) ? 0 : strtoull(tok, NULL, 10);
	size_t size = SEQ_DEF_SIZE;

	if (st->size_max)
		size = seq_size(seq, st->size_min, st->size_max);
	if (strcmp(tok, "x") == 0) {		/* somebody else's datagram */
		memset(buf, 0xa5, size);
	} else if (strcmp(tok, "c") == 0) {	/* corrupted in flight */
		seq_build(buf, size, 0);
		buf[SEQ_HDR_LEN + 5] ^= 0x10;
	} else if (strcmp(tok, "t") == 0) {	/* consistent, but short */
		seq_build(buf, --size, 0);
	} else if (strcmp(tok, "f") == 0) {	/* not a --sizes sender */
		size = SEQ_DEF_SIZE;
		seq_build(buf, size, 0);
	} else {
		seq_build(buf, size, seq);
	}
	seq_account(st, buf, size);
}

static bool run_case(const struct stream_case *c, int n)
{
	struct seq_state st;
	char tok[24];
	bool ok;

	if (seq_init(&st, c->count)) {
		printf("not ok %d - %s # out of memory\n", n, c->name);
		return false;
	}
	if (c->sized) {
		st.size_min = TEST_SIZE_MIN;
		st.size_max = TEST_SIZE_MAX;
	}
	if (!c->stream) {
		for (uint64_t i = 0; i < c->count; i++) {
			snprintf(tok, sizeof(tok), "%llu", (unsigned long long)i);
			feed(&st, tok);
		}
	} else {
		for (const char *p = c->stream; *p; ) {
			size_t len = strcspn(p, " ");

			if (len && len < sizeof(tok)) {
				memcpy(tok, p, len);
				tok[len] = '\0';
				feed(&st, tok);
			}
			p += len;
			p += strspn(p, " ");
		}
	}
	ok = st.received == c->received && seq_lost(&st) == c->lost &&
	     st.duplicates == c->duplicates && st.reordered == c->reordered &&
	     st.corrupt == c->corrupt && st.invalid == c->invalid &&
	     seq_passed(&st, c->max_loss) == c->pass;
	printf("%s %d - %s (expect %s)\n", ok ? "ok" : "not ok", n, c->name,
	       c->pass ? "pass" : "fail");
	if (!ok) {
		printf("# got: ");
		seq_report(stdout, &st, 0);
		printf("#      verdict %s\n",
		       seq_passed(&st, c->max_loss) ? "pass" : "fail");
	}
	seq_free(&st);
	return ok;
}

static bool check_classes(int n)
{
	/* single datagrams, one class each, straight from seq_account() */
	static const struct {
		int64_t seq;
		enum seq_class want;
	} steps[] = {
		{ 0, SEQ_IN_ORDER }, { 2, SEQ_IN_ORDER }, { 1, SEQ_REORDERED },
		{ 2, SEQ_DUPLICATE }, { 3, SEQ_IN_ORDER }, { 9, SEQ_INVALID },
		{ -2, SEQ_CORRUPT }, { 0, SEQ_DUPLICATE },
	};
	struct seq_state st;
	uint8_t buf[SEQ_DEF_SIZE];
	bool ok = true;

	if (seq_init(&st, 4))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		enum seq_class got;

		seq_build(buf, sizeof(buf), steps[i].seq < 0 ? 0 :
			  (uint64_t)steps[i].seq);
		if (steps[i].seq == -2)
			buf[sizeof(buf) - 1] ^= 1;
		got = seq_account(&st, buf, sizeof(buf));
		if (got != steps[i].want) {
			printf("# step %zu: got %s, want %s\n", i,
			       seq_class_name[got], seq_class_name[steps[i].want]);
			ok = false;
		}
	}
	/* a short datagram and a wrong size field */
	if (seq_account(&st, buf, SEQ_HDR_LEN - 1) != SEQ_INVALID)
		ok = false;
	seq_build(buf, sizeof(buf), 3);
	if (seq_account(&st, buf, sizeof(buf) - 1) != SEQ_CORRUPT)
		ok = false;
	seq_free(&st);
	printf("%s %d - per-datagram classification\n", ok ? "ok" : "not ok", n);
	return ok;
}

/* Datagram numbers @ns of a stream over @nflows flows, in that order. */
static bool check_flows_case(const char *name, const uint64_t *ns, size_t len,
			     uint32_t nflows, uint64_t reordered,
			     uint64_t interflow)
{
	struct seq_state st;
	uint8_t buf[SEQ_DEF_SIZE];
	bool ok;

	if (seq_init_flows(&st, len, nflows, &seq_def_params))
		return false;
	for (size_t i = 0; i < len; i++) {
		seq_build(buf, sizeof(buf), seq_field(ns[i], nflows));
		seq_account(&st, buf, sizeof(buf));
	}
	ok = st.received == len && st.reordered == reordered &&
	     st.interflow == interflow &&
	     seq_passed(&st, 0) == !reordered;
	if (!ok)
		printf("# %s: reordered %" PRIu64 " interflow %" PRIu64 "\n",
		       name, st.reordered, st.interflow);
	seq_free(&st);
	return ok;
}

/* Flows judged each on its own: the stream of all may be reordered. */
static bool check_flows(int n)
{
	static const uint64_t apart[] = { 0, 1, 3, 2, 5, 4 };
	static const uint64_t broken[] = { 0, 3, 2, 1 };
	bool ok;

	ok = check_flows_case("flows kept, stream reordered", apart,
			      ARRAY_SIZE(apart), 2, 0, 2) &&
	     check_flows_case("a flow reordered", broken, ARRAY_SIZE(broken),
			      2, 1, 2);
	printf("%s %d - per-flow order and interflow reorders\n",
	       ok ? "ok" : "not ok", n);
	return ok;
}

static int cmd_selftest(void)
{
	static const struct stream_case cases[] = {
		{ "in-order stream of 1000", 1000, NULL, 0,
		  1000, 0, 0, 0, 0, 0, true, false },
		{ "two swapped datagrams: 0 1 3 2 4 5", 6, "0 1 3 2 4 5", 0,
		  6, 0, 0, 1, 0, 0, false, false },
		{ "a duplicate: 0 1 2 2 3 4", 5, "0 1 2 2 3 4", 0,
		  5, 0, 1, 0, 0, 0, false, false },
		{ "a late duplicate: 0 1 2 3 1 4", 5, "0 1 2 3 1 4", 0,
		  5, 0, 1, 0, 0, 0, false, false },
		{ "a loss: 0 1 3 4, max-loss 0", 5, "0 1 3 4", 0,
		  4, 1, 0, 0, 0, 0, false, false },
		{ "a loss: 0 1 3 4, max-loss 1", 5, "0 1 3 4", 1,
		  4, 1, 0, 0, 0, 0, true, false },
		{ "loss at the tail: 0 1 2 of 5, max-loss 1", 5, "0 1 2", 1,
		  3, 2, 0, 0, 0, 0, false, false },
		{ "a corrupted payload", 3, "c 1 2", 0,
		  2, 1, 0, 0, 1, 0, false, false },
		{ "foreign datagrams are ignored", 3, "0 x 1 x 2 7", 0,
		  3, 0, 0, 0, 0, 3, true, false },
		{ "sizes: in-order stream of 1000", 1000, NULL, 0,
		  1000, 0, 0, 0, 0, 0, true, true },
		{ "sizes: two swapped datagrams: 0 1 3 2 4 5", 6,
		  "0 1 3 2 4 5", 0, 6, 0, 0, 1, 0, 0, false, true },
		{ "sizes: a duplicate: 0 1 2 2 3", 4, "0 1 2 2 3", 0,
		  4, 0, 1, 0, 0, 0, false, true },
		{ "sizes: a corrupted payload", 3, "c 1 2", 0,
		  2, 1, 0, 0, 1, 0, false, true },
		{ "sizes: one byte short, header consistent", 3, "t 1 2", 0,
		  2, 1, 0, 0, 1, 0, false, true },
		{ "sizes: a datagram of the wrong size", 3, "f 1 2", 0,
		  2, 1, 0, 0, 1, 0, false, true },
		{ "without sizes, the short one passes", 3, "t 1 2", 0,
		  3, 0, 0, 0, 0, 0, true, false },
	};
	int n = ARRAY_SIZE(cases) + 2, failed = 0;

	printf("TAP version 13\n1..%d\n", n);
	for (int i = 0; i < n - 2; i++)
		failed += !run_case(&cases[i], i + 1);
	failed += !check_classes(n - 1);
	failed += !check_flows(n);
	printf("# %d passed, %d failed\n", n - failed, failed);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && strcmp(argv[1], "send") == 0)
		return cmd_send(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "recv") == 0)
		return cmd_recv(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "metrics") == 0)
		return cmd_metrics(argc - 2, argv + 2);
	if (argc == 2 && strcmp(argv[1], "selftest") == 0)
		return cmd_selftest();
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
			  strcmp(argv[1], "--help") == 0)) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
