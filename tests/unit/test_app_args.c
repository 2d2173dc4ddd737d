/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* dpdk-pcc command line: value parsers, options, wiring rules. */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "args.h"
#include "pcc_host.h"
#include "wiring.h"

#define ARGV(...) ((char *[]){ (char *)"dpdk-pcc", __VA_ARGS__, NULL })
#define ARGC(v) ((int)(sizeof(v) / sizeof(v[0])) - 1)

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

#define PARSE(...)                                       \
	do {                                             \
		char **v_ = ARGV(__VA_ARGS__);           \
		rc = parse(ARGC(ARGV(__VA_ARGS__)), v_); \
	} while (0)

#define PARSE_OK(...)                                                              \
	do {                                                                       \
		char **v_ = ARGV(__VA_ARGS__);                                     \
		assert_int_equal(parse(ARGC(ARGV(__VA_ARGS__)), v_), APP_ARGS_OK); \
	} while (0)

static void
test_parse_u64(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(app_parse_u64("0", 0, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(app_parse_u64("31536000", 0, 31536000, &v), 0);
	assert_int_equal(v, 31536000);
	assert_int_equal(app_parse_u64("31536001", 0, 31536000, &v), -1);
	assert_int_equal(app_parse_u64("0x10", 0, 100, &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(app_parse_u64("0xffffff", 0, 0xffffff, &v), 0);
	assert_int_equal(app_parse_u64("1", 2, 10, &v), -1);
	assert_int_equal(app_parse_u64("abc", 0, 10, &v), -1);
	assert_int_equal(app_parse_u64("", 0, 10, &v), -1);
	assert_int_equal(app_parse_u64("-1", 0, 10, &v), -1);
	assert_int_equal(app_parse_u64("+1", 0, 10, &v), -1);
	assert_int_equal(app_parse_u64(" 1", 0, 10, &v), -1);
	assert_int_equal(app_parse_u64("1 ", 0, 10, &v), -1);
	assert_int_equal(app_parse_u64("0x", 0, 10, &v), -1);
	assert_int_equal(app_parse_u64("1e3", 0, 10000, &v), -1);
	assert_int_equal(app_parse_u64("18446744073709551616", 0, UINT64_MAX, &v), -1);
}

static void
test_parse_id_list(void **state)
{
	bool set[RTE_MAX_ETHPORTS];

	(void)state;
	assert_int_equal(app_parse_id_list("0,2-3", RTE_MAX_ETHPORTS, set), 3);
	assert_true(set[0] && !set[1] && set[2] && set[3] && !set[4]);
	assert_int_equal(app_parse_id_list("1,1,0-1", RTE_MAX_ETHPORTS, set), 2);
	assert_int_equal(app_parse_id_list("0-31", RTE_MAX_ETHPORTS, set), RTE_MAX_ETHPORTS);
	assert_int_equal(app_parse_id_list("32", RTE_MAX_ETHPORTS, set), -1);
	assert_int_equal(app_parse_id_list("3-2", RTE_MAX_ETHPORTS, set), -1);
	assert_int_equal(app_parse_id_list("0,,1", RTE_MAX_ETHPORTS, set), -1);
	assert_int_equal(app_parse_id_list("0,", RTE_MAX_ETHPORTS, set), -1);
	assert_int_equal(app_parse_id_list("", RTE_MAX_ETHPORTS, set), -1);
	assert_int_equal(app_parse_id_list("a", RTE_MAX_ETHPORTS, set), -1);
	assert_int_equal(app_parse_id_list("1-", RTE_MAX_ETHPORTS, set), -1);
}

static void
test_parse_config(void **state)
{
	struct pcc_engine_rxq_conf c[4];
	char why[128];

	(void)state;
	assert_int_equal(app_parse_config("(0,0,1),(1,2,3)", c, 4, why, sizeof(why)), 2);
	assert_int_equal(c[0].port_id, 0);
	assert_int_equal(c[0].queue_id, 0);
	assert_int_equal(c[0].lcore_id, 1);
	assert_int_equal(c[1].port_id, 1);
	assert_int_equal(c[1].queue_id, 2);
	assert_int_equal(c[1].lcore_id, 3);
	assert_int_equal(app_parse_config(" ( 0 , 1 , 2 ) , (1,0,2) ", c, 4, why, sizeof(why)), 2);
	assert_int_equal(c[0].queue_id, 1);
	assert_int_equal(app_parse_config("(0,0)", c, 4, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "triple 1"));
	assert_int_equal(app_parse_config("(0,0,1),", c, 4, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "triple 2"));
	assert_int_equal(app_parse_config("(32,0,1)", c, 4, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "port"));
	assert_int_equal(app_parse_config("(0,0,128)", c, 4, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "lcore"));
	assert_int_equal(app_parse_config("(0,65536,1)", c, 4, why, sizeof(why)), -1);
	assert_int_equal(app_parse_config("0,0,1", c, 4, why, sizeof(why)), -1);
	assert_int_equal(app_parse_config("(0,0,1)(1,0,1)", c, 4, why, sizeof(why)), -1);
	assert_int_equal(app_parse_config("(0,0,1),(0,1,1),(0,2,1)", c, 2, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "more than 2"));
}

static void
test_early(void **state)
{
	(void)state;
	assert_int_equal(app_args_early(ARGC(ARGV("--help")), ARGV("--help")), APP_EARLY_HELP_TOP);
	assert_int_equal(app_args_early(ARGC(ARGV("-l", "0", "--", "-h")),
					 ARGV("-l", "0", "--", "-h")),
			APP_EARLY_HELP);
	assert_int_equal(app_args_early(ARGC(ARGV("--", "--version")), ARGV("--", "--version")),
			APP_EARLY_VERSION);
	assert_int_equal(app_args_early(ARGC(ARGV("--", "-v")), ARGV("--", "-v")),
			APP_EARLY_VERSION);
	/* before "--", -v is the EAL's */
	assert_int_equal(app_args_early(ARGC(ARGV("-v", "--", "--run-time", "1")),
					 ARGV("-v", "--", "--run-time", "1")),
			APP_EARLY_NONE);
	assert_int_equal(app_args_early(ARGC(ARGV("--", "--help-eal")), ARGV("--", "--help-eal")),
			APP_EARLY_HELP_EAL);
	assert_int_equal(app_args_early(ARGC(ARGV("--no-huge", "--")), ARGV("--no-huge", "--")),
			APP_EARLY_NONE);
	assert_int_equal(app_args_split(ARGC(ARGV("-l", "0", "--", "x")),
					 ARGV("-l", "0", "--", "x")),
			3);
	assert_int_equal(app_args_split(ARGC(ARGV("-l", "0")), ARGV("-l", "0")), 3);
}

/* The engine options as given (command-line order, last wins). */
#define HV(name) app_hopt(&args, name)

static void
test_args_defaults(void **state)
{
	char *v[] = { (char *)"dpdk-pcc", NULL };
	int rc;

	(void)state;
	rc = parse(1, v);
	assert_int_equal(rc, APP_ARGS_OK);
	assert_int_equal(args.run_time, 0);
	assert_int_equal(args.stats_period, 1);
	assert_false(args.ring_pair);
	/* the engine's defaults are lib/host's: nothing given, nothing kept */
	assert_int_equal(args.nb_hopts, 0);
	assert_null(HV("burst"));
	assert_int_equal(app_hopt_u64(&args, "rxq", 1), 1);
}

static void
test_args_values(void **state)
{
	int rc;

	(void)state;
	PARSE("--run-time", "3", "--stats-period", "0", "--ring-pair", "--burst", "64",
			"--idle-sleep", "100", "--rxq", "2", "--txq", "4", "--gen-flows", "4",
			"--gen-qpn", "0x200", "--gen-size", "0", "--gen-rate", "0", "--gen-ce",
			"12.5", "--gen-dscp", "10", "--gen-dst-mac", "02:00:00:00:00:09",
			"--np-cnp-dscp", "40", "--np-sqpn-offset", "1", "--rp-ports", "0",
			"--np-ports", "1-2", "--config=(0,0,1),(1,0,1)", "--burst", "128");
	assert_int_equal(rc, APP_ARGS_OK);
	assert_int_equal(args.run_time, 3);
	assert_int_equal(args.stats_period, 0);
	assert_true(args.ring_pair);
	assert_true(args.rp_ports[0] && !args.rp_ports[1]);
	assert_true(args.np_ports[1] && args.np_ports[2] && !args.np_ports[0]);
	assert_int_equal(args.nb_config, 2);
	/* engine options: kept in order, scoped, for lib/host */
	assert_int_equal(args.nb_hopts, 14);
	assert_string_equal(args.hopts[0].name, "burst");
	assert_string_equal(args.hopts[0].value, "64");
	assert_int_equal(args.hopts[0].scope, PCC_HOST_OPT_PROCESS);
	assert_string_equal(HV("burst"), "128"); /* the last one */
	assert_string_equal(HV("gen-ce"), "12.5");
	assert_string_equal(HV("gen-dst-mac"), "02:00:00:00:00:09");
	assert_string_equal(args.hopts[11].name, "np-cnp-dscp");
	assert_int_equal(args.hopts[11].scope, PCC_HOST_OPT_NP);
	assert_int_equal(app_hopt_u64(&args, "rxq", 1), 2);
	assert_int_equal(app_hopt_u64(&args, "gen-qpn", 0), 0x200);

	PARSE("--gen-flows", "1", "--gen-ipv6");
	assert_int_equal(rc, APP_ARGS_OK);
	assert_string_equal(HV("gen-ipv6"), "");

	PARSE("--np-cnp", "off");
	assert_int_equal(rc, APP_ARGS_OK);
	assert_string_equal(HV("np-cnp"), "off");
}

static void
test_args_errors(void **state)
{
	int rc;

	(void)state;
	PARSE("--run-time", "abc");
	assert_int_equal(rc, APP_ARGS_ERR);
	assert_string_equal(
			err, "invalid value 'abc' for --run-time (expected seconds, 0..31536000)");
	PARSE("--foo");
	assert_int_equal(rc, APP_ARGS_ERR);
	assert_string_equal(err, "unrecognized option '--foo'");
	PARSE("--foo=1");
	assert_string_equal(err, "unrecognized option '--foo'");
	PARSE("--gen");
	assert_string_equal(err, "option '--gen' is ambiguous");
	PARSE("--ring-pair=yes");
	assert_string_equal(err, "option '--ring-pair' takes no argument");
	PARSE("-x");
	assert_string_equal(err, "invalid option -- 'x'");
	PARSE("--burst");
	assert_string_equal(err, "option '--burst' requires an argument (packets, 1..512)");
	PARSE("--burst", "0");
	assert_string_equal(err, "invalid value '0' for --burst (expected packets, 1..512)");
	PARSE("--burst", "513");
	assert_int_equal(rc, APP_ARGS_ERR);
	PARSE("--gen-ce", "101");
	assert_non_null(strstr(err, "--gen-ce"));
	PARSE("--np-cnp", "yes");
	assert_string_equal(err, "invalid value 'yes' for --np-cnp (expected on or off)");
	PARSE("--gen-qpn", "1", "--gen-flows", "1");
	assert_non_null(strstr(err, "'1' for --gen-qpn"));
	PARSE("--gen-dst-mac", "02:00", "--gen-flows", "1");
	assert_non_null(strstr(err, "--gen-dst-mac"));
	PARSE("--rp-ports", "0-40");
	assert_non_null(strstr(err, "'0-40' for --rp-ports"));
	PARSE("--config", "(0,0)");
	assert_non_null(strstr(err, "for --config"));
	PARSE("--run-time", "1", "stray");
	assert_string_equal(err, "unexpected argument 'stray'");
	PARSE("--help-eal");
	assert_int_equal(rc, APP_ARGS_ERR);
}

static void
test_args_combinations(void **state)
{
	int rc;

	(void)state;
	PARSE("--gen-rate", "5");
	assert_int_equal(rc, APP_ARGS_ERR);
	assert_string_equal(err,
			"invalid combination: --gen-rate needs --gen-flows N with N > 0, or "
			"--gen-file");
	PARSE("--gen-ipv6");
	assert_non_null(strstr(err, "--gen-ipv6 needs --gen-flows"));
	PARSE("--gen-flows", "32", "--gen-qpn", "0xfffff0");
	assert_non_null(strstr(err, "goes past QPN"));
	PARSE("--gen-flows", "1", "--gen-src-ip", "fd00::1");
	assert_non_null(strstr(err, "is an IPv6 address but --gen-ipv6 is not given"));
	PARSE("--gen-flows", "1", "--gen-ipv6", "--gen-dst-ip", "10.0.0.1");
	assert_non_null(strstr(err, "is an IPv4 address but --gen-ipv6 is given"));
	PARSE("--np-cnp", "off", "--np-cnp-dscp", "1");
	assert_string_equal(err, "invalid combination: --np-cnp-dscp with --np-cnp off");
	PARSE("--ring-pair", "--rxq", "17");
	assert_non_null(strstr(err, "--ring-pair ports have at most 16"));
	PARSE("--gen-flows", "0");
	assert_int_equal(rc, APP_ARGS_OK);
}

/* ---- wiring ------------------------------------------------------ */

static struct app_env env;
static struct app_plan plan;

static void
env_init(unsigned int nb_ports, unsigned int nb_workers)
{
	unsigned int i;

	memset(&env, 0, sizeof(env));
	for (i = 0; i < nb_ports; i++)
		env.port_valid[i] = true;
	env.main_lcore = 0;
	env.lcore_enabled[0] = true;
	for (i = 1; i <= nb_workers; i++) {
		env.lcore_enabled[i] = true;
		env.lcores[env.nb_lcores++] = i;
	}
	if (nb_workers == 0)
		env.lcores[env.nb_lcores++] = 0;
}

static int
wire(void)
{
	err[0] = '\0';
	return app_wiring(&args, &env, &plan, err, sizeof(err));
}

static void
test_wiring_defaults(void **state)
{
	(void)state;
	/* ring pair: first RP, second NP */
	PARSE_OK("--ring-pair");
	env_init(2, 1);
	env.ring_pair = true;
	env.ring_port[0] = 0;
	env.ring_port[1] = 1;
	assert_int_equal(wire(), 0);
	assert_true(plan.rp[0] && !plan.np[0]);
	assert_true(plan.np[1] && !plan.rp[1]);
	assert_false(plan.queue_map); /* lib/host's round-robin */
	assert_int_equal(plan.fwd_from, -1);

	/* plain ports: an RP and an NP context on each */
	PARSE_OK("--rxq", "2");
	env_init(2, 2);
	assert_int_equal(wire(), 0);
	assert_true(plan.rp[0] && plan.np[0] && plan.rp[1] && plan.np[1]);
	assert_false(plan.rp[2] || plan.np[2]);

	/* explicit roles: unlisted ports are not used */
	PARSE_OK("--rp-ports", "1");
	env_init(3, 1);
	assert_int_equal(wire(), 0);
	assert_false(plan.rp[0] || plan.np[0]);
	assert_true(plan.rp[1] && !plan.np[1]);
	assert_false(plan.rp[2] || plan.np[2]);

	/* --config: a queue map per port */
	PARSE_OK("--rxq", "2", "--config", "(0,0,1),(0,1,2),(1,0,2),(1,1,1)");
	env_init(2, 2);
	assert_int_equal(wire(), 0);
	assert_true(plan.queue_map);
	assert_int_equal(plan.nb_rxq, 2);
	assert_int_equal(plan.lcore_of[0][0], 1);
	assert_int_equal(plan.lcore_of[0][1], 2);
	assert_int_equal(plan.lcore_of[1][0], 2);
	assert_int_equal(plan.lcore_of[1][1], 1);
}

static void
test_wiring_errors(void **state)
{
	(void)state;
	PARSE_OK("--rp-ports", "3");
	env_init(2, 1);
	assert_int_equal(wire(), -1);
	assert_string_equal(err, "invalid value '3' for --rp-ports (no port 3; ports: 0,1)");

	PARSE_OK("--run-time", "1");
	env_init(0, 1);
	assert_int_equal(wire(), -1);
	assert_non_null(strstr(err, "no port to use"));

	PARSE_OK("--np-ports", "0", "--gen-flows", "1");
	env_init(1, 1);
	assert_int_equal(wire(), -1);
	assert_non_null(strstr(err, "--gen-flows needs an RP port"));

	PARSE_OK("--config", "(0,0,0)");
	env_init(1, 1);
	assert_int_equal(wire(), -1);
	assert_non_null(strstr(err, "lcore 0 is the main lcore"));

	PARSE_OK("--config", "(0,0,3)");
	env_init(1, 1);
	assert_int_equal(wire(), -1);
	assert_non_null(strstr(err, "lcore 3 is not enabled"));

	PARSE_OK("--config", "(0,1,1)");
	env_init(1, 1);
	assert_int_equal(wire(), -1);
	assert_non_null(strstr(err, "queue 1 but --rxq is 1"));

	PARSE_OK("--config", "(0,0,1),(0,0,2)");
	env_init(1, 2);
	assert_int_equal(wire(), -1);
	assert_non_null(strstr(err, "already polled"));

	PARSE_OK("--config", "(1,0,1)");
	env_init(1, 1);
	assert_int_equal(wire(), -1);
	assert_non_null(strstr(err, "no such port"));

	PARSE_OK("--rp-ports", "0", "--config", "(0,0,1),(1,0,1)");
	env_init(2, 1);
	assert_int_equal(wire(), -1);
	assert_non_null(strstr(err, "port has no role"));

	PARSE_OK("--rxq", "2", "--config", "(0,0,1)");
	env_init(1, 1);
	assert_int_equal(wire(), -1);
	assert_non_null(strstr(err, "port 0 RX queue 1 is not polled"));
}

static void
test_args_rp_flows(void **state)
{
	int rc;

	(void)state;
	/* defaults */
	PARSE_OK("--run-time", "1");
	assert_null(HV("algo"));
	assert_false(args.fwd);
	/* values: kept for the RP contexts, each checked */
	PARSE_OK("--algo", "dcqcn", "--algo-param", "rai_mbps=40", "--algo-param",
			"t_inc_ns=0x1000", "--flows", "4096", "--flow-idle-ms", "0", "--flow-full",
			"refuse", "--tx-coalesce-bytes", "0", "--tx-coalesce-us", "5", "--timer-us",
			"300", "--line-rate", "25", "--pacer", "txpp", "--pacer-queue", "16",
			"--forward", "1,0");
	assert_string_equal(HV("algo"), "dcqcn");
	assert_int_equal(args.hopts[0].scope, PCC_HOST_OPT_RP);
	assert_string_equal(args.hopts[1].name, "algo-param");
	assert_string_equal(args.hopts[1].value, "rai_mbps=40");
	assert_string_equal(args.hopts[2].value, "t_inc_ns=0x1000");
	assert_int_equal(args.hopts[1].scope, PCC_HOST_OPT_RP);
	assert_string_equal(HV("flow-full"), "refuse");
	assert_string_equal(HV("line-rate"), "25");
	assert_string_equal(HV("pacer"), "txpp");
	assert_true(args.fwd);
	assert_int_equal(args.fwd_a, 1);
	assert_int_equal(args.fwd_b, 0);
	/* the default algorithm's parameters without --algo */
	PARSE_OK("--algo-param", "MIN_RATE=100");

	/* errors name the value */
	PARSE("--algo", "cubic");
	assert_int_equal(rc, APP_ARGS_ERR);
	assert_non_null(strstr(err,
			"invalid value 'cubic' for --algo (unknown algorithm 'cubic' "
			"(known: "));
	assert_non_null(strstr(err, "dcqcn"));
	PARSE("--algo", "dcqcn", "--algo-param", "alpha=3");
	assert_non_null(strstr(err,
			"invalid value 'alpha=3' for --algo-param (algorithm dcqcn "
			"has no parameter 'alpha' (it has: line_rate_gbps"));
	PARSE("--algo", "dcqcn", "--algo-param", "g=0");
	assert_non_null(strstr(
			err, "invalid value 'g=0' for --algo-param (g of dcqcn is 1..65535"));
	PARSE("--algo", "dcqcn", "--algo-param", "g=abc");
	assert_non_null(strstr(err, "'abc' is not a number"));
	PARSE("--algo-param", "novalue");
	assert_non_null(strstr(
			err, "invalid value 'novalue' for --algo-param (expected NAME=VALUE"));
	PARSE("--algo-param", "=3");
	assert_int_equal(rc, APP_ARGS_ERR);
	PARSE("--flows", "10");
	assert_non_null(strstr(err, "invalid value '10' for --flows"));
	PARSE("--flow-full", "drop");
	assert_string_equal(err, "invalid value 'drop' for --flow-full (expected evict or refuse)");
	PARSE("--pacer", "hw");
	assert_string_equal(err, "invalid value 'hw' for --pacer (expected wheel, txpp or mtr)");
	PARSE("--line-rate", "0");
	assert_non_null(strstr(err, "'0' for --line-rate"));
	PARSE("--forward", "1,1");
	assert_non_null(strstr(err, "'1,1' for --forward"));
	PARSE("--forward", "1");
	assert_non_null(strstr(err, "'1' for --forward"));
	PARSE("--forward", "0,1", "--rp-ports", "0");
	assert_non_null(strstr(err, "--forward sets the port roles"));
	PARSE("--gen-file", "/nonexistent/flows.yaml");
	assert_non_null(strstr(err, "invalid --gen-file: /nonexistent/flows.yaml: "));
}

static void
test_wiring_forward(void **state)
{
	(void)state;
	PARSE_OK("--forward", "2,0", "--algo", "dcqcn", "--timer-us", "50");
	env_init(3, 1);
	assert_int_equal(wire(), 0);
	/* one RP context on the wire side; the host side has none */
	assert_true(plan.rp[0] && !plan.np[0]);
	assert_false(plan.rp[1] || plan.np[1] || plan.rp[2] || plan.np[2]);
	assert_int_equal(plan.fwd_from, 2);
	assert_int_equal(plan.fwd_to, 0);

	PARSE_OK("--forward", "0,1", "--config", "(0,0,1),(1,0,2)");
	env_init(2, 2);
	assert_int_equal(wire(), 0);
	/* the host side's queue is in the map too */
	assert_true(plan.queue_map);
	assert_int_equal(plan.lcore_of[0][0], 1);
	assert_int_equal(plan.lcore_of[1][0], 2);

	PARSE_OK("--forward", "0,3");
	env_init(2, 1);
	assert_int_equal(wire(), -1);
	assert_string_equal(err, "invalid value '0,3' for --forward (no port 3; ports: 0,1)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_id_list),
		cmocka_unit_test(test_parse_config),
		cmocka_unit_test(test_early),
		cmocka_unit_test(test_args_defaults),
		cmocka_unit_test(test_args_values),
		cmocka_unit_test(test_args_errors),
		cmocka_unit_test(test_args_combinations),
		cmocka_unit_test(test_wiring_defaults),
		cmocka_unit_test(test_wiring_errors),
		cmocka_unit_test(test_args_rp_flows),
		cmocka_unit_test(test_wiring_forward),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
