/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The ICRC of short datagrams computed in registers (proto_icrc.c, "Short
 * datagrams in registers") against zlib's crc32() over the 8 bytes of
 * ones and a copy masked here, by the rules of the IBA (A17.8.1), and
 * against the library's older path: random datagrams of every length
 * from 1 to past PROTO_ICRC_REG_MAX, IPv4 with and without options and
 * IPv6, each in a heap buffer of exactly its length (ASan); random CNPs
 * through pcc_icrc_verify() and pcc_icrc_update(); chained mbufs.  Its
 * constants against ones computed here in another way, and every bit of
 * every constant changed in turn is seen by a datagram that uses it.  No
 * EAL: proto_icrc_reg_use() turns the path on where the CPU has it.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <zlib.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "pcc_proto.h"
#include "proto_internal.h"

#define TEST_RNG_SEED 0x9e3779b97f4a7c15ull
#include "test_rng.h"
#include "test_mbuf.h"

/* lengths tried: past the register path's bound */
#define LEN_MAX (PROTO_ICRC_REG_MAX + 128)
/* random datagrams per length and kind */
#define PER_LEN 12
/* random CNPs */
#define N_CNP 20000

static void
rnd_fill(uint8_t *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

static uint32_t
le32_at(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
			((uint32_t)p[3] << 24);
}

/*
 * The ICRC by the book: zlib over 8 bytes of ones and the datagram with
 * IPv4 TOS, TTL and header checksum or IPv6 traffic class, flow label and
 * hop limit, the UDP checksum and BTH byte 4 set to ones.  -1 when the
 * headers are not all there (or not IP).
 */
static int64_t
ref_icrc(const uint8_t *ip, uint32_t len)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t *c;
	uint32_t hl;
	uLong crc;

	if (len < 1)
		return -1;
	if ((ip[0] >> 4) == 4)
		hl = (ip[0] & 0xfu) * 4;
	else if ((ip[0] >> 4) == 6)
		hl = 40;
	else
		return -1;
	if (hl < 20 || len < hl + 8 + 12)
		return -1;
	c = malloc(len);
	assert_non_null(c);
	memcpy(c, ip, len);
	if (hl == 40 && (ip[0] >> 4) == 6) {
		c[0] |= 0x0f;
		c[1] = c[2] = c[3] = 0xff;
		c[7] = 0xff;
	} else {
		c[1] = 0xff;
		c[8] = 0xff;
		c[10] = c[11] = 0xff;
	}
	c[hl + 6] = c[hl + 7] = 0xff;
	c[hl + 8 + 4] = 0xff;
	crc = crc32(0L, ones, sizeof(ones));
	crc = crc32(crc, c, len);
	free(c);
	return (int64_t)(uint32_t)crc;
}

static int
setup(void **state)
{
	(void)state;
	proto_icrc_reg_use(true); /* where the CPU cannot, the tests skip */
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	proto_icrc_reg_use(false);
	return 0;
}

/* A random datagram of len bytes in buf: kind 0 IPv4, 1 IPv4 with
 * options (IHL 6..15), 2 IPv6. */
static void
rnd_datagram(uint8_t *buf, uint32_t len, int kind)
{
	rnd_fill(buf, len);
	if (len == 0)
		return;
	if (kind == 0)
		buf[0] = 0x45;
	else if (kind == 1)
		buf[0] = (uint8_t)(0x46 + rnd() % 10);
	else
		buf[0] = (uint8_t)(0x60 | (buf[0] & 0xf));
}

static void
test_reg_random(void **state)
{
	uint8_t *buf, tmp[LEN_MAX];
	uint32_t len, i, c_old, c_new;
	int kind, e_old, e_new, n = 0, ok = 0;
	int64_t ref;

	(void)state;
	if (!proto_icrc_reg_use(true))
		skip();
	for (len = 0; len <= LEN_MAX; len++) {
		for (kind = 0; kind < 3; kind++) {
			for (i = 0; i < PER_LEN; i++) {
				rnd_datagram(tmp, len, kind);
				/* exactly len bytes: a read past the end is
				 * ASan's */
				buf = malloc(len != 0 ? len : 1);
				assert_non_null(buf);
				memcpy(buf, tmp, len);
				ref = ref_icrc(buf, len);
				e_new = 1;
				c_new = pcc_icrc_calc(buf, len, &e_new);
				proto_icrc_reg_use(false);
				e_old = 1;
				c_old = pcc_icrc_calc(buf, len, &e_old);
				proto_icrc_reg_use(true);
				free(buf);
				assert_int_equal(e_new, e_old);
				assert_int_equal(c_new, c_old);
				if (ref < 0) {
					assert_true(e_new < 0);
				} else {
					assert_int_equal(e_new, 0);
					if (c_new != (uint32_t)ref)
						fail_msg("len %u kind %d: %08x, zlib %08x", len,
								kind, c_new, (uint32_t)ref);
					ok++;
				}
				n++;
			}
		}
	}
	print_message("# %d datagrams, %d with an ICRC\n", n, ok);
	assert_true(ok >= 20000);
}

/* Whether the ICRC masks byte i > 0 of a datagram without IP options. */
static bool
masked_byte(bool v6, uint32_t i)
{
	if (v6)
		return i == 1 || i == 2 || i == 3 || i == 7 || i == 46 || i == 47 || i == 52;
	return i == 1 || i == 8 || i == 10 || i == 11 || i == 26 || i == 27 || i == 32;
}

/*
 * Random CNPs (IPv4 and IPv6, with and without VLAN) with random values in
 * the masked fields: the ICRC the builder stored verifies, an update
 * after any header change gives zlib's value, a flipped bit anywhere in
 * the datagram outside the masked fields is caught.
 */
static void
test_reg_cnp(void **state)
{
	struct pcc_l3_spec l3 = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
		.src_mac = { 2, 0, 0, 0, 0, 1 } };
	struct pcc_pkt_info info;
	uint8_t f[128], *ip;
	uint32_t i, dlen, pos;
	int n, k;

	(void)state;
	if (!proto_icrc_reg_use(true))
		skip();
	for (i = 0; i < N_CNP; i++) {
		l3.ipv6 = (i & 1) != 0;
		l3.vlan = (i & 2) != 0;
		l3.src.v4 = rnd();
		l3.dst.v4 = rnd();
		rnd_fill(l3.src.v6, 16);
		rnd_fill(l3.dst.v6, 16);
		n = pcc_cnp_build(f, sizeof(f), &l3, rnd() & 0xffffff);
		assert_true(n > 0);
		assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &info), 0);
		ip = f + info.l3_off;
		dlen = (uint32_t)n - info.l3_off - PCC_ICRC_LEN;
		assert_int_equal(dlen, l3.ipv6 ? 76 : 56);
		assert_int_equal(pcc_icrc_verify(f, &info), 0);
		assert_int_equal(le32_at(f + n - 4), (uint32_t)ref_icrc(ip, dlen));
		/* the variant fields changed: still valid */
		if (l3.ipv6) {
			ip[1] = (uint8_t)rnd();
			ip[7] = (uint8_t)rnd();
		} else {
			ip[1] = (uint8_t)rnd();
			ip[8] = (uint8_t)rnd();
			ip[10] = (uint8_t)rnd();
		}
		assert_int_equal(pcc_icrc_verify(f, &info), 0);
		/* the 16 reserved bytes and the QPN changed: update agrees
		 * with zlib */
		for (k = 0; k < 4; k++)
			ip[dlen - 1 - (uint32_t)(rnd() % 20)] = (uint8_t)rnd();
		assert_int_equal(pcc_icrc_update(f, &info), 0);
		assert_int_equal(le32_at(f + n - 4), (uint32_t)ref_icrc(ip, dlen));
		assert_int_equal(pcc_icrc_verify(f, &info), 0);
		/* one bit anywhere after the IP version and header length:
		 * caught unless the ICRC masks it */
		pos = 1 + rnd() % (dlen - 1);
		ip[pos] ^= (uint8_t)(1u << (rnd() % 8));
		assert_int_equal(pcc_icrc_verify(f, &info),
				masked_byte(l3.ipv6, pos) ? 0 : PCC_PROTO_ERR_BAD_ICRC);
	}
}

/* ---- the constants ------------------------------------------------- */

/* x^e mod P, P = x^32 + poly (bit i = x^i): shifted up, not reflected */
static uint32_t
xpow_fwd(uint32_t e)
{
	uint32_t v = 1, i;

	for (i = 0; i < e; i++)
		v = (v & 0x80000000u) != 0 ? (v << 1) ^ 0x04C11DB7u : v << 1;
	return v;
}

static uint64_t
rev64(uint64_t v)
{
	uint64_t r = 0;
	int i;

	for (i = 0; i < 64; i++)
		r |= ((v >> i) & 1) << (63 - i);
	return r;
}

static void
test_reg_consts(void **state)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t zeros[PROTO_ICRC_REG_MAX];
	const struct proto_icrc_reg_k *c = proto_icrc_reg_consts();
	uint64_t mu, prod[3] = { 0, 0, 0 }, a[3], pw;
	uint32_t d, x;
	int i, j;

	(void)state;
	for (d = 0; d <= PROTO_ICRC_REG_MAX - 16; d++) {
		x = xpow_fwd(8 * (d + 12) - 1);
		assert_int_equal(c->k[d][0], rev64(x) >> 32);
		x = xpow_fwd(8 * (d + 4) - 1);
		assert_int_equal(c->k[d][1], rev64(x) >> 32);
	}
	/* mu = x^64 + mu' with x^96 = mu P + R, deg R < 32: mu times P
	 * (192-bit carry-less product), xored with x^96, below x^32 */
	mu = rev64(c->mu[0]);
	assert_int_equal(c->mu[1], 0);
	a[0] = mu;
	a[1] = 1; /* x^64 */
	a[2] = 0;
	pw = (UINT64_C(1) << 32) | 0x04C11DB7u;
	for (i = 0; i < 33; i++) {
		if (((pw >> i) & 1) == 0)
			continue;
		for (j = 0; j < 3; j++)
			prod[j] ^= (a[j] << i) | (i != 0 && j != 0 ? a[j - 1] >> (64 - i) : 0);
	}
	prod[1] ^= UINT64_C(1) << 32; /* x^96 */
	assert_int_equal(prod[2], 0);
	assert_int_equal(prod[1], 0);
	assert_int_equal(prod[0] >> 32, 0);
	/* P - x^32, reflected, times x and x^2 */
	assert_int_equal(c->pl[0], rev64(0x04C11DB7u) >> 31);
	assert_int_equal(c->pl[1], rev64(0x04C11DB7u) >> 30);
	/* fin[len]: zlib's ICRC of len zero bytes */
	for (d = 0; d <= PROTO_ICRC_REG_MAX; d++)
		assert_int_equal(c->fin[d],
				(uint32_t)crc32(crc32(0L, ones, sizeof(ones)), zeros, d));
}

/* datagrams per length for the change test */
#define N_CHG 4

/* The CRC of every datagram of chg[len] (the ones that use the changed
 * constant): true if one differs from zlib's. */
static bool
seen(uint8_t (*dg)[N_CHG][PROTO_ICRC_REG_MAX], uint32_t (*want)[N_CHG], uint32_t len)
{
	int i;

	for (i = 0; i < N_CHG; i++)
		if (pcc_icrc_calc(dg[len][i], len, NULL) != want[len][i])
			return true;
	return false;
}

static void
flip_bit(uint64_t *w, unsigned int b)
{
	*w ^= UINT64_C(1) << b;
}

/*
 * Every bit of every constant changed, one at a time: a datagram that
 * uses the constant has a wrong ICRC (so the random test would catch a
 * constant a bit off).  k[d] serves the block followed by d bytes: length
 * d + 16, or d + 32 / d + 48 for short d (the headers need 40 bytes).
 */
static void
test_reg_const_changes(void **state)
{
	static uint8_t dg[PROTO_ICRC_REG_MAX + 1][N_CHG][PROTO_ICRC_REG_MAX];
	static uint32_t want[PROTO_ICRC_REG_MAX + 1][N_CHG];
	struct proto_icrc_reg_k *c = proto_icrc_reg_consts();
	uint32_t len, d;
	unsigned int b, lane;
	int i;

	(void)state;
	if (!proto_icrc_reg_use(true))
		skip();
	for (len = 40; len <= PROTO_ICRC_REG_MAX; len++) {
		for (i = 0; i < N_CHG; i++) {
			rnd_datagram(dg[len][i], len, i & 1 ? 2 : 0);
			if (len < 60)
				dg[len][i][0] = 0x45;
			want[len][i] = (uint32_t)ref_icrc(dg[len][i], len);
			assert_int_equal(pcc_icrc_calc(dg[len][i], len, NULL), want[len][i]);
		}
	}
	for (d = 0; d <= PROTO_ICRC_REG_MAX - 16; d++) {
		len = d + 16;
		while (len < 40)
			len += 16;
		for (lane = 0; lane < 2; lane++) {
			for (b = 0; b < 64; b++) {
				flip_bit(&c->k[d][lane], b);
				if (!seen(dg, want, len))
					fail_msg("k[%u][%u] bit %u", d, lane, b);
				flip_bit(&c->k[d][lane], b);
			}
		}
	}
	/*
	 * The reduction's constants, which every length uses.  Bits that
	 * stand for no term of them cannot matter and are left out: mu's
	 * bit 63 (x^0 of mu': its products stay below x^64, out of the
	 * quotient), pl[0]'s bit 0 and pl[1]'s bits 0 and 1 (the x^32 the
	 * constant is without, and x^33 beyond it: their products stay
	 * below bit 64, out of the remainder).
	 */
	for (b = 0; b < 64; b++) {
		if (b < 63) {
			flip_bit(&c->mu[0], b);
			if (!seen(dg, want, 56) && !seen(dg, want, 300))
				fail_msg("mu bit %u", b);
			flip_bit(&c->mu[0], b);
		}
		for (lane = 0; lane < 2; lane++) {
			if (b <= lane)
				continue;
			flip_bit(&c->pl[lane], b);
			if (!seen(dg, want, 56) && !seen(dg, want, 300))
				fail_msg("pl[%u] bit %u", lane, b);
			flip_bit(&c->pl[lane], b);
		}
	}
	/* fin[len], for the lengths the register path takes */
	for (len = 40; len <= PROTO_ICRC_REG_MAX; len++) {
		for (b = 0; b < 32; b++) {
			c->fin[len] ^= UINT32_C(1) << b;
			if (!seen(dg, want, len))
				fail_msg("fin[%u] bit %u", len, b);
			c->fin[len] ^= UINT32_C(1) << b;
		}
	}
	for (len = 40; len <= PROTO_ICRC_REG_MAX; len++)
		assert_false(seen(dg, want, len));
}

/* ---- mbufs ------------------------------------------------------------- */

/*
 * A CNP and a probe request in two segments, split at every byte: the
 * datagram in the first segment (the ICRC or its end in the second) is
 * read in place, the others segment by segment; both verify, and a bit
 * flipped in the payload is caught.
 */
static void
test_reg_mbuf_chain(void **state)
{
	struct pcc_l3_spec l3 = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
		.src_mac = { 2, 0, 0, 0, 0, 1 },
		.src.v4 = 0x0a000001,
		.dst.v4 = 0x0a000002 };
	struct pcc_probe p = { .tid = 7, .flow_tag = 9 };
	struct pcc_pkt_info info;
	struct rte_mbuf m[2];
	uint8_t f[512], b0[640], b1[640];
	uint32_t split, len, pos;
	int n, fr;

	(void)state;
	if (!proto_icrc_reg_use(true))
		skip();
	for (fr = 0; fr < 4; fr++) {
		l3.ipv6 = (fr & 1) != 0;
		if (fr < 2)
			n = pcc_cnp_build(f, sizeof(f), &l3, 0x1234);
		else
			n = pcc_probe_req_build(f, sizeof(f), &l3, 0x55, &p, NULL);
		assert_true(n > 0);
		len = (uint32_t)n;
		assert_int_equal(pcc_parse(f, len, NULL, &info), 0);
		for (split = 1; split < len; split++) {
			memcpy(b0 + 64, f, split);
			memcpy(b1 + 32, f + split, len - split);
			mbuf_init(&m[0], b0, sizeof(b0), 64, (uint16_t)split);
			mbuf_init(&m[1], b1, sizeof(b1), 32, (uint16_t)(len - split));
			m[0].pkt_len = len;
			m[0].nb_segs = 2;
			m[0].next = &m[1];
			assert_int_equal(pcc_icrc_verify_mbuf(&m[0], &info), 0);
			pos = len - PCC_ICRC_LEN - 1;
			if (pos < split)
				b0[64 + pos] ^= 0x20;
			else
				b1[32 + pos - split] ^= 0x20;
			assert_int_equal(
					pcc_icrc_verify_mbuf(&m[0], &info), PCC_PROTO_ERR_BAD_ICRC);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reg_consts),
		cmocka_unit_test(test_reg_random),
		cmocka_unit_test(test_reg_cnp),
		cmocka_unit_test(test_reg_const_changes),
		cmocka_unit_test(test_reg_mbuf_chain),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
