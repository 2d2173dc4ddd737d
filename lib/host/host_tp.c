/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Registration of the rte_trace tracepoints declared in pcc_host_tp.h. */

#include <rte_trace_point_register.h>

#include "pcc_host_tp.h"

RTE_TRACE_POINT_REGISTER(pcc_tp_dev_trace, pcc.dev.trace)
RTE_TRACE_POINT_REGISTER(pcc_tp_dev_printf, pcc.dev.printf)
RTE_TRACE_POINT_REGISTER(pcc_tp_dev_trace_fmt, pcc.dev.trace_fmt)
RTE_TRACE_POINT_REGISTER(pcc_tp_host_state, pcc.host.state)
RTE_TRACE_POINT_REGISTER(pcc_tp_host_mailbox, pcc.host.mailbox)
RTE_TRACE_POINT_REGISTER(pcc_tp_host_ha, pcc.host.ha)
