/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A parsed scenario (sim_scenario.c parses it): the topology helpers the
 * model is built with, the accessors the app reads before the sim exists,
 * and the scenario object's copy and release.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "sim_yaml_internal.h"

/* ---- Topology helpers -------------------------------------------------------- */

uint32_t
sim_topo_nb_hosts(const struct sim_topo_conf *t)
{
	switch (t->type) {
	case SIM_TOPO_DUMBBELL:
	case SIM_TOPO_INCAST:
		return t->senders + t->receivers;
	default:
		return t->leaves * t->hosts_per_leaf;
	}
}

void
sim_topo_host_name(const struct sim_topo_conf *t, uint32_t i, char *buf, size_t len)
{
	if (t->type == SIM_TOPO_LEAF_SPINE)
		snprintf(buf, len, "h%u", i);
	else if (i < t->senders)
		snprintf(buf, len, "s%u", i);
	else
		snprintf(buf, len, "r%u", i - t->senders);
}

uint32_t
sim_topo_nb_switches(const struct sim_topo_conf *t)
{
	switch (t->type) {
	case SIM_TOPO_DUMBBELL:
		return 2;
	case SIM_TOPO_INCAST:
		return 1;
	default:
		return t->leaves + t->spines;
	}
}

void
sim_topo_switch_name(const struct sim_topo_conf *t, uint32_t j, char *buf, size_t len)
{
	if (t->type == SIM_TOPO_LEAF_SPINE && j < t->leaves)
		snprintf(buf, len, "leaf%u", j);
	else if (t->type == SIM_TOPO_LEAF_SPINE)
		snprintf(buf, len, "spine%u", j - t->leaves);
	else
		snprintf(buf, len, "sw%u", j);
}

uint8_t
sim_switch_ifa2_profile(const struct sim_switch_conf *sw, uint32_t j)
{
	if (j < SIM_SWITCHES_MAX && sw->ifa2_profiles[j] != SIM_IFA2_PROFILE_UNSET)
		return sw->ifa2_profiles[j];
	return sw->ifa2_profile;
}

void
sim_ecn_thresholds(const struct sim_ecn_conf *e, uint64_t rate_bps, uint64_t *kmin, uint64_t *kmax)
{
	uint64_t gbps = rate_bps / GBPS;

	if (gbps == 0)
		gbps = 1;
	if (e->mode == SIM_ECN_STEP) {
		/* DCTCP: K = 30 * bw / 10 KB, i.e. 3 KB per Gb/s */
		*kmin = e->k != 0 ? e->k : gbps * 3000;
		*kmax = *kmin;
		return;
	}
	/* RED: 25G 100/400 KB, 50G 200/800, 100G 400/1600: 4 and 16 KB per Gb/s */
	*kmin = e->kmin != 0 ? e->kmin : gbps * 4000;
	*kmax = e->kmax != 0 ? e->kmax : gbps * 16000;
}

/* ---- Accessors, copy, release -------------------------------------------------- */

uint32_t
pcc_sim_scenario_plugin_count(const struct pcc_sim_scenario *s)
{
	return s != NULL ? s->nb_plugins : 0;
}

const char *
pcc_sim_scenario_plugin(const struct pcc_sim_scenario *s, uint32_t idx)
{
	return s != NULL && idx < s->nb_plugins ? s->plugins[idx] : NULL;
}

const char *
pcc_sim_scenario_name(const struct pcc_sim_scenario *s)
{
	return s != NULL ? s->name : NULL;
}

uint32_t
pcc_sim_scenario_algo_count(const struct pcc_sim_scenario *s)
{
	return s != NULL ? s->nb_algos : 0;
}

int
pcc_sim_scenario_algo_get(const struct pcc_sim_scenario *s, uint32_t idx, struct pcc_sim_algo *out)
{
	if (s == NULL || out == NULL || idx >= s->nb_algos)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->slot = s->algos[idx].slot;
	memcpy(out->name, s->algos[idx].name, sizeof(out->name));
	memcpy(out->profile, s->algos[idx].profile, sizeof(out->profile));
	out->params = s->algos[idx].params;
	out->nb_params = s->algos[idx].nb_params;
	return 0;
}

int
pcc_sim_scenario_base_rtt_auto(const struct pcc_sim_scenario *s)
{
	return s != NULL && s->base_rtt_ns == 0;
}

int
pcc_sim_scenario_cnp_gap(const struct pcc_sim_scenario *s, uint64_t *gap_ns)
{
	if (s == NULL || gap_ns == NULL)
		return -EINVAL;
	*gap_ns = s->host.cnp_gap_ns;
	return s->host.cnp_gap_set ? 1 : 0;
}

static void
free_params(struct pcc_sim_scenario *s)
{
	uint32_t i, j;

	for (i = 0; i < s->nb_algos; i++) {
		for (j = 0; j < s->algos[i].nb_params; j++) {
			free((void *)(uintptr_t)s->algos[i].params[j].name);
			free((void *)(uintptr_t)s->algos[i].params[j].value);
		}
	}
}

void
pcc_sim_scenario_free(struct pcc_sim_scenario *s)
{
	if (s == NULL)
		return;
	free_params(s);
	free(s->flows);
	free(s);
}

struct pcc_sim_scenario *
sim_scenario_dup(const struct pcc_sim_scenario *s)
{
	struct pcc_sim_scenario *d = malloc(sizeof(*d));
	uint32_t i, j;

	if (d == NULL)
		return NULL;
	*d = *s;
	d->flows = NULL;
	for (i = 0; i < d->nb_algos; i++)
		for (j = 0; j < d->algos[i].nb_params; j++)
			d->algos[i].params[j].name = d->algos[i].params[j].value = NULL;
	d->flows = malloc(sizeof(*d->flows) * (s->nb_flows > 0 ? s->nb_flows : 1));
	if (d->flows == NULL)
		goto fail;
	memcpy(d->flows, s->flows, sizeof(*d->flows) * s->nb_flows);
	for (i = 0; i < d->nb_algos; i++) {
		for (j = 0; j < d->algos[i].nb_params; j++) {
			d->algos[i].params[j].name = strdup(s->algos[i].params[j].name);
			d->algos[i].params[j].value = strdup(s->algos[i].params[j].value);
			if (d->algos[i].params[j].name == NULL ||
					d->algos[i].params[j].value == NULL)
				goto fail;
		}
	}
	return d;
fail:
	pcc_sim_scenario_free(d);
	return NULL;
}
