/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_STATS_H
#define _PADTUN_STATS_H

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/u64_stats_sync.h>

struct padtun_dev;

/* One counter per pipeline stage; ethtool -S shows them in this order. */
enum padtun_stat {
	PADTUN_STAT_TX_SUBMITTED,	/* accepted by the tx padata instance */
	PADTUN_STAT_TX_BUSY,		/* padata said -EBUSY: kept, resubmitted */
	PADTUN_STAT_TX_PASSED,		/* batches of an idle domain that passed others */
	PADTUN_STAT_TX_IN_PLACE,	/* light packets of an idle domain, not handed off */
	PADTUN_STAT_TX_SENT,		/* handed to the UDP tunnel */
	PADTUN_STAT_TX_BYTES,		/* inner bytes of the sent packets */
	PADTUN_STAT_TX_GSO,		/* UDP GSO skbs sent: several of tx_sent each */
	PADTUN_STAT_TX_SPLIT,		/* GSO packets cut into several batches */
	PADTUN_STAT_TX_DROPPED,		/* not an IP packet, no memory, stopped */
	PADTUN_STAT_TX_ERRORS,		/* encryption or route failed */
	PADTUN_STAT_RX_SUBMITTED,
	PADTUN_STAT_RX_BUSY,
	PADTUN_STAT_RX_PASSED,
	PADTUN_STAT_RX_IN_PLACE,
	PADTUN_STAT_RX_IN_HOOK,		/* small, of an idle domain: no burst list */
	PADTUN_STAT_RX_MALFORMED,	/* bad header, length or inner packet */
	PADTUN_STAT_RX_WRONG_PEER,	/* source is not the remote address */
	PADTUN_STAT_RX_AUTH_FAILED,	/* tag did not verify */
	PADTUN_STAT_RX_REPLAYED,	/* sequence number seen before */
	PADTUN_STAT_RX_TOO_OLD,		/* sequence number left of the window */
	PADTUN_STAT_RX_WINDOW_RESET,	/* none: the window followed one back */
	PADTUN_STAT_RX_OWN_SESSION,	/* our own sending session: reflected */
	PADTUN_STAT_RX_OLD_SESSION,	/* authenticated, of a session replaced */
	PADTUN_STAT_RX_UNKNOWN_SESSION,	/* of no session we hold: earlier, made up */
	PADTUN_STAT_RX_UNAUTH_FULL,	/* unauthenticated bytes held at their limit */
	PADTUN_STAT_RX_REORDERED,	/* late on the wire, still in window */
	PADTUN_STAT_RX_DELIVERED,
	PADTUN_STAT_RX_BYTES,
	PADTUN_STAT_RX_DROPPED,		/* no memory, backlog full, stopped */
	PADTUN_STAT_RX_STACK_DROPPED,	/* device down */
	PADTUN_STAT_CB_CPU_MOVES,	/* a direction's serial CPU moved */
	PADTUN_STAT_HS_INIT_SENT,	/* handshake inits sent */
	PADTUN_STAT_HS_RESPONSE_SENT,
	PADTUN_STAT_HS_CONFIRM_SENT,
	PADTUN_STAT_HS_TAKEN,		/* handshake messages acted on */
	PADTUN_STAT_HS_REFUSED,		/* bad MAC, stale, unexpected */
	PADTUN_STAT_HS_LIMITED,		/* over the rate limit: not looked at */
	PADTUN_STAT_SESSIONS_MADE,
	PADTUN_STAT_GLOBAL_COUNT,
	/* Shown per CPU rather than summed. */
	PADTUN_STAT_TX_PARALLEL = PADTUN_STAT_GLOBAL_COUNT,
	PADTUN_STAT_RX_PARALLEL,
	PADTUN_STAT_COUNT,
};

struct padtun_pcpu_stats {
	u64_stats_t counter[PADTUN_STAT_COUNT];
	struct u64_stats_sync syncp;
};

extern const struct ethtool_ops padtun_ethtool_ops;

int padtun_stats_init(struct padtun_dev *pt);
void padtun_stats_free(struct padtun_dev *pt);
void padtun_stat_add(struct padtun_dev *pt, enum padtun_stat stat,
		     unsigned int n);
void padtun_stat_add_packets(struct padtun_dev *pt, enum padtun_stat packets,
			     enum padtun_stat bytes, unsigned int n,
			     unsigned int len);
static inline void padtun_stat_inc(struct padtun_dev *pt,
				   enum padtun_stat stat)
{
	padtun_stat_add(pt, stat, 1);
}

void padtun_get_stats64(struct net_device *dev,
			struct rtnl_link_stats64 *stats);

#endif /* _PADTUN_STATS_H */
