/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test builds (PADNET_TEST=y, qemu-net/build-modules.sh) export the pure
 * helpers the KUnit suite (padtun_test.c) checks, in the PADNET_TEST
 * namespace; other builds export nothing.
 */
#ifndef _EXPORT_SYMBOL_PADTUN_TEST_H
#define _EXPORT_SYMBOL_PADTUN_TEST_H

#include <linux/export.h>

#ifdef PADNET_TEST_HOOKS
#define EXPORT_SYMBOL_PADTUN_TEST(sym)	EXPORT_SYMBOL_NS_GPL(sym, PADNET_TEST)
#else
#define EXPORT_SYMBOL_PADTUN_TEST(sym)
#endif

#endif /* _EXPORT_SYMBOL_PADTUN_TEST_H */
