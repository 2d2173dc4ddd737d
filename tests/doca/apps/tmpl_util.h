/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TMPL_UTIL_H_
#define TMPL_UTIL_H_

/*
 * Helpers shared by the DOCA-style applications of the DTS suite
 * doca_apps, written the way DOCA samples write their common device
 * header: non-static ALWAYS_INLINE functions in a header that several
 * sources include and that FORCE_INLINE functions call.
 */

#include <stdint.h>

#include <doca_pcc_dev.h>
#include <doca_pcc_dev_utils.h>

#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* Time from b to a on a 32-bit clock that wraps. */
ALWAYS_INLINE uint32_t
tmpl_elapsed32(uint32_t a, uint32_t b)
{
	return a - b;
}

/* A rate clamped to [min_rate, line rate]. */
ALWAYS_INLINE uint32_t
tmpl_rate_clamp(uint64_t rate, uint32_t min_rate)
{
	if (rate < min_rate)
		rate = min_rate;
	if (rate > DOCA_PCC_DEV_MAX_RATE)
		rate = DOCA_PCC_DEV_MAX_RATE;
	return (uint32_t)rate;
}

/* Big-endian fields of packet bytes. */
ALWAYS_INLINE uint32_t
tmpl_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

ALWAYS_INLINE uint16_t
tmpl_be16(const uint8_t *p)
{
	return (uint16_t)(((uint16_t)p[0] << 8) | p[1]);
}

ALWAYS_INLINE void
tmpl_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

ALWAYS_INLINE void
tmpl_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

#endif /* TMPL_UTIL_H_ */
