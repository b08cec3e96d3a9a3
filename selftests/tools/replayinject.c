// SPDX-License-Identifier: GPL-2.0
/*
 * replayinject - an on-path attacker without the key, for the padtun
 * replay scenario (selftests/scenarios/padtun-replay.sh).
 *
 *   replayinject capture IFACE PORT FILE [--timeout SEC]
 *   replayinject send IFACE FILE COUNT [--interval-ms N] [--seq N]
 *
 * capture listens on IFACE with a packet socket and keeps the first IPv4
 * UDP datagram to or from PORT in each direction: "out", sent by this
 * host, and "in", received by it. It writes both Ethernet frames to FILE
 * and exits 0 once it has both, 1 after SEC seconds (default 10) without.
 *
 * send resends them to the peer, alternately "in" then "out", COUNT times
 * each: "out" as it was captured (a replay toward the peer), "in" turned
 * around (MAC and IP addresses and UDP ports swapped: the peer's own
 * datagram reflected back to it, apparently from us). Checksums are
 * recomputed (a captured outgoing frame may carry a partial one). Prints
 * "sent N" and exits 0 when every frame went out. With --seq, only "out"
 * is sent, its sequence number (the 8 bytes at offset 12 of what follows
 * the UDP header) set to N: under the none transform, which authenticates
 * nothing, a datagram anyone can make.
 *
 * No key, no knowledge of the padtun format: whatever the tunnel sent.
 *
 *   replayinject record IFACE FILE SECONDS
 *   replayinject play IFACE FILE
 *
 * record and play serve make bench's one-sided receive test, whose load
 * must not depend on the sender's crypto: record keeps every IPv4 UDP or
 * ESP frame this host sends on IFACE for SECONDS (any tunnel's datagrams;
 * not the TCP of the guests' barriers); play sends them all out of IFACE
 * again, in order, as fast as the device takes them.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pace.h"

#define FRAME_MAX	65536
#define ETH_HDR		14
#define CAPTURE_MAX	100000	/* outgoing frames one capture keeps */

struct frame {
	size_t len;
	uint8_t *data;
};

/*
 * A capture: the first incoming datagram and the first n_out outgoing
 * ones. In FILE as records of a direction byte ('o' or 'i'), the length
 * (32 bits, host order) and the Ethernet frame.
 */
struct capture {
	struct frame in;
	struct frame *out;
	size_t n_out;
};

static int frame_set(struct frame *f, const uint8_t *data, size_t len)
{
	f->data = malloc(len);
	if (!f->data)
		return -1;
	memcpy(f->data, data, len);
	f->len = len;
	return 0;
}

static int capture_write(const struct capture *c, const char *file)
{
	FILE *out = fopen(file, "w");
	uint32_t len;
	size_t i;
	int bad;

	if (!out)
		return -1;
	len = c->in.len;
	bad = fputc('i', out) == EOF || fwrite(&len, 4, 1, out) != 1 ||
	      fwrite(c->in.data, len, 1, out) != 1;
	for (i = 0; i < c->n_out && !bad; i++) {
		len = c->out[i].len;
		bad = fputc('o', out) == EOF || fwrite(&len, 4, 1, out) != 1 ||
		      fwrite(c->out[i].data, len, 1, out) != 1;
	}
	return fclose(out) || bad ? -1 : 0;
}

/* Both directions must be there: 0, or -1 with errno or a message. */
static int capture_read(struct capture *c, const char *file)
{
	static uint8_t buf[FRAME_MAX];
	FILE *in = fopen(file, "r");
	uint32_t len;
	int dir;

	memset(c, 0, sizeof(*c));
	if (!in)
		return -1;
	c->out = calloc(CAPTURE_MAX, sizeof(*c->out));
	while (c->out && (dir = fgetc(in)) != EOF) {
		if (fread(&len, 4, 1, in) != 1 || len > FRAME_MAX ||
		    fread(buf, len, 1, in) != 1 || (dir != 'i' && dir != 'o'))
			break;
		if (dir == 'i' && !c->in.len && frame_set(&c->in, buf, len))
			break;
		if (dir == 'o' && c->n_out < CAPTURE_MAX &&
		    !frame_set(&c->out[c->n_out], buf, len))
			c->n_out++;
	}
	fclose(in);
	if (!c->out || !c->in.len || !c->n_out) {
		fprintf(stderr, "replayinject: %s: no datagram in each direction\n",
			file);
		return -1;
	}
	return 0;
}

static int open_packet(const char *ifname, int *ifindex)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int fd;

	*ifindex = if_nametoindex(ifname);
	if (!*ifindex) {
		fprintf(stderr, "replayinject: no interface %s\n", ifname);
		return -1;
	}
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0) {
		perror("replayinject: socket");
		return -1;
	}
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = *ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		perror("replayinject: bind");
		close(fd);
		return -1;
	}
	return fd;
}

/* IPv4 + UDP to or from @port: the offset of the UDP header, or 0. */
static size_t udp_offset(const uint8_t *f, size_t len, uint16_t port)
{
	size_t ihl;
	uint16_t sport, dport;

	if (len < ETH_HDR + 20 + 8 || f[12] != 0x08 || f[13] != 0x00)
		return 0;
	if ((f[ETH_HDR] >> 4) != 4 || f[ETH_HDR + 9] != IPPROTO_UDP)
		return 0;
	ihl = (f[ETH_HDR] & 0xf) * 4;
	if (ihl < 20 || len < ETH_HDR + ihl + 8)
		return 0;
	sport = (f[ETH_HDR + ihl] << 8) | f[ETH_HDR + ihl + 1];
	dport = (f[ETH_HDR + ihl + 2] << 8) | f[ETH_HDR + ihl + 3];
	return sport == port || dport == port ? ETH_HDR + ihl : 0;
}

static uint32_t sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	for (; len > 1; p += 2, len -= 2)
		sum += (p[0] << 8) | p[1];
	if (len)
		sum += p[0] << 8;
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Whole-frame IPv4 and UDP checksums, from scratch. */
static void fix_checksums(uint8_t *f, size_t len)
{
	uint8_t *ip = f + ETH_HDR, *udp;
	size_t ihl = (ip[0] & 0xf) * 4, ulen;
	uint32_t sum;
	uint16_t c;

	ip[10] = 0;
	ip[11] = 0;
	c = fold(sum16(ip, ihl, 0));
	ip[10] = c >> 8;
	ip[11] = c & 0xff;

	udp = ip + ihl;
	ulen = (udp[4] << 8) | udp[5];
	if (ulen > len - ETH_HDR - ihl)
		ulen = len - ETH_HDR - ihl;
	udp[6] = 0;
	udp[7] = 0;
	sum = sum16(ip + 12, 8, 0) + IPPROTO_UDP + ulen;
	c = fold(sum16(udp, ulen, sum));
	if (!c)
		c = 0xffff;
	udp[6] = c >> 8;
	udp[7] = c & 0xff;
}

/* The peer's datagram, turned around: to the peer, apparently from us. */
static void turn_around(uint8_t *f)
{
	uint8_t tmp[6], *ip = f + ETH_HDR, *udp = ip + (ip[0] & 0xf) * 4;

	memcpy(tmp, f, 6);
	memcpy(f, f + 6, 6);
	memcpy(f + 6, tmp, 6);
	memcpy(tmp, ip + 12, 4);
	memcpy(ip + 12, ip + 16, 4);
	memcpy(ip + 16, tmp, 4);
	memcpy(tmp, udp, 2);
	memcpy(udp, udp + 2, 2);
	memcpy(udp + 2, tmp, 2);
}

static int cmd_capture(int argc, char **argv)
{
	const char *ifname = argv[0], *file = argv[2];
	int port = atoi(argv[1]), timeout = 10, fd, ifindex, i;
	static uint8_t buf[FRAME_MAX];
	struct capture c = { 0 };
	long want = 1;
	time_t end;

	for (i = 3; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--timeout"))
			timeout = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--out"))
			want = atol(argv[i + 1]);
	}
	if (want < 1 || want > CAPTURE_MAX) {
		fprintf(stderr, "replayinject: --out 1..%d\n", CAPTURE_MAX);
		return 2;
	}
	c.out = calloc(want, sizeof(*c.out));
	fd = open_packet(ifname, &ifindex);
	if (!c.out || fd < 0)
		return 2;
	fprintf(stderr, "replayinject: capturing on %s\n", ifname);
	end = time(NULL) + timeout;
	while ((!c.in.len || (long)c.n_out < want) && time(NULL) < end) {
		struct sockaddr_ll from;
		socklen_t flen = sizeof(from);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 200) <= 0)
			continue;
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &flen);
		if (n <= 0 || !udp_offset(buf, n, port))
			continue;
		if (from.sll_pkttype != PACKET_OUTGOING) {
			if (!c.in.len && frame_set(&c.in, buf, n))
				return 2;
		} else if ((long)c.n_out < want) {
			if (frame_set(&c.out[c.n_out], buf, n))
				return 2;
			c.n_out++;
		}
	}
	close(fd);
	if (!c.in.len || (long)c.n_out < want) {
		fprintf(stderr, "replayinject: captured %zu out of %ld out, %s in\n",
			c.n_out, want, c.in.len ? "1" : "none");
		return 1;
	}
	if (capture_write(&c, file)) {
		perror("replayinject: writing the capture");
		return 2;
	}
	printf("captured out %zu bytes%s, in %zu bytes\n", c.out[0].len,
	       c.n_out > 1 ? " and more" : "", c.in.len);
	if (c.n_out > 1)
		printf("captured %zu out\n", c.n_out);
	return 0;
}

/* One frame out of IFACE, waiting out a full queue rather than losing it. */
static int send_frame(int fd, int ifindex, const uint8_t *f, size_t len)
{
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = 6,
				  .sll_ifindex = ifindex };

	memcpy(to.sll_addr, f, 6);
	for (;;) {
		struct timespec ts = { 0, 50000 };

		if (sendto(fd, f, len, 0, (struct sockaddr *)&to,
			   sizeof(to)) == (ssize_t)len)
			return 0;
		if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR) {
			perror("replayinject: sendto");
			return -1;
		}
		nanosleep(&ts, NULL);
	}
}

/* The sequence number of the padtun header after @f's UDP header. */
static void set_seq(uint8_t *f, unsigned long long seq)
{
	uint8_t *hdr = f + ETH_HDR + (f[ETH_HDR] & 0xf) * 4 + 8;
	int i;

	for (i = 0; i < 8; i++)
		hdr[12 + i] = seq >> (56 - 8 * i);
}

static int cmd_send(int argc, char **argv)
{
	const char *ifname = argv[0], *file = argv[1];
	long count = atol(argv[2]), interval_ms = 20, i, sent = 0;
	unsigned long long seq = 0;
	struct frame *frames[2];
	bool set = false;
	struct capture c;
	struct timespec gap;
	int fd, ifindex, k;

	for (k = 3; k + 1 < argc; k += 2) {
		if (!strcmp(argv[k], "--interval-ms")) {
			interval_ms = atol(argv[k + 1]);
		} else if (!strcmp(argv[k], "--seq")) {
			seq = strtoull(argv[k + 1], NULL, 0);
			set = true;
		}
	}
	if (capture_read(&c, file)) {
		perror("replayinject: reading the capture");
		return 2;
	}
	frames[0] = &c.out[0];
	frames[1] = &c.in;
	turn_around(c.in.data);
	if (set)
		set_seq(frames[0]->data, seq);
	for (k = 0; k < 2; k++)
		fix_checksums(frames[k]->data, frames[k]->len);

	fd = open_packet(ifname, &ifindex);
	if (fd < 0)
		return 2;
	gap.tv_sec = interval_ms / 1000;
	gap.tv_nsec = (interval_ms % 1000) * 1000000;
	for (i = 0; i < count; i++) {
		/* in (reflected), then out; with --seq only out */
		for (k = set ? 0 : 1; k >= 0; k--) {
			if (!send_frame(fd, ifindex, frames[k]->data,
					frames[k]->len))
				sent++;
			nanosleep(&gap, NULL);
		}
	}
	close(fd);
	printf("sent %ld\n", sent);
	return sent == (set ? 1 : 2) * count ? 0 : 1;
}

/* ---- record and play: the one-sided receive test's load ---------------- */

#define RECORD_MAX	150000	/* frames: about 220 MB of the guest's RAM */
#define RECORD_RCVBUF	(64 << 20)
#define PLAY_BATCH	64

/* An IPv4 frame of a tunnel: UDP or ESP; not the barriers' TCP. */
static bool tunnel_frame(const uint8_t *f, size_t len)
{
	if (len < ETH_HDR + 20 || f[12] != 0x08 || f[13] != 0x00 ||
	    (f[ETH_HDR] >> 4) != 4)
		return false;
	return f[ETH_HDR + 9] == IPPROTO_UDP || f[ETH_HDR + 9] == IPPROTO_ESP;
}

/* A UDP checksum left partial by an offload: played back, it would be
 * dropped before any tunnel saw it. 0 (none) is left alone.
 */
static bool udp_checksum_bad(const uint8_t *f, size_t len)
{
	const uint8_t *ip = f + ETH_HDR, *udp;
	size_t ihl = (ip[0] & 0xf) * 4, ulen;

	if (ip[9] != IPPROTO_UDP || ihl < 20 || len < ETH_HDR + ihl + 8)
		return false;
	udp = ip + ihl;
	ulen = (udp[4] << 8) | udp[5];
	if (!(udp[6] | udp[7]) || ulen < 8 || ulen > len - ETH_HDR - ihl)
		return false;
	return fold(sum16(udp, ulen, sum16(ip + 12, 8, 0) + IPPROTO_UDP + ulen));
}

static int cmd_record(int argc, char **argv)
{
	const char *ifname = argv[0], *file = argv[1];
	double seconds = atof(argv[2]), end;
	static uint8_t buf[FRAME_MAX];
	int fd, ifindex, rcvbuf = RECORD_RCVBUF, bad = 0;
	struct tpacket_stats st = { 0 };
	socklen_t stlen = sizeof(st);
	long frames = 0, fixed = 0;
	FILE *out;

	if (argc != 3 || seconds <= 0) {
		fprintf(stderr, "replayinject: record IFACE FILE SECONDS\n");
		return 2;
	}
	fd = open_packet(ifname, &ifindex);
	if (fd < 0)
		return 2;
	/* Losing frames here would read as loss at the receiver. */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	out = fopen(file, "w");
	if (!out) {
		perror("replayinject: record");
		return 2;
	}
	end = pace_now() + seconds;
	while (frames < RECORD_MAX && !bad && pace_now() < end) {
		struct sockaddr_ll from;
		socklen_t flen = sizeof(from);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint32_t len;
		ssize_t n;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &flen);
		if (n <= 0 || from.sll_pkttype != PACKET_OUTGOING ||
		    !tunnel_frame(buf, n))
			continue;
		if (udp_checksum_bad(buf, n)) {
			fix_checksums(buf, n);
			fixed++;
		}
		len = n;
		bad = fputc('o', out) == EOF || fwrite(&len, 4, 1, out) != 1 ||
		      fwrite(buf, len, 1, out) != 1;
		frames++;
	}
	getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &stlen);
	close(fd);
	if (fclose(out) || bad) {
		perror("replayinject: writing the recording");
		return 2;
	}
	printf("recorded %ld dropped %u fixed %ld\n", frames, st.tp_drops,
	       fixed);
	return frames ? 0 : 1;
}

/* The recording's frames, in place in the mapped FILE. */
static struct iovec *recording_frames(const uint8_t *p, size_t size,
				      size_t *n)
{
	struct iovec *iov = calloc(RECORD_MAX, sizeof(*iov));
	size_t off = 0;
	uint32_t len;

	*n = 0;
	while (iov && *n < RECORD_MAX && off + 5 <= size && p[off] == 'o') {
		memcpy(&len, p + off + 1, 4);
		if (len > FRAME_MAX || off + 5 + len > size)
			break;
		iov[*n].iov_base = (void *)(p + off + 5);
		iov[(*n)++].iov_len = len;
		off += 5 + len;
	}
	return iov;
}

static int cmd_play(int argc, char **argv)
{
	static struct mmsghdr msgs[PLAY_BATCH];
	const char *ifname = argv[0], *file = argv[1];
	int fd, in, ifindex, one = 1;
	size_t n, sent = 0, i;
	struct iovec *iov;
	struct stat sb;
	double start;
	uint8_t *p;

	if (argc != 2)
		return 2;
	in = open(file, O_RDONLY);
	if (in < 0 || fstat(in, &sb) || !sb.st_size) {
		fprintf(stderr, "replayinject: no recording in %s\n", file);
		return 2;
	}
	p = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, in, 0);
	close(in);
	if (p == MAP_FAILED) {
		perror("replayinject: mmap");
		return 2;
	}
	iov = recording_frames(p, sb.st_size, &n);
	fd = open_packet(ifname, &ifindex);
	if (!iov || fd < 0)
		return 2;
	/* Straight to the driver: the qdisc is no part of the receiver. */
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	start = pace_now();
	while (sent < n) {
		size_t batch = n - sent < PLAY_BATCH ? n - sent : PLAY_BATCH;
		int r;

		for (i = 0; i < batch; i++) {
			memset(&msgs[i], 0, sizeof(msgs[i]));
			msgs[i].msg_hdr.msg_iov = &iov[sent + i];
			msgs[i].msg_hdr.msg_iovlen = 1;
		}
		r = sendmmsg(fd, msgs, batch, 0);
		if (r > 0) {
			sent += r;
			continue;
		}
		/* A full device queue: the frame was not sent; wait. */
		if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR) {
			struct timespec ts = { 0, 50000 };

			nanosleep(&ts, NULL);
			continue;
		}
		perror("replayinject: play");
		return 2;
	}
	printf("played %zu seconds %.3f\n", sent, pace_now() - start);
	return 0;
}

/* ---- hostile: what a sender without the key can make of a capture ------ */

/* The padtun header (docs/padtun.rst, net/messages.h). */
#define PT_HDR		20
#define PT_TAG		16
#define PT_VERSION	5
#define PT_TYPE_DATA	1
/* The sequence field's top byte is the ordering domain: 0 every link has,
 * 0xff none (at most 64).
 */
#define PT_NO_DOMAIN	0xffULL
#define IP_FRAG_DATA	1480	/* fragment payload on a 1500-byte underlay */
#define PACE_BURST	16	/* --rate: datagrams sent per wakeup */

enum hostile_class {
	H_RANDOM,	/* random bytes: rx_malformed */
	H_TRUNCATED,	/* a datagram cut inside header or tag: rx_malformed */
	H_VERSION,	/* another version: rx_malformed */
	H_TYPE,		/* another type (or a handshake's, of a data
			 * datagram's length): rx_malformed
			 */
	H_CSUM,		/* a checksum hint no packet has: rx_malformed */
	H_SEQ_MAX,	/* a sequence field of a domain no link has: rx_malformed */
	H_TAG,		/* a tag bit flipped: rx_auth_failed */
	H_CIPHER,	/* a ciphertext bit flipped: rx_auth_failed */
	H_REPLAY,	/* a valid datagram again: rx_replayed or rx_too_old */
	H_OLD_SESSION,	/* an earlier session, in order: rx_unknown_session */
	H_WRONG_PEER,	/* a valid datagram, another source: rx_wrong_peer */
	H_OWN_SESSION,	/* the receiver's own datagram: rx_own_session */
	H_NEW_SESSION,	/* a made-up session: rx_unknown_session */
	H_UDP_CSUM,	/* bad UDP checksum: Udp InCsumErrors, InErrors */
	H_UDP_LEN,	/* UDP length beyond the datagram: Udp InErrors */
	H_IP_LEN,	/* IP total length beyond the frame: Ip InTruncatedPkts */
	H_IP_CSUM,	/* bad IP header checksum: Ip InHdrErrors */
	H_JUMBO,	/* 64 KB of made-up session data, in IP fragments,
			 * from the peer: reassembled, a full-length AEAD each
			 */
	H_COUNT,
};

static const char *const hostile_name[H_COUNT] = {
	"random", "truncated", "version", "type", "csum", "seq_max",
	"tag", "cipher", "replay", "old_session", "wrong_peer", "own_session",
	"new_session", "udp_csum", "udp_len", "ip_len", "ip_csum", "jumbo",
};

static uint64_t rng_state;

/* splitmix64 */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t rnd_below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static size_t ip_hlen(const uint8_t *f)
{
	return (f[ETH_HDR] & 0xf) * 4;
}

/* The UDP payload (the padtun datagram) of a captured frame. */
static uint8_t *payload(uint8_t *f)
{
	return f + ETH_HDR + ip_hlen(f) + 8;
}

static size_t payload_len(const uint8_t *f, size_t len)
{
	return len - ETH_HDR - ip_hlen(f) - 8;
}

/* Copy @tmpl into @f with a UDP payload of @plen bytes (the first ones
 * of the template's, as far as it has them), lengths set; the caller
 * changes what it wants, then fix_checksums(). Returns the frame length.
 */
static size_t from_template(uint8_t *f, const struct frame *tmpl, size_t plen)
{
	size_t hl = ETH_HDR + ip_hlen(tmpl->data) + 8;
	size_t have = tmpl->len - hl;

	memcpy(f, tmpl->data, hl);
	memcpy(f + hl, tmpl->data + hl, have < plen ? have : plen);
	put16(f + ETH_HDR + 2, plen + hl - ETH_HDR);	/* IP total length */
	put16(f + hl - 8 + 4, plen + 8);		/* UDP length */
	f[ETH_HDR + 6] = 0x40;				/* DF, no offset */
	f[ETH_HDR + 7] = 0;
	return hl + plen;
}

static void fill_random(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = rnd();
}

struct hostile {
	int fd, ifindex;
	struct capture cur, old;
	size_t next_out, next_old;
	uint16_t ip_id;
	long frames;
};

/* The jumbo: a UDP datagram of 65000 bytes built whole, then sent as IP
 * fragments of IP_FRAG_DATA bytes.
 */
static int send_jumbo(struct hostile *h, const struct frame *tmpl)
{
	static uint8_t whole[ETH_HDR + 60 + 8 + 65000], f[FRAME_MAX];
	size_t len = from_template(whole, tmpl, 65000 - 8), ihl, off, n;
	uint8_t *p = payload(whole);

	/* the peer's header and current session, a random sequence number
	 * and body: the receiver has the key, and spends a 65000-byte AEAD
	 * on each, which fails
	 */
	fill_random(p + 12, 65000 - 8 - 12);
	p[12] = 0;		/* the sequence number's domain: 0 */
	fix_checksums(whole, len);
	ihl = ip_hlen(whole);
	h->ip_id++;
	for (off = 0; off < len - ETH_HDR - ihl; off += n) {
		n = len - ETH_HDR - ihl - off;
		if (n > IP_FRAG_DATA)
			n = IP_FRAG_DATA;
		memcpy(f, whole, ETH_HDR + ihl);
		memcpy(f + ETH_HDR + ihl, whole + ETH_HDR + ihl + off, n);
		put16(f + ETH_HDR + 2, ihl + n);
		put16(f + ETH_HDR + 4, h->ip_id);
		put16(f + ETH_HDR + 6, (off / 8) |
		      (off + n < len - ETH_HDR - ihl ? 0x2000 : 0));
		f[ETH_HDR + 10] = 0;
		f[ETH_HDR + 11] = 0;
		put16(f + ETH_HDR + 10, fold(sum16(f + ETH_HDR, ihl, 0)));
		if (send_frame(h->fd, h->ifindex, f, ETH_HDR + ihl + n))
			return -1;
		h->frames++;
	}
	return 0;
}

/* The classes stand on data datagrams: leave out the handshake messages
 * a capture may hold (an init repeated while the peer's link was not up
 * yet). -1 if no data datagram is left going out, or, when @in is
 * wanted, coming in.
 */
static int keep_data(struct capture *c, int in)
{
	size_t i, n = 0;

	for (i = 0; i < c->n_out; i++)
		if (payload(c->out[i].data)[1] == PT_TYPE_DATA)
			c->out[n++] = c->out[i];
	c->n_out = n;
	if (!n || (in && payload(c->in.data)[1] != PT_TYPE_DATA)) {
		fprintf(stderr, "replayinject: no data datagram in each direction\n");
		return -1;
	}
	return 0;
}

/* Build and send one datagram of class @c. */
static int send_hostile(struct hostile *h, enum hostile_class c)
{
	static uint8_t f[FRAME_MAX];
	const struct frame *t = &h->cur.out[h->next_out++ % h->cur.n_out];
	size_t plen = payload_len(t->data, t->len), len = 0;
	/* where from_template() puts the payload: the template's layout */
	uint8_t *p = f + (payload(t->data) - t->data), *ip = f + ETH_HDR;
	uint64_t seq;
	int i;

	switch (c) {
	case H_RANDOM:
		len = from_template(f, t, 1 + rnd_below(1400));
		fill_random(p, len - (p - f));
		if (p[0] == PT_VERSION)
			p[0] = ~PT_VERSION;
		break;
	case H_TRUNCATED:
		len = from_template(f, t, rnd_below(PT_HDR + PT_TAG));
		break;
	case H_VERSION:
		len = from_template(f, t, plen);
		p[0] = PT_VERSION + 1 + rnd_below(255);	/* never 5 mod 256 */
		break;
	case H_TYPE:
		len = from_template(f, t, plen);
		p[1] = PT_TYPE_DATA + 1 + rnd_below(255);
		break;
	case H_CSUM:
		len = from_template(f, t, plen);
		p[2] = rnd() | 1;	/* odd: inside no IP header's bound */
		break;
	case H_SEQ_MAX:
		len = from_template(f, t, plen);
		seq = PT_NO_DOMAIN << 56 | rnd_below(1 << 16);
		for (i = 0; i < 8; i++)
			p[12 + i] = seq >> (56 - 8 * i);
		break;
	case H_TAG:
		len = from_template(f, t, plen);
		p[plen - 1 - rnd_below(PT_TAG)] ^= 1 << rnd_below(8);
		break;
	case H_CIPHER:
		len = from_template(f, t, plen);
		p[PT_HDR + rnd_below(plen - PT_HDR - PT_TAG)] ^= 1 << rnd_below(8);
		break;
	case H_REPLAY:
		len = from_template(f, t, plen);
		break;
	case H_OLD_SESSION:
		t = &h->old.out[h->next_old++ % h->old.n_out];
		len = from_template(f, t, payload_len(t->data, t->len));
		p = f + (payload(t->data) - t->data);
		break;
	case H_WRONG_PEER:
		len = from_template(f, t, plen);
		ip[15] = 10 + rnd_below(200);	/* another host of the /24 */
		if (ip[15] == ip[19] || !memcmp(ip + 12, t->data + ETH_HDR + 12, 4))
			ip[15] = 250;
		break;
	case H_OWN_SESSION:
		memcpy(f, h->cur.in.data, h->cur.in.len);	/* turned around */
		len = h->cur.in.len;
		break;
	case H_NEW_SESSION:
		len = from_template(f, t, PT_HDR + PT_TAG + rnd_below(1400));
		fill_random(p + 4, len - (p - f) - 4);
		p[0] = PT_VERSION;
		p[1] = PT_TYPE_DATA;
		p[2] = 0;
		p[3] = 0;
		p[12] = 0;		/* domain 0 */
		break;
	case H_UDP_CSUM:
	case H_UDP_LEN:
	case H_IP_LEN:
	case H_IP_CSUM:
		len = from_template(f, t, plen);
		break;
	case H_JUMBO:
		return send_jumbo(h, t);
	case H_COUNT:
		return -1;
	}
	fix_checksums(f, len);
	switch (c) {	/* what the stack refuses: after the checksums */
	case H_UDP_CSUM:
		p[-1] ^= 0x5a;	/* never 0 (no checksum) from a valid one */
		if (!p[-1] && !p[-2])
			p[-2] = 1;
		break;
	case H_UDP_LEN:
		put16(p - 4, plen + 8 + 1 + rnd_below(64));
		break;
	case H_IP_LEN:
		put16(ip + 2, len - ETH_HDR + 1 + rnd_below(64));
		ip[10] = 0;
		ip[11] = 0;
		put16(ip + 10, fold(sum16(ip, ip_hlen(f), 0)));
		break;
	case H_IP_CSUM:
		ip[11] ^= 1 + rnd_below(255);
		break;
	default:
		break;
	}
	if (send_frame(h->fd, h->ifindex, f, len))
		return -1;
	h->frames++;
	return 0;
}

static int parse_classes(const char *list, bool *use)
{
	char *copy = strdup(list), *tok, *save;
	int c, n = 0;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (c = 0; c < H_COUNT && strcmp(tok, hostile_name[c]); c++)
			;
		if (c == H_COUNT) {
			fprintf(stderr, "replayinject: no class %s\n", tok);
			free(copy);
			return -1;
		}
		use[c] = true;
		n++;
	}
	free(copy);
	return n ? 0 : -1;
}

static int cmd_hostile(int argc, char **argv)
{
	const char *ifname = argv[0];
	long count = atol(argv[3]), sent[H_COUNT] = { 0 }, total = 0, i;
	uint64_t rate = 0;
	struct timespec start;
	bool use[H_COUNT] = { false };
	enum hostile_class order[H_COUNT];
	struct hostile h = { 0 };
	int n = 0, c, a;

	rng_state = 1;
	for (a = 4; a + 1 < argc; a += 2) {
		if (!strcmp(argv[a], "--rate"))
			rate = strtoull(argv[a + 1], NULL, 10);
		else if (!strcmp(argv[a], "--seed"))
			rng_state = strtoull(argv[a + 1], NULL, 10);
		else if (!strcmp(argv[a], "--classes") &&
			 parse_classes(argv[a + 1], use))
			return 2;
	}
	for (c = 0; c < H_COUNT; c++)
		n += use[c];
	if (!n)		/* all but the jumbo, which is its own flood */
		for (c = 0; c < H_JUMBO; c++)
			use[c] = true;
	for (n = 0, c = 0; c < H_COUNT; c++)
		if (use[c])
			order[n++] = c;
	if (count < 1 || capture_read(&h.cur, argv[1]) ||
	    capture_read(&h.old, argv[2]) || keep_data(&h.cur, 1) ||
	    keep_data(&h.old, 0))
		return 2;
	turn_around(h.cur.in.data);
	h.fd = open_packet(ifname, &h.ifindex);
	if (h.fd < 0)
		return 2;
	h.ip_id = rnd();

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < count; i++) {
		/* absolute deadlines, as seqcheck, but one wakeup per
		 * PACE_BURST datagrams: in a TCG guest, a timer wakeup per
		 * datagram costs more than the datagram
		 */
		if (rate && i % PACE_BURST == 0)
			pace_until(&start, i, rate, NULL);
		c = order[i % n];
		if (send_hostile(&h, c))
			break;
		sent[c]++;
		total++;
	}
	close(h.fd);
	for (c = 0; c < H_COUNT; c++)
		if (use[c])
			printf("%s %ld\n", hostile_name[c], sent[c]);
	printf("frames %ld\n", h.frames);
	printf("sent %ld\n", total);
	return total == count ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "capture"))
		return cmd_capture(argc - 2, argv + 2);
	if (argc >= 5 && !strcmp(argv[1], "send"))
		return cmd_send(argc - 2, argv + 2);
	if (argc >= 6 && !strcmp(argv[1], "hostile"))
		return cmd_hostile(argc - 2, argv + 2);
	if (argc == 5 && !strcmp(argv[1], "record"))
		return cmd_record(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "play"))
		return cmd_play(argc - 2, argv + 2);
	fprintf(stderr,
		"usage: replayinject capture IFACE PORT FILE [--timeout SEC] [--out N]\n"
		"       replayinject send IFACE FILE COUNT [--interval-ms N] [--seq N]\n"
		"       replayinject hostile IFACE FILE OLDFILE COUNT [--rate PPS]\n"
		"                    [--seed N] [--classes NAME,...]\n"
		"       replayinject record IFACE FILE SECONDS\n"
		"       replayinject play IFACE FILE\n");
	return 2;
}
