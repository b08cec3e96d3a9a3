// SPDX-License-Identifier: GPL-2.0
/*
 * udpload - the load of make bench's one-sided tests: UDP datagrams to one
 * address as fast as the local stack takes them, for a given time, with
 * as little of the sending guest's CPU as a sender can take: sendmmsg()
 * of a batch of the same datagram, no payload to build per datagram, no
 * receiver, no sequence numbers (seqcheck is the checker; this is only
 * the load).
 *
 *   udpload ADDR PORT SIZE SECONDS [--batch N] [--flows F]
 *
 * ADDR is numeric IPv4 or IPv6, SIZE the UDP payload (1..65507), N the
 * datagrams per sendmmsg() call (1..1024, default 64). With F flows
 * (1..64, default 1) the calls go round F sockets, each with a source
 * port of its own, so that a device that hashes flows (padtun's order
 * flow) sees F of them. A full socket buffer blocks the sender, as it
 * should: what is measured is the path below the socket. Prints "sent N
 * seconds S" (S: elapsed, monotonic) and exits 0; 2 on usage or system
 * errors.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "pace.h"

#define BATCH_MAX	1024
#define FLOWS_MAX	64
#define SIZE_MAX_UDP	65507

static int parse_num(const char *s, long min, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	if (errno || end == s || *end || *out < min || *out > max) {
		fprintf(stderr, "udpload: '%s' is not a number in %ld..%ld\n",
			s, min, max);
		return -1;
	}
	return 0;
}

static int parse_addr(const char *s, long port, struct sockaddr_storage *ss,
		      socklen_t *len)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		*len = sizeof(*sin);
		return 0;
	}
	if (inet_pton(AF_INET6, s, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*sin6);
		return 0;
	}
	fprintf(stderr, "udpload: '%s' is not a numeric address\n", s);
	return -1;
}

static void print_usage(FILE *f)
{
	fprintf(f, "usage: udpload ADDR PORT SIZE SECONDS [--batch N] [--flows F]\n");
}

int main(int argc, char **argv)
{
	static struct mmsghdr msgs[BATCH_MAX];
	static struct iovec iov;
	struct sockaddr_storage ss;
	long port, size, seconds, batch = 64, flows = 1;
	int fds[FLOWS_MAX];
	double start, end;
	uint64_t sent = 0, calls = 0;
	socklen_t sslen;
	char *buf;
	int i;

	if (argc < 5 || argc % 2 == 0) {
		print_usage(stderr);
		return 2;
	}
	for (i = 5; i < argc; i += 2) {
		if (!strcmp(argv[i], "--batch")) {
			if (parse_num(argv[i + 1], 1, BATCH_MAX, &batch))
				return 2;
		} else if (!strcmp(argv[i], "--flows")) {
			if (parse_num(argv[i + 1], 1, FLOWS_MAX, &flows))
				return 2;
		} else {
			print_usage(stderr);
			return 2;
		}
	}
	if (parse_num(argv[2], 1, 65535, &port) ||
	    parse_num(argv[3], 1, SIZE_MAX_UDP, &size) ||
	    parse_num(argv[4], 1, 3600, &seconds) ||
	    parse_addr(argv[1], port, &ss, &sslen))
		return 2;
	buf = calloc(1, (size_t)size);
	if (!buf) {
		perror("udpload");
		return 2;
	}
	/* Unconnected: each socket binds an ephemeral port at its first send. */
	for (i = 0; i < flows; i++) {
		fds[i] = socket(ss.ss_family, SOCK_DGRAM, 0);
		if (fds[i] < 0) {
			perror("udpload: socket");
			return 2;
		}
	}
	iov.iov_base = buf;
	iov.iov_len = (size_t)size;
	for (i = 0; i < batch; i++) {
		msgs[i].msg_hdr.msg_name = &ss;
		msgs[i].msg_hdr.msg_namelen = sslen;
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	start = pace_now();
	end = start + (double)seconds;
	while (pace_now() < end) {
		int n = sendmmsg(fds[calls++ % (uint64_t)flows], msgs,
				 (unsigned int)batch, 0);

		if (n > 0) {
			sent += (uint64_t)n;
			continue;
		}
		/* A stale ICMP error: the peer discards, it may say so. */
		if (n < 0 && (errno == ECONNREFUSED || errno == EINTR))
			continue;
		/* A full local queue: wait, as seqcheck does, not spin. */
		if (n < 0 && (errno == ENOBUFS || errno == EAGAIN)) {
			struct timespec ts = { 0, 50000 };

			nanosleep(&ts, NULL);
			continue;
		}
		perror("udpload: sendmmsg");
		return 2;
	}
	printf("sent %" PRIu64 " seconds %.3f\n", sent, pace_now() - start);
	return 0;
}
