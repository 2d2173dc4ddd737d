/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * pcc_cc_match() and pcc_cc_icrc_ok() (pcc_proto_cc.h), the RP's fast
 * recognition of CNPs and RC ACK/NAKs, against the general parser,
 * proto_parse_core(), and pcc_icrc_verify(): frames of every opcode, IPv4
 * and IPv6, with and without a VLAN tag and IP options, built with random
 * fields and payloads, then mutated (random bytes of the headers changed,
 * lengths cut, length fields changed) and parsed with every option set.
 * Whenever the match answers true the parser must return 0 with the same
 * kind and fields, and the ICRC answers must agree; every CNP and RC ACK
 * or NAK over IPv4 without options must be matched.
 */

#include <inttypes.h>
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
#include "pcc_proto_cc.h"
#include "proto_internal.h"

#define TEST_RNG_SEED 0x2545f4914f6cdd1dull
#include "test_rng.h"

/* random frames built, each parsed as built and mutated MUTATIONS times */
#define N_FRAMES 20000
#define MUTATIONS 8
#define FRAME_MAX 512

/* Opcodes tried: mostly CNP and ACK, some others, some invalid. */
static uint8_t
rnd_opcode(void)
{
	static const uint8_t common[] = { 0x81, 0x11, 0x11, 0x81, 0x81, 0x11, 0x04, 0x0D, 0x0F,
		0x10, 0x12, 0x24 };
	uint32_t r = rnd() % 4;

	if (r < 3)
		return common[rnd() % RTE_DIM(common)];
	return (uint8_t)rnd();
}

/* A random RoCEv2 frame in buf; its length, or 0 if the builder refused. */
static uint32_t
build(uint8_t *buf, const struct pcc_parse_opts *opts)
{
	struct pcc_l3_spec l3;
	struct pcc_roce_spec rs;
	uint8_t payload[128];
	uint32_t i;
	int len;

	memset(&l3, 0, sizeof(l3));
	for (i = 0; i < 6; i++) {
		l3.dst_mac[i] = (uint8_t)rnd();
		l3.src_mac[i] = (uint8_t)rnd();
	}
	l3.vlan = rnd() % 3 == 0;
	l3.vlan_tci = (uint16_t)rnd();
	l3.ipv6 = rnd() % 5 == 0;
	l3.src.v4 = rnd();
	l3.dst.v4 = rnd();
	if (l3.ipv6)
		for (i = 0; i < 16; i++) {
			l3.src.v6[i] = (uint8_t)rnd();
			l3.dst.v6[i] = (uint8_t)rnd();
		}
	l3.dscp = (uint8_t)(rnd() & 63);
	l3.ecn = (uint8_t)(rnd() & 3);
	l3.ttl = (uint8_t)rnd();
	l3.ip_id = (uint16_t)rnd();
	l3.udp_sport = (uint16_t)rnd();
	memset(&rs, 0, sizeof(rs));
	rs.bth.opcode = rnd_opcode();
	rs.bth.flags = (uint8_t)rnd();
	rs.bth.ackreq = rnd() & 1;
	rs.bth.se = rnd() & 1;
	rs.bth.mig = rnd() & 1;
	rs.bth.pkey = (uint16_t)rnd();
	rs.bth.dqpn = rnd() & PCC_PSN_MASK;
	rs.bth.psn = rnd() & PCC_PSN_MASK;
	rs.aeth.syndrome = (uint8_t)rnd();
	rs.aeth.msn = rnd() & PCC_PSN_MASK;
	rs.reth.va = ((uint64_t)rnd() << 32) | rnd();
	rs.reth.rkey = rnd();
	rs.reth.dma_len = rnd();
	rs.deth.qkey = rnd();
	rs.deth.sqpn = rnd() & PCC_PSN_MASK;
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)rnd();
	rs.payload = payload;
	rs.payload_len = rs.bth.opcode == PCC_OP_CNP ? PCC_CNP_PAD_LEN + rnd() % 3 :
						       rnd() % (uint32_t)sizeof(payload);
	if (rnd() % 8 == 0 && opts->ifa1_marker != 0)
		rs.payload_len = 0;
	len = pcc_roce_build(buf, FRAME_MAX, &l3, &rs);
	if (len <= 0)
		return 0;
	/* the builder writes valid AETH syndromes only: a reserved class
	 * now and then */
	if ((pcc_bth_opcode_ext(rs.bth.opcode, NULL) & PCC_EXT_AETH) && rnd() % 4 == 0)
		buf[(l3.vlan ? 18 : 14) + (l3.ipv6 ? 40 : 20) + 8 + PCC_BTH_LEN] =
				(uint8_t)(0x40 | (rnd() & 0x9f));
	/* IPv4 options now and then: the header grows, the fast path must
	 * leave the frame to the general parser */
	if (!l3.ipv6 && rnd() % 10 == 0 && (uint32_t)len + 8 <= FRAME_MAX) {
		uint32_t ipo = l3.vlan ? 18 : 14;

		memmove(buf + ipo + 28, buf + ipo + 20, (uint32_t)len - ipo - 20);
		memset(buf + ipo + 20, 1, 8); /* NOPs */
		buf[ipo] = 0x47;
		pcc_put_be16(buf + ipo + 2, (uint16_t)(pcc_get_be16(buf + ipo + 2) + 8));
		len += 8;
	}
	return (uint32_t)len;
}

/* Mutate a copy of the frame: header bytes, length, length fields. */
static uint32_t
mutate(uint8_t *f, uint32_t len)
{
	uint32_t k = rnd() % 5, n, i;

	switch (k) {
	case 0: /* a few bytes of the first 64 */
		n = 1 + rnd() % 3;
		for (i = 0; i < n; i++)
			f[rnd() % RTE_MIN(len, 64u)] ^= (uint8_t)(1u << (rnd() % 8));
		return len;
	case 1: /* shorter */
		return rnd() % (len + 1);
	case 2: /* longer: Ethernet padding */
		n = rnd() % 16;
		if (len + n > FRAME_MAX)
			return len;
		memset(f + len, 0, n);
		return len + n;
	case 3: { /* an IP or UDP length field */
		uint32_t off = rnd() % 2 ? 16 : 38 + rnd() % 2 * 4;

		if (off + 2 <= len)
			pcc_put_be16(f + off, (uint16_t)(pcc_get_be16(f + off) + rnd() % 9 - 4));
		return len;
	}
	default: /* one random byte anywhere in the headers */
		f[rnd() % RTE_MIN(len, 80u)] = (uint8_t)rnd();
		return len;
	}
}

/* The match against the parser on p[0..len); true if it matched. */
static bool
check_one(const uint8_t *p, uint32_t len, const struct pcc_parse_opts *opts, unsigned int *fast)
{
	struct pcc_pkt_info b;
	struct pcc_cc_frame cc;
	int rb;

	memset(&cc, 0x5a, sizeof(cc));
	rb = proto_parse_core(p, len, opts, &b);
	if (!pcc_cc_match(p, len, opts, &cc))
		return false;
	assert_int_equal(rb, 0);
	assert_int_equal(cc.kind, b.kind);
	assert_true(b.opcode == PCC_OP_CNP || b.opcode == PCC_OP_RC_ACK);
	assert_int_equal(b.flags & PCC_PKT_F_IPV6, 0);
	assert_int_equal(cc.dqpn, b.dqpn);
	assert_int_equal(cc.psn, b.psn);
	assert_int_equal(cc.l3_off, b.l3_off);
	assert_int_equal(cc.ip_len, pcc_get_be16(p + b.l3_off + 2));
	assert_int_equal(cc.ttl, b.ttl);
	assert_int_equal(cc.bth_flags, b.bth_flags);
	assert_int_equal(cc.syndrome, b.aeth_syndrome);
	assert_int_equal(pcc_cc_icrc_ok(p, &cc), pcc_icrc_verify(p, &b) == 0);
	(*fast)++;
	return true;
}

static void
test_match_equals_parse(void **state)
{
	static const uint64_t markers[] = { PCC_IFA1_MARKER_DEFAULT, 0 };
	unsigned int fast = 0, fast_cc = 0, want_cc = 0, mut_fast = 0, i, j, o;
	uint8_t buf[FRAME_MAX], m[FRAME_MAX];

	(void)state;
	for (o = 0; o < 4; o++) {
		struct pcc_parse_opts opts;

		pcc_parse_opts_default(&opts);
		opts.ifa1_marker = markers[o & 1];
		opts.check_ip_csum = o == 2;
		if (o == 3)
			opts.ifa2_proto = 17; /* IFA2 "over" UDP: every frame */
		for (i = 0; i < N_FRAMES / 4; i++) {
			uint32_t len = build(buf, &opts), ml;
			bool is_fast;

			if (len == 0)
				continue;
			is_fast = check_one(buf, len, &opts, &fast);
			/* what the match is for: CNPs and RC ACK/NAKs over
			 * IPv4 without options (options set to their
			 * defaults) */
			if (o == 0 && pcc_get_be16(buf + (buf[12] == 0x81 ? 16 : 12)) == 0x0800 &&
					(buf[buf[12] == 0x81 ? 18 : 14] == 0x45)) {
				struct pcc_pkt_info info;

				if (proto_parse_core(buf, len, &opts, &info) == 0 &&
						(info.opcode == PCC_OP_CNP ||
								info.opcode == PCC_OP_RC_ACK)) {
					want_cc++;
					fast_cc += is_fast;
				}
			}
			if (o == 2 || o == 3)
				assert_false(is_fast);
			for (j = 0; j < MUTATIONS; j++) {
				unsigned int before = fast;

				memcpy(m, buf, len);
				ml = mutate(m, len);
				check_one(m, ml, &opts, &fast);
				mut_fast += fast - before;
			}
		}
	}
	print_message("matched: %u; CNP/ACK/NAK over IPv4: %u of %u; mutated frames "
		      "matched: %u\n",
			fast, fast_cc, want_cc, mut_fast);
	assert_true(want_cc > 500);
	assert_int_equal(fast_cc, want_cc);
	assert_true(mut_fast > 1000);
}

/* The shortest frames matched, one byte less, a bad ICRC. */
static void
test_match_shortest(void **state)
{
	struct pcc_parse_opts opts;
	struct pcc_l3_spec l3;
	struct pcc_roce_spec rs;
	struct pcc_cc_frame cc;
	uint8_t buf[FRAME_MAX];
	unsigned int fast = 0;
	int len;

	(void)state;
	pcc_parse_opts_default(&opts);
	memset(&l3, 0, sizeof(l3));
	memset(&rs, 0, sizeof(rs));
	rs.bth.opcode = PCC_OP_RC_ACK; /* no payload: 62 bytes */
	rs.bth.dqpn = 0x123456;
	rs.aeth.syndrome = 0x1f;
	len = pcc_roce_build(buf, sizeof(buf), &l3, &rs);
	assert_int_equal(len, 62);
	assert_true(check_one(buf, (uint32_t)len, &opts, &fast));
	assert_true(pcc_cc_match(buf, (uint32_t)len, NULL, &cc));
	assert_int_equal(cc.kind, PCC_PKT_ROCE_ACK);
	assert_int_equal(cc.dqpn, 0x123456);
	assert_int_equal(cc.syndrome, 0x1f);
	assert_true(pcc_cc_icrc_ok(buf, &cc));
	assert_false(check_one(buf, (uint32_t)len - 1, &opts, &fast));
	len = pcc_cnp_build(buf, sizeof(buf), &l3, 0xabcdef);
	assert_int_equal(len, 74);
	assert_true(check_one(buf, (uint32_t)len, &opts, &fast));
	assert_true(pcc_cc_match(buf, (uint32_t)len, &opts, &cc));
	assert_int_equal(cc.kind, PCC_PKT_CNP);
	assert_int_equal(cc.dqpn, 0xabcdef);
	assert_int_equal(cc.l3_off, 14);
	assert_int_equal(cc.ip_len, 60);
	assert_true(pcc_cc_icrc_ok(buf, &cc));
	buf[len - 1] ^= 1;
	assert_false(pcc_cc_icrc_ok(buf, &cc));
	/* one pad byte short: the parser's error */
	assert_false(check_one(buf, (uint32_t)len - 1, &opts, &fast));
	opts.check_icrc = true;
	assert_false(pcc_cc_match(buf, (uint32_t)len, &opts, &cc));
}

#define BULK_BURSTS 3000
#define BULK_MAX 64

/*
 * A burst of up to BULK_MAX matched frames at random offsets of buf (one
 * FRAME_MAX + 64 slot each): half the bursts CNPs of one length (the
 * vectors' case), the rest random CNPs and ACKs; one in four frames with
 * a bit flipped anywhere in its datagram or ICRC (a masked bit changes
 * nothing).  Returns the number of frames.
 */
static unsigned int
bulk_burst(uint8_t *buf, const uint8_t **frames, struct pcc_cc_frame *cc)
{
	const bool cnps = rnd() % 2 == 0;
	unsigned int n = 1 + rnd() % BULK_MAX, k = 0, tries = 0;
	struct pcc_parse_opts opts;

	pcc_parse_opts_default(&opts);
	while (k < n && tries++ < 100 * BULK_MAX) {
		uint8_t *f = buf + (size_t)k * (FRAME_MAX + 64) + rnd() % 64;
		uint32_t len;

		if (cnps) {
			struct pcc_l3_spec l3;

			memset(&l3, 0, sizeof(l3));
			l3.src.v4 = rnd();
			l3.dst.v4 = rnd();
			l3.ttl = (uint8_t)rnd();
			l3.udp_sport = (uint16_t)rnd();
			len = (uint32_t)pcc_cnp_build(f, FRAME_MAX, &l3, rnd() & PCC_QPN_MASK);
		} else {
			len = build(f, &opts);
		}
		if (len == 0 || !pcc_cc_match(f, len, &opts, &cc[k]))
			continue;
		if (rnd() % 4 == 0) {
			uint32_t bit = rnd() % (8u * cc[k].ip_len);

			f[cc[k].l3_off + bit / 8] ^= (uint8_t)(1u << (bit % 8));
		}
		frames[k++] = f;
	}
	return k;
}

/* pcc_cc_icrc_ok_bulk() at every width the CPU has equals
 * pcc_cc_icrc_ok() frame by frame. */
static void
test_icrc_bulk(void **state)
{
	static const unsigned int widths[] = { 0, 256, 512 };
	static uint8_t buf[BULK_MAX * (FRAME_MAX + 64)];
	const uint8_t *frames[BULK_MAX];
	struct pcc_cc_frame cc[BULK_MAX];
	unsigned int b, w, i, n, good = 0, bad = 0, ran[3] = { 0 };
	uint64_t want, got;

	(void)state;
	for (b = 0; b < BULK_BURSTS; b++) {
		n = bulk_burst(buf, frames, cc);
		want = 0;
		for (i = 0; i < n; i++)
			want |= (uint64_t)pcc_cc_icrc_ok(frames[i], &cc[i]) << i;
		good += (unsigned int)__builtin_popcountll(want);
		bad += n - (unsigned int)__builtin_popcountll(want);
		for (w = 0; w < RTE_DIM(widths); w++) {
			if (proto_icrc_bulk_width(widths[w]) != widths[w])
				continue;
			ran[w]++;
			got = pcc_cc_icrc_ok_bulk(frames, cc, n);
			if (got != want)
				fail_msg("burst %u of %u frames, %u bits: %#" PRIx64
					 " != %#" PRIx64,
						b, n, widths[w], got, want);
		}
	}
	print_message("bursts at 0 / 256 / 512 bits: %u / %u / %u; ICRC right %u, wrong %u\n",
			ran[0], ran[1], ran[2], good, bad);
	assert_int_equal(ran[0], BULK_BURSTS);
	assert_true(good > 10000 && bad > 1000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_equals_parse),
		cmocka_unit_test(test_match_shortest),
		cmocka_unit_test(test_icrc_bulk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
