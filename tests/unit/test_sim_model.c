/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the simulator's model (drivers/sim), without the engine:
 * link serialization timing and its fractional carry, queue build-up and
 * drain, RED marking probability against Pmax(q - Kmin)/(Kmax - Kmin)
 * (fixed seed; 200 000 draws per point, tolerance 0.005 absolute, about 7
 * standard deviations), step marking, shared-buffer and per-port drops
 * (counted, packets conserved), ECMP spreading over spines by UDP source
 * port without reordering, HPCC INT stamping values (and the ICRC kept
 * valid, INT echoed in ACKs), IFA2 stamping, the hardware NP's CNP gap per
 * QP, probe response timestamps, ACK generation (per packet, coalesced,
 * AckReq, NAK on a PSN gap), the idle/jump contract of the step function,
 * and determinism of the output files (same seed: identical bytes;
 * another seed: different).  Virtual time only.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_ring.h>

#include "sim_internal.h"
#include "test_eal.h"
#include "test_sim_common.h"

#define US 1000ull
#define G100 100000000000ull
#define G10 10000000000ull

static struct rte_mempool *mp;

/* resources small enough for -m 512, no files, no progress line */
#define COMMON                                                  \
	"sim: {mbufs: 4095, packets: 16383, ring_size: 1024}\n" \
	"output: {dir: none, progress: false, plots: false}\n"

static struct pcc_sim_flow_info
flow_info(struct pcc_sim *sim, uint32_t idx)
{
	struct pcc_sim_flow_info fi[64];

	assert_true(pcc_sim_flows(sim, fi, 64) > idx);
	return fi[idx];
}

static void
l3_of(const struct pcc_sim_flow_info *f, uint8_t ecn, struct pcc_l3_spec *l3)
{
	memset(l3, 0, sizeof(*l3));
	memcpy(l3->src_mac, f->src_mac, 6);
	memcpy(l3->dst_mac, f->dst_mac, 6);
	l3->src.v4 = f->src_ip;
	l3->dst.v4 = f->dst_ip;
	l3->ecn = ecn;
	l3->udp_sport = f->udp_sport;
}

/* A RoCEv2 RC SEND_ONLY data packet of flow idx. */
static struct rte_mbuf *
data_pkt(struct pcc_sim *sim, uint32_t idx, uint32_t psn, uint32_t payload, uint8_t ecn,
		bool int_hdr, bool ackreq)
{
	struct pcc_sim_flow_info f = flow_info(sim, idx);
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	struct pcc_roce_spec r;
	struct pcc_l3_spec l3;
	int len;

	assert_non_null(m);
	l3_of(&f, ecn, &l3);
	memset(&r, 0, sizeof(r));
	r.bth.opcode = PCC_OP_RC_SEND_ONLY;
	r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r.bth.dqpn = f.dst_qpn;
	r.bth.psn = psn;
	r.bth.ackreq = ackreq;
	r.payload_len = payload;
	if (int_hdr) {
		r.bth.flags = PCC_BTH_INT;
		r.payload_len += PCC_INT_HDR_LEN;
	}
	len = pcc_roce_build(rte_pktmbuf_mtod(m, void *), rte_pktmbuf_tailroom(m), &l3, &r);
	assert_true(len > 0);
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	return m;
}

/* A plain IPv4/UDP frame of `len` bytes from host a to host b. */
static struct rte_mbuf *
udp_frame(struct pcc_sim *sim, uint16_t a, uint16_t b, uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	uint8_t *p;
	uint32_t ip_len = len - 14, sum = 0, i;

	assert_non_null(m);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	memset(p, 0, len);
	memcpy(p, sim->hosts[b].mac, 6);
	memcpy(p + 6, sim->hosts[a].mac, 6);
	p[12] = 0x08;
	p[14] = 0x45;
	p[16] = (uint8_t)(ip_len >> 8);
	p[17] = (uint8_t)ip_len;
	p[22] = 64;
	p[23] = 17;
	for (i = 0; i < 4; i++) {
		p[26 + i] = (uint8_t)(sim->hosts[a].ip >> (24 - 8 * i));
		p[30 + i] = (uint8_t)(sim->hosts[b].ip >> (24 - 8 * i));
	}
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)(p[14 + i] << 8 | p[15 + i]);
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	p[24] = (uint8_t)(~sum >> 8);
	p[25] = (uint8_t)~sum;
	p[34] = 0x30;
	p[35] = 0x39;
	p[36] = 0x04;
	p[37] = 0xD2; /* dport 1234 */
	p[38] = (uint8_t)((ip_len - 20) >> 8);
	p[39] = (uint8_t)(ip_len - 20);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	return m;
}

/* What the host's port would receive (the ring's object table read as
 * uintptr_t, its own element type: see sim_obj_t in sim.c). */
static unsigned int
rx_all(struct pcc_sim *sim, uint16_t host, struct rte_mbuf **m, unsigned int n)
{
	uintptr_t o[64];
	unsigned int i, got;

	got = rte_ring_dequeue_burst(sim->hosts[host].rxr, (void **)o, RTE_MIN(n, 64u), NULL);
	for (i = 0; i < got; i++)
		m[i] = (struct rte_mbuf *)o[i];
	return got;
}

static uint64_t
rx_ts(const struct pcc_sim *sim, const struct rte_mbuf *m)
{
	assert_true((m->ol_flags & sim->ts_flag) != 0);
	return *RTE_MBUF_DYNFIELD(m, sim->ts_off, rte_mbuf_timestamp_t *);
}

static void
free_all(struct rte_mbuf **m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_pktmbuf_free(m[i]);
}

static uint64_t
ser(uint64_t bytes, uint64_t rate)
{
	uint64_t rem = 0;

	return sim_ser_ns(bytes, rate, &rem);
}

static void
parse_ok(const struct rte_mbuf *m, struct pcc_pkt_info *info, bool icrc)
{
	struct pcc_parse_opts o;

	pcc_parse_opts_default(&o);
	o.check_icrc = icrc;
	assert_int_equal(pcc_parse_mbuf(m, &o, info), 0);
}

/* ---- Links ---------------------------------------------------------------------- */

/* The tx counts of the link named name. */
static void
link_tx(const struct pcc_sim *sim, const char *name, uint64_t pkts, uint64_t bytes)
{
	struct pcc_sim_link_stats ls;
	uint32_t i;

	for (i = 0; i < pcc_sim_link_count(sim); i++) {
		assert_int_equal(pcc_sim_link_stats_get(sim, i, &ls), 0);
		if (strcmp(ls.name, name) != 0)
			continue;
		assert_int_equal(ls.tx_pkts, pkts);
		assert_int_equal(ls.tx_bytes, bytes);
		return;
	}
	fail_msg("no link '%s'", name);
}

#define ONE_TO_ONE "topology: {type: incast, senders: 1, host_link: {rate: 100G, delay: 1us}}\n"

static void
test_link_timing(void **state)
{
	struct pcc_sim *sim = sim_from(ONE_TO_ONE "hosts: {np: engine, np_rx: all}\n"
						  "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct rte_mbuf *m[8];
	uint64_t rem = 0, total = 0;
	unsigned int i, n;

	(void)state;
	/* a 1000-byte frame at 100G takes 80 ns per link, plus 1 us delay */
	assert_int_equal(pcc_sim_inject(sim, 0, udp_frame(sim, 0, 1, 1000)), 0);
	assert_int_equal(pcc_sim_inject(sim, 0, udp_frame(sim, 0, 1, 1000)), 0);
	assert_int_equal(pcc_sim_run(sim, 10 * US), 0);
	n = rx_all(sim, 1, m, 8);
	assert_int_equal(n, 2);
	assert_int_equal(rx_ts(sim, m[0]), 80 + 1000 + 80 + 1000);
	assert_int_equal(rx_ts(sim, m[1]), 80 + 1000 + 80 + 1000 + 80);
	assert_int_equal(m[0]->port, sim->hosts[1].eth_port);
	free_all(m, n);
	assert_int_equal(pcc_sim_now(sim), 10 * US);
	sim_free(sim);

	/*
	 * A frame leaving an empty queue has no end-of-transmission event:
	 * its tx counts appear when it has ended, and a frame queued behind
	 * it before then starts when it ends, not earlier.
	 */
	sim = sim_from(ONE_TO_ONE "hosts: {np: engine, np_rx: all}\n"
				  "flows: [{src: s0, dst: r0}]\n" COMMON);
	assert_int_equal(pcc_sim_inject(sim, 0, udp_frame(sim, 0, 1, 1000)), 0);
	assert_int_equal(pcc_sim_run(sim, 40), 0);
	link_tx(sim, "s0->sw0", 0, 0);
	assert_int_equal(pcc_sim_run(sim, 80), 0);
	link_tx(sim, "s0->sw0", 1, 1000);
	/* the line is free at 80: the second starts now */
	assert_int_equal(pcc_sim_inject(sim, 0, udp_frame(sim, 0, 1, 1000)), 0);
	assert_int_equal(pcc_sim_run(sim, 120), 0);
	/* the third waits for the second's end, at 160 */
	assert_int_equal(pcc_sim_inject(sim, 0, udp_frame(sim, 0, 1, 1000)), 0);
	assert_int_equal(pcc_sim_run(sim, 159), 0);
	link_tx(sim, "s0->sw0", 1, 1000);
	assert_int_equal(pcc_sim_run(sim, 160), 0);
	link_tx(sim, "s0->sw0", 2, 2000);
	assert_int_equal(pcc_sim_run(sim, 10 * US), 0);
	link_tx(sim, "s0->sw0", 3, 3000);
	link_tx(sim, "sw0->r0", 3, 3000);
	n = rx_all(sim, 1, m, 8);
	assert_int_equal(n, 3);
	/* back to back from 80 ns on, through the switch as well */
	assert_int_equal(rx_ts(sim, m[0]), 80 + 1000 + 80 + 1000);
	assert_int_equal(rx_ts(sim, m[1]), 80 + 1000 + 80 + 1000 + 80);
	assert_int_equal(rx_ts(sim, m[2]), 80 + 1000 + 80 + 1000 + 160);
	free_all(m, n);
	/* an idle line drops the carry: apart, 1042-byte frames take 83 ns each */
	for (i = 0; i < 4; i++) {
		assert_int_equal(pcc_sim_inject(sim, 0, udp_frame(sim, 0, 1, 1042)), 0);
		assert_int_equal(pcc_sim_run(sim, (11 + i) * US), 0);
	}
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 1, m, 8);
	assert_int_equal(n, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(rx_ts(sim, m[i]), (10 + i) * US + 83 + 1000 + 83 + 1000);
	free_all(m, n);
	sim_free(sim);
	/* 1042 bytes at 100G is 83.36 ns: the carry keeps the long-run rate exact */
	for (i = 0; i < 100; i++) {
		uint64_t dt = sim_ser_ns(1042, G100, &rem);

		assert_true(dt == 83 || dt == 84);
		total += dt;
	}
	assert_int_equal(total, 8336);
	assert_int_equal(rem, 0);
	rem = 0;
	assert_int_equal(sim_ser_ns(1000, 25000000000ull, &rem), 320);
	assert_int_equal(sim_ser_ns(1000, 400000000000ull, &rem), 20);
}

/* The incremental ICRC update agrees with a full recomputation. */
static void
test_icrc_patch(void **state)
{
	struct sim_rng rng;
	uint8_t buf[4096], old[64];
	struct pcc_l3_spec l3;
	struct pcc_roce_spec r;
	unsigned int i;

	(void)state;
	sim_rng_seed(&rng, 99, 0);
	for (i = 0; i < 2000; i++) {
		uint32_t plen = 16 + (uint32_t)(sim_rng_next(&rng) % 3000), off, n, k, icrc_off;
		struct pcc_pkt_info info;
		uint32_t want;
		int len, err = 0;

		memset(&l3, 0, sizeof(l3));
		l3.src.v4 = (uint32_t)sim_rng_next(&rng);
		l3.dst.v4 = (uint32_t)sim_rng_next(&rng);
		l3.ecn = PCC_ECN_ECT0;
		memset(&r, 0, sizeof(r));
		r.bth.opcode = PCC_OP_RC_SEND_ONLY;
		r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
		r.bth.psn = (uint32_t)sim_rng_next(&rng) & PCC_PSN_MASK;
		r.bth.dqpn = 0x123;
		r.payload_len = plen;
		len = pcc_roce_build(buf, sizeof(buf), &l3, &r);
		assert_true(len > 0);
		assert_int_equal(pcc_parse(buf, (uint32_t)len, NULL, &info), 0);
		icrc_off = info.payload_off + info.payload_len + info.pad_cnt;
		/* change n bytes of the payload, or the PSN */
		if (i % 4 == 0) {
			off = info.bth_off + 9;
			n = 3;
		} else {
			n = 1 +
					(uint32_t)(sim_rng_next(&rng) %
							RTE_MIN(plen, (uint32_t)sizeof(old)));
			off = info.payload_off + (uint32_t)(sim_rng_next(&rng) % (plen - n + 1));
		}
		memcpy(old, buf + off, n);
		for (k = 0; k < n; k++)
			buf[off + k] = (uint8_t)sim_rng_next(&rng);
		sim_icrc_patch(buf, icrc_off, off, old, n);
		want = pcc_icrc_calc(buf + info.l3_off, icrc_off - info.l3_off, &err);
		assert_int_equal(err, 0);
		assert_int_equal(buf[icrc_off], (uint8_t)want);
		assert_int_equal(buf[icrc_off + 1], (uint8_t)(want >> 8));
		assert_int_equal(buf[icrc_off + 2], (uint8_t)(want >> 16));
		assert_int_equal(buf[icrc_off + 3], (uint8_t)(want >> 24));
	}
}

/* What model sources send: valid frames, a message as FIRST/MIDDLE/LAST. */
static void
test_model_source(void **state)
{
	struct pcc_sim *sim =
			sim_from(ONE_TO_ONE "hosts: {np: engine, np_rx: all}\n"
					    "flows: [{src: s0, dst: r0, size: 4500, source: model, "
					    "rate: 50G}]\n" COMMON);
	static const uint8_t ops[5] = { 0x00, 0x01, 0x01, 0x01, 0x02 };
	struct pcc_sim_flow_info f = flow_info(sim, 0);
	struct pcc_sim_flow_stats fs;
	struct pcc_pkt_info info;
	struct rte_mbuf *m[8];
	uint64_t t = ser(58 + 1000, 50000000000ull);
	unsigned int n, i;

	(void)state;
	assert_int_equal(f.src_port_id, -1);
	assert_int_equal(pcc_sim_run(sim, UINT64_MAX), 1);
	n = rx_all(sim, 1, m, 8);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++) {
		parse_ok(m[i], &info, true);
		assert_int_equal(info.kind, PCC_PKT_ROCE_DATA);
		assert_int_equal(info.opcode, ops[i]);
		assert_int_equal(info.psn, i);
		assert_int_equal(info.ackreq, i == 4);
		assert_int_equal(info.dqpn, f.dst_qpn);
		assert_int_equal(info.udp_sport, f.udp_sport);
		assert_int_equal(info.ecn, PCC_ECN_ECT0);
		assert_int_equal(info.payload_len, i < 4 ? 1000 : 500);
		/* paced at 50G: one 1058-byte frame every 169.28 ns */
		if (i < 4)
			assert_true(rx_ts(sim, m[i]) >= i * t + 2 * 1000 &&
					rx_ts(sim, m[i]) <= i * (t + 1) + 2 * 1000 + 2 * 85);
	}
	free_all(m, n);
	assert_int_equal(pcc_sim_flow_stats_get(sim, 0, &fs), 0);
	assert_true(fs.done);
	assert_int_equal(fs.rx_payload, 4500);
	sim_free(sim);
}

/* ---- Queues ------------------------------------------------------------------------ */

#define DUMBBELL_2                                               \
	"topology: {type: dumbbell, senders: 2, receivers: 1,\n" \
	"  host_link: {rate: 100G, delay: 1us}, bottleneck: {rate: 100G, delay: 1us}}\n"

static void
test_queue_buildup_drain(void **state)
{
	struct pcc_sim *sim =
			sim_from(DUMBBELL_2 "switch: {ecn: {mode: off}}\n"
					    "flows:\n"
					    "  - {src: [s0, s1], dst: r0, size: 100000, source: "
					    "model}\n" COMMON);
	const uint64_t frame = 58 + 1000, t = ser(frame, G100);
	struct pcc_sim_queue_stats q;
	struct pcc_sim_flow_stats fs[2];
	struct pcc_sim_stats st;
	uint32_t i, bn = UINT32_MAX;

	(void)state;
	assert_int_equal(pcc_sim_run(sim, UINT64_MAX), 1);
	assert_true(pcc_sim_done(sim));
	for (i = 0; i < pcc_sim_queue_count(sim); i++) {
		assert_int_equal(pcc_sim_queue_stats_get(sim, i, &q), 0);
		if (strcmp(q.name, "sw0->sw1") == 0)
			bn = i;
	}
	assert_int_not_equal(bn, UINT32_MAX);
	assert_int_equal(pcc_sim_queue_stats_get(sim, bn, &q), 0);
	/* two line-rate senders into one line-rate link: one frame gained per frame time */
	assert_true(q.depth_max >= 98 * frame && q.depth_max <= 101 * frame);
	assert_int_equal(q.depth_bytes, 0); /* drained */
	assert_int_equal(q.tx_pkts, 200);
	assert_int_equal(q.drops, 0);
	for (i = 0; i < 2; i++) {
		assert_int_equal(pcc_sim_flow_stats_get(sim, i, &fs[i]), 0);
		assert_true(fs[i].done);
		assert_int_equal(fs[i].rx_payload, 100000);
		assert_int_equal(fs[i].rx_pkts, 100);
		assert_int_equal(fs[i].acks, 100);
	}
	/* the last byte leaves the bottleneck after 200 frame times */
	assert_true(RTE_MAX(fs[0].fct_ns, fs[1].fct_ns) >= 200 * t);
	assert_true(RTE_MAX(fs[0].fct_ns, fs[1].fct_ns) <= 200 * (t + 1) + 3 * t + 3000);
	assert_int_equal(pcc_sim_stats_get(sim, &st), 0);
	/* the run ended when the last flow completed */
	assert_int_equal(st.now_ns, RTE_MAX(fs[0].last_rx_ns, fs[1].last_rx_ns));
	assert_int_equal(st.drops, 0);
	assert_int_equal(st.marks, 0);
	sim_free(sim);
}

/* ---- Marking ------------------------------------------------------------------------ */

static void
test_red_probability(void **state)
{
	const uint64_t kmin = 400000, kmax = 1600000;
	const double pmax = 0.2;
	struct sim_rng rng;
	unsigned int k, i, n = 200000;

	(void)state;
	sim_rng_seed(&rng, 12345, 1);
	for (k = 1; k <= 3; k++) {
		uint64_t q = kmin + (kmax - kmin) * k / 4, hits = 0;
		double want = pmax * (double)(q - kmin) / (double)(kmax - kmin), got;

		for (i = 0; i < n; i++)
			hits += sim_red_mark(SIM_ECN_RED, q, kmin, kmax, pmax, &rng);
		got = (double)hits / n;
		if (got < want - 0.005 || got > want + 0.005)
			print_error("q=%" PRIu64 ": %f marked, want %f\n", q, got, want);
		assert_true(got >= want - 0.005 && got <= want + 0.005);
	}
	for (i = 0; i < 1000; i++) {
		assert_false(sim_red_mark(SIM_ECN_RED, kmin, kmin, kmax, pmax, &rng));
		assert_false(sim_red_mark(SIM_ECN_RED, 0, kmin, kmax, pmax, &rng));
		assert_true(sim_red_mark(SIM_ECN_RED, kmax + 1, kmin, kmax, pmax, &rng));
		assert_false(sim_red_mark(SIM_ECN_OFF, kmax + 1, kmin, kmax, pmax, &rng));
	}
}

static void
test_step_marking(void **state)
{
	struct sim_rng rng;
	struct pcc_sim *sim;
	struct pcc_sim_queue_stats q;
	struct pcc_sim_flow_stats fs;
	uint64_t ce = 0;
	uint32_t i;

	(void)state;
	sim_rng_seed(&rng, 1, 1);
	assert_false(sim_red_mark(SIM_ECN_STEP, 30000, 30000, 30000, 0, &rng));
	assert_true(sim_red_mark(SIM_ECN_STEP, 30001, 30000, 30000, 0, &rng));
	assert_false(sim_red_mark(SIM_ECN_STEP, 0, 30000, 30000, 0, &rng));
	/* two line-rate senders, K = 20 KB: the first ~19 queued frames pass unmarked, then
	 * every frame that leaves a queue above K is marked */
	sim = sim_from(DUMBBELL_2
			"switch: {ecn: {mode: step, k: 20KB}}\n"
			"flows:\n"
			"  - {src: [s0, s1], dst: r0, size: 100000, source: model}\n" COMMON);
	assert_int_equal(pcc_sim_run(sim, UINT64_MAX), 1);
	assert_int_equal(pcc_sim_queue_stats_get(sim, 2, &q), 0);
	for (i = 0; i < 2; i++) {
		assert_int_equal(pcc_sim_flow_stats_get(sim, i, &fs), 0);
		ce += fs.ce_rx;
	}
	for (i = 0; i < pcc_sim_queue_count(sim); i++) {
		assert_int_equal(pcc_sim_queue_stats_get(sim, i, &q), 0);
		if (strcmp(q.name, "sw0->sw1") == 0)
			break;
	}
	assert_int_equal(ce, q.marks);
	/* frames leave with more than 20 KB behind them while the queue is above K */
	assert_true(q.marks >= 200 - 2 * (20000 / 1058) - 4 && q.marks <= 200 - 20000 / 1058);
	sim_free(sim);
}

/* ---- Drops ---------------------------------------------------------------------------- */

static void
check_conservation(struct pcc_sim *sim, uint64_t *drops)
{
	struct pcc_sim_flow_stats fs;
	uint32_t i;

	*drops = 0;
	for (i = 0; i < pcc_sim_flow_count(sim); i++) {
		assert_int_equal(pcc_sim_flow_stats_get(sim, i, &fs), 0);
		assert_int_equal(fs.tx_pkts, fs.rx_pkts + fs.drops);
		*drops += fs.drops;
	}
}

/* 185 Gb/s offered to one 100G port; unequal rates, so that no sender is
 * locked out by the phase of a synchronised drop-tail queue */
#define DROP_FLOWS                                                        \
	"  - {src: s0, dst: r0, size: 50000, rate: 60G, source: model}\n" \
	"  - {src: s1, dst: r0, size: 50000, rate: 50G, source: model}\n" \
	"  - {src: s2, dst: r0, size: 50000, rate: 40G, source: model}\n" \
	"  - {src: s3, dst: r0, size: 50000, rate: 35G, source: model}\n"

static void
test_buffer_drops(void **state)
{
	struct pcc_sim *sim;
	struct pcc_sim_queue_stats q;
	struct pcc_sim_stats st;
	uint64_t drops, qdrops = 0;
	uint32_t i;

	(void)state;
	sim = sim_from("topology: {type: incast, senders: 4}\n"
		       "duration: 200us\n"
		       "switch: {buffer: 20000, ecn: {mode: off}}\n"
		       "flows:\n" DROP_FLOWS COMMON);
	assert_int_equal(pcc_sim_run(sim, UINT64_MAX), 1);
	assert_int_equal(pcc_sim_stats_get(sim, &st), 0);
	check_conservation(sim, &drops);
	assert_true(drops > 0);
	assert_int_equal(st.drops, drops);
	for (i = 0; i < pcc_sim_queue_count(sim); i++) {
		assert_int_equal(pcc_sim_queue_stats_get(sim, i, &q), 0);
		qdrops += q.drops;
		assert_true(q.depth_max <= 20000);
	}
	assert_int_equal(qdrops, drops);
	assert_true(sim->nodes[sim->nb_hosts].buf_max <= 20000);
	/* the receivers saw PSN gaps and said so */
	assert_true(st.naks > 0);
	sim_free(sim);

	/* a per-port cap inside a large shared buffer */
	sim = sim_from("topology: {type: incast, senders: 4}\n"
		       "duration: 200us\n"
		       "switch: {port_buffer: 5000, ecn: {mode: off}}\n"
		       "flows:\n" DROP_FLOWS COMMON);
	assert_int_equal(pcc_sim_run(sim, UINT64_MAX), 1);
	check_conservation(sim, &drops);
	assert_true(drops > 0);
	for (i = 0; i < pcc_sim_queue_count(sim); i++) {
		assert_int_equal(pcc_sim_queue_stats_get(sim, i, &q), 0);
		assert_true(q.depth_max <= 5000);
	}
	sim_free(sim);
}

/* ---- ECMP ------------------------------------------------------------------------------ */

static void
test_ecmp(void **state)
{
	struct pcc_sim *sim;
	struct pcc_sim_queue_stats q;
	struct pcc_sim_stats st;
	unsigned int used = 0, b, i, count[4] = { 0 };
	uint64_t spine_pkts = 0, drops;

	(void)state;
	/* the pick is a pure function of the hash and the switch's salt */
	for (i = 0; i < 4000; i++) {
		struct pcc_pkt_info info;

		memset(&info, 0, sizeof(info));
		info.src.v4 = 0x0A010001;
		info.dst.v4 = 0x0A010005;
		b = sim_ecmp_pick(sim_tuple_hash(&info, pcc_roce_udp_sport(0x100 + i, 0x100 + i),
						  PCC_ROCE_UDP_PORT),
				0x1234, 4);
		assert_true(b < 4);
		count[b]++;
	}
	for (b = 0; b < 4; b++)
		assert_true(count[b] > 800 && count[b] < 1200);
	sim = sim_from("topology: {type: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 4}\n"
		       "switch: {ecn: {mode: off}}\n"
		       "flows:\n"
		       "  - {src: [h0, h1, h2, h3], dst: h5, count: 8, size: 20000, rate: 20G,\n"
		       "     source: model}\n" COMMON);
	assert_int_equal(pcc_sim_run(sim, UINT64_MAX), 1);
	for (i = 0; i < pcc_sim_queue_count(sim); i++) {
		assert_int_equal(pcc_sim_queue_stats_get(sim, i, &q), 0);
		if (strncmp(q.name, "spine", 5) == 0 && strstr(q.name, "->leaf1") != NULL) {
			spine_pkts += q.tx_pkts;
			if (q.tx_pkts > 0)
				used++;
		}
	}
	/* 32 flows over 4 spines: every spine carries some */
	assert_int_equal(used, 4);
	assert_int_equal(spine_pkts, 32 * 20);
	assert_int_equal(pcc_sim_stats_get(sim, &st), 0);
	check_conservation(sim, &drops);
	assert_int_equal(drops, 0);
	/* one path per flow: no reordering, so no NAK */
	assert_int_equal(st.naks, 0);
	sim_free(sim);
}

/* ---- INT and IFA2 ----------------------------------------------------------------------- */

#define DUMBBELL_1                                               \
	"topology: {type: dumbbell, senders: 1, receivers: 1,\n" \
	"  host_link: {rate: 100G, delay: 1us}, bottleneck: {rate: 100G, delay: 1us}}\n"

static void
test_int_stamping(void **state)
{
	struct pcc_sim *sim = sim_from(DUMBBELL_1 "switch: {int: true}\n"
						  "hosts: {np: engine, np_rx: all}\n"
						  "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct rte_mbuf *m[8], *a[8];
	struct pcc_pkt_info info;
	struct pcc_int_hdr h;
	uint64_t t, t_sw0_1, t_sw0_2, len;
	unsigned int n, na, i;

	(void)state;
	assert_int_equal(pcc_sim_inject(sim, 0, data_pkt(sim, 0, 0, 1000, PCC_ECN_ECT0, true, 0)),
			0);
	assert_int_equal(pcc_sim_inject(sim, 0, data_pkt(sim, 0, 1, 1000, PCC_ECN_ECT0, true, 0)),
			0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 1, m, 8);
	assert_int_equal(n, 2);
	len = m[0]->pkt_len;
	t = ser(len, G100);
	/* sw0 dequeues frame 1 when it arrives, frame 2 when frame 1 is sent */
	t_sw0_1 = t + 1000;
	t_sw0_2 = t_sw0_1 + t;
	for (i = 0; i < n; i++) {
		parse_ok(m[i], &info, true); /* ICRC recomputed after each push */
		assert_true(info.bth_flags & PCC_BTH_INT);
		assert_int_equal(pcc_int_parse(rte_pktmbuf_mtod_offset(
							       m[i], void *, info.payload_off),
						 PCC_INT_HDR_LEN, &h),
				0);
		assert_int_equal(h.n_hops, 2);
		assert_int_equal(h.hop[0].rate_code, PCC_INT_RATE_100G);
		assert_int_equal(h.hop[1].rate_code, PCC_INT_RATE_100G);
		assert_int_equal(h.hop[0].qlen, 0);
		assert_int_equal(h.hop[1].qlen, 0);
		assert_int_equal(h.hop[0].time_ns, i == 0 ? t_sw0_1 : t_sw0_2);
		assert_int_equal(h.hop[1].time_ns, (i == 0 ? t_sw0_1 : t_sw0_2) + t + 1000);
		/* bytes the port sent before this frame, in 128-byte units */
		assert_int_equal(h.hop[0].tx_bytes, i == 0 ? 0 : len / 128);
		assert_int_equal(h.hop[1].tx_bytes, i == 0 ? 0 : len / 128);
		assert_int_equal(rx_ts(sim, m[i]), (i == 0 ? t_sw0_1 : t_sw0_2) + 2 * (t + 1000));
	}
	/* the ACKs echo the INT header of the data they acknowledge */
	na = rx_all(sim, 0, a, 8);
	assert_int_equal(na, 2);
	for (i = 0; i < na; i++) {
		struct pcc_pkt_info ai;

		parse_ok(a[i], &ai, true);
		assert_int_equal(ai.kind, PCC_PKT_ROCE_ACK);
		assert_true(ai.bth_flags & PCC_BTH_INT);
		parse_ok(m[i], &info, false);
		assert_memory_equal(rte_pktmbuf_mtod_offset(a[i], void *, ai.payload_off),
				rte_pktmbuf_mtod_offset(m[i], void *, info.payload_off),
				PCC_INT_HDR_LEN);
	}
	free_all(m, n);
	free_all(a, na);
	/* a frame without the INT header is left alone */
	assert_int_equal(pcc_sim_inject(sim, 0, data_pkt(sim, 0, 2, 1000, PCC_ECN_ECT0, false, 0)),
			0);
	assert_int_equal(pcc_sim_run(sim, 40 * US), 0);
	n = rx_all(sim, 1, m, 8);
	assert_int_equal(n, 1);
	parse_ok(m[0], &info, true);
	assert_false(info.bth_flags & PCC_BTH_INT);
	assert_int_equal(m[0]->pkt_len, 58 + 1000);
	free_all(m, n);
	n = rx_all(sim, 0, a, 8);
	assert_int_equal(n, 1);
	parse_ok(a[0], &info, true);
	assert_false(info.bth_flags & PCC_BTH_INT);
	free_all(a, n);
	sim_free(sim);
}

static void
test_ifa2_stamping(void **state)
{
	struct pcc_sim *sim = sim_from(DUMBBELL_1 "switch: {ifa2: true}\n"
						  "hosts: {np: engine}\n"
						  "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct pcc_ifa2_hdr ih = { .ver = 2, .gns = 0xF, .max_len = 0xFF };
	struct pcc_ifa2_md_hdr md = { .hop_limit = PCC_IFA2_HOP_LIMIT_DEFAULT };
	struct rte_mbuf *m = data_pkt(sim, 0, 0, 200, PCC_ECN_ECT0, false, 0), *r[4];
	struct pcc_ifa2_info ii;
	struct pcc_ifa2_hop hop[2];
	uint32_t len = m->data_len;
	uint64_t t0, t1, arr_sw0, arr_sw1;
	unsigned int n;

	(void)state;
	assert_int_equal(pcc_ifa2_insert(rte_pktmbuf_mtod(m, void *), &len,
					 m->data_len + rte_pktmbuf_tailroom(m),
					 PCC_IFA2_PROTO_DEFAULT, &ih, &md),
			0);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	t0 = ser(len, G100);
	t1 = ser(len + PCC_IFA2_HOP_LEN, G100);
	arr_sw0 = t0 + 1000;
	arr_sw1 = arr_sw0 + t1 + 1000;
	assert_int_equal(pcc_sim_inject(sim, 0, m), 0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 1, r, 4);
	assert_int_equal(n, 1);
	assert_int_equal(r[0]->pkt_len, len + 2 * PCC_IFA2_HOP_LEN);
	assert_int_equal(pcc_ifa2_parse(rte_pktmbuf_mtod(r[0], void *), r[0]->data_len,
					 PCC_IFA2_PROTO_DEFAULT, &ii),
			0);
	assert_int_equal(ii.n_hops, 2);
	assert_int_equal(ii.md.hop_limit, PCC_IFA2_HOP_LIMIT_DEFAULT - 2);
	assert_int_equal(pcc_ifa2_get_hop(rte_pktmbuf_mtod(r[0], void *), r[0]->data_len, &ii, 0,
					 &hop[0]),
			0);
	assert_int_equal(pcc_ifa2_get_hop(rte_pktmbuf_mtod(r[0], void *), r[0]->data_len, &ii, 1,
					 &hop[1]),
			0);
	/* hop 0 is the newest: sw1 (node 3), then sw0 (node 2) */
	assert_int_equal(hop[0].device_id, 4);
	assert_int_equal(hop[1].device_id, 3);
	assert_int_equal(hop[1].ingress_port, 0); /* sw0: port 0 faces s0 */
	assert_int_equal(hop[1].egress_port, 1);  /* port 1 faces sw1 */
	assert_int_equal(hop[0].ingress_port, 1); /* sw1: port 1 faces sw0 */
	assert_int_equal(hop[0].egress_port, 0);  /* port 0 faces r0 */
	assert_int_equal(hop[1].rx_ns, arr_sw0);
	assert_int_equal(hop[0].rx_ns, arr_sw1);
	assert_int_equal(hop[1].rx_sec, 0);
	assert_int_equal(hop[0].residence_ns, 0);
	assert_int_equal(hop[1].residence_ns, 0);
	assert_int_equal(hop[0].port_speed, 4); /* 100G */
	assert_int_equal(hop[0].congestion, 0);
	assert_int_equal(hop[0].ttl, 64);
	assert_int_equal(rx_ts(sim, r[0]), arr_sw1 + ser(len + 2 * PCC_IFA2_HOP_LEN, G100) + 1000);
	free_all(r, n);
	sim_free(sim);
}

/* Known inputs of one hop: the worked example of doc/wire.md 8.3.1. */
static void
hop_example(struct sim_ifa2_stamp *st)
{
	memset(st, 0, sizeof(*st));
	st->device_id = 0x12345;
	st->ttl = 0x40;
	st->congestion = 2;
	st->speed_code = 4; /* 100G */
	st->rate_bps = G100;
	st->in_port = 1;
	st->out_port = 2;
	st->rx_ns = 70000 * 1000000000ull + 123456789; /* 70000 s: beyond 16 bits */
	st->tx_ns = st->rx_ns + 1500;
	st->q_bytes = 20000000;        /* 78125 cells of 256 bytes */
	st->tx_bytes = 0x123456789ull; /* beyond 32 bits */
}

static void
test_ifa2_hop_profiles(void **state)
{
	static const uint8_t want_pcc[PCC_IFA2_HOP_LEN] = {
		0x01,
		0x23,
		0x45,
		0x40, /* LNS 0, DeviceID 0x12345, TTL 0x40 */
		0x48,
		0x01,
		0x11,
		0x70, /* 100G, Cg 2, QueueID 0, RxSec 70000 */
		0x00,
		0x02,
		0x00,
		0x01, /* egress 2, ingress 1 */
		0x07,
		0x5b,
		0xcd,
		0x15, /* RxNs 123456789 */
		0x00,
		0x00,
		0x05,
		0xdc, /* residence 1500 ns */
		0x01,
		0x31,
		0x2d,
		0x00, /* queue bytes 20000000 */
		0x00,
		0x00,
		0xff,
		0xff, /* reserved, cells (16 bits, saturated) */
		0x00,
		0x00,
		0x00,
		0x00,
	};
	static const uint8_t want_doca[PCC_IFA2_HOP_LEN] = {
		0x00, 0x04, 0x8d, 0x15, /* device 0x12345 << 2 | port type 1 */
		0x02, 0x00, 0x40, 0x00, /* congestion 2, tid 0; TX bytes hi; TTL; queue */
		0x80, 0x00, 0x00, 0x01, /* marker 0x8000, cells 31..16 */
		0x11, 0x70,             /* RX s, low 16 bits of 70000 */
		0x07, 0x5b, 0xcd, 0x15, /* RX ns */
		0x2c, 0x7e, 0x32, 0xf1, /* TX time: low 32 bits of the ns clock */
		0x31, 0x2d,             /* cells 15..0: 78125 = 0x1312d */
		0x00, 0x01, 0x00, 0x02, /* ingress 1, egress 2 */
		0x23, 0x45, 0x67, 0x89, /* TX bytes, low 32 bits */
	};
	struct sim_ifa2_stamp st;
	struct pcc_ifa2_hop hop;
	uint8_t b[PCC_IFA2_HOP_LEN];

	(void)state;
	hop_example(&st);
	sim_ifa2_hop(SIM_IFA2_PROFILE_DPDK_PCC, &st, &hop);
	assert_int_equal(pcc_ifa2_hop_build(b, sizeof(b), &hop), PCC_IFA2_HOP_LEN);
	assert_memory_equal(b, want_pcc, sizeof(b));
	sim_ifa2_hop(SIM_IFA2_PROFILE_DOCA, &st, &hop);
	assert_int_equal(pcc_ifa2_hop_build(b, sizeof(b), &hop), PCC_IFA2_HOP_LEN);
	assert_memory_equal(b, want_doca, sizeof(b));
	/* 25G is port type 0; cells saturate at 2^32 - 1 */
	st.rate_bps = 25000000000ull;
	st.q_bytes = 1ull << 40;
	sim_ifa2_hop(SIM_IFA2_PROFILE_DOCA, &st, &hop);
	assert_int_equal(pcc_ifa2_hop_build(b, sizeof(b), &hop), PCC_IFA2_HOP_LEN);
	assert_int_equal(b[3], 0x14);
	assert_memory_equal(b + 8, ((const uint8_t[]){ 0x80, 0x00, 0xff, 0xff }), 4);
	assert_memory_equal(b + 22, ((const uint8_t[]){ 0xff, 0xff }), 2);
}

static void
put16(uint8_t *p, uint64_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
put32(uint8_t *p, uint64_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

/* doc/wire.md 8.3.1, written out field by field (congestion, tid, queue 0). */
static void
doca_hop_expect(uint8_t *b, uint32_t dev, uint32_t pt, uint8_t ttl, uint64_t q_bytes,
		uint64_t rx_ns, uint64_t tx_ns, uint16_t in, uint16_t out, uint64_t tx_bytes)
{
	uint64_t cells = (q_bytes + 255) / 256;

	memset(b, 0, PCC_IFA2_HOP_LEN);
	put32(b, (uint64_t)dev << 2 | pt);
	b[6] = ttl;
	put32(b + 8, 0x80000000u | (uint32_t)(cells >> 16));
	put16(b + 12, rx_ns / 1000000000);
	put32(b + 14, rx_ns % 1000000000);
	put32(b + 18, tx_ns);
	put16(b + 22, cells);
	put16(b + 24, in);
	put16(b + 26, out);
	put32(b + 28, tx_bytes);
}

/* An IFA2 frame (RoCE data inside) of flow 0, no hops yet. */
static struct rte_mbuf *
ifa2_data(struct pcc_sim *sim)
{
	struct pcc_ifa2_hdr ih = { .ver = 2, .gns = 0xF, .max_len = 0xFF };
	struct pcc_ifa2_md_hdr md = { .hop_limit = PCC_IFA2_HOP_LIMIT_DEFAULT };
	struct rte_mbuf *m = data_pkt(sim, 0, 0, 200, PCC_ECN_ECT0, false, 0);
	uint32_t len = m->data_len;

	assert_int_equal(pcc_ifa2_insert(rte_pktmbuf_mtod(m, void *), &len,
					 m->data_len + rte_pktmbuf_tailroom(m),
					 PCC_IFA2_PROTO_DEFAULT, &ih, &md),
			0);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	return m;
}

/*
 * sw0 on the doca profile, sw1 on the default: both hops in one frame,
 * newest (sw1) first.  A 1000-byte frame ahead of it on the 10G
 * bottleneck and one behind it give sw0 a residence, a queue and TX bytes.
 */
static void
test_ifa2_profile_per_switch(void **state)
{
	struct pcc_sim *sim = sim_from("topology: {type: dumbbell, senders: 1, receivers: 1,\n"
				       "  host_link: {rate: 100G, delay: 1us}, bottleneck: {rate: "
				       "10G, delay: 1us}}\n"
				       "switch: {ifa2: true, ifa2_profiles: {sw0: doca}}\n"
				       "hosts: {np: engine}\n"
				       "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct rte_mbuf *a = udp_frame(sim, 0, 1, 1000), *b = ifa2_data(sim);
	struct rte_mbuf *c = udp_frame(sim, 0, 1, 1000), *r[4];
	uint64_t rem = 0, rem10 = 0, arr_a, arr_b, tx_b, arr_b1, len_b = b->pkt_len;
	uint8_t want[2][PCC_IFA2_HOP_LEN];
	struct pcc_ifa2_hop hop;
	struct pcc_ifa2_info ii;
	const uint8_t *f;
	unsigned int n;

	(void)state;
	arr_a = sim_ser_ns(1000, G100, &rem) + 1000;
	arr_b = arr_a + sim_ser_ns(len_b, G100, &rem);
	tx_b = arr_a + sim_ser_ns(1000, G10, &rem10); /* when a is sent */
	arr_b1 = tx_b + sim_ser_ns(len_b + PCC_IFA2_HOP_LEN, G10, &rem10) + 1000;
	assert_int_equal(pcc_sim_inject(sim, 0, a), 0);
	assert_int_equal(pcc_sim_inject(sim, 0, b), 0);
	assert_int_equal(pcc_sim_inject(sim, 0, c), 0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 1, r, 4);
	assert_int_equal(n, 3);
	f = rte_pktmbuf_mtod(r[1], const uint8_t *);
	assert_int_equal(r[1]->pkt_len, len_b + 2 * PCC_IFA2_HOP_LEN);
	assert_int_equal(pcc_ifa2_parse(f, r[1]->data_len, PCC_IFA2_PROTO_DEFAULT, &ii), 0);
	assert_int_equal(ii.n_hops, 2);
	assert_int_equal(ii.md.hop_limit, PCC_IFA2_HOP_LIMIT_DEFAULT - 2);
	/* sw1 (device 4): dpdk-pcc layout, dequeued on arrival, nothing behind */
	memset(&hop, 0, sizeof(hop));
	hop.device_id = 4;
	hop.ttl = 64;
	hop.port_speed = 4;
	hop.rx_ns = (uint32_t)arr_b1;
	hop.egress_port = 0;
	hop.ingress_port = 1;
	assert_int_equal(pcc_ifa2_hop_build(want[0], PCC_IFA2_HOP_LEN, &hop), PCC_IFA2_HOP_LEN);
	/* sw0 (device 3), 10G: port type 0, c queued behind, a sent before */
	doca_hop_expect(want[1], 3, 0, 64, 1000, arr_b, tx_b, 0, 1, 1000);
	assert_memory_equal(f + ii.stack_off, want[0], PCC_IFA2_HOP_LEN);
	assert_memory_equal(f + ii.stack_off + PCC_IFA2_HOP_LEN, want[1], PCC_IFA2_HOP_LEN);
	free_all(r, n);
	sim_free(sim);
}

/* ---- Hardware NP ------------------------------------------------------------------------- */

static void
cnp_gap_run(uint64_t gap_ns, const char *gap)
{
	char text[1024];
	struct pcc_sim *sim;
	uint64_t last[2] = { 0, 0 }, seen[2] = { 0, 0 }, t;
	struct pcc_sim_flow_stats fs;
	uint32_t i;

	snprintf(text, sizeof(text),
			DUMBBELL_2
			"duration: 500us\n"
			"switch: {ecn: {mode: step, k: 1}}\n"
			"hosts: {cnp_gap: %s}\n"
			"flows: [{src: [s0, s1], dst: r0, rate: 60G, source: model}]\n" COMMON,
			gap);
	sim = sim_from(text);
	/* watch each flow's CNP generation times (at most one per flow per 100 ns) */
	for (t = 100; t <= 500 * US; t += 100) {
		assert_true(pcc_sim_run(sim, t) >= 0);
		for (i = 0; i < 2; i++) {
			struct sim_flow *f = &sim->flows[i];

			if (f->st.cnps == seen[i])
				continue;
			if (gap_ns > 0) {
				assert_int_equal(f->st.cnps, seen[i] + 1);
				if (seen[i] > 0 && f->last_cnp_ns - last[i] < gap_ns)
					print_error("flow %u: CNPs at %" PRIu64 " and %" PRIu64
						    "\n",
							i, last[i], f->last_cnp_ns);
				if (seen[i] > 0)
					assert_true(f->last_cnp_ns - last[i] >= gap_ns);
			}
			seen[i] = f->st.cnps;
			last[i] = f->last_cnp_ns;
		}
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(pcc_sim_flow_stats_get(sim, i, &fs), 0);
		if (gap_ns > 0) {
			/* marked from the first microseconds on: one CNP per gap */
			assert_true(fs.cnps >= 500 * US / gap_ns - 1);
			assert_true(fs.cnps <= 500 * US / gap_ns + 1);
		} else {
			/* no gap: one CNP per marked packet */
			assert_int_equal(fs.cnps, fs.ce_rx);
		}
		assert_true(fs.ce_rx > 1000);
	}
	sim_free(sim);
}

static void
test_cnp_gap(void **state)
{
	(void)state;
	cnp_gap_run(50 * US, "50us");
	cnp_gap_run(20 * US, "20us");
	cnp_gap_run(0, "0");
}

static void
test_probe_response(void **state)
{
	struct pcc_sim *sim = sim_from(ONE_TO_ONE "hosts: {np_turnaround: 500ns, probe_ts_size: "
						  "16}\n"
						  "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct pcc_sim_flow_info f = flow_info(sim, 0);
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp), *r[4];
	struct pcc_sim_flow_stats fs;
	struct pcc_pkt_info info;
	struct pcc_l3_spec l3;
	struct pcc_probe p, q;
	uint64_t t, recv, send;
	unsigned int n;
	int len;

	(void)state;
	assert_non_null(m);
	l3_of(&f, PCC_ECN_NOT_ECT, &l3);
	memset(&p, 0, sizeof(p));
	p.tid = 77;
	p.flow_tag = 1234;
	p.slot = 2;
	p.req_send_ts = 5;
	len = pcc_probe_req_build(
			rte_pktmbuf_mtod(m, void *), rte_pktmbuf_tailroom(m), &l3, f.qpn, &p, NULL);
	assert_true(len > 0);
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	t = ser((uint64_t)len, G100);
	recv = 2 * (t + 1000);
	send = recv + 500;
	assert_int_equal(pcc_sim_inject(sim, 0, m), 0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 0, r, 4);
	assert_int_equal(n, 1);
	parse_ok(r[0], &info, true);
	assert_int_equal(info.kind, PCC_PKT_PROBE_RESP);
	assert_int_equal(info.dqpn, f.qpn);
	assert_int_equal(info.src.v4, f.dst_ip);
	assert_int_equal(info.dst.v4, f.src_ip);
	assert_int_equal(pcc_probe_parse(rte_pktmbuf_mtod(r[0], void *), &info, &q, NULL), 0);
	assert_int_equal(q.tid, 77);
	assert_int_equal(q.flow_tag, 1234);
	assert_int_equal(q.slot, 2);
	assert_int_equal(q.req_send_ts, 5);
	assert_int_equal(q.np_recv_ts, recv);
	assert_int_equal(q.np_send_ts, send);
	assert_int_equal(q.flags, PCC_PROBE_F_RESPONSE | PCC_PROBE_F_HW_NP);
	assert_int_equal(q.resp_ts, send & 0xFFFF);
	/* the response leaves the NP at np_send_ts */
	assert_int_equal(rx_ts(sim, r[0]), send + 2 * (ser(r[0]->pkt_len, G100) + 1000));
	assert_int_equal(pcc_sim_flow_stats_get(sim, 0, &fs), 0);
	assert_int_equal(fs.probe_req, 1);
	assert_int_equal(fs.probe_resp, 1);
	free_all(r, n);
	sim_free(sim);
}

/* An IFA2 probe request of flow idx (the engine's ifa2 format, doc/wire.md 8.7). */
static struct rte_mbuf *
ifa2_probe(struct pcc_sim *sim, uint32_t idx, const struct pcc_probe *p)
{
	struct pcc_sim_flow_info f = flow_info(sim, idx);
	struct pcc_ifa2_hdr ih = { .ver = 2, .gns = 0xF, .max_len = 248 };
	struct pcc_ifa2_md_hdr md = { .req_vector = 0xFF, .hop_limit = 0xFE };
	struct rte_mbuf *m = udp_frame(sim, f.src_host, f.dst_host, 42 + PCC_PROBE_MAD_LEN);
	uint8_t *b = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t len = m->data_len;

	put16(b + 34, f.udp_sport);
	put16(b + 36, PCC_ROCE_UDP_PORT);
	assert_int_equal(pcc_probe_mad_build(b + 42, PCC_PROBE_MAD_LEN, false, p, NULL),
			PCC_PROBE_MAD_LEN);
	assert_int_equal(pcc_ifa2_insert(b, &len, len + rte_pktmbuf_tailroom(m),
					 PCC_IFA2_PROTO_DEFAULT, &ih, &md),
			0);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	return m;
}

/*
 * The hardware NP answers an IFA2 probe request as the engine's NP does:
 * turned around with its hops, TA set, a GET_RESP with its timestamps,
 * after np_turnaround; the return path adds its hop.  IFA that is no
 * request, at a receiver without an engine port, is dropped and counted.
 */
static void
test_ifa2_hw_np(void **state)
{
	struct pcc_sim *sim = sim_from(ONE_TO_ONE "switch: {ifa2: true}\n"
						  "hosts: {np_turnaround: 500ns}\n"
						  "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct pcc_sim_flow_info fi = flow_info(sim, 0);
	struct pcc_ifa2_hop hop[2];
	struct pcc_sim_flow_stats fs;
	struct pcc_sim_stats st;
	struct pcc_pkt_info info;
	struct pcc_ifa2_info ii;
	struct rte_mbuf *m, *r[4];
	struct pcc_probe p, q;
	uint64_t len, recv, send;
	const uint8_t *f;
	unsigned int n;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.tid = 9;
	p.flow_tag = fi.qpn;
	p.req_send_ts = 5;
	m = ifa2_probe(sim, 0, &p);
	len = m->pkt_len;
	recv = ser(len, G100) + 1000 + ser(len + PCC_IFA2_HOP_LEN, G100) + 1000;
	send = recv + 500;
	assert_int_equal(pcc_sim_inject(sim, 0, m), 0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 0, r, 4);
	assert_int_equal(n, 1);
	f = rte_pktmbuf_mtod(r[0], const uint8_t *);
	parse_ok(r[0], &info, false);
	assert_int_equal(info.kind, PCC_PKT_IFA2);
	assert_int_equal(info.src.v4, fi.dst_ip);
	assert_int_equal(info.dst.v4, fi.src_ip);
	assert_int_equal(info.ttl, 64);
	assert_int_equal(pcc_ifa2_parse(f, r[0]->data_len, PCC_IFA2_PROTO_DEFAULT, &ii), 0);
	assert_int_equal(ii.hdr.flags, PCC_IFA2_F_TA);
	assert_int_equal(ii.n_hops, 2);
	assert_int_equal(pcc_ifa2_get_hop(f, r[0]->data_len, &ii, 0, &hop[0]), 0);
	assert_int_equal(pcc_ifa2_get_hop(f, r[0]->data_len, &ii, 1, &hop[1]), 0);
	/* sw0 both ways (incast: port 0 faces s0, port 1 r0); newest first */
	assert_int_equal(hop[0].device_id, 3);
	assert_int_equal(hop[0].ingress_port, 1);
	assert_int_equal(hop[0].rx_ns, send + ser(len + PCC_IFA2_HOP_LEN, G100) + 1000);
	assert_int_equal(hop[1].ingress_port, 0);
	assert_int_equal(hop[1].rx_ns, ser(len, G100) + 1000);
	assert_int_equal(pcc_probe_mad_parse(f + ii.payload_off, r[0]->data_len - ii.payload_off,
					 &q, NULL),
			PCC_PKT_PROBE_RESP);
	assert_int_equal(q.tid, 9);
	assert_int_equal(q.flow_tag, fi.qpn);
	assert_int_equal(q.req_send_ts, 5);
	assert_int_equal(q.np_recv_ts, recv);
	assert_int_equal(q.np_send_ts, send);
	assert_int_equal(q.flags, PCC_PROBE_F_RESPONSE | PCC_PROBE_F_HW_NP);
	assert_int_equal(rx_ts(sim, r[0]),
			send + ser(len + PCC_IFA2_HOP_LEN, G100) + 1000 +
					ser(len + 2 * PCC_IFA2_HOP_LEN, G100) + 1000);
	assert_int_equal(pcc_sim_flow_stats_get(sim, 0, &fs), 0);
	assert_int_equal(fs.probe_req, 1);
	assert_int_equal(fs.probe_resp, 1);
	free_all(r, n);
	/* IFA on data: r0's NP is the model and r0 has no port */
	assert_int_equal(pcc_sim_inject(sim, 0, ifa2_data(sim)), 0);
	assert_int_equal(pcc_sim_run(sim, 40 * US), 0);
	assert_int_equal(pcc_sim_stats_get(sim, &st), 0);
	assert_int_equal(st.ifa_dropped, 1);
	assert_int_equal(rx_all(sim, 0, r, 4), 0);
	sim_free(sim);
}

/* ---- ACKs ----------------------------------------------------------------------------------- */

static void
check_ack(const struct rte_mbuf *m, uint32_t qpn, uint32_t psn, uint32_t msn, bool nak)
{
	struct pcc_pkt_info info;

	parse_ok(m, &info, true);
	assert_int_equal(info.kind, nak ? PCC_PKT_ROCE_NAK : PCC_PKT_ROCE_ACK);
	assert_int_equal(info.opcode, PCC_OP_RC_ACK);
	assert_int_equal(info.dqpn, qpn);
	assert_int_equal(info.psn, psn);
	if (!nak)
		assert_int_equal(info.aeth_msn, msn);
	else
		assert_int_equal(info.aeth_syndrome, 0x60);
	assert_int_equal(info.ecn, PCC_ECN_NOT_ECT);
}

static void
test_acks(void **state)
{
	struct pcc_sim *sim;
	struct pcc_sim_flow_info f;
	struct rte_mbuf *a[32];
	uint64_t t8;
	unsigned int n, i;

	(void)state;
	/* per packet */
	sim = sim_from(ONE_TO_ONE "flows: [{src: s0, dst: r0}]\n" COMMON);
	f = flow_info(sim, 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(pcc_sim_inject(sim, 0,
						 data_pkt(sim, 0, i, 100, PCC_ECN_ECT0, false,
								 false)),
				0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 0, a, 32);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++)
		check_ack(a[i], f.qpn, i, i + 1, false);
	free_all(a, n);
	sim_free(sim);

	/* coalesced: every 4, the rest after the 10 us timeout, AckReq at once */
	sim = sim_from(ONE_TO_ONE "hosts: {ack_every: 4, ack_timeout: 10us}\n"
				  "flows: [{src: s0, dst: r0}]\n" COMMON);
	f = flow_info(sim, 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(pcc_sim_inject(sim, 0,
						 data_pkt(sim, 0, i, 100, PCC_ECN_ECT0, false,
								 false)),
				0);
	assert_int_equal(pcc_sim_run(sim, 5 * US), 0);
	n = rx_all(sim, 0, a, 32);
	assert_int_equal(n, 2);
	check_ack(a[0], f.qpn, 3, 4, false);
	check_ack(a[1], f.qpn, 7, 8, false);
	/* frame 8 reached r0 after at least the two 1 us links */
	t8 = 2 * 1000;
	free_all(a, n);
	assert_int_equal(pcc_sim_run(sim, 30 * US), 0);
	n = rx_all(sim, 0, a, 32);
	assert_int_equal(n, 1);
	check_ack(a[0], f.qpn, 9, 10, false);
	assert_true(rx_ts(sim, a[0]) >= 10 * US + t8);
	free_all(a, n);
	assert_int_equal(pcc_sim_inject(sim, 0,
					 data_pkt(sim, 0, 10, 100, PCC_ECN_ECT0, false, true)),
			0);
	assert_int_equal(pcc_sim_run(sim, 35 * US), 0);
	n = rx_all(sim, 0, a, 32);
	assert_int_equal(n, 1);
	check_ack(a[0], f.qpn, 10, 11, false);
	free_all(a, n);
	/* a PSN gap: one NAK naming the expected PSN, then the ACK (AckReq) */
	assert_int_equal(pcc_sim_inject(sim, 0,
					 data_pkt(sim, 0, 15, 100, PCC_ECN_ECT0, false, true)),
			0);
	assert_int_equal(pcc_sim_run(sim, 40 * US), 0);
	n = rx_all(sim, 0, a, 32);
	assert_int_equal(n, 2);
	check_ack(a[0], f.qpn, 11, 0, true);
	check_ack(a[1], f.qpn, 15, 12, false);
	free_all(a, n);
	sim_free(sim);
}

/* ---- Step contract ---------------------------------------------------------------------- */

static void
test_step_idle(void **state)
{
	struct pcc_sim *sim = sim_from(
			ONE_TO_ONE "duration: 1ms\n"
				   "flows:\n"
				   "  - {src: s0, dst: r0}\n"
				   "  - {src: s0, dst: r0, start: 100us, size: 1000, source: "
				   "model}\n" COMMON);
	struct rte_mbuf *m = NULL;
	uint64_t t;

	(void)state;
	/* an engine port exists: one quantum per step unless the engine is idle */
	assert_int_equal(pcc_sim_step(sim), 0);
	assert_int_equal(pcc_sim_now(sim), 250);
	assert_int_equal(pcc_sim_step(sim), 0);
	assert_int_equal(pcc_sim_now(sim), 500);
	/* idle until 50 us: jump there */
	pcc_sim_engine_idle(sim, 50 * US);
	assert_int_equal(pcc_sim_step(sim), 0);
	assert_int_equal(pcc_sim_now(sim), 50 * US);
	/* the hint is used once */
	assert_int_equal(pcc_sim_step(sim), 0);
	assert_int_equal(pcc_sim_now(sim), 50 * US + 250);
	/* idle with nothing scheduled: on through the model's events (the
	 * model flow starts at 100 us) until a frame reaches the engine's
	 * port: the ACK of the model flow's packet, one RTT later */
	pcc_sim_engine_idle(sim, UINT64_MAX);
	assert_int_equal(pcc_sim_step(sim), 0);
	t = pcc_sim_now(sim);
	assert_true(t > 100 * US + 4 * US && t < 100 * US + 5 * US);
	assert_int_equal(rx_all(sim, 0, &m, 1), 1);
	assert_int_equal(*RTE_MBUF_DYNFIELD(m, sim->ts_off, rte_mbuf_timestamp_t *), t);
	rte_pktmbuf_free(m);
	/* a deadline sooner than the quantum: one quantum */
	pcc_sim_engine_idle(sim, t + 10);
	assert_int_equal(pcc_sim_step(sim), 0);
	assert_int_equal(pcc_sim_now(sim), t + 250);
	/* the engine sent something: no jump */
	assert_int_equal(rte_ring_enqueue(sim->hosts[0].txr,
					 data_pkt(sim, 0, 0, 100, PCC_ECN_ECT0, false, false)),
			0);
	pcc_sim_engine_idle(sim, UINT64_MAX);
	assert_int_equal(pcc_sim_step(sim), 0);
	assert_int_equal(pcc_sim_now(sim), t + 500);
	assert_int_equal(sim->hosts[0].from_engine, 1);
	/* the end */
	assert_int_equal(pcc_sim_run(sim, UINT64_MAX), 1);
	assert_int_equal(pcc_sim_now(sim), 1000 * US);
	assert_int_equal(pcc_sim_step(sim), 1);
	assert_int_equal(pcc_sim_now(sim), 1000 * US);
	assert_true(pcc_sim_done(sim));
	sim_free(sim);
}

/* ---- Determinism and output ------------------------------------------------------------- */

static char *
slurp(const char *dir, const char *file, size_t *len)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void
run_to(const char *dir, uint64_t seed, char **table)
{
	static const char text[] =
			DUMBBELL_2 "duration: 300us\n"
				   "switch: {ecn: {kmin: 5KB, kmax: 200KB, pmax: 0.5}}\n"
				   "flows:\n"
				   "  - {src: s0, dst: r0, source: model}\n"
				   "  - {src: s1, dst: r0, source: model, start: 20us, size: 2MB}\n"
				   "sim: {mbufs: 4095, packets: 16383, ring_size: 1024}\n"
				   "output: {sample: 5us, progress: false, plots: false}\n";
	char err[512];
	struct pcc_sim_scenario *s;
	struct pcc_sim *sim;
	size_t len;
	FILE *mem;

	s = pcc_sim_scenario_parse(text, strlen(text), "det.yaml", err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(pcc_sim_scenario_set(s, "output.dir", dir, err, sizeof(err)), 0);
	sim = pcc_sim_create(s, seed);
	pcc_sim_scenario_free(s);
	assert_non_null(sim);
	assert_string_equal(pcc_sim_output_dir(sim), dir);
	assert_int_equal(pcc_sim_run(sim, UINT64_MAX), 1);
	mem = open_memstream(table, &len);
	assert_non_null(mem);
	assert_int_equal(pcc_sim_finish(sim, mem), 0);
	assert_int_equal(pcc_sim_finish(sim, mem), 0); /* idempotent */
	fclose(mem);
	sim_free(sim);
}

static void
test_determinism(void **state)
{
	static const char *const files[] = { "flows.csv", "queues.csv", "summary.json", "plot.gp" };
	char dir[3][128], *table[3];
	unsigned int i, k;
	bool differs = false;

	(void)state;
	for (k = 0; k < 3; k++)
		snprintf(dir[k], sizeof(dir[k]), "/tmp/pcc-sim-det-%d/run%u", (int)getpid(), k);
	run_to(dir[0], 7, &table[0]);
	run_to(dir[1], 7, &table[1]);
	run_to(dir[2], 8, &table[2]);
	for (i = 0; i < RTE_DIM(files); i++) {
		size_t la, lb, lc;
		char *a = slurp(dir[0], files[i], &la), *b = slurp(dir[1], files[i], &lb),
		     *c = slurp(dir[2], files[i], &lc);

		assert_int_equal(la, lb);
		assert_memory_equal(a, b, la);
		if (la != lc || memcmp(a, c, la) != 0)
			differs = true;
		free(a);
		free(b);
		free(c);
	}
	/* RED draws differ with the seed: marks and CE counts differ */
	assert_true(differs);
	/* the tables differ in their last line only (the output directory) */
	assert_non_null(strstr(table[0], "Output: "));
	assert_int_equal(strstr(table[0], "Output: ") - table[0],
			strstr(table[1], "Output: ") - table[1]);
	assert_memory_equal(table[0], table[1], strstr(table[0], "Output: ") - table[0]);
	assert_non_null(strstr(table[0], "Jain's fairness index (window, 2 flows)"));
	assert_non_null(strstr(table[0], "sw0->sw1"));
	{
		size_t len;
		char *csv = slurp(dir[0], "flows.csv", &len);

		assert_true(strncmp(csv, "time_us,flow,name,rate_gbps,thpt_gbps,", 38) == 0);
		/* 300 us at 5 us: 60 rows per flow, and the header */
		k = 0;
		for (i = 0; i < len; i++)
			k += csv[i] == '\n';
		assert_int_equal(k, 1 + 60 * 2);
		free(csv);
	}
	for (k = 0; k < 3; k++)
		free(table[k]);
}

static void
test_stats_api(void **state)
{
	struct pcc_sim *sim = sim_from(ONE_TO_ONE
			"hosts: {np: engine}\n"
			"flows: [{src: s0, dst: r0, rate: 40G, payload: 2000}]\n" COMMON);
	struct pcc_sim_port_info pi;
	struct pcc_sim_flow_info fi;
	struct pcc_sim_link_stats ls;
	const struct pcc_sim_algo *algos;

	(void)state;
	assert_int_equal(pcc_sim_port_count(sim), 2);
	assert_int_equal(pcc_sim_port_info_get(sim, 0, &pi), 0);
	assert_string_equal(pi.host_name, "s0");
	assert_int_equal(pi.roles, PCC_SIM_ROLE_RP);
	assert_int_equal(pi.line_rate_bps, G100);
	assert_int_equal(pi.ipv4, 0x0A010001);
	assert_non_null(strstr(pi.dev_name, "net_ring_sim"));
	assert_int_equal(pcc_sim_port_info_get(sim, 1, &pi), 0);
	assert_string_equal(pi.host_name, "r0");
	assert_int_equal(pi.roles, PCC_SIM_ROLE_NP);
	assert_int_equal(pcc_sim_port_info_get(sim, 2, &pi), -ENOENT);
	fi = flow_info(sim, 0);
	assert_int_equal(fi.src_port_id, sim->hosts[0].eth_port);
	assert_int_equal(fi.dst_port_id, sim->hosts[1].eth_port);
	assert_int_equal(fi.udp_sport, pcc_roce_udp_sport(fi.qpn, fi.dst_qpn));
	assert_int_equal(fi.rate_bps, 40000000000ull);
	assert_int_equal(fi.payload_len, 2000);
	assert_int_equal(pcc_sim_host_find(sim, "r0"), 1);
	assert_int_equal(pcc_sim_host_find(sim, "r1"), -ENOENT);
	assert_int_equal(pcc_sim_algos(sim, &algos), 0);
	assert_int_equal(pcc_sim_link_count(sim), 4);
	assert_int_equal(pcc_sim_link_stats_get(sim, 0, &ls), 0);
	assert_string_equal(ls.name, "s0->sw0");
	assert_int_equal(pcc_sim_link_stats_get(sim, 4, &ls), -ENOENT);
	assert_true(pcc_sim_mbufs_hint(sim) > 32000000 / 2078);
	sim_free(sim);
}

static int
group_setup(void **state)
{
	(void)state;
	rte_openlog_stream(stderr);
	if (test_eal_init("test_sim_model", "512", "--log-level", "pcc.sim:warning", NULL) < 0)
		return -1;
	mp = rte_pktmbuf_pool_create("test_mp", 4095, 0, 0, 4096, (int)rte_socket_id());
	return mp == NULL ? -1 : 0;
}

static int
group_teardown(void **state)
{
	char cmd[128];

	(void)state;
	rte_mempool_free(mp);
	test_eal_cleanup();
	snprintf(cmd, sizeof(cmd), "rm -rf /tmp/pcc-sim-det-%d", (int)getpid());
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_timing),
		cmocka_unit_test(test_icrc_patch),
		cmocka_unit_test(test_model_source),
		cmocka_unit_test(test_queue_buildup_drain),
		cmocka_unit_test(test_red_probability),
		cmocka_unit_test(test_step_marking),
		cmocka_unit_test(test_buffer_drops),
		cmocka_unit_test(test_ecmp),
		cmocka_unit_test(test_int_stamping),
		cmocka_unit_test(test_ifa2_stamping),
		cmocka_unit_test(test_ifa2_hop_profiles),
		cmocka_unit_test(test_ifa2_profile_per_switch),
		cmocka_unit_test(test_cnp_gap),
		cmocka_unit_test(test_probe_response),
		cmocka_unit_test(test_ifa2_hw_np),
		cmocka_unit_test(test_acks),
		cmocka_unit_test(test_step_idle),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_stats_api),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
