/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in whose algorithm description points at unmapped memory (its
 * parameter table): refused with -EFAULT, no crash.
 */

#include <stdint.h>

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_badptr);

static void
badptr_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	res->rate = 1;
}

static const struct pcc_dev_algo_ops badptr_ops = {
	.name = "plug_badptr_algo",
	.params = (const struct pcc_dev_param_desc *)(uintptr_t)0x10,
	.n_params = 2,
	.on_event = badptr_on_event,
};

PCC_PLUGIN_ALGOS(&badptr_ops)
