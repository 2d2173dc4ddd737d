/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_ALGO_COMMON_H
#define PCC_ALGO_COMMON_H

/*
 * Helpers shared by the reference algorithms (internal, not installed):
 * per-(port, slot) configuration caches, rate unit conversion, RTT probe
 * bookkeeping, PSN/time windows.  Everything here is static inline.
 *
 * Configuration cache.  Parameters are stored by lib/dev per (port, slot)
 * in user units (Mb/s, ns, 16-bit fixed point).  Every algorithm converts
 * them once into a private struct of derived values (rates in the 20-bit
 * fixed point of line rate, ...) kept in a static table indexed by port
 * and slot (slot 0xF at index PCC_DEV_MAX_SLOTS).  An entry is filled
 * lazily on the first event after init() or port_info_changed() cleared
 * it, and eagerly by set_params().  Workers only read it, except for that
 * lazy fill, which writes the same values from the same parameters.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <pcc_dev.h>
#include <pcc_dev_fxp.h>
#include <pcc_dev_svc.h>

#define ALGO_NSLOTS (PCC_DEV_MAX_SLOTS + 1)

#define ALGO_LIKELY(x) __builtin_expect(!!(x), 1)
#define ALGO_UNLIKELY(x) __builtin_expect(!!(x), 0)

/** Line rate used when neither a parameter nor the port gives one. */
#define ALGO_DEFAULT_LINE_GBPS 100

/** RTT probe answer timeout: 300 us << retries (DOCA RTT template). */
#define ALGO_PROBE_TIMEOUT_NS 300000u
/** Cap of the timeout shift: 300 us << 13 = 2.46 s < 2^32 ns. */
#define ALGO_PROBE_MAX_RETRY_SHIFT 13

/** Largest packet count one ACK may acknowledge (larger: PSN garbage). */
#define ALGO_MAX_ACKED_PKTS 4096u

#define ALGO_PSN_MASK 0xFFFFFFu

static inline unsigned int
algo_slot_idx(uint8_t slot)
{
	return slot < PCC_DEV_MAX_SLOTS ? slot : PCC_DEV_MAX_SLOTS;
}

static inline unsigned int
algo_port_idx(uint8_t port)
{
	return port < PCC_DEV_MAX_PORTS ? port : 0;
}

/**
 * Parameters of (port, slot) into dst: the slot's current values, or the
 * table defaults when lib/dev has none (direct calls in unit tests).
 */
static inline void
algo_params_load(uint32_t *dst, uint8_t port, uint8_t slot, const struct pcc_dev_param_desc *tbl,
		uint32_t n)
{
	const uint32_t *p = pcc_dev_params(port, slot);
	uint32_t i;

	for (i = 0; i < n; i++)
		dst[i] = p != NULL ? p[i] : tbl[i].def;
}

/**
 * Merge num new values at id_base into a copy of the n current params.
 * -EINVAL when the range does not fit the table.
 */
static inline int
algo_params_merge(uint32_t *dst, const uint32_t *cur, uint32_t n, uint32_t id_base, uint32_t num,
		const uint32_t *new_values)
{
	if (id_base > n || num > n - id_base || (num > 0 && new_values == NULL))
		return -EINVAL;
	memcpy(dst, cur, n * sizeof(*dst));
	if (num > 0)
		memcpy(dst + id_base, new_values, num * sizeof(*dst));
	return 0;
}

/** The check of ALGO_CFG_CACHE for algorithms with none beyond [min, max]. */
static inline int
algo_params_ok(const uint32_t *p)
{
	(void)p;
	return 0;
}

/**
 * ALGO_CFG_CACHE(x, n_params, check): the per-(port, slot) cache of what
 * algorithm x derives from its parameters, and the ops callbacks that keep
 * it right.  Needs, before the macro: struct x_cfg with a uint32_t valid
 * member, the parameter table x_params, and
 *   void x_cfg_compute(struct x_cfg *c, uint8_t port, const uint32_t *p)
 * which fills c from the n_params values p and stores valid = 1 last
 * (release).  check(p) returns 0 or -EINVAL for combinations of values the
 * table's [min, max] cannot express.  Defines:
 *   x_cfg_get(port, slot)  the slot's cfg, computed on first use after an
 *                          invalidation (workers may race to compute it:
 *                          they write the same values)
 *   x_init                 ops->init: invalidates the slot
 *   x_set_params           ops->set_params: merges, checks, stores and
 *                          recomputes
 *   x_port_info_changed    ops->port_info_changed: invalidates the port
 */
#define ALGO_CFG_CACHE(x, n_params, check)                                                         \
	static struct x##_cfg x##_cfgs[PCC_DEV_MAX_PORTS][ALGO_NSLOTS];                            \
                                                                                                   \
	static const struct x##_cfg *x##_cfg_get(uint8_t port, uint8_t slot)                       \
	{                                                                                          \
		struct x##_cfg *c = &x##_cfgs[algo_port_idx(port)][algo_slot_idx(slot)];           \
                                                                                                   \
		if (ALGO_UNLIKELY(!__atomic_load_n(&c->valid, __ATOMIC_ACQUIRE))) {                \
			uint32_t p[n_params];                                                      \
                                                                                                   \
			algo_params_load(p, port, slot, x##_params, n_params);                     \
			x##_cfg_compute(c, port, p);                                               \
		}                                                                                  \
		return c;                                                                          \
	}                                                                                          \
                                                                                                   \
	static int x##_init(uint8_t port, uint8_t slot, uint32_t *disable_mask)                    \
	{                                                                                          \
		(void)disable_mask;                                                                \
		__atomic_store_n(&x##_cfgs[algo_port_idx(port)][algo_slot_idx(slot)].valid, 0,     \
				__ATOMIC_RELEASE);                                                 \
		return 0;                                                                          \
	}                                                                                          \
                                                                                                   \
	static int x##_set_params(uint8_t port, uint8_t slot, uint32_t id_base, uint32_t num,      \
			const uint32_t *new_values, uint32_t *params)                              \
	{                                                                                          \
		uint32_t p[n_params];                                                              \
                                                                                                   \
		if (params == NULL ||                                                              \
				algo_params_merge(p, params, n_params, id_base, num, new_values) < \
						0 ||                                               \
				check(p) < 0)                                                      \
			return -EINVAL;                                                            \
		memcpy(params, p, sizeof(p));                                                      \
		x##_cfg_compute(&x##_cfgs[algo_port_idx(port)][algo_slot_idx(slot)], port, p);     \
		return 0;                                                                          \
	}                                                                                          \
                                                                                                   \
	static void x##_port_info_changed(uint8_t port)                                            \
	{                                                                                          \
		unsigned int s;                                                                    \
                                                                                                   \
		for (s = 0; s < ALGO_NSLOTS; s++)                                                  \
			__atomic_store_n(&x##_cfgs[algo_port_idx(port)][s].valid, 0,               \
					__ATOMIC_RELEASE);                                         \
	}

/**
 * Line rate of a port in Gb/s: the line_rate_gbps parameter when non-zero,
 * else the port speed (pcc_dev_port_speed), else ALGO_DEFAULT_LINE_GBPS.
 */
static inline uint32_t
algo_line_gbps(uint8_t port, uint32_t param)
{
	uint32_t g;

	if (param != 0)
		return param;
	g = pcc_dev_port_speed(port);
	return g != 0 ? g : ALGO_DEFAULT_LINE_GBPS;
}

/**
 * Window bytes per 20-bit rate unit (32.32 fixed point) for a line rate and
 * a base RTT: the window rate x base RTT that the HPCC reference simulator
 * gives its rate-based flows.
 */
static inline uint64_t
algo_win_scale(uint32_t line_gbps, uint32_t rtt_ns)
{
	return (((uint64_t)line_gbps * rtt_ns) << 32) / (8u << PCC_DEV_RATE_SHIFT);
}

/** The window for a rate at a scale from algo_win_scale(): >= 1 byte. */
static inline uint32_t
algo_rate_window(uint32_t rate, uint64_t win_scale)
{
	uint64_t w = ((uint64_t)rate * win_scale) >> 32;

	return w == 0 ? 1 : w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
}

/** Clamp a 64-bit rate to [min, PCC_DEV_MAX_RATE]. */
static inline uint32_t
algo_rate_clamp(uint64_t r, uint32_t min)
{
	if (r < min)
		r = min;
	if (r > PCC_DEV_MAX_RATE)
		r = PCC_DEV_MAX_RATE;
	return (uint32_t)r;
}

/**
 * floor(a / d) for d >= 1 with inv = floor(2^32 / d) precomputed (a
 * multiply instead of a division on the fast path).  d = 1 needs inv =
 * 2^32 - 1 (see algo_div_inv).
 */
static inline uint32_t
algo_div(uint32_t a, uint32_t d, uint32_t inv)
{
	uint32_t q = (uint32_t)(((uint64_t)a * inv) >> 32);

	if (a - q * d >= d)
		q++;
	return q;
}

static inline uint32_t
algo_div_inv(uint32_t d)
{
	return d <= 1 ? UINT32_MAX : (uint32_t)((UINT64_C(1) << 32) / d);
}

/* ---- Counters ------------------------------------------------------ */

/*
 * The calling thread's counters of the call's slot, fetched once per
 * event on first use, updated in place.  All counters of the reference
 * algorithms saturate at UINT32_MAX (max 0); MIN counters start at max.
 */
struct algo_cnt {
	const struct pcc_dev_attr *attr;
	uint32_t *c;
	int fetched;
};

/* the counters pcc_dev_dispatch() passed, else fetched on first use */
#define ALGO_CNT_INIT(a)                                                          \
	{                                                                         \
		.attr = (a), .c = (a)->counters, .fetched = (a)->counters != NULL \
	}

static inline uint32_t *
algo_cnt_get(struct algo_cnt *k)
{
	if (!k->fetched) {
		k->c = pcc_dev_counters(k->attr->port, k->attr->algo_slot);
		k->fetched = 1;
	}
	return k->c;
}

/** ACCUMULATE counter id += v, saturating. */
static inline void
algo_cnt_add(struct algo_cnt *k, uint32_t id, uint32_t v)
{
	uint32_t *c = algo_cnt_get(k);
	uint32_t cur;

	if (c == NULL)
		return;
	cur = c[id];
	__atomic_store_n(&c[id], cur > UINT32_MAX - v ? UINT32_MAX : cur + v, __ATOMIC_RELAXED);
}

/** MIN counter id = min(id, v). */
static inline void
algo_cnt_min(struct algo_cnt *k, uint32_t id, uint32_t v)
{
	uint32_t *c = algo_cnt_get(k);

	if (c != NULL && v < c[id])
		__atomic_store_n(&c[id], v, __ATOMIC_RELAXED);
}

/** MAX counter id = max(id, v). */
static inline void
algo_cnt_max(struct algo_cnt *k, uint32_t id, uint32_t v)
{
	uint32_t *c = algo_cnt_get(k);

	if (c != NULL && v > c[id])
		__atomic_store_n(&c[id], v, __ATOMIC_RELAXED);
}

/* ---- RTT probes ---------------------------------------------------- */

/** Per-flow probe state, 8 bytes. */
struct algo_probe {
	uint32_t ts;     /**< when the outstanding probe was requested/sent */
	uint32_t req_ts; /**< when the outstanding probe was requested */
	uint8_t out;     /**< a probe is outstanding */
	uint8_t retries; /**< re-requests of the outstanding probe */
	uint16_t pad;
};

static inline void
algo_probe_request(struct algo_probe *p, uint32_t ts, struct pcc_dev_results *res)
{
	res->rtt_req = 1;
	p->out = 1;
	p->ts = ts;
	p->req_ts = ts;
}

/**
 * Probe bookkeeping for every event but RTT: a TX event flagged
 * RTT_REQ_SENT restarts the timeout (the probe left now); an outstanding
 * probe unanswered for 300 us << retries is requested again.  Returns 1
 * when it re-requested.
 */
static inline int
algo_probe_tick(struct algo_probe *p, const struct pcc_dev_event *ev, struct pcc_dev_results *res)
{
	uint32_t shift;

	if (!p->out)
		return 0;
	if (ev->type == PCC_DEV_EVENT_TX && (ev->flags & PCC_DEV_TX_F_RTT_REQ_SENT)) {
		p->ts = ev->ts;
		return 0;
	}
	shift = p->retries < ALGO_PROBE_MAX_RETRY_SHIFT ? p->retries : ALGO_PROBE_MAX_RETRY_SHIFT;
	if (ev->ts - p->ts < (ALGO_PROBE_TIMEOUT_NS << shift))
		return 0;
	if (p->retries < UINT8_MAX)
		p->retries++;
	algo_probe_request(p, ev->ts, res);
	return 1;
}

/** An RTT event answered the probe: clear it. */
static inline void
algo_probe_answered(struct algo_probe *p)
{
	p->out = 0;
	p->retries = 0;
}

/**
 * An RTT event: when it answers the outstanding probe, clear it and
 * request the next one.  A late answer to a probe that a retry superseded
 * (it was sent before the outstanding probe was requested) requests
 * nothing: otherwise every timeout would leave one more probe in flight
 * for good.  Its RTT sample is still valid; the caller uses it either way.
 * Returns 1 when the outstanding probe was answered.
 */
static inline int
algo_probe_on_rtt(struct algo_probe *p, const struct pcc_dev_event *ev, struct pcc_dev_results *res)
{
	if (p->out && (int32_t)(ev->rtt.req_send_ts - p->req_ts) < 0)
		return 0;
	algo_probe_answered(p);
	algo_probe_request(p, ev->ts, res);
	return 1;
}

/**
 * Network RTT of an RTT event, ns: response receive - request send, minus
 * the NP's turnaround (response send - request receive, NP clock) when
 * that is smaller.  Response receive is the event time.
 */
static inline uint32_t
algo_rtt_sample(const struct pcc_dev_event *ev)
{
	uint32_t total = ev->ts - ev->rtt.req_send_ts;
	uint32_t np = ev->rtt.resp_send_ts - ev->rtt.req_recv_ts;

	return np < total ? total - np : total;
}

/* ---- PSN arithmetic ------------------------------------------------ */

/** a is at or after b in 24-bit serial arithmetic. */
static inline bool
algo_psn_ge(uint32_t a, uint32_t b)
{
	return ((a - b) & ALGO_PSN_MASK) < (1u << 23);
}

/** Packets from PSN b (exclusive) to a (inclusive), 24 bit. */
static inline uint32_t
algo_psn_diff(uint32_t a, uint32_t b)
{
	return (a - b) & ALGO_PSN_MASK;
}

/*
 * Mailbox of the reference algorithms (doc/algorithms.md "Mailbox"): a
 * host request's first byte is an operation.
 *   0x01 echo: the answer is the rest of the request, byte for byte;
 *   0x02 info: the answer is the algorithm id (u32), major and minor
 *        (u16 each) and the rank of the worker thread that ran the
 *        handler (u16), little-endian, then the name and a NUL.
 * Other operations: -ENOTSUP; an empty request -EINVAL; an answer that
 * does not fit the response buffer -ENOSPC.
 */
#define ALGO_MB_ECHO 0x01
#define ALGO_MB_INFO 0x02

static inline int
algo_mailbox(const struct pcc_dev_algo_ops *ops, const void *req, uint32_t req_len, void *resp,
		uint32_t resp_cap)
{
	const uint8_t *q = req;
	uint8_t *r = resp;
	uint32_t n, name_len;
	uint16_t rank;

	if (req == NULL || req_len == 0)
		return -EINVAL;
	switch (q[0]) {
	case ALGO_MB_ECHO:
		n = req_len - 1;
		if (n > resp_cap)
			return -ENOSPC;
		if (n > 0)
			memcpy(r, q + 1, n);
		return (int)n;
	case ALGO_MB_INFO:
		name_len = (uint32_t)strlen(ops->name) + 1;
		n = 10 + name_len;
		if (n > resp_cap)
			return -ENOSPC;
		rank = pcc_dev_thread_rank();
		r[0] = (uint8_t)ops->id;
		r[1] = (uint8_t)(ops->id >> 8);
		r[2] = (uint8_t)(ops->id >> 16);
		r[3] = (uint8_t)(ops->id >> 24);
		r[4] = (uint8_t)ops->major;
		r[5] = (uint8_t)(ops->major >> 8);
		r[6] = (uint8_t)ops->minor;
		r[7] = (uint8_t)(ops->minor >> 8);
		r[8] = (uint8_t)rank;
		r[9] = (uint8_t)(rank >> 8);
		memcpy(r + 10, ops->name, name_len);
		return (int)n;
	default:
		return -ENOTSUP;
	}
}

/** ALGO_MAILBOX(x): x_mailbox, the ops->mailbox of pcc_algo_x_ops. */
#define ALGO_MAILBOX(x)                                                                          \
	static int x##_mailbox(const void *req, uint32_t req_len, void *resp, uint32_t resp_cap) \
	{                                                                                        \
		return algo_mailbox(&pcc_algo_##x##_ops, req, req_len, resp, resp_cap);          \
	}

#endif /* PCC_ALGO_COMMON_H */
