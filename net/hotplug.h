/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each direction's serial CPU, as configured and as CPU hotplug allows.
 * See hotplug.c.
 */
#ifndef _PADTUN_HOTPLUG_H
#define _PADTUN_HOTPLUG_H

struct padtun_dev;

int padtun_hotplug_init(void);
void padtun_hotplug_exit(void);
void padtun_hotplug_init_dev(struct padtun_dev *pt);
int padtun_hotplug_add(struct padtun_dev *pt);
void padtun_hotplug_remove(struct padtun_dev *pt);
void padtun_hotplug_kick(struct padtun_dev *pt);
void padtun_serial_cpus_reset(struct padtun_dev *pt);

#endif /* _PADTUN_HOTPLUG_H */
