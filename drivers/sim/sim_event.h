/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef SIM_EVENT_H
#define SIM_EVENT_H

/*
 * The event queue's inline part, for the loop that runs events
 * (sim_model.c) and sim_event.c.  16 bytes an event: the time, and a key
 * whose high bits are the insertion sequence (unique: it alone breaks
 * ties of time) and whose low bits are the type and object.  Comparing
 * (t, key) is comparing (t, seq).  struct sim_evq says where events are.
 */

#include "sim_internal.h"

#define EV_OBJ_MASK ((UINT64_C(1) << SIM_EV_OBJ_BITS) - 1)
#define EV_TYPE_SHIFT SIM_EV_OBJ_BITS
#define EV_LOW_MASK ((UINT64_C(1) << SIM_EV_SEQ_SHIFT) - 1)

/* (t, key) < (t, key): one 128-bit comparison, no branch */
static inline bool
ev_less(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->order < b->order;
}

static inline unsigned int
ev_less_nb(const struct sim_ev *a, const struct sim_ev *b)
{
	return (unsigned int)(a->order < b->order);
}

/* e into the hole at h[i]: up while it is earlier than its parent. */
static inline void
ev_sift_up(struct sim_ev *h, uint32_t i, struct sim_ev e)
{
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

		if (!ev_less(&e, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = e;
}

/*
 * e into the hole at the root of the n events h[0 .. n): the hole goes
 * down to a leaf along the smaller children (one comparison a level), and
 * e moves up from there: it is usually among the latest, so it rarely
 * climbs (Floyd).
 */
static inline void
ev_fill_root(struct sim_ev *h, uint32_t n, struct sim_ev e)
{
	uint32_t i = 0, c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n)
			c += ev_less_nb(&h[c + 1], &h[c]);
		h[i] = h[c];
		i = c;
	}
	ev_sift_up(h, i, e);
}

/* The first bucket at or after b with events; SIM_EVQ_NB if none. */
static inline uint32_t
evq_next(const struct sim_evq *q, uint32_t b)
{
	uint32_t w = b >> 6, x;
	uint64_t m;

	if (b >= SIM_EVQ_NB)
		return SIM_EVQ_NB;
	m = q->l0[w] & (~UINT64_C(0) << (b & 63));
	if (m != 0)
		return (w << 6) + (uint32_t)__builtin_ctzll(m);
	/* the next l0 word with any, through l1, then l2 */
	w++;
	if (w >= SIM_EVQ_NB / 64)
		return SIM_EVQ_NB;
	x = w >> 6;
	m = q->l1[x] & (~UINT64_C(0) << (w & 63));
	if (m == 0) {
		x++;
		if (x >= SIM_EVQ_NB / 4096)
			return SIM_EVQ_NB;
		m = q->l2 & (~UINT64_C(0) << x);
		if (m == 0)
			return SIM_EVQ_NB;
		x = (uint32_t)__builtin_ctzll(m);
		m = q->l1[x];
	}
	w = (x << 6) + (uint32_t)__builtin_ctzll(m);
	return (w << 6) + (uint32_t)__builtin_ctzll(q->l0[w]);
}

/* The bucket of the earliest near event; q->near_n > 0.  The buckets
 * from lo's on come first, then those before it (later nanoseconds). */
static inline uint32_t
evq_first(const struct sim_evq *q)
{
	uint32_t b = evq_next(q, (uint32_t)q->lo % SIM_EVQ_NB);

	return b < SIM_EVQ_NB ? b : evq_next(q, 0);
}

static inline void
evq_bucket_clear(struct sim_evq *q, uint32_t b)
{
	uint32_t w = b >> 6;

	q->l0[w] &= ~(UINT64_C(1) << (b & 63));
	if (q->l0[w] != 0)
		return;
	q->l1[w >> 6] &= ~(UINT64_C(1) << (w & 63));
	if (q->l1[w >> 6] == 0)
		q->l2 &= ~(UINT64_C(1) << (w >> 6));
}

/*
 * The earliest event (NULL: none): the first listed one, in list *b, node
 * *ni, or the heap's root (*ni SIM_EVQ_NONE), whichever is earlier.
 */
static inline const struct sim_ev *
evq_earliest(const struct sim_evq *q, uint32_t *b, uint32_t *ni)
{
	*ni = SIM_EVQ_NONE;
	if (q->near_n > 0) {
		*b = evq_first(q);
		*ni = q->bucket[*b];
		if (q->heap_n == 0 || !ev_less(&q->heap[0], &q->node[*ni].e))
			return &q->node[*ni].e;
		*ni = SIM_EVQ_NONE;
	}
	return q->heap_n > 0 ? &q->heap[0] : NULL;
}

/*
 * The earliest event, out, if it is due by until: its time, type and
 * object, and its sequence the running one (sim->run_seq).
 */
static inline bool
sim_ev_take_until(struct pcc_sim *sim, uint64_t until, uint64_t *t, uint32_t *type, uint32_t *obj)
{
	struct sim_evq *q = &sim->evq;
	struct sim_ev e;
	uint32_t b, ni;

	if (evq_earliest(q, &b, &ni) == NULL)
		return false;
	if (ni != SIM_EVQ_NONE) {
		struct sim_evn *n = &q->node[ni];

		e = n->e;
		if (e.t > until)
			return false;
		q->bucket[b] = n->next;
		if (n->next == SIM_EVQ_NONE)
			evq_bucket_clear(q, b);
		else
			q->node[n->next].last = n->last;
		n->next = q->free;
		q->free = ni;
		q->near_n--;
	} else {
		e = q->heap[0];
		if (e.t > until)
			return false;
		if (--q->heap_n > 0)
			ev_fill_root(q->heap, q->heap_n, q->heap[q->heap_n]);
	}
	if (e.t > q->lo)
		q->lo = e.t;
	*t = e.t;
	*type = (uint32_t)(e.key >> EV_TYPE_SHIFT) & ((1u << SIM_EV_TYPE_BITS) - 1);
	*obj = (uint32_t)(e.key & EV_OBJ_MASK);
	sim->run_seq = e.key >> SIM_EV_SEQ_SHIFT;
	return true;
}

#endif /* SIM_EVENT_H */
