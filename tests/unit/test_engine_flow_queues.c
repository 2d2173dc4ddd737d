/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the flow table's queues of flows (lib/engine/flow.c,
 * engine_flow.h): the timer FIFOs (stale entries, compaction, one pool
 * shared by every port's FIFO) and the TX coalescing lists against a
 * model.  EAL without hugepages.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_log.h>

#include "engine_internal.h"
#include "test_eal.h"
#include "test_engine_flow.h"

/* q's entries, head first, into out (at most max); how many there are. */
static uint32_t
fifo_entries(const struct eng_fifo *q, uint64_t *out, uint32_t max)
{
	uint32_t c = q->hc, o = q->head, n = 0;

	if (eng_fifo_empty(q))
		return 0;
	while (c != q->tc || o != q->tail) {
		if (o == ENG_FIFO_CHUNK) {
			c = q->pool->next[c];
			assert_true(c != ENG_FIFO_NONE);
			o = 0;
			continue;
		}
		if (n < max)
			out[n] = q->pool->e[(size_t)c * ENG_FIFO_CHUNK + o];
		n++;
		o++;
	}
	return n;
}

/* The chunks q holds: from its head's to its tail's. */
static uint32_t
fifo_nb_chunks(const struct eng_fifo *q)
{
	uint32_t c = q->hc, n = 1;

	if (eng_fifo_empty(q))
		return 0;
	while (c != q->tc) {
		c = q->pool->next[c];
		n++;
	}
	return n;
}

/* Every chunk of the pool is either free or one FIFO's. */
static void
pool_accounted(void)
{
	uint32_t l, used = 0, c, nfree = 0;

	for (l = 0; l < ft.nb_lists; l++)
		used += fifo_nb_chunks(&ft.lists[l].timer);
	for (c = ft.fifo.free; c != ENG_FIFO_NONE; c = ft.fifo.next[c])
		nfree++;
	assert_int_equal(nfree, ft.fifo.nb_free);
	assert_int_equal(used + nfree, ft.fifo.nb_chunks);
}

/* The qpns of q's current entries, head first; how many. */
static uint32_t
fifo_qpns(const struct eng_fifo *q, uint32_t *out, uint32_t max)
{
	static uint64_t v[1u << 14]; /* more than any test's pool holds */
	uint32_t i, n = 0, nv = fifo_entries(q, v, RTE_DIM(v));

	assert_true(nv <= RTE_DIM(v));
	for (i = 0; i < nv; i++) {
		const struct eng_flow *f = eng_flow_at(&ft, eng_fifo_idx(v[i]));

		if (eng_fifo_current(f, v[i]) && n < max)
			out[n++] = f->key.qpn;
	}
	return n;
}

/*
 * A flow that leaves the table leaves its FIFO entry stale: the flow that
 * takes its index (on another list here) is not in that FIFO, and queues
 * itself on its own list.  Churn through a full table fills a FIFO with
 * stale entries: the push compacts it, the current entries in order.
 */
static void
test_fifo_stale(void **state)
{
	/* not a multiple of a chunk */
	const uint32_t cap = 48;
	struct eng_fifo *q0, *q1;
	struct eng_flow *f, *g;
	uint32_t qpns[CAP], i, n, idx, round;

	(void)state;
	table_new(cap, PCC_ENGINE_FLOW_FULL_EVICT, 0);
	q0 = &ft.lists[0].timer;
	q1 = &ft.lists[1].timer;
	/* the pool: twice every flow queued, two chunks a FIFO (a port's) */
	assert_int_equal(ft.fifo.nb_chunks,
			2 * ((cap + ENG_FIFO_CHUNK - 1) / ENG_FIFO_CHUNK) + 2 * 2 + 1);
	for (i = 0; i < cap; i++) {
		f = add(100 + i, 0, i, NULL);
		assert_non_null(f);
		f->flags |= ENG_FLOW_F_TIMER_Q;
		eng_fifo_push(&ft, q0, f, eng_flow_idx(&ft, f));
	}
	/* full table: a new flow on list 1 takes the longest idle's index */
	g = add(500, 1, cap, NULL);
	assert_non_null(g);
	assert_int_equal(last_evicted, eng_flow_idx(&ft, g));
	assert_false(g->flags & ENG_FLOW_F_TIMER_Q);
	/* list 0's head is stale: not g's */
	assert_false(eng_fifo_current(g, eng_fifo_peek(q0)));
	n = fifo_qpns(q0, qpns, RTE_DIM(qpns));
	assert_int_equal(n, cap - 1);
	for (i = 0; i < n; i++)
		assert_int_equal(qpns[i], 101 + i);
	g->flags |= ENG_FLOW_F_TIMER_Q;
	eng_fifo_push(&ft, q1, g, eng_flow_idx(&ft, g));
	assert_true(eng_fifo_current(g, eng_fifo_peek(q1)));
	/* churn: every round the oldest flow goes, a new one comes on list 0
	 * and queues; every chunk of the pool stays free or a FIFO's, and
	 * after every push list 0's current entries are its flows, oldest
	 * first */
	for (round = 0; round < 8 * ft.fifo.nb_chunks * ENG_FIFO_CHUNK + 5; round++) {
		f = add(1000 + round, 0, cap + 1 + round, NULL);
		assert_non_null(f);
		idx = eng_flow_idx(&ft, f);
		f->flags |= ENG_FLOW_F_TIMER_Q;
		eng_fifo_push(&ft, q0, f, idx);
		pool_accounted();
		n = fifo_qpns(q0, qpns, RTE_DIM(qpns));
		assert_int_equal(n, ft.lists[0].nb);
		for (i = 1; i < n; i++)
			assert_true(qpns[i] > qpns[i - 1]);
		assert_int_equal(qpns[n - 1], 1000 + round);
	}
	eng_ftable_fini(&ft);
}

/*
 * The push that finds the pool empty: churn through a table of 48 flows
 * on one port fills the whole pool with that port's FIFO, mostly stale;
 * the next flow (which evicts the oldest) pushes: the compaction keeps
 * the 47 entries still current, which leaves room in the chunk they are
 * now in, and the push goes there: 48 entries, every one current, in
 * order, nothing between them.
 */
static void
test_fifo_compact_room(void **state)
{
	const uint32_t cap = 48;
	uint32_t qpns[CAP], i, n, pushes;
	static uint64_t v[1u << 14];
	struct eng_fifo *q;
	struct eng_flow *f;

	(void)state;
	table_new(cap, PCC_ENGINE_FLOW_FULL_EVICT, 0);
	q = &ft.lists[0].timer;
	pushes = ft.fifo.nb_chunks * ENG_FIFO_CHUNK;
	for (i = 0; i < pushes; i++) {
		f = add(1000 + i, 0, i, NULL);
		assert_non_null(f);
		eng_fifo_push(&ft, q, f, eng_flow_idx(&ft, f));
	}
	/* the port's FIFO holds the whole pool, its last chunk full */
	assert_int_equal(ft.fifo.nb_free, 0);
	assert_int_equal(fifo_entries(q, v, RTE_DIM(v)), pushes);
	f = add(1000 + pushes, 0, pushes, NULL);
	assert_non_null(f);
	eng_fifo_push(&ft, q, f, eng_flow_idx(&ft, f));
	pool_accounted();
	assert_int_equal(fifo_nb_chunks(q), 1);
	assert_int_equal(fifo_entries(q, v, RTE_DIM(v)), cap);
	n = fifo_qpns(q, qpns, RTE_DIM(qpns));
	assert_int_equal(n, cap);
	for (i = 0; i < n; i++)
		assert_int_equal(qpns[i], 1000 + pushes + 1 - cap + i);
	eng_ftable_fini(&ft);
}

/*
 * Sixteen ports' FIFOs share one pool sized by the table, not by the
 * ports: churn through a full table of 48 flows spread over the ports,
 * every push on the new flow's own port, every 16th round the head of
 * some port's FIFO popped.  The stale entries run the pool out again and
 * again: every FIFO is compacted.  After each step every chunk is free or
 * one FIFO's, and each FIFO's current entries are its port's queued
 * flows in the order they were queued.
 */
static void
test_fifo_ports_share(void **state)
{
	const uint32_t cap = 48;
	const uint16_t nl = 16;
	static uint32_t queued[16][200 * 48];
	uint32_t qpns[CAP], n, round, l, nq[16];
	struct eng_flow *f;

	(void)state;
	table_new_lists(cap, PCC_ENGINE_FLOW_FULL_EVICT, 0, nl);
	/* 16 ports: 16 FIFOs of two chunks each at most */
	assert_int_equal(ft.fifo.nb_chunks,
			2 * ((cap + ENG_FIFO_CHUNK - 1) / ENG_FIFO_CHUNK) + 2 * nl + 1);
	pool_accounted();
	memset(nq, 0, sizeof(nq));
	for (round = 0; round < 200 * cap; round++) {
		l = (round * 7) % nl;
		f = add(10000 + round, (uint16_t)l, round, NULL);
		assert_non_null(f);
		f->flags |= ENG_FLOW_F_TIMER_Q;
		eng_fifo_push(&ft, &ft.lists[l].timer, f, eng_flow_idx(&ft, f));
		assert_true(nq[l] < RTE_DIM(queued[l]));
		queued[l][nq[l]++] = 10000 + round;
		if (round % 16 == 15) {
			/* a head popped: the oldest of port round % nl */
			struct eng_fifo *q = &ft.lists[round % nl].timer;

			while (!eng_fifo_empty(q) && eng_fifo_head(&ft, q) == NULL)
				eng_fifo_pop(q);
			if (!eng_fifo_empty(q))
				eng_fifo_pop(q);
		}
		pool_accounted();
		for (l = 0; l < nl; l++) {
			uint32_t k = 0, j;

			n = fifo_qpns(&ft.lists[l].timer, qpns, RTE_DIM(qpns));
			/* the current entries: a tail of what port l queued,
			 * in order, each flow still in the table */
			for (j = 0; j < n; j++) {
				while (k < nq[l] && queued[l][k] != qpns[j])
					k++;
				assert_true(k < nq[l]);
				assert_non_null(lookup(qpns[j]));
				k++;
			}
			assert_true(n <= ft.lists[l].nb);
		}
	}
	/* every FIFO emptied gives every chunk back */
	for (l = 0; l < nl; l++)
		while (!eng_fifo_empty(&ft.lists[l].timer))
			eng_fifo_pop(&ft.lists[l].timer);
	pool_accounted();
	assert_int_equal(ft.fifo.nb_free, ft.fifo.nb_chunks);
	eng_ftable_fini(&ft);
}

/* List l's TX coalescing list, head first, as qpns into out (at most
 * max), checking the links both ways; how many. */
static uint32_t
txc_qpns(uint16_t l, uint32_t *out, uint32_t max)
{
	uint32_t idx = ft.lists[l].txc_head, prev = ENG_NONE, n = 0;

	while (idx != ENG_NONE) {
		struct eng_flow *f = eng_flow_at(&ft, idx);

		assert_true(f->flags & ENG_FLOW_F_TXC_Q);
		assert_int_equal(f->lp, l);
		assert_int_equal(ft.txc[idx].prev, prev);
		assert_true(n < max);
		out[n++] = f->key.qpn;
		prev = idx;
		idx = ft.txc[idx].next;
	}
	assert_int_equal(ft.lists[l].txc_tail, prev);
	return n;
}

/*
 * The TX coalescing lists against a model: on a full table of 48 flows
 * over 3 ports that evicts, random steps join a flow at its port's tail
 * (if it is not in), take one out from anywhere (a flush), or add a new
 * flow (evicting the longest idle, in the list or not).  After every
 * step each port's list is the model's, in the order of joining, linked
 * both ways; nothing is left once every flow is deleted.
 */
static void
test_txc_list(void **state)
{
	const uint32_t cap = 48;
	const uint16_t nl = 3;
	static uint32_t model[3][64];
	uint32_t nm[3] = { 0 }, got[64], qpn_next = 100, step, i, n, rnd = 12345, most = 0;
	struct eng_flow *f;
	uint16_t l;

	(void)state;
	table_new_lists(cap, PCC_ENGINE_FLOW_FULL_EVICT, 0, nl);
	for (step = 0; step < 20000; step++) {
		uint32_t op, qpn;

		rnd = rnd * 1103515245u + 12345u;
		op = (rnd >> 16) % 8;
		rnd = rnd * 1103515245u + 12345u;
		/* one of the 48 latest flows (those in the table) */
		qpn = qpn_next - 1 - (rnd >> 16) % cap;
		if (op == 0 || qpn < 100) {
			/* a new flow; the longest idle leaves (its list too) */
			l = (uint16_t)(qpn_next % nl);
			f = add(qpn_next, l, step, NULL);
			assert_non_null(f);
			qpn_next++;
			for (l = 0; l < nl; l++)
				for (i = 0; i < nm[l]; i++)
					if (lookup(model[l][i]) == NULL) {
						memmove(&model[l][i], &model[l][i + 1],
								(nm[l] - i - 1) *
										sizeof(model[l]
											    [0]));
						nm[l]--;
						i--;
					}
		} else if ((f = lookup(qpn)) == NULL) {
			continue;
		} else if (op < 5 && !(f->flags & ENG_FLOW_F_TXC_Q)) {
			eng_txc_append(&ft, f, eng_flow_idx(&ft, f));
			model[f->lp][nm[f->lp]++] = qpn;
		} else if (op >= 5 && (f->flags & ENG_FLOW_F_TXC_Q)) {
			l = f->lp;
			eng_txc_unlink(&ft, f);
			for (i = 0; model[l][i] != qpn; i++)
				assert_true(i + 1 < nm[l]);
			memmove(&model[l][i], &model[l][i + 1],
					(nm[l] - i - 1) * sizeof(model[l][0]));
			nm[l]--;
		}
		for (l = 0; l < nl; l++) {
			n = txc_qpns(l, got, RTE_DIM(got));
			assert_int_equal(n, nm[l]);
			for (i = 0; i < n; i++)
				assert_int_equal(got[i], model[l][i]);
		}
		most = RTE_MAX(most, nm[0] + nm[1] + nm[2]);
	}
	/* the lists were long, not one or two flows */
	assert_true(most >= cap / 2);
	for (i = 100; i < qpn_next; i++)
		if ((f = lookup(i)) != NULL)
			eng_flow_del(&ft, f);
	for (l = 0; l < nl; l++) {
		assert_int_equal(ft.lists[l].txc_head, ENG_NONE);
		assert_int_equal(ft.lists[l].txc_tail, ENG_NONE);
	}
	eng_ftable_fini(&ft);
}

static int
group_setup(void **state)
{
	(void)state;
	if (test_eal_init("test_engine_flow_queues", "512", NULL) < 0)
		return -1;
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_stale),
		cmocka_unit_test(test_fifo_compact_room),
		cmocka_unit_test(test_fifo_ports_share),
		cmocka_unit_test(test_txc_list),
	};

	return cmocka_run_group_tests(tests, group_setup, test_eal_group_teardown);
}
