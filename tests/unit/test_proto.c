/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the RoCEv2 core of lib/proto: parser, builders, ICRC,
 * ECN/DSCP, probes, mbuf parsing.  No EAL.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_mbuf.h>
#include <rte_net_crc.h>

#include "pcc_proto.h"
#include "pcc_proto_tlm.h"
#include "test_mbuf.h"

#define FRAME_MAX 2048

/* ---- helpers ------------------------------------------------------ */

static uint16_t
be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static void
wbe16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
			((uint32_t)p[3] << 24);
}

/* Independent ones'-complement sum (test's own implementation). */
static uint32_t
sum16(uint32_t s, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		s += (i & 1) ? p[i] : (uint32_t)p[i] << 8;
	return s;
}

static uint16_t
fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

static bool
ipv4_csum_ok(const uint8_t *ip)
{
	return fold(sum16(0, ip, (ip[0] & 0xf) * 4u)) == 0xffff;
}

static uint16_t
ipv4_csum_calc(const uint8_t *ip)
{
	uint8_t h[60];
	size_t n = (ip[0] & 0xf) * 4u;

	memcpy(h, ip, n);
	h[10] = h[11] = 0;
	return (uint16_t)~fold(sum16(0, h, n));
}

static bool
ipv6_udp_csum_ok(const uint8_t *ip6)
{
	uint16_t ulen = be16(ip6 + 4);
	uint32_t s = sum16(0, ip6 + 8, 32);

	s += ulen;
	s += 17;
	s = sum16(s, ip6 + 40, ulen);
	return be16(ip6 + 40 + 6) != 0 && fold(s) == 0xffff;
}

static const uint8_t v6_src[16] = {
	0x20,
	0x01,
	0x0d,
	0xb8,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0x01,
};
static const uint8_t v6_dst[16] = {
	0x20,
	0x01,
	0x0d,
	0xb8,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0x02,
};

static void
mk_l3(struct pcc_l3_spec *l3, bool v6, bool vlan)
{
	static const uint8_t dmac[6] = { 0x02, 0, 0, 0, 0, 0x02 };
	static const uint8_t smac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

	memset(l3, 0, sizeof(*l3));
	memcpy(l3->dst_mac, dmac, 6);
	memcpy(l3->src_mac, smac, 6);
	l3->vlan = vlan;
	l3->vlan_tci = 0x6123;
	l3->ipv6 = v6;
	if (v6) {
		memcpy(l3->src.v6, v6_src, 16);
		memcpy(l3->dst.v6, v6_dst, 16);
	} else {
		l3->src.v4 = 0x0a000001;
		l3->dst.v4 = 0x0a000002;
	}
	l3->dscp = 26;
	l3->ecn = PCC_ECN_ECT0;
	l3->ttl = 0; /* means 64 */
	l3->ip_id = 0x1234;
	l3->flow_label = 0xabcde;
	l3->udp_sport = 0xc123;
}

static const struct {
	bool v6, vlan;
} variants[4] = {
	{ false, false },
	{ false, true },
	{ true, false },
	{ true, true },
};

static const struct pcc_parse_opts *
icrc_opts(void)
{
	static struct pcc_parse_opts o;

	pcc_parse_opts_default(&o);
	o.check_icrc = true;
	return &o;
}

static const struct pcc_parse_opts *
strict_opts(void)
{
	static struct pcc_parse_opts o;

	pcc_parse_opts_default(&o);
	o.check_icrc = true;
	o.check_ip_csum = true;
	return &o;
}

/* Check everything below the BTH against the spec the frame was built from. */
static void
check_l3(const uint8_t *f, uint32_t len, const struct pcc_pkt_info *in,
		const struct pcc_l3_spec *l3)
{
	uint32_t l3_off = l3->vlan ? 18 : 14;
	uint32_t l4_off = l3_off + (l3->ipv6 ? 40 : 20);

	assert_int_equal(in->frame_len, len);
	assert_int_equal(in->l3_off, l3_off);
	assert_int_equal(in->l4_off, l4_off);
	assert_int_equal(in->bth_off, l4_off + 8);
	assert_int_equal(!!(in->flags & PCC_PKT_F_VLAN), l3->vlan);
	assert_int_equal(!!(in->flags & PCC_PKT_F_IPV6), l3->ipv6);
	assert_int_equal(in->vlan_tci, l3->vlan ? l3->vlan_tci : 0);
	assert_int_equal(in->ecn, l3->ecn);
	assert_int_equal(in->dscp, l3->dscp);
	assert_int_equal(in->ttl, l3->ttl ? l3->ttl : 64);
	assert_int_equal(in->ip_proto, 17);
	assert_int_equal(in->udp_sport, l3->udp_sport ? l3->udp_sport : 0xc000);
	assert_int_equal(in->udp_dport, 4791);
	assert_true(in->flags & PCC_PKT_F_ICRC_OK);
	assert_memory_equal(f, l3->dst_mac, 6);
	assert_memory_equal(f + 6, l3->src_mac, 6);
	if (l3->vlan) {
		assert_int_equal(be16(f + 12), 0x8100);
		assert_int_equal(be16(f + 14), l3->vlan_tci);
	}
	assert_int_equal(be16(f + l3_off - 2), l3->ipv6 ? 0x86dd : 0x0800);
	assert_int_equal(be16(f + l4_off + 4), len - l4_off);
	if (l3->ipv6) {
		const uint8_t *ip = f + l3_off;

		assert_memory_equal(in->src.v6, l3->src.v6, 16);
		assert_memory_equal(in->dst.v6, l3->dst.v6, 16);
		assert_int_equal(ip[0] >> 4, 6);
		assert_int_equal(((ip[1] & 0xf) << 16) | be16(ip + 2), l3->flow_label);
		assert_int_equal(be16(ip + 4), len - l4_off);
		assert_true(ipv6_udp_csum_ok(ip));
	} else {
		const uint8_t *ip = f + l3_off;

		assert_int_equal(in->src.v4, l3->src.v4);
		assert_int_equal(in->dst.v4, l3->dst.v4);
		assert_int_equal(ip[0], 0x45);
		assert_int_equal(be16(ip + 2), len - l3_off);
		assert_int_equal(be16(ip + 4), l3->ip_id);
		assert_int_equal(be16(ip + 6), 0x4000);
		assert_int_equal(be16(f + l4_off + 6), 0);
		assert_true(ipv4_csum_ok(ip));
	}
}

/* Build + strict parse; returns the frame length. */
static int
build_parse(uint8_t *f, const struct pcc_l3_spec *l3, const struct pcc_roce_spec *rs,
		struct pcc_pkt_info *in)
{
	int n = pcc_roce_build(f, FRAME_MAX, l3, rs);

	assert_true(n > 0);
	assert_int_equal(pcc_parse(f, (uint32_t)n, strict_opts(), in), 0);
	check_l3(f, (uint32_t)n, in, l3);
	return n;
}

static void
fill_pattern(uint8_t *p, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + seed);
}

/* ---- 1. CNP known-good vector ------------------------------------ */

static const uint8_t cnp_vector[] = {
	0x45,
	0x89,
	0x00,
	0x3c,
	0x98,
	0xc6,
	0x40,
	0x00,
	0x20,
	0x11,
	0x69,
	0x27,
	0x16,
	0x16,
	0x16,
	0x08,
	0x16,
	0x16,
	0x16,
	0x07,
	0xdb,
	0xae,
	0x12,
	0xb7,
	0x00,
	0x28,
	0x00,
	0x00,
	0x81,
	0x00,
	0xff,
	0xff,
	0x40,
	0x00,
	0x00,
	0xd2,
	0x00,
	0x00,
	0x00,
	0x00,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0xda,
	0xfc,
	0x1b,
	0xef,
};

static void
cnp_vector_l3(struct pcc_l3_spec *l3)
{
	mk_l3(l3, false, false);
	l3->dscp = 0x22;
	l3->ecn = 1;
	l3->ttl = 0x20;
	l3->ip_id = 0x98c6;
	l3->src.v4 = 0x16161608;
	l3->dst.v4 = 0x16161607;
	l3->udp_sport = 56238;
}

static void
test_cnp_vector(void **state)
{
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[128];
	int n, i;

	(void)state;
	cnp_vector_l3(&l3);
	n = pcc_cnp_build(f, sizeof(f), &l3, 0xd2);
	assert_int_equal(n, 14 + (int)sizeof(cnp_vector));
	assert_memory_equal(f + 14, cnp_vector, sizeof(cnp_vector));

	assert_int_equal(pcc_parse(f, (uint32_t)n, strict_opts(), &in), 0);
	assert_int_equal(in.kind, PCC_PKT_CNP);
	assert_int_equal(in.opcode, PCC_OP_CNP);
	assert_int_equal(in.dqpn, 0xd2);
	assert_int_equal(in.psn, 0);
	assert_int_equal(in.pkey, 0xffff);
	assert_int_equal(in.bth_flags, PCC_BTH_BECN);
	assert_int_equal(in.payload_len, 16);
	assert_int_equal(in.payload_off, 14 + 20 + 8 + 12);
	assert_int_equal(in.pad_cnt, 0);
	assert_int_equal(in.ecn, 1);
	assert_int_equal(in.dscp, 0x22);
	assert_int_equal(in.ttl, 0x20);
	assert_true(in.flags & PCC_PKT_F_ICRC_OK);
	assert_int_equal(in.flags & ~PCC_PKT_F_ICRC_OK, 0);
	assert_int_equal(pcc_icrc_verify(f, &in), 0);

	/* Too small a buffer: NO_SPACE for every capacity below n */
	for (i = 0; i < n; i++)
		assert_int_equal(pcc_cnp_build(f, (uint32_t)i, &l3, 0xd2), PCC_PROTO_ERR_NO_SPACE);

	/* ICRC over the vector itself, from the IP header */
	assert_int_equal(pcc_icrc_calc(cnp_vector, sizeof(cnp_vector) - 4, NULL),
			le32(cnp_vector + sizeof(cnp_vector) - 4));
}

/* Same RC SEND_ONLY, as built by scapy (scapy.contrib.roce computes ICRC) */
static const uint8_t scapy_rc_send[] = {
	0x02,
	0x00,
	0x00,
	0x00,
	0x00,
	0x02,
	0x02,
	0x00,
	0x00,
	0x00,
	0x00,
	0x01,
	0x08,
	0x00,
	0x45,
	0x6a,
	0x00,
	0x54,
	0x12,
	0x34,
	0x40,
	0x00,
	0x40,
	0x11,
	0x13,
	0xf9,
	0x0a,
	0x00,
	0x00,
	0x01,
	0x0a,
	0x00,
	0x00,
	0x02,
	0xc1,
	0x23,
	0x12,
	0xb7,
	0x00,
	0x40,
	0x00,
	0x00,
	0x04,
	0xf0,
	0x80,
	0x01,
	0x80,
	0xab,
	0xcd,
	0xef,
	0x80,
	0x12,
	0x34,
	0x56,
	0x03,
	0x0a,
	0x11,
	0x18,
	0x1f,
	0x26,
	0x2d,
	0x34,
	0x3b,
	0x42,
	0x49,
	0x50,
	0x57,
	0x5e,
	0x65,
	0x6c,
	0x73,
	0x7a,
	0x81,
	0x88,
	0x8f,
	0x96,
	0x9d,
	0xa4,
	0xab,
	0xb2,
	0xb9,
	0xc0,
	0xc7,
	0xce,
	0xd5,
	0xdc,
	0xe3,
	0xea,
	0xf1,
	0xf8,
	0xff,
	0x00,
	0x00,
	0x00,
	0x55,
	0x09,
	0x66,
	0x29,
};

static void
mk_rc_send(struct pcc_roce_spec *rs, uint8_t *payload)
{
	memset(rs, 0, sizeof(*rs));
	rs->bth.opcode = PCC_OP_RC_SEND_ONLY;
	rs->bth.se = 1;
	rs->bth.mig = 1;
	rs->bth.pad_cnt = 0; /* computed by the builder */
	rs->bth.pkey = 0x8001;
	rs->bth.flags = PCC_BTH_FECN;
	rs->bth.dqpn = 0xabcdef;
	rs->bth.ackreq = 1;
	rs->bth.psn = 0x123456;
	fill_pattern(payload, 37, 3);
	rs->payload = payload;
	rs->payload_len = 37;
}

static void
test_scapy_vector(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[FRAME_MAX], pl[64];
	int n;

	(void)state;
	mk_l3(&l3, false, false);
	mk_rc_send(&rs, pl);
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	assert_int_equal(n, sizeof(scapy_rc_send));
	assert_memory_equal(f, scapy_rc_send, sizeof(scapy_rc_send));
	assert_int_equal(pcc_parse(scapy_rc_send, sizeof(scapy_rc_send), strict_opts(), &in), 0);
	assert_int_equal(in.kind, PCC_PKT_ROCE_DATA);
}

/* ---- 2. round trips ---------------------------------------------- */

static void
check_bth(const struct pcc_pkt_info *in, const struct pcc_bth *b, uint8_t pad)
{
	assert_int_equal(in->opcode, b->opcode);
	assert_int_equal(in->pkey, b->pkey);
	assert_int_equal(in->bth_flags, b->flags);
	assert_int_equal(in->dqpn, b->dqpn);
	assert_int_equal(in->psn, b->psn);
	assert_int_equal(in->ackreq, b->ackreq);
	assert_int_equal(in->pad_cnt, pad);
}

static void
check_payload(const uint8_t *f, const struct pcc_pkt_info *in, const uint8_t *pl, uint32_t n,
		uint32_t ext_len)
{
	uint32_t i;

	assert_int_equal(in->payload_off, in->bth_off + 12 + ext_len);
	assert_int_equal(in->payload_len, n);
	assert_int_equal((in->payload_len + in->pad_cnt) % 4, 0);
	if (n > 0)
		assert_memory_equal(f + in->payload_off, pl, n);
	for (i = 0; i < in->pad_cnt; i++)
		assert_int_equal(f[in->payload_off + n + i], 0);
	assert_int_equal(in->frame_len, in->payload_off + n + in->pad_cnt + 4);
}

static void
test_rt_rc_send(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[FRAME_MAX], pl[64];
	struct pcc_bth bth;
	int v;

	(void)state;
	for (v = 0; v < 4; v++) {
		mk_l3(&l3, variants[v].v6, variants[v].vlan);
		mk_rc_send(&rs, pl);
		build_parse(f, &l3, &rs, &in);
		assert_int_equal(in.kind, PCC_PKT_ROCE_DATA);
		check_bth(&in, &rs.bth, 3);
		assert_int_equal(in.flags & ~(PCC_PKT_F_VLAN | PCC_PKT_F_IPV6 | PCC_PKT_F_ICRC_OK),
				0);
		check_payload(f, &in, pl, 37, 0);
		/* SE and M are not in the info: check with the BTH parser */
		assert_int_equal(pcc_bth_parse(f + in.bth_off, 12, &bth), 0);
		assert_int_equal(bth.se, 1);
		assert_int_equal(bth.mig, 1);
		assert_int_equal(bth.pad_cnt, 3);
		assert_int_equal(bth.tver, 0);
		assert_int_equal(in.aeth_msn | in.deth_qkey | in.reth_rkey, 0);
	}
}

static void
test_rt_rdma_write(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[FRAME_MAX], pl[1024];
	int v;

	(void)state;
	for (v = 0; v < 4; v++) {
		mk_l3(&l3, variants[v].v6, variants[v].vlan);
		l3.ttl = 7;
		l3.ecn = PCC_ECN_CE;
		l3.dscp = 63;
		memset(&rs, 0, sizeof(rs));
		rs.bth.opcode = PCC_OP_RC_RDMA_WRITE_ONLY;
		rs.bth.pkey = 0xffff;
		rs.bth.dqpn = 0x000011;
		rs.bth.psn = 0xffffff;
		rs.reth.va = 0x1122334455667788ull;
		rs.reth.rkey = 0xdeadbeef;
		rs.reth.dma_len = 1024;
		fill_pattern(pl, sizeof(pl), 9);
		rs.payload = pl;
		rs.payload_len = 1024;
		build_parse(f, &l3, &rs, &in);
		assert_int_equal(in.kind, PCC_PKT_ROCE_DATA);
		check_bth(&in, &rs.bth, 0);
		assert_true(in.flags & PCC_PKT_F_RETH);
		assert_int_equal(in.reth_va, 0x1122334455667788ull);
		assert_int_equal(in.reth_rkey, 0xdeadbeef);
		assert_int_equal(in.reth_dma_len, 1024);
		check_payload(f, &in, pl, 1024, 16);
	}
}

static void
test_rt_ack_nak(void **state)
{
	static const struct {
		uint8_t syndrome;
		uint8_t kind;
	} cases[] = {
		{ 0x1f, PCC_PKT_ROCE_ACK }, /* ACK, credit 31 */
		{ 0x00, PCC_PKT_ROCE_ACK },
		{ 0x2e, PCC_PKT_ROCE_NAK }, /* RNR NAK, timer 14 */
		{ 0x60 | PCC_NAK_PSN_SEQ_ERR, PCC_PKT_ROCE_NAK },
		{ 0x60 | PCC_NAK_INVALID_REQ, PCC_PKT_ROCE_NAK },
		{ 0x60 | PCC_NAK_REMOTE_ACCESS, PCC_PKT_ROCE_NAK },
		{ 0x60 | PCC_NAK_REMOTE_OP, PCC_PKT_ROCE_NAK },
		{ 0x60 | PCC_NAK_INVALID_RD_REQ, PCC_PKT_ROCE_NAK },
	};
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[FRAME_MAX];
	unsigned int c;
	int v;

	(void)state;
	for (c = 0; c < RTE_DIM(cases); c++) {
		for (v = 0; v < 4; v++) {
			mk_l3(&l3, variants[v].v6, variants[v].vlan);
			memset(&rs, 0, sizeof(rs));
			rs.bth.opcode = PCC_OP_RC_ACK;
			rs.bth.pkey = 0xffff;
			rs.bth.dqpn = 0x654;
			rs.bth.psn = 0x10000 + c;
			rs.aeth.syndrome = cases[c].syndrome;
			rs.aeth.msn = 0x654321;
			build_parse(f, &l3, &rs, &in);
			assert_int_equal(in.kind, cases[c].kind);
			check_bth(&in, &rs.bth, 0);
			assert_true(in.flags & PCC_PKT_F_AETH);
			assert_int_equal(in.aeth_syndrome, cases[c].syndrome);
			assert_int_equal(in.aeth_msn, 0x654321);
			check_payload(f, &in, NULL, 0, 4);
		}
	}
	/* reserved syndrome class 2 */
	mk_l3(&l3, false, false);
	rs.aeth.syndrome = 0x40;
	assert_true(pcc_roce_build(f, sizeof(f), &l3, &rs) > 0);
	assert_int_equal(
			pcc_parse(f, 14 + 20 + 8 + 12 + 4 + 4, NULL, &in), PCC_PROTO_ERR_BAD_FIELD);
	assert_int_equal(pcc_aeth_class(0x7f), 3);
	assert_int_equal(pcc_aeth_code(0x7f), 0x1f);
}

static void
test_rt_ud_send(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[FRAME_MAX], pl[50];
	int v;

	(void)state;
	for (v = 0; v < 4; v++) {
		mk_l3(&l3, variants[v].v6, variants[v].vlan);
		l3.udp_sport = 0; /* means 0xC000 */
		memset(&rs, 0, sizeof(rs));
		rs.bth.opcode = PCC_OP_UD_SEND_ONLY;
		rs.bth.pkey = 0xffff;
		rs.bth.flags = PCC_BTH_FECN | PCC_BTH_BECN;
		rs.bth.dqpn = 0x000100;
		rs.bth.psn = 77;
		rs.deth.qkey = 0x11112222;
		rs.deth.sqpn = 0xfedcba;
		fill_pattern(pl, sizeof(pl), 1);
		rs.payload = pl;
		rs.payload_len = sizeof(pl);
		build_parse(f, &l3, &rs, &in);
		assert_int_equal(in.kind, PCC_PKT_ROCE_DATA);
		check_bth(&in, &rs.bth, 2);
		assert_true(in.flags & PCC_PKT_F_DETH);
		assert_false(in.flags & PCC_PKT_F_MAD);
		assert_int_equal(in.deth_qkey, 0x11112222);
		assert_int_equal(in.deth_sqpn, 0xfedcba);
		assert_int_equal(f[in.bth_off + 12 + 4], 0); /* DETH rsvd */
		check_payload(f, &in, pl, sizeof(pl), 8);
	}
}

static void
test_rt_ext_combos(void **state)
{
	/* ImmDt, IETH, RETH+ImmDt, DETH+ImmDt, atomics: offsets and flags */
	static const struct {
		uint8_t op;
		uint16_t flags;
		uint32_t ext_len;
	} cases[] = {
		{ 0x05, PCC_PKT_F_IMMDT, 4 },
		{ 0x0B, PCC_PKT_F_RETH | PCC_PKT_F_IMMDT, 20 },
		{ 0x17, PCC_PKT_F_IETH, 4 },
		{ 0x65, PCC_PKT_F_DETH | PCC_PKT_F_IMMDT, 12 },
		{ 0x13, PCC_PKT_F_ATOMICETH, 28 },
		{ 0x12, PCC_PKT_F_AETH | PCC_PKT_F_ATOMICACKETH, 12 },
		{ 0x2B, PCC_PKT_F_RETH | PCC_PKT_F_IMMDT, 20 },
		{ 0x0C, PCC_PKT_F_RETH, 16 },
		{ 0x10, PCC_PKT_F_AETH, 4 },
		{ 0x0E, 0, 0 },
	};
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[FRAME_MAX], pl[9];
	uint32_t ext_len;
	unsigned int c;

	(void)state;
	fill_pattern(pl, sizeof(pl), 5);
	for (c = 0; c < RTE_DIM(cases); c++) {
		mk_l3(&l3, c & 1, false);
		memset(&rs, 0, sizeof(rs));
		rs.bth.opcode = cases[c].op;
		rs.bth.pkey = 0xffff;
		rs.reth.rkey = 0x42;
		rs.deth.sqpn = 0x99;
		rs.immdt = 0xa1b2c3d4;
		rs.payload = pl;
		rs.payload_len = sizeof(pl);
		build_parse(f, &l3, &rs, &in);
		assert_int_equal(in.flags & ~(PCC_PKT_F_IPV6 | PCC_PKT_F_ICRC_OK), cases[c].flags);
		assert_true(pcc_bth_opcode_ext(cases[c].op, &ext_len) >= 0);
		assert_int_equal(ext_len, cases[c].ext_len);
		check_payload(f, &in, pl, sizeof(pl), cases[c].ext_len);
		if (cases[c].flags & (PCC_PKT_F_IMMDT | PCC_PKT_F_IETH))
			assert_int_equal(be16(f + in.payload_off - 4), 0xa1b2);
		if (cases[c].flags & PCC_PKT_F_RETH)
			assert_int_equal(in.reth_rkey, 0x42);
		if (cases[c].flags & PCC_PKT_F_DETH)
			assert_int_equal(in.deth_sqpn, 0x99);
	}
}

static void
mk_probe(struct pcc_probe *p, uint16_t custom_len)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->tid = 0x0102030405060708ull;
	p->flow_tag = 0xcafef00d;
	p->slot = 5;
	p->custom_len = custom_len;
	p->req_send_ts = 0x1122334455667788ull;
	p->np_recv_ts = 0xa0a1a2a3a4a5a6a7ull;
	p->np_send_ts = 0xb0b1b2b3b4b5b6b7ull;
	for (i = 0; i < PCC_PROBE_USER_LEN; i++)
		p->user[i] = (uint8_t)(0xc0 + i);
	p->resp_ts = 0xdeadbeef;
	p->flags = PCC_PROBE_F_HW_NP;
}

static void
test_rt_probe(void **state)
{
	static const uint16_t clens[] = { 0, 1, 13, PCC_PROBE_CUSTOM_MAX };
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	struct pcc_probe p, q;
	struct pcc_mad_hdr mad;
	uint8_t f[FRAME_MAX], custom[PCC_PROBE_CUSTOM_MAX];
	const uint8_t *cp;
	unsigned int c, i;
	int v, n;

	(void)state;
	fill_pattern(custom, sizeof(custom), 0x33);
	for (c = 0; c < RTE_DIM(clens); c++) {
		for (v = 0; v < 4; v++) {
			mk_l3(&l3, variants[v].v6, variants[v].vlan);
			mk_probe(&p, clens[c]);

			/* request */
			n = pcc_probe_req_build(f, sizeof(f), &l3, 0x1234, &p, custom);
			assert_true(n > 0);
			assert_int_equal(pcc_parse(f, (uint32_t)n, strict_opts(), &in), 0);
			check_l3(f, (uint32_t)n, &in, &l3);
			assert_int_equal(in.kind, PCC_PKT_PROBE_REQ);
			assert_true(in.flags & PCC_PKT_F_MAD);
			assert_true(in.flags & PCC_PKT_F_DETH);
			assert_int_equal(in.opcode, PCC_OP_UD_SEND_ONLY);
			assert_int_equal(in.dqpn, PCC_GSI_QPN);
			assert_int_equal(in.deth_sqpn, 0x1234);
			assert_int_equal(in.deth_qkey, PCC_GSI_QKEY);
			assert_int_equal(in.pkey, 0xffff);
			assert_int_equal(in.psn, 0x060708);
			/* a full 256-byte MAD whatever the custom header */
			assert_int_equal(in.payload_len, PCC_PROBE_MAD_LEN);
			assert_int_equal(in.payload_len, 256);
			assert_int_equal(in.pad_cnt, 0);
			assert_int_equal((uint32_t)n, in.payload_off + 256 + 4);
			assert_int_equal(
					pcc_mad_hdr_parse(f + in.payload_off, in.payload_len, &mad),
					0);
			assert_int_equal(mad.base_version, 1);
			assert_int_equal(mad.mgmt_class, PCC_MAD_CLASS);
			assert_int_equal(mad.class_version, 1);
			assert_int_equal(mad.method, PCC_MAD_METHOD_GET);
			assert_int_equal(mad.attr_id, PCC_MAD_ATTR_RTT);
			assert_int_equal(mad.tid, p.tid);
			assert_int_equal(mad.status | mad.class_specific | mad.attr_mod, 0);
			assert_int_equal(pcc_probe_parse(f, &in, &q, &cp), 0);
			assert_int_equal(q.tid, p.tid);
			assert_int_equal(q.flow_tag, p.flow_tag);
			assert_int_equal(q.slot, p.slot);
			/* a request carries HW_NP (the RP's choice), never RESPONSE */
			assert_int_equal(q.flags, PCC_PROBE_F_HW_NP);
			assert_int_equal(q.custom_len, clens[c]);
			assert_int_equal(q.req_send_ts, p.req_send_ts);
			assert_int_equal(q.np_recv_ts, 0);
			assert_int_equal(q.np_send_ts, 0);
			assert_int_equal(q.resp_ts, 0);
			if (clens[c] != 0) {
				assert_ptr_equal(cp, f + in.payload_off + 72);
				assert_memory_equal(cp, custom, clens[c]);
			} else {
				assert_null(cp);
			}
			/* zero padding from the end of the custom header to 256 */
			for (i = 72 + clens[c]; i < 256; i++)
				assert_int_equal(f[in.payload_off + i], 0);

			/* response */
			n = pcc_probe_resp_build(f, sizeof(f), &l3, 0x1234, &p, NULL);
			assert_true(n > 0);
			assert_int_equal(pcc_parse(f, (uint32_t)n, strict_opts(), &in), 0);
			check_l3(f, (uint32_t)n, &in, &l3);
			assert_int_equal(in.kind, PCC_PKT_PROBE_RESP);
			assert_true(in.flags & PCC_PKT_F_MAD);
			assert_int_equal(in.dqpn, 0x1234);
			assert_int_equal(in.deth_sqpn, PCC_GSI_QPN);
			assert_int_equal(in.deth_qkey, PCC_GSI_QKEY);
			assert_int_equal(f[in.payload_off + 3], PCC_MAD_METHOD_GET_RESP);
			assert_int_equal(pcc_probe_parse(f, &in, &q, &cp), 0);
			assert_int_equal(q.tid, p.tid);
			assert_int_equal(q.flow_tag, p.flow_tag);
			assert_int_equal(q.slot, p.slot);
			assert_int_equal(q.flags, PCC_PROBE_F_HW_NP | PCC_PROBE_F_RESPONSE);
			assert_int_equal(q.req_send_ts, p.req_send_ts);
			assert_int_equal(q.np_recv_ts, p.np_recv_ts);
			assert_int_equal(q.np_send_ts, p.np_send_ts);
			assert_memory_equal(q.user, p.user, PCC_PROBE_USER_LEN);
			assert_int_equal(q.resp_ts, p.resp_ts);
			/* resp_ts is the body's last dword, big endian */
			assert_int_equal(be16(f + in.payload_off + 24 + 44), 0xdead);
			if (clens[c] != 0) {
				assert_non_null(cp);
				assert_int_equal(cp[0] | cp[clens[c] - 1], 0);
			}
			assert_int_equal(in.payload_len, 256);
			for (i = 72 + clens[c]; i < 256; i++)
				assert_int_equal(f[in.payload_off + i], 0);

			/* a response built over its own request keeps the custom
			 * header (custom points into the buffer) */
			n = pcc_probe_req_build(f, sizeof(f), &l3, 0x1234, &p, custom);
			assert_true(n > 0);
			assert_int_equal(pcc_parse(f, (uint32_t)n, strict_opts(), &in), 0);
			assert_int_equal(pcc_probe_parse(f, &in, &q, &cp), 0);
			n = pcc_probe_resp_build(f, sizeof(f), &l3, 0x1234, &p, cp);
			assert_true(n > 0);
			assert_int_equal(pcc_parse(f, (uint32_t)n, strict_opts(), &in), 0);
			assert_int_equal(pcc_probe_parse(f, &in, &q, &cp), 0);
			if (clens[c] != 0)
				assert_memory_equal(cp, custom, clens[c]);
		}
	}
}

static void
test_probe_errors(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	struct pcc_probe p, q;
	uint8_t f[FRAME_MAX], pl[PCC_PROBE_MAD_LEN];
	int n;

	(void)state;
	mk_l3(&l3, false, false);
	/* 256 bytes are needed even without a custom header */
	mk_probe(&p, 0);
	assert_int_equal(pcc_probe_req_build(
					 f, 14 + 20 + 8 + 12 + 8 + 256 + 4 - 1, &l3, 1, &p, NULL),
			PCC_PROTO_ERR_NO_SPACE);
	assert_int_equal(pcc_probe_req_build(f, 14 + 20 + 8 + 12 + 8 + 256 + 4, &l3, 1, &p, NULL),
			14 + 20 + 8 + 12 + 8 + 256 + 4);
	mk_probe(&p, PCC_PROBE_CUSTOM_MAX + 1);
	assert_int_equal(pcc_probe_req_build(f, sizeof(f), &l3, 1, &p, NULL), PCC_PROTO_ERR_INVAL);
	mk_probe(&p, 0);
	assert_int_equal(pcc_probe_req_build(f, sizeof(f), &l3, 0x1000000, &p, NULL),
			PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_probe_req_build(f, sizeof(f), NULL, 1, &p, NULL), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_probe_req_build(f, 100, &l3, 1, &p, NULL), PCC_PROTO_ERR_NO_SPACE);

	/* probe_parse on a non-probe */
	n = pcc_cnp_build(f, sizeof(f), &l3, 3);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &in), 0);
	assert_int_equal(pcc_probe_parse(f, &in, &q, NULL), PCC_PROTO_ERR_BAD_MAD);

	/* custom_len past the largest custom header; payload outside the frame */
	n = pcc_probe_req_build(f, sizeof(f), &l3, 1, &p, NULL);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &in), 0);
	f[in.payload_off + 24 + 7] = 64;
	assert_int_equal(pcc_probe_parse(f, &in, &q, NULL), 0);
	f[in.payload_off + 24 + 7] = 65;
	assert_int_equal(pcc_probe_parse(f, &in, &q, NULL), PCC_PROTO_ERR_BAD_FIELD);
	f[in.payload_off + 24 + 7] = 0;
	in.frame_len -= 8;
	assert_int_equal(pcc_probe_parse(f, &in, &q, NULL), PCC_PROTO_ERR_BAD_LENGTH);

	/* our class/attr but short body: TRUNCATED; other methods: data */
	mk_probe(&p, 0);
	n = pcc_probe_req_build(f, sizeof(f), &l3, 1, &p, NULL);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &in), 0);
	memcpy(pl, f + in.payload_off, sizeof(pl));
	memset(&rs, 0, sizeof(rs));
	rs.bth.opcode = PCC_OP_UD_SEND_ONLY;
	rs.payload = pl;
	rs.payload_len = PCC_PROBE_MAD_LEN - 4;
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_TRUNCATED);
	rs.payload_len = 72; /* the old 72-byte probes are too short now */
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_TRUNCATED);
	rs.payload_len = PCC_MAD_HDR_LEN - 1; /* not even a MAD header */
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &in), 0);
	assert_int_equal(in.kind, PCC_PKT_ROCE_DATA);
	rs.payload_len = PCC_PROBE_MAD_LEN;
	pl[3] = 0x02; /* Set */
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &in), 0);
	assert_int_equal(in.kind, PCC_PKT_ROCE_DATA);
	assert_true(in.flags & PCC_PKT_F_MAD);
	assert_int_equal(pcc_probe_parse(f, &in, &q, NULL), PCC_PROTO_ERR_BAD_MAD);
	pl[3] = PCC_MAD_METHOD_GET;
	pl[2] = 2; /* class version */
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_VERSION);
	pl[2] = 1;
	pl[1] = 0x0B; /* another class: plain UD data */
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &in), 0);
	assert_int_equal(in.kind, PCC_PKT_ROCE_DATA);
	assert_false(in.flags & PCC_PKT_F_MAD);
}

/* The MAD alone (what the IFA probes of the engine carry). */
static void
test_probe_mad(void **state)
{
	uint8_t m[PCC_PROBE_MAD_LEN + 8], custom[PCC_PROBE_CUSTOM_MAX];
	struct pcc_probe p, q;
	const uint8_t *cp;
	unsigned int i;

	(void)state;
	fill_pattern(custom, sizeof(custom), 0x44);
	mk_probe(&p, 20);
	memset(m, 0xee, sizeof(m));
	assert_int_equal(pcc_probe_mad_build(m, sizeof(m), false, &p, custom), PCC_PROBE_MAD_LEN);
	assert_int_equal(m[PCC_PROBE_MAD_LEN], 0xee); /* nothing past 256 */
	assert_int_equal(m[3], PCC_MAD_METHOD_GET);
	assert_int_equal(pcc_probe_mad_parse(m, PCC_PROBE_MAD_LEN, &q, &cp), PCC_PKT_PROBE_REQ);
	assert_int_equal(q.flags, PCC_PROBE_F_HW_NP);
	assert_int_equal(q.np_recv_ts | q.np_send_ts | q.resp_ts, 0);
	assert_ptr_equal(cp, m + PCC_PROBE_CUSTOM_OFF);
	assert_memory_equal(cp, custom, 20);
	for (i = PCC_PROBE_CUSTOM_OFF + 20; i < PCC_PROBE_MAD_LEN; i++)
		assert_int_equal(m[i], 0);

	/* response over the request, custom header left in place */
	assert_int_equal(
			pcc_probe_mad_build(m, PCC_PROBE_MAD_LEN, true, &p, cp), PCC_PROBE_MAD_LEN);
	assert_int_equal(pcc_probe_mad_parse(m, PCC_PROBE_MAD_LEN, &q, &cp), PCC_PKT_PROBE_RESP);
	assert_int_equal(q.flags, PCC_PROBE_F_HW_NP | PCC_PROBE_F_RESPONSE);
	assert_int_equal(q.np_recv_ts, p.np_recv_ts);
	assert_int_equal(q.np_send_ts, p.np_send_ts);
	assert_int_equal(q.resp_ts, p.resp_ts);
	assert_memory_equal(q.user, p.user, PCC_PROBE_USER_LEN);
	assert_memory_equal(cp, custom, 20);

	/* errors */
	assert_int_equal(pcc_probe_mad_build(m, PCC_PROBE_MAD_LEN - 1, false, &p, NULL),
			PCC_PROTO_ERR_NO_SPACE);
	assert_int_equal(
			pcc_probe_mad_build(NULL, sizeof(m), false, &p, NULL), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_probe_mad_build(m, sizeof(m), false, NULL, NULL), PCC_PROTO_ERR_INVAL);
	p.custom_len = PCC_PROBE_CUSTOM_MAX + 1;
	assert_int_equal(pcc_probe_mad_build(m, sizeof(m), false, &p, NULL), PCC_PROTO_ERR_INVAL);
	p.custom_len = 0;
	assert_int_equal(pcc_probe_mad_build(m, sizeof(m), false, &p, NULL), PCC_PROBE_MAD_LEN);
	assert_int_equal(pcc_probe_mad_parse(m, PCC_PROBE_MAD_LEN - 1, &q, NULL),
			PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_probe_mad_parse(m, 23, &q, NULL), PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_probe_mad_parse(NULL, 256, &q, NULL), PCC_PROTO_ERR_INVAL);
	m[3] = 0x02;
	assert_int_equal(pcc_probe_mad_parse(m, 256, &q, NULL), PCC_PROTO_ERR_BAD_MAD);
	m[3] = PCC_MAD_METHOD_GET;
	m[2] = 2;
	assert_int_equal(pcc_probe_mad_parse(m, 256, &q, NULL), PCC_PROTO_ERR_BAD_VERSION);
	m[2] = 1;
	m[1] = 0x0b;
	assert_int_equal(pcc_probe_mad_parse(m, 256, &q, NULL), PCC_PROTO_ERR_BAD_MAD);
	m[1] = PCC_MAD_CLASS;
	m[24 + 7] = 65;
	assert_int_equal(pcc_probe_mad_parse(m, 256, &q, NULL), PCC_PROTO_ERR_BAD_FIELD);
}

/* ---- 3. truncation and corruption -------------------------------- */

/* Every frame a test produces, for the sweeps below. */
struct sample {
	uint8_t f[FRAME_MAX];
	uint32_t len;
	bool v6, vlan;
	uint32_t need; /* UDP payload bytes needed for the fixed headers */
};

static unsigned int
make_samples(struct sample *s)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_probe p;
	uint8_t pl[64];
	unsigned int n = 0, t;
	int v, ret;

	fill_pattern(pl, sizeof(pl), 0);
	for (v = 0; v < 4; v++) {
		for (t = 0; t < 7; t++) {
			mk_l3(&l3, variants[v].v6, variants[v].vlan);
			memset(&rs, 0, sizeof(rs));
			rs.bth.pkey = 0xffff;
			rs.payload = pl;
			rs.payload_len = 37;
			switch (t) {
			case 0:
				rs.bth.opcode = PCC_OP_RC_SEND_ONLY;
				s[n].need = 12 + 3 + 4;
				break;
			case 1:
				rs.bth.opcode = PCC_OP_RC_RDMA_WRITE_ONLY;
				s[n].need = 12 + 16 + 3 + 4;
				break;
			case 2:
				rs.bth.opcode = PCC_OP_RC_ACK;
				rs.payload_len = 0;
				s[n].need = 12 + 4 + 4;
				break;
			case 3:
				rs.bth.opcode = PCC_OP_RC_ACK;
				rs.aeth.syndrome = 0x61;
				rs.payload_len = 0;
				s[n].need = 12 + 4 + 4;
				break;
			case 4:
				rs.bth.opcode = PCC_OP_UD_SEND_ONLY;
				s[n].need = 12 + 8 + 3 + 4;
				break;
			case 5:
				rs.bth.opcode = PCC_OP_CNP;
				rs.payload_len = 16;
				s[n].need = 12 + 4;
				break;
			default:
				mk_probe(&p, 3);
				/* 256-byte MAD: no pad whatever the custom header */
				s[n].need = 12 + 8 + 4;
				break;
			}
			if (t == 6)
				ret = pcc_probe_resp_build(s[n].f, FRAME_MAX, &l3, 9, &p, NULL);
			else if (t == 5)
				ret = pcc_cnp_build(s[n].f, FRAME_MAX, &l3, 0x77);
			else
				ret = pcc_roce_build(s[n].f, FRAME_MAX, &l3, &rs);
			assert_true(ret > 0);
			s[n].len = (uint32_t)ret;
			s[n].v6 = variants[v].v6;
			s[n].vlan = variants[v].vlan;
			n++;
		}
	}
	return n;
}

#define N_SAMPLES 28

static void
test_truncation(void **state)
{
	struct sample *s = calloc(N_SAMPLES, sizeof(*s));
	struct pcc_pkt_info in;
	unsigned int i, n;
	uint32_t k, l3_off, iph;
	uint8_t *buf;
	int ret;

	(void)state;
	assert_non_null(s);
	n = make_samples(s);
	assert_int_equal(n, N_SAMPLES);
	for (i = 0; i < n; i++) {
		l3_off = s[i].vlan ? 18 : 14;
		iph = s[i].v6 ? 40 : 20;
		assert_int_equal(pcc_parse(s[i].f, s[i].len, strict_opts(), &in), 0);
		/* each prefix in an exactly sized heap buffer (ASan) */
		for (k = 0; k < s[i].len; k++) {
			buf = malloc(k + 1);
			assert_non_null(buf);
			memcpy(buf, s[i].f, k);
			ret = pcc_parse(buf, k, strict_opts(), &in);
			if (k < l3_off + iph)
				assert_int_equal(ret, PCC_PROTO_ERR_TRUNCATED);
			else
				assert_int_equal(ret, PCC_PROTO_ERR_BAD_LENGTH);
			free(buf);
		}
		/* trailing Ethernet padding is fine */
		memset(s[i].f + s[i].len, 0xee, 20);
		assert_int_equal(pcc_parse(s[i].f, s[i].len + 20, strict_opts(), &in), 0);
		assert_int_equal(in.frame_len, s[i].len + 20);
	}
	free(s);
}

/* Shrink the datagram to udp_payload bytes with consistent lengths. */
static uint32_t
shrink(uint8_t *f, uint32_t l3_off, bool v6, uint32_t udp_payload)
{
	uint32_t l4 = l3_off + (v6 ? 40 : 20);

	if (v6)
		wbe16(f + l3_off + 4, (uint16_t)(8 + udp_payload));
	else
		wbe16(f + l3_off + 2, (uint16_t)(20 + 8 + udp_payload));
	wbe16(f + l4 + 4, (uint16_t)(8 + udp_payload));
	return l4 + 8 + udp_payload;
}

static void
test_consistent_truncation(void **state)
{
	struct sample *s = calloc(N_SAMPLES, sizeof(*s));
	struct pcc_pkt_info in;
	unsigned int i, n;
	uint32_t k, len;
	uint8_t *buf;

	(void)state;
	assert_non_null(s);
	n = make_samples(s);
	for (i = 0; i < n; i++) {
		/* datagram ends inside BTH / ext headers / pad / ICRC */
		for (k = 0; k < s[i].need; k++) {
			buf = malloc(FRAME_MAX);
			assert_non_null(buf);
			memcpy(buf, s[i].f, s[i].len);
			len = shrink(buf, s[i].vlan ? 18 : 14, s[i].v6, k);
			assert_int_equal(pcc_parse(buf, len, NULL, &in), PCC_PROTO_ERR_TRUNCATED);
			free(buf);
		}
	}
	/* ACK (no payload) claiming PadCnt 3 */
	buf = s[2].f;
	buf[14 + 20 + 8 + 1] |= 0x30;
	assert_int_equal(pcc_parse(buf, s[2].len, NULL, &in), PCC_PROTO_ERR_TRUNCATED);
	/* CNP without its 16 reserved bytes */
	buf = s[5].f;
	assert_int_equal(pcc_parse(buf, shrink(buf, 14, false, 12 + 8 + 4), NULL, &in),
			PCC_PROTO_ERR_BAD_LENGTH);
	/* UDP datagram shorter than the UDP header */
	buf = s[0].f;
	assert_int_equal(pcc_parse(buf, 14 + 20 + 4, NULL, &in), PCC_PROTO_ERR_BAD_LENGTH);
	wbe16(buf + 14 + 2, 20 + 4);
	assert_int_equal(pcc_parse(buf, 14 + 20 + 4, NULL, &in), PCC_PROTO_ERR_TRUNCATED);
	free(s);
}

static void
test_length_corruption(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[FRAME_MAX], g[FRAME_MAX], pl[64];
	uint32_t l3o, l4o;
	int v, n;
	uint16_t x;

	(void)state;
	for (v = 0; v < 4; v++) {
		mk_l3(&l3, variants[v].v6, variants[v].vlan);
		mk_rc_send(&rs, pl);
		n = pcc_roce_build(f, sizeof(f), &l3, &rs);
		assert_true(n > 0);
		l3o = l3.vlan ? 18 : 14;
		l4o = l3o + (l3.ipv6 ? 40 : 20);
		/* IP length too big / too small */
		for (x = 0; x < 2; x++) {
			uint32_t lo = l3o + (l3.ipv6 ? 4 : 2);
			uint16_t orig = be16(f + lo);

			memcpy(g, f, (size_t)n);
			wbe16(g + lo, (uint16_t)(orig + (x ? 1 : -1)));
			assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in),
					PCC_PROTO_ERR_BAD_LENGTH);
			wbe16(g + lo, x ? 0xffff : 0);
			assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in),
					l3.ipv6 && !x ? PCC_PROTO_ERR_TRUNCATED :
							PCC_PROTO_ERR_BAD_LENGTH);
		}
		/* UDP length +-1, 0, 7 */
		memcpy(g, f, (size_t)n);
		wbe16(g + l4o + 4, (uint16_t)(n - l4o + 1));
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_LENGTH);
		wbe16(g + l4o + 4, (uint16_t)(n - l4o - 1));
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_LENGTH);
		wbe16(g + l4o + 4, 0);
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_LENGTH);
		wbe16(g + l4o + 4, 7);
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_LENGTH);
		/* IP version that disagrees with the EtherType */
		memcpy(g, f, (size_t)n);
		g[l3o] = (uint8_t)((g[l3o] & 0x0f) | (l3.ipv6 ? 0x40 : 0x60));
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_VERSION);
		/* BTH TVer != 0 */
		for (x = 1; x < 16; x++) {
			memcpy(g, f, (size_t)n);
			g[l4o + 8 + 1] |= (uint8_t)x;
			assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in),
					PCC_PROTO_ERR_BAD_VERSION);
		}
		/* PadCnt 0 instead of 3: a valid frame, 3 more payload bytes */
		memcpy(g, f, (size_t)n);
		g[l4o + 8 + 1] &= 0xcf;
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), 0);
		assert_int_equal(in.payload_len, 40);
		assert_int_equal(in.pad_cnt, 0);
	}

	mk_l3(&l3, false, false);
	mk_rc_send(&rs, pl);
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	/* IHL < 5 */
	for (x = 0; x < 5; x++) {
		memcpy(g, f, (size_t)n);
		g[14] = (uint8_t)(0x40 | x);
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_LENGTH);
	}
	/* IHL 15 with only 20 + 4 bytes of IP there */
	memcpy(g, f, (size_t)n);
	g[14] = 0x4f;
	assert_int_equal(pcc_parse(g, 14 + 24, NULL, &in), PCC_PROTO_ERR_TRUNCATED);
	/* IHL 15 > total length */
	wbe16(g + 16, 40);
	assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_LENGTH);
	/* IP version 5 / 0 under EtherType IPv4 */
	memcpy(g, f, (size_t)n);
	g[14] = 0x55;
	assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_VERSION);
	g[14] = 0x05;
	assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_VERSION);
	/* IPv4 header checksum, only when asked */
	memcpy(g, f, (size_t)n);
	g[14 + 10] ^= 0x01;
	assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), 0);
	assert_int_equal(pcc_parse(g, (uint32_t)n, strict_opts(), &in), PCC_PROTO_ERR_BAD_CSUM);
	/* NULL arguments */
	assert_int_equal(pcc_parse(NULL, 10, NULL, &in), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, NULL), PCC_PROTO_ERR_INVAL);
}

static void
test_ipv4_options(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in, ref;
	uint8_t f[FRAME_MAX], g[FRAME_MAX], pl[64];
	uint32_t crc_ref;
	int n;

	(void)state;
	mk_l3(&l3, false, false);
	mk_rc_send(&rs, pl);
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &ref), 0);
	/* insert 8 bytes of NOP options */
	memcpy(g, f, 34);
	memset(g + 34, 0x01, 8);
	memcpy(g + 42, f + 34, (size_t)n - 34);
	g[14] = 0x47;
	wbe16(g + 16, (uint16_t)(be16(f + 16) + 8));
	wbe16(g + 24, 0);
	wbe16(g + 24, ipv4_csum_calc(g + 14));
	n += 8;
	assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), 0);
	assert_int_equal(in.l4_off, ref.l4_off + 8);
	assert_int_equal(in.bth_off, ref.bth_off + 8);
	assert_int_equal(in.payload_off, ref.payload_off + 8);
	assert_int_equal(in.payload_len, ref.payload_len);
	assert_int_equal(in.dqpn, ref.dqpn);
	/* options are covered by the ICRC: the old one no longer matches */
	crc_ref = le32(g + n - 4);
	assert_int_equal(pcc_parse(g, (uint32_t)n, strict_opts(), &in), PCC_PROTO_ERR_BAD_ICRC);
	assert_int_equal(pcc_icrc_update(g, &in), 0);
	assert_int_not_equal(le32(g + n - 4), crc_ref);
	assert_int_equal(pcc_parse(g, (uint32_t)n, strict_opts(), &in), 0);
	assert_true(in.flags & PCC_PKT_F_ICRC_OK);
}

static void
test_not_roce(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	struct pcc_parse_opts o;
	uint8_t f[FRAME_MAX], g[FRAME_MAX], pl[64];
	int n, v;

	(void)state;
	for (v = 0; v < 4; v++) {
		uint32_t l3o, l4o, po;

		mk_l3(&l3, variants[v].v6, variants[v].vlan);
		mk_rc_send(&rs, pl);
		n = pcc_roce_build(f, sizeof(f), &l3, &rs);
		l3o = l3.vlan ? 18 : 14;
		l4o = l3o + (l3.ipv6 ? 40 : 20);
		po = l3o + (l3.ipv6 ? 6 : 9);

		/* non-IP EtherType (ARP) */
		memcpy(g, f, (size_t)n);
		wbe16(g + l3o - 2, 0x0806);
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_OTHER);
		assert_int_equal(in.bth_off, 0);
		assert_int_equal(!!(in.flags & PCC_PKT_F_VLAN), l3.vlan);
		/* TCP */
		memcpy(g, f, (size_t)n);
		g[po] = 6;
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_OTHER);
		assert_int_equal(in.ip_proto, 6);
		assert_int_equal(in.l4_off, l4o);
		assert_int_equal(in.bth_off, 0);
		/* other UDP port */
		memcpy(g, f, (size_t)n);
		wbe16(g + l4o + 2, 4790);
		assert_int_equal(pcc_parse(g, (uint32_t)n, strict_opts(), &in), 0);
		assert_int_equal(in.kind, PCC_PKT_OTHER);
		assert_int_equal(in.udp_dport, 4790);
		assert_int_equal(in.udp_sport, 0xc123);
		assert_int_equal(in.bth_off, 0);
		assert_false(in.flags & PCC_PKT_F_ICRC_OK);
		assert_int_equal(pcc_icrc_verify(g, &in), PCC_PROTO_ERR_NOT_ROCE);

		/* IFA2: protocol 253, version 2 header before UDP */
		memcpy(g, f, (size_t)n);
		g[po] = 253;
		g[l4o] = 0x2f;
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_IFA2);
		assert_int_equal(in.l4_off, l4o + 4);
		assert_int_equal(in.ip_proto, 253);
		g[l4o] = 0x1f;
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_VERSION);
		pcc_parse_opts_default(&o);
		o.ifa2_proto = 0;
		assert_int_equal(pcc_parse(g, (uint32_t)n, &o, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_OTHER);
		o.ifa2_proto = 131;
		g[po] = 131;
		g[l4o] = 0x2f;
		assert_int_equal(pcc_parse(g, (uint32_t)n, &o, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_IFA2);
		/* IFA2 datagram with < 4 bytes after IP */
		n = (int)shrink(g, l3o, l3.ipv6, 0) - 8 + 3;
		if (l3.ipv6)
			wbe16(g + l3o + 4, 3);
		else
			wbe16(g + l3o + 2, 23);
		assert_int_equal(pcc_parse(g, (uint32_t)n, &o, &in), PCC_PROTO_ERR_TRUNCATED);

		/* IFA1 header at the start of the UDP payload */
		n = pcc_roce_build(f, sizeof(f), &l3, &rs);
		memcpy(g, f, (size_t)n);
		{
			struct pcc_ifa1_hdr ih = { .marker = PCC_IFA1_MARKER_DEFAULT,
				.ver = PCC_IFA1_VERSION,
				.max_len = PCC_IFA1_HDR_LEN,
				.cur_len = PCC_IFA1_HDR_LEN };

			assert_true(n - (l4o + 8) >= PCC_IFA1_HDR_LEN);
			assert_int_equal(pcc_ifa1_build(g + l4o + 8, PCC_IFA1_HDR_LEN, &ih),
					PCC_IFA1_HDR_LEN);
		}
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_IFA1);
		assert_int_equal(in.bth_off, 0);
		assert_int_equal(in.l4_off, l4o);
		/* a malformed IFA1 header has no kind (issue 20): version,
		 * lengths, truncation */
		g[l4o + 8 + 8] = 0x21;
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_VERSION);
		g[l4o + 8 + 8] = 0x10;
		g[l4o + 8 + 19] = PCC_IFA1_HDR_LEN + PCC_IFA2_HOP_LEN; /* cur_len > max_len */
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_LENGTH);
		g[l4o + 8 + 19] = PCC_IFA1_HDR_LEN - 1;
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_BAD_LENGTH);
		g[l4o + 8 + 19] = PCC_IFA1_HDR_LEN;
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), 0);
		pcc_parse_opts_default(&o);
		o.ifa1_marker = 0; /* off: parsed as a BTH, TVer 0xA */
		assert_int_equal(pcc_parse(g, (uint32_t)n, &o, &in), PCC_PROTO_ERR_BAD_VERSION);
		o.ifa1_marker = 0xAAAAAAAABBBBBBBCull;
		assert_int_equal(pcc_parse(g, (uint32_t)n, &o, &in), PCC_PROTO_ERR_BAD_VERSION);
		g[l4o + 9] = 0x00; /* TVer 0: opcode 0xAA is XRC */
		assert_int_equal(pcc_parse(g, (uint32_t)n, &o, &in), PCC_PROTO_ERR_UNKNOWN_OPCODE);
		/* marker 0 means off, even for a BTH starting with 8 zeros */
		memset(g + l4o + 8, 0, 8);
		assert_int_equal(pcc_parse(g, (uint32_t)n, &o, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_ROCE_DATA);
		o.ifa1_marker = 0;
		assert_int_equal(pcc_parse(g, (uint32_t)n, &o, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_ROCE_DATA);
		assert_int_equal(in.opcode, PCC_OP_RC_SEND_FIRST);
	}
}

static void
test_fragments(void **state)
{
	static const uint8_t v6_ext[] = { 0, 43, 44, 51, 60, 135, 139, 140 };
	static const uint8_t v6_plain[] = { 6, 50, 58, 59, 254 };
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	struct pcc_parse_opts o;
	uint8_t f[FRAME_MAX], g[FRAME_MAX], pl[64];
	unsigned int i;
	int n;

	(void)state;
	mk_l3(&l3, false, true);
	mk_rc_send(&rs, pl);
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	memcpy(g, f, (size_t)n);
	g[18 + 6] |= 0x20; /* MF */
	assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_FRAGMENT);
	memcpy(g, f, (size_t)n);
	g[18 + 7] = 0x01; /* offset 8 */
	assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_FRAGMENT);
	memcpy(g, f, (size_t)n);
	g[18 + 6] = 0x00; /* DF clear, not a fragment */
	assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), 0);

	mk_l3(&l3, true, false);
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	for (i = 0; i < RTE_DIM(v6_ext); i++) {
		memcpy(g, f, (size_t)n);
		g[14 + 6] = v6_ext[i];
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), PCC_PROTO_ERR_FRAGMENT);
	}
	for (i = 0; i < RTE_DIM(v6_plain); i++) {
		memcpy(g, f, (size_t)n);
		g[14 + 6] = v6_plain[i];
		assert_int_equal(pcc_parse(g, (uint32_t)n, NULL, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_OTHER);
		assert_int_equal(in.ip_proto, v6_plain[i]);
	}
	/* an IFA2 protocol number that is also an ext header wins */
	pcc_parse_opts_default(&o);
	o.ifa2_proto = 60;
	memcpy(g, f, (size_t)n);
	g[14 + 6] = 60;
	g[14 + 40] = 0x2f;
	assert_int_equal(pcc_parse(g, (uint32_t)n, &o, &in), 0);
	assert_int_equal(in.kind, PCC_PKT_IFA2);
	/* ifa2_proto 0 means off, not "Hop-by-Hop is IFA2" */
	o.ifa2_proto = 0;
	g[14 + 6] = 0;
	assert_int_equal(pcc_parse(g, (uint32_t)n, &o, &in), PCC_PROTO_ERR_FRAGMENT);
}

static void
test_all_opcodes(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[FRAME_MAX], g[FRAME_MAX];
	uint32_t ext_len, l4o;
	unsigned int op, valid = 0;
	int n, ext, ret, v;

	(void)state;
	for (v = 0; v < 4; v++) {
		mk_l3(&l3, variants[v].v6, variants[v].vlan);
		l4o = (l3.vlan ? 18 : 14) + (l3.ipv6 ? 40 : 20);
		memset(&rs, 0, sizeof(rs));
		rs.bth.opcode = PCC_OP_RC_SEND_ONLY;
		rs.payload_len = 64;
		n = pcc_roce_build(f, sizeof(f), &l3, &rs);
		assert_true(n > 0);
		valid = 0;
		for (op = 0; op < 256; op++) {
			memcpy(g, f, (size_t)n);
			g[l4o + 8] = (uint8_t)op;
			ext = pcc_bth_opcode_ext((uint8_t)op, &ext_len);
			ret = pcc_parse(g, (uint32_t)n, NULL, &in);
			if (ext < 0) {
				assert_int_equal(ext, PCC_PROTO_ERR_UNKNOWN_OPCODE);
				assert_int_equal(ret, PCC_PROTO_ERR_UNKNOWN_OPCODE);
				assert_null(pcc_bth_opcode_name((uint8_t)op));
				continue;
			}
			valid++;
			assert_int_equal(ret, 0);
			assert_non_null(pcc_bth_opcode_name((uint8_t)op));
			assert_int_equal(in.opcode, op);
			assert_int_equal(in.payload_off, l4o + 8 + 12 + ext_len);
			assert_int_equal(in.payload_len, 64 - ext_len);
			/* the builder agrees on the layout */
			rs.bth.opcode = (uint8_t)op;
			ret = pcc_roce_build(g, sizeof(g), &l3, &rs);
			assert_int_equal(ret, n + (int)ext_len);
			assert_int_equal(pcc_parse(g, (uint32_t)ret, strict_opts(), &in), 0);
			assert_int_equal(in.payload_len, 64);
			rs.bth.opcode = PCC_OP_RC_SEND_ONLY;
			/* transport of the opcode */
			assert_true((op >> 5) == PCC_BTH_TRANSPORT_RC ||
					(op >> 5) == PCC_BTH_TRANSPORT_UC ||
					(op >> 5) == PCC_BTH_TRANSPORT_UD ||
					(op >> 5) == PCC_BTH_TRANSPORT_CNP);
		}
		assert_int_equal(valid, 23 + 12 + 2 + 1);
	}
	/* spot checks of the table */
	assert_int_equal(pcc_bth_opcode_ext(0x04, NULL), 0);
	assert_int_equal(pcc_bth_opcode_ext(0x06, NULL), PCC_EXT_RETH);
	assert_int_equal(pcc_bth_opcode_ext(0x0D, NULL), PCC_EXT_AETH);
	assert_int_equal(pcc_bth_opcode_ext(0x0E, NULL), 0);
	assert_int_equal(pcc_bth_opcode_ext(0x12, NULL), PCC_EXT_AETH | PCC_EXT_ATOMICACKETH);
	assert_int_equal(pcc_bth_opcode_ext(0x14, NULL), PCC_EXT_ATOMICETH);
	assert_int_equal(pcc_bth_opcode_ext(0x16, NULL), PCC_EXT_IETH);
	assert_int_equal(pcc_bth_opcode_ext(0x29, NULL), PCC_EXT_IMMDT);
	assert_int_equal(pcc_bth_opcode_ext(0x64, NULL), PCC_EXT_DETH);
	assert_int_equal(pcc_bth_opcode_ext(0x65, NULL), PCC_EXT_DETH | PCC_EXT_IMMDT);
	assert_int_equal(pcc_bth_opcode_ext(0x15, NULL), PCC_PROTO_ERR_UNKNOWN_OPCODE);
	assert_int_equal(pcc_bth_opcode_ext(0x44, NULL), PCC_PROTO_ERR_UNKNOWN_OPCODE);
	assert_int_equal(pcc_bth_opcode_ext(0x80, NULL), PCC_PROTO_ERR_UNKNOWN_OPCODE);
	assert_string_equal(pcc_bth_opcode_name(0x04), "RC_SEND_ONLY");
	assert_string_equal(pcc_bth_opcode_name(0x11), "RC_ACKNOWLEDGE");
	assert_string_equal(pcc_bth_opcode_name(0x64), "UD_SEND_ONLY");
	assert_string_equal(pcc_bth_opcode_name(0x81), "CNP");
	rs.bth.opcode = 0x15;
	assert_int_equal(pcc_roce_build(g, sizeof(g), &l3, &rs), PCC_PROTO_ERR_UNKNOWN_OPCODE);
}

/* ---- ICRC ---------------------------------------------------------- */

/* pcc_parse() of a frame, into a descriptor of zeros and into one of
 * garbage: every field is set on success (absent headers' fields are 0),
 * so both come out the same. */
static void
parse_twice(const uint8_t *f, uint32_t len)
{
	struct pcc_pkt_info z, g;
	int rz, rg;

	memset(&z, 0, sizeof(z));
	memset(&g, 0xa5, sizeof(g));
	rz = pcc_parse(f, len, NULL, &z);
	rg = pcc_parse(f, len, NULL, &g);
	assert_int_equal(rz, rg);
	if (rz == 0)
		assert_memory_equal(&z, &g, sizeof(z));
}

/* the parser clears no more than it must (no memset of the descriptor),
 * yet sets every field: every opcode, IPv4/IPv6, VLAN or not, and frames
 * that are not RoCEv2 (not IP, not UDP, another UDP port) */
static void
test_every_field_set(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	uint8_t f[FRAME_MAX], g[FRAME_MAX];
	uint32_t l3o, l4o;
	unsigned int op;
	int n, v, m;

	(void)state;
	for (v = 0; v < 4; v++) {
		mk_l3(&l3, variants[v].v6, variants[v].vlan);
		l3o = l3.vlan ? 18 : 14;
		l4o = l3o + (l3.ipv6 ? 40 : 20);
		for (op = 0; op < 256; op++) {
			if (pcc_bth_opcode_ext((uint8_t)op, NULL) < 0)
				continue;
			memset(&rs, 0, sizeof(rs));
			rs.bth.opcode = (uint8_t)op;
			rs.payload_len = op == PCC_OP_CNP ? PCC_CNP_PAD_LEN : 64;
			n = pcc_roce_build(f, sizeof(f), &l3, &rs);
			assert_true(n > 0);
			parse_twice(f, (uint32_t)n);
		}
		memset(&rs, 0, sizeof(rs));
		rs.bth.opcode = PCC_OP_RC_SEND_ONLY;
		rs.payload_len = 64;
		n = pcc_roce_build(f, sizeof(f), &l3, &rs);
		assert_true(n > 0);
		/* not IP */
		memcpy(g, f, (size_t)n);
		g[l3o - 2] = 0x08;
		g[l3o - 1] = 0x06;
		parse_twice(g, (uint32_t)n);
		/* IP, not UDP (TCP) */
		memcpy(g, f, (size_t)n);
		g[l3o + (l3.ipv6 ? 6 : 9)] = 6;
		parse_twice(g, (uint32_t)n);
		/* UDP, not port 4791 */
		memcpy(g, f, (size_t)n);
		g[l4o + 2] = 0x12;
		parse_twice(g, (uint32_t)n);
		/* the frame cut short: errors agree */
		for (m = 0; m < n; m += 7)
			parse_twice(f, (uint32_t)m);
	}
}

static void
test_icrc_detect(void **state)
{
	struct sample *s = calloc(N_SAMPLES, sizeof(*s));
	struct pcc_pkt_info in;
	uint8_t *f;
	unsigned int i;
	uint32_t b, l3o;

	(void)state;
	assert_non_null(s);
	make_samples(s);
	for (i = 0; i < N_SAMPLES; i++) {
		f = s[i].f;
		l3o = s[i].vlan ? 18 : 14;
		assert_int_equal(pcc_parse(f, s[i].len, strict_opts(), &in), 0);

		/* flip a payload bit, a PSN bit, an address bit, ICRC bit */
		f[s[i].len - 5] ^= 0x10;
		assert_int_equal(pcc_parse(f, s[i].len, NULL, &in), 0);
		assert_false(in.flags & PCC_PKT_F_ICRC_OK);
		assert_int_equal(pcc_icrc_verify(f, &in), PCC_PROTO_ERR_BAD_ICRC);
		assert_int_equal(pcc_parse(f, s[i].len, icrc_opts(), &in), PCC_PROTO_ERR_BAD_ICRC);
		f[s[i].len - 5] ^= 0x10;
		b = in.bth_off + 11;
		f[b] ^= 1;
		assert_int_equal(pcc_parse(f, s[i].len, icrc_opts(), &in), PCC_PROTO_ERR_BAD_ICRC);
		f[b] ^= 1;
		f[l3o + (s[i].v6 ? 39 : 19)] ^= 1;
		assert_int_equal(pcc_parse(f, s[i].len, icrc_opts(), &in), PCC_PROTO_ERR_BAD_ICRC);
		f[l3o + (s[i].v6 ? 39 : 19)] ^= 1;
		f[s[i].len - 1] ^= 0x80;
		assert_int_equal(pcc_parse(f, s[i].len, icrc_opts(), &in), PCC_PROTO_ERR_BAD_ICRC);
		f[s[i].len - 1] ^= 0x80;

		/* variant fields: ECN, DSCP, TTL, FECN/BECN, UDP csum,
		 * flow label: the ICRC still matches */
		assert_int_equal(pcc_frame_ecn_set(f, s[i].len, PCC_ECN_CE), 0);
		assert_int_equal(pcc_frame_ecn_get(f, s[i].len), PCC_ECN_CE);
		assert_int_equal(pcc_dscp_set(f + l3o, s[i].len - l3o, 46), 0);
		f[l3o + (s[i].v6 ? 7 : 8)] -= 3;
		if (!s[i].v6)
			wbe16(f + l3o + 10, ipv4_csum_calc(f + l3o));
		f[in.bth_off + 4] |= PCC_BTH_FECN | PCC_BTH_BECN | 0x20;
		if (s[i].v6) {
			f[l3o + 1] ^= 0x0f;
			f[l3o + 3] ^= 0x5a;
			f[l3o + 40 + 6] ^= 0xff;
		}
		assert_int_equal(pcc_parse(f, s[i].len, strict_opts(), &in), 0);
		assert_true(in.flags & PCC_PKT_F_ICRC_OK);
		assert_int_equal(in.ecn, PCC_ECN_CE);
		assert_int_equal(in.dscp, 46);
		assert_int_equal(in.ttl, 61);

		/* pcc_icrc_update repairs a changed packet */
		f[in.payload_off - 1] ^= 0x44;
		assert_int_equal(pcc_icrc_verify(f, &in), PCC_PROTO_ERR_BAD_ICRC);
		assert_int_equal(pcc_icrc_update(f, &in), 0);
		assert_int_equal(pcc_icrc_verify(f, &in), 0);
	}
	free(s);
}

static void
test_icrc_args(void **state)
{
	struct pcc_pkt_info in;
	uint8_t ip[80];
	int err = 0;

	(void)state;
	memset(ip, 0, sizeof(ip));
	assert_int_equal(pcc_icrc_calc(NULL, 10, &err), 0);
	assert_int_equal(err, PCC_PROTO_ERR_INVAL);
	ip[0] = 0x45;
	assert_int_equal(pcc_icrc_calc(ip, 39, &err), 0);
	assert_int_equal(err, PCC_PROTO_ERR_TRUNCATED);
	pcc_icrc_calc(ip, 40, &err);
	assert_int_equal(err, 0);
	ip[0] = 0x44;
	pcc_icrc_calc(ip, 40, &err);
	assert_int_equal(err, PCC_PROTO_ERR_BAD_LENGTH);
	ip[0] = 0x60;
	pcc_icrc_calc(ip, 59, &err);
	assert_int_equal(err, PCC_PROTO_ERR_TRUNCATED);
	pcc_icrc_calc(ip, 60, &err);
	assert_int_equal(err, 0);
	ip[0] = 0x50;
	pcc_icrc_calc(ip, 60, &err);
	assert_int_equal(err, PCC_PROTO_ERR_BAD_VERSION);
	pcc_icrc_calc(ip, 0, &err);
	assert_int_equal(err, PCC_PROTO_ERR_TRUNCATED);
	memset(&in, 0, sizeof(in));
	assert_int_equal(pcc_icrc_verify(ip, &in), PCC_PROTO_ERR_NOT_ROCE);
	assert_int_equal(pcc_icrc_update(ip, &in), PCC_PROTO_ERR_NOT_ROCE);
	assert_int_equal(pcc_icrc_verify(NULL, &in), PCC_PROTO_ERR_INVAL);
	in.bth_off = 42;
	in.payload_off = 54;
	in.payload_len = 30;
	in.frame_len = 80;
	assert_int_equal(pcc_icrc_verify(ip, &in), PCC_PROTO_ERR_BAD_LENGTH);
}

/*
 * Whether bit b of byte i of the IP+UDP+BTH block (IP header hl bytes) is
 * one the ICRC masks (IBA A17.8.1, written out from the spec, not from
 * lib/proto): IPv4 TOS, TTL, header checksum; IPv6 traffic class, flow
 * label, hop limit; UDP checksum; BTH resv8a (FECN, BECN).
 */
static bool
icrc_masked(bool v6, uint32_t hl, uint32_t i, unsigned int b)
{
	if (i == hl + 6 || i == hl + 7 || i == hl + 8 + 4)
		return true;
	if (v6)
		return (i == 0 && b < 4) || (i >= 1 && i <= 3) || i == 7;
	return i == 1 || i == 8 || i == 10 || i == 11;
}

/*
 * f (parsed into *in, valid ICRC): every single-bit change of a masked
 * header bit keeps the ICRC valid, of any other header bit breaks it;
 * every masked field set to all ones, then all zeros, at once keeps it.
 */
static void
check_icrc_mask(uint8_t *f, const struct pcc_pkt_info *in)
{
	bool v6 = (in->flags & PCC_PKT_F_IPV6) != 0;
	uint32_t hl = in->l4_off - in->l3_off, n = hl + 8 + 12, i;
	uint8_t *ip = f + in->l3_off, save[80], m;
	unsigned int b;
	int r;

	assert_true(n <= sizeof(save));
	assert_int_equal(in->bth_off, in->l4_off + 8);
	assert_int_equal(pcc_icrc_verify(f, in), 0);
	for (i = 0; i < n; i++) {
		for (b = 0; b < 8; b++) {
			ip[i] ^= (uint8_t)(1u << b);
			r = pcc_icrc_verify(f, in);
			ip[i] ^= (uint8_t)(1u << b);
			if (icrc_masked(v6, hl, i, b) ? r != 0 : r == 0)
				fail_msg("v6 %d hl %u byte %u bit %u: %d", v6, hl, i, b, r);
		}
	}
	memcpy(save, ip, n);
	for (i = 0; i < n; i++) {
		for (m = 0, b = 0; b < 8; b++)
			m |= icrc_masked(v6, hl, i, b) ? (uint8_t)(1u << b) : 0;
		ip[i] |= m;
	}
	assert_int_equal(pcc_icrc_verify(f, in), 0);
	for (i = 0; i < n; i++) {
		for (m = 0, b = 0; b < 8; b++)
			m |= icrc_masked(v6, hl, i, b) ? (uint8_t)(1u << b) : 0;
		ip[i] &= (uint8_t)~m;
	}
	assert_int_equal(pcc_icrc_verify(f, in), 0);
	memcpy(ip, save, n);
	assert_int_equal(pcc_icrc_verify(f, in), 0);
}

/* Insert opt_len (multiple of 4) bytes of NOP options into the IPv4 frame f. */
static int
add_ipv4_options(uint8_t *f, int n, uint32_t l3o, uint32_t opt_len)
{
	memmove(f + l3o + 20 + opt_len, f + l3o + 20, (size_t)n - l3o - 20);
	memset(f + l3o + 20, 0x01, opt_len);
	f[l3o] = (uint8_t)(0x40 | (5 + opt_len / 4));
	wbe16(f + l3o + 2, (uint16_t)(be16(f + l3o + 2) + opt_len));
	wbe16(f + l3o + 10, 0);
	wbe16(f + l3o + 10, ipv4_csum_calc(f + l3o));
	return n + (int)opt_len;
}

/*
 * The masked fields, field by field and bit by bit, on the header layouts
 * proto_icrc.c takes different paths for: IPv4 without options, IPv4 with
 * options (4 and 40 bytes), IPv6, each with and without VLAN.  Then the
 * datagram cut short, in a buffer of exactly its length (for ASan and
 * valgrind): truncated below the headers, never a read past the end.
 */
static void
test_icrc_masked_fields(void **state)
{
	static const uint32_t opts[] = { 0, 4, 40 };
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[FRAME_MAX], pl[64], *buf, *d;
	uint32_t v, o, l3o, hl, len, full;
	int n, err;

	(void)state;
	for (v = 0; v < 4; v++) {
		for (o = 0; o < RTE_DIM(opts); o++) {
			if (variants[v].v6 && opts[o] != 0)
				continue;
			mk_l3(&l3, variants[v].v6, variants[v].vlan);
			mk_rc_send(&rs, pl);
			n = pcc_roce_build(f, sizeof(f), &l3, &rs);
			assert_true(n > 0);
			l3o = variants[v].vlan ? 18 : 14;
			if (opts[o] != 0) {
				n = add_ipv4_options(f, n, l3o, opts[o]);
				assert_int_equal(pcc_parse(f, (uint32_t)n, NULL, &in), 0);
				assert_int_equal(pcc_icrc_update(f, &in), 0);
			}
			assert_int_equal(pcc_parse(f, (uint32_t)n, strict_opts(), &in), 0);
			assert_true(in.flags & PCC_PKT_F_ICRC_OK);
			hl = in.l4_off - in.l3_off;
			assert_int_equal(hl, variants[v].v6 ? 40 : 20 + opts[o]);
			check_icrc_mask(f, &in);

			full = (uint32_t)n - l3o - 4;
			for (len = 0; len <= hl + 8 + 12 + 5 && len <= full; len++) {
				buf = malloc(len != 0 ? len : 1);
				assert_non_null(buf);
				/* empty: one past the end, so that any read is outside */
				d = len != 0 ? buf : buf + 1;
				memcpy(d, f + l3o, len);
				err = 1;
				pcc_icrc_calc(d, len, &err);
				assert_int_equal(err,
						len < hl + 8 + 12 ? PCC_PROTO_ERR_TRUNCATED : 0);
				free(buf);
			}
			d = malloc(full);
			assert_non_null(d);
			memcpy(d, f + l3o, full);
			assert_int_equal(pcc_icrc_calc(d, full, &err), le32(f + n - 4));
			assert_int_equal(err, 0);
			free(d);
		}
	}
}

/* ---- 4. ICRC vs DPDK rte_net_crc --------------------------------- */

static void
test_icrc_rte_net_crc(void **state)
{
	struct sample *s = calloc(N_SAMPLES, sizeof(*s));
	uint8_t *lin;
	unsigned int i;
	uint32_t l3o, hl, dlen, ours, dpdk;
	int err;

	(void)state;
	assert_non_null(s);
	lin = malloc(8 + FRAME_MAX);
	assert_non_null(lin);
	make_samples(s);
	rte_net_crc_set_alg(RTE_NET_CRC_SCALAR);
	for (i = 0; i < N_SAMPLES; i++) {
		l3o = s[i].vlan ? 18 : 14;
		hl = s[i].v6 ? 40 : 20;
		dlen = s[i].len - l3o - 4;
		/* fully masked linear copy, built independently */
		memset(lin, 0xff, 8);
		memcpy(lin + 8, s[i].f + l3o, dlen);
		if (s[i].v6) {
			lin[8] |= 0x0f;
			memset(lin + 8 + 1, 0xff, 3);
			lin[8 + 7] = 0xff;
		} else {
			lin[8 + 1] = 0xff;
			lin[8 + 8] = 0xff;
			lin[8 + 10] = lin[8 + 11] = 0xff;
		}
		lin[8 + hl + 6] = lin[8 + hl + 7] = 0xff;
		lin[8 + hl + 8 + 4] = 0xff;
		dpdk = rte_net_crc_calc(lin, 8 + dlen, RTE_NET_CRC32_ETH);
		ours = pcc_icrc_calc(s[i].f + l3o, dlen, &err);
		assert_int_equal(err, 0);
		assert_int_equal(ours, dpdk);
		assert_int_equal(ours, le32(s[i].f + s[i].len - 4));
	}
	/* the CNP vector too */
	memset(lin, 0xff, 8);
	memcpy(lin + 8, cnp_vector, sizeof(cnp_vector) - 4);
	lin[8 + 1] = lin[8 + 8] = lin[8 + 10] = lin[8 + 11] = 0xff;
	lin[8 + 26] = lin[8 + 27] = lin[8 + 32] = 0xff;
	assert_int_equal(rte_net_crc_calc(lin, 8 + sizeof(cnp_vector) - 4, RTE_NET_CRC32_ETH),
			0xef1bfcda);
	free(lin);
	free(s);
}

/* ---- ECN / DSCP ---------------------------------------------------- */

static void
test_ecn_dscp(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	uint8_t f[FRAME_MAX], pl[64];
	uint32_t crc, l3o;
	int v, n;
	uint8_t e, d;

	(void)state;
	for (v = 0; v < 4; v++) {
		mk_l3(&l3, variants[v].v6, variants[v].vlan);
		mk_rc_send(&rs, pl);
		n = pcc_roce_build(f, sizeof(f), &l3, &rs);
		l3o = l3.vlan ? 18 : 14;
		crc = le32(f + n - 4);
		for (d = 0; d < 64; d += 7) {
			for (e = 0; e < 4; e++) {
				assert_int_equal(pcc_frame_ecn_set(f, (uint32_t)n, e), 0);
				assert_int_equal(pcc_dscp_set(f + l3o, (uint32_t)n - l3o, d), 0);
				assert_int_equal(pcc_ecn_get(f + l3o, (uint32_t)n - l3o), e);
				assert_int_equal(pcc_frame_ecn_get(f, (uint32_t)n), e);
				assert_int_equal(pcc_parse(f, (uint32_t)n, strict_opts(), &in), 0);
				assert_int_equal(in.ecn, e);
				assert_int_equal(in.dscp, d);
				assert_int_equal(le32(f + n - 4), crc);
				if (!l3.ipv6) {
					assert_true(ipv4_csum_ok(f + l3o));
					assert_int_equal(be16(f + l3o + 10),
							ipv4_csum_calc(f + l3o));
				} else {
					/* version and flow label intact */
					assert_int_equal(f[l3o] >> 4, 6);
					assert_int_equal(((f[l3o + 1] & 0xf) << 16) |
									be16(f + l3o + 2),
							0xabcde);
				}
			}
		}
		assert_int_equal(pcc_ecn_set(f + l3o, (uint32_t)n - l3o, 4), PCC_PROTO_ERR_INVAL);
		assert_int_equal(pcc_dscp_set(f + l3o, (uint32_t)n - l3o, 64), PCC_PROTO_ERR_INVAL);
		assert_int_equal(pcc_ecn_get(f + l3o, l3.ipv6 ? 39 : 19), PCC_PROTO_ERR_TRUNCATED);
		assert_int_equal(pcc_frame_ecn_get(f, l3o + 1), PCC_PROTO_ERR_TRUNCATED);
		assert_int_equal(pcc_frame_ecn_get(f, l3o), PCC_PROTO_ERR_TRUNCATED);
		assert_int_equal(pcc_frame_ecn_get(f, 13), PCC_PROTO_ERR_TRUNCATED);
	}
	/* the incremental update matches a recomputation: all TOS values */
	mk_l3(&l3, false, false);
	mk_rc_send(&rs, pl);
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	for (d = 0; d < 64; d++) {
		assert_int_equal(pcc_dscp_set(f + 14, 20, d), 0);
		for (e = 0; e < 4; e++) {
			assert_int_equal(pcc_ecn_set(f + 14, 20, e), 0);
			assert_int_equal(f[15], (d << 2) | e);
			assert_true(ipv4_csum_ok(f + 14));
		}
	}
	wbe16(f + 12, 0x0806);
	assert_int_equal(pcc_frame_ecn_get(f, (uint32_t)n), PCC_PROTO_ERR_NOT_IP);
	assert_int_equal(pcc_frame_ecn_set(f, (uint32_t)n, 1), PCC_PROTO_ERR_NOT_IP);
	wbe16(f + 12, 0x86dd);
	assert_int_equal(pcc_frame_ecn_get(f, (uint32_t)n), PCC_PROTO_ERR_BAD_VERSION);
	f[14] = 0x35;
	assert_int_equal(pcc_ecn_get(f + 14, 20), PCC_PROTO_ERR_BAD_VERSION);
	assert_int_equal(pcc_ecn_get(NULL, 20), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ecn_get(f + 14, 0), PCC_PROTO_ERR_TRUNCATED);
}

/* ---- 5. mbufs ----------------------------------------------------- */

static void
info_equal(const struct pcc_pkt_info *a, const struct pcc_pkt_info *b)
{
	assert_memory_equal(a, b, sizeof(*a));
}

/* Flip one bit of frame byte pos in a two-segment copy split at split. */
static void
flip(uint8_t *seg0, uint8_t *seg1, uint32_t split, uint32_t pos)
{
	if (pos < split)
		seg0[pos] ^= 0x08;
	else
		seg1[pos - split] ^= 0x08;
}

static void
test_mbuf(void **state)
{
	struct rte_mbuf m[2];
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info ref, in;
	uint8_t *f, *b0, *b1, pl[1200];
	uint32_t sizes[2] = { 40, 1200 };
	uint32_t split, len;
	int n, v, z;

	(void)state;
	f = malloc(FRAME_MAX);
	b0 = malloc(FRAME_MAX + 128);
	b1 = malloc(FRAME_MAX + 128);
	assert_non_null(f);
	assert_non_null(b0);
	assert_non_null(b1);
	fill_pattern(pl, sizeof(pl), 17);
	for (z = 0; z < 2; z++) {
		for (v = 0; v < 4; v++) {
			mk_l3(&l3, variants[v].v6, variants[v].vlan);
			memset(&rs, 0, sizeof(rs));
			rs.bth.opcode = PCC_OP_RC_RDMA_WRITE_ONLY;
			rs.bth.dqpn = 0x4321;
			rs.reth.dma_len = sizes[z];
			rs.payload = pl;
			rs.payload_len = sizes[z];
			n = pcc_roce_build(f, FRAME_MAX, &l3, &rs);
			len = (uint32_t)n;
			assert_int_equal(pcc_parse(f, len, strict_opts(), &ref), 0);

			/* single segment, with headroom */
			memcpy(b0 + 128, f, len);
			mbuf_init(&m[0], b0, (uint16_t)(FRAME_MAX + 128), 128, (uint16_t)len);
			assert_int_equal(pcc_parse_mbuf(&m[0], strict_opts(), &in), 0);
			info_equal(&in, &ref);
			assert_int_equal(pcc_parse_mbuf(&m[0], NULL, &in), 0);
			assert_false(in.flags & PCC_PKT_F_ICRC_OK);

			/* two segments, every split point */
			for (split = 1; split < len; split++) {
				memcpy(b0 + 64, f, split);
				memcpy(b1 + 32, f + split, len - split);
				mbuf_init(&m[0], b0, (uint16_t)(FRAME_MAX + 128), 64,
						(uint16_t)split);
				mbuf_init(&m[1], b1, (uint16_t)(FRAME_MAX + 128), 32,
						(uint16_t)(len - split));
				m[0].pkt_len = len;
				m[0].nb_segs = 2;
				m[0].next = &m[1];
				assert_int_equal(pcc_parse_mbuf(&m[0], strict_opts(), &in), 0);
				info_equal(&in, &ref);
				/* last / first payload byte flipped */
				flip(b0 + 64, b1 + 32, split, len - 5);
				assert_int_equal(pcc_parse_mbuf(&m[0], strict_opts(), &in),
						PCC_PROTO_ERR_BAD_ICRC);
				assert_int_equal(pcc_parse_mbuf(&m[0], NULL, &in), 0);
				flip(b0 + 64, b1 + 32, split, len - 5);
				flip(b0 + 64, b1 + 32, split, ref.payload_off);
				assert_int_equal(pcc_parse_mbuf(&m[0], strict_opts(), &in),
						PCC_PROTO_ERR_BAD_ICRC);
				flip(b0 + 64, b1 + 32, split, ref.payload_off);
				/* length checks use pkt_len */
				m[0].pkt_len = len - 1;
				m[1].data_len--;
				assert_int_equal(pcc_parse_mbuf(&m[0], strict_opts(), &in),
						PCC_PROTO_ERR_BAD_LENGTH);
			}
		}
	}
	assert_int_equal(pcc_parse_mbuf(NULL, NULL, &in), PCC_PROTO_ERR_INVAL);
	free(f);
	free(b0);
	free(b1);
}

/* ---- single headers ----------------------------------------------- */

static void
test_headers(void **state)
{
	struct pcc_bth bth, bth2;
	struct pcc_aeth aeth, aeth2;
	struct pcc_reth reth, reth2;
	struct pcc_deth deth, deth2;
	struct pcc_mad_hdr mad, mad2;
	uint8_t b[64];
	uint32_t i;

	(void)state;
	memset(&bth, 0, sizeof(bth));
	memset(&bth2, 0, sizeof(bth2));
	memset(&mad2, 0, sizeof(mad2));
	bth.opcode = 0x0a;
	bth.se = 1;
	bth.pad_cnt = 2;
	bth.pkey = 0x1234;
	bth.flags = PCC_BTH_BECN;
	bth.dqpn = 0xabcdef;
	bth.ackreq = 1;
	bth.psn = 0x000102;
	assert_int_equal(pcc_bth_build(b, sizeof(b), &bth), 12);
	{
		static const uint8_t exp[12] = {
			0x0a,
			0xa0,
			0x12,
			0x34,
			0x40,
			0xab,
			0xcd,
			0xef,
			0x80,
			0x00,
			0x01,
			0x02,
		};
		assert_memory_equal(b, exp, 12);
	}
	assert_int_equal(pcc_bth_parse(b, 12, &bth2), 0);
	assert_memory_equal(&bth, &bth2, sizeof(bth));
	for (i = 0; i < 12; i++) {
		assert_int_equal(pcc_bth_parse(b, i, &bth2), PCC_PROTO_ERR_TRUNCATED);
		assert_int_equal(pcc_bth_build(b, i, &bth), PCC_PROTO_ERR_NO_SPACE);
	}
	b[1] |= 1;
	assert_int_equal(pcc_bth_parse(b, 12, &bth2), PCC_PROTO_ERR_BAD_VERSION);
	b[1] &= 0xf0;
	b[0] = 0x15;
	assert_int_equal(pcc_bth_parse(b, 12, &bth2), PCC_PROTO_ERR_UNKNOWN_OPCODE);
	bth.dqpn = 0x1000000;
	assert_int_equal(pcc_bth_build(b, 12, &bth), PCC_PROTO_ERR_INVAL);
	bth.dqpn = 1;
	bth.pad_cnt = 4;
	assert_int_equal(pcc_bth_build(b, 12, &bth), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_bth_build(NULL, 12, &bth), PCC_PROTO_ERR_INVAL);

	aeth.syndrome = 0x63;
	aeth.msn = 0x010203;
	assert_int_equal(pcc_aeth_build(b, 4, &aeth), 4);
	assert_int_equal(b[0], 0x63);
	assert_int_equal(b[3], 0x03);
	assert_int_equal(pcc_aeth_parse(b, 4, &aeth2), 0);
	assert_int_equal(aeth2.syndrome, 0x63);
	assert_int_equal(aeth2.msn, 0x010203);
	assert_int_equal(pcc_aeth_parse(b, 3, &aeth2), PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_aeth_build(b, 3, &aeth), PCC_PROTO_ERR_NO_SPACE);
	b[0] = 0x40;
	assert_int_equal(pcc_aeth_parse(b, 4, &aeth2), PCC_PROTO_ERR_BAD_FIELD);
	aeth.msn = 0x1000000;
	assert_int_equal(pcc_aeth_build(b, 4, &aeth), PCC_PROTO_ERR_INVAL);

	reth.va = 0x0102030405060708ull;
	reth.rkey = 0x090a0b0c;
	reth.dma_len = 0x0d0e0f10;
	assert_int_equal(pcc_reth_build(b, 16, &reth), 16);
	for (i = 0; i < 16; i++)
		assert_int_equal(b[i], i + 1);
	assert_int_equal(pcc_reth_parse(b, 16, &reth2), 0);
	assert_memory_equal(&reth, &reth2, sizeof(reth));
	assert_int_equal(pcc_reth_parse(b, 15, &reth2), PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_reth_build(b, 15, &reth), PCC_PROTO_ERR_NO_SPACE);

	deth.qkey = PCC_GSI_QKEY;
	deth.sqpn = 0x123456;
	memset(b, 0xee, 8);
	assert_int_equal(pcc_deth_build(b, 8, &deth), 8);
	{
		static const uint8_t exp[8] = {
			0x80,
			0x01,
			0x00,
			0x00,
			0x00,
			0x12,
			0x34,
			0x56,
		};
		assert_memory_equal(b, exp, 8);
	}
	assert_int_equal(pcc_deth_parse(b, 8, &deth2), 0);
	assert_int_equal(deth2.qkey, PCC_GSI_QKEY);
	assert_int_equal(deth2.sqpn, 0x123456);
	assert_int_equal(pcc_deth_parse(b, 7, &deth2), PCC_PROTO_ERR_TRUNCATED);
	deth.sqpn = 0x1000000;
	assert_int_equal(pcc_deth_build(b, 8, &deth), PCC_PROTO_ERR_INVAL);

	memset(&mad, 0, sizeof(mad));
	mad.base_version = 1;
	mad.mgmt_class = PCC_MAD_CLASS;
	mad.class_version = 1;
	mad.method = PCC_MAD_METHOD_GET_RESP;
	mad.status = 0x1234;
	mad.class_specific = 0x5678;
	mad.tid = 0x1122334455667788ull;
	mad.attr_id = PCC_MAD_ATTR_RTT;
	mad.attr_mod = 0xa0b0c0d0;
	memset(b, 0xee, 24);
	assert_int_equal(pcc_mad_hdr_build(b, 24, &mad), 24);
	{
		static const uint8_t exp[24] = {
			0x01,
			0x0a,
			0x01,
			0x81,
			0x12,
			0x34,
			0x56,
			0x78,
			0x11,
			0x22,
			0x33,
			0x44,
			0x55,
			0x66,
			0x77,
			0x88,
			0xff,
			0x10,
			0x00,
			0x00,
			0xa0,
			0xb0,
			0xc0,
			0xd0,
		};
		assert_memory_equal(b, exp, 24);
	}
	assert_int_equal(pcc_mad_hdr_parse(b, 24, &mad2), 0);
	assert_memory_equal(&mad, &mad2, sizeof(mad));
	assert_int_equal(pcc_mad_hdr_parse(b, 23, &mad2), PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_mad_hdr_build(b, 23, &mad), PCC_PROTO_ERR_NO_SPACE);
	b[0] = 2;
	assert_int_equal(pcc_mad_hdr_parse(b, 24, &mad2), PCC_PROTO_ERR_BAD_VERSION);
}

static void
test_builder_errors(void **state)
{
	struct pcc_roce_spec rs;
	struct pcc_l3_spec l3;
	uint8_t f[FRAME_MAX], pl[64];
	int n, i;

	(void)state;
	mk_l3(&l3, true, true);
	mk_rc_send(&rs, pl);
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	assert_int_equal(n, 18 + 40 + 8 + 12 + 40 + 4);
	for (i = 0; i < n; i++)
		assert_int_equal(pcc_roce_build(f, (uint32_t)i, &l3, &rs), PCC_PROTO_ERR_NO_SPACE);
	assert_int_equal(pcc_roce_build(NULL, sizeof(f), &l3, &rs), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_roce_build(f, sizeof(f), NULL, &rs), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_roce_build(f, sizeof(f), &l3, NULL), PCC_PROTO_ERR_INVAL);
	l3.dscp = 64;
	assert_int_equal(pcc_roce_build(f, sizeof(f), &l3, &rs), PCC_PROTO_ERR_INVAL);
	l3.dscp = 0;
	l3.ecn = 4;
	assert_int_equal(pcc_roce_build(f, sizeof(f), &l3, &rs), PCC_PROTO_ERR_INVAL);
	l3.ecn = 0;
	l3.flow_label = 0x100000;
	assert_int_equal(pcc_roce_build(f, sizeof(f), &l3, &rs), PCC_PROTO_ERR_INVAL);
	l3.flow_label = 0;
	rs.bth.psn = 0x1000000;
	assert_int_equal(pcc_roce_build(f, sizeof(f), &l3, &rs), PCC_PROTO_ERR_INVAL);
	rs.bth.psn = 0;
	rs.payload_len = 70000;
	assert_int_equal(pcc_roce_build(f, sizeof(f), &l3, &rs), PCC_PROTO_ERR_INVAL);
	/* the largest IPv4 datagram: total length 65535 */
	mk_l3(&l3, false, false);
	rs.payload = NULL;
	rs.payload_len = 65535 - 20 - 8 - 12 - 4 - 3;
	assert_int_equal(pcc_roce_build(f, sizeof(f), &l3, &rs), PCC_PROTO_ERR_NO_SPACE);
	rs.payload_len += 4;
	assert_int_equal(pcc_roce_build(f, sizeof(f), &l3, &rs), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_cnp_build(f, sizeof(f), &l3, 0x1000000), PCC_PROTO_ERR_INVAL);
	/* TTL as given, and TVer written as given (parse rejects it) */
	l3.ttl = 1;
	rs.payload_len = 0;
	rs.bth.tver = 3;
	n = pcc_roce_build(f, sizeof(f), &l3, &rs);
	assert_true(n > 0);
	assert_int_equal(f[14 + 8], 1);
	assert_int_equal(f[14 + 20 + 8 + 1] & 0xf, 3);
}

/* ---- 6. probe response timestamp --------------------------------- */

static void
test_probe_resp_ts(void **state)
{
	const uint64_t ts = 0x0123456789abcdefull;

	(void)state;
	/* ts_size 0: unchanged */
	assert_int_equal(pcc_probe_resp_ts(0xdeadbeef, ts, 0, 0), 0xdeadbeef);
	assert_int_equal(pcc_probe_resp_ts(0xdeadbeef, ts, 0, 70), 0xdeadbeef);
	/* ts_size 1: the low bit only */
	assert_int_equal(pcc_probe_resp_ts(0xdeadbeee, ts, 1, 0), 0xdeadbeef);
	assert_int_equal(pcc_probe_resp_ts(0xdeadbeef, ts, 1, 4), 0xdeadbeee);
	/* ts_size 31: keep bit 31 */
	assert_int_equal(pcc_probe_resp_ts(0x80000000, ts, 31, 0),
			0x80000000 | (0x89abcdef & 0x7fffffff));
	assert_int_equal(pcc_probe_resp_ts(0x00000000, ts, 31, 0), 0x09abcdef);
	/* ts_size 32 and more: the whole dword */
	assert_int_equal(pcc_probe_resp_ts(0xffffffff, ts, 32, 0), 0x89abcdef);
	assert_int_equal(pcc_probe_resp_ts(0xffffffff, ts, 40, 0), 0x89abcdef);
	/* resolution shifts */
	assert_int_equal(pcc_probe_resp_ts(0, ts, 32, 10), (uint32_t)(ts >> 10));
	assert_int_equal(pcc_probe_resp_ts(0, ts, 32, 32), 0x01234567);
	assert_int_equal(pcc_probe_resp_ts(0xffff0000, ts, 16, 10),
			0xffff0000 | (uint32_t)((ts >> 10) & 0xffff));
	assert_int_equal(pcc_probe_resp_ts(0, UINT64_MAX, 32, 63), 1);
	assert_int_equal(pcc_probe_resp_ts(0, UINT64_MAX, 32, 64), 1);
	assert_int_equal(pcc_probe_resp_ts(0, UINT64_MAX, 32, 1000), 1);
	assert_int_equal(pcc_probe_resp_ts(0xaaaaaaaa, ts, 32, 63), 0);
}

/* ---- 7. names, ports ---------------------------------------------- */

static void
test_strings(void **state)
{
	static const char *const kinds[] = {
		"other",
		"roce_data",
		"ack",
		"nak",
		"cnp",
		"probe_req",
		"probe_resp",
		"ifa2",
		"ifa1",
	};
	const char *s, *t;
	int e, k;

	(void)state;
	assert_string_equal(pcc_proto_strerror(0), "success");
	assert_string_equal(pcc_proto_strerror(5), "success");
	for (e = PCC_PROTO_ERR_TRUNCATED; e > PCC_PROTO_ERR_MAX; e--) {
		s = pcc_proto_strerror(e);
		assert_non_null(s);
		assert_true(strlen(s) > 5);
		assert_string_not_equal(s, "unknown error");
		assert_string_not_equal(s, "success");
		/* distinct */
		for (k = e + 1; k < 0; k++) {
			t = pcc_proto_strerror(k);
			assert_string_not_equal(s, t);
		}
	}
	assert_string_equal(pcc_proto_strerror(PCC_PROTO_ERR_MAX), "unknown error");
	assert_string_equal(pcc_proto_strerror(-1000), "unknown error");
	assert_string_equal(pcc_proto_strerror(PCC_PROTO_ERR_BAD_ICRC), "RoCEv2 ICRC mismatch");

	assert_int_equal(RTE_DIM(kinds), PCC_PKT_KIND_MAX);
	for (k = 0; k < PCC_PKT_KIND_MAX; k++)
		assert_string_equal(pcc_pkt_kind_name((enum pcc_pkt_kind)k), kinds[k]);
	assert_string_equal(pcc_pkt_kind_name(PCC_PKT_KIND_MAX), "unknown");
	assert_string_equal(pcc_pkt_kind_name((enum pcc_pkt_kind)200), "unknown");
}

static void
test_udp_sport(void **state)
{
	uint32_t a, b;
	uint16_t p;

	(void)state;
	/* values from Linux rdma_calc_flow_label/rdma_flow_label_to_udp_sport */
	assert_int_equal(pcc_roce_udp_sport(0x11, 0x12), 0xc132);
	assert_int_equal(pcc_roce_udp_sport(0, 0), 0xc000);
	assert_int_equal(pcc_roce_udp_sport(0x123456, 0xabcdef), 0xc3c8);
	assert_int_equal(pcc_roce_udp_sport(0xffffff, 0xffffff), 0xff21);
	assert_int_equal(pcc_roce_udp_sport(0x1000, 0x10), 0xc004);
	for (a = 1; a < 1u << 24; a = a * 3 + 1) {
		for (b = 1; b < 1u << 24; b = b * 5 + 2) {
			p = pcc_roce_udp_sport(a, b);
			assert_true(p >= 0xc000);
			assert_int_equal(p, pcc_roce_udp_sport(b, a));
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cnp_vector),
		cmocka_unit_test(test_scapy_vector),
		cmocka_unit_test(test_rt_rc_send),
		cmocka_unit_test(test_rt_rdma_write),
		cmocka_unit_test(test_rt_ack_nak),
		cmocka_unit_test(test_rt_ud_send),
		cmocka_unit_test(test_rt_ext_combos),
		cmocka_unit_test(test_rt_probe),
		cmocka_unit_test(test_probe_errors),
		cmocka_unit_test(test_probe_mad),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_consistent_truncation),
		cmocka_unit_test(test_length_corruption),
		cmocka_unit_test(test_ipv4_options),
		cmocka_unit_test(test_not_roce),
		cmocka_unit_test(test_fragments),
		cmocka_unit_test(test_all_opcodes),
		cmocka_unit_test(test_every_field_set),
		cmocka_unit_test(test_icrc_detect),
		cmocka_unit_test(test_icrc_args),
		cmocka_unit_test(test_icrc_masked_fields),
		cmocka_unit_test(test_icrc_rte_net_crc),
		cmocka_unit_test(test_ecn_dscp),
		cmocka_unit_test(test_mbuf),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_builder_errors),
		cmocka_unit_test(test_probe_resp_ts),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_udp_sport),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
