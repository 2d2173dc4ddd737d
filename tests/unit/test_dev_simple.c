/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of pcc_dev_simple.h: validation of simple algorithms, the
 * generated ops, the wrapper's snapshot (CNP counting, RTT samples, flow
 * count, parameters), its answer (clamps, probes, window mode), declared
 * metrics only, and named typed parameters for simple and native
 * algorithms alike.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_log.h>

#include "pcc_dev.h"
#include "pcc_dev_simple.h"
#include "pcc_dev_svc.h"

/* ---- A toy AIMD algorithm --------------------------------------------- */

struct aimd_params {
	uint32_t ai;
	int32_t bias;
	uint64_t big;
	uint32_t md_pct;
};

struct aimd_state {
	uint32_t calls;
	uint32_t pad;
};

static const struct pcc_dev_named_param aimd_params[] = {
	{ .name = "AI",
			.type = PCC_DEV_PARAM_U32,
			.perm = PCC_DEV_PERM_RW,
			.offset = offsetof(struct aimd_params, ai),
			.def = { .u = 1000 },
			.min = { .u = 1 },
			.max = { .u = 100000 } },
	{ .name = "BIAS",
			.type = PCC_DEV_PARAM_I32,
			.perm = PCC_DEV_PERM_RW,
			.offset = offsetof(struct aimd_params, bias),
			.def = { .i = -5 },
			.min = { .i = -100 },
			.max = { .i = 100 } },
	{ .name = "BIG",
			.type = PCC_DEV_PARAM_U64,
			.perm = PCC_DEV_PERM_RW,
			.offset = offsetof(struct aimd_params, big),
			.def = { .u = 1ull << 40 },
			.min = { .u = 1ull << 33 },
			.max = { .u = 1ull << 41 } },
	{ .name = "MD",
			.type = PCC_DEV_PARAM_U32,
			.perm = PCC_DEV_PERM_RO,
			.offset = offsetof(struct aimd_params, md_pct),
			.def = { .u = 50 },
			.min = { .u = 1 },
			.max = { .u = 100 } },
};

enum {
	M_CALLS,
	M_CNP,
	M_RTT_MIN,
	M_RTT_MAX,
	M_PROBES,
	M_DEC,
	M_INC,
	M_FLOWS,
	M_CUSTOM,
	M_N
};

static const struct pcc_dev_simple_metric aimd_metrics[M_N] = {
	{ .name = "calls", .src = PCC_DEV_SIMPLE_M_CALLS },
	{ .name = "cnps", .src = PCC_DEV_SIMPLE_M_CNP },
	{ .name = "rtt_min", .src = PCC_DEV_SIMPLE_M_RTT_MIN },
	{ .name = "rtt_max", .src = PCC_DEV_SIMPLE_M_RTT_MAX },
	{ .name = "probes", .src = PCC_DEV_SIMPLE_M_PROBES },
	{ .name = "dec", .src = PCC_DEV_SIMPLE_M_DECREASES },
	{ .name = "inc", .src = PCC_DEV_SIMPLE_M_INCREASES },
	{ .name = "flows", .src = PCC_DEV_SIMPLE_M_NEW_FLOWS },
	{ .name = "custom",
			.src = PCC_DEV_SIMPLE_M_CUSTOM,
			.type = PCC_DEV_COUNTER_ACCUMULATE,
			.max = 5 },
};

static struct {
	struct pcc_dev_simple_in in;
	struct aimd_params params;
	unsigned int calls;
	uint32_t state_calls;
} seen;

static void
aimd_step(const struct pcc_dev_simple_in *in, void *state, struct pcc_dev_simple_out *out)
{
	struct aimd_state *st = state;
	const struct aimd_params *p = in->params;

	seen.in = *in;
	seen.params = *p;
	seen.calls++;
	st->calls++;
	seen.state_calls = st->calls;
	if (in->cnp_count > 0)
		out->rate = (uint32_t)((uint64_t)in->rate * p->md_pct / 100);
	else
		out->rate = in->rate + p->ai;
	out->rtt_req = st->calls == 1;
	pcc_dev_counter_add(in->port, in->slot, M_CUSTOM, 2);
}

static const struct pcc_dev_simple_algo aimd = {
	.name = "aimd",
	.id = 0x77,
	.major = 1,
	.desc = "toy AIMD",
	.mode = PCC_DEV_SIMPLE_RATE,
	.initial_rate = 1u << 19,
	.state_size = sizeof(struct aimd_state),
	.step = aimd_step,
	.params = aimd_params,
	.n_params = 4,
	.params_size = sizeof(struct aimd_params),
	.metrics = aimd_metrics,
	.n_metrics = M_N,
};

/* Window mode: halve on CNP, +1000 otherwise; declares only "calls". */
static void
win_step(const struct pcc_dev_simple_in *in, void *state, struct pcc_dev_simple_out *out)
{
	(void)state;
	seen.in = *in;
	seen.calls++;
	out->window = in->cnp_count ? in->window / 2 : in->window + 1000;
}

static const struct pcc_dev_simple_metric win_metrics[] = {
	{ .name = "calls", .src = PCC_DEV_SIMPLE_M_CALLS },
};

static const struct pcc_dev_simple_algo win = {
	.name = "win",
	.mode = PCC_DEV_SIMPLE_WINDOW,
	.call_on = PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_ACK) | PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_CNP),
	.initial_window = 10000,
	.min_window = 3000,
	.step = win_step,
	.metrics = win_metrics,
	.n_metrics = 1,
};

/* A native algorithm for the named-parameter API. */
static const struct pcc_dev_param_desc native_params[] = {
	{ .id = 0, .name = "K", .def = 3, .min = 1, .max = 10, .perm = PCC_DEV_PERM_RW },
	{ .id = 1, .name = "LOCKED", .def = 1, .min = 0, .max = 1, .perm = PCC_DEV_PERM_RO },
};

static void
native_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	(void)res;
}

static struct pcc_dev_algo_ops native_ops = {
	.name = "native",
	.params = native_params,
	.n_params = 2,
	.on_event = native_on_event,
};

static int
group_setup(void **state)
{
	(void)state;
	rte_log_set_level_pattern("pcc.dev", RTE_LOG_EMERG);
	assert_int_equal(pcc_dev_simple_register(&aimd), 0);
	assert_int_equal(pcc_dev_simple_register(&win), 0);
	assert_int_equal(pcc_dev_algo_register(&native_ops), 0);
	return 0;
}

static int
test_setup(void **state)
{
	struct pcc_dev_conf conf = { .n_ports = 1, .n_threads = 1 };

	(void)state;
	memset(&seen, 0, sizeof(seen));
	pcc_dev_thread_set_rank(0);
	assert_int_equal(pcc_dev_init(&conf), 0);
	assert_int_equal(pcc_dev_algo_load(0, 0, "aimd"), 0);
	assert_int_equal(pcc_dev_algo_load(0, 1, "win"), 0);
	assert_int_equal(pcc_dev_algo_load(0, 2, "native"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 1, 1), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 2, 2), 0);
	return 0;
}

static int
test_teardown(void **state)
{
	(void)state;
	pcc_dev_fini();
	return 0;
}

/* ---- Validation --------------------------------------------------------- */

static void
expect_einval(const struct pcc_dev_simple_algo *sa)
{
	assert_int_equal(pcc_dev_simple_register(sa), -EINVAL);
	assert_null(pcc_dev_algo_find("bad"));
}

static void
test_validation(void **state)
{
	struct pcc_dev_named_param p[24];
	struct pcc_dev_simple_metric m[PCC_DEV_MAX_COUNTERS + 1];
	struct pcc_dev_simple_algo sa;
	unsigned int i;

	(void)state;
	assert_int_equal(pcc_dev_simple_register(NULL), -EINVAL);
	assert_int_equal(pcc_dev_simple_register(&aimd), -EEXIST);

	sa = (struct pcc_dev_simple_algo){ .name = "bad" };
	expect_einval(&sa); /* no step */
	sa.step = aimd_step;
	sa.name = "Bad";
	expect_einval(&sa);
	sa.name = "bad";
	sa.mode = 2;
	expect_einval(&sa);
	sa.mode = PCC_DEV_SIMPLE_RATE;
	sa.state_size = PCC_DEV_SIMPLE_STATE_MAX + 1;
	expect_einval(&sa);
	sa.state_size = PCC_DEV_SIMPLE_STATE_MAX;
	sa.initial_rate = PCC_DEV_MAX_RATE + 1;
	expect_einval(&sa);
	sa.initial_rate = 0;
	assert_int_equal(pcc_dev_simple_register(&sa), 0);
	assert_int_equal(pcc_dev_simple_ops("bad")->ctx_size, PCC_DEV_CTX_MAX);
	assert_int_equal(pcc_dev_algo_unregister("bad"), 0);
	assert_null(pcc_dev_simple_ops("bad"));

	/* parameters */
	p[0] = (struct pcc_dev_named_param){
		.name = "A", .type = PCC_DEV_PARAM_U32, .offset = 0, .max = { .u = 10 }
	};
	p[1] = (struct pcc_dev_named_param){
		.name = "B", .type = PCC_DEV_PARAM_U64, .offset = 8, .max = { .u = 10 }
	};
	sa = (struct pcc_dev_simple_algo){
		.name = "bad", .step = aimd_step, .params = p, .n_params = 2, .params_size = 16
	};
	assert_int_equal(pcc_dev_simple_register(&sa), 0);
	assert_int_equal(pcc_dev_algo_unregister("bad"), 0);
	sa.params_size = 12;
	expect_einval(&sa); /* B outside the struct */
	sa.params_size = PCC_DEV_SIMPLE_PARAMS_MAX + 8;
	expect_einval(&sa);
	sa.params_size = 16;
	p[1].offset = 4;
	expect_einval(&sa); /* U64 unaligned */
	p[1].offset = 8;
	p[0].offset = 2;
	expect_einval(&sa); /* U32 unaligned */
	p[0].offset = 8;
	expect_einval(&sa); /* overlaps B */
	p[0].offset = 0;
	p[0].name = "A.B";
	expect_einval(&sa);
	p[0].name = "A2345678901234567890123456789"; /* 29: no room for ".hi" */
	expect_einval(&sa);
	p[0].name = "B";
	expect_einval(&sa); /* duplicate */
	p[0].name = "A";
	p[0].type = 3;
	expect_einval(&sa);
	p[0].type = PCC_DEV_PARAM_U32;
	p[0].perm = PCC_DEV_PERM_RW;
	p[0].def.u = 11;
	expect_einval(&sa);
	p[0].def.u = 0;
	p[0].max.u = 1ull << 32;
	expect_einval(&sa); /* U32 max above UINT32_MAX */
	p[0].max.u = 10;
	p[0].min.u = 11;
	expect_einval(&sa);
	p[0].min.u = 0;
	p[0].type = PCC_DEV_PARAM_I32;
	p[0].min.i = (int64_t)INT32_MIN - 1;
	expect_einval(&sa);
	p[0].min.i = -3;
	p[0].def.i = -4;
	expect_einval(&sa);
	p[0].def.i = -3;
	assert_int_equal(pcc_dev_simple_register(&sa), 0);
	assert_int_equal(pcc_dev_algo_unregister("bad"), 0);
	sa.params = NULL;
	expect_einval(&sa);
	/* 23 U64 = 46 words > 44 */
	for (i = 0; i < 23; i++) {
		static char names[23][8];

		snprintf(names[i], sizeof(names[i]), "P%u", i);
		p[i] = (struct pcc_dev_named_param){
			.name = names[i], .type = PCC_DEV_PARAM_U64, .offset = i * 8
		};
	}
	sa = (struct pcc_dev_simple_algo){
		.name = "bad", .step = aimd_step, .params = p, .n_params = 23, .params_size = 23 * 8
	};
	expect_einval(&sa);
	sa.n_params = 22;
	assert_int_equal(pcc_dev_simple_register(&sa), 0);
	assert_int_equal(pcc_dev_simple_ops("bad")->n_params, 44);
	assert_int_equal(pcc_dev_algo_unregister("bad"), 0);

	/* metrics */
	for (i = 0; i <= PCC_DEV_MAX_COUNTERS; i++) {
		static char names[PCC_DEV_MAX_COUNTERS + 1][8];

		snprintf(names[i], sizeof(names[i]), "m%u", i);
		m[i] = (struct pcc_dev_simple_metric){ .name = names[i] };
	}
	sa = (struct pcc_dev_simple_algo){ .name = "bad",
		.step = aimd_step,
		.metrics = m,
		.n_metrics = PCC_DEV_MAX_COUNTERS + 1 };
	expect_einval(&sa);
	sa.n_metrics = PCC_DEV_MAX_COUNTERS;
	assert_int_equal(pcc_dev_simple_register(&sa), 0);
	assert_int_equal(pcc_dev_algo_unregister("bad"), 0);
	sa.n_metrics = 3;
	m[1].src = PCC_DEV_SIMPLE_M_COUNT;
	expect_einval(&sa);
	m[1].src = PCC_DEV_SIMPLE_M_CNP;
	m[2].src = PCC_DEV_SIMPLE_M_CNP;
	expect_einval(&sa); /* built-in twice */
	m[2].src = PCC_DEV_SIMPLE_M_CUSTOM;
	m[2].type = 3;
	expect_einval(&sa);
	m[2].type = PCC_DEV_COUNTER_MAX;
	m[2].name = "m1";
	expect_einval(&sa); /* duplicate name */
	m[2].name = "bad name";
	expect_einval(&sa);
	m[2].name = "m2";
	sa.metrics = NULL;
	expect_einval(&sa);
}

static void
test_generated_ops(void **state)
{
	const struct pcc_dev_algo_ops *ops = pcc_dev_simple_ops("aimd");

	(void)state;
	assert_non_null(ops);
	assert_ptr_equal(pcc_dev_algo_find("aimd"), ops);
	assert_null(pcc_dev_simple_ops("native"));
	assert_null(pcc_dev_simple_ops(NULL));
	assert_string_equal(ops->name, "aimd");
	assert_int_equal(ops->id, 0x77);
	assert_int_equal(ops->major, 1);
	assert_int_equal(ops->ctx_size, PCC_DEV_SIMPLE_HDR_SIZE + 8);
	assert_int_equal(ops->n_params, 5);
	assert_string_equal(ops->params[0].name, "AI");
	assert_string_equal(ops->params[1].name, "BIAS");
	assert_string_equal(ops->params[2].name, "BIG");
	assert_string_equal(ops->params[3].name, "BIG.hi");
	assert_string_equal(ops->params[4].name, "MD");
	assert_int_equal(ops->params[0].max, 100000);
	assert_int_equal(ops->params[1].def, (uint32_t)-5);
	assert_int_equal(ops->params[2].def, 0);
	assert_int_equal(ops->params[3].def, 1u << 8);
	assert_int_equal(ops->params[4].perm, PCC_DEV_PERM_RO);
	assert_int_equal(ops->n_counters, M_N);
	assert_string_equal(ops->counters[M_RTT_MIN].name, "rtt_min");
	assert_int_equal(ops->counters[M_RTT_MIN].type, PCC_DEV_COUNTER_MIN);
	assert_int_equal(ops->counters[M_RTT_MAX].type, PCC_DEV_COUNTER_MAX);
	assert_int_equal(ops->counters[M_CUSTOM].max, 5);
	assert_int_equal(pcc_dev_slot_event_mask(0, 0),
			~(PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_RTT) |
					PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_TIMER) |
					PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_CNP)));
	assert_int_equal(pcc_dev_param_id(0, 0, "BIG"), 2);
	assert_int_equal(pcc_dev_param_id(0, 0, "BIG.hi"), 3);

	/* called directly on a slot it is not bound to: harmless */
	{
		uint8_t ctx[PCC_DEV_CTX_MAX] = { 0 };
		struct pcc_dev_event ev = { .type = PCC_DEV_EVENT_TIMER };
		struct pcc_dev_attr attr = { .port = 0, .algo_slot = 5 };
		struct pcc_dev_results res = { .rate = 9 };
		uint32_t mask = 0, w = 1, words[5] = { 0 };

		ops->on_event(ctx, &ev, &attr, &res);
		attr.port = 200;
		ops->on_event(ctx, &ev, &attr, &res);
		assert_int_equal(res.rate, 9);
		assert_int_equal(seen.calls, 0);
		assert_int_equal(ops->init(0, 5, &mask), -EINVAL);
		assert_int_equal(ops->init(0, 0, NULL), -EINVAL);
		assert_int_equal(ops->set_params(0, 5, 0, 1, &w, words), -EINVAL);
		assert_int_equal(ops->set_params(0, 0, 4, 2, &w, words), -EINVAL);
	}
}

/* ---- The wrapper at work ---------------------------------------------- */

static int
send(uint8_t slot, void *ctx, uint8_t type, uint32_t ts, struct pcc_dev_results *res)
{
	struct pcc_dev_event ev = { .type = type, .ts = ts };

	if (type == PCC_DEV_EVENT_RTT) {
		/* 8000 ns total, 300 ns at the NP: 7700 ns */
		ev.rtt.req_send_ts = ts - 8000;
		ev.rtt.req_recv_ts = 123456;
		ev.rtt.resp_send_ts = 123456 + 300;
		ev.rtt.resp_recv_ts = ts;
	}
	return pcc_dev_dispatch(0, slot, ctx, &ev, res);
}

static void
test_rate_flow(void **state)
{
	uint8_t ctx[PCC_DEV_CTX_MAX] = { 0 }, ctx2[PCC_DEV_CTX_MAX] = { 0 };
	struct pcc_dev_results res;
	uint32_t v[M_N];
	unsigned int i;

	(void)state;
	/* masked: never reaches the wrapper */
	assert_int_equal(send(0, ctx, PCC_DEV_EVENT_TX, 10, &res), 1);
	assert_int_equal(send(0, ctx, PCC_DEV_EVENT_ACK, 10, &res), 1);

	/* CNPs are counted, no call; the new flow reports its initial rate */
	assert_int_equal(send(0, ctx, PCC_DEV_EVENT_CNP, 100, &res), 0);
	assert_int_equal(res.rate, 1u << 19);
	assert_int_equal(send(0, ctx, PCC_DEV_EVENT_CNP, 200, &res), 0);
	assert_int_equal(res.rate, 0); /* keep */
	assert_int_equal(send(0, ctx, PCC_DEV_EVENT_CNP, 300, &res), 0);
	assert_int_equal(seen.calls, 0);

	/* RTT: call with the snapshot; CNP -> x0.5; first call asks a probe */
	assert_int_equal(send(0, ctx, PCC_DEV_EVENT_RTT, 100000, &res), 0);
	assert_int_equal(seen.calls, 1);
	assert_int_equal(seen.in.rate, 1u << 19);
	assert_int_equal(seen.in.window, 0);
	assert_int_equal(seen.in.cnp_count, 3);
	assert_int_equal(seen.in.rtt_ns, 7700);
	assert_int_equal(seen.in.rtt_new, 1);
	assert_int_equal(seen.in.event, PCC_DEV_EVENT_RTT);
	assert_int_equal(seen.in.port, 0);
	assert_int_equal(seen.in.slot, 0);
	assert_int_equal(seen.in.active_flows, 1);
	assert_int_equal(seen.in.now, 100000);
	assert_int_equal(seen.params.ai, 1000);
	assert_int_equal(seen.params.bias, -5);
	assert_true(seen.params.big == 1ull << 40);
	assert_int_equal(seen.params.md_pct, 50);
	assert_int_equal(seen.state_calls, 1);
	assert_int_equal(res.rate, 1u << 18);
	assert_int_equal(res.rtt_req, 1);
	assert_int_equal(res.window, 0);

	/* timer: counters reset, no new RTT, +AI */
	assert_int_equal(send(0, ctx, PCC_DEV_EVENT_TIMER, 200000, &res), 0);
	assert_int_equal(seen.in.cnp_count, 0);
	assert_int_equal(seen.in.rtt_new, 0);
	assert_int_equal(seen.in.rtt_ns, 7700);
	assert_int_equal(seen.state_calls, 2);
	assert_int_equal(res.rate, (1u << 18) + 1000);
	assert_int_equal(res.rtt_req, 0);

	/* clamp at line rate */
	assert_int_equal(pcc_dev_param_set_str(0, 0, "AI", "100000"), 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(send(0, ctx, PCC_DEV_EVENT_TIMER, 300000 + i, &res), 0);
	assert_int_equal(res.rate, PCC_DEV_MAX_RATE);
	assert_int_equal(seen.params.ai, 100000);

	/* a second RTT sample; a second flow */
	assert_int_equal(send(0, ctx, PCC_DEV_EVENT_RTT, 500000, &res), 0);
	assert_int_equal(send(0, ctx2, PCC_DEV_EVENT_TIMER, 600000, &res), 0);
	assert_int_equal(seen.in.active_flows, 2);
	assert_int_equal(seen.state_calls, 1); /* its own state */
	assert_int_equal(res.rate, (1u << 19) + 100000);
	assert_int_equal(pcc_dev_active_flows(0, 0), 2);

	/* declared metrics */
	assert_int_equal(pcc_dev_counters_get(0, 0, v, M_N), M_N);
	assert_int_equal(v[M_CALLS], 14);
	assert_int_equal(v[M_CNP], 3);
	assert_int_equal(v[M_RTT_MIN], 7700);
	assert_int_equal(v[M_RTT_MAX], 7700);
	assert_int_equal(v[M_PROBES], 2);
	assert_int_equal(v[M_DEC], 1);
	assert_int_equal(v[M_FLOWS], 2);
	assert_int_equal(v[M_CUSTOM], 5); /* 28 saturated at 5 */
	assert_true(v[M_INC] >= 8);
	/* counters disabled: the wrapper still works */
	assert_int_equal(pcc_dev_counters_enable(0, 0, false), 0);
	assert_int_equal(send(0, ctx, PCC_DEV_EVENT_CNP, 700000, &res), 0);
	assert_int_equal(send(0, ctx, PCC_DEV_EVENT_TIMER, 700001, &res), 0);
	assert_int_equal(seen.in.cnp_count, 1);
}

static void
test_window_flow(void **state)
{
	uint8_t ctx[PCC_DEV_CTX_MAX] = { 0 };
	struct pcc_dev_results res;
	uint32_t v[2];

	(void)state;
	assert_int_equal(pcc_dev_simple_ops("win")->ctx_size, PCC_DEV_SIMPLE_HDR_SIZE);
	/* RTT is read (sampled) but does not call */
	assert_int_equal(send(1, ctx, PCC_DEV_EVENT_RTT, 50000, &res), 0);
	assert_int_equal(seen.calls, 0);
	assert_int_equal(res.window, 10000); /* window mode always reports */
	assert_int_equal(res.rate, 0);
	assert_int_equal(send(1, ctx, PCC_DEV_EVENT_ACK, 60000, &res), 0);
	assert_int_equal(seen.in.window, 10000);
	assert_int_equal(seen.in.rate, 0);
	assert_int_equal(seen.in.rtt_ns, 7700);
	assert_int_equal(res.window, 11000);
	/* CNP calls (listed in call_on): halves, floor at min_window */
	assert_int_equal(send(1, ctx, PCC_DEV_EVENT_CNP, 70000, &res), 0);
	assert_int_equal(seen.in.cnp_count, 1);
	assert_int_equal(res.window, 5500);
	assert_int_equal(send(1, ctx, PCC_DEV_EVENT_CNP, 80000, &res), 0);
	assert_int_equal(res.window, 3000);
	assert_int_equal(send(1, ctx, PCC_DEV_EVENT_TIMER, 90000, &res), 1); /* masked */
	/* only the declared metric exists */
	assert_int_equal(pcc_dev_counters_get(0, 1, v, 2), 1);
	assert_int_equal(v[0], 3);
}

/* ---- Named parameters -------------------------------------------------- */

static void
test_named_params(void **state)
{
	struct pcc_dev_param_info info[5];
	union pcc_dev_param_val v;
	uint32_t w[2];

	(void)state;
	assert_int_equal(pcc_dev_param_count(0, 0), 4);
	assert_int_equal(pcc_dev_param_list(0, 0, info, 5), 4);
	assert_string_equal(info[2].name, "BIG");
	assert_int_equal(info[2].id, 2);
	assert_int_equal(info[2].type, PCC_DEV_PARAM_U64);
	assert_true(info[2].cur.u == 1ull << 40);
	assert_true(info[1].cur.i == -5);
	assert_true(info[1].min.i == -100);
	assert_int_equal(info[3].id, 4);
	assert_int_equal(info[3].perm, PCC_DEV_PERM_RO);
	assert_int_equal(pcc_dev_param_list(0, 0, info, 1), 4);
	assert_int_equal(pcc_dev_param_list(0, 0, NULL, 0), 4);
	assert_int_equal(pcc_dev_param_list(0, 0, NULL, 1), -EINVAL);

	/* typed set, visible to the algorithm's struct */
	v.i = -50;
	assert_int_equal(pcc_dev_param_set_by_name(0, 0, "BIAS", v), 0);
	assert_int_equal(pcc_dev_param_get_by_name(0, 0, "BIAS", &info[0]), 0);
	assert_true(info[0].cur.i == -50);
	assert_int_equal(pcc_dev_params(0, 0)[1], (uint32_t)-50);
	v.i = -101;
	assert_int_equal(pcc_dev_param_set_by_name(0, 0, "BIAS", v), -ERANGE);
	v.u = (1ull << 41) + 1;
	assert_int_equal(pcc_dev_param_set_by_name(0, 0, "BIG", v), -ERANGE);
	v.u = 1ull << 35;
	assert_int_equal(pcc_dev_param_set_by_name(0, 0, "BIG", v), 0);
	assert_int_equal(pcc_dev_params(0, 0)[2], 0);
	assert_int_equal(pcc_dev_params(0, 0)[3], 8);
	v.u = 50;
	assert_int_equal(pcc_dev_param_set_by_name(0, 0, "MD", v), -EPERM);
	assert_int_equal(pcc_dev_param_set_by_name(0, 0, "nope", v), -ENOENT);
	assert_int_equal(pcc_dev_param_set_by_name(0, 0, NULL, v), -EINVAL);
	assert_int_equal(pcc_dev_param_set_by_name(0, 5, "AI", v), -ENOENT);

	/* the generic word path enforces the typed limits too */
	w[0] = (uint32_t)-200;
	assert_int_equal(pcc_dev_params_set(0, 0, 1, 1, w), -ERANGE);
	assert_int_equal(pcc_dev_params(0, 0)[1], (uint32_t)-50); /* nothing applied */
	w[0] = 4; /* BIG.hi: 4 << 32 = 2^34, in range */
	assert_int_equal(pcc_dev_params_set(0, 0, 3, 1, w), 0);
	w[0] = 1u << 10; /* 2^42: out of range */
	assert_int_equal(pcc_dev_params_set(0, 0, 3, 1, w), -ERANGE);
	assert_int_equal(pcc_dev_param_get_by_name(0, 0, "BIG", &info[0]), 0);
	assert_true(info[0].cur.u == 1ull << 34);

	/* the algorithm sees the struct */
	{
		uint8_t ctx[PCC_DEV_CTX_MAX] = { 0 };
		struct pcc_dev_results res;

		assert_int_equal(send(0, ctx, PCC_DEV_EVENT_TIMER, 1, &res), 0);
		assert_int_equal(seen.params.bias, -50);
		assert_true(seen.params.big == 1ull << 34);
	}

	/* from text */
	assert_int_equal(pcc_dev_param_set_str(0, 0, "AI", "0x10"), 0);
	assert_int_equal(pcc_dev_params(0, 0)[0], 16);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "AI", " 17"), 0);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "BIAS", "-7"), 0);
	assert_int_equal(pcc_dev_params(0, 0)[1], (uint32_t)-7);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "BIG", "8589934592"), 0);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "AI", "-1"), -EINVAL);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "AI", "abc"), -EINVAL);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "AI", "12x"), -EINVAL);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "AI", ""), -EINVAL);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "AI", NULL), -EINVAL);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "AI", "4294967296"), -ERANGE);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "AI", "0"), -ERANGE);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "BIG", "18446744073709551616"), -ERANGE);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "BIAS", "2147483648"), -ERANGE);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "BIAS", "-x"), -EINVAL);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "MD", "3"), -EPERM);
	assert_int_equal(pcc_dev_param_set_str(0, 0, "ZZ", "3"), -ENOENT);
	assert_int_equal(pcc_dev_params(0, 0)[0], 17);

	/* rebinding restores the defaults, in the struct too */
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	assert_int_equal(pcc_dev_param_get_by_name(0, 0, "BIAS", &info[0]), 0);
	assert_true(info[0].cur.i == -5);

	/* a native algorithm: all U32, one per id */
	assert_int_equal(pcc_dev_param_count(0, 2), 2);
	assert_int_equal(pcc_dev_param_list(0, 2, info, 5), 2);
	assert_string_equal(info[1].name, "LOCKED");
	assert_int_equal(info[1].type, PCC_DEV_PARAM_U32);
	assert_int_equal(info[1].id, 1);
	assert_true(info[0].cur.u == 3 && info[0].max.u == 10 && info[0].def.u == 3);
	v.u = 7;
	assert_int_equal(pcc_dev_param_set_by_name(0, 2, "K", v), 0);
	assert_int_equal(pcc_dev_params(0, 2)[0], 7);
	v.u = 11;
	assert_int_equal(pcc_dev_param_set_by_name(0, 2, "K", v), -ERANGE);
	v.u = (1ull << 32) + 7;
	assert_int_equal(pcc_dev_param_set_by_name(0, 2, "K", v), -ERANGE);
	assert_int_equal(pcc_dev_param_set_str(0, 2, "K", "9"), 0);
	assert_int_equal(pcc_dev_param_set_str(0, 2, "LOCKED", "0"), -EPERM);
	assert_int_equal(pcc_dev_param_get_by_name(0, 2, "K", NULL), -EINVAL);
	assert_int_equal(pcc_dev_param_count(0, 3), -ENOENT);
	assert_int_equal(pcc_dev_param_count(1, 0), -EINVAL);
}

/* Active flows count the flows that are active: a flow that ended (the
 * engine removed it) is taken off again. */
static void
test_active_flows_end(void **state)
{
	uint8_t a[PCC_DEV_CTX_MAX] = { 0 }, b[PCC_DEV_CTX_MAX] = { 0 }, c[PCC_DEV_CTX_MAX] = { 0 };
	uint8_t never[PCC_DEV_CTX_MAX] = { 0 };
	struct pcc_dev_results res;

	(void)state;
	assert_int_equal(send(0, a, PCC_DEV_EVENT_TIMER, 100, &res), 0);
	assert_int_equal(send(0, b, PCC_DEV_EVENT_TIMER, 200, &res), 0);
	assert_int_equal(send(0, c, PCC_DEV_EVENT_CNP, 300, &res), 0);
	assert_int_equal(pcc_dev_active_flows(0, 0), 3);
	assert_int_equal(send(0, a, PCC_DEV_EVENT_TIMER, 400, &res), 0);
	assert_int_equal(seen.in.active_flows, 3);

	/* b ends: 2 left, and the next snapshot says so */
	assert_int_equal(pcc_dev_flow_end(0, 0, b), 0);
	assert_int_equal(pcc_dev_active_flows(0, 0), 2);
	assert_int_equal(send(0, a, PCC_DEV_EVENT_TIMER, 500, &res), 0);
	assert_int_equal(seen.in.active_flows, 2);
	/* its context is not counted twice; a flow that never had an event
	 * was never counted */
	assert_int_equal(pcc_dev_flow_end(0, 0, b), 0);
	assert_int_equal(pcc_dev_flow_end(0, 0, never), 0);
	assert_int_equal(pcc_dev_active_flows(0, 0), 2);
	/* an entry re-used by a new flow (zeroed context) counts again */
	memset(b, 0, sizeof(b));
	assert_int_equal(send(0, b, PCC_DEV_EVENT_TIMER, 600, &res), 0);
	assert_int_equal(pcc_dev_active_flows(0, 0), 3);
	assert_int_equal(pcc_dev_flow_end(0, 0, a), 0);
	assert_int_equal(pcc_dev_flow_end(0, 0, b), 0);
	assert_int_equal(pcc_dev_flow_end(0, 0, c), 0);
	assert_int_equal(pcc_dev_active_flows(0, 0), 0);

	/* the figure set by hand is not taken below zero by late ends */
	assert_int_equal(send(0, a, PCC_DEV_EVENT_TIMER, 700, &res), 0);
	assert_int_equal(pcc_dev_active_flows_set(0, 0, 0), 0);
	assert_int_equal(pcc_dev_flow_end(0, 0, a), 0);
	assert_int_equal(pcc_dev_active_flows(0, 0), 0);

	/* window mode too; a native algorithm without on_flow_end is fine */
	memset(a, 0, sizeof(a));
	assert_int_equal(send(1, a, PCC_DEV_EVENT_ACK, 800, &res), 0);
	assert_int_equal(pcc_dev_active_flows(0, 1), 1);
	assert_int_equal(pcc_dev_flow_end(0, 1, a), 0);
	assert_int_equal(pcc_dev_active_flows(0, 1), 0);
	assert_int_equal(pcc_dev_flow_end(0, 2, a), 0);

	/* refusals */
	assert_int_equal(pcc_dev_flow_end(0, 0, NULL), -EINVAL);
	assert_int_equal(pcc_dev_flow_end(1, 0, a), -EINVAL);
	assert_int_equal(pcc_dev_flow_end(0, 9, a), -EINVAL);
	assert_int_equal(pcc_dev_flow_end(0, 3, a), -ENOENT);
}

static void
test_unregister(void **state)
{
	(void)state;
	assert_int_equal(pcc_dev_algo_unregister("win"), -EBUSY);
	assert_int_equal(pcc_dev_algo_unload(0, 1), 0);
	assert_int_equal(pcc_dev_algo_unregister("win"), 0);
	assert_null(pcc_dev_simple_ops("win"));
	assert_null(pcc_dev_algo_find("win"));
	assert_int_equal(pcc_dev_simple_register(&win), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_validation, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_generated_ops, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_rate_flow, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_window_flow, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_named_params, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_active_flows_end, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_unregister, test_setup, test_teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
