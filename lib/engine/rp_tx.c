/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Reaction point: a lport's flows and what they transmit (rp.c is the RX
 * events' side).  Flows are looked up or added for the traffic sources and
 * evicted; their packets go through the pacer, and what leaves is
 * accounted to its flow by the tag copied before the send (TX events,
 * coalesced; a probe the algorithm asked for waits for a data packet);
 * housekeeping flushes TX coalescing (from the ports' lists, in due
 * order), fires timers (from the ports' FIFOs) and ages flows.
 */

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "engine_internal.h"
#include "pcc_pacer_drivers.h"

/* Housekeeping budget per lport and poll round. */
#define HK_TXC_MAX 32
#define HK_TIMER_MAX 32
#define HK_AGE_MAX 8

/* ---- Flows of an lport ------------------------------------------------------ */

/* lp's pacer forgets flow index idx: what it had waiting is freed and
 * counted in the port's pacer_drop. */
static inline void
pacer_forget(struct eng_lcore *lc, struct eng_lport *lp, uint32_t idx)
{
	if (lp->pacer != NULL)
		eng_ctr_add(&lc->pctr[lp->pidx].pacer_drop, pcc_pacer_flow_reset(lp->pacer, idx));
}

void
eng_rp_flow_evict(struct eng_flow *f, uint32_t idx, void *arg)
{
	struct eng_lcore *lc = arg;
	struct eng_lport *lp = lc->lports[f->lp];

	/* evicted for another port's new flow: its generator rebinds it */
	eng_lport_wake(lp);
	/* the algorithm learns that the flow is gone (its active flows) */
	pcc_dev_flow_end(f->dev_port, f->slot, eng_flow_ctx(f));
	pacer_forget(lc, lp, idx);
	if (f->gf != NULL && f->gf->fidx == idx)
		f->gf->fidx = ENG_NONE;
}

struct eng_flow *
eng_rp_flow_get(struct eng_lcore *lc, struct eng_lport *lp, const struct pcc_engine_flow_key *key,
		uint32_t sig, const struct pcc_l3_spec *l3, struct eng_gen_flow *gf, uint64_t now)
{
	uint64_t nows[RTE_MAX_ETHPORTS];
	struct eng_flow_init init;
	struct eng_flow *f;
	bool created;
	uint16_t i;

	f = eng_flow_lookup(&lc->ft, key, sig);
	if (f != NULL)
		return f;
	for (i = 0; i < lc->nb_lports; i++)
		nows[i] = lc->lports[i]->now;
	init.lp = lp->idx;
	init.dev_port = lp->dev_port;
	init.slot = gf != NULL && gf->slot != ENG_SLOT_ACTIVE ? gf->slot :
								pcc_dev_slot_active(lp->dev_port);
	init.l3 = l3;
	init.gf = gf;
	f = eng_flow_add(&lc->ft, key, sig, &init, now, nows, eng_rp_flow_evict, lc, &created);
	if (f == NULL || !created)
		return f;
	/* anything an earlier flow of the index left in this port's pacer
	 * goes, as with an eviction */
	pacer_forget(lc, lp, eng_flow_idx(&lc->ft, f));
	f->pace_cost = eng_pace_cost(0, lp->line_bps);
	/* a new flow is in no FIFO (eng_flow_add()) */
	if (lc->e->rp.timer_ns != 0) {
		f->flags |= ENG_FLOW_F_TIMER_Q;
		eng_fifo_push(&lc->ft, &lc->ft.lists[lp->idx].timer, f, eng_flow_idx(&lc->ft, f));
	}
	return f;
}

uint16_t
eng_rp_pace(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f, struct rte_mbuf **pkts,
		uint16_t n, uint64_t now)
{
	uint32_t idx = eng_flow_idx(&lc->ft, f);
	uint16_t i, k;

	/* with conf.rp.tx_stamp the pacer writes each packet's departure
	 * (pcc_pacer_conf.depart_off) */
	for (i = 0; i < n; i++) {
		struct eng_mtag *t = eng_mtag(pkts[i]);

		t->fidx = idx;
		t->seq = f->seq;
	}
	k = pcc_pacer_enqueue(lp->pacer, idx, pkts, n, now);
	f->queued = (uint16_t)(f->queued + k);
	for (i = 0; i < k; i++)
		eng_pace_advance(f, pkts[i]->pkt_len + PCC_PACER_WIRE_OVERHEAD, now);
	if (k < n) {
		eng_ctr_add(&lc->pctr[lp->pidx].pacer_drop, n - k);
		rte_pktmbuf_free_bulk(pkts + k, n - k);
	}
	return k;
}

void
eng_rp_tx_bytes(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f, uint32_t len,
		uint32_t psn, bool ackreq, uint64_t now)
{
	struct pcc_dev_event ev;

	if (eng_txc_add(f, &lc->e->rp, len, psn, ackreq, now, &ev)) {
		eng_rp_dispatch(lc, lp, f, &ev, now);
		eng_txc_unlink(&lc->ft, f);
	} else if (!(f->flags & ENG_FLOW_F_TXC_Q)) {
		eng_txc_append(&lc->ft, f, eng_flow_idx(&lc->ft, f));
	}
}

static inline struct eng_flow *
tag_flow(struct eng_lcore *lc, const struct eng_mtag *t)
{
	struct eng_flow *f;

	if (t->fidx >= lc->ft.cap)
		return NULL;
	f = eng_flow_at(&lc->ft, t->fidx);
	if (!(f->flags & ENG_FLOW_F_IN_USE) || f->seq != t->seq)
		return NULL;
	return f;
}

/* Account transmitted packets by their tags (copied before the send). */
static void
tx_account(struct eng_lcore *lc, struct eng_lport *lp, const struct eng_mtag *tags,
		const uint32_t *lens, uint16_t n, uint64_t now)
{
	struct pcc_engine_port_stats *pc = &lc->pctr[lp->pidx];
	uint64_t gen_pkts = 0, gen_bytes = 0, gen_ce = 0, fwd = 0;
	uint16_t i;

	for (i = 0; i < n; i++) {
		const struct eng_mtag *t = &tags[i];
		struct eng_flow *f = tag_flow(lc, t);
		struct eng_gen_flow *gf;

		if (t->flags & ENG_MTAG_GEN) {
			gen_pkts++;
			gen_bytes += lens[i];
			gen_ce += (t->flags & ENG_MTAG_CE) != 0;
		} else if ((t->flags & ENG_MTAG_FWD) && t->fidx != ENG_NONE) {
			fwd++;
		}
		if (f == NULL)
			continue;
		gf = f->gf;
		if (gf != NULL && (t->flags & ENG_MTAG_GEN)) {
			eng_ctr_add(&gf->tx_pkts, 1);
			eng_ctr_add(&gf->tx_bytes, lens[i]);
			if (t->flags & ENG_MTAG_CE)
				eng_ctr_add(&gf->tx_ce, 1);
			if (t->flags & ENG_MTAG_LAST)
				__atomic_store_n(&gf->fct_ns, now - gf->start_ns, __ATOMIC_RELAXED);
		}
		eng_ctr_add(&f->tx_pkts, 1);
		eng_ctr_add(&f->tx_bytes, lens[i]);
		eng_flow_touch(&lc->ft, f, now);
		f->flags |= ENG_FLOW_F_TX_DATA;
		if (unlikely(f->probe_pend != 0)) {
			uint8_t slot = (uint8_t)(f->probe_pend - 1);

			f->probe_pend = 0;
			eng_rp_probe_send(lc, lp, f, slot, now);
		}
		eng_rp_tx_bytes(lc, lp, f, lens[i], t->psn, (t->flags & ENG_MTAG_ACKREQ) != 0, now);
	}
	if (gen_pkts > 0) {
		eng_ctr_add(&pc->gen_pkts, gen_pkts);
		eng_ctr_add(&pc->gen_bytes, gen_bytes);
		eng_ctr_add(&pc->gen_ce, gen_ce);
	}
	if (fwd > 0)
		eng_ctr_add(&pc->fwd_paced, fwd);
}

uint16_t
eng_rp_pacer_run(struct eng_lcore *lc, struct eng_lport *lp, uint64_t now)
{
	struct pcc_engine_port_stats *pc = &lc->pctr[lp->pidx];
	const uint16_t burst = lc->e->conf.burst;
	struct eng_mtag tags[PCC_ENGINE_BURST_MAX];
	uint32_t lens[PCC_ENGINE_BURST_MAX];
	uint64_t bytes = 0;
	uint16_t n, i, sent;

	/*
	 * Take everything due, up to the buffer (PCC_ENGINE_BURST_MAX), not
	 * just a burst: the pacer hands out its pass-through FIFO (flows at
	 * line rate) before its wheel, so a small max would starve the wheel.
	 * A PMD that took less keeps the rest here for the next round.
	 */
	if (lp->txb_n < burst) {
		n = pcc_pacer_dequeue(lp->pacer, now, lp->txb + lp->txb_n,
				(uint16_t)(RTE_DIM(lp->txb) - lp->txb_n));
		for (i = lp->txb_n; i < lp->txb_n + n; i++) {
			struct eng_flow *f = tag_flow(lc, eng_mtag(lp->txb[i]));

			if (f != NULL && f->queued > 0)
				f->queued--;
		}
		lp->txb_n = (uint16_t)(lp->txb_n + n);
	}
	if (lp->txb_n == 0)
		return 0;
	for (i = 0; i < lp->txb_n; i++) {
		tags[i] = *eng_mtag(lp->txb[i]);
		lens[i] = lp->txb[i]->pkt_len;
	}
	sent = rte_eth_tx_burst(lp->port_id, lp->tx_queue, lp->txb, lp->txb_n);
	for (i = 0; i < sent; i++)
		bytes += lens[i];
	eng_ctr_add(&pc->tx_pkts, sent);
	eng_ctr_add(&pc->tx_bytes, bytes);
	if (sent > 0)
		tx_account(lc, lp, tags, lens, sent, now);
	if (sent < lp->txb_n)
		memmove(lp->txb, lp->txb + sent, sizeof(lp->txb[0]) * (lp->txb_n - sent));
	lp->txb_n = (uint16_t)(lp->txb_n - sent);
	return sent;
}

uint32_t
eng_rp_housekeep(struct eng_lcore *lc, struct eng_lport *lp, uint64_t now)
{
	struct eng_flist *l = &lc->ft.lists[lp->idx];
	const struct eng_rp_conf *c = &lc->e->rp;
	struct pcc_dev_event ev;
	uint32_t work = 0, k;

	/* TX bytes waiting longer than the coalescing time */
	for (k = 0; k < HK_TXC_MAX && l->txc_head != ENG_NONE; k++) {
		uint32_t idx = l->txc_head;
		struct eng_flow *f = eng_flow_at(&lc->ft, idx);

		/* the list is in due order; a flow in it has bytes waiting */
		if (now - f->txc_first_ns < c->txc_ns)
			break;
		eng_txc_unlink_at(&lc->ft, f, idx);
		if (f->txc_pkts == 0)
			continue;
		eng_txc_flush(f, now, &ev);
		eng_rp_dispatch(lc, lp, f, &ev, now);
		work++;
	}
	/* timers: one period after the previous one, in FIFO order */
	for (k = 0; c->timer_ns != 0 && k < HK_TIMER_MAX && !eng_fifo_empty(&l->timer); k++) {
		uint32_t idx = eng_fifo_idx(eng_fifo_peek(&l->timer));
		struct eng_flow *f = eng_fifo_head(&lc->ft, &l->timer);
		uint64_t due;

		if (f == NULL) {
			eng_fifo_pop(&l->timer);
			continue;
		}
		due = f->timer_ns + c->timer_ns;
		if ((int64_t)(now - due) < 0)
			break;
		eng_fifo_pop(&l->timer);
		if (now - due > lc->ctr.timer_late_max)
			__atomic_store_n(&lc->ctr.timer_late_max, now - due, __ATOMIC_RELAXED);
		f->timer_ns = now;
		eng_fifo_push(&lc->ft, &l->timer, f, idx);
		eng_timer_ev(f, c, now, &ev);
		eng_ctr_add(&lc->ctr.timer_events, 1);
		eng_rp_dispatch(lc, lp, f, &ev, now);
		work++;
	}
	work += eng_flow_age(&lc->ft, lp->idx, now, HK_AGE_MAX, eng_rp_flow_evict, lc);
	return work;
}

uint64_t
eng_rp_hk_deadline(struct eng_lcore *lc, struct eng_lport *lp, uint64_t now)
{
	const struct eng_flist *l = &lc->ft.lists[lp->idx];
	const struct eng_rp_conf *c = &lc->e->rp;
	const struct eng_flow *f;
	uint64_t d = UINT64_MAX;

	/* the heads of the TX coalescing list and of the timer FIFO are due
	 * first; a stale timer entry goes at once */
	f = eng_txc_first(&lc->ft, l);
	if (f != NULL)
		d = RTE_MIN(d, f->txc_first_ns + c->txc_ns);
	if (c->timer_ns != 0 && !eng_fifo_empty(&l->timer)) {
		f = eng_fifo_head(&lc->ft, &l->timer);
		if (f == NULL)
			return now;
		d = RTE_MIN(d, f->timer_ns + c->timer_ns);
	}
	if (lc->ft.idle_ns != 0 && l->lru_head != ENG_NONE) {
		f = eng_flow_at(&lc->ft, l->lru_head);
		d = RTE_MIN(d, f->lru_ns + lc->ft.idle_ns);
	}
	return d;
}
