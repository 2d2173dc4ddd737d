/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The simulator's event queue (drivers/sim/sim_event.c): events come out
 * by time, and events of the same time in the order they were pushed,
 * with their type and object intact; against a reference (a stable sort
 * of everything pushed) over random pushes and pops with many ties, pops
 * also as the event loop does them (sim_ev_take_until(), with a limit
 * that is sometimes before the earliest event), times near (the buckets)
 * and far (the heap), across many rounds of the lists, and now and then
 * before the earliest pending one; across the sequence's wrap, where the
 * pending events are renumbered (sim_ev_renumber) without changing their
 * order; an event pushed at a place kept earlier (sim_ev_reserve,
 * sim_ev_push_at, sim_ev_place_passed); the lists' edges.  No EAL: the queue is plain memory.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_common.h>

#include "sim_event.h"

#define CAP 4096

struct ref {
	uint64_t t;
	uint64_t order; /* push order */
	uint32_t type;
	uint32_t obj;
};

static struct pcc_sim *
queue_new(uint64_t seq)
{
	struct pcc_sim *sim = calloc(1, sizeof(*sim));

	assert_non_null(sim);
	assert_int_equal(sim_ev_init(sim, CAP), 0);
	sim->seq = seq;
	sim->run_seq = UINT64_MAX;
	return sim;
}

static void
queue_free(struct pcc_sim *sim)
{
	sim_ev_fini(sim);
	free(sim);
}

/* what the lists span */
static uint64_t
span(const struct pcc_sim *sim)
{
	(void)sim;
	return SIM_EVQ_NB;
}

static uint64_t
rnd(uint64_t *x)
{
	return sim_splitmix64(x);
}

/* the pending reference entry that must come out next: least (t, order) */
static uint32_t
ref_min(const struct ref *r, uint32_t n)
{
	uint32_t i, best = 0;

	for (i = 1; i < n; i++)
		if (r[i].t < r[best].t || (r[i].t == r[best].t && r[i].order < r[best].order))
			best = i;
	return best;
}

/* a time to push at: now + [0, spread), a wide one (to 4 spans) one in
 * 16, one before now one in 64 (no event of the model is, but the queue
 * keeps its order whatever the time) */
static uint64_t
push_time(const struct pcc_sim *sim, uint64_t *x, uint64_t now, uint64_t spread)
{
	uint64_t r = rnd(x) % 64;

	if (r == 0)
		return now - RTE_MIN(now, rnd(x) % 4096);
	if (r < 4)
		return now + rnd(x) % (4 * span(sim));
	return now + rnd(x) % spread;
}

/*
 * Random pushes and pops (times mostly from a narrow range: many ties),
 * every pop against the reference; starting at sequence seq0.  Returns
 * the time it reached.
 */
static uint64_t
random_run(uint64_t seq0, uint64_t seed, uint32_t steps, uint64_t spread)
{
	struct pcc_sim *sim = queue_new(seq0);
	struct ref *r = calloc(CAP, sizeof(*r));
	uint64_t x = seed, order = 0, now = 0, t, until;
	uint32_t n = 0, i, type, obj, k, pushes, near = 0, far = 0;
	bool take;

	assert_non_null(r);
	for (i = 0; i < steps; i++) {
		if (n < CAP - 4 && (n == 0 || rnd(&x) % 3 != 0)) {
			r[n].t = push_time(sim, &x, now, spread);
			r[n].order = order++;
			r[n].type = (uint32_t)(rnd(&x) % (1u << SIM_EV_TYPE_BITS));
			r[n].obj = (uint32_t)(rnd(&x) % SIM_EV_OBJ_MAX);
			sim_ev_push(sim, r[n].t, r[n].type, r[n].obj);
			n++;
			near += sim->evq.near_n > 0;
			far += sim->evq.heap_n > 0;
			continue;
		}
		k = ref_min(r, n);
		assert_true(sim_ev_next_time(sim, &t));
		assert_int_equal(t, r[k].t);
		take = rnd(&x) % 2 == 0;
		if (take) {
			/* as the event loop: due by a limit, the running one */
			until = r[k].t + rnd(&x) % 3;
			if (rnd(&x) % 8 == 0 && r[k].t > 0) {
				until = r[k].t - 1;
				assert_false(sim_ev_take_until(sim, until, &t, &type, &obj));
				assert_int_equal(sim_ev_count(sim), n);
				continue;
			}
			assert_true(sim_ev_take_until(sim, until, &t, &type, &obj));
			if (sim->renumbers == 0)
				assert_int_equal(sim->run_seq, seq0 + r[k].order);
		} else {
			assert_true(sim_ev_pop(sim, &t, &type, &obj));
		}
		assert_int_equal(t, r[k].t);
		assert_int_equal(type, r[k].type);
		assert_int_equal(obj, r[k].obj);
		if (t > now)
			now = t;
		sim_set_now(sim, now);
		r[k] = r[--n];
		if (!take)
			continue;
		/* as an event's handler: pushes */
		for (pushes = (uint32_t)(rnd(&x) % 3); pushes > 0 && n < CAP - 4; pushes--) {
			r[n].t = push_time(sim, &x, now, spread);
			r[n].order = order++;
			r[n].type = (uint32_t)(rnd(&x) % (1u << SIM_EV_TYPE_BITS));
			r[n].obj = (uint32_t)(rnd(&x) % SIM_EV_OBJ_MAX);
			sim_ev_push(sim, r[n].t, r[n].type, r[n].obj);
			n++;
		}
		sim->run_seq = UINT64_MAX;
		assert_int_equal(sim_ev_count(sim), n);
	}
	while (n > 0) {
		k = ref_min(r, n);
		assert_true(sim_ev_pop(sim, &t, &type, &obj));
		assert_int_equal(t, r[k].t);
		assert_int_equal(obj, r[k].obj);
		r[k] = r[--n];
	}
	assert_false(sim_ev_pop(sim, &t, &type, &obj));
	assert_false(sim_ev_next_time(sim, &t));
	assert_int_equal(sim_ev_count(sim), 0);
	/* both kinds of place were used */
	assert_true(near > 0);
	assert_true(far > 0);
	free(r);
	queue_free(sim);
	return now;
}

static void
test_order(void **state)
{
	(void)state;
	random_run(0, 1, 100000, 8);
	random_run(0, 2, 20000, 8);
	/* wider: now goes round the lists many times */
	assert_true(random_run(0, 4, 100000, 65536) > 8 * SIM_EVQ_NB);
	random_run(0, 5, 50000, 1024);
}

/* The next event out, which must be want's: its time. */
static uint64_t
pop_expect(struct pcc_sim *sim, uint32_t want)
{
	uint32_t type, obj;
	uint64_t t;

	assert_true(sim_ev_pop(sim, &t, &type, &obj));
	assert_int_equal(obj, want);
	return t;
}

/* Near and far at the edges: the last nanosecond of the span, the first
 * past it, an event pushed before lo, and the lists' index wrapping (the
 * earliest near event in a list of a lower index than lo's); the bitmap's
 * levels; a list's first and last when a place kept earlier goes first;
 * a queue of no room refused. */
static void
test_edges(void **state)
{
	struct pcc_sim *sim = queue_new(0), z;
	uint64_t s = span(sim), t;
	struct sim_ev_place pl;
	uint32_t type, obj;

	(void)state;
	memset(&z, 0, sizeof(z));
	assert_int_equal(sim_ev_init(&z, 0), -EINVAL);
	sim_set_now(sim, 3 * s + 5); /* lo */
	sim_ev_push(sim, 3 * s + 5, SIM_EV_ARRIVE, 0);
	assert_int_equal(sim->evq.near_n, 1);
	sim_ev_push(sim, 4 * s + 4, SIM_EV_ARRIVE, 1); /* the last nanosecond: near */
	sim_ev_push(sim, 4 * s + 5, SIM_EV_ARRIVE, 2); /* lo's list again: far */
	assert_int_equal(sim->evq.near_n, 2);
	assert_int_equal(sim->evq.heap_n, 1);
	sim_ev_push(sim, 3 * s + 4, SIM_EV_ARRIVE, 3); /* before lo: far */
	assert_int_equal(sim->evq.heap_n, 2);
	pop_expect(sim, 3);
	pop_expect(sim, 0);
	assert_int_equal(pop_expect(sim, 1), 4 * s + 4);
	pop_expect(sim, 2);
	assert_int_equal(sim_ev_count(sim), 0);

	/* lo in the middle of the index range: a push a span less a quarter
	 * ahead is near, in a list of a lower index, and comes out after one
	 * a quarter ahead (a higher index) */
	sim_set_now(sim, 5 * s + s / 2);
	sim_ev_push(sim, 6 * s + s / 4, SIM_EV_TX_DONE, 4);
	sim_ev_push(sim, 5 * s + 3 * s / 4, SIM_EV_TX_DONE, 5);
	sim_ev_push(sim, 6 * s + s / 2, SIM_EV_TX_DONE, 6); /* far */
	assert_int_equal(sim->evq.near_n, 2);
	assert_int_equal(sim->evq.heap_n, 1);
	assert_true(sim_ev_next_time(sim, &t));
	assert_int_equal(t, 5 * s + 3 * s / 4);
	pop_expect(sim, 5);
	pop_expect(sim, 4);
	pop_expect(sim, 6);
	assert_false(sim_ev_pop(sim, &t, &type, &obj));
	queue_free(sim);

	/* the bitmap's upper levels cleared with the lists: an l1 word
	 * emptied (the lists of 4096..8191) is passed over when the search
	 * wraps to the first lists and goes on to the next word with any */
	sim = queue_new(0);
	sim_ev_push(sim, 5000, SIM_EV_ARRIVE, 7);
	pop_expect(sim, 7);
	sim_set_now(sim, 60000);
	sim_ev_push(sim, s + 9000, SIM_EV_ARRIVE, 8); /* list 9000: near */
	assert_int_equal(sim->evq.near_n, 1);
	assert_true(sim_ev_next_time(sim, &t));
	assert_int_equal(t, s + 9000);
	pop_expect(sim, 8);
	assert_int_equal(sim->evq.l2, 0);
	queue_free(sim);

	/* a place kept before a nanosecond's events: first of its list, and
	 * the list's last still found by the next push */
	sim = queue_new(0);
	sim->run_seq = UINT64_MAX;
	sim_ev_reserve(sim, &pl);
	sim_ev_push(sim, 300, SIM_EV_ARRIVE, 1);
	sim_ev_push(sim, 300, SIM_EV_ARRIVE, 2);
	sim_ev_push_at(sim, 300, SIM_EV_TX_DONE, 0, &pl);
	sim_ev_push(sim, 300, SIM_EV_ARRIVE, 3);
	for (obj = 0; obj < 4; obj++)
		pop_expect(sim, obj);
	assert_false(sim_ev_pop(sim, &t, &type, &obj));
	queue_free(sim);
}

/* Ties by push order across the wrap of the sequence's 40 bits. */
static void
test_seq_wrap(void **state)
{
	struct pcc_sim *sim = queue_new(SIM_EV_SEQ_MAX - 5);
	uint32_t i, type, obj;
	uint64_t t;

	(void)state;
	/* ten events at t = 100 (five before the wrap, five after), in
	 * between some at t = 50 and 200 */
	for (i = 0; i < 10; i++) {
		sim_ev_push(sim, 100, SIM_EV_ARRIVE, i);
		sim_ev_push(sim, i % 2 ? 50 : 200, SIM_EV_TX_DONE, 1000 + i);
	}
	assert_true(sim->seq < 64); /* renumbered: 20 pending at most */
	for (i = 0; i < 5; i++) {
		assert_true(sim_ev_pop(sim, &t, &type, &obj));
		assert_int_equal(t, 50);
		assert_int_equal(obj, 1000 + 2 * i + 1);
	}
	for (i = 0; i < 10; i++) {
		assert_true(sim_ev_pop(sim, &t, &type, &obj));
		assert_int_equal(t, 100);
		assert_int_equal(type, SIM_EV_ARRIVE);
		assert_int_equal(obj, i);
	}
	for (i = 0; i < 5; i++) {
		assert_true(sim_ev_pop(sim, &t, &type, &obj));
		assert_int_equal(t, 200);
		assert_int_equal(obj, 1000 + 2 * i);
	}
	assert_false(sim_ev_pop(sim, &t, &type, &obj));
	queue_free(sim);
	/* a renumbering numbers listed and heap events alike, 0, 1, ... in
	 * the order they were pushed: the events run with those numbers */
	sim = queue_new(1000);
	sim_ev_push(sim, 3 * SIM_EVQ_NB, SIM_EV_SRC, 0); /* heap */
	sim_ev_push(sim, 100, SIM_EV_ARRIVE, 1);
	sim_ev_push(sim, 100, SIM_EV_ARRIVE, 2);
	sim_ev_push(sim, 3 * SIM_EVQ_NB, SIM_EV_SRC, 3); /* heap */
	sim_ev_push(sim, 50, SIM_EV_ARRIVE, 4);
	assert_int_equal(sim->evq.heap_n, 2);
	sim_ev_renumber(sim);
	assert_int_equal(sim->seq, 5);
	for (i = 0; i < 5; i++) {
		static const uint32_t want[5] = { 4, 1, 2, 0, 3 };

		assert_true(sim_ev_take_until(sim, UINT64_MAX, &t, &type, &obj));
		assert_int_equal(obj, want[i]);
		assert_int_equal(sim->run_seq, want[i]); /* pushed so */
	}
	queue_free(sim);
	/* random pushes and pops that cross the wrap */
	random_run(SIM_EV_SEQ_MAX - 1000, 3, 20000, 8);
	random_run(SIM_EV_SEQ_MAX - 1000, 6, 20000, 65536);
}

/*
 * A place kept for an event pushed later: it goes where it would have
 * gone, and sim_ev_place_passed() says whether it would have run by now.
 */
static void
test_place(void **state)
{
	struct pcc_sim *sim = queue_new(0);
	struct sim_ev_place pl, old;
	unsigned int k;
	uint32_t type, obj;
	uint64_t t;

	(void)state;
	sim->run_seq = UINT64_MAX; /* between events */
	sim_ev_push(sim, 100, SIM_EV_ARRIVE, 1);
	sim_ev_reserve(sim, &pl);
	sim_ev_push(sim, 100, SIM_EV_ARRIVE, 2);
	sim_ev_push(sim, 100, SIM_EV_ARRIVE, 3);
	/* pushed last, it runs second: its place is between 1 and 2 */
	sim_ev_push_at(sim, 100, SIM_EV_TX_DONE, 7, &pl);
	assert_true(sim_ev_pop(sim, &t, &type, &obj));
	assert_int_equal(obj, 1);
	assert_true(sim_ev_pop(sim, &t, &type, &obj));
	assert_int_equal(type, SIM_EV_TX_DONE);
	assert_int_equal(obj, 7);
	assert_true(sim_ev_pop(sim, &t, &type, &obj));
	assert_int_equal(obj, 2);
	assert_true(sim_ev_pop(sim, &t, &type, &obj));
	assert_int_equal(obj, 3);

	/* passed: an earlier time; the same time between events, or while
	 * a later-placed event runs; not: a later time, or the same time
	 * while an earlier-placed event runs */
	sim_set_now(sim, 100);
	assert_true(sim_ev_place_passed(sim, 99, &pl));
	assert_false(sim_ev_place_passed(sim, 101, &pl));
	assert_true(sim_ev_place_passed(sim, 100, &pl));
	sim->run_seq = pl.seq + 1;
	assert_true(sim_ev_place_passed(sim, 100, &pl));
	sim->run_seq = pl.seq - 1;
	assert_false(sim_ev_place_passed(sim, 100, &pl));
	assert_false(sim_ev_pop(sim, &t, &type, &obj));
	queue_free(sim);

	/* a renumbering loses the place: passed, and pushed as new (its old
	 * number would now sort before the renumbered events) */
	sim = queue_new(0);
	sim->run_seq = UINT64_MAX;
	sim_ev_reserve(sim, &old);
	for (obj = 0; obj < 4; obj++)
		sim_ev_push(sim, 100, SIM_EV_ARRIVE, obj);
	sim_ev_renumber(sim);
	sim_set_now(sim, 100);
	assert_true(sim_ev_place_passed(sim, 100, &old));
	sim_ev_push_at(sim, 100, SIM_EV_ARRIVE, 8, &old);
	for (pl.seq = 0; pl.seq < 4; pl.seq++) {
		assert_true(sim_ev_pop(sim, &t, &type, &obj));
		assert_int_equal(obj, pl.seq);
	}
	assert_true(sim_ev_pop(sim, &t, &type, &obj));
	assert_int_equal(obj, 8);
	assert_false(sim_ev_pop(sim, &t, &type, &obj));

	/* a port's place is renumbered with the events, and kept; so is the
	 * running event's number */
	sim->ports = calloc(1, sizeof(*sim->ports));
	assert_non_null(sim->ports);
	sim->nb_ports = 1;
	sim_ev_push(sim, 100, SIM_EV_ARRIVE, 1);
	sim->run_seq = sim->seq - 1; /* event 1 runs */
	sim_ev_reserve(sim, &sim->ports[0].done_place);
	sim_ev_push(sim, 100, SIM_EV_ARRIVE, 2);
	sim->seq = SIM_EV_SEQ_MAX; /* the next push renumbers */
	sim_ev_push(sim, 100, SIM_EV_ARRIVE, 3);
	assert_true(sim->seq < 16);
	assert_false(sim_ev_place_passed(sim, 100, &sim->ports[0].done_place));
	sim_ev_push_at(sim, 100, SIM_EV_TX_DONE, 7, &sim->ports[0].done_place);
	for (pl.seq = 0; pl.seq < 4; pl.seq++) {
		static const uint32_t want[4] = { 1, 7, 2, 3 };

		assert_true(sim_ev_pop(sim, &t, &type, &obj));
		assert_int_equal(obj, want[pl.seq]);
	}

	/* equal numbers stay equal: the port's place, the event pushed at
	 * it and the running event's number; the order around them kept */
	sim_ev_push(sim, 200, SIM_EV_ARRIVE, 4);
	sim_ev_reserve(sim, &sim->ports[0].done_place);
	sim_ev_push_at(sim, 200, SIM_EV_TX_DONE, 9, &sim->ports[0].done_place);
	sim->run_seq = sim->ports[0].done_place.seq;
	sim_ev_push(sim, 200, SIM_EV_ARRIVE, 5);
	sim->seq = SIM_EV_SEQ_MAX;
	sim_ev_push(sim, 200, SIM_EV_ARRIVE, 6);
	assert_int_equal(sim->ports[0].done_place.renumbers, sim->renumbers);
	assert_int_equal(sim->run_seq, sim->ports[0].done_place.seq);
	pl = sim->ports[0].done_place;
	for (k = 0; k < 4; k++) {
		static const uint32_t want[4] = { 4, 9, 5, 6 };

		assert_true(sim_ev_pop(sim, &t, &type, &obj));
		assert_int_equal(obj, want[k]);
		if (obj == 9)
			assert_int_equal(sim->run_seq, pl.seq);
	}
	free(sim->ports);
	queue_free(sim);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_seq_wrap),
		cmocka_unit_test(test_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
