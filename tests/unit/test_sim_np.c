/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of what the simulator's fabric writes into frames and what
 * its receivers answer (drivers/sim), without the engine: HPCC INT
 * stamping values (and the ICRC kept valid, INT echoed in ACKs), IFA2
 * stamping and its hop profiles, the hardware NP's CNP gap per QP, probe
 * response timestamps, the hardware NP's IFA2 answers, and ACK
 * generation (per packet, coalesced, AckReq, NAK on a PSN gap).  Split
 * from test_sim_model.c, whose frame helpers it shares
 * (test_sim_pkt.h).  Virtual time only.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_sim_pkt.h"

/* ---- INT and IFA2 ----------------------------------------------------------------------- */

#define DUMBBELL_1                                               \
	"topology: {type: dumbbell, senders: 1, receivers: 1,\n" \
	"  host_link: {rate: 100G, delay: 1us}, bottleneck: {rate: 100G, delay: 1us}}\n"

static void
test_int_stamping(void **state)
{
	struct pcc_sim *sim = sim_from(DUMBBELL_1 "switch: {int: true}\n"
						  "hosts: {np: engine, np_rx: all}\n"
						  "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct rte_mbuf *m[8], *a[8];
	struct pcc_pkt_info info;
	struct pcc_int_hdr h;
	uint64_t t, t_sw0_1, t_sw0_2, len;
	unsigned int n, na, i;

	(void)state;
	assert_int_equal(pcc_sim_inject(sim, 0, data_pkt(sim, 0, 0, 1000, PCC_ECN_ECT0, true, 0)),
			0);
	assert_int_equal(pcc_sim_inject(sim, 0, data_pkt(sim, 0, 1, 1000, PCC_ECN_ECT0, true, 0)),
			0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 1, m, 8);
	assert_int_equal(n, 2);
	len = m[0]->pkt_len;
	t = ser(len, G100);
	/* sw0 dequeues frame 1 when it arrives, frame 2 when frame 1 is sent */
	t_sw0_1 = t + 1000;
	t_sw0_2 = t_sw0_1 + t;
	for (i = 0; i < n; i++) {
		parse_ok(m[i], &info, true); /* ICRC recomputed after each push */
		assert_true(info.bth_flags & PCC_BTH_INT);
		assert_int_equal(pcc_int_parse(rte_pktmbuf_mtod_offset(
							       m[i], void *, info.payload_off),
						 PCC_INT_HDR_LEN, &h),
				0);
		assert_int_equal(h.n_hops, 2);
		assert_int_equal(h.hop[0].rate_code, PCC_INT_RATE_100G);
		assert_int_equal(h.hop[1].rate_code, PCC_INT_RATE_100G);
		assert_int_equal(h.hop[0].qlen, 0);
		assert_int_equal(h.hop[1].qlen, 0);
		assert_int_equal(h.hop[0].time_ns, i == 0 ? t_sw0_1 : t_sw0_2);
		assert_int_equal(h.hop[1].time_ns, (i == 0 ? t_sw0_1 : t_sw0_2) + t + 1000);
		/* bytes the port sent before this frame, in 128-byte units */
		assert_int_equal(h.hop[0].tx_bytes, i == 0 ? 0 : len / 128);
		assert_int_equal(h.hop[1].tx_bytes, i == 0 ? 0 : len / 128);
		assert_int_equal(rx_ts(sim, m[i]), (i == 0 ? t_sw0_1 : t_sw0_2) + 2 * (t + 1000));
	}
	/* the ACKs echo the INT header of the data they acknowledge */
	na = rx_all(sim, 0, a, 8);
	assert_int_equal(na, 2);
	for (i = 0; i < na; i++) {
		struct pcc_pkt_info ai;

		parse_ok(a[i], &ai, true);
		assert_int_equal(ai.kind, PCC_PKT_ROCE_ACK);
		assert_true(ai.bth_flags & PCC_BTH_INT);
		parse_ok(m[i], &info, false);
		assert_memory_equal(rte_pktmbuf_mtod_offset(a[i], void *, ai.payload_off),
				rte_pktmbuf_mtod_offset(m[i], void *, info.payload_off),
				PCC_INT_HDR_LEN);
	}
	free_all(m, n);
	free_all(a, na);
	/* a frame without the INT header is left alone */
	assert_int_equal(pcc_sim_inject(sim, 0, data_pkt(sim, 0, 2, 1000, PCC_ECN_ECT0, false, 0)),
			0);
	assert_int_equal(pcc_sim_run(sim, 40 * US), 0);
	n = rx_all(sim, 1, m, 8);
	assert_int_equal(n, 1);
	parse_ok(m[0], &info, true);
	assert_false(info.bth_flags & PCC_BTH_INT);
	assert_int_equal(m[0]->pkt_len, 58 + 1000);
	free_all(m, n);
	n = rx_all(sim, 0, a, 8);
	assert_int_equal(n, 1);
	parse_ok(a[0], &info, true);
	assert_false(info.bth_flags & PCC_BTH_INT);
	free_all(a, n);
	sim_free(sim);
}

/* The IFA2 header and metadata header into m's UDP/IP frame, in place. */
static void
ifa2_into(struct rte_mbuf *m, const struct pcc_ifa2_hdr *ih, const struct pcc_ifa2_md_hdr *md)
{
	uint32_t len = m->data_len;

	assert_int_equal(pcc_ifa2_insert(rte_pktmbuf_mtod(m, void *), &len,
					 m->data_len + rte_pktmbuf_tailroom(m),
					 PCC_IFA2_PROTO_DEFAULT, ih, md),
			0);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
}

/* An IFA2 frame (RoCE data inside) of flow 0, no hops yet. */
static struct rte_mbuf *
ifa2_data(struct pcc_sim *sim)
{
	static const struct pcc_ifa2_hdr ih = { .ver = 2, .gns = 0xF, .max_len = 0xFF };
	static const struct pcc_ifa2_md_hdr md = { .hop_limit = PCC_IFA2_HOP_LIMIT_DEFAULT };
	struct rte_mbuf *m = data_pkt(sim, 0, 0, 200, PCC_ECN_ECT0, false, 0);

	ifa2_into(m, &ih, &md);
	return m;
}

static void
test_ifa2_stamping(void **state)
{
	struct pcc_sim *sim = sim_from(DUMBBELL_1 "switch: {ifa2: true}\n"
						  "hosts: {np: engine}\n"
						  "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct rte_mbuf *m = ifa2_data(sim), *r[4];
	struct pcc_ifa2_info ii;
	struct pcc_ifa2_hop hop[2];
	uint32_t len = m->data_len;
	uint64_t t0, t1, arr_sw0, arr_sw1;
	unsigned int n;

	(void)state;
	t0 = ser(len, G100);
	t1 = ser(len + PCC_IFA2_HOP_LEN, G100);
	arr_sw0 = t0 + 1000;
	arr_sw1 = arr_sw0 + t1 + 1000;
	assert_int_equal(pcc_sim_inject(sim, 0, m), 0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 1, r, 4);
	assert_int_equal(n, 1);
	assert_int_equal(r[0]->pkt_len, len + 2 * PCC_IFA2_HOP_LEN);
	assert_int_equal(pcc_ifa2_parse(rte_pktmbuf_mtod(r[0], void *), r[0]->data_len,
					 PCC_IFA2_PROTO_DEFAULT, &ii),
			0);
	assert_int_equal(ii.n_hops, 2);
	assert_int_equal(ii.md.hop_limit, PCC_IFA2_HOP_LIMIT_DEFAULT - 2);
	assert_int_equal(pcc_ifa2_get_hop(rte_pktmbuf_mtod(r[0], void *), r[0]->data_len, &ii, 0,
					 &hop[0]),
			0);
	assert_int_equal(pcc_ifa2_get_hop(rte_pktmbuf_mtod(r[0], void *), r[0]->data_len, &ii, 1,
					 &hop[1]),
			0);
	/* hop 0 is the newest: sw1 (node 3), then sw0 (node 2) */
	assert_int_equal(hop[0].device_id, 4);
	assert_int_equal(hop[1].device_id, 3);
	assert_int_equal(hop[1].ingress_port, 0); /* sw0: port 0 faces s0 */
	assert_int_equal(hop[1].egress_port, 1);  /* port 1 faces sw1 */
	assert_int_equal(hop[0].ingress_port, 1); /* sw1: port 1 faces sw0 */
	assert_int_equal(hop[0].egress_port, 0);  /* port 0 faces r0 */
	assert_int_equal(hop[1].rx_ns, arr_sw0);
	assert_int_equal(hop[0].rx_ns, arr_sw1);
	assert_int_equal(hop[1].rx_sec, 0);
	assert_int_equal(hop[0].residence_ns, 0);
	assert_int_equal(hop[1].residence_ns, 0);
	assert_int_equal(hop[0].port_speed, 4); /* 100G */
	assert_int_equal(hop[0].congestion, 0);
	assert_int_equal(hop[0].ttl, 64);
	assert_int_equal(rx_ts(sim, r[0]), arr_sw1 + ser(len + 2 * PCC_IFA2_HOP_LEN, G100) + 1000);
	free_all(r, n);
	sim_free(sim);
}

/* Known inputs of one hop: the worked example of doc/wire.md 8.3.1. */
static void
hop_example(struct sim_ifa2_stamp *st)
{
	memset(st, 0, sizeof(*st));
	st->device_id = 0x12345;
	st->ttl = 0x40;
	st->congestion = 2;
	st->speed_code = 4; /* 100G */
	st->rate_bps = G100;
	st->in_port = 1;
	st->out_port = 2;
	st->rx_ns = 70000 * 1000000000ull + 123456789; /* 70000 s: beyond 16 bits */
	st->tx_ns = st->rx_ns + 1500;
	st->q_bytes = 20000000;        /* 78125 cells of 256 bytes */
	st->tx_bytes = 0x123456789ull; /* beyond 32 bits */
}

static void
test_ifa2_hop_profiles(void **state)
{
	static const uint8_t want_pcc[PCC_IFA2_HOP_LEN] = {
		0x01,
		0x23,
		0x45,
		0x40, /* LNS 0, DeviceID 0x12345, TTL 0x40 */
		0x48,
		0x01,
		0x11,
		0x70, /* 100G, Cg 2, QueueID 0, RxSec 70000 */
		0x00,
		0x02,
		0x00,
		0x01, /* egress 2, ingress 1 */
		0x07,
		0x5b,
		0xcd,
		0x15, /* RxNs 123456789 */
		0x00,
		0x00,
		0x05,
		0xdc, /* residence 1500 ns */
		0x01,
		0x31,
		0x2d,
		0x00, /* queue bytes 20000000 */
		0x00,
		0x00,
		0xff,
		0xff, /* reserved, cells (16 bits, saturated) */
		0x00,
		0x00,
		0x00,
		0x00,
	};
	static const uint8_t want_doca[PCC_IFA2_HOP_LEN] = {
		0x00, 0x04, 0x8d, 0x15, /* device 0x12345 << 2 | port type 1 */
		0x02, 0x00, 0x40, 0x00, /* congestion 2, tid 0; TX bytes hi; TTL; queue */
		0x80, 0x00, 0x00, 0x01, /* marker 0x8000, cells 31..16 */
		0x11, 0x70,             /* RX s, low 16 bits of 70000 */
		0x07, 0x5b, 0xcd, 0x15, /* RX ns */
		0x2c, 0x7e, 0x32, 0xf1, /* TX time: low 32 bits of the ns clock */
		0x31, 0x2d,             /* cells 15..0: 78125 = 0x1312d */
		0x00, 0x01, 0x00, 0x02, /* ingress 1, egress 2 */
		0x23, 0x45, 0x67, 0x89, /* TX bytes, low 32 bits */
	};
	struct sim_ifa2_stamp st;
	struct pcc_ifa2_hop hop;
	uint8_t b[PCC_IFA2_HOP_LEN];

	(void)state;
	hop_example(&st);
	sim_ifa2_hop(SIM_IFA2_PROFILE_DPDK_PCC, &st, &hop);
	assert_int_equal(pcc_ifa2_hop_build(b, sizeof(b), &hop), PCC_IFA2_HOP_LEN);
	assert_memory_equal(b, want_pcc, sizeof(b));
	sim_ifa2_hop(SIM_IFA2_PROFILE_DOCA, &st, &hop);
	assert_int_equal(pcc_ifa2_hop_build(b, sizeof(b), &hop), PCC_IFA2_HOP_LEN);
	assert_memory_equal(b, want_doca, sizeof(b));
	/* 25G is port type 0; cells saturate at 2^32 - 1 */
	st.rate_bps = 25000000000ull;
	st.q_bytes = 1ull << 40;
	sim_ifa2_hop(SIM_IFA2_PROFILE_DOCA, &st, &hop);
	assert_int_equal(pcc_ifa2_hop_build(b, sizeof(b), &hop), PCC_IFA2_HOP_LEN);
	assert_int_equal(b[3], 0x14);
	assert_memory_equal(b + 8, ((const uint8_t[]){ 0x80, 0x00, 0xff, 0xff }), 4);
	assert_memory_equal(b + 22, ((const uint8_t[]){ 0xff, 0xff }), 2);
}

static void
put16(uint8_t *p, uint64_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
put32(uint8_t *p, uint64_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

/* doc/wire.md 8.3.1, written out field by field (congestion, tid, queue 0). */
static void
doca_hop_expect(uint8_t *b, uint32_t dev, uint32_t pt, uint8_t ttl, uint64_t q_bytes,
		uint64_t rx_ns, uint64_t tx_ns, uint16_t in, uint16_t out, uint64_t tx_bytes)
{
	uint64_t cells = (q_bytes + 255) / 256;

	memset(b, 0, PCC_IFA2_HOP_LEN);
	put32(b, (uint64_t)dev << 2 | pt);
	b[6] = ttl;
	put32(b + 8, 0x80000000u | (uint32_t)(cells >> 16));
	put16(b + 12, rx_ns / 1000000000);
	put32(b + 14, rx_ns % 1000000000);
	put32(b + 18, tx_ns);
	put16(b + 22, cells);
	put16(b + 24, in);
	put16(b + 26, out);
	put32(b + 28, tx_bytes);
}

/*
 * sw0 on the doca profile, sw1 on the default: both hops in one frame,
 * newest (sw1) first.  A 1000-byte frame ahead of it on the 10G
 * bottleneck and one behind it give sw0 a residence, a queue and TX bytes.
 */
static void
test_ifa2_profile_per_switch(void **state)
{
	struct pcc_sim *sim = sim_from("topology: {type: dumbbell, senders: 1, receivers: 1,\n"
				       "  host_link: {rate: 100G, delay: 1us}, bottleneck: {rate: "
				       "10G, delay: 1us}}\n"
				       "switch: {ifa2: true, ifa2_profiles: {sw0: doca}}\n"
				       "hosts: {np: engine}\n"
				       "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct rte_mbuf *a = udp_frame(sim, 0, 1, 1000), *b = ifa2_data(sim);
	struct rte_mbuf *c = udp_frame(sim, 0, 1, 1000), *r[4];
	uint64_t rem = 0, rem10 = 0, arr_a, arr_b, tx_b, arr_b1, len_b = b->pkt_len;
	uint8_t want[2][PCC_IFA2_HOP_LEN];
	struct pcc_ifa2_hop hop;
	struct pcc_ifa2_info ii;
	const uint8_t *f;
	unsigned int n;

	(void)state;
	arr_a = sim_ser_ns(1000, G100, &rem) + 1000;
	arr_b = arr_a + sim_ser_ns(len_b, G100, &rem);
	tx_b = arr_a + sim_ser_ns(1000, G10, &rem10); /* when a is sent */
	arr_b1 = tx_b + sim_ser_ns(len_b + PCC_IFA2_HOP_LEN, G10, &rem10) + 1000;
	assert_int_equal(pcc_sim_inject(sim, 0, a), 0);
	assert_int_equal(pcc_sim_inject(sim, 0, b), 0);
	assert_int_equal(pcc_sim_inject(sim, 0, c), 0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 1, r, 4);
	assert_int_equal(n, 3);
	f = rte_pktmbuf_mtod(r[1], const uint8_t *);
	assert_int_equal(r[1]->pkt_len, len_b + 2 * PCC_IFA2_HOP_LEN);
	assert_int_equal(pcc_ifa2_parse(f, r[1]->data_len, PCC_IFA2_PROTO_DEFAULT, &ii), 0);
	assert_int_equal(ii.n_hops, 2);
	assert_int_equal(ii.md.hop_limit, PCC_IFA2_HOP_LIMIT_DEFAULT - 2);
	/* sw1 (device 4): dpdk-pcc layout, dequeued on arrival, nothing behind */
	memset(&hop, 0, sizeof(hop));
	hop.device_id = 4;
	hop.ttl = 64;
	hop.port_speed = 4;
	hop.rx_ns = (uint32_t)arr_b1;
	hop.egress_port = 0;
	hop.ingress_port = 1;
	assert_int_equal(pcc_ifa2_hop_build(want[0], PCC_IFA2_HOP_LEN, &hop), PCC_IFA2_HOP_LEN);
	/* sw0 (device 3), 10G: port type 0, c queued behind, a sent before */
	doca_hop_expect(want[1], 3, 0, 64, 1000, arr_b, tx_b, 0, 1, 1000);
	assert_memory_equal(f + ii.stack_off, want[0], PCC_IFA2_HOP_LEN);
	assert_memory_equal(f + ii.stack_off + PCC_IFA2_HOP_LEN, want[1], PCC_IFA2_HOP_LEN);
	free_all(r, n);
	sim_free(sim);
}

/* ---- Hardware NP ------------------------------------------------------------------------- */

static void
cnp_gap_run(uint64_t gap_ns, const char *gap)
{
	char text[1024];
	struct pcc_sim *sim;
	uint64_t last[2] = { 0, 0 }, seen[2] = { 0, 0 }, t;
	struct pcc_sim_flow_stats fs;
	uint32_t i;

	snprintf(text, sizeof(text),
			DUMBBELL_2
			"duration: 500us\n"
			"switch: {ecn: {mode: step, k: 1}}\n"
			"hosts: {cnp_gap: %s}\n"
			"flows: [{src: [s0, s1], dst: r0, rate: 60G, source: model}]\n" COMMON,
			gap);
	sim = sim_from(text);
	/* watch each flow's CNP generation times (at most one per flow per 100 ns) */
	for (t = 100; t <= 500 * US; t += 100) {
		assert_true(pcc_sim_run(sim, t) >= 0);
		for (i = 0; i < 2; i++) {
			struct sim_flow *f = &sim->flows[i];

			if (f->st.cnps == seen[i])
				continue;
			if (gap_ns > 0) {
				assert_int_equal(f->st.cnps, seen[i] + 1);
				if (seen[i] > 0 && f->last_cnp_ns - last[i] < gap_ns)
					print_error("flow %u: CNPs at %" PRIu64 " and %" PRIu64
						    "\n",
							i, last[i], f->last_cnp_ns);
				if (seen[i] > 0)
					assert_true(f->last_cnp_ns - last[i] >= gap_ns);
			}
			seen[i] = f->st.cnps;
			last[i] = f->last_cnp_ns;
		}
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(pcc_sim_flow_stats_get(sim, i, &fs), 0);
		if (gap_ns > 0) {
			/* marked from the first microseconds on: one CNP per gap */
			assert_true(fs.cnps >= 500 * US / gap_ns - 1);
			assert_true(fs.cnps <= 500 * US / gap_ns + 1);
		} else {
			/* no gap: one CNP per marked packet */
			assert_int_equal(fs.cnps, fs.ce_rx);
		}
		assert_true(fs.ce_rx > 1000);
	}
	sim_free(sim);
}

static void
test_cnp_gap(void **state)
{
	(void)state;
	cnp_gap_run(50 * US, "50us");
	cnp_gap_run(20 * US, "20us");
	cnp_gap_run(0, "0");
}

static void
test_probe_response(void **state)
{
	struct pcc_sim *sim = sim_from(ONE_TO_ONE "hosts: {np_turnaround: 500ns, probe_ts_size: "
						  "16}\n"
						  "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct pcc_sim_flow_info f = flow_info(sim, 0);
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp), *r[4];
	struct pcc_sim_flow_stats fs;
	struct pcc_pkt_info info;
	struct pcc_l3_spec l3;
	struct pcc_probe p, q;
	uint64_t t, recv, send;
	unsigned int n;
	int len;

	(void)state;
	assert_non_null(m);
	l3_of(&f, PCC_ECN_NOT_ECT, &l3);
	memset(&p, 0, sizeof(p));
	p.tid = 77;
	p.flow_tag = 1234;
	p.slot = 2;
	p.req_send_ts = 5;
	len = pcc_probe_req_build(
			rte_pktmbuf_mtod(m, void *), rte_pktmbuf_tailroom(m), &l3, f.qpn, &p, NULL);
	assert_true(len > 0);
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	t = ser((uint64_t)len, G100);
	recv = 2 * (t + 1000);
	send = recv + 500;
	assert_int_equal(pcc_sim_inject(sim, 0, m), 0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 0, r, 4);
	assert_int_equal(n, 1);
	parse_ok(r[0], &info, true);
	assert_int_equal(info.kind, PCC_PKT_PROBE_RESP);
	assert_int_equal(info.dqpn, f.qpn);
	assert_int_equal(info.src.v4, f.dst_ip);
	assert_int_equal(info.dst.v4, f.src_ip);
	assert_int_equal(pcc_probe_parse(rte_pktmbuf_mtod(r[0], void *), &info, &q, NULL), 0);
	assert_int_equal(q.tid, 77);
	assert_int_equal(q.flow_tag, 1234);
	assert_int_equal(q.slot, 2);
	assert_int_equal(q.req_send_ts, 5);
	assert_int_equal(q.np_recv_ts, recv);
	assert_int_equal(q.np_send_ts, send);
	assert_int_equal(q.flags, PCC_PROBE_F_RESPONSE | PCC_PROBE_F_HW_NP);
	assert_int_equal(q.resp_ts, send & 0xFFFF);
	/* the response leaves the NP at np_send_ts */
	assert_int_equal(rx_ts(sim, r[0]), send + 2 * (ser(r[0]->pkt_len, G100) + 1000));
	assert_int_equal(pcc_sim_flow_stats_get(sim, 0, &fs), 0);
	assert_int_equal(fs.probe_req, 1);
	assert_int_equal(fs.probe_resp, 1);
	free_all(r, n);
	sim_free(sim);
}

/* An IFA2 probe request of flow idx (the engine's ifa2 format, doc/wire.md 8.7). */
static struct rte_mbuf *
ifa2_probe(struct pcc_sim *sim, uint32_t idx, const struct pcc_probe *p)
{
	struct pcc_sim_flow_info f = flow_info(sim, idx);
	struct pcc_ifa2_hdr ih = { .ver = 2, .gns = 0xF, .max_len = 248 };
	struct pcc_ifa2_md_hdr md = { .req_vector = 0xFF, .hop_limit = 0xFE };
	struct rte_mbuf *m = udp_frame(sim, f.src_host, f.dst_host, 42 + PCC_PROBE_MAD_LEN);
	uint8_t *b = rte_pktmbuf_mtod(m, uint8_t *);

	put16(b + 34, f.udp_sport);
	put16(b + 36, PCC_ROCE_UDP_PORT);
	assert_int_equal(pcc_probe_mad_build(b + 42, PCC_PROBE_MAD_LEN, false, p, NULL),
			PCC_PROBE_MAD_LEN);
	ifa2_into(m, &ih, &md);
	return m;
}

/*
 * The hardware NP answers an IFA2 probe request as the engine's NP does:
 * turned around with its hops, TA set, a GET_RESP with its timestamps,
 * after np_turnaround; the return path adds its hop.  IFA that is no
 * request, at a receiver without an engine port, is dropped and counted.
 */
static void
test_ifa2_hw_np(void **state)
{
	struct pcc_sim *sim = sim_from(ONE_TO_ONE "switch: {ifa2: true}\n"
						  "hosts: {np_turnaround: 500ns}\n"
						  "flows: [{src: s0, dst: r0}]\n" COMMON);
	struct pcc_sim_flow_info fi = flow_info(sim, 0);
	struct pcc_ifa2_hop hop[2];
	struct pcc_sim_flow_stats fs;
	struct pcc_sim_stats st;
	struct pcc_pkt_info info;
	struct pcc_ifa2_info ii;
	struct rte_mbuf *m, *r[4];
	struct pcc_probe p, q;
	uint64_t len, recv, send;
	const uint8_t *f;
	unsigned int n;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.tid = 9;
	p.flow_tag = fi.qpn;
	p.req_send_ts = 5;
	m = ifa2_probe(sim, 0, &p);
	len = m->pkt_len;
	recv = ser(len, G100) + 1000 + ser(len + PCC_IFA2_HOP_LEN, G100) + 1000;
	send = recv + 500;
	assert_int_equal(pcc_sim_inject(sim, 0, m), 0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 0, r, 4);
	assert_int_equal(n, 1);
	f = rte_pktmbuf_mtod(r[0], const uint8_t *);
	parse_ok(r[0], &info, false);
	assert_int_equal(info.kind, PCC_PKT_IFA2);
	assert_int_equal(info.src.v4, fi.dst_ip);
	assert_int_equal(info.dst.v4, fi.src_ip);
	assert_int_equal(info.ttl, 64);
	assert_int_equal(pcc_ifa2_parse(f, r[0]->data_len, PCC_IFA2_PROTO_DEFAULT, &ii), 0);
	assert_int_equal(ii.hdr.flags, PCC_IFA2_F_TA);
	assert_int_equal(ii.n_hops, 2);
	assert_int_equal(pcc_ifa2_get_hop(f, r[0]->data_len, &ii, 0, &hop[0]), 0);
	assert_int_equal(pcc_ifa2_get_hop(f, r[0]->data_len, &ii, 1, &hop[1]), 0);
	/* sw0 both ways (incast: port 0 faces s0, port 1 r0); newest first */
	assert_int_equal(hop[0].device_id, 3);
	assert_int_equal(hop[0].ingress_port, 1);
	assert_int_equal(hop[0].rx_ns, send + ser(len + PCC_IFA2_HOP_LEN, G100) + 1000);
	assert_int_equal(hop[1].ingress_port, 0);
	assert_int_equal(hop[1].rx_ns, ser(len, G100) + 1000);
	assert_int_equal(pcc_probe_mad_parse(f + ii.payload_off, r[0]->data_len - ii.payload_off,
					 &q, NULL),
			PCC_PKT_PROBE_RESP);
	assert_int_equal(q.tid, 9);
	assert_int_equal(q.flow_tag, fi.qpn);
	assert_int_equal(q.req_send_ts, 5);
	assert_int_equal(q.np_recv_ts, recv);
	assert_int_equal(q.np_send_ts, send);
	assert_int_equal(q.flags, PCC_PROBE_F_RESPONSE | PCC_PROBE_F_HW_NP);
	assert_int_equal(rx_ts(sim, r[0]),
			send + ser(len + PCC_IFA2_HOP_LEN, G100) + 1000 +
					ser(len + 2 * PCC_IFA2_HOP_LEN, G100) + 1000);
	assert_int_equal(pcc_sim_flow_stats_get(sim, 0, &fs), 0);
	assert_int_equal(fs.probe_req, 1);
	assert_int_equal(fs.probe_resp, 1);
	free_all(r, n);
	/* IFA on data: r0's NP is the model and r0 has no port */
	assert_int_equal(pcc_sim_inject(sim, 0, ifa2_data(sim)), 0);
	assert_int_equal(pcc_sim_run(sim, 40 * US), 0);
	assert_int_equal(pcc_sim_stats_get(sim, &st), 0);
	assert_int_equal(st.ifa_dropped, 1);
	assert_int_equal(rx_all(sim, 0, r, 4), 0);
	sim_free(sim);
}

/* ---- ACKs ----------------------------------------------------------------------------------- */

static void
check_ack(const struct rte_mbuf *m, uint32_t qpn, uint32_t psn, uint32_t msn, bool nak)
{
	struct pcc_pkt_info info;

	parse_ok(m, &info, true);
	assert_int_equal(info.kind, nak ? PCC_PKT_ROCE_NAK : PCC_PKT_ROCE_ACK);
	assert_int_equal(info.opcode, PCC_OP_RC_ACK);
	assert_int_equal(info.dqpn, qpn);
	assert_int_equal(info.psn, psn);
	if (!nak)
		assert_int_equal(info.aeth_msn, msn);
	else
		assert_int_equal(info.aeth_syndrome, 0x60);
	assert_int_equal(info.ecn, PCC_ECN_NOT_ECT);
}

static void
test_acks(void **state)
{
	struct pcc_sim *sim;
	struct pcc_sim_flow_info f;
	struct rte_mbuf *a[32];
	uint64_t t8;
	unsigned int n, i;

	(void)state;
	/* per packet */
	sim = sim_from(ONE_TO_ONE "flows: [{src: s0, dst: r0}]\n" COMMON);
	f = flow_info(sim, 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(pcc_sim_inject(sim, 0,
						 data_pkt(sim, 0, i, 100, PCC_ECN_ECT0, false,
								 false)),
				0);
	assert_int_equal(pcc_sim_run(sim, 20 * US), 0);
	n = rx_all(sim, 0, a, 32);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++)
		check_ack(a[i], f.qpn, i, i + 1, false);
	free_all(a, n);
	sim_free(sim);

	/* coalesced: every 4, the rest after the 10 us timeout, AckReq at once */
	sim = sim_from(ONE_TO_ONE "hosts: {ack_every: 4, ack_timeout: 10us}\n"
				  "flows: [{src: s0, dst: r0}]\n" COMMON);
	f = flow_info(sim, 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(pcc_sim_inject(sim, 0,
						 data_pkt(sim, 0, i, 100, PCC_ECN_ECT0, false,
								 false)),
				0);
	assert_int_equal(pcc_sim_run(sim, 5 * US), 0);
	n = rx_all(sim, 0, a, 32);
	assert_int_equal(n, 2);
	check_ack(a[0], f.qpn, 3, 4, false);
	check_ack(a[1], f.qpn, 7, 8, false);
	/* frame 8 reached r0 after at least the two 1 us links */
	t8 = 2 * 1000;
	free_all(a, n);
	assert_int_equal(pcc_sim_run(sim, 30 * US), 0);
	n = rx_all(sim, 0, a, 32);
	assert_int_equal(n, 1);
	check_ack(a[0], f.qpn, 9, 10, false);
	assert_true(rx_ts(sim, a[0]) >= 10 * US + t8);
	free_all(a, n);
	assert_int_equal(pcc_sim_inject(sim, 0,
					 data_pkt(sim, 0, 10, 100, PCC_ECN_ECT0, false, true)),
			0);
	assert_int_equal(pcc_sim_run(sim, 35 * US), 0);
	n = rx_all(sim, 0, a, 32);
	assert_int_equal(n, 1);
	check_ack(a[0], f.qpn, 10, 11, false);
	free_all(a, n);
	/* a PSN gap: one NAK naming the expected PSN, then the ACK (AckReq) */
	assert_int_equal(pcc_sim_inject(sim, 0,
					 data_pkt(sim, 0, 15, 100, PCC_ECN_ECT0, false, true)),
			0);
	assert_int_equal(pcc_sim_run(sim, 40 * US), 0);
	n = rx_all(sim, 0, a, 32);
	assert_int_equal(n, 2);
	check_ack(a[0], f.qpn, 11, 0, true);
	check_ack(a[1], f.qpn, 15, 12, false);
	free_all(a, n);
	sim_free(sim);
}

static int
group_setup(void **state)
{
	(void)state;
	return sim_pkt_setup("test_sim_np");
}

static int
group_teardown(void **state)
{
	(void)state;
	sim_pkt_teardown();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_stamping),
		cmocka_unit_test(test_ifa2_stamping),
		cmocka_unit_test(test_ifa2_hop_profiles),
		cmocka_unit_test(test_ifa2_profile_per_switch),
		cmocka_unit_test(test_cnp_gap),
		cmocka_unit_test(test_probe_response),
		cmocka_unit_test(test_ifa2_hw_np),
		cmocka_unit_test(test_acks),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
