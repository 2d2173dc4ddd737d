/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of lib/dev histograms: the three edge modes (values below
 * the first and above the last edge included), configuration errors,
 * enable/disable/clear rules, description, per-thread bins combined,
 * histogram id registration per algorithm, bins seen as counter groups.
 */

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_log.h>

#include "pcc_dev.h"
#include "pcc_dev_fxp.h"
#include "pcc_dev_hist.h"

static void
noop_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	(void)res;
}

/* Registers histograms 0 and 3 (3 lives in counter group 2). */
static const uint8_t histo_ids[] = { 0, 3 };

static struct pcc_dev_algo_ops histo_ops = {
	.name = "histo",
	.on_event = noop_on_event,
	.hist_ids = histo_ids,
	.n_hist_ids = 2,
};

static struct pcc_dev_algo_ops nohist_ops = {
	.name = "nohist",
	.on_event = noop_on_event,
};

static int
group_setup(void **state)
{
	(void)state;
	rte_log_set_level_pattern("pcc.dev", RTE_LOG_EMERG);
	assert_int_equal(pcc_dev_algo_register(&histo_ops), 0);
	assert_int_equal(pcc_dev_algo_register(&nohist_ops), 0);
	return 0;
}

/* Port 0: slot 0 = histo, slot 1 = nohist, slot 2 = histo; 2 threads. */
static int
test_setup(void **state)
{
	struct pcc_dev_conf conf = { .n_ports = 2, .n_threads = 2, .default_algo = "histo" };

	(void)state;
	pcc_dev_thread_set_rank(0);
	assert_int_equal(pcc_dev_init(&conf), 0);
	assert_int_equal(pcc_dev_algo_load(0, 0, "histo"), 0);
	assert_int_equal(pcc_dev_algo_load(0, 1, "nohist"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 1, 1), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 2, 0), 0);
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
read_bins(uint8_t hist, uint32_t *bins, uint32_t n)
{
	assert_int_equal(pcc_dev_hist_bins(0, hist, bins, n), n);
}

static void
test_linear(void **state)
{
	struct pcc_dev_hist_conf c = {
		.mode = PCC_DEV_HIST_LINEAR,
		.n_bins = 4,
		.min = 100,
		.step = 10,
		.desc = "lin",
	};
	static const uint32_t vals[] = { 0, 99, 100, 109, 110, 119, 120, 135, 139, 140,
		UINT32_MAX };
	static const uint32_t want[4] = { 4, 2, 1, 4 };
	uint32_t b[4], i;

	(void)state;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), 0);
	assert_int_equal(pcc_dev_hist_enable(0, 0), 0);
	for (i = 0; i < RTE_DIM(vals); i++)
		assert_int_equal(pcc_dev_hist_update(0, 0, 0, vals[i]), 0);
	read_bins(0, b, 4);
	assert_memory_equal(b, want, sizeof(want));

	/* power-of-two step (shift path) */
	assert_int_equal(pcc_dev_hist_disable(0, 0), 0);
	c.min = 0;
	c.step = 16;
	c.n_bins = 32;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), 0);
	assert_int_equal(pcc_dev_hist_enable(0, 0), 0);
	read_bins(0, b, 1);
	assert_int_equal(b[0], 0); /* init cleared the bins */
	for (i = 0; i < 600; i++)
		assert_int_equal(pcc_dev_hist_update(0, 0, 0, i), 0);
	{
		uint32_t all[32];

		read_bins(0, all, 32);
		for (i = 0; i < 31; i++)
			assert_int_equal(all[i], 16);
		assert_int_equal(all[31], 600 - 31 * 16);
	}
}

static void
test_exponential(void **state)
{
	struct pcc_dev_hist_conf c = {
		.mode = PCC_DEV_HIST_EXPONENTIAL,
		.n_bins = 5,
		.min = 8,
		.factor = 2 * PCC_DEV_FXP16_ONE,
	};
	static const uint32_t vals[] = { 0, 1, 7, 8, 15, 16, 31, 32, 127, 128, 1000, UINT32_MAX };
	static const uint32_t want[5] = { 5, 2, 1, 1, 3 };
	static const uint32_t edges2[5] = { 8, 16, 32, 64, 128 };
	static const uint32_t edges15[6] = { 10, 15, 22, 33, 49, 73 };
	struct pcc_dev_hist_desc d;
	uint32_t b[5], i;

	(void)state;
	assert_int_equal(pcc_dev_hist_init(0, 3, &c), 0);
	assert_int_equal(pcc_dev_hist_describe(0, 3, &d), 0);
	assert_memory_equal(d.edges, edges2, sizeof(edges2));
	assert_int_equal(pcc_dev_hist_enable(0, 3), 0);
	for (i = 0; i < RTE_DIM(vals); i++)
		assert_int_equal(pcc_dev_hist_update(0, 2, 3, vals[i]), 0);
	read_bins(3, b, 5);
	assert_memory_equal(b, want, sizeof(want));

	/* factor 1.5: floor(e * 1.5) */
	assert_int_equal(pcc_dev_hist_disable(0, 3), 0);
	c.min = 10;
	c.n_bins = 6;
	c.factor = PCC_DEV_FXP16(1.5);
	assert_int_equal(pcc_dev_hist_init(0, 3, &c), 0);
	assert_int_equal(pcc_dev_hist_describe(0, 3, &d), 0);
	assert_memory_equal(d.edges, edges15, sizeof(edges15));
	/* a factor barely above 1 still gives strictly increasing edges */
	c.min = 1;
	c.n_bins = 32;
	c.factor = PCC_DEV_FXP16_ONE + 1;
	assert_int_equal(pcc_dev_hist_init(0, 3, &c), 0);
	assert_int_equal(pcc_dev_hist_describe(0, 3, &d), 0);
	for (i = 0; i < 32; i++)
		assert_int_equal(d.edges[i], i + 1);
	/* overflow of the last edge */
	c.min = 1u << 28;
	c.n_bins = 6;
	c.factor = 2 * PCC_DEV_FXP16_ONE;
	assert_int_equal(pcc_dev_hist_init(0, 3, &c), -ERANGE);
	c.n_bins = 4;
	assert_int_equal(pcc_dev_hist_init(0, 3, &c), 0);
}

static void
test_free_edges(void **state)
{
	static const uint32_t edges[3] = { 5, 50, 500 };
	struct pcc_dev_hist_conf c = { .mode = PCC_DEV_HIST_FREE, .n_bins = 3, .edges = edges };
	static const uint32_t vals[] = { 0, 4, 5, 49, 50, 499, 500, 501, UINT32_MAX };
	static const uint32_t want[3] = { 4, 2, 3 };
	uint32_t b[3], i;

	(void)state;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), 0);
	assert_int_equal(pcc_dev_hist_enable(0, 0), 0);
	for (i = 0; i < RTE_DIM(vals); i++)
		assert_int_equal(pcc_dev_hist_update(0, 0, 0, vals[i]), 0);
	read_bins(0, b, 3);
	assert_memory_equal(b, want, sizeof(want));
	/* fewer bins asked: fewer written */
	assert_int_equal(pcc_dev_hist_bins(0, 0, b, 2), 2);
	assert_int_equal(pcc_dev_hist_bins(0, 0, b, 10), 3);

	/* single bin: everything lands in it */
	assert_int_equal(pcc_dev_hist_disable(0, 0), 0);
	c.n_bins = 1;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), 0);
	assert_int_equal(pcc_dev_hist_enable(0, 0), 0);
	assert_int_equal(pcc_dev_hist_update(0, 0, 0, 0), 0);
	assert_int_equal(pcc_dev_hist_update(0, 0, 0, UINT32_MAX), 0);
	read_bins(0, b, 1);
	assert_int_equal(b[0], 2);
}

static void
test_conf_errors(void **state)
{
	static const uint32_t bad_edges[3] = { 5, 5, 6 };
	static const uint32_t dec_edges[3] = { 5, 4, 6 };
	struct pcc_dev_hist_conf c = { .mode = PCC_DEV_HIST_LINEAR, .n_bins = 4, .step = 1 };
	struct pcc_dev_hist_desc d;
	uint32_t b[4];

	(void)state;
	assert_int_equal(pcc_dev_hist_init(2, 0, &c), -EINVAL);
	assert_int_equal(pcc_dev_hist_init(0, PCC_DEV_MAX_HISTS, &c), -EINVAL);
	assert_int_equal(pcc_dev_hist_init(0, 0, NULL), -EINVAL);
	c.n_bins = 0;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), -EINVAL);
	c.n_bins = PCC_DEV_HIST_MAX_BINS + 1;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), -EINVAL);
	c.n_bins = 4;
	c.step = 0;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), -EINVAL);
	c.step = 1u << 31;
	c.min = 1u << 31;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), -ERANGE);
	c = (struct pcc_dev_hist_conf){ .mode = 3, .n_bins = 4 };
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), -EINVAL);
	c = (struct pcc_dev_hist_conf){
		.mode = PCC_DEV_HIST_EXPONENTIAL, .n_bins = 4, .factor = 2 * PCC_DEV_FXP16_ONE
	};
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), -EINVAL); /* min 0 */
	c.min = 1;
	c.factor = PCC_DEV_FXP16_ONE;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), -EINVAL); /* factor 1.0 */
	c = (struct pcc_dev_hist_conf){ .mode = PCC_DEV_HIST_FREE, .n_bins = 3 };
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), -EINVAL); /* no edges */
	c.edges = bad_edges;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), -EINVAL); /* equal edges */
	c.edges = dec_edges;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), -EINVAL); /* decreasing */
	assert_int_equal(pcc_dev_hist_configured(0), 0);

	/* calls on a histogram nobody configured */
	assert_int_equal(pcc_dev_hist_enable(0, 0), -ENOENT);
	assert_int_equal(pcc_dev_hist_disable(0, 0), -ENOENT);
	assert_int_equal(pcc_dev_hist_clear(0, 0), -ENOENT);
	assert_int_equal(pcc_dev_hist_describe(0, 0, &d), -ENOENT);
	assert_int_equal(pcc_dev_hist_bins(0, 0, b, 4), -ENOENT);
	assert_int_equal(pcc_dev_hist_update(0, 0, 0, 1), 1); /* ignored */
	assert_int_equal(pcc_dev_hist_errors(0), 0);

	/* bad arguments */
	assert_int_equal(pcc_dev_hist_enable(2, 0), -EINVAL);
	assert_int_equal(pcc_dev_hist_enable(0, 15), -EINVAL);
	assert_int_equal(pcc_dev_hist_clear(0, 15), -EINVAL);
	assert_int_equal(pcc_dev_hist_describe(0, 0, NULL), -EINVAL);
	assert_int_equal(pcc_dev_hist_bins(0, 0, NULL, 4), -EINVAL);
	assert_int_equal(pcc_dev_hist_configured(7), 0);
	assert_int_equal(pcc_dev_hist_errors(7), 0);
}

static void
test_rules(void **state)
{
	struct pcc_dev_hist_conf c = {
		.mode = PCC_DEV_HIST_LINEAR,
		.n_bins = 8,
		.min = 0,
		.step = 100,
		.desc = "a long enough description",
	};
	struct pcc_dev_hist_desc d;
	uint32_t b[8], g[PCC_DEV_COUNTER_GROUP_SIZE], i;

	(void)state;
	assert_int_equal(pcc_dev_hist_init(0, 3, &c), 0);
	assert_int_equal(pcc_dev_hist_configured(0), 1u << 3);

	/* disabled (after init): ignored */
	assert_int_equal(pcc_dev_hist_update(0, 0, 3, 5), 1);
	read_bins(3, b, 1);
	assert_int_equal(b[0], 0);

	assert_int_equal(pcc_dev_hist_enable(0, 3), 0);
	assert_int_equal(pcc_dev_hist_update(0, 0, 3, 5), 0);
	assert_int_equal(pcc_dev_hist_update(0, 2, 3, 250), 0);
	assert_int_equal(pcc_dev_hist_update(0, PCC_DEV_INTERNAL_SLOT, 3, 250), 0);

	/* not registered by the slot's algorithm: -EPERM, counted, dropped */
	assert_int_equal(pcc_dev_hist_update(0, 1, 3, 5), -EPERM);
	assert_int_equal(pcc_dev_hist_update(0, 0, 1, 5), -EPERM);
	/* unbound slot, bad slot/id: counted */
	assert_int_equal(pcc_dev_hist_update(0, 5, 3, 5), -ENOENT);
	assert_int_equal(pcc_dev_hist_update(0, 8, 3, 5), -EINVAL);
	assert_int_equal(pcc_dev_hist_update(0, 0, 15, 5), -EINVAL);
	assert_int_equal(pcc_dev_hist_errors(0), 5);
	/* bad port: not counted anywhere */
	assert_int_equal(pcc_dev_hist_update(2, 0, 3, 5), -EINVAL);
	assert_int_equal(pcc_dev_hist_errors(1), 0);

	/* combined over slots */
	read_bins(3, b, 3);
	assert_int_equal(b[0], 1);
	assert_int_equal(b[1], 0);
	assert_int_equal(b[2], 2);

	/* description */
	assert_int_equal(pcc_dev_hist_describe(0, 3, &d), 0);
	assert_int_equal(d.mode, PCC_DEV_HIST_LINEAR);
	assert_int_equal(d.n_bins, 8);
	assert_int_equal(d.enabled, 1);
	assert_int_equal(d.counter_group, 2);
	assert_int_equal(d.group_offset, 32);
	assert_int_equal(d.min, 0);
	assert_int_equal(d.step, 100);
	assert_int_equal(d.edges[7], 700);
	assert_string_equal(d.desc, "a long enough description");

	/* the bins are counter group words of the updating slot */
	assert_int_equal(pcc_dev_counter_groups(0, 0), 3);
	assert_int_equal(pcc_dev_counter_groups(0, 1), PCC_DEV_DEFAULT_COUNTER_GROUPS);
	assert_int_equal(pcc_dev_counters_group_get(0, 2, 2, g, PCC_DEV_COUNTER_GROUP_SIZE),
			PCC_DEV_COUNTER_GROUP_SIZE);
	assert_int_equal(g[32 + 2], 1);
	assert_int_equal(g[32], 0);
	assert_int_equal(pcc_dev_counters_group_get_and_clear(0, 2, 2, g, 4), -EBUSY);

	/* clear and re-init only while disabled */
	assert_int_equal(pcc_dev_hist_clear(0, 3), -EBUSY);
	assert_int_equal(pcc_dev_hist_init(0, 3, &c), -EBUSY);
	assert_int_equal(pcc_dev_hist_disable(0, 3), 0);
	read_bins(3, b, 3);
	assert_int_equal(b[2], 2); /* disable keeps the bins */
	assert_int_equal(pcc_dev_hist_clear(0, 3), 0);
	read_bins(3, b, 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(b[i], 0);
	assert_int_equal(pcc_dev_counters_group_get_and_clear(0, 2, 2, g, 4), 4);
}

struct upd_arg {
	uint16_t rank;
	uint32_t n;
};

static void *
updater(void *a)
{
	const struct upd_arg *u = a;
	uint32_t i;

	pcc_dev_thread_set_rank(u->rank);
	for (i = 0; i < u->n; i++)
		if (pcc_dev_hist_update(0, 0, 0, i % 4) != 0)
			return (void *)1;
	return NULL;
}

static void
test_threads_and_saturation(void **state)
{
	struct pcc_dev_hist_conf c = { .mode = PCC_DEV_HIST_LINEAR, .n_bins = 4, .step = 1 };
	struct upd_arg args[2] = { { 0, 400 }, { 1, 800 } };
	pthread_t th[2];
	uint32_t b[4], *bins;
	void *ret;
	int i;

	(void)state;
	assert_int_equal(pcc_dev_hist_init(0, 0, &c), 0);
	assert_int_equal(pcc_dev_hist_enable(0, 0), 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, updater, &args[i]), 0);
	for (i = 0; i < 2; i++) {
		assert_int_equal(pthread_join(th[i], &ret), 0);
		assert_null(ret);
	}
	read_bins(0, b, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(b[i], 300);

	/* a bin at UINT32_MAX stays there; combined sums saturate */
	pcc_dev_thread_set_rank(0);
	bins = pcc_dev_counters_group(0, 0, 1); /* histogram 0: words 0..31 */
	assert_non_null(bins);
	bins[2] = UINT32_MAX;
	assert_int_equal(pcc_dev_hist_update(0, 0, 0, 2), 0);
	assert_int_equal(bins[2], UINT32_MAX);
	read_bins(0, b, 4);
	assert_int_equal(b[2], UINT32_MAX);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_linear, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_exponential, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_free_edges, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_conf_errors, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_rules, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(
				test_threads_and_saturation, test_setup, test_teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
