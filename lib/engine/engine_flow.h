/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef ENGINE_FLOW_H
#define ENGINE_FLOW_H

/* Flow tables (flow.c); part of engine_internal.h. */

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_debug.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_prefetch.h>

#include "pcc_dev.h"
#include "pcc_engine.h"
#include "pcc_proto.h"

/* ---- Flows (flow.c) --------------------------------------------------- */

/* eng_flow.flags */
#define ENG_FLOW_F_IN_USE (1u << 0)
#define ENG_FLOW_F_ACKED (1u << 1)    /* una_psn is valid */
#define ENG_FLOW_F_TXC_Q (1u << 2)    /* in its lport's TX-coalescing list */
#define ENG_FLOW_F_TIMER_Q (1u << 3)  /* in its lport's timer FIFO */
#define ENG_FLOW_F_TX_SEEN (1u << 4)  /* has sent a TX event */
#define ENG_FLOW_F_PINNED (1u << 5)   /* rate set by pcc_engine_flow_rate_set() */
#define ENG_FLOW_F_WIN_WIRE (1u << 6) /* window counts frame bytes (PCC_DEV_RES_F_WINDOW_WIRE) */
#define ENG_FLOW_F_TX_DATA (1u << 7)  /* data sent since its last RTT probe */

struct eng_gen_flow;

/*
 * One flow.  Entries live in the lcore's table array (stride bytes apart,
 * the algorithm context after the header); written only by the owner
 * lcore.  seq is odd while the owner (re)initialises the entry: readers on
 * other threads copy, then check seq and key.
 */
struct eng_flow {
	/* line 0: what every CC event reads or writes */
	uint32_t seq;
	uint32_t tag;        /* probe flow tag: the QPN for QP flows */
	uint8_t lp;          /* owner's lport index (< ENG_NO_LPORT) */
	uint8_t probe_pend;  /* a probe waiting for data: its slot + 1, 0 = none */
	uint8_t dev_port;    /* lib/dev logical port */
	uint8_t slot;        /* algorithm slot */
	uint8_t flags;       /* ENG_FLOW_F_* */
	uint8_t txc_flags;   /* PCC_DEV_TX_F_* for the next TX event */
	uint8_t probe_dscp;  /* DSCP of its probes + 1, 0 = the flow's DSCP */
	uint8_t l3_dscp : 6; /* l3->dscp (0 without l3): its events read it here,
	                      * not through l3 (a miss per event with many flows) */
	uint16_t queued;     /* packets in the pacer */
	uint16_t pcust;      /* own probe custom header: store index + 1, 0 = none */
	uint32_t rate;       /* 20-bit fraction of line rate; 0 = not set */
	uint32_t window;     /* bytes; 0 = none */
	uint32_t credits;    /* bytes beyond the window until the next ACK */
	uint32_t una_psn;    /* oldest PSN not acknowledged */
	uint32_t txc_pkts;
	uint64_t last_ns; /* last activity */
	uint64_t lru_ns;  /* last move to the LRU tail */
	uint64_t cnp_rx;
	/* line 1: the rest of an event's counters, pacing estimate */
	uint32_t ev[PCC_ENGINE_NB_EV];
	uint64_t ack_rx;
	uint64_t nack_rx;
	uint64_t pace_ns;   /* estimate of the pacer's next departure */
	uint64_t pace_cost; /* ns per wire byte at the flow's rate, 32.32 */
	/* line 2: identity (the fast path finds QP flows without it), LRU */
	struct pcc_engine_flow_key key;
	uint32_t lru_prev;
	uint32_t lru_next;
	uint32_t txc_bytes;
	uint32_t txc_psn;
	/* line 3: TX side */
	uint64_t txc_first_ns;
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t rtt_ns;
	const struct pcc_l3_spec *l3; /* headers for probes, NULL if none */
	struct eng_gen_flow *gf;      /* generator flow, NULL if none */
	uint64_t probe_tx;
	uint64_t timer_ns; /* last timer event */
} __rte_cache_aligned;

#define ENG_FLOW_HDR 256
static_assert(sizeof(struct eng_flow) == ENG_FLOW_HDR, "flow header is 4 cache lines");
static_assert(offsetof(struct eng_flow, seq) == 0 && offsetof(struct eng_flow, ev) == 64 &&
				offsetof(struct eng_flow, key) == 128,
		"a CC event's fields in lines 0 and 1 (eng_flow_prefetch), seq first "
		"(eng_flow_add clears what follows it)");

/*
 * FIFO of flows (the timers'): each entry is a flow's index and the
 * sequence number it had when queued.  A flow that leaves the table while
 * queued leaves its entry behind, stale (the index's seq moved on): it is
 * dropped when it reaches the head, or by a compaction, and the flow that
 * takes the index next queues itself afresh, on its own port's FIFO.  At
 * most one entry per flow (ENG_FLOW_F_TIMER_Q) besides stale ones.
 *
 * The entries are in chunks of ENG_FIFO_CHUNK from one pool per table,
 * shared by every FIFO of the table (one a port), so that the memory is
 * the table's, not the table's times its ports: a FIFO holds the chunks
 * its entries span (none when empty).  The pool has room for twice the
 * entries of a table whose every flow is queued, plus two part-filled
 * chunks per FIFO and one: when it runs out, every FIFO is compacted
 * (eng_fifo_compact_all()), which frees at least as many chunks as those
 * flows fill, plus one.  Only the FIFOs the pool was sized for have it
 * (pool NULL on the others: a push there is a bug).
 */
#define ENG_FIFO_CHUNK 64u
#define ENG_FIFO_NONE UINT32_MAX

struct eng_fifo_pool {
	uint64_t *e;    /* [nb_chunks * ENG_FIFO_CHUNK]: seq << 32 | index */
	uint32_t *next; /* [nb_chunks]: the next chunk of its FIFO or of the free list */
	uint32_t free;  /* first free chunk, ENG_FIFO_NONE if none */
	uint32_t nb_chunks;
	uint32_t nb_free;
};

struct eng_fifo {
	struct eng_fifo_pool *pool;
	uint32_t hc;   /* head chunk; ENG_FIFO_NONE: empty, no chunk */
	uint32_t tc;   /* tail chunk */
	uint32_t head; /* next to pop, in hc */
	uint32_t tail; /* next free, in tc */
};

static inline bool
eng_fifo_empty(const struct eng_fifo *q)
{
	return q->hc == ENG_FIFO_NONE;
}

/* The head entry; q not empty. */
static inline uint64_t
eng_fifo_peek(const struct eng_fifo *q)
{
	return q->pool->e[(size_t)q->hc * ENG_FIFO_CHUNK + q->head];
}

static inline uint32_t
eng_fifo_idx(uint64_t v)
{
	return (uint32_t)v;
}

static inline void
eng_fifo_chunk_free(struct eng_fifo_pool *p, uint32_t c)
{
	p->next[c] = p->free;
	p->free = c;
	p->nb_free++;
}

/* Drop the head entry; q not empty.  A chunk emptied goes back to the pool. */
static inline void
eng_fifo_pop(struct eng_fifo *q)
{
	uint32_t c = q->hc;

	q->head++;
	if (c == q->tc && q->head == q->tail) {
		eng_fifo_chunk_free(q->pool, c);
		q->hc = ENG_FIFO_NONE;
		q->tc = ENG_FIFO_NONE;
		q->head = 0;
		q->tail = 0;
	} else if (q->head == ENG_FIFO_CHUNK) {
		q->hc = q->pool->next[c];
		q->head = 0;
		eng_fifo_chunk_free(q->pool, c);
	}
}

/* Whether FIFO entry v is f's as it is now (not left by an earlier flow). */
static inline bool
eng_fifo_current(const struct eng_flow *f, uint64_t v)
{
	return (uint32_t)(v >> 32) == f->seq;
}

struct eng_ftable;

/* Drop q's stale entries, keeping the order of the others; the chunks
 * left empty go back to the pool. */
void eng_fifo_compact(const struct eng_ftable *t, struct eng_fifo *q);
/* The same for every FIFO of t. */
void eng_fifo_compact_all(const struct eng_ftable *t);

/* A free chunk of p (there is one: eng_fifo_push()). */
static inline uint32_t
eng_fifo_chunk_take(struct eng_fifo_pool *p)
{
	uint32_t c = p->free;

	RTE_VERIFY(c != ENG_FIFO_NONE);
	p->free = p->next[c];
	p->nb_free--;
	p->next[c] = ENG_FIFO_NONE;
	return c;
}

/* Queue f (index idx) at q's tail. */
static inline void
eng_fifo_push(const struct eng_ftable *t, struct eng_fifo *q, const struct eng_flow *f,
		uint32_t idx)
{
	struct eng_fifo_pool *p = q->pool;

	if (unlikely(q->tc == ENG_FIFO_NONE || q->tail == ENG_FIFO_CHUNK)) {
		/* the pool is sized so that a compaction leaves free chunks;
		 * it may also have made room in q's tail chunk, or emptied q */
		if (unlikely(p->free == ENG_FIFO_NONE))
			eng_fifo_compact_all(t);
		if (q->tc == ENG_FIFO_NONE) {
			q->hc = q->tc = eng_fifo_chunk_take(p);
			q->head = 0;
			q->tail = 0;
		} else if (q->tail == ENG_FIFO_CHUNK) {
			uint32_t c = eng_fifo_chunk_take(p);

			p->next[q->tc] = c;
			q->tc = c;
			q->tail = 0;
		}
	}
	p->e[(size_t)q->tc * ENG_FIFO_CHUNK + q->tail++] = (uint64_t)f->seq << 32 | idx;
}

/* Per-list state of a set of flows sharing a clock (one lport). */
struct eng_flist {
	uint32_t lru_head; /* least recently active */
	uint32_t lru_tail;
	uint32_t nb;
	uint32_t txc_head;     /* flows with TX bytes not yet evented, by */
	uint32_t txc_tail;     /* the time of the first (eng_txc_append()) */
	struct eng_fifo timer; /* flows with a timer, by due time */
};

/* A flow's links in its list's TX-coalescing list (flow indexes, ENG_NONE
 * at the ends), beside the flows: the header has no room for them. */
struct eng_txc_link {
	uint32_t prev;
	uint32_t next;
};

/* Counters of a flow table (all uint64_t). */
struct eng_ftable_ctr {
	uint64_t flows;
	uint64_t added;
	uint64_t evicted;
	uint64_t aged;
	uint64_t refused;
	uint64_t pcust_full; /* probe custom headers refused: store full */
};

/* Flows of a table that may have their own probe custom header at once
 * (results PCC_DEV_RES_F_PROBE_CUSTOM, DOCA's custom_header_set). */
#define ENG_PCUST_MAX 4096u

/* A flow's own probe custom header. */
struct eng_pcust {
	uint16_t next; /* free list: index + 1, 0 = end */
	uint8_t len;
	uint8_t hdr[PCC_DEV_PROBE_CUSTOM_MAX];
};

/*
 * The owner lcore's index of QP flows: (port, QPN) -> flow index, open
 * addressing with linear probing, at most half full.  rte_hash stays the
 * table of record (the control thread reads it); the index answers the
 * fast path's lookups of the flows whose key is pcc_engine_flow_key_qp()'s
 * without rte_hash's 48-byte key compare and key-store indirection.
 * Ports past 255 are not indexed (their QP flows go through rte_hash).
 */
struct eng_qpix_ent {
	uint32_t key; /* eng_qpix_key() */
	uint32_t idx; /* flow index; ENG_QPIX_EMPTY if the slot is empty */
};

#define ENG_QPIX_EMPTY UINT32_MAX
#define ENG_QPIX_PORTS 256u

/* Per-lcore flow table. */
struct eng_ftable {
	struct rte_hash *h;
	struct eng_qpix_ent *qpix; /* [qpix_mask + 1] */
	uint32_t qpix_mask;
	uint8_t qpix_shift; /* 32 - log2(qpix_mask + 1) */
	uint8_t *mem;
	uint32_t stride;
	uint32_t cap;
	uint8_t full;            /* enum pcc_engine_flow_full */
	uint64_t idle_ns;        /* 0 = never age */
	uint64_t lru_gran_ns;    /* LRU moves at most this often per flow */
	struct eng_flist *lists; /* [nb_lists] */
	uint16_t nb_lists;
	struct eng_fifo_pool fifo; /* the lists' FIFOs' entries */
	struct eng_txc_link *txc;  /* [cap] */
	struct eng_pcust *pcust;   /* [pcust_cap] */
	uint16_t pcust_cap;
	uint16_t pcust_free; /* free list head: index + 1, 0 = empty */
	struct eng_ftable_ctr ctr;
};

static inline struct eng_flow *
eng_flow_at(const struct eng_ftable *t, uint32_t idx)
{
	return (struct eng_flow *)(t->mem + (size_t)idx * t->stride);
}

static inline uint32_t
eng_flow_idx(const struct eng_ftable *t, const struct eng_flow *f)
{
	return (uint32_t)(((const uint8_t *)f - t->mem) / t->stride);
}

/* The flow q's head entry queued, NULL if that entry is stale; q not empty. */
static inline struct eng_flow *
eng_fifo_head(const struct eng_ftable *t, const struct eng_fifo *q)
{
	uint64_t v = eng_fifo_peek(q);
	struct eng_flow *f = eng_flow_at(t, eng_fifo_idx(v));

	return eng_fifo_current(f, v) ? f : NULL;
}

/*
 * TX coalescing list of a port's flows: those whose TX bytes wait for
 * their event (ENG_FLOW_F_TXC_Q), doubly linked through t->txc.  A flow
 * joins at the tail with its first bytes (at the port's now) and leaves
 * when its bytes are evented, wherever it is, or when it leaves the
 * table: so the list is in the order of the first bytes' times, which is
 * the order the flows are due in (one coalescing time after them), and
 * its head is the first due, as long as the port's clock does not go
 * back (a device clock whose read fails falls back to the TSC's time,
 * which may be off by the drift since calibration: doc/engine.md,
 * "Clock").
 */
static inline void
eng_txc_append(struct eng_ftable *t, struct eng_flow *f, uint32_t idx)
{
	struct eng_flist *l = &t->lists[f->lp];
	struct eng_txc_link *k = &t->txc[idx];

	k->prev = l->txc_tail;
	k->next = ENG_NONE;
	if (l->txc_tail != ENG_NONE)
		t->txc[l->txc_tail].next = idx;
	else
		l->txc_head = idx;
	l->txc_tail = idx;
	f->flags |= ENG_FLOW_F_TXC_Q;
}

/* f (index idx), which is in its TX coalescing list, out of it. */
static inline void
eng_txc_unlink_at(struct eng_ftable *t, struct eng_flow *f, uint32_t idx)
{
	struct eng_flist *l = &t->lists[f->lp];
	const struct eng_txc_link *k = &t->txc[idx];

	if (k->prev != ENG_NONE)
		t->txc[k->prev].next = k->next;
	else
		l->txc_head = k->next;
	if (k->next != ENG_NONE)
		t->txc[k->next].prev = k->prev;
	else
		l->txc_tail = k->prev;
	f->flags &= (uint8_t)~ENG_FLOW_F_TXC_Q;
}

/* f out of its TX coalescing list, if it is in it. */
static inline void
eng_txc_unlink(struct eng_ftable *t, struct eng_flow *f)
{
	if (f->flags & ENG_FLOW_F_TXC_Q)
		eng_txc_unlink_at(t, f, eng_flow_idx(t, f));
}

/* The first flow of list l's TX coalescing list, NULL if it is empty. */
static inline struct eng_flow *
eng_txc_first(const struct eng_ftable *t, const struct eng_flist *l)
{
	return l->txc_head != ENG_NONE ? eng_flow_at(t, l->txc_head) : NULL;
}

static inline void *
eng_flow_ctx(struct eng_flow *f)
{
	return (uint8_t *)f + ENG_FLOW_HDR;
}

/* The QPN of a RoCEv2 flow, 0 for a 5-tuple flow. */
static inline uint32_t
eng_flow_qpn(const struct eng_flow *f)
{
	return f->key.type == PCC_ENGINE_FLOW_QP ? f->key.qpn : 0;
}

_Static_assert(offsetof(struct pcc_engine_flow_key, port_id) == 0 &&
				offsetof(struct pcc_engine_flow_key, type) == 2 &&
				offsetof(struct pcc_engine_flow_key, proto) == 3 &&
				offsetof(struct pcc_engine_flow_key, qpn) == 4 &&
				sizeof(struct pcc_engine_flow_key) == 48,
		"eng_flow_hash_qp() and eng_flow_key_qp() know the key's words");

/* The first word of pcc_engine_flow_key_qp(port_id, qpn)'s key as memory
 * holds it (the other words are 0). */
static inline uint64_t
eng_flow_key_qp_word(uint16_t port_id, uint32_t qpn)
{
	uint64_t q = qpn & PCC_QPN_MASK, t = PCC_ENGINE_FLOW_QP;

#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return port_id | t << 16 | q << 32;
#else
	return (uint64_t)port_id << 48 | t << 40 | q;
#endif
}

/*
 * pcc_engine_flow_key_qp() for the fast path: inline (no call through the
 * PLT per event), the key written as three 16-byte words built in
 * registers (rte_hash compares keys 16 bytes at a time: narrower stores
 * of the same bytes would not forward to those loads).
 */
static inline void
eng_flow_key_qp(struct pcc_engine_flow_key *k, uint16_t port_id, uint32_t qpn)
{
	uint64_t w[2] = { eng_flow_key_qp_word(port_id, qpn), 0 };
	uint8_t *p = (uint8_t *)k;

	memcpy(p, w, 16);
	w[0] = 0;
	memcpy(p + 16, w, 16);
	memcpy(p + 32, w, 16);
}

/* Is k the key of the QP flow whose first key word is w0? */
static inline bool
eng_flow_key_is_qp(const struct pcc_engine_flow_key *k, uint64_t w0)
{
	const uint8_t *p = (const uint8_t *)k;
	uint64_t w[6];

	memcpy(w, p, sizeof(w));
	return ((w[0] ^ w0) | w[1] | w[2] | w[3] | w[4] | w[5]) == 0;
}

/* Are keys a and b equal (as bytes, as rte_hash compares them)? */
static inline bool
eng_flow_key_eq(const struct pcc_engine_flow_key *a, const struct pcc_engine_flow_key *b)
{
	uint64_t x[6], y[6], d = 0;
	unsigned int i;

	memcpy(x, a, sizeof(x));
	memcpy(y, b, sizeof(y));
	for (i = 0; i < RTE_DIM(x); i++)
		d |= x[i] ^ y[i];
	return d == 0;
}

/*
 * eng_flow_hash() of pcc_engine_flow_key_qp(port_id, qpn)'s key, from
 * registers: one CRC32-C of its first word (the others are 0), not six
 * (rte_hash_crc() of the whole key): RoCEv2 events hash every packet's
 * flow.
 */
static __rte_always_inline uint32_t
eng_flow_hash_qp(uint16_t port_id, uint32_t qpn)
{
	return rte_hash_crc_8byte(eng_flow_key_qp_word(port_id, qpn), 0);
}

/* Hash of key k: what the flow table and steering use as its sig. */
static inline uint32_t
eng_flow_hash(const struct pcc_engine_flow_key *k)
{
	if (k->type == PCC_ENGINE_FLOW_QP &&
			eng_flow_key_is_qp(k, eng_flow_key_qp_word(k->port_id, k->qpn)))
		return eng_flow_hash_qp(k->port_id, k->qpn);
	return rte_hash_crc(k, sizeof(*k), 0);
}

/* The QP index's key of (port_id, qpn); false if the port is not indexed. */
static inline bool
eng_qpix_key(uint16_t port_id, uint32_t qpn, uint32_t *k)
{
	if (port_id >= ENG_QPIX_PORTS)
		return false;
	*k = (qpn & PCC_QPN_MASK) | (uint32_t)port_id << 24;
	return true;
}

/* The QP index key of key, if key is pcc_engine_flow_key_qp()'s of a port
 * that is indexed. */
static inline bool
eng_qpix_key_of(const struct pcc_engine_flow_key *key, uint32_t *k)
{
	return key->type == PCC_ENGINE_FLOW_QP &&
			eng_flow_key_is_qp(key, eng_flow_key_qp_word(key->port_id, key->qpn)) &&
			eng_qpix_key(key->port_id, key->qpn, k);
}

/* Home slot of key k (Fibonacci hashing: the top bits of k * 2^32/phi). */
static inline uint32_t
eng_qpix_home(const struct eng_ftable *t, uint32_t k)
{
	return (uint32_t)(k * UINT32_C(0x9e3779b1)) >> t->qpix_shift;
}

static inline void
eng_qpix_prefetch(const struct eng_ftable *t, uint32_t k)
{
	rte_prefetch0(&t->qpix[eng_qpix_home(t, k)]);
}

/* Flow index of QP index key k, or ENG_QPIX_EMPTY. */
static inline uint32_t
eng_qpix_find(const struct eng_ftable *t, uint32_t k)
{
	uint32_t i = eng_qpix_home(t, k);

	for (;; i = (i + 1) & t->qpix_mask) {
		const struct eng_qpix_ent *e = &t->qpix[i];

		if (e->key == k || e->idx == ENG_QPIX_EMPTY)
			return e->idx;
	}
}

/* What a new flow gets. */
struct eng_flow_init {
	uint16_t lp;
	uint8_t dev_port;
	uint8_t slot;
	const struct pcc_l3_spec *l3;
	struct eng_gen_flow *gf;
};

/* Table parameters (from conf.flow). */
struct eng_ftable_conf {
	uint32_t cap;
	uint32_t ctx_size; /* bytes reserved after the header */
	uint8_t full;
	uint64_t idle_ns;
	uint16_t nb_lists;
	uint64_t list_mask; /* lists that hold flows: get event FIFOs */
	bool timer_fifo;    /* allocate timer FIFOs */
	int socket;
	const char *name; /* unique: rte_hash name */
};

int eng_ftable_init(struct eng_ftable *t, const struct eng_ftable_conf *c);
void eng_ftable_fini(struct eng_ftable *t);

/* The flow of key (hash sig) through rte_hash, or NULL. */
struct eng_flow *eng_flow_lookup_hash(
		struct eng_ftable *t, const struct pcc_engine_flow_key *key, uint32_t sig);

/*
 * The flow of key (hash sig), or NULL.  Owner lcore only: a key that
 * pcc_engine_flow_key_qp() builds is found through the QP index, others
 * through rte_hash (eng_flow_lookup_hash(), which any thread may call).
 */
static inline struct eng_flow *
eng_flow_lookup(struct eng_ftable *t, const struct pcc_engine_flow_key *key, uint32_t sig)
{
	uint32_t k, idx;

	if (likely(eng_qpix_key_of(key, &k))) {
		idx = eng_qpix_find(t, k);
		return idx != ENG_QPIX_EMPTY ? eng_flow_at(t, idx) : NULL;
	}
	return eng_flow_lookup_hash(t, key, sig);
}

/*
 * Lookup or add.  A new flow is zeroed (context too) and initialised from
 * init; *created tells.  When the table is full: evict the longest-idle
 * flow (evict_cb is called on it first) or refuse (NULL).  now[] is the
 * time of each list's clock (for idleness).
 */
typedef void (*eng_flow_evict_cb)(struct eng_flow *f, uint32_t idx, void *arg);
struct eng_flow *eng_flow_add(struct eng_ftable *t, const struct pcc_engine_flow_key *key,
		uint32_t sig, const struct eng_flow_init *init, uint64_t now_ns,
		const uint64_t *now, eng_flow_evict_cb evict_cb, void *cb_arg, bool *created);

/* Remove f (by its owner; not counted as evicted or aged). */
/* Flow f's own probe custom header: len bytes of hdr (len 0 drops it).
 * 0, or -ENOSPC (the table's store is full; counted). */
int eng_flow_pcust_set(struct eng_ftable *t, struct eng_flow *f, const uint8_t *hdr, uint8_t len);
/* Flow f's own probe custom header, NULL if none. */
static inline const struct eng_pcust *
eng_flow_pcust(const struct eng_ftable *t, const struct eng_flow *f)
{
	return f->pcust != 0 ? &t->pcust[f->pcust - 1] : NULL;
}
void eng_flow_del(struct eng_ftable *t, struct eng_flow *f);

/* eng_flow_age() past its first test (flow.c) */
uint32_t eng_flow_age_run(struct eng_ftable *t, uint16_t lp, uint64_t now, uint32_t max,
		eng_flow_evict_cb evict_cb, void *cb_arg);

/*
 * Age out up to max flows of list lp idle longer than t->idle_ns at now;
 * evict_cb is called for each before removal.  Returns how many.  Inline
 * up to the list's head, which is usually not due (housekeeping asks every
 * poll round of every port).
 */
static inline uint32_t
eng_flow_age(struct eng_ftable *t, uint16_t lp, uint64_t now, uint32_t max,
		eng_flow_evict_cb evict_cb, void *cb_arg)
{
	uint32_t head;

	if (t->idle_ns == 0 || max == 0)
		return 0;
	head = t->lists[lp].lru_head;
	if (head == ENG_NONE || now - eng_flow_at(t, head)->lru_ns < t->idle_ns)
		return 0; /* the list is in lru_ns order */
	return eng_flow_age_run(t, lp, now, max, evict_cb, cb_arg);
}

/* cb for every flow in the table (LRU order per list); the table is not
 * changed.  For the end of the table's life. */
void eng_flow_foreach(struct eng_ftable *t, eng_flow_evict_cb cb, void *cb_arg);

/* Move f to the tail of its LRU list (internal to touch). */
void eng_flow_lru_move(struct eng_ftable *t, struct eng_flow *f);

/* f was active at now: last_ns = now, moved to its list's LRU tail. */
/* Fetch the lines of f a CC event touches: the header's first two (the
 * LRU links, TX side and key are touched less often) and the algorithm's
 * context (the first line of it). */
static inline void
eng_flow_prefetch(const struct eng_ftable *t, const struct eng_flow *f)
{
	const uint8_t *p = (const uint8_t *)f;
	unsigned int l;

	for (l = 0; l < 2; l++)
		rte_prefetch0(p + l * RTE_CACHE_LINE_SIZE);
	if (t->stride > ENG_FLOW_HDR)
		rte_prefetch0(p + ENG_FLOW_HDR);
}

/* Set f's packet headers (NULL: none); their DSCP must not change after. */
static inline void
eng_flow_set_l3(struct eng_flow *f, const struct pcc_l3_spec *l3)
{
	f->l3 = l3;
	f->l3_dscp = l3 != NULL ? l3->dscp : 0;
}

static inline void
eng_flow_touch(struct eng_ftable *t, struct eng_flow *f, uint64_t now)
{
	f->last_ns = now;
	if (now - f->lru_ns >= t->lru_gran_ns) {
		f->lru_ns = now;
		eng_flow_lru_move(t, f);
	}
}

/* Snapshot of f for the public getters (retries while seq is odd). */
int eng_flow_snapshot(const struct eng_flow *f, struct eng_flow *copy);

#endif /* ENGINE_FLOW_H */
