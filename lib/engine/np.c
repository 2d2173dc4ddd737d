/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The notification-point (NP) runner (doc/engine.md, "NP runner and
 * probes"): its settings, state and counters here; the receive path in
 * np_rx.c, the answers to probe requests in np_answer.c.
 *
 * Probe requests (CCMAD MAD, IFA1, IFA2 selected by the GNS mask/value)
 * get a response carrying the request's fields, the NP receive and send
 * times (port clock or CLOCK_REALTIME), up to 12 bytes from the user
 * handler (pcc_np_handle()) or, for requests that ask for it, the
 * hardware-NP model's answer, the optional response timestamp, and a DSCP.
 *
 * CE-marked RoCEv2 data gets a CNP to the sender's QP, at most one per
 * (port, DestQP) per gap.  The sender's QPN comes from the static map,
 * else from the table learned from reverse traffic, else from the offset
 * rule.  Learning: every RC/UC packet the NP sees, received on an NP port
 * or transmitted on a port that is NP and something else, teaches "the QP
 * of host dst, talking to host src over this UDP source port, is DestQP";
 * RoCE's UDP source port is one per QP pair, in both directions.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "engine_internal.h"
#include "engine_np.h"
#include "np_internal.h"
#include "pcc_np.h"

RTE_LOG_REGISTER(pcc_np_logtype, pcc.np, INFO);

#define NP_GAP_US_MAX 10000000u /* 10 s */

/* ---- Learned sender QPNs ------------------------------------------------ */

uint64_t
np_learn_hash(const struct np_learn_key *k)
{
	uint32_t lo = rte_hash_crc(k, sizeof(*k), 0x9e3779b9);
	uint32_t hi = rte_hash_crc(k, sizeof(*k), 0x7f4a7c15);

	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t
learn_tag(uint64_t h)
{
	uint64_t tag = h >> 24; /* 40 bits */

	return tag != 0 ? tag : 1;
}

bool
np_learn_put(struct np_shared *np, const struct np_learn_key *k, uint32_t qpn)
{
	uint64_t h = np_learn_hash(k);
	uint64_t *slot = &np->learn_tbl[h & np->learn_mask];
	uint64_t v = (learn_tag(h) << 24) | (qpn & PCC_QPN_MASK);

	if (__atomic_load_n(slot, __ATOMIC_RELAXED) == v)
		return false;
	__atomic_store_n(slot, v, __ATOMIC_RELAXED);
	return true;
}

int64_t
np_learn_get(const struct np_shared *np, const struct np_learn_key *k)
{
	uint64_t h, v;

	if (np->learn_tbl == NULL)
		return -1;
	h = np_learn_hash(k);
	v = __atomic_load_n(&np->learn_tbl[h & np->learn_mask], __ATOMIC_RELAXED);
	if (v == 0 || (v >> 24) != learn_tag(h))
		return -1;
	return (int64_t)(v & PCC_QPN_MASK);
}

/* Key "QP of host owner talking to peer over sport". */
void
np_learn_key(struct np_learn_key *k, uint16_t pidx, const struct pcc_pkt_info *info, bool owner_dst)
{
	bool v6 = (info->flags & PCC_PKT_F_IPV6) != 0;

	memset(k, 0, sizeof(*k));
	k->pidx = pidx;
	k->sport = info->udp_sport;
	k->v6 = v6;
	if (v6) {
		memcpy(k->owner, owner_dst ? info->dst.v6 : info->src.v6, 16);
		memcpy(k->peer, owner_dst ? info->src.v6 : info->dst.v6, 16);
	} else {
		uint32_t o = owner_dst ? info->dst.v4 : info->src.v4;
		uint32_t p = owner_dst ? info->src.v4 : info->dst.v4;

		memcpy(k->owner, &o, 4);
		memcpy(k->peer, &p, 4);
	}
}

static inline bool
learnable(const struct pcc_pkt_info *info)
{
	unsigned int transport = info->opcode >> 5;

	return info->bth_off != 0 &&
			(transport == PCC_BTH_TRANSPORT_RC || transport == PCC_BTH_TRANSPORT_UC) &&
			(info->kind == PCC_PKT_ROCE_DATA || info->kind == PCC_PKT_ROCE_ACK ||
					info->kind == PCC_PKT_ROCE_NAK);
}

bool
np_learn_pkt(struct np_shared *np, uint16_t pidx, const struct pcc_pkt_info *info)
{
	struct np_learn_key k;

	if (np->learn_tbl == NULL || !learnable(info))
		return false;
	np_learn_key(&k, pidx, info, true);
	return np_learn_put(np, &k, info->dqpn);
}

uint16_t
np_tx_learn_cb(uint16_t port_id, uint16_t queue, struct rte_mbuf **pkts, uint16_t n, void *arg)
{
	struct np_txcb *cb = arg;
	struct pcc_pkt_info info;
	uint16_t i;

	RTE_SET_USED(port_id);
	RTE_SET_USED(queue);
	for (i = 0; i < n; i++) {
		if (pcc_parse_mbuf(pkts[i], &cb->np->popts, &info) != 0 || !learnable(&info))
			continue;
		if (np_learn_pkt(cb->np, cb->pidx, &info))
			eng_ctr_add(&cb->ctr->learned, 1);
	}
	return n;
}

/* ---- Static map -------------------------------------------------------------- */

static int
map_cmp(const void *a, const void *b)
{
	const struct pcc_engine_np_sqpn *x = a, *y = b;

	return x->dqpn < y->dqpn ? -1 : x->dqpn > y->dqpn;
}

int64_t
np_map_get(const struct np_port *np, uint32_t dqpn)
{
	uint32_t lo = 0, hi = np->nb_map;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (np->map[mid].dqpn == dqpn)
			return np->map[mid].sqpn;
		if (np->map[mid].dqpn < dqpn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* ---- Setup --------------------------------------------------------------------- */

static bool
is_pow2(uint32_t x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

/* Validate one port's NP settings c and resolve their defaults into pp. */
static int
np_port_resolve(const struct pcc_engine_np_conf *c, uint16_t port_id, struct np_port *pp)
{
	uint32_t i;

	if (c->cnp_gap_us != PCC_ENGINE_NP_NO_GAP && c->cnp_gap_us > NP_GAP_US_MAX) {
		NP_LOG(ERR, "port %u: CNP gap %u us: more than %u", port_id, c->cnp_gap_us,
				NP_GAP_US_MAX);
		return -EINVAL;
	}
	if (c->cnp_pcp_set && c->cnp_pcp > 7) {
		NP_LOG(ERR, "port %u: CNP priority %u: not 0..7", port_id, c->cnp_pcp);
		return -EINVAL;
	}
	if (c->cnp_dscp > 63 || c->sqpn_offset > PCC_QPN_MASK) {
		NP_LOG(ERR, "port %u: CNP DSCP %u or sender QPN offset %u out of range", port_id,
				c->cnp_dscp, c->sqpn_offset);
		return -EINVAL;
	}
	if (c->nb_sqpn_map > PCC_ENGINE_NP_SQPN_MAP_MAX ||
			(c->nb_sqpn_map > 0 && c->sqpn_map == NULL)) {
		NP_LOG(ERR, "port %u: sender QPN map: %u entries (at most %u)", port_id,
				c->nb_sqpn_map, PCC_ENGINE_NP_SQPN_MAP_MAX);
		return -EINVAL;
	}
	if (c->mark_ce_ppm > 1000000 || c->resp_ts_size > PCC_ENGINE_NP_RESP_TS_SIZE_MAX ||
			c->resp_ts_res > PCC_ENGINE_NP_RESP_TS_RES_MAX ||
			c->ts_src > PCC_ENGINE_NP_TS_REALTIME || c->resp_dscp > 63 ||
			c->hw_probes > PCC_ENGINE_NP_HW_DROP || c->ifa2_gns_select_mask > 0xF ||
			c->ifa2_gns_select_value > 0xF || c->ifa2_gns_ignore_mask > 0xF ||
			c->ifa2_gns_ignore_value > 0xF) {
		NP_LOG(ERR,
				"port %u: NP configuration out of range (CE marks %u ppm, response "
				"timestamp %u:%u, timestamp source %u, response DSCP %u, hw probes "
				"%u, IFA2 GNS select %#x:%#x, ignore %#x:%#x)",
				port_id, c->mark_ce_ppm, c->resp_ts_size, c->resp_ts_res, c->ts_src,
				c->resp_dscp, c->hw_probes, c->ifa2_gns_select_mask,
				c->ifa2_gns_select_value, c->ifa2_gns_ignore_mask,
				c->ifa2_gns_ignore_value);
		return -EINVAL;
	}
	for (i = 0; i < c->nb_sqpn_map; i++) {
		if (c->sqpn_map[i].dqpn > PCC_QPN_MASK || c->sqpn_map[i].sqpn > PCC_QPN_MASK) {
			NP_LOG(ERR,
					"port %u: sender QPN map entry %u: %#x=%#x is not a 24-bit "
					"QPN "
					"pair",
					port_id, i, c->sqpn_map[i].dqpn, c->sqpn_map[i].sqpn);
			return -EINVAL;
		}
	}
	pp->conf = *c;
	pp->conf.sqpn_map = NULL;
	pp->conf.nb_sqpn_map = 0;
	pp->gap_ns = c->cnp_gap_us == PCC_ENGINE_NP_NO_GAP ?
			0 :
			(uint64_t)(c->cnp_gap_us != 0 ? c->cnp_gap_us :
							PCC_ENGINE_NP_CNP_GAP_US_DEFAULT) *
					1000u;
	pp->cnp_pcp = c->cnp_pcp_set ? c->cnp_pcp : PCC_ENGINE_NP_CNP_PCP_DEFAULT;
	pp->learn = !c->learn_off;
	return 0;
}

/* The probe formats c must agree with the classifier's IFA2 protocol and
 * IFA1 marker (*proto, *marker: 0 until the first one names them). */
static int
np_probes_check(const struct pcc_engine_probe_conf *c, const char *who, uint8_t *proto,
		uint64_t *marker)
{
	unsigned int s;

	for (s = 0; s < PCC_ENGINE_PROBE_SLOTS; s++) {
		const struct pcc_engine_probe_conf *p = &c[s];

		if (p->format >= PCC_ENGINE_PROBE_FMT_MAX ||
				(unsigned int)p->custom_offset + p->custom_len >
						PCC_PROBE_CUSTOM_MAX ||
				p->ifa2_gns > 0xF || p->ifa2_proto == 17 ||
				(p->ifa1_marker != 0 && !(p->ifa1_marker >> 63))) {
			NP_LOG(ERR,
					"%s probe slot %u: format %u, custom header %u, GNS %u, "
					"IFA2 protocol %u or IFA1 marker %#" PRIx64 " out of range",
					who, s, p->format, p->custom_len, p->ifa2_gns,
					p->ifa2_proto, p->ifa1_marker);
			return -EINVAL;
		}
		if (p->format == PCC_ENGINE_PROBE_IFA2) {
			uint8_t pr = p->ifa2_proto != 0 ? p->ifa2_proto : PCC_IFA2_PROTO_DEFAULT;

			if (*proto == 0)
				*proto = pr;
			if (pr != *proto) {
				NP_LOG(ERR,
						"%s probe slot %u: IFA2 protocol %u, but %u is "
						"recognised (one per process)",
						who, s, pr, *proto);
				return -EINVAL;
			}
		}
		if (p->format == PCC_ENGINE_PROBE_IFA1) {
			uint64_t mk = p->ifa1_marker != 0 ? p->ifa1_marker :
							    PCC_IFA1_MARKER_DEFAULT;

			if (*marker == 0)
				*marker = mk;
			if (mk != *marker) {
				NP_LOG(ERR,
						"%s probe slot %u: IFA1 marker %#" PRIx64
						", but %#" PRIx64
						" is recognised (one per process)",
						who, s, mk, *marker);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/*
 * Validate conf.np's classifier fields, every port's NP settings and
 * probe formats; resolve the defaults into np.
 */
static int
np_conf_resolve(struct pcc_engine *e, struct np_shared *np)
{
	const struct pcc_engine_np_conf *c = &e->conf.np;
	uint8_t ifa2_proto = c->ifa2_proto;
	uint64_t marker = c->ifa1_marker;
	char who[32];
	uint16_t k;
	int ret;

	if (c->qp_table != 0 &&
			(!is_pow2(c->qp_table) || c->qp_table < PCC_ENGINE_NP_QP_TABLE_MIN ||
					c->qp_table > PCC_ENGINE_NP_QP_TABLE_MAX)) {
		NP_LOG(ERR, "QP table of %u entries: not a power of two in %u..%u", c->qp_table,
				PCC_ENGINE_NP_QP_TABLE_MIN, PCC_ENGINE_NP_QP_TABLE_MAX);
		return -EINVAL;
	}
	if (c->ifa2_proto == 17 || (marker != 0 && !(marker >> 63))) {
		NP_LOG(ERR, "IFA2 protocol %u or IFA1 marker %#" PRIx64 " not allowed",
				c->ifa2_proto, marker);
		return -EINVAL;
	}
	/* the classifier recognises one IFA2 protocol and one IFA1 marker
	 * per process: every port's probe slots must agree with them */
	ret = np_probes_check(e->conf.probe, "engine", &ifa2_proto, &marker);
	for (k = 0; k < e->nb_ports && ret == 0; k++) {
		snprintf(who, sizeof(who), "port %u", e->ports[k].port_id);
		ret = np_probes_check(e->ports[k].probe, who, &ifa2_proto, &marker);
	}
	if (ret < 0)
		return ret;
	for (k = 0; k < e->nb_ports; k++) {
		if (!(e->ports[k].roles & PCC_ENGINE_ROLE_NP))
			continue;
		ret = np_port_resolve(&e->ports[k].np, e->ports[k].port_id, &np->port[k]);
		if (ret < 0)
			return ret;
	}
	np->ifa2_proto = ifa2_proto != 0 ? ifa2_proto : PCC_IFA2_PROTO_DEFAULT;
	np->ifa1_marker = marker != 0 ? marker : PCC_IFA1_MARKER_DEFAULT;
	np->qp_table = c->qp_table != 0 ? c->qp_table : PCC_ENGINE_NP_QP_TABLE_DEFAULT;
	return 0;
}

/* The sender-QPN map of port index k, from its settings c, sorted. */
static int
np_map_copy(struct np_port *pp, const struct pcc_engine_np_conf *c, uint16_t port_id, int socket)
{
	uint32_t i;

	if (c->nb_sqpn_map == 0)
		return 0;
	pp->map = rte_malloc_socket("pcc_np_map", sizeof(*pp->map) * c->nb_sqpn_map, 0, socket);
	if (pp->map == NULL)
		return -ENOMEM;
	memcpy(pp->map, c->sqpn_map, sizeof(*pp->map) * c->nb_sqpn_map);
	qsort(pp->map, c->nb_sqpn_map, sizeof(*pp->map), map_cmp);
	for (i = 1; i < c->nb_sqpn_map; i++) {
		if (pp->map[i].dqpn == pp->map[i - 1].dqpn) {
			NP_LOG(ERR, "port %u: sender QPN map: DestQP %#x mapped twice", port_id,
					pp->map[i].dqpn);
			return -EINVAL;
		}
	}
	pp->nb_map = c->nb_sqpn_map;
	pp->conf.sqpn_map = pp->map;
	pp->conf.nb_sqpn_map = pp->nb_map;
	return 0;
}

/* Does lc poll an RX queue of a port with the NP role? */
static bool
lcore_polls_np(const struct eng_lcore *lc)
{
	uint32_t i;

	for (i = 0; i < lc->nb_rxq; i++)
		if (lc->rxq[i].roles & PCC_ENGINE_ROLE_NP)
			return true;
	return false;
}

static int
np_lcore_init(struct pcc_engine *e, struct np_shared *np, struct eng_lcore *lc)
{
	int socket = lc->lcore_id < RTE_MAX_LCORE ? (int)rte_lcore_to_socket_id(lc->lcore_id) :
						    SOCKET_ID_ANY;
	struct np_lcore *nl;
	uint16_t i;

	nl = rte_zmalloc_socket("pcc_np_lcore", sizeof(*nl), RTE_CACHE_LINE_SIZE, socket);
	if (nl == NULL)
		return -ENOMEM;
	lc->np = nl;
	nl->np = np;
	nl->nb_ports = e->nb_ports;
	nl->ctr = rte_zmalloc_socket("pcc_np_ctr", sizeof(*nl->ctr) * RTE_MAX(e->nb_ports, 1),
			RTE_CACHE_LINE_SIZE, socket);
	if (nl->ctr == NULL)
		return -ENOMEM;
	if (lcore_polls_np(lc)) {
		nl->gap = rte_zmalloc_socket("pcc_np_gap", sizeof(*nl->gap) * np->qp_table,
				RTE_CACHE_LINE_SIZE, socket);
		if (nl->gap == NULL)
			return -ENOMEM;
		nl->gap_mask = np->qp_table - 1;
	}
	/* learn from what this lcore sends on ports that are NP and more */
	for (i = 0; i < lc->nb_lports && np->learn_tbl != NULL; i++) {
		const struct eng_lport *lp = lc->lports[i];
		struct np_txcb *cb = &nl->txcb[lp->pidx];

		if (!(lp->roles & PCC_ENGINE_ROLE_NP) || (lp->roles & ~PCC_ENGINE_ROLE_NP) == 0 ||
				!np->port[lp->pidx].learn)
			continue;
		cb->np = np;
		cb->ctr = &nl->ctr[lp->pidx];
		cb->pidx = lp->pidx;
		cb->port_id = lp->port_id;
		cb->queue_id = lp->tx_queue;
		cb->cb = rte_eth_add_tx_callback(lp->port_id, lp->tx_queue, np_tx_learn_cb, cb);
		if (cb->cb == NULL) {
			NP_LOG(WARNING,
					"port %u TX queue %u: no TX callback (%s): sender QPNs are "
					"not learned from what the lcore sends",
					lp->port_id, lp->tx_queue, rte_strerror(rte_errno));
			continue;
		}
	}
	return 0;
}

int
eng_np_init(struct pcc_engine *e)
{
	struct np_shared *np;
	bool any_learn = false;
	uint32_t nb_map = 0;
	uint16_t k, nb_np = 0;
	int ret;

	np = rte_zmalloc("pcc_np", sizeof(*np), RTE_CACHE_LINE_SIZE);
	if (np == NULL)
		return -ENOMEM;
	e->np = np;
	ret = np_conf_resolve(e, np);
	if (ret < 0)
		return ret;
	for (k = 0; k < e->nb_ports; k++) {
		struct eng_port *p = &e->ports[k];

		if (!(p->roles & PCC_ENGINE_ROLE_NP))
			continue;
		ret = np_map_copy(&np->port[k], &p->np, p->port_id, p->socket);
		if (ret < 0)
			return ret;
		/* the caller's map is not kept */
		p->np.sqpn_map = np->port[k].map;
		any_learn |= np->port[k].learn;
		nb_map += np->port[k].nb_map;
		nb_np++;
	}
	e->conf.np.sqpn_map = NULL;
	e->conf.np.nb_sqpn_map = 0;
	/* the classifier recognises the resolved IFA protocol and marker */
	e->popts.ifa2_proto = np->ifa2_proto;
	e->popts.ifa1_marker = np->ifa1_marker;
	np->popts = e->popts;
	np->popts.check_icrc = false;

	if (any_learn) {
		np->learn_tbl = rte_zmalloc("pcc_np_learn", sizeof(uint64_t) * np->qp_table,
				RTE_CACHE_LINE_SIZE);
		if (np->learn_tbl == NULL)
			return -ENOMEM;
		np->learn_mask = np->qp_table - 1;
	}
	for (k = 0; k < e->nb_lcores; k++) {
		ret = np_lcore_init(e, np, e->by_rank[k]);
		if (ret < 0)
			return ret;
	}
	for (k = 0; k < e->nb_ports; k++) {
		const struct np_port *pp = &np->port[k];

		if (!(e->ports[k].roles & PCC_ENGINE_ROLE_NP))
			continue;
		NP_LOG(INFO,
				"NP port %u: CNPs %s, gap %" PRIu64
				" us, %u static sender QPNs, learning %s, IFA2 GNS %s %#x:%#x",
				e->ports[k].port_id, pp->conf.cnp ? "on" : "off", pp->gap_ns / 1000,
				pp->nb_map, pp->learn ? "on" : "off",
				pp->conf.ifa2_gns_ignore ? "ignore" : "select",
				pp->conf.ifa2_gns_ignore ? pp->conf.ifa2_gns_ignore_mask :
							   pp->conf.ifa2_gns_select_mask,
				pp->conf.ifa2_gns_ignore ? pp->conf.ifa2_gns_ignore_value :
							   pp->conf.ifa2_gns_select_value);
	}
	if (nb_np > 0)
		NP_LOG(INFO,
				"NP: %u ports, QP tables of %u entries (%zu KiB per NP lcore, %zu "
				"KiB learned), %u static sender QPNs in all",
				nb_np, np->qp_table,
				(size_t)np->qp_table * sizeof(struct np_gap_ent) / 1024,
				np->learn_tbl != NULL ? (size_t)np->qp_table * 8 / 1024 : 0,
				nb_map);
	return 0;
}

void
eng_np_fini(struct pcc_engine *e)
{
	unsigned int l;
	uint16_t i;

	for (l = 0; l < RTE_MAX_LCORE; l++) {
		struct eng_lcore *lc = e->lcores[l];
		struct np_lcore *nl;

		if (lc == NULL || lc->np == NULL)
			continue;
		nl = lc->np;
		for (i = 0; i < RTE_MAX_ETHPORTS; i++) {
			struct np_txcb *cb = &nl->txcb[i];

			if (cb->cb == NULL)
				continue;
			/* the workers are stopped: nothing runs the callback */
			if (rte_eth_remove_tx_callback(cb->port_id, cb->queue_id, cb->cb) == 0)
				rte_free((void *)(uintptr_t)cb->cb);
			cb->cb = NULL;
		}
		rte_free(nl->gap);
		rte_free(nl->ctr);
		rte_free(nl);
		lc->np = NULL;
	}
	if (e->np != NULL) {
		struct np_shared *np = e->np;

		rte_free(np->learn_tbl);
		for (i = 0; i < RTE_MAX_ETHPORTS; i++) {
			rte_free(np->port[i].map);
			if (i < e->nb_ports)
				e->ports[i].np.sqpn_map = NULL;
		}
		rte_free(np);
		e->np = NULL;
	}
}

int
pcc_engine_port_np_conf_set(
		struct pcc_engine *e, uint16_t port_id, const struct pcc_engine_np_conf *conf)
{
	struct np_port pp;
	struct np_shared *np;
	int16_t pidx;
	int ret;

	if (e == NULL || conf == NULL || port_id >= RTE_MAX_ETHPORTS)
		return -ENOENT;
	pidx = e->pidx[port_id];
	if (pidx < 0 || !(e->ports[pidx].roles & PCC_ENGINE_ROLE_NP) || e->np == NULL)
		return -ENOENT;
	if (e->launched)
		return -EBUSY;
	np = e->np;
	memset(&pp, 0, sizeof(pp));
	ret = np_port_resolve(conf, port_id, &pp);
	if (ret == 0)
		ret = np_map_copy(&pp, conf, port_id, e->ports[pidx].socket);
	if (ret < 0) {
		rte_free(pp.map);
		return ret;
	}
	if (pp.learn && np->learn_tbl == NULL) {
		NP_LOG(ERR,
				"port %u: learning needs the table the engine made at its creation "
				"(no NP port learned then)",
				port_id);
		rte_free(pp.map);
		return -EINVAL;
	}
	rte_free(np->port[pidx].map);
	np->port[pidx] = pp;
	e->ports[pidx].np = pp.conf;
	NP_LOG(INFO, "NP port %u: settings changed", port_id);
	return 0;
}

int
pcc_engine_port_np_conf_get(
		const struct pcc_engine *e, uint16_t port_id, struct pcc_engine_np_conf *conf)
{
	int16_t pidx;

	if (e == NULL || conf == NULL || port_id >= RTE_MAX_ETHPORTS || e->np == NULL)
		return -ENOENT;
	pidx = e->pidx[port_id];
	if (pidx < 0 || !(e->ports[pidx].roles & PCC_ENGINE_ROLE_NP))
		return -ENOENT;
	*conf = ((const struct np_shared *)e->np)->port[pidx].conf;
	return 0;
}

/* ---- Public getters ------------------------------------------------------------- */

int
pcc_engine_np_stats_get(
		const struct pcc_engine *e, uint16_t port_id, struct pcc_engine_np_stats *st)
{
	unsigned int l, k;
	int16_t pidx;

	if (e == NULL || st == NULL || port_id >= RTE_MAX_ETHPORTS)
		return -ENOENT;
	pidx = e->pidx[port_id];
	if (pidx < 0 || !(e->ports[pidx].roles & PCC_ENGINE_ROLE_NP))
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		const struct eng_lcore *lc = e->lcores[l];
		const struct np_lcore *nl;
		const uint64_t *src;
		uint64_t *dst = (uint64_t *)st;

		if (lc == NULL || lc->np == NULL)
			continue;
		nl = lc->np;
		src = (const uint64_t *)&nl->ctr[pidx];
		for (k = 0; k < sizeof(*st) / sizeof(uint64_t); k++)
			dst[k] += eng_ctr_read(&src[k]);
	}
	return 0;
}

int
pcc_engine_np_caps_get(
		const struct pcc_engine *e, uint16_t port_id, struct pcc_engine_np_caps *caps)
{
	struct timespec ts;
	int16_t pidx;

	if (caps == NULL)
		return -EINVAL;
	memset(caps, 0, sizeof(*caps));
	caps->resp_user_max = PCC_NP_RESP_MAX;
	caps->resp_ts_size_max = PCC_ENGINE_NP_RESP_TS_SIZE_MAX;
	caps->resp_ts_res_max = PCC_ENGINE_NP_RESP_TS_RES_MAX;
	caps->probe_slots = PCC_ENGINE_PROBE_SLOTS;
	caps->probe_custom_max = PCC_PROBE_CUSTOM_MAX;
	caps->probe_mad_len = PCC_PROBE_MAD_LEN;
	caps->probe_formats = (1u << PCC_ENGINE_PROBE_CCMAD) | (1u << PCC_ENGINE_PROBE_IFA1) |
			(1u << PCC_ENGINE_PROBE_IFA2);
	caps->ts_realtime = clock_gettime(CLOCK_REALTIME, &ts) == 0;
	caps->hw_np_model = true;
	caps->qp_table = PCC_ENGINE_NP_QP_TABLE_DEFAULT;
	caps->ifa2_proto = PCC_IFA2_PROTO_DEFAULT;
	caps->ifa1_marker = PCC_IFA1_MARKER_DEFAULT;
	if (e == NULL)
		return 0;
	if (port_id >= RTE_MAX_ETHPORTS)
		return -ENOENT;
	pidx = e->pidx[port_id];
	if (pidx < 0 || !(e->ports[pidx].roles & PCC_ENGINE_ROLE_NP))
		return -ENOENT;
	caps->hw_rx_ts = e->ports[pidx].clk.src == PCC_ENGINE_CLOCK_HW_RX_TS;
	caps->clock_src = e->ports[pidx].clk.src;
	if (e->np != NULL) {
		const struct np_shared *np = e->np;

		caps->hw_np_model = np->port[pidx].conf.hw_probes == PCC_ENGINE_NP_HW_ANSWER;
		caps->qp_table = np->qp_table;
		caps->ifa2_proto = np->ifa2_proto;
		caps->ifa1_marker = np->ifa1_marker;
	}
	return 0;
}
