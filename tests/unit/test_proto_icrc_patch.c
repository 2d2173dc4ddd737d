/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * pcc_icrc_patch(): the incremental ICRC agrees with a full recompute
 * (pcc_icrc_calc()) for changes anywhere in RoCEv2 datagrams of every
 * size (past the 2 KiB table of powers too), IPv4 and IPv6, with the
 * PCLMULQDQ multiply and with the software one; a probe request patched
 * into its response has the response's ICRC; bad arguments are refused.
 * pcc_probe_resp_inplace(): a request turned around in place is, byte for
 * byte, the response pcc_probe_resp_build() builds, whatever the
 * request's IP ID, TTL, ECN, flow label, VLAN tag, custom header and
 * flags; requests it cannot turn around are refused untouched.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "pcc_proto.h"
#include "proto_internal.h"

#define FRAME_MAX 9300

static uint8_t frame[FRAME_MAX];
static uint8_t old_copy[FRAME_MAX];

static uint32_t rng = 12345;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* A RoCEv2 SEND_ONLY frame with a payload of plen bytes; *l3_off and
 * *dlen (IP header to ICRC, exclusive) of it.  Returns the frame length. */
static int
build(bool ipv6, uint32_t plen, uint32_t *l3_off, uint32_t *dlen)
{
	static uint8_t payload[FRAME_MAX];
	struct pcc_l3_spec l3 = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
		.src_mac = { 2, 0, 0, 0, 0, 1 } };
	struct pcc_roce_spec r = { .bth = { .opcode = PCC_OP_RC_SEND_ONLY, .pkey = 0xffff } };
	struct pcc_pkt_info info;
	uint32_t i;
	int len;

	for (i = 0; i < plen; i++)
		payload[i] = (uint8_t)rnd();
	l3.ipv6 = ipv6;
	l3.src.v4 = rnd();
	l3.dst.v4 = rnd();
	for (i = 0; i < 16; i++) {
		l3.src.v6[i] = (uint8_t)rnd();
		l3.dst.v6[i] = (uint8_t)rnd();
	}
	l3.dscp = rnd() & 63;
	l3.ecn = rnd() & 3;
	r.bth.dqpn = rnd() & PCC_QPN_MASK;
	r.bth.psn = rnd() & PCC_PSN_MASK;
	r.payload = payload;
	r.payload_len = plen;
	len = pcc_roce_build(frame, sizeof(frame), &l3, &r);
	assert_true(len > 0);
	assert_int_equal(pcc_parse(frame, (uint32_t)len, NULL, &info), 0);
	*l3_off = info.l3_off;
	*dlen = (uint32_t)len - PCC_ICRC_LEN - info.l3_off;
	return len;
}

/* Is datagram byte i (IP header = 0) one the ICRC masks? */
static bool
masked(const uint8_t *ip, uint32_t i)
{
	bool v6 = (ip[0] >> 4) == 6;
	uint32_t l4 = v6 ? PCC_IPV6_HDR_LEN : (ip[0] & 0xfu) * 4u;

	if (v6 ? i < 4 || i == 7 : i == 1 || i == 8 || i == 10 || i == 11)
		return true;
	return i == l4 + 6 || i == l4 + 7 || i == l4 + PCC_UDP_HDR_LEN + 4;
}

/* Change n random bytes at off (>= 1: the IP version and IHL stay) of the
 * datagram; the patched ICRC is the recomputed one. */
static void
check_change(uint8_t *ip, uint32_t dlen, uint32_t off, uint32_t n)
{
	uint32_t before, after, patched, i;
	int err;

	before = pcc_icrc_calc(ip, dlen, &err);
	assert_int_equal(err, 0);
	memcpy(old_copy, ip + off, n);
	for (i = 0; i < n; i++)
		ip[off + i] = (uint8_t)rnd();
	/* masked fields: their change does not count; keep them alike */
	for (i = 0; i < n; i++)
		if (masked(ip, off + i))
			old_copy[i] = ip[off + i];
	after = pcc_icrc_calc(ip, dlen, &err);
	assert_int_equal(err, 0);
	patched = before;
	assert_int_equal(pcc_icrc_patch(&patched, dlen, off, old_copy, ip + off, n), 0);
	if (patched != after)
		fail_msg("dlen %u off %u n %u: patched %08x, recomputed %08x", dlen, off, n,
				patched, after);
}

static void
random_changes(bool clmul)
{
	static const uint32_t sizes[] = { 0, 1, 3, 4, 16, 255, 256, 1000, 1997, 1998, 2001, 2100,
		4096, 9000 };
	unsigned int s, k;

	proto_icrc_patch_use_clmul(clmul);
	for (s = 0; s < RTE_DIM(sizes); s++) {
		for (k = 0; k < 64; k++) {
			uint32_t l3_off, dlen, off, n;

			build((k & 1) != 0, sizes[s], &l3_off, &dlen);
			/* anywhere after the IP version byte, 1..64 bytes */
			off = 1 + rnd() % (dlen - 1);
			n = 1 + rnd() % 64;
			if (n > dlen - off)
				n = dlen - off;
			check_change(frame + l3_off, dlen, off, n);
			/* the whole datagram but the version byte */
			if ((k & 15) == 0)
				check_change(frame + l3_off, dlen, 1, dlen - 1);
			/* the last bytes before the ICRC */
			n = 1 + rnd() % 8;
			check_change(frame + l3_off, dlen, dlen - n, n);
		}
	}
}

static void
test_random_changes_clmul(void **state)
{
	(void)state;
	random_changes(true);
}

static void
test_random_changes_sw(void **state)
{
	(void)state;
	random_changes(false);
	proto_icrc_patch_use_clmul(true);
}

/* The NP's use: a probe request turned into its response in place. */
static void
test_probe_response(void **state)
{
	static uint8_t req[512], resp[512];
	struct pcc_l3_spec l3 = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
		.src_mac = { 2, 0, 0, 0, 0, 1 },
		.src.v4 = 0x0a000001,
		.dst.v4 = 0x0a000002,
		.dscp = 26,
		.ecn = PCC_ECN_ECT0,
		.udp_sport = 0xc123 };
	struct pcc_probe p = {
		.tid = 77, .flow_tag = 0x100, .slot = 3, .custom_len = 8, .req_send_ts = 123456789
	};
	struct pcc_l3_spec back = l3;
	uint8_t custom[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint32_t l3_off = PCC_ETH_HDR_LEN, dlen, icrc, i;
	int lq, lr, v6;

	(void)state;
	for (v6 = 0; v6 < 2; v6++) {
		l3.ipv6 = back.ipv6 = v6 != 0;
		if (v6) {
			memset(l3.src.v6, 0xfd, 16);
			memset(l3.dst.v6, 0xfe, 16);
		}
		back.src = l3.dst;
		back.dst = l3.src;
		back.dscp = 48;
		back.ecn = PCC_ECN_NOT_ECT;
		lq = pcc_probe_req_build(req, sizeof(req), &l3, 0x100, &p, custom);
		p.np_recv_ts = 5000;
		p.np_send_ts = 5100;
		memset(p.user, 0xab, sizeof(p.user));
		p.resp_ts = 0x55;
		lr = pcc_probe_resp_build(resp, sizeof(resp), &back, 0x100, &p, custom);
		assert_true(lq > 0);
		assert_int_equal(lq, lr);
		dlen = (uint32_t)lq - l3_off - PCC_ICRC_LEN;
		/* masked bytes alike, then patch the whole datagram */
		for (i = 0; i < dlen; i++)
			if (masked(req + l3_off, i))
				req[l3_off + i] = resp[l3_off + i];
		memcpy(&icrc, req + lq - PCC_ICRC_LEN, 4);
		icrc = rte_le_to_cpu_32(icrc);
		assert_int_equal(pcc_icrc_patch(&icrc, dlen, 0, req + l3_off, resp + l3_off, dlen),
				0);
		assert_int_equal(icrc, pcc_icrc_calc(resp + l3_off, dlen, NULL));
		p.np_recv_ts = p.np_send_ts = 0;
		memset(p.user, 0, sizeof(p.user));
		p.resp_ts = 0;
	}
}

/* pcc_probe_resp_inplace() writes what pcc_probe_resp_build() writes. */
static void
test_resp_inplace(void **state)
{
	static uint8_t req[600], want[600];
	static const uint16_t customs[] = { 0, 8, 64 };
	struct pcc_parse_opts po;
	struct pcc_pkt_info in, out;
	unsigned int k;

	(void)state;
	pcc_parse_opts_default(&po);
	po.check_icrc = true;
	for (k = 0; k < 192; k++) {
		struct pcc_l3_spec l3 = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
			.src_mac = { 2, 0, 0, 0, 0, 1 } };
		struct pcc_l3_spec back;
		struct pcc_probe p;
		uint8_t custom[PCC_PROBE_CUSTOM_MAX], dscp = (uint8_t)(rnd() & 63);
		uint32_t i;
		int lq, lr;

		memset(&p, 0, sizeof(p));
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
		l3.ip_id = (uint16_t)rnd();
		l3.flow_label = rnd() & 0xfffff;
		l3.udp_sport = (k & 4) ? 0 : (uint16_t)rnd();
		for (i = 0; i < sizeof(custom); i++)
			custom[i] = (uint8_t)rnd();
		p.tid = ((uint64_t)rnd() << 32) | rnd();
		p.flow_tag = rnd();
		p.slot = (uint8_t)rnd();
		p.flags = (k & 8) ? PCC_PROBE_F_HW_NP : 0;
		p.custom_len = customs[k % 3];
		p.req_send_ts = ((uint64_t)rnd() << 32) | rnd();
		lq = pcc_probe_req_build(req, sizeof(req), &l3, rnd() & PCC_QPN_MASK, &p, custom);
		assert_true(lq > 0);
		assert_int_equal(pcc_parse(req, (uint32_t)lq, &po, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_PROBE_REQ);
		/* an IPv6 request without a UDP checksum (the ICRC masks it):
		 * the response gets one computed, else it is updated */
		if (l3.ipv6 && (k & 16)) {
			req[in.l4_off + 6] = 0;
			req[in.l4_off + 7] = 0;
		}

		/* the response the NP gives */
		p.np_recv_ts = ((uint64_t)rnd() << 32) | rnd();
		p.np_send_ts = p.np_recv_ts + rnd();
		for (i = 0; i < PCC_PROBE_USER_LEN; i++)
			p.user[i] = (uint8_t)rnd();
		p.resp_ts = rnd();
		memset(&back, 0, sizeof(back));
		memcpy(back.dst_mac, l3.src_mac, 6);
		memcpy(back.src_mac, l3.dst_mac, 6);
		back.vlan = l3.vlan;
		back.vlan_tci = l3.vlan_tci;
		back.ipv6 = l3.ipv6;
		back.src = l3.dst;
		back.dst = l3.src;
		back.dscp = dscp;
		back.ecn = PCC_ECN_NOT_ECT;
		back.udp_sport = in.udp_sport;
		lr = pcc_probe_resp_build(want, sizeof(want), &back, in.deth_sqpn, &p, custom);
		assert_int_equal(lr, lq);
		assert_int_equal(pcc_probe_resp_inplace(req, sizeof(req), &in, dscp, &p), lq);
		if (memcmp(req, want, (size_t)lq) != 0) {
			for (i = 0; i < (uint32_t)lq && req[i] == want[i]; i++)
				;
			fail_msg("case %u: byte %u differs: %02x, built %02x", k, i, req[i],
					want[i]);
		}
		assert_int_equal(pcc_parse(req, (uint32_t)lq, &po, &out), 0);
		assert_int_equal(out.kind, PCC_PKT_PROBE_RESP);
		assert_true(out.flags & PCC_PKT_F_ICRC_OK);
	}
}

/* Requests it cannot turn around: refused, left alone. */
static void
test_resp_inplace_refused(void **state)
{
	static uint8_t req[600], copy[600];
	struct pcc_l3_spec l3 = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
		.src_mac = { 2, 0, 0, 0, 0, 1 },
		.src.v4 = 0x0a000001,
		.dst.v4 = 0x0a000002 };
	struct pcc_probe p = { .tid = 1, .flow_tag = 2 };
	struct pcc_pkt_info in, bad;
	int lq;

	(void)state;
	lq = pcc_probe_req_build(req, sizeof(req), &l3, 0x100, &p, NULL);
	assert_true(lq > 0);
	assert_int_equal(pcc_parse(req, (uint32_t)lq, NULL, &in), 0);
	memcpy(copy, req, sizeof(req));
	assert_int_equal(
			pcc_probe_resp_inplace(NULL, sizeof(req), &in, 0, &p), PCC_PROTO_ERR_INVAL);
	assert_int_equal(
			pcc_probe_resp_inplace(req, sizeof(req), NULL, 0, &p), PCC_PROTO_ERR_INVAL);
	assert_int_equal(
			pcc_probe_resp_inplace(req, sizeof(req), &in, 64, &p), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_probe_resp_inplace(req, (uint32_t)lq - 1, &in, 0, &p),
			PCC_PROTO_ERR_INVAL);
	bad = in;
	bad.kind = PCC_PKT_PROBE_RESP;
	assert_int_equal(
			pcc_probe_resp_inplace(req, sizeof(req), &bad, 0, &p), PCC_PROTO_ERR_INVAL);
	bad = in;
	bad.payload_len = PCC_PROBE_MAD_LEN + 4;
	assert_int_equal(
			pcc_probe_resp_inplace(req, sizeof(req), &bad, 0, &p), PCC_PROTO_ERR_INVAL);
	/* IPv4 options */
	bad = in;
	bad.l4_off += 4;
	assert_int_equal(
			pcc_probe_resp_inplace(req, sizeof(req), &bad, 0, &p), PCC_PROTO_ERR_INVAL);
	assert_memory_equal(req, copy, sizeof(req));
}

/*
 * pcc_udp_csum_patch() against the checksum computed afresh: random IPv6
 * UDP datagrams, ranges at even offsets (odd lengths too) changed at
 * random, one range or two chained; 0 written as 0xFFFF either way.
 */
static void
test_udp_csum_patch(void **state)
{
	static uint8_t ip6[PCC_IPV6_HDR_LEN + 1500], old[1500];
	uint8_t *udp = ip6 + PCC_IPV6_HDR_LEN;
	unsigned int k, i, zero = 0;

	(void)state;
	for (k = 0; k < 20000; k++) {
		uint32_t len = 8 + 2 * (rnd() % 700), off[2], n[2], r, nr = 1 + rnd() % 2;
		uint16_t ck;

		uint32_t lo = 8, hi = len, mid = 8 + 2 * (rnd() % ((len - 8) / 2 + 1));

		for (i = 0; i < sizeof(ip6); i++)
			ip6[i] = (uint8_t)rnd();
		ck = proto_udp6_csum(ip6, udp, len);
		memcpy(old, udp, len);
		/* two ranges apart: one before mid, one from it */
		for (r = 0; r < nr; r++) {
			uint32_t a = nr == 1 ? lo : (r == 0 ? lo : mid);
			uint32_t e = nr == 1 ? hi : (r == 0 ? mid : hi);

			off[r] = a + 2 * (rnd() % ((e - a) / 2 + 1));
			n[r] = e - off[r] == 0 ? 0 : 1 + rnd() % (e - off[r]);
			for (i = 0; i < n[r]; i++)
				udp[off[r] + i] = (uint8_t)rnd();
		}
		for (r = 0; r < nr; r++)
			ck = pcc_udp_csum_patch(ck, old + off[r], udp + off[r], n[r]);
		assert_int_equal(ck, proto_udp6_csum(ip6, udp, len));
		if (ck == 0xffff)
			zero++;
	}
	print_message("# %u of 20000 results 0xFFFF\n", zero);
	/* a change that makes the sum come out 0: 0xFFFF, as computed */
	{
		uint32_t len = 24, w;
		uint16_t ck0 = proto_udp6_csum(ip6, udp, len);

		memcpy(old, udp, len);
		for (w = 0; w <= 0xffff; w++) {
			udp[16] = (uint8_t)(w >> 8);
			udp[17] = (uint8_t)w;
			if (proto_udp6_csum(ip6, udp, len) == 0xffff)
				break;
		}
		assert_true(w <= 0xffff);
		assert_int_equal(pcc_udp_csum_patch(ck0, old + 16, udp + 16, 2), 0xffff);
	}
	/* nothing to do */
	assert_int_equal(pcc_udp_csum_patch(0x1234, NULL, old, 4), 0x1234);
	assert_int_equal(pcc_udp_csum_patch(0x1234, old, NULL, 4), 0x1234);
	assert_int_equal(pcc_udp_csum_patch(0x1234, old, old, 0), 0x1234);
	assert_int_equal(pcc_udp_csum_patch(0x1234, old, old, 8), 0x1234);
}

static void
test_bad_args(void **state)
{
	uint8_t a[8] = { 0 }, b[8] = { 1 };
	uint32_t icrc = 0x12345678;

	(void)state;
	assert_int_equal(pcc_icrc_patch(NULL, 100, 0, a, b, 8), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_icrc_patch(&icrc, 100, 96, a, b, 8), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_icrc_patch(&icrc, 100, 101, a, b, 0), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_icrc_patch(&icrc, 100, 0, NULL, b, 8), PCC_PROTO_ERR_INVAL);
	assert_int_equal(pcc_icrc_patch(&icrc, 100, 0, a, NULL, 8), PCC_PROTO_ERR_INVAL);
	assert_int_equal(icrc, 0x12345678);
	/* nothing changed: nothing to do */
	assert_int_equal(pcc_icrc_patch(&icrc, 100, 50, a, b, 0), 0);
	assert_int_equal(pcc_icrc_patch(&icrc, 100, 50, a, a, 8), 0);
	assert_int_equal(icrc, 0x12345678);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_changes_clmul),
		cmocka_unit_test(test_random_changes_sw),
		cmocka_unit_test(test_probe_response),
		cmocka_unit_test(test_resp_inplace),
		cmocka_unit_test(test_resp_inplace_refused),
		cmocka_unit_test(test_udp_csum_patch),
		cmocka_unit_test(test_bad_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
