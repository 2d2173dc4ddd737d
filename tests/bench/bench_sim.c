/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Simulator speed (devtools/bench-sim.sh; a benchmark, not a test): how
 * many bottleneck data packets (frames the busiest switch egress queue
 * sent: what ns-3's incast figure counts) and model events one core
 * simulates per second, wall-clock and on a CPU (CLOCK_PROCESS_CPUTIME_ID),
 *
 *   engine: a scenario (default config/scenarios/incast-16to1.yaml)
 *           through the real engine in deterministic mode on this lcore
 *           (as dpdk-pcc --sim: the engine's generator and algorithm send,
 *           the poll hook steps the simulator), and
 *   model:  for the incast, the same fabric and message sizes with
 *           open-loop sources inside the model at 1/16 of the link each
 *           (pcc_sim_run(), no engine): the in-process peer,
 *
 * alternated --runs times; every run is printed, then the range of each
 * figure.  Only the run itself is timed (not the setup of pools, ports and
 * engine).  --size sets the message of every sender (the scenario's 1 MB,
 * replaced in its text; default 10 MB, so that a run lasts long enough to
 * time); --size keep leaves the scenario's sizes; --no-model leaves out
 * the model incast (for another scenario); --model-only runs the scenario
 * by the model alone (sources: model, e.g. the 128-host all-to-all);
 * --skip-peer adds, in every run, the engine with its port skip off
 * (pcc_engine_port_skip(): every port polled every round) and the ratio.
 * --mem gives the EAL that many MB (-m, default 2048; no hugepages).
 * The lcore is the first CPU the process may run on (taskset picks it).
 * ns-3 (the other peer) is run, or its recorded figure shown, by
 * devtools/bench-sim.sh.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
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
	char err[512] = "", *t;
	size_t n = len;

	t = strcmp(size_str, "keep") == 0 ? strdup(text) : resize(text, len, &n);
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
	double cpu_s;
	uint64_t frames;
	uint64_t events;
	uint64_t end_ns;
	uint64_t bneck_pkts; /* frames the busiest switch egress queue sent */
	char bneck[2 * PCC_SIM_NAME_LEN];
	uint64_t data_pkts; /* data frames delivered, all flows */
	uint32_t flows;
};

static double
wall_now(void)
{
	return (double)bench_clock_ns(CLOCK_MONOTONIC) / 1e9;
}

static double
cpu_now(void)
{
	return (double)bench_clock_ns(CLOCK_PROCESS_CPUTIME_ID) / 1e9;
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
fill(struct result *r, const struct pcc_sim *sim, double wall, double cpu)
{
	struct pcc_sim_queue_stats q;
	struct pcc_sim_flow_stats fs;
	struct pcc_sim_stats st;
	uint64_t busy = 0;
	uint32_t i, n;

	memset(r, 0, sizeof(*r));
	pcc_sim_stats_get(sim, &st);
	r->wall_s = wall;
	r->cpu_s = cpu;
	r->frames = st.pkts_in;
	r->events = st.events;
	r->end_ns = st.now_ns;
	n = pcc_sim_queue_count(sim);
	for (i = 0; i < n; i++)
		if (pcc_sim_queue_stats_get(sim, i, &q) == 0 && q.busy_ns > busy) {
			busy = q.busy_ns;
			r->bneck_pkts = q.tx_pkts;
			snprintf(r->bneck, sizeof(r->bneck), "%s", q.name);
		}
	r->flows = pcc_sim_flow_count(sim);
	for (i = 0; i < r->flows; i++)
		if (pcc_sim_flow_stats_get(sim, i, &fs) == 0)
			r->data_pkts += fs.rx_pkts;
}

/* text (the model incast when NULL) by the model alone: pcc_sim_run() */
static int
run_model(const char *text, size_t len, struct result *r)
{
	struct pcc_sim_scenario *scn;
	struct pcc_sim *sim;
	char err[512] = "";
	double t0, c0;

	if (text == NULL)
		scn = load(model_scenario, sizeof(model_scenario) - 1, "model");
	else
		scn = load(text, len, "model");
	if (scn == NULL)
		return -1;
	if (pcc_sim_scenario_set(scn, "output.dir", "none", err, sizeof(err)) < 0 ||
			pcc_sim_scenario_set(scn, "output.progress", "false", err, sizeof(err)) <
					0) {
		fprintf(stderr, "bench_sim: %s\n", err);
		pcc_sim_scenario_free(scn);
		return -1;
	}
	sim = pcc_sim_create(scn, PCC_SIM_SEED_SCENARIO);
	if (sim == NULL) {
		pcc_sim_scenario_free(scn);
		return -1;
	}
	c0 = cpu_now();
	t0 = wall_now();
	pcc_sim_run(sim, UINT64_MAX);
	fill(r, sim, wall_now() - t0, cpu_now() - c0);
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
run_engine(const char *text, size_t len, bool skip, struct result *r)
{
	struct pcc_simrun_conf conf;
	struct pcc_simrun *run = NULL;
	struct pcc_sim_scenario *scn;
	char err[512] = "";
	double t0, c0;
	int rc = -1;

	scn = load(text, len, "engine");
	if (scn == NULL)
		return -1; /* load() said why */
	if (pcc_sim_scenario_set(scn, "output.dir", "none", err, sizeof(err)) < 0 ||
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
	if (pcc_engine_port_skip(pcc_host_engine(), skip) != 0) {
		fprintf(stderr, "bench_sim: no engine\n");
		goto out;
	}
	c0 = cpu_now();
	t0 = wall_now();
	pcc_host_main_loop(NULL, NULL, 1000);
	fill(r, pcc_simrun_sim(run), wall_now() - t0, cpu_now() - c0);
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
print(const char *what, int run, const struct result *r)
{
	printf("%-6s %2d %8.3f ms %6u flows %9" PRIu64 " frames %9" PRIu64 " data %9" PRIu64
	       " bneck(%s) %10" PRIu64 " events wall %7.3f s cpu %7.3f s: bneck %8.1f K/s"
	       " (cpu %8.1f K/s), data %8.1f K/s, events %6.3f M/s (cpu %6.3f M/s)\n",
			what, run, (double)r->end_ns / 1e6, r->flows, r->frames, r->data_pkts,
			r->bneck_pkts, r->bneck, r->events, r->wall_s, r->cpu_s,
			(double)r->bneck_pkts / r->wall_s / 1e3,
			(double)r->bneck_pkts / r->cpu_s / 1e3,
			(double)r->data_pkts / r->wall_s / 1e3, (double)r->events / r->wall_s / 1e6,
			(double)r->events / r->cpu_s / 1e6);
	fflush(stdout);
}

struct range {
	double lo, hi;
};

static void
range_add(struct range *g, double v)
{
	if (g->hi == 0 || v < g->lo)
		g->lo = v;
	if (v > g->hi)
		g->hi = v;
}

/* per wall second: bottleneck packets, data packets, events; per CPU second: the same */
struct ranges {
	struct range bneck, data, ev, bneck_cpu, data_cpu, ev_cpu, wall;
};

/* Bottleneck packets per CPU second: the ratios' unit. */
static double
bneck_cpu(const struct result *r)
{
	return (double)r->bneck_pkts / r->cpu_s;
}

static void
ranges_add(struct ranges *g, const struct result *r)
{
	range_add(&g->bneck, (double)r->bneck_pkts / r->wall_s);
	range_add(&g->data, (double)r->data_pkts / r->wall_s);
	range_add(&g->ev, (double)r->events / r->wall_s);
	range_add(&g->bneck_cpu, bneck_cpu(r));
	range_add(&g->data_cpu, (double)r->data_pkts / r->cpu_s);
	range_add(&g->ev_cpu, (double)r->events / r->cpu_s);
	range_add(&g->wall, r->wall_s);
}

static void
ranges_print(const char *what, const struct ranges *g)
{
	printf("range %-6s bneck %.1f-%.1f K/s (cpu %.1f-%.1f), data %.1f-%.1f K/s (cpu "
	       "%.1f-%.1f), events %.3f-%.3f M/s (cpu %.3f-%.3f), wall %.3f-%.3f s\n",
			what, g->bneck.lo / 1e3, g->bneck.hi / 1e3, g->bneck_cpu.lo / 1e3,
			g->bneck_cpu.hi / 1e3, g->data.lo / 1e3, g->data.hi / 1e3,
			g->data_cpu.lo / 1e3, g->data_cpu.hi / 1e3, g->ev.lo / 1e6, g->ev.hi / 1e6,
			g->ev_cpu.lo / 1e6, g->ev_cpu.hi / 1e6, g->wall.lo, g->wall.hi);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scenario", required_argument, NULL, 's' },
		{ "runs", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, 'z' },
		{ "no-model", no_argument, NULL, 'n' },
		{ "model-only", no_argument, NULL, 'm' },
		{ "skip-peer", no_argument, NULL, 'k' },
		{ "mem", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] = "usage: bench_sim [--scenario FILE] [--runs N] "
				    "[--size BYTES|keep] [--no-model] [--model-only] [--skip-peer] "
				    "[--mem MB]\n";
	const char *path = PCC_SCENARIO_DIR "/incast-16to1.yaml";
	struct range ratio = { 0, 0 }, skip_ratio = { 0, 0 };
	struct ranges ge, gm, gn;
	struct result r, re;
	char prefix[64], lcore[16], mem[16] = "2048";
	char *eal[] = { argv[0], (char *)(uintptr_t) "--no-huge", (char *)(uintptr_t) "-m", mem,
		(char *)(uintptr_t) "--no-pci", (char *)(uintptr_t) "--no-shconf",
		(char *)(uintptr_t) "--no-telemetry", (char *)(uintptr_t) "-l", lcore,
		(char *)(uintptr_t) "--log-level", (char *)(uintptr_t) "lib.*:error",
		(char *)(uintptr_t) "--log-level", (char *)(uintptr_t) "pcc.*:warning",
		(char *)(uintptr_t) "--file-prefix", prefix, NULL };
	int runs = 3, opt, i;
	bool model = true, model_only = false, skip_peer = false;
	char *text;
	long len;
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
		} else if (opt == 'n') {
			model = false;
		} else if (opt == 'm') {
			model_only = true;
		} else if (opt == 'k') {
			skip_peer = true;
		} else if (opt == 'M') {
			uint64_t v;

			if (!bench_uint("bench_sim", "mem", optarg, 64, 1u << 20, &v))
				return 2;
			snprintf(mem, sizeof(mem), "%u", (unsigned int)v);
		} else if (opt == 'h') {
			fputs(usage, stdout);
			return 0;
		} else {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bench_sim: unexpected argument '%s'\n%s", argv[optind], usage);
		return 2;
	}
	/* the EAL pins its lcore: the first CPU taskset left us, not CPU 0 */
	{
		cpu_set_t set;
		int c = 0;

		if (sched_getaffinity(0, sizeof(set), &set) == 0)
			while (c < CPU_SETSIZE - 1 && !CPU_ISSET(c, &set))
				c++;
		else
			fprintf(stderr, "bench_sim: sched_getaffinity: %s: lcore 0\n",
					strerror(errno));
		snprintf(lcore, sizeof(lcore), "%d", c);
	}
	f = fopen(path, "r");
	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) <= 0 ||
			fseek(f, 0, SEEK_SET) != 0 || (text = malloc((size_t)len + 1)) == NULL ||
			fread(text, 1, (size_t)len, f) != (size_t)len) {
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
	if (model_only)
		printf("# %s, %s per sender, by the model alone (pcc_sim_run), lcore %s, %d runs\n",
				path, size_str, lcore, runs);
	else
		printf("# %s, %s per sender, through the engine (deterministic mode, lcore %s)%s, "
		       "%d runs\n",
				path, size_str, lcore,
				model ? " vs the model alone (open-loop sources at 6.25G, "
					"pcc_sim_run)" :
					"",
				runs);
	memset(&ge, 0, sizeof(ge));
	memset(&gm, 0, sizeof(gm));
	memset(&gn, 0, sizeof(gn));
	for (i = 0; i < runs && model_only; i++) {
		/* the scenario by the model alone (its sources must be the model's) */
		if (run_model(text, (size_t)len, &r) != 0)
			return 1;
		print("model", i + 1, &r);
		ranges_add(&gm, &r);
	}
	if (model_only) {
		ranges_print("model", &gm);
		free(text);
		test_eal_cleanup();
		return 0;
	}
	for (i = 0; i < runs; i++) {
		if (run_engine(text, (size_t)len, true, &r) != 0)
			return 1;
		print("engine", i + 1, &r);
		ranges_add(&ge, &r);
		re = r;
		if (skip_peer) {
			if (run_engine(text, (size_t)len, false, &r) != 0)
				return 1;
			print("noskip", i + 1, &r);
			ranges_add(&gn, &r);
			range_add(&skip_ratio, bneck_cpu(&re) / bneck_cpu(&r));
		}
		if (!model)
			continue;
		if (run_model(NULL, 0, &r) != 0)
			return 1;
		print("model", i + 1, &r);
		ranges_add(&gm, &r);
		/* engine over model, this run */
		range_add(&ratio, bneck_cpu(&re) / bneck_cpu(&r));
	}
	ranges_print("engine", &ge);
	if (skip_peer) {
		ranges_print("noskip", &gn);
		printf("ratio engine / noskip (bottleneck packets per CPU second): %.3f-%.3f\n",
				skip_ratio.lo, skip_ratio.hi);
	}
	if (model) {
		ranges_print("model", &gm);
		printf("ratio engine / model (bottleneck packets per CPU second): %.3f-%.3f\n",
				ratio.lo, ratio.hi);
	}
	free(text);
	test_eal_cleanup();
	return 0;
}
