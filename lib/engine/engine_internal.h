/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef ENGINE_INTERNAL_H
#define ENGINE_INTERNAL_H

/*
 * Engine internals shared by engine.c (lifecycle), port.c (ethdev and
 * mempool setup), worker.c (poll loop and RX dispatch), gen.c (traffic
 * generator), np.c (CNP reflection) and stats.c (counter sums).
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "pcc_engine.h"
#include "pcc_proto.h"

extern int pcc_engine_logtype;

#define ENG_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pcc_engine_logtype, "pcc.engine: " fmt "\n", ##__VA_ARGS__)

/*
 * Counters are written by one lcore and read by any thread.  Relaxed
 * atomic loads and stores (plain moves on x86 and arm64) make that race
 * free without a locked instruction on the fast path.
 */
static inline void
eng_ctr_add(uint64_t *ctr, uint64_t n)
{
	__atomic_store_n(ctr, *ctr + n, __ATOMIC_RELAXED);
}

static inline uint64_t
eng_ctr_read(const uint64_t *ctr)
{
	return __atomic_load_n(ctr, __ATOMIC_RELAXED);
}

/* Per-lcore counters of one generator flow (all uint64_t, summed as such). */
struct eng_flow_ctr {
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t tx_ce;
	uint64_t cnp_rx;
	uint64_t ack_rx;
	uint64_t nak_rx;
	uint64_t probe_resp_rx;
};

/* A port with a role.  Read-only once the engine runs. */
struct eng_port {
	uint16_t port_id;
	uint8_t roles;
	int socket;
	uint16_t nb_rxq;
	uint16_t nb_txq;
	struct rte_mempool *mp;
	struct rte_ether_addr mac;
	uint32_t flow_base; /* index of its first generator flow */
	uint32_t nb_flows;  /* generator flows it sends (RP only) */
	bool configured;    /* to close */
	bool started;       /* to stop */
};

/* One generator flow; owned by the lcore that generates for its port. */
struct eng_gen_flow {
	uint64_t next_tsc; /* departure time of the next packet */
	uint64_t frac;     /* sub-cycle remainder, in 1/rate_bps */
	uint32_t ce_acc;   /* CE pattern accumulator, ppm */
	uint32_t psn;
	uint32_t qpn;
	struct pcc_l3_spec l3;
	struct pcc_roce_spec roce;
};

/* Generator of one RP port. */
struct eng_gen {
	uint32_t nb_flows;
	uint32_t flow_base; /* index of flows[0] in the engine's flows */
	uint32_t rr;        /* flow served first in the next round */
	uint32_t frame_len;
	uint32_t ce_ppm;
	uint64_t rate_bps;   /* 0 = unpaced */
	uint64_t gap_cycles; /* frame_len * 8 * hz / rate_bps, integer */
	uint64_t gap_frac;   /* ... and remainder (in 1/rate_bps) */
	uint64_t max_lag;    /* credit cap: burst * gap_cycles */
	struct eng_gen_flow flows[];
};

/* One RX queue an lcore polls, with what it needs to answer on it. */
struct eng_rxq {
	uint16_t port_id;
	uint16_t queue_id;
	uint16_t tx_queue; /* this lcore's TX queue on port_id */
	uint16_t pidx;     /* index in pcc_engine.ports[] */
	uint8_t roles;
	struct rte_mempool *mp;
	struct eng_gen *gen; /* non-NULL: generate on this port here */
};

/* A polling lcore. */
struct eng_lcore {
	/* written by the lcore on every round */
	uint64_t polls;
	uint64_t busy_polls;
	/* read-only while running */
	struct pcc_engine *e;
	unsigned int lcore_id;
	uint32_t nb_rxq;
	struct pcc_engine_port_stats *pctr; /* [e->nb_ports] */
	struct eng_flow_ctr *fctr;          /* [e->nb_flows], NULL if none */
	struct eng_rxq rxq[PCC_ENGINE_LCORE_RXQ_MAX];
} __rte_cache_aligned;

struct pcc_engine {
	uint32_t stop; /* set by pcc_engine_stop() */
	bool launched;
	struct pcc_engine_conf conf;
	struct pcc_engine_rxq_conf *rxq_conf;
	struct pcc_parse_opts popts;
	uint64_t tsc_hz;
	uint32_t gen_frame_len; /* 0 if the generator is off */
	uint16_t nb_ports;
	int16_t pidx[RTE_MAX_ETHPORTS]; /* port id -> ports[] or -1 */
	struct eng_port ports[RTE_MAX_ETHPORTS];
	struct rte_mempool *pools[RTE_MAX_NUMA_NODES];
	struct eng_lcore *lcores[RTE_MAX_LCORE];
	uint32_t nb_flows; /* generator flows, all ports */
};

/*
 * Transmit n packets (lens[] taken before: a sent mbuf may already be
 * freed or reused by its receiver), count them, free what the PMD refused.
 * Returns the number sent.
 */
static inline uint16_t
eng_tx(const struct eng_rxq *q, struct pcc_engine_port_stats *pc, struct rte_mbuf **pkts,
		const uint32_t *lens, uint16_t n)
{
	uint64_t bytes = 0;
	uint16_t sent, i;

	sent = rte_eth_tx_burst(q->port_id, q->tx_queue, pkts, n);
	for (i = 0; i < sent; i++)
		bytes += lens[i];
	eng_ctr_add(&pc->tx_pkts, sent);
	eng_ctr_add(&pc->tx_bytes, bytes);
	if (sent < n) {
		eng_ctr_add(&pc->tx_drop, n - sent);
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	}
	return sent;
}

/* port.c */
int eng_ports_setup(struct pcc_engine *e);
void eng_ports_close(struct pcc_engine *e);

/* worker.c */
int eng_worker_loop(struct eng_lcore *lc, pcc_engine_tick_t tick, void *arg, uint32_t tick_us);
int eng_worker_main(void *arg);

/* gen.c */
struct eng_gen *eng_gen_create(const struct pcc_engine *e, const struct eng_port *p, int socket);
void eng_gen_arm(struct eng_gen *g, uint64_t now);
uint16_t eng_gen_run(struct eng_lcore *lc, const struct eng_rxq *q, uint64_t now);

/* np.c */
struct rte_mbuf *eng_np_cnp(const struct pcc_engine *e, const struct eng_rxq *q,
		struct pcc_engine_port_stats *pc, struct rte_mbuf *m,
		const struct pcc_pkt_info *info);

/* Frame length of a generated packet (L2 through ICRC), or <0. */
int eng_gen_frame_len(const struct pcc_engine_gen_conf *gen);

#endif /* ENGINE_INTERNAL_H */
