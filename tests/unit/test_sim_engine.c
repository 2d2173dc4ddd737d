/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The engine on the simulator in one process, as dpdk-pcc --sim wires
 * them through lib/host (simwire.c): the poll hook steps the simulator
 * between rounds, the engine's idle deadline lets virtual time jump over
 * idle gaps, and one scenario gives one result; run-time control
 * (pcc_engine_flow_rate_set() from the owner lcore, probe formats set
 * through lib/host and checked) on the same run.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "args.h"
#include "host.h"
#include "pcc_engine.h"
#include "pcc_host.h"
#include "pcc_sim.h"
#include "simwire.h"
#include "test_eal.h"

/* one DCQCN flow that starts after 100 us of nothing */
static const char scenario[] = "duration: 400us\n"
			       "topology: {type: dumbbell, senders: 1}\n"
			       "switch: {buffer: 2MB, ecn: {mode: red}}\n"
			       "sim: {mbufs: 8191, packets: 32767, ring_size: 1024}\n"
			       "output: {progress: false, plots: false}\n"
			       "algorithms:\n  - {slot: 0, name: dcqcn}\n"
			       "flows:\n  - {src: s0, dst: r0, start: 100us, size: 200KB}\n";

struct run {
	struct pcc_sim_stats st;
	struct pcc_sim_flow_stats fs;
	uint64_t first_idle; /* what the first round told the hook */
	int hook_busy;       /* pcc_engine_set_poll_hook() once started */
	char dir[64];
	uint64_t pin_bps;              /* pin the flow's rate as soon as it exists */
	int pin_rc;                    /* what pcc_engine_flow_rate_set() returned */
	struct pcc_engine_flow_info f; /* the flow after the run */
};

static uint64_t hook_calls, hook_first_idle;
/* the run in progress, for the hook */
static struct run *cur_run;
static struct pcc_engine *cur_e;
static struct pcc_engine_flow_key cur_key;

static int
hook(void *arg, uint64_t idle_until_ns)
{
	struct pcc_sim *sim = arg;

	struct pcc_engine_flow_info fi;

	if (hook_calls++ == 0)
		hook_first_idle = idle_until_ns;
	/* from the owner lcore itself: applied at once, no ring */
	if (cur_run->pin_bps != 0 && cur_run->pin_rc == -ENOENT &&
			pcc_engine_flow_get(cur_e, &cur_key, &fi) == 0)
		cur_run->pin_rc = pcc_engine_flow_rate_set(cur_e, &cur_key, cur_run->pin_bps);
	if (idle_until_ns != PCC_ENGINE_POLL_BUSY)
		pcc_sim_engine_idle(sim, idle_until_ns);
	return pcc_sim_step(sim) != 0;
}

/* Engine stopped: the caller applies requests; probe formats are checked. */
static void
stopped_checks(struct pcc_engine *e)
{
	struct pcc_engine_flow_info fi;
	struct pcc_engine_probe_conf got;
	struct pcc_host_probe_conf pc;
	struct pcc_host_ctx *rp = pcc_host_ctx_find(cur_key.port_id, PCC_HOST_ROLE_RP);

	assert_non_null(rp);
	assert_int_equal(pcc_engine_flow_rate_set(e, &cur_key, 0), 0);
	assert_int_equal(pcc_engine_flow_get(e, &cur_key, &fi), 0);
	assert_false(fi.pinned);
	memset(&pc, 0, sizeof(pc));
	pc.format = PCC_HOST_PROBE_IFA2;
	pc.ifa2_gns = 3;
	assert_int_equal(pcc_host_set_probe(rp, 2, &pc), 0);
	assert_int_equal(pcc_engine_port_probe_get(e, cur_key.port_id, 2, &got), 0);
	assert_int_equal(got.format, PCC_ENGINE_PROBE_IFA2);
	assert_int_equal(got.ifa2_gns, 3);
	pc.ifa2_proto = 200; /* the classifier recognises 253 */
	assert_int_equal(pcc_host_set_probe(rp, 2, &pc), -EPROTO);
	pc.ifa2_proto = 0;
	pc.ifa2_gns = 16;
	assert_int_equal(pcc_host_set_probe(rp, 2, &pc), -ERANGE);
	/* the refusals changed nothing */
	assert_int_equal(pcc_engine_port_probe_get(e, cur_key.port_id, 2, &got), 0);
	assert_int_equal(got.ifa2_gns, 3);
}

static void
run_once(struct run *r, const char *dir, uint64_t pin_bps)
{
	static struct pcc_sim_port_info ports[4];
	static struct pcc_sim_flow_info flows[4];
	static struct app_sim_plan plan;
	static struct app_args args;
	const struct pcc_sim_algo *algos;
	struct pcc_sim_scenario *scn;
	struct app_sim_view v;
	struct pcc_engine *e;
	struct pcc_sim *sim;
	char err[256];
	uint16_t i;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	r->pin_bps = pin_bps;
	r->pin_rc = -ENOENT;
	cur_run = r;
	scn = pcc_sim_scenario_parse(scenario, sizeof(scenario) - 1, "engine", err, sizeof(err));
	assert_non_null(scn);
	assert_int_equal(pcc_sim_scenario_set(scn, "output.dir", dir, err, sizeof(err)), 0);
	sim = pcc_sim_create(scn, PCC_SIM_SEED_SCENARIO);
	assert_non_null(sim);

	app_args_default(&args);
	memset(&v, 0, sizeof(v));
	v.nb_ports = pcc_sim_port_count(sim);
	assert_int_equal(v.nb_ports, 1); /* s0 only: r0 has the hardware NP */
	for (i = 0; i < v.nb_ports; i++)
		assert_int_equal(pcc_sim_port_info_get(sim, i, &ports[i]), 0);
	v.ports = ports;
	v.nb_flows = pcc_sim_flows(sim, flows, 4);
	v.flows = flows;
	v.nb_algos = pcc_sim_algos(sim, &algos);
	v.algos = algos;
	assert_int_equal(pcc_sim_np_info_get(sim, &v.np), 0);
	v.mbufs_hint = pcc_sim_mbufs_hint(sim);
	v.poll_lcore = rte_get_main_lcore();
	assert_int_equal(app_sim_wiring(&args, &v, &plan, err, sizeof(err)), 0);
	for (i = 0; i < v.nb_ports; i++)
		assert_int_equal(pcc_engine_port_clock_register(
						 ports[i].port_id, pcc_sim_clock, sim),
				0);
	if (app_sim_apply(&args, &v, &plan, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(pcc_host_set_poll_hook(hook, sim), 0);
	hook_calls = 0;
	pcc_engine_flow_key_qp(&cur_key, ports[0].port_id, flows[0].qpn);
	assert_int_equal(app_host_start(), 0);
	e = pcc_host_engine();
	assert_non_null(e);
	cur_e = e;
	assert_int_equal(pcc_engine_port_clock_src(e, ports[0].port_id),
			PCC_ENGINE_CLOCK_REGISTERED);
	assert_int_equal(pcc_engine_flow_rate_set(e, &cur_key, 1000000000), -ENOENT);
	r->hook_busy = pcc_host_set_poll_hook(hook, sim);
	assert_int_equal(pcc_host_main_loop(NULL, NULL, 1000), 0);
	/* nothing to do until the flow starts at 100 us of virtual time */
	r->first_idle = hook_first_idle;
	app_host_stop();
	assert_int_equal(pcc_engine_flow_get(e, &cur_key, &r->f), 0);
	if (pin_bps != 0)
		stopped_checks(e);
	assert_true(pcc_sim_done(sim));
	assert_int_equal(pcc_sim_finish(sim, NULL), 0);
	pcc_sim_stats_get(sim, &r->st);
	pcc_sim_flow_stats_get(sim, 0, &r->fs);
	pcc_sim_release(sim);
	app_host_detach();
	assert_null(pcc_host_engine());
	for (i = 0; i < v.nb_ports; i++)
		pcc_engine_port_clock_register(ports[i].port_id, NULL, NULL);
	pcc_sim_destroy(sim);
	pcc_sim_scenario_free(scn);
	app_sim_plan_free(&plan);
}

static int
file_same(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int ca, cb, same = fa != NULL && fb != NULL;

	while (same) {
		ca = fgetc(fa);
		cb = fgetc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa != NULL)
		fclose(fa);
	if (fb != NULL)
		fclose(fb);
	return same;
}

static void
test_hook_idle_and_determinism(void **state)
{
	static const char *const files[] = { "flows.csv", "queues.csv", "cnps.csv", "summary.json",
		"plot.gp" };
	char dir_a[] = "/tmp/pcc-sim-engine-XXXXXX", dir_b[] = "/tmp/pcc-sim-engine-XXXXXX";
	char pa[128], pb[128], cmd[160];
	struct run a, b;
	unsigned int i;

	(void)state;
	assert_non_null(mkdtemp(dir_a));
	assert_non_null(mkdtemp(dir_b));
	run_once(&a, dir_a, 0);
	assert_int_equal(a.first_idle, 100000);
	assert_int_equal(a.hook_busy, -EBUSY);
	/* the 200 KB message is delivered, after its start */
	assert_true(a.fs.done);
	assert_true(a.fs.first_rx_ns > 100000);
	assert_int_equal(a.fs.rx_payload, 200000);
	/* the run ended when the flow completed (sim.end_on_completion) */
	assert_int_equal(a.st.now_ns, a.fs.fct_ns + 100000);
	/* idle time was skipped: far fewer steps than one per 250 ns quantum */
	print_message("# %" PRIu64 " steps for %" PRIu64 " ns of virtual time, FCT %" PRIu64
		      " ns\n",
			a.st.steps, a.st.now_ns, a.fs.fct_ns);
	assert_true(a.st.steps < a.st.now_ns / 250 / 2);
	run_once(&b, dir_b, 0);
	for (i = 0; i < RTE_DIM(files); i++) {
		snprintf(pa, sizeof(pa), "%s/%s", dir_a, files[i]);
		snprintf(pb, sizeof(pb), "%s/%s", dir_b, files[i]);
		if (!file_same(pa, pb))
			fail_msg("%s differs between two runs", files[i]);
	}
	assert_int_equal(a.st.steps, b.st.steps);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", dir_a, dir_b);
	assert_int_equal(system(cmd), 0);
}

/* A pinned rate holds against DCQCN's results; probe formats are checked. */
static void
test_pin_and_probe(void **state)
{
	char dir[] = "/tmp/pcc-sim-engine-XXXXXX", cmd[96];
	struct run a;

	(void)state;
	assert_non_null(mkdtemp(dir));
	run_once(&a, dir, 10000000000ull);
	assert_int_equal(a.pin_rc, 0);
	assert_true(a.f.pinned);
	/* 10 Gb/s of a 100 Gb/s line, to the 20-bit fixed point */
	assert_true(a.f.rate_bps <= 10000000000ull && a.f.rate_bps > 9999900000ull);
	/* 200 KB at 10 Gb/s: at least 160 us (at line rate it takes ~20 us) */
	assert_true(a.fs.done);
	print_message("# pinned at 10 Gb/s: FCT %" PRIu64 " ns\n", a.fs.fct_ns);
	assert_true(a.fs.fct_ns >= 160000);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hook_idle_and_determinism),
		cmocka_unit_test(test_pin_and_probe),
	};
	int ret;

	if (test_eal_init("test_sim_engine", "512", "-l", "0", "--log-level", "pcc.*:warning",
			    NULL) < 0) {
		fprintf(stderr, "EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	test_eal_cleanup();
	return ret;
}
