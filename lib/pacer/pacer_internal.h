/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PACER_INTERNAL_H
#define PACER_INTERNAL_H

/*
 * The front end's view of a pacer.  Backends do not include this: they
 * reach their state through pcc_pacer_priv() and the counters through
 * pcc_pacer_stats_ptr().
 */

#include <stdint.h>

#include <rte_log.h>

#include "pcc_pacer.h"

extern int pcc_pacer_logtype;

#define PACER_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pcc_pacer_logtype, "pcc.pacer: " fmt "\n", ##__VA_ARGS__)

/* Defaults of struct pcc_pacer_conf */
#define PACER_SLOT_NS_DEFAULT 500u
#define PACER_HORIZON_SLOTS_DEFAULT 4371u /* ~2.2 ms of 500 ns slots (eRPC) */
#define PACER_MAX_QUEUED_DEFAULT 64u
#define PACER_MAX_QUEUED_MAX 65535u
#define PACER_LINE_RATE_DEFAULT 100000000000ull /* no link speed known */

/* Pass-through FIFO: max_flows x max_queued rounded up, within these */
#define PACER_PASS_MIN 256u
#define PACER_PASS_MAX 16384u

#define PACER_BACKENDS_MAX 8

struct pcc_pacer {
	void *priv; /* first: pcc_pacer_priv() is inline (pcc_pacer.h) */
	const struct pcc_pacer_ops *ops;
	uint64_t last_now; /* enqueue/dequeue times are clamped to this */
	/* pass-through FIFO (PCC_PACER_NO_FLOW, backend bypass) */
	struct rte_mbuf **pass;
	uint32_t pass_mask;
	uint32_t pass_head; /* next to dequeue */
	uint32_t pass_tail; /* next free */
	/* conf.max_flows, in the first line with the above: the bound the
	 * packet path checks (the engine asks every flow's schedule every
	 * poll round, pcc_pacer_flow_next()) */
	uint32_t max_flows;
	uint64_t *rates; /* per flow, as set (0 = line rate) */
	struct pcc_pacer_stats stats;
	struct pcc_pacer_conf conf; /* normalised: defaults filled in */
};

#endif /* PACER_INTERNAL_H */
