/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_ALGOS_H
#define PCC_ALGOS_H

/**
 * @file
 * The reference congestion control algorithms shipped with dpdk-pcc,
 * written against pcc_dev.h.  They are not registered by constructors: an
 * application calls pcc_algos_register_builtin() once (before
 * pcc_dev_init() if the default algorithm "rtt" must be found there).
 * Guide: doc/algorithms.md, "Reference algorithms".
 */

#include <pcc_dev.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Algorithm ids (struct pcc_dev_algo_ops.id). */
#define PCC_ALGO_RTT_ID 0xBFFF /**< DOCA's RTT template id */
#define PCC_ALGO_DCQCN_ID 0x0001
#define PCC_ALGO_TIMELY_ID 0x0002
#define PCC_ALGO_SWIFT_ID 0x0003
#define PCC_ALGO_HPCC_ID 0x0004
#define PCC_ALGO_DCTCP_ID 0x0005
#define PCC_ALGO_NOOP_ID 0x00FF

/** DOCA RTT template behaviour; the engine's default (slot 0xF). */
extern const struct pcc_dev_algo_ops pcc_algo_rtt_ops;
/** DCQCN: rate and alpha timers, optional byte counter. */
extern const struct pcc_dev_algo_ops pcc_algo_dcqcn_ops;
/** TIMELY: RTT gradient. */
extern const struct pcc_dev_algo_ops pcc_algo_timely_ops;
/** Swift: delay target, congestion window in bytes. */
extern const struct pcc_dev_algo_ops pcc_algo_swift_ops;
/** HPCC: in-band telemetry (INT) echoed in ACKs. */
extern const struct pcc_dev_algo_ops pcc_algo_hpcc_ops;
/** DCTCP, rate form: marked fraction EWMA from CNPs. */
extern const struct pcc_dev_algo_ops pcc_algo_dctcp_ops;
/** Does nothing (benchmark baseline). */
extern const struct pcc_dev_algo_ops pcc_algo_noop_ops;

/**
 * Register every built-in algorithm with lib/dev.  Idempotent: algorithms
 * already registered are skipped.
 *
 * @return
 *   0, or the first negative errno of pcc_dev_algo_register() other than
 *   -EEXIST (the remaining algorithms are still attempted).
 */
int pcc_algos_register_builtin(void);

/**
 * The built-in algorithms, in registration order.
 *
 * @param n
 *   If not NULL, receives the number of entries.
 * @return
 *   Array of ops pointers (static storage).
 */
const struct pcc_dev_algo_ops *const *pcc_algos_builtin(unsigned int *n);

#ifdef __cplusplus
}
#endif

#endif /* PCC_ALGOS_H */
