/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in registering its algorithm from a constructor
 * (PCC_DEV_ALGO_REGISTER) and without an entry point: the loader adopts
 * the algorithm and removes it on unload.
 */

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_ctor);

static void
ctor_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	res->rate = 7;
}

static const struct pcc_dev_algo_ops ctor_ops = {
	.name = "plug_ctor_algo",
	.on_event = ctor_on_event,
};

PCC_DEV_ALGO_REGISTER(ctor_ops)
