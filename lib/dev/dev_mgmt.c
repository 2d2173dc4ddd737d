/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Register-style management commands (pcc_dev_mgmt.h): one table says
 * what each command type needs (a bound slot, an index below which
 * limit), the handlers only do the work.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "pcc_dev_hist.h"
#include "pcc_dev_mgmt.h"

/* What a command needs before its handler runs. */
enum mgmt_idx {
	IDX_NONE,    /* index ignored */
	IDX_PARAM,   /* index < n_params */
	IDX_COUNTER, /* index < n_counters */
	IDX_GROUP,   /* index < the slot's counter groups */
	IDX_HIST,    /* index < PCC_DEV_MAX_HISTS */
};

struct mgmt_ctx {
	const struct pcc_dev_mgmt_req *rq;
	struct pcc_dev_mgmt_resp *rs;
	const struct pcc_dev_algo_ops *ops; /* bound algorithm, if the command needs one */
};

typedef int (*mgmt_fn)(struct mgmt_ctx *c);

struct mgmt_cmd {
	const char *name;
	mgmt_fn fn;
	uint8_t need_slot; /* 1: a bound slot */
	uint8_t idx;       /* enum mgmt_idx */
	uint8_t value01;   /* value must be 0 or 1 */
};

static int
fail(struct mgmt_ctx *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->rs->err, sizeof(c->rs->err), fmt, ap);
	va_end(ap);
	return err;
}

static void
word(struct mgmt_ctx *c, uint32_t w)
{
	if (c->rs->n_words < PCC_MGMT_WORDS_MAX)
		c->rs->words[c->rs->n_words++] = w;
}

static void
text(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s != NULL ? s : "");
}

/* ---- algorithm and slot ---------------------------------------------------- */

static int
m_algo_info(struct mgmt_ctx *c)
{
	word(c, c->ops->id);
	word(c, c->ops->major);
	word(c, c->ops->minor);
	text(c->rs->name, sizeof(c->rs->name), c->ops->name);
	text(c->rs->desc, sizeof(c->rs->desc), c->ops->desc);
	return 0;
}

static int
m_algo_enable(struct mgmt_ctx *c)
{
	int ret;

	if (c->rq->slot == PCC_DEV_INTERNAL_SLOT)
		return fail(c, -EINVAL, "slot 0xf: the default slot is always enabled");
	ret = pcc_dev_slot_enable(c->rq->port, c->rq->slot, c->rq->value != 0);
	if (ret < 0)
		return fail(c, ret, "slot %u: cannot %s it (%s)", c->rq->slot,
				c->rq->value != 0 ? "enable" : "disable", strerror(-ret));
	return 0;
}

static int
m_counters_enable(struct mgmt_ctx *c)
{
	int ret = pcc_dev_counters_enable(c->rq->port, c->rq->slot, c->rq->value != 0);

	if (ret < 0)
		return fail(c, ret, "slot %u: cannot switch counters (%s)", c->rq->slot,
				strerror(-ret));
	return 0;
}

static int
m_algo_status(struct mgmt_ctx *c)
{
	bool en = false;
	uint32_t st = PCC_MGMT_STATUS_BOUND;

	pcc_dev_slot_algo(c->rq->port, c->rq->slot, &en);
	if (en || c->rq->slot == PCC_DEV_INTERNAL_SLOT)
		st |= PCC_MGMT_STATUS_ENABLED;
	if (pcc_dev_counters_enabled(c->rq->port, c->rq->slot))
		st |= PCC_MGMT_STATUS_COUNTERS;
	if (pcc_dev_slot_active(c->rq->port) == c->rq->slot)
		st |= PCC_MGMT_STATUS_ACTIVE;
	word(c, st);
	return 0;
}

static int
m_algo_info_array(struct mgmt_ctx *c)
{
	const struct pcc_dev_algo_ops *ops;
	unsigned int s;

	for (s = 0; s <= PCC_DEV_MAX_SLOTS; s++) {
		uint8_t slot = s < PCC_DEV_MAX_SLOTS ? (uint8_t)s : PCC_DEV_INTERNAL_SLOT;

		ops = pcc_dev_slot_algo(c->rq->port, slot, NULL);
		if (ops == NULL)
			continue;
		word(c, slot);
		word(c, ops->id);
		word(c, ops->major);
		word(c, ops->minor);
	}
	return 0;
}

/* ---- parameters --------------------------------------------------------------- */

static int
m_params_count(struct mgmt_ctx *c)
{
	word(c, c->ops->n_params);
	return 0;
}

static int
m_param_info(struct mgmt_ctx *c)
{
	const struct pcc_dev_param_desc *p = &c->ops->params[c->rq->index];

	word(c, p->def);
	word(c, p->min);
	word(c, p->max);
	word(c, p->perm);
	text(c->rs->name, sizeof(c->rs->name), p->name);
	text(c->rs->desc, sizeof(c->rs->desc), p->desc);
	return 0;
}

static int
params_get(struct mgmt_ctx *c, uint32_t base, uint32_t n)
{
	int ret = n == 0 ? 0 : pcc_dev_params_get(c->rq->port, c->rq->slot, base, n, c->rs->words);

	if (ret < 0)
		return fail(c, ret, "slot %u: cannot read parameters (%s)", c->rq->slot,
				strerror(-ret));
	c->rs->n_words = n;
	return 0;
}

static int
m_param_get(struct mgmt_ctx *c)
{
	return params_get(c, c->rq->index, 1);
}

static int
m_params_get(struct mgmt_ctx *c)
{
	return params_get(c, 0, c->ops->n_params);
}

static int
params_set(struct mgmt_ctx *c, uint32_t base, uint32_t n, const uint32_t *v)
{
	const struct pcc_dev_param_desc *p;
	uint32_t i;
	int ret;

	/* name the first bad value before lib/dev refuses the whole block */
	for (i = 0; i < n; i++) {
		p = &c->ops->params[base + i];
		if (!PCC_DEV_PERM_WRITABLE(p->perm))
			return fail(c, -EPERM, "parameter %u (%s) is read-only", base + i, p->name);
		if (v[i] < p->min || v[i] > p->max)
			return fail(c, -ERANGE, "value %u of parameter %u (%s): range %u..%u", v[i],
					base + i, p->name, p->min, p->max);
	}
	ret = pcc_dev_params_set(c->rq->port, c->rq->slot, base, n, v);
	if (ret < 0)
		return fail(c, ret, "%s refused parameters %u..%u (%s)", c->ops->name, base,
				base + n - 1, strerror(-ret));
	return params_get(c, base, n);
}

static int
m_param_set(struct mgmt_ctx *c)
{
	return params_set(c, c->rq->index, 1, &c->rq->value);
}

static int
m_params_set(struct mgmt_ctx *c)
{
	uint32_t n = c->rq->n_values, base = c->rq->index;

	if (n == 0 || n > PCC_MGMT_WORDS_MAX)
		return fail(c, -EINVAL, "n_values %u: 1..%u", n, PCC_MGMT_WORDS_MAX);
	if (base >= c->ops->n_params || n > c->ops->n_params - base)
		return fail(c, -EINVAL, "parameters %u..%u: %s has %u (0..%u)", base, base + n - 1,
				c->ops->name, c->ops->n_params, c->ops->n_params - 1);
	return params_set(c, base, n, c->rq->values);
}

/* ---- counters ----------------------------------------------------------------- */

static int
m_counters_get(struct mgmt_ctx *c)
{
	uint8_t g = (uint8_t)c->rq->index;
	bool clr = c->rq->cmd_type == PCC_MGMT_COUNTERS_GET_CLR;
	uint32_t n = g == 0 ? c->ops->n_counters : PCC_DEV_COUNTER_GROUP_SIZE;
	int ret;

	if (n == 0)
		return 0;
	ret = clr ? pcc_dev_counters_group_get_and_clear(
				    c->rq->port, c->rq->slot, g, c->rs->words, n) :
		    pcc_dev_counters_group_get(c->rq->port, c->rq->slot, g, c->rs->words, n);
	if (ret < 0)
		return fail(c, ret, "counter group %u: cannot read%s (%s)", g,
				clr ? " and clear" : "",
				ret == -EBUSY ? "holds an enabled histogram" : strerror(-ret));
	c->rs->n_words = (uint32_t)ret;
	return 0;
}

static int
m_counters_count(struct mgmt_ctx *c)
{
	word(c, c->ops->n_counters);
	word(c, (uint32_t)pcc_dev_counter_groups(c->rq->port, c->rq->slot));
	return 0;
}

static int
m_counter_info(struct mgmt_ctx *c)
{
	const struct pcc_dev_counter_desc *d = &c->ops->counters[c->rq->index];

	word(c, d->max != 0 ? d->max : UINT32_MAX);
	word(c, d->type);
	word(c, d->perm);
	text(c->rs->name, sizeof(c->rs->name), d->name);
	text(c->rs->desc, sizeof(c->rs->desc), d->desc);
	return 0;
}

/* ---- histograms --------------------------------------------------------------- */

static int
m_hist_ids(struct mgmt_ctx *c)
{
	const struct pcc_dev_algo_ops *ops;
	uint32_t mask = 0, i;

	word(c, pcc_dev_hist_configured(c->rq->port));
	ops = pcc_dev_slot_algo(c->rq->port, c->rq->slot, NULL);
	if (ops != NULL)
		for (i = 0; i < ops->n_hist_ids; i++)
			if (ops->hist_ids[i] < PCC_DEV_MAX_HISTS)
				mask |= 1u << ops->hist_ids[i];
	word(c, mask);
	return 0;
}

static int
hist_describe(struct mgmt_ctx *c, struct pcc_dev_hist_desc *d)
{
	int ret = pcc_dev_hist_describe(c->rq->port, (uint8_t)c->rq->index, d);

	if (ret < 0)
		return fail(c, ret, "histogram %u: %s", c->rq->index,
				ret == -ENOENT ? "not configured" : strerror(-ret));
	return 0;
}

static int
m_hist_desc(struct mgmt_ctx *c)
{
	struct pcc_dev_hist_desc d;
	int ret = hist_describe(c, &d);

	if (ret == 0)
		text(c->rs->desc, sizeof(c->rs->desc), d.desc);
	return ret;
}

static int
m_hist_config(struct mgmt_ctx *c)
{
	struct pcc_dev_hist_desc d;
	uint32_t i;
	int ret = hist_describe(c, &d);

	if (ret < 0)
		return ret;
	word(c, d.mode);
	word(c, d.n_bins);
	word(c, d.enabled);
	word(c, d.counter_group);
	word(c, d.group_offset);
	word(c, d.min);
	word(c, d.step);
	word(c, d.factor);
	for (i = 0; i < d.n_bins; i++)
		word(c, d.edges[i]);
	return 0;
}

static int
hist_configure(struct mgmt_ctx *c)
{
	const uint32_t *v = c->rq->values;
	struct pcc_dev_hist_conf hc;
	int ret;

	if (c->rq->n_values < 4)
		return fail(c, -EINVAL, "n_values %u: mode, n_bins, min, step|factor[, edges]",
				c->rq->n_values);
	if (v[0] > PCC_DEV_HIST_FREE)
		return fail(c, -EINVAL, "mode %u: 0 linear, 1 exponential, 2 free", v[0]);
	if (v[1] == 0 || v[1] > PCC_DEV_HIST_MAX_BINS)
		return fail(c, -EINVAL, "n_bins %u: 1..%u", v[1], PCC_DEV_HIST_MAX_BINS);
	if (v[0] == PCC_DEV_HIST_FREE && c->rq->n_values < 4 + v[1])
		return fail(c, -EINVAL, "free mode: %u edges after the first 4 values, %u given",
				v[1], c->rq->n_values - 4);
	memset(&hc, 0, sizeof(hc));
	hc.mode = (uint8_t)v[0];
	hc.n_bins = (uint8_t)v[1];
	hc.min = v[2];
	if (v[0] == PCC_DEV_HIST_LINEAR)
		hc.step = v[3];
	else if (v[0] == PCC_DEV_HIST_EXPONENTIAL)
		hc.factor = v[3];
	hc.edges = v[0] == PCC_DEV_HIST_FREE ? &v[4] : NULL;
	ret = pcc_dev_hist_init(c->rq->port, (uint8_t)c->rq->index, &hc);
	if (ret < 0)
		return fail(c, ret, "histogram %u: configuration refused (%s)", c->rq->index,
				ret == -EBUSY                  ? "enabled: disable it first" :
						ret == -ERANGE ? "an edge passes 2^32" :
								 "bad min, step, factor or edges");
	return 0;
}

static int
m_hist_set(struct mgmt_ctx *c)
{
	uint8_t id = (uint8_t)c->rq->index;
	int ret;

	switch (c->rq->value) {
	case PCC_MGMT_HIST_OP_CONFIG:
		return hist_configure(c);
	case PCC_MGMT_HIST_OP_ENABLE:
		ret = pcc_dev_hist_enable(c->rq->port, id);
		break;
	case PCC_MGMT_HIST_OP_DISABLE:
		ret = pcc_dev_hist_disable(c->rq->port, id);
		break;
	case PCC_MGMT_HIST_OP_CLEAR:
		ret = pcc_dev_hist_clear(c->rq->port, id);
		break;
	default:
		return fail(c, -EINVAL, "value %u: 0 config, 1 enable, 2 disable, 3 clear",
				c->rq->value);
	}
	if (ret < 0)
		return fail(c, ret, "histogram %u: %s", id,
				ret == -ENOENT                ? "not configured" :
						ret == -EBUSY ? "enabled: disable it first" :
								strerror(-ret));
	return 0;
}

static int
m_hist_bins(struct mgmt_ctx *c)
{
	int ret = pcc_dev_hist_bins(
			c->rq->port, (uint8_t)c->rq->index, c->rs->words, PCC_DEV_HIST_MAX_BINS);

	if (ret < 0)
		return fail(c, ret, "histogram %u: %s", c->rq->index,
				ret == -ENOENT ? "not configured" : strerror(-ret));
	c->rs->n_words = (uint32_t)ret;
	return 0;
}

/* ---- the table ------------------------------------------------------------------ */

static const struct mgmt_cmd mgmt_cmds[] = {
	[PCC_MGMT_ALGO_INFO] = { "algo_info", m_algo_info, 1, IDX_NONE, 0 },
	[PCC_MGMT_ALGO_ENABLE] = { "algo_enable", m_algo_enable, 1, IDX_NONE, 1 },
	[PCC_MGMT_COUNTERS_ENABLE] = { "counters_enable", m_counters_enable, 1, IDX_NONE, 1 },
	[PCC_MGMT_ALGO_STATUS] = { "algo_status", m_algo_status, 1, IDX_NONE, 0 },
	[PCC_MGMT_PARAMS_COUNT] = { "params_count", m_params_count, 1, IDX_NONE, 0 },
	[PCC_MGMT_PARAM_INFO] = { "param_info", m_param_info, 1, IDX_PARAM, 0 },
	[PCC_MGMT_PARAM_GET] = { "param_get", m_param_get, 1, IDX_PARAM, 0 },
	[PCC_MGMT_PARAM_SET] = { "param_set", m_param_set, 1, IDX_PARAM, 0 },
	[PCC_MGMT_PARAMS_GET] = { "params_get", m_params_get, 1, IDX_NONE, 0 },
	[PCC_MGMT_PARAMS_SET] = { "params_set", m_params_set, 1, IDX_NONE, 0 },
	[PCC_MGMT_COUNTERS_GET] = { "counters_get", m_counters_get, 1, IDX_GROUP, 0 },
	[PCC_MGMT_COUNTERS_GET_CLR] = { "counters_get_clear", m_counters_get, 1, IDX_GROUP, 0 },
	[PCC_MGMT_COUNTERS_COUNT] = { "counters_count", m_counters_count, 1, IDX_NONE, 0 },
	[PCC_MGMT_COUNTER_INFO] = { "counter_info", m_counter_info, 1, IDX_COUNTER, 0 },
	[PCC_MGMT_ALGO_INFO_ARRAY] = { "algo_info_array", m_algo_info_array, 0, IDX_NONE, 0 },
	[PCC_MGMT_HIST_IDS] = { "hist_ids", m_hist_ids, 0, IDX_NONE, 0 },
	[PCC_MGMT_HIST_DESC] = { "hist_desc", m_hist_desc, 0, IDX_HIST, 0 },
	[PCC_MGMT_HIST_CONFIG] = { "hist_config", m_hist_config, 0, IDX_HIST, 0 },
	[PCC_MGMT_HIST_SET] = { "hist_set", m_hist_set, 0, IDX_HIST, 0 },
	[PCC_MGMT_HIST_BINS] = { "hist_bins", m_hist_bins, 0, IDX_HIST, 0 },
};

const char *
pcc_dev_mgmt_cmd_name(unsigned int cmd_type)
{
	if (cmd_type >= RTE_DIM(mgmt_cmds) || mgmt_cmds[cmd_type].fn == NULL)
		return NULL;
	return mgmt_cmds[cmd_type].name;
}

int
pcc_dev_mgmt_cmd_parse(const char *s)
{
	unsigned long v;
	unsigned int i;
	char *end;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	for (i = 0; i < RTE_DIM(mgmt_cmds); i++)
		if (mgmt_cmds[i].fn != NULL && strcmp(s, mgmt_cmds[i].name) == 0)
			return (int)i;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno != 0 || *end != '\0' || *s == '-' ||
			pcc_dev_mgmt_cmd_name((unsigned int)v) == NULL || v >= RTE_DIM(mgmt_cmds))
		return -EINVAL;
	return (int)v;
}

/* The index's limit for the command, or a refusal. */
static int
check_index(struct mgmt_ctx *c, const struct mgmt_cmd *d)
{
	uint32_t idx = c->rq->index, lim;
	const char *what;
	int g;

	switch (d->idx) {
	case IDX_PARAM:
		lim = c->ops->n_params;
		what = "parameter";
		break;
	case IDX_COUNTER:
		lim = c->ops->n_counters;
		what = "counter";
		break;
	case IDX_GROUP:
		g = pcc_dev_counter_groups(c->rq->port, c->rq->slot);
		lim = g > 0 ? (uint32_t)g : 1;
		what = "counter group";
		break;
	case IDX_HIST:
		lim = PCC_DEV_MAX_HISTS;
		what = "histogram";
		break;
	default:
		return 0;
	}
	if (idx >= lim) {
		if (lim == 0)
			return fail(c, -EINVAL, "index %u: %s has no %ss", idx,
					c->ops != NULL ? c->ops->name : "the port", what);
		return fail(c, -EINVAL, "index %u: %s 0..%u", idx, what, lim - 1);
	}
	return 0;
}

static int
exec(struct mgmt_ctx *c)
{
	const struct pcc_dev_mgmt_req *rq = c->rq;
	const struct mgmt_cmd *d;
	int ret;

	if (rq->cmd_type >= RTE_DIM(mgmt_cmds) || mgmt_cmds[rq->cmd_type].fn == NULL)
		return fail(c, -EINVAL, "cmd_type 0x%x: unknown", rq->cmd_type);
	d = &mgmt_cmds[rq->cmd_type];
	if (rq->port >= PCC_DEV_MAX_PORTS)
		return fail(c, -EINVAL, "port %u: logical ports 0..%u", rq->port,
				PCC_DEV_MAX_PORTS - 1);
	if (d->need_slot) {
		if (rq->slot >= PCC_DEV_MAX_SLOTS && rq->slot != PCC_DEV_INTERNAL_SLOT)
			return fail(c, -EINVAL, "slot %u: 0..%u or 0xf", rq->slot,
					PCC_DEV_MAX_SLOTS - 1);
		c->ops = pcc_dev_slot_algo(rq->port, rq->slot, NULL);
		if (c->ops == NULL)
			return fail(c, -ENOENT, "slot %u: no algorithm bound on port %u", rq->slot,
					rq->port);
	} else if (rq->cmd_type == PCC_MGMT_HIST_IDS && rq->slot >= PCC_DEV_MAX_SLOTS &&
			rq->slot != PCC_DEV_INTERNAL_SLOT) {
		return fail(c, -EINVAL, "slot %u: 0..%u or 0xf", rq->slot, PCC_DEV_MAX_SLOTS - 1);
	}
	if (d->value01 && rq->value > 1)
		return fail(c, -EINVAL, "value %u: 0 or 1", rq->value);
	ret = check_index(c, d);
	if (ret < 0)
		return ret;
	return d->fn(c);
}

int
pcc_dev_mgmt_exec(const struct pcc_dev_mgmt_req *req, struct pcc_dev_mgmt_resp *resp)
{
	struct mgmt_ctx c = { .rq = req, .rs = resp, .ops = NULL };

	if (resp == NULL)
		return -EINVAL;
	memset(resp, 0, sizeof(*resp));
	if (req == NULL)
		resp->status = fail(&c, -EINVAL, "no request");
	else
		resp->status = exec(&c);
	if (resp->status < 0)
		resp->n_words = 0;
	return resp->status;
}
