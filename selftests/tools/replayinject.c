// SPDX-License-Identifier: GPL-2.0
/*
 * replayinject - an on-path attacker without the key, for the padtun
 * replay scenario (selftests/scenarios/padtun-replay.sh).
 *
 *   replayinject capture IFACE PORT FILE [--timeout SEC]
 *   replayinject send IFACE FILE COUNT [--interval-ms N]
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
 * "sent N" and exits 0 when every frame went out.
 *
 * No key, no knowledge of the padtun format: whatever the tunnel sent.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FRAME_MAX	65536
#define ETH_HDR		14

struct frame {
	size_t len;
	uint8_t data[FRAME_MAX];
};

static struct frame frames[2];	/* [0]: out, [1]: in */

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
	int port = atoi(argv[1]), timeout = 10, fd, ifindex, got = 0;
	static uint8_t buf[FRAME_MAX];
	time_t end;
	FILE *out;

	if (argc >= 5 && !strcmp(argv[3], "--timeout"))
		timeout = atoi(argv[4]);
	fd = open_packet(ifname, &ifindex);
	if (fd < 0)
		return 2;
	fprintf(stderr, "replayinject: capturing on %s\n", ifname);
	end = time(NULL) + timeout;
	while (got != 3 && time(NULL) < end) {
		struct sockaddr_ll from;
		socklen_t flen = sizeof(from);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int dir;

		if (poll(&pfd, 1, 200) <= 0)
			continue;
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &flen);
		if (n <= 0 || !udp_offset(buf, n, port))
			continue;
		dir = from.sll_pkttype == PACKET_OUTGOING ? 0 : 1;
		if (got & (1 << dir))
			continue;
		frames[dir].len = n;
		memcpy(frames[dir].data, buf, n);
		got |= 1 << dir;
	}
	close(fd);
	if (got != 3) {
		fprintf(stderr, "replayinject: captured %s%s only\n",
			got & 1 ? "out" : "", got & 2 ? "in" : "");
		return 1;
	}
	out = fopen(file, "w");
	if (!out || fwrite(frames, sizeof(frames), 1, out) != 1 || fclose(out)) {
		perror("replayinject: writing the capture");
		return 2;
	}
	printf("captured out %zu bytes, in %zu bytes\n", frames[0].len,
	       frames[1].len);
	return 0;
}

static int cmd_send(int argc, char **argv)
{
	const char *ifname = argv[0], *file = argv[1];
	long count = atol(argv[2]), interval_ms = 20, i, sent = 0;
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = 6 };
	struct timespec gap;
	int fd, ifindex, k;
	FILE *in;

	if (argc >= 5 && !strcmp(argv[3], "--interval-ms"))
		interval_ms = atol(argv[4]);
	in = fopen(file, "r");
	if (!in || fread(frames, sizeof(frames), 1, in) != 1) {
		perror("replayinject: reading the capture");
		return 2;
	}
	fclose(in);
	turn_around(frames[1].data);
	for (k = 0; k < 2; k++)
		fix_checksums(frames[k].data, frames[k].len);

	fd = open_packet(ifname, &ifindex);
	if (fd < 0)
		return 2;
	to.sll_ifindex = ifindex;
	gap.tv_sec = interval_ms / 1000;
	gap.tv_nsec = (interval_ms % 1000) * 1000000;
	for (i = 0; i < count; i++) {
		for (k = 1; k >= 0; k--) {	/* in (reflected), then out */
			memcpy(to.sll_addr, frames[k].data, 6);
			if (sendto(fd, frames[k].data, frames[k].len, 0,
				   (struct sockaddr *)&to, sizeof(to)) ==
			    (ssize_t)frames[k].len)
				sent++;
			else
				perror("replayinject: sendto");
			nanosleep(&gap, NULL);
		}
	}
	close(fd);
	printf("sent %ld\n", sent);
	return sent == 2 * count ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "capture"))
		return cmd_capture(argc - 2, argv + 2);
	if (argc >= 5 && !strcmp(argv[1], "send"))
		return cmd_send(argc - 2, argv + 2);
	fprintf(stderr,
		"usage: replayinject capture IFACE PORT FILE [--timeout SEC]\n"
		"       replayinject send IFACE FILE COUNT [--interval-ms N]\n");
	return 2;
}
