/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_RECEIVE_H
#define _PADTUN_RECEIVE_H

#include <linux/skbuff.h>
#include <linux/types.h>

struct padtun_burst;
struct padtun_queue_ops;
struct sock;

/* What a link holds of received datagrams whose tag is not checked yet,
 * in bytes (skb->truesize: reassembled fragments included), besides the
 * limits in packets: beyond it, the receive hook drops (rx_unauth_full).
 */
#define PADTUN_RX_UNAUTH_MAX		(16 << 20)

extern const struct padtun_queue_ops padtun_rx_ops;
int padtun_receive(struct sock *sk, struct sk_buff *skb);
void padtun_rx_submit_taken(struct padtun_burst *burst,
			    struct sk_buff_head *taken, int budget);
void padtun_rx_to_gro(struct padtun_burst *deliver, struct sk_buff_head *taken,
		      int budget);
unsigned int padtun_rx_backlog_max(u32 max_inflight);

#endif /* _PADTUN_RECEIVE_H */
