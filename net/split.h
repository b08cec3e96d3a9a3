/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_SPLIT_H
#define _PADTUN_SPLIT_H

struct padtun_batch;
struct padtun_dev;

void padtun_tx_submit(struct padtun_dev *pt, struct padtun_batch *batch);

#endif /* _PADTUN_SPLIT_H */
