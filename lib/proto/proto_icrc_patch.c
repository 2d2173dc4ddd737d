/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The ICRC of a frame that changed in a few places, from its old ICRC:
 * pcc_icrc_patch() and the reflected CRC-32 arithmetic it rests on (the
 * NP's answers, the simulator's switches).  The full ICRC is in
 * proto_icrc.c.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cpuflags.h>
#ifdef RTE_ARCH_X86
#include <immintrin.h>
#endif

#include "proto_internal.h"

/* ---- Incremental ICRC (pcc_icrc_patch) ------------------------------------ */

/*
 * Reflected CRC-32 arithmetic (polynomial 0xEDB88320, as zlib): a 32-bit
 * value v stands for the polynomial sum of x^(31 - i) over its set bits i,
 * so 0x80000000 is 1 (a 64-bit value likewise, x^(63 - i)).  L(D), the
 * CRC register after feeding the bytes D from 0 (no initial value, no
 * final xor), is linear in D, and for the 8-byte words d of D (little
 * endian: the first byte fed in the low bits), d at byte q:
 *
 *   L(D) = sum of d * x^(8 (len - q - 4)) mod P
 *
 * (feeding d to a zero register gives d * x^32; the len - q - 8 bytes
 * after it multiply by x^8 each).  For two datagrams of the same length
 * crc(A) ^ crc(B) = L(A ^ B), so a change costs one 64x32 carry-less
 * multiply per changed 8 bytes.  The products (bit k standing for
 * x^(94 - k)) are summed in 128 bits and reduced once: shifted left by one
 * (bit k: x^(95 - k)), bits 64..95 are already reduced, bits 32..63 are a
 * value times x^32 (its 4 bytes fed to a zero register) and bits 0..31 a
 * value times x^64 (fed, then 4 zero bytes): slicing tables.
 */

#define PATCH_POW_N 2048 /* x^(8 s) tabled for s < PATCH_POW_N */
#define PATCH_POW_HI 34  /* x^(8 PATCH_POW_N j), j < 34: s up to 64 KiB + 7 */

uint32_t proto_icrc_tbl[8][256];            /* byte followed by k zero bytes */
static uint32_t patch_pow[PATCH_POW_N];     /* x^(8 s) mod P */
static uint32_t patch_pow_hi[PATCH_POW_HI]; /* x^(8 PATCH_POW_N j) mod P */
static bool patch_clmul;
static pthread_once_t patch_once = PTHREAD_ONCE_INIT;

#define patch_tbl proto_icrc_tbl
#define patch_acc proto_icrc_acc

static inline uint32_t
patch_reduce(struct patch_acc a)
{
	return proto_icrc_reduce(a.lo, a.hi);
}

static inline void
clmul_sw(struct patch_acc *acc, uint64_t d, uint32_t x)
{
	proto_clmul_sw(acc, d, x);
}

/* a * b mod P for 32-bit a, b, in software (setup, far distances) */
static uint32_t
patch_mul_sw(uint32_t a, uint32_t b)
{
	struct patch_acc acc = { 0, 0 };

	/* a in the top half of a 64-bit value: a * x^32 * b / x^32 */
	clmul_sw(&acc, (uint64_t)a << 32, b);
	/* the product of (a << 32) and b stands for a * b * x^0: bits
	 * 32..94, i.e. shifted left by 32 from a 32 x 32 product */
	return patch_reduce(acc);
}

static void
patch_init(void)
{
	uint32_t c, k, i;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
		patch_tbl[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			patch_tbl[k][i] = (patch_tbl[k - 1][i] >> 8) ^
					patch_tbl[0][patch_tbl[k - 1][i] & 0xff];
	/* x^0, then one zero byte fed at a time */
	c = 0x80000000u;
	for (i = 0; i < PATCH_POW_N; i++) {
		patch_pow[i] = c;
		c = patch_tbl[0][c & 0xff] ^ (c >> 8);
	}
	/* c = x^(8 PATCH_POW_N) */
	patch_pow_hi[0] = 0x80000000u;
	for (i = 1; i < PATCH_POW_HI; i++)
		patch_pow_hi[i] = patch_mul_sw(patch_pow_hi[i - 1], c);
#ifdef RTE_ARCH_X86
	patch_clmul = __builtin_cpu_supports("pclmul") > 0;
#endif
}

void
proto_icrc_patch_use_clmul(bool on)
{
	pthread_once(&patch_once, patch_init);
#ifdef RTE_ARCH_X86
	patch_clmul = on && __builtin_cpu_supports("pclmul") > 0;
#else
	RTE_SET_USED(on);
	patch_clmul = false;
#endif
}

/* x^(8 s) mod P */
static inline uint32_t
patch_xpow(uint32_t s)
{
	if (s < PATCH_POW_N)
		return patch_pow[s];
	return patch_mul_sw(patch_pow[s % PATCH_POW_N], patch_pow_hi[s / PATCH_POW_N]);
}

#define XPOW_TBL(s) patch_pow[s]

/*
 * Sum of the products of the changed 8-byte words.  The first word is
 * padded in front so that the last one ends at off + n; word k then starts
 * at q = off - pad + 8 k and is multiplied by x^(8 (len - q - 4)).  Words
 * without a change are skipped.
 */
#define PATCH_SUM(MUL, XPOW)                                                      \
	do {                                                                      \
		uint32_t pad = (8 - (n & 7)) & 7, s = len - off + pad - 4, i = 0; \
		uint64_t d = 0, a, b;                                             \
                                                                                  \
		if (pad != 0) {                                                   \
			uint8_t first[8] = { 0 };                                 \
                                                                                  \
			for (; i < 8 - pad; i++)                                  \
				first[pad + i] = (uint8_t)(o[i] ^ nw[i]);         \
			memcpy(&d, first, 8);                                     \
			d = rte_le_to_cpu_64(d);                                  \
			if (d != 0)                                               \
				MUL(d, XPOW(s));                                  \
			s -= 8;                                                   \
		}                                                                 \
		for (; i < n; i += 8, s -= 8) {                                   \
			memcpy(&a, o + i, 8);                                     \
			memcpy(&b, nw + i, 8);                                    \
			d = rte_le_to_cpu_64(a ^ b);                              \
			if (d != 0)                                               \
				MUL(d, XPOW(s));                                  \
		}                                                                 \
	} while (0)

#define MUL_SW(d, x) clmul_sw(&acc, (d), (x))

static struct patch_acc
patch_sum_sw(const uint8_t *o, const uint8_t *nw, uint32_t len, uint32_t off, uint32_t n)
{
	struct patch_acc acc = { 0, 0 };

	PATCH_SUM(MUL_SW, patch_xpow);
	return acc;
}

#ifdef RTE_ARCH_X86
#define MUL_HW(d, x)                                                             \
	(v = _mm_xor_si128(v,                                                    \
			 _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)(d)), \
					 _mm_cvtsi32_si128((int)(x)), 0)))

#define PATCH_SUM_HW(name, XPOW)                                                                \
	__attribute__((target("pclmul,sse4.1"))) static struct patch_acc name(const uint8_t *o, \
			const uint8_t *nw, uint32_t len, uint32_t off, uint32_t n)              \
	{                                                                                       \
		__m128i v = _mm_setzero_si128();                                                \
		struct patch_acc acc;                                                           \
                                                                                                \
		PATCH_SUM(MUL_HW, XPOW);                                                        \
		acc.lo = (uint64_t)_mm_cvtsi128_si64(v);                                        \
		acc.hi = (uint64_t)_mm_extract_epi64(v, 1);                                     \
		return acc;                                                                     \
	}

/* every multiplier in the table (len + 7 < PATCH_POW_N), or not */
PATCH_SUM_HW(patch_sum_hw_tbl, XPOW_TBL)
PATCH_SUM_HW(patch_sum_hw, patch_xpow)
#endif

/* ---- Sums of products for callers that know their words (proto_probe_fast.c) ---- */

bool
proto_icrc_clmul(void)
{
	return patch_clmul;
}

uint32_t
proto_icrc_xpow(uint32_t s)
{
	pthread_once(&patch_once, patch_init);
	return patch_xpow(s);
}

static uint32_t
words_sw(const uint64_t *d, const uint32_t *k, unsigned int n)
{
	struct patch_acc acc = { 0, 0 };
	unsigned int i;

	for (i = 0; i < n; i++)
		clmul_sw(&acc, d[i], k[i]);
	return patch_reduce(acc);
}

#ifdef RTE_ARCH_X86
__attribute__((target("pclmul,sse4.1"))) static uint32_t
words_hw(const uint64_t *d, const uint32_t *k, unsigned int n)
{
	__m128i v = _mm_setzero_si128();
	struct patch_acc acc;
	unsigned int i;

	for (i = 0; i < n; i++)
		MUL_HW(d[i], k[i]);
	acc.lo = (uint64_t)_mm_cvtsi128_si64(v);
	acc.hi = (uint64_t)_mm_extract_epi64(v, 1);
	return patch_reduce(acc);
}
#endif

uint32_t
proto_icrc_words(const uint64_t *d, const uint32_t *k, unsigned int n)
{
	/* the tables are there: the caller has its k[] from
	 * proto_icrc_xpow() */
#ifdef RTE_ARCH_X86
	if (patch_clmul)
		return words_hw(d, k, n);
#endif
	return words_sw(d, k, n);
}

int
pcc_icrc_patch(uint32_t *icrc, uint32_t len, uint32_t off, const void *old_bytes,
		const void *new_bytes, uint32_t n)
{
	const uint8_t *o = old_bytes, *nw = new_bytes;
	struct patch_acc acc;

	if (icrc == NULL || off > len || n > len - off || (n > 0 && (o == NULL || nw == NULL)))
		return PCC_PROTO_ERR_INVAL;
	if (n == 0)
		return 0;
	pthread_once(&patch_once, patch_init);
#ifdef RTE_ARCH_X86
	if (patch_clmul && len + 7 < PATCH_POW_N)
		acc = patch_sum_hw_tbl(o, nw, len, off, n);
	else if (patch_clmul)
		acc = patch_sum_hw(o, nw, len, off, n);
	else
#endif
		acc = patch_sum_sw(o, nw, len, off, n);
	*icrc ^= patch_reduce(acc);
	return 0;
}
