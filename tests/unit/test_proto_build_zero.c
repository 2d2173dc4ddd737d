/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * pcc_roce_build() of a zero payload (roce->payload NULL), whose ICRC is
 * the headers' CRC combined over the zeros (proto_icrc_zero.c), against
 * the same frame built from an explicit buffer of zeros (the ICRC over
 * every byte): random headers (IPv4, IPv6, VLAN, opcodes with every
 * extension header) and payload lengths from 0 to 4 KB, more distinct
 * lengths than the per-thread cache holds, each frame byte for byte and
 * its ICRC verified by pcc_parse() (check_icrc); the products with
 * PCLMULQDQ and in software.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_common.h>

#include "pcc_proto.h"
#include "proto_internal.h"

#define TEST_RNG_SEED 0x853c49e6748fea9bull
#include "test_rng.h"

#define FRAMES 6000
#define PAYLOAD_MAX 4096
#define CAP (PAYLOAD_MAX + 256)

static void
zero_payload(void)
{
	static const uint8_t ops[] = { 0x00, 0x01, 0x04, 0x06, 0x0A, 0x0B, 0x0C, 0x11, 0x12, 0x13,
		0x24, 0x64, 0x65, 0x81 };
	static uint8_t zeros[PAYLOAD_MAX], a[CAP], b[CAP];
	struct pcc_parse_opts opts;
	unsigned int i, zero_path = 0, parsed = 0;

	pcc_parse_opts_default(&opts);
	opts.check_icrc = true;
	for (i = 0; i < FRAMES; i++) {
		struct pcc_l3_spec l3;
		struct pcc_roce_spec rs;
		struct pcc_pkt_info info;
		int la, lb;

		memset(&l3, 0, sizeof(l3));
		l3.vlan = rnd() % 3 == 0;
		l3.vlan_tci = (uint16_t)rnd();
		l3.ipv6 = rnd() % 3 == 0;
		l3.src.v4 = rnd();
		l3.dst.v4 = rnd();
		if (l3.ipv6) {
			memset(l3.src.v6, (int)rnd(), 16);
			memset(l3.dst.v6, (int)rnd(), 16);
		}
		l3.dscp = (uint8_t)(rnd() & 63);
		l3.ecn = (uint8_t)(rnd() & 3);
		l3.ttl = (uint8_t)rnd();
		l3.ip_id = (uint16_t)rnd();
		l3.flow_label = rnd() & 0xfffff;
		l3.udp_sport = (uint16_t)rnd();
		memset(&rs, 0, sizeof(rs));
		rs.bth.opcode = ops[rnd() % RTE_DIM(ops)];
		rs.bth.flags = (uint8_t)rnd();
		rs.bth.ackreq = rnd() & 1;
		rs.bth.pkey = (uint16_t)rnd();
		rs.bth.dqpn = rnd() & PCC_QPN_MASK;
		rs.bth.psn = rnd() & PCC_PSN_MASK;
		rs.aeth.syndrome = (uint8_t)(rnd() & 0x1f);
		rs.aeth.msn = rnd() & PCC_PSN_MASK;
		rs.reth.va = ((uint64_t)rnd() << 32) | rnd();
		rs.reth.rkey = rnd();
		rs.reth.dma_len = rnd();
		rs.deth.qkey = rnd();
		rs.deth.sqpn = rnd() & PCC_QPN_MASK;
		rs.immdt = rnd();
		/* mostly a few lengths, as a generator's; now and then any */
		rs.payload_len = rnd() % 4 != 0 ? 1024u + 64u * (rnd() % 3) : rnd() % PAYLOAD_MAX;
		/* stale bytes where the payload goes: the builder must zero them */
		memset(a, 0xa5, sizeof(a));
		memset(b, 0x5a, sizeof(b));
		la = pcc_roce_build(a, CAP, &l3, &rs);
		rs.payload = zeros;
		lb = pcc_roce_build(b, CAP, &l3, &rs);
		assert_true(la > 0);
		assert_int_equal(la, lb);
		assert_memory_equal(a, b, (size_t)la);
		/* where the parser takes the frame (not a CNP shorter than its
		 * padding, say), it finds the ICRC right */
		if (pcc_parse(a, (uint32_t)la, &opts, &info) != PCC_PROTO_ERR_BAD_ICRC)
			parsed++;
		else
			fail();
		zero_path += rs.payload_len >= 256;
	}
	print_message("%u frames, %u through the zero tail\n", FRAMES, zero_path);
	assert_int_equal(parsed, FRAMES);
	assert_true(zero_path > FRAMES / 2);
}

static void
test_zero_payload(void **state)
{
	(void)state;
	proto_icrc_patch_use_clmul(true);
	zero_payload();
}

/* The products in software (a CPU without PCLMULQDQ). */
static void
test_zero_payload_sw(void **state)
{
	(void)state;
	proto_icrc_patch_use_clmul(false);
	zero_payload();
	proto_icrc_patch_use_clmul(true);
}

/* The function itself: errors, an empty tail, the whole datagram zero but
 * its headers. */
static void
test_zero_tail_edges(void **state)
{
	static uint8_t f[CAP];
	struct pcc_l3_spec l3;
	struct pcc_roce_spec rs;
	uint32_t crc, want;
	int len, l3_off = 14, err;

	(void)state;
	memset(&l3, 0, sizeof(l3));
	memset(&rs, 0, sizeof(rs));
	rs.bth.opcode = 0x04;
	rs.payload_len = 2000;
	len = pcc_roce_build(f, CAP, &l3, &rs);
	assert_true(len > 0);
	want = pcc_icrc_calc(f + l3_off, (uint32_t)len - 4 - (uint32_t)l3_off, &err);
	assert_int_equal(err, 0);
	/* zeros from the payload on, from further on, none */
	assert_int_equal(proto_icrc_zero_tail(f + l3_off, 40, (uint32_t)len - 4 - 14, &crc), 0);
	assert_int_equal(crc, want);
	assert_int_equal(proto_icrc_zero_tail(f + l3_off, 300, (uint32_t)len - 4 - 14, &crc), 0);
	assert_int_equal(crc, want);
	assert_int_equal(proto_icrc_zero_tail(f + l3_off, (uint32_t)len - 4 - 14,
					 (uint32_t)len - 4 - 14, &crc),
			0);
	assert_int_equal(crc, want);
	/* zeros claimed inside the headers, or past the datagram */
	assert_true(proto_icrc_zero_tail(f + l3_off, 39, (uint32_t)len - 18, &crc) < 0);
	assert_int_equal(proto_icrc_zero_tail(f + l3_off, 0, (uint32_t)len - 18, &crc),
			PCC_PROTO_ERR_INVAL);
	assert_int_equal(proto_icrc_zero_tail(f + l3_off, (uint32_t)len, (uint32_t)len - 18, &crc),
			PCC_PROTO_ERR_INVAL);
	/* a byte that is not zero: a different ICRC than the truth */
	f[l3_off + 1000] = 1;
	assert_int_equal(proto_icrc_zero_tail(f + l3_off, 40, (uint32_t)len - 4 - 14, &crc), 0);
	assert_int_equal(crc, want);
	assert_int_not_equal(pcc_icrc_calc(f + l3_off, (uint32_t)len - 18, NULL), want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_payload),
		cmocka_unit_test(test_zero_payload_sw),
		cmocka_unit_test(test_zero_tail_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
