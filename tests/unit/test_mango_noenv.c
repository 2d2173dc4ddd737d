/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * libmango when the compatibility environment cannot start (here:
 * PCC_SIM and PCC_RING_PAIR together): mango_pcc_create() refuses with
 * MANGO_STATUS_ERROR and the environment's reason, every time, and no
 * other call crashes without a handle.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include "libmango.h"
#include "test_log_capture.h"

static void
test_no_env(void **state)
{
	mango_pcc_h h = (mango_pcc_h)1;
	unsigned int i, with;
	uint32_t n;

	(void)state;
	for (i = 0; i < 2; i++) {
		log_capture();
		assert_int_equal(mango_pcc_create("roce0", &h), MANGO_STATUS_ERROR);
		assert_null(h);
		log_release("mango_pcc_create: the environment did not start: libmango: "
			    "PCC_SIM and PCC_RING_PAIR exclude each other",
				&with);
		assert_int_equal(with, 1);
	}
	assert_int_equal(mango_pcc_ctrl_run(h, 1), MANGO_STATUS_INVALID_HANDLE);
	assert_int_equal(mango_pcc_active_qp_list(h, &n, &n), MANGO_STATUS_INVALID_HANDLE);
	assert_int_equal(mango_pcc_destroy(h), MANGO_STATUS_INVALID_HANDLE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_env),
	};

	setenv("PCC_SIM", "/nonexistent.yaml", 1);
	setenv("PCC_RING_PAIR", "1", 1);
	setenv("PCC_EAL_ARGS", "--no-huge -m 64 --no-pci --no-shconf", 1);
	unsetenv("PCC_COMPAT_CONF");
	unsetenv("PCC_ENGINE_OPTS");
	unsetenv("PCC_PLUGINS");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
