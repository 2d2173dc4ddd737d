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
 * x^8).  x^(8z) comes from proto_icrc_xpow()'s tables, each product
 * from proto_icrc_words(): one carry-less multiply and its reduction.  A 1 KB data frame's ICRC read every byte
 * (~830 instructions through rte_net_crc, callgrind); now its headers
 * through the register ICRC and two products.
 */

#include <stdint.h>

#include <rte_common.h>

#include "proto_internal.h"

/* a * b mod P: a in the top half of a word of proto_icrc_words()'s sum
 * (as pcc_icrc_patch()'s own products), with or without PCLMULQDQ */
static inline uint32_t
mul_mod_p(uint32_t a, uint32_t b)
{
	const uint64_t d = (uint64_t)a << 32;

	return proto_icrc_words(&d, &b, 1);
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
