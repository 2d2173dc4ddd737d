/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Offered load not met: a warning (load.h). */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "load.h"

extern int app_logtype; /* main.c */
#define LOAD_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, app_logtype, "pcc.app: " fmt "\n", ##__VA_ARGS__)

int
app_load_init(struct app_load *l, const struct pcc_engine *e, uint64_t now_tsc)
{
	uint32_t i;

	memset(l, 0, sizeof(*l));
	l->nb = pcc_engine_gen_flow_count(e);
	l->last_tsc = now_tsc;
	if (l->nb == 0)
		return 0;
	l->last_bytes = malloc(sizeof(*l->last_bytes) * l->nb);
	if (l->last_bytes == NULL)
		return -1;
	for (i = 0; i < l->nb; i++)
		l->last_bytes[i] = UINT64_MAX;
	return 0;
}

void
app_load_fini(struct app_load *l)
{
	free(l->last_bytes);
	l->last_bytes = NULL;
}

struct port_load {
	uint64_t expect_bps; /* offered, capped by what the algorithm allows */
	uint64_t offered_bps;
	uint64_t sent_bits;
	uint32_t flows;
};

static void
warn(struct app_load *l, uint16_t p, const struct port_load *pl, double secs)
{
	double sent = (double)pl->sent_bits / secs / 1e6;

	LOAD_LOG(WARNING,
			"generator: port %u does not meet its offered load: %u flows offer %.0f "
			"Mbit/s (%.0f allowed by the algorithm), %.0f Mbit/s leave (%.0f %%) for "
			"%u s: the lcore cannot keep up, or is not on a CPU often enough; fewer "
			"or slower flows (--gen-flows, --gen-rate), more lcores (-l), "
			"--idle-sleep 0, a CPU of its own (doc/dpdk-pcc.md, \"Offered load\")",
			p, pl->flows, (double)pl->offered_bps / 1e6, (double)pl->expect_bps / 1e6,
			sent, 100.0 * sent * 1e6 / (double)pl->expect_bps, APP_LOAD_WINDOWS);
	l->warned[p] = true;
	l->warnings++;
}

uint32_t
app_load_tick(struct app_load *l, const struct pcc_engine *e, uint64_t now_tsc, uint64_t hz)
{
	static struct port_load pl[RTE_MAX_ETHPORTS];
	struct pcc_engine_gen_flow_stats st;
	uint32_t i, warned = 0;
	double secs;
	uint16_t p;

	if (l->nb == 0 || now_tsc - l->last_tsc < hz)
		return 0;
	secs = (double)(now_tsc - l->last_tsc) / (double)hz;
	l->last_tsc = now_tsc;
	memset(pl, 0, sizeof(pl));
	for (i = 0; i < l->nb; i++) {
		uint64_t last = l->last_bytes[i], allowed;

		if (pcc_engine_gen_flow_stats_get(e, i, &st) != 0 ||
				st.state != PCC_ENGINE_GEN_ACTIVE) {
			l->last_bytes[i] = UINT64_MAX;
			continue;
		}
		l->last_bytes[i] = st.tx_bytes;
		/* active over the whole second, paced, in the table, on a port
		 * that runs (the console's `port stop` pauses it) */
		if (last == UINT64_MAX || st.offered_bps == 0 || !st.in_table ||
				st.port_id >= RTE_MAX_ETHPORTS ||
				pcc_engine_port_paused(e, st.port_id) != 0)
			continue;
		allowed = st.flow.rate_bps != 0 ? st.flow.rate_bps : st.offered_bps;
		pl[st.port_id].flows++;
		pl[st.port_id].offered_bps += st.offered_bps;
		pl[st.port_id].expect_bps += RTE_MIN(st.offered_bps, allowed);
		pl[st.port_id].sent_bits += (st.tx_bytes - last) * 8;
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		double expect_bits = (double)pl[p].expect_bps * secs;

		if (pl[p].flows == 0 || l->warned[p])
			continue;
		if ((double)pl[p].sent_bits * 100.0 >= expect_bits * APP_LOAD_MET_PCT) {
			l->short_windows[p] = 0;
			continue;
		}
		if (++l->short_windows[p] >= APP_LOAD_WINDOWS) {
			warn(l, p, &pl[p], secs);
			warned++;
		}
	}
	return warned;
}
