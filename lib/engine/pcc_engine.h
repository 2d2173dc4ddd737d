/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_ENGINE_H
#define PCC_ENGINE_H

/**
 * @file
 * dpdk-pcc engine: worker lcores polling ethdev RX queues, classifying every
 * packet with lib/proto, answering CE-marked RoCEv2 data with CNPs on
 * notification-point (NP) ports, counting CNP/ACK/NAK per flow on
 * reaction-point (RP) ports and generating paced RoCEv2 traffic there.
 *
 * Lifecycle (all control calls from the main lcore, after rte_eal_init):
 *
 *   pcc_engine_conf_default(&conf);  ... fill conf ...
 *   e = pcc_engine_create(&conf);    mempools, ports configured and started
 *   pcc_engine_start(e);             workers launched on their lcores
 *   pcc_engine_main_loop(e, tick, arg, tick_us);
 *                                    main lcore: polls too when it owns
 *                                    queues (single-lcore runs), else sleeps;
 *                                    calls tick() every tick_us until it
 *                                    returns non-zero or pcc_engine_stop()
 *   pcc_engine_stop(e);  pcc_engine_wait(e);
 *   pcc_engine_destroy(e);           ports stopped and closed, pools freed
 *
 * Threading model: each RX queue is polled by exactly one lcore; each lcore
 * transmits on a port through a TX queue of its own (see
 * pcc_engine_txq_needed()), so the fast path takes no lock.  Counters are
 * per lcore and written only by their lcore; the stats getters sum them and
 * may be called from any thread while the engine runs.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_config.h>

#include "pcc_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest RX/TX burst (conf.burst). */
#define PCC_ENGINE_BURST_MAX 512
/** Largest number of generator flows per RP port. */
#define PCC_ENGINE_GEN_FLOWS_MAX 4096
/** Largest generated RoCEv2 payload (bytes). */
#define PCC_ENGINE_GEN_PAYLOAD_MAX 8192
/** RX queues one lcore may poll. */
#define PCC_ENGINE_LCORE_RXQ_MAX 64

/** Port roles (conf.port[].roles); a port may have both. */
#define PCC_ENGINE_ROLE_RP (1u << 0) /**< reaction point: sender side */
#define PCC_ENGINE_ROLE_NP (1u << 1) /**< notification point: receiver side */

/** Size of pcc_engine_port_stats.parse_err[]: indexed by -enum pcc_proto_err. */
#define PCC_ENGINE_NB_PARSE_ERR (-PCC_PROTO_ERR_MAX)

/** One RX queue and the lcore that polls it (l3fwd's --config triple). */
struct pcc_engine_rxq_conf {
	uint16_t port_id;
	uint16_t queue_id;
	uint32_t lcore_id;
};

/** Per-port configuration, indexed by port id. */
struct pcc_engine_port_conf {
	uint8_t roles;       /**< PCC_ENGINE_ROLE_*; 0 = port not used */
	bool peer_mac_valid; /**< peer_mac is known (e.g. a ring pair) */
	uint8_t peer_mac[6]; /**< MAC of the port at the other end */
};

/**
 * Traffic generator, run on every RP port by the lcore polling the port's
 * RX queue 0.  Flow i sends RC RDMA WRITE_ONLY packets with DestQP
 * qpn_base + i, PSN 0, 1, 2, ..., UDP source port
 * pcc_roce_udp_sport(qpn, qpn).
 */
struct pcc_engine_gen_conf {
	uint32_t nb_flows;    /**< per RP port; 0 = generator off */
	uint32_t qpn_base;    /**< QPN of flow 0 (2..0xFFFFFF) */
	uint32_t payload_len; /**< RDMA WRITE payload bytes */
	uint32_t rate_mbps;   /**< per flow, Ethernet frame bits (no FCS,
	                           *   preamble or gap); 0 = unpaced */
	uint32_t ce_ppm;      /**< packets sent with ECN CE, parts per
	                           *   million, evenly spread (not random);
	                           *   the others carry ECT(0) */
	uint8_t dscp;         /**< 6-bit DSCP of data packets */
	bool ipv6;
	bool dst_mac_valid; /**< else the port's peer MAC, else broadcast */
	uint8_t dst_mac[6];
	/** Addresses; the defaults are 10.0.0.1 -> 10.0.0.2, so set both
	 *  when ipv6 is true. */
	union {
		uint32_t v4;    /**< host order */
		uint8_t v6[16]; /**< network order */
	} src_ip, dst_ip;
};

/** Notification-point behaviour. */
struct pcc_engine_np_conf {
	bool cnp;         /**< answer CE-marked RoCEv2 data with a CNP */
	uint8_t cnp_dscp; /**< DSCP of CNPs (ECN not-ECT, TTL 64) */
	/**
	 * CNP DestQP = (DestQP of the marked packet + sqpn_offset) & 0xFFFFFF.
	 * The generator uses the same QPN on both ends, so 0 names the sender;
	 * a learning table replaces this rule later.
	 */
	uint32_t sqpn_offset;
};

/** Engine configuration; start from pcc_engine_conf_default(). */
struct pcc_engine_conf {
	struct pcc_engine_port_conf port[RTE_MAX_ETHPORTS];
	/** Which lcore polls which RX queue; every port with a role needs its
	 *  queue 0 polled.  The array is copied by pcc_engine_create(). */
	const struct pcc_engine_rxq_conf *rxq;
	uint32_t nb_rxq_conf;
	uint16_t nb_rxq;        /**< RX queues per port (default 1) */
	uint16_t nb_txq;        /**< TX queues per port; 0 = as needed */
	uint16_t nb_rxd;        /**< RX descriptors per queue (default 1024) */
	uint16_t nb_txd;        /**< TX descriptors per queue (default 1024) */
	uint32_t nb_mbufs;      /**< mbufs per socket pool; 0 = computed */
	uint16_t burst;         /**< 1..PCC_ENGINE_BURST_MAX (default 32) */
	uint32_t idle_sleep_us; /**< sleep after an idle poll round; 0 = busy */
	struct pcc_engine_gen_conf gen;
	struct pcc_engine_np_conf np;
};

struct pcc_engine;

/** Defaults: no port, 1 RX queue, TX queues as needed, 1024 descriptors,
 *  burst 32, busy polling, generator off, CNPs on with DSCP 48. */
void pcc_engine_conf_default(struct pcc_engine_conf *conf);

/**
 * TX queues port_id needs under conf: the number of distinct lcores that
 * poll one of its RX queues (0 if none).  Each of them transmits on the
 * port through a TX queue of its own: the rank of its lcore id among them
 * (the lowest lcore id uses TX queue 0).
 */
unsigned int pcc_engine_txq_needed(const struct pcc_engine_conf *conf, uint16_t port_id);

/**
 * Validate conf, create one mbuf pool per socket in use, configure and
 * start every port with a role (promiscuous where supported; RX is not
 * drained).  The reason for a failure is logged (log type pcc.engine).
 *
 * @return the engine, or NULL with rte_errno set: EINVAL bad conf,
 *   ENOTSUP a port cannot do what conf asks, ENOMEM, or a PMD's error.
 */
struct pcc_engine *pcc_engine_create(const struct pcc_engine_conf *conf);

/** Launch the worker loop on every worker lcore that owns RX queues. */
int pcc_engine_start(struct pcc_engine *e);

/** Called by pcc_engine_main_loop(); return non-zero to stop the engine. */
typedef int (*pcc_engine_tick_t)(void *arg);

/**
 * Run the main lcore's share until the engine stops: the worker loop when
 * the main lcore owns RX queues, else sleep.  tick (may be NULL) is called
 * about every tick_us microseconds; when it returns non-zero the engine is
 * stopped.  Returns 0.
 */
int pcc_engine_main_loop(struct pcc_engine *e, pcc_engine_tick_t tick, void *arg, uint32_t tick_us);

/** Ask every loop to return.  Async-signal-safe. */
void pcc_engine_stop(struct pcc_engine *e);

/** Wait for the worker lcores to return (rte_eal_mp_wait_lcore()). */
void pcc_engine_wait(struct pcc_engine *e);

/** Stop and close the ports, free pools and memory.  NULL is allowed. */
void pcc_engine_destroy(struct pcc_engine *e);

/** TX queue that lcore_id uses on port_id, or -ENOENT. */
int pcc_engine_tx_queue(const struct pcc_engine *e, uint16_t port_id, unsigned int lcore_id);

/** TX queues configured on port_id, or -ENOENT if the port has no role. */
int pcc_engine_port_nb_txq(const struct pcc_engine *e, uint16_t port_id);

/* ---- Statistics ---------------------------------------------------- */

/** Engine counters of one port (summed over lcores); all uint64_t. */
struct pcc_engine_port_stats {
	uint64_t rx_pkts; /**< packets received by the engine */
	uint64_t rx_bytes;
	uint64_t rx_kind[PCC_PKT_KIND_MAX]; /**< parsed packets by kind */
	/** Packets dropped because pcc_parse_mbuf() failed, by -error code */
	uint64_t parse_err[PCC_ENGINE_NB_PARSE_ERR];
	uint64_t ce_rx;    /**< NP: RoCEv2 data with ECN CE */
	uint64_t cnp_tx;   /**< NP: CNPs transmitted */
	uint64_t gen_pkts; /**< RP: generated packets transmitted */
	uint64_t gen_bytes;
	uint64_t gen_ce;  /**< of gen_pkts: sent with ECN CE */
	uint64_t tx_pkts; /**< all packets transmitted by the engine */
	uint64_t tx_bytes;
	uint64_t tx_drop;   /**< not accepted by rte_eth_tx_burst(), freed */
	uint64_t nombuf;    /**< mbuf allocation failures */
	uint64_t build_err; /**< a packet could not be built (too small mbuf) */
};

/** Counters of one polling lcore. */
struct pcc_engine_lcore_stats {
	uint64_t polls;      /**< rounds over the lcore's RX queues */
	uint64_t busy_polls; /**< rounds that received or sent packets */
	uint64_t rx_pkts;
	uint64_t tx_pkts;
	uint64_t tx_drop;
	uint64_t parse_drop;
	uint64_t nombuf;
};

/** Counters of one generator flow. */
struct pcc_engine_flow_stats {
	uint16_t port_id; /**< RP port that sends the flow */
	uint32_t qpn;
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t tx_ce;  /**< sent with ECN CE */
	uint64_t cnp_rx; /**< CNPs received with DestQP == qpn */
	uint64_t ack_rx;
	uint64_t nak_rx;
	uint64_t probe_resp_rx;
};

/** Sum of parse_err[] (packets dropped as malformed). */
uint64_t pcc_engine_parse_drops(const struct pcc_engine_port_stats *st);

/** Roles of port_id in e (0 if unused). */
uint8_t pcc_engine_port_roles(const struct pcc_engine *e, uint16_t port_id);

/** Counters of port_id; -ENOENT if it has no role. */
int pcc_engine_port_stats_get(
		const struct pcc_engine *e, uint16_t port_id, struct pcc_engine_port_stats *st);

/** Counters of lcore_id; -ENOENT if it polls no queue. */
int pcc_engine_lcore_stats_get(const struct pcc_engine *e, unsigned int lcore_id,
		struct pcc_engine_lcore_stats *st);

/** Number of generator flows (all RP ports). */
uint32_t pcc_engine_flow_count(const struct pcc_engine *e);

/** Counters of flow idx (0..pcc_engine_flow_count()-1); -ENOENT beyond. */
int pcc_engine_flow_stats_get(
		const struct pcc_engine *e, uint32_t idx, struct pcc_engine_flow_stats *st);

/* ---- Ring pair ------------------------------------------------------ */

/**
 * Two ethdev ports made of rte_rings with rte_eth_from_rings() (no EAL
 * vdev argument needed), cross-connected: what side 0 transmits on any TX
 * queue, side 1 receives, and the reverse.  TX queue j of a side feeds RX
 * queue j mod nb_rxq of the other; rings are multi-producer, so TX queues
 * sharing a ring stay lock-free for their callers.  Ring capacity bounds
 * the packets in flight per RX queue.
 */
struct pcc_ring_pair;

/**
 * Create the pair; ports are named net_ring_<name>A and net_ring_<name>B.
 * nb_rxq and nb_txq: 1..RTE_PMD_RING_MAX_RX_RINGS.  Returns NULL with
 * rte_errno set on failure.
 */
struct pcc_ring_pair *pcc_ring_pair_create(const char *name, uint16_t nb_rxq, uint16_t nb_txq,
		unsigned int ring_size, int socket);

/** Port id of side 0 or 1. */
uint16_t pcc_ring_pair_port(const struct pcc_ring_pair *rp, unsigned int side);

/** Close both ports (if still open) and free the rings.  NULL allowed. */
void pcc_ring_pair_free(struct pcc_ring_pair *rp);

#ifdef __cplusplus
}
#endif

#endif /* PCC_ENGINE_H */
