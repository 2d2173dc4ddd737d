/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_DEV_HIST_H
#define PCC_DEV_HIST_H

/**
 * @file
 * Histograms: up to PCC_DEV_MAX_HISTS per port, each with up to
 * PCC_DEV_HIST_MAX_BINS bins.  The configuration (mode, edges, enabled)
 * is per port; the bins are counters in the counter groups of the slot
 * whose algorithm updates them (one set per thread, no atomics):
 * histogram h lives in counter group 1 + h / 2, words (h % 2) * 32 ..
 * (h % 2) * 32 + n_bins - 1.  A slot gets enough counter groups for the
 * histogram ids its algorithm registers (ops->hist_ids).
 *
 * Bins are defined by their lower edges e[0] < e[1] < ... < e[n-1]:
 * bin i counts e[i] <= v < e[i+1]; values below e[0] are counted in bin 0
 * and values >= e[n-1] in the last bin, so every update lands in a bin.
 *  - LINEAR: e[i] = min + i * step (step > 0);
 *  - EXPONENTIAL: e[0] = min (>= 1), e[i] = max(e[i-1] + 1,
 *    floor(e[i-1] * factor / 2^16)), factor fxp16 > 1.0 (65536); a power
 *    of two (factor = 2.0 = 131072) gives exact doubling: min << i;
 *  - FREE: the caller's edges, strictly increasing.
 * An edge above UINT32_MAX makes init fail with -ERANGE.
 */

#include <stdbool.h>
#include <stdint.h>

#include "pcc_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PCC_DEV_MAX_HISTS 15
#define PCC_DEV_HIST_MAX_BINS 32

enum pcc_dev_hist_mode {
	PCC_DEV_HIST_LINEAR = 0,
	PCC_DEV_HIST_EXPONENTIAL = 1,
	PCC_DEV_HIST_FREE = 2,
};

struct pcc_dev_hist_conf {
	uint8_t mode;          /**< enum pcc_dev_hist_mode */
	uint8_t n_bins;        /**< 1..PCC_DEV_HIST_MAX_BINS */
	uint32_t min;          /**< LINEAR, EXPONENTIAL: e[0] */
	uint32_t step;         /**< LINEAR: bin width, > 0 */
	uint32_t factor;       /**< EXPONENTIAL: fxp16 edge ratio, > 65536 */
	const uint32_t *edges; /**< FREE: n_bins lower edges, increasing */
	const char *desc;      /**< optional, copied (< PCC_DEV_DESC_MAX) */
};

/** What pcc_dev_hist_describe() reports. */
struct pcc_dev_hist_desc {
	uint8_t mode;
	uint8_t n_bins;
	uint8_t enabled;
	uint8_t counter_group; /**< group holding the bins (1 + id / 2) */
	uint8_t group_offset;  /**< first word in that group (0 or 32) */
	uint32_t min;          /**< as configured (LINEAR/EXPONENTIAL) */
	uint32_t step;
	uint32_t factor;
	uint32_t edges[PCC_DEV_HIST_MAX_BINS]; /**< lower edges, n_bins used */
	char desc[PCC_DEV_DESC_MAX];
};

/**
 * Configure histogram hist_id (0..14) of port; clears its bins.  Left
 * disabled.  -EBUSY while enabled, -EINVAL bad conf, -ERANGE edge overflow.
 */
int pcc_dev_hist_init(uint8_t port, uint8_t hist_id, const struct pcc_dev_hist_conf *conf);
/** Start counting (-ENOENT if never configured). */
int pcc_dev_hist_enable(uint8_t port, uint8_t hist_id);
/** Stop counting; bins keep their values. */
int pcc_dev_hist_disable(uint8_t port, uint8_t hist_id);
/** Zero the bins in every slot and thread set; -EBUSY unless disabled. */
int pcc_dev_hist_clear(uint8_t port, uint8_t hist_id);
/** Mode, edges, enable state, description.  -ENOENT if not configured. */
int pcc_dev_hist_describe(uint8_t port, uint8_t hist_id, struct pcc_dev_hist_desc *d);
/**
 * Bins combined over all slots of the port and all thread sets (summed,
 * saturating at UINT32_MAX): writes min(n, n_bins) values, returns that
 * number or a negative errno.
 */
int pcc_dev_hist_bins(uint8_t port, uint8_t hist_id, uint32_t *bins, uint32_t n);
/** Bitmask of configured histogram ids of port (0 on a bad port). */
uint32_t pcc_dev_hist_configured(uint8_t port);

/**
 * Fast path, from the algorithm on the worker: count value in histogram
 * hist_id, in the calling thread's bins of (port, slot) (the algorithm
 * passes attr->port and attr->algo_slot).  Returns 0 when counted, 1 when
 * the histogram is disabled or not configured (ignored, not an error),
 * -EPERM when the slot's algorithm did not register hist_id in
 * ops->hist_ids, -EINVAL for a bad port/slot/id, -ENOENT for an unbound
 * slot.  Errors on a valid port are counted (pcc_dev_hist_errors) and the
 * value dropped.  Bins saturate at UINT32_MAX.
 */
int pcc_dev_hist_update(uint8_t port, uint8_t slot, uint8_t hist_id, uint32_t value);
/** Failed updates on port since init (summed over thread sets). */
uint64_t pcc_dev_hist_errors(uint8_t port);

#ifdef __cplusplus
}
#endif

#endif /* PCC_DEV_HIST_H */
