/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_HOST_TP_H
#define PCC_HOST_TP_H

/**
 * @file
 * rte_trace tracepoints of dpdk-pcc (CTF, EAL option --trace=pcc.*,
 * output in --trace-dir when the EAL cleans up; read with babeltrace):
 *
 *   pcc.dev.trace      one algorithm trace record (pcc_dev_trace_5)
 *   pcc.dev.printf     one algorithm printf message
 *   pcc.dev.trace_fmt  the format of a trace record id (set, or at start)
 *   pcc.host.state     a context or process state change
 *   pcc.host.mailbox   a mailbox request answered
 *   pcc.host.ha        an HA role change
 *
 * Emitted by lib/host's control threads, never on the fast path.
 */

#include <rte_trace_point.h>

#ifdef __cplusplus
extern "C" {
#endif

RTE_TRACE_POINT(pcc_tp_dev_trace,
		RTE_TRACE_POINT_ARGS(uint64_t ts, uint32_t fmt_id, uint16_t thread, uint64_t a1,
				uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5),
		rte_trace_point_emit_u64(ts);
		rte_trace_point_emit_u32(fmt_id); rte_trace_point_emit_u16(thread);
		rte_trace_point_emit_u64(a1); rte_trace_point_emit_u64(a2);
		rte_trace_point_emit_u64(a3); rte_trace_point_emit_u64(a4);
		rte_trace_point_emit_u64(a5);)

RTE_TRACE_POINT(pcc_tp_dev_trace_fmt, RTE_TRACE_POINT_ARGS(uint32_t fmt_id, const char *fmt),
		rte_trace_point_emit_u32(fmt_id);
		rte_trace_point_emit_string(fmt);)

RTE_TRACE_POINT(pcc_tp_dev_printf,
		RTE_TRACE_POINT_ARGS(uint64_t ts, uint16_t thread, const char *msg),
		rte_trace_point_emit_u64(ts);
		rte_trace_point_emit_u16(thread); rte_trace_point_emit_string(msg);)

RTE_TRACE_POINT(pcc_tp_host_state,
		RTE_TRACE_POINT_ARGS(uint16_t port_id, int32_t ctx_state, int32_t process_state),
		rte_trace_point_emit_u16(port_id);
		rte_trace_point_emit_i32(ctx_state); rte_trace_point_emit_i32(process_state);)

RTE_TRACE_POINT(pcc_tp_host_mailbox,
		RTE_TRACE_POINT_ARGS(uint16_t port_id, uint8_t slot, uint32_t req_len,
				uint32_t resp_len, int32_t rc),
		rte_trace_point_emit_u16(port_id);
		rte_trace_point_emit_u8(slot); rte_trace_point_emit_u32(req_len);
		rte_trace_point_emit_u32(resp_len); rte_trace_point_emit_i32(rc);)

RTE_TRACE_POINT(pcc_tp_host_ha,
		RTE_TRACE_POINT_ARGS(int32_t state, uint64_t generation, int32_t pid),
		rte_trace_point_emit_i32(state);
		rte_trace_point_emit_u64(generation); rte_trace_point_emit_i32(pid);)

#ifdef __cplusplus
}
#endif

#endif /* PCC_HOST_TP_H */
