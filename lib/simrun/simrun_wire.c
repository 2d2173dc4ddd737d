/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Engine configuration of a simulator run (see simrun_internal.h). */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "pcc_host.h"
#include "simrun_internal.h"

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
simrun_plan_free(struct simrun_plan *plan)
{
	free(plan->groups);
	plan->groups = NULL;
	plan->nb_groups = 0;
}

static const struct pcc_sim_algo *
algo_of_slot(const struct simrun_view *v, uint8_t slot)
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
fabric_mbufs(const struct simrun_view *v)
{
	uint64_t n = SIMRUN_MBUFS_SLACK;
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

/*
 * Does flow n continue group g: next QPN, starts one stagger after the
 * group's last flow (a scenario's `stagger`; the second flow sets it),
 * everything else alike?  Then *stagger is the group's stagger.
 */
static bool
group_extends(const struct pcc_engine_gen_group *g, const struct pcc_engine_gen_group *n,
		uint64_t *stagger)
{
	struct pcc_engine_gen_group a = *g, b = *n;

	if (b.qpn_base != a.qpn_base + a.count)
		return false;
	if (a.dst_qpn_base != 0 || b.dst_qpn_base != 0)
		return false;
	if (b.start_ns < a.start_ns)
		return false;
	*stagger = a.count == 1 ? b.start_ns - a.start_ns : a.stagger_ns;
	if (b.start_ns != a.start_ns + *stagger * a.count)
		return false;
	a.count = 0;
	a.qpn_base = 0;
	a.start_ns = 0;
	a.stagger_ns = 0;
	b.count = 0;
	b.qpn_base = 0;
	b.start_ns = 0;
	b.stagger_ns = 0;
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static int
wire_flows(const struct simrun_view *v, struct simrun_plan *plan, char *err, size_t errlen)
{
	struct pcc_engine_gen_group g;
	uint32_t i, n = 0;
	uint64_t stagger;

	plan->groups = calloc(v->nb_flows > 0 ? v->nb_flows : 1, sizeof(*plan->groups));
	if (plan->groups == NULL)
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
		if (n > 0 && group_extends(&plan->groups[n - 1], &g, &stagger)) {
			plan->groups[n - 1].stagger_ns = stagger;
			plan->groups[n - 1].count++;
			continue;
		}
		if (n == PCC_ENGINE_GEN_GROUPS_MAX)
			return fail(err, errlen,
					"the scenario's engine flows make more than %u generator "
					"groups (give consecutive QPNs to flows of one source)",
					PCC_ENGINE_GEN_GROUPS_MAX);
		plan->groups[n++] = g;
	}
	plan->nb_groups = n;
	return 0;
}

/* The engine NP answers for the receivers: CNP DSCP, gap, sender QPNs. */
static void
wire_np(const struct simrun_view *v, struct simrun_plan *plan)
{
	uint32_t i, n = 0;
	uint64_t us;

	plan->cnp_dscp = v->np.cnp_dscp;
	us = (v->np.cnp_gap_ns + 999) / 1000;
	plan->cnp_gap_us = v->np.cnp_gap_ns == 0 ? 0 :
			us > SIMRUN_CNP_GAP_MAX  ? SIMRUN_CNP_GAP_MAX :
						   (uint32_t)us;
	/* data to dst_qpn gets its CNP at qpn; the offset rule covers the
	 * flows with one QPN on both ends */
	for (i = 0; i < v->nb_flows && n < PCC_ENGINE_NP_SQPN_MAP_MAX; i++) {
		const struct pcc_sim_flow_info *f = &v->flows[i];

		if (f->dst_qpn == f->qpn || f->dst_port_id < 0)
			continue;
		plan->sqpn[n].dqpn = f->dst_qpn;
		plan->sqpn[n].sqpn = f->qpn;
		n++;
	}
	plan->nb_sqpn = n;
}

/*
 * More sender hosts than lib/dev has logical ports: they share them, in
 * turn (same algorithm slots and parameters for all; counters summed per
 * logical port), which needs one line rate.
 */
static int
share_dev_ports(const struct simrun_view *v, struct simrun_plan *plan, char *err, size_t errlen)
{
	uint64_t rate = 0;
	uint16_t i, n = 0;

	for (i = 0; i < v->nb_ports; i++)
		if (v->ports[i].roles & PCC_SIM_ROLE_RP)
			n++;
	if (n <= PCC_ENGINE_DEV_PORTS)
		return 0;
	for (i = 0; i < v->nb_ports; i++) {
		const struct pcc_sim_port_info *p = &v->ports[i];

		if (!(p->roles & PCC_SIM_ROLE_RP))
			continue;
		if (rate != 0 && p->line_rate_bps != rate)
			return fail(err, errlen,
					"more than %u sender hosts share the engine's %u logical "
					"ports, which needs one link rate for all of them",
					PCC_ENGINE_DEV_PORTS, PCC_ENGINE_DEV_PORTS);
		rate = p->line_rate_bps;
	}
	plan->share_dev_ports = true;
	return 0;
}

int
simrun_wiring(const struct pcc_simrun_conf *c, const struct simrun_view *v,
		struct simrun_plan *plan, char *err, size_t errlen)
{
	memset(plan, 0, sizeof(*plan));
	if (v->nb_ports == 0)
		return fail(err, errlen,
				"the scenario has no host for the engine (every flow has source: "
				"model and the receivers use the hardware NP)");
	if (v->nb_ports > RTE_MAX_ETHPORTS)
		return fail(err, errlen, "%u simulator ports, at most %u", v->nb_ports,
				RTE_MAX_ETHPORTS);
	/* a table for the scenario's flows, not the live default of 1M */
	plan->flows = c->flows_set ? 0 : RTE_MAX(SIMRUN_FLOWS_MIN, 2u * v->nb_flows);
	plan->mbufs_extra = c->mbufs_set ? 0 : fabric_mbufs(v);
	if (share_dev_ports(v, plan, err, errlen) < 0)
		return -1;
	if (wire_flows(v, plan, err, errlen) < 0) {
		simrun_plan_free(plan);
		return -1;
	}
	wire_np(v, plan);
	return 0;
}

/* ---- Through lib/host ------------------------------------------------- */

static struct pcc_host_ctx *
ctx_new(const struct pcc_simrun_conf *c, uint16_t port, bool np, char *err, size_t errlen)
{
	if (c->ctx_new != NULL)
		return c->ctx_new(c->arg, port, np, err, errlen);
	return simrun_ctx_default(port, np, err, errlen);
}

static int
host_fail(char *err, size_t errlen, const char *what)
{
	return fail(err, errlen, "%s: %s", what, pcc_host_last_error());
}

/* The scenario's algorithms and parameters on an RP context. */
static int
apply_algos(const struct simrun_view *v, struct pcc_host_ctx *ctx, char *err, size_t errlen)
{
	uint32_t i;

	for (i = 0; i < v->nb_algos; i++) {
		const struct pcc_sim_algo *al = &v->algos[i];

		if (pcc_host_set_slot_app(ctx, al->slot, al->name) < 0)
			return host_fail(err, errlen, "scenario algorithm");
		if (simrun_algo_params(ctx, al,
				    al->slot < PCC_SIM_SLOTS_MAX ? v->base_rtt_ns[al->slot] : 0,
				    err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The receivers' CNP settings on an NP context. */
static int
apply_np(const struct simrun_plan *plan, struct pcc_host_ctx *ctx, char *err, size_t errlen)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u", plan->cnp_dscp);
	if (pcc_host_opt_set(ctx, "np-cnp", "on") < 0 ||
			pcc_host_opt_set(ctx, "np-cnp-dscp", buf) < 0)
		return host_fail(err, errlen, "scenario NP");
	snprintf(buf, sizeof(buf), "%u", plan->cnp_gap_us);
	if (pcc_host_opt_set(ctx, "np-cnp-gap-us", buf) < 0 ||
			pcc_host_opt_set(ctx, "np-sqpn-offset", "0") < 0)
		return host_fail(err, errlen, "scenario NP");
	if (plan->nb_sqpn > 0 && pcc_host_np_set_sqpn_map(ctx, plan->sqpn, plan->nb_sqpn) < 0)
		return host_fail(err, errlen, "scenario sender QPNs");
	return 0;
}

int
simrun_apply(const struct pcc_simrun_conf *c, const struct simrun_view *v,
		const struct simrun_plan *plan, char *err, size_t errlen)
{
	struct pcc_host_ctx *ctx;
	char buf[32];
	uint16_t i, n_rp = 0;
	int k;

	/* the user's process options first (plug-ins, ...), then the run's */
	if (c->opts != NULL && c->opts(c->arg, NULL, err, errlen) < 0)
		return -1;
	if (plan->flows != 0) {
		snprintf(buf, sizeof(buf), "%u", plan->flows);
		if (pcc_host_opt_set(NULL, "flows", buf) < 0)
			return host_fail(err, errlen, "flow table");
	}
	/* the host NICs send paced packets at the pacer's departure times */
	if (pcc_host_set_engine_extra(plan->mbufs_extra, true) < 0 ||
			pcc_host_gen_groups_set(plan->groups, plan->nb_groups, true) < 0)
		return host_fail(err, errlen, "engine");
	for (i = 0; i < v->nb_ports; i++) {
		const struct pcc_sim_port_info *p = &v->ports[i];

		for (k = 0; k < 2; k++) {
			bool np = k == 1;

			if (!(p->roles & (np ? PCC_SIM_ROLE_NP : PCC_SIM_ROLE_RP)))
				continue;
			ctx = ctx_new(c, p->port_id, np, err, errlen);
			if (ctx == NULL)
				return -1;
			if (pcc_host_set_affinity(ctx, &v->poll_lcore, 1) < 0 ||
					pcc_host_set_peer_mac(ctx, p->peer_mac) < 0)
				return host_fail(err, errlen, "simulator port");
			if (np) {
				if (apply_np(plan, ctx, err, errlen) < 0)
					return -1;
				if (v->np.app != NULL && v->np.app[0] != '\0' &&
						pcc_host_set_app(ctx, v->np.app) < 0)
					return host_fail(err, errlen, "scenario hosts.np_app");
			} else {
				if (pcc_host_set_line_rate(ctx, p->line_rate_bps) < 0 ||
						(plan->share_dev_ports &&
								pcc_host_rp_set_dev_port(ctx,
										(uint8_t)(n_rp %
												PCC_ENGINE_DEV_PORTS)) <
										0))
					return host_fail(err, errlen, "simulator port");
				n_rp++;
				if (apply_algos(v, ctx, err, errlen) < 0)
					return -1;
			}
			if (c->opts != NULL && c->opts(c->arg, ctx, err, errlen) < 0)
				return -1;
		}
	}
	return 0;
}

int
simrun_np_mailbox(const struct simrun_view *v, char *err, size_t errlen)
{
	struct pcc_host_ctx *ctx;
	uint32_t cap, rlen;
	uint16_t i;
	uint8_t *req;
	int hrc;

	if (v->np.mailbox_len == 0)
		return 0;
	/* before the loop runs: the request is served at virtual time 0 (the
	 * main lcore polls; the mailbox then runs on it at once) */
	for (i = 0; i < v->nb_ports; i++) {
		ctx = pcc_host_ctx_find(v->ports[i].port_id, PCC_HOST_ROLE_NP);
		if (ctx == NULL)
			continue;
		req = pcc_host_mailbox_req_buf(ctx, &cap);
		if (req == NULL || cap < v->np.mailbox_len)
			return fail(err, errlen, "hosts.np_mailbox: %u bytes, the mailbox holds %u",
					v->np.mailbox_len, req == NULL ? 0 : cap);
		memcpy(req, v->np.mailbox, v->np.mailbox_len);
		if (pcc_host_mailbox_send(ctx, 0, v->np.mailbox_len, &rlen, &hrc, 1000) < 0)
			return host_fail(err, errlen, "hosts.np_mailbox");
		if (hrc < 0)
			return fail(err, errlen,
					"hosts.np_mailbox: port %u: the handler failed: %s",
					v->ports[i].port_id, strerror(-hrc));
		SIMRUN_LOG(INFO, "port %u: NP mailbox request of %u bytes, handler returned %d",
				v->ports[i].port_id, v->np.mailbox_len, hrc);
	}
	return 0;
}
