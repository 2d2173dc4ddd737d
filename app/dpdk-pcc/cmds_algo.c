/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Console commands over lib/dev: algorithms, slots, plug-ins, parameters,
 * counters, histograms and raw management access (ppcc).  Ports in
 * commands are ethdev ports with the RP role, mapped to their lib/dev
 * logical port.  doc/console.md.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <rte_common.h>

#include "console.h"
#include "pcc_dev.h"
#include "pcc_dev_hist.h"
#include "pcc_dev_plugin.h"
#include "pcc_dev_simple.h"
#include "pcc_dev_svc.h"
#include "pcc_host.h"

/* Generic result: up to six words after the command words. */
struct cmd_args_result {
	cmdline_fixed_string_t w0;
	cmdline_fixed_string_t w1;
	cmdline_fixed_string_t a[6];
};

#define W0(word) TOKEN_STRING_INITIALIZER(struct cmd_args_result, w0, word)
#define W1(word) TOKEN_STRING_INITIALIZER(struct cmd_args_result, w1, word)
#define ARG(i, word) TOKEN_STRING_INITIALIZER(struct cmd_args_result, a[i], word)

/* (port, slot) with a bound algorithm; ops returned.  0 or -1. */
static int
bound_slot(const char *ptok, const char *stok, uint8_t *dev, uint8_t *slot,
		const struct pcc_dev_algo_ops **ops)
{
	uint16_t port;

	if (con_rp_port(ptok, &port, dev) < 0 || con_slot(stok, slot) < 0)
		return -1;
	*ops = pcc_dev_slot_algo(*dev, *slot, NULL);
	if (*ops == NULL) {
		con_err("Bad slot '%s': no algorithm bound on port %u (see 'show slot %u')", stok,
				port, port);
		return -1;
	}
	return 0;
}

/* ---- show algos ---------------------------------------------------------- */

static const char *
algo_source(const char *name)
{
	static struct pcc_dev_plugin_info info[PCC_DEV_PLUGIN_MAX];
	unsigned int n, i, j;

	n = pcc_dev_plugin_list(info, RTE_DIM(info));
	for (i = 0; i < n && i < RTE_DIM(info); i++)
		for (j = 0; j < info[i].n_algos; j++)
			if (strcmp(info[i].algos[j], name) == 0)
				return info[i].name;
	return "built-in";
}

static void
cmd_algos_parsed(void *parsed, struct cmdline *cl, void *data)
{
	const struct pcc_dev_algo_ops *ops[PCC_DEV_MAX_REGISTERED];
	unsigned int n, i;

	(void)parsed;
	(void)cl;
	(void)data;
	n = pcc_dev_algo_list(ops, RTE_DIM(ops));
	printf("%-16s %-10s %-8s %-7s %-9s %-5s %s\n", "name", "id", "version", "params",
			"counters", "ctx", "source");
	for (i = 0; i < n && i < RTE_DIM(ops); i++)
		printf("%-16s 0x%08x %3u.%-4u %-7u %-9u %-5u %s\n", ops[i]->name, ops[i]->id,
				ops[i]->major, ops[i]->minor, ops[i]->n_params, ops[i]->n_counters,
				ops[i]->ctx_size != 0 ? ops[i]->ctx_size : PCC_DEV_CTX_SIZE,
				algo_source(ops[i]->name));
}

static cmdline_parse_token_string_t t_show = W0("show");
static cmdline_parse_token_string_t t_algos = W1("algos");
static cmdline_parse_inst_t cmd_algos = {
	.f = cmd_algos_parsed,
	.help_str = "show algos: registered algorithms",
	.tokens = { (void *)&t_show, (void *)&t_algos, NULL },
};

/* ---- show slot / set slot --------------------------------------------- */

static void
slot_row(uint8_t dev, uint8_t slot)
{
	const struct pcc_dev_algo_ops *ops;
	bool en = false;

	ops = pcc_dev_slot_algo(dev, slot, &en);
	if (slot == PCC_DEV_INTERNAL_SLOT)
		printf("%-5s", "0xf");
	else
		printf("%-5u", slot);
	printf(" %-16s %-8s %-9s 0x%08x\n", ops != NULL ? ops->name : "-",
			ops == NULL        ? "-" :
					en ? "on" :
					     "off",
			ops == NULL                                         ? "-" :
					pcc_dev_counters_enabled(dev, slot) ? "on" :
									      "off",
			ops != NULL ? pcc_dev_slot_event_mask(dev, slot) : 0);
}

static void
cmd_show_slot_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_args_result *res = parsed;
	uint8_t dev, slot = 0;
	uint16_t port;

	(void)cl;
	if (con_rp_port(res->a[0], &port, &dev) < 0)
		return;
	if (data != NULL && con_slot(res->a[1], &slot) < 0)
		return;
	printf("%-5s %-16s %-8s %-9s %s\n", "slot", "algorithm", "enabled", "counters",
			"event_mask");
	if (data != NULL) {
		slot_row(dev, slot);
		return;
	}
	for (slot = 0; slot < PCC_ENGINE_SLOTS; slot++)
		slot_row(dev, slot);
	slot_row(dev, PCC_DEV_INTERNAL_SLOT);
	printf("New flows on port %u get slot %u\n", port, pcc_dev_slot_active(dev));
}

static void
cmd_set_slot_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_args_result *res = parsed;
	const struct pcc_dev_algo_ops *ops, *cur;
	bool on = strcmp(res->a[3], "on") == 0;
	uint8_t dev, slot;
	uint16_t port;
	bool en;
	int ret;

	(void)cl;
	(void)data;
	if (con_rp_port(res->a[0], &port, &dev) < 0 || con_slot(res->a[1], &slot) < 0)
		return;
	ops = pcc_dev_algo_find(res->a[2]);
	if (ops == NULL) {
		con_err("Bad algorithm '%s': not registered (see 'show algos')", res->a[2]);
		return;
	}
	if (con_need_stopped("set slot") < 0)
		return;
	if ((ops->ctx_size != 0 ? ops->ctx_size : PCC_DEV_CTX_SIZE) >
			pcc_engine_flow_ctx_size(app_con.e)) {
		con_err("Bad algorithm '%s': needs %u context bytes per flow, the engine has %u",
				res->a[2], ops->ctx_size, pcc_engine_flow_ctx_size(app_con.e));
		return;
	}
	cur = pcc_dev_slot_algo(dev, slot, &en);
	if (cur != ops) {
		if (cur != NULL) {
			if (en)
				pcc_dev_slot_enable(dev, slot, false);
			ret = pcc_dev_slot_unbind(dev, slot);
			if (ret == 0)
				ret = pcc_dev_algo_unload(dev, slot);
			if (ret != 0) {
				con_err("Cannot free slot %u: %s", slot, strerror(-ret));
				return;
			}
		} else {
			pcc_dev_algo_unload(dev, slot);
		}
		ret = pcc_dev_algo_load(dev, slot, ops->name);
		if (ret == 0)
			ret = pcc_dev_slot_bind(dev, slot, slot);
		if (ret != 0) {
			con_err("Cannot place '%s' in slot %u: %s", ops->name, slot,
					strerror(-ret));
			return;
		}
	}
	ret = pcc_dev_slot_enable(dev, slot, on);
	if (ret != 0) {
		con_err("Cannot %s slot %u: %s", on ? "enable" : "disable", slot, strerror(-ret));
		return;
	}
	printf("Port %u slot %u: %s %s\n", port, slot, ops->name, on ? "on" : "off");
}

static cmdline_parse_token_string_t t_set = W0("set");
static cmdline_parse_token_string_t t_slot = W1("slot");
static cmdline_parse_token_string_t t_a0 = ARG(0, NULL);
static cmdline_parse_token_string_t t_a1 = ARG(1, NULL);
static cmdline_parse_token_string_t t_a2 = ARG(2, NULL);
static cmdline_parse_token_string_t t_a3 = ARG(3, NULL);
static cmdline_parse_token_string_t t_a4 = ARG(4, NULL);
static cmdline_parse_token_string_t t_a3_onoff = ARG(3, "on#off");
static struct con_token_algo t_a2_algo = CON_TOKEN_ALGO_INITIALIZER(struct cmd_args_result, a[2]);

static cmdline_parse_inst_t cmd_show_slots = {
	.f = cmd_show_slot_parsed,
	.help_str = "show slot <port>: algorithm slots",
	.tokens = { (void *)&t_show, (void *)&t_slot, (void *)&t_a0, NULL },
};
static cmdline_parse_inst_t cmd_show_slot = {
	.f = cmd_show_slot_parsed,
	.data = (void *)1,
	.help_str = "show slot <port> <slot>",
	.tokens = { (void *)&t_show, (void *)&t_slot, (void *)&t_a0, (void *)&t_a1, NULL },
};
static cmdline_parse_inst_t cmd_set_slot = {
	.f = cmd_set_slot_parsed,
	.help_str = "set slot <port> <slot> <algo> on|off",
	.tokens = { (void *)&t_set, (void *)&t_slot, (void *)&t_a0, (void *)&t_a1,
			(void *)&t_a2_algo, (void *)&t_a3_onoff, NULL },
};

/* ---- set new-flow-slot ------------------------------------------------------ */

/*
 * New flows get the lowest enabled slot (DOCA's rule): to give them slot
 * s, enable s and disable the enabled slots below it.  Flows that exist
 * keep theirs.  Works while the engine runs.
 */
static void
cmd_new_flow_slot_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_args_result *res = parsed;
	const struct pcc_dev_algo_ops *ops;
	char off[64] = "";
	size_t o = 0;
	uint8_t dev, slot, s;
	uint16_t port;
	bool en;
	int ret;

	(void)cl;
	(void)data;
	if (con_rp_port(res->a[0], &port, &dev) < 0 || con_slot(res->a[1], &slot) < 0)
		return;
	ops = pcc_dev_slot_algo(dev, slot, NULL);
	if (ops == NULL) {
		con_err("Bad slot '%s': no algorithm bound on port %u (see 'show slot %u'; 'set "
			"slot' places one)",
				res->a[1], port, port);
		return;
	}
	if (slot != PCC_DEV_INTERNAL_SLOT) {
		ret = pcc_dev_slot_enable(dev, slot, true);
		if (ret != 0) {
			con_err("Cannot enable slot %u: %s", slot, strerror(-ret));
			return;
		}
	}
	for (s = 0; s < PCC_ENGINE_SLOTS && s < slot; s++) {
		if (pcc_dev_slot_algo(dev, s, &en) == NULL || !en)
			continue;
		ret = pcc_dev_slot_enable(dev, s, false);
		if (ret != 0) {
			con_err("Cannot disable slot %u: %s", s, strerror(-ret));
			return;
		}
		o += (size_t)snprintf(off + o, sizeof(off) - RTE_MIN(o, sizeof(off)), "%s%u",
				o > 0 ? ", " : "", s);
	}
	printf("New flows on port %u get slot %u (%s)%s%s\n", port, pcc_dev_slot_active(dev),
			ops->name, o > 0 ? "; disabled slot " : "", off);
}

static cmdline_parse_token_string_t t_new_flow_slot = W1("new-flow-slot");
static cmdline_parse_inst_t cmd_new_flow_slot = {
	.f = cmd_new_flow_slot_parsed,
	.help_str = "set new-flow-slot <port> <slot>: the slot new flows get",
	.tokens = { (void *)&t_set, (void *)&t_new_flow_slot, (void *)&t_a0, (void *)&t_a1, NULL },
};

/* ---- load app ------------------------------------------------------------- */

static void
cmd_load_parsed(void *parsed, struct cmdline *cl, void *data)
{
	static struct pcc_dev_plugin_info info[PCC_DEV_PLUGIN_MAX];
	struct cmd_args_result *res = parsed;
	char err[256];
	unsigned int n, j;
	int ret;

	(void)cl;
	(void)data;
	if (con_need_stopped("load app") < 0)
		return;
	ret = pcc_dev_plugin_check(res->a[0], err, sizeof(err));
	if (ret == 0)
		ret = pcc_dev_plugin_load(res->a[0], err, sizeof(err));
	if (ret != 0) {
		con_err("Bad plug-in '%s': %s", res->a[0], err[0] != '\0' ? err : strerror(-ret));
		return;
	}
	n = pcc_dev_plugin_list(info, RTE_DIM(info));
	if (n == 0 || n > RTE_DIM(info))
		return;
	printf("Loaded plug-in %s:", info[n - 1].name);
	for (j = 0; j < info[n - 1].n_algos; j++)
		printf(" %s", info[n - 1].algos[j]);
	printf("\n");
}

static cmdline_parse_token_string_t t_load = W0("load");
static cmdline_parse_token_string_t t_app = W1("app");
static cmdline_parse_inst_t cmd_load = {
	.f = cmd_load_parsed,
	.help_str = "load app <path.so>: load a plug-in",
	.tokens = { (void *)&t_load, (void *)&t_app, (void *)&t_a0, NULL },
};

/* ---- parameters ----------------------------------------------------------- */

static void
param_val(char *buf, size_t len, uint8_t type, union pcc_dev_param_val v)
{
	if (type == PCC_DEV_PARAM_I32)
		snprintf(buf, len, "%" PRId64, v.i);
	else
		snprintf(buf, len, "%" PRIu64, v.u);
}

static void
cmd_show_params_parsed(void *parsed, struct cmdline *cl, void *data)
{
	static struct pcc_dev_param_info info[PCC_DEV_MAX_PARAMS];
	struct cmd_args_result *res = parsed;
	const struct pcc_dev_algo_ops *ops;
	uint8_t dev, slot;
	int n, i;

	(void)cl;
	(void)data;
	if (bound_slot(res->a[0], res->a[1], &dev, &slot, &ops) < 0)
		return;
	n = pcc_dev_param_list(dev, slot, info, RTE_DIM(info));
	if (n < 0) {
		con_err("Cannot list parameters: %s", strerror(-n));
		return;
	}
	printf("Parameters of %s (port %s slot %u)\n", ops->name, res->a[0], slot);
	printf("%-4s %-24s %-12s %-12s %-12s %-12s %s\n", "id", "name", "value", "default", "min",
			"max", "perm");
	for (i = 0; i < n && i < (int)RTE_DIM(info); i++) {
		char v[4][24];

		param_val(v[0], sizeof(v[0]), info[i].type, info[i].cur);
		param_val(v[1], sizeof(v[1]), info[i].type, info[i].def);
		param_val(v[2], sizeof(v[2]), info[i].type, info[i].min);
		param_val(v[3], sizeof(v[3]), info[i].type, info[i].max);
		printf("%-4u %-24s %-12s %-12s %-12s %-12s %s\n", info[i].id, info[i].name, v[0],
				v[1], v[2], v[3],
				PCC_DEV_PERM_WRITABLE(info[i].perm) ? "rw" : "ro");
	}
}

static void
cmd_set_param_parsed(void *parsed, struct cmdline *cl, void *data)
{
	static struct pcc_dev_param_info info[PCC_DEV_MAX_PARAMS];
	struct cmd_args_result *res = parsed;
	const struct pcc_dev_algo_ops *ops;
	const char *name = res->a[2];
	uint8_t dev, slot;
	char *end;
	int ret, n, i;

	(void)cl;
	(void)data;
	if (bound_slot(res->a[0], res->a[1], &dev, &slot, &ops) < 0)
		return;
	if (name[0] >= '0' && name[0] <= '9') {
		unsigned long id = strtoul(name, &end, 0);

		n = pcc_dev_param_list(dev, slot, info, RTE_DIM(info));
		for (i = 0; *end == '\0' && i < n && i < (int)RTE_DIM(info); i++)
			if (info[i].id == id)
				break;
		if (*end != '\0' || i >= n || i >= (int)RTE_DIM(info)) {
			con_err("Bad parameter '%s': no such id in %s (see 'show params %s %s')",
					name, ops->name, res->a[0], res->a[1]);
			return;
		}
		name = info[i].name;
	}
	ret = pcc_host_param_set(dev, slot, name, res->a[3]);
	switch (ret) {
	case 0:
		printf("%s = %s\n", name, res->a[3]);
		return;
	case -ENOENT:
		con_err("Bad parameter '%s': not a parameter of %s (see 'show params %s %s')", name,
				ops->name, res->a[0], res->a[1]);
		return;
	case -EPERM:
		con_err("Bad parameter '%s': read-only", name);
		return;
	case -ERANGE:
		con_err("Bad value '%s': outside the range of %s (see 'show params %s %s')",
				res->a[3], name, res->a[0], res->a[1]);
		return;
	case -EINVAL:
		con_err("Bad value '%s': not a valid value of %s", res->a[3], name);
		return;
	default:
		con_err("Cannot set %s: %s", name, strerror(-ret));
	}
}

static cmdline_parse_token_string_t t_params = W1("params");
static cmdline_parse_token_string_t t_param = W1("param");
static cmdline_parse_inst_t cmd_show_params = {
	.f = cmd_show_params_parsed,
	.help_str = "show params <port> <slot>",
	.tokens = { (void *)&t_show, (void *)&t_params, (void *)&t_a0, (void *)&t_a1, NULL },
};
static cmdline_parse_inst_t cmd_set_param = {
	.f = cmd_set_param_parsed,
	.help_str = "set param <port> <slot> <name|id> <value>",
	.tokens = { (void *)&t_set, (void *)&t_param, (void *)&t_a0, (void *)&t_a1, (void *)&t_a2,
			(void *)&t_a3, NULL },
};

/* ---- counters ------------------------------------------------------------- */

static void
cmd_counters_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_args_result *res = parsed;
	const struct pcc_dev_algo_ops *ops;
	uint32_t v[PCC_DEV_MAX_COUNTERS];
	const char *op = data;
	uint8_t dev, slot;
	uint32_t i;
	int n;

	(void)cl;
	if (bound_slot(res->a[0], res->a[1], &dev, &slot, &ops) < 0)
		return;
	if (strcmp(op, "set") == 0) {
		bool on = strcmp(res->a[2], "on") == 0;
		int ret = pcc_dev_counters_enable(dev, slot, on);

		if (ret != 0)
			con_err("Cannot %s counters: %s", on ? "enable" : "disable",
					strerror(-ret));
		else
			printf("Counters of port %s slot %u: %s\n", res->a[0], slot,
					on ? "on" : "off");
		return;
	}
	if (strcmp(op, "clear") == 0) {
		n = pcc_dev_counters_get_and_clear(
				dev, slot, v, RTE_MIN(ops->n_counters, (uint32_t)RTE_DIM(v)));
		if (n < 0)
			con_err("Cannot clear counters: %s", strerror(-n));
		else
			printf("Counters of port %s slot %u cleared\n", res->a[0], slot);
		return;
	}
	n = pcc_dev_counters_get(dev, slot, v, RTE_MIN(ops->n_counters, (uint32_t)RTE_DIM(v)));
	if (n < 0) {
		con_err("Cannot read counters: %s", strerror(-n));
		return;
	}
	printf("Counters of %s (port %s slot %u): %s\n", ops->name, res->a[0], slot,
			pcc_dev_counters_enabled(dev, slot) ? "enabled" : "disabled");
	printf("%-4s %-28s %-12s %s\n", "id", "name", "value", "in units");
	for (i = 0; i < (uint32_t)n; i++) {
		uint8_t unit = pcc_dev_counter_unit(ops, i);
		char u[48] = "";

		/* a min counter nothing has lowered yet holds its start value */
		if (ops->counters != NULL && ops->counters[i].type == PCC_DEV_COUNTER_MIN &&
				v[i] == UINT32_MAX)
			snprintf(u, sizeof(u), "(none yet)");
		else if (unit != PCC_DEV_UNIT_NONE)
			pcc_dev_unit_format(unit, v[i], pcc_dev_port_speed(dev), u, sizeof(u));
		printf("%-4u %-28s %-12u %s\n", i,
				ops->counters != NULL && ops->counters[i].name != NULL ?
						ops->counters[i].name :
						"-",
				v[i], u);
	}
}

static cmdline_parse_token_string_t t_clear = W0("clear");
static cmdline_parse_token_string_t t_counters = W1("counters");
static cmdline_parse_token_string_t t_a2_onoff = ARG(2, "on#off");
static cmdline_parse_inst_t cmd_show_counters = {
	.f = cmd_counters_parsed,
	.data = (void *)(uintptr_t) "show",
	.help_str = "show counters <port> <slot>",
	.tokens = { (void *)&t_show, (void *)&t_counters, (void *)&t_a0, (void *)&t_a1, NULL },
};
static cmdline_parse_inst_t cmd_clear_counters = {
	.f = cmd_counters_parsed,
	.data = (void *)(uintptr_t) "clear",
	.help_str = "clear counters <port> <slot>",
	.tokens = { (void *)&t_clear, (void *)&t_counters, (void *)&t_a0, (void *)&t_a1, NULL },
};
static cmdline_parse_inst_t cmd_set_counters = {
	.f = cmd_counters_parsed,
	.data = (void *)(uintptr_t) "set",
	.help_str = "set counters <port> <slot> on|off",
	.tokens = { (void *)&t_set, (void *)&t_counters, (void *)&t_a0, (void *)&t_a1,
			(void *)&t_a2_onoff, NULL },
};

/* ---- histograms ----------------------------------------------------------- */

static int
hist_args(const char *ptok, const char *itok, uint8_t *dev, uint8_t *id)
{
	uint16_t port;
	uint32_t v;

	if (con_rp_port(ptok, &port, dev) < 0 ||
			con_u32(itok, "histogram", 0, PCC_DEV_MAX_HISTS - 1, &v) < 0)
		return -1;
	*id = (uint8_t)v;
	return 0;
}

static void
cmd_show_hist_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_args_result *res = parsed;
	struct pcc_dev_hist_desc d;
	uint32_t bins[PCC_DEV_HIST_MAX_BINS];
	uint8_t dev, id;
	int n, i;

	(void)cl;
	(void)data;
	if (hist_args(res->a[0], res->a[1], &dev, &id) < 0)
		return;
	if (pcc_dev_hist_describe(dev, id, &d) != 0) {
		con_err("Bad histogram '%s': not configured (histogram %s %s linear ...)",
				res->a[1], res->a[0], res->a[1]);
		return;
	}
	n = pcc_dev_hist_bins(dev, id, bins, RTE_DIM(bins));
	printf("Histogram %u of port %s: %s, %u bins, %s\n", id, res->a[0],
			d.mode == PCC_DEV_HIST_LINEAR                      ? "linear" :
					d.mode == PCC_DEV_HIST_EXPONENTIAL ? "exponential" :
									     "free",
			d.n_bins, d.enabled ? "enabled" : "disabled");
	printf("%-4s %-12s %s\n", "bin", "lower_edge", "count");
	for (i = 0; i < n; i++)
		printf("%-4d %-12u %u\n", i, d.edges[i], bins[i]);
}

static void
cmd_hist_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_args_result *res = parsed;
	uint8_t dev, id;
	int ret;

	(void)cl;
	(void)data;
	if (hist_args(res->a[0], res->a[1], &dev, &id) < 0)
		return;
	if (strcmp(res->a[2], "enable") == 0)
		ret = pcc_dev_hist_enable(dev, id);
	else if (strcmp(res->a[2], "disable") == 0)
		ret = pcc_dev_hist_disable(dev, id);
	else
		ret = pcc_dev_hist_clear(dev, id);
	if (ret == -ENOENT || ret == -EINVAL)
		con_err("Bad histogram '%s': not configured (histogram %s %s linear ...)",
				res->a[1], res->a[0], res->a[1]);
	else if (ret == -EBUSY)
		con_err("Histogram %u is enabled: disable it before '%s'", id, res->a[2]);
	else if (ret != 0)
		con_err("Cannot %s histogram %u: %s", res->a[2], id, strerror(-ret));
	else
		printf("Histogram %u of port %s: %s\n", id, res->a[0], res->a[2]);
}

static void
cmd_hist_init_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_args_result *res = parsed;
	struct pcc_dev_hist_conf c;
	uint32_t min, step, nb;
	uint8_t dev, id;
	int ret;

	(void)cl;
	(void)data;
	if (hist_args(res->a[0], res->a[1], &dev, &id) < 0 ||
			con_u32(res->a[2], "min", 0, UINT32_MAX, &min) < 0 ||
			con_u32(res->a[3], "step", 1, UINT32_MAX, &step) < 0 ||
			con_u32(res->a[4], "bins", 1, PCC_DEV_HIST_MAX_BINS, &nb) < 0)
		return;
	memset(&c, 0, sizeof(c));
	c.mode = PCC_DEV_HIST_LINEAR;
	c.n_bins = (uint8_t)nb;
	c.min = min;
	c.step = step;
	ret = pcc_dev_hist_init(dev, id, &c);
	if (ret == -EBUSY)
		con_err("Histogram %u is enabled: disable it first", id);
	else if (ret == -ERANGE)
		con_err("Bad step '%s': the last edge exceeds 2^32-1", res->a[3]);
	else if (ret != 0)
		con_err("Cannot configure histogram %u: %s", id, strerror(-ret));
	else
		printf("Histogram %u of port %s: linear, %u bins from %u step %u\n", id, res->a[0],
				nb, min, step);
}

static cmdline_parse_token_string_t t_histogram = W1("histogram");
static cmdline_parse_token_string_t t_hist0 = W0("histogram");
static cmdline_parse_token_string_t t_hist_port = W1(NULL);
static cmdline_parse_token_string_t t_hist_op = ARG(2, "enable#disable#clear");
static cmdline_parse_token_string_t t_linear = ARG(5, "linear");

/* 'histogram <port> <id> ...': the port is w1, moved to a[0] below. */
static void
cmd_hist_shift_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_args_result *res = parsed;

	memcpy(res->a[0], res->w1, sizeof(res->a[0]));
	if (data != NULL) {
		cmd_hist_init_parsed(parsed, cl, NULL);
		return;
	}
	cmd_hist_parsed(parsed, cl, NULL);
}

static cmdline_parse_inst_t cmd_show_hist = {
	.f = cmd_show_hist_parsed,
	.help_str = "show histogram <port> <id>",
	.tokens = { (void *)&t_show, (void *)&t_histogram, (void *)&t_a0, (void *)&t_a1, NULL },
};
static cmdline_parse_inst_t cmd_hist = {
	.f = cmd_hist_shift_parsed,
	.help_str = "histogram <port> <id> enable|disable|clear",
	.tokens = { (void *)&t_hist0, (void *)&t_hist_port, (void *)&t_a1, (void *)&t_hist_op,
			NULL },
};
static cmdline_parse_inst_t cmd_hist_init = {
	.f = cmd_hist_shift_parsed,
	.data = (void *)1,
	.help_str = "histogram <port> <id> linear <min> <step> <bins>",
	.tokens = { (void *)&t_hist0, (void *)&t_hist_port, (void *)&t_a1, (void *)&t_linear,
			(void *)&t_a2, (void *)&t_a3, (void *)&t_a4, NULL },
};

/* ---- ppcc: management commands (pcc_dev_mgmt.h) ------------------------------- */

static void
cmd_ppcc_parsed(void *parsed, struct cmdline *cl, void *data)
{
	static const char *const field[] = { "port", "slot", "index", "value" };
	static const uint32_t lim[] = { 0, 0xf, UINT16_MAX, UINT32_MAX };
	struct cmd_args_result *res = parsed;
	struct pcc_dev_mgmt_req rq;
	struct pcc_dev_mgmt_resp rs;
	char *save = NULL, *t;
	unsigned int na = 0, i;
	uint16_t port;
	uint32_t v;
	int type;

	(void)cl;
	(void)data;
	type = pcc_dev_mgmt_cmd_parse(res->w1);
	if (type < 0) {
		con_err("Bad cmd_type '%s': see 'help ppcc'", res->w1);
		return;
	}
	memset(&rq, 0, sizeof(rq));
	rq.cmd_type = (uint8_t)type;
	for (t = strtok_r(res->a[0], " \t", &save); t != NULL; t = strtok_r(NULL, " \t", &save)) {
		if (na == 0) {
			if (con_rp_port(t, &port, &rq.port) < 0)
				return;
		} else if (na < RTE_DIM(field)) {
			if (con_u32(t, field[na], 0, lim[na], &v) < 0)
				return;
			if (na == 1)
				rq.slot = (uint8_t)v;
			else if (na == 2)
				rq.index = (uint16_t)v;
			else
				rq.value = v;
		} else {
			if (rq.n_values == PCC_MGMT_WORDS_MAX) {
				con_err("Bad value '%s': at most %u values", t, PCC_MGMT_WORDS_MAX);
				return;
			}
			if (con_u32(t, "value", 0, UINT32_MAX, &rq.values[rq.n_values]) < 0)
				return;
			rq.n_values++;
		}
		na++;
	}
	if (na == 0) {
		con_err("Missing port: ppcc %s <port> [<slot> [<index> [<value> ...]]]", res->w1);
		return;
	}
	if (pcc_host_ppcc(&rq, &rs) < 0) {
		con_err("ppcc %s: %s", pcc_dev_mgmt_cmd_name(rq.cmd_type), rs.err);
		return;
	}
	printf("ppcc 0x%02x %s: ok, %u word%s", rq.cmd_type, pcc_dev_mgmt_cmd_name(rq.cmd_type),
			rs.n_words, rs.n_words == 1 ? "" : "s");
	for (i = 0; i < rs.n_words; i++)
		printf("%s 0x%08x", i % 8 == 0 ? "\n " : "", rs.words[i]);
	printf("\n");
	if (rs.name[0] != '\0')
		printf("name %s\n", rs.name);
	if (rs.desc[0] != '\0')
		printf("description %s\n", rs.desc);
}

static cmdline_parse_token_string_t t_ppcc = W0("ppcc");
static cmdline_parse_token_string_t t_ppcc_type = W1(NULL);
static cmdline_parse_token_string_t t_rest = ARG(0, TOKEN_STRING_MULTI);
static cmdline_parse_inst_t cmd_ppcc = {
	.f = cmd_ppcc_parsed,
	.help_str = "ppcc <cmd_type> <port> [<slot> [<index> [<value> [<values>...]]]]: management "
		    "command",
	.tokens = { (void *)&t_ppcc, (void *)&t_ppcc_type, (void *)&t_rest, NULL },
};

cmdline_parse_inst_t *cmds_algo_list[] = {
	&cmd_algos,
	&cmd_show_slots,
	&cmd_show_slot,
	&cmd_set_slot,
	&cmd_new_flow_slot,
	&cmd_load,
	&cmd_show_params,
	&cmd_set_param,
	&cmd_show_counters,
	&cmd_clear_counters,
	&cmd_set_counters,
	&cmd_show_hist,
	&cmd_hist,
	&cmd_hist_init,
	&cmd_ppcc,
	NULL,
};
