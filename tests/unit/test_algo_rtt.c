/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the rtt algorithm (DOCA RTT template behaviour, REFERENCE
 * section 2): every branch of the rate rule with DOCA's defaults
 * (UPDATE_FACTOR 6553, AI 52428, BASE_RELATIVE_RTT 13000 ns, MAX_DELAY
 * 150000 ns, MIN_RATE 64), the clamps, probe (re-)requests after
 * 300 us << retries, zeroed-context new flows, registration and the
 * default slot 0xF.  Events go through pcc_dev_dispatch().
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_algo_common.h"

#define UF 6553u
#define AI 52428u
#define HALF (PCC_DEV_MAX_RATE / 2)

static int
setup(void **state)
{
	(void)state;
	if (t_setup_algo("rtt") != 0)
		return -1;
	pcc_dev_counters_enable(T_PORT, T_SLOT, true);
	return 0;
}

/* expected rate after a multiplicative step: truncated like fxp_mult */
static uint32_t
mul16(uint32_t rate, uint32_t f)
{
	return (uint32_t)(((uint64_t)rate * f) >> 16);
}

/* A flow started at half line rate, its min_rtt primed with 10 us. */
static void
half_rate_flow(uint64_t *ctx, uint32_t *ts)
{
	struct pcc_dev_results r;

	assert_int_equal(t_param("NEW_FLOW_RATE", HALF), 0);
	r = t_tx(ctx, *ts, 0, 1024);
	assert_int_equal(r.rate, HALF);
	*ts += US(20);
	r = t_rtt(ctx, *ts, US(10)); /* at min_rtt: +AI */
	assert_int_equal(r.rate, HALF + AI);
}

static void
test_new_flow(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8];
	struct pcc_dev_results r;

	(void)state;
	assert_int_equal(pcc_algo_rtt_ops.ctx_size, PCC_DEV_CTX_SIZE);
	assert_int_equal(pcc_algo_rtt_ops.id, 0xBFFF);
	assert_int_equal(pcc_algo_rtt_ops.major, 0);
	assert_int_equal(pcc_algo_rtt_ops.minor, 1);
	memset(ctx, 0, sizeof(ctx));
	r = t_tx(ctx, 1000, 0, 1024);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE); /* NEW_FLOW_RATE = 1 << 20 */
	assert_int_equal(r.rtt_req, 1);             /* first probe */
	assert_int_equal(r.window, 0);
	r = t_tx(ctx, 2000, 1, 1024);
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	assert_int_equal(r.rtt_req, 0);
}

static void
test_increase_and_line_clamp(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000, rate;
	int i;

	(void)state;
	half_rate_flow(ctx, &ts);
	rate = HALF + AI;
	/* rtt - min_rtt <= BASE_RELATIVE_RTT: +AI each sample (the probe
	 * left after the previous answer asked for it: ts moves by more
	 * than this 24 us round trip) */
	ts += US(30);
	r = t_rtt(ctx, ts, US(10) + 13000);
	rate += AI;
	assert_int_equal(r.rate, rate);
	assert_int_equal(r.rtt_req, 1); /* every answer asks for the next */
	for (i = 0; i < 20; i++) {
		ts += US(20);
		r = t_rtt(ctx, ts, US(10));
		assert_true(r.rate <= PCC_DEV_MAX_RATE);
	}
	assert_int_equal(r.rate, PCC_DEV_MAX_RATE);
	assert_int_equal(t_counter_by_name("inc"), 22);
}

static void
test_relative_rtt_decrease(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000, rate = HALF + AI;

	(void)state;
	half_rate_flow(ctx, &ts);
	ts += US(20);
	r = t_rtt(ctx, ts, US(10) + 13001); /* rtt - min_rtt > BASE */
	rate = mul16(rate, 65536 - UF);
	assert_int_equal(r.rate, rate);
	assert_near(r.rate / (double)(HALF + AI), 0.9, 1e-4);
	/* a smaller RTT lowers min_rtt; relative to it the next one is high */
	ts += US(20);
	r = t_rtt(ctx, ts, US(5));
	rate += AI;
	assert_int_equal(r.rate, rate);
	ts += US(20);
	r = t_rtt(ctx, ts, US(5) + 13001);
	assert_int_equal(r.rate, mul16(rate, 65536 - UF));
	assert_int_equal(t_counter_by_name("dec_rtt"), 2);
}

static void
test_cnp_and_max_delay(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000, rate = HALF + AI;

	(void)state;
	half_rate_flow(ctx, &ts);
	/* CNP seen: x (1 - 2 UF) = x 0.8 even with a low RTT */
	ts += US(5);
	r = t_cnp(ctx, ts);
	assert_int_equal(r.rate, rate); /* CNP alone changes nothing */
	ts += US(15);
	r = t_rtt(ctx, ts, US(10));
	rate = mul16(rate, 65536 - 2 * UF);
	assert_int_equal(r.rate, rate);
	assert_near(r.rate / (double)(HALF + AI), 0.8, 1e-4);
	/* the CNP flag is cleared by the sample: next one increases */
	ts += US(20);
	r = t_rtt(ctx, ts, US(10));
	rate += AI;
	assert_int_equal(r.rate, rate);
	/* rtt >= MAX_DELAY without CNP: x 0.8 too */
	ts += US(200);
	r = t_rtt(ctx, ts, 150000);
	rate = mul16(rate, 65536 - 2 * UF);
	assert_int_equal(r.rate, rate);
	assert_int_equal(t_counter_by_name("dec_cnp"), 2);
	assert_int_equal(t_counter_by_name("cnp_events"), 1);
	assert_int_equal(t_counter_by_name("rtt_max_ns"), 150000);
}

static void
test_nack(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000, rate = HALF + AI;

	(void)state;
	half_rate_flow(ctx, &ts);
	/* NACK with a low RTT: no 5 UF cut; falls through to +AI */
	ts += US(5);
	t_nack(ctx, ts);
	ts += US(15);
	r = t_rtt(ctx, ts, US(10));
	rate += AI;
	assert_int_equal(r.rate, rate);
	/* NACK and rtt >= MAX_DELAY: x (1 - 5 UF) = x 0.5 */
	ts += US(5);
	t_nack(ctx, ts);
	ts += US(200);
	r = t_rtt(ctx, ts, 150000);
	rate = mul16(rate, 65536 - 5 * UF);
	assert_int_equal(r.rate, rate);
	assert_near(r.rate / (double)(HALF + 2 * AI), 0.5, 1e-4);
	/* NACK and CNP, high RTT: the NACK branch wins */
	ts += US(5);
	t_nack(ctx, ts);
	t_cnp(ctx, ts + 1);
	ts += US(200);
	r = t_rtt(ctx, ts, 200000);
	rate = mul16(rate, 65536 - 5 * UF);
	assert_int_equal(r.rate, rate);
	assert_int_equal(t_counter_by_name("dec_nack"), 2);
	assert_int_equal(t_counter_by_name("nack_events"), 3);
}

static void
test_min_rate_clamp(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results r;
	uint32_t ts = 1000;
	int i;

	(void)state;
	t_tx(ctx, ts, 0, 1024);
	for (i = 0; i < 40; i++) {
		ts += US(200);
		t_nack(ctx, ts);
		ts += US(1);
		r = t_rtt(ctx, ts, 160000);
		assert_true(r.rate >= 64);
	}
	assert_int_equal(r.rate, 64); /* MIN_RATE */
	/* a raised MIN_RATE applies to the next update */
	assert_int_equal(t_param("MIN_RATE", 1000), 0);
	ts += US(200);
	r = t_rtt(ctx, ts, 160000);
	assert_int_equal(r.rate, 1000);
}

/* A late answer to a probe a retry superseded requests nothing more. */
static void
test_probe_late_answer(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_event ev;
	struct pcc_dev_results r;
	uint32_t t0 = 50000;

	(void)state;
	r = t_tx(ctx, t0, 0, 1024); /* first probe requested at t0 */
	assert_int_equal(r.rtt_req, 1);
	r = t_tx(ctx, t0 + US(300), 1, 1024); /* timeout: the retry */
	assert_int_equal(r.rtt_req, 1);
	/* the first probe's answer arrives late: sample it, ask nothing */
	ev = t_ev(PCC_DEV_EVENT_RTT, t0 + US(310));
	ev.rtt.req_send_ts = t0 + US(1);
	ev.rtt.req_recv_ts = 5000000;
	ev.rtt.resp_send_ts = 5001000;
	r = t_send(ctx, &ev);
	assert_int_equal(r.rtt_req, 0);
	/* the retry's answer: the next probe */
	ev = t_ev(PCC_DEV_EVENT_RTT, t0 + US(320));
	ev.rtt.req_send_ts = t0 + US(301);
	ev.rtt.req_recv_ts = 5000000;
	ev.rtt.resp_send_ts = 5001000;
	r = t_send(ctx, &ev);
	assert_int_equal(r.rtt_req, 1);
	/* and the retries were reset: the next timeout is 300 us again */
	r = t_tx(ctx, t0 + US(320) + US(300), 2, 1024);
	assert_int_equal(r.rtt_req, 1);
}

static void
test_probe_retry(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_event ev;
	struct pcc_dev_results r;
	uint32_t t0 = 50000;

	(void)state;
	r = t_tx(ctx, t0, 0, 1024);
	assert_int_equal(r.rtt_req, 1);
	r = t_tx(ctx, t0 + US(299), 1, 1024);
	assert_int_equal(r.rtt_req, 0);
	r = t_tx(ctx, t0 + US(300), 2, 1024); /* 300 us << 0 */
	assert_int_equal(r.rtt_req, 1);
	t0 += US(300);
	r = t_tx(ctx, t0 + US(599), 3, 1024);
	assert_int_equal(r.rtt_req, 0);
	r = t_cnp(ctx, t0 + US(600)); /* 300 us << 1, any event */
	assert_int_equal(r.rtt_req, 1);
	t0 += US(600);
	/* TX flagged RTT_REQ_SENT: the probe left now, restart the wait */
	ev = t_ev(PCC_DEV_EVENT_TX, t0 + US(100));
	ev.flags = PCC_DEV_TX_F_RTT_REQ_SENT;
	r = t_send(ctx, &ev);
	assert_int_equal(r.rtt_req, 0);
	t0 += US(100);
	r = t_tx(ctx, t0 + US(1199), 4, 1024);
	assert_int_equal(r.rtt_req, 0);
	r = t_tx(ctx, t0 + US(1200), 5, 1024); /* 300 us << 2 */
	assert_int_equal(r.rtt_req, 1);
	assert_int_equal(t_counter_by_name("probe_retries"), 3);
	/* an answer asks for the next at once and resets the retries */
	t0 += US(1300);
	r = t_rtt(ctx, t0, US(10));
	assert_int_equal(r.rtt_req, 1);
	r = t_tx(ctx, t0 + US(300), 7, 1024);
	assert_int_equal(r.rtt_req, 1);
}

static void
test_params(void **state)
{
	uint32_t v;

	(void)state;
	assert_int_equal(pcc_algo_rtt_ops.n_params, 6);
	assert_int_equal(pcc_dev_params_get(T_PORT, T_SLOT, 0, 1, &v), 0);
	assert_int_equal(v, UF);
	assert_int_equal(pcc_dev_param_id(T_PORT, T_SLOT, "MAX_DELAY"), 5);
	/* out of the table's range: refused by the library */
	assert_int_equal(t_param("UPDATE_FACTOR", 13108), -ERANGE);
	assert_int_equal(t_param("NEW_FLOW_RATE", PCC_DEV_MAX_RATE + 1), -ERANGE);
	assert_int_equal(t_param("MIN_RATE", 0), -ERANGE);
	assert_int_equal(t_param("UPDATE_FACTOR", 13107), 0);
	assert_int_equal(pcc_dev_params_get(T_PORT, T_SLOT, 0, 1, &v), 0);
	assert_int_equal(v, 13107);
}

static void
test_registry(void **state)
{
	const struct pcc_dev_algo_ops *const *b;
	unsigned int n, i;

	(void)state;
	/* idempotent */
	assert_int_equal(pcc_algos_register_builtin(), 0);
	assert_int_equal(pcc_algos_register_builtin(), 0);
	b = pcc_algos_builtin(&n);
	assert_int_equal(n, 7);
	for (i = 0; i < n; i++) {
		assert_ptr_equal(pcc_dev_algo_find(b[i]->name), b[i]);
		assert_true(b[i]->ctx_size <= PCC_DEV_CTX_MAX);
		assert_non_null(b[i]->on_event);
	}
	assert_ptr_equal(pcc_dev_algo_find("rtt"), &pcc_algo_rtt_ops);
	/* rtt is the default algorithm of the internal slot */
	assert_ptr_equal(pcc_dev_slot_algo(T_PORT, PCC_DEV_INTERNAL_SLOT, NULL), &pcc_algo_rtt_ops);
}

static void
test_direct_zeroed_ctx(void **state)
{
	/* without dispatch: ops->on_event with a zeroed context and results */
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_event ev = t_ev(PCC_DEV_EVENT_CNP, 100);
	struct pcc_dev_attr attr = { .algo_slot = PCC_DEV_INTERNAL_SLOT, .port = T_PORT };
	struct pcc_dev_results res = { 0 };

	(void)state;
	pcc_algo_rtt_ops.on_event(ctx, &ev, &attr, &res);
	assert_int_equal(res.rate, PCC_DEV_MAX_RATE);
	assert_int_equal(res.rtt_req, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_flow, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_increase_and_line_clamp, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_relative_rtt_decrease, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_cnp_and_max_delay, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_nack, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_min_rate_clamp, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_probe_retry, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_probe_late_answer, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_params, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_registry, setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_direct_zeroed_ctx, setup, t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
