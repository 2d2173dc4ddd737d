/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of libmango's handle API (lib/compat/mango) in the
 * compatibility environment, as a libmango program gets it: the EAL
 * started by the first mango_pcc_create() from PCC_EAL_ARGS (two
 * workers), a ring pair (PCC_RING_PAIR) whose port 0 is "roce0"
 * (PCC_DEVICES) and the generator (PCC_ENGINE_OPTS).  Every refusal of
 * every call with its status and a log line naming the call, then a
 * run: QPs appear, CNPs and window updates are counted, a slot applied
 * to one QP and to all, the baseline of a second run, parameters walked
 * in both modes.
 * Conditions are waited for with timeouts, never slept on.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_log.h>

#include "libmango.h"
#include "pcc_host.h"
#include "test_log_capture.h"

#define QPN0 0x100u /* the generator's first QPN */
#define WAIT_MS 20000

/* ---- Algorithms ------------------------------------------------------------------- */

struct win_params {
	uint32_t step;
	uint8_t shift;
	uint8_t pad;
	uint16_t tag;
	uint32_t calls;
	uint64_t big;
	double gain;
};

static const struct win_params win_init = {
	.step = 1000, .shift = 1, .tag = 7, .calls = 0, .big = 5, .gain = 0.5
};

static uint32_t legacy_calls[2], event_calls[2];
/* set: QP0's next window-style call applies slot 5 to QP0 mid-call */
static mango_pcc_h apply_inside;
static uint32_t legacy_at_apply; /* legacy_calls[0] when it did */

static void
win_algo(void *params)
{
	struct win_params *p = params;
	unsigned int q = mango_pcc_event_get_val(MANGO_PCC_EVENT_QP_NUM) - QPN0;
	unsigned int w = mango_pcc_window_current();

	p->calls++;
	if (q < 2)
		__atomic_fetch_add(&legacy_calls[q], 1, __ATOMIC_RELAXED);
	if (q == 0 && __atomic_load_n(&apply_inside, __ATOMIC_ACQUIRE) != NULL) {
		/* the control thread changes the slot while this call runs */
		const unsigned int one[1] = { QPN0 };

		if (mango_pcc_ctrl_apply_algo(apply_inside, 5, one, 1) == MANGO_STATUS_SUCCESS) {
			legacy_at_apply = legacy_calls[0];
			__atomic_store_n(&apply_inside, NULL, __ATOMIC_RELEASE);
		}
	}
	mango_pcc_window_update(mango_pcc_event_cnp_cnt() > 0 ? w >> p->shift : w + p->step);
}

static mango_pcc_result_t
evt_algo(void *params, const mango_pcc_context_t *ctx)
{
	uint32_t *calls = params;
	mango_pcc_result_t r;
	unsigned int q = mango_pcc_event_get_val(MANGO_PCC_EVENT_QP_NUM) - QPN0;

	memset(&r, 0, sizeof(r));
	(*calls)++;
	if (q < 2)
		__atomic_fetch_add(&event_calls[q], 1, __ATOMIC_RELAXED);
	/* a different window every call: one update each */
	r.new_window = ctx->current_window + ((*calls & 1) ? 1 : -1);
	return r;
}

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- Refusals -------------------------------------------------------------------- */

/* Run a call that must be refused: its status, and one log line naming it. */
#define REFUSED(call, status, name)                          \
	do {                                                 \
		unsigned int with_;                          \
		log_capture();                               \
		assert_int_equal((call), (status));          \
		assert_true(log_release(name, &with_) >= 1); \
		assert_true(with_ >= 1);                     \
	} while (0)

static void
test_create(void **state)
{
	mango_pcc_h h = (mango_pcc_h)1, h2;
	unsigned int with;

	(void)state;
	REFUSED(mango_pcc_create(NULL, &h), MANGO_STATUS_INVALID_ARG, "mango_pcc_create");
	assert_null(h);
	REFUSED(mango_pcc_create("roce0", NULL), MANGO_STATUS_INVALID_ARG, "mango_pcc_create");
	/* an unknown name: refused, the known ones listed */
	log_capture();
	assert_int_equal(mango_pcc_create("mlx5_9", &h), MANGO_STATUS_NOT_FOUND);
	log_release("no device 'mlx5_9' (known: roce0", &with);
	assert_int_equal(with, 1);
	assert_int_equal(mango_pcc_create("roce0", &h), MANGO_STATUS_SUCCESS);
	assert_non_null(h);
	/* one handle per device, whatever its name */
	REFUSED(mango_pcc_create("roce0", &h2), MANGO_STATUS_ALREADY_OPENED, "has a handle");
	REFUSED(mango_pcc_create("net_ring_pcc_compatA", &h2), MANGO_STATUS_ALREADY_OPENED,
			"has a handle");
	assert_non_null(mango_pcc_get_context(h));
	assert_int_equal(pcc_host_ctx_port(
					 (const struct pcc_host_ctx *)(void *)mango_pcc_get_context(
							 h)),
			0);
	assert_int_equal(mango_pcc_destroy(h), MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_destroy(h), MANGO_STATUS_INVALID_HANDLE, "mango_pcc_destroy");
}

static void
walk_count(const char *name, mango_pcc_param_type_e type, void *value, void *arg)
{
	(void)name;
	(void)type;
	(void)value;
	(*(unsigned int *)arg)++;
}

/* Every handle call on a handle that is not one. */
static void
test_bad_handles(void **state)
{
	int not_a_handle = 0;
	mango_pcc_h bad[3] = { NULL, &not_a_handle, NULL };
	mango_pcc_config_t cfg = { .option = MANGO_PCC_CONFIG_INTERVAL, .value.interval_us = 10 };
	uint32_t list[8], n, w;
	uint64_t c;
	unsigned int i, k = 0;

	(void)state;
	assert_int_equal(mango_pcc_create("roce0", &bad[2]), MANGO_STATUS_SUCCESS);
	assert_int_equal(mango_pcc_destroy(bad[2]), MANGO_STATUS_SUCCESS); /* destroyed */
	for (i = 0; i < RTE_DIM(bad); i++) {
		mango_pcc_h h = bad[i];
		const mango_status_e st = MANGO_STATUS_INVALID_HANDLE;

		REFUSED(mango_pcc_destroy(h), st, "mango_pcc_destroy");
		REFUSED(mango_pcc_ctrl_config(h, &cfg), st, "mango_pcc_ctrl_config");
		REFUSED(mango_pcc_ctrl_reg_algo(h, 0, win_algo, &win_init, sizeof(win_init)), st,
				"mango_pcc_ctrl_reg_algo");
		REFUSED(mango_pcc_ctrl_reg_algo_event(h, 0, evt_algo, 0, &k, sizeof(k)), st,
				"mango_pcc_ctrl_reg_algo_event");
		REFUSED(mango_pcc_ctrl_unreg_algo(h, 0), st, "mango_pcc_ctrl_unreg_algo");
		REFUSED(mango_pcc_ctrl_apply_algo(h, 0, NULL, 0), st, "mango_pcc_ctrl_apply_algo");
		REFUSED(mango_pcc_ctrl_run(h, 1), st, "mango_pcc_ctrl_run");
		REFUSED(mango_pcc_ctrl_stop(h), st, "mango_pcc_ctrl_stop");
		REFUSED(mango_pcc_active_qp_list(h, list, &n), st, "mango_pcc_active_qp_list");
		REFUSED(mango_pcc_cnp_count_by_qp(h, QPN0, &c), st, "mango_pcc_cnp_count_by_qp");
		REFUSED(mango_pcc_window_current_by_qp(h, QPN0, &w), st,
				"mango_pcc_window_current_by_qp");
		REFUSED(mango_pcc_window_count_by_qp(h, QPN0, &w), st,
				"mango_pcc_window_count_by_qp");
		REFUSED(mango_pcc_param_register(h, 0, "step", MANGO_PCC_PARAM_UINT32, 0), st,
				"mango_pcc_param_register");
		REFUSED(mango_pcc_params_register(h, 0, NULL, 0), st, "mango_pcc_params_register");
		REFUSED(mango_pcc_walk_params(h, 0, walk_count, &k, 0), st,
				"mango_pcc_walk_params");
		log_capture();
		assert_null(mango_pcc_get_context(h));
		assert_int_equal(log_release("mango_pcc_get_context", &n), 1);
	}
	assert_int_equal(k, 0);
}

static void
test_config_and_algos(void **state)
{
	mango_pcc_config_t cfg = { .option = MANGO_PCC_CONFIG_INTERVAL, .value.interval_us = 0 };
	const unsigned int qps[1] = { QPN0 };
	uint32_t k = 0;
	mango_pcc_h h;

	(void)state;
	assert_int_equal(mango_pcc_create("roce0", &h), MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_ctrl_config(h, NULL), MANGO_STATUS_INVALID_ARG, "mango_pcc_ctrl_config");
	REFUSED(mango_pcc_ctrl_config(h, &cfg), MANGO_STATUS_INVALID_ARG, "interval 0 us");
	cfg.value.interval_us = MANGO_PCC_INTERVAL_MAX_US + 1;
	REFUSED(mango_pcc_ctrl_config(h, &cfg), MANGO_STATUS_INVALID_ARG, "not 1..");
	cfg.option = (mango_pcc_config_option_e)3;
	REFUSED(mango_pcc_ctrl_config(h, &cfg), MANGO_STATUS_INVALID_ARG,
			"is not a mango_pcc_config_option_e");
	cfg.option = MANGO_PCC_CONFIG_INTERVAL;
	cfg.value.interval_us = 200;
	assert_int_equal(mango_pcc_ctrl_config(h, &cfg), MANGO_STATUS_SUCCESS);

	/* registration */
	REFUSED(mango_pcc_ctrl_reg_algo(
				h, MANGO_PCC_MAX_SLOTS, win_algo, &win_init, sizeof(win_init)),
			MANGO_STATUS_INVALID_ARG, "slot 8: not 0..7");
	REFUSED(mango_pcc_ctrl_reg_algo(h, 0, NULL, &win_init, sizeof(win_init)),
			MANGO_STATUS_INVALID_ARG, "NULL algorithm");
	REFUSED(mango_pcc_ctrl_reg_algo_event(h, 0, NULL, 0, NULL, 0), MANGO_STATUS_INVALID_ARG,
			"NULL algorithm");
	REFUSED(mango_pcc_ctrl_reg_algo_event(h, 0, evt_algo, 0x10, &k, sizeof(k)),
			MANGO_STATUS_INVALID_ARG, "unknown bits 0x10");
	REFUSED(mango_pcc_ctrl_reg_algo(h, 0, win_algo, &win_init, MANGO_PCC_PARAMS_SIZE_MAX + 1),
			MANGO_STATUS_INVALID_ARG, "at most");
	REFUSED(mango_pcc_ctrl_reg_algo(h, 0, win_algo, NULL, 8), MANGO_STATUS_INVALID_ARG,
			"NULL initial parameters");
	assert_int_equal(mango_pcc_ctrl_reg_algo(h, 0, win_algo, NULL, 0), MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_ctrl_reg_algo(h, 0, win_algo, &win_init, sizeof(win_init)),
			MANGO_STATUS_ALREADY_OPENED, "has an algorithm");
	REFUSED(mango_pcc_ctrl_reg_algo_event(h, 0, evt_algo, 0, &k, sizeof(k)),
			MANGO_STATUS_ALREADY_OPENED, "has an algorithm");

	/* applying */
	REFUSED(mango_pcc_ctrl_apply_algo(h, 9, NULL, 0), MANGO_STATUS_INVALID_ARG, "slot 9");
	REFUSED(mango_pcc_ctrl_apply_algo(h, 3, NULL, 0), MANGO_STATUS_NOT_FOUND,
			"slot 3 has no algorithm");
	REFUSED(mango_pcc_ctrl_apply_algo(h, 0, qps, 0), MANGO_STATUS_INVALID_ARG,
			"an empty QP list");
	REFUSED(mango_pcc_ctrl_apply_algo(h, 0, qps, 1), MANGO_STATUS_NOT_FOUND,
			"QP 0x100 (entry 0): not a QP");
	assert_int_equal(mango_pcc_ctrl_apply_algo(h, 0, NULL, 0), MANGO_STATUS_SUCCESS);

	/* unregistering */
	REFUSED(mango_pcc_ctrl_unreg_algo(h, 8), MANGO_STATUS_INVALID_ARG,
			"mango_pcc_ctrl_unreg_algo");
	REFUSED(mango_pcc_ctrl_unreg_algo(h, 4), MANGO_STATUS_NOT_FOUND, "slot 4 has no algorithm");
	assert_int_equal(mango_pcc_ctrl_unreg_algo(h, 0), MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_ctrl_unreg_algo(h, 0), MANGO_STATUS_NOT_FOUND, "slot 0 has no algorithm");

	/* running: needs an algorithm and lcores; stopping needs a run */
	REFUSED(mango_pcc_ctrl_run(h, 1), MANGO_STATUS_INVALID_STATE, "no algorithm registered");
	assert_int_equal(mango_pcc_ctrl_reg_algo(h, 1, win_algo, &win_init, sizeof(win_init)),
			MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_ctrl_run(h, 0), MANGO_STATUS_INVALID_ARG, "0 threads");
	REFUSED(mango_pcc_ctrl_run(h, 3), MANGO_STATUS_NO_RESOURCE,
			"3 threads, the EAL has 2 worker lcores");
	REFUSED(mango_pcc_ctrl_stop(h), MANGO_STATUS_INVALID_STATE, "does not run");
	assert_int_equal(mango_pcc_destroy(h), MANGO_STATUS_SUCCESS);
}

/* ---- Parameters -------------------------------------------------------------------- */

struct seen_param {
	char name[MANGO_PCC_PARAM_NAME_MAX];
	mango_pcc_param_type_e type;
	uint64_t value;
};

static struct seen_param seen[80];
static unsigned int nb_seen;

/* Records each parameter; sets "step" to 4321 through the pointer. */
static void
walk_rec(const char *name, mango_pcc_param_type_e type, void *value, void *arg)
{
	struct seen_param *s = &seen[nb_seen % RTE_DIM(seen)];

	assert_ptr_equal(arg, &nb_seen);
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->type = type;
	s->value = 0;
	switch (type) {
	case MANGO_PCC_PARAM_UINT8:
		s->value = *(uint8_t *)value;
		break;
	case MANGO_PCC_PARAM_UINT16:
		s->value = *(uint16_t *)value;
		break;
	case MANGO_PCC_PARAM_UINT32:
		s->value = *(uint32_t *)value;
		break;
	default:
		memcpy(&s->value, value, 8);
		break;
	}
	if (strcmp(name, "step") == 0)
		*(uint32_t *)value = 4321;
	nb_seen++;
}

static void
test_params(void **state)
{
	static const mango_pcc_param_t list[] = {
		REGISTER_U32_PARAM(struct win_params, step),
		REGISTER_U8_PARAM(struct win_params, shift),
		REGISTER_U16_PARAM(struct win_params, tag),
		REGISTER_U64_PARAM(struct win_params, big),
		REGISTER_DOUBLE_PARAM(struct win_params, gain),
	};
	mango_pcc_param_t bad[2] = { REGISTER_U32_PARAM(struct win_params, calls),
		{ "odd", MANGO_PCC_PARAM_UINT32, 2 } };
	char name[8];
	mango_pcc_h h;
	unsigned int i;

	(void)state;
	assert_int_equal(mango_pcc_create("roce0", &h), MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_param_register(h, 2, "step", MANGO_PCC_PARAM_UINT32, 0),
			MANGO_STATUS_NOT_FOUND, "slot 2 has no algorithm");
	REFUSED(mango_pcc_param_register(h, 9, "step", MANGO_PCC_PARAM_UINT32, 0),
			MANGO_STATUS_INVALID_ARG, "slot 9");
	assert_int_equal(mango_pcc_ctrl_reg_algo(h, 2, win_algo, &win_init, sizeof(win_init)),
			MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_param_register(h, 2, NULL, MANGO_PCC_PARAM_UINT32, 0),
			MANGO_STATUS_INVALID_ARG, "NULL parameter name");
	REFUSED(mango_pcc_param_register(h, 2, "", MANGO_PCC_PARAM_UINT32, 0),
			MANGO_STATUS_INVALID_ARG, "empty parameter name");
	REFUSED(mango_pcc_param_register(h, 2, "a_name_that_is_longer_than_thirty_one",
				MANGO_PCC_PARAM_UINT32, 0),
			MANGO_STATUS_INVALID_ARG, "longer than 31");
	REFUSED(mango_pcc_param_register(h, 2, "step", (mango_pcc_param_type_e)10, 0),
			MANGO_STATUS_INVALID_ARG, "type 10 is not");
	REFUSED(mango_pcc_param_register(
				h, 2, "step", MANGO_PCC_PARAM_UINT64, sizeof(win_init) - 4),
			MANGO_STATUS_INVALID_ARG, "outside the");
	REFUSED(mango_pcc_param_register(h, 2, "step", MANGO_PCC_PARAM_UINT32, 2),
			MANGO_STATUS_INVALID_ARG, "not aligned");
	REFUSED(mango_pcc_params_register(h, 2, NULL, 3), MANGO_STATUS_INVALID_ARG,
			"NULL parameter array");
	REFUSED(mango_pcc_params_register(h, 2, list, 0), MANGO_STATUS_INVALID_ARG,
			"no parameters");
	/* one bad descriptor: nothing registered */
	REFUSED(mango_pcc_params_register(h, 2, bad, 2), MANGO_STATUS_INVALID_ARG,
			"nothing registered");
	nb_seen = 0;
	assert_int_equal(mango_pcc_walk_params(h, 2, walk_rec, &nb_seen, 0), MANGO_STATUS_SUCCESS);
	assert_int_equal(nb_seen, 0);

	assert_int_equal(
			mango_pcc_params_register(h, 2, list, RTE_DIM(list)), MANGO_STATUS_SUCCESS);
	/* a name registered already: kept; the others are registered */
	REFUSED(mango_pcc_param_register(h, 2, "step", MANGO_PCC_PARAM_UINT32, 0),
			MANGO_STATUS_ALREADY_OPENED, "registered already");
	assert_int_equal(mango_pcc_params_register(h, 2, bad, 1), MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_params_register(h, 2, list, 2), MANGO_STATUS_ALREADY_OPENED,
			"registered already");

	/* read mode: the initial values (no QP ran it), a copy each */
	REFUSED(mango_pcc_walk_params(h, 2, NULL, NULL, 0), MANGO_STATUS_INVALID_ARG,
			"NULL callback");
	REFUSED(mango_pcc_walk_params(h, 5, walk_rec, &nb_seen, 0), MANGO_STATUS_NOT_FOUND,
			"slot 5 has no algorithm");
	nb_seen = 0;
	assert_int_equal(mango_pcc_walk_params(h, 2, walk_rec, &nb_seen, 0), MANGO_STATUS_SUCCESS);
	assert_int_equal(nb_seen, 6);
	assert_string_equal(seen[0].name, "step");
	assert_int_equal(seen[0].type, MANGO_PCC_PARAM_UINT32);
	assert_int_equal(seen[0].value, 1000);
	assert_string_equal(seen[1].name, "shift");
	assert_int_equal(seen[1].value, 1);
	assert_string_equal(seen[3].name, "big");
	assert_int_equal(seen[3].value, 5);
	assert_string_equal(seen[5].name, "calls");
	nb_seen = 0;
	assert_int_equal(mango_pcc_walk_params(h, 2, walk_rec, &nb_seen, 0), MANGO_STATUS_SUCCESS);
	assert_int_equal(seen[0].value, 1000); /* the write did not stick */
	/* write mode: it does; another mode is read mode */
	assert_int_equal(mango_pcc_walk_params(h, 2, walk_rec, &nb_seen, 1), MANGO_STATUS_SUCCESS);
	nb_seen = 0;
	assert_int_equal(mango_pcc_walk_params(h, 2, walk_rec, &nb_seen, 7), MANGO_STATUS_SUCCESS);
	assert_int_equal(seen[0].value, 4321);

	/* at most MANGO_PCC_MAX_PARAMS: the same field under more names */
	for (i = 6; i < MANGO_PCC_MAX_PARAMS; i++) {
		snprintf(name, sizeof(name), "p%u", i);
		assert_int_equal(mango_pcc_param_register(h, 2, name, MANGO_PCC_PARAM_UINT32, 0),
				MANGO_STATUS_SUCCESS);
	}
	REFUSED(mango_pcc_param_register(h, 2, "one_more", MANGO_PCC_PARAM_UINT32, 0),
			MANGO_STATUS_NO_RESOURCE, "parameters registered already");
	assert_int_equal(mango_pcc_destroy(h), MANGO_STATUS_SUCCESS);
}

/* ---- A run on the ring pair -------------------------------------------------------- */

/* Wait until every one of the n first QPs has its CNP count and window
 * update count at least min; false after WAIT_MS. */
static bool
wait_counts(mango_pcc_h h, unsigned int nqp, uint64_t min)
{
	uint64_t end = now_ms() + WAIT_MS;
	static uint32_t list[MAX_QPS];

	do {
		uint32_t n = 0, i, ok = 0, cnt;
		uint64_t cnp;

		assert_int_equal(mango_pcc_active_qp_list(h, list, &n), MANGO_STATUS_SUCCESS);
		for (i = 0; i < n; i++)
			if (mango_pcc_cnp_count_by_qp(h, list[i], &cnp) == MANGO_STATUS_SUCCESS &&
					mango_pcc_window_count_by_qp(h, list[i], &cnt) ==
							MANGO_STATUS_SUCCESS &&
					cnp >= min && cnt >= min)
				ok++;
		if (n == nqp && ok == nqp)
			return true;
		usleep(5000); /* a poll interval */
	} while (now_ms() < end);
	return false;
}

static bool
wait_calls(uint32_t *counter, uint32_t target)
{
	uint64_t end = now_ms() + WAIT_MS;

	while (__atomic_load_n(counter, __ATOMIC_RELAXED) < target) {
		if (now_ms() > end)
			return false;
		usleep(2000);
	}
	return true;
}

static uint64_t
flow_cnps(uint32_t qpn)
{
	struct pcc_host_flow_key k;
	struct pcc_host_flow f;

	memset(&k, 0, sizeof(k));
	k.port_id = 0;
	k.qpn = qpn;
	assert_int_equal(pcc_host_flow_get(&k, &f), 0);
	return f.cnp_rx;
}

static void
test_run_ring_pair(void **state)
{
	mango_pcc_config_t cfg = { .option = MANGO_PCC_CONFIG_INTERVAL, .value.interval_us = 50 };
	uint32_t list[MAX_QPS], n = 0, w, cnt, e, l;
	uint64_t t1, c2;
	uint32_t zero = 0;
	mango_pcc_h h;

	(void)state;
	assert_int_equal(mango_pcc_create("roce0", &h), MANGO_STATUS_SUCCESS);
	assert_int_equal(mango_pcc_ctrl_config(h, &cfg), MANGO_STATUS_SUCCESS);
	assert_int_equal(mango_pcc_ctrl_reg_algo(h, 2, win_algo, &win_init, sizeof(win_init)),
			MANGO_STATUS_SUCCESS);
	assert_int_equal(mango_pcc_ctrl_reg_algo_event(
					 h, 5, evt_algo, MANGO_PCC_METRIC_CNP, &zero, sizeof(zero)),
			MANGO_STATUS_SUCCESS);
	assert_int_equal(mango_pcc_ctrl_run(h, 1), MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_ctrl_run(h, 1), MANGO_STATUS_INVALID_STATE, "runs already");
	/* the interval is the engine's now */
	cfg.value.interval_us = 70;
	REFUSED(mango_pcc_ctrl_config(h, &cfg), MANGO_STATUS_INVALID_STATE,
			"the engine runs with 50 us");
	cfg.value.interval_us = 50;
	assert_int_equal(mango_pcc_ctrl_config(h, &cfg), MANGO_STATUS_SUCCESS);

	/* both generator QPs appear, run slot 2 (the lowest registered),
	 * count CNPs and window updates */
	assert_true(wait_counts(h, 2, 3));
	assert_true(wait_calls(&legacy_calls[0], 100));
	assert_int_equal(mango_pcc_active_qp_list(h, list, &n), MANGO_STATUS_SUCCESS);
	assert_int_equal(n, 2);
	assert_true(list[0] == QPN0 || list[1] == QPN0);
	assert_true(legacy_calls[0] > 0 && legacy_calls[1] > 0);
	assert_int_equal(event_calls[0] + event_calls[1], 0);
	assert_int_equal(mango_pcc_window_current_by_qp(h, QPN0, &w), MANGO_STATUS_SUCCESS);
	assert_true(w != MANGO_PCC_WINDOW_INIT);
	REFUSED(mango_pcc_cnp_count_by_qp(h, 0x999, &t1), MANGO_STATUS_NOT_FOUND,
			"QP 0x999: not a QP");
	REFUSED(mango_pcc_cnp_count_by_qp(h, QPN0, NULL), MANGO_STATUS_INVALID_ARG,
			"NULL output pointer");
	REFUSED(mango_pcc_window_current_by_qp(h, QPN0, NULL), MANGO_STATUS_INVALID_ARG,
			"NULL output pointer");
	REFUSED(mango_pcc_window_count_by_qp(h, QPN0, NULL), MANGO_STATUS_INVALID_ARG,
			"NULL output pointer");
	REFUSED(mango_pcc_active_qp_list(h, NULL, &n), MANGO_STATUS_INVALID_ARG, "NULL QP list");
	REFUSED(mango_pcc_active_qp_list(h, list, NULL), MANGO_STATUS_INVALID_ARG, "NULL QP count");
	/* slot 2 runs QPs: not while running */
	REFUSED(mango_pcc_ctrl_unreg_algo(h, 2), MANGO_STATUS_BUSY, "QPs run it");

	/* slot 5 for QP0 alone: it runs the event-style algorithm from now,
	 * the other QP the window one; QP0's update count restarted.  The
	 * change lands in the middle of a window-style call of QP0, whose
	 * update counts for slot 2, not for slot 5. */
	__atomic_store_n(&apply_inside, h, __ATOMIC_RELEASE);
	assert_true(wait_calls(&event_calls[0], 20));
	assert_null(__atomic_load_n(&apply_inside, __ATOMIC_ACQUIRE));
	/* the interrupted call was QP0's last window-style one */
	assert_int_equal(__atomic_load_n(&legacy_calls[0], __ATOMIC_RELAXED), legacy_at_apply);
	assert_int_equal(event_calls[1], 0);
	assert_int_equal(mango_pcc_window_count_by_qp(h, QPN0, &cnt), MANGO_STATUS_SUCCESS);
	e = __atomic_load_n(&event_calls[0], __ATOMIC_RELAXED);
	/* updates since the change only (there were 100 before it) */
	assert_true(cnt <= e);
	l = __atomic_load_n(&legacy_calls[1], __ATOMIC_RELAXED);
	assert_true(wait_calls(&legacy_calls[1], l + 5));

	/* slot 5 for all: slot 2 is free to go */
	assert_int_equal(mango_pcc_ctrl_apply_algo(h, 5, NULL, 0), MANGO_STATUS_SUCCESS);
	assert_true(wait_calls(&event_calls[1], 5));
	assert_int_equal(mango_pcc_ctrl_unreg_algo(h, 2), MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_ctrl_unreg_algo(h, 5), MANGO_STATUS_BUSY, "QPs run it");

	/* a second run counts CNPs from its start (the baseline) */
	assert_int_equal(mango_pcc_ctrl_stop(h), MANGO_STATUS_SUCCESS);
	/* stopped: QP0's updates since the change are its slot-5 calls'
	 * (one each), none of the window-style call it interrupted.  The
	 * stop pauses the port when the ring pair's other port still runs:
	 * one slot-5 call may then be between its count and its update */
	assert_int_equal(mango_pcc_window_count_by_qp(h, QPN0, &cnt), MANGO_STATUS_SUCCESS);
	e = __atomic_load_n(&event_calls[0], __ATOMIC_RELAXED);
	assert_true(cnt <= e && cnt + 1 >= e);
	REFUSED(mango_pcc_ctrl_stop(h), MANGO_STATUS_INVALID_STATE, "does not run");
	assert_int_equal(mango_pcc_cnp_count_by_qp(h, QPN0, &t1), MANGO_STATUS_SUCCESS);
	assert_true(t1 > 0);
	REFUSED(mango_pcc_ctrl_run(h, 3), MANGO_STATUS_NO_RESOURCE, "3 threads");
	/* the engine fixed the threads at the first run */
	REFUSED(mango_pcc_ctrl_run(h, 2), MANGO_STATUS_INVALID_STATE,
			"2 threads: the engine runs device 'roce0' with 1");
	assert_int_equal(mango_pcc_ctrl_run(h, 1), MANGO_STATUS_SUCCESS);
	assert_int_equal(mango_pcc_cnp_count_by_qp(h, QPN0, &c2), MANGO_STATUS_SUCCESS);
	assert_true(c2 + t1 <= flow_cnps(QPN0));
	assert_true(wait_counts(h, 2, 1));

	assert_int_equal(mango_pcc_destroy(h), MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_active_qp_list(h, list, &n), MANGO_STATUS_INVALID_HANDLE, "not a handle");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create),
		cmocka_unit_test(test_bad_handles),
		cmocka_unit_test(test_config_and_algos),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_run_ring_pair),
	};
	int cpu0 = -1, cpu1 = -1, c;
	char eal[256];
	cpu_set_t set;

	/* the main lcore and two workers, on the CPUs the test may use */
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		if (cpu0 < 0)
			cpu0 = c;
		cpu1 = c;
	}
	snprintf(eal, sizeof(eal),
			"--lcores 0@%d,(1-2)@%d --no-huge -m 512 --no-pci --no-shconf "
			"--no-telemetry --file-prefix mango-ut-%d --log-level lib.*:error "
			"--log-level pcc.*:warning",
			cpu0, cpu1, (int)getpid());
	setenv("PCC_EAL_ARGS", eal, 1);
	setenv("PCC_RING_PAIR", "1", 1);
	setenv("PCC_DEVICES", "roce0=port:0", 1);
	setenv("PCC_ENGINE_OPTS", "gen-flows=2 gen-ce=10 gen-rate=200 idle-sleep=20 flows=256", 1);
	unsetenv("PCC_SIM");
	unsetenv("PCC_COMPAT_CONF");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
