/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Statistics tables (see stats.h); every number comes from a counter. */

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "pcc_dev.h"
#include "stats.h"

/* Generator flows shown by a periodic print; the final print shows all. */
#define FLOWS_PERIODIC_MAX 16
/* Flows of the "top by rate" table. */
#define FLOWS_TOP 16

/* ---- A small aligned table --------------------------------------- */

#define TBL_COLS 20
#define TBL_CELL 64

struct table {
	unsigned int ncols;
	unsigned int nleft; /* first nleft columns are left-aligned */
	const char *const *hdr;
	char (*rows)[TBL_COLS][TBL_CELL];
	unsigned int nrows;
	unsigned int cap;
};

static void
tbl_init(struct table *t, const char *const *hdr, unsigned int ncols, unsigned int nleft)
{
	memset(t, 0, sizeof(*t));
	t->hdr = hdr;
	t->ncols = RTE_MIN(ncols, (unsigned int)TBL_COLS);
	t->nleft = nleft;
}

/* Start a row; false if out of memory (the row is then dropped). */
static bool
tbl_row(struct table *t)
{
	if (t->nrows == t->cap) {
		unsigned int cap = t->cap == 0 ? 8 : t->cap * 2;
		void *r = realloc(t->rows, sizeof(*t->rows) * cap);

		if (r == NULL)
			return false;
		t->rows = r;
		t->cap = cap;
	}
	memset(t->rows[t->nrows], 0, sizeof(t->rows[0]));
	t->nrows++;
	return true;
}

static void __rte_format_printf(3, 4)
		tbl_set(struct table *t, unsigned int col, const char *fmt, ...)
{
	va_list ap;

	if (t->nrows == 0 || col >= t->ncols)
		return;
	va_start(ap, fmt);
	vsnprintf(t->rows[t->nrows - 1][col], TBL_CELL, fmt, ap);
	va_end(ap);
}

static void
tbl_u64(struct table *t, unsigned int col, uint64_t v)
{
	tbl_set(t, col, "%" PRIu64, v);
}

static void
tbl_print(FILE *f, struct table *t, const char *title)
{
	size_t w[TBL_COLS];
	unsigned int c, r;

	if (t->nrows == 0)
		goto out;
	for (c = 0; c < t->ncols; c++) {
		w[c] = strlen(t->hdr[c]);
		for (r = 0; r < t->nrows; r++)
			w[c] = RTE_MAX(w[c], strlen(t->rows[r][c]));
	}
	fprintf(f, "%s\n", title);
	for (c = 0; c < t->ncols; c++)
		fprintf(f, c < t->nleft ? "  %-*s" : "  %*s", (int)w[c], t->hdr[c]);
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++)
			fprintf(f, c < t->nleft ? "  %-*s" : "  %*s", (int)w[c], t->rows[r][c]);
		fputc('\n', f);
	}
	fputc('\n', f);
out:
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
	t->cap = 0;
}

/* ---- Helpers ----------------------------------------------------- */

static double
mbps(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes * 8 / secs / 1e6 : 0;
}

const char *
app_roles_name(uint8_t roles, bool lower)
{
	static const char *const up[] = { "-", "RP", "NP", "RP+NP", "FWD" };
	static const char *const lo[] = { "-", "rp", "np", "rp+np", "fwd" };
	unsigned int i = (roles & PCC_ENGINE_ROLE_FWD) ? 4 :
							 ((roles & PCC_ENGINE_ROLE_RP) ? 1 : 0) +
					((roles & PCC_ENGINE_ROLE_NP) ? 2 : 0);

	return (lower ? lo : up)[i];
}

/* ---- Tables ------------------------------------------------------ */

/*
 * Bytes and Mbps columns of a port counter.  Some PMDs (net_ring) count
 * packets but not bytes: show n/a rather than a zero that looks measured.
 */
static void
print_bytes(struct table *t, unsigned int col, uint64_t pkts, uint64_t bytes, uint64_t prev,
		double secs, bool final)
{
	if (pkts > 0 && bytes == 0) {
		tbl_set(t, col, "n/a");
		tbl_set(t, col + 1, "n/a");
		return;
	}
	tbl_u64(t, col, bytes);
	tbl_set(t, col + 1, "%.1f", mbps(final ? bytes : bytes - prev, secs));
}

static void
print_ports(FILE *f, struct app_stats *st, const struct pcc_engine *e, double secs, bool final)
{
	static const char *const hdr[] = { "Port", "Name", "Role", "RX-packets", "RX-bytes",
		"RX-Mbps", "TX-packets", "TX-bytes", "TX-Mbps", "RX-missed", "RX-errors",
		"TX-errors", "RX-nombuf" };
	struct table t;
	uint16_t p;

	tbl_init(&t, hdr, RTE_DIM(hdr), 3);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		char name[RTE_ETH_NAME_MAX_LEN];
		struct rte_eth_stats es;
		uint8_t roles = pcc_engine_port_roles(e, p);

		if (roles == 0 || !tbl_row(&t))
			continue;
		if (rte_eth_dev_get_name_by_port(p, name) != 0)
			snprintf(name, sizeof(name), "?");
		tbl_u64(&t, 0, p);
		tbl_set(&t, 1, "%s", name);
		tbl_set(&t, 2, "%s", app_roles_name(roles, false));
		if (rte_eth_stats_get(p, &es) != 0) {
			tbl_set(&t, 3, "n/a");
			continue;
		}
		tbl_u64(&t, 3, es.ipackets);
		print_bytes(&t, 4, es.ipackets, es.ibytes, st->port[p].ibytes, secs, final);
		tbl_u64(&t, 6, es.opackets);
		print_bytes(&t, 7, es.opackets, es.obytes, st->port[p].obytes, secs, final);
		tbl_u64(&t, 9, es.imissed);
		tbl_u64(&t, 10, es.ierrors);
		tbl_u64(&t, 11, es.oerrors);
		tbl_u64(&t, 12, es.rx_nombuf);
		st->port[p].ibytes = es.ibytes;
		st->port[p].obytes = es.obytes;
	}
	tbl_print(f, &t, "Ports (rte_eth_stats; Mbps of frames without FCS):");
}

static void
print_engine(FILE *f, const struct pcc_engine *e)
{
	static const char *const hdr[] = { "Port", "RX-packets", "Parse-drop", "CE-rx", "CNP-tx",
		"CNP-rx", "Gen-packets", "Gen-CE", "TX-packets", "TX-drop", "No-mbuf",
		"Build-err" };
	static const char *const khdr[PCC_PKT_KIND_MAX + 1] = { "Port" };
	const char *kh[PCC_PKT_KIND_MAX + 1];
	static const char *const rhdr[] = { "Port", "Reason", "Packets" };
	static const char *const fhdr[] = { "Port", "Fate", "Packets" };
	struct pcc_engine_port_stats ps;
	struct table t, k, r, fa;
	unsigned int i;
	uint16_t p;

	memcpy(kh, khdr, sizeof(kh));
	for (i = 0; i < PCC_PKT_KIND_MAX; i++)
		kh[i + 1] = pcc_pkt_kind_name((enum pcc_pkt_kind)i);
	tbl_init(&t, hdr, RTE_DIM(hdr), 1);
	tbl_init(&k, kh, PCC_PKT_KIND_MAX + 1, 1);
	tbl_init(&r, rhdr, RTE_DIM(rhdr), 2);
	tbl_init(&fa, fhdr, RTE_DIM(fhdr), 2);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (pcc_engine_port_stats_get(e, p, &ps) != 0)
			continue;
		if (tbl_row(&t)) {
			tbl_u64(&t, 0, p);
			tbl_u64(&t, 1, ps.rx_pkts);
			tbl_u64(&t, 2, pcc_engine_parse_drops(&ps));
			tbl_u64(&t, 3, ps.ce_rx);
			tbl_u64(&t, 4, ps.cnp_tx);
			tbl_u64(&t, 5, ps.rx_kind[PCC_PKT_CNP]);
			tbl_u64(&t, 6, ps.gen_pkts);
			tbl_u64(&t, 7, ps.gen_ce);
			tbl_u64(&t, 8, ps.tx_pkts);
			tbl_u64(&t, 9, ps.tx_drop);
			tbl_u64(&t, 10, ps.nombuf);
			tbl_u64(&t, 11, ps.build_err);
		}
		if (tbl_row(&k)) {
			tbl_u64(&k, 0, p);
			for (i = 0; i < PCC_PKT_KIND_MAX; i++)
				tbl_u64(&k, i + 1, ps.rx_kind[i]);
		}
		for (i = 0; i < PCC_ENGINE_NB_PARSE_ERR; i++) {
			if (ps.parse_err[i] == 0 || !tbl_row(&r))
				continue;
			tbl_u64(&r, 0, p);
			tbl_set(&r, 1, "%s",
					i == 0 ? "unknown error" : pcc_proto_strerror(-(int)i));
			tbl_u64(&r, 2, ps.parse_err[i]);
		}
		for (i = 0; i < PCC_ENGINE_FATE_MAX; i++) {
			if (ps.rx_fate[i] == 0 || !tbl_row(&fa))
				continue;
			tbl_u64(&fa, 0, p);
			tbl_set(&fa, 1, "%s", pcc_engine_rx_fate_name(i));
			tbl_u64(&fa, 2, ps.rx_fate[i]);
		}
		/* a frame counted twice or not at all is a bug: say so */
		if (pcc_engine_rx_unaccounted(&ps) != 0 && tbl_row(&fa)) {
			tbl_u64(&fa, 0, p);
			tbl_set(&fa, 1, "unaccounted");
			tbl_set(&fa, 2, "%" PRId64, pcc_engine_rx_unaccounted(&ps));
		}
	}
	tbl_print(f, &t, "Engine per port (CE-rx/CNP-tx on NP ports, CNP-rx/Gen on RP ports):");
	tbl_print(f, &k, "Received packets by kind:");
	tbl_print(f, &r, "Malformed packets dropped, by reason:");
	tbl_print(f, &fa,
			"What became of the other received packets (each once; with the "
			"malformed ones they add up to RX-packets):");
}

static const char *
gen_state(uint8_t st)
{
	switch (st) {
	case PCC_ENGINE_GEN_WAITING:
		return "wait";
	case PCC_ENGINE_GEN_ACTIVE:
		return "run";
	case PCC_ENGINE_GEN_DONE:
		return "done";
	default:
		return "?";
	}
}

static void
print_gen_flows(FILE *f, struct app_stats *st, const struct pcc_engine *e, double secs, bool final)
{
	static const char *const hdr[] = { "Port", "QPN", "State", "Rate-Gbps", "TX-packets",
		"TX-Mbps", "CE-sent", "CNP-rx", "ACK-rx", "NAK-rx", "Probe-rx", "RTT-us",
		"FCT-us" };
	uint32_t i, n = pcc_engine_gen_flow_count(e), shown;
	struct pcc_engine_gen_flow_stats fs;
	struct table t;
	char title[128];

	if (n == 0)
		return;
	shown = final ? n : RTE_MIN(n, (uint32_t)FLOWS_PERIODIC_MAX);
	tbl_init(&t, hdr, RTE_DIM(hdr), 1);
	for (i = 0; i < n; i++) {
		uint64_t prev;

		/* the rate columns need every flow's bytes, shown or not */
		if (i >= shown && i >= st->nb_flows)
			break;
		if (pcc_engine_gen_flow_stats_get(e, i, &fs) != 0)
			continue;
		prev = i < st->nb_flows ? st->flow_tx_bytes[i] : 0;
		if (i < st->nb_flows)
			st->flow_tx_bytes[i] = fs.tx_bytes;
		if (i >= shown || !tbl_row(&t))
			continue;
		tbl_u64(&t, 0, fs.port_id);
		tbl_u64(&t, 1, fs.qpn);
		tbl_set(&t, 2, "%s", gen_state(fs.state));
		if (fs.in_table)
			tbl_set(&t, 3, "%.3f", (double)fs.flow.rate_bps / 1e9);
		else
			tbl_set(&t, 3, "-");
		tbl_u64(&t, 4, fs.tx_pkts);
		tbl_set(&t, 5, "%.1f", mbps(final ? fs.tx_bytes : fs.tx_bytes - prev, secs));
		tbl_u64(&t, 6, fs.tx_ce);
		tbl_u64(&t, 7, fs.flow.cnp_rx);
		tbl_u64(&t, 8, fs.flow.ack_rx);
		tbl_u64(&t, 9, fs.flow.nack_rx);
		tbl_u64(&t, 10, fs.flow.ev[PCC_DEV_EVENT_RTT]);
		if (fs.flow.rtt_ns != 0)
			tbl_set(&t, 11, "%.2f", (double)fs.flow.rtt_ns / 1e3);
		else
			tbl_set(&t, 11, "-");
		if (fs.state == PCC_ENGINE_GEN_DONE && fs.fct_ns != 0)
			tbl_set(&t, 12, "%.1f", (double)fs.fct_ns / 1e3);
		else
			tbl_set(&t, 12, "-");
	}
	if (shown < n)
		snprintf(title, sizeof(title),
				"Generator flows (first %u of %u; all in the final statistics):",
				shown, n);
	else
		snprintf(title, sizeof(title), "Generator flows:");
	tbl_print(f, &t, title);
}

static void
key_str(const struct pcc_engine_flow_key *k, char *buf, size_t len)
{
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
	int af = k->type == PCC_ENGINE_FLOW_IPV6 ? AF_INET6 : AF_INET;

	if (k->type == PCC_ENGINE_FLOW_QP) {
		snprintf(buf, len, "qp %u", k->qpn);
		return;
	}
	inet_ntop(af, k->src, s, sizeof(s));
	inet_ntop(af, k->dst, d, sizeof(d));
	snprintf(buf, len, "%s:%u>%s:%u/%u", s, k->sport, d, k->dport, k->proto);
}

static void
print_top_flows(FILE *f, const struct pcc_engine *e)
{
	static const char *const hdr[] = { "Port", "Flow", "Lcore", "Slot", "Rate-Gbps", "Window",
		"TX-packets", "TX-bytes", "CNP", "ACK", "NAK", "RTT-us", "Ev-CNP", "Ev-TX",
		"Ev-ACK", "Ev-NAK", "Ev-RTT", "Ev-Timer" };
	struct pcc_engine_flow_info top[FLOWS_TOP];
	uint32_t i, n, total = pcc_engine_flow_count(e);
	struct table t;
	char title[128], key[160];

	if (total == 0)
		return;
	n = pcc_engine_flows_top(e, top, FLOWS_TOP);
	tbl_init(&t, hdr, RTE_DIM(hdr), 2);
	for (i = 0; i < n; i++) {
		const struct pcc_engine_flow_info *fi = &top[i];

		if (!tbl_row(&t))
			break;
		key_str(&fi->key, key, sizeof(key));
		tbl_u64(&t, 0, fi->key.port_id);
		tbl_set(&t, 1, "%s", key);
		tbl_u64(&t, 2, fi->lcore_id);
		tbl_set(&t, 3, fi->slot == PCC_DEV_INTERNAL_SLOT ? "0xF" : "%u", fi->slot);
		tbl_set(&t, 4, "%.3f", (double)fi->rate_bps / 1e9);
		if (fi->window != 0)
			tbl_u64(&t, 5, fi->window);
		else
			tbl_set(&t, 5, "-");
		tbl_u64(&t, 6, fi->tx_pkts);
		tbl_u64(&t, 7, fi->tx_bytes);
		tbl_u64(&t, 8, fi->cnp_rx);
		tbl_u64(&t, 9, fi->ack_rx);
		tbl_u64(&t, 10, fi->nack_rx);
		if (fi->rtt_ns != 0)
			tbl_set(&t, 11, "%.2f", (double)fi->rtt_ns / 1e3);
		else
			tbl_set(&t, 11, "-");
		tbl_u64(&t, 12, fi->ev[PCC_DEV_EVENT_CNP]);
		tbl_u64(&t, 13, fi->ev[PCC_DEV_EVENT_TX]);
		tbl_u64(&t, 14, fi->ev[PCC_DEV_EVENT_ACK]);
		tbl_u64(&t, 15, fi->ev[PCC_DEV_EVENT_NACK]);
		tbl_u64(&t, 16, fi->ev[PCC_DEV_EVENT_RTT]);
		tbl_u64(&t, 17, fi->ev[PCC_DEV_EVENT_TIMER]);
	}
	snprintf(title, sizeof(title), "Flows (top %u of %u by rate):", n, total);
	tbl_print(f, &t, title);
}

static void
print_rp(FILE *f, const struct pcc_engine *e)
{
	static const char *const hdr[] = { "Port", "Ev-CNP", "Ev-TX", "Ev-ACK", "Ev-NAK", "Ev-RTT",
		"Ev-Timer", "Masked", "Ev-err", "No-flow", "NAK-fatal", "Probe-tx", "Probe-bad",
		"Probe-none", "Rate-upd", "Win-stall", "Xring-drop", "Xring-wait", "Pacer-drop" };
	static const char *const fhdr[] = { "Port", "Fwd-rx", "Paced", "Unpaced", "Back-to-host" };
	struct pcc_engine_port_stats ps;
	struct table t, w;
	uint16_t p;

	tbl_init(&t, hdr, RTE_DIM(hdr), 1);
	tbl_init(&w, fhdr, RTE_DIM(fhdr), 1);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		uint8_t roles = pcc_engine_port_roles(e, p);

		if (roles == 0 || pcc_engine_port_stats_get(e, p, &ps) != 0)
			continue;
		if ((roles & PCC_ENGINE_ROLE_FWD) ||
				ps.fwd_paced + ps.fwd_unpaced + ps.fwd_back > 0) {
			if (tbl_row(&w)) {
				tbl_u64(&w, 0, p);
				tbl_u64(&w, 1, ps.fwd_rx);
				tbl_u64(&w, 2, ps.fwd_paced);
				tbl_u64(&w, 3, ps.fwd_unpaced);
				tbl_u64(&w, 4, ps.fwd_back);
			}
		}
		if (!(roles & PCC_ENGINE_ROLE_RP) || !tbl_row(&t))
			continue;
		tbl_u64(&t, 0, p);
		tbl_u64(&t, 1, ps.ev[PCC_DEV_EVENT_CNP]);
		tbl_u64(&t, 2, ps.ev[PCC_DEV_EVENT_TX]);
		tbl_u64(&t, 3, ps.ev[PCC_DEV_EVENT_ACK]);
		tbl_u64(&t, 4, ps.ev[PCC_DEV_EVENT_NACK]);
		tbl_u64(&t, 5, ps.ev[PCC_DEV_EVENT_RTT]);
		tbl_u64(&t, 6, ps.ev[PCC_DEV_EVENT_TIMER]);
		tbl_u64(&t, 7, ps.ev_masked);
		tbl_u64(&t, 8, ps.ev_err);
		tbl_u64(&t, 9, ps.rp_no_flow);
		tbl_u64(&t, 10, ps.nack_other);
		tbl_u64(&t, 11, ps.probe_tx);
		tbl_u64(&t, 12, ps.probe_bad);
		tbl_u64(&t, 13, ps.probe_no_flow);
		tbl_u64(&t, 14, ps.rate_updates);
		tbl_u64(&t, 15, ps.window_stalls);
		tbl_u64(&t, 16, ps.xring_drop);
		tbl_u64(&t, 17, ps.xring_wait);
		tbl_u64(&t, 18, ps.pacer_drop);
	}
	tbl_print(f, &t, "Reaction point per port (events dispatched to the algorithms):");
	tbl_print(f, &w, "Forward mode per port:");
}

static void
print_lcores(FILE *f, struct app_stats *st, const struct pcc_engine *e, bool final)
{
	static const char *const hdr[] = { "Lcore", "Polls", "Busy%", "RX-packets", "TX-packets",
		"TX-drop", "Parse-drop", "No-mbuf", "Flows", "Capacity", "Added", "Evicted", "Aged",
		"Refused", "Probe-hdr-full", "Xring-in", "Xring-out", "Timer-ev", "Timer-late-us" };
	struct pcc_engine_lcore_stats ls;
	struct table t;
	unsigned int l;

	tbl_init(&t, hdr, RTE_DIM(hdr), 1);
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		uint64_t polls, busy;

		if (pcc_engine_lcore_stats_get(e, l, &ls) != 0 || !tbl_row(&t))
			continue;
		polls = final ? ls.polls : ls.polls - st->lcore[l].polls;
		busy = final ? ls.busy_polls : ls.busy_polls - st->lcore[l].busy_polls;
		tbl_u64(&t, 0, l);
		tbl_u64(&t, 1, ls.polls);
		tbl_set(&t, 2, "%.1f", polls > 0 ? 100.0 * (double)busy / (double)polls : 0.0);
		tbl_u64(&t, 3, ls.rx_pkts);
		tbl_u64(&t, 4, ls.tx_pkts);
		tbl_u64(&t, 5, ls.tx_drop);
		tbl_u64(&t, 6, ls.parse_drop);
		tbl_u64(&t, 7, ls.nombuf);
		tbl_u64(&t, 8, ls.flows);
		tbl_u64(&t, 9, ls.flows_cap);
		tbl_u64(&t, 10, ls.flows_added);
		tbl_u64(&t, 11, ls.flows_evicted);
		tbl_u64(&t, 12, ls.flows_aged);
		tbl_u64(&t, 13, ls.flows_refused);
		tbl_u64(&t, 14, ls.probe_custom_full);
		tbl_u64(&t, 15, ls.xring_in);
		tbl_u64(&t, 16, ls.xring_out);
		tbl_u64(&t, 17, ls.timer_events);
		tbl_set(&t, 18, "%.1f", (double)ls.timer_late_max / 1e3);
		st->lcore[l] = ls;
	}
	tbl_print(f, &t,
			"Lcores (Busy%: poll rounds that received or sent; flow table of each "
			"lcore):");
}

/* ---- Entry points ------------------------------------------------ */

int
app_stats_init(struct app_stats *st, const struct pcc_engine *e)
{
	memset(st, 0, sizeof(*st));
	st->nb_flows = pcc_engine_gen_flow_count(e);
	if (st->nb_flows > 0) {
		st->flow_tx_bytes = calloc(st->nb_flows, sizeof(*st->flow_tx_bytes));
		if (st->flow_tx_bytes == NULL)
			return -1;
	}
	st->start_tsc = rte_get_tsc_cycles();
	st->last_tsc = st->start_tsc;
	return 0;
}

void
app_stats_print(FILE *f, struct app_stats *st, const struct pcc_engine *e, bool final)
{
	uint64_t now = rte_get_tsc_cycles();
	double hz = (double)rte_get_tsc_hz();
	double run = (double)(now - st->start_tsc) / hz;
	double secs = final ? run : (double)(now - st->last_tsc) / hz;

	if (st->format != APP_STATS_TEXT) {
		if (st->format == APP_STATS_JSON)
			app_stats_print_json(f, st, e, run, secs, final);
		else
			app_stats_print_csv(f, st, e, run, secs, final);
		st->last_tsc = now;
		return;
	}
	if (final)
		fprintf(f,
				"\n==== dpdk-pcc final statistics after %.2f s (rates: average "
				"over the run) ====\n\n",
				run);
	else
		fprintf(f, "\n==== dpdk-pcc statistics at %.2f s (rates: last %.2f s) ====\n\n",
				run, secs);
	print_ports(f, st, e, secs, final);
	print_engine(f, e);
	print_rp(f, e);
	print_gen_flows(f, st, e, secs, final);
	print_top_flows(f, e);
	print_lcores(f, st, e, final);
	fflush(f);
	st->last_tsc = now;
}

void
app_stats_fini(struct app_stats *st)
{
	free(st->flow_tx_bytes);
	st->flow_tx_bytes = NULL;
}
