/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The ICRC of a datagram that ends in zeros (a payload the builder leaves
 * zero, the pad): the headers' CRC extended over the zeros without reading
 * them.  For a CRC-32 in zlib's conventions (register set to ones, final
 * xor), with a * b the product mod P in the bit order of
 * proto_icrc_patch.c (0x80000000 is 1; zlib's multmodp() is the same):
 *
 *   crc(A, z zero bytes) = x^(8z) * crc(A)  ^  crc(z zero bytes)
 *   crc(z zero bytes)    = ~(x^(8z) * 0xffffffff)
 *
 * (zlib's crc32_combine(): feeding a zero byte multiplies the register by
 * x^8).  x^(8z) comes from proto_icrc_xpow()'s tables, the products from
 * one carry-less multiply each.  A 1 KB data frame's ICRC read every byte
 * (~830 instructions through rte_net_crc, callgrind); now its headers
 * through the register ICRC and two products.
 */

#include <stdint.h>

#include <rte_common.h>
#ifdef RTE_ARCH_X86
#include <immintrin.h>
#endif

#include "proto_internal.h"

/* a * b mod P, carry-less */
#ifdef RTE_ARCH_X86
__attribute__((target("pclmul,sse4.1"))) static uint32_t
mul_hw(uint32_t a, uint32_t b)
{
	__m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)((uint64_t)a << 32)),
			_mm_cvtsi32_si128((int)b), 0);

	return proto_icrc_reduce((uint64_t)_mm_cvtsi128_si64(p), (uint64_t)_mm_extract_epi64(p, 1));
}
#endif

static inline uint32_t
mul_mod_p(uint32_t a, uint32_t b)
{
	struct proto_icrc_acc acc = { 0, 0 };

#ifdef RTE_ARCH_X86
	if (proto_icrc_clmul())
		return mul_hw(a, b);
#endif
	proto_clmul_sw(&acc, (uint64_t)a << 32, b);
	return proto_icrc_reduce(acc.lo, acc.hi);
}

int
proto_icrc_zero_tail(const uint8_t *ip, uint32_t data, uint32_t len, uint32_t *icrc)
{
	uint32_t crc, xz;
	int err;

	if (data > len || data < 1)
		return PCC_PROTO_ERR_INVAL;
	/* the bytes before the zeros, as if they were the datagram */
	crc = pcc_icrc_calc(ip, data, &err);
	if (err < 0)
		return err;
	if (len == data) {
		*icrc = crc;
		return 0;
	}
	xz = proto_icrc_xpow(len - data);
	*icrc = mul_mod_p(xz, crc) ^ ~mul_mod_p(xz, UINT32_MAX);
	return 0;
}
