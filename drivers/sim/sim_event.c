/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The event queue: a binary heap ordered by time, then insertion sequence
 * (ties are deterministic), and the loop that runs its events.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "sim_internal.h"

/* ---- Event heap ---------------------------------------------------------------- */

static inline bool
ev_less(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void
sim_ev_push(struct pcc_sim *sim, uint64_t t, uint32_t type, uint32_t obj, uint32_t gen)
{
	struct sim_ev *h = sim->heap;
	struct sim_ev e;
	uint32_t i;

	/* capacity covers every event source (sim_model_build): never full */
	RTE_VERIFY(sim->heap_n < sim->heap_cap);
	e.t = t;
	e.seq = sim->seq++;
	e.obj = obj;
	e.gen = gen;
	e.type = type;
	e.pad = 0;
	i = sim->heap_n++;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

		if (!ev_less(&e, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = e;
}

static void
ev_pop(struct pcc_sim *sim, struct sim_ev *out)
{
	struct sim_ev *h = sim->heap;
	struct sim_ev last;
	uint32_t i = 0, n;

	*out = h[0];
	n = --sim->heap_n;
	if (n == 0)
		return;
	last = h[n];
	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&h[c + 1], &h[c]))
			c++;
		if (!ev_less(&h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
}

bool
sim_ev_next_time(const struct pcc_sim *sim, uint64_t *t)
{
	if (sim->heap_n == 0)
		return false;
	*t = sim->heap[0].t;
	return true;
}

void
sim_run_events(struct pcc_sim *sim, uint64_t until)
{
	struct sim_ev ev;

	while (sim->heap_n > 0 && sim->heap[0].t <= until && sim->heap[0].t <= sim->end) {
		ev_pop(sim, &ev);
		if (ev.t > sim_now(sim))
			sim_set_now(sim, ev.t);
		sim->st.events++;
		switch (ev.type) {
		case SIM_EV_TX_DONE:
			sim_port_tx_done(sim, ev.obj);
			break;
		case SIM_EV_ARRIVE:
			sim_port_arrive(sim, ev.obj);
			break;
		case SIM_EV_HOST_DELAYED:
			sim_host_delayed(sim, ev.obj);
			break;
		case SIM_EV_ACK_TIMER:
			sim_flow_ack_timer(sim, ev.obj);
			break;
		case SIM_EV_SRC:
			sim_flow_src(sim, ev.obj);
			break;
		case SIM_EV_SAMPLE:
			sim_out_sample(sim);
			break;
		case SIM_EV_WINDOW:
			sim_out_window(sim);
			break;
		default:
			break;
		}
	}
}
