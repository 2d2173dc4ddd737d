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
			if (sy_get_u64(c, vn, "slot", plain_units, WHAT_INT, 0,
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

static const char *const source_names[] = { "engine", "model", NULL };

static int
flow_entry(struct yctx *c, const yaml_node_t *n)
{
	struct pcc_sim_scenario *s = c->s;
	enum {
		K_SRC,
		K_DST,
		K_COUNT,
		K_SIZE,
		K_START,
		K_STAGGER,
		K_RATE,
		K_PAYLOAD,
		K_SLOT,
		K_QPN,
		K_DST_QPN,
		K_SOURCE,
		K_MAX
	};
	static const char *const keys[K_MAX] = { "src", "dst", "count", "size", "start", "stagger",
		"rate", "payload", "slot", "qpn", "dst_qpn", "source" };
	const yaml_node_t *vals[K_MAX] = { NULL };
	uint16_t srcs[SIM_HOSTS_MAX];
	uint32_t nsrc = 0, i, k;
	struct sim_flow_conf base;
	uint64_t count = 1, stagger = 0, x;
	yaml_node_pair_t *pr;

	if (n->type != YAML_MAPPING_NODE)
		return sy_yerr(c, n,
				"a flow must be a mapping (src, dst, size, start, ...), not %s",
				sy_node_kind(n));
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);

		if (kn == NULL || vn == NULL || kn->type != YAML_SCALAR_NODE)
			return sy_yerr(c, n, "flows: keys must be scalars");
		for (k = 0; k < K_MAX; k++)
			if (strcmp(sy_scalar(kn), keys[k]) == 0)
				break;
		if (k == K_MAX)
			return sy_yerr(c, kn,
					"unknown key '%s' in a flow (known: src, dst, count, size, "
					"start, stagger, rate, payload, slot, qpn, dst_qpn, "
					"source)",
					sy_scalar(kn));
		if (vals[k] != NULL)
			return sy_yerr(c, kn, "duplicate key '%s'", sy_scalar(kn));
		vals[k] = vn;
	}
	if (vals[K_SRC] == NULL)
		return sy_yerr(c, n, "flow: missing required key 'src'");
	if (vals[K_DST] == NULL)
		return sy_yerr(c, n, "flow: missing required key 'dst'");
	memset(&base, 0, sizeof(base));
	base.payload = 1000;
	base.line = (uint32_t)n->start_mark.line + 1;
	if (vals[K_SRC]->type == YAML_SEQUENCE_NODE) {
		yaml_node_item_t *it;

		for (it = vals[K_SRC]->data.sequence.items.start;
				it < vals[K_SRC]->data.sequence.items.top; it++) {
			yaml_node_t *en = yaml_document_get_node(c->doc, *it);

			if (en == NULL || nsrc >= RTE_DIM(srcs))
				return sy_yerr(c, vals[K_SRC], "src: bad list");
			if (host_lookup(c, en, "src", &srcs[nsrc]) != 0)
				return -1;
			nsrc++;
		}
		if (nsrc == 0)
			return sy_yerr(c, vals[K_SRC], "src: empty list");
	} else {
		if (host_lookup(c, vals[K_SRC], "src", &srcs[0]) != 0)
			return -1;
		nsrc = 1;
	}
	if (host_lookup(c, vals[K_DST], "dst", &base.dst) != 0)
		return -1;
	if (vals[K_COUNT] != NULL &&
			sy_get_u64(c, vals[K_COUNT], "count", plain_units, WHAT_INT, 1, 4096,
					&count) != 0)
		return -1;
	if (vals[K_SIZE] != NULL) {
		if (vals[K_SIZE]->type == YAML_SCALAR_NODE &&
				(strcmp(sy_scalar(vals[K_SIZE]), "infinite") == 0 ||
						strcmp(sy_scalar(vals[K_SIZE]), "inf") == 0))
			base.size = 0;
		else if (sy_get_u64(c, vals[K_SIZE], "size", size_units, WHAT_SIZE " or 'infinite'",
					 0, 1ull << 50, &base.size) != 0)
			return -1;
	}
	if (vals[K_START] != NULL &&
			sy_get_u64(c, vals[K_START], "start", time_units, WHAT_TIME, 0,
					1000000 * MS, &base.start_ns) != 0)
		return -1;
	if (vals[K_STAGGER] != NULL &&
			sy_get_u64(c, vals[K_STAGGER], "stagger", time_units, WHAT_TIME, 0,
					1000000 * MS, &stagger) != 0)
		return -1;
	if (vals[K_RATE] != NULL &&
			sy_get_u64(c, vals[K_RATE], "rate", rate_units, WHAT_RATE, 0, MAX_RATE,
					&base.rate_bps) != 0)
		return -1;
	if (vals[K_PAYLOAD] != NULL) {
		if (sy_get_u64(c, vals[K_PAYLOAD], "payload", size_units, WHAT_SIZE, 1, 8192, &x) !=
				0)
			return -1;
		base.payload = (uint32_t)x;
	}
	if (vals[K_SLOT] != NULL) {
		if (sy_get_u64(c, vals[K_SLOT], "slot", plain_units, WHAT_INT, 0,
				    PCC_SIM_SLOTS_MAX - 1, &x) != 0)
			return -1;
		base.slot = (uint8_t)x;
	}
	if (vals[K_QPN] != NULL) {
		if (sy_get_u64(c, vals[K_QPN], "qpn", plain_units, WHAT_INT, 2, PCC_QPN_MASK, &x) !=
				0)
			return -1;
		base.qpn = (uint32_t)x;
	}
	if (vals[K_DST_QPN] != NULL) {
		if (sy_get_u64(c, vals[K_DST_QPN], "dst_qpn", plain_units, WHAT_INT, 2,
				    PCC_QPN_MASK, &x) != 0)
			return -1;
		base.dst_qpn = (uint32_t)x;
	}
	if (vals[K_SOURCE] != NULL &&
			sy_get_enum(c, vals[K_SOURCE], "source", source_names, &base.source) != 0)
		return -1;
	if ((uint64_t)nsrc * count + s->nb_flows > SIM_FLOWS_MAX)
		return sy_yerr(c, n, "more than %u flows", SIM_FLOWS_MAX);
	{
		struct sim_flow_conf *nf = realloc(
				s->flows, sizeof(*nf) * (s->nb_flows + nsrc * (uint32_t)count));

		if (nf == NULL)
			return sy_yerr(c, n, "out of memory");
		s->flows = nf;
	}
	for (i = 0; i < nsrc; i++) {
		for (k = 0; k < count; k++) {
			struct sim_flow_conf *fc = &s->flows[s->nb_flows];
			uint32_t j = i * (uint32_t)count + k;

			*fc = base;
			fc->src = srcs[i];
			fc->start_ns = base.start_ns + stagger * j;
			if (base.qpn != 0)
				fc->qpn = base.qpn + j;
			if (base.dst_qpn != 0)
				fc->dst_qpn = base.dst_qpn + j;
			if ((fc->qpn & ~PCC_QPN_MASK) || (fc->dst_qpn & ~PCC_QPN_MASK))
				return sy_yerr(c, n, "QPNs beyond 0xFFFFFF");
			if (fc->src == fc->dst)
				return sy_yerr(c, vals[K_DST], "a flow from a host to itself");
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
