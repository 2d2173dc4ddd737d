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
/* most words pcc_probe_fast_answer() multiplies */
#define FAST_ACC_MAX 16

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
	__atomic_store_n(&fast_ready, true, __ATOMIC_RELEASE);
}

/* words to multiply: only those not 0 are kept */
struct fast_acc {
	uint64_t d[FAST_ACC_MAX];
	uint32_t k[FAST_ACC_MAX];
	unsigned int n;
	uint32_t crc; /* changes already reduced */
};

static __rte_always_inline void
acc_add(struct fast_acc *x, uint64_t d, uint32_t k)
{
	/* a branch, not a store at x->n += (d != 0): that would chain every
	 * word's store to the test of the word before; which words change
	 * is the same from one request to the next */
	if (d != 0) {
		x->d[x->n] = d;
		x->k[x->n] = k;
		x->n++;
	}
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

/*
 * The tail, from BTH byte 4 to the end of the body, at t: the new words
 * written; what to multiply added to x.  With ck, the sum of the lanes'
 * changes for the UDP checksum (IPv6), else 0.
 */
static __rte_always_inline uint64_t
fast_tail(uint8_t *t, struct pcc_probe_fast_ans *a, struct fast_acc *x, const bool ck)
{
	uint64_t o0, o1, o2, o3, o4, o5, o7, o8, o9, o10;
	uint64_t n0, n1, n2, n4, n5, n7, n8, n9, n10;
	uint64_t u0, u1 = 0, y, s = 0;

	o0 = ld64(t);
	o1 = ld64(t + 8);
	o2 = ld64(t + 16);
	o3 = ld64(t + 24); /* TID: kept */
	o4 = ld64(t + 32);
	o5 = ld64(t + 40);
	/* t + 48: the request send time, kept */
	o7 = ld64(t + 56);
	o8 = ld64(t + 64);
	o9 = ld64(t + 72);
	o10 = ld64(t + 80);
	/* BTH 4..11: FECN/BECN 0, DestQP = the request's DETH SrcQP,
	 * AckReq 0, PSN = TID & 0xFFFFFF (the low 3 bytes of the TID) */
	n0 = ((o1 >> 40) << 8) | (o3 & M(5, 3));
	/* DETH: Q_Key GSI, SrcQP 1 */
	n1 = B(0, PCC_GSI_QKEY >> 24) | B(1, (PCC_GSI_QKEY >> 16) & 0xff) |
			B(2, (PCC_GSI_QKEY >> 8) & 0xff) | B(3, PCC_GSI_QKEY & 0xff) |
			B(7, PCC_GSI_QPN);
	/* MAD header: GET_RESP, status 0, TID, attribute, the rest 0 */
	n2 = B(0, PCC_MAD_BASE_VERSION) | B(1, PCC_MAD_CLASS) | B(2, PCC_MAD_CLASS_VERSION) |
			B(3, PCC_MAD_METHOD_GET_RESP);
	n4 = B(0, PCC_MAD_ATTR_RTT >> 8) | B(1, PCC_MAD_ATTR_RTT & 0xff);
	/* body: flags get the response bit; times, user data, last dword */
	n5 = o5 | B(5, PCC_PROBE_F_RESPONSE);
	n7 = rte_bswap64(a->np_recv_ts);
	n8 = rte_bswap64(a->np_send_ts);
	memcpy(&u0, a->user, 8);
	memcpy(&u1, a->user + 8, 4);
	n9 = rte_le_to_cpu_64(u0);
	n10 = (rte_le_to_cpu_64(u1) & 0xffffffffu) | ((uint64_t)rte_bswap32(a->resp_ts) << 32);
	st64(t, n0);
	st64(t + 8, n1);
	st64(t + 16, n2);
	st64(t + 32, n4);
	st64(t + 40, n5);
	st64(t + 56, n7);
	st64(t + 64, n8);
	st64(t + 72, n9);
	st64(t + 80, n10);
	/* the SrcQP (DETH bytes 5..7) ^ QP1, which the DestQP and the
	 * SrcQP change by in a request the RP builds; then what else
	 * changed in those words (BTH byte 4 is masked by the ICRC) */
	y = (o1 >> 40) ^ (PCC_GSI_QPN << 16);
	acc_add(x, y << 8, k_qpn);
	acc_add(x, ((o0 ^ n0) & ~M(0, 1)) ^ (y << 8), k_tail[0]);
	acc_add(x, o1 ^ n1 ^ (y << 40), k_tail[1]);
	acc_add(x, o2 ^ n2 ^ CD_MAD0, k_tail[2]);
	acc_add(x, o4 ^ n4, k_tail[4]);
	acc_add(x, o5 ^ n5 ^ CD_BODY0, k_tail[5]);
	/* the words the NP writes: their change is the old words' (0 in a
	 * request the RP builds) plus the new ones', the same for every
	 * answer of a burst (a->memo) */
	if (!a->memo.valid || a->memo.w[0] != n7 || a->memo.w[1] != n8 || a->memo.w[2] != n9 ||
			a->memo.w[3] != n10) {
		a->memo.w[0] = n7;
		a->memo.w[1] = n8;
		a->memo.w[2] = n9;
		a->memo.w[3] = n10;
		a->memo.crc = proto_icrc_words(a->memo.w, &k_tail[7], 4);
		a->memo.valid = true;
	}
	x->crc ^= a->memo.crc;
	acc_add(x, o7, k_tail[7]);
	acc_add(x, o8, k_tail[8]);
	acc_add(x, o9, k_tail[9]);
	acc_add(x, o10, k_tail[10]);
	if (ck)
		s = csum_chg(o0, n0) + csum_chg(o1, n1) + csum_chg(o2, n2) + csum_chg(o4, n4) +
				csum_chg(o5, n5) + csum_chg(o7, n7) + csum_chg(o8, n8) +
				csum_chg(o9, n9) + csum_chg(o10, n10);
	return s;
}

int
pcc_probe_fast_answer(void *frame, int layout, struct pcc_probe_fast_ans *a)
{
	uint8_t *f = frame, *ip, *bth, *icrc_p;
	uint32_t l3, icrc_old, icrc;
	uint64_t x, y, dst, src;
	struct fast_acc acc;
	int dscp;

	if (unlikely(f == NULL || a == NULL || !(layout & PCC_PROBE_FAST_OK) || a->dscp > 63))
		return PCC_PROTO_ERR_INVAL;
	if (unlikely(!__atomic_load_n(&fast_ready, __ATOMIC_ACQUIRE)))
		pthread_once(&fast_once, fast_init);
	acc.n = 0;
	acc.crc = 0;
	l3 = PCC_ETH_HDR_LEN + ((layout & PCC_PROBE_FAST_VLAN) ? PCC_VLAN_HDR_LEN : 0);
	ip = f + l3;

	/* Ethernet: back to the sender; the VLAN tag stays */
	x = ld64(f);
	y = ld64(f + 4);
	dst = x & M(0, 6);
	src = y >> 16;
	st64(f, src | (dst << 48));
	st32(f + 8, (uint32_t)(dst >> 16));

	if (!(layout & PCC_PROBE_FAST_V6)) {
		uint64_t o0, o1, o2, o3, n0, n1, n2, n3, s;

		bth = ip + PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN;
		o0 = ld64(ip);
		o1 = ld64(ip + 8);
		o2 = ld64(ip + 16);
		o3 = ld64(ip + 24);
		dscp = a->dscp >= 0 ? a->dscp : (int)((o0 >> 8) & 0xff) >> 2;
		/* DSCP, not-ECT; ID 0; DF */
		n0 = (o0 & (M(0, 1) | M(2, 2))) | B(1, dscp << 2) | B(6, 0x40);
		/* TTL 64, UDP, checksum below; addresses swapped */
		n1 = B(0, 64) | B(1, PROTO_IPPROTO_UDP) | (o2 << 32);
		n2 = (o1 >> 32) | (o2 & M(4, 4));
		/* UDP length, checksum 0; BTH: UD SEND_ONLY, no flags, P_Key */
		n3 = (o3 & M(0, 2)) | B(4, PCC_OP_UD_SEND_ONLY) | M(6, 2);
		s = csum64(n0) + csum64(n1) + (n2 & 0xffffffffu);
		n1 |= (uint64_t)(uint16_t)~csum_fold64(s) << 16;
		st64(ip, n0);
		st64(ip + 8, n1);
		st64(ip + 16, n2);
		st64(ip + 24, n3);
		fast_tail(bth + 4, a, &acc, false);
		/* masked: TOS; TTL, header checksum; UDP checksum.  Words 8
		 * and 16 change by the addresses' xor, once at 12 and once at
		 * 16 (the protocol and the ports are kept) */
		acc_add(&acc, (o0 ^ n0) & ~M(1, 1), k_v4[0]);
		acc_add(&acc, (o1 >> 32) ^ (o2 & 0xffffffffu), k_v4[1]);
		acc_add(&acc, (o3 ^ n3) & ~M(2, 2), k_v4[2]);
		icrc_p = bth + PCC_BTH_LEN + PCC_DETH_LEN + PCC_PROBE_MAD_LEN;
		icrc_old = ld32(icrc_p);
		icrc = icrc_old ^ c_tail ^ acc.crc ^
				(acc.n != 0 ? proto_icrc_words(acc.d, acc.k, acc.n) : 0);
		st32(icrc_p, icrc);
		return (int)(l3 + PCC_IPV4_HDR_LEN + FAST_UDP_LEN);
	} else {
		uint64_t o0, a0, a1, b0, b1, s;
		uint8_t *udp = ip + PCC_IPV6_HDR_LEN;
		uint32_t ob, nb;
		uint16_t ck;

		bth = udp + PCC_UDP_HDR_LEN;
		o0 = ld64(ip);
		dscp = a->dscp >= 0 ? a->dscp : (int)(((o0 & 0x0f) << 2) | ((o0 >> 14) & 0x03));
		/* version 6, DSCP, not-ECT, flow label 0 (all masked by the
		 * ICRC); length and next header kept; hop limit 64 (masked) */
		st64(ip,
				(o0 & M(4, 3)) | B(0, 0x60 | (dscp >> 2)) | B(1, (dscp & 3) << 6) |
						B(7, 64));
		a0 = ld64(ip + 8);
		a1 = ld64(ip + 16);
		b0 = ld64(ip + 24);
		b1 = ld64(ip + 32);
		st64(ip + 8, b0);
		st64(ip + 16, b1);
		st64(ip + 24, a0);
		st64(ip + 32, a1);
		/* BTH 0..3: UD SEND_ONLY, no flags, P_Key */
		ob = ld32(bth);
		nb = PCC_OP_UD_SEND_ONLY | (0xffffu << 16);
		st32(bth, nb);
		s = fast_tail(bth + 4, a, &acc, true);
		acc_add(&acc, a0 ^ b0, k_v6[0]);
		acc_add(&acc, a1 ^ b1, k_v6[1]);
		acc_add(&acc, ob ^ nb, k_v6[2]);
		icrc_p = bth + PCC_BTH_LEN + PCC_DETH_LEN + PCC_PROBE_MAD_LEN;
		icrc_old = ld32(icrc_p);
		icrc = icrc_old ^ c_tail ^ acc.crc ^
				(acc.n != 0 ? proto_icrc_words(acc.d, acc.k, acc.n) : 0);
		st32(icrc_p, icrc);
		/* UDP checksum (RFC 1624): ~(~HC + sum of ~old + sum of new)
		 * over the words that changed, in the lanes as loaded (RFC
		 * 1071: the byte order does not matter); the pseudo header
		 * does not change (addresses swapped, same length) */
		memcpy(&ck, udp + 6, 2);
		s += (uint16_t)~ck + csum64(~(uint64_t)ob & 0xffffffffu) + nb +
				csum64(~(uint64_t)icrc_old & 0xffffffffu) + icrc;
		ck = (uint16_t)~csum_fold64(s);
		if (ck == 0)
			ck = 0xffff;
		memcpy(udp + 6, &ck, 2);
		return (int)(l3 + PCC_IPV6_HDR_LEN + FAST_UDP_LEN);
	}
}
