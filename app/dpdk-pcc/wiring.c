/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Roles, RX queue assignment and TX queue counts (see wiring.h). */

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
roles_from_list(const char *opt, const char *list, const bool *set, uint8_t role,
		const struct app_env *env, struct pcc_engine_conf *conf, char *err, size_t errlen)
{
	char ports[8 * RTE_MAX_ETHPORTS];
	uint16_t p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!set[p])
			continue;
		if (!env->port_valid[p]) {
			app_port_list(env, ports, sizeof(ports));
			return fail(err, errlen,
					"invalid value '%s' for %s (no port %u; ports: %s)", list,
					opt, p, ports);
		}
		conf->port[p].roles |= role;
	}
	return 0;
}

static int
set_roles(const struct app_args *a, const struct app_env *env, struct pcc_engine_conf *conf,
		char *err, size_t errlen)
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
		conf->port[a->fwd_a].roles = PCC_ENGINE_ROLE_FWD;
		conf->port[a->fwd_b].roles = PCC_ENGINE_ROLE_RP;
		conf->fwd.enabled = true;
		conf->fwd.port_a = a->fwd_a;
		conf->fwd.port_b = a->fwd_b;
		return 0;
	}
	if (a->rp_list == NULL && a->np_list == NULL) {
		if (env->ring_pair) {
			conf->port[env->ring_port[0]].roles = PCC_ENGINE_ROLE_RP;
			conf->port[env->ring_port[1]].roles = PCC_ENGINE_ROLE_NP;
			return 0;
		}
		for (p = 0; p < RTE_MAX_ETHPORTS; p++)
			if (env->port_valid[p])
				conf->port[p].roles = PCC_ENGINE_ROLE_RP | PCC_ENGINE_ROLE_NP;
		return 0;
	}
	if (a->rp_list != NULL &&
			roles_from_list("--rp-ports", a->rp_list, a->rp_ports, PCC_ENGINE_ROLE_RP,
					env, conf, err, errlen) < 0)
		return -1;
	if (a->np_list != NULL &&
			roles_from_list("--np-ports", a->np_list, a->np_ports, PCC_ENGINE_ROLE_NP,
					env, conf, err, errlen) < 0)
		return -1;
	return 0;
}

/* Check the user's --config against the ports, queues and lcores. */
static int
check_config(const struct app_args *a, const struct app_env *env,
		const struct pcc_engine_conf *conf, char *err, size_t errlen)
{
	uint32_t i, j;

	for (i = 0; i < a->nb_config; i++) {
		const struct pcc_engine_rxq_conf *q = &a->config[i];
		const char *why = NULL;
		char buf[96];

		if (!env->port_valid[q->port_id]) {
			why = "no such port";
		} else if (conf->port[q->port_id].roles == 0) {
			why = "the port has no role (--rp-ports/--np-ports)";
		} else if (q->queue_id >= a->rxq) {
			snprintf(buf, sizeof(buf), "queue %u but --rxq is %u", q->queue_id, a->rxq);
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
					a->config_str, q->port_id, q->queue_id, q->lcore_id, why);
	}
	return 0;
}

/* Every RX queue of every used port is polled by a --config triple. */
static int
check_all_polled(const struct app_args *a, const struct pcc_engine_conf *conf, char *err,
		size_t errlen)
{
	uint32_t i;
	uint16_t p, q;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (conf->port[p].roles == 0)
			continue;
		for (q = 0; q < a->rxq; q++) {
			bool polled = false;

			for (i = 0; i < conf->nb_rxq_conf && !polled; i++)
				polled = conf->rxq[i].port_id == p && conf->rxq[i].queue_id == q;
			if (!polled)
				return fail(err, errlen,
						"invalid value '%s' for --config (port %u RX queue "
						"%u is not polled by any lcore)",
						a->config_str, p, q);
		}
	}
	return 0;
}

int
app_wiring(const struct app_args *a, const struct app_env *env, struct pcc_engine_conf *conf,
		struct pcc_engine_rxq_conf *rxq_store, char *err, size_t errlen)
{
	uint32_t n = 0, k = 0;
	bool any = false, rp = false;
	uint16_t p, q;

	pcc_engine_conf_default(conf);
	conf->nb_rxq = a->rxq;
	conf->nb_txq = a->txq;
	conf->nb_rxd = a->rxd;
	conf->nb_txd = a->txd;
	conf->nb_mbufs = a->nb_mbufs;
	conf->burst = a->burst;
	conf->idle_sleep_us = a->idle_sleep_us;
	conf->gen = a->gen;
	conf->np = a->np;
	memcpy(conf->probe, a->probe, sizeof(conf->probe));
	if (a->gen_file != NULL) {
		conf->gen.groups = a->genf.groups;
		conf->gen.nb_groups = a->genf.nb;
	}
	conf->flow.capacity = a->flows;
	conf->flow.idle_ms = a->flow_idle_ms;
	conf->flow.full = a->flow_full;
	conf->rp.algo = a->algo;
	conf->rp.params = a->params;
	conf->rp.nb_params = a->nb_params;
	conf->rp.tx_coalesce_bytes = a->txc_bytes;
	conf->rp.tx_coalesce_us = a->txc_us;
	conf->rp.timer_us = a->timer_us;
	conf->rp.line_rate_gbps = a->line_rate_gbps;
	conf->rp.pacer = a->pacer;
	conf->rp.pacer_queue = a->pacer_queue;

	if (set_roles(a, env, conf, err, errlen) < 0)
		return -1;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		any |= conf->port[p].roles != 0;
		rp |= (conf->port[p].roles & PCC_ENGINE_ROLE_RP) != 0;
	}
	if (!any)
		return fail(err, errlen,
				"no port to use: add --ring-pair, or ports with EAL --vdev/-a");
	if ((a->gen.nb_flows > 0 || a->gen_file != NULL) && !rp)
		return fail(err, errlen,
				"invalid combination: --%s needs an RP port (see "
				"--rp-ports)",
				a->gen_file != NULL ? "gen-file" : "gen-flows");
	for (k = 0; a->gen_file != NULL && k < a->genf.nb; k++) {
		int32_t gp = a->genf.groups[k].port_id;

		if (gp >= 0 && !(conf->port[gp].roles & PCC_ENGINE_ROLE_RP))
			return fail(err, errlen,
					"invalid --gen-file: %s:%u: port %d is not an RP port",
					a->gen_file, a->genf.lines[k], gp);
	}
	k = 0;
	if (env->nb_lcores == 0)
		return fail(err, errlen, "no lcore to poll with");

	if (a->nb_config > 0) {
		if (check_config(a, env, conf, err, errlen) < 0)
			return -1;
		memcpy(rxq_store, a->config, sizeof(*rxq_store) * a->nb_config);
		conf->rxq = rxq_store;
		conf->nb_rxq_conf = a->nb_config;
		if (check_all_polled(a, conf, err, errlen) < 0)
			return -1;
	} else {
		for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
			if (conf->port[p].roles == 0)
				continue;
			for (q = 0; q < a->rxq; q++) {
				if (n == APP_CONFIG_MAX)
					return fail(err, errlen, "more than %u RX queues to poll",
							APP_CONFIG_MAX);
				rxq_store[n].port_id = p;
				rxq_store[n].queue_id = q;
				rxq_store[n].lcore_id = env->lcores[k++ % env->nb_lcores];
				n++;
			}
		}
		conf->rxq = rxq_store;
		conf->nb_rxq_conf = n;
	}

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		unsigned int need;

		if (conf->port[p].roles == 0)
			continue;
		need = pcc_engine_txq_needed(conf, p);
		if (a->txq != 0 && a->txq < need)
			return fail(err, errlen,
					"invalid value '%u' for --txq (port %u is polled by %u "
					"lcores and each sends on a TX queue of its own: at least "
					"%u)",
					a->txq, p, need, need);
	}
	return 0;
}
