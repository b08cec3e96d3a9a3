/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_RECEIVE_H
#define _PADTUN_RECEIVE_H

#include <linux/skbuff.h>
#include <linux/types.h>

struct padtun_burst_ops;
struct padtun_queue_ops;
struct sock;

/* What a link holds of received datagrams whose tag is not checked yet,
 * in bytes (skb->truesize: reassembled fragments included), besides the
 * limits in packets: beyond it, the receive hook drops (rx_unauth_full).
 */
#define PADTUN_RX_UNAUTH_MAX		(16 << 20)

extern const struct padtun_queue_ops padtun_rx_ops;
int padtun_receive(struct sock *sk, struct sk_buff *skb);
/* A domain's burst list, of received datagrams, submits them. */
extern const struct padtun_burst_ops padtun_rx_arrival_ops;
/* A domain's delivery list hands the decrypted packets to GRO. */
extern const struct padtun_burst_ops padtun_rx_delivery_ops;
unsigned int padtun_rx_backlog_max(u32 max_inflight);

#endif /* _PADTUN_RECEIVE_H */
