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

/* --stats-format */
enum app_stats_format {
	APP_STATS_TEXT = 0,
	APP_STATS_JSON,
	APP_STATS_CSV,
};

/* "version" of the JSON records (doc/stats-schema.json) */
#define APP_STATS_JSON_VERSION 1u

/* A port's engine counters at the previous machine-readable print. */
struct app_stats_rate {
	uint64_t rx_pkts, rx_bytes, tx_pkts, tx_bytes;
};

struct app_stats {
	uint8_t format;  /* enum app_stats_format */
	bool csv_header; /* written */
	struct app_stats_rate rate[RTE_MAX_ETHPORTS];
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

/* A port's roles: "RP", "NP", "RP+NP", "FWD" or "-" (lower: "rp", ...,
 * as the JSON records name them). */
const char *app_roles_name(uint8_t roles, bool lower);

/* stats_fmt.c: one JSON record (a line) or CSV rows per print; run: seconds
 * since the start, secs: since the previous print (the run when final). */
void app_stats_print_json(FILE *f, struct app_stats *st, const struct pcc_engine *e, double run,
		double secs, bool final);
void app_stats_print_csv(FILE *f, struct app_stats *st, const struct pcc_engine *e, double run,
		double secs, bool final);

#endif /* APP_STATS_H */
