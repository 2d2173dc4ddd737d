/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Reaction point runner.
 *
 * RX side (any lcore polling an RP port): a CNP, ACK, NAK or probe
 * response becomes a compact event record (struct eng_ev) keyed by the
 * flow it names; consecutive CNPs, or ACKs without INT, of one flow in a
 * burst merge into one record (coalesced count, first/last PSN and time).
 * The record goes to the flow's owner: processed at once when that is
 * this lcore, else through the single-producer/single-consumer ring of
 * the (this lcore, owner) pair.
 *
 * Owner side: the record's flow is looked up, its counters updated, the
 * lib/dev event built and dispatched to the flow's slot; the results are
 * applied: rate -> the flow's pacer, window/credits -> the window model,
 * rtt_req -> a probe sent now.  TX events come from the owner's own
 * transmissions, timer events from a per-lport FIFO (rp_tx.c).
 *
 * The commonest CC packets, CNPs and RC ACK/NAKs over IPv4, reach
 * eng_rp_rx_cc() without a parse, their ICRCs checked a burst at a time
 * (worker.c, pcc_cc_match_raw(), pcc_cc_icrc_ok_bulk()); the rest
 * eng_rp_rx(); both build the record in rp_rx_ev().
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "engine_internal.h"
#include "engine_tp.h"
#include "engine_np.h"
#include "pcc_dev_simple.h"
#include "pcc_dev_svc.h"
#include "pcc_pacer_drivers.h"

/* Flows whose lines are fetched ahead of the event being processed (two
 * or three lines a flow: more would fill the miss buffers). */
#define RP_PREFETCH_AHEAD 8
/* Event records taken from one ring per round. */
#define XRING_BURST 32

uint32_t eng_rp_bulk_min_flows = ENG_RP_BULK_MIN_FLOWS;

/* ---- Owner side ------------------------------------------------------------ */

static inline struct eng_lport *
lport_of(const struct eng_lcore *lc, uint16_t pidx)
{
	uint8_t i = lc->lport_of[pidx];

	return i == ENG_NO_LPORT ? NULL : lc->lports[i];
}

void
eng_rp_probe_send(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f, uint8_t slot,
		uint64_t now)
{
	struct pcc_engine_port_stats *pc = &lc->pctr[lp->pidx];
	struct rte_mbuf *m;
	int ret;

	if (lp->rxq == NULL || f->l3 == NULL) {
		eng_ctr_add(&pc->probe_no_flow, 1);
		return;
	}
	ret = eng_probe_build(lc, lp->rxq, f, slot, now, &m);
	if (ret < 0) {
		if (ret != -ENOMEM)
			eng_ctr_add(&pc->probe_no_flow, 1);
		return;
	}
	if (eng_tx_pkts(lp->port_id, lp->tx_queue, pc, &m, 1) == 1) {
		eng_ctr_add(&pc->probe_tx, 1);
		eng_ctr_add(&f->probe_tx, 1);
		f->txc_flags |= PCC_DEV_TX_F_RTT_REQ_SENT;
		f->flags &= (uint8_t)~ENG_FLOW_F_TX_DATA;
		ENG_TP(eng_tp_rp_probe, lp->port_id, f->tag, slot, now);
	}
}

/*
 * The algorithm asks for an RTT probe.  A flow whose data goes through the
 * engine (it had TX events) and sent none since its previous probe keeps
 * the request until it does (tx_account): at most one probe per data
 * packet, however short the RTT (conf.rp.probe_unbound turns it off).
 */
static void
probe_request(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f, uint8_t slot,
		uint64_t now)
{
	if (!lc->e->conf.rp.probe_unbound && (f->flags & ENG_FLOW_F_TX_SEEN) &&
			!(f->flags & ENG_FLOW_F_TX_DATA)) {
		if (f->probe_pend == 0)
			eng_ctr_add(&lc->pctr[lp->pidx].probe_wait, 1);
		f->probe_pend = (uint8_t)(slot + 1);
		return;
	}
	f->probe_pend = 0;
	eng_rp_probe_send(lc, lp, f, slot, now);
}

/* The algorithm's requests for this flow's probes (custom header, DSCP). */
static void
apply_probe_req(struct eng_lcore *lc, struct eng_flow *f, const struct pcc_dev_results *res)
{
	if (res->flags & PCC_DEV_RES_F_PROBE_CUSTOM)
		eng_flow_pcust_set(&lc->ft, f, res->custom_hdr, res->custom_len);
	if (res->flags & PCC_DEV_RES_F_PROBE_DSCP)
		f->probe_dscp = (uint8_t)((res->probe_dscp & 63) + 1);
	else if (res->flags & PCC_DEV_RES_F_PROBE_DSCP_OFF)
		f->probe_dscp = 0;
}

/* The pacer rates kept by rate_set(): their flows' state fetched together,
 * then set in order. */
static void
rate_flush(struct eng_lcore *lc)
{
	const struct eng_rate_pend *r = lc->rate_pend;
	uint16_t i, n = lc->nb_rate_pend;

	for (i = 0; i < n; i++)
		pcc_pacer_prefetch(r[i].pacer, r[i].flow);
	for (i = 0; i < n; i++)
		pcc_pacer_set_rate(r[i].pacer, r[i].flow, r[i].bps);
	lc->nb_rate_pend = 0;
}

/*
 * Set the pacer rate of flow idx: now, or within a batch of events at its
 * end (rate_flush()).  Nothing reads a pacer's rates while the batch runs
 * (the pacer and the generator run after the RX events of a round), so
 * the order of the calls, and what the pacer does, stay the same.
 */
static inline void
rate_set(struct eng_lcore *lc, struct pcc_pacer *p, uint32_t idx, uint64_t bps)
{
	struct eng_rate_pend *r;

	if (!lc->rate_defer) {
		pcc_pacer_set_rate(p, idx, bps);
		return;
	}
	if (unlikely(lc->nb_rate_pend == RTE_DIM(lc->rate_pend)))
		rate_flush(lc);
	r = &lc->rate_pend[lc->nb_rate_pend++];
	r->pacer = p;
	r->flow = idx;
	r->bps = bps;
}

static void
apply_results_any(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f,
		const struct pcc_dev_results *res, uint64_t now)
{
	/* a new rate or window, a probe: its pacer, generator and
	 * housekeeping run in the next round (worker.c) */
	eng_lport_wake(lp);
	if (unlikely(res->flags != 0))
		apply_probe_req(lc, f, res);
	if (res->rate != 0 && !(f->flags & ENG_FLOW_F_PINNED)) {
		uint32_t r = RTE_MIN(res->rate, PCC_DEV_MAX_RATE);

		if (r != f->rate) {
			uint64_t bps = eng_rate_bps(r, lp->line_bps);

			/* in bit/s, line rate for "no limit" (0) */
			ENG_TP(eng_tp_rp_rate, lp->port_id, f->tag,
					f->rate == 0 || f->rate >= PCC_DEV_MAX_RATE ?
							lp->line_bps :
							eng_rate_bps(f->rate, lp->line_bps),
					bps != 0 ? bps : lp->line_bps, now);
			__atomic_store_n(&f->rate, r, __ATOMIC_RELAXED);
			eng_pace_rescale(f, eng_pace_cost(bps, lp->line_bps), now);
			if (lp->pacer != NULL)
				rate_set(lc, lp->pacer, eng_flow_idx(&lc->ft, f), bps);
			eng_ctr_add(&lc->pctr[lp->pidx].rate_updates, 1);
		}
	}
	if (res->window != 0) {
		__atomic_store_n(&f->window, res->window, __ATOMIC_RELAXED);
		f->credits = res->credits;
		if (res->flags & PCC_DEV_RES_F_WINDOW_WIRE)
			f->flags |= ENG_FLOW_F_WIN_WIRE;
		else
			f->flags &= (uint8_t)~ENG_FLOW_F_WIN_WIRE;
	}
	if (res->rtt_req)
		probe_request(lc, lp, f, res->probe_slot != 0 ? res->probe_slot : f->slot, now);
}

/* The results of an event: nothing to do (inline), or apply them. */
static __rte_always_inline void
apply_results(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f,
		const struct pcc_dev_results *res, uint64_t now)
{
	if ((res->rate == 0 || res->rate == f->rate) && res->window == 0 &&
			(res->rtt_req | res->flags) == 0)
		return;
	apply_results_any(lc, lp, f, res, now);
}

/* eng_rp_dispatch(), inline in the RX events' path. */
static __rte_always_inline void
rp_dispatch(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f,
		const struct pcc_dev_event *ev, uint64_t now)
{
	struct pcc_engine_port_stats *pc = &lc->pctr[lp->pidx];
	struct pcc_dev_results res;
	int rc;

	rc = pcc_dev_dispatch(f->dev_port, f->slot, eng_flow_ctx(f), ev, &res);
	if (unlikely(rc != 0)) {
		eng_ctr_add(rc > 0 ? &pc->ev_masked : &pc->ev_err, 1);
		return;
	}
	if (ev->type < PCC_ENGINE_NB_EV) {
		eng_ctr_add(&pc->ev[ev->type], 1);
		eng_ctr32_add(&f->ev[ev->type], 1);
	}
	ENG_TP(eng_tp_rp_event, lp->port_id, f->tag, ev->type, now);
	apply_results(lc, lp, f, &res, now);
}

void
eng_rp_dispatch(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f,
		const struct pcc_dev_event *ev, uint64_t now)
{
	rp_dispatch(lc, lp, f, ev, now);
}

/* Network RTT of a sample: total minus the NP's turnaround when smaller. */
static uint64_t
rtt_of(const struct eng_ev *r)
{
	uint64_t total = r->ts_ns - r->rtt.req_send_ns;
	uint64_t np = r->rtt.resp_send_ns - r->rtt.req_recv_ns;

	return np < total ? total - np : total;
}

/* The event r of flow f (NULL: not in the table), found by the caller. */
static __rte_always_inline void
rp_event_of(struct eng_lcore *lc, const struct eng_ev *r, struct eng_flow *f)
{
	struct pcc_engine *e = lc->e;
	int16_t pidx = e->pidx[r->key.port_id];
	struct pcc_engine_port_stats *pc;
	struct pcc_int_hdr int_buf;
	struct pcc_dev_event ev;
	struct eng_lport *lp;

	if (pidx < 0 || (lp = lport_of(lc, (uint16_t)pidx)) == NULL)
		return;
	pc = &lc->pctr[pidx];
	/*
	 * The port's next round is not brought forward here: what an event
	 * changes that the port's pacer, generator or housekeeping act on
	 * wakes it where it changes (eng_lport_wake()): results applied
	 * (apply_results_any()).  An ACK or NAK moving a window needs none:
	 * a flow that is due keeps its port polled every round while its
	 * window is closed (eng_gen_wake()), one that is not due waits for
	 * its time anyway.  Nor does the flush of coalesced TX bytes below
	 * (the port's deadline can only move later).  Any other round it
	 * would run after the event does nothing (port_wake(), worker.c).
	 */
	if (f == NULL) {
		eng_ctr_add(&pc->rp_no_flow, r->count);
		return;
	}
	eng_flow_touch(&lc->ft, f, lp->now);
	/* the algorithm learns of what the flow sent before what came back:
	 * a coalesced TX event due is delivered before the RX event */
	if (f->txc_pkts > 0) {
		eng_txc_flush(f, lp->now, &ev);
		eng_rp_dispatch(lc, lp, f, &ev, lp->now);
		/* out of the TX coalescing list: the port's housekeeping
		 * deadline can only move later, no wake needed */
		eng_txc_unlink(&lc->ft, f);
	}
	switch (r->type) {
	case PCC_DEV_EVENT_CNP:
		eng_ctr_add(&f->cnp_rx, r->count);
		break;
	case PCC_DEV_EVENT_ACK:
		eng_ctr_add(&f->ack_rx, r->count);
		f->una_psn = (r->sn + 1) & PCC_PSN_MASK;
		f->flags |= ENG_FLOW_F_ACKED;
		f->credits = 0;
		break;
	case PCC_DEV_EVENT_NACK:
		eng_ctr_add(&f->nack_rx, r->count);
		if (r->subtype == 0) {
			eng_ctr_add(&pc->nack_other, r->count);
			return;
		}
		f->una_psn = r->sn & PCC_PSN_MASK;
		f->flags |= ENG_FLOW_F_ACKED;
		break;
	case PCC_DEV_EVENT_RTT:
		__atomic_store_n(&f->rtt_ns, rtt_of(r), __ATOMIC_RELAXED);
		break;
	default:
		return;
	}
	eng_ev_to_dev(r, f, &ev, &int_buf);
	rp_dispatch(lc, lp, f, &ev, lp->now);
}

/*
 * The QP index's key of record r's flow in *k; false if the index does not
 * have it.  The RX path builds every record's key with eng_flow_key_qp():
 * its type tells, without comparing the whole key, that the index has it
 * (when the port is indexed).
 */
static __rte_always_inline bool
rp_qpix_key(const struct eng_ev *r, uint32_t *k)
{
	return r->key.type == PCC_ENGINE_FLOW_QP && eng_qpix_key(r->key.port_id, r->key.qpn, k);
}

/* The flow of record r. */
static __rte_always_inline struct eng_flow *
rp_flow_of(struct eng_lcore *lc, const struct eng_ev *r)
{
	uint32_t k, idx;

	if (likely(rp_qpix_key(r, &k))) {
		idx = eng_qpix_find(&lc->ft, k);
		return idx != ENG_QPIX_EMPTY ? eng_flow_at(&lc->ft, idx) : NULL;
	}
	return eng_flow_lookup(&lc->ft, &r->key, r->sig);
}

void
eng_rp_event(struct eng_lcore *lc, const struct eng_ev *r)
{
	rp_event_of(lc, r, rp_flow_of(lc, r));
}

void
eng_rp_events(struct eng_lcore *lc, const struct eng_ev *r, unsigned int n)
{
	struct eng_flow *f[ENG_RP_EV_BATCH];
	uint32_t qk[ENG_RP_EV_BATCH];
	bool in_ix[ENG_RP_EV_BATCH];
	unsigned int i, k, m;
	uint32_t idx;

	/* a table that fits in the caches: one at a time is faster */
	if (lc->ft.ctr.flows < eng_rp_bulk_min_flows) {
		for (i = 0; i < n; i++)
			eng_rp_event(lc, &r[i]);
		return;
	}
	lc->rate_defer = true;
	for (k = 0; k < n; k += m) {
		m = RTE_MIN(n - k, (unsigned int)ENG_RP_EV_BATCH);
		/* the QP index slots of the batch fetched together (their
		 * cache misses overlap), then the flows' lines fetched while
		 * the first events are processed: with many flows each of
		 * these is a miss.  Their pacer state is fetched at the
		 * batch's end, for the flows whose rate changed (rate_set()) */
		for (i = 0; i < m; i++) {
			in_ix[i] = rp_qpix_key(&r[k + i], &qk[i]);
			if (in_ix[i])
				eng_qpix_prefetch(&lc->ft, qk[i]);
		}
		for (i = 0; i < m; i++) {
			if (in_ix[i]) {
				idx = eng_qpix_find(&lc->ft, qk[i]);
				f[i] = idx != ENG_QPIX_EMPTY ? eng_flow_at(&lc->ft, idx) : NULL;
			} else {
				f[i] = eng_flow_lookup_hash(&lc->ft, &r[k + i].key, r[k + i].sig);
			}
			if (i < RP_PREFETCH_AHEAD && f[i] != NULL)
				eng_flow_prefetch(&lc->ft, f[i]);
		}
		for (i = 0; i < m; i++) {
			unsigned int a = i + RP_PREFETCH_AHEAD;

			if (a < m && f[a] != NULL)
				eng_flow_prefetch(&lc->ft, f[a]);
			rp_event_of(lc, &r[k + i], f[i]);
		}
		rate_flush(lc);
	}
	lc->rate_defer = false;
}

void
eng_rp_flush(struct eng_lcore *lc)
{
	if (lc->nb_evb > 0) {
		eng_rp_events(lc, lc->evb, lc->nb_evb);
		lc->nb_evb = 0;
	}
}

/* eng_rp_post() of a record not kept for a batch: processed at once
 * (this lcore's, a small table), or to the owner's ring.  Never inlined:
 * the RX loops that call rp_post() would take the whole path at once. */
static __rte_noinline void
rp_post_other(struct eng_lcore *lc, uint16_t pidx, const struct eng_lcore *owner,
		const struct eng_ev *r)
{
	if (owner == lc) {
		rp_event_of(lc, r, rp_flow_of(lc, r));
		return;
	}
	if (rte_ring_sp_enqueue_elem(lc->xout[owner->rank], (void *)(uintptr_t)r, sizeof(*r)) !=
			0) {
		eng_ctr_add(&lc->pctr[pidx].xring_drop, 1);
		return;
	}
	eng_ctr_add(&lc->ctr.xring_out, 1);
}

/*
 * eng_rp_post(), inline in the RX path: a record kept for the batch costs
 * no call (rp_post_other(), with the path at once, saves and restores
 * most registers).  This lcore's records are processed at once while the
 * table is small (eng_rp_events() would look its flows up one at a time
 * anyway), else in batches: eng_rp_flush() at the end of the burst, or
 * now when the batch is full.  Records never overtake kept ones.
 */
static __rte_always_inline void
rp_post(struct eng_lcore *lc, uint16_t pidx, const struct eng_ev *r)
{
	struct eng_lcore *owner = eng_owner_key(lc->e, pidx, &r->key, r->sig);

	if (owner != lc || (lc->nb_evb == 0 && lc->ft.ctr.flows < eng_rp_bulk_min_flows)) {
		rp_post_other(lc, pidx, owner, r);
		return;
	}
	eng_ev_copy(&lc->evb[lc->nb_evb++], r);
	if (lc->nb_evb == ENG_RP_EV_BATCH)
		eng_rp_flush(lc);
}

void
eng_rp_post(struct eng_lcore *lc, uint16_t pidx, const struct eng_ev *r)
{
	rp_post(lc, pidx, r);
}

uint32_t
eng_rp_xring_poll(struct eng_lcore *lc)
{
	struct eng_ev recs[XRING_BURST];
	uint32_t total = 0;
	uint16_t i;

	for (i = 0; i < lc->nb_xin; i++) {
		struct rte_ring *r = lc->xin[lc->xin_rank[i]];
		unsigned int n;

		n = rte_ring_sc_dequeue_burst_elem(r, recs, sizeof(recs[0]), XRING_BURST, NULL);
		if (n > 0)
			eng_rp_events(lc, recs, n);
		total += n;
	}
	if (total > 0)
		eng_ctr_add(&lc->ctr.xring_in, total);
	return total;
}

/* The fate of a CC packet of kind whose ICRC did not verify. */
static inline int
icrc_fate(uint8_t kind)
{
	switch (kind) {
	case PCC_PKT_CNP:
		return PCC_ENGINE_FATE_ICRC_CNP;
	case PCC_PKT_ROCE_ACK:
		return PCC_ENGINE_FATE_ICRC_ACK;
	case PCC_PKT_ROCE_NAK:
		return PCC_ENGINE_FATE_ICRC_NAK;
	default:
		return PCC_ENGINE_FATE_ICRC_PROBE_RESP;
	}
}

/*
 * The event of a CC packet of kind (AETH syndrome syn; BTH DestQP qpn, PSN
 * psn, byte 4 bth_flags; IP TTL ttl; INT header int_hdr or NULL) received
 * at ts on q: built where it is kept (*pend), or not at all when it merges
 * into the one kept.
 */
static __rte_always_inline int
rp_rx_ev(struct eng_lcore *lc, const struct eng_rxq *q, uint8_t kind, uint8_t syn, uint32_t qpn,
		uint32_t psn, uint8_t bth_flags, uint8_t ttl, const void *int_hdr, uint64_t ts,
		struct eng_ev *pend, bool *has_pend)
{
	uint8_t subtype;
	uint32_t sig;
	int type;

	type = eng_ev_type_of_kind(kind, syn, &subtype);
	if (type < 0)
		return PCC_ENGINE_FATE_NOT_MINE;
	sig = eng_flow_hash_qp(q->port_id, qpn);
	if (*has_pend &&
			eng_ev_merge_pkt(pend, (uint8_t)type, sig,
					eng_flow_key_qp_word(q->port_id, qpn),
					eng_ev_pkt_has_int((uint8_t)type, bth_flags, int_hdr), psn,
					ttl, ts))
		return PCC_ENGINE_FATE_CC_EVENT;
	if (*has_pend)
		rp_post(lc, q->pidx, pend);
	eng_ev_fill(pend, (uint8_t)type, subtype, q->port_id, sig, qpn, psn, bth_flags, ttl,
			int_hdr, ts);
	*has_pend = true;
	return PCC_ENGINE_FATE_CC_EVENT;
}

int
eng_rp_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf *m,
		const struct pcc_pkt_info *info, uint64_t now, struct eng_ev *pend, bool *has_pend)
{
	struct pcc_engine_port_stats *pc = &lc->pctr[q->pidx];
	uint8_t int_buf[PCC_INT_HDR_LEN];
	const void *int_hdr = NULL;
	struct eng_rtt_sample s;
	struct eng_ev r;
	uint64_t ts = eng_clock_rx(q->clk, m, now);

	/* a corrupt or forged CNP must not cut a flow's rate: RoCEv2
	 * packets (not IFA ones, which carry no ICRC) are verified first */
	if (info->bth_off != 0 && unlikely(!eng_icrc_ok(q, m, info)))
		return icrc_fate(info->kind);
	if (info->kind == PCC_PKT_PROBE_RESP || info->kind == PCC_PKT_IFA1 ||
			info->kind == PCC_PKT_IFA2) {
		if (eng_probe_resp_parse(m, info, &s) != 0) {
			/* an IFA packet that is no answer of ours: not consumed */
			if (info->kind != PCC_PKT_PROBE_RESP)
				return -1;
			eng_ctr_add(&pc->probe_bad, 1);
			return PCC_ENGINE_FATE_PROBE_RESP_BAD;
		}
		memset(&r, 0, sizeof(r));
		eng_flow_key_qp(&r.key, q->port_id, s.flow_tag);
		r.sig = eng_flow_hash_qp(q->port_id, s.flow_tag);
		r.type = PCC_DEV_EVENT_RTT;
		r.count = 1;
		r.ts_ns = ts;
		r.first_ts_ns = ts;
		r.rtt.req_send_ns = s.req_send_ns;
		r.rtt.req_recv_ns = s.req_recv_ns;
		r.rtt.resp_send_ns = s.resp_send_ns;
		r.rtt.flow_tag = s.flow_tag;
		r.rtt.slot = s.slot;
		r.rtt.user_len = s.user_len;
		memcpy(r.rtt.user, s.user, sizeof(r.rtt.user));
		r.rtt.version = s.version;
		r.rtt.np_port_type = s.np_port_type;
		r.rtt.np_rx_bytes = s.np_rx_bytes;
		r.ttl = info->ttl;
		if (*has_pend) {
			eng_rp_post(lc, q->pidx, pend);
			*has_pend = false;
		}
		eng_rp_post(lc, q->pidx, &r);
		return PCC_ENGINE_FATE_RTT_EVENT;
	}
	if (info->kind == PCC_PKT_ROCE_ACK && (info->bth_flags & PCC_BTH_INT))
		int_hdr = rte_pktmbuf_read(m, info->payload_off, PCC_INT_HDR_LEN, int_buf);
	return rp_rx_ev(lc, q, info->kind, info->aeth_syndrome, info->dqpn, info->psn,
			info->bth_flags, info->ttl, int_hdr, ts, pend, has_pend);
}

/* eng_rp_rx_cc(), inline in the burst's loop. */
static __rte_always_inline int
rp_rx_cc(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf *m,
		const struct pcc_cc_frame *cc, bool icrc_ok, uint64_t now, struct eng_ev *pend,
		bool *has_pend)
{
	uint8_t int_buf[PCC_INT_HDR_LEN];
	const void *int_hdr = NULL;
	uint64_t ts = eng_clock_rx(q->clk, m, now);

	if (unlikely(!icrc_ok))
		return icrc_fate(cc->kind);
	/* an ACK's INT header follows its AETH */
	if (cc->kind == PCC_PKT_ROCE_ACK && (cc->bth_flags & PCC_BTH_INT))
		int_hdr = rte_pktmbuf_read(m,
				(uint32_t)cc->l3_off + PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN +
						PCC_BTH_LEN + PCC_AETH_LEN,
				PCC_INT_HDR_LEN, int_buf);
	return rp_rx_ev(lc, q, cc->kind, cc->syndrome, cc->dqpn, cc->psn, cc->bth_flags, cc->ttl,
			int_hdr, ts, pend, has_pend);
}

int
eng_rp_rx_cc(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf *m,
		const struct pcc_cc_frame *cc, bool icrc_ok, uint64_t now, struct eng_ev *pend,
		bool *has_pend)
{
	return rp_rx_cc(lc, q, m, cc, icrc_ok, now, pend, has_pend);
}

uint64_t
eng_rp_rx_cc_burst(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts,
		const struct pcc_cc_frame *cc, unsigned int n, uint64_t icrc_ok, uint64_t now,
		struct eng_ev *pend, bool *has_pend)
{
	struct pcc_engine_port_stats *pc = &lc->pctr[q->pidx];
	uint64_t bytes = 0;
	unsigned int k;
	int fate;

	for (k = 0; k < n; k++) {
		bytes += pkts[k]->pkt_len;
		eng_ctr_add(&pc->rx_kind[cc[k].kind], 1);
		fate = rp_rx_cc(lc, q, pkts[k], &cc[k], (icrc_ok >> k) & 1, now, pend, has_pend);
		eng_fate(pc, (unsigned int)fate, 1);
	}
	return bytes;
}
