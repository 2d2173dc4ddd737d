/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Test plug-in whose entry point fails after registering an algorithm. */

#include <errno.h>

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_initfail);

static void
initfail_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	res->rate = 1;
}

static const struct pcc_dev_algo_ops initfail_ops = {
	.name = "plug_initfail_algo",
	.on_event = initfail_on_event,
};

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	pcc_plugin_add_algo(pl, &initfail_ops);
	pcc_plugin_set_error(pl, "configuration file missing");
	return -EINVAL;
}
