/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the engine's flow table (lib/engine/flow.c): insert,
 * lookup, delete and re-use, capacity, the full-table policies (evict the
 * longest-idle flow, refuse), aging, the LRU granule, snapshots, the QP
 * index.  Time is passed explicitly (a fake clock).  The queues of flows
 * are in test_engine_flow_queues.c.  EAL without hugepages (rte_hash,
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
#include "test_engine_flow.h"

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
		cmocka_unit_test(test_large_table),
		cmocka_unit_test(test_qp_index_churn),
	};

	return cmocka_run_group_tests(tests, group_setup, test_eal_group_teardown);
}
