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

/* ---- Profiles --------------------------------------------------------- */

/** cnp_gap_ns of a profile whose algorithm reads no CNP. */
#define PCC_ALGO_PROFILE_NO_CNP INT64_C(-1)

/** One parameter of a profile, with where its value comes from. */
struct pcc_algo_profile_param {
	const char *name;
	uint32_t value;
	const char *source;
};

/**
 * A named, complete parameter set of an algorithm: every parameter of
 * the algorithm, and the notification point it assumes.  Profiles are
 * applied whole (doc/algorithms.md, "Profiles"): mixing two (DCQCN's
 * 1 us alpha timer of the ns-3 profile with the paper's 50 us CNP gap
 * leaves alpha near 1/50) is what they exist to prevent.
 */
struct pcc_algo_profile {
	const char *algo; /**< algorithm name */
	const char *name; /**< profile name: "ns3", "paper" */
	const char *desc;
	/** CNP gap the NP must keep, ns: 0 = one CNP per marked packet;
	 *  PCC_ALGO_PROFILE_NO_CNP = the algorithm reads no CNP */
	int64_t cnp_gap_ns;
	const struct pcc_algo_profile_param *params;
	unsigned int n_params;
};

/**
 * Profile name of algo; name NULL or "" = the algorithm's default profile
 * (its first).  NULL if there is none.
 */
const struct pcc_algo_profile *pcc_algos_profile_find(const char *algo, const char *name);

/** Every profile (*list), returns the count. */
unsigned int pcc_algos_profiles(const struct pcc_algo_profile **list);

/**
 * The parameter of algo that takes the fabric's base RTT in ns (hpcc:
 * base_rtt_ns, dctcp: rtt_ns), NULL if it has none.  A simulator run sets
 * it from the topology unless the scenario gives it.
 */
const char *pcc_algos_base_rtt_param(const char *algo);

#ifdef __cplusplus
}
#endif

#endif /* PCC_ALGOS_H */
