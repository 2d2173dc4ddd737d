/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Forward mode: a bump in the wire between a host-facing port A and a wire
 * port B (conf.fwd).
 *
 *   A -> B  every packet is classified into a flow of port B: RoCEv2 by
 *           (B, DestQP), other IP traffic by its 5-tuple (L4 ports of UDP
 *           and TCP, 0 for other protocols).  The flow's owner (an lcore
 *           polling B) queues it into the flow's pacer, which the
 *           algorithm programs like a generator flow's.  A packet received
 *           by another lcore is handed to the owner through an mbuf ring
 *           of the (receiver, owner) pair and classified again there.
 *           Non-IP packets, and packets of a flow the table refused, are
 *           sent unpaced (through the pacer's pass-through, in order).
 *   B -> A  CNPs, ACKs/NAKs and probe responses are consumed by the RP
 *           runner (they name the flow by DestQP: this assumes the same
 *           QPN on both ends, like the generator); everything else goes
 *           back to A unchanged, on the receiving lcore's TX queue of A.
 */

#include <string.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "engine_internal.h"

#define FWD_RING_BURST 32

/* Flow key of a packet towards port B; false for a packet without one. */
static bool
fwd_key(uint16_t port_b, const struct rte_mbuf *m, const struct pcc_pkt_info *info,
		struct pcc_engine_flow_key *k)
{
	uint16_t ports[2];
	const uint16_t *p;

	if (info->bth_off != 0) {
		eng_flow_key_qp(k, port_b, info->dqpn);
		return true;
	}
	if (info->l3_off == 0)
		return false;
	memset(k, 0, sizeof(*k));
	k->port_id = port_b;
	k->proto = info->ip_proto;
	if (info->flags & PCC_PKT_F_IPV6) {
		k->type = PCC_ENGINE_FLOW_IPV6;
		memcpy(k->src, info->src.v6, 16);
		memcpy(k->dst, info->dst.v6, 16);
	} else {
		uint32_t s = rte_cpu_to_be_32(info->src.v4), d = rte_cpu_to_be_32(info->dst.v4);

		k->type = PCC_ENGINE_FLOW_IPV4;
		memcpy(k->src, &s, 4);
		memcpy(k->dst, &d, 4);
	}
	if ((info->ip_proto == IPPROTO_UDP || info->ip_proto == IPPROTO_TCP) && info->l4_off != 0) {
		p = rte_pktmbuf_read(m, info->l4_off, sizeof(ports), ports);
		if (p != NULL) {
			k->sport = rte_be_to_cpu_16(p[0]);
			k->dport = rte_be_to_cpu_16(p[1]);
		}
	}
	return true;
}

/* Headers of a forwarded QP flow's packets, for its probes. */
static void
fwd_l3(const struct rte_mbuf *m, const struct pcc_pkt_info *info, struct pcc_l3_spec *l3)
{
	uint8_t macs[2 * RTE_ETHER_ADDR_LEN];
	const uint8_t *l2;

	memset(l3, 0, sizeof(*l3));
	l2 = rte_pktmbuf_read(m, 0, sizeof(macs), macs);
	if (l2 != NULL) {
		memcpy(l3->dst_mac, l2, RTE_ETHER_ADDR_LEN);
		memcpy(l3->src_mac, l2 + RTE_ETHER_ADDR_LEN, RTE_ETHER_ADDR_LEN);
	}
	l3->vlan = (info->flags & PCC_PKT_F_VLAN) != 0;
	l3->vlan_tci = info->vlan_tci;
	l3->ipv6 = (info->flags & PCC_PKT_F_IPV6) != 0;
	if (l3->ipv6) {
		memcpy(l3->src.v6, info->src.v6, sizeof(l3->src.v6));
		memcpy(l3->dst.v6, info->dst.v6, sizeof(l3->dst.v6));
	} else {
		l3->src.v4 = info->src.v4;
		l3->dst.v4 = info->dst.v4;
	}
	l3->dscp = info->dscp;
	l3->ecn = PCC_ECN_ECT0;
	l3->udp_sport = info->udp_sport;
}

/* Send m unpaced through the pacer's pass-through (keeps the order). */
static void
fwd_unpaced(struct eng_lcore *lc, struct eng_lport *lp, struct rte_mbuf *m, uint64_t now)
{
	struct pcc_engine_port_stats *pc = &lc->pctr[lp->pidx];
	struct eng_mtag *t = eng_mtag(m);

	t->fidx = ENG_NONE;
	t->seq = 0;
	t->psn = 0;
	t->flags = ENG_MTAG_FWD;
	eng_ctr_add(&pc->fwd_unpaced, 1);
	if (pcc_pacer_enqueue(lp->pacer, PCC_PACER_NO_FLOW, &m, 1, now) != 1) {
		eng_ctr_add(&pc->pacer_drop, 1);
		rte_pktmbuf_free(m);
	}
}

/* Owner: pace m (a packet for port B, classified as info). */
static void
fwd_local(struct eng_lcore *lc, struct eng_lport *lp, struct rte_mbuf *m,
		const struct pcc_pkt_info *info, const struct pcc_engine_flow_key *k, uint32_t sig,
		uint64_t now)
{
	const struct pcc_l3_spec *l3 = NULL;
	struct eng_mtag *t;
	struct eng_flow *f;

	f = eng_rp_flow_get(lc, lp, k, sig, NULL, NULL, now);
	if (f == NULL) {
		fwd_unpaced(lc, lp, m, now);
		return;
	}
	if (f->l3 == NULL && k->type == PCC_ENGINE_FLOW_QP && lc->fwd_l3 != NULL) {
		struct pcc_l3_spec *s = &lc->fwd_l3[eng_flow_idx(&lc->ft, f)];

		fwd_l3(m, info, s);
		l3 = s;
		eng_flow_set_l3(f, l3);
	}
	t = eng_mtag(m);
	t->psn = info->bth_off != 0 ? info->psn : 0;
	t->flags = ENG_MTAG_FWD | (info->ackreq ? ENG_MTAG_ACKREQ : 0);
	eng_rp_pace(lc, lp, f, &m, 1, now);
}

void
eng_fwd_host_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts,
		const struct pcc_pkt_info *infos, uint16_t n)
{
	const struct pcc_engine *e = lc->e;
	const struct eng_port *pa = &e->ports[q->pidx];
	uint16_t pidx_b = pa->fwd_peer;
	uint16_t port_b = e->ports[pidx_b].port_id;
	struct eng_lport *lpb = lc->lport_of[pidx_b] != ENG_NO_LPORT ?
			lc->lports[lc->lport_of[pidx_b]] :
			NULL;
	struct pcc_engine_port_stats *pc = &lc->pctr[q->pidx];
	uint16_t i;

	eng_ctr_add(&pc->fwd_rx, n);
	for (i = 0; i < n; i++) {
		struct pcc_engine_flow_key k;
		struct eng_lcore *owner;
		uint32_t sig;

		if (!fwd_key(port_b, pkts[i], &infos[i], &k)) {
			eng_flow_key_qp(&k, port_b, 0);
			sig = eng_flow_hash_qp(port_b, 0);
			owner = eng_owner_qp(e, pidx_b, 0);
			if (owner == lc && lpb != NULL) {
				fwd_unpaced(lc, lpb, pkts[i], lpb->now);
				continue;
			}
		} else {
			sig = eng_flow_hash(&k);
			owner = eng_owner_key(e, pidx_b, &k, sig);
			if (owner == lc && lpb != NULL) {
				fwd_local(lc, lpb, pkts[i], &infos[i], &k, sig, lpb->now);
				continue;
			}
		}
		if (rte_ring_sp_enqueue(lc->fout[owner->rank], pkts[i]) != 0) {
			eng_ctr_add(&pc->xring_drop, 1);
			rte_pktmbuf_free(pkts[i]);
		}
	}
}

void
eng_fwd_wire_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts, uint16_t n)
{
	const struct pcc_engine *e = lc->e;
	uint16_t pidx_a = e->ports[q->pidx].fwd_peer;
	struct eng_lport *lpa;

	if (lc->lport_of[pidx_a] == ENG_NO_LPORT) {
		/* cannot happen: every lcore polling B has a TX queue on A */
		eng_ctr_add(&lc->pctr[q->pidx].tx_drop, n);
		rte_pktmbuf_free_bulk(pkts, n);
		return;
	}
	lpa = lc->lports[lc->lport_of[pidx_a]];
	eng_ctr_add(&lc->pctr[q->pidx].fwd_back, n);
	eng_tx_pkts(lpa->port_id, lpa->tx_queue, &lc->pctr[pidx_a], pkts, n);
}

uint32_t
eng_fwd_ring_poll(struct eng_lcore *lc)
{
	const struct pcc_engine *e = lc->e;
	struct rte_mbuf *pkts[FWD_RING_BURST];
	struct eng_lport *lp;
	uint32_t total = 0;
	uint16_t i;

	if (e->fwd_b < 0 || lc->lport_of[e->fwd_b] == ENG_NO_LPORT)
		return 0;
	lp = lc->lports[lc->lport_of[e->fwd_b]];
	for (i = 0; i < e->nb_lcores; i++) {
		struct rte_ring *r = lc->fin[i];
		unsigned int n, k;

		if (r == NULL)
			continue;
		n = rte_ring_sc_dequeue_burst(r, (void **)pkts, FWD_RING_BURST, NULL);
		for (k = 0; k < n; k++) {
			struct pcc_engine_flow_key key;
			struct pcc_pkt_info info;

			if (pcc_parse_mbuf(pkts[k], &e->popts, &info) < 0 ||
					!fwd_key(lp->port_id, pkts[k], &info, &key)) {
				fwd_unpaced(lc, lp, pkts[k], lp->now);
				continue;
			}
			fwd_local(lc, lp, pkts[k], &info, &key, eng_flow_hash(&key), lp->now);
		}
		total += n;
	}
	return total;
}
