/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the engine's flow table (lib/engine/flow.c): insert,
 * lookup, delete and re-use, capacity, the full-table policies (evict the
 * longest-idle flow, refuse), aging, the LRU granule, snapshots.  Time is
 * passed explicitly (a fake clock).  EAL without hugepages (rte_hash,
 * rte_malloc).
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

#define MS 1000000ull
#define CAP 64

static struct eng_ftable ft;
static unsigned int table_seq;
static unsigned int evictions;
static uint32_t last_evicted;

static void
evict_cb(struct eng_flow *f, uint32_t idx, void *arg)
{
	(void)arg;
	(void)f;
	evictions++;
	last_evicted = idx;
}

/* A fresh table of cap flows, lists 0 .. nb_lists - 1 (at most 16),
 * 48-byte contexts. */
static void
table_new_lists(uint32_t cap, uint8_t full, uint64_t idle_ns, uint16_t nb_lists)
{
	struct eng_ftable_conf c;
	char name[32];

	snprintf(name, sizeof(name), "ft_test_%u", table_seq++);
	memset(&c, 0, sizeof(c));
	c.name = name;
	c.cap = cap;
	c.ctx_size = 48;
	c.full = full;
	c.idle_ns = idle_ns;
	c.nb_lists = nb_lists;
	c.list_mask = (UINT64_C(1) << nb_lists) - 1;
	c.timer_fifo = true;
	c.socket = SOCKET_ID_ANY;
	assert_int_equal(eng_ftable_init(&ft, &c), 0);
	evictions = 0;
	last_evicted = ENG_NONE;
}

/* A fresh table of cap flows, two lists (0 and 1), 48-byte contexts. */
static void
table_new(uint32_t cap, uint8_t full, uint64_t idle_ns)
{
	table_new_lists(cap, full, idle_ns, 2);
}

static struct eng_flow *
add(uint32_t qpn, uint16_t lp, uint64_t now, bool *created)
{
	struct pcc_engine_flow_key k;
	struct eng_flow_init init = { .lp = lp, .dev_port = 0, .slot = 3 };
	uint64_t nows[16];
	unsigned int i;
	bool c;

	for (i = 0; i < RTE_DIM(nows); i++)
		nows[i] = now;

	pcc_engine_flow_key_qp(&k, 0, qpn);
	return eng_flow_add(&ft, &k, eng_flow_hash(&k), &init, now, nows, evict_cb, NULL,
			created != NULL ? created : &c);
}

static struct eng_flow *
lookup(uint32_t qpn)
{
	struct pcc_engine_flow_key k;

	pcc_engine_flow_key_qp(&k, 0, qpn);
	return eng_flow_lookup(&ft, &k, eng_flow_hash(&k));
}

static void
test_insert_lookup(void **state)
{
	struct eng_flow *f, *g;
	uint8_t *ctx;
	bool created;
	unsigned int i;

	(void)state;
	table_new(CAP, PCC_ENGINE_FLOW_FULL_EVICT, 0);
	assert_int_equal(ft.stride, ENG_FLOW_HDR + 64);
	f = add(0x100, 0, 1000, &created);
	assert_non_null(f);
	assert_true(created);
	assert_int_equal(f->key.qpn, 0x100);
	assert_int_equal(f->tag, 0x100);
	assert_int_equal(f->slot, 3);
	assert_int_equal(f->last_ns, 1000);
	assert_true(f->flags & ENG_FLOW_F_IN_USE);
	assert_int_equal(f->seq % 2, 0);
	ctx = eng_flow_ctx(f);
	for (i = 0; i < 48; i++)
		assert_int_equal(ctx[i], 0);
	memset(ctx, 0xab, 48);
	/* same key: the same entry, not created */
	g = add(0x100, 0, 2000, &created);
	assert_ptr_equal(f, g);
	assert_false(created);
	assert_ptr_equal(lookup(0x100), f);
	assert_null(lookup(0x101));
	assert_int_equal(ft.ctr.flows, 1);
	assert_int_equal(ft.ctr.added, 1);
	assert_int_equal(ft.lists[0].nb, 1);
	/* delete, then a new flow gets a zeroed context and a new seq */
	i = f->seq;
	eng_flow_del(&ft, f);
	assert_null(lookup(0x100));
	assert_int_equal(ft.ctr.flows, 0);
	assert_int_equal(ft.lists[0].lru_head, ENG_NONE);
	g = add(0x100, 1, 3000, &created);
	assert_true(created);
	ctx = eng_flow_ctx(g);
	for (i = 0; i < 48; i++)
		assert_int_equal(ctx[i], 0);
	assert_int_equal(g->lp, 1);
	eng_ftable_fini(&ft);
}

static void
test_keys(void **state)
{
	struct pcc_engine_flow_key a, b;
	struct eng_flow_init init = { .lp = 0 };
	uint64_t nows[2] = { 0, 0 };
	struct eng_flow *f;
	bool created;

	(void)state;
	table_new(CAP, PCC_ENGINE_FLOW_FULL_EVICT, 0);
	/* same QPN on two ports: two flows */
	pcc_engine_flow_key_qp(&a, 0, 7);
	pcc_engine_flow_key_qp(&b, 1, 7);
	assert_non_null(eng_flow_add(
			&ft, &a, eng_flow_hash(&a), &init, 0, nows, NULL, NULL, &created));
	assert_non_null(eng_flow_add(
			&ft, &b, eng_flow_hash(&b), &init, 0, nows, NULL, NULL, &created));
	assert_int_equal(ft.ctr.flows, 2);
	/* a 5-tuple flow: its tag is its index */
	memset(&b, 0, sizeof(b));
	b.type = PCC_ENGINE_FLOW_IPV4;
	b.proto = 17;
	b.sport = 1;
	b.dport = 2;
	f = eng_flow_add(&ft, &b, eng_flow_hash(&b), &init, 0, nows, NULL, NULL, &created);
	assert_non_null(f);
	assert_int_equal(f->tag, eng_flow_idx(&ft, f));
	/* QPN is 24 bits in a key */
	pcc_engine_flow_key_qp(&a, 0, 0x1000007);
	assert_int_equal(a.qpn, 7);
	eng_ftable_fini(&ft);
}

/* the QP key's hash from registers is the key's hash, for any port and
 * QPN (its bits above 24 ignored, as in the key) */
static void
test_hash_qp(void **state)
{
	static const uint32_t qpns[] = { 0, 1, 7, 0x100, 0xabcdef, 0xffffff, 0x1000007,
		0xffffffff };
	static const uint16_t ports[] = { 0, 1, 3, 0x1234, 0xffff };
	struct pcc_engine_flow_key k;
	unsigned int i, j;

	(void)state;
	for (i = 0; i < RTE_DIM(ports); i++)
		for (j = 0; j < RTE_DIM(qpns); j++) {
			pcc_engine_flow_key_qp(&k, ports[i], qpns[j]);
			assert_int_equal(eng_flow_hash_qp(ports[i], qpns[j]), eng_flow_hash(&k));
		}
	/* and the hashes differ */
	assert_int_not_equal(eng_flow_hash_qp(0, 7), eng_flow_hash_qp(1, 7));
	assert_int_not_equal(eng_flow_hash_qp(0, 7), eng_flow_hash_qp(0, 8));
}

/* the QP key built from registers is the key field by field, whatever the
 * memory held; the word compares agree with memcmp */
static void
test_key_qp_words(void **state)
{
	static const uint32_t qpns[] = { 0, 7, 0xabcdef, 0x1000007, 0xffffffff };
	static const uint16_t ports[] = { 0, 3, 0xffff };
	struct pcc_engine_flow_key k, ref;
	unsigned int i, j;

	(void)state;
	for (i = 0; i < RTE_DIM(ports); i++)
		for (j = 0; j < RTE_DIM(qpns); j++) {
			memset(&ref, 0, sizeof(ref));
			ref.port_id = ports[i];
			ref.type = PCC_ENGINE_FLOW_QP;
			ref.qpn = qpns[j] & PCC_QPN_MASK;
			memset(&k, 0xa5, sizeof(k));
			eng_flow_key_qp(&k, ports[i], qpns[j]);
			assert_memory_equal(&k, &ref, sizeof(k));
			assert_true(eng_flow_key_eq(&k, &ref));
			assert_true(eng_flow_key_is_qp(
					&k, eng_flow_key_qp_word(ports[i], qpns[j])));
			/* one byte off anywhere: not equal */
			ref.dst[15] = 1;
			assert_false(eng_flow_key_eq(&k, &ref));
			assert_false(eng_flow_key_is_qp(
					&ref, eng_flow_key_qp_word(ports[i], qpns[j])));
		}
	assert_false(eng_flow_key_is_qp(&k, eng_flow_key_qp_word(1, 7)));
}

static void
test_capacity_evict_longest_idle(void **state)
{
	struct eng_flow *f;
	uint32_t i, idx1;

	(void)state;
	table_new(CAP, PCC_ENGINE_FLOW_FULL_EVICT, 0);
	/* flows 0..CAP-1 created at times 10, 20, ... ms */
	for (i = 0; i < CAP; i++)
		assert_non_null(add(1000 + i, i & 1, (i + 1) * 10 * MS, NULL));
	assert_int_equal(ft.ctr.flows, CAP);
	/* flow 0 becomes active again: flow 1 is now the longest idle */
	f = lookup(1000);
	eng_flow_touch(&ft, f, (CAP + 1) * 10 * MS);
	idx1 = eng_flow_idx(&ft, lookup(1001));
	f = add(5000, 0, (CAP + 2) * 10 * MS, NULL);
	assert_non_null(f);
	assert_int_equal(evictions, 1);
	assert_int_equal(last_evicted, idx1);
	assert_int_equal(ft.ctr.evicted, 1);
	assert_int_equal(ft.ctr.flows, CAP);
	assert_null(lookup(1001));
	assert_non_null(lookup(1000));
	/* the new flow took the evicted entry */
	assert_int_equal(eng_flow_idx(&ft, f), idx1);
	/* next victim: flow 2, from the other list */
	assert_non_null(add(5001, 1, (CAP + 3) * 10 * MS, NULL));
	assert_null(lookup(1002));
	assert_int_equal(evictions, 2);
	eng_ftable_fini(&ft);
}

static void
test_capacity_refuse(void **state)
{
	uint32_t i;

	(void)state;
	table_new(CAP, PCC_ENGINE_FLOW_FULL_REFUSE, 0);
	for (i = 0; i < CAP; i++)
		assert_non_null(add(1000 + i, 0, i, NULL));
	assert_null(add(9999, 0, 1000 * MS, NULL));
	assert_int_equal(ft.ctr.refused, 1);
	assert_int_equal(evictions, 0);
	/* known flows are still found */
	assert_non_null(add(1000, 0, 1000 * MS, NULL));
	assert_int_equal(ft.ctr.refused, 1);
	/* room again after a delete */
	eng_flow_del(&ft, lookup(1005));
	assert_non_null(add(9999, 0, 1000 * MS, NULL));
	eng_ftable_fini(&ft);
}

static void
test_age_out(void **state)
{
	struct eng_flow *f;
	uint32_t i;

	(void)state;
	table_new(CAP, PCC_ENGINE_FLOW_FULL_EVICT, 100 * MS);
	/* granule: idle / 16 */
	assert_int_equal(ft.lru_gran_ns, 100 * MS / 16);
	for (i = 0; i < 10; i++)
		assert_non_null(add(i + 2, 0, i * MS, NULL));
	/* flow 3 is active at 50 ms: beyond a granule, so it moves */
	f = lookup(3);
	eng_flow_touch(&ft, f, 50 * MS);
	assert_int_equal(ft.lists[0].lru_tail, eng_flow_idx(&ft, f));
	/* at 105 ms: flows created at 0..5 ms are idle > 100 ms, except 3 */
	assert_int_equal(eng_flow_age(&ft, 0, 105 * MS + 1, 100, evict_cb, NULL), 5);
	assert_int_equal(ft.ctr.aged, 5);
	assert_int_equal(evictions, 5);
	assert_null(lookup(2));
	assert_non_null(lookup(3));
	assert_null(lookup(7));
	assert_non_null(lookup(8));
	/* max bounds the work */
	assert_int_equal(eng_flow_age(&ft, 0, 10000 * MS, 2, NULL, NULL), 2);
	assert_int_equal(ft.ctr.flows, 3);
	assert_int_equal(eng_flow_age(&ft, 0, 10000 * MS, 100, NULL, NULL), 3);
	assert_int_equal(ft.ctr.flows, 0);
	assert_int_equal(ft.lists[0].lru_head, ENG_NONE);
	assert_int_equal(ft.lists[0].lru_tail, ENG_NONE);
	/* nothing on the other list */
	assert_int_equal(eng_flow_age(&ft, 1, 10000 * MS, 100, NULL, NULL), 0);
	eng_ftable_fini(&ft);
}

static void
test_age_active_within_granule(void **state)
{
	struct eng_flow *f;

	(void)state;
	table_new(CAP, PCC_ENGINE_FLOW_FULL_EVICT, 100 * MS);
	f = add(2, 0, 0, NULL);
	assert_non_null(add(3, 0, 1 * MS, NULL));
	/* active within a granule of its last move: last_ns only */
	eng_flow_touch(&ft, f, 2 * MS);
	assert_int_equal(f->lru_ns, 0);
	assert_int_equal(f->last_ns, 2 * MS);
	assert_int_equal(ft.lists[0].lru_head, eng_flow_idx(&ft, f));
	/* at 101 ms the head's move time is old but it was active: it moves,
	 * flow 3 (idle since 1 ms) goes */
	assert_int_equal(eng_flow_age(&ft, 0, 101 * MS + 1, 100, NULL, NULL), 2);
	assert_non_null(lookup(2));
	assert_null(lookup(3));
	assert_int_equal(ft.ctr.aged, 1);
	eng_ftable_fini(&ft);
}

static void
test_no_aging(void **state)
{
	(void)state;
	table_new(CAP, PCC_ENGINE_FLOW_FULL_EVICT, 0);
	assert_non_null(add(2, 0, 0, NULL));
	assert_int_equal(eng_flow_age(&ft, 0, UINT64_MAX / 2, 100, NULL, NULL), 0);
	assert_int_equal(ft.ctr.flows, 1);
	eng_ftable_fini(&ft);
}

static void
test_snapshot(void **state)
{
	struct eng_flow *f, copy;
	uint32_t seq;

	(void)state;
	table_new(CAP, PCC_ENGINE_FLOW_FULL_EVICT, 0);
	f = add(2, 0, 0, NULL);
	f->cnp_rx = 42;
	assert_int_equal(eng_flow_snapshot(f, &copy), 0);
	assert_int_equal(copy.cnp_rx, 42);
	assert_int_equal(copy.key.qpn, 2);
	/* a writer in the middle of an update: the reader gives up */
	seq = f->seq;
	f->seq = seq + 1;
	assert_int_equal(eng_flow_snapshot(f, &copy), -EAGAIN);
	f->seq = seq;
	/* a deleted entry keeps no flag (its FIFO entries go stale by seq) */
	f->flags |= ENG_FLOW_F_TIMER_Q | ENG_FLOW_F_ACKED;
	eng_flow_del(&ft, f);
	assert_int_equal(f->flags, 0);
	assert_true(f->seq != seq && f->seq % 2 == 0);
	/* a reader holding the old position sees it is no longer the flow */
	assert_int_equal(eng_flow_snapshot(f, &copy), 0);
	assert_false(copy.flags & ENG_FLOW_F_IN_USE);
	eng_ftable_fini(&ft);
}

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

static void
test_large_table(void **state)
{
	uint32_t i, cap = 1u << 16;

	(void)state;
	/* every position of a full table is usable (extendable buckets) */
	table_new(cap, PCC_ENGINE_FLOW_FULL_REFUSE, 0);
	for (i = 0; i < cap; i++)
		assert_non_null(add(2 + i, 0, i, NULL));
	assert_int_equal(ft.ctr.flows, cap);
	assert_int_equal(ft.ctr.refused, 0);
	assert_null(add(2 + cap, 0, cap, NULL));
	for (i = 0; i < cap; i += 997)
		assert_int_equal(lookup(2 + i)->key.qpn, 2 + i);
	eng_ftable_fini(&ft);
}

/* Are the QP index and rte_hash (the table of record) the same map? */
static void
qpix_matches_hash(uint16_t nports, uint32_t nqpn)
{
	struct pcc_engine_flow_key k;
	uint32_t q, n = 0, i;
	uint16_t p;

	for (p = 0; p < nports; p++) {
		for (q = 0; q < nqpn; q++) {
			pcc_engine_flow_key_qp(&k, p, q);
			assert_ptr_equal(eng_flow_lookup(&ft, &k, eng_flow_hash(&k)),
					eng_flow_lookup_hash(&ft, &k, eng_flow_hash(&k)));
		}
	}
	for (i = 0; i <= ft.qpix_mask; i++)
		n += ft.qpix[i].idx != ENG_QPIX_EMPTY;
	assert_int_equal(n, ft.ctr.flows);
}

static void
test_qp_index_churn(void **state)
{
	struct eng_flow_init init = { .lp = 0, .dev_port = 0, .slot = 3 };
	struct pcc_engine_flow_key k;
	uint64_t nows[2] = { 0, 0 };
	uint32_t cap = 64, rnd = 12345, i;
	struct eng_flow *f;
	bool created;

	(void)state;
	/* a small index (128 slots), random adds and deletes over 4 ports
	 * and 96 QPNs: long probe runs that wrap around the end, and every
	 * backward shift of a delete, checked against rte_hash */
	table_new(cap, PCC_ENGINE_FLOW_FULL_REFUSE, 0);
	assert_int_equal(ft.qpix_mask + 1, 2 * cap);
	for (i = 0; i < 20000; i++) {
		uint16_t p;
		uint32_t q;

		rnd = rnd * 1103515245u + 12345u;
		p = (uint16_t)((rnd >> 8) & 3);
		q = (rnd >> 12) % 96;
		pcc_engine_flow_key_qp(&k, p, q);
		f = eng_flow_lookup(&ft, &k, eng_flow_hash(&k));
		if (f != NULL) {
			assert_int_equal(f->key.qpn, q);
			assert_int_equal(f->key.port_id, p);
			eng_flow_del(&ft, f);
		} else {
			f = eng_flow_add(&ft, &k, eng_flow_hash(&k), &init, i, nows, NULL, NULL,
					&created);
			assert_true(f == NULL ? ft.ctr.flows == cap : created);
		}
		if (i % 1000 == 0)
			qpix_matches_hash(4, 96);
	}
	qpix_matches_hash(4, 96);
	/* a QP key with other bytes set and a port past the index's: not
	 * in the index, still found through rte_hash */
	pcc_engine_flow_key_qp(&k, 300, 7);
	f = eng_flow_add(&ft, &k, eng_flow_hash(&k), &init, 1, nows, NULL, NULL, &created);
	if (f != NULL) {
		assert_ptr_equal(eng_flow_lookup(&ft, &k, eng_flow_hash(&k)), f);
		eng_flow_del(&ft, f);
	}
	pcc_engine_flow_key_qp(&k, 1, 5);
	k.sport = 9;
	f = eng_flow_add(&ft, &k, eng_flow_hash(&k), &init, 1, nows, NULL, NULL, &created);
	if (f != NULL) {
		assert_ptr_equal(eng_flow_lookup(&ft, &k, eng_flow_hash(&k)), f);
		qpix_matches_hash(4, 96);
	}
	eng_ftable_fini(&ft);
}

static int
group_setup(void **state)
{
	(void)state;
	if (test_eal_init("test_engine_flow", "512", NULL) < 0)
		return -1;
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_insert_lookup),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_hash_qp),
		cmocka_unit_test(test_key_qp_words),
		cmocka_unit_test(test_capacity_evict_longest_idle),
		cmocka_unit_test(test_capacity_refuse),
		cmocka_unit_test(test_age_out),
		cmocka_unit_test(test_age_active_within_granule),
		cmocka_unit_test(test_no_aging),
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_fifo_stale),
		cmocka_unit_test(test_fifo_compact_room),
		cmocka_unit_test(test_fifo_ports_share),
		cmocka_unit_test(test_txc_list),
		cmocka_unit_test(test_large_table),
		cmocka_unit_test(test_qp_index_churn),
	};

	return cmocka_run_group_tests(tests, group_setup, test_eal_group_teardown);
}
