/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef ENGINE_NP_H
#define ENGINE_NP_H

/*
 * The engine's interface to the notification-point (NP) runner and to the
 * RTT probe packet formats (np.c, probe.c).  The lcore loop (worker.c) and
 * the RP runner (rp.c) call these; nothing else in the engine knows how a
 * probe or a CNP looks on the wire.
 *
 * Threading: every function but eng_np_init()/eng_np_fini() runs on the
 * worker lcore `lc`, for a queue that lcore polls; it may use lc->np (its
 * own per-lcore state, created by eng_np_init()) without locks.  No
 * allocation other than mbufs from q->mp.  Counters go to
 * lc->pctr[q->pidx] (struct pcc_engine_port_stats).
 *
 * Times are nanoseconds of the port's clock: `now_ns` is the time of the
 * poll round (eng_clock_now(q->clk)); the receive time of one packet is
 * eng_clock_rx(q->clk, m, now_ns) (the hardware RX timestamp when the port
 * has one, else now_ns).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "pcc_dev.h"
#include "pcc_proto.h"

struct pcc_engine;
struct eng_lcore;
struct eng_rxq;
struct eng_flow;

/*
 * One RTT sample from a probe response.  Filled by eng_probe_resp_parse()
 * except resp_recv_ns, which the caller sets (RP receive time).
 */
struct eng_rtt_sample {
	uint64_t req_send_ns;               /* RP clock: when the request left (echoed) */
	uint64_t req_recv_ns;               /* NP clock: request received */
	uint64_t resp_send_ns;              /* NP clock: response sent */
	uint64_t resp_recv_ns;              /* RP clock: response received (caller) */
	uint32_t flow_tag;                  /* eng_flow.tag the request carried (echoed) */
	uint8_t slot;                       /* probe format slot of the request (echoed) */
	uint8_t user_len;                   /* bytes of user[] the NP filled, 0..12 */
	uint8_t user[PCC_DEV_RTT_USER_LEN]; /* NP user data, raw */
	uint8_t version;                    /* 1: the NP's extension (doc/wire.md 7.6) */
	uint8_t np_port_type;               /* v1 */
	uint32_t np_rx_bytes;               /* v1 */
};

/*
 * Create the NP state: e->np (shared, read-only once running) and lc->np of
 * every polling lcore.  Called by pcc_engine_create() after the ports and
 * lcores are set up, before any worker runs.  0 or a negative errno (the
 * engine is then destroyed; eng_np_fini() is still called).
 */
int eng_np_init(struct pcc_engine *e);

/* Free what eng_np_init() created; safe on a partial init.  Idempotent. */
void eng_np_fini(struct pcc_engine *e);

/*
 * NP handling of n packets received on q (a port with the NP role) that
 * the classifier gave to the NP: kinds PCC_PKT_ROCE_DATA, PCC_PKT_PROBE_REQ,
 * PCC_PKT_IFA1 and PCC_PKT_IFA2.  It also accepts PCC_PKT_ROCE_ACK and
 * PCC_PKT_ROCE_NAK, which it only learns sender QPNs from (worth giving
 * on NP ports without the RP role, where nothing else wants them); any
 * other kind is freed uncounted.  infos[i] is pkts[i]'s parse result.
 * Consumes every input mbuf (reused for an answer, or freed) and returns
 * the number of packets written to tx[0..tx_max-1] (CNPs, probe
 * responses), which the caller transmits on q's TX queue, counting
 * tx_pkts/tx_drop.  tx_max >= n.  Counts its own work in
 * lc->pctr[q->pidx] (ce_rx; cnp_tx for every CNP it returns).
 */
uint16_t eng_np_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts,
		const struct pcc_pkt_info *infos, uint16_t n, uint64_t now_ns, struct rte_mbuf **tx,
		uint16_t tx_max);

/*
 * The NP's fast path for CCMAD probe requests, run on a burst received on
 * q (a port with the NP role, not the host side of forward mode) before
 * the classifier: every packet that is a request in the layout the RP
 * builds (pcc_probe_fast_match(); one segment, not shared) is answered in
 * place (pcc_probe_fast_answer(): the bytes eng_np_rx() would send) and
 * appended to tx[*ntx...] (room for n); the others are moved, in their
 * order, to the front of pkts[] and their number returned, for the
 * classifier and eng_np_rx().  Off (returns n) with conf.np.probe_fast_off,
 * while a user NP handler is registered (it sees every request through
 * eng_np_rx()), and if the classifier's options check the ICRC or the IPv4
 * header checksum (the fast path checks neither).  Counts what eng_np_rx() and the classifier count for
 * those requests (rx_kind probe_req; probe_req, no_handler, probe_sw,
 * probe_ccmad), but not rx_pkts/rx_bytes: *bytes gets the bytes received
 * of the packets answered.
 */
uint16_t eng_np_fast_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts,
		uint16_t n, uint64_t now_ns, struct rte_mbuf **tx, uint16_t *ntx, uint64_t *bytes);

/*
 * Build one RTT probe request for flow f in the format configured for
 * probe slot `slot` (CCMAD-style MAD, IFA1 or IFA2), sent from q's port.
 * The request carries f->tag (echoed back as eng_rtt_sample.flow_tag),
 * `slot`, and now_ns as the request send time.  The addresses come from
 * f's L3 template (f->l3: the flow's data packets' Ethernet/IP/UDP with
 * the flow's QPN in f->key.qpn).  *out is a new mbuf from q->mp the caller
 * transmits.  0, -ENOMEM (no mbuf, counted), or another negative errno
 * (format not buildable for this flow, e.g. a 5-tuple flow).
 */
int eng_probe_build(struct eng_lcore *lc, const struct eng_rxq *q, const struct eng_flow *f,
		uint8_t slot, uint64_t now_ns, struct rte_mbuf **out);

/*
 * Decode a probe response received on an RP port: kind PCC_PKT_PROBE_RESP,
 * or PCC_PKT_IFA1 / PCC_PKT_IFA2 on a port without the NP role.  Fills *s
 * except resp_recv_ns.  0, or a negative errno for a packet that is not a
 * response of ours: a PROBE_RESP is then counted as malformed
 * (probe_bad) and freed; an IFA packet is treated as any other packet
 * (forwarded on the wire side of forward mode, else counted and freed).
 * The RP finds the flow by (port, s->flow_tag): QP flows have the QPN as
 * their tag (eng_flow.tag).
 */
int eng_probe_resp_parse(const struct rte_mbuf *m, const struct pcc_pkt_info *info,
		struct eng_rtt_sample *s);

/*
 * Is m (parsed as info) a probe response?  True for kind
 * PCC_PKT_PROBE_RESP, and for an IFA1/IFA2 packet whose probe MAD is a
 * response (method GET_RESP); false otherwise (an IFA packet is then a
 * request or other telemetry: the NP's business).  Reads a few bytes, no
 * state.  For ports with both roles: IFA kinds for which this is true
 * belong to the RP runner, the others to eng_np_rx().
 */
bool eng_probe_is_resp(const struct rte_mbuf *m, const struct pcc_pkt_info *info);

#endif /* ENGINE_NP_H */
