/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * bench_np: NP probe reflection, packets per second of one lcore, against
 * a testpmd-style macswap forwarder on the same ring pair in the same run.
 *
 * Topology (both phases): a cross-connected ring pair (pcc_ring_pair, the
 * net_ring PMD, as `dpdk-pcc --ring-pair`), everything on one lcore (the
 * main one, -l CPU), so that the figure does not depend on two busy
 * threads sharing the machine.  The generator, on side B, injects
 * --inflight CCMAD probe requests (pcc_probe_req_build(), as the RP builds
 * them), then, after every round of the forwarder on side A: receives
 * what came back, turns each packet into its request again (the bytes an
 * answer may change copied back from the request: its first bytes and
 * its ICRC, see tmpl_find_head()) and sends it back.  So --inflight
 * packets circulate, like testpmd's --tx-first bursts.
 *
 *  - np: side A is an NP port of a dpdk-pcc engine (pcc_engine_create +
 *    pcc_engine_main_loop: the worker loop dpdk-pcc's lcores run, i.e.
 *    rte_eth_rx_burst, pcc_parse_mbuf, the NP runner, rte_eth_tx_burst);
 *    the generator runs as the engine's poll hook.
 *  - macswap: side A is forwarded by testpmd's macswap engine as DPDK
 *    22.11's dpdk-testpmd runs it on x86 (app/test-pmd/macswap.c with
 *    macswap_sse.h, restated in macswap_step()).
 *
 * The figure is packets/s through the loop (answers back at the generator
 * over --time seconds after --warmup), per second the thread was on a CPU
 * (CLOCK_THREAD_CPUTIME_ID; the ratios use it) and per second of
 * wall-clock time.  Both loops run the same generator on the same ring
 * pair, so the difference of their on-CPU ns per packet ("extra") is what
 * the NP costs over testpmd's own macswap code: devtools/bench-np.sh adds
 * it to dpdk-testpmd's on-CPU ns per packet measured in the same run to
 * calibrate the NP against testpmd (no generator time is estimated or
 * subtracted).  The generator checks the first 64 answers and one in 4096
 * after (ICRC, kind, echoed fields, NP receive <= NP send) and fails the
 * run on a bad one.  "fwd-busy" is the share of the forwarder's polls
 * that found packets.  --runs N alternates the two loops N times.
 *
 * Not a test: run it with devtools/bench-np.sh, which also runs
 * dpdk-testpmd --forward-mode=macswap --tx-first on a net_ring pair.
 *
 *   bench_np [EAL options] -- [--time S] [--warmup S] [--inflight N]
 *            [--burst N] [--ipv6] [--vlan] [--peer np|macswap|both]
 *            [--runs N]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_prefetch.h>
#include <rte_vect.h>

#include <pcc_engine.h>
#include <pcc_proto.h>

#include "bench_common.h"
#include "pcc_algos.h"

#define MAX_BURST 64
#define RING_SIZE 2048
#define GEN_MBUFS 8191
#define CHECK_FIRST 64
#define CHECK_EVERY 4096
#define FRAME_MAX 1024

struct opts {
	double time_s;
	double warmup_s;
	unsigned int inflight;
	unsigned int burst;
	bool ipv6;
	bool vlan;
	bool run_np;
	bool run_macswap;
	unsigned int runs;
};

struct result {
	double mpps;     /* per second of wall-clock time */
	double mpps_cpu; /* per second the lcore's thread was on a CPU */
	double fwd_busy;
	uint64_t pkts;
	uint64_t checked;
	uint64_t bad;
	char bad_why[160];
};

static struct opts o = {
	.time_s = 2.0,
	.warmup_s = 0.5,
	.inflight = 64,
	.burst = 32,
	.run_np = true,
	.run_macswap = true,
	.runs = 1,
};

static uint8_t tmpl[FRAME_MAX];
static uint32_t tmpl_len;
static uint32_t tmpl_head; /* the bytes before it an answer may change */
static struct pcc_probe tmpl_probe;

/* ---- Request template ------------------------------------------------ */

/*
 * tmpl_head: the bytes an answer changes, before its ICRC, all lie in the
 * first tmpl_head (found by answering the template with the generic path,
 * every field it fills non-zero and DSCP changed).  The generator turns
 * an answer back into its request by copying them and the ICRC, and
 * checks, when it checks an answer, that the frame is then the template.
 */
static int
tmpl_find_head(void)
{
	static uint8_t ans[FRAME_MAX];
	struct pcc_parse_opts po;
	struct pcc_pkt_info info;
	struct pcc_probe p = tmpl_probe;
	uint32_t i;
	int rc;

	memcpy(ans, tmpl, tmpl_len);
	pcc_parse_opts_default(&po);
	rc = pcc_parse(ans, tmpl_len, &po, &info);
	if (rc == 0) {
		p.np_recv_ts = UINT64_MAX - 1;
		p.np_send_ts = UINT64_MAX;
		memset(p.user, 0xff, sizeof(p.user));
		p.resp_ts = UINT32_MAX;
		rc = pcc_probe_resp_inplace(ans, sizeof(ans), &info, 63, &p);
	}
	if (rc < 0) {
		fprintf(stderr, "bench_np: cannot answer the request: %s\n",
				pcc_proto_strerror(rc));
		return -1;
	}
	tmpl_head = 0;
	for (i = 0; i < tmpl_len - PCC_ICRC_LEN; i++)
		if (ans[i] != tmpl[i])
			tmpl_head = i + 1;
	return 0;
}

static int
build_template(void)
{
	struct pcc_l3_spec l3;
	uint8_t *b = tmpl;
	int len;

	memset(&l3, 0, sizeof(l3));
	memcpy(l3.dst_mac, "\x02\x00\x00\x00\x00\x02", 6);
	memcpy(l3.src_mac, "\x02\x00\x00\x00\x00\x01", 6);
	l3.vlan = o.vlan;
	l3.vlan_tci = 0x6005;
	l3.ipv6 = o.ipv6;
	if (o.ipv6) {
		memcpy(l3.src.v6, "\xfd\x00\0\0\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
		memcpy(l3.dst.v6, "\xfd\x00\0\0\0\0\0\0\0\0\0\0\0\0\0\x02", 16);
	} else {
		l3.src.v4 = 0x0a000001;
		l3.dst.v4 = 0x0a000002;
	}
	l3.dscp = 26;
	l3.ecn = PCC_ECN_ECT0;
	l3.udp_sport = pcc_roce_udp_sport(0x100, 0x100);

	memset(&tmpl_probe, 0, sizeof(tmpl_probe));
	tmpl_probe.tid = 0x1234;
	tmpl_probe.flow_tag = 0x100;
	tmpl_probe.slot = 0;
	tmpl_probe.req_send_ts = 1000000;

	len = pcc_probe_req_build(b, sizeof(tmpl), &l3, 0x100, &tmpl_probe, NULL);
	if (len < 0) {
		fprintf(stderr, "bench_np: cannot build the request: %s\n",
				pcc_proto_strerror(len));
		return -1;
	}
	tmpl_len = (uint32_t)len;
	return tmpl_find_head();
}

/* ---- Checks of an answer ----------------------------------------------- */

static int
check_answer(const struct rte_mbuf *m, struct result *r)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	struct pcc_parse_opts po;
	struct pcc_pkt_info info;
	struct pcc_probe p;
	int rc;

	r->checked++;
	pcc_parse_opts_default(&po);
	po.check_icrc = true;
	rc = pcc_parse(f, rte_pktmbuf_data_len(m), &po, &info);
	if (rc != 0) {
		snprintf(r->bad_why, sizeof(r->bad_why), "answer does not parse: %s",
				pcc_proto_strerror(rc));
		return -1;
	}
	if (info.kind != PCC_PKT_PROBE_RESP) {
		snprintf(r->bad_why, sizeof(r->bad_why), "answer of kind %s",
				pcc_pkt_kind_name(info.kind));
		return -1;
	}
	rc = pcc_probe_parse(f, &info, &p, NULL);
	if (rc != 0) {
		snprintf(r->bad_why, sizeof(r->bad_why), "probe response does not decode: %s",
				pcc_proto_strerror(rc));
		return -1;
	}
	if (p.flow_tag != tmpl_probe.flow_tag || p.tid != tmpl_probe.tid ||
			p.req_send_ts != tmpl_probe.req_send_ts || p.np_recv_ts > p.np_send_ts ||
			!(p.flags & PCC_PROBE_F_RESPONSE)) {
		snprintf(r->bad_why, sizeof(r->bad_why),
				"bad response fields: tag %#x tid %#" PRIx64 " req %" PRIu64
				" np recv %" PRIu64 " send %" PRIu64 " flags %#x",
				p.flow_tag, p.tid, p.req_send_ts, p.np_recv_ts, p.np_send_ts,
				p.flags);
		return -1;
	}
	return 0;
}

/* ---- Ports ------------------------------------------------------------------- */

/* ---- The two halves of a loop round ------------------------------------ */

struct loop {
	uint16_t pa, pb; /* forwarder side, generator side */
	bool check;      /* the answers are probe responses: check them */
	uint64_t t_end;  /* TSC: stop */
	uint64_t t_meas; /* TSC: start counting */
	bool measuring;
	uint64_t t0, cpu0;      /* start of the count: TSC, thread CPU ns */
	uint64_t seen, counted; /* answers back at the generator */
	uint64_t fwd_polls, fwd_busy;
	int err;
	struct result *r;
};

/*
 * The peer: testpmd's macswap forwarding engine (DPDK 22.11,
 * app/test-pmd/macswap.c, pkt_burst_mac_swap(), with macswap_sse.h's
 * do_macswap(), which an x86 build uses), in the same loop as the NP.
 * Per stream: one rx burst; for each frame the 6-byte destination and
 * source addresses exchanged by a single 16-byte byte shuffle (bytes 12-15
 * rewritten unchanged), four frames at a time (the four loads, then the
 * four shuffles, then the four stores), the data of the next four
 * prefetched while at least eight remain, then one at a time with the next
 * one prefetched; each mbuf's offload flags cleared except INDIRECT and
 * EXTERNAL (testpmd adds none: no VLAN, QinQ or MACsec insertion is
 * configured) and its l2/l3 lengths set to Ethernet and IPv4; one tx
 * burst; what it refuses freed.  testpmd's optional burst statistics and
 * core cycle records are off by default, so not here either.
 */
static inline void
peer_fields(struct rte_mbuf *m)
{
	m->ol_flags &= RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL;
	m->l2_len = sizeof(struct rte_ether_hdr);
	m->l3_len = sizeof(struct rte_ipv4_hdr);
}

#ifdef RTE_ARCH_X86
static inline void
peer_swap(struct rte_mbuf **pkts, uint16_t n)
{
	/* result byte k takes source byte sel[k]: 6..11, 0..5, 12..15 */
	const __m128i sel = _mm_setr_epi8(6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 12, 13, 14, 15);
	uint16_t i = 0;

	for (; n - i >= 4; i += 4) {
		uint8_t *d0, *d1, *d2, *d3;
		__m128i v0, v1, v2, v3;

		if (n - i >= 8) {
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 4], void *));
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 5], void *));
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 6], void *));
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 7], void *));
		}
		d0 = rte_pktmbuf_mtod(pkts[i], uint8_t *);
		v0 = _mm_loadu_si128((const __m128i *)(const void *)d0);
		d1 = rte_pktmbuf_mtod(pkts[i + 1], uint8_t *);
		v1 = _mm_loadu_si128((const __m128i *)(const void *)d1);
		d2 = rte_pktmbuf_mtod(pkts[i + 2], uint8_t *);
		v2 = _mm_loadu_si128((const __m128i *)(const void *)d2);
		d3 = rte_pktmbuf_mtod(pkts[i + 3], uint8_t *);
		v3 = _mm_loadu_si128((const __m128i *)(const void *)d3);
		v0 = _mm_shuffle_epi8(v0, sel);
		v1 = _mm_shuffle_epi8(v1, sel);
		v2 = _mm_shuffle_epi8(v2, sel);
		v3 = _mm_shuffle_epi8(v3, sel);
		_mm_storeu_si128((__m128i *)(void *)d0, v0);
		_mm_storeu_si128((__m128i *)(void *)d1, v1);
		_mm_storeu_si128((__m128i *)(void *)d2, v2);
		_mm_storeu_si128((__m128i *)(void *)d3, v3);
		peer_fields(pkts[i]);
		peer_fields(pkts[i + 1]);
		peer_fields(pkts[i + 2]);
		peer_fields(pkts[i + 3]);
	}
	for (; i < n; i++) {
		uint8_t *d;

		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		d = rte_pktmbuf_mtod(pkts[i], uint8_t *);
		_mm_storeu_si128((__m128i *)(void *)d,
				_mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)d),
						sel));
		peer_fields(pkts[i]);
	}
}
#else
/* testpmd's generic macswap.h: the addresses exchanged field by field */
static inline void
peer_swap(struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_ether_hdr *eth;
		struct rte_ether_addr a;

		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		rte_ether_addr_copy(&eth->dst_addr, &a);
		rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
		rte_ether_addr_copy(&a, &eth->src_addr);
		peer_fields(pkts[i]);
	}
}
#endif

static void
macswap_step(struct loop *l)
{
	struct rte_mbuf *pkts[MAX_BURST];
	uint16_t n, sent;

	l->fwd_polls++;
	n = rte_eth_rx_burst(l->pa, 0, pkts, (uint16_t)o.burst);
	if (unlikely(n == 0))
		return;
	l->fwd_busy++;
	peer_swap(pkts, n);
	sent = rte_eth_tx_burst(l->pa, 0, pkts, n);
	if (unlikely(sent < n))
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
}

/* an answer back to its request: its first tmpl_head bytes and its ICRC */
static inline void
gen_restore(struct rte_mbuf *m)
{
	uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);

	memcpy(f, tmpl, tmpl_head);
	memcpy(f + tmpl_len - PCC_ICRC_LEN, tmpl + tmpl_len - PCC_ICRC_LEN, PCC_ICRC_LEN);
	m->data_len = (uint16_t)tmpl_len;
	m->pkt_len = tmpl_len;
}

/* The generator: every answer back becomes its request again
 * (gen_restore()) and is sent again.  Returns 1 to stop. */
static int
gen_step(struct loop *l)
{
	struct rte_mbuf *pkts[MAX_BURST];
	uint64_t now = rte_rdtsc();
	uint16_t n, i, sent;

	if (!l->measuring && now >= l->t_meas) {
		l->measuring = true;
		l->t0 = now;
		l->cpu0 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
		l->counted = 0;
	}
	if (now >= l->t_end) {
		struct result *r = l->r;

		r->pkts = l->counted;
		r->mpps = (double)l->counted / ((double)(now - l->t0) / (double)rte_get_tsc_hz()) /
				1e6;
		r->mpps_cpu = (double)l->counted /
				((double)(bench_clock_ns(CLOCK_THREAD_CPUTIME_ID) - l->cpu0) /
						1e9) /
				1e6;
		return 1;
	}
	n = rte_eth_rx_burst(l->pb, 0, pkts, MAX_BURST);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		if (l->check && (l->seen < CHECK_FIRST || (l->seen & (CHECK_EVERY - 1)) == 0) &&
				check_answer(m, l->r) != 0) {
			l->r->bad++;
			l->err = -1;
			rte_pktmbuf_free_bulk(pkts, n);
			return 1;
		}
		gen_restore(m);
		if (l->check && (l->seen < CHECK_FIRST || (l->seen & (CHECK_EVERY - 1)) == 0) &&
				memcmp(rte_pktmbuf_mtod(m, void *), tmpl, tmpl_len) != 0) {
			snprintf(l->r->bad_why, sizeof(l->r->bad_why),
					"an answer changed bytes after the first %u", tmpl_head);
			l->r->bad++;
			l->err = -1;
			rte_pktmbuf_free_bulk(pkts, n);
			return 1;
		}
		l->seen++;
	}
	l->counted += n;
	sent = rte_eth_tx_burst(l->pb, 0, pkts, n);
	if (sent < n)
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	return 0;
}

/* The engine's poll hook: one generator step after each poll round. */
static int
np_hook(void *arg, uint64_t idle_until_ns)
{
	RTE_SET_USED(idle_until_ns);
	return gen_step(arg);
}

static int
inject(uint16_t port, struct rte_mempool *mp)
{
	struct rte_mbuf *pkts[MAX_BURST];
	unsigned int left = o.inflight;

	while (left > 0) {
		unsigned int n = RTE_MIN(left, (unsigned int)MAX_BURST), i;
		uint16_t sent;

		if (rte_pktmbuf_alloc_bulk(mp, pkts, n) != 0) {
			fprintf(stderr, "bench_np: out of mbufs\n");
			return -1;
		}
		for (i = 0; i < n; i++) {
			memcpy(rte_pktmbuf_mtod(pkts[i], void *), tmpl, tmpl_len);
			pkts[i]->data_len = (uint16_t)tmpl_len;
			pkts[i]->pkt_len = tmpl_len;
		}
		sent = rte_eth_tx_burst(port, 0, pkts, (uint16_t)n);
		if (sent != n) {
			fprintf(stderr, "bench_np: ring full while injecting\n");
			rte_pktmbuf_free_bulk(pkts + sent, n - sent);
			return -1;
		}
		left -= n;
	}
	return 0;
}

/* ---- Phases -------------------------------------------------------------- */

static unsigned int pair_seq;

static int
run_phase(bool np, struct rte_mempool *gen_mp, struct result *r)
{
	const uint64_t hz = rte_get_tsc_hz();
	struct pcc_ring_pair *rp;
	struct pcc_engine *e = NULL;
	struct pcc_engine_rxq_conf rxq;
	static struct pcc_engine_conf conf;
	struct loop l;
	char name[32];
	int rc = -1;

	memset(r, 0, sizeof(*r));
	memset(&l, 0, sizeof(l));
	snprintf(name, sizeof(name), "bnp%u", pair_seq++);
	rp = pcc_ring_pair_create(name, 1, 1, RING_SIZE, (int)rte_socket_id());
	if (rp == NULL) {
		fprintf(stderr, "bench_np: ring pair: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	l.pa = pcc_ring_pair_port(rp, 0);
	l.pb = pcc_ring_pair_port(rp, 1);
	l.check = np;
	l.r = r;
	if (bench_port_setup("bench_np", l.pb, gen_mp, RING_SIZE) != 0)
		goto out;
	if (np) {
		pcc_engine_conf_default(&conf);
		conf.port[l.pa].roles = PCC_ENGINE_ROLE_NP;
		rxq.port_id = l.pa;
		rxq.queue_id = 0;
		rxq.lcore_id = rte_get_main_lcore();
		conf.rxq = &rxq;
		conf.nb_rxq_conf = 1;
		conf.nb_rxd = RING_SIZE;
		conf.nb_txd = RING_SIZE;
		conf.burst = (uint16_t)o.burst;
		conf.flow.capacity = 1024;
		e = pcc_engine_create(&conf);
		if (e == NULL) {
			fprintf(stderr, "bench_np: engine: %s\n", rte_strerror(rte_errno));
			goto out;
		}
		if (pcc_engine_set_poll_hook(e, np_hook, &l) != 0 || inject(l.pb, gen_mp) != 0)
			goto out;
	} else {
		if (bench_port_setup("bench_np", l.pa, gen_mp, RING_SIZE) != 0 ||
				inject(l.pb, gen_mp) != 0)
			goto out;
	}
	l.t_meas = rte_rdtsc() + (uint64_t)(o.warmup_s * (double)hz);
	l.t_end = l.t_meas + (uint64_t)(o.time_s * (double)hz);
	if (np) {
		struct pcc_engine_lcore_stats ls;

		if (pcc_engine_start(e) != 0)
			goto out;
		pcc_engine_main_loop(e, NULL, NULL, 1000);
		pcc_engine_stop(e);
		pcc_engine_wait(e);
		if (pcc_engine_lcore_stats_get(e, rte_get_main_lcore(), &ls) == 0 && ls.polls != 0)
			r->fwd_busy = 100.0 * (double)ls.busy_polls / (double)ls.polls;
	} else {
		do
			macswap_step(&l);
		while (gen_step(&l) == 0);
		r->fwd_busy = l.fwd_polls != 0 ? 100.0 * (double)l.fwd_busy / (double)l.fwd_polls :
						 0;
	}
	rc = l.err;
out:
	pcc_engine_destroy(e);
	if (!np)
		rte_eth_dev_stop(l.pa);
	rte_eth_dev_stop(l.pb);
	pcc_ring_pair_free(rp);
	return rc;
}

/* ---- main ------------------------------------------------------------------ */

static void
usage(FILE *out)
{
	fprintf(out,
			"usage: bench_np [EAL options] -- [--time S] [--warmup S] [--inflight N]\n"
			"                [--burst N] [--ipv6] [--vlan]\n"
			"                [--peer np|macswap|both] [--runs N]\n");
}

/* --peer np|macswap|both */
static bool
set_peer(const char *prog, const char *v)
{
	if (strcmp(v, "np") != 0 && strcmp(v, "macswap") != 0 && strcmp(v, "both") != 0) {
		fprintf(stderr, "%s: invalid value '%s' for --peer %s\n", prog, v,
				"(expected np, macswap or both)");
		return false;
	}
	o.run_np = strcmp(v, "macswap") != 0;
	o.run_macswap = strcmp(v, "np") != 0;
	return true;
}

static int
parse_args(int argc, char **argv)
{
	const struct bench_opt opts[] = {
		{ "time", BENCH_OPT_NUM, &o.time_s, 0.001, 3600, NULL },
		{ "warmup", BENCH_OPT_NUM, &o.warmup_s, 0, 3600, NULL },
		{ "inflight", BENCH_OPT_U32, &o.inflight, 1, RING_SIZE - MAX_BURST, NULL },
		{ "burst", BENCH_OPT_U32, &o.burst, 1, MAX_BURST, NULL },
		{ "ipv6", BENCH_OPT_FLAG, &o.ipv6, 0, 0, NULL },
		{ "vlan", BENCH_OPT_FLAG, &o.vlan, 0, 0, NULL },
		{ "peer", BENCH_OPT_FN, NULL, 0, 0, set_peer },
		{ "runs", BENCH_OPT_U32, &o.runs, 1, 100, NULL },
	};

	return bench_opts_parse("bench_np", argc, argv, opts, RTE_DIM(opts), usage);
}

static double
ns_pkt(const struct result *r)
{
	return r->mpps_cpu > 0 ? 1000.0 / r->mpps_cpu : 0.0;
}

static void
print_row(const char *name, const struct result *r)
{
	printf("%-10s %8.2f %8.2f %8.2f %9.1f %11" PRIu64 " %8" PRIu64 "\n", name, r->mpps,
			r->mpps_cpu, ns_pkt(r), r->fwd_busy, r->pkts, r->checked);
}

int
main(int argc, char **argv)
{
	struct rte_mempool *mp;
	double lo_x = 0, hi_x = 0, lo_e = 0, hi_e = 0;
	struct result rn, rm;
	unsigned int run;
	char np_name[32];
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "bench_np: EAL init failed\n");
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
	if (build_template() != 0)
		return 1;
	mp = rte_pktmbuf_pool_create("bnp_gen", GEN_MBUFS, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
			(int)rte_socket_id());
	if (mp == NULL) {
		fprintf(stderr, "bench_np: mbuf pool: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	rte_log_set_level_pattern("pcc.*", RTE_LOG_WARNING);
	printf("# ccmad%s%s requests of %u bytes (%u restored), %u in flight, burst %u, %.1f s "
	       "after %.1f s\n",
			o.ipv6 ? "/ipv6" : "/ipv4", o.vlan ? "/vlan" : "", tmpl_len,
			tmpl_head + PCC_ICRC_LEN, o.inflight, o.burst, o.time_s, o.warmup_s);
	printf("%-10s %8s %8s %8s %9s %11s %8s\n", "loop", "Mpps", "Mpps-cpu", "ns/pkt",
			"fwd-busy%", "packets", "checked");
	snprintf(np_name, sizeof(np_name), "np-ccmad");
	for (run = 0; run < o.runs; run++) {
		memset(&rn, 0, sizeof(rn));
		memset(&rm, 0, sizeof(rm));
		if (o.run_np) {
			if (run_phase(true, mp, &rn) != 0) {
				fprintf(stderr, "bench_np: NP phase failed%s%s\n",
						rn.bad ? ": " : "", rn.bad ? rn.bad_why : "");
				return 1;
			}
			print_row(np_name, &rn);
		}
		if (o.run_macswap) {
			if (run_phase(false, mp, &rm) != 0) {
				fprintf(stderr, "bench_np: macswap phase failed\n");
				return 1;
			}
			print_row("macswap", &rm);
		}
		if (o.run_np && o.run_macswap && rn.mpps_cpu > 0 && rm.mpps_cpu > 0) {
			double x = rm.mpps_cpu != 0 ? ns_pkt(&rm) / ns_pkt(&rn) : 0;
			double extra = ns_pkt(&rn) - ns_pkt(&rm);

			printf("ratio np/macswap %.3f extra-ns %.2f\n", x, extra);
			if (lo_x == 0 || x < lo_x)
				lo_x = x;
			if (x > hi_x)
				hi_x = x;
			if (run == 0 || extra < lo_e)
				lo_e = extra;
			if (run == 0 || extra > hi_e)
				hi_e = extra;
		}
		fflush(stdout);
	}
	if (o.runs > 1 && hi_x > 0)
		printf("# %u runs: np/macswap %.3f-%.3f, extra %.2f-%.2f ns/pkt\n", o.runs, lo_x,
				hi_x, lo_e, hi_e);
	fflush(stdout);
	rte_mempool_free(mp);
	test_eal_cleanup();
	return 0;
}
