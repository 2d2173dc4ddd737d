/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of lib/dev core: registry and its validation, device state,
 * algorithm indexes and slots, dispatch, parameters, counters (per thread
 * sets, types, saturation, get-and-clear, groups) and the memory
 * declaration.  No EAL.
 */

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_log.h>

#include "pcc_dev.h"
#include "pcc_dev_hist.h"

/* ---- Toy algorithm -------------------------------------------------- */

enum {
	P_ALPHA,
	P_BETA,
	P_RO,
	P_GAMMA,
	P_N
};
enum {
	C_EVENTS,
	C_MIN,
	C_MAX,
	C_CAPPED,
	C_N
};

static const struct pcc_dev_param_desc toy_params[P_N] = {
	{ .id = P_ALPHA,
			.name = "ALPHA",
			.def = 10,
			.min = 0,
			.max = 100,
			.perm = PCC_DEV_PERM_RW },
	{ .id = P_BETA, .name = "BETA", .def = 5, .min = 1, .max = 9, .perm = PCC_DEV_PERM_RW },
	{ .id = P_RO, .name = "RO_PARAM", .def = 7, .min = 7, .max = 7, .perm = PCC_DEV_PERM_RO },
	{ .id = P_GAMMA,
			.name = "GAMMA",
			.def = 0,
			.min = 0,
			.max = 1000,
			.perm = PCC_DEV_PERM_RW },
};

static const struct pcc_dev_counter_desc toy_counters[C_N] = {
	{ .id = C_EVENTS, .name = "events", .type = PCC_DEV_COUNTER_ACCUMULATE },
	{ .id = C_MIN, .name = "min", .type = PCC_DEV_COUNTER_MIN },
	{ .id = C_MAX, .name = "max", .type = PCC_DEV_COUNTER_MAX, .max = 1000 },
	{ .id = C_CAPPED, .name = "capped", .type = PCC_DEV_COUNTER_ACCUMULATE, .max = 100 },
};

static struct {
	unsigned int calls;
	unsigned int init_calls;
	int init_rc;        /* what init returns */
	uint32_t init_mask; /* what init sets */
	bool res_was_zero;
	struct pcc_dev_attr attr;
	struct pcc_dev_attr end_attr; /* of the last on_flow_end */
	unsigned int end_calls;
	uint8_t last_type;
	unsigned int set_params_calls;
} toy;

static int
toy_init(uint8_t port, uint8_t slot, uint32_t *mask)
{
	(void)port;
	(void)slot;
	toy.init_calls++;
	*mask = toy.init_mask;
	return toy.init_rc;
}

static void
toy_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	static const struct pcc_dev_results zero;

	(void)ctx;
	toy.calls++;
	toy.res_was_zero = memcmp(res, &zero, sizeof(zero)) == 0;
	toy.attr = *attr;
	toy.last_type = ev->type;
	res->rate = 0x1234;
	res->rtt_req = 1;
	res->window = 77;
}

static void
toy_on_flow_end(void *ctx, const struct pcc_dev_attr *attr)
{
	(void)ctx;
	toy.end_calls++;
	toy.end_attr = *attr;
}

static int
toy_set_params(uint8_t port, uint8_t slot, uint32_t id_base, uint32_t num,
		const uint32_t *new_values, uint32_t *params)
{
	uint32_t i;

	(void)port;
	(void)slot;
	toy.set_params_calls++;
	for (i = 0; i < num; i++)
		if (id_base + i == P_GAMMA && new_values[i] == 666)
			return -EINVAL;
	/* write garbage first: must never reach the slot on refusal */
	for (i = 0; i < num; i++)
		params[id_base + i] = new_values[i];
	return 0;
}

static struct pcc_dev_algo_ops toy_ops = {
	.name = "toy",
	.id = 0x42,
	.major = 1,
	.minor = 2,
	.desc = "toy algorithm",
	.params = toy_params,
	.n_params = P_N,
	.counters = toy_counters,
	.n_counters = C_N,
	.init = toy_init,
	.on_event = toy_on_event,
	.on_flow_end = toy_on_flow_end,
	.set_params = toy_set_params,
};

/* Same tables, no init, no set_params. */
static struct pcc_dev_algo_ops plain_ops = {
	.name = "plain",
	.params = toy_params,
	.n_params = P_N,
	.counters = toy_counters,
	.n_counters = C_N,
	.on_event = toy_on_event,
};

/* Stand-in for the default algorithm. */
static struct pcc_dev_algo_ops rtt_ops = {
	.name = "rtt",
	.on_event = toy_on_event,
};

static void
decl_big(struct pcc_dev_mem_decl *d)
{
	d->n_params = 10;
	d->n_counters = 20;
	d->n_counter_groups = 3;
	d->ctx_size = 128;
	d->n_slots = 1;
}

static struct pcc_dev_algo_ops decl_ops = {
	.name = "decl",
	.ctx_size = 64,
	.params = toy_params,
	.n_params = P_N,
	.counters = toy_counters,
	.n_counters = C_N,
	.on_event = toy_on_event,
	.declare_memory = decl_big,
};

static void
decl_small(struct pcc_dev_mem_decl *d)
{
	d->n_params = 1; /* below the table's 4 */
}

static struct pcc_dev_algo_ops decl_bad_ops = {
	.name = "decl_bad",
	.params = toy_params,
	.n_params = P_N,
	.on_event = toy_on_event,
	.declare_memory = decl_small,
};

static int
group_setup(void **state)
{
	(void)state;
	rte_log_set_level_pattern("pcc.dev", RTE_LOG_EMERG);
	assert_int_equal(pcc_dev_algo_register(&toy_ops), 0);
	assert_int_equal(pcc_dev_algo_register(&plain_ops), 0);
	assert_int_equal(pcc_dev_algo_register(&rtt_ops), 0);
	assert_int_equal(pcc_dev_algo_register(&decl_ops), 0);
	assert_int_equal(pcc_dev_algo_register(&decl_bad_ops), 0);
	return 0;
}

static int
test_setup(void **state)
{
	(void)state;
	memset(&toy, 0, sizeof(toy));
	pcc_dev_thread_set_rank(UINT16_MAX);
	pcc_dev_thread_set_overload(false);
	return 0;
}

static int
test_teardown(void **state)
{
	(void)state;
	pcc_dev_fini();
	return 0;
}

static void
init_dev(uint8_t ports, uint16_t threads)
{
	struct pcc_dev_conf conf = { .n_ports = ports, .n_threads = threads };

	assert_int_equal(pcc_dev_init(&conf), 0);
}

/* ---- Registry ------------------------------------------------------- */

static void
expect_register_einval(const struct pcc_dev_algo_ops *o)
{
	assert_int_equal(pcc_dev_algo_register(o), -EINVAL);
	if (o != NULL && o->name != NULL)
		assert_null(pcc_dev_algo_find(o->name));
}

static void
test_register_validation(void **state)
{
	struct pcc_dev_param_desc p[PCC_DEV_MAX_PARAMS + 1];
	struct pcc_dev_counter_desc c[PCC_DEV_MAX_COUNTERS + 1];
	uint8_t hist[PCC_DEV_MAX_HISTS + 1];
	struct pcc_dev_algo_ops o;
	unsigned int i;

	(void)state;
	expect_register_einval(NULL);

	o = (struct pcc_dev_algo_ops){ .name = "ok_name", .on_event = toy_on_event };
	o.name = NULL;
	expect_register_einval(&o);
	o.name = "";
	expect_register_einval(&o);
	o.name = "Upper";
	expect_register_einval(&o);
	o.name = "has space";
	expect_register_einval(&o);
	o.name = "dash-name";
	expect_register_einval(&o);
	o.name = "a234567890123456789012345678901x"; /* 32 characters */
	expect_register_einval(&o);
	o.name = "a23456789012345678901234567890x"; /* 31: fits */
	assert_int_equal(pcc_dev_algo_register(&o), 0);
	assert_int_equal(pcc_dev_algo_unregister(o.name), 0);

	o = (struct pcc_dev_algo_ops){ .name = "v" };
	expect_register_einval(&o); /* no on_event */
	o.on_event = toy_on_event;
	o.ctx_size = PCC_DEV_CTX_MAX + 1;
	expect_register_einval(&o);
	o.ctx_size = PCC_DEV_CTX_MAX;
	assert_int_equal(pcc_dev_algo_register(&o), 0);
	assert_int_equal(pcc_dev_algo_register(&o), -EEXIST);
	assert_int_equal(pcc_dev_algo_unregister("v"), 0);

	/* parameters */
	for (i = 0; i <= PCC_DEV_MAX_PARAMS; i++)
		p[i] = (struct pcc_dev_param_desc){ .id = i, .name = "P", .max = 10 };
	o = (struct pcc_dev_algo_ops){ .name = "v", .on_event = toy_on_event, .params = p };
	o.n_params = PCC_DEV_MAX_PARAMS + 1;
	expect_register_einval(&o);
	o.n_params = 2;
	expect_register_einval(&o); /* duplicate name "P" */
	p[1].name = "Q";
	assert_int_equal(pcc_dev_algo_register(&o), 0);
	assert_int_equal(pcc_dev_algo_unregister("v"), 0);
	p[1].id = 2;
	expect_register_einval(&o); /* not dense */
	p[1].id = 1;
	p[1].def = 11;
	expect_register_einval(&o); /* default above max */
	p[1].def = 0;
	p[1].min = 5;
	expect_register_einval(&o); /* default below min */
	p[1].min = 11;
	p[1].def = 11;
	expect_register_einval(&o); /* min > max */
	p[1].min = 0;
	p[1].def = 0;
	/* DOCA passes permission 2: any non-zero value is writable, kept */
	p[1].perm = 2;
	assert_int_equal(pcc_dev_algo_register(&o), 0);
	assert_int_equal(pcc_dev_algo_find("v")->params[1].perm, 2);
	assert_true(PCC_DEV_PERM_WRITABLE(pcc_dev_algo_find("v")->params[1].perm));
	assert_int_equal(pcc_dev_algo_unregister("v"), 0);
	p[1].perm = PCC_DEV_PERM_RO;
	p[1].name = NULL;
	expect_register_einval(&o);
	p[1].name = "Q";
	o.params = NULL;
	expect_register_einval(&o);

	/* counters */
	for (i = 0; i <= PCC_DEV_MAX_COUNTERS; i++)
		c[i] = (struct pcc_dev_counter_desc){ .id = i, .name = "c" };
	o = (struct pcc_dev_algo_ops){ .name = "v", .on_event = toy_on_event, .counters = c };
	o.n_counters = PCC_DEV_MAX_COUNTERS + 1;
	expect_register_einval(&o);
	o.n_counters = PCC_DEV_MAX_COUNTERS;
	assert_int_equal(pcc_dev_algo_register(&o), 0);
	assert_int_equal(pcc_dev_algo_unregister("v"), 0);
	c[3].id = 4;
	expect_register_einval(&o);
	c[3].id = 3;
	c[3].type = 3;
	expect_register_einval(&o);
	c[3].type = PCC_DEV_COUNTER_MAX;
	c[3].name = NULL;
	expect_register_einval(&o);
	c[3].name = "c";
	o.counters = NULL;
	expect_register_einval(&o);

	/* histogram ids */
	for (i = 0; i <= PCC_DEV_MAX_HISTS; i++)
		hist[i] = (uint8_t)(i % PCC_DEV_MAX_HISTS);
	o = (struct pcc_dev_algo_ops){ .name = "v", .on_event = toy_on_event, .hist_ids = hist };
	o.n_hist_ids = PCC_DEV_MAX_HISTS + 1;
	expect_register_einval(&o);
	o.n_hist_ids = PCC_DEV_MAX_HISTS;
	hist[2] = PCC_DEV_MAX_HISTS;
	expect_register_einval(&o);
	hist[2] = 2;
	assert_int_equal(pcc_dev_algo_register(&o), 0);
	assert_int_equal(pcc_dev_algo_unregister("v"), 0);
	o.hist_ids = NULL;
	expect_register_einval(&o);
}

static void
test_registry_full(void **state)
{
	static struct pcc_dev_algo_ops many[PCC_DEV_MAX_REGISTERED];
	static char names[PCC_DEV_MAX_REGISTERED][16];
	unsigned int base, i, n;

	(void)state;
	base = pcc_dev_algo_list(NULL, 0);
	for (i = 0; i < PCC_DEV_MAX_REGISTERED; i++) {
		snprintf(names[i], sizeof(names[i]), "many_%u", i);
		many[i] = (struct pcc_dev_algo_ops){ .name = names[i], .on_event = toy_on_event };
	}
	n = PCC_DEV_MAX_REGISTERED - base;
	for (i = 0; i < n; i++)
		assert_int_equal(pcc_dev_algo_register(&many[i]), 0);
	assert_int_equal(pcc_dev_algo_list(NULL, 0), PCC_DEV_MAX_REGISTERED);
	assert_int_equal(pcc_dev_algo_register(&many[n]), -ENOSPC);
	for (i = 0; i < n; i++)
		assert_int_equal(pcc_dev_algo_unregister(names[i]), 0);
	assert_int_equal(pcc_dev_algo_list(NULL, 0), base);
}

static void
test_find_list_unregister(void **state)
{
	const struct pcc_dev_algo_ops *list[PCC_DEV_MAX_REGISTERED];
	unsigned int n, i;
	bool seen_toy = false;

	(void)state;
	assert_ptr_equal(pcc_dev_algo_find("toy"), &toy_ops);
	assert_null(pcc_dev_algo_find("nope"));
	assert_null(pcc_dev_algo_find(NULL));
	n = pcc_dev_algo_list(list, PCC_DEV_MAX_REGISTERED);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++)
		seen_toy |= list[i] == &toy_ops;
	assert_true(seen_toy);
	assert_int_equal(pcc_dev_algo_list(list, 2), 5); /* total, 2 written */
	assert_int_equal(pcc_dev_algo_unregister("nope"), -ENOENT);
	assert_int_equal(pcc_dev_algo_unregister(NULL), -EINVAL);

	/* loaded at an index: refused until unloaded */
	init_dev(2, 1);
	assert_int_equal(pcc_dev_algo_load(1, 3, "toy"), 0);
	assert_int_equal(pcc_dev_algo_unregister("toy"), -EBUSY);
	assert_int_equal(pcc_dev_algo_unload(1, 3), 0);
	assert_int_equal(pcc_dev_algo_unregister("toy"), 0);
	assert_null(pcc_dev_algo_find("toy"));
	assert_int_equal(pcc_dev_algo_register(&toy_ops), 0);
	/* the default sits at 0xF of every port */
	assert_int_equal(pcc_dev_algo_unregister("rtt"), -EBUSY);
}

/* ---- Device state ---------------------------------------------------- */

static void
test_before_init(void **state)
{
	struct pcc_dev_event ev = { .type = PCC_DEV_EVENT_CNP };
	struct pcc_dev_results res;
	struct pcc_dev_mem_usage mu;
	uint32_t ctx[12], v[4];

	(void)state;
	assert_int_equal(pcc_dev_algo_load(0, 0, "toy"), -ENODEV);
	assert_int_equal(pcc_dev_algo_unload(0, 0), -ENODEV);
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), -ENODEV);
	assert_int_equal(pcc_dev_slot_unbind(0, 0), -ENODEV);
	assert_int_equal(pcc_dev_slot_enable(0, 0, true), -ENODEV);
	assert_int_equal(pcc_dev_slot_active(0), PCC_DEV_INTERNAL_SLOT);
	assert_null(pcc_dev_slot_algo(0, 0, NULL));
	assert_int_equal(pcc_dev_slot_event_mask(0, 0), 0);
	assert_int_equal(pcc_dev_dispatch(0, 0, ctx, &ev, &res), -EINVAL);
	assert_null(pcc_dev_params(0, 0));
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 1, v), -ENODEV);
	assert_int_equal(pcc_dev_params_get(0, 0, 0, 1, v), -ENODEV);
	assert_int_equal(pcc_dev_param_id(0, 0, "ALPHA"), -ENODEV);
	assert_null(pcc_dev_counters(0, 0));
	assert_null(pcc_dev_counters_group(0, 0, 1));
	pcc_dev_counter_add(0, 0, 0, 1);
	pcc_dev_counter_update(0, 0, 0, 1);
	assert_int_equal(pcc_dev_counters_enable(0, 0, true), -ENODEV);
	assert_false(pcc_dev_counters_enabled(0, 0));
	assert_int_equal(pcc_dev_counters_get(0, 0, v, 4), -ENODEV);
	assert_int_equal(pcc_dev_counters_get_and_clear(0, 0, v, 4), -ENODEV);
	assert_int_equal(pcc_dev_counter_groups(0, 0), -ENODEV);
	assert_int_equal(pcc_dev_counters_group_get(0, 0, 0, v, 4), -ENODEV);
	assert_int_equal(pcc_dev_mem_usage(0, 0, &mu), -ENODEV);
	assert_int_equal(pcc_dev_mem_total(), 0);
	pcc_dev_fini(); /* harmless */
}

static void
test_init_errors(void **state)
{
	struct pcc_dev_conf conf = { .n_ports = 0 };

	(void)state;
	assert_int_equal(pcc_dev_init(&conf), -EINVAL);
	conf.n_ports = PCC_DEV_MAX_PORTS + 1;
	assert_int_equal(pcc_dev_init(&conf), -EINVAL);
	conf.n_ports = 1;
	conf.n_threads = PCC_DEV_MAX_THREADS + 1;
	assert_int_equal(pcc_dev_init(&conf), -EINVAL);
	conf.n_threads = 1;
	conf.n_counter_groups = PCC_DEV_MAX_COUNTER_GROUPS + 1;
	assert_int_equal(pcc_dev_init(&conf), -EINVAL);
	conf.n_counter_groups = 0;
	conf.default_algo = "Bad Name";
	assert_int_equal(pcc_dev_init(&conf), -EINVAL);
	conf.default_algo = NULL;
	conf.n_ports = PCC_DEV_MAX_PORTS;
	conf.n_threads = PCC_DEV_MAX_THREADS;
	conf.n_counter_groups = PCC_DEV_MAX_COUNTER_GROUPS;
	assert_int_equal(pcc_dev_init(&conf), 0);
	assert_int_equal(pcc_dev_init(&conf), -EBUSY);
	assert_int_equal(pcc_dev_counter_groups(PCC_DEV_MAX_PORTS - 1, PCC_DEV_INTERNAL_SLOT),
			PCC_DEV_MAX_COUNTER_GROUPS);
	pcc_dev_fini();
	assert_int_equal(pcc_dev_init(NULL), 0); /* 1 port, 1 thread, 2 groups, rtt */
	assert_ptr_equal(pcc_dev_slot_algo(0, PCC_DEV_INTERNAL_SLOT, NULL), &rtt_ops);
	assert_int_equal(pcc_dev_counter_groups(0, PCC_DEV_INTERNAL_SLOT),
			PCC_DEV_DEFAULT_COUNTER_GROUPS);
	assert_int_equal(pcc_dev_slot_bind(1, 0, 0), -EINVAL); /* port 1 does not exist */
}

static void
test_default_algo(void **state)
{
	struct pcc_dev_conf conf = { .n_ports = 2, .n_threads = 1 };
	struct pcc_dev_event ev = { .type = PCC_DEV_EVENT_ACK };
	struct pcc_dev_results res;
	uint32_t ctx[12] = { 0 };
	bool en = false;

	(void)state;
	/* "rtt" by default */
	assert_int_equal(pcc_dev_init(&conf), 0);
	assert_ptr_equal(pcc_dev_slot_algo(1, PCC_DEV_INTERNAL_SLOT, &en), &rtt_ops);
	assert_true(en);
	assert_int_equal(pcc_dev_slot_active(1), PCC_DEV_INTERNAL_SLOT);
	assert_int_equal(pcc_dev_dispatch(1, PCC_DEV_INTERNAL_SLOT, ctx, &ev, &res), 0);
	assert_int_equal(toy.calls, 1);
	assert_int_equal(toy.attr.algo_slot, PCC_DEV_INTERNAL_SLOT);
	assert_int_equal(toy.attr.algo_idx, PCC_DEV_INTERNAL_SLOT);
	assert_int_equal(toy.attr.port, 1);
	pcc_dev_fini();

	/* a named default */
	conf.default_algo = "toy";
	assert_int_equal(pcc_dev_init(&conf), 0);
	assert_int_equal(toy.init_calls, 2); /* once per port */
	assert_ptr_equal(pcc_dev_slot_algo(0, PCC_DEV_INTERNAL_SLOT, NULL), &toy_ops);
	pcc_dev_fini();

	/* not registered: 0xF unbound, dispatch -ENOENT */
	conf.default_algo = "absent";
	assert_int_equal(pcc_dev_init(&conf), 0);
	assert_null(pcc_dev_slot_algo(0, PCC_DEV_INTERNAL_SLOT, &en));
	assert_false(en);
	assert_int_equal(pcc_dev_dispatch(0, PCC_DEV_INTERNAL_SLOT, ctx, &ev, &res), -ENOENT);
	assert_int_equal(pcc_dev_slot_active(0), PCC_DEV_INTERNAL_SLOT);
	/* loading one at 0xF binds the internal slot */
	assert_int_equal(pcc_dev_algo_load(0, PCC_DEV_INTERNAL_SLOT, "plain"), 0);
	assert_ptr_equal(pcc_dev_slot_algo(0, PCC_DEV_INTERNAL_SLOT, NULL), &plain_ops);
	assert_int_equal(pcc_dev_dispatch(0, PCC_DEV_INTERNAL_SLOT, ctx, &ev, &res), 0);
	/* unloading leaves it unbound again */
	assert_int_equal(pcc_dev_algo_unload(0, PCC_DEV_INTERNAL_SLOT), 0);
	assert_int_equal(pcc_dev_dispatch(0, PCC_DEV_INTERNAL_SLOT, ctx, &ev, &res), -ENOENT);
	pcc_dev_fini();

	/* a default whose init refuses: 0xF left unbound, init still succeeds */
	conf.default_algo = "toy";
	toy.init_rc = -EPERM;
	assert_int_equal(pcc_dev_init(&conf), 0);
	assert_null(pcc_dev_slot_algo(0, PCC_DEV_INTERNAL_SLOT, NULL));
}

static void
test_slots(void **state)
{
	bool en = true;

	(void)state;
	init_dev(2, 1);
	assert_int_equal(pcc_dev_algo_load(0, 0, "toy"), 0);
	assert_int_equal(pcc_dev_algo_load(0, 1, "plain"), 0);
	assert_int_equal(pcc_dev_algo_load(0, 2, "absent"), -ENOENT);
	assert_int_equal(pcc_dev_algo_load(0, 8, "toy"), -EINVAL);
	assert_int_equal(pcc_dev_algo_load(0, 0xE, "toy"), -EINVAL);
	assert_int_equal(pcc_dev_algo_load(0, 0, NULL), -EINVAL);
	assert_int_equal(pcc_dev_algo_load(2, 0, "toy"), -EINVAL);

	assert_int_equal(pcc_dev_slot_bind(0, 3, 0), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 5, 1), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 7, 0), 0);
	assert_int_equal(toy.init_calls, 2);
	assert_int_equal(pcc_dev_slot_bind(0, 4, 2), -ENOENT); /* empty index */
	assert_int_equal(pcc_dev_slot_bind(0, 8, 0), -EINVAL);
	assert_int_equal(pcc_dev_slot_bind(0, PCC_DEV_INTERNAL_SLOT, 0), -EINVAL);
	assert_int_equal(pcc_dev_slot_bind(0, 4, 9), -EINVAL);
	assert_ptr_equal(pcc_dev_slot_algo(0, 5, &en), &plain_ops);
	assert_false(en); /* disabled until enabled */
	assert_null(pcc_dev_slot_algo(0, 4, NULL));
	assert_null(pcc_dev_slot_algo(0, 9, NULL));

	/* lowest enabled wins; none enabled: 0xF */
	assert_int_equal(pcc_dev_slot_active(0), PCC_DEV_INTERNAL_SLOT);
	assert_int_equal(pcc_dev_slot_enable(0, 5, true), 0);
	assert_int_equal(pcc_dev_slot_active(0), 5);
	assert_int_equal(pcc_dev_slot_enable(0, 7, true), 0);
	assert_int_equal(pcc_dev_slot_active(0), 5);
	assert_int_equal(pcc_dev_slot_enable(0, 3, true), 0);
	assert_int_equal(pcc_dev_slot_active(0), 3);
	assert_int_equal(pcc_dev_slot_active(1), PCC_DEV_INTERNAL_SLOT); /* other port */
	assert_int_equal(pcc_dev_slot_enable(0, 3, false), 0);
	assert_int_equal(pcc_dev_slot_active(0), 5);
	assert_int_equal(pcc_dev_slot_enable(0, 4, true), -ENOENT);
	assert_int_equal(pcc_dev_slot_enable(0, 8, true), -EINVAL);
	assert_int_equal(pcc_dev_slot_enable(0, PCC_DEV_INTERNAL_SLOT, true), -EINVAL);
	assert_int_equal(pcc_dev_slot_active(9), PCC_DEV_INTERNAL_SLOT);

	/* state guards */
	assert_int_equal(pcc_dev_slot_bind(0, 5, 0), -EBUSY); /* enabled */
	assert_int_equal(pcc_dev_slot_unbind(0, 5), -EBUSY);
	assert_int_equal(pcc_dev_algo_load(0, 1, "toy"), -EBUSY); /* slot 5 bound to it */
	assert_int_equal(pcc_dev_algo_unload(0, 1), -EBUSY);      /* slot 5 enabled */
	assert_int_equal(pcc_dev_slot_unbind(0, 4), -ENOENT);
	assert_int_equal(pcc_dev_slot_unbind(0, 8), -EINVAL);

	/* unload unbinds disabled slots bound to the index */
	assert_int_equal(pcc_dev_slot_enable(0, 5, false), 0);
	assert_int_equal(pcc_dev_algo_unload(0, 1), 0);
	assert_null(pcc_dev_slot_algo(0, 5, NULL));
	assert_int_equal(pcc_dev_algo_unload(0, 1), -ENOENT);
	assert_int_equal(pcc_dev_algo_unload(0, 9), -EINVAL);
	assert_int_equal(pcc_dev_slot_active(0), 7);

	/* rebind a disabled slot: init again, defaults again */
	assert_int_equal(pcc_dev_slot_enable(0, 7, false), 0);
	assert_int_equal(pcc_dev_slot_unbind(0, 7), 0);
	assert_null(pcc_dev_slot_algo(0, 7, NULL));
	assert_int_equal(pcc_dev_slot_active(0), PCC_DEV_INTERNAL_SLOT);
	assert_int_equal(pcc_dev_slot_bind(0, 3, 0), 0);
	assert_int_equal(toy.init_calls, 3);

	/* a user slot may be bound to the default algorithm's index */
	assert_int_equal(pcc_dev_slot_bind(0, 6, PCC_DEV_INTERNAL_SLOT), 0);
	assert_ptr_equal(pcc_dev_slot_algo(0, 6, NULL), &rtt_ops);
	assert_int_equal(pcc_dev_algo_load(0, PCC_DEV_INTERNAL_SLOT, "plain"), -EBUSY);
	assert_int_equal(pcc_dev_slot_unbind(0, 6), 0);
	assert_int_equal(pcc_dev_algo_load(0, PCC_DEV_INTERNAL_SLOT, "plain"), 0);
	assert_ptr_equal(pcc_dev_slot_algo(0, PCC_DEV_INTERNAL_SLOT, NULL), &plain_ops);

	/* init refusal: bind fails with init's error, slot stays unbound */
	toy.init_rc = -EPERM;
	assert_int_equal(pcc_dev_slot_bind(0, 2, 0), -EPERM);
	assert_null(pcc_dev_slot_algo(0, 2, NULL));
	toy.init_rc = 3; /* positive: reported as -EINVAL */
	assert_int_equal(pcc_dev_slot_bind(0, 2, 0), -EINVAL);
	/* a failed rebind leaves the slot unbound */
	assert_int_equal(pcc_dev_slot_bind(0, 3, 0), -EINVAL);
	assert_null(pcc_dev_slot_algo(0, 3, NULL));
}

/* ---- Dispatch -------------------------------------------------------- */

static void
test_dispatch(void **state)
{
	struct pcc_dev_event ev = { .type = PCC_DEV_EVENT_CNP, .port = 0 };
	struct pcc_dev_results res;
	uint32_t ctx[12] = { 0 };

	(void)state;
	toy.init_mask = PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_TX) |
			PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_TX_FOR_ACK_NACK);
	init_dev(2, 2);
	assert_int_equal(pcc_dev_algo_load(1, 4, "toy"), 0);
	assert_int_equal(pcc_dev_slot_bind(1, 2, 4), 0);
	assert_int_equal(pcc_dev_slot_event_mask(1, 2), toy.init_mask);
	assert_int_equal(pcc_dev_slot_event_mask(1, 3), 0);

	/* results are zeroed before the call; attributes come from the slot */
	memset(&res, 0xa5, sizeof(res));
	pcc_dev_thread_set_overload(true);
	assert_int_equal(pcc_dev_dispatch(1, 2, ctx, &ev, &res), 0);
	assert_int_equal(toy.calls, 1);
	assert_true(toy.res_was_zero);
	assert_int_equal(toy.attr.port, 1);
	assert_int_equal(toy.attr.algo_slot, 2);
	assert_int_equal(toy.attr.algo_idx, 4);
	assert_int_equal(toy.attr.overload, 1);
	assert_int_equal(toy.last_type, PCC_DEV_EVENT_CNP);
	assert_int_equal(res.rate, 0x1234);
	assert_int_equal(res.rtt_req, 1);
	assert_int_equal(res.window, 77);
	pcc_dev_thread_set_overload(false);
	memset(&res, 0x5a, sizeof(res));
	assert_int_equal(pcc_dev_dispatch(1, 2, ctx, &ev, &res), 0);
	assert_true(toy.res_was_zero);
	assert_int_equal(toy.attr.overload, 0);

	/* masked events: 1, not called, results still zeroed */
	ev.type = PCC_DEV_EVENT_TX;
	memset(&res, 0xff, sizeof(res));
	assert_int_equal(pcc_dev_dispatch(1, 2, ctx, &ev, &res), 1);
	assert_int_equal(toy.calls, 2);
	assert_int_equal(res.rate, 0);
	assert_int_equal(res.window, 0);
	assert_int_equal(res.rtt_req, 0);
	ev.type = PCC_DEV_EVENT_TX_FOR_ACK_NACK;
	assert_int_equal(pcc_dev_dispatch(1, 2, ctx, &ev, &res), 1);
	ev.type = PCC_DEV_EVENT_TIMER;
	assert_int_equal(pcc_dev_dispatch(1, 2, ctx, &ev, &res), 0);
	assert_int_equal(toy.calls, 3);

	/* dispatch does not care about enable */
	assert_int_equal(pcc_dev_slot_enable(1, 2, true), 0);
	assert_int_equal(pcc_dev_dispatch(1, 2, ctx, &ev, &res), 0);
	assert_int_equal(toy.calls, 4);

	/* bad input never reaches the algorithm */
	ev.type = 32;
	assert_int_equal(pcc_dev_dispatch(1, 2, ctx, &ev, &res), -EINVAL);
	ev.type = PCC_DEV_EVENT_CNP;
	assert_int_equal(pcc_dev_dispatch(2, 2, ctx, &ev, &res), -EINVAL);
	assert_int_equal(pcc_dev_dispatch(1, 8, ctx, &ev, &res), -EINVAL);
	assert_int_equal(pcc_dev_dispatch(1, 0xE, ctx, &ev, &res), -EINVAL);
	assert_int_equal(pcc_dev_dispatch(1, 0xFF, ctx, &ev, &res), -EINVAL);
	assert_int_equal(pcc_dev_dispatch(1, 2, NULL, &ev, &res), -EINVAL);
	assert_int_equal(pcc_dev_dispatch(1, 2, ctx, NULL, &res), -EINVAL);
	assert_int_equal(pcc_dev_dispatch(1, 2, ctx, &ev, NULL), -EINVAL);
	assert_int_equal(pcc_dev_dispatch(1, 3, ctx, &ev, &res), -ENOENT);
	assert_int_equal(pcc_dev_dispatch(0, 2, ctx, &ev, &res), -ENOENT);
	assert_int_equal(toy.calls, 4);
}

/* ---- Parameters ------------------------------------------------------ */

static void
test_params(void **state)
{
	uint32_t v[P_N], *p;

	(void)state;
	init_dev(1, 1);
	assert_int_equal(pcc_dev_algo_load(0, 0, "toy"), 0);
	assert_int_equal(pcc_dev_algo_load(0, 1, "plain"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 1, 1), 0);
	p = pcc_dev_params(0, 0);
	assert_non_null(p);
	assert_int_equal(p[P_ALPHA], 10);
	assert_int_equal(p[P_BETA], 5);
	assert_int_equal(p[P_RO], 7);
	assert_int_equal(p[P_GAMMA], 0);
	assert_null(pcc_dev_params(0, 2));
	assert_null(pcc_dev_params(1, 0));
	assert_null(pcc_dev_params(0, 9));

	/* accepted */
	v[0] = 50;
	v[1] = 9;
	assert_int_equal(pcc_dev_params_set(0, 0, P_ALPHA, 2, v), 0);
	assert_int_equal(p[P_ALPHA], 50);
	assert_int_equal(p[P_BETA], 9);
	assert_int_equal(toy.set_params_calls, 1);

	/* out of range: -ERANGE, nothing applied, set_params not called */
	v[0] = 60;
	v[1] = 10;
	assert_int_equal(pcc_dev_params_set(0, 0, P_ALPHA, 2, v), -ERANGE);
	assert_int_equal(p[P_ALPHA], 50);
	assert_int_equal(p[P_BETA], 9);
	v[1] = 0;
	assert_int_equal(pcc_dev_params_set(0, 0, P_ALPHA, 2, v), -ERANGE);
	v[0] = 101;
	assert_int_equal(pcc_dev_params_set(0, 0, P_ALPHA, 1, v), -ERANGE);
	assert_int_equal(toy.set_params_calls, 1);

	/* read-only */
	v[0] = 7;
	assert_int_equal(pcc_dev_params_set(0, 0, P_RO, 1, v), -EPERM);
	v[0] = 1;
	v[1] = 7;
	assert_int_equal(pcc_dev_params_set(0, 0, P_BETA, 2, v), -EPERM);
	assert_int_equal(p[P_BETA], 9);

	/* the algorithm refuses: its error, nothing applied */
	v[0] = 666;
	assert_int_equal(pcc_dev_params_set(0, 0, P_GAMMA, 1, v), -EINVAL);
	assert_int_equal(p[P_GAMMA], 0);
	v[0] = 667;
	assert_int_equal(pcc_dev_params_set(0, 0, P_GAMMA, 1, v), 0);
	assert_int_equal(p[P_GAMMA], 667);

	/* ids and arguments */
	assert_int_equal(pcc_dev_params_set(0, 0, P_GAMMA, 2, v), -EINVAL);
	assert_int_equal(pcc_dev_params_set(0, 0, P_N, 1, v), -EINVAL);
	assert_int_equal(pcc_dev_params_set(0, 0, UINT32_MAX, 2, v), -EINVAL);
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 0, v), -EINVAL);
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 1, NULL), -EINVAL);
	assert_int_equal(pcc_dev_params_set(0, 2, 0, 1, v), -ENOENT);
	assert_int_equal(pcc_dev_params_set(0, 8, 0, 1, v), -EINVAL);
	assert_int_equal(pcc_dev_params_set(1, 0, 0, 1, v), -EINVAL);

	/* no set_params: the library copies */
	v[0] = 3;
	assert_int_equal(pcc_dev_params_set(0, 1, P_BETA, 1, v), 0);
	assert_int_equal(pcc_dev_params(0, 1)[P_BETA], 3);
	assert_int_equal(pcc_dev_params(0, 0)[P_BETA], 9); /* slots are independent */

	/* get */
	memset(v, 0, sizeof(v));
	assert_int_equal(pcc_dev_params_get(0, 0, 0, P_N, v), 0);
	assert_int_equal(v[P_ALPHA], 50);
	assert_int_equal(v[P_BETA], 9);
	assert_int_equal(v[P_RO], 7);
	assert_int_equal(v[P_GAMMA], 667);
	assert_int_equal(pcc_dev_params_get(0, 0, 1, P_N, v), -EINVAL);
	assert_int_equal(pcc_dev_params_get(0, 0, 0, 1, NULL), -EINVAL);
	assert_int_equal(pcc_dev_params_get(0, 3, 0, 1, v), -ENOENT);

	/* by name */
	assert_int_equal(pcc_dev_param_id(0, 0, "ALPHA"), P_ALPHA);
	assert_int_equal(pcc_dev_param_id(0, 0, "GAMMA"), P_GAMMA);
	assert_int_equal(pcc_dev_param_id(0, 0, "nope"), -ENOENT);
	assert_int_equal(pcc_dev_param_id(0, 0, NULL), -EINVAL);
	assert_int_equal(pcc_dev_param_id(0, 5, "ALPHA"), -ENOENT);

	/* rebinding restores defaults */
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	assert_int_equal(pcc_dev_params(0, 0)[P_ALPHA], 10);
}

/* ---- Counters -------------------------------------------------------- */

struct worker_arg {
	uint16_t rank; /* UINT16_MAX: never set (shared set) */
	uint32_t base;
};

/* Each thread: 10 events, min = base, max = base + 9, capped += 30. */
static void *
counter_worker(void *a)
{
	const struct worker_arg *w = a;
	uint32_t i, *c;

	if (w->rank != UINT16_MAX)
		pcc_dev_thread_set_rank(w->rank);
	c = pcc_dev_counters(0, 1);
	if (c == NULL)
		return (void *)1;
	for (i = 0; i < 10; i++) {
		c[C_EVENTS]++;
		pcc_dev_counter_update(0, 1, C_MIN, w->base + i);
		pcc_dev_counter_update(0, 1, C_MAX, w->base + i);
	}
	pcc_dev_counter_add(0, 1, C_CAPPED, 30);
	return NULL;
}

static void
test_counters_threads(void **state)
{
	struct worker_arg args[5] = {
		{ 0, 50 },
		{ 1, 20 },
		{ 2, 500 },
		{ 3, 40 },
		{ UINT16_MAX, 30 },
	};
	pthread_t th[5];
	uint32_t v[C_N + 2];
	void *ret;
	unsigned int i;

	(void)state;
	init_dev(1, 4);
	assert_int_equal(pcc_dev_algo_load(0, 0, "toy"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 1, 0), 0);
	assert_true(pcc_dev_counters_enabled(0, 1));

	/* fresh: ACCUMULATE/MAX 0, MIN at its max */
	assert_int_equal(pcc_dev_counters_get(0, 1, v, C_N), C_N);
	assert_int_equal(v[C_EVENTS], 0);
	assert_int_equal(v[C_MIN], UINT32_MAX);
	assert_int_equal(v[C_MAX], 0);
	assert_int_equal(v[C_CAPPED], 0);

	for (i = 0; i < 5; i++)
		assert_int_equal(pthread_create(&th[i], NULL, counter_worker, &args[i]), 0);
	for (i = 0; i < 5; i++) {
		assert_int_equal(pthread_join(th[i], &ret), 0);
		assert_null(ret);
	}

	/* combined per type: sum, min, max (saturated at 1000), capped at 100 */
	memset(v, 0xee, sizeof(v));
	assert_int_equal(pcc_dev_counters_get(0, 1, v, C_N + 2), C_N);
	assert_int_equal(v[C_EVENTS], 50);
	assert_int_equal(v[C_MIN], 20);
	assert_int_equal(v[C_MAX], 509 > 1000 ? 1000 : 509);
	assert_int_equal(v[C_CAPPED], 100);
	assert_int_equal(v[C_N], 0xeeeeeeee); /* nothing written past n_counters */
	assert_int_equal(pcc_dev_counters_get(0, 1, v, 2), 2);

	/* MAX saturates at the counter's max */
	pcc_dev_thread_set_rank(2);
	pcc_dev_counter_update(0, 1, C_MAX, 5000);
	assert_int_equal(pcc_dev_counters_get(0, 1, v, C_N), C_N);
	assert_int_equal(v[C_MAX], 1000);

	/* get and clear: returns the values, then resets (MIN to max) */
	assert_int_equal(pcc_dev_counters_get_and_clear(0, 1, v, C_N), C_N);
	assert_int_equal(v[C_EVENTS], 50);
	assert_int_equal(v[C_MIN], 20);
	assert_int_equal(pcc_dev_counters_get(0, 1, v, C_N), C_N);
	assert_int_equal(v[C_EVENTS], 0);
	assert_int_equal(v[C_MIN], UINT32_MAX);
	assert_int_equal(v[C_MAX], 0);
	assert_int_equal(v[C_CAPPED], 0);

	/* disabled: NULL pointer, helpers are no-ops, values kept */
	pcc_dev_counter_add(0, 1, C_EVENTS, 3);
	assert_int_equal(pcc_dev_counters_enable(0, 1, false), 0);
	assert_false(pcc_dev_counters_enabled(0, 1));
	assert_null(pcc_dev_counters(0, 1));
	assert_null(pcc_dev_counters_group(0, 1, 1));
	pcc_dev_counter_add(0, 1, C_EVENTS, 3);
	assert_int_equal(pcc_dev_counters_get(0, 1, v, 1), 1);
	assert_int_equal(v[0], 3);
	assert_int_equal(pcc_dev_counters_enable(0, 1, true), 0);
	assert_non_null(pcc_dev_counters(0, 1));

	/* errors */
	assert_int_equal(pcc_dev_counters_get(0, 1, NULL, 1), -EINVAL);
	assert_int_equal(pcc_dev_counters_get(0, 2, v, 1), -ENOENT);
	assert_int_equal(pcc_dev_counters_get(0, 8, v, 1), -EINVAL);
	assert_int_equal(pcc_dev_counters_get(1, 1, v, 1), -EINVAL);
	assert_int_equal(pcc_dev_counters_enable(0, 2, true), -ENOENT);
	assert_null(pcc_dev_counters(0, 2));
	assert_null(pcc_dev_counters(1, 1));
	assert_null(pcc_dev_counters_group(0, 1, PCC_DEV_DEFAULT_COUNTER_GROUPS));
	pcc_dev_counter_add(0, 1, C_N, 1);    /* bad id: ignored */
	pcc_dev_counter_update(0, 1, 200, 1); /* bad id: ignored */
	pcc_dev_counter_add(0, 9, 0, 1);      /* bad slot: ignored */
}

/* Threads sharing a counter set (DOCA's declare_threads_per_counter_set). */
static void
test_threads_per_counter_set(void **state)
{
	uint64_t ctx[PCC_DEV_CTX_SIZE / 8] = { 0 };
	struct pcc_dev_results res;
	struct pcc_dev_event ev;
	uint32_t *c[4], v[C_N];
	uint16_t r;

	(void)state;
	assert_int_equal(pcc_dev_threads_per_counter_set(0), -EINVAL);
	assert_int_equal(pcc_dev_threads_per_counter_set(PCC_DEV_MAX_THREADS + 1), -EINVAL);
	assert_int_equal(pcc_dev_threads_per_counter_set(2), 0);
	init_dev(1, 4);
	assert_int_equal(pcc_dev_threads_per_counter_set(3), -EBUSY);
	assert_int_equal(pcc_dev_threads_per_counter_set(2), 0); /* the same: fine */
	assert_int_equal(pcc_dev_algo_load(0, 0, "toy"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 1, 0), 0);
	for (r = 0; r < 4; r++) {
		pcc_dev_thread_set_rank(r);
		c[r] = pcc_dev_counters(0, 1);
		assert_non_null(c[r]);
		pcc_dev_counter_add(0, 1, C_EVENTS, 1u + r);
	}
	/* ranks 0,1 and 2,3 share one array each */
	assert_ptr_equal(c[0], c[1]);
	assert_ptr_equal(c[2], c[3]);
	assert_ptr_not_equal(c[0], c[2]);
	assert_int_equal(c[0][C_EVENTS], 1 + 2);
	assert_int_equal(c[2][C_EVENTS], 3 + 4);
	/* the total reads the same */
	assert_int_equal(pcc_dev_counters_get(0, 1, v, C_N), C_N);
	assert_int_equal(v[C_EVENTS], 10);
	/* a dispatch, and a flow's end, hand the algorithm its thread's
	 * array (attr), the one pcc_dev_counters() gives; none while
	 * counters are off */
	memset(&ev, 0, sizeof(ev));
	ev.type = PCC_DEV_EVENT_CNP;
	for (r = 0; r < 4; r++) {
		pcc_dev_thread_set_rank(r);
		assert_int_equal(pcc_dev_dispatch(0, 1, ctx, &ev, &res), 0);
		assert_ptr_equal(toy.attr.counters, c[r]);
		toy.end_calls = 0;
		assert_int_equal(pcc_dev_flow_end(0, 1, ctx), 0);
		assert_int_equal(toy.end_calls, 1);
		assert_ptr_equal(toy.end_attr.counters, c[r]);
	}
	assert_int_equal(pcc_dev_counters_enable(0, 1, false), 0);
	assert_int_equal(pcc_dev_dispatch(0, 1, ctx, &ev, &res), 0);
	assert_null(toy.attr.counters);
	assert_int_equal(pcc_dev_flow_end(0, 1, ctx), 0);
	assert_null(toy.end_attr.counters);
	pcc_dev_fini();
	assert_int_equal(pcc_dev_threads_per_counter_set(1), 0);
	assert_int_equal(pcc_dev_threads_per_counter_set_get(), 1);
	/* the device made again with more threads: the thread at rank 3,
	 * in the shared set with 2 threads, has its own set with 4, not
	 * rank 2's (a thread keeps its set only while the device stays) */
	init_dev(1, 2);
	assert_int_equal(pcc_dev_algo_load(0, 0, "toy"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 1, 0), 0);
	pcc_dev_thread_set_rank(3);
	assert_non_null(pcc_dev_counters(0, 1));
	pcc_dev_fini();
	init_dev(1, 4);
	assert_int_equal(pcc_dev_algo_load(0, 0, "toy"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 1, 0), 0);
	pcc_dev_counter_add(0, 1, C_EVENTS, 5);
	c[3] = pcc_dev_counters(0, 1);
	pcc_dev_thread_set_rank(2);
	c[2] = pcc_dev_counters(0, 1);
	assert_ptr_not_equal(c[2], c[3]);
	assert_int_equal(c[2][C_EVENTS], 0);
	assert_int_equal(c[3][C_EVENTS], 5);
}

static void
test_counter_helpers(void **state)
{
	uint32_t v[C_N], *c;

	(void)state;
	init_dev(1, 1);
	pcc_dev_thread_set_rank(0);
	assert_int_equal(pcc_dev_algo_load(0, 0, "toy"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	c = pcc_dev_counters(0, 0);
	assert_non_null(c);

	/* ACCUMULATE: add saturates at UINT32_MAX (max 0), update sets */
	pcc_dev_counter_add(0, 0, C_EVENTS, UINT32_MAX - 1);
	pcc_dev_counter_add(0, 0, C_EVENTS, 5);
	assert_int_equal(c[C_EVENTS], UINT32_MAX);
	pcc_dev_counter_update(0, 0, C_EVENTS, 12);
	assert_int_equal(c[C_EVENTS], 12);
	/* capped at 100 */
	pcc_dev_counter_add(0, 0, C_CAPPED, 99);
	pcc_dev_counter_add(0, 0, C_CAPPED, 2);
	assert_int_equal(c[C_CAPPED], 100);
	pcc_dev_counter_update(0, 0, C_CAPPED, 500);
	assert_int_equal(c[C_CAPPED], 100);
	pcc_dev_counter_add(0, 0, C_CAPPED, UINT32_MAX);
	assert_int_equal(c[C_CAPPED], 100);
	/* MIN: min of samples; add behaves as update */
	pcc_dev_counter_update(0, 0, C_MIN, 40);
	pcc_dev_counter_update(0, 0, C_MIN, 70);
	pcc_dev_counter_add(0, 0, C_MIN, 30);
	assert_int_equal(c[C_MIN], 30);
	/* MAX: max of samples, clamped to 1000 */
	pcc_dev_counter_update(0, 0, C_MAX, 40);
	pcc_dev_counter_add(0, 0, C_MAX, 20);
	assert_int_equal(c[C_MAX], 40);
	pcc_dev_counter_update(0, 0, C_MAX, 1001);
	assert_int_equal(c[C_MAX], 1000);

	/* direct writes above max are clamped when combined */
	c[C_CAPPED] = 5000;
	assert_int_equal(pcc_dev_counters_get(0, 0, v, C_N), C_N);
	assert_int_equal(v[C_CAPPED], 100);

	/* counter groups: group 1 words are summed over thread sets */
	assert_int_equal(pcc_dev_counter_groups(0, 0), PCC_DEV_DEFAULT_COUNTER_GROUPS);
	c = pcc_dev_counters_group(0, 0, 1);
	assert_non_null(c);
	c[0] = 7;
	c[PCC_DEV_COUNTER_GROUP_SIZE - 1] = 9;
	pcc_dev_thread_set_rank(UINT16_MAX);
	pcc_dev_counters_group(0, 0, 1)[0] = UINT32_MAX; /* shared set: saturates */
	{
		uint32_t g[PCC_DEV_COUNTER_GROUP_SIZE + 1];

		assert_int_equal(pcc_dev_counters_group_get(
						 0, 0, 1, g, PCC_DEV_COUNTER_GROUP_SIZE + 1),
				PCC_DEV_COUNTER_GROUP_SIZE);
		assert_int_equal(g[0], UINT32_MAX);
		assert_int_equal(g[PCC_DEV_COUNTER_GROUP_SIZE - 1], 9);
		assert_int_equal(pcc_dev_counters_group_get_and_clear(0, 0, 1, g, 1), 1);
		assert_int_equal(pcc_dev_counters_group_get(0, 0, 1, g, PCC_DEV_COUNTER_GROUP_SIZE),
				PCC_DEV_COUNTER_GROUP_SIZE);
		assert_int_equal(g[0], 0);
		assert_int_equal(g[PCC_DEV_COUNTER_GROUP_SIZE - 1], 9);
		/* group 0 through the group API is the counters block */
		assert_int_equal(pcc_dev_counters_group_get(0, 0, 0, g, 10), C_N);
		assert_int_equal(pcc_dev_counters_group_get(0, 0, 2, g, 1), -EINVAL);
		assert_int_equal(pcc_dev_counters_group_get(0, 0, 1, NULL, 1), -EINVAL);
	}
}

/* ---- Counter units -------------------------------------------------- */

static void
test_counter_units(void **state)
{
	static const uint8_t units[] = { PCC_DEV_UNIT_NONE, PCC_DEV_UNIT_RATE };
	struct pcc_dev_algo_ops ops = { .n_counters = 2 };
	char b[32];

	(void)state;
	/* no table: every counter is a count */
	assert_int_equal(pcc_dev_counter_unit(&ops, 1), PCC_DEV_UNIT_NONE);
	ops.counter_units = units;
	assert_int_equal(pcc_dev_counter_unit(&ops, 1), PCC_DEV_UNIT_RATE);
	assert_int_equal(pcc_dev_counter_unit(&ops, 2), PCC_DEV_UNIT_NONE); /* past the end */
	assert_int_equal(pcc_dev_counter_unit(NULL, 0), PCC_DEV_UNIT_NONE);
	assert_string_equal(pcc_dev_unit_name(PCC_DEV_UNIT_FXP16), "fxp16");
	assert_string_equal(pcc_dev_unit_name(200), "count");
	assert_string_equal(pcc_dev_unit_format(PCC_DEV_UNIT_RATE, PCC_DEV_MAX_RATE / 4, 100, b,
					    sizeof(b)),
			"25.00 Gb/s");
	assert_string_equal(pcc_dev_unit_format(PCC_DEV_UNIT_NS, 12064000, 0, b, sizeof(b)),
			"12.064 ms");
	assert_string_equal(
			pcc_dev_unit_format(PCC_DEV_UNIT_NS, 1500, 0, b, sizeof(b)), "1.500 us");
	assert_string_equal(pcc_dev_unit_format(PCC_DEV_UNIT_NS, 999, 0, b, sizeof(b)), "999 ns");
	assert_string_equal(
			pcc_dev_unit_format(PCC_DEV_UNIT_FXP16, 32768, 0, b, sizeof(b)), "0.5000");
	assert_string_equal(pcc_dev_unit_format(PCC_DEV_UNIT_BYTES, 1500000, 0, b, sizeof(b)),
			"1.50 MB");
	assert_string_equal(pcc_dev_unit_format(PCC_DEV_UNIT_BYTES, 64, 0, b, sizeof(b)), "64 B");
	assert_string_equal(pcc_dev_unit_format(PCC_DEV_UNIT_NONE, 7, 0, b, sizeof(b)), "7");
	/* a short buffer is cut, never overrun */
	assert_string_equal(pcc_dev_unit_format(PCC_DEV_UNIT_NS, 12064000, 0, b, 4), "12.");
}

/* ---- Memory declaration --------------------------------------------- */

static void
test_mem_decl(void **state)
{
	struct pcc_dev_mem_usage mu;
	size_t before, g0;

	(void)state;
	init_dev(2, 3);
	assert_int_equal(pcc_dev_algo_load(0, 0, "decl"), 0);
	assert_int_equal(pcc_dev_algo_load(0, 1, "toy"), 0);
	assert_int_equal(pcc_dev_algo_load(0, 2, "decl_bad"), 0);
	before = pcc_dev_mem_total();
	assert_true(before > 0);

	/* the declaration sizes the slot */
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	assert_int_equal(pcc_dev_mem_usage(0, 0, &mu), 0);
	assert_int_equal(mu.n_params, 10);
	assert_int_equal(mu.n_counters, 20);
	assert_int_equal(mu.n_counter_groups, 3);
	assert_int_equal(mu.n_thread_sets, 4);
	assert_int_equal(mu.ctx_size, 128);
	g0 = 32; /* 20 counters rounded up to a 64-byte line of words */
	assert_int_equal(mu.counters_bytes, 4 * (g0 + 2 * PCC_DEV_COUNTER_GROUP_SIZE) * 4);
	assert_int_equal(mu.params_bytes, 64);
	assert_int_equal(mu.total_bytes, mu.params_bytes + mu.counters_bytes + mu.priv_bytes);
	assert_int_equal(pcc_dev_counter_groups(0, 0), 3);
	assert_non_null(pcc_dev_counters_group(0, 0, 2));
	assert_int_equal(pcc_dev_mem_total(), before + mu.total_bytes);
	/* extra declared words are allocated and readable */
	{
		uint32_t v[10];

		assert_int_equal(pcc_dev_params_get(0, 0, 0, 10, v), 0);
		assert_int_equal(v[P_ALPHA], 10);
		assert_int_equal(v[9], 0);
		/* but not settable: no description */
		assert_int_equal(pcc_dev_params_set(0, 0, 8, 1, v), -EINVAL);
	}

	/* n_slots = 1: a second slot on the port is refused */
	assert_int_equal(pcc_dev_slot_bind(0, 1, 0), -ENOSPC);
	/* other ports count separately */
	assert_int_equal(pcc_dev_algo_load(1, 0, "decl"), 0);
	assert_int_equal(pcc_dev_slot_bind(1, 1, 0), 0);
	/* rebinding the same slot is fine */
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);

	/* defaults from the tables */
	assert_int_equal(pcc_dev_slot_bind(0, 2, 1), 0);
	assert_int_equal(pcc_dev_mem_usage(0, 2, &mu), 0);
	assert_int_equal(mu.n_params, P_N);
	assert_int_equal(mu.n_counters, C_N);
	assert_int_equal(mu.n_counter_groups, PCC_DEV_DEFAULT_COUNTER_GROUPS);
	assert_int_equal(mu.ctx_size, PCC_DEV_CTX_SIZE);
	assert_int_equal(mu.counters_bytes, 4 * (16 + PCC_DEV_COUNTER_GROUP_SIZE) * 4);

	/* a declaration below the tables is refused */
	assert_int_equal(pcc_dev_slot_bind(0, 3, 2), -EINVAL);
	assert_null(pcc_dev_slot_algo(0, 3, NULL));

	/* unbinding frees */
	before = pcc_dev_mem_total();
	assert_int_equal(pcc_dev_slot_unbind(0, 2), 0);
	assert_int_equal(pcc_dev_mem_total(), before - mu.total_bytes);
	assert_int_equal(pcc_dev_mem_usage(0, 2, &mu), -ENOENT);
	assert_int_equal(pcc_dev_mem_usage(0, 0, NULL), -EINVAL);
	assert_int_equal(pcc_dev_mem_usage(0, 9, &mu), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
				test_register_validation, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_registry_full, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(
				test_find_list_unregister, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_before_init, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_init_errors, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_default_algo, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_slots, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_dispatch, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_params, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_counters_threads, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_counter_helpers, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(
				test_threads_per_counter_set, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_mem_decl, test_setup, test_teardown),
		cmocka_unit_test(test_counter_units),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
