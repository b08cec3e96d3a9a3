/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_NETLINK_H
#define _PADTUN_NETLINK_H

#include <net/rtnetlink.h>

extern struct rtnl_link_ops padtun_link_ops;

#endif /* _PADTUN_NETLINK_H */
