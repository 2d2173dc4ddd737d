/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_DEV_TYPES_H_
#define DOCA_PCC_DEV_TYPES_H_

/**
 * @file
 * dpdk-pcc's DOCA PCC compatibility: the histogram handle type and mode
 * enum (where DOCA's guide places them); the other types are in
 * doca_pcc_dev_data_structures.h.  Included by doca_pcc_dev_common.h.
 */

#ifdef __cplusplus
extern "C" {
#endif

/** How histogram bin edges grow (doca_pcc_dev_histogram_init). */
typedef enum {
	DOCA_PCC_DEV_HISTOGRAM_MODE_LINEAR = 0,
	DOCA_PCC_DEV_HISTOGRAM_MODE_EXPONENTIAL = 1,
	DOCA_PCC_DEV_HISTOGRAM_MODE_FREE = 2,
} doca_pcc_dev_histogram_mode_t;

/** Histogram handle (doca_pcc_dev_histogram_init). */
typedef struct pcc_doca_histogram *doca_pcc_dev_histogram_t;

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PCC_DEV_TYPES_H_ */
