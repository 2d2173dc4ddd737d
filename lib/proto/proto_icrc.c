/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * RoCEv2 invariant CRC (doc/wire.md section 6).  CRC-32 (the Ethernet CRC)
 * over 8 bytes of 0xFF, the IP+UDP+BTH headers with the variant fields set
 * to ones and the rest of the datagram.
 *
 * Two implementations, same result:
 *  - DPDK's rte_net_crc (PCLMULQDQ folding) over a masked linear copy on
 *    the stack, for datagrams up to ICRC_FAST_MAX bytes, once
 *    pcc_proto_crc_init() found the CPU support and the EAL allows 128-bit
 *    vectors.  It cannot chain, hence the copy; still 2x (330 B) to 5x
 *    (64 B) faster than zlib here.
 *  - zlib's crc32(), which chains: masked header copy, then the payload in
 *    place.  Used before pcc_proto_crc_init(), without EAL, and for larger
 *    datagrams.
 */

#include <pthread.h>
#include <stdbool.h>
#include <zlib.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cpuflags.h>
#include <rte_mbuf.h>
#include <rte_net_crc.h>
#include <rte_vect.h>
#ifdef RTE_ARCH_X86
#include <immintrin.h>
#endif

#include "proto_internal.h"

#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
/*
 * The common headers (IPv4 without options, IPv6) as 64-bit words with
 * the masked bytes ORed in, stored once: byte stores over a block that
 * the CRC then reads in 16-byte loads stall on store forwarding, and a
 * variable-length copy became `rep movs` (doc/perf.md, "ICRC
 * verification").  IPv4 with options: the byte path below.  Words little
 * endian: byte k of a word is bits 8k..8k+7.
 */
static inline int
mask_hdrs_words(const uint8_t *ip, uint32_t len, uint8_t *out)
{
	uint64_t w[8];

	if ((ip[0] >> 4) == 4 && (ip[0] & 0xf) == 5) {
		/* 20 IP + 8 UDP + 12 BTH = 40 bytes */
		if (len < 40)
			return PCC_PROTO_ERR_TRUNCATED;
		memcpy(w, ip, 40);
		w[0] |= UINT64_C(0xff00);     /* TOS (byte 1) */
		w[1] |= UINT64_C(0xffff00ff); /* TTL (8), checksum (10, 11) */
		w[3] |= UINT64_C(0xffff0000); /* UDP checksum (26, 27) */
		w[4] |= UINT64_C(0xff);       /* BTH byte 4 (32) */
		memcpy(out, w, 40);
		return 40;
	}
	if ((ip[0] >> 4) == 6) {
		/* 40 IP + 8 UDP + 12 BTH = 60 bytes */
		if (len < 60)
			return PCC_PROTO_ERR_TRUNCATED;
		memcpy(w, ip, 60); /* no further: len may end here */
		/* traffic class and flow label (byte 0 low nibble, 1..3),
		 * hop limit (7) */
		w[0] |= UINT64_C(0xff000000ffffff0f);
		w[5] |= UINT64_C(0xffff) << 48; /* UDP checksum (46, 47) */
		w[6] |= UINT64_C(0xff) << 32;   /* BTH byte 4 (52) */
		memcpy(out, w, 60);
		return 60;
	}
	return 0; /* not a common header: the generic path */
}
#endif

int
proto_icrc_mask_hdrs(const uint8_t *ip, uint32_t len, uint8_t out[PROTO_ICRC_HDR_MAX])
{
	uint32_t hl;
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	int n;

	if (len >= 1 && (n = mask_hdrs_words(ip, len, out)) != 0)
		return n;
#endif

	if (len < 1)
		return PCC_PROTO_ERR_TRUNCATED;
	switch (ip[0] >> 4) {
	case 4:
		hl = (ip[0] & 0xf) * 4u;
		if (hl < PCC_IPV4_HDR_LEN)
			return PCC_PROTO_ERR_BAD_LENGTH;
		if (len < hl + PCC_UDP_HDR_LEN + PCC_BTH_LEN)
			return PCC_PROTO_ERR_TRUNCATED;
		memcpy(out, ip, hl + PCC_UDP_HDR_LEN + PCC_BTH_LEN);
		out[1] = 0xff;  /* TOS */
		out[8] = 0xff;  /* TTL */
		out[10] = 0xff; /* header checksum */
		out[11] = 0xff;
		break;
	case 6:
		hl = PCC_IPV6_HDR_LEN;
		if (len < hl + PCC_UDP_HDR_LEN + PCC_BTH_LEN)
			return PCC_PROTO_ERR_TRUNCATED;
		memcpy(out, ip, hl + PCC_UDP_HDR_LEN + PCC_BTH_LEN);
		out[0] |= 0x0f; /* traffic class, flow label */
		out[1] = 0xff;
		out[2] = 0xff;
		out[3] = 0xff;
		out[7] = 0xff; /* hop limit */
		break;
	default:
		return PCC_PROTO_ERR_BAD_VERSION;
	}
	out[hl + 6] = 0xff; /* UDP checksum */
	out[hl + 7] = 0xff;
	out[hl + PCC_UDP_HDR_LEN + 4] = 0xff; /* BTH FECN/BECN/resv */
	return (int)(hl + PCC_UDP_HDR_LEN + PCC_BTH_LEN);
}

uint32_t
proto_icrc_start(const uint8_t *masked, uint32_t n)
{
	static const uint8_t ones[8] = {
		0xff,
		0xff,
		0xff,
		0xff,
		0xff,
		0xff,
		0xff,
		0xff,
	};
	uLong crc;

	crc = crc32(0L, ones, sizeof(ones));
	return (uint32_t)crc32(crc, masked, n);
}

/* Largest datagram (IP header to ICRC) the rte_net_crc path copies. */
#define ICRC_FAST_MAX 2048

static bool icrc_fast;

int
pcc_proto_crc_init(void)
{
	icrc_fast = false;
#ifdef RTE_ARCH_X86
	/* the conditions rte_net_crc_set_alg() checks for its SSE4.2 path,
	 * which it silently replaces with a slow table walk otherwise */
	if (rte_cpu_get_flag_enabled(RTE_CPUFLAG_PCLMULQDQ) > 0 &&
			rte_cpu_get_flag_enabled(RTE_CPUFLAG_SSE4_2) > 0 &&
			rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_128) {
		rte_net_crc_set_alg(RTE_NET_CRC_SSE42);
		icrc_fast = true;
	}
#endif
	return icrc_fast ? 1 : 0;
}

#ifdef RTE_ARCH_X86
/*
 * IPv4 without options (every CNP, ACK and probe the engine sees): the 8
 * bytes of ones and the 40 masked header bytes built in three 16-byte
 * registers and stored once each, so that the CRC's 16-byte loads are
 * forwarded from those stores (doc/perf.md, "ICRC verification").
 */
static inline int
icrc_v4_head(const uint8_t *ip, uint32_t len, uint8_t *buf)
{
	__m128i v0, v1, v2;

	if (len < 40 || ip[0] != 0x45) /* len first: ip[0] may not be there */
		return 0;
	/* buf[0..15]: ones, then header bytes 0..7 (TOS = header byte 1) */
	v0 = _mm_unpacklo_epi64(_mm_set1_epi8((char)0xff),
			_mm_loadl_epi64((const __m128i *)(const void *)ip));
	v0 = _mm_or_si128(v0, _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0));
	/* header bytes 8..23: TTL (8), checksum (10, 11) */
	v1 = _mm_loadu_si128((const __m128i *)(const void *)(ip + 8));
	v1 = _mm_or_si128(v1, _mm_setr_epi8(-1, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
	/* header bytes 24..39: UDP checksum (26, 27), BTH byte 4 (32) */
	v2 = _mm_loadu_si128((const __m128i *)(const void *)(ip + 24));
	v2 = _mm_or_si128(v2, _mm_setr_epi8(0, 0, -1, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0));
	_mm_storeu_si128((__m128i *)(void *)buf, v0);
	_mm_storeu_si128((__m128i *)(void *)(buf + 16), v1);
	_mm_storeu_si128((__m128i *)(void *)(buf + 32), v2);
	return 40;
}
#endif

/* ICRC of a datagram of len <= ICRC_FAST_MAX with rte_net_crc. */
static uint32_t
icrc_calc_fast(const uint8_t *ip, uint32_t len, int *n)
{
	uint8_t buf[8 + ICRC_FAST_MAX];

#ifdef RTE_ARCH_X86
	*n = icrc_v4_head(ip, len, buf);
	if (*n != 0) {
		memcpy(buf + 48, ip + 40, len - 40);
		return rte_net_crc_calc(buf, len + 8, RTE_NET_CRC32_ETH);
	}
#endif
	memset(buf, 0xff, 8);
	*n = proto_icrc_mask_hdrs(ip, len, buf + 8);
	if (*n < 0)
		return 0;
	memcpy(buf + 8 + *n, ip + *n, len - (uint32_t)*n);
	return rte_net_crc_calc(buf, len + 8, RTE_NET_CRC32_ETH);
}

uint32_t
pcc_icrc_calc(const void *ip, uint32_t len, int *err)
{
	uint8_t hdr[PROTO_ICRC_HDR_MAX];
	uint32_t crc;
	int n;

	if (ip == NULL) {
		if (err != NULL)
			*err = PCC_PROTO_ERR_INVAL;
		return 0;
	}
	if (icrc_fast && len <= ICRC_FAST_MAX) {
		crc = icrc_calc_fast(ip, len, &n);
		if (err != NULL)
			*err = n < 0 ? n : 0;
		return crc;
	}
	n = proto_icrc_mask_hdrs(ip, len, hdr);
	if (n < 0) {
		if (err != NULL)
			*err = n;
		return 0;
	}
	crc = proto_icrc_start(hdr, (uint32_t)n);
	crc = (uint32_t)crc32(crc, (const uint8_t *)ip + n, len - (uint32_t)n);
	if (err != NULL)
		*err = 0;
	return crc;
}

static inline uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
			((uint32_t)p[3] << 24);
}

/* Offset of the ICRC of a parsed frame, or a negative error. */
static int64_t
icrc_off(const struct pcc_pkt_info *info)
{
	uint32_t off;

	if (info->bth_off == 0)
		return PCC_PROTO_ERR_NOT_ROCE;
	off = info->payload_off + info->payload_len + info->pad_cnt;
	if (off < (uint32_t)info->bth_off + PCC_BTH_LEN || off > info->frame_len ||
			info->frame_len - off < PCC_ICRC_LEN)
		return PCC_PROTO_ERR_BAD_LENGTH;
	return off;
}

/* ICRC of a parsed frame: *crc computed, *off where the wire ICRC is. */
static int
icrc_of(const uint8_t *f, const struct pcc_pkt_info *info, uint32_t *crc, int64_t *off)
{
	int err;

	if (f == NULL || info == NULL)
		return PCC_PROTO_ERR_INVAL;
	*off = icrc_off(info);
	if (*off < 0)
		return (int)*off;
	*crc = pcc_icrc_calc(f + info->l3_off, (uint32_t)*off - info->l3_off, &err);
	return err < 0 ? err : 0;
}

int
pcc_icrc_verify(const void *frame, const struct pcc_pkt_info *info)
{
	const uint8_t *f = frame;
	int64_t off;
	uint32_t crc;
	int err;

	err = icrc_of(f, info, &crc, &off);
	if (err < 0)
		return err;
	return crc == get_le32(f + off) ? 0 : PCC_PROTO_ERR_BAD_ICRC;
}

int
pcc_icrc_update(void *frame, const struct pcc_pkt_info *info)
{
	uint8_t *f = frame;
	int64_t off;
	uint32_t crc;
	int err;

	err = icrc_of(f, info, &crc, &off);
	if (err < 0)
		return err;
	proto_put_le32(f + off, crc);
	return 0;
}

int
proto_icrc_verify_mbuf(
		const struct rte_mbuf *m, const uint8_t *hdr, const struct pcc_pkt_info *info)
{
	uint8_t masked[PROTO_ICRC_HDR_MAX], wire[PCC_ICRC_LEN];
	const struct rte_mbuf *s;
	const uint8_t *w;
	uint32_t crc, off, left, n;
	int64_t end;
	int hl;

	end = icrc_off(info);
	if (end < 0)
		return (int)end;
	/* headers are within the linear copy (PROTO_PARSE_HDR_MAX) */
	hl = proto_icrc_mask_hdrs(hdr + info->l3_off, (uint32_t)end - info->l3_off, masked);
	if (hl < 0)
		return hl;
	crc = proto_icrc_start(masked, (uint32_t)hl);

	/* the rest of the datagram, segment by segment */
	off = info->l3_off + (uint32_t)hl;
	left = (uint32_t)end - off;
	for (s = m; s != NULL && off >= s->data_len; s = s->next)
		off -= s->data_len;
	while (left > 0 && s != NULL) {
		n = RTE_MIN((uint32_t)(s->data_len - off), left);
		crc = (uint32_t)crc32(crc, rte_pktmbuf_mtod_offset(s, const uint8_t *, off), n);
		left -= n;
		off = 0;
		s = s->next;
	}
	if (left > 0)
		return PCC_PROTO_ERR_TRUNCATED;
	w = rte_pktmbuf_read(m, (uint32_t)end, PCC_ICRC_LEN, wire);
	if (w == NULL)
		return PCC_PROTO_ERR_TRUNCATED;
	return crc == get_le32(w) ? 0 : PCC_PROTO_ERR_BAD_ICRC;
}

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
