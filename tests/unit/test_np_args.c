/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * dpdk-pcc command line: the notification-point and probe-format options
 * (--np-*, --probe): values, defaults, errors naming the option, and the
 * combinations (CNP options without CNPs, one IFA1 marker and one IFA2
 * protocol per process), and that the help lists every one of them.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "args.h"

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

#define PARSE_OK(...)                                                              \
	do {                                                                       \
		char **v_ = ARGV(__VA_ARGS__);                                     \
		assert_int_equal(parse(ARGC(ARGV(__VA_ARGS__)), v_), APP_ARGS_OK); \
	} while (0)

/* Fails, with an error line containing `what`. */
#define PARSE_ERR(what, ...)                                                        \
	do {                                                                        \
		char **v_ = ARGV(__VA_ARGS__);                                      \
		assert_int_equal(parse(ARGC(ARGV(__VA_ARGS__)), v_), APP_ARGS_ERR); \
		if (strstr(err, what) == NULL)                                      \
			fail_msg("error '%s' does not name '%s'", err, what);       \
	} while (0)

static void
test_np_defaults(void **state)
{
	(void)state;
	PARSE_OK("--run-time", "1");
	assert_true(args.np.cnp);
	assert_int_equal(args.np.cnp_dscp, 48);
	assert_int_equal(args.np.cnp_gap_us, 0); /* 0: the engine's 50 us */
	assert_false(args.np.cnp_pcp_set);
	assert_false(args.np.learn_off);
	assert_int_equal(args.np.qp_table, 0);
	assert_int_equal(args.np.nb_sqpn_map, 0);
	assert_int_equal(args.np.mark_ce_ppm, 0);
	assert_int_equal(args.np.resp_ts_size, 0);
	assert_int_equal(args.np.ts_src, PCC_ENGINE_NP_TS_PORT);
	assert_false(args.np.resp_dscp_set);
	assert_int_equal(args.np.hw_probes, PCC_ENGINE_NP_HW_ANSWER);
	assert_int_equal(args.np.ifa2_gns_select_mask | args.np.ifa2_gns_select_value, 0);
	assert_int_equal(args.probe[0].format, PCC_ENGINE_PROBE_CCMAD);
	assert_false(args.probe[0].hw_np);
}

static void
test_np_values(void **state)
{
	(void)state;
	PARSE_OK("--np-probe-fast", "on");
	assert_false(args.np.probe_fast_off);
	PARSE_OK("--np-probe-fast", "off");
	assert_true(args.np.probe_fast_off);
	PARSE_ERR("--np-probe-fast", "--np-probe-fast", "fast");
	PARSE_OK("--np-cnp-gap-us", "20", "--np-cnp-pcp", "3", "--np-learn", "off", "--np-qp-table",
			"0x1000", "--np-mark-ce", "12.5", "--np-resp-ts", "16:4", "--np-ts-source",
			"realtime", "--np-resp-dscp", "10", "--np-hw-probes", "drop",
			"--np-ifa2-gns", "0xf:0x3", "--np-ifa2-proto", "131", "--np-ifa1-marker",
			"0x8000000000000001", "--np-sqpn", "0x10=0x20,17=18", "--np-sqpn", "5=6");
	assert_int_equal(args.np.cnp_gap_us, 20);
	assert_true(args.np.cnp_pcp_set);
	assert_int_equal(args.np.cnp_pcp, 3);
	assert_true(args.np.learn_off);
	assert_int_equal(args.np.qp_table, 4096);
	assert_int_equal(args.np.mark_ce_ppm, 125000);
	assert_int_equal(args.np.resp_ts_size, 16);
	assert_int_equal(args.np.resp_ts_res, 4);
	assert_int_equal(args.np.ts_src, PCC_ENGINE_NP_TS_REALTIME);
	assert_true(args.np.resp_dscp_set);
	assert_int_equal(args.np.resp_dscp, 10);
	assert_int_equal(args.np.hw_probes, PCC_ENGINE_NP_HW_DROP);
	assert_int_equal(args.np.ifa2_gns_select_mask, 0xf);
	assert_int_equal(args.np.ifa2_gns_select_value, 3);
	assert_int_equal(args.np.ifa2_proto, 131);
	assert_int_equal(args.np.ifa1_marker, 0x8000000000000001ull);
	assert_int_equal(args.np.nb_sqpn_map, 3);
	assert_ptr_equal(args.np.sqpn_map, args.sqpn_map);
	assert_int_equal(args.sqpn_map[0].dqpn, 0x10);
	assert_int_equal(args.sqpn_map[0].sqpn, 0x20);
	assert_int_equal(args.sqpn_map[1].dqpn, 17);
	assert_int_equal(args.sqpn_map[2].sqpn, 6);

	/* 0 = no gap; request = the request's DSCP */
	PARSE_OK("--np-cnp-gap-us", "0", "--np-resp-dscp", "request", "--np-resp-ts", "32:63");
	assert_int_equal(args.np.cnp_gap_us, PCC_ENGINE_NP_NO_GAP);
	assert_false(args.np.resp_dscp_set);
	assert_int_equal(args.np.resp_ts_size, 32);
	assert_int_equal(args.np.resp_ts_res, 63);
}

static void
test_np_errors(void **state)
{
	(void)state;
	PARSE_ERR("--np-cnp-gap-us", "--np-cnp-gap-us", "10000001");
	PARSE_ERR("--np-cnp-pcp", "--np-cnp-pcp", "8");
	PARSE_ERR("--np-learn", "--np-learn", "yes");
	PARSE_ERR("--np-qp-table", "--np-qp-table", "3000");
	PARSE_ERR("--np-qp-table", "--np-qp-table", "512");
	PARSE_ERR("--np-mark-ce", "--np-mark-ce", "100.5");
	PARSE_ERR("--np-resp-ts", "--np-resp-ts", "33:0");
	PARSE_ERR("--np-resp-ts", "--np-resp-ts", "8:64");
	PARSE_ERR("--np-resp-ts", "--np-resp-ts", "8");
	PARSE_ERR("--np-ts-source", "--np-ts-source", "ptp");
	PARSE_ERR("--np-resp-dscp", "--np-resp-dscp", "64");
	PARSE_ERR("--np-hw-probes", "--np-hw-probes", "forward");
	PARSE_ERR("--np-ifa2-gns", "--np-ifa2-gns", "0x10:0");
	PARSE_ERR("--np-ifa2-gns", "--np-ifa2-gns", "0xf");
	PARSE_ERR("--np-ifa2-proto", "--np-ifa2-proto", "17");
	PARSE_ERR("--np-ifa2-proto", "--np-ifa2-proto", "0");
	PARSE_ERR("--np-ifa1-marker", "--np-ifa1-marker", "0x7fffffffffffffff");
	PARSE_ERR("--np-sqpn", "--np-sqpn", "1");
	PARSE_ERR("--np-sqpn", "--np-sqpn", "1=0x1000000");
	PARSE_ERR("--np-sqpn", "--np-sqpn", "1=2,");
	PARSE_ERR("mapped twice", "--np-sqpn", "1=2", "--np-sqpn", "1=3");
	/* CNP options need CNPs */
	PARSE_ERR("--np-cnp-gap-us with --np-cnp off", "--np-cnp", "off", "--np-cnp-gap-us", "9");
	PARSE_ERR("--np-cnp-pcp with --np-cnp off", "--np-cnp", "off", "--np-cnp-pcp", "1");
	PARSE_ERR("--np-sqpn with --np-cnp off", "--np-cnp", "off", "--np-sqpn", "1=2");
}

static void
test_probe_opt(void **state)
{
	(void)state;
	PARSE_OK("--probe", "0:ccmad:np=sw", "--probe", "1:ifa2:gns=0xf,hop-limit=0xfe", "--probe",
			"2:ifa1:marker=0xaaaaaaaabbbbbbbb,hop-limit=7,np=hw", "--probe",
			"3:ccmad:np=hw,custom=16,pattern=0xdeadbeef", "--probe",
			"7:ifa2:proto=253");
	assert_int_equal(args.probe[0].format, PCC_ENGINE_PROBE_CCMAD);
	assert_false(args.probe[0].hw_np);
	assert_int_equal(args.probe[1].format, PCC_ENGINE_PROBE_IFA2);
	assert_int_equal(args.probe[1].ifa2_gns, 0xf);
	assert_int_equal(args.probe[1].ifa_hop_limit, 0xfe);
	assert_int_equal(args.probe[1].ifa2_proto, 253);
	assert_int_equal(args.probe[2].format, PCC_ENGINE_PROBE_IFA1);
	assert_int_equal(args.probe[2].ifa1_marker, 0xaaaaaaaabbbbbbbbull);
	assert_int_equal(args.probe[2].ifa_hop_limit, 7);
	assert_true(args.probe[2].hw_np);
	assert_true(args.probe[3].hw_np);
	assert_int_equal(args.probe[3].custom_len, 16);
	assert_int_equal(args.probe[3].custom_pattern, 0xdeadbeef);
	assert_int_equal(args.probe[7].format, PCC_ENGINE_PROBE_IFA2);
	assert_true(args.probe_set[7]);
	assert_false(args.probe_set[4]);
	/* defaults of a format */
	PARSE_OK("--probe", "5:ifa2");
	assert_int_equal(args.probe[5].ifa2_gns, PCC_IFA2_GNS_DEFAULT);
	assert_int_equal(args.probe[5].ifa_hop_limit, PCC_IFA2_HOP_LIMIT_DEFAULT);
	assert_int_equal(args.probe[5].ifa2_proto, PCC_IFA2_PROTO_DEFAULT);

	PARSE_ERR("--probe", "--probe", "8:ccmad");
	PARSE_ERR("--probe", "--probe", "0:ifa3");
	PARSE_ERR("--probe", "--probe", "0");
	PARSE_ERR("np is hw or sw", "--probe", "0:ccmad:np=both");
	PARSE_ERR("custom is 0..64", "--probe", "0:ccmad:custom=65");
	PARSE_ERR("ccmad keys", "--probe", "0:ccmad:gns=1");
	PARSE_ERR("gns is 0..0xf", "--probe", "0:ifa2:gns=16");
	PARSE_ERR("hop-limit is 1..255", "--probe", "0:ifa2:hop-limit=0");
	PARSE_ERR("proto is", "--probe", "0:ifa2:proto=17");
	PARSE_ERR("marker is", "--probe", "0:ifa1:marker=0x1234");
	PARSE_ERR("ifa1 keys", "--probe", "0:ifa1:gns=1");
	PARSE_ERR("expected KEY=VALUE", "--probe", "0:ifa1:marker");
	PARSE_ERR("expected KEY=VALUE", "--probe", "0:ifa1:np=sw,");
	PARSE_ERR("no KEY=VALUE", "--probe", "0:ifa1:");
	PARSE_ERR("slot 1 given twice", "--probe", "1:ccmad", "--probe", "1:ifa1");
	/* one marker, one protocol per process */
	PARSE_ERR("one IFA1 marker per process", "--probe", "0:ifa1:marker=0x8000000000000001",
			"--probe", "1:ifa1");
	PARSE_ERR("--np-ifa1-marker", "--probe", "0:ifa1", "--np-ifa1-marker",
			"0x8000000000000001");
	PARSE_ERR("one IFA2 protocol per process", "--probe", "0:ifa2:proto=131", "--probe",
			"1:ifa2");
	PARSE_ERR("--np-ifa2-proto", "--probe", "0:ifa2", "--np-ifa2-proto", "131");
	PARSE_OK("--probe", "0:ifa2:proto=131", "--np-ifa2-proto", "131");
}

/* Every NP/probe option is in the help. */
static void
test_np_help(void **state)
{
	static const char *const opts[] = { "--np-sqpn ", "--np-cnp-gap-us", "--np-cnp-pcp",
		"--np-learn", "--np-qp-table", "--np-mark-ce", "--np-resp-ts", "--np-ts-source",
		"--np-resp-dscp", "--np-hw-probes", "--np-ifa2-gns", "--np-ifa2-proto",
		"--np-ifa1-marker", "--probe SLOT", "--np-cnp ", "--np-cnp-dscp",
		"--np-sqpn-offset", "--np-probe-fast" };
	char buf[65536];
	size_t n;
	unsigned int i;
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	assert_non_null(f);
	app_usage(f);
	n = (size_t)ftell(f);
	fclose(f);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "Notification point"));
	assert_non_null(strstr(buf, "Probes"));
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (strstr(buf, opts[i]) == NULL)
			fail_msg("--help lacks %s", opts[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_np_defaults),
		cmocka_unit_test(test_np_values),
		cmocka_unit_test(test_np_errors),
		cmocka_unit_test(test_probe_opt),
		cmocka_unit_test(test_np_help),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	app_args_free(&args);
	return rc;
}
