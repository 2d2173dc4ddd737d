/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The engine's lcores: which lcore polls which RX queue and transmits on
 * which TX queue, each lcore's flow table and pacers, the rings between
 * lcores, and freeing them (pcc_engine_create() and pcc_engine_destroy()
 * in engine.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "engine_internal.h"
#include "engine_np.h"

/* ---- Lcores -------------------------------------------------------------- */

static struct eng_lcore *
lcore_get(struct pcc_engine *e, unsigned int l)
{
	struct eng_lcore *lc = e->lcores[l];
	int socket = (int)rte_lcore_to_socket_id(l);
	unsigned int p;

	if (lc != NULL)
		return lc;
	lc = rte_zmalloc_socket("pcc_lcore", sizeof(*lc), RTE_CACHE_LINE_SIZE, socket);
	if (lc == NULL)
		return NULL;
	e->lcores[l] = lc;
	lc->e = e;
	lc->lcore_id = l;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		lc->lport_of[p] = ENG_NO_LPORT;
	lc->pctr = rte_zmalloc_socket("pcc_lcore_ctr", sizeof(*lc->pctr) * e->nb_ports,
			RTE_CACHE_LINE_SIZE, socket);
	if (lc->pctr == NULL)
		return NULL;
	return lc;
}

/* lc's lport for port index pidx, created if needed. */
static struct eng_lport *
lport_get(struct pcc_engine *e, struct eng_lcore *lc, uint16_t pidx)
{
	struct eng_port *p = &e->ports[pidx];
	struct eng_lport *lp;
	int txq;

	if (lc->lport_of[pidx] != ENG_NO_LPORT)
		return lc->lports[lc->lport_of[pidx]];
	txq = eng_txq_rank(&e->conf, p->port_id, lc->lcore_id);
	if (txq < 0)
		return NULL;
	lp = rte_zmalloc_socket("pcc_lport", sizeof(*lp), RTE_CACHE_LINE_SIZE,
			(int)rte_lcore_to_socket_id(lc->lcore_id));
	if (lp == NULL)
		return NULL;
	lp->port_id = p->port_id;
	lp->pidx = pidx;
	lp->tx_queue = (uint16_t)txq;
	lp->idx = lc->nb_lports;
	lp->roles = p->roles;
	lp->dev_port = p->dev_port;
	lp->clk = &p->clk;
	lp->mp = p->mp;
	lp->line_bps = p->line_bps;
	lc->lport_of[pidx] = (uint8_t)lc->nb_lports;
	lc->lports[lc->nb_lports++] = lp;
	return lp;
}

/* Lcore contexts, their RX queues and lports; owners of each port. */
int
eng_lcores_setup(struct pcc_engine *e)
{
	const struct pcc_engine_conf *c = &e->conf;
	unsigned int l;
	uint32_t i;
	uint16_t k;

	for (i = 0; i < c->nb_rxq_conf; i++) {
		const struct pcc_engine_rxq_conf *rq = &c->rxq[i];
		uint16_t pidx = (uint16_t)e->pidx[rq->port_id];
		struct eng_port *p = &e->ports[pidx];
		struct eng_lcore *lc = lcore_get(e, rq->lcore_id);
		struct eng_lport *lp;
		struct eng_rxq *q;

		if (lc == NULL)
			return -ENOMEM;
		if (lc->nb_rxq >= PCC_ENGINE_LCORE_RXQ_MAX) {
			ENG_LOG(ERR, "lcore %u polls more than %u RX queues", rq->lcore_id,
					PCC_ENGINE_LCORE_RXQ_MAX);
			return -EINVAL;
		}
		lp = lport_get(e, lc, pidx);
		if (lp == NULL)
			return -ENOMEM;
		q = &lc->rxq[lc->nb_rxq++];
		q->port_id = rq->port_id;
		q->queue_id = rq->queue_id;
		q->tx_queue = lp->tx_queue;
		q->pidx = pidx;
		q->roles = p->roles;
		q->icrc_sw = !p->icrc_hw;
		q->mp = p->mp;
		q->clk = &p->clk;
		q->lp = lp;
		if (lp->rxq == NULL)
			lp->rxq = q;
		ENG_LOG(INFO, "lcore %u polls port %u RX queue %u, transmits on TX queue %u",
				rq->lcore_id, q->port_id, q->queue_id, q->tx_queue);
	}
	/* ranks, owners */
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		struct eng_lcore *lc = e->lcores[l];

		if (lc == NULL)
			continue;
		lc->rank = e->nb_lcores;
		e->by_rank[e->nb_lcores++] = lc;
		for (i = 0; i < lc->nb_rxq; i++) {
			struct eng_port *p = &e->ports[lc->rxq[i].pidx];

			if (p->nb_owners == 0 || p->owners[p->nb_owners - 1] != lc)
				p->owners[p->nb_owners++] = lc;
		}
	}
	/* forward mode: the wire side's pollers transmit on the host side */
	if (e->fwd_a >= 0) {
		for (k = 0; k < e->nb_lcores; k++) {
			struct eng_lcore *lc = e->by_rank[k];

			if (lc->lport_of[e->fwd_b] != ENG_NO_LPORT &&
					lport_get(e, lc, (uint16_t)e->fwd_a) == NULL)
				return -ENOMEM;
		}
	}
	return 0;
}

/* Bytes allocated from the socket's heap (rte_malloc). */
static uint64_t
heap_bytes(int socket)
{
	struct rte_malloc_socket_stats st;

	if (socket < 0 || rte_malloc_get_socket_stats(socket, &st) != 0)
		return 0;
	return st.heap_allocsz_bytes;
}

/* Flow table, pacers of RP lports, forward-mode probe headers. */
int
eng_lcore_flows_setup(struct pcc_engine *e, struct eng_lcore *lc)
{
	const struct pcc_engine_conf *c = &e->conf;
	int socket = (int)rte_lcore_to_socket_id(lc->lcore_id);
	uint32_t cap = c->flow.capacity != 0 ? c->flow.capacity : PCC_ENGINE_FLOWS_DEFAULT;
	struct eng_ftable_conf fc;
	char name[RTE_HASH_NAMESIZE];
	uint64_t mask = 0, heap_used;
	uint16_t i;
	int ret;

	for (i = 0; i < lc->nb_lports; i++)
		if (lc->lports[i]->roles & PCC_ENGINE_ROLE_RP)
			mask |= UINT64_C(1) << i;
	memset(&fc, 0, sizeof(fc));
	snprintf(name, sizeof(name), "pcc_fl%u_%u", e->id, lc->lcore_id);
	fc.name = name;
	/* the capacity is shared by the lcores that own flows (poll an RP
	 * port); the others get the smallest table */
	fc.cap = mask != 0 ? RTE_MAX(cap / RTE_MAX(e->nb_flow_lcores, 1u),
					     (uint32_t)PCC_ENGINE_FLOWS_LCORE_MIN) :
			     PCC_ENGINE_FLOWS_LCORE_MIN;
	fc.ctx_size = e->ctx_size;
	fc.full = c->flow.full;
	fc.idle_ns = (uint64_t)c->flow.idle_ms * 1000000u;
	fc.nb_lists = lc->nb_lports;
	fc.list_mask = mask;
	fc.timer_fifo = e->rp.timer_ns != 0;
	fc.socket = socket;
	heap_used = heap_bytes(socket);
	ret = eng_ftable_init(&lc->ft, &fc);
	if (ret < 0)
		return ret;
	heap_used = heap_bytes(socket) - heap_used;
	ENG_LOG(INFO,
			"lcore %u: flow table of %u flows, %u bytes per entry (%u of algorithm "
			"context): %.1f MiB with the hash, QP index and event queues",
			lc->lcore_id, lc->ft.cap, lc->ft.stride, lc->ft.stride - ENG_FLOW_HDR,
			(double)heap_used / (1 << 20));
	for (i = 0; i < lc->nb_lports; i++) {
		struct eng_lport *lp = lc->lports[i];
		struct pcc_pacer_conf pc;

		if (!(lp->roles & PCC_ENGINE_ROLE_RP))
			continue;
		memset(&pc, 0, sizeof(pc));
		pc.backend = e->pacer;
		pc.port_id = lp->port_id;
		pc.queue_id = lp->tx_queue;
		pc.socket_id = socket;
		pc.max_flows = lc->ft.cap;
		pc.line_rate_bps = lp->line_bps;
		pc.max_queued = c->rp.pacer_queue;
		pc.horizon_ns = ENG_PACER_HORIZON_NS;
		if (c->rp.tx_stamp) {
			/* the departure the pacer computed, exactly: the engine's
			 * own estimate (pace_ns) only bounds the look-ahead */
			pc.depart_off = eng_depart_off;
			pc.depart_flag = eng_depart_flag;
		}
		lp->pacer = pcc_pacer_create(&pc);
		if (lp->pacer == NULL) {
			ENG_LOG(ERR, "lcore %u port %u: pacer %s: %s", lc->lcore_id, lp->port_id,
					e->pacer, rte_strerror(rte_errno));
			return -rte_errno;
		}
		ENG_LOG(INFO, "lcore %u port %u: pacer %s, %zu bytes per flow, %.1f MiB",
				lc->lcore_id, lp->port_id, pcc_pacer_backend(lp->pacer),
				pcc_pacer_mem_per_flow(lp->pacer),
				(double)pcc_pacer_mem_total(lp->pacer) / (1 << 20));
		if (e->fwd_b == (int16_t)lp->pidx) {
			lc->fwd_l3 = rte_zmalloc_socket("pcc_fwd_l3",
					sizeof(*lc->fwd_l3) * lc->ft.cap, RTE_CACHE_LINE_SIZE,
					socket);
			if (lc->fwd_l3 == NULL)
				return -ENOMEM;
		}
	}
	return 0;
}

/* Does producer a hand anything to consumer b (a shares a port b owns)? */
static bool
lcores_talk(const struct pcc_engine *e, const struct eng_lcore *a, const struct eng_lcore *b)
{
	uint32_t i;
	uint16_t o;

	for (i = 0; i < a->nb_rxq; i++) {
		uint16_t pidx = a->rxq[i].pidx;
		const struct eng_port *p;

		/* forward mode: host-side packets go to the wire side's owners */
		if (e->fwd_a == (int16_t)pidx)
			pidx = (uint16_t)e->fwd_b;
		p = &e->ports[pidx];
		if (!(p->roles & PCC_ENGINE_ROLE_RP))
			continue;
		for (o = 0; o < p->nb_owners; o++)
			if (p->owners[o] == b)
				return true;
	}
	return false;
}

/* Fastest port whose packets producer a hands over (ring sizes). */
static uint64_t
xring_bps(const struct pcc_engine *e, const struct eng_lcore *a)
{
	uint64_t bps = 0;
	uint32_t i;

	for (i = 0; i < a->nb_rxq; i++)
		bps = RTE_MAX(bps, e->ports[a->rxq[i].pidx].line_bps);
	return bps;
}

int
eng_rings_setup(struct pcc_engine *e)
{
	uint32_t size;
	uint16_t a, b;

	for (a = 0; a < e->nb_lcores; a++) {
		for (b = 0; b < e->nb_lcores; b++) {
			struct eng_lcore *pa = e->by_rank[a], *pb = e->by_rank[b];
			char name[RTE_RING_NAMESIZE];
			int socket = (int)rte_lcore_to_socket_id(pb->lcore_id);
			struct rte_ring *r;

			if (a == b || !lcores_talk(e, pa, pb))
				continue;
			size = eng_xring_size(xring_bps(e, pa), e->conf.burst);
			snprintf(name, sizeof(name), "pcc_ev%u_%u_%u", e->id, pa->lcore_id,
					pb->lcore_id);
			r = rte_ring_create_elem(name, sizeof(struct eng_ev), size, socket,
					RING_F_SP_ENQ | RING_F_SC_DEQ);
			if (r == NULL) {
				ENG_LOG(ERR, "ring %s: %s", name, rte_strerror(rte_errno));
				return -rte_errno;
			}
			pa->xout[b] = r;
			pa->xout_rank[pa->nb_xout++] = b;
			pb->xin[a] = r;
			pb->xin_rank[pb->nb_xin++] = a;
			if (e->fwd_a < 0)
				continue;
			snprintf(name, sizeof(name), "pcc_fw%u_%u_%u", e->id, pa->lcore_id,
					pb->lcore_id);
			r = rte_ring_create(name, size, socket, RING_F_SP_ENQ | RING_F_SC_DEQ);
			if (r == NULL) {
				ENG_LOG(ERR, "ring %s: %s", name, rte_strerror(rte_errno));
				return -rte_errno;
			}
			pa->fout[b] = r;
			pb->fin[a] = r;
		}
	}
	return 0;
}

/* A flow of a table going away ends for its algorithm (active flows). */
static void
flow_gone(struct eng_flow *f, uint32_t idx, void *arg)
{
	RTE_SET_USED(idx);
	RTE_SET_USED(arg);
	pcc_dev_flow_end(f->dev_port, f->slot, eng_flow_ctx(f));
}

void
eng_lcore_free(struct eng_lcore *lc)
{
	unsigned int k;
	uint16_t i;

	eng_flow_foreach(&lc->ft, flow_gone, NULL);

	for (i = 0; i < lc->nb_lports; i++) {
		struct eng_lport *lp = lc->lports[i];

		if (lp->txb_n > 0)
			rte_pktmbuf_free_bulk(lp->txb, lp->txb_n);
		if (lp->pacer != NULL) {
			struct pcc_pacer_stats ps;

			pcc_pacer_stats_get(lp->pacer, &ps);
			ENG_LOG(INFO,
					"lcore %u port %u: pacer %s: %" PRIu64 " enqueued, %" PRIu64
					" dequeued, %" PRIu64 " bypassed the wheel, %" PRIu64
					" dropped, %" PRIu64 " freed with their flow, worst"
					" lateness %.1f us",
					lc->lcore_id, lp->port_id, pcc_pacer_backend(lp->pacer),
					ps.enqueued, ps.dequeued, ps.bypassed, ps.dropped,
					ps.flushed, (double)ps.late_ns_max / 1e3);
		}
		pcc_pacer_free(lp->pacer);
		rte_free(lp);
	}
	for (k = 0; k < RTE_MAX_LCORE; k++) {
		struct rte_mbuf *m;

		/* each ring is freed once, by its consumer */
		rte_ring_free(lc->xin[k]);
		if (lc->fin[k] != NULL) {
			while (rte_ring_sc_dequeue(lc->fin[k], (void **)&m) == 0)
				rte_pktmbuf_free(m);
			rte_ring_free(lc->fin[k]);
		}
	}
	eng_ftable_fini(&lc->ft);
	rte_free(lc->fwd_l3);
	rte_free(lc->pctr);
	rte_free(lc);
}
