/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Statistics for machines (--stats-format json|csv, doc/dpdk-pcc.md
 * "Machine-readable statistics"): the same counters as the tables.
 * JSON: one object per print, one line each (JSON Lines), described by
 * doc/stats-schema.json.  CSV: a header, then one row per port per print.
 * Rates cover the time since the previous print (the final print: the
 * whole run), from the engine's own port counters.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "stats.h"

/* Only what a port name may hold that JSON must escape. */
static void
json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned int)(unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static const char *
gen_state_name(uint8_t s)
{
	switch (s) {
	case PCC_ENGINE_GEN_WAITING:
		return "wait";
	case PCC_ENGINE_GEN_ACTIVE:
		return "run";
	default:
		return "done";
	}
}

static uint64_t
ctr_at(const struct pcc_engine_port_stats *ps, const struct pcc_engine_ctr_info *ci)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)ps + ci->offset, sizeof(v));
	return v;
}

/* Per-second rate of a counter's growth, over secs. */
static double
per_s(uint64_t now, uint64_t before, double secs)
{
	return secs > 0 && now >= before ? (double)(now - before) / secs : 0;
}

struct port_view {
	struct pcc_engine_port_stats ps;
	struct rte_eth_stats es;
	bool es_ok;
	double rx_pps, rx_bps, tx_pps, tx_bps;
};

/* The port's counters and rates since the previous print; updates st. */
static void
port_view(struct app_stats *st, const struct pcc_engine *e, uint16_t p, double secs, bool final,
		struct port_view *v)
{
	struct app_stats_rate *r = &st->rate[p];

	memset(v, 0, sizeof(*v));
	pcc_engine_port_stats_get(e, p, &v->ps);
	v->es_ok = rte_eth_stats_get(p, &v->es) == 0;
	if (final)
		memset(r, 0, sizeof(*r));
	v->rx_pps = per_s(v->ps.rx_pkts, r->rx_pkts, secs);
	v->rx_bps = 8 * per_s(v->ps.rx_bytes, r->rx_bytes, secs);
	v->tx_pps = per_s(v->ps.tx_pkts, r->tx_pkts, secs);
	v->tx_bps = 8 * per_s(v->ps.tx_bytes, r->tx_bytes, secs);
	r->rx_pkts = v->ps.rx_pkts;
	r->rx_bytes = v->ps.rx_bytes;
	r->tx_pkts = v->ps.tx_pkts;
	r->tx_bytes = v->ps.tx_bytes;
}

void
app_stats_print_json(FILE *f, struct app_stats *st, const struct pcc_engine *e, double run,
		double secs, bool final)
{
	const struct pcc_engine_ctr_info *ci;
	struct pcc_engine_gen_flow_stats gs;
	struct port_view v;
	unsigned int i;
	const char *sep = "";
	uint32_t n, k;
	uint16_t p;

	fprintf(f,
			"{\"type\":\"pcc_stats\",\"version\":%u,\"time_s\":%.6f,"
			"\"interval_s\":%.6f,\"final\":%s,\"ports\":[",
			APP_STATS_JSON_VERSION, run, secs, final ? "true" : "false");
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		char name[RTE_ETH_NAME_MAX_LEN];
		uint8_t roles = pcc_engine_port_roles(e, p);

		if (roles == 0)
			continue;
		if (rte_eth_dev_get_name_by_port(p, name) != 0)
			snprintf(name, sizeof(name), "?");
		port_view(st, e, p, secs, final, &v);
		fprintf(f, "%s{\"port_id\":%u,\"name\":", sep, p);
		json_str(f, name);
		fprintf(f,
				",\"roles\":\"%s\",\"rx_pps\":%.1f,\"rx_bps\":%.1f,"
				"\"tx_pps\":%.1f,\"tx_bps\":%.1f,\"ethdev\":",
				app_roles_name(roles, true), v.rx_pps, v.rx_bps, v.tx_pps,
				v.tx_bps);
		if (v.es_ok)
			fprintf(f,
					"{\"ipackets\":%" PRIu64 ",\"opackets\":%" PRIu64
					",\"ibytes\":%" PRIu64 ",\"obytes\":%" PRIu64
					",\"imissed\":%" PRIu64 ",\"ierrors\":%" PRIu64
					",\"oerrors\":%" PRIu64 ",\"rx_nombuf\":%" PRIu64 "}",
					v.es.ipackets, v.es.opackets, v.es.ibytes, v.es.obytes,
					v.es.imissed, v.es.ierrors, v.es.oerrors, v.es.rx_nombuf);
		else
			fputs("null", f);
		fputs(",\"engine\":{", f);
		for (i = 0; (ci = pcc_engine_port_ctr_at(i)) != NULL; i++)
			fprintf(f, "%s\"%s\":%" PRIu64, i == 0 ? "" : ",", ci->name,
					ctr_at(&v.ps, ci));
		fputs("}}", f);
		sep = ",";
	}
	fputs("],\"flows\":[", f);
	n = pcc_engine_gen_flow_count(e);
	for (k = 0, sep = ""; k < n; k++) {
		uint64_t prev = k < st->nb_flows ? st->flow_tx_bytes[k] : 0;

		if (pcc_engine_gen_flow_stats_get(e, k, &gs) != 0)
			continue;
		fprintf(f,
				"%s{\"port_id\":%u,\"qpn\":%u,\"state\":\"%s\",\"rate_bps\":"
				"%" PRIu64 ",\"offered_bps\":%" PRIu64 ",\"tx_packets\":%" PRIu64
				",\"tx_bytes\":%" PRIu64 ",\"tx_bps\":%.1f,\"ce_sent\":%" PRIu64
				",\"cnp_rx\":%" PRIu64 ",\"ack_rx\":%" PRIu64
				",\"nack_rx\":%" PRIu64 ",\"rtt_ns\":%" PRIu64
				",\"fct_ns\":%" PRIu64 "}",
				sep, gs.port_id, gs.qpn, gen_state_name(gs.state),
				gs.in_table ? gs.flow.rate_bps : 0, gs.offered_bps, gs.tx_pkts,
				gs.tx_bytes, 8 * per_s(gs.tx_bytes, final ? 0 : prev, secs),
				gs.tx_ce, gs.flow.cnp_rx, gs.flow.ack_rx, gs.flow.nack_rx,
				gs.flow.rtt_ns, gs.fct_ns);
		if (k < st->nb_flows)
			st->flow_tx_bytes[k] = gs.tx_bytes;
		sep = ",";
	}
	fputs("]}\n", f);
	fflush(f);
}

void
app_stats_print_csv(FILE *f, struct app_stats *st, const struct pcc_engine *e, double run,
		double secs, bool final)
{
	const struct pcc_engine_ctr_info *ci;
	struct port_view v;
	unsigned int i;
	uint16_t p;

	if (!st->csv_header) {
		fputs("time_s,interval_s,final,port_id,name,roles,rx_pps,rx_bps,tx_pps,tx_bps", f);
		for (i = 0; (ci = pcc_engine_port_ctr_at(i)) != NULL; i++)
			fprintf(f, ",%s", ci->name);
		fputc('\n', f);
		st->csv_header = true;
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		char name[RTE_ETH_NAME_MAX_LEN];
		uint8_t roles = pcc_engine_port_roles(e, p);

		if (roles == 0)
			continue;
		if (rte_eth_dev_get_name_by_port(p, name) != 0 || strpbrk(name, ",\"\n") != NULL)
			snprintf(name, sizeof(name), "port%u", p);
		port_view(st, e, p, secs, final, &v);
		fprintf(f, "%.6f,%.6f,%d,%u,%s,%s,%.1f,%.1f,%.1f,%.1f", run, secs, final ? 1 : 0, p,
				name, app_roles_name(roles, true), v.rx_pps, v.rx_bps, v.tx_pps,
				v.tx_bps);
		for (i = 0; (ci = pcc_engine_port_ctr_at(i)) != NULL; i++)
			fprintf(f, ",%" PRIu64, ctr_at(&v.ps, ci));
		fputc('\n', f);
	}
	fflush(f);
}
