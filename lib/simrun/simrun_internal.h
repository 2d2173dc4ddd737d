/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef SIMRUN_INTERNAL_H
#define SIMRUN_INTERNAL_H

/*
 * From what the simulator says (ports and their roles, flows, algorithm
 * slots, the receivers' NP) to the contexts and settings of a run.
 * simrun_wiring() is pure (the simulator's answers come in struct
 * simrun_view, so the rules are unit-testable without the EAL);
 * simrun_apply() makes them lib/host calls.
 */

#include <stdint.h>

#include <rte_log.h>

#include "pcc_engine.h"
#include "pcc_sim.h"
#include "pcc_simrun.h"

/* Flow table of a simulator run without "flows": twice its flows, at least. */
#define SIMRUN_FLOWS_MIN 1024u
/* mbufs beyond those of the finite flows' packets (ring and burst slack). */
#define SIMRUN_MBUFS_SLACK 8192u
/* Longest CNP gap the NP takes, us (the np-cnp-gap-us option's limit). */
#define SIMRUN_CNP_GAP_MAX 10000000u
/* Mailbox bytes of a context made by the run itself. */
#define SIMRUN_MAILBOX_SIZE 4096u

extern int simrun_logtype;
#define SIMRUN_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, simrun_logtype, "pcc.simrun: " fmt "\n", ##__VA_ARGS__)

/* What the simulator told the run. */
struct simrun_view {
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

/* The settings of a simulator run (filled by simrun_wiring). */
struct simrun_plan {
	struct pcc_engine_gen_group *groups; /* malloc'd; absolute start times */
	uint32_t nb_groups;
	uint32_t flows;       /* flow table capacity; 0 = the caller's */
	uint32_t mbufs_extra; /* mbufs the fabric may hold; 0 = the caller's */
	bool share_dev_ports; /* more sender hosts than logical ports */
	uint8_t cnp_dscp;     /* the engine NP answers for the receivers */
	uint32_t cnp_gap_us;  /* 0 = a CNP for every marked packet */
	struct pcc_engine_np_sqpn sqpn[PCC_ENGINE_NP_SQPN_MAP_MAX];
	uint32_t nb_sqpn;
};

/*
 * Fill plan for a simulator run from v (and c's flows_set, mbufs_set):
 * generator groups for the flows the engine sends (absolute start times
 * in virtual ns, QPNs, addresses, sizes, rates, slots, INT), the flow
 * table, the mbufs the fabric may hold (v->mbufs_hint, or what the flows
 * send when they are all finite and that is less), the NP's CNP settings
 * (DSCP, per-QP gap rounded up to a microsecond, sender QPN map), and
 * whether sender hosts share logical ports.  0, or -1 with one line in err.
 */
int simrun_wiring(const struct pcc_simrun_conf *c, const struct simrun_view *v,
		struct simrun_plan *plan, char *err, size_t errlen);

/*
 * The contexts and settings of plan through lib/host: a context per
 * simulator port and role (line rate, peer MAC, one RX queue polled by
 * v->poll_lcore, a shared logical port when needed), the scenario's
 * algorithms and parameters per slot on every RP context, the CNP
 * settings and NP application on every NP context, the generator groups,
 * then c's engine options.  0, or -1 with one line in err.
 */
int simrun_apply(const struct pcc_simrun_conf *c, const struct simrun_view *v,
		const struct simrun_plan *plan, char *err, size_t errlen);

/* Once the contexts run: the scenario's NP mailbox request
 * (hosts.np_mailbox) to every NP context.  0 or -1. */
int simrun_np_mailbox(const struct simrun_view *v, char *err, size_t errlen);

void simrun_plan_free(struct simrun_plan *plan);

struct pcc_host_ctx;

/* Slot al's profile, base RTT (when its algorithm has such a parameter
 * and the scenario does not set it) and parameters on ctx. */
int simrun_algo_params(struct pcc_host_ctx *ctx, const struct pcc_sim_algo *al,
		uint64_t base_rtt_ns, char *err, size_t errlen);

/* A context of the run when the caller gives no ctx_new: created with a
 * mailbox of SIMRUN_MAILBOX_SIZE.  NULL with the reason in err. */
struct pcc_host_ctx *simrun_ctx_default(uint16_t port, bool np, char *err, size_t errlen);

#endif /* SIMRUN_INTERNAL_H */
