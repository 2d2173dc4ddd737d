/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_SIMWIRE_H
#define APP_SIMWIRE_H

/*
 * --sim: from what the simulator says (ports and their roles, flows,
 * algorithm slots, the receivers' NP) to the contexts and settings of a
 * run.  app_sim_wiring() is pure (the simulator's answers come in struct
 * app_sim_view, so the rules are unit-testable without the EAL);
 * app_sim_apply() makes them lib/host calls.
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
	/* pcc_sim_base_rtt_ns() per slot (0: none) */
	uint64_t base_rtt_ns[PCC_SIM_SLOTS_MAX];
};

/* The settings of a simulator run (filled by app_sim_wiring). */
struct app_sim_plan {
	struct pcc_engine_gen_group *groups; /* malloc'd; absolute start times */
	uint32_t nb_groups;
	uint32_t flows;       /* flow table capacity; 0 = --flows given */
	uint32_t mbufs_extra; /* mbufs the fabric may hold; 0 with --nb-mbufs */
	bool share_dev_ports; /* more sender hosts than logical ports */
	uint8_t cnp_dscp;     /* the engine NP answers for the receivers */
	uint32_t cnp_gap_us;  /* 0 = a CNP for every marked packet */
	struct pcc_engine_np_sqpn sqpn[PCC_ENGINE_NP_SQPN_MAP_MAX];
	uint32_t nb_sqpn;
};

/*
 * Fill plan for a simulator run from v (and a's --flows, --nb-mbufs):
 * generator groups for the flows the engine sends (absolute start times
 * in virtual ns, QPNs, addresses, sizes, rates, slots, INT), the flow
 * table, the mbufs the fabric may hold (v->mbufs_hint, or what the flows
 * send when they are all finite and that is less), the NP's CNP settings
 * (DSCP, per-QP gap rounded up to a microsecond, sender QPN map), and
 * whether sender hosts share logical ports.  0, or -1 with one line in err.
 */
int app_sim_wiring(const struct app_args *a, const struct app_sim_view *v,
		struct app_sim_plan *plan, char *err, size_t errlen);

/*
 * The contexts and settings of plan through lib/host: a context per
 * simulator port and role (line rate, peer MAC, one RX queue polled by
 * v->poll_lcore, a shared logical port when needed), the scenario's
 * algorithms and parameters per slot on every RP context, the CNP
 * settings on every NP context, the generator groups, then a's engine
 * options.  0, or -1 with one line in err.
 */
int app_sim_apply(const struct app_args *a, const struct app_sim_view *v,
		const struct app_sim_plan *plan, char *err, size_t errlen);

/* Once the contexts run, before the simulator's loop: the scenario's NP
 * mailbox request (hosts.np_mailbox) to every NP context.  0 or -1. */
int app_sim_started(const struct app_sim_view *v, char *err, size_t errlen);

void app_sim_plan_free(struct app_sim_plan *plan);

/* ---- simprofile.c ---- */

struct pcc_host_ctx;

/*
 * Before the sim exists: every slot's profile is known, and the
 * receivers' CNP gap is the one the profiles assume (hosts.cnp_gap set
 * when the scenario does not give it; an explicit one that differs is an
 * error).  0, or -EINVAL with the reason in why.
 */
int app_sim_profiles_check(struct pcc_sim_scenario *scn, char *why, size_t len);

/* Slot al's profile, base RTT (when its algorithm has such a parameter
 * and the scenario does not set it) and parameters on ctx. */
int app_sim_algo_params(struct pcc_host_ctx *ctx, const struct pcc_sim_algo *al,
		uint64_t base_rtt_ns, char *err, size_t errlen);

/* The profile slot al runs: its name, or "none". */
const char *app_sim_profile_name(const struct pcc_sim_algo *al);

#endif /* APP_SIMWIRE_H */
