/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The event queue: events by time, then insertion sequence (ties are
 * deterministic).  The near ones in a sorted list per nanosecond, the
 * rest in a binary heap (struct sim_evq); the pop is inline (sim_event.h),
 * in the loop that runs the events (sim_model.c).
 */

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_debug.h>

#include "sim_event.h"

/* ---- The queue ------------------------------------------------------------------ */

int
sim_ev_init(struct pcc_sim *sim, uint32_t cap)
{
	struct sim_evq *q = &sim->evq;

	memset(q, 0, sizeof(*q));
	if (cap == 0 || cap >= SIM_EVQ_NONE)
		return -EINVAL;
	q->cap = cap;
	q->node = malloc(sizeof(*q->node) * cap);
	q->heap = malloc(sizeof(*q->heap) * cap);
	q->bucket = malloc(sizeof(*q->bucket) * SIM_EVQ_NB);
	if (q->node == NULL || q->heap == NULL || q->bucket == NULL) {
		sim_ev_fini(sim);
		return -ENOMEM;
	}
	sim_ev_clear(sim);
	return 0;
}

void
sim_ev_fini(struct pcc_sim *sim)
{
	struct sim_evq *q = &sim->evq;

	free(q->node);
	free(q->heap);
	free(q->bucket);
	memset(q, 0, sizeof(*q));
}

void
sim_ev_clear(struct pcc_sim *sim)
{
	struct sim_evq *q = &sim->evq;
	uint32_t i;

	if (q->node == NULL)
		return;
	for (i = 0; i < SIM_EVQ_NB; i++)
		q->bucket[i] = SIM_EVQ_NONE;
	memset(q->l0, 0, sizeof(q->l0));
	memset(q->l1, 0, sizeof(q->l1));
	q->l2 = 0;
	for (i = 0; i < q->cap; i++)
		q->node[i].next = i + 1 < q->cap ? i + 1 : SIM_EVQ_NONE;
	q->free = 0;
	q->near_n = 0;
	q->heap_n = 0;
	q->lo = 0;
}

uint32_t
sim_ev_count(const struct pcc_sim *sim)
{
	return sim->evq.near_n + sim->evq.heap_n;
}

/* ---- Sequence -------------------------------------------------------------- */

struct ev_rank {
	uint64_t key;
	uint32_t idx;
};

static int
ev_rank_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct ev_rank *)a)->key, y = ((const struct ev_rank *)b)->key;

	return x < y ? -1 : x > y;
}

/* e's sequence replaced by seq */
static inline void
ev_seq_set(struct sim_ev *e, uint64_t seq)
{
	e->key = (seq << SIM_EV_SEQ_SHIFT) | (e->key & EV_LOW_MASK);
}

/*
 * The sequence ran out of bits: number the pending events 0, 1, ... in
 * their order (their relative order, hence every bucket's and the heap's,
 * unchanged; equal numbers stay equal) and go on from there.  Once every
 * 2^40 events.  The places the ports keep for their end-of-transmission
 * events and the running event's number are numbered with them; a place
 * kept anywhere else is lost (renumbers).  Index of a rank: below cap a
 * node, then the heap's, then the ports', then the running event.
 */
void
sim_ev_renumber(struct pcc_sim *sim)
{
	struct sim_evq *q = &sim->evq;
	uint32_t i, k, b, ni, n = sim_ev_count(sim), cap = q->cap,
			      np = sim->ports != NULL ? sim->nb_ports : 0, m = 0;
	struct ev_rank *r;

	r = malloc(sizeof(*r) * (n + np + 1));
	RTE_VERIFY(r != NULL);
	for (b = evq_next(q, 0); b < SIM_EVQ_NB; b = evq_next(q, b + 1))
		for (ni = q->bucket[b]; ni != SIM_EVQ_NONE; ni = q->node[ni].next) {
			r[m].key = q->node[ni].e.key >> SIM_EV_SEQ_SHIFT;
			r[m++].idx = ni;
		}
	for (i = 0; i < q->heap_n; i++) {
		r[m].key = q->heap[i].key >> SIM_EV_SEQ_SHIFT;
		r[m++].idx = cap + i;
	}
	for (i = 0; i < np; i++) {
		r[m].key = sim->ports[i].done_place.seq;
		r[m++].idx = cap + q->heap_n + i;
	}
	if (sim->run_seq != UINT64_MAX) {
		r[m].key = sim->run_seq;
		r[m++].idx = cap + q->heap_n + np;
	}
	RTE_VERIFY(m <= n + np + 1);
	qsort(r, m, sizeof(*r), ev_rank_cmp);
	sim->renumbers++;
	/* equal numbers stay equal (a port's place and the event pushed at
	 * it, the running event): qsort() orders them in no given way */
	for (i = 0, k = 0; i < m; i++) {
		uint32_t x = r[i].idx;

		if (i > 0 && r[i].key != r[i - 1].key)
			k++;
		if (x < cap) {
			ev_seq_set(&q->node[x].e, k);
		} else if (x < cap + q->heap_n) {
			ev_seq_set(&q->heap[x - cap], k);
		} else if (x < cap + q->heap_n + np) {
			sim->ports[x - cap - q->heap_n].done_place.seq = k;
			sim->ports[x - cap - q->heap_n].done_place.renumbers = sim->renumbers;
		} else {
			sim->run_seq = k;
		}
	}
	sim->seq = m > 0 ? k + 1 : 0;
	free(r);
}

static inline uint64_t
ev_seq_next(struct pcc_sim *sim)
{
	if (unlikely(sim->seq >= SIM_EV_SEQ_MAX))
		sim_ev_renumber(sim);
	return sim->seq++;
}

/* ---- Push, pop -------------------------------------------------------------- */

static inline void
evq_bucket_set(struct sim_evq *q, uint32_t b)
{
	uint32_t w = b >> 6;

	q->l0[w] |= UINT64_C(1) << (b & 63);
	q->l1[w >> 6] |= UINT64_C(1) << (w & 63);
	q->l2 |= UINT64_C(1) << (w >> 6);
}

static inline void
ev_push(struct pcc_sim *sim, uint64_t t, uint32_t type, uint32_t obj, uint64_t seq)
{
	struct sim_evq *q = &sim->evq;
	struct sim_ev e;

	RTE_BUILD_BUG_ON(RTE_BYTE_ORDER != RTE_LITTLE_ENDIAN || offsetof(struct sim_ev, t) != 8 ||
			sizeof(struct sim_ev) != 16);
	/* the capacity covers every event source (sim_model_build): never full */
	RTE_VERIFY(q->near_n + q->heap_n < q->cap);
	e.t = t;
	e.key = (seq << SIM_EV_SEQ_SHIFT) | ((uint64_t)type << EV_TYPE_SHIFT) | obj;
	if (q->near_n == 0 && sim_now(sim) > q->lo)
		q->lo = sim_now(sim); /* the model pushes none before now (one
		                       * that is goes to the heap) */
	/* after lo (before it: a huge number) */
	if (likely(t - q->lo < SIM_EVQ_NB)) {
		uint32_t b = (uint32_t)t % SIM_EVQ_NB, ni = q->free, *at;
		struct sim_evn *n = &q->node[ni], *first;

		q->free = n->next;
		n->e = e;
		n->next = SIM_EVQ_NONE;
		q->near_n++;
		at = &q->bucket[b];
		if (*at == SIM_EVQ_NONE) {
			evq_bucket_set(q, b);
			n->last = ni;
			*at = ni;
			return;
		}
		first = &q->node[*at];
		if (!ev_less(&e, &q->node[first->last].e)) {
			/* the latest of its bucket: usually so */
			q->node[first->last].next = ni;
			first->last = ni;
			return;
		}
		if (ev_less(&e, &first->e)) {
			n->last = first->last;
			n->next = *at;
			*at = ni;
			return;
		}
		while (!ev_less(&e, &q->node[*at].e))
			at = &q->node[*at].next;
		n->next = *at;
		*at = ni;
		return;
	}
	ev_sift_up(q->heap, q->heap_n++, e);
}

void
sim_ev_push(struct pcc_sim *sim, uint64_t t, uint32_t type, uint32_t obj)
{
	ev_push(sim, t, type, obj, ev_seq_next(sim));
}

void
sim_ev_reserve(struct pcc_sim *sim, struct sim_ev_place *pl)
{
	pl->seq = ev_seq_next(sim);
	pl->renumbers = sim->renumbers;
}

bool
sim_ev_place_passed(const struct pcc_sim *sim, uint64_t t, const struct sim_ev_place *pl)
{
	uint64_t now = sim_now(sim);

	if (t != now)
		return t < now;
	/* the same time: before the running event, or any time between events */
	return pl->renumbers != sim->renumbers || pl->seq < sim->run_seq;
}

void
sim_ev_push_at(struct pcc_sim *sim, uint64_t t, uint32_t type, uint32_t obj,
		const struct sim_ev_place *pl)
{
	ev_push(sim, t, type, obj, pl->renumbers == sim->renumbers ? pl->seq : ev_seq_next(sim));
}

bool
sim_ev_pop(struct pcc_sim *sim, uint64_t *t, uint32_t *type, uint32_t *obj)
{
	uint64_t run = sim->run_seq;
	bool got = sim_ev_take_until(sim, UINT64_MAX, t, type, obj);

	sim->run_seq = run; /* out, not run */
	return got;
}

bool
sim_ev_next_time(const struct pcc_sim *sim, uint64_t *t)
{
	const struct sim_ev *e;
	uint32_t b, ni;

	e = evq_earliest(&sim->evq, &b, &ni);
	if (e == NULL)
		return false;
	*t = e->t;
	return true;
}
