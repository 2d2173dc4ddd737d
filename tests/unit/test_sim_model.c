/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the simulator's model (drivers/sim), without the engine:
 * link serialization timing and its fractional carry (and a frame that
 * leaves an empty queue without an end-of-transmission event), queue
 * build-up and drain, RED marking probability against Pmax(q - Kmin)/
 * (Kmax - Kmin) (fixed seed; 200 000 draws per point, tolerance 0.005
 * absolute, about 7 standard deviations), step marking, shared-buffer and
 * per-port drops (counted, packets conserved), ECMP spreading over spines
 * by UDP source port without reordering, the idle/jump contract of the
 * step function, and determinism of the output files (same seed:
 * identical bytes; another seed: different).  What the fabric writes
 * into frames and what receivers answer is test_sim_np.c.  Virtual time
 * only.
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

#include "test_sim_pkt.h"

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

/* A simulator from a scenario's text, writing its files into dir. */
static struct pcc_sim *
sim_to_dir(const char *text, const char *dir, uint64_t seed)
{
	struct pcc_sim_scenario *s;
	struct pcc_sim *sim;
	char err[512];

	s = pcc_sim_scenario_parse(text, strlen(text), "out.yaml", err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(pcc_sim_scenario_set(s, "output.dir", dir, err, sizeof(err)), 0);
	sim = pcc_sim_create(s, seed);
	pcc_sim_scenario_free(s);
	assert_non_null(sim);
	return sim;
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
	struct pcc_sim *sim = sim_to_dir(text, dir, seed);
	size_t len;
	FILE *mem;

	assert_string_equal(pcc_sim_output_dir(sim), dir);
	assert_int_equal(pcc_sim_run(sim, UINT64_MAX), 1);
	mem = open_memstream(table, &len);
	assert_non_null(mem);
	assert_int_equal(pcc_sim_finish(sim, mem), 0);
	assert_int_equal(pcc_sim_finish(sim, mem), 0); /* idempotent */
	fclose(mem);
	sim_free(sim);
}

/*
 * A sample at the very nanosecond a frame with no end event ends counts
 * it when that end event would have run first: here it would have been
 * queued at the frame's start, 800 ns before, the sample's 100 ns before.
 */
static void
test_sample_at_frame_end(void **state)
{
	static const char text[] =
			"topology: {type: incast, senders: 1, host_link: {rate: 10G, delay: 1us}}\n"
			"duration: 5us\n"
			"hosts: {np: engine, np_rx: all}\n"
			"flows: [{src: s0, dst: r0}]\n"
			"sim: {mbufs: 4095, packets: 16383, ring_size: 1024}\n"
			"output: {sample: 100ns, progress: false, plots: false}\n";
	struct pcc_sim *sim;
	char dir[128], *csv;
	size_t len;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/pcc-sim-det-%d/edge", (int)getpid());
	sim = sim_to_dir(text, dir, PCC_SIM_SEED_SCENARIO);
	/* 1000 B at 10G: 800 ns a link; the switch sends it 1800 .. 2600 ns */
	assert_int_equal(pcc_sim_inject(sim, 0, udp_frame(sim, 0, 1, 1000)), 0);
	assert_int_equal(pcc_sim_run(sim, 5 * US), 1);
	assert_int_equal(pcc_sim_finish(sim, NULL), 0);
	sim_free(sim);
	csv = slurp(dir, "queues.csv", &len);
	csv = realloc(csv, len + 1);
	assert_non_null(csv);
	csv[len] = '\0';
	/* 8000 bits over the 100 ns sample ending at 2.6 us, none before */
	assert_non_null(strstr(csv, "\n2.500,1,sw0->r0,0,0,0.000,"));
	assert_non_null(strstr(csv, "\n2.600,1,sw0->r0,0,0,80.000,"));
	assert_non_null(strstr(csv, "\n2.700,1,sw0->r0,0,0,0.000,"));
	free(csv);
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
	return sim_pkt_setup("test_sim_model");
}

static int
group_teardown(void **state)
{
	char cmd[128];

	(void)state;
	sim_pkt_teardown();
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
		cmocka_unit_test(test_step_idle),
		cmocka_unit_test(test_sample_at_frame_end),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_stats_api),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
