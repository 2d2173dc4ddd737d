/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The scenario's algorithms: and flows: sections (doc/simulator.md,
 * "Scenario files").
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_yaml_internal.h"

/* ---- Algorithms ---------------------------------------------------------- */

static int
algo_params(struct yctx *c, const yaml_node_t *v, struct sim_algo_conf *a)
{
	yaml_node_pair_t *pr;

	if (v->type != YAML_MAPPING_NODE)
		return sy_yerr(c, v, "'params' must be a mapping (name: value), not %s",
				sy_node_kind(v));
	for (pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);
		uint32_t i;

		if (kn == NULL || vn == NULL || kn->type != YAML_SCALAR_NODE)
			return sy_yerr(c, v, "params: keys must be scalars");
		if (vn->type != YAML_SCALAR_NODE)
			return sy_yerr(c, vn, "parameter '%s' must be a scalar, not %s",
					sy_scalar(kn), sy_node_kind(vn));
		for (i = 0; i < a->nb_params; i++)
			if (strcmp(a->params[i].name, sy_scalar(kn)) == 0)
				return sy_yerr(c, kn, "duplicate parameter '%s'", sy_scalar(kn));
		if (a->nb_params >= PCC_SIM_ALGO_PARAMS_MAX)
			return sy_yerr(c, kn, "more than %u parameters", PCC_SIM_ALGO_PARAMS_MAX);
		a->params[a->nb_params].name = strdup(sy_scalar(kn));
		a->params[a->nb_params].value = strdup(sy_scalar(vn));
		if (a->params[a->nb_params].name == NULL || a->params[a->nb_params].value == NULL)
			return sy_yerr(c, kn, "out of memory");
		a->nb_params++;
	}
	return 0;
}

static int
algo_entry(struct yctx *c, const yaml_node_t *n, struct sim_algo_conf *a)
{
	bool seen_slot = false, seen_name = false, seen_params = false, seen_profile = false;
	yaml_node_pair_t *pr;
	uint64_t x;

	if (n->type != YAML_MAPPING_NODE)
		return sy_yerr(c, n, "an algorithm must be a mapping (slot, name, params), not %s",
				sy_node_kind(n));
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);
		bool *seen;

		if (kn == NULL || vn == NULL || kn->type != YAML_SCALAR_NODE)
			return sy_yerr(c, n, "algorithms: keys must be scalars");
		if (strcmp(sy_scalar(kn), "slot") == 0)
			seen = &seen_slot;
		else if (strcmp(sy_scalar(kn), "name") == 0)
			seen = &seen_name;
		else if (strcmp(sy_scalar(kn), "params") == 0)
			seen = &seen_params;
		else if (strcmp(sy_scalar(kn), "profile") == 0)
			seen = &seen_profile;
		else
			return sy_yerr(c, kn,
					"unknown key '%s' in an algorithm (known: slot, name, "
					"profile, params)",
					sy_scalar(kn));
		if (*seen)
			return sy_yerr(c, kn, "duplicate key '%s'", sy_scalar(kn));
		*seen = true;
		if (seen == &seen_slot) {
			if (sy_get_u64(c, vn, "slot", PCC_UNIT_PLAIN, WHAT_INT, 0,
					    PCC_SIM_SLOTS_MAX - 1, &x) != 0)
				return -1;
			a->slot = (uint8_t)x;
		} else if (seen == &seen_name) {
			if (sy_get_str(c, vn, "name", a->name, sizeof(a->name)) != 0)
				return -1;
			if (a->name[0] == '\0')
				return sy_yerr(c, vn, "'name' is empty");
		} else if (seen == &seen_profile) {
			/* checked against the algorithm's profiles by the app */
			if (sy_get_str(c, vn, "profile", a->profile, sizeof(a->profile)) != 0)
				return -1;
			if (a->profile[0] == '\0')
				return sy_yerr(c, vn, "'profile' is empty");
		} else if (algo_params(c, vn, a) != 0) {
			return -1;
		}
	}
	if (!seen_name)
		return sy_yerr(c, n, "algorithm: missing required key 'name'");
	return 0;
}

int
sy_f_algos(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	struct pcc_sim_scenario *s = obj;
	yaml_node_item_t *it;
	uint32_t i;

	RTE_SET_USED(f);
	if (v->type != YAML_SEQUENCE_NODE)
		return sy_yerr(c, v, "'algorithms' must be a list, not %s", sy_node_kind(v));
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		yaml_node_t *en = yaml_document_get_node(c->doc, *it);
		struct sim_algo_conf *a;

		if (en == NULL)
			return sy_yerr(c, v, "algorithms: malformed entry");
		if (s->nb_algos >= PCC_SIM_SLOTS_MAX)
			return sy_yerr(c, en, "more than %u algorithms", PCC_SIM_SLOTS_MAX);
		a = &s->algos[s->nb_algos];
		memset(a, 0, sizeof(*a));
		a->slot = (uint8_t)s->nb_algos;
		s->nb_algos++;
		if (algo_entry(c, en, a) != 0)
			return -1;
		for (i = 0; i + 1 < s->nb_algos; i++)
			if (s->algos[i].slot == a->slot)
				return sy_yerr(c, en, "slot %u is configured twice", a->slot);
	}
	return 0;
}

/* ---- Flows ------------------------------------------------------------------ */

static int
host_lookup(struct yctx *c, const yaml_node_t *n, const char *key, uint16_t *out)
{
	const struct sim_topo_conf *t = &c->s->topo;
	uint32_t i, nh = sim_topo_nb_hosts(t);
	char name[PCC_SIM_NAME_LEN];

	if (sy_get_scalar(c, n, key) != 0)
		return -1;
	for (i = 0; i < nh; i++) {
		sim_topo_host_name(t, i, name, sizeof(name));
		if (strcmp(name, sy_scalar(n)) == 0) {
			*out = (uint16_t)i;
			return 0;
		}
	}
	sim_topo_host_name(t, 0, name, sizeof(name));
	{
		char last[PCC_SIM_NAME_LEN];

		sim_topo_host_name(t, nh - 1, last, sizeof(last));
		return sy_yerr(c, n, "'%s': no host '%s' in this %s topology (hosts %s .. %s)", key,
				sy_scalar(n), sim_topo_names[t->type], name, last);
	}
}

static int
flow_entry(struct yctx *c, const yaml_node_t *n)
{
	struct pcc_sim_scenario *s = c->s;
	const uint32_t required =
			PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_SRC) | PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_DST);
	uint16_t srcs[SIM_HOSTS_MAX];
	uint32_t nsrc = 0, i, k;
	struct sim_flow_conf base;
	struct pcc_flowspec fs;
	const yaml_node_t *src, *dst;

	if (pcc_flowspec_parse(c->doc, n, PCC_FLOWSPEC_SIM, required, c->name, c->err, c->errlen,
			    &fs) != 0)
		return -1;
	src = fs.at[PCC_FLOWSPEC_SRC];
	dst = fs.at[PCC_FLOWSPEC_DST];
	memset(&base, 0, sizeof(base));
	base.line = (uint32_t)n->start_mark.line + 1;
	base.size = fs.size;
	base.start_ns = fs.start_ns;
	base.rate_bps = fs.rate_bps;
	base.payload = fs.payload != 0 ? fs.payload : 1000;
	base.slot = fs.slot;
	base.qpn = fs.qpn;
	base.dst_qpn = fs.dst_qpn;
	base.source = fs.source;
	if (src->type == YAML_SEQUENCE_NODE) {
		yaml_node_item_t *it;

		for (it = src->data.sequence.items.start; it < src->data.sequence.items.top; it++) {
			yaml_node_t *en = yaml_document_get_node(c->doc, *it);

			if (nsrc >= RTE_DIM(srcs))
				return sy_yerr(c, src, "src: more than %u hosts", SIM_HOSTS_MAX);
			if (host_lookup(c, en, "src", &srcs[nsrc]) != 0)
				return -1;
			nsrc++;
		}
	} else {
		if (host_lookup(c, src, "src", &srcs[0]) != 0)
			return -1;
		nsrc = 1;
	}
	if (host_lookup(c, dst, "dst", &base.dst) != 0)
		return -1;
	if ((uint64_t)nsrc * fs.count + s->nb_flows > SIM_FLOWS_MAX)
		return sy_yerr(c, n, "more than %u flows", SIM_FLOWS_MAX);
	{
		struct sim_flow_conf *nf =
				realloc(s->flows, sizeof(*nf) * (s->nb_flows + nsrc * fs.count));

		if (nf == NULL)
			return sy_yerr(c, n, "out of memory");
		s->flows = nf;
	}
	for (i = 0; i < nsrc; i++) {
		for (k = 0; k < fs.count; k++) {
			struct sim_flow_conf *fc = &s->flows[s->nb_flows];
			uint32_t j = i * fs.count + k;

			*fc = base;
			fc->src = srcs[i];
			fc->start_ns = base.start_ns + fs.stagger_ns * j;
			if (base.qpn != 0)
				fc->qpn = base.qpn + j;
			if (base.dst_qpn != 0)
				fc->dst_qpn = base.dst_qpn + j;
			if ((fc->qpn & ~PCC_QPN_MASK) || (fc->dst_qpn & ~PCC_QPN_MASK))
				return sy_yerr(c, n, "QPNs beyond 0xFFFFFF");
			if (fc->start_ns > PCC_FLOWSPEC_TIME_MAX)
				return sy_yerr(c, fs.at[PCC_FLOWSPEC_STAGGER],
						"flow %u would start after 1000 s", j);
			if (fc->src == fc->dst)
				return sy_yerr(c, dst, "a flow from a host to itself");
			s->nb_flows++;
		}
	}
	return 0;
}

int
sy_f_flows(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	yaml_node_item_t *it;

	RTE_SET_USED(obj);
	RTE_SET_USED(f);
	if (v->type != YAML_SEQUENCE_NODE)
		return sy_yerr(c, v, "'flows' must be a list, not %s", sy_node_kind(v));
	if (v->data.sequence.items.start == v->data.sequence.items.top)
		return sy_yerr(c, v, "'flows' is empty");
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		yaml_node_t *en = yaml_document_get_node(c->doc, *it);

		if (en == NULL)
			return sy_yerr(c, v, "flows: malformed entry");
		if (flow_entry(c, en) != 0)
			return -1;
	}
	return 0;
}

/* topology is parsed before everything else (flows name its hosts) */
