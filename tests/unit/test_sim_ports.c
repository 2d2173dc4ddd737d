/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * End-to-end tests of the simulator's ethdev ports (drivers/sim), doing
 * what the engine does, with plain ethdev calls: configure and start the
 * sim ports, rte_eth_tx_burst() a RoCEv2 data packet on the sender's port,
 * step the sim, and rte_eth_rx_burst() the ACK (and the CNP of the
 * hardware NP when the packet is CE-marked), RX timestamps in virtual
 * time in the standard dynfield; the engine-NP path (marked data handed
 * to the receiver's port, the CNP sent there routed back to the sender);
 * the clock function; the rte_service; closing ports before destroy.
 * Virtual time only.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_service.h>

#include "pcc_proto.h"
#include "pcc_sim.h"
#include "test_sim_common.h"
#include "test_eal.h"

#define US 1000ull

static struct rte_mempool *mp;
static int ts_off = -1;
static uint64_t ts_flag;

#define COMMON                                                                        \
	"topology: {type: incast, senders: 1, host_link: {rate: 100G, delay: 1us}}\n" \
	"sim: {mbufs: 2047, packets: 4095, ring_size: 512}\n"                         \
	"output: {dir: none, progress: false, plots: false}\n"

/* What the engine does with a port: one RX and one TX queue, started. */
static void
port_up(uint16_t port)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	assert_int_equal(rte_eth_dev_configure(port, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(
					 port, 0, 256, (unsigned int)rte_socket_id(), NULL, mp),
			0);
	assert_int_equal(rte_eth_tx_queue_setup(port, 0, 256, (unsigned int)rte_socket_id(), NULL),
			0);
	assert_int_equal(rte_eth_dev_start(port), 0);
}

static void
ports_up(struct pcc_sim *sim)
{
	struct pcc_sim_port_info pi;
	uint16_t i;

	for (i = 0; i < pcc_sim_port_count(sim); i++) {
		assert_int_equal(pcc_sim_port_info_get(sim, i, &pi), 0);
		port_up(pi.port_id);
	}
}

static struct rte_mbuf *
data_pkt(const struct pcc_sim_flow_info *f, uint32_t psn, uint8_t ecn)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	struct pcc_roce_spec r;
	struct pcc_l3_spec l3;
	int len;

	assert_non_null(m);
	memset(&l3, 0, sizeof(l3));
	memcpy(l3.src_mac, f->src_mac, 6);
	memcpy(l3.dst_mac, f->dst_mac, 6);
	l3.src.v4 = f->src_ip;
	l3.dst.v4 = f->dst_ip;
	l3.ecn = ecn;
	l3.udp_sport = f->udp_sport;
	memset(&r, 0, sizeof(r));
	r.bth.opcode = PCC_OP_RC_RDMA_WRITE_ONLY;
	r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r.bth.dqpn = f->dst_qpn;
	r.bth.psn = psn;
	r.reth.dma_len = f->payload_len;
	r.payload_len = f->payload_len;
	len = pcc_roce_build(rte_pktmbuf_mtod(m, void *), rte_pktmbuf_tailroom(m), &l3, &r);
	assert_true(len > 0);
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	return m;
}

/* Step like the engine's worker would, until virtual time t. */
static void
step_until(struct pcc_sim *sim, uint64_t t)
{
	while (pcc_sim_now(sim) < t)
		assert_int_equal(pcc_sim_step(sim), 0);
}

static uint16_t
rx(uint16_t port, struct rte_mbuf **m, struct pcc_pkt_info *info, uint16_t n)
{
	uint16_t k, i;

	k = rte_eth_rx_burst(port, 0, m, n);
	for (i = 0; i < k; i++) {
		assert_int_equal(pcc_parse_mbuf(m[i], NULL, &info[i]), 0);
		assert_true((m[i]->ol_flags & ts_flag) != 0);
	}
	return k;
}

static uint64_t
ts_of(const struct rte_mbuf *m)
{
	return *RTE_MBUF_DYNFIELD(m, ts_off, rte_mbuf_timestamp_t *);
}

static void
free_all(struct rte_mbuf **m, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++)
		rte_pktmbuf_free(m[i]);
}

static void
test_hw_np(void **state)
{
	struct pcc_sim *sim = sim_from(COMMON "flows: [{src: s0, dst: r0, payload: 1024}]\n");
	struct pcc_sim_flow_info f;
	struct pcc_sim_port_info pi;
	struct pcc_sim_flow_stats fs;
	struct pcc_pkt_info info[8];
	struct rte_mbuf *m[8];
	uint16_t n, i, port;
	bool ack = false, cnp = false;

	(void)state;
	assert_int_equal(pcc_sim_port_count(sim), 1); /* r0's NP is the hardware model */
	assert_int_equal(pcc_sim_port_info_get(sim, 0, &pi), 0);
	assert_int_equal(pi.roles, PCC_SIM_ROLE_RP);
	port = pi.port_id;
	{
		char name[RTE_ETH_NAME_MAX_LEN];

		assert_int_equal(rte_eth_dev_get_name_by_port(port, name), 0);
		assert_string_equal(name, pi.dev_name);
	}
	assert_int_equal(pcc_sim_flows(sim, &f, 1), 1);
	assert_int_equal(f.src_port_id, port);
	assert_int_equal(f.dst_port_id, -1);
	ports_up(sim);
	/* the engine's clock for this port is virtual time */
	assert_int_equal(pcc_sim_clock(sim), 0);
	m[0] = data_pkt(&f, 0, PCC_ECN_ECT0);
	assert_int_equal(rte_eth_tx_burst(port, 0, m, 1), 1);
	step_until(sim, 10 * US);
	assert_int_equal(pcc_sim_clock(sim), pcc_sim_now(sim));
	n = rx(port, m, info, 8);
	assert_int_equal(n, 1);
	assert_int_equal(info[0].kind, PCC_PKT_ROCE_ACK);
	assert_int_equal(info[0].dqpn, f.qpn);
	assert_int_equal(info[0].psn, 0);
	assert_true(ts_of(m[0]) > 4 * US && ts_of(m[0]) < 5 * US);
	free_all(m, n);
	/* a CE-marked packet: the hardware NP answers with a CNP and the ACK */
	m[0] = data_pkt(&f, 1, PCC_ECN_CE);
	assert_int_equal(rte_eth_tx_burst(port, 0, m, 1), 1);
	step_until(sim, 20 * US);
	n = rx(port, m, info, 8);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++) {
		assert_int_equal(info[i].dqpn, f.qpn);
		assert_true(ts_of(m[i]) > 10 * US && ts_of(m[i]) < 20 * US);
		if (info[i].kind == PCC_PKT_CNP) {
			assert_true(info[i].bth_flags & PCC_BTH_BECN);
			assert_false(ack); /* the CNP leaves first */
			cnp = true;
		} else {
			assert_int_equal(info[i].kind, PCC_PKT_ROCE_ACK);
			assert_int_equal(info[i].psn, 1);
			ack = true;
		}
	}
	assert_true(ack && cnp);
	free_all(m, n);
	/* another marked packet within 50 us of the CNP: ACK only */
	m[0] = data_pkt(&f, 2, PCC_ECN_CE);
	assert_int_equal(rte_eth_tx_burst(port, 0, m, 1), 1);
	while (pcc_sim_now(sim) < 30 * US)
		assert_int_equal(pcc_sim_step_hook(sim), 0); /* the same, as a hook */
	n = rx(port, m, info, 8);
	assert_int_equal(n, 1);
	assert_int_equal(info[0].kind, PCC_PKT_ROCE_ACK);
	free_all(m, n);
	assert_int_equal(pcc_sim_flow_stats_get(sim, 0, &fs), 0);
	assert_int_equal(fs.tx_pkts, 3);
	assert_int_equal(fs.rx_pkts, 3);
	assert_int_equal(fs.ce_rx, 2);
	assert_int_equal(fs.cnps, 1);
	assert_int_equal(fs.acks, 3);
	/* the engine closes its ports before the sim goes */
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	pcc_sim_release(sim);
	pcc_sim_destroy(sim);
}

static void
test_engine_np(void **state)
{
	struct pcc_sim *sim = sim_from(COMMON "hosts: {np: engine}\n"
					      "flows: [{src: s0, dst: r0, payload: 512}]\n");
	struct pcc_sim_flow_info f;
	struct pcc_sim_flow_stats fs;
	struct pcc_pkt_info info[8];
	struct rte_mbuf *m[8];
	struct pcc_l3_spec l3;
	uint16_t n, sp, rp;
	int len;

	(void)state;
	assert_int_equal(pcc_sim_port_count(sim), 2);
	assert_int_equal(pcc_sim_flows(sim, &f, 1), 1);
	sp = (uint16_t)f.src_port_id;
	rp = (uint16_t)f.dst_port_id;
	ports_up(sim);
	/* unmarked data stays in the model (np_rx: cc); marked data reaches the NP port */
	m[0] = data_pkt(&f, 0, PCC_ECN_ECT0);
	m[1] = data_pkt(&f, 1, PCC_ECN_CE);
	assert_int_equal(rte_eth_tx_burst(sp, 0, m, 2), 2);
	step_until(sim, 10 * US);
	n = rx(rp, m, info, 8);
	assert_int_equal(n, 1);
	assert_int_equal(info[0].kind, PCC_PKT_ROCE_DATA);
	assert_int_equal(info[0].ecn, PCC_ECN_CE);
	assert_int_equal(info[0].psn, 1);
	free_all(m, n);
	/* the sender got its ACKs from the receiver's transport, no CNP yet */
	n = rx(sp, m, info, 8);
	assert_int_equal(n, 2);
	assert_int_equal(info[0].kind, PCC_PKT_ROCE_ACK);
	assert_int_equal(info[1].kind, PCC_PKT_ROCE_ACK);
	free_all(m, n);
	/* the engine's NP answers on r0's port: routed to s0 by its DestQP */
	m[0] = rte_pktmbuf_alloc(mp);
	assert_non_null(m[0]);
	memset(&l3, 0, sizeof(l3));
	memcpy(l3.src_mac, f.dst_mac, 6);
	memcpy(l3.dst_mac, f.src_mac, 6);
	l3.src.v4 = 0x0B000002; /* not a sim address: the QPN routes it */
	l3.dst.v4 = 0x0B000001;
	len = pcc_cnp_build(rte_pktmbuf_mtod(m[0], void *), rte_pktmbuf_tailroom(m[0]), &l3, f.qpn);
	assert_true(len > 0);
	m[0]->data_len = (uint16_t)len;
	m[0]->pkt_len = (uint32_t)len;
	assert_int_equal(rte_eth_tx_burst(rp, 0, m, 1), 1);
	step_until(sim, 20 * US);
	n = rx(sp, m, info, 8);
	assert_int_equal(n, 1);
	assert_int_equal(info[0].kind, PCC_PKT_CNP);
	assert_int_equal(info[0].dqpn, f.qpn);
	free_all(m, n);
	assert_int_equal(pcc_sim_flow_stats_get(sim, 0, &fs), 0);
	assert_int_equal(fs.cnps, 1);
	assert_int_equal(fs.acks, 2);
	/* destroy with the ports still up: the sim removes them */
	pcc_sim_release(sim);
	pcc_sim_destroy(sim);
	assert_false(rte_eth_dev_is_valid_port(sp));
	assert_false(rte_eth_dev_is_valid_port(rp));
}

static void
test_service(void **state)
{
	struct pcc_sim *sim = sim_from(COMMON "duration: 100us\nquantum: 1us\n"
					      "flows: [{src: s0, dst: r0}]\n");
	uint32_t id, again, i;

	(void)state;
	assert_int_equal(pcc_sim_service_register(sim, &id), 0);
	assert_int_equal(pcc_sim_service_register(sim, &again), -EEXIST);
	assert_int_equal(rte_service_runstate_set(id, 1), 0);
	/* free-running: whoever runs the service advances virtual time */
	for (i = 0; i < 10; i++)
		assert_int_equal(rte_service_run_iter_on_app_lcore(id, 1), 0);
	assert_int_equal(pcc_sim_now(sim), 10 * US);
	for (i = 0; i < 200 && !pcc_sim_done(sim); i++)
		assert_int_equal(rte_service_run_iter_on_app_lcore(id, 1), 0);
	assert_true(pcc_sim_done(sim));
	assert_int_equal(pcc_sim_now(sim), 100 * US);
	assert_int_equal(rte_service_runstate_set(id, 0), 0);
	assert_int_equal(pcc_sim_service_unregister(sim), 0);
	pcc_sim_release(sim);
	pcc_sim_destroy(sim);
}

/*
 * sim.hosts_per_port: s0 and s1 share one port, s2 has its own.  A frame
 * sent on the shared port is its source host's (by its address); one
 * from a host that is not on the port is dropped and counted; the answers
 * to both hosts come back on the port they share.
 */
static void
test_shared_port(void **state)
{
	struct pcc_sim *sim = sim_from(
			"topology: {type: incast, senders: 3, host_link: {rate: 100G, delay: "
			"1us}}\n"
			"sim: {mbufs: 2047, packets: 4095, ring_size: 512, hosts_per_port: 2}\n"
			"output: {dir: none, progress: false, plots: false}\n"
			"flows: [{src: [s0, s1, s2], dst: r0, payload: 1024}]\n");
	struct pcc_sim_flow_info f[3];
	struct pcc_sim_port_info p0, p1;
	struct pcc_sim_flow_stats fs;
	struct pcc_sim_stats st;
	struct pcc_pkt_info info[8];
	struct rte_mbuf *m[8];
	uint16_t n;

	(void)state;
	assert_int_equal(pcc_sim_port_count(sim), 2);
	assert_int_equal(pcc_sim_port_info_get(sim, 0, &p0), 0);
	assert_int_equal(pcc_sim_port_info_get(sim, 1, &p1), 0);
	assert_int_equal(p0.nb_hosts, 2);
	assert_string_equal(p0.host_name, "s0");
	assert_int_equal(p1.nb_hosts, 1);
	assert_string_equal(p1.host_name, "s2");
	assert_int_equal(pcc_sim_flows(sim, f, 3), 3);
	assert_int_equal(f[0].src_port_id, p0.port_id);
	assert_int_equal(f[1].src_port_id, p0.port_id);
	assert_int_equal(f[2].src_port_id, p1.port_id);
	assert_int_equal(pcc_sim_host_port_id(sim, f[1].src_host), p0.port_id);
	assert_int_equal(pcc_sim_host_port_id(sim, f[2].src_host), p1.port_id);
	assert_int_equal(pcc_sim_host_port_id(sim, f[0].dst_host), -ENOENT); /* hardware NP */
	ports_up(sim);
	/* s1's data on the port it shares with s0: s1's flow, s1's answer */
	m[0] = data_pkt(&f[1], 0, PCC_ECN_ECT0);
	assert_int_equal(rte_eth_tx_burst(p0.port_id, 0, m, 1), 1);
	step_until(sim, 10 * US);
	n = rx(p0.port_id, m, info, 8);
	assert_int_equal(n, 1);
	assert_int_equal(info[0].kind, PCC_PKT_ROCE_ACK);
	assert_int_equal(info[0].dqpn, f[1].qpn);
	assert_int_equal(info[0].dst.v4, f[1].src_ip);
	assert_int_equal(m[0]->port, p0.port_id);
	free_all(m, n);
	assert_int_equal(pcc_sim_flow_stats_get(sim, 1, &fs), 0);
	assert_int_equal(fs.tx_pkts, 1);
	assert_int_equal(fs.acks, 1);
	assert_int_equal(pcc_sim_flow_stats_get(sim, 0, &fs), 0);
	assert_int_equal(fs.tx_pkts, 0);
	/* s2's data on s0's port: not a host of that port */
	m[0] = data_pkt(&f[2], 0, PCC_ECN_ECT0);
	assert_int_equal(rte_eth_tx_burst(p0.port_id, 0, m, 1), 1);
	step_until(sim, 20 * US);
	assert_int_equal(rx(p0.port_id, m, info, 8), 0);
	assert_int_equal(rx(p1.port_id, m, info, 8), 0);
	assert_int_equal(pcc_sim_stats_get(sim, &st), 0);
	assert_int_equal(st.unroutable, 1);
	assert_int_equal(pcc_sim_flow_stats_get(sim, 2, &fs), 0);
	assert_int_equal(fs.tx_pkts, 0);
	sim_free(sim);
}

/* What the shared ports refuse: a QPN two hosts of one port both use, and
 * more engine hosts than ethdev ports (the error names the fix). */
static void
test_shared_port_refused(void **state)
{
	static const char *const bad[] = {
		/* s0 and s1 share a port, their flows a QPN */
		"topology: {type: incast, senders: 2, receivers: 2}\n"
		"sim: {hosts_per_port: 2}\n"
		"output: {dir: none, progress: false, plots: false}\n"
		"flows: [{src: s0, dst: r0, qpn: 0x300}, {src: s1, dst: r1, qpn: 0x300}]\n",
		/* the same with s1's flow a model source: its answers reach
		 * the engine on the shared port too */
		"topology: {type: incast, senders: 2, receivers: 2}\n"
		"sim: {hosts_per_port: 2}\n"
		"output: {dir: none, progress: false, plots: false}\n"
		"flows: [{src: s0, dst: r0, qpn: 0x300}, {src: s1, dst: r0},\n"
		"        {src: s1, dst: r1, qpn: 0x300, source: model, rate: 1G}]\n",
		/* 40 senders, a port each: more than RTE_MAX_ETHPORTS */
		"topology: {type: incast, senders: 40}\n"
		"output: {dir: none, progress: false, plots: false}\n"
		"flows: [{src: [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, "
		"s14, s15, s16, s17, s18, s19, s20, s21, s22, s23, s24, s25, s26, s27, s28, "
		"s29, s30, s31, s32, s33, s34, s35, s36, s37, s38, s39], dst: r0}]\n",
	};
	static const int errs[] = { EINVAL, EINVAL, ENOSPC };
	char err[512];
	unsigned int i;

	(void)state;
	RTE_BUILD_BUG_ON(RTE_MAX_ETHPORTS >= 40);
	for (i = 0; i < RTE_DIM(bad); i++) {
		struct pcc_sim_scenario *s = pcc_sim_scenario_parse(
				bad[i], strlen(bad[i]), "t.yaml", err, sizeof(err));

		if (s == NULL)
			fail_msg("%s", err);
		assert_null(pcc_sim_create(s, PCC_SIM_SEED_SCENARIO));
		assert_int_equal(rte_errno, errs[i]);
		/* no port is left behind */
		assert_int_equal(rte_eth_dev_count_total(), 0);
		pcc_sim_scenario_free(s);
	}
	/* the same QPNs on hosts with ports of their own are fine */
	sim_free(sim_from("topology: {type: incast, senders: 2, receivers: 2}\n"
			  "output: {dir: none, progress: false, plots: false}\n"
			  "flows: [{src: s0, dst: r0, qpn: 0x300}, {src: s1, dst: r1, qpn: "
			  "0x300}]\n"));
	/* two model flows of two hosts on one port with one QPN: the RP
	 * knows neither, so their answers cannot mix */
	sim_free(sim_from("topology: {type: incast, senders: 2, receivers: 2}\n"
			  "sim: {hosts_per_port: 2}\n"
			  "output: {dir: none, progress: false, plots: false}\n"
			  "flows: [{src: [s0, s1], dst: r0},\n"
			  "        {src: s0, dst: r0, qpn: 0x300, source: model, rate: 1G},\n"
			  "        {src: s1, dst: r1, qpn: 0x300, source: model, rate: 1G}]\n"));
	/* 40 senders on 5 ports */
	sim_free(sim_from("topology: {type: incast, senders: 40}\n"
			  "sim: {hosts_per_port: 8}\n"
			  "output: {dir: none, progress: false, plots: false}\n"
			  "flows: [{src: [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, "
			  "s13, s14, s15, s16, s17, s18, s19, s20, s21, s22, s23, s24, s25, s26, "
			  "s27, s28, s29, s30, s31, s32, s33, s34, s35, s36, s37, s38, s39], "
			  "dst: r0}]\n"));
}

static int
group_setup(void **state)
{
	(void)state;
	rte_openlog_stream(stderr);
	if (test_eal_init("test_sim_ports", "512", "--log-level", "pcc.sim:warning", NULL) < 0)
		return -1;
	mp = rte_pktmbuf_pool_create(
			"test_mp", 2047, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (mp == NULL)
		return -1;
	/* what an engine does to find RX timestamps */
	if (rte_mbuf_dyn_rx_timestamp_register(&ts_off, &ts_flag) != 0)
		return -1;
	return 0;
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
		cmocka_unit_test(test_hw_np),
		cmocka_unit_test(test_engine_np),
		cmocka_unit_test(test_service),
		cmocka_unit_test(test_shared_port),
		cmocka_unit_test(test_shared_port_refused),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
