/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in: one valid algorithm with a parameter and a counter, a
 * default layout (slot 0 of every port) and an exit point.
 */

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_good);

static const struct pcc_dev_param_desc good_params[] = {
	{ 0, "ALPHA", 10, 1, 100, PCC_DEV_PERM_RW, "a parameter from 1 to 100" },
};

static const struct pcc_dev_counter_desc good_counters[] = {
	{ 0, "events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW, "events seen" },
};

static void
good_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	const uint32_t *p = pcc_dev_params(attr->port, attr->algo_slot);

	(void)ctx;
	(void)ev;
	pcc_dev_counter_add(attr->port, attr->algo_slot, 0, 1);
	res->rate = p != NULL ? p[0] * 1000u : 1;
}

static const struct pcc_dev_algo_ops good_ops = {
	.name = "plug_good_algo",
	.id = 0x1001,
	.major = 1,
	.desc = "test plug-in algorithm",
	.params = good_params,
	.n_params = 1,
	.counters = good_counters,
	.n_counters = 1,
	.on_event = good_on_event,
};

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	int rc = pcc_plugin_add_algo(pl, &good_ops);

	if (rc == 0)
		rc = pcc_plugin_add_slot(pl, PCC_PLUGIN_ALL_PORTS, 0, 0, good_ops.name, true);
	return rc;
}

PCC_PLUGIN_EXPORT void
pcc_plugin_fini(void)
{
}
