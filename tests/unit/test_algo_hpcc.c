/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the hpcc algorithm against REFERENCE section 3 (eta 0.95,
 * maxStage 5, R_AI 40 Mb/s at 100G, T = base_rtt_ns): the per-hop
 * utilisation u = txRate / B + min(qlen, qlen_prev) / (B T) and the
 * multiplicative update Rc / (U / eta) + R_AI, additive stages, the
 * per-RTT commit of Rc with R applied on every ACK, 24/20-bit counter
 * wrap, several hops, the clamps, new flows, and a closed loop: two flows
 * on one 100G link whose INT is synthesised from a fluid queue settle at
 * U = eta R / (R - R_AI) ~ 0.951 of the link, ~47.5 Gb/s each, with a
 * small queue.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pcc_proto_tlm.h>

#include "test_algo_common.h"

#define T_NS 10000u /* base_rtt_ns default */
#define RAI 419u    /* 40 Mb/s at 100G, floor(40 * 2^20 / 100000) */
#define MIN_RATE 1048u
#define ETA (62259 / 65536.0)
#define CTX_WORDS (128 / 8)

static int
setup(void **state)
{
	(void)state;
	if (t_setup_algo("hpcc") != 0)
		return -1;
	pcc_dev_counters_enable(T_PORT, T_SLOT, true);
	return 0;
}

/* One 100G hop: time ns, tx bytes and qlen in INT units (128 B, 80 B). */
static void
int_set(struct pcc_int_hdr *h, uint32_t hop, uint8_t code, uint32_t time_ns, uint32_t bytes_u,
		uint32_t qlen_u)
{
	if (h->n_hops < hop + 1)
		h->n_hops = (uint16_t)(hop + 1);
	h->hop[hop].rate_code = code;
	h->hop[hop].time_ns = time_ns & 0xFFFFFF;
	h->hop[hop].tx_bytes = bytes_u & 0xFFFFF;
	h->hop[hop].qlen = qlen_u;
}

static struct pcc_int_hdr
int1(uint32_t time_ns, uint32_t bytes_u, uint32_t qlen_u)
{
	struct pcc_int_hdr h;

	memset(&h, 0, sizeof(h));
	int_set(&h, 0, PCC_INT_RATE_100G, time_ns, bytes_u, qlen_u);
	return h;
}

/* u of a 100G hop over dt ns: db 128-byte units sent, queue q 80-byte units */
static double
u_of(uint32_t db, uint32_t dt, uint32_t q, double t)
{
	return db * 128.0 * 8 / (dt * 100.0) + q * 80.0 * 8 / (100.0 * t);
}

/*
 * A flow whose hop reports utilisation u on every ACK, each ACK one T
 * after the previous (so U = u exactly): tx units per T and queue.
 */
struct feed {
	uint32_t ts, time, bytes, q, db;
};

static struct pcc_dev_results
feed_ack(uint64_t *ctx, struct feed *fd, uint32_t psn, uint32_t dt)
{
	struct pcc_int_hdr h;

	fd->ts += dt;
	fd->time += dt;
	fd->bytes += fd->db;
	h = int1(fd->time, fd->bytes, fd->q);
	return t_ack(ctx, fd->ts, psn, &h);
}

static void
test_new_flow(void **state)
{
	uint64_t ctx[CTX_WORDS] = { 0 };
	struct pcc_int_hdr h = int1(5000, 100, 0);
	struct pcc_dev_results r;

	(void)state;
	assert_int_equal(pcc_algo_hpcc_ops.ctx_size, 128);
	assert_true(pcc_algo_hpcc_ops.ctx_size <= PCC_DEV_CTX_MAX);
	r = t_ack(ctx, 1000, 0, NULL);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE); /* line rate, no INT: ignored */
	assert_int_equal(t_counter_by_name("acks_no_int"), 1);
	r = t_ack(ctx, 2000, 1, &h); /* first INT: stored only */
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	assert_int_equal(t_counter_by_name("acks_int"), 1);
	assert_int_equal(t_counter_by_name("commits"), 0);
}

static void
test_multiplicative_update(void **state)
{
	uint64_t ctx[CTX_WORDS] = { 0 };
	struct feed fd = { .ts = 1000, .time = 77, .bytes = 3, .q = 1406, .db = 976 };
	struct pcc_dev_results r;
	double u, expect;

	(void)state;
	t_tx(ctx, 900, 999, 1024); /* snd_nxt 1000 */
	feed_ack(ctx, &fd, 0, 0);
	/* one T later: 976 units = 124928 B in 10 us (0.9994 of 100G) and a
	 * standing queue of 1406 units (112480 B, 0.9 B T): u = 1.899 */
	r = feed_ack(ctx, &fd, 1000, T_NS);
	u = u_of(976, T_NS, 1406, T_NS);
	assert_near(u, 1.9, 1e-3);
	expect = T_MAX_RATE * ETA / u + RAI;
	assert_near(r.rate, expect, 2.0);
	assert_near(t_frac(r.rate), 0.5, 1e-3);
	assert_int_equal(t_counter_by_name("commits"), 1);
	assert_int_equal(t_counter_by_name("commit_md"), 1);
	assert_near(t_counter_by_name("u_max") / 65536.0, u, 1e-3);
}

static void
test_per_rtt_commit(void **state)
{
	uint64_t ctx[CTX_WORDS] = { 0 };
	struct feed fd = { .ts = 1000, .time = 0, .bytes = 0, .q = 1406, .db = 976 };
	struct pcc_dev_results r;
	double u = u_of(976, T_NS, 1406, T_NS), r1, r2;

	(void)state;
	t_tx(ctx, 900, 99, 1024); /* snd_nxt 100 */
	feed_ack(ctx, &fd, 0, 0); /* window until PSN 100 */
	t_tx(ctx, 1100, 199, 1024);
	r1 = T_MAX_RATE * ETA / u + RAI;
	/* before the window ends: R from the committed Rc = line rate on
	 * every ACK, not compounding */
	r = feed_ack(ctx, &fd, 50, T_NS);
	assert_near(r.rate, r1, 2.0);
	r = feed_ack(ctx, &fd, 60, T_NS);
	assert_near(r.rate, r1, 2.0);
	assert_int_equal(t_counter_by_name("commits"), 0);
	/* PSN 100 reached: commit Rc = R, next window until PSN 200 */
	r = feed_ack(ctx, &fd, 100, T_NS);
	assert_near(r.rate, r1, 2.0);
	assert_int_equal(t_counter_by_name("commits"), 1);
	r1 = r.rate;
	r2 = r1 * ETA / u + RAI;
	r = feed_ack(ctx, &fd, 150, T_NS);
	assert_near(r.rate, r2, 2.0);
	r = feed_ack(ctx, &fd, 199, T_NS);
	assert_near(r.rate, r2, 2.0);
	r = feed_ack(ctx, &fd, 200, T_NS);
	assert_near(r.rate, r2, 2.0);
	assert_int_equal(t_counter_by_name("commits"), 2);

	/* fast_react 0: nothing between commits */
	assert_int_equal(t_param("fast_react", 0), 0);
	memset(ctx, 0, sizeof(ctx));
	fd.ts = 1000;
	t_tx(ctx, 900, 99, 1024);
	feed_ack(ctx, &fd, 0, 0);
	r = feed_ack(ctx, &fd, 50, T_NS);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	r = feed_ack(ctx, &fd, 100, T_NS);
	assert_near(r.rate, T_MAX_RATE * ETA / u + RAI, 2.0);
}

static void
test_additive_stages(void **state)
{
	uint64_t ctx[CTX_WORDS] = { 0 };
	struct feed fd = { .ts = 1000, .time = 0, .bytes = 0, .q = 1406, .db = 976 };
	struct pcc_dev_results r;
	uint32_t psn = 0, rc, k;
	double u;

	(void)state;
	/* no TX events: commits once per T of event time */
	feed_ack(ctx, &fd, psn++, 0);
	r = feed_ack(ctx, &fd, psn++, T_NS); /* u = 1.9: MD to ~0.5, stage 0 */
	rc = r.rate;
	/* U = 0.5 (488 units per T, no queue) < eta: +R_AI per commit,
	 * max_stage 5 times, then Rc / (U / eta) + R_AI */
	fd.q = 0;
	fd.db = 488;
	for (k = 1; k <= 5; k++) {
		r = feed_ack(ctx, &fd, psn++, T_NS);
		assert_int_equal(r.rate, rc + k * RAI);
	}
	assert_int_equal(t_counter_by_name("commit_ai"), 5);
	u = u_of(488, T_NS, 0, T_NS);
	r = feed_ack(ctx, &fd, psn++, T_NS);
	assert_near(r.rate, (rc + 5 * RAI) * ETA / u + RAI, 2.0);
	/* max_stage 0: every commit multiplicative */
	assert_int_equal(t_param("max_stage", 0), 0);
	rc = r.rate;
	r = feed_ack(ctx, &fd, psn++, T_NS);
	assert_near(r.rate, fmin(rc * ETA / u + RAI, T_MAX_RATE), 2.0);
}

static void
test_time_commit(void **state)
{
	uint64_t ctx[CTX_WORDS] = { 0 };
	struct feed fd = { .ts = 1000, .time = 0, .bytes = 0, .q = 1406, .db = 488 };
	struct pcc_dev_results r;

	(void)state;
	/* no TX events: a window is T of event time */
	feed_ack(ctx, &fd, 0, 0);
	feed_ack(ctx, &fd, 1, T_NS / 2);
	assert_int_equal(t_counter_by_name("commits"), 0);
	r = feed_ack(ctx, &fd, 2, T_NS / 2);
	assert_int_equal(t_counter_by_name("commits"), 1);
	assert_true(r.rate < PCC_DEV_MAX_RATE);
	feed_ack(ctx, &fd, 3, T_NS - 1);
	assert_int_equal(t_counter_by_name("commits"), 1);
	feed_ack(ctx, &fd, 4, 1);
	assert_int_equal(t_counter_by_name("commits"), 2);
}

static void
test_wrap_and_hops(void **state)
{
	uint64_t ctx[CTX_WORDS] = { 0 };
	struct pcc_int_hdr h;
	struct pcc_dev_results r;

	(void)state;
	/* T = 512 ns so that one ACK 512 ns later sets U = u */
	assert_int_equal(t_param("base_rtt_ns", 512), 0);
	h = int1(0xFFFF00, 0xFFFF0, 0);
	t_ack(ctx, 1000, 0, &h);
	/* time wraps 0xFFFF00 -> 0x100 (512 ns), bytes 0xFFFF0 -> 0x22
	 * (50 units = 6400 B): 6400 B in 512 ns = 100 Gb/s, u = 1.0 */
	h = int1(0x000100, 0x00022, 0);
	r = t_ack(ctx, 1512, 1, &h);
	assert_near(r.rate, T_MAX_RATE * ETA / 1.0 + RAI, 2.0);

	/* two hops: the most utilised one (a 400G hop at u = 0.25 and a 25G
	 * hop at u = 2.0) decides */
	memset(ctx, 0, sizeof(ctx));
	memset(&h, 0, sizeof(h));
	int_set(&h, 0, PCC_INT_RATE_400G, 0, 0, 0);
	int_set(&h, 1, PCC_INT_RATE_25G, 0, 0, 0);
	t_ack(ctx, 1000, 0, &h);
	int_set(&h, 0, PCC_INT_RATE_400G, 512, 50, 0); /* 100G of 400G */
	int_set(&h, 1, PCC_INT_RATE_25G, 512, 25, 0);  /* 50G of 25G */
	r = t_ack(ctx, 1512, 1, &h);
	assert_near(r.rate, T_MAX_RATE * ETA / 2.0 + RAI, 2.0);
	/* a path change (hop count) restarts from stored values */
	h.n_hops = 1;
	r = t_ack(ctx, 2024, 2, &h);
	assert_near(r.rate, T_MAX_RATE * ETA / 2.0 + RAI, 2.0);
}

static void
test_clamps(void **state)
{
	uint64_t ctx[CTX_WORDS] = { 0 };
	struct feed fd = { .ts = 1000, .time = 0, .bytes = 0, .q = 0x1FFFF, .db = 976 };
	struct pcc_dev_results r;
	uint32_t psn = 0, k;

	(void)state;
	/* a saturated queue: down to the min rate, never below */
	feed_ack(ctx, &fd, psn++, 0);
	for (k = 0; k < 20; k++) {
		r = feed_ack(ctx, &fd, psn++, T_NS);
		assert_true(r.rate >= MIN_RATE);
	}
	assert_int_equal(r.rate, MIN_RATE);
	assert_int_equal(t_counter_by_name("rate_min"), MIN_RATE);
	/* an idle link (U -> 0) with max_stage 0: up to line rate, not above */
	assert_int_equal(t_param("max_stage", 0), 0);
	fd.q = 0;
	fd.db = 0;
	for (k = 0; k < 40; k++) {
		r = feed_ack(ctx, &fd, psn++, T_NS);
		assert_true(r.rate <= PCC_DEV_MAX_RATE);
	}
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
}

/* ---- closed loop: two flows, one 100G link ---------------------------- */

#define CL_STEP 1000u     /* ns per simulation step, one ACK per flow */
#define CL_STEPS 40000u   /* 40 ms */
#define CL_MEASURE 20000u /* average over the last 20 ms */
#define CL_INT_DELAY 5u   /* INT sampled half a base RTT before the ACK */
#define CL_ACK_DELAY 10u  /* ACK covers data sent one base RTT before */
#define CL_BYTES 12500.0  /* link bytes per step at 100G */
#define CL_MTU 1000.0

struct cl_link {
	uint32_t time;
	uint64_t tx;
	double q;
};

static void
test_two_flow_equilibrium(void **state)
{
	uint64_t ctx[2][CTX_WORDS];
	struct cl_link *hist = calloc(CL_STEPS, sizeof(*hist));
	uint32_t *psn_hist[2];
	uint32_t rate[2] = { PCC_DEV_MAX_RATE, PCC_DEV_MAX_RATE };
	double psn[2] = { 0, 0 }, q = 0, sum[2] = { 0, 0 }, qsum = 0, total, u_pred, r_avg;
	uint64_t tx = 0;
	uint32_t k, i, now;
	struct pcc_int_hdr h;
	struct pcc_dev_results r;

	(void)state;
	assert_non_null(hist);
	memset(ctx, 0, sizeof(ctx));
	for (i = 0; i < 2; i++) {
		psn_hist[i] = calloc(CL_STEPS, sizeof(uint32_t));
		assert_non_null(psn_hist[i]);
	}
	for (k = 0; k < CL_STEPS; k++) {
		double arrive = 0, sent;

		now = 1000000u + k * CL_STEP;
		for (i = 0; i < 2; i++)
			arrive += rate[i] / T_MAX_RATE * CL_BYTES;
		q += arrive;
		sent = q < CL_BYTES ? q : CL_BYTES;
		q -= sent;
		tx += (uint64_t)(sent + 0.5);
		hist[k].time = now;
		hist[k].tx = tx;
		hist[k].q = q;
		for (i = 0; i < 2; i++) {
			psn[i] += rate[i] / T_MAX_RATE * CL_BYTES / CL_MTU;
			psn_hist[i][k] = (uint32_t)psn[i] & 0xFFFFFF;
			r = t_tx(ctx[i], now, (psn_hist[i][k] - 1) & 0xFFFFFF, 1000);
			if (k >= CL_ACK_DELAY) {
				const struct cl_link *l = &hist[k - CL_INT_DELAY];
				double qu = l->q / 80.0;

				h = int1(l->time, (uint32_t)(l->tx / 128),
						qu > 0x1FFFF ? 0x1FFFF : (uint32_t)qu);
				r = t_ack(ctx[i], now, psn_hist[i][k - CL_ACK_DELAY], &h);
			}
			rate[i] = r.rate;
			if (k >= CL_STEPS - CL_MEASURE)
				sum[i] += t_frac(rate[i]);
		}
		if (k >= CL_STEPS - CL_MEASURE)
			qsum += q;
	}
	sum[0] /= CL_MEASURE;
	sum[1] /= CL_MEASURE;
	total = sum[0] + sum[1];
	r_avg = total / 2;
	u_pred = ETA * r_avg / (r_avg - RAI / T_MAX_RATE);
	print_message("# hpcc closed loop: %.4f + %.4f = %.4f of 100G (predicted %.4f), "
		      "mean queue %.0f B\n",
			sum[0], sum[1], total, u_pred, qsum / CL_MEASURE);
	/* REFERENCE: 95.1 +- 0.5 % of C, ~47.5 Gb/s each, small queue */
	assert_near(total, 0.951, 0.005);
	assert_near(sum[0], 0.4755, 0.005);
	assert_near(sum[1], 0.4755, 0.005);
	assert_near(u_pred, 0.951, 0.001);
	assert_true(qsum / CL_MEASURE < 2 * CL_MTU);
	free(hist);
	free(psn_hist[0]);
	free(psn_hist[1]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_flow, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_multiplicative_update, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_per_rtt_commit, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_additive_stages, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_time_commit, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_wrap_and_hops, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_clamps, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_two_flow_equilibrium, setup, t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
