/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The device applications the host program names.  On DOCA, DPACC
 * generates these symbols from the device code; with dpdk-pcc each is a
 * plug-in built from tests/doca/apps (pkg-config pcc-doca), found in
 * PCC_APP_DIR (doc/compat-doca-host.md, "Device applications").
 */

#include <doca_pcc.h>

DOCA_PCC_APP_DEFINE(pcc_rp_rtt_template_app, "rtt_tmpl.so");
DOCA_PCC_APP_DEFINE(pcc_rp_switch_telemetry_app, "telem_rp.so");
DOCA_PCC_APP_DEFINE(pcc_np_switch_telemetry_app, "telem_np.so");
DOCA_PCC_APP_DEFINE(pcc_np_echo_app, "echo_np.so");
