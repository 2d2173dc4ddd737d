/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_RNG_H
#define TEST_RNG_H

/*
 * The tests' random numbers: xorshift64 (Marsaglia), the high 32 bits.
 * Seeded, so a failing run repeats: a test file defines TEST_RNG_SEED
 * before including this header to have a sequence of its own.
 */

#include <stdint.h>

#ifndef TEST_RNG_SEED
#define TEST_RNG_SEED 0x9e3779b97f4a7c15ull
#endif

static uint64_t rng = TEST_RNG_SEED;

static inline uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

#endif /* TEST_RNG_H */
