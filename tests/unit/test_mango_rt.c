/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the libmango runtime (lib/compat/mango/mango_rt.c) behind
 * a lib/dev algorithm, events dispatched by hand: QP entries from flows,
 * CNP counts and RTT samples, the algorithm call every timer event with
 * its current-QP view (window, CNPs, event values, requests), window-style
 * and event-style algorithms with their metrics, each QP's own copy of
 * the parameters, active QPs as flows come and go, slots applied to QPs,
 * baselines, a full QP table, stale contexts, the lib/dev counters, and
 * every call made outside an algorithm refused with a log line.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_log.h>

#include "mango_rt.h"
#include "pcc_dev.h"
#include "test_log_capture.h"

static struct mango_rt *rt;

static int
t_init(uint8_t port, uint8_t slot, uint32_t *mask)
{
	(void)port;
	(void)slot;
	mango_rt_disable_mask(mask);
	return 0;
}

static void
t_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	mango_rt_event(rt, ctx, ev, attr, res);
}

static void
t_on_flow_end(void *ctx, const struct pcc_dev_attr *attr)
{
	(void)attr;
	mango_rt_flow_end(rt, ctx);
}

static const struct pcc_dev_algo_ops t_ops = {
	.name = "mango_rt_test",
	.ctx_size = sizeof(struct mango_flow),
	.counters = mango_rt_counters,
	.n_counters = MANGO_CTR_NB,
	.init = t_init,
	.on_event = t_on_event,
	.on_flow_end = t_on_flow_end,
};

/* A flow: its lib/dev context and QPN. */
struct flow {
	uint8_t ctx[PCC_DEV_CTX_SIZE];
	uint32_t qpn;
};

static int
send_ev(struct flow *f, uint8_t type, struct pcc_dev_results *res)
{
	struct pcc_dev_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.flow_qpn = f->qpn;
	ev.ts = 1000000;
	if (type == PCC_DEV_EVENT_CNP)
		ev.ack.coalesced = 1;
	if (type == PCC_DEV_EVENT_RTT) {
		/* 9000 ns in all, 1500 of them at the NP: 7500 */
		ev.rtt.req_send_ts = ev.ts - 9000;
		ev.rtt.req_recv_ts = 500;
		ev.rtt.resp_send_ts = 2000;
	}
	return pcc_dev_dispatch(0, 0, f->ctx, &ev, res);
}

/* ---- The algorithms the tests register ---------------------------------------- */

struct t_params {
	uint32_t step;
	uint32_t calls; /* per QP */
	uint64_t big;
};

static const struct t_params t_init_params = { .step = 1000, .calls = 0, .big = 1ull << 40 };

/* What the last call saw. */
static struct {
	unsigned int calls;
	unsigned int cnp, window, rtt, rtt_new, active, qpn, poller;
	uint32_t qp_calls;
	void *params;
	mango_pcc_context_t ctx;
	unsigned int updates; /* window updates to make */
	unsigned int new_window;
	int request;
	mango_status_e request_st;
	struct mango_qp *apply_q; /* set: apply apply_slot to it mid-call */
	uint8_t apply_slot;
} seen;

static void
legacy(void *params)
{
	struct t_params *p = params;
	unsigned int i;

	seen.calls++;
	seen.params = params;
	seen.cnp = mango_pcc_event_cnp_cnt();
	seen.window = mango_pcc_window_current();
	seen.rtt = mango_pcc_event_get_val(MANGO_PCC_EVENT_RTT);
	seen.rtt_new = mango_pcc_event_get_val(MANGO_PCC_EVENT_RTT_UPDATED);
	seen.active = mango_pcc_event_get_val(MANGO_PCC_EVENT_ACTIVE_QPS);
	seen.qpn = mango_pcc_event_get_val(MANGO_PCC_EVENT_QP_NUM);
	seen.poller = mango_pcc_event_get_val(MANGO_PCC_EVENT_POLLER);
	assert_int_equal(mango_pcc_event_get_val(MANGO_PCC_EVENT_CNP), seen.cnp);
	seen.qp_calls = ++p->calls;
	if (seen.apply_q != NULL) {
		/* the control thread changes the slot while the call runs */
		mango_rt_apply(rt, seen.apply_q, seen.apply_slot);
		seen.apply_q = NULL;
	}
	for (i = 0; i < seen.updates; i++)
		mango_pcc_window_update(seen.new_window + i);
	if (seen.request)
		seen.request_st = mango_pcc_event_request(MANGO_PCC_EVENT_RTT);
}

static mango_pcc_result_t
event_style(void *params, const mango_pcc_context_t *ctx)
{
	mango_pcc_result_t r;

	memset(&r, 0, sizeof(r));
	seen.calls++;
	seen.params = params;
	seen.ctx = *ctx;
	r.new_window = seen.new_window;
	r.request_rtt_probe = (uint32_t)seen.request;
	return r;
}

static void
counters(uint32_t *v)
{
	assert_int_equal(pcc_dev_counters_get(0, 0, v, MANGO_CTR_NB), MANGO_CTR_NB);
}

static int
setup(void **state)
{
	struct pcc_dev_conf dc = { .n_ports = 1, .n_threads = 1 };

	(void)state;
	memset(&seen, 0, sizeof(seen));
	rt = mango_rt_create("test");
	assert_non_null(rt);
	pcc_dev_thread_set_rank(0);
	assert_int_equal(pcc_dev_init(&dc), 0);
	assert_int_equal(pcc_dev_algo_load(0, 0, "mango_rt_test"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	pcc_dev_fini();
	mango_rt_free(rt);
	rt = NULL;
	return 0;
}

static void
use_legacy(unsigned int slot)
{
	struct mango_algo *a =
			mango_rt_algo_new(legacy, NULL, 0, &t_init_params, sizeof(t_init_params));

	assert_non_null(a);
	assert_null(mango_rt_algo_swap(rt, slot, a));
}

/* ---- Tests ------------------------------------------------------------------------ */

static void
test_events_and_call(void **state)
{
	struct flow f = { .qpn = 0x123 };
	struct pcc_dev_results res;
	struct mango_qp *q;
	uint32_t v[MANGO_CTR_NB];

	(void)state;
	use_legacy(2);
	rt->default_slot = 2;
	/* masked: TX and ACK never reach the runtime */
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TX, &res), 1);
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_ACK, &res), 1);
	assert_null(mango_rt_find(rt, 0x123));
	/* CNPs counted; the QP appears with the initial window */
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(res.window, MANGO_PCC_WINDOW_INIT);
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_RTT, &res), 0);
	q = mango_rt_find(rt, 0x123);
	assert_non_null(q);
	assert_int_equal(mango_rt_qp_slot(q), 2);
	assert_int_equal(mango_rt_qp_cnp(q), 2);
	assert_int_equal(seen.calls, 0);

	/* the timer calls the algorithm with the QP's view */
	seen.updates = 1;
	seen.new_window = 30000;
	seen.request = 1;
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(seen.calls, 1);
	assert_int_equal(seen.cnp, 2);
	assert_int_equal(seen.window, MANGO_PCC_WINDOW_INIT);
	assert_int_equal(seen.rtt, 7500);
	assert_int_equal(seen.rtt_new, 1);
	assert_int_equal(seen.active, 1);
	assert_int_equal(seen.qpn, 0x123);
	assert_int_equal(seen.poller, 0);
	assert_int_equal(seen.request_st, MANGO_STATUS_SUCCESS);
	assert_int_equal(((struct t_params *)seen.params)->step, 1000);
	assert_true(((struct t_params *)seen.params)->big == 1ull << 40);
	assert_int_equal(res.window, 30000);
	assert_int_equal(res.rtt_req, 1);
	assert_int_equal(mango_rt_qp_window(q), 30000);
	assert_int_equal(mango_rt_qp_win_count(q), 1);

	/* next interval: CNPs and the new RTT flag start again; three
	 * updates count three, the last wins; 0 is raised to the minimum */
	seen.updates = 3;
	seen.new_window = 0;
	seen.request = 0;
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(seen.cnp, 0);
	assert_int_equal(seen.rtt_new, 0);
	assert_int_equal(seen.rtt, 7500);
	assert_int_equal(seen.window, 30000);
	assert_int_equal(seen.qp_calls, 2);
	assert_int_equal(res.window, 2);
	assert_int_equal(res.rtt_req, 0);
	assert_int_equal(mango_rt_qp_win_count(q), 4);
	seen.updates = 1;
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(res.window, MANGO_PCC_WINDOW_MIN);

	/* no update: the window stays */
	seen.updates = 0;
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(res.window, MANGO_PCC_WINDOW_MIN);
	assert_int_equal(mango_rt_qp_win_count(q), 5);

	counters(v);
	assert_int_equal(v[MANGO_CTR_CALLS], 4);
	assert_int_equal(v[MANGO_CTR_CNP], 2);
	assert_int_equal(v[MANGO_CTR_RTT], 1);
	assert_int_equal(v[MANGO_CTR_WIN_UPDATES], 5);
	assert_int_equal(v[MANGO_CTR_PROBES], 1);
	assert_int_equal(v[MANGO_CTR_QPS], 1);
	assert_int_equal(v[MANGO_CTR_UNTRACKED], 0);
}

static void
test_coalesced_cnp_and_baseline(void **state)
{
	struct flow f = { .qpn = 7 };
	struct pcc_dev_results res;
	struct pcc_dev_event ev;
	struct mango_qp *q;

	(void)state;
	use_legacy(0);
	rt->default_slot = 0;
	memset(&ev, 0, sizeof(ev));
	ev.type = PCC_DEV_EVENT_CNP;
	ev.flow_qpn = 7;
	ev.ack.coalesced = 5;
	assert_int_equal(pcc_dev_dispatch(0, 0, f.ctx, &ev, &res), 0);
	q = mango_rt_find(rt, 7);
	assert_int_equal(mango_rt_qp_cnp(q), 5);
	/* a run's baseline: counts from now */
	mango_rt_baseline(rt);
	assert_int_equal(mango_rt_qp_cnp(q), 0);
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(mango_rt_qp_cnp(q), 1);
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(seen.cnp, 6);
}

static void
test_params_per_qp_and_apply(void **state)
{
	struct flow a = { .qpn = 100 }, b = { .qpn = 101 };
	struct t_params other = { .step = 5, .calls = 40, .big = 0 };
	struct pcc_dev_results res;
	struct mango_algo *alg;
	struct mango_qp *qa, *qb;
	void *pa;

	(void)state;
	use_legacy(0);
	rt->default_slot = 0;
	assert_int_equal(send_ev(&a, PCC_DEV_EVENT_TIMER, &res), 0);
	pa = seen.params;
	assert_int_equal(send_ev(&a, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(seen.qp_calls, 2);
	assert_ptr_equal(seen.params, pa);
	assert_int_equal(send_ev(&b, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(seen.qp_calls, 1); /* its own copy */
	assert_ptr_not_equal(seen.params, pa);
	qa = mango_rt_find(rt, 100);
	qb = mango_rt_find(rt, 101);
	alg = rt->algo[0];
	assert_non_null(mango_rt_qp_params(rt, alg, (uint32_t)(qa - rt->qp), 0));
	assert_null(mango_rt_qp_params(rt, alg, (uint32_t)(qa - rt->qp), 1));

	/* slot 1 applied to b: its own algorithm and parameters, and its
	 * window update count restarts */
	alg = mango_rt_algo_new(legacy, NULL, 0, &other, sizeof(other));
	assert_null(mango_rt_algo_swap(rt, 1, alg));
	seen.updates = 1;
	seen.new_window = 9000;
	assert_int_equal(send_ev(&b, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(mango_rt_qp_win_count(qb), 1);
	assert_true(mango_rt_slot_used(rt, 0));
	assert_false(mango_rt_slot_used(rt, 1));
	mango_rt_apply(rt, qb, 1);
	assert_true(mango_rt_slot_used(rt, 1));
	assert_int_equal(mango_rt_qp_win_count(qb), 0);
	seen.updates = 0;
	assert_int_equal(send_ev(&b, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(seen.qp_calls, 41);
	assert_int_equal(((struct t_params *)seen.params)->step, 5);
	assert_int_equal(mango_rt_qp_win_count(qb), 0);
	assert_int_equal(mango_rt_qp_window(qb), 9000); /* kept across the change */
	seen.updates = 1;
	seen.new_window = 8000;
	assert_int_equal(send_ev(&b, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(mango_rt_qp_win_count(qb), 1);
	/* the same slot again: nothing restarts */
	mango_rt_apply(rt, qb, 1);
	assert_int_equal(mango_rt_qp_win_count(qb), 1);
	/* a change during a call: that call's updates count for the slot it
	 * ran, not for the new one */
	seen.updates = 2;
	seen.apply_q = qb;
	seen.apply_slot = 0;
	assert_int_equal(send_ev(&b, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(((struct t_params *)seen.params)->step, 5);
	assert_int_equal(mango_rt_qp_slot(qb), 0);
	assert_int_equal(mango_rt_qp_window(qb), 8001);
	assert_int_equal(mango_rt_qp_win_count(qb), 0);
	seen.updates = 1;
	assert_int_equal(send_ev(&b, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(((struct t_params *)seen.params)->step, 1000);
	assert_int_equal(mango_rt_qp_win_count(qb), 1);
	/* back and forth between two calls: the count restarts all the same */
	mango_rt_apply(rt, qb, 1);
	mango_rt_apply(rt, qb, 0);
	assert_int_equal(mango_rt_qp_win_count(qb), 0);
	assert_int_equal(send_ev(&b, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(mango_rt_qp_win_count(qb), 1);
	mango_rt_apply(rt, qb, 1);
	/* a QP without a slot runs nothing */
	mango_rt_apply(rt, qa, MANGO_RT_NO_SLOT);
	seen.calls = 0;
	assert_int_equal(send_ev(&a, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(seen.calls, 0);
	assert_int_equal(res.window, MANGO_PCC_WINDOW_INIT);
	/* emptying slot 1 forgets the QPs' copies of its parameters */
	assert_true(qb->inited & (1u << 1));
	mango_rt_algo_free(mango_rt_algo_swap(rt, 1, NULL));
	assert_false(qb->inited & (1u << 1));
	assert_true(qb->inited & (1u << 0));
	seen.calls = 0;
	assert_int_equal(send_ev(&b, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(seen.calls, 0);
}

static void
test_event_style(void **state)
{
	struct flow f = { .qpn = 0x42 }, g = { .qpn = 0x43 };
	struct pcc_dev_results res;
	struct mango_algo *a;
	uint32_t v[MANGO_CTR_NB];

	(void)state;
	a = mango_rt_algo_new(
			NULL, event_style, MANGO_PCC_METRIC_CNP | MANGO_PCC_METRIC_RTT, NULL, 0);
	assert_non_null(a);
	mango_rt_algo_swap(rt, 3, a);
	rt->default_slot = 3;
	assert_int_equal(send_ev(&g, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_RTT, &res), 0);
	seen.new_window = 12345;
	seen.request = 1;
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_null(seen.params); /* no parameters */
	assert_int_equal(seen.ctx.current_window, MANGO_PCC_WINDOW_INIT);
	assert_int_equal(seen.ctx.cnp_delta, 1);
	assert_true(seen.ctx.latest_rtt_ns == 7500);
	assert_int_equal(seen.ctx.rtt_updated, 1);
	assert_int_equal(seen.ctx.active_qp_count, 2);
	assert_int_equal(res.window, 12345);
	assert_int_equal(res.rtt_req, 1);
	/* the same window, or 0: no update */
	seen.new_window = 12345;
	seen.request = 0;
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	seen.new_window = 0;
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(res.window, 12345);
	assert_int_equal(res.rtt_req, 0);
	assert_int_equal(mango_rt_qp_win_count(mango_rt_find(rt, 0x42)), 1);
	counters(v);
	assert_int_equal(v[MANGO_CTR_WIN_UPDATES], 1);
	assert_int_equal(v[MANGO_CTR_PROBES], 1);

	/* metrics not asked for read 0 */
	mango_rt_algo_free(mango_rt_algo_swap(rt, 3, NULL));
	mango_rt_algo_swap(rt, 3, mango_rt_algo_new(NULL, event_style, 0, NULL, 0));
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_RTT, &res), 0);
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(seen.ctx.cnp_delta, 0);
	assert_true(seen.ctx.latest_rtt_ns == 0);
	assert_int_equal(seen.ctx.rtt_updated, 0);
	assert_int_equal(seen.ctx.current_window, 12345);
	assert_int_equal(seen.ctx.active_qp_count, 2);
}

static void
test_active_qps(void **state)
{
	struct flow a = { .qpn = 10 }, b = { .qpn = 11 }, a2 = { .qpn = 10 };
	struct pcc_dev_results res;
	uint32_t list[MANGO_PCC_MAX_QPS];

	(void)state;
	assert_int_equal(mango_rt_active_list(rt, list), 0);
	assert_int_equal(send_ev(&a, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(send_ev(&b, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(mango_rt_active_list(rt, list), 2);
	assert_int_equal(list[0], 10);
	assert_int_equal(list[1], 11);
	assert_int_equal(rt->active, 2);
	/* a second flow of QP 10 (a logical port shared by two hosts) */
	assert_int_equal(send_ev(&a2, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(rt->active, 2);
	assert_int_equal(mango_rt_qp_cnp(mango_rt_find(rt, 10)), 2);
	/* flows end: QP 10 stays active while a flow of it is left */
	assert_int_equal(pcc_dev_flow_end(0, 0, a.ctx), 0);
	assert_int_equal(mango_rt_active_list(rt, list), 2);
	assert_int_equal(pcc_dev_flow_end(0, 0, a2.ctx), 0);
	assert_int_equal(mango_rt_active_list(rt, list), 1);
	assert_int_equal(list[0], 11);
	/* ending twice, or a flow never seen, changes nothing */
	assert_int_equal(pcc_dev_flow_end(0, 0, a2.ctx), 0);
	memset(a2.ctx, 0, sizeof(a2.ctx));
	assert_int_equal(pcc_dev_flow_end(0, 0, a2.ctx), 0);
	assert_int_equal(rt->active, 1);
	/* QP 10 comes back (its entry and counts were kept) */
	assert_int_equal(send_ev(&a, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(mango_rt_active_list(rt, list), 2);
	assert_int_equal(mango_rt_qp_cnp(mango_rt_find(rt, 10)), 3);
	assert_int_equal(mango_rt_count(rt), 2);

	/* a reset forgets the QPs: old contexts are looked up again */
	mango_rt_reset(rt);
	assert_null(mango_rt_find(rt, 10));
	assert_int_equal(send_ev(&a, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(mango_rt_active_list(rt, list), 1);
	assert_int_equal(mango_rt_qp_cnp(mango_rt_find(rt, 10)), 1);
	assert_int_equal(pcc_dev_flow_end(0, 0, b.ctx), 0); /* stale: ignored */
	assert_int_equal(rt->active, 1);
}

static void
test_untracked(void **state)
{
	static struct flow fl[MANGO_PCC_MAX_QPS + 2];
	struct flow nonroce = { .qpn = 0 };
	struct pcc_dev_results res;
	unsigned int i, with;
	uint32_t v[MANGO_CTR_NB];

	(void)state;
	log_capture();
	/* a flow without a QPN is not followed: no window from the runtime */
	assert_int_equal(send_ev(&nonroce, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(res.window, 0);
	for (i = 0; i < RTE_DIM(fl); i++) {
		memset(fl[i].ctx, 0, sizeof(fl[i].ctx));
		fl[i].qpn = 0x1000 + i;
		assert_int_equal(send_ev(&fl[i], PCC_DEV_EVENT_CNP, &res), 0);
		assert_int_equal(res.window, i < MANGO_PCC_MAX_QPS ? MANGO_PCC_WINDOW_INIT : 0);
	}
	/* once more: a context remembers it is not followed */
	assert_int_equal(send_ev(&fl[MANGO_PCC_MAX_QPS], PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(log_release("not followed", &with), 1);
	assert_int_equal(with, 1);
	assert_int_equal(mango_rt_count(rt), MANGO_PCC_MAX_QPS);
	assert_non_null(mango_rt_find(rt, 0x1000 + MANGO_PCC_MAX_QPS - 1));
	assert_null(mango_rt_find(rt, 0x1000 + MANGO_PCC_MAX_QPS));
	assert_null(mango_rt_find(rt, 0));
	assert_null(mango_rt_find(rt, UINT32_MAX));
	counters(v);
	assert_int_equal(v[MANGO_CTR_QPS], MANGO_PCC_MAX_QPS);
	assert_int_equal(v[MANGO_CTR_UNTRACKED], 3);
	assert_int_equal(rt->untracked, 3);
}

/* Every algorithm-side call outside an algorithm: 0, nothing done, a log
 * line naming the call; bad enum values too. */
static void
test_outside_algo(void **state)
{
	unsigned int with;

	(void)state;
	log_capture();
	assert_int_equal(mango_pcc_window_current(), 0);
	mango_pcc_window_update(5000);
	assert_int_equal(mango_pcc_event_cnp_cnt(), 0);
	assert_int_equal(mango_pcc_event_get_val(MANGO_PCC_EVENT_RTT), 0);
	assert_int_equal(mango_pcc_event_request(MANGO_PCC_EVENT_RTT), MANGO_STATUS_INVALID_STATE);
	assert_int_equal(mango_pcc_event_request((mango_pcc_event_e)99), MANGO_STATUS_INVALID_ARG);
	assert_int_equal(log_release("outside a PCC algorithm", &with), 6);
	assert_int_equal(with, 5);
}

static void
bad_event_algo(void *params)
{
	(void)params;
	seen.calls++;
	seen.rtt = mango_pcc_event_get_val((mango_pcc_event_e)42);
	seen.request_st = mango_pcc_event_request(MANGO_PCC_EVENT_CNP);
	mango_pcc_log(MANGO_LOG_LEVEL_WARNING, "inside %d\n", 7);
}

static void
test_bad_values_inside(void **state)
{
	struct flow f = { .qpn = 0x77 };
	struct pcc_dev_results res;
	unsigned int with;

	(void)state;
	mango_rt_algo_swap(rt, 0, mango_rt_algo_new(bad_event_algo, NULL, 0, NULL, 0));
	rt->default_slot = 0;
	pcc_dev_thread_set_rank(0);
	log_capture();
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(seen.calls, 1);
	assert_int_equal(seen.rtt, 0);
	assert_int_equal(seen.request_st, MANGO_STATUS_NOT_SUPPORTED);
	assert_int_equal(log_release("mango_pcc_event_", &with), 3);
	assert_int_equal(with, 2);
	/* the log line of the algorithm names its poller and QP, once */
	log_capture();
	assert_int_equal(send_ev(&f, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(log_release("pcc.mango[poller 0 qp 0x77]: inside 7", &with), 3);
	assert_int_equal(with, 1);
}

static void
test_log(void **state)
{
	unsigned int with;

	(void)state;
	rte_log_set_level(mango_logtype, RTE_LOG_DEBUG);
	log_capture();
	mango_pcc_log(MANGO_LOG_LEVEL_CRITICAL, "c%d", 1);
	mango_pcc_log(MANGO_LOG_LEVEL_ERROR, "e%d", 2);
	mango_pcc_log(MANGO_LOG_LEVEL_WARNING, "w%d", 3);
	mango_pcc_log(MANGO_LOG_LEVEL_INFO, "i%d", 4);
	mango_pcc_log(MANGO_LOG_LEVEL_DEBUG, "d%d", 5);
	assert_int_equal(log_release("pcc.mango[main]: ", &with), 5);
	assert_int_equal(with, 5);
	/* below the log level: nothing */
	rte_log_set_level(mango_logtype, RTE_LOG_INFO);
	log_capture();
	mango_pcc_log(MANGO_LOG_LEVEL_DEBUG, "quiet");
	assert_int_equal(log_release("quiet", &with), 0);
	/* a bad level: logged as an error, said so; a NULL format */
	log_capture();
	mango_pcc_log((mango_log_level_e)77, "odd %s", "level");
	mango_pcc_log(MANGO_LOG_LEVEL_INFO, NULL);
	assert_int_equal(log_release("mango_pcc_log: ", &with), 3);
	assert_int_equal(with, 2);
}

static void
test_param_types(void **state)
{
	(void)state;
	assert_int_equal(mango_param_size(MANGO_PCC_PARAM_UINT8), 1);
	assert_int_equal(mango_param_size(MANGO_PCC_PARAM_INT16), 2);
	assert_int_equal(mango_param_size(MANGO_PCC_PARAM_FLOAT), 4);
	assert_int_equal(mango_param_size(MANGO_PCC_PARAM_UINT64), 8);
	assert_int_equal(mango_param_size(MANGO_PCC_PARAM_DOUBLE), 8);
	assert_int_equal(mango_param_size(MANGO_PCC_PARAM_TYPE_MAX), 0);
	assert_int_equal(mango_param_size((mango_pcc_param_type_e)-1), 0);
	assert_string_equal(mango_param_type_name(MANGO_PCC_PARAM_INT32), "int32");
	assert_string_equal(mango_param_type_name((mango_pcc_param_type_e)99), "?");
	assert_int_equal(sizeof(mango_pcc_context_t), 64);
	assert_int_equal(sizeof(mango_pcc_result_t), 32);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_events_and_call, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coalesced_cnp_and_baseline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_params_per_qp_and_apply, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_style, setup, teardown),
		cmocka_unit_test_setup_teardown(test_active_qps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_untracked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outside_algo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_values_inside, setup, teardown),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_param_types),
	};

	rte_log_set_level_pattern("pcc.dev", RTE_LOG_EMERG);
	if (pcc_dev_algo_register(&t_ops) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
