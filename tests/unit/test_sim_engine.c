/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The engine on the simulator in one process, as dpdk-pcc --sim wires
 * them through lib/host (lib/simrun): the poll hook steps the simulator
 * between rounds, the engine's idle deadline lets virtual time jump over
 * idle gaps, and one scenario gives one result; run-time control
 * (pcc_engine_flow_rate_set() from the owner lcore, probe formats set
 * through lib/host and checked) on the same run; contexts started one
 * after the other run as if started together; a rate change reaches the
 * wire; ports with nothing due skipped with the same results; hosts
 * sharing engine ports (sim.hosts_per_port) all driven.  The IFA
 * RTT probes on the same wiring are test_sim_probe.c's.
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
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "args.h"
#include "host.h"
#include "pcc_engine.h"
#include "pcc_host.h"
#include "pcc_sim.h"
#include "pcc_simrun.h"
#include "test_sim_wire.h"

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
	uint64_t pin_below;            /* ... and its rate is below this (0: any) */
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
	if (cur_run != NULL && cur_run->pin_bps != 0 && cur_run->pin_rc == -ENOENT &&
			pcc_engine_flow_get(cur_e, &cur_key, &fi) == 0 &&
			(cur_run->pin_below == 0 || fi.rate_bps < cur_run->pin_below))
		cur_run->pin_rc = pcc_engine_flow_rate_set(cur_e, &cur_key, cur_run->pin_bps);
	return wire_step(sim, idle_until_ns);
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
	static struct wired w;
	struct pcc_engine *e;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	r->pin_bps = pin_bps;
	r->pin_rc = -ENOENT;
	cur_run = r;
	wire(&w, scenario, dir);
	assert_int_equal(w.nb_ports, 1); /* s0 only: r0 has the hardware NP */
	assert_int_equal(pcc_host_set_poll_hook(hook, w.sim), 0);
	hook_calls = 0;
	pcc_engine_flow_key_qp(&cur_key, w.ports[0].port_id, w.flows[0].qpn);
	assert_int_equal(app_host_start(), 0);
	e = pcc_host_engine();
	assert_non_null(e);
	cur_e = e;
	assert_int_equal(pcc_engine_port_clock_src(e, w.ports[0].port_id),
			PCC_ENGINE_CLOCK_REGISTERED);
	assert_int_equal(pcc_engine_flow_rate_set(e, &cur_key, 1000000000), -ENOENT);
	r->hook_busy = pcc_host_set_poll_hook(hook, w.sim);
	assert_int_equal(pcc_host_main_loop(NULL, NULL, 1000), 0);
	/* nothing to do until the flow starts at 100 us of virtual time */
	r->first_idle = hook_first_idle;
	app_host_stop();
	assert_int_equal(pcc_engine_flow_get(e, &cur_key, &r->f), 0);
	if (pin_bps != 0)
		stopped_checks(e);
	assert_true(pcc_sim_done(w.sim));
	assert_int_equal(pcc_sim_finish(w.sim, NULL), 0);
	pcc_sim_stats_get(w.sim, &r->st);
	pcc_sim_flow_stats_get(w.sim, 0, &r->fs);
	unwire(&w);
	cur_run = NULL;
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

/* The n files named in both run directories are byte for byte the same
 * (else the test fails: "<file> differs <how>"); then both go. */
static void
dirs_same_rm(const char *a, const char *b, const char *const *files, unsigned int n,
		const char *how)
{
	char pa[128], pb[128], cmd[160];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(pa, sizeof(pa), "%s/%s", a, files[i]);
		snprintf(pb, sizeof(pb), "%s/%s", b, files[i]);
		if (!file_same(pa, pb))
			fail_msg("%s differs %s", files[i], how);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", a, b);
	assert_int_equal(system(cmd), 0);
}

static void
test_hook_idle_and_determinism(void **state)
{
	static const char *const files[] = { "flows.csv", "queues.csv", "cnps.csv", "summary.json",
		"plot.gp" };
	char dir_a[] = "/tmp/pcc-sim-engine-XXXXXX", dir_b[] = "/tmp/pcc-sim-engine-XXXXXX";
	struct run a, b;

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
	assert_int_equal(a.st.steps, b.st.steps);
	dirs_same_rm(dir_a, dir_b, files, RTE_DIM(files), "between two runs");
}

/* two senders of three flows each that start together; the result must
 * not depend on how the contexts are started (with more than one flow on
 * a port, each round moves the generator's round-robin start) */
static const char scenario2[] = "duration: 150us\n"
				"topology: {type: dumbbell, senders: 2}\n"
				"switch: {buffer: 2MB, ecn: {mode: red}}\n"
				"sim: {mbufs: 8191, packets: 32767, ring_size: 1024}\n"
				"output: {progress: false, plots: false}\n"
				"algorithms:\n  - {slot: 0, name: dcqcn}\n"
				"flows:\n  - {src: [s0, s1], dst: r0, size: infinite, count: 3}\n";

/*
 * Run scenario2 into dir.  stagger: start s0's context, let the engine
 * poll rounds on its own (s1's port paused) before s1's starts, as a
 * loaded main thread does; else start both at once.
 */
static void
run_two(const char *dir, bool stagger)
{
	static struct wired w;
	struct pcc_engine_lcore_stats ls;
	struct pcc_engine_flow_key key;
	struct pcc_engine_flow_info fi;
	struct rte_eth_stats es;
	struct pcc_host_ctx *c0, *c1;
	char err[256];
	unsigned int i;

	wire(&w, scenario2, dir);
	assert_int_equal(w.nb_ports, 2);
	c0 = pcc_host_ctx_find(w.ports[0].port_id, PCC_HOST_ROLE_RP);
	c1 = pcc_host_ctx_find(w.ports[1].port_id, PCC_HOST_ROLE_RP);
	assert_non_null(c0);
	assert_non_null(c1);
	if (stagger) {
		assert_int_equal(pcc_host_start(c0), 0);
		/* the main lcore polls while it waits: rounds pass without s1 */
		assert_int_equal(pcc_host_wait(c0, 20), -ETIMEDOUT);
		assert_int_equal(pcc_engine_lcore_stats_get(
						 pcc_host_engine(), rte_get_main_lcore(), &ls),
				0);
		assert_true(ls.polls > 0);
		/* the engine is held until pcc_simrun_started(): those rounds
		 * left s0's port alone, whatever their number (no flow of s0
		 * in the table, nothing sent) */
		for (i = 0; i < RTE_DIM(w.flows); i++)
			if (w.flows[i].src_port_id == w.ports[0].port_id)
				break;
		assert_true(i < RTE_DIM(w.flows));
		pcc_engine_flow_key_qp(&key, w.ports[0].port_id, w.flows[i].qpn);
		assert_int_equal(pcc_engine_flow_get(pcc_host_engine(), &key, &fi), -ENOENT);
		assert_int_equal(rte_eth_stats_get(w.ports[0].port_id, &es), 0);
		assert_int_equal(es.opackets, 0);
		assert_int_equal(pcc_host_start(c1), 0);
	} else {
		assert_int_equal(app_host_start(), 0);
	}
	if (pcc_simrun_started(w.run, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(pcc_host_main_loop(NULL, NULL, 1000), 0);
	app_host_stop();
	assert_true(pcc_sim_done(w.sim));
	assert_int_equal(pcc_sim_finish(w.sim, NULL), 0);
	unwire(&w);
}

/* Contexts started one after the other give the run of a joint start:
 * neither virtual time nor the engine's work on a port starts before
 * pcc_simrun_started(). */
static void
test_staggered_start(void **state)
{
	static const char *const files[] = { "flows.csv", "queues.csv", "summary.json" };
	char dir_a[] = "/tmp/pcc-sim-engine-XXXXXX", dir_b[] = "/tmp/pcc-sim-engine-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir_a));
	assert_non_null(mkdtemp(dir_b));
	run_two(dir_a, false);
	run_two(dir_b, true);
	dirs_same_rm(dir_a, dir_b, files, RTE_DIM(files), "between a joint and a staggered start");
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

/* ---- Ports with nothing due (pcc_engine_port_skip()) --------------------------- */

/* What one run of a scenario leaves to compare. */
struct skip_run {
	struct pcc_engine_port_stats ps[RTE_DIM(((struct wired *)0)->ports)];
	struct pcc_engine_lcore_stats ls;
	struct pcc_sim_stats st;
	int pin_rc;
};

/*
 * Run text into dir with the port skip on or off.  pin_bps: the last
 * flow pinned to it from the poll hook once its rate is below pin_below
 * (pcc_engine_flow_rate_set() on the owner, applied at once).  timer_us:
 * the engine's timer events ("timer-us"); flows: the flow table's size
 * ("flows"; NULL: lib/simrun's, twice the scenario's flows).
 */
static void
run_skip(const char *text, const char *dir, bool skip, uint64_t pin_bps, uint64_t pin_below,
		const char *timer_us, const char *flows, struct skip_run *r)
{
	static struct wired w;
	struct pcc_engine *e;
	struct run pin;
	char err[256];
	uint16_t i;

	memset(r, 0, sizeof(*r));
	memset(&pin, 0, sizeof(pin));
	assert_int_equal(pcc_host_opt_set(NULL, "timer-us", timer_us), 0);
	if (flows != NULL)
		assert_int_equal(pcc_host_opt_set(NULL, "flows", flows), 0);
	wire_sized(&w, text, dir, flows != NULL);
	pin.pin_bps = pin_bps;
	pin.pin_below = pin_below;
	pin.pin_rc = -ENOENT;
	cur_run = &pin;
	i = (uint16_t)pcc_sim_flow_count(w.sim);
	assert_true(i > 0 && i <= RTE_DIM(w.flows));
	pcc_engine_flow_key_qp(&cur_key, w.flows[i - 1].src_port_id, w.flows[i - 1].qpn);
	assert_int_equal(pcc_host_set_poll_hook(hook, w.sim), 0);
	assert_int_equal(app_host_start(), 0);
	e = pcc_host_engine();
	assert_non_null(e);
	cur_e = e;
	assert_int_equal(pcc_engine_port_skip(e, skip), 0);
	if (pcc_simrun_started(w.run, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(pcc_host_main_loop(NULL, NULL, 1000), 0);
	for (i = 0; i < w.nb_ports; i++)
		assert_int_equal(pcc_engine_port_stats_get(e, w.ports[i].port_id, &r->ps[i]), 0);
	assert_int_equal(pcc_engine_lcore_stats_get(e, rte_get_main_lcore(), &r->ls), 0);
	r->pin_rc = pin.pin_rc;
	app_host_stop();
	assert_true(pcc_sim_done(w.sim));
	assert_int_equal(pcc_sim_finish(w.sim, NULL), 0);
	pcc_sim_stats_get(w.sim, &r->st);
	unwire(&w);
	assert_int_equal(pcc_host_opt_set(NULL, "timer-us", "0"), 0);
	cur_run = NULL;
}

/*
 * Sixteen senders to one receiver: each port has a packet to send every
 * few rounds.  DCQCN: rates cut by CNPs and raised again at the events
 * that follow (an ACK's new rate moves the next departure closer); one
 * port with three short flows, whose last TX bytes are flushed to DCQCN
 * after the coalescing time while the others run; a flow cut below 3G
 * pinned to 80G from the hook (its next departure much closer).
 */
static const char skip_dcqcn[] =
		"duration: 400us\n"
		"topology: {type: incast, senders: 16}\n"
		"switch: {buffer: 2MB, ecn: {mode: red}}\n"
		"sim: {mbufs: 16383, packets: 65535, ring_size: 1024}\n"
		"output: {progress: false, plots: false}\n"
		"algorithms:\n  - {slot: 0, name: dcqcn}\n"
		"flows:\n  - {src: s0, dst: r0, size: 50KB, count: 3}\n"
		"  - {src: [s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15],"
		" dst: r0, size: 300KB}\n";
/* HPCC: a window that ACKs open (INT on every ACK) */
static const char skip_hpcc[] =
		"duration: 150us\n"
		"topology: {type: incast, senders: 6}\n"
		"switch: {buffer: 2MB, int: true, ecn: {mode: off}}\n"
		"hosts: {ack_every: 1}\n"
		"sim: {mbufs: 8191, packets: 32767, ring_size: 1024}\n"
		"output: {progress: false, plots: false}\n"
		"algorithms:\n  - {slot: 0, name: hpcc}\n"
		"flows:\n  - {src: [s0, s1, s2, s3, s4, s5], dst: r0, size: infinite}\n";
/* Swift: RTT probes and a window, flows starting at different times */
static const char skip_swift[] = "duration: 150us\n"
				 "topology: {type: incast, senders: 6}\n"
				 "switch: {buffer: 2MB, ecn: {mode: off}}\n"
				 "sim: {mbufs: 8191, packets: 32767, ring_size: 1024}\n"
				 "output: {progress: false, plots: false}\n"
				 "algorithms:\n  - {slot: 0, name: swift}\n"
				 "flows:\n  - {src: [s0, s1, s2], dst: r0, size: infinite}\n"
				 "  - {src: [s3, s4, s5], dst: r0, size: infinite, start: 20us}\n";
/* TIMELY: RTT samples, each of which may raise the rate (results applied
 * in the RX path wake the port) */
static const char skip_timely[] =
		"duration: 1ms\n"
		"topology: {type: dumbbell, senders: 2}\n"
		"switch: {buffer: 2MB, ecn: {mode: off}}\n"
		"sim: {mbufs: 8191, packets: 32767, ring_size: 1024}\n"
		"output: {progress: false, plots: false}\n"
		"algorithms:\n  - {slot: 0, name: timely, params: {t_low_ns: 50000, t_high_ns: "
		"500000}}\n"
		"flows:\n  - {src: [s0, s1], dst: r0, size: infinite}\n";

/*
 * s0's 70 flows in a table of 64 evict one another and the single flows
 * of s1-s3 (at an offered 1G, their ports skip most rounds): an evicted
 * flow is bound again by its port's next round.
 */
static const char skip_evict[] = "duration: 200us\n"
				 "topology: {type: incast, senders: 4}\n"
				 "switch: {buffer: 2MB, ecn: {mode: red}}\n"
				 "sim: {mbufs: 16383, packets: 65535, ring_size: 1024}\n"
				 "output: {progress: false, plots: false}\n"
				 "algorithms:\n  - {slot: 0, name: dcqcn}\n"
				 "flows:\n  - {src: s0, dst: r0, count: 70, size: infinite}\n"
				 "  - {src: [s1, s2, s3], dst: r0, size: infinite, rate: 1G}\n";
/* s0's 100 flows at an offered 20M each: its generator's rounds, all
 * polled, move its round-robin start; twelve 9G senders keep rounds going */
static const char skip_offered[] =
		"duration: 1ms\n"
		"topology: {type: incast, senders: 13}\n"
		"switch: {buffer: 2MB, ecn: {mode: red}}\n"
		"sim: {mbufs: 16383, packets: 65535, ring_size: 1024}\n"
		"output: {progress: false, plots: false}\n"
		"algorithms:\n  - {slot: 0, name: dcqcn}\n"
		"flows:\n  - {src: s0, dst: r0, count: 100, size: infinite, rate: 20M}\n"
		"  - {src: [s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12], dst: r0,"
		" size: infinite, rate: 9G}\n";

/* four senders and the receiver on two ports (s0-s2; s3 and r0, whose NP
 * is the engine's): the engine drives every host of a shared port */
static const char shared_scenario[] =
		"duration: 2ms\n"
		"topology: {type: incast, senders: 4}\n"
		"switch: {buffer: 2MB, ecn: {mode: red, kmin: 20KB, kmax: 80KB}}\n"
		"hosts: {np: engine}\n"
		"sim: {mbufs: 8191, packets: 32767, ring_size: 1024, hosts_per_port: 3}\n"
		"output: {progress: false, plots: false}\n"
		"algorithms:\n  - {slot: 0, name: dcqcn}\n"
		"flows:\n  - {src: [s0, s1, s2, s3], dst: r0, size: 100KB}\n";
/* DCTCP's incast */
static const char skip_dctcp[] =
		"duration: 300us\n"
		"topology: {type: incast, senders: 8}\n"
		"switch: {buffer: 2MB, ecn: {mode: red, kmin: 20KB, kmax: 80KB}}\n"
		"sim: {mbufs: 16383, packets: 65535, ring_size: 1024}\n"
		"output: {progress: false, plots: false}\n"
		"algorithms:\n  - {slot: 0, name: dctcp}\n"
		"flows:\n  - {src: [s0, s1, s2, s3, s4, s5, s6, s7], dst: r0, size: infinite}\n";
/* flows that end, age out (flow-idle-ms 1) and come again */
static const char skip_aging[] =
		"duration: 2600us\n"
		"topology: {type: incast, senders: 4}\n"
		"switch: {buffer: 2MB, ecn: {mode: red}}\n"
		"sim: {mbufs: 16383, packets: 65535, ring_size: 1024}\n"
		"output: {progress: false, plots: false}\n"
		"algorithms:\n  - {slot: 0, name: dcqcn}\n"
		"flows:\n  - {src: [s0, s1, s2, s3], dst: r0, size: 30KB}\n"
		"  - {src: [s0, s1, s2, s3], dst: r0, size: 30KB, start: 1500us}\n";
/* the engine's senders beside the model's */
static const char skip_model_mix[] =
		"duration: 300us\n"
		"topology: {type: incast, senders: 4}\n"
		"switch: {buffer: 2MB, ecn: {mode: red}}\n"
		"sim: {mbufs: 16383, packets: 65535, ring_size: 1024}\n"
		"output: {progress: false, plots: false}\n"
		"algorithms:\n  - {slot: 0, name: dcqcn}\n"
		"flows:\n  - {src: [s0, s1], dst: r0, size: infinite, rate: 5G}\n"
		"  - {src: [s2, s3], dst: r0, size: infinite, source: model, rate: 20G}\n";
/* HPCC messages, ACKs every 4 packets or 3 us */
static const char skip_hpcc_msgs[] =
		"duration: 300us\n"
		"topology: {type: incast, senders: 4}\n"
		"switch: {buffer: 2MB, int: true, ecn: {mode: off}}\n"
		"hosts: {ack_every: 4, ack_timeout: 3us}\n"
		"sim: {mbufs: 8191, packets: 32767, ring_size: 1024}\n"
		"output: {progress: false, plots: false}\n"
		"algorithms:\n  - {slot: 0, name: hpcc}\n"
		"flows:\n  - {src: [s0, s1, s2, s3], dst: r0, size: 40KB}\n"
		"  - {src: [s0, s1, s2, s3], dst: r0, size: 40KB, start: 100us}\n";

/*
 * A round that skips a port with nothing due changes no result: the
 * output files, every port's counters, the rounds and the simulator's
 * steps and events come out the same with the skip off (every port
 * polled every round).  A missing wake-up (a new rate from an RX event,
 * a pinned rate, a closed window's flow due, the generator's round-robin
 * start) shows as a difference.  The skip must have skipped.  (The
 * generator's rounds on a port with more than one flow are never
 * skipped, eng_gen_wake(): an idle round moves its round-robin start.)
 */
static void
test_port_skip_same(void **state)
{
	static const char *const files[] = { "flows.csv", "queues.csv", "cnps.csv",
		"summary.json" };
	static const struct {
		const char *name;
		const char *text;
		uint64_t pin_bps;
		uint64_t pin_below;
		const char *timer_us;
		const char *flows;
		const char *idle_ms; /* "flow-idle-ms"; NULL: its default */
	} scn[] = {
		{ "dcqcn", skip_dcqcn, 80000000000ull, 3000000000ull, "0", NULL, NULL },
		{ "dcqcn timers", skip_dcqcn, 0, 0, "7", NULL, NULL },
		{ "hpcc", skip_hpcc, 0, 0, "0", NULL, NULL },
		{ "swift", skip_swift, 0, 0, "0", NULL, NULL },
		{ "timely", skip_timely, 0, 0, "0", NULL, NULL },
		{ "evict", skip_evict, 0, 0, "0", "64", NULL },
		{ "offered", skip_offered, 0, 0, "0", NULL, NULL },
		{ "dctcp", skip_dctcp, 0, 0, "0", NULL, NULL },
		{ "shared ports", shared_scenario, 0, 0, "0", NULL, NULL },
		{ "aging", skip_aging, 0, 0, "7", NULL, "1" },
		{ "model mix", skip_model_mix, 0, 0, "0", NULL, NULL },
		{ "hpcc messages", skip_hpcc_msgs, 0, 0, "0", NULL, NULL },
	};
	char dir_a[] = "/tmp/pcc-sim-engine-XXXXXX", dir_b[] = "/tmp/pcc-sim-engine-XXXXXX";
	char how[64];
	struct skip_run a, b;
	unsigned int k, i;

	(void)state;
	for (k = 0; k < RTE_DIM(scn); k++) {
		assert_non_null(mkdtemp(dir_a));
		assert_non_null(mkdtemp(dir_b));
		assert_int_equal(pcc_host_opt_set(NULL, "flow-idle-ms",
						 scn[k].idle_ms != NULL ? scn[k].idle_ms : "10000"),
				0);
		run_skip(scn[k].text, dir_a, true, scn[k].pin_bps, scn[k].pin_below,
				scn[k].timer_us, scn[k].flows, &a);
		run_skip(scn[k].text, dir_b, false, scn[k].pin_bps, scn[k].pin_below,
				scn[k].timer_us, scn[k].flows, &b);
		print_message("# %s: %" PRIu64 " rounds, %" PRIu64 " port rounds skipped, %" PRIu64
			      " timer events, %" PRIu64 " flows evicted, %" PRIu64 " aged\n",
				scn[k].name, a.ls.polls, a.ls.port_skips, a.ls.timer_events,
				a.ls.flows_evicted, a.ls.flows_aged);
		if (scn[k].idle_ms != NULL)
			assert_true(a.ls.flows_aged > 0);
		assert_true(a.ls.port_skips > 0);
		assert_int_equal(b.ls.port_skips, 0);
		if (scn[k].pin_bps != 0) {
			assert_int_equal(a.pin_rc, 0);
			assert_int_equal(b.pin_rc, 0);
		}
		for (i = 0; i < RTE_DIM(a.ps); i++)
			if (memcmp(&a.ps[i], &b.ps[i], sizeof(a.ps[i])) != 0)
				fail_msg("%s: port %u's counters differ with the port skip",
						scn[k].name, i);
		/* every lcore counter (flows added, evicted, timer events) */
		a.ls.port_skips = 0;
		if (memcmp(&a.ls, &b.ls, sizeof(a.ls)) != 0)
			fail_msg("%s: the lcore's counters differ with the port skip", scn[k].name);
		assert_int_equal(a.st.steps, b.st.steps);
		assert_int_equal(a.st.events, b.st.events);
		snprintf(how, sizeof(how), "with the port skip (%s)", scn[k].name);
		dirs_same_rm(dir_a, dir_b, files, RTE_DIM(files), how);
		memcpy(dir_a + strlen(dir_a) - 6, "XXXXXX", 6);
		memcpy(dir_b + strlen(dir_b) - 6, "XXXXXX", 6);
	}
}

/* ---- A rate change reaches the wire ------------------------------------------------ */

/*
 * One flow at line rate; at virtual time CUT_NS its rate is set to 10
 * Gb/s.  A TX callback on the engine's port records the departure time
 * stamped on each data frame.  Frames handed to the pacer before the
 * change keep their departures, and the generator hands a frame over at
 * most 0.5 us (the look-ahead) before its departure: so the last frame at
 * the old spacing leaves less than 0.5 us after the change was applied
 * (the poll round at or after CUT_NS: within one 250 ns quantum), and
 * the next one a full frame time at the new rate after it, as the HPCC
 * reference's ChangeRate does.
 */
#define CUT_NS 50000u
#define CUT_BPS 10000000000ull
#define DEP_MAX 4096

static const char cut_scenario[] = "duration: 60us\n"
				   "topology: {type: dumbbell, senders: 1}\n"
				   "switch: {buffer: 2MB, ecn: {mode: off}}\n"
				   "sim: {mbufs: 8191, packets: 32767, ring_size: 1024}\n"
				   "output: {progress: false, plots: false}\n"
				   "algorithms:\n  - {slot: 0, name: noop}\n"
				   "flows:\n  - {src: s0, dst: r0, size: infinite}\n";

static struct pcc_sim *cut_sim;

struct deps {
	int off;
	uint64_t flag;
	uint32_t n;
	uint64_t t[DEP_MAX];
};

static uint16_t
tx_deps(uint16_t port, uint16_t queue, struct rte_mbuf **pkts, uint16_t n, void *arg)
{
	struct deps *d = arg;
	uint16_t i;

	RTE_SET_USED(port);
	RTE_SET_USED(queue);
	for (i = 0; i < n; i++)
		if ((pkts[i]->ol_flags & d->flag) && pkts[i]->pkt_len > 1000 && d->n < DEP_MAX)
			d->t[d->n++] = *RTE_MBUF_DYNFIELD(pkts[i], d->off, uint64_t *);
	return n;
}

static int cut_rc = -ENOENT;

static int
cut_hook(void *arg, uint64_t idle_until_ns)
{
	if (cut_rc == -ENOENT && pcc_sim_now(cut_sim) >= CUT_NS)
		cut_rc = pcc_engine_flow_rate_set(cur_e, &cur_key, CUT_BPS);
	RTE_SET_USED(arg);
	return wire_step(cut_sim, idle_until_ns);
}

static void
test_rate_change_next_departure(void **state)
{
	static struct wired w;
	static struct deps d;
	const struct rte_eth_rxtx_callback *cb;
	uint64_t flag_bit, gap_new = 0, last_old = 0;
	uint16_t port;
	uint32_t i;
	int fbit;

	(void)state;
	memset(&d, 0, sizeof(d));
	wire(&w, cut_scenario, "none");
	port = (uint16_t)w.flows[0].src_port_id;
	pcc_engine_flow_key_qp(&cur_key, port, w.flows[0].qpn);
	cut_sim = w.sim;
	cut_rc = -ENOENT;
	assert_int_equal(pcc_host_set_poll_hook(cut_hook, w.sim), 0);
	assert_int_equal(app_host_start(), 0);
	cur_e = pcc_host_engine();
	assert_non_null(cur_e);
	d.off = rte_mbuf_dynfield_lookup(PCC_ENGINE_TX_DEPART_NAME, NULL);
	fbit = rte_mbuf_dynflag_lookup(PCC_ENGINE_TX_DEPART_FLAG_NAME, NULL);
	assert_true(d.off >= 0 && fbit >= 0);
	flag_bit = UINT64_C(1) << fbit;
	d.flag = flag_bit;
	cb = rte_eth_add_tx_callback(port, 0, tx_deps, &d);
	assert_non_null(cb);
	assert_int_equal(pcc_host_main_loop(NULL, NULL, 1000), 0);
	app_host_stop();
	assert_int_equal(rte_eth_remove_tx_callback(port, 0, cb), 0);
	rte_free((void *)(uintptr_t)cb);
	assert_int_equal(cut_rc, 0);
	assert_true(d.n > 100);
	for (i = 1; i < d.n; i++) {
		uint64_t gap = d.t[i] - d.t[i - 1];

		assert_true(d.t[i] >= d.t[i - 1]);
		if (d.t[i - 1] + 2000 > CUT_NS &&
				gap > 200) { /* 100G: 87.8 ns per frame, 10G: 878.4 ns */
			last_old = d.t[i - 1];
			gap_new = gap;
			break;
		}
	}
	print_message("# rate cut at %u ns: last departure at line rate %" PRIu64
		      " ns, the next %" PRIu64 " ns later\n",
			CUT_NS, last_old, gap_new);
	assert_true(last_old >= CUT_NS);
	assert_true(last_old < CUT_NS + 500 + 250);
	/* (1074 + 24) bytes at 10 Gb/s */
	assert_true(gap_new >= 878 && gap_new <= 879);
	/* and every later frame keeps the new spacing */
	for (; i + 1 < d.n; i++)
		assert_true(d.t[i + 1] - d.t[i] >= 878);
	unwire(&w);
}

/* ---- Hosts sharing engine ports ----------------------------------------------------- */

static void
run_shared(const char *dir, struct pcc_sim_stats *st)
{
	static struct wired w;
	struct pcc_sim_flow_stats fs;
	struct pcc_engine_flow_key key;
	struct pcc_engine_flow_info fi;
	char err[256];
	unsigned int i;

	wire(&w, shared_scenario, dir);
	assert_int_equal(w.nb_ports, 2);
	assert_int_equal(w.ports[0].nb_hosts, 3);
	assert_int_equal(w.ports[1].nb_hosts, 2);
	assert_int_equal(w.ports[1].roles, PCC_SIM_ROLE_RP | PCC_SIM_ROLE_NP);
	assert_int_equal(pcc_simrun_port_by_host(w.run, "s2"), w.ports[0].port_id);
	assert_int_equal(pcc_simrun_port_by_host(w.run, "r0"), w.ports[1].port_id);
	assert_int_equal(app_host_start(), 0);
	if (pcc_simrun_started(w.run, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(pcc_host_main_loop(NULL, NULL, 1000), 0);
	app_host_stop();
	assert_true(pcc_sim_done(w.sim));
	for (i = 0; i < 4; i++) {
		/* each flow in the engine under its host's port */
		assert_int_equal(w.flows[i].src_port_id, w.ports[i < 3 ? 0 : 1].port_id);
		pcc_engine_flow_key_qp(&key, (uint16_t)w.flows[i].src_port_id, w.flows[i].qpn);
		assert_int_equal(pcc_engine_flow_get(pcc_host_engine(), &key, &fi), 0);
		assert_int_equal(pcc_sim_flow_stats_get(w.sim, i, &fs), 0);
		assert_true(fs.done);
		assert_int_equal(fs.rx_payload, 100000);
	}
	assert_int_equal(pcc_sim_finish(w.sim, NULL), 0);
	pcc_sim_stats_get(w.sim, st);
	unwire(&w);
}

/* Every flow is delivered, the engine's NP marks reach the senders as
 * CNPs, nothing is lost outside the fabric, and two runs are the same. */
static void
test_shared_ports(void **state)
{
	static const char *const files[] = { "flows.csv", "queues.csv", "cnps.csv",
		"summary.json" };
	char dir_a[] = "/tmp/pcc-sim-engine-XXXXXX", dir_b[] = "/tmp/pcc-sim-engine-XXXXXX";
	struct pcc_sim_stats a, b;

	(void)state;
	assert_non_null(mkdtemp(dir_a));
	assert_non_null(mkdtemp(dir_b));
	run_shared(dir_a, &a);
	run_shared(dir_b, &b);
	print_message("# %" PRIu64 " marks, %" PRIu64 " CNPs, %" PRIu64 " ACKs\n", a.marks, a.cnps,
			a.acks);
	assert_true(a.marks > 0);
	assert_int_equal(a.cnps, a.marks);
	assert_int_equal(a.unroutable + a.unknown_flow + a.bad_pkts + a.pool_empty, 0);
	assert_int_equal(a.steps, b.steps);
	dirs_same_rm(dir_a, dir_b, files, RTE_DIM(files), "between two runs");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hook_idle_and_determinism),
		cmocka_unit_test(test_staggered_start),
		cmocka_unit_test(test_pin_and_probe),
		cmocka_unit_test(test_rate_change_next_departure),
		cmocka_unit_test(test_port_skip_same),
		cmocka_unit_test(test_shared_ports),
	};

	return cmocka_run_group_tests(tests, wire_eal_setup, wire_eal_teardown);
}
