/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_WIRING_H
#define APP_WIRING_H

/*
 * From the application arguments and what the EAL set up (ports, lcores)
 * to the contexts dpdk-pcc creates: which port gets an RP and which an NP
 * context, forward mode, and which lcore polls which RX queue (--config).
 * Pure: the EAL state comes in struct app_env, so the rules are
 * unit-testable; host.c turns the plan into lib/host calls.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "args.h"

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

/* The contexts of a run. */
struct app_plan {
	bool rp[RTE_MAX_ETHPORTS]; /* an RP context on the port */
	bool np[RTE_MAX_ETHPORTS]; /* an NP context */
	int32_t fwd_from;          /* forward mode: host port of the RP port fwd_to */
	uint16_t fwd_to;
	/* --config: lcore of each RX queue of a port (nb_rxq queues) */
	bool queue_map;
	uint16_t nb_rxq;
	uint32_t lcore_of[RTE_MAX_ETHPORTS][APP_CONFIG_MAX];
};

/*
 * Fill plan.  Returns 0, or -1 with one line in err naming the option at
 * fault.
 */
int app_wiring(const struct app_args *a, const struct app_env *env, struct app_plan *plan,
		char *err, size_t errlen);

/* "0,1,3" for the valid ports (for messages). */
void app_port_list(const struct app_env *env, char *buf, size_t len);

#endif /* APP_WIRING_H */
