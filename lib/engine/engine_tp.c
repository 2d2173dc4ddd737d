/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Registration of the engine's tracepoints (engine_tp.h). */

#include <rte_trace_point_register.h>

#include "engine_tp.h"

RTE_TRACE_POINT_REGISTER(eng_tp_rp_event, pcc.engine.rp_event)
RTE_TRACE_POINT_REGISTER(eng_tp_rp_rate, pcc.engine.rp_rate)
RTE_TRACE_POINT_REGISTER(eng_tp_rp_probe, pcc.engine.rp_probe)
RTE_TRACE_POINT_REGISTER(eng_tp_np_cnp, pcc.engine.np_cnp)
