/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * wheel: the packet path, enqueue and dequeue (design in wheel.h).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_reciprocal.h>

#include "wheel.h"

/*
 * x / slot_ns for x < 2^32: (2x x M) >> 64 with M = floor(2^63 / slot_ns)
 * + 1.  Exact: 2x M / 2^64 = x / slot_ns + e with 0 < e <= x / 2^63 <
 * 2^-31 < 1 / slot_ns (slot_ns < 2^31, the conf's horizon being below
 * 2^32 and at least 2 slots), too little to reach the next integer.
 */
static inline uint32_t
wheel_div(const struct wheel *w, uint64_t x)
{
	return (uint32_t)(((unsigned __int128)(x << 1) * w->slot_mul) >> 64);
}

/* Absolute slot of t >= the cursor's start. */
static inline uint64_t
wheel_slot_of(const struct wheel *w, uint64_t t)
{
	uint64_t x = t - wheel_cur_ns(w);

	if (likely(w->started && x <= UINT32_MAX))
		return w->cur_abs + wheel_div(w, x);
	return rte_reciprocal_divide_u64(t, &w->slot_div);
}

static inline void
wheel_move(struct wheel *w, uint32_t d)
{
	w->cur_abs += d;
	w->cur_pos += d;
	if (w->cur_pos >= w->nslots)
		w->cur_pos -= w->nslots;
}

/* Move the cursor to target, all slots in between being empty. */
static inline void
wheel_jump(struct wheel *w, uint64_t target)
{
	uint64_t d = target - w->cur_abs;

	if (d < w->nslots) {
		wheel_move(w, (uint32_t)d);
	} else {
		w->cur_abs = target;
		w->cur_pos = (uint32_t)(target % w->nslots);
	}
}

static inline void
wheel_start(struct wheel *w, uint64_t slot)
{
	w->started = true;
	w->cur_abs = slot;
	w->cur_pos = (uint32_t)(slot % w->nslots);
}

static inline uint32_t
chunk_alloc(struct wheel *w)
{
	uint32_t c = w->free_head;

	if (c != WHEEL_NIL) {
		w->free_head = w->chunks[c].next;
		w->chunks[c].next = WHEEL_NIL;
	}
	return c;
}

static inline void
chunk_free(struct wheel *w, uint32_t c)
{
	w->chunks[c].next = w->free_head;
	w->free_head = c;
}

/* Append (m, flow) to slot s's chunks; -1 if no chunk is free. */
static __rte_noinline int
wheel_append_chunk(struct wheel *w, struct wheel_slot *s, struct rte_mbuf *m, uint32_t flow)
{
	struct wheel_chunk *c;
	uint32_t ci;

	if (s->head == WHEEL_NIL || s->tail_n == WHEEL_CHUNK) {
		ci = chunk_alloc(w);
		if (unlikely(ci == WHEEL_NIL))
			return -1;
		if (s->head == WHEEL_NIL) {
			s->head = ci;
			s->head_i = 0;
		} else {
			w->chunks[s->tail].next = ci;
		}
		s->tail = ci;
		s->tail_n = 0;
	}
	c = &w->chunks[s->tail];
	c->pkt[s->tail_n] = m;
	c->flow[s->tail_n] = flow;
	s->tail_n++;
	return 0;
}

/*
 * Append (m, flow) to slot pos: inline if there is room (a slot's first
 * entry marks it busy), else to its chunks; -1 if no chunk is free.
 */
static __rte_always_inline int
wheel_append(struct wheel *w, struct wheel_slot *slots, uint64_t *busy, uint32_t pos,
		struct rte_mbuf *m, uint32_t flow)
{
	struct wheel_slot *s = &slots[pos];
	uint32_t k = s->n;

	if (likely(k < WHEEL_INLINE)) {
		s->pkt[k] = m;
		s->flow[k] = flow;
		s->n = (uint8_t)(k + 1);
		if (k == 0) {
			uint64_t word = busy[pos >> 6];

			busy[pos >> 6] = word | (UINT64_C(1) << (pos & 63));
		}
		return 0;
	}
	return wheel_append_chunk(w, s, m, flow);
}

/*
 * pacer_advance() on the flow's state in locals: next = dep + wire x cost
 * (32.32) + frac, the same value, with the carry of the fraction taken by
 * hand (gcc passes a 128-bit sum through the stack).
 */
static inline void
wheel_advance(uint64_t *next_ns, uint32_t *next_frac, uint64_t cost, uint64_t dep, uint32_t frac,
		uint32_t wire)
{
	unsigned __int128 d = (unsigned __int128)wire * cost;
	uint64_t lo = (uint64_t)d + frac;
	uint64_t hi = (uint64_t)(d >> 64) + (lo < frac);

	*next_ns = dep + ((hi << 32) | (lo >> 32));
	*next_frac = (uint32_t)lo;
}

/*
 * Packets i..lim-1 of a flow with next departure (next_ns, next_frac) >=
 * now into the wheel: each at next, as pacer_depart() gives it.  Stops at
 * the first beyond the horizon (x >= span_ns) or when no chunk is free.
 * Returns the index reached; *wire is the last one's wire bytes.  Inlined
 * for each of stamp (write departures) and d32 (w->div32_ok), so that
 * the loop tests neither.
 *
 * In the loop next is one 64-bit 32.32 number, r = (next - base) << 32 |
 * frac (next - base < span_ns <= 2^32 - 1 while packets go in), advanced
 * by wire x cost: the sum wheel_advance() makes.  It cannot pass 2^64
 * while wire < 2^16 and cost <= w->cost_max (r < span_ns << 32), the
 * rule: a 64-bit multiply.  Else the sum is taken in 128 bits, and if it
 * passes 2^64 (next 2^32 ns or more after base, so beyond the horizon)
 * next is wheel_advance() from the last departure.  The slot is x /
 * slot_ns: with d32, (x x div32) >> 32 (exact below span_ns, checked at
 * init: wheel_ctl.c), else wheel_div(); both without rax:rdx for the
 * first, which leaves gcc the registers to keep the loop's constants.
 */
static __rte_always_inline uint16_t
wheel_fill(struct wheel *w, uint32_t flow, struct rte_mbuf **pkts, uint16_t i, uint16_t lim,
		uint64_t base, uint64_t *next_ns, uint32_t *next_frac, uint64_t cost,
		uint32_t *wire, const bool stamp, const bool d32)
{
	struct wheel_slot *const slots = w->slots;
	uint64_t *const busy = w->busy;
	const uint32_t nslots = w->nslots, span_ns = w->span_ns, cur_pos = w->cur_pos;
	const uint64_t slot_mul = d32 ? w->div32 : w->slot_mul;
	/* wire below this: r + wire x cost < 2^64 */
	const uint32_t wlim = cost <= w->cost_max ? 1u << 16 : 0;
	struct rte_mbuf **pp = pkts + i, **const pe = pkts + lim;
	uint64_t nx = *next_ns, r;
	uint32_t fr = *next_frac, wr = *wire;

	/* dep = nx >= now >= base: its slot is x / slot_ns after the
	 * cursor's */
	if (nx - base >= span_ns) {
		if (stamp && pp < pe)
			pacer_stamp(*pp, w->depart_off, w->depart_flag, nx);
		return i;
	}
	r = ((nx - base) << 32) | fr;
	for (; pp < pe; pp++) {
		struct rte_mbuf *m = *pp;
		uint64_t x = r >> 32;
		unsigned __int128 t;
		uint32_t pos;

		if (stamp)
			pacer_stamp(m, w->depart_off, w->depart_flag, base + x);
		if (x >= span_ns)
			break;
		if (d32)
			pos = cur_pos + (uint32_t)((x * slot_mul) >> 32);
		else /* wheel_div() with the constant in a register */
			pos = cur_pos + (uint32_t)(((unsigned __int128)(x << 1) * slot_mul) >> 64);
		if (pos >= nslots)
			pos -= nslots;
		if (wheel_append(w, slots, busy, pos, m, flow) < 0)
			break;
		wr = m->pkt_len + PCC_PACER_WIRE_OVERHEAD;
		if (likely(wr < wlim)) {
			r += (uint64_t)wr * cost;
			continue;
		}
		t = (unsigned __int128)wr * cost + r;
		if (unlikely((uint64_t)(t >> 64) != 0)) {
			/* the next departure is 2^32 ns or more after base */
			nx = base + x;
			fr = (uint32_t)r;
			wheel_advance(&nx, &fr, cost, nx, fr, wr);
			pp++;
			if (stamp && pp < pe)
				pacer_stamp(*pp, w->depart_off, w->depart_flag, nx);
			*next_ns = nx;
			*next_frac = fr;
			*wire = wr;
			return (uint16_t)(pp - pkts);
		}
		r = (uint64_t)t;
	}
	*next_ns = base + (r >> 32);
	*next_frac = (uint32_t)r;
	*wire = wr;
	return (uint16_t)(pp - pkts);
}

/*
 * The flow's state is kept in locals over the burst (the slot stores
 * could alias it) and written back at the end.  Packets that may skip
 * the wheel come first (the flow has nothing waiting, and once one of its
 * packets waits no other skips), then wheel_fill(), which makes no call.
 */
static __rte_always_inline uint16_t
wheel_enqueue_flow(struct wheel *w, uint32_t flow, struct rte_mbuf **pkts, uint16_t n, uint64_t now)
{
	struct pacer_tb *f = &w->flows[flow];
	uint64_t next_ns = f->next_ns, cost = f->cost, base, now_end;
	uint32_t next_frac = f->next_frac, aux = f->aux, wire = 0;
	uint32_t bypassed = 0;
	uint16_t i = 0, j, lim;

	if (unlikely(!w->started))
		wheel_start(w, rte_reciprocal_divide_u64(now, &w->slot_div));
	/* the cursor never passes now's slot: now >= base */
	base = wheel_cur_ns(w);
	/* the end of now's slot, computed once for each now */
	if (unlikely(now != w->ne_now)) {
		w->ne_now = now;
		w->ne_end = (wheel_slot_of(w, now) + 1) * w->slot_ns;
	}
	now_end = w->ne_end;
	/* pacer_depart(): max(next, now) */
	if (next_ns < now) {
		next_ns = now;
		next_frac = 0;
	}
	if (aux == 0 && next_ns < now_end) {
		/* due already (now's slot) and nothing of the flow waits: to the
		 * pass-through FIFO, as pcc_pacer_pass() */
		uint32_t tail = *w->pass.tail;
		uint32_t room = w->pass.mask + 1 - (tail - *w->pass.head);

		for (; i < n && next_ns < now_end; i++) {
			struct rte_mbuf *m = pkts[i];

			pacer_stamp(m, w->depart_off, w->depart_flag, next_ns);
			if (room == 0)
				break;
			w->pass.ring[tail++ & w->pass.mask] = m;
			room--;
			bypassed++;
			wire = m->pkt_len + PCC_PACER_WIRE_OVERHEAD;
			wheel_advance(&next_ns, &next_frac, cost, next_ns, next_frac, wire);
		}
		*w->pass.tail = tail;
		if (i < n && next_ns < now_end)
			goto out; /* the FIFO is full */
	}
	/* at most max_queued waiting (aux <= max_queued) */
	lim = n;
	if (i + w->max_queued - aux < lim)
		lim = (uint16_t)(i + w->max_queued - aux);
	j = i;
	if (unlikely(w->depart_off > 0))
		i = wheel_fill(w, flow, pkts, i, lim, base, &next_ns, &next_frac, cost, &wire, true,
				false);
	else if (likely(w->div32_ok))
		i = wheel_fill(w, flow, pkts, i, lim, base, &next_ns, &next_frac, cost, &wire,
				false, true);
	else
		i = wheel_fill(w, flow, pkts, i, lim, base, &next_ns, &next_frac, cost, &wire,
				false, false);
	aux += i - j;
	if (i == lim && i < n)
		/* refused for the queue limit: stamped all the same */
		pacer_stamp(pkts[i], w->depart_off, w->depart_flag, next_ns);
out:
	if (i == 0)
		return 0;
	f->next_ns = next_ns;
	f->next_frac = next_frac;
	f->last_wire = pacer_wire_enc(wire);
	w->entries += aux - f->aux;
	if (f->aux == 0 && aux != 0)
		w->st->flows_active++;
	f->aux = (uint16_t)aux;
	w->st->bypassed += bypassed;
	return i;
}

uint16_t
pacer_wheel_enqueue(struct pcc_pacer *p, uint32_t flow, struct rte_mbuf **pkts, uint16_t n,
		uint64_t now)
{
	return wheel_enqueue_flow(pcc_pacer_priv(p), flow, pkts, n, now);
}

/* Prefetch the flows' state (24 bytes, which may straddle two lines),
 * then enqueue each burst. */
uint32_t
pacer_wheel_enqueue_bulk(struct pcc_pacer *p, const uint32_t *flows, struct rte_mbuf **pkts,
		uint16_t *counts, uint16_t nb, uint64_t now)
{
	struct wheel *w = pcc_pacer_priv(p);
	uint32_t off = 0, taken = 0;
	uint16_t j;

	for (j = 0; j < nb; j++) {
		const char *f = (const char *)&w->flows[flows[j]];

		rte_prefetch0(f);
		rte_prefetch0(f + sizeof(struct pacer_tb) - 1);
	}
	for (j = 0; j < nb; j++) {
		uint16_t c = counts[j];

		counts[j] = c != 0 ? wheel_enqueue_flow(w, flows[j], pkts + off, c, now) : 0;
		off += c;
		taken += counts[j];
	}
	return taken;
}

/*
 * Hand out entries i..end-1 of (pkt, flow) into out[*n] while *n < max;
 * removed ones (NULL) are skipped.  Returns the index reached.  direct:
 * take one off the flow's waiting count at once (flow state in cache),
 * counting in *idle the flows left with none; else leave the flow in
 * fids[*n] for the caller and prefetch its state.  While the wheel holds
 * no removed entry (w->removed == 0, the rule) a run of entries is copied
 * without a test per entry; else each is tested (branch-free without
 * direct: out[*n] and fids[*n] are written for a removed one too, and
 * overwritten by the next).
 */
static __rte_always_inline uint32_t
wheel_take(struct wheel *w, struct rte_mbuf *const *pkt, const uint32_t *flow, uint32_t i,
		uint32_t end, struct rte_mbuf **out, uint32_t *fids, uint32_t *n, uint32_t max,
		uint32_t *idle, const bool direct)
{
	struct pacer_tb *const flows = w->flows;
	uint32_t k = *n;

	while (i < end && k < max) {
		/* a run that fits: a removed entry in it leaves room after it */
		uint32_t cnt = RTE_MIN(end - i, max - k), j, got = 0;

		if (likely(w->removed == 0)) {
			for (j = 0; j < cnt; j++) {
				uint32_t fl = flow[i + j];

				out[k + j] = pkt[i + j];
				if (direct) {
					*idle += --flows[fl].aux == 0;
				} else {
					fids[k + j] = fl;
					rte_prefetch0(&flows[fl]);
				}
			}
			got = cnt;
		} else {
			for (j = 0; j < cnt; j++) {
				struct rte_mbuf *m = pkt[i + j];
				uint32_t fl = flow[i + j];

				if (direct) {
					if (m == NULL)
						continue;
					out[k + got++] = m;
					*idle += --flows[fl].aux == 0;
				} else {
					out[k + got] = m;
					fids[k + got] = fl;
					rte_prefetch0(&flows[fl]);
					got += m != NULL;
				}
			}
			w->removed -= cnt - got;
		}
		k += got;
		i += cnt;
	}
	*n = k;
	return i;
}

/*
 * Hand out up to max entries of the slots up to target, in order: see
 * wheel_take() for direct, idle and fids.
 */
static __rte_always_inline uint32_t
wheel_emit(struct wheel *w, uint64_t target, uint64_t now, struct rte_mbuf **out, uint32_t *fids,
		uint32_t max, uint32_t *idle, const bool direct)
{
	struct wheel_slot *const slots = w->slots;
	struct pacer_tb *const flows = w->flows;
	uint32_t n = 0;

	while (n < max) {
		struct wheel_slot *s = &slots[w->cur_pos];
		uint64_t lim;
		uint32_t maxd, pos1, d;

		if (s->n != 0) {
			uint64_t late = now - wheel_cur_ns(w);
			uint32_t i0 = s->i, i, end = s->n;

			if (late > w->st->late_ns_max)
				w->st->late_ns_max = late;
			if (direct && likely(end - i0 <= max - n && w->removed == 0)) {
				/* the rule: all of the inline ones fit, none removed */
				for (i = i0; i < end; i++) {
					out[n++] = s->pkt[i];
					*idle += --flows[s->flow[i]].aux == 0;
				}
			} else {
				i = wheel_take(w, s->pkt, s->flow, i0, end, out, fids, &n, max,
						idle, direct);
			}
			w->entries -= i - i0;
			s->i = (uint8_t)i;
			if (i < end)
				return n;
			while (s->head != WHEEL_NIL) {
				uint32_t ci = s->head;
				struct wheel_chunk *c = &w->chunks[ci];

				i0 = s->head_i;
				end = ci == s->tail ? s->tail_n : WHEEL_CHUNK;
				i = wheel_take(w, c->pkt, c->flow, i0, end, out, fids, &n, max,
						idle, direct);
				w->entries -= i - i0;
				if (i < end) {
					s->head_i = (uint8_t)i;
					return n;
				}
				s->head = ci == s->tail ? WHEEL_NIL : c->next;
				s->head_i = 0;
				chunk_free(w, ci);
			}
			/* all out: the slot is empty */
			s->n = 0;
			s->i = 0;
			w->busy[w->cur_pos >> 6] &= ~(1ull << (w->cur_pos & 63));
			if (n == max)
				return n;
		}
		/* the cursor's slot is empty: on to the next busy slot due */
		if (w->cur_abs >= target)
			break;
		if (w->entries == 0) {
			wheel_jump(w, target);
			break;
		}
		pos1 = w->cur_pos + 1 == w->nslots ? 0 : w->cur_pos + 1;
		if (slots[pos1].n != 0) {
			/* the next slot (due: cur_abs < target), without the bitmap */
			w->cur_abs++;
			w->cur_pos = pos1;
			continue;
		}
		lim = target - w->cur_abs;
		maxd = lim < w->nslots ? (uint32_t)lim : w->nslots - 1;
		if (!wheel_next_busy(w, pos1, maxd - 1, &d)) {
			wheel_jump(w, target);
			break;
		}
		wheel_move(w, d + 1);
	}
	return n;
}

/*
 * Prefetch the slots up to WHEEL_PF_AHEAD after the cursor, at most
 * WHEEL_PF_MAX per call: the next inserts land there (a slot's line is
 * touched once a revolution, so the first insert would miss L1).
 */
static inline void
wheel_prefetch_ahead(struct wheel *w)
{
	const uint64_t cur = w->cur_abs, end = cur + RTE_MIN(WHEEL_PF_AHEAD, w->nslots);
	uint64_t pf = RTE_MAX(w->pf_abs, cur);
	uint32_t k;

	for (k = 0; k < WHEEL_PF_MAX && pf < end; k++, pf++) {
		uint32_t pos = w->cur_pos + (uint32_t)(pf - cur);

		if (pos >= w->nslots)
			pos -= w->nslots;
		rte_prefetch0(&w->slots[pos]);
		rte_prefetch0((const char *)&w->slots[pos] + RTE_CACHE_LINE_SIZE);
	}
	w->pf_abs = pf;
}

/* pacer_wheel_dequeue() of a wheel that holds something, target its slot of now */
static __rte_noinline uint16_t
wheel_dequeue_busy(
		struct wheel *w, uint64_t target, uint64_t now, struct rte_mbuf **out, uint16_t max)
{
	uint32_t fids[WHEEL_BURST];
	uint32_t n = 0;

	if (w->direct) {
		uint32_t idle = 0;

		n = wheel_emit(w, target, now, out, NULL, max, &idle, true);
		w->st->flows_active -= idle;
	}
	/* flows prefetched a block ahead of their update */
	while (!w->direct && n < max) {
		uint32_t blk = RTE_MIN((uint32_t)max - n, WHEEL_BURST);
		uint32_t k = wheel_emit(w, target, now, out + n, fids, blk, NULL, false);
		uint32_t j, idle = 0;

		for (j = 0; j < k; j++)
			idle += --w->flows[fids[j]].aux == 0;
		w->st->flows_active -= idle;
		n += k;
		if (k < blk)
			break;
	}
	wheel_prefetch_ahead(w);
	return (uint16_t)n;
}

/*
 * An empty wheel (most calls, a port polled every round with nothing
 * due) takes the short way: the cursor to now and the slots ahead of it
 * prefetched, without the frame of the busy path.
 */
uint16_t
pacer_wheel_dequeue(struct pcc_pacer *p, uint64_t now, struct rte_mbuf **out, uint16_t max)
{
	struct wheel *w = pcc_pacer_priv(p);
	uint64_t target = wheel_slot_of(w, now);

	if (unlikely(!w->started)) {
		wheel_start(w, target);
		return 0;
	}
	if (w->entries == 0) {
		if (target > w->cur_abs)
			wheel_jump(w, target);
		wheel_prefetch_ahead(w);
		return 0;
	}
	return wheel_dequeue_busy(w, target, now, out, max);
}
