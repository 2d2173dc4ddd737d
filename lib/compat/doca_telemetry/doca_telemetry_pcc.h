/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_TELEMETRY_PCC_H_
#define DOCA_TELEMETRY_PCC_H_

/**
 * @file
 * dpdk-pcc's DOCA compatibility: DOCA Telemetry PCC (algorithm slots and
 * counters of the PCC running on a device) over the /pcc/ telemetry
 * commands of a running dpdk-pcc (doc/compat-doca-telemetry.md).
 *
 * The device is a port of the dpdk-pcc whose --file-prefix
 * PCC_TELEMETRY_PREFIX names (doca_dev.h), so a telemetry tool runs
 * beside it as DOCA's runs beside the PCC application; a device of this
 * process reads this process's own telemetry.  The device must have an RP
 * role there (DOCA_ERROR_NOT_SUPPORTED otherwise).  Written from DOCA's
 * public documentation; not NVIDIA's header.
 */

#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;

/** A telemetry context on one device. */
struct doca_telemetry_pcc;

/** DOCA_SUCCESS when the device runs PCC algorithms (an RP port). */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_cap_is_supported(const struct doca_devinfo *devinfo);
/** Algorithm slots, indexed 0..max_algo_slots-1. */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_cap_get_max_algo_slots(
		const struct doca_devinfo *devinfo, uint32_t *max_algo_slots);
/** Most counters an algorithm has (the size of a counters array). */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_cap_get_max_num_counters(
		const struct doca_devinfo *devinfo, uint32_t *max_num_counters);
/** Bytes of an algo info string with its NUL. */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_cap_get_max_algo_info_len(
		const struct doca_devinfo *devinfo, uint32_t *max_algo_info_len);
/** Bytes of a counter info string with its NUL. */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_cap_get_max_counter_info_len(
		const struct doca_devinfo *devinfo, uint32_t *max_counter_info_len);

/** Create a context on dev (state idle). */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_create(struct doca_dev *dev, struct doca_telemetry_pcc **pcc);
/** Destroy an idle context (DOCA_ERROR_BAD_STATE while running). */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_destroy(struct doca_telemetry_pcc *pcc);
/** Idle -> running (DOCA_ERROR_BAD_STATE when running). */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_start(struct doca_telemetry_pcc *pcc);
/** Running -> idle (DOCA_ERROR_BAD_STATE when idle). */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_stop(struct doca_telemetry_pcc *pcc);

/** Id of the algorithm in slot; DOCA_ERROR_BAD_STATE for an empty slot. */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_get_algo_id(
		struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *algo_id);
/** Its major version. */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_get_algo_major_version(
		struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *major_ver);
/** Its minor version. */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_get_algo_minor_version(
		struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *minor_ver);
/** Its description (algo_info: max_algo_info_len bytes). */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_get_algo_info(
		struct doca_telemetry_pcc *pcc, uint8_t algo_slot, char *algo_info);
/** Whether slot is enabled, and its counters (1 or 0 each; 0 and 0 for an
 *  empty slot). */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_get_algo_enable_status(struct doca_telemetry_pcc *pcc,
		uint8_t algo_slot, uint8_t *algo_enabled, uint8_t *counters_enabled);
/** Counters of the algorithm in slot. */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_get_num_counters(
		struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *num_counters);
/** Description of counter counter_id (counter_info: max_counter_info_len
 *  bytes). */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_get_counter_info(struct doca_telemetry_pcc *pcc, uint8_t algo_slot,
		uint8_t counter_id, char *counter_info);
/** The counters of slot as one block; DOCA_ERROR_BAD_STATE when the
 *  slot's counters are disabled. */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_get_counters(struct doca_telemetry_pcc *pcc, uint8_t algo_slot,
		uint32_t *counters_populated, uint32_t *counters);
/** The same, then the counters are reset; counters NULL only resets. */
DOCA_EXPERIMENTAL
doca_error_t doca_telemetry_pcc_get_and_clear_counters(struct doca_telemetry_pcc *pcc,
		uint8_t algo_slot, uint32_t *counters_populated, uint32_t *counters);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_TELEMETRY_PCC_H_ */
