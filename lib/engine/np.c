/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The notification-point (NP) runner (doc/engine.md, "NP runner and
 * probes").
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
#define NP_DEFAULT_TTL 64

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
static void
learn_key(struct np_learn_key *k, uint16_t pidx, const struct pcc_pkt_info *info, bool owner_dst)
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
	learn_key(&k, pidx, info, true);
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

static int64_t
map_get(const struct np_port *np, uint32_t dqpn)
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

/* ---- Burst helpers ------------------------------------------------------------ */

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
};

static inline bool
mbuf_reusable(const struct rte_mbuf *m)
{
	return RTE_MBUF_DIRECT(m) && m->nb_segs == 1 && rte_mbuf_refcnt_read(m) == 1;
}

/* m reset for reuse, or a new mbuf (m freed); NULL if none. */
static struct rte_mbuf *
np_reuse(struct np_burst *b, struct rte_mbuf *m)
{
	struct rte_mbuf *c;

	if (mbuf_reusable(m)) {
		rte_pktmbuf_reset(m);
		return m;
	}
	rte_pktmbuf_free(m);
	c = rte_pktmbuf_alloc(b->q->mp);
	if (c == NULL) {
		eng_ctr_add(&b->pc->nombuf, 1);
		eng_ctr_add(&b->ctr->tx_err, 1);
	}
	return c;
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

/* m as one writable segment with the same bytes (m itself, or a copy:
 * m is freed); NULL if no mbuf. */
static struct rte_mbuf *
np_writable(struct np_burst *b, struct rte_mbuf *m)
{
	struct rte_mbuf *c;
	const void *src;
	void *d;

	if (mbuf_reusable(m))
		return m;
	c = rte_pktmbuf_alloc(b->q->mp);
	src = NULL;
	if (c != NULL && rte_pktmbuf_tailroom(c) >= m->pkt_len) {
		d = rte_pktmbuf_mtod(c, void *);
		src = rte_pktmbuf_read(m, 0, m->pkt_len, d);
		if (src != NULL && src != d)
			rte_memcpy(d, src, m->pkt_len);
	}
	if (src == NULL) {
		rte_pktmbuf_free(c);
		rte_pktmbuf_free(m);
		eng_ctr_add(&b->pc->nombuf, 1);
		eng_ctr_add(&b->ctr->tx_err, 1);
		return NULL;
	}
	c->data_len = (uint16_t)m->pkt_len;
	c->pkt_len = m->pkt_len;
	rte_pktmbuf_free(m);
	return c;
}

static uint64_t
realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* NP receive and send times of an answer to m (ts source applied). */
static void
np_times(struct np_burst *b, const struct rte_mbuf *m, uint64_t *recv, uint64_t *send)
{
	uint64_t rx = eng_clock_rx(b->q->clk, m, b->now);
	uint64_t tx;

	if (!b->t_read) {
		b->t_send = eng_clock_now(b->q->clk);
		if (b->npp->conf.ts_src == PCC_ENGINE_NP_TS_REALTIME)
			b->rt_off = (int64_t)(realtime_ns() - b->t_send);
		b->t_read = true;
	}
	tx = RTE_MAX(b->t_send, rx);
	if (b->npp->conf.ts_src == PCC_ENGINE_NP_TS_REALTIME) {
		rx += (uint64_t)b->rt_off;
		tx += (uint64_t)b->rt_off;
	}
	*recv = rx;
	*send = tx;
}

/* ---- CNPs ------------------------------------------------------------------------ */

/* Is a CNP for (pidx, dqpn) at t within the gap?  Records t if not. */
static bool
np_gap_hit(struct np_burst *b, uint32_t dqpn, uint64_t t)
{
	struct np_lcore *nl = b->nl;
	uint32_t key = ((uint32_t)(b->q->pidx + 1) << 24) | (dqpn & PCC_QPN_MASK);
	struct np_gap_ent *g;

	if (b->npp->gap_ns == 0 || nl->gap == NULL)
		return false;
	g = &nl->gap[rte_hash_crc_4byte(key, 0) & nl->gap_mask];
	if (g->key == key) {
		if (t - g->last_ns < b->npp->gap_ns)
			return true;
	} else if (g->key != 0) {
		eng_ctr_add(&b->ctr->qp_replaced, 1);
	}
	g->key = key;
	g->last_ns = t;
	return false;
}

/* The sender's QPN for marked data: static map, learned, offset rule. */
static uint32_t
np_sender_qpn(struct np_burst *b, const struct pcc_pkt_info *info)
{
	struct np_learn_key k;
	int64_t v;

	v = map_get(b->npp, info->dqpn);
	if (v >= 0) {
		eng_ctr_add(&b->ctr->sqpn_map, 1);
		return (uint32_t)v;
	}
	if (b->npp->learn && b->np->learn_tbl != NULL) {
		/* the sender is the packet's source, talking to us */
		learn_key(&k, b->q->pidx, info, false);
		v = np_learn_get(b->np, &k);
		if (v >= 0) {
			eng_ctr_add(&b->ctr->sqpn_learned, 1);
			return (uint32_t)v;
		}
	}
	eng_ctr_add(&b->ctr->sqpn_offset, 1);
	return (info->dqpn + b->npp->conf.sqpn_offset) & PCC_QPN_MASK;
}

/* Headers of an answer to a packet: addresses swapped, VLAN kept, UDP
 * source port kept, not ECN-capable. */
static void
np_reply_l3(const uint8_t *macs, const struct pcc_pkt_info *info, struct pcc_l3_spec *l3)
{
	memset(l3, 0, sizeof(*l3));
	memcpy(l3->dst_mac, macs + RTE_ETHER_ADDR_LEN, RTE_ETHER_ADDR_LEN);
	memcpy(l3->src_mac, macs, RTE_ETHER_ADDR_LEN);
	l3->vlan = (info->flags & PCC_PKT_F_VLAN) != 0;
	l3->vlan_tci = info->vlan_tci;
	l3->ipv6 = (info->flags & PCC_PKT_F_IPV6) != 0;
	if (l3->ipv6) {
		memcpy(l3->src.v6, info->dst.v6, sizeof(l3->src.v6));
		memcpy(l3->dst.v6, info->src.v6, sizeof(l3->dst.v6));
	} else {
		l3->src.v4 = info->dst.v4;
		l3->dst.v4 = info->src.v4;
	}
	l3->ecn = PCC_ECN_NOT_ECT;
	l3->udp_sport = info->udp_sport;
}

/*
 * CE-marked data m (parsed as info; for IFA2 the inner BTH's values): a
 * CNP, or NULL (suppressed, off, or no mbuf).  Consumes m.
 */
static struct rte_mbuf *
np_ce(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	uint8_t macs[2 * RTE_ETHER_ADDR_LEN];
	const uint8_t *l2;
	struct pcc_l3_spec l3;
	struct rte_mbuf *c;
	uint32_t sqpn;
	int len;

	eng_ctr_add(&b->pc->ce_rx, 1);
	eng_ctr_add(&b->ctr->ce_rx, 1);
	if (!b->npp->conf.cnp) {
		eng_ctr_add(&b->ctr->cnp_off, 1);
		rte_pktmbuf_free(m);
		return NULL;
	}
	if (np_gap_hit(b, info->dqpn, eng_clock_rx(b->q->clk, m, b->now))) {
		eng_ctr_add(&b->ctr->cnp_gap, 1);
		rte_pktmbuf_free(m);
		return NULL;
	}
	l2 = rte_pktmbuf_read(m, 0, sizeof(macs), macs);
	if (l2 == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	np_reply_l3(l2, info, &l3);
	l3.dscp = b->npp->conf.cnp_dscp;
	if (l3.vlan)
		l3.vlan_tci = (uint16_t)((b->npp->cnp_pcp << 13) | (info->vlan_tci & 0x0FFF));
	sqpn = np_sender_qpn(b, info);
	c = np_reuse(b, m);
	if (c == NULL)
		return NULL;
	len = pcc_cnp_build(rte_pktmbuf_mtod(c, void *), rte_pktmbuf_tailroom(c), &l3, sqpn);
	if (len < 0) {
		eng_ctr_add(&b->pc->build_err, 1);
		eng_ctr_add(&b->ctr->tx_err, 1);
		rte_pktmbuf_free(c);
		return NULL;
	}
	c->data_len = (uint16_t)len;
	c->pkt_len = (uint32_t)len;
	eng_ctr_add(&b->pc->cnp_tx, 1);
	eng_ctr_add(&b->ctr->cnp_tx, 1);
	return c;
}

/*
 * The mark_ce_ppm test knob: is this data packet to be marked?  A
 * deterministic low-discrepancy rule on (PSN, DestQP): marked when
 * frac((PSN + DestQP * c) * golden ratio) < share, so every QP gets its
 * share, evenly spread over its consecutive PSNs, the same in every run.
 */
static inline bool
np_mark(const struct np_burst *b, const struct pcc_pkt_info *info)
{
	uint32_t ppm = b->npp->conf.mark_ce_ppm;
	uint32_t x;

	if (ppm == 0)
		return false;
	if (ppm >= 1000000)
		return true;
	x = (info->psn + info->dqpn * 0x85EBCA6Bu) * 0x9E3779B9u;
	return x < (uint32_t)(((uint64_t)ppm << 32) / 1000000);
}

static struct rte_mbuf *
np_data(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	bool ce = info->ecn == PCC_ECN_CE;

	if (b->npp->learn && np_learn_pkt(b->np, b->q->pidx, info))
		eng_ctr_add(&b->ctr->learned, 1);
	if (!ce && np_mark(b, info)) {
		ce = true;
		eng_ctr_add(&b->ctr->ce_marked, 1);
	}
	if (!ce) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	return np_ce(b, m, info);
}

/* ---- Probes -------------------------------------------------------------------- */

/* What an answer needs, taken from the request before anything runs. */
struct np_req {
	const uint8_t *frame; /* linear request */
	uint32_t len;
	uint32_t mad_off;
	uint32_t ifa_off;
	uint8_t macs[2 * RTE_ETHER_ADDR_LEN];
	struct pcc_probe p;
	uint8_t custom[PCC_PROBE_CUSTOM_MAX];
};

/* The handler's view of the request: VLAN tag removed. */
static void
np_view(struct np_burst *b, const struct np_req *r, const struct pcc_pkt_info *info, uint64_t rx_ns,
		struct pcc_np_pkt *v)
{
	const uint8_t *f = r->frame;
	uint32_t len = r->len, shift = 0;

	memset(v, 0, sizeof(*v));
	if (info->flags & PCC_PKT_F_VLAN) {
		uint8_t *s = b->nl->scratch;

		/* r->frame may be scratch itself (a linearised chain) */
		len = RTE_MIN(len - PCC_VLAN_HDR_LEN, (uint32_t)NP_SCRATCH_LEN);
		memmove(s + 2 * RTE_ETHER_ADDR_LEN, f + 2 * RTE_ETHER_ADDR_LEN + PCC_VLAN_HDR_LEN,
				len - 2 * RTE_ETHER_ADDR_LEN);
		if (s != f)
			memcpy(s, f, 2 * RTE_ETHER_ADDR_LEN);
		f = s;
		shift = PCC_VLAN_HDR_LEN;
		v->vlan_present = 1;
		v->vlan_tci = info->vlan_tci;
	}
	v->frame = f;
	v->frame_len = len;
	if (info->l4_off - shift < len) {
		v->l4 = f + info->l4_off - shift;
		v->l4_len = len - (info->l4_off - shift);
	}
	if (r->mad_off + PCC_MAD_HDR_LEN - shift < len) {
		v->payload = f + r->mad_off + PCC_MAD_HDR_LEN - shift;
		v->payload_len = len - (r->mad_off + PCC_MAD_HDR_LEN - shift);
	}
	v->t2_ns = (uint32_t)rx_ns;
	v->port = (uint8_t)b->q->port_id;
	v->plane = 0;
	v->probe_slot = r->p.slot;
	v->l3_ttl = info->ttl;
}

/* Rewrite the IP header of a turned-around frame: addresses swapped,
 * DSCP, not ECN-capable, TTL 64, IPv4 checksum. */
static void
np_turn_ip(uint8_t *f, const struct pcc_pkt_info *info, uint8_t dscp)
{
	uint8_t *ip = f + info->l3_off;
	uint8_t tmp[16];

	if (info->flags & PCC_PKT_F_IPV6) {
		struct rte_ipv6_hdr *h = (struct rte_ipv6_hdr *)ip;
		uint32_t vtc = rte_be_to_cpu_32(h->vtc_flow);

		memcpy(tmp, h->src_addr, 16);
		memcpy(h->src_addr, h->dst_addr, 16);
		memcpy(h->dst_addr, tmp, 16);
		vtc = (vtc & 0xF00FFFFFu) | ((uint32_t)(dscp << 2) << 20);
		h->vtc_flow = rte_cpu_to_be_32(vtc);
		h->hop_limits = NP_DEFAULT_TTL;
	} else {
		struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)ip;
		rte_be32_t a = h->src_addr;

		h->src_addr = h->dst_addr;
		h->dst_addr = a;
		h->type_of_service = (uint8_t)(dscp << 2);
		h->time_to_live = NP_DEFAULT_TTL;
		h->hdr_checksum = 0;
		h->hdr_checksum = rte_ipv4_cksum(h);
	}
}

/* UDP checksum of a turned-around IFA frame: 0 over IPv4; over IPv6 the
 * standard one with next header 17 (doc/wire.md 8.4), whatever the IP
 * protocol. */
static void
np_turn_udp(uint8_t *f, const struct pcc_pkt_info *info)
{
	uint8_t *udp = f + info->l4_off;
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)udp;
	struct rte_ipv6_hdr ph;
	uint16_t ck;

	u->dgram_cksum = 0;
	if (!(info->flags & PCC_PKT_F_IPV6))
		return;
	memcpy(&ph, f + info->l3_off, sizeof(ph));
	ph.proto = IPPROTO_UDP;
	ph.payload_len = u->dgram_len;
	ck = rte_ipv6_udptcp_cksum(&ph, udp);
	u->dgram_cksum = ck;
}

/* The answer to a probe request: in m's buffer (reused) or a new mbuf. */
static struct rte_mbuf *
np_answer(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info, struct np_req *r,
		uint8_t dscp, uint8_t fmt)
{
	struct pcc_l3_spec l3;
	struct rte_mbuf *c;
	uint8_t *f;
	int len;

	if (fmt == PCC_ENGINE_PROBE_CCMAD) {
		/* in place: only the headers and the body are rewritten and the
		 * ICRC patched, not recomputed (pcc_probe_resp_inplace()); the
		 * extension past the body needs the whole build */
		if (!(r->p.flags & PCC_PROBE_F_EXT) && mbuf_reusable(m) &&
				r->frame == rte_pktmbuf_mtod(m, const uint8_t *)) {
			len = pcc_probe_resp_inplace(rte_pktmbuf_mtod(m, void *),
					(uint32_t)(m->buf_len - m->data_off), info, dscp, &r->p);
			if (len > 0) {
				np_inplace_reset(m, (uint16_t)len);
				return m;
			}
		}
		np_reply_l3(r->macs, info, &l3);
		l3.dscp = dscp;
		c = np_reuse(b, m);
		if (c == NULL)
			return NULL;
		len = pcc_probe_resp_build(rte_pktmbuf_mtod(c, void *), rte_pktmbuf_tailroom(c),
				&l3, info->deth_sqpn, &r->p, r->custom);
		if (len < 0) {
			eng_ctr_add(&b->pc->build_err, 1);
			eng_ctr_add(&b->ctr->tx_err, 1);
			rte_pktmbuf_free(c);
			return NULL;
		}
		c->data_len = (uint16_t)len;
		c->pkt_len = (uint32_t)len;
		return c;
	}
	/* IFA: turn the request around in place, telemetry kept */
	c = np_writable(b, m);
	if (c == NULL)
		return NULL;
	f = rte_pktmbuf_mtod(c, uint8_t *);
	memcpy(f, r->macs + RTE_ETHER_ADDR_LEN, RTE_ETHER_ADDR_LEN);
	memcpy(f + RTE_ETHER_ADDR_LEN, r->macs, RTE_ETHER_ADDR_LEN);
	np_turn_ip(f, info, dscp);
	if (fmt == PCC_ENGINE_PROBE_IFA2)
		f[r->ifa_off + 2] |= PCC_IFA2_F_TA;
	pcc_probe_mad_build(f + r->mad_off, PCC_PROBE_MAD_LEN, true, &r->p, r->custom);
	np_turn_udp(f, info);
	return c;
}

/*
 * A probe request m whose MAD is at r->mad_off of r->frame (format fmt):
 * the answer, or NULL (dropped and counted).  Consumes m.
 */
static struct rte_mbuf *
np_probe(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info, struct np_req *r,
		uint8_t fmt)
{
	const struct pcc_engine_np_conf *c = &b->npp->conf;
	struct pcc_np_resp resp;
	struct pcc_np_pkt view;
	uint64_t recv, send;
	uint8_t dscp;
	bool hw;
	int rc;

	eng_ctr_add(&b->ctr->probe_req, 1);
	memcpy(r->macs, r->frame, sizeof(r->macs));
	if (r->p.custom_len > 0)
		memcpy(r->custom, r->frame + r->mad_off + PCC_PROBE_CUSTOM_OFF, r->p.custom_len);
	hw = (r->p.flags & PCC_PROBE_F_HW_NP) != 0;
	if (hw && c->hw_probes == PCC_ENGINE_NP_HW_DROP) {
		eng_ctr_add(&b->ctr->probe_hw_drop, 1);
		rte_pktmbuf_free(m);
		return NULL;
	}
	np_times(b, m, &recv, &send);
	memset(&resp, 0, sizeof(resp));
	if (!hw && !b->handler) {
		/* no user handler (checked once per burst): the default */
		eng_ctr_add(&b->ctr->no_handler, 1);
	} else if (!hw) {
		np_view(b, r, info, recv, &view);
		rc = pcc_np_handle_port(b->q->port_id, &view, &resp);
		if (rc == -ENOENT) {
			/* no user handler: the default writes nothing */
			memset(&resp, 0, sizeof(resp));
			eng_ctr_add(&b->ctr->no_handler, 1);
		} else if (rc < 0) {
			eng_ctr_add(&b->ctr->handler_err, 1);
			rte_pktmbuf_free(m);
			return NULL;
		}
	}
	dscp = resp.dscp_set ? resp.dscp : (c->resp_dscp_set ? c->resp_dscp : info->dscp);
	r->p.flags = (uint8_t)((r->p.flags & ~(PCC_PROBE_F_HW_NP | PCC_PROBE_F_EXT)) |
			(hw ? PCC_PROBE_F_HW_NP : 0));
	r->p.np_recv_ts = recv;
	r->p.np_send_ts = send;
	memset(r->p.user, 0, sizeof(r->p.user));
	memcpy(r->p.user, resp.data, RTE_MIN(resp.len, (uint8_t)PCC_PROBE_USER_LEN));
	r->p.resp_ts = pcc_probe_resp_ts(0, send, c->resp_ts_size, c->resp_ts_res);
	if (c->resp_ext) {
		/* version 1: this port's type and received bytes (this lcore's
		 * count of them) */
		r->p.flags |= PCC_PROBE_F_EXT;
		r->p.np_port_type = b->e->ports[b->q->pidx].line_bps > UINT64_C(25000000000);
		r->p.np_rx_bytes = (uint32_t)b->pc->rx_bytes;
	}
	m = np_answer(b, m, info, r, dscp, fmt);
	if (m == NULL)
		return NULL;
	eng_ctr_add(hw ? &b->ctr->probe_hw : &b->ctr->probe_sw, 1);
	eng_ctr_add(fmt == PCC_ENGINE_PROBE_CCMAD                    ? &b->ctr->probe_ccmad :
					fmt == PCC_ENGINE_PROBE_IFA1 ? &b->ctr->probe_ifa1 :
								       &b->ctr->probe_ifa2,
			1);
	return m;
}

/* Linear view of m for the request; NULL if it is too long to copy. */
static const uint8_t *
np_linear(struct np_burst *b, const struct rte_mbuf *m, uint32_t *len)
{
	const uint8_t *f = eng_probe_linear(m, b->nl->scratch, NP_SCRATCH_LEN, len);

	if (f == NULL || *len != m->pkt_len)
		return NULL;
	return f;
}

static struct rte_mbuf *
np_probe_ccmad(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	struct np_req r;

	/* (not memset: custom[] is filled only when there is one) */
	r.mad_off = 0;
	r.ifa_off = 0;
	r.frame = np_linear(b, m, &r.len);
	if (r.frame == NULL || pcc_probe_parse(r.frame, info, &r.p, NULL) != 0) {
		eng_ctr_add(&b->ctr->probe_req, 1);
		eng_ctr_add(&b->ctr->probe_bad, 1);
		rte_pktmbuf_free(m);
		return NULL;
	}
	r.mad_off = info->payload_off;
	return np_probe(b, m, info, &r, PCC_ENGINE_PROBE_CCMAD);
}

/*
 * An IFA2 packet that is not a probe for us (not selected by the GNS, or
 * without a probe request): when it wraps RoCEv2 data marked CE, the data
 * gets its CNP (the IFA headers are telemetry on the data's path); else it
 * is consumed.
 */
static struct rte_mbuf *
np_ifa2_data(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info,
		const uint8_t *f, uint32_t len)
{
	struct pcc_ifa2_info ii;
	struct pcc_pkt_info in;
	struct pcc_bth bth;
	int ext;

	if (info->ecn != PCC_ECN_CE || pcc_ifa2_parse(f, len, info->ip_proto, &ii) != 0 ||
			(uint32_t)ii.udp_off + PCC_UDP_HDR_LEN > len ||
			((uint32_t)f[ii.udp_off + 2] << 8 | f[ii.udp_off + 3]) !=
					PCC_ROCE_UDP_PORT ||
			pcc_bth_parse(f + ii.payload_off, len - ii.payload_off, &bth) != 0) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	ext = pcc_bth_opcode_ext(bth.opcode, NULL);
	if (ext < 0 || (ext & (PCC_EXT_AETH | PCC_EXT_ATOMICACKETH)) || bth.opcode == PCC_OP_CNP) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	in = *info;
	in.kind = PCC_PKT_ROCE_DATA;
	in.opcode = bth.opcode;
	in.dqpn = bth.dqpn;
	in.udp_sport = (uint16_t)((uint32_t)f[ii.udp_off] << 8 | f[ii.udp_off + 1]);
	return np_ce(b, m, &in);
}

static struct rte_mbuf *
np_probe_ifa(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	const struct pcc_engine_np_conf *c = &b->npp->conf;
	bool ifa2 = info->kind == PCC_PKT_IFA2;
	struct np_req r;
	int off, kind;

	memset(&r, 0, sizeof(r));
	r.frame = np_linear(b, m, &r.len);
	if (r.frame == NULL) {
		eng_ctr_add(&b->ctr->ifa_other, 1);
		rte_pktmbuf_free(m);
		return NULL;
	}
	if (ifa2 && info->l4_off >= PCC_IFA2_HDR_LEN) {
		uint8_t gns = r.frame[info->l4_off - PCC_IFA2_HDR_LEN] & 0xF;

		/* DOCA's GNS ignore: matching packets are not the NP's */
		if (c->ifa2_gns_ignore &&
				pcc_ifa2_gns_match(gns, c->ifa2_gns_ignore_mask,
						c->ifa2_gns_ignore_value)) {
			eng_ctr_add(&b->ctr->ifa2_ignored, 1);
			return np_ifa2_data(b, m, info, r.frame, r.len);
		}
		/* select mode: only matching packets are */
		if (!pcc_ifa2_gns_match(gns, c->ifa2_gns_select_mask, c->ifa2_gns_select_value)) {
			eng_ctr_add(&b->ctr->ifa2_unmatched, 1);
			return np_ifa2_data(b, m, info, r.frame, r.len);
		}
	}
	off = eng_probe_ifa_mad_off(r.frame, r.len, info, &r.ifa_off);
	kind = off < 0 ? off :
			 pcc_probe_mad_parse(r.frame + off, r.len - (uint32_t)off, &r.p, NULL);
	if (kind != PCC_PKT_PROBE_REQ) {
		/* telemetry on other traffic, a response, or broken */
		eng_ctr_add(&b->ctr->ifa_other, 1);
		if (ifa2)
			return np_ifa2_data(b, m, info, r.frame, r.len);
		rte_pktmbuf_free(m);
		return NULL;
	}
	r.mad_off = (uint32_t)off;
	return np_probe(b, m, info, &r, ifa2 ? PCC_ENGINE_PROBE_IFA2 : PCC_ENGINE_PROBE_IFA1);
}

/* ---- The fast path for CCMAD requests ------------------------------------------- */

uint16_t
eng_np_fast_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts, uint16_t n,
		uint64_t now_ns, struct rte_mbuf **tx, uint16_t *ntx, uint64_t *bytes)
{
	const struct np_lcore *nl = lc->np;
	const struct pcc_engine_np_conf *c;
	struct pcc_engine_np_stats *ctr;
	struct pcc_probe_fast_ans a;
	struct np_burst b;
	uint64_t nbytes = 0;
	uint16_t i, left = 0, nf = 0;

	*bytes = 0;
	/* off, a handler to show every request to, or a classifier that
	 * checks what the fast path does not (ICRC, IPv4 checksum) */
	if (unlikely(nl == NULL) || nl->np->port[q->pidx].conf.probe_fast_off ||
			nl->np->port[q->pidx].conf.resp_ext || lc->e->popts.check_icrc ||
			lc->e->popts.check_ip_csum || pcc_np_port_handler_get(q->port_id) != NULL)
		return n;
	c = &nl->np->port[q->pidx].conf;
	/* what np_times() reads */
	memset(&b, 0, sizeof(b));
	b.np = nl->np;
	b.npp = &nl->np->port[q->pidx];
	b.q = q;
	b.now = now_ns;
	memset(&a, 0, sizeof(a));
	a.dscp = c->resp_dscp_set ? c->resp_dscp : -1;
	if (q->clk->src != PCC_ENGINE_CLOCK_HW_RX_TS) {
		/* one receive time (now) for the burst: one answer for all,
		 * in one pass over (a slice of) the burst; answered mbufs
		 * out in their order, the rest left in theirs */
		uint16_t nt = *ntx, c0, sn, j;
		uint64_t done, sb;

		np_times(&b, pkts[0], &a.np_recv_ts, &a.np_send_ts);
		a.resp_ts = pcc_probe_resp_ts(0, a.np_send_ts, c->resp_ts_size, c->resp_ts_res);
		for (c0 = 0; c0 < n; c0 = (uint16_t)(c0 + sn)) {
			sn = (uint16_t)RTE_MIN(n - c0, PCC_PROBE_FAST_BURST);
			done = pcc_probe_fast_reflect_mbufs(&pkts[c0], sn, &a, &sb);
			nbytes += sb;
			if (done == RTE_LEN2MASK(sn, uint64_t)) {
				memcpy(&tx[nt], &pkts[c0], sn * sizeof(pkts[0]));
				nt = (uint16_t)(nt + sn);
				continue;
			}
			for (j = 0; j < sn; j++) {
				struct rte_mbuf *m = pkts[c0 + j];

				if ((done >> j) & 1)
					tx[nt++] = m;
				else
					pkts[left++] = m;
			}
		}
		nf = (uint16_t)(nt - *ntx);
		*ntx = nt;
	} else {
		for (i = 0; i < n; i++) {
			struct rte_mbuf *m = pkts[i];
			uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
			int lay, len;

			if (i + 1 < n) {
				const uint8_t *nx = rte_pktmbuf_mtod(pkts[i + 1], const uint8_t *);

				/* headers, MAD and body; the ICRC after the MAD */
				rte_prefetch0(nx);
				rte_prefetch0(nx + RTE_CACHE_LINE_SIZE);
				rte_prefetch0(nx + 2 * RTE_CACHE_LINE_SIZE);
				rte_prefetch0(nx + pkts[i + 1]->data_len - 1);
			}
			if (!mbuf_reusable(m) || m->data_len != m->pkt_len ||
					(lay = pcc_probe_fast_match(f, m->data_len)) == 0) {
				pkts[left++] = m;
				continue;
			}
			np_times(&b, m, &a.np_recv_ts, &a.np_send_ts);
			a.resp_ts = pcc_probe_resp_ts(
					0, a.np_send_ts, c->resp_ts_size, c->resp_ts_res);
			nbytes += m->pkt_len;
			len = pcc_probe_fast_answer(f, lay, &a);
			np_inplace_reset(m, (uint16_t)len);
			tx[(*ntx)++] = m;
			nf++;
		}
	}
	if (nf > 0) {
		ctr = &nl->ctr[q->pidx];
		eng_ctr_add(&lc->pctr[q->pidx].rx_kind[PCC_PKT_PROBE_REQ], nf);
		eng_ctr_add(&ctr->probe_req, nf);
		eng_ctr_add(&ctr->no_handler, nf);
		eng_ctr_add(&ctr->probe_sw, nf);
		eng_ctr_add(&ctr->probe_ccmad, nf);
		*bytes = nbytes;
	}
	return left;
}

/* ---- The runner ------------------------------------------------------------------ */

uint16_t
eng_np_rx(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts,
		const struct pcc_pkt_info *infos, uint16_t n, uint64_t now_ns, struct rte_mbuf **tx,
		uint16_t tx_max)
{
	struct np_lcore *nl = lc->np;
	struct np_burst b;
	uint16_t i, ntx = 0;

	if (unlikely(nl == NULL)) {
		rte_pktmbuf_free_bulk(pkts, n);
		return 0;
	}
	b.e = lc->e;
	b.np = nl->np;
	b.npp = &nl->np->port[q->pidx];
	b.nl = nl;
	b.q = q;
	b.pc = &lc->pctr[q->pidx];
	b.ctr = &nl->ctr[q->pidx];
	b.now = now_ns;
	b.t_send = 0;
	b.rt_off = 0;
	b.t_read = false;
	b.handler = pcc_np_port_handler_get(q->port_id) != NULL;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *out;
		const struct pcc_pkt_info *info = &infos[i];

		switch (info->kind) {
		case PCC_PKT_ROCE_DATA:
			out = np_data(&b, m, info);
			break;
		case PCC_PKT_PROBE_REQ:
			out = np_probe_ccmad(&b, m, info);
			break;
		case PCC_PKT_IFA1:
		case PCC_PKT_IFA2:
			out = np_probe_ifa(&b, m, info);
			break;
		case PCC_PKT_ROCE_ACK:
		case PCC_PKT_ROCE_NAK:
			if (b.npp->learn && np_learn_pkt(b.np, q->pidx, info))
				eng_ctr_add(&b.ctr->learned, 1);
			/* fall through */
		default:
			rte_pktmbuf_free(m);
			out = NULL;
			break;
		}
		if (out == NULL)
			continue;
		if (unlikely(ntx == tx_max)) {
			rte_pktmbuf_free(out);
			eng_ctr_add(&b.ctr->tx_err, 1);
			continue;
		}
		tx[ntx++] = out;
	}
	return ntx;
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
