/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_SIM_PKT_H
#define TEST_SIM_PKT_H

/*
 * The model's tests (test_sim_model.c, test_sim_np.c): frames of a
 * scenario's flows built into mbufs of one pool, what a host would
 * receive, and the EAL and pool around them.  One test program each:
 * the pool is this file's static.  Include after cmocka.h.
 */

#include <stdint.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_ring.h>

#include "sim_internal.h"
#include "test_eal.h"
#include "test_sim_common.h"

#define US 1000ull
#define G100 100000000000ull
#define G10 10000000000ull

static struct rte_mempool *mp;

/* topologies of several tests */
#define ONE_TO_ONE "topology: {type: incast, senders: 1, host_link: {rate: 100G, delay: 1us}}\n"

#define DUMBBELL_2                                               \
	"topology: {type: dumbbell, senders: 2, receivers: 1,\n" \
	"  host_link: {rate: 100G, delay: 1us}, bottleneck: {rate: 100G, delay: 1us}}\n"

/* resources small enough for -m 512, no files, no progress line */
#define COMMON                                                  \
	"sim: {mbufs: 4095, packets: 16383, ring_size: 1024}\n" \
	"output: {dir: none, progress: false, plots: false}\n"

static inline struct pcc_sim_flow_info
flow_info(struct pcc_sim *sim, uint32_t idx)
{
	struct pcc_sim_flow_info fi[64];

	assert_true(pcc_sim_flows(sim, fi, 64) > idx);
	return fi[idx];
}

static inline void
l3_of(const struct pcc_sim_flow_info *f, uint8_t ecn, struct pcc_l3_spec *l3)
{
	memset(l3, 0, sizeof(*l3));
	memcpy(l3->src_mac, f->src_mac, 6);
	memcpy(l3->dst_mac, f->dst_mac, 6);
	l3->src.v4 = f->src_ip;
	l3->dst.v4 = f->dst_ip;
	l3->ecn = ecn;
	l3->udp_sport = f->udp_sport;
}

/* A RoCEv2 RC SEND_ONLY data packet of flow idx. */
static inline struct rte_mbuf *
data_pkt(struct pcc_sim *sim, uint32_t idx, uint32_t psn, uint32_t payload, uint8_t ecn,
		bool int_hdr, bool ackreq)
{
	struct pcc_sim_flow_info f = flow_info(sim, idx);
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	struct pcc_roce_spec r;
	struct pcc_l3_spec l3;
	int len;

	assert_non_null(m);
	l3_of(&f, ecn, &l3);
	memset(&r, 0, sizeof(r));
	r.bth.opcode = PCC_OP_RC_SEND_ONLY;
	r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r.bth.dqpn = f.dst_qpn;
	r.bth.psn = psn;
	r.bth.ackreq = ackreq;
	r.payload_len = payload;
	if (int_hdr) {
		r.bth.flags = PCC_BTH_INT;
		r.payload_len += PCC_INT_HDR_LEN;
	}
	len = pcc_roce_build(rte_pktmbuf_mtod(m, void *), rte_pktmbuf_tailroom(m), &l3, &r);
	assert_true(len > 0);
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	return m;
}

/* A plain IPv4/UDP frame of `len` bytes from host a to host b. */
static inline struct rte_mbuf *
udp_frame(struct pcc_sim *sim, uint16_t a, uint16_t b, uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	uint8_t *p;
	uint32_t ip_len = len - 14, sum = 0, i;

	assert_non_null(m);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	memset(p, 0, len);
	memcpy(p, sim->hosts[b].mac, 6);
	memcpy(p + 6, sim->hosts[a].mac, 6);
	p[12] = 0x08;
	p[14] = 0x45;
	p[16] = (uint8_t)(ip_len >> 8);
	p[17] = (uint8_t)ip_len;
	p[22] = 64;
	p[23] = 17;
	for (i = 0; i < 4; i++) {
		p[26 + i] = (uint8_t)(sim->hosts[a].ip >> (24 - 8 * i));
		p[30 + i] = (uint8_t)(sim->hosts[b].ip >> (24 - 8 * i));
	}
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)(p[14 + i] << 8 | p[15 + i]);
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	p[24] = (uint8_t)(~sum >> 8);
	p[25] = (uint8_t)~sum;
	p[34] = 0x30;
	p[35] = 0x39;
	p[36] = 0x04;
	p[37] = 0xD2; /* dport 1234 */
	p[38] = (uint8_t)((ip_len - 20) >> 8);
	p[39] = (uint8_t)(ip_len - 20);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	return m;
}

/* What the host's port would receive (the ring's object table read as
 * uintptr_t, its own element type: see sim_obj_t in sim.c). */
static inline unsigned int
rx_all(struct pcc_sim *sim, uint16_t host, struct rte_mbuf **m, unsigned int n)
{
	uintptr_t o[64];
	unsigned int i, got;

	got = rte_ring_dequeue_burst(sim->hosts[host].rxr, (void **)o, RTE_MIN(n, 64u), NULL);
	for (i = 0; i < got; i++)
		m[i] = (struct rte_mbuf *)o[i];
	return got;
}

static inline uint64_t
rx_ts(const struct pcc_sim *sim, const struct rte_mbuf *m)
{
	assert_true((m->ol_flags & sim->ts_flag) != 0);
	return *RTE_MBUF_DYNFIELD(m, sim->ts_off, rte_mbuf_timestamp_t *);
}

static inline void
free_all(struct rte_mbuf **m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_pktmbuf_free(m[i]);
}

static inline uint64_t
ser(uint64_t bytes, uint64_t rate)
{
	uint64_t rem = 0;

	return sim_ser_ns(bytes, rate, &rem);
}

static inline void
parse_ok(const struct rte_mbuf *m, struct pcc_pkt_info *info, bool icrc)
{
	struct pcc_parse_opts o;

	pcc_parse_opts_default(&o);
	o.check_icrc = icrc;
	assert_int_equal(pcc_parse_mbuf(m, &o, info), 0);
}

/* The EAL (-m 512) and the pool of the frames, for a test group. */
static inline int
sim_pkt_setup(const char *prog)
{
	rte_openlog_stream(stderr);
	if (test_eal_init(prog, "512", "--log-level", "pcc.sim:warning", NULL) < 0)
		return -1;
	mp = rte_pktmbuf_pool_create("test_mp", 4095, 0, 0, 4096, (int)rte_socket_id());
	return mp == NULL ? -1 : 0;
}

static inline void
sim_pkt_teardown(void)
{
	rte_mempool_free(mp);
	test_eal_cleanup();
}

#endif /* TEST_SIM_PKT_H */
