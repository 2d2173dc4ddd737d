/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_DEV_ALGO_ACCESS_H_
#define DOCA_PCC_DEV_ALGO_ACCESS_H_

/**
 * @file
 * dpdk-pcc's DOCA PCC compatibility: algorithm description, slots,
 * parameters, counters, counter groups and histograms.
 *
 * The description calls (doca_pcc_dev_algo_init_metadata, _init_param,
 * _init_counter, doca_pcc_dev_set_counter_type,
 * doca_pcc_dev_algo_register_hist_ids) are recorded while
 * doca_pcc_dev_user_init() runs; when it returns, each described algorithm
 * index becomes one registered lib/dev algorithm named "<plug-in>_<idx>".
 * doca_pcc_dev_init_algo_slot() calls become the plug-in's default layout,
 * applied by pcc_dev_plugin_apply().  See doc/doca-compat.md.
 */

#include <stdint.h>

#include "doca_pcc_dev_common.h"
#include "doca_pcc_dev_data_structures.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Target application of an algorithm slot (RP: reaction point). */
#define DOCA_PCC_DEV_TARGET_APP_RP (0)
/** Notification point target (no NP algorithms here: see the doc). */
#define DOCA_PCC_DEV_TARGET_APP_NP (1)
/** Slot argument qualified by its target application. */
#define DOCA_PCC_DEV_ALGO_SLOT(target_app, ppcc_algo_slot) \
	(((uint32_t)(target_app) << 16) | ((uint32_t)(ppcc_algo_slot)&0xffffu))

/** algo_idx was not given a slot (doca_pcc_dev_declare_slot_algo). */
#define DOCA_PCC_DEV_SLOT_UNASSIGNED 0x10

/* ---- Description, from doca_pcc_dev_user_init() ------------------------------------ */

/**
 * Describe algorithm index algo_idx (0..7): identity, description and how
 * many parameters and counters it has.  FAIL on a bad index or count, or
 * outside doca_pcc_dev_user_init().
 */
doca_pcc_dev_error_t doca_pcc_dev_algo_init_metadata(uint32_t algo_idx,
		const struct doca_pcc_dev_algo_meta_data *user_def, uint32_t param_num,
		uint32_t counter_num);

/**
 * Describe parameter param_id of algo_idx.  Its name is the leading
 * [A-Za-z0-9_.] run of the description ("UPDATE_FACTOR, ..." gives
 * UPDATE_FACTOR), else "param_<id>".  Note DOCA's argument order: max
 * before min.  FAIL when default is outside [min, max].
 */
doca_pcc_dev_error_t doca_pcc_dev_algo_init_param(uint32_t algo_idx, uint32_t param_id,
		uint32_t default_value, uint32_t max_value, uint32_t min_value,
		uint32_t permissions, uint32_t param_desc_size, uint64_t param_desc_addr);

/** Describe counter counter_id of algo_idx (named as parameters are). */
doca_pcc_dev_error_t doca_pcc_dev_algo_init_counter(uint32_t algo_idx, uint32_t counter_id,
		uint32_t max_value, uint32_t permissions, uint32_t counter_desc_size,
		uint64_t counter_desc_addr);

/** Combination type of a counter: DOCA_PCC_DEV_COUNTER_TYPE_*. */
doca_pcc_dev_error_t doca_pcc_dev_set_counter_type(
		uint32_t algo_idx, uint32_t counter_id, uint32_t type);

/** Histogram ids algorithm algo_idx updates. */
doca_pcc_dev_error_t doca_pcc_dev_algo_register_hist_ids(
		uint32_t algo_idx, const uint32_t *hist_ids, uint32_t num_hist_ids);

/**
 * Map slot algo_slot (0..7) of port portid to algorithm algo_idx, enabled
 * if algo_en: recorded as the plug-in's default layout.
 */
doca_pcc_dev_error_t doca_pcc_dev_init_algo_slot(
		uint32_t portid, uint32_t algo_slot, uint32_t algo_idx, uint32_t algo_en);

/* ---- Memory declaration, from doca_pcc_dev_user_declare_memory() ---------------- */

/** Optional user callback, run before doca_pcc_dev_user_init(). */
void doca_pcc_dev_user_declare_memory(void) __attribute__((weak));

/** Parameters and counters algo_idx will use. */
doca_pcc_dev_error_t doca_pcc_dev_declare_algo(
		uint32_t algo_idx, uint32_t param_num, uint32_t counter_num);
/** Slot algo_slot of port_num will hold algo_idx. */
doca_pcc_dev_error_t doca_pcc_dev_declare_slot_algo(
		uint32_t port_num, uint32_t algo_slot, uint8_t algo_idx);
/** Counter groups per port: the engine's setting decides; OK when within it. */
doca_pcc_dev_error_t doca_pcc_dev_declare_num_counter_groups(uint32_t num_counter_groups);
/** Histograms per port (0..DOCA_PCC_DEV_MAX_NUM_HISTOGRAMS). */
doca_pcc_dev_error_t doca_pcc_dev_declare_num_of_histograms(uint32_t num_histograms);
/** Threads sharing a counter set: lib/dev always keeps one set per thread. */
doca_pcc_dev_error_t doca_pcc_dev_declare_threads_per_counter_set(uint32_t threads_per_counter_set);
/** Largest value doca_pcc_dev_declare_threads_per_counter_set() accepts. */
uint32_t doca_pcc_dev_get_max_threads_per_counter_set(void);

/* ---- Run time ------------------------------------------------------------------------ */

/** Enable the counters of a slot (the group id is implied here: see the doc). */
doca_pcc_dev_error_t doca_pcc_dev_set_slot_counter_group(
		uint32_t port_num, uint32_t algo_slot, uint32_t counter_group_id);

/** Parameter array of the slot (never NULL: a zero array when unbound). */
uint32_t *doca_pcc_dev_get_algo_params(uint32_t port_num, uint32_t algo_slot);
/** Parameters of the algorithm bound to the slot. */
uint32_t doca_pcc_dev_get_algo_params_num(uint32_t port_num, uint32_t algo_slot);
/**
 * This thread's counters of the slot (never NULL: when counters are
 * disabled, a per-thread scratch array nobody reads).
 */
uint32_t *doca_pcc_dev_get_counters(uint32_t port_num, uint32_t algo_slot);
/** Counters of the algorithm bound to the slot. */
uint32_t doca_pcc_dev_get_counters_num(uint32_t port_num, uint32_t algo_slot);
/**
 * algo_idx (as given to doca_pcc_dev_algo_init_metadata) of the algorithm
 * bound to the slot; DOCA_PCC_DEV_ALGO_INDEX_INTERNAL for any other.
 */
uint32_t doca_pcc_dev_get_algo_index(uint32_t port_num, uint32_t algo_slot);

/* ---- Histograms ------------------------------------------------------------------------ */

/**
 * Configure histogram histogram_id (0..14) of port_num with num_bins bins
 * delimited by edges[0..num_bins] (edges[num_bins] is the upper bound;
 * larger values count in the last bin).  Only target_app RP.  The counter
 * group is implied by the id in dpdk-pcc (1 + id / 2); counter_group_id is
 * checked for range only.  Called from doca_pcc_dev_user_init() (before
 * the device exists), the configuration is kept and applied by
 * pcc_dev_plugin_apply().  The histogram starts disabled.
 */
doca_pcc_dev_error_t doca_pcc_dev_histogram_init(uint32_t port_num, uint32_t target_app,
		uint32_t counter_group_id, uint32_t histogram_id, const uint32_t *edges,
		uint32_t num_bins, doca_pcc_dev_histogram_mode_t mode, const char *description,
		doca_pcc_dev_histogram_t *h);
/** Count value, in the calling algorithm's slot (from user_algo only). */
void doca_pcc_dev_histogram_update(doca_pcc_dev_histogram_t h, uint32_t value);
/** Zero the bins; FAIL unless disabled. */
doca_pcc_dev_error_t doca_pcc_dev_histogram_clear(doca_pcc_dev_histogram_t h);
doca_pcc_dev_error_t doca_pcc_dev_histogram_enable(doca_pcc_dev_histogram_t h);
doca_pcc_dev_error_t doca_pcc_dev_histogram_disable(doca_pcc_dev_histogram_t h);
/** Description given at init ("" for NULL h). */
const char *doca_pcc_dev_histogram_get_description(doca_pcc_dev_histogram_t h);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PCC_DEV_ALGO_ACCESS_H_ */
