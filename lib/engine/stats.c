/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Statistics: sums of the per-lcore counters, flows; readable while running. */

#include <assert.h>
#include <errno.h>
#include <stddef.h>
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

/* The counters, declared once (pcc_engine.h) */
static const struct pcc_engine_ctr_info port_ctrs[] = {
#define CTR_INFO(nm, d) \
	{ .name = #nm, .desc = d, .offset = offsetof(struct pcc_engine_port_stats, nm) },
	PCC_ENGINE_PORT_CTRS(CTR_INFO)
#undef CTR_INFO
};

static const char *const fate_names[] = {
#define FATE_NAME(id, nm, d) [PCC_ENGINE_FATE_##id] = nm,
	PCC_ENGINE_RX_FATES(FATE_NAME)
#undef FATE_NAME
};

static const char *const fate_descs[] = {
#define FATE_DESC(id, nm, d) [PCC_ENGINE_FATE_##id] = d,
	PCC_ENGINE_RX_FATES(FATE_DESC)
#undef FATE_DESC
};

const struct pcc_engine_ctr_info *
pcc_engine_port_ctr_at(unsigned int i)
{
	return i < RTE_DIM(port_ctrs) ? &port_ctrs[i] : NULL;
}

const char *
pcc_engine_rx_fate_name(unsigned int fate)
{
	return fate < PCC_ENGINE_FATE_MAX ? fate_names[fate] : NULL;
}

const char *
pcc_engine_rx_fate_desc(unsigned int fate)
{
	return fate < PCC_ENGINE_FATE_MAX ? fate_descs[fate] : NULL;
}

int64_t
pcc_engine_rx_unaccounted(const struct pcc_engine_port_stats *st)
{
	uint64_t sum = pcc_engine_parse_drops(st);
	unsigned int i;

	for (i = 0; i < PCC_ENGINE_FATE_MAX; i++)
		sum += st->rx_fate[i];
	return (int64_t)(st->rx_pkts - sum);
}

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
	memset(st, 0, sizeof(*st));
	st->polls = eng_ctr_read(&lc->polls);
	st->busy_polls = eng_ctr_read(&lc->busy_polls);
	st->port_skips = eng_ctr_read(&lc->port_skips);
	st->rx_pkts = sum.rx_pkts;
	st->tx_pkts = sum.tx_pkts;
	st->tx_drop = sum.tx_drop;
	st->parse_drop = pcc_engine_parse_drops(&sum);
	st->nombuf = sum.nombuf;
	st->flows = eng_ctr_read(&lc->ft.ctr.flows);
	st->flows_cap = lc->ft.cap;
	st->flows_added = eng_ctr_read(&lc->ft.ctr.added);
	st->flows_evicted = eng_ctr_read(&lc->ft.ctr.evicted);
	st->flows_aged = eng_ctr_read(&lc->ft.ctr.aged);
	st->flows_refused = eng_ctr_read(&lc->ft.ctr.refused);
	st->probe_custom_full = eng_ctr_read(&lc->ft.ctr.pcust_full);
	st->xring_in = eng_ctr_read(&lc->ctr.xring_in);
	st->xring_out = eng_ctr_read(&lc->ctr.xring_out);
	st->timer_events = eng_ctr_read(&lc->ctr.timer_events);
	st->timer_late_max = eng_ctr_read(&lc->ctr.timer_late_max);
	return 0;
}

/* ---- Flows ------------------------------------------------------------------ */

uint32_t
pcc_engine_flow_count(const struct pcc_engine *e)
{
	uint64_t n = 0;
	uint16_t k;

	for (k = 0; k < e->nb_lcores; k++)
		n += eng_ctr_read(&e->by_rank[k]->ft.ctr.flows);
	return (uint32_t)n;
}

/* Public view of a snapshot s of a flow owned by lc. */
static void
flow_info(const struct pcc_engine *e, const struct eng_lcore *lc, const struct eng_flow *s,
		struct pcc_engine_flow_info *info)
{
	const struct eng_port *p = &e->ports[e->pidx[s->key.port_id]];
	uint64_t now = eng_clock_now(&p->clk);
	unsigned int i;

	memset(info, 0, sizeof(*info));
	info->key = s->key;
	info->lcore_id = lc->lcore_id;
	info->dev_port = s->dev_port;
	info->slot = s->slot;
	/* before the algorithm's first result a flow runs at line rate: say so
	 * in both fields */
	info->rate = s->rate == 0 || s->rate > PCC_DEV_MAX_RATE ? PCC_DEV_MAX_RATE : s->rate;
	info->pinned = (s->flags & ENG_FLOW_F_PINNED) != 0;
	info->rate_bps = eng_rate_bps(info->rate, p->line_bps);
	if (info->rate_bps == 0)
		info->rate_bps = p->line_bps;
	info->window = s->window;
	info->tx_pkts = s->tx_pkts;
	info->tx_bytes = s->tx_bytes;
	info->cnp_rx = s->cnp_rx;
	info->ack_rx = s->ack_rx;
	info->nack_rx = s->nack_rx;
	info->probe_tx = s->probe_tx;
	info->rtt_ns = s->rtt_ns;
	for (i = 0; i < PCC_ENGINE_NB_EV; i++)
		info->ev[i] = s->ev[i];
	info->idle_ns = (int64_t)(now - s->last_ns) > 0 ? now - s->last_ns : 0;
}

/* Snapshot of the in-use flow at idx of lc with key (NULL: any key). */
static int
flow_read(const struct eng_lcore *lc, uint32_t idx, const struct pcc_engine_flow_key *key,
		struct eng_flow *s)
{
	if (eng_flow_snapshot(eng_flow_at(&lc->ft, idx), s) != 0)
		return -EAGAIN;
	if (!(s->flags & ENG_FLOW_F_IN_USE))
		return -ENOENT;
	if (key != NULL && memcmp(&s->key, key, sizeof(*key)) != 0)
		return -ENOENT;
	return 0;
}

int
pcc_engine_flow_get(const struct pcc_engine *e, const struct pcc_engine_flow_key *key,
		struct pcc_engine_flow_info *info)
{
	const struct eng_lcore *lc;
	struct eng_flow s;
	uint32_t sig;
	int32_t pos;

	if (e == NULL || key == NULL || info == NULL || key->port_id >= RTE_MAX_ETHPORTS ||
			e->pidx[key->port_id] < 0)
		return -ENOENT;
	if (e->ports[e->pidx[key->port_id]].nb_owners == 0)
		return -ENOENT;
	sig = eng_flow_hash(key);
	lc = eng_owner_key(e, (uint16_t)e->pidx[key->port_id], key, sig);
	pos = rte_hash_lookup_with_hash(lc->ft.h, key, sig);
	if (pos < 0 || flow_read(lc, (uint32_t)pos, key, &s) != 0)
		return -ENOENT;
	flow_info(e, lc, &s, info);
	return 0;
}

static bool
ranks_before(const struct pcc_engine_flow_info *a, const struct pcc_engine_flow_info *b)
{
	if (a->rate_bps != b->rate_bps)
		return a->rate_bps > b->rate_bps;
	return a->tx_bytes > b->tx_bytes;
}

uint32_t
pcc_engine_flows_top(const struct pcc_engine *e, struct pcc_engine_flow_info *out, uint32_t n)
{
	struct pcc_engine_flow_info cur;
	uint32_t have = 0, idx, j;
	struct eng_flow s;
	uint16_t k;

	if (n == 0)
		return 0;
	for (k = 0; k < e->nb_lcores; k++) {
		const struct eng_lcore *lc = e->by_rank[k];
		uint64_t in_use = eng_ctr_read(&lc->ft.ctr.flows), seen = 0;

		/* positions are handed out from the low end: stop once every
		 * flow in the table was seen */
		for (idx = 0; idx < lc->ft.cap && seen < in_use; idx++) {
			if (!(__atomic_load_n(&eng_flow_at(&lc->ft, idx)->flags, __ATOMIC_RELAXED) &
					    ENG_FLOW_F_IN_USE))
				continue;
			seen++;
			if (flow_read(lc, idx, NULL, &s) != 0)
				continue;
			flow_info(e, lc, &s, &cur);
			if (have == n && !ranks_before(&cur, &out[n - 1]))
				continue;
			j = have < n ? have++ : n - 1;
			while (j > 0 && ranks_before(&cur, &out[j - 1])) {
				out[j] = out[j - 1];
				j--;
			}
			out[j] = cur;
		}
	}
	return have;
}

/* ---- Generator flows ------------------------------------------------------------ */

uint32_t
pcc_engine_gen_flow_count(const struct pcc_engine *e)
{
	return e->nb_gen;
}

int
pcc_engine_gen_flow_stats_get(
		const struct pcc_engine *e, uint32_t idx, struct pcc_engine_gen_flow_stats *st)
{
	const struct eng_gen_flow *gf;
	struct pcc_engine_flow_key k;

	if (idx >= e->nb_gen)
		return -ENOENT;
	gf = e->gen_all[idx];
	memset(st, 0, sizeof(*st));
	st->port_id = gf->port_id;
	st->qpn = gf->qpn;
	st->state = __atomic_load_n(&gf->state, __ATOMIC_RELAXED);
	st->tx_pkts = eng_ctr_read(&gf->tx_pkts);
	st->tx_bytes = eng_ctr_read(&gf->tx_bytes);
	st->tx_ce = eng_ctr_read(&gf->tx_ce);
	st->fct_ns = eng_ctr_read(&gf->fct_ns);
	st->offered_bps = gf->unpaced ? 0 : gf->rate_bps;
	pcc_engine_flow_key_qp(&k, gf->port_id, gf->qpn);
	st->in_table = pcc_engine_flow_get(e, &k, &st->flow) == 0;
	return 0;
}
