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
 * loaded RTLD_LOCAL).
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_log.h>

#include <pcc_dev_plugin.h>

#include "doca_pcc_dev.h"
#include "doca_pcc_np_dev.h"

/* The application's callbacks: all optional for the linker. */
#pragma weak doca_pcc_dev_user_init
#pragma weak doca_pcc_dev_user_algo
#pragma weak doca_pcc_dev_user_set_algo_params
#pragma weak doca_pcc_dev_np_user_packet_handler

_Static_assert(PCC_DEV_MAX_ALGOS == 8, "one trampoline per algorithm index");

extern const uint32_t pcc_plugin_abi_version;

#define DOCA_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, doca_logtype, "pcc.doca: " fmt "\n", ##__VA_ARGS__)

enum doca_phase {
	DOCA_PHASE_RUN = 0, /* after load: description calls refused */
	DOCA_PHASE_DECLARE, /* doca_pcc_dev_user_declare_memory() */
	DOCA_PHASE_INIT,    /* doca_pcc_dev_user_init() */
};

struct doca_algo {
	bool described;
	bool registered;
	bool declared; /* doca_pcc_dev_declare_algo */
	uint32_t decl_params;
	uint32_t decl_counters;
	uint16_t decl_slot_mask[PCC_DEV_MAX_PORTS]; /* doca_pcc_dev_declare_slot_algo */
	char name[PCC_DEV_NAME_MAX];
	char desc[PCC_DEV_DESC_MAX];
	struct pcc_dev_param_desc params[PCC_DEV_MAX_PARAMS];
	char pname[PCC_DEV_MAX_PARAMS][PCC_DEV_NAME_MAX];
	char pdesc[PCC_DEV_MAX_PARAMS][PCC_DEV_DESC_MAX];
	struct pcc_dev_counter_desc counters[PCC_DEV_MAX_COUNTERS];
	char cname[PCC_DEV_MAX_COUNTERS][PCC_DEV_NAME_MAX];
	char cdesc[PCC_DEV_MAX_COUNTERS][PCC_DEV_DESC_MAX];
	uint8_t hist_ids[PCC_DEV_MAX_HISTS];
	uint32_t n_hist_ids;
	struct pcc_dev_algo_ops ops;
};

struct doca_slot_map {
	uint8_t used;
	uint8_t idx;
	uint8_t enable;
};

struct pcc_doca_histogram {
	uint8_t used;
	uint8_t pending;        /* configured before the device existed */
	uint8_t enable_pending; /* enable once applied */
	uint8_t port;
	uint8_t id;
	uint32_t edges[PCC_DEV_HIST_MAX_BINS];
	struct pcc_dev_hist_conf conf;
	char desc[PCC_DEV_DESC_MAX];
};

struct doca_cur {
	uint8_t in_algo;
	uint8_t port;
	uint8_t slot;
};

static int doca_logtype = RTE_LOGTYPE_USER1;
static enum doca_phase doca_phase;
static int doca_err;
static char doca_errmsg[256];
static struct doca_algo doca_algos[PCC_DEV_MAX_ALGOS];
static struct doca_slot_map doca_layout[PCC_DEV_MAX_PORTS][PCC_DEV_MAX_SLOTS];
static uint32_t doca_disable_mask;
static uint32_t doca_decl_groups;
static uint32_t doca_decl_hists;
static struct pcc_doca_histogram doca_hists[PCC_DEV_MAX_PORTS][PCC_DEV_MAX_HISTS];
static uint32_t doca_zero_params[PCC_DEV_MAX_PARAMS];
static __thread uint32_t doca_scratch_counters[PCC_DEV_MAX_COUNTERS];
static __thread struct doca_cur doca_cur;

/* NIC counters: DOCA's configuration is process-wide, lib/dev's per thread. */
static uint32_t *doca_nic_ids;
static uint32_t *doca_nic_values;
static uint32_t doca_nic_n;
static uint32_t doca_nic_gen;
static __thread uint32_t doca_nic_tls_gen;

/* ---- Errors of the description calls --------------------------------------------- */

static doca_pcc_dev_error_t __attribute__((format(printf, 1, 2))) doca_fail(const char *fmt, ...)
{
	char msg[sizeof(doca_errmsg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (doca_phase != DOCA_PHASE_RUN && doca_err == 0) {
		doca_err = -EINVAL;
		snprintf(doca_errmsg, sizeof(doca_errmsg), "%s", msg);
	}
	DOCA_LOG(ERR, "%s", msg);
	return DOCA_PCC_DEV_STATUS_FAIL;
}

static bool
doca_describing(const char *what)
{
	if (doca_phase == DOCA_PHASE_RUN) {
		doca_fail("%s: only from doca_pcc_dev_user_init() or _declare_memory()", what);
		return false;
	}
	return true;
}

static struct doca_algo *
doca_described(uint32_t algo_idx, const char *what)
{
	if (algo_idx >= PCC_DEV_MAX_ALGOS || !doca_algos[algo_idx].described) {
		doca_fail("%s: algorithm index %u not described (doca_pcc_dev_algo_init_metadata "
			  "first)",
				what, algo_idx);
		return NULL;
	}
	return &doca_algos[algo_idx];
}

/* Copy a DOCA description string (address + size, maybe not terminated). */
static void
doca_copy_desc(char *dst, size_t len, uint64_t addr, uint32_t size)
{
	const char *src = (const char *)(uintptr_t)addr;
	size_t n;

	dst[0] = '\0';
	if (src == NULL || size == 0)
		return;
	n = strnlen(src, RTE_MIN((size_t)size, len - 1));
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Name from a description: its leading run of [A-Za-z0-9_.], else
 * "<prefix>_<id>"; made unique among names[0..n).
 */
static void
doca_make_name(char *dst, const char *desc, const char *prefix, uint32_t id,
		char (*names)[PCC_DEV_NAME_MAX], uint32_t n)
{
	uint32_t i, k = 0;

	while (k + 1 < PCC_DEV_NAME_MAX &&
			((desc[k] >= 'a' && desc[k] <= 'z') || (desc[k] >= 'A' && desc[k] <= 'Z') ||
					(desc[k] >= '0' && desc[k] <= '9') || desc[k] == '_' ||
					desc[k] == '.')) {
		dst[k] = desc[k];
		k++;
	}
	dst[k] = '\0';
	if (k == 0)
		snprintf(dst, PCC_DEV_NAME_MAX, "%s_%u", prefix, id);
	for (i = 0; i < n; i++) {
		if (i != id && strcmp(names[i], dst) == 0) {
			char base[PCC_DEV_NAME_MAX];

			snprintf(base, sizeof(base), "%s", dst);
			snprintf(dst, PCC_DEV_NAME_MAX, "%.24s_%u", base, id);
			break;
		}
	}
}

/* ---- Description ------------------------------------------------------------------ */

doca_pcc_dev_error_t
doca_pcc_dev_algo_init_metadata(uint32_t algo_idx,
		const struct doca_pcc_dev_algo_meta_data *user_def, uint32_t param_num,
		uint32_t counter_num)
{
	struct doca_algo *a;
	uint32_t i;

	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (algo_idx >= PCC_DEV_MAX_ALGOS || user_def == NULL)
		return doca_fail("%s: algorithm index %u (0..%u) or NULL metadata", __func__,
				algo_idx, PCC_DEV_MAX_ALGOS - 1);
	if (param_num > PCC_DEV_MAX_PARAMS || counter_num > PCC_DEV_MAX_COUNTERS)
		return doca_fail("%s: algorithm %u: %u parameters (<= %u), %u counters (<= %u)",
				__func__, algo_idx, param_num, PCC_DEV_MAX_PARAMS, counter_num,
				PCC_DEV_MAX_COUNTERS);
	a = &doca_algos[algo_idx];
	memset(a->params, 0, sizeof(a->params));
	memset(a->counters, 0, sizeof(a->counters));
	a->described = true;
	a->ops.id = user_def->algo_id;
	a->ops.major = (uint16_t)user_def->algo_major_version;
	a->ops.minor = (uint16_t)user_def->algo_minor_version;
	doca_copy_desc(a->desc, sizeof(a->desc), user_def->algo_desc_addr,
			user_def->algo_desc_size);
	a->ops.n_params = param_num;
	a->ops.n_counters = counter_num;
	for (i = 0; i < param_num; i++) {
		snprintf(a->pname[i], sizeof(a->pname[i]), "param_%u", i);
		a->pdesc[i][0] = '\0';
		a->params[i] = (struct pcc_dev_param_desc){ .id = i,
			.name = a->pname[i],
			.def = 0,
			.min = 0,
			.max = UINT32_MAX,
			.perm = PCC_DEV_PERM_RW,
			.desc = a->pdesc[i] };
	}
	for (i = 0; i < counter_num; i++) {
		snprintf(a->cname[i], sizeof(a->cname[i]), "counter_%u", i);
		a->cdesc[i][0] = '\0';
		a->counters[i] = (struct pcc_dev_counter_desc){ .id = i,
			.name = a->cname[i],
			.max = 0,
			.type = PCC_DEV_COUNTER_ACCUMULATE,
			.perm = PCC_DEV_PERM_RW,
			.desc = a->cdesc[i] };
	}
	return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t
doca_pcc_dev_algo_init_param(uint32_t algo_idx, uint32_t param_id, uint32_t default_value,
		uint32_t max_value, uint32_t min_value, uint32_t permissions,
		uint32_t param_desc_size, uint64_t param_desc_addr)
{
	struct pcc_dev_param_desc *p;
	struct doca_algo *a;

	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	a = doca_described(algo_idx, __func__);
	if (a == NULL)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (param_id >= a->ops.n_params)
		return doca_fail("%s: algorithm %u has %u parameters, no id %u", __func__, algo_idx,
				a->ops.n_params, param_id);
	if (min_value > max_value || default_value < min_value || default_value > max_value ||
			permissions > PCC_DEV_PERM_RW)
		return doca_fail("%s: algorithm %u parameter %u: default %u not in [%u, %u] or "
				 "permission %u",
				__func__, algo_idx, param_id, default_value, min_value, max_value,
				permissions);
	p = &a->params[param_id];
	doca_copy_desc(a->pdesc[param_id], sizeof(a->pdesc[param_id]), param_desc_addr,
			param_desc_size);
	doca_make_name(a->pname[param_id], a->pdesc[param_id], "param", param_id, a->pname,
			a->ops.n_params);
	p->def = default_value;
	p->min = min_value;
	p->max = max_value;
	p->perm = (uint8_t)permissions;
	return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t
doca_pcc_dev_algo_init_counter(uint32_t algo_idx, uint32_t counter_id, uint32_t max_value,
		uint32_t permissions, uint32_t counter_desc_size, uint64_t counter_desc_addr)
{
	struct pcc_dev_counter_desc *c;
	struct doca_algo *a;

	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	a = doca_described(algo_idx, __func__);
	if (a == NULL)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (counter_id >= a->ops.n_counters || permissions > PCC_DEV_PERM_RW)
		return doca_fail("%s: algorithm %u has %u counters, no id %u (or permission %u)",
				__func__, algo_idx, a->ops.n_counters, counter_id, permissions);
	c = &a->counters[counter_id];
	doca_copy_desc(a->cdesc[counter_id], sizeof(a->cdesc[counter_id]), counter_desc_addr,
			counter_desc_size);
	doca_make_name(a->cname[counter_id], a->cdesc[counter_id], "counter", counter_id, a->cname,
			a->ops.n_counters);
	c->max = max_value;
	c->perm = (uint8_t)permissions;
	return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t
doca_pcc_dev_set_counter_type(uint32_t algo_idx, uint32_t counter_id, uint32_t type)
{
	struct doca_algo *a;

	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	a = doca_described(algo_idx, __func__);
	if (a == NULL)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (counter_id >= a->ops.n_counters || type > DOCA_PCC_DEV_COUNTER_TYPE_MAX)
		return doca_fail("%s: algorithm %u counter %u type %u", __func__, algo_idx,
				counter_id, type);
	a->counters[counter_id].type = (uint8_t)type;
	return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t
doca_pcc_dev_algo_register_hist_ids(
		uint32_t algo_idx, const uint32_t *hist_ids, uint32_t num_hist_ids)
{
	struct doca_algo *a;
	uint32_t i;

	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	a = doca_described(algo_idx, __func__);
	if (a == NULL)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (num_hist_ids > PCC_DEV_MAX_HISTS || (num_hist_ids > 0 && hist_ids == NULL))
		return doca_fail("%s: %u histogram ids (<= %u)", __func__, num_hist_ids,
				PCC_DEV_MAX_HISTS);
	for (i = 0; i < num_hist_ids; i++) {
		if (hist_ids[i] >= PCC_DEV_MAX_HISTS)
			return doca_fail("%s: histogram id %u (< %u)", __func__, hist_ids[i],
					PCC_DEV_MAX_HISTS);
		a->hist_ids[i] = (uint8_t)hist_ids[i];
	}
	a->n_hist_ids = num_hist_ids;
	return DOCA_PCC_DEV_STATUS_OK;
}

/* Slot argument: plain, or DOCA_PCC_DEV_ALGO_SLOT(RP, slot). */
static bool
doca_rp_slot(uint32_t algo_slot, uint8_t *slot)
{
	uint32_t s = algo_slot & 0xffffu;

	if ((algo_slot >> 16) != DOCA_PCC_DEV_TARGET_APP_RP)
		return false;
	if (s >= PCC_DEV_MAX_SLOTS && s != PCC_DEV_INTERNAL_SLOT)
		return false;
	*slot = (uint8_t)s;
	return true;
}

doca_pcc_dev_error_t
doca_pcc_dev_init_algo_slot(
		uint32_t portid, uint32_t algo_slot, uint32_t algo_idx, uint32_t algo_en)
{
	uint8_t slot;

	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (doca_described(algo_idx, __func__) == NULL)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (portid >= PCC_DEV_MAX_PORTS || !doca_rp_slot(algo_slot, &slot) ||
			slot >= PCC_DEV_MAX_SLOTS)
		return doca_fail("%s: port %u (< %u) or slot 0x%x (RP 0..%u)", __func__, portid,
				PCC_DEV_MAX_PORTS, algo_slot, PCC_DEV_MAX_SLOTS - 1);
	doca_layout[portid][slot] = (struct doca_slot_map){
		.used = 1, .idx = (uint8_t)algo_idx, .enable = algo_en != 0
	};
	return DOCA_PCC_DEV_STATUS_OK;
}

/* ---- Memory declaration ------------------------------------------------------------ */

doca_pcc_dev_error_t
doca_pcc_dev_declare_algo(uint32_t algo_idx, uint32_t param_num, uint32_t counter_num)
{
	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (algo_idx >= PCC_DEV_MAX_ALGOS || param_num > PCC_DEV_MAX_PARAMS ||
			counter_num > PCC_DEV_MAX_COUNTERS)
		return doca_fail("%s: algorithm %u, %u parameters, %u counters", __func__, algo_idx,
				param_num, counter_num);
	doca_algos[algo_idx].declared = true;
	doca_algos[algo_idx].decl_params = param_num;
	doca_algos[algo_idx].decl_counters = counter_num;
	return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t
doca_pcc_dev_declare_slot_algo(uint32_t port_num, uint32_t algo_slot, uint8_t algo_idx)
{
	uint8_t slot;

	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (algo_idx == DOCA_PCC_DEV_SLOT_UNASSIGNED)
		return DOCA_PCC_DEV_STATUS_OK;
	if (port_num >= PCC_DEV_MAX_PORTS || algo_idx >= PCC_DEV_MAX_ALGOS ||
			!doca_rp_slot(algo_slot, &slot))
		return doca_fail("%s: port %u slot 0x%x algorithm %u", __func__, port_num,
				algo_slot, algo_idx);
	doca_algos[algo_idx].decl_slot_mask[port_num] |= (uint16_t)(1u << slot);
	return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t
doca_pcc_dev_declare_num_counter_groups(uint32_t num_counter_groups)
{
	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (num_counter_groups < DOCA_PCC_DEV_MIN_NUM_COUNTER_GROUP ||
			num_counter_groups > DOCA_PCC_DEV_MAX_NUM_COUNTER_GROUP)
		return doca_fail("%s: %u counter groups (%u..%u)", __func__, num_counter_groups,
				DOCA_PCC_DEV_MIN_NUM_COUNTER_GROUP,
				DOCA_PCC_DEV_MAX_NUM_COUNTER_GROUP);
	doca_decl_groups = num_counter_groups;
	return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t
doca_pcc_dev_declare_num_of_histograms(uint32_t num_histograms)
{
	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (num_histograms > DOCA_PCC_DEV_MAX_NUM_HISTOGRAMS)
		return doca_fail("%s: %u histograms (<= %u)", __func__, num_histograms,
				DOCA_PCC_DEV_MAX_NUM_HISTOGRAMS);
	doca_decl_hists = num_histograms;
	return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t
doca_pcc_dev_declare_threads_per_counter_set(uint32_t threads_per_counter_set)
{
	if (!doca_describing(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (threads_per_counter_set < 1 ||
			threads_per_counter_set > doca_pcc_dev_get_max_threads_per_counter_set())
		return doca_fail("%s: %u threads per counter set (1..%u)", __func__,
				threads_per_counter_set,
				doca_pcc_dev_get_max_threads_per_counter_set());
	return DOCA_PCC_DEV_STATUS_OK;
}

uint32_t
doca_pcc_dev_get_max_threads_per_counter_set(void)
{
	return PCC_DEV_MAX_THREADS;
}

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

static void
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
	doca_cur.in_algo = 1;
	doca_pcc_dev_user_algo((doca_pcc_dev_algo_ctxt_t *)ctx,
			(doca_pcc_dev_event_t *)(uintptr_t)ev, &a, &r);
	doca_cur.in_algo = 0;
	res->rate = r.rate;
	res->rtt_req = r.rtt_req != 0;
	res->probe_slot = (uint8_t)r.probe_type_slot;
	res->credits = r.credits;
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

/* ---- Histograms ---------------------------------------------------------------------- */

static bool
doca_device_ready(void)
{
	return pcc_dev_logical_ports() != 0;
}

doca_pcc_dev_error_t
doca_pcc_dev_histogram_init(uint32_t port_num, uint32_t target_app, uint32_t counter_group_id,
		uint32_t histogram_id, const uint32_t *edges, uint32_t num_bins,
		doca_pcc_dev_histogram_mode_t mode, const char *description,
		doca_pcc_dev_histogram_t *h)
{
	struct pcc_doca_histogram *d;
	bool uniform = true;
	uint32_t i;
	int rc;

	if (h == NULL || edges == NULL || port_num >= PCC_DEV_MAX_PORTS ||
			target_app != DOCA_PCC_DEV_TARGET_APP_RP ||
			counter_group_id > DOCA_PCC_DEV_MAX_NUM_COUNTER_GROUP ||
			histogram_id >= PCC_DEV_MAX_HISTS || num_bins < 1 ||
			num_bins > PCC_DEV_HIST_MAX_BINS ||
			(uint32_t)mode > DOCA_PCC_DEV_HISTOGRAM_MODE_FREE)
		return doca_fail("%s: port %u app %u group %u id %u bins %u mode %u", __func__,
				port_num, target_app, counter_group_id, histogram_id, num_bins,
				(unsigned int)mode);
	for (i = 0; i < num_bins; i++) {
		if (edges[i + 1] <= edges[i])
			return doca_fail("%s: histogram %u: edges must increase", __func__,
					histogram_id);
		if (edges[i + 1] - edges[i] != edges[1] - edges[0])
			uniform = false;
	}
	d = &doca_hists[port_num][histogram_id];
	memset(d, 0, sizeof(*d));
	d->used = 1;
	d->port = (uint8_t)port_num;
	d->id = (uint8_t)histogram_id;
	memcpy(d->edges, edges, num_bins * sizeof(uint32_t));
	if (description != NULL)
		snprintf(d->desc, sizeof(d->desc), "%s", description);
	d->conf.n_bins = (uint8_t)num_bins;
	d->conf.desc = d->desc;
	if (mode == DOCA_PCC_DEV_HISTOGRAM_MODE_LINEAR && uniform) {
		d->conf.mode = PCC_DEV_HIST_LINEAR;
		d->conf.min = edges[0];
		d->conf.step = edges[1] - edges[0];
	} else {
		d->conf.mode = PCC_DEV_HIST_FREE;
		d->conf.edges = d->edges;
	}
	*h = d;
	if (!doca_device_ready()) {
		d->pending = 1;
		return DOCA_PCC_DEV_STATUS_OK;
	}
	rc = pcc_dev_hist_init(d->port, d->id, &d->conf);
	if (rc < 0)
		return doca_fail("%s: port %u histogram %u: %s", __func__, port_num, histogram_id,
				strerror(-rc));
	return DOCA_PCC_DEV_STATUS_OK;
}

void
doca_pcc_dev_histogram_update(doca_pcc_dev_histogram_t h, uint32_t value)
{
	if (h == NULL || !doca_cur.in_algo || h->pending)
		return;
	pcc_dev_hist_update(h->port, doca_cur.slot, h->id, value);
}

doca_pcc_dev_error_t
doca_pcc_dev_histogram_clear(doca_pcc_dev_histogram_t h)
{
	if (h == NULL || !h->used)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (h->pending)
		return h->enable_pending ? DOCA_PCC_DEV_STATUS_FAIL : DOCA_PCC_DEV_STATUS_OK;
	return pcc_dev_hist_clear(h->port, h->id) == 0 ? DOCA_PCC_DEV_STATUS_OK :
							 DOCA_PCC_DEV_STATUS_FAIL;
}

doca_pcc_dev_error_t
doca_pcc_dev_histogram_enable(doca_pcc_dev_histogram_t h)
{
	if (h == NULL || !h->used)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (h->pending) {
		h->enable_pending = 1;
		return DOCA_PCC_DEV_STATUS_OK;
	}
	return pcc_dev_hist_enable(h->port, h->id) == 0 ? DOCA_PCC_DEV_STATUS_OK :
							  DOCA_PCC_DEV_STATUS_FAIL;
}

doca_pcc_dev_error_t
doca_pcc_dev_histogram_disable(doca_pcc_dev_histogram_t h)
{
	if (h == NULL || !h->used)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (h->pending) {
		h->enable_pending = 0;
		return DOCA_PCC_DEV_STATUS_OK;
	}
	return pcc_dev_hist_disable(h->port, h->id) == 0 ? DOCA_PCC_DEV_STATUS_OK :
							   DOCA_PCC_DEV_STATUS_FAIL;
}

const char *
doca_pcc_dev_histogram_get_description(doca_pcc_dev_histogram_t h)
{
	return h != NULL ? h->desc : "";
}

/* pcc_dev_plugin_apply(): histograms configured before the device existed. */
static int
doca_apply(void *arg)
{
	struct pcc_doca_histogram *d;
	uint32_t ports = pcc_dev_logical_ports();
	unsigned int p, i;
	int rc;

	RTE_SET_USED(arg);
	for (p = 0; p < PCC_DEV_MAX_PORTS; p++) {
		for (i = 0; i < PCC_DEV_MAX_HISTS; i++) {
			d = &doca_hists[p][i];
			if (!d->pending || (ports & (1u << p)) == 0)
				continue;
			rc = pcc_dev_hist_init(d->port, d->id, &d->conf);
			if (rc == 0 && d->enable_pending)
				rc = pcc_dev_hist_enable(d->port, d->id);
			if (rc < 0) {
				DOCA_LOG(ERR, "port %u histogram %u: %s", p, i, strerror(-rc));
				return rc;
			}
			d->pending = 0;
		}
	}
	return 0;
}

/* ---- Run-time access -------------------------------------------------------------- */

doca_pcc_dev_error_t
doca_pcc_dev_set_slot_counter_group(
		uint32_t port_num, uint32_t algo_slot, uint32_t counter_group_id)
{
	uint8_t slot;

	if (port_num >= PCC_DEV_MAX_PORTS || !doca_rp_slot(algo_slot, &slot) ||
			counter_group_id >= DOCA_PCC_DEV_MAX_NUM_COUNTER_GROUP)
		return DOCA_PCC_DEV_STATUS_FAIL;
	return pcc_dev_counters_enable((uint8_t)port_num, slot, true) == 0 ?
			DOCA_PCC_DEV_STATUS_OK :
			DOCA_PCC_DEV_STATUS_FAIL;
}

uint32_t *
doca_pcc_dev_get_algo_params(uint32_t port_num, uint32_t algo_slot)
{
	uint32_t *p = NULL;
	uint8_t slot;

	if (port_num < PCC_DEV_MAX_PORTS && doca_rp_slot(algo_slot, &slot))
		p = pcc_dev_params((uint8_t)port_num, slot);
	return p != NULL ? p : doca_zero_params;
}

uint32_t
doca_pcc_dev_get_algo_params_num(uint32_t port_num, uint32_t algo_slot)
{
	const struct pcc_dev_algo_ops *ops = NULL;
	uint8_t slot;

	if (port_num < PCC_DEV_MAX_PORTS && doca_rp_slot(algo_slot, &slot))
		ops = pcc_dev_slot_algo((uint8_t)port_num, slot, NULL);
	return ops != NULL ? ops->n_params : 0;
}

uint32_t *
doca_pcc_dev_get_counters(uint32_t port_num, uint32_t algo_slot)
{
	uint32_t *c = NULL;
	uint8_t slot;

	if (port_num < PCC_DEV_MAX_PORTS && doca_rp_slot(algo_slot, &slot))
		c = pcc_dev_counters((uint8_t)port_num, slot);
	return c != NULL ? c : doca_scratch_counters;
}

uint32_t
doca_pcc_dev_get_counters_num(uint32_t port_num, uint32_t algo_slot)
{
	const struct pcc_dev_algo_ops *ops = NULL;
	uint8_t slot;

	if (port_num < PCC_DEV_MAX_PORTS && doca_rp_slot(algo_slot, &slot))
		ops = pcc_dev_slot_algo((uint8_t)port_num, slot, NULL);
	return ops != NULL ? ops->n_counters : 0;
}

uint32_t
doca_pcc_dev_get_algo_index(uint32_t port_num, uint32_t algo_slot)
{
	const struct pcc_dev_algo_ops *ops = NULL;
	uint32_t i;
	uint8_t slot;

	if (port_num < PCC_DEV_MAX_PORTS && doca_rp_slot(algo_slot, &slot))
		ops = pcc_dev_slot_algo((uint8_t)port_num, slot, NULL);
	for (i = 0; ops != NULL && i < PCC_DEV_MAX_ALGOS; i++)
		if (doca_algos[i].registered && ops == &doca_algos[i].ops)
			return i;
	return DOCA_PCC_DEV_ALGO_INDEX_INTERNAL;
}

void
doca_pcc_dev_default_internal_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
		const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
	const struct pcc_dev_algo_ops *ops;
	struct pcc_dev_results res;
	struct pcc_dev_attr pa;

	RTE_SET_USED(attr);
	if (event->port >= PCC_DEV_MAX_PORTS)
		return;
	ops = pcc_dev_slot_algo(event->port, PCC_DEV_INTERNAL_SLOT, NULL);
	if (ops == NULL || ops->on_event == doca_op_on_event || ops->ctx_size > PCC_DEV_CTX_SIZE)
		return;
	memset(&pa, 0, sizeof(pa));
	memset(&res, 0, sizeof(res));
	pa.algo_slot = PCC_DEV_INTERNAL_SLOT;
	pa.algo_idx = PCC_DEV_INTERNAL_SLOT;
	pa.port = event->port;
	pa.overload = attr != NULL ? attr->overload : 0;
	ops->on_event(algo_ctxt, event, &pa, &res);
	results->rate = res.rate;
	results->rtt_req = res.rtt_req;
	results->probe_type_slot = res.probe_slot;
	results->credits = res.credits;
}

doca_pcc_dev_error_t
doca_pcc_dev_custom_header_set(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
		uint32_t *header, uint32_t header_size, uint32_t wait_completed)
{
	RTE_SET_USED(algo_ctxt);
	RTE_SET_USED(event);
	RTE_SET_USED(header);
	RTE_SET_USED(header_size);
	RTE_SET_USED(wait_completed);
	return DOCA_PCC_DEV_STATUS_FAIL;
}

/* ---- Services --------------------------------------------------------------------- */

void
doca_pcc_dev_printf(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	pcc_dev_vprintf(format, ap);
	va_end(ap);
}

void
doca_pcc_dev_nic_counters_config(uint32_t *counter_ids, uint32_t num_counters, uint32_t *values)
{
	int rc;

	if (num_counters > PCC_DEV_NIC_COUNTERS_MAX ||
			(num_counters > 0 && (counter_ids == NULL || values == NULL))) {
		DOCA_LOG(ERR, "%s: %u counters (<= %u) or NULL arrays: ignored", __func__,
				num_counters, PCC_DEV_NIC_COUNTERS_MAX);
		return;
	}
	doca_nic_ids = counter_ids;
	doca_nic_values = values;
	doca_nic_n = num_counters;
	doca_nic_tls_gen = __atomic_add_fetch(&doca_nic_gen, 1, __ATOMIC_RELEASE);
	rc = pcc_dev_nic_counters_config(counter_ids, num_counters, values);
	if (rc < 0)
		DOCA_LOG(ERR, "%s: %s", __func__, strerror(-rc));
}

void
doca_pcc_dev_nic_counters_sample(void)
{
	uint32_t gen = __atomic_load_n(&doca_nic_gen, __ATOMIC_ACQUIRE);

	if (gen == 0)
		return;
	if (doca_nic_tls_gen != gen) {
		/* first sample on this thread since the configuration */
		if (pcc_dev_nic_counters_config(doca_nic_ids, doca_nic_n, doca_nic_values) < 0)
			return;
		doca_nic_tls_gen = gen;
	}
	pcc_dev_nic_counters_sample();
}

uint64_t
pcc_doca_timer_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
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
	doca_nic_ids = NULL;
	doca_nic_values = NULL;
	doca_nic_n = 0;
	doca_nic_gen = 0;
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
		if (rc < 0)
			return rc;
	}
	return pcc_plugin_set_apply(pl, doca_apply, NULL);
}
