/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * libFuzzer harnesses for lib/proto.  One source, compiled once per entry
 * point with -DFUZZ_ENTRY=fuzz_<name> (tests/fuzz/meson.build).
 *
 * Besides "no crash, no sanitizer report", every harness checks
 * properties the API promises (pcc_proto.h, pcc_proto_tlm.h,
 * doc/wire.md) and aborts when one is violated:
 *   - parsers: decoded offsets and lengths lie within the data; what a
 *     parser accepts its builder writes back, and parses to the same
 *     values;
 *   - pcc_cc_match(): what it accepts, pcc_parse() parses alike, and its
 *     ICRC answer is pcc_cc_icrc_ok_bulk()'s for four of the frame;
 *   - pcc_parse(): pcc_parse_mbuf() on a single segment and on a
 *     two-segment chain agrees; after pcc_icrc_update() the ICRC verifies;
 *     derived parsers (probe, MAD, IFA) accept what pcc_parse() classified;
 *   - mutators: work in buffers of exactly `cap` bytes (ASan catches any
 *     write past them), leave the frame unchanged when they fail, and
 *     produce a frame that parses to the expected values when they succeed.
 *
 * Input layouts (first bytes are control bytes, the rest is the data) are
 * described at each fuzz_* function; tests/fuzz/gen_corpus.py writes seeds
 * in the same layouts.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "pcc_proto.h"
#include "pcc_proto_cc.h"
#include "proto_internal.h"

#ifndef FUZZ_ENTRY
#error "compile with -DFUZZ_ENTRY=fuzz_<name>"
#endif

#define FUZZ_UNUSED __attribute__((unused))

#define CHECK(cond)                                                           \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr,                                       \
					"fuzz_proto: property violated: %s "  \
					"(%s:%d, %s)\n",                      \
					#cond, __FILE__, __LINE__, __func__); \
			abort();                                              \
		}                                                             \
	} while (0)

/* ---- input helpers ---------------------------------------------------- */

struct fin {
	const uint8_t *p;
	size_t n;
};

static uint8_t
fin_u8(struct fin *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

static uint64_t
fin_u64(struct fin *in)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | fin_u8(in);
	return v;
}

/* Copy of len bytes in a buffer of exactly cap (>= len) bytes. */
static uint8_t *
dup_cap(const uint8_t *p, size_t len, size_t cap)
{
	uint8_t *b = malloc(cap > 0 ? cap : 1);

	CHECK(b != NULL);
	if (len > 0)
		memcpy(b, p, len);
	if (cap > len)
		memset(b + len, 0xa5, cap - len);
	return b;
}

static uint32_t
u32len(size_t n)
{
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* Parse options from a control byte. */
static const struct pcc_parse_opts *
opts_from_byte(uint8_t b, struct pcc_parse_opts *o)
{
	static const uint8_t protos[4] = { PCC_IFA2_PROTO_DEFAULT, 0, 131, 17 };
	static const uint64_t markers[4] = {
		PCC_IFA1_MARKER_DEFAULT,
		0,
		0x8000000000000001ull,
		UINT64_MAX,
	};

	pcc_parse_opts_default(o);
	o->check_icrc = (b & 0x01) != 0;
	o->check_ip_csum = (b & 0x02) != 0;
	o->ifa2_proto = protos[(b >> 2) & 3];
	o->ifa1_marker = markers[(b >> 4) & 3];
	if (b & 0x40) {
		pcc_parse_opts_default(o);
		return NULL; /* NULL means defaults, *o has them */
	}
	return o;
}

static bool
info_equal(const struct pcc_pkt_info *a, const struct pcc_pkt_info *b)
{
	bool v6 = (a->flags & PCC_PKT_F_IPV6) != 0;

	if (a->frame_len != b->frame_len || a->payload_len != b->payload_len ||
			a->l3_off != b->l3_off || a->l4_off != b->l4_off ||
			a->bth_off != b->bth_off || a->payload_off != b->payload_off ||
			a->flags != b->flags || a->vlan_tci != b->vlan_tci || a->kind != b->kind ||
			a->ecn != b->ecn || a->dscp != b->dscp || a->ttl != b->ttl ||
			a->ip_proto != b->ip_proto || a->opcode != b->opcode ||
			a->pad_cnt != b->pad_cnt || a->bth_flags != b->bth_flags ||
			a->udp_sport != b->udp_sport || a->udp_dport != b->udp_dport ||
			a->pkey != b->pkey || a->ackreq != b->ackreq ||
			a->aeth_syndrome != b->aeth_syndrome || a->dqpn != b->dqpn ||
			a->psn != b->psn || a->aeth_msn != b->aeth_msn ||
			a->deth_qkey != b->deth_qkey || a->deth_sqpn != b->deth_sqpn ||
			a->reth_rkey != b->reth_rkey || a->reth_dma_len != b->reth_dma_len ||
			a->reth_va != b->reth_va)
		return false;
	if (v6)
		return memcmp(a->src.v6, b->src.v6, 16) == 0 &&
				memcmp(a->dst.v6, b->dst.v6, 16) == 0;
	return a->src.v4 == b->src.v4 && a->dst.v4 == b->dst.v4;
}

/* Invariants of a successful pcc_parse(). */
static void
check_info(const struct pcc_pkt_info *in, uint32_t len, const struct pcc_parse_opts *o)
{
	CHECK(in->frame_len == len);
	CHECK(in->kind < PCC_PKT_KIND_MAX);
	CHECK(pcc_pkt_kind_name((enum pcc_pkt_kind)in->kind) != NULL);
	CHECK(in->l3_off <= len && in->l4_off <= len);
	CHECK(in->ecn <= 3 && in->dscp <= 63);
	CHECK(in->dqpn <= PCC_QPN_MASK && in->psn <= PCC_PSN_MASK);
	CHECK(in->aeth_msn <= 0xffffff && in->deth_sqpn <= PCC_QPN_MASK);
	CHECK(in->pad_cnt <= 3);
	if (in->bth_off != 0) {
		CHECK((uint32_t)in->bth_off + PCC_BTH_LEN <= len);
		CHECK(in->payload_off >= in->bth_off + PCC_BTH_LEN);
		/* BTH + ext headers + payload + pad + ICRC fit in the data */
		CHECK((uint64_t)in->payload_off + in->payload_len + in->pad_cnt + PCC_ICRC_LEN <=
				len);
		CHECK(pcc_bth_opcode_ext(in->opcode, NULL) >= 0);
	}
	if (in->kind == PCC_PKT_ROCE_ACK || in->kind == PCC_PKT_ROCE_NAK)
		CHECK(in->flags & PCC_PKT_F_AETH);
	if (in->kind == PCC_PKT_PROBE_REQ || in->kind == PCC_PKT_PROBE_RESP)
		CHECK((in->flags & (PCC_PKT_F_MAD | PCC_PKT_F_DETH)) ==
				(PCC_PKT_F_MAD | PCC_PKT_F_DETH));
	if (in->kind == PCC_PKT_CNP)
		CHECK(in->opcode == PCC_OP_CNP);
	if (in->flags & PCC_PKT_F_ICRC_OK)
		CHECK(o->check_icrc && in->bth_off != 0);
	if (o->check_icrc && in->bth_off != 0)
		CHECK(in->flags & PCC_PKT_F_ICRC_OK);
}

/* A fake mbuf over data (single segment, no pool). */
static void
fake_mbuf(struct rte_mbuf *m, uint8_t *data, uint16_t data_len, uint32_t pkt_len,
		struct rte_mbuf *next)
{
	memset(m, 0, sizeof(*m));
	m->buf_addr = data;
	m->buf_len = data_len;
	m->data_off = 0;
	m->data_len = data_len;
	m->pkt_len = pkt_len;
	m->nb_segs = 1;
	m->next = next;
}

/* ---- pcc_parse() and everything that follows it -------------------- */

/*
 * fuzz_parse: [opts byte][split byte][frame...]
 * opts byte: see opts_from_byte(); split byte: where the frame is cut
 * into two mbuf segments for pcc_parse_mbuf().
 */
static FUZZ_UNUSED int
fuzz_parse(const uint8_t *data, size_t size)
{
	struct pcc_parse_opts o, o2;
	const struct pcc_parse_opts *op;
	struct pcc_pkt_info info, info2;
	struct pcc_cc_frame cc;
	struct rte_mbuf m1, m2;
	struct fin in = { data, size };
	uint8_t *frame, *seg1, *seg2, *copy;
	uint32_t len, cut;
	uint8_t split;
	int rc, rc2;

	op = opts_from_byte(fin_u8(&in), &o);
	split = fin_u8(&in);
	if (in.n > UINT16_MAX)
		return 0;
	len = (uint32_t)in.n;
	frame = dup_cap(in.p, len, len);

	memset(&info, 0, sizeof(info));
	rc = pcc_parse(frame, len, op, &info);
	CHECK(rc <= 0 && rc > PCC_PROTO_ERR_MAX);
	CHECK(pcc_proto_strerror(rc) != NULL);

	/* the RP's lane: what pcc_cc_match() accepts, pcc_parse() parses
	 * alike (frame holds exactly len bytes: ASan sees any read past) */
	if (pcc_cc_match(frame, len, op, &cc)) {
		CHECK(rc == 0 && cc.kind == info.kind && cc.dqpn == info.dqpn &&
				cc.psn == info.psn && cc.ttl == info.ttl &&
				cc.bth_flags == info.bth_flags &&
				cc.syndrome == info.aeth_syndrome && cc.l3_off == info.l3_off &&
				!(info.flags & PCC_PKT_F_IPV6));
		CHECK(pcc_cc_icrc_ok(frame, &cc) == (pcc_icrc_verify(frame, &info) == 0));
		/* four of it at once: the vectors' lanes, where the CPU has
		 * them (valgrind's does not), read what one frame does */
		{
			const uint8_t *fr[4] = { frame, frame, frame, frame };
			const struct pcc_cc_frame c4[4] = { cc, cc, cc, cc };

			CHECK(pcc_cc_icrc_ok_bulk(fr, c4, 4) ==
					(pcc_cc_icrc_ok(frame, &cc) ? 0xfu : 0u));
		}
	}

	/* single-segment mbuf: same answer */
	fake_mbuf(&m1, frame, (uint16_t)len, len, NULL);
	memset(&info2, 0, sizeof(info2));
	rc2 = pcc_parse_mbuf(&m1, op, &info2);
	CHECK(rc2 == rc);
	if (rc == 0)
		CHECK(info_equal(&info, &info2));

	/* two-segment chain cut at 1..len-1: same answer */
	if (len >= 2) {
		cut = 1 + (uint32_t)split * (len - 1) / 256;
		seg1 = dup_cap(frame, cut, cut);
		seg2 = dup_cap(frame + cut, len - cut, len - cut);
		fake_mbuf(&m2, seg2, (uint16_t)(len - cut), len - cut, NULL);
		fake_mbuf(&m1, seg1, (uint16_t)cut, len, &m2);
		m1.nb_segs = 2;
		memset(&info2, 0, sizeof(info2));
		rc2 = pcc_parse_mbuf(&m1, op, &info2);
		CHECK(rc2 == rc);
		if (rc == 0)
			CHECK(info_equal(&info, &info2));
		free(seg1);
		free(seg2);
	}

	if (rc != 0)
		goto out;
	check_info(&info, len, &o);

	if (info.kind != PCC_PKT_OTHER)
		CHECK(pcc_frame_ecn_get(frame, len) == info.ecn);

	if (info.kind == PCC_PKT_PROBE_REQ || info.kind == PCC_PKT_PROBE_RESP) {
		struct pcc_probe p;
		const uint8_t *custom = NULL;

		rc2 = pcc_probe_parse(frame, &info, &p, &custom);
		if (rc2 == 0 && custom != NULL) {
			CHECK(custom >= frame && custom <= frame + len);
			CHECK(p.custom_len <= (size_t)(frame + len - custom));
		}
	}
	if (info.flags & PCC_PKT_F_MAD) {
		struct pcc_mad_hdr mad;

		CHECK(info.payload_off <= len);
		rc2 = pcc_mad_hdr_parse(frame + info.payload_off, len - info.payload_off, &mad);
		CHECK(rc2 == 0);
	}
	if (info.kind == PCC_PKT_IFA2) {
		struct pcc_ifa2_info ii;
		struct pcc_ifa2_hop hop;
		unsigned int i;

		/* over UDP pcc_parse() checks what pcc_ifa2_parse() does: a
		 * frame with a kind is well formed (doc/wire.md 3.3) */
		rc2 = pcc_ifa2_parse(frame, len, o.ifa2_proto, &ii);
		if (frame[info.l4_off - PCC_IFA2_HDR_LEN + 1] == 17)
			CHECK(rc2 == 0);
		if (rc2 == 0) {
			CHECK(ii.ifa_off + PCC_IFA2_HDR_LEN == info.l4_off);
			for (i = 0; i < ii.n_hops; i++)
				CHECK(pcc_ifa2_get_hop(frame, len, &ii, i, &hop) == 0);
		}
	}
	if (info.kind == PCC_PKT_IFA1) {
		struct pcc_ifa1_hdr h;
		uint32_t off = (uint32_t)info.l4_off + PCC_UDP_HDR_LEN;

		/* pcc_parse() checks the header pcc_ifa1_parse() does
		 * (doc/wire.md 3.3) */
		CHECK(off + PCC_IFA1_HDR_LEN <= len);
		rc2 = pcc_ifa1_parse(frame + off, len - off, o.ifa1_marker, &h);
		CHECK(rc2 == 0);
		CHECK(h.marker == o.ifa1_marker);
	}
	if (info.bth_off != 0 && (info.bth_flags & PCC_BTH_INT)) {
		struct pcc_int_hdr ih;

		(void)pcc_int_parse(frame + info.payload_off, len - info.payload_off, &ih);
	}

	/* ICRC: verify agrees with the parse; update makes it verify */
	if (info.bth_off != 0) {
		rc2 = pcc_icrc_verify(frame, &info);
		CHECK(rc2 == 0 || rc2 == PCC_PROTO_ERR_BAD_ICRC);
		if (o.check_icrc)
			CHECK(rc2 == 0);
		copy = dup_cap(frame, len, len);
		CHECK(pcc_icrc_update(copy, &info) == 0);
		CHECK(pcc_icrc_verify(copy, &info) == 0);
		o2 = o;
		o2.check_icrc = true;
		memset(&info2, 0, sizeof(info2));
		CHECK(pcc_parse(copy, len, &o2, &info2) == 0);
		CHECK(info2.flags & PCC_PKT_F_ICRC_OK);
		info2.flags &= ~PCC_PKT_F_ICRC_OK;
		info.flags &= ~PCC_PKT_F_ICRC_OK;
		CHECK(info_equal(&info, &info2));
		free(copy);
	}
out:
	free(frame);
	return 0;
}

static inline bool
resp_of(const struct pcc_pkt_info *info)
{
	return info->kind == PCC_PKT_PROBE_RESP;
}

/* pcc_probe_fast_reflect_mbufs() on f (len bytes) in an mbuf (not from
 * a pool): whether it answered; the bytes it counts are the frame's. */
static uint64_t
reflect_mbuf(uint8_t *f, uint16_t len, struct pcc_probe_fast_ans *a)
{
	struct rte_mbuf m, *pm = &m;
	uint64_t done, nb = ~0ull;

	memset(&m, 0, sizeof(m));
	m.buf_addr = f;
	m.buf_len = len;
	rte_mbuf_refcnt_set(&m, 1);
	m.nb_segs = 1;
	m.data_len = len;
	m.pkt_len = len;
	done = pcc_probe_fast_reflect_mbufs(&pm, 1, a, &nb);
	CHECK(nb == (done != 0 ? len : 0));
	return done;
}

/*
 * The NP's fast path (pcc_probe_fast_match(), pcc_probe_fast_answer())
 * against the generic one (pcc_parse() with the engine's options,
 * pcc_probe_parse(), pcc_probe_resp_inplace()): a frame it matches is a
 * request the generic path answers in place, and both answers are the
 * same bytes; a frame it does not match is left untouched.  The burst
 * forms (pcc_probe_fast_reflect(), pcc_probe_fast_reflect_mbufs(), a burst
 * of one) do the same.
 */
static void
probe_fast_vs_generic(const uint8_t *frame, uint32_t len)
{
	struct pcc_probe_fast_ans a, ra, ma;
	struct pcc_pkt_info in;
	struct pcc_probe p;
	uint8_t *f1, *f2, *f3, *f4;
	uint16_t len16 = (uint16_t)len;
	unsigned int i;
	int lay, dscp;
	void *fp;

	if (len > UINT16_MAX)
		return;
	f1 = dup_cap(frame, len, len);
	lay = pcc_probe_fast_match(f1, len);
	if (lay == 0) {
		CHECK(len == 0 || memcmp(f1, frame, len) == 0);
		f3 = dup_cap(frame, len, len);
		fp = f3;
		memset(&ra, 0, sizeof(ra));
		ra.dscp = -1;
		CHECK(pcc_probe_fast_reflect(&fp, &len16, 1, &ra) == 0);
		CHECK(len == 0 || memcmp(f3, frame, len) == 0);
		CHECK(reflect_mbuf(f3, len16, &ra) == 0);
		CHECK(len == 0 || memcmp(f3, frame, len) == 0);
		free(f3);
		free(f1);
		return;
	}
	f2 = dup_cap(frame, len, len);
	CHECK(pcc_parse(f2, len, NULL, &in) == 0 && in.kind == PCC_PKT_PROBE_REQ);
	CHECK(pcc_probe_parse(f2, &in, &p, NULL) == 0 && !(p.flags & PCC_PROBE_F_HW_NP));
	memset(&a, 0, sizeof(a));
	a.np_recv_ts = 0x0102030405060708ull ^ len;
	a.np_send_ts = a.np_recv_ts + frame[len - 1];
	for (i = 0; i < PCC_PROBE_USER_LEN; i++)
		a.user[i] = (uint8_t)(frame[len - 2] * i);
	a.resp_ts = (uint32_t)frame[len - 3] << 8;
	a.dscp = (frame[len - 4] & 1) ? -1 : (int16_t)(frame[len - 4] >> 2);
	p.np_recv_ts = a.np_recv_ts;
	p.np_send_ts = a.np_send_ts;
	memcpy(p.user, a.user, sizeof(p.user));
	p.resp_ts = a.resp_ts;
	dscp = a.dscp >= 0 ? a.dscp : in.dscp;
	CHECK(pcc_probe_resp_inplace(f2, len, &in, (uint8_t)dscp, &p) == (int)len);
	f3 = dup_cap(frame, len, len);
	f4 = dup_cap(frame, len, len);
	fp = f3;
	ra = a;
	ma = a;
	CHECK(pcc_probe_fast_answer(f1, lay, &a) == (int)len);
	CHECK(memcmp(f1, f2, len) == 0);
	CHECK(pcc_probe_fast_reflect(&fp, &len16, 1, &ra) == 1);
	CHECK(memcmp(f3, f2, len) == 0);
	CHECK(reflect_mbuf(f4, len16, &ma) == 1);
	CHECK(memcmp(f4, f2, len) == 0);
	free(f1);
	free(f2);
	free(f3);
	free(f4);
}

/*
 * fuzz_probe: [opts byte][frame...]: pcc_parse() then pcc_probe_parse();
 * a probe is rebuilt from the decoded values and must decode the same.
 * The NP's fast path answers as the generic path (above).
 */
static FUZZ_UNUSED int
fuzz_probe(const uint8_t *data, size_t size)
{
	static uint8_t out[2048];
	struct pcc_parse_opts o;
	const struct pcc_parse_opts *op;
	struct pcc_pkt_info info, info2;
	struct pcc_probe p, p2;
	struct pcc_l3_spec l3;
	const uint8_t *custom = NULL, *custom2 = NULL;
	struct fin in = { data, size };
	uint8_t *frame;
	uint32_t len;
	bool resp;
	int rc;

	op = opts_from_byte(fin_u8(&in), &o);
	if (in.n > UINT16_MAX)
		return 0;
	len = (uint32_t)in.n;
	probe_fast_vs_generic(in.p, len);
	frame = dup_cap(in.p, len, len);
	rc = pcc_parse(frame, len, op, &info);
	if (rc != 0 || (info.kind != PCC_PKT_PROBE_REQ && info.kind != PCC_PKT_PROBE_RESP)) {
		if (rc == 0)
			CHECK(pcc_probe_parse(frame, &info, &p, NULL) < 0);
		goto out;
	}
	memset(&p, 0, sizeof(p));
	rc = pcc_probe_parse(frame, &info, &p, &custom);
	if (rc != 0)
		goto out;
	if (custom != NULL) {
		CHECK(custom >= frame + info.payload_off);
		CHECK(custom + p.custom_len <= frame + len);
	} else {
		CHECK(p.custom_len == 0);
	}
	/* the MAD alone decodes the same (the IFA probes' payload) */
	memset(&p2, 0, sizeof(p2));
	CHECK(pcc_probe_mad_parse(frame + info.payload_off, info.payload_len, &p2, &custom2) ==
			(int)info.kind);
	CHECK(p2.tid == p.tid && p2.custom_len == p.custom_len && custom2 == custom);
	CHECK(pcc_probe_mad_build(out, PCC_PROBE_MAD_LEN, resp_of(&info), &p, custom) ==
			PCC_PROBE_MAD_LEN);
	CHECK(pcc_probe_mad_parse(out, PCC_PROBE_MAD_LEN, &p2, NULL) == (int)info.kind);

	/* rebuild from the decoded values */
	resp = info.kind == PCC_PKT_PROBE_RESP;
	memset(&l3, 0, sizeof(l3));
	l3.vlan = (info.flags & PCC_PKT_F_VLAN) != 0;
	l3.vlan_tci = info.vlan_tci;
	l3.ipv6 = (info.flags & PCC_PKT_F_IPV6) != 0;
	memcpy(&l3.src, &info.src, sizeof(l3.src));
	memcpy(&l3.dst, &info.dst, sizeof(l3.dst));
	l3.dscp = info.dscp;
	l3.ecn = info.ecn;
	l3.ttl = info.ttl;
	l3.udp_sport = info.udp_sport;
	if (resp)
		rc = pcc_probe_resp_build(out, sizeof(out), &l3, info.dqpn, &p, custom);
	else
		rc = pcc_probe_req_build(out, sizeof(out), &l3, info.deth_sqpn, &p, custom);
	CHECK(rc > 0);
	memset(&info2, 0, sizeof(info2));
	CHECK(pcc_parse(out, (uint32_t)rc, &o, &info2) == 0);
	CHECK(info2.kind == info.kind);
	memset(&p2, 0, sizeof(p2));
	CHECK(pcc_probe_parse(out, &info2, &p2, &custom2) == 0);
	CHECK(p2.tid == p.tid && p2.flow_tag == p.flow_tag && p2.slot == p.slot &&
			p2.custom_len == p.custom_len && p2.req_send_ts == p.req_send_ts);
	if (p.custom_len != 0)
		CHECK(custom2 != NULL && memcmp(custom2, custom, p.custom_len) == 0);
	if (resp)
		CHECK(p2.np_recv_ts == p.np_recv_ts && p2.np_send_ts == p.np_send_ts &&
				memcmp(p2.user, p.user, sizeof(p.user)) == 0 &&
				p2.resp_ts == p.resp_ts && (p2.flags & PCC_PROBE_F_RESPONSE));
out:
	free(frame);
	return 0;
}

/* ---- single headers: parse, build back, parse again ------------------ */

/* fuzz_bth: [BTH bytes...] */
static FUZZ_UNUSED int
fuzz_bth(const uint8_t *data, size_t size)
{
	struct pcc_bth a, b;
	uint8_t *buf = dup_cap(data, size, size);
	uint8_t out[PCC_BTH_LEN];
	uint32_t ext_len = 0;
	int rc;

	if (size > 0) {
		rc = pcc_bth_opcode_ext(buf[0], &ext_len);
		CHECK(rc >= 0 || rc == PCC_PROTO_ERR_UNKNOWN_OPCODE);
		if (rc >= 0)
			CHECK(ext_len <= PCC_RETH_LEN + PCC_IMMDT_LEN + PCC_ATOMICETH_LEN +
							PCC_DETH_LEN);
		(void)pcc_bth_opcode_name(buf[0]);
	}
	rc = pcc_bth_parse(buf, u32len(size), &a);
	if (rc == 0) {
		CHECK(size >= PCC_BTH_LEN);
		CHECK(a.se <= 1 && a.mig <= 1 && a.ackreq <= 1 && a.pad_cnt <= 3 && a.tver == 0);
		CHECK(a.dqpn <= PCC_QPN_MASK && a.psn <= PCC_PSN_MASK);
		CHECK(pcc_bth_build(out, sizeof(out), &a) == PCC_BTH_LEN);
		CHECK(pcc_bth_parse(out, sizeof(out), &b) == 0);
		CHECK(a.opcode == b.opcode && a.se == b.se && a.mig == b.mig &&
				a.pad_cnt == b.pad_cnt && a.tver == b.tver && a.flags == b.flags &&
				a.ackreq == b.ackreq && a.pkey == b.pkey && a.dqpn == b.dqpn &&
				a.psn == b.psn);
		/* everything but the reserved bits of byte 8 survives */
		CHECK(memcmp(out, buf, 8) == 0 && out[8] == (buf[8] & 0x80) &&
				memcmp(out + 9, buf + 9, 3) == 0);
		CHECK(pcc_bth_build(out, PCC_BTH_LEN - 1, &a) == PCC_PROTO_ERR_NO_SPACE);
	} else {
		CHECK(rc < 0 && rc > PCC_PROTO_ERR_MAX);
	}
	free(buf);
	return 0;
}

/* fuzz_aeth: [AETH bytes...] */
static FUZZ_UNUSED int
fuzz_aeth(const uint8_t *data, size_t size)
{
	struct pcc_aeth a, b;
	uint8_t *buf = dup_cap(data, size, size);
	uint8_t out[PCC_AETH_LEN];
	int rc;

	rc = pcc_aeth_parse(buf, u32len(size), &a);
	if (rc == 0) {
		CHECK(size >= PCC_AETH_LEN && a.msn <= 0xffffff);
		CHECK(pcc_aeth_build(out, sizeof(out), &a) == PCC_AETH_LEN);
		CHECK(memcmp(out, buf, PCC_AETH_LEN) == 0);
		CHECK(pcc_aeth_parse(out, sizeof(out), &b) == 0);
		CHECK(a.syndrome == b.syndrome && a.msn == b.msn);
	}
	free(buf);
	return 0;
}

/* fuzz_reth: [RETH bytes...] */
static FUZZ_UNUSED int
fuzz_reth(const uint8_t *data, size_t size)
{
	struct pcc_reth a, b;
	uint8_t *buf = dup_cap(data, size, size);
	uint8_t out[PCC_RETH_LEN];
	int rc;

	rc = pcc_reth_parse(buf, u32len(size), &a);
	if (rc == 0) {
		CHECK(size >= PCC_RETH_LEN);
		CHECK(pcc_reth_build(out, sizeof(out), &a) == PCC_RETH_LEN);
		CHECK(memcmp(out, buf, PCC_RETH_LEN) == 0);
		CHECK(pcc_reth_parse(out, sizeof(out), &b) == 0);
		CHECK(a.va == b.va && a.rkey == b.rkey && a.dma_len == b.dma_len);
	}
	free(buf);
	return 0;
}

/* fuzz_deth: [DETH bytes...] */
static FUZZ_UNUSED int
fuzz_deth(const uint8_t *data, size_t size)
{
	struct pcc_deth a, b;
	uint8_t *buf = dup_cap(data, size, size);
	uint8_t out[PCC_DETH_LEN];
	int rc;

	rc = pcc_deth_parse(buf, u32len(size), &a);
	if (rc == 0) {
		CHECK(size >= PCC_DETH_LEN && a.sqpn <= PCC_QPN_MASK);
		CHECK(pcc_deth_build(out, sizeof(out), &a) == PCC_DETH_LEN);
		/* byte 4 is reserved */
		CHECK(memcmp(out, buf, 4) == 0 && memcmp(out + 5, buf + 5, 3) == 0);
		CHECK(pcc_deth_parse(out, sizeof(out), &b) == 0);
		CHECK(a.qkey == b.qkey && a.sqpn == b.sqpn);
	}
	free(buf);
	return 0;
}

/* fuzz_mad_hdr: [MAD common header bytes...] */
static FUZZ_UNUSED int
fuzz_mad_hdr(const uint8_t *data, size_t size)
{
	struct pcc_mad_hdr a, b;
	uint8_t *buf = dup_cap(data, size, size);
	uint8_t out[PCC_MAD_HDR_LEN];
	int rc;

	rc = pcc_mad_hdr_parse(buf, u32len(size), &a);
	if (rc == 0) {
		CHECK(size >= PCC_MAD_HDR_LEN);
		CHECK(pcc_mad_hdr_build(out, sizeof(out), &a) == PCC_MAD_HDR_LEN);
		/* bytes 18-19 are reserved */
		CHECK(memcmp(out, buf, 18) == 0 && memcmp(out + 20, buf + 20, 4) == 0);
		CHECK(pcc_mad_hdr_parse(out, sizeof(out), &b) == 0);
		CHECK(a.base_version == b.base_version && a.mgmt_class == b.mgmt_class &&
				a.class_version == b.class_version && a.method == b.method &&
				a.status == b.status && a.class_specific == b.class_specific &&
				a.tid == b.tid && a.attr_id == b.attr_id &&
				a.attr_mod == b.attr_mod);
	}
	free(buf);
	return 0;
}

/* ---- telemetry parsers ------------------------------------------------ */

static bool
hop_equal(const struct pcc_ifa2_hop *a, const struct pcc_ifa2_hop *b)
{
	return a->lns == b->lns && a->device_id == b->device_id && a->ttl == b->ttl &&
			a->port_speed == b->port_speed && a->congestion == b->congestion &&
			a->queue_id == b->queue_id && a->rx_sec == b->rx_sec &&
			a->egress_port == b->egress_port && a->ingress_port == b->ingress_port &&
			a->rx_ns == b->rx_ns && a->residence_ns == b->residence_ns &&
			memcmp(a->profile, b->profile, sizeof(a->profile)) == 0;
}

static uint8_t
ifa2_proto_from_byte(uint8_t b)
{
	static const uint8_t protos[4] = { PCC_IFA2_PROTO_DEFAULT, 131, 17, 0 };

	return protos[b & 3];
}

/*
 * fuzz_ifa2: [proto byte][frame...]: pcc_ifa2_parse() + pcc_ifa2_get_hop()
 * over all hops; the header parsers on the raw bytes (with exact
 * build-back: IFA2 headers and hops have no reserved bits).
 */
static FUZZ_UNUSED int
fuzz_ifa2(const uint8_t *data, size_t size)
{
	struct fin in = { data, size };
	struct pcc_ifa2_info ii;
	struct pcc_ifa2_hop hop, hop2;
	struct pcc_ifa2_hdr h;
	struct pcc_ifa2_md_hdr md;
	uint8_t out[PCC_IFA2_HOP_LEN];
	uint8_t proto;
	uint8_t *frame;
	uint32_t len;
	unsigned int i;
	int rc;

	proto = ifa2_proto_from_byte(fin_u8(&in));
	len = u32len(in.n);
	frame = dup_cap(in.p, len, len);

	if (pcc_ifa2_hdr_parse(frame, len, &h) == 0) {
		CHECK(h.ver == PCC_IFA2_VERSION && h.gns <= 0xf);
		CHECK(pcc_ifa2_hdr_build(out, sizeof(out), &h) == PCC_IFA2_HDR_LEN);
		CHECK(memcmp(out, frame, PCC_IFA2_HDR_LEN) == 0);
	}
	if (pcc_ifa2_md_hdr_parse(frame, len, &md) == 0) {
		CHECK(md.cur_len % 8 == 0);
		CHECK(pcc_ifa2_md_hdr_build(out, sizeof(out), &md) == PCC_IFA2_MD_HDR_LEN);
		CHECK(memcmp(out, frame, PCC_IFA2_MD_HDR_LEN) == 0);
	}
	if (pcc_ifa2_hop_parse(frame, len, &hop) == 0) {
		CHECK(pcc_ifa2_hop_build(out, sizeof(out), &hop) == PCC_IFA2_HOP_LEN);
		CHECK(memcmp(out, frame, PCC_IFA2_HOP_LEN) == 0);
		CHECK(pcc_ifa2_hop_parse(out, sizeof(out), &hop2) == 0);
		CHECK(hop_equal(&hop, &hop2));
		CHECK(pcc_ifa2_speed_gbps(hop.port_speed) == 0 ||
				pcc_ifa2_speed_code(pcc_ifa2_speed_gbps(hop.port_speed)) ==
						hop.port_speed);
	}

	rc = pcc_ifa2_parse(frame, len, proto, &ii);
	if (rc == 0) {
		CHECK(proto != 0);
		CHECK(ii.hdr.ver == PCC_IFA2_VERSION && ii.hdr.next_hdr == 17);
		CHECK(ii.md.cur_len % 8 == 0 && ii.md.cur_len <= ii.hdr.max_len);
		CHECK(ii.n_hops == ii.md.cur_len * 4 / PCC_IFA2_HOP_LEN);
		CHECK(ii.ifa_off < ii.udp_off && ii.udp_off < ii.md_off &&
				ii.md_off < ii.stack_off);
		CHECK((uint32_t)ii.stack_off + ii.n_hops * PCC_IFA2_HOP_LEN == ii.payload_off);
		CHECK(ii.payload_off <= len);
		for (i = 0; i < ii.n_hops; i++)
			CHECK(pcc_ifa2_get_hop(frame, len, &ii, i, &hop) == 0);
		CHECK(pcc_ifa2_get_hop(frame, len, &ii, ii.n_hops, &hop) == PCC_PROTO_ERR_INVAL);
	} else {
		CHECK(rc < 0 && rc > PCC_PROTO_ERR_MAX);
	}
	free(frame);
	return 0;
}

static uint64_t
ifa1_marker_from_byte(uint8_t b)
{
	static const uint64_t markers[4] = {
		PCC_IFA1_MARKER_DEFAULT,
		0x8000000000000001ull,
		UINT64_MAX,
		0,
	};

	return markers[b & 3];
}

/* fuzz_ifa1: [marker byte][IFA1 header + records...] */
static FUZZ_UNUSED int
fuzz_ifa1(const uint8_t *data, size_t size)
{
	struct fin in = { data, size };
	struct pcc_ifa1_hdr h, h2;
	struct pcc_ifa2_hop hop;
	uint8_t out[PCC_IFA1_HDR_LEN];
	uint64_t marker;
	uint8_t *buf;
	uint32_t len, off;
	int rc;

	marker = ifa1_marker_from_byte(fin_u8(&in));
	len = u32len(in.n);
	buf = dup_cap(in.p, len, len);
	rc = pcc_ifa1_parse(buf, len, marker, &h);
	if (rc == 0) {
		CHECK(h.marker == marker && (marker >> 63) == 1);
		CHECK(h.ver == PCC_IFA1_VERSION);
		CHECK(h.cur_len >= PCC_IFA1_HDR_LEN && h.cur_len <= h.max_len && h.cur_len <= len);
		CHECK((h.cur_len - PCC_IFA1_HDR_LEN) % PCC_IFA2_HOP_LEN == 0);
		for (off = PCC_IFA1_HDR_LEN; off < h.cur_len; off += PCC_IFA2_HOP_LEN)
			CHECK(pcc_ifa2_hop_parse(buf + off, len - off, &hop) == 0);
		CHECK(pcc_ifa1_build(out, sizeof(out), &h) == PCC_IFA1_HDR_LEN);
		/* byte 11 is reserved */
		CHECK(memcmp(out, buf, 11) == 0 &&
				memcmp(out + 12, buf + 12, PCC_IFA1_HDR_LEN - 12) == 0);
		CHECK(pcc_ifa1_parse(out, sizeof(out), marker, &h2) ==
				(h.cur_len == PCC_IFA1_HDR_LEN ? 0 : PCC_PROTO_ERR_BAD_LENGTH));
	} else {
		CHECK(rc < 0 && rc > PCC_PROTO_ERR_MAX);
	}
	free(buf);
	return 0;
}

static bool
int_equal(const struct pcc_int_hdr *a, const struct pcc_int_hdr *b)
{
	unsigned int i;

	if (a->n_hops != b->n_hops)
		return false;
	for (i = 0; i < a->n_hops && i < PCC_INT_MAX_HOPS; i++)
		if (a->hop[i].rate_code != b->hop[i].rate_code ||
				a->hop[i].time_ns != b->hop[i].time_ns ||
				a->hop[i].tx_bytes != b->hop[i].tx_bytes ||
				a->hop[i].qlen != b->hop[i].qlen)
			return false;
	return true;
}

/* fuzz_int: [INT header bytes...] */
static FUZZ_UNUSED int
fuzz_int(const uint8_t *data, size_t size)
{
	struct pcc_int_hdr h, h2;
	uint8_t out[PCC_INT_HDR_LEN];
	uint8_t *buf = dup_cap(data, size, size);
	unsigned int i;
	int rc;

	rc = pcc_int_parse(buf, u32len(size), &h);
	if (rc == 0) {
		CHECK(size >= PCC_INT_HDR_LEN && h.n_hops <= PCC_INT_MAX_HOPS);
		for (i = 0; i < h.n_hops; i++) {
			CHECK(h.hop[i].time_ns <= 0xffffff);
			CHECK(h.hop[i].tx_bytes <= 0xfffff);
			CHECK(h.hop[i].qlen <= 0x1ffff);
			CHECK(pcc_int_rate_gbps(h.hop[i].rate_code) != 0);
		}
		CHECK(pcc_int_build(out, sizeof(out), &h) == PCC_INT_HDR_LEN);
		CHECK(pcc_int_parse(out, sizeof(out), &h2) == 0);
		CHECK(int_equal(&h, &h2));
		/* used slots and the count are written back as they were */
		CHECK(memcmp(out, buf, h.n_hops * PCC_INT_HOP_LEN) == 0);
		CHECK(memcmp(out + PCC_INT_HDR_LEN - 2, buf + PCC_INT_HDR_LEN - 2, 2) == 0);
	} else {
		CHECK(rc < 0 && rc > PCC_PROTO_ERR_MAX);
	}
	free(buf);
	return 0;
}

/* ---- in-place mutators -------------------------------------------- */

/*
 * fuzz_ifa2_push_hop: [ctl byte][hop 32 bytes][frame...]
 * ctl: bits 0-1 IFA protocol, bits 2-7 spare capacity / 4 (0..252).
 */
static FUZZ_UNUSED int
fuzz_ifa2_push_hop(const uint8_t *data, size_t size)
{
	struct fin in = { data, size };
	struct pcc_ifa2_info before, after;
	struct pcc_ifa2_hop hop, got;
	uint8_t hopbuf[PCC_IFA2_HOP_LEN];
	uint8_t ctl, proto, *buf;
	uint32_t len, len2, cap;
	int rc, rc0;
	size_t i;

	ctl = fin_u8(&in);
	proto = ifa2_proto_from_byte(ctl);
	for (i = 0; i < sizeof(hopbuf); i++)
		hopbuf[i] = fin_u8(&in);
	CHECK(pcc_ifa2_hop_parse(hopbuf, sizeof(hopbuf), &hop) == 0);
	len = u32len(in.n);
	if (len > UINT16_MAX)
		return 0;
	cap = len + (uint32_t)(ctl >> 2) * 4;
	buf = dup_cap(in.p, len, cap);

	rc0 = pcc_ifa2_parse(buf, len, proto, &before);
	len2 = len;
	rc = pcc_ifa2_push_hop(buf, &len2, cap, proto, &hop);
	if (rc == 0) {
		CHECK(rc0 == 0);
		CHECK(len2 <= cap && len2 <= len + PCC_IFA2_HOP_LEN);
		CHECK(pcc_ifa2_parse(buf, len2, proto, &after) == 0);
		CHECK(after.n_hops == before.n_hops + 1);
		CHECK(after.md.hop_limit == before.md.hop_limit - 1);
		CHECK(after.md.cur_len == before.md.cur_len + 8);
		CHECK(pcc_ifa2_get_hop(buf, len2, &after, 0, &got) == 0);
		CHECK(hop_equal(&hop, &got));
		/* the newest hop is prepended: older hops follow unchanged */
		CHECK(memcmp(buf + after.stack_off + PCC_IFA2_HOP_LEN, in.p + before.stack_off,
				      (size_t)before.n_hops * PCC_IFA2_HOP_LEN) == 0);
	} else {
		CHECK(rc < 0 && rc > PCC_PROTO_ERR_MAX);
		CHECK(len2 == len);
		CHECK(len == 0 || memcmp(buf, in.p, len) == 0);
	}
	free(buf);
	return 0;
}

/*
 * fuzz_ifa2_insert: [ctl byte][IFA hdr 4][md hdr 4][frame...]
 * ctl as for fuzz_ifa2_push_hop.  Header bytes are decoded field by field
 * without validation, so out-of-range values reach the function.
 */
static FUZZ_UNUSED int
fuzz_ifa2_insert(const uint8_t *data, size_t size)
{
	struct fin in = { data, size };
	struct pcc_ifa2_hdr h;
	struct pcc_ifa2_md_hdr md;
	struct pcc_ifa2_info ii;
	uint8_t ctl, proto, b, *buf;
	uint32_t len, len2, cap;
	int rc;

	ctl = fin_u8(&in);
	proto = ifa2_proto_from_byte(ctl);
	b = fin_u8(&in);
	h.ver = b >> 4;
	h.gns = b & 0xf;
	if (fin_u8(&in) & 1) /* sometimes out of range */
		h.gns |= 0x10;
	h.next_hdr = fin_u8(&in);
	h.flags = fin_u8(&in);
	h.max_len = fin_u8(&in);
	md.req_vector = fin_u8(&in);
	md.action_vector = fin_u8(&in);
	md.hop_limit = fin_u8(&in);
	md.cur_len = fin_u8(&in);
	len = u32len(in.n);
	if (len > UINT16_MAX)
		return 0;
	cap = len + (uint32_t)(ctl >> 2) * 4;
	buf = dup_cap(in.p, len, cap);

	len2 = len;
	rc = pcc_ifa2_insert(buf, &len2, cap, proto, &h, &md);
	if (rc == 0) {
		CHECK(len2 <= cap && len2 <= len + 8);
		CHECK(pcc_ifa2_parse(buf, len2, proto, &ii) == 0);
		CHECK(ii.n_hops == 0 && ii.hdr.ver == PCC_IFA2_VERSION && ii.hdr.gns == h.gns &&
				ii.hdr.flags == h.flags && ii.hdr.max_len == h.max_len &&
				ii.hdr.next_hdr == 17);
		CHECK(ii.md.req_vector == md.req_vector &&
				ii.md.action_vector == md.action_vector &&
				ii.md.hop_limit == md.hop_limit && ii.md.cur_len == 0);
	} else {
		CHECK(rc < 0 && rc > PCC_PROTO_ERR_MAX);
		CHECK(len2 == len);
		CHECK(len == 0 || memcmp(buf, in.p, len) == 0);
	}
	free(buf);
	return 0;
}

/*
 * fuzz_ifa1_push_hop: [ctl byte][hop 32 bytes][IFA1 header + records...]
 * ctl: bits 0-1 marker, bits 2-7 spare capacity / 4.
 */
static FUZZ_UNUSED int
fuzz_ifa1_push_hop(const uint8_t *data, size_t size)
{
	struct fin in = { data, size };
	struct pcc_ifa1_hdr before, after;
	struct pcc_ifa2_hop hop, got;
	uint8_t hopbuf[PCC_IFA2_HOP_LEN];
	uint8_t ctl, *buf;
	uint64_t marker;
	uint32_t len, len2, cap;
	int rc, rc0;
	size_t i;

	ctl = fin_u8(&in);
	marker = ifa1_marker_from_byte(ctl);
	for (i = 0; i < sizeof(hopbuf); i++)
		hopbuf[i] = fin_u8(&in);
	CHECK(pcc_ifa2_hop_parse(hopbuf, sizeof(hopbuf), &hop) == 0);
	len = u32len(in.n);
	if (len > UINT16_MAX)
		return 0;
	cap = len + (uint32_t)(ctl >> 2) * 4;
	buf = dup_cap(in.p, len, cap);

	rc0 = pcc_ifa1_parse(buf, len, marker, &before);
	len2 = len;
	rc = pcc_ifa1_push_hop(buf, &len2, cap, marker, &hop);
	if (rc == 0) {
		CHECK(rc0 == 0);
		CHECK(len2 == len + PCC_IFA2_HOP_LEN && len2 <= cap);
		CHECK(pcc_ifa1_parse(buf, len2, marker, &after) == 0);
		CHECK(after.cur_len == before.cur_len + PCC_IFA2_HOP_LEN);
		CHECK(after.hop_limit == before.hop_limit - 1);
		CHECK(after.hop_count == (before.hop_count == 255 ? 255 : before.hop_count + 1));
		CHECK(pcc_ifa2_hop_parse(buf + before.cur_len, len2 - before.cur_len, &got) == 0);
		CHECK(hop_equal(&hop, &got));
		/* data after the records moved up by 32 bytes */
		CHECK(memcmp(buf + after.cur_len, in.p + before.cur_len, len - before.cur_len) ==
				0);
	} else {
		CHECK(rc < 0 && rc > PCC_PROTO_ERR_MAX);
		CHECK(len2 == len);
		CHECK(len == 0 || memcmp(buf, in.p, len) == 0);
	}
	free(buf);
	return 0;
}

/*
 * fuzz_int_push_hop: [rate][time 8][bytes 8][qlen 8][INT header...]
 */
static FUZZ_UNUSED int
fuzz_int_push_hop(const uint8_t *data, size_t size)
{
	struct fin in = { data, size };
	struct pcc_int_hdr before, after;
	uint64_t t, bytes, qlen, q;
	uint8_t rate, *buf;
	uint32_t len;
	unsigned int i, n;
	int rc, rc0;

	rate = fin_u8(&in);
	if (rate & 0x80) /* mostly valid codes, sometimes not */
		rate &= 0x7;
	t = fin_u64(&in);
	bytes = fin_u64(&in);
	qlen = fin_u64(&in);
	len = u32len(in.n);
	buf = dup_cap(in.p, len, len);

	rc0 = pcc_int_parse(buf, len, &before);
	rc = pcc_int_push_hop(buf, len, rate, t, bytes, qlen);
	if (rc == 0) {
		CHECK(rc0 == 0 && before.n_hops < PCC_INT_MAX_HOPS);
		CHECK(pcc_int_parse(buf, len, &after) == 0);
		n = before.n_hops;
		CHECK(after.n_hops == n + 1);
		for (i = 0; i < n; i++)
			CHECK(after.hop[i].rate_code == before.hop[i].rate_code &&
					after.hop[i].time_ns == before.hop[i].time_ns &&
					after.hop[i].tx_bytes == before.hop[i].tx_bytes &&
					after.hop[i].qlen == before.hop[i].qlen);
		q = qlen / PCC_INT_QLEN_UNIT;
		CHECK(after.hop[n].rate_code == rate);
		CHECK(after.hop[n].time_ns == (t & 0xffffff));
		CHECK(after.hop[n].tx_bytes == ((bytes / PCC_INT_BYTES_UNIT) & 0xfffff));
		CHECK(after.hop[n].qlen == (q > 0x1ffff ? 0x1ffff : q));
		/* only the new slot and the count changed */
		CHECK(memcmp(buf, in.p, n * PCC_INT_HOP_LEN) == 0);
		CHECK(len == PCC_INT_HDR_LEN ||
				memcmp(buf + PCC_INT_HDR_LEN, in.p + PCC_INT_HDR_LEN,
						len - PCC_INT_HDR_LEN) == 0);
	} else {
		CHECK(rc < 0 && rc > PCC_PROTO_ERR_MAX);
		CHECK(len == 0 || memcmp(buf, in.p, len) == 0);
	}
	free(buf);
	return 0;
}

/*
 * fuzz_frame_ecn_set: [ecn][dscp][opts][frame...]
 * pcc_frame_ecn_set() on a copy with spare capacity (guard bytes must
 * stay), then pcc_dscp_set()/pcc_ecn_set() on the IP header.
 */
static FUZZ_UNUSED int
fuzz_frame_ecn_set(const uint8_t *data, size_t size)
{
	static const size_t spare = 16;
	struct fin in = { data, size };
	struct pcc_parse_opts o;
	struct pcc_pkt_info before, after;
	uint8_t ecn, dscp, *buf;
	uint32_t len, l3, i;
	int rc, rc0, v6;

	ecn = fin_u8(&in);
	if (!(ecn & 0x80)) /* mostly valid codepoints */
		ecn &= 3;
	dscp = fin_u8(&in);
	if (!(dscp & 0x80))
		dscp &= 0x3f;
	(void)opts_from_byte(fin_u8(&in), &o);
	o.check_ip_csum = true;
	len = u32len(in.n);
	if (len > UINT16_MAX)
		return 0;
	buf = dup_cap(in.p, len, len + spare);

	rc0 = pcc_parse(buf, len, &o, &before);
	rc = pcc_frame_ecn_set(buf, len, ecn);
	for (i = 0; i < spare; i++)
		CHECK(buf[len + i] == 0xa5);
	if (rc != 0) {
		CHECK(rc < 0 && rc > PCC_PROTO_ERR_MAX);
		CHECK(len == 0 || memcmp(buf, in.p, len) == 0);
		goto out;
	}
	CHECK(ecn <= 3);
	CHECK(pcc_frame_ecn_get(buf, len) == ecn);
	if (rc0 != 0)
		goto out;
	/* a frame that parsed (IPv4 checksum and ICRC checked) still does */
	CHECK(pcc_parse(buf, len, &o, &after) == 0);
	CHECK(after.ecn == ecn && after.dscp == before.dscp);
	after.ecn = before.ecn;
	CHECK(info_equal(&before, &after));
	/* only the TOS/traffic class and the IPv4 checksum changed */
	l3 = before.l3_off;
	v6 = (before.flags & PCC_PKT_F_IPV6) != 0;
	for (i = 0; i < len; i++) {
		if (v6 && (i == l3 || i == l3 + 1))
			continue;
		if (!v6 && (i == l3 + 1 || i == l3 + 10 || i == l3 + 11))
			continue;
		CHECK(buf[i] == in.p[i]);
	}

	rc = pcc_dscp_set(buf + l3, len - l3, dscp);
	if (rc == 0) {
		CHECK(dscp <= 63);
		CHECK(pcc_parse(buf, len, &o, &after) == 0);
		CHECK(after.dscp == dscp && after.ecn == ecn);
	} else {
		CHECK(dscp > 63);
	}
	rc = pcc_ecn_set(buf + l3, len - l3, before.ecn);
	CHECK(rc == 0);
	CHECK(pcc_ecn_get(buf + l3, len - l3) == before.ecn);
	CHECK(pcc_parse(buf, len, &o, &after) == 0);
out:
	free(buf);
	return 0;
}

/*
 * fuzz_icrc: [IP datagram...]: pcc_icrc_calc() on anything, the register
 * path against the older one, plus the ECN helpers on the raw IP header.
 */
static FUZZ_UNUSED int
fuzz_icrc(const uint8_t *data, size_t size)
{
	uint8_t *buf = dup_cap(data, size, size);
	uint32_t len = u32len(size);
	uint32_t c1, c2;
	int err1 = 0, err2 = 0, e;

	/* the register path (where the CPU has it) and the older one agree */
	c1 = pcc_icrc_calc(buf, len, &err1);
	proto_icrc_reg_use(false);
	c2 = pcc_icrc_calc(buf, len, &err2);
	proto_icrc_reg_use(true);
	CHECK(err1 == err2 && c1 == c2);
	CHECK(err1 <= 0 && err1 > PCC_PROTO_ERR_MAX);
	if (err1 < 0)
		CHECK(c1 == 0);
	(void)pcc_icrc_calc(buf, len, NULL);
	e = pcc_ecn_get(buf, len);
	CHECK(e < 0 || e <= 3);
	if (e >= 0 && pcc_ecn_set(buf, len, PCC_ECN_CE) == 0) {
		CHECK(pcc_ecn_get(buf, len) == PCC_ECN_CE);
		/* the ICRC masks ECN */
		if (err1 == 0) {
			c2 = pcc_icrc_calc(buf, len, &err2);
			CHECK(err2 == 0 && c2 == c1);
		}
	}
	free(buf);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the engine's ICRC path: in registers where the CPU allows */
	proto_icrc_reg_use(true);
	return FUZZ_ENTRY(data, size);
}
