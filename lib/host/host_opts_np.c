/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Setters of the NP options (host_opts.c's table): they write a context's
 * struct pcc_engine_np_conf, checked as the engine checks it.
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_ether.h>
#include <rte_lcore.h>

#include "host_genfile.h"
#include "host_opts_internal.h"

/* ---- NP options ---- */

int
host_opt_set_np_cnp(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return host_opt_on_off(v, &st->np->conf.cnp);
}

int
host_opt_set_np_learn(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	bool on;

	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (host_opt_on_off(v, &on) < 0)
		return -1;
	if (strcmp(o->info.name, "np-learn") == 0)
		st->np->conf.learn_off = !on;
	else if (strcmp(o->info.name, "np-resp-ext") == 0)
		st->np->conf.resp_ext = on;
	else
		st->np->conf.probe_fast_off = !on;
	return 0;
}

int
host_opt_set_np_sqpn(const struct opt *o, const char *val, struct host_stage *st, char *why,
		size_t whylen)
{
	struct host_np *np = st->np;
	struct pcc_engine_np_sqpn *m;
	const char *p = val;
	uint32_t i, n = 0;

	RTE_SET_USED(o);
	if (*p == '\0')
		return -1;
	m = realloc(np->map, sizeof(*m) * PCC_ENGINE_NP_SQPN_MAP_MAX);
	if (m == NULL)
		return host_opt_set_why(why, whylen, "out of memory");
	np->map = m;
	n = np->nb_map;
	while (*p != '\0') {
		const char *end = p + strcspn(p, ",");
		const char *eq = memchr(p, '=', (size_t)(end - p));
		uint64_t d, s;

		if (eq == NULL || host_opt_num_n(p, (size_t)(eq - p), 0, PCC_QPN_MASK, &d) < 0 ||
				host_opt_num_n(eq + 1, (size_t)(end - eq - 1), 0, PCC_QPN_MASK,
						&s) < 0)
			return -1;
		for (i = 0; i < n; i++)
			if (m[i].dqpn == d)
				return host_opt_set_why(
						why, whylen, "DestQP %#" PRIx64 " mapped twice", d);
		if (n == PCC_ENGINE_NP_SQPN_MAP_MAX)
			return host_opt_set_why(why, whylen, "more than %u QPs",
					PCC_ENGINE_NP_SQPN_MAP_MAX);
		m[n].dqpn = (uint32_t)d;
		m[n].sqpn = (uint32_t)s;
		n++;
		p = *end == ',' ? end + 1 : end;
		if (*end == ',' && *p == '\0')
			return -1;
	}
	np->nb_map = n;
	np->conf.sqpn_map = np->map;
	np->conf.nb_sqpn_map = n;
	return 0;
}

int
host_opt_set_np_cnp_gap(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (host_opt_num(v, 0, 10000000u, &x) < 0)
		return -1;
	st->np->conf.cnp_gap_us = x == 0 ? PCC_ENGINE_NP_NO_GAP : (uint32_t)x;
	return 0;
}

int
host_opt_set_np_cnp_pcp(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (host_opt_num(v, 0, 7, &x) < 0)
		return -1;
	st->np->conf.cnp_pcp_set = true;
	st->np->conf.cnp_pcp = (uint8_t)x;
	return 0;
}

int
host_opt_set_np_mark_ce(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return host_opt_ppm(v, &st->np->conf.mark_ce_ppm);
}

int
host_opt_set_np_resp_ts(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t a, b;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (host_opt_pair(v, PCC_ENGINE_NP_RESP_TS_SIZE_MAX, PCC_ENGINE_NP_RESP_TS_RES_MAX, &a,
			    &b) < 0)
		return -1;
	st->np->conf.resp_ts_size = (uint8_t)a;
	st->np->conf.resp_ts_res = (uint8_t)b;
	return 0;
}

int
host_opt_set_np_ts_source(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (strcmp(v, "port") == 0)
		st->np->conf.ts_src = PCC_ENGINE_NP_TS_PORT;
	else if (strcmp(v, "realtime") == 0)
		st->np->conf.ts_src = PCC_ENGINE_NP_TS_REALTIME;
	else
		return -1;
	return 0;
}

int
host_opt_set_np_resp_dscp(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (strcmp(v, "request") == 0) {
		st->np->conf.resp_dscp_set = false;
		return 0;
	}
	if (host_opt_num(v, 0, 63, &x) < 0)
		return -1;
	st->np->conf.resp_dscp_set = true;
	st->np->conf.resp_dscp = (uint8_t)x;
	return 0;
}

int
host_opt_set_np_hw_probes(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (strcmp(v, "answer") == 0)
		st->np->conf.hw_probes = PCC_ENGINE_NP_HW_ANSWER;
	else if (strcmp(v, "drop") == 0)
		st->np->conf.hw_probes = PCC_ENGINE_NP_HW_DROP;
	else
		return -1;
	return 0;
}

int
host_opt_set_np_gns(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t m, x;

	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (host_opt_pair(v, 0xF, 0xF, &m, &x) < 0)
		return -1;
	if (strcmp(o->info.name, "np-ifa2-gns-ignore") == 0) {
		st->np->conf.ifa2_gns_ignore = true;
		st->np->conf.ifa2_gns_ignore_mask = (uint8_t)m;
		st->np->conf.ifa2_gns_ignore_value = (uint8_t)x;
	} else {
		st->np->conf.ifa2_gns_select_mask = (uint8_t)m;
		st->np->conf.ifa2_gns_select_value = (uint8_t)x;
	}
	return 0;
}
