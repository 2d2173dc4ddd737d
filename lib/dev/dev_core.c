/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The device state: ports, algorithm indexes, slots, the dispatch fast
 * path and per-slot memory (parameters: dev_params.c; counters:
 * dev_counters.c).
 *
 * Per-slot counter memory is one block per thread set (n_threads worker
 * ranks + 1 shared set), each block = group 0 (n_counters words rounded
 * up to a cache line) followed by n_groups - 1 groups of
 * PCC_DEV_COUNTER_GROUP_SIZE words.  Blocks are cache-line multiples, so
 * workers never share a line and update their counters with plain
 * stores; readers combine the sets with relaxed loads.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev_internal.h"

__thread struct dev_tls dev_tls __attribute__((tls_model("initial-exec")));
struct dev_state dev_g;
uint32_t dev_tpcs = 1;
uint32_t dev_gen = 1;

#define WORDS_PER_LINE (RTE_CACHE_LINE_SIZE / sizeof(uint32_t))

/* ---- Thread hooks ---------------------------------------------------- */

void
pcc_dev_thread_set_rank(uint16_t rank)
{
	dev_tls.rank1 = rank == UINT16_MAX ? 0 : (uint16_t)(rank + 1);
	dev_tls.cset_gen = 0;
}

void
dev_gen_bump(void)
{
	uint32_t g = dev_gen + 1;

	__atomic_store_n(&dev_gen, g == 0 ? 1 : g, __ATOMIC_RELAXED);
}

uint32_t
dev_counter_set_fill(void)
{
	uint32_t gen = __atomic_load_n(&dev_gen, __ATOMIC_RELAXED);
	uint32_t t = dev_thread_set();

	if (t < dev_g.n_threads && dev_tpcs > 1)
		t -= t % dev_tpcs;
	dev_tls.cset = t;
	dev_tls.cset_gen = gen;
	return t;
}

void
pcc_dev_thread_set_overload(bool overload)
{
	dev_tls.overload = overload ? 1 : 0;
}

uint16_t
pcc_dev_thread_rank(void)
{
	return dev_tls.rank1 == 0 ? 0 : (uint16_t)(dev_tls.rank1 - 1);
}

/* ---- Slot memory ----------------------------------------------------- */

static void *
zalloc_aligned(size_t size)
{
	void *p = NULL;

	if (size == 0)
		size = RTE_CACHE_LINE_SIZE;
	size = RTE_ALIGN_CEIL(size, RTE_CACHE_LINE_SIZE);
	if (posix_memalign(&p, RTE_CACHE_LINE_SIZE, size) != 0)
		return NULL;
	memset(p, 0, size);
	return p;
}

static void
slot_free(struct dev_slot *s)
{
	struct pcc_dev_attr attr = s->attr;

	__atomic_store_n(&s->on_event, NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&s->on_flow_end, NULL, __ATOMIC_RELEASE);
	free(s->params);
	free(s->ctrs);
	free(s->priv);
	memset(s, 0, sizeof(*s));
	s->attr = attr;
	s->attr.algo_idx = 0;
}

static void
port_update_mask(struct dev_port *P)
{
	uint32_t m = 0, i;

	for (i = 0; i < PCC_DEV_MAX_SLOTS; i++)
		if (P->slot[i].bound && P->slot[i].enabled)
			m |= 1u << i;
	__atomic_store_n(&P->enabled_mask, m, __ATOMIC_RELEASE);
}

static void
slot_unbind_locked(uint8_t port, uint8_t slot)
{
	struct dev_port *P = &dev_g.port[port];

	slot_free(&P->slot[slot]);
	port_update_mask(P);
}

/* Groups needed so every registered histogram id has its group. */
static uint32_t
hist_groups_needed(const struct pcc_dev_algo_ops *ops)
{
	uint32_t i, g = 1;

	for (i = 0; i < ops->n_hist_ids; i++)
		g = RTE_MAX(g, DEV_HIST_GROUP(ops->hist_ids[i]) + 1);
	return g;
}

static int
declare(const struct pcc_dev_algo_ops *ops, struct pcc_dev_mem_decl *d)
{
	uint32_t need_groups = hist_groups_needed(ops);
	uint32_t ctx = ops->ctx_size ? ops->ctx_size : PCC_DEV_CTX_SIZE;

	memset(d, 0, sizeof(*d));
	d->n_slots = PCC_DEV_MAX_SLOTS + 1;
	d->n_params = ops->n_params;
	d->n_counters = ops->n_counters;
	d->n_counter_groups = RTE_MAX((uint32_t)dev_g.n_groups, need_groups);
	d->n_histograms = ops->n_hist_ids;
	d->ctx_size = ctx;
	if (ops->declare_memory == NULL)
		return 0;
	ops->declare_memory(d);
	if (d->n_slots == 0)
		d->n_slots = PCC_DEV_MAX_SLOTS + 1;
	if (d->n_counter_groups == 0)
		d->n_counter_groups = RTE_MAX((uint32_t)dev_g.n_groups, need_groups);
	if (d->n_params < ops->n_params || d->n_params > PCC_DEV_MAX_PARAMS ||
			d->n_counters < ops->n_counters || d->n_counters > PCC_DEV_MAX_COUNTERS ||
			d->n_counter_groups < need_groups ||
			d->n_counter_groups > PCC_DEV_MAX_COUNTER_GROUPS ||
			d->n_histograms < ops->n_hist_ids || d->n_histograms > PCC_DEV_MAX_HISTS ||
			d->ctx_size < ctx || d->ctx_size > PCC_DEV_CTX_MAX) {
		DEV_LOG(ERR,
				"%s: declared memory below its tables or above limits "
				"(params %u counters %u groups %u (need %u) histograms %u ctx %u)",
				ops->name, d->n_params, d->n_counters, d->n_counter_groups,
				need_groups, d->n_histograms, d->ctx_size);
		return -EINVAL;
	}
	return 0;
}

static uint32_t
slots_using(const struct dev_port *P, const struct pcc_dev_algo_ops *ops, uint8_t except)
{
	uint32_t i, n = 0;

	for (i = 0; i < DEV_NB_SLOTS; i++)
		if (i != except && P->slot[i].bound && P->slot[i].ops == ops)
			n++;
	return n;
}

/* Bind slot of port to index idx (loaded), replacing what was there. */
static int
slot_bind_locked(uint8_t port, uint8_t slot, uint8_t idx)
{
	struct dev_port *P = &dev_g.port[port];
	struct dev_slot *s = &P->slot[slot];
	const struct dev_index *ix = &P->idx[idx];
	const struct pcc_dev_algo_ops *ops = ix->ops;
	struct pcc_dev_mem_decl d;
	uint32_t i, sets, g0, stride, mask = 0, priv_size;
	size_t ctr_bytes;
	int rc;

	if (ops == NULL)
		return -ENOENT;
	rc = declare(ops, &d);
	if (rc < 0)
		return rc;
	if (slots_using(P, ops, slot) >= d.n_slots) {
		DEV_LOG(ERR, "%s: declared for %u slots, port %u has them all", ops->name,
				d.n_slots, port);
		return -ENOSPC;
	}
	slot_unbind_locked(port, slot);

	sets = (uint32_t)dev_g.n_threads + 1;
	g0 = RTE_ALIGN_CEIL(RTE_MAX(d.n_counters, 1u), (uint32_t)WORDS_PER_LINE);
	stride = g0 + (d.n_counter_groups - 1) * PCC_DEV_COUNTER_GROUP_SIZE;
	ctr_bytes = (size_t)sets * stride * sizeof(uint32_t);
	priv_size = ix->simple != NULL ? dev_simple_priv_size(ix->simple) : 0;

	s->params = zalloc_aligned(d.n_params * sizeof(uint32_t));
	s->ctrs = zalloc_aligned(ctr_bytes);
	s->priv = priv_size ? zalloc_aligned(priv_size) : NULL;
	if (s->params == NULL || s->ctrs == NULL || (priv_size && s->priv == NULL)) {
		slot_free(s);
		return -ENOMEM;
	}
	s->ops = ops;
	s->simple = ix->simple;
	s->n_params = d.n_params;
	s->n_counters = ops->n_counters;
	s->n_groups = (uint8_t)d.n_counter_groups;
	s->g0_size = g0;
	s->stride = stride;
	s->counters_on = 1;
	s->attr.port = port;
	s->attr.algo_slot = slot;
	s->attr.algo_idx = idx;
	for (i = 0; i < ops->n_params; i++)
		s->params[i] = ops->params[i].def;
	for (i = 0; i < ops->n_counters; i++) {
		uint32_t max = ops->counters[i].max;
		uint32_t t;

		s->ctr_type[i] = ops->counters[i].type;
		s->ctr_max[i] = max ? max : UINT32_MAX;
		if (s->ctr_type[i] == PCC_DEV_COUNTER_MIN)
			for (t = 0; t < sets; t++)
				s->ctrs[t * stride + i] = s->ctr_max[i];
	}
	for (i = 0; i < ops->n_hist_ids; i++)
		s->hist_allowed |= (uint16_t)(1u << ops->hist_ids[i]);
	if (s->simple != NULL)
		dev_simple_sync(s);
	s->mem.n_params = d.n_params;
	s->mem.n_counters = d.n_counters;
	s->mem.n_counter_groups = d.n_counter_groups;
	s->mem.n_histograms = d.n_histograms;
	s->mem.n_thread_sets = sets;
	s->mem.ctx_size = d.ctx_size;
	s->mem.params_bytes = RTE_ALIGN_CEIL(RTE_MAX(d.n_params * sizeof(uint32_t), (size_t)1),
			(size_t)RTE_CACHE_LINE_SIZE);
	s->mem.counters_bytes = ctr_bytes;
	s->mem.priv_bytes = priv_size ? RTE_ALIGN_CEIL(priv_size, RTE_CACHE_LINE_SIZE) : 0;
	s->mem.total_bytes = s->mem.params_bytes + s->mem.counters_bytes + s->mem.priv_bytes;
	s->bound = 1;

	if (ops->init != NULL) {
		rc = ops->init(port, slot, &mask);
		if (rc != 0) {
			DEV_LOG(ERR, "%s: init refused port %u slot %u: %d", ops->name, port, slot,
					rc);
			slot_unbind_locked(port, slot);
			return rc < 0 ? rc : -EINVAL;
		}
	}
	s->disable_mask = mask;
	__atomic_store_n(&s->on_flow_end, ops->on_flow_end, __ATOMIC_RELEASE);
	__atomic_store_n(&s->on_event, ops->on_event, __ATOMIC_RELEASE);
	return 0;
}

static int
load_locked(uint8_t port, uint8_t idx, const struct dev_entry *e)
{
	struct dev_port *P = &dev_g.port[port];
	uint32_t i;
	int rc;

	for (i = 0; i < PCC_DEV_MAX_SLOTS; i++)
		if (P->slot[i].bound && P->slot[i].attr.algo_idx == idx)
			return -EBUSY;
	P->idx[idx].ops = e->ops;
	P->idx[idx].simple = e->simple;
	if (idx != PCC_DEV_INTERNAL_SLOT)
		return 0;
	rc = slot_bind_locked(port, PCC_DEV_INTERNAL_SLOT, PCC_DEV_INTERNAL_SLOT);
	if (rc < 0)
		memset(&P->idx[idx], 0, sizeof(P->idx[idx]));
	return rc;
}

/* ---- Init / fini ----------------------------------------------------- */

static void
state_reset(void)
{
	unsigned int p, s;

	for (p = 0; p < PCC_DEV_MAX_PORTS; p++)
		for (s = 0; s < DEV_NB_SLOTS; s++)
			slot_free(&dev_g.port[p].slot[s]);
	dev_svc_fini();
	memset(&dev_g, 0, sizeof(dev_g));
	for (p = 0; p < PCC_DEV_MAX_PORTS; p++) {
		for (s = 0; s < DEV_NB_SLOTS; s++) {
			dev_g.port[p].slot[s].attr.port = (uint8_t)p;
			dev_g.port[p].slot[s].attr.algo_slot = (uint8_t)s;
		}
	}
	rte_spinlock_init(&dev_g.shared_lock);
	dev_gen_bump();
}

int
pcc_dev_init(const struct pcc_dev_conf *conf)
{
	const struct pcc_dev_conf defaults = { .n_ports = 1, .n_threads = 1 };
	const struct dev_entry *e;
	const char *def;
	unsigned int p;
	int rc;

	if (conf == NULL)
		conf = &defaults;
	def = conf->default_algo != NULL ? conf->default_algo : "rtt";
	if (conf->n_ports < 1 || conf->n_ports > PCC_DEV_MAX_PORTS ||
			conf->n_threads > PCC_DEV_MAX_THREADS ||
			conf->n_counter_groups > PCC_DEV_MAX_COUNTER_GROUPS ||
			!dev_name_ok(def, PCC_DEV_NAME_MAX, false)) {
		DEV_LOG(ERR,
				"bad configuration: ports %u (1..%u) threads %u (<= %u) "
				"counter groups %u (<= %u) default algorithm %s",
				conf->n_ports, PCC_DEV_MAX_PORTS, conf->n_threads,
				PCC_DEV_MAX_THREADS, conf->n_counter_groups,
				PCC_DEV_MAX_COUNTER_GROUPS, def);
		return -EINVAL;
	}
	dev_lock();
	if (dev_g.init) {
		dev_unlock();
		return -EBUSY;
	}
	state_reset();
	dev_g.n_ports = conf->n_ports;
	dev_g.n_threads = conf->n_threads ? conf->n_threads : 1;
	dev_g.n_groups = conf->n_counter_groups ? conf->n_counter_groups :
						  PCC_DEV_DEFAULT_COUNTER_GROUPS;
	strcpy(dev_g.default_algo, def);
	rc = dev_svc_init();
	if (rc < 0) {
		state_reset();
		dev_unlock();
		return rc;
	}
	dev_g.init = 1;
	e = dev_registry_find(def);
	for (p = 0; p < dev_g.n_ports; p++) {
		if (e == NULL)
			break;
		rc = load_locked((uint8_t)p, PCC_DEV_INTERNAL_SLOT, e);
		if (rc < 0)
			DEV_LOG(WARNING, "port %u: default algorithm %s refused: %d", p, def, rc);
	}
	if (e == NULL)
		DEV_LOG(WARNING, "default algorithm %s not registered: slot 0xF unbound", def);
	dev_unlock();
	return 0;
}

void
pcc_dev_fini(void)
{
	dev_lock();
	state_reset();
	dev_unlock();
}

/* ---- Indexes and slots ----------------------------------------------- */

/* Common checks of the control calls; 0 or errno. */
static int
check_port(uint8_t port)
{
	if (!dev_g.init)
		return -ENODEV;
	if (port >= dev_g.n_ports)
		return -EINVAL;
	return 0;
}

int
dev_check_slot(uint8_t port, uint8_t slot, struct dev_slot **sp)
{
	int rc = check_port(port);

	if (rc < 0)
		return rc;
	if (!dev_slot_valid(slot))
		return -EINVAL;
	*sp = &dev_g.port[port].slot[slot];
	return (*sp)->bound ? 0 : -ENOENT;
}

int
pcc_dev_algo_load(uint8_t port, uint8_t idx, const char *name)
{
	const struct dev_entry *e;
	int rc;

	dev_lock();
	rc = check_port(port);
	if (rc == 0 && (!dev_idx_valid(idx) || name == NULL))
		rc = -EINVAL;
	if (rc == 0) {
		e = dev_registry_find(name);
		rc = e == NULL ? -ENOENT : load_locked(port, idx, e);
	}
	dev_unlock();
	return rc;
}

int
pcc_dev_algo_unload(uint8_t port, uint8_t idx)
{
	struct dev_port *P;
	uint32_t i;
	int rc;

	dev_lock();
	rc = check_port(port);
	if (rc == 0 && !dev_idx_valid(idx))
		rc = -EINVAL;
	if (rc < 0)
		goto out;
	P = &dev_g.port[port];
	if (P->idx[idx].ops == NULL) {
		rc = -ENOENT;
		goto out;
	}
	for (i = 0; i < PCC_DEV_MAX_SLOTS; i++) {
		if (P->slot[i].bound && P->slot[i].enabled && P->slot[i].attr.algo_idx == idx) {
			rc = -EBUSY;
			goto out;
		}
	}
	for (i = 0; i < DEV_NB_SLOTS; i++)
		if (P->slot[i].bound && P->slot[i].attr.algo_idx == idx)
			slot_unbind_locked(port, (uint8_t)i);
	memset(&P->idx[idx], 0, sizeof(P->idx[idx]));
out:
	dev_unlock();
	return rc;
}

int
pcc_dev_slot_bind(uint8_t port, uint8_t slot, uint8_t idx)
{
	int rc;

	dev_lock();
	rc = check_port(port);
	if (rc == 0 && (slot >= PCC_DEV_MAX_SLOTS || !dev_idx_valid(idx)))
		rc = -EINVAL;
	if (rc == 0 && dev_g.port[port].slot[slot].enabled)
		rc = -EBUSY;
	if (rc == 0)
		rc = slot_bind_locked(port, slot, idx);
	dev_unlock();
	return rc;
}

int
pcc_dev_slot_unbind(uint8_t port, uint8_t slot)
{
	struct dev_slot *s;
	int rc;

	dev_lock();
	rc = check_port(port);
	if (rc == 0 && slot >= PCC_DEV_MAX_SLOTS)
		rc = -EINVAL;
	if (rc == 0) {
		s = &dev_g.port[port].slot[slot];
		if (!s->bound)
			rc = -ENOENT;
		else if (s->enabled)
			rc = -EBUSY;
		else
			slot_unbind_locked(port, slot);
	}
	dev_unlock();
	return rc;
}

int
pcc_dev_slot_enable(uint8_t port, uint8_t slot, bool enable)
{
	struct dev_slot *s;
	int rc;

	dev_lock();
	rc = check_port(port);
	if (rc == 0 && slot >= PCC_DEV_MAX_SLOTS)
		rc = -EINVAL;
	if (rc == 0) {
		s = &dev_g.port[port].slot[slot];
		if (!s->bound) {
			rc = -ENOENT;
		} else {
			s->enabled = enable ? 1 : 0;
			port_update_mask(&dev_g.port[port]);
		}
	}
	dev_unlock();
	return rc;
}

uint8_t
pcc_dev_slot_active(uint8_t port)
{
	uint32_t m;

	if (!dev_g.init || port >= dev_g.n_ports)
		return PCC_DEV_INTERNAL_SLOT;
	m = __atomic_load_n(&dev_g.port[port].enabled_mask, __ATOMIC_ACQUIRE);
	return m ? (uint8_t)__builtin_ctz(m) : PCC_DEV_INTERNAL_SLOT;
}

const struct pcc_dev_algo_ops *
pcc_dev_slot_algo(uint8_t port, uint8_t slot, bool *enabled)
{
	struct dev_slot *s;
	const struct pcc_dev_algo_ops *ops = NULL;

	dev_lock();
	if (dev_check_slot(port, slot, &s) == 0) {
		ops = s->ops;
		if (enabled != NULL)
			*enabled = slot == PCC_DEV_INTERNAL_SLOT ? true : s->enabled != 0;
	} else if (enabled != NULL) {
		*enabled = false;
	}
	dev_unlock();
	return ops;
}

uint32_t
pcc_dev_slot_event_mask(uint8_t port, uint8_t slot)
{
	struct dev_slot *s;

	if (dev_check_slot(port, slot, &s) != 0)
		return 0;
	return s->disable_mask;
}

/* ---- Dispatch -------------------------------------------------------- */

int
pcc_dev_dispatch(uint8_t port, uint8_t slot, void *ctx, const struct pcc_dev_event *ev,
		struct pcc_dev_results *res)
{
	const struct dev_slot *s;
	struct pcc_dev_attr attr;
	void (*fn)(void *, const struct pcc_dev_event *, const struct pcc_dev_attr *,
			struct pcc_dev_results *);

	if (unlikely(port >= dev_g.n_ports || !dev_slot_valid(slot) || ctx == NULL || ev == NULL ||
			    res == NULL))
		return -EINVAL;
	s = &dev_g.port[port].slot[slot];
	fn = __atomic_load_n(&s->on_event, __ATOMIC_ACQUIRE);
	if (unlikely(fn == NULL))
		return -ENOENT;
	if (unlikely(ev->type > 31))
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	if (s->disable_mask & (1u << ev->type))
		return 1;
	attr = s->attr;
	attr.overload = dev_tls.overload;
	/* record the call for a crash report (signal handler, same thread) */
	dev_tls.cur.ev = ev;
	dev_tls.cur.ctx = ctx;
	dev_tls.cur.ops = s->ops;
	dev_tls.cur.port = port;
	dev_tls.cur.slot = slot;
	dev_tls.cur.algo_idx = attr.algo_idx;
	/* the algorithm's counters without a call per event (the template's
	 * are NULL) */
	if (s->n_counters != 0)
		attr.counters = dev_slot_counters(s);
	__atomic_store_n(&dev_tls.cur.active, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	fn(ctx, ev, &attr, res);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&dev_tls.cur.active, 0, __ATOMIC_RELAXED);
	return 0;
}

int
pcc_dev_flow_end(uint8_t port, uint8_t slot, void *ctx)
{
	const struct dev_slot *s;
	struct pcc_dev_attr attr;
	void (*fn)(void *, const struct pcc_dev_attr *);

	if (unlikely(port >= dev_g.n_ports || !dev_slot_valid(slot) || ctx == NULL))
		return -EINVAL;
	s = &dev_g.port[port].slot[slot];
	if (unlikely(__atomic_load_n(&s->on_event, __ATOMIC_ACQUIRE) == NULL))
		return -ENOENT;
	fn = __atomic_load_n(&s->on_flow_end, __ATOMIC_ACQUIRE);
	if (fn == NULL)
		return 0;
	attr = s->attr;
	attr.overload = dev_tls.overload;
	if (s->n_counters != 0)
		attr.counters = dev_slot_counters(s);
	/* algorithm code runs: a crash report names it (no event) */
	dev_tls.cur.ev = NULL;
	dev_tls.cur.ctx = ctx;
	dev_tls.cur.ops = s->ops;
	dev_tls.cur.port = port;
	dev_tls.cur.slot = slot;
	dev_tls.cur.algo_idx = attr.algo_idx;
	__atomic_store_n(&dev_tls.cur.active, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	fn(ctx, &attr);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&dev_tls.cur.active, 0, __ATOMIC_RELAXED);
	return 0;
}

const struct pcc_dev_dispatch_cur *
pcc_dev_dispatch_current(void)
{
	return &dev_tls.cur;
}

/* ---- Memory ---------------------------------------------------------- */

int
pcc_dev_mem_usage(uint8_t port, uint8_t slot, struct pcc_dev_mem_usage *u)
{
	struct dev_slot *s;
	int rc;

	if (u == NULL)
		return -EINVAL;
	dev_lock();
	rc = dev_check_slot(port, slot, &s);
	if (rc == 0)
		*u = s->mem;
	dev_unlock();
	return rc;
}

size_t
pcc_dev_mem_total(void)
{
	size_t total = 0;
	unsigned int p, s;

	dev_lock();
	if (dev_g.init) {
		total = dev_g.tset_bytes;
		for (p = 0; p < dev_g.n_ports; p++)
			for (s = 0; s < DEV_NB_SLOTS; s++)
				if (dev_g.port[p].slot[s].bound)
					total += dev_g.port[p].slot[s].mem.total_bytes;
	}
	dev_unlock();
	return total;
}

/* ---- Active flows ---------------------------------------------------- */

int
pcc_dev_active_flows_set(uint8_t port, uint8_t slot, uint32_t n)
{
	struct dev_slot *s;
	int rc = dev_check_slot(port, slot, &s);

	if (rc == 0)
		__atomic_store_n(&s->active_flows, n, __ATOMIC_RELAXED);
	return rc;
}

uint32_t
pcc_dev_active_flows(uint8_t port, uint8_t slot)
{
	struct dev_slot *s = dev_slot_get(port, slot);

	return s != NULL && s->bound ? __atomic_load_n(&s->active_flows, __ATOMIC_RELAXED) : 0;
}

const char *
pcc_dev_unit_name(uint8_t unit)
{
	static const char *const names[] = { "count", "rate", "ns", "fxp16", "bytes" };

	return unit < RTE_DIM(names) ? names[unit] : "count";
}

char *
pcc_dev_unit_format(uint8_t unit, uint64_t v, uint32_t line_gbps, char *buf, size_t len)
{
	double d = (double)v;

	switch (unit) {
	case PCC_DEV_UNIT_RATE:
		snprintf(buf, len, "%.2f Gb/s", d * line_gbps / PCC_DEV_MAX_RATE);
		break;
	case PCC_DEV_UNIT_NS:
		if (v >= 1000000)
			snprintf(buf, len, "%.3f ms", d / 1e6);
		else if (v >= 1000)
			snprintf(buf, len, "%.3f us", d / 1e3);
		else
			snprintf(buf, len, "%" PRIu64 " ns", v);
		break;
	case PCC_DEV_UNIT_FXP16:
		snprintf(buf, len, "%.4f", d / 65536.0);
		break;
	case PCC_DEV_UNIT_BYTES:
		if (v >= 1000000)
			snprintf(buf, len, "%.2f MB", d / 1e6);
		else if (v >= 1000)
			snprintf(buf, len, "%.2f KB", d / 1e3);
		else
			snprintf(buf, len, "%" PRIu64 " B", v);
		break;
	default:
		snprintf(buf, len, "%" PRIu64, v);
		break;
	}
	return buf;
}
