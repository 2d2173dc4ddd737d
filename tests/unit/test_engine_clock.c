/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the per-port clock (lib/engine/clock.c): the selection
 * order (hardware RX timestamp, rte_eth_read_clock, registered function,
 * TSC), the calibration of a device clock against the TSC, conversions to
 * ns, receive times from the timestamp dynfield, and the registration API.
 * Fake clocks only: no EAL, no sleep.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine_internal.h"

#define TSC_HZ 2000000000ull /* fake TSC: 2 GHz */
#define DEV_MHZ 250ull       /* fake device clock: 250 MHz */

static uint64_t fake_tsc;
static uint64_t fake_dev;
static bool dev_ok;
static bool dev_frozen;
static unsigned int reads;

static uint64_t
tsc(void)
{
	return fake_tsc;
}

static int
read_clock(uint16_t port_id, uint64_t *t)
{
	(void)port_id;
	reads++;
	if (!dev_ok)
		return -ENOTSUP;
	*t = fake_dev;
	return 0;
}

/* Both fake clocks advance: no real waiting. */
static void
delay(unsigned int us)
{
	fake_tsc += (uint64_t)us * (TSC_HZ / 1000000);
	if (!dev_frozen)
		fake_dev += (uint64_t)us * DEV_MHZ;
}

static uint64_t registered_ns;

static uint64_t
reg_clock(void *arg)
{
	return registered_ns + (uint64_t)(uintptr_t)arg;
}

static const struct eng_clock_ops fake_ops = {
	.read_clock = read_clock,
	.tsc = tsc,
	.tsc_hz = TSC_HZ,
	.delay_us = delay,
};

static void
reset(bool ok, bool frozen)
{
	fake_tsc = 1000000;
	fake_dev = 123456789;
	dev_ok = ok;
	dev_frozen = frozen;
	reads = 0;
}

static void
test_order(void **state)
{
	struct eng_clock c;

	(void)state;
	/* 1. hardware RX timestamp, calibrated with read_clock */
	reset(true, false);
	eng_clock_setup(&c, 3, true, 96, 1ull << 40, reg_clock, NULL, &fake_ops);
	assert_int_equal(c.src, PCC_ENGINE_CLOCK_HW_RX_TS);
	assert_true(c.calibrated);
	assert_int_equal(c.ts_off, 96);
	/* ... but not without a dynfield */
	reset(true, false);
	eng_clock_setup(&c, 3, true, -1, 0, NULL, NULL, &fake_ops);
	assert_int_equal(c.src, PCC_ENGINE_CLOCK_READ_CLOCK);
	/* 2. read_clock that works and advances, before a registered one */
	reset(true, false);
	eng_clock_setup(&c, 3, false, -1, 0, reg_clock, NULL, &fake_ops);
	assert_int_equal(c.src, PCC_ENGINE_CLOCK_READ_CLOCK);
	assert_int_equal(c.dev_hz, DEV_MHZ * 1000000);
	/* 3. registered, when read_clock fails or does not advance */
	reset(false, false);
	eng_clock_setup(&c, 3, false, -1, 0, reg_clock, (void *)(uintptr_t)7, &fake_ops);
	assert_int_equal(c.src, PCC_ENGINE_CLOCK_REGISTERED);
	registered_ns = 5000;
	assert_int_equal(eng_clock_now(&c), 5007);
	reset(true, true);
	eng_clock_setup(&c, 3, false, -1, 0, reg_clock, NULL, &fake_ops);
	assert_int_equal(c.src, PCC_ENGINE_CLOCK_REGISTERED);
	/* 4. TSC */
	reset(false, false);
	eng_clock_setup(&c, 3, false, -1, 0, NULL, NULL, &fake_ops);
	assert_int_equal(c.src, PCC_ENGINE_CLOCK_TSC);
	assert_false(c.calibrated);
	/* a HW timestamp port without read_clock keeps the timestamps as ns */
	reset(false, false);
	eng_clock_setup(&c, 3, true, 96, 1, NULL, NULL, &fake_ops);
	assert_int_equal(c.src, PCC_ENGINE_CLOCK_HW_RX_TS);
	assert_false(c.calibrated);
	assert_string_equal(
			pcc_engine_clock_src_name(PCC_ENGINE_CLOCK_HW_RX_TS), "hw-rx-timestamp");
	assert_string_equal(pcc_engine_clock_src_name(PCC_ENGINE_CLOCK_TSC), "tsc");
}

static void
test_conversion(void **state)
{
	struct eng_clock c;
	uint64_t t0, t1;

	(void)state;
	/* TSC: 2 GHz, so 2e9 cycles are 1 s */
	reset(false, false);
	eng_clock_setup(&c, 0, false, -1, 0, NULL, NULL, &fake_ops);
	fake_tsc = 0;
	assert_int_equal(eng_clock_now(&c), 0);
	fake_tsc = TSC_HZ;
	t0 = eng_clock_now(&c);
	assert_true(t0 >= NS_PER_S - 1 && t0 <= NS_PER_S);
	/* large TSC values do not overflow */
	fake_tsc = UINT64_C(1) << 62;
	t1 = eng_clock_now(&c);
	assert_true(t1 > (UINT64_C(1) << 62) / 2 - 10 && t1 < (UINT64_C(1) << 62) / 2 + 10);

	/* device clock: anchored at the TSC time of calibration */
	reset(true, false);
	eng_clock_setup(&c, 0, false, -1, 0, NULL, NULL, &fake_ops);
	t0 = eng_clock_now(&c);
	assert_true(t0 + 1 >= eng_clock_tsc_ns(&c, fake_tsc) &&
			t0 <= eng_clock_tsc_ns(&c, fake_tsc) + 1);
	fake_dev += DEV_MHZ * 1000000; /* one second of device ticks */
	t1 = eng_clock_now(&c);
	assert_true(t1 - t0 >= NS_PER_S - 2 && t1 - t0 <= NS_PER_S + 2);
	/* ticks before the anchor convert backwards */
	assert_int_equal(eng_clock_conv(100, 1100, 5000, UINT64_C(4) << 32), 1000);
	assert_int_equal(eng_clock_conv(1100, 100, 5000, UINT64_C(4) << 32), 9000);
	/* a failing read_clock falls back to the TSC for "now" */
	dev_ok = false;
	t1 = eng_clock_now(&c);
	assert_int_equal(t1, eng_clock_tsc_ns(&c, fake_tsc));
}

static void
test_rx_timestamp(void **state)
{
	union {
		struct rte_mbuf m;
		uint8_t raw[sizeof(struct rte_mbuf)];
	} u;
	const int off = (int)RTE_ALIGN_CEIL(offsetof(struct rte_mbuf, dynfield1), 8);
	struct eng_clock c;
	uint64_t ts;

	(void)state;
	memset(&u, 0, sizeof(u));
	reset(true, false);
	eng_clock_setup(&c, 0, true, off, 1ull << 45, NULL, NULL, &fake_ops);
	/* no timestamp flag: the round's time */
	assert_int_equal(eng_clock_rx(&c, &u.m, 777), 777);
	/* with it: the device time in ns */
	ts = c.dev_tick0 + DEV_MHZ * 1000; /* 1 ms after the anchor */
	memcpy(u.raw + off, &ts, sizeof(ts));
	u.m.ol_flags = 1ull << 45;
	assert_true(eng_clock_rx(&c, &u.m, 777) >= c.dev_ns0 + 999999 &&
			eng_clock_rx(&c, &u.m, 777) <= c.dev_ns0 + 1000001);
	/* uncalibrated: taken as ns */
	reset(false, false);
	eng_clock_setup(&c, 0, true, off, 1ull << 45, NULL, NULL, &fake_ops);
	ts = 424242;
	memcpy(u.raw + off, &ts, sizeof(ts));
	assert_int_equal(eng_clock_rx(&c, &u.m, 777), 424242);
	/* not a HW timestamp clock: the round's time */
	eng_clock_setup(&c, 0, false, -1, 0, NULL, NULL, &fake_ops);
	assert_int_equal(eng_clock_rx(&c, &u.m, 777), 777);
}

static void
test_register(void **state)
{
	void *arg = NULL;

	(void)state;
	assert_int_equal(
			pcc_engine_port_clock_register(RTE_MAX_ETHPORTS, reg_clock, NULL), -EINVAL);
	assert_null(eng_clock_registered(5, &arg));
	assert_int_equal(pcc_engine_port_clock_register(5, reg_clock, (void *)(uintptr_t)3), 0);
	assert_ptr_equal(eng_clock_registered(5, &arg), reg_clock);
	assert_ptr_equal(arg, (void *)(uintptr_t)3);
	assert_int_equal(pcc_engine_port_clock_register(5, NULL, NULL), 0);
	assert_null(eng_clock_registered(5, &arg));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_conversion),
		cmocka_unit_test(test_rx_timestamp),
		cmocka_unit_test(test_register),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
