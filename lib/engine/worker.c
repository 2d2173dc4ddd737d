/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* The poll loop of a worker lcore and the RX dispatch by packet kind. */

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "engine_internal.h"

/* Index in parse_err[] of a pcc_parse_mbuf() error; 0 for an unknown one. */
static inline unsigned int
parse_err_idx(int err)
{
	return (err < 0 && err > PCC_PROTO_ERR_MAX) ? (unsigned int)-err : 0;
}

/* RP: CNP, ACK, NAK and probe responses for a generator flow. */
static inline void
rp_account(const struct eng_lcore *lc, const struct eng_rxq *q, unsigned int kind, uint32_t dqpn)
{
	const struct pcc_engine *e = lc->e;
	const struct eng_port *p = &e->ports[q->pidx];
	uint32_t off = dqpn - e->conf.gen.qpn_base;
	struct eng_flow_ctr *f;

	if (lc->fctr == NULL || off >= p->nb_flows)
		return;
	f = &lc->fctr[p->flow_base + off];
	switch (kind) {
	case PCC_PKT_CNP:
		eng_ctr_add(&f->cnp_rx, 1);
		break;
	case PCC_PKT_ROCE_ACK:
		eng_ctr_add(&f->ack_rx, 1);
		break;
	case PCC_PKT_ROCE_NAK:
		eng_ctr_add(&f->nak_rx, 1);
		break;
	case PCC_PKT_PROBE_RESP:
		eng_ctr_add(&f->probe_resp_rx, 1);
		break;
	default:
		break;
	}
}

/*
 * Classify a burst.  Malformed packets are counted by reason and dropped;
 * on an NP port CE-marked RoCEv2 data becomes a CNP sent back on the same
 * port; on an RP port CNP/ACK/NAK/probe responses are counted per flow;
 * everything else is counted by kind and freed.
 */
static void
rx_dispatch(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts, uint16_t n)
{
	const struct pcc_engine *e = lc->e;
	struct pcc_engine_port_stats *pc = &lc->pctr[q->pidx];
	struct rte_mbuf *tx[PCC_ENGINE_BURST_MAX];
	struct rte_mbuf *done[PCC_ENGINE_BURST_MAX];
	uint32_t lens[PCC_ENGINE_BURST_MAX];
	uint16_t nb_tx = 0, nb_done = 0, i, sent;
	struct pcc_pkt_info info;
	uint64_t bytes = 0;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		unsigned int kind;
		int ret;

		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		bytes += m->pkt_len;
		ret = pcc_parse_mbuf(m, &e->popts, &info);
		if (ret < 0) {
			eng_ctr_add(&pc->parse_err[parse_err_idx(ret)], 1);
			done[nb_done++] = m;
			continue;
		}
		kind = info.kind < PCC_PKT_KIND_MAX ? info.kind : PCC_PKT_OTHER;
		eng_ctr_add(&pc->rx_kind[kind], 1);
		switch (kind) {
		case PCC_PKT_ROCE_DATA:
			if (!(q->roles & PCC_ENGINE_ROLE_NP) || info.ecn != PCC_ECN_CE)
				break;
			eng_ctr_add(&pc->ce_rx, 1);
			if (!e->conf.np.cnp)
				break;
			/* eng_np_cnp() consumes m */
			m = eng_np_cnp(e, q, pc, m, &info);
			if (m != NULL) {
				lens[nb_tx] = m->pkt_len;
				tx[nb_tx++] = m;
			}
			continue;
		case PCC_PKT_CNP:
		case PCC_PKT_ROCE_ACK:
		case PCC_PKT_ROCE_NAK:
		case PCC_PKT_PROBE_RESP:
			if (q->roles & PCC_ENGINE_ROLE_RP)
				rp_account(lc, q, kind, info.dqpn);
			break;
		default:
			break;
		}
		done[nb_done++] = m;
	}
	eng_ctr_add(&pc->rx_pkts, n);
	eng_ctr_add(&pc->rx_bytes, bytes);
	if (nb_done > 0)
		rte_pktmbuf_free_bulk(done, nb_done);
	if (nb_tx > 0) {
		sent = eng_tx(q, pc, tx, lens, nb_tx);
		eng_ctr_add(&pc->cnp_tx, sent);
	}
}

int
eng_worker_loop(struct eng_lcore *lc, pcc_engine_tick_t tick, void *arg, uint32_t tick_us)
{
	struct pcc_engine *e = lc->e;
	const uint16_t burst = e->conf.burst;
	const uint32_t idle_us = e->conf.idle_sleep_us;
	const uint64_t tick_cycles = e->tsc_hz * RTE_MAX(tick_us, 1u) / US_PER_S;
	struct rte_mbuf *pkts[PCC_ENGINE_BURST_MAX];
	uint64_t now, next_tick;
	uint32_t i;

	now = rte_rdtsc();
	for (i = 0; i < lc->nb_rxq; i++)
		if (lc->rxq[i].gen != NULL)
			eng_gen_arm(lc->rxq[i].gen, now);
	next_tick = now + tick_cycles;

	while (!__atomic_load_n(&e->stop, __ATOMIC_RELAXED)) {
		uint32_t work = 0;

		now = rte_rdtsc();
		for (i = 0; i < lc->nb_rxq; i++) {
			const struct eng_rxq *q = &lc->rxq[i];
			uint16_t n;

			n = rte_eth_rx_burst(q->port_id, q->queue_id, pkts, burst);
			if (n > 0) {
				rx_dispatch(lc, q, pkts, n);
				work += n;
			}
			if (q->gen != NULL)
				work += eng_gen_run(lc, q, now);
		}
		eng_ctr_add(&lc->polls, 1);
		if (work > 0)
			eng_ctr_add(&lc->busy_polls, 1);
		else if (idle_us > 0)
			rte_delay_us_sleep(idle_us);
		if (tick != NULL && now >= next_tick) {
			next_tick = now + tick_cycles;
			if (tick(arg) != 0)
				pcc_engine_stop(e);
		}
	}
	return 0;
}

int
eng_worker_main(void *arg)
{
	struct eng_lcore *lc = arg;

	ENG_LOG(DEBUG, "lcore %u: polling %u RX queues", lc->lcore_id, lc->nb_rxq);
	return eng_worker_loop(lc, NULL, NULL, 0);
}
