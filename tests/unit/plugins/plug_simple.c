/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Test plug-in with a simple (snapshot) algorithm. */

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>
#include <pcc_dev_simple.h>

PCC_PLUGIN_DECLARE(plug_simple);

static void
simple_step(const struct pcc_dev_simple_in *in, void *state, struct pcc_dev_simple_out *out)
{
	(void)state;
	out->rate = in->cnp_count > 0 ? in->rate / 2 : in->rate;
}

static const struct pcc_dev_simple_algo simple_algo = {
	.name = "plug_simple_algo",
	.mode = PCC_DEV_SIMPLE_RATE,
	.call_on = PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_CNP),
	.step = simple_step,
};

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	return pcc_plugin_add_simple(pl, &simple_algo);
}
