/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_LOAD_H
#define APP_LOAD_H

/*
 * Is the generator's offered load met?  Once a second (live runs only:
 * the simulator's time is not the wall clock) every RP port's generator
 * flows that were active over the whole second are compared: what left
 * against what they offered, capped by the rate their algorithm allows.
 * Below APP_LOAD_MET_PCT % for APP_LOAD_WINDOWS seconds in a row, a
 * warning names the port, both rates and what to change; once per port.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_config.h>

#include "pcc_engine.h"

#define APP_LOAD_MET_PCT 90u
#define APP_LOAD_WINDOWS 2u

struct app_load {
	uint64_t last_tsc;
	uint64_t *last_bytes; /* [nb] per generator flow; UINT64_MAX: was not active */
	uint32_t nb;
	uint8_t short_windows[RTE_MAX_ETHPORTS];
	bool warned[RTE_MAX_ETHPORTS];
	uint32_t warnings; /* ports warned about */
};

/* 0, or -1 (out of memory). */
int app_load_init(struct app_load *l, const struct pcc_engine *e, uint64_t now_tsc);

/* Call often; it looks once a second.  Returns the ports warned about now. */
uint32_t app_load_tick(
		struct app_load *l, const struct pcc_engine *e, uint64_t now_tsc, uint64_t hz);

void app_load_fini(struct app_load *l);

#endif /* APP_LOAD_H */
