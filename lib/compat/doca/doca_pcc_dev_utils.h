/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_DEV_UTILS_H_
#define DOCA_PCC_DEV_UTILS_H_

/**
 * @file
 * dpdk-pcc's DOCA PCC compatibility: fixed point, fences, timers.
 *
 * Fixed point goes to pcc_dev_fxp.h (see there for rounding and edge
 * cases): fxp16 values, 1.0 = 65536.  doca_pcc_dev_mult and
 * doca_pcc_dev_fxp_mult take 64-bit operands, as DOCA's macros do, and
 * equal pcc_dev_mult / pcc_dev_fxp_mult for 32-bit ones.  fls(0) is 0
 * (undefined on DOCA).
 *
 * Timers count microseconds of CLOCK_MONOTONIC (DOCA: the DPA core
 * timer); event timestamps stay nanoseconds of the port clock.
 */

#include <stdint.h>

#include <pcc_dev_fxp.h>
#include <pcc_dev_svc.h>

#include "doca_pcc_dev_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Full 64-bit product. */
FORCE_INLINE uint64_t
doca_pcc_dev_mult(uint64_t a, uint64_t b)
{
	return a * b;
}

/** fxp16 product: (uint32_t)((a * b) >> 16). */
FORCE_INLINE uint32_t
doca_pcc_dev_fxp_mult(uint64_t a, uint64_t b)
{
	if ((a >> 32) == 0 && (b >> 32) == 0)
		return pcc_dev_fxp_mult((uint32_t)a, (uint32_t)b);
	return (uint32_t)(doca_pcc_dev_mult(a, b) >> PCC_DEV_FXP16_SHIFT);
}

/** fxp16 reciprocal 1/x: floor(2^32 / x); 0 and 1 give UINT32_MAX. */
FORCE_INLINE uint32_t
doca_pcc_dev_fxp_recip(uint32_t a_fp)
{
	return pcc_dev_fxp_recip(a_fp);
}

/** fxp16 2^x for a signed fxp16 exponent. */
FORCE_INLINE uint32_t
doca_pcc_dev_fxp_power2(int32_t a_fp)
{
	return pcc_dev_fxp_pow2(a_fp);
}

/** fxp16 log2(x) as signed fxp16. */
FORCE_INLINE int32_t
doca_pcc_dev_fxp_log2(uint32_t a_fp)
{
	return pcc_dev_fxp_log2(a_fp);
}

/** 1-based index of the most significant set bit (0 for 0). */
FORCE_INLINE uint32_t
doca_pcc_dev_fls(uint32_t a)
{
	return pcc_dev_fls(a);
}

/* Fences: the DPA's are memory barriers here. */
#define doca_pcc_dev_fence_all() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define doca_pcc_dev_fence_memory() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define doca_pcc_dev_fence_io() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define doca_pcc_dev_fence_w_r() __atomic_thread_fence(__ATOMIC_SEQ_CST)

/*
 * The DPA compiler's fence intrinsic, which DOCA's NP samples call
 * directly; every variant is a full barrier here.
 */
#ifndef __dpa_thread_fence
#define __DPA_MEMORY 0
#define __DPA_MMIO 1
#define __DPA_SYSTEM 2
#define __DPA_R 1
#define __DPA_W 2
#define __DPA_RW 3
#define __dpa_thread_fence(scope, pred, succ) \
	((void)(scope), (void)(pred), (void)(succ), __atomic_thread_fence(__ATOMIC_SEQ_CST))
#endif

/** Core timer, microseconds of the engine's clock, 64 bits (virtual time
 *  in a simulator run; pcc_dev_time_us()). */
FORCE_INLINE uint64_t
doca_pcc_dev_get_timer(void)
{
	return pcc_dev_time_us();
}

/** Core timer, microseconds, low 32 bits. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_timer_lo(void)
{
	return (uint32_t)pcc_dev_time_us();
}

/** Thread time tick, microseconds (the same clock). */
#define doca_pcc_dev_get_thread_time() pcc_dev_time_us()

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PCC_DEV_UTILS_H_ */
