/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Statistics: sums of the per-lcore counters, readable while running. */

#include <assert.h>
#include <errno.h>
#include <string.h>

#include "engine_internal.h"

/* dst[i] += src[i] for counter structs made only of uint64_t. */
static void
ctr_sum(uint64_t *dst, const uint64_t *src, size_t words)
{
	size_t i;

	for (i = 0; i < words; i++)
		dst[i] += eng_ctr_read(&src[i]);
}

#define CTR_WORDS(s) (sizeof(s) / sizeof(uint64_t))

static_assert(sizeof(struct pcc_engine_port_stats) % sizeof(uint64_t) == 0,
		"port counters are uint64_t only");
static_assert(sizeof(struct eng_flow_ctr) % sizeof(uint64_t) == 0,
		"flow counters are uint64_t only");

uint64_t
pcc_engine_parse_drops(const struct pcc_engine_port_stats *st)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < PCC_ENGINE_NB_PARSE_ERR; i++)
		sum += st->parse_err[i];
	return sum;
}

int
pcc_engine_port_stats_get(
		const struct pcc_engine *e, uint16_t port_id, struct pcc_engine_port_stats *st)
{
	unsigned int l;
	int16_t pidx;

	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return -ENOENT;
	pidx = e->pidx[port_id];
	memset(st, 0, sizeof(*st));
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		const struct eng_lcore *lc = e->lcores[l];

		if (lc != NULL)
			ctr_sum((uint64_t *)st, (const uint64_t *)&lc->pctr[pidx], CTR_WORDS(*st));
	}
	return 0;
}

int
pcc_engine_lcore_stats_get(const struct pcc_engine *e, unsigned int lcore_id,
		struct pcc_engine_lcore_stats *st)
{
	const struct eng_lcore *lc;
	struct pcc_engine_port_stats sum;
	uint16_t i;

	if (lcore_id >= RTE_MAX_LCORE || e->lcores[lcore_id] == NULL)
		return -ENOENT;
	lc = e->lcores[lcore_id];
	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < e->nb_ports; i++)
		ctr_sum((uint64_t *)&sum, (const uint64_t *)&lc->pctr[i], CTR_WORDS(sum));
	st->polls = eng_ctr_read(&lc->polls);
	st->busy_polls = eng_ctr_read(&lc->busy_polls);
	st->rx_pkts = sum.rx_pkts;
	st->tx_pkts = sum.tx_pkts;
	st->tx_drop = sum.tx_drop;
	st->parse_drop = pcc_engine_parse_drops(&sum);
	st->nombuf = sum.nombuf;
	return 0;
}

uint32_t
pcc_engine_flow_count(const struct pcc_engine *e)
{
	return e->nb_flows;
}

int
pcc_engine_flow_stats_get(
		const struct pcc_engine *e, uint32_t idx, struct pcc_engine_flow_stats *st)
{
	struct eng_flow_ctr sum;
	unsigned int l;
	uint16_t i;

	if (idx >= e->nb_flows)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	for (i = 0; i < e->nb_ports; i++) {
		const struct eng_port *p = &e->ports[i];

		if (idx >= p->flow_base && idx - p->flow_base < p->nb_flows) {
			st->port_id = p->port_id;
			st->qpn = e->conf.gen.qpn_base + (idx - p->flow_base);
		}
	}
	memset(&sum, 0, sizeof(sum));
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		const struct eng_lcore *lc = e->lcores[l];

		if (lc != NULL && lc->fctr != NULL)
			ctr_sum((uint64_t *)&sum, (const uint64_t *)&lc->fctr[idx], CTR_WORDS(sum));
	}
	st->tx_pkts = sum.tx_pkts;
	st->tx_bytes = sum.tx_bytes;
	st->tx_ce = sum.tx_ce;
	st->cnp_rx = sum.cnp_rx;
	st->ack_rx = sum.ack_rx;
	st->nak_rx = sum.nak_rx;
	st->probe_resp_rx = sum.probe_resp_rx;
	return 0;
}
