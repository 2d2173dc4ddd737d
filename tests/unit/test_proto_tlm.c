/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of pcc_proto_tlm.h: IFA 2.0, IFA 1.0 and HPCC INT.  Frames are
 * built by hand here so that the tests depend on nothing but the telemetry
 * code.  Truncation tests copy each prefix into a heap buffer of exactly
 * that size so that a sanitizer build catches any over-read.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pcc_proto.h"

#define FRAME_CAP 2048
#define IFA_PROTO PCC_IFA2_PROTO_DEFAULT

/* ---- hand-made frames -------------------------------------------- */

static uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static void
wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint32_t
rd32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint32_t
sum16(uint32_t sum, const uint8_t *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += rd16(p + i);
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

static uint16_t
fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* Layout of a test frame (offsets from the frame start). */
struct tframe {
	bool vlan;
	bool v6;
	uint32_t opt_len; /* IPv4 option bytes (multiple of 4) */
	uint32_t l3_off;
	uint32_t l4_off; /* after the IP header */
	uint32_t payload_len;
	uint32_t len;
};

/*
 * Plain Eth / [802.1Q] / IPv4 (+options) or IPv6 / UDP 4791 / payload.
 * Payload byte i is (i * 7 + 3) & 0xff.  IPv4 checksum valid, UDP checksum
 * 0 (IPv4) or valid (IPv6).
 */
static uint32_t
mk_udp_frame(uint8_t *b, struct tframe *t)
{
	uint32_t off = 12, i, ip_len, udp_len;
	uint8_t *ip, *udp;

	memset(b, 0, FRAME_CAP);
	for (i = 0; i < 6; i++) {
		b[i] = (uint8_t)(0x02 + i);
		b[6 + i] = (uint8_t)(0x12 + i);
	}
	if (t->vlan) {
		wr16(b + off, 0x8100);
		wr16(b + off + 2, 0x6123);
		off += 4;
	}
	wr16(b + off, t->v6 ? 0x86DD : 0x0800);
	off += 2;
	t->l3_off = off;
	ip = b + off;
	udp_len = 8 + t->payload_len;
	if (t->v6) {
		ip[0] = 0x60 | 0x0a; /* tc 0xa3, flow label 0x12345 */
		ip[1] = 0x31;
		ip[2] = 0x23;
		ip[3] = 0x45;
		wr16(ip + 4, (uint16_t)udp_len);
		ip[6] = 17;
		ip[7] = 64;
		for (i = 0; i < 16; i++) {
			ip[8 + i] = (uint8_t)(0x20 + i);
			ip[24 + i] = (uint8_t)(0x40 + i);
		}
		t->l4_off = off + 40;
	} else {
		ip_len = 20 + t->opt_len + udp_len;
		ip[0] = (uint8_t)(0x40 | ((20 + t->opt_len) / 4));
		ip[1] = 0x8a;
		wr16(ip + 2, (uint16_t)ip_len);
		wr16(ip + 4, 0x1234);
		wr16(ip + 6, 0x4000); /* DF */
		ip[8] = 64;
		ip[9] = 17;
		ip[12] = 10;
		ip[13] = 0;
		ip[14] = 0;
		ip[15] = 1;
		ip[16] = 10;
		ip[17] = 0;
		ip[18] = 0;
		ip[19] = 2;
		for (i = 0; i < t->opt_len; i++)
			ip[20 + i] = 1; /* NOP options */
		wr16(ip + 10, (uint16_t)~fold(sum16(0, ip, 20 + t->opt_len)));
		t->l4_off = off + 20 + t->opt_len;
	}
	udp = b + t->l4_off;
	wr16(udp, 0xc123);
	wr16(udp + 2, PCC_ROCE_UDP_PORT);
	wr16(udp + 4, (uint16_t)udp_len);
	for (i = 0; i < t->payload_len; i++)
		udp[8 + i] = (uint8_t)((i * 7 + 3) & 0xff);
	if (t->v6) {
		uint32_t s = sum16(0, ip + 8, 32) + udp_len + 17;
		uint16_t c = (uint16_t)~fold(sum16(s, udp, udp_len));

		wr16(udp + 6, c ? c : 0xffff);
	}
	t->len = t->l4_off + udp_len;
	return t->len;
}

static bool
ipv4_csum_ok(const uint8_t *ip)
{
	return fold(sum16(0, ip, (ip[0] & 0xf) * 4u)) == 0xffff;
}

static bool
udp6_csum_ok(const uint8_t *ip6, const uint8_t *udp)
{
	uint32_t ulen = rd16(udp + 4);
	uint32_t s = sum16(0, ip6 + 8, 32) + ulen + 17;

	return rd16(udp + 6) != 0 && fold(sum16(s, udp, ulen)) == 0xffff;
}

static bool
payload_ok(const uint8_t *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (p[i] != ((i * 7 + 3) & 0xff))
			return false;
	return true;
}

/* A hop with all fields distinct and derived from k. */
static struct pcc_ifa2_hop
mk_hop(unsigned int k)
{
	struct pcc_ifa2_hop h;
	unsigned int i;

	memset(&h, 0, sizeof(h));
	h.lns = (uint8_t)(k & 0xf);
	h.device_id = 0x10000 + k;
	h.ttl = (uint8_t)(64 - k);
	h.port_speed = (uint8_t)(k % 7);
	h.congestion = (uint8_t)(k & 3);
	h.queue_id = (uint8_t)(k & 0x3f);
	h.rx_sec = 0xf0000 | k;
	h.egress_port = (uint16_t)(100 + k);
	h.ingress_port = (uint16_t)(200 + k);
	h.rx_ns = 1000000u * k + 7;
	h.residence_ns = 300u + k;
	for (i = 0; i < sizeof(h.profile); i++)
		h.profile[i] = (uint8_t)(k * 16 + i);
	return h;
}

static void
assert_hop_equal(const struct pcc_ifa2_hop *a, const struct pcc_ifa2_hop *b)
{
	assert_int_equal(a->lns, b->lns);
	assert_int_equal(a->device_id, b->device_id);
	assert_int_equal(a->ttl, b->ttl);
	assert_int_equal(a->port_speed, b->port_speed);
	assert_int_equal(a->congestion, b->congestion);
	assert_int_equal(a->queue_id, b->queue_id);
	assert_int_equal(a->rx_sec, b->rx_sec);
	assert_int_equal(a->egress_port, b->egress_port);
	assert_int_equal(a->ingress_port, b->ingress_port);
	assert_int_equal(a->rx_ns, b->rx_ns);
	assert_int_equal(a->residence_ns, b->residence_ns);
	assert_memory_equal(a->profile, b->profile, sizeof(a->profile));
}

static const struct pcc_ifa2_hdr def_hdr = {
	.ver = PCC_IFA2_VERSION,
	.gns = PCC_IFA2_GNS_DEFAULT,
	.next_hdr = 17,
	.flags = PCC_IFA2_F_TS,
	.max_len = 3 * PCC_IFA2_HOP_LEN / 4,
};

static const struct pcc_ifa2_md_hdr def_md = {
	.req_vector = 0xff,
	.action_vector = PCC_IFA2_AV_L,
	.hop_limit = PCC_IFA2_HOP_LIMIT_DEFAULT,
	.cur_len = 0,
};

/* Build an IFA2 frame with n hops pushed (hop k = mk_hop(k), k = 1..n). */
static uint32_t
mk_ifa2_frame(uint8_t *b, struct tframe *t, const struct pcc_ifa2_hdr *h,
		const struct pcc_ifa2_md_hdr *m, unsigned int n)
{
	uint32_t len = mk_udp_frame(b, t);
	unsigned int k;

	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, h, m), 0);
	for (k = 1; k <= n; k++) {
		struct pcc_ifa2_hop hop = mk_hop(k);

		assert_int_equal(pcc_ifa2_push_hop(b, &len, FRAME_CAP, IFA_PROTO, &hop), 0);
	}
	t->len = len;
	return len;
}

/* Parse a copy of exactly len bytes (sanitizers see any over-read). */
static int
ifa2_parse_exact(const uint8_t *b, uint32_t len, struct pcc_ifa2_info *info)
{
	uint8_t *c = malloc(len ? len : 1);
	int rc;

	assert_non_null(c);
	memcpy(c, b, len);
	rc = pcc_ifa2_parse(c, len, IFA_PROTO, info);
	free(c);
	return rc;
}

/* ---- code tables ------------------------------------------------- */

static void
test_ifa2_speed_codes(void **state)
{
	static const uint32_t gbps[] = { 10, 25, 40, 50, 100, 200, 400 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 7; i++) {
		assert_int_equal(pcc_ifa2_speed_gbps((uint8_t)i), gbps[i]);
		assert_int_equal(pcc_ifa2_speed_code(gbps[i]), (int)i);
	}
	for (i = 7; i < 256; i++)
		assert_int_equal(pcc_ifa2_speed_gbps((uint8_t)i), 0);
	assert_int_equal(pcc_ifa2_speed_code(0), -1);
	assert_int_equal(pcc_ifa2_speed_code(1), -1);
	assert_int_equal(pcc_ifa2_speed_code(800), -1);
	assert_int_equal(pcc_ifa2_speed_code(UINT32_MAX), -1);
}

static void
test_int_rate_codes(void **state)
{
	static const uint32_t gbps[] = { 25, 50, 100, 200, 400 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 5; i++) {
		assert_int_equal(pcc_int_rate_gbps((uint8_t)i), gbps[i]);
		assert_int_equal(pcc_int_rate_code(gbps[i]), (int)i);
	}
	assert_int_equal(PCC_INT_RATE_25G, 0);
	assert_int_equal(PCC_INT_RATE_400G, 4);
	for (i = 5; i < 256; i++)
		assert_int_equal(pcc_int_rate_gbps((uint8_t)i), 0);
	assert_int_equal(pcc_int_rate_code(10), -1);
	assert_int_equal(pcc_int_rate_code(40), -1);
	assert_int_equal(pcc_int_rate_code(0), -1);
	assert_int_equal(pcc_int_rate_code(800), -1);
}

/* ---- IFA 2.0 single headers -------------------------------------- */

static void
test_ifa2_hdr_roundtrip(void **state)
{
	struct pcc_ifa2_hdr h = {
		.ver = 2, .gns = 0xa, .next_hdr = 17, .flags = 0x1f, .max_len = 0xfc
	};
	struct pcc_ifa2_hdr o;
	uint8_t b[8];
	static const uint8_t want[] = { 0x2a, 17, 0x1f, 0xfc };
	uint32_t l;

	(void)state;
	memset(b, 0xee, sizeof(b));
	assert_int_equal(pcc_ifa2_hdr_build(b, sizeof(b), &h), PCC_IFA2_HDR_LEN);
	assert_memory_equal(b, want, sizeof(want));
	assert_int_equal(b[4], 0xee);
	memset(&o, 0, sizeof(o));
	assert_int_equal(pcc_ifa2_hdr_parse(b, 4, &o), 0);
	assert_memory_equal(&o, &h, sizeof(h));
	for (l = 0; l < 4; l++)
		assert_int_equal(pcc_ifa2_hdr_parse(b, l, &o), PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_ifa2_hdr_build(b, 3, &h), PCC_PROTO_ERR_NO_SPACE);
	h.gns = 0x10;
	assert_int_equal(pcc_ifa2_hdr_build(b, 4, &h), PCC_PROTO_ERR_INVAL);
	/* bad versions */
	b[0] = 0x1f;
	assert_int_equal(pcc_ifa2_hdr_parse(b, 4, &o), PCC_PROTO_ERR_BAD_VERSION);
	b[0] = 0x3f;
	assert_int_equal(pcc_ifa2_hdr_parse(b, 4, &o), PCC_PROTO_ERR_BAD_VERSION);
	b[0] = 0x0f;
	assert_int_equal(pcc_ifa2_hdr_parse(b, 4, &o), PCC_PROTO_ERR_BAD_VERSION);
	assert_int_equal(pcc_ifa2_hdr_parse(NULL, 4, &o), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ifa2_hdr_build(NULL, 4, &h), PCC_PROTO_ERR_INVAL);
}

static void
test_ifa2_md_hdr_roundtrip(void **state)
{
	struct pcc_ifa2_md_hdr m = { .req_vector = 0x5a,
		.action_vector = PCC_IFA2_AV_L | PCC_IFA2_AV_C,
		.hop_limit = 0xfe,
		.cur_len = 0x18 };
	struct pcc_ifa2_md_hdr o;
	static const uint8_t want[] = { 0x5a, 0xc0, 0xfe, 0x18 };
	uint8_t b[4];
	uint32_t l;

	(void)state;
	assert_int_equal(pcc_ifa2_md_hdr_build(b, sizeof(b), &m), PCC_IFA2_MD_HDR_LEN);
	assert_memory_equal(b, want, sizeof(want));
	assert_int_equal(pcc_ifa2_md_hdr_parse(b, 4, &o), 0);
	assert_memory_equal(&o, &m, sizeof(m));
	for (l = 0; l < 4; l++)
		assert_int_equal(pcc_ifa2_md_hdr_parse(b, l, &o), PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_ifa2_md_hdr_build(b, 3, &m), PCC_PROTO_ERR_NO_SPACE);
	for (l = 1; l < 8; l++) {
		b[3] = (uint8_t)(8 + l);
		assert_int_equal(pcc_ifa2_md_hdr_parse(b, 4, &o), PCC_PROTO_ERR_BAD_LENGTH);
	}
	b[3] = 0;
	assert_int_equal(pcc_ifa2_md_hdr_parse(b, 4, &o), 0);
	assert_int_equal(o.cur_len, 0);
}

static void
test_ifa2_hop_roundtrip(void **state)
{
	struct pcc_ifa2_hop h = {
		.lns = 0xa,
		.device_id = 0x12345,
		.ttl = 0x40,
		.port_speed = 4,
		.congestion = 2,
		.queue_id = 0x15,
		.rx_sec = 0xabcde,
		.egress_port = 0x1111,
		.ingress_port = 0x2222,
		.rx_ns = 0xdeadbeef,
		.residence_ns = 0x01020304,
		.profile = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 },
	};
	static const uint8_t want[32] = {
		0xa1,
		0x23,
		0x45,
		0x40,
		0x49,
		0x5a,
		0xbc,
		0xde,
		0x11,
		0x11,
		0x22,
		0x22,
		0xde,
		0xad,
		0xbe,
		0xef,
		0x01,
		0x02,
		0x03,
		0x04,
		0,
		1,
		2,
		3,
		4,
		5,
		6,
		7,
		8,
		9,
		10,
		11,
	};
	struct pcc_ifa2_hop o, bad;
	uint8_t b[32];
	uint32_t l;

	(void)state;
	assert_int_equal(pcc_ifa2_hop_build(b, sizeof(b), &h), PCC_IFA2_HOP_LEN);
	assert_memory_equal(b, want, sizeof(want));
	memset(&o, 0, sizeof(o));
	assert_int_equal(pcc_ifa2_hop_parse(b, sizeof(b), &o), 0);
	assert_hop_equal(&o, &h);
	for (l = 0; l < 32; l++)
		assert_int_equal(pcc_ifa2_hop_parse(b, l, &o), PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_ifa2_hop_build(b, 31, &h), PCC_PROTO_ERR_NO_SPACE);

	/* all-ones fields survive; over-wide fields are refused */
	memset(b, 0xff, sizeof(b));
	assert_int_equal(pcc_ifa2_hop_parse(b, sizeof(b), &o), 0);
	assert_int_equal(o.lns, 0xf);
	assert_int_equal(o.device_id, 0xfffff);
	assert_int_equal(o.port_speed, 0xf);
	assert_int_equal(o.congestion, 3);
	assert_int_equal(o.queue_id, 0x3f);
	assert_int_equal(o.rx_sec, 0xfffff);
	assert_int_equal(pcc_ifa2_hop_build(b, sizeof(b), &o), PCC_IFA2_HOP_LEN);
	bad = h;
	bad.device_id = 0x100000;
	assert_int_equal(pcc_ifa2_hop_build(b, 32, &bad), PCC_PROTO_ERR_INVAL);
	bad = h;
	bad.queue_id = 0x40;
	assert_int_equal(pcc_ifa2_hop_build(b, 32, &bad), PCC_PROTO_ERR_INVAL);
	bad = h;
	bad.congestion = 4;
	assert_int_equal(pcc_ifa2_hop_build(b, 32, &bad), PCC_PROTO_ERR_INVAL);
	bad = h;
	bad.rx_sec = 0x100000;
	assert_int_equal(pcc_ifa2_hop_build(b, 32, &bad), PCC_PROTO_ERR_INVAL);
	bad = h;
	bad.port_speed = 0x10;
	assert_int_equal(pcc_ifa2_hop_build(b, 32, &bad), PCC_PROTO_ERR_INVAL);
	bad = h;
	bad.lns = 0x10;
	assert_int_equal(pcc_ifa2_hop_build(b, 32, &bad), PCC_PROTO_ERR_INVAL);
}

static void
test_ifa2_gns_match(void **state)
{
	(void)state;
	assert_true(pcc_ifa2_gns_match(0xf, 0xf, 0xf));
	assert_true(pcc_ifa2_gns_match(0x5, 0x0, 0xa));
	assert_false(pcc_ifa2_gns_match(0x5, 0xf, 0x4));
	assert_true(pcc_ifa2_gns_match(0x5, 0x1, 0x3));
	assert_false(pcc_ifa2_gns_match(0x5, 0x2, 0x3));
	assert_true(pcc_ifa2_gns_match(0x15, 0xff, 0x05)); /* only 4 bits count */
	assert_true(pcc_ifa2_gns_match(0x5, 0xf0, 0xa));
}

/* ---- IFA 2.0 frames ---------------------------------------------- */

/* Insert on a plain frame and push hops until max_len refuses. */
static void
run_insert_push(bool vlan, bool v6, uint32_t opt_len)
{
	uint8_t b[FRAME_CAP], save[FRAME_CAP];
	struct tframe t = { .vlan = vlan, .v6 = v6, .opt_len = opt_len, .payload_len = 37 };
	struct pcc_ifa2_hdr h = def_hdr;
	struct pcc_ifa2_md_hdr m = def_md;
	struct pcc_ifa2_info info;
	struct pcc_ifa2_hop hop, got;
	const unsigned int max_hops = 3;
	uint32_t len, base, ip_len0, udp_len0, save_len;
	unsigned int k, i;
	uint8_t *ip;

	h.max_len = (uint8_t)(max_hops * PCC_IFA2_HOP_LEN / 4);
	len = mk_udp_frame(b, &t);
	ip = b + t.l3_off;
	ip_len0 = v6 ? rd16(ip + 4) : rd16(ip + 2);
	udp_len0 = rd16(b + t.l4_off + 4);
	/* plain UDP is not IFA2 */
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_NOT_UDP);

	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &h, &m), 0);
	base = t.len + 8;
	assert_int_equal(len, base);
	assert_int_equal(v6 ? ip[6] : ip[9], IFA_PROTO);
	assert_int_equal(v6 ? rd16(ip + 4) : rd16(ip + 2), ip_len0 + 8);
	if (!v6)
		assert_true(ipv4_csum_ok(ip));
	/* IFA header, then the original UDP header, then the md header */
	assert_int_equal(b[t.l4_off], 0x2f);
	assert_int_equal(b[t.l4_off + 1], 17);
	assert_int_equal(b[t.l4_off + 2], PCC_IFA2_F_TS);
	assert_int_equal(b[t.l4_off + 3], h.max_len);
	assert_int_equal(rd16(b + t.l4_off + 4), 0xc123);
	assert_int_equal(rd16(b + t.l4_off + 6), PCC_ROCE_UDP_PORT);
	assert_int_equal(rd16(b + t.l4_off + 8), udp_len0 + 4);
	if (v6)
		assert_true(udp6_csum_ok(ip, b + t.l4_off + 4));
	else
		assert_int_equal(rd16(b + t.l4_off + 10), 0);
	assert_int_equal(b[t.l4_off + 12], 0xff);
	assert_int_equal(b[t.l4_off + 13], PCC_IFA2_AV_L);
	assert_int_equal(b[t.l4_off + 14], PCC_IFA2_HOP_LIMIT_DEFAULT);
	assert_int_equal(b[t.l4_off + 15], 0);
	assert_true(payload_ok(b + t.l4_off + 16, t.payload_len));

	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), 0);
	assert_int_equal(info.ifa_off, t.l4_off);
	assert_int_equal(info.udp_off, t.l4_off + 4);
	assert_int_equal(info.md_off, t.l4_off + 12);
	assert_int_equal(info.stack_off, t.l4_off + 16);
	assert_int_equal(info.payload_off, t.l4_off + 16);
	assert_int_equal(info.n_hops, 0);
	assert_int_equal(info.hdr.ver, 2);
	assert_int_equal(info.hdr.gns, PCC_IFA2_GNS_DEFAULT);
	assert_int_equal(info.hdr.next_hdr, 17);
	assert_int_equal(info.md.hop_limit, PCC_IFA2_HOP_LIMIT_DEFAULT);
	assert_int_equal(pcc_ifa2_get_hop(b, len, &info, 0, &got), PCC_PROTO_ERR_INVAL);
	/* other IP protocol values do not match */
	assert_int_equal(pcc_ifa2_parse(b, len, 131, &info), PCC_PROTO_ERR_NOT_UDP);

	for (k = 1; k <= max_hops; k++) {
		hop = mk_hop(k);
		assert_int_equal(pcc_ifa2_push_hop(b, &len, FRAME_CAP, IFA_PROTO, &hop), 0);
		assert_int_equal(len, base + k * PCC_IFA2_HOP_LEN);
		assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), 0);
		assert_int_equal(info.n_hops, k);
		assert_int_equal(info.md.cur_len, k * 8);
		assert_int_equal(info.payload_off, info.stack_off + k * PCC_IFA2_HOP_LEN);
		assert_int_equal(PCC_IFA2_HOP_LIMIT_DEFAULT - info.md.hop_limit, info.n_hops);
		assert_int_equal(v6 ? rd16(ip + 4) : rd16(ip + 2), ip_len0 + 8 + k * 32);
		assert_int_equal(rd16(b + info.udp_off + 4), udp_len0 + 4 + k * 32);
		if (v6)
			assert_true(udp6_csum_ok(ip, b + info.udp_off));
		else
			assert_true(ipv4_csum_ok(ip));
		assert_true(payload_ok(b + info.payload_off, t.payload_len));
		/* newest first */
		for (i = 0; i < k; i++) {
			struct pcc_ifa2_hop want = mk_hop(k - i);

			assert_int_equal(pcc_ifa2_get_hop(b, len, &info, i, &got), 0);
			assert_hop_equal(&got, &want);
		}
		assert_int_equal(pcc_ifa2_get_hop(b, len, &info, k, &got), PCC_PROTO_ERR_INVAL);
	}

	/* max_len reached: refused, frame unchanged */
	memcpy(save, b, len);
	save_len = len;
	hop = mk_hop(9);
	assert_int_equal(pcc_ifa2_push_hop(b, &len, FRAME_CAP, IFA_PROTO, &hop),
			PCC_PROTO_ERR_BAD_LENGTH);
	assert_int_equal(len, save_len);
	assert_memory_equal(b, save, len);
}

static void
test_ifa2_insert_push_ipv4(void **state)
{
	(void)state;
	run_insert_push(false, false, 0);
}

static void
test_ifa2_insert_push_ipv4_vlan(void **state)
{
	(void)state;
	run_insert_push(true, false, 0);
}

static void
test_ifa2_insert_push_ipv4_options(void **state)
{
	(void)state;
	run_insert_push(false, false, 8);
	run_insert_push(true, false, 40);
}

static void
test_ifa2_insert_push_ipv6(void **state)
{
	(void)state;
	run_insert_push(false, true, 0);
}

static void
test_ifa2_insert_push_ipv6_vlan(void **state)
{
	(void)state;
	run_insert_push(true, true, 0);
}

/* hop_limit refusal: hops traversed = initial hop limit - hop limit */
static void
test_ifa2_hop_limit(void **state)
{
	static const bool v6s[] = { false, true };
	unsigned int j;

	(void)state;
	for (j = 0; j < 2; j++) {
		uint8_t b[FRAME_CAP], save[FRAME_CAP];
		struct tframe t = { .vlan = j == 1, .v6 = v6s[j], .payload_len = 20 };
		struct pcc_ifa2_hdr h = def_hdr;
		struct pcc_ifa2_md_hdr m = def_md;
		struct pcc_ifa2_info info;
		struct pcc_ifa2_hop hop = mk_hop(5);
		uint32_t len, save_len;
		unsigned int k;

		h.max_len = 0xff; /* 1020 bytes: room for 31 hops (cur_len <= 0xf8) */
		m.hop_limit = 4;
		len = mk_ifa2_frame(b, &t, &h, &m, 0);
		for (k = 1; k <= 4; k++) {
			assert_int_equal(pcc_ifa2_push_hop(b, &len, FRAME_CAP, IFA_PROTO, &hop), 0);
			assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), 0);
			assert_int_equal(info.md.hop_limit, 4 - k);
			assert_int_equal(m.hop_limit - info.md.hop_limit, info.n_hops);
		}
		memcpy(save, b, len);
		save_len = len;
		assert_int_equal(pcc_ifa2_push_hop(b, &len, FRAME_CAP, IFA_PROTO, &hop),
				PCC_PROTO_ERR_BAD_LENGTH);
		assert_int_equal(len, save_len);
		assert_memory_equal(b, save, len);

		/* max_len 0xff, hop limit 0xfe: the stack stops at 31 hops */
		m.hop_limit = PCC_IFA2_HOP_LIMIT_DEFAULT;
		len = mk_ifa2_frame(b, &t, &h, &m, 31);
		assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), 0);
		assert_int_equal(info.n_hops, 31);
		assert_int_equal(info.md.hop_limit, PCC_IFA2_HOP_LIMIT_DEFAULT - 31);
		assert_int_equal(info.md.cur_len, 0xf8);
		assert_int_equal(pcc_ifa2_push_hop(b, &len, FRAME_CAP, IFA_PROTO, &hop),
				PCC_PROTO_ERR_BAD_LENGTH);
	}
}

static void
test_ifa2_no_space(void **state)
{
	uint8_t b[FRAME_CAP], save[FRAME_CAP];
	struct tframe t = { .payload_len = 16 };
	struct pcc_ifa2_hop hop = mk_hop(1);
	struct pcc_ifa2_info info;
	uint32_t len, plain;

	(void)state;
	plain = mk_udp_frame(b, &t);
	memcpy(save, b, plain);
	len = plain;
	assert_int_equal(pcc_ifa2_insert(b, &len, plain + 7, IFA_PROTO, &def_hdr, &def_md),
			PCC_PROTO_ERR_NO_SPACE);
	assert_int_equal(len, plain);
	assert_memory_equal(b, save, plain);
	assert_int_equal(pcc_ifa2_insert(b, &len, plain + 8, IFA_PROTO, &def_hdr, &def_md), 0);
	assert_int_equal(len, plain + 8);

	memcpy(save, b, len);
	assert_int_equal(pcc_ifa2_push_hop(b, &len, plain + 8 + 31, IFA_PROTO, &hop),
			PCC_PROTO_ERR_NO_SPACE);
	assert_int_equal(len, plain + 8);
	assert_memory_equal(b, save, len);
	assert_int_equal(pcc_ifa2_push_hop(b, &len, plain + 8 + 32, IFA_PROTO, &hop), 0);
	assert_int_equal(len, plain + 40);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), 0);
	assert_int_equal(info.n_hops, 1);
	/* *len larger than cap is a caller bug */
	assert_int_equal(pcc_ifa2_push_hop(b, &len, len - 1, IFA_PROTO, &hop), PCC_PROTO_ERR_INVAL);
}

/* Ethernet padding after the IP datagram is allowed and dropped on insert. */
static void
test_ifa2_padding(void **state)
{
	uint8_t b[FRAME_CAP];
	struct tframe t = { .payload_len = 2 };
	struct pcc_ifa2_info info;
	struct pcc_ifa2_hop hop = mk_hop(2);
	uint32_t len;

	(void)state;
	len = mk_udp_frame(b, &t);
	assert_int_equal(len, 44);
	len = 60; /* minimum Ethernet frame, zero padded */
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &def_hdr, &def_md), 0);
	assert_int_equal(len, 52);
	memset(b + len, 0, 8);
	assert_int_equal(pcc_ifa2_parse(b, 60, IFA_PROTO, &info), 0);
	assert_int_equal(info.payload_off, 50);
	len = 60;
	assert_int_equal(pcc_ifa2_push_hop(b, &len, FRAME_CAP, IFA_PROTO, &hop), 0);
	assert_int_equal(len, 84);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), 0);
	assert_int_equal(info.n_hops, 1);
	assert_true(ipv4_csum_ok(b + 14));
	assert_true(payload_ok(b + info.payload_off, 2));
}

static void
test_ifa2_truncation(void **state)
{
	unsigned int j;

	(void)state;
	for (j = 0; j < 4; j++) {
		uint8_t b[FRAME_CAP];
		struct tframe t = { .vlan = (j & 1) != 0, .v6 = (j & 2) != 0, .payload_len = 9 };
		struct pcc_ifa2_info info;
		uint32_t len, l;

		len = mk_ifa2_frame(b, &t, &def_hdr, &def_md, 2);
		assert_int_equal(ifa2_parse_exact(b, len, &info), 0);
		assert_int_equal(info.n_hops, 2);
		for (l = 0; l < len; l++)
			assert_true(ifa2_parse_exact(b, l, &info) < 0);
		/* truncated at the stack: the IP length then exceeds the data */
		assert_int_equal(ifa2_parse_exact(b, info.stack_off + 40, &info),
				PCC_PROTO_ERR_TRUNCATED);
	}
}

static void
test_ifa2_get_hop_bounds(void **state)
{
	uint8_t b[FRAME_CAP];
	struct tframe t = { .payload_len = 0 };
	struct pcc_ifa2_info info;
	struct pcc_ifa2_hop got, want = mk_hop(2);
	uint32_t len;

	(void)state;
	len = mk_ifa2_frame(b, &t, &def_hdr, &def_md, 2);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), 0);
	assert_int_equal(info.payload_off, len);
	assert_int_equal(pcc_ifa2_get_hop(b, len, &info, 0, &got), 0);
	assert_hop_equal(&got, &want);
	assert_int_equal(pcc_ifa2_get_hop(b, len, &info, 2, &got), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ifa2_get_hop(b, len - 1, &info, 1, &got), PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_ifa2_get_hop(b, info.stack_off - 1, &info, 0, &got),
			PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_ifa2_get_hop(NULL, len, &info, 0, &got), PCC_PROTO_ERR_INVAL);
}

/* Rewrite the IPv4 total length (and checksum) of a frame without VLAN. */
static void
set_ipv4_len(uint8_t *b, uint16_t v)
{
	uint8_t *ip = b + 14;

	wr16(ip + 2, v);
	wr16(ip + 10, 0);
	wr16(ip + 10, (uint16_t)~fold(sum16(0, ip, 20)));
}

static void
test_ifa2_parse_errors(void **state)
{
	uint8_t b[FRAME_CAP], o[FRAME_CAP];
	struct tframe t = { .payload_len = 8 };
	struct pcc_ifa2_hdr h = def_hdr;
	struct pcc_ifa2_info info;
	struct pcc_pkt_info pi;
	uint32_t len;
	const uint32_t ifa = 34, udp = 38, md = 46; /* IPv4, no VLAN */

	(void)state;
	h.max_len = 16; /* two hops */
	len = mk_ifa2_frame(b, &t, &h, &def_md, 1);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), 0);
	assert_int_equal(info.ifa_off, ifa);
	assert_int_equal(info.udp_off, udp);
	assert_int_equal(info.md_off, md);
	memcpy(o, b, len);

#define RESET() memcpy(b, o, len)
	/* the whole-frame parser finds the same length errors: such a frame
	 * is malformed and gets no kind (issue 20) */
#define BOTH(rc)                                                                  \
	do {                                                                      \
		assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), (rc)); \
		assert_int_equal(pcc_parse(b, len, NULL, &pi), (rc));             \
	} while (0)
	assert_int_equal(pcc_parse(b, len, NULL, &pi), 0);
	assert_int_equal(pi.kind, PCC_PKT_IFA2);
	/* arguments */
	assert_int_equal(pcc_ifa2_parse(NULL, len, IFA_PROTO, &info), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, NULL), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ifa2_parse(b, len, 0, &info), PCC_PROTO_ERR_INVAL);

	/* bad IFA versions */
	b[ifa] = 0x1f;
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_BAD_VERSION);
	b[ifa] = 0xff;
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_BAD_VERSION);
	RESET();
	/* NextHdr is not UDP */
	b[ifa + 1] = 6;
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_NOT_UDP);
	RESET();

	/* cur_len not a multiple of 8 */
	b[md + 3] = 4;
	BOTH(PCC_PROTO_ERR_BAD_LENGTH);
	b[md + 3] = 9;
	BOTH(PCC_PROTO_ERR_BAD_LENGTH);
	RESET();
	/* cur_len > max_len */
	b[ifa + 3] = 0;
	BOTH(PCC_PROTO_ERR_BAD_LENGTH);
	b[ifa + 3] = 7;
	BOTH(PCC_PROTO_ERR_BAD_LENGTH);
	b[ifa + 3] = 8;
	BOTH(0);
	RESET();
	/* stack (2 hops claimed = 64 B) longer than the rest of the datagram (40 B) */
	b[md + 3] = 16;
	BOTH(PCC_PROTO_ERR_BAD_LENGTH);
	RESET();
	/* IP length shorter than the stack (UDP length kept consistent) */
	set_ipv4_len(b, (uint16_t)(20 + 4 + 8 + 4 + 16));
	wr16(b + udp + 4, 8 + 4 + 16);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_BAD_LENGTH);
	/* IP length too short for IFA + UDP + md headers */
	set_ipv4_len(b, 20 + 4 + 8);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_BAD_LENGTH);
	set_ipv4_len(b, 20 + 2);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_BAD_LENGTH);
	set_ipv4_len(b, 19);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_BAD_LENGTH);
	RESET();
	/* IP length longer than the data */
	set_ipv4_len(b, (uint16_t)(len - 14 + 1));
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_TRUNCATED);
	RESET();
	/* UDP length disagrees with the IP length (both directions) */
	wr16(b + udp + 4, (uint16_t)(rd16(b + udp + 4) - 4));
	BOTH(PCC_PROTO_ERR_BAD_LENGTH);
	wr16(b + udp + 4, (uint16_t)(rd16(b + udp + 4) + 8));
	BOTH(PCC_PROTO_ERR_BAD_LENGTH);
	RESET();

	/* L2/L3 */
	wr16(b + 12, 0x0806);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_NOT_IP);
	RESET();
	b[14] = 0x55;
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_BAD_VERSION);
	b[14] = 0x44; /* IHL 4 */
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_BAD_LENGTH);
	RESET();
	b[14 + 6] = 0x20; /* MF */
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_FRAGMENT);
	b[14 + 6] = 0x00;
	b[14 + 7] = 0x01; /* fragment offset */
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_FRAGMENT);
	RESET();
	b[14 + 9] = 17;
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_NOT_UDP);
	RESET();
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), 0);
#undef BOTH
#undef RESET
}

static void
test_ifa2_parse_errors_ipv6(void **state)
{
	uint8_t b[FRAME_CAP];
	struct tframe t = { .v6 = true, .payload_len = 8 };
	struct pcc_ifa2_info info;
	uint32_t len;

	(void)state;
	len = mk_ifa2_frame(b, &t, &def_hdr, &def_md, 1);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), 0);
	b[14 + 6] = 44; /* fragment extension header */
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_FRAGMENT);
	b[14 + 6] = 0; /* hop-by-hop */
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_FRAGMENT);
	b[14 + 6] = 6;
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_NOT_UDP);
	b[14 + 6] = IFA_PROTO;
	b[14] = 0x40;
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_BAD_VERSION);
	b[14] = 0x6a;
	wr16(b + 14 + 4, (uint16_t)(rd16(b + 14 + 4) + 1));
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_TRUNCATED);
	/* payload length shorter than the stack */
	wr16(b + 14 + 4, 4 + 8 + 4 + 16);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_BAD_LENGTH);
}

static void
test_ifa2_insert_errors(void **state)
{
	uint8_t b[FRAME_CAP], save[FRAME_CAP];
	struct tframe t = { .payload_len = 12 };
	struct pcc_ifa2_hdr h = def_hdr;
	struct pcc_ifa2_md_hdr m = def_md;
	struct pcc_ifa2_hop hop = mk_hop(1);
	uint32_t len, l0;

	(void)state;
	l0 = mk_udp_frame(b, &t);
	memcpy(save, b, l0);
	len = l0;
	h.ver = 1;
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &h, &m),
			PCC_PROTO_ERR_INVAL);
	h = def_hdr;
	h.gns = 0x10;
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &h, &m),
			PCC_PROTO_ERR_INVAL);
	h = def_hdr;
	m.cur_len = 8;
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &h, &m),
			PCC_PROTO_ERR_INVAL);
	m = def_md;
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, 0, &h, &m), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, 17, &h, &m), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ifa2_insert(b, NULL, FRAME_CAP, IFA_PROTO, &h, &m),
			PCC_PROTO_ERR_INVAL);
	/* not UDP */
	b[14 + 9] = 6;
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &h, &m),
			PCC_PROTO_ERR_NOT_UDP);
	b[14 + 9] = 17;
	/* UDP length disagrees with IP */
	wr16(b + 34 + 4, 8 + 11);
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &h, &m),
			PCC_PROTO_ERR_BAD_LENGTH);
	wr16(b + 34 + 4, 8 + 12);
	assert_int_equal(len, l0);
	assert_memory_equal(b, save, l0);
	/* truncated plain frames */
	len = l0 - 1;
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &h, &m),
			PCC_PROTO_ERR_TRUNCATED);
	assert_memory_equal(b, save, l0);
	/* next_hdr given by the caller is ignored: the original protocol is kept */
	h.next_hdr = 99;
	len = l0;
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &h, &m), 0);
	assert_int_equal(b[34 + 1], 17);
	/* inserting twice: the frame is no longer plain UDP */
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &h, &m),
			PCC_PROTO_ERR_NOT_UDP);
	/* push on a frame that is not IFA2 */
	len = mk_udp_frame(b, &t);
	assert_int_equal(pcc_ifa2_push_hop(b, &len, FRAME_CAP, IFA_PROTO, &hop),
			PCC_PROTO_ERR_NOT_UDP);
	/* push with an over-wide hop field */
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, IFA_PROTO, &h, &m), 0);
	hop.device_id = 0x100000;
	assert_int_equal(pcc_ifa2_push_hop(b, &len, FRAME_CAP, IFA_PROTO, &hop),
			PCC_PROTO_ERR_INVAL);
}

/* Custom IFA protocol number (scapy's 131) and max_len 0 (no room). */
static void
test_ifa2_custom_proto(void **state)
{
	uint8_t b[FRAME_CAP];
	struct tframe t = { .v6 = true, .payload_len = 5 };
	struct pcc_ifa2_hdr h = def_hdr;
	struct pcc_ifa2_info info;
	struct pcc_ifa2_hop hop = mk_hop(3);
	uint32_t len;

	(void)state;
	h.max_len = 0;
	len = mk_udp_frame(b, &t);
	assert_int_equal(pcc_ifa2_insert(b, &len, FRAME_CAP, 131, &h, &def_md), 0);
	assert_int_equal(b[14 + 6], 131);
	assert_int_equal(pcc_ifa2_parse(b, len, 131, &info), 0);
	assert_int_equal(pcc_ifa2_parse(b, len, IFA_PROTO, &info), PCC_PROTO_ERR_NOT_UDP);
	assert_int_equal(
			pcc_ifa2_push_hop(b, &len, FRAME_CAP, 131, &hop), PCC_PROTO_ERR_BAD_LENGTH);
	assert_true(udp6_csum_ok(b + 14, b + info.udp_off));
}

/* ---- IFA 1.0 ----------------------------------------------------- */

static const struct pcc_ifa1_hdr def_ifa1 = {
	.marker = PCC_IFA1_MARKER_DEFAULT,
	.ver = PCC_IFA1_VERSION,
	.mtype = 0x3,
	.rep = 2,
	.c = 1,
	.e = 0,
	.flag = 0x9,
	.ctrl = 0x5c,
	.tlm_request = 0xa1b2,
	.tlm_action = 0xc3d4,
	.hop_limit = 10,
	.hop_count = 0,
	.max_len = PCC_IFA1_HDR_LEN + 3 * PCC_IFA2_HOP_LEN,
	.cur_len = PCC_IFA1_HDR_LEN,
	.sender = 0x0a000001,
	.seq = 0x01020304,
};

static int
ifa1_parse_exact(const uint8_t *b, uint32_t len, struct pcc_ifa1_hdr *h)
{
	uint8_t *c = malloc(len ? len : 1);
	int rc;

	assert_non_null(c);
	memcpy(c, b, len);
	rc = pcc_ifa1_parse(c, len, PCC_IFA1_MARKER_DEFAULT, h);
	free(c);
	return rc;
}

static void
test_ifa1_roundtrip(void **state)
{
	static const uint8_t want[PCC_IFA1_HDR_LEN] = {
		0xaa,
		0xaa,
		0xaa,
		0xaa,
		0xbb,
		0xbb,
		0xbb,
		0xbb,
		0x13,
		0xa9,
		0x5c,
		0x00,
		0xa1,
		0xb2,
		0xc3,
		0xd4,
		10,
		0,
		124,
		28,
		0x0a,
		0x00,
		0x00,
		0x01,
		0x01,
		0x02,
		0x03,
		0x04,
	};
	struct pcc_ifa1_hdr h = def_ifa1, o;
	uint8_t b[64];

	(void)state;
	memset(b, 0xee, sizeof(b));
	assert_int_equal(pcc_ifa1_build(b, sizeof(b), &h), PCC_IFA1_HDR_LEN);
	assert_memory_equal(b, want, sizeof(want));
	assert_int_equal(b[PCC_IFA1_HDR_LEN], 0xee);
	memset(&o, 0, sizeof(o));
	assert_int_equal(pcc_ifa1_parse(b, PCC_IFA1_HDR_LEN, PCC_IFA1_MARKER_DEFAULT, &o), 0);
	assert_memory_equal(&o, &h, sizeof(h));

	/* every bit field at its maximum */
	h.mtype = 0xf;
	h.rep = 3;
	h.c = 1;
	h.e = 1;
	h.flag = 0xf;
	assert_int_equal(pcc_ifa1_build(b, sizeof(b), &h), PCC_IFA1_HDR_LEN);
	assert_int_equal(b[8], 0x1f);
	assert_int_equal(b[9], 0xff);
	assert_int_equal(pcc_ifa1_parse(b, 64, PCC_IFA1_MARKER_DEFAULT, &o), 0);
	assert_memory_equal(&o, &h, sizeof(h));
	/* reserved byte ignored on receive */
	b[11] = 0x77;
	assert_int_equal(pcc_ifa1_parse(b, 64, PCC_IFA1_MARKER_DEFAULT, &o), 0);

	/* a configured marker */
	h = def_ifa1;
	h.marker = 0x8000000000000001ull;
	assert_int_equal(pcc_ifa1_build(b, sizeof(b), &h), PCC_IFA1_HDR_LEN);
	assert_int_equal(pcc_ifa1_parse(b, 64, 0x8000000000000001ull, &o), 0);
	assert_true(o.marker == 0x8000000000000001ull);
	assert_int_equal(pcc_ifa1_parse(b, 64, PCC_IFA1_MARKER_DEFAULT, &o),
			PCC_PROTO_ERR_BAD_FIELD);

	/* build errors */
	h = def_ifa1;
	assert_int_equal(pcc_ifa1_build(b, PCC_IFA1_HDR_LEN - 1, &h), PCC_PROTO_ERR_NO_SPACE);
	h.rep = 4;
	assert_int_equal(pcc_ifa1_build(b, 64, &h), PCC_PROTO_ERR_INVAL);
	h = def_ifa1;
	h.c = 2;
	assert_int_equal(pcc_ifa1_build(b, 64, &h), PCC_PROTO_ERR_INVAL);
	h = def_ifa1;
	h.ver = 0x10;
	assert_int_equal(pcc_ifa1_build(b, 64, &h), PCC_PROTO_ERR_INVAL);
	h = def_ifa1;
	h.marker = 0x7fffffffffffffffull;
	assert_int_equal(pcc_ifa1_build(b, 64, &h), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ifa1_build(NULL, 64, &def_ifa1), PCC_PROTO_ERR_INVAL);
}

static void
test_ifa1_parse_errors(void **state)
{
	uint8_t b[64], o[64];
	struct pcc_ifa1_hdr h;
	const uint64_t mk = PCC_IFA1_MARKER_DEFAULT;

	(void)state;
	memset(b, 0, sizeof(b));
	assert_int_equal(pcc_ifa1_build(b, sizeof(b), &def_ifa1), PCC_IFA1_HDR_LEN);
	memcpy(o, b, sizeof(b));
#define RESET() memcpy(b, o, sizeof(b))
	/* marker mismatch */
	b[7] = 0xbc;
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), PCC_PROTO_ERR_BAD_FIELD);
	RESET();
	b[0] = 0x2a; /* MSB clear */
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), PCC_PROTO_ERR_BAD_FIELD);
	/* wire marker with MSB clear never matches */
	assert_int_equal(pcc_ifa1_parse(b, 64, 0x2aaaaaaabbbbbbbbull, &h), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ifa1_parse(b, 64, 0xaaaaaaaabbbbbbbbull, &h), PCC_PROTO_ERR_BAD_FIELD);
	RESET();
	/* bad versions */
	b[8] = 0x23;
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), PCC_PROTO_ERR_BAD_VERSION);
	b[8] = 0x03;
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), PCC_PROTO_ERR_BAD_VERSION);
	RESET();
	/* lengths */
	b[19] = 27;
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), PCC_PROTO_ERR_BAD_LENGTH);
	b[19] = 0;
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), PCC_PROTO_ERR_BAD_LENGTH);
	b[19] = 29;
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), PCC_PROTO_ERR_BAD_LENGTH);
	b[19] = 28 + 31;
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), PCC_PROTO_ERR_BAD_LENGTH);
	b[19] = 60; /* one hop: fits max_len (124) and the 64-byte buffer */
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), 0);
	assert_int_equal(pcc_ifa1_parse(b, 59, mk, &h), PCC_PROTO_ERR_BAD_LENGTH);
	b[18] = 59; /* cur_len > max_len */
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), PCC_PROTO_ERR_BAD_LENGTH);
	b[18] = 27;
	b[19] = 28;
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), PCC_PROTO_ERR_BAD_LENGTH);
	RESET();
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, NULL), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ifa1_parse(NULL, 64, mk, &h), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_ifa1_parse(b, 64, mk, &h), 0);
#undef RESET
}

static void
test_ifa1_push(void **state)
{
	uint8_t b[256], save[256];
	static const uint8_t tail[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct pcc_ifa1_hdr h = def_ifa1, o;
	struct pcc_ifa2_hop hop, got;
	const uint64_t mk = PCC_IFA1_MARKER_DEFAULT;
	uint32_t len, save_len;
	unsigned int k, i;

	(void)state;
	memset(b, 0, sizeof(b));
	assert_int_equal(pcc_ifa1_build(b, sizeof(b), &h), PCC_IFA1_HDR_LEN);
	memcpy(b + PCC_IFA1_HDR_LEN, tail, sizeof(tail)); /* data after the stack */
	len = PCC_IFA1_HDR_LEN + sizeof(tail);

	for (k = 1; k <= 3; k++) {
		hop = mk_hop(k);
		assert_int_equal(pcc_ifa1_push_hop(b, &len, sizeof(b), mk, &hop), 0);
		assert_int_equal(len, PCC_IFA1_HDR_LEN + k * 32 + sizeof(tail));
		assert_int_equal(pcc_ifa1_parse(b, len, mk, &o), 0);
		assert_int_equal(o.cur_len, PCC_IFA1_HDR_LEN + k * 32);
		assert_int_equal(o.hop_count, k);
		assert_int_equal(o.hop_limit, 10 - k);
		assert_int_equal(o.seq, def_ifa1.seq);
		/* arrival order: hop 1 right after the header */
		for (i = 0; i < k; i++) {
			struct pcc_ifa2_hop want = mk_hop(i + 1);

			assert_int_equal(
					pcc_ifa2_hop_parse(b + PCC_IFA1_HDR_LEN + i * 32, 32, &got),
					0);
			assert_hop_equal(&got, &want);
		}
		assert_memory_equal(b + o.cur_len, tail, sizeof(tail));
	}
	/* max_len (124) reached */
	memcpy(save, b, len);
	save_len = len;
	assert_int_equal(pcc_ifa1_push_hop(b, &len, sizeof(b), mk, &hop), PCC_PROTO_ERR_BAD_LENGTH);
	assert_int_equal(len, save_len);
	assert_memory_equal(b, save, len);

	/* hop limit exhausted */
	h.hop_limit = 1;
	h.max_len = 252;
	assert_int_equal(pcc_ifa1_build(b, sizeof(b), &h), PCC_IFA1_HDR_LEN);
	len = PCC_IFA1_HDR_LEN;
	assert_int_equal(pcc_ifa1_push_hop(b, &len, sizeof(b), mk, &hop), 0);
	assert_int_equal(pcc_ifa1_parse(b, len, mk, &o), 0);
	assert_int_equal(o.hop_limit, 0);
	assert_int_equal(h.hop_limit - o.hop_limit, o.hop_count);
	memcpy(save, b, len);
	assert_int_equal(pcc_ifa1_push_hop(b, &len, sizeof(b), mk, &hop), PCC_PROTO_ERR_BAD_LENGTH);
	assert_int_equal(len, PCC_IFA1_HDR_LEN + 32);
	assert_memory_equal(b, save, len);

	/* no space */
	h.hop_limit = 5;
	assert_int_equal(pcc_ifa1_build(b, sizeof(b), &h), PCC_IFA1_HDR_LEN);
	len = PCC_IFA1_HDR_LEN;
	memcpy(save, b, len);
	assert_int_equal(pcc_ifa1_push_hop(b, &len, PCC_IFA1_HDR_LEN + 31, mk, &hop),
			PCC_PROTO_ERR_NO_SPACE);
	assert_int_equal(len, PCC_IFA1_HDR_LEN);
	assert_memory_equal(b, save, len);
	assert_int_equal(pcc_ifa1_push_hop(b, &len, PCC_IFA1_HDR_LEN + 32, mk, &hop), 0);
	/* wrong marker, over-wide hop */
	assert_int_equal(pcc_ifa1_push_hop(b, &len, sizeof(b), 0x8000000000000000ull, &hop),
			PCC_PROTO_ERR_BAD_FIELD);
	hop.rx_sec = 0x100000;
	assert_int_equal(pcc_ifa1_push_hop(b, &len, sizeof(b), mk, &hop), PCC_PROTO_ERR_INVAL);
}

static void
test_ifa1_truncation(void **state)
{
	uint8_t b[128];
	struct pcc_ifa1_hdr h = def_ifa1, o;
	struct pcc_ifa2_hop hop = mk_hop(1);
	uint32_t len, l;

	(void)state;
	assert_int_equal(pcc_ifa1_build(b, sizeof(b), &h), PCC_IFA1_HDR_LEN);
	len = PCC_IFA1_HDR_LEN;
	assert_int_equal(ifa1_parse_exact(b, len, &o), 0);
	for (l = 0; l < PCC_IFA1_HDR_LEN; l++)
		assert_int_equal(ifa1_parse_exact(b, l, &o), PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(pcc_ifa1_push_hop(b, &len, sizeof(b), PCC_IFA1_MARKER_DEFAULT, &hop), 0);
	assert_int_equal(ifa1_parse_exact(b, len, &o), 0);
	for (l = 0; l < len; l++)
		assert_true(ifa1_parse_exact(b, l, &o) < 0);
	/* push on a truncated header */
	l = PCC_IFA1_HDR_LEN - 1;
	assert_int_equal(pcc_ifa1_push_hop(b, &l, sizeof(b), PCC_IFA1_MARKER_DEFAULT, &hop),
			PCC_PROTO_ERR_TRUNCATED);
}

/* ---- HPCC INT ---------------------------------------------------- */

static int
int_parse_exact(const uint8_t *b, uint32_t len, struct pcc_int_hdr *h)
{
	uint8_t *c = malloc(len ? len : 1);
	int rc;

	assert_non_null(c);
	memcpy(c, b, len);
	rc = pcc_int_parse(c, len, h);
	free(c);
	return rc;
}

static void
test_int_roundtrip(void **state)
{
	/* rate 2, time 0x123456, bytes 0xabcde, qlen 0x1ffff */
	static const uint8_t word[8] = { 0x42, 0x46, 0x8a, 0xd5, 0x79, 0xbd, 0xff, 0xff };
	struct pcc_int_hdr h, o;
	uint8_t b[PCC_INT_HDR_LEN + 4];
	unsigned int i;

	(void)state;
	assert_int_equal(PCC_INT_HDR_LEN, 42);
	memset(&h, 0, sizeof(h));
	h.n_hops = 5;
	h.hop[0] = (struct pcc_int_hop){
		.rate_code = 2, .time_ns = 0x123456, .tx_bytes = 0xabcde, .qlen = 0x1ffff
	};
	for (i = 1; i < 5; i++) {
		h.hop[i].rate_code = (uint8_t)i;
		h.hop[i].time_ns = 0xffffff - i;
		h.hop[i].tx_bytes = 0xfffff - i;
		h.hop[i].qlen = i * 1000;
	}
	memset(b, 0xee, sizeof(b));
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_INT_HDR_LEN);
	assert_memory_equal(b, word, sizeof(word));
	assert_int_equal(b[40], 0);
	assert_int_equal(b[41], 5);
	assert_int_equal(b[42], 0xee);
	assert_int_equal(pcc_int_parse(b, PCC_INT_HDR_LEN, &o), 0);
	assert_memory_equal(&o, &h, sizeof(h));

	/* fewer hops: unused words are zero, decoded as zero */
	h.n_hops = 2;
	memset(b, 0xee, sizeof(b));
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_INT_HDR_LEN);
	for (i = 16; i < 40; i++)
		assert_int_equal(b[i], 0);
	assert_int_equal(pcc_int_parse(b, sizeof(b), &o), 0);
	assert_int_equal(o.n_hops, 2);
	assert_memory_equal(&o.hop[0], &h.hop[0], 2 * sizeof(h.hop[0]));
	assert_int_equal(o.hop[2].time_ns, 0);

	h.n_hops = 0;
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_INT_HDR_LEN);
	assert_int_equal(pcc_int_parse(b, sizeof(b), &o), 0);
	assert_int_equal(o.n_hops, 0);

	/* build errors */
	h.n_hops = 1;
	assert_int_equal(pcc_int_build(b, PCC_INT_HDR_LEN - 1, &h), PCC_PROTO_ERR_NO_SPACE);
	h.n_hops = 6;
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_PROTO_ERR_INVAL);
	h.n_hops = 1;
	h.hop[0].rate_code = 5;
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_PROTO_ERR_INVAL);
	h.hop[0].rate_code = 0;
	h.hop[0].time_ns = 1u << 24;
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_PROTO_ERR_INVAL);
	h.hop[0].time_ns = 0;
	h.hop[0].tx_bytes = 1u << 20;
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_PROTO_ERR_INVAL);
	h.hop[0].tx_bytes = 0;
	h.hop[0].qlen = 1u << 17;
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_PROTO_ERR_INVAL);
	/* out-of-range values in unused slots do not matter */
	h.n_hops = 0;
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_INT_HDR_LEN);
	assert_int_equal(pcc_int_build(NULL, sizeof(b), &h), PCC_PROTO_ERR_INVAL);
}

static void
test_int_parse_errors(void **state)
{
	uint8_t b[PCC_INT_HDR_LEN];
	struct pcc_int_hdr h, o;
	uint32_t l;
	unsigned int code;

	(void)state;
	memset(&h, 0, sizeof(h));
	h.n_hops = 3;
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_INT_HDR_LEN);
	for (l = 0; l < PCC_INT_HDR_LEN; l++)
		assert_int_equal(int_parse_exact(b, l, &o), PCC_PROTO_ERR_TRUNCATED);
	assert_int_equal(int_parse_exact(b, PCC_INT_HDR_LEN, &o), 0);

	b[41] = 6;
	assert_int_equal(pcc_int_parse(b, sizeof(b), &o), PCC_PROTO_ERR_BAD_LENGTH);
	b[40] = 0x01;
	b[41] = 0x00;
	assert_int_equal(pcc_int_parse(b, sizeof(b), &o), PCC_PROTO_ERR_BAD_LENGTH);
	b[40] = 0xff;
	b[41] = 0xff;
	assert_int_equal(pcc_int_parse(b, sizeof(b), &o), PCC_PROTO_ERR_BAD_LENGTH);
	b[40] = 0;
	b[41] = 3;

	/* unknown rate codes 5..7: refused in used hops, ignored in unused */
	for (code = 5; code <= 7; code++) {
		b[2 * 8] = (uint8_t)(code << 5);
		assert_int_equal(pcc_int_parse(b, sizeof(b), &o), PCC_PROTO_ERR_BAD_FIELD);
		b[2 * 8] = 0;
		b[3 * 8] = (uint8_t)(code << 5);
		assert_int_equal(pcc_int_parse(b, sizeof(b), &o), 0);
		b[3 * 8] = 0;
	}
	b[2 * 8] = 4 << 5;
	assert_int_equal(pcc_int_parse(b, sizeof(b), &o), 0);
	assert_int_equal(o.hop[2].rate_code, PCC_INT_RATE_400G);
	assert_int_equal(pcc_int_parse(NULL, sizeof(b), &o), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_int_parse(b, sizeof(b), NULL), PCC_PROTO_ERR_INVAL);
}

static void
test_int_push(void **state)
{
	uint8_t b[PCC_INT_HDR_LEN], save[PCC_INT_HDR_LEN];
	struct pcc_int_hdr h, o;
	unsigned int k;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_INT_HDR_LEN);
	for (k = 0; k < 5; k++) {
		assert_int_equal(pcc_int_push_hop(b, sizeof(b), (uint8_t)k, 1000 * k + 1,
						 128 * (k + 10), 80 * (k + 3)),
				0);
		assert_int_equal(pcc_int_parse(b, sizeof(b), &o), 0);
		assert_int_equal(o.n_hops, k + 1);
	}
	for (k = 0; k < 5; k++) {
		assert_int_equal(o.hop[k].rate_code, k);
		assert_int_equal(o.hop[k].time_ns, 1000 * k + 1);
		assert_int_equal(o.hop[k].tx_bytes, k + 10);
		assert_int_equal(o.hop[k].qlen, k + 3);
	}
	memcpy(save, b, sizeof(b));
	assert_int_equal(pcc_int_push_hop(b, sizeof(b), 0, 1, 1, 1), PCC_PROTO_ERR_BAD_LENGTH);
	assert_memory_equal(b, save, sizeof(b));

	/* errors */
	h.n_hops = 0;
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_INT_HDR_LEN);
	assert_int_equal(pcc_int_push_hop(b, sizeof(b), 5, 1, 1, 1), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_int_push_hop(b, sizeof(b) - 1, 0, 1, 1, 1), PCC_PROTO_ERR_TRUNCATED);
	b[41] = 7;
	assert_int_equal(pcc_int_push_hop(b, sizeof(b), 0, 1, 1, 1), PCC_PROTO_ERR_BAD_LENGTH);
	b[41] = 0;
	assert_int_equal(pcc_int_push_hop(NULL, sizeof(b), 0, 1, 1, 1), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_int_parse(b, sizeof(b), &o), 0);
	assert_int_equal(o.n_hops, 0);
}

static void
test_int_wrap_saturate(void **state)
{
	struct {
		uint64_t time, bytes, qlen;
		uint32_t want_time, want_bytes, want_qlen;
	} c[] = {
		{ 0, 0, 0, 0, 0, 0 },
		{ 1ull << 24, 0, 0, 0, 0, 0 }, /* time wraps to 0 */
		{ (1ull << 24) + 5, 0, 0, 5, 0, 0 },
		{ (1ull << 24) - 1, 0, 0, 0xffffff, 0, 0 },
		{ UINT64_MAX, 0, 0, 0xffffff, 0, 0 },
		{ 0, 127, 79, 0, 0, 0 }, /* below one unit */
		{ 0, 128, 80, 0, 1, 1 },
		{ 0, 128ull * ((1 << 20) - 1), 0, 0, 0xfffff, 0 },
		{ 0, 128ull << 20, 0, 0, 0, 0 }, /* bytes wrap */
		{ 0, (128ull << 20) + 128 * 3 + 127, 0, 0, 3, 0 },
		{ 0, UINT64_MAX, 0, 0, 0xfffff, 0 },
		{ 0, 0, 80ull * ((1 << 17) - 1), 0, 0, 0x1ffff },
		{ 0, 0, 80ull << 17, 0, 0, 0x1ffff }, /* qlen saturates */
		{ 0, 0, UINT64_MAX, 0, 0, 0x1ffff },
	};
	uint8_t b[PCC_INT_HDR_LEN];
	struct pcc_int_hdr h, o;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		memset(&h, 0, sizeof(h));
		assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_INT_HDR_LEN);
		assert_int_equal(pcc_int_push_hop(b, sizeof(b), PCC_INT_RATE_100G, c[i].time,
						 c[i].bytes, c[i].qlen),
				0);
		assert_int_equal(pcc_int_parse(b, sizeof(b), &o), 0);
		assert_int_equal(o.n_hops, 1);
		assert_int_equal(o.hop[0].rate_code, PCC_INT_RATE_100G);
		assert_int_equal(o.hop[0].time_ns, c[i].want_time);
		assert_int_equal(o.hop[0].tx_bytes, c[i].want_bytes);
		assert_int_equal(o.hop[0].qlen, c[i].want_qlen);
	}
	/* all fields at their maximum: the whole word is set */
	memset(&h, 0, sizeof(h));
	assert_int_equal(pcc_int_build(b, sizeof(b), &h), PCC_INT_HDR_LEN);
	assert_int_equal(pcc_int_push_hop(b, sizeof(b), PCC_INT_RATE_400G, 0xffffff,
					 128ull * 0xfffff, UINT64_MAX),
			0);
	assert_int_equal(rd32(b), 0x9fffffffu);
	assert_int_equal(rd32(b + 4), 0xffffffffu);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifa2_speed_codes),
		cmocka_unit_test(test_int_rate_codes),
		cmocka_unit_test(test_ifa2_hdr_roundtrip),
		cmocka_unit_test(test_ifa2_md_hdr_roundtrip),
		cmocka_unit_test(test_ifa2_hop_roundtrip),
		cmocka_unit_test(test_ifa2_gns_match),
		cmocka_unit_test(test_ifa2_insert_push_ipv4),
		cmocka_unit_test(test_ifa2_insert_push_ipv4_vlan),
		cmocka_unit_test(test_ifa2_insert_push_ipv4_options),
		cmocka_unit_test(test_ifa2_insert_push_ipv6),
		cmocka_unit_test(test_ifa2_insert_push_ipv6_vlan),
		cmocka_unit_test(test_ifa2_hop_limit),
		cmocka_unit_test(test_ifa2_no_space),
		cmocka_unit_test(test_ifa2_padding),
		cmocka_unit_test(test_ifa2_truncation),
		cmocka_unit_test(test_ifa2_get_hop_bounds),
		cmocka_unit_test(test_ifa2_parse_errors),
		cmocka_unit_test(test_ifa2_parse_errors_ipv6),
		cmocka_unit_test(test_ifa2_insert_errors),
		cmocka_unit_test(test_ifa2_custom_proto),
		cmocka_unit_test(test_ifa1_roundtrip),
		cmocka_unit_test(test_ifa1_parse_errors),
		cmocka_unit_test(test_ifa1_push),
		cmocka_unit_test(test_ifa1_truncation),
		cmocka_unit_test(test_int_roundtrip),
		cmocka_unit_test(test_int_parse_errors),
		cmocka_unit_test(test_int_push),
		cmocka_unit_test(test_int_wrap_saturate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
