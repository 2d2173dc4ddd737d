/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* dpdk-pcc --sim: the options and the engine configuration of a run. */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "args.h"
#include "simrun_internal.h"

#define ARGV(...) ((char *[]){ (char *)"dpdk-pcc", __VA_ARGS__, NULL })
#define ARGC(v) ((int)(sizeof(v) / sizeof(v[0])) - 1)
#define SCN(name) PCC_SCENARIO_DIR "/" name ".yaml"

static struct app_args args;
static char err[512];

static int
parse(int argc, char **argv)
{
	app_args_free(&args);
	app_args_default(&args);
	err[0] = '\0';
	return app_args_parse(argc, argv, &args, err, sizeof(err));
}

#define PARSE(...) parse(ARGC(ARGV(__VA_ARGS__)), ARGV(__VA_ARGS__))

static void
test_sim_options(void **state)
{
	(void)state;
	assert_int_equal(PARSE("--sim", SCN("hpcc")), APP_ARGS_OK);
	assert_non_null(args.sim_scn);
	assert_string_equal(args.sim_file, SCN("hpcc"));
	assert_int_equal(args.sim_mode, APP_SIM_DETERMINISTIC);
	assert_false(args.stats_set);
	assert_int_equal(PARSE("--sim", SCN("hpcc"), "--seed", "7", "--sim-quantum", "100",
					 "--sim-out", "none", "--sim-mode", "service",
					 "--stats-period", "0", "--flows", "4096",
					 "--tx-coalesce-bytes", "0"),
			APP_ARGS_OK);
	assert_int_equal(args.sim_seed, 7);
	assert_int_equal(args.sim_quantum_ns, 100);
	assert_int_equal(args.sim_mode, APP_SIM_SERVICE);
	assert_true(args.stats_set);
	assert_string_equal(app_hopt(&args, "flows"), "4096");
	assert_string_equal(app_hopt(&args, "tx-coalesce-bytes"), "0");
}

static void
expect_err(int rc, const char *token)
{
	assert_int_equal(rc, APP_ARGS_ERR);
	if (strstr(err, token) == NULL)
		fail_msg("error '%s' does not name '%s'", err, token);
}

static void
test_sim_option_errors(void **state)
{
	char path[] = "/tmp/pcc-app-sim-XXXXXX";
	FILE *f;
	int fd;

	(void)state;
	expect_err(PARSE("--seed", "1"), "--seed needs --sim");
	expect_err(PARSE("--sim-out", "x"), "--sim-out needs --sim");
	expect_err(PARSE("--sim-mode", "service"), "--sim-mode needs --sim");
	expect_err(PARSE("--sim", SCN("hpcc"), "--sim-mode", "fast"), "'fast'");
	expect_err(PARSE("--sim", SCN("hpcc"), "--sim-quantum", "0"), "'0'");
	expect_err(PARSE("--sim", SCN("hpcc"), "--seed", "-1"), "'-1'");
	expect_err(PARSE("--sim", "/nonexistent/x.yaml"), "invalid --sim: /nonexistent/x.yaml");
	expect_err(PARSE("--sim", SCN("hpcc"), "--ring-pair"), "--ring-pair with --sim");
	expect_err(PARSE("--sim", SCN("hpcc"), "--algo", "dcqcn"), "--algo with --sim");
	expect_err(PARSE("--sim", SCN("hpcc"), "--gen-file", SCN("hpcc")), "invalid");
	expect_err(PARSE("--sim", SCN("hpcc"), "--line-rate", "25"), "--line-rate with --sim");
	expect_err(PARSE("--sim", SCN("hpcc"), "--gen-rate", "100"),
			"--gen-rate with --sim (the scenario's flows: section lists the flows)");
	expect_err(PARSE("--sim", SCN("hpcc"), "--gen-dst-mac", "02:00:00:00:00:01"),
			"--gen-dst-mac with --sim");
	expect_err(PARSE("--sim", SCN("hpcc"), "--gen-flows", "4", "--gen-size", "100"),
			"--gen-flows with --sim");
	expect_err(PARSE("--sim", SCN("hpcc"), "--np-cnp-gap-us", "5"), "--np-cnp-gap-us with");
	expect_err(PARSE("--config", "(0,0,1)", "--sim", SCN("hpcc")), "--config with --sim");

	/* a scenario whose algorithm parameter the algorithm does not have */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f,
			"topology: {type: dumbbell}\n"
			"algorithms:\n  - {slot: 3, name: dcqcn, params: {bogus: 1}}\n"
			"flows:\n  - {src: s0, dst: r0, slot: 3}\n");
	fclose(f);
	expect_err(PARSE("--sim", path), "slot 3");
	assert_non_null(strstr(err, "'bogus'"));
	/* and a YAML error: FILE:LINE:COLUMN */
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "topology: {type: dumbbell}\nflows:\n  - {src: s0, dst: r9}\n");
	fclose(f);
	expect_err(PARSE("--sim", path), ":3:");
	unlink(path);
	app_args_free(&args);
}

/* The run settings dpdk-pcc derives from its options (main.c run_sim). */
static const struct pcc_simrun_conf *
conf_of(const struct app_args *a)
{
	static struct pcc_simrun_conf c;

	memset(&c, 0, sizeof(c));
	c.flows_set = app_hopt(a, "flows") != NULL;
	c.mbufs_set = app_hopt(a, "nb-mbufs") != NULL;
	return &c;
}

/* A dumbbell of two senders and a receiver with the engine's NP. */
static struct pcc_sim_port_info ports[3];
static struct pcc_sim_flow_info flows[4];
static struct pcc_sim_param params0[2] = { { "g", "512" }, { "t_inc_ns", "55000" } };
static struct pcc_sim_algo algos[2];

static void
view_default(struct simrun_view *v)
{
	uint16_t i;

	memset(ports, 0, sizeof(ports));
	memset(flows, 0, sizeof(flows));
	memset(algos, 0, sizeof(algos));
	for (i = 0; i < 3; i++) {
		ports[i].port_id = (uint16_t)(4 + i);
		ports[i].host = i;
		ports[i].roles = i < 2 ? PCC_SIM_ROLE_RP : PCC_SIM_ROLE_NP;
		ports[i].peer_mac[5] = (uint8_t)(0x10 + i);
		ports[i].line_rate_bps = i == 1 ? 25000000000ull : 100000000000ull;
		ports[i].ipv4 = 0x0A010001u + i;
	}
	for (i = 0; i < 4; i++) {
		struct pcc_sim_flow_info *f = &flows[i];

		f->idx = i;
		snprintf(f->name, sizeof(f->name), "f%u", i);
		f->src_port_id = i < 2 ? 4 + i : 4;
		f->dst_port_id = 6;
		f->slot = i == 1 ? 2 : 0;
		f->qpn = 0x100 + i;
		f->dst_qpn = f->qpn;
		f->src_ip = 0x0A010001u + (i == 1);
		f->dst_ip = 0x0A010003u;
		f->dst_mac[5] = 3;
		f->size = i == 0 ? 0 : 1000000;
		f->start_ns = 1500 * i;
		f->rate_bps = 100000000000ull;
		f->payload_len = 1000;
	}
	flows[1].int_hdr = true;
	flows[1].dst_qpn = 0x900;
	flows[1].rate_bps = 25000400000ull;
	flows[3].source = PCC_SIM_SRC_MODEL; /* the model sends it */
	flows[3].src_port_id = -1;
	algos[0].slot = 0;
	snprintf(algos[0].name, sizeof(algos[0].name), "dcqcn");
	algos[0].params = params0;
	algos[0].nb_params = 2;
	algos[1].slot = 2;
	snprintf(algos[1].name, sizeof(algos[1].name), "hpcc");
	memset(v, 0, sizeof(*v));
	v->ports = ports;
	v->nb_ports = 3;
	v->flows = flows;
	v->nb_flows = 4;
	v->algos = algos;
	v->nb_algos = 2;
	v->np.engine = true;
	v->np.cnp_gap_ns = 1500;
	v->np.cnp_dscp = 46;
	v->mbufs_hint = 12345;
	v->poll_lcore = 3;
}

static void
test_sim_wiring(void **state)
{
	static struct simrun_plan plan;
	const struct pcc_engine_gen_group *g;
	struct simrun_view v;

	(void)state;
	assert_int_equal(PARSE("--sim", SCN("hpcc"), "--burst", "64"), APP_ARGS_OK);
	view_default(&v);
	assert_int_equal(simrun_wiring(conf_of(&args), &v, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.mbufs_extra, 12345);
	assert_int_equal(plan.flows, SIMRUN_FLOWS_MIN);
	assert_false(plan.share_dev_ports);
	/* generator: the three engine flows, absolute virtual start times */
	assert_int_equal(plan.nb_groups, 3);
	g = &plan.groups[1];
	assert_int_equal(g->port_id, 5);
	assert_int_equal(g->count, 1);
	assert_int_equal(g->qpn_base, 0x101);
	assert_int_equal(g->dst_qpn_base, 0x900);
	assert_int_equal(g->start_us, 0);
	assert_int_equal(g->start_ns, 1500);
	assert_int_equal(g->rate_mbps, 25000); /* 25000.4 Mb/s rounded */
	assert_true(g->int_hdr);
	assert_true(g->slot_set);
	assert_int_equal(g->slot, 2);
	assert_true(g->dst_mac_valid);
	assert_int_equal(g->src_ip, 0x0A010002u);
	assert_int_equal(g->dst_ip, 0x0A010003u);
	assert_int_equal(plan.groups[0].size, 0);
	assert_int_equal(plan.groups[2].size, 1000000);
	assert_int_equal(plan.groups[2].dst_qpn_base, 0);
	/* the NP: DSCP, a 1.5 us gap rounded up to 2 us, the QPN map */
	assert_int_equal(plan.cnp_dscp, 46);
	assert_int_equal(plan.cnp_gap_us, 2);
	assert_int_equal(plan.nb_sqpn, 1);
	assert_int_equal(plan.sqpn[0].dqpn, 0x900);
	assert_int_equal(plan.sqpn[0].sqpn, 0x101);
	simrun_plan_free(&plan);

	/* no gap, --nb-mbufs wins over the hint, --flows as given */
	assert_int_equal(PARSE("--sim", SCN("hpcc"), "--nb-mbufs", "4096", "--flows", "128"),
			APP_ARGS_OK);
	view_default(&v);
	v.np.cnp_gap_ns = 0;
	assert_int_equal(simrun_wiring(conf_of(&args), &v, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.cnp_gap_us, 0);
	assert_int_equal(plan.mbufs_extra, 0);
	assert_int_equal(plan.flows, 0);
	simrun_plan_free(&plan);

	/* finite flows only: the pool holds what they send, if below the hint */
	assert_int_equal(PARSE("--sim", SCN("hpcc")), APP_ARGS_OK);
	view_default(&v);
	flows[0].size = 1000000;
	assert_int_equal(simrun_wiring(conf_of(&args), &v, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.mbufs_extra, 3 * 1000 + SIMRUN_MBUFS_SLACK);
	simrun_plan_free(&plan);
	app_args_free(&args);
}

static void
test_sim_wiring_groups(void **state)
{
	static struct simrun_plan plan;
	struct simrun_view v;

	(void)state;
	assert_int_equal(PARSE("--sim", SCN("hpcc")), APP_ARGS_OK);
	/* consecutive QPNs of one source, alike otherwise: one group */
	view_default(&v);
	flows[1] = flows[0];
	flows[1].qpn = flows[0].qpn + 1;
	flows[1].dst_qpn = flows[1].qpn;
	flows[2] = flows[0];
	flows[2].qpn = flows[0].qpn + 2;
	flows[2].dst_qpn = flows[2].qpn;
	assert_int_equal(simrun_wiring(conf_of(&args), &v, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.nb_groups, 1);
	assert_int_equal(plan.groups[0].count, 3);
	assert_int_equal(plan.groups[0].stagger_ns, 0);
	simrun_plan_free(&plan);
	/* a scenario's stagger (starts 5, 7, 9 us): one group, stagger 2 us;
	 * a fourth flow off the step starts a group of its own */
	flows[0].start_ns = 5000;
	flows[1].start_ns = 7000;
	flows[2].start_ns = 9000;
	flows[3] = flows[0];
	flows[3].qpn = flows[0].qpn + 3;
	flows[3].dst_qpn = flows[3].qpn;
	flows[3].start_ns = 12000;
	v.nb_flows = 4;
	assert_int_equal(simrun_wiring(conf_of(&args), &v, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.nb_groups, 2);
	assert_int_equal(plan.groups[0].count, 3);
	assert_int_equal(plan.groups[0].start_ns, 5000);
	assert_int_equal(plan.groups[0].stagger_ns, 2000);
	assert_int_equal(plan.groups[1].count, 1);
	assert_int_equal(plan.groups[1].start_ns, 12000);
	simrun_plan_free(&plan);
	/* without algorithms: the port's active slot (the default algorithm) */
	view_default(&v);
	v.nb_algos = 0;
	flows[1].slot = 0;
	assert_int_equal(simrun_wiring(conf_of(&args), &v, &plan, err, sizeof(err)), 0);
	assert_false(plan.groups[0].slot_set);
	simrun_plan_free(&plan);
	app_args_free(&args);
}

static void
test_sim_wiring_errors(void **state)
{
	static struct pcc_sim_port_info many[12];
	static struct simrun_plan plan;
	struct simrun_view v;
	uint16_t i;

	(void)state;
	assert_int_equal(PARSE("--sim", SCN("hpcc")), APP_ARGS_OK);
	view_default(&v);
	flows[0].slot = 5; /* no algorithm there */
	assert_int_equal(simrun_wiring(conf_of(&args), &v, &plan, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "slot 5"));
	view_default(&v);
	v.nb_ports = 0;
	assert_int_equal(simrun_wiring(conf_of(&args), &v, &plan, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no host for the engine"));
	/* twelve senders share the eight lib/dev ports in turn ... */
	for (i = 0; i < 12; i++) {
		memset(&many[i], 0, sizeof(many[i]));
		many[i].port_id = i;
		many[i].roles = PCC_SIM_ROLE_RP;
		many[i].line_rate_bps = 100000000000ull;
	}
	view_default(&v);
	v.ports = many;
	v.nb_ports = 12;
	v.nb_flows = 0;
	assert_int_equal(simrun_wiring(conf_of(&args), &v, &plan, err, sizeof(err)), 0);
	assert_true(plan.share_dev_ports);
	simrun_plan_free(&plan);
	/* ... which needs one link rate */
	many[9].line_rate_bps = 25000000000ull;
	assert_int_equal(simrun_wiring(conf_of(&args), &v, &plan, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "one link rate"));
	app_args_free(&args);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_options),
		cmocka_unit_test(test_sim_option_errors),
		cmocka_unit_test(test_sim_wiring),
		cmocka_unit_test(test_sim_wiring_groups),
		cmocka_unit_test(test_sim_wiring_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
