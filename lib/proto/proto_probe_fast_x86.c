/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The CCMAD probe fast path with AVX-512 (VL, BW, VBMI) and VPCLMULQDQ on
 * 256-bit vectors, which DPDK's default SIMD width (RTE_VECT_SIMD_256)
 * allows: pcc_probe_fast_reflect() and pcc_probe_fast_reflect_mbufs() on
 * a burst (IPv4 and IPv6 requests), and pcc_probe_fast_answer() on one
 * frame (IPv4).
 *
 * The 128 bytes from the IP header hold every byte the match reads and
 * the answer changes, but the Ethernet addresses.  They are loaded once
 * as four 32-byte quarters.  The match is three masked compares against
 * a request's constant bytes (v4_recipe()).  Each byte of the answer
 * there is a byte of the request (kept or moved: the addresses swapped,
 * the DETH SrcQP into the BTH DestQP, the TID's low bytes into the PSN)
 * or a constant, so a masked byte permute (vpermb) or blend of each
 * quarter with a constant vector builds it; the answer's own fields
 * (times, user data, last dword, DSCP) go into the constants once per
 * burst (the recipe's other constants are read from memory where used,
 * as operands: fewer registers to spill).  The IPv4 header checksum is
 * computed from the new header.  The ICRC is linear: the change of every
 * 8-byte word (request xor answer, the bytes the ICRC masks cleared) times
 * the word's constant x^(8 (bytes after it + 4)), summed, is the change
 * of the ICRC: 16 words, 8 vpclmulqdq (4 on 512-bit vectors, when DPDK's
 * SIMD width allows them).  In a request as the RP builds it (NP times,
 * user data, last dword, the MAD's attribute modifier: 0; checked by the
 * match) the second half's change is the same for the whole burst: its
 * products are summed once per burst, and each request's are only the
 * first half's.  The sums are reduced (a chain of dependent instructions)
 * after every V_PATCH answers, two or four at a time in the lanes of a
 * vector, so that the reductions overlap.  pcc_probe_fast_reflect_mbufs()
 * checks and resets each mbuf in the same pass as its frame's answer.
 *
 * IPv6: from the UDP header on, a request is the IPv4 one 20 bytes
 * further, with the same distances to the end of the datagram (so the
 * same multipliers): the IPv4 recipe answers the 128 bytes from the IPv6
 * header + 20; the header's first word is answered apart, the addresses
 * (its last 32 bytes) by one permute.  The UDP checksum is updated (RFC
 * 1624) from the 16-bit changes summed in the vectors, then the ICRC's.
 * The IPv6 requests of a burst are answered after its IPv4 ones, so that
 * the IPv4 loop stays small.
 *
 * The bytes written are those answer_hw() writes: unit-tested and fuzzed
 * against the generic path, as it is.  Loads and checksums read the
 * bytes little endian, as x86 does.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cpuflags.h>
#include <rte_debug.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_vect.h>

#include "proto_internal.h"

#ifdef RTE_ARCH_X86
#include <immintrin.h>

#define V4_REGION 128
#define V4_LEN (PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN + PCC_BTH_LEN + PCC_DETH_LEN + PCC_PROBE_MAD_LEN)
/* IPv6: the datagram (but the ICRC); where the addresses start; the IP
 * header + V6_SHIFT has the IPv4 region's layout */
#define V6_LEN (V4_LEN - PCC_IPV4_HDR_LEN + PCC_IPV6_HDR_LEN)
#define V6_ADDR 8
#define V6_SHIFT (PCC_IPV6_HDR_LEN - PCC_IPV4_HDR_LEN)

/* offsets in the region (from the IP header) */
#define R_TOS 1
#define R_ID 4
#define R_FRAG 6
#define R_TTL 8
#define R_CSUM 10
#define R_SRC 12
#define R_DST 16
#define R_UDP 20
#define R_BTH (R_UDP + PCC_UDP_HDR_LEN)
#define R_DETH (R_BTH + PCC_BTH_LEN)
#define R_MAD (R_DETH + PCC_DETH_LEN)
#define R_BODY (R_MAD + PCC_MAD_HDR_LEN)
/* body: flags at 5; request send, NP receive, NP send times at 8, 16, 24;
 * user data at 32 (12 bytes); the last dword at 44 (proto_probe.c) */
#define R_FLAGS (R_BODY + 5)
#define R_RECV (R_BODY + 16)
#define R_SEND (R_BODY + 24)
#define R_USER (R_BODY + 32)

/* the constant 16-bit lanes of an answer's IPv4 header, summed as loaded
 * (little endian): version/IHL, the length, DF, TTL and protocol */
#define V4_CSUM0                                                     \
	(0x45u + rte_cpu_to_be_16(V4_LEN + PCC_ICRC_LEN) + 0x0040u + \
			(64u | (PROTO_IPPROTO_UDP << 8)))

_Static_assert(R_RECV % 8 == 0 && R_SEND % 8 == 0 && R_USER % 8 == 0,
		"the answer's words are whole words of the region");
_Static_assert(R_USER + 16 <= V4_REGION, "the answer's bytes lie in the region");

static struct {
	uint8_t idx[V4_REGION];              /* byte i from the request's idx[i] ... */
	uint8_t cst[V4_REGION];              /* ... or this constant */
	uint32_t keep[4];                    /* per quarter: bits of the kept/moved bytes */
	uint32_t keep_tos;                   /* the TOS byte's bit (DSCP: the request's) */
	uint8_t and0[32] __rte_aligned(32);  /* the ECN bits of the TOS cleared */
	uint8_t or2[32] __rte_aligned(32);   /* the response flag */
	uint8_t imask[64] __rte_aligned(32); /* 0 at the bytes the ICRC masks */
	uint64_t k[V4_REGION / 8];           /* the words' multipliers */
	uint8_t me[96] __rte_aligned(32);    /* a request: these bytes ... */
	uint8_t mm[96] __rte_aligned(32);    /* ... under this mask (match) */
	uint8_t xe[64] __rte_aligned(32);    /* the second half of a request as the RP */
	uint8_t xm[64] __rte_aligned(32);    /* builds it: these bytes under this mask */
	/* IPv6: the quarter at the IPv4 region's place (IP header + 20): */
	uint8_t mm6[32] __rte_aligned(32);   /* its match mask (UDP, BTH) */
	uint8_t im6[32] __rte_aligned(32);   /* its bytes in the ICRC change */
	uint8_t swap6[32] __rte_aligned(32); /* the addresses' 32 bytes swapped */
	uint64_t k6[4] __rte_aligned(32);    /* their words' multipliers */
	uint64_t fold;                       /* x^64 mod P, << 2 (V_REDUCE()) */
} v4 __rte_aligned(64);

/* 512-bit vectors allowed (DPDK's SIMD width, at init) */
static bool v_w512;

/* byte i of the answer: the request's byte from */
static void
mv(unsigned int i, unsigned int from, unsigned int n)
{
	unsigned int j;

	for (j = 0; j < n; j++) {
		v4.idx[i + j] = (uint8_t)((from + j) % 32);
		v4.keep[(i + j) / 32] |= 1u << ((i + j) % 32);
		RTE_VERIFY((i + j) / 32 == (from + j) / 32);
	}
}

/* bytes i.. of the answer: big-endian constant v of n bytes */
static void
cst(unsigned int i, uint64_t v, unsigned int n)
{
	unsigned int j;

	for (j = 0; j < n; j++) {
		v4.cst[i + j] = (uint8_t)(v >> (8 * (n - 1 - j)));
		v4.keep[(i + j) / 32] &= ~(1u << ((i + j) % 32));
	}
}

/* bytes i.. of a request: big-endian v of n bytes under mask m */
static void
req(unsigned int i, uint64_t v, uint64_t m, unsigned int n)
{
	unsigned int j;

	for (j = 0; j < n; j++) {
		v4.me[i + j] = (uint8_t)(v >> (8 * (n - 1 - j)));
		v4.mm[i + j] = (uint8_t)(m >> (8 * (n - 1 - j)));
	}
}

/*
 * What pcc_probe_fast_match() accepts over IPv4 (but the UDP source port
 * not 0 and the custom header length at most PCC_PROBE_CUSTOM_MAX, tested
 * apart), and the answer pcc_probe_resp_inplace() writes, byte by byte
 * (as answer_hw()).
 */
static void
v4_recipe(void)
{
	unsigned int i;

	memset(&v4, 0, sizeof(v4));
	/* version 4, IHL 5; total length; no MF, no fragment offset; UDP;
	 * port 4791, UDP length; UD SEND_ONLY, TVer 0, PadCnt 0; the MAD's
	 * versions, class and method GET; attribute; not for the
	 * hardware-NP model; custom header length < 256 */
	req(0, 0x45, 0xff, 1);
	req(2, V4_LEN + PCC_ICRC_LEN, 0xffff, 2);
	req(R_FRAG, 0, 0x3fff, 2);
	req(R_TTL + 1, PROTO_IPPROTO_UDP, 0xff, 1);
	req(R_UDP + 2, PCC_ROCE_UDP_PORT, 0xffff, 2);
	req(R_UDP + 4, V4_LEN + PCC_ICRC_LEN - PCC_IPV4_HDR_LEN, 0xffff, 2);
	req(R_BTH, PCC_OP_UD_SEND_ONLY, 0xff, 1);
	req(R_BTH + 1, 0, 0x3f, 1);
	req(R_MAD, PCC_MAD_BASE_VERSION, 0xff, 1);
	req(R_MAD + 1, PCC_MAD_CLASS, 0xff, 1);
	req(R_MAD + 2, PCC_MAD_CLASS_VERSION, 0xff, 1);
	req(R_MAD + 3, PCC_MAD_METHOD_GET, 0xff, 1);
	req(R_MAD + 16, PCC_MAD_ATTR_RTT, 0xffff, 2);
	req(R_FLAGS, 0, PCC_PROBE_F_HW_NP, 1);
	req(R_FLAGS + 1, 0, 0xff, 1);

	for (i = 0; i < V4_REGION; i++)
		mv(i, i, 1);
	/* IPv4: DSCP (the request's: its byte, ECN cleared), not-ECT; ID 0,
	 * DF; TTL 64; checksum computed; addresses swapped */
	cst(R_TOS, 0, 1);
	v4.keep_tos = 1u << R_TOS;
	memset(v4.and0, 0xff, sizeof(v4.and0));
	v4.and0[R_TOS] = 0xfc;
	cst(R_ID, 0, 2);
	cst(R_FRAG, 0x4000, 2);
	cst(R_TTL, 64, 1);
	cst(R_CSUM, 0, 2);
	mv(R_SRC, R_DST, 4);
	mv(R_DST, R_SRC, 4);
	/* UDP checksum 0; BTH: UD SEND_ONLY, no flags, P_Key, FECN/BECN 0,
	 * DestQP = the DETH SrcQP, AckReq 0, PSN = the TID's low 3 bytes */
	cst(R_UDP + 6, 0, 2);
	cst(R_BTH, PCC_OP_UD_SEND_ONLY, 1);
	cst(R_BTH + 1, 0, 1);
	cst(R_BTH + 2, 0xffff, 2);
	cst(R_BTH + 4, 0, 1);
	mv(R_BTH + 5, R_DETH + 5, 3);
	cst(R_BTH + 8, 0, 1);
	mv(R_BTH + 9, R_MAD + 13, 3);
	/* DETH: Q_Key GSI, SrcQP 1 */
	cst(R_DETH, PCC_GSI_QKEY, 4);
	cst(R_DETH + 4, PCC_GSI_QPN, 4);
	/* MAD header: GET_RESP, status 0, the TID, attribute, the rest 0 */
	cst(R_MAD, PCC_MAD_BASE_VERSION, 1);
	cst(R_MAD + 1, PCC_MAD_CLASS, 1);
	cst(R_MAD + 2, PCC_MAD_CLASS_VERSION, 1);
	cst(R_MAD + 3, PCC_MAD_METHOD_GET_RESP, 1);
	cst(R_MAD + 4, 0, 4);
	cst(R_MAD + 16, PCC_MAD_ATTR_RTT, 2);
	cst(R_MAD + 18, 0, 6);
	/* body: the response flag; the answer's words (set per burst) */
	memset(v4.or2, 0, sizeof(v4.or2));
	v4.or2[R_FLAGS - 64] = PCC_PROBE_F_RESPONSE;
	cst(R_RECV, 0, 8);
	cst(R_SEND, 0, 8);
	cst(R_USER, 0, 8);
	cst(R_USER + 8, 0, 8);
	/* the ICRC masks TOS, TTL, the header checksum, the UDP checksum
	 * and BTH byte 4 */
	memset(v4.imask, 0xff, sizeof(v4.imask));
	v4.imask[R_TOS] = 0;
	v4.imask[R_TTL] = 0;
	v4.imask[R_CSUM] = 0;
	v4.imask[R_CSUM + 1] = 0;
	v4.imask[R_UDP + 6] = 0;
	v4.imask[R_UDP + 7] = 0;
	v4.imask[R_BTH + 4] = 0;
	for (i = 0; i < V4_REGION / 8; i++)
		v4.k[i] = proto_icrc_xpow(V4_LEN - 8 * i - 4);
	/* the bytes of the region's second half that the answer writes, as
	 * the RP's requests have them (the MAD header's reserved bytes and
	 * attribute modifier, the body's NP times, user data and last
	 * dword: 0; the response flag clear): then the change of that half
	 * is the same for every request of a burst (v4_consts()) */
	for (i = V4_REGION / 2; i < V4_REGION; i++) {
		if (v4.keep[i / 32] & (1u << (i % 32)))
			continue;
		v4.xm[i - V4_REGION / 2] = 0xff;
		v4.xe[i - V4_REGION / 2] = i < sizeof(v4.mm) && v4.mm[i] == 0xff ? v4.me[i] : 0;
	}
	v4.xm[R_FLAGS - V4_REGION / 2] |= PCC_PROBE_F_RESPONSE;
	/* IPv6: from the UDP header on, the datagram is the IPv4 one 20
	 * bytes further (same distances to the end: same multipliers); the
	 * IPv4 region's first quarter, at the IPv6 header + 20, holds 20
	 * bytes of addresses (answered apart), then UDP and BTH 0..3 */
	for (i = 0; i < 32; i++) {
		v4.mm6[i] = i < R_UDP ? 0 : v4.mm[i];
		v4.im6[i] = i < R_UDP ? 0 : v4.imask[i];
		v4.swap6[i] = (uint8_t)((i + 16) % 32);
	}
	for (i = 0; i < 4; i++)
		v4.k6[i] = proto_icrc_xpow(V6_LEN - V6_ADDR - 8 * i - 4);
	/* a product's bit k stands for x^(94 - k) (proto_icrc_reduce());
	 * x^64 is its bit 30 */
	v4.fold = (uint64_t)proto_icrc_reduce(1ull << 30, 0) << 2;
}

#define V_ATTR __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,vpclmulqdq,pclmul")))
#define V_INLINE static inline __attribute__((always_inline)) V_ATTR

/* unaligned; masked, so that no compiler tuning splits them in halves */
#define LD(p) _mm256_maskz_loadu_epi8(~(__mmask32)0, (const void *)(p))
/* aligned: a constant of the recipe, read where used */
#define LDA(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define ST(p, v) _mm256_mask_storeu_epi8((void *)(p), ~(__mmask32)0, (v))

/* What a burst's answers share, in registers. */
struct v4_k {
	__m256i idx0, idx1, cst0, cst1, c2, c3, k0, k1, k2, k3, xe2, xe3;
	__m512i z01, z23; /* k0..k3 in two (v4_consts(.., z)) */
	__m128i fold, m31, m32, poly;
	__m128i c23;   /* the sum of products of a request's second half
	                * changed as the RP's requests are (xe, xm) */
	uint32_t cs23; /* and its change of the UDP checksum (IPv6) */
	__mmask32 keep0, keep1, keep2, keep3;
	int tos; /* the DSCP given (<< 2), or -1 */
};

/*
 * The sum of the products of two quarters' changes da, db with their
 * words' multipliers ka, kb (zk: both in one 512-bit vector), in 128-bit
 * lanes: 4 vpclmulqdq on 256-bit vectors, or (z) 2 on 512-bit ones (as
 * many products; the CPU's carry-less multiplier takes one instruction at
 * a time, whatever its width).
 */
V_INLINE __m256i
v_prod2(__m256i da, __m256i ka, __m256i db, __m256i kb, __m512i zk, bool z)
{
	if (z) {
		__m512i a = _mm512_inserti64x4(_mm512_castsi256_si512(da), db, 1);
		__m512i q;

		q = _mm512_xor_si512(_mm512_clmulepi64_epi128(a, zk, 0x00),
				_mm512_clmulepi64_epi128(a, zk, 0x11));
		return _mm256_xor_si256(_mm512_castsi512_si256(q), _mm512_extracti64x4_epi64(q, 1));
	}
	return _mm256_xor_si256(_mm256_ternarylogic_epi64(_mm256_clmulepi64_epi128(da, ka, 0x00),
						_mm256_clmulepi64_epi128(da, ka, 0x11),
						_mm256_clmulepi64_epi128(db, kb, 0x00), 0x96),
			_mm256_clmulepi64_epi128(db, kb, 0x11));
}

/* a 256-bit vector's two 128-bit lanes, summed */
V_INLINE __m128i
v_lanes(__m256i p)
{
	return _mm_xor_si128(_mm256_castsi256_si128(p), _mm256_extracti128_si256(p, 1));
}

/*
 * The ones'-complement change of the 16-bit lanes (as loaded) from o to
 * n, in 32-bit lanes (new + ~old, RFC 1624; a lane that does not change
 * adds 0xffff, 0 in ones'-complement arithmetic).
 */
V_INLINE __m256i
v_csum(__m256i n, __m256i o)
{
	const __m256i lo = _mm256_set1_epi32(0xffff);
	__m256i no = _mm256_ternarylogic_epi64(o, o, o, 0x55);

	return _mm256_add_epi32(_mm256_add_epi32(_mm256_and_si256(n, lo), _mm256_srli_epi32(n, 16)),
			_mm256_add_epi32(_mm256_and_si256(no, lo), _mm256_srli_epi32(no, 16)));
}

/* the eight 32-bit lanes of v, summed (each below 2^20) */
V_INLINE uint32_t
v_hsum(__m256i v)
{
	__m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));

	x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
	x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xb1));
	return (uint32_t)_mm_cvtsi128_si32(x);
}

V_INLINE void
v4_consts(struct v4_k *k, const struct pcc_probe_fast_ans *a, bool z)
{
	uint64_t u;

	k->idx0 = LD(v4.idx);
	k->idx1 = LD(v4.idx + 32);
	k->cst0 = LD(v4.cst);
	k->cst1 = LD(v4.cst + 32);
	k->keep0 = v4.keep[0];
	k->keep1 = v4.keep[1];
	k->keep2 = v4.keep[2];
	k->keep3 = v4.keep[3];
	if (a->dscp >= 0) {
		k->tos = a->dscp << 2;
		k->cst0 = _mm256_mask_set1_epi8(k->cst0, v4.keep_tos, (char)k->tos);
	} else {
		k->tos = -1;
		k->keep0 |= v4.keep_tos;
	}
	/* the answer's words: NP receive and send times (big endian), user
	 * data, last dword (big endian) */
	k->c2 = _mm256_mask_set1_epi64(LD(v4.cst + 64), 1u << ((R_RECV - 64) / 8),
			(long long)rte_cpu_to_be_64(a->np_recv_ts));
	k->c3 = _mm256_mask_set1_epi64(LD(v4.cst + 96), 1u << ((R_SEND - 96) / 8),
			(long long)rte_cpu_to_be_64(a->np_send_ts));
	memcpy(&u, a->user, 8);
	k->c3 = _mm256_mask_set1_epi64(k->c3, 1u << ((R_USER - 96) / 8), (long long)u);
	u = 0;
	memcpy(&u, a->user + 8, 4);
	u |= (uint64_t)rte_cpu_to_be_32(a->resp_ts) << 32;
	k->c3 = _mm256_mask_set1_epi64(k->c3, 1u << ((R_USER + 8 - 96) / 8), (long long)u);
	k->k0 = LD(v4.k);
	k->k1 = LD(v4.k + 4);
	k->k2 = LD(v4.k + 8);
	k->k3 = LD(v4.k + 12);
	k->fold = _mm_cvtsi64_si128((long long)v4.fold);
	k->m31 = _mm_cvtsi32_si128(0x7fffffff);
	k->m32 = _mm_cvtsi32_si128(-1);
	/* P and Barrett's mu = x^64 / P, 33 bits, reflected */
	k->poly = _mm_set_epi64x(0x1F7011641ll, 0x1DB710641ll);
	k->xe2 = LD(v4.xe);
	k->xe3 = LD(v4.xe + 32);
	if (z) {
		k->z01 = _mm512_inserti64x4(_mm512_castsi256_si512(k->k0), k->k1, 1);
		k->z23 = _mm512_inserti64x4(_mm512_castsi256_si512(k->k2), k->k3, 1);
	}
	/* such a request's second half changes by: the answer's bytes xor
	 * the request's where the answer writes, the response flag */
	k->c23 = v_lanes(v_prod2(_mm256_or_si256(_mm256_maskz_mov_epi8(~k->keep2,
								 _mm256_xor_si256(k->c2, k->xe2)),
						 LDA(v4.or2)),
			k->k2, _mm256_maskz_mov_epi8(~k->keep3, _mm256_xor_si256(k->c3, k->xe3)),
			k->k3, k->z23, z));
	k->cs23 = v_hsum(_mm256_add_epi32(
			v_csum(_mm256_or_si256(_mm256_maskz_mov_epi8(~k->keep2, k->c2),
					       LDA(v4.or2)),
					_mm256_maskz_mov_epi8(~k->keep2, k->xe2)),
			v_csum(_mm256_maskz_mov_epi8(~k->keep3, k->c3),
					_mm256_maskz_mov_epi8(~k->keep3, k->xe3))));
}

/*
 * The CRCs of sums of products, one in each 128-bit lane of s (bit k for
 * x^(94 - k)), in the lanes' second dwords: a sum's top 31 bits (x^94..
 * x^64) folded by x^64 mod P into the 64 bits below, then a Barrett
 * reduction of those (the constants of zlib's and Linux's CRC-32 with
 * PCLMULQDQ).  As proto_icrc_reduce(), which the unit tests compare.  A
 * chain of dependent instructions: several sums at a time, two (256-bit
 * vectors) or four (z, 512-bit).
 */
#define V_REDUCE(s, k, W, SFX)                                                                    \
	({                                                                                        \
		__m##W##i a_, x_, m31_ = SFX##_broadcast(k->m31), m32_ = SFX##_broadcast(k->m32), \
				  poly_ = SFX##_broadcast(k->poly);                               \
                                                                                                  \
		a_ = _mm##W##_or_si##W(_mm##W##_srli_epi64(s, 31),                                \
				_mm##W##_slli_epi64(_mm##W##_bsrli_epi128(s, 8), 33));            \
		a_ = _mm##W##_xor_si##W(a_,                                                       \
				_mm##W##_clmulepi64_epi128(_mm##W##_and_si##W(s, m31_),           \
						SFX##_broadcast(k->fold), 0x00));                 \
		x_ = _mm##W##_clmulepi64_epi128(_mm##W##_and_si##W(a_, m32_), poly_, 0x10);       \
		x_ = _mm##W##_clmulepi64_epi128(_mm##W##_and_si##W(x_, m32_), poly_, 0x00);       \
		_mm##W##_xor_si##W(x_, a_);                                                       \
	})
/* A burst's ICRCs are patched every V_PATCH answers: while the answers'
 * lines are at hand (measured: 8 answers between patches are 1.5-2 ns a
 * request faster than a burst of 32's patched after all of them, 4 or 16
 * slower than 8) */
#define V_PATCH 8
#define y_broadcast _mm256_broadcastsi128_si256
#define z_broadcast _mm512_broadcast_i32x4

/*
 * Is the datagram at ip (length checked) a request the fast path answers?
 * 0: no; 1: yes; 2: yes, and its second half is as the RP builds it.  mm0:
 * the first quarter's mask (IPv6: the UDP and BTH bytes only; ip is then
 * the IPv6 header + V6_SHIFT).
 */
V_INLINE int
v4_match(const uint8_t *ip, __m256i o0, __m256i o1, __m256i o2, __m256i o3, __m256i mm0)
{
	__m256i d, x;

	d = _mm256_ternarylogic_epi64(o0, LDA(v4.me), mm0, 0x28);
	d = _mm256_or_si256(
			d, _mm256_ternarylogic_epi64(o1, LDA(v4.me + 32), LDA(v4.mm + 32), 0x28));
	d = _mm256_or_si256(
			d, _mm256_ternarylogic_epi64(o2, LDA(v4.me + 64), LDA(v4.mm + 64), 0x28));
	if (_mm256_test_epi64_mask(d, d) != 0 || (ip[R_UDP] | ip[R_UDP + 1]) == 0 ||
			ip[R_FLAGS + 2] > PCC_PROBE_CUSTOM_MAX)
		return 0;
	x = _mm256_or_si256(_mm256_ternarylogic_epi64(o2, LDA(v4.xe), LDA(v4.xm), 0x28),
			_mm256_ternarylogic_epi64(o3, LDA(v4.xe + 32), LDA(v4.xm + 32), 0x28));
	return _mm256_test_epi64_mask(x, x) == 0 ? 2 : 1;
}

/* Ethernet: back to the sender (the addresses swapped); the VLAN tag
 * stays */
static inline void
v_eth(uint8_t *f)
{
	uint64_t x, y, dst, src;
	uint32_t ua;

	memcpy(&x, f, 8);
	memcpy(&y, f + 4, 8);
	dst = x & 0xffffffffffffull;
	src = y >> 16;
	x = src | (dst << 48);
	memcpy(f, &x, 8);
	ua = (uint32_t)(dst >> 16);
	memcpy(f + 8, &ua, 4);
}

/* the answer's quarters 1..3 (of the IPv4 region's layout) */
V_INLINE void
v_n123(const struct v4_k *k, __m256i o1, __m256i o2, __m256i o3, __m256i *n1, __m256i *n2,
		__m256i *n3)
{
	*n1 = _mm256_mask_permutexvar_epi8(k->cst1, k->keep1, k->idx1, o1);
	*n2 = _mm256_or_si256(_mm256_mask_blend_epi8(k->keep2, k->c2, o2), LDA(v4.or2));
	*n3 = _mm256_mask_blend_epi8(k->keep3, k->c3, o3);
}

/* the sum of products of quarters 2 and 3's change: the burst's for a
 * request whose second half is as the RP builds it (rp) */
V_INLINE __m128i
v_sum23(const struct v4_k *k, __m256i o2, __m256i n2, __m256i o3, __m256i n3, bool z, bool rp)
{
	if (rp)
		return k->c23;
	return v_lanes(v_prod2(_mm256_xor_si256(o2, n2), k->k2, _mm256_xor_si256(o3, n3), k->k3,
			k->z23, z));
}

/*
 * The answer of the request whose region (at ip) holds o0..o3, but for the
 * ICRC: returns the sum of products to reduce and xor into it
 * (v4_icrc()), so that a burst's reductions, a long chain of dependent
 * instructions each, overlap.  rp: the request's second half is as the RP
 * builds it (v4_match() 2), its change the burst's (c23).
 */
V_INLINE __m128i
v4_answer(const struct v4_k *k, uint8_t *f, uint8_t *ip, __m256i o0, __m256i o1, __m256i o2,
		__m256i o3, bool z, bool rp)
{
	__m256i n0, n1, n2, n3;
	__m128i p;
	uint64_t w, sum;
	__mmask32 keep0 = k->keep0;
	uint16_t ck;
	int tos;

	v_eth(f);
	tos = k->tos >= 0 ? k->tos : (ip[R_TOS] & 0xfc);
	n0 = _mm256_mask_permutexvar_epi8(k->cst0, keep0, k->idx0, o0);
	n0 = _mm256_and_si256(n0, LDA(v4.and0));
	v_n123(k, o1, o2, o3, &n1, &n2, &n3);
	/* the ICRC's change: (old ^ new) & mask (ternary logic 0x28); the
	 * header checksum, masked, is not in it yet */
	p = _mm_xor_si128(
			v_lanes(v_prod2(_mm256_ternarylogic_epi64(o0, n0, LDA(v4.imask), 0x28),
					k->k0,
					_mm256_ternarylogic_epi64(o1, n1, LDA(v4.imask + 32), 0x28),
					k->k1, k->z01, z)),
			v_sum23(k, o2, n2, o3, n3, z, rp));
	/* the IPv4 header checksum, over the new header: version/IHL 0x45,
	 * TOS, the length matched, ID 0, DF, TTL 64, UDP (constants, in
	 * V4_CSUM0), the addresses (swapped: the same sum); 16-bit lanes as
	 * loaded */
	memcpy(&w, ip + R_SRC, 8);
	sum = V4_CSUM0 + ((uint64_t)tos << 8) + (w & 0xffffffffu) + (w >> 32);
	ck = (uint16_t)~proto_csum_fold((uint32_t)((sum & 0xffffffffu) + (sum >> 32)));
	n0 = _mm256_mask_set1_epi16(n0, 1u << (R_CSUM / 2), (short)ck);
	ST(ip, n0);
	ST(ip + 32, n1);
	ST(ip + 64, n2);
	ST(ip + 96, n3);
	return p;
}

/* an IPv6 request's first word: version 6, payload length, next header
 * UDP (under V6_M0) */
#define V6_W0                                                                                 \
	(0x60ull | (uint64_t)((V6_LEN - PCC_IPV6_HDR_LEN + PCC_ICRC_LEN) >> 8) << 32 |        \
			(uint64_t)((V6_LEN - PCC_IPV6_HDR_LEN + PCC_ICRC_LEN) & 0xff) << 40 | \
			(uint64_t)PROTO_IPPROTO_UDP << 48)
#define V6_M0 (0xf0ull | 0xffffffull << 32)
/* the first quarter (at the IPv6 header + V6_SHIFT): addresses and UDP
 * kept, BTH 0..3 the answer's */
#define V6_KEEP0 ((1u << R_BTH) - 1)
_Static_assert(R_BTH + 4 == 32, "BTH 0..3 end the first quarter");
_Static_assert(V6_ADDR + 32 == PCC_IPV6_HDR_LEN, "the addresses end the IPv6 header");

/* the sum of products of one quarter's change d with its multipliers kv */
V_INLINE __m128i
v_prod1(__m256i d, __m256i kv)
{
	return v_lanes(_mm256_xor_si256(_mm256_clmulepi64_epi128(d, kv, 0x00),
			_mm256_clmulepi64_epi128(d, kv, 0x11)));
}

/*
 * The answer of the IPv6 request whose IPv4-like region (at the IPv6
 * header ip + V6_SHIFT) holds o0..o3: as v4_answer(), the first 40 bytes
 * apart (the first word, scalar; the addresses, one byte permute); *cks
 * gets the change of the UDP checksum but for the ICRC's (v_icrc()).
 */
V_INLINE __m128i
v6_answer(const struct v4_k *k, uint8_t *f, uint8_t *ip, __m256i o0, __m256i o1, __m256i o2,
		__m256i o3, bool z, bool rp, uint32_t *cks)
{
	const __mmask32 bth = ~(__mmask32)V6_KEEP0;
	__m256i oa = LD(ip + V6_ADDR), na, n0, n1, n2, n3, cs;
	uint8_t *r = ip + V6_SHIFT;
	__m128i p;
	uint64_t w;
	int dscp;

	v_eth(f);
	/* version 6, DSCP, not-ECT, flow label 0 (all masked by the ICRC);
	 * length and next header kept; hop limit 64 (masked) */
	memcpy(&w, ip, 8);
	dscp = k->tos >= 0 ? k->tos >> 2 : (int)(((w & 0x0f) << 2) | ((w >> 14) & 0x03));
	w = (w & (0xffffffull << 32)) | (uint64_t)(0x60 | (dscp >> 2)) |
			(uint64_t)((dscp & 3) << 6) << 8 | 64ull << 56;
	na = _mm256_permutexvar_epi8(LDA(v4.swap6), oa);
	n0 = _mm256_mask_blend_epi8(V6_KEEP0, LDA(v4.cst), o0);
	v_n123(k, o1, o2, o3, &n1, &n2, &n3);
	p = _mm_xor_si128(
			v_lanes(v_prod2(_mm256_ternarylogic_epi64(o0, n0, LDA(v4.im6), 0x28), k->k0,
					_mm256_ternarylogic_epi64(o1, n1, LDA(v4.imask + 32), 0x28),
					k->k1, k->z01, z)),
			v_sum23(k, o2, n2, o3, n3, z, rp));
	p = _mm_xor_si128(p, v_prod1(_mm256_xor_si256(oa, na), LDA(v4.k6)));
	/* the UDP checksum's change: BTH 0..3, then the rest of the region
	 * (the UDP header is kept; the ICRC's change later) */
	cs = _mm256_add_epi32(
			v_csum(_mm256_maskz_mov_epi8(bth, n0), _mm256_maskz_mov_epi8(bth, o0)),
			v_csum(n1, o1));
	if (!rp)
		cs = _mm256_add_epi32(cs, _mm256_add_epi32(v_csum(n2, o2), v_csum(n3, o3)));
	*cks = v_hsum(cs) + (rp ? k->cs23 : 0);
	/* the first quarter's addresses are then the swapped ones */
	ST(r, n0);
	ST(ip + V6_ADDR, na);
	memcpy(ip, &w, 8);
	ST(r + 32, n1);
	ST(r + 64, n2);
	ST(r + 96, n3);
	return p;
}

/* The ICRC at r + V4_LEN (r: the region) patched by c (the CRC of a
 * change). */
static inline void
v4_icrc(uint8_t *r, uint32_t c)
{
	uint32_t icrc;

	memcpy(&icrc, r + V4_LEN, 4);
	icrc ^= rte_cpu_to_le_32(c);
	memcpy(r + V4_LEN, &icrc, 4);
}

/*
 * IPv6: the UDP checksum of the answer at r (its region) once its ICRC
 * (formerly old) is patched: RFC 1624, ~(~HC + the changes), s and the
 * ICRC's; the pseudo header does not change (addresses swapped, same
 * length).
 */
static inline void
v6_udp_ck(uint8_t *r, uint32_t s, uint32_t old)
{
	uint32_t icrc, sum;
	uint16_t u;

	memcpy(&icrc, r + V4_LEN, 4);
	memcpy(&u, r + R_UDP + 6, 2);
	sum = s + (uint16_t)~u + (~old & 0xffff) + (~old >> 16) + (icrc & 0xffff) + (icrc >> 16);
	u = (uint16_t)~proto_csum_fold(sum);
	if (u == 0)
		u = 0xffff;
	memcpy(r + R_UDP + 6, &u, 2);
}

V_ATTR int
proto_probe_fast_answer_v4(uint8_t *f, int layout, const struct pcc_probe_fast_ans *a)
{
	uint32_t l3 = PCC_ETH_HDR_LEN + ((layout & PCC_PROBE_FAST_VLAN) ? PCC_VLAN_HDR_LEN : 0);
	uint8_t *ip = f + l3;
	const struct v4_k *kp;
	struct v4_k k;
	__m256i s;

	v4_consts(&k, a, false);
	kp = &k;
	s = _mm256_zextsi128_si256(v4_answer(
			kp, f, ip, LD(ip), LD(ip + 32), LD(ip + 64), LD(ip + 96), false, false));
	s = V_REDUCE(s, kp, 256, y);
	v4_icrc(ip, (uint32_t)_mm256_extract_epi32(s, 1));
	return (int)(l3 + V4_LEN + PCC_ICRC_LEN);
}

/* The sums s[0..nv) reduced and xored into the ICRCs of the regions
 * r[0..nv): two or (z) four at a time. */
V_INLINE void
v_patch(__m128i *sums, uint8_t *const *ips, unsigned int nv, const struct v4_k *kp, bool z)
{
	unsigned int i;

	if (z) {
		for (i = nv; i % 4 != 0; i++)
			sums[i] = _mm_setzero_si128();
		for (i = 0; i < nv; i += 4) {
			__m512i s = _mm512_load_si512(&sums[i]);
			uint64_t c01, c23;

			s = V_REDUCE(s, kp, 512, z);
			/* the lanes' second dwords: to the first four */
			s = _mm512_permutexvar_epi32(_mm512_setr_epi32(1, 5, 9, 13, 0, 0, 0, 0, 0,
								     0, 0, 0, 0, 0, 0, 0),
					s);
			c01 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(s));
			c23 = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(s), 1);
			v4_icrc(ips[i], (uint32_t)c01);
			if (i + 1 < nv)
				v4_icrc(ips[i + 1], (uint32_t)(c01 >> 32));
			if (i + 2 < nv)
				v4_icrc(ips[i + 2], (uint32_t)c23);
			if (i + 3 < nv)
				v4_icrc(ips[i + 3], (uint32_t)(c23 >> 32));
		}
	} else {
		if (nv % 2 != 0)
			sums[nv] = _mm_setzero_si128();
		for (i = 0; i < nv; i += 2) {
			__m256i s = _mm256_load_si256((const __m256i *)&sums[i]);

			s = V_REDUCE(s, kp, 256, y);
			v4_icrc(ips[i], (uint32_t)_mm256_extract_epi32(s, 1));
			if (i + 1 < nv)
				v4_icrc(ips[i + 1], (uint32_t)_mm256_extract_epi32(s, 5));
		}
	}
}

/* The next frame's lines the match and answer read (headers, MAD, body)
 * and its ICRC's, prefetched. */
V_INLINE void
v_prefetch_frame(const uint8_t *f, uint32_t len)
{
	rte_prefetch0(f);
	rte_prefetch0(f + RTE_CACHE_LINE_SIZE);
	rte_prefetch0(f + 2 * RTE_CACHE_LINE_SIZE);
	rte_prefetch0(f + len - 1);
}

/*
 * A burst: each IPv4 request matched and answered but for its ICRC, the
 * sum of products kept, and every V_PATCH answers the sums reduced, two or
 * (z) four at a time, and the ICRCs patched; then the IPv6 requests alike.
 * mb: the burst is mbufs (pcc_probe_fast_reflect_mbufs()), each checked
 * and, answered, reset in the same pass; *bytes gets the answers' bytes.
 * (A constant flag, not mbufs != NULL, which the compiler cannot decide
 * for the mbuf form: it would compile both modes there, 59 instructions
 * more and ~0.5 ns a request slower.)
 */
V_INLINE uint64_t
reflect_v(void *const *frames, const uint16_t *lens, struct rte_mbuf *const *mbufs, unsigned int n,
		struct pcc_probe_fast_ans *a, bool z, bool mb, uint64_t *bytes)
{
	/* whole vectors of sums (the last one's unused lanes 0) */
	__m128i sums[PCC_PROBE_FAST_BURST + 3] __rte_aligned(64);
	uint8_t *ips[PCC_PROBE_FAST_BURST]; /* the regions */
	/* IPv6 requests: answered after the IPv4 ones (which then have a
	 * loop of their own, small), their UDP checksums after the ICRCs */
	struct v6_req {
		uint8_t i;
		uint8_t *f, *ip;
		uint32_t cks;  /* the UDP checksum's change but the ICRC's */
		uint32_t icrc; /* the request's ICRC */
	} v6[PCC_PROBE_FAST_BURST];
	unsigned int j, n6 = 0, a6 = 0, u6 = 0, nv4;
	uint64_t done = 0;
	unsigned int i, nv = 0, np0 = 0;
	uint64_t nb = 0;
	const struct v4_k *kp;
	struct v4_k k;

	v4_consts(&k, a, z);
	kp = &k;
	for (i = 0; i < n; i++) {
		uint8_t *f, *ip;
		uint32_t len, l3 = PCC_ETH_HDR_LEN;
		__m256i o0, o1, o2, o3;
		uint16_t et;
		int lay;

		if (mb) {
			struct rte_mbuf *m = mbufs[i];

			if (i + 4 < n)
				rte_prefetch0(mbufs[i + 4]);
			if (i + 1 < n)
				v_prefetch_frame(rte_pktmbuf_mtod(mbufs[i + 1], const uint8_t *),
						mbufs[i + 1]->data_len);
			if (!proto_fast_mbuf_ok(m))
				continue;
			f = rte_pktmbuf_mtod(m, uint8_t *);
			len = m->data_len;
		} else {
			f = frames[i];
			len = lens[i];
			if (i + 1 < n)
				v_prefetch_frame(frames[i + 1], lens[i + 1]);
			if (unlikely(f == NULL))
				continue;
		}
		if (unlikely(len < PCC_ETH_HDR_LEN + PCC_VLAN_HDR_LEN))
			continue;
		memcpy(&et, f + 12, 2);
		if (et == RTE_BE16(PCC_ETHER_TYPE_VLAN)) {
			memcpy(&et, f + 16, 2);
			l3 += PCC_VLAN_HDR_LEN;
		}
		ip = f + l3;
		if (et == RTE_BE16(PCC_ETHER_TYPE_IPV6)) {
			/* after this loop (which stays small) */
			if (len == l3 + V6_LEN + PCC_ICRC_LEN)
				v6[n6++] = (struct v6_req){ .i = (uint8_t)i, .f = f, .ip = ip };
			continue;
		}
		if (et != RTE_BE16(PCC_ETHER_TYPE_IPV4) || len != l3 + V4_LEN + PCC_ICRC_LEN)
			continue;
		o0 = LD(ip);
		o1 = LD(ip + 32);
		o2 = LD(ip + 64);
		o3 = LD(ip + 96);
		lay = v4_match(ip, o0, o1, o2, o3, LDA(v4.mm));
		if (lay == 0)
			continue;
		sums[nv] = v4_answer(kp, f, ip, o0, o1, o2, o3, z, lay == 2);
		ips[nv++] = ip;
		done |= 1ull << i;
		if (mb) {
			proto_fast_mbuf_answered(mbufs[i]);
			nb += len;
		}
		/* the ICRCs of the last V_PATCH answers */
		if (nv - np0 == V_PATCH) {
			v_patch(sums + np0, ips + np0, V_PATCH, kp, z);
			np0 = nv;
		}
	}
	nv4 = nv;
	for (j = 0; j < n6; j++) {
		uint8_t *ip = v6[j].ip, *r = ip + V6_SHIFT;
		__m256i o0, o1, o2, o3;
		uint64_t w;
		int lay;

		/* as pcc_probe_fast_match(): a UDP checksum to update */
		memcpy(&w, ip, 8);
		if (((w ^ V6_W0) & V6_M0) != 0 || (r[R_UDP + 6] | r[R_UDP + 7]) == 0)
			continue;
		o0 = LD(r);
		o1 = LD(r + 32);
		o2 = LD(r + 64);
		o3 = LD(r + 96);
		lay = v4_match(r, o0, o1, o2, o3, LDA(v4.mm6));
		if (lay == 0)
			continue;
		memcpy(&v6[a6].icrc, r + V4_LEN, 4);
		sums[nv] = v6_answer(kp, v6[j].f, ip, o0, o1, o2, o3, z, lay == 2, &v6[a6].cks);
		ips[nv++] = r;
		done |= 1ull << v6[j].i;
		if (mb) {
			proto_fast_mbuf_answered(mbufs[v6[j].i]);
			nb += mbufs[v6[j].i]->data_len;
		}
		a6++;
		/* the ICRCs, then the UDP checksums */
		if (nv - np0 == V_PATCH) {
			v_patch(sums + np0, ips + np0, V_PATCH, kp, z);
			np0 = nv;
			for (; u6 < a6; u6++)
				v6_udp_ck(ips[nv4 + u6], v6[u6].cks, v6[u6].icrc);
		}
	}
	v_patch(sums + np0, ips + np0, nv - np0, kp, z);
	for (; u6 < a6; u6++)
		v6_udp_ck(ips[nv4 + u6], v6[u6].cks, v6[u6].icrc);
	if (mb)
		*bytes = nb;
	return done;
}

V_ATTR uint64_t
proto_probe_fast_reflect_v(void *const *frames, const uint16_t *lens, unsigned int n,
		struct pcc_probe_fast_ans *a)
{
	if (v_w512)
		return reflect_v(frames, lens, NULL, n, a, true, false, NULL);
	return reflect_v(frames, lens, NULL, n, a, false, false, NULL);
}

V_ATTR uint64_t
proto_probe_fast_reflect_mbufs_v(struct rte_mbuf *const *pkts, unsigned int n,
		struct pcc_probe_fast_ans *a, uint64_t *bytes)
{
	if (v_w512)
		return reflect_v(NULL, NULL, pkts, n, a, true, true, bytes);
	return reflect_v(NULL, NULL, pkts, n, a, false, true, bytes);
}

bool
proto_probe_fast_v_init(void)
{
	/* 0: the EAL is not initialised (unit tests), its default then */
	uint16_t simd = rte_vect_get_max_simd_bitwidth();

	if (rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX512F) <= 0 ||
			rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX512BW) <= 0 ||
			rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX512VL) <= 0 ||
			rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX512VBMI) <= 0 ||
			rte_cpu_get_flag_enabled(RTE_CPUFLAG_VPCLMULQDQ) <= 0 ||
			rte_cpu_get_flag_enabled(RTE_CPUFLAG_PCLMULQDQ) <= 0 ||
			(simd != 0 && simd < RTE_VECT_SIMD_256))
		return false;
	v4_recipe();
	v_w512 = simd >= RTE_VECT_SIMD_512;
	return true;
}

unsigned int
proto_probe_fast_v_width(unsigned int bits)
{
	v_w512 = bits >= RTE_VECT_SIMD_512;
	return v_w512 ? RTE_VECT_SIMD_512 : RTE_VECT_SIMD_256;
}

#else /* !RTE_ARCH_X86 */

bool
proto_probe_fast_v_init(void)
{
	return false;
}

int
proto_probe_fast_answer_v4(uint8_t *f, int layout, const struct pcc_probe_fast_ans *a)
{
	RTE_SET_USED(f);
	RTE_SET_USED(layout);
	RTE_SET_USED(a);
	return PCC_PROTO_ERR_INVAL;
}

uint64_t
proto_probe_fast_reflect_v(void *const *frames, const uint16_t *lens, unsigned int n,
		struct pcc_probe_fast_ans *a)
{
	RTE_SET_USED(frames);
	RTE_SET_USED(lens);
	RTE_SET_USED(n);
	RTE_SET_USED(a);
	return 0;
}

uint64_t
proto_probe_fast_reflect_mbufs_v(struct rte_mbuf *const *pkts, unsigned int n,
		struct pcc_probe_fast_ans *a, uint64_t *bytes)
{
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	RTE_SET_USED(a);
	*bytes = 0;
	return 0;
}

unsigned int
proto_probe_fast_v_width(unsigned int bits)
{
	RTE_SET_USED(bits);
	return 0;
}

#endif
