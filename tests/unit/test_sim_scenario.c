/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the simulator's scenario files (drivers/sim, libyaml):
 * defaults, units, flow expansion and QPN assignment, per-speed marking
 * thresholds, overrides, every shipped scenario in config/scenarios, and
 * the errors for bad files: unknown key, duplicate key, wrong node type,
 * bad value, out of range, missing required key, unknown host, YAML
 * syntax, each with FILE:LINE:COLUMN; the IFA2 profiles (every switch's,
 * per switch by name) and their errors; plug-ins and the NP app with its
 * mailbox (paths relative to the scenario file).  No EAL needed.
 */

#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sim_internal.h"

#ifndef PCC_SCENARIO_DIR
#define PCC_SCENARIO_DIR "config/scenarios"
#endif

static struct pcc_sim_scenario *
parse(const char *text, char *err, size_t errlen)
{
	return pcc_sim_scenario_parse(text, strlen(text), "t.yaml", err, errlen);
}

/* Parsing text fails with exactly `want` as the message. */
static void
expect_err(const char *text, const char *want)
{
	char err[512];
	struct pcc_sim_scenario *s = parse(text, err, sizeof(err));

	if (s != NULL || strcmp(err, want) != 0)
		print_error("text:\n%s\nwant: %s\ngot:  %s\n", text, want,
				s != NULL ? "(parsed)" : err);
	assert_null(s);
	assert_string_equal(err, want);
}

#define MIN_FLOWS "flows:\n  - {src: s0, dst: r0}\n"

static void
test_defaults(void **state)
{
	char err[256];
	struct pcc_sim_scenario *s;

	(void)state;
	s = parse("topology: {type: dumbbell}\n" MIN_FLOWS, err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(s->name, "t");
	assert_int_equal(s->seed, 1);
	assert_int_equal(s->duration_ns, 10000000);
	assert_int_equal(s->quantum_ns, 250);
	assert_int_equal(s->topo.type, SIM_TOPO_DUMBBELL);
	assert_int_equal(s->topo.senders, 2);
	assert_int_equal(s->topo.receivers, 1);
	assert_int_equal(s->topo.host_link.rate_bps, 100000000000ull);
	assert_int_equal(s->topo.host_link.delay_ns, 1000);
	assert_int_equal(s->sw.buffer, 32000000);
	assert_int_equal(s->sw.ecn.mode, SIM_ECN_RED);
	assert_true(s->sw.ecn.pmax == 0.2);
	assert_int_equal(s->host.np, SIM_NP_HW);
	assert_int_equal(s->host.ack_every, 1);
	assert_int_equal(s->host.cnp_gap_ns, 50000);
	assert_int_equal(s->nb_flows, 1);
	assert_int_equal(s->flows[0].src, 0);
	assert_int_equal(s->flows[0].dst, 2);
	assert_int_equal(s->flows[0].size, 0);
	assert_int_equal(s->flows[0].payload, 1000);
	assert_int_equal(s->flows[0].qpn, 0x100);
	assert_int_equal(s->flows[0].dst_qpn, 0x100);
	assert_string_equal(s->out.dir, "sim-out/t");
	assert_int_equal(s->out.sample_ns, 10000);
	pcc_sim_scenario_free(s);
	/* an incast has 8 senders by default */
	s = parse("topology: {type: incast}\n" MIN_FLOWS, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(s->topo.senders, 8);
	assert_int_equal(sim_topo_nb_hosts(&s->topo), 9);
	pcc_sim_scenario_free(s);
}

static void
test_units_and_flows(void **state)
{
	static const char text[] =
			"name: u\n"
			"seed: 0x2a\n"
			"duration: 2.5ms\n"
			"quantum: 100ns\n"
			"topology:\n"
			"  type: leaf-spine\n"
			"  leaves: 2\n"
			"  spines: 3\n"
			"  hosts_per_leaf: 2\n"
			"  host_link: {rate: 25G, delay: 1.5us}\n"
			"  fabric_link: {rate: 100Gbps, delay: 500}\n"
			"switch: {buffer: 4MiB, ecn: {mode: step, k: 30KB}}\n"
			"algorithms:\n"
			"  - {slot: 0, name: dcqcn, params: {g: 256, rai_mbps: 40}}\n"
			"  - {slot: 3, name: hpcc}\n"
			"flows:\n"
			"  - {src: [h0, h1], dst: h3, count: 2, size: 1MB, start: 10us,\n"
			"     stagger: 5us, rate: 10G, payload: 4KiB, slot: 3}\n"
			"  - {src: h2, dst: h0, qpn: 0x100, size: infinite, source: model}\n"
			"output: {dir: none, sample: 1us, window: 0.25, plots: false}\n";
	char err[256];
	struct pcc_sim_scenario *s = parse(text, err, sizeof(err));
	uint32_t i;

	(void)state;
	if (s == NULL)
		print_error("%s\n", err);
	assert_non_null(s);
	assert_string_equal(s->name, "u");
	assert_int_equal(s->seed, 42);
	assert_int_equal(s->duration_ns, 2500000);
	assert_int_equal(s->quantum_ns, 100);
	assert_int_equal(s->topo.type, SIM_TOPO_LEAF_SPINE);
	assert_int_equal(sim_topo_nb_hosts(&s->topo), 4);
	assert_int_equal(s->topo.host_link.rate_bps, 25000000000ull);
	assert_int_equal(s->topo.host_link.delay_ns, 1500);
	assert_int_equal(s->topo.fabric.rate_bps, 100000000000ull);
	assert_int_equal(s->topo.fabric.delay_ns, 500);
	assert_int_equal(s->sw.buffer, 4194304);
	assert_int_equal(s->sw.ecn.mode, SIM_ECN_STEP);
	assert_int_equal(s->sw.ecn.k, 30000);
	assert_int_equal(s->nb_algos, 2);
	assert_string_equal(s->algos[0].name, "dcqcn");
	assert_int_equal(s->algos[0].nb_params, 2);
	assert_string_equal(s->algos[0].params[1].name, "rai_mbps");
	assert_string_equal(s->algos[0].params[1].value, "40");
	assert_int_equal(s->algos[1].slot, 3);
	assert_int_equal(s->nb_flows, 5);
	for (i = 0; i < 4; i++) {
		assert_int_equal(s->flows[i].src, i / 2);
		assert_int_equal(s->flows[i].dst, 3);
		assert_int_equal(s->flows[i].size, 1000000);
		assert_int_equal(s->flows[i].start_ns, 10000 + 5000 * i);
		assert_int_equal(s->flows[i].rate_bps, 10000000000ull);
		assert_int_equal(s->flows[i].payload, 4096);
		assert_int_equal(s->flows[i].slot, 3);
		assert_int_equal(s->flows[i].source, PCC_SIM_SRC_ENGINE);
	}
	/* 0x100 is taken explicitly by the last flow: assigned QPNs skip it */
	assert_int_equal(s->flows[4].qpn, 0x100);
	assert_int_equal(s->flows[4].source, PCC_SIM_SRC_MODEL);
	assert_int_equal(s->flows[0].qpn, 0x101);
	assert_int_equal(s->flows[3].qpn, 0x104);
	assert_int_equal(s->flows[3].dst_qpn, 0x104);
	assert_string_equal(s->out.dir, "");
	assert_false(s->out.plots);
	assert_true(s->out.window == 0.25);
	pcc_sim_scenario_free(s);
}

static void
test_thresholds(void **state)
{
	struct sim_ecn_conf e = { .mode = SIM_ECN_RED, .pmax = 0.2 };
	uint64_t kmin, kmax;

	(void)state;
	/* REFERENCE §3: 25G 100/400 KB, 50G 200/800 KB, 100G 400/1600 KB */
	sim_ecn_thresholds(&e, 25000000000ull, &kmin, &kmax);
	assert_int_equal(kmin, 100000);
	assert_int_equal(kmax, 400000);
	sim_ecn_thresholds(&e, 50000000000ull, &kmin, &kmax);
	assert_int_equal(kmin, 200000);
	assert_int_equal(kmax, 800000);
	sim_ecn_thresholds(&e, 100000000000ull, &kmin, &kmax);
	assert_int_equal(kmin, 400000);
	assert_int_equal(kmax, 1600000);
	/* DCTCP: K = 30 * bw / 10 KB */
	e.mode = SIM_ECN_STEP;
	sim_ecn_thresholds(&e, 10000000000ull, &kmin, &kmax);
	assert_int_equal(kmin, 30000);
	sim_ecn_thresholds(&e, 100000000000ull, &kmin, &kmax);
	assert_int_equal(kmin, 300000);
	assert_int_equal(kmax, 300000);
	e.k = 12345;
	sim_ecn_thresholds(&e, 100000000000ull, &kmin, &kmax);
	assert_int_equal(kmin, 12345);
	e.mode = SIM_ECN_RED;
	e.kmin = 1000;
	e.kmax = 2000;
	sim_ecn_thresholds(&e, 100000000000ull, &kmin, &kmax);
	assert_int_equal(kmin, 1000);
	assert_int_equal(kmax, 2000);
}

static void
test_override(void **state)
{
	char err[256];
	struct pcc_sim_scenario *s =
			parse("topology: {type: incast, senders: 2}\n" MIN_FLOWS, err, sizeof(err));

	(void)state;
	assert_non_null(s);
	assert_int_equal(pcc_sim_scenario_set(s, "seed", "7", err, sizeof(err)), 0);
	assert_int_equal(s->seed, 7);
	assert_int_equal(pcc_sim_scenario_set(s, "duration", "1ms", err, sizeof(err)), 0);
	assert_int_equal(s->duration_ns, 1000000);
	assert_int_equal(
			pcc_sim_scenario_set(s, "output.dir", "/tmp/a \"b\"", err, sizeof(err)), 0);
	assert_string_equal(s->out.dir, "/tmp/a \"b\"");
	assert_int_equal(pcc_sim_scenario_set(s, "output.plots", "false", err, sizeof(err)), 0);
	assert_false(s->out.plots);
	assert_int_equal(pcc_sim_scenario_set(s, "output.dir", "none", err, sizeof(err)), 0);
	assert_string_equal(s->out.dir, "");
	assert_int_equal(pcc_sim_scenario_set(s, "topology.senders", "3", err, sizeof(err)), -1);
	assert_string_equal(err, "override:1:1: 'topology' cannot be overridden");
	assert_int_equal(pcc_sim_scenario_set(s, "seeds", "3", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown key 'seeds'"));
	assert_int_equal(pcc_sim_scenario_set(s, "quantum", "5ms", err, sizeof(err)), -1);
	assert_string_equal(err, "override: quantum is longer than the duration");
	assert_int_equal(pcc_sim_scenario_set(s, "output.sample", "1x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'sample': '1x' is not a time"));
	pcc_sim_scenario_free(s);
}

/* switch.ifa2_profile for every switch, switch.ifa2_profiles per switch. */
static void
test_ifa2_profiles(void **state)
{
	char err[256];
	struct pcc_sim_scenario *s;

	(void)state;
	s = parse("topology: {type: dumbbell}\n" MIN_FLOWS, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(s->sw.ifa2_profile, SIM_IFA2_PROFILE_DPDK_PCC);
	assert_int_equal(sim_switch_ifa2_profile(&s->sw, 0), SIM_IFA2_PROFILE_DPDK_PCC);
	assert_int_equal(sim_switch_ifa2_profile(&s->sw, 1), SIM_IFA2_PROFILE_DPDK_PCC);
	pcc_sim_scenario_free(s);
	/* the override wins whichever comes first */
	s = parse("topology: {type: dumbbell}\n"
		  "switch: {ifa2: true, ifa2_profiles: {sw1: dpdk-pcc}, ifa2_profile: "
		  "doca}\n" MIN_FLOWS,
			err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(s->sw.ifa2_profile, SIM_IFA2_PROFILE_DOCA);
	assert_int_equal(sim_switch_ifa2_profile(&s->sw, 0), SIM_IFA2_PROFILE_DOCA);
	assert_int_equal(sim_switch_ifa2_profile(&s->sw, 1), SIM_IFA2_PROFILE_DPDK_PCC);
	pcc_sim_scenario_free(s);
	/* leaf-spine: leaves, then spines */
	s = parse("topology: {type: leaf-spine, leaves: 2, spines: 2}\n"
		  "switch:\n  ifa2_profiles:\n    spine0: doca\n    leaf1: doca\n"
		  "flows:\n  - {src: h0, dst: h5}\n",
			err, sizeof(err));
	if (s == NULL)
		print_error("%s\n", err);
	assert_non_null(s);
	assert_int_equal(sim_topo_nb_switches(&s->topo), 4);
	assert_int_equal(sim_switch_ifa2_profile(&s->sw, 0), SIM_IFA2_PROFILE_DPDK_PCC);
	assert_int_equal(sim_switch_ifa2_profile(&s->sw, 1), SIM_IFA2_PROFILE_DOCA);
	assert_int_equal(sim_switch_ifa2_profile(&s->sw, 2), SIM_IFA2_PROFILE_DOCA);
	assert_int_equal(sim_switch_ifa2_profile(&s->sw, 3), SIM_IFA2_PROFILE_DPDK_PCC);
	pcc_sim_scenario_free(s);
	expect_err("topology: {type: dumbbell}\nswitch: {ifa2_profile: broadcom}\n" MIN_FLOWS,
			"t.yaml:2:24: 'ifa2_profile': 'broadcom' is not one of: dpdk-pcc, doca");
	expect_err("topology: {type: dumbbell}\nswitch: {ifa2_profiles: {sw1: "
		   "broadcom}}\n" MIN_FLOWS,
			"t.yaml:2:31: 'sw1': 'broadcom' is not one of: dpdk-pcc, doca");
	expect_err("topology: {type: dumbbell}\nswitch: {ifa2_profiles: {sw2: doca}}\n" MIN_FLOWS,
			"t.yaml:2:26: 'ifa2_profiles': no switch 'sw2' in this dumbbell topology "
			"(switches sw0 .. sw1)");
	expect_err("topology: {type: incast}\nswitch: {ifa2_profiles: {sw1: doca}}\n" MIN_FLOWS,
			"t.yaml:2:26: 'ifa2_profiles': no switch 'sw1' in this incast topology "
			"(switches sw0 .. sw0)");
	expect_err("topology: {type: leaf-spine}\n"
		   "switch:\n  ifa2_profiles:\n    leaf0: doca\n    sw0: doca\n"
		   "flows:\n  - {src: h0, dst: h5}\n",
			"t.yaml:5:5: 'ifa2_profiles': no switch 'sw0' in this leaf-spine topology "
			"(switches leaf0 .. spine1)");
	expect_err("topology: {type: dumbbell}\n"
		   "switch:\n  ifa2_profiles:\n    sw0: doca\n    sw0: dpdk-pcc\n" MIN_FLOWS,
			"t.yaml:5:5: duplicate key 'sw0' in switch.ifa2_profiles");
	expect_err("topology: {type: dumbbell}\nswitch: {ifa2_profiles: [sw0]}\n" MIN_FLOWS,
			"t.yaml:2:25: 'ifa2_profiles' must be a mapping (switch: profile), not a "
			"list");
	expect_err("topology: {type: dumbbell}\nswitch: {ifa2_profiles: {sw0: [doca]}}\n" MIN_FLOWS,
			"t.yaml:2:31: 'sw0' must be a scalar, not a list");
}

/* plugins (paths relative to the scenario file), hosts.np_app and np_mailbox. */
static void
test_plugins_np_app(void **state)
{
	static const char text[] =
			"topology: {type: dumbbell}\n"
			"plugins: [a.so, /abs/b.so]\n"
			"hosts: {np: engine, np_app: ../np.so, np_mailbox: 0xFe0001}\n" MIN_FLOWS;
	char err[512];
	struct pcc_sim_scenario *s;

	(void)state;
	s = pcc_sim_scenario_parse(text, strlen(text), "/etc/scn/t.yaml", err, sizeof(err));
	if (s == NULL)
		print_error("%s\n", err);
	assert_non_null(s);
	assert_int_equal(pcc_sim_scenario_plugin_count(s), 2);
	assert_string_equal(pcc_sim_scenario_plugin(s, 0), "/etc/scn/a.so");
	assert_string_equal(pcc_sim_scenario_plugin(s, 1), "/abs/b.so");
	assert_null(pcc_sim_scenario_plugin(s, 2));
	assert_string_equal(s->host.np_app, "/etc/scn/../np.so");
	assert_int_equal(s->host.np_mailbox_len, 3);
	assert_int_equal(s->host.np_mailbox[0], 0xfe);
	assert_int_equal(s->host.np_mailbox[1], 0x00);
	assert_int_equal(s->host.np_mailbox[2], 0x01);
	pcc_sim_scenario_free(s);
	/* a plug-in's name (no '/', no .so) is kept as written */
	s = pcc_sim_scenario_parse("topology: {type: dumbbell}\nhosts: {np: engine, np_app: "
				   "telem_np}\n" MIN_FLOWS,
			strlen("topology: {type: dumbbell}\nhosts: {np: engine, np_app: "
			       "telem_np}\n" MIN_FLOWS),
			"/etc/scn/t.yaml", err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(s->host.np_app, "telem_np");
	pcc_sim_scenario_free(s);
	/* without a directory in the name, paths are kept as written */
	s = parse("topology: {type: dumbbell}\nplugins: [x.so]\n" MIN_FLOWS, err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(pcc_sim_scenario_plugin(s, 0), "x.so");
	pcc_sim_scenario_free(s);

	expect_err("topology: {type: dumbbell}\nplugins: x.so\n" MIN_FLOWS,
			"t.yaml:2:10: 'plugins' must be a list of paths, not a scalar");
	expect_err("topology: {type: dumbbell}\nhosts: {np: engine, np_app: a.so, "
		   "np_mailbox: abc}\n" MIN_FLOWS,
			"t.yaml:2:47: 'np_mailbox': 'abc' is not 1..256 bytes in hex");
	expect_err("topology: {type: dumbbell}\nhosts: {np: engine, np_app: a.so, "
		   "np_mailbox: zz}\n" MIN_FLOWS,
			"t.yaml:2:47: 'np_mailbox': 'zz' is not hex");
	expect_err("topology: {type: dumbbell}\nhosts: {np_app: a.so}\n" MIN_FLOWS,
			"t.yaml:1:1: hosts.np_app and hosts.np_mailbox are for the engine's NP "
			"(hosts.np: engine)");
	expect_err("topology: {type: dumbbell}\nhosts: {np: engine, np_mailbox: 01}\n" MIN_FLOWS,
			"t.yaml:1:1: hosts.np_mailbox needs hosts.np_app (the handler)");
}

/* algorithms[].profile, base_rtt, and whether hosts.cnp_gap was given. */
static void
test_profile_base_rtt_cnp_gap(void **state)
{
	char err[256];
	struct pcc_sim_scenario *s;
	struct pcc_sim_algo al;
	uint64_t gap;

	(void)state;
	s = parse("topology: {type: dumbbell}\n"
		  "algorithms:\n  - {slot: 0, name: dcqcn, profile: paper}\n"
		  "  - {slot: 1, name: hpcc}\n" MIN_FLOWS,
			err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(pcc_sim_scenario_algo_get(s, 0, &al), 0);
	assert_string_equal(al.profile, "paper");
	assert_int_equal(pcc_sim_scenario_algo_get(s, 1, &al), 0);
	assert_string_equal(al.profile, ""); /* the algorithm's default */
	assert_int_equal(s->base_rtt_ns, 0); /* auto */
	/* the default gap, not given; then given through an override */
	assert_int_equal(pcc_sim_scenario_cnp_gap(s, &gap), 0);
	assert_int_equal(gap, 50000);
	assert_int_equal(pcc_sim_scenario_set(s, "hosts.cnp_gap", "0ns", err, sizeof(err)), 0);
	assert_int_equal(pcc_sim_scenario_cnp_gap(s, &gap), 1);
	assert_int_equal(gap, 0);
	assert_int_equal(pcc_sim_scenario_set(s, "base_rtt", "6.5us", err, sizeof(err)), 0);
	assert_int_equal(s->base_rtt_ns, 6500);
	assert_int_equal(pcc_sim_scenario_set(s, "base_rtt", "auto", err, sizeof(err)), 0);
	assert_int_equal(s->base_rtt_ns, 0);
	pcc_sim_scenario_free(s);
	s = parse("topology: {type: dumbbell}\nbase_rtt: 10us\nhosts: {cnp_gap: 4us}\n" MIN_FLOWS,
			err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(s->base_rtt_ns, 10000);
	assert_int_equal(pcc_sim_scenario_cnp_gap(s, &gap), 1);
	assert_int_equal(gap, 4000);
	pcc_sim_scenario_free(s);
	expect_err("topology: {type: dumbbell}\nbase_rtt: soon\n" MIN_FLOWS,
			"t.yaml:2:11: 'base_rtt': 'soon' is not 'auto' or a time (ns, or with "
			"ns, us, ms, s)");
	expect_err("topology: {type: dumbbell}\nbase_rtt: 10ns\n" MIN_FLOWS,
			"t.yaml:2:11: 'base_rtt': 10ns is out of range [100, 100000000]");
	expect_err("topology: {type: dumbbell}\n"
		   "algorithms:\n  - {slot: 0, name: dcqcn, profile: ''}\n" MIN_FLOWS,
			"t.yaml:3:37: 'profile' is empty");
}

static void
test_errors(void **state)
{
	(void)state;
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: r0}\nbogus: 1\n",
			"t.yaml:4:1: unknown key 'bogus' in the scenario (known: name, "
			"description, "
			"seed, duration, quantum, topology, switch, base_rtt, hosts, plugins, "
			"algorithms, flows, sim, output)");
	expect_err("topology:\n  type: dumbbell\n  sender: 3\n" MIN_FLOWS,
			"t.yaml:3:3: unknown key 'sender' in topology (known: type, senders, "
			"receivers, leaves, spines, hosts_per_leaf, host_link, bottleneck, "
			"fabric_link)");
	expect_err("topology: {type: dumbbell}\nseed: 1\nseed: 2\n" MIN_FLOWS,
			"t.yaml:3:1: duplicate key 'seed' in the scenario");
	expect_err("topology: {type: ring}\n" MIN_FLOWS,
			"t.yaml:1:18: 'type': 'ring' is not one of: dumbbell, incast, leaf-spine");
	expect_err("topology: [dumbbell]\n" MIN_FLOWS,
			"t.yaml:1:11: topology must be a mapping, not a list");
	expect_err("topology:\n  type: dumbbell\n  host_link: {rate: 5G}\n" MIN_FLOWS,
			"t.yaml:3:21: 'rate': 5G is out of range [10000000000, 400000000000]");
	expect_err("topology:\n  type: dumbbell\n  host_link: {rate: fast}\n" MIN_FLOWS,
			"t.yaml:3:21: 'rate': 'fast' is not a rate (Gb/s, or with G, Gbps, M, "
			"Mbps)");
	expect_err("topology: {type: dumbbell}\nduration: 10 parsecs\n" MIN_FLOWS,
			"t.yaml:2:11: 'duration': '10 parsecs' is not a time (ns, or with ns, us, "
			"ms, "
			"s)");
	expect_err("topology: {type: dumbbell}\nswitch: {ecn: {pmax: 1.5}}\n" MIN_FLOWS,
			"t.yaml:2:22: 'pmax': 1.5 is out of range [0, 1]");
	expect_err("topology: {type: dumbbell}\nhosts: {ack_every: 2.5}\n" MIN_FLOWS,
			"t.yaml:2:20: 'ack_every': '2.5' is not a non-negative integer");
	expect_err("topology: {type: dumbbell}\nswitch: {int: maybe}\n" MIN_FLOWS,
			"t.yaml:2:15: 'int': 'maybe' is not a boolean (true/false)");
	expect_err("topology: {type: dumbbell}\n",
			"t.yaml:1:1: the scenario: missing required key 'flows'");
	expect_err(MIN_FLOWS, "t.yaml:1:1: the scenario: missing required key 'topology'");
	expect_err("topology: {senders: 2}\n" MIN_FLOWS,
			"t.yaml:1:11: topology: missing required key 'type'");
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0}\n",
			"t.yaml:3:5: flow group: missing required key 'dst'");
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: r7}\n",
			"t.yaml:3:20: 'dst': no host 'r7' in this dumbbell topology (hosts s0 .. "
			"r0)");
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: s0}\n",
			"t.yaml:3:20: a flow from a host to itself");
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: r0, slot: 2}\n",
			"t.yaml:3: flow uses algorithm slot 2, which 'algorithms' does not "
			"configure");
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: r0, colour: red}\n",
			"t.yaml:3:24: unknown key 'colour' in a flow group (known: count, qpn, "
			"dst_qpn, size, payload, start, stagger, rate, slot, src, dst, source)");
	/* the flow schema of --gen-file (lib/flowspec): its live-only key */
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: r0, port: 1}\n",
			"t.yaml:3:24: 'port' names a DPDK port: --gen-file only; a "
			"scenario's flows name hosts (src, dst)");
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: r0, rate_mbps: 1}\n",
			"t.yaml:3:24: 'rate_mbps' is --gen-file's earlier spelling: write rate: "
			"1M (values take a unit)");
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: r0, source: [x]}\n",
			"t.yaml:3:32: 'source' must be a scalar, not a list");
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: [], dst: r0}\n",
			"t.yaml:3:11: 'src': empty list");
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: [r0]}\n",
			"t.yaml:3:20: 'dst' must be a host name, not a list");
	expect_err("topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: r0, qpn: 5}\n"
		   "  - {src: s1, dst: r0, qpn: 5}\n",
			"t.yaml:4: QPN 0x5 / 0x5 clashes with the flow at line 3 on the same host");
	expect_err("topology: {type: dumbbell}\nflows: []\n", "t.yaml:2:8: 'flows' is empty");
	expect_err("topology: {type: dumbbell\n" MIN_FLOWS,
			"t.yaml:2:6: YAML syntax error: did not find expected ',' or '}' "
			"while parsing a flow mapping");
	expect_err("topology:\n  type: dumbbell\n  host_link: {rate: 10G}\nswitch: {int: "
		   "true}\n" MIN_FLOWS,
			"t.yaml:1:1: switch.int needs link rates HPCC INT can encode (25, 50, 100, "
			"200 or 400 G)");
	expect_err("topology: {type: dumbbell}\nalgorithms:\n  - {slot: 0}\n" MIN_FLOWS,
			"t.yaml:3:5: algorithm: missing required key 'name'");
	expect_err("", "t.yaml: empty scenario");
}

static void
test_load_file(void **state)
{
	char err[512], path[512];
	struct pcc_sim_scenario *s;
	FILE *f;

	(void)state;
	s = pcc_sim_scenario_load("/nonexistent/x.yaml", err, sizeof(err));
	assert_null(s);
	assert_string_equal(err, "/nonexistent/x.yaml: No such file or directory");
	snprintf(path, sizeof(path), "/tmp/pcc-sim-scn-%d.yaml", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "# comment\ntopology:\n  type: incast\n  senders: 0\n" MIN_FLOWS);
	fclose(f);
	s = pcc_sim_scenario_load(path, err, sizeof(err));
	assert_null(s);
	{
		char want[600];

		snprintf(want, sizeof(want), "%s:4:12: 'senders': 0 is out of range [1, 1024]",
				path);
		assert_string_equal(err, want);
	}
	unlink(path);
}

/*
 * QPNs at scale (issue 21): 128 hosts all-to-all (16256 flows) plus flows
 * with an explicit QPN and destination QPN; assigned QPNs follow the rule
 * (from qpn_base, in flow order, skipping every explicit QPN and
 * destination QPN), and a clash is reported against the first flow it
 * clashes with, whether by source or by destination host.
 */
#define A2A_HOSTS 128

static char *
a2a_text(const char *head, const char *tail)
{
	size_t cap = 1u << 20, n;
	char *t = malloc(cap);
	unsigned int d, h;

	assert_non_null(t);
	n = (size_t)snprintf(t, cap,
			"topology: {type: leaf-spine, leaves: 8, spines: 8, hosts_per_leaf: "
			"16}\nflows:\n%s",
			head);
	for (d = 0; d < A2A_HOSTS; d++) {
		n += (size_t)snprintf(t + n, cap - n, "  - {dst: h%u, src: [", d);
		for (h = 0; h < A2A_HOSTS; h++)
			if (h != d)
				n += (size_t)snprintf(t + n, cap - n, "%sh%u",
						h == 0 || (d == 0 && h == 1) ? "" : ", ", h);
		n += (size_t)snprintf(t + n, cap - n, "]}\n");
	}
	n += (size_t)snprintf(t + n, cap - n, "%s", tail);
	assert_true(n < cap);
	return t;
}

static void
test_qpn_scale(void **state)
{
	struct pcc_sim_scenario *s;
	char err[512], *t;
	uint32_t i, next = 0x100;

	(void)state;
	t = a2a_text("  - {src: h1, dst: h0, qpn: 0x180}\n"
		     "  - {src: h2, dst: h0, dst_qpn: 0x300}\n",
			"");
	s = parse(t, err, sizeof(err));
	if (s == NULL)
		print_error("%s\n", err);
	assert_non_null(s);
	assert_int_equal(s->nb_flows, 2 + A2A_HOSTS * (A2A_HOSTS - 1));
	assert_int_equal(s->flows[0].qpn, 0x180);
	assert_int_equal(s->flows[0].dst_qpn, 0x180);
	assert_int_equal(s->flows[1].dst_qpn, 0x300);
	for (i = 1; i < s->nb_flows; i++) {
		while (next == 0x180 || next == 0x300)
			next++;
		assert_int_equal(s->flows[i].qpn, next);
		if (i > 1)
			assert_int_equal(s->flows[i].dst_qpn, next);
		next++;
	}
	assert_int_equal(s->flows[2].src, 1);
	assert_int_equal(s->flows[2].dst, 0);
	pcc_sim_scenario_free(s);
	free(t);

	/* the last flow clashes with line 4 by source (h4) and with line 3 by
	 * destination (h9): line 3, the first, is reported */
	t = a2a_text("  - {src: h3, dst: h9, qpn: 0x5000}\n"
		     "  - {src: h4, dst: h8, qpn: 0x5000}\n",
			"  - {src: h4, dst: h9, qpn: 0x5000}\n");
	s = parse(t, err, sizeof(err));
	assert_null(s);
	assert_string_equal(err,
			"t.yaml:133: QPN 0x5000 / 0x5000 clashes with the flow at line 3 "
			"on the same host");
	free(t);
}

/* Every shipped scenario loads. */
static void
test_shipped(void **state)
{
	DIR *d = opendir(PCC_SCENARIO_DIR);
	struct dirent *e;
	unsigned int n = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char path[1024], err[512];
		struct pcc_sim_scenario *s;
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", PCC_SCENARIO_DIR, e->d_name);
		s = pcc_sim_scenario_load(path, err, sizeof(err));
		if (s == NULL)
			print_error("%s\n", err);
		assert_non_null(s);
		assert_true(s->nb_flows > 0);
		pcc_sim_scenario_free(s);
		n++;
	}
	closedir(d);
	assert_true(n >= 10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_units_and_flows),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_override),
		cmocka_unit_test(test_ifa2_profiles),
		cmocka_unit_test(test_plugins_np_app),
		cmocka_unit_test(test_profile_base_rtt_cnp_gap),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_qpn_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
