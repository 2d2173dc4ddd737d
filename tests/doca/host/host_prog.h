/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef HOST_PROG_H
#define HOST_PROG_H

#include <doca_pcc.h>

/* Device applications (apps.c). */
extern struct doca_pcc_app *pcc_rp_rtt_template_app;
extern struct doca_pcc_app *pcc_rp_switch_telemetry_app;
extern struct doca_pcc_app *pcc_np_switch_telemetry_app;
extern struct doca_pcc_app *pcc_np_echo_app;

#endif /* HOST_PROG_H */
