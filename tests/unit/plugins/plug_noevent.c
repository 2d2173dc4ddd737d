/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Test plug-in with an algorithm that has no on_event callback. */

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_noevent);

static const struct pcc_dev_algo_ops noevent_ops = {
	.name = "plug_noevent_algo",
};

PCC_PLUGIN_ALGOS(&noevent_ops)
