/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Contexts, forward mode and RX queue assignment (see wiring.h). */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wiring.h"

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
app_port_list(const struct app_env *env, char *buf, size_t len)
{
	size_t off = 0;
	uint16_t p;

	buf[0] = '\0';
	for (p = 0; p < RTE_MAX_ETHPORTS && off < len; p++) {
		if (!env->port_valid[p])
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%u", off > 0 ? "," : "", p);
	}
	if (buf[0] == '\0')
		snprintf(buf, len, "none");
}

static bool
is_polling_lcore(const struct app_env *env, uint32_t l)
{
	uint32_t i;

	for (i = 0; i < env->nb_lcores; i++)
		if (env->lcores[i] == l)
			return true;
	return false;
}

static int
roles_from_list(const char *opt, const char *list, const bool *set, bool *role,
		const struct app_env *env, char *err, size_t errlen)
{
	char ports[8 * RTE_MAX_ETHPORTS];
	uint16_t p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!set[p])
			continue;
		if (!env->port_valid[p]) {
			app_port_list(env, ports, sizeof(ports));
			return fail(err, errlen,
					"invalid value '%s' for %s (no port %u; ports: %s)",
					app_quote(list), opt, p, ports);
		}
		role[p] = true;
	}
	return 0;
}

static int
set_roles(const struct app_args *a, const struct app_env *env, struct app_plan *plan, char *err,
		size_t errlen)
{
	char ports[8 * RTE_MAX_ETHPORTS];
	uint16_t p;

	if (a->fwd) {
		uint16_t bad = !env->port_valid[a->fwd_a] ? a->fwd_a : a->fwd_b;

		if (!env->port_valid[a->fwd_a] || !env->port_valid[a->fwd_b]) {
			app_port_list(env, ports, sizeof(ports));
			return fail(err, errlen,
					"invalid value '%s' for --forward (no port %u; ports: %s)",
					a->fwd_str, bad, ports);
		}
		plan->rp[a->fwd_b] = true;
		plan->fwd_from = a->fwd_a;
		plan->fwd_to = a->fwd_b;
		return 0;
	}
	if (a->rp_list == NULL && a->np_list == NULL) {
		if (env->ring_pair) {
			plan->rp[env->ring_port[0]] = true;
			plan->np[env->ring_port[1]] = true;
			return 0;
		}
		for (p = 0; p < RTE_MAX_ETHPORTS; p++)
			plan->rp[p] = plan->np[p] = env->port_valid[p];
		return 0;
	}
	if (a->rp_list != NULL &&
			roles_from_list("--rp-ports", a->rp_list, a->rp_ports, plan->rp, env, err,
					errlen) < 0)
		return -1;
	if (a->np_list != NULL &&
			roles_from_list("--np-ports", a->np_list, a->np_ports, plan->np, env, err,
					errlen) < 0)
		return -1;
	return 0;
}

static bool
used(const struct app_plan *plan, uint16_t p)
{
	return plan->rp[p] || plan->np[p] || (plan->fwd_from >= 0 && p == plan->fwd_from);
}

/* Check the user's --config against the ports, queues and lcores. */
static int
check_config(const struct app_args *a, const struct app_env *env, const struct app_plan *plan,
		uint16_t nb_rxq, char *err, size_t errlen)
{
	uint32_t i, j;

	for (i = 0; i < a->nb_config; i++) {
		const struct pcc_engine_rxq_conf *q = &a->config[i];
		const char *why = NULL;
		char buf[96];

		if (!env->port_valid[q->port_id]) {
			why = "no such port";
		} else if (!used(plan, q->port_id)) {
			why = "the port has no role (--rp-ports/--np-ports)";
		} else if (q->queue_id >= nb_rxq) {
			snprintf(buf, sizeof(buf), "queue %u but --rxq is %u", q->queue_id, nb_rxq);
			why = buf;
		} else if (q->lcore_id >= RTE_MAX_LCORE || !env->lcore_enabled[q->lcore_id]) {
			snprintf(buf, sizeof(buf), "lcore %u is not enabled (EAL -l)", q->lcore_id);
			why = buf;
		} else if (!is_polling_lcore(env, q->lcore_id)) {
			snprintf(buf, sizeof(buf),
					"lcore %u is the main lcore, which only runs control; use "
					"a worker lcore",
					q->lcore_id);
			why = buf;
		} else {
			for (j = 0; j < i; j++)
				if (a->config[j].port_id == q->port_id &&
						a->config[j].queue_id == q->queue_id)
					why = "this RX queue is already polled";
		}
		if (why != NULL)
			return fail(err, errlen, "invalid value '%s' for --config ((%u,%u,%u): %s)",
					app_quote(a->config_str), q->port_id, q->queue_id,
					q->lcore_id, why);
	}
	return 0;
}

int
app_wiring(const struct app_args *a, const struct app_env *env, struct app_plan *plan, char *err,
		size_t errlen)
{
	uint16_t nb_rxq = (uint16_t)app_hopt_u64(a, "rxq", 1);
	bool any = false, rp = false;
	uint32_t i;
	uint16_t p, q;

	memset(plan, 0, sizeof(*plan));
	plan->fwd_from = -1;
	if (set_roles(a, env, plan, err, errlen) < 0)
		return -1;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		any |= used(plan, p);
		rp |= plan->rp[p];
	}
	if (!any)
		return fail(err, errlen,
				"no port to use: add --ring-pair, or ports with EAL --vdev/-a");
	if ((app_hopt_u64(a, "gen-flows", 0) > 0 || app_hopt(a, "gen-file") != NULL) && !rp)
		return fail(err, errlen,
				"invalid combination: --%s needs an RP port (see "
				"--rp-ports)",
				app_hopt(a, "gen-file") != NULL ? "gen-file" : "gen-flows");
	if (env->nb_lcores == 0)
		return fail(err, errlen, "no lcore to poll with");
	if (a->nb_config == 0)
		return 0;
	if (check_config(a, env, plan, nb_rxq, err, errlen) < 0)
		return -1;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!used(plan, p))
			continue;
		for (q = 0; q < nb_rxq; q++) {
			bool polled = false;

			for (i = 0; i < a->nb_config && !polled; i++) {
				if (a->config[i].port_id == p && a->config[i].queue_id == q) {
					plan->lcore_of[p][q] = a->config[i].lcore_id;
					polled = true;
				}
			}
			if (!polled)
				return fail(err, errlen,
						"invalid value '%s' for --config (port %u RX queue "
						"%u is not polled by any lcore)",
						app_quote(a->config_str), p, q);
		}
	}
	plan->queue_map = true;
	plan->nb_rxq = nb_rxq;
	return 0;
}
