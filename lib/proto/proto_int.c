/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * HPCC-style INT header (doc/wire.md section 10): five 64-bit big-endian
 * hop words lineRate(3) | time(24) | bytes(20) | qlen(17), MSB first,
 * then a 16-bit big-endian hop count.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto_internal.h"

#define INT_RATE_BITS 3
#define INT_TIME_BITS 24
#define INT_BYTES_BITS 20
#define INT_QLEN_BITS 17

#define INT_QLEN_SHIFT 0
#define INT_BYTES_SHIFT (INT_QLEN_SHIFT + INT_QLEN_BITS)  /* 17 */
#define INT_TIME_SHIFT (INT_BYTES_SHIFT + INT_BYTES_BITS) /* 37 */
#define INT_RATE_SHIFT (INT_TIME_SHIFT + INT_TIME_BITS)   /* 61 */

#define INT_MASK(bits) ((1ull << (bits)) - 1)
#define INT_NHOPS_OFF (PCC_INT_MAX_HOPS * PCC_INT_HOP_LEN)

static const uint32_t int_rate_gbps[] = { 25, 50, 100, 200, 400 };
#define INT_N_RATES (sizeof(int_rate_gbps) / sizeof(int_rate_gbps[0]))

uint32_t
pcc_int_rate_gbps(uint8_t code)
{
	if (code >= INT_N_RATES)
		return 0;
	return int_rate_gbps[code];
}

int
pcc_int_rate_code(uint32_t gbps)
{
	unsigned int i;

	for (i = 0; i < INT_N_RATES; i++)
		if (int_rate_gbps[i] == gbps)
			return (int)i;
	return -1;
}

static uint64_t
int_hop_word(const struct pcc_int_hop *hop)
{
	return ((uint64_t)hop->rate_code << INT_RATE_SHIFT) |
			((uint64_t)hop->time_ns << INT_TIME_SHIFT) |
			((uint64_t)hop->tx_bytes << INT_BYTES_SHIFT) |
			((uint64_t)hop->qlen << INT_QLEN_SHIFT);
}

static bool
int_hop_valid(const struct pcc_int_hop *hop)
{
	return hop->rate_code < INT_N_RATES && hop->time_ns <= INT_MASK(INT_TIME_BITS) &&
			hop->tx_bytes <= INT_MASK(INT_BYTES_BITS) &&
			hop->qlen <= INT_MASK(INT_QLEN_BITS);
}

int
pcc_int_parse(const void *buf, uint32_t len, struct pcc_int_hdr *h)
{
	const uint8_t *p = buf;
	unsigned int i;
	uint16_t n;

	if (buf == NULL || h == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_INT_HDR_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	n = pcc_get_be16(p + INT_NHOPS_OFF);
	if (n > PCC_INT_MAX_HOPS)
		return PCC_PROTO_ERR_BAD_LENGTH;
	memset(h, 0, sizeof(*h));
	h->n_hops = n;
	/* words of unused hop slots are not decoded (left zero in *h) */
	for (i = 0; i < n; i++) {
		uint64_t w = pcc_get_be64(p + i * PCC_INT_HOP_LEN);
		struct pcc_int_hop *hop = &h->hop[i];

		hop->rate_code = (uint8_t)(w >> INT_RATE_SHIFT);
		hop->time_ns = (uint32_t)((w >> INT_TIME_SHIFT) & INT_MASK(INT_TIME_BITS));
		hop->tx_bytes = (uint32_t)((w >> INT_BYTES_SHIFT) & INT_MASK(INT_BYTES_BITS));
		hop->qlen = (uint32_t)((w >> INT_QLEN_SHIFT) & INT_MASK(INT_QLEN_BITS));
		if (hop->rate_code >= INT_N_RATES)
			return PCC_PROTO_ERR_BAD_FIELD;
	}
	return 0;
}

int
pcc_int_build(void *buf, uint32_t cap, const struct pcc_int_hdr *h)
{
	uint8_t *p = buf;
	unsigned int i;

	if (buf == NULL || h == NULL || h->n_hops > PCC_INT_MAX_HOPS)
		return PCC_PROTO_ERR_INVAL;
	for (i = 0; i < h->n_hops; i++)
		if (!int_hop_valid(&h->hop[i]))
			return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_INT_HDR_LEN)
		return PCC_PROTO_ERR_NO_SPACE;
	for (i = 0; i < PCC_INT_MAX_HOPS; i++)
		pcc_put_be64(p + i * PCC_INT_HOP_LEN, i < h->n_hops ? int_hop_word(&h->hop[i]) : 0);
	pcc_put_be16(p + INT_NHOPS_OFF, h->n_hops);
	return PCC_INT_HDR_LEN;
}

int
pcc_int_push_hop(void *buf, uint32_t len, uint8_t rate_code, uint64_t time_ns, uint64_t tx_bytes,
		uint64_t qlen_bytes)
{
	uint8_t *p = buf;
	struct pcc_int_hdr h;
	struct pcc_int_hop hop;
	uint64_t q;
	int rc;

	if (buf == NULL || rate_code >= INT_N_RATES)
		return PCC_PROTO_ERR_INVAL;
	rc = pcc_int_parse(p, len, &h);
	if (rc < 0)
		return rc;
	if (h.n_hops >= PCC_INT_MAX_HOPS)
		return PCC_PROTO_ERR_BAD_LENGTH;

	hop.rate_code = rate_code;
	hop.time_ns = (uint32_t)(time_ns & INT_MASK(INT_TIME_BITS));
	hop.tx_bytes = (uint32_t)((tx_bytes / PCC_INT_BYTES_UNIT) & INT_MASK(INT_BYTES_BITS));
	q = qlen_bytes / PCC_INT_QLEN_UNIT;
	hop.qlen = (uint32_t)(q > INT_MASK(INT_QLEN_BITS) ? INT_MASK(INT_QLEN_BITS) : q);
	pcc_put_be64(p + h.n_hops * PCC_INT_HOP_LEN, int_hop_word(&hop));
	pcc_put_be16(p + INT_NHOPS_OFF, (uint16_t)(h.n_hops + 1));
	return 0;
}
