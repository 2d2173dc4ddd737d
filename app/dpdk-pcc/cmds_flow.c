/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Console commands: flows (show, set rate) and probe formats.
 * doc/console.md.
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

/* ---- flows --------------------------------------------------------------- */

#define FLOWS_DEFAULT 32
#define FLOWS_TOP_DEFAULT 10
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
	if (data == (void *)2)
		n = FLOWS_TOP_DEFAULT;
	else if (data != NULL && con_u32(res->n, "count", 1, FLOWS_MAX, &n) < 0)
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
static cmdline_parse_inst_t cmd_flows_top10 = {
	.f = cmd_flows_parsed,
	.data = (void *)2,
	.help_str = "show flows top: the 10 fastest flows",
	.tokens = { (void *)&cmd_flows_show, (void *)&cmd_flows_flows, (void *)&cmd_flows_top,
			NULL },
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
	con_probe_header();
	con_probe_row((uint8_t)slot);
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

cmdline_parse_inst_t *cmds_flow_list[] = {
	&cmd_setflow,
	&cmd_setprobe,
	&cmd_setprobe_o,
	&cmd_flows,
	&cmd_flows_topn,
	&cmd_flows_top10,
	&cmd_flow,
	NULL,
};
