/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef NP_INTERNAL_H
#define NP_INTERNAL_H

/*
 * State of the NP runner (np.c) and helpers shared with the probe formats
 * (probe.c).  Private to lib/engine; the unit tests include it.  Design,
 * memory and the learning rule: doc/engine.md, "NP runner and probes".
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "engine_internal.h"
#include "pcc_engine.h"
#include "pcc_proto.h"

extern int pcc_np_logtype;

#define NP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pcc_np_logtype, "pcc.np: " fmt "\n", ##__VA_ARGS__)

/* Largest frame the NP copies to show it to a handler (VLAN removed, or a
 * chained mbuf linearised); longer frames are shown truncated. */
#define NP_SCRATCH_LEN 4096

/*
 * Learned sender QPNs, one table per engine, shared by every lcore: a
 * direct-mapped array of 64-bit words written and read with relaxed
 * atomic stores and loads (no lock; a reader sees a whole old or a whole
 * new word).  A word is tag (40 bits) << 24 | QPN (24 bits), 0 = empty;
 * index and tag are two halves of a 64-bit hash of the key (port, owner
 * address, peer address, UDP source port), so a wrong answer needs a
 * 64-bit hash collision.  A new key simply overwrites its slot.
 */
struct np_learn_key {
	uint8_t owner[16]; /* the host whose QPN is learned (IPv4: 4 bytes, then 0) */
	uint8_t peer[16];  /* the host it talks to */
	uint16_t sport;    /* UDP source port of the QP pair */
	uint16_t pidx;     /* port index */
	uint32_t v6;       /* 1 for IPv6 */
};

/* Last CNP per (port, DestQP), per lcore: direct mapped, 16 bytes. */
struct np_gap_ent {
	uint32_t key; /* (pidx + 1) << 24 | DestQP; 0 = empty */
	uint32_t reserved;
	uint64_t last_ns; /* port clock of the last CNP */
};

/* A TX callback's view: learning from what one lcore sends on one port. */
struct np_txcb {
	struct np_shared *np;
	struct pcc_engine_np_stats *ctr; /* the lcore's counters of the port */
	uint16_t pidx;
	uint16_t port_id;
	uint16_t queue_id;
	const struct rte_eth_rxtx_callback *cb; /* NULL: none installed */
};

/* NP settings of one port, defaults resolved (np_shared.port[pidx]). */
struct np_port {
	struct pcc_engine_np_conf conf; /* as given; sqpn_map -> map */
	uint64_t gap_ns;                /* 0 = no gap */
	uint8_t cnp_pcp;
	bool learn;                     /* learn sender QPNs on this port */
	struct pcc_engine_np_sqpn *map; /* sorted by dqpn */
	uint32_t nb_map;
};

/* Engine-wide NP state (e->np), read-only while the engine runs except the
 * learned table. */
struct np_shared {
	struct np_port port[RTE_MAX_ETHPORTS]; /* by port index */
	uint8_t ifa2_proto;
	uint64_t ifa1_marker;
	uint64_t *learn_tbl; /* [learn_mask + 1] */
	uint32_t learn_mask;
	uint32_t qp_table;
	struct pcc_parse_opts popts; /* for learning from transmitted packets */
};

/* Per-lcore NP state (lc->np). */
struct np_lcore {
	struct np_shared *np;
	struct pcc_engine_np_stats *ctr; /* [nb_ports] */
	uint16_t nb_ports;
	struct np_gap_ent *gap; /* [gap_mask + 1] */
	uint32_t gap_mask;
	struct np_txcb txcb[RTE_MAX_ETHPORTS];
	uint8_t scratch[NP_SCRATCH_LEN];
};

/* ---- np.c --------------------------------------------------------------- */

/* Hash of a learning key: index in the low bits, tag in bits 24..63. */
uint64_t np_learn_hash(const struct np_learn_key *k);

/* Learn "owner's QPN towards peer over sport is qpn".  True if the table
 * changed. */
bool np_learn_put(struct np_shared *np, const struct np_learn_key *k, uint32_t qpn);

/* The learned QPN for k, or -1. */
int64_t np_learn_get(const struct np_shared *np, const struct np_learn_key *k);

/*
 * Learn from one parsed RoCEv2 packet seen on port index pidx (received,
 * or transmitted): for RC/UC opcodes (not CNPs, not UD), "the QP of host
 * dst talking to src over this UDP source port is DestQP".  True if the
 * table changed.
 */
bool np_learn_pkt(struct np_shared *np, uint16_t pidx, const struct pcc_pkt_info *info);

/* The TX callback installed on TX queues of ports with the NP and another
 * role (exported for the unit tests). */
uint16_t np_tx_learn_cb(
		uint16_t port_id, uint16_t queue, struct rte_mbuf **pkts, uint16_t n, void *arg);

/* Key "QP of host owner talking to peer over sport" of a packet: the
 * packet's destination (owner_dst) or source is the owner. */
void np_learn_key(struct np_learn_key *k, uint16_t pidx, const struct pcc_pkt_info *info,
		bool owner_dst);

/* The static map's sender QPN for dqpn, or -1. */
int64_t np_map_get(const struct np_port *np, uint32_t dqpn);

/* ---- np_rx.c, np_answer.c: one burst on one NP queue -------------------- */

struct np_burst {
	const struct pcc_engine *e;
	struct np_shared *np;
	const struct np_port *npp; /* the port's settings */
	struct np_lcore *nl;
	const struct eng_rxq *q;
	struct pcc_engine_port_stats *pc;
	struct pcc_engine_np_stats *ctr;
	uint64_t now;
	uint64_t t_send; /* port clock when the first answer of the burst was made */
	int64_t rt_off;  /* CLOCK_REALTIME - port clock */
	bool t_read;
	bool handler; /* a user NP handler was registered when the burst began */
	/* what became of the frame being handled (enum pcc_engine_rx_fate):
	 * set where it is decided; NP_TX_ERR unless set */
	uint8_t fate;
};

/* The frame being handled ends in fate (struct np_burst.fate). */
#define NP_FATE(b, f) ((b)->fate = PCC_ENGINE_FATE_##f)

static inline bool
mbuf_reusable(const struct rte_mbuf *m)
{
	return RTE_MBUF_DIRECT(m) && m->nb_segs == 1 && rte_mbuf_refcnt_read(m) == 1;
}

/* m (mbuf_reusable()), answered in place, as rte_pktmbuf_reset() leaves
 * an mbuf but for its data offset and length (the frame stays where it
 * is). */
static inline void
np_inplace_reset(struct rte_mbuf *m, uint16_t len)
{
	m->port = RTE_MBUF_PORT_INVALID;
	/* direct: a store, not a read-modify-write */
	m->ol_flags = 0;
	m->packet_type = 0;
	m->vlan_tci = 0;
	m->vlan_tci_outer = 0;
	m->next = NULL;
	m->nb_segs = 1;
	m->tx_offload = 0;
	m->data_len = len;
	m->pkt_len = len;
}

/* m reset for reuse, or a new mbuf (m freed); NULL if none (counted). */
struct rte_mbuf *np_reuse(struct np_burst *b, struct rte_mbuf *m);
/* m as one writable segment with the same bytes (m itself, or a copy: m
 * is freed); NULL if no mbuf (counted). */
struct rte_mbuf *np_writable(struct np_burst *b, struct rte_mbuf *m);
/* NP receive and send times of an answer to m (ts source applied). */
void np_times(struct np_burst *b, const struct rte_mbuf *m, uint64_t *recv, uint64_t *send);
/* Headers of an answer to a packet: addresses swapped, VLAN kept, UDP
 * source port kept, not ECN-capable. */
void np_reply_l3(const uint8_t *macs, const struct pcc_pkt_info *info, struct pcc_l3_spec *l3);
/* CE-marked data m (parsed as info): a CNP, or NULL (suppressed, off, no
 * mbuf).  Consumes m. */
struct rte_mbuf *np_ce(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info);
/* An IFA2 packet that is not a probe for us: a CNP when it wraps CE data,
 * else NULL (consumed). */
struct rte_mbuf *np_ifa2_data(struct np_burst *b, struct rte_mbuf *m,
		const struct pcc_pkt_info *info, const uint8_t *f, uint32_t len);
/* np_answer.c: the answer to a CCMAD / IFA probe request, or NULL
 * (dropped and counted).  Consumes m. */
struct rte_mbuf *np_probe_ccmad(
		struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info);
struct rte_mbuf *np_probe_ifa(
		struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info);

/* ---- probe.c ------------------------------------------------------------ */

/*
 * Offset of the probe MAD in a linear IFA1/IFA2 frame of len bytes parsed
 * as info (kind PCC_PKT_IFA1 or PCC_PKT_IFA2): after the IFA2 hop stack,
 * or after the IFA1 header and its hop records.  *ifa_off gets the IFA
 * header's offset.  The offset, or a negative pcc_proto_err (not a
 * well-formed IFA packet, or fewer than PCC_PROBE_MAD_LEN bytes after).
 */
int eng_probe_ifa_mad_off(const uint8_t *frame, uint32_t len, const struct pcc_pkt_info *info,
		uint32_t *ifa_off);

/* The frame of m, linear: in place for one segment, else copied into buf
 * (at most cap bytes: *len is what is there).  NULL if m is empty. */
const uint8_t *eng_probe_linear(
		const struct rte_mbuf *m, uint8_t *buf, uint32_t cap, uint32_t *len);

#endif /* NP_INTERNAL_H */
