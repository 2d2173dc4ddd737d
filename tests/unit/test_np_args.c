/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * dpdk-pcc command line: the notification-point and probe-format options
 * (--np-*, --probe).  They are lib/host's engine options: parsed and
 * checked by dpdk-pcc before the EAL (values, errors naming the option,
 * the combinations: CNP options without CNPs, one IFA1 marker and one IFA2
 * protocol per process), then handed to an NP and an RP context, whose
 * settings are read back (pcc_host_np_conf_get, pcc_host_probe); and the
 * help lists every one of them.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "args.h"
#include "host.h"
#include "pcc_host.h"

#define ARGV(...) ((char *[]){ (char *)"dpdk-pcc", __VA_ARGS__, NULL })
#define ARGC(v) ((int)(sizeof(v) / sizeof(v[0])) - 1)

static struct app_args args;
static char err[512];
/* contexts the options of the last PARSE_OK went to */
static struct pcc_host_ctx *rp, *np;
static struct pcc_engine_np_conf npc;

static int
parse(int argc, char **argv)
{
	app_args_free(&args);
	app_args_default(&args);
	err[0] = '\0';
	return app_args_parse(argc, argv, &args, err, sizeof(err));
}

/* The parsed options on a fresh RP (port 0) and NP (port 1) context. */
static void
apply(void)
{
	pcc_host_destroy(rp);
	pcc_host_destroy(np);
	rp = pcc_host_rp_create(0);
	np = pcc_host_np_create(1);
	assert_non_null(rp);
	assert_non_null(np);
	if (app_host_opts_apply(&args, NULL, err, sizeof(err)) < 0 ||
			app_host_opts_apply(&args, rp, err, sizeof(err)) < 0 ||
			app_host_opts_apply(&args, np, err, sizeof(err)) < 0)
		fail_msg("applying the options: %s", err);
	assert_int_equal(pcc_host_np_conf_get(np, &npc), 0);
}

#define PARSE_OK(...)                                                              \
	do {                                                                       \
		char **v_ = ARGV(__VA_ARGS__);                                     \
		assert_int_equal(parse(ARGC(ARGV(__VA_ARGS__)), v_), APP_ARGS_OK); \
		apply();                                                           \
	} while (0)

/* Fails, with an error line containing `what`. */
#define PARSE_ERR(what, ...)                                                        \
	do {                                                                        \
		char **v_ = ARGV(__VA_ARGS__);                                      \
		assert_int_equal(parse(ARGC(ARGV(__VA_ARGS__)), v_), APP_ARGS_ERR); \
		if (strstr(err, what) == NULL)                                      \
			fail_msg("error '%s' does not name '%s'", err, what);       \
	} while (0)

static struct pcc_host_probe_conf
probe(uint8_t slot)
{
	struct pcc_host_probe_conf p;

	assert_int_equal(pcc_host_probe(rp, slot, &p), 0);
	return p;
}

static void
test_np_defaults(void **state)
{
	(void)state;
	PARSE_OK("--run-time", "1");
	assert_true(npc.cnp);
	assert_int_equal(npc.cnp_dscp, 48);
	assert_int_equal(npc.cnp_gap_us, 0); /* 0: the engine's 50 us */
	assert_false(npc.cnp_pcp_set);
	assert_false(npc.learn_off);
	assert_int_equal(npc.nb_sqpn_map, 0);
	assert_int_equal(npc.mark_ce_ppm, 0);
	assert_int_equal(npc.resp_ts_size, 0);
	assert_int_equal(npc.ts_src, PCC_ENGINE_NP_TS_PORT);
	assert_false(npc.resp_dscp_set);
	assert_int_equal(npc.hw_probes, PCC_ENGINE_NP_HW_ANSWER);
	assert_false(npc.ifa2_gns_ignore);
	assert_int_equal(npc.ifa2_gns_select_mask | npc.ifa2_gns_select_value, 0);
	assert_int_equal(probe(0).format, PCC_HOST_PROBE_CCMAD);
	assert_false(probe(0).hw_np);
}

static void
test_np_values(void **state)
{
	(void)state;
	PARSE_OK("--np-probe-fast", "on");
	assert_false(npc.probe_fast_off);
	PARSE_OK("--np-probe-fast", "off");
	assert_true(npc.probe_fast_off);
	PARSE_ERR("--np-probe-fast", "--np-probe-fast", "fast");
	PARSE_OK("--np-cnp-gap-us", "20", "--np-cnp-pcp", "3", "--np-learn", "off", "--np-qp-table",
			"0x1000", "--np-mark-ce", "12.5", "--np-resp-ts", "16:4", "--np-ts-source",
			"realtime", "--np-resp-dscp", "10", "--np-hw-probes", "drop",
			"--np-ifa2-gns-select", "0xf:0x3", "--np-ifa2-gns-ignore", "0x8:0x8",
			"--np-ifa2-proto", "131", "--np-ifa1-marker", "0x8000000000000001",
			"--np-sqpn", "0x10=0x20,17=18", "--np-sqpn", "5=6");
	assert_int_equal(npc.cnp_gap_us, 20);
	assert_true(npc.cnp_pcp_set);
	assert_int_equal(npc.cnp_pcp, 3);
	assert_true(npc.learn_off);
	assert_int_equal(npc.mark_ce_ppm, 125000);
	assert_int_equal(npc.resp_ts_size, 16);
	assert_int_equal(npc.resp_ts_res, 4);
	assert_int_equal(npc.ts_src, PCC_ENGINE_NP_TS_REALTIME);
	assert_true(npc.resp_dscp_set);
	assert_int_equal(npc.resp_dscp, 10);
	assert_int_equal(npc.hw_probes, PCC_ENGINE_NP_HW_DROP);
	assert_int_equal(npc.ifa2_gns_select_mask, 0xf);
	assert_int_equal(npc.ifa2_gns_select_value, 3);
	assert_true(npc.ifa2_gns_ignore);
	assert_int_equal(npc.ifa2_gns_ignore_mask, 0x8);
	assert_int_equal(npc.ifa2_gns_ignore_value, 0x8);
	assert_int_equal(npc.nb_sqpn_map, 3);
	assert_non_null(npc.sqpn_map);
	assert_int_equal(npc.sqpn_map[0].dqpn, 0x10);
	assert_int_equal(npc.sqpn_map[0].sqpn, 0x20);
	assert_int_equal(npc.sqpn_map[1].dqpn, 17);
	assert_int_equal(npc.sqpn_map[2].sqpn, 6);
	/* the process's (classifier) options are in the arguments */
	assert_string_equal(app_hopt(&args, "np-qp-table"), "0x1000");
	assert_string_equal(app_hopt(&args, "np-ifa2-proto"), "131");

	/* 0 = no gap; request = the request's DSCP */
	PARSE_OK("--np-cnp-gap-us", "0", "--np-resp-dscp", "request", "--np-resp-ts", "32:63");
	assert_int_equal(npc.cnp_gap_us, PCC_ENGINE_NP_NO_GAP);
	assert_false(npc.resp_dscp_set);
	assert_int_equal(npc.resp_ts_size, 32);
	assert_int_equal(npc.resp_ts_res, 63);
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
	PARSE_ERR("--np-ifa2-gns-select", "--np-ifa2-gns-select", "0x10:0");
	PARSE_ERR("--np-ifa2-gns-ignore", "--np-ifa2-gns-ignore", "0xf");
	/* the old name, which selected, is gone (DOCA's ignores) */
	PARSE_ERR("option '--np-ifa2-gns' is ambiguous", "--np-ifa2-gns", "0xf:1");
	PARSE_ERR("--np-ifa2-proto", "--np-ifa2-proto", "17");
	PARSE_ERR("--np-ifa2-proto", "--np-ifa2-proto", "0");
	PARSE_ERR("--np-ifa1-marker", "--np-ifa1-marker", "0x7fffffffffffffff");
	PARSE_ERR("--np-sqpn", "--np-sqpn", "1");
	PARSE_ERR("--np-sqpn", "--np-sqpn", "1=0x1000000");
	PARSE_ERR("--np-sqpn", "--np-sqpn", "1=2,");
	PARSE_ERR("mapped twice", "--np-sqpn", "1=2", "--np-sqpn", "1=3");
	PARSE_ERR("--np-app", "--np-app", "");
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
			"3:ccmad:np=hw,custom=16,custom-offset=8,pattern=0xdeadbeef", "--probe",
			"7:ifa2:proto=253");
	assert_int_equal(probe(0).format, PCC_HOST_PROBE_CCMAD);
	assert_false(probe(0).hw_np);
	assert_int_equal(probe(1).format, PCC_HOST_PROBE_IFA2);
	assert_int_equal(probe(1).ifa2_gns, 0xf);
	assert_int_equal(probe(1).ifa_hop_limit, 0xfe);
	assert_int_equal(probe(2).format, PCC_HOST_PROBE_IFA1);
	assert_int_equal(probe(2).ifa1_marker, 0xaaaaaaaabbbbbbbbull);
	assert_int_equal(probe(2).ifa_hop_limit, 7);
	assert_true(probe(2).hw_np);
	assert_true(probe(3).hw_np);
	assert_int_equal(probe(3).custom_len, 16);
	assert_int_equal(probe(3).custom_offset, 8);
	assert_int_equal(probe(3).custom_pattern, 0xdeadbeef);
	assert_int_equal(probe(7).format, PCC_HOST_PROBE_IFA2);
	assert_int_equal(probe(7).ifa2_proto, 253);
	assert_int_equal(probe(4).format, PCC_HOST_PROBE_CCMAD);
	/* defaults of a format */
	PARSE_OK("--probe", "5:ifa2");
	assert_int_equal(probe(5).ifa2_gns, PCC_IFA2_GNS_DEFAULT);
	assert_int_equal(probe(5).ifa_hop_limit, PCC_IFA2_HOP_LIMIT_DEFAULT);

	PARSE_ERR("--probe", "--probe", "8:ccmad");
	PARSE_ERR("--probe", "--probe", "0:ifa3");
	PARSE_ERR("--probe", "--probe", "0");
	PARSE_ERR("np is hw or sw", "--probe", "0:ccmad:np=both");
	PARSE_ERR("custom is 0..64", "--probe", "0:ccmad:custom=65");
	PARSE_ERR("offset + custom", "--probe", "0:ccmad:custom=40,custom-offset=30");
	PARSE_ERR("ccmad keys", "--probe", "0:ccmad:gns=1");
	PARSE_ERR("gns is 0..0xf", "--probe", "0:ifa2:gns=16");
	PARSE_ERR("hop-limit is 1..255", "--probe", "0:ifa2:hop-limit=0");
	PARSE_ERR("proto is", "--probe", "0:ifa2:proto=17");
	PARSE_ERR("marker is", "--probe", "0:ifa1:marker=0x1234");
	PARSE_ERR("ifa1 keys", "--probe", "0:ifa1:gns=1");
	PARSE_ERR("expected KEY=VALUE", "--probe", "0:ifa1:marker");
	PARSE_ERR("expected KEY=VALUE", "--probe", "0:ifa1:np=sw,");
	PARSE_ERR("no KEY=VALUE", "--probe", "0:ifa1:");
	PARSE_ERR("slot given twice", "--probe", "1:ccmad", "--probe", "1:ifa1");
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
		"--np-resp-dscp", "--np-hw-probes", "--np-ifa2-gns-ignore", "--np-ifa2-gns-select",
		"--np-ifa2-proto", "--np-ifa1-marker", "--probe SLOT", "--np-cnp ", "--np-cnp-dscp",
		"--np-sqpn-offset", "--np-probe-fast", "--np-app" };
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
	/* and every engine option of lib/host's table */
	for (i = 0; i < pcc_host_opt_count(); i++) {
		char o[64];

		snprintf(o, sizeof(o), "--%s", pcc_host_opt_at(i)->name);
		if (strstr(buf, o) == NULL)
			fail_msg("--help lacks %s", o);
	}
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

	pcc_host_destroy(rp);
	pcc_host_destroy(np);
	app_args_free(&args);
	return rc;
}
