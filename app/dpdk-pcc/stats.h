/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_STATS_H
#define APP_STATS_H

/*
 * Statistics tables: ports (rte_eth_stats), engine counters per port,
 * packets by kind, malformed packets by reason, generator flows, lcores.
 * Rates and busy % cover the time since the previous print; the final
 * print gives averages over the whole run.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_config.h>

#include "pcc_engine.h"

struct app_stats {
	uint64_t start_tsc;
	uint64_t last_tsc;
	struct {
		uint64_t ibytes;
		uint64_t obytes;
	} port[RTE_MAX_ETHPORTS];
	struct pcc_engine_lcore_stats lcore[RTE_MAX_LCORE];
	uint64_t *flow_tx_bytes; /* [pcc_engine_gen_flow_count()] */
	uint32_t nb_flows;
};

/* Start the clock; 0 or -1 (out of memory). */
int app_stats_init(struct app_stats *st, const struct pcc_engine *e);

/* Print every table to f; final selects whole-run averages. */
void app_stats_print(FILE *f, struct app_stats *st, const struct pcc_engine *e, bool final);

void app_stats_fini(struct app_stats *st);

#endif /* APP_STATS_H */
