/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * padtun link attributes (IFLA_INFO_DATA of kind "padtun"), shared by the
 * kernel module and the iproute2 plugin.
 */
#ifndef _UAPI_LINUX_PADTUN_H
#define _UAPI_LINUX_PADTUN_H

enum {
	IFLA_PADTUN_UNSPEC,
	IFLA_PADTUN_LOCAL,		/* binary: struct in_addr or in6_addr */
	IFLA_PADTUN_REMOTE,		/* binary: struct in_addr or in6_addr */
	IFLA_PADTUN_LOCAL_PORT,		/* __be16, not 0 */
	IFLA_PADTUN_REMOTE_PORT,	/* __be16, not 0 */
	IFLA_PADTUN_KEY,		/* binary, write-only: never dumped */
	IFLA_PADTUN_KEY_SET,		/* u8, dump-only: 1 when a key is set */
	IFLA_PADTUN_TRANSFORM,		/* string: chacha20poly1305, gcm-aes, none */
	IFLA_PADTUN_CPUS,		/* string: cpulist of the parallel CPUs */
	IFLA_PADTUN_CB_CPU,		/* u32: the serial (callback) CPU */
	IFLA_PADTUN_MAX_INFLIGHT,	/* u32: packets in flight per direction */
	IFLA_PADTUN_RX_CB_CPU,		/* u32: receive's serial CPU */
	IFLA_PADTUN_ORDER,		/* u8: enum padtun_order */
	IFLA_PADTUN_DOMAINS,		/* u32: ordering domains, 1 to 64 */
	__IFLA_PADTUN_MAX,
};

/* What keeps its order: everything the link carries, or each inner flow
 * (its packets in one of IFLA_PADTUN_DOMAINS orders, picked by its hash).
 */
enum padtun_order {
	PADTUN_ORDER_LINK,
	PADTUN_ORDER_FLOW,
};

#define IFLA_PADTUN_MAX (__IFLA_PADTUN_MAX - 1)

#endif /* _UAPI_LINUX_PADTUN_H */
