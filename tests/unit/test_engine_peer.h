/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_ENGINE_PEER_H
#define TEST_ENGINE_PEER_H

/*
 * The peer side of an engine on a ring pair, for the engine's tests: side
 * B's queues set up and started, drained; the generator group that makes
 * an engine's RP flows (one packet each, then nothing), and the addresses
 * the peer's CC packets carry.  Include after cmocka.h (it asserts).
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "pcc_algos.h"
#include "pcc_engine.h"
#include "pcc_proto.h"
#include "test_eal.h"

/* Configure and start side B (port pb) with nq queues of ring_size
 * descriptors, receiving into mp. */
static inline void
peer_port_start(uint16_t pb, uint16_t nq, uint16_t ring_size, struct rte_mempool *mp)
{
	struct rte_eth_conf ec;
	uint16_t q;

	memset(&ec, 0, sizeof(ec));
	assert_int_equal(rte_eth_dev_configure(pb, nq, nq, &ec), 0);
	for (q = 0; q < nq; q++) {
		assert_int_equal(
				rte_eth_rx_queue_setup(pb, q, ring_size, rte_socket_id(), NULL, mp),
				0);
		assert_int_equal(
				rte_eth_tx_queue_setup(pb, q, ring_size, rte_socket_id(), NULL), 0);
	}
	assert_int_equal(rte_eth_dev_start(pb), 0);
}

/* Free what the engine sent to side B's nq queues. */
static inline void
peer_drain(uint16_t pb, uint16_t nq)
{
	struct rte_mbuf *pkts[64];
	uint16_t q, n;

	for (q = 0; q < nq; q++)
		while ((n = rte_eth_rx_burst(pb, q, pkts, RTE_DIM(pkts))) > 0)
			rte_pktmbuf_free_bulk(pkts, n);
}

/*
 * conf's generator makes nb_flows flows on port pa, QPNs from qpn_base, of
 * one packet each (the flow exists, then sends nothing), unpaced; the
 * flows run noop.  grp must outlive the engine.
 */
static inline void
peer_gen_flows(struct pcc_engine_conf *conf, struct pcc_engine_gen_group *grp, uint16_t pa,
		uint32_t nb_flows, uint32_t qpn_base)
{
	memset(grp, 0, sizeof(*grp));
	grp->port_id = pa;
	grp->count = nb_flows;
	grp->qpn_base = qpn_base;
	grp->payload_len = 64;
	grp->size = 64;
	grp->unpaced = true;
	conf->gen.groups = grp;
	conf->gen.nb_groups = 1;
	conf->gen.payload_len = 64;
	conf->rp.algo = "noop";
}

/* The addresses of the peer's CC packets to the engine. */
static inline void
peer_l3_init(struct pcc_l3_spec *l3)
{
	memset(l3, 0, sizeof(*l3));
	memcpy(l3->dst_mac, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(l3->src_mac, "\x02\x00\x00\x00\x00\x02", 6);
	l3->src.v4 = RTE_IPV4(10, 0, 0, 2);
	l3->dst.v4 = RTE_IPV4(10, 0, 0, 1);
}

/*
 * A test's start: the EAL on lcores (1 GB, no hugepages), the built-in
 * algorithms, and a pool of nb_mbufs for both sides; the pool, or NULL
 * after a TAP "Bail out!" line saying what failed.
 */
static inline struct rte_mempool *
peer_env_init(const char *name, const char *lcores, const char *pool, unsigned int nb_mbufs)
{
	struct rte_mempool *mp;

	if (test_eal_init(name, "1024", "-l", lcores, NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return NULL;
	}
	if (pcc_algos_register_builtin() < 0) {
		printf("Bail out! algorithms\n");
		return NULL;
	}
	mp = rte_pktmbuf_pool_create(
			pool, nb_mbufs, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (mp == NULL)
		printf("Bail out! mbuf pool\n");
	return mp;
}

#endif /* TEST_ENGINE_PEER_H */
