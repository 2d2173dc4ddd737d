/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_DEV_FXP_H
#define PCC_DEV_FXP_H

/**
 * @file
 * Fixed-point helpers for algorithms, mirroring DOCA PCC's documented
 * ones.  All static inline, no state, safe on any thread.
 *
 * Formats:
 *  - fxp16: unsigned 16.16 fixed point (1.0 = PCC_DEV_FXP16_ONE = 65536),
 *    used for multiplicative factors and utilisation;
 *  - signed fxp16: int32_t 16.16 (log2 results, pow2 exponents);
 *  - rate: 20-bit fraction of line rate (PCC_DEV_MAX_RATE = 1 << 20).
 */

#include <stdint.h>

#include "pcc_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PCC_DEV_FXP16_SHIFT 16
#define PCC_DEV_FXP16_ONE (1u << PCC_DEV_FXP16_SHIFT)
/** fxp16 of a non-negative constant (rounded to nearest), e.g. FXP16(0.5). */
#define PCC_DEV_FXP16(x) ((uint32_t)((x)*65536.0 + 0.5))

/** Full 64-bit product of two 32-bit values (never overflows). */
static inline uint64_t
pcc_dev_mult(uint32_t a, uint32_t b)
{
	return (uint64_t)a * b;
}

/**
 * fxp16 product: (uint32_t)(((uint64_t)a * b) >> 16), as DOCA's.  Either
 * operand may be fxp16 (the other then keeps its unit: rate x factor is a
 * rate).  Truncates toward zero.  Overflow: when a * b >= 2^48 the result
 * wraps modulo 2^32 (DOCA behaviour); use pcc_dev_fxp_mult_sat to clamp.
 */
static inline uint32_t
pcc_dev_fxp_mult(uint32_t a, uint32_t b)
{
	return (uint32_t)(pcc_dev_mult(a, b) >> PCC_DEV_FXP16_SHIFT);
}

/** As pcc_dev_fxp_mult, saturating at UINT32_MAX instead of wrapping. */
static inline uint32_t
pcc_dev_fxp_mult_sat(uint32_t a, uint32_t b)
{
	uint64_t p = pcc_dev_mult(a, b) >> PCC_DEV_FXP16_SHIFT;

	return p > UINT32_MAX ? UINT32_MAX : (uint32_t)p;
}

/**
 * Find last set: 1-based index of the most significant set bit,
 * 32 - clz(a); fls(0) = 0 (DOCA's is undefined for 0), fls(1) = 1,
 * fls(0x80000000) = 32.
 */
static inline uint32_t
pcc_dev_fls(uint32_t a)
{
	return a == 0 ? 0 : 32u - (uint32_t)__builtin_clz(a);
}

/**
 * fxp16 reciprocal: 1/x for fxp16 x, i.e. floor(2^32 / x) (rounded down,
 * exact integer division).  x = 0 and x = 1 (where 2^32 / x does not fit)
 * saturate to UINT32_MAX.  recip(ONE) = ONE, recip(2 * ONE) = ONE / 2.
 */
static inline uint32_t
pcc_dev_fxp_recip(uint32_t x)
{
	if (x <= 1)
		return UINT32_MAX;
	return (uint32_t)((UINT64_C(1) << 32) / x);
}

/**
 * fxp16 base-2 logarithm: log2(x / 65536) as signed fxp16, for fxp16
 * x >= 1.  Domain x in [1, UINT32_MAX], range [-16.0, 16.0): -1048576 for
 * x = 1, 0 for x = ONE, 1048575 for x = UINT32_MAX.  Rounded down (toward
 * -infinity): exact for powers of two, else floor(log2(x/65536) * 65536)
 * (62-bit internal precision).  x = 0 saturates to INT32_MIN ("-inf").
 */
static inline int32_t
pcc_dev_fxp_log2(uint32_t x)
{
	unsigned __int128 sq;
	uint32_t n, frac = 0, i;
	uint64_t m;

	if (x == 0)
		return INT32_MIN;
	n = pcc_dev_fls(x) - 1;      /* integer part of log2(x) */
	m = (uint64_t)x << (62 - n); /* mantissa in [1, 2), Q2.62 */
	for (i = 0; i < PCC_DEV_FXP16_SHIFT; i++) {
		sq = (unsigned __int128)m * m;
		m = (uint64_t)(sq >> 62); /* m^2 in [1, 4) */
		frac <<= 1;
		if (m >= (UINT64_C(1) << 63)) {
			frac |= 1;
			m >>= 1;
		}
	}
	return ((int32_t)n - PCC_DEV_FXP16_SHIFT) * (int32_t)PCC_DEV_FXP16_ONE + (int32_t)frac;
}

/**
 * fxp16 power of two: 2^(a / 65536) for signed fxp16 a, as unsigned
 * fxp16, rounded to nearest (ties up; 62-bit internal precision).
 * a >= 16.0 (1048576) saturates to UINT32_MAX; results below half an LSB
 * (a < -17.0) are 0.  pow2(0) = ONE, pow2(-ONE) = ONE / 2,
 * pow2(15 * ONE) = 2^31.
 */
static inline uint32_t
pcc_dev_fxp_pow2(int32_t a)
{
	/* round(2^(2^-k) * 2^62), k = 1..16 */
	static const uint64_t root[16] = {
		0x5a827999fcef3242ull,
		0x4c1bf828c6dc54b8ull,
		0x45cae0f1f545eb73ull,
		0x42d561b3e6243d8aull,
		0x4166c34c5615d0ecull,
		0x40b268f9de0183baull,
		0x4058f6a7ecccd5b6ull,
		0x402c6be96af2fb58ull,
		0x4016321b687027a8ull,
		0x400b18178ba33b14ull,
		0x40058bce410147e8ull,
		0x4002c5d7bff71dafull,
		0x400162e807ee7e5bull,
		0x4000b1730df6a524ull,
		0x400058b9497b8152ull,
		0x40002c5c955dd701ull,
	};
	uint32_t f = (uint32_t)a & 0xffffu, k, shift;
	int32_t n = (a - (int32_t)f) / (int32_t)PCC_DEV_FXP16_ONE; /* floor */
	uint64_t m = UINT64_C(1) << 62;                            /* 1.0, Q2.62 */

	if (a >= 16 * (int32_t)PCC_DEV_FXP16_ONE)
		return UINT32_MAX;
	if (n < -17)
		return 0;
	for (k = 0; k < 16; k++) {
		if (f & (0x8000u >> k)) {
			unsigned __int128 p = (unsigned __int128)m * root[k];

			m = (uint64_t)((p + (UINT64_C(1) << 61)) >> 62);
		}
	}
	/* value = m / 2^62 * 2^n, in fxp16: m >> (46 - n), rounded */
	shift = (uint32_t)(46 - n);
	return (uint32_t)((m + (UINT64_C(1) << (shift - 1))) >> shift);
}

/**
 * Rate (fraction of line rate, 1 << 20 = line rate) to Mb/s for a line of
 * line_gbps Gb/s: floor(rate * line_gbps * 1000 / 2^20), saturating at
 * UINT32_MAX.  rate above PCC_DEV_MAX_RATE is not clamped.
 */
static inline uint32_t
pcc_dev_rate_to_mbps(uint32_t rate, uint32_t line_gbps)
{
	uint64_t v = pcc_dev_mult(rate, line_gbps);

	if (v > ((uint64_t)UINT32_MAX << PCC_DEV_RATE_SHIFT) / 1000u)
		return UINT32_MAX;
	return (uint32_t)((v * 1000u) >> PCC_DEV_RATE_SHIFT);
}

/**
 * Mb/s to a rate for a line of line_gbps Gb/s: floor(mbps * 2^20 /
 * (line_gbps * 1000)), clamped to [1, PCC_DEV_MAX_RATE] for mbps > 0 (a
 * result of 0 would mean "keep the rate").  0 for mbps == 0 or
 * line_gbps == 0 (unknown speed).
 */
static inline uint32_t
pcc_dev_mbps_to_rate(uint32_t mbps, uint32_t line_gbps)
{
	uint64_t r;

	if (mbps == 0 || line_gbps == 0)
		return 0;
	r = ((uint64_t)mbps << PCC_DEV_RATE_SHIFT) / ((uint64_t)line_gbps * 1000u);
	if (r == 0)
		return 1;
	return r > PCC_DEV_MAX_RATE ? PCC_DEV_MAX_RATE : (uint32_t)r;
}

#ifdef __cplusplus
}
#endif

#endif /* PCC_DEV_FXP_H */
