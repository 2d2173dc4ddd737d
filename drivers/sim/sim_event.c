/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The event queue: a binary heap ordered by time, then insertion sequence
 * (ties are deterministic).  Its pop is inline (sim_event.h), in the loop
 * that runs the events (sim_model.c).
 */

#include <stddef.h>
#include <stdlib.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_debug.h>

#include "sim_event.h"

/* ---- Event heap ---------------------------------------------------------------- */

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

/*
 * The sequence ran out of bits: number the pending events 0, 1, ... in
 * their order (their relative order, hence the heap, unchanged) and go on
 * from there.  Once every 2^40 events.  The places the ports keep for
 * their end-of-transmission events and the running event's number are
 * numbered with them; a place kept anywhere else is lost (renumbers).
 */
void
sim_ev_renumber(struct pcc_sim *sim)
{
	uint32_t i, n = sim->heap_n, np = sim->ports != NULL ? sim->nb_ports : 0, m = 0;
	struct ev_rank *r;
	uint64_t seq;

	r = malloc(sizeof(*r) * (n + np + 1));
	RTE_VERIFY(r != NULL);
	for (i = 0; i < n; i++) {
		r[m].key = sim->heap[i].key >> SIM_EV_SEQ_SHIFT;
		r[m++].idx = i;
	}
	for (i = 0; i < np; i++) {
		r[m].key = sim->ports[i].done_place.seq;
		r[m++].idx = n + i;
	}
	if (sim->run_seq != UINT64_MAX) {
		r[m].key = sim->run_seq;
		r[m++].idx = n + np;
	}
	qsort(r, m, sizeof(*r), ev_rank_cmp);
	sim->renumbers++;
	for (i = 0; i < m; i++) {
		seq = i;
		if (r[i].idx < n) {
			struct sim_ev *e = &sim->heap[r[i].idx];

			e->key = (seq << SIM_EV_SEQ_SHIFT) | (e->key & EV_LOW_MASK);
		} else if (r[i].idx < n + np) {
			sim->ports[r[i].idx - n].done_place.seq = seq;
			sim->ports[r[i].idx - n].done_place.renumbers = sim->renumbers;
		} else {
			sim->run_seq = seq;
		}
	}
	sim->seq = m;
	free(r);
}

static inline uint64_t
ev_seq_next(struct pcc_sim *sim)
{
	if (unlikely(sim->seq >= SIM_EV_SEQ_MAX))
		sim_ev_renumber(sim);
	return sim->seq++;
}

static inline void
ev_push(struct pcc_sim *sim, uint64_t t, uint32_t type, uint32_t obj, uint64_t seq)
{
	struct sim_ev *h = sim->heap;
	struct sim_ev e;

	RTE_BUILD_BUG_ON(RTE_BYTE_ORDER != RTE_LITTLE_ENDIAN || offsetof(struct sim_ev, t) != 8 ||
			sizeof(struct sim_ev) != 16);
	e.t = t;
	e.key = (seq << SIM_EV_SEQ_SHIFT) | ((uint64_t)type << EV_TYPE_SHIFT) | obj;
	if (sim->ev_hole) {
		/* the event being run left its slot: one pass for both */
		sim->ev_hole = false;
		ev_fill_root_top(h, sim->heap_n, e);
		return;
	}
	/* capacity covers every event source (sim_model_build): never full */
	RTE_VERIFY(sim->heap_n < sim->heap_cap);
	ev_sift_up(h, sim->heap_n++, e);
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
	if (sim->heap_n == 0)
		return false;
	sim_ev_take_inline(sim, t, type, obj);
	sim_ev_take_done_inline(sim);
	return true;
}

bool
sim_ev_take(struct pcc_sim *sim, uint64_t *t, uint32_t *type, uint32_t *obj)
{
	if (sim->heap_n == 0)
		return false;
	sim_ev_take_inline(sim, t, type, obj);
	return true;
}

void
sim_ev_take_done(struct pcc_sim *sim)
{
	sim_ev_take_done_inline(sim);
}

bool
sim_ev_next_time(const struct pcc_sim *sim, uint64_t *t)
{
	if (sim->heap_n == 0)
		return false;
	*t = sim->heap[0].t;
	return true;
}
