/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the swift algorithm against REFERENCE section 3 (ai 1,
 * beta 0.8, max_mdf 0.5, base target 20 us; MSS 4096 B, initial window
 * 250000 B): window growth ai * acked / cwnd below the target, the
 * multiplicative decrease beta (d - t) / d capped at max_mdf and applied
 * at most once per RTT, NACKs, pacing below one packet, flow scaling and
 * per-hop targets, the window clamps and new flows.  Windows are checked
 * to 1 byte against the equations evaluated in double precision.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pcc_proto_tlm.h>

#include "test_algo_common.h"

#define MSS 4096.0
#define INIT 250000u

static int
setup(void **state)
{
	(void)state;
	if (t_setup_algo("swift") != 0)
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
	assert_int_equal(pcc_algo_swift_ops.ctx_size, PCC_DEV_CTX_SIZE);
	r = t_tx(ctx, 1000, 0, 4096);
	assert_int_equal(r.window, INIT);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE); /* window-limited, not paced */
	assert_int_equal(r.rtt_req, 1);
	/* no delay sample yet: ACKs do not grow the window */
	r = t_ack(ctx, 2000, 0, NULL);
	r = t_ack(ctx, 3000, 10, NULL);
	assert_int_equal(r.window, INIT);
}

static void
test_growth_below_target(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	double w = INIT;
	uint32_t ts = 1000;

	(void)state;
	r = t_rtt(ctx, ts, US(10)); /* below 20 us: no decrease */
	assert_int_equal(r.window, INIT);
	/* first ACK counts 1 packet: cwnd += ai * mss * mss / cwnd */
	r = t_ack(ctx, ts + 100, 0, NULL);
	w += MSS * MSS / w;
	assert_near(r.window, w, 1.0);
	assert_int_equal(r.window, 250067);
	/* PSN advanced by 10: 10 packets acked */
	r = t_ack(ctx, ts + 200, 10, NULL);
	w += 10 * MSS * MSS / w;
	assert_near(r.window, w, 1.0);
	/* over one window of ACKs the window grows by ~ai packets */
	{
		uint32_t psn = 10, i;
		double start = w;

		for (i = 0; i < 61; i++) {
			psn++;
			r = t_ack(ctx, ts + 300 + i, psn, NULL);
			w += MSS * MSS / w;
		}
		assert_near(r.window, w, 2.0);
		assert_near(w - start, MSS, 0.02 * MSS);
	}
	assert_int_equal(t_counter_by_name("inc"), 63);
}

static void
test_decrease(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000, w;

	(void)state;
	/* 30 us against a 20 us target: x (1 - 0.8 * 10 / 30) */
	r = t_rtt(ctx, ts, US(30));
	assert_near(r.window, INIT * (1 - 0.8 * 10.0 / 30.0), 1.0);
	w = r.window;
	/* above target: ACKs do not grow it */
	r = t_ack(ctx, ts + 10, 0, NULL);
	r = t_ack(ctx, ts + 20, 5, NULL);
	assert_int_equal(r.window, w);
	/* within the same RTT (30 us): no second decrease */
	r = t_rtt(ctx, ts + US(29), US(30));
	assert_int_equal(r.window, w);
	r = t_rtt(ctx, ts + US(30), US(30));
	assert_near(r.window, w * (1 - 0.8 * 10.0 / 30.0), 1.0);
	assert_int_equal(t_counter_by_name("dec_delay"), 2);
}

static void
test_max_mdf(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000;

	(void)state;
	/* 100 us: 1 - 0.8 * 80 / 100 = 0.36 < 1 - max_mdf: capped at 0.5 */
	r = t_rtt(ctx, ts, US(100));
	assert_int_equal(r.window, INIT / 2);
	assert_int_equal(t_counter_by_name("dec_capped"), 1);
	r = t_rtt(ctx, ts + US(50), US(100)); /* same RTT */
	assert_int_equal(r.window, INIT / 2);
	r = t_rtt(ctx, ts + US(100), US(100));
	assert_int_equal(r.window, INIT / 4);
	/* max_mdf 0.25 caps at x 0.75 */
	assert_int_equal(t_param("max_mdf", 16384), 0);
	r = t_rtt(ctx, ts + US(200), US(100));
	assert_near(r.window, INIT / 4 * 0.75, 1.0);
}

static void
test_nack(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000;

	(void)state;
	t_tx(ctx, ts, 0, 4096);
	r = t_nack(ctx, ts + 10);
	assert_int_equal(r.window, INIT / 2);
	/* once per RTT (no sample yet: the 20 us base target) */
	r = t_nack(ctx, ts + 10 + US(19));
	assert_int_equal(r.window, INIT / 2);
	r = t_nack(ctx, ts + 10 + US(20));
	assert_int_equal(r.window, INIT / 4);
	assert_int_equal(t_counter_by_name("dec_nack"), 2);
}

static void
test_pacing_below_one_packet(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000;

	(void)state;
	assert_int_equal(t_param("init_cwnd_bytes", 2048), 0); /* half a packet */
	r = t_tx(ctx, ts, 0, 2048);
	assert_int_equal(r.window, 2048);
	/* pace at cwnd / rtt: 2048 B per 20 us (base target) = 0.8192 Gb/s */
	assert_near(r.rate, 0.8192 / 100 * T_MAX_RATE, 1.0);
	/* 40 us: x 0.6, then paced at 1228.8 B per 40 us = 0.24576 Gb/s */
	r = t_rtt(ctx, ts + US(40), US(40));
	assert_near(r.window, 2048 * 0.6, 1.0);
	assert_near(r.rate, 0.24576 / 100 * T_MAX_RATE, 1.0);
	/* below one packet the window grows by ai * acked (whole packets) */
	r = t_rtt(ctx, ts + US(80), US(10));
	r = t_ack(ctx, ts + US(81), 0, NULL);
	assert_near(r.window, 2048 * 0.6 + MSS, 1.0);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	assert_true(t_counter_by_name("paced") >= 3);
}

static void
test_window_clamps(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000, i;

	(void)state;
	/* min window 0.001 packet = 4.096 B */
	for (i = 0; i < 40; i++) {
		ts += US(200);
		r = t_rtt(ctx, ts, US(200));
		assert_true(r.window >= 4);
		assert_true(r.rate >= 1);
	}
	assert_int_equal(r.window, 4);
	/* max window 1 MB */
	memset(ctx, 0, sizeof(ctx));
	assert_int_equal(t_param("init_cwnd_bytes", 999000), 0);
	t_rtt(ctx, ts, US(5));
	for (i = 0; i < 400; i++)
		r = t_ack(ctx, ts + i, i * 10, NULL);
	assert_int_equal(r.window, 1000000);
}

static void
test_flow_scaling(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000;
	double fs;

	(void)state;
	/* fs_range 10 us between 0.1 and 100 packets; at 1 packet:
	 * fs = 10 us (1 - 1/sqrt(100)) / (1/sqrt(0.1) - 1/sqrt(100)) */
	fs = 10000.0 * (1.0 - 0.1) / (1.0 / sqrt(0.1) - 0.1);
	assert_near(fs, 2939, 1);
	assert_int_equal(t_param("fs_range_ns", 10000), 0);
	assert_int_equal(t_param("init_cwnd_bytes", 4096), 0);
	r = t_rtt(ctx, ts, 20000 + 2900); /* below 22.94 us */
	assert_int_equal(r.window, 4096);
	r = t_rtt(ctx, ts + US(30), 20000 + 2980); /* above */
	assert_near(r.window, 4096 * (1 - 0.8 * (2980 - fs) / 22980), 1.0);
	/* without flow scaling 22.9 us is above the 20 us target */
	assert_int_equal(t_param("fs_range_ns", 0), 0);
	memset(ctx, 0, sizeof(ctx));
	r = t_rtt(ctx, ts, 20000 + 2900);
	assert_true(r.window < 4096);
	/* flow_scaling needs fs_min_cwnd < fs_max_cwnd */
	assert_int_equal(t_param("fs_min_cwnd_mpkt", 100000), -EINVAL);
}

static void
test_int_hops(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_int_hdr h;
	struct pcc_dev_results r;
	uint32_t ts = 1000;

	(void)state;
	memset(&h, 0, sizeof(h));
	h.n_hops = 3;
	assert_int_equal(t_param("hop_scale_ns", 1000), 0);
	/* 3 hops from INT: target 23 us; 22 us grows */
	t_ack(ctx, ts, 0, &h);
	r = t_rtt(ctx, ts + US(1), US(22));
	assert_int_equal(r.window, INIT);
	r = t_ack(ctx, ts + US(2), 1, &h);
	assert_true(r.window > INIT);
	/* hops parameter (no INT): 0 hops, 22 us decreases */
	memset(ctx, 0, sizeof(ctx));
	r = t_rtt(ctx, ts, US(22));
	assert_true(r.window < INIT);
	/* hops parameter 2: target 22 us, 21 us does not */
	assert_int_equal(t_param("hops", 2), 0);
	memset(ctx, 0, sizeof(ctx));
	r = t_rtt(ctx, ts, US(21));
	assert_int_equal(r.window, INIT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_flow, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_growth_below_target, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_decrease, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_max_mdf, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_nack, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_pacing_below_one_packet, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_window_clamps, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_flow_scaling, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_int_hops, setup, t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
