/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_WIRING_H
#define APP_WIRING_H

/*
 * From the application arguments and what the EAL set up (ports, lcores)
 * to an engine configuration: port roles, which lcore polls which RX
 * queue, TX queue counts.  Pure: the EAL state comes in struct app_env,
 * so the rules are unit-testable.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "pcc_engine.h"

struct app_env {
	bool port_valid[RTE_MAX_ETHPORTS];
	/* lcores that poll: the worker lcores, or the main lcore alone */
	uint32_t lcores[RTE_MAX_LCORE];
	uint32_t nb_lcores;
	uint32_t main_lcore;
	bool lcore_enabled[RTE_MAX_LCORE];
	bool ring_pair;
	uint16_t ring_port[2];
};

/*
 * Fill conf (rxq_store, APP_CONFIG_MAX entries, holds the RX queue
 * assignment conf->rxq points at).  Returns 0, or -1 with one line in err
 * naming the option at fault.
 */
int app_wiring(const struct app_args *a, const struct app_env *env, struct pcc_engine_conf *conf,
		struct pcc_engine_rxq_conf *rxq_store, char *err, size_t errlen);

/* "0,1,3" for the valid ports (for messages). */
void app_port_list(const struct app_env *env, char *buf, size_t len);

#endif /* APP_WIRING_H */
