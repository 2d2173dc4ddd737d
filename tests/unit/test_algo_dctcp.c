/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the dctcp algorithm (rate form) against REFERENCE section
 * 3: alpha, the EWMA (g = 1/16) of the marked fraction per window, the
 * cut x (1 - alpha / 2) at most once per window, +615 Mb/s per window
 * without marks, PSN windows from TX/ACK events and time windows without
 * TX events, the clamps and new flows.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_algo_common.h"

#define RAI 6448u /* 615 Mb/s at 100G, floor(615 * 2^20 / 100000) */
#define MIN_RATE 1048u
#define PKTS 10u /* packets per window */

static int
setup(void **state)
{
	(void)state;
	if (t_setup_algo("dctcp") != 0)
		return -1;
	pcc_dev_counters_enable(T_PORT, T_SLOT, true);
	return 0;
}

struct flow {
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8];
	uint32_t ts;
	uint32_t psn; /* last PSN acked */
	struct pcc_dev_results r;
};

/* Open the first window: PKTS packets sent, the first ACK. */
static void
flow_start(struct flow *f)
{
	memset(f, 0, sizeof(*f));
	f->ts = 10000;
	t_tx(f->ctx, f->ts, PKTS - 1, 1024);
	f->r = t_ack(f->ctx, f->ts + 10, 0, NULL);
	f->psn = 0;
}

/*
 * One window: PKTS more packets sent, then their PKTS ACKs; a CNP before
 * each of the first `marked` ACKs.  The last ACK ends the window.
 */
static void
flow_window(struct flow *f, uint32_t marked)
{
	uint32_t j;

	f->ts += 1000;
	t_tx(f->ctx, f->ts, f->psn + 2 * PKTS - 1, 1024);
	for (j = 1; j <= PKTS; j++) {
		f->ts += 100;
		if (j <= marked)
			f->r = t_cnp(f->ctx, f->ts - 1);
		f->r = t_ack(f->ctx, f->ts, ++f->psn, NULL);
	}
}

static void
test_new_flow(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;

	(void)state;
	assert_int_equal(pcc_algo_dctcp_ops.ctx_size, PCC_DEV_CTX_SIZE);
	r = t_tx(ctx, 1000, 0, 1024);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	assert_int_equal(r.rtt_req, 0);
	r = t_cnp(ctx, 2000); /* alpha starts at 1: halve */
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE / 2);
}

static void
test_alpha_ewma(void **state)
{
	static const uint32_t marks[] = { 5, 10, 0, 2, 7, 0, 0, 10 };
	struct flow f;
	double alpha = 0, g = 1.0 / 16, measured;
	uint32_t i, before;

	(void)state;
	assert_int_equal(t_param("alpha_init", 0), 0);
	flow_start(&f);
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		flow_window(&f, marks[i]);
		alpha = (1 - g) * alpha + g * marks[i] / (double)PKTS;
	}
	assert_int_equal(t_counter_by_name("windows"), 8);
	/* the window with marks ended CWR (the ACKs passed the cut's PSN):
	 * a CNP now cuts by alpha / 2 */
	flow_window(&f, 0);
	alpha = (1 - g) * alpha;
	before = f.r.rate;
	f.r = t_cnp(f.ctx, f.ts + 5);
	measured = 2.0 * (1.0 - f.r.rate / (double)before);
	assert_near(measured, alpha, 1e-4);
	assert_near(alpha, 0.159871, 1e-5);
}

static void
test_cut_once_per_window(void **state)
{
	struct flow f;
	uint32_t half;

	(void)state;
	flow_start(&f);
	f.r = t_cnp(f.ctx, f.ts + 20);
	half = PCC_DEV_MAX_RATE / 2;
	assert_int_equal(f.r.rate, half);
	f.r = t_cnp(f.ctx, f.ts + 30); /* same window (CWR): no second cut */
	assert_int_equal(f.r.rate, half);
	assert_int_equal(t_counter_by_name("rate_cut"), 1);
	assert_int_equal(t_counter_by_name("cnp_events"), 2);
	/* the window ends with the ACK of the PSN sent at the cut: alpha =
	 * 15/16 + (2/10)/16 = 0.95, CWR over, +R_AI (as the simulator) */
	flow_window(&f, 0);
	assert_int_equal(f.r.rate, half + RAI);
	/* the next CNP cuts by alpha / 2 */
	f.r = t_cnp(f.ctx, f.ts + 5);
	assert_near(f.r.rate, (half + RAI) * (1 - 0.95 / 2), 2.0);
	assert_int_equal(t_counter_by_name("rate_cut"), 2);
}

static void
test_additive_increase(void **state)
{
	struct flow f;
	uint32_t rate, k;

	(void)state;
	flow_start(&f);
	f.r = t_cnp(f.ctx, f.ts + 20);
	rate = f.r.rate;
	for (k = 1; k <= 5; k++) {
		flow_window(&f, 0);                         /* the first one also ends CWR */
		assert_int_equal(f.r.rate, rate + k * RAI); /* +615 Mb/s per window */
	}
	assert_int_equal(t_counter_by_name("rate_inc"), 5);
}

static void
test_time_windows(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000, rate;

	(void)state;
	/* no TX events: windows and CWR last rtt_ns = 10 us */
	t_ack(ctx, ts, 0, NULL);
	r = t_cnp(ctx, ts + 100);
	rate = r.rate;
	r = t_cnp(ctx, ts + US(5));
	assert_int_equal(r.rate, rate);        /* CWR */
	r = t_ack(ctx, ts + US(10), 10, NULL); /* window ends, CWR 100 ns more */
	assert_int_equal(r.rate, rate);
	r = t_ack(ctx, ts + US(20), 20, NULL); /* next window, no CWR: +R_AI */
	assert_int_equal(r.rate, rate + RAI);
	assert_int_equal(t_counter_by_name("windows"), 2);
}

static void
test_clamps(void **state)
{
	struct flow f;
	uint32_t k;

	(void)state;
	/* at line rate increases stay at line rate */
	flow_start(&f);
	for (k = 0; k < 5; k++) {
		flow_window(&f, 0);
		assert_int_equal(f.r.rate, PCC_DEV_MAX_RATE);
	}
	/* every packet marked: alpha -> 1; without the additive increase
	 * (which adds R_AI after each cut) down to the min rate */
	assert_int_equal(t_param("rai_mbps", 0), 0);
	for (k = 0; k < 80; k++) {
		flow_window(&f, PKTS);
		assert_true(f.r.rate >= MIN_RATE);
	}
	assert_int_equal(f.r.rate, MIN_RATE);
	assert_int_equal(t_counter_by_name("rate_min"), MIN_RATE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_flow, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_alpha_ewma, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_cut_once_per_window, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_additive_increase, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_time_windows, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_clamps, setup, t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
