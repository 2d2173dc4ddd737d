/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Telemetry and rte_trace of lib/host in a running EAL (--no-huge): every
 * /pcc/ command is queried through the process's own telemetry socket
 * (the JSON rte_telemetry produces from the handlers' rte_tel_data) and
 * once through the stock /usr/bin/dpdk-telemetry.py; tracepoints are
 * enabled with --trace=pcc.*, saved with rte_trace_save() and read back
 * with babeltrace (skipped, with the reason, when it is not installed).
 * lib/host runs a real engine on a ring pair: an RP context on port 0
 * whose generator sends 3 flows, an NP context on port 1; the main lcore
 * polls, inside pcc_host_wait(), so the flows exist before the queries.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_log.h>
#include <rte_trace.h>
#include <rte_trace_point.h>

#include "pcc_dev.h"
#include "pcc_dev_hist.h"
#include "pcc_dev_svc.h"
#include "pcc_engine.h"
#include "pcc_host.h"
#include "pcc_host_trace.h"

static char prefix[64];
static char trace_dir[128];

/* ---- Algorithm and fake engine ------------------------------------------------- */

static void
t_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	(void)res;
}

static const struct pcc_dev_param_desc t_params[] = {
	{ 0, "GAIN", 10, 0, 100, PCC_DEV_PERM_RW, "multiplicative gain" },
	{ 1, "LIMIT", 5, 1, 50, PCC_DEV_PERM_RO, "hard limit" },
};

static const uint8_t t_units[] = { PCC_DEV_UNIT_NONE, PCC_DEV_UNIT_NS };
static const struct pcc_dev_counter_desc t_counters[] = {
	{ 0, "events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RO, "events seen" },
	{ 1, "rtt_max", 0, PCC_DEV_COUNTER_MAX, PCC_DEV_PERM_RO, "largest RTT, ns" },
};

static const uint8_t t_hists[] = { 0 };

static const struct pcc_dev_algo_ops t_ops = {
	.name = "tlm_algo",
	.id = 0x1234,
	.major = 2,
	.minor = 7,
	.desc = "telemetry test algorithm",
	.params = t_params,
	.n_params = 2,
	.counters = t_counters,
	.n_counters = 2,
	.counter_units = t_units,
	.hist_ids = t_hists,
	.n_hist_ids = 1,
	.on_event = t_event,
};

static struct pcc_ring_pair *ring;
static struct pcc_host_ctx *rp_ctx, *np_ctx;

/* ---- Telemetry client ---------------------------------------------------------- */

static int
tel_connect(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char buf[1024];
	int s;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
			rte_eal_get_runtime_dir());
	s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	assert_true(s >= 0);
	if (connect(s, (struct sockaddr *)&sun, sizeof(sun)) != 0)
		fail_msg("connect %s: %s", sun.sun_path, strerror(errno));
	/* the greeting: {"version": ..., "pid": ..., "max_output_len": ...} */
	assert_true(read(s, buf, sizeof(buf)) > 0);
	return s;
}

/* Send cmd, return the JSON reply (static buffer). */
static const char *
query(const char *cmd)
{
	static char buf[16384];
	ssize_t n;
	int s = tel_connect();

	assert_int_equal(write(s, cmd, strlen(cmd)), (ssize_t)strlen(cmd));
	n = read(s, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	close(s);
	return buf;
}

static void
expect_has(const char *cmd, const char *frag)
{
	const char *j = query(cmd);

	if (strstr(j, frag) == NULL)
		fail_msg("%s: \"%s\" not in %s", cmd, frag, j);
}

/* ---- Setup ------------------------------------------------------------------------ */

static int
group_setup(void **state)
{
	struct pcc_dev_conf dc = { .n_ports = 1, .n_threads = 1 };
	struct pcc_dev_hist_conf hc = {
		.mode = PCC_DEV_HIST_LINEAR,
		.n_bins = 4,
		.min = 0,
		.step = 100,
		.desc = "rtt histogram",
	};
	char trace_arg[160], prefix_arg[96];
	char *argv[] = { "test_host_tlm", "--no-huge", "-m", "64", "--no-pci", "-l", "0",
		prefix_arg, trace_arg, "--trace=pcc\\..*", "--log-level=lib.eal:error", NULL };
	int argc = (int)(sizeof(argv) / sizeof(argv[0])) - 1;

	(void)state;
	snprintf(prefix, sizeof(prefix), "pcc_tlm_%d", getpid());
	snprintf(prefix_arg, sizeof(prefix_arg), "--file-prefix=%s", prefix);
	snprintf(trace_dir, sizeof(trace_dir), "/tmp/pcc-trace-%d", getpid());
	snprintf(trace_arg, sizeof(trace_arg), "--trace-dir=%s", trace_dir);
	if (rte_eal_init(argc, argv) < 0)
		return -1;
	rte_log_set_level_pattern("pcc.*", RTE_LOG_EMERG);
	if (pcc_dev_algo_register(&t_ops) != 0 || pcc_dev_init(&dc) != 0 ||
			pcc_dev_algo_load(0, 0, "tlm_algo") != 0 ||
			pcc_dev_slot_bind(0, 0, 0) != 0 || pcc_dev_slot_enable(0, 0, true) != 0 ||
			pcc_dev_hist_init(0, 0, &hc) != 0 || pcc_dev_hist_enable(0, 0) != 0)
		return -1;
	pcc_dev_thread_set_rank(0);
	pcc_dev_counter_add(0, 0, 0, 5);
	pcc_dev_counter_update(0, 0, 1, 9000);
	pcc_dev_hist_update(0, 0, 0, 150);
	pcc_dev_hist_update(0, 0, 0, 160);
	pcc_dev_hist_update(0, 0, 0, 999);
	/* the engine: 3 slow flows from port 0 to port 1 */
	ring = pcc_ring_pair_create("tlm", 1, 1, 1024, -1);
	if (ring == NULL)
		return -1;
	rp_ctx = pcc_host_rp_create(0);
	np_ctx = pcc_host_np_create(1);
	if (rp_ctx == NULL || np_ctx == NULL || pcc_host_set_app(rp_ctx, "tlm_algo") != 0 ||
			pcc_host_opt_set(NULL, "gen-flows", "3") != 0 ||
			pcc_host_opt_set(NULL, "gen-rate", "10") != 0 ||
			pcc_host_opt_set(NULL, "flows", "1024") != 0 ||
			pcc_host_start(rp_ctx) != 0 || pcc_host_start(np_ctx) != 0)
		return -1;
	/* the main lcore polls: its share runs while we wait */
	pcc_host_wait(rp_ctx, 100);
	if (pcc_host_flows_count() != 3)
		return -1;
	return pcc_host_telemetry_register();
}

static int
group_teardown(void **state)
{
	char cmd[512];

	(void)state;
	pcc_host_destroy(rp_ctx);
	pcc_host_destroy(np_ctx);
	pcc_ring_pair_free(ring);
	pcc_host_svc_stop();
	pcc_dev_fini();
	/* the EAL leaves its runtime directory (config, telemetry socket) */
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", trace_dir, rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	if (system(cmd) != 0)
		return -1;
	return 0;
}

/* ---- Tests ----------------------------------------------------------------------------- */

static void
test_tlm_register(void **state)
{
	(void)state;
	assert_int_equal(pcc_host_telemetry_register(), 0); /* idempotent */
	expect_has("/", "\"/pcc/algo\"");
	expect_has("/help,/pcc/counters", "port,slot[,group]");
}

static void
test_tlm_info_state(void **state)
{
	(void)state;
	expect_has("/pcc/info", "\"version\":\"" PCC_VERSION "\"");
	expect_has("/pcc/info", "\"max_slots\":8");
	expect_has("/pcc/info", "\"engine\":1");
	assert_string_equal(query("/pcc/state"),
			"{\"/pcc/state\":{\"process_state\":0,\"process_state_name\":\"active\","
			"\"ctx_port\":[0,1],\"ctx_role\":[\"rp\",\"np\"],\"ctx_state\":["
			"\"running\","
			"\"running\"]}}");
}

static void
test_tlm_algo(void **state)
{
	(void)state;
	assert_string_equal(query("/pcc/algo,0,0"),
			"{\"/pcc/algo\":{\"port\":0,\"slot\":0,\"algo_id\":4660,\"major\":2,"
			"\"minor\":7,\"name\":\"tlm_algo\",\"description\":\"telemetry test "
			"algorithm\",\"slot_enabled\":1,\"counters_enabled\":1,\"n_counters\":2,"
			"\"n_params\":2,\"n_counter_groups\":2,\"mailbox\":0}}");
	assert_string_equal(query("/pcc/algo,0,3"),
			"{\"/pcc/algo\":{\"status\":-2,\"error\":\"port 0 slot 3: no algorithm "
			"bound\"}}");
	expect_has("/pcc/algo,9,0", "\"error\":\"port 9: ports are 0..7\"");
	expect_has("/pcc/algo", "\"error\":\"parameters '': expected port,slot\"");
	expect_has("/pcc/algo,0,9", "\"error\":\"slot 9: slots are 0..7 and 15\"");
	expect_has("/pcc/slots,0",
			"\"slots\":[0],\"enabled\":[1],\"algo_id\":[4660],\"algo_name\":[\"tlm_"
			"algo\"]");
	expect_has("/pcc/slots,0", "\"active_slot\":0");
}

static void
test_tlm_counters(void **state)
{
	(void)state;
	assert_string_equal(query("/pcc/counters_info,0,0"),
			"{\"/pcc/counters_info\":{\"port\":0,\"slot\":0,\"n_counters\":2,"
			"\"names\":[\"events\",\"rtt_max\"],\"types\":[\"accumulate\",\"max\"],"
			"\"descriptions\":[\"events seen\",\"largest RTT, ns\"],"
			"\"units\":[\"count\",\"ns\"]}}");
	assert_string_equal(query("/pcc/counter_info,0,0,1"),
			"{\"/pcc/counter_info\":{\"id\":1,\"name\":\"rtt_max\",\"type\":\"max\","
			"\"max\":4294967295,\"permission\":0,\"description\":\"largest RTT, "
			"ns\",\"unit\":\"ns\"}}");
	expect_has("/pcc/counter_info,0,0,2", "\"error\":\"counter 2: tlm_algo has 2 counters\"");
	assert_string_equal(query("/pcc/counters,0,0"),
			"{\"/pcc/counters\":{\"port\":0,\"slot\":0,\"group\":0,\"enabled\":1,"
			"\"n\":2,\"names\":[\"events\",\"rtt_max\"],\"values\":[5,9000]}}");
	expect_has("/pcc/counters_clear,0,0", "\"values\":[5,9000]");
	expect_has("/pcc/counters,0,0", "\"values\":[0,0]");
	/* group 1 holds histogram 0's bins */
	expect_has("/pcc/counters,0,0,1", "\"values\":[0,2,0,1,0,");
	expect_has("/pcc/counters,0,0,1",
			"\"names\":[\"hist0_bin0\",\"hist0_bin1\",\"hist0_bin2\","
			"\"hist0_bin3\",\"word4\",");
	expect_has("/pcc/counters,0,0,2", "\"error\":\"group 2: port 0 slot 0 has groups 0..1\"");
	expect_has("/pcc/counters_clear,0,0,1", "\"error\":\"group 1 holds an enabled histogram");
}

static void
test_tlm_params(void **state)
{
	(void)state;
	assert_string_equal(query("/pcc/params,0,0"),
			"{\"/pcc/params\":{\"port\":0,\"slot\":0,\"n_params\":2,\"names\":"
			"[\"GAIN\",\"LIMIT\"],\"values\":[10,5],\"defaults\":[10,5],\"min\":"
			"[0,1],\"max\":[100,50],\"writable\":[1,0]}}");
	assert_int_equal(pcc_host_param_set(0, 0, "GAIN", "42"), 0);
	assert_string_equal(query("/pcc/param,0,0,GAIN"),
			"{\"/pcc/param\":{\"name\":\"GAIN\",\"id\":0,\"type\":\"u32\","
			"\"writable\":1,\"permission\":1,\"value\":42,\"default\":10,\"min\":0,"
			"\"max\":100,"
			"\"description\":\"multiplicative gain\"}}");
	expect_has("/pcc/param,0,0,NOPE",
			"\"error\":\"parameter 'NOPE': not a parameter of tlm_algo\"");
}

static void
test_tlm_hist(void **state)
{
	(void)state;
	assert_string_equal(query("/pcc/hists,0"),
			"{\"/pcc/hists\":{\"port\":0,\"ids\":[0],\"enabled\":[1]}}");
	assert_string_equal(query("/pcc/hist,0,0"),
			"{\"/pcc/hist\":{\"port\":0,\"id\":0,\"mode\":\"linear\",\"n_bins\":4,"
			"\"enabled\":1,\"counter_group\":1,\"group_offset\":0,\"min\":0,"
			"\"step\":100,\"factor\":0,\"description\":\"rtt histogram\",\"edges\":"
			"[0,100,200,300],\"bins\":[0,2,0,1],\"update_errors\":0}}");
	expect_has("/pcc/hist,0,5", "\"error\":\"histogram 5 of port 0: not configured\"");
	expect_has("/pcc/hist,0,15", "\"error\":\"histogram 15: ids are 0..14\"");
	expect_has("/pcc/hists,x", "\"error\":\"parameters 'x': expected port\"");
}

static void
test_tlm_flows_stats(void **state)
{
	(void)state;
	assert_string_equal(query("/pcc/flows"), "{\"/pcc/flows\":{\"engine\":1,\"count\":3}}");
	expect_has("/pcc/flows_top,2", "{\"/pcc/flows_top\":{\"n\":2,\"port_id\":[0,0],\"qpn\":[");
	expect_has("/pcc/flows_top", "\"n\":3");
	expect_has("/pcc/flows_top,0", "\"error\":\"n '0': 1..64\"");
	expect_has("/pcc/flow,0,257", "\"qpn\":257,\"lcore\":0");
	expect_has("/pcc/flow,0,257", "\"slot\":0");
	assert_string_equal(query("/pcc/flow,0,5"),
			"{\"/pcc/flow\":{\"status\":-2,\"error\":\"no flow with port_id 0 qpn "
			"5\"}}");
	expect_has("/pcc/flow,0,99999999", "\"error\":\"qpn 99999999: 24 bits");
	expect_has("/pcc/stats", "{\"/pcc/stats\":{\"rx_pkts\":");
	expect_has("/pcc/stats,0", "\"gen_pkts\":");
	expect_has("/pcc/stats,5", "\"error\":\"port_id 5: not a port of the engine\"");
	expect_has("/pcc/trace", "\"active\":1");
	/* the effective configuration, a section per process and port */
	expect_has("/pcc/config", "\"process\":{\"rxq\":1,");
	expect_has("/pcc/config", "\"gen_flows\":3");
	expect_has("/pcc/config", "\"port0\":{\"roles\":\"rp\"");
	expect_has("/pcc/config", "\"slot0\":\"tlm_algo\"");
	expect_has("/pcc/config", "\"port1\":{\"roles\":\"np\"");
	expect_has("/pcc/config", "\"np_cnp\":1");
}

static void
test_tlm_dpdk_telemetry_py(void **state)
{
	char cmd[512], out[128];
	const char *r;
	FILE *f;

	(void)state;
	if (access("/usr/bin/dpdk-telemetry.py", R_OK) != 0)
		skip();
	snprintf(out, sizeof(out), "/tmp/pcc-tlm-py-%d.out", getpid());
	snprintf(cmd, sizeof(cmd),
			"printf '/pcc/algo,0,0\\n/pcc/flows\\n' | /usr/bin/python3 "
			"/usr/bin/dpdk-telemetry.py -f %s > %s 2>&1",
			prefix, out);
	assert_int_equal(system(cmd), 0);
	f = fopen(out, "r");
	assert_non_null(f);
	{
		static char buf[8192];
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);

		buf[n] = '\0';
		r = buf;
	}
	fclose(f);
	unlink(out);
	if (strstr(r, "\"algo_id\": 4660") == NULL || strstr(r, "\"count\": 3") == NULL)
		fail_msg("dpdk-telemetry.py output: %s", r);
}

static void
test_trace_babeltrace(void **state)
{
	char cmd[512], out[128], buf[65536];
	size_t n;
	FILE *f;

	(void)state;
	pcc_host_svc_stop();
	assert_true(rte_trace_is_enabled());
	assert_true(rte_trace_point_is_enabled(rte_trace_point_lookup("pcc.dev.trace")));
	/* records drained by the control path become pcc.dev.trace events */
	assert_int_equal(pcc_host_trace_fmt_set(5, "x=%u"), 0);
	pcc_host_trace_to_buffer(buf, sizeof(buf));
	pcc_host_log_to_file(NULL);
	pcc_dev_trace_5(5, 11, 0, 0, 0, 0);
	pcc_dev_trace_5(5, 12, 0, 0, 0, 0);
	assert_true(pcc_dev_printf("printf-%d", 3) > 0);
	assert_int_equal(pcc_host_trace_flush(), 3);
	pcc_host_trace_to_stdout();
	assert_int_equal(rte_trace_save(), 0);
	if (system("command -v babeltrace >/dev/null 2>&1") != 0) {
		print_message("# SKIP babeltrace: not installed (apt-get install babeltrace)\n");
		skip();
	}
	snprintf(out, sizeof(out), "/tmp/pcc-bt-%d.out", getpid());
	snprintf(cmd, sizeof(cmd), "babeltrace %s > %s 2>&1", trace_dir, out);
	assert_int_equal(system(cmd), 0);
	f = fopen(out, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(out);
	if (strstr(buf, "pcc.dev.trace:") == NULL || strstr(buf, "a1 = 0xC") == NULL ||
			strstr(buf, "pcc.dev.printf:") == NULL ||
			strstr(buf, "msg = \"printf-3\"") == NULL ||
			strstr(buf, "pcc.host.state:") == NULL)
		fail_msg("babeltrace output lacks pcc events: %.2000s", buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tlm_register),
		cmocka_unit_test(test_tlm_info_state),
		cmocka_unit_test(test_tlm_algo),
		cmocka_unit_test(test_tlm_counters),
		cmocka_unit_test(test_tlm_params),
		cmocka_unit_test(test_tlm_hist),
		cmocka_unit_test(test_tlm_flows_stats),
		cmocka_unit_test(test_tlm_dpdk_telemetry_py),
		cmocka_unit_test(test_trace_babeltrace),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
