/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_SIMWIRE_H
#define APP_SIMWIRE_H

/*
 * --sim: from what the simulator says (ports and their roles, flows,
 * algorithm slots, the receivers' NP) to an engine configuration.  Pure:
 * the simulator's answers come in struct app_sim_view, so the rules are
 * unit-testable without the EAL.
 */

#include <stdint.h>

#include "args.h"
#include "pcc_engine.h"
#include "pcc_sim.h"

/* Flow table of a simulator run without --flows: twice its flows, at least. */
#define APP_SIM_FLOWS_MIN 1024u
/* mbufs beyond those of the finite flows' packets (ring and burst slack). */
#define APP_SIM_MBUFS_SLACK 8192u

/* What the simulator told the application. */
struct app_sim_view {
	const struct pcc_sim_port_info *ports;
	uint16_t nb_ports;
	const struct pcc_sim_flow_info *flows;
	uint32_t nb_flows;
	const struct pcc_sim_algo *algos;
	uint32_t nb_algos;
	struct pcc_sim_np_info np;
	uint32_t mbufs_hint;
	uint32_t poll_lcore; /* the one lcore that polls every port */
};

/* What conf points into (filled by app_sim_wiring, freed by _free). */
struct app_sim_store {
	struct pcc_engine_rxq_conf rxq[RTE_MAX_ETHPORTS];
	struct pcc_engine_gen_group *groups; /* malloc'd */
	struct pcc_engine_algo_param params[PCC_ENGINE_SLOTS][PCC_ENGINE_ALGO_PARAMS_MAX];
	struct pcc_engine_np_sqpn sqpn[PCC_ENGINE_NP_SQPN_MAP_MAX];
};

/*
 * Fill conf for a simulator run: the options --sim allows (burst, flow
 * table, TX coalescing, timers, pacer, probe formats, other NP options)
 * from a, and from v: port roles, peer MACs and line rates, one RX queue
 * per port polled by v->poll_lcore, generator groups for the flows the
 * engine sends (absolute start times in virtual ns, QPNs, addresses,
 * sizes, rates, slots, INT), the algorithms and parameters per slot, the
 * NP's CNP settings (DSCP, per-QP gap rounded up to a microsecond, sender
 * QPN map) and the mbufs the fabric may hold (v->mbufs_hint, or what the
 * flows send when they are all finite and that is less; none with
 * --nb-mbufs).  0, or -1 with one line in err.
 */
int app_sim_wiring(const struct app_args *a, const struct app_sim_view *v, struct app_sim_store *st,
		struct pcc_engine_conf *conf, char *err, size_t errlen);

void app_sim_store_free(struct app_sim_store *st);

#endif /* APP_SIMWIRE_H */
