/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_SEND_H
#define _PADTUN_SEND_H

#include <linux/netdevice.h>

struct padtun_queue_ops;

netdev_tx_t padtun_xmit(struct sk_buff *skb, struct net_device *dev);
extern const struct padtun_queue_ops padtun_tx_ops;

#endif /* _PADTUN_SEND_H */
