/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_SIMRUN_H
#define PCC_SIMRUN_H

/**
 * @file
 * A simulator run through lib/host: the fabric simulator (drivers/sim)
 * made the engine's ports, and the engine configured from the scenario
 * (contexts per host and role, algorithms, generator flows, the NP's CNP
 * settings, the NP application and its mailbox).  dpdk-pcc --sim and the
 * compatibility layers (lib/compat) run scenarios through it, so a
 * scenario means the same wherever it runs.  doc/simulator.md.
 *
 * Life of a run, on the main lcore after rte_eal_init():
 *
 *   run = pcc_simrun_create(&conf, err, len);   simulator, contexts
 *   ... (more lib/host settings on the contexts) ...
 *   pcc_host_start() on every context
 *   pcc_simrun_started(run, err, len);          NP mailbox, service
 *   while (!pcc_simrun_done(run)) pcc_host_wait()/main loop
 *   stop the contexts; pcc_simrun_stop(run);
 *   pcc_simrun_finish(run, stdout);             outputs, summary
 *   pcc_simrun_release(run);                    fabric's mbufs back
 *   destroy the contexts; pcc_simrun_destroy(run);
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pcc_host.h"
#include "pcc_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pcc_simrun;

/** How a run steps the simulator. */
enum pcc_simrun_mode {
	/** between the engine's poll rounds on its one polling lcore */
	PCC_SIMRUN_DETERMINISTIC = 0,
	/** an rte_service on its own service lcore, free-running */
	PCC_SIMRUN_SERVICE = 1,
};

/** Settings of a run. */
struct pcc_simrun_conf {
	/** the scenario, overrides applied; the caller keeps it until destroy
	 *  (the run sets hosts.cnp_gap to what its profiles assume) */
	struct pcc_sim_scenario *scn;
	uint64_t seed; /**< PCC_SIM_SEED_SCENARIO: the file's */
	enum pcc_simrun_mode mode;
	/** lcore that polls every port (RTE_MAX_LCORE: the first worker, else
	 *  the main lcore) */
	uint32_t poll_lcore;
	bool flows_set; /**< the caller sized the flow table ("flows") */
	bool mbufs_set; /**< the caller set "nb-mbufs" */
	/**
	 * Make a context (NULL: pcc_host_rp/np_create with a 4 KiB mailbox);
	 * NULL with the reason in err.
	 */
	struct pcc_host_ctx *(*ctx_new)(
			void *arg, uint16_t port_id, bool np, char *err, size_t errlen);
	/**
	 * The caller's engine options: once with ctx NULL (process options)
	 * before the contexts, then on each context after the scenario's
	 * settings.  NULL: none.  0, or -1 with the reason in err.
	 */
	int (*opts)(void *arg, struct pcc_host_ctx *ctx, char *err, size_t errlen);
	void *arg; /**< for ctx_new and opts */
};

/** Zeroed conf: scenario seed, deterministic, poll lcore chosen. */
void pcc_simrun_conf_default(struct pcc_simrun_conf *conf);

/**
 * Create the simulator of conf->scn and, when the scenario has hosts for
 * the engine, configure lib/host for it: port clocks and MACs, one
 * context per port and role with the scenario's settings, the generator
 * groups and, in deterministic mode, the poll hook that steps the
 * simulator.  NULL with one line in err (a scenario the engine cannot
 * run: *usage set) or on failure.
 */
struct pcc_simrun *pcc_simrun_create(
		const struct pcc_simrun_conf *conf, char *err, size_t errlen, bool *usage);

/** The simulator of the run. */
struct pcc_sim *pcc_simrun_sim(const struct pcc_simrun *run);

/** Whether the scenario has no host for the engine (the model runs alone:
 *  pcc_sim_run() it, then pcc_simrun_finish()). */
bool pcc_simrun_model_only(const struct pcc_simrun *run);

/** Engine ports of the run (simulator hosts with a role). */
uint16_t pcc_simrun_port_count(const struct pcc_simrun *run);
/** Port idx (0..count-1): 0 or -EINVAL. */
int pcc_simrun_port_info(const struct pcc_simrun *run, uint16_t idx, struct pcc_sim_port_info *p);
/** ethdev port of the host named name ("s0", "r0", "h3"), or -ENOENT. */
int pcc_simrun_port_by_host(const struct pcc_simrun *run, const char *name);
/** The lcore that polls every port. */
uint32_t pcc_simrun_poll_lcore(const struct pcc_simrun *run);
/** Flows of the scenario (generated ones and the model's). */
uint32_t pcc_simrun_flow_count(const struct pcc_simrun *run);
/** Algorithm slots the scenario configures. */
uint32_t pcc_simrun_algo_count(const struct pcc_simrun *run);

/**
 * Once every context runs: the scenario's NP mailbox request
 * (hosts.np_mailbox) to every NP context, then, in service mode, the
 * simulator's service on its lcore.  In deterministic mode the simulator
 * does not step before this call, so virtual time does not pass while
 * contexts start one after the other (the run does not depend on how
 * fast the main thread starts them).  0, or -1 with one line in err.
 */
int pcc_simrun_started(struct pcc_simrun *run, char *err, size_t errlen);

/** Whether the scenario has ended (its duration, or every finite flow
 *  completed). */
bool pcc_simrun_done(const struct pcc_simrun *run);

/** Service mode: stop the simulator's service (after the engine stopped). */
void pcc_simrun_stop(struct pcc_simrun *run);

/** Write the run's outputs and summary to out (pcc_sim_finish).  0 or -1. */
int pcc_simrun_finish(struct pcc_simrun *run, FILE *out);

/**
 * Check and complete scn's algorithm profiles (doc/simulator.md, "Profiles
 * and base RTT"): every slot's profile exists, the profiles agree on the
 * receivers' CNP gap, and hosts.cnp_gap is set to it (an explicit one that
 * differs is refused).  pcc_simrun_create() calls it; a program may call it
 * first to report a scenario error early.  0, or -EINVAL with the reason
 * in why.
 */
int pcc_simrun_profiles_check(struct pcc_sim_scenario *scn, char *why, size_t len);

/** The profile slot al runs ("none" when it runs none). */
const char *pcc_simrun_profile_name(const struct pcc_sim_algo *al);

/** Give back the mbufs the fabric holds (before the engine's pool goes:
 *  before the contexts are destroyed).  Idempotent. */
void pcc_simrun_release(struct pcc_simrun *run);

/**
 * Free the run, after its contexts are destroyed: poll hook removed, port
 * clocks unregistered, the simulator and its ports destroyed.  NULL is a
 * no-op.
 */
void pcc_simrun_destroy(struct pcc_simrun *run);

#ifdef __cplusplus
}
#endif

#endif /* PCC_SIMRUN_H */
