/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The NP runner's receive path (np.c has its settings and state): the
 * answers' mbufs and times, CNPs for CE-marked data, the fast path that
 * reflects CCMAD probe requests in place, and eng_np_rx(), which hands
 * every other packet of an NP port to its handler (probe requests:
 * np_answer.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "engine_internal.h"
#include "engine_tp.h"
#include "engine_np.h"
#include "np_internal.h"
#include "pcc_np.h"

/* ---- Burst helpers ------------------------------------------------------------ */

/* m reset for reuse, or a new mbuf (m freed); NULL if none. */
struct rte_mbuf *
np_reuse(struct np_burst *b, struct rte_mbuf *m)
{
	struct rte_mbuf *c;

	if (mbuf_reusable(m)) {
		rte_pktmbuf_reset(m);
		return m;
	}
	rte_pktmbuf_free(m);
	c = rte_pktmbuf_alloc(b->q->mp);
	if (c == NULL) {
		eng_ctr_add(&b->pc->nombuf, 1);
		eng_ctr_add(&b->ctr->tx_err, 1);
	}
	return c;
}

/* m as one writable segment with the same bytes (m itself, or a copy:
 * m is freed); NULL if no mbuf. */
struct rte_mbuf *
np_writable(struct np_burst *b, struct rte_mbuf *m)
{
	struct rte_mbuf *c;
	const void *src;
	void *d;

	if (mbuf_reusable(m))
		return m;
	c = rte_pktmbuf_alloc(b->q->mp);
	src = NULL;
	if (c != NULL && rte_pktmbuf_tailroom(c) >= m->pkt_len) {
		d = rte_pktmbuf_mtod(c, void *);
		src = rte_pktmbuf_read(m, 0, m->pkt_len, d);
		if (src != NULL && src != d)
			rte_memcpy(d, src, m->pkt_len);
	}
	if (src == NULL) {
		rte_pktmbuf_free(c);
		rte_pktmbuf_free(m);
		eng_ctr_add(&b->pc->nombuf, 1);
		eng_ctr_add(&b->ctr->tx_err, 1);
		return NULL;
	}
	c->data_len = (uint16_t)m->pkt_len;
	c->pkt_len = m->pkt_len;
	rte_pktmbuf_free(m);
	return c;
}

static uint64_t
realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* NP receive and send times of an answer to m (ts source applied). */
void
np_times(struct np_burst *b, const struct rte_mbuf *m, uint64_t *recv, uint64_t *send)
{
	uint64_t rx = eng_clock_rx(b->q->clk, m, b->now);
	uint64_t tx;

	if (!b->t_read) {
		b->t_send = eng_clock_now(b->q->clk);
		if (b->npp->conf.ts_src == PCC_ENGINE_NP_TS_REALTIME)
			b->rt_off = (int64_t)(realtime_ns() - b->t_send);
		b->t_read = true;
	}
	tx = RTE_MAX(b->t_send, rx);
	if (b->npp->conf.ts_src == PCC_ENGINE_NP_TS_REALTIME) {
		rx += (uint64_t)b->rt_off;
		tx += (uint64_t)b->rt_off;
	}
	*recv = rx;
	*send = tx;
}

/* ---- CNPs ------------------------------------------------------------------------ */

/* Is a CNP for (pidx, dqpn) at t within the gap?  Records t if not. */
static bool
np_gap_hit(struct np_burst *b, uint32_t dqpn, uint64_t t)
{
	struct np_lcore *nl = b->nl;
	uint32_t key = ((uint32_t)(b->q->pidx + 1) << 24) | (dqpn & PCC_QPN_MASK);
	struct np_gap_ent *g;

	if (b->npp->gap_ns == 0 || nl->gap == NULL)
		return false;
	g = &nl->gap[rte_hash_crc_4byte(key, 0) & nl->gap_mask];
	if (g->key == key) {
		if (t - g->last_ns < b->npp->gap_ns)
			return true;
	} else if (g->key != 0) {
		eng_ctr_add(&b->ctr->qp_replaced, 1);
	}
	g->key = key;
	g->last_ns = t;
	return false;
}

/* The sender's QPN for marked data: static map, learned, offset rule. */
static uint32_t
np_sender_qpn(struct np_burst *b, const struct pcc_pkt_info *info)
{
	struct np_learn_key k;
	int64_t v;

	v = np_map_get(b->npp, info->dqpn);
	if (v >= 0) {
		eng_ctr_add(&b->ctr->sqpn_map, 1);
		return (uint32_t)v;
	}
	if (b->npp->learn && b->np->learn_tbl != NULL) {
		/* the sender is the packet's source, talking to us */
		np_learn_key(&k, b->q->pidx, info, false);
		v = np_learn_get(b->np, &k);
		if (v >= 0) {
			eng_ctr_add(&b->ctr->sqpn_learned, 1);
			return (uint32_t)v;
		}
	}
	eng_ctr_add(&b->ctr->sqpn_offset, 1);
	return (info->dqpn + b->npp->conf.sqpn_offset) & PCC_QPN_MASK;
}

/* Headers of an answer to a packet: addresses swapped, VLAN kept, UDP
 * source port kept, not ECN-capable. */
void
np_reply_l3(const uint8_t *macs, const struct pcc_pkt_info *info, struct pcc_l3_spec *l3)
{
	memset(l3, 0, sizeof(*l3));
	memcpy(l3->dst_mac, macs + RTE_ETHER_ADDR_LEN, RTE_ETHER_ADDR_LEN);
	memcpy(l3->src_mac, macs, RTE_ETHER_ADDR_LEN);
	l3->vlan = (info->flags & PCC_PKT_F_VLAN) != 0;
	l3->vlan_tci = info->vlan_tci;
	l3->ipv6 = (info->flags & PCC_PKT_F_IPV6) != 0;
	if (l3->ipv6) {
		memcpy(l3->src.v6, info->dst.v6, sizeof(l3->src.v6));
		memcpy(l3->dst.v6, info->src.v6, sizeof(l3->dst.v6));
	} else {
		l3->src.v4 = info->dst.v4;
		l3->dst.v4 = info->src.v4;
	}
	l3->ecn = PCC_ECN_NOT_ECT;
	l3->udp_sport = info->udp_sport;
}

/*
 * CE-marked data m (parsed as info; for IFA2 the inner BTH's values): a
 * CNP, or NULL (suppressed, off, or no mbuf).  Consumes m.
 */
struct rte_mbuf *
np_ce(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	uint8_t macs[2 * RTE_ETHER_ADDR_LEN];
	const uint8_t *l2;
	struct pcc_l3_spec l3;
	struct rte_mbuf *c;
	uint32_t sqpn;
	int len;

	eng_ctr_add(&b->pc->ce_rx, 1);
	eng_ctr_add(&b->ctr->ce_rx, 1);
	if (!b->npp->conf.cnp) {
		eng_ctr_add(&b->ctr->cnp_off, 1);
		NP_FATE(b, NP_CNP_SUPPRESSED);
		rte_pktmbuf_free(m);
		return NULL;
	}
	if (np_gap_hit(b, info->dqpn, eng_clock_rx(b->q->clk, m, b->now))) {
		eng_ctr_add(&b->ctr->cnp_gap, 1);
		NP_FATE(b, NP_CNP_SUPPRESSED);
		rte_pktmbuf_free(m);
		return NULL;
	}
	l2 = rte_pktmbuf_read(m, 0, sizeof(macs), macs);
	if (l2 == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	np_reply_l3(l2, info, &l3);
	l3.dscp = b->npp->conf.cnp_dscp;
	if (l3.vlan)
		l3.vlan_tci = (uint16_t)((b->npp->cnp_pcp << 13) | (info->vlan_tci & 0x0FFF));
	sqpn = np_sender_qpn(b, info);
	c = np_reuse(b, m);
	if (c == NULL)
		return NULL;
	len = pcc_cnp_build(rte_pktmbuf_mtod(c, void *), rte_pktmbuf_tailroom(c), &l3, sqpn);
	if (len < 0) {
		eng_ctr_add(&b->pc->build_err, 1);
		eng_ctr_add(&b->ctr->tx_err, 1);
		rte_pktmbuf_free(c);
		return NULL;
	}
	c->data_len = (uint16_t)len;
	c->pkt_len = (uint32_t)len;
	eng_ctr_add(&b->pc->cnp_tx, 1);
	eng_ctr_add(&b->ctr->cnp_tx, 1);
	NP_FATE(b, NP_CNP);
	ENG_TP(eng_tp_np_cnp, b->q->port_id, sqpn, b->now);
	return c;
}

/*
 * The mark_ce_ppm test knob: is this data packet to be marked?  A
 * deterministic low-discrepancy rule on (PSN, DestQP): marked when
 * frac((PSN + DestQP * c) * golden ratio) < share, so every QP gets its
 * share, evenly spread over its consecutive PSNs, the same in every run.
 */
static inline bool
np_mark(const struct np_burst *b, const struct pcc_pkt_info *info)
{
	uint32_t ppm = b->npp->conf.mark_ce_ppm;
	uint32_t x;

	if (ppm == 0)
		return false;
	if (ppm >= 1000000)
		return true;
	x = (info->psn + info->dqpn * 0x85EBCA6Bu) * 0x9E3779B9u;
	return x < (uint32_t)(((uint64_t)ppm << 32) / 1000000);
}

static struct rte_mbuf *
np_data(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	bool ce = info->ecn == PCC_ECN_CE;

	if (b->npp->learn && np_learn_pkt(b->np, b->q->pidx, info))
		eng_ctr_add(&b->ctr->learned, 1);
	if (!ce && np_mark(b, info)) {
		ce = true;
		eng_ctr_add(&b->ctr->ce_marked, 1);
	}
	if (!ce) {
		NP_FATE(b, NP_DATA);
		rte_pktmbuf_free(m);
		return NULL;
	}
	/* a CNP answers what the ICRC vouches for (a corrupt PSN or DestQP
	 * would cut the rate of another QP) */
	if (unlikely(!eng_icrc_ok(b->q, m, info))) {
		NP_FATE(b, ICRC_DATA);
		rte_pktmbuf_free(m);
		return NULL;
	}
	return np_ce(b, m, info);
}

/* ---- The fast path for CCMAD requests ------------------------------------------- */

uint16_t
eng_np_fast_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts, uint16_t n,
		uint64_t now_ns, struct rte_mbuf **tx, uint16_t *ntx, uint64_t *bytes)
{
	const struct np_lcore *nl = lc->np;
	const struct pcc_engine_np_conf *c;
	struct pcc_engine_np_stats *ctr;
	struct pcc_probe_fast_ans a;
	struct np_burst b;
	uint64_t nbytes = 0;
	uint16_t i, left = 0, nf = 0;

	*bytes = 0;
	/* off, a handler to show every request to, or a classifier that
	 * checks what the fast path does not (ICRC, IPv4 checksum) */
	if (unlikely(nl == NULL) || nl->np->port[q->pidx].conf.probe_fast_off ||
			nl->np->port[q->pidx].conf.resp_ext || lc->e->popts.check_icrc ||
			lc->e->popts.check_ip_csum || pcc_np_port_handler_get(q->port_id) != NULL)
		return n;
	c = &nl->np->port[q->pidx].conf;
	/* what np_times() reads */
	memset(&b, 0, sizeof(b));
	b.np = nl->np;
	b.npp = &nl->np->port[q->pidx];
	b.q = q;
	b.now = now_ns;
	memset(&a, 0, sizeof(a));
	a.dscp = c->resp_dscp_set ? c->resp_dscp : -1;
	if (q->clk->src != PCC_ENGINE_CLOCK_HW_RX_TS) {
		/* one receive time (now) for the burst: one answer for all,
		 * in one pass over (a slice of) the burst; answered mbufs
		 * out in their order, the rest left in theirs */
		uint16_t nt = *ntx, c0, sn, j;
		uint64_t done, sb;

		np_times(&b, pkts[0], &a.np_recv_ts, &a.np_send_ts);
		a.resp_ts = pcc_probe_resp_ts(0, a.np_send_ts, c->resp_ts_size, c->resp_ts_res);
		for (c0 = 0; c0 < n; c0 = (uint16_t)(c0 + sn)) {
			sn = (uint16_t)RTE_MIN(n - c0, PCC_PROBE_FAST_BURST);
			done = pcc_probe_fast_reflect_mbufs(&pkts[c0], sn, &a, &sb);
			nbytes += sb;
			if (done == RTE_LEN2MASK(sn, uint64_t)) {
				memcpy(&tx[nt], &pkts[c0], sn * sizeof(pkts[0]));
				nt = (uint16_t)(nt + sn);
				continue;
			}
			for (j = 0; j < sn; j++) {
				struct rte_mbuf *m = pkts[c0 + j];

				if ((done >> j) & 1)
					tx[nt++] = m;
				else
					pkts[left++] = m;
			}
		}
		nf = (uint16_t)(nt - *ntx);
		*ntx = nt;
	} else {
		for (i = 0; i < n; i++) {
			struct rte_mbuf *m = pkts[i];
			uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
			int lay, len;

			if (i + 1 < n) {
				const uint8_t *nx = rte_pktmbuf_mtod(pkts[i + 1], const uint8_t *);

				/* headers, MAD and body; the ICRC after the MAD */
				rte_prefetch0(nx);
				rte_prefetch0(nx + RTE_CACHE_LINE_SIZE);
				rte_prefetch0(nx + 2 * RTE_CACHE_LINE_SIZE);
				rte_prefetch0(nx + pkts[i + 1]->data_len - 1);
			}
			if (!mbuf_reusable(m) || m->data_len != m->pkt_len ||
					(lay = pcc_probe_fast_match(f, m->data_len)) == 0) {
				pkts[left++] = m;
				continue;
			}
			np_times(&b, m, &a.np_recv_ts, &a.np_send_ts);
			a.resp_ts = pcc_probe_resp_ts(
					0, a.np_send_ts, c->resp_ts_size, c->resp_ts_res);
			nbytes += m->pkt_len;
			len = pcc_probe_fast_answer(f, lay, &a);
			np_inplace_reset(m, (uint16_t)len);
			tx[(*ntx)++] = m;
			nf++;
		}
	}
	if (nf > 0) {
		ctr = &nl->ctr[q->pidx];
		eng_ctr_add(&lc->pctr[q->pidx].rx_kind[PCC_PKT_PROBE_REQ], nf);
		eng_ctr_add(&ctr->probe_req, nf);
		eng_ctr_add(&ctr->no_handler, nf);
		eng_ctr_add(&ctr->probe_sw, nf);
		eng_ctr_add(&ctr->probe_ccmad, nf);
		*bytes = nbytes;
	}
	return left;
}

/* ---- The runner ------------------------------------------------------------------ */

uint16_t
eng_np_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts,
		const struct pcc_pkt_info *infos, uint16_t n, uint64_t now_ns, struct rte_mbuf **tx,
		uint16_t tx_max)
{
	struct np_lcore *nl = lc->np;
	struct np_burst b;
	uint16_t i, ntx = 0;

	if (unlikely(nl == NULL)) {
		eng_fate(&lc->pctr[q->pidx], PCC_ENGINE_FATE_NOT_MINE, n);
		rte_pktmbuf_free_bulk(pkts, n);
		return 0;
	}
	b.e = lc->e;
	b.np = nl->np;
	b.npp = &nl->np->port[q->pidx];
	b.nl = nl;
	b.q = q;
	b.pc = &lc->pctr[q->pidx];
	b.ctr = &nl->ctr[q->pidx];
	b.now = now_ns;
	b.t_send = 0;
	b.rt_off = 0;
	b.t_read = false;
	b.handler = pcc_np_port_handler_get(q->port_id) != NULL;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *out;
		const struct pcc_pkt_info *info = &infos[i];

		b.fate = PCC_ENGINE_FATE_NP_TX_ERR;
		switch (info->kind) {
		case PCC_PKT_ROCE_DATA:
			out = np_data(&b, m, info);
			break;
		case PCC_PKT_PROBE_REQ:
			out = np_probe_ccmad(&b, m, info);
			break;
		case PCC_PKT_IFA1:
		case PCC_PKT_IFA2:
			out = np_probe_ifa(&b, m, info);
			break;
		case PCC_PKT_ROCE_ACK:
		case PCC_PKT_ROCE_NAK:
			/* learn only from what the ICRC vouches for */
			if (unlikely(!eng_icrc_ok(q, m, info))) {
				b.fate = info->kind == PCC_PKT_ROCE_ACK ? PCC_ENGINE_FATE_ICRC_ACK :
									  PCC_ENGINE_FATE_ICRC_NAK;
			} else {
				NP_FATE(&b, NP_LEARN);
				if (b.npp->learn && np_learn_pkt(b.np, q->pidx, info))
					eng_ctr_add(&b.ctr->learned, 1);
			}
			rte_pktmbuf_free(m);
			out = NULL;
			break;
		default:
			NP_FATE(&b, NOT_MINE);
			rte_pktmbuf_free(m);
			out = NULL;
			break;
		}
		if (out != NULL && unlikely(ntx == tx_max)) {
			rte_pktmbuf_free(out);
			eng_ctr_add(&b.ctr->tx_err, 1);
			NP_FATE(&b, NP_TX_ERR);
			out = NULL;
		}
		eng_fate(b.pc, b.fate, 1);
		if (out != NULL)
			tx[ntx++] = out;
	}
	return ntx;
}
