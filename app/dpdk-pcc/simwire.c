/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Engine configuration of a simulator run (see simwire.h). */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "simwire.h"

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

void
app_sim_store_free(struct app_sim_store *st)
{
	free(st->groups);
	st->groups = NULL;
}

static const struct pcc_sim_algo *
algo_of_slot(const struct app_sim_view *v, uint8_t slot)
{
	uint32_t i;

	for (i = 0; i < v->nb_algos; i++)
		if (v->algos[i].slot == slot)
			return &v->algos[i];
	return NULL;
}

/*
 * mbufs of the engine's pool the fabric may hold at once: the simulator's
 * hint (its buffers and links full of the smallest data frames), or, when
 * every flow the engine sends is finite, what those flows send in all if
 * that is less (a 16:1 incast of 1 MB needs 16000, not the 30000 frames a
 * 32 MB buffer could hold, nor six switches' worth in a leaf-spine).
 */
static uint32_t
fabric_mbufs(const struct app_sim_view *v)
{
	uint64_t n = APP_SIM_MBUFS_SLACK;
	uint32_t i;

	for (i = 0; i < v->nb_flows; i++) {
		const struct pcc_sim_flow_info *f = &v->flows[i];

		if (f->source != PCC_SIM_SRC_ENGINE)
			continue;
		if (f->size == 0)
			return v->mbufs_hint;
		n += (f->size + f->payload_len - 1) / RTE_MAX(f->payload_len, 1u);
	}
	return (uint32_t)RTE_MIN(n, (uint64_t)v->mbufs_hint);
}

/* Offered rate of a flow in Mbit/s, rounded, at least 1. */
static uint32_t
rate_mbps(uint64_t bps)
{
	uint64_t m = (bps + 500000) / 1000000;

	if (m == 0)
		m = 1;
	return m > UINT32_MAX ? UINT32_MAX : (uint32_t)m;
}

/* The group of flow f alone. */
static void
group_of(const struct pcc_sim_flow_info *f, bool slot_set, struct pcc_engine_gen_group *g)
{
	memset(g, 0, sizeof(*g));
	g->port_id = f->src_port_id;
	g->count = 1;
	g->qpn_base = f->qpn;
	g->dst_qpn_base = f->dst_qpn != f->qpn ? f->dst_qpn : 0;
	g->payload_len = f->payload_len;
	g->size = f->size;
	g->start_ns = f->start_ns;
	g->rate_mbps = rate_mbps(f->rate_bps);
	g->int_hdr = f->int_hdr;
	g->slot_set = slot_set;
	g->slot = f->slot;
	g->dst_mac_valid = true;
	memcpy(g->dst_mac, f->dst_mac, sizeof(g->dst_mac));
	g->src_ip = f->src_ip;
	g->dst_ip = f->dst_ip;
}

/* Does flow f continue group g (next QPN, everything else alike)? */
static bool
group_extends(const struct pcc_engine_gen_group *g, const struct pcc_engine_gen_group *n)
{
	struct pcc_engine_gen_group a = *g, b = *n;

	if (b.qpn_base != a.qpn_base + a.count)
		return false;
	if (a.dst_qpn_base != 0 || b.dst_qpn_base != 0)
		return false;
	a.count = 0;
	a.qpn_base = 0;
	b.count = 0;
	b.qpn_base = 0;
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static int
wire_flows(const struct app_sim_view *v, struct app_sim_store *st, struct pcc_engine_conf *conf,
		char *err, size_t errlen)
{
	struct pcc_engine_gen_group g;
	uint32_t i, n = 0;

	st->groups = calloc(v->nb_flows > 0 ? v->nb_flows : 1, sizeof(*st->groups));
	if (st->groups == NULL)
		return fail(err, errlen, "out of memory");
	for (i = 0; i < v->nb_flows; i++) {
		const struct pcc_sim_flow_info *f = &v->flows[i];
		bool slot_set = v->nb_algos > 0;

		if (f->source != PCC_SIM_SRC_ENGINE)
			continue;
		if (f->src_port_id < 0)
			return fail(err, errlen, "simulator flow %s has no engine port", f->name);
		if (f->slot >= PCC_ENGINE_SLOTS)
			return fail(err, errlen, "simulator flow %s: slot %u, at most %u", f->name,
					f->slot, PCC_ENGINE_SLOTS - 1);
		if (slot_set && algo_of_slot(v, f->slot) == NULL)
			return fail(err, errlen,
					"simulator flow %s uses algorithm slot %u, which the "
					"scenario's algorithms: section does not configure",
					f->name, f->slot);
		group_of(f, slot_set, &g);
		if (n > 0 && group_extends(&st->groups[n - 1], &g)) {
			st->groups[n - 1].count++;
			continue;
		}
		if (n == PCC_ENGINE_GEN_GROUPS_MAX)
			return fail(err, errlen,
					"the scenario's engine flows make more than %u generator "
					"groups (give consecutive QPNs to flows of one source)",
					PCC_ENGINE_GEN_GROUPS_MAX);
		st->groups[n++] = g;
	}
	conf->gen.groups = st->groups;
	conf->gen.nb_groups = n;
	conf->gen.nb_flows = 0;
	conf->gen.abs_start = true;
	return 0;
}

static int
wire_algos(const struct app_sim_view *v, struct app_sim_store *st, struct pcc_engine_conf *conf,
		char *err, size_t errlen)
{
	uint32_t i, k;

	for (i = 0; i < v->nb_algos; i++) {
		const struct pcc_sim_algo *al = &v->algos[i];
		struct pcc_engine_slot_conf *sc;

		if (al->slot >= PCC_ENGINE_SLOTS || al->nb_params > PCC_ENGINE_ALGO_PARAMS_MAX)
			return fail(err, errlen, "algorithm slot %u (%s): slot or %u parameters",
					al->slot, al->name, al->nb_params);
		sc = &conf->rp.slots[al->slot];
		for (k = 0; k < al->nb_params; k++) {
			st->params[al->slot][k].name = al->params[k].name;
			st->params[al->slot][k].value = al->params[k].value;
		}
		sc->algo = al->name;
		sc->params = st->params[al->slot];
		sc->nb_params = al->nb_params;
	}
	return 0;
}

/* The engine NP answers for the receivers: CNP DSCP, gap, sender QPNs. */
static void
wire_np(const struct app_sim_view *v, struct app_sim_store *st, struct pcc_engine_conf *conf)
{
	uint32_t i, n = 0;
	uint64_t us;

	conf->np.cnp = true;
	conf->np.cnp_dscp = v->np.cnp_dscp;
	us = (v->np.cnp_gap_ns + 999) / 1000;
	if (v->np.cnp_gap_ns == 0)
		conf->np.cnp_gap_us = PCC_ENGINE_NP_NO_GAP;
	else
		conf->np.cnp_gap_us = us > APP_NP_CNP_GAP_MAX ? APP_NP_CNP_GAP_MAX : (uint32_t)us;
	conf->np.sqpn_offset = 0;
	/* data to dst_qpn gets its CNP at qpn; the offset rule covers the
	 * flows with one QPN on both ends */
	for (i = 0; i < v->nb_flows && n < PCC_ENGINE_NP_SQPN_MAP_MAX; i++) {
		const struct pcc_sim_flow_info *f = &v->flows[i];

		if (f->dst_qpn == f->qpn || f->dst_port_id < 0)
			continue;
		st->sqpn[n].dqpn = f->dst_qpn;
		st->sqpn[n].sqpn = f->qpn;
		n++;
	}
	conf->np.sqpn_map = n > 0 ? st->sqpn : NULL;
	conf->np.nb_sqpn_map = n;
}

/*
 * More sender hosts than lib/dev has logical ports: they share them, in
 * turn (same algorithm slots and parameters for all; counters summed per
 * logical port), which needs one line rate.
 */
static int
share_dev_ports(const struct app_sim_view *v, struct pcc_engine_conf *conf, char *err,
		size_t errlen)
{
	uint64_t rate = 0;
	uint16_t i, n = 0;

	for (i = 0; i < v->nb_ports; i++)
		if (v->ports[i].roles & PCC_SIM_ROLE_RP)
			n++;
	if (n <= PCC_ENGINE_DEV_PORTS)
		return 0;
	n = 0;
	for (i = 0; i < v->nb_ports; i++) {
		const struct pcc_sim_port_info *p = &v->ports[i];
		struct pcc_engine_port_conf *pc = &conf->port[p->port_id];

		if (!(p->roles & PCC_SIM_ROLE_RP))
			continue;
		if (rate != 0 && p->line_rate_bps != rate)
			return fail(err, errlen,
					"more than %u sender hosts share the engine's %u logical "
					"ports, which needs one link rate for all of them",
					PCC_ENGINE_DEV_PORTS, PCC_ENGINE_DEV_PORTS);
		rate = p->line_rate_bps;
		pc->dev_port_set = true;
		pc->dev_port = (uint8_t)(n++ % PCC_ENGINE_DEV_PORTS);
	}
	return 0;
}

int
app_sim_wiring(const struct app_args *a, const struct app_sim_view *v, struct app_sim_store *st,
		struct pcc_engine_conf *conf, char *err, size_t errlen)
{
	uint16_t i;

	memset(st->rxq, 0, sizeof(st->rxq));
	st->groups = NULL;
	pcc_engine_conf_default(conf);
	conf->nb_rxq = 1;
	conf->nb_txq = 0;
	conf->nb_rxd = a->rxd;
	conf->nb_txd = a->txd;
	conf->nb_mbufs = a->nb_mbufs;
	conf->nb_mbufs_extra = a->nb_mbufs != 0 ? 0 : fabric_mbufs(v);
	conf->burst = a->burst;
	conf->idle_sleep_us = a->idle_sleep_us;
	conf->gen = a->gen;
	conf->np = a->np;
	memcpy(conf->probe, a->probe, sizeof(conf->probe));
	/* a table for the scenario's flows, not the live default of 1M */
	conf->flow.capacity =
			a->flows_set ? a->flows : RTE_MAX(APP_SIM_FLOWS_MIN, 2u * v->nb_flows);
	conf->flow.idle_ms = a->flow_idle_ms;
	conf->flow.full = a->flow_full;
	conf->rp.tx_coalesce_bytes = a->txc_bytes;
	conf->rp.tx_coalesce_us = a->txc_us;
	conf->rp.timer_us = a->timer_us;
	conf->rp.pacer = a->pacer;
	conf->rp.pacer_queue = a->pacer_queue;
	/* the host NICs send paced packets at the pacer's departure times */
	conf->rp.tx_stamp = true;

	if (v->nb_ports == 0)
		return fail(err, errlen,
				"the scenario has no host for the engine (every flow has source: "
				"model and the receivers use the hardware NP)");
	if (v->nb_ports > RTE_MAX_ETHPORTS)
		return fail(err, errlen, "%u simulator ports, at most %u", v->nb_ports,
				RTE_MAX_ETHPORTS);
	for (i = 0; i < v->nb_ports; i++) {
		const struct pcc_sim_port_info *p = &v->ports[i];
		struct pcc_engine_port_conf *pc = &conf->port[p->port_id];

		pc->roles = (uint8_t)(((p->roles & PCC_SIM_ROLE_RP) ? PCC_ENGINE_ROLE_RP : 0) |
				((p->roles & PCC_SIM_ROLE_NP) ? PCC_ENGINE_ROLE_NP : 0));
		pc->peer_mac_valid = true;
		memcpy(pc->peer_mac, p->peer_mac, sizeof(pc->peer_mac));
		pc->line_rate_bps = p->line_rate_bps;
		st->rxq[i].port_id = p->port_id;
		st->rxq[i].queue_id = 0;
		st->rxq[i].lcore_id = v->poll_lcore;
	}
	conf->rxq = st->rxq;
	conf->nb_rxq_conf = v->nb_ports;
	if (share_dev_ports(v, conf, err, errlen) < 0)
		return -1;
	if (wire_flows(v, st, conf, err, errlen) < 0 || wire_algos(v, st, conf, err, errlen) < 0) {
		app_sim_store_free(st);
		return -1;
	}
	wire_np(v, st, conf);
	return 0;
}
