/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* A simulator run through lib/host (pcc_simrun.h). */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_pause.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "pcc_host.h"
#include "simrun_internal.h"

RTE_LOG_REGISTER(simrun_logtype, pcc.simrun, INFO);

struct pcc_simrun {
	struct pcc_simrun_conf conf;
	struct pcc_sim *sim;
	bool model_only;
	bool hooked;
	bool released;
	struct simrun_view v;
	struct simrun_plan plan;
	struct pcc_sim_port_info ports[RTE_MAX_ETHPORTS];
	struct pcc_sim_flow_info *flows;
	uint32_t service_lcore;
	uint32_t service_id;
	bool service_on;
	/* deterministic mode: the engine is held (pcc_engine_hold) and the
	 * simulator does not step until every context runs
	 * (pcc_simrun_started): contexts start one after the other, and the
	 * poll lcore, launched with the first, must neither let virtual time
	 * pass nor work on some ports only (a generator's round-robin start
	 * moves every round, so extra rounds on one port change the run) */
	uint32_t go;
	bool held;  /* the engine is held: the poll lcore has not seen go */
	bool armed; /* the engine's first round on the ports ran */
};

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

void
pcc_simrun_conf_default(struct pcc_simrun_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->seed = PCC_SIM_SEED_SCENARIO;
	conf->mode = PCC_SIMRUN_DETERMINISTIC;
	conf->poll_lcore = RTE_MAX_LCORE;
}

/* Deterministic mode: the simulator steps between the engine's rounds. */
static int
sim_hook(void *arg, uint64_t idle_until_ns)
{
	struct pcc_simrun *run = arg;

	if (run->held) {
		if (__atomic_load_n(&run->go, __ATOMIC_ACQUIRE) == 0)
			return 0;
		/* every port was resumed before go: the next round works on
		 * all of them, whatever the wall clock did until now */
		pcc_engine_hold(pcc_host_engine(), false);
		run->held = false;
		return 0;
	}
	/* the engine's first two rounds on the ports pass at virtual time 0
	 * (its first round sends the flows' first packets, the second comes
	 * before the first step) */
	if (!run->armed) {
		run->armed = true;
		return 0;
	}
	if (idle_until_ns != PCC_ENGINE_POLL_BUSY)
		pcc_sim_engine_idle(run->sim, idle_until_ns);
	return pcc_sim_step(run->sim) != 0;
}

/* The first worker lcore (service lcores are none), else the main lcore. */
static uint32_t
first_poll_lcore(void)
{
	unsigned int l;

	RTE_LCORE_FOREACH_WORKER(l)
	return l;
	return rte_get_main_lcore();
}

/* Service mode: an EAL service lcore, else the last worker made one. */
static int
service_lcore(uint32_t *lcore, char *err, size_t errlen)
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
	if (last == RTE_MAX_LCORE)
		return fail(err, errlen,
				"service mode needs a lcore for the service and one to poll (EAL "
				"-l 0-1)");
	ret = rte_service_lcore_add(last);
	if (ret != 0)
		return fail(err, errlen, "cannot make lcore %u a service lcore: %s", last,
				rte_strerror(-ret));
	*lcore = last;
	return 0;
}

struct pcc_host_ctx *
simrun_ctx_default(uint16_t port, bool np, char *err, size_t errlen)
{
	struct pcc_host_ctx *ctx = np ? pcc_host_np_create(port) : pcc_host_rp_create(port);

	if (ctx == NULL) {
		fail(err, errlen, "cannot create the %s context of port %u: %s", np ? "NP" : "RP",
				port, pcc_host_last_error());
		return NULL;
	}
	if (pcc_host_mailbox_set_size(ctx, SIMRUN_MAILBOX_SIZE, SIMRUN_MAILBOX_SIZE) < 0) {
		fail(err, errlen, "cannot set up the mailbox of port %u: %s", port,
				pcc_host_last_error());
		pcc_host_destroy(ctx);
		return NULL;
	}
	return ctx;
}

/* What the simulator tells: ports, flows, algorithms, NP, mbufs. */
static int
read_view(struct pcc_simrun *run, char *err, size_t errlen)
{
	struct simrun_view *v = &run->v;
	const struct pcc_sim_algo *algos = NULL;
	uint16_t i;

	v->nb_ports = pcc_sim_port_count(run->sim);
	if (v->nb_ports > RTE_DIM(run->ports))
		return fail(err, errlen, "%u simulator ports, at most %u", v->nb_ports,
				(unsigned int)RTE_DIM(run->ports));
	for (i = 0; i < v->nb_ports; i++)
		pcc_sim_port_info_get(run->sim, i, &run->ports[i]);
	v->ports = run->ports;
	v->nb_flows = pcc_sim_flow_count(run->sim);
	run->flows = calloc(v->nb_flows > 0 ? v->nb_flows : 1, sizeof(*run->flows));
	if (run->flows == NULL)
		return fail(err, errlen, "out of memory");
	v->nb_flows = pcc_sim_flows(run->sim, run->flows, v->nb_flows);
	v->flows = run->flows;
	v->nb_algos = pcc_sim_algos(run->sim, &algos);
	v->algos = algos;
	for (i = 0; i < PCC_SIM_SLOTS_MAX; i++)
		v->base_rtt_ns[i] = pcc_sim_base_rtt_ns(run->sim, (uint8_t)i);
	pcc_sim_np_info_get(run->sim, &v->np);
	v->mbufs_hint = pcc_sim_mbufs_hint(run->sim);
	v->poll_lcore = run->conf.poll_lcore < RTE_MAX_LCORE ? run->conf.poll_lcore :
							       first_poll_lcore();
	return 0;
}

struct pcc_simrun *
pcc_simrun_create(const struct pcc_simrun_conf *conf, char *err, size_t errlen, bool *usage)
{
	struct pcc_simrun *run;
	uint16_t i;

	if (usage != NULL)
		*usage = false;
	if (conf == NULL || conf->scn == NULL) {
		fail(err, errlen, "no scenario");
		return NULL;
	}
	run = calloc(1, sizeof(*run));
	if (run == NULL) {
		fail(err, errlen, "out of memory");
		return NULL;
	}
	run->conf = *conf;
	run->service_lcore = RTE_MAX_LCORE;
	if (pcc_simrun_profiles_check(conf->scn, err, errlen) < 0) {
		if (usage != NULL)
			*usage = true;
		free(run);
		return NULL;
	}
	run->sim = pcc_sim_create(conf->scn, conf->seed);
	if (run->sim == NULL) {
		fail(err, errlen, "cannot create the simulator: %s (details in the log)",
				rte_strerror(rte_errno));
		free(run);
		return NULL;
	}
	if (pcc_sim_port_count(run->sim) == 0) {
		/* open-loop sources in the model, hardware NPs: no engine */
		run->model_only = true;
		return run;
	}
	if (read_view(run, err, errlen) < 0)
		goto fail;
	if (conf->mode == PCC_SIMRUN_SERVICE) {
		if (service_lcore(&run->service_lcore, err, errlen) < 0)
			goto fail_usage;
		/* the service lcore is no worker: poll on another, else main */
		if (run->v.poll_lcore == run->service_lcore)
			run->v.poll_lcore = first_poll_lcore();
	}
	if (simrun_wiring(&run->conf, &run->v, &run->plan, err, errlen) < 0)
		goto fail_usage;
	if (rte_lcore_count() > 1 && conf->mode == PCC_SIMRUN_DETERMINISTIC)
		SIMRUN_LOG(NOTICE, "deterministic mode: the engine polls on lcore %u only",
				run->v.poll_lcore);
	/* virtual time is the ports' clock; host MACs on the ports */
	for (i = 0; i < run->v.nb_ports; i++) {
		struct rte_ether_addr mac;

		pcc_engine_port_clock_register(run->ports[i].port_id, pcc_sim_clock, run->sim);
		memcpy(mac.addr_bytes, run->ports[i].mac, sizeof(mac.addr_bytes));
		rte_eth_dev_default_mac_addr_set(run->ports[i].port_id, &mac);
	}
	if (simrun_apply(&run->conf, &run->v, &run->plan, err, errlen) < 0)
		goto fail_usage;
	if (conf->mode == PCC_SIMRUN_DETERMINISTIC) {
		if (pcc_host_set_poll_hook(sim_hook, run) != 0) {
			fail(err, errlen, "cannot hook the simulator into the poll loop: %s",
					pcc_host_last_error());
			goto fail;
		}
		run->hooked = true;
		/* the hook releases it (pcc_host_set_poll_hook(NULL) clears it) */
		if (pcc_host_set_poll_hold(true) != 0) {
			fail(err, errlen, "cannot hold the engine until the run starts: %s",
					pcc_host_last_error());
			goto fail;
		}
		run->held = true;
	}
	return run;
fail_usage:
	if (usage != NULL)
		*usage = true;
fail:
	pcc_simrun_release(run);
	pcc_simrun_destroy(run);
	return NULL;
}

struct pcc_sim *
pcc_simrun_sim(const struct pcc_simrun *run)
{
	return run != NULL ? run->sim : NULL;
}

bool
pcc_simrun_model_only(const struct pcc_simrun *run)
{
	return run != NULL && run->model_only;
}

uint16_t
pcc_simrun_port_count(const struct pcc_simrun *run)
{
	return run != NULL ? run->v.nb_ports : 0;
}

int
pcc_simrun_port_info(const struct pcc_simrun *run, uint16_t idx, struct pcc_sim_port_info *p)
{
	if (run == NULL || p == NULL || idx >= run->v.nb_ports)
		return -EINVAL;
	*p = run->ports[idx];
	return 0;
}

int
pcc_simrun_port_by_host(const struct pcc_simrun *run, const char *name)
{
	int h;

	if (run == NULL || name == NULL)
		return -EINVAL;
	if (run->model_only)
		return -ENOENT;
	/* its own port, or the one it shares (sim.hosts_per_port) */
	h = pcc_sim_host_find(run->sim, name);
	return h < 0 ? -ENOENT : pcc_sim_host_port_id(run->sim, (uint16_t)h);
}

uint32_t
pcc_simrun_poll_lcore(const struct pcc_simrun *run)
{
	return run != NULL ? run->v.poll_lcore : RTE_MAX_LCORE;
}

uint32_t
pcc_simrun_flow_count(const struct pcc_simrun *run)
{
	return run != NULL ? run->v.nb_flows : 0;
}

uint32_t
pcc_simrun_algo_count(const struct pcc_simrun *run)
{
	return run != NULL ? run->v.nb_algos : 0;
}

static int
service_start(struct pcc_simrun *run, char *err, size_t errlen)
{
	int ret;

	ret = pcc_sim_service_register(run->sim, &run->service_id);
	if (ret == 0)
		ret = rte_service_map_lcore_set(run->service_id, run->service_lcore, 1);
	if (ret == 0)
		ret = rte_service_runstate_set(run->service_id, 1);
	if (ret == 0) {
		ret = rte_service_lcore_start(run->service_lcore);
		if (ret == -EALREADY)
			ret = 0;
	}
	if (ret != 0)
		return fail(err, errlen, "cannot run the simulator as a service on lcore %u: %s",
				run->service_lcore, rte_strerror(-ret));
	run->service_on = true;
	return 0;
}

int
pcc_simrun_started(struct pcc_simrun *run, char *err, size_t errlen)
{
	if (run == NULL || run->model_only)
		return 0;
	if (simrun_np_mailbox(&run->v, err, errlen) < 0)
		return -1;
	if (run->conf.mode == PCC_SIMRUN_SERVICE && !run->service_on)
		return service_start(run, err, errlen);
	/* every context runs: virtual time may pass */
	__atomic_store_n(&run->go, 1, __ATOMIC_RELEASE);
	return 0;
}

bool
pcc_simrun_done(const struct pcc_simrun *run)
{
	return run == NULL || pcc_sim_done(run->sim);
}

void
pcc_simrun_stop(struct pcc_simrun *run)
{
	if (run == NULL || !run->service_on)
		return;
	rte_service_runstate_set(run->service_id, 0);
	while (rte_service_may_be_active(run->service_id) == 1)
		rte_pause();
	rte_service_lcore_stop(run->service_lcore);
	pcc_sim_service_unregister(run->sim);
	run->service_on = false;
}

int
pcc_simrun_finish(struct pcc_simrun *run, FILE *out)
{
	if (run == NULL)
		return -1;
	return pcc_sim_finish(run->sim, out) == 0 ? 0 : -1;
}

void
pcc_simrun_release(struct pcc_simrun *run)
{
	if (run == NULL || run->released)
		return;
	pcc_simrun_stop(run);
	pcc_sim_release(run->sim);
	run->released = true;
}

void
pcc_simrun_destroy(struct pcc_simrun *run)
{
	uint16_t i;

	if (run == NULL)
		return;
	pcc_simrun_release(run);
	if (run->hooked)
		pcc_host_set_poll_hook(NULL, NULL);
	for (i = 0; i < run->v.nb_ports; i++)
		pcc_engine_port_clock_register(run->ports[i].port_id, NULL, NULL);
	pcc_sim_destroy(run->sim);
	simrun_plan_free(&run->plan);
	free(run->flows);
	free(run);
}
