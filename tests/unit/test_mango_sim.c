/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of libmango handles in a simulator run (PCC_SIM), as a
 * libmango program gets it: the scenario's hosts are the devices; a
 * receiver has no RP role; two handles on hosts sharing a logical port
 * (a scenario with more than 8 senders) cannot both run; the run starts
 * once the handle that could not run is gone; stop waits for the
 * scenario's end and the summary is written; and, the simulator being
 * exact, the CNPs the handle counted per QP are the summary's per flow.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "libmango.h"
#include "test_log_capture.h"

#define QPN0 0x100u /* the scenario's flow i has QPN 0x100 + i */

static char scn_path[64];

static const char scenario[] = "description: libmango unit test, 9:1 incast\n"
			       "seed: 1\n"
			       "duration: 2ms\n"
			       "topology:\n"
			       "  type: incast\n"
			       "  senders: 9\n"
			       "  receivers: 1\n"
			       "  host_link: {rate: 100G, delay: 1us}\n"
			       "switch:\n"
			       "  buffer: 32MB\n"
			       "  ecn: {mode: red, kmin: 20KB, kmax: 200KB, pmax: 0.2}\n"
			       "hosts:\n"
			       "  np: engine\n"
			       "algorithms:\n"
			       "  - {slot: 0, name: dcqcn}\n"
			       "flows:\n"
			       "  - src: [s0, s1, s2, s3, s4, s5, s6, s7, s8]\n"
			       "    dst: r0\n"
			       "    size: infinite\n"
			       "    start: 0\n";

static void
halve_or_grow(void *params)
{
	(void)params;
	mango_pcc_window_update(mango_pcc_event_cnp_cnt() > 0 ? mango_pcc_window_current() / 2 :
								mango_pcc_window_current() + 3000);
}

#define REFUSED(call, status, name)                          \
	do {                                                 \
		unsigned int with_;                          \
		log_capture();                               \
		assert_int_equal((call), (status));          \
		assert_true(log_release(name, &with_) >= 1); \
		assert_true(with_ >= 1);                     \
	} while (0)

/* The summary's CNP count of flow fN (its "cnps" column). */
static long
summary_cnps(const char *out, unsigned int n)
{
	char head[16];
	const char *p;
	long v[11];

	snprintf(head, sizeof(head), "\nf%u ", n);
	p = strstr(out, head);
	if (p == NULL)
		return -1;
	/* flow src dst slot size start_us fct_us thpt rx_pkts ce cnps */
	if (sscanf(p + 1, "%*s %*s %*s %ld %*s %*s %*s %*s %ld %ld %ld", &v[0], &v[1], &v[2],
			    &v[3]) != 4)
		return -1;
	return v[3];
}

static void
test_sim(void **state)
{
	mango_pcc_config_t cfg = { .option = MANGO_PCC_CONFIG_INTERVAL, .value.interval_us = 20 };
	mango_pcc_h s0, s8, r0;
	uint32_t list[MAX_QPS], n = 0, i;
	char out[8192];
	int fd, saved;
	FILE *tf;
	ssize_t len;
	uint64_t c;

	(void)state;
	/* the scenario's hosts are the devices; a receiver has no RP role */
	REFUSED(mango_pcc_create("r0", &r0), MANGO_STATUS_ERROR, "has no RP role in the scenario");
	REFUSED(mango_pcc_create("s9", &r0), MANGO_STATUS_NOT_FOUND, "no device 's9' (known: ");
	assert_int_equal(mango_pcc_create("s0", &s0), MANGO_STATUS_SUCCESS);
	assert_int_equal(mango_pcc_create("s8", &s8), MANGO_STATUS_SUCCESS);
	assert_int_equal(mango_pcc_ctrl_config(s0, &cfg), MANGO_STATUS_SUCCESS);
	assert_int_equal(mango_pcc_ctrl_reg_algo(s0, 0, halve_or_grow, NULL, 0),
			MANGO_STATUS_SUCCESS);
	assert_int_equal(mango_pcc_ctrl_reg_algo(s8, 0, halve_or_grow, NULL, 0),
			MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_ctrl_run(s0, 2), MANGO_STATUS_NO_RESOURCE, "2 threads");

	/* s0 asks to run: the run waits for s8, which shares s0's logical port */
	assert_int_equal(mango_pcc_ctrl_run(s0, 1), MANGO_STATUS_SUCCESS);
	REFUSED(mango_pcc_ctrl_run(s8, 1), MANGO_STATUS_INVALID_STATE, "shares lib/dev port 0");
	/* without s8's handle, every handle left has run: the run starts */
	assert_int_equal(mango_pcc_destroy(s8), MANGO_STATUS_SUCCESS);

	/* stop waits for the scenario's end: the summary is written (to a
	 * file here, stdout being the test's TAP) */
	fflush(stdout);
	saved = dup(1);
	tf = tmpfile();
	assert_non_null(tf);
	fd = fileno(tf);
	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, 1), 1);
	assert_int_equal(mango_pcc_ctrl_stop(s0), MANGO_STATUS_SUCCESS);
	fflush(stdout);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	len = pread(fd, out, sizeof(out) - 1, 0);
	fclose(tf);
	assert_true(len > 0);
	out[len] = '\0';
	assert_non_null(strstr(out, "Simulation "));

	/* the flows of the logical port's hosts (s0's and s8's) ran the
	 * handle's algorithm; every CNP the simulator sent them is counted */
	assert_int_equal(mango_pcc_active_qp_list(s0, list, &n), MANGO_STATUS_SUCCESS);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++) {
		unsigned int f = list[i] - QPN0;

		assert_true(f == 0 || f == 8);
		assert_int_equal(mango_pcc_cnp_count_by_qp(s0, list[i], &c), MANGO_STATUS_SUCCESS);
		assert_true(c > 0);
		assert_int_equal((long)c, summary_cnps(out, f));
	}
	REFUSED(mango_pcc_ctrl_stop(s0), MANGO_STATUS_INVALID_STATE, "does not run");
	assert_int_equal(mango_pcc_destroy(s0), MANGO_STATUS_SUCCESS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim),
	};
	char eal[256];
	FILE *f;
	int fd, rc;

	snprintf(scn_path, sizeof(scn_path), "/tmp/mango-sim-%d-XXXXXX", (int)getpid());
	fd = mkstemp(scn_path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f == NULL || fputs(scenario, f) < 0 || fclose(f) != 0)
		return 1;
	snprintf(eal, sizeof(eal),
			"-l 0-1 --no-huge -m 1024 --no-pci --no-shconf --no-telemetry "
			"--file-prefix mango-sim-%d --log-level lib.*:error "
			"--log-level pcc.*:warning",
			(int)getpid());
	setenv("PCC_EAL_ARGS", eal, 1);
	setenv("PCC_SIM", scn_path, 1);
	setenv("PCC_SIM_OUT", "none", 1);
	unsetenv("PCC_RING_PAIR");
	unsetenv("PCC_DEVICES");
	unsetenv("PCC_ENGINE_OPTS");
	unsetenv("PCC_COMPAT_CONF");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(scn_path);
	return rc;
}
