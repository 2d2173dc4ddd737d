/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_ENGINE_FLOW_H
#define PCC_ENGINE_FLOW_H

/**
 * @file
 * Engine flows: the flow table, run-time control of flows and probes, generator flows.
 * Part of the engine's API: include pcc_engine.h, which includes this.
 */

#include "pcc_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Flows ------------------------------------------------------------ */

/** Kinds of flow key. */
enum pcc_engine_flow_type {
	PCC_ENGINE_FLOW_QP = 0,   /**< RoCEv2 flow: a sending QP */
	PCC_ENGINE_FLOW_IPV4 = 1, /**< other traffic: IPv4 5-tuple */
	PCC_ENGINE_FLOW_IPV6 = 2, /**< other traffic: IPv6 5-tuple */
};

/**
 * A flow key: 48 bytes, compared as bytes, so unused fields and padding
 * must be zero (use the helpers below).  port_id is the port the flow's
 * packets leave by (the RP port; the wire side in forward mode).
 */
struct pcc_engine_flow_key {
	uint16_t port_id;
	uint8_t type;      /**< enum pcc_engine_flow_type */
	uint8_t proto;     /**< 5-tuple: IP protocol; QP: 0 */
	uint32_t qpn;      /**< QP: the flow's QPN; 5-tuple: 0 */
	uint16_t sport;    /**< 5-tuple: L4 source port (host order) */
	uint16_t dport;    /**< 5-tuple: L4 destination port */
	uint32_t reserved; /**< 0 */
	uint8_t src[16];   /**< IPv4: 4 bytes, network order, then zeros */
	uint8_t dst[16];
} __rte_aligned(8); /* hashed 8 bytes at a time (rte_hash_crc) */

/** Key of the QP flow qpn on port_id. */
void pcc_engine_flow_key_qp(struct pcc_engine_flow_key *k, uint16_t port_id, uint32_t qpn);

/** State and counters of one flow. */
struct pcc_engine_flow_info {
	struct pcc_engine_flow_key key;
	unsigned int lcore_id; /**< owner */
	uint8_t dev_port;      /**< lib/dev logical port */
	uint8_t slot;          /**< algorithm slot */
	uint32_t rate;         /**< fraction of line rate, 20-bit fixed point
	                        *   (PCC_DEV_MAX_RATE = line rate, also before
	                        *   the algorithm set one) */
	uint64_t rate_bps;     /**< the same rate in bit/s */
	uint32_t window;       /**< bytes; 0 = no window (rate-based) */
	uint64_t tx_pkts;      /**< packets sent */
	uint64_t tx_bytes;
	uint64_t cnp_rx;               /**< CNPs received */
	uint64_t ack_rx;               /**< ACKs received */
	uint64_t nack_rx;              /**< NAKs received (all codes) */
	uint64_t probe_tx;             /**< RTT probes sent */
	uint64_t rtt_ns;               /**< last RTT sample (response receive - request
	                        *   send - NP turnaround); 0 = none */
	uint64_t ev[PCC_ENGINE_NB_EV]; /**< events dispatched, by type */
	uint64_t idle_ns;              /**< time since the flow's last activity */
	bool pinned;                   /**< rate set by pcc_engine_flow_rate_set() */
};

/** Flows in the tables now (all lcores). */
uint32_t pcc_engine_flow_count(const struct pcc_engine *e);

/**
 * One flow by key; safe while the engine runs (a consistent snapshot of a
 * flow the owner is updating is not guaranteed field by field).  0 or
 * -ENOENT.
 */
int pcc_engine_flow_get(const struct pcc_engine *e, const struct pcc_engine_flow_key *key,
		struct pcc_engine_flow_info *info);

/**
 * Up to n flows with the highest rate_bps (ties: more bytes first), in
 * that order, into out[].  Scans every flow: meant for periodic statistics
 * and the console, not the fast path.  Returns how many were written.
 */
uint32_t pcc_engine_flows_top(
		const struct pcc_engine *e, struct pcc_engine_flow_info *out, uint32_t n);

/* ---- Run-time control ------------------------------------------------------ */

/*
 * Requests from a control thread (not a worker's fast path).  While the
 * engine runs, a request is applied by the lcore that owns the state
 * between two poll rounds (a message on its control ring); the call waits
 * for that, up to 1 s (-ETIMEDOUT), or fails with -ETIMEDOUT at once when
 * the engine is stopping.  When the engine is not running the call
 * applies it itself.
 */

/**
 * Pin the rate of a flow (key as pcc_engine_flow_get()) to rate_bps (bit/s; above the
 * line rate means the line rate): the pacer takes it at once and the
 * algorithm's rate results are ignored for the flow until it is unpinned
 * with rate_bps 0 (the algorithm's next result then sets the rate; its
 * own state was never touched).  For testing and manual override.
 * 0, -ENOENT (no such flow), -EINVAL, -ETIMEDOUT, -EBUSY
 * (control ring full), -ENOMEM.
 */
int pcc_engine_flow_rate_set(
		struct pcc_engine *e, const struct pcc_engine_flow_key *key, uint64_t rate_bps);

/**
 * Change the format of probe slot (0..PCC_ENGINE_PROBE_SLOTS-1) of every
 * RP port at run time: probes sent after the call use it.  Checked as pcc_engine_create()
 * checks conf.probe[]: -EINVAL for a field out of range, -EPROTO for an
 * IFA2 protocol or IFA1 marker other than the one the engine's classifier
 * recognises (fixed at create).  Each polling lcore takes the new format;
 * on -ETIMEDOUT some may still use the old one.
 */
int pcc_engine_probe_set(
		struct pcc_engine *e, uint8_t slot, const struct pcc_engine_probe_conf *pc);

/** The format of probe slot (as configured or last set), with the fields
 *  whose zero means a default (IFA1 marker, hop limit, IFA2 protocol) set
 *  to it.  0 or -EINVAL. */
int pcc_engine_probe_get(
		const struct pcc_engine *e, uint8_t slot, struct pcc_engine_probe_conf *pc);

/**
 * As pcc_engine_probe_set() and pcc_engine_probe_get() for the RP port
 * port_id alone (its own probe formats, conf.port[].probe).  -ENOENT if
 * the port has no RP role.
 */
int pcc_engine_port_probe_set(struct pcc_engine *e, uint16_t port_id, uint8_t slot,
		const struct pcc_engine_probe_conf *pc);
int pcc_engine_port_probe_get(const struct pcc_engine *e, uint16_t port_id, uint8_t slot,
		struct pcc_engine_probe_conf *pc);

/* ---- Generator flows ------------------------------------------------------ */

/** Generator flow states. */
enum pcc_engine_gen_state {
	PCC_ENGINE_GEN_WAITING = 0, /**< before its start time */
	PCC_ENGINE_GEN_ACTIVE = 1,
	PCC_ENGINE_GEN_DONE = 2, /**< its message is sent */
};

/** Counters of one generator flow. */
struct pcc_engine_gen_flow_stats {
	uint16_t port_id; /**< RP port that sends the flow */
	uint32_t qpn;
	uint8_t state; /**< enum pcc_engine_gen_state */
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t tx_ce;       /**< sent with ECN CE */
	uint64_t fct_ns;      /**< DONE: start to last packet sent, ns */
	uint64_t offered_bps; /**< offered load, frame bits/s; 0 = unpaced */
	/** the flow's table entry (zero when not in the table) */
	struct pcc_engine_flow_info flow;
	bool in_table;
};

/** Number of generator flows (all RP ports). */
uint32_t pcc_engine_gen_flow_count(const struct pcc_engine *e);

/**
 * Counters of generator flow idx (0..pcc_engine_gen_flow_count()-1, in
 * port then configuration order); -ENOENT beyond.
 */
int pcc_engine_gen_flow_stats_get(
		const struct pcc_engine *e, uint32_t idx, struct pcc_engine_gen_flow_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* PCC_ENGINE_FLOW_H */
