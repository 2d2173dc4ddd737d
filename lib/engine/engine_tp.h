/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef ENGINE_TP_H
#define ENGINE_TP_H

/*
 * The engine's per-flow tracepoints (rte_trace, CTF; doc/engine.md,
 * "Tracing"), off unless the EAL is given --trace=pcc.engine.* (or a
 * narrower pattern).  Off, each costs a load and a branch where it sits
 * (devtools/bench-trace.sh measures it against a build without them,
 * meson option engine_trace=false).  Flows are named by port and tag (the
 * QPN of a QP flow):
 *   pcc.engine.rp_event  an event dispatched to the flow's algorithm
 *   pcc.engine.rp_rate   the algorithm changed the flow's rate
 *   pcc.engine.rp_probe  an RTT probe request sent for the flow
 *   pcc.engine.np_cnp    the NP sent a CNP to a QP
 * tools/dpdk-pcc-trace renders them with the algorithms' trace records.
 */

#include <stdint.h>

#include <rte_trace_point.h>

RTE_TRACE_POINT(eng_tp_rp_event,
		RTE_TRACE_POINT_ARGS(uint16_t port_id, uint32_t tag, uint8_t type, uint64_t ts_ns),
		rte_trace_point_emit_u16(port_id);
		rte_trace_point_emit_u32(tag); rte_trace_point_emit_u8(type);
		rte_trace_point_emit_u64(ts_ns);)

RTE_TRACE_POINT(eng_tp_rp_rate,
		RTE_TRACE_POINT_ARGS(uint16_t port_id, uint32_t tag, uint64_t old_bps,
				uint64_t new_bps, uint64_t ts_ns),
		rte_trace_point_emit_u16(port_id);
		rte_trace_point_emit_u32(tag); rte_trace_point_emit_u64(old_bps);
		rte_trace_point_emit_u64(new_bps); rte_trace_point_emit_u64(ts_ns);)

RTE_TRACE_POINT(eng_tp_rp_probe,
		RTE_TRACE_POINT_ARGS(uint16_t port_id, uint32_t tag, uint8_t slot, uint64_t ts_ns),
		rte_trace_point_emit_u16(port_id);
		rte_trace_point_emit_u32(tag); rte_trace_point_emit_u8(slot);
		rte_trace_point_emit_u64(ts_ns);)

RTE_TRACE_POINT(eng_tp_np_cnp,
		RTE_TRACE_POINT_ARGS(uint16_t port_id, uint32_t dst_qpn, uint64_t ts_ns),
		rte_trace_point_emit_u16(port_id);
		rte_trace_point_emit_u32(dst_qpn); rte_trace_point_emit_u64(ts_ns);)

#if PCC_ENGINE_TRACE
#define ENG_TP(tp, ...) tp(__VA_ARGS__)
#else
#define ENG_TP(tp, ...) \
	do {            \
	} while (0)
#endif

#endif /* ENGINE_TP_H */
