/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef SIM_EVENT_H
#define SIM_EVENT_H

/*
 * The event heap's inline part, for the loop that runs events
 * (sim_model.c) and sim_event.c.  16 bytes an event: the time, and a key
 * whose high bits are the insertion sequence (unique: it alone breaks
 * ties of time) and whose low bits are the type and object.  Comparing
 * (t, key) is comparing (t, seq); four events share a cache line.
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

/*
 * e into the hole at the root, from the top: down while a child is
 * earlier than e.  For a new event, which is usually among the earliest
 * (the next frame's end of transmission): it stops in a level or two
 * where ev_fill_root() would go to a leaf and climb back.
 */
static inline void
ev_fill_root_top(struct sim_ev *h, uint32_t n, struct sim_ev e)
{
	uint32_t i = 0, c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n)
			c += ev_less_nb(&h[c + 1], &h[c]);
		if (!ev_less(&h[c], &e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = e;
}

/*
 * The earliest event, taken: its slot is a hole until the next push fills
 * it (one pass down the heap for the pop and that push) or
 * sim_ev_take_done() closes it.  Between the two only sim_ev_push().
 */
static inline void
sim_ev_take_inline(struct pcc_sim *sim, uint64_t *t, uint32_t *type, uint32_t *obj)
{
	const struct sim_ev *h = sim->heap;

	*t = h[0].t;
	*type = (uint32_t)(h[0].key >> EV_TYPE_SHIFT) & ((1u << SIM_EV_TYPE_BITS) - 1);
	*obj = (uint32_t)(h[0].key & EV_OBJ_MASK);
	sim->ev_hole = true;
}

static inline void
sim_ev_take_done_inline(struct pcc_sim *sim)
{
	uint32_t n;

	if (!sim->ev_hole)
		return;
	sim->ev_hole = false;
	n = --sim->heap_n;
	if (n > 0)
		ev_fill_root(sim->heap, n, sim->heap[n]);
}

#endif /* SIM_EVENT_H */
