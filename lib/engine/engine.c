/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Engine lifecycle: create, start, stop, destroy (checks: engine_conf.c). */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "engine_internal.h"
#include "engine_np.h"

RTE_LOG_REGISTER(pcc_engine_logtype, pcc.engine, INFO);

/* Engines created in this process (names of their objects). */
static uint32_t engine_seq;

static int
copy_conf(struct pcc_engine *e, const struct pcc_engine_conf *conf)
{
	const struct pcc_engine_gen_conf *g = &conf->gen;
	uint32_t i;

	e->conf = *conf;
	e->rxq_conf = rte_malloc(
			"pcc_rxq_conf", sizeof(*e->rxq_conf) * RTE_MAX(conf->nb_rxq_conf, 1u), 0);
	if (e->rxq_conf == NULL)
		return -ENOMEM;
	memcpy(e->rxq_conf, conf->rxq, sizeof(*e->rxq_conf) * conf->nb_rxq_conf);
	e->conf.rxq = e->rxq_conf;
	if (g->nb_groups > 0) {
		e->gen_groups = rte_malloc(
				"pcc_gen_groups", sizeof(*e->gen_groups) * g->nb_groups, 0);
		if (e->gen_groups == NULL)
			return -ENOMEM;
		memcpy(e->gen_groups, g->groups, sizeof(*e->gen_groups) * g->nb_groups);
		e->conf.gen.groups = e->gen_groups;
	}
	/* parameters are applied during create only: keep the caller's
	 * strings for that time, not beyond */
	e->algo_params = (struct pcc_engine_algo_param *)(uintptr_t)conf->rp.params;
	e->conf.rp.params = NULL;
	if (conf->rp.algo != NULL)
		snprintf(e->algo, sizeof(e->algo), "%s", conf->rp.algo);
	e->conf.rp.algo = NULL;
	for (i = 0; i < PCC_ENGINE_SLOTS; i++) {
		const struct pcc_engine_slot_conf *sc = &conf->rp.slots[i];

		if (sc->algo != NULL)
			snprintf(e->slot_algo[i], sizeof(e->slot_algo[i]), "%s", sc->algo);
		e->slot_conf[i] = *sc;
		e->slot_conf[i].algo = e->slot_algo[i];
		memset(&e->conf.rp.slots[i], 0, sizeof(e->conf.rp.slots[i]));
	}
	snprintf(e->pacer, sizeof(e->pacer), "%s",
			conf->rp.pacer != NULL && conf->rp.pacer[0] != '\0' ? conf->rp.pacer :
									      "wheel");
	e->conf.rp.pacer = NULL;
	e->rp.tx_stamp = conf->rp.tx_stamp;
	e->rp.txc_bytes = conf->rp.tx_coalesce_bytes;
	e->rp.txc_ns = (uint64_t)conf->rp.tx_coalesce_us * 1000u;
	e->rp.timer_ns = (uint64_t)conf->rp.timer_us * 1000u;
	e->rp.pace_ahead_ns = conf->rp.pace_ahead_ns != 0 ? conf->rp.pace_ahead_ns :
							    ENG_PACE_AHEAD_DEFAULT_NS;
	for (i = 0; i < RTE_MAX_ETHPORTS; i++)
		e->pidx[i] = -1;
	e->fwd_a = -1;
	e->fwd_b = -1;
	return 0;
}

/* Mbufs generator flows may hold in their pacer queues (bounded). */
#define GEN_QUEUED_TOTAL 65536u

static void
gen_plan(struct pcc_engine *e, unsigned int nb_rp)
{
	const struct pcc_engine_gen_conf *g = &e->conf.gen;
	uint32_t qmax = e->conf.rp.pacer_queue != 0 ? e->conf.rp.pacer_queue : 64;
	uint64_t n = (uint64_t)g->nb_flows * nb_rp;
	uint32_t i;

	for (i = 0; i < g->nb_groups; i++)
		n += (uint64_t)g->groups[i].count * (g->groups[i].port_id >= 0 ? 1 : nb_rp);
	e->gen_planned = (uint32_t)RTE_MIN(n, (uint64_t)PCC_ENGINE_GEN_FLOWS_TOTAL_MAX);
	e->gen_max_queued = (uint16_t)RTE_MAX(
			RTE_MIN(qmax, GEN_QUEUED_TOTAL / RTE_MAX(e->gen_planned, 1u)), 2u);
}

struct pcc_engine *
pcc_engine_create(const struct pcc_engine_conf *conf)
{
	struct pcc_engine *e;
	uint16_t pid, k;
	int ret, len;
	uint32_t gi;
	uint8_t nb_dev = 0;

	if (conf == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	ret = eng_conf_check(conf);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	e = rte_zmalloc("pcc_engine", sizeof(*e), RTE_CACHE_LINE_SIZE);
	if (e == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	/* names of rings, hashes and pools are unique per engine */
	e->id = __atomic_fetch_add(&engine_seq, 1, __ATOMIC_RELAXED);
	ret = copy_conf(e, conf);
	if (ret < 0)
		goto fail;
	pcc_parse_opts_default(&e->popts);
	e->tsc_hz = rte_get_tsc_hz();
	if (pcc_proto_crc_init() == 0)
		ENG_LOG(INFO, "ICRC: zlib (no vector CRC on this CPU/EAL)");

	if (conf->gen.nb_flows > 0 || conf->gen.nb_groups > 0) {
		len = eng_gen_frame_len(&conf->gen, conf->gen.payload_len, false);
		for (gi = 0; gi < conf->gen.nb_groups && len >= 0; gi++) {
			const struct pcc_engine_gen_group *gr = &conf->gen.groups[gi];
			int l = eng_gen_frame_len(&conf->gen,
					gr->payload_len != 0 ? gr->payload_len :
							       conf->gen.payload_len,
					gr->int_hdr);

			len = l < 0 ? l : RTE_MAX(len, l);
		}
		if (len < 0) {
			ENG_LOG(ERR, "cannot build generator packets: %s", pcc_proto_strerror(len));
			ret = -EINVAL;
			goto fail;
		}
		e->gen_frame_len = (uint32_t)len;
	}

	for (pid = 0; pid < RTE_MAX_ETHPORTS; pid++) {
		struct eng_port *p;

		if (conf->port[pid].roles == 0)
			continue;
		p = &e->ports[e->nb_ports];
		e->pidx[pid] = (int16_t)e->nb_ports++;
		p->port_id = pid;
		p->roles = conf->port[pid].roles;
		p->icrc_hw = conf->port[pid].icrc_hw;
		p->nb_rxq = conf->nb_rxq;
		p->fwd_peer = 0xFFFF;
		p->dev_port = ENG_NO_DEV_PORT;
		if ((p->roles & PCC_ENGINE_ROLE_RP) && conf->port[pid].dev_port_set) {
			p->dev_port = conf->port[pid].dev_port;
			nb_dev = (uint8_t)RTE_MAX(nb_dev, p->dev_port + 1u);
		} else if (p->roles & PCC_ENGINE_ROLE_RP) {
			p->dev_port = nb_dev++;
		}
		p->nb_txq = conf->nb_txq != 0 ?
				conf->nb_txq :
				(uint16_t)RTE_MAX(pcc_engine_txq_needed(conf, pid), 1u);
		/* a port's own probe formats and NP settings, else the engine's */
		memcpy(p->probe,
				conf->port[pid].probe != NULL ? conf->port[pid].probe : conf->probe,
				sizeof(p->probe));
		p->np = conf->port[pid].np != NULL ? *conf->port[pid].np : conf->np;
		e->conf.port[pid].probe = NULL;
		e->conf.port[pid].np = NULL;
	}
	e->nb_dev_ports = nb_dev;
	gen_plan(e, nb_dev);
	if (conf->fwd.enabled) {
		e->fwd_a = e->pidx[conf->fwd.port_a];
		e->fwd_b = e->pidx[conf->fwd.port_b];
		e->ports[e->fwd_a].fwd_peer = (uint16_t)e->fwd_b;
		e->ports[e->fwd_b].fwd_peer = (uint16_t)e->fwd_a;
	}

	ret = eng_mtag_register();
	if (ret == 0 && conf->rp.tx_stamp)
		ret = eng_depart_register();
	if (ret < 0)
		goto fail;
	ret = eng_ports_setup(e);
	if (ret < 0)
		goto fail;
	ret = eng_lcores_setup(e);
	if (ret < 0)
		goto fail;
	ret = eng_steer_setup(e);
	if (ret < 0)
		goto fail;
	ret = eng_rp_setup(e);
	if (ret < 0)
		goto fail;
	for (k = 0; k < e->nb_lcores; k++) {
		struct eng_lcore *lc = e->by_rank[k];
		uint16_t i;

		for (i = 0; i < lc->nb_lports; i++) {
			if (lc->lports[i]->roles & PCC_ENGINE_ROLE_RP) {
				e->nb_flow_lcores++;
				break;
			}
		}
	}
	for (k = 0; k < e->nb_lcores; k++) {
		ret = eng_lcore_flows_setup(e, e->by_rank[k]);
		if (ret < 0)
			goto fail;
	}
	ret = eng_rings_setup(e);
	if (ret < 0)
		goto fail;
	ret = eng_gen_setup(e);
	if (ret < 0)
		goto fail;
	ret = eng_np_init(e);
	if (ret < 0)
		goto fail;
	ret = eng_ctl_init(e);
	if (ret < 0)
		goto fail;
	e->algo_params = NULL;
	for (gi = 0; gi < PCC_ENGINE_SLOTS; gi++) {
		e->slot_conf[gi].params = NULL;
		e->slot_conf[gi].nb_params = 0;
	}
	return e;
fail:
	e->algo_params = NULL;
	pcc_engine_destroy(e);
	rte_errno = ret < 0 ? -ret : EINVAL;
	return NULL;
}

int
pcc_engine_start(struct pcc_engine *e)
{
	unsigned int l;
	int ret;

	if (e == NULL || e->launched)
		return -EINVAL;
	__atomic_store_n(&e->stop, 0, __ATOMIC_RELEASE);
	eng_rp_log_slots(e);
	eng_rp_port_info_start(e);
	for (l = 0; l < e->nb_lcores; l++)
		e->by_rank[l]->loop_started = false;
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		/* the main lcore's share runs in pcc_engine_main_loop() */
		if (e->lcores[l] == NULL || l == rte_get_main_lcore())
			continue;
		ret = rte_eal_remote_launch(eng_worker_main, e->lcores[l], l);
		if (ret < 0) {
			ENG_LOG(ERR, "cannot launch lcore %u: %s", l, rte_strerror(-ret));
			pcc_engine_stop(e);
			rte_eal_mp_wait_lcore();
			return ret;
		}
	}
	e->launched = true;
	return 0;
}

int
pcc_engine_main_loop(struct pcc_engine *e, pcc_engine_tick_t tick, void *arg, uint32_t tick_us)
{
	struct eng_lcore *lc = e->lcores[rte_get_main_lcore()];

	if (lc != NULL)
		return eng_worker_loop(lc, tick, arg, tick_us);
	while (!__atomic_load_n(&e->stop, __ATOMIC_RELAXED)) {
		int r = tick != NULL ? tick(arg) : 0;

		if (r < 0)
			break;
		if (r > 0) {
			pcc_engine_stop(e);
			break;
		}
		rte_delay_us_sleep(tick_us);
	}
	return 0;
}

int
pcc_engine_port_pause(struct pcc_engine *e, uint16_t port_id, bool pause)
{
	if (e == NULL || port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return -ENOENT;
	__atomic_store_n(&e->ports[e->pidx[port_id]].paused, pause ? 1 : 0, __ATOMIC_RELEASE);
	return 0;
}

int
pcc_engine_port_paused(const struct pcc_engine *e, uint16_t port_id)
{
	if (e == NULL || port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return -ENOENT;
	return eng_port_paused(e, (uint16_t)e->pidx[port_id]) ? 1 : 0;
}

int
pcc_engine_hold(struct pcc_engine *e, bool hold)
{
	if (e == NULL)
		return -EINVAL;
	__atomic_store_n(&e->held, hold ? 1 : 0, __ATOMIC_RELEASE);
	return 0;
}

int
pcc_engine_port_skip(struct pcc_engine *e, bool on)
{
	if (e == NULL)
		return -EINVAL;
	__atomic_store_n(&e->no_port_skip, !on, __ATOMIC_RELAXED);
	return 0;
}

int
pcc_engine_set_hooks(struct pcc_engine *e, const struct pcc_engine_hooks *hooks)
{
	if (e == NULL)
		return -EINVAL;
	if (e->launched)
		return -EBUSY;
	if (hooks == NULL)
		memset(&e->hooks, 0, sizeof(e->hooks));
	else
		e->hooks = *hooks;
	return 0;
}

int
pcc_engine_set_poll_hook(struct pcc_engine *e, pcc_engine_poll_hook_t fn, void *arg)
{
	struct eng_lcore *lc;

	if (e == NULL)
		return -EINVAL;
	if (e->launched)
		return -EBUSY;
	if (e->nb_lcores != 1) {
		ENG_LOG(ERR, "a poll hook needs an engine polled by one lcore (%u poll)",
				e->nb_lcores);
		return -ENOTSUP;
	}
	lc = e->by_rank[0];
	lc->hook_arg = fn != NULL ? arg : NULL;
	lc->hook = fn;
	return 0;
}

void
pcc_engine_stop(struct pcc_engine *e)
{
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELEASE);
}

bool
pcc_engine_stopping(const struct pcc_engine *e)
{
	return e == NULL || __atomic_load_n(&e->stop, __ATOMIC_ACQUIRE) != 0;
}

void
pcc_engine_wait(struct pcc_engine *e)
{
	if (e == NULL || !e->launched)
		return;
	rte_eal_mp_wait_lcore();
	e->launched = false;
}

void
pcc_engine_destroy(struct pcc_engine *e)
{
	unsigned int l;

	if (e == NULL)
		return;
	pcc_engine_stop(e);
	pcc_engine_wait(e);
	eng_np_fini(e);
	eng_gen_teardown(e);
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		if (e->lcores[l] == NULL)
			continue;
		eng_ctl_fini(e->lcores[l]);
		eng_lcore_free(e->lcores[l]);
		e->lcores[l] = NULL;
	}
	eng_rp_teardown(e);
	eng_ports_close(e);
	rte_free(e->gen_groups);
	rte_free(e->rxq_conf);
	rte_free(e);
}

const struct pcc_engine_conf *
pcc_engine_conf_get(const struct pcc_engine *e)
{
	return e != NULL ? &e->conf : NULL;
}

const char *
pcc_engine_pacer_name(const struct pcc_engine *e)
{
	return e != NULL ? e->pacer : "";
}

int
pcc_engine_lcore_rank(const struct pcc_engine *e, unsigned int lcore_id)
{
	if (e == NULL || lcore_id >= RTE_MAX_LCORE || e->lcores[lcore_id] == NULL)
		return -ENOENT;
	return e->lcores[lcore_id]->rank;
}

int
pcc_engine_lcore_polls_port(const struct pcc_engine *e, unsigned int lcore_id, uint16_t port_id)
{
	const struct eng_lcore *lc;
	uint32_t i;

	if (e == NULL || lcore_id >= RTE_MAX_LCORE || e->lcores[lcore_id] == NULL)
		return -ENOENT;
	lc = e->lcores[lcore_id];
	for (i = 0; i < lc->nb_rxq; i++)
		if (lc->rxq[i].port_id == port_id)
			return 1;
	return 0;
}

int
pcc_engine_tx_queue(const struct pcc_engine *e, uint16_t port_id, unsigned int lcore_id)
{
	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return -ENOENT;
	return eng_txq_rank(&e->conf, port_id, lcore_id);
}

int
pcc_engine_port_nb_txq(const struct pcc_engine *e, uint16_t port_id)
{
	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return -ENOENT;
	return e->ports[e->pidx[port_id]].nb_txq;
}

uint8_t
pcc_engine_port_roles(const struct pcc_engine *e, uint16_t port_id)
{
	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return 0;
	return e->ports[e->pidx[port_id]].roles;
}

int
pcc_engine_port_clock_src(const struct pcc_engine *e, uint16_t port_id)
{
	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return -ENOENT;
	return e->ports[e->pidx[port_id]].clk.src;
}

uint64_t
pcc_engine_port_now(const struct pcc_engine *e, uint16_t port_id)
{
	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return 0;
	return eng_clock_now(&e->ports[e->pidx[port_id]].clk);
}

uint64_t
pcc_engine_port_line_rate(const struct pcc_engine *e, uint16_t port_id)
{
	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return 0;
	return e->ports[e->pidx[port_id]].line_bps;
}
