/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in registering a valid algorithm, then one whose name the
 * test registered already: the whole load must fail and the first
 * algorithm must not stay registered.
 */

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_dup);

static void
dup_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	res->rate = 1;
}

static const struct pcc_dev_algo_ops first_ops = {
	.name = "plug_dup_first",
	.on_event = dup_on_event,
};

static const struct pcc_dev_algo_ops dup_ops = {
	.name = "dup_algo",
	.on_event = dup_on_event,
};

PCC_PLUGIN_ALGOS(&first_ops, &dup_ops)
