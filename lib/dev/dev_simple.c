/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Simple ("snapshot") algorithms: a generated pcc_dev_algo_ops around one
 * step function, and the named, typed parameter API (which works for
 * native algorithms too).
 */

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev_internal.h"

/* Per-flow header in front of the algorithm's state. */
struct simple_hdr {
	uint32_t cur;    /* rate or window */
	uint32_t cnp;    /* CNPs since the last step() */
	uint32_t rtt_ns; /* latest sample */
	uint8_t rtt_new;
	uint8_t started;
	uint16_t reserved;
};

static_assert(sizeof(struct simple_hdr) == PCC_DEV_SIMPLE_HDR_SIZE, "simple header size");

struct dev_simple {
	struct pcc_dev_algo_ops ops; /* what is registered */
	struct pcc_dev_simple_algo sa;
	uint32_t call_on;
	uint32_t initial;
	uint32_t min_window;
	uint32_t n_words;
	uint32_t word_of[PCC_DEV_MAX_PARAMS];   /* first word of named param k */
	int8_t builtin[PCC_DEV_SIMPLE_M_COUNT]; /* counter id, -1 if not declared */
	struct pcc_dev_param_desc pdesc[PCC_DEV_MAX_PARAMS];
	char hi_name[PCC_DEV_MAX_PARAMS][PCC_DEV_NAME_MAX];
	struct pcc_dev_counter_desc cdesc[PCC_DEV_MAX_COUNTERS];
};

static uint32_t
type_words(uint8_t type)
{
	return type == PCC_DEV_PARAM_U64 ? 2 : 1;
}

static union pcc_dev_param_val
decode(uint8_t type, const uint32_t *w)
{
	union pcc_dev_param_val v;

	if (type == PCC_DEV_PARAM_U64)
		v.u = (uint64_t)w[0] | ((uint64_t)w[1] << 32);
	else if (type == PCC_DEV_PARAM_I32)
		v.i = (int32_t)w[0];
	else
		v.u = w[0];
	return v;
}

static void
encode(uint8_t type, union pcc_dev_param_val v, uint32_t *w)
{
	if (type == PCC_DEV_PARAM_U64) {
		w[0] = (uint32_t)v.u;
		w[1] = (uint32_t)(v.u >> 32);
	} else if (type == PCC_DEV_PARAM_I32) {
		w[0] = (uint32_t)(int32_t)v.i;
	} else {
		w[0] = (uint32_t)v.u;
	}
}

static bool
in_range(uint8_t type, union pcc_dev_param_val v, union pcc_dev_param_val min,
		union pcc_dev_param_val max)
{
	if (type == PCC_DEV_PARAM_I32)
		return v.i >= min.i && v.i <= max.i;
	return v.u >= min.u && v.u <= max.u;
}

/* Write every named parameter from the words into the parameter struct. */
static void
sync_priv(const struct dev_simple *w, void *priv, const uint32_t *words)
{
	uint32_t k;

	if (priv == NULL)
		return;
	for (k = 0; k < w->sa.n_params; k++) {
		const struct pcc_dev_named_param *np = &w->sa.params[k];
		union pcc_dev_param_val v = decode(np->type, &words[w->word_of[k]]);
		uint8_t *dst = (uint8_t *)priv + np->offset;

		if (np->type == PCC_DEV_PARAM_U64) {
			__atomic_store_n((uint64_t *)(void *)dst, v.u, __ATOMIC_RELAXED);
		} else {
			uint32_t x = np->type == PCC_DEV_PARAM_I32 ? (uint32_t)(int32_t)v.i :
								     (uint32_t)v.u;

			__atomic_store_n((uint32_t *)(void *)dst, x, __ATOMIC_RELAXED);
		}
	}
}

void
dev_simple_sync(struct dev_slot *s)
{
	sync_priv(s->simple, s->priv, s->params);
}

uint32_t
dev_simple_priv_size(const struct dev_simple *w)
{
	return w->sa.params_size;
}

void
dev_simple_free(struct dev_simple *w)
{
	free(w);
}

/* ---- The generated ops ------------------------------------------------ */

static int
simple_init(uint8_t port, uint8_t slot, uint32_t *disable_mask)
{
	const struct dev_slot *s = dev_slot_get(port, slot);

	if (s == NULL || s->simple == NULL || disable_mask == NULL)
		return -EINVAL;
	*disable_mask = ~(s->simple->call_on | PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_CNP) |
			PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_RTT));
	return 0;
}

static int
simple_set_params(uint8_t port, uint8_t slot, uint32_t id_base, uint32_t num,
		const uint32_t *new_values, uint32_t *params)
{
	struct dev_slot *s = dev_slot_get(port, slot);
	const struct dev_simple *w = s != NULL ? s->simple : NULL;
	uint32_t k;

	if (w == NULL || (uint64_t)id_base + num > w->n_words)
		return -EINVAL;
	memcpy(&params[id_base], new_values, num * sizeof(uint32_t));
	for (k = 0; k < w->sa.n_params; k++) {
		const struct pcc_dev_named_param *np = &w->sa.params[k];
		uint32_t id = w->word_of[k];

		if (id + type_words(np->type) <= id_base || id >= id_base + num)
			continue;
		if (!in_range(np->type, decode(np->type, &params[id]), np->min, np->max)) {
			DEV_LOG(INFO, "%s: %s out of range", w->sa.name, np->name);
			return -ERANGE;
		}
	}
	sync_priv(w, s->priv, params);
	return 0;
}

static inline void
m_add(const struct dev_slot *s, uint32_t *c, int8_t id, uint32_t v)
{
	uint32_t cur, max;

	if (c == NULL || id < 0)
		return;
	cur = c[id];
	max = s->ctr_max[id];
	c[id] = (v > max || cur > max - v) ? max : cur + v;
}

static void
simple_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	struct dev_slot *s = dev_slot_get(attr->port, attr->algo_slot);
	const struct dev_simple *w = s != NULL ? s->simple : NULL;
	struct simple_hdr *f = ctx;
	uint32_t *c;
	bool report = false;

	if (unlikely(w == NULL))
		return; /* called outside pcc_dev_dispatch on a slot it is not bound to */
	c = s->counters_on ? s->ctrs + dev_counter_set() * s->stride : NULL;

	if (unlikely(!f->started)) {
		f->started = 1;
		f->cur = w->initial;
		report = true;
		__atomic_fetch_add(&s->active_flows, 1, __ATOMIC_RELAXED);
		m_add(s, c, w->builtin[PCC_DEV_SIMPLE_M_NEW_FLOWS], 1);
	}
	if (ev->type == PCC_DEV_EVENT_CNP) {
		if (f->cnp != UINT32_MAX)
			f->cnp++;
		m_add(s, c, w->builtin[PCC_DEV_SIMPLE_M_CNP], 1);
	} else if (ev->type == PCC_DEV_EVENT_RTT) {
		uint32_t total = ev->ts - ev->rtt.req_send_ts;
		uint32_t np = ev->rtt.resp_send_ts - ev->rtt.req_recv_ts;
		uint32_t rtt = np < total ? total - np : total;
		int8_t id;

		f->rtt_ns = rtt;
		f->rtt_new = 1;
		m_add(s, c, w->builtin[PCC_DEV_SIMPLE_M_RTT_SAMPLES], 1);
		id = w->builtin[PCC_DEV_SIMPLE_M_RTT_MIN];
		if (c != NULL && id >= 0 && rtt < c[id])
			c[id] = rtt;
		id = w->builtin[PCC_DEV_SIMPLE_M_RTT_MAX];
		if (c != NULL && id >= 0 && rtt > c[id])
			c[id] = rtt;
	}
	if (w->call_on & PCC_DEV_EVENT_BIT(ev->type)) {
		struct pcc_dev_simple_out out = { 0 };
		struct pcc_dev_simple_in in = {
			.rate = w->sa.mode == PCC_DEV_SIMPLE_RATE ? f->cur : 0,
			.window = w->sa.mode == PCC_DEV_SIMPLE_WINDOW ? f->cur : 0,
			.cnp_count = f->cnp,
			.rtt_ns = f->rtt_ns,
			.rtt_new = f->rtt_new,
			.event = ev->type,
			.port = attr->port,
			.slot = attr->algo_slot,
			.active_flows = __atomic_load_n(&s->active_flows, __ATOMIC_RELAXED),
			.now = ev->ts,
			.params = s->priv,
		};
		uint32_t nv = 0;

		w->sa.step(&in, f + 1, &out);
		f->cnp = 0;
		f->rtt_new = 0;
		m_add(s, c, w->builtin[PCC_DEV_SIMPLE_M_CALLS], 1);
		if (w->sa.mode == PCC_DEV_SIMPLE_RATE && out.rate != 0)
			nv = RTE_MIN(out.rate, PCC_DEV_MAX_RATE);
		else if (w->sa.mode == PCC_DEV_SIMPLE_WINDOW && out.window != 0)
			nv = RTE_MAX(out.window, w->min_window);
		if (nv != 0) {
			if (nv < f->cur)
				m_add(s, c, w->builtin[PCC_DEV_SIMPLE_M_DECREASES], 1);
			else if (nv > f->cur)
				m_add(s, c, w->builtin[PCC_DEV_SIMPLE_M_INCREASES], 1);
			f->cur = nv;
			report = true;
		}
		if (out.rtt_req) {
			res->rtt_req = 1;
			m_add(s, c, w->builtin[PCC_DEV_SIMPLE_M_PROBES], 1);
		}
	}
	if (w->sa.mode == PCC_DEV_SIMPLE_WINDOW)
		res->window = f->cur;
	else if (report)
		res->rate = f->cur;
}

/* The flow ended: it no longer counts as active (if it ever started). */
static void
simple_on_flow_end(void *ctx, const struct pcc_dev_attr *attr)
{
	struct dev_slot *s = dev_slot_get(attr->port, attr->algo_slot);
	struct simple_hdr *f = ctx;
	uint32_t n;

	if (s == NULL || !f->started)
		return;
	f->started = 0;
	/* never below zero: the slot may have been rebound (counts reset)
	 * since the flow started */
	n = __atomic_load_n(&s->active_flows, __ATOMIC_RELAXED);
	while (n > 0 &&
			!__atomic_compare_exchange_n(&s->active_flows, &n, n - 1, true,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* ---- Registration ----------------------------------------------------- */

static int
bad(const struct pcc_dev_simple_algo *sa, const char *what)
{
	DEV_LOG(ERR, "simple algorithm %s: %s", sa->name != NULL ? sa->name : "(null)", what);
	return -EINVAL;
}

static int
check_params(const struct pcc_dev_simple_algo *sa)
{
	uint8_t used[PCC_DEV_SIMPLE_PARAMS_MAX] = { 0 };
	uint32_t k, j, b, words = 0;

	if (sa->params_size > PCC_DEV_SIMPLE_PARAMS_MAX)
		return bad(sa, "parameter struct too large");
	if (sa->n_params > 0 && (sa->params == NULL || sa->params_size == 0))
		return bad(sa, "parameters without a table or struct size");
	for (k = 0; k < sa->n_params; k++) {
		const struct pcc_dev_named_param *np = &sa->params[k];
		uint32_t size;

		if (!dev_name_ok(np->name, PCC_DEV_NAME_MAX - 3, true) || strchr(np->name, '.'))
			return bad(sa, "parameter name not [A-Za-z0-9_] or too long");
		if (np->type > PCC_DEV_PARAM_I32)
			return bad(sa, "parameter type");
		size = np->type == PCC_DEV_PARAM_U64 ? 8 : 4;
		if (np->offset % size != 0 || np->offset + size > sa->params_size)
			return bad(sa, "parameter offset unaligned or outside the struct");
		for (b = np->offset; b < np->offset + size; b++) {
			if (used[b])
				return bad(sa, "parameters overlap");
			used[b] = 1;
		}
		if (np->type == PCC_DEV_PARAM_I32) {
			if (np->min.i < INT32_MIN || np->max.i > INT32_MAX)
				return bad(sa, "I32 parameter limits outside int32_t");
		} else if (np->type == PCC_DEV_PARAM_U32 && np->max.u > UINT32_MAX) {
			return bad(sa, "U32 parameter max above UINT32_MAX");
		}
		if (!in_range(np->type, np->def, np->min, np->max) ||
				!in_range(np->type, np->min, np->min, np->max))
			return bad(sa, "parameter default not within [min, max]");
		for (j = 0; j < k; j++)
			if (strcmp(sa->params[j].name, np->name) == 0)
				return bad(sa, "parameter name used twice");
		words += type_words(np->type);
	}
	if (words > PCC_DEV_MAX_PARAMS)
		return bad(sa, "more than 44 parameter words");
	return 0;
}

static int
check_metrics(const struct pcc_dev_simple_algo *sa)
{
	uint32_t k, j;

	if (sa->n_metrics > PCC_DEV_MAX_COUNTERS || (sa->n_metrics > 0 && sa->metrics == NULL))
		return bad(sa, "bad metric list");
	for (k = 0; k < sa->n_metrics; k++) {
		const struct pcc_dev_simple_metric *m = &sa->metrics[k];

		if (!dev_name_ok(m->name, PCC_DEV_NAME_MAX, true))
			return bad(sa, "bad metric name");
		if (m->src >= PCC_DEV_SIMPLE_M_COUNT ||
				(m->src == PCC_DEV_SIMPLE_M_CUSTOM &&
						m->type > PCC_DEV_COUNTER_MAX))
			return bad(sa, "bad metric source or type");
		for (j = 0; j < k; j++) {
			if (strcmp(sa->metrics[j].name, m->name) == 0)
				return bad(sa, "metric name used twice");
			if (m->src != PCC_DEV_SIMPLE_M_CUSTOM && sa->metrics[j].src == m->src)
				return bad(sa, "built-in metric declared twice");
		}
	}
	return 0;
}

static void
build(struct dev_simple *w)
{
	const struct pcc_dev_simple_algo *sa = &w->sa;
	uint32_t k, id = 0;

	for (k = 0; k < sa->n_params; k++) {
		const struct pcc_dev_named_param *np = &sa->params[k];
		uint32_t wd[2];

		encode(np->type, np->def, wd);
		w->word_of[k] = id;
		w->pdesc[id] = (struct pcc_dev_param_desc){
			.id = id,
			.name = np->name,
			.def = wd[0],
			.min = np->type == PCC_DEV_PARAM_U32 ? (uint32_t)np->min.u : 0,
			.max = np->type == PCC_DEV_PARAM_U32 ? (uint32_t)np->max.u : UINT32_MAX,
			.perm = np->perm,
			.desc = np->desc,
		};
		id++;
		if (np->type == PCC_DEV_PARAM_U64) {
			snprintf(w->hi_name[k], sizeof(w->hi_name[k]), "%s.hi", np->name);
			w->pdesc[id] = (struct pcc_dev_param_desc){
				.id = id,
				.name = w->hi_name[k],
				.def = wd[1],
				.min = 0,
				.max = UINT32_MAX,
				.perm = np->perm,
				.desc = np->desc,
			};
			id++;
		}
	}
	w->n_words = id;
	memset(w->builtin, -1, sizeof(w->builtin));
	for (k = 0; k < sa->n_metrics; k++) {
		const struct pcc_dev_simple_metric *m = &sa->metrics[k];
		uint8_t type = PCC_DEV_COUNTER_ACCUMULATE;

		if (m->src == PCC_DEV_SIMPLE_M_CUSTOM)
			type = m->type;
		else if (m->src == PCC_DEV_SIMPLE_M_RTT_MIN)
			type = PCC_DEV_COUNTER_MIN;
		else if (m->src == PCC_DEV_SIMPLE_M_RTT_MAX)
			type = PCC_DEV_COUNTER_MAX;
		if (m->src != PCC_DEV_SIMPLE_M_CUSTOM)
			w->builtin[m->src] = (int8_t)k;
		w->cdesc[k] = (struct pcc_dev_counter_desc){
			.id = k,
			.name = m->name,
			.max = m->src == PCC_DEV_SIMPLE_M_CUSTOM ? m->max : 0,
			.type = type,
			.perm = PCC_DEV_PERM_RO,
			.desc = m->desc,
		};
	}
	w->ops = (struct pcc_dev_algo_ops){
		.name = sa->name,
		.id = sa->id,
		.major = sa->major,
		.minor = sa->minor,
		.desc = sa->desc,
		.ctx_size = PCC_DEV_SIMPLE_HDR_SIZE + RTE_ALIGN_CEIL(sa->state_size, 8u),
		.params = w->pdesc,
		.n_params = w->n_words,
		.counters = w->cdesc,
		.n_counters = sa->n_metrics,
		.hist_ids = sa->hist_ids,
		.n_hist_ids = sa->n_hist_ids,
		.init = simple_init,
		.on_event = simple_on_event,
		.set_params = simple_set_params,
		.on_flow_end = simple_on_flow_end,
	};
}

int
pcc_dev_simple_register(const struct pcc_dev_simple_algo *sa)
{
	struct dev_simple *w;
	int rc;

	if (sa == NULL)
		return -EINVAL;
	if (sa->step == NULL)
		return bad(sa, "step is required");
	if (sa->mode > PCC_DEV_SIMPLE_WINDOW)
		return bad(sa, "bad mode");
	if (sa->state_size > PCC_DEV_SIMPLE_STATE_MAX)
		return bad(sa, "per-flow state too large");
	if (sa->initial_rate > PCC_DEV_MAX_RATE)
		return bad(sa, "initial rate above line rate");
	rc = check_params(sa);
	if (rc < 0)
		return rc;
	rc = check_metrics(sa);
	if (rc < 0)
		return rc;
	w = calloc(1, sizeof(*w));
	if (w == NULL)
		return -ENOMEM;
	w->sa = *sa;
	w->call_on = sa->call_on ? sa->call_on :
				   PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_RTT) |
					PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_TIMER);
	if (sa->mode == PCC_DEV_SIMPLE_RATE)
		w->initial = sa->initial_rate ? sa->initial_rate : PCC_DEV_MAX_RATE;
	else
		w->initial = sa->initial_window ? sa->initial_window : 65536;
	w->min_window = sa->min_window ? sa->min_window : 1;
	if (sa->mode == PCC_DEV_SIMPLE_WINDOW)
		w->initial = RTE_MAX(w->initial, w->min_window);
	build(w);
	rc = dev_registry_add(&w->ops, w);
	if (rc < 0)
		free(w);
	return rc;
}

const struct pcc_dev_algo_ops *
pcc_dev_simple_ops(const char *name)
{
	const struct dev_entry *e;
	const struct pcc_dev_algo_ops *ops;

	dev_lock();
	e = dev_registry_find(name);
	ops = e != NULL && e->simple != NULL ? &e->simple->ops : NULL;
	dev_unlock();
	return ops;
}

/* ---- Named parameters (both kinds) ------------------------------------ */

static uint32_t
named_count(const struct dev_slot *s)
{
	return s->simple != NULL ? s->simple->sa.n_params : s->ops->n_params;
}

static void
named_info(const struct dev_slot *s, uint32_t k, struct pcc_dev_param_info *info)
{
	memset(info, 0, sizeof(*info));
	if (s->simple != NULL) {
		const struct pcc_dev_named_param *np = &s->simple->sa.params[k];
		uint32_t wd[2];

		info->name = np->name;
		info->desc = np->desc;
		info->id = s->simple->word_of[k];
		info->type = np->type;
		info->perm = np->perm;
		info->def = np->def;
		info->min = np->min;
		info->max = np->max;
		wd[0] = __atomic_load_n(&s->params[info->id], __ATOMIC_RELAXED);
		wd[1] = np->type == PCC_DEV_PARAM_U64 ?
				__atomic_load_n(&s->params[info->id + 1], __ATOMIC_RELAXED) :
				0;
		info->cur = decode(np->type, wd);
	} else {
		const struct pcc_dev_param_desc *p = &s->ops->params[k];

		info->name = p->name;
		info->desc = p->desc;
		info->id = k;
		info->type = PCC_DEV_PARAM_U32;
		info->perm = p->perm;
		info->def.u = p->def;
		info->min.u = p->min;
		info->max.u = p->max;
		info->cur.u = __atomic_load_n(&s->params[k], __ATOMIC_RELAXED);
	}
}

static int
named_find(const struct dev_slot *s, const char *name)
{
	uint32_t k, n = named_count(s);

	for (k = 0; k < n; k++) {
		const char *nm = s->simple != NULL ? s->simple->sa.params[k].name :
						     s->ops->params[k].name;

		if (strcmp(nm, name) == 0)
			return (int)k;
	}
	return -ENOENT;
}

int
pcc_dev_param_count(uint8_t port, uint8_t slot)
{
	struct dev_slot *s;
	int rc;

	dev_lock();
	rc = dev_check_slot(port, slot, &s);
	if (rc == 0)
		rc = (int)named_count(s);
	dev_unlock();
	return rc;
}

int
pcc_dev_param_list(uint8_t port, uint8_t slot, struct pcc_dev_param_info *info, uint32_t n)
{
	struct dev_slot *s;
	uint32_t k;
	int rc;

	if (info == NULL && n > 0)
		return -EINVAL;
	dev_lock();
	rc = dev_check_slot(port, slot, &s);
	if (rc == 0) {
		rc = (int)named_count(s);
		for (k = 0; k < n && k < (uint32_t)rc; k++)
			named_info(s, k, &info[k]);
	}
	dev_unlock();
	return rc;
}

int
pcc_dev_param_get_by_name(
		uint8_t port, uint8_t slot, const char *name, struct pcc_dev_param_info *info)
{
	struct dev_slot *s;
	int rc;

	if (name == NULL || info == NULL)
		return -EINVAL;
	dev_lock();
	rc = dev_check_slot(port, slot, &s);
	if (rc == 0)
		rc = named_find(s, name);
	if (rc >= 0) {
		named_info(s, (uint32_t)rc, info);
		rc = 0;
	}
	dev_unlock();
	return rc;
}

int
pcc_dev_param_set_by_name(uint8_t port, uint8_t slot, const char *name, union pcc_dev_param_val v)
{
	struct pcc_dev_param_info info;
	uint32_t wd[2];
	int rc;

	dev_lock();
	rc = pcc_dev_param_get_by_name(port, slot, name, &info);
	if (rc < 0)
		goto out;
	if (!PCC_DEV_PERM_WRITABLE(info.perm)) {
		rc = -EPERM;
		goto out;
	}
	if ((info.type == PCC_DEV_PARAM_U32 && v.u > UINT32_MAX) ||
			!in_range(info.type, v, info.min, info.max)) {
		rc = -ERANGE;
		goto out;
	}
	encode(info.type, v, wd);
	rc = pcc_dev_params_set(port, slot, info.id, type_words(info.type), wd);
out:
	dev_unlock();
	return rc;
}

int
pcc_dev_param_set_str(uint8_t port, uint8_t slot, const char *name, const char *value)
{
	struct pcc_dev_param_info info;
	union pcc_dev_param_val v;
	const char *p;
	char *end;
	int rc;

	if (value == NULL)
		return -EINVAL;
	dev_lock();
	rc = pcc_dev_param_get_by_name(port, slot, name, &info);
	if (rc < 0)
		goto out;
	for (p = value; *p == ' ' || *p == '\t'; p++)
		;
	errno = 0;
	if (info.type == PCC_DEV_PARAM_I32) {
		long long x = strtoll(p, &end, 0);

		if (end == p || *end != '\0') {
			rc = -EINVAL;
			goto out;
		}
		if (errno == ERANGE || x < INT32_MIN || x > INT32_MAX) {
			rc = -ERANGE;
			goto out;
		}
		v.i = x;
	} else {
		unsigned long long x;

		if (*p == '-' || *p == '+') {
			rc = -EINVAL;
			goto out;
		}
		x = strtoull(p, &end, 0);
		if (end == p || *end != '\0') {
			rc = -EINVAL;
			goto out;
		}
		if (errno == ERANGE || (info.type == PCC_DEV_PARAM_U32 && x > UINT32_MAX)) {
			rc = -ERANGE;
			goto out;
		}
		v.u = x;
	}
	rc = pcc_dev_param_set_by_name(port, slot, name, v);
out:
	dev_unlock();
	return rc;
}
