/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_ENGINE_H
#define PCC_ENGINE_H

/**
 * @file
 * dpdk-pcc engine: worker lcores poll ethdev RX queues and classify every
 * packet with lib/proto.  On reaction-point (RP) ports CNPs, ACKs/NACKs
 * and RTT probe responses become lib/dev events for the flow's algorithm
 * slot; the results (rate, window, probe requests) drive a per-flow pacer
 * (lib/pacer) through which the traffic sources send: a generator of
 * RoCEv2 flows, or forward mode (bump in the wire).  Notification-point
 * (NP) ports answer CE-marked data with CNPs and probe requests with
 * responses.  Design and memory figures: doc/engine.md.
 *
 * Lifecycle (all control calls from the main lcore, after rte_eal_init):
 *
 *   pcc_engine_conf_default(&conf);  ... fill conf ...
 *   e = pcc_engine_create(&conf);    lib/dev, algorithms, pacers, flow
 *                                    tables, mempools, ports started
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
 * pcc_engine_txq_needed()), so the fast path takes no lock.  Each flow is
 * owned by one of the lcores polling its port (a hash of the flow key);
 * packets that concern another lcore's flow reach it as compact event
 * records through single-producer/single-consumer rings.  Counters are
 * per lcore and written only by their lcore; the getters sum them and may
 * be called from any thread while the engine runs.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_config.h>

#include "pcc_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest RX/TX burst (conf.burst). */
#define PCC_ENGINE_BURST_MAX 512
/** Largest number of generator flows per RP port (conf.gen.nb_flows). */
#define PCC_ENGINE_GEN_FLOWS_MAX 4096
/** Largest number of generator flows in all (conf.gen.groups). */
#define PCC_ENGINE_GEN_FLOWS_TOTAL_MAX (1u << 20)
/** Largest number of generator flow groups (conf.gen.nb_groups). */
#define PCC_ENGINE_GEN_GROUPS_MAX 1024
/** Largest generated RoCEv2 payload per packet (bytes). */
#define PCC_ENGINE_GEN_PAYLOAD_MAX 8192
/** RX queues one lcore may poll. */
#define PCC_ENGINE_LCORE_RXQ_MAX 64
/** Default flow table capacity, all lcores together. */
#define PCC_ENGINE_FLOWS_DEFAULT (1u << 20)
/** Largest flow table capacity, all lcores together. */
#define PCC_ENGINE_FLOWS_MAX (1u << 26)
/** Smallest flow table capacity per polling lcore. */
#define PCC_ENGINE_FLOWS_LCORE_MIN 64
/** Largest --algo-param count (conf.rp.params). */
#define PCC_ENGINE_ALGO_PARAMS_MAX 64
/** Event types counted per flow and per port (lib/dev types 0..7). */
#define PCC_ENGINE_NB_EV 8
/** Algorithm slots of an RP port (lib/dev user slots 0..7). */
#define PCC_ENGINE_SLOTS 8
/** lib/dev logical ports: RP ports beyond this share them (dev_port). */
#define PCC_ENGINE_DEV_PORTS 8

/**
 * mbuf dynamic field (uint64_t, 8-byte aligned) and flag of the departure
 * time the pacer computed for a paced packet, ns of the port clock,
 * written by the pacer (pcc_pacer_conf.depart_off) when conf.rp.tx_stamp
 * is set: a device model (the simulator's host NIC, as a NIC with
 * send-on-timestamp would) holds the frame until then.
 * Hardware PMDs do not know these names and ignore them.
 */
#define PCC_ENGINE_TX_DEPART_NAME "pcc_tx_departure"
#define PCC_ENGINE_TX_DEPART_FLAG_NAME "pcc_tx_departure_valid"

/** Port roles (conf.port[].roles); a port may have several. */
#define PCC_ENGINE_ROLE_RP (1u << 0)  /**< reaction point: sender side */
#define PCC_ENGINE_ROLE_NP (1u << 1)  /**< notification point: receiver side */
#define PCC_ENGINE_ROLE_FWD (1u << 2) /**< forward mode, host side (conf.fwd.port_a) */

/** Size of pcc_engine_port_stats.parse_err[]: indexed by -enum pcc_proto_err. */
#define PCC_ENGINE_NB_PARSE_ERR (-PCC_PROTO_ERR_MAX)

/** One RX queue and the lcore that polls it (l3fwd's --config triple). */
struct pcc_engine_rxq_conf {
	uint16_t port_id;
	uint16_t queue_id;
	uint32_t lcore_id;
};

struct pcc_engine_np_conf;
struct pcc_engine_probe_conf;

/** Per-port configuration, indexed by port id. */
struct pcc_engine_port_conf {
	uint8_t roles;       /**< PCC_ENGINE_ROLE_*; 0 = port not used */
	bool peer_mac_valid; /**< peer_mac is known (e.g. a ring pair) */
	uint8_t peer_mac[6]; /**< MAC of the port at the other end */
	/** Line rate of this port, bit/s (e.g. a simulated host link); 0 =
	 *  conf.rp.line_rate_gbps, else the link speed (see doc/engine.md) */
	uint64_t line_rate_bps;
	/** RP ports: share lib/dev logical port dev_port (its algorithm
	 *  slots, parameters and counters) instead of one of their own, so
	 *  that more than PCC_ENGINE_DEV_PORTS ports can run (a simulator's
	 *  senders); ports sharing one need the same line rate */
	bool dev_port_set;
	uint8_t dev_port; /**< 0..PCC_ENGINE_DEV_PORTS-1 */
	/** NP ports: this port's NP settings instead of conf.np (copied by
	 *  pcc_engine_create(); the classifier's fields, qp_table,
	 *  ifa2_proto and ifa1_marker, are conf.np's for every port) */
	const struct pcc_engine_np_conf *np;
	/** RP ports: this port's probe formats, PCC_ENGINE_PROBE_SLOTS
	 *  entries, instead of conf.probe[] (copied) */
	const struct pcc_engine_probe_conf *probe;
	/** The port's hardware verifies the RoCEv2 ICRC and drops what fails
	 *  (no DPDK 22.11 PMD reports this: the caller states it): the
	 *  engine does not verify CC packets received here again.  false
	 *  (default): every CNP, ACK, NAK and probe response, probe request
	 *  and CE-marked data the engine acts on is verified in software
	 *  (doc/engine.md, "Every frame counted") */
	bool icrc_hw;
};

/**
 * A group of generator flows (one entry of a --gen-file): `count` flows
 * with QPNs qpn_base, qpn_base + 1, ...  Fields left 0 take the value of
 * struct pcc_engine_gen_conf where it has one.
 */
struct pcc_engine_gen_group {
	int32_t port_id;      /**< RP port; -1 = every RP port */
	uint32_t count;       /**< flows, >= 1 */
	uint32_t qpn_base;    /**< QPN of the first flow (2..0xFFFFFF) */
	uint32_t payload_len; /**< bytes per packet; 0 = gen.payload_len */
	uint64_t size;        /**< bytes per message; 0 = infinite stream */
	uint64_t start_us;    /**< start, microseconds after pcc_engine_start()
	                       *   (or absolute with gen.abs_start) ... */
	uint64_t start_ns;    /**< ... plus this many nanoseconds */
	uint64_t stagger_ns;  /**< flow i starts i * stagger_ns later */
	uint32_t rate_mbps;   /**< initial offered rate per flow; 0 = gen.rate_mbps */
	bool unpaced;         /**< offered load unlimited (rate 0 in the file) */
	/* optional, for a simulator's flows; 0/false = the gen conf's */
	bool int_hdr;       /**< data carries an HPCC INT header (42 bytes,
	                       *   no hop yet, BTH PCC_BTH_INT) before the payload */
	bool slot_set;      /**< the flows use algorithm slot `slot`, not the
	                       *   port's active slot */
	uint8_t slot;       /**< 0..PCC_ENGINE_SLOTS-1 */
	bool dst_mac_valid; /**< dst_mac, else gen.dst_mac / the peer MAC */
	uint8_t dst_mac[6];
	uint32_t dst_qpn_base; /**< DestQP of flow i's data: dst_qpn_base + i;
	                        *   0 = its own QPN (same QPN on both ends) */
	uint32_t src_ip;       /**< IPv4, host order; 0 = gen.src_ip */
	uint32_t dst_ip;       /**< IPv4, host order; 0 = gen.dst_ip */
};

/**
 * Traffic generator: RoCEv2 RC RDMA WRITE flows on RP ports.  Without
 * groups, every RP port sends nb_flows flows with DestQP qpn_base + i,
 * WRITE_ONLY packets of payload_len bytes, forever.  With groups, the
 * flows of every group (a message of `size` bytes is sent as WRITE_FIRST,
 * MIDDLE..., LAST packets, then the flow is done).  Each flow is generated
 * by the lcore that owns it.  Its rate_mbps is the offered load: the flow's
 * pacer, programmed by the congestion-control algorithm, decides what
 * leaves.  PSNs 0, 1, 2, ...; UDP source port pcc_roce_udp_sport(qpn, qpn).
 */
struct pcc_engine_gen_conf {
	uint32_t nb_flows;    /**< per RP port; 0 = generator off (no groups) */
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
	/** Flow groups (--gen-file), copied by pcc_engine_create(); when
	 *  nb_groups > 0, nb_flows must be 0. */
	const struct pcc_engine_gen_group *groups;
	uint32_t nb_groups;
	/** Group start times are absolute times of the port clock, not
	 *  relative to pcc_engine_start() (a simulator's virtual time). */
	bool abs_start;
};

/** What to do with a new flow when the lcore's flow table is full. */
enum pcc_engine_flow_full {
	PCC_ENGINE_FLOW_FULL_EVICT = 0,  /**< evict the longest-idle flow */
	PCC_ENGINE_FLOW_FULL_REFUSE = 1, /**< refuse the new flow */
};

/** Flow tables (one per polling lcore; doc/engine.md). */
struct pcc_engine_flow_conf {
	uint32_t capacity; /**< flows in all, split evenly over the polling
	                    *   lcores; 0 = PCC_ENGINE_FLOWS_DEFAULT */
	uint32_t idle_ms;  /**< age out flows idle this long; 0 = never */
	uint8_t full;      /**< enum pcc_engine_flow_full */
	uint16_t ctx_size; /**< algorithm context bytes per flow; 0 = the
	                    *   largest registered algorithm's (<= 256) */
};

/** One algorithm parameter, NAME=VALUE (--algo-param). */
struct pcc_engine_algo_param {
	const char *name;
	const char *value;
};

/**
 * An algorithm slot of every RP port (pcc_engine_rp_conf.slots[]): the
 * algorithm is loaded at lib/dev index `slot`, bound to the slot and
 * enabled; its parameters are set on that slot.
 */
struct pcc_engine_slot_conf {
	const char *algo; /**< NULL or "": slot not configured */
	const struct pcc_engine_algo_param *params;
	uint32_t nb_params;
};

/** Reaction point: algorithm, events, pacing. */
struct pcc_engine_rp_conf {
	/** Algorithm loaded at index 0 and bound + enabled at slot 0 of
	 *  every RP port; NULL or "" = none: new flows get the default
	 *  algorithm of slot 0xF ("rtt"). */
	const char *algo;
	/** Parameters set on the slot new flows use, on every RP port
	 *  (validated by pcc_engine_create()). */
	const struct pcc_engine_algo_param *params;
	uint32_t nb_params;
	uint32_t tx_coalesce_bytes; /**< TX event every this many bytes ... */
	uint32_t tx_coalesce_us;    /**< ... or this long after its first packet */
	uint32_t timer_us;          /**< per-flow timer event period; 0 = off */
	uint32_t line_rate_gbps;    /**< 0 = link speed; virtual ports: 100 */
	const char *pacer;          /**< "wheel" (NULL), "txpp", "mtr" */
	uint32_t pacer_queue;       /**< packets queued per flow; 0 = 64 */
	/** The generator hands a flow's packets to its pacer at most this
	 *  long before their departure, ns (0 = 5 us, at most 2 ms): a rate
	 *  change applies to packets not queued yet, so this bounds how late
	 *  it takes effect */
	uint32_t pace_ahead_ns;
	/** Stamp paced packets with their departure time
	 *  (PCC_ENGINE_TX_DEPART_NAME), for ports that honour it */
	bool tx_stamp;
	/** Send an RTT probe as soon as the algorithm asks.  Default (false):
	 *  a flow whose data goes through the engine sends its next probe
	 *  only once it has sent data since its previous one (at most one
	 *  probe per data packet); the request waits for that data. */
	bool probe_unbound;
	/** Algorithms per slot (validated and applied by
	 *  pcc_engine_create(); strings needed only during the call).  Not
	 *  with `algo`, which is slot 0: slots[0] must then be unused.  New
	 *  flows get the lowest enabled slot unless their generator group
	 *  names one. */
	struct pcc_engine_slot_conf slots[PCC_ENGINE_SLOTS];
};

/** Forward mode (bump in the wire): port_a (host side) -> paced -> port_b. */
struct pcc_engine_fwd_conf {
	bool enabled;
	uint16_t port_a; /**< host-facing: role PCC_ENGINE_ROLE_FWD */
	uint16_t port_b; /**< wire side: role PCC_ENGINE_ROLE_RP */
};

/* ---- Notification point and probe formats (np.c, probe.c) ---------------- */

/** Default per-QP minimum gap between two CNPs, microseconds. */
#define PCC_ENGINE_NP_CNP_GAP_US_DEFAULT 50
/** pcc_engine_np_conf.cnp_gap_us: no gap, every CE-marked packet gets a CNP. */
#define PCC_ENGINE_NP_NO_GAP UINT32_MAX
/** Default 802.1Q priority of CNPs for VLAN-tagged data (mlx5's cnp_802p_prio). */
#define PCC_ENGINE_NP_CNP_PCP_DEFAULT 6
/** Default entries of the NP QP tables (CNP gap per lcore, learned QPNs). */
#define PCC_ENGINE_NP_QP_TABLE_DEFAULT 65536
/** Smallest and largest entries of the NP QP tables (powers of two). */
#define PCC_ENGINE_NP_QP_TABLE_MIN 1024
#define PCC_ENGINE_NP_QP_TABLE_MAX (1u << 24)
/** Largest static sender-QPN map (pcc_engine_np_conf.sqpn_map). */
#define PCC_ENGINE_NP_SQPN_MAP_MAX 4096
/** Largest response timestamp size, bits, and resolution shift. */
#define PCC_ENGINE_NP_RESP_TS_SIZE_MAX 32
#define PCC_ENGINE_NP_RESP_TS_RES_MAX 63
/** Probe format slots (pcc_engine_conf.probe[]). */
#define PCC_ENGINE_PROBE_SLOTS 8

/** One static sender-QPN mapping: CE-marked data to dqpn -> CNP to sqpn. */
struct pcc_engine_np_sqpn {
	uint32_t dqpn; /**< DestQP of the marked data (the NP's QP) */
	uint32_t sqpn; /**< the sender's QPN: the CNP's DestQP */
};

/** Time source of the NP timestamps in probe responses. */
enum pcc_engine_np_ts_src {
	PCC_ENGINE_NP_TS_PORT = 0,     /**< the port's clock (free running; default) */
	PCC_ENGINE_NP_TS_REALTIME = 1, /**< CLOCK_REALTIME ns (read once per burst) */
};

/** What the NP runner does with requests for the hardware-NP model. */
enum pcc_engine_np_hw {
	PCC_ENGINE_NP_HW_ANSWER = 0, /**< answer as the model (no user handler) */
	PCC_ENGINE_NP_HW_DROP = 1,   /**< count and drop: a hardware NP answers */
};

/**
 * Notification-point behaviour (doc/engine.md, "NP runner and probes").
 * Zero means the default for every field below `sqpn_offset`, so a
 * zeroed struct with cnp set is a complete configuration.
 */
struct pcc_engine_np_conf {
	bool cnp;         /**< answer CE-marked RoCEv2 data with a CNP */
	uint8_t cnp_dscp; /**< DSCP of CNPs (ECN not-ECT, TTL 64) */
	/**
	 * Last-resort rule for the CNP's DestQP (the sender's QPN): DestQP of
	 * the marked packet + sqpn_offset, mod 2^24, used when neither the
	 * static map nor the learned table knows the sender.  The generator
	 * uses the same QPN on both ends, so 0 names the sender there.
	 */
	uint32_t sqpn_offset;
	/** Per-QP minimum gap between CNPs, us; 0 = 50, PCC_ENGINE_NP_NO_GAP = none. */
	uint32_t cnp_gap_us;
	bool cnp_pcp_set; /**< use cnp_pcp; else PCC_ENGINE_NP_CNP_PCP_DEFAULT */
	uint8_t cnp_pcp;  /**< 802.1Q PCP of CNPs to VLAN-tagged data (VID kept) */
	bool learn_off;   /**< do not learn sender QPNs from reverse traffic */
	/** Entries of the NP QP tables, a power of two; 0 = 65536. */
	uint32_t qp_table;
	/** Static map DestQP -> sender QPN (copied by pcc_engine_create()). */
	const struct pcc_engine_np_sqpn *sqpn_map;
	uint32_t nb_sqpn_map;
	/** Test knob: mark this share of received RoCEv2 data CE before NP
	 *  processing, parts per million, evenly spread (not random); 0 = off. */
	uint32_t mark_ce_ppm;
	uint8_t resp_ts_size; /**< response timestamp bits in resp_ts, 0..32 */
	uint8_t resp_ts_res;  /**< ... of (ns >> resp_ts_res), 0..63 */
	uint8_t ts_src;       /**< enum pcc_engine_np_ts_src */
	bool resp_dscp_set;   /**< responses get resp_dscp; else the request's */
	uint8_t resp_dscp;    /**< (a user handler may still set its own) */
	uint8_t hw_probes;    /**< enum pcc_engine_np_hw */
	/** Answer every CCMAD probe request through the generic path (parse,
	 *  decode, pcc_probe_resp_inplace()), not the fast path that answers
	 *  requests in the layout the RP builds (pcc_probe_fast_match());
	 *  both write the same bytes.  For comparisons and debugging. */
	bool probe_fast_off;
	/** RTT response version 1: answers carry this port's type and
	 *  received-byte count (PCC_PROBE_F_EXT, doc/wire.md 7.6; DOCA's
	 *  doca_pcc_dev_get_rtt_np_rx_byte_counter()).  Answers are then
	 *  built whole, not by the fast path. */
	bool resp_ext;
	/** DOCA's np_set_ifa2_gns_ignore: when ifa2_gns_ignore is set, IFA2
	 *  packets with (GNS & mask) == (value & mask) are not the NP's
	 *  (counted ifa2_ignored; CE-marked RoCEv2 data inside still gets
	 *  its CNP).  Off by default. */
	bool ifa2_gns_ignore;
	uint8_t ifa2_gns_ignore_mask;
	uint8_t ifa2_gns_ignore_value;
	/** Select mode (dpdk-pcc's own): only IFA2 packets with (GNS & mask)
	 *  == (value & mask) are the NP's (the others counted
	 *  ifa2_unmatched); 0/0 (default) selects every IFA2 packet.  Applied
	 *  after the ignore rule. */
	uint8_t ifa2_gns_select_mask;
	uint8_t ifa2_gns_select_value;
	/** IP protocol of IFA2 for the classifier; 0 = the IFA2 probe slots',
	 *  else 253 (PCC_IFA2_PROTO_DEFAULT). */
	uint8_t ifa2_proto;
	/** IFA1 marker the classifier recognises; 0 = the IFA1 probe slots',
	 *  else PCC_IFA1_MARKER_DEFAULT.  Its MSB must be set. */
	uint64_t ifa1_marker;
};

/** RTT probe formats (pcc_engine_probe_conf.format). */
enum pcc_engine_probe_fmt {
	PCC_ENGINE_PROBE_CCMAD = 0, /**< RoCEv2 UD MAD to QP1 (doc/wire.md 7; default) */
	PCC_ENGINE_PROBE_IFA1 = 1,  /**< IFA 1.0 header + probe MAD (doc/wire.md 9.4) */
	PCC_ENGINE_PROBE_IFA2 = 2,  /**< IFA 2.0 + probe MAD (doc/wire.md 8.7) */
	PCC_ENGINE_PROBE_FMT_MAX,
};

/**
 * Format of the RTT probes of one probe slot (the slot an algorithm's
 * result names).  Zero means the default for every field but ifa2_gns.
 */
struct pcc_engine_probe_conf {
	uint8_t format; /**< enum pcc_engine_probe_fmt */
	/** Ask the remote NP to answer with its hardware-NP model instead of
	 *  the software handler (PCC_PROBE_F_HW_NP in the request). */
	bool hw_np;
	uint8_t custom_len;      /**< custom header bytes after the body, 0..64 */
	uint8_t custom_offset;   /**< ... at this offset after the body (zeros
	                          *   before it; DOCA's custom header location);
	                          *   custom_offset + custom_len <= 64 */
	uint32_t custom_pattern; /**< ... filled with this 32-bit big-endian value,
	                          *   repeated (0 = zeros) */
	uint64_t ifa1_marker;    /**< IFA1: marker; 0 = PCC_IFA1_MARKER_DEFAULT */
	uint8_t ifa_hop_limit;   /**< IFA1/IFA2: hop limit; 0 = 0xFE */
	uint8_t ifa2_gns;        /**< IFA2: GNS, 0..15 (pcc_engine_probe_conf_default: 0xF) */
	uint8_t ifa2_proto;      /**< IFA2: IP protocol; 0 = 253 */
};

/** Defaults of a probe slot of the given format (GNS 0xF, hop limit 0xFE). */
void pcc_engine_probe_conf_default(struct pcc_engine_probe_conf *p, enum pcc_engine_probe_fmt fmt);

/** Name of a probe format ("ccmad", "ifa1", "ifa2"), NULL if unknown. */
const char *pcc_engine_probe_fmt_name(unsigned int fmt);

/** Engine configuration; start from pcc_engine_conf_default(). */
struct pcc_engine_conf {
	struct pcc_engine_port_conf port[RTE_MAX_ETHPORTS];
	/** Which lcore polls which RX queue; every port with a role needs its
	 *  queue 0 polled.  The array is copied by pcc_engine_create(). */
	const struct pcc_engine_rxq_conf *rxq;
	uint32_t nb_rxq_conf;
	uint16_t nb_rxq;         /**< RX queues per port (default 1) */
	uint16_t nb_txq;         /**< TX queues per port; 0 = as needed */
	uint16_t nb_rxd;         /**< RX descriptors per queue (default 1024) */
	uint16_t nb_txd;         /**< TX descriptors per queue (default 1024) */
	uint32_t nb_mbufs;       /**< mbufs per socket pool; 0 = computed */
	uint32_t nb_mbufs_extra; /**< added to the computed pool size (e.g.
	                          *   pcc_sim_mbufs_hint()); not with nb_mbufs */
	uint16_t burst;          /**< 1..PCC_ENGINE_BURST_MAX (default 32) */
	uint32_t idle_sleep_us;  /**< sleep after an idle poll round; 0 = busy */
	struct pcc_engine_gen_conf gen;
	struct pcc_engine_np_conf np;
	/** RTT probe format of each probe slot (zeroed: CCMAD, software NP). */
	struct pcc_engine_probe_conf probe[PCC_ENGINE_PROBE_SLOTS];
	struct pcc_engine_flow_conf flow;
	struct pcc_engine_rp_conf rp;
	struct pcc_engine_fwd_conf fwd;
};

struct pcc_engine;

/**
 * Defaults: no port, 1 RX queue, TX queues as needed, 1024 descriptors,
 * burst 32, busy polling, generator off, CNPs on with DSCP 48; 1M flows,
 * idle flows age out after 10 s, a full table evicts; no algorithm (the
 * default one of slot 0xF), TX events every 64 KiB or 20 us, timer off,
 * line rate from the link, wheel pacer; forward mode off.
 */
void pcc_engine_conf_default(struct pcc_engine_conf *conf);

/**
 * TX queues port_id needs under conf: the number of distinct lcores that
 * transmit on it, i.e. that poll one of its RX queues, plus, for the host
 * side of forward mode (conf->fwd.port_a), the lcores polling the wire
 * side (they forward what comes back).  Each of them transmits on the port
 * through a TX queue of its own: the rank of its lcore id among them (the
 * lowest lcore id uses TX queue 0).  0 if none.
 */
unsigned int pcc_engine_txq_needed(const struct pcc_engine_conf *conf, uint16_t port_id);

/**
 * Validate conf, register the built-in algorithms and pacer backends,
 * initialise lib/dev (unless the process already did), load and bind
 * conf->rp.algo, create one mbuf pool per socket in use, configure and
 * start every port with a role (promiscuous where supported; RX is not
 * drained), choose each port's clock, create the flow tables, pacers and
 * inter-lcore rings.  The reason for a failure is logged (log type
 * pcc.engine).
 *
 * @return the engine, or NULL with rte_errno set: EINVAL bad conf,
 *   ENOTSUP a port cannot do what conf asks, ENOMEM, or a PMD's error.
 */
struct pcc_engine *pcc_engine_create(const struct pcc_engine_conf *conf);

/** Launch the worker loop on every worker lcore that owns RX queues. */
int pcc_engine_start(struct pcc_engine *e);

/**
 * Called by pcc_engine_main_loop(): return 0 to go on, > 0 to stop the
 * engine, < 0 to leave the main loop with the engine running (the main
 * lcore's share, when it polls, waits for the next call).
 */
typedef int (*pcc_engine_tick_t)(void *arg);

/**
 * Run the main lcore's share until the engine stops or tick says to
 * leave: the worker loop when the main lcore owns RX queues, else sleep.
 * tick (may be NULL) is called about every tick_us microseconds (see
 * pcc_engine_tick_t).  Returns 0.
 */
int pcc_engine_main_loop(struct pcc_engine *e, pcc_engine_tick_t tick, void *arg, uint32_t tick_us);

/** Ask every loop to return.  Async-signal-safe. */
void pcc_engine_stop(struct pcc_engine *e);

/** Has pcc_engine_stop() asked the lcores to return (or e is NULL)?  The
 *  lcores may still be finishing their round. */
bool pcc_engine_stopping(const struct pcc_engine *e);

/**
 * Pause (true) or resume the port: while paused its RX queues are not
 * polled and its generator, pacer and flow housekeeping do not run (a
 * stopped context's port, lib/host); what waits in its queues is taken
 * when it resumes.  Any thread, any time.  0 or -ENOENT (no role).
 */
int pcc_engine_port_pause(struct pcc_engine *e, uint16_t port_id, bool pause);
/** 1 when paused, 0 when not, -ENOENT (no role). */
int pcc_engine_port_paused(const struct pcc_engine *e, uint16_t port_id);

/**
 * Poll hook: called by the polling lcore once per poll round, after the
 * round (RX, generator, pacer, housekeeping).  idle_until_ns is
 * PCC_ENGINE_POLL_BUSY when the round did work or something is due at
 * once; else the engine has nothing to do, unless a packet arrives,
 * before idle_until_ns (port clock; UINT64_MAX: nothing scheduled): the
 * earliest of the pacers' next departure, the generator's next packet or
 * flow start, the TX-coalescing flush, flow timers and flow aging.  A
 * simulator uses it to step between polls and to skip idle time.  Return
 * non-zero to stop the engine.
 */
typedef int (*pcc_engine_poll_hook_t)(void *arg, uint64_t idle_until_ns);

/** idle_until_ns of a round that did work. */
#define PCC_ENGINE_POLL_BUSY 0

/**
 * Install fn (NULL removes it) before pcc_engine_start().  Only for an
 * engine polled by one lcore (the deadline covers that lcore's work):
 * -ENOTSUP otherwise, -EBUSY once started, -EINVAL for a NULL engine.
 */
int pcc_engine_set_poll_hook(struct pcc_engine *e, pcc_engine_poll_hook_t fn, void *arg);

/**
 * What a layer above the engine runs on its workers (lib/host registers
 * its fault guard and mailbox polling here; the engine knows nothing of
 * it).  Every member may be NULL.
 */
struct pcc_engine_hooks {
	/**
	 * Run a polling lcore's loop: called on that lcore (workers and the
	 * main lcore when it polls); must call loop(loop_arg) and return its
	 * result, and may wrap it (signal stack, fault guard).  A hook that
	 * cannot run the loop any more (a fault it caught) returns a
	 * negative errno after calling pcc_engine_stop().
	 */
	int (*run)(void *arg, unsigned int lcore_id, int (*loop)(void *loop_arg), void *loop_arg);
	/** Once per poll round on every polling lcore: the work it did (a
	 *  non-zero count makes the round busy). */
	unsigned int (*round)(void *arg);
	void *arg;
};

/**
 * Install hooks (copied; NULL removes them) before pcc_engine_start().
 * 0, -EINVAL (NULL engine), -EBUSY (running).
 */
int pcc_engine_set_hooks(struct pcc_engine *e, const struct pcc_engine_hooks *hooks);

/**
 * The deadline a poll hook would get now (PCC_ENGINE_POLL_BUSY if
 * something is due), computed from lcore_id's state; for tests and
 * diagnostics, from the polling lcore or with the engine stopped.
 */
uint64_t pcc_engine_idle_deadline(const struct pcc_engine *e, unsigned int lcore_id);

/** Wait for the worker lcores to return (rte_eal_mp_wait_lcore()). */
void pcc_engine_wait(struct pcc_engine *e);

/** Stop and close the ports, free pools and memory.  NULL is allowed. */
void pcc_engine_destroy(struct pcc_engine *e);

/**
 * The engine's copy of its configuration (pointers into the engine;
 * strings and per-port pointers it resolved are cleared: use the getters
 * for those).  NULL for NULL.
 */
const struct pcc_engine_conf *pcc_engine_conf_get(const struct pcc_engine *e);
/** Name of the pacer backend the RP ports use ("wheel", "txpp", "mtr"). */
const char *pcc_engine_pacer_name(const struct pcc_engine *e);

/** Rank of a polling lcore (its lib/dev thread rank), or -ENOENT. */
int pcc_engine_lcore_rank(const struct pcc_engine *e, unsigned int lcore_id);
/** 1 when lcore_id polls an RX queue of port_id, 0 when not, -ENOENT. */
int pcc_engine_lcore_polls_port(
		const struct pcc_engine *e, unsigned int lcore_id, uint16_t port_id);

/** TX queue that lcore_id uses on port_id, or -ENOENT. */
int pcc_engine_tx_queue(const struct pcc_engine *e, uint16_t port_id, unsigned int lcore_id);

/** TX queues configured on port_id, or -ENOENT if the port has no role. */
int pcc_engine_port_nb_txq(const struct pcc_engine *e, uint16_t port_id);

/* ---- Clock ------------------------------------------------------------ */

/** A port's time source: returns nanoseconds (monotonic). */
typedef uint64_t (*pcc_engine_clock_fn)(void *arg);

/**
 * Register fn as the time source of port_id (the simulator registers its
 * virtual time), or remove it with fn NULL.  Takes effect at the next
 * pcc_engine_create(); a port with a hardware RX timestamp or
 * rte_eth_read_clock() uses those first (doc/engine.md, "Clock").
 * 0 or -EINVAL (bad port id).
 */
int pcc_engine_port_clock_register(uint16_t port_id, pcc_engine_clock_fn fn, void *arg);

/** Clock sources, in the order the engine tries them. */
enum pcc_engine_clock_src {
	PCC_ENGINE_CLOCK_HW_RX_TS = 0, /**< RX timestamp offload (+ read_clock) */
	PCC_ENGINE_CLOCK_READ_CLOCK,   /**< rte_eth_read_clock() */
	PCC_ENGINE_CLOCK_REGISTERED,   /**< pcc_engine_port_clock_register() */
	PCC_ENGINE_CLOCK_TSC,          /**< rte_rdtsc() */
};

/** Name of a clock source ("hw-rx-timestamp", "read-clock", ...). */
const char *pcc_engine_clock_src_name(enum pcc_engine_clock_src src);

/** Source port_id uses, or -ENOENT. */
int pcc_engine_port_clock_src(const struct pcc_engine *e, uint16_t port_id);

/** Current time of port_id's clock, ns; 0 if the port has no role. */
uint64_t pcc_engine_port_now(const struct pcc_engine *e, uint16_t port_id);

/* ---- Algorithms ------------------------------------------------------- */

/**
 * Set a parameter by name on the slot new flows of every RP port use
 * (slot 0 with conf.rp.algo, else 0xF).  0 or the first negative errno of
 * pcc_dev_param_set_str() (-ENOENT, -EINVAL, -ERANGE, -EPERM).
 */
int pcc_engine_algo_param_set(struct pcc_engine *e, const char *name, const char *value);

/**
 * lib/dev logical port of port_id (its index among the RP ports) and the
 * slot its new flows get now.  0, or -ENOENT if the port has no RP role.
 */
int pcc_engine_port_dev(
		const struct pcc_engine *e, uint16_t port_id, uint8_t *dev_port, uint8_t *slot);

/** Line rate of port_id, bit/s (conf.rp.line_rate_gbps, link, or 100G). */
uint64_t pcc_engine_port_line_rate(const struct pcc_engine *e, uint16_t port_id);

/**
 * How CC packets of a port reach their flow's owner (doc/engine.md,
 * "Steering").  A QP flow's owner is chosen by its QPN's low byte.
 */
enum pcc_engine_steer {
	PCC_ENGINE_STEER_NONE = 0,     /**< one lcore polls the port: nothing to steer */
	PCC_ENGINE_STEER_FLOW = 1,     /**< rte_flow rules on the BTH DestQP send each
	                                *   CC packet to its owner's RX queue */
	PCC_ENGINE_STEER_HANDOVER = 2, /**< the PMD cannot: an event received by
	                                *   another lcore is handed to the owner */
};

/** Steering of port_id (enum pcc_engine_steer), or -ENOENT. */
int pcc_engine_port_steer(const struct pcc_engine *e, uint16_t port_id);

/** "none", "flow" or "handover"; NULL for another value. */
const char *pcc_engine_steer_name(int steer);

/**
 * RX queue of port_id polled by the owner of QP flow qpn: where the port's
 * steering rules deliver that QP's CC packets.  A peer that chooses the
 * queue itself (a ring pair's other side, a simulator) steers as the NIC
 * would by sending there.  -ENOENT if no lcore polls the port.
 */
int pcc_engine_steer_rxq(const struct pcc_engine *e, uint16_t port_id, uint32_t qpn);

/** Algorithm context bytes reserved per flow. */
uint32_t pcc_engine_flow_ctx_size(const struct pcc_engine *e);

/* ---- Statistics ---------------------------------------------------- */

/**
 * The engine's per-port counters, declared once: X(name, description).
 * struct pcc_engine_port_stats has one uint64_t field of each name, and
 * pcc_engine_port_ctr_at() lists them for telemetry, the console and the
 * statistics (doc/engine.md, "Every frame counted").
 */
#define PCC_ENGINE_PORT_CTRS(X)                                                  \
	X(rx_pkts, "packets received by the engine")                             \
	X(rx_bytes, "bytes received by the engine")                              \
	X(ce_rx, "NP: RoCEv2 data with ECN CE")                                  \
	X(cnp_tx, "NP: CNPs built")                                              \
	X(gen_pkts, "RP: generated packets transmitted")                         \
	X(gen_bytes, "RP: generated bytes transmitted")                          \
	X(gen_ce, "RP: of gen_pkts, sent with ECN CE")                           \
	X(tx_pkts, "all packets transmitted by the engine")                      \
	X(tx_bytes, "all bytes transmitted by the engine")                       \
	X(tx_drop, "packets rte_eth_tx_burst() did not take (freed)")            \
	X(nombuf, "mbuf allocation failures")                                    \
	X(build_err, "packets that could not be built (mbuf too small)")         \
	X(ev_masked, "RP: events the slot's disable mask dropped")               \
	X(ev_err, "RP: pcc_dev_dispatch() errors (unbound slot)")                \
	X(rp_no_flow, "RP: CC packets for no known flow (their events dropped)") \
	X(nack_other, "RP: NAKs with a fatal code (no event)")                   \
	X(probe_tx, "RP: RTT probe requests sent")                               \
	X(probe_wait, "RP: probe requests that waited for the flow's next data") \
	X(probe_bad, "RP: probe responses that did not decode (dropped)")        \
	X(probe_no_flow, "RP: probes asked for a flow that cannot be probed")    \
	X(rate_updates, "RP: pacer rate changes")                                \
	X(window_stalls, "RP: generator rounds a flow's window stopped")         \
	X(xring_drop, "RP: event records lost to a full inter-lcore ring")       \
	X(xring_wait, "RP: RX bursts deferred, a hand-over ring lacked room")    \
	X(pacer_drop, "RP: packets the pacer refused or dropped")                \
	X(fwd_rx, "forward mode, host side: packets received to forward")        \
	X(fwd_paced, "forward mode: of fwd_rx, sent through a flow's pacer")     \
	X(fwd_unpaced, "forward mode: of fwd_rx, no flow (non-IP, table full)")  \
	X(fwd_back, "forward mode, wire side: non-CC packets sent to the host")

/**
 * What became of a received frame.  Every frame the engine receives ends
 * in exactly one of these or, malformed, in one parse_err[] reason:
 *
 *   rx_pkts == pcc_engine_parse_drops() + sum of rx_fate[]
 *
 * (pcc_engine_rx_unaccounted() is the difference; 0 whenever the lcores
 * are between bursts).  X(ID, name, description).
 */
#define PCC_ENGINE_RX_FATES(X)                                                                     \
	X(CC_EVENT, "cc_event", "RP: CNP, ACK or NAK turned into an event for its flow's owner")   \
	X(RTT_EVENT, "rtt_event", "RP: probe response (CCMAD, IFA) turned into an RTT event")      \
	X(PROBE_RESP_BAD, "probe_resp_bad", "RP: probe response that did not decode")              \
	X(ICRC_CNP, "icrc_bad_cnp", "CNP whose ICRC did not verify (dropped)")                     \
	X(ICRC_ACK, "icrc_bad_ack", "ACK whose ICRC did not verify (dropped)")                     \
	X(ICRC_NAK, "icrc_bad_nak", "NAK whose ICRC did not verify (dropped)")                     \
	X(ICRC_PROBE_RESP, "icrc_bad_probe_resp",                                                  \
			"RP: CCMAD probe response whose ICRC did not verify (dropped)")            \
	X(ICRC_PROBE_REQ, "icrc_bad_probe_req",                                                    \
			"NP: CCMAD probe request whose ICRC did not verify (not answered)")        \
	X(ICRC_DATA, "icrc_bad_data", "NP: CE-marked data whose ICRC did not verify (no CNP)")     \
	X(NP_CNP, "np_cnp", "NP: CE-marked data answered with a CNP")                              \
	X(NP_CNP_SUPPRESSED, "np_cnp_suppressed",                                                  \
			"NP: CE-marked data without a CNP (within the CNP gap, or CNPs off)")      \
	X(NP_DATA, "np_data", "NP: data without CE (nothing to answer)")                           \
	X(NP_PROBE_ANSWERED, "np_probe_answered", "NP: probe request answered")                    \
	X(NP_PROBE_DROPPED, "np_probe_dropped",                                                    \
			"NP: probe request not answered: undecodable, hardware-NP drop, "          \
			"handler error")                                                           \
	X(NP_IFA_OTHER, "np_ifa_other",                                                            \
			"NP: IFA packet that is no probe request of this NP (GNS ignored or not "  \
			"selected, telemetry on other traffic), no CNP")                           \
	X(NP_LEARN, "np_learn", "NP: ACK or NAK on an NP-only port (sender QPNs learned)")         \
	X(NP_TX_ERR, "np_tx_err", "NP: answer or CNP not built or not sent (no mbuf, burst full)") \
	X(FWD_HOST, "fwd_host", "forward mode, host side: handed to the forwarder")                \
	X(FWD_BACK, "fwd_back", "forward mode, wire side: not a CC packet, back to the host")      \
	X(NOT_MINE, "not_mine",                                                                    \
			"well formed, for no role of the port (data on an RP port, non-RoCE "      \
			"traffic, an IFA packet that is no answer of ours on an RP-only port)")

enum pcc_engine_rx_fate {
#define PCC_ENGINE_FATE_ENUM(id, name, desc) PCC_ENGINE_FATE_##id,
	PCC_ENGINE_RX_FATES(PCC_ENGINE_FATE_ENUM)
#undef PCC_ENGINE_FATE_ENUM
	PCC_ENGINE_FATE_MAX
};

/** Engine counters of one port (summed over lcores); all uint64_t. */
struct pcc_engine_port_stats {
#define PCC_ENGINE_PORT_CTR_FIELD(name, desc) uint64_t name;
	PCC_ENGINE_PORT_CTRS(PCC_ENGINE_PORT_CTR_FIELD)
#undef PCC_ENGINE_PORT_CTR_FIELD
	uint64_t rx_kind[PCC_PKT_KIND_MAX]; /**< parsed packets by kind */
	/** Packets dropped because pcc_parse_mbuf() failed, by -error code */
	uint64_t parse_err[PCC_ENGINE_NB_PARSE_ERR];
	uint64_t ev[PCC_ENGINE_NB_EV];         /**< RP events dispatched, by lib/dev type */
	uint64_t rx_fate[PCC_ENGINE_FATE_MAX]; /**< what became of received frames */
};

/** One scalar counter of struct pcc_engine_port_stats. */
struct pcc_engine_ctr_info {
	const char *name;
	const char *desc;
	uint32_t offset; /**< of its uint64_t in the struct */
};

/** The i-th scalar port counter (PCC_ENGINE_PORT_CTRS), NULL past the end. */
const struct pcc_engine_ctr_info *pcc_engine_port_ctr_at(unsigned int i);

/** Name ("cc_event", ...) and description of an RX fate; NULL if none. */
const char *pcc_engine_rx_fate_name(unsigned int fate);
const char *pcc_engine_rx_fate_desc(unsigned int fate);

/**
 * rx_pkts - parse drops - sum of rx_fate[]: frames received and not (yet)
 * accounted for.  0 for a port whose lcores are between bursts (stopped,
 * or idle); a snapshot taken while a burst is being handled may see its
 * frames in rx_pkts first or last.
 */
int64_t pcc_engine_rx_unaccounted(const struct pcc_engine_port_stats *st);

/** Counters of one polling lcore. */
struct pcc_engine_lcore_stats {
	uint64_t polls;      /**< rounds over the lcore's RX queues */
	uint64_t busy_polls; /**< rounds that received or sent packets */
	uint64_t rx_pkts;
	uint64_t tx_pkts;
	uint64_t tx_drop;
	uint64_t parse_drop;
	uint64_t nombuf;
	/* flow table */
	uint64_t flows;             /**< flows in the table now */
	uint64_t flows_cap;         /**< capacity of the lcore's table */
	uint64_t flows_added;       /**< flows created */
	uint64_t flows_evicted;     /**< removed to make room (table full) */
	uint64_t flows_aged;        /**< removed after conf.flow.idle_ms idle */
	uint64_t flows_refused;     /**< not created (table full, refuse policy) */
	uint64_t probe_custom_full; /**< flows' own probe custom headers not kept
	                             *   (ENG_PCUST_MAX flows have one) */
	uint64_t xring_in;          /**< events received from other lcores */
	uint64_t xring_out;         /**< events sent to other lcores */
	uint64_t timer_events;      /**< timer events dispatched */
	uint64_t timer_late_max;    /**< worst lateness of a timer event, ns */
};

/** Sum of parse_err[] (packets dropped as malformed). */
uint64_t pcc_engine_parse_drops(const struct pcc_engine_port_stats *st);

/** Roles of port_id in e (0 if unused). */
uint8_t pcc_engine_port_roles(const struct pcc_engine *e, uint16_t port_id);

/**
 * Look at the link of every RP port (control thread, e.g. periodically):
 * for each whose state or speed changed since the last look (or since
 * pcc_engine_start(), which also calls the algorithms once per port), run
 * the algorithms' port_info_changed on its logical port (DOCA's
 * doca_pcc_dev_user_port_info_changed()).  The line rate the pacer and the
 * algorithms use is the one fixed at creation.  Returns the ports that
 * changed, -EINVAL.
 */
int pcc_engine_port_info_poll(struct pcc_engine *e);

/** Counters of port_id; -ENOENT if it has no role. */
int pcc_engine_port_stats_get(
		const struct pcc_engine *e, uint16_t port_id, struct pcc_engine_port_stats *st);

/**
 * Progress of lcore_id: *beat counts its poll rounds (and the rounds of
 * the drain at a stop), *in_loop says it is inside its poll loop.  A
 * watchdog (lib/host) takes an lcore whose beat does not move while in
 * its loop for hung.  0, -ENOENT if it polls no queue.
 */
int pcc_engine_lcore_progress(
		const struct pcc_engine *e, unsigned int lcore_id, uint64_t *beat, bool *in_loop);

/** Counters of lcore_id; -ENOENT if it polls no queue. */
int pcc_engine_lcore_stats_get(const struct pcc_engine *e, unsigned int lcore_id,
		struct pcc_engine_lcore_stats *st);

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

/* ---- Notification point: counters and capabilities ------------------------ */

/** NP counters of one port (summed over lcores); all uint64_t. */
struct pcc_engine_np_stats {
	uint64_t probe_req;      /**< probe requests received, all formats */
	uint64_t probe_sw;       /**< answered by the software handler */
	uint64_t probe_hw;       /**< answered as the hardware-NP model */
	uint64_t probe_hw_drop;  /**< hardware-NP requests dropped (hw_probes drop) */
	uint64_t probe_ccmad;    /**< answered, by format: CCMAD ... */
	uint64_t probe_ifa1;     /**< ... IFA1 */
	uint64_t probe_ifa2;     /**< ... IFA2 */
	uint64_t probe_bad;      /**< requests that did not decode (dropped) */
	uint64_t handler_err;    /**< the user handler failed: no response */
	uint64_t no_handler;     /**< software answers without a user handler */
	uint64_t ifa2_unmatched; /**< IFA2 packets the GNS select mask/value did not select */
	uint64_t ifa2_ignored;   /**< IFA2 packets the GNS ignore mask/value matched */
	uint64_t ifa_other;      /**< IFA packets holding no probe request (consumed) */
	uint64_t ce_rx;          /**< RoCEv2 data with ECN CE (marks included) */
	uint64_t ce_marked;      /**< of them: marked by the mark_ce_ppm knob */
	uint64_t cnp_tx;         /**< CNPs built */
	uint64_t cnp_gap;        /**< CNPs suppressed by the per-QP gap */
	uint64_t cnp_off;        /**< CE-marked data while CNPs are off */
	uint64_t sqpn_map;       /**< CNPs whose DestQP came from the static map */
	uint64_t sqpn_learned;   /**< ... from the learned table */
	uint64_t sqpn_offset;    /**< ... from the offset rule */
	uint64_t learned;        /**< learned-table writes (a new or changed peer QPN) */
	uint64_t qp_replaced;    /**< CNP-gap entries that displaced another QP */
	uint64_t tx_err;         /**< answers not built (no mbuf, build error) */
};

/**
 * Change the NP settings of port_id (conf.port[].np; the classifier's
 * fields are ignored) while the lcores are not running: checked as
 * pcc_engine_create() checks them (-EINVAL), -EBUSY while running,
 * -ENOENT without the NP role.  The sender-QPN map is copied.
 */
int pcc_engine_port_np_conf_set(
		struct pcc_engine *e, uint16_t port_id, const struct pcc_engine_np_conf *conf);
/** The NP settings port_id uses (defaults resolved as given); 0, -ENOENT. */
int pcc_engine_port_np_conf_get(
		const struct pcc_engine *e, uint16_t port_id, struct pcc_engine_np_conf *conf);

/** NP counters of port_id; -ENOENT if it has no NP role. */
int pcc_engine_np_stats_get(
		const struct pcc_engine *e, uint16_t port_id, struct pcc_engine_np_stats *st);

/** What the NP runner (and a port) can do. */
struct pcc_engine_np_caps {
	uint8_t resp_user_max;     /**< user data bytes per response (12) */
	uint8_t resp_ts_size_max;  /**< response timestamp bits (32) */
	uint8_t resp_ts_res_max;   /**< resolution shift (63) */
	uint8_t probe_slots;       /**< PCC_ENGINE_PROBE_SLOTS */
	uint16_t probe_custom_max; /**< custom header bytes (64) */
	uint16_t probe_mad_len;    /**< probe MAD bytes (256) */
	uint32_t probe_formats;    /**< bit per enum pcc_engine_probe_fmt */
	bool ts_realtime;          /**< PCC_ENGINE_NP_TS_REALTIME works here */
	bool hw_np_model;          /**< requests for the hardware-NP model answered */
	/* of the port (0 / false when e is NULL) */
	bool hw_rx_ts;        /**< receive times are hardware RX timestamps */
	uint8_t clock_src;    /**< enum pcc_engine_clock_src of the port */
	uint32_t qp_table;    /**< entries of the NP QP tables */
	uint32_t ifa2_proto;  /**< IFA2 IP protocol recognised */
	uint64_t ifa1_marker; /**< IFA1 marker recognised */
};

/**
 * Capabilities of the NP runner, and of port_id in e when e is not NULL.
 * 0, -EINVAL (NULL caps), -ENOENT (port without the NP role).
 */
int pcc_engine_np_caps_get(
		const struct pcc_engine *e, uint16_t port_id, struct pcc_engine_np_caps *caps);

#ifdef __cplusplus
}
#endif

#endif /* PCC_ENGINE_H */
