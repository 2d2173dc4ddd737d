/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The two ICRC implementations agree: zlib (before pcc_proto_crc_init(),
 * the only one without EAL) and rte_net_crc over a masked copy (after it).
 * Needs the EAL, for the vector-width setting rte_net_crc checks.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pcc_proto.h"
#include "test_eal.h"

#define N_FRAMES 64

static uint8_t frames[N_FRAMES][2200];
static int frame_len[N_FRAMES];
static uint32_t crc_zlib[N_FRAMES];

/* RoCEv2 frames of many sizes and both IP versions, built by lib/proto. */
static int
setup(void **state)
{
	struct pcc_l3_spec l3 = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
		.src_mac = { 2, 0, 0, 0, 0, 1 } };
	struct pcc_roce_spec r = { .bth = { .opcode = PCC_OP_RC_SEND_ONLY, .pkey = 0xffff } };
	static uint8_t payload[2048];
	struct pcc_pkt_info info;
	int i;

	(void)state;
	if (test_eal_init("test_proto_crc", "128", "-l", "0", NULL) < 0)
		return -1;
	for (i = 0; i < (int)sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 131 + 7);
	for (i = 0; i < N_FRAMES; i++) {
		l3.ipv6 = (i & 1) != 0;
		l3.src.v4 = 0x0a000001 + i;
		l3.dst.v4 = 0x0a000100 + i;
		l3.src.v6[15] = (uint8_t)i;
		l3.dst.v6[0] = 0xfd;
		r.bth.dqpn = 0x100 + i;
		r.bth.psn = (uint32_t)i * 977;
		r.payload = payload;
		/* 0 .. ~2000 bytes: both sides of the copy limit */
		r.payload_len = (uint32_t)(i * 31 + (i & 3));
		frame_len[i] = pcc_roce_build(frames[i], sizeof(frames[i]), &l3, &r);
		if (frame_len[i] < 0)
			return -1;
		if (pcc_parse(frames[i], (uint32_t)frame_len[i], NULL, &info) < 0)
			return -1;
		crc_zlib[i] = pcc_icrc_calc(frames[i] + info.l3_off,
				(uint32_t)frame_len[i] - info.l3_off - PCC_ICRC_LEN, NULL);
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	test_eal_cleanup();
	return 0;
}

static void
test_fast_matches_zlib(void **state)
{
	struct pcc_pkt_info info;
	int i, err;

	(void)state;
	if (pcc_proto_crc_init() == 0)
		skip();
	for (i = 0; i < N_FRAMES; i++) {
		uint32_t c;

		assert_int_equal(pcc_parse(frames[i], (uint32_t)frame_len[i], NULL, &info), 0);
		c = pcc_icrc_calc(frames[i] + info.l3_off,
				(uint32_t)frame_len[i] - info.l3_off - PCC_ICRC_LEN, &err);
		assert_int_equal(err, 0);
		assert_int_equal(c, crc_zlib[i]);
		assert_int_equal(pcc_icrc_verify(frames[i], &info), 0);
	}
}

static void
test_fast_detects_corruption(void **state)
{
	struct pcc_pkt_info info;
	int i;

	(void)state;
	if (pcc_proto_crc_init() == 0)
		skip();
	for (i = 0; i < N_FRAMES; i++) {
		assert_int_equal(pcc_parse(frames[i], (uint32_t)frame_len[i], NULL, &info), 0);
		frames[i][frame_len[i] - PCC_ICRC_LEN - 1] ^= 0x10;
		assert_int_equal(pcc_icrc_verify(frames[i], &info), PCC_PROTO_ERR_BAD_ICRC);
		frames[i][frame_len[i] - PCC_ICRC_LEN - 1] ^= 0x10;
	}
}

static void
test_fast_errors(void **state)
{
	static const uint8_t bad[64] = { 0x75 }; /* IP version 7 */
	int err = 0;

	(void)state;
	pcc_proto_crc_init();
	assert_int_equal(pcc_icrc_calc(bad, sizeof(bad), &err), 0);
	assert_int_equal(err, PCC_PROTO_ERR_BAD_VERSION);
	err = 0;
	assert_int_equal(pcc_icrc_calc(frames[0] + 14, 10, &err), 0);
	assert_true(err < 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_matches_zlib),
		cmocka_unit_test(test_fast_detects_corruption),
		cmocka_unit_test(test_fast_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
