/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_SIM_H
#define PCC_SIM_H

/**
 * @file
 * dpdk-pcc fabric simulator: a deterministic, discrete-event model of a
 * RoCEv2 fabric (host links, switches with a shared buffer and per-port
 * egress FIFOs, RED/ECN or step marking at dequeue, HPCC INT and IFA2
 * stamping, propagation delays, receiver hosts that ACK and whose NP is a
 * hardware-NP model or the engine's NP runner) that the engine sees as
 * ordinary ethdev ports made with rte_eth_from_rings().  Guide:
 * doc/simulator.md.
 *
 * Lifecycle (control calls from the main lcore, after rte_eal_init()):
 *
 *   scn = pcc_sim_scenario_load(path, err, sizeof(err));
 *   sim = pcc_sim_create(scn, PCC_SIM_SEED_SCENARIO);  ports exist now
 *   ... pcc_sim_ports(), pcc_sim_flows(), pcc_sim_algos(): configure the
 *   ... engine: roles, generator flows; pcc_engine_port_clock_register(
 *   ...     port_id, pcc_sim_clock, sim) for every sim port
 *   loop: engine polls; pcc_sim_step(sim) between polls (deterministic)
 *         or the service from pcc_sim_service_register() (free-running)
 *         until pcc_sim_done(sim)
 *   stop the engine; pcc_sim_finish(sim)          CSVs closed, summary, plots
 *   pcc_sim_release(sim)                          model lets go of mbufs
 *   destroy the engine; pcc_sim_destroy(sim); pcc_sim_scenario_free(scn)
 *
 * Virtual time is in nanoseconds from 0.  Nothing in the model reads a
 * wall clock or a global random source: one scenario and one seed give one
 * result, byte for byte, as long as what the engine sends is deterministic.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * mbuf dynamic field (uint64_t) and flag the host NICs honour: a frame
 * the engine transmits with the flag set leaves its host no earlier than
 * the field's time (virtual ns), as with a NIC's send-on-timestamp.  The
 * same names as the engine's PCC_ENGINE_TX_DEPART_NAME/_FLAG_NAME
 * (conf.rp.tx_stamp): the pacer's intended departure, not the poll
 * round's, so pacing does not depend on the quantum.
 */
#define PCC_SIM_TX_DEPART_NAME "pcc_tx_departure"
#define PCC_SIM_TX_DEPART_FLAG_NAME "pcc_tx_departure_valid"

/** pcc_sim_create() seed meaning "the scenario's seed". */
#define PCC_SIM_SEED_SCENARIO UINT64_MAX

/** Engine roles of a sim port; same values as PCC_ENGINE_ROLE_RP/NP. */
#define PCC_SIM_ROLE_RP (1u << 0)
#define PCC_SIM_ROLE_NP (1u << 1)

/** Most algorithm slots a scenario may configure (DOCA: 8 user slots). */
#define PCC_SIM_SLOTS_MAX 8
/** Most parameters per algorithm slot. */
#define PCC_SIM_ALGO_PARAMS_MAX 64
/** Length of host, flow, queue and algorithm names (with the NUL). */
#define PCC_SIM_NAME_LEN 32

struct rte_mbuf;
struct pcc_sim_scenario;
struct pcc_sim;
struct pcc_sim_algo;

/* ---- Scenarios -------------------------------------------------------- */

/**
 * Load a scenario file (YAML, doc/simulator.md).  On error returns NULL
 * and writes one line "FILE:LINE:COLUMN: what is wrong" to err.
 */
struct pcc_sim_scenario *pcc_sim_scenario_load(const char *path, char *err, size_t errlen);

/** As pcc_sim_scenario_load() on text in memory; name is used in errors. */
struct pcc_sim_scenario *pcc_sim_scenario_parse(
		const char *text, size_t len, const char *name, char *err, size_t errlen);

/**
 * Override one setting after loading (the app's command line): key is a
 * dotted scenario key, value as it would be written in the file.  Keys:
 * seed, duration, quantum, base_rtt, hosts.* (e.g. hosts.cnp_gap),
 * output.dir, output.sample, output.plots, output.progress,
 * output.window.  0, or -1 with one line in err.
 */
int pcc_sim_scenario_set(struct pcc_sim_scenario *s, const char *key, const char *value, char *err,
		size_t errlen);

/**
 * What can be checked of a scenario before anything starts: its output
 * directory can be made (doc/simulator.md: a private directory, never
 * under a file).  0 or -1 with the reason in err.
 */
int pcc_sim_scenario_check(const struct pcc_sim_scenario *s, char *err, size_t errlen);

/** Scenario name (file name without directory and .yaml, or name:). */
const char *pcc_sim_scenario_name(const struct pcc_sim_scenario *s);

/** Number of algorithm slots the scenario configures. */
uint32_t pcc_sim_scenario_algo_count(const struct pcc_sim_scenario *s);

/**
 * Algorithm entry idx (file order) into *out; out->params point into the
 * scenario (valid until pcc_sim_scenario_free()).  0 or -ENOENT.  For
 * checking names and parameters before the EAL starts.
 */
int pcc_sim_scenario_algo_get(
		const struct pcc_sim_scenario *s, uint32_t idx, struct pcc_sim_algo *out);

/** Plug-ins the scenario loads (plugins:, paths relative to the scenario
 *  file resolved): how many, and entry idx (NULL past the end). */
uint32_t pcc_sim_scenario_plugin_count(const struct pcc_sim_scenario *s);
const char *pcc_sim_scenario_plugin(const struct pcc_sim_scenario *s, uint32_t idx);

/** Free a scenario; NULL allowed.  A sim made from it keeps its own copy. */
void pcc_sim_scenario_free(struct pcc_sim_scenario *s);

/* ---- Create, step, finish ---------------------------------------------- */

/**
 * Build the model for scenario s and, for every host the engine serves
 * (a flow source with source "engine", or a flow destination when the
 * receivers' NP is "engine"), an ethdev port from two rte_rings named
 * net_ring_sim<N>_<host> (N: sim instance, 0 for the first).  The ports
 * are not configured or started (the engine does it): 1 RX queue, up to
 * sim.tx_queues TX queues, all feeding one multi-producer ring.  Creates
 * the output directory and writes the CSV headers.  seed
 * PCC_SIM_SEED_SCENARIO takes the scenario's seed.
 * @return the sim, or NULL with rte_errno set (reason logged, pcc.sim).
 */
struct pcc_sim *pcc_sim_create(const struct pcc_sim_scenario *s, uint64_t seed);

/**
 * One step, from the thread that owns the sim (one caller at a time):
 *   1. move what the engine transmitted on every sim port into the model
 *      (at the current virtual time);
 *   2. run the model's events up to now + quantum; or, when the engine
 *      declared itself idle (pcc_sim_engine_idle()) and sent nothing and
 *      every RX ring is empty, on until a frame reaches an engine port or
 *      the engine's deadline (at least one quantum); or, when no engine
 *      port exists, to the next model event;
 *   3. hand due packets to the engine's RX rings, RX timestamp = arrival
 *      time (virtual).
 * @return 0 while running, 1 once the scenario's end is reached (then the
 *   call does nothing more), negative errno on error.
 */
int pcc_sim_step(struct pcc_sim *sim);

/**
 * pcc_sim_step(arg) with the signature of a poll-loop hook, int (*)(void *),
 * for callback tables (arg is the sim).
 */
int pcc_sim_step_hook(void *arg);

/**
 * The engine tells the sim it has nothing to do before next_deadline_ns
 * (virtual, absolute; UINT64_MAX = nothing scheduled): no packet to send,
 * no timer due.  Valid for the next pcc_sim_step() only; without it the
 * sim advances by one quantum per step.
 */
void pcc_sim_engine_idle(struct pcc_sim *sim, uint64_t next_deadline_ns);

/**
 * Run steps until virtual time reaches until_ns or the end, as if the
 * engine were always idle (for scenarios without engine traffic and for
 * tests).  Returns what the last pcc_sim_step() returned.
 */
int pcc_sim_run(struct pcc_sim *sim, uint64_t until_ns);

/** True once the scenario's end (duration, or every flow done) is reached. */
bool pcc_sim_done(const struct pcc_sim *sim);

/** Current virtual time, ns. */
uint64_t pcc_sim_now(const struct pcc_sim *sim);

/**
 * Clock function for pcc_engine_port_clock_register(port, pcc_sim_clock,
 * sim): returns pcc_sim_now(arg).  Safe from any lcore.
 */
uint64_t pcc_sim_clock(void *arg);

/**
 * Register pcc_sim_step() as an rte_service (free-running mode), not
 * MT-safe: the service framework runs it on one service lcore at a time.
 * The caller maps it to a service lcore and sets its run state.  0 and
 * *service_id, or a negative errno.
 */
int pcc_sim_service_register(struct pcc_sim *sim, uint32_t *service_id);

/** Unregister the service (after it stopped running).  0 or <0. */
int pcc_sim_service_unregister(struct pcc_sim *sim);

/**
 * After the run (the step function and service stopped): write the last
 * CSV rows, close the CSVs, compute the summary, print it as a table to
 * out (may be NULL), write summary.json and plot.gp, and run gnuplot when
 * output.plots is on and gnuplot is installed (else a note on stderr).
 * Idempotent.  0 or a negative errno (output could not be written).
 */
int pcc_sim_finish(struct pcc_sim *sim, FILE *out);

/**
 * Free every mbuf the model and the rings hold (packets in flight, in
 * queues, undelivered).  Call after the engine stopped and before it frees
 * its mbuf pools: data packets are the engine's mbufs.  Idempotent.
 */
void pcc_sim_release(struct pcc_sim *sim);

/**
 * Release, remove the ports (rte_vdev_uninit: closes them unless the
 * engine did), free rings, pools and memory.  Call after the engine is
 * destroyed (it may still hold mbufs of the sim's pool until then).
 * NULL allowed.
 */
void pcc_sim_destroy(struct pcc_sim *sim);

/* ---- Ports, flows, algorithms (what the app configures the engine with) - */

/**
 * One engine port: one simulated host's, or, with sim.hosts_per_port N > 1,
 * the port N consecutive engine-driven hosts share (the host fields are the
 * first one's; what a frame sent on it is, its source address says).
 */
struct pcc_sim_port_info {
	uint16_t port_id;  /**< ethdev port id */
	uint16_t host;     /**< host index (the first, if shared) */
	uint16_t nb_hosts; /**< hosts on the port: 1, or up to sim.hosts_per_port */
	char host_name[PCC_SIM_NAME_LEN];
	char dev_name[64];      /**< ethdev name (net_ring_sim0_s0) */
	uint8_t roles;          /**< PCC_SIM_ROLE_* the engine should give it (of all its hosts) */
	uint8_t mac[6];         /**< the host's MAC */
	uint8_t peer_mac[6];    /**< its switch port's MAC (the gateway) */
	uint32_t ipv4;          /**< the host's address, host order */
	uint64_t line_rate_bps; /**< its link (every host's on the port) */
};

/** What the receivers' NP does (scenario hosts:), for the engine's NP runner. */
struct pcc_sim_np_info {
	bool engine;            /**< hosts.np is "engine": the engine answers */
	uint64_t cnp_gap_ns;    /**< at most one CNP per QP this often; 0 = per mark */
	uint8_t cnp_dscp;       /**< DSCP of CNPs */
	uint64_t turnaround_ns; /**< hardware NP: probe response send - receive */
	const char *app;        /**< engine NP: plug-in path (hosts.np_app), "" if none */
	const uint8_t *mailbox; /**< hosts.np_mailbox: bytes for the NP mailbox at start */
	uint16_t mailbox_len;   /**< 0: none */
};

/** The receivers' NP settings.  0, or -EINVAL. */
int pcc_sim_np_info_get(const struct pcc_sim *sim, struct pcc_sim_np_info *info);

/** Number of engine ports. */
uint16_t pcc_sim_port_count(const struct pcc_sim *sim);

/** Port idx (0..count-1, host order).  0 or -ENOENT. */
int pcc_sim_port_info_get(const struct pcc_sim *sim, uint16_t idx, struct pcc_sim_port_info *info);

/** Who sends a flow's data. */
enum pcc_sim_flow_source {
	PCC_SIM_SRC_ENGINE = 0, /**< the engine's generator on the source host's port */
	PCC_SIM_SRC_MODEL = 1,  /**< the model itself, open loop at rate_bps */
};

/**
 * One scenario flow.  Contract with the engine's generator (doc/simulator.md,
 * "Flows and QPNs"): the flow's data packets leave src_port_id with BTH
 * DestQP = dst_qpn and UDP source port udp_sport; probe requests carry DETH
 * SrcQP = qpn.  The sim answers with ACKs, NAKs, CNPs and probe responses
 * whose DestQP is qpn (the sender's QP), and routes what the engine sends
 * by those QPNs first, then by destination IPv4, then MAC.
 */
struct pcc_sim_flow_info {
	uint32_t idx;
	char name[PCC_SIM_NAME_LEN]; /**< "f0" */
	uint16_t src_host;
	uint16_t dst_host;
	int32_t src_port_id; /**< engine port of the source; -1: model source */
	int32_t dst_port_id; /**< engine port of the receiver NP; -1: hardware NP */
	uint8_t source;      /**< enum pcc_sim_flow_source */
	uint8_t slot;        /**< algorithm slot */
	bool int_hdr;        /**< data must carry the HPCC INT header */
	uint32_t qpn;        /**< sender's QPN */
	uint32_t dst_qpn;    /**< receiver's QPN (DestQP of data) */
	uint16_t udp_sport;  /**< pcc_roce_udp_sport(qpn, dst_qpn) */
	uint8_t src_mac[6];
	uint8_t dst_mac[6]; /**< the destination host's MAC */
	uint32_t src_ip;    /**< host order */
	uint32_t dst_ip;
	uint64_t size;        /**< message bytes; 0 = infinite */
	uint64_t start_ns;    /**< virtual time of its first packet */
	uint64_t rate_bps;    /**< offered (initial) rate; the source link's rate if 0 */
	uint32_t payload_len; /**< RoCE payload bytes per packet */
	/** base RTT of its path: propagation both ways, one data frame
	 *  serialized on every hop there and one ACK back, no queueing */
	uint64_t base_rtt_ns;
};

/** Number of flows. */
uint32_t pcc_sim_flow_count(const struct pcc_sim *sim);

/** Up to n flows into out[] in scenario order; returns how many. */
uint32_t pcc_sim_flows(const struct pcc_sim *sim, struct pcc_sim_flow_info *out, uint32_t n);

/** One algorithm parameter (same layout as struct pcc_engine_algo_param). */
struct pcc_sim_param {
	const char *name;
	const char *value;
};

/** An algorithm slot of the scenario. */
struct pcc_sim_algo {
	uint8_t slot;
	char name[PCC_SIM_NAME_LEN];    /**< "dcqcn", ... */
	char profile[PCC_SIM_NAME_LEN]; /**< "" = the algorithm's default, "none" */
	const struct pcc_sim_param *params;
	uint32_t nb_params;
};

/**
 * The base RTT the scenario gives the algorithms of slot (the parameter
 * pcc_algos_base_rtt_param() names: hpcc's base_rtt_ns, dctcp's rtt_ns):
 * its base_rtt when set, else the largest base RTT of the slot's flows
 * (pcc_sim_flow_info.base_rtt_ns), as the HPCC reference's GLOBAL_T takes
 * the largest over the topology.  0 when the slot has no flow.
 */
uint64_t pcc_sim_base_rtt_ns(const struct pcc_sim *sim, uint8_t slot);

/** 1 if the scenario's base_rtt is auto (from the topology), else 0. */
int pcc_sim_scenario_base_rtt_auto(const struct pcc_sim_scenario *s);

/**
 * The receivers' CNP gap (hosts.cnp_gap) in *gap_ns; returns 1 if the
 * scenario (or an override) gave it, 0 for the default, -EINVAL.
 */
int pcc_sim_scenario_cnp_gap(const struct pcc_sim_scenario *s, uint64_t *gap_ns);

/**
 * The scenario's algorithm slots in slot order: *out points into the sim
 * (valid until pcc_sim_destroy()).  Returns how many.
 */
uint32_t pcc_sim_algos(const struct pcc_sim *sim, const struct pcc_sim_algo **out);

/**
 * Mbufs the engine's pool should have beyond its own needs: what the
 * model may hold at once (switch buffers and links full of the scenario's
 * smallest data packets, rings).  A hint, not a bound.
 */
uint32_t pcc_sim_mbufs_hint(const struct pcc_sim *sim);

/**
 * Put one frame into the model as if host `host` had transmitted it now
 * (tests, or an application without the engine), from the thread that
 * steps the sim.  The model owns m afterwards (freed on error too, and
 * counted like a frame from the engine).  0, -ENOENT (no such host, the
 * run has ended, or data/probe of no scenario flow), -EINVAL (pcc_parse()
 * rejects it), -EHOSTUNREACH (no destination host), -ENOBUFS (model
 * packet pool empty).
 */
int pcc_sim_inject(struct pcc_sim *sim, uint16_t host, struct rte_mbuf *m);

/** Host index by name, or -ENOENT. */
int pcc_sim_host_find(const struct pcc_sim *sim, const char *name);

/** The ethdev port id of host `host`'s engine port (its own or shared), or
 * -ENOENT (no such host, or the engine does not drive it). */
int pcc_sim_host_port_id(const struct pcc_sim *sim, uint16_t host);

/* ---- Statistics (any thread; fields are read one by one) ---------------- */

/** Whole-model counters. */
struct pcc_sim_stats {
	uint64_t now_ns;
	uint64_t end_ns; /**< virtual end (duration) */
	uint64_t steps;
	uint64_t events;             /**< model events processed */
	uint64_t pkts_in;            /**< frames that entered the model from hosts */
	uint64_t pkts_out;           /**< frames delivered to engine RX rings */
	uint64_t drops;              /**< buffer drops, all switches */
	uint64_t marks;              /**< CE marks, all queues */
	uint64_t cnps;               /**< CNPs: hardware NP built + engine NP sent */
	uint64_t acks;               /**< ACKs built */
	uint64_t naks;               /**< NAKs built (PSN gaps) */
	uint64_t probe_req;          /**< probe requests that entered the fabric */
	uint64_t probe_resp;         /**< probe responses (hardware NP + engine NP) */
	uint64_t unroutable;         /**< frames with no destination host, freed */
	uint64_t unknown_flow;       /**< data/probes for no scenario flow, freed */
	uint64_t bad_pkts;           /**< frames pcc_parse() rejected, freed */
	uint64_t pool_empty;         /**< model packet or mbuf pool exhausted */
	uint64_t rx_backlog_max;     /**< most packets waiting for a full RX ring */
	uint64_t cnp_gap_violations; /**< all flows (pcc_sim_flow_stats) */
	uint64_t ifa_dropped;        /**< IFA frames freed at a host: no engine port
	                              *   to take them, or a request the hardware
	                              *   NP cannot answer (doc/simulator.md 4) */
};

int pcc_sim_stats_get(const struct pcc_sim *sim, struct pcc_sim_stats *st);

/** One switch egress queue (one per switch port). */
struct pcc_sim_queue_stats {
	char name[PCC_SIM_NAME_LEN * 2]; /**< "sw0->sw1", "sw0->r0" */
	uint64_t rate_bps;
	uint64_t delay_ns;
	uint64_t depth_bytes; /**< now */
	uint64_t depth_max;   /**< whole run */
	uint64_t enq_pkts;
	uint64_t enq_bytes;
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t drops;
	uint64_t drop_bytes;
	uint64_t marks;    /**< CE marks at dequeue */
	uint64_t int_hops; /**< INT hops pushed */
	uint64_t ifa_hops; /**< IFA2 hops pushed */
	uint64_t busy_ns;  /**< time spent transmitting */
};

uint32_t pcc_sim_queue_count(const struct pcc_sim *sim);
int pcc_sim_queue_stats_get(
		const struct pcc_sim *sim, uint32_t idx, struct pcc_sim_queue_stats *st);

/** One link direction (host NIC egress and switch egress alike). */
struct pcc_sim_link_stats {
	char name[PCC_SIM_NAME_LEN * 2]; /**< "s0->sw0" */
	uint64_t rate_bps;
	uint64_t delay_ns;
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t busy_ns;
	uint64_t backlog_max; /**< host NIC: most bytes queued */
};

uint32_t pcc_sim_link_count(const struct pcc_sim *sim);
int pcc_sim_link_stats_get(const struct pcc_sim *sim, uint32_t idx, struct pcc_sim_link_stats *st);

/** One flow, as the fabric saw it. */
struct pcc_sim_flow_stats {
	uint64_t tx_pkts;  /**< data frames that entered the fabric */
	uint64_t tx_bytes; /**< their frame bytes */
	uint64_t rx_pkts;  /**< data frames delivered to the receiver */
	uint64_t rx_bytes;
	uint64_t rx_payload; /**< RoCE payload bytes delivered (INT excluded) */
	uint64_t ce_rx;      /**< of rx_pkts: CE-marked */
	uint64_t drops;      /**< its frames dropped by a switch */
	uint64_t acks;
	uint64_t naks;
	uint64_t cnps;
	uint64_t probe_req;
	uint64_t probe_resp;
	uint64_t first_rx_ns; /**< first data frame delivered; 0 = none */
	uint64_t last_rx_ns;
	bool done;                   /**< finite flow: every byte delivered */
	uint64_t fct_ns;             /**< done: last byte delivered - start */
	uint64_t cnp_gap_min_ns;     /**< shortest time between two CNPs to its QP
	                          *   (UINT64_MAX: fewer than two) */
	uint64_t cnp_gap_violations; /**< CNPs closer than hosts.cnp_gap to the
	                              *   previous one to its QP */
};

int pcc_sim_flow_stats_get(const struct pcc_sim *sim, uint32_t idx, struct pcc_sim_flow_stats *st);

/** Path of the run directory ("" when output is off). */
const char *pcc_sim_output_dir(const struct pcc_sim *sim);

#ifdef __cplusplus
}
#endif

#endif /* PCC_SIM_H */
