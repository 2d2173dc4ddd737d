/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Console commands: help, engine control, configuration and state, port
 * and lcore statistics, flows, probes.  doc/console.md.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "console.h"
#include "host.h"
#include "pcc_host.h"
#include "pcc_dev.h"

/* ---- help ------------------------------------------------------------- */

struct help_topic {
	const char *name;
	const char *title;
	const char *text;
};

static const struct help_topic help_topics[] = {
	{ "control", "Engine control",
			"start                                   launch the workers\n"
			"stop                                    stop the workers\n"
			"quit                                    stop and exit\n"
			"show config                             configuration\n"
			"show state                              running or stopped, uptime, "
			"flows\n" },
	{ "ports", "Ports and lcores",
			"show port stats all|<port>              engine and ethdev counters\n"
			"clear port stats                        zero them\n"
			"show lcores                             polling lcores\n" },
	{ "flows", "Flows",
			"show flows [top <n>]                    flows by rate (default top 32)\n"
			"show flow <qpn>                         one QP flow\n"
			"set flow <qpn> rate <mbps>|auto         pin a flow's rate / release\n"
			"set probe <slot> ccmad|ifa1|ifa2 [<options>]\n"
			"    ccmad [hw|sw] [custom <len>] [pattern <u32>]\n"
			"    ifa1 [hw|sw] [marker <u64>] [hop <n>]; ifa2 [hw|sw] [gns <n>] [hop "
			"<n>]\n"
			"show probe                              probe slots and NP probe "
			"counters\n" },
	{ "algos", "Algorithms and slots",
			"show algos                              registered algorithms\n"
			"show slot <port> [<slot>]               algorithm slots of a port\n"
			"set slot <port> <slot> <algo> on|off    place an algorithm (stopped)\n"
			"load app <path.so>                      load a plug-in (stopped)\n" },
	{ "params", "Parameters",
			"show params <port> <slot>               parameters of a slot\n"
			"set param <port> <slot> <name|id> <v>   set one parameter\n" },
	{ "counters", "Counters and histograms",
			"show counters <port> <slot>             counters of a slot\n"
			"clear counters <port> <slot>            zero them\n"
			"set counters <port> <slot> on|off       enable or disable them\n"
			"show histogram <port> <id>              a histogram's bins\n"
			"histogram <port> <id> enable|disable|clear\n" },
	{ "trace", "Tracer and mailbox",
			"trace on|off|flush                      tracer recording\n"
			"set trace file <path>                   tracer output file\n"
			"mailbox send <port> <slot> <hex>        mailbox request\n" },
	{ "ppcc", "Management commands",
			"ppcc <cmd_type> <port> [<slot> [<index> [<value> [<values>...]]]]\n"
			"    cmd_type by number or name:\n"
			"    0x0 algo_info      0x1 algo_enable     0x2 counters_enable\n"
			"    0x3 algo_status    0x4 params_count    0x5 param_info\n"
			"    0x6 param_get      0x7 param_set       0xA params_get\n"
			"    0xB params_set     0xC counters_get    0xD counters_get_clear\n"
			"    0xE counters_count 0xF counter_info    0x10 algo_info_array\n"
			"    0x12 hist_ids      0x13 hist_desc      0x14 hist_config\n"
			"    0x15 hist_set      0x16 hist_bins\n" },
};

static void
help_print(const struct help_topic *t)
{
	printf("%s (help %s):\n%s\n", t->title, t->name, t->text);
}

struct cmd_help_result {
	cmdline_fixed_string_t help;
	cmdline_fixed_string_t topic;
};

static void
cmd_help_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_help_result *res = parsed;
	unsigned int i;

	(void)cl;
	if (data == NULL) {
		printf("Commands by topic; 'help <topic>' for one of: ");
		for (i = 0; i < RTE_DIM(help_topics); i++)
			printf("%s%s", help_topics[i].name,
					i + 1 < RTE_DIM(help_topics) ? " " : "\n\n");
		for (i = 0; i < RTE_DIM(help_topics); i++)
			help_print(&help_topics[i]);
		printf("help [<topic>]                          this text\n");
		return;
	}
	for (i = 0; i < RTE_DIM(help_topics); i++)
		if (strcmp(res->topic, help_topics[i].name) == 0) {
			help_print(&help_topics[i]);
			return;
		}
	con_err("Bad topic '%s': control ports flows algos params counters trace ppcc", res->topic);
}

static cmdline_parse_token_string_t cmd_help_help =
		TOKEN_STRING_INITIALIZER(struct cmd_help_result, help, "help");
static cmdline_parse_token_string_t cmd_help_topic =
		TOKEN_STRING_INITIALIZER(struct cmd_help_result, topic, NULL);

static cmdline_parse_inst_t cmd_help = {
	.f = cmd_help_parsed,
	.data = NULL,
	.help_str = "help: all commands",
	.tokens = { (void *)&cmd_help_help, NULL },
};

static cmdline_parse_inst_t cmd_help_one = {
	.f = cmd_help_parsed,
	.data = (void *)1,
	.help_str = "help <topic>: commands of a topic",
	.tokens = { (void *)&cmd_help_help, (void *)&cmd_help_topic, NULL },
};

/* ---- start / stop / quit ----------------------------------------------- */

struct cmd_word_result {
	cmdline_fixed_string_t w;
};

static void
cmd_start_parsed(void *parsed, struct cmdline *cl, void *data)
{
	int ret;

	(void)parsed;
	(void)cl;
	(void)data;
	if (app_con.running) {
		con_err("Engine already running");
		return;
	}
	ret = app_host_start();
	if (ret < 0) {
		con_err("Cannot start the engine: %s", pcc_host_last_error());
		return;
	}
	app_con.running = true;
	printf("Engine started\n");
}

static void
cmd_stop_parsed(void *parsed, struct cmdline *cl, void *data)
{
	(void)parsed;
	(void)cl;
	(void)data;
	if (!app_con.running) {
		con_err("Engine already stopped");
		return;
	}
	app_host_stop();
	app_con.running = false;
	printf("Engine stopped\n");
}

static void
cmd_quit_parsed(void *parsed, struct cmdline *cl, void *data)
{
	(void)parsed;
	(void)data;
	app_con.quit = true;
	printf("Bye\n");
	if (cl != NULL)
		cmdline_quit(cl);
}

static cmdline_parse_token_string_t cmd_start_w =
		TOKEN_STRING_INITIALIZER(struct cmd_word_result, w, "start");
static cmdline_parse_token_string_t cmd_stop_w =
		TOKEN_STRING_INITIALIZER(struct cmd_word_result, w, "stop");
static cmdline_parse_token_string_t cmd_quit_w =
		TOKEN_STRING_INITIALIZER(struct cmd_word_result, w, "quit");

static cmdline_parse_inst_t cmd_start = {
	.f = cmd_start_parsed,
	.help_str = "start: launch the engine's workers",
	.tokens = { (void *)&cmd_start_w, NULL },
};
static cmdline_parse_inst_t cmd_stop = {
	.f = cmd_stop_parsed,
	.help_str = "stop: stop the engine's workers",
	.tokens = { (void *)&cmd_stop_w, NULL },
};
static cmdline_parse_inst_t cmd_quit = {
	.f = cmd_quit_parsed,
	.help_str = "quit: stop and exit",
	.tokens = { (void *)&cmd_quit_w, NULL },
};

/* ---- show config / show state / show lcores / show probe --------------- */

struct cmd_show_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t what;
};

static const char *
roles_name(uint8_t roles)
{
	if (roles & PCC_ENGINE_ROLE_FWD)
		return "FWD";
	if ((roles & PCC_ENGINE_ROLE_RP) && (roles & PCC_ENGINE_ROLE_NP))
		return "RP+NP";
	if (roles & PCC_ENGINE_ROLE_RP)
		return "RP";
	if (roles & PCC_ENGINE_ROLE_NP)
		return "NP";
	return "-";
}

static void
show_config(void)
{
	const struct pcc_engine_conf *c = app_con.conf;
	uint16_t p;
	uint32_t i;

	printf("%-6s %-6s %-5s %-14s %-6s %s\n", "port", "roles", "slot", "algorithm", "gbit/s",
			"clock");
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct pcc_dev_algo_ops *ops = NULL;
		uint8_t dev, slot;
		char sl[8];
		int src;

		if (c->port[p].roles == 0)
			continue;
		src = pcc_engine_port_clock_src(app_con.e, p);
		if (pcc_engine_port_dev(app_con.e, p, &dev, &slot) == 0)
			ops = pcc_dev_slot_algo(dev, slot, NULL);
		else
			slot = 0xff;
		if (slot == 0xff)
			snprintf(sl, sizeof(sl), "-");
		else
			snprintf(sl, sizeof(sl), slot == PCC_DEV_INTERNAL_SLOT ? "0x%x" : "%u",
					slot);
		printf("%-6u %-6s %-5s %-14s %-6" PRIu64 " %s\n", p, roles_name(c->port[p].roles),
				sl, ops != NULL ? ops->name : "-",
				pcc_engine_port_line_rate(app_con.e, p) / 1000000000u,
				src < 0 ? "-" :
					  pcc_engine_clock_src_name(
							  (enum pcc_engine_clock_src)src));
	}
	printf("\n%-22s %s\n", "key", "value");
	printf("%-22s %u\n", "rx_queues", c->nb_rxq);
	printf("%-22s %u\n", "burst", c->burst);
	printf("%-22s %u\n", "idle_sleep_us", c->idle_sleep_us);
	printf("%-22s %u\n", "flow_capacity", c->flow.capacity);
	printf("%-22s %u\n", "flow_idle_ms", c->flow.idle_ms);
	printf("%-22s %u\n", "gen_flows_per_port", c->gen.nb_flows);
	printf("%-22s %u\n", "gen_qpn_base", c->gen.qpn_base);
	printf("%-22s %u\n", "gen_rate_mbps", c->gen.rate_mbps);
	printf("%-22s %u\n", "gen_payload", c->gen.payload_len);
	printf("%-22s %s\n", "pacer", c->rp.pacer != NULL ? c->rp.pacer : "wheel");
	printf("%-22s %u\n", "timer_us", c->rp.timer_us);
	printf("%-22s %s\n", "np_cnp", c->np.cnp ? "on" : "off");
	printf("\n%-6s %-6s %s\n", "port", "queue", "lcore");
	for (i = 0; i < c->nb_rxq_conf; i++)
		printf("%-6u %-6u %u\n", c->rxq[i].port_id, c->rxq[i].queue_id, c->rxq[i].lcore_id);
}

static void
show_state(void)
{
	double up = (double)(rte_get_tsc_cycles() - app_con.start_tsc) / (double)rte_get_tsc_hz();

	printf("%-12s %s\n", "key", "value");
	printf("%-12s %s\n", "engine", app_con.running ? "running" : "stopped");
	printf("%-12s %s\n", "process", pcc_host_process_state_name(pcc_host_process_state()));
	printf("%-12s %.1f\n", "uptime_s", up);
	printf("%-12s %u\n", "flows", pcc_engine_flow_count(app_con.e));
	printf("%-12s %u\n", "gen_flows", pcc_engine_gen_flow_count(app_con.e));
	printf("%-12s %u\n", "algorithms", pcc_dev_algo_list(NULL, 0));
}

static void
show_lcores(void)
{
	unsigned int l;

	printf("%-6s %-14s %-14s %-14s %-14s %s\n", "lcore", "polls", "busy_polls", "rx_pkts",
			"tx_pkts", "flows");
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		struct pcc_engine_lcore_stats st;

		if (pcc_engine_lcore_stats_get(app_con.e, l, &st) != 0)
			continue;
		printf("%-6u %-14" PRIu64 " %-14" PRIu64 " %-14" PRIu64 " %-14" PRIu64 " %" PRIu64
		       "\n",
				l, st.polls, st.busy_polls, st.rx_pkts, st.tx_pkts, st.flows);
	}
}

static void
probe_header(void)
{
	printf("%-5s %-7s %-6s %-10s %-8s %-9s %s\n", "slot", "format", "hw_np", "custom_len",
			"ifa2_gns", "hop_limit", "ifa1_marker");
}

static void
probe_row(uint8_t s)
{
	struct pcc_engine_probe_conf pc;
	const char *n;
	uint16_t p;

	/* the first RP port's (the console sets every RP port alike) */
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		if (pcc_engine_port_probe_get(app_con.e, p, s, &pc) == 0)
			break;
	if (p == RTE_MAX_ETHPORTS && pcc_engine_probe_get(app_con.e, s, &pc) != 0)
		return;
	n = pcc_engine_probe_fmt_name(pc.format);
	printf("%-5u %-7s %-6s %-10u %-8u %-9u 0x%016" PRIx64 "\n", s, n != NULL ? n : "?",
			pc.hw_np ? "yes" : "no", pc.custom_len, pc.ifa2_gns, pc.ifa_hop_limit,
			pc.ifa1_marker);
}

static void
show_probe(void)
{
	unsigned int s;
	uint16_t p;

	probe_header();
	for (s = 0; s < PCC_ENGINE_PROBE_SLOTS; s++)
		probe_row((uint8_t)s);
	printf("\n%-6s %-12s %-12s %-12s %-12s %-12s %-12s %-12s %s\n", "port", "probe_req",
			"probe_sw", "probe_hw", "probe_bad", "cnp_tx", "probe_ccmad", "probe_ifa1",
			"probe_ifa2");
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		struct pcc_engine_np_stats st;

		if (pcc_engine_np_stats_get(app_con.e, p, &st) != 0)
			continue;
		printf("%-6u %-12" PRIu64 " %-12" PRIu64 " %-12" PRIu64 " %-12" PRIu64
		       " %-12" PRIu64 " %-12" PRIu64 " %-12" PRIu64 " %" PRIu64 "\n",
				p, st.probe_req, st.probe_sw, st.probe_hw, st.probe_bad, st.cnp_tx,
				st.probe_ccmad, st.probe_ifa1, st.probe_ifa2);
	}
}

static void
cmd_show_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_show_result *res = parsed;

	(void)cl;
	(void)data;
	if (strcmp(res->what, "config") == 0)
		show_config();
	else if (strcmp(res->what, "state") == 0)
		show_state();
	else if (strcmp(res->what, "lcores") == 0)
		show_lcores();
	else
		show_probe();
}

static cmdline_parse_token_string_t cmd_show_show =
		TOKEN_STRING_INITIALIZER(struct cmd_show_result, show, "show");
static cmdline_parse_token_string_t cmd_show_what =
		TOKEN_STRING_INITIALIZER(struct cmd_show_result, what, "config#state#lcores#probe");

static cmdline_parse_inst_t cmd_show = {
	.f = cmd_show_parsed,
	.help_str = "show config|state|lcores|probe",
	.tokens = { (void *)&cmd_show_show, (void *)&cmd_show_what, NULL },
};

/* ---- port statistics ----------------------------------------------------- */

/* 'clear port stats' keeps a baseline (engine counters are not reset). */
static struct pcc_engine_port_stats port_base[RTE_MAX_ETHPORTS];

struct cmd_pstats_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t port;
	cmdline_fixed_string_t stats;
	cmdline_fixed_string_t which;
};

static void
pstats_row(uint16_t p)
{
	struct pcc_engine_port_stats st;
	const struct pcc_engine_port_stats *b = &port_base[p];

	if (pcc_engine_port_stats_get(app_con.e, p, &st) != 0) {
		printf("%-5u %-6s (no role)\n", p, "-");
		return;
	}
	printf("%-5u %-6s %-12" PRIu64 " %-14" PRIu64 " %-12" PRIu64 " %-14" PRIu64 " %-10" PRIu64
	       " %-12" PRIu64 " %-10" PRIu64 " %-10" PRIu64 " %" PRIu64 "\n",
			p, roles_name(pcc_engine_port_roles(app_con.e, p)), st.rx_pkts - b->rx_pkts,
			st.rx_bytes - b->rx_bytes, st.tx_pkts - b->tx_pkts,
			st.tx_bytes - b->tx_bytes, st.tx_drop - b->tx_drop,
			st.gen_pkts - b->gen_pkts,
			st.ev[PCC_DEV_EVENT_CNP] - b->ev[PCC_DEV_EVENT_CNP], st.cnp_tx - b->cnp_tx,
			st.rate_updates - b->rate_updates);
}

static void
cmd_pstats_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_pstats_result *res = parsed;
	uint16_t p, one = 0;

	(void)cl;
	(void)data;
	if (strcmp(res->which, "all") != 0 && con_port(res->which, &one) < 0)
		return;
	printf("%-5s %-6s %-12s %-14s %-12s %-14s %-10s %-12s %-10s %-10s %s\n", "port", "roles",
			"rx_pkts", "rx_bytes", "tx_pkts", "tx_bytes", "tx_drop", "gen_pkts",
			"cnp_rx", "cnp_tx", "rate_upd");
	if (strcmp(res->which, "all") != 0) {
		pstats_row(one);
		return;
	}
	RTE_ETH_FOREACH_DEV(p)
	pstats_row(p);
}

static void
cmd_pclear_parsed(void *parsed, struct cmdline *cl, void *data)
{
	uint16_t p;

	(void)parsed;
	(void)cl;
	(void)data;
	RTE_ETH_FOREACH_DEV(p)
	{
		if (pcc_engine_port_stats_get(app_con.e, p, &port_base[p]) != 0)
			memset(&port_base[p], 0, sizeof(port_base[p]));
		rte_eth_stats_reset(p);
	}
	printf("Port statistics cleared\n");
}

static cmdline_parse_token_string_t cmd_pstats_show =
		TOKEN_STRING_INITIALIZER(struct cmd_pstats_result, show, "show");
static cmdline_parse_token_string_t cmd_pstats_clear =
		TOKEN_STRING_INITIALIZER(struct cmd_pstats_result, show, "clear");
static cmdline_parse_token_string_t cmd_pstats_port =
		TOKEN_STRING_INITIALIZER(struct cmd_pstats_result, port, "port");
static cmdline_parse_token_string_t cmd_pstats_stats =
		TOKEN_STRING_INITIALIZER(struct cmd_pstats_result, stats, "stats");
static cmdline_parse_token_string_t cmd_pstats_which =
		TOKEN_STRING_INITIALIZER(struct cmd_pstats_result, which, NULL);

static cmdline_parse_inst_t cmd_pstats = {
	.f = cmd_pstats_parsed,
	.help_str = "show port stats all|<port>",
	.tokens = { (void *)&cmd_pstats_show, (void *)&cmd_pstats_port, (void *)&cmd_pstats_stats,
			(void *)&cmd_pstats_which, NULL },
};
static cmdline_parse_inst_t cmd_pclear = {
	.f = cmd_pclear_parsed,
	.help_str = "clear port stats",
	.tokens = { (void *)&cmd_pstats_clear, (void *)&cmd_pstats_port, (void *)&cmd_pstats_stats,
			NULL },
};

/* ---- flows --------------------------------------------------------------- */

#define FLOWS_DEFAULT 32
#define FLOWS_MAX 4096

struct cmd_flows_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t flows;
	cmdline_fixed_string_t top;
	cmdline_fixed_string_t n;
};

static void
flow_row(const struct pcc_engine_flow_info *f)
{
	printf("%-9u %-5u %-6u %-5u %-12.1f %-10u %-12" PRIu64 " %-14" PRIu64 " %-10" PRIu64
	       " %-8.1f %s\n",
			f->key.qpn, f->key.port_id, f->lcore_id, f->slot, (double)f->rate_bps / 1e6,
			f->window, f->tx_pkts, f->tx_bytes, f->cnp_rx, (double)f->rtt_ns / 1e3,
			f->pinned ? "yes" : "no");
}

static void
flow_header(void)
{
	printf("%-9s %-5s %-6s %-5s %-12s %-10s %-12s %-14s %-10s %-8s %s\n", "qpn", "port",
			"lcore", "slot", "rate_mbps", "window", "tx_pkts", "tx_bytes", "cnp_rx",
			"rtt_us", "pinned");
}

static void
cmd_flows_parsed(void *parsed, struct cmdline *cl, void *data)
{
	static struct pcc_engine_flow_info out[FLOWS_MAX];
	struct cmd_flows_result *res = parsed;
	uint32_t n = FLOWS_DEFAULT, got, i;

	(void)cl;
	if (data != NULL && con_u32(res->n, "count", 1, FLOWS_MAX, &n) < 0)
		return;
	got = pcc_engine_flows_top(app_con.e, out, n);
	printf("Flows: %u of %u, by rate\n", got, pcc_engine_flow_count(app_con.e));
	flow_header();
	for (i = 0; i < got; i++)
		flow_row(&out[i]);
}

/* The QP flow qpn, looked up on every port; 0, or -1 after an error. */
static int
flow_find(const char *tok, struct pcc_engine_flow_key *k, struct pcc_engine_flow_info *f)
{
	uint32_t qpn;
	uint16_t p;

	if (con_u32(tok, "qpn", 0, 0xffffff, &qpn) < 0)
		return -1;
	RTE_ETH_FOREACH_DEV(p)
	{
		pcc_engine_flow_key_qp(k, p, qpn);
		if (pcc_engine_flow_get(app_con.e, k, f) == 0)
			return 0;
	}
	con_err("Bad qpn '%s': no such flow", tok);
	return -1;
}

static void
cmd_flow_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_flows_result *res = parsed;
	struct pcc_engine_flow_info f;
	struct pcc_engine_flow_key k;

	(void)cl;
	(void)data;
	if (flow_find(res->top, &k, &f) < 0)
		return;
	flow_header();
	flow_row(&f);
}

static cmdline_parse_token_string_t cmd_flows_show =
		TOKEN_STRING_INITIALIZER(struct cmd_flows_result, show, "show");
static cmdline_parse_token_string_t cmd_flows_flows =
		TOKEN_STRING_INITIALIZER(struct cmd_flows_result, flows, "flows");
static cmdline_parse_token_string_t cmd_flows_flow =
		TOKEN_STRING_INITIALIZER(struct cmd_flows_result, flows, "flow");
static cmdline_parse_token_string_t cmd_flows_top =
		TOKEN_STRING_INITIALIZER(struct cmd_flows_result, top, "top");
static cmdline_parse_token_string_t cmd_flows_any =
		TOKEN_STRING_INITIALIZER(struct cmd_flows_result, top, NULL);
static cmdline_parse_token_string_t cmd_flows_n =
		TOKEN_STRING_INITIALIZER(struct cmd_flows_result, n, NULL);

static cmdline_parse_inst_t cmd_flows = {
	.f = cmd_flows_parsed,
	.help_str = "show flows: flows by rate",
	.tokens = { (void *)&cmd_flows_show, (void *)&cmd_flows_flows, NULL },
};
static cmdline_parse_inst_t cmd_flows_topn = {
	.f = cmd_flows_parsed,
	.data = (void *)1,
	.help_str = "show flows top <n>",
	.tokens = { (void *)&cmd_flows_show, (void *)&cmd_flows_flows, (void *)&cmd_flows_top,
			(void *)&cmd_flows_n, NULL },
};
static cmdline_parse_inst_t cmd_flow = {
	.f = cmd_flow_parsed,
	.help_str = "show flow <qpn>",
	.tokens = { (void *)&cmd_flows_show, (void *)&cmd_flows_flow, (void *)&cmd_flows_any,
			NULL },
};

/* ---- set flow <qpn> rate, set probe ---------------------------------------------- */

struct cmd_setflow_result {
	cmdline_fixed_string_t set;
	cmdline_fixed_string_t flow;
	cmdline_fixed_string_t qpn;
	cmdline_fixed_string_t rate;
	cmdline_fixed_string_t v;
};

static void
cmd_setflow_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_setflow_result *res = parsed;
	struct pcc_engine_flow_info f;
	struct pcc_engine_flow_key k;
	uint32_t mbps = 0;
	int ret;

	(void)cl;
	(void)data;
	if (flow_find(res->qpn, &k, &f) < 0)
		return;
	if (strcmp(res->v, "auto") != 0 && con_u32(res->v, "rate", 1, UINT32_MAX, &mbps) < 0)
		return;
	ret = pcc_engine_flow_rate_set(app_con.e, &k, (uint64_t)mbps * 1000000u);
	if (ret < 0) {
		con_err("Cannot set the rate of flow %s: %s", res->qpn, strerror(-ret));
		return;
	}
	if (pcc_engine_flow_get(app_con.e, &k, &f) != 0) {
		con_err("Bad qpn '%s': the flow went away", res->qpn);
		return;
	}
	if (mbps == 0)
		printf("Flow %u on port %u: rate back to the algorithm (%.1f Mb/s now)\n", k.qpn,
				k.port_id, (double)f.rate_bps / 1e6);
	else
		printf("Flow %u on port %u: rate pinned at %.1f Mb/s\n", k.qpn, k.port_id,
				(double)f.rate_bps / 1e6);
}

static cmdline_parse_token_string_t cmd_setflow_set =
		TOKEN_STRING_INITIALIZER(struct cmd_setflow_result, set, "set");
static cmdline_parse_token_string_t cmd_setflow_flow =
		TOKEN_STRING_INITIALIZER(struct cmd_setflow_result, flow, "flow");
static cmdline_parse_token_string_t cmd_setflow_qpn =
		TOKEN_STRING_INITIALIZER(struct cmd_setflow_result, qpn, NULL);
static cmdline_parse_token_string_t cmd_setflow_rate =
		TOKEN_STRING_INITIALIZER(struct cmd_setflow_result, rate, "rate");
static cmdline_parse_token_string_t cmd_setflow_v =
		TOKEN_STRING_INITIALIZER(struct cmd_setflow_result, v, NULL);
static cmdline_parse_inst_t cmd_setflow = {
	.f = cmd_setflow_parsed,
	.help_str = "set flow <qpn> rate <mbps>|auto: pin a flow's rate, or release it",
	.tokens = { (void *)&cmd_setflow_set, (void *)&cmd_setflow_flow, (void *)&cmd_setflow_qpn,
			(void *)&cmd_setflow_rate, (void *)&cmd_setflow_v, NULL },
};

struct cmd_setprobe_result {
	cmdline_fixed_string_t set;
	cmdline_fixed_string_t probe;
	cmdline_fixed_string_t slot;
	cmdline_fixed_string_t fmt;
	cmdline_multi_string_t opts;
};

/* "key value" options of set probe into pc; 0 or -1 after an error. */
static int
probe_opts(char *opts, struct pcc_engine_probe_conf *pc)
{
	char *save = NULL, *key, *val, *end;
	uint32_t v;

	for (key = strtok_r(opts, " \t", &save); key != NULL; key = strtok_r(NULL, " \t", &save)) {
		if (strcmp(key, "hw") == 0 || strcmp(key, "sw") == 0) {
			pc->hw_np = key[0] == 'h';
			continue;
		}
		val = strtok_r(NULL, " \t", &save);
		if (val == NULL) {
			con_err("Missing value after '%s'", key);
			return -1;
		}
		if (strcmp(key, "custom") == 0 && pc->format == PCC_ENGINE_PROBE_CCMAD) {
			if (con_u32(val, "custom", 0, PCC_PROBE_CUSTOM_MAX, &v) < 0)
				return -1;
			pc->custom_len = (uint8_t)v;
		} else if (strcmp(key, "pattern") == 0 && pc->format == PCC_ENGINE_PROBE_CCMAD) {
			if (con_u32(val, "pattern", 0, UINT32_MAX, &pc->custom_pattern) < 0)
				return -1;
		} else if (strcmp(key, "gns") == 0 && pc->format == PCC_ENGINE_PROBE_IFA2) {
			if (con_u32(val, "gns", 0, 15, &v) < 0)
				return -1;
			pc->ifa2_gns = (uint8_t)v;
		} else if (strcmp(key, "hop") == 0 && pc->format != PCC_ENGINE_PROBE_CCMAD) {
			if (con_u32(val, "hop", 1, 255, &v) < 0)
				return -1;
			pc->ifa_hop_limit = (uint8_t)v;
		} else if (strcmp(key, "marker") == 0 && pc->format == PCC_ENGINE_PROBE_IFA1) {
			errno = 0;
			pc->ifa1_marker = strtoull(val, &end, 0);
			if (errno != 0 || *end != '\0' || end == val || !(pc->ifa1_marker >> 63)) {
				con_err("Bad marker '%s': 64 bits with the top bit set", val);
				return -1;
			}
		} else {
			con_err("Bad option '%s' for %s probes: ccmad [hw|sw] [custom <len>] "
				"[pattern <u32>]; ifa1 [hw|sw] [marker <u64>] [hop <n>]; "
				"ifa2 [hw|sw] [gns <n>] [hop <n>]",
					key, pcc_engine_probe_fmt_name(pc->format));
			return -1;
		}
	}
	return 0;
}

/* The format of probe slot on every RP context (lib/host). */
static int
probe_set_all(uint8_t slot, const struct pcc_engine_probe_conf *pc)
{
	struct pcc_host_ctx *ctx[PCC_HOST_MAX_CTX];
	struct pcc_host_probe_conf hp;
	uint32_t i, n;
	int ret;

	memset(&hp, 0, sizeof(hp));
	hp.format = pc->format;
	hp.hw_np = pc->hw_np;
	hp.custom_len = pc->custom_len;
	hp.custom_offset = pc->custom_offset;
	hp.custom_pattern = pc->custom_pattern;
	hp.ifa1_marker = pc->ifa1_marker;
	hp.ifa_hop_limit = pc->ifa_hop_limit;
	hp.ifa2_gns = pc->ifa2_gns;
	hp.ifa2_proto = pc->ifa2_proto;
	n = RTE_MIN(app_host_ctxs(ctx, RTE_DIM(ctx)), (uint32_t)RTE_DIM(ctx));
	for (i = 0; i < n; i++) {
		if (pcc_host_ctx_role(ctx[i]) != PCC_HOST_ROLE_RP)
			continue;
		ret = pcc_host_set_probe(ctx[i], slot, &hp);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void
cmd_setprobe_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_setprobe_result *res = parsed;
	struct pcc_engine_probe_conf pc;
	unsigned int f;
	uint32_t slot;
	int ret;

	(void)cl;
	if (con_u32(res->slot, "probe slot", 0, PCC_ENGINE_PROBE_SLOTS - 1, &slot) < 0)
		return;
	for (f = 0; f < PCC_ENGINE_PROBE_FMT_MAX; f++)
		if (strcmp(res->fmt, pcc_engine_probe_fmt_name(f)) == 0)
			break;
	pcc_engine_probe_conf_default(&pc, (enum pcc_engine_probe_fmt)f);
	if (data != NULL && probe_opts(res->opts, &pc) < 0)
		return;
	ret = probe_set_all((uint8_t)slot, &pc);
	if (ret == -EPROTO) {
		con_err("Bad probe: %s %s is not what this engine recognises (fixed at start, "
			"see 'show probe')",
				res->fmt,
				pc.format == PCC_ENGINE_PROBE_IFA1 ? "marker" : "IP protocol");
		return;
	}
	if (ret < 0) {
		con_err("Cannot set probe slot %u: %s", slot, pcc_host_last_error());
		return;
	}
	probe_header();
	probe_row((uint8_t)slot);
}

static cmdline_parse_token_string_t cmd_setprobe_set =
		TOKEN_STRING_INITIALIZER(struct cmd_setprobe_result, set, "set");
static cmdline_parse_token_string_t cmd_setprobe_probe =
		TOKEN_STRING_INITIALIZER(struct cmd_setprobe_result, probe, "probe");
static cmdline_parse_token_string_t cmd_setprobe_slot =
		TOKEN_STRING_INITIALIZER(struct cmd_setprobe_result, slot, NULL);
static cmdline_parse_token_string_t cmd_setprobe_fmt =
		TOKEN_STRING_INITIALIZER(struct cmd_setprobe_result, fmt, "ccmad#ifa1#ifa2");
static cmdline_parse_token_string_t cmd_setprobe_opts =
		TOKEN_STRING_INITIALIZER(struct cmd_setprobe_result, opts, TOKEN_STRING_MULTI);
static cmdline_parse_inst_t cmd_setprobe = {
	.f = cmd_setprobe_parsed,
	.help_str = "set probe <slot> ccmad|ifa1|ifa2: probe format of a slot, defaults",
	.tokens = { (void *)&cmd_setprobe_set, (void *)&cmd_setprobe_probe,
			(void *)&cmd_setprobe_slot, (void *)&cmd_setprobe_fmt, NULL },
};
static cmdline_parse_inst_t cmd_setprobe_o = {
	.f = cmd_setprobe_parsed,
	.data = (void *)1,
	.help_str = "set probe <slot> ccmad|ifa1|ifa2 <options>: probe format of a slot",
	.tokens = { (void *)&cmd_setprobe_set, (void *)&cmd_setprobe_probe,
			(void *)&cmd_setprobe_slot, (void *)&cmd_setprobe_fmt,
			(void *)&cmd_setprobe_opts, NULL },
};

cmdline_parse_inst_t *cmds_main_list[] = {
	&cmd_setflow,
	&cmd_setprobe,
	&cmd_setprobe_o,
	&cmd_help,
	&cmd_help_one,
	&cmd_start,
	&cmd_stop,
	&cmd_quit,
	&cmd_show,
	&cmd_pstats,
	&cmd_pclear,
	&cmd_flows,
	&cmd_flows_topn,
	&cmd_flow,
	NULL,
};
