/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the RP runner's owner path (lib/engine/rp.c:
 * eng_rp_event, eng_rp_events, eng_rp_dispatch) against a scripted
 * algorithm and the real wheel pacer (test_engine_rp_fix.h): results
 * applied, flows ended, records processed in batches as one at a time.
 * The records' pure parts are in test_engine_rp.c, housekeeping (timers,
 * TX coalescing) and the port's wake in test_engine_rp_txc.c.  EAL
 * without hugepages.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "engine_internal.h"
#include "pcc_dev.h"
#include "pcc_pacer_drivers.h"
#include "test_eal.h"
#include "test_engine_rp.h"
#include "test_engine_rp_fix.h"

/* ---- Dispatch and results --------------------------------------------------- */

static void
test_results(void **state)
{
	struct pcc_dev_event ev;
	struct eng_flow *f;
	uint32_t idx;

	(void)state;
	memset(&pstats, 0, sizeof(pstats));
	f = new_flow(0x500);
	assert_non_null(f);
	assert_int_equal(f->slot, 0);
	idx = eng_flow_idx(&lc->ft, f);
	memset(&ev, 0, sizeof(ev));
	ev.type = PCC_DEV_EVENT_TX;

	/* a rate: the pacer gets rate x line rate */
	memset(&script, 0, sizeof(script));
	script.rate = PCC_DEV_MAX_RATE / 4;
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	assert_int_equal(f->rate, PCC_DEV_MAX_RATE / 4);
	assert_int_equal(pcc_pacer_get_rate(lport.pacer, idx), 25000000000ull);
	assert_int_equal(pstats.rate_updates, 1);
	assert_int_equal(pstats.ev[PCC_DEV_EVENT_TX], 1);
	assert_int_equal(f->ev[PCC_DEV_EVENT_TX], 1);
	assert_int_equal(((uint32_t *)eng_flow_ctx(f))[0], 1);
	/* the same rate again: no pacer update; 0: keep */
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	script.rate = 0;
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	assert_int_equal(pstats.rate_updates, 1);
	assert_int_equal(f->rate, PCC_DEV_MAX_RATE / 4);
	/* above the maximum: line rate */
	script.rate = PCC_DEV_MAX_RATE + 5;
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	assert_int_equal(f->rate, PCC_DEV_MAX_RATE);
	assert_int_equal(pcc_pacer_get_rate(lport.pacer, idx), 0);
	/* window and credits */
	memset(&script, 0, sizeof(script));
	script.window = 8192;
	script.credits = 512;
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	assert_int_equal(f->window, 8192);
	assert_int_equal(f->credits, 512);
	/* counted in payload bytes unless the algorithm counts frames on
	 * the wire (HPCC's W = B x T): with 8 packets of 1000 B in flight
	 * a 9th may go (8000 < 8192), with 8 frames of 1116 B it may not */
	assert_false(f->flags & ENG_FLOW_F_WIN_WIRE);
	f->una_psn = 100;
	f->flags |= ENG_FLOW_F_ACKED;
	f->credits = 0;
	assert_true(eng_window_ok(f, 108, 1000) && !eng_window_ok(f, 109, 1000));
	script.flags = PCC_DEV_RES_F_WINDOW_WIRE;
	script.credits = 0;
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	assert_true(f->flags & ENG_FLOW_F_WIN_WIRE);
	assert_true(eng_window_ok(f, 107, 1116) && !eng_window_ok(f, 108, 1116));
	/* a window without the flag: payload again */
	script.flags = 0;
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	assert_false(f->flags & ENG_FLOW_F_WIN_WIRE);
	f->flags &= (uint8_t)~ENG_FLOW_F_ACKED;
	/* a probe request for a flow without headers: counted, not sent */
	memset(&script, 0, sizeof(script));
	script.rtt_req = 1;
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	assert_int_equal(pstats.probe_no_flow, 1);
	assert_int_equal(pstats.probe_tx, 0);
	/* a masked event type: not delivered, counted */
	calls = 0;
	ev.type = PCC_DEV_EVENT_TIMER;
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	assert_int_equal(calls, 0);
	assert_int_equal(pstats.ev_masked, 1);
	assert_int_equal(pstats.ev[PCC_DEV_EVENT_TIMER], 0);
	/* an unbound slot: an error, counted */
	f->slot = 5;
	ev.type = PCC_DEV_EVENT_TX;
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	assert_int_equal(pstats.ev_err, 1);
	f->slot = 0;
	eng_flow_del(&lc->ft, f);
}

static void
count_flow(struct eng_flow *f, uint32_t idx, void *arg)
{
	(void)f;
	(void)idx;
	(*(unsigned int *)arg)++;
}

/* A flow the engine removes (aged out, evicted, the table freed) ends for
 * its algorithm, with its own context. */
static void
test_flow_end(void **state)
{
	struct pcc_dev_event ev;
	struct eng_flow *f, *g;
	unsigned int n = 0;
	uint64_t now;

	(void)state;
	memset(&script, 0, sizeof(script));
	nb_ended = 0;
	memset(&ev, 0, sizeof(ev));
	ev.type = PCC_DEV_EVENT_TX;
	f = new_flow(0x700);
	g = new_flow(0x701);
	assert_non_null(f);
	assert_non_null(g);
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	eng_rp_dispatch(lc, &lport, f, &ev, 0);
	eng_rp_dispatch(lc, &lport, g, &ev, 0);
	eng_flow_foreach(&lc->ft, count_flow, &n);
	assert_int_equal(n, 2);
	assert_int_equal(nb_ended, 0); /* walking the table ends nothing */

	/* aging: g stays active, f is idle and goes (the granule
	 * eng_ftable_init() gives 1 ms aging) */
	lc->ft.idle_ns = 1000000;
	lc->ft.lru_gran_ns = 100000;
	now = 5000000;
	eng_flow_touch(&lc->ft, g, now);
	assert_int_equal(eng_flow_age(&lc->ft, 0, now, 64, eng_rp_flow_evict, lc), 1);
	assert_int_equal(nb_ended, 1);
	assert_int_equal(ended[0], 2); /* f's context: two events */
	assert_int_equal(lc->ft.ctr.flows, 1);
	/* later g too */
	assert_int_equal(eng_flow_age(&lc->ft, 0, now + 2000000, 64, eng_rp_flow_evict, lc), 1);
	assert_int_equal(nb_ended, 2);
	assert_int_equal(ended[1], 1);
	lc->ft.idle_ns = 0;
}

/*
 * A flow evicted (or aged out) with packets waiting in its port's pacer:
 * they are freed and counted in the port's pacer_drop (before
 * 2026-11-28 they were in no counter).  At 1 Gb/s the first of three
 * 1000-byte packets is due at once (the pacer's pass-through FIFO, where
 * it stays and still leaves), the other two wait; filling the table of
 * 64 flows evicts the flow, the longest idle.
 */
static void
test_evict_pacer_counted(void **state)
{
	struct rte_mempool *pool;
	struct rte_mbuf *m[3];
	struct eng_flow *a;
	unsigned int i, avail;
	uint32_t idx;

	(void)state;
	memset(&script, 0, sizeof(script));
	memset(&pstats, 0, sizeof(pstats));
	pool = rte_pktmbuf_pool_create("rp_evict", 63, 0, 0, 256, SOCKET_ID_ANY);
	assert_non_null(pool);
	avail = rte_mempool_avail_count(pool);
	a = new_flow(0x900);
	assert_non_null(a);
	idx = eng_flow_idx(&lc->ft, a);
	assert_int_equal(pcc_pacer_set_rate(lport.pacer, idx, 1000000000), 0);
	for (i = 0; i < RTE_DIM(m); i++) {
		m[i] = rte_pktmbuf_alloc(pool);
		assert_non_null(m[i]);
		m[i]->data_len = 1000;
		m[i]->pkt_len = 1000;
	}
	assert_int_equal(pcc_pacer_enqueue(lport.pacer, idx, m, 3, 0), 3);
	for (i = 0; i < 64; i++)
		assert_non_null(new_flow(0x901 + i));
	assert_int_equal(lc->ft.ctr.evicted, 1);
	assert_int_equal(pstats.pacer_drop, 2);
	assert_int_equal(rte_mempool_avail_count(pool), avail - 1);
	/* the one already due still leaves */
	assert_int_equal(pcc_pacer_dequeue(lport.pacer, 0, m, 3), 1);
	rte_pktmbuf_free(m[0]);
	assert_int_equal(rte_mempool_avail_count(pool), avail);
	rte_mempool_free(pool);
}

static void
test_owner_events(void **state)
{
	struct pcc_pkt_info info;
	struct eng_flow *f;
	struct eng_ev r;

	(void)state;
	memset(&pstats, 0, sizeof(pstats));
	memset(&script, 0, sizeof(script));
	/* no such flow */
	info_init(&info, PCC_PKT_CNP, 0x600, 0);
	eng_ev_from_pkt(&info, NULL, 0, 10, &r);
	eng_rp_event(lc, &r);
	assert_int_equal(pstats.rp_no_flow, 1);
	f = new_flow(0x600);
	assert_non_null(f);
	/* a CNP record of 3 coalesced CNPs: counted 3, one event */
	r.count = 3;
	calls = 0;
	eng_rp_event(lc, &r);
	assert_int_equal(f->cnp_rx, 3);
	assert_int_equal(calls, 1);
	assert_int_equal(last_ev.type, PCC_DEV_EVENT_CNP);
	assert_int_equal(last_ev.ack.coalesced, 3);
	assert_int_equal(last_ev.flow_tag, 0x600);
	/* an ACK moves the window's left edge */
	info_init(&info, PCC_PKT_ROCE_ACK, 0x600, 99);
	eng_ev_from_pkt(&info, NULL, 0, 20, &r);
	eng_rp_event(lc, &r);
	assert_int_equal(f->ack_rx, 1);
	assert_int_equal(f->una_psn, 100);
	assert_true(f->flags & ENG_FLOW_F_ACKED);
	assert_int_equal(last_ev.type, PCC_DEV_EVENT_ACK);
	assert_int_equal(last_ev.sn, 99);
	/* OOS NAK: delivered with its subtype, left edge = its PSN */
	info_init(&info, PCC_PKT_ROCE_NAK, 0x600, 120);
	info.aeth_syndrome = (PCC_AETH_NAK << 5) | PCC_NAK_PSN_SEQ_ERR;
	eng_ev_from_pkt(&info, NULL, 0, 30, &r);
	eng_rp_event(lc, &r);
	assert_int_equal(last_ev.type, PCC_DEV_EVENT_NACK);
	assert_int_equal(last_ev.subtype, PCC_DEV_NACK_OOS);
	assert_int_equal(f->una_psn, 120);
	/* a fatal NAK: counted, not an event */
	calls = 0;
	info.aeth_syndrome = (PCC_AETH_NAK << 5) | PCC_NAK_INVALID_REQ;
	eng_ev_from_pkt(&info, NULL, 0, 40, &r);
	eng_rp_event(lc, &r);
	assert_int_equal(calls, 0);
	assert_int_equal(pstats.nack_other, 1);
	assert_int_equal(f->nack_rx, 2);
	/* RTT: the sample is total minus the NP's turnaround */
	memset(&r, 0, sizeof(r));
	pcc_engine_flow_key_qp(&r.key, 0, 0x600);
	r.sig = eng_flow_hash(&r.key);
	r.type = PCC_DEV_EVENT_RTT;
	r.count = 1;
	r.rtt.req_send_ns = 1000;
	r.rtt.req_recv_ns = 50000;
	r.rtt.resp_send_ns = 50400;
	r.ts_ns = 11000;
	eng_rp_event(lc, &r);
	assert_int_equal(f->rtt_ns, 10000 - 400);
	assert_int_equal(last_ev.type, PCC_DEV_EVENT_RTT);
	assert_int_equal(f->ev[PCC_DEV_EVENT_RTT], 1);
	eng_flow_del(&lc->ft, f);
}

/* n flows, QPNs qpn0.. (the batch tests') */
static void
batch_flows_new(struct eng_flow **flows, unsigned int n, uint32_t qpn0)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		flows[i] = new_flow(qpn0 + i);
		assert_non_null(flows[i]);
	}
}

/* The batch tests' flows gone, the bulk threshold and the port's owners
 * back as the group set them. */
static void
batch_flows_del(struct eng_flow **flows, unsigned int n)
{
	unsigned int i;

	eng_rp_bulk_min_flows = ENG_RP_BULK_MIN_FLOWS;
	eng.ports[0].nb_owners = 0;
	for (i = 0; i < n; i++)
		eng_flow_del(&lc->ft, flows[i]);
}

/* The algorithm saw the n events of ref (ev_log, in order). */
static void
log_equal(const struct pcc_dev_event *ref, const struct pcc_int_hdr *ref_int, unsigned int n)
{
	unsigned int i;

	assert_int_equal(nb_log, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(ev_log[i].type == PCC_DEV_EVENT_ACK &&
						ev_log[i].ack.int_hdr != NULL,
				ref[i].type == PCC_DEV_EVENT_ACK && ref[i].ack.int_hdr != NULL);
		if (ref_int != NULL)
			assert_memory_equal(&int_log[i], &ref_int[i], sizeof(int_log[i]));
		assert_int_equal(ev_log[i].flow_tag, ref[i].flow_tag);
		assert_int_equal(ev_log[i].type, ref[i].type);
		assert_int_equal(ev_log[i].sn, ref[i].sn);
		assert_int_equal(ev_log[i].ts, ref[i].ts);
		assert_int_equal(ev_log[i].ttl, ref[i].ttl);
		if (ev_log[i].type != PCC_DEV_EVENT_RTT) {
			assert_int_equal(ev_log[i].ack.first_ts, ref[i].ack.first_ts);
			assert_int_equal(ev_log[i].ack.first_sn, ref[i].ack.first_sn);
			assert_int_equal(ev_log[i].ack.coalesced, ref[i].ack.coalesced);
		}
	}
}

/*
 * Records processed in batches (eng_rp_events(); eng_rp_post() then
 * eng_rp_flush()) give the algorithm the same events in the same order,
 * and the flows the same counters, as one at a time (eng_rp_event()):
 * more records than a batch, flows that exist and flows that do not,
 * several records of one flow in a batch.  Every event sets a new rate:
 * the pacer ends with the same rates (a batch sets them at its end).
 */
static void
test_owner_batches(void **state)
{
	static struct eng_ev recs[100];
	struct pcc_dev_event log_ref[RTE_DIM(ev_log)];
	struct eng_flow *flows[8];
	uint64_t ref_cnp[8], ref_ack[8], ref_pacer[8], ref_no_flow, ref_updates;
	uint32_t ref_rate[8];
	unsigned int i, run, nb_ref = 0;
	uint32_t x = 7;

	(void)state;
	batch_flows_new(flows, RTE_DIM(flows), 0x700);
	for (i = 0; i < RTE_DIM(recs); i++) {
		struct pcc_pkt_info info;

		x = x * 1103515245u + 12345u;
		/* qpn 0x700..0x709: 0x708 and 0x709 have no flow */
		info_init(&info, (x >> 20) & 1 ? PCC_PKT_CNP : PCC_PKT_ROCE_ACK,
				0x700 + (x >> 24) % 10, i);
		assert_int_equal(eng_ev_from_pkt(&info, NULL, 0, 100 + i, &recs[i]), 0);
	}
	eng.ports[0].nb_owners = 1;
	eng.ports[0].owners[0] = lc;
	memset(&script, 0, sizeof(script));
	rate_of_sn = true;
	/* runs 1, 2: a small table is looked up one at a time; 3, 4: in bulk */
	for (run = 0; run < 5; run++) {
		eng_rp_bulk_min_flows = run >= 3 ? 0 : ENG_RP_BULK_MIN_FLOWS;
		memset(&pstats, 0, sizeof(pstats));
		for (i = 0; i < RTE_DIM(flows); i++) {
			flows[i]->cnp_rx = 0;
			flows[i]->ack_rx = 0;
			flows[i]->rate = 0;
			assert_int_equal(pcc_pacer_set_rate(lport.pacer,
							 eng_flow_idx(&lc->ft, flows[i]), 0),
					0);
		}
		nb_log = 0;
		log_on = true;
		if (run == 0) {
			for (i = 0; i < RTE_DIM(recs); i++)
				eng_rp_event(lc, &recs[i]);
		} else if (run & 1) {
			eng_rp_events(lc, recs, RTE_DIM(recs));
		} else {
			for (i = 0; i < RTE_DIM(recs); i++)
				eng_rp_post(lc, 0, &recs[i]);
			eng_rp_flush(lc);
			assert_int_equal(lc->nb_evb, 0);
		}
		log_on = false;
		assert_false(lc->rate_defer);
		assert_int_equal(lc->nb_rate_pend, 0);
		if (run == 0) {
			nb_ref = nb_log;
			memcpy(log_ref, ev_log, sizeof(log_ref));
			for (i = 0; i < RTE_DIM(flows); i++) {
				ref_cnp[i] = flows[i]->cnp_rx;
				ref_ack[i] = flows[i]->ack_rx;
				ref_rate[i] = flows[i]->rate;
				ref_pacer[i] = pcc_pacer_get_rate(
						lport.pacer, eng_flow_idx(&lc->ft, flows[i]));
				assert_true(ref_rate[i] != 0 && ref_pacer[i] != 0);
			}
			ref_no_flow = pstats.rp_no_flow;
			ref_updates = pstats.rate_updates;
			assert_true(ref_updates > RTE_DIM(recs) / 2);
			assert_true(ref_no_flow > 0);
			assert_true(nb_ref > RTE_DIM(recs) / 2);
			continue;
		}
		log_equal(log_ref, NULL, nb_ref);
		for (i = 0; i < RTE_DIM(flows); i++) {
			assert_int_equal(flows[i]->cnp_rx, ref_cnp[i]);
			assert_int_equal(flows[i]->ack_rx, ref_ack[i]);
			assert_int_equal(flows[i]->rate, ref_rate[i]);
			assert_int_equal(pcc_pacer_get_rate(lport.pacer,
							 eng_flow_idx(&lc->ft, flows[i])),
					ref_pacer[i]);
		}
		assert_int_equal(pstats.rp_no_flow, ref_no_flow);
		assert_int_equal(pstats.rate_updates, ref_updates);
	}
	rate_of_sn = false;
	batch_flows_del(flows, RTE_DIM(flows));
}

/*
 * The RX side's records, built and merged in the burst's pending record,
 * reach the algorithm the same whether each is processed at once (a small
 * table) or kept for a batch (eng_rp_post(), eng_rp_flush()): bursts
 * of 1 to 46 CC packets (some fill a batch) of a few flows, runs of one
 * flow's CNPs or ACKs that merge, flows that do not exist.
 */
static void
test_rx_records_batched(void **state)
{
	static struct pcc_dev_event log_ref[RTE_DIM(ev_log)];
	static struct pcc_int_hdr int_ref[RTE_DIM(ev_log)];
	struct eng_clock clk = { .src = PCC_ENGINE_CLOCK_TSC };
	struct eng_rxq q = { .port_id = 0, .pidx = 0, .clk = &clk };
	static struct pcc_cc_frame cc[200];
	static uint64_t ts[200];
	/* the frame an ACK's INT header is read from (after its AETH) */
	static uint8_t frame[128];
	const uint32_t int_off =
			14 + PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN + PCC_BTH_LEN + PCC_AETH_LEN;
	struct eng_flow *flows[6];
	uint64_t ref_cnp[6], ref_ack[6], ref_nack[6], ref_no_flow, ref_ev;
	struct pcc_int_hdr h;
	struct rte_mbuf m;
	unsigned int i, k, n, run, nb_ref = 0, merged = 0, with_int = 0, kept, filled;
	uint32_t x = 11, qpn = 0x800;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.buf_addr = frame;
	m.data_len = sizeof(frame);
	m.pkt_len = sizeof(frame);
	m.nb_segs = 1;
	batch_flows_new(flows, RTE_DIM(flows), 0x800);
	for (i = 0; i < RTE_DIM(cc); i++) {
		x = x * 1103515245u + 12345u;
		/* one flow in four packets changes: runs that merge;
		 * qpn 0x806 and 0x807 have no flow */
		if ((x >> 28) % 4 == 0 || i == 0)
			qpn = 0x800 + (x >> 8) % 8;
		memset(&cc[i], 0, sizeof(cc[i]));
		cc[i].dqpn = qpn;
		cc[i].psn = i;
		cc[i].ttl = (uint8_t)(i + 1);
		cc[i].l3_off = 14;
		switch ((x >> 16) % 5) {
		case 0:
		case 1:
			cc[i].kind = PCC_PKT_CNP;
			break;
		case 2:
		case 3:
			cc[i].kind = PCC_PKT_ROCE_ACK;
			cc[i].syndrome = 0x1f;
			/* one ACK in three with an INT header (never merged) */
			if ((x >> 12) % 3 == 0)
				cc[i].bth_flags = PCC_BTH_INT;
			break;
		default:
			cc[i].kind = PCC_PKT_ROCE_NAK;
			cc[i].syndrome = 0x60; /* PSN sequence error */
			break;
		}
		ts[i] = 1000 + 10 * i;
	}
	eng.ports[0].nb_owners = 1;
	eng.ports[0].owners[0] = lc;
	memset(&script, 0, sizeof(script));
	/* run 0: at once (a small table); 1: kept for batches */
	for (run = 0; run < 2; run++) {
		eng_rp_bulk_min_flows = run == 1 ? 0 : ENG_RP_BULK_MIN_FLOWS;
		memset(&pstats, 0, sizeof(pstats));
		for (i = 0; i < RTE_DIM(flows); i++) {
			flows[i]->cnp_rx = 0;
			flows[i]->ack_rx = 0;
			flows[i]->nack_rx = 0;
		}
		nb_log = 0;
		log_on = true;
		kept = 0;
		filled = 0;
		for (i = 0, n = 1; i < RTE_DIM(cc); i += n, n = n % 45 + 7) {
			unsigned int log0 = nb_log;
			bool has_pend = false;
			struct eng_ev pend;

			n = RTE_MIN(n, (unsigned int)RTE_DIM(cc) - i);
			/* as rx_dispatch() does with a burst */
			for (k = i; k < i + n; k++) {
				/* each ACK's own INT header in the frame */
				memset(&h, 0, sizeof(h));
				h.n_hops = (uint16_t)(1 + k % 3);
				h.hop[0].rate_code = PCC_INT_RATE_100G;
				h.hop[0].time_ns = 100 * k;
				h.hop[0].tx_bytes = 3 * k;
				h.hop[0].qlen = k;
				h.hop[1].qlen = 2 * k;
				assert_int_equal(
						pcc_int_build(frame + int_off, PCC_INT_HDR_LEN, &h),
						PCC_INT_HDR_LEN);
				assert_int_equal(eng_rp_rx_cc(lc, &q, &m, &cc[k], true, ts[k],
								 &pend, &has_pend),
						PCC_ENGINE_FATE_CC_EVENT);
			}
			/* records waiting for the batch; in batches, events
			 * before the burst's end: a batch filled in it */
			kept += lc->nb_evb > 0;
			filled += run == 1 && nb_log > log0;
			if (has_pend)
				eng_rp_post(lc, 0, &pend);
			eng_rp_flush(lc);
			assert_int_equal(lc->nb_evb, 0);
		}
		log_on = false;
		/* each run took the path it is meant to */
		assert_true(run == 0 ? kept == 0 : kept > 0 && filled > 0);
		if (run == 0) {
			nb_ref = nb_log;
			memcpy(log_ref, ev_log, sizeof(log_ref));
			memcpy(int_ref, int_log, sizeof(int_ref));
			for (i = 0; i < RTE_DIM(flows); i++) {
				ref_cnp[i] = flows[i]->cnp_rx;
				ref_ack[i] = flows[i]->ack_rx;
				ref_nack[i] = flows[i]->nack_rx;
			}
			ref_no_flow = pstats.rp_no_flow;
			ref_ev = pstats.ev[PCC_DEV_EVENT_CNP] + pstats.ev[PCC_DEV_EVENT_ACK] +
					pstats.ev[PCC_DEV_EVENT_NACK];
			for (i = 0; i < nb_log; i++) {
				if (ev_log[i].type != PCC_DEV_EVENT_NACK &&
						ev_log[i].ack.coalesced > 1)
					merged++;
				with_int += int_log[i].n_hops != 0;
			}
			/* the sequence has merges, INT headers, unknown QPs,
			 * and records for more than two batches */
			assert_true(merged > 5);
			assert_true(with_int > 5);
			assert_true(ref_no_flow > 0);
			assert_true(nb_ref > 2 * ENG_RP_EV_BATCH && nb_ref < RTE_DIM(cc));
			continue;
		}
		log_equal(log_ref, int_ref, nb_ref);
		for (i = 0; i < RTE_DIM(flows); i++) {
			assert_int_equal(flows[i]->cnp_rx, ref_cnp[i]);
			assert_int_equal(flows[i]->ack_rx, ref_ack[i]);
			assert_int_equal(flows[i]->nack_rx, ref_nack[i]);
		}
		assert_int_equal(pstats.rp_no_flow, ref_no_flow);
		assert_int_equal(pstats.ev[PCC_DEV_EVENT_CNP] + pstats.ev[PCC_DEV_EVENT_ACK] +
						pstats.ev[PCC_DEV_EVENT_NACK],
				ref_ev);
	}
	batch_flows_del(flows, RTE_DIM(flows));
}

static int
group_setup(void **state)
{
	(void)state;
	return rp_group_setup("test_engine_rp_owner");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_results, owner_setup, owner_teardown),
		cmocka_unit_test_setup_teardown(test_flow_end, owner_setup, owner_teardown),
		cmocka_unit_test_setup_teardown(
				test_evict_pacer_counted, owner_setup, owner_teardown),
		cmocka_unit_test_setup_teardown(test_owner_events, owner_setup, owner_teardown),
		cmocka_unit_test_setup_teardown(test_owner_batches, owner_setup, owner_teardown),
		cmocka_unit_test_setup_teardown(
				test_rx_records_batched, owner_setup, owner_teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, test_eal_group_teardown);
}
