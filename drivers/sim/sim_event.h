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

static inline bool
ev_less(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->key < b->key);
}

/* the same without branches: which child is smaller is a coin toss */
static inline unsigned int
ev_less_nb(const struct sim_ev *a, const struct sim_ev *b)
{
	return (unsigned int)((a->t < b->t) | ((a->t == b->t) & (a->key < b->key)));
}

/*
 * The root out; its hole goes down to a leaf along the smaller children
 * (one comparison a level), and the last event moves up from there: it is
 * usually among the latest, so it rarely climbs (Floyd).
 */
static inline void
sim_ev_pop_inline(struct pcc_sim *sim, uint64_t *t, uint32_t *type, uint32_t *obj)
{
	struct sim_ev *h = sim->heap;
	struct sim_ev last;
	uint32_t i = 0, n, c;

	*t = h[0].t;
	*type = (uint32_t)(h[0].key >> EV_TYPE_SHIFT) & ((1u << SIM_EV_TYPE_BITS) - 1);
	*obj = (uint32_t)(h[0].key & EV_OBJ_MASK);
	n = --sim->heap_n;
	if (n == 0)
		return;
	last = h[n];
	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n)
			c += ev_less_nb(&h[c + 1], &h[c]);
		h[i] = h[c];
		i = c;
	}
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

		if (!ev_less(&last, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = last;
}

#endif /* SIM_EVENT_H */
