/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * load_plugin PATH: load the plug-in built from doc/examples/first-algo
 * (out of tree, by tests/plugin/oot_build.py), place its algorithm in slot
 * 0 of port 0, feed it events and check the rates, counters and parameter
 * checks its source promises.  Prints TAP; exit status 0 when all pass.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

#define ALGO "first_algo"
#define AI 10486u
#define MIN_RATE 1024u

static int n_test;
static int n_fail;

static void
check(int ok, const char *what, long got, long want)
{
	n_test++;
	if (ok) {
		printf("ok %d - %s\n", n_test, what);
	} else {
		n_fail++;
		printf("not ok %d - %s (got %ld, want %ld)\n", n_test, what, got, want);
	}
}

/* got is evaluated once (it is often a call with side effects). */
#define CHECK_EQ(what, got, want)                              \
	do {                                                   \
		long got_ = (long)(got), want_ = (long)(want); \
		check(got_ == want_, what, got_, want_);       \
	} while (0)

static uint32_t
event(void *ctx, uint8_t type, int *rc)
{
	struct pcc_dev_results res;
	struct pcc_dev_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.flow_tag = 1;
	*rc = pcc_dev_dispatch(0, 0, ctx, &ev, &res);
	return res.rate;
}

/* Load any plug-in, list what it registered, unload it. */
static int
load_only(const char *path)
{
	struct pcc_dev_plugin_info info;
	char err[512];
	uint32_t i;
	int rc;

	rc = pcc_dev_plugin_load(path, err, sizeof(err));
	if (rc != 0)
		printf("# %s\n", err);
	CHECK_EQ("plug-in loads", rc, 0);
	memset(&info, 0, sizeof(info));
	CHECK_EQ("listed", pcc_dev_plugin_list(&info, 1), 1);
	if (rc != 0) {
		printf("1..%d\n", n_test);
		return 1;
	}
	for (i = 0; i < info.n_algos; i++)
		printf("# %s: algorithm %s\n", info.name, info.algos[i]);
	if (info.np_handler)
		printf("# %s: NP handler\n", info.name);
	CHECK_EQ("registers something", info.n_algos + info.np_handler > 0, 1);
	CHECK_EQ("plug-in unloads", pcc_dev_plugin_unload(info.name, err, sizeof(err)), 0);
	printf("1..%d\n", n_test);
	return n_fail == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	struct pcc_dev_conf conf = { .n_ports = 1, .n_threads = 1, .default_algo = "none" };
	uint8_t ctx[PCC_DEV_CTX_SIZE];
	uint32_t rate = 0, v, ctr[2];
	char err[512];
	int rc, i;

	if (argc == 3 && strcmp(argv[1], "--load-only") == 0)
		return load_only(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: %s PLUGIN.so | --load-only PLUGIN.so\n", argv[0]);
		return 2;
	}
	CHECK_EQ("pcc_dev_init", pcc_dev_init(&conf), 0);
	rc = pcc_dev_plugin_load(argv[1], err, sizeof(err));
	if (rc != 0)
		printf("# %s\n", err);
	CHECK_EQ("plug-in loads", rc, 0);
	CHECK_EQ("algorithm registered", pcc_dev_algo_find(ALGO) != NULL, 1);
	CHECK_EQ("algo_load", pcc_dev_algo_load(0, 0, ALGO), 0);
	CHECK_EQ("slot_bind", pcc_dev_slot_bind(0, 0, 0), 0);
	CHECK_EQ("slot_enable", pcc_dev_slot_enable(0, 0, true), 0);

	memset(ctx, 0, sizeof(ctx));
	CHECK_EQ("new flow at line rate", event(ctx, PCC_DEV_EVENT_TX, &rc), PCC_DEV_MAX_RATE);
	CHECK_EQ("dispatched", rc, 0);
	CHECK_EQ("CNP halves", event(ctx, PCC_DEV_EVENT_CNP, &rc), PCC_DEV_MAX_RATE / 2);
	CHECK_EQ("CNP halves again", event(ctx, PCC_DEV_EVENT_CNP, &rc), PCC_DEV_MAX_RATE / 4);
	CHECK_EQ("TX adds AI", event(ctx, PCC_DEV_EVENT_TX, &rc), PCC_DEV_MAX_RATE / 4 + AI);
	event(ctx, PCC_DEV_EVENT_RTT, &rc);
	CHECK_EQ("RTT masked", rc, 1);

	v = 70000;
	CHECK_EQ("MD above its range", pcc_dev_params_set(0, 0, 1, 1, &v), -ERANGE);
	v = 0;
	CHECK_EQ("MD below its range", pcc_dev_params_set(0, 0, 1, 1, &v), -ERANGE);
	v = 2 * AI;
	CHECK_EQ("AI by name", pcc_dev_param_id(0, 0, "AI"), 0);
	CHECK_EQ("AI set", pcc_dev_params_set(0, 0, 0, 1, &v), 0);
	CHECK_EQ("TX adds the new AI", event(ctx, PCC_DEV_EVENT_TX, &rc),
			PCC_DEV_MAX_RATE / 4 + 3 * AI);
	for (i = 0; i < 30; i++)
		rate = event(ctx, PCC_DEV_EVENT_CNP, &rc);
	CHECK_EQ("floor at MIN_RATE", rate, MIN_RATE);
	CHECK_EQ("counters", pcc_dev_counters_get(0, 0, ctr, 2), 2);
	CHECK_EQ("cnp counter", ctr[0], 32);
	CHECK_EQ("increases counter", ctr[1], 3);

	CHECK_EQ("unload refused while in use",
			pcc_dev_plugin_unload("first_algo", err, sizeof(err)), -EBUSY);
	CHECK_EQ("slot disable", pcc_dev_slot_enable(0, 0, false), 0);
	CHECK_EQ("slot unbind", pcc_dev_slot_unbind(0, 0), 0);
	CHECK_EQ("algo_unload", pcc_dev_algo_unload(0, 0), 0);
	CHECK_EQ("plug-in unloads", pcc_dev_plugin_unload("first_algo", err, sizeof(err)), 0);
	CHECK_EQ("algorithm gone", pcc_dev_algo_find(ALGO) == NULL, 1);
	pcc_dev_fini();
	printf("1..%d\n", n_test);
	return n_fail == 0 ? 0 : 1;
}
