/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The DOCA description calls an application makes from
 * doca_pcc_dev_user_init() and doca_pcc_dev_user_declare_memory():
 * algorithms, parameters, counters, slot layout, memory declaration.  Any
 * of them failing fails the plug-in's load with its message.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "doca_compat_internal.h"

/* ---- Errors of the description calls --------------------------------------------- */

doca_pcc_dev_error_t
doca_fail(const char *fmt, ...)
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

bool
doca_describing(const char *what)
{
	if (doca_phase == DOCA_PHASE_RUN) {
		doca_fail("%s: only from doca_pcc_dev_user_init() or _declare_memory()", what);
		return false;
	}
	return true;
}

struct doca_algo *
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
	if (min_value > max_value || default_value < min_value || default_value > max_value)
		return doca_fail("%s: algorithm %u parameter %u: default %u not in [%u, %u]",
				__func__, algo_idx, param_id, default_value, min_value, max_value);
	p = &a->params[param_id];
	doca_copy_desc(a->pdesc[param_id], sizeof(a->pdesc[param_id]), param_desc_addr,
			param_desc_size);
	doca_make_name(a->pname[param_id], a->pdesc[param_id], "param", param_id, a->pname,
			a->ops.n_params);
	p->def = default_value;
	p->min = min_value;
	p->max = max_value;
	/* DOCA: 1 allows value update, 0 disables it; kept as given (2 seen) */
	p->perm = (uint8_t)RTE_MIN(permissions, (uint32_t)UINT8_MAX);
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
	if (counter_id >= a->ops.n_counters)
		return doca_fail("%s: algorithm %u has %u counters, no id %u", __func__, algo_idx,
				a->ops.n_counters, counter_id);
	c = &a->counters[counter_id];
	doca_copy_desc(a->cdesc[counter_id], sizeof(a->cdesc[counter_id]), counter_desc_addr,
			counter_desc_size);
	doca_make_name(a->cname[counter_id], a->cdesc[counter_id], "counter", counter_id, a->cname,
			a->ops.n_counters);
	c->max = max_value;
	c->perm = (uint8_t)RTE_MIN(permissions, (uint32_t)UINT8_MAX);
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
bool
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
	if (pcc_dev_threads_per_counter_set(threads_per_counter_set) < 0)
		return doca_fail("%s: %u threads per counter set: the engine already runs with "
				 "%u (load the plug-in before it starts)",
				__func__, threads_per_counter_set,
				pcc_dev_threads_per_counter_set_get());
	return DOCA_PCC_DEV_STATUS_OK;
}

uint32_t
doca_pcc_dev_get_max_threads_per_counter_set(void)
{
	return PCC_DEV_MAX_THREADS;
}
