/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of pcc_dev_fxp.h: products, fls, reciprocal, log2, pow2 and
 * the rate helpers, at the edges (0, 1, max, powers of two, overflow) and
 * against libm over a sweep.
 */

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pcc_dev_fxp.h"

#define ONE PCC_DEV_FXP16_ONE

static void
test_mult(void **state)
{
	(void)state;
	assert_true(pcc_dev_mult(0, UINT32_MAX) == 0);
	assert_true(pcc_dev_mult(UINT32_MAX, UINT32_MAX) == 0xfffffffe00000001ull);
	assert_true(pcc_dev_mult(1u << 31, 2) == 1ull << 32);

	assert_int_equal(pcc_dev_fxp_mult(0, ONE), 0);
	assert_int_equal(pcc_dev_fxp_mult(ONE, ONE), ONE);
	assert_int_equal(pcc_dev_fxp_mult(PCC_DEV_MAX_RATE, ONE / 2), PCC_DEV_MAX_RATE / 2);
	assert_int_equal(pcc_dev_fxp_mult(3, ONE / 2), 1); /* truncates */
	assert_int_equal(pcc_dev_fxp_mult(1, ONE - 1), 0);
	assert_int_equal(pcc_dev_fxp_mult(UINT32_MAX, ONE), UINT32_MAX);
	assert_int_equal(PCC_DEV_FXP16(0.5), ONE / 2);
	assert_int_equal(PCC_DEV_FXP16(0.1), 6554);
	/* overflow: a * b >= 2^48 wraps (DOCA), _sat clamps */
	assert_int_equal(pcc_dev_fxp_mult(UINT32_MAX, 2 * ONE), UINT32_MAX - 1);
	assert_int_equal(pcc_dev_fxp_mult(1u << 31, 1u << 17), 0);
	assert_int_equal(pcc_dev_fxp_mult_sat(1u << 31, 1u << 17), UINT32_MAX);
	assert_int_equal(pcc_dev_fxp_mult_sat(UINT32_MAX, ONE), UINT32_MAX);
	assert_int_equal(pcc_dev_fxp_mult_sat(ONE, ONE), ONE);
}

static void
test_fls(void **state)
{
	uint32_t i;

	(void)state;
	assert_int_equal(pcc_dev_fls(0), 0);
	assert_int_equal(pcc_dev_fls(1), 1);
	assert_int_equal(pcc_dev_fls(2), 2);
	assert_int_equal(pcc_dev_fls(3), 2);
	assert_int_equal(pcc_dev_fls(UINT32_MAX), 32);
	for (i = 0; i < 32; i++) {
		assert_int_equal(pcc_dev_fls(1u << i), i + 1);
		if (i > 0)
			assert_int_equal(pcc_dev_fls((1u << i) - 1), i);
	}
}

static void
test_recip(void **state)
{
	uint32_t x;

	(void)state;
	assert_int_equal(pcc_dev_fxp_recip(0), UINT32_MAX);
	assert_int_equal(pcc_dev_fxp_recip(1), UINT32_MAX);
	assert_int_equal(pcc_dev_fxp_recip(2), 1u << 31);
	assert_int_equal(pcc_dev_fxp_recip(3), 1431655765);
	assert_int_equal(pcc_dev_fxp_recip(ONE), ONE);
	assert_int_equal(pcc_dev_fxp_recip(2 * ONE), ONE / 2);
	assert_int_equal(pcc_dev_fxp_recip(ONE / 2), 2 * ONE);
	assert_int_equal(pcc_dev_fxp_recip(UINT32_MAX), 1);
	assert_int_equal(pcc_dev_fxp_recip(1u << 31), 2);
	for (x = 2; x < 100000; x += 997)
		assert_int_equal(pcc_dev_fxp_recip(x), (uint32_t)((1ull << 32) / x));
}

static void
test_log2(void **state)
{
	uint64_t x;
	int i;

	(void)state;
	assert_int_equal(pcc_dev_fxp_log2(0), INT32_MIN);
	assert_int_equal(pcc_dev_fxp_log2(1), -16 * (int32_t)ONE);
	assert_int_equal(pcc_dev_fxp_log2(ONE), 0);
	assert_int_equal(pcc_dev_fxp_log2(2 * ONE), (int32_t)ONE);
	assert_int_equal(pcc_dev_fxp_log2(ONE / 2), -(int32_t)ONE);
	/* powers of two are exact */
	for (i = 0; i < 32; i++)
		assert_int_equal(pcc_dev_fxp_log2(1u << i), (i - 16) * (int32_t)ONE);
	/* sqrt(2): log2 = 0.5 -> just below 32768 (input is rounded down) */
	assert_int_equal(pcc_dev_fxp_log2(92681), 32767);
	assert_int_equal(pcc_dev_fxp_log2(UINT32_MAX), 16 * (int32_t)ONE - 1);
	/* floor(log2(x / 65536) * 65536), against libm */
	for (x = 1; x <= UINT32_MAX; x = x * 5 / 4 + 1) {
		double ref = floor(log2((double)x / 65536.0) * 65536.0);
		int32_t got = pcc_dev_fxp_log2((uint32_t)x);

		assert_true(fabs((double)got - ref) <= 1.0);
	}
}

static void
test_pow2(void **state)
{
	int32_t a;
	int i;

	(void)state;
	assert_int_equal(pcc_dev_fxp_pow2(0), ONE);
	assert_int_equal(pcc_dev_fxp_pow2((int32_t)ONE), 2 * ONE);
	assert_int_equal(pcc_dev_fxp_pow2(-(int32_t)ONE), ONE / 2);
	assert_int_equal(pcc_dev_fxp_pow2(ONE / 2), 92682); /* sqrt(2) rounded */
	assert_int_equal(pcc_dev_fxp_pow2(15 * (int32_t)ONE), 1u << 31);
	assert_int_equal(pcc_dev_fxp_pow2(-16 * (int32_t)ONE), 1);
	/* saturation at 16.0 and beyond */
	assert_int_equal(pcc_dev_fxp_pow2(16 * (int32_t)ONE), UINT32_MAX);
	assert_int_equal(pcc_dev_fxp_pow2(INT32_MAX), UINT32_MAX);
	assert_int_equal(pcc_dev_fxp_pow2(16 * (int32_t)ONE - 1), 4294921870u);
	/* below half an LSB: 0; 2^-17 is exactly half: rounds up to 1 */
	assert_int_equal(pcc_dev_fxp_pow2(-17 * (int32_t)ONE), 1);
	assert_int_equal(pcc_dev_fxp_pow2(-17 * (int32_t)ONE - 1), 0);
	assert_int_equal(pcc_dev_fxp_pow2(-18 * (int32_t)ONE), 0);
	assert_int_equal(pcc_dev_fxp_pow2(INT32_MIN), 0);
	for (i = -16; i < 16; i++)
		assert_int_equal(pcc_dev_fxp_pow2(i * (int32_t)ONE), (uint32_t)(1ull << (i + 16)));
	/* rounded to nearest, against libm */
	for (a = -17 * (int32_t)ONE; a < 16 * (int32_t)ONE; a += 4099) {
		double ref = floor(exp2((double)a / 65536.0) * 65536.0 + 0.5);
		uint32_t got = pcc_dev_fxp_pow2(a);

		assert_true(fabs((double)got - ref) <= 1.0);
	}
	/* log2 then pow2 returns close to the input */
	assert_true(abs((int)pcc_dev_fxp_pow2(pcc_dev_fxp_log2(3 * ONE)) - (int)(3 * ONE)) <= 3);
}

static void
test_rate(void **state)
{
	(void)state;
	assert_int_equal(pcc_dev_rate_to_mbps(PCC_DEV_MAX_RATE, 100), 100000);
	assert_int_equal(pcc_dev_rate_to_mbps(PCC_DEV_MAX_RATE / 2, 100), 50000);
	assert_int_equal(pcc_dev_rate_to_mbps(0, 100), 0);
	assert_int_equal(pcc_dev_rate_to_mbps(1, 400), 0); /* 0.38 Mb/s rounds down */
	assert_int_equal(pcc_dev_rate_to_mbps(PCC_DEV_DEFAULT_RATE, 100), 390);
	assert_int_equal(pcc_dev_rate_to_mbps(UINT32_MAX, UINT32_MAX), UINT32_MAX);

	assert_int_equal(pcc_dev_mbps_to_rate(100000, 100), PCC_DEV_MAX_RATE);
	assert_int_equal(pcc_dev_mbps_to_rate(50000, 100), PCC_DEV_MAX_RATE / 2);
	assert_int_equal(pcc_dev_mbps_to_rate(200000, 100), PCC_DEV_MAX_RATE); /* clamped */
	assert_int_equal(pcc_dev_mbps_to_rate(UINT32_MAX, 1), PCC_DEV_MAX_RATE);
	assert_int_equal(pcc_dev_mbps_to_rate(1, 400), 2);
	assert_int_equal(pcc_dev_mbps_to_rate(1, UINT32_MAX), 1); /* floor 0 -> 1 */
	assert_int_equal(pcc_dev_mbps_to_rate(0, 100), 0);
	assert_int_equal(pcc_dev_mbps_to_rate(100, 0), 0);
	/* round trip within one rate unit */
	assert_true(pcc_dev_rate_to_mbps(pcc_dev_mbps_to_rate(12345, 100), 100) <= 12345);
	assert_true(pcc_dev_rate_to_mbps(pcc_dev_mbps_to_rate(12345, 100) + 1, 100) >= 12345);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mult),
		cmocka_unit_test(test_fls),
		cmocka_unit_test(test_recip),
		cmocka_unit_test(test_log2),
		cmocka_unit_test(test_pow2),
		cmocka_unit_test(test_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
