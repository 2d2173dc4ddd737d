/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Simulator speed (devtools/bench-sim.sh; a benchmark, not a test):
 * simulated packets (frames that entered the fabric: data, ACKs, CNPs)
 * per wall-clock second of a 16:1 incast at 100G,
 *
 *   engine: config/scenarios/incast-16to1.yaml through the real engine
 *           in deterministic mode on this lcore (as dpdk-pcc --sim: the
 *           engine's generator and DCQCN send, the poll hook steps the
 *           simulator), and
 *   model:  the same fabric and message sizes with open-loop sources
 *           inside the model at 1/16 of the link each (pcc_sim_run(), no
 *           engine): the peer figure,
 *
 * measured in one run, each the best of --runs, with their ratio.  Only
 * the run itself is timed (not the setup of pools, ports and engine).
 * --size sets the message of every sender (the scenario's 1 MB, replaced
 * in its text; default 10 MB, so that a run lasts long enough to time).
 */

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "args.h"
#include "bench_common.h"
#include "pcc_engine.h"
#include "pcc_sim.h"
#include "host.h"
#include "pcc_host.h"
#include "pcc_simrun.h"
#include "pcc_algos.h"

#ifndef PCC_SCENARIO_DIR
#define PCC_SCENARIO_DIR "config/scenarios"
#endif

static const char model_scenario[] =
		"name: model-incast-16to1\n"
		"duration: 1s\n"
		"topology: {type: incast, senders: 16, receivers: 1}\n"
		"switch: {buffer: 32MB, ecn: {mode: red}}\n"
		"output: {dir: none, progress: false, plots: false}\n"
		"flows:\n"
		"  - src: [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15]\n"
		"    dst: r0\n"
		"    size: 1MB\n"
		"    rate: 6.25G\n"
		"    source: model\n";

static char size_str[32] = "10MB";

/* text with "size: 1MB" made "size: <size_str>"; malloc'd */
static char *
resize(const char *text, size_t len, size_t *out_len)
{
	const char *from = "size: 1MB", *at = strstr(text, from);
	size_t n = strlen(from), m = strlen("size: ") + strlen(size_str);
	char *s;

	if (at == NULL)
		return NULL;
	s = malloc(len - n + m + 1);
	if (s == NULL)
		return NULL;
	memcpy(s, text, (size_t)(at - text));
	sprintf(s + (at - text), "size: %s", size_str);
	memcpy(s + (at - text) + m, at + n, len - (size_t)(at - text) - n + 1);
	*out_len = len - n + m;
	return s;
}

static struct pcc_sim_scenario *
load(const char *text, size_t len, const char *name)
{
	struct pcc_sim_scenario *scn;
	char err[512], *t;
	size_t n;

	t = resize(text, len, &n);
	if (t == NULL) {
		fprintf(stderr, "bench_sim: %s: no 'size: 1MB' to resize\n", name);
		return NULL;
	}
	scn = pcc_sim_scenario_parse(t, n, name, err, sizeof(err));
	if (scn == NULL)
		fprintf(stderr, "bench_sim: %s\n", err);
	free(t);
	return scn;
}

struct result {
	double wall_s;
	uint64_t frames;
	uint64_t events;
	uint64_t end_ns;
};

static double
wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
hook(void *arg, uint64_t idle_until_ns)
{
	struct pcc_sim *sim = arg;

	if (idle_until_ns != PCC_ENGINE_POLL_BUSY)
		pcc_sim_engine_idle(sim, idle_until_ns);
	return pcc_sim_step(sim) != 0;
}

static void
fill(struct result *r, const struct pcc_sim *sim, double wall)
{
	struct pcc_sim_stats st;

	pcc_sim_stats_get(sim, &st);
	r->wall_s = wall;
	r->frames = st.pkts_in;
	r->events = st.events;
	r->end_ns = st.now_ns;
}

static int
run_model(struct result *r)
{
	struct pcc_sim_scenario *scn;
	struct pcc_sim *sim;
	double t0;

	scn = load(model_scenario, sizeof(model_scenario) - 1, "model");
	if (scn == NULL)
		return -1;
	sim = pcc_sim_create(scn, PCC_SIM_SEED_SCENARIO);
	if (sim == NULL) {
		pcc_sim_scenario_free(scn);
		return -1;
	}
	t0 = wall_now();
	pcc_sim_run(sim, UINT64_MAX);
	fill(r, sim, wall_now() - t0);
	pcc_sim_destroy(sim);
	pcc_sim_scenario_free(scn);
	return 0;
}

static struct pcc_host_ctx *
bench_ctx_new(void *arg, uint16_t port, bool np, char *err, size_t errlen)
{
	(void)arg;
	return app_host_ctx_new(port, np, err, errlen);
}

static int
run_engine(const char *text, size_t len, struct result *r)
{
	struct pcc_simrun_conf conf;
	struct pcc_simrun *run = NULL;
	struct pcc_sim_scenario *scn;
	char err[512];
	double t0;
	int rc = -1;

	scn = load(text, len, "engine");
	if (scn == NULL || pcc_sim_scenario_set(scn, "output.dir", "none", err, sizeof(err)) < 0 ||
			pcc_sim_scenario_set(scn, "output.progress", "false", err, sizeof(err)) <
					0) {
		fprintf(stderr, "bench_sim: %s\n", err);
		pcc_sim_scenario_free(scn);
		return -1;
	}
	/* as dpdk-pcc --sim does: through lib/simrun and lib/host */
	pcc_simrun_conf_default(&conf);
	conf.scn = scn;
	conf.poll_lcore = rte_get_main_lcore();
	conf.ctx_new = bench_ctx_new;
	run = pcc_simrun_create(&conf, err, sizeof(err), NULL);
	if (run == NULL) {
		fprintf(stderr, "bench_sim: %s\n", err);
		goto out;
	}
	if (pcc_host_set_poll_hook(hook, pcc_simrun_sim(run)) != 0 || app_host_start() != 0) {
		fprintf(stderr, "bench_sim: engine: %s\n", pcc_host_last_error());
		goto out;
	}
	t0 = wall_now();
	pcc_host_main_loop(NULL, NULL, 1000);
	fill(r, pcc_simrun_sim(run), wall_now() - t0);
	rc = 0;
out:
	app_host_stop();
	pcc_simrun_release(run);
	app_host_detach();
	pcc_simrun_destroy(run);
	pcc_sim_scenario_free(scn);
	return rc;
}

static void
print(const char *what, const struct result *r)
{
	printf("%-8s %8.3f ms simulated, %8" PRIu64 " frames, %9" PRIu64
	       " events in %6.3f s: %6.3f Mpkt/s, %6.2f Mev/s\n",
			what, (double)r->end_ns / 1e6, r->frames, r->events, r->wall_s,
			(double)r->frames / r->wall_s / 1e6, (double)r->events / r->wall_s / 1e6);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scenario", required_argument, NULL, 's' },
		{ "runs", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, 'z' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = PCC_SCENARIO_DIR "/incast-16to1.yaml";
	struct result best_e = { 0 }, best_m = { 0 }, r;
	char prefix[64];
	char *eal[] = { argv[0], (char *)(uintptr_t) "--no-huge", (char *)(uintptr_t) "-m",
		(char *)(uintptr_t) "1024", (char *)(uintptr_t) "--no-pci",
		(char *)(uintptr_t) "--no-shconf", (char *)(uintptr_t) "--no-telemetry",
		(char *)(uintptr_t) "-l", (char *)(uintptr_t) "0",
		(char *)(uintptr_t) "--log-level", (char *)(uintptr_t) "lib.*:error",
		(char *)(uintptr_t) "--log-level", (char *)(uintptr_t) "pcc.*:warning",
		(char *)(uintptr_t) "--file-prefix", prefix, NULL };
	static char text[65536];
	int runs = 3, opt, i;
	size_t len;
	FILE *f;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 's') {
			path = optarg;
		} else if (opt == 'r') {
			uint64_t v;

			if (!bench_uint("bench_sim", "runs", optarg, 1, 100, &v))
				return 2;
			runs = (int)v;
		} else if (opt == 'z') {
			snprintf(size_str, sizeof(size_str), "%s", optarg);
		} else {
			fprintf(stderr,
					"usage: bench_sim [--scenario FILE] [--runs N] [--size "
					"BYTES]\n");
			return 2;
		}
	}
	f = fopen(path, "r");
	if (f == NULL || (len = fread(text, 1, sizeof(text) - 1, f)) == 0) {
		fprintf(stderr, "bench_sim: cannot read %s\n", path);
		return 1;
	}
	fclose(f);
	text[len] = '\0';
	snprintf(prefix, sizeof(prefix), "bench-sim-%d", (int)getpid());
	if (rte_eal_init((int)RTE_DIM(eal) - 1, eal) < 0) {
		fprintf(stderr, "bench_sim: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if (pcc_algos_register_builtin() < 0)
		return 1;
	printf("# %s, %s per sender, through the engine (deterministic mode, one lcore) vs the "
	       "model alone (open-loop sources at 6.25G, pcc_sim_run), best of %d\n",
			path, size_str, runs);
	for (i = 0; i < runs; i++) {
		if (run_engine(text, len, &r) != 0)
			return 1;
		if (best_e.wall_s == 0 || r.wall_s < best_e.wall_s)
			best_e = r;
		if (run_model(&r) != 0)
			return 1;
		if (best_m.wall_s == 0 || r.wall_s < best_m.wall_s)
			best_m = r;
	}
	print("engine", &best_e);
	print("model", &best_m);
	printf("ratio    engine / model: %.3f (packets per wall-clock second)\n",
			((double)best_e.frames / best_e.wall_s) /
					((double)best_m.frames / best_m.wall_s));
	rte_eal_cleanup();
	return 0;
}
