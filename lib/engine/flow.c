/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Per-lcore flow table.
 *
 * An rte_hash keyed by struct pcc_engine_flow_key (48 bytes, CRC32 hash:
 * eng_flow_hash()) maps a key to a position 0..cap-1, which indexes a
 * preallocated array of entries (struct eng_flow header, then the
 * algorithm context).  The owner's fast path finds QP flows through its
 * own index instead (engine_flow.h, struct eng_qpix_ent: 8-byte slots,
 * linear probing, half full at most), which mirrors the rte_hash for
 * them: at 1 Ki flows rte_hash's lookup was 16 % of an RP event.  The owner
 * lcore is the only writer; the hash is created lock-free for readers
 * (RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF) so the control thread may look
 * flows up while the owner runs, and with the extendable bucket table so
 * that exactly cap keys always fit.  A deleted key's position is freed at
 * once: a concurrent reader can then meet a re-used entry, which it
 * detects with the entry's sequence number and key (eng_flow_snapshot).
 *
 * Every flow is on one LRU list (that of its lport, whose flows share a
 * clock), ordered by the time of its last move to the tail.  A flow moves
 * at most once per lru_gran_ns, so a busy flow costs a list update per
 * granule, not per packet.  The head is the longest-idle flow (within a
 * granule): aging pops heads idle longer than idle_ns, and a full table
 * evicts the head with the longest idle time over all lists (or refuses).
 * Nothing here allocates after eng_ftable_init().
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <inttypes.h>

#include <rte_malloc.h>
#include <rte_pause.h>

#include "engine_internal.h"

#define LRU_GRAN_MIN_NS 100000ull     /* 100 us */
#define LRU_GRAN_MAX_NS 1000000000ull /* 1 s */
/*
 * Without aging the LRU order serves eviction only, which may err by a
 * granule.  A move unlinks the flow from its neighbours, two random
 * entries: with 1 ms here, 64 Ki flows at ~9 M events/s (a flow's event
 * every ~7 ms) moved on every event, 4 % of bench_rp's profile.  The
 * default aging (10 s) has 625 ms granules.
 */
#define LRU_GRAN_NO_AGING_NS 100000000ull /* 100 ms */
#define QPIX_MIN_SLOTS 64u

void
pcc_engine_flow_key_qp(struct pcc_engine_flow_key *k, uint16_t port_id, uint32_t qpn)
{
	eng_flow_key_qp(k, port_id, qpn);
}

/*
 * The FIFOs' pool (engine_flow.h): twice the entries of every flow
 * queued, plus two part-filled chunks per FIFO and one.  A compacted FIFO
 * holds at most its current entries' chunks and two (its head's offset is
 * kept), so a compaction of every FIFO frees at least the live entries'
 * chunks and one.
 */
static uint32_t
fifo_chunks(uint32_t cap, uint32_t nb_fifos)
{
	uint64_t live = ((uint64_t)cap + ENG_FIFO_CHUNK - 1) / ENG_FIFO_CHUNK;

	return (uint32_t)RTE_MIN(2 * live + 2 * (uint64_t)nb_fifos + 1, (uint64_t)UINT32_MAX - 1);
}

static int
fifo_pool_init(struct eng_fifo_pool *p, uint32_t nb_chunks, int socket)
{
	uint32_t c;

	p->e = rte_malloc_socket("pcc_flow_fifo", sizeof(*p->e) * ENG_FIFO_CHUNK * nb_chunks,
			RTE_CACHE_LINE_SIZE, socket);
	p->next = rte_malloc_socket("pcc_flow_fifo_next", sizeof(*p->next) * nb_chunks,
			RTE_CACHE_LINE_SIZE, socket);
	if (p->e == NULL || p->next == NULL)
		return -ENOMEM;
	for (c = 0; c < nb_chunks; c++)
		p->next[c] = c + 1 < nb_chunks ? c + 1 : ENG_FIFO_NONE;
	p->free = 0;
	p->nb_chunks = nb_chunks;
	p->nb_free = nb_chunks;
	return 0;
}

static void
fifo_init(struct eng_fifo *q, struct eng_fifo_pool *p)
{
	q->pool = p;
	q->hc = ENG_FIFO_NONE;
	q->tc = ENG_FIFO_NONE;
	q->head = 0;
	q->tail = 0;
}

void
eng_fifo_compact(const struct eng_ftable *t, struct eng_fifo *q)
{
	struct eng_fifo_pool *p = q->pool;
	uint32_t rc = q->hc, ro = q->head, wc = q->hc, wo = q->head, c;
	struct eng_flow *f;

	if (eng_fifo_empty(q))
		return;
	/* read and write cursors over the chunks, the writer never ahead */
	for (;;) {
		uint64_t v;

		if (rc == q->tc && ro == q->tail)
			break;
		if (ro == ENG_FIFO_CHUNK) {
			rc = p->next[rc];
			ro = 0;
			continue;
		}
		v = p->e[(size_t)rc * ENG_FIFO_CHUNK + ro++];
		f = eng_flow_at(t, eng_fifo_idx(v));
		if (!eng_fifo_current(f, v))
			continue;
		if (wo == ENG_FIFO_CHUNK) {
			wc = p->next[wc];
			wo = 0;
		}
		p->e[(size_t)wc * ENG_FIFO_CHUNK + wo++] = v;
	}
	/* the chunks after the writer's go back */
	c = wc != q->tc ? p->next[wc] : ENG_FIFO_NONE;
	while (c != ENG_FIFO_NONE) {
		uint32_t n = c == q->tc ? ENG_FIFO_NONE : p->next[c];

		eng_fifo_chunk_free(p, c);
		c = n;
	}
	if (wc == q->hc && wo == q->head) {
		/* nothing current: the FIFO lets its last chunk go too */
		eng_fifo_chunk_free(p, wc);
		fifo_init(q, p);
		return;
	}
	p->next[wc] = ENG_FIFO_NONE;
	q->tc = wc;
	q->tail = wo;
}

void
eng_fifo_compact_all(const struct eng_ftable *t)
{
	uint16_t l;

	for (l = 0; l < t->nb_lists; l++)
		eng_fifo_compact(t, &t->lists[l].timer);
}

/*
 * Out of memory for a flow table: say what fits.  An entry costs its
 * stride here plus about ENG_FLOW_HASH_BYTES in the rte_hash and the QP
 * index (two 8-byte slots), 8 bytes of TX coalescing links, and 16 bytes
 * of timer FIFO (fifo_chunks(): 8-byte entries, whatever the number of
 * ports); the largest power of two of entries that fits in what the heap
 * has left is the --flows to suggest.
 */
#define ENG_FLOW_HASH_BYTES 112u
#define ENG_FLOW_FIFO_BYTES 16u

static void
flows_hint(const struct eng_ftable_conf *c, uint32_t stride)
{
	struct rte_malloc_socket_stats st;
	uint64_t free_b = 0, fit = 1;
	uint32_t per = stride + ENG_FLOW_HASH_BYTES + (uint32_t)sizeof(struct eng_txc_link) +
			(c->timer_fifo ? ENG_FLOW_FIFO_BYTES : 0u);

	if (c->socket >= 0 && rte_malloc_get_socket_stats(c->socket, &st) == 0)
		free_b = st.heap_freesz_bytes;
	while (fit * 2 * per <= free_b && fit * 2 <= c->cap)
		fit *= 2;
	ENG_LOG(ERR,
			"flow table %s: %u flows need about %.0f MiB per lcore, the heap has %.0f "
			"MiB free: lower --flows (--flows %" PRIu64 " fits) or give the EAL more "
			"memory (-m)",
			c->name, c->cap, (double)c->cap * per / (1024.0 * 1024.0),
			(double)free_b / (1024.0 * 1024.0), fit);
}

/* rte_hash's own hash: eng_flow_hash(), the sig every call here passes */
static uint32_t
flow_hash_fn(const void *key, uint32_t key_len, uint32_t init_val)
{
	RTE_SET_USED(key_len);
	RTE_SET_USED(init_val);
	return eng_flow_hash(key);
}

/* ---- QP index (engine_flow.h) --------------------------------------------- */

/* Slots for cap flows: a power of two, at least twice cap. */
static uint64_t
qpix_slots(uint32_t cap)
{
	return rte_align64pow2(RTE_MAX(2 * (uint64_t)cap, (uint64_t)QPIX_MIN_SLOTS));
}

static int
qpix_init(struct eng_ftable *t, const struct eng_ftable_conf *c)
{
	uint64_t n = qpix_slots(t->cap);

	t->qpix = rte_malloc_socket(
			"pcc_flow_qpix", n * sizeof(*t->qpix), RTE_CACHE_LINE_SIZE, c->socket);
	if (t->qpix == NULL)
		return -ENOMEM;
	memset(t->qpix, 0xff, n * sizeof(*t->qpix)); /* every slot ENG_QPIX_EMPTY */
	t->qpix_mask = (uint32_t)(n - 1);
	t->qpix_shift = (uint8_t)(32 - rte_log2_u64(n));
	return 0;
}

static void
qpix_add(struct eng_ftable *t, uint32_t k, uint32_t idx)
{
	uint32_t i = eng_qpix_home(t, k);

	while (t->qpix[i].idx != ENG_QPIX_EMPTY)
		i = (i + 1) & t->qpix_mask;
	t->qpix[i].key = k;
	t->qpix[i].idx = idx;
}

/* Remove key k: backward-shift deletion (no tombstones), so that a
 * lookup still stops at the first empty slot. */
static void
qpix_del(struct eng_ftable *t, uint32_t k)
{
	uint32_t i = eng_qpix_home(t, k), j, h;

	while (t->qpix[i].key != k) {
		if (t->qpix[i].idx == ENG_QPIX_EMPTY)
			return;
		i = (i + 1) & t->qpix_mask;
	}
	for (j = i;;) {
		j = (j + 1) & t->qpix_mask;
		if (t->qpix[j].idx == ENG_QPIX_EMPTY)
			break;
		h = eng_qpix_home(t, t->qpix[j].key);
		/* j's entry may fill the hole at i unless its home lies
		 * cyclically in (i, j] */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		t->qpix[i] = t->qpix[j];
		i = j;
	}
	t->qpix[i].key = ENG_QPIX_EMPTY;
	t->qpix[i].idx = ENG_QPIX_EMPTY;
}

int
eng_ftable_init(struct eng_ftable *t, const struct eng_ftable_conf *c)
{
	struct rte_hash_parameters hp;
	uint16_t l;
	int ret;

	memset(t, 0, sizeof(*t));
	if (c->cap == 0 || c->nb_lists == 0 || c->ctx_size > PCC_DEV_CTX_MAX)
		return -EINVAL;
	t->cap = c->cap;
	t->stride = ENG_FLOW_HDR + RTE_ALIGN_CEIL(c->ctx_size, RTE_CACHE_LINE_SIZE);
	t->full = c->full;
	t->idle_ns = c->idle_ns;
	if (c->idle_ns == 0)
		t->lru_gran_ns = LRU_GRAN_NO_AGING_NS;
	else
		t->lru_gran_ns =
				RTE_MIN(RTE_MAX(c->idle_ns / 16, LRU_GRAN_MIN_NS), LRU_GRAN_MAX_NS);

	memset(&hp, 0, sizeof(hp));
	hp.name = c->name;
	hp.entries = RTE_MAX(c->cap, 8u);
	hp.key_len = sizeof(struct pcc_engine_flow_key);
	hp.hash_func = flow_hash_fn;
	hp.hash_func_init_val = 0;
	hp.socket_id = c->socket;
	hp.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF | RTE_HASH_EXTRA_FLAGS_EXT_TABLE;
	t->h = rte_hash_create(&hp);
	if (t->h == NULL) {
		ENG_LOG(ERR, "flow table %s: rte_hash of %u entries: %s", c->name, c->cap,
				rte_strerror(rte_errno));
		if (rte_errno == ENOMEM)
			flows_hint(c, t->stride);
		return -ENOMEM;
	}
	t->mem = rte_zmalloc_socket(
			"pcc_flows", (size_t)t->cap * t->stride, RTE_CACHE_LINE_SIZE, c->socket);
	t->lists = rte_zmalloc_socket("pcc_flow_lists", sizeof(*t->lists) * c->nb_lists,
			RTE_CACHE_LINE_SIZE, c->socket);
	t->txc = rte_malloc_socket(
			"pcc_flow_txc", sizeof(*t->txc) * t->cap, RTE_CACHE_LINE_SIZE, c->socket);
	if (t->mem == NULL || t->lists == NULL || t->txc == NULL) {
		ENG_LOG(ERR, "flow table %s: cannot allocate %u entries of %u bytes (%.1f MiB)",
				c->name, c->cap, t->stride,
				(double)c->cap * t->stride / (1024.0 * 1024.0));
		flows_hint(c, t->stride);
		eng_ftable_fini(t);
		return -ENOMEM;
	}
	if (qpix_init(t, c) != 0) {
		ENG_LOG(ERR, "flow table %s: cannot allocate the QP index (%.1f MiB)", c->name,
				(double)qpix_slots(t->cap) * sizeof(*t->qpix) / (1024.0 * 1024.0));
		flows_hint(c, t->stride);
		eng_ftable_fini(t);
		return -ENOMEM;
	}
	t->pcust_cap = (uint16_t)RTE_MIN(t->cap, ENG_PCUST_MAX);
	t->pcust = rte_zmalloc_socket("pcc_flow_pcust", sizeof(*t->pcust) * t->pcust_cap,
			RTE_CACHE_LINE_SIZE, c->socket);
	if (t->pcust == NULL) {
		ENG_LOG(ERR, "flow table %s: cannot allocate the probe header store", c->name);
		eng_ftable_fini(t);
		return -ENOMEM;
	}
	for (l = 0; l < t->pcust_cap; l++)
		t->pcust[l].next = l + 1 < t->pcust_cap ? (uint16_t)(l + 2) : 0;
	t->pcust_free = 1;
	t->nb_lists = c->nb_lists;
	for (l = 0; l < c->nb_lists; l++) {
		struct eng_flist *fl = &t->lists[l];

		fl->lru_head = ENG_NONE;
		fl->lru_tail = ENG_NONE;
		fl->txc_head = ENG_NONE;
		fl->txc_tail = ENG_NONE;
		/* the FIFOs the pool is sized for get it */
		fifo_init(&fl->timer,
				c->timer_fifo && (c->list_mask & (UINT64_C(1) << l)) != 0 ?
						&t->fifo :
						NULL);
	}
	ret = fifo_pool_init(&t->fifo,
			fifo_chunks(c->timer_fifo ? t->cap : 0,
					c->timer_fifo ? (uint32_t)__builtin_popcountll(
									c->list_mask) :
							0),
			c->socket);
	if (ret < 0) {
		ENG_LOG(ERR, "flow table %s: cannot allocate event queues", c->name);
		flows_hint(c, t->stride);
		eng_ftable_fini(t);
		return ret;
	}
	return 0;
}

void
eng_ftable_fini(struct eng_ftable *t)
{
	rte_free(t->fifo.e);
	rte_free(t->fifo.next);
	t->fifo.e = NULL;
	t->fifo.next = NULL;
	rte_free(t->lists);
	rte_free(t->txc);
	t->txc = NULL;
	rte_free(t->mem);
	rte_free(t->pcust);
	rte_free(t->qpix);
	rte_hash_free(t->h);
	t->pcust = NULL;
	t->qpix = NULL;
	t->lists = NULL;
	t->mem = NULL;
	t->h = NULL;
}

struct eng_flow *
eng_flow_lookup_hash(struct eng_ftable *t, const struct pcc_engine_flow_key *key, uint32_t sig)
{
	int32_t pos = rte_hash_lookup_with_hash(t->h, key, sig);

	return pos >= 0 ? eng_flow_at(t, (uint32_t)pos) : NULL;
}

/* ---- LRU lists ----------------------------------------------------------- */

static void
lru_unlink(struct eng_ftable *t, struct eng_flist *l, struct eng_flow *f)
{
	if (f->lru_prev != ENG_NONE)
		eng_flow_at(t, f->lru_prev)->lru_next = f->lru_next;
	else
		l->lru_head = f->lru_next;
	if (f->lru_next != ENG_NONE)
		eng_flow_at(t, f->lru_next)->lru_prev = f->lru_prev;
	else
		l->lru_tail = f->lru_prev;
	f->lru_prev = ENG_NONE;
	f->lru_next = ENG_NONE;
}

static void
lru_append(struct eng_ftable *t, struct eng_flist *l, struct eng_flow *f, uint32_t idx)
{
	f->lru_prev = l->lru_tail;
	f->lru_next = ENG_NONE;
	if (l->lru_tail != ENG_NONE)
		eng_flow_at(t, l->lru_tail)->lru_next = idx;
	else
		l->lru_head = idx;
	l->lru_tail = idx;
}

void
eng_flow_lru_move(struct eng_ftable *t, struct eng_flow *f)
{
	struct eng_flist *l = &t->lists[f->lp];
	uint32_t idx = eng_flow_idx(t, f);

	if (l->lru_tail == idx)
		return;
	lru_unlink(t, l, f);
	lru_append(t, l, f, idx);
}

/* ---- Add, delete ----------------------------------------------------------- */

static inline void
seq_begin(struct eng_flow *f)
{
	__atomic_store_n(&f->seq, f->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void
seq_end(struct eng_flow *f)
{
	__atomic_store_n(&f->seq, f->seq + 1, __ATOMIC_RELEASE);
}

int
eng_flow_pcust_set(struct eng_ftable *t, struct eng_flow *f, const uint8_t *hdr, uint8_t len)
{
	struct eng_pcust *e;

	len = RTE_MIN(len, (uint8_t)PCC_DEV_PROBE_CUSTOM_MAX);
	if (len == 0 || hdr == NULL) {
		if (f->pcust != 0) {
			t->pcust[f->pcust - 1].next = t->pcust_free;
			t->pcust_free = f->pcust;
			f->pcust = 0;
		}
		return 0;
	}
	if (f->pcust == 0) {
		if (t->pcust_free == 0) {
			eng_ctr_add(&t->ctr.pcust_full, 1);
			return -ENOSPC;
		}
		f->pcust = t->pcust_free;
		t->pcust_free = t->pcust[f->pcust - 1].next;
	}
	e = &t->pcust[f->pcust - 1];
	e->len = len;
	memcpy(e->hdr, hdr, len);
	return 0;
}

void
eng_flow_del(struct eng_ftable *t, struct eng_flow *f)
{
	struct eng_flist *l = &t->lists[f->lp];
	uint32_t k;
	int32_t pos;

	eng_flow_pcust_set(t, f, NULL, 0);
	eng_txc_unlink(t, f);
	lru_unlink(t, l, f);
	l->nb--;
	if (eng_qpix_key_of(&f->key, &k))
		qpix_del(t, k);
	pos = rte_hash_del_key_with_hash(t->h, &f->key, eng_flow_hash(&f->key));
	if (pos >= 0)
		rte_hash_free_key_with_position(t->h, pos);
	/* its timer FIFO entry is stale from here (eng_fifo_current()) */
	seq_begin(f);
	f->flags = 0;
	seq_end(f);
	eng_ctr_add(&t->ctr.flows, (uint64_t)-1);
}

/* The head with the longest idle time over all lists; NULL if none. */
static struct eng_flow *
lru_victim(struct eng_ftable *t, const uint64_t *now)
{
	struct eng_flow *best = NULL;
	uint64_t best_idle = 0;
	uint16_t l;

	for (l = 0; l < t->nb_lists; l++) {
		struct eng_flow *h;
		uint64_t idle;

		if (t->lists[l].lru_head == ENG_NONE)
			continue;
		h = eng_flow_at(t, t->lists[l].lru_head);
		idle = now[l] - h->last_ns;
		if (best == NULL || idle > best_idle) {
			best = h;
			best_idle = idle;
		}
	}
	return best;
}

struct eng_flow *
eng_flow_add(struct eng_ftable *t, const struct pcc_engine_flow_key *key, uint32_t sig,
		const struct eng_flow_init *init, uint64_t now_ns, const uint64_t *now,
		eng_flow_evict_cb evict_cb, void *cb_arg, bool *created)
{
	struct eng_flist *l = &t->lists[init->lp];
	struct eng_flow *f;
	uint32_t k;
	int32_t pos;

	*created = false;
	pos = rte_hash_lookup_with_hash(t->h, key, sig);
	if (pos >= 0)
		return eng_flow_at(t, (uint32_t)pos);
	if (t->ctr.flows >= t->cap) {
		struct eng_flow *v;

		if (t->full == PCC_ENGINE_FLOW_FULL_REFUSE || (v = lru_victim(t, now)) == NULL) {
			eng_ctr_add(&t->ctr.refused, 1);
			return NULL;
		}
		if (evict_cb != NULL)
			evict_cb(v, eng_flow_idx(t, v), cb_arg);
		eng_flow_del(t, v);
		eng_ctr_add(&t->ctr.evicted, 1);
	}
	pos = rte_hash_add_key_with_hash(t->h, key, sig);
	if (pos < 0 || (uint32_t)pos >= t->cap) {
		/* cannot happen with the extendable table; never crash */
		if (pos >= 0)
			rte_hash_del_key_with_hash(t->h, key, sig);
		eng_ctr_add(&t->ctr.refused, 1);
		return NULL;
	}
	if (eng_qpix_key_of(key, &k))
		qpix_add(t, k, (uint32_t)pos);
	f = eng_flow_at(t, (uint32_t)pos);
	seq_begin(f);
	/* everything but the key (set below) and seq (odd now) */
	memset((uint8_t *)f + offsetof(struct eng_flow, seq) + sizeof(f->seq), 0,
			t->stride - offsetof(struct eng_flow, seq) - sizeof(f->seq));
	f->key = *key;
	f->tag = key->type == PCC_ENGINE_FLOW_QP ? key->qpn : (uint32_t)pos;
	f->lp = init->lp;
	f->dev_port = init->dev_port;
	f->slot = init->slot;
	f->flags = ENG_FLOW_F_IN_USE;
	eng_flow_set_l3(f, init->l3);
	f->gf = init->gf;
	f->last_ns = now_ns;
	f->lru_ns = now_ns;
	f->timer_ns = now_ns;
	lru_append(t, l, f, (uint32_t)pos);
	l->nb++;
	seq_end(f);
	eng_ctr_add(&t->ctr.flows, 1);
	eng_ctr_add(&t->ctr.added, 1);
	*created = true;
	return f;
}

uint32_t
eng_flow_age_run(struct eng_ftable *t, uint16_t lp, uint64_t now, uint32_t max,
		eng_flow_evict_cb evict_cb, void *cb_arg)
{
	struct eng_flist *l = &t->lists[lp];
	uint32_t n = 0;

	if (t->idle_ns == 0)
		return 0;
	while (n < max && l->lru_head != ENG_NONE) {
		uint32_t idx = l->lru_head;
		struct eng_flow *f = eng_flow_at(t, idx);

		if (now - f->lru_ns < t->idle_ns)
			break; /* the list is in lru_ns order */
		if (now - f->last_ns < t->idle_ns) {
			/* active since its last move: move it now */
			f->lru_ns = f->last_ns;
			eng_flow_lru_move(t, f);
			n++;
			continue;
		}
		if (evict_cb != NULL)
			evict_cb(f, idx, cb_arg);
		eng_flow_del(t, f);
		eng_ctr_add(&t->ctr.aged, 1);
		n++;
	}
	return n;
}

void
eng_flow_foreach(struct eng_ftable *t, eng_flow_evict_cb cb, void *cb_arg)
{
	uint16_t l;

	for (l = 0; t->mem != NULL && t->lists != NULL && l < t->nb_lists; l++) {
		uint32_t idx = t->lists[l].lru_head;

		while (idx != ENG_NONE) {
			struct eng_flow *f = eng_flow_at(t, idx);

			cb(f, idx, cb_arg);
			idx = f->lru_next;
		}
	}
}

int
eng_flow_snapshot(const struct eng_flow *f, struct eng_flow *copy)
{
	unsigned int tries;

	for (tries = 0; tries < 64; tries++) {
		uint32_t s1 = __atomic_load_n(&f->seq, __ATOMIC_ACQUIRE);
		uint32_t s2;

		if (s1 & 1) {
			rte_pause();
			continue;
		}
		memcpy(copy, f, sizeof(*copy));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&f->seq, __ATOMIC_RELAXED);
		if (s1 == s2)
			return 0;
	}
	return -EAGAIN;
}
