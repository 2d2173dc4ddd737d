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
/** Largest number of generator flow groups (conf.gen.nb_groups): a
 *  simulator scenario's flows, one group each at worst. */
#define PCC_ENGINE_GEN_GROUPS_MAX 65536
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

/** Defined since pcc_engine_port_conf.icrc_hw exists: code built against
 *  older trees (a benchmark's peer build) can test for it. */
#define PCC_ENGINE_PORT_ICRC_HW 1

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
 * Hold (true) or release every port at once: while held, a poll round
 * polls no RX queue or ring between lcores and runs no generator, pacer
 * or flow housekeeping, whatever the ports' pause state; it still runs
 * run-time control, the hooks' round work and the poll hook.  A polling
 * lcore sees it from its next round; from the poll hook, the round after
 * the hook works on the ports resumed before it.  A simulator run holds
 * the engine until all its contexts run, so that no round works on some
 * ports before the others (lib/simrun).  Any thread, any time, before or
 * after pcc_engine_start().  0 or -EINVAL (NULL engine).
 */
int pcc_engine_hold(struct pcc_engine *e, bool hold);

/**
 * Whether a poll round may skip a port's pacer, generator and flow
 * housekeeping while none of them can act before a deadline it computed
 * (the default, on).  What may bring that time closer (an RX event for
 * one of the port's flows, a rate set through pcc_engine_flow_rate_set(),
 * one of its flows evicted from a full table) makes the next round poll
 * them.  In forward mode every port is polled every round.  Off, every
 * round polls every port: the same results, for comparisons (tests,
 * benchmarks).  Any thread, any time; a polling lcore sees it from its
 * next round.  0 or -EINVAL.
 */
int pcc_engine_port_skip(struct pcc_engine *e, bool on);

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

/* statistics, flows: their own headers, part of this API */
#include "pcc_engine_stats.h"
#include "pcc_engine_flow.h"

#endif /* PCC_ENGINE_H */
