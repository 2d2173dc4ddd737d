/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Test plug-in whose entry point registers nothing. */

#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_noalgo);

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	(void)pl;
	return 0;
}
