/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the NP runner and the probe formats (lib/engine/np.c,
 * probe.c) through their engine interface (engine_np.h), on a hand-built
 * engine: one NP port, one lcore, a fake port clock.  CNP gap per QP,
 * DSCP and 802.1Q priority, sender QPN (offset, static map, learned from
 * received and transmitted traffic), CNP ICRC, probe round trips with a
 * fake NP handler (user data, DSCP, timestamps, response timestamp),
 * handler errors, hardware- vs software-NP requests, IFA2 GNS selection,
 * IFA1 by marker, every probe format built and parsed back, the CCMAD
 * fast path against the generic path.  No timing:
 * every time is given.  EAL without hugepages.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "engine_internal.h"
#include "engine_np.h"
#include "np_internal.h"
#include "pcc_np.h"
#include "test_eal.h"

#define NP_PORT 3 /* ethdev port id of the NP port (no device behind it) */
#define DATA_QPN 0x000123
#define PEER_QPN 0x000456
#define US 1000ull

static struct rte_mempool *mp;

static uint16_t
be16_of(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static uint32_t
be32_of(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* ---- Fixture: an engine with one NP port polled by one lcore ---------------- */

static struct pcc_engine *eng;
static struct eng_lcore *lc;
static struct eng_clock clk;
static struct pcc_engine_port_stats pstats;
static uint64_t fake_clock_ns;

static uint64_t
fake_now(void *arg)
{
	(void)arg;
	return fake_clock_ns;
}

static const struct eng_rxq *
rxq(void)
{
	return &lc->rxq[0];
}

static struct eng_lport test_lp;

/* The port's NP settings and probe formats, and the lcore's copy of
 * these (ctl.c), from eng->conf.np and eng->conf.probe[]. */
static void
sync_ports(void)
{
	eng->ports[0].np = eng->conf.np;
	memcpy(eng->ports[0].probe, eng->conf.probe, sizeof(eng->ports[0].probe));
	memcpy(test_lp.probe, eng->conf.probe, sizeof(test_lp.probe));
}

/* eng_np_init() after sync_ports(). */
static int
np_init_synced(void)
{
	sync_ports();
	return eng_np_init(eng);
}

/* Engine with NP conf np (NULL: defaults) and probe slots (NULL: CCMAD). */
static void
fixture(const struct pcc_engine_np_conf *np, const struct pcc_engine_probe_conf *probes,
		uint8_t roles)
{
	struct eng_rxq *q;
	unsigned int i;

	eng = rte_zmalloc(NULL, sizeof(*eng), RTE_CACHE_LINE_SIZE);
	assert_non_null(eng);
	pcc_engine_conf_default(&eng->conf);
	if (np != NULL)
		eng->conf.np = *np;
	if (probes != NULL)
		memcpy(eng->conf.probe, probes, sizeof(eng->conf.probe));
	pcc_parse_opts_default(&eng->popts);
	for (i = 0; i < RTE_MAX_ETHPORTS; i++)
		eng->pidx[i] = -1;
	eng->nb_ports = 1;
	eng->pidx[NP_PORT] = 0;
	eng->ports[0].port_id = NP_PORT;
	eng->ports[0].roles = roles;
	memset(&clk, 0, sizeof(clk));
	clk.src = PCC_ENGINE_CLOCK_REGISTERED;
	clk.fn = fake_now;
	clk.ts_off = -1;
	eng->ports[0].clk = clk;
	memset(&pstats, 0, sizeof(pstats));

	lc = rte_zmalloc(NULL, sizeof(*lc), RTE_CACHE_LINE_SIZE);
	assert_non_null(lc);
	lc->e = eng;
	lc->lcore_id = 0;
	lc->pctr = &pstats;
	memset(lc->lport_of, ENG_NO_LPORT, sizeof(lc->lport_of));
	q = &lc->rxq[0];
	q->port_id = NP_PORT;
	q->pidx = 0;
	q->roles = roles;
	q->mp = mp;
	q->clk = &eng->ports[0].clk;
	lc->nb_rxq = 1;
	eng->lcores[0] = lc;
	eng->by_rank[0] = lc;
	eng->nb_lcores = 1;
	/* the RP side's probes are built on lport 0 (not counted in
	 * nb_lports: nothing else of it is set up) */
	memset(&test_lp, 0, sizeof(test_lp));
	test_lp.port_id = NP_PORT;
	lc->lports[0] = &test_lp;
	assert_int_equal(np_init_synced(), 0);
}

static void
fixture_np(const struct pcc_engine_np_conf *np)
{
	fixture(np, NULL, PCC_ENGINE_ROLE_NP);
}

static void
np_conf(struct pcc_engine_np_conf *np)
{
	struct pcc_engine_conf c;

	pcc_engine_conf_default(&c);
	*np = c.np;
}

static int
teardown(void **state)
{
	(void)state;
	if (eng != NULL) {
		eng_np_fini(eng);
		rte_free(eng);
	}
	rte_free(lc);
	eng = NULL;
	lc = NULL;
	return 0;
}

static struct pcc_engine_np_stats
np_stats(void)
{
	struct pcc_engine_np_stats st;

	assert_int_equal(pcc_engine_np_stats_get(eng, NP_PORT, &st), 0);
	return st;
}

/* ---- Packets ------------------------------------------------------------------ */

static void
l3_a_to_b(struct pcc_l3_spec *l3, bool v6, bool vlan)
{
	static const uint8_t a6[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	static const uint8_t b6[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };
	static const uint8_t ma[6] = { 0x02, 0, 0, 0, 0, 0x0a };
	static const uint8_t mb[6] = { 0x02, 0, 0, 0, 0, 0x0b };

	memset(l3, 0, sizeof(*l3));
	memcpy(l3->src_mac, ma, 6);
	memcpy(l3->dst_mac, mb, 6);
	l3->ipv6 = v6;
	if (v6) {
		memcpy(l3->src.v6, a6, 16);
		memcpy(l3->dst.v6, b6, 16);
	} else {
		l3->src.v4 = 0x0a000001;
		l3->dst.v4 = 0x0a000002;
	}
	l3->vlan = vlan;
	l3->vlan_tci = vlan ? (uint16_t)((2u << 13) | 0x123) : 0;
	l3->dscp = 26;
	l3->ecn = PCC_ECN_ECT0;
	l3->udp_sport = pcc_roce_udp_sport(DATA_QPN, PEER_QPN);
}

/* The reverse direction of l3 (b -> a), same UDP source port. */
static void
l3_reverse(const struct pcc_l3_spec *in, struct pcc_l3_spec *out)
{
	*out = *in;
	memcpy(out->src_mac, in->dst_mac, 6);
	memcpy(out->dst_mac, in->src_mac, 6);
	out->src = in->dst;
	out->dst = in->src;
}

static struct rte_mbuf *
mbuf_of(const uint8_t *f, int len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);

	assert_non_null(m);
	assert_true(len > 0);
	memcpy(rte_pktmbuf_append(m, (uint16_t)len), f, (size_t)len);
	return m;
}

/* RC RDMA WRITE_ONLY to dqpn with PSN psn and ECN ecn. */
static struct rte_mbuf *
data_pkt(const struct pcc_l3_spec *l3in, uint32_t dqpn, uint32_t psn, uint8_t ecn)
{
	struct pcc_l3_spec l3 = *l3in;
	struct pcc_roce_spec rs;
	uint8_t f[2048];

	l3.ecn = ecn;
	memset(&rs, 0, sizeof(rs));
	rs.bth.opcode = PCC_OP_RC_RDMA_WRITE_ONLY;
	rs.bth.pkey = 0xffff;
	rs.bth.dqpn = dqpn;
	rs.bth.psn = psn;
	rs.reth.dma_len = 64;
	rs.payload_len = 64;
	return mbuf_of(f, pcc_roce_build(f, sizeof(f), &l3, &rs));
}

/* RC ACK to dqpn. */
static struct rte_mbuf *
ack_pkt(const struct pcc_l3_spec *l3, uint32_t dqpn)
{
	struct pcc_roce_spec rs;
	uint8_t f[512];

	memset(&rs, 0, sizeof(rs));
	rs.bth.opcode = PCC_OP_RC_ACK;
	rs.bth.pkey = 0xffff;
	rs.bth.dqpn = dqpn;
	return mbuf_of(f, pcc_roce_build(f, sizeof(f), l3, &rs));
}

/* Parse m with the engine's options (ICRC checked when it is RoCE). */
static int
parse(const struct rte_mbuf *m, struct pcc_pkt_info *info)
{
	struct pcc_parse_opts o = eng->popts;

	o.check_icrc = true;
	o.check_ip_csum = true;
	return pcc_parse_mbuf(m, &o, info);
}

/*
 * Run packets through eng_np_rx at now: returns the number of answers in
 * out[] (parsed into oinfo[] when not NULL).
 */
static uint16_t
np_run(struct rte_mbuf **pkts, uint16_t n, uint64_t now, struct rte_mbuf **out)
{
	struct pcc_pkt_info infos[16];
	uint16_t i;

	assert_true(n <= 16);
	for (i = 0; i < n; i++)
		assert_int_equal(parse(pkts[i], &infos[i]), 0);
	return eng_np_rx(lc, rxq(), pkts, infos, n, now, out, 16);
}

static uint16_t
np_run1(struct rte_mbuf *m, uint64_t now, struct rte_mbuf **out)
{
	return np_run(&m, 1, now, out);
}

static void
free_out(struct rte_mbuf **out, uint16_t n)
{
	rte_pktmbuf_free_bulk(out, n);
}

/* ---- CNPs ------------------------------------------------------------------------ */

static void
check_cnp(struct rte_mbuf *c, const struct pcc_l3_spec *data_l3, uint32_t dqpn, uint8_t dscp)
{
	struct pcc_pkt_info in;

	/* parse() checks the ICRC and the IPv4 header checksum */
	assert_int_equal(parse(c, &in), 0);
	assert_int_equal(in.kind, PCC_PKT_CNP);
	assert_true(in.flags & PCC_PKT_F_ICRC_OK);
	assert_int_equal(in.opcode, PCC_OP_CNP);
	assert_int_equal(in.dqpn, dqpn);
	assert_int_equal(in.bth_flags, PCC_BTH_BECN);
	assert_int_equal(in.pkey, 0xffff);
	assert_int_equal(in.psn, 0);
	assert_int_equal(in.payload_len, PCC_CNP_PAD_LEN);
	assert_int_equal(in.dscp, dscp);
	assert_int_equal(in.ecn, PCC_ECN_NOT_ECT);
	assert_int_equal(in.udp_sport, data_l3->udp_sport);
	/* back to the sender */
	if (data_l3->ipv6) {
		assert_memory_equal(in.dst.v6, data_l3->src.v6, 16);
		assert_memory_equal(in.src.v6, data_l3->dst.v6, 16);
	} else {
		assert_int_equal(in.dst.v4, data_l3->src.v4);
		assert_int_equal(in.src.v4, data_l3->dst.v4);
		assert_int_equal(rte_pktmbuf_pkt_len(c), 14 + (data_l3->vlan ? 4 : 0) + 60);
	}
	assert_memory_equal(rte_pktmbuf_mtod(c, uint8_t *), data_l3->src_mac, 6);
}

/* Two marks within the gap: one CNP; after the gap: another; per QP. */
static void
test_cnp_gap(void **state)
{
	struct pcc_l3_spec l3;
	struct rte_mbuf *out[16], *in[3];
	struct pcc_engine_np_stats st;
	uint64_t t0 = 1000000;

	(void)state;
	fixture_np(NULL);
	l3_a_to_b(&l3, false, false);
	/* default gap: 50 us */
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 1, PCC_ECN_CE), t0, out), 1);
	check_cnp(out[0], &l3, DATA_QPN, 48);
	free_out(out, 1);
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 2, PCC_ECN_CE), t0 + 49 * US, out), 0);
	/* another QP is not held back by the first one's gap */
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN + 1, 1, PCC_ECN_CE), t0 + 49 * US, out), 1);
	free_out(out, 1);
	/* unmarked data never gets a CNP */
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 3, PCC_ECN_ECT0), t0 + 60 * US, out), 0);
	/* the gap counts from the last CNP sent, not from the suppressed mark */
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 4, PCC_ECN_CE), t0 + 50 * US, out), 1);
	free_out(out, 1);
	/* three in one burst: one CNP */
	in[0] = data_pkt(&l3, DATA_QPN, 5, PCC_ECN_CE);
	in[1] = data_pkt(&l3, DATA_QPN, 6, PCC_ECN_CE);
	in[2] = data_pkt(&l3, DATA_QPN, 7, PCC_ECN_CE);
	assert_int_equal(np_run(in, 3, t0 + 200 * US, out), 1);
	free_out(out, 1);
	st = np_stats();
	assert_int_equal(st.ce_rx, 7);
	assert_int_equal(st.cnp_tx, 4);
	assert_int_equal(st.cnp_gap, 3);
	assert_int_equal(pstats.ce_rx, 7);
	assert_int_equal(pstats.cnp_tx, 4);
	teardown(NULL);
}

static void
test_cnp_gap_conf(void **state)
{
	struct pcc_engine_np_conf np;
	struct pcc_l3_spec l3;
	struct rte_mbuf *out[16];
	uint32_t i;

	(void)state;
	/* 10 us */
	np_conf(&np);
	np.cnp_gap_us = 10;
	fixture_np(&np);
	l3_a_to_b(&l3, false, false);
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 1, PCC_ECN_CE), 1000 * US, out), 1);
	free_out(out, 1);
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 2, PCC_ECN_CE), 1009 * US, out), 0);
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 3, PCC_ECN_CE), 1010 * US, out), 1);
	free_out(out, 1);
	teardown(NULL);

	/* no gap: a CNP for every mark */
	np.cnp_gap_us = PCC_ENGINE_NP_NO_GAP;
	fixture_np(&np);
	for (i = 0; i < 5; i++) {
		assert_int_equal(
				np_run1(data_pkt(&l3, DATA_QPN, i, PCC_ECN_CE), 1000 * US, out), 1);
		free_out(out, 1);
	}
	teardown(NULL);

	/* CNPs off: counted, nothing sent */
	np_conf(&np);
	np.cnp = false;
	fixture_np(&np);
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 1, PCC_ECN_CE), 1000 * US, out), 0);
	assert_int_equal(np_stats().cnp_off, 1);
	assert_int_equal(np_stats().ce_rx, 1);
	teardown(NULL);
}

/* DSCP and 802.1Q priority of CNPs; the VID of the data is kept. */
static void
test_cnp_dscp_pcp(void **state)
{
	struct pcc_engine_np_conf np;
	struct pcc_l3_spec l3;
	struct pcc_pkt_info in;
	struct rte_mbuf *out[16];
	int v6;

	(void)state;
	for (v6 = 0; v6 < 2; v6++) {
		/* defaults: DSCP 48, PCP 6 */
		fixture_np(NULL);
		l3_a_to_b(&l3, v6, true);
		assert_int_equal(
				np_run1(data_pkt(&l3, DATA_QPN, 1, PCC_ECN_CE), 1000 * US, out), 1);
		check_cnp(out[0], &l3, DATA_QPN, 48);
		assert_int_equal(parse(out[0], &in), 0);
		assert_true(in.flags & PCC_PKT_F_VLAN);
		assert_int_equal(in.vlan_tci, (6u << 13) | 0x123);
		free_out(out, 1);
		teardown(NULL);

		np_conf(&np);
		np.cnp_dscp = 7;
		np.cnp_pcp_set = true;
		np.cnp_pcp = 3;
		fixture_np(&np);
		assert_int_equal(
				np_run1(data_pkt(&l3, DATA_QPN, 1, PCC_ECN_CE), 1000 * US, out), 1);
		check_cnp(out[0], &l3, DATA_QPN, 7);
		assert_int_equal(parse(out[0], &in), 0);
		assert_int_equal(in.vlan_tci, (3u << 13) | 0x123);
		free_out(out, 1);
		/* untagged data: untagged CNP */
		l3_a_to_b(&l3, v6, false);
		assert_int_equal(
				np_run1(data_pkt(&l3, DATA_QPN + 1, 1, PCC_ECN_CE), 1000 * US, out),
				1);
		assert_int_equal(parse(out[0], &in), 0);
		assert_false(in.flags & PCC_PKT_F_VLAN);
		free_out(out, 1);
		teardown(NULL);
	}
}

/* CNP DestQP: offset rule, static map, learned from reverse traffic. */
static void
test_sender_qpn(void **state)
{
	struct pcc_engine_np_sqpn map[] = { { DATA_QPN + 2, 0x777 }, { DATA_QPN + 3, 0x778 } };
	struct pcc_engine_np_conf np;
	struct pcc_l3_spec l3, rev, other;
	struct pcc_engine_np_stats st;
	struct rte_mbuf *out[16];
	uint64_t t = 1000 * US, learned;

	(void)state;
	np_conf(&np);
	np.sqpn_offset = 0x10;
	np.sqpn_map = map;
	np.nb_sqpn_map = 2;
	fixture_np(&np);
	l3_a_to_b(&l3, false, false);
	l3_reverse(&l3, &rev);

	/* nothing known: offset rule */
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 1, PCC_ECN_CE), t, out), 1);
	check_cnp(out[0], &l3, DATA_QPN + 0x10, 48);
	free_out(out, 1);
	/* configured */
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN + 3, 1, PCC_ECN_CE), t, out), 1);
	check_cnp(out[0], &l3, 0x778, 48);
	free_out(out, 1);

	/* (received data a -> b teaches b's QP, useless for CNPs to a) */
	learned = np_stats().learned;
	assert_int_equal(learned, 2);
	/* an ACK the other way (b -> a, same UDP source port) names a's QP:
	 * learned, and used for the next CNP to a */
	t += 100 * US;
	assert_int_equal(np_run1(ack_pkt(&rev, PEER_QPN), t, out), 0);
	assert_int_equal(np_stats().learned, learned + 1);
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 2, PCC_ECN_CE), t, out), 1);
	check_cnp(out[0], &l3, PEER_QPN, 48);
	free_out(out, 1);
	learned = np_stats().learned;
	/* the same ACK again changes nothing */
	assert_int_equal(np_run1(ack_pkt(&rev, PEER_QPN), t, out), 0);
	assert_int_equal(np_stats().learned, learned);
	/* data the other way teaches the same (and a change wins) */
	assert_int_equal(np_run1(data_pkt(&rev, PEER_QPN + 1, 9, PCC_ECN_ECT0), t, out), 0);
	t += 100 * US;
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 3, PCC_ECN_CE), t, out), 1);
	check_cnp(out[0], &l3, PEER_QPN + 1, 48);
	free_out(out, 1);
	/* another UDP source port (another QP pair) is not that QP */
	other = l3;
	other.udp_sport = (uint16_t)(l3.udp_sport ^ 1);
	assert_int_equal(np_run1(data_pkt(&other, DATA_QPN + 5, 1, PCC_ECN_CE), t, out), 1);
	check_cnp(out[0], &other, DATA_QPN + 5 + 0x10, 48);
	free_out(out, 1);
	/* the static map wins over learning */
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN + 2, 1, PCC_ECN_CE), t, out), 1);
	check_cnp(out[0], &l3, 0x777, 48);
	free_out(out, 1);
	st = np_stats();
	assert_int_equal(st.sqpn_offset, 2);
	assert_int_equal(st.sqpn_map, 2);
	assert_int_equal(st.sqpn_learned, 2);
	teardown(NULL);

	/* learning off: the offset rule even after reverse traffic */
	np.learn_off = true;
	fixture_np(&np);
	assert_int_equal(np_run1(ack_pkt(&rev, PEER_QPN), t, out), 0);
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 1, PCC_ECN_CE), t, out), 1);
	check_cnp(out[0], &l3, DATA_QPN + 0x10, 48);
	free_out(out, 1);
	assert_int_equal(np_stats().learned, 0);
	teardown(NULL);
}

/* Learning from what the port transmits (the TX callback), IPv6. */
static void
test_learn_tx(void **state)
{
	struct pcc_engine_np_conf np;
	struct pcc_l3_spec l3, rev;
	struct rte_mbuf *out[16], *tx[2];
	struct np_lcore *nl;
	struct np_txcb cb;
	uint64_t learned;

	(void)state;
	np_conf(&np);
	fixture(&np, NULL, PCC_ENGINE_ROLE_NP | PCC_ENGINE_ROLE_RP);
	nl = lc->np;
	l3_a_to_b(&l3, true, true);
	l3_reverse(&l3, &rev);
	/* our own data to a (b -> a) and a CNP: only the data teaches */
	memset(&cb, 0, sizeof(cb));
	cb.np = nl->np;
	cb.ctr = &nl->ctr[0];
	cb.pidx = 0;
	tx[0] = data_pkt(&rev, PEER_QPN, 1, PCC_ECN_ECT0);
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 1, PCC_ECN_CE), 1000 * US, out), 1);
	tx[1] = out[0];
	check_cnp(tx[1], &l3, DATA_QPN, 48);
	learned = np_stats().learned; /* the received data: b's QP */
	assert_int_equal(np_tx_learn_cb(NP_PORT, 0, tx, 2, &cb), 2);
	assert_int_equal(np_stats().learned, learned + 1);
	free_out(tx, 2);
	assert_int_equal(np_run1(data_pkt(&l3, DATA_QPN, 2, PCC_ECN_CE), 2000 * US, out), 1);
	check_cnp(out[0], &l3, PEER_QPN, 48);
	free_out(out, 1);
	assert_int_equal(np_stats().sqpn_learned, 1);
	teardown(NULL);
}

/* The learned table alone: keys, tags, misses. */
static void
test_learn_table(void **state)
{
	struct np_learn_key k;
	struct np_shared *np;

	(void)state;
	fixture_np(NULL);
	np = eng->np;
	assert_non_null(np->learn_tbl);
	memset(&k, 0, sizeof(k));
	k.owner[0] = 10;
	k.peer[0] = 11;
	k.sport = 0xc001;
	assert_int_equal(np_learn_get(np, &k), -1);
	assert_true(np_learn_put(np, &k, 0x123456));
	assert_false(np_learn_put(np, &k, 0x123456));
	assert_int_equal(np_learn_get(np, &k), 0x123456);
	k.sport++;
	assert_int_equal(np_learn_get(np, &k), -1);
	k.sport--;
	k.pidx = 1;
	assert_int_equal(np_learn_get(np, &k), -1);
	k.pidx = 0;
	assert_true(np_learn_put(np, &k, 0x000001));
	assert_int_equal(np_learn_get(np, &k), 1);
	teardown(NULL);
}

/* The mark-CE knob: deterministic, its share per QP, counted. */
static void
test_mark_ce(void **state)
{
	struct pcc_engine_np_conf np;
	struct pcc_l3_spec l3;
	struct rte_mbuf *out[16];
	struct pcc_engine_np_stats st;
	uint32_t i, q, cnps[2] = { 0, 0 };

	(void)state;
	np_conf(&np);
	np.mark_ce_ppm = 100000; /* 10 % */
	np.cnp_gap_us = PCC_ENGINE_NP_NO_GAP;
	fixture_np(&np);
	l3_a_to_b(&l3, false, false);
	for (i = 0; i < 200; i++) {
		for (q = 0; q < 2; q++) {
			uint16_t n = np_run1(data_pkt(&l3, DATA_QPN + q, i, PCC_ECN_ECT0),
					1000 * US + i, out);

			cnps[q] += n;
			free_out(out, n);
		}
	}
	st = np_stats();
	assert_int_equal(st.ce_marked, st.ce_rx);
	assert_int_equal(st.cnp_tx, cnps[0] + cnps[1]);
	/* 10 % of each QP's 200 packets, evenly spread */
	assert_in_range(cnps[0], 19, 21);
	assert_in_range(cnps[1], 19, 21);
	teardown(NULL);

	/* the same again: the same marks */
	fixture_np(&np);
	for (i = 0; i < 200; i++) {
		uint16_t n = np_run1(data_pkt(&l3, DATA_QPN, i, PCC_ECN_ECT0), 1000 * US, out);

		cnps[0] -= n;
		free_out(out, n);
	}
	assert_int_equal(cnps[0], 0);
	teardown(NULL);
}

/* ---- Probes --------------------------------------------------------------------- */

/* A fake NP handler: 12 bytes of data, a DSCP, and what it saw. */
static struct {
	int rc;
	unsigned int calls;
	uint8_t len;
	bool set_dscp;
	struct pcc_np_pkt in;
	uint8_t frame[512];
	uint8_t payload[64];
	uint8_t l4[16];
} fh;

static int
fake_handler(const struct pcc_np_pkt *in, struct pcc_np_resp *out)
{
	unsigned int i;

	fh.calls++;
	fh.in = *in;
	memcpy(fh.frame, in->frame, RTE_MIN(in->frame_len, (uint32_t)sizeof(fh.frame)));
	if (in->payload != NULL)
		memcpy(fh.payload, in->payload,
				RTE_MIN(in->payload_len, (uint32_t)sizeof(fh.payload)));
	if (in->l4 != NULL)
		memcpy(fh.l4, in->l4, sizeof(fh.l4));
	for (i = 0; i < PCC_NP_RESP_MAX; i++)
		out->data[i] = (uint8_t)(0xa0 + i);
	out->len = fh.len;
	if (fh.set_dscp) {
		out->dscp = 34;
		out->dscp_set = 1;
	}
	return fh.rc;
}

static void
handler_on(int rc, uint8_t len, bool dscp)
{
	memset(&fh, 0, sizeof(fh));
	fh.rc = rc;
	fh.len = len;
	fh.set_dscp = dscp;
	assert_int_equal(pcc_np_handler_register(fake_handler), 0);
}

static void
handler_off(void)
{
	assert_int_equal(pcc_np_handler_unregister(fake_handler), 0);
}

/* A flow of the RP side to build requests for, with its L3 template. */
static struct eng_flow *flow;
static struct pcc_l3_spec flow_l3;

static void
mk_flow(bool v6, bool vlan)
{
	if (flow == NULL) {
		flow = rte_zmalloc(NULL, sizeof(*flow), RTE_CACHE_LINE_SIZE);
		assert_non_null(flow);
	}
	memset(flow, 0, sizeof(*flow));
	l3_a_to_b(&flow_l3, v6, vlan);
	flow_l3.dscp = 46;
	pcc_engine_flow_key_qp(&flow->key, 0, DATA_QPN);
	flow->tag = DATA_QPN;
	flow->l3 = &flow_l3;
}

/* A request of probe slot `slot` from the flow, sent at t_send. */
static struct rte_mbuf *
request(uint8_t slot, uint64_t t_send)
{
	struct rte_mbuf *m = NULL;

	assert_int_equal(eng_probe_build(lc, rxq(), flow, slot, t_send, &m), 0);
	assert_non_null(m);
	return m;
}

/* Decode a response at the RP. */
static void
response(struct rte_mbuf *m, struct eng_rtt_sample *s, struct pcc_pkt_info *in)
{
	assert_int_equal(parse(m, in), 0);
	assert_true(eng_probe_is_resp(m, in));
	assert_int_equal(eng_probe_resp_parse(m, in, s), 0);
}

/* Request -> NP (fake handler) -> response -> RTT sample. */
static void
test_probe_round_trip(void **state)
{
	static const struct {
		uint8_t size, res;
	} ts[] = { { 0, 0 }, { 16, 4 }, { 32, 0 }, { 20, 10 }, { 1, 63 } };
	struct pcc_engine_np_conf np;
	struct rte_mbuf *out[16];
	struct eng_rtt_sample s;
	struct pcc_pkt_info in;
	struct pcc_probe p;
	unsigned int t, i;
	int v;

	(void)state;
	for (t = 0; t < RTE_DIM(ts); t++) {
		for (v = 0; v < 4; v++) {
			np_conf(&np);
			np.resp_ts_size = ts[t].size;
			np.resp_ts_res = ts[t].res;
			fixture_np(&np);
			mk_flow(v & 1, v & 2);
			handler_on(0, 12, true);
			/* sent at 1000 us (RP clock), received at 1010 us, the
			 * NP's clock reads 1012 us when it answers */
			fake_clock_ns = 1012 * US + 345;
			assert_int_equal(np_run1(request(2, 1000 * US), 1010 * US, out), 1);
			assert_int_equal(fh.calls, 1);
			response(out[0], &s, &in);
			assert_int_equal(in.kind, PCC_PKT_PROBE_RESP);
			assert_true(in.flags & PCC_PKT_F_ICRC_OK);
			/* the handler's DSCP, not ECN-capable, back to the sender */
			assert_int_equal(in.dscp, 34);
			assert_int_equal(in.ecn, PCC_ECN_NOT_ECT);
			assert_int_equal(in.dqpn, DATA_QPN);
			assert_int_equal(in.vlan_tci, flow_l3.vlan ? flow_l3.vlan_tci : 0);
			assert_int_equal(in.udp_sport, flow_l3.udp_sport);
			assert_int_equal(s.flow_tag, DATA_QPN);
			assert_int_equal(s.slot, 2);
			assert_int_equal(s.req_send_ns, 1000 * US);
			assert_int_equal(s.req_recv_ns, 1010 * US);
			assert_int_equal(s.resp_send_ns, 1012 * US + 345);
			assert_true(s.req_send_ns <= s.req_recv_ns &&
					s.req_recv_ns <= s.resp_send_ns);
			assert_int_equal(s.user_len, 12);
			for (i = 0; i < 12; i++)
				assert_int_equal(s.user[i], 0xa0 + i);
			/* the injected response timestamp in the body's last dword */
			assert_int_equal(pcc_probe_parse(rte_pktmbuf_mtod(out[0], uint8_t *), &in,
							 &p, NULL),
					0);
			assert_int_equal(p.resp_ts,
					ts[t].size == 0 ?
							0 :
							(uint32_t)((1012 * US + 345) >> ts[t].res) &
									(ts[t].size == 32 ? UINT32_MAX :
											    ((1u << ts[t].size) -
													    1)));
			assert_int_equal(p.flags, PCC_PROBE_F_RESPONSE);
			/* what the handler saw: the request without its VLAN tag */
			assert_int_equal(fh.in.vlan_present, flow_l3.vlan);
			assert_int_equal(fh.in.vlan_tci, flow_l3.vlan ? flow_l3.vlan_tci : 0);
			assert_int_equal(be16_of(fh.frame + 12),
					v & 1 ? PCC_ETHER_TYPE_IPV6 : PCC_ETHER_TYPE_IPV4);
			assert_int_equal(fh.in.frame_len,
					rte_pktmbuf_pkt_len(out[0]) - (flow_l3.vlan ? 4 : 0));
			assert_int_equal(fh.in.t2_ns, (uint32_t)(1010 * US));
			assert_int_equal(fh.in.probe_slot, 2);
			assert_int_equal(fh.in.port, NP_PORT);
			assert_int_equal(fh.in.l3_ttl, 64);
			assert_int_equal(
					fh.in.payload_len, PCC_PROBE_MAD_LEN - PCC_MAD_HDR_LEN + 4);
			assert_int_equal(be32_of(fh.payload), DATA_QPN); /* body: flow_tag */
			assert_int_equal(be16_of(fh.l4 + 2), PCC_ROCE_UDP_PORT);
			free_out(out, 1);
			handler_off();
			teardown(NULL);
		}
	}
}

/*
 * The RTT response version 1 (np-resp-ext: the NP port's type and RX
 * bytes, doc/wire.md 7.6), and a flow's own probe settings (its
 * algorithm's custom header and DSCP, pcc_dev_results flags): CCMAD
 * through the generic path, and IFA2 turned around in place.
 */
static void
test_probe_ext_and_flow_settings(void **state)
{
	struct pcc_engine_probe_conf probes[PCC_ENGINE_PROBE_SLOTS];
	static const uint8_t hdr[6] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66 };
	struct eng_pcust store[2];
	struct pcc_engine_np_conf np;
	struct rte_mbuf *out[16];
	struct eng_rtt_sample s;
	struct pcc_pkt_info in;
	const uint8_t *custom;
	struct pcc_probe p;
	uint8_t slot;

	(void)state;
	memset(probes, 0, sizeof(probes));
	pcc_engine_probe_conf_default(&probes[0], PCC_ENGINE_PROBE_CCMAD);
	probes[0].custom_len = 4; /* the area: the flow's header fills it, cut */
	probes[0].custom_pattern = 0xdeadbeef;
	pcc_engine_probe_conf_default(&probes[1], PCC_ENGINE_PROBE_IFA2);
	probes[1].custom_len = 8; /* longer than the flow's header */
	probes[1].custom_pattern = 0x01020304;
	for (slot = 0; slot < 2; slot++) {
		np_conf(&np);
		np.resp_ext = true;
		fixture(&np, probes, PCC_ENGINE_ROLE_NP);
		eng->ports[0].line_bps = UINT64_C(100000000000);
		pstats.rx_bytes = UINT64_C(0x123456789A);
		mk_flow(false, false);
		/* the engine's store of flows' headers, two entries */
		memset(store, 0, sizeof(store));
		store[0].next = 2;
		lc->ft.pcust = store;
		lc->ft.pcust_cap = 2;
		lc->ft.pcust_free = 1;
		assert_int_equal(eng_flow_pcust_set(&lc->ft, flow, hdr, sizeof(hdr)), 0);
		assert_int_equal(flow->pcust, 1);
		flow->probe_dscp = 10 + 1; /* DSCP 10 */
		handler_on(0, 12, false);
		fake_clock_ns = 2000 * US;
		assert_int_equal(np_run1(request(slot, 1000 * US), 1010 * US, out), 1);
		/* the request as the NP saw it: the flow's DSCP and header */
		assert_int_equal(fh.in.payload_len >= PCC_PROBE_BODY_LEN + 4, 1);
		assert_memory_equal(fh.payload + PCC_PROBE_BODY_LEN, hdr, 4);
		if (slot == 1) {
			static const uint8_t tail[4] = { 0x01, 0x02, 0x03, 0x04 };

			assert_memory_equal(fh.payload + PCC_PROBE_BODY_LEN, hdr, 6);
			assert_memory_equal(fh.payload + PCC_PROBE_BODY_LEN + 6, tail + 2, 2);
		}
		response(out[0], &s, &in);
		assert_int_equal(in.dscp, 10); /* the request's, echoed */
		assert_int_equal(s.version, PCC_PROBE_EXT_VERSION);
		assert_int_equal(s.np_port_type, 1);
		assert_int_equal(s.np_rx_bytes, 0x3456789Au);
		if (slot == 0) {
			assert_int_equal(pcc_probe_parse(rte_pktmbuf_mtod(out[0], uint8_t *), &in,
							 &p, &custom),
					0);
			assert_int_equal(p.flags, PCC_PROBE_F_RESPONSE | PCC_PROBE_F_EXT);
			assert_int_equal(p.custom_len, 4);
			assert_memory_equal(custom, hdr, 4);
		}
		free_out(out, 1);
		/* dropped: back to the slot's pattern */
		assert_int_equal(eng_flow_pcust_set(&lc->ft, flow, NULL, 0), 0);
		assert_int_equal(flow->pcust, 0);
		assert_int_equal(lc->ft.pcust_free, 1);
		handler_off();
		lc->ft.pcust = NULL;
		teardown(NULL);
	}
	/* without np-resp-ext: version 0 */
	np_conf(&np);
	fixture(&np, probes, PCC_ENGINE_ROLE_NP);
	mk_flow(false, false);
	handler_on(0, 12, false);
	assert_int_equal(np_run1(request(0, 1000 * US), 1010 * US, out), 1);
	response(out[0], &s, &in);
	assert_int_equal(s.version, 0);
	assert_int_equal(s.np_rx_bytes, 0);
	free_out(out, 1);
	handler_off();
	teardown(NULL);
}

/* User data shorter than 12 bytes, configured / request DSCP. */
static void
test_probe_dscp_len(void **state)
{
	struct pcc_engine_np_conf np;
	struct rte_mbuf *out[16];
	struct eng_rtt_sample s;
	struct pcc_pkt_info in;

	(void)state;
	fixture_np(NULL);
	mk_flow(false, false);
	handler_on(0, 5, false);
	assert_int_equal(np_run1(request(0, 10), 20, out), 1);
	response(out[0], &s, &in);
	assert_int_equal(in.dscp, 46); /* the request's */
	assert_int_equal(s.user[4], 0xa4);
	assert_int_equal(s.user[5] | s.user[11], 0);
	free_out(out, 1);
	handler_off();
	teardown(NULL);

	np_conf(&np);
	np.resp_dscp_set = true;
	np.resp_dscp = 12;
	fixture_np(&np);
	handler_on(0, 0, false);
	assert_int_equal(np_run1(request(0, 10), 20, out), 1);
	response(out[0], &s, &in);
	assert_int_equal(in.dscp, 12);
	free_out(out, 1);
	handler_off();
	/* no handler at all: the default answers with no data */
	assert_int_equal(np_run1(request(0, 10), 20, out), 1);
	response(out[0], &s, &in);
	assert_int_equal(s.user[0] | s.user[11], 0);
	free_out(out, 1);
	assert_int_equal(np_stats().no_handler, 1);
	assert_int_equal(np_stats().probe_sw, 2);
	teardown(NULL);
}

static void
test_probe_handler_error(void **state)
{
	struct rte_mbuf *out[16];
	struct pcc_engine_np_stats st;

	(void)state;
	fixture_np(NULL);
	mk_flow(false, false);
	handler_on(-EIO, 12, false);
	assert_int_equal(np_run1(request(0, 10), 20, out), 0);
	assert_int_equal(fh.calls, 1);
	st = np_stats();
	assert_int_equal(st.probe_req, 1);
	assert_int_equal(st.handler_err, 1);
	assert_int_equal(st.probe_sw, 0);
	handler_off();
	teardown(NULL);
}

/* Requests for the hardware-NP model skip the handler. */
static void
test_probe_hw_sw(void **state)
{
	struct pcc_engine_probe_conf probes[PCC_ENGINE_PROBE_SLOTS];
	struct pcc_engine_np_conf np;
	struct rte_mbuf *out[16];
	struct eng_rtt_sample s;
	struct pcc_pkt_info in;
	struct pcc_probe p;
	struct pcc_engine_np_stats st;

	(void)state;
	memset(probes, 0, sizeof(probes));
	probes[1].hw_np = true; /* slot 1 asks for the hardware NP */
	fixture(NULL, probes, PCC_ENGINE_ROLE_NP);
	mk_flow(false, false);
	handler_on(0, 12, true);
	fake_clock_ns = 30;
	assert_int_equal(np_run1(request(1, 10), 20, out), 1);
	assert_int_equal(fh.calls, 0);
	response(out[0], &s, &in);
	assert_int_equal(pcc_probe_parse(rte_pktmbuf_mtod(out[0], uint8_t *), &in, &p, NULL), 0);
	assert_int_equal(p.flags, PCC_PROBE_F_RESPONSE | PCC_PROBE_F_HW_NP);
	assert_int_equal(s.user[0] | s.user[11], 0);
	assert_int_equal(in.dscp, 46);
	assert_int_equal(s.req_recv_ns, 20);
	assert_int_equal(s.resp_send_ns, 30);
	free_out(out, 1);
	/* slot 0: the software handler */
	assert_int_equal(np_run1(request(0, 10), 20, out), 1);
	assert_int_equal(fh.calls, 1);
	response(out[0], &s, &in);
	assert_int_equal(pcc_probe_parse(rte_pktmbuf_mtod(out[0], uint8_t *), &in, &p, NULL), 0);
	assert_int_equal(p.flags, PCC_PROBE_F_RESPONSE);
	free_out(out, 1);
	st = np_stats();
	assert_int_equal(st.probe_hw, 1);
	assert_int_equal(st.probe_sw, 1);
	assert_int_equal(st.probe_ccmad, 2);
	handler_off();
	teardown(NULL);

	/* hardware-NP requests dropped: a hardware NP answers them */
	np_conf(&np);
	np.hw_probes = PCC_ENGINE_NP_HW_DROP;
	fixture(&np, probes, PCC_ENGINE_ROLE_NP);
	assert_int_equal(np_run1(request(1, 10), 20, out), 0);
	assert_int_equal(np_stats().probe_hw_drop, 1);
	teardown(NULL);
}

/* CLOCK_REALTIME timestamps: near the wall clock, the port clock's gaps. */
static void
test_probe_realtime(void **state)
{
	struct pcc_engine_np_conf np;
	struct rte_mbuf *out[16];
	struct eng_rtt_sample s;
	struct pcc_pkt_info in;
	struct timespec ts;
	uint64_t wall;

	(void)state;
	np_conf(&np);
	np.ts_src = PCC_ENGINE_NP_TS_REALTIME;
	fixture_np(&np);
	mk_flow(false, false);
	fake_clock_ns = 5000;
	assert_int_equal(np_run1(request(0, 10), 4000, out), 1);
	clock_gettime(CLOCK_REALTIME, &ts);
	wall = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	response(out[0], &s, &in);
	assert_true(s.resp_send_ns <= wall && wall - s.resp_send_ns < 10000000000ull);
	assert_int_equal(s.resp_send_ns - s.req_recv_ns, 1000);
	free_out(out, 1);
	teardown(NULL);
}

/* Every format: build, parse back, answer, parse the answer. */
static void
test_probe_formats(void **state)
{
	struct pcc_engine_probe_conf probes[PCC_ENGINE_PROBE_SLOTS];
	struct rte_mbuf *out[16], *m;
	struct eng_rtt_sample s;
	struct pcc_pkt_info in;
	struct pcc_engine_np_stats st;
	unsigned int i;
	int v;

	(void)state;
	memset(probes, 0, sizeof(probes));
	pcc_engine_probe_conf_default(&probes[0], PCC_ENGINE_PROBE_CCMAD);
	probes[0].custom_len = 13;
	probes[0].custom_pattern = 0xdeadbeef;
	pcc_engine_probe_conf_default(&probes[1], PCC_ENGINE_PROBE_IFA1);
	probes[1].custom_len = 8;
	probes[1].custom_pattern = 0x01020304;
	pcc_engine_probe_conf_default(&probes[2], PCC_ENGINE_PROBE_IFA2);
	probes[2].ifa2_gns = 0x5;
	probes[2].ifa_hop_limit = 0x20;
	for (v = 0; v < 4; v++) {
		fixture(NULL, probes, PCC_ENGINE_ROLE_NP);
		mk_flow(v & 1, v & 2);
		handler_on(0, 12, false);
		for (i = 0; i < 3; i++) {
			struct pcc_ifa2_info ii;
			struct pcc_ifa1_hdr h;
			struct pcc_probe p;
			const uint8_t *f, *custom;
			uint32_t len, off;

			m = request((uint8_t)i, 1000 + i);
			assert_int_equal(parse(m, &in), 0);
			f = rte_pktmbuf_mtod(m, const uint8_t *);
			len = rte_pktmbuf_pkt_len(m);
			assert_false(eng_probe_is_resp(m, &in));
			switch (i) {
			case 0:
				assert_int_equal(in.kind, PCC_PKT_PROBE_REQ);
				assert_true(in.flags & PCC_PKT_F_ICRC_OK);
				assert_int_equal(in.payload_len, PCC_PROBE_MAD_LEN);
				assert_int_equal(in.deth_sqpn, DATA_QPN);
				assert_int_equal(pcc_probe_parse(f, &in, &p, &custom), 0);
				assert_int_equal(p.custom_len, 13);
				assert_int_equal(custom[0], 0xde);
				assert_int_equal(custom[4], 0xde);
				assert_int_equal(custom[12], 0xde);
				assert_int_equal(custom[3], 0xef);
				break;
			case 1:
				assert_int_equal(in.kind, PCC_PKT_IFA1);
				assert_int_equal(pcc_ifa1_parse(f + in.l4_off + 8,
								 len - in.l4_off - 8,
								 PCC_IFA1_MARKER_DEFAULT, &h),
						0);
				assert_int_equal(h.cur_len, PCC_IFA1_HDR_LEN);
				assert_int_equal(h.hop_limit, 0xfe);
				assert_int_equal(h.sender, DATA_QPN);
				assert_int_equal(len, in.l4_off + 8 + 28 + PCC_PROBE_MAD_LEN);
				assert_int_equal(eng_probe_ifa_mad_off(f, len, &in, &off),
						in.l4_off + 8 + 28);
				assert_int_equal(pcc_probe_mad_parse(f + in.l4_off + 36, 256, &p,
								 &custom),
						PCC_PKT_PROBE_REQ);
				assert_int_equal(p.custom_len, 8);
				assert_int_equal(custom[7], 0x04);
				break;
			default:
				assert_int_equal(in.kind, PCC_PKT_IFA2);
				assert_int_equal(in.ip_proto, PCC_IFA2_PROTO_DEFAULT);
				assert_int_equal(
						pcc_ifa2_parse(f, len, PCC_IFA2_PROTO_DEFAULT, &ii),
						0);
				assert_int_equal(ii.hdr.gns, 5);
				assert_int_equal(ii.md.hop_limit, 0x20);
				assert_int_equal(ii.n_hops, 0);
				assert_int_equal(len - ii.payload_off, PCC_PROBE_MAD_LEN);
				/* two switches add their metadata on the way */
				{
					struct pcc_ifa2_hop hop;
					uint32_t l = len;

					memset(&hop, 0, sizeof(hop));
					hop.device_id = 0x111;
					assert_int_equal(pcc_ifa2_push_hop(rte_pktmbuf_mtod(m,
											   void *),
									 &l, 2048,
									 PCC_IFA2_PROTO_DEFAULT,
									 &hop),
							0);
					hop.device_id = 0x222;
					assert_int_equal(pcc_ifa2_push_hop(rte_pktmbuf_mtod(m,
											   void *),
									 &l, 2048,
									 PCC_IFA2_PROTO_DEFAULT,
									 &hop),
							0);
					rte_pktmbuf_append(m, (uint16_t)(l - len));
					assert_int_equal(parse(m, &in), 0);
				}
				break;
			}
			assert_int_equal(np_run1(m, 2000 + i, out), 1);
			response(out[0], &s, &in);
			assert_int_equal(s.flow_tag, DATA_QPN);
			assert_int_equal(s.slot, i);
			assert_int_equal(s.req_send_ns, 1000 + i);
			assert_int_equal(s.req_recv_ns, 2000 + i);
			assert_int_equal(s.user[11], 0xab);
			assert_int_equal(in.dscp, 46);
			f = rte_pktmbuf_mtod(out[0], const uint8_t *);
			len = rte_pktmbuf_pkt_len(out[0]);
			if (i == 2) {
				struct pcc_ifa2_hop hop;

				/* turned around: TA set, the hops kept */
				assert_int_equal(in.kind, PCC_PKT_IFA2);
				assert_int_equal(
						pcc_ifa2_parse(f, len, PCC_IFA2_PROTO_DEFAULT, &ii),
						0);
				assert_true(ii.hdr.flags & PCC_IFA2_F_TA);
				assert_int_equal(ii.n_hops, 2);
				assert_int_equal(ii.md.hop_limit, 0x1e);
				assert_int_equal(pcc_ifa2_get_hop(f, len, &ii, 0, &hop), 0);
				assert_int_equal(hop.device_id, 0x222);
				assert_int_equal(pcc_ifa2_get_hop(f, len, &ii, 1, &hop), 0);
				assert_int_equal(hop.device_id, 0x111);
			}
			if (i == 1)
				assert_int_equal(in.kind, PCC_PKT_IFA1);
			/* over IPv6 the UDP checksum must hold */
			if (v & 1) {
				const struct rte_ipv6_hdr *ip6 = (const void *)(f + in.l3_off);
				struct rte_ipv6_hdr ph = *ip6;
				const struct rte_udp_hdr *u = (const void *)(f + in.l4_off);

				ph.proto = IPPROTO_UDP;
				ph.payload_len = u->dgram_len;
				assert_int_equal(rte_ipv6_udptcp_cksum_verify(&ph, u), 0);
			}
			free_out(out, 1);
		}
		st = np_stats();
		assert_int_equal(st.probe_ccmad, 1);
		assert_int_equal(st.probe_ifa1, 1);
		assert_int_equal(st.probe_ifa2, 1);
		assert_int_equal(st.probe_sw, 3);
		handler_off();
		teardown(NULL);
	}
}

/* IFA2 packets reach the handler only when the GNS mask/value selects them. */
static void
test_ifa2_gns(void **state)
{
	static const struct {
		uint8_t mask, value;
		bool answered;
	} c[] = {
		{ 0x0, 0x0, true },  /* default: every IFA2 packet */
		{ 0xF, 0x5, true },  /* exactly GNS 5 */
		{ 0xF, 0x4, false }, /* another GNS */
		{ 0x4, 0x4, true },  /* bit 2 set: 5 = 0101 */
		{ 0x2, 0x2, false }, /* bit 1 set: no */
	};
	struct pcc_engine_probe_conf probes[PCC_ENGINE_PROBE_SLOTS];
	struct pcc_engine_np_conf np;
	struct rte_mbuf *out[16];
	unsigned int i;

	(void)state;
	memset(probes, 0, sizeof(probes));
	pcc_engine_probe_conf_default(&probes[3], PCC_ENGINE_PROBE_IFA2);
	probes[3].ifa2_gns = 0x5;
	for (i = 0; i < RTE_DIM(c); i++) {
		np_conf(&np);
		np.ifa2_gns_select_mask = c[i].mask;
		np.ifa2_gns_select_value = c[i].value;
		fixture(&np, probes, PCC_ENGINE_ROLE_NP);
		mk_flow(false, false);
		handler_on(0, 12, false);
		assert_int_equal(np_run1(request(3, 10), 20, out), c[i].answered ? 1 : 0);
		assert_int_equal(fh.calls, c[i].answered ? 1 : 0);
		assert_int_equal(np_stats().ifa2_unmatched, c[i].answered ? 0 : 1);
		assert_int_equal(np_stats().probe_ifa2, c[i].answered ? 1 : 0);
		free_out(out, c[i].answered ? 1 : 0);
		handler_off();
		teardown(NULL);
	}
}

/*
 * DOCA's GNS ignore: matching IFA2 packets are not the NP's (counted
 * ifa2_ignored, no answer); the others are answered.  The ignore rule
 * comes before select mode.
 */
static void
test_ifa2_gns_ignore(void **state)
{
	static const struct {
		uint8_t mask, value, sel_mask, sel_value;
		bool answered, ignored;
	} c[] = {
		{ 0xF, 0x5, 0x0, 0x0, false, true }, /* GNS 5 ignored */
		{ 0xF, 0x4, 0x0, 0x0, true, false }, /* GNS 4 ignored: 5 is the NP's */
		{ 0x4, 0x4, 0x0, 0x0, false, true }, /* bit 2 set: ignored */
		{ 0x0, 0x0, 0x0, 0x0, false, true }, /* mask 0 matches every GNS */
		{ 0xF, 0x4, 0xF, 0x5, true, false }, /* not ignored, selected */
		{ 0xF, 0x5, 0xF, 0x5, false, true }, /* ignore wins over select */
	};
	struct pcc_engine_probe_conf probes[PCC_ENGINE_PROBE_SLOTS];
	struct pcc_engine_np_conf np;
	struct rte_mbuf *out[16];
	unsigned int i;

	(void)state;
	memset(probes, 0, sizeof(probes));
	pcc_engine_probe_conf_default(&probes[3], PCC_ENGINE_PROBE_IFA2);
	probes[3].ifa2_gns = 0x5;
	for (i = 0; i < RTE_DIM(c); i++) {
		np_conf(&np);
		np.ifa2_gns_ignore = true;
		np.ifa2_gns_ignore_mask = c[i].mask;
		np.ifa2_gns_ignore_value = c[i].value;
		np.ifa2_gns_select_mask = c[i].sel_mask;
		np.ifa2_gns_select_value = c[i].sel_value;
		fixture(&np, probes, PCC_ENGINE_ROLE_NP);
		mk_flow(false, false);
		handler_on(0, 12, false);
		assert_int_equal(np_run1(request(3, 10), 20, out), c[i].answered ? 1 : 0);
		assert_int_equal(fh.calls, c[i].answered ? 1 : 0);
		assert_int_equal(np_stats().ifa2_ignored, c[i].ignored ? 1 : 0);
		assert_int_equal(np_stats().ifa2_unmatched, 0);
		assert_int_equal(np_stats().probe_ifa2, c[i].answered ? 1 : 0);
		free_out(out, c[i].answered ? 1 : 0);
		handler_off();
		teardown(NULL);
	}
}

/* An IFA2 packet not selected that wraps CE-marked RoCEv2 data: a CNP. */
static void
test_ifa2_data(void **state)
{
	struct pcc_engine_np_conf np;
	struct pcc_ifa2_md_hdr md;
	struct pcc_ifa2_hdr h;
	struct pcc_l3_spec l3;
	struct rte_mbuf *m, *out[16];
	uint32_t len;

	(void)state;
	np_conf(&np);
	np.ifa2_gns_select_mask = 0xF;
	np.ifa2_gns_select_value = 0x1;
	fixture_np(&np);
	l3_a_to_b(&l3, false, false);
	m = data_pkt(&l3, DATA_QPN, 1, PCC_ECN_CE);
	memset(&h, 0, sizeof(h));
	h.ver = 2;
	h.gns = 0x7;
	h.max_len = 0xF8;
	memset(&md, 0, sizeof(md));
	md.hop_limit = 0xFE;
	len = rte_pktmbuf_pkt_len(m);
	assert_int_equal(pcc_ifa2_insert(rte_pktmbuf_mtod(m, void *), &len, 2048,
					 PCC_IFA2_PROTO_DEFAULT, &h, &md),
			0);
	rte_pktmbuf_append(m, (uint16_t)(len - rte_pktmbuf_pkt_len(m)));
	{
		struct pcc_pkt_info in;

		assert_int_equal(pcc_parse_mbuf(m, &eng->popts, &in), 0);
		assert_int_equal(in.kind, PCC_PKT_IFA2);
		assert_int_equal(eng_np_rx(lc, rxq(), &m, &in, 1, 1000, out, 16), 1);
	}
	check_cnp(out[0], &l3, DATA_QPN, 48);
	free_out(out, 1);
	assert_int_equal(np_stats().ifa2_unmatched, 1);
	teardown(NULL);
}

/* IFA1 is recognised by its marker, the configured one. */
static void
test_ifa1_marker(void **state)
{
	struct pcc_engine_probe_conf probes[PCC_ENGINE_PROBE_SLOTS];
	struct pcc_engine_np_conf np;
	struct rte_mbuf *out[16], *m;
	struct pcc_pkt_info in;
	struct eng_rtt_sample s;
	const uint64_t mk = 0x8123456789abcdefull;

	(void)state;
	memset(probes, 0, sizeof(probes));
	pcc_engine_probe_conf_default(&probes[0], PCC_ENGINE_PROBE_IFA1);
	probes[0].ifa1_marker = mk;
	pcc_engine_probe_conf_default(&probes[1], PCC_ENGINE_PROBE_IFA1);
	/* the NP recognises one marker: slot 1 has another one */
	fixture(NULL, NULL, PCC_ENGINE_ROLE_NP);
	eng_np_fini(eng);
	memcpy(eng->conf.probe, probes, sizeof(probes));
	assert_int_equal(np_init_synced(), -EINVAL);
	teardown(NULL);

	probes[1].format = PCC_ENGINE_PROBE_CCMAD;
	fixture(NULL, probes, PCC_ENGINE_ROLE_NP);
	assert_int_equal(eng->popts.ifa1_marker, mk);
	mk_flow(false, true);
	m = request(0, 10);
	assert_int_equal(be32_of(rte_pktmbuf_mtod(m, uint8_t *) + 18 + 20 + 8), 0x81234567);
	assert_int_equal(np_run1(m, 20, out), 1);
	response(out[0], &s, &in);
	assert_int_equal(in.kind, PCC_PKT_IFA1);
	assert_int_equal(s.req_send_ns, 10);
	free_out(out, 1);
	teardown(NULL);

	/* an NP set to another marker does not see these as IFA1 */
	np_conf(&np);
	np.ifa1_marker = PCC_IFA1_MARKER_DEFAULT;
	memset(probes, 0, sizeof(probes));
	fixture(&np, probes, PCC_ENGINE_ROLE_NP);
	eng->conf.probe[0].format = PCC_ENGINE_PROBE_IFA1; /* the RP's slot */
	eng->conf.probe[0].ifa1_marker = mk;
	sync_ports();
	m = request(0, 10);
	assert_true(pcc_parse_mbuf(m, &eng->popts, &in) != 0 || in.kind != PCC_PKT_IFA1);
	rte_pktmbuf_free(m);
	teardown(NULL);
}

/* Broken requests are dropped and counted. */
static void
test_probe_bad(void **state)
{
	struct rte_mbuf *out[16], *m;
	struct pcc_pkt_info in;

	(void)state;
	fixture_np(NULL);
	mk_flow(false, false);
	m = request(0, 10);
	assert_int_equal(parse(m, &in), 0);
	/* custom_len 65 in the body */
	rte_pktmbuf_mtod(m, uint8_t *)[in.payload_off + 24 + 7] = 65;
	assert_int_equal(eng_np_rx(lc, rxq(), &m, &in, 1, 20, out, 16), 0);
	assert_int_equal(np_stats().probe_bad, 1);
	teardown(NULL);
}

/* The response goes out of a copy when the request mbuf is shared. */
static void
test_probe_shared_mbuf(void **state)
{
	struct pcc_engine_probe_conf probes[PCC_ENGINE_PROBE_SLOTS];
	struct rte_mbuf *out[16], *m;
	struct eng_rtt_sample s;
	struct pcc_pkt_info in;
	unsigned int i;

	(void)state;
	memset(probes, 0, sizeof(probes));
	pcc_engine_probe_conf_default(&probes[1], PCC_ENGINE_PROBE_IFA2);
	fixture(NULL, probes, PCC_ENGINE_ROLE_NP);
	mk_flow(false, false);
	for (i = 0; i < 2; i++) {
		m = request((uint8_t)i, 10);
		rte_mbuf_refcnt_update(m, 1);
		assert_int_equal(np_run1(m, 20, out), 1);
		assert_ptr_not_equal(out[0], m);
		response(out[0], &s, &in);
		assert_int_equal(s.slot, i);
		/* the request is untouched */
		assert_int_equal(parse(m, &in), 0);
		assert_false(eng_probe_is_resp(m, &in));
		free_out(out, 1);
		rte_pktmbuf_free(m);
	}
	teardown(NULL);
}

/* m's bytes in a new mbuf. */
static struct rte_mbuf *
clone_of(const struct rte_mbuf *m)
{
	return mbuf_of(rte_pktmbuf_mtod(m, const uint8_t *), (int)rte_pktmbuf_data_len(m));
}

/*
 * The fast path (eng_np_fast_rx()) against the generic one (the
 * classifier, eng_np_rx()): the same requests, the same answers byte for
 * byte, the same counters; on every layout, custom header sizes, response
 * timestamps, configured DSCP or the request's, hardware-NP requests
 * (left to the generic path), with a user handler (all left to it), mixed
 * with data packets, shared and chained mbufs (left to it).
 */
static void
test_probe_fast_vs_generic(void **state)
{
	static const struct {
		uint8_t ts_size, ts_res;
		bool dscp_set;
		uint8_t custom_len;
		bool hw;
		bool handler;
	} cases[] = {
		{ 0, 0, false, 0, false, false },
		{ 16, 4, false, 13, false, false },
		{ 32, 0, true, 64, false, false },
		{ 20, 10, true, 1, true, false },
		{ 1, 63, false, 0, false, true },
		{ 0, 0, true, 8, true, true },
	};
	struct pcc_engine_probe_conf probes[PCC_ENGINE_PROBE_SLOTS];
	struct rte_mbuf *fast[8], *gen[8], *out_f[16], *out_g[16];
	struct pcc_engine_np_stats st_f, st_g;
	struct pcc_pkt_info infos[8];
	struct pcc_engine_np_conf np;
	unsigned int c, v, i;
	uint16_t n, nf, ng, left, ntx;
	uint64_t bytes, req_kind;

	(void)state;
	for (c = 0; c < RTE_DIM(cases); c++) {
		for (v = 0; v < 4; v++) {
			np_conf(&np);
			np.resp_ts_size = cases[c].ts_size;
			np.resp_ts_res = cases[c].ts_res;
			np.resp_dscp_set = cases[c].dscp_set;
			np.resp_dscp = 9;
			memset(probes, 0, sizeof(probes));
			probes[0].custom_len = cases[c].custom_len;
			probes[0].custom_pattern = 0xa5a5f00d;
			probes[1].hw_np = cases[c].hw;
			fixture(&np, probes, PCC_ENGINE_ROLE_NP);
			mk_flow(v & 1, v & 2);
			if (cases[c].handler)
				handler_on(0, 7, false);
			fake_clock_ns = 5000 + c;
			/* requests of slots 0 and 1, a marked data packet, a
			 * request whose mbuf is shared, one in two segments */
			n = 0;
			fast[n++] = request(0, 100);
			fast[n++] = request(1, 200);
			fast[n++] = data_pkt(&flow_l3, DATA_QPN, 7, PCC_ECN_CE);
			fast[n++] = request(0, 300);
			fast[n++] = request(0, 400);
			fast[n++] = request(0, 500);
			for (i = 0; i < n; i++)
				gen[i] = clone_of(fast[i]);
			rte_mbuf_refcnt_update(fast[4], 1);
			rte_mbuf_refcnt_update(gen[4], 1);
			{
				/* the last request in two segments, both paths */
				struct rte_mbuf *tails[2] = { rte_pktmbuf_alloc(mp),
					rte_pktmbuf_alloc(mp) };
				struct rte_mbuf *heads[2] = { fast[5], gen[5] };
				unsigned int h;

				for (h = 0; h < 2; h++) {
					assert_non_null(tails[h]);
					memcpy(rte_pktmbuf_append(tails[h], 100),
							rte_pktmbuf_mtod(heads[h], uint8_t *) +
									heads[h]->data_len - 100,
							100);
					rte_pktmbuf_trim(heads[h], 100);
					assert_int_equal(rte_pktmbuf_chain(heads[h], tails[h]), 0);
				}
			}

			/* fast path first, the rest as rx_dispatch() gives it */
			ntx = 0;
			left = eng_np_fast_rx(lc, rxq(), fast, n, 4000, out_f, &ntx, &bytes);
			req_kind = pstats.rx_kind[PCC_PKT_PROBE_REQ];
			if (cases[c].handler) {
				assert_int_equal(left, n);
				assert_int_equal(ntx, 0);
			} else {
				/* slot 0 twice (the shared and chained ones are
				 * left), slot 1 unless it asks for the hw NP */
				assert_int_equal(ntx, cases[c].hw ? 2 : 3);
				assert_int_equal(left, n - ntx);
				assert_int_equal(req_kind, ntx);
				assert_int_equal(bytes, ntx * rte_pktmbuf_pkt_len(out_f[0]));
			}
			for (i = 0; i < left; i++)
				assert_int_equal(parse(fast[i], &infos[i]), 0);
			nf = (uint16_t)(ntx +
					eng_np_rx(lc, rxq(), fast, infos, left, 4000, out_f + ntx,
							(uint16_t)(16 - ntx)));
			st_f = np_stats();
			teardown(NULL);

			/* the generic path alone, same engine and clock */
			fixture(&np, probes, PCC_ENGINE_ROLE_NP);
			fake_clock_ns = 5000 + c;
			for (i = 0; i < n; i++)
				assert_int_equal(parse(gen[i], &infos[i]), 0);
			ng = eng_np_rx(lc, rxq(), gen, infos, n, 4000, out_g, 16);
			st_g = np_stats();
			teardown(NULL);
			if (cases[c].handler)
				handler_off();

			/* answers: the same set (the fast ones first) */
			assert_int_equal(nf, ng);
			for (i = 0; i < nf; i++) {
				struct rte_mbuf *a = out_f[i], *b = NULL;
				unsigned int j;

				for (j = 0; j < ng && b == NULL; j++)
					if (out_g[j] != NULL &&
							rte_pktmbuf_pkt_len(out_g[j]) ==
									rte_pktmbuf_pkt_len(a) &&
							rte_pktmbuf_data_len(out_g[j]) ==
									rte_pktmbuf_data_len(a) &&
							memcmp(rte_pktmbuf_mtod(
									       out_g[j], uint8_t *),
									rte_pktmbuf_mtod(a,
											uint8_t *),
									rte_pktmbuf_data_len(a)) ==
									0) {
						b = out_g[j];
						out_g[j] = NULL;
					}
				if (b == NULL)
					fail_msg("case %u/%u: answer %u (%u bytes) not in the "
						 "generic answers",
							c, v, i, rte_pktmbuf_pkt_len(a));
				rte_pktmbuf_free(b);
			}
			free_out(out_f, nf);
			assert_memory_equal(&st_f, &st_g, sizeof(st_f));
			rte_pktmbuf_free(fast[4]);
			rte_pktmbuf_free(gen[4]);
		}
	}
}

/* Frame i of test_probe_fast_slices(): in the second slice, data at
 * i % 5 == 2, a shared request at i % 7 == 3 */
#define SLICE_DATA(i) ((i) / PCC_PROBE_FAST_BURST == 1 && (i) % 5 == 2)
#define SLICE_SHARED(i) ((i) / PCC_PROBE_FAST_BURST == 1 && (i) % 7 == 3)

/*
 * A burst longer than pcc_probe_fast_reflect_mbufs() takes at once (the
 * fast path answers it a slice at a time): a first slice of requests
 * only, a second with data packets and shared mbufs among them, a third
 * (shorter) of requests only again.  The answers go out in arrival order,
 * each an answer to its own request (ICRC and IPv4 checksum verified,
 * send time echoed); the rest is left in order and untouched; bytes and
 * counters are the answers'.
 */
static void
test_probe_fast_slices(void **state)
{
	struct rte_mbuf *pkts[2 * PCC_PROBE_FAST_BURST + 22], *orig[RTE_DIM(pkts)],
			*copy[RTE_DIM(pkts)], *out[RTE_DIM(pkts)];
	uint16_t left, ntx = 0, i, na = 0, nl = 0;
	struct eng_rtt_sample smp;
	struct pcc_pkt_info in;
	uint64_t bytes, want_bytes = 0;
	bool answer[RTE_DIM(pkts)];

	(void)state;
	RTE_BUILD_BUG_ON(RTE_DIM(pkts) > PCC_ENGINE_BURST_MAX);
	fixture_np(NULL);
	mk_flow(false, false);
	for (i = 0; i < RTE_DIM(pkts); i++) {
		if (SLICE_DATA(i)) {
			pkts[i] = data_pkt(&flow_l3, DATA_QPN, i, PCC_ECN_CE);
		} else {
			pkts[i] = request(0, 1000 + i);
			if (SLICE_SHARED(i))
				rte_mbuf_refcnt_update(pkts[i], 1);
		}
		/* what a PMD may set on receive */
		pkts[i]->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_VLAN;
		pkts[i]->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP;
		pkts[i]->vlan_tci = 5;
		pkts[i]->port = 3;
		answer[i] = !SLICE_DATA(i) && !SLICE_SHARED(i);
		if (answer[i])
			want_bytes += rte_pktmbuf_pkt_len(pkts[i]);
		orig[i] = pkts[i];
		copy[i] = clone_of(pkts[i]);
	}
	left = eng_np_fast_rx(lc, rxq(), pkts, RTE_DIM(pkts), 20, out, &ntx, &bytes);
	assert_int_equal(left + ntx, RTE_DIM(pkts));
	assert_int_equal(bytes, want_bytes);
	assert_int_equal(np_stats().probe_req, ntx);
	assert_int_equal(pstats.rx_kind[PCC_PKT_PROBE_REQ], ntx);
	for (i = 0; i < RTE_DIM(pkts); i++) {
		if (answer[i]) {
			assert_true(na < ntx);
			assert_ptr_equal(out[na], orig[i]);
			/* reset for the send */
			assert_int_equal(out[na]->ol_flags, 0);
			assert_int_equal(out[na]->packet_type, 0);
			assert_int_equal(out[na]->vlan_tci, 0);
			assert_int_equal(out[na]->port, RTE_MBUF_PORT_INVALID);
			response(out[na], &smp, &in);
			assert_int_equal(smp.req_send_ns, 1000 + i);
			na++;
			continue;
		}
		assert_true(nl < left);
		assert_ptr_equal(pkts[nl], orig[i]);
		assert_int_equal(pkts[nl]->ol_flags,
				RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_VLAN);
		assert_int_equal(pkts[nl]->vlan_tci, 5);
		assert_int_equal(pkts[nl]->port, 3);
		assert_int_equal(rte_pktmbuf_data_len(pkts[nl]), rte_pktmbuf_data_len(copy[i]));
		assert_memory_equal(rte_pktmbuf_mtod(pkts[nl], uint8_t *),
				rte_pktmbuf_mtod(copy[i], uint8_t *),
				rte_pktmbuf_data_len(copy[i]));
		nl++;
	}
	assert_int_equal(na, ntx);
	assert_int_equal(nl, left);
	assert_true(left > 0 && left < PCC_PROBE_FAST_BURST);
	for (i = 0; i < RTE_DIM(pkts); i++)
		if (!SLICE_DATA(i) && SLICE_SHARED(i))
			rte_mbuf_refcnt_update(orig[i], -1);
	rte_pktmbuf_free_bulk(orig, RTE_DIM(orig));
	rte_pktmbuf_free_bulk(copy, RTE_DIM(copy));
	teardown(NULL);
}

/* A port clock with hardware RX timestamps: read_clock fails (the
 * timestamps are ns as they are), the TSC reads hw_tsc_ns. */
static uint64_t hw_tsc_ns;

static int
hw_read_clock(uint16_t port_id, uint64_t *ticks)
{
	(void)port_id;
	(void)ticks;
	return -ENOTSUP;
}

static uint64_t
hw_tsc(void)
{
	return hw_tsc_ns;
}

static void
hw_delay(unsigned int us)
{
	(void)us;
}

/*
 * The fast path on a port with hardware RX timestamps (each request
 * answered with its own receive time, one at a time): a request with a
 * timestamp gets it as the NP receive time, one without gets the poll's
 * time; the send time is the port clock's read once, or the receive time
 * if later.  Answers verified (ICRC, checksum) and in order.
 */
static void
test_probe_fast_hw_rx_ts(void **state)
{
	static const struct eng_clock_ops ops = {
		.read_clock = hw_read_clock,
		.tsc = hw_tsc,
		.tsc_hz = 1000000000,
		.delay_us = hw_delay,
	};
	struct rte_mbuf *pkts[12], *out[12];
	uint64_t bytes, want_recv[12];
	struct eng_rtt_sample smp;
	struct pcc_pkt_info in;
	uint16_t left, ntx = 0, i;
	uint64_t ts_flag;
	int ts_off;

	(void)state;
	assert_int_equal(rte_mbuf_dyn_rx_timestamp_register(&ts_off, &ts_flag), 0);
	fixture_np(NULL);
	mk_flow(false, false);
	hw_tsc_ns = 10000;
	eng_clock_setup(&eng->ports[0].clk, NP_PORT, true, ts_off, ts_flag, NULL, NULL, &ops);
	assert_int_equal(eng->ports[0].clk.src, PCC_ENGINE_CLOCK_HW_RX_TS);
	assert_false(eng->ports[0].clk.calibrated);
	for (i = 0; i < RTE_DIM(pkts); i++) {
		pkts[i] = request(0, 100 + i);
		want_recv[i] = 4000; /* the poll's time */
		if (i % 3 != 1) {
			/* before the clock's now, or (i 11) after it */
			want_recv[i] = i == 11 ? 20000 : 5000 + 10 * i;
			*RTE_MBUF_DYNFIELD(pkts[i], ts_off, rte_mbuf_timestamp_t *) = want_recv[i];
			pkts[i]->ol_flags |= ts_flag;
		}
	}
	left = eng_np_fast_rx(lc, rxq(), pkts, RTE_DIM(pkts), 4000, out, &ntx, &bytes);
	assert_int_equal(left, 0);
	assert_int_equal(ntx, RTE_DIM(pkts));
	assert_int_equal(np_stats().probe_req, RTE_DIM(pkts));
	for (i = 0; i < ntx; i++) {
		response(out[i], &smp, &in);
		assert_int_equal(smp.req_send_ns, 100 + i);
		assert_int_equal(smp.req_recv_ns, want_recv[i]);
		assert_int_equal(smp.resp_send_ns, RTE_MAX(hw_tsc_ns, want_recv[i]));
	}
	rte_pktmbuf_free_bulk(out, ntx);
	teardown(NULL);
}

/* Frames the fast path does not take: left in order, untouched, and
 * nothing counted; nothing is answered with the fast path off. */
static void
test_probe_fast_odd(void **state)
{
	struct rte_mbuf *pkts[8], *copy[8], *out[16];
	struct pcc_engine_np_conf np;
	uint16_t left, ntx = 0, i;
	uint64_t bytes;
	uint32_t len;

	(void)state;
	fixture_np(NULL);
	mk_flow(false, false);
	for (i = 0; i < 6; i++)
		pkts[i] = request(0, 10);
	len = rte_pktmbuf_data_len(pkts[0]);
	rte_pktmbuf_trim(pkts[0], 1);                                /* truncated */
	memset(rte_pktmbuf_append(pkts[1], 4), 0, 4);                /* trailing bytes */
	rte_pktmbuf_mtod(pkts[2], uint8_t *)[14 + 9] = 6;            /* TCP */
	rte_pktmbuf_mtod(pkts[3], uint8_t *)[14 + 20 + 8 + 1] = 3;   /* TVer */
	rte_pktmbuf_mtod(pkts[4], uint8_t *)[len - 4 - 256 + 3] = 2; /* method */
	pkts[5]->pkt_len++;                                          /* lengths disagree */
	for (i = 0; i < 6; i++)
		copy[i] = clone_of(pkts[i]);
	left = eng_np_fast_rx(lc, rxq(), pkts, 6, 20, out, &ntx, &bytes);
	assert_int_equal(left, 6);
	assert_int_equal(ntx, 0);
	assert_int_equal(bytes, 0);
	for (i = 0; i < 6; i++) {
		assert_int_equal(rte_pktmbuf_data_len(pkts[i]), rte_pktmbuf_data_len(copy[i]));
		assert_memory_equal(rte_pktmbuf_mtod(pkts[i], uint8_t *),
				rte_pktmbuf_mtod(copy[i], uint8_t *),
				rte_pktmbuf_data_len(copy[i]));
	}
	assert_int_equal(np_stats().probe_req, 0);
	assert_int_equal(pstats.rx_kind[PCC_PKT_PROBE_REQ], 0);
	pkts[5]->pkt_len--;
	rte_pktmbuf_free_bulk(pkts, 6);
	rte_pktmbuf_free_bulk(copy, 6);
	teardown(NULL);

	/* off */
	np_conf(&np);
	np.probe_fast_off = true;
	fixture_np(&np);
	pkts[0] = request(0, 10);
	ntx = 0;
	assert_int_equal(eng_np_fast_rx(lc, rxq(), pkts, 1, 20, out, &ntx, &bytes), 1);
	assert_int_equal(ntx, 0);
	rte_pktmbuf_free(pkts[0]);
	teardown(NULL);

	/* a classifier that checks ICRCs or IPv4 checksums: the fast path,
	 * which checks neither, stands aside */
	for (i = 0; i < 2; i++) {
		fixture_np(NULL);
		if (i == 0)
			eng->popts.check_icrc = true;
		else
			eng->popts.check_ip_csum = true;
		pkts[0] = request(0, 10);
		ntx = 0;
		assert_int_equal(eng_np_fast_rx(lc, rxq(), pkts, 1, 20, out, &ntx, &bytes), 1);
		assert_int_equal(ntx, 0);
		rte_pktmbuf_free(pkts[0]);
		teardown(NULL);
	}
}

static void
test_caps_and_conf(void **state)
{
	struct pcc_engine_np_caps caps;
	struct pcc_engine_np_conf np;

	(void)state;
	assert_int_equal(pcc_engine_np_caps_get(NULL, 0, &caps), 0);
	assert_int_equal(caps.resp_user_max, 12);
	assert_int_equal(caps.resp_ts_size_max, 32);
	assert_int_equal(caps.resp_ts_res_max, 63);
	assert_int_equal(caps.probe_slots, 8);
	assert_int_equal(caps.probe_mad_len, 256);
	assert_int_equal(caps.probe_formats, 7);
	assert_true(caps.ts_realtime);
	assert_int_equal(pcc_engine_np_caps_get(NULL, 0, NULL), -EINVAL);
	assert_string_equal(pcc_engine_probe_fmt_name(PCC_ENGINE_PROBE_IFA2), "ifa2");
	assert_null(pcc_engine_probe_fmt_name(3));

	np_conf(&np);
	np.qp_table = 4096;
	np.hw_probes = PCC_ENGINE_NP_HW_DROP;
	fixture_np(&np);
	assert_int_equal(pcc_engine_np_caps_get(eng, NP_PORT, &caps), 0);
	assert_int_equal(caps.qp_table, 4096);
	assert_false(caps.hw_np_model);
	assert_int_equal(caps.clock_src, PCC_ENGINE_CLOCK_REGISTERED);
	assert_int_equal(pcc_engine_np_caps_get(eng, NP_PORT + 1, &caps), -ENOENT);
	assert_int_equal(lc->np != NULL ? ((struct np_lcore *)lc->np)->gap_mask : 0, 4095);
	teardown(NULL);

	/* bad configurations */
	np_conf(&np);
	np.qp_table = 3000;
	fixture_np(NULL);
	eng->conf.np = np;
	eng_np_fini(eng);
	assert_int_equal(np_init_synced(), -EINVAL);
	eng->conf.np.qp_table = 0;
	eng->conf.np.cnp_pcp_set = true;
	eng->conf.np.cnp_pcp = 8;
	eng_np_fini(eng);
	assert_int_equal(np_init_synced(), -EINVAL);
	eng->conf.np.cnp_pcp = 0;
	eng->conf.np.resp_ts_size = 33;
	eng_np_fini(eng);
	assert_int_equal(np_init_synced(), -EINVAL);
	eng->conf.np.resp_ts_size = 32;
	eng->conf.probe[4].format = 7;
	eng_np_fini(eng);
	assert_int_equal(np_init_synced(), -EINVAL);
	eng->conf.probe[4].format = 0;
	eng_np_fini(eng);
	assert_int_equal(np_init_synced(), 0);
	teardown(NULL);
}

/* ---- Group ------------------------------------------------------------------------ */

static int
group_setup(void **state)
{
	(void)state;
	if (test_eal_init("test_np", "512", "--log-level", "pcc.np:error", NULL) < 0)
		return -1;
	mp = rte_pktmbuf_pool_create(
			"np_test", 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	return mp == NULL ? -1 : 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	rte_free(flow);
	rte_mempool_free(mp);
	test_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cnp_gap),
		cmocka_unit_test(test_cnp_gap_conf),
		cmocka_unit_test(test_cnp_dscp_pcp),
		cmocka_unit_test(test_sender_qpn),
		cmocka_unit_test(test_learn_tx),
		cmocka_unit_test(test_learn_table),
		cmocka_unit_test(test_mark_ce),
		cmocka_unit_test(test_probe_round_trip),
		cmocka_unit_test(test_probe_dscp_len),
		cmocka_unit_test(test_probe_ext_and_flow_settings),
		cmocka_unit_test(test_probe_handler_error),
		cmocka_unit_test(test_probe_hw_sw),
		cmocka_unit_test(test_probe_realtime),
		cmocka_unit_test(test_probe_formats),
		cmocka_unit_test(test_ifa2_gns),
		cmocka_unit_test(test_ifa2_gns_ignore),
		cmocka_unit_test(test_ifa2_data),
		cmocka_unit_test(test_ifa1_marker),
		cmocka_unit_test(test_probe_bad),
		cmocka_unit_test(test_probe_shared_mbuf),
		cmocka_unit_test(test_probe_fast_vs_generic),
		cmocka_unit_test(test_probe_fast_slices),
		cmocka_unit_test(test_probe_fast_hw_rx_ts),
		cmocka_unit_test(test_probe_fast_odd),
		cmocka_unit_test(test_caps_and_conf),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
