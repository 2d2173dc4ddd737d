/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DEV_TP_H
#define DEV_TP_H

/*
 * pcc.dev.record: an algorithm's trace record (pcc_dev_trace_5) as an
 * rte_trace event at the moment the algorithm writes it, on its lcore, so
 * that it falls in order with the engine's per-flow events
 * (pcc.engine.*).  Off unless the EAL traces it (--trace=pcc\.dev\..*):
 * a load and a branch.  dpdk-pcc-trace renders it with the format of its
 * id (pcc.dev.trace_fmt, lib/host).
 */

#include <stdint.h>

#include <rte_trace_point.h>

RTE_TRACE_POINT(dev_tp_record,
		RTE_TRACE_POINT_ARGS(uint32_t fmt_id, uint64_t a1, uint64_t a2, uint64_t a3,
				uint64_t a4, uint64_t a5),
		rte_trace_point_emit_u32(fmt_id);
		rte_trace_point_emit_u64(a1); rte_trace_point_emit_u64(a2);
		rte_trace_point_emit_u64(a3); rte_trace_point_emit_u64(a4);
		rte_trace_point_emit_u64(a5);)

#endif /* DEV_TP_H */
