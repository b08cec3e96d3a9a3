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
	[PADTUN_STAT_TX_SENT]		= "tx_sent",
	[PADTUN_STAT_TX_BYTES]		= "tx_sent_bytes",
	[PADTUN_STAT_TX_DROPPED]	= "tx_dropped",
	[PADTUN_STAT_TX_ERRORS]		= "tx_errors",
	[PADTUN_STAT_RX_SUBMITTED]	= "rx_submitted",
	[PADTUN_STAT_RX_BUSY]		= "rx_busy",
	[PADTUN_STAT_RX_MALFORMED]	= "rx_malformed",
	[PADTUN_STAT_RX_WRONG_PEER]	= "rx_wrong_peer",
	[PADTUN_STAT_RX_AUTH_FAILED]	= "rx_auth_failed",
	[PADTUN_STAT_RX_REPLAYED]	= "rx_replayed",
	[PADTUN_STAT_RX_TOO_OLD]	= "rx_too_old",
	[PADTUN_STAT_RX_REORDERED]	= "rx_reordered_on_wire",
	[PADTUN_STAT_RX_DELIVERED]	= "rx_delivered",
	[PADTUN_STAT_RX_BYTES]		= "rx_delivered_bytes",
	[PADTUN_STAT_RX_DROPPED]	= "rx_dropped",
	[PADTUN_STAT_RX_STACK_DROPPED]	= "rx_stack_dropped",
};

int padtun_stats_init(struct padtun_dev *pt)
{
	int cpu;

	pt->stats = alloc_percpu(struct padtun_pcpu_stats);
	if (!pt->stats)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(pt->stats, cpu)->syncp);
	return 0;
}

void padtun_stats_free(struct padtun_dev *pt)
{
	free_percpu(pt->stats);
	pt->stats = NULL;
}

/* Any context: BHs off or on, process or softirq. */
void padtun_stat_add(struct padtun_dev *pt, enum padtun_stat stat, u64 n)
{
	struct padtun_pcpu_stats *s = get_cpu_ptr(pt->stats);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_add(&s->counter[stat], n);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
	put_cpu_ptr(pt->stats);
}

static u64 padtun_stat_read_cpu(struct padtun_dev *pt, int cpu,
				enum padtun_stat stat)
{
	const struct padtun_pcpu_stats *s = per_cpu_ptr(pt->stats, cpu);
	unsigned int start;
	u64 v;

	do {
		start = u64_stats_fetch_begin(&s->syncp);
		v = u64_stats_read(&s->counter[stat]);
	} while (u64_stats_fetch_retry(&s->syncp, start));
	return v;
}

static u64 padtun_stat_read(struct padtun_dev *pt, enum padtun_stat stat)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += padtun_stat_read_cpu(pt, cpu, stat);
	return sum;
}

void padtun_get_stats64(struct net_device *dev,
			struct rtnl_link_stats64 *stats)
{
	struct padtun_dev *pt = netdev_priv(dev);

	stats->tx_packets = padtun_stat_read(pt, PADTUN_STAT_TX_SENT);
	stats->tx_bytes = padtun_stat_read(pt, PADTUN_STAT_TX_BYTES);
	/* Plus what the underlay refused after the UDP tunnel took it. */
	stats->tx_errors = padtun_stat_read(pt, PADTUN_STAT_TX_ERRORS) +
			   DEV_STATS_READ(dev, tx_errors);
	stats->tx_dropped = padtun_stat_read(pt, PADTUN_STAT_TX_DROPPED) +
			    DEV_STATS_READ(dev, tx_dropped);

	stats->rx_packets = padtun_stat_read(pt, PADTUN_STAT_RX_DELIVERED);
	stats->rx_bytes = padtun_stat_read(pt, PADTUN_STAT_RX_BYTES);
	stats->rx_errors = padtun_stat_read(pt, PADTUN_STAT_RX_MALFORMED) +
			   padtun_stat_read(pt, PADTUN_STAT_RX_WRONG_PEER) +
			   padtun_stat_read(pt, PADTUN_STAT_RX_AUTH_FAILED);
	stats->rx_crc_errors = padtun_stat_read(pt, PADTUN_STAT_RX_AUTH_FAILED);
	/* Not RX_STACK_DROPPED: the core counts those in rx_dropped itself. */
	stats->rx_dropped = padtun_stat_read(pt, PADTUN_STAT_RX_DROPPED) +
			    padtun_stat_read(pt, PADTUN_STAT_RX_REPLAYED) +
			    padtun_stat_read(pt, PADTUN_STAT_RX_TOO_OLD);
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
	struct padtun_dev *pt = netdev_priv(dev);
	int i, cpu;

	for (i = 0; i < PADTUN_STAT_GLOBAL_COUNT; i++)
		*data++ = padtun_stat_read(pt, i);
	for_each_possible_cpu(cpu) {
		*data++ = padtun_stat_read_cpu(pt, cpu,
					       PADTUN_STAT_TX_PARALLEL);
		*data++ = padtun_stat_read_cpu(pt, cpu,
					       PADTUN_STAT_RX_PARALLEL);
	}
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
