/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Test plug-in without the ABI symbol (no PCC_PLUGIN_DECLARE). */

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

static void
noabi_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	res->rate = 1;
}

static const struct pcc_dev_algo_ops noabi_ops = {
	.name = "plug_noabi_algo",
	.on_event = noabi_on_event,
};

PCC_PLUGIN_ALGOS(&noabi_ops)
