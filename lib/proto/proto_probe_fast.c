/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The CCMAD probe fast path (pcc_probe_fast_match(), pcc_probe_fast_answer()):
 * a request in the layout pcc_probe_req_build() writes is recognised by a
 * few masked 64-bit compares instead of pcc_parse() + pcc_probe_parse(),
 * and turned into its response with 8-byte loads and stores of the words
 * that change, the ICRC patched from those words with multipliers that
 * are constants of the layout (the distance of every word from the end of
 * the datagram is fixed), the IPv4 header checksum computed from the new
 * words and the IPv6 UDP checksum updated from them (RFC 1624).  The bytes
 * written are those pcc_probe_resp_inplace() writes (unit-tested against
 * it), so the NP may take either path.
 *
 * Words are loaded little endian: byte j of a word is bits 8j..8j+7.
 * Offsets of the datagram from the IP header (ip):
 *
 *   IPv4 (20-byte header)            IPv6
 *    0  ver/ihl tos len id frag       0  vtc_flow plen nh hop
 *    8  ttl proto csum src            8  src (16), dst (16)
 *   16  dst sport dport              40  sport dport len csum
 *   24  len csum BTH 0..3            48  BTH 0..3
 *   32  BTH 4..11 ...                52  BTH 4..11 ...
 *
 * and from BTH byte 4 on, the same 8-byte grid in both: BTH 4..11 (FECN/
 * BECN, DestQP, AckReq, PSN), DETH, MAD header (3 words), the probe body
 * (6 words), which lies at the same distance from the ICRC in both.
 */

#include <pthread.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#ifdef RTE_ARCH_X86
#include <immintrin.h>
#endif

#include "proto_internal.h"

/* IP datagram (ICRC excluded) after the IP header: UDP, BTH, DETH, MAD. */
#define FAST_L4_LEN (PCC_UDP_HDR_LEN + PCC_BTH_LEN + PCC_DETH_LEN + PCC_PROBE_MAD_LEN)
/* UDP length, IPv6 payload length */
#define FAST_UDP_LEN (FAST_L4_LEN + PCC_ICRC_LEN)
/* byte j of a little-endian word */
#define B(j, v) ((uint64_t)(v) << (8 * (j)))
/* bytes j..j+n-1 */
#define M(j, n) ((((n) == 8) ? ~0ull : ((1ull << (8 * (n))) - 1)) << (8 * (j)))

/* words of the common tail, from BTH byte 4 to the end of the body */
#define FAST_TAIL_WORDS 11

_Static_assert(PCC_GSI_QPN == 1, "QP1 is written as one byte");
_Static_assert(PCC_BTH_LEN - 4 + PCC_DETH_LEN + PCC_PROBE_CUSTOM_OFF == 8 * FAST_TAIL_WORDS,
		"the tail is a whole number of words");

/*
 * Multipliers, x^(8 (bytes after the word + 4)) (proto_icrc_words()).
 * Words that change by the same bytes in every request the RP builds (the
 * method, the response flag) are not multiplied: their sum is c_tail, and
 * only what differs from those changes is.  Words whose change is the same
 * value at two places (addresses swapped; the QPN moving from the DETH to
 * the BTH and QP1 from the BTH to the DETH) are multiplied once, by the sum
 * of the two multipliers.
 */
static uint32_t k_tail[FAST_TAIL_WORDS]; /* the tail's words */
static uint32_t k_qpn;                   /* BTH DestQP and DETH SrcQP */
static uint32_t c_tail;                  /* method and response flag */
static uint32_t k_v4[3];                 /* word 0, addresses, word 24 */
static uint32_t k_v6[3];                 /* addresses (two words), BTH 0..3 */
static pthread_once_t fast_once = PTHREAD_ONCE_INIT;
static bool fast_ready;
/* the vector answer (proto_probe_fast_x86.c): the CPU has it; in use */
static bool fast_v_have, fast_v;

/* changes of a request the RP builds, at words 2 (MAD) and 5 (body) */
#define CD_MAD0 B(3, PCC_MAD_METHOD_GET ^ PCC_MAD_METHOD_GET_RESP)
#define CD_BODY0 B(5, PCC_PROBE_F_RESPONSE)

/* multiplier of the word at q of a datagram of len bytes */
static uint32_t
k_at(uint32_t len, uint32_t q)
{
	return proto_icrc_xpow(len - q - 4);
}

static void
fast_init(void)
{
	const uint32_t len4 = PCC_IPV4_HDR_LEN + FAST_L4_LEN;
	const uint32_t len6 = PCC_IPV6_HDR_LEN + FAST_L4_LEN;
	const uint32_t t4 = PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN + 4;
	uint64_t cd[2] = { CD_MAD0, CD_BODY0 };
	uint32_t ck[2];
	unsigned int i;

	/* the tail is as far from the end in both */
	for (i = 0; i < FAST_TAIL_WORDS; i++)
		k_tail[i] = k_at(len4, t4 + 8 * i);
	/* the DETH SrcQP (bytes 5..7 of word 1) as bytes 1..3 of a word 4
	 * bytes further, like the DestQP in word 0 */
	k_qpn = k_tail[0] ^ k_at(len4, t4 + 8 + 4);
	ck[0] = k_tail[2];
	ck[1] = k_tail[5];
	c_tail = proto_icrc_words(cd, ck, 2);
	k_v4[0] = k_at(len4, 0);
	k_v4[1] = k_at(len4, 12) ^ k_at(len4, 16);
	k_v4[2] = k_at(len4, 24);
	k_v6[0] = k_at(len6, 8) ^ k_at(len6, 24);
	k_v6[1] = k_at(len6, 16) ^ k_at(len6, 32);
	k_v6[2] = k_at(len6, PCC_IPV6_HDR_LEN + PCC_UDP_HDR_LEN);
	fast_v_have = proto_probe_fast_v_init();
	fast_v = fast_v_have;
	__atomic_store_n(&fast_ready, true, __ATOMIC_RELEASE);
}

static inline uint64_t
ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return rte_le_to_cpu_64(v);
}

static inline uint32_t
ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return rte_le_to_cpu_32(v);
}

static inline void
st64(uint8_t *p, uint64_t v)
{
	v = rte_cpu_to_le_64(v);
	memcpy(p, &v, 8);
}

static inline void
st32(uint8_t *p, uint32_t v)
{
	v = rte_cpu_to_le_32(v);
	memcpy(p, &v, 4);
}

/* 16-bit ones'-complement lanes of a word, summed into 64 bits */
static inline uint64_t
csum64(uint64_t w)
{
	return (w & 0xffffffffu) + (w >> 32);
}

/* fold a sum of 16-bit lanes to 16 bits (not inverted) */
static inline uint16_t
csum_fold64(uint64_t s)
{
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffffffffu) + (s >> 32);
	return proto_csum_fold((uint32_t)s);
}

int
pcc_probe_fast_match(const void *frame, uint32_t len)
{
	const uint8_t *f = frame, *ip, *bth;
	uint64_t w;
	int lay = PCC_PROBE_FAST_OK;
	uint32_t l3 = PCC_ETH_HDR_LEN;
	uint16_t et;

	if (unlikely(f == NULL || len < PCC_ETH_HDR_LEN + PCC_VLAN_HDR_LEN))
		return 0;
	et = pcc_get_be16(f + 12);
	if (et == PCC_ETHER_TYPE_VLAN) {
		et = pcc_get_be16(f + 16);
		l3 += PCC_VLAN_HDR_LEN;
		lay |= PCC_PROBE_FAST_VLAN;
	}
	ip = f + l3;
	if (likely(et == PCC_ETHER_TYPE_IPV4)) {
		if (len != l3 + PCC_IPV4_HDR_LEN + FAST_UDP_LEN)
			return 0;
		/* version 4, IHL 5; total length; no MF, no fragment offset */
		w = ld64(ip);
		if (((w ^
				     (B(0, 0x45) | B(2, (PCC_IPV4_HDR_LEN + FAST_UDP_LEN) >> 8) |
						     B(3,
								     (PCC_IPV4_HDR_LEN +
										     FAST_UDP_LEN) &
										     0xff))) &
				    (M(0, 1) | M(2, 2) | B(6, 0x3f) | M(7, 1))) != 0 ||
				ip[9] != PROTO_IPPROTO_UDP)
			return 0;
		/* UDP: source port not 0, port 4791, length */
		w = ld64(ip + PCC_IPV4_HDR_LEN);
	} else if (et == PCC_ETHER_TYPE_IPV6) {
		if (len != l3 + PCC_IPV6_HDR_LEN + FAST_UDP_LEN)
			return 0;
		/* version 6; payload length; next header UDP */
		w = ld64(ip);
		if (((w ^
				     (B(0, 0x60) | B(4, FAST_UDP_LEN >> 8) |
						     B(5, FAST_UDP_LEN & 0xff) |
						     B(6, PROTO_IPPROTO_UDP))) &
				    (B(0, 0xf0) | M(4, 3))) != 0)
			return 0;
		w = ld64(ip + PCC_IPV6_HDR_LEN);
		/* a UDP checksum to update (0: pcc_probe_resp_inplace()
		 * computes one) */
		if ((w & M(6, 2)) == 0)
			return 0;
		lay |= PCC_PROBE_FAST_V6;
	} else {
		return 0;
	}
	if ((w & M(0, 2)) == 0 ||
			((w ^
					 (B(2, PCC_ROCE_UDP_PORT >> 8) |
							 B(3, PCC_ROCE_UDP_PORT & 0xff) |
							 B(4, FAST_UDP_LEN >> 8) |
							 B(5, FAST_UDP_LEN & 0xff))) &
					M(2, 4)) != 0)
		return 0;
	bth = (lay & PCC_PROBE_FAST_V6) ? ip + PCC_IPV6_HDR_LEN + PCC_UDP_HDR_LEN :
					  ip + PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN;
	/* UD SEND_ONLY, TVer 0, PadCnt 0 */
	if (bth[0] != PCC_OP_UD_SEND_ONLY || (bth[1] & 0x3f) != 0)
		return 0;
	/* MAD: base version, class, class version, method GET ... */
	w = ld64(bth + PCC_BTH_LEN + PCC_DETH_LEN);
	if ((w & M(0, 4)) !=
			(B(0, PCC_MAD_BASE_VERSION) | B(1, PCC_MAD_CLASS) |
					B(2, PCC_MAD_CLASS_VERSION) | B(3, PCC_MAD_METHOD_GET)))
		return 0;
	/* ... attribute; body: not for the hardware-NP model, custom header
	 * length (big endian at body + 6) at most PCC_PROBE_CUSTOM_MAX */
	w = ld64(bth + PCC_BTH_LEN + PCC_DETH_LEN + 16);
	if ((w & M(0, 2)) != (B(0, PCC_MAD_ATTR_RTT >> 8) | B(1, PCC_MAD_ATTR_RTT & 0xff)))
		return 0;
	w = ld64(bth + PCC_BTH_LEN + PCC_DETH_LEN + PCC_MAD_HDR_LEN);
	if ((w & B(5, PCC_PROBE_F_HW_NP)) != 0 ||
			((w >> 56) | ((w >> 40) & 0xff00)) > PCC_PROBE_CUSTOM_MAX)
		return 0;
	return lay;
}

/* ones'-complement sum of the lanes of ~o and n: the change from o to n */
static __rte_always_inline uint64_t
csum_chg(uint64_t o, uint64_t n)
{
	return csum64(~o) + csum64(n);
}

#ifdef RTE_ARCH_X86
#define FAST_HW 1
#define FAST_ATTR __attribute__((target("pclmul,sse4.1")))
#define FAST_SFX(name) name##_hw
#include "proto_probe_fast_body.h"
#undef FAST_HW
#undef FAST_ATTR
#undef FAST_SFX
#endif

#define FAST_HW 0
#define FAST_ATTR
#define FAST_SFX(name) name##_sw
#include "proto_probe_fast_body.h"
#undef FAST_HW
#undef FAST_ATTR
#undef FAST_SFX

int
pcc_probe_fast_answer(void *frame, int layout, struct pcc_probe_fast_ans *a)
{
	if (unlikely(frame == NULL || a == NULL || !(layout & PCC_PROBE_FAST_OK) || a->dscp > 63))
		return PCC_PROTO_ERR_INVAL;
	if (unlikely(!__atomic_load_n(&fast_ready, __ATOMIC_ACQUIRE)))
		pthread_once(&fast_once, fast_init);
	if (likely(fast_v) && !(layout & PCC_PROBE_FAST_V6))
		return proto_probe_fast_answer_v4(frame, layout, a);
#ifdef RTE_ARCH_X86
	if (likely(proto_icrc_clmul()))
		return answer_hw(frame, layout, a);
#endif
	return answer_sw(frame, layout, a);
}

uint64_t
pcc_probe_fast_reflect(void *const *frames, const uint16_t *lens, unsigned int n,
		struct pcc_probe_fast_ans *a)
{
	uint64_t done = 0;
	unsigned int i;

	if (unlikely(frames == NULL || lens == NULL || a == NULL || n > PCC_PROBE_FAST_BURST ||
			    a->dscp > 63))
		return 0;
	if (unlikely(!__atomic_load_n(&fast_ready, __ATOMIC_ACQUIRE)))
		pthread_once(&fast_once, fast_init);
	if (likely(fast_v))
		return proto_probe_fast_reflect_v(frames, lens, n, a);
	for (i = 0; i < n; i++) {
		int lay = pcc_probe_fast_match(frames[i], lens[i]);

		if (lay != 0 && pcc_probe_fast_answer(frames[i], lay, a) > 0)
			done |= 1ull << i;
	}
	return done;
}

uint64_t
pcc_probe_fast_reflect_mbufs(struct rte_mbuf *const *pkts, unsigned int n,
		struct pcc_probe_fast_ans *a, uint64_t *bytes)
{
	uint64_t done = 0, nb = 0;
	unsigned int i;

	if (unlikely(pkts == NULL || a == NULL || bytes == NULL || n > PCC_PROBE_FAST_BURST ||
			    a->dscp > 63))
		return 0;
	if (unlikely(!__atomic_load_n(&fast_ready, __ATOMIC_ACQUIRE)))
		pthread_once(&fast_once, fast_init);
	if (likely(fast_v))
		return proto_probe_fast_reflect_mbufs_v(pkts, n, a, bytes);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		void *f;
		int lay;

		if (!proto_fast_mbuf_ok(m))
			continue;
		f = rte_pktmbuf_mtod(m, void *);
		lay = pcc_probe_fast_match(f, m->data_len);
		if (lay != 0 && pcc_probe_fast_answer(f, lay, a) > 0) {
			proto_fast_mbuf_answered(m);
			nb += m->data_len;
			done |= 1ull << i;
		}
	}
	*bytes = nb;
	return done;
}

bool
proto_probe_fast_use_vector(bool on)
{
	pthread_once(&fast_once, fast_init);
	fast_v = on && fast_v_have;
	return fast_v;
}
