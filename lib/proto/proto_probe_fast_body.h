/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The answer of the CCMAD probe fast path (proto_probe_fast.c), included
 * there twice: with FAST_HW 1 (PCLMULQDQ, FAST_ATTR its target attribute)
 * and with FAST_HW 0 (software multiply), FAST_SFX(name) naming each
 * copy.  The carry-less products are summed in registers and reduced once.
 */

/* words to multiply, summed; what is already reduced in crc */
struct FAST_SFX(acc) {
#if FAST_HW
	__m128i v;
#else
	struct proto_icrc_acc v;
#endif
	uint32_t crc;
};

/* a branch per word: which words change is the same from one request to
 * the next, and most do not */
static inline __attribute__((always_inline)) FAST_ATTR void
FAST_SFX(acc_add)(struct FAST_SFX(acc) * x, uint64_t d, uint32_t k)
{
	if (d != 0) {
#if FAST_HW
		x->v = _mm_xor_si128(x->v,
				_mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)d),
						_mm_cvtsi32_si128((int)k), 0));
#else
		proto_clmul_sw(&x->v, d, k);
#endif
	}
}

static inline __attribute__((always_inline)) FAST_ATTR uint32_t
FAST_SFX(acc_crc)(const struct FAST_SFX(acc) * x)
{
#if FAST_HW
	return x->crc ^
			proto_icrc_reduce((uint64_t)_mm_cvtsi128_si64(x->v),
					(uint64_t)_mm_extract_epi64(x->v, 1));
#else
	return x->crc ^ proto_icrc_reduce(x->v.lo, x->v.hi);
#endif
}

/*
 * The tail, from BTH byte 4 to the end of the body, at t: the new words
 * written; what to multiply added to x.  With ck, the sum of the lanes'
 * changes for the UDP checksum (IPv6), else 0.
 */
static inline __attribute__((always_inline)) FAST_ATTR uint64_t
FAST_SFX(fast_tail)(
		uint8_t *t, struct pcc_probe_fast_ans *a, struct FAST_SFX(acc) * x, const bool ck)
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
	FAST_SFX(acc_add)(x, y << 8, k_qpn);
	FAST_SFX(acc_add)(x, ((o0 ^ n0) & ~M(0, 1)) ^ (y << 8), k_tail[0]);
	FAST_SFX(acc_add)(x, o1 ^ n1 ^ (y << 40), k_tail[1]);
	FAST_SFX(acc_add)(x, o2 ^ n2 ^ CD_MAD0, k_tail[2]);
	FAST_SFX(acc_add)(x, o4 ^ n4, k_tail[4]);
	FAST_SFX(acc_add)(x, o5 ^ n5 ^ CD_BODY0, k_tail[5]);
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
	FAST_SFX(acc_add)(x, o7, k_tail[7]);
	FAST_SFX(acc_add)(x, o8, k_tail[8]);
	FAST_SFX(acc_add)(x, o9, k_tail[9]);
	FAST_SFX(acc_add)(x, o10, k_tail[10]);
	if (ck)
		s = csum_chg(o0, n0) + csum_chg(o1, n1) + csum_chg(o2, n2) + csum_chg(o4, n4) +
				csum_chg(o5, n5) + csum_chg(o7, n7) + csum_chg(o8, n8) +
				csum_chg(o9, n9) + csum_chg(o10, n10);
	return s;
}

/* The answer, arguments checked and constants set up. */
static FAST_ATTR int
FAST_SFX(answer)(uint8_t *f, int layout, struct pcc_probe_fast_ans *a)
{
	uint8_t *ip, *bth, *icrc_p;
	uint32_t l3, icrc_old, icrc;
	uint64_t x, y, dst, src;
	struct FAST_SFX(acc) acc;
	int dscp;

#if FAST_HW
	acc.v = _mm_setzero_si128();
#else
	acc.v.lo = 0;
	acc.v.hi = 0;
#endif
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
		FAST_SFX(fast_tail)(bth + 4, a, &acc, false);
		/* masked: TOS; TTL, header checksum; UDP checksum.  Words 8
		 * and 16 change by the addresses' xor, once at 12 and once at
		 * 16 (the protocol and the ports are kept) */
		FAST_SFX(acc_add)(&acc, (o0 ^ n0) & ~M(1, 1), k_v4[0]);
		FAST_SFX(acc_add)(&acc, (o1 >> 32) ^ (o2 & 0xffffffffu), k_v4[1]);
		FAST_SFX(acc_add)(&acc, (o3 ^ n3) & ~M(2, 2), k_v4[2]);
		icrc_p = bth + PCC_BTH_LEN + PCC_DETH_LEN + PCC_PROBE_MAD_LEN;
		icrc_old = ld32(icrc_p);
		icrc = icrc_old ^ c_tail ^ FAST_SFX(acc_crc)(&acc);
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
		s = FAST_SFX(fast_tail)(bth + 4, a, &acc, true);
		FAST_SFX(acc_add)(&acc, a0 ^ b0, k_v6[0]);
		FAST_SFX(acc_add)(&acc, a1 ^ b1, k_v6[1]);
		FAST_SFX(acc_add)(&acc, ob ^ nb, k_v6[2]);
		icrc_p = bth + PCC_BTH_LEN + PCC_DETH_LEN + PCC_PROBE_MAD_LEN;
		icrc_old = ld32(icrc_p);
		icrc = icrc_old ^ c_tail ^ FAST_SFX(acc_crc)(&acc);
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
