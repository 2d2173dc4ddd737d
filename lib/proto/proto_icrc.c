/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * RoCEv2 invariant CRC (doc/wire.md section 6).  CRC-32 (the Ethernet CRC)
 * over 8 bytes of 0xFF, the IP+UDP+BTH headers with the variant fields set
 * to ones and the rest of the datagram.
 *
 * Three implementations, same result:
 *  - for datagrams of up to PROTO_ICRC_REG_MAX bytes (CNPs, ACKs, probes),
 *    once pcc_proto_crc_init() found PCLMULQDQ and SSE4.1: read in 16-byte
 *    blocks from the frame, masked in registers, every block multiplied
 *    by its own power of x, one Barrett reduction ("Short datagrams in
 *    registers" below);
 *  - DPDK's rte_net_crc (PCLMULQDQ folding) over a masked linear copy on
 *    the stack, for datagrams up to ICRC_FAST_MAX bytes, once
 *    pcc_proto_crc_init() found the CPU support and the EAL allows 128-bit
 *    vectors.  It cannot chain, hence the copy; still 2x (330 B) to 5x
 *    (64 B) faster than zlib here.
 *  - zlib's crc32(), which chains: masked header copy, then the payload in
 *    place.  Used before pcc_proto_crc_init(), without EAL, and for larger
 *    datagrams.
 *
 * The incremental ICRC of a changed frame (pcc_icrc_patch) is in
 * proto_icrc_patch.c.
 */

#include <pthread.h>
#include <stdbool.h>
#include <zlib.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cpuflags.h>
#include <rte_mbuf.h>
#include <rte_net_crc.h>
#include <rte_vect.h>
#ifdef RTE_ARCH_X86
#include <immintrin.h>
#endif

#include "proto_internal.h"

#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
/*
 * The common headers (IPv4 without options, IPv6) as 64-bit words with
 * the masked bytes ORed in, stored once: byte stores over a block that
 * the CRC then reads in 16-byte loads stall on store forwarding, and a
 * variable-length copy became `rep movs` (doc/perf-icrc.md, "ICRC
 * verification").  IPv4 with options: the byte path below.  Words little
 * endian: byte k of a word is bits 8k..8k+7.
 */
static inline int
mask_hdrs_words(const uint8_t *ip, uint32_t len, uint8_t *out)
{
	uint64_t w[8];

	if ((ip[0] >> 4) == 4 && (ip[0] & 0xf) == 5) {
		/* 20 IP + 8 UDP + 12 BTH = 40 bytes */
		if (len < 40)
			return PCC_PROTO_ERR_TRUNCATED;
		memcpy(w, ip, 40);
		w[0] |= UINT64_C(0xff00);     /* TOS (byte 1) */
		w[1] |= UINT64_C(0xffff00ff); /* TTL (8), checksum (10, 11) */
		w[3] |= UINT64_C(0xffff0000); /* UDP checksum (26, 27) */
		w[4] |= UINT64_C(0xff);       /* BTH byte 4 (32) */
		memcpy(out, w, 40);
		return 40;
	}
	if ((ip[0] >> 4) == 6) {
		/* 40 IP + 8 UDP + 12 BTH = 60 bytes */
		if (len < 60)
			return PCC_PROTO_ERR_TRUNCATED;
		memcpy(w, ip, 60); /* no further: len may end here */
		/* traffic class and flow label (byte 0 low nibble, 1..3),
		 * hop limit (7) */
		w[0] |= UINT64_C(0xff000000ffffff0f);
		w[5] |= UINT64_C(0xffff) << 48; /* UDP checksum (46, 47) */
		w[6] |= UINT64_C(0xff) << 32;   /* BTH byte 4 (52) */
		memcpy(out, w, 60);
		return 60;
	}
	return 0; /* not a common header: the generic path */
}
#endif

int
proto_icrc_mask_hdrs(const uint8_t *ip, uint32_t len, uint8_t out[PROTO_ICRC_HDR_MAX])
{
	uint32_t hl;
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	int n;

	if (len >= 1 && (n = mask_hdrs_words(ip, len, out)) != 0)
		return n;
#endif

	if (len < 1)
		return PCC_PROTO_ERR_TRUNCATED;
	switch (ip[0] >> 4) {
	case 4:
		hl = (ip[0] & 0xf) * 4u;
		if (hl < PCC_IPV4_HDR_LEN)
			return PCC_PROTO_ERR_BAD_LENGTH;
		if (len < hl + PCC_UDP_HDR_LEN + PCC_BTH_LEN)
			return PCC_PROTO_ERR_TRUNCATED;
		memcpy(out, ip, hl + PCC_UDP_HDR_LEN + PCC_BTH_LEN);
		out[1] = 0xff;  /* TOS */
		out[8] = 0xff;  /* TTL */
		out[10] = 0xff; /* header checksum */
		out[11] = 0xff;
		break;
	case 6:
		hl = PCC_IPV6_HDR_LEN;
		if (len < hl + PCC_UDP_HDR_LEN + PCC_BTH_LEN)
			return PCC_PROTO_ERR_TRUNCATED;
		memcpy(out, ip, hl + PCC_UDP_HDR_LEN + PCC_BTH_LEN);
		out[0] |= 0x0f; /* traffic class, flow label */
		out[1] = 0xff;
		out[2] = 0xff;
		out[3] = 0xff;
		out[7] = 0xff; /* hop limit */
		break;
	default:
		return PCC_PROTO_ERR_BAD_VERSION;
	}
	out[hl + 6] = 0xff; /* UDP checksum */
	out[hl + 7] = 0xff;
	out[hl + PCC_UDP_HDR_LEN + 4] = 0xff; /* BTH FECN/BECN/resv */
	return (int)(hl + PCC_UDP_HDR_LEN + PCC_BTH_LEN);
}

uint32_t
proto_icrc_start(const uint8_t *masked, uint32_t n)
{
	static const uint8_t ones[8] = {
		0xff,
		0xff,
		0xff,
		0xff,
		0xff,
		0xff,
		0xff,
		0xff,
	};
	uLong crc;

	crc = crc32(0L, ones, sizeof(ones));
	return (uint32_t)crc32(crc, masked, n);
}

/* Largest datagram (IP header to ICRC) the rte_net_crc path copies. */
#define ICRC_FAST_MAX 2048

static bool icrc_fast;

static bool icrc_reg_on(void);

int
pcc_proto_crc_init(void)
{
	bool reg;

	icrc_fast = false;
	/* the datagrams of CC packets in registers; longer ones below */
	reg = icrc_reg_on();
#ifdef RTE_ARCH_X86
	/* the conditions rte_net_crc_set_alg() checks for its SSE4.2 path,
	 * which it silently replaces with a slow table walk otherwise */
	if (rte_cpu_get_flag_enabled(RTE_CPUFLAG_PCLMULQDQ) > 0 &&
			rte_cpu_get_flag_enabled(RTE_CPUFLAG_SSE4_2) > 0 &&
			rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_128) {
		rte_net_crc_set_alg(RTE_NET_CRC_SSE42);
		icrc_fast = true;
	}
#endif
	return icrc_fast || reg ? 1 : 0;
}

#ifdef RTE_ARCH_X86
/*
 * IPv4 without options (every CNP, ACK and probe the engine sees): the 8
 * bytes of ones and the 40 masked header bytes built in three 16-byte
 * registers and stored once each, so that the CRC's 16-byte loads are
 * forwarded from those stores (doc/perf-icrc.md, "ICRC verification").
 */
static inline int
icrc_v4_head(const uint8_t *ip, uint32_t len, uint8_t *buf)
{
	__m128i v0, v1, v2;

	if (len < 40 || ip[0] != 0x45) /* len first: ip[0] may not be there */
		return 0;
	/* buf[0..15]: ones, then header bytes 0..7 (TOS = header byte 1) */
	v0 = _mm_unpacklo_epi64(_mm_set1_epi8((char)0xff),
			_mm_loadl_epi64((const __m128i *)(const void *)ip));
	v0 = _mm_or_si128(v0, _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0));
	/* header bytes 8..23: TTL (8), checksum (10, 11) */
	v1 = _mm_loadu_si128((const __m128i *)(const void *)(ip + 8));
	v1 = _mm_or_si128(v1, _mm_setr_epi8(-1, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
	/* header bytes 24..39: UDP checksum (26, 27), BTH byte 4 (32) */
	v2 = _mm_loadu_si128((const __m128i *)(const void *)(ip + 24));
	v2 = _mm_or_si128(v2, _mm_setr_epi8(0, 0, -1, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0));
	_mm_storeu_si128((__m128i *)(void *)buf, v0);
	_mm_storeu_si128((__m128i *)(void *)(buf + 16), v1);
	_mm_storeu_si128((__m128i *)(void *)(buf + 32), v2);
	return 40;
}
#endif

/* ICRC of a datagram of len <= ICRC_FAST_MAX with rte_net_crc. */
static uint32_t
icrc_calc_fast(const uint8_t *ip, uint32_t len, int *n)
{
	uint8_t buf[8 + ICRC_FAST_MAX];

#ifdef RTE_ARCH_X86
	*n = icrc_v4_head(ip, len, buf);
	if (*n != 0) {
		memcpy(buf + 48, ip + 40, len - 40);
		return rte_net_crc_calc(buf, len + 8, RTE_NET_CRC32_ETH);
	}
#endif
	memset(buf, 0xff, 8);
	*n = proto_icrc_mask_hdrs(ip, len, buf + 8);
	if (*n < 0)
		return 0;
	memcpy(buf + 8 + *n, ip + *n, len - (uint32_t)*n);
	return rte_net_crc_calc(buf, len + 8, RTE_NET_CRC32_ETH);
}

/* ---- Short datagrams in registers ------------------------------------------ */

/*
 * The ICRC of a datagram D of len <= PROTO_ICRC_REG_MAX bytes with the
 * common headers (IPv4, with or without options, and IPv6), read from the
 * frame in 16-byte blocks: no copy, the masked fields ORed in from a mask
 * of the same offsets, every block multiplied on its own, one reduction.
 *
 * Reflected arithmetic as pcc_icrc_patch() below (a 64-bit word w, bytes
 * little endian, stands for the polynomial W of bit i = x^(63 - i)).  The
 * CRC is linear: the ICRC of the masked datagram D is D(x) x^32 mod P
 * xored with the ICRC of len zero bytes (fin[len]: the register after
 * the ones, carried through the zeros, complemented), and the 8-byte
 * word W at byte q of D contributes W x^(8 (len - q - 4)) mod P to the
 * first.  The bytes after the last whole block, r = len mod 16 of them,
 * are taken as the 16-byte block that ends the datagram with its first
 * 16 - r bytes cleared (leading zeros add nothing).
 *
 * PCLMULQDQ of W and a 32-bit constant K gives 95 bits, bit k standing for
 * x^(94 - k) of W K.  With K = x^(e - 1) mod P instead of x^e, the same
 * bits read as bit k = x^(95 - k) are W x^e (mod P): no shift.  The sum
 * T of all products, so read, is H x^32 + L: H the 64-bit word of bits
 * 0..63, L the 32-bit word of bits 64..95, already reduced.  H x^32 mod P
 * by Barrett: with mu = floor(x^96 / P) = x^64 + mu', the quotient is
 * H + Q', Q' = floor(H mu' / x^64) (bits 0..62 of the product of h and
 * mu', bit k = x^(62 - k); bit 63 is below x^64 and cleared); the
 * remainder is the low 32 coefficients of (H + Q') (P - x^32), that is
 * bits 64..95 of h times (P - x^32) x and of Q' times (P - x^32) x^2 in
 * the same reading as T.  Two multiplies in a row after the sum (h times
 * (P - x^32) x beside them), the blocks' own all independent.
 */

/* the CRC-32 (Ethernet) polynomial P without its x^32 term, bit i = x^i */
#define ICRC_POLY 0x04C11DB7u
/* Masked bytes lie below this offset (IPv4 with 40 bytes of options:
 * BTH byte 4 at 72); the blocks from it on are not masked. */
#define ICRC_REG_MASKED 80

static struct proto_icrc_reg_k icrc_reg_k;
/* the bytes ORed in per offset: [0] IPv6, [5..15] IPv4 by IHL */
static uint8_t icrc_reg_or[16][ICRC_REG_MASKED + 16];
static bool icrc_reg, icrc_reg_cpu;
static pthread_once_t icrc_reg_once = PTHREAD_ONCE_INIT;

static uint64_t
bit_reverse(uint64_t v, unsigned int n)
{
	uint64_t r = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		r |= ((v >> i) & 1) << (n - 1 - i);
	return r;
}

static void
icrc_reg_init(void)
{
	struct proto_icrc_reg_k *c = &icrc_reg_k;
	const uint32_t d_max = PROTO_ICRC_REG_MAX - 16;
	uint32_t pr = (uint32_t)bit_reverse(ICRC_POLY, 32);
	uint8_t hdr[PROTO_ICRC_HDR_MAX] = { 0 }, out[PROTO_ICRC_HDR_MAX];
	uint64_t r, q;
	uint32_t x, e, m, n, i;
	int v, hl;

	/* x^e mod P, e from 0 (reflected: 1 is the top bit), times x at a
	 * time; kept for e = 8 m - 1 */
	x = UINT32_C(1) << 31;
	for (e = 0; e < 8 * (d_max + 12); e++) {
		if ((e & 7) == 7) {
			m = (e + 1) / 8;
			if (m >= 12)
				c->k[m - 12][0] = x;
			if (m >= 4 && m - 4 <= d_max)
				c->k[m - 4][1] = x;
		}
		x = (x >> 1) ^ ((x & 1) != 0 ? pr : 0);
	}
	/* floor(x^96 / P) by long division: the dividend's bits from x^96
	 * down, r the running remainder (33 bits), q the quotient's bits
	 * 63..0 (its x^64 is the first one set) */
	r = 0;
	q = 0;
	for (v = 96; v >= 0; v--) {
		r = (r << 1) | (v == 96 ? 1 : 0);
		if ((r >> 32) != 0) {
			r ^= (UINT64_C(1) << 32) | ICRC_POLY;
			if (v < 64)
				q |= UINT64_C(1) << v;
		}
	}
	c->mu[0] = bit_reverse(q, 64);
	c->mu[1] = 0;
	c->pl[0] = (uint64_t)pr << 1;
	c->pl[1] = (uint64_t)pr << 2;
	/* the register from ~0 over 8 bytes of ones, then over len zero
	 * bytes: fin[len] the complement */
	x = UINT32_MAX;
	for (n = 0; n < 8 * (8 + PROTO_ICRC_REG_MAX); n++) {
		if (n >= 64 && (n & 7) == 0)
			c->fin[n / 8 - 8] = ~x;
		x ^= n < 64 && (n & 7) == 0 ? 0xff : 0;
		x = (x >> 1) ^ ((x & 1) != 0 ? pr : 0);
	}
	c->fin[PROTO_ICRC_REG_MAX] = ~x;
	/* the masks, from the byte path's masking of a header of zeros */
	for (n = 0; n < 16; n++) {
		if (n != 0 && n < 5)
			continue;
		hdr[0] = (uint8_t)(n == 0 ? 0x60 : 0x40 | n);
		hl = proto_icrc_mask_hdrs(hdr, sizeof(hdr), out);
		for (i = 0; hl > 0 && i < (uint32_t)hl; i++)
			icrc_reg_or[n][i] = out[i] ^ hdr[i];
	}
#ifdef RTE_ARCH_X86
	icrc_reg_cpu = rte_cpu_get_flag_enabled(RTE_CPUFLAG_PCLMULQDQ) > 0 &&
			rte_cpu_get_flag_enabled(RTE_CPUFLAG_SSE4_1) > 0;
#endif
}

struct proto_icrc_reg_k *
proto_icrc_reg_consts(void)
{
	pthread_once(&icrc_reg_once, icrc_reg_init);
	return &icrc_reg_k;
}

const uint8_t *
proto_icrc_reg_or(unsigned int ihl)
{
	pthread_once(&icrc_reg_once, icrc_reg_init);
	return icrc_reg_or[ihl & 15];
}

bool
proto_icrc_reg_use(bool on)
{
	pthread_once(&icrc_reg_once, icrc_reg_init);
	icrc_reg = on && icrc_reg_cpu;
	return icrc_reg;
}

/* pcc_proto_crc_init(): on when the CPU has it and the EAL allows
 * 128-bit vectors */
static bool
icrc_reg_on(void)
{
	return proto_icrc_reg_use(rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_128);
}

/*
 * The mask of the datagram at ip (len >= 1), NULL when its headers are
 * not there or not IP: the older paths say what is wrong.  IPv4 without
 * options and IPv6 are told by branches, which the CPU predicts: their
 * mask's address does not wait for the load of ip[0] (an index from it,
 * or a table, put two loads in a row before the first block's).
 */
static inline const uint8_t *
icrc_reg_mask(const uint8_t *ip, uint32_t len)
{
	uint32_t ihl = ip[0] & 0xf;

	if (ip[0] == 0x45)
		return len >= PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN + PCC_BTH_LEN ? icrc_reg_or[5] :
										 NULL;
	switch (ip[0] >> 4) {
	case 4:
		if (ihl < 5 || len < ihl * 4 + PCC_UDP_HDR_LEN + PCC_BTH_LEN)
			return NULL;
		return icrc_reg_or[ihl];
	case 6:
		if (len < PCC_IPV6_HDR_LEN + PCC_UDP_HDR_LEN + PCC_BTH_LEN)
			return NULL;
		return icrc_reg_or[0];
	default:
		return NULL;
	}
}

#ifdef RTE_ARCH_X86
#define ICRC_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))

/* s_lo, s_hi += the products of block b (masked) and its constants k */
#define ICRC_BLOCK(b, k, s_lo, s_hi)                                                  \
	do {                                                                          \
		(s_lo) = _mm_xor_si128((s_lo), _mm_clmulepi64_si128((b), (k), 0x00)); \
		(s_hi) = _mm_xor_si128((s_hi), _mm_clmulepi64_si128((b), (k), 0x11)); \
	} while (0)

/* The ICRC of the datagram at ip, 40 <= len <= PROTO_ICRC_REG_MAX, msk
 * its mask.  Blocks alternate between two pairs of sums, so that the
 * xors after the products are a tree of depth len / 32 + 2. */
__attribute__((target("pclmul,sse4.1"))) static uint32_t
icrc_reg_calc(const uint8_t *ip, uint32_t len, const uint8_t *msk)
{
	const struct proto_icrc_reg_k *c = &icrc_reg_k;
	__m128i b, k, t, q, s0, s1, s2, s3;
	uint32_t p;

	/* blocks 0 and 1: there, and masked */
	b = _mm_or_si128(ICRC_LOAD(ip), ICRC_LOAD(msk));
	k = ICRC_LOAD(c->k[len - 16]);
	s0 = _mm_clmulepi64_si128(b, k, 0x00);
	s1 = _mm_clmulepi64_si128(b, k, 0x11);
	b = _mm_or_si128(ICRC_LOAD(ip + 16), ICRC_LOAD(msk + 16));
	k = ICRC_LOAD(c->k[len - 32]);
	s2 = _mm_clmulepi64_si128(b, k, 0x00);
	s3 = _mm_clmulepi64_si128(b, k, 0x11);
	for (p = 32; p + 32 <= len; p += 32) {
		b = ICRC_LOAD(ip + p);
		if (p < ICRC_REG_MASKED)
			b = _mm_or_si128(b, ICRC_LOAD(msk + p));
		ICRC_BLOCK(b, ICRC_LOAD(c->k[len - 16 - p]), s0, s1);
		b = ICRC_LOAD(ip + p + 16);
		if (p + 16 < ICRC_REG_MASKED)
			b = _mm_or_si128(b, ICRC_LOAD(msk + p + 16));
		ICRC_BLOCK(b, ICRC_LOAD(c->k[len - 32 - p]), s2, s3);
	}
	if (p + 16 <= len) {
		b = ICRC_LOAD(ip + p);
		if (p < ICRC_REG_MASKED)
			b = _mm_or_si128(b, ICRC_LOAD(msk + p));
		ICRC_BLOCK(b, ICRC_LOAD(c->k[len - 16 - p]), s0, s1);
		p += 16;
	}
	if (p < len) {
		/* the last 16 bytes, those before p cleared: byte i kept when
		 * i > 15 - (len - p) */
		b = ICRC_LOAD(ip + len - 16);
		if (len - 16 < ICRC_REG_MASKED)
			b = _mm_or_si128(b, ICRC_LOAD(msk + len - 16));
		b = _mm_and_si128(b,
				_mm_cmpgt_epi8(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
							       12, 13, 14, 15),
						_mm_set1_epi8((char)(15 - (len - p)))));
		ICRC_BLOCK(b, ICRC_LOAD(c->k[0]), s2, s3);
	}
	t = _mm_xor_si128(_mm_xor_si128(s0, s1), _mm_xor_si128(s2, s3));
	/* Q' = floor(H mu' / x^64), then the remainder in bits 64..95 */
	q = _mm_clmulepi64_si128(t, ICRC_LOAD(c->mu), 0x00);
	q = _mm_and_si128(q, _mm_set_epi64x(0, INT64_MAX));
	k = ICRC_LOAD(c->pl);
	t = _mm_xor_si128(t, _mm_clmulepi64_si128(t, k, 0x00));
	t = _mm_xor_si128(t, _mm_clmulepi64_si128(q, k, 0x10));
	return (uint32_t)_mm_extract_epi32(t, 2) ^ c->fin[len];
}
#endif

/* pcc_icrc_calc() but the register path: out of line, so that the
 * register path is a leaf, without its stack frame */
static __rte_noinline uint32_t
icrc_calc_other(const void *ip, uint32_t len, int *err)
{
	uint8_t hdr[PROTO_ICRC_HDR_MAX];
	uint32_t crc;
	int n;

	if (ip == NULL) {
		if (err != NULL)
			*err = PCC_PROTO_ERR_INVAL;
		return 0;
	}
	if (icrc_fast && len <= ICRC_FAST_MAX) {
		crc = icrc_calc_fast(ip, len, &n);
		if (err != NULL)
			*err = n < 0 ? n : 0;
		return crc;
	}
	n = proto_icrc_mask_hdrs(ip, len, hdr);
	if (n < 0) {
		if (err != NULL)
			*err = n;
		return 0;
	}
	crc = proto_icrc_start(hdr, (uint32_t)n);
	crc = (uint32_t)crc32(crc, (const uint8_t *)ip + n, len - (uint32_t)n);
	if (err != NULL)
		*err = 0;
	return crc;
}

uint32_t
pcc_icrc_calc(const void *ip, uint32_t len, int *err)
{
#ifdef RTE_ARCH_X86
	const uint8_t *msk;

	/* 1 <= len <= PROTO_ICRC_REG_MAX */
	if (icrc_reg && ip != NULL && len - 1 < PROTO_ICRC_REG_MAX) {
		msk = icrc_reg_mask(ip, len);
		if (msk != NULL) {
			if (err != NULL)
				*err = 0;
			return icrc_reg_calc(ip, len, msk);
		}
	}
#endif
	return icrc_calc_other(ip, len, err);
}

static inline uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
			((uint32_t)p[3] << 24);
}

/* Offset of the ICRC of a parsed frame, or a negative error. */
static inline int64_t
icrc_off(const struct pcc_pkt_info *info)
{
	uint32_t off;

	if (info->bth_off == 0)
		return PCC_PROTO_ERR_NOT_ROCE;
	off = info->payload_off + info->payload_len + info->pad_cnt;
	if (off < (uint32_t)info->bth_off + PCC_BTH_LEN || off > info->frame_len ||
			info->frame_len - off < PCC_ICRC_LEN)
		return PCC_PROTO_ERR_BAD_LENGTH;
	return off;
}

/* ICRC of a parsed frame: *crc computed, *off where the wire ICRC is.
 * Inline: every CC packet the engine acts on is verified through it. */
static __rte_always_inline int
icrc_of(const uint8_t *f, const struct pcc_pkt_info *info, uint32_t *crc, int64_t *off)
{
	int err;

	if (f == NULL || info == NULL)
		return PCC_PROTO_ERR_INVAL;
	*off = icrc_off(info);
	if (*off < 0)
		return (int)*off;
	*crc = pcc_icrc_calc(f + info->l3_off, (uint32_t)*off - info->l3_off, &err);
	return err < 0 ? err : 0;
}

int
pcc_icrc_verify(const void *frame, const struct pcc_pkt_info *info)
{
	const uint8_t *f = frame;
	int64_t off;
	uint32_t crc;
	int err;

	err = icrc_of(f, info, &crc, &off);
	if (err < 0)
		return err;
	return crc == get_le32(f + off) ? 0 : PCC_PROTO_ERR_BAD_ICRC;
}

int
pcc_icrc_update(void *frame, const struct pcc_pkt_info *info)
{
	uint8_t *f = frame;
	int64_t off;
	uint32_t crc;
	int err;

	err = icrc_of(f, info, &crc, &off);
	if (err < 0)
		return err;
	proto_put_le32(f + off, crc);
	return 0;
}

int
proto_icrc_verify_mbuf(
		const struct rte_mbuf *m, const uint8_t *hdr, const struct pcc_pkt_info *info)
{
	uint8_t masked[PROTO_ICRC_HDR_MAX], wire[PCC_ICRC_LEN];
	const struct rte_mbuf *s;
	const uint8_t *w;
	uint32_t crc, off, left, n;
	int64_t end;
	int hl;

	end = icrc_off(info);
	if (end < 0)
		return (int)end;
	if ((uint64_t)end <= m->data_len) {
		/* the datagram in the first segment: read in place */
		crc = pcc_icrc_calc(rte_pktmbuf_mtod_offset(m, const uint8_t *, info->l3_off),
				(uint32_t)end - info->l3_off, &hl);
		if (hl < 0)
			return hl;
		goto wire;
	}
	/* headers are within the linear copy (PROTO_PARSE_HDR_MAX) */
	hl = proto_icrc_mask_hdrs(hdr + info->l3_off, (uint32_t)end - info->l3_off, masked);
	if (hl < 0)
		return hl;
	crc = proto_icrc_start(masked, (uint32_t)hl);

	/* the rest of the datagram, segment by segment */
	off = info->l3_off + (uint32_t)hl;
	left = (uint32_t)end - off;
	for (s = m; s != NULL && off >= s->data_len; s = s->next)
		off -= s->data_len;
	while (left > 0 && s != NULL) {
		n = RTE_MIN((uint32_t)(s->data_len - off), left);
		crc = (uint32_t)crc32(crc, rte_pktmbuf_mtod_offset(s, const uint8_t *, off), n);
		left -= n;
		off = 0;
		s = s->next;
	}
	if (left > 0)
		return PCC_PROTO_ERR_TRUNCATED;
wire:
	w = rte_pktmbuf_read(m, (uint32_t)end, PCC_ICRC_LEN, wire);
	if (w == NULL)
		return PCC_PROTO_ERR_TRUNCATED;
	return crc == get_le32(w) ? 0 : PCC_PROTO_ERR_BAD_ICRC;
}
