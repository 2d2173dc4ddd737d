/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The receivers' ACK/NAK and CNP frames from per-flow templates
 * (drivers/sim/sim_frames.c): byte for byte what pcc_roce_build() and
 * pcc_cnp_build() write for the same fields (the ICRC included), over
 * random PSNs, MSNs, ACKs and NAKs, echoed INT headers and DSCP changes
 * that rebuild the template; the flows' ACK/CNP 5-tuple hash as the
 * frames' own; and the model's packets reused once freed, the pool
 * running out as before.
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
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_errno.h>

#include "sim_internal.h"
#include "test_eal.h"
#include "test_sim_common.h"

#define SCN                                                                                    \
	"topology: {type: incast, senders: 3, host_link: {rate: 100G, delay: 1us}}\n"          \
	"flows: [{src: s0, dst: r0}, {src: s1, dst: r0}, {src: s2, dst: r0, qpn: 0x123456}]\n" \
	"hosts: {cnp_dscp: 48}\n"                                                              \
	"sim: {mbufs: 1023, packets: 1023, ring_size: 256}\n"                                  \
	"output: {dir: none, progress: false, plots: false}\n"

/* what the receiver's ACK was built with before templates */
static int
ack_ref(struct pcc_sim *sim, uint32_t fi, bool nak, uint32_t psn, uint8_t *buf, uint32_t cap)
{
	const struct sim_flow *f = &sim->flows[fi];
	struct pcc_roce_spec r;
	struct pcc_l3_spec l3;

	sim_l3_between(sim, f->c.dst, f->c.src, f->sport, f->dscp, PCC_ECN_NOT_ECT, &l3);
	memset(&r, 0, sizeof(r));
	r.bth.opcode = PCC_OP_RC_ACK;
	r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r.bth.dqpn = f->c.qpn;
	r.bth.psn = psn & PCC_PSN_MASK;
	r.aeth.syndrome = nak ? (uint8_t)((PCC_AETH_NAK << 5) | PCC_NAK_PSN_SEQ_ERR) : 0x1F;
	r.aeth.msn = f->msn;
	if (!nak && f->has_int) {
		r.bth.flags = PCC_BTH_INT;
		r.payload = f->int_echo;
		r.payload_len = PCC_INT_HDR_LEN;
	}
	return pcc_roce_build(buf, cap, &l3, &r);
}

static void
test_ack(void **state)
{
	struct pcc_sim *sim = sim_from(SCN);
	uint8_t got[256], want[256];
	uint64_t x = 42, v;
	uint32_t i, k, fi, psn;
	int n, m;
	bool nak;

	(void)state;
	for (i = 0; i < 20000; i++) {
		struct sim_flow *f;

		v = sim_splitmix64(&x);
		fi = (uint32_t)(v % 3);
		f = &sim->flows[fi];
		nak = (v >> 8) % 16 == 0;
		psn = (uint32_t)(v >> 12) & PCC_PSN_MASK;
		if (i % 7 == 0)
			psn = PCC_PSN_MASK - (i % 3); /* near the wrap */
		f->msn = (uint32_t)(v >> 40) & PCC_QPN_MASK;
		if ((v >> 36) % 64 == 0)
			f->dscp = (uint8_t)((v >> 20) % 64); /* rebuilds the template */
		if ((v >> 30) % 32 == 0)
			f->has_int = !f->has_int;
		if (f->has_int)
			for (k = 0; k < PCC_INT_HDR_LEN; k++)
				f->int_echo[k] = (uint8_t)sim_splitmix64(&x);
		memset(got, 0xA5, sizeof(got));
		n = sim_ack_build(sim, fi, nak, psn, got, sizeof(got));
		m = ack_ref(sim, fi, nak, psn, want, sizeof(want));
		assert_true(m > 0);
		assert_int_equal(n, m);
		assert_memory_equal(got, want, (size_t)m);
	}
	/* no room: an error, nothing past cap written */
	memset(got, 0xA5, sizeof(got));
	assert_true(sim_ack_build(sim, 0, false, 1, got, 20) < 0);
	for (k = 20; k < sizeof(got); k++)
		assert_int_equal(got[k], 0xA5);
	pcc_sim_release(sim);
	pcc_sim_destroy(sim);
}

static void
test_cnp_and_hash(void **state)
{
	struct pcc_sim *sim = sim_from(SCN);
	uint8_t got[256], want[256];
	struct pcc_l3_spec l3;
	uint32_t fi, i;
	int n, m;

	(void)state;
	for (i = 0; i < 6; i++) {
		const struct sim_flow *f;

		fi = i % 3;
		f = &sim->flows[fi];
		sim_l3_between(sim, f->c.dst, f->c.src, f->sport, 48, PCC_ECN_NOT_ECT, &l3);
		m = pcc_cnp_build(want, sizeof(want), &l3, f->c.qpn);
		assert_true(m > 0);
		memset(got, 0xA5, sizeof(got));
		n = sim_cnp_build(sim, fi, got, sizeof(got));
		assert_int_equal(n, m);
		assert_memory_equal(got, want, (size_t)m);
		assert_int_equal(f->back_hash, sim_l3_hash(&l3));
	}
	assert_int_not_equal(sim->flows[0].back_hash, sim->flows[1].back_hash);
	pcc_sim_release(sim);
	pcc_sim_destroy(sim);
}

/* freed packets are reused first; the pool runs out as before */
static void
test_pkt_reuse(void **state)
{
	struct pcc_sim *sim = sim_from(SCN);
	struct sim_pkt **all, *p;
	uint64_t empty = sim->st.pool_empty;
	uint32_t n = 0, i;

	(void)state;
	all = calloc(4096, sizeof(*all));
	assert_non_null(all);
	while (n < 4096 && (all[n] = sim_pkt_alloc(sim)) != NULL) {
		all[n]->flow = 7; /* dirty it */
		n++;
	}
	assert_true(n > 0 && n < 4096);
	assert_int_equal(sim->st.pool_empty, empty + 1);
	for (i = 0; i < n; i++)
		sim_pkt_free(sim, all[i]);
	p = sim_pkt_alloc(sim);
	assert_ptr_equal(p, all[n - 1]); /* the last freed */
	assert_int_equal(p->flow, 0);    /* zeroed */
	assert_null(p->next);
	for (i = 1; i < n; i++)
		assert_non_null(sim_pkt_alloc(sim));
	assert_null(sim_pkt_alloc(sim));
	assert_int_equal(sim->st.pool_empty, empty + 2);
	free(all);
	pcc_sim_release(sim);
	pcc_sim_destroy(sim);
}

/* Every mbuf the sim's pool still has, into all[] (room for size + 1):
 * how many. */
static unsigned int
pool_take_all(struct pcc_sim *sim, struct rte_mbuf **all, unsigned int size)
{
	unsigned int n = 0;

	while (n <= size && (all[n] = sim_mbuf_alloc(sim)) != NULL)
		n++;
	return n;
}

/* m freed as a model frame's, its packet marked as the model's own. */
static void
free_own(struct pcc_sim *sim, struct rte_mbuf *m)
{
	struct sim_pkt *p = sim_pkt_alloc(sim);

	assert_non_null(p);
	p->m = m;
	p->flags = SIM_PKT_F_OWN;
	sim_pkt_free(sim, p);
}

/* m (not NULL), holding flow 0's ACK. */
static struct rte_mbuf *
ack_mbuf(struct pcc_sim *sim, struct rte_mbuf *m)
{
	int n;

	assert_non_null(m);
	n = sim_ack_build(sim, 0, false, 1, rte_pktmbuf_mtod(m, void *), rte_pktmbuf_tailroom(m));
	assert_int_equal(sim_mbuf_build_done(sim, m, n), 0);
	return m;
}

/*
 * The model's own mbufs are freed late (SIM_MLATE late frees later); an
 * allocation that finds the pool empty frees them and tries again, so
 * every mbuf of the pool is had again before one fails; a release frees
 * what is left.  Others' mbufs are freed at once.
 */
static void
test_mbuf_late(void **state)
{
	struct pcc_sim *sim = sim_from(SCN);
	unsigned int size = sim->mbuf_pool->size, n, i, k;
	uint64_t empty = sim->st.pool_empty;
	struct rte_mbuf **all, *m;
	struct sim_pkt *p;

	(void)state;
	all = calloc(size + 1, sizeof(*all));
	assert_non_null(all);
	/* all of the pool had, then freed late; all of it had again */
	for (i = 0; i < 2; i++) {
		n = pool_take_all(sim, all, size);
		assert_int_equal(n, size);
		assert_int_equal(sim->st.pool_empty, empty + 1 + i);
		for (k = 0; k < n; k++)
			free_own(sim, all[k]);
		/* held late: the pool lacks them */
		assert_int_equal(rte_mempool_avail_count(sim->mbuf_pool), size - SIM_MLATE);
	}
	pcc_sim_release(sim);
	assert_int_equal(rte_mempool_avail_count(sim->mbuf_pool), size);
	/* not the model's own: freed at once */
	m = sim_mbuf_alloc(sim);
	assert_non_null(m);
	p = sim_pkt_alloc(sim);
	assert_non_null(p);
	p->m = m;
	sim_pkt_free(sim, p);
	assert_int_equal(rte_mempool_avail_count(sim->mbuf_pool), size);
	free(all);
	pcc_sim_destroy(sim);
}

/* A frame the model sends is its own when its mbuf is the sim's pool's
 * and nobody else's (sim_model_tx(), held back on the host's delayed
 * list here); not with another pool's, nor with a second reference. */
static void
test_mbuf_own(void **state)
{
	struct pcc_sim *sim = sim_from(SCN);
	const struct sim_flow *f = &sim->flows[0];
	const struct sim_host *ho = &sim->hosts[f->c.dst];
	struct rte_mempool *other;
	struct rte_mbuf *m[3];
	unsigned int i;

	(void)state;
	other = rte_pktmbuf_pool_create("test_mbuf_own", 63, 0, 0, 512, SOCKET_ID_ANY);
	assert_non_null(other);
	m[0] = ack_mbuf(sim, sim_mbuf_alloc(sim));
	m[1] = ack_mbuf(sim, rte_pktmbuf_alloc(other));
	m[2] = ack_mbuf(sim, sim_mbuf_alloc(sim));
	rte_mbuf_refcnt_update(m[2], 1); /* held elsewhere too */
	for (i = 0; i < 3; i++) {
		sim_model_tx(sim, f->c.dst, f->c.src, 0, m[i], PCC_PKT_ROCE_ACK, f->back_hash,
				1000);
		assert_non_null(ho->delayed.tail);
		assert_ptr_equal(ho->delayed.tail->m, m[i]);
		assert_int_equal((ho->delayed.tail->flags & SIM_PKT_F_OWN) != 0, i == 0);
	}
	pcc_sim_release(sim);
	/* the other pool's, freed by the release, at once */
	assert_int_equal(rte_mempool_avail_count(other), 63);
	rte_pktmbuf_free(m[2]); /* the second reference */
	assert_int_equal(rte_mempool_avail_count(sim->mbuf_pool), sim->mbuf_pool->size);
	pcc_sim_destroy(sim);
	rte_mempool_free(other);
}

/*
 * A probe's frame to rewrite: its own mbuf when only the model holds it,
 * else a copy.  With the pool empty but for the late frees, the copy
 * frees them and is made (pool_empty not counted); with nothing late
 * either, there is none and pool_empty counts it.
 */
static void
test_probe_frame_take(void **state)
{
	struct pcc_sim *sim = sim_from(SCN);
	unsigned int size = sim->mbuf_pool->size, n, k;
	uint64_t empty = sim->st.pool_empty;
	struct rte_mbuf **all, *m, *c;
	struct sim_pkt *p;

	(void)state;
	all = calloc(size + 1, sizeof(*all));
	assert_non_null(all);
	/* the model's only reference: the mbuf itself, taken from pkt */
	m = ack_mbuf(sim, sim_mbuf_alloc(sim));
	p = sim_pkt_alloc(sim);
	assert_non_null(p);
	p->m = m;
	assert_ptr_equal(sim_probe_frame_take(sim, p), m);
	assert_null(p->m);
	sim_pkt_free(sim, p);
	/* held elsewhere too: a copy; the pool all had, SIM_MLATE of it
	 * freed late */
	rte_mbuf_refcnt_update(m, 1);
	n = pool_take_all(sim, all, size);
	assert_int_equal(n, size - 1);
	assert_int_equal(sim->st.pool_empty, empty + 1);
	for (k = 0; k < SIM_MLATE; k++)
		free_own(sim, all[--n]);
	assert_int_equal(rte_mempool_avail_count(sim->mbuf_pool), 0);
	p = sim_pkt_alloc(sim);
	assert_non_null(p);
	p->m = m;
	c = sim_probe_frame_take(sim, p);
	assert_non_null(c);
	assert_ptr_not_equal(c, m);
	assert_ptr_equal(p->m, m);
	assert_int_equal(c->pkt_len, m->pkt_len);
	assert_memory_equal(rte_pktmbuf_mtod(c, void *), rte_pktmbuf_mtod(m, void *), m->pkt_len);
	assert_int_equal(sim->st.pool_empty, empty + 1);
	/* nothing late left, the pool empty: none */
	while (rte_mempool_avail_count(sim->mbuf_pool) > 0)
		all[n++] = sim_mbuf_alloc(sim);
	assert_null(sim_probe_frame_take(sim, p));
	assert_int_equal(sim->st.pool_empty, empty + 2);
	sim_pkt_free(sim, p); /* one of m's references */
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(c);
	for (k = 0; k < n; k++)
		rte_pktmbuf_free(all[k]);
	pcc_sim_release(sim);
	assert_int_equal(rte_mempool_avail_count(sim->mbuf_pool), size);
	free(all);
	pcc_sim_destroy(sim);
}

static int
group_setup(void **state)
{
	(void)state;
	return test_eal_init("test_sim_frames", "512", "--log-level", "pcc.sim:warning", NULL) < 0 ?
			-1 :
			0;
}

static int
group_teardown(void **state)
{
	(void)state;
	test_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ack),
		cmocka_unit_test(test_cnp_and_hash),
		cmocka_unit_test(test_pkt_reuse),
		cmocka_unit_test(test_mbuf_late),
		cmocka_unit_test(test_mbuf_own),
		cmocka_unit_test(test_probe_frame_take),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
