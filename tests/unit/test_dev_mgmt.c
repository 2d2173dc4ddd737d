/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the register-style management commands (pcc_dev_mgmt.h):
 * every command type's answer against the lib/dev state it reads or
 * changes, and every validation error with the field it names.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_log.h>

#include "pcc_dev.h"
#include "pcc_dev_hist.h"
#include "pcc_dev_mgmt.h"

static void
tst_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	(void)res;
}

static const struct pcc_dev_param_desc tst_params[] = {
	{ 0, "gain", 10, 1, 100, PCC_DEV_PERM_RW, "a gain" },
	{ 1, "limit", 500, 0, 1000, PCC_DEV_PERM_RW, "a limit" },
	{ 2, "build", 7, 7, 7, PCC_DEV_PERM_RO, "read-only" },
};

static const struct pcc_dev_counter_desc tst_counters[] = {
	{ 0, "events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RO, "events seen" },
	{ 1, "peak", 1000, PCC_DEV_COUNTER_MAX, PCC_DEV_PERM_RO, "highest value" },
};

static const uint8_t tst_hists[] = { 1 };

/* Refuses limit < gain (a rule [min, max] cannot express). */
static int
tst_set_params(uint8_t port, uint8_t slot, uint32_t id_base, uint32_t num,
		const uint32_t *new_values, uint32_t *params)
{
	(void)port;
	(void)slot;
	memcpy(params + id_base, new_values, num * sizeof(*params));
	return params[1] < params[0] ? -EINVAL : 0;
}

static struct pcc_dev_algo_ops tst_ops = {
	.name = "mgmt_tst",
	.id = 0xABCD,
	.major = 2,
	.minor = 5,
	.desc = "management test algorithm",
	.params = tst_params,
	.n_params = RTE_DIM(tst_params),
	.counters = tst_counters,
	.n_counters = RTE_DIM(tst_counters),
	.hist_ids = tst_hists,
	.n_hist_ids = RTE_DIM(tst_hists),
	.on_event = tst_on_event,
	.set_params = tst_set_params,
};

static struct pcc_dev_mgmt_req rq;
static struct pcc_dev_mgmt_resp rs;

static int
run(uint8_t type, uint8_t slot, uint16_t index, uint32_t value)
{
	rq.cmd_type = type;
	rq.port = 0;
	rq.slot = slot;
	rq.index = index;
	rq.value = value;
	return pcc_dev_mgmt_exec(&rq, &rs);
}

/* run() that must fail with err and a message containing what. */
static void
refused(uint8_t type, uint8_t slot, uint16_t index, uint32_t value, int err, const char *what)
{
	assert_int_equal(run(type, slot, index, value), err);
	assert_int_equal(rs.status, err);
	assert_int_equal(rs.n_words, 0);
	if (strstr(rs.err, what) == NULL)
		fail_msg("error '%s' does not name '%s'", rs.err, what);
}

static int
group_setup(void **state)
{
	(void)state;
	rte_log_set_level_pattern("pcc.dev", RTE_LOG_EMERG);
	assert_int_equal(pcc_dev_algo_register(&tst_ops), 0);
	return 0;
}

/* Port 0: slot 0 and slot 3 = mgmt_tst (slot 0 enabled); 0xF = default. */
static int
test_setup(void **state)
{
	struct pcc_dev_conf conf = { .n_ports = 1, .n_threads = 1, .default_algo = "mgmt_tst" };

	(void)state;
	pcc_dev_thread_set_rank(0);
	assert_int_equal(pcc_dev_init(&conf), 0);
	assert_int_equal(pcc_dev_algo_load(0, 0, "mgmt_tst"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 3, 0), 0);
	assert_int_equal(pcc_dev_slot_enable(0, 0, true), 0);
	memset(&rq, 0, sizeof(rq));
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
test_algo_info(void **state)
{
	(void)state;
	assert_int_equal(run(PCC_MGMT_ALGO_INFO, 0, 0, 0), 0);
	assert_int_equal(rs.n_words, 3);
	assert_int_equal(rs.words[0], 0xABCD);
	assert_int_equal(rs.words[1], 2);
	assert_int_equal(rs.words[2], 5);
	assert_string_equal(rs.name, "mgmt_tst");
	assert_string_equal(rs.desc, "management test algorithm");
	/* slot 0xf holds the default algorithm */
	assert_int_equal(run(PCC_MGMT_ALGO_INFO, PCC_DEV_INTERNAL_SLOT, 0, 0), 0);
	assert_string_equal(rs.name, "mgmt_tst");
	/* info array: slots 0, 3, 0xf */
	assert_int_equal(run(PCC_MGMT_ALGO_INFO_ARRAY, 0, 0, 0), 0);
	assert_int_equal(rs.n_words, 12);
	assert_int_equal(rs.words[0], 0);
	assert_int_equal(rs.words[4], 3);
	assert_int_equal(rs.words[8], PCC_DEV_INTERNAL_SLOT);
	assert_int_equal(rs.words[9], 0xABCD);
}

static void
test_status_enable(void **state)
{
	(void)state;
	assert_int_equal(run(PCC_MGMT_ALGO_STATUS, 0, 0, 0), 0);
	assert_int_equal(rs.words[0],
			PCC_MGMT_STATUS_BOUND | PCC_MGMT_STATUS_ENABLED | PCC_MGMT_STATUS_COUNTERS |
					PCC_MGMT_STATUS_ACTIVE);
	assert_int_equal(run(PCC_MGMT_ALGO_STATUS, 3, 0, 0), 0);
	assert_int_equal(rs.words[0], PCC_MGMT_STATUS_BOUND | PCC_MGMT_STATUS_COUNTERS);
	/* disable slot 0: new flows get the default slot */
	assert_int_equal(run(PCC_MGMT_ALGO_ENABLE, 0, 0, 0), 0);
	assert_int_equal(pcc_dev_slot_active(0), PCC_DEV_INTERNAL_SLOT);
	/* enable slot 3 */
	assert_int_equal(run(PCC_MGMT_ALGO_ENABLE, 3, 0, 1), 0);
	assert_int_equal(pcc_dev_slot_active(0), 3);
	assert_int_equal(run(PCC_MGMT_ALGO_STATUS, 3, 0, 0), 0);
	assert_true(rs.words[0] & PCC_MGMT_STATUS_ACTIVE);
	/* counters off and on */
	assert_int_equal(run(PCC_MGMT_COUNTERS_ENABLE, 3, 0, 0), 0);
	assert_false(pcc_dev_counters_enabled(0, 3));
	assert_int_equal(run(PCC_MGMT_COUNTERS_ENABLE, 3, 0, 1), 0);
	assert_true(pcc_dev_counters_enabled(0, 3));
	refused(PCC_MGMT_ALGO_ENABLE, 3, 0, 2, -EINVAL, "value 2");
	refused(PCC_MGMT_COUNTERS_ENABLE, 3, 0, 7, -EINVAL, "value 7");
	refused(PCC_MGMT_ALGO_ENABLE, PCC_DEV_INTERNAL_SLOT, 0, 0, -EINVAL, "slot 0xf");
}

static void
test_params(void **state)
{
	uint32_t v[3];

	(void)state;
	assert_int_equal(run(PCC_MGMT_PARAMS_COUNT, 0, 0, 0), 0);
	assert_int_equal(rs.words[0], 3);
	assert_int_equal(run(PCC_MGMT_PARAM_INFO, 0, 1, 0), 0);
	assert_int_equal(rs.n_words, 4);
	assert_int_equal(rs.words[0], 500);
	assert_int_equal(rs.words[1], 0);
	assert_int_equal(rs.words[2], 1000);
	assert_int_equal(rs.words[3], PCC_DEV_PERM_RW);
	assert_string_equal(rs.name, "limit");
	assert_int_equal(run(PCC_MGMT_PARAM_SET, 0, 1, 700), 0);
	assert_int_equal(rs.words[0], 700);
	assert_int_equal(pcc_dev_params_get(0, 0, 1, 1, v), 0);
	assert_int_equal(v[0], 700);
	/* slot 3 keeps its own values */
	assert_int_equal(run(PCC_MGMT_PARAM_GET, 3, 1, 0), 0);
	assert_int_equal(rs.words[0], 500);
	assert_int_equal(run(PCC_MGMT_PARAMS_GET, 0, 0, 0), 0);
	assert_int_equal(rs.n_words, 3);
	assert_int_equal(rs.words[0], 10);
	assert_int_equal(rs.words[1], 700);
	assert_int_equal(rs.words[2], 7);
	/* bulk set from id 0 */
	rq.n_values = 2;
	rq.values[0] = 20;
	rq.values[1] = 30;
	assert_int_equal(run(PCC_MGMT_PARAMS_SET, 0, 0, 0), 0);
	assert_int_equal(rs.n_words, 2);
	assert_int_equal(pcc_dev_params_get(0, 0, 0, 2, v), 0);
	assert_int_equal(v[0], 20);
	assert_int_equal(v[1], 30);
	/* errors: range, read-only, the algorithm's own rule, bad index */
	refused(PCC_MGMT_PARAM_SET, 0, 0, 101, -ERANGE, "range 1..100");
	refused(PCC_MGMT_PARAM_SET, 0, 2, 7, -EPERM, "read-only");
	refused(PCC_MGMT_PARAM_SET, 0, 1, 5, -EINVAL, "refused parameters 1..1");
	refused(PCC_MGMT_PARAM_GET, 0, 3, 0, -EINVAL, "index 3: parameter 0..2");
	refused(PCC_MGMT_PARAM_INFO, 0, 99, 0, -EINVAL, "index 99");
	rq.n_values = 3;
	rq.values[2] = 0;
	refused(PCC_MGMT_PARAMS_SET, 0, 1, 0, -EINVAL, "parameters 1..3");
	rq.n_values = 0;
	refused(PCC_MGMT_PARAMS_SET, 0, 0, 0, -EINVAL, "n_values 0");
	/* nothing applied by the refusals */
	assert_int_equal(pcc_dev_params_get(0, 0, 0, 2, v), 0);
	assert_int_equal(v[0], 20);
	assert_int_equal(v[1], 30);
}

static void
test_counters(void **state)
{
	(void)state;
	pcc_dev_counter_add(0, 0, 0, 5);
	pcc_dev_counter_update(0, 0, 1, 42);
	assert_int_equal(run(PCC_MGMT_COUNTERS_COUNT, 0, 0, 0), 0);
	assert_int_equal(rs.words[0], 2);
	assert_true(rs.words[1] >= 1);
	assert_int_equal(run(PCC_MGMT_COUNTER_INFO, 0, 1, 0), 0);
	assert_int_equal(rs.words[0], 1000);
	assert_int_equal(rs.words[1], PCC_DEV_COUNTER_MAX);
	assert_string_equal(rs.name, "peak");
	assert_int_equal(run(PCC_MGMT_COUNTER_INFO, 0, 0, 0), 0);
	assert_int_equal(rs.words[0], UINT32_MAX);
	assert_int_equal(run(PCC_MGMT_COUNTERS_GET, 0, 0, 0), 0);
	assert_int_equal(rs.n_words, 2);
	assert_int_equal(rs.words[0], 5);
	assert_int_equal(rs.words[1], 42);
	assert_int_equal(run(PCC_MGMT_COUNTERS_GET_CLR, 0, 0, 0), 0);
	assert_int_equal(rs.words[0], 5);
	assert_int_equal(run(PCC_MGMT_COUNTERS_GET, 0, 0, 0), 0);
	assert_int_equal(rs.words[0], 0);
	refused(PCC_MGMT_COUNTER_INFO, 0, 2, 0, -EINVAL, "index 2: counter 0..1");
	refused(PCC_MGMT_COUNTERS_GET, 0, 15, 0, -EINVAL, "counter group");
}

static void
test_hist(void **state)
{
	uint32_t ids;

	(void)state;
	assert_int_equal(run(PCC_MGMT_HIST_IDS, 0, 0, 0), 0);
	assert_int_equal(rs.words[0], 0);
	assert_int_equal(rs.words[1], 1u << 1);
	refused(PCC_MGMT_HIST_CONFIG, 0, 1, 0, -ENOENT, "not configured");
	/* configure histogram 1 linear: 4 bins from 10, step 5 */
	rq.n_values = 4;
	rq.values[0] = PCC_DEV_HIST_LINEAR;
	rq.values[1] = 4;
	rq.values[2] = 10;
	rq.values[3] = 5;
	assert_int_equal(run(PCC_MGMT_HIST_SET, 0, 1, PCC_MGMT_HIST_OP_CONFIG), 0);
	assert_int_equal(run(PCC_MGMT_HIST_IDS, 0, 0, 0), 0);
	ids = rs.words[0];
	assert_int_equal(ids, 1u << 1);
	assert_int_equal(run(PCC_MGMT_HIST_CONFIG, 0, 1, 0), 0);
	assert_int_equal(rs.n_words, 8 + 4);
	assert_int_equal(rs.words[0], PCC_DEV_HIST_LINEAR);
	assert_int_equal(rs.words[1], 4);
	assert_int_equal(rs.words[2], 0); /* disabled */
	assert_int_equal(rs.words[6], 5); /* step */
	assert_int_equal(rs.words[7], 0); /* factor */
	assert_int_equal(rs.words[8], 10);
	assert_int_equal(rs.words[11], 25);
	assert_int_equal(run(PCC_MGMT_HIST_SET, 0, 1, PCC_MGMT_HIST_OP_ENABLE), 0);
	assert_int_equal(pcc_dev_hist_update(0, 0, 1, 17), 0);
	assert_int_equal(run(PCC_MGMT_HIST_BINS, 0, 1, 0), 0);
	assert_int_equal(rs.n_words, 4);
	assert_int_equal(rs.words[1], 1);
	/* clearing or reconfiguring an enabled histogram is refused */
	refused(PCC_MGMT_HIST_SET, 0, 1, PCC_MGMT_HIST_OP_CLEAR, -EBUSY, "disable it first");
	assert_int_equal(run(PCC_MGMT_HIST_SET, 0, 1, PCC_MGMT_HIST_OP_DISABLE), 0);
	assert_int_equal(run(PCC_MGMT_HIST_SET, 0, 1, PCC_MGMT_HIST_OP_CLEAR), 0);
	assert_int_equal(run(PCC_MGMT_HIST_BINS, 0, 1, 0), 0);
	assert_int_equal(rs.words[1], 0);
	/* free mode with too few edges, bad mode, bad op, bad id */
	rq.values[0] = PCC_DEV_HIST_FREE;
	refused(PCC_MGMT_HIST_SET, 0, 1, PCC_MGMT_HIST_OP_CONFIG, -EINVAL, "4 edges");
	rq.values[0] = 9;
	refused(PCC_MGMT_HIST_SET, 0, 1, PCC_MGMT_HIST_OP_CONFIG, -EINVAL, "mode 9");
	refused(PCC_MGMT_HIST_SET, 0, 1, 4, -EINVAL, "value 4");
	refused(PCC_MGMT_HIST_DESC, 0, 15, 0, -EINVAL, "index 15: histogram 0..14");
}

static void
test_bad_fields(void **state)
{
	(void)state;
	refused(0x11, 0, 0, 0, -EINVAL, "cmd_type 0x11");
	refused(0xff, 0, 0, 0, -EINVAL, "cmd_type 0xff");
	rq.port = 8;
	rq.cmd_type = PCC_MGMT_ALGO_INFO;
	assert_int_equal(pcc_dev_mgmt_exec(&rq, &rs), -EINVAL);
	assert_non_null(strstr(rs.err, "port 8"));
	refused(PCC_MGMT_ALGO_INFO, 8, 0, 0, -EINVAL, "slot 8");
	refused(PCC_MGMT_ALGO_INFO, 5, 0, 0, -ENOENT, "slot 5: no algorithm bound");
	assert_int_equal(pcc_dev_mgmt_exec(NULL, &rs), -EINVAL);
	assert_int_equal(pcc_dev_mgmt_exec(&rq, NULL), -EINVAL);
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(pcc_dev_mgmt_cmd_name(0x7), "param_set");
	assert_null(pcc_dev_mgmt_cmd_name(0x8));
	assert_null(pcc_dev_mgmt_cmd_name(0x1000));
	assert_int_equal(pcc_dev_mgmt_cmd_parse("param_set"), 0x7);
	assert_int_equal(pcc_dev_mgmt_cmd_parse("0x10"), 0x10);
	assert_int_equal(pcc_dev_mgmt_cmd_parse("12"), 0xC);
	assert_int_equal(pcc_dev_mgmt_cmd_parse("0x8"), -EINVAL);
	assert_int_equal(pcc_dev_mgmt_cmd_parse("-1"), -EINVAL);
	assert_int_equal(pcc_dev_mgmt_cmd_parse("bogus"), -EINVAL);
	assert_int_equal(pcc_dev_mgmt_cmd_parse(""), -EINVAL);
	assert_int_equal(pcc_dev_mgmt_cmd_parse(NULL), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_algo_info, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_status_enable, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_params, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_counters, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_hist, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_bad_fields, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_names, test_setup, test_teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
