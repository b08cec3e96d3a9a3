// SPDX-License-Identifier: GPL-2.0
/*
 * link_padtun.c - iproute2 link plugin for the padtun tunnel device.
 *
 * Built as link_padtun.so and loaded by a stock /usr/bin/ip (iproute2 6.1)
 * from $IP_LIB_DIR or /usr/lib/x86_64-linux-gnu/ip/:
 *
 *   ip link add padtun0 type padtun local A remote B port P key HEX ...
 *   ip link set padtun0 type padtun cpus 1
 *   ip -d link show padtun0
 *   ip link help padtun
 *
 * The plugin only encodes what was given on the command line: defaults and
 * semantic checks (key length per transform, transform names, cpulist
 * syntax, ranges) are the kernel's, reported through extack.
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/padtun.h>

#include "ip_abi.h"

/* Loose client-side bound: the largest key of any transform is well below. */
#define PADTUN_KEY_MAX		64
/* Netlink room: ip builds the whole request with addattr*(n, 1024, ...). */
#define PADTUN_NL_MAXLEN	1024
#define PADTUN_CPUS_MAX		256
#define PADTUN_STR_MAX		256

#define PADTUN_ATTRSET(attrs, type)	(((attrs) & (1U << (type))) != 0)

static void print_explain(FILE *f)
{
	fprintf(f,
		"Usage: ... padtun [ local ADDR ] [ remote ADDR ]\n"
		"                  [ port PORT ] [ localport PORT ] [ remoteport PORT ]\n"
		"                  [ key HEX ] [ transform TRANSFORM ]\n"
		"                  [ cpus CPULIST ] [ cbcpu CPU ] [ rxcbcpu CPU ]\n"
		"                  [ maxinflight NUMBER ]\n"
		"                  [ order { link | flow } ] [ domains DOMAINS ]\n"
		"\n"
		"Where: ADDR      := { IP_ADDRESS | IPV6_ADDRESS } (local and remote of one family)\n"
		"       PORT      := 1-65535 (port sets both localport and remoteport)\n"
		"       HEX       := key as hex digits, e.g. 000102...1f (never shown)\n"
		"       TRANSFORM := { chacha20poly1305 | gcm-aes | none }\n"
		"       CPULIST   := CPU list of the parallel workers, e.g. 0-3 or 0,2,4-7\n"
		"       CPU       := a serial (callback) CPU number: cbcpu transmit's,\n"
		"                    rxcbcpu receive's (default: cbcpu)\n"
		"       NUMBER    := packets in flight per direction\n"
		"       order     := link keeps all the link carries in one order (default);\n"
		"                    flow keeps each inner flow's, in DOMAINS orders\n"
		"       DOMAINS   := 1-64 ordering domains of order flow (default 8);\n"
		"                    both ends alike, changed only while the link is down\n"
	);
}

static void explain(void)
{
	print_explain(stderr);
}

static void check_duparg(unsigned int *attrs, int type, const char *key,
			 const char *arg)
{
	if (PADTUN_ATTRSET(*attrs, type))
		duparg2(key, arg);
	*attrs |= 1U << type;
}

static void parse_port(__u16 *port, const char *what, const char *arg)
{
	if (get_u16(port, arg, 0) || *port == 0)
		invarg(what, arg);
}

static void parse_addr(struct inet_prefix *addr, const char *what, const char *arg)
{
	/* get_addr() exits itself on an unparsable address */
	get_addr(addr, arg, AF_UNSPEC);
	if (!((addr->family == AF_INET && addr->bytelen == 4) ||
	      (addr->family == AF_INET6 && addr->bytelen == 16)))
		invarg(what, arg);
}

static int padtun_parse_opt(struct link_util *lu, int argc, char **argv,
			    struct nlmsghdr *n)
{
	struct inet_prefix local = { .family = AF_UNSPEC };
	struct inet_prefix remote = { .family = AF_UNSPEC };
	__u8 key[PADTUN_KEY_MAX];
	unsigned int keylen = 0;
	const char *transform = NULL;
	const char *cpus = NULL;
	__u16 lport = 0, rport = 0;
	__u32 cbcpu = 0, rxcbcpu = 0, maxinflight = 0, domains = 0;
	__u8 order = PADTUN_ORDER_LINK;
	unsigned int attrs = 0;
	int err = 0;

	(void)lu;

	while (argc > 0) {
		if (strcmp(*argv, "local") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_LOCAL, "local", *argv);
			parse_addr(&local, "invalid local address", *argv);
			if (remote.family != AF_UNSPEC &&
			    remote.family != local.family)
				invarg("local and remote must be of the same address family",
				       *argv);
		} else if (strcmp(*argv, "remote") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_REMOTE, "remote", *argv);
			parse_addr(&remote, "invalid remote address", *argv);
			if (local.family != AF_UNSPEC &&
			    local.family != remote.family)
				invarg("local and remote must be of the same address family",
				       *argv);
		} else if (strcmp(*argv, "port") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_LOCAL_PORT, "port", *argv);
			check_duparg(&attrs, IFLA_PADTUN_REMOTE_PORT, "port", *argv);
			parse_port(&lport, "invalid port", *argv);
			rport = lport;
		} else if (strcmp(*argv, "localport") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_LOCAL_PORT, "localport",
				     *argv);
			parse_port(&lport, "invalid localport", *argv);
		} else if (strcmp(*argv, "remoteport") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_REMOTE_PORT, "remoteport",
				     *argv);
			parse_port(&rport, "invalid remoteport", *argv);
		} else if (strcmp(*argv, "key") == 0) {
			const char *hex;

			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_KEY, "key", *argv);
			hex = *argv;
			if (strncmp(hex, "0x", 2) == 0)
				hex += 2;
			/* hexstring_a2n() truncates silently: bound it first */
			if (!*hex || strlen(hex) > 2 * PADTUN_KEY_MAX ||
			    !hexstring_a2n(hex, key, sizeof(key), &keylen) ||
			    keylen == 0)
				invarg("key must be 1 to 64 bytes of hex digits",
				       "(not shown)");
		} else if (strcmp(*argv, "transform") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_TRANSFORM, "transform",
				     *argv);
			if (!**argv || strlen(*argv) >= PADTUN_STR_MAX)
				invarg("invalid transform", *argv);
			transform = *argv;
		} else if (strcmp(*argv, "cpus") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_CPUS, "cpus", *argv);
			if (!**argv || strlen(*argv) >= PADTUN_CPUS_MAX)
				invarg("invalid cpu list", *argv);
			cpus = *argv;
		} else if (strcmp(*argv, "cbcpu") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_CB_CPU, "cbcpu", *argv);
			if (get_u32(&cbcpu, *argv, 0))
				invarg("invalid cbcpu", *argv);
		} else if (strcmp(*argv, "rxcbcpu") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_RX_CB_CPU, "rxcbcpu",
				     *argv);
			if (get_u32(&rxcbcpu, *argv, 0))
				invarg("invalid rxcbcpu", *argv);
		} else if (strcmp(*argv, "maxinflight") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_MAX_INFLIGHT,
				     "maxinflight", *argv);
			if (get_u32(&maxinflight, *argv, 0))
				invarg("invalid maxinflight", *argv);
		} else if (strcmp(*argv, "order") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_ORDER, "order", *argv);
			if (strcmp(*argv, "flow") == 0)
				order = PADTUN_ORDER_FLOW;
			else if (strcmp(*argv, "link") != 0)
				invarg("order must be link or flow", *argv);
		} else if (strcmp(*argv, "domains") == 0) {
			NEXT_ARG();
			check_duparg(&attrs, IFLA_PADTUN_DOMAINS, "domains",
				     *argv);
			if (get_u32(&domains, *argv, 0))
				invarg("invalid domains", *argv);
		} else {
			if (strcmp(*argv, "help") != 0)
				fprintf(stderr, "padtun: unknown option \"%s\"?\n",
					*argv);
			explain();
			return -1;
		}
		argc--, argv++;
	}

	if (PADTUN_ATTRSET(attrs, IFLA_PADTUN_LOCAL))
		err |= addattr_l(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_LOCAL,
				 local.data, local.bytelen);
	if (PADTUN_ATTRSET(attrs, IFLA_PADTUN_REMOTE))
		err |= addattr_l(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_REMOTE,
				 remote.data, remote.bytelen);
	if (PADTUN_ATTRSET(attrs, IFLA_PADTUN_LOCAL_PORT))
		err |= addattr16(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_LOCAL_PORT,
				 htons(lport));
	if (PADTUN_ATTRSET(attrs, IFLA_PADTUN_REMOTE_PORT))
		err |= addattr16(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_REMOTE_PORT,
				 htons(rport));
	if (PADTUN_ATTRSET(attrs, IFLA_PADTUN_KEY))
		err |= addattr_l(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_KEY,
				 key, keylen);
	if (transform)
		err |= addattrstrz(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_TRANSFORM,
				   transform);
	if (cpus)
		err |= addattrstrz(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_CPUS, cpus);
	if (PADTUN_ATTRSET(attrs, IFLA_PADTUN_CB_CPU))
		err |= addattr32(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_CB_CPU, cbcpu);
	if (PADTUN_ATTRSET(attrs, IFLA_PADTUN_RX_CB_CPU))
		err |= addattr32(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_RX_CB_CPU,
				 rxcbcpu);
	if (PADTUN_ATTRSET(attrs, IFLA_PADTUN_MAX_INFLIGHT))
		err |= addattr32(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_MAX_INFLIGHT,
				 maxinflight);
	if (PADTUN_ATTRSET(attrs, IFLA_PADTUN_ORDER))
		err |= addattr8(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_ORDER, order);
	if (PADTUN_ATTRSET(attrs, IFLA_PADTUN_DOMAINS))
		err |= addattr32(n, PADTUN_NL_MAXLEN, IFLA_PADTUN_DOMAINS,
				 domains);

	/* The key's bytes must not outlive the request buffer. */
	memset(key, 0, sizeof(key));
	__asm__ __volatile__("" : : "r"(key) : "memory");

	return err ? -1 : 0;
}

static void print_addr(struct rtattr *rta, const char *key, const char *fmt)
{
	int len = RTA_PAYLOAD(rta);

	if (len == 4)
		print_color_string(PRINT_ANY, COLOR_INET, key, fmt,
				   format_host(AF_INET, 4, RTA_DATA(rta)));
	else if (len == 16)
		print_color_string(PRINT_ANY, COLOR_INET6, key, fmt,
				   format_host(AF_INET6, 16, RTA_DATA(rta)));
}

/* Strings are copied out: never trust a dump to be NUL-terminated. */
static void print_str_attr(struct rtattr *rta, const char *key,
			   const char *fmt)
{
	char buf[PADTUN_STR_MAX];
	size_t len = RTA_PAYLOAD(rta);

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, RTA_DATA(rta), len);
	buf[len] = '\0';
	print_string(PRINT_ANY, key, fmt, buf);
}

static bool attr_ok(struct rtattr *tb[], int type, size_t minlen)
{
	return tb[type] && RTA_PAYLOAD(tb[type]) >= minlen;
}

static void padtun_print_opt(struct link_util *lu, FILE *f,
			     struct rtattr *tb[])
{
	(void)lu;
	(void)f;

	if (!tb)
		return;

	if (tb[IFLA_PADTUN_LOCAL])
		print_addr(tb[IFLA_PADTUN_LOCAL], "local", "local %s ");
	if (tb[IFLA_PADTUN_REMOTE])
		print_addr(tb[IFLA_PADTUN_REMOTE], "remote", "remote %s ");
	if (attr_ok(tb, IFLA_PADTUN_LOCAL_PORT, sizeof(__u16)))
		print_uint(PRINT_ANY, "local_port", "localport %u ",
			   rta_getattr_be16(tb[IFLA_PADTUN_LOCAL_PORT]));
	if (attr_ok(tb, IFLA_PADTUN_REMOTE_PORT, sizeof(__u16)))
		print_uint(PRINT_ANY, "remote_port", "remoteport %u ",
			   rta_getattr_be16(tb[IFLA_PADTUN_REMOTE_PORT]));
	if (attr_ok(tb, IFLA_PADTUN_TRANSFORM, 1)) {
		print_str_attr(tb[IFLA_PADTUN_TRANSFORM], "transform",
			       "transform %s ");
		/* The one transform that seals nothing: say what it is for. */
		if (RTA_PAYLOAD(tb[IFLA_PADTUN_TRANSFORM]) == sizeof("none") &&
		    !memcmp(RTA_DATA(tb[IFLA_PADTUN_TRANSFORM]), "none",
			    sizeof("none"))) {
			print_bool(PRINT_JSON, "measurement_only", NULL, true);
			print_string(PRINT_FP, NULL, "%s ",
				     "(measurement only: nothing sealed)");
		}
	}
	if (attr_ok(tb, IFLA_PADTUN_CPUS, 1))
		print_str_attr(tb[IFLA_PADTUN_CPUS], "cpus", "cpus %s ");
	if (attr_ok(tb, IFLA_PADTUN_CB_CPU, sizeof(__u32)))
		print_uint(PRINT_ANY, "cb_cpu", "cbcpu %u ",
			   rta_getattr_u32(tb[IFLA_PADTUN_CB_CPU]));
	if (attr_ok(tb, IFLA_PADTUN_RX_CB_CPU, sizeof(__u32)))
		print_uint(PRINT_ANY, "rx_cb_cpu", "rxcbcpu %u ",
			   rta_getattr_u32(tb[IFLA_PADTUN_RX_CB_CPU]));
	if (attr_ok(tb, IFLA_PADTUN_MAX_INFLIGHT, sizeof(__u32)))
		print_uint(PRINT_ANY, "max_inflight", "maxinflight %u ",
			   rta_getattr_u32(tb[IFLA_PADTUN_MAX_INFLIGHT]));
	if (attr_ok(tb, IFLA_PADTUN_ORDER, sizeof(__u8)))
		print_string(PRINT_ANY, "order", "order %s ",
			     rta_getattr_u8(tb[IFLA_PADTUN_ORDER]) ==
			     PADTUN_ORDER_FLOW ? "flow" : "link");
	if (attr_ok(tb, IFLA_PADTUN_DOMAINS, sizeof(__u32)))
		print_uint(PRINT_ANY, "domains", "domains %u ",
			   rta_getattr_u32(tb[IFLA_PADTUN_DOMAINS]));
	if (attr_ok(tb, IFLA_PADTUN_KEY_SET, sizeof(__u8))) {
		bool set = rta_getattr_u8(tb[IFLA_PADTUN_KEY_SET]);

		print_bool(PRINT_JSON, "key_set", NULL, set);
		print_string(PRINT_FP, NULL, "%s ", set ? "key set" : "nokey");
	}
}

static void padtun_print_help(struct link_util *lu, int argc, char **argv,
			      FILE *f)
{
	(void)lu;
	(void)argc;
	(void)argv;

	print_explain(f);
}

/* Not const: ip links the object into its list through ->next. */
struct link_util padtun_link_util = {
	.id		= "padtun",
	.maxattr	= IFLA_PADTUN_MAX,
	.parse_opt	= padtun_parse_opt,
	.print_opt	= padtun_print_opt,
	.print_help	= padtun_print_help,
};
