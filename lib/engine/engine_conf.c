/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Engine configuration: defaults, TX queue plan, the checks of
 * pcc_engine_create() (engine.c). */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "engine_internal.h"
#include "engine_np.h"

#define LCORE_SET_WORDS ((RTE_MAX_LCORE + 63) / 64)

void
pcc_engine_conf_default(struct pcc_engine_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->nb_rxq = 1;
	conf->nb_txq = 0;
	conf->nb_rxd = 1024;
	conf->nb_txd = 1024;
	conf->burst = 32;
	conf->gen.qpn_base = 0x100;
	conf->gen.payload_len = 1024;
	conf->gen.rate_mbps = 1000;
	conf->gen.dscp = 26;
	conf->gen.src_ip.v4 = RTE_IPV4(10, 0, 0, 1);
	conf->gen.dst_ip.v4 = RTE_IPV4(10, 0, 0, 2);
	conf->np.cnp = true;
	conf->np.cnp_dscp = 48;
	conf->flow.capacity = PCC_ENGINE_FLOWS_DEFAULT;
	conf->flow.idle_ms = 10000;
	conf->flow.full = PCC_ENGINE_FLOW_FULL_EVICT;
	conf->rp.tx_coalesce_bytes = 65536;
	conf->rp.tx_coalesce_us = 20;
	conf->rp.timer_us = 0;
	conf->rp.pacer = "wheel";
}

static inline void
set_add(uint64_t *set, unsigned int l)
{
	set[l / 64] |= UINT64_C(1) << (l % 64);
}

static inline bool
set_has(const uint64_t *set, unsigned int l)
{
	return (set[l / 64] & (UINT64_C(1) << (l % 64))) != 0;
}

/* Lcores polling a queue of port_id into set (added); returns how many. */
static void
port_lcores(const struct pcc_engine_rxq_conf *rxq, uint32_t nb, uint16_t port_id, uint64_t *set)
{
	uint32_t i;

	for (i = 0; i < nb; i++)
		if (rxq[i].port_id == port_id && rxq[i].lcore_id < RTE_MAX_LCORE)
			set_add(set, rxq[i].lcore_id);
}

/* Lcores that transmit on port_id: its pollers, and for forward mode's
 * host side the wire side's pollers. */
static unsigned int
tx_lcores(const struct pcc_engine_conf *conf, uint16_t port_id, uint64_t set[LCORE_SET_WORDS])
{
	unsigned int count = 0, w;

	memset(set, 0, sizeof(uint64_t) * LCORE_SET_WORDS);
	port_lcores(conf->rxq, conf->nb_rxq_conf, port_id, set);
	if (conf->fwd.enabled && port_id == conf->fwd.port_a)
		port_lcores(conf->rxq, conf->nb_rxq_conf, conf->fwd.port_b, set);
	for (w = 0; w < LCORE_SET_WORDS; w++)
		count += (unsigned int)__builtin_popcountll(set[w]);
	return count;
}

unsigned int
pcc_engine_txq_needed(const struct pcc_engine_conf *conf, uint16_t port_id)
{
	uint64_t set[LCORE_SET_WORDS];

	return tx_lcores(conf, port_id, set);
}

/* TX queue of lcore on port: rank of the lcore among those sending on it. */
int
eng_txq_rank(const struct pcc_engine_conf *conf, uint16_t port_id, unsigned int lcore_id)
{
	uint64_t set[LCORE_SET_WORDS];
	unsigned int l;
	int rank = 0;

	tx_lcores(conf, port_id, set);
	if (lcore_id >= RTE_MAX_LCORE || !set_has(set, lcore_id))
		return -ENOENT;
	for (l = 0; l < lcore_id; l++)
		if (set_has(set, l))
			rank++;
	return rank;
}

static bool
port_is_rp(const struct pcc_engine_conf *c, int32_t port_id)
{
	return port_id >= 0 && port_id < RTE_MAX_ETHPORTS &&
			(c->port[port_id].roles & PCC_ENGINE_ROLE_RP) != 0;
}

#define GEN_START_MAX_NS UINT64_C(1000000000000000000)

static int
conf_check_gen(const struct pcc_engine_conf *c, unsigned int nb_rp)
{
	const struct pcc_engine_gen_conf *g = &c->gen;
	uint64_t total = 0;
	uint32_t i;

	if (g->nb_flows == 0 && g->nb_groups == 0)
		return 0;
	if (nb_rp == 0) {
		ENG_LOG(ERR, "the generator needs an RP port");
		return -EINVAL;
	}
	if (g->nb_flows > 0 && g->nb_groups > 0) {
		ENG_LOG(ERR, "generator: flows from nb_flows and from groups at once");
		return -EINVAL;
	}
	if (g->nb_flows > PCC_ENGINE_GEN_FLOWS_MAX) {
		ENG_LOG(ERR, "%u generator flows, at most %u", g->nb_flows,
				PCC_ENGINE_GEN_FLOWS_MAX);
		return -EINVAL;
	}
	if (g->nb_flows > 0 &&
			(g->qpn_base < 2 ||
					g->qpn_base + (uint64_t)g->nb_flows - 1 > PCC_QPN_MASK)) {
		ENG_LOG(ERR, "generator QPNs %u..%u outside 2..%u", g->qpn_base,
				g->qpn_base + g->nb_flows - 1, PCC_QPN_MASK);
		return -EINVAL;
	}
	if (g->payload_len > PCC_ENGINE_GEN_PAYLOAD_MAX || g->dscp > 63 || g->ce_ppm > 1000000) {
		ENG_LOG(ERR, "generator payload %u (max %u), DSCP %u or CE %u ppm out of range",
				g->payload_len, PCC_ENGINE_GEN_PAYLOAD_MAX, g->dscp, g->ce_ppm);
		return -EINVAL;
	}
	if (g->nb_groups > PCC_ENGINE_GEN_GROUPS_MAX || (g->nb_groups > 0 && g->groups == NULL)) {
		ENG_LOG(ERR, "%u generator groups, at most %u", g->nb_groups,
				PCC_ENGINE_GEN_GROUPS_MAX);
		return -EINVAL;
	}
	for (i = 0; i < g->nb_groups; i++) {
		const struct pcc_engine_gen_group *gr = &g->groups[i];

		if (gr->count == 0 || gr->qpn_base < 2 ||
				gr->qpn_base + (uint64_t)gr->count - 1 > PCC_QPN_MASK) {
			ENG_LOG(ERR, "generator group %u: %u flows from QPN %u outside 2..%u", i,
					gr->count, gr->qpn_base, PCC_QPN_MASK);
			return -EINVAL;
		}
		if (gr->payload_len > PCC_ENGINE_GEN_PAYLOAD_MAX) {
			ENG_LOG(ERR, "generator group %u: payload %u, at most %u", i,
					gr->payload_len, PCC_ENGINE_GEN_PAYLOAD_MAX);
			return -EINVAL;
		}
		/* each part of a flow's start below 10^18 ns: their sum fits */
		if (gr->start_us > GEN_START_MAX_NS / 1000 || gr->start_ns > GEN_START_MAX_NS ||
				(gr->count > 1 &&
						gr->stagger_ns > GEN_START_MAX_NS /
										(gr->count - 1))) {
			ENG_LOG(ERR, "generator group %u: start or stagger too large", i);
			return -EINVAL;
		}
		if (gr->port_id >= 0 && !port_is_rp(c, gr->port_id)) {
			ENG_LOG(ERR, "generator group %u: port %d is not an RP port", i,
					gr->port_id);
			return -EINVAL;
		}
		if ((gr->slot_set && gr->slot >= PCC_ENGINE_SLOTS) ||
				(gr->dst_qpn_base != 0 &&
						(gr->dst_qpn_base < 2 ||
								gr->dst_qpn_base + (uint64_t)gr->count -
												1 >
										PCC_QPN_MASK)) ||
				(g->ipv6 && (gr->src_ip != 0 || gr->dst_ip != 0))) {
			ENG_LOG(ERR,
					"generator group %u: slot %u, DestQP base %u or an IPv4 "
					"address with IPv6 traffic",
					i, gr->slot, gr->dst_qpn_base);
			return -EINVAL;
		}
		total += (uint64_t)gr->count * (gr->port_id >= 0 ? 1 : nb_rp);
	}
	if (total > PCC_ENGINE_GEN_FLOWS_TOTAL_MAX) {
		ENG_LOG(ERR, "%" PRIu64 " generator flows, at most %u", total,
				PCC_ENGINE_GEN_FLOWS_TOTAL_MAX);
		return -EINVAL;
	}
	return 0;
}

static int
conf_check_fwd(const struct pcc_engine_conf *c)
{
	const struct pcc_engine_fwd_conf *f = &c->fwd;
	uint16_t p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!(c->port[p].roles & PCC_ENGINE_ROLE_FWD))
			continue;
		if (!f->enabled || p != f->port_a) {
			ENG_LOG(ERR,
					"port %u has the forward role but is not forward mode's "
					"host "
					"port",
					p);
			return -EINVAL;
		}
	}
	if (!f->enabled)
		return 0;
	if (f->port_a >= RTE_MAX_ETHPORTS || f->port_b >= RTE_MAX_ETHPORTS ||
			f->port_a == f->port_b) {
		ENG_LOG(ERR, "forward mode needs two different ports (%u, %u)", f->port_a,
				f->port_b);
		return -EINVAL;
	}
	if (c->port[f->port_a].roles != PCC_ENGINE_ROLE_FWD) {
		ENG_LOG(ERR, "forward mode: host port %u must have the forward role only",
				f->port_a);
		return -EINVAL;
	}
	if (c->port[f->port_b].roles != PCC_ENGINE_ROLE_RP) {
		ENG_LOG(ERR, "forward mode: wire port %u must have the RP role only", f->port_b);
		return -EINVAL;
	}
	return 0;
}

static_assert(PCC_ENGINE_DEV_PORTS == PCC_DEV_MAX_PORTS, "lib/dev logical ports");
static_assert(PCC_ENGINE_SLOTS == PCC_DEV_MAX_SLOTS, "lib/dev slots");

/*
 * lib/dev logical ports: one per RP port, or as conf.port[].dev_port says
 * (all RP ports then name one, below PCC_DEV_MAX_PORTS, and ports sharing
 * one have the same configured line rate).
 */
static int
conf_check_dev_ports(const struct pcc_engine_conf *c, unsigned int nb_rp)
{
	uint64_t rate[PCC_DEV_MAX_PORTS];
	bool used[PCC_DEV_MAX_PORTS] = { false };
	unsigned int nb_set = 0;
	uint16_t p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct pcc_engine_port_conf *pc = &c->port[p];

		if (!(pc->roles & PCC_ENGINE_ROLE_RP) || !pc->dev_port_set)
			continue;
		nb_set++;
		if (pc->dev_port >= PCC_DEV_MAX_PORTS) {
			ENG_LOG(ERR, "port %u: lib/dev port %u, at most %u", p, pc->dev_port,
					PCC_DEV_MAX_PORTS - 1);
			return -EINVAL;
		}
		if (used[pc->dev_port] && rate[pc->dev_port] != pc->line_rate_bps) {
			ENG_LOG(ERR,
					"port %u shares lib/dev port %u with a port of another "
					"line rate",
					p, pc->dev_port);
			return -EINVAL;
		}
		used[pc->dev_port] = true;
		rate[pc->dev_port] = pc->line_rate_bps;
	}
	if (nb_set == 0 && nb_rp > PCC_DEV_MAX_PORTS) {
		ENG_LOG(ERR, "%u RP ports, at most %u (or give them shared lib/dev ports)", nb_rp,
				PCC_DEV_MAX_PORTS);
		return -EINVAL;
	}
	if (nb_set != 0 && nb_set != nb_rp) {
		ENG_LOG(ERR, "lib/dev ports given for %u of %u RP ports: all or none", nb_set,
				nb_rp);
		return -EINVAL;
	}
	return 0;
}

int
eng_conf_check(const struct pcc_engine_conf *c)
{
	unsigned int nb_rp = 0, nb_ports = 0;
	uint64_t lcores[LCORE_SET_WORDS];
	uint32_t i, j, nb_lcores = 0;
	uint16_t pid;
	int ret;

	if (c->burst == 0 || c->burst > PCC_ENGINE_BURST_MAX) {
		ENG_LOG(ERR, "burst %u outside 1..%u", c->burst, PCC_ENGINE_BURST_MAX);
		return -EINVAL;
	}
	if (c->nb_rxq == 0 || c->nb_rxd == 0 || c->nb_txd == 0) {
		ENG_LOG(ERR, "RX queues and descriptor counts must be > 0");
		return -EINVAL;
	}
	if (c->np.cnp_dscp > 63 || c->np.sqpn_offset > PCC_QPN_MASK) {
		ENG_LOG(ERR, "CNP DSCP %u or sender QPN offset %u out of range", c->np.cnp_dscp,
				c->np.sqpn_offset);
		return -EINVAL;
	}
	memset(lcores, 0, sizeof(lcores));
	for (i = 0; i < c->nb_rxq_conf; i++) {
		const struct pcc_engine_rxq_conf *q = &c->rxq[i];

		if (q->port_id >= RTE_MAX_ETHPORTS || c->port[q->port_id].roles == 0) {
			ENG_LOG(ERR, "(%u,%u,%u): port %u has no role", q->port_id, q->queue_id,
					q->lcore_id, q->port_id);
			return -EINVAL;
		}
		if (q->queue_id >= c->nb_rxq) {
			ENG_LOG(ERR, "(%u,%u,%u): RX queue %u, ports have %u", q->port_id,
					q->queue_id, q->lcore_id, q->queue_id, c->nb_rxq);
			return -EINVAL;
		}
		if (q->lcore_id >= RTE_MAX_LCORE || !rte_lcore_is_enabled(q->lcore_id)) {
			ENG_LOG(ERR, "(%u,%u,%u): lcore %u is not enabled", q->port_id, q->queue_id,
					q->lcore_id, q->lcore_id);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (c->rxq[j].port_id == q->port_id && c->rxq[j].queue_id == q->queue_id) {
				ENG_LOG(ERR, "port %u RX queue %u is polled twice", q->port_id,
						q->queue_id);
				return -EINVAL;
			}
		}
		if (!set_has(lcores, q->lcore_id))
			nb_lcores++;
		set_add(lcores, q->lcore_id);
	}
	for (pid = 0; pid < RTE_MAX_ETHPORTS; pid++) {
		unsigned int need;
		bool polled = false;

		if (c->port[pid].roles == 0)
			continue;
		if (!rte_eth_dev_is_valid_port(pid)) {
			ENG_LOG(ERR, "port %u does not exist", pid);
			return -EINVAL;
		}
		nb_ports++;
		if (c->port[pid].roles & PCC_ENGINE_ROLE_RP)
			nb_rp++;
		for (i = 0; i < c->nb_rxq_conf; i++)
			if (c->rxq[i].port_id == pid && c->rxq[i].queue_id == 0)
				polled = true;
		if (!polled) {
			ENG_LOG(ERR, "port %u has a role but no lcore polls its RX queue 0", pid);
			return -EINVAL;
		}
		need = pcc_engine_txq_needed(c, pid);
		if (c->nb_txq != 0 && c->nb_txq < need) {
			ENG_LOG(ERR,
					"port %u is sent on by %u lcores, each needs a TX queue of "
					"its own, but only %u TX queues are configured",
					pid, need, c->nb_txq);
			return -EINVAL;
		}
	}
	if (nb_ports == 0) {
		ENG_LOG(ERR, "no port has a role");
		return -EINVAL;
	}
	ret = conf_check_dev_ports(c, nb_rp);
	if (ret < 0)
		return ret;
	if (nb_lcores > PCC_DEV_MAX_THREADS) {
		ENG_LOG(ERR, "%u polling lcores, at most %u", nb_lcores, PCC_DEV_MAX_THREADS);
		return -EINVAL;
	}
	if (c->flow.capacity != 0 &&
			(c->flow.capacity > PCC_ENGINE_FLOWS_MAX ||
					c->flow.capacity <
							nb_lcores * PCC_ENGINE_FLOWS_LCORE_MIN)) {
		ENG_LOG(ERR, "flow table capacity %u outside %u (%u per polling lcore)..%u",
				c->flow.capacity, nb_lcores * PCC_ENGINE_FLOWS_LCORE_MIN,
				PCC_ENGINE_FLOWS_LCORE_MIN, PCC_ENGINE_FLOWS_MAX);
		return -EINVAL;
	}
	if (c->flow.full > PCC_ENGINE_FLOW_FULL_REFUSE || c->flow.ctx_size > PCC_DEV_CTX_MAX) {
		ENG_LOG(ERR, "flow table: policy %u or context size %u out of range", c->flow.full,
				c->flow.ctx_size);
		return -EINVAL;
	}
	if (c->rp.nb_params > PCC_ENGINE_ALGO_PARAMS_MAX ||
			(c->rp.nb_params > 0 && c->rp.params == NULL)) {
		ENG_LOG(ERR, "%u algorithm parameters, at most %u", c->rp.nb_params,
				PCC_ENGINE_ALGO_PARAMS_MAX);
		return -EINVAL;
	}
	if (c->rp.algo != NULL && strlen(c->rp.algo) >= PCC_DEV_NAME_MAX) {
		ENG_LOG(ERR, "algorithm name '%s' too long", c->rp.algo);
		return -EINVAL;
	}
	for (i = 0; i < PCC_ENGINE_SLOTS; i++) {
		const struct pcc_engine_slot_conf *sc = &c->rp.slots[i];

		if (sc->algo == NULL || sc->algo[0] == '\0') {
			if (sc->nb_params > 0) {
				ENG_LOG(ERR, "slot %u: parameters but no algorithm", i);
				return -EINVAL;
			}
			continue;
		}
		if (strlen(sc->algo) >= PCC_DEV_NAME_MAX ||
				sc->nb_params > PCC_ENGINE_ALGO_PARAMS_MAX ||
				(sc->nb_params > 0 && sc->params == NULL)) {
			ENG_LOG(ERR, "slot %u: algorithm name '%s' too long or %u parameters", i,
					sc->algo, sc->nb_params);
			return -EINVAL;
		}
		if (i == 0 && c->rp.algo != NULL && c->rp.algo[0] != '\0') {
			ENG_LOG(ERR, "slot 0 configured twice (rp.algo %s and rp.slots[0] %s)",
					c->rp.algo, sc->algo);
			return -EINVAL;
		}
	}
	if (c->rp.pace_ahead_ns > ENG_PACE_AHEAD_NS) {
		ENG_LOG(ERR, "generator look-ahead %u ns, at most %u", c->rp.pace_ahead_ns,
				ENG_PACE_AHEAD_NS);
		return -EINVAL;
	}
	if (c->nb_mbufs != 0 && c->nb_mbufs_extra != 0) {
		ENG_LOG(ERR, "nb_mbufs and nb_mbufs_extra at once");
		return -EINVAL;
	}
	ret = conf_check_fwd(c);
	if (ret < 0)
		return ret;
	return conf_check_gen(c, nb_rp);
}
