/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Console commands: help, engine control, configuration and state, port
 * and lcore statistics (flows and probes: cmds_flow.c).  doc/console.md.
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
#include "stats.h"
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
		printf("%-6u %-6s %-5s %-14s %-6" PRIu64 " %s\n", p,
				app_roles_name(c->port[p].roles, false), sl,
				ops != NULL ? ops->name : "-",
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

void
con_probe_header(void)
{
	printf("%-5s %-7s %-6s %-10s %-8s %-9s %s\n", "slot", "format", "hw_np", "custom_len",
			"ifa2_gns", "hop_limit", "ifa1_marker");
}

void
con_probe_row(uint8_t s)
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

	con_probe_header();
	for (s = 0; s < PCC_ENGINE_PROBE_SLOTS; s++)
		con_probe_row((uint8_t)s);
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
			p, app_roles_name(pcc_engine_port_roles(app_con.e, p), false),
			st.rx_pkts - b->rx_pkts, st.rx_bytes - b->rx_bytes, st.tx_pkts - b->tx_pkts,
			st.tx_bytes - b->tx_bytes, st.tx_drop - b->tx_drop,
			st.gen_pkts - b->gen_pkts,
			st.ev[PCC_DEV_EVENT_CNP] - b->ev[PCC_DEV_EVENT_CNP], st.cnp_tx - b->cnp_tx,
			st.rate_updates - b->rate_updates);
}

/*
 * Throughput since the previous 'show port stats' of the port (testpmd's
 * "Throughput (since last show)"), from the engine's counters: frames and
 * bits per second, frames without FCS.
 */
static void
pstats_rate(uint16_t p)
{
	static struct {
		uint64_t tsc, rx_pkts, rx_bytes, tx_pkts, tx_bytes;
	} last[RTE_MAX_ETHPORTS];
	struct pcc_engine_port_stats st;
	uint64_t now = rte_get_tsc_cycles();
	double secs;

	if (pcc_engine_port_stats_get(app_con.e, p, &st) != 0)
		return;
	secs = last[p].tsc != 0 ? (double)(now - last[p].tsc) / (double)rte_get_tsc_hz() : 0;
	if (secs > 0)
		printf("port %u: Rx-pps %12.0f  Rx-bps %15.0f  Tx-pps %12.0f  Tx-bps %15.0f  (last "
		       "%.2f s)\n",
				p, (double)(st.rx_pkts - last[p].rx_pkts) / secs,
				8.0 * (double)(st.rx_bytes - last[p].rx_bytes) / secs,
				(double)(st.tx_pkts - last[p].tx_pkts) / secs,
				8.0 * (double)(st.tx_bytes - last[p].tx_bytes) / secs, secs);
	else
		printf("port %u: Rx-pps, Tx-pps: from the next show on\n", p);
	last[p].tsc = now;
	last[p].rx_pkts = st.rx_pkts;
	last[p].rx_bytes = st.rx_bytes;
	last[p].tx_pkts = st.tx_pkts;
	last[p].tx_bytes = st.tx_bytes;
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
		pstats_rate(one);
		return;
	}
	RTE_ETH_FOREACH_DEV(p)
	pstats_row(p);
	RTE_ETH_FOREACH_DEV(p)
	pstats_rate(p);
}

/* Every received frame once: malformed by reason, the rest by fate. */
static void
pfates_port(uint16_t p)
{
	const struct pcc_engine_port_stats *b = &port_base[p];
	struct pcc_engine_port_stats st;
	uint64_t bad = 0, v;
	unsigned int i;

	if (pcc_engine_port_stats_get(app_con.e, p, &st) != 0) {
		printf("port %u: no role\n", p);
		return;
	}
	for (i = 0; i < PCC_ENGINE_NB_PARSE_ERR; i++) {
		st.parse_err[i] -= b->parse_err[i];
		bad += st.parse_err[i];
	}
	for (i = 0; i < PCC_ENGINE_FATE_MAX; i++)
		st.rx_fate[i] -= b->rx_fate[i];
	st.rx_pkts -= b->rx_pkts;
	printf("port %u (%s): %" PRIu64 " received, %" PRIu64 " malformed, %" PRId64
	       " unaccounted\n",
			p, app_roles_name(pcc_engine_port_roles(app_con.e, p), false), st.rx_pkts,
			bad, pcc_engine_rx_unaccounted(&st));
	for (i = 0; i < PCC_ENGINE_NB_PARSE_ERR; i++)
		if (st.parse_err[i] != 0)
			printf("  %-10s %-22s %" PRIu64 "\n", "malformed",
					pcc_proto_err_name(i == 0 ? -999 : -(int)i),
					st.parse_err[i]);
	for (i = 0; i < PCC_ENGINE_FATE_MAX; i++) {
		v = st.rx_fate[i];
		if (v != 0)
			printf("  %-10s %-22s %" PRIu64 "\n", "fate", pcc_engine_rx_fate_name(i),
					v);
	}
}

static void
cmd_pfates_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_pstats_result *res = parsed;
	uint16_t p, one = 0;

	(void)cl;
	(void)data;
	if (strcmp(res->which, "all") != 0) {
		if (con_port(res->which, &one) == 0)
			pfates_port(one);
		return;
	}
	RTE_ETH_FOREACH_DEV(p)
	pfates_port(p);
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
static cmdline_parse_token_string_t cmd_pfates_fates =
		TOKEN_STRING_INITIALIZER(struct cmd_pstats_result, stats, "fates");

static cmdline_parse_inst_t cmd_pstats = {
	.f = cmd_pstats_parsed,
	.help_str = "show port stats all|<port>",
	.tokens = { (void *)&cmd_pstats_show, (void *)&cmd_pstats_port, (void *)&cmd_pstats_stats,
			(void *)&cmd_pstats_which, NULL },
};
static cmdline_parse_inst_t cmd_pfates = {
	.f = cmd_pfates_parsed,
	.help_str = "show port fates all|<port>",
	.tokens = { (void *)&cmd_pstats_show, (void *)&cmd_pstats_port, (void *)&cmd_pfates_fates,
			(void *)&cmd_pstats_which, NULL },
};
static cmdline_parse_inst_t cmd_pclear = {
	.f = cmd_pclear_parsed,
	.help_str = "clear port stats",
	.tokens = { (void *)&cmd_pstats_clear, (void *)&cmd_pstats_port, (void *)&cmd_pstats_stats,
			NULL },
};

cmdline_parse_inst_t *cmds_main_list[] = {
	&cmd_help,
	&cmd_help_one,
	&cmd_start,
	&cmd_stop,
	&cmd_quit,
	&cmd_show,
	&cmd_pstats,
	&cmd_pfates,
	&cmd_pclear,
	NULL,
};
