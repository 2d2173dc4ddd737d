/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in built "for another ABI".  Its constructor would register an
 * algorithm: the loader must refuse the file before any of its code runs.
 */

#include <stdint.h>

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

PCC_PLUGIN_EXPORT const uint32_t pcc_plugin_abi_version = 0x00630001u;

static void
badabi_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	res->rate = 1;
}

static const struct pcc_dev_algo_ops badabi_ops = {
	.name = "plug_badabi_ctor",
	.on_event = badabi_on_event,
};

PCC_DEV_ALGO_REGISTER(badabi_ops)
