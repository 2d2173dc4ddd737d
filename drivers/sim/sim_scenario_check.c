/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A scenario's defaults and the checks across its sections once parsed
 * (rates the INT header can carry, QPNs unique per host, slots the flows
 * use): sy_defaults(), sy_validate().  Reference: doc/simulator.md.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include <rte_common.h>

#include "sim_yaml_internal.h"

/* ---- Defaults, validation ------------------------------------------------------ */

void
sy_defaults(struct pcc_sim_scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->seed = 1;
	s->duration_ns = 10 * MS;
	s->quantum_ns = 250;
	s->topo.type = SIM_TOPO_DUMBBELL;
	s->topo.senders = 2;
	s->topo.receivers = 1;
	s->topo.leaves = 2;
	s->topo.spines = 2;
	s->topo.hosts_per_leaf = 4;
	s->topo.host_link.rate_bps = 100 * GBPS;
	s->topo.host_link.delay_ns = 1000;
	s->topo.bottleneck = s->topo.host_link;
	s->topo.fabric = s->topo.host_link;
	s->sw.buffer = 32000000;
	s->sw.ecn.mode = SIM_ECN_RED;
	s->sw.ecn.pmax = 0.2;
	s->sw.ifa2_proto = PCC_IFA2_PROTO_DEFAULT;
	s->sw.ifa2_profile = SIM_IFA2_PROFILE_DPDK_PCC;
	memset(s->sw.ifa2_profiles, SIM_IFA2_PROFILE_UNSET, sizeof(s->sw.ifa2_profiles));
	s->host.np = SIM_NP_HW;
	s->host.np_rx = SIM_NP_RX_CC;
	s->host.ack_every = 1;
	s->host.ack_timeout_ns = 10 * US;
	s->host.cnp_gap_ns = 50 * US;
	s->host.cnp_dscp = 48;
	s->res.mbufs = 32767;
	s->res.packets = 262143;
	s->res.ring_size = 4096;
	s->res.tx_queues = 4;
	s->res.hosts_per_port = 1;
	s->res.qpn_base = 0x100;
	s->res.end_on_completion = true;
	s->out.sample_ns = 10 * US;
	s->out.window = 0.5;
	s->out.plots = true;
	s->out.progress = true;
}

static bool
int_rate_ok(uint64_t rate_bps)
{
	return rate_bps % GBPS == 0 && pcc_int_rate_code((uint32_t)(rate_bps / GBPS)) >= 0;
}

/* ---- QPN set (sy_validate()) ------------------------------------------------- */

/* what a key's QPN is compared with: any flow's (assignment), or one
 * host's flows as source or destination, by QPN or destination QPN */
enum {
	QK_ANY,
	QK_SRC_QPN,
	QK_SRC_DQPN,
	QK_DST_QPN,
	QK_DST_DQPN
};

/* open addressing, linear probing; key 0 = empty (keys are never 0: the
 * kind is stored plus one, so even QK_ANY's keys are not 0) */
struct qpn_set {
	uint64_t *key;
	uint32_t *val; /* the first flow that added the key */
	uint32_t mask;
};

static inline uint64_t
qpn_key(unsigned int kind, uint16_t host, uint32_t qpn)
{
	return ((uint64_t)(kind + 1) << 48) | ((uint64_t)host << 24) | (qpn & PCC_QPN_MASK);
}

static inline uint32_t
qpn_slot(uint64_t k, uint32_t mask)
{
	k *= 0x9E3779B97F4A7C15ull;
	return (uint32_t)(k >> 32) & mask;
}

/* room for 4 keys per flow at most half full */
static int
qpn_set_init(struct qpn_set *qs, uint32_t nb_flows)
{
	uint64_t n = 64;

	while (n < 8ull * nb_flows)
		n <<= 1;
	qs->mask = (uint32_t)(n - 1);
	qs->key = calloc(n, sizeof(*qs->key));
	qs->val = malloc(n * sizeof(*qs->val));
	if (qs->key == NULL || qs->val == NULL) {
		free(qs->key);
		free(qs->val);
		return -1;
	}
	return 0;
}

static void
qpn_set_clear(struct qpn_set *qs)
{
	memset(qs->key, 0, ((size_t)qs->mask + 1) * sizeof(*qs->key));
}

static void
qpn_set_free(struct qpn_set *qs)
{
	free(qs->key);
	free(qs->val);
}

/* the flow stored with k, UINT32_MAX if none */
static uint32_t
qpn_set_find(const struct qpn_set *qs, uint64_t k)
{
	uint32_t i = qpn_slot(k, qs->mask);

	for (; qs->key[i] != 0; i = (i + 1) & qs->mask)
		if (qs->key[i] == k)
			return qs->val[i];
	return UINT32_MAX;
}

/* k with flow, unless k is there already (the first flow stays) */
static void
qpn_set_add(struct qpn_set *qs, uint64_t k, uint32_t flow)
{
	uint32_t i = qpn_slot(k, qs->mask);

	for (; qs->key[i] != 0; i = (i + 1) & qs->mask)
		if (qs->key[i] == k)
			return;
	qs->key[i] = k;
	qs->val[i] = flow;
}

int
sy_validate(struct yctx *c, const yaml_node_t *root)
{
	struct pcc_sim_scenario *s = c->s;
	const struct sim_topo_conf *t = &s->topo;
	uint32_t i, j, next = s->res.qpn_base;
	struct qpn_set qs;

	if (s->quantum_ns > s->duration_ns)
		return sy_yerr(c, root, "quantum (%" PRIu64 " ns) is longer than the duration",
				s->quantum_ns);
	if (sim_topo_nb_hosts(t) > SIM_HOSTS_MAX)
		return sy_yerr(c, root, "topology: more than %u hosts", SIM_HOSTS_MAX);
	if (s->sw.ecn.mode == SIM_ECN_RED && s->sw.ecn.kmin != 0 && s->sw.ecn.kmax != 0 &&
			s->sw.ecn.kmin > s->sw.ecn.kmax)
		return sy_yerr(c, root, "switch.ecn: kmin is larger than kmax");
	if (s->sw.int_enabled) {
		if (!int_rate_ok(t->host_link.rate_bps) ||
				(t->type == SIM_TOPO_DUMBBELL &&
						!int_rate_ok(t->bottleneck.rate_bps)) ||
				(t->type == SIM_TOPO_LEAF_SPINE &&
						!int_rate_ok(t->fabric.rate_bps)))
			return sy_yerr(c, root,
					"switch.int needs link rates HPCC INT can encode "
					"(25, 50, 100, 200 or 400 G)");
	}
	if (s->sw.ifa2 && s->sw.ifa2_proto == 17)
		return sy_yerr(c, root, "switch.ifa2_proto cannot be 17 (UDP)");
	if ((s->host.np_app[0] != '\0' || s->host.np_mailbox_len != 0) &&
			s->host.np != SIM_NP_ENGINE)
		return sy_yerr(c, root,
				"hosts.np_app and hosts.np_mailbox are for the engine's NP "
				"(hosts.np: engine)");
	if (s->host.np_mailbox_len != 0 && s->host.np_app[0] == '\0')
		return sy_yerr(c, root, "hosts.np_mailbox needs hosts.np_app (the handler)");
	for (i = 0; i < s->nb_flows; i++) {
		struct sim_flow_conf *f = &s->flows[i];
		bool found = s->nb_algos == 0 && f->slot == 0;

		for (j = 0; j < s->nb_algos; j++)
			if (s->algos[j].slot == f->slot)
				found = true;
		if (!found) {
			snprintf(c->err, c->errlen,
					"%s:%u: flow uses algorithm slot %u, which "
					"'algorithms' does not configure",
					c->name, f->line, f->slot);
			return -1;
		}
	}
	/* QPNs: explicit ones stay; the others are assigned from qpn_base,
	 * skipping every explicit QPN and destination QPN.  Both this and the
	 * clash check below look QPNs up in a hash set: with a scan of every
	 * flow per flow they took O(flows^2) (0.5 s at 16256 flows) */
	if (qpn_set_init(&qs, s->nb_flows) != 0) {
		snprintf(c->err, c->errlen, "%s: out of memory (%u flows)", c->name, s->nb_flows);
		return -1;
	}
	for (i = 0; i < s->nb_flows; i++) {
		if (s->flows[i].qpn != 0)
			qpn_set_add(&qs, qpn_key(QK_ANY, 0, s->flows[i].qpn), i);
		if (s->flows[i].dst_qpn != 0)
			qpn_set_add(&qs, qpn_key(QK_ANY, 0, s->flows[i].dst_qpn), i);
	}
	for (i = 0; i < s->nb_flows; i++) {
		struct sim_flow_conf *f = &s->flows[i];

		if (f->qpn != 0)
			continue;
		while (next <= PCC_QPN_MASK &&
				qpn_set_find(&qs, qpn_key(QK_ANY, 0, next)) != UINT32_MAX)
			next++;
		if (next > PCC_QPN_MASK) {
			snprintf(c->err, c->errlen, "%s:%u: out of QPNs", c->name, f->line);
			qpn_set_free(&qs);
			return -1;
		}
		f->qpn = next++;
	}
	for (i = 0; i < s->nb_flows; i++)
		if (s->flows[i].dst_qpn == 0)
			s->flows[i].dst_qpn = s->flows[i].qpn;
	/* two flows clash when they share a source or a destination host and
	 * their QPNs or their destination QPNs are equal: reported for the
	 * first such flow, against the first flow it clashes with */
	qpn_set_clear(&qs);
	for (i = 0; i < s->nb_flows; i++) {
		const struct sim_flow_conf *a = &s->flows[i];
		const uint64_t k[4] = { qpn_key(QK_SRC_QPN, a->src, a->qpn),
			qpn_key(QK_SRC_DQPN, a->src, a->dst_qpn),
			qpn_key(QK_DST_QPN, a->dst, a->qpn),
			qpn_key(QK_DST_DQPN, a->dst, a->dst_qpn) };
		uint32_t first = UINT32_MAX;

		for (j = 0; j < RTE_DIM(k); j++)
			first = RTE_MIN(first, qpn_set_find(&qs, k[j]));
		if (first != UINT32_MAX) {
			snprintf(c->err, c->errlen,
					"%s:%u: QPN 0x%x / 0x%x clashes with the flow at line %u "
					"on "
					"the same host",
					c->name, a->line, a->qpn, a->dst_qpn, s->flows[first].line);
			qpn_set_free(&qs);
			return -1;
		}
		for (j = 0; j < RTE_DIM(k); j++)
			qpn_set_add(&qs, k[j], i);
	}
	qpn_set_free(&qs);
	return 0;
}
