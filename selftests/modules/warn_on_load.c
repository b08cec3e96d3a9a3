// SPDX-License-Identifier: GPL-2.0
/*
 * A module that WARNs as it loads: the harness test that proves a kernel
 * warning during a scenario fails that scenario.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init warn_on_load_init(void)
{
	WARN(1, "warn_on_load: deliberate warning for the harness test\n");
	return 0;
}

static void __exit warn_on_load_exit(void)
{
}

module_init(warn_on_load_init);
module_exit(warn_on_load_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("padnet harness test: WARN on load");
