/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_SOCKET_H
#define _PADTUN_SOCKET_H

#include <linux/skbuff.h>

struct netlink_ext_ack;
struct padtun_dev;
struct sock;
union padtun_addr;

typedef int (*padtun_socket_receive_t)(struct sock *sk, struct sk_buff *skb);

int padtun_socket_open(struct padtun_dev *pt, padtun_socket_receive_t receive,
		       struct netlink_ext_ack *extack);
void padtun_socket_attach(struct padtun_dev *pt);
void padtun_socket_detach(struct padtun_dev *pt);
void padtun_socket_release(struct padtun_dev *pt);
int padtun_socket_send(struct padtun_dev *pt, struct sk_buff *skb,
		       unsigned int domain);
unsigned int padtun_socket_path_mtu(struct padtun_dev *pt);
int padtun_socket_local_addr(struct padtun_dev *pt, union padtun_addr *addr);

#endif /* _PADTUN_SOCKET_H */
