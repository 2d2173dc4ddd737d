/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * wheel: everything but the packet path: init and fini, rates, the next
 * due time, flow reset, memory, and the ops (design in wheel.h).
 */

#include <errno.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_reciprocal.h>

#include "wheel.h"

/*
 * Start of the first slot with entries: the cursor's, or the next busy one
 * (dequeue hands a slot out once now reaches its start).
 */
static uint64_t
wheel_next_due(const struct pcc_pacer *p)
{
	const struct wheel *w = pcc_pacer_priv(p);
	uint32_t d;

	if (w == NULL || !w->started || w->entries == 0)
		return UINT64_MAX;
	if (w->slots[w->cur_pos].n != 0)
		return wheel_cur_ns(w);
	if (!wheel_next_busy(
			    w, w->cur_pos + 1 == w->nslots ? 0 : w->cur_pos + 1, w->nslots - 2, &d))
		return UINT64_MAX;
	return (w->cur_abs + d + 1) * w->slot_ns;
}

static int
wheel_set_rate(struct pcc_pacer *p, uint32_t flow, uint64_t rate_bps)
{
	struct wheel *w = pcc_pacer_priv(p);
	struct pacer_tb *f = &w->flows[flow];
	uint64_t cost = pacer_cost(rate_bps, w->line_bps);

	pacer_rescale(f, pcc_pacer_last_now(p), cost);
	return 0;
}

static uint64_t
wheel_flow_next(const struct pcc_pacer *p, uint32_t flow, uint64_t now)
{
	const struct wheel *w = pcc_pacer_priv(p);

	return pacer_next(&w->flows[flow], now);
}

/*
 * Free the mbufs of slot s's entries not handed out yet, of flow (all
 * flows: WHEEL_NIL), leaving them NULL; how many were freed.
 */
static uint32_t
wheel_slot_free(struct wheel *w, struct wheel_slot *s, uint32_t flow)
{
	uint32_t ci = s->head, i, k = 0;

	for (i = s->i; i < s->n; i++) {
		if (s->pkt[i] != NULL && (flow == WHEEL_NIL || s->flow[i] == flow)) {
			rte_pktmbuf_free(s->pkt[i]);
			s->pkt[i] = NULL;
			k++;
		}
	}
	for (i = s->head_i; ci != WHEEL_NIL; i = 0) {
		struct wheel_chunk *c = &w->chunks[ci];
		uint32_t end = ci == s->tail ? s->tail_n : WHEEL_CHUNK;

		for (; i < end; i++) {
			if (c->pkt[i] != NULL && (flow == WHEEL_NIL || c->flow[i] == flow)) {
				rte_pktmbuf_free(c->pkt[i]);
				c->pkt[i] = NULL;
				k++;
			}
		}
		ci = ci == s->tail ? WHEEL_NIL : c->next;
	}
	return k;
}

/* Remove the flow's entries from the slots (left as NULL), freeing them. */
static void
wheel_flow_reset(struct pcc_pacer *p, uint32_t flow)
{
	struct wheel *w = pcc_pacer_priv(p);
	struct pacer_tb *f = &w->flows[flow];
	uint32_t left = f->aux;
	uint32_t wi;

	for (wi = 0; wi < w->nwords && left > 0; wi++) {
		uint64_t word = w->busy[wi];

		while (word != 0 && left > 0) {
			uint32_t pos = wi * 64 + (uint32_t)__builtin_ctzll(word);

			word &= word - 1;
			uint32_t k = wheel_slot_free(w, &w->slots[pos], flow);

			w->removed += k;
			w->st->flushed += k;
			left -= RTE_MIN(left, k);
		}
	}
	if (f->aux != 0)
		w->st->flows_active--;
	f->aux = 0;
	f->last_wire = 0;
	f->next_ns = 0;
	f->next_frac = 0;
	f->cost = w->line_cost;
}

/* Packets the pool holds: max_flows x max_queued, but no more than twice
 * what the line sends in one horizon in 64-byte frames, nor 2^22. */
static uint64_t
wheel_pool_pkts(const struct pcc_pacer_conf *conf)
{
	unsigned __int128 line;
	uint64_t want = (uint64_t)conf->max_flows * conf->max_queued;

	line = (unsigned __int128)conf->line_rate_bps * conf->horizon_ns * 2 /
			((unsigned __int128)8 * (WHEEL_MIN_FRAME + PCC_PACER_WIRE_OVERHEAD) *
					1000000000u);
	if ((unsigned __int128)want > line)
		want = (uint64_t)line;
	want = RTE_MAX(want, (uint64_t)conf->max_queued);
	return RTE_MIN(want, (uint64_t)WHEEL_POOL_MAX);
}

static void
wheel_release(struct wheel *w)
{
	rte_free(w->flows);
	rte_free(w->slots);
	rte_free(w->busy);
	rte_free(w->chunks);
	rte_free(w);
}

static int
wheel_init(struct pcc_pacer *p, const struct pcc_pacer_conf *conf)
{
	struct wheel *w;
	uint64_t pkts, n_chunks;
	uint32_t i;

	w = rte_zmalloc_socket("pacer_wheel", sizeof(*w), RTE_CACHE_LINE_SIZE, conf->socket_id);
	if (w == NULL)
		return -ENOMEM;
	w->nslots = conf->horizon_ns / conf->slot_ns;
	w->nwords = (w->nslots + 63) / 64;
	w->slot_ns = conf->slot_ns;
	w->slot_div = rte_reciprocal_value_u64(conf->slot_ns);
	w->slot_mul = (1ull << 63) / conf->slot_ns + 1;
	w->span_ns = w->nslots * conf->slot_ns;
	w->cost_max = (UINT64_MAX - ((uint64_t)w->span_ns << 32)) >> 16;
	w->ne_now = 0;
	w->ne_end = conf->slot_ns; /* now 0 is in slot 0 */
	/*
	 * (x m) >> 32 with m = ceil(2^32 / d) = (2^32 + e) / d, 0 <= e < d,
	 * is x / d + x e / (d 2^32): floor(x / d) while x e < 2^32, the
	 * fraction of x / d being at most (d - 1) / d.  x < span_ns < 2^32:
	 * x m < 2^64.
	 */
	w->div32 = ((1ull << 32) + conf->slot_ns - 1) / conf->slot_ns;
	w->div32_ok = (uint64_t)(w->span_ns - 1) * (w->div32 * conf->slot_ns - (1ull << 32)) <
			(1ull << 32);
	w->max_queued = conf->max_queued;
	w->max_flows = conf->max_flows;
	w->direct = (uint64_t)conf->max_flows * sizeof(w->flows[0]) <= WHEEL_DIRECT_BYTES;
	w->line_bps = conf->line_rate_bps;
	w->line_cost = pacer_cost(0, conf->line_rate_bps);
	w->depart_off = conf->depart_off;
	w->depart_flag = conf->depart_flag;
	w->st = pcc_pacer_stats_ptr(p);
	pcc_pacer_pass_fifo(p, &w->pass);
	pkts = wheel_pool_pkts(conf);
	/*
	 * A slot with j chunks holds at least 5 j entries (9 inline, the
	 * chunks full but the last): the pool runs out only with pkts held.
	 */
	n_chunks = (pkts + WHEEL_CHUNK - 1) / WHEEL_CHUNK;
	w->pool_pkts = pkts;
	w->n_chunks = (uint32_t)n_chunks;

	w->flows = rte_malloc_socket("pacer_wheel_flows", sizeof(w->flows[0]) * conf->max_flows,
			RTE_CACHE_LINE_SIZE, conf->socket_id);
	w->slots = rte_malloc_socket("pacer_wheel_slots", sizeof(w->slots[0]) * w->nslots,
			alignof(struct wheel_slot), conf->socket_id);
	w->busy = rte_zmalloc_socket("pacer_wheel_busy", sizeof(w->busy[0]) * w->nwords,
			RTE_CACHE_LINE_SIZE, conf->socket_id);
	w->chunks = rte_malloc_socket("pacer_wheel_chunks", sizeof(w->chunks[0]) * w->n_chunks,
			RTE_CACHE_LINE_SIZE, conf->socket_id);
	if (w->flows == NULL || w->slots == NULL || w->busy == NULL || w->chunks == NULL) {
		wheel_release(w);
		return -ENOMEM;
	}
	for (i = 0; i < conf->max_flows; i++) {
		w->flows[i].next_ns = 0;
		w->flows[i].next_frac = 0;
		w->flows[i].aux = 0;
		w->flows[i].last_wire = 0;
		w->flows[i].cost = w->line_cost;
	}
	for (i = 0; i < w->nslots; i++) {
		memset(&w->slots[i], 0, sizeof(w->slots[i]));
		w->slots[i].head = WHEEL_NIL;
		w->slots[i].tail = WHEEL_NIL;
	}
	for (i = 0; i < w->n_chunks; i++) {
		memset(&w->chunks[i], 0, sizeof(w->chunks[i]));
		w->chunks[i].next = i + 1 < w->n_chunks ? i + 1 : WHEEL_NIL;
	}
	w->free_head = 0;
	pcc_pacer_set_priv(p, w);
	return 0;
}

static void
wheel_fini(struct pcc_pacer *p)
{
	struct wheel *w = pcc_pacer_priv(p);
	uint32_t pos;

	if (w == NULL)
		return;
	for (pos = 0; pos < w->nslots; pos++)
		if (w->slots[pos].n != 0)
			wheel_slot_free(w, &w->slots[pos], WHEEL_NIL);
	wheel_release(w);
	pcc_pacer_set_priv(p, NULL);
}

static void
wheel_prefetch(const struct pcc_pacer *p, uint32_t flow)
{
	const struct wheel *w = pcc_pacer_priv(p);

	rte_prefetch0(&w->flows[flow]);
}

static size_t
wheel_mem_per_flow(const struct pcc_pacer *p)
{
	RTE_SET_USED(p);
	return sizeof(struct pacer_tb);
}

static size_t
wheel_mem_total(const struct pcc_pacer *p)
{
	const struct wheel *w = pcc_pacer_priv(p);

	return sizeof(*w) + sizeof(w->flows[0]) * w->max_flows + sizeof(w->slots[0]) * w->nslots +
			sizeof(w->busy[0]) * w->nwords + sizeof(w->chunks[0]) * w->n_chunks;
}

const struct pcc_pacer_ops pacer_wheel_ops = {
	.name = "wheel",
	.probe = NULL,
	.init = wheel_init,
	.fini = wheel_fini,
	.set_rate = wheel_set_rate,
	.enqueue = pacer_wheel_enqueue,
	.dequeue = pacer_wheel_dequeue,
	.enqueue_bulk = pacer_wheel_enqueue_bulk,
	.flow_reset = wheel_flow_reset,
	.mem_per_flow = wheel_mem_per_flow,
	.mem_total = wheel_mem_total,
	.prefetch = wheel_prefetch,
	.next_due = wheel_next_due,
	.flow_next = wheel_flow_next,
};
