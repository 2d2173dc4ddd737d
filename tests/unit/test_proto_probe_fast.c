/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The CCMAD probe fast path (pcc_probe_fast_match(), pcc_probe_fast_answer())
 * against the generic path (pcc_parse(), pcc_probe_parse(),
 * pcc_probe_resp_inplace()): on requests of every layout (IPv4/IPv6, VLAN
 * tag or not) with random addresses, IP ID, TTL, ECN, DSCP, flow label,
 * UDP source port, custom header, flags and answers (times, user data,
 * last dword, DSCP given or the request's; one answer struct for many
 * answers, fields kept or changed), and on the same requests with
 * random bytes of their headers changed or their length changed, the fast
 * path answers exactly the requests the generic path answers in place
 * (but the few it documents as left to it), and its answer is, byte for
 * byte, the generic one; with the AVX-512 answer to IPv4 requests (where
 * the CPU has it), with PCLMULQDQ and with the software multiply.  The
 * burst form, pcc_probe_fast_reflect(), answers exactly the frames the
 * one-frame form answers, with the same bytes, on bursts of every length
 * that mix requests of every layout with frames it must leave alone.
 * Frames it does not match are left untouched; truncated frames and bad
 * arguments are refused.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "pcc_proto.h"
#include "proto_internal.h"

#define FRAME_MAX 600

static uint32_t rng = 4242;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* A random request in req; its length. */
static int
random_request(uint8_t *req, unsigned int k)
{
	static const uint16_t customs[] = { 0, 1, 13, 64 };
	struct pcc_l3_spec l3 = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
		.src_mac = { 2, 0, 0, 0, 0, 1 } };
	uint8_t custom[PCC_PROBE_CUSTOM_MAX];
	struct pcc_probe p;
	uint32_t i;
	int len;

	memset(&p, 0, sizeof(p));
	for (i = 0; i < 6; i++) {
		l3.dst_mac[i] = (uint8_t)rnd();
		l3.src_mac[i] = (uint8_t)rnd();
	}
	l3.ipv6 = (k & 1) != 0;
	l3.vlan = (k & 2) != 0;
	l3.vlan_tci = (uint16_t)rnd();
	l3.src.v4 = rnd();
	l3.dst.v4 = rnd();
	for (i = 0; i < 16; i++) {
		l3.src.v6[i] = (uint8_t)rnd();
		l3.dst.v6[i] = (uint8_t)rnd();
	}
	l3.dscp = rnd() & 63;
	l3.ecn = rnd() & 3;
	l3.ttl = (uint8_t)rnd();
	l3.ip_id = (k & 4) ? (uint16_t)rnd() : 0;
	l3.flow_label = rnd() & 0xfffff;
	l3.udp_sport = (rnd() & 15) == 0 ? 0 : (uint16_t)rnd();
	for (i = 0; i < sizeof(custom); i++)
		custom[i] = (uint8_t)rnd();
	p.tid = ((uint64_t)rnd() << 32) | rnd();
	p.flow_tag = rnd();
	p.slot = (uint8_t)rnd();
	p.flags = (uint8_t)(rnd() & 0xff);
	if ((k & 8) == 0)
		p.flags &= (uint8_t)~PCC_PROBE_F_HW_NP;
	p.custom_len = customs[rnd() % RTE_DIM(customs)];
	p.req_send_ts = ((uint64_t)rnd() << 32) | rnd();
	len = pcc_probe_req_build(req, FRAME_MAX, &l3, rnd() & PCC_QPN_MASK, &p, custom);
	assert_true(len > 0);
	return len;
}

/*
 * The generic answer of req (len bytes) in place: the NP's steps (parse,
 * decode, the hardware-NP test, pcc_probe_resp_inplace()).  Its length,
 * or 0 if the generic path would not answer it in place (not a request,
 * broken, for the hardware NP).  *may_skip: the fast path may leave it to
 * the generic path (a case it documents).
 */
static int
generic_answer(uint8_t *req, uint32_t len, const struct pcc_probe_fast_ans *a, bool *may_skip)
{
	struct pcc_pkt_info in;
	struct pcc_probe p;
	int dscp;

	*may_skip = false;
	if (pcc_parse(req, len, NULL, &in) != 0 || in.kind != PCC_PKT_PROBE_REQ ||
			pcc_probe_parse(req, &in, &p, NULL) != 0 || (p.flags & PCC_PROBE_F_HW_NP))
		return 0;
	/* documented: a UDP source port 0, an IPv6 request without a UDP
	 * checksum, trailing bytes after the datagram */
	if (in.udp_sport == 0 ||
			((in.flags & PCC_PKT_F_IPV6) && req[in.l4_off + 6] == 0 &&
					req[in.l4_off + 7] == 0) ||
			(uint32_t)in.payload_off + PCC_PROBE_MAD_LEN + PCC_ICRC_LEN != len)
		*may_skip = true;
	p.np_recv_ts = a->np_recv_ts;
	p.np_send_ts = a->np_send_ts;
	memcpy(p.user, a->user, sizeof(p.user));
	p.resp_ts = a->resp_ts;
	dscp = a->dscp >= 0 ? a->dscp : in.dscp;
	return RTE_MAX(pcc_probe_resp_inplace(req, FRAME_MAX, &in, (uint8_t)dscp, &p), 0);
}

/* New random fields in *a, or (one time in two) the same again: answers
 * of one burst share one struct and usually the fields (its memo). */
static void
random_answer(struct pcc_probe_fast_ans *a)
{
	unsigned int i;

	if (rnd() & 1)
		return;
	/* each field changed or not */
	if (rnd() & 1)
		a->np_recv_ts = ((uint64_t)rnd() << 32) | rnd();
	if (rnd() & 1)
		a->np_send_ts = a->np_recv_ts + rnd();
	if (rnd() & 1)
		a->user[rnd() % PCC_PROBE_USER_LEN] = (uint8_t)rnd();
	if (rnd() & 1)
		for (i = 0; i < PCC_PROBE_USER_LEN; i++)
			a->user[i] = (rnd() & 1) ? (uint8_t)rnd() : 0;
	if (rnd() & 1)
		a->resp_ts = (rnd() & 1) ? rnd() : 0;
	if (rnd() & 1)
		a->dscp = (rnd() & 1) ? (int16_t)(rnd() & 63) : -1;
}

/* One frame through both paths. */
static void
compare(const uint8_t *frame, uint32_t len, unsigned int *matched, unsigned int *answered)
{
	static uint8_t fast[FRAME_MAX], gen[FRAME_MAX], refl[FRAME_MAX];
	static struct pcc_probe_fast_ans a = { .dscp = -1 };
	struct pcc_probe_fast_ans ra;
	struct pcc_parse_opts po;
	struct pcc_pkt_info out;
	bool may_skip, icrc_ok;
	void *rf = refl;
	uint16_t rlen = (uint16_t)len;
	uint64_t done;
	int lay, lg, lf;
	uint32_t i;

	random_answer(&a);
	memcpy(fast, frame, len);
	memcpy(gen, frame, len);
	memcpy(refl, frame, len);
	ra = a;
	done = pcc_probe_fast_reflect(&rf, &rlen, 1, &ra);
	pcc_parse_opts_default(&po);
	po.check_icrc = true;
	icrc_ok = pcc_parse(frame, len, &po, &out) == 0;
	lay = pcc_probe_fast_match(fast, len);
	lg = generic_answer(gen, len, &a, &may_skip);
	if (lay == 0) {
		/* not matched: untouched, and not one the fast path must take */
		assert_memory_equal(fast, frame, len);
		assert_int_equal(done, 0);
		assert_memory_equal(refl, frame, len);
		if (lg > 0 && !may_skip)
			fail_msg("a request the generic path answers in place is not matched");
		return;
	}
	(*matched)++;
	/* matched: the generic path answers it in place */
	assert_true(lg > 0);
	assert_int_equal(lg, (int)len);
	assert_int_equal(!!(lay & PCC_PROBE_FAST_V6),
			pcc_get_be16(frame + 12) == 0x86dd || pcc_get_be16(frame + 16) == 0x86dd);
	lf = pcc_probe_fast_answer(fast, lay, &a);
	assert_int_equal(lf, lg);
	if (memcmp(fast, gen, len) != 0) {
		for (i = 0; i < len && fast[i] == gen[i]; i++)
			;
		fail_msg("byte %u of %u differs: fast %02x, generic %02x (layout %#x)", i, len,
				fast[i], gen[i], lay);
	}
	/* the burst form, a burst of one */
	assert_int_equal(done, 1);
	assert_memory_equal(refl, gen, len);
	/* a request with a good ICRC gets an answer with a good one */
	if (icrc_ok) {
		assert_int_equal(pcc_parse(fast, len, &po, &out), 0);
		assert_int_equal(out.kind, PCC_PKT_PROBE_RESP);
		(*answered)++;
	}
}

static void
fast_vs_generic(bool vector, bool clmul)
{
	static uint8_t req[FRAME_MAX], mut[FRAME_MAX];
	unsigned int k, j, matched = 0, answered = 0, mutated = 0;
	uint32_t len;

	if (proto_probe_fast_use_vector(vector) != vector) {
		proto_probe_fast_use_vector(true);
		skip();
	}
	proto_icrc_patch_use_clmul(clmul);
	for (k = 0; k < 4000; k++) {
		len = (uint32_t)random_request(req, k);
		/* an IPv6 request without a UDP checksum */
		if ((k & 1) && (k & 16)) {
			uint32_t l4 = ((k & 2) ? 18 : 14) + PCC_IPV6_HDR_LEN;

			req[l4 + 6] = 0;
			req[l4 + 7] = 0;
		}
		compare(req, len, &matched, &answered);
		/* the same with header bytes changed: one to four random
		 * bytes set at random or with one bit flipped */
		for (j = 0; j < 4; j++) {
			unsigned int n = 1 + rnd() % 4, b;

			memcpy(mut, req, len);
			for (b = 0; b < n; b++) {
				unsigned int at = rnd() % 140;

				if (rnd() & 1)
					mut[at] = (uint8_t)rnd();
				else
					mut[at] ^= (uint8_t)(1u << (rnd() & 7));
			}
			compare(mut, len, &matched, &mutated);
		}
		/* shorter or longer than the datagram */
		memcpy(mut, req, len);
		compare(mut, len - 1 - rnd() % 8, &matched, &mutated);
		memset(mut + len, 0, 8);
		compare(mut, len + 1 + rnd() % 8, &matched, &mutated);
	}
	proto_icrc_patch_use_clmul(true);
	proto_probe_fast_use_vector(true);
	/* most requests are in the fast path's layout */
	assert_true(answered > 2000);
	print_message("%u matched, %u answers with a good ICRC checked, %u of changed frames\n",
			matched, answered, mutated);
}

static void
test_fast_vs_generic_vector(void **state)
{
	(void)state;
	fast_vs_generic(true, true);
}

static void
test_fast_vs_generic_clmul(void **state)
{
	(void)state;
	fast_vs_generic(false, true);
}

static void
test_fast_vs_generic_sw(void **state)
{
	(void)state;
	fast_vs_generic(false, false);
}

/*
 * Bursts of 1..PCC_PROBE_FAST_BURST frames: requests of every layout, some
 * with a byte changed, some cut short, some not linear-length; the bits
 * pcc_probe_fast_reflect() returns are the frames pcc_probe_fast_match()
 * matches, and every frame is, byte for byte, what match and
 * pcc_probe_fast_answer() make of it.
 */
/* An mbuf (not from a pool: the fields the fast path reads and writes)
 * over frame, len bytes at data offset 0; odd: one the fast path must
 * leave alone (indirect, shared, two segments, or pkt_len != data_len),
 * by k. */
static void
fake_mbuf(struct rte_mbuf *m, uint8_t *frame, uint16_t len, bool odd, unsigned int k)
{
	memset(m, 0, sizeof(*m));
	m->buf_addr = frame;
	m->data_off = 0;
	m->buf_len = FRAME_MAX;
	rte_mbuf_refcnt_set(m, 1);
	m->nb_segs = 1;
	m->port = 3;
	m->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_VLAN;
	m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP;
	m->vlan_tci = 7;
	m->vlan_tci_outer = 8;
	m->data_len = len;
	m->pkt_len = len;
	if (!odd)
		return;
	switch (k % 4) {
	case 0:
		m->ol_flags |= RTE_MBUF_F_INDIRECT;
		break;
	case 1:
		rte_mbuf_refcnt_set(m, 2);
		break;
	case 2:
		m->nb_segs = 2;
		break;
	default:
		m->pkt_len = len + 10u;
		break;
	}
}

/*
 * Bursts of 1..PCC_PROBE_FAST_BURST frames: requests of every layout, some
 * with a byte changed, some cut short, some not linear-length; the bits
 * pcc_probe_fast_reflect() returns are the frames pcc_probe_fast_match()
 * matches, and every frame is, byte for byte, what match and
 * pcc_probe_fast_answer() make of it.  The same frames in mbufs, some of
 * which may not be written: pcc_probe_fast_reflect_mbufs() answers the
 * others alike, resets their metadata and counts their bytes, and leaves
 * the rest, bytes and metadata, as they were.
 */
static void
reflect_bursts(void)
{
	static uint8_t want[PCC_PROBE_FAST_BURST][FRAME_MAX], got[PCC_PROBE_FAST_BURST][FRAME_MAX];
	static uint8_t orig[PCC_PROBE_FAST_BURST][FRAME_MAX], gm[PCC_PROBE_FAST_BURST][FRAME_MAX];
	static struct rte_mbuf mb[PCC_PROBE_FAST_BURST], mb0[PCC_PROBE_FAST_BURST];
	struct pcc_probe_fast_ans a = { .dscp = -1 }, am;
	uint16_t lens[PCC_PROBE_FAST_BURST];
	void *frames[PCC_PROBE_FAST_BURST];
	struct rte_mbuf *pkts[PCC_PROBE_FAST_BURST];
	unsigned int b, i, n, answered = 0, answered_m = 0;

	for (b = 0; b < 400; b++) {
		uint64_t bits = 0, done, mbits = 0, mbytes = 0, nb = ~0ull;

		n = 1 + b % PCC_PROBE_FAST_BURST;
		random_answer(&a);
		for (i = 0; i < n; i++) {
			int len = random_request(want[i], rnd()), lay;

			switch (rnd() % 8) {
			case 0:
				want[i][rnd() % 140] ^= (uint8_t)(1u << (rnd() & 7));
				break;
			case 1:
				len -= 1 + (int)(rnd() % 40);
				break;
			case 2:
				/* an IPv4 request whose NP times, user data or
				 * last dword are not 0 (the RP sends 0s; the
				 * burst's shortcut for those does not apply) */
				want[i][14 + 88 + rnd() % 32] |= (uint8_t)(1 + rnd() % 255);
				break;
			default:
				break;
			}
			lens[i] = (uint16_t)len;
			memcpy(orig[i], want[i], (size_t)len);
			memcpy(got[i], want[i], (size_t)len);
			memcpy(gm[i], want[i], (size_t)len);
			frames[i] = got[i];
			fake_mbuf(&mb[i], gm[i], lens[i], rnd() % 8 == 0, rnd());
			mb0[i] = mb[i];
			pkts[i] = &mb[i];
			lay = pcc_probe_fast_match(want[i], lens[i]);
			if (lay != 0) {
				struct pcc_probe_fast_ans one = a;

				assert_int_equal(pcc_probe_fast_answer(want[i], lay, &one), len);
				bits |= 1ull << i;
				if (mb[i].pkt_len == mb[i].data_len && mb[i].nb_segs == 1 &&
						RTE_MBUF_DIRECT(&mb[i]) &&
						rte_mbuf_refcnt_read(&mb[i]) == 1) {
					mbits |= 1ull << i;
					mbytes += lens[i];
				}
			}
		}
		am = a;
		done = pcc_probe_fast_reflect(frames, lens, n, &a);
		assert_int_equal(done, bits);
		for (i = 0; i < n; i++)
			assert_memory_equal(got[i], want[i], lens[i]);
		answered += (unsigned int)__builtin_popcountll(done);
		done = pcc_probe_fast_reflect_mbufs(pkts, n, &am, &nb);
		assert_int_equal(done, mbits);
		assert_int_equal(nb, mbytes);
		for (i = 0; i < n; i++) {
			const struct rte_mbuf *m = &mb[i], *m0 = &mb0[i];

			if (!((mbits >> i) & 1)) {
				assert_memory_equal(gm[i], orig[i], lens[i]);
				assert_memory_equal(m, m0, sizeof(*m));
				continue;
			}
			assert_memory_equal(gm[i], want[i], lens[i]);
			assert_int_equal(m->port, RTE_MBUF_PORT_INVALID);
			assert_int_equal(m->ol_flags, 0);
			assert_int_equal(m->packet_type, 0);
			assert_int_equal(m->vlan_tci, 0);
			assert_int_equal(m->vlan_tci_outer, 0);
			assert_ptr_equal(m->buf_addr, m0->buf_addr);
			assert_int_equal(m->data_off, m0->data_off);
			assert_int_equal(m->data_len, lens[i]);
			assert_int_equal(m->pkt_len, lens[i]);
			assert_int_equal(m->nb_segs, 1);
			assert_int_equal(rte_mbuf_refcnt_read(m), 1);
		}
		answered_m += (unsigned int)__builtin_popcountll(done);
	}
	assert_true(answered > 2000);
	assert_true(answered_m > 1700 && answered_m < answered);
}

static void
test_reflect_vector(void **state)
{
	(void)state;
	if (!proto_probe_fast_use_vector(true))
		skip();
	reflect_bursts();
}

/* the same with 512-bit vectors (--force-max-simd-bitwidth=512) */
static void
test_reflect_vector512(void **state)
{
	(void)state;
	if (!proto_probe_fast_use_vector(true))
		skip();
	assert_int_equal(proto_probe_fast_v_width(512), 512);
	reflect_bursts();
	assert_int_equal(proto_probe_fast_v_width(256), 256);
}

static void
test_reflect_scalar(void **state)
{
	(void)state;
	proto_probe_fast_use_vector(false);
	reflect_bursts();
	proto_probe_fast_use_vector(true);
}

/* Truncated frames, every length: no match, nothing read past the end
 * (ASan builds), nothing written. */
static void
test_truncated(void **state)
{
	uint8_t req[FRAME_MAX], copy[FRAME_MAX];
	unsigned int k;
	uint32_t len, l;

	(void)state;
	for (k = 0; k < 4; k++) {
		len = (uint32_t)random_request(req, k & 3);
		memcpy(copy, req, len);
		for (l = 0; l < len; l++) {
			uint8_t *t = malloc(l + 1);

			assert_non_null(t);
			memcpy(t, req, l);
			assert_int_equal(pcc_probe_fast_match(t, l), 0);
			free(t);
		}
		assert_memory_equal(req, copy, len);
	}
}

static void
test_bad_args(void **state)
{
	struct pcc_probe_fast_ans a;
	uint8_t req[FRAME_MAX], copy[FRAME_MAX];
	int len, lay;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.dscp = -1;
	do
		len = random_request(req, 0);
	while ((lay = pcc_probe_fast_match(req, (uint32_t)len)) == 0);
	memcpy(copy, req, (size_t)len);
	assert_int_equal(pcc_probe_fast_match(NULL, 100), 0);
	assert_int_equal(pcc_probe_fast_answer(NULL, lay, &a), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_probe_fast_answer(req, lay, NULL), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_probe_fast_answer(req, 0, &a), PCC_PROTO_ERR_INVAL);
	a.dscp = 64;
	assert_int_equal(pcc_probe_fast_answer(req, lay, &a), PCC_PROTO_ERR_INVAL);
	assert_memory_equal(req, copy, (size_t)len);
	/* the burst form: nothing done, nothing written */
	{
		void *frames[PCC_PROBE_FAST_BURST + 1];
		uint16_t lens[PCC_PROBE_FAST_BURST + 1];
		unsigned int i;

		for (i = 0; i < RTE_DIM(frames); i++) {
			frames[i] = req;
			lens[i] = (uint16_t)len;
		}
		a.dscp = 64;
		assert_int_equal(pcc_probe_fast_reflect(frames, lens, 1, &a), 0);
		a.dscp = -1;
		assert_int_equal(pcc_probe_fast_reflect(NULL, lens, 1, &a), 0);
		assert_int_equal(pcc_probe_fast_reflect(frames, NULL, 1, &a), 0);
		assert_int_equal(pcc_probe_fast_reflect(frames, lens, 1, NULL), 0);
		assert_int_equal(pcc_probe_fast_reflect(frames, lens, RTE_DIM(frames), &a), 0);
		frames[0] = NULL;
		assert_int_equal(pcc_probe_fast_reflect(frames, lens, 1, &a), 0);
		assert_int_equal(pcc_probe_fast_reflect(frames, lens, 0, &a), 0);
		assert_memory_equal(req, copy, (size_t)len);
	}
	a.dscp = 63;
	assert_int_equal(pcc_probe_fast_answer(req, lay, &a), len);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_vs_generic_vector),
		cmocka_unit_test(test_fast_vs_generic_clmul),
		cmocka_unit_test(test_fast_vs_generic_sw),
		cmocka_unit_test(test_reflect_vector),
		cmocka_unit_test(test_reflect_vector512),
		cmocka_unit_test(test_reflect_scalar),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
