/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the dcqcn algorithm against REFERENCE section 3: halving
 * on the first CNP (alpha = 1), fast recovery to 0.75 / 0.875 / 0.9375 /
 * 0.969 / 0.984 of the old rate after 1..5 increase steps, additive and
 * hyper increase, alpha half-life of 177 updates at g = 1/256, decrease
 * RC (1 - alpha / 2), the target rate clamp (RT = RC on a cut only after
 * an increase, or on every cut), at most one decrease per t_dec, the byte counter,
 * timers driven by event timestamps and by TIMER events alike, and the
 * clamps at min rate and line rate, and increase steps applied at once
 * equal to the same steps one at a time, and a flow at line rate whose
 * cut took nothing taking one step back.  Events go through
 * pcc_dev_dispatch(), but in one case that calls on_event with an attr
 * of its own (the counters without the dispatch's pointer).
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_common.h>

#include <pcc_dev_svc.h>

#include "test_algo_common.h"

#define T_INC US(300)
#define HALF (PCC_DEV_MAX_RATE / 2)
/* 20 Mb/s, 200 Mb/s, 1 Gb/s at 100G, 20-bit fixed point (floor) */
#define RAI 209u
#define RHAI 2097u
#define MIN_RATE 10485u

static int
setup(void **state)
{
	(void)state;
	if (t_setup_algo("dcqcn") != 0)
		return -1;
	pcc_dev_counters_enable(T_PORT, T_SLOT, true);
	return 0;
}

static void
test_new_flow(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;

	(void)state;
	assert_int_equal(pcc_algo_dcqcn_ops.ctx_size, PCC_DEV_CTX_SIZE);
	r = t_tx(ctx, 1000, 0, 4096);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE); /* new flows at line rate */
	assert_int_equal(r.rtt_req, 0);
	assert_int_equal(r.window, 0);
	/* no CNP: timers idle, the rate stays */
	r = t_tx(ctx, 1000 + US(10000), 1, 4096);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	r = t_cnp(ctx, 1000 + US(10001));
	assert_int_equal(r.rate, HALF); /* alpha = 1 on the first CNP */
	assert_int_equal(t_counter_by_name("cnp_events"), 1);
	assert_int_equal(t_counter_by_name("rate_dec"), 1);
	assert_int_equal(t_counter_by_name("rate_min"), HALF);
}

static void
test_fast_recovery_line_rate(void **state)
{
	static const double expect[5] = { 0.75, 0.875, 0.9375, 0.969, 0.984 };
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t t0 = 5000;
	int k;

	(void)state;
	/* defaults (F = 1): at line rate RT stays clamped at line rate, so
	 * AI/HAI steps are fast recovery steps too */
	t_tx(ctx, t0 - 100, 0, 4096);
	r = t_cnp(ctx, t0);
	assert_int_equal(r.rate, HALF);
	for (k = 1; k <= 5; k++) {
		/* nothing before the period ends */
		r = t_timer(ctx, t0 + (uint32_t)k * T_INC - 1);
		assert_near(t_frac(r.rate), 1.0 - ldexp(1.0, -k), 1e-6);
		r = t_timer(ctx, t0 + (uint32_t)k * T_INC);
		assert_near(t_frac(r.rate), 1.0 - ldexp(1.0, -(k + 1)), 1e-6);
		assert_near(t_frac(r.rate), expect[k - 1], 5e-4);
	}
}

static void
test_fast_recovery_f5(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t t0 = 5000, old, rc, rt;
	int k;

	(void)state;
	assert_int_equal(t_param("fast_recovery_steps", 5), 0);
	/* the first CNP scales to half line rate, then halves (alpha = 1):
	 * the old rate of the halving is HALF, not line rate */
	assert_int_equal(t_param("rate_first_cnp", 32768), 0);
	t_tx(ctx, t0 - 100, 0, 4096);
	r = t_cnp(ctx, t0);
	old = HALF;
	assert_int_equal(r.rate, old / 2);
	for (k = 1; k <= 5; k++) {
		r = t_tx(ctx, t0 + (uint32_t)k * T_INC, (uint32_t)k, 4096);
		assert_near(r.rate / (double)old, 1.0 - ldexp(1.0, -(k + 1)), 2e-6);
	}
	/* stage 5 = F: additive increase; then hyper increase */
	rc = r.rate;
	rt = old + RAI;
	rc = (rc + rt + 1) / 2;
	r = t_tx(ctx, t0 + 6 * T_INC, 6, 4096);
	assert_int_equal(r.rate, rc);
	rt += RHAI;
	rc = (rc + rt + 1) / 2;
	r = t_tx(ctx, t0 + 7 * T_INC, 7, 4096);
	assert_int_equal(r.rate, rc);
	assert_int_equal(t_counter_by_name("inc_fast_recovery"), 5);
	assert_int_equal(t_counter_by_name("inc_additive"), 1);
	assert_int_equal(t_counter_by_name("inc_hyper"), 1);
}

static void
test_ai_hai_default_f(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t t0 = 5000, rc, rt;
	int k;

	(void)state;
	assert_int_equal(t_param("rate_first_cnp", 32768), 0);
	t_tx(ctx, t0 - 100, 0, 4096);
	r = t_cnp(ctx, t0);
	rc = HALF / 2;
	rt = HALF;
	assert_int_equal(r.rate, rc);
	/* F = 1: one fast recovery step, one additive, then hyper */
	for (k = 1; k <= 6; k++) {
		if (k == 2)
			rt += RAI;
		else if (k > 2)
			rt += RHAI;
		rc = (rc + rt + 1) / 2;
		r = t_timer(ctx, t0 + (uint32_t)k * T_INC);
		assert_int_equal(r.rate, rc);
	}
	/* several periods elapsed before one event: all steps applied */
	for (k = 7; k <= 9; k++) {
		rt += RHAI;
		rc = (rc + rt + 1) / 2;
	}
	r = t_tx(ctx, t0 + 9 * T_INC + 5, 1, 4096);
	assert_int_equal(r.rate, rc);
}

/*
 * The target rate on back-to-back cuts.  Rule of Mellanox firmware and
 * the HPCC reference (CLAMP_TARGET_RATE 0, the default): a cut sets RT =
 * RC only if an increase step raised the rate since the last cut; the
 * paper's text (clamp_target_rate 1): on every cut.  The target is read
 * back through the next fast recovery step, RC' = (RC + RT) / 2.
 */
static uint32_t
target_after(uint64_t *ctx, uint32_t t_cut, uint32_t *rc_out)
{
	struct pcc_dev_results r;
	uint32_t rc;

	r = t_cnp(ctx, t_cut);
	rc = r.rate;
	*rc_out = rc;
	r = t_timer(ctx, t_cut + T_INC);
	/* rc' = (rc + rt + 1) >> 1: 2 rc' - rc is rt or rt + 1 */
	return 2 * r.rate - rc;
}

static void
clamp_sequence(uint32_t clamp)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t t0 = 5000, rt, rc1, rc2, rc3;

	assert_int_equal(t_param("clamp_target_rate", clamp), 0);
	t_tx(ctx, t0 - 100, 0, 4096);
	/* first CNP: RT = RC = line rate, then the cut halves RC */
	r = t_cnp(ctx, t0);
	rc1 = r.rate;
	assert_int_equal(rc1, HALF);
	/* a second cut one t_dec later, no increase in between */
	rt = target_after(ctx, t0 + US(4), &rc2);
	assert_true(rc2 < rc1);
	if (clamp)
		assert_true(rt == rc1 || rt == rc1 + 1); /* RT = the RC before the cut */
	else
		assert_true(rt == PCC_DEV_MAX_RATE || rt == PCC_DEV_MAX_RATE + 1); /* kept */
	/* an increase step happened (the fast recovery step above): the next
	 * cut sets RT = RC in both modes */
	rc3 = (rc2 + rt + 1) >> 1;
	rt = target_after(ctx, t0 + US(4) + T_INC + US(4), &rc1);
	assert_true(rt == rc3 || rt == rc3 + 1);
	assert_int_equal(t_counter_by_name("rate_dec"), 3);
}

static void
test_clamp_target_reference(void **state)
{
	(void)state;
	clamp_sequence(0);
}

static void
test_clamp_target_paper(void **state)
{
	(void)state;
	clamp_sequence(1);
}

/* alpha after k alpha periods without CNP following a first CNP,
 * measured through the decrease factor of a second CNP */
static double
alpha_after(uint32_t k, int timer_events)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t t0 = 7000, i;

	t_tx(ctx, t0 - 100, 0, 4096);
	r = t_cnp(ctx, t0);
	assert_int_equal(r.rate, HALF);
	if (timer_events)
		for (i = 1; i <= k; i++)
			t_timer(ctx, t0 + i * US(1));
	r = t_cnp(ctx, t0 + k * US(1) + 500);
	return 2.0 * (1.0 - r.rate / (double)HALF);
}

static void
test_alpha_half_life(void **state)
{
	double a, prev = 1.0, a_timer;
	uint32_t k, half_life = 0;

	(void)state;
	for (k = 150; k <= 200; k++) {
		a = alpha_after(k, 0);
		/* decreasing, and the ideal (1 - 1/256)^k to 0.2% */
		assert_true(a < prev);
		assert_near(a, pow(255.0 / 256.0, k), 1e-5);
		if (half_life == 0 && a <= 0.5)
			half_life = k;
		prev = a;
	}
	/* ln 2 / -ln(1 - 1/256) = 177.1: 0.5002 after 177, 0.4982 after 178 */
	assert_true(half_life >= 176 && half_life <= 178); /* 177 +- 1 */
	assert_int_equal(half_life, 178);
	/* the same with one TIMER event per period */
	a = alpha_after(177, 0);
	a_timer = alpha_after(177, 1);
	assert_near(a_timer, a, 1e-5);
	assert_near(a, pow(255.0 / 256.0, 177), 1e-5); /* 0.5002 */
}

static void
test_alpha_cnp_period(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t t0 = 7000, rc1;
	double g = 1.0 / 256, a177, a181;

	(void)state;
	t_tx(ctx, t0 - 100, 0, 4096);
	t_cnp(ctx, t0);
	/* decrease with alpha after 177 periods: RC (1 - alpha / 2) */
	r = t_cnp(ctx, t0 + US(177) + 500);
	a177 = 2.0 * (1.0 - r.rate / (double)HALF);
	assert_near(a177, pow(1 - g, 177), 2e-3);
	rc1 = r.rate;
	/* that CNP fell in period 178: alpha = (1 - g) a + g, then 3 quiet
	 * periods; the next decrease (t_dec = 4 us later) uses it */
	r = t_cnp(ctx, t0 + US(181) + 500);
	a181 = ((1 - g) * a177 + g) * pow(1 - g, 3);
	assert_near(r.rate / (double)rc1, 1.0 - a181 / 2, 2e-5);
}

static void
test_decrease_interval(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t t0 = 9000;
	double g = 1.0 / 256, a;

	(void)state;
	t_tx(ctx, t0 - 100, 0, 4096);
	r = t_cnp(ctx, t0);
	assert_int_equal(r.rate, HALF);
	r = t_cnp(ctx, t0 + US(1)); /* within t_dec = 4 us: deferred */
	assert_int_equal(r.rate, HALF);
	r = t_tx(ctx, t0 + US(4) - 1, 1, 4096);
	assert_int_equal(r.rate, HALF);
	r = t_timer(ctx, t0 + US(4));
	/* alpha: 1 quiet period, 1 with the CNP, 2 quiet */
	a = ((1 - g) * (1 - g) + g) * (1 - g) * (1 - g);
	assert_near(r.rate / (double)HALF, 1.0 - a / 2, 2e-5);
	assert_int_equal(t_counter_by_name("rate_dec"), 2);
	assert_int_equal(t_counter_by_name("rate_dec_deferred"), 1);
	/* t_dec = 0: every CNP decreases */
	assert_int_equal(t_param("t_dec_ns", 0), 0);
	memset(ctx, 0, sizeof(ctx));
	t_cnp(ctx, t0);
	r = t_cnp(ctx, t0 + 10);
	assert_true(r.rate < HALF);
}

static void
test_byte_counter(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t t0 = 9000, i;

	(void)state;
	assert_int_equal(t_param("byte_counter_kb", 10240), 0); /* 10 MB */
	t_tx(ctx, t0 - 100, 0, 4096);
	r = t_cnp(ctx, t0);
	assert_int_equal(r.rate, HALF);
	/* 10 x 1 MiB sent within 100 us (no timer expiry) */
	for (i = 1; i < 10; i++) {
		r = t_tx(ctx, t0 + i * US(10), i, 1u << 20);
		assert_int_equal(r.rate, HALF);
	}
	r = t_tx(ctx, t0 + US(100), 10, 1u << 20);
	assert_near(t_frac(r.rate), 0.75, 1e-6);
	assert_int_equal(t_counter_by_name("inc_byte_counter"), 1);
	/* off by default: the same bytes change nothing */
	assert_int_equal(t_param("byte_counter_kb", 0), 0);
	memset(ctx, 0, sizeof(ctx));
	t_cnp(ctx, t0);
	for (i = 1; i <= 10; i++)
		r = t_tx(ctx, t0 + i * US(10), i, 1u << 20);
	assert_int_equal(r.rate, HALF);
}

static void
test_min_rate_clamp(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 9000, i;

	(void)state;
	for (i = 0; i < 200; i++) {
		ts += US(4);
		r = t_cnp(ctx, ts);
		assert_true(r.rate >= MIN_RATE);
	}
	assert_int_equal(r.rate, MIN_RATE); /* 1 Gb/s at 100G */
	assert_true(t_counter_by_name("dec_at_min_rate") > 0);
	assert_int_equal(t_counter_by_name("rate_min"), MIN_RATE);
	/* min rate follows line_rate_gbps: 1 Gb/s of 25G */
	assert_int_equal(t_param("line_rate_gbps", 25), 0);
	ts += US(4);
	r = t_cnp(ctx, ts);
	assert_int_equal(r.rate, MIN_RATE * 4 + 3); /* floor(1000 * 2^20 / 25000) */
}

static void
test_line_rate_clamp(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t t0 = 9000, k;

	(void)state;
	t_cnp(ctx, t0);
	for (k = 1; k <= 40; k++) {
		r = t_timer(ctx, t0 + k * T_INC);
		assert_true(r.rate <= PCC_DEV_MAX_RATE);
	}
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	/* one event after 100 ms of quiet: also exactly line rate */
	memset(ctx, 0, sizeof(ctx));
	t_cnp(ctx, t0);
	r = t_tx(ctx, t0 + 100000000u, 1, 4096);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	/* timestamps wrap at 2^32 ns */
	memset(ctx, 0, sizeof(ctx));
	t_cnp(ctx, UINT32_MAX - 100);
	r = t_timer(ctx, UINT32_MAX - 100 + T_INC);
	assert_near(t_frac(r.rate), 0.75, 1e-6);
}

static uint32_t fake_speed;

static uint32_t
fake_speed_gbps(void *arg, uint8_t port)
{
	(void)arg;
	(void)port;
	return fake_speed;
}

static void
test_port_speed(void **state)
{
	struct pcc_dev_nic_provider prov = { .speed_gbps = fake_speed_gbps };
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 9000, i;

	(void)state;
	/* line_rate_gbps 0 (default): the port speed, 100 when unknown */
	fake_speed = 0;
	pcc_dev_set_nic_provider(&prov);
	for (i = 0; i < 20; i++) {
		ts += US(4);
		r = t_cnp(ctx, ts);
	}
	assert_int_equal(r.rate, MIN_RATE); /* 1 Gb/s of 100G */
	/* the port comes up at 25G: rates are recomputed for it */
	fake_speed = 25;
	assert_int_equal(pcc_dev_port_info_changed(T_PORT), 0);
	ts += US(4);
	r = t_cnp(ctx, ts);
	assert_int_equal(r.rate, MIN_RATE * 4 + 3); /* 1 Gb/s of 25G */
	/* the parameter overrides the port speed */
	assert_int_equal(t_param("line_rate_gbps", 400), 0);
	ts += US(4);
	r = t_cnp(ctx, ts);
	/* min rate now 2621 (1 Gb/s of 400G): no longer clamped */
	assert_true(r.rate > 2621 && r.rate < MIN_RATE * 4 + 3);
	memset(ctx, 0, sizeof(ctx));
	for (i = 0; i < 20; i++) {
		ts += US(4);
		r = t_cnp(ctx, ts);
	}
	assert_int_equal(r.rate, 2621); /* floor(1000 * 2^20 / 400000) */
	pcc_dev_set_nic_provider(NULL);
}

static void
test_params(void **state)
{
	(void)state;
	assert_int_equal(pcc_algo_dcqcn_ops.n_params, 12);
	assert_int_equal(t_param("clamp_target_rate", 2), -ERANGE);
	assert_int_equal(t_param("g", 0), -ERANGE);
	assert_int_equal(t_param("fast_recovery_steps", 255), -ERANGE);
	assert_int_equal(t_param("t_alpha_ns", 55), -ERANGE);
	assert_int_equal(t_param("g", 1024), 0);
	assert_int_equal(pcc_dev_param_id(T_PORT, T_SLOT, "rhai_mbps"), 8);
}

/* xorshift32: the differential test's draws, the same every run */
static uint32_t jump_rng = 0x9e3779b9u;

static uint32_t
jrnd(uint32_t n)
{
	jump_rng ^= jump_rng << 13;
	jump_rng ^= jump_rng >> 17;
	jump_rng ^= jump_rng << 5;
	return jump_rng % n;
}

#define JUMP_TRIALS 600
#define JUMP_POINTS 6

static const char *const inc_ctr[] = { "inc_fast_recovery", "inc_additive", "inc_hyper",
	"inc_byte_counter" };

/* The rates one flow has at the checkpoints (points[i] increase steps
 * after the cut), the steps delivered one an event (single) or all that
 * are due at once; the increase counters' growth in ctr[].  First, in
 * both ways alike, pre steps of the other kind, one an event: the stage
 * that does not move then stands apart from the one that does. */
static void
jump_run(bool single, bool bytes, uint32_t bc, uint32_t t_inc, const uint32_t *points,
		uint32_t ncut, uint32_t pre, uint32_t *rate, uint32_t *ctr, uint32_t *ctx)
{
	const uint32_t t0 = 10000;
	uint32_t before[RTE_DIM(inc_ctr)], i, j, done = 0, ts = t0;
	struct pcc_dev_results r;

	memset(ctx, 0, PCC_DEV_CTX_SIZE);

	for (i = 0; i < RTE_DIM(inc_ctr); i++)
		before[i] = t_counter_by_name(inc_ctr[i]);
	t_tx(ctx, t0 - 100, 0, 4096);
	/* one cut, or a few, each a t_dec (4 us) apart */
	for (i = 0; i < ncut; i++, ts += US(5))
		t_cnp(ctx, ts);
	ts -= US(5);
	for (j = 1; j <= pre; j++) {
		if (bytes)
			t_timer(ctx, ts + j * t_inc);
		else
			t_tx(ctx, ts + j, j, bc);
	}
	if (bytes)
		ts += pre * t_inc;
	for (i = 0; i < JUMP_POINTS; i++) {
		if (single) {
			for (j = done + 1; j <= points[i]; j++)
				r = bytes ? t_tx(ctx, ts + j, j, bc) : t_timer(ctx, ts + j * t_inc);
		} else {
			r = bytes ? t_tx(ctx, ts + points[i], i, (points[i] - done) * bc) :
				    t_timer(ctx, ts + points[i] * t_inc + 7);
		}
		done = points[i];
		rate[i] = r.rate;
	}
	for (i = 0; i < RTE_DIM(inc_ctr); i++)
		ctr[i] = t_counter_by_name(inc_ctr[i]) - before[i];
}

/* Increase steps applied at once equal them applied one at a time: the
 * rates and the increase counters, over random parameters, cuts and
 * step counts, timer and byte-counter steps, each alone or with the
 * other counter on and some steps ahead (mixed). */
static void
test_increase_jump(void **state)
{
	uint32_t k, i, jumps = 0, mixed = 0;

	(void)state;
	for (k = 0; k < JUMP_TRIALS; k++) {
		const bool bytes = jrnd(3) == 0;
		const bool mix = jrnd(2) == 0;
		const uint32_t bc = 1024u << jrnd(3);
		/* bytes moving beside the timer: its period longer than the
		 * checkpoints' span (~2 us), so no timer step comes between */
		const uint32_t t_inc = bytes ? (mix ? 20000u + jrnd(500000) : 1000000000u) :
					       1000u + jrnd(500000);
		const uint32_t pre = mix ? 1 + jrnd(12) : 0;
		uint32_t points[JUMP_POINTS], rs[JUMP_POINTS], rj[JUMP_POINTS];
		uint32_t cs[RTE_DIM(inc_ctr)], cj[RTE_DIM(inc_ctr)], ncut = 1 + jrnd(3);
		uint32_t xs[PCC_DEV_CTX_SIZE / 4], xj[PCC_DEV_CTX_SIZE / 4];

		mixed += mix;
		assert_int_equal(t_param("t_inc_ns", t_inc), 0);
		assert_int_equal(t_param("byte_counter_kb", bytes || mix ? bc / 1024 : 0), 0);
		assert_int_equal(t_param("fast_recovery_steps", jrnd(4) == 0 ? jrnd(40) : jrnd(6)),
				0);
		assert_int_equal(t_param("rai_mbps", jrnd(4) == 0 ? 0 : jrnd(5000)), 0);
		assert_int_equal(t_param("rhai_mbps", jrnd(4) == 0 ? jrnd(100) : jrnd(60000)), 0);
		assert_int_equal(t_param("rate_first_cnp", jrnd(2) ? 65536 : 1 + jrnd(65536)), 0);
		assert_int_equal(t_param("clamp_target_rate", jrnd(2)), 0);
		/* checkpoints: a few steps apart, or many (past DCQCN's cap of
		 * 1024 a call only when single steps take as long) */
		points[0] = 1 + jrnd(4);
		for (i = 1; i < JUMP_POINTS; i++)
			points[i] = points[i - 1] + 1 + (jrnd(2) ? jrnd(8) : jrnd(300));
		jump_run(true, bytes, bc, t_inc, points, ncut, pre, rs, cs, xs);
		jump_run(false, bytes, bc, t_inc, points, ncut, pre, rj, cj, xj);
		for (i = 0; i < JUMP_POINTS; i++)
			if (rs[i] != rj[i])
				fail_msg("trial %u (%s): after %u steps rate %u one at a time, %u "
					 "at once",
						k, bytes ? "bytes" : "timer", points[i], rs[i],
						rj[i]);
		for (i = 0; i < RTE_DIM(inc_ctr); i++)
			assert_int_equal(cs[i], cj[i]);
		/* not only RC: struct dcqcn_ctx's words 0-1 (RC, RT) and 7
		 * (flags, stages); alpha's decay over many periods at once
		 * rounds once, and the increase period's start differs once
		 * the timer has stopped */
		assert_memory_equal(xs, xj, 2 * sizeof(xs[0]));
		assert_int_equal(xs[7], xj[7]);
		jumps += points[JUMP_POINTS - 1] > 2 * JUMP_POINTS;
	}
	assert_true(jumps > JUMP_TRIALS / 4);
	assert_true(mixed > JUMP_TRIALS / 4);
}

/* The increase counters' growth since before[]. */
static void
inc_ctr_delta(const uint32_t *before, uint32_t *d)
{
	uint32_t i;

	for (i = 0; i < RTE_DIM(inc_ctr); i++)
		d[i] = t_counter_by_name(inc_ctr[i]) - before[i];
}

/*
 * A flow back at line rate whose alpha decayed to 0 takes a CNP: the cut
 * takes nothing, and the next increase (however many periods are due) is
 * one step of the kind its stages give, counted once, that ends the
 * increase: a later period counts none.  Timer steps (fast recovery at
 * F = 1, additive at F = 0) and byte-counter steps.
 */
static void
test_increase_at_line_rate(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	uint32_t before[RTE_DIM(inc_ctr)], d[RTE_DIM(inc_ctr)], dec, f, t = 20000;
	struct pcc_dev_results r;

	(void)state;
	for (f = 0; f < 3; f++) {
		/* 0: F = 1, timer; 1: F = 0, timer; 2: F = 1, byte counter */
		assert_int_equal(t_param("fast_recovery_steps", f == 1 ? 0 : 1), 0);
		assert_int_equal(t_param("byte_counter_kb", f == 2 ? 1 : 0), 0);
		memset(ctx, 0, sizeof(ctx));
		t_tx(ctx, t - 100, 0, 64);
		assert_int_equal(t_cnp(ctx, t).rate, HALF);
		/* a second of quiet: alpha 0, back at line rate */
		t += 1000000000u;
		assert_int_equal(t_timer(ctx, t).rate, PCC_DEV_MAX_RATE);
		dec = t_counter_by_name("rate_dec");
		r = t_cnp(ctx, t + 1000);
		assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
		assert_int_equal(t_counter_by_name("rate_dec"), dec + 1);
		t += 1000;
		for (dec = 0; dec < RTE_DIM(inc_ctr); dec++)
			before[dec] = t_counter_by_name(inc_ctr[dec]);
		if (f == 2)
			r = t_tx(ctx, t + 10, 1, 4096); /* 4 byte-counter steps due */
		else
			r = t_timer(ctx, t + 3 * T_INC); /* 3 timer steps due */
		assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
		inc_ctr_delta(before, d);
		assert_int_equal(d[0], f == 1 ? 0 : 1);
		assert_int_equal(d[1], f == 1 ? 1 : 0);
		assert_int_equal(d[2], 0);
		assert_int_equal(d[3], f == 2 ? 1 : 0);
		/* the increase ended */
		r = t_timer(ctx, t + 10 * T_INC);
		assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
		inc_ctr_delta(before, d);
		assert_int_equal(d[0] + d[1] + d[2], 1);
		t += 20 * T_INC;
	}
}

/*
 * An attr built by its caller (a test, an algorithm calling another's
 * on_event, as the DOCA layer's internal algorithm does) has no counters
 * pointer: the algorithm's counters then go through pcc_dev_counters(),
 * and nowhere while counters are off.
 */
static void
test_counters_without_attr_pointer(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_event ev = t_ev(PCC_DEV_EVENT_CNP, 1000);
	struct pcc_dev_attr attr;
	struct pcc_dev_results r;
	uint32_t cnp, dec;

	(void)state;
	memset(&attr, 0, sizeof(attr));
	attr.port = T_PORT;
	attr.algo_slot = T_SLOT;
	ev.ack.coalesced = 1;
	cnp = t_counter_by_name("cnp_events");
	dec = t_counter_by_name("rate_dec");
	memset(&r, 0, sizeof(r));
	pcc_algo_dcqcn_ops.on_event(ctx, &ev, &attr, &r);
	assert_int_equal(r.rate, HALF);
	assert_int_equal(t_counter_by_name("cnp_events"), cnp + 1);
	assert_int_equal(t_counter_by_name("rate_dec"), dec + 1);
	assert_int_equal(t_counter_by_name("rate_min"), HALF);
	/* counters off: the event is handled, nothing is counted */
	assert_int_equal(pcc_dev_counters_enable(T_PORT, T_SLOT, false), 0);
	ev.ts = 1000 + US(100);
	memset(&r, 0, sizeof(r));
	pcc_algo_dcqcn_ops.on_event(ctx, &ev, &attr, &r);
	assert_true(r.rate < HALF);
	assert_int_equal(pcc_dev_counters_enable(T_PORT, T_SLOT, true), 0);
	assert_int_equal(t_counter_by_name("cnp_events"), cnp + 1);
	assert_int_equal(t_counter_by_name("rate_dec"), dec + 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_flow, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_fast_recovery_line_rate, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_fast_recovery_f5, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_ai_hai_default_f, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_clamp_target_reference, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_clamp_target_paper, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_alpha_half_life, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_alpha_cnp_period, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_decrease_interval, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_byte_counter, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_min_rate_clamp, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_line_rate_clamp, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_port_speed, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_params, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_increase_jump, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_increase_at_line_rate, setup, t_teardown),
		cmocka_unit_test_setup_teardown(
				test_counters_without_attr_pointer, setup, t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
