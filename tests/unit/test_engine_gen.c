/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The generator's list of flows that are not done (lib/engine/gen.c): an
 * engine with one RP port on a ring pair whose generator has many
 * messages of a few packets (flows that finish and leave the list) and a
 * few endless streams; the poll hook counts what arrives on the other
 * side.  Every message is sent whole (its packets in PSN order) and done,
 * every stream keeps sending after the messages are done, and what
 * arrives is what the flows counted.  A held engine (pcc_engine_hold)
 * generates and sends nothing, however many rounds it runs, until its
 * poll hook releases it.  Over IPv6 every frame's UDP checksum holds,
 * those made from a flow's template (PSN and ICRC patched) too.  EAL
 * without hugepages.
 */

#include <errno.h>
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
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "engine_internal.h"
#include "pcc_engine.h"
#include "pcc_proto.h"
#include "test_eal.h"
#include "pcc_algos.h"

#define MSG_FLOWS 700
#define MSG_PKTS 3
#define STREAMS 5
#define QPN_MSG 0x1000
#define QPN_STREAM 0x2000
#define RING_SIZE 4096

static struct rte_mempool *mp;

struct sink {
	uint16_t port;
	uint64_t rx;
	uint32_t msg_next_psn[MSG_FLOWS]; /* PSN order per message */
	uint64_t stream_rx[STREAMS];
	uint32_t stream_psn[STREAMS]; /* the last one seen */
	bool bad_order;
	/* data frames whose ICRC verifies, and those that do not (a
	 * stream's frames after its first come from the flow's template,
	 * their PSN and ICRC patched) */
	uint64_t icrc_ok, icrc_bad;
	uint64_t t_end;
	struct pcc_engine *e;
};

static bool
all_done(const struct sink *s)
{
	unsigned int i;

	for (i = 0; i < MSG_FLOWS; i++)
		if (s->msg_next_psn[i] != MSG_PKTS)
			return false;
	/* the streams keep going after the messages are done */
	for (i = 0; i < STREAMS; i++)
		if (s->stream_rx[i] < 2 * MSG_PKTS)
			return false;
	return true;
}

/*
 * The frames that arrived on port: each RoCE frame to fn, parsed, with
 * whether its ICRC verifies; the number received.
 */
static uint16_t
rx_frames(uint16_t port,
		void (*fn)(void *arg, const struct rte_mbuf *m, const struct pcc_pkt_info *in,
				bool icrc_ok),
		void *arg)
{
	struct rte_mbuf *pkts[64];
	uint16_t n, i;

	n = rte_eth_rx_burst(port, 0, pkts, RTE_DIM(pkts));
	for (i = 0; i < n; i++) {
		struct pcc_pkt_info in;

		if (pcc_parse_mbuf(pkts[i], NULL, &in) != 0 || in.bth_off == 0)
			continue;
		fn(arg, pkts[i], &in, pcc_icrc_verify_mbuf(pkts[i], &in) == 0);
	}
	rte_pktmbuf_free_bulk(pkts, n);
	return n;
}

static void
sink_frame(void *arg, const struct rte_mbuf *m, const struct pcc_pkt_info *in, bool icrc_ok)
{
	struct sink *s = arg;

	(void)m;
	if (icrc_ok)
		s->icrc_ok++;
	else
		s->icrc_bad++;
	if (in->dqpn >= QPN_MSG && in->dqpn < QPN_MSG + MSG_FLOWS) {
		uint32_t k = in->dqpn - QPN_MSG;

		if (in->psn != s->msg_next_psn[k])
			s->bad_order = true;
		s->msg_next_psn[k]++;
	} else if (in->dqpn >= QPN_STREAM && in->dqpn < QPN_STREAM + STREAMS) {
		uint32_t k = in->dqpn - QPN_STREAM;

		/* a stream's PSNs follow one another too */
		if (s->stream_rx[k] > 0 && in->psn != ((s->stream_psn[k] + 1) & 0xFFFFFF))
			s->bad_order = true;
		s->stream_psn[k] = in->psn;
		s->stream_rx[k]++;
	}
}

static int
hook(void *arg, uint64_t idle_until_ns)
{
	struct sink *s = arg;

	(void)idle_until_ns;
	s->rx += rx_frames(s->port, sink_frame, s);
	return all_done(s) || rte_rdtsc() > s->t_end;
}

/* A ring pair: side a for the engine, side b (started) for the sink. */
static struct pcc_ring_pair *
pair_setup(const char *name, uint16_t *pa, uint16_t *pb)
{
	struct pcc_ring_pair *rp;
	struct rte_eth_conf ec;

	rp = pcc_ring_pair_create(name, 1, 1, RING_SIZE, (int)rte_socket_id());
	assert_non_null(rp);
	*pa = pcc_ring_pair_port(rp, 0);
	*pb = pcc_ring_pair_port(rp, 1);
	memset(&ec, 0, sizeof(ec));
	assert_int_equal(rte_eth_dev_configure(*pb, 1, 1, &ec), 0);
	assert_int_equal(rte_eth_rx_queue_setup(*pb, 0, RING_SIZE, rte_socket_id(), NULL, mp), 0);
	assert_int_equal(rte_eth_tx_queue_setup(*pb, 0, RING_SIZE, rte_socket_id(), NULL), 0);
	assert_int_equal(rte_eth_dev_start(*pb), 0);
	return rp;
}

/* An engine with port pa as RP, polled by the main lcore, flows flows. */
static void
conf_setup(struct pcc_engine_conf *conf, struct pcc_engine_rxq_conf *rxq, uint16_t pa,
		uint32_t flows)
{
	pcc_engine_conf_default(conf);
	conf->port[pa].roles = PCC_ENGINE_ROLE_RP;
	rxq->port_id = pa;
	rxq->queue_id = 0;
	rxq->lcore_id = rte_get_main_lcore();
	conf->rxq = rxq;
	conf->nb_rxq_conf = 1;
	conf->nb_rxd = RING_SIZE;
	conf->nb_txd = RING_SIZE;
	conf->flow.capacity = flows;
	conf->flow.idle_ms = 0;
	conf->gen.payload_len = 64;
	conf->rp.algo = "noop";
}

/*
 * Generator groups on port pa: msgs messages of pkts packets of payload
 * bytes each, unpaced, from QPN_MSG; streams endless streams of 64-byte
 * packets at 100 Mb/s, from QPN_STREAM.
 */
static void
groups_set(struct pcc_engine_gen_group grp[2], uint16_t pa, uint32_t msgs, uint32_t payload,
		uint32_t pkts, uint32_t streams)
{
	memset(grp, 0, 2 * sizeof(grp[0]));
	grp[0].port_id = pa;
	grp[0].count = msgs;
	grp[0].qpn_base = QPN_MSG;
	grp[0].payload_len = payload;
	grp[0].size = (uint64_t)payload * pkts;
	grp[0].unpaced = true;
	grp[1].port_id = pa;
	grp[1].count = streams;
	grp[1].qpn_base = QPN_STREAM;
	grp[1].payload_len = 64;
	grp[1].rate_mbps = 100;
}

/*
 * Create the engine of conf into *e (set before it starts: the hook reads
 * it), created held if hold, and run it on this lcore with the poll hook
 * until the hook stops it.
 */
static void
engine_run(const struct pcc_engine_conf *conf, pcc_engine_poll_hook_t hook, void *arg, bool hold,
		struct pcc_engine **e)
{
	*e = pcc_engine_create(conf);
	assert_non_null(*e);
	assert_int_equal(pcc_engine_set_poll_hook(*e, hook, arg), 0);
	if (hold)
		assert_int_equal(pcc_engine_hold(*e, true), 0);
	assert_int_equal(pcc_engine_start(*e), 0);
	pcc_engine_main_loop(*e, NULL, NULL, 1000);
	pcc_engine_stop(*e);
	pcc_engine_wait(*e);
}

/*
 * The generator flows of e (every lcore, every port) that keep no frame
 * template (they build every frame in full), and those whose template
 * patches the UDP checksum (IPv6) in *udp_ck.
 */
static unsigned int
tmpl_missing(const struct pcc_engine *e, unsigned int *udp_ck)
{
	unsigned int l, p, i, missing = 0;

	*udp_ck = 0;
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		const struct eng_lcore *lc = e->lcores[l];

		for (p = 0; lc != NULL && p < lc->nb_lports; p++) {
			const struct eng_gen *g = lc->lports[p]->gen;

			for (i = 0; g != NULL && i < g->nb; i++) {
				missing += g->flows[i]->tmpl.hdr_len == 0;
				*udp_ck += g->flows[i]->tmpl.udp_ck != 0;
			}
		}
	}
	return missing;
}

static void
test_gen_live_list(void **state)
{
	static struct pcc_engine_conf conf;
	static struct sink s;
	struct pcc_engine_gen_group grp[2];
	struct pcc_engine_rxq_conf rxq;
	struct pcc_ring_pair *rp;
	uint64_t tx_msg = 0, tx_stream = 0;
	unsigned int udp_ck;
	uint16_t pa, pb;
	uint32_t i, nb;

	(void)state;
	rp = pair_setup("gen_live", &pa, &pb);
	conf_setup(&conf, &rxq, pa, 2048);
	groups_set(grp, pa, MSG_FLOWS, 64, MSG_PKTS, STREAMS);
	conf.gen.groups = grp;
	conf.gen.nb_groups = 2;
	memset(&s, 0, sizeof(s));
	s.port = pb;
	s.t_end = rte_rdtsc() + 10 * rte_get_tsc_hz();
	engine_run(&conf, hook, &s, false, &s.e);

	assert_false(s.bad_order);
	assert_int_equal(s.icrc_bad, 0);
	assert_true(s.icrc_ok >= (uint64_t)MSG_FLOWS * MSG_PKTS + STREAMS * 2 * MSG_PKTS);
	assert_true(all_done(&s));
	nb = pcc_engine_gen_flow_count(s.e);
	assert_int_equal(nb, MSG_FLOWS + STREAMS);
	for (i = 0; i < nb; i++) {
		struct pcc_engine_gen_flow_stats st;

		assert_int_equal(pcc_engine_gen_flow_stats_get(s.e, i, &st), 0);
		if (st.qpn >= QPN_STREAM) {
			assert_int_equal(st.state, PCC_ENGINE_GEN_ACTIVE);
			tx_stream += st.tx_pkts;
		} else {
			assert_int_equal(st.state, PCC_ENGINE_GEN_DONE);
			assert_int_equal(st.tx_pkts, MSG_PKTS);
			tx_msg += st.tx_pkts;
		}
	}
	assert_int_equal(tx_msg, (uint64_t)MSG_FLOWS * MSG_PKTS);
	/* what the streams sent is there or on its way */
	assert_true(s.rx <= tx_msg + tx_stream);
	assert_true(s.rx >= tx_msg + STREAMS * 2 * MSG_PKTS);
	/* every flow's last frame left a template (the parser read its
	 * layout), none patching a UDP checksum over IPv4 */
	assert_int_equal(tmpl_missing(s.e, &udp_ck), 0);
	assert_int_equal(udp_ck, 0);
	pcc_engine_destroy(s.e);
	rte_eth_dev_stop(pb);
	pcc_ring_pair_free(rp);
}

#define HELD_ROUNDS 50
#define HELD_PKTS 20

struct held {
	struct pcc_engine *e;
	uint16_t port;
	uint32_t rounds;
	uint64_t rx;
	uint64_t rx_held; /* arrived while held */
	uint64_t tx_held; /* built while held */
	uint64_t t_end;
};

/* Counts rounds; releases the engine after HELD_ROUNDS of them. */
static int
held_hook(void *arg, uint64_t idle_until_ns)
{
	struct held *h = arg;
	struct pcc_engine_gen_flow_stats st;
	struct rte_mbuf *pkts[64];
	uint16_t n;

	(void)idle_until_ns;
	n = rte_eth_rx_burst(h->port, 0, pkts, RTE_DIM(pkts));
	rte_pktmbuf_free_bulk(pkts, n);
	h->rx += n;
	if (++h->rounds <= HELD_ROUNDS) {
		h->rx_held += n;
		if (pcc_engine_gen_flow_stats_get(h->e, 0, &st) == 0)
			h->tx_held += st.tx_pkts;
		if (h->rounds == HELD_ROUNDS)
			assert_int_equal(pcc_engine_hold(h->e, false), 0);
		return 0;
	}
	return h->rx >= HELD_PKTS || rte_rdtsc() > h->t_end;
}

static void
test_hold(void **state)
{
	static struct pcc_engine_conf conf;
	struct pcc_engine_gen_flow_stats st;
	struct pcc_engine_gen_group grp;
	struct pcc_engine_rxq_conf rxq;
	struct pcc_ring_pair *rp;
	struct held h;
	uint16_t pa, pb;

	(void)state;
	assert_int_equal(pcc_engine_hold(NULL, true), -EINVAL);
	rp = pair_setup("gen_hold", &pa, &pb);
	conf_setup(&conf, &rxq, pa, 64);
	/* one unpaced message: due from the first round */
	memset(&grp, 0, sizeof(grp));
	grp.port_id = pa;
	grp.count = 1;
	grp.qpn_base = QPN_MSG;
	grp.payload_len = 64;
	grp.size = 64 * HELD_PKTS;
	grp.unpaced = true;
	conf.gen.groups = &grp;
	conf.gen.nb_groups = 1;
	memset(&h, 0, sizeof(h));
	h.port = pb;
	h.t_end = rte_rdtsc() + 10 * rte_get_tsc_hz();
	engine_run(&conf, held_hook, &h, true, &h.e);

	assert_true(h.rounds > HELD_ROUNDS);
	assert_int_equal(h.tx_held, 0);
	assert_int_equal(h.rx_held, 0);
	/* released, the message went whole */
	assert_int_equal(h.rx, HELD_PKTS);
	assert_int_equal(pcc_engine_gen_flow_stats_get(h.e, 0, &st), 0);
	assert_int_equal(st.state, PCC_ENGINE_GEN_DONE);
	assert_int_equal(st.tx_pkts, HELD_PKTS);
	pcc_engine_destroy(h.e);
	rte_eth_dev_stop(pb);
	pcc_ring_pair_free(rp);
}

#define V6_MSGS 8
#define V6_MSG_PKTS 5
#define V6_STREAM_PKTS 64

struct v6_sink {
	uint16_t port;
	uint64_t msg_rx, stream_rx;
	uint64_t ck_bad, icrc_bad, not_v6;
	uint64_t t_end;
};

/* Every RoCE frame's ICRC and UDP checksum verified. */
static void
v6_frame(void *arg, const struct rte_mbuf *m, const struct pcc_pkt_info *in, bool icrc_ok)
{
	struct v6_sink *s = arg;
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);

	if (b[in->l3_off] >> 4 != 6) {
		s->not_v6++;
		return;
	}
	if (!icrc_ok)
		s->icrc_bad++;
	if (rte_ipv6_udptcp_cksum_verify(
			    (const struct rte_ipv6_hdr *)(b + in->l3_off), b + in->l4_off) != 0)
		s->ck_bad++;
	if (in->dqpn >= QPN_STREAM)
		s->stream_rx++;
	else
		s->msg_rx++;
}

static int
v6_hook(void *arg, uint64_t idle_until_ns)
{
	struct v6_sink *s = arg;

	(void)idle_until_ns;
	rx_frames(s->port, v6_frame, s);
	return (s->msg_rx >= V6_MSGS * V6_MSG_PKTS && s->stream_rx >= V6_STREAM_PKTS) ||
			rte_rdtsc() > s->t_end;
}

/*
 * IPv6 data frames: pcc_roce_build() fills in the UDP checksum, which
 * covers the BTH's PSN and the ICRC; the frames a flow's template makes
 * (a stream's after its first, a message's middle ones) patch both, and
 * the checksum with them.  Messages of 5 packets (FIRST, MIDDLE, LAST:
 * the template changes) with a payload that needs padding, and a stream.
 */
static void
test_gen_ipv6(void **state)
{
	static const uint8_t src6[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	static const uint8_t dst6[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };
	static struct pcc_engine_conf conf;
	static struct v6_sink s;
	struct pcc_engine_gen_group grp[2];
	struct pcc_engine_rxq_conf rxq;
	struct pcc_ring_pair *rp;
	struct pcc_engine *e;
	unsigned int udp_ck;
	uint16_t pa, pb;

	(void)state;
	rp = pair_setup("gen_v6", &pa, &pb);
	conf_setup(&conf, &rxq, pa, 64);
	conf.gen.ipv6 = true;
	memcpy(conf.gen.src_ip.v6, src6, sizeof(src6));
	memcpy(conf.gen.dst_ip.v6, dst6, sizeof(dst6));
	/* a payload that needs padding */
	groups_set(grp, pa, V6_MSGS, 61, V6_MSG_PKTS, 1);
	conf.gen.groups = grp;
	conf.gen.nb_groups = 2;
	memset(&s, 0, sizeof(s));
	s.port = pb;
	s.t_end = rte_rdtsc() + 10 * rte_get_tsc_hz();
	engine_run(&conf, v6_hook, &s, false, &e);
	assert_int_equal(s.not_v6, 0);
	assert_int_equal(s.icrc_bad, 0);
	assert_int_equal(s.ck_bad, 0);
	assert_int_equal(s.msg_rx, V6_MSGS * V6_MSG_PKTS);
	assert_true(s.stream_rx >= V6_STREAM_PKTS);
	/* the frames came from templates: each flow keeps one, with the
	 * UDP checksum to patch */
	assert_int_equal(tmpl_missing(e, &udp_ck), 0);
	assert_int_equal(udp_ck, pcc_engine_gen_flow_count(e));
	pcc_engine_destroy(e);
	rte_eth_dev_stop(pb);
	pcc_ring_pair_free(rp);
}

static int
group_setup(void **state)
{
	(void)state;
	if (test_eal_init("test_engine_gen", "512", "--log-level", "pcc.*:warning", NULL) < 0)
		return -1;
	/* the engine registers no algorithm: lib/host (or the caller) does */
	if (pcc_algos_register_builtin() < 0)
		return -1;
	mp = rte_pktmbuf_pool_create(
			"gen_test", 8191, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	return mp == NULL ? -1 : 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	rte_mempool_free(mp);
	test_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen_live_list),
		cmocka_unit_test(test_hold),
		cmocka_unit_test(test_gen_ipv6),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
