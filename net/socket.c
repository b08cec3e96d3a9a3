// SPDX-License-Identifier: GPL-2.0
/*
 * The underlay: one kernel UDP socket per link, bound to the local address
 * and port, receiving through the udp_tunnel encap hook and sending with
 * udp_tunnel_xmit_skb / udp_tunnel6_xmit_skb.
 */

#include <linux/if_ether.h>
#include <linux/net.h>
#include <linux/udp.h>
#include <net/dst_cache.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/netlink.h>
#include <net/route.h>
#include <net/udp_tunnel.h>

#include "padtun.h"
#include "socket.h"

/* A tunnel socket that drops what it receives until padtun_socket_attach():
 * created before the queues, so that it outlives the last send. @receive
 * is its encap_rcv hook, receive.c's: the device names it, so that what
 * receive calls may send through us.
 */
int padtun_socket_open(struct padtun_dev *pt, padtun_socket_receive_t receive,
		       struct netlink_ext_ack *extack)
{
	struct udp_tunnel_sock_cfg tunnel_cfg = {
		.encap_type = 1,
		.encap_rcv = receive,
	};
	struct udp_port_cfg port_cfg = {
		.local_udp_port = pt->ep.local_port,
	};
	struct socket *sock;
	int ret;

	if (pt->ep.family == AF_INET) {
		port_cfg.family = AF_INET;
		port_cfg.local_ip.s_addr = pt->ep.local.v4;
		port_cfg.use_udp_checksums = true;
	} else {
		port_cfg.family = AF_INET6;
		port_cfg.local_ip6 = pt->ep.local.v6;
		port_cfg.use_udp6_tx_checksums = true;
		port_cfg.use_udp6_rx_checksums = true;
		port_cfg.ipv6_v6only = true;
	}

	ret = udp_sock_create(pt->net, &port_cfg, &sock);
	if (ret) {
		if (ret == -EADDRINUSE)
			NL_SET_ERR_MSG(extack, "local UDP port is already in use");
		else if (ret == -EADDRNOTAVAIL)
			NL_SET_ERR_MSG(extack, "local address is not configured on this host");
		else
			NL_SET_ERR_MSG(extack, "cannot create the UDP socket");
		return ret;
	}
	pt->sock = sock;
	setup_udp_tunnel_sock(pt->net, sock, &tunnel_cfg);
	return 0;
}

/* From here on padtun_receive() queues what it receives: the queues exist. */
void padtun_socket_attach(struct padtun_dev *pt)
{
	rcu_assign_sk_user_data(pt->sock->sk, pt);
}

/* Stop receiving but keep the socket for the packets still to be sent. */
void padtun_socket_detach(struct padtun_dev *pt)
{
	rcu_assign_sk_user_data(pt->sock->sk, NULL);
	/* padtun_receive() runs under RCU: after this, none still does. */
	synchronize_net();
}

void padtun_socket_release(struct padtun_dev *pt)
{
	udp_tunnel_sock_release(pt->sock);
	pt->sock = NULL;
}

/* The underlay flow of the link, for sending and for the path MTU. */
static void padtun_flow4(const struct padtun_dev *pt, struct flowi4 *fl4)
{
	*fl4 = (struct flowi4) {
		.saddr = pt->ep.local.v4,
		.daddr = pt->ep.remote.v4,
		.flowi4_proto = IPPROTO_UDP,
		.fl4_sport = pt->ep.local_port,
		.fl4_dport = pt->ep.remote_port,
	};
}

/* A route to the peer that does not lead back into ourselves (that would
 * loop for ever).
 */
static struct rtable *padtun_route4(struct padtun_dev *pt, struct flowi4 *fl4)
{
	struct rtable *rt = ip_route_output_key(pt->net, fl4);

	if (!IS_ERR(rt) && unlikely(rt->dst.dev == pt->dev)) {
		ip_rt_put(rt);
		rt = ERR_PTR(-ELOOP);
	}
	return rt;
}

static int padtun_send4(struct padtun_dev *pt, struct sk_buff *skb,
			__be16 sport)
{
	struct flowi4 fl4;
	struct rtable *rt;

	padtun_flow4(pt, &fl4);
	rt = dst_cache_get_ip4(&pt->dst_cache, &fl4.saddr);
	if (!rt) {
		rt = padtun_route4(pt, &fl4);
		if (IS_ERR(rt)) {
			kfree_skb_reason(skb, SKB_DROP_REASON_IP_OUTNOROUTES);
			return -EHOSTUNREACH;
		}
		dst_cache_set_ip4(&pt->dst_cache, &rt->dst, fl4.saddr);
	}

	/* Inner packets fit the device MTU; the outer one may fragment. */
	skb->ignore_df = 1;
	udp_tunnel_xmit_skb(rt, pt->sock->sk, skb, fl4.saddr, fl4.daddr, 0,
			    ip4_dst_hoplimit(&rt->dst), 0, sport,
			    pt->ep.remote_port, false, false);
	return 0;
}

#if IS_ENABLED(CONFIG_IPV6)
static void padtun_flow6(const struct padtun_dev *pt, struct flowi6 *fl6)
{
	*fl6 = (struct flowi6) {
		.saddr = pt->ep.local.v6,
		.daddr = pt->ep.remote.v6,
		.flowi6_proto = IPPROTO_UDP,
		.fl6_sport = pt->ep.local_port,
		.fl6_dport = pt->ep.remote_port,
	};
}

static struct dst_entry *padtun_route6(struct padtun_dev *pt,
				       struct flowi6 *fl6)
{
	struct dst_entry *dst;

	dst = ipv6_stub->ipv6_dst_lookup_flow(pt->net, pt->sock->sk, fl6,
					      NULL);
	if (!IS_ERR(dst) && unlikely(dst->dev == pt->dev)) {
		dst_release(dst);
		dst = ERR_PTR(-ELOOP);
	}
	return dst;
}

static int padtun_send6(struct padtun_dev *pt, struct sk_buff *skb,
			__be16 sport)
{
	struct dst_entry *dst;
	struct flowi6 fl6;

	padtun_flow6(pt, &fl6);
	dst = dst_cache_get_ip6(&pt->dst_cache, &fl6.saddr);
	if (!dst) {
		dst = padtun_route6(pt, &fl6);
		if (IS_ERR(dst)) {
			kfree_skb_reason(skb, SKB_DROP_REASON_IP_OUTNOROUTES);
			return -EHOSTUNREACH;
		}
		dst_cache_set_ip6(&pt->dst_cache, dst, &fl6.saddr);
	}

	skb->ignore_df = 1;
	udp_tunnel6_xmit_skb(dst, pt->sock->sk, skb, pt->dev, &fl6.saddr,
			     &fl6.daddr, 0, ip6_dst_hoplimit(dst), 0,
			     sport, pt->ep.remote_port, false);
	return 0;
}
#endif

/* Each domain sends from a port of its own, the local port for domain 0
 * and the ones after it, round 65535 past 0, for the others: the peer's
 * RSS or RPS, which hashes the outer ports, can then spread the domains
 * over its CPUs. The peer looks at our address alone, never at the port.
 */
static __be16 padtun_socket_sport(const struct padtun_dev *pt,
				  unsigned int domain)
{
	u32 port = ntohs(pt->ep.local_port);

	if (likely(!domain))
		return pt->ep.local_port;
	return htons((port - 1 + domain) % U16_MAX + 1);
}

/**
 * padtun_socket_send - send encrypted datagrams to the peer
 * @pt: the device
 * @skb: one datagram, or a UDP GSO skb of them (gso.c), at the padtun
 *	header; consumed whatever happens
 * @domain: the ordering domain it is of (0 for a handshake message), which
 *	picks the source port
 *
 * Context: BHs disabled (serial(), or parallel() with the unordered knob).
 */
int padtun_socket_send(struct padtun_dev *pt, struct sk_buff *skb,
		       unsigned int domain)
{
	__be16 sport = padtun_socket_sport(pt, domain);

	/* What is left of the inner packet's state must not leak outside. */
	skb->ip_summed = CHECKSUM_NONE;
	if (skb_is_gso(skb)) {
		/* UDP GSO (gso.c): the segmentation completes each datagram's
		 * checksum from the UDP header udp_tunnel*_xmit_skb() pushes
		 * right before the data.
		 */
		skb->ip_summed = CHECKSUM_PARTIAL;
		skb->csum_start = skb_headroom(skb) - sizeof(struct udphdr);
		skb->csum_offset = offsetof(struct udphdr, check);
	}
	skb->encapsulation = 0;
	/* A domain's datagrams are one flow of the underlay: let it hash them
	 * by the outer headers. A datagram sent alone still carries its inner
	 * packet's hash, a UDP GSO skb (gso.c) none: with two hashes a
	 * flow-fair qdisc (fq_codel, the usual default) queues them apart and
	 * reorders them on the wire.
	 */
	skb_clear_hash(skb);
	skb->dev = pt->dev;
	skb_dst_drop(skb);

#if IS_ENABLED(CONFIG_IPV6)
	if (pt->ep.family == AF_INET6)
		return padtun_send6(pt, skb, sport);
#endif
	return padtun_send4(pt, skb, sport);
}

static bool padtun_local_unspecified(const struct padtun_endpoints *ep)
{
	if (ep->family == AF_INET)
		return ep->local.v4 == htonl(INADDR_ANY);
	return ipv6_addr_any(&ep->local.v6);
}

/**
 * padtun_socket_local_addr - the address the peer sends to
 * @pt: the device, endpoints set; the socket need not be open
 * @addr: the configured local address, or else the source address routing
 *	picks toward the remote now
 *
 * An unspecified local address (0.0.0.0, ::) binds to every address, as no
 * local address does: the peer sends to the one routing picks, which is
 * what names the keys, never the unspecified address itself.
 *
 * Return: 0, or -errno when there is no route to the remote.
 */
int padtun_socket_local_addr(struct padtun_dev *pt, union padtun_addr *addr)
{
	if (pt->ep.has_local && !padtun_local_unspecified(&pt->ep)) {
		*addr = pt->ep.local;
		return 0;
	}
	if (pt->ep.family == AF_INET) {
		struct flowi4 fl4;
		struct rtable *rt;

		padtun_flow4(pt, &fl4);
		rt = ip_route_output_key(pt->net, &fl4);
		if (IS_ERR(rt))
			return PTR_ERR(rt);
		ip_rt_put(rt);
		addr->v4 = fl4.saddr;
		return 0;
	}
#if IS_ENABLED(CONFIG_IPV6)
	if (pt->ep.family == AF_INET6) {
		struct dst_entry *dst;
		struct flowi6 fl6;

		padtun_flow6(pt, &fl6);
		dst = ipv6_stub->ipv6_dst_lookup_flow(pt->net, NULL, &fl6, NULL);
		if (IS_ERR(dst))
			return PTR_ERR(dst);
		dst_release(dst);
		addr->v6 = fl6.saddr;
		return 0;
	}
#endif
	return -EAFNOSUPPORT;
}

/* The underlay's MTU toward the peer, for the default device MTU: the
 * route padtun_socket_send() will take. Called once the socket is open.
 */
unsigned int padtun_socket_path_mtu(struct padtun_dev *pt)
{
	unsigned int mtu = ETH_DATA_LEN;

	if (pt->ep.family == AF_INET) {
		struct flowi4 fl4;
		struct rtable *rt;

		padtun_flow4(pt, &fl4);
		rt = padtun_route4(pt, &fl4);
		if (!IS_ERR(rt)) {
			mtu = dst_mtu(&rt->dst);
			ip_rt_put(rt);
		}
	}
#if IS_ENABLED(CONFIG_IPV6)
	if (pt->ep.family == AF_INET6) {
		struct dst_entry *dst;
		struct flowi6 fl6;

		padtun_flow6(pt, &fl6);
		dst = padtun_route6(pt, &fl6);
		if (!IS_ERR(dst)) {
			mtu = dst_mtu(dst);
			dst_release(dst);
		}
	}
#endif
	return mtu;
}
