/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_SIM_WIRE_H
#define TEST_SIM_WIRE_H

/*
 * The engine on the simulator in one process, wired as dpdk-pcc --sim
 * wires them (lib/simrun, lib/host): the tests of test_sim_engine.c and
 * test_sim_probe.c.  Include after cmocka.h.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "host.h"
#include "pcc_engine.h"
#include "pcc_host.h"
#include "pcc_sim.h"
#include "pcc_simrun.h"
#include "test_eal.h"

/* A scenario wired to the engine as dpdk-pcc --sim does (lib/simrun). */
struct wired {
	struct pcc_sim_scenario *scn;
	struct pcc_simrun *run;
	struct pcc_sim *sim;
	struct pcc_sim_port_info ports[16];
	struct pcc_sim_flow_info flows[128];
	uint16_t nb_ports;
};

static inline struct pcc_host_ctx *
wire_ctx_new(void *arg, uint16_t port, bool np, char *err, size_t errlen)
{
	(void)arg;
	return app_host_ctx_new(port, np, err, errlen);
}

/* flows_set: the caller sized the flow table ("flows"), not lib/simrun */
static inline void
wire_sized(struct wired *w, const char *text, const char *dir, bool flows_set)
{
	struct pcc_simrun_conf conf;
	char err[256];
	uint16_t i;

	memset(w, 0, sizeof(*w));
	w->scn = pcc_sim_scenario_parse(text, strlen(text), "engine", err, sizeof(err));
	if (w->scn == NULL)
		fail_msg("%s", err);
	assert_int_equal(pcc_sim_scenario_set(w->scn, "output.dir", dir, err, sizeof(err)), 0);
	pcc_simrun_conf_default(&conf);
	conf.scn = w->scn;
	conf.poll_lcore = rte_get_main_lcore();
	conf.flows_set = flows_set;
	conf.ctx_new = wire_ctx_new;
	w->run = pcc_simrun_create(&conf, err, sizeof(err), NULL);
	if (w->run == NULL)
		fail_msg("%s", err);
	w->sim = pcc_simrun_sim(w->run);
	w->nb_ports = pcc_simrun_port_count(w->run);
	assert_true(w->nb_ports <= RTE_DIM(w->ports));
	for (i = 0; i < w->nb_ports; i++)
		assert_int_equal(pcc_simrun_port_info(w->run, i, &w->ports[i]), 0);
	pcc_sim_flows(w->sim, w->flows, RTE_DIM(w->flows));
}

static inline void
wire(struct wired *w, const char *text, const char *dir)
{
	wire_sized(w, text, dir, false);
}

/* After app_host_stop(): the model lets go of the engine's mbufs, then
 * the engine goes, then the sim. */
static inline void
unwire(struct wired *w)
{
	pcc_simrun_release(w->run);
	app_host_detach();
	assert_null(pcc_host_engine());
	pcc_simrun_destroy(w->run);
	pcc_sim_scenario_free(w->scn);
}

/* What dpdk-pcc's poll hook does between rounds: the engine's idle
 * deadline to the sim, then one step; true once the scenario is done. */
static inline int
wire_step(struct pcc_sim *sim, uint64_t idle_until_ns)
{
	if (idle_until_ns != PCC_ENGINE_POLL_BUSY)
		pcc_sim_engine_idle(sim, idle_until_ns);
	return pcc_sim_step(sim) != 0;
}

/* Both programs' cmocka group setup: the EAL on lcore 0 (the poll lcore),
 * the engine's and the sim's logs from warnings up. */
static inline int
wire_eal_setup(void **state)
{
	(void)state;
	if (test_eal_init("test_sim_wire", "512", "-l", "0", "--log-level", "pcc.*:warning", NULL) <
			0) {
		fprintf(stderr, "EAL: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

static inline int
wire_eal_teardown(void **state)
{
	(void)state;
	test_eal_cleanup();
	return 0;
}

#endif /* TEST_SIM_WIRE_H */
