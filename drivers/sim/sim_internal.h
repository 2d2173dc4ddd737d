/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef SIM_INTERNAL_H
#define SIM_INTERNAL_H

/*
 * Simulator internals, shared by the files of drivers/sim and by the unit
 * tests (which link the static library).  Nothing here is installed.
 */

#include <assert.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_log.h>

#include "pcc_proto.h"
#include "pcc_sim.h"

extern int pcc_sim_logtype;
#define SIM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pcc_sim_logtype, "pcc.sim: " fmt "\n", ##__VA_ARGS__)

#define SIM_NONE UINT32_MAX
#define SIM_NS_PER_S 1000000000ull

/* ---- Scenario (sim_scenario.c) ------------------------------------------ */

enum sim_topo_type {
	SIM_TOPO_DUMBBELL = 0,
	SIM_TOPO_INCAST = 1,
	SIM_TOPO_LEAF_SPINE = 2,
};

enum sim_ecn_mode {
	SIM_ECN_RED = 0,
	SIM_ECN_STEP = 1,
	SIM_ECN_OFF = 2,
};

enum sim_np {
	SIM_NP_HW = 0,
	SIM_NP_ENGINE = 1,
};

/* What a receiver with the engine's NP hands to the engine port. */
enum sim_np_rx {
	SIM_NP_RX_CC = 0,  /* CE-marked data, probe requests, IFA */
	SIM_NP_RX_ALL = 1, /* every data packet as well */
};

struct sim_link_conf {
	uint64_t rate_bps;
	uint64_t delay_ns;
};

struct sim_topo_conf {
	uint8_t type; /* enum sim_topo_type */
	uint32_t senders;
	uint32_t receivers;
	uint32_t leaves;
	uint32_t spines;
	uint32_t hosts_per_leaf;
	struct sim_link_conf host_link;
	struct sim_link_conf bottleneck; /* dumbbell: sw0 <-> sw1 */
	struct sim_link_conf fabric;     /* leaf-spine: leaf <-> spine */
};

struct sim_ecn_conf {
	uint8_t mode;  /* enum sim_ecn_mode */
	uint64_t kmin; /* bytes; 0 = per link speed (REFERENCE §3) */
	uint64_t kmax;
	double pmax;
	uint64_t k; /* step threshold; 0 = per link speed */
};

/* Per-hop layout of the IFA2 metadata a switch pushes (doc/wire.md 8.3). */
enum sim_ifa2_profile {
	SIM_IFA2_PROFILE_DPDK_PCC = 0, /* 8.3: queue bytes and cells in the profile bytes */
	SIM_IFA2_PROFILE_DOCA = 1,     /* 8.3.1: the vendor layout DOCA's sample parses */
};
#define SIM_IFA2_PROFILE_UNSET 0xFF /* a switch without its own: switch.ifa2_profile */

/* Most switches of a topology (leaf-spine: 64 leaves + 64 spines). */
#define SIM_SWITCHES_MAX 128

struct sim_switch_conf {
	uint64_t buffer;      /* shared buffer per switch, bytes */
	uint64_t port_buffer; /* per-port cap, bytes; 0 = none */
	struct sim_ecn_conf ecn;
	bool int_enabled;
	bool ifa2;
	uint8_t ifa2_proto;
	uint8_t ifa2_profile;                    /* enum sim_ifa2_profile, every switch's */
	uint8_t ifa2_profiles[SIM_SWITCHES_MAX]; /* per switch index, or _UNSET */
};

#define SIM_MAILBOX_MAX 256 /* bytes of hosts.np_mailbox */
#define SIM_PLUGINS_MAX 8   /* entries of plugins: */

struct sim_host_conf {
	uint8_t np;    /* enum sim_np */
	uint8_t np_rx; /* enum sim_np_rx */
	uint32_t ack_every;
	uint64_t ack_timeout_ns;
	uint64_t cnp_gap_ns;
	bool cnp_gap_set; /* given in the scenario (or an override) */
	uint8_t cnp_dscp;
	uint64_t np_turnaround_ns;
	uint8_t probe_ts_size;
	uint8_t probe_ts_shift;
	char np_app[PATH_MAX];               /* engine NP: a plug-in's NP handler */
	uint8_t np_mailbox[SIM_MAILBOX_MAX]; /* sent to its NP mailbox at start */
	uint16_t np_mailbox_len;
};

struct sim_flow_conf {
	uint16_t src;
	uint16_t dst;
	uint32_t qpn;     /* 0 = assigned */
	uint32_t dst_qpn; /* 0 = qpn */
	uint64_t size;    /* 0 = infinite */
	uint64_t start_ns;
	uint64_t rate_bps; /* 0 = source link rate */
	uint32_t payload;
	uint8_t slot;
	uint8_t source; /* enum pcc_sim_flow_source */
	uint32_t line;  /* where it was defined (1-based) */
};

struct sim_algo_conf {
	uint8_t slot;
	char name[PCC_SIM_NAME_LEN];
	char profile[PCC_SIM_NAME_LEN]; /* "" = the algorithm's default */
	uint32_t nb_params;
	struct pcc_sim_param params[PCC_SIM_ALGO_PARAMS_MAX]; /* strings malloc'd */
};

struct sim_out_conf {
	char dir[PATH_MAX]; /* "" = no output files */
	uint64_t sample_ns;
	double window; /* fraction of the run at its end for fairness etc. */
	bool plots;
	bool progress;
};

struct sim_res_conf {
	uint32_t mbufs;          /* sim mbuf pool (ACKs, CNPs, responses, model data) */
	uint32_t packets;        /* model packet objects */
	uint32_t ring_size;      /* each engine port ring */
	uint16_t tx_queues;      /* TX queues each engine port offers */
	uint16_t hosts_per_port; /* engine-driven hosts sharing one ethdev port */
	uint32_t qpn_base;       /* first assigned QPN */
	bool end_on_completion;
};

#define SIM_HOSTS_MAX 4096
#define SIM_HOSTS_PER_PORT_MAX 64 /* sim.hosts_per_port */
#define SIM_FLOWS_MAX 65536

struct pcc_sim_scenario {
	char name[64];
	char file[PATH_MAX];
	char description[256];
	uint64_t seed;
	uint64_t duration_ns;
	uint64_t quantum_ns;
	uint64_t base_rtt_ns; /* 0 = auto: from the topology */
	struct sim_topo_conf topo;
	struct sim_switch_conf sw;
	struct sim_host_conf host;
	struct sim_res_conf res;
	struct sim_out_conf out;
	struct sim_algo_conf algos[PCC_SIM_SLOTS_MAX];
	uint32_t nb_algos;
	char plugins[SIM_PLUGINS_MAX][PATH_MAX]; /* resolved paths */
	uint32_t nb_plugins;
	struct sim_flow_conf *flows;
	uint32_t nb_flows;
};

/* Host count and name of host i under a topology. */
uint32_t sim_topo_nb_hosts(const struct sim_topo_conf *t);
void sim_topo_host_name(const struct sim_topo_conf *t, uint32_t i, char *buf, size_t len);
/* Switch count and name of switch j (sw0, sw1; leaf<i> then spine<j>). */
uint32_t sim_topo_nb_switches(const struct sim_topo_conf *t);
void sim_topo_switch_name(const struct sim_topo_conf *t, uint32_t j, char *buf, size_t len);
/* The IFA2 profile switch j stamps with. */
uint8_t sim_switch_ifa2_profile(const struct sim_switch_conf *sw, uint32_t j);
/* Deep copy; NULL on ENOMEM. */
struct pcc_sim_scenario *sim_scenario_dup(const struct pcc_sim_scenario *s);
/* Kmin/Kmax (RED) or K (step) for an egress of rate_bps under *e. */
void sim_ecn_thresholds(
		const struct sim_ecn_conf *e, uint64_t rate_bps, uint64_t *kmin, uint64_t *kmax);

/* ---- Random numbers: xoshiro256**, seeded with splitmix64 --------------- */

struct sim_rng {
	uint64_t s[4];
};

static inline uint64_t
sim_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static inline void
sim_rng_seed(struct sim_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = sim_splitmix64(&x);
}

static inline uint64_t
sim_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t
sim_rng_next(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = sim_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = sim_rotl(s[3], 45);
	return res;
}

/* Uniform in [0, 1). */
static inline double
sim_rng_double(struct sim_rng *r)
{
	return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53;
}

/* ---- Model objects (sim_model.c, sim_host.c) ---------------------------- */

/* Model sources build IPv4 frames without VLAN: the BTH is here. */
#define SIM_TMPL_BTH_OFF (PCC_ETH_HDR_LEN + PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN)

#define SIM_PKT_F_ECT 0x01  /* ECN-capable: may be marked */
#define SIM_PKT_F_INT 0x02  /* data with an HPCC INT header at int_off */
#define SIM_PKT_F_IFA2 0x04 /* IFA2: hops pushed at switches */
/* m is of the sim's pool and only the model holds it: sim_pkt_free()
 * frees it late */
#define SIM_PKT_F_OWN 0x08

/*
 * mbufs freed late: sim_pkt_free() prefetches a model frame's mbuf and
 * frees the one it put here SIM_MLATE frees earlier, whose line has
 * arrived by then (at scale the frames that reach their host are out of
 * the caches, and the free's read of the refcount was a miss each).  An
 * allocation from the sim's pool that fails frees them and tries again,
 * so the pool runs out exactly as before.
 */
#define SIM_MLATE 16

/*
 * What the receiver needs of a data frame, from its parse when it entered
 * the fabric: the switches change only its ECN (kept here as they mark)
 * and its INT hops (read from the frame).
 */
struct sim_data_info {
	uint32_t psn;
	uint32_t payload_len;
	uint16_t payload_off;
	uint8_t opcode;
	uint8_t ecn;
	uint8_t dscp;
	uint8_t bth_flags;
	uint8_t ackreq;
};

/* A frame inside the model.  From a mempool; no allocation per packet. */
struct sim_pkt {
	struct sim_pkt *next;
	struct rte_mbuf *m;
	uint64_t t;       /* pipe: arrival at the peer; staging: arrival; delayed: due */
	uint64_t t_in;    /* arrival at the current switch */
	uint32_t len;     /* frame bytes on the wire */
	uint32_t acct;    /* bytes charged to the queue at enqueue */
	uint32_t flow;    /* flow index or SIM_NONE */
	uint32_t hash;    /* 5-tuple hash for ECMP */
	uint16_t src;     /* source host */
	uint16_t dst;     /* destination host */
	uint16_t in_port; /* port number at the current node it arrived on */
	uint16_t l3_off;
	uint16_t int_off;
	uint16_t icrc_off;
	uint8_t kind; /* enum pcc_pkt_kind */
	uint8_t flags;
	struct sim_data_info data; /* kind PCC_PKT_ROCE_DATA */
};

struct sim_fifo {
	struct sim_pkt *head;
	struct sim_pkt *tail;
	uint32_t n;
};

static inline void
sim_fifo_push(struct sim_fifo *f, struct sim_pkt *p)
{
	p->next = NULL;
	if (f->tail == NULL)
		f->head = p;
	else
		f->tail->next = p;
	f->tail = p;
	f->n++;
}

static inline struct sim_pkt *
sim_fifo_pop(struct sim_fifo *f)
{
	struct sim_pkt *p = f->head;

	if (p == NULL)
		return NULL;
	f->head = p->next;
	if (f->head == NULL)
		f->tail = NULL;
	f->n--;
	p->next = NULL;
	return p;
}

/*
 * Time-weighted queue depth histogram: bucket 0 is an empty queue; then
 * 16 linear buckets of 64 bytes below 1 KiB; then 16 buckets per power of
 * two (about 6 % wide).  A percentile is reported as its bucket's upper
 * edge.
 */
#define SIM_HIST_N (1 + 16 + 16 * 40)
unsigned int sim_hist_bucket(uint64_t v);
uint64_t sim_hist_upper(unsigned int b);
uint64_t sim_hist_percentile(const uint64_t *hist, double q);

/*
 * A place in the order of events, for an event pushed later as if it had
 * been pushed now (sim_ev_push_at()).  A renumbering of the sequence (once
 * in 2^40 events) renumbers the ports' places with the events; one kept
 * anywhere else is lost, and its event goes in as if pushed then.
 */
struct sim_ev_place {
	uint64_t seq;
	uint32_t renumbers; /* sim->renumbers when it was kept */
};

/*
 * An egress port: one direction of a link.  Cache-line aligned (sim_model_build()): what its
 * events read and write (enqueue, start, end of transmission, arrival)
 * comes first, in the first four lines; the name and what only marking,
 * telemetry and the outputs use, after.
 */
struct sim_port {
	/* line 0: the queue, the wire, the pipe */
	struct sim_fifo q;   /* egress queue */
	struct sim_pkt *cur; /* on the wire, its end event pending */
	struct sim_fifo pipe;
	uint32_t node;      /* owner */
	uint32_t peer_node; /* where its packets arrive */
	/* line 1 */
	uint64_t rate_bps;
	uint64_t delay_ns;
	uint64_t rem; /* serialization time carry, units of 1/rate_bps s */
	uint64_t q_bytes;
	uint64_t q_max;
	uint64_t smp_qmax;
	uint64_t enq_pkts;
	uint64_t enq_bytes;
	/* line 2 */
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t busy_ns;
	uint64_t hist_t;
	uint64_t *hist; /* SIM_HIST_N, switch ports only */
	uint32_t rev;   /* the port of the other direction */
	uint16_t local; /* port number on the owner */
	bool sw;        /* a switch egress (a queue) */
	uint8_t ecn_mode;
	int32_t qidx; /* queue index (switch) or -1 */
	int int_code; /* HPCC INT line rate code or -1 */
	/* line 3: marking (switch egress) */
	uint64_t kmin;
	uint64_t kmax;
	double pmax;
	struct sim_rng rng;
	int ifa_speed; /* IFA2 port speed code or 15 */
	/* counters */
	uint64_t drops;
	uint64_t drop_bytes;
	uint64_t marks;
	uint64_t int_hops;
	uint64_t ifa_hops;
	/* sampling */
	uint64_t smp_tx;
	uint64_t smp_marks;
	uint64_t smp_drops;
	/* window */
	uint64_t win_tx_bytes;
	/*
	 * A frame that left an otherwise empty queue goes into the pipe when
	 * it starts, with no end-of-transmission event: the line is busy
	 * until free_t, and its tx counts wait for sim_port_settle().
	 */
	uint64_t free_t;
	struct sim_ev_place done_place; /* where its end event would have gone */
	uint32_t lazy_len;              /* its bytes until settled (0: none) */
	bool tx_ev;                     /* an end-of-transmission event is pending */
	char name[PCC_SIM_NAME_LEN * 2];
} __rte_cache_aligned;

static_assert(offsetof(struct sim_port, rate_bps) == 64 &&
				offsetof(struct sim_port, tx_pkts) == 128,
		"a port's packet path in its first lines");

struct sim_node {
	char name[PCC_SIM_NAME_LEN];
	bool sw;
	uint32_t port0; /* ports port0 .. port0 + nports - 1 */
	uint32_t nports;
	uint32_t host;        /* host index, or SIM_NONE for a switch */
	uint32_t salt;        /* ECMP hash salt */
	uint8_t ifa2_profile; /* enum sim_ifa2_profile */
	uint64_t buf_size;
	uint64_t buf_used;
	uint64_t buf_max;
	uint64_t port_cap;
	uint64_t drops;
};

/*
 * A host.  Cache-line aligned (sim_model_build()): the first line is what
 * every step reads of every engine port's host (its rings and staging)
 * and its packets' path; names after.
 */
struct sim_host {
	/* line 0 */
	struct rte_ring *rxr; /* engine RX (the sim enqueues) */
	struct rte_ring *txr; /* engine TX (the sim dequeues) */
	struct sim_fifo rx_stage;
	struct sim_fifo delayed;
	/* line 1 */
	uint32_t node;
	uint32_t port;      /* NIC egress */
	int32_t eth_port;   /* ethdev port id, -1 if none */
	uint32_t eth_lead;  /* host that owns the port's rings (itself if alone) */
	uint16_t eth_share; /* on the lead: hosts on its port (0: no port) */
	uint8_t eth_roles;  /* on the lead: its port's hosts' roles */
	uint8_t roles;
	bool delayed_ev;
	uint64_t backlog_max; /* NIC egress queue, bytes */
	uint64_t from_engine;
	uint64_t to_engine;
	uint32_t ip;
	uint8_t mac[6];
	uint8_t gw_mac[6];
	char name[PCC_SIM_NAME_LEN];
	char dev_name[64];
} __rte_cache_aligned;

static_assert(offsetof(struct sim_host, node) == 64, "a host's rings and staging in line 0");

struct sim_flow_frames;

struct sim_flow {
	struct sim_flow_conf c;
	uint64_t base_rtt_ns; /* data there, ACK back, no queueing */
	uint16_t sport;
	uint32_t back_hash; /* 5-tuple hash of its ACKs and CNPs (receiver to sender) */
	bool int_hdr;
	struct pcc_sim_flow_stats st;
	/* receiver */
	bool psn_valid;
	uint32_t exp_psn;
	uint32_t last_psn;
	uint32_t msn;
	uint32_t unacked;
	bool ack_timer;        /* an SIM_EV_ACK_TIMER is pending */
	uint64_t ack_first_ns; /* arrival of the oldest unacknowledged packet */
	uint8_t dscp;
	bool has_int;
	uint8_t int_echo[PCC_INT_HDR_LEN];
	bool cnp_any;
	uint64_t last_cnp_ns;
	bool cnp_seen; /* a CNP to the QP was logged (either NP) */
	uint64_t cnp_seen_ns;
	/* model source */
	uint8_t *tmpl; /* a full-payload data frame (BTH at SIM_TMPL_BTH_OFF) */
	uint32_t tmpl_len;
	uint32_t src_psn;
	uint64_t src_sent;
	uint64_t src_rem;
	/* sampling and window */
	uint64_t smp_tx;
	uint64_t smp_rx;
	uint64_t win_rx;
};

enum sim_ev_type {
	SIM_EV_TX_DONE = 0,  /* obj: port */
	SIM_EV_ARRIVE,       /* obj: port (head of its pipe) */
	SIM_EV_HOST_DELAYED, /* obj: host */
	SIM_EV_ACK_TIMER,    /* obj: flow */
	SIM_EV_SRC,          /* obj: flow (model source) */
	SIM_EV_SAMPLE,
	SIM_EV_WINDOW,
};

/* An event of the queue (sim_event.c): its key packs seq, type and obj. */
#define SIM_EV_OBJ_BITS 21 /* port, host or flow index: below SIM_EV_OBJ_MAX */
#define SIM_EV_OBJ_MAX (UINT32_C(1) << SIM_EV_OBJ_BITS)
#define SIM_EV_TYPE_BITS 3
#define SIM_EV_SEQ_SHIFT (SIM_EV_OBJ_BITS + SIM_EV_TYPE_BITS)
#define SIM_EV_SEQ_MAX (UINT64_C(1) << (64 - SIM_EV_SEQ_SHIFT))

struct sim_ev {
	union {
		struct {
			uint64_t key; /* seq << SIM_EV_SEQ_SHIFT | type << SIM_EV_OBJ_BITS | obj */
			uint64_t t;
		};
		unsigned __int128 order; /* t, then key: one comparison (x86-64, LE) */
	};
};

/*
 * The event queue (sim_event.c).  The near events, from lo's nanosecond
 * to SIM_EVQ_NB - 1 ns later (no pending near event is earlier than lo's
 * nanosecond), are in a list per nanosecond (bucket t % SIM_EVQ_NB), in
 * order, with a three-level bitmap of the buckets that have any: a push
 * and a pop do not depend on how many events are pending.  The rest (later
 * ones, and any pushed before lo) are in a binary heap.  The earliest
 * event is the earlier of the first near one and the heap's root.
 */
#define SIM_EVQ_NONE UINT32_MAX
#define SIM_EVQ_NB 65536u /* ns: the link delays, ACK timers, sources' gaps */

struct sim_evn {
	struct sim_ev e;
	uint32_t next; /* the next of its bucket, or of the free list */
	uint32_t last; /* the first of a bucket's: the bucket's last (a
	                * nanosecond's events come in push order: each goes
	                * after it, no walk) */
};

struct sim_evq {
	struct sim_evn *node;           /* [cap] */
	uint32_t *bucket;               /* [SIM_EVQ_NB]: first node, or NONE */
	uint64_t l0[SIM_EVQ_NB / 64];   /* buckets with events */
	uint64_t l1[SIM_EVQ_NB / 4096]; /* l0 words not 0 */
	uint64_t l2;                    /* l1 words not 0 */
	uint64_t lo;
	uint32_t free;
	uint32_t near_n;
	struct sim_ev *heap; /* [cap] */
	uint32_t heap_n;
	uint32_t cap; /* events pending, at most */
};

struct sim_route {
	uint32_t off;
	uint32_t n;
};

/* Output state (sim_output.c). */
struct sim_out {
	bool enabled;
	bool has_dfd; /* dfd: the run directory, opened and checked private */
	int dfd;
	FILE *flows_csv;
	FILE *queues_csv;
	FILE *cnps_csv;
	FILE *fair_csv;
	uint64_t last_sample_ns;
	bool window_done;
	uint64_t win_start_ns;
	uint64_t prog_tsc; /* last progress line (TSC: the only wall clock) */
	uint64_t prog_hz;
	uint64_t start_tsc;
	uint64_t steps_at_check;
	bool progress_printed;
	int prog_tty; /* stderr is a terminal: 1, not: 0, unknown: -1 */
};

struct pcc_sim {
	struct pcc_sim_scenario *scn;
	uint32_t inst;
	uint64_t seed;
	uint64_t now; /* atomic: read by pcc_sim_clock() on other lcores */
	uint64_t end;
	uint64_t quantum;
	bool done;
	bool finished;
	bool released;
	uint64_t idle_deadline;
	bool idle_valid;
	/* model */
	struct sim_node *nodes;
	uint32_t nb_nodes;
	struct sim_port *ports;
	uint32_t nb_ports;
	struct sim_host *hosts;
	uint32_t nb_hosts;
	struct sim_flow *flows;
	uint32_t nb_flows;
	struct sim_flow_frames *frames; /* per flow: ACK and CNP templates */
	uint32_t flows_finite_left;     /* finite flows not done; SIM_NONE if any infinite */
	uint32_t *queues;               /* port index of each switch egress */
	uint32_t nb_queues;
	struct sim_route *routes; /* [switch node][dst host] */
	uint32_t *route_ports;
	/* (tag, host, qpn) -> flow */
	uint64_t *map_keys;
	uint32_t *map_vals;
	uint32_t map_mask;
	/* events */
	struct sim_evq evq;
	uint64_t seq;
	uint64_t run_seq;   /* the running event's, UINT64_MAX between events */
	uint32_t renumbers; /* sim_ev_renumber() calls */
	/* pools */
	struct rte_mempool *pkt_pool;
	struct sim_pkt *pkt_free;          /* freed packets, reused first (sim_model.c) */
	struct rte_mbuf *mlate[SIM_MLATE]; /* SIM_PKT_F_OWN mbufs to free */
	uint32_t mlate_i;
	struct rte_mempool *mbuf_pool;
	int ts_off;
	uint64_t ts_flag;
	int depart_off; /* PCC_SIM_TX_DEPART_NAME */
	uint64_t depart_flag;
	struct pcc_parse_opts popts;
	uint32_t mbuf_room;
	/* engine ports, host order */
	uint32_t *eth_hosts;
	uint16_t nb_eth;
	bool has_engine;
	/* service */
	uint32_t service_id;
	bool service;
	/* algorithms */
	struct pcc_sim_algo algos[PCC_SIM_SLOTS_MAX];
	uint32_t nb_algos;
	struct pcc_sim_stats st;
	struct sim_out out;
	char outdir[PATH_MAX];
};

/* Flow map tags. */
#define SIM_MAP_SRC_DQPN 1 /* (source host, DestQP of its data) */
#define SIM_MAP_SRC_QPN 2  /* (source host, its QPN: probe DETH SrcQP) */
#define SIM_MAP_DST_QPN 3  /* (receiver host, sender QPN: DestQP of answers) */
/* (lead of a shared port, a sender QPN); + 1: (lead, a receiver DestQP) */
#define SIM_MAP_PORT_QPN 4

uint32_t sim_map_get(const struct pcc_sim *sim, uint32_t tag, uint32_t host, uint32_t qpn);
int sim_map_put(struct pcc_sim *sim, uint32_t tag, uint32_t host, uint32_t qpn, uint32_t flow);

/* sim_rtt.c: each flow's base RTT from the topology (after the model) */
void sim_base_rtt_init(struct pcc_sim *sim);

/* sim_topo.c */
int sim_model_build(struct pcc_sim *sim);
void sim_model_free(struct pcc_sim *sim);
/* sim_event.c (the loop that runs them: sim_model.c) */
/* Room for cap pending events. */
int sim_ev_init(struct pcc_sim *sim, uint32_t cap);
void sim_ev_fini(struct pcc_sim *sim);
/* Every pending event dropped. */
void sim_ev_clear(struct pcc_sim *sim);
uint32_t sim_ev_count(const struct pcc_sim *sim);
void sim_ev_push(struct pcc_sim *sim, uint64_t t, uint32_t type, uint32_t obj);
void sim_ev_reserve(struct pcc_sim *sim, struct sim_ev_place *pl);
void sim_ev_push_at(struct pcc_sim *sim, uint64_t t, uint32_t type, uint32_t obj,
		const struct sim_ev_place *pl);
/* Whether an event at (t, pl) would have run by now. */
bool sim_ev_place_passed(const struct pcc_sim *sim, uint64_t t, const struct sim_ev_place *pl);
/* The earliest event out (false: none); what sim_run_events() runs next. */
bool sim_ev_pop(struct pcc_sim *sim, uint64_t *t, uint32_t *type, uint32_t *obj);
bool sim_ev_next_time(const struct pcc_sim *sim, uint64_t *t);
/* Pending events renumbered from 0 in their order (the sequence's bits
 * ran out; sim_ev_push() calls it). */
void sim_ev_renumber(struct pcc_sim *sim);
/* sim_model.c */
void sim_run_events(struct pcc_sim *sim, uint64_t until);
void sim_port_send(struct pcc_sim *sim, uint32_t port, struct sim_pkt *pkt);
uint64_t sim_ser_ns(uint64_t bytes, uint64_t rate_bps, uint64_t *rem);
bool sim_red_mark(uint8_t mode, uint64_t q, uint64_t kmin, uint64_t kmax, double pmax,
		struct sim_rng *rng);
uint32_t sim_ecmp_pick(uint32_t hash, uint32_t salt, uint32_t n);
uint32_t sim_tuple_hash(const struct pcc_pkt_info *info, uint16_t sport, uint16_t dport);
void sim_hist_touch(struct pcc_sim *sim, struct sim_port *p);
/* sim_stamp.c */
/* frame[off .. off + n) changed from old[]: update the ICRC at icrc_off */
void sim_icrc_patch(
		uint8_t *frame, uint32_t icrc_off, uint32_t off, const uint8_t *old, uint32_t n);
void sim_stamp_int(struct sim_port *p, struct sim_pkt *pkt, uint64_t now);
void sim_stamp_ifa2(struct pcc_sim *sim, struct sim_port *p, struct sim_pkt *pkt, uint64_t now);
/* sim_model.c */
void sim_pkt_free(struct pcc_sim *sim, struct sim_pkt *pkt);
/* The mbufs sim_pkt_free() keeps to free late, freed; how many. */
unsigned int sim_mbuf_late_flush(struct pcc_sim *sim);
struct sim_pkt *sim_pkt_alloc(struct pcc_sim *sim);

/* What a switch egress knows of a frame it dequeues: an IFA2 hop's input. */
struct sim_ifa2_stamp {
	uint32_t device_id; /* switch node + 1 */
	uint8_t ttl;        /* IP TTL / hop limit of the frame */
	uint8_t congestion; /* 0: q <= Kmin, 1: <= Kmax, 2: above */
	uint8_t speed_code; /* doc/wire.md 8.3 PortSpeed code, 15 = unknown */
	uint64_t rate_bps;  /* egress link */
	uint16_t in_port;
	uint16_t out_port;
	uint64_t rx_ns;    /* arrival at the switch (virtual ns) */
	uint64_t tx_ns;    /* dequeue (virtual ns) */
	uint64_t q_bytes;  /* bytes queued behind the frame */
	uint64_t tx_bytes; /* the egress port's cumulative TX bytes (as INT) */
};
/*
 * The 32-byte hop of st in a profile's layout (enum sim_ifa2_profile),
 * as the struct pcc_ifa2_push_hop() takes: its fields cover all 256 bits,
 * so any layout can be carried by it (doca: built as bytes, then decoded).
 */
void sim_ifa2_hop(uint8_t profile, const struct sim_ifa2_stamp *st, struct pcc_ifa2_hop *hop);

/* sim_host.c */
int sim_host_ingress(struct pcc_sim *sim, uint32_t host, struct rte_mbuf *m);
/* A frame the engine sent on the port of `lead`: sim_host_ingress() at
 * the host of the port it comes from (by its source, when shared). */
int sim_host_from_engine(struct pcc_sim *sim, uint32_t lead, struct rte_mbuf *m);
/* into host h's NIC at max(now, not_before), as from its engine port */
int sim_host_ingress_at(struct pcc_sim *sim, uint32_t h, struct rte_mbuf *m, uint64_t not_before);
/* a frame the model built at host from for flow fi, sent after delay;
 * hash: its 5-tuple's (sim_l3_hash()) */
void sim_model_tx(struct pcc_sim *sim, uint32_t from, uint32_t to, uint32_t fi, struct rte_mbuf *m,
		uint8_t kind, uint32_t hash, uint64_t delay);
uint32_t sim_l3_hash(const struct pcc_l3_spec *l3);
void sim_l3_between(const struct pcc_sim *sim, uint32_t from, uint32_t to, uint16_t sport,
		uint8_t dscp, uint8_t ecn, struct pcc_l3_spec *l3);
struct rte_mbuf *sim_mbuf_alloc(struct pcc_sim *sim);
/* m's lengths set to len (a builder's result); -1 and m freed when < 0 */
int sim_mbuf_build_done(struct pcc_sim *sim, struct rte_mbuf *m, int len);
/* pkt to host ho's engine port (staged for the next delivery) */
void sim_to_engine(struct pcc_sim *sim, struct sim_host *ho, struct sim_pkt *pkt);
void sim_host_rx(struct pcc_sim *sim, uint32_t host, struct sim_pkt *pkt);
void sim_host_delayed(struct pcc_sim *sim, uint32_t host);
void sim_flow_ack_timer(struct pcc_sim *sim, uint32_t flow);
void sim_flow_src(struct pcc_sim *sim, uint32_t flow);
/* sim_frames.c: the receivers' ACK/NAK and CNP from per-flow templates */
int sim_frames_init(struct pcc_sim *sim); /* after the flows */
void sim_frames_free(struct pcc_sim *sim);
/* flow fi's ACK (NAK) for psn as pcc_roce_build() writes it (the INT
 * header echoed when the flow has one, not in a NAK): its length, or a
 * negative pcc_proto_err */
int sim_ack_build(
		struct pcc_sim *sim, uint32_t fi, bool nak, uint32_t psn, void *buf, uint32_t cap);
/* the hardware NP's CNP to flow fi's QP, as pcc_cnp_build() writes it */
int sim_cnp_build(struct pcc_sim *sim, uint32_t fi, void *buf, uint32_t cap);
/* sim_probe.c */
/* The flow of an IFA probe entering at host h, and its destination */
uint32_t sim_ifa_probe_flow(struct pcc_sim *sim, uint32_t h, const struct rte_mbuf *m,
		const struct pcc_pkt_info *info, uint32_t *dst);
/* The hardware NP's answer to a CCMAD probe request */
void sim_hw_probe(struct pcc_sim *sim, uint32_t h, struct sim_pkt *pkt);
/* A probe request asks for the hardware NP (PCC_PROBE_F_HW_NP) */
bool sim_probe_wants_hw(const struct sim_pkt *pkt);
/* IFA arriving at host h */
void sim_rx_ifa(struct pcc_sim *sim, uint32_t h, struct sim_pkt *pkt);
/* pkt's frame to rewrite (pkt->m taken when only the model holds it, else
 * a copy from the sim's pool, the late frees freed first if it is empty);
 * NULL when there is none (pool_empty counted) */
struct rte_mbuf *sim_probe_frame_take(struct pcc_sim *sim, struct sim_pkt *pkt);

/* sim_output.c */
int sim_out_open(struct pcc_sim *sim);
void sim_out_sample(struct pcc_sim *sim);
void sim_out_window(struct pcc_sim *sim);
void sim_out_progress(struct pcc_sim *sim, bool final);
int sim_out_finish(struct pcc_sim *sim, FILE *out);
void sim_out_close(struct pcc_sim *sim);
/* A CNP to flow fi's QP left its NP now (engine: the engine NP's). */
void sim_out_cnp(struct pcc_sim *sim, uint32_t fi, bool engine);

static inline uint64_t
sim_now(const struct pcc_sim *sim)
{
	return __atomic_load_n(&sim->now, __ATOMIC_RELAXED);
}

static inline void
sim_set_now(struct pcc_sim *sim, uint64_t t)
{
	__atomic_store_n(&sim->now, t, __ATOMIC_RELAXED);
}

/*
 * Whether p's frame with no end event has ended: its end event, had it
 * been pushed, would have run by now.
 */
static inline bool
sim_port_lazy_ended(const struct pcc_sim *sim, const struct sim_port *p)
{
	return p->lazy_len != 0 && sim_ev_place_passed(sim, p->free_t, &p->done_place);
}

/* p's frame with no end event, which has ended, into p's tx counts. */
static inline void
sim_port_settle(struct sim_port *p)
{
	p->tx_pkts += p->lazy_len != 0 ? 1 : 0;
	p->tx_bytes += p->lazy_len;
	p->lazy_len = 0;
}

/*
 * Every port's frame whose end event would have run by now (at the same
 * nanosecond: placed before the running event), before the counters are
 * read (samples, windows, results).
 */
void sim_ports_settle(struct pcc_sim *sim);

#endif /* SIM_INTERNAL_H */
