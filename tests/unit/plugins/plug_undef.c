/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Test plug-in that needs a symbol nobody defines: dlopen() fails. */

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_undef);

extern int pcc_test_no_such_function(void);

static void
undef_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	res->rate = (uint32_t)pcc_test_no_such_function();
}

static const struct pcc_dev_algo_ops undef_ops = {
	.name = "plug_undef_algo",
	.on_event = undef_on_event,
};

PCC_PLUGIN_ALGOS(&undef_ops)
