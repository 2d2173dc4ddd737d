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
test_parse_ppm(void **state)
{
	uint32_t ppm = 0;

	(void)state;
	assert_int_equal(app_parse_ppm("10", &ppm), 0);
	assert_int_equal(ppm, 100000);
	assert_int_equal(app_parse_ppm("0.5", &ppm), 0);
	assert_int_equal(ppm, 5000);
	assert_int_equal(app_parse_ppm("0.0001", &ppm), 0);
	assert_int_equal(ppm, 1);
	assert_int_equal(app_parse_ppm("100", &ppm), 0);
	assert_int_equal(ppm, 1000000);
	assert_int_equal(app_parse_ppm("0", &ppm), 0);
	assert_int_equal(ppm, 0);
	assert_int_equal(app_parse_ppm("100.0001", &ppm), -1);
	assert_int_equal(app_parse_ppm("101", &ppm), -1);
	assert_int_equal(app_parse_ppm("1.23456", &ppm), -1);
	assert_int_equal(app_parse_ppm("1.", &ppm), -1);
	assert_int_equal(app_parse_ppm(".5", &ppm), -1);
	assert_int_equal(app_parse_ppm("5%", &ppm), -1);
	assert_int_equal(app_parse_ppm("", &ppm), -1);
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
test_parse_ip(void **state)
{
	uint8_t v6[16];
	uint32_t v4 = 0;
	bool ipv6 = true;

	(void)state;
	assert_int_equal(app_parse_ip("10.0.0.1", &ipv6, &v4, v6), 0);
	assert_false(ipv6);
	assert_int_equal(v4, 0x0a000001);
	assert_int_equal(app_parse_ip("fd00::2", &ipv6, &v4, v6), 0);
	assert_true(ipv6);
	assert_int_equal(v6[0], 0xfd);
	assert_int_equal(v6[15], 2);
	assert_int_equal(app_parse_ip("10.0.0", &ipv6, &v4, v6), -1);
	assert_int_equal(app_parse_ip("host", &ipv6, &v4, v6), -1);
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
	assert_int_equal(args.burst, 32);
	assert_int_equal(args.rxq, 1);
	assert_int_equal(args.txq, 0);
	assert_int_equal(args.idle_sleep_us, 0);
	assert_false(args.ring_pair);
	assert_int_equal(args.gen.nb_flows, 0);
	assert_int_equal(args.gen.qpn_base, 256);
	assert_int_equal(args.gen.payload_len, 1024);
	assert_int_equal(args.gen.rate_mbps, 1000);
	assert_true(args.np.cnp);
	assert_int_equal(args.np.cnp_dscp, 48);
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
			"--np-ports", "1-2", "--config=(0,0,1),(1,0,1)");
	assert_int_equal(rc, APP_ARGS_OK);
	assert_int_equal(args.run_time, 3);
	assert_int_equal(args.stats_period, 0);
	assert_true(args.ring_pair);
	assert_int_equal(args.burst, 64);
	assert_int_equal(args.idle_sleep_us, 100);
	assert_int_equal(args.rxq, 2);
	assert_int_equal(args.txq, 4);
	assert_int_equal(args.gen.nb_flows, 4);
	assert_int_equal(args.gen.qpn_base, 0x200);
	assert_int_equal(args.gen.payload_len, 0);
	assert_int_equal(args.gen.rate_mbps, 0);
	assert_int_equal(args.gen.ce_ppm, 125000);
	assert_int_equal(args.gen.dscp, 10);
	assert_true(args.gen.dst_mac_valid);
	assert_int_equal(args.gen.dst_mac[5], 9);
	assert_int_equal(args.np.cnp_dscp, 40);
	assert_int_equal(args.np.sqpn_offset, 1);
	assert_true(args.rp_ports[0] && !args.rp_ports[1]);
	assert_true(args.np_ports[1] && args.np_ports[2] && !args.np_ports[0]);
	assert_int_equal(args.nb_config, 2);

	PARSE("--gen-flows", "1", "--gen-ipv6");
	assert_int_equal(rc, APP_ARGS_OK);
	assert_true(args.gen.ipv6);
	assert_int_equal(args.gen.src_ip.v6[0], 0xfd);
	assert_int_equal(args.gen.src_ip.v6[15], 1);
	assert_int_equal(args.gen.dst_ip.v6[15], 2);

	PARSE("--np-cnp", "off");
	assert_int_equal(rc, APP_ARGS_OK);
	assert_false(args.np.cnp);
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
static struct pcc_engine_conf conf;
static struct pcc_engine_rxq_conf store[APP_CONFIG_MAX];

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
	return app_wiring(&args, &env, &conf, store, err, sizeof(err));
}

static void
test_wiring_defaults(void **state)
{
	(void)state;
	/* ring pair: first RP, second NP, one queue each, one worker */
	PARSE_OK("--ring-pair");
	env_init(2, 1);
	env.ring_pair = true;
	env.ring_port[0] = 0;
	env.ring_port[1] = 1;
	assert_int_equal(wire(), 0);
	assert_int_equal(conf.port[0].roles, PCC_ENGINE_ROLE_RP);
	assert_int_equal(conf.port[1].roles, PCC_ENGINE_ROLE_NP);
	assert_int_equal(conf.nb_rxq_conf, 2);
	assert_int_equal(conf.rxq[0].lcore_id, 1);
	assert_int_equal(conf.rxq[1].lcore_id, 1);
	assert_int_equal(pcc_engine_txq_needed(&conf, 0), 1);

	/* plain ports: all RP+NP; queues round-robin over two workers */
	PARSE_OK("--rxq", "2");
	env_init(2, 2);
	assert_int_equal(wire(), 0);
	assert_int_equal(conf.port[0].roles, PCC_ENGINE_ROLE_RP | PCC_ENGINE_ROLE_NP);
	assert_int_equal(conf.port[1].roles, PCC_ENGINE_ROLE_RP | PCC_ENGINE_ROLE_NP);
	assert_int_equal(conf.nb_rxq_conf, 4);
	assert_int_equal(conf.rxq[0].lcore_id, 1); /* (0,0) */
	assert_int_equal(conf.rxq[1].lcore_id, 2); /* (0,1) */
	assert_int_equal(conf.rxq[2].lcore_id, 1); /* (1,0) */
	assert_int_equal(conf.rxq[3].lcore_id, 2); /* (1,1) */
	assert_int_equal(pcc_engine_txq_needed(&conf, 0), 2);
	assert_int_equal(conf.nb_rxq, 2);

	/* single lcore: the main lcore polls */
	PARSE_OK("--run-time", "1");
	env_init(1, 0);
	assert_int_equal(wire(), 0);
	assert_int_equal(conf.rxq[0].lcore_id, 0);

	/* explicit roles: unlisted ports are not used */
	PARSE_OK("--rp-ports", "1");
	env_init(3, 1);
	assert_int_equal(wire(), 0);
	assert_int_equal(conf.port[0].roles, 0);
	assert_int_equal(conf.port[1].roles, PCC_ENGINE_ROLE_RP);
	assert_int_equal(conf.port[2].roles, 0);
	assert_int_equal(conf.nb_rxq_conf, 1);
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

	/* two lcores poll port 0: each needs its own TX queue */
	PARSE_OK("--rxq", "2", "--txq", "1", "--config", "(0,0,1),(0,1,2)");
	env_init(1, 2);
	assert_int_equal(wire(), -1);
	assert_string_equal(err,
			"invalid value '1' for --txq (port 0 is polled by 2 lcores and each sends "
			"on a TX queue of its own: at least 2)");

	PARSE_OK("--rxq", "2", "--txq", "2", "--config", "(0,0,1),(0,1,2)");
	env_init(1, 2);
	assert_int_equal(wire(), 0);
}

static void
test_args_rp_flows(void **state)
{
	int rc;

	(void)state;
	/* defaults */
	PARSE_OK("--run-time", "1");
	assert_null(args.algo);
	assert_int_equal(args.flows, PCC_ENGINE_FLOWS_DEFAULT);
	assert_int_equal(args.flow_idle_ms, 10000);
	assert_int_equal(args.flow_full, PCC_ENGINE_FLOW_FULL_EVICT);
	assert_int_equal(args.txc_bytes, 65536);
	assert_int_equal(args.txc_us, 20);
	assert_int_equal(args.timer_us, 0);
	assert_int_equal(args.line_rate_gbps, 0);
	assert_string_equal(args.pacer, "wheel");
	assert_false(args.fwd);
	/* values */
	PARSE_OK("--algo", "dcqcn", "--algo-param", "rai_mbps=40", "--algo-param",
			"t_inc_ns=0x1000", "--flows", "4096", "--flow-idle-ms", "0", "--flow-full",
			"refuse", "--tx-coalesce-bytes", "0", "--tx-coalesce-us", "5", "--timer-us",
			"300", "--line-rate", "25", "--pacer", "txpp", "--pacer-queue", "16",
			"--forward", "1,0");
	assert_string_equal(args.algo, "dcqcn");
	assert_int_equal(args.nb_params, 2);
	assert_string_equal(args.params[0].name, "rai_mbps");
	assert_string_equal(args.params[0].value, "40");
	assert_string_equal(args.params[1].value, "0x1000");
	assert_int_equal(args.flows, 4096);
	assert_int_equal(args.flow_idle_ms, 0);
	assert_int_equal(args.flow_full, PCC_ENGINE_FLOW_FULL_REFUSE);
	assert_int_equal(args.txc_bytes, 0);
	assert_int_equal(args.txc_us, 5);
	assert_int_equal(args.timer_us, 300);
	assert_int_equal(args.line_rate_gbps, 25);
	assert_string_equal(args.pacer, "txpp");
	assert_int_equal(args.pacer_queue, 16);
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
	assert_int_equal(conf.port[2].roles, PCC_ENGINE_ROLE_FWD);
	assert_int_equal(conf.port[0].roles, PCC_ENGINE_ROLE_RP);
	assert_int_equal(conf.port[1].roles, 0);
	assert_true(conf.fwd.enabled);
	assert_int_equal(conf.fwd.port_a, 2);
	assert_int_equal(conf.fwd.port_b, 0);
	assert_string_equal(conf.rp.algo, "dcqcn");
	assert_int_equal(conf.rp.timer_us, 50);
	/* the host side's TX queues: its own pollers and the wire side's */
	assert_int_equal(pcc_engine_txq_needed(&conf, 2), 1);

	PARSE_OK("--forward", "0,1", "--rxq", "2");
	env_init(2, 2);
	assert_int_equal(wire(), 0);
	/* (0,0)->1 (0,1)->2 (1,0)->1 (1,1)->2 */
	assert_int_equal(pcc_engine_txq_needed(&conf, 0), 2);
	assert_int_equal(pcc_engine_txq_needed(&conf, 1), 2);

	PARSE_OK("--forward", "0,1", "--config", "(0,0,1),(1,0,2)");
	env_init(2, 2);
	assert_int_equal(wire(), 0);
	/* lcore 2 polls only B but forwards to A */
	assert_int_equal(pcc_engine_txq_needed(&conf, 0), 2);
	assert_int_equal(pcc_engine_txq_needed(&conf, 1), 1);

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
		cmocka_unit_test(test_parse_ppm),
		cmocka_unit_test(test_parse_id_list),
		cmocka_unit_test(test_parse_config),
		cmocka_unit_test(test_parse_ip),
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
