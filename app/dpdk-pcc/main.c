/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * dpdk-pcc: EAL and application arguments, ports, engine, statistics.
 *
 *   dpdk-pcc [EAL options] -- [options]
 *
 * Application options are parsed before the EAL starts, so a bad option
 * costs no initialisation; checks that need the ports and lcores follow
 * rte_eal_init() (wiring.c).  The main lcore runs control only (timer,
 * statistics) unless it is the only lcore, in which case it also polls.
 *
 * With --sim the ports are the fabric simulator's (drivers/sim) and the
 * scenario gives roles, flows and algorithms (lib/simrun); see run_sim().
 */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_alarm.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_pause.h>
#include <rte_pdump.h>
#include <rte_service.h>

#include "args.h"
#include "console.h"
#include "host.h"
#include "pcc_dev.h"
#include "pcc_engine.h"
#include "pcc_file.h"
#include "pcc_host.h"
#include "pcc_host_ha.h"
#include "pcc_sim.h"
#include "pcc_simrun.h"
#include "load.h"
#include "stats.h"
#include "wiring.h"

RTE_LOG_REGISTER(app_logtype, pcc.app, INFO);

#define APP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, app_logtype, "pcc.app: " fmt "\n", ##__VA_ARGS__)

#define TICK_US 10000 /* control tick: signals, run time, statistics */

static volatile sig_atomic_t quit_signal;

static void
on_signal(int sig)
{
	quit_signal = sig;
	/* --ha: a process on its way out never takes over (doc/host.md) */
	pcc_host_ha_shutdown();
}

/* Where the statistics go: stdout, or --stats-file. */
static FILE *stats_out;

/* Control state, driven by the engine's tick. */
struct app_ctl {
	const struct app_args *args;
	struct pcc_engine *engine;
	struct app_stats stats;
	uint64_t hz;
	uint64_t start;
	uint64_t next_stats;
	struct pcc_simrun *run; /* --sim: the run ends with the scenario */
	bool print_stats;       /* periodic statistics */
	struct app_load load;   /* offered load met? (live runs) */
	bool load_check;
};

static int
ctl_tick(void *arg)
{
	struct app_ctl *ctl = arg;
	uint64_t now = rte_get_tsc_cycles();

	if (quit_signal != 0)
		return 1;
	if (ctl->args->run_time != 0 && now - ctl->start >= ctl->args->run_time * ctl->hz)
		return 1;
	if (ctl->run != NULL && pcc_simrun_done(ctl->run))
		return 1;
	if (ctl->load_check)
		app_load_tick(&ctl->load, ctl->engine, now, ctl->hz);
	if (ctl->print_stats && ctl->args->stats_period != 0 && now >= ctl->next_stats) {
		app_stats_print(stats_out, &ctl->stats, ctl->engine, false);
		ctl->next_stats += ctl->args->stats_period * ctl->hz;
	}
	return 0;
}

/* The offered-load check while the console owns the main lcore: once a
 * second from the EAL's alarm thread, until the console returns. */
#define LOAD_ALARM_US 1000000u

static void
load_alarm(void *arg)
{
	struct app_ctl *ctl = arg;

	app_load_tick(&ctl->load, ctl->engine, rte_get_tsc_cycles(), ctl->hz);
	rte_eal_alarm_set(LOAD_ALARM_US, load_alarm, ctl);
}

static void
eal_usage_hook(const char *prgname)
{
	printf("Application options go after '--': see '%s -- --help'.\n", prgname);
}

static int
usage_error(const char *msg)
{
	fprintf(stderr, "%s: %s\nTry '%s -- --help' for more information.\n", APP_NAME, msg,
			APP_NAME);
	return APP_EXIT_USAGE;
}

/* The EAL's view: existing ports, polling lcores. */
static void
env_fill(struct app_env *env, const struct pcc_ring_pair *rp)
{
	unsigned int l;
	uint16_t p;

	memset(env, 0, sizeof(*env));
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		env->port_valid[p] = rte_eth_dev_is_valid_port(p) != 0;
	env->main_lcore = rte_get_main_lcore();
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		if (!rte_lcore_is_enabled(l))
			continue;
		env->lcore_enabled[l] = true;
		if (l != env->main_lcore)
			env->lcores[env->nb_lcores++] = l;
	}
	if (env->nb_lcores == 0)
		env->lcores[env->nb_lcores++] = env->main_lcore;
	if (rp != NULL) {
		env->ring_pair = true;
		env->ring_port[0] = pcc_ring_pair_port(rp, 0);
		env->ring_port[1] = pcc_ring_pair_port(rp, 1);
	}
}

static void
print_setup(const struct pcc_engine *e)
{
	const struct pcc_engine_conf *conf = pcc_engine_conf_get(e);
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_ether_addr mac;
	char macs[RTE_ETHER_ADDR_FMT_SIZE];
	uint32_t i;
	uint16_t p;

	printf("%s %s: ports\n", APP_NAME, PCC_VERSION);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		uint8_t roles = conf->port[p].roles;

		if (roles == 0)
			continue;
		if (rte_eth_dev_get_name_by_port(p, name) != 0)
			snprintf(name, sizeof(name), "?");
		if (rte_eth_macaddr_get(p, &mac) != 0)
			memset(&mac, 0, sizeof(mac));
		rte_ether_format_addr(macs, sizeof(macs), &mac);
		printf("  port %u %-16s %s  %-5s rxq %u txq %d\n", p, name, macs,
				(roles & PCC_ENGINE_ROLE_FWD) ? "FWD" :
						(roles & PCC_ENGINE_ROLE_RP) &&
								(roles & PCC_ENGINE_ROLE_NP) ?
								"RP+NP" :
						(roles & PCC_ENGINE_ROLE_RP) ? "RP" :
									       "NP",
				conf->nb_rxq, pcc_engine_port_nb_txq(e, p));
	}
	printf("%s: (port,rx queue) -> lcore, tx queue\n", APP_NAME);
	for (i = 0; i < conf->nb_rxq_conf; i++) {
		const struct pcc_engine_rxq_conf *q = &conf->rxq[i];

		printf("  (%u,%u) -> lcore %u, tx queue %d\n", q->port_id, q->queue_id, q->lcore_id,
				pcc_engine_tx_queue(e, q->port_id, q->lcore_id));
	}
	if (conf->gen.nb_flows > 0)
		printf("%s: generator: %u flows per RP port, QPN %u..%u, %u-byte payload, %u "
		       "Mbit/s per flow%s, CE %u.%04u%%, %s\n",
				APP_NAME, conf->gen.nb_flows, conf->gen.qpn_base,
				conf->gen.qpn_base + conf->gen.nb_flows - 1, conf->gen.payload_len,
				conf->gen.rate_mbps, conf->gen.rate_mbps == 0 ? " (unpaced)" : "",
				conf->gen.ce_ppm / 10000, conf->gen.ce_ppm % 10000,
				conf->gen.ipv6 ? "IPv6" : "IPv4");
	if (conf->gen.nb_groups > 0)
		printf("%s: generator: %u flows in %u groups from the file, CE %u.%04u%%, %s\n",
				APP_NAME, pcc_engine_gen_flow_count(e), conf->gen.nb_groups,
				conf->gen.ce_ppm / 10000, conf->gen.ce_ppm % 10000,
				conf->gen.ipv6 ? "IPv6" : "IPv4");
	if (conf->fwd.enabled)
		printf("%s: forward mode: port %u -> paced -> port %u; CC packets from port %u "
		       "consumed, the rest back to port %u\n",
				APP_NAME, conf->fwd.port_a, conf->fwd.port_b, conf->fwd.port_b,
				conf->fwd.port_a);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct pcc_dev_algo_ops *ops;
		uint8_t dev_port, slot;
		int src;

		if (conf->port[p].roles == 0)
			continue;
		src = pcc_engine_port_clock_src(e, p);
		if (pcc_engine_port_dev(e, p, &dev_port, &slot) != 0) {
			printf("%s: port %u: clock %s\n", APP_NAME, p,
					pcc_engine_clock_src_name((enum pcc_engine_clock_src)src));
			continue;
		}
		ops = pcc_dev_slot_algo(dev_port, slot, NULL);
		printf("%s: port %u: algorithm %s (slot %u), line rate %" PRIu64
		       " Gbit/s, clock %s, %u flow table entries, steering %s\n",
				APP_NAME, p, ops != NULL ? ops->name : "none", slot,
				pcc_engine_port_line_rate(e, p) / 1000000000u,
				pcc_engine_clock_src_name((enum pcc_engine_clock_src)src),
				(unsigned int)conf->flow.capacity,
				pcc_engine_steer_name(pcc_engine_port_steer(e, p)));
	}
	fflush(stdout);
}

static int
run(const struct app_args *args)
{
	static struct app_plan plan;
	static struct app_env env;
	struct pcc_ring_pair *rp = NULL;
	struct app_ctl ctl;
	uint64_t deadline;
	bool usage, stats = false;
	char err[2048];
	int rc = APP_EXIT_FAIL;

	if (args->ring_pair) {
		unsigned int nb_txq = (unsigned int)app_hopt_u64(args, "txq", 0);

		if (nb_txq == 0) {
			/* every polling lcore might transmit on each port */
			nb_txq = rte_lcore_count() > 1 ? rte_lcore_count() - 1 : 1;
			nb_txq = RTE_MIN(nb_txq, (unsigned int)RTE_PMD_RING_MAX_TX_RINGS);
		}
		rp = pcc_ring_pair_create("pcc", (uint16_t)app_hopt_u64(args, "rxq", 1),
				(uint16_t)nb_txq, (unsigned int)app_hopt_u64(args, "rxd", 1024),
				(int)rte_socket_id());
		if (rp == NULL) {
			fprintf(stderr, "%s: cannot create the ring pair: %s\n", APP_NAME,
					rte_strerror(rte_errno));
			return APP_EXIT_FAIL;
		}
	}
	env_fill(&env, rp);
	if (app_wiring(args, &env, &plan, err, sizeof(err)) < 0) {
		rc = usage_error(err);
		goto out;
	}
	if (app_host_setup(args, &env, &plan, err, sizeof(err), &usage) < 0) {
		rc = usage ? usage_error(err) : APP_EXIT_FAIL;
		if (!usage)
			fprintf(stderr, "%s: %s\n", APP_NAME, err);
		goto out;
	}

	memset(&ctl, 0, sizeof(ctl));
	ctl.args = args;
	ctl.print_stats = true;
	ctl.hz = rte_get_tsc_hz();
	deadline = args->run_time != 0 ? rte_get_tsc_cycles() + args->run_time * ctl.hz : 0;

again:
	/* --ha: the engine runs while this process is ACTIVE (host.c) */
	if (app_host_wait_active(&quit_signal, deadline) == 0)
		goto done;
	if (app_host_start() < 0)
		goto out;
	if (!stats) {
		/* the engine exists from the first start */
		ctl.engine = pcc_host_engine();
		print_setup(ctl.engine);
		if (app_stats_init(&ctl.stats, ctl.engine) < 0) {
			fprintf(stderr, "%s: out of memory\n", APP_NAME);
			goto out;
		}
		ctl.stats.format = args->stats_format;
		stats = true;
		ctl.start = ctl.stats.start_tsc;
		ctl.next_stats = ctl.start + args->stats_period * ctl.hz;
		ctl.load_check = app_load_init(&ctl.load, ctl.engine, ctl.start) == 0;
	}
	if (args->interactive || args->cmdline_file != NULL) {
		/* console (doc/console.md): it stops the engine on return */
		struct app_console_conf cc = {
			.interactive = args->interactive,
			.file = args->cmdline_file,
			.strict = args->cmdline_strict,
		};

		bool load_alarm_on = false;

		/* not when the main lcore polls: the prompt stops its traffic */
		if (ctl.load_check &&
				pcc_engine_lcore_stats_get(ctl.engine, rte_get_main_lcore(),
						&(struct pcc_engine_lcore_stats){ 0 }) != 0)
			load_alarm_on = rte_eal_alarm_set(LOAD_ALARM_US, load_alarm, &ctl) == 0;
		rc = app_console_run(&cc) == 0 ? APP_EXIT_OK : APP_EXIT_FAIL;
		if (load_alarm_on)
			rte_eal_alarm_cancel(load_alarm, &ctl);
		app_host_stop();
		rc = app_host_exit_status(args, rc);
		goto out;
	}
	APP_LOG(INFO, "running%s; stop with SIGINT or SIGTERM",
			args->run_time != 0 ? " for the given --run-time" : "");
	pcc_host_main_loop(ctl_tick, &ctl, TICK_US);
	app_host_stop();
	if (app_host_deactivated() && quit_signal == 0)
		goto again;
done:
	if (quit_signal != 0)
		APP_LOG(INFO, "signal %d: stopping", (int)quit_signal);
	if (stats)
		app_stats_print(stats_out, &ctl.stats, ctl.engine, true);
	rc = app_host_exit_status(args, APP_EXIT_OK);
out:
	if (stats)
		app_stats_fini(&ctl.stats);
	if (stats)
		app_load_fini(&ctl.load);
	app_host_detach();
	pcc_ring_pair_free(rp);
	return rc;
}

/* ---- Simulator runs (--sim) --------------------------------------- */

/* lib/simrun's callbacks: dpdk-pcc's contexts and engine options. */
static struct pcc_host_ctx *
sim_ctx_new(void *arg, uint16_t port, bool np, char *err, size_t errlen)
{
	RTE_SET_USED(arg);
	return app_host_ctx_new(port, np, err, errlen);
}

static int
sim_opts(void *arg, struct pcc_host_ctx *ctx, char *err, size_t errlen)
{
	return app_host_opts_apply(arg, ctx, err, errlen);
}

static void
print_sim_setup(const struct app_args *args, const struct pcc_simrun *run,
		const struct pcc_engine *e)
{
	const struct pcc_sim *sim = pcc_simrun_sim(run);
	const char *dir = pcc_sim_output_dir(sim);
	const struct pcc_sim_algo *algos = NULL;
	struct pcc_sim_np_info np;
	struct pcc_sim_stats st;
	uint32_t i, n;

	pcc_sim_stats_get(sim, &st);
	pcc_sim_np_info_get(sim, &np);
	printf("%s %s: simulator: %s, %u engine ports, %u flows (%u generated), %u "
	       "algorithm slots, %.3f ms of virtual time\n",
			APP_NAME, PCC_VERSION, args->sim_file, pcc_simrun_port_count(run),
			pcc_simrun_flow_count(run), pcc_engine_gen_flow_count(e),
			pcc_simrun_algo_count(run), (double)st.end_ns / 1e6);
	printf("%s: simulator: %s mode, engine on lcore %u, output %s\n", APP_NAME,
			args->sim_mode == APP_SIM_SERVICE ? "service (free-running)" :
							    "deterministic",
			pcc_simrun_poll_lcore(run), dir[0] != '\0' ? dir : "none");
	/* what each slot runs: the profile, and the base RTT it was given */
	n = pcc_sim_algos(sim, &algos);
	for (i = 0; i < n; i++) {
		const struct pcc_sim_algo *al = &algos[i];

		printf("%s: simulator: slot %u: %s, profile %s, base RTT %" PRIu64
		       " ns (%s), %u scenario parameters; NP CNP gap %" PRIu64 " ns\n",
				APP_NAME, al->slot, al->name, pcc_simrun_profile_name(al),
				pcc_sim_base_rtt_ns(sim, al->slot),
				pcc_sim_scenario_base_rtt_auto(args->sim_scn) ? "topology" :
										"scenario",
				al->nb_params, np.cnp_gap_ns);
	}
	fflush(stdout);
}

static int
run_sim(const struct app_args *args)
{
	struct pcc_simrun_conf conf;
	struct pcc_engine *e = NULL;
	struct pcc_simrun *run;
	struct app_env env;
	struct app_ctl ctl;
	bool stats = false, usage;
	char err[2048];
	int rc = APP_EXIT_FAIL;

	env_fill(&env, NULL);
	pcc_simrun_conf_default(&conf);
	conf.scn = args->sim_scn;
	conf.mode = args->sim_mode == APP_SIM_SERVICE ? PCC_SIMRUN_SERVICE :
							PCC_SIMRUN_DETERMINISTIC;
	conf.poll_lcore = env.lcores[0];
	conf.flows_set = app_hopt(args, "flows") != NULL;
	conf.mbufs_set = app_hopt(args, "nb-mbufs") != NULL;
	conf.ctx_new = sim_ctx_new;
	conf.opts = sim_opts;
	conf.arg = (void *)(uintptr_t)args;
	run = pcc_simrun_create(&conf, err, sizeof(err), &usage);
	if (run == NULL) {
		fprintf(stderr, "%s: %s: %s: %s\n", APP_NAME, usage ? "invalid --sim" : "--sim",
				args->sim_file, err);
		app_host_detach();
		return usage ? APP_EXIT_USAGE : APP_EXIT_FAIL;
	}
	if (pcc_simrun_model_only(run)) {
		/* open-loop sources in the model, hardware NPs: no engine */
		printf("%s %s: simulator: %s: no host for the engine, the model runs alone\n",
				APP_NAME, PCC_VERSION, args->sim_file);
		fflush(stdout);
		rc = pcc_sim_run(pcc_simrun_sim(run), UINT64_MAX) < 0 ? APP_EXIT_FAIL : APP_EXIT_OK;
		if (pcc_simrun_finish(run, stdout) != 0)
			rc = APP_EXIT_FAIL;
		pcc_simrun_destroy(run);
		return rc;
	}
	if (app_host_services(args, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", APP_NAME, err);
		goto out;
	}
	if (app_host_start() < 0)
		goto out;
	e = pcc_host_engine();
	print_sim_setup(args, run, e);
	if (pcc_simrun_started(run, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: --sim: %s: %s\n", APP_NAME, args->sim_file, err);
		goto out;
	}

	memset(&ctl, 0, sizeof(ctl));
	ctl.args = args;
	ctl.engine = e;
	ctl.run = run;
	ctl.print_stats = args->stats_set;
	ctl.hz = rte_get_tsc_hz();
	if (app_stats_init(&ctl.stats, e) < 0) {
		fprintf(stderr, "%s: out of memory\n", APP_NAME);
		goto out;
	}
	ctl.stats.format = args->stats_format;
	stats = true;
	ctl.start = ctl.stats.start_tsc;
	ctl.next_stats = ctl.start + args->stats_period * ctl.hz;
	pcc_host_main_loop(ctl_tick, &ctl, TICK_US);
	/* teardown (doc/simulator.md): engine, finish, release, destroy */
	app_host_stop();
	pcc_simrun_stop(run);
	if (quit_signal != 0)
		APP_LOG(INFO, "signal %d: stopping", (int)quit_signal);
	if (args->stats_set)
		app_stats_print(stats_out, &ctl.stats, e, true);
	rc = pcc_simrun_finish(run, stdout) == 0 ? APP_EXIT_OK : APP_EXIT_FAIL;
	fflush(stdout);
out:
	if (stats)
		app_stats_fini(&ctl.stats);
	app_host_stop();
	pcc_simrun_release(run);
	app_host_detach();
	pcc_simrun_destroy(run);
	return rc;
}

int
main(int argc, char **argv)
{
	static struct app_args args;
	char *app_argv[argc + 1];
	char *eal_help[] = { argv[0], (char *)(uintptr_t) "--help", NULL };
	char err[2048];
	int dd, app_argc, i, ret, rc;
	bool pdump;

	switch (app_args_early(argc, argv)) {
	case APP_EARLY_HELP:
		app_usage(stdout);
		return APP_EXIT_OK;
	case APP_EARLY_HELP_TOP:
		app_usage(stdout);
		printf("\nEAL options: see '%s --help-eal'.\n", APP_NAME);
		return APP_EXIT_OK;
	case APP_EARLY_VERSION:
		app_version(stdout);
		return APP_EXIT_OK;
	case APP_EARLY_HELP_EAL:
		/* the EAL prints its usage and exits */
		rte_set_application_usage_hook(eal_usage_hook);
		rte_eal_init(2, eal_help);
		return APP_EXIT_OK;
	case APP_EARLY_NONE:
		break;
	}

	/* application options first: no EAL start-up for a typo */
	dd = app_args_split(argc, argv);
	app_argv[0] = (char *)(uintptr_t)APP_NAME;
	app_argc = 1;
	for (i = dd + 1; i < argc; i++)
		app_argv[app_argc++] = argv[i];
	app_argv[app_argc] = NULL;
	app_args_default(&args);
	ret = app_args_parse(app_argc, app_argv, &args, err, sizeof(err));
	if (ret == APP_ARGS_EXIT) {
		app_args_free(&args);
		return APP_EXIT_OK;
	}
	if (ret != APP_ARGS_OK) {
		app_args_free(&args);
		return usage_error(err);
	}

	rte_set_application_usage_hook(eal_usage_hook);
	ret = rte_eal_init(dd, argv);
	if (ret < 0) {
		if (rte_errno == EINVAL) {
			fprintf(stderr,
					"%s: invalid EAL arguments (the part before '--'; "
					"application options go after it)\n",
					APP_NAME);
			return APP_EXIT_USAGE;
		}
		fprintf(stderr, "%s: EAL initialisation failed: %s\n", APP_NAME,
				rte_strerror(rte_errno));
		return APP_EXIT_FAIL;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* packet capture by dpdk-dumpcap / dpdk-pdump (secondary processes):
	 * they need the multi-process channel, so not with --no-shconf */
	pdump = rte_pdump_init() == 0;
	if (!pdump)
		APP_LOG(INFO, "packet capture (dpdk-dumpcap) unavailable: %s",
				rte_strerror(rte_errno));

	stats_out = stdout;
	if (args.stats_file != NULL) {
		char why[PCC_FILE_WHY_LEN];

		stats_out = pcc_file_fcreate(args.stats_file, "w", why, sizeof(why));
		if (stats_out == NULL) {
			fprintf(stderr, "%s: invalid value '%s' for --stats-file (%s)\n", APP_NAME,
					args.stats_file, why);
			app_args_free(&args);
			rte_eal_cleanup();
			return APP_EXIT_USAGE;
		}
	}
	rc = args.sim_scn != NULL ? run_sim(&args) : run(&args);
	if (stats_out != stdout)
		fclose(stats_out);
	app_args_free(&args);
	if (pdump)
		rte_pdump_uninit();
	pcc_host_metrics_stop();

	ret = rte_eal_cleanup();
	if (ret != 0)
		APP_LOG(WARNING, "EAL cleanup: %s", rte_strerror(-ret));
	return rc;
}
