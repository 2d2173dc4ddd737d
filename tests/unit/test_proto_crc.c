/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The two ICRC implementations agree: zlib (before pcc_proto_crc_init(),
 * the only one without EAL) and rte_net_crc over a masked copy (after it).
 * Needs the EAL, for the vector-width setting rte_net_crc checks.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_common.h>

#include "pcc_proto.h"
#include "test_eal.h"

#define N_FRAMES 64

static uint32_t
le32_at(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
			((uint32_t)p[3] << 24);
}

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

/* Bit b of byte i of the IP+UDP+BTH block (IP header hl bytes) is masked
 * by the ICRC (IBA A17.8.1; as test_proto.c). */
static bool
icrc_masked(bool v6, uint32_t hl, uint32_t i, unsigned int b)
{
	if (i == hl + 6 || i == hl + 7 || i == hl + 8 + 4)
		return true;
	if (v6)
		return (i == 0 && b < 4) || (i >= 1 && i <= 3) || i == 7;
	return i == 1 || i == 8 || i == 10 || i == 11;
}

/*
 * The fast path's own header masking (16-byte registers for IPv4 without
 * options, 64-bit words for IPv6, bytes for IPv4 with options): a change
 * of any masked header bit keeps the ICRC valid, of any other breaks it;
 * the datagram cut short, in a buffer of exactly its length, is truncated
 * below the headers and never read past its end.
 */
static void
test_fast_masked_fields(void **state)
{
	static const uint32_t opt_lens[] = { 0, 4, 40 };
	struct pcc_l3_spec l3 = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
		.src_mac = { 2, 0, 0, 0, 0, 1 },
		.src.v4 = 0x0a000001,
		.dst.v4 = 0x0a000002 };
	struct pcc_roce_spec r = {
		.bth = { .opcode = PCC_OP_RC_SEND_ONLY, .pkey = 0xffff, .dqpn = 0x123, .psn = 77 }
	};
	static const uint8_t payload[45] = { 1, 2, 3, 4, 5 };
	struct pcc_pkt_info info;
	uint8_t f[256], *ip, *buf, *d;
	uint32_t c, o, hl, i, b, l3o, len, full;
	int n, ret, err;

	(void)state;
	if (pcc_proto_crc_init() == 0)
		skip();
	r.payload = payload;
	r.payload_len = sizeof(payload);
	for (c = 0; c < 2 * RTE_DIM(opt_lens); c++) {
		o = opt_lens[c % RTE_DIM(opt_lens)];
		l3.ipv6 = c >= RTE_DIM(opt_lens);
		if (l3.ipv6 && o != 0)
			continue;
		l3.vlan = (c & 1) != 0;
		n = pcc_roce_build(f, sizeof(f), &l3, &r);
		assert_true(n > 0);
		l3o = l3.vlan ? 18 : 14;
		ip = f + l3o;
		if (o != 0) {
			/* NOP options, IHL and total length to match */
			memmove(ip + 20 + o, ip + 20, (size_t)n - l3o - 20);
			memset(ip + 20, 0x01, o);
			ip[0] = (uint8_t)(0x45 + o / 4);
			ip[3] = (uint8_t)(ip[3] + o); /* total length < 256 */
			n += (int)o;
			assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &info), 0);
			assert_int_equal(pcc_icrc_update(f, &info), 0);
		}
		assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &info), 0);
		hl = info.l4_off - info.l3_off;
		assert_int_equal(hl, l3.ipv6 ? 40 : 20 + o);
		assert_int_equal(pcc_icrc_verify(f, &info), 0);
		for (i = 0; i < hl + 8 + 12; i++) {
			for (b = 0; b < 8; b++) {
				ip[i] ^= (uint8_t)(1u << b);
				ret = pcc_icrc_verify(f, &info);
				ip[i] ^= (uint8_t)(1u << b);
				if (icrc_masked(l3.ipv6, hl, i, b) ? ret != 0 : ret == 0)
					fail_msg("v6 %d hl %u byte %u bit %u: %d", l3.ipv6, hl, i,
							b, ret);
			}
		}
		full = (uint32_t)n - l3o - PCC_ICRC_LEN;
		for (len = 0; len <= full; len++) {
			buf = malloc(len != 0 ? len : 1);
			assert_non_null(buf);
			/* empty: one past the end, so that any read is outside */
			d = len != 0 ? buf : buf + 1;
			memcpy(d, ip, len);
			err = 1;
			pcc_icrc_calc(d, len, &err);
			assert_int_equal(err, len < hl + 8 + 12 ? PCC_PROTO_ERR_TRUNCATED : 0);
			if (len == full)
				assert_int_equal(pcc_icrc_calc(d, len, NULL), le32_at(f + n - 4));
			free(buf);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_matches_zlib),
		cmocka_unit_test(test_fast_detects_corruption),
		cmocka_unit_test(test_fast_errors),
		cmocka_unit_test(test_fast_masked_fields),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
