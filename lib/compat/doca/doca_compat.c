/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * DOCA PCC glue, linked into every DOCA plug-in (static library
 * pcc_doca_compat): the plug-in entry point that runs the application's
 * doca_pcc_dev_user_declare_memory() and doca_pcc_dev_user_init(), turns
 * what they described into lib/dev algorithms (one struct pcc_dev_algo_ops
 * per algorithm index, all calling doca_pcc_dev_user_algo()), records the
 * slot layout and the histograms for pcc_dev_plugin_apply(), and installs
 * doca_pcc_dev_np_user_packet_handler() as the NP handler.  Also the DOCA
 * calls that are not inline in the headers.
 *
 * Each plug-in has its own copy of this state (static library, objects
 * loaded RTLD_LOCAL).  The DOCA calls an application makes are in
 * doca_compat_desc.c, _hist.c and _run.c.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "doca_compat_internal.h"

/* The application's callbacks: all optional for the linker. */
#pragma weak doca_pcc_dev_user_init
#pragma weak doca_pcc_dev_user_algo
#pragma weak doca_pcc_dev_user_set_algo_params
#pragma weak doca_pcc_dev_np_user_packet_handler

_Static_assert(PCC_DEV_MAX_ALGOS == 8, "one trampoline per algorithm index");

extern const uint32_t pcc_plugin_abi_version;

int doca_logtype = RTE_LOGTYPE_USER1;
enum doca_phase doca_phase;
int doca_err;
char doca_errmsg[256];
struct doca_algo doca_algos[PCC_DEV_MAX_ALGOS];
struct doca_slot_map doca_layout[PCC_DEV_MAX_PORTS][PCC_DEV_MAX_SLOTS];
uint32_t doca_decl_groups;
uint32_t doca_decl_hists;
struct pcc_doca_histogram doca_hists[PCC_DEV_MAX_PORTS][PCC_DEV_MAX_HISTS];
__thread struct doca_cur doca_cur;

static uint32_t doca_disable_mask;

/* ---- lib/dev callbacks of the registered algorithms ----------------------------------- */

static int
doca_op_init(uint8_t port, uint8_t slot, uint32_t *disable_mask)
{
	RTE_SET_USED(port);
	RTE_SET_USED(slot);
	/* DOCA has no timer events */
	*disable_mask |= doca_disable_mask | PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_TIMER);
	return 0;
}

void
doca_op_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	doca_pcc_dev_results_t r;
	doca_pcc_dev_attr_t a;

	memset(&r, 0, sizeof(r));
	memset(&a, 0, sizeof(a));
	a.algo_slot = attr->algo_slot & 0xfu;
	a.overload = attr->overload != 0;
	doca_cur.port = attr->port;
	doca_cur.slot = attr->algo_slot;
	doca_cur.res_flags = 0;
	doca_cur.in_algo = 1;
	doca_pcc_dev_user_algo((doca_pcc_dev_algo_ctxt_t *)ctx,
			(doca_pcc_dev_event_t *)(uintptr_t)ev, &a, &r);
	doca_cur.in_algo = 0;
	res->rate = r.rate;
	res->rtt_req = r.rtt_req != 0;
	res->probe_slot = (uint8_t)r.probe_type_slot;
	/* credits: the flow's window in bytes (window-based CC); a reload
	 * also grants them now, whatever is unacknowledged */
	if (r.credits != 0) {
		res->window = r.credits;
		res->credits = r.reload_credits != 0 ? r.credits : 0;
	}
	/* this flow's probe requests (doca_pcc_dev_custom_header_set,
	 * doca_pcc_dev_probe_prio_set), applied by the engine */
	res->flags = doca_cur.res_flags;
	res->probe_dscp = doca_cur.probe_dscp;
	if (doca_cur.res_flags & PCC_DEV_RES_F_PROBE_CUSTOM) {
		res->custom_hdr = doca_cur.custom;
		res->custom_len = doca_cur.custom_len;
	}
}

static int
doca_op_set_params(uint8_t port, uint8_t slot, uint32_t id_base, uint32_t num,
		const uint32_t *new_values, uint32_t *params)
{
	uint32_t old[PCC_DEV_MAX_PARAMS];
	doca_pcc_dev_error_t st;
	uint32_t i;

	if (num > PCC_DEV_MAX_PARAMS || id_base > PCC_DEV_MAX_PARAMS - num)
		return -EINVAL;
	memcpy(old, &params[id_base], num * sizeof(uint32_t));
	if (doca_pcc_dev_user_set_algo_params != NULL) {
		st = doca_pcc_dev_user_set_algo_params(
				port, slot, id_base, num, new_values, &params[id_base]);
		if (st != DOCA_PCC_DEV_STATUS_OK) {
			memcpy(&params[id_base], old, num * sizeof(uint32_t));
			return -EINVAL;
		}
	}
	/* values the callback did not assign itself */
	for (i = 0; i < num; i++)
		if (params[id_base + i] == old[i])
			params[id_base + i] = new_values[i];
	return 0;
}

static int
doca_op_mailbox(const void *req, uint32_t req_len, void *resp, uint32_t resp_cap)
{
	uint32_t n = 0;

	if (doca_pcc_dev_user_mailbox_handle((void *)(uintptr_t)req, req_len, resp_cap, resp, &n) !=
			DOCA_PCC_DEV_STATUS_OK)
		return -EIO;
	n = RTE_MIN(n, resp_cap);
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

static bool
doca_bound_on_port(uint8_t port, const struct pcc_dev_algo_ops *ops)
{
	uint8_t s;

	for (s = 0; s < PCC_DEV_MAX_SLOTS; s++)
		if (pcc_dev_slot_algo(port, s, NULL) == ops)
			return true;
	return pcc_dev_slot_algo(port, PCC_DEV_INTERNAL_SLOT, NULL) == ops;
}

/*
 * lib/dev calls port_info_changed once per algorithm index loaded on the
 * port; DOCA calls the application once: only the lowest of this plug-in's
 * algorithms in use on the port forwards.
 */
static void
doca_port_info(uint32_t idx, uint8_t port)
{
	uint32_t j;

	for (j = 0; j < idx; j++)
		if (doca_algos[j].registered && doca_bound_on_port(port, &doca_algos[j].ops))
			return;
	doca_pcc_dev_user_port_info_changed(port);
}

static void
doca_declare(uint32_t idx, struct pcc_dev_mem_decl *decl)
{
	const struct doca_algo *a = &doca_algos[idx];
	uint32_t p, slots = 0;

	/* only ever more than lib/dev derived from the tables */
	if (a->declared) {
		decl->n_params = RTE_MAX(decl->n_params, a->decl_params);
		decl->n_counters = RTE_MAX(decl->n_counters, a->decl_counters);
	}
	for (p = 0; p < PCC_DEV_MAX_PORTS; p++)
		slots = RTE_MAX(slots, (uint32_t)__builtin_popcount(a->decl_slot_mask[p]));
	if (slots > 0)
		decl->n_slots = RTE_MIN(decl->n_slots, slots);
	decl->n_counter_groups = RTE_MAX(decl->n_counter_groups, doca_decl_groups);
	decl->n_histograms = RTE_MAX(decl->n_histograms, doca_decl_hists);
}

#define DOCA_TRAMPOLINES(i)                                         \
	static void doca_port_info_##i(uint8_t port)                \
	{                                                           \
		doca_port_info(i, port);                            \
	}                                                           \
	static void doca_declare_##i(struct pcc_dev_mem_decl *decl) \
	{                                                           \
		doca_declare(i, decl);                              \
	}
DOCA_TRAMPOLINES(0)
DOCA_TRAMPOLINES(1)
DOCA_TRAMPOLINES(2)
DOCA_TRAMPOLINES(3)
DOCA_TRAMPOLINES(4)
DOCA_TRAMPOLINES(5)
DOCA_TRAMPOLINES(6)
DOCA_TRAMPOLINES(7)

static void (*const doca_port_info_fn[PCC_DEV_MAX_ALGOS])(uint8_t) = {
	doca_port_info_0,
	doca_port_info_1,
	doca_port_info_2,
	doca_port_info_3,
	doca_port_info_4,
	doca_port_info_5,
	doca_port_info_6,
	doca_port_info_7,
};

static void (*const doca_declare_fn[PCC_DEV_MAX_ALGOS])(struct pcc_dev_mem_decl *) = {
	doca_declare_0,
	doca_declare_1,
	doca_declare_2,
	doca_declare_3,
	doca_declare_4,
	doca_declare_5,
	doca_declare_6,
	doca_declare_7,
};

/* ---- NP ----------------------------------------------------------------------------- */

static int
doca_np_handler(const struct pcc_np_pkt *in, struct pcc_np_resp *out)
{
	struct doca_pcc_np_dev_response_packet r;

	r.size = PCC_NP_RESP_MAX;
	r.data = out->data;
	r.in = (struct doca_pcc_np_dev_request_packet *)(uintptr_t)in;
	r.pcc_resp = out;
	if (doca_pcc_dev_np_user_packet_handler(r.in, &r) != DOCA_PCC_DEV_STATUS_OK)
		return -EIO;
	out->len = PCC_NP_RESP_MAX;
	return 0;
}

/* ---- The plug-in entry point ---------------------------------------------------------- */

static void
doca_reset(void)
{
	memset(doca_algos, 0, sizeof(doca_algos));
	memset(doca_layout, 0, sizeof(doca_layout));
	memset(doca_hists, 0, sizeof(doca_hists));
	doca_disable_mask = 0;
	doca_decl_groups = 0;
	doca_decl_hists = 0;
	doca_err = 0;
	doca_errmsg[0] = '\0';
	doca_nic_reset();
}

static void
doca_build_ops(struct doca_algo *a, uint32_t idx, const char *plugin)
{
	struct pcc_dev_algo_ops *o = &a->ops;

	snprintf(a->name, sizeof(a->name), "%.*s_%u", (int)(PCC_DEV_NAME_MAX - 3), plugin, idx);
	o->name = a->name;
	o->desc = a->desc;
	o->ctx_size = PCC_DEV_CTX_SIZE;
	o->params = a->params;
	o->counters = a->counters;
	o->hist_ids = a->n_hist_ids > 0 ? a->hist_ids : NULL;
	o->n_hist_ids = a->n_hist_ids;
	o->init = doca_op_init;
	o->on_event = doca_op_on_event;
	o->set_params = doca_op_set_params;
	o->mailbox = doca_pcc_dev_user_mailbox_handle != NULL ? doca_op_mailbox : NULL;
	o->port_info_changed =
			doca_pcc_dev_user_port_info_changed != NULL ? doca_port_info_fn[idx] : NULL;
	o->declare_memory = doca_declare_fn[idx];
}

int
pcc_plugin_init(struct pcc_plugin *pl)
{
	const char *name = pcc_plugin_get_name(pl);
	uint32_t mask = 0, i, p, s;
	int lt, rc;

	doca_reset();
	lt = rte_log_register_type_and_pick_level("pcc.doca", RTE_LOG_INFO);
	if (lt >= 0)
		doca_logtype = lt;
	if (pcc_plugin_abi_version != PCC_PLUGIN_ABI_VERSION || name == NULL) {
		pcc_plugin_set_error(pl, "DOCA glue built for another plug-in ABI");
		return -ENOTSUP;
	}
	if (doca_pcc_dev_user_init != NULL && doca_pcc_dev_user_algo == NULL) {
		pcc_plugin_set_error(pl, "doca_pcc_dev_user_init without doca_pcc_dev_user_algo");
		return -ENOSYS;
	}
	doca_phase = DOCA_PHASE_DECLARE;
	if (doca_pcc_dev_user_declare_memory != NULL)
		doca_pcc_dev_user_declare_memory();
	doca_phase = DOCA_PHASE_INIT;
	if (doca_pcc_dev_user_init != NULL)
		doca_pcc_dev_user_init(&mask);
	doca_phase = DOCA_PHASE_RUN;
	doca_disable_mask = mask;
	if (doca_err != 0) {
		pcc_plugin_set_error(pl, "%s", doca_errmsg);
		return doca_err;
	}
	for (i = 0; i < PCC_DEV_MAX_ALGOS; i++) {
		if (!doca_algos[i].described)
			continue;
		doca_build_ops(&doca_algos[i], i, name);
		rc = pcc_plugin_add_algo(pl, &doca_algos[i].ops);
		if (rc < 0)
			return rc;
		doca_algos[i].registered = true;
	}
	for (p = 0; p < PCC_DEV_MAX_PORTS; p++) {
		for (s = 0; s < PCC_DEV_MAX_SLOTS; s++) {
			const struct doca_slot_map *m = &doca_layout[p][s];

			if (!m->used)
				continue;
			rc = pcc_plugin_add_slot(pl, (uint8_t)p, (uint8_t)s, m->idx,
					doca_algos[m->idx].name, m->enable != 0);
			if (rc < 0)
				return rc;
		}
	}
	if (doca_pcc_dev_np_user_packet_handler != NULL) {
		rc = pcc_plugin_set_np_handler(pl, doca_np_handler);
		/* an NP application's mailbox (doca_pcc_np_create() +
		 * doca_pcc_mailbox_send() on DOCA): the NP context's */
		if (rc == 0 && doca_pcc_dev_user_mailbox_handle != NULL)
			rc = pcc_plugin_set_np_mailbox(pl, doca_op_mailbox);
		if (rc < 0)
			return rc;
	}
	return pcc_plugin_set_apply(pl, doca_hist_apply, NULL);
}
