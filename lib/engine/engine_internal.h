/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef ENGINE_INTERNAL_H
#define ENGINE_INTERNAL_H

/*
 * Engine internals shared by engine.c (lifecycle), port.c (ethdev and
 * mempool setup), clock.c (per-port time source), flow.c (flow tables),
 * rp.c (reaction point: events, dispatch, results), gen.c (generator),
 * fwd.c (forward mode), worker.c (poll loop and RX dispatch), np.c and
 * probe.c (notification point, probe formats: engine_np.h) and stats.c.
 * Design: doc/engine.md.
 */

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_log.h>
#include <rte_prefetch.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "pcc_dev.h"
#include "pcc_engine.h"
#include "pcc_pacer.h"
#include "pcc_proto.h"

extern int pcc_engine_logtype;

#define ENG_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pcc_engine_logtype, "pcc.engine: " fmt "\n", ##__VA_ARGS__)

/*
 * Counters are written by one lcore and read by any thread.  Relaxed
 * atomic loads and stores (plain moves on x86 and arm64) make that race
 * free without a locked instruction on the fast path.
 */
static inline void
eng_ctr_add(uint64_t *ctr, uint64_t n)
{
	__atomic_store_n(ctr, *ctr + n, __ATOMIC_RELAXED);
}

static inline uint64_t
eng_ctr_read(const uint64_t *ctr)
{
	return __atomic_load_n(ctr, __ATOMIC_RELAXED);
}

static inline void
eng_ctr32_add(uint32_t *ctr, uint32_t n)
{
	__atomic_store_n(ctr, *ctr + n, __ATOMIC_RELAXED);
}

#define ENG_NONE UINT32_MAX  /* no flow / empty list */
#define ENG_SLOT_ACTIVE 0xFF /* a flow gets its port's active slot */
#define ENG_NO_LPORT 0xFF
#define ENG_NO_DEV_PORT 0xFF

/* ---- Clock (clock.c) -------------------------------------------------- */

/* What the clock needs from the system: replaced by fakes in unit tests. */
struct eng_clock_ops {
	int (*read_clock)(uint16_t port_id, uint64_t *ticks); /* rte_eth_read_clock */
	uint64_t (*tsc)(void);                                /* rte_rdtsc */
	uint64_t tsc_hz;
	void (*delay_us)(unsigned int us); /* rte_delay_us_block */
};

/* Default ops (tsc_hz = rte_get_tsc_hz()). */
void eng_clock_ops_default(struct eng_clock_ops *ops);

/* Calibration interval of a device clock against the TSC, microseconds. */
#define ENG_CLOCK_CALIB_US 20000

/*
 * A port's time source, chosen once (eng_clock_setup).  Device ticks and
 * TSC cycles become ns as ns0 + (ticks - tick0) * mult / 2^32.
 */
struct eng_clock {
	uint8_t src;     /* enum pcc_engine_clock_src */
	bool calibrated; /* device tick -> ns conversion known */
	uint16_t port_id;
	int ts_off;       /* RX timestamp dynfield offset, -1 if none */
	uint64_t ts_flag; /* RX timestamp dynflag, 0 if none */
	pcc_engine_clock_fn fn;
	void *fn_arg;
	uint64_t tsc_mult; /* ns per TSC cycle, 32.32 fixed point */
	uint64_t dev_tick0;
	uint64_t dev_ns0;
	uint64_t dev_mult; /* ns per device tick, 32.32 fixed point */
	uint64_t dev_hz;   /* measured device clock frequency */
	struct eng_clock_ops ops;
};

/* ns0 + (t - t0) * mult / 2^32, also for t before t0. */
static inline uint64_t
eng_clock_conv(uint64_t t, uint64_t t0, uint64_t ns0, uint64_t mult)
{
	if ((int64_t)(t - t0) >= 0)
		return ns0 + (uint64_t)(((unsigned __int128)(t - t0) * mult) >> 32);
	return ns0 - (uint64_t)(((unsigned __int128)(t0 - t) * mult) >> 32);
}

static inline uint64_t
eng_clock_tsc_ns(const struct eng_clock *c, uint64_t tsc)
{
	return eng_clock_conv(tsc, 0, 0, c->tsc_mult);
}

/* Now, ns of the port's clock. */
static inline uint64_t
eng_clock_now(const struct eng_clock *c)
{
	uint64_t t;

	switch (c->src) {
	case PCC_ENGINE_CLOCK_REGISTERED:
		return c->fn(c->fn_arg);
	case PCC_ENGINE_CLOCK_READ_CLOCK:
	case PCC_ENGINE_CLOCK_HW_RX_TS:
		if (c->calibrated && c->ops.read_clock(c->port_id, &t) == 0)
			return eng_clock_conv(t, c->dev_tick0, c->dev_ns0, c->dev_mult);
		/* fall through */
	default:
		return eng_clock_tsc_ns(c, c->ops.tsc());
	}
}

/* Receive time of m, ns: its hardware timestamp if it has one, else now. */
static inline uint64_t
eng_clock_rx(const struct eng_clock *c, const struct rte_mbuf *m, uint64_t now)
{
	uint64_t t;

	if (c->src != PCC_ENGINE_CLOCK_HW_RX_TS || !(m->ol_flags & c->ts_flag))
		return now;
	t = *RTE_MBUF_DYNFIELD(m, c->ts_off, const rte_mbuf_timestamp_t *);
	return c->calibrated ? eng_clock_conv(t, c->dev_tick0, c->dev_ns0, c->dev_mult) : t;
}

/*
 * Choose c's source for port_id: hw_ts (the RX timestamp offload is on and
 * its dynfield at ts_off/ts_flag), else ops->read_clock if it works and
 * advances, else reg (a registered function), else the TSC.  Device
 * clocks are calibrated against the TSC over ENG_CLOCK_CALIB_US.
 */
void eng_clock_setup(struct eng_clock *c, uint16_t port_id, bool hw_ts, int ts_off,
		uint64_t ts_flag, pcc_engine_clock_fn reg, void *reg_arg,
		const struct eng_clock_ops *ops);

/* Registered function of port_id (pcc_engine_port_clock_register). */
pcc_engine_clock_fn eng_clock_registered(uint16_t port_id, void **arg);

/* ---- Flows (flow.c) --------------------------------------------------- */

/* eng_flow.flags */
#define ENG_FLOW_F_IN_USE (1u << 0)
#define ENG_FLOW_F_ACKED (1u << 1)   /* una_psn is valid */
#define ENG_FLOW_F_TXC_Q (1u << 2)   /* in its lport's TX-coalescing FIFO */
#define ENG_FLOW_F_TIMER_Q (1u << 3) /* in its lport's timer FIFO */
#define ENG_FLOW_F_TX_SEEN (1u << 4) /* has sent a TX event */
#define ENG_FLOW_F_PINNED (1u << 5)  /* rate set by pcc_engine_flow_rate_set() */
/* flags that survive re-use of the entry (FIFO membership) */
#define ENG_FLOW_F_KEEP (ENG_FLOW_F_TXC_Q | ENG_FLOW_F_TIMER_Q)

struct eng_gen_flow;

/*
 * One flow.  Entries live in the lcore's table array (stride bytes apart,
 * the algorithm context after the header); written only by the owner
 * lcore.  seq is odd while the owner (re)initialises the entry: readers on
 * other threads copy, then check seq and key.
 */
struct eng_flow {
	/* line 0: identity */
	struct pcc_engine_flow_key key;
	uint32_t seq;
	uint32_t tag;      /* probe flow tag: the QPN for QP flows */
	uint16_t lp;       /* owner's lport index */
	uint8_t dev_port;  /* lib/dev logical port */
	uint8_t slot;      /* algorithm slot */
	uint8_t flags;     /* ENG_FLOW_F_* */
	uint8_t txc_flags; /* PCC_DEV_TX_F_* for the next TX event */
	uint16_t queued;   /* packets in the pacer */
	/* line 1: state */
	uint64_t last_ns; /* last activity */
	uint64_t lru_ns;  /* last move to the LRU tail */
	uint32_t lru_prev;
	uint32_t lru_next;
	uint32_t rate;    /* 20-bit fraction of line rate; 0 = not set */
	uint32_t window;  /* bytes; 0 = none */
	uint32_t credits; /* bytes beyond the window until the next ACK */
	uint32_t una_psn; /* oldest PSN not acknowledged */
	uint64_t txc_first_ns;
	uint32_t txc_bytes;
	uint32_t txc_pkts;
	uint32_t txc_psn;
	uint16_t pcust;     /* own probe custom header: store index + 1, 0 = none */
	uint8_t probe_dscp; /* DSCP of its probes + 1, 0 = the flow's DSCP */
	uint8_t reserved;
	/* line 2: counters */
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t cnp_rx;
	uint64_t ack_rx;
	uint64_t nack_rx;
	uint64_t rtt_ns;
	const struct pcc_l3_spec *l3; /* headers for probes, NULL if none */
	struct eng_gen_flow *gf;      /* generator flow, NULL if none */
	/* line 3 */
	uint64_t probe_tx;
	uint64_t timer_ns; /* last timer event */
	uint32_t ev[PCC_ENGINE_NB_EV];
	uint64_t pace_ns;   /* estimate of the pacer's next departure */
	uint64_t pace_cost; /* ns per wire byte at the flow's rate, 32.32 */
} __rte_cache_aligned;

#define ENG_FLOW_HDR 256
static_assert(sizeof(struct eng_flow) == ENG_FLOW_HDR, "flow header is 4 cache lines");

/* FIFO of flow indexes (power-of-two ring; one entry per flow at most). */
struct eng_fifo {
	uint32_t *e;
	uint32_t mask;
	uint32_t head; /* next to pop */
	uint32_t tail; /* next free */
};

static inline bool
eng_fifo_empty(const struct eng_fifo *q)
{
	return q->head == q->tail;
}

static inline uint32_t
eng_fifo_peek(const struct eng_fifo *q)
{
	return q->e[q->head & q->mask];
}

static inline void
eng_fifo_pop(struct eng_fifo *q)
{
	q->head++;
}

static inline void
eng_fifo_push(struct eng_fifo *q, uint32_t v)
{
	q->e[q->tail++ & q->mask] = v;
}

/* Per-list state of a set of flows sharing a clock (one lport). */
struct eng_flist {
	uint32_t lru_head; /* least recently active */
	uint32_t lru_tail;
	uint32_t nb;
	struct eng_fifo txc;   /* flows with TX bytes not yet evented */
	struct eng_fifo timer; /* flows with a timer, by due time */
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

/* Per-lcore flow table. */
struct eng_ftable {
	struct rte_hash *h;
	uint8_t *mem;
	uint32_t stride;
	uint32_t cap;
	uint8_t full;            /* enum pcc_engine_flow_full */
	uint64_t idle_ns;        /* 0 = never age */
	uint64_t lru_gran_ns;    /* LRU moves at most this often per flow */
	struct eng_flist *lists; /* [nb_lists] */
	uint16_t nb_lists;
	struct eng_pcust *pcust; /* [pcust_cap] */
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

static inline uint32_t
eng_flow_hash(const struct pcc_engine_flow_key *k)
{
	return rte_hash_crc(k, sizeof(*k), 0);
}

_Static_assert(offsetof(struct pcc_engine_flow_key, port_id) == 0 &&
				offsetof(struct pcc_engine_flow_key, type) == 2 &&
				offsetof(struct pcc_engine_flow_key, proto) == 3 &&
				offsetof(struct pcc_engine_flow_key, qpn) == 4 &&
				sizeof(struct pcc_engine_flow_key) % 8 == 0,
		"eng_flow_hash_qp() knows the key's first word");

/*
 * eng_flow_hash() of pcc_engine_flow_key_qp(port_id, qpn)'s key, from
 * registers: its first word as rte_hash_crc() reads it, the others 0.
 * Reading back a key just written field by field would wait for the
 * stores (their forwarding to a wider load fails).
 */
static inline uint32_t
eng_flow_hash_qp(uint16_t port_id, uint32_t qpn)
{
	uint64_t q = qpn & PCC_QPN_MASK, t = PCC_ENGINE_FLOW_QP, w;
	uint32_t h;
	unsigned int i;

#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	w = port_id | t << 16 | q << 32;
#else
	w = (uint64_t)port_id << 48 | t << 40 | q;
#endif
	h = rte_hash_crc_8byte(w, 0);
	for (i = 1; i < sizeof(struct pcc_engine_flow_key) / 8; i++)
		h = rte_hash_crc_8byte(0, h);
	return h;
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

/* The flow of key (hash sig), or NULL. */
struct eng_flow *eng_flow_lookup(
		struct eng_ftable *t, const struct pcc_engine_flow_key *key, uint32_t sig);

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

/*
 * Age out up to max flows of list lp idle longer than t->idle_ns at now;
 * evict_cb is called for each before removal.  Returns how many.
 */
uint32_t eng_flow_age(struct eng_ftable *t, uint16_t lp, uint64_t now, uint32_t max,
		eng_flow_evict_cb evict_cb, void *cb_arg);

/* cb for every flow in the table (LRU order per list); the table is not
 * changed.  For the end of the table's life. */
void eng_flow_foreach(struct eng_ftable *t, eng_flow_evict_cb cb, void *cb_arg);

/* Move f to the tail of its LRU list (internal to touch). */
void eng_flow_lru_move(struct eng_ftable *t, struct eng_flow *f);

/* f was active at now: last_ns = now, moved to its list's LRU tail. */
/* Fetch the lines of f an event touches: header and the algorithm's
 * context (the first line of it). */
static inline void
eng_flow_prefetch(const struct eng_ftable *t, const struct eng_flow *f)
{
	const uint8_t *p = (const uint8_t *)f;
	unsigned int l;

	for (l = 0; l < ENG_FLOW_HDR / RTE_CACHE_LINE_SIZE; l++)
		rte_prefetch0(p + l * RTE_CACHE_LINE_SIZE);
	if (t->stride > ENG_FLOW_HDR)
		rte_prefetch0(p + ENG_FLOW_HDR);
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

/* ---- Events (rp.c) ---------------------------------------------------- */

/*
 * A compact event record: what the RX lcore learnt from one (or several
 * coalesced) CC packets, for the flow's owner.  Carried through the
 * inter-lcore rings, so it holds no pointer.
 */
struct eng_ev {
	struct pcc_engine_flow_key key;
	uint32_t sig;      /* eng_flow_hash(&key) */
	uint8_t type;      /* PCC_DEV_EVENT_CNP, _ACK, _NACK, _RTT */
	uint8_t subtype;   /* NACK: enum pcc_dev_nack_subtype; 0 = fatal code */
	uint8_t has_int;   /* ACK: int_raw holds an HPCC INT header */
	uint8_t ttl;       /* IP TTL / hop limit of the last packet */
	uint32_t sn;       /* PSN of the last packet */
	uint32_t first_sn; /* PSN of the first coalesced packet */
	uint32_t count;    /* packets coalesced */
	uint32_t reserved2;
	uint64_t ts_ns;       /* receive time of the last packet */
	uint64_t first_ts_ns; /* receive time of the first */
	union {
		uint8_t int_raw[PCC_INT_HDR_LEN + 6];
		struct {
			uint64_t req_send_ns;
			uint64_t req_recv_ns;
			uint64_t resp_send_ns;
			uint32_t flow_tag;
			uint8_t slot;
			uint8_t user_len;
			uint8_t user[PCC_DEV_RTT_USER_LEN];
			uint8_t version;      /* 1: the NP's extension (7.6) */
			uint8_t np_port_type; /* v1 */
			uint32_t np_rx_bytes; /* v1 */
		} rtt;
	};
};

/* TX coalescing and timer settings (from conf.rp). */
struct eng_rp_conf {
	bool tx_stamp; /* write departure times (PCC_ENGINE_TX_DEPART_NAME) */
	uint32_t txc_bytes;
	uint64_t txc_ns;
	uint64_t timer_ns;      /* 0 = off */
	uint64_t pace_ahead_ns; /* generator look-ahead */
};

/*
 * Event record of one classified CC packet on port_id received at ts
 * (CNP, ACK, NAK; not probe responses).  int_hdr: the PCC_INT_HDR_LEN
 * bytes at info->payload_off when the ACK has PCC_BTH_INT, else NULL.
 * 0, or -1 if the packet is no event (not a CC kind).
 */
int eng_ev_from_pkt(const struct pcc_pkt_info *info, const void *int_hdr, uint16_t port_id,
		uint64_t ts, struct eng_ev *ev);

/* Merge b into a when both are CNPs, or ACKs without INT, of one flow. */
bool eng_ev_merge(struct eng_ev *a, const struct eng_ev *b);

/*
 * lib/dev event of record r for flow f: ev and, for an ACK with INT, the
 * decoded header in *int_buf (ev->ack.int_hdr points at it).
 */
void eng_ev_to_dev(const struct eng_ev *r, const struct eng_flow *f, struct pcc_dev_event *ev,
		struct pcc_int_hdr *int_buf);

/*
 * Account one transmitted packet of f (bytes, psn, AckReq) at now.  When
 * the accumulated TX reaches c->txc_bytes, or c->txc_ns passed since its
 * first packet, or it is the flow's first TX: fills *ev with the TX event,
 * resets the accumulator and returns true.
 */
bool eng_txc_add(struct eng_flow *f, const struct eng_rp_conf *c, uint32_t bytes, uint32_t psn,
		bool ackreq, uint64_t now, struct pcc_dev_event *ev);

/* TX event of what f accumulated (txc_pkts > 0), reset. */
void eng_txc_flush(struct eng_flow *f, uint64_t now, struct pcc_dev_event *ev);

/* Timer event of f at now (period from c). */
void eng_timer_ev(struct eng_flow *f, const struct eng_rp_conf *c, uint64_t now,
		struct pcc_dev_event *ev);

/*
 * Pacer horizon: a packet must be due within it to be queued.  The engine
 * builds a flow's next packet only while its own estimate of the flow's
 * next departure (the pacer's formula: previous departure + wire bytes /
 * rate) is less than conf.rp.pace_ahead_ns ahead (at most
 * ENG_PACE_AHEAD_NS), so the pacer never refuses a generated packet for
 * lack of horizon.  Packets already queued keep their departures when the
 * algorithm changes the rate: the look-ahead bounds how late a rate change
 * takes effect, so it is short (ENG_PACE_AHEAD_DEFAULT_NS).
 */
#define ENG_PACER_HORIZON_NS 2200000u
#define ENG_PACE_AHEAD_NS 2000000u
#define ENG_PACE_AHEAD_DEFAULT_NS 5000u

/* ns per wire byte at rate_bps (0 = line_bps), 32.32 fixed point. */
static inline uint64_t
eng_pace_cost(uint64_t rate_bps, uint64_t line_bps)
{
	if (rate_bps == 0 || rate_bps > line_bps)
		rate_bps = line_bps;
	if (rate_bps == 0)
		return 0;
	return (uint64_t)((((unsigned __int128)8 * NS_PER_S) << 32) / rate_bps);
}

/* Account one packet of wire bytes handed to the pacer at now. */
static inline void
eng_pace_advance(struct eng_flow *f, uint32_t wire, uint64_t now)
{
	if ((int64_t)(f->pace_ns - now) < 0)
		f->pace_ns = now;
	f->pace_ns += ((uint64_t)wire * f->pace_cost) >> 32;
}

/*
 * The flow's rate changed to cost at now: with nothing queued, the rest of
 * its wait for the next departure takes the new rate, as the pacer does
 * (pcc_pacer_set_rate()).
 */
static inline void
eng_pace_rescale(struct eng_flow *f, uint64_t cost, uint64_t now)
{
	if (f->queued == 0 && (int64_t)(f->pace_ns - now) > 0 && f->pace_cost != 0)
		f->pace_ns = now +
				(uint64_t)(((unsigned __int128)(f->pace_ns - now) * cost) /
						f->pace_cost);
	f->pace_cost = cost;
}

/* The rate a result asks for, bit/s: rate (fraction) x line_bps; 0 = line. */
static inline uint64_t
eng_rate_bps(uint32_t rate, uint64_t line_bps)
{
	if (rate == 0 || rate >= PCC_DEV_MAX_RATE)
		return 0;
	return (uint64_t)(((unsigned __int128)rate * line_bps) >> PCC_DEV_RATE_SHIFT);
}

/*
 * Window model: may f send one more packet of pkt_bytes with PSN psn
 * (the next PSN it builds)?  True while no ACK was seen, without a
 * window, or while (psn - una_psn) * pkt_bytes < window + credits.
 */
static inline bool
eng_window_ok(const struct eng_flow *f, uint32_t psn, uint32_t pkt_bytes)
{
	uint64_t out;

	if (f->window == 0 || !(f->flags & ENG_FLOW_F_ACKED))
		return true;
	out = (uint64_t)((psn - f->una_psn) & PCC_PSN_MASK) * pkt_bytes;
	return out < (uint64_t)f->window + f->credits;
}

/* ---- Generator (gen.c) ------------------------------------------------ */

/* mbuf dynfield the engine tags paced packets with. */
struct eng_mtag {
	uint32_t fidx;  /* flow index in the owner's table */
	uint32_t seq;   /* flow's seq when queued */
	uint32_t psn;   /* BTH PSN (0 if none) */
	uint32_t flags; /* ENG_MTAG_* */
};
#define ENG_MTAG_CE (1u << 0)     /* generated with ECN CE */
#define ENG_MTAG_ACKREQ (1u << 1) /* BTH AckReq */
#define ENG_MTAG_GEN (1u << 2)    /* generated */
#define ENG_MTAG_LAST (1u << 3)   /* last packet of the flow's message */
#define ENG_MTAG_FWD (1u << 4)    /* forwarded */

extern int eng_mtag_off;
/* PCC_ENGINE_TX_DEPART_NAME dynfield and flag (conf.rp.tx_stamp), -1/0 if not */
extern int eng_depart_off;
extern uint64_t eng_depart_flag;

/* Register the dynfield (once per process).  0 or a negative errno. */
int eng_mtag_register(void);
/* Register the departure-time dynfield and flag.  0 or a negative errno. */
int eng_depart_register(void);

static inline struct eng_mtag *
eng_mtag(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, eng_mtag_off, struct eng_mtag *);
}

struct eng_gen_flow {
	uint64_t next_ns; /* offered load: departure of the next packet */
	uint64_t frac;    /* remainder, in 1/rate_bps ns */
	uint64_t gap_ns;  /* full frame at the offered rate */
	uint64_t gap_frac;
	uint64_t rate_bps;     /* offered rate; 0 = unpaced */
	uint64_t start_rel_ns; /* start after pcc_engine_start() */
	uint64_t start_ns;     /* absolute, port clock (eng_gen_arm) */
	uint64_t size;         /* message bytes; 0 = infinite */
	uint64_t off;          /* bytes of the message built */
	uint64_t fct_ns;       /* DONE: start to last packet sent */
	uint32_t fidx;         /* bound flow; ENG_NONE if none */
	uint32_t fseq;
	uint32_t psn;
	uint32_t qpn;
	uint32_t ce_acc;
	uint32_t payload;   /* bytes per packet */
	uint32_t frame_len; /* full-size frame bytes */
	uint8_t state;      /* enum pcc_engine_gen_state */
	uint8_t unpaced;
	uint16_t port_id;
	uint8_t slot;    /* algorithm slot; ENG_SLOT_ACTIVE: the port's active */
	uint8_t int_hdr; /* data carries an HPCC INT header before the payload */
	/* counters, written by the owner */
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t tx_ce;
	struct pcc_l3_spec l3;
	struct pcc_roce_spec roce;
};

/* Generator flows one lcore sends on one port. */
struct eng_gen {
	uint32_t nb;
	uint32_t nb_live; /* flows not done: live[0..nb_live-1] */
	uint32_t rr;      /* live flow visited first in the next round */
	uint32_t ce_ppm;
	uint16_t max_queued;         /* pacer queue per flow */
	uint64_t max_lag_pkts;       /* offered-load catch-up, packets */
	struct eng_gen_flow **flows; /* [nb], in configuration order */
	/* the flows not done, in no particular order (a flow that is done
	 * is swapped out): the generator visits only these */
	struct eng_gen_flow **live; /* [nb] */
};

/* ---- Lcores, ports ----------------------------------------------------- */

/* A port with a role.  Read-only once the engine runs. */
struct eng_port {
	uint16_t port_id;
	uint8_t roles;
	uint8_t dev_port; /* lib/dev logical port (RP ports), else 0xFF */
	int socket;
	uint16_t nb_rxq;
	uint16_t nb_txq;
	struct rte_mempool *mp;
	struct rte_ether_addr mac;
	struct eng_clock clk;
	bool hw_ts; /* RX timestamp offload enabled */
	uint64_t line_bps;
	uint16_t fwd_peer; /* forward mode: the other port's index, else 0xFFFF */
	/* owners: the lcores polling the port, in lcore id order */
	uint16_t nb_owners;
	struct eng_lcore *owners[RTE_MAX_LCORE];
	/* RP ports: probe formats as configured or last set (ctl.c) */
	struct pcc_engine_probe_conf probe[PCC_ENGINE_PROBE_SLOTS];
	/* NP ports: NP settings as given (sqpn_map: the caller's, valid
	 * during pcc_engine_create() only; np.c keeps its own copy) */
	struct pcc_engine_np_conf np;
	bool configured; /* to close */
	bool started;    /* to stop */
	uint8_t paused;  /* pcc_engine_port_pause(): not polled (atomic) */
	/* link as last seen by pcc_engine_port_info_poll() */
	uint8_t link_up;
	uint32_t link_mbps;
};

struct eng_lcore;

/*
 * What one lcore does on one port: transmit (its TX queue), and for ports
 * where flows live (RP role) the flow lists, pacer and generator.
 */
struct eng_lport {
	uint16_t port_id;
	uint16_t pidx;
	uint16_t tx_queue;
	uint16_t idx; /* in lc->lports[] (= flow list index) */
	uint8_t roles;
	uint8_t dev_port;
	struct eng_clock *clk;
	struct rte_mempool *mp;
	const struct eng_rxq *rxq; /* first RX queue of the port here, or NULL */
	struct pcc_pacer *pacer;   /* RP ports */
	uint64_t line_bps;
	struct eng_gen *gen;
	uint64_t start_ns; /* port clock at pcc_engine_start() */
	uint64_t now;      /* port clock at the start of this poll round */
	/* probe formats of this port, this lcore's copy (ctl.c) */
	struct pcc_engine_probe_conf probe[PCC_ENGINE_PROBE_SLOTS];
	/* paced packets the PMD did not take yet */
	uint16_t txb_n;
	struct rte_mbuf *txb[PCC_ENGINE_BURST_MAX];
};

/* One RX queue an lcore polls, with what it needs to answer on it. */
struct eng_rxq {
	uint16_t port_id;
	uint16_t queue_id;
	uint16_t tx_queue; /* this lcore's TX queue on port_id */
	uint16_t pidx;     /* index in pcc_engine.ports[] */
	uint8_t roles;
	struct rte_mempool *mp;
	struct eng_clock *clk;
	struct eng_lport *lp; /* this lcore on port_id */
};

/* Per-lcore counters besides the per-port ones (all uint64_t). */
struct eng_lcore_ctr {
	uint64_t xring_in;
	uint64_t xring_out;
	uint64_t timer_events;
	uint64_t timer_late_max;
};

#define ENG_XRING_SIZE 4096 /* event records per lcore pair */
/* Event records processed together (flows looked up in bulk); at most
 * RTE_HASH_LOOKUP_BULK_MAX. */
#define ENG_RP_EV_BATCH 32

/* A polling lcore. */
struct eng_lcore {
	/* written by the lcore on every round */
	uint64_t polls;
	uint64_t busy_polls;
	/* read-only while running */
	struct pcc_engine *e;
	unsigned int lcore_id;
	uint16_t rank; /* among the polling lcores, by lcore id */
	uint32_t nb_rxq;
	struct pcc_engine_port_stats *pctr; /* [e->nb_ports] */
	struct eng_lcore_ctr ctr;
	struct eng_ftable ft;
	struct pcc_l3_spec *fwd_l3; /* forward mode: probe headers by flow index */
	uint16_t nb_lports;
	uint8_t lport_of[RTE_MAX_ETHPORTS]; /* port index -> lports[], or 0xFF */
	struct eng_lport *lports[RTE_MAX_ETHPORTS];
	/* rings by the other lcore's rank: events and forwarded mbufs */
	struct rte_ring *xin[RTE_MAX_LCORE];
	struct rte_ring *xout[RTE_MAX_LCORE];
	struct rte_ring *fin[RTE_MAX_LCORE];
	struct rte_ring *fout[RTE_MAX_LCORE];
	uint16_t nb_xin;
	uint16_t xin_rank[RTE_MAX_LCORE]; /* producers that have a ring to us */
	void *np;                         /* NP runner state (eng_np_init) */
	/* run-time control (ctl.c): requests in */
	struct rte_ring *ctl;
	/* the loop's start (clocks, generator start times) ran since the
	 * engine started: a main lcore that left its loop resumes it */
	bool loop_started;
	/* poll hook (pcc_engine_set_poll_hook), NULL if none */
	pcc_engine_poll_hook_t hook;
	void *hook_arg;
	struct eng_rxq rxq[PCC_ENGINE_LCORE_RXQ_MAX];
	/* events of this lcore's flows kept by eng_rp_post() */
	uint16_t nb_evb;
	struct eng_ev evb[ENG_RP_EV_BATCH];
	/* scratch of one RX burst: packets for the NP or forward mode */
	struct rte_mbuf *burst_pkts[PCC_ENGINE_BURST_MAX];
	struct pcc_pkt_info burst_infos[PCC_ENGINE_BURST_MAX];
} __rte_cache_aligned;

struct pcc_engine {
	uint32_t stop; /* set by pcc_engine_stop() */
	uint32_t id;   /* sequence number in the process */
	bool launched;
	bool dev_owned; /* pcc_dev_init() done by this engine */
	struct pcc_engine_conf conf;
	int16_t fwd_a; /* forward mode: port index of A, else -1 */
	int16_t fwd_b; /* ... of B */
	struct pcc_engine_rxq_conf *rxq_conf;
	struct pcc_engine_gen_group *gen_groups;
	struct pcc_engine_algo_param *algo_params;
	char algo[PCC_DEV_NAME_MAX];
	/* per-slot algorithms (conf.rp.slots); params only during create */
	char slot_algo[PCC_ENGINE_SLOTS][PCC_DEV_NAME_MAX];
	struct pcc_engine_slot_conf slot_conf[PCC_ENGINE_SLOTS];
	char pacer[16];
	struct pcc_parse_opts popts;
	struct eng_rp_conf rp;
	uint64_t tsc_hz;
	uint32_t gen_frame_len; /* largest generated frame; 0 = generator off */
	uint32_t ctx_size;
	uint16_t nb_ports;
	uint8_t nb_dev_ports;
	int16_t pidx[RTE_MAX_ETHPORTS]; /* port id -> ports[] or -1 */
	struct eng_port ports[RTE_MAX_ETHPORTS];
	struct rte_mempool *pools[RTE_MAX_NUMA_NODES];
	uint16_t nb_lcores;
	uint16_t nb_flow_lcores;                  /* lcores polling an RP port */
	struct eng_lcore *lcores[RTE_MAX_LCORE];  /* by lcore id */
	struct eng_lcore *by_rank[RTE_MAX_LCORE]; /* by rank */
	struct pcc_engine_hooks hooks;            /* pcc_engine_set_hooks() */
	uint32_t nb_gen;                          /* generator flows, all ports */
	uint32_t gen_planned;                     /* ... as counted from conf */
	uint16_t gen_max_queued;                  /* packets queued per generator flow */
	struct eng_gen_flow *gen_mem;             /* their storage */
	struct eng_gen_flow **gen_all;            /* [nb_gen], configuration order */
	void *np;                                 /* NP runner state (eng_np_init) */
};

/* Is the port at index pidx paused (pcc_engine_port_pause)? */
static inline bool
eng_port_paused(const struct pcc_engine *e, uint16_t pidx)
{
	return __atomic_load_n(&e->ports[pidx].paused, __ATOMIC_RELAXED) != 0;
}

/* Owner lcore of a flow on port index pidx with hash sig. */
static inline struct eng_lcore *
eng_owner(const struct pcc_engine *e, uint16_t pidx, uint32_t sig)
{
	const struct eng_port *p = &e->ports[pidx];

	return p->owners[((uint64_t)sig * p->nb_owners) >> 32];
}

/*
 * Transmit n packets of bytes bytes in all (summed before: a sent mbuf
 * may already be freed or reused by its receiver), count them, free what
 * the PMD refused (still the caller's: their lengths taken off).  Returns
 * the number sent.
 */
static inline uint16_t
eng_tx_sum(uint16_t port_id, uint16_t tx_queue, struct pcc_engine_port_stats *pc,
		struct rte_mbuf **pkts, uint16_t n, uint64_t bytes)
{
	uint16_t sent, i;

	sent = rte_eth_tx_burst(port_id, tx_queue, pkts, n);
	for (i = sent; i < n; i++)
		bytes -= pkts[i]->pkt_len;
	eng_ctr_add(&pc->tx_pkts, sent);
	eng_ctr_add(&pc->tx_bytes, bytes);
	if (sent < n) {
		eng_ctr_add(&pc->tx_drop, n - sent);
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	}
	return sent;
}

/* As eng_tx_sum() with the lengths read from the mbufs first. */
static inline uint16_t
eng_tx_pkts(uint16_t port_id, uint16_t tx_queue, struct pcc_engine_port_stats *pc,
		struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t bytes = 0;
	uint16_t i;

	for (i = 0; i < n; i++)
		bytes += pkts[i]->pkt_len;
	return eng_tx_sum(port_id, tx_queue, pc, pkts, n, bytes);
}

/* probe.c: the zero fields of pc that mean a default (marker, hop limit,
 * IFA2 protocol) set to it */
void eng_probe_resolve(struct pcc_engine_probe_conf *pc);

/* ctl.c */
int eng_ctl_init(struct pcc_engine *e);
void eng_ctl_fini(struct eng_lcore *lc);
unsigned int eng_ctl_poll(struct eng_lcore *lc);

/* port.c */
int eng_ports_setup(struct pcc_engine *e);
void eng_ports_close(struct pcc_engine *e);

/* worker.c */
int eng_worker_loop(struct eng_lcore *lc, pcc_engine_tick_t tick, void *arg, uint32_t tick_us);
int eng_worker_main(void *arg);

/* rp.c */
int eng_rp_setup(struct pcc_engine *e);
void eng_rp_teardown(struct pcc_engine *e);
/* Log the slot new flows get on each RP port (at start). */
void eng_rp_log_slots(const struct pcc_engine *e);
/* At start: remember each RP port's link and run the algorithms'
 * port_info_changed on every RP logical port (DOCA calls it at start). */
void eng_rp_port_info_start(struct pcc_engine *e);
/*
 * A CC packet on an RP port: an event record, coalesced into *pend or
 * handed to the owner.  Returns true when the packet was used (the caller
 * frees it), false for an IFA packet that is not a probe response.
 */
bool eng_rp_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf *m,
		const struct pcc_pkt_info *info, uint64_t now, struct eng_ev *pend, bool *has_pend);
/* Hand a finished event record to its owner: this lcore's are processed
 * at once while its table is small (eng_rp_bulk_min_flows), else kept for
 * eng_rp_flush() (processed when ENG_RP_EV_BATCH are kept); the others go
 * to the owner's ring. */
void eng_rp_post(struct eng_lcore *lc, uint16_t pidx, const struct eng_ev *r);
/* Events from other lcores. */
uint32_t eng_rp_xring_poll(struct eng_lcore *lc);
/* Owner: process one event record. */
void eng_rp_event(struct eng_lcore *lc, const struct eng_ev *r);
/* Owner: process n event records in order; with at least
 * eng_rp_bulk_min_flows flows in the table their flows are looked up in
 * batches of ENG_RP_EV_BATCH (rte_hash bulk lookup, flows prefetched),
 * else one at a time (a table that fits in the caches). */
void eng_rp_events(struct eng_lcore *lc, const struct eng_ev *r, unsigned int n);
#define ENG_RP_BULK_MIN_FLOWS 8192     /* entries and hash ~3 MB */
extern uint32_t eng_rp_bulk_min_flows; /* ENG_RP_BULK_MIN_FLOWS; tests change it */
/* Owner: process the records eng_rp_post() kept for this lcore (called at
 * the end of every RX burst). */
void eng_rp_flush(struct eng_lcore *lc);
/* Owner: dispatch ev for f and apply the results. */
void eng_rp_dispatch(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f,
		const struct pcc_dev_event *ev, uint64_t now);
/* Owner: housekeeping of lp's flows (TX-coalescing flush, timers, aging). */
uint32_t eng_rp_housekeep(struct eng_lcore *lc, struct eng_lport *lp, uint64_t now);
/* Owner: a new flow's pacer state and probes; or a flow going away. */
void eng_rp_flow_evict(struct eng_flow *f, uint32_t idx, void *arg);
/* Owner: the flow of key on lport lp, created if new (NULL: refused). */
struct eng_flow *eng_rp_flow_get(struct eng_lcore *lc, struct eng_lport *lp,
		const struct pcc_engine_flow_key *key, uint32_t sig, const struct pcc_l3_spec *l3,
		struct eng_gen_flow *gf, uint64_t now);
/* Owner: queue packets of flow f into lp's pacer; frees what it refuses. */
uint16_t eng_rp_pace(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f,
		struct rte_mbuf **pkts, uint16_t n, uint64_t now);
/* Owner: dequeue what lp's pacer has due and transmit it. */
uint16_t eng_rp_pacer_run(struct eng_lcore *lc, struct eng_lport *lp, uint64_t now);
/* Owner: earliest housekeeping deadline of lp's flows (TX-coalescing
 * flush, timers, aging); UINT64_MAX if none. */
uint64_t eng_rp_hk_deadline(struct eng_lcore *lc, struct eng_lport *lp, uint64_t now);

/* gen.c */
int eng_gen_setup(struct pcc_engine *e);
void eng_gen_teardown(struct pcc_engine *e);
void eng_gen_arm(struct eng_gen *g, uint64_t start_ns);
uint16_t eng_gen_run(struct eng_lcore *lc, struct eng_lport *lp, uint64_t now);
/* Frame length of a generated packet with this payload (L2..ICRC), or <0. */
int eng_gen_frame_len(const struct pcc_engine_gen_conf *gen, uint32_t payload, bool int_hdr);
/* Earliest time a generator flow of lp may build a packet (not before
 * now); UINT64_MAX if none can without a packet arriving first. */
uint64_t eng_gen_deadline(struct eng_lcore *lc, struct eng_lport *lp, uint64_t now);

/* fwd.c */
/* Host side: n packets received on q (port A) to pace towards port B. */
void eng_fwd_host_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts,
		const struct pcc_pkt_info *infos, uint16_t n);
/* Wire side: non-CC packets received on q (port B) go back to port A. */
void eng_fwd_wire_rx(
		struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts, uint16_t n);
/* Forwarded mbufs handed over by other lcores. */
uint32_t eng_fwd_ring_poll(struct eng_lcore *lc);

#endif /* ENGINE_INTERNAL_H */
