/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * pcc_cc_icrc_ok_bulk(): the ICRCs of a burst of frames pcc_cc_match()
 * accepted, several frames per vector.
 *
 * The register ICRC (proto_icrc.c, "Short datagrams in registers") reads a
 * datagram of len bytes in 16-byte blocks, ORs the masked header bytes in,
 * multiplies the block at offset p by its constant k[len - 16 - p], sums
 * the products and reduces the sum once.  Frames of the same length share
 * every constant and every mask: with VPCLMULQDQ the 128-bit lanes of one
 * vector take one frame each (2 on 256-bit vectors, 4 on 512-bit ones),
 * the constants broadcast, so a burst of CNPs costs one set of products
 * and one reduction per 2 or 4 frames instead of per frame.  The wire
 * ICRC of each lane is loaded beside it and compared in the vector.  The
 * commonest lengths (CNP, ACK) are unrolled, and a CNP's pad, when zero
 * in every lane, adds no product.
 *
 * Every frame is IPv4 without options (pcc_cc_match() says so), so one
 * mask serves; frames whose length differs from their neighbours', or
 * whose datagram is longer than the constants go, take the one-frame
 * path, pcc_cc_icrc_ok().  The width follows DPDK's SIMD limit
 * (rte_vect_get_max_simd_bitwidth(), read at the first call) and the CPU.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cpuflags.h>
#include <rte_vect.h>
#ifdef RTE_ARCH_X86
#include <immintrin.h>
#endif

#include "pcc_proto_cc.h"
#include "proto_internal.h"

/* the masked bytes of IPv4 without options lie in its first 40 (IP, UDP,
 * BTH): blocks from there on are not ORed */
#define BULK_MASKED (PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN + PCC_BTH_LEN)

static unsigned int bulk_bits; /* 0: one frame at a time; 256; 512 */
static unsigned int bulk_cpu;  /* the widest the CPU has */
static pthread_once_t bulk_once = PTHREAD_ONCE_INIT;
static bool bulk_ready; /* bulk_init() ran: what follows is set */
static const struct proto_icrc_reg_k *bulk_k;
static const uint8_t *bulk_msk; /* IPv4 without options' mask */

/* A CNP's datagram (IPv4 without options): IP, UDP, BTH, 16 bytes of pad */
#define LEN_CNP (PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN + PCC_BTH_LEN + PCC_CNP_PAD_LEN)
/* an ACK's or NAK's: IP, UDP, BTH, AETH */
#define LEN_ACK (PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN + PCC_BTH_LEN + PCC_AETH_LEN)

#ifdef RTE_ARCH_X86
#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define ATTR256 __attribute__((target("avx2,vpclmulqdq,pclmul")))
#define ATTR512 __attribute__((target("avx512f,vpclmulqdq,pclmul")))

/* bytes i of a 16-byte block kept when i >= 16 - keep */
static inline __m128i
tail_keep(uint32_t keep)
{
	return _mm_cmpgt_epi8(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
			_mm_set1_epi8((char)(15 - keep)));
}

/* 256-bit: frames a and b, both datagrams len bytes; bit 0 (a), 1 (b).
 * Inline, so that a constant len unrolls it (the blocks, which are
 * masked, the tail's mask all known). */
ATTR256 static inline __attribute__((always_inline)) unsigned int
ok2(const uint8_t *a, const uint8_t *b, uint32_t len, const uint8_t *msk,
		const struct proto_icrc_reg_k *c)
{
#define L2(off) _mm256_inserti128_si256(_mm256_castsi128_si256(LD(a + (off))), LD(b + (off)), 1)
#define B2(p) _mm256_broadcastsi128_si256(LD(p))
	__m256i s0 = _mm256_setzero_si256(), s1 = _mm256_setzero_si256(), v, k, q, t;
	unsigned int m;
	uint32_t p;

#pragma GCC unroll 8
	for (p = 0; p + 16 <= len; p += 16) {
		v = L2(p);
		if (p < BULK_MASKED)
			v = _mm256_or_si256(v, B2(msk + p));
		k = B2(c->k[len - 16 - p]);
		s0 = _mm256_xor_si256(s0, _mm256_clmulepi64_epi128(v, k, 0x00));
		s1 = _mm256_xor_si256(s1, _mm256_clmulepi64_epi128(v, k, 0x11));
	}
	if (p < len) {
		v = L2(len - 16);
		if (len - 16 < BULK_MASKED)
			v = _mm256_or_si256(v, B2(msk + len - 16));
		v = _mm256_and_si256(v, _mm256_broadcastsi128_si256(tail_keep(len - p)));
		/* a CNP's tail is its pad, zeros: nothing to add */
		if (len != LEN_CNP || !_mm256_testz_si256(v, v)) {
			k = B2(c->k[0]);
			s0 = _mm256_xor_si256(s0, _mm256_clmulepi64_epi128(v, k, 0x00));
			s1 = _mm256_xor_si256(s1, _mm256_clmulepi64_epi128(v, k, 0x11));
		}
	}
	t = _mm256_xor_si256(s0, s1);
	q = _mm256_clmulepi64_epi128(t, B2(c->mu), 0x00);
	q = _mm256_and_si256(q, _mm256_set_epi64x(0, INT64_MAX, 0, INT64_MAX));
	k = B2(c->pl);
	t = _mm256_xor_si256(t, _mm256_clmulepi64_epi128(t, k, 0x00));
	t = _mm256_xor_si256(t, _mm256_clmulepi64_epi128(q, k, 0x10));
	/* the CRC in 32-bit word 2 of each lane; the wire ICRC (bytes len
	 * to len + 3) is word 3 of the block at len - 12, copied to every
	 * word of its lane */
	t = _mm256_xor_si256(t, _mm256_set1_epi32((int)c->fin[len]));
	v = _mm256_shuffle_epi32(L2(len - 12), 0xff);
	m = (unsigned int)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(t, v)));
	/* word 2 of each lane: bits 2 and 6 */
	return ((m >> 2) & 1u) | ((m >> 5) & 2u);
#undef L2
#undef B2
}

/* 512-bit: frames f[0..3], all datagrams len bytes; bits 0..3. */
ATTR512 static inline __attribute__((always_inline)) unsigned int
ok4(const uint8_t *const f[4], uint32_t len, const uint8_t *msk, const struct proto_icrc_reg_k *c)
{
#define L4(off)                                                                                  \
	_mm512_inserti32x4(_mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(LD(      \
										 f[0] + (off))), \
							      LD(f[1] + (off)), 1),              \
					   LD(f[2] + (off)), 2),                                 \
			LD(f[3] + (off)), 3)
#define B4(p) _mm512_broadcast_i32x4(LD(p))
	__m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512(), v, k, q, t;
	uint32_t p;
	__mmask16 eq;

#pragma GCC unroll 8
	for (p = 0; p + 16 <= len; p += 16) {
		v = L4(p);
		if (p < BULK_MASKED)
			v = _mm512_or_si512(v, B4(msk + p));
		k = B4(c->k[len - 16 - p]);
		s0 = _mm512_xor_si512(s0, _mm512_clmulepi64_epi128(v, k, 0x00));
		s1 = _mm512_xor_si512(s1, _mm512_clmulepi64_epi128(v, k, 0x11));
	}
	if (p < len) {
		v = L4(len - 16);
		if (len - 16 < BULK_MASKED)
			v = _mm512_or_si512(v, B4(msk + len - 16));
		v = _mm512_and_si512(v, _mm512_broadcast_i32x4(tail_keep(len - p)));
		if (len != LEN_CNP || _mm512_test_epi64_mask(v, v) != 0) {
			k = B4(c->k[0]);
			s0 = _mm512_xor_si512(s0, _mm512_clmulepi64_epi128(v, k, 0x00));
			s1 = _mm512_xor_si512(s1, _mm512_clmulepi64_epi128(v, k, 0x11));
		}
	}
	t = _mm512_xor_si512(s0, s1);
	q = _mm512_clmulepi64_epi128(t, B4(c->mu), 0x00);
	q = _mm512_and_si512(q, _mm512_set4_epi64(0, INT64_MAX, 0, INT64_MAX));
	k = B4(c->pl);
	t = _mm512_xor_si512(t, _mm512_clmulepi64_epi128(t, k, 0x00));
	t = _mm512_xor_si512(t, _mm512_clmulepi64_epi128(q, k, 0x10));
	t = _mm512_xor_si512(t, _mm512_set1_epi32((int)c->fin[len]));
	v = _mm512_shuffle_epi32(L4(len - 12), (_MM_PERM_ENUM)0xff);
	/* word 2 of each lane: mask bits 2, 6, 10, 14 */
	eq = _mm512_mask_cmpeq_epi32_mask(0x4444, t, v);
	return ((eq >> 2) & 1u) | ((eq >> 5) & 2u) | ((eq >> 8) & 4u) | ((eq >> 11) & 8u);
#undef L4
#undef B4
}

/* ok2() and ok4() unrolled for the commonest lengths, else looped */
ATTR256 static unsigned int
ok2_any(const uint8_t *const f[4], uint32_t len, const uint8_t *msk,
		const struct proto_icrc_reg_k *c)
{
	if (len == LEN_CNP)
		return ok2(f[0], f[1], LEN_CNP, msk, c);
	if (len == LEN_ACK)
		return ok2(f[0], f[1], LEN_ACK, msk, c);
	return ok2(f[0], f[1], len, msk, c);
}

ATTR512 static unsigned int
ok4_any(const uint8_t *const f[4], uint32_t len, const uint8_t *msk,
		const struct proto_icrc_reg_k *c)
{
	if (len == LEN_CNP)
		return ok4(f, LEN_CNP, msk, c);
	if (len == LEN_ACK)
		return ok4(f, LEN_ACK, msk, c);
	return ok4(f, len, msk, c);
}
#endif /* RTE_ARCH_X86 */

static void
bulk_init(void)
{
	bulk_k = proto_icrc_reg_consts();
	bulk_msk = proto_icrc_reg_or(5);
#ifdef RTE_ARCH_X86
	/* 0: the EAL is not initialised (unit tests), its default then */
	uint16_t simd = rte_vect_get_max_simd_bitwidth();

	if (simd == 0)
		simd = RTE_VECT_SIMD_256;
	if (rte_cpu_get_flag_enabled(RTE_CPUFLAG_VPCLMULQDQ) > 0 &&
			rte_cpu_get_flag_enabled(RTE_CPUFLAG_PCLMULQDQ) > 0) {
		if (rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX512F) > 0)
			bulk_cpu = 512;
		else if (rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX2) > 0)
			bulk_cpu = 256;
	}
	bulk_bits = RTE_MIN(bulk_cpu, (unsigned int)simd);
	if (bulk_bits < 256)
		bulk_bits = 0;
#endif
	__atomic_store_n(&bulk_ready, true, __ATOMIC_RELEASE);
}

unsigned int
proto_icrc_bulk_width(unsigned int bits)
{
	pthread_once(&bulk_once, bulk_init);
	if (bits >= 512 && bulk_cpu >= 512)
		bulk_bits = 512;
	else if (bits >= 256 && bulk_cpu >= 256)
		bulk_bits = 256;
	else
		bulk_bits = 0;
	return bulk_bits;
}

uint64_t
pcc_cc_icrc_ok_bulk(const uint8_t *const frames[], const struct pcc_cc_frame cc[], unsigned int n)
{
	const struct proto_icrc_reg_k *c;
	unsigned int i = 0, lanes;
	const uint8_t *msk;
	uint64_t ok = 0;

	if (unlikely(!__atomic_load_n(&bulk_ready, __ATOMIC_ACQUIRE)))
		pthread_once(&bulk_once, bulk_init);
	c = bulk_k;
	msk = bulk_msk;
	lanes = bulk_bits / 128;
	n = RTE_MIN(n, 64u);
	while (i < n) {
#ifdef RTE_ARCH_X86
		const uint16_t l = cc[i].ip_len;

		/* lanes frames of one length, within the constants' reach */
		if (lanes > 1 && i + lanes <= n && cc[i + 1].ip_len == l &&
				(lanes == 2 || (cc[i + 2].ip_len == l && cc[i + 3].ip_len == l)) &&
				l <= PROTO_ICRC_REG_MAX + PCC_ICRC_LEN) {
			const uint8_t *f[4];
			unsigned int j;

			for (j = 0; j < lanes; j++)
				f[j] = frames[i + j] + cc[i + j].l3_off;
			ok |= (uint64_t)(lanes == 4 ? ok4_any(f, l - PCC_ICRC_LEN, msk, c) :
						      ok2_any(f, l - PCC_ICRC_LEN, msk, c))
					<< i;
			i += lanes;
			continue;
		}
#endif
		ok |= (uint64_t)pcc_cc_icrc_ok(frames[i], &cc[i]) << i;
		i++;
	}
	return ok;
}
