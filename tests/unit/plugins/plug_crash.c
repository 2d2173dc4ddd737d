/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in whose entry point crashes: pcc_dev_plugin_check() must
 * report it without the test process dying.
 */

#include <signal.h>

#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_crash);

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	(void)pl;
	raise(SIGSEGV);
	return 0;
}
