/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Traffic generator of an RP port: RC RDMA WRITE_ONLY packets per flow,
 * paced by the TSC.  A flow's departure times advance by exactly
 * frame_bits * tsc_hz / rate_bps cycles (integer part plus a remainder
 * carried in units of 1/rate_bps, so there is no drift); a flow that fell
 * behind may catch up by at most one burst.  ECN CE is put on ce_ppm of
 * every million packets, evenly spread (an accumulator, not a random
 * draw), so runs are reproducible.
 */

#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "engine_internal.h"

#define PPM 1000000u

static void
flow_init(const struct pcc_engine_gen_conf *gc, const uint8_t *dst_mac, const uint8_t *src_mac,
		struct eng_gen_flow *f, uint32_t qpn)
{
	struct pcc_l3_spec *l3 = &f->l3;
	struct pcc_roce_spec *r = &f->roce;

	memset(f, 0, sizeof(*f));
	f->qpn = qpn;
	memcpy(l3->dst_mac, dst_mac, sizeof(l3->dst_mac));
	memcpy(l3->src_mac, src_mac, sizeof(l3->src_mac));
	l3->ipv6 = gc->ipv6;
	if (gc->ipv6) {
		memcpy(l3->src.v6, gc->src_ip.v6, sizeof(l3->src.v6));
		memcpy(l3->dst.v6, gc->dst_ip.v6, sizeof(l3->dst.v6));
		l3->flow_label = qpn & 0xFFFFF;
	} else {
		l3->src.v4 = gc->src_ip.v4;
		l3->dst.v4 = gc->dst_ip.v4;
	}
	l3->dscp = gc->dscp;
	l3->ecn = PCC_ECN_ECT0;
	l3->udp_sport = pcc_roce_udp_sport(qpn, qpn);

	r->bth.opcode = PCC_OP_RC_RDMA_WRITE_ONLY;
	r->bth.ackreq = 1;
	r->bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r->bth.dqpn = qpn;
	r->reth.va = 0;
	r->reth.rkey = qpn;
	r->reth.dma_len = gc->payload_len;
	r->payload = NULL;
	r->payload_len = gc->payload_len;
}

int
eng_gen_frame_len(const struct pcc_engine_gen_conf *gen)
{
	static const uint8_t mac[RTE_ETHER_ADDR_LEN];
	uint32_t cap = PCC_ENGINE_GEN_PAYLOAD_MAX + 256;
	struct eng_gen_flow f;
	void *buf;
	int len;

	/* build one packet: the builder is the authority on its length */
	flow_init(gen, mac, mac, &f, gen->qpn_base);
	buf = rte_malloc("pcc_gen_probe", cap, 0);
	if (buf == NULL)
		return PCC_PROTO_ERR_NO_SPACE;
	len = pcc_roce_build(buf, cap, &f.l3, &f.roce);
	rte_free(buf);
	return len;
}

struct eng_gen *
eng_gen_create(const struct pcc_engine *e, const struct eng_port *p, int socket)
{
	const struct pcc_engine_gen_conf *gc = &e->conf.gen;
	const struct pcc_engine_port_conf *pcf = &e->conf.port[p->port_id];
	static const uint8_t bcast[RTE_ETHER_ADDR_LEN] = {
		0xff,
		0xff,
		0xff,
		0xff,
		0xff,
		0xff,
	};
	const uint8_t *dst_mac = bcast;
	struct eng_gen *g;
	uint64_t num;
	uint32_t i;

	g = rte_zmalloc_socket("pcc_gen", sizeof(*g) + sizeof(g->flows[0]) * p->nb_flows,
			RTE_CACHE_LINE_SIZE, socket);
	if (g == NULL)
		return NULL;
	g->nb_flows = p->nb_flows;
	g->flow_base = p->flow_base;
	g->frame_len = e->gen_frame_len;
	g->ce_ppm = gc->ce_ppm;
	g->rate_bps = (uint64_t)gc->rate_mbps * 1000000u;
	if (g->rate_bps != 0) {
		num = (uint64_t)g->frame_len * 8 * e->tsc_hz;
		g->gap_cycles = num / g->rate_bps;
		g->gap_frac = num % g->rate_bps;
		g->max_lag = g->gap_cycles * e->conf.burst;
	}
	if (gc->dst_mac_valid)
		dst_mac = gc->dst_mac;
	else if (pcf->peer_mac_valid)
		dst_mac = pcf->peer_mac;
	for (i = 0; i < g->nb_flows; i++)
		flow_init(gc, dst_mac, p->mac.addr_bytes, &g->flows[i], gc->qpn_base + i);
	return g;
}

void
eng_gen_arm(struct eng_gen *g, uint64_t now)
{
	uint32_t i;

	/* stagger the flows over one gap so they do not depart together */
	for (i = 0; i < g->nb_flows; i++) {
		g->flows[i].next_tsc = now + g->gap_cycles * i / g->nb_flows;
		g->flows[i].frac = 0;
	}
}

/* Advance a flow's departure time by one frame. */
static inline void
flow_advance(const struct eng_gen *g, struct eng_gen_flow *f)
{
	f->next_tsc += g->gap_cycles;
	f->frac += g->gap_frac;
	if (f->frac >= g->rate_bps) {
		f->frac -= g->rate_bps;
		f->next_tsc++;
	}
}

static inline bool
flow_due(const struct eng_gen *g, struct eng_gen_flow *f, uint64_t now)
{
	if (g->rate_bps == 0)
		return true;
	if ((int64_t)(now - f->next_tsc) > (int64_t)g->max_lag)
		f->next_tsc = now - g->max_lag;
	return (int64_t)(now - f->next_tsc) >= 0;
}

/* Build the next packet of f; NULL if out of mbufs or the build failed. */
static inline struct rte_mbuf *
flow_build(const struct eng_gen *g, struct eng_gen_flow *f, struct rte_mempool *mp,
		struct pcc_engine_port_stats *pc, bool *ce)
{
	struct rte_mbuf *m;
	int len;

	m = rte_pktmbuf_alloc(mp);
	if (m == NULL) {
		eng_ctr_add(&pc->nombuf, 1);
		return NULL;
	}
	f->ce_acc += g->ce_ppm;
	*ce = f->ce_acc >= PPM;
	if (*ce)
		f->ce_acc -= PPM;
	f->l3.ecn = *ce ? PCC_ECN_CE : PCC_ECN_ECT0;
	f->roce.bth.psn = f->psn;
	len = pcc_roce_build(
			rte_pktmbuf_mtod(m, void *), rte_pktmbuf_tailroom(m), &f->l3, &f->roce);
	if (len < 0) {
		eng_ctr_add(&pc->build_err, 1);
		rte_pktmbuf_free(m);
		return NULL;
	}
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	f->psn = (f->psn + 1) & PCC_PSN_MASK;
	return m;
}

uint16_t
eng_gen_run(struct eng_lcore *lc, const struct eng_rxq *q, uint64_t now)
{
	struct eng_gen *g = q->gen;
	struct pcc_engine_port_stats *pc = &lc->pctr[q->pidx];
	const uint16_t burst = lc->e->conf.burst;
	struct rte_mbuf *pkts[PCC_ENGINE_BURST_MAX];
	uint32_t lens[PCC_ENGINE_BURST_MAX];
	uint32_t fid[PCC_ENGINE_BURST_MAX];
	bool ce[PCC_ENGINE_BURST_MAX];
	uint16_t n = 0, sent, j;
	uint64_t bytes = 0, nb_ce = 0;
	uint32_t k, i = g->rr;

	/*
	 * Paced: every due packet of every flow, up to one burst, starting
	 * with a different flow each round.  Unpaced: one packet per flow in
	 * turn until the burst is full.
	 */
	for (k = 0; n < burst; k++) {
		struct eng_gen_flow *f = &g->flows[i];
		struct rte_mbuf *m;

		if (g->rate_bps != 0 && k == g->nb_flows)
			break;
		while (n < burst && flow_due(g, f, now)) {
			m = flow_build(g, f, q->mp, pc, &ce[n]);
			if (m == NULL)
				goto send;
			flow_advance(g, f);
			lens[n] = m->pkt_len;
			fid[n] = i;
			pkts[n++] = m;
			if (g->rate_bps == 0)
				break;
		}
		if (++i == g->nb_flows)
			i = 0;
	}
send:
	g->rr = g->rr + 1 == g->nb_flows ? 0 : g->rr + 1;
	if (n == 0)
		return 0;
	sent = eng_tx(q, pc, pkts, lens, n);
	for (j = 0; j < sent; j++) {
		struct eng_flow_ctr *fc = &lc->fctr[g->flow_base + fid[j]];

		eng_ctr_add(&fc->tx_pkts, 1);
		eng_ctr_add(&fc->tx_bytes, lens[j]);
		if (ce[j]) {
			eng_ctr_add(&fc->tx_ce, 1);
			nb_ce++;
		}
		bytes += lens[j];
	}
	eng_ctr_add(&pc->gen_pkts, sent);
	eng_ctr_add(&pc->gen_bytes, bytes);
	eng_ctr_add(&pc->gen_ce, nb_ce);
	return n;
}
