/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the libmango plug-in glue (lib/compat/mango/mango_plugin.c)
 * through lib/dev's loader: every refusal of a mango plug-in (no object,
 * a bad name, no function, unknown metrics, parameters too large or
 * missing) with its errno and message, and a good one: the algorithm the
 * plug-in names, run per QP on timer events with its own parameter copy,
 * its counters, the handle calls a plug-in cannot make refused, a
 * runtime per logical port and slot, and its parameters destroyed when
 * it is unloaded.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_log.h>

#include "libmango.h"
#include "pcc_dev.h"
#include "pcc_dev_plugin.h"
#include "test_log_capture.h"

#define PATH(n) MANGO_PLUGIN_DIR "/" n ".so"

static void
refused(const char *path, int err, const char *why)
{
	char buf[512];

	assert_int_equal(pcc_dev_plugin_load(path, buf, sizeof(buf)), err);
	if (strstr(buf, why) == NULL)
		fail_msg("%s: '%s' does not say '%s'", path, buf, why);
	assert_null(pcc_dev_algo_find("mango_plug"));
}

static void
test_refusals(void **state)
{
	(void)state;
	refused(PATH("mango_plug_noobj"), -ENOSYS, "no mango_pcc_algo_plugin object");
	refused(PATH("mango_plug_badname"), -EINVAL, "name 'Bad-Name' is not");
	refused(PATH("mango_plug_nofn"), -ENOSYS, "neither algo_fn nor algo_event_fn");
	refused(PATH("mango_plug_badmetrics"), -EINVAL, "unknown bits 0x80");
	refused(PATH("mango_plug_bigparams"), -EINVAL, "parameters of 1025 bytes");
	refused(PATH("mango_plug_nullparams"), -EINVAL, "NULL of 8 bytes");
}

static int
timer(uint8_t port, uint8_t slot, void *ctx, uint32_t qpn, uint8_t type,
		struct pcc_dev_results *res)
{
	struct pcc_dev_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.flow_qpn = qpn;
	ev.port = port;
	return pcc_dev_dispatch(port, slot, ctx, &ev, res);
}

static void
test_good(void **state)
{
	struct pcc_dev_conf dc = { .n_ports = 2, .n_threads = 1 };
	uint8_t a[PCC_DEV_CTX_SIZE] = { 0 }, b[PCC_DEV_CTX_SIZE] = { 0 },
		c[PCC_DEV_CTX_SIZE] = { 0 };
	const struct pcc_dev_algo_ops *ops;
	struct pcc_dev_results res;
	uint32_t v[8];
	unsigned int with;
	char buf[256];

	(void)state;
	assert_int_equal(pcc_dev_plugin_load(PATH("mango_plug_ok"), buf, sizeof(buf)), 0);
	ops = pcc_dev_algo_find("mango_plug");
	assert_non_null(ops);
	assert_string_equal(ops->desc, "a test plug-in");
	assert_int_equal(ops->n_counters, 7);
	assert_non_null(ops->on_flow_end);

	pcc_dev_thread_set_rank(0);
	assert_int_equal(pcc_dev_init(&dc), 0);
	assert_int_equal(pcc_dev_algo_load(0, 0, "mango_plug"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	assert_int_equal(pcc_dev_algo_load(1, 3, "mango_plug"), 0);
	assert_int_equal(pcc_dev_slot_bind(1, 3, 3), 0);
	/* only the events the runtime needs */
	assert_int_equal(timer(0, 0, a, 5, PCC_DEV_EVENT_TX, &res), 1);

	/* a CNP then the interval: halved; then +step; the handle call a
	 * plug-in cannot make is refused with a log line */
	log_capture();
	assert_int_equal(timer(0, 0, a, 5, PCC_DEV_EVENT_CNP, &res), 0);
	assert_int_equal(res.window, MANGO_PCC_WINDOW_INIT);
	assert_int_equal(timer(0, 0, a, 5, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(res.window, MANGO_PCC_WINDOW_INIT / 2);
	assert_int_equal(timer(0, 0, a, 5, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(res.window, MANGO_PCC_WINDOW_INIT / 2 + 500);
	assert_int_equal(log_release("mango_pcc_create: not in a plug-in", &with), 2);
	assert_int_equal(with, 1);

	/* another QP: its own parameters (its first call logs again) */
	log_capture();
	assert_int_equal(timer(0, 0, b, 6, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(res.window, MANGO_PCC_WINDOW_INIT + 500);
	assert_int_equal(log_release("handle call gave -9", &with), 2);
	assert_int_equal(with, 1);
	assert_int_equal(pcc_dev_counters_get(0, 0, v, 7), 7);
	assert_int_equal(v[0], 3); /* calls */
	assert_int_equal(v[1], 1); /* CNPs */
	assert_int_equal(v[3], 3); /* window updates */
	assert_int_equal(v[5], 2); /* QPs */

	/* port 1 slot 3: a runtime of its own (QP 5 new there) */
	log_capture();
	assert_int_equal(timer(1, 3, c, 5, PCC_DEV_EVENT_TIMER, &res), 0);
	assert_int_equal(res.window, MANGO_PCC_WINDOW_INIT + 500);
	assert_int_equal(log_release("plug: handle call", &with), 2);
	assert_int_equal(with, 1);
	assert_int_equal(pcc_dev_flow_end(1, 3, c), 0);

	/* unloaded: its parameters destroyed */
	pcc_dev_fini();
	log_capture();
	assert_int_equal(pcc_dev_plugin_unload("mango_plug_ok", buf, sizeof(buf)), 0);
	assert_int_equal(log_release("plug: parameters destroyed", &with), 1);
	assert_int_equal(with, 1);
	assert_null(pcc_dev_algo_find("mango_plug"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_good),
	};

	rte_log_set_level_pattern("pcc.dev", RTE_LOG_EMERG);
	rte_log_set_level_pattern("pcc.plugin", RTE_LOG_EMERG);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
