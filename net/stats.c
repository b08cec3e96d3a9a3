// SPDX-License-Identifier: GPL-2.0
/*
 * Counters: per CPU, summed for ip -s link and ethtool -S; the parallel
 * stage counts are also shown per CPU, to see where the work ran.
 */

#include <linux/ethtool.h>
#include <linux/percpu.h>

#include "padtun.h"
#include "stats.h"

static const char padtun_stat_names[PADTUN_STAT_GLOBAL_COUNT][ETH_GSTRING_LEN] = {
	[PADTUN_STAT_TX_SUBMITTED]	= "tx_submitted",
	[PADTUN_STAT_TX_BUSY]		= "tx_busy",
	[PADTUN_STAT_TX_PASSED]		= "tx_passed",
	[PADTUN_STAT_TX_IN_PLACE]	= "tx_in_place",
	[PADTUN_STAT_TX_SENT]		= "tx_sent",
	[PADTUN_STAT_TX_BYTES]		= "tx_sent_bytes",
	[PADTUN_STAT_TX_GSO]		= "tx_gso",
	[PADTUN_STAT_TX_SPLIT]		= "tx_split",
	[PADTUN_STAT_TX_DROPPED]	= "tx_dropped",
	[PADTUN_STAT_TX_ERRORS]		= "tx_errors",
	[PADTUN_STAT_RX_SUBMITTED]	= "rx_submitted",
	[PADTUN_STAT_RX_BUSY]		= "rx_busy",
	[PADTUN_STAT_RX_PASSED]		= "rx_passed",
	[PADTUN_STAT_RX_IN_PLACE]	= "rx_in_place",
	[PADTUN_STAT_RX_IN_HOOK]	= "rx_in_hook",
	[PADTUN_STAT_RX_MALFORMED]	= "rx_malformed",
	[PADTUN_STAT_RX_WRONG_PEER]	= "rx_wrong_peer",
	[PADTUN_STAT_RX_AUTH_FAILED]	= "rx_auth_failed",
	[PADTUN_STAT_RX_REPLAYED]	= "rx_replayed",
	[PADTUN_STAT_RX_TOO_OLD]	= "rx_too_old",
	[PADTUN_STAT_RX_WINDOW_RESET]	= "rx_window_reset",
	[PADTUN_STAT_RX_OWN_SESSION]	= "rx_own_session",
	[PADTUN_STAT_RX_OLD_SESSION]	= "rx_old_session",
	[PADTUN_STAT_RX_UNKNOWN_SESSION] = "rx_unknown_session",
	[PADTUN_STAT_RX_UNAUTH_FULL]	= "rx_unauth_full",
	[PADTUN_STAT_RX_REORDERED]	= "rx_reordered_on_wire",
	[PADTUN_STAT_RX_DELIVERED]	= "rx_delivered",
	[PADTUN_STAT_RX_BYTES]		= "rx_delivered_bytes",
	[PADTUN_STAT_RX_DROPPED]	= "rx_dropped",
	[PADTUN_STAT_RX_STACK_DROPPED]	= "rx_stack_dropped",
	[PADTUN_STAT_CB_CPU_MOVES]	= "cb_cpu_moves",
	[PADTUN_STAT_HS_INIT_SENT]	= "hs_init_sent",
	[PADTUN_STAT_HS_RESPONSE_SENT]	= "hs_response_sent",
	[PADTUN_STAT_HS_CONFIRM_SENT]	= "hs_confirm_sent",
	[PADTUN_STAT_HS_TAKEN]		= "hs_taken",
	[PADTUN_STAT_HS_REFUSED]	= "hs_refused",
	[PADTUN_STAT_HS_LIMITED]	= "hs_limited",
	[PADTUN_STAT_SESSIONS_MADE]	= "sessions_made",
};

int padtun_stats_init(struct padtun_dev *pt)
{
	pt->stats = __netdev_alloc_pcpu_stats(struct padtun_pcpu_stats,
					      GFP_KERNEL_ACCOUNT);
	return pt->stats ? 0 : -ENOMEM;
}

void padtun_stats_free(struct padtun_dev *pt)
{
	free_percpu(pt->stats);
	pt->stats = NULL;
}

/* Any context: BHs off or on, process or softirq. */
void padtun_stat_add(struct padtun_dev *pt, enum padtun_stat stat,
		     unsigned int n)
{
	struct padtun_pcpu_stats *s = get_cpu_ptr(pt->stats);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_add(&s->counter[stat], n);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
	put_cpu_ptr(pt->stats);
}

/* @n packets of @len bytes in all, in one update: serial() calls this
 * for every packet or UDP GSO skb.
 */
void padtun_stat_add_packets(struct padtun_dev *pt, enum padtun_stat packets,
			     enum padtun_stat bytes, unsigned int n,
			     unsigned int len)
{
	struct padtun_pcpu_stats *s = get_cpu_ptr(pt->stats);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_add(&s->counter[packets], n);
	u64_stats_add(&s->counter[bytes], len);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
	put_cpu_ptr(pt->stats);
}

/* One pass over the CPUs: @sum gets every counter summed, @cpu_parallel
 * (unless NULL) the per-CPU parallel counts, two per possible CPU.
 */
static void padtun_stats_read(struct padtun_dev *pt, u64 *sum,
			      u64 *cpu_parallel)
{
	u64 v[PADTUN_STAT_COUNT];
	unsigned int start;
	int cpu, i;

	memset(sum, 0, sizeof(*sum) * PADTUN_STAT_GLOBAL_COUNT);
	for_each_possible_cpu(cpu) {
		const struct padtun_pcpu_stats *s = per_cpu_ptr(pt->stats, cpu);

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < PADTUN_STAT_COUNT; i++)
				v[i] = u64_stats_read(&s->counter[i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		for (i = 0; i < PADTUN_STAT_GLOBAL_COUNT; i++)
			sum[i] += v[i];
		if (cpu_parallel) {
			*cpu_parallel++ = v[PADTUN_STAT_TX_PARALLEL];
			*cpu_parallel++ = v[PADTUN_STAT_RX_PARALLEL];
		}
	}
}

void padtun_get_stats64(struct net_device *dev,
			struct rtnl_link_stats64 *stats)
{
	struct padtun_dev *pt = netdev_priv(dev);
	u64 s[PADTUN_STAT_GLOBAL_COUNT];

	padtun_stats_read(pt, s, NULL);
	stats->tx_packets = s[PADTUN_STAT_TX_SENT];
	stats->tx_bytes = s[PADTUN_STAT_TX_BYTES];
	/* Plus what the underlay refused after the UDP tunnel took it. */
	stats->tx_errors = s[PADTUN_STAT_TX_ERRORS] +
			   DEV_STATS_READ(dev, tx_errors);
	stats->tx_dropped = s[PADTUN_STAT_TX_DROPPED] +
			    DEV_STATS_READ(dev, tx_dropped);

	stats->rx_packets = s[PADTUN_STAT_RX_DELIVERED];
	stats->rx_bytes = s[PADTUN_STAT_RX_BYTES];
	/* A handshake message refused failed its MAC, was stale or
	 * unexpected: for a link that never comes up, the only sign.
	 */
	stats->rx_crc_errors = s[PADTUN_STAT_RX_AUTH_FAILED] +
			       s[PADTUN_STAT_HS_REFUSED];
	stats->rx_errors = s[PADTUN_STAT_RX_MALFORMED] +
			   s[PADTUN_STAT_RX_WRONG_PEER] + stats->rx_crc_errors;
	/* Not RX_STACK_DROPPED: the core counts those in rx_dropped itself. */
	stats->rx_dropped = s[PADTUN_STAT_RX_DROPPED] +
			    s[PADTUN_STAT_RX_REPLAYED] +
			    s[PADTUN_STAT_RX_TOO_OLD] +
			    s[PADTUN_STAT_RX_OWN_SESSION] +
			    s[PADTUN_STAT_RX_OLD_SESSION] +
			    s[PADTUN_STAT_RX_UNKNOWN_SESSION] +
			    s[PADTUN_STAT_RX_UNAUTH_FULL];
}

static int padtun_get_sset_count(struct net_device *dev, int sset)
{
	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return PADTUN_STAT_GLOBAL_COUNT +
	       (PADTUN_STAT_COUNT - PADTUN_STAT_GLOBAL_COUNT) *
	       num_possible_cpus();
}

static void padtun_get_strings(struct net_device *dev, u32 sset, u8 *buf)
{
	int i, cpu;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < PADTUN_STAT_GLOBAL_COUNT; i++)
		ethtool_sprintf(&buf, "%s", padtun_stat_names[i]);
	for_each_possible_cpu(cpu) {
		ethtool_sprintf(&buf, "cpu%d_tx_parallel", cpu);
		ethtool_sprintf(&buf, "cpu%d_rx_parallel", cpu);
	}
}

static void padtun_get_ethtool_stats(struct net_device *dev,
				     struct ethtool_stats *stats, u64 *data)
{
	padtun_stats_read(netdev_priv(dev), data,
			  data + PADTUN_STAT_GLOBAL_COUNT);
}

static void padtun_get_drvinfo(struct net_device *dev,
			       struct ethtool_drvinfo *info)
{
	strscpy(info->driver, "padtun", sizeof(info->driver));
	strscpy(info->version, "1", sizeof(info->version));
}

const struct ethtool_ops padtun_ethtool_ops = {
	.get_drvinfo		= padtun_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_sset_count		= padtun_get_sset_count,
	.get_strings		= padtun_get_strings,
	.get_ethtool_stats	= padtun_get_ethtool_stats,
};
