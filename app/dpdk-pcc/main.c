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
 * scenario gives roles, flows and algorithms (simwire.c); see run_sim().
 */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_pause.h>
#include <rte_service.h>

#include "args.h"
#include "console.h"
#include "host.h"
#include "pcc_dev.h"
#include "pcc_engine.h"
#include "pcc_host.h"
#include "pcc_host_ha.h"
#include "pcc_sim.h"
#include "simwire.h"
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

/* Control state, driven by the engine's tick. */
struct app_ctl {
	const struct app_args *args;
	struct pcc_engine *engine;
	struct app_stats stats;
	uint64_t hz;
	uint64_t start;
	uint64_t next_stats;
	struct pcc_sim *sim; /* --sim: the run ends with the scenario */
	bool print_stats;    /* periodic statistics */
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
	if (ctl->sim != NULL && pcc_sim_done(ctl->sim))
		return 1;
	if (ctl->print_stats && ctl->args->stats_period != 0 && now >= ctl->next_stats) {
		app_stats_print(stdout, &ctl->stats, ctl->engine, false);
		ctl->next_stats += ctl->args->stats_period * ctl->hz;
	}
	return 0;
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
		       " Gbit/s, clock %s, %u flow table entries\n",
				APP_NAME, p, ops != NULL ? ops->name : "none", slot,
				pcc_engine_port_line_rate(e, p) / 1000000000u,
				pcc_engine_clock_src_name((enum pcc_engine_clock_src)src),
				(unsigned int)conf->flow.capacity);
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
		stats = true;
		ctl.start = ctl.stats.start_tsc;
		ctl.next_stats = ctl.start + args->stats_period * ctl.hz;
	}
	if (args->interactive || args->cmdline_file != NULL) {
		/* console (doc/console.md): it stops the engine on return */
		struct app_console_conf cc = {
			.interactive = args->interactive,
			.file = args->cmdline_file,
			.strict = args->cmdline_strict,
		};

		rc = app_console_run(&cc) == 0 ? APP_EXIT_OK : APP_EXIT_FAIL;
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
		app_stats_print(stdout, &ctl.stats, ctl.engine, true);
	rc = app_host_exit_status(args, APP_EXIT_OK);
out:
	if (stats)
		app_stats_fini(&ctl.stats);
	app_host_detach();
	pcc_ring_pair_free(rp);
	return rc;
}

/* ---- Simulator runs (--sim) --------------------------------------- */

/* Deterministic mode: the simulator steps between the engine's rounds. */
static int
sim_hook(void *arg, uint64_t idle_until_ns)
{
	struct pcc_sim *sim = arg;

	if (idle_until_ns != PCC_ENGINE_POLL_BUSY)
		pcc_sim_engine_idle(sim, idle_until_ns);
	return pcc_sim_step(sim) != 0;
}

/* Service mode: an EAL service lcore, else the last worker made one. */
static int
sim_service_lcore(uint32_t *lcore)
{
	uint32_t list[RTE_MAX_LCORE];
	unsigned int l, last = RTE_MAX_LCORE;
	int ret;

	if (rte_service_lcore_list(list, RTE_DIM(list)) > 0) {
		*lcore = list[0];
		return 0;
	}
	RTE_LCORE_FOREACH_WORKER(l)
	last = l;
	if (last == RTE_MAX_LCORE) {
		fprintf(stderr,
				"%s: --sim-mode service needs a lcore for the service and one "
				"to poll (EAL -l 0-1)\n",
				APP_NAME);
		return -1;
	}
	ret = rte_service_lcore_add(last);
	if (ret != 0) {
		fprintf(stderr, "%s: cannot make lcore %u a service lcore: %s\n", APP_NAME, last,
				rte_strerror(-ret));
		return -1;
	}
	*lcore = last;
	return 0;
}

static int
sim_service_start(struct pcc_sim *sim, uint32_t lcore, uint32_t *id)
{
	int ret;

	ret = pcc_sim_service_register(sim, id);
	if (ret == 0)
		ret = rte_service_map_lcore_set(*id, lcore, 1);
	if (ret == 0)
		ret = rte_service_runstate_set(*id, 1);
	if (ret == 0) {
		ret = rte_service_lcore_start(lcore);
		if (ret == -EALREADY)
			ret = 0;
	}
	if (ret != 0)
		fprintf(stderr, "%s: cannot run the simulator as a service on lcore %u: %s\n",
				APP_NAME, lcore, rte_strerror(-ret));
	return ret;
}

static void
sim_service_stop(struct pcc_sim *sim, uint32_t lcore, uint32_t id)
{
	rte_service_runstate_set(id, 0);
	while (rte_service_may_be_active(id) == 1)
		rte_pause();
	rte_service_lcore_stop(lcore);
	pcc_sim_service_unregister(sim);
}

static void
print_sim_setup(const struct app_args *args, const struct pcc_sim *sim,
		const struct app_sim_view *v, const struct pcc_engine *e)
{
	struct pcc_sim_stats st;
	const char *dir = pcc_sim_output_dir(sim);

	pcc_sim_stats_get(sim, &st);
	printf("%s %s: simulator: %s, %u engine ports, %u flows (%u generated), %u "
	       "algorithm slots, %.3f ms of virtual time\n",
			APP_NAME, PCC_VERSION, args->sim_file, v->nb_ports, v->nb_flows,
			pcc_engine_gen_flow_count(e), v->nb_algos, (double)st.end_ns / 1e6);
	printf("%s: simulator: %s mode, engine on lcore %u, output %s\n", APP_NAME,
			args->sim_mode == APP_SIM_SERVICE ? "service (free-running)" :
							    "deterministic",
			v->poll_lcore, dir[0] != '\0' ? dir : "none");
	fflush(stdout);
}

static int
run_sim(const struct app_args *args)
{
	static struct pcc_sim_port_info ports[RTE_MAX_ETHPORTS];
	static struct app_sim_plan plan;
	static struct app_env env;
	struct pcc_sim_flow_info *flows = NULL;
	const struct pcc_sim_algo *algos = NULL;
	struct pcc_engine *e = NULL;
	struct pcc_sim *sim;
	struct app_sim_view v;
	struct app_ctl ctl;
	uint32_t slcore = RTE_MAX_LCORE, sid = 0;
	bool service = false, stats = false;
	char err[2048];
	uint16_t i;
	int rc = APP_EXIT_FAIL;

	sim = pcc_sim_create(args->sim_scn, PCC_SIM_SEED_SCENARIO);
	if (sim == NULL) {
		fprintf(stderr, "%s: cannot create the simulator: %s (details in the log above)\n",
				APP_NAME, rte_strerror(rte_errno));
		return APP_EXIT_FAIL;
	}
	memset(&v, 0, sizeof(v));
	if (pcc_sim_port_count(sim) == 0) {
		/* open-loop sources in the model, hardware NPs: no engine */
		printf("%s %s: simulator: %s: no host for the engine, the model runs alone\n",
				APP_NAME, PCC_VERSION, args->sim_file);
		fflush(stdout);
		rc = pcc_sim_run(sim, UINT64_MAX) < 0 ? APP_EXIT_FAIL : APP_EXIT_OK;
		if (pcc_sim_finish(sim, stdout) != 0)
			rc = APP_EXIT_FAIL;
		pcc_sim_destroy(sim);
		return rc;
	}
	if (args->sim_mode == APP_SIM_SERVICE && sim_service_lcore(&slcore) < 0)
		goto out;
	env_fill(&env, NULL);
	v.poll_lcore = env.lcores[0];
	v.nb_ports = pcc_sim_port_count(sim);
	for (i = 0; i < v.nb_ports && i < RTE_DIM(ports); i++)
		pcc_sim_port_info_get(sim, i, &ports[i]);
	v.ports = ports;
	v.nb_flows = pcc_sim_flow_count(sim);
	flows = calloc(v.nb_flows > 0 ? v.nb_flows : 1, sizeof(*flows));
	if (flows == NULL) {
		fprintf(stderr, "%s: out of memory\n", APP_NAME);
		goto out;
	}
	v.nb_flows = pcc_sim_flows(sim, flows, v.nb_flows);
	v.flows = flows;
	v.nb_algos = pcc_sim_algos(sim, &algos);
	v.algos = algos;
	pcc_sim_np_info_get(sim, &v.np);
	v.mbufs_hint = pcc_sim_mbufs_hint(sim);
	if (app_sim_wiring(args, &v, &plan, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: invalid --sim: %s: %s\n", APP_NAME, args->sim_file, err);
		rc = APP_EXIT_USAGE;
		goto out;
	}
	if (env.nb_lcores > 1 && args->sim_mode == APP_SIM_DETERMINISTIC)
		APP_LOG(NOTICE, "deterministic mode: the engine polls on lcore %u only",
				v.poll_lcore);
	/* virtual time is the ports' clock; host MACs on the ports */
	for (i = 0; i < v.nb_ports; i++) {
		struct rte_ether_addr mac;

		pcc_engine_port_clock_register(ports[i].port_id, pcc_sim_clock, sim);
		memcpy(mac.addr_bytes, ports[i].mac, sizeof(mac.addr_bytes));
		rte_eth_dev_default_mac_addr_set(ports[i].port_id, &mac);
	}
	if (app_sim_apply(args, &v, &plan, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: invalid --sim: %s: %s\n", APP_NAME, args->sim_file, err);
		rc = APP_EXIT_USAGE;
		goto out;
	}
	if (args->sim_mode == APP_SIM_DETERMINISTIC && pcc_host_set_poll_hook(sim_hook, sim) != 0) {
		fprintf(stderr, "%s: cannot hook the simulator into the poll loop: %s\n", APP_NAME,
				pcc_host_last_error());
		goto out;
	}
	if (app_host_services(args, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", APP_NAME, err);
		goto out;
	}
	if (app_host_start() < 0)
		goto out;
	e = pcc_host_engine();
	print_sim_setup(args, sim, &v, e);
	if (app_sim_started(&v, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: --sim: %s: %s\n", APP_NAME, args->sim_file, err);
		goto out;
	}
	if (args->sim_mode == APP_SIM_SERVICE) {
		if (sim_service_start(sim, slcore, &sid) != 0)
			goto out;
		service = true;
	}

	memset(&ctl, 0, sizeof(ctl));
	ctl.args = args;
	ctl.engine = e;
	ctl.sim = sim;
	ctl.print_stats = args->stats_set;
	ctl.hz = rte_get_tsc_hz();
	if (app_stats_init(&ctl.stats, e) < 0) {
		fprintf(stderr, "%s: out of memory\n", APP_NAME);
		goto out;
	}
	stats = true;
	ctl.start = ctl.stats.start_tsc;
	ctl.next_stats = ctl.start + args->stats_period * ctl.hz;
	pcc_host_main_loop(ctl_tick, &ctl, TICK_US);
	/* teardown (doc/simulator.md): engine, finish, release, destroy */
	app_host_stop();
	if (service) {
		sim_service_stop(sim, slcore, sid);
		service = false;
	}
	if (quit_signal != 0)
		APP_LOG(INFO, "signal %d: stopping", (int)quit_signal);
	if (args->stats_set)
		app_stats_print(stdout, &ctl.stats, e, true);
	rc = pcc_sim_finish(sim, stdout) == 0 ? APP_EXIT_OK : APP_EXIT_FAIL;
	fflush(stdout);
out:
	if (service)
		sim_service_stop(sim, slcore, sid);
	if (stats)
		app_stats_fini(&ctl.stats);
	app_host_stop();
	pcc_sim_release(sim);
	app_host_detach();
	for (i = 0; i < v.nb_ports; i++)
		pcc_engine_port_clock_register(ports[i].port_id, NULL, NULL);
	pcc_sim_destroy(sim);
	app_sim_plan_free(&plan);
	free(flows);
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

	rc = args.sim_scn != NULL ? run_sim(&args) : run(&args);
	app_args_free(&args);

	ret = rte_eal_cleanup();
	if (ret != 0)
		APP_LOG(WARNING, "EAL cleanup: %s", rte_strerror(-ret));
	return rc;
}
