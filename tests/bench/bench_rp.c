/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * bench_rp: RP event processing, events per second of one lcore, with
 * DCQCN against the no-op algorithm in the same run.
 *
 * Each phase builds a dpdk-pcc engine (pcc_engine_create + the worker loop
 * dpdk-pcc's lcores run) with one RP port, side A of a cross-connected
 * ring pair (pcc_ring_pair, net_ring), and --algo ALGO.  Its generator has
 * --flows flows of one packet each (a 64-byte RDMA WRITE message): every
 * flow sends that packet at start, then stays in the flow table (no
 * aging) with nothing more to send, so no TX event follows.  The lcore's
 * poll hook then plays the NP on side B: after every poll round it sends
 * a burst of CNPs (pcc_cnp_build(), one per flow, round robin, so that no
 * two in a burst are coalesced into one event) and drops what the RP
 * sends.  Each CNP is one event: RX, classification, flow lookup,
 * pcc_dev_dispatch() to the flow's algorithm, its result applied (a
 * changed rate reprograms the pacer: column rate-upd.  With DCQCN at
 * 1 Ki flows every event changes the rate; at 64 Ki a flow's CNPs come
 * milliseconds apart, alpha decays to 0 in between, the cuts take
 * nothing and rate-upd stays 0: the reprogramming is not in that
 * figure).
 *
 * The CNPs are built once, before the engine starts: one mbuf per flow
 * (--copies N: N per flow, the pool's order going round the flows N
 * times; at 1 Ki flows and 64 copies the pool is as large, and as cold,
 * as at 64 Ki flows while the flow table stays small: what the prepared
 * pool costs, apart from the flows), each holding its flow's whole
 * frame, in a pool with no per-lcore cache
 * whose backing ring (ring_sp_sc) is a FIFO.  The hook takes the next
 * --burst mbufs from that pool (so flows come round robin), prefetches
 * what the engine will read of them (two mbuf lines and every line of
 * the frame: a NIC writing into the cache, DDIO, leaves them there; at
 * 64 Ki flows the 24 MB of prepared CNPs are otherwise cold; the frame's
 * address is the mbuf's plus an offset the same for every prepared
 * mbuf, so no prefetch waits for a cold mbuf line) and sends them, as they
 * are, on side B one round later; the engine frees each CNP back to the
 * pool's tail once it has handled it.  So the generator writes no packet
 * byte and allocates nothing: per burst one ring dequeue and one ring
 * enqueue of pointers, the only work in the loop that is not the
 * engine's.  A "harness" phase first runs the same loop with, instead of
 * the engine, rte_eth_rx_burst() on side A and rte_pktmbuf_free_bulk():
 * the floor of moving the prepared CNPs through the ring pair.  After
 * each phase every prepared frame is compared with what was built (the
 * engine must not have changed a CNP).
 *
 * --rx-ring N recycles N mbufs instead, as a NIC's RX ring does whatever
 * the number of flows: the hook writes the next flow's CNP (its whole
 * frame, from a table read in flow order) into each mbuf it takes, so
 * the mbufs stay warm and the copy is the generator's work, in the
 * harness's figure too.  After each phase every mbuf's frame is compared
 * with the CNP of the flow it last carried.
 *
 * events/s = CNP events dispatched (port counter Ev-CNP) over --time
 * seconds after --warmup, per second the lcore's thread was on a CPU
 * (CLOCK_THREAD_CPUTIME_ID; the ratios use it) and per second of
 * wall-clock time.  "x noop" is the algorithm's time per event over
 * noop's.  With --icrc-compare every algorithm runs twice, with the CNPs'
 * ICRC verified (sw, the default) and taken as verified by the port (hw):
 * "x hw" is the first's time per event over the second's.  The peer
 * figure (bench_algos noop, the algorithm dispatched without an engine)
 * is run beside it by devtools/bench-rp.sh.
 *
 * Not a test: run it with devtools/bench-rp.sh.
 *
 *   bench_rp [EAL options] -- [--time S] [--warmup S] [--flows N]
 *            [--copies N | --rx-ring N] [--burst N] [--algo NAME]...
 *            [--icrc-compare]
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>
#include <rte_prefetch.h>

#include <pcc_dev.h>
#include <pcc_engine.h>
#include <pcc_proto.h>

#include "bench_common.h"
#include "pcc_algos.h"

#define MAX_BURST 64
#define RING_SIZE 4096
#define GEN_MBUFS 16383
#define CNP_LEN_MAX 128
#define MAX_ALGOS 8
#define QPN_BASE 0x100

struct opts {
	double time_s;
	double warmup_s;
	uint32_t flows;
	uint32_t copies;
	uint32_t rx_ring; /* 0: prepared CNPs; else mbufs recycled, frames written */
	unsigned int burst;
	const char *algos[MAX_ALGOS];
	unsigned int n_algos;
	bool icrc_compare; /* each algorithm also with icrc_hw (no verification) */
};

struct result {
	double mev;     /* M events per second of wall-clock time */
	double mev_cpu; /* ... per second on a CPU */
	uint64_t events;
	uint64_t other_ev; /* events of other types in the window */
	uint64_t rate_upd;
	uint64_t no_flow;
	uint32_t flows;
};

struct loop {
	struct pcc_engine *e;
	uint16_t pa, pb;
	struct rte_mempool *mp;
	bool harness; /* no engine: side A received and freed by the hook */
	bool done;    /* the window is closed */
	uint32_t drain;
	/* the next burst, taken from the pool one round early and prefetched,
	 * as a NIC writing into the cache (DDIO) would leave it */
	struct rte_mbuf *next[MAX_BURST];
	uint16_t n_next;
	uint64_t harness_ev;
	uint64_t t_meas, t_end;
	bool measuring;
	uint64_t t0, cpu0;
	struct pcc_engine_port_stats st0;
	struct result *r;
};

static struct opts o = {
	.time_s = 2.0,
	.warmup_s = 0.5,
	.flows = 1024,
	.copies = 1,
	.burst = 32,
};

/* The CNPs: cnp_frame[f * CNP_LEN_MAX] is flow f's frame (cnp_len bytes).
 * The nb_cnp mbufs cnp_mbuf[] are in cnp_mp, a pool without cache on a
 * FIFO ring.  Prepared (--rx-ring 0): mbuf i holds flow i % flows's frame
 * for good.  Recycled (--rx-ring N): the hook writes the next flow's
 * frame into each mbuf it takes and the flow's index into the mbuf's
 * dynamic field at cnp_dyn.  Either way every mbuf's frame is checked
 * against its flow's after each phase. */
static struct rte_mempool *cnp_mp;
static struct rte_mbuf **cnp_mbuf;
static uint32_t nb_cnp;
static uint8_t *cnp_frame;
static uint16_t cnp_len;
static int cnp_dyn = -1;
static uint32_t cnp_next; /* recycled: the flow whose frame the hook writes next */
/* where every prepared mbuf's frame starts, from the mbuf's address: the
 * hook finds a frame without loading its (cold) mbuf line */
static size_t cnp_off;

static int
build_cnps(void)
{
	uint8_t f[CNP_LEN_MAX];
	struct pcc_l3_spec l3;
	uint32_t i;
	int len = 0;

	static const struct rte_mbuf_dynfield dyn = {
		.name = "bench_rp_cnp_flow",
		.size = sizeof(uint32_t),
		.align = __alignof__(uint32_t),
	};

	nb_cnp = o.rx_ring != 0 ? o.rx_ring : o.flows * o.copies;
	cnp_mbuf = calloc(nb_cnp, sizeof(*cnp_mbuf));
	cnp_frame = calloc(o.flows, CNP_LEN_MAX);
	/* FIFO: no per-lcore cache, single-producer single-consumer ring */
	cnp_mp = rte_pktmbuf_pool_create_by_ops("brp_cnp", nb_cnp, 0, 0,
			RTE_PKTMBUF_HEADROOM + CNP_LEN_MAX, (int)rte_socket_id(), "ring_sp_sc");
	cnp_dyn = rte_mbuf_dynfield_register(&dyn);
	if (cnp_mbuf == NULL || cnp_frame == NULL || cnp_mp == NULL || cnp_dyn < 0) {
		fprintf(stderr, "bench_rp: CNP pool: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	memset(&l3, 0, sizeof(l3));
	memcpy(l3.dst_mac, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(l3.src_mac, "\x02\x00\x00\x00\x00\x02", 6);
	l3.src.v4 = RTE_IPV4(10, 0, 0, 2);
	l3.dst.v4 = RTE_IPV4(10, 0, 0, 1);
	l3.dscp = 48;
	for (i = 0; i < o.flows; i++) {
		l3.udp_sport = pcc_roce_udp_sport(QPN_BASE + i, QPN_BASE + i);
		len = pcc_cnp_build(f, CNP_LEN_MAX, &l3, QPN_BASE + i);
		if (len < 0) {
			fprintf(stderr, "bench_rp: CNP: %s\n", pcc_proto_strerror(len));
			return -1;
		}
		memcpy(cnp_frame + (size_t)i * CNP_LEN_MAX, f, (size_t)len);
	}
	cnp_len = (uint16_t)len;
	for (i = 0; i < nb_cnp; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(cnp_mp);
		uint32_t fl = i % o.flows;

		if (m == NULL) {
			fprintf(stderr, "bench_rp: CNP: out of mbufs\n");
			return -1;
		}
		if (i == 0)
			cnp_off = (size_t)RTE_PTR_DIFF(rte_pktmbuf_mtod(m, uint8_t *), m);
		if (RTE_PTR_ADD(m, cnp_off) != rte_pktmbuf_mtod(m, void *)) {
			fprintf(stderr, "bench_rp: CNP mbuf %u: frame not at offset %zu\n", i,
					cnp_off);
			return -1;
		}
		memcpy(rte_pktmbuf_mtod(m, uint8_t *), cnp_frame + (size_t)fl * CNP_LEN_MAX,
				cnp_len);
		*RTE_MBUF_DYNFIELD(m, cnp_dyn, uint32_t *) = fl;
		m->data_len = cnp_len;
		m->pkt_len = cnp_len;
		cnp_mbuf[i] = m;
	}
	cnp_next = nb_cnp % o.flows;
	/* back into the FIFO in flow order: raw puts keep data and lengths */
	for (i = 0; i < nb_cnp; i++)
		rte_mempool_put(cnp_mp, cnp_mbuf[i]);
	return 0;
}

/* every prepared CNP back in the pool, as built; -1 (printed) if not */
static int
check_cnps(const char *what)
{
	unsigned int avail = rte_mempool_avail_count(cnp_mp);
	uint32_t i;

	if (avail != nb_cnp) {
		fprintf(stderr, "bench_rp: %s: %u of %u CNP mbufs back in the pool\n", what, avail,
				nb_cnp);
		return -1;
	}
	for (i = 0; i < nb_cnp; i++) {
		const struct rte_mbuf *m = cnp_mbuf[i];
		uint32_t fl = *RTE_MBUF_DYNFIELD(m, cnp_dyn, const uint32_t *);

		if (fl >= o.flows || (o.rx_ring == 0 && fl != i % o.flows) ||
				m->data_len != cnp_len ||
				RTE_PTR_ADD(m, cnp_off) != rte_pktmbuf_mtod(m, const void *) ||
				memcmp(rte_pktmbuf_mtod(m, const uint8_t *),
						cnp_frame + (size_t)fl * CNP_LEN_MAX,
						cnp_len) != 0) {
			fprintf(stderr, "bench_rp: %s: CNP mbuf %u (flow %u) was changed\n", what,
					i, fl);
			return -1;
		}
	}
	return 0;
}

static void
window_end(struct loop *l, uint64_t now)
{
	struct pcc_engine_port_stats st;
	struct result *r = l->r;
	double wall = (double)(now - l->t0) / (double)rte_get_tsc_hz();
	double cpu = (double)(bench_clock_ns(CLOCK_THREAD_CPUTIME_ID) - l->cpu0) / 1e9;
	unsigned int k;

	if (l->harness) {
		r->events = l->harness_ev;
		r->mev = (double)r->events / wall / 1e6;
		r->mev_cpu = (double)r->events / cpu / 1e6;
		return;
	}
	pcc_engine_port_stats_get(l->e, l->pa, &st);
	r->events = st.ev[PCC_DEV_EVENT_CNP] - l->st0.ev[PCC_DEV_EVENT_CNP];
	for (k = 0; k < PCC_ENGINE_NB_EV; k++)
		if (k != PCC_DEV_EVENT_CNP)
			r->other_ev += st.ev[k] - l->st0.ev[k];
	r->rate_upd = st.rate_updates - l->st0.rate_updates;
	r->no_flow = st.rp_no_flow - l->st0.rp_no_flow;
	r->mev = (double)r->events / wall / 1e6;
	r->mev_cpu = (double)r->events / cpu / 1e6;
}

/* After every poll round: drop what the RP sent, send the next burst of
 * prepared CNPs (none if all are in flight). */
static int
np_hook(void *arg, uint64_t idle_until_ns)
{
	struct loop *l = arg;
	struct rte_mbuf *pkts[MAX_BURST];
	uint64_t now = rte_rdtsc();
	uint16_t n, sent, i;

	RTE_SET_USED(idle_until_ns);
	if (!l->measuring && now >= l->t_meas) {
		l->measuring = true;
		if (!l->harness)
			pcc_engine_port_stats_get(l->e, l->pa, &l->st0);
		l->harness_ev = 0;
		l->t0 = rte_rdtsc();
		l->cpu0 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	}
	n = rte_eth_rx_burst(l->pb, 0, pkts, MAX_BURST);
	if (n > 0)
		rte_pktmbuf_free_bulk(pkts, n);
	if (now >= l->t_end) {
		/* window closed: stop sending, wait for the CNPs in flight */
		if (!l->done) {
			window_end(l, now);
			l->done = true;
			if (l->n_next > 0)
				rte_mempool_put_bulk(cnp_mp, (void **)l->next, l->n_next);
			l->n_next = 0;
		}
		return rte_mempool_avail_count(cnp_mp) == nb_cnp || ++l->drain > 1000000;
	}
	if (l->n_next > 0) {
		n = l->n_next;
		sent = rte_eth_tx_burst(l->pb, 0, l->next, n);
		if (sent < n) {
			/* the RX ring is full: keep the rest for the next round */
			memmove(l->next, l->next + sent, (size_t)(n - sent) * sizeof(l->next[0]));
			l->n_next = (uint16_t)(n - sent);
			return 0;
		}
		l->n_next = 0;
	}
	n = (uint16_t)o.burst;
	if (rte_mempool_get_bulk(cnp_mp, (void **)l->next, n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		uint8_t *d = RTE_PTR_ADD(l->next[i], cnp_off);
		uint16_t off;

		/* recycled: this round's frame written in, as a NIC writes
		 * into the mbuf its RX ring gives it (the frames are read in
		 * flow order, which the CPU's prefetcher follows) */
		if (o.rx_ring != 0) {
			memcpy(d, cnp_frame + (size_t)cnp_next * CNP_LEN_MAX, cnp_len);
			*RTE_MBUF_DYNFIELD(l->next[i], cnp_dyn, uint32_t *) = cnp_next;
			if (++cnp_next == o.flows)
				cnp_next = 0;
		}
		/* what the engine reads: the mbuf's two lines and every
		 * line of the frame (a CNP crosses into a second one: the
		 * ICRC's bytes), as a NIC writing into the cache leaves them;
		 * the frame found from cnp_off, not from the mbuf's fields,
		 * so that no prefetch waits for the mbuf's line */
		rte_prefetch0(l->next[i]);
		rte_prefetch0(RTE_PTR_ADD(l->next[i], RTE_CACHE_LINE_SIZE));
		for (off = 0; off < cnp_len; off += RTE_CACHE_LINE_SIZE)
			rte_prefetch0(d + off);
		rte_prefetch0(d + cnp_len - 1);
	}
	l->n_next = n;
	return 0;
}

/* The harness alone: side A received and freed, then the hook. */
static void
harness_loop(struct loop *l)
{
	struct rte_mbuf *pkts[MAX_BURST];
	uint16_t n;

	do {
		n = rte_eth_rx_burst(l->pa, 0, pkts, (uint16_t)o.burst);
		if (n > 0) {
			rte_pktmbuf_free_bulk(pkts, n);
			l->harness_ev += n;
		}
	} while (np_hook(l, 0) == 0);
}

static unsigned int pair_seq;

static int
run_phase(const char *algo, bool icrc_hw, struct rte_mempool *mp, struct result *r)
{
	const uint64_t hz = rte_get_tsc_hz();
	static struct pcc_engine_conf conf;
	struct pcc_engine_gen_group grp;
	struct pcc_engine_rxq_conf rxq;
	struct pcc_ring_pair *rp;
	struct loop l;
	char name[32];
	int rc = -1;

	memset(r, 0, sizeof(*r));
	memset(&l, 0, sizeof(l));
	snprintf(name, sizeof(name), "brp%u", pair_seq++);
	rp = pcc_ring_pair_create(name, 1, 1, RING_SIZE, (int)rte_socket_id());
	if (rp == NULL) {
		fprintf(stderr, "bench_rp: ring pair: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	l.pa = pcc_ring_pair_port(rp, 0);
	l.pb = pcc_ring_pair_port(rp, 1);
	l.mp = mp;
	l.r = r;
	if (bench_port_setup("bench_rp", l.pb, mp, RING_SIZE) != 0)
		goto out;
	if (algo == NULL) {
		/* the harness alone: no engine on side A */
		l.harness = true;
		if (bench_port_setup("bench_rp", l.pa, mp, RING_SIZE) != 0)
			goto out;
		l.t_meas = rte_rdtsc() + (uint64_t)(o.warmup_s * (double)hz);
		l.t_end = l.t_meas + (uint64_t)(o.time_s * (double)hz);
		harness_loop(&l);
		rte_eth_dev_stop(l.pa);
		rc = 0;
		goto out;
	}

	pcc_engine_conf_default(&conf);
	conf.port[l.pa].roles = PCC_ENGINE_ROLE_RP;
	/* icrc_hw: the CNPs' ICRC is taken as verified by the hardware (an
	 * engine without the setting, or a peer tree older than the macro
	 * built without it defined, always verifies it: parse_args()
	 * refuses --icrc-compare there) */
#ifdef PCC_ENGINE_PORT_ICRC_HW
	conf.port[l.pa].icrc_hw = icrc_hw;
#else
	RTE_SET_USED(icrc_hw);
#endif
	rxq.port_id = l.pa;
	rxq.queue_id = 0;
	rxq.lcore_id = rte_get_main_lcore();
	conf.rxq = &rxq;
	conf.nb_rxq_conf = 1;
	conf.nb_rxd = RING_SIZE;
	conf.nb_txd = RING_SIZE;
	conf.burst = (uint16_t)o.burst;
	conf.flow.capacity = RTE_MAX(2 * o.flows, 1024u);
	conf.flow.idle_ms = 0;
	memset(&grp, 0, sizeof(grp));
	grp.port_id = l.pa;
	grp.count = o.flows;
	grp.qpn_base = QPN_BASE;
	grp.payload_len = 64;
	grp.size = 64; /* one packet: the flow exists, then sends nothing */
	conf.gen.groups = &grp;
	conf.gen.nb_groups = 1;
	conf.gen.payload_len = 64;
	conf.rp.algo = algo;
	l.e = pcc_engine_create(&conf);
	if (l.e == NULL) {
		fprintf(stderr, "bench_rp: engine (%s): %s\n", algo, rte_strerror(rte_errno));
		goto out;
	}
	if (pcc_engine_set_poll_hook(l.e, np_hook, &l) != 0 || pcc_engine_start(l.e) != 0)
		goto out;
	l.t_meas = rte_rdtsc() + (uint64_t)(o.warmup_s * (double)hz);
	l.t_end = l.t_meas + (uint64_t)(o.time_s * (double)hz);
	pcc_engine_main_loop(l.e, NULL, NULL, 1000);
	pcc_engine_stop(l.e);
	pcc_engine_wait(l.e);
	r->flows = pcc_engine_flow_count(l.e);
	rc = r->events > 0 ? 0 : -1;
	if (rc != 0)
		fprintf(stderr, "bench_rp: %s: no CNP event dispatched\n", algo);
out:
	pcc_engine_destroy(l.e);
	rte_eth_dev_stop(l.pb);
	pcc_ring_pair_free(rp);
	if (check_cnps(algo != NULL ? algo : "harness") != 0)
		rc = -1;
	return rc;
}

static void
usage(FILE *out)
{
	fprintf(out,
			"usage: bench_rp [EAL options] -- [--time S] [--warmup S] [--flows N]\n"
			"                [--copies N | --rx-ring N] [--burst N] [--algo NAME]...\n"
			"                [--icrc-compare]\n");
}

/* --algo, repeatable */
static bool
add_algo(const char *prog, const char *name)
{
	if (o.n_algos == MAX_ALGOS) {
		fprintf(stderr, "%s: more than %d --algo\n", prog, MAX_ALGOS);
		return false;
	}
	o.algos[o.n_algos++] = name;
	return true;
}

static int
parse_args(int argc, char **argv)
{
	const struct bench_opt opts[] = {
		{ "time", BENCH_OPT_NUM, &o.time_s, 0.001, 3600, NULL },
		{ "warmup", BENCH_OPT_NUM, &o.warmup_s, 0, 3600, NULL },
		{ "flows", BENCH_OPT_U32, &o.flows, 64, 1u << 20, NULL },
		{ "copies", BENCH_OPT_U32, &o.copies, 1, 1024, NULL },
		{ "rx-ring", BENCH_OPT_U32, &o.rx_ring, 0, 1u << 20, NULL },
		{ "burst", BENCH_OPT_U32, &o.burst, 1, MAX_BURST, NULL },
		{ "algo", BENCH_OPT_FN, NULL, 0, 0, add_algo },
		{ "icrc-compare", BENCH_OPT_FLAG, &o.icrc_compare, 0, 0, NULL },
	};

	if (bench_opts_parse("bench_rp", argc, argv, opts, RTE_DIM(opts), usage) != 0)
		return -1;
	if (o.rx_ring != 0 && o.copies != 1) {
		fprintf(stderr,
				"bench_rp: --copies with --rx-ring: the ring's mbufs take "
				"every flow's CNP in turn\n");
		return -1;
	}
	if (o.rx_ring != 0 && o.rx_ring < 2 * MAX_BURST) {
		fprintf(stderr, "bench_rp: --rx-ring %u: fewer than %u mbufs\n", o.rx_ring,
				2 * MAX_BURST);
		return -1;
	}
	if ((uint64_t)o.flows * o.copies > (1u << 20)) {
		fprintf(stderr, "bench_rp: --flows %u --copies %u: more than %u prepared CNPs\n",
				o.flows, o.copies, 1u << 20);
		return -1;
	}
#ifndef PCC_ENGINE_PORT_ICRC_HW
	if (o.icrc_compare) {
		fprintf(stderr,
				"bench_rp: --icrc-compare: built without PCC_ENGINE_PORT_ICRC_HW "
				"(an engine without conf.port[].icrc_hw)\n");
		return -1;
	}
#endif
	if (o.n_algos == 0) {
		o.algos[o.n_algos++] = "noop";
		o.algos[o.n_algos++] = "dcqcn";
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct result res[MAX_ALGOS][2];
	struct rte_mempool *mp;
	double base = 0;
	unsigned int k;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "bench_rp: EAL init failed\n");
		return 1;
	}
	if (pcc_algos_register_builtin() < 0)
		return 1;
	argc -= ret;
	argv += ret;
	if (parse_args(argc, argv) != 0) {
		usage(stderr);
		return 2;
	}
	if (build_cnps() != 0)
		return 1;
	mp = rte_pktmbuf_pool_create("brp_gen", GEN_MBUFS, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
			(int)rte_socket_id());
	if (mp == NULL) {
		fprintf(stderr, "bench_rp: mbuf pool: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	rte_log_set_level_pattern("pcc.*", RTE_LOG_WARNING);
	printf("# CNP events to %u flows (one per CNP, round robin), burst %u, %.1f s after "
	       "%.1f s",
			o.flows, o.burst, o.time_s, o.warmup_s);
	if (o.copies > 1)
		printf(", %u prepared CNPs per flow", o.copies);
	if (o.rx_ring != 0)
		printf(", an RX ring of %u recycled mbufs, each CNP written in", o.rx_ring);
	printf("\n");
	printf("%-8s %-4s %9s %9s %8s %7s %7s %11s %9s %8s %6s\n", "algo", "icrc", "Mev/s",
			"Mev/s-cpu", "ns/ev", "x noop", "x hw", "events", "rate-upd", "no-flow",
			"flows");
	{
		struct result h;

		/* the floor: the prepared CNPs through the ring pair, freed */
		if (run_phase(NULL, false, mp, &h) != 0)
			return 1;
		printf("%-8s %-4s %9.2f %9.2f %8.1f %7s %7s %11" PRIu64 "\n", "harness", "-", h.mev,
				h.mev_cpu, 1000.0 / h.mev_cpu, "-", "-", h.events);
	}
	for (k = 0; k < o.n_algos; k++) {
		unsigned int v;

		/* sw: the engine verifies every CNP's ICRC (the default); hw:
		 * the port's hardware is taken to have done it.  Same run,
		 * alternating: "x hw" is sw's time per event over hw's */
		for (v = 0; v < (o.icrc_compare ? 2u : 1u); v++) {
			struct result *r = &res[k][v];

			if (run_phase(o.algos[k], v == 1, mp, r) != 0)
				return 1;
			if (k == 0 && v == 0)
				base = r->mev_cpu;
			printf("%-8s %-4s %9.2f %9.2f %8.1f %7.2f ", o.algos[k],
					v == 0 ? "sw" : "hw", r->mev, r->mev_cpu,
					1000.0 / r->mev_cpu, base / r->mev_cpu);
			if (v == 1)
				printf("%7.3f ", res[k][1].mev_cpu / res[k][0].mev_cpu);
			else
				printf("%7s ", "-");
			printf("%11" PRIu64 " %9" PRIu64 " %8" PRIu64 " %6u\n", r->events,
					r->rate_upd, r->no_flow, r->flows);
			if (r->other_ev != 0)
				printf("# %s: %" PRIu64 " events of other types in the window\n",
						o.algos[k], r->other_ev);
			fflush(stdout);
		}
	}
	rte_mempool_free(mp);
	rte_mempool_free(cnp_mp);
	free(cnp_mbuf);
	free(cnp_frame);
	test_eal_cleanup();
	return 0;
}
