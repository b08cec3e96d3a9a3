/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ip_abi.h - the part of the iproute2 (v6.1) ABI a link plugin uses.
 *
 * Debian ships no iproute2 development headers, so a plugin carries its own
 * declarations. Everything declared extern here must be exported by
 * /usr/bin/ip (nm -D --defined-only) or be in libc: check-symbols.sh checks
 * that at build time. Everything iproute2 has as an inline or a macro is
 * re-implemented below as static inline.
 *
 * Layouts and prototypes follow iproute2 v6.1.0 include/utils.h,
 * include/json_print.h, include/color.h, include/libnetlink.h and
 * ip/ip_common.h. struct link_util has had this layout since v5.10.
 */
#ifndef PADNET_IP_ABI_H
#define PADNET_IP_ABI_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/* ip/ip_common.h */
struct link_util {
	struct link_util	*next;
	const char		*id;
	int			maxattr;
	int			(*parse_opt)(struct link_util *lu, int argc,
					     char **argv, struct nlmsghdr *n);
	void			(*print_opt)(struct link_util *lu, FILE *f,
					     struct rtattr *tb[]);
	void			(*print_xstats)(struct link_util *lu, FILE *f,
						struct rtattr *xstats);
	void			(*print_help)(struct link_util *lu, int argc,
					      char **argv, FILE *f);
	int			(*parse_ifla_xstats)(struct link_util *lu,
						     int argc, char **argv);
	int			(*print_ifla_xstats)(struct nlmsghdr *n,
						     void *arg);
};

/* include/utils.h: a typedef'd anonymous struct there, same layout */
struct inet_prefix {
	__u16 flags;
	__u16 bytelen;
	__s16 bitlen;
	__u16 family;
	__u32 data[64];
};

_Noreturn void invarg(const char *msg, const char *arg);
_Noreturn void duparg(const char *key, const char *arg);
_Noreturn void duparg2(const char *key, const char *arg);
_Noreturn void incomplete_command(void);
int get_u16(__u16 *val, const char *arg, int base);
int get_u32(__u32 *val, const char *arg, int base);
/* Exits with "Error: ... address is expected ..." on a bad address. */
int get_addr(struct inet_prefix *dst, const char *arg, int family);
/* Stops silently after blen bytes; NULL on a bad digit or odd length. */
__u8 *hexstring_a2n(const char *str, __u8 *buf, int blen, unsigned int *len);
const char *format_host(int af, int len, const void *addr);

#define NEXT_ARG() do { argv++; if (--argc <= 0) incomplete_command(); } while (0)
#define NEXT_ARG_OK() (argc - 1 > 0)
#define PREV_ARG() do { argv--; argc++; } while (0)

/* include/libnetlink.h */
int addattr8(struct nlmsghdr *n, int maxlen, int type, __u8 data);
int addattr16(struct nlmsghdr *n, int maxlen, int type, __u16 data);
int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data);
int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen);
int addattrstrz(struct nlmsghdr *n, int maxlen, int type, const char *data);

static inline __u8 rta_getattr_u8(const struct rtattr *rta)
{
	return *(const __u8 *)RTA_DATA(rta);
}

static inline __u16 rta_getattr_u16(const struct rtattr *rta)
{
	__u16 v;

	memcpy(&v, RTA_DATA(rta), sizeof(v));
	return v;
}

static inline __u16 rta_getattr_be16(const struct rtattr *rta)
{
	return ntohs(rta_getattr_u16(rta));
}

static inline __u32 rta_getattr_u32(const struct rtattr *rta)
{
	__u32 v;

	memcpy(&v, RTA_DATA(rta), sizeof(v));
	return v;
}

static inline const char *rta_getattr_str(const struct rtattr *rta)
{
	return (const char *)RTA_DATA(rta);
}

/* include/color.h: COLOR_NONE is 6 in every release since v4.16 */
enum color_attr {
	COLOR_IFNAME,
	COLOR_MAC,
	COLOR_INET,
	COLOR_INET6,
	COLOR_OPERSTATE_UP,
	COLOR_OPERSTATE_DOWN,
	COLOR_NONE,
};

/* include/json_print.h */
enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = 4,
};

bool is_json_context(void);
void open_json_object(const char *str);
void close_json_object(void);

int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value);
int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);
int print_color_bool(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, bool value);

static inline int print_string(enum output_type t, const char *key,
			       const char *fmt, const char *value)
{
	return print_color_string(t, COLOR_NONE, key, fmt, value);
}

static inline int print_uint(enum output_type t, const char *key,
			     const char *fmt, unsigned int value)
{
	return print_color_uint(t, COLOR_NONE, key, fmt, value);
}

static inline int print_bool(enum output_type t, const char *key,
			     const char *fmt, bool value)
{
	return print_color_bool(t, COLOR_NONE, key, fmt, value);
}

#endif /* PADNET_IP_ABI_H */
