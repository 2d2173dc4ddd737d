/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of lib/host: context state machine and its errors, probe and
 * NP settings and what the engine makes of them, wait(), mailbox (the
 * engine's worker lcore, and a thread of our own for the worker nobody
 * else polls), NP applications, engine options and the effective
 * configuration, tracer and logger, resources file, crash report (forked
 * children).  lib/host runs a real engine on a ring pair (ports 0 and 1:
 * what one sends the other receives), made and freed around each test.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_memory.h>

#include "pcc_dev.h"
#include "pcc_dev_plugin.h"
#include "pcc_engine.h"
#include "pcc_dev_svc.h"
#include "pcc_host.h"
#include "pcc_host_res.h"
#include "pcc_host_trace.h"
#include "plugin_stage.h"
#include "test_eal.h"

/* ---- Test algorithms ------------------------------------------------------------ */

static int mbox_calls;

static int
tst_mailbox(const void *req, uint32_t req_len, void *resp, uint32_t resp_cap)
{
	const char *r = req;
	char *o = resp;
	uint32_t i;

	__atomic_add_fetch(&mbox_calls, 1, __ATOMIC_RELAXED);
	if (req_len >= 3 && memcmp(r, "err", 3) == 0)
		return -EPROTO;
	if (req_len >= 4 && memcmp(r, "slow", 4) == 0)
		usleep(300 * 1000);
	for (i = 0; i < req_len && i < resp_cap; i++)
		o[i] = r[req_len - 1 - i];
	return (int)i;
}

static void
tst_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	res->rate = PCC_DEV_MAX_RATE;
}

static const struct pcc_dev_param_desc tst_params[] = {
	{ 0, "GAIN", 10, 0, 100, PCC_DEV_PERM_RW, "gain" },
	{ 1, "LIMIT", 5, 0, 50, PCC_DEV_PERM_RW, "limit" },
};

static const struct pcc_dev_counter_desc tst_counters[] = {
	{ 0, "events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RO, "events seen" },
};

static const struct pcc_dev_algo_ops tst_ops = {
	.name = "tst_algo",
	.id = 0x1234,
	.major = 1,
	.minor = 2,
	.desc = "host test algorithm",
	.params = tst_params,
	.n_params = 2,
	.counters = tst_counters,
	.n_counters = 1,
	.on_event = tst_on_event,
	.mailbox = tst_mailbox,
};

static const struct pcc_dev_algo_ops tst_plain = {
	.name = "tst_plain",
	.id = 0x1235,
	.on_event = tst_on_event,
};

static volatile uintptr_t bad_addr = 8;

static void
crash_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	/* an unmapped address, not NULL: UBSan would catch a NULL load first */
	volatile uint32_t *p = (volatile uint32_t *)bad_addr;

	(void)ctx;
	(void)attr;
	if (ev->type == PCC_DEV_EVENT_RTT)
		res->rate = *p; /* the fault under test */
	else
		res->rate = 1;
}

static const struct pcc_dev_algo_ops crash_ops = {
	.name = "tst_crash",
	.id = 0xabcd,
	.major = 3,
	.minor = 4,
	.on_event = crash_on_event,
};

/* ---- Ports --------------------------------------------------------------------- */

static struct pcc_ring_pair *ring;

/* A ring pair: ports 0 and 1 (engines close their ports: one per test). */
static void
ports_up(void)
{
	ring = pcc_ring_pair_create("hst", 1, 2, 1024, SOCKET_ID_ANY);
	assert_non_null(ring);
	assert_int_equal(pcc_ring_pair_port(ring, 0), 0);
	assert_int_equal(pcc_ring_pair_port(ring, 1), 1);
}

static void
ports_down(void)
{
	pcc_ring_pair_free(ring);
	ring = NULL;
}

static volatile int worker_run;

static uint64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
assert_err_has(const char *what)
{
	if (strstr(pcc_host_last_error(), what) == NULL)
		fail_msg("\"%s\" not in \"%s\"", what, pcc_host_last_error());
}

static int
group_setup(void **state)
{
	struct pcc_dev_conf conf = { .n_ports = 2, .n_threads = 2 };

	(void)state;
	/* a worker lcore (1) polls: it runs the mailbox handlers; it sleeps
	 * when idle */
	if (test_eal_init("test_host", "512", "-l", "0-1", NULL) < 0)
		return -1;
	rte_log_set_level_pattern("pcc.*", RTE_LOG_EMERG);
	assert_int_equal(pcc_host_algos_register(), 0);
	assert_int_equal(pcc_host_opt_set(NULL, "idle-sleep", "50"), 0);
	assert_int_equal(pcc_host_opt_set(NULL, "flows", "1024"), 0);
	assert_int_equal(pcc_dev_algo_register(&tst_ops), 0);
	assert_int_equal(pcc_dev_algo_register(&tst_plain), 0);
	assert_int_equal(pcc_dev_algo_register(&crash_ops), 0);
	assert_int_equal(pcc_dev_init(&conf), 0);
	assert_int_equal(pcc_dev_algo_load(0, 0, "tst_algo"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 0, 0), 0);
	assert_int_equal(pcc_dev_slot_enable(0, 0, true), 0);
	assert_int_equal(pcc_dev_algo_load(0, 1, "tst_plain"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 1, 1), 0);
	assert_int_equal(pcc_dev_algo_load(0, 2, "tst_crash"), 0);
	assert_int_equal(pcc_dev_slot_bind(0, 2, 2), 0);
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	pcc_host_svc_stop();
	pcc_dev_fini();
	plugin_stage_cleanup();
	test_eal_cleanup();
	return 0;
}

/* ---- Contexts ------------------------------------------------------------------- */

static void
test_ctx_lifecycle(void **state)
{
	struct pcc_host_ctx *rp, *np, *late;
	uint32_t lc[4] = { 1, 2, 3, 0 }, got[4], mn, mx;
	const struct pcc_dev_algo_ops *ops;
	bool plugin;

	(void)state;
	ports_up();
	rp = pcc_host_rp_create(0);
	assert_non_null(rp);
	assert_null(pcc_host_rp_create(0));
	assert_int_equal(errno, EEXIST);
	assert_null(pcc_host_rp_create(RTE_MAX_ETHPORTS));
	np = pcc_host_np_create(1);
	assert_non_null(np);
	assert_ptr_equal(pcc_host_ctx_find(1, PCC_HOST_ROLE_NP), np);
	assert_null(pcc_host_ctx_find(1, PCC_HOST_ROLE_RP));
	assert_int_equal(pcc_host_ctx_state(rp), PCC_HOST_CTX_CREATED);
	assert_int_equal(pcc_host_ctx_role(np), PCC_HOST_ROLE_NP);
	assert_int_equal(pcc_host_ctx_port(rp), 0);

	assert_int_equal(pcc_host_set_app(rp, "no_such_algo"), -ENOENT);
	assert_err_has("no registered algorithm");
	assert_int_equal(pcc_host_set_app(rp, ""), -EINVAL);
	/* an NP application is a plug-in with an NP handler */
	assert_int_equal(pcc_host_set_app(np, "tst_algo"), -ENOENT);
	assert_err_has("no loaded plug-in");
	assert_int_equal(pcc_host_set_app(rp, "tst_algo"), 0);
	assert_string_equal(pcc_host_app(rp, &plugin), "tst_algo");
	assert_false(plugin);

	assert_int_equal(pcc_host_set_threads(rp, 0, 1), -ERANGE);
	assert_int_equal(pcc_host_set_threads(rp, 2, 1), -ERANGE);
	assert_int_equal(pcc_host_set_threads(rp, 1, PCC_HOST_MAX_LCORES + 1), -ERANGE);
	assert_int_equal(pcc_host_set_threads(rp, 1, 2), 0);
	pcc_host_threads(rp, &mn, &mx);
	assert_int_equal(mn, 1);
	assert_int_equal(mx, 2);
	assert_int_equal(pcc_host_set_affinity(rp, lc, 3), -ERANGE);
	assert_err_has("outside [min 1, max 2]");
	assert_int_equal(pcc_host_set_affinity(rp, lc, 0), -ERANGE);
	lc[1] = 1;
	assert_int_equal(pcc_host_set_affinity(rp, lc, 2), -EINVAL);
	assert_err_has("listed twice");
	lc[1] = RTE_MAX_LCORE;
	assert_int_equal(pcc_host_set_affinity(rp, lc, 2), -EINVAL);
	lc[1] = 2;
	/* lcore 2 is not in the EAL's -l 0-1 */
	assert_int_equal(pcc_host_set_affinity(rp, lc, 2), -EINVAL);
	assert_err_has("not enabled in the EAL");
	assert_int_equal(pcc_host_set_affinity(rp, lc, 1), 0);
	assert_int_equal(pcc_host_affinity(rp, got, 4), 1);
	assert_int_equal(got[0], 1);
	/* narrowing the thread range below the affinity is refused */
	assert_int_equal(pcc_host_set_threads(rp, 2, 2), -ERANGE);
	assert_int_equal(pcc_host_min_threads(), 1);
	assert_int_equal(pcc_host_max_threads(), 1);
	assert_int_equal(pcc_host_rp_supported(0), 1);
	assert_int_equal(pcc_host_np_supported(1), 1);
	assert_int_equal(pcc_host_rp_supported(9), 0);
	assert_err_has("no such ethdev port");

	/* the first start creates the engine from both contexts */
	assert_null(pcc_host_engine());
	if (pcc_host_start(rp) != 0)
		fail_msg("%s", pcc_host_last_error());
	assert_non_null(pcc_host_engine());
	assert_int_equal(pcc_engine_port_roles(pcc_host_engine(), 0), PCC_ENGINE_ROLE_RP);
	assert_int_equal(pcc_engine_port_roles(pcc_host_engine(), 1), PCC_ENGINE_ROLE_NP);
	assert_int_equal(pcc_engine_lcore_polls_port(pcc_host_engine(), 1, 0), 1);
	/* the RP context's app is in slot 0 of its logical port */
	ops = pcc_dev_slot_algo(pcc_host_ctx_dev_port(rp), 0, NULL);
	assert_non_null(ops);
	assert_string_equal(ops->name, "tst_algo");
	assert_int_equal(pcc_host_ctx_state(rp), PCC_HOST_CTX_RUNNING);
	assert_int_equal(pcc_host_process_state(), PCC_HOST_PS_ACTIVE);
	/* the NP context was made with it but is not started: its port waits */
	assert_int_equal(pcc_engine_port_paused(pcc_host_engine(), 1), 1);
	assert_int_equal(pcc_engine_port_paused(pcc_host_engine(), 0), 0);
	assert_int_equal(pcc_host_start(np), 0);
	assert_int_equal(pcc_engine_port_paused(pcc_host_engine(), 1), 0);
	/* a context after the engine: refused */
	late = pcc_host_np_create(0);
	assert_null(late);
	assert_int_equal(errno, EBUSY);
	/* wrong state */
	assert_int_equal(pcc_host_set_app(rp, "tst_plain"), -EBUSY);
	assert_err_has("not allowed after start");
	assert_int_equal(pcc_host_set_threads(rp, 1, 4), -EBUSY);
	assert_int_equal(pcc_host_set_affinity(rp, lc, 1), -EBUSY);
	assert_int_equal(pcc_host_mailbox_set_size(rp, 8, 8), -EBUSY);
	assert_int_equal(pcc_host_start(rp), -EBUSY);
	assert_err_has("already running");
	/* stopping one context pauses its port, the engine runs on */
	assert_int_equal(pcc_host_stop(np), 0);
	assert_int_equal(pcc_engine_port_paused(pcc_host_engine(), 1), 1);
	assert_int_equal(pcc_host_stop(rp), 0);
	assert_int_equal(pcc_host_ctx_state(rp), PCC_HOST_CTX_STOPPED);
	assert_int_equal(pcc_host_stop(rp), -EBUSY);
	/* settings the engine fixed at its creation */
	assert_int_equal(pcc_host_set_affinity(rp, lc, 1), -EBUSY);
	assert_err_has("the engine exists");
	assert_int_equal(pcc_host_opt_set(NULL, "burst", "64"), -EBUSY);
	/* a stopped context's app reaches the engine at once */
	assert_int_equal(pcc_host_set_app(rp, "tst_plain"), 0);
	ops = pcc_dev_slot_algo(pcc_host_ctx_dev_port(rp), 0, NULL);
	assert_string_equal(ops->name, "tst_plain");
	assert_int_equal(pcc_host_set_app(rp, "tst_algo"), 0);
	assert_int_equal(pcc_host_start(rp), 0);
	pcc_host_destroy(rp); /* stops a running context */
	assert_non_null(pcc_host_engine());
	pcc_host_destroy(np); /* the last one: the engine goes */
	assert_null(pcc_host_engine());
	pcc_host_destroy(NULL);
	ports_down();
	assert_string_equal(pcc_host_process_state_name(PCC_HOST_PS_DEACTIVATED), "deactivated");
	assert_int_equal(pcc_host_process_state_set((enum pcc_host_process_state)7), -EINVAL);
}

static void
test_ctx_plugin(void **state)
{
	char src[PATH_MAX], path[PATH_MAX];
	struct pcc_host_ctx *rp;
	bool plugin;

	(void)state;
	rp = pcc_host_rp_create(1);
	assert_non_null(rp);
	assert_int_equal(pcc_host_set_app(rp, "/nonexistent/plug.so"), -ENOENT);
	assert_err_has("refused");
	snprintf(src, sizeof(src), "%s/plug_good.so", PLUGIN_DIR);
	assert_int_equal(plugin_stage(src, "plug_good.so", 0644, path, sizeof(path)), 0);
	if (pcc_host_set_app(rp, path) != 0)
		fail_msg("%s", pcc_host_last_error());
	assert_string_equal(pcc_host_app(rp, &plugin), "plug_good");
	assert_true(plugin);
	/* the same path again: already loaded, accepted */
	assert_int_equal(pcc_host_set_app(rp, path), 0);
	pcc_host_destroy(rp);
}

static void
test_probe_np(void **state)
{
	struct pcc_host_probe_conf p, q;
	struct pcc_engine_probe_conf ep;
	struct pcc_host_np_caps caps;
	struct pcc_engine_np_conf nc;
	struct pcc_host_ctx *rp, *np;

	(void)state;
	ports_up();
	rp = pcc_host_rp_create(0);
	np = pcc_host_np_create(1);
	assert_non_null(rp);
	assert_non_null(np);
	memset(&p, 0, sizeof(p));
	assert_int_equal(pcc_host_set_probe(rp, 8, &p), -ERANGE);
	assert_int_equal(pcc_host_set_probe(np, 0, &p), -ENOTSUP);
	assert_int_equal(pcc_host_set_probe(rp, 0, NULL), -EINVAL);
	p.format = 3;
	assert_int_equal(pcc_host_set_probe(rp, 0, &p), -ERANGE);
	p.format = PCC_HOST_PROBE_CCMAD;
	p.custom_len = 65;
	assert_int_equal(pcc_host_set_probe(rp, 0, &p), -ERANGE);
	p.custom_len = 32;
	p.custom_offset = 40;
	assert_int_equal(pcc_host_set_probe(rp, 0, &p), -ERANGE);
	p.custom_offset = 8;
	p.custom_pattern = 0xdeadbeef;
	assert_int_equal(pcc_host_set_probe(rp, 1, &p), 0);
	assert_int_equal(pcc_host_probe(rp, 1, &q), 0);
	assert_int_equal(q.custom_len, 32);
	assert_int_equal(q.ifa_hop_limit, 0xFE);
	memset(&p, 0, sizeof(p));
	p.format = PCC_HOST_PROBE_IFA1;
	p.ifa1_marker = 1;
	assert_int_equal(pcc_host_set_probe(rp, 2, &p), -ERANGE);
	p.ifa1_marker = UINT64_C(1) << 63;
	assert_int_equal(pcc_host_set_probe(rp, 2, &p), 0);
	p.format = PCC_HOST_PROBE_IFA2;
	p.ifa2_gns = 16;
	assert_int_equal(pcc_host_set_probe(rp, 3, &p), -ERANGE);
	p.ifa2_gns = 7;
	p.ifa_hop_limit = 9;
	assert_int_equal(pcc_host_set_probe(rp, 3, &p), 0);

	assert_int_equal(pcc_host_np_caps(np, &caps), 0);
	assert_int_equal(caps.resp_ts_size_max, 32);
	assert_int_equal(caps.resp_ts_res_max, 63);
	assert_int_equal(pcc_host_np_set_resp_ts(rp, 16, 0), -ENOTSUP);
	assert_err_has("NP setting");
	assert_int_equal(pcc_host_np_set_resp_ts(np, 33, 0), -ERANGE);
	assert_int_equal(pcc_host_np_set_resp_ts(np, 32, 64), -ERANGE);
	assert_int_equal(pcc_host_np_set_resp_ts(np, 24, 10), 0);
	assert_int_equal(pcc_host_np_set_ts_src(np, PCC_HOST_TS_REALTIME), 0);
	assert_int_equal(pcc_host_np_set_ts_src(np, (enum pcc_host_ts_src)5), -ENOTSUP);
	assert_int_equal(pcc_host_np_set_ifa2_gns_ignore(np, 16, 0), -ERANGE);
	assert_int_equal(pcc_host_np_set_ifa2_gns_ignore(np, 0xc, 0x4), 0);
	assert_int_equal(pcc_host_np_set_ifa2_gns_select(np, 0x1, 0x1), 0);
	assert_int_equal(pcc_host_np_conf_get(np, &nc), 0);
	assert_int_equal(nc.resp_ts_size, 24);
	assert_int_equal(nc.resp_ts_res, 10);
	assert_int_equal(nc.ts_src, PCC_ENGINE_NP_TS_REALTIME);
	assert_true(nc.ifa2_gns_ignore);
	assert_int_equal(nc.ifa2_gns_ignore_mask, 0xc);
	assert_int_equal(nc.ifa2_gns_select_mask, 0x1);

	/* what the engine made of them */
	if (pcc_host_start(np) != 0 || pcc_host_start(rp) != 0)
		fail_msg("%s", pcc_host_last_error());
	assert_int_equal(pcc_engine_port_np_conf_get(pcc_host_engine(), 1, &nc), 0);
	assert_int_equal(nc.resp_ts_size, 24);
	assert_int_equal(nc.ts_src, PCC_ENGINE_NP_TS_REALTIME);
	assert_true(nc.ifa2_gns_ignore);
	assert_int_equal(nc.ifa2_gns_ignore_value, 0x4);
	assert_int_equal(pcc_engine_port_probe_get(pcc_host_engine(), 0, 1, &ep), 0);
	assert_int_equal(ep.custom_len, 32);
	assert_int_equal(ep.custom_offset, 8);
	assert_int_equal(ep.custom_pattern, 0xdeadbeef);
	assert_int_equal(pcc_engine_port_probe_get(pcc_host_engine(), 0, 3, &ep), 0);
	assert_int_equal(ep.format, PCC_ENGINE_PROBE_IFA2);
	assert_int_equal(ep.ifa2_gns, 7);
	assert_int_equal(ep.ifa_hop_limit, 9);
	/* NP settings: not while the context runs */
	assert_int_equal(pcc_host_np_set_resp_ts(np, 16, 0), -EBUSY);
	/* probe formats: while it runs, the engine takes them */
	memset(&p, 0, sizeof(p));
	p.format = PCC_HOST_PROBE_IFA2;
	p.ifa2_gns = 3;
	assert_int_equal(pcc_host_set_probe(rp, 1, &p), 0);
	assert_int_equal(pcc_engine_port_probe_get(pcc_host_engine(), 0, 1, &ep), 0);
	assert_int_equal(ep.format, PCC_ENGINE_PROBE_IFA2);
	assert_int_equal(ep.ifa2_gns, 3);
	/* another IFA2 protocol than the classifier's: refused, kept */
	p.ifa2_proto = 131;
	assert_int_equal(pcc_host_set_probe(rp, 1, &p), -EPROTO);
	assert_int_equal(pcc_host_probe(rp, 1, &q), 0);
	assert_int_equal(q.ifa2_proto, 0);
	/* a stopped NP context's settings reach the engine at once */
	assert_int_equal(pcc_host_stop(np), 0);
	assert_int_equal(pcc_host_stop(rp), 0);
	assert_int_equal(pcc_host_np_set_resp_ts(np, 16, 2), 0);
	assert_int_equal(pcc_host_opt_set(np, "np-cnp-gap-us", "0"), 0);
	assert_int_equal(pcc_engine_port_np_conf_get(pcc_host_engine(), 1, &nc), 0);
	assert_int_equal(nc.resp_ts_size, 16);
	assert_int_equal(nc.resp_ts_res, 2);
	assert_int_equal(nc.cnp_gap_us, PCC_ENGINE_NP_NO_GAP);
	assert_int_equal(pcc_host_opt_set(np, "np-cnp-pcp", "9"), -EINVAL);
	assert_err_has("invalid value '9' for --np-cnp-pcp");
	pcc_host_destroy(rp);
	pcc_host_destroy(np);
	ports_down();
}

/* ---- wait() ------------------------------------------------------------------------- */

static void *
stop_later(void *arg)
{
	usleep(30 * 1000);
	pcc_host_stop(arg);
	return NULL;
}

static void
test_wait(void **state)
{
	struct pcc_host_ctx *rp;
	pthread_t t;
	uint64_t t0;

	(void)state;
	ports_up();
	rp = pcc_host_rp_create(0);
	assert_non_null(rp);
	assert_int_equal(pcc_host_wait(NULL, 10), -EINVAL);
	t0 = mono_ms();
	assert_int_equal(pcc_host_wait(rp, 50), -ETIMEDOUT);
	assert_true(mono_ms() - t0 >= 49);
	assert_int_equal(pcc_host_start(rp), 0);
	assert_int_equal(pthread_create(&t, NULL, stop_later, rp), 0);
	t0 = mono_ms();
	assert_int_equal(pcc_host_wait(rp, 5000), 0);
	assert_true(mono_ms() - t0 < 4000);
	pthread_join(t, NULL);
	assert_int_equal(pcc_host_ctx_state(rp), PCC_HOST_CTX_STOPPED);
	pcc_host_destroy(rp);
	ports_down();
}

/* ---- Mailbox ------------------------------------------------------------------------- */

static volatile int mb_run;

/* A worker of our own for rank 5, which no engine lcore has. */
static void *
fake_worker(void *arg)
{
	(void)arg;
	pcc_dev_thread_set_rank(5);
	while (__atomic_load_n(&mb_run, __ATOMIC_ACQUIRE)) {
		pcc_host_mailbox_poll();
		usleep(200);
	}
	return NULL;
}

static void
test_mailbox(void **state)
{
	struct pcc_host_ctx *rp;
	uint32_t sz, rlen;
	char *req, *resp;
	pthread_t t;
	int hrc, calls;

	(void)state;
	ports_up();
	rp = pcc_host_rp_create(0);
	assert_non_null(rp);
	assert_int_equal(pcc_host_set_app(rp, "tst_algo"), 0);
	assert_null(pcc_host_mailbox_req_buf(rp, &sz));
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 1, &rlen, &hrc, 100), -EINVAL);
	assert_int_equal(pcc_host_mailbox_set_size(rp, 0, 16), -ERANGE);
	assert_int_equal(pcc_host_mailbox_set_size(rp, 16, PCC_HOST_MAILBOX_MAX + 1), -ERANGE);
	assert_int_equal(pcc_host_mailbox_set_size(rp, 64, 32), 0);
	assert_int_equal(pcc_host_mailbox_set_worker(rp, PCC_HOST_MAILBOX_WORKERS), -ERANGE);
	req = pcc_host_mailbox_req_buf(rp, &sz);
	assert_non_null(req);
	assert_int_equal(sz, 64);
	resp = pcc_host_mailbox_resp_buf(rp, &sz);
	assert_int_equal(sz, 32);
	memcpy(req, "hello", 5);
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 5, &rlen, &hrc, 100), -EAGAIN);
	assert_err_has("not running");
	if (pcc_host_start(rp) != 0)
		fail_msg("%s", pcc_host_last_error());

	/* the engine's worker (lcore 1, the port's) runs the handler */
	mbox_calls = 0;
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 5, &rlen, &hrc, 2000), 0);
	assert_int_equal(rlen, 5);
	assert_int_equal(hrc, 5);
	assert_memory_equal(resp, "olleh", 5);
	assert_int_equal(mbox_calls, 1);
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 65, &rlen, &hrc, 100), -EMSGSIZE);
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 5, &rlen, &hrc, 0), -EINVAL);
	assert_int_equal(pcc_host_mailbox_send(rp, 5, 5, &rlen, &hrc, 100), -ENOENT);
	assert_int_equal(pcc_host_mailbox_send(rp, 1, 5, &rlen, &hrc, 100), -ENOTSUP);
	assert_err_has("no mailbox handler");
	memcpy(req, "err", 3);
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 3, &rlen, &hrc, 2000), 0);
	assert_int_equal(hrc, -EPROTO);
	assert_int_equal(rlen, 0);
	/* a handler slower than the timeout keeps the mailbox busy */
	memcpy(req, "slow", 4);
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 4, &rlen, &hrc, 50), -ETIMEDOUT);
	assert_err_has("still running");
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 4, &rlen, &hrc, 50), -EBUSY);
	usleep(400 * 1000);
	memcpy(req, "xy", 2);
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 2, &rlen, &hrc, 2000), 0);
	assert_memory_equal(resp, "yx", 2);

	/* a worker nobody polls: cancelled after the timeout, never run */
	assert_int_equal(pcc_host_stop(rp), 0);
	assert_int_equal(pcc_host_mailbox_set_worker(rp, 5), 0);
	assert_int_equal(pcc_host_start(rp), 0);
	calls = mbox_calls;
	memcpy(req, "abc", 3);
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 3, &rlen, &hrc, 50), -ETIMEDOUT);
	assert_err_has("cancelled");
	mb_run = 1;
	assert_int_equal(pthread_create(&t, NULL, fake_worker, NULL), 0);
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 3, &rlen, &hrc, 2000), 0);
	assert_memory_equal(resp, "cba", 3);
	assert_int_equal(mbox_calls, calls + 1); /* the cancelled one never ran */
	__atomic_store_n(&mb_run, 0, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	/* the watchdog's limits; off by default in the library */
	assert_int_equal(pcc_host_watchdog_ms(), 0);
	assert_int_equal(pcc_host_watchdog_set(PCC_HOST_WATCHDOG_MS_MIN - 1), -ERANGE);
	assert_int_equal(pcc_host_watchdog_set(PCC_HOST_WATCHDOG_MS_MAX + 1), -ERANGE);
	assert_int_equal(pcc_host_watchdog_set(60000), 0);
	assert_int_equal(pcc_host_watchdog_ms(), 60000);
	assert_int_equal(pcc_host_watchdog_fired(), -1);
	assert_int_equal(pcc_host_watchdog_set(0), 0);
	/* the engine stopped under a running context (a fault, the
	 * watchdog, HA): refused at once, not after the timeout */
	pcc_host_engine_stop_async();
	assert_int_equal(pcc_host_ctx_state(rp), PCC_HOST_CTX_RUNNING);
	assert_int_equal(pcc_host_mailbox_send(rp, 0, 3, &rlen, &hrc, 60000), -EAGAIN);
	assert_err_has("the engine is stopped");
	assert_int_equal(mbox_calls, calls + 1);
	pcc_host_destroy(rp);
	ports_down();
}

/* ---- NP applications ----------------------------------------------------------------- */

static void
test_np_app(void **state)
{
	char src[PATH_MAX], path[PATH_MAX];
	struct pcc_host_ctx *rp, *np;
	pcc_np_handler_t h = NULL;
	uint32_t rlen;
	uint8_t *req, *resp;
	bool plugin;
	int hrc;

	(void)state;
	ports_up();
	rp = pcc_host_rp_create(0);
	np = pcc_host_np_create(1);
	snprintf(src, sizeof(src), "%s/plug_np2.so", PLUGIN_DIR);
	assert_int_equal(plugin_stage(src, "plug_np2.so", 0644, path, sizeof(path)), 0);
	/* an RP algorithm package is no NP application */
	snprintf(src, sizeof(src), "%s/plug_good.so", PLUGIN_DIR);
	if (pcc_host_set_app(np, "plug_good") == 0)
		fail_msg("plug_good taken as an NP application");
	if (pcc_host_set_app(np, path) != 0)
		fail_msg("%s", pcc_host_last_error());
	assert_string_equal(pcc_host_app(np, &plugin), "plug_np2");
	assert_true(plugin);
	assert_int_equal(pcc_host_mailbox_set_size(np, 16, 16), 0);
	/* the NP context's mailbox: its application's handler */
	if (pcc_host_start(np) != 0 || pcc_host_start(rp) != 0)
		fail_msg("%s", pcc_host_last_error());
	assert_int_equal(pcc_dev_plugin_np("plug_np2", &h, NULL), 0);
	assert_ptr_equal(pcc_np_port_handler_bound(1), h);
	req = pcc_host_mailbox_req_buf(np, NULL);
	resp = pcc_host_mailbox_resp_buf(np, NULL);
	req[0] = 7;
	assert_int_equal(pcc_host_mailbox_send(np, 0, 1, &rlen, &hrc, 2000), 0);
	assert_int_equal(rlen, 2);
	assert_int_equal(resp[0], 2); /* plug_np2's tag */
	assert_int_equal(resp[1], 0); /* the setting before */
	req[0] = 9;
	assert_int_equal(pcc_host_mailbox_send(np, 0, 1, &rlen, &hrc, 2000), 0);
	assert_int_equal(resp[1], 7);
	/* the RP context has no application with a mailbox */
	assert_int_equal(pcc_host_mailbox_set_size(rp, 16, 16), -EBUSY);
	pcc_host_destroy(np);
	assert_null(pcc_np_port_handler_bound(1));
	pcc_host_destroy(rp);
	ports_down();
	assert_int_equal(pcc_dev_plugin_unload("plug_np2", NULL, 0), 0);
}

/* The algorithms' port_info_changed, for every RP port at the start and
 * on every link change afterwards (lib/host's service looks). */
static uint32_t
portinfo_calls(struct pcc_host_ctx *rp)
{
	uint32_t rlen, *resp = pcc_host_mailbox_resp_buf(rp, NULL);
	int hrc;

	if (pcc_host_mailbox_send(rp, 0, 4, &rlen, &hrc, 2000) != 0)
		fail_msg("%s", pcc_host_last_error());
	assert_int_equal(hrc, 32);
	return resp[0];
}

static void
test_port_info(void **state)
{
	char src[PATH_MAX], path[PATH_MAX];
	struct pcc_host_ctx *rp, *np;
	uint32_t before;
	int i;

	(void)state;
	ports_up();
	rp = pcc_host_rp_create(0);
	np = pcc_host_np_create(1);
	snprintf(src, sizeof(src), "%s/plug_portinfo.so", PLUGIN_DIR);
	assert_int_equal(plugin_stage(src, "plug_portinfo.so", 0644, path, sizeof(path)), 0);
	assert_non_null(rp);
	if (pcc_host_set_app(rp, path) != 0 || pcc_host_set_slot_app(rp, 0, "portinfo") != 0)
		fail_msg("%s", pcc_host_last_error());
	assert_int_equal(pcc_host_mailbox_set_size(rp, 64, 64), 0);
	if (pcc_host_start(rp) != 0 || pcc_host_start(np) != 0)
		fail_msg("%s", pcc_host_last_error());
	/* at the start, once, after the algorithm was bound */
	assert_int_equal(portinfo_calls(rp), 1);
	/* the link goes down, then up: one call each, when the service looks */
	for (i = 0; i < 2; i++) {
		before = portinfo_calls(rp);
		if (i == 0)
			assert_int_equal(rte_eth_dev_set_link_down(0), 0);
		else
			assert_int_equal(rte_eth_dev_set_link_up(0), 0);
		/* a bounded wait for the state, not a sleep in its place */
		for (int t = 0; t < 500 && portinfo_calls(rp) == before; t++)
			pcc_host_wait(rp, 10);
		assert_int_equal(portinfo_calls(rp), before + 1);
	}
	pcc_host_destroy(np);
	pcc_host_destroy(rp);
	ports_down();
	/* lib/dev is the fixture's: the algorithm stays bound until freed */
	assert_int_equal(pcc_dev_slot_enable(0, 0, false), 0);
	assert_int_equal(pcc_dev_slot_unbind(0, 0), 0);
	assert_int_equal(pcc_dev_algo_unload(0, 0), 0);
	assert_int_equal(pcc_dev_plugin_unload("plug_portinfo", NULL, 0), 0);
}

/* ---- Engine options and the effective configuration ------------------------------------ */

static void
test_opts_config(void **state)
{
	static char json[32768];
	struct pcc_host_ctx *rp, *np;
	const struct pcc_host_opt_info *oi;
	char why[256];
	const char *bad_names[] = { "gen-size" };
	const char *bad_values[] = { "100" };

	(void)state;
	/* the table */
	assert_true(pcc_host_opt_count() > 40);
	oi = pcc_host_opt_find("np-ifa2-gns-ignore");
	assert_non_null(oi);
	assert_int_equal(oi->scope, PCC_HOST_OPT_NP);
	assert_null(pcc_host_opt_find("np-ifa2-gns"));
	assert_int_equal(pcc_host_opt_check("burst", "0", why, sizeof(why)), -1);
	assert_string_equal(why, "invalid value '0' for --burst (expected packets, 1..512)");
	assert_int_equal(pcc_host_opts_check(bad_names, bad_values, 1, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "--gen-size needs --gen-flows"));
	assert_int_equal(pcc_host_opt_set(NULL, "nosuch", "1"), -ENOENT);
	/* the generated flows' settings: not gen-flows or gen-file themselves */
	assert_true(pcc_host_opt_is_gen("gen-qpn"));
	assert_true(pcc_host_opt_is_gen("gen-dst-mac"));
	assert_false(pcc_host_opt_is_gen("gen-flows"));
	assert_false(pcc_host_opt_is_gen("gen-file"));
	assert_false(pcc_host_opt_is_gen("burst"));
	assert_false(pcc_host_opt_is_gen(NULL));

	ports_up();
	rp = pcc_host_rp_create(0);
	np = pcc_host_np_create(1);
	assert_int_equal(pcc_host_opt_set(rp, "burst", "64"), -EINVAL);
	assert_err_has("process option");
	assert_int_equal(pcc_host_opt_set(NULL, "np-cnp", "on"), -EINVAL);
	assert_err_has("needs an NP context");
	assert_int_equal(pcc_host_opt_set(NULL, "burst", "64"), 0);
	assert_int_equal(pcc_host_opt_set(NULL, "gen-flows", "2"), 0);
	assert_int_equal(pcc_host_opt_set(NULL, "gen-rate", "10"), 0);
	assert_int_equal(pcc_host_opt_set(rp, "algo", "tst_algo"), 0);
	assert_int_equal(pcc_host_opt_set(rp, "algo-param", "GAIN=42"), 0);
	assert_int_equal(pcc_host_opt_set(rp, "algo-param", "GAIN=420"), 0); /* checked at start */
	assert_int_equal(pcc_host_opt_set(rp, "probe", "2:ifa2:gns=5"), 0);
	assert_int_equal(pcc_host_opt_set(rp, "line-rate", "25"), 0);
	assert_int_equal(pcc_host_opt_set(np, "np-cnp-dscp", "40"), 0);
	assert_int_equal(pcc_host_opt_set(np, "np-ifa2-gns-ignore", "0xf:0x3"), 0);
	assert_int_equal(pcc_host_config_json(json, sizeof(json)), -ENODEV);
	/* a parameter out of its range: the start says which */
	assert_int_equal(pcc_host_start(rp), -EINVAL);
	assert_err_has("GAIN=420");
	/* the engine was not kept: fix and start again */
	assert_null(pcc_host_engine());
	pcc_host_destroy(rp);
	pcc_host_destroy(np);
	ports_down();

	ports_up();
	rp = pcc_host_rp_create(0);
	np = pcc_host_np_create(1);
	assert_int_equal(pcc_host_opt_set(rp, "algo", "tst_algo"), 0);
	assert_int_equal(pcc_host_opt_set(rp, "algo-param", "GAIN=42"), 0);
	assert_int_equal(pcc_host_opt_set(rp, "probe", "2:ifa2:gns=5"), 0);
	assert_int_equal(pcc_host_opt_set(rp, "line-rate", "25"), 0);
	assert_int_equal(pcc_host_opt_set(np, "np-cnp-dscp", "40"), 0);
	assert_int_equal(pcc_host_opt_set(np, "np-ifa2-gns-ignore", "0xf:0x3"), 0);
	/* a slot's parameters go with its algorithm when it is replaced (the
	 * out-of-range GAIN would refuse the start), not when it is set again */
	assert_int_equal(pcc_host_set_slot_app(rp, 6, "tst_algo"), 0);
	assert_int_equal(pcc_host_set_param(rp, 6, "GAIN", "420"), 0);
	assert_int_equal(pcc_host_set_slot_app(rp, 6, NULL), 0);
	assert_int_equal(pcc_host_set_slot_app(rp, 7, "tst_algo"), 0);
	assert_int_equal(pcc_host_set_param(rp, 7, "GAIN", "43"), 0);
	assert_int_equal(pcc_host_set_slot_app(rp, 7, "tst_algo"), 0);
	if (pcc_host_start(rp) != 0 || pcc_host_start(np) != 0)
		fail_msg("%s", pcc_host_last_error());
	assert_true(pcc_host_config_json(json, sizeof(json)) > 0);
	assert_non_null(strstr(json, "\"slot7.GAIN\": 43"));
	/* a grace period with the engine's lcores polling ends */
	assert_int_equal(pcc_host_engine_quiesce(5000), 0);
	assert_null(strstr(json, "\"slot6\": \"tst_algo\""));
	assert_non_null(strstr(json, "\"burst\": 64"));
	assert_non_null(strstr(json, "\"gen_flows\": 2"));
	assert_non_null(strstr(json, "\"gen_rate_mbps\": 10"));
	assert_non_null(strstr(json, "\"port0\": {"));
	assert_non_null(strstr(json, "\"roles\": \"rp\""));
	assert_non_null(strstr(json, "\"slot0\": \"tst_algo\""));
	assert_non_null(strstr(json, "\"slot0.GAIN\": 42"));
	assert_non_null(strstr(json, "\"line_rate_bps\": 25000000000"));
	assert_non_null(strstr(json, "\"probe2\": \"ifa2:np=sw,custom=0@0/0,gns=0x5"));
	assert_non_null(strstr(json, "\"np_cnp_dscp\": 40"));
	assert_non_null(strstr(json, "\"np_ifa2_gns_ignore\": \"0xf:0x3\""));
	/* at run time, a parameter goes to the engine's lib/dev state */
	assert_int_equal(pcc_host_opt_set(rp, "algo-param", "GAIN=43"), 0);
	assert_int_equal(pcc_host_config_json(json, sizeof(json)) > 0, 1);
	assert_non_null(strstr(json, "\"slot0.GAIN\": 43"));
	/* the probe option too */
	assert_int_equal(pcc_host_opt_set(rp, "probe", "2:ccmad:custom=8"), 0);
	assert_int_equal(pcc_host_config_json(json, sizeof(json)) > 0, 1);
	assert_non_null(strstr(json, "\"probe2\": \"ccmad:np=sw,custom=8@0/0\""));
	/* the dump */
	assert_int_equal(pcc_host_debug_dump(NULL), -EINVAL);
	pcc_host_debug_enable(true);
	assert_true(pcc_host_debug_enabled());
	pcc_host_debug_enable(false);
	pcc_host_destroy(rp);
	pcc_host_destroy(np);
	ports_down();
	/* back to the defaults for the other tests */
	assert_int_equal(pcc_host_gen_groups_set(NULL, 0, false), 0);
}

/* ---- Tracer and logger ----------------------------------------------------------------- */

static uint32_t cb_batches, cb_msgs;
static char cb_last[PCC_HOST_TRACE_TEXT_MAX];

static void
batch_cb(const struct pcc_host_trace_msg *m, uint32_t n, void *arg)
{
	(void)arg;
	assert_true(n >= 1 && n <= 2);
	cb_batches++;
	cb_msgs += n;
	snprintf(cb_last, sizeof(cb_last), "%s", m[n - 1].text);
}

/* Permission bits of path (not following a link). */
static unsigned int
file_mode(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return 0xffff;
	return (unsigned int)(st.st_mode & 07777);
}

static char *
slurp(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void
test_tracer(void **state)
{
	static char tbuf[4096];
	struct pcc_host_trace_stats st;
	uint64_t args[5] = { 7, 0xff, (uint64_t)-3, 65, 0 };
	char text[128], dir[] = "/tmp/pcc-host-trace-XXXXXX", tpath[64], lpath[64], bad[96];
	uint64_t t0;
	int i, fd;

	(void)state;
	pcc_host_svc_stop();
	assert_int_equal(pcc_host_trace_fmt_set(PCC_HOST_TRACE_FMT_MAX, "x"), -EINVAL);
	assert_int_equal(pcc_host_trace_fmt_set(2, "%s"), -EINVAL);
	assert_int_equal(pcc_host_trace_fmt_set(2, "%d %d %d %d %d %d"), -EINVAL);
	assert_int_equal(pcc_host_trace_fmt_set(2, "%*d"), -EINVAL);
	assert_int_equal(pcc_host_trace_fmt_set(1, "rate=%u flow=%lx neg=%d ch=%c %%"), 0);
	pcc_host_trace_format(1, args, text, sizeof(text));
	assert_string_equal(text, "rate=7 flow=ff neg=-3 ch=A %");
	pcc_host_trace_format(9, args, text, sizeof(text));
	assert_non_null(strstr(text, "fmt#9 0x7 0xff"));
	assert_int_equal(pcc_host_trace_fmt_set(3, "w=%08x h=%hu"), 0);
	args[0] = 0xabc;
	args[1] = 0x12345;
	pcc_host_trace_format(3, args, text, sizeof(text));
	assert_string_equal(text, "w=00000abc h=9029");

	/* user buffer */
	pcc_dev_thread_set_rank(UINT16_MAX);
	pcc_host_trace_activate(true);
	pcc_host_trace_flush();
	assert_int_equal(pcc_host_trace_to_buffer(NULL, 10), -EINVAL);
	assert_int_equal(pcc_host_trace_to_buffer(tbuf, sizeof(tbuf)), 0);
	{
		size_t blen = 0;

		assert_ptr_equal(pcc_host_trace_buffer(&blen), tbuf);
		assert_int_equal(blen, sizeof(tbuf));
		assert_null(pcc_host_trace_file());
	}
	pcc_dev_trace_5(1, 7, 0xff, (uint64_t)-3, 66, 0);
	assert_int_equal(pcc_host_trace_flush(), 1);
	assert_non_null(strstr(tbuf, "rate=7 flow=ff neg=-3 ch=B %"));
	assert_int_equal(pcc_host_trace_buffer_used(), strlen(tbuf));
	/* deactivated: nothing recorded */
	pcc_host_trace_activate(false);
	assert_false(pcc_host_trace_active());
	pcc_dev_trace_5(1, 1, 2, 3, 4, 5);
	assert_int_equal(pcc_host_trace_flush(), 0);
	pcc_host_trace_activate(true);

	/* callback in batches of 2 */
	assert_int_equal(pcc_host_trace_to_callback(batch_cb, NULL, 0), -EINVAL);
	assert_int_equal(pcc_host_trace_to_callback(batch_cb, NULL, 2), 0);
	for (i = 0; i < 5; i++)
		pcc_dev_trace_5(1, (uint64_t)i, 1, 1, 'x', 0);
	assert_int_equal(pcc_host_trace_flush(), 5);
	assert_int_equal(cb_msgs, 5);
	assert_int_equal(cb_batches, 3);
	assert_string_equal(cb_last, "rate=4 flow=1 neg=1 ch=x %");

	/* loss: more records than the ring holds, counted, never blocking */
	for (i = 0; i < (int)PCC_DEV_TRACE_RING_DEFAULT + 500; i++)
		pcc_dev_trace_5(1, 0, 0, 0, 'y', 0);
	pcc_host_trace_stats_get(&st);
	assert_true(st.trace_lost >= 400);
	pcc_host_trace_flush();

	/* file: in a private directory (doc/host.md), 0600 */
	assert_non_null(mkdtemp(dir));
	snprintf(tpath, sizeof(tpath), "%s/trace", dir);
	snprintf(lpath, sizeof(lpath), "%s/log", dir);
	assert_int_equal(pcc_host_trace_to_file("/nonexistent/dir/x"), -ENOENT);
	snprintf(bad, sizeof(bad), "%s/open", dir);
	assert_int_equal(mkdir(bad, 0700), 0);
	assert_int_equal(chmod(bad, 0777), 0);
	snprintf(bad, sizeof(bad), "%s/open/trace", dir);
	assert_int_equal(pcc_host_trace_to_file(bad), -EPERM);
	assert_err_has("without the sticky bit");
	snprintf(bad, sizeof(bad), "%s/open", dir);
	assert_int_equal(rmdir(bad), 0);
	snprintf(bad, sizeof(bad), "%s/link", dir);
	assert_int_equal(symlink(tpath, bad), 0);
	assert_int_equal(pcc_host_trace_to_file(bad), -EPERM);
	assert_err_has("symbolic link");
	assert_int_equal(pcc_host_trace_to_file(tpath), 0);
	assert_int_equal(file_mode(tpath), 0600);
	assert_string_equal(pcc_host_trace_file(), tpath);
	assert_null(pcc_host_trace_buffer(NULL));
	pcc_dev_trace_5(3, 0xabc, 0x12345, 0, 0, 0);
	pcc_host_trace_flush();
	assert_non_null(strstr(slurp(tpath), "w=00000abc h=9029"));

	/* logger: an existing file open to others is refused */
	assert_int_equal(pcc_host_log_set_buffer_size(4096), -EBUSY);
	assert_err_has("before the device starts");
	fd = open(lpath, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fchmod(fd, 0644), 0);
	close(fd);
	assert_int_equal(pcc_host_log_to_file(lpath), -EPERM);
	assert_err_has("mode 0644");
	assert_int_equal(chmod(lpath, 0600), 0);
	assert_int_equal(pcc_host_log_to_file(lpath), 0);
	assert_string_equal(pcc_host_log_file(), lpath);
	assert_true(pcc_dev_printf("hello %d", 5) > 0);
	pcc_host_trace_flush();
	assert_non_null(strstr(slurp(lpath), "hello 5"));

	/* the service drains by itself; a format may change while it runs */
	assert_int_equal(pcc_host_svc_start(2000), -ERANGE);
	assert_int_equal(pcc_host_svc_start(5), 0);
	assert_int_equal(pcc_host_svc_start(5), -EBUSY);
	assert_int_equal(pcc_host_trace_fmt_set(4, "four=%u"), 0);
	pcc_dev_trace_5(4, 44, 0, 0, 0, 0);
	t0 = mono_ms();
	while (strstr(slurp(tpath), "four=44") == NULL && mono_ms() - t0 < 3000)
		usleep(2000);
	assert_non_null(strstr(slurp(tpath), "four=44"));
	/* a plug-in sets its own through lib/dev, into the same table */
	assert_int_equal(pcc_dev_trace_fmt_set(5, "plug=%u"), 0);
	assert_int_equal(pcc_dev_trace_fmt_set(5, "plug=%s"), -EINVAL);
	pcc_dev_trace_5(5, 55, 0, 0, 0, 0);
	t0 = mono_ms();
	while (strstr(slurp(tpath), "plug=55") == NULL && mono_ms() - t0 < 3000)
		usleep(2000);
	assert_non_null(strstr(slurp(tpath), "plug=55"));
	assert_true(pcc_dev_printf("service %d", 6) > 0);
	t0 = mono_ms();
	while (strstr(slurp(lpath), "service 6") == NULL && mono_ms() - t0 < 3000)
		usleep(2000);
	assert_non_null(strstr(slurp(lpath), "service 6"));
	pcc_host_svc_stop();
	assert_false(pcc_host_svc_running());
	pcc_host_trace_to_stdout();
	pcc_host_log_to_file(NULL);
	assert_null(pcc_host_trace_file());
	assert_null(pcc_host_log_file());
	unlink(tpath);
	unlink(lpath);
	unlink(bad);
	rmdir(dir);
	pcc_host_trace_stats_get(&st);
	assert_true(st.trace_out >= 7);
	assert_true(st.log_out >= 2);
}

/* ---- Resources ------------------------------------------------------------------------ */

static const char *
write_tmp(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/pcc-host-res-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void
res_bad(const char *text, const char *where, const char *what)
{
	char err[256], exp[128];
	const char *p = write_tmp(text);

	assert_null(pcc_host_res_load(p, err, sizeof(err)));
	snprintf(exp, sizeof(exp), "%s:%s: ", p, where);
	if (strstr(err, exp) == NULL || strstr(err, what) == NULL)
		fail_msg("expected \"%s\" ... \"%s\", got \"%s\"", exp, what, err);
	unlink(p);
}

static void
test_resources(void **state)
{
	struct pcc_host_res *r;
	struct pcc_host_ctx *rp;
	uint32_t lc[8], got[8];
	char err[256];
	const char *p;

	(void)state;
	p = write_tmp("# test\n"
		      "applications:\n"
		      "  dpdk-pcc:\n"
		      "    count: 2\n"
		      "    lcores: [1, 0, 3]\n"
		      "  other:\n"
		      "    lcores: \"4-6,9\"\n");
	r = pcc_host_res_load(p, err, sizeof(err));
	if (r == NULL)
		fail_msg("%s", err);
	unlink(p);
	assert_int_equal(pcc_host_res_apps(r), 2);
	assert_string_equal(pcc_host_res_app_name(r, 1), "other");
	assert_null(pcc_host_res_app_name(r, 2));
	assert_int_equal(pcc_host_res_count(r, "dpdk-pcc"), 2);
	assert_int_equal(pcc_host_res_lcores(r, "dpdk-pcc", lc, 8), 3);
	assert_int_equal(lc[2], 3);
	assert_int_equal(pcc_host_res_count(r, "other"), 4);
	assert_int_equal(pcc_host_res_lcores(r, "other", lc, 8), 4);
	assert_int_equal(lc[3], 9);
	assert_int_equal(pcc_host_res_count(r, "nope"), -ENOENT);
	rp = pcc_host_rp_create(0);
	assert_int_equal(pcc_host_res_apply(r, "dpdk-pcc", rp), 0);
	assert_int_equal(pcc_host_affinity(rp, got, 8), 2);
	assert_int_equal(got[0], 1);
	assert_int_equal(got[1], 0);
	/* lcores the EAL does not have (-l 0-1) */
	assert_int_equal(pcc_host_res_apply(r, "other", rp), -EINVAL);
	assert_int_equal(pcc_host_affinity(rp, got, 8), 2);
	pcc_host_destroy(rp);
	pcc_host_res_free(r);

	assert_null(pcc_host_res_load("/nonexistent.yaml", err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent.yaml:0:0: cannot open"));
	res_bad("applications:\n  a:\n    count: 4\n    lcores: [1, 2]\n", "3:5",
			"count 4 but only 2 lcores");
	res_bad("applications:\n  a:\n    cores: [1]\n", "3:12", "unknown key 'cores'");
	res_bad("applications:\n  a:\n    lcores: [1, x]\n", "3:17", "'x' is not a number");
	res_bad("applications:\n  a:\n    lcores: [1, 1]\n", "3:17", "listed twice");
	res_bad("applications:\n  a:\n    lcores: [1]\n  a:\n    lcores: [2]\n", "4:3",
			"defined twice");
	res_bad("applications:\n  a:\n    lcores: [99999]\n", "3:14", "RTE_MAX_LCORE");
	res_bad("applications:\n  a:\n    lcores: \"3-1\"\n", "3:13", "bad range");
	res_bad("apps: {}\n", "1:1", "expected 'applications'");
	res_bad("applications:\n  a:\n    lcores: [1\n", "4:1", "YAML syntax");
	res_bad("", "1:1", "empty file");
}

/* ---- Crash report ----------------------------------------------------------------------- */

static int
crash_child(const char *path)
{
	struct pcc_dev_event ev;
	struct pcc_dev_results res;
	uint32_t ctx[12];
	int rc, i;

	if (path != NULL && pcc_host_crash_set_file(path) != 0)
		return 10;
	pcc_dev_thread_set_rank(1);
	worker_run = 1;
	if (pcc_host_worker_init() != 0)
		return 11;
	if (PCC_HOST_WORKER_GUARD() != 0) {
		rc = pcc_host_worker_fault_resume();
		if (rc != -EFAULT || pcc_host_process_state() != PCC_HOST_PS_ERROR ||
				pcc_dev_dispatch_current()->active != 0 ||
				pcc_host_crash_count() != 1)
			return 12;
		return 3; /* clean exit, state ERROR */
	}
	memset(ctx, 0, sizeof(ctx));
	ctx[0] = 0x5a5a5a5a;
	for (i = 0; worker_run && i < 10; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.type = i < 5 ? PCC_DEV_EVENT_TX : PCC_DEV_EVENT_RTT;
		ev.flow_tag = 4242;
		ev.sn = 77;
		ev.ts = 1000 + (uint32_t)i;
		pcc_dev_dispatch(0, 2, ctx, &ev, &res);
	}
	pcc_host_worker_fini();
	return 13;
}

static void
test_crash(void **state)
{
	char dir[] = "/tmp/pcc-host-crash-XXXXXX", path[64], link_path[64], victim[64];
	const char *rep;
	pid_t pid;
	int st, fd;

	(void)state;
	pcc_host_svc_stop();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/report", dir);
	/* a report left by an earlier run is replaced */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "old\n", 4), 4);
	close(fd);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(crash_child(path));
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 3);
	rep = slurp(path);
	assert_non_null(rep);
	assert_non_null(strstr(rep, "dpdk-pcc crash report\n"));
	assert_non_null(strstr(rep, "signal: SIGSEGV (11)"));
	assert_non_null(strstr(rep, "fault_addr: 0x0000000000000008"));
	assert_non_null(strstr(rep, "in_algorithm: yes"));
	assert_non_null(strstr(rep, "algorithm: tst_crash\n"));
	assert_non_null(strstr(rep, "algorithm_id: 0x0000abcd"));
	assert_non_null(strstr(rep, "algorithm_major: 3"));
	assert_non_null(strstr(rep, "port: 0\nslot: 2\n"));
	assert_non_null(strstr(rep, "flow_tag: 4242"));
	assert_non_null(strstr(rep, "event: RTT\nevent_type: 6"));
	assert_non_null(strstr(rep, "event_sn: 77"));
	assert_non_null(strstr(rep, "event_ts: 1005"));
	assert_non_null(strstr(rep, "flow_context:\n  5a 5a 5a 5a"));
	assert_non_null(strstr(rep, "registers:\n"));
#if defined(__x86_64__)
	assert_non_null(strstr(rep, "  rip 0x"));
#endif
	assert_non_null(strstr(rep, "backtrace:\n"));
	assert_non_null(strstr(rep, "end\n"));
	assert_null(strstr(rep, "old\n"));
	assert_int_equal(file_mode(path), 0600);

	/* a fault outside algorithm code: report, then the default action */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		volatile int *p = (volatile int *)bad_addr;
		struct rlimit nocore = { 0, 0 };

		setrlimit(RLIMIT_CORE, &nocore);
		pcc_host_crash_set_file(path);
		*p = 1;
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSEGV);
	rep = slurp(path);
	assert_non_null(strstr(rep, "in_algorithm: no"));
	assert_null(strstr(rep, "algorithm: tst_crash"));

	/* never through a link, never into a shared directory */
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(link_path, sizeof(link_path), "%s/link", dir);
	fd = open(victim, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "secret\n", 7), 7);
	close(fd);
	assert_int_equal(symlink(victim, link_path), 0);
	assert_int_equal(pcc_host_crash_set_file(link_path), -EPERM);
	assert_err_has("symbolic link");
	snprintf(victim + strlen(dir), sizeof(victim) - strlen(dir), "/open");
	assert_int_equal(mkdir(victim, 0700), 0);
	assert_int_equal(chmod(victim, 0777), 0);
	snprintf(victim + strlen(dir), sizeof(victim) - strlen(dir), "/open/report");
	assert_int_equal(pcc_host_crash_set_file(victim), -EPERM);
	assert_err_has("without the sticky bit");
	snprintf(victim + strlen(dir), sizeof(victim) - strlen(dir), "/open");
	assert_int_equal(rmdir(victim), 0);
	snprintf(victim + strlen(dir), sizeof(victim) - strlen(dir), "/sub");
	assert_int_equal(mkdir(victim, 0700), 0);
	assert_int_equal(pcc_host_crash_set_file(victim), -EISDIR);
	assert_int_equal(rmdir(victim), 0);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	/* a link put in place of the report after the check: replaced by
	 * the report, what it pointed to untouched */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (pcc_host_crash_set_file(path) != 0)
			_exit(20);
		unlink(path);
		if (symlink(victim, path) != 0)
			_exit(21);
		_exit(crash_child(NULL));
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 3);
	assert_string_equal(slurp(victim), "secret\n");
	rep = slurp(path);
	assert_non_null(strstr(rep, "in_algorithm: yes"));
	assert_int_equal(file_mode(path), 0600);
	pcc_host_crash_set_file("");
	unlink(path);
	unlink(victim);
	unlink(link_path);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctx_lifecycle),
		cmocka_unit_test(test_ctx_plugin),
		cmocka_unit_test(test_probe_np),
		cmocka_unit_test(test_wait),
		cmocka_unit_test(test_mailbox),
		cmocka_unit_test(test_np_app),
		cmocka_unit_test(test_port_info),
		cmocka_unit_test(test_opts_config),
		cmocka_unit_test(test_tracer),
		cmocka_unit_test(test_resources),
		cmocka_unit_test(test_crash),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
