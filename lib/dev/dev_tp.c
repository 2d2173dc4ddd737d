/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Registration of lib/dev's tracepoint (dev_tp.h). */

#include <rte_trace_point_register.h>

#include "dev_tp.h"

RTE_TRACE_POINT_REGISTER(dev_tp_record, pcc.dev.record)
