// SPDX-License-Identifier: GPL-2.0
/*
 * rtnetlink: the policy, the checks behind every extack message, and the
 * newlink / changelink / fill_info entry points.
 */

#include <linux/cpumask.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include <net/rtnetlink.h>
#include <linux/padtun.h>

#include "messages.h"
#include "netlink.h"
#include "padtun.h"
#include "transform.h"

#define PADTUN_DEFAULT_MAX_INFLIGHT	512
#define PADTUN_MAX_MAX_INFLIGHT		65536

/* order flow without a count: the same on both ends unless told, as it
 * must be (docs/padtun.rst, "Ordering domains").
 */
#define PADTUN_DEFAULT_FLOW_DOMAINS	8

static int padtun_validate_addr_len(const struct nlattr *attr,
				    struct netlink_ext_ack *extack)
{
	if (nla_len(attr) != sizeof(struct in_addr) &&
	    nla_len(attr) != sizeof(struct in6_addr)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "address must be 4 (IPv4) or 16 (IPv6) bytes");
		return -EINVAL;
	}
	return 0;
}

/* Beyond what the s16 bounds of NLA_POLICY_RANGE hold. */
static struct netlink_range_validation padtun_max_inflight_range __ro_after_init = {
	.min = 1,
	.max = PADTUN_MAX_MAX_INFLIGHT,
};

/* What a policy can say, it says (the kernel checks it and reports it
 * through extack); the rest (addresses, key length per transform, CPU
 * lists, the callback CPU) is checked in padtun_validate(). Strict from the
 * first attribute: padtun never had a liberal user.
 */
static const struct nla_policy padtun_policy[IFLA_PADTUN_MAX + 1] = {
	[IFLA_PADTUN_UNSPEC] = { .strict_start_type = IFLA_PADTUN_UNSPEC + 1 },
	[IFLA_PADTUN_LOCAL] = NLA_POLICY_VALIDATE_FN(NLA_BINARY,
						     padtun_validate_addr_len,
						     sizeof(struct in6_addr)),
	[IFLA_PADTUN_REMOTE] = NLA_POLICY_VALIDATE_FN(NLA_BINARY,
						      padtun_validate_addr_len,
						      sizeof(struct in6_addr)),
	[IFLA_PADTUN_LOCAL_PORT] = NLA_POLICY_MIN(NLA_BE16, 1),
	[IFLA_PADTUN_REMOTE_PORT] = NLA_POLICY_MIN(NLA_BE16, 1),
	/* At most the longest key; the exact length per transform in
	 * validate, for a clearer message.
	 */
	[IFLA_PADTUN_KEY] = { .type = NLA_BINARY, .len = PADTUN_KEY_MAX },
	[IFLA_PADTUN_KEY_SET] = { .type = NLA_REJECT,
				  .reject_message = "key_set is read-only" },
	[IFLA_PADTUN_TRANSFORM] = { .type = NLA_NUL_STRING,
				    .len = PADTUN_TRANSFORM_NAME_MAX - 1 },
	[IFLA_PADTUN_CPUS] = { .type = NLA_NUL_STRING, .len = 1023 },
	[IFLA_PADTUN_CB_CPU] = { .type = NLA_U32 },
	[IFLA_PADTUN_MAX_INFLIGHT] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &padtun_max_inflight_range),
	[IFLA_PADTUN_RX_CB_CPU] = { .type = NLA_U32 },
	[IFLA_PADTUN_ORDER] = NLA_POLICY_MAX(NLA_U8, PADTUN_ORDER_FLOW),
	[IFLA_PADTUN_DOMAINS] = NLA_POLICY_RANGE(NLA_U32, 1,
						 PADTUN_DOMAINS_MAX),
};

/* Remote: a unicast host. Local: unicast or unspecified (any). */
static int padtun_validate_addr(const struct nlattr *attr, bool remote,
				struct netlink_ext_ack *extack)
{
	struct in6_addr a6;
	int type;

	if (nla_len(attr) == sizeof(struct in_addr)) {
		__be32 a = nla_get_in_addr(attr);

		if (ipv4_is_multicast(a) || ipv4_is_lbcast(a) ||
		    (remote && ipv4_is_zeronet(a)))
			goto bad;
		return 0;
	}
	if (!IS_ENABLED(CONFIG_IPV6)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "IPv6 is not available");
		return -EAFNOSUPPORT;
	}
	a6 = nla_get_in6_addr(attr);
	type = ipv6_addr_type(&a6);
	/* Link-local would need a scope id: not supported. */
	if (type & (IPV6_ADDR_MULTICAST | IPV6_ADDR_LINKLOCAL) ||
	    (remote && type == IPV6_ADDR_ANY))
		goto bad;
	return 0;

bad:
	if (remote)
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "remote address must be a unicast address");
	else
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "local address must be a unicast address or unspecified");
	return -EINVAL;
}

static int padtun_validate_addrs(struct nlattr *data[],
				 struct netlink_ext_ack *extack)
{
	struct nlattr *local = data[IFLA_PADTUN_LOCAL];
	struct nlattr *remote = data[IFLA_PADTUN_REMOTE];
	int ret;

	if (local) {
		ret = padtun_validate_addr(local, false, extack);
		if (ret)
			return ret;
	}
	if (remote) {
		ret = padtun_validate_addr(remote, true, extack);
		if (ret)
			return ret;
	}
	if (local && remote && nla_len(local) != nla_len(remote)) {
		NL_SET_ERR_MSG_ATTR(extack, local,
				    "local and remote addresses must be of the same family");
		return -EINVAL;
	}
	return 0;
}

static int padtun_validate_crypto(struct nlattr *data[],
				  struct netlink_ext_ack *extack)
{
	const struct padtun_transform_desc *desc = padtun_transform_default();
	struct nlattr *key = data[IFLA_PADTUN_KEY];

	if (data[IFLA_PADTUN_TRANSFORM]) {
		desc = padtun_transform_find(nla_data(data[IFLA_PADTUN_TRANSFORM]));
		if (!desc) {
			NL_SET_ERR_MSG_ATTR(extack, data[IFLA_PADTUN_TRANSFORM],
					    "unknown transform: use chacha20poly1305, gcm-aes or none");
			return -EINVAL;
		}
	}
	if (key)
		return padtun_transform_check_key(desc, key, extack);
	return 0;
}

/**
 * padtun_parse_cpus - parse IFLA_PADTUN_CPUS, refusing empty and offline
 * @attr: the attribute, a NUL-terminated cpulist such as "0-3,6"
 * @mask: where the result goes
 * @extack: for the reason of a refusal
 */
static int padtun_parse_cpus(const struct nlattr *attr, struct cpumask *mask,
			     struct netlink_ext_ack *extack)
{
	int ret;

	ret = cpulist_parse(nla_data(attr), mask);
	if (ret == -ERANGE) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "CPU list names a CPU that does not exist");
		return ret;
	}
	if (ret) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "invalid CPU list (expected e.g. 0-3,6)");
		return ret;
	}
	if (cpumask_empty(mask)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "CPU list is empty");
		return -EINVAL;
	}
	if (!cpumask_subset(mask, cpu_online_mask)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "CPU list names an offline CPU");
		return -EINVAL;
	}
	return 0;
}

static int padtun_validate_cb_cpu(const struct nlattr *attr,
				  struct netlink_ext_ack *extack)
{
	u32 cpu;

	if (!attr)
		return 0;
	cpu = nla_get_u32(attr);
	if (cpu >= nr_cpu_ids || !cpu_online(cpu)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "callback CPU is offline or does not exist");
		return -EINVAL;
	}
	return 0;
}

static int padtun_validate_cpus(struct nlattr *data[],
				struct netlink_ext_ack *extack)
{
	cpumask_var_t mask;
	int ret = 0;

	if (data[IFLA_PADTUN_CPUS]) {
		if (!alloc_cpumask_var(&mask, GFP_KERNEL))
			return -ENOMEM;
		ret = padtun_parse_cpus(data[IFLA_PADTUN_CPUS], mask, extack);
		free_cpumask_var(mask);
		if (ret)
			return ret;
	}
	ret = padtun_validate_cb_cpu(data[IFLA_PADTUN_CB_CPU], extack);
	if (!ret)
		ret = padtun_validate_cb_cpu(data[IFLA_PADTUN_RX_CB_CPU],
					     extack);
	return ret;
}

/* Checks that need no device: run for both newlink and changelink. */
static int padtun_validate(struct nlattr *tb[], struct nlattr *data[],
			   struct netlink_ext_ack *extack)
{
	int ret;

	if (tb[IFLA_ADDRESS]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IFLA_ADDRESS],
				    "padtun is a layer-3 device: it has no link-layer address");
		return -EINVAL;
	}
	/* Several tx queues would mean concurrent xmits: sequence numbers
	 * (the nonce) handed out twice, and submission out of their order.
	 */
	if (tb[IFLA_NUM_TX_QUEUES] && nla_get_u32(tb[IFLA_NUM_TX_QUEUES]) != 1) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IFLA_NUM_TX_QUEUES],
				    "padtun has exactly one tx queue");
		return -EINVAL;
	}
	if (!data)
		return 0;

	ret = padtun_validate_addrs(data, extack);
	if (!ret)
		ret = padtun_validate_crypto(data, extack);
	if (!ret)
		ret = padtun_validate_cpus(data, extack);
	return ret;
}

/**
 * padtun_parse_order - IFLA_PADTUN_ORDER and IFLA_PADTUN_DOMAINS
 * @data: the attributes, through the policy
 * @order_flow: in: the order so far (newlink: link); out: the new one
 * @domains: in: the count so far (newlink: 1); out: the new one
 * @extack: for the reason of a refusal
 *
 * Either may be given alone: order link has one domain, order flow
 * keeps the count it had or takes PADTUN_DEFAULT_FLOW_DOMAINS.
 */
static int padtun_parse_order(struct nlattr *data[], bool *order_flow,
			      unsigned int *domains,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *order = data[IFLA_PADTUN_ORDER];
	struct nlattr *count = data[IFLA_PADTUN_DOMAINS];

	if (order) {
		if (nla_get_u8(order) == PADTUN_ORDER_LINK)
			*domains = 1;
		else if (!*order_flow)
			*domains = PADTUN_DEFAULT_FLOW_DOMAINS;
		*order_flow = nla_get_u8(order) == PADTUN_ORDER_FLOW;
	}
	if (!count)
		return 0;
	if (nla_get_u32(count) > 1 && !*order_flow) {
		NL_SET_ERR_MSG_ATTR(extack, count,
				    "more than one domain needs order flow");
		return -EINVAL;
	}
	*domains = nla_get_u32(count);
	return 0;
}

static void padtun_config_addrs(struct padtun_config *cfg,
				struct nlattr *data[])
{
	struct nlattr *remote = data[IFLA_PADTUN_REMOTE];

	cfg->ep.family = nla_len(remote) == sizeof(struct in_addr) ?
			 AF_INET : AF_INET6;
	nla_memcpy(&cfg->ep.remote, remote, sizeof(cfg->ep.remote));
	if (data[IFLA_PADTUN_LOCAL]) {
		cfg->ep.has_local = true;
		nla_memcpy(&cfg->ep.local, data[IFLA_PADTUN_LOCAL],
			   sizeof(cfg->ep.local));
	}
}

/* One port given: the same on both ends, as `port P` in iproute2. */
static int padtun_config_ports(struct padtun_config *cfg,
			       struct nlattr *data[],
			       struct netlink_ext_ack *extack)
{
	struct nlattr *local = data[IFLA_PADTUN_LOCAL_PORT];
	struct nlattr *remote = data[IFLA_PADTUN_REMOTE_PORT];

	if (!local && !remote) {
		NL_SET_ERR_MSG(extack, "a UDP port is required");
		return -EINVAL;
	}
	cfg->ep.local_port = nla_get_be16(local ?: remote);
	cfg->ep.remote_port = nla_get_be16(remote ?: local);
	return 0;
}

static int padtun_config_crypto(struct padtun_config *cfg,
				struct nlattr *data[],
				struct netlink_ext_ack *extack)
{
	struct nlattr *key = data[IFLA_PADTUN_KEY];

	cfg->transform = padtun_transform_default();
	if (data[IFLA_PADTUN_TRANSFORM])
		cfg->transform =
			padtun_transform_find(nla_data(data[IFLA_PADTUN_TRANSFORM]));

	if (!cfg->transform->alg) {
		/* A warning on success: iproute2 prints it as one. */
		if (key)
			NL_SET_ERR_MSG_ATTR(extack, key,
					    "transform none ignores the key");
		return 0;
	}
	if (!key) {
		NL_SET_ERR_MSG(extack, "the transform needs a key");
		return -EINVAL;
	}
	cfg->key = nla_data(key);
	cfg->key_len = nla_len(key);
	return 0;
}

static int padtun_check_cb_cpus(const struct cpumask *cpus,
				int cb_cpu, const struct nlattr *cb,
				int rx_cb_cpu, const struct nlattr *rx_cb,
				struct netlink_ext_ack *extack)
{
	if (!cpumask_test_cpu(cb_cpu, cpus)) {
		NL_SET_ERR_MSG_ATTR(extack, cb,
				    "callback CPU must be one of the CPU list");
		return -EINVAL;
	}
	if (!cpumask_test_cpu(rx_cb_cpu, cpus)) {
		NL_SET_ERR_MSG_ATTR(extack, rx_cb,
				    "receive's callback CPU must be one of the CPU list");
		return -EINVAL;
	}
	return 0;
}

static int padtun_config_cpus(struct padtun_config *cfg,
			      struct nlattr *data[],
			      struct netlink_ext_ack *extack)
{
	struct nlattr *cb = data[IFLA_PADTUN_CB_CPU];
	struct nlattr *rx_cb = data[IFLA_PADTUN_RX_CB_CPU];
	int ret;

	if (!zalloc_cpumask_var(&cfg->cpus, GFP_KERNEL))
		return -ENOMEM;
	if (data[IFLA_PADTUN_CPUS]) {
		ret = padtun_parse_cpus(data[IFLA_PADTUN_CPUS], cfg->cpus,
					extack);
		if (ret)
			return ret;
	} else {
		cpumask_copy(cfg->cpus, cpu_online_mask);
	}

	cfg->cb_cpu = cb ? nla_get_u32(cb) : cpumask_first(cfg->cpus);
	cfg->rx_cb_cpu = rx_cb ? nla_get_u32(rx_cb) : cfg->cb_cpu;
	return padtun_check_cb_cpus(cfg->cpus, cfg->cb_cpu, cb, cfg->rx_cb_cpu,
				    rx_cb, extack);
}

/**
 * padtun_config_parse - the newlink attributes, with their defaults
 * @cfg: filled in; padtun_config_free() it whatever this returns
 * @data: IFLA_INFO_DATA, already through the policy and padtun_validate()
 * @extack: for the reason of a refusal
 */
static int padtun_config_parse(struct padtun_config *cfg,
			       struct nlattr *data[],
			       struct netlink_ext_ack *extack)
{
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	if (!data || !data[IFLA_PADTUN_REMOTE]) {
		NL_SET_ERR_MSG(extack, "the remote address is required");
		return -EINVAL;
	}
	padtun_config_addrs(cfg, data);

	ret = padtun_config_ports(cfg, data, extack);
	if (!ret)
		ret = padtun_config_crypto(cfg, data, extack);
	if (!ret)
		ret = padtun_config_cpus(cfg, data, extack);
	if (ret)
		return ret;

	cfg->max_inflight = PADTUN_DEFAULT_MAX_INFLIGHT;
	if (data[IFLA_PADTUN_MAX_INFLIGHT])
		cfg->max_inflight = nla_get_u32(data[IFLA_PADTUN_MAX_INFLIGHT]);
	cfg->domains = 1;
	return padtun_parse_order(data, &cfg->order_flow, &cfg->domains,
				  extack);
}

static void padtun_config_free(struct padtun_config *cfg)
{
	free_cpumask_var(cfg->cpus);
}

static int padtun_newlink(struct net *src_net, struct net_device *dev,
			  struct nlattr *tb[], struct nlattr *data[],
			  struct netlink_ext_ack *extack)
{
	struct padtun_config cfg;
	int ret;

	ret = padtun_config_parse(&cfg, data, extack);
	if (!ret) {
		cfg.mtu_given = !!tb[IFLA_MTU];
		ret = padtun_device_create(netdev_priv(dev), &cfg, extack);
	}
	/* A warning in the ack: iproute2 prints it, the link is made. */
	if (!ret && !cfg.transform->alg)
		NL_SET_ERR_MSG_MOD(extack,
				   "transform none seals nothing: for measurement only");
	padtun_config_free(&cfg);
	return ret;
}

/* What changelink may touch: the rest would race with packets in flight. */
static int padtun_changelink_check(struct nlattr *data[],
				   struct netlink_ext_ack *extack)
{
	static const int fixed[] = {
		IFLA_PADTUN_LOCAL, IFLA_PADTUN_REMOTE,
		IFLA_PADTUN_LOCAL_PORT, IFLA_PADTUN_REMOTE_PORT,
		IFLA_PADTUN_KEY, IFLA_PADTUN_TRANSFORM,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(fixed); i++) {
		if (data[fixed[i]]) {
			NL_SET_ERR_MSG_ATTR(extack, data[fixed[i]],
					    "only cpus, cbcpu, rxcbcpu, maxinflight, order and domains can change after creation");
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

static int padtun_changelink(struct net_device *dev, struct nlattr *tb[],
			     struct nlattr *data[],
			     struct netlink_ext_ack *extack)
{
	struct padtun_dev *pt = netdev_priv(dev);
	u32 max_inflight = padtun_queue_max_inflight(&pt->tx);
	unsigned int domains = pt->domains;
	bool order_flow = pt->order_flow;
	struct nlattr *cb, *rx_cb;
	int cb_cpu, rx_cb_cpu;
	cpumask_var_t cpus;
	int ret;

	if (!data)
		return 0;
	ret = padtun_changelink_check(data, extack);
	if (!ret)
		ret = padtun_parse_order(data, &order_flow, &domains, extack);
	/* First: a link that is up refuses it before anything changed. */
	if (!ret)
		ret = padtun_device_set_order(pt, order_flow, domains, extack);
	if (ret)
		return ret;

	if (!alloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	if (data[IFLA_PADTUN_CPUS]) {
		ret = padtun_parse_cpus(data[IFLA_PADTUN_CPUS], cpus, extack);
		if (ret)
			goto out;
	} else {
		cpumask_copy(cpus, pt->cpus);
	}

	/* Keep the callback CPU if the new list still has it. */
	cb = data[IFLA_PADTUN_CB_CPU];
	cb_cpu = pt->cb_cpu;
	if (cb)
		cb_cpu = nla_get_u32(cb);
	else if (!cpumask_test_cpu(cb_cpu, cpus))
		cb_cpu = cpumask_first(cpus);
	/* Receive's: one shared with transmit stays shared. */
	rx_cb = data[IFLA_PADTUN_RX_CB_CPU];
	rx_cb_cpu = pt->rx_cb_cpu;
	if (rx_cb)
		rx_cb_cpu = nla_get_u32(rx_cb);
	else if (rx_cb_cpu == pt->cb_cpu || !cpumask_test_cpu(rx_cb_cpu, cpus))
		rx_cb_cpu = cb_cpu;
	ret = padtun_check_cb_cpus(cpus, cb_cpu, cb, rx_cb_cpu, rx_cb, extack);
	if (ret)
		goto out;
	if (data[IFLA_PADTUN_MAX_INFLIGHT])
		max_inflight = nla_get_u32(data[IFLA_PADTUN_MAX_INFLIGHT]);

	ret = padtun_device_change(pt, cpus, cb_cpu, rx_cb_cpu, max_inflight,
				   extack);
out:
	free_cpumask_var(cpus);
	return ret;
}

static size_t padtun_get_size(const struct net_device *dev)
{
	const struct padtun_dev *pt = netdev_priv(dev);

	return nla_total_size(sizeof(struct in6_addr)) * 2 +
	       nla_total_size(sizeof(__be16)) * 2 +
	       nla_total_size(sizeof(u8)) +
	       nla_total_size(PADTUN_TRANSFORM_NAME_MAX) +
	       nla_total_size(strlen(pt->cpus_str) + 1) +
	       nla_total_size(sizeof(u32)) * 4 +
	       nla_total_size(sizeof(u8));
}

/* Never the key itself: only whether there is one. */
static int padtun_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct padtun_dev *pt = netdev_priv(dev);
	int alen = pt->ep.family == AF_INET ? sizeof(struct in_addr) :
					      sizeof(struct in6_addr);

	if ((pt->ep.has_local &&
	     nla_put(skb, IFLA_PADTUN_LOCAL, alen, &pt->ep.local)) ||
	    nla_put(skb, IFLA_PADTUN_REMOTE, alen, &pt->ep.remote) ||
	    nla_put_be16(skb, IFLA_PADTUN_LOCAL_PORT, pt->ep.local_port) ||
	    nla_put_be16(skb, IFLA_PADTUN_REMOTE_PORT, pt->ep.remote_port) ||
	    nla_put_u8(skb, IFLA_PADTUN_KEY_SET, pt->key_set) ||
	    nla_put_string(skb, IFLA_PADTUN_TRANSFORM,
			   pt->transform.desc->name) ||
	    nla_put_string(skb, IFLA_PADTUN_CPUS, pt->cpus_str) ||
	    nla_put_u32(skb, IFLA_PADTUN_CB_CPU, pt->cb_cpu) ||
	    nla_put_u32(skb, IFLA_PADTUN_MAX_INFLIGHT,
			padtun_queue_max_inflight(&pt->tx)) ||
	    nla_put_u32(skb, IFLA_PADTUN_RX_CB_CPU, pt->rx_cb_cpu) ||
	    nla_put_u8(skb, IFLA_PADTUN_ORDER,
		       pt->order_flow ? PADTUN_ORDER_FLOW : PADTUN_ORDER_LINK) ||
	    nla_put_u32(skb, IFLA_PADTUN_DOMAINS, pt->domains))
		return -EMSGSIZE;
	return 0;
}

struct rtnl_link_ops padtun_link_ops __read_mostly = {
	.kind		= "padtun",
	.priv_size	= sizeof(struct padtun_dev),
	.maxtype	= IFLA_PADTUN_MAX,
	.policy		= padtun_policy,
	.setup		= padtun_setup,
	.validate	= padtun_validate,
	.newlink	= padtun_newlink,
	.changelink	= padtun_changelink,
	.get_size	= padtun_get_size,
	.fill_info	= padtun_fill_info,
};
