/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef ENGINE_INTERNAL_H
#define ENGINE_INTERNAL_H

/*
 * Engine internals shared by engine.c (lifecycle), lcore.c (its lcores,
 * their flow tables, pacers and rings), engine_conf.c (its
 * checks), port.c (ethdev and mempool setup), clock.c (per-port time
 * source: engine_clock.h), flow.c (flow tables: engine_flow.h), rp.c
 * (reaction point: dispatch, results), rp_ev.c (its event records:
 * engine_ev.h) and rp_setup.c (its lib/dev setup), gen.c (generator),
 * fwd.c (forward mode), worker.c (poll loop and RX dispatch), np.c, np_rx.c, np_answer.c and probe.c (notification
 * point, probe formats: engine_np.h, np_internal.h) and stats.c.
 * Design: doc/engine.md.
 */

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

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
#include "pcc_proto_cc.h"

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

/* Count n received frames as ending in fate (enum pcc_engine_rx_fate):
 * every frame ends in exactly one fate or parse error (doc/engine.md,
 * "Every frame counted"). */
static inline void
eng_fate(struct pcc_engine_port_stats *pc, unsigned int fate, uint64_t n)
{
	eng_ctr_add(&pc->rx_fate[fate], n);
}

#define ENG_NONE UINT32_MAX  /* no flow / empty list */
#define ENG_SLOT_ACTIVE 0xFF /* a flow gets its port's active slot */
#define ENG_NO_LPORT 0xFF
#define ENG_NO_DEV_PORT 0xFF

#include "engine_clock.h"
#include "engine_flow.h"
#include "steer.h"

#include "engine_ev.h"

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
#define ENG_PACE_AHEAD_DEFAULT_NS 500u

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

/*
 * A generator flow's last data frame built in full, kept to build the
 * next one like it (gen.c, flow_build()): the same opcode, AckReq,
 * payload length, ECN and DSCP; only the PSN differs, patched with the
 * ICRC (pcc_icrc_patch()), the payload zeroed.
 */
struct eng_gen_tmpl {
	uint16_t hdr_len; /* bytes before the payload; 0: no template */
	uint16_t len;     /* frame bytes, ICRC included */
	uint16_t bth_off; /* the BTH's offset in the frame */
	uint16_t l3_off;  /* the IP header's */
	uint16_t udp_ck;  /* the UDP checksum's offset (IPv6); 0: none (IPv4) */
	uint8_t opcode;
	uint8_t ackreq;
	uint8_t ecn;
	uint8_t dscp;
	uint32_t payload_len;
	uint32_t icrc; /* the frame's, as stored (little-endian) */
	uint8_t hdr[96];
};

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
	struct eng_gen_tmpl tmpl;
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
	bool icrc_hw;     /* conf.port[].icrc_hw: the hardware verified the ICRC */
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
	/* steering (steer.c): owner index and its RX queue by the QPN's low
	 * byte; what was programmed (RP ports with several owners) */
	uint16_t steer_owner[ENG_STEER_BUCKETS];
	uint16_t steer_rxq[ENG_STEER_BUCKETS];
	uint8_t steer_mode; /* enum pcc_engine_steer */
	struct eng_steer_out *steer;
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
	/* nothing of the port's pacer, generator or housekeeping is due
	 * before this port time (worker.c port_wake()); 0: poll them */
	uint64_t wake;
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
	bool icrc_sw; /* verify the ICRC of the CC packets acted on */
	struct rte_mempool *mp;
	struct eng_clock *clk;
	struct eng_lport *lp; /* this lcore on port_id */
};

/*
 * Something may be due on lp sooner than lp->wake said (an event's
 * results applied to one of its flows: a new rate or window, a probe; a
 * rate set by the host; one of its flows evicted for a new one, maybe
 * another port's): its next poll round runs its pacer, generator and
 * housekeeping.  (A coalesced TX event flushed by an RX event needs
 * none: its flow leaves the TX coalescing list, which can only make the
 * port's deadline later.)
 */
static inline void
eng_lport_wake(struct eng_lport *lp)
{
	lp->wake = 0;
}

/* Per-lcore counters besides the per-port ones (all uint64_t). */
struct eng_lcore_ctr {
	uint64_t xring_in;
	uint64_t xring_out;
	uint64_t timer_events;
	uint64_t timer_late_max;
};

/*
 * Hand-over rings (records, or mbufs in forward mode, per lcore pair) are
 * sized from the port's line rate: they hold what the port can carry in
 * minimum-size CC frames (84 wire bytes: 64 + preamble and gap) during
 * ENG_XRING_HOLD_NS, the longest the owner is expected to go without
 * taking its input rings (a poll round under load), rounded up to a power
 * of two, at least ENG_XRING_MIN and 4 bursts, at most ENG_XRING_MAX:
 *
 *   size = pow2(line_bps / (8 * 84) * ENG_XRING_HOLD_NS / 1e9)
 *
 * 100 Gb/s: 2976 -> 4096; 400 Gb/s: 11905 -> 16384.  A full ring is no
 * loss: the lcore defers its next RX burst (xring_wait) until there is
 * room for a whole burst, and the packets wait in the RX queue.
 */
#define ENG_XRING_HOLD_NS 20000u
#define ENG_XRING_CC_WIRE 84u
#define ENG_XRING_MIN 1024u
#define ENG_XRING_MAX 65536u

static inline uint32_t
eng_xring_size(uint64_t line_bps, uint16_t burst)
{
	uint64_t n = line_bps / (8u * ENG_XRING_CC_WIRE) * ENG_XRING_HOLD_NS / NS_PER_S;

	n = RTE_MAX(n, (uint64_t)RTE_MAX(ENG_XRING_MIN, 4u * burst));
	n = rte_align64pow2(n);
	return (uint32_t)RTE_MIN(n, (uint64_t)ENG_XRING_MAX);
}
/* Event records processed together (flows looked up in bulk); at most
 * RTE_HASH_LOOKUP_BULK_MAX. */
#define ENG_RP_EV_BATCH 32

/* A pacer rate to set (eng_lcore.rate_pend). */
struct eng_rate_pend {
	struct pcc_pacer *pacer;
	uint32_t flow;
	uint64_t bps;
};

/* A polling lcore. */
struct eng_lcore {
	/* written by the lcore on every round */
	uint64_t polls;
	uint64_t busy_polls;
	uint64_t port_skips;
	/* rounds of the loop and of the drain at the stop: the watchdog's
	 * sign of progress (pcc_engine_lcore_progress) */
	uint64_t beat;
	uint32_t in_loop; /* inside eng_worker_loop() */
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
	uint16_t nb_xout;
	uint16_t xout_rank[RTE_MAX_LCORE]; /* consumers we have a ring to */
	void *np;                          /* NP runner state (eng_np_init) */
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
	/* pacer rates the events of a batch set (eng_rp_events()), applied
	 * at its end: a flow's pacer state is fetched only when its rate
	 * changed, and those fetches overlap */
	bool rate_defer;
	uint16_t nb_rate_pend;
	struct eng_rate_pend rate_pend[2 * ENG_RP_EV_BATCH];
	/* scratch of one RX burst: packets for the NP or forward mode */
	struct rte_mbuf *burst_pkts[PCC_ENGINE_BURST_MAX];
	struct pcc_pkt_info burst_infos[PCC_ENGINE_BURST_MAX];
} __rte_cache_aligned;

struct pcc_engine {
	uint32_t stop; /* set by pcc_engine_stop() */
	uint32_t held; /* set by pcc_engine_hold(): rounds leave the ports alone */
	uint32_t id;   /* sequence number in the process */
	bool launched;
	bool dev_owned;    /* pcc_dev_init() done by this engine */
	bool no_port_skip; /* pcc_engine_port_skip(e, false) */
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

/*
 * The ICRC of a packet the engine acts on (a CC packet, a probe request,
 * CE-marked data): true when it verifies, or when the port's hardware
 * verified it (conf.port[].icrc_hw).
 */
static inline bool
eng_icrc_ok(const struct eng_rxq *q, const struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	return !q->icrc_sw || pcc_icrc_verify_mbuf(m, info) == 0;
}

/* Is the port at index pidx paused (pcc_engine_port_pause)? */
static inline bool
eng_port_paused(const struct pcc_engine *e, uint16_t pidx)
{
	return __atomic_load_n(&e->ports[pidx].paused, __ATOMIC_RELAXED) != 0;
}

/*
 * Backpressure: room for n in every ring through which lc hands over event
 * records (and forwarded mbufs).  An RX burst of n packets hands over at
 * most n of either, so none is lost: without room the burst waits in the
 * RX queue (xring_wait) while the owners take their rings (every round,
 * also when their own RX waits: no cycle of lcores waits for ever).
 */
static inline bool
eng_xout_room(const struct eng_lcore *lc, unsigned int n)
{
	uint16_t k;

	for (k = 0; k < lc->nb_xout; k++) {
		uint16_t b = lc->xout_rank[k];

		if (rte_ring_free_count(lc->xout[b]) < n ||
				(lc->fout[b] != NULL && rte_ring_free_count(lc->fout[b]) < n))
			return false;
	}
	return true;
}

/* Owner lcore of a 5-tuple flow on port index pidx with hash sig. */
static inline struct eng_lcore *
eng_owner(const struct pcc_engine *e, uint16_t pidx, uint32_t sig)
{
	const struct eng_port *p = &e->ports[pidx];

	return p->owners[((uint64_t)sig * p->nb_owners) >> 32];
}

/* Owner lcore of QP flow qpn on port index pidx: by the QPN's low byte,
 * what the port's steering rules match (steer.c). */
static inline struct eng_lcore *
eng_owner_qp(const struct pcc_engine *e, uint16_t pidx, uint32_t qpn)
{
	const struct eng_port *p = &e->ports[pidx];

	return p->owners[p->steer_owner[qpn & (ENG_STEER_BUCKETS - 1)]];
}

/* Owner lcore of the flow of key (hash sig) on port index pidx. */
static inline struct eng_lcore *
eng_owner_key(const struct pcc_engine *e, uint16_t pidx, const struct pcc_engine_flow_key *key,
		uint32_t sig)
{
	if (key->type == PCC_ENGINE_FLOW_QP)
		return eng_owner_qp(e, pidx, key->qpn);
	return eng_owner(e, pidx, sig);
}

/*
 * Free n > 0 received packets.  When every one is a direct mbuf of one
 * segment, referenced once, from the pool of the first (what a PMD's RX
 * gives), they go back to that pool in one put: rte_pktmbuf_free_bulk()
 * checks and resets each and groups them by pool, which cost more than
 * the rest of a CNP's RX dispatch.  Anything else: rte_pktmbuf_free_bulk().
 */
static inline void
eng_rx_free(struct rte_mbuf **pkts, unsigned int n)
{
	struct rte_mempool *mp = pkts[0]->pool;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];

		if (unlikely(m->pool != mp || m->nb_segs != 1 || rte_mbuf_refcnt_read(m) != 1 ||
				    !RTE_MBUF_DIRECT(m))) {
			rte_pktmbuf_free_bulk(pkts, n);
			return;
		}
	}
	rte_mempool_put_bulk(mp, (void **)pkts, n);
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

/* lcore.c, for pcc_engine_create() and pcc_engine_destroy(): the lcores
 * of the configuration and their ports; an lcore's flow table and
 * pacers; the rings between lcores that hand each other events or
 * packets (0 or a negative errno, logged); freeing an lcore. */
int eng_lcores_setup(struct pcc_engine *e);
int eng_lcore_flows_setup(struct pcc_engine *e, struct eng_lcore *lc);
int eng_rings_setup(struct pcc_engine *e);
void eng_lcore_free(struct eng_lcore *lc);

/* engine_conf.c: the checks of pcc_engine_create(); 0 or -EINVAL (logged) */
int eng_conf_check(const struct pcc_engine_conf *c);
/* TX queue of lcore_id on port_id: its rank among the lcores sending on
 * it, -ENOENT if it sends nothing there */
int eng_txq_rank(const struct pcc_engine_conf *conf, uint16_t port_id, unsigned int lcore_id);

/* steer.c: after the owners are known (lcores_setup); 0 or -ENOMEM.
 * Teardown destroys the rules (before the ports stop). */
int eng_steer_setup(struct pcc_engine *e);
void eng_steer_teardown(struct pcc_engine *e);

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
 * A CC packet on an RP port: its ICRC verified, then an event record,
 * coalesced into *pend or handed to the owner.  Returns the packet's fate
 * (enum pcc_engine_rx_fate; the caller counts it and frees the packet),
 * or -1 for an IFA packet that is not a probe response (not consumed).
 */
int eng_rp_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf *m,
		const struct pcc_pkt_info *info, uint64_t now, struct eng_ev *pend, bool *has_pend);
/* Send flow f's RTT probe of slot now (counted; rp.c). */
void eng_rp_probe_send(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f, uint8_t slot,
		uint64_t now);
/* eng_rp_rx() of a CNP or RC ACK/NAK recognised by pcc_cc_match() (*cc),
 * not parsed; icrc_ok: its ICRC is right, or taken as verified by the port
 * (worker.c checks a burst's together). */
int eng_rp_rx_cc(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf *m,
		const struct pcc_cc_frame *cc, bool icrc_ok, uint64_t now, struct eng_ev *pend,
		bool *has_pend);
/* eng_rp_rx_cc() for n frames that all matched (pkts[k] into cc[k]; bit
 * k of icrc_ok: its ICRC is right), counted by kind and fate; returns
 * their bytes. */
uint64_t eng_rp_rx_cc_burst(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts,
		const struct pcc_cc_frame *cc, unsigned int n, uint64_t icrc_ok, uint64_t now,
		struct eng_ev *pend, bool *has_pend);
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
/* Owner: len bytes of f sent (PSN psn): into its TX event, queued for the
 * coalescing time, or evented now (the byte count reached). */
void eng_rp_tx_bytes(struct eng_lcore *lc, struct eng_lport *lp, struct eng_flow *f, uint32_t len,
		uint32_t psn, bool ackreq, uint64_t now);
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
/* For poll rounds that skip lp's generator (lp->wake): the earliest time
 * eng_gen_run() can act, or 0 if its rounds must all run. */
uint64_t eng_gen_wake(struct eng_lcore *lc, struct eng_lport *lp, uint64_t now);

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
