/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * libmango plug-in glue, linked into every mango plug-in (static library
 * pcc_mango_plugin, pkg-config pcc-mango-plugin): dpdk-pcc's plug-in
 * entry point.  It reads the plug-in's `mango_pcc_algo_plugin` object and
 * registers one lib/dev algorithm named as the plug-in says; wherever
 * that algorithm is bound (a logical port and slot) a runtime of its own
 * follows the QPs and calls the plug-in's function every interval
 * (dpdk-pcc --timer-us).
 *
 * Built with hidden visibility: a plug-in's calls (mango_pcc_window_
 * update() ...) bind to its own copy of the runtime, even inside a
 * program that also links libpcc_mango.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "mango_rt.h"
#include "pcc_dev_plugin.h"

/* The plug-in's object: optional for the linker, checked at load. */
#pragma weak mango_pcc_algo_plugin
extern const mango_pcc_algo_plugin_t mango_pcc_algo_plugin;

/* in mango_plugin_abi.c, unless the plug-in declares it itself */
extern const uint32_t pcc_plugin_abi_version;

/* runtimes by logical port and slot (0..7, 8 for 0xF) */
#define NB_SLOTS (PCC_DEV_MAX_SLOTS + 1)
static struct mango_rt *inst[PCC_DEV_MAX_PORTS][NB_SLOTS];

static char plug_name[PCC_DEV_NAME_MAX];
static char plug_desc[PCC_DEV_DESC_MAX];
static void *tmpl;       /* the plug-in's initial parameters */
static size_t tmpl_size; /* their size */
static struct pcc_dev_algo_ops plug_ops;

static inline unsigned int
slot_index(uint8_t slot)
{
	return slot == PCC_DEV_INTERNAL_SLOT ? PCC_DEV_MAX_SLOTS : slot;
}

static struct mango_rt *
rt_of(const struct pcc_dev_attr *attr)
{
	unsigned int s = slot_index(attr->algo_slot);

	if (attr->port >= PCC_DEV_MAX_PORTS || s >= NB_SLOTS)
		return NULL;
	return __atomic_load_n(&inst[attr->port][s], __ATOMIC_ACQUIRE);
}

/* Placed at a port and slot: a runtime for the QPs there (new or reset). */
static int
plug_init(uint8_t port, uint8_t slot, uint32_t *disable_mask)
{
	const mango_pcc_algo_plugin_t *p = &mango_pcc_algo_plugin;
	unsigned int s = slot_index(slot);
	struct mango_algo *a;
	struct mango_rt *rt;
	char name[48];

	if (port >= PCC_DEV_MAX_PORTS || s >= NB_SLOTS)
		return -EINVAL;
	rt = inst[port][s];
	if (rt != NULL) {
		/* bound again: nothing runs it meanwhile (lib/dev's rule) */
		mango_rt_reset(rt);
	} else {
		snprintf(name, sizeof(name), "%s port %u slot %u", plug_name, port, slot);
		rt = mango_rt_create(name);
		a = mango_rt_algo_new(
				p->algo_fn, p->algo_event_fn, p->required_metrics, tmpl, tmpl_size);
		if (rt == NULL || a == NULL) {
			mango_rt_free(rt);
			mango_rt_algo_free(a);
			return -ENOMEM;
		}
		mango_rt_algo_swap(rt, 0, a);
		rt->default_slot = 0;
		__atomic_store_n(&inst[port][s], rt, __ATOMIC_RELEASE);
	}
	mango_rt_disable_mask(disable_mask);
	return 0;
}

static void
plug_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	struct mango_rt *rt = rt_of(attr);

	if (likely(rt != NULL))
		mango_rt_event(rt, ctx, ev, attr, res);
}

static void
plug_on_flow_end(void *ctx, const struct pcc_dev_attr *attr)
{
	struct mango_rt *rt = rt_of(attr);

	if (rt != NULL)
		mango_rt_flow_end(rt, ctx);
}

/* [a-z0-9_], 1..31 characters: lib/dev's algorithm names. */
static bool
name_ok(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++, n++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return n > 0 && n < PCC_DEV_NAME_MAX;
}

PCC_PLUGIN_EXTERN_C PCC_PLUGIN_EXPORT int pcc_plugin_init(struct pcc_plugin *pl);
PCC_PLUGIN_EXTERN_C PCC_PLUGIN_EXPORT void pcc_plugin_fini(void);

int
pcc_plugin_init(struct pcc_plugin *pl)
{
	const mango_pcc_algo_plugin_t *p = &mango_pcc_algo_plugin;

	if (pcc_plugin_abi_version != PCC_PLUGIN_ABI_VERSION) {
		/* the loader checked it already: a plug-in of its own making */
		pcc_plugin_set_error(pl, "pcc_plugin_abi_version 0x%x is not 0x%x",
				pcc_plugin_abi_version, PCC_PLUGIN_ABI_VERSION);
		return -ENOTSUP;
	}
	if (p == NULL) {
		pcc_plugin_set_error(pl,
				"no mango_pcc_algo_plugin object: a mango plug-in defines "
				"mango_pcc_algo_plugin_t mango_pcc_algo_plugin");
		return -ENOSYS;
	}
	if (p->name == NULL || !name_ok(p->name)) {
		pcc_plugin_set_error(pl,
				"mango_pcc_algo_plugin.name '%.40s' is not 1..31 characters of "
				"[a-z0-9_]",
				p->name != NULL ? p->name : "(null)");
		return -EINVAL;
	}
	if (p->algo_fn == NULL && p->algo_event_fn == NULL) {
		pcc_plugin_set_error(pl, "mango plug-in %s has neither algo_fn nor algo_event_fn",
				p->name);
		return -ENOSYS;
	}
	if (p->required_metrics & ~(uint32_t)MANGO_PCC_METRIC_ALL) {
		pcc_plugin_set_error(pl,
				"mango plug-in %s: required_metrics 0x%x has unknown bits 0x%x",
				p->name, p->required_metrics,
				p->required_metrics & ~(uint32_t)MANGO_PCC_METRIC_ALL);
		return -EINVAL;
	}
	tmpl = NULL;
	tmpl_size = 0;
	if (p->init_params != NULL) {
		tmpl = p->init_params(&tmpl_size);
		if (tmpl_size > MANGO_PCC_PARAMS_SIZE_MAX || (tmpl == NULL && tmpl_size > 0)) {
			pcc_plugin_set_error(pl,
					"mango plug-in %s: init_params gave %s of %zu bytes (at "
					"most %u)",
					p->name, tmpl == NULL ? "NULL" : "parameters", tmpl_size,
					MANGO_PCC_PARAMS_SIZE_MAX);
			pcc_plugin_fini();
			return -EINVAL;
		}
		if (tmpl == NULL)
			tmpl_size = 0;
	}
	snprintf(plug_name, sizeof(plug_name), "%s", p->name);
	snprintf(plug_desc, sizeof(plug_desc), "%s",
			p->desc != NULL ? p->desc : "libmango PCC algorithm plug-in");
	plug_ops = (struct pcc_dev_algo_ops){
		.name = plug_name,
		.desc = plug_desc,
		.ctx_size = sizeof(struct mango_flow),
		.counters = mango_rt_counters,
		.n_counters = MANGO_CTR_NB,
		.init = plug_init,
		.on_event = plug_on_event,
		.on_flow_end = plug_on_flow_end,
	};
	return pcc_plugin_add_algo(pl, &plug_ops);
}

void
pcc_plugin_fini(void)
{
	const mango_pcc_algo_plugin_t *p = &mango_pcc_algo_plugin;
	unsigned int port, s;

	/* the algorithm is unloaded everywhere: no worker runs it */
	for (port = 0; port < PCC_DEV_MAX_PORTS; port++) {
		for (s = 0; s < NB_SLOTS; s++) {
			mango_rt_free(inst[port][s]);
			inst[port][s] = NULL;
		}
	}
	if (tmpl != NULL && p != NULL && p->destroy_params != NULL)
		p->destroy_params(tmpl);
	tmpl = NULL;
	tmpl_size = 0;
}
