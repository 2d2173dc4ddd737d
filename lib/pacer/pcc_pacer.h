/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_PACER_H
#define PCC_PACER_H

/**
 * @file
 * Per-flow rate limiting: one front end, several backends.
 *
 * A pacer belongs to one lcore and one (port, TX queue): no locks.  The
 * engine sets each flow's rate from the algorithm's results, enqueues the
 * flow's packets with the current time, and transmits what dequeue()
 * returns as due.  Backends:
 *   wheel  Carousel-style timing wheel (default; any PMD)
 *   txpp   mlx5 send-on-timestamp: packets are stamped with their
 *          departure time and handed out at once; the NIC holds them
 *   mtr    rte_flow METER + rte_mtr trTCM profile per flow: a POLICER,
 *          the NIC drops what exceeds the rate (no shaping)
 * Capabilities are probed per port; an unsupported backend falls back to
 * wheel with one log line.  Times are ns of the port's clock.
 *
 * Backends live in drivers/pacer: call pcc_pacer_drivers_register()
 * (pcc_pacer_drivers.h) once before the first pcc_pacer_create().
 *
 * Rates count wire bytes: pkt_len + PCC_PACER_WIRE_OVERHEAD (preamble and
 * SFD 8, FCS 4, inter-frame gap 12), so line rate is the link's bit rate.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_mbuf;
struct pcc_pacer;

/** Flow index meaning "not paced": the packet bypasses the pacer. */
#define PCC_PACER_NO_FLOW UINT32_MAX

/** Bytes a frame occupies on the wire beyond its pkt_len. */
#define PCC_PACER_WIRE_OVERHEAD 24

/** Largest max_flows accepted. */
#define PCC_PACER_MAX_FLOWS (1u << 24)

struct pcc_pacer_conf {
	const char *backend; /**< "wheel" (NULL), "txpp", "mtr" */
	uint16_t port_id;
	uint16_t queue_id;
	int socket_id;          /**< for memory; SOCKET_ID_ANY ok */
	uint32_t max_flows;     /**< flow indexes 0..max_flows-1 (1..2^24) */
	uint64_t line_rate_bps; /**< 0: the port's link speed (100G if unknown) */
	uint32_t slot_ns;       /**< wheel slot width (0 = 500 ns) */
	uint32_t horizon_ns;    /**< wheel horizon (0 = ~2.2 ms) */
	uint32_t max_queued;    /**< packets queued per flow (0 = 64, max 65535) */
	bool no_fallback;       /**< fail instead of falling back to wheel */
	/**
	 * Offset of an mbuf dynamic field (uint64_t) to write each packet's
	 * departure to, as the backend computed it (ns of the clock given to
	 * enqueue), with depart_flag set in ol_flags; 0: none.  For a device
	 * that sends at a given time (a simulated NIC): the packet then leaves
	 * when the pacer meant, not when the backend handed it out (the
	 * wheel's slots are slot_ns wide).  mtr has no departures and writes
	 * nothing.
	 */
	int depart_off;
	uint64_t depart_flag;
};

struct pcc_pacer_stats {
	uint64_t enqueued;
	uint64_t dequeued;
	uint64_t bypassed;     /**< already due, flow with nothing queued: skipped the wheel */
	uint64_t dropped;      /**< refused: queue full, beyond horizon, pool or FIFO full */
	uint64_t flushed;      /**< freed by pcc_pacer_flow_reset() (a flow forgotten) */
	uint64_t late_ns_max;  /**< worst lateness of a dequeued packet */
	uint32_t flows_active; /**< flows with packets queued */
};

/**
 * Create a pacer.  NULL with rte_errno set on failure: EINVAL (conf),
 * ENOENT (backend not registered), ENOTSUP (no_fallback and the port
 * cannot use the backend), ENOMEM.
 */
struct pcc_pacer *pcc_pacer_create(const struct pcc_pacer_conf *conf);
void pcc_pacer_free(struct pcc_pacer *p);
/** Name of the backend actually in use (after any fallback). */
const char *pcc_pacer_backend(const struct pcc_pacer *p);

/**
 * Rate of a flow in bit/s (0 = line rate).  0 or negative errno.  Packets
 * already scheduled keep their departures; the gap after the last of them
 * takes the new rate (next = last departure + its size / new rate, the
 * HPCC reference's ChangeRate), so a cut reaches the next packet offered
 * and a flow slowed to a trickle speeds up at once.
 */
int pcc_pacer_set_rate(struct pcc_pacer *p, uint32_t flow, uint64_t rate_bps);
uint64_t pcc_pacer_get_rate(const struct pcc_pacer *p, uint32_t flow);

/**
 * Offer n packets of one flow at time now.  Returns how many were taken
 * (it stops at the first it cannot take); the caller frees or retries the
 * rest, which are counted in dropped.  A packet already due, of a flow
 * with nothing queued (e.g. a line-rate flow within line rate), comes
 * straight back from the next dequeue.
 */
uint16_t pcc_pacer_enqueue(struct pcc_pacer *p, uint32_t flow, struct rte_mbuf **pkts, uint16_t n,
		uint64_t now);

/**
 * Offer nb bursts at time now: burst j is counts[j] packets of flow
 * flows[j] (PCC_PACER_NO_FLOW allowed), the bursts one after another in
 * pkts.  The same as nb calls of pcc_pacer_enqueue() in that order, with
 * the same results, in one call: a backend may fetch the flows' state
 * together (with flow tables larger than the caches their misses
 * overlap).  counts[j] is set to how many of burst j were taken (the
 * first ones; the rest stay the caller's, counted in dropped); returns
 * the total taken.
 */
uint32_t pcc_pacer_enqueue_bulk(struct pcc_pacer *p, const uint32_t *flows, struct rte_mbuf **pkts,
		uint16_t *counts, uint16_t nb, uint64_t now);

/**
 * Optional hint: the caller will soon enqueue packets of this flow (e.g.
 * a few packets ahead in an RX burst); the backend prefetches its state.
 */
void pcc_pacer_prefetch(const struct pcc_pacer *p, uint32_t flow);

/**
 * Up to max packets due at now: first those of the pass-through FIFO
 * (already due when offered), then the wheel's slot by slot, each slot's
 * in the order they were offered.  So a flow's packets leave in order,
 * and the packets of different flows in departure order to within a slot.
 */
uint16_t pcc_pacer_dequeue(struct pcc_pacer *p, uint64_t now, struct rte_mbuf **out, uint16_t max);

/**
 * The clock of a dequeue that would find nothing: for a poll loop that
 * skips pcc_pacer_dequeue() while now is before pcc_pacer_next_due().
 * Rates set afterwards are rescaled from now, as after that dequeue.
 * Only the clock: the wheel's cursor stays where the last dequeue left
 * it, and its enqueue measures its horizon from there, so dequeue before
 * enqueueing (packets beyond the horizon are refused).
 */
void pcc_pacer_advance(struct pcc_pacer *p, uint64_t now);

/**
 * Earliest time (ns) at which dequeue() will hand out a packet: now or
 * earlier when something is due already (pass-through FIFO, a due slot),
 * UINT64_MAX when the pacer holds nothing.  For a poll loop that wants to
 * sleep, or a simulator that skips idle time, until then.  A backend that
 * holds no packets of its own (txpp, mtr) needs no next_due op.
 */
uint64_t pcc_pacer_next_due(const struct pcc_pacer *p);

/**
 * The departure the backend would give the flow's next packet offered at
 * now: max(its previous departure + previous size / rate, now), ns.
 * UINT64_MAX when the backend keeps no schedule (mtr).  A generator that
 * hands packets over only a little ahead of their departures (the
 * engine's look-ahead) follows this exact schedule rather than an
 * estimate of its own, which drifts by the rounding of every packet.
 */
uint64_t pcc_pacer_flow_next(const struct pcc_pacer *p, uint32_t flow, uint64_t now);

/**
 * Forget a flow: the packets it has waiting in the backend are freed
 * (counted in pcc_pacer_stats.flushed), its rate reset.  A packet already
 * in the pass-through FIFO (due when it was offered) still leaves.
 * Returns the packets freed.
 */
uint32_t pcc_pacer_flow_reset(struct pcc_pacer *p, uint32_t flow);

void pcc_pacer_stats_get(const struct pcc_pacer *p, struct pcc_pacer_stats *st);

/** Bytes of memory per flow and in total (stated in doc/perf-pacer.md). */
size_t pcc_pacer_mem_per_flow(const struct pcc_pacer *p);
size_t pcc_pacer_mem_total(const struct pcc_pacer *p);

/* ---- Backends ------------------------------------------------------ */

struct pcc_pacer_ops {
	const char *name;
	/** 0 if the port can use this backend, -ENOTSUP (or other) if not. */
	int (*probe)(uint16_t port_id);
	int (*init)(struct pcc_pacer *p, const struct pcc_pacer_conf *conf);
	void (*fini)(struct pcc_pacer *p);
	int (*set_rate)(struct pcc_pacer *p, uint32_t flow, uint64_t rate_bps);
	uint16_t (*enqueue)(struct pcc_pacer *p, uint32_t flow, struct rte_mbuf **pkts, uint16_t n,
			uint64_t now);
	uint16_t (*dequeue)(struct pcc_pacer *p, uint64_t now, struct rte_mbuf **out, uint16_t max);
	/**
	 * Optional: enqueue of nb bursts of valid flows (no
	 * PCC_PACER_NO_FLOW), setting counts[] (pcc_pacer_enqueue_bulk()).
	 * NULL: the front end calls enqueue for each.
	 */
	uint32_t (*enqueue_bulk)(struct pcc_pacer *p, const uint32_t *flows, struct rte_mbuf **pkts,
			uint16_t *counts, uint16_t nb, uint64_t now);
	void (*flow_reset)(struct pcc_pacer *p, uint32_t flow);
	size_t (*mem_per_flow)(const struct pcc_pacer *p);
	/** Optional: all of the backend's memory (else per flow x max_flows). */
	size_t (*mem_total)(const struct pcc_pacer *p);
	/** Optional: prefetch a flow's state (pcc_pacer_prefetch()). */
	void (*prefetch)(const struct pcc_pacer *p, uint32_t flow);
	/**
	 * Optional: earliest departure the backend holds, UINT64_MAX if it
	 * holds nothing (pcc_pacer_next_due()).  NULL: it holds nothing.
	 */
	uint64_t (*next_due)(const struct pcc_pacer *p);
	/**
	 * Optional: the flow's next departure if offered at now
	 * (pcc_pacer_flow_next()).  NULL: the backend keeps no schedule.
	 */
	uint64_t (*flow_next)(const struct pcc_pacer *p, uint32_t flow, uint64_t now);
};

/** Register a backend by name (0, -EEXIST, -EINVAL, -ENOSPC). */
int pcc_pacer_backend_register(const struct pcc_pacer_ops *ops);
const struct pcc_pacer_ops *pcc_pacer_backend_find(const char *name);

/**
 * Backend-private area of a pacer (set by init).  Inline, without a call
 * into the front end's library on the packet path: the front end keeps it
 * as the first member of its struct pcc_pacer.
 */
static inline void *
pcc_pacer_priv(const struct pcc_pacer *p)
{
	return *(void *const *)(const void *)p;
}
void pcc_pacer_set_priv(struct pcc_pacer *p, void *priv);
/** Counters a backend updates. */
struct pcc_pacer_stats *pcc_pacer_stats_ptr(struct pcc_pacer *p);
/** The latest time the pacer was given (enqueue, dequeue), ns. */
uint64_t pcc_pacer_last_now(const struct pcc_pacer *p);
/**
 * For backends: hand packets to the next dequeue as they are, in order,
 * ahead of anything the backend's dequeue returns.  Returns how many fit.
 */
uint16_t pcc_pacer_pass(struct pcc_pacer *p, struct rte_mbuf **pkts, uint16_t n);

/**
 * For backends: the pass-through FIFO itself, to fill it inline as
 * pcc_pacer_pass() does (no call per packet): ring[tail & mask], the
 * room being mask + 1 - (tail - head) (free-running counts).  The
 * backend advances *tail only; the pointers hold for the pacer's life.
 */
struct pcc_pacer_pass_fifo {
	struct rte_mbuf **ring;
	uint32_t mask;
	const uint32_t *head; /**< next to hand out (the front end's) */
	uint32_t *tail;       /**< next free */
};
void pcc_pacer_pass_fifo(struct pcc_pacer *p, struct pcc_pacer_pass_fifo *f);

#ifdef __cplusplus
}
#endif

#endif /* PCC_PACER_H */
