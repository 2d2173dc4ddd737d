/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A scenario's algorithm profiles and base RTT (doc/simulator.md,
 * "Profiles and base RTT"): each slot runs a complete named profile
 * (pcc_algos.h) unless it says profile: none, the receivers' NP keeps the
 * CNP gap that profile assumes, and the algorithm's base-RTT parameter
 * comes from the topology unless the scenario gives it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <pcc_algos.h>

#include "pcc_host.h"
#include "simrun_internal.h"

/* The profile of a slot: NULL for none (or an algorithm without any). */
static const struct pcc_algo_profile *
slot_profile(const struct pcc_sim_algo *al)
{
	if (strcmp(al->profile, "none") == 0)
		return NULL;
	return pcc_algos_profile_find(al->name, al->profile);
}

static void
profile_names(const char *algo, char *buf, size_t len)
{
	const struct pcc_algo_profile *list;
	unsigned int n, i;
	size_t off = 0;

	buf[0] = '\0';
	n = pcc_algos_profiles(&list);
	for (i = 0; i < n && off < len; i++)
		if (strcmp(list[i].algo, algo) == 0)
			off += (size_t)snprintf(buf + off, len - off, "%s, ", list[i].name);
	if (off < len)
		snprintf(buf + off, len - off, "none");
}

static void
fmt_gap(char *buf, size_t len, int64_t gap_ns)
{
	if (gap_ns == 0)
		snprintf(buf, len, "0 (a CNP for every marked packet)");
	else
		snprintf(buf, len, "%" PRId64 "ns", gap_ns);
}

int
pcc_simrun_profiles_check(struct pcc_sim_scenario *scn, char *why, size_t len)
{
	const struct pcc_algo_profile *pr, *need = NULL;
	struct pcc_sim_algo al;
	char names[128], a[48], b[48];
	uint64_t gap;
	int given;
	uint32_t k;

	for (k = 0; pcc_sim_scenario_algo_get(scn, k, &al) == 0; k++) {
		if (al.profile[0] == '\0' || strcmp(al.profile, "none") == 0)
			continue;
		if (pcc_algos_profile_find(al.name, al.profile) == NULL) {
			profile_names(al.name, names, sizeof(names));
			snprintf(why, len,
					"slot %u: algorithm %s has no profile '%s' (profiles: %s)",
					al.slot, al.name, al.profile, names);
			return -EINVAL;
		}
	}
	/* the NP every profile assumes: one CNP gap for all slots */
	for (k = 0; pcc_sim_scenario_algo_get(scn, k, &al) == 0; k++) {
		pr = slot_profile(&al);
		if (pr == NULL || pr->cnp_gap_ns == PCC_ALGO_PROFILE_NO_CNP)
			continue;
		if (need != NULL && need->cnp_gap_ns != pr->cnp_gap_ns) {
			fmt_gap(a, sizeof(a), need->cnp_gap_ns);
			fmt_gap(b, sizeof(b), pr->cnp_gap_ns);
			snprintf(why, len,
					"the profiles need different NPs: %s/%s a CNP gap of %s, "
					"slot %u %s/%s one of %s (give one of them profile: none)",
					need->algo, need->name, a, al.slot, pr->algo, pr->name, b);
			return -EINVAL;
		}
		need = pr;
	}
	if (need == NULL)
		return 0;
	given = pcc_sim_scenario_cnp_gap(scn, &gap);
	if (given == 1 && gap != (uint64_t)need->cnp_gap_ns) {
		fmt_gap(a, sizeof(a), need->cnp_gap_ns);
		snprintf(why, len,
				"hosts.cnp_gap %" PRIu64 "ns mixes profiles: %s profile %s expects "
				"the NP to keep a CNP gap of %s; remove hosts.cnp_gap, pick the "
				"profile that matches it, or set profile: none",
				gap, need->algo, need->name, a);
		return -EINVAL;
	}
	snprintf(b, sizeof(b), "%" PRId64 "ns", need->cnp_gap_ns);
	return pcc_sim_scenario_set(scn, "hosts.cnp_gap", b, why, len) < 0 ? -EINVAL : 0;
}

static bool
explicit_param(const struct pcc_sim_algo *al, const char *name)
{
	uint32_t i;

	for (i = 0; i < al->nb_params; i++)
		if (strcmp(al->params[i].name, name) == 0)
			return true;
	return false;
}

int
simrun_algo_params(struct pcc_host_ctx *ctx, const struct pcc_sim_algo *al, uint64_t base_rtt_ns,
		char *err, size_t errlen)
{
	const struct pcc_algo_profile *pr = slot_profile(al);
	const char *rtt = pcc_algos_base_rtt_param(al->name);
	char buf[32];
	unsigned int i;

	/* the profile whole, then the topology's base RTT, then the
	 * scenario's own parameters */
	for (i = 0; pr != NULL && i < pr->n_params; i++) {
		snprintf(buf, sizeof(buf), "%u", pr->params[i].value);
		if (pcc_host_set_param(ctx, al->slot, pr->params[i].name, buf) < 0)
			goto fail;
	}
	if (rtt != NULL && base_rtt_ns != 0 && !explicit_param(al, rtt)) {
		snprintf(buf, sizeof(buf), "%" PRIu64, base_rtt_ns);
		if (pcc_host_set_param(ctx, al->slot, rtt, buf) < 0)
			goto fail;
	}
	for (i = 0; i < al->nb_params; i++)
		if (pcc_host_set_param(ctx, al->slot, al->params[i].name, al->params[i].value) < 0)
			goto fail;
	return 0;
fail:
	snprintf(err, errlen, "scenario parameter: %s", pcc_host_last_error());
	return -1;
}

const char *
pcc_simrun_profile_name(const struct pcc_sim_algo *al)
{
	const struct pcc_algo_profile *pr = slot_profile(al);

	return pr != NULL ? pr->name : "none";
}
