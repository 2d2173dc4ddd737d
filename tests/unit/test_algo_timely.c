/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the timely algorithm against REFERENCE section 3 (T_low
 * 50 us, T_high 500 us, beta 0.8, alpha 0.875, minRTT 20 us, delta
 * scaled to the line rate: 100 Mb/s at 100G, 10 Mb/s at 10G, or set):
 * x0.6 at 1 ms RTT, additive increase below T_low and hyper
 * increase after 5 steps, the gradient cases, the clamps, probes and
 * zeroed-context new flows.  Events go through pcc_dev_dispatch().
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_algo_common.h"

#define DELTA 1048u   /* 100 Mb/s at 100G, floor(100 * 2^20 / 100000) */
#define MIN_RATE 1048 /* 100 Mb/s */

static int
setup(void **state)
{
	(void)state;
	if (t_setup_algo("timely") != 0)
		return -1;
	pcc_dev_counters_enable(T_PORT, T_SLOT, true);
	return 0;
}

static void
test_new_flow_and_first_sample(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;

	(void)state;
	assert_int_equal(pcc_algo_timely_ops.ctx_size, PCC_DEV_CTX_SIZE);
	r = t_tx(ctx, 1000, 0, 4096);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	assert_int_equal(r.rtt_req, 1);
	/* the first sample only primes prev_rtt, however high */
	r = t_rtt(ctx, US(2000), US(1000));
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	assert_int_equal(r.rtt_req, 1);
}

static void
test_high_rtt(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	double expect;

	(void)state;
	t_rtt(ctx, US(2000), US(1000));
	r = t_rtt(ctx, US(3000), US(1000));
	/* 1 - 0.8 (1 - 500 / 1000) = 0.6 */
	assert_near(t_frac(r.rate), 0.6, 1e-5);
	/* 750 us: 1 - 0.8 (1 - 500 / 750) = 0.7333 */
	expect = t_frac(r.rate) * (1 - 0.8 * (1 - 500.0 / 750.0));
	r = t_rtt(ctx, US(4000), US(750));
	assert_near(t_frac(r.rate), expect, 5e-5);
	assert_int_equal(t_counter_by_name("dec_above_t_high"), 2);
}

static void
test_low_rtt_increase(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t rate, ts = US(3000);
	int k;

	(void)state;
	t_rtt(ctx, US(2000), US(1000));
	r = t_rtt(ctx, ts, US(1000));
	rate = r.rate;
	/* below T_low: +delta for 5 steps, then +5 delta (HAI) */
	for (k = 1; k <= 8; k++) {
		ts += US(40);
		r = t_rtt(ctx, ts, US(30));
		rate += k <= 5 ? DELTA : 5 * DELTA;
		assert_int_equal(r.rate, rate);
	}
	assert_int_equal(t_counter_by_name("inc_below_t_low"), 8);
	assert_int_equal(t_counter_by_name("hai_steps"), 3);
	/* a decrease resets the steps */
	ts += US(1000);
	r = t_rtt(ctx, ts, US(1000));
	rate = r.rate;
	ts += US(40);
	r = t_rtt(ctx, ts, US(30));
	assert_int_equal(r.rate, rate + DELTA);
}

/* One increase below T_low of a fresh flow with the slot's parameters. */
static uint32_t
one_step(void)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t rate;

	t_rtt(ctx, US(2000), US(1000));
	r = t_rtt(ctx, US(3000), US(1000)); /* x0.6: room to grow */
	rate = r.rate;
	r = t_rtt(ctx, US(3040), US(30));
	return r.rate - rate;
}

/* The step scales with the line rate unless set (HPCC reference run.py:
 * 10 * bw / 10 Mb/s, hyper 50 * bw / 10). */
static void
test_step_scaled_to_line_rate(void **state)
{
	(void)state;
	assert_int_equal(one_step(), DELTA); /* 100 Mb/s at 100G */
	/* 10 Mb/s at 10G (the paper's), in 10G rate units */
	assert_int_equal(t_param("line_rate_gbps", 10), 0);
	assert_int_equal(one_step(), 1048u); /* floor(10 * 2^20 / 10000) */
	/* 25G: 25 Mb/s */
	assert_int_equal(t_param("line_rate_gbps", 25), 0);
	assert_int_equal(one_step(), 1048u);
	/* an explicit step is kept: 10 Mb/s at 100G */
	assert_int_equal(t_param("line_rate_gbps", 100), 0);
	assert_int_equal(t_param("delta_mbps", 10), 0);
	assert_int_equal(one_step(), 104u);
}

static void
test_gradient(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = US(1000), rate;
	double diff, expect;

	(void)state;
	/* rising RTT between T_low and T_high: diff = 0.875 * 10 us,
	 * g = 8.75 / 20 = 0.4375, x (1 - 0.8 g) = x 0.65 */
	t_rtt(ctx, ts, US(100));
	ts += US(100);
	r = t_rtt(ctx, ts, US(110));
	assert_near(t_frac(r.rate), 0.65, 1e-4);
	assert_int_equal(t_counter_by_name("dec_gradient"), 1);
	/* falling RTT: the EWMA goes negative, g <= 0: +delta */
	rate = r.rate;
	diff = 0.875 * 10000.0;
	diff = 0.125 * diff + 0.875 * -20000.0;
	assert_true(diff < 0);
	ts += US(100);
	r = t_rtt(ctx, ts, US(90));
	assert_int_equal(r.rate, rate + DELTA);
	assert_int_equal(t_counter_by_name("inc_gradient"), 1);
	/* rising again: the EWMA turns positive, x (1 - beta g) */
	ts += US(100);
	r = t_rtt(ctx, ts, US(95)); /* diff = 0.125 * -16406 + 0.875 * 5000 > 0 */
	diff = 0.125 * diff + 0.875 * 5000.0;
	assert_true(diff > 0);
	expect = t_frac(rate + DELTA) * (1 - 0.8 * diff / 20000.0);
	assert_near(t_frac(r.rate), expect, 1e-4);
	/* steep gradient: 1 - beta g < 0 clamps to the min rate */
	ts += US(100);
	r = t_rtt(ctx, ts, US(480));
	assert_int_equal(r.rate, MIN_RATE);
}

static void
test_clamps(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = US(1000);
	int k;

	(void)state;
	/* at line rate increases stay at line rate */
	for (k = 0; k < 10; k++) {
		ts += US(40);
		r = t_rtt(ctx, ts, US(30));
		assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	}
	/* repeated high RTT: down to the min rate, not below */
	for (k = 0; k < 60; k++) {
		ts += US(2000);
		r = t_rtt(ctx, ts, US(2000));
		assert_true(r.rate >= MIN_RATE);
	}
	assert_int_equal(r.rate, MIN_RATE);
	assert_int_equal(t_counter_by_name("rate_min"), MIN_RATE);
}

static void
test_probe_retry(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;

	(void)state;
	r = t_tx(ctx, US(10), 0, 4096);
	assert_int_equal(r.rtt_req, 1);
	r = t_tx(ctx, US(309), 1, 4096);
	assert_int_equal(r.rtt_req, 0);
	r = t_tx(ctx, US(310), 2, 4096);
	assert_int_equal(r.rtt_req, 1);
	r = t_tx(ctx, US(909), 3, 4096);
	assert_int_equal(r.rtt_req, 0);
	r = t_tx(ctx, US(910), 4, 4096);
	assert_int_equal(r.rtt_req, 1);
	assert_int_equal(t_counter_by_name("probe_retries"), 2);
}

static void
test_params(void **state)
{
	(void)state;
	/* t_low must stay below t_high */
	assert_int_equal(t_param("t_low_ns", 500000), -EINVAL);
	assert_int_equal(t_param("t_high_ns", 50000), -EINVAL);
	assert_int_equal(t_param("t_high_ns", 50001), 0);
	assert_int_equal(t_param("beta", 65537), -ERANGE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_flow_and_first_sample, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_high_rtt, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_low_rtt_increase, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_step_scaled_to_line_rate, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_gradient, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_clamps, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_probe_retry, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_params, setup, t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
