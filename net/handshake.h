/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The handshake that makes a link's sessions from both ends' random
 * values. See handshake.c.
 */
#ifndef _PADTUN_HANDSHAKE_H
#define _PADTUN_HANDSHAKE_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "keys.h"

struct padtun_dev;

struct padtun_handshake {
	/* Messages the receive hook took, for the work. Its lock also
	 * guards the rate limit's two fields.
	 */
	struct sk_buff_head inbox;
	unsigned long limit_start;	/* jiffies: this second's start */
	unsigned int limit_count;	/* messages taken in it */

	struct delayed_work work;	/* on padtun_wq */
	struct list_head link;		/* on the module's list: vmfork */

	/* Guards the rest; the work's alone but for teardown. */
	struct mutex lock;
	bool initiating;		/* an init of ours waits for its response */
	struct padtun_hs_nonces ours;	/* its Ni (Nr unused) */
	u64 init_timestamp;		/* its timestamp */
	unsigned int tries;		/* inits sent without a response */
	unsigned long next_try;		/* jiffies: when to send the next */
	unsigned long last_init;	/* jiffies: the last one sent */
	u64 peer_timestamp;		/* the highest init timestamp taken */
};

int padtun_handshake_module_init(void);
void padtun_handshake_module_exit(void);
void padtun_handshake_init(struct padtun_dev *pt);
void padtun_handshake_start(struct padtun_dev *pt);
void padtun_handshake_stop(struct padtun_dev *pt);
void padtun_handshake_receive(struct padtun_dev *pt, struct sk_buff *skb);

#endif /* _PADTUN_HANDSHAKE_H */
