/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The RP's CC lane (worker.c: CNPs and RC ACK/NAKs recognised by
 * pcc_cc_match(), not parsed) against the parsed path, through a whole
 * engine: one lcore, an RP port on a ring pair, flows made by the
 * generator.  The same frames — CNPs with and without a VLAN tag, ACKs
 * with and without an INT header, RNR and sequence-error NAKs, other
 * NAKs, frames with a bad ICRC, a CNP with IP options, a CNP one pad
 * byte short, a CNP to a QP without a flow — are sent once in one
 * segment each (the lane takes what it can) and once each split over two
 * segments (pcc_cc_match() is not tried on chains: every frame parsed).
 * The port's counters (kinds, fates, events, parse errors, ICRC drops)
 * and every flow's must come out the same, and as expected.  No timing:
 * the peer waits for the counters.  EAL "-l 0" without hugepages.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "engine_internal.h"
#include "pcc_algos.h"
#include "pcc_proto.h"
#include "test_eal.h"
#include "test_engine_peer.h"

#define NB_FLOWS 64
#define QPN_BASE 0x400
/* frames sent per flow (frame()) */
#define PER_FLOW 10

static struct rte_mempool *mp;

struct peer {
	struct pcc_engine *e;
	uint16_t pa, pb;
	bool chain;
	uint32_t next, nb_frames;
	bool done, timeout;
	uint64_t deadline;
	struct pcc_l3_spec l3;
};

/* Frame k of flow qpn in buf; its length. */
static int
frame(struct peer *p, uint32_t qpn, unsigned int k, uint8_t *buf, uint32_t cap)
{
	struct pcc_l3_spec l3 = p->l3;
	struct pcc_roce_spec rs;
	uint8_t int_raw[PCC_INT_HDR_LEN + 8];
	int len;

	memset(&rs, 0, sizeof(rs));
	rs.bth.dqpn = qpn;
	rs.bth.psn = qpn * 16 + k;
	rs.bth.opcode = PCC_OP_RC_ACK;
	l3.udp_sport = pcc_roce_udp_sport(qpn, qpn);
	l3.ttl = (uint8_t)(10 + k);
	switch (k) {
	case 0: /* CNP */
		return pcc_cnp_build(buf, cap, &l3, qpn);
	case 1: /* CNP with a VLAN tag */
		l3.vlan = true;
		l3.vlan_tci = 7;
		return pcc_cnp_build(buf, cap, &l3, qpn);
	case 2: /* ACK */
		rs.aeth.syndrome = 0x1f;
		break;
	case 3: /* ACK with an INT header */
		memset(int_raw, 0, sizeof(int_raw));
		rs.bth.flags = PCC_BTH_INT;
		rs.aeth.syndrome = 0x1f;
		rs.payload = int_raw;
		rs.payload_len = sizeof(int_raw);
		break;
	case 4: /* RNR NAK */
		rs.aeth.syndrome = 0x20 | 3;
		break;
	case 5: /* NAK: PSN sequence error */
		rs.aeth.syndrome = 0x60;
		break;
	case 6: /* NAK: remote access error (no congestion) */
		rs.aeth.syndrome = 0x62;
		break;
	case 7: /* ACK with a bad ICRC */
		rs.aeth.syndrome = 0x1f;
		len = pcc_roce_build(buf, cap, &l3, &rs);
		buf[len - 1] ^= 0x5a;
		return len;
	case 8: /* CNP with a bad ICRC */
		len = pcc_cnp_build(buf, cap, &l3, qpn);
		buf[len - 2] ^= 0x01;
		return len;
	default: /* CNP one pad byte short: malformed */
		len = pcc_cnp_build(buf, cap, &l3, qpn);
		buf[14 + 3] = (uint8_t)(buf[14 + 3] - 1);           /* IPv4 total length */
		buf[14 + 20 + 5] = (uint8_t)(buf[14 + 20 + 5] - 1); /* UDP length */
		memmove(buf + len - 5, buf + len - 4, 4);
		return len - 1;
	}
	return pcc_roce_build(buf, cap, &l3, &rs);
}

/* An mbuf of the frame; split after 30 bytes when p->chain. */
static struct rte_mbuf *
frame_mbuf(struct peer *p, uint32_t qpn, unsigned int k)
{
	uint8_t buf[256];
	struct rte_mbuf *m, *m2;
	int len = frame(p, qpn, k, buf, sizeof(buf));

	assert_true(len > 30);
	m = rte_pktmbuf_alloc(mp);
	assert_non_null(m);
	if (!p->chain) {
		memcpy(rte_pktmbuf_mtod(m, uint8_t *), buf, (size_t)len);
		m->data_len = m->pkt_len = (uint32_t)len;
		return m;
	}
	m2 = rte_pktmbuf_alloc(mp);
	assert_non_null(m2);
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), buf, 30);
	m->data_len = 30;
	memcpy(rte_pktmbuf_mtod(m2, uint8_t *), buf + 30, (size_t)len - 30);
	m2->data_len = (uint16_t)(len - 30);
	m->next = m2;
	m->nb_segs = 2;
	m->pkt_len = (uint32_t)len;
	return m;
}

static int
peer_tick(void *arg)
{
	struct peer *p = arg;
	struct pcc_engine_port_stats st;
	unsigned int k;

	peer_drain(p->pb, 1);
	if (rte_rdtsc() > p->deadline) {
		p->timeout = true;
		return 1;
	}
	if (pcc_engine_flow_count(p->e) < NB_FLOWS)
		return 0;
	for (k = 0; k < 32 && p->next < p->nb_frames; k++, p->next++) {
		/* a frame of every kind for a flow in turn; the last flow's
		 * QPN has no flow */
		uint32_t f = p->next % (NB_FLOWS + 1), kind = p->next / (NB_FLOWS + 1);
		struct rte_mbuf *m = frame_mbuf(p, QPN_BASE + f, kind);

		assert_int_equal(rte_eth_tx_burst(p->pb, 0, &m, 1), 1);
	}
	pcc_engine_port_stats_get(p->e, p->pa, &st);
	if (st.rx_pkts < p->nb_frames)
		return 0;
	p->done = true;
	return 1;
}

/* Run the frames through an engine; its port's and flows' counters. */
static void
run(bool chain, struct pcc_engine_port_stats *st, struct pcc_engine_flow_info *fi)
{
	static struct pcc_engine_conf conf;
	static struct peer p;
	struct pcc_engine_gen_group grp;
	struct pcc_engine_rxq_conf rxq;
	struct pcc_ring_pair *rp;
	uint32_t i;

	rp = pcc_ring_pair_create(chain ? "cc_chain" : "cc_lane", 1, 1, 4096, (int)rte_socket_id());
	assert_non_null(rp);
	memset(&p, 0, sizeof(p));
	p.chain = chain;
	p.nb_frames = (NB_FLOWS + 1) * PER_FLOW;
	p.pa = pcc_ring_pair_port(rp, 0);
	p.pb = pcc_ring_pair_port(rp, 1);
	peer_port_start(p.pb, 1, 4096, mp);

	pcc_engine_conf_default(&conf);
	conf.port[p.pa].roles = PCC_ENGINE_ROLE_RP;
	rxq.port_id = p.pa;
	rxq.queue_id = 0;
	rxq.lcore_id = rte_get_main_lcore();
	conf.rxq = &rxq;
	conf.nb_rxq_conf = 1;
	conf.nb_rxq = 1;
	conf.nb_mbufs = 8192;
	conf.flow.capacity = 4 * NB_FLOWS;
	conf.flow.idle_ms = 0;
	peer_gen_flows(&conf, &grp, p.pa, NB_FLOWS, QPN_BASE);
	peer_l3_init(&p.l3);
	p.deadline = rte_rdtsc() + 60 * rte_get_tsc_hz(); /* a hang, not a timing */
	p.e = pcc_engine_create(&conf);
	assert_non_null(p.e);
	assert_int_equal(pcc_engine_start(p.e), 0);
	pcc_engine_main_loop(p.e, peer_tick, &p, 10);
	pcc_engine_stop(p.e);
	pcc_engine_wait(p.e);
	assert_false(p.timeout);
	assert_true(p.done);
	pcc_engine_port_stats_get(p.e, p.pa, st);
	for (i = 0; i < NB_FLOWS; i++) {
		struct pcc_engine_flow_key key;

		pcc_engine_flow_key_qp(&key, p.pa, QPN_BASE + i);
		assert_int_equal(pcc_engine_flow_get(p.e, &key, &fi[i]), 0);
	}
	pcc_engine_destroy(p.e);
	rte_eth_dev_stop(p.pb);
	pcc_ring_pair_free(rp);
}

static void
test_cc_lane_equals_parse(void **state)
{
	static struct pcc_engine_flow_info fa[NB_FLOWS], fb[NB_FLOWS];
	struct pcc_engine_port_stats a, b;
	const uint64_t nf = NB_FLOWS + 1;
	unsigned int i;

	(void)state;
	run(false, &a, fa);
	run(true, &b, fb);
	/* what came in, by kind and fate */
	assert_memory_equal(a.rx_kind, b.rx_kind, sizeof(a.rx_kind));
	assert_memory_equal(a.rx_fate, b.rx_fate, sizeof(a.rx_fate));
	assert_memory_equal(a.parse_err, b.parse_err, sizeof(a.parse_err));
	assert_memory_equal(a.ev, b.ev, sizeof(a.ev));
	assert_int_equal(a.rx_pkts, b.rx_pkts);
	assert_int_equal(a.rx_bytes, b.rx_bytes);
	assert_int_equal(a.rp_no_flow, b.rp_no_flow);
	assert_int_equal(a.nack_other, b.nack_other);
	/* and as expected: 3 CNPs, 2 ACKs, 3 NAKs, 2 bad ICRCs, 1 short a QP */
	assert_int_equal(a.rx_kind[PCC_PKT_CNP], 3 * nf);
	assert_int_equal(a.rx_kind[PCC_PKT_ROCE_ACK], 3 * nf);
	assert_int_equal(a.rx_kind[PCC_PKT_ROCE_NAK], 3 * nf);
	assert_int_equal(a.parse_err[-PCC_PROTO_ERR_BAD_LENGTH], nf);
	assert_int_equal(a.rx_fate[PCC_ENGINE_FATE_ICRC_ACK], nf);
	assert_int_equal(a.rx_fate[PCC_ENGINE_FATE_ICRC_CNP], nf);
	assert_int_equal(a.rx_fate[PCC_ENGINE_FATE_CC_EVENT], 7 * nf);
	assert_int_equal(a.rp_no_flow, 7);
	assert_int_equal(a.nack_other, NB_FLOWS);
	assert_int_equal(a.ev[PCC_DEV_EVENT_CNP], 2 * NB_FLOWS);
	assert_int_equal(a.ev[PCC_DEV_EVENT_ACK], 2 * NB_FLOWS);
	assert_int_equal(a.ev[PCC_DEV_EVENT_NACK], 2 * NB_FLOWS);
	for (i = 0; i < NB_FLOWS; i++) {
		assert_int_equal(fa[i].cnp_rx, 2);
		assert_int_equal(fa[i].ack_rx, 2);
		assert_int_equal(fa[i].nack_rx, 3);
		assert_int_equal(fa[i].cnp_rx, fb[i].cnp_rx);
		assert_int_equal(fa[i].ack_rx, fb[i].ack_rx);
		assert_int_equal(fa[i].nack_rx, fb[i].nack_rx);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cc_lane_equals_parse),
	};
	int ret;

	mp = peer_env_init("test_engine_cc", "0", "cc_peer", 4095);
	if (mp == NULL)
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	rte_mempool_free(mp);
	test_eal_cleanup();
	return ret;
}
