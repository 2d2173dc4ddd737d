/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * lib/compat's environment and the DOCA host and telemetry layers: every
 * refusal with its DOCA error code and no crash (the clang build runs
 * this under ASan).  Each case runs in a child process: the environment
 * and the EAL start once per process.
 *
 *  - settings: an unknown key of the PCC_COMPAT_CONF file (with its
 *    file:line), an open quote in PCC_EAL_ARGS, an unknown engine option,
 *    PCC_SIM with PCC_RING_PAIR, a PCC_DEVICES entry that is not
 *    NAME=TARGET or names no port, a missing scenario;
 *  - doca_error.h names, doca_log.h levels;
 *  - on a ring pair: devices by name (PCC_DEVICES), PCI and ibdev
 *    queries, open and close (IN_USE while a context lives), every
 *    context call with bad arguments or in the wrong state or role,
 *    resources parsing, the telemetry of a device without an engine.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_pcc.h>
#include <doca_telemetry_pcc.h>

#include "compat_env_internal.h"

#define EAL "-l 0 --no-huge -m 256 --no-pci --no-shconf --log-level lib.*:error"

/* PCC_EAL_ARGS=EAL with a file prefix of this run's own: the EAL's
 * default one is shared with every other DPDK process (main() fills it) */
static char eal_env[192];

/* Run fn in a child with the PCC_* settings of env ("K=V" strings, NULL
 * terminated); the child's exit status. */
static int
in_child(void (*fn)(void), const char *const *env)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		for (; env != NULL && *env != NULL; env++)
			putenv((char *)(uintptr_t)*env);
		fn();
		exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Child checks exit with a distinct status naming the failed check. */
#define CHILD_CHECK(c)                                                                        \
	do {                                                                                  \
		if (!(c)) {                                                                   \
			fprintf(stderr, "child check failed at line %d: %s\n", __LINE__, #c); \
			exit(100);                                                            \
		}                                                                             \
	} while (0)

/* ---- Settings --------------------------------------------------------------- */

static const char *want_err;
static int want_rc;

static void
child_init_fails(void)
{
	int rc = compat_env_init("t");

	if (rc != want_rc || strstr(compat_env_error(), want_err) == NULL) {
		fprintf(stderr, "rc %d (want %d), error '%s' (want '%s')\n", rc, want_rc,
				compat_env_error(), want_err);
		exit(100);
	}
	/* the first result sticks */
	CHILD_CHECK(compat_env_init("t") == rc && !compat_env_ready());
	CHILD_CHECK(compat_ctx_get(0, PCC_HOST_ROLE_RP) == NULL);
}

static void
expect_init_fails(const char *const *env, int rc, const char *err)
{
	want_rc = rc;
	want_err = err;
	assert_int_equal(in_child(child_init_fails, env), 0);
}

static void
test_settings(void **state)
{
	char conf[] = "/tmp/pcc-compat-conf-XXXXXX", confenv[64];
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(conf);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "# comment\nEAL_ARGS = %s\nFOO = 1\n", EAL);
	fclose(f);
	snprintf(confenv, sizeof(confenv), "PCC_COMPAT_CONF=%s", conf);
	{
		char want[128];
		const char *env[] = { confenv, NULL };

		snprintf(want, sizeof(want), "%s:3: unknown key 'FOO'", conf);
		expect_init_fails(env, -EINVAL, want);
	}
	{
		const char *env[] = { "PCC_EAL_ARGS=-l 0 --file-prefix 'x", NULL };

		expect_init_fails(env, -EINVAL, "an open quote");
	}
	{
		const char *env[] = { eal_env, "PCC_ENGINE_OPTS=gen-flows=2 bogus=1", NULL };

		expect_init_fails(env, -EINVAL, "bogus");
	}
	{
		const char *env[] = { eal_env, "PCC_ENGINE_OPTS=gen-rate=fast", NULL };

		expect_init_fails(env, -EINVAL, "'fast'");
	}
	{
		const char *env[] = { "PCC_SIM=x.yaml", "PCC_RING_PAIR=1", NULL };

		expect_init_fails(env, -EINVAL, "PCC_SIM and PCC_RING_PAIR exclude each other");
	}
	{
		const char *env[] = { "PCC_SIM=x.yaml", "PCC_HA=a", NULL };

		expect_init_fails(env, -EINVAL, "PCC_SIM and PCC_HA exclude each other");
	}
	{
		const char *env[] = { eal_env, "PCC_RING_PAIR=1", "PCC_DEVICES=mlx5_0", NULL };

		expect_init_fails(env, -EINVAL, "'mlx5_0' is not NAME=TARGET");
	}
	{
		const char *env[] = { eal_env, "PCC_RING_PAIR=1", "PCC_DEVICES=mlx5_0=port:5",
			NULL };

		expect_init_fails(env, -ENODEV, "'port:5': no such ethdev port");
	}
	{
		const char *env[] = { eal_env, "PCC_RING_PAIR=1", "PCC_DEVICES=a=port:0,a=port:1",
			NULL };

		expect_init_fails(env, -EEXIST, "device 'a' twice");
	}
	{
		const char *env[] = { eal_env, "PCC_DEVICES=roce0=sim:s0", NULL };

		expect_init_fails(env, -EINVAL, "PCC_SIM is not set");
	}
	{
		const char *env[] = { eal_env, "PCC_SIM=/nonexistent/s.yaml", NULL };

		expect_init_fails(env, -EINVAL, "/nonexistent/s.yaml");
	}
	{
		const char *env[] = { eal_env, "PCC_PLUGINS=/nonexistent/p.so", NULL };

		expect_init_fails(env, -EINVAL, "PCC_PLUGINS: /nonexistent/p.so");
	}
	unlink(conf);
}

/* ---- Errors and logs --------------------------------------------------------- */

static void
test_error_log(void **state)
{
	(void)state;
	assert_string_equal(doca_error_get_name(DOCA_SUCCESS), "DOCA_SUCCESS");
	assert_string_equal(doca_error_get_name(DOCA_ERROR_BAD_STATE), "DOCA_ERROR_BAD_STATE");
	assert_string_equal(doca_error_get_name((doca_error_t)999), "DOCA_ERROR_UNKNOWN_CODE");
	assert_string_equal(doca_error_get_descr(DOCA_ERROR_NOT_FOUND), "Resource not found");
	assert_int_equal(doca_error_from_errno(-EBUSY), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_error_from_errno(-ETIMEDOUT), DOCA_ERROR_TIME_OUT);
	assert_int_equal(doca_error_from_errno(0), DOCA_SUCCESS);
	assert_int_equal(doca_log_level_set_global_lower_limit(45), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG), DOCA_SUCCESS);
	assert_int_equal(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_DEBUG);
	assert_int_equal(doca_log_backend_create_with_file(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_backend_set_sdk_level(NULL, DOCA_LOG_LEVEL_INFO),
			DOCA_ERROR_INVALID_VALUE);
	{
		struct doca_log_backend *b;

		assert_int_equal(doca_log_backend_create_with_file_sdk(stderr, &b), DOCA_SUCCESS);
		/* an SDK backend takes SDK levels only */
		assert_int_equal(doca_log_backend_set_level_lower_limit(b, DOCA_LOG_LEVEL_INFO),
				DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_log_backend_set_sdk_level(b, 33), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_log_backend_set_sdk_level(b, DOCA_LOG_LEVEL_ERROR),
				DOCA_SUCCESS);
	}
}

/* ---- The DOCA host API on a ring pair ----------------------------------------- */

DOCA_PCC_APP_DEFINE(missing_app, "/nonexistent/app.so");

static void
child_host_api(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev, *dev1;
	struct doca_pcc *rp, *np;
	struct doca_pcc_resources *res;
	struct doca_telemetry_pcc *t;
	char buf[64], small[4];
	uint32_t n, v, eus[4], resp, cb;
	uint8_t eq;
	doca_pcc_process_state_t st;
	void *p;
	static const char yaml[] = "applications:\n  pcc_app:\n    count: 1\n    lcores: [0]\n";

	/* NULL everywhere: INVALID_VALUE, never a crash */
	CHILD_CHECK(doca_devinfo_create_list(NULL, &n) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_devinfo_destroy_list(NULL) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_dev_open(NULL, &dev) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_dev_close(NULL) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_dev_as_devinfo(NULL) == NULL);
	CHILD_CHECK(doca_pcc_create(NULL, &rp) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_destroy(NULL) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_start(NULL) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_get_process_state(NULL, &st) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_telemetry_pcc_create(NULL, &t) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_telemetry_pcc_cap_is_supported(NULL) == DOCA_ERROR_INVALID_VALUE);

	/* the devices: PCC_DEVICES names first, then the ring pair's ports */
	CHILD_CHECK(doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS);
	CHILD_CHECK(n == 4);
	CHILD_CHECK(doca_devinfo_get_ibdev_name(list[0], buf, sizeof(buf)) == DOCA_SUCCESS);
	CHILD_CHECK(strcmp(buf, "mlx5_0") == 0);
	CHILD_CHECK(doca_devinfo_get_ibdev_name(list[0], small, sizeof(small)) ==
			DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_devinfo_get_pci_addr_str(list[0], buf) == DOCA_ERROR_NOT_FOUND);
	CHILD_CHECK(doca_devinfo_get_pci_addr_str(list[1], buf) == DOCA_SUCCESS);
	CHILD_CHECK(strcmp(buf, "0000:03:00.0") == 0);
	CHILD_CHECK(doca_devinfo_is_equal_pci_addr(list[1], "03:00.0", &eq) == DOCA_SUCCESS &&
			eq == 1);
	CHILD_CHECK(doca_devinfo_is_equal_pci_addr(list[0], "03:00.0", &eq) == DOCA_SUCCESS &&
			eq == 0);
	CHILD_CHECK(doca_devinfo_is_equal_pci_addr(list[1], "zz", &eq) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_devinfo_get_iface_name(list[0], buf, sizeof(buf)) == DOCA_SUCCESS);
	CHILD_CHECK(strstr(buf, "net_ring") != NULL);
	CHILD_CHECK(doca_devinfo_get_is_pcc_supported(list[0]) == DOCA_SUCCESS);
	CHILD_CHECK(doca_dev_open(list[0], &dev) == DOCA_SUCCESS);
	CHILD_CHECK(doca_dev_open(list[1], &dev1) == DOCA_SUCCESS);
	CHILD_CHECK(doca_devinfo_destroy_list(list) == DOCA_SUCCESS);

	/* contexts */
	CHILD_CHECK(doca_pcc_create(dev, &rp) == DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_create(dev, &np) == DOCA_ERROR_NOT_SUPPORTED); /* one per role */
	CHILD_CHECK(doca_dev_close(dev) == DOCA_ERROR_IN_USE);
	CHILD_CHECK(doca_pcc_np_create(dev1, &np) == DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_get_min_num_threads(rp, NULL) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_get_max_num_threads(rp, &v) == DOCA_SUCCESS && v == 1);
	CHILD_CHECK(doca_pcc_set_app(rp, NULL) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_set_app(rp, missing_app) != DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_set_thread_affinity(rp, 0, eus) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_set_thread_affinity(rp, 2, eus) == DOCA_ERROR_INVALID_VALUE);
	eus[0] = 176; /* a DPA execution unit: folded onto the lcores */
	CHILD_CHECK(doca_pcc_set_thread_affinity(rp, 1, eus) == DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_set_ccmad_probe_packet_format(rp, 8) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_set_ifa2_probe_packet_format(rp, 1) == DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_rp_set_ifa2_gns(rp, 1, 16) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_rp_set_ifa2_gns(rp, 1, 5) == DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_rp_set_ifa2_hop_limit(rp, 1, 0) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_rp_set_ifa2_gns(np, 1, 5) == DOCA_ERROR_NOT_SUPPORTED);
	CHILD_CHECK(doca_pcc_np_set_ifa2_gns_ignore(rp, 0, 0xf, 1) == DOCA_ERROR_NOT_SUPPORTED);
	CHILD_CHECK(doca_pcc_np_set_ifa2_gns_ignore(np, 0, 0xf, 1) == DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_rp_set_ccmad_custom_header_size(rp, 0, 65) ==
			DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_rp_set_ccmad_custom_header_size(rp, 0, 8) == DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_rp_set_ccmad_custom_header_location(
				    rp, 0, (doca_pcc_ccmad_custom_header_loc_t)7) ==
			DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_rp_set_ccmad_probe_priority_change_en(rp, 0, false) ==
			DOCA_ERROR_NOT_SUPPORTED);
	CHILD_CHECK(doca_pcc_np_set_resp_ts_size(np, 33) != DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_np_set_resp_ts_size(np, 16) == DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_np_set_ts_source(np, (doca_pcc_np_ts_source_t)9) ==
			DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_np_set_resp_ts_size(rp, 16) == DOCA_ERROR_NOT_SUPPORTED);
	CHILD_CHECK(doca_pcc_set_print_buffer_size(rp, 0) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_trace_buf_get(rp, (char **)&p) == DOCA_ERROR_BAD_CONFIG);
	CHILD_CHECK(doca_pcc_trace_file_get(rp, (FILE **)&p) == DOCA_ERROR_BAD_CONFIG);
	CHILD_CHECK(doca_pcc_mailbox_get_request_buffer(rp, &p) == DOCA_ERROR_BAD_STATE);
	CHILD_CHECK(doca_pcc_set_mailbox(rp, 0, 64) != DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_set_mailbox(rp, 64, 64) == DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_mailbox_get_request_buffer(rp, &p) == DOCA_SUCCESS && p != NULL);
	/* not running: the call's refusal, no wait */
	CHILD_CHECK(doca_pcc_mailbox_send(rp, 65, &resp, &cb) == DOCA_ERROR_TOO_BIG);
	CHILD_CHECK(doca_pcc_mailbox_send(rp, 4, &resp, &cb) == DOCA_ERROR_AGAIN);
	CHILD_CHECK(doca_pcc_wait(rp, 0) == DOCA_ERROR_BAD_STATE);
	CHILD_CHECK(doca_pcc_stop(rp) == DOCA_ERROR_BAD_STATE);

	/* resources */
	CHILD_CHECK(doca_pcc_resources_create("pcc_app", "{{", 2, &res) ==
			DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_resources_create("other", yaml, sizeof(yaml) - 1, &res) ==
			DOCA_ERROR_NOT_FOUND);
	CHILD_CHECK(doca_pcc_resources_create("pcc_app", yaml, sizeof(yaml) - 1, &res) ==
			DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_resources_get_num_eus(res, &n) == DOCA_SUCCESS && n == 1);
	CHILD_CHECK(doca_pcc_resources_get_eus(res, 2, eus) == DOCA_ERROR_INVALID_VALUE);
	CHILD_CHECK(doca_pcc_resources_get_eus(res, 1, eus) == DOCA_SUCCESS && eus[0] == 0);
	CHILD_CHECK(doca_pcc_resources_destroy(res) == DOCA_SUCCESS);

	/* telemetry of this process before its engine exists */
	CHILD_CHECK(doca_telemetry_pcc_cap_is_supported(doca_dev_as_devinfo(dev)) ==
			DOCA_ERROR_NOT_SUPPORTED);
	CHILD_CHECK(doca_telemetry_pcc_create(dev, &t) == DOCA_ERROR_NOT_SUPPORTED);

	CHILD_CHECK(doca_pcc_destroy(np) == DOCA_SUCCESS);
	CHILD_CHECK(doca_pcc_destroy(rp) == DOCA_SUCCESS);
	CHILD_CHECK(doca_dev_close(dev) == DOCA_SUCCESS);
	CHILD_CHECK(doca_dev_close(dev1) == DOCA_SUCCESS);
}

static void
test_host_api(void **state)
{
	const char *env[] = { eal_env, "PCC_RING_PAIR=1",
		"PCC_DEVICES=mlx5_0=port:0,0000:03:00.0=port:1", NULL };

	(void)state;
	assert_int_equal(in_child(child_host_api, env), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_error_log),
		cmocka_unit_test(test_host_api),
	};

	snprintf(eal_env, sizeof(eal_env), "PCC_EAL_ARGS=%s --file-prefix compat-doca-%d", EAL,
			(int)getpid());
	return cmocka_run_group_tests(tests, NULL, NULL);
}
