/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PACER_WHEEL_H
#define PACER_WHEEL_H

/*
 * wheel: a Carousel-style timing wheel (as in eRPC).
 *
 * Time is cut into slots of slot_ns; the wheel is a ring of nslots slots
 * covering the horizon.  A packet's departure is
 * max(previous departure + previous size / rate, now) (pacer_drv.h); it
 * is appended to the slot holding that time, so a flow's packets stay in
 * order (their departures never decrease and a slot is FIFO).  A slot is
 * two cache lines holding its first 9 (mbuf, flow) entries inline (as
 * eRPC's slot is its first bucket), then a list of 64-byte chunks of 5
 * entries taken from a pool allocated at init: no allocation per packet.
 * The slot number is a multiply-high by a constant computed at init
 * (exact for the distances within the horizon), not a division; a burst's
 * departures are one 64-bit sum each (wheel_fill()).  Dequeue walks a
 * cursor over the slots up to the one holding now and hands out their
 * entries in order, a slot's inline ones in one run; an occupancy bitmap
 * lets it skip empty slots a word (64 slots) at a time, and a wheel with
 * nothing in it jumps straight to now, so a jump of now by hours costs no
 * more than one revolution.
 *
 * A packet already due when offered, of a flow with nothing in the wheel,
 * skips the wheel (front end pass-through FIFO); that includes every
 * packet of a line-rate flow that keeps within line rate.  Packets due
 * beyond the horizon, beyond max_queued per flow, or when the pool is
 * empty are refused: the caller keeps or frees them.
 *
 * Memory: 24 bytes per flow (struct pacer_tb), 128 bytes per slot plus one
 * bit, and 64 bytes per 5 packets of pool (see wheel_pool_pkts()).
 *
 * wheel.c holds the packet path (enqueue, dequeue), wheel_ctl.c the rest
 * (init, rates, reset, memory) and the ops.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_reciprocal.h>

#include "pacer_drv.h"

#define WHEEL_CHUNK 5  /* entries per overflow chunk */
#define WHEEL_INLINE 9 /* entries in the slot itself */
#define WHEEL_NIL UINT32_MAX
#define WHEEL_BURST 64u    /* entries emitted between flow updates */
#define WHEEL_PF_AHEAD 32u /* slots ahead of the cursor kept prefetched */
#define WHEEL_PF_MAX 8u    /* slots prefetched per dequeue */
/* Flow state up to this size is updated by dequeue without a prefetch */
#define WHEEL_DIRECT_BYTES (1u << 22)
#define WHEEL_MIN_FRAME 64u /* for the pool bound: smallest frame */
#define WHEEL_POOL_MAX (1u << 22)

struct wheel_chunk {
	uint32_t next; /* chunk index, or WHEEL_NIL */
	uint32_t flow[WHEEL_CHUNK];
	struct rte_mbuf *pkt[WHEEL_CHUNK]; /* NULL: removed by flow_reset */
} __rte_aligned(64);

/*
 * A slot, two adjacent cache lines (128-byte aligned): its first
 * WHEEL_INLINE entries, then overflow chunks.  The first line holds the
 * header, the 9 flows and packets 0-1, the second packets 2-8: the inline
 * entries are two plain arrays, handed out in one run.  Empty when
 * n == 0.  Entries are handed out inline ones first (from i), then the
 * chunks' (from head, head_i); the slot is reset once all are out.
 */
struct wheel_slot {
	uint32_t head;  /* first overflow chunk not done, WHEEL_NIL if none */
	uint32_t tail;  /* last overflow chunk */
	uint8_t n;      /* inline entries used */
	uint8_t i;      /* next inline entry to hand out */
	uint8_t head_i; /* next entry of the head chunk to hand out */
	uint8_t tail_n; /* entries used in the tail chunk */
	uint32_t flow[WHEEL_INLINE];
	struct rte_mbuf *pkt[WHEEL_INLINE]; /* NULL: removed by flow_reset */
} __rte_aligned(128);

/*
 * Cache-line aligned (wheel_init).  The first line holds what every
 * dequeue reads, an empty wheel's too (the engine polls every port's
 * pacer every round, most of them empty), and the flows for
 * wheel_flow_next(): one line per poll of an idle port.
 */
struct wheel {
	uint64_t cur_abs;  /* absolute slot (time / slot_ns) of the cursor */
	uint64_t entries;  /* in the slots, removed ones included */
	uint64_t slot_mul; /* 2^63 / slot_ns + 1: wheel_div() */
	uint64_t pf_abs;   /* slots before it are prefetched (wheel_prefetch_ahead) */
	struct wheel_slot *slots;
	uint32_t cur_pos; /* cur_abs % nslots */
	uint32_t nslots;
	uint32_t slot_ns;
	bool started;
	bool direct; /* flow state small enough to stay cached: no prefetch */
	struct pacer_tb *flows;
	/* the rest */
	uint64_t *busy; /* bit per slot: has entries */
	struct wheel_chunk *chunks;
	struct pcc_pacer_stats *st;
	struct pcc_pacer_pass_fifo pass; /* the front end's, filled inline */
	struct rte_reciprocal_u64 slot_div;
	uint32_t span_ns;  /* nslots x slot_ns: distances below it are in the wheel */
	uint64_t cost_max; /* (2^64 - 1 - (span_ns << 32)) >> 16: wheel_fill() */
	uint64_t div32;    /* ceil(2^32 / slot_ns): wheel_fill() */
	bool div32_ok;     /* (x x div32) >> 32 == x / slot_ns for x < span_ns */
	uint64_t ne_now;   /* the last now enqueue saw, */
	uint64_t ne_end;   /* and the end of its slot */
	uint64_t line_bps;
	uint64_t line_cost;
	uint64_t depart_flag;
	uint64_t removed; /* of the entries, removed by flow_reset (NULL) */
	uint32_t free_head;
	uint32_t n_chunks;
	uint32_t nwords;
	uint32_t max_queued;
	uint32_t max_flows;
	int depart_off;
	uint64_t pool_pkts;
};

static_assert(sizeof(struct wheel_chunk) == 64, "a chunk is one cache line");
static_assert(offsetof(struct wheel, flows) + sizeof(void *) <= 64,
		"the dequeue's fields in one line");
static_assert(sizeof(struct wheel_slot) == 128, "a slot is two cache lines");
static_assert(offsetof(struct wheel_slot, pkt) == 48, "flows and 2 packets in the first line");
static_assert(sizeof(struct pacer_tb) == 24, "24 bytes per flow");

/* The cursor's slot starts here (ns). */
static inline uint64_t
wheel_cur_ns(const struct wheel *w)
{
	return w->cur_abs * w->slot_ns;
}

/*
 * The first busy slot at distance 0..maxd from pos (wrapping): true and
 * its distance in *d, or false.  Word at a time; bits past nslots are 0.
 */
static inline bool
wheel_next_busy(const struct wheel *w, uint32_t pos, uint32_t maxd, uint32_t *d)
{
	uint32_t off = 0;

	while (off <= maxd) {
		uint32_t p = pos + off;
		uint64_t word;
		uint32_t avail;

		if (p >= w->nslots)
			p -= w->nslots;
		word = w->busy[p >> 6] >> (p & 63);
		if (word != 0) {
			uint32_t k = off + (uint32_t)__builtin_ctzll(word);

			if (k > maxd)
				return false;
			*d = k;
			return true;
		}
		avail = RTE_MIN(64 - (p & 63), w->nslots - p);
		off += avail;
	}
	return false;
}

/* The packet path (wheel.c) */
uint16_t pacer_wheel_enqueue(struct pcc_pacer *p, uint32_t flow, struct rte_mbuf **pkts, uint16_t n,
		uint64_t now);
uint32_t pacer_wheel_enqueue_bulk(struct pcc_pacer *p, const uint32_t *flows,
		struct rte_mbuf **pkts, uint16_t *counts, uint16_t nb, uint64_t now);
uint16_t pacer_wheel_dequeue(
		struct pcc_pacer *p, uint64_t now, struct rte_mbuf **out, uint16_t max);

#endif /* PACER_WHEEL_H */
