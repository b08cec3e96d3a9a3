/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PADTUN_GSO_H
#define _PADTUN_GSO_H

struct padtun_batch;

void padtun_tx_coalesce(struct padtun_batch *batch);

#endif /* _PADTUN_GSO_H */
