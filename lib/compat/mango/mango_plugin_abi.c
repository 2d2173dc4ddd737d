/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The plug-in ABI symbol of a mango plug-in.  In its own object so that a
 * plug-in that names itself with PCC_PLUGIN_DECLARE() (which defines the
 * same symbol) links without a duplicate: the linker takes this object
 * from the static library only when the symbol is missing.
 */

#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE_ABI();
