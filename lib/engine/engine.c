/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Engine lifecycle: configuration checks, create, start, stop, destroy. */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "engine_internal.h"

RTE_LOG_REGISTER(pcc_engine_logtype, pcc.engine, INFO);

#define LCORE_SET_WORDS ((RTE_MAX_LCORE + 63) / 64)

void
pcc_engine_conf_default(struct pcc_engine_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->nb_rxq = 1;
	conf->nb_txq = 0;
	conf->nb_rxd = 1024;
	conf->nb_txd = 1024;
	conf->burst = 32;
	conf->gen.qpn_base = 0x100;
	conf->gen.payload_len = 1024;
	conf->gen.rate_mbps = 1000;
	conf->gen.dscp = 26;
	conf->gen.src_ip.v4 = RTE_IPV4(10, 0, 0, 1);
	conf->gen.dst_ip.v4 = RTE_IPV4(10, 0, 0, 2);
	conf->np.cnp = true;
	conf->np.cnp_dscp = 48;
}

/* Set of lcores polling a queue of port_id; returns how many. */
static unsigned int
port_lcores(const struct pcc_engine_rxq_conf *rxq, uint32_t nb, uint16_t port_id,
		uint64_t set[LCORE_SET_WORDS])
{
	unsigned int count = 0;
	uint32_t i;

	memset(set, 0, sizeof(uint64_t) * LCORE_SET_WORDS);
	for (i = 0; i < nb; i++) {
		uint32_t l = rxq[i].lcore_id;

		if (rxq[i].port_id != port_id || l >= RTE_MAX_LCORE)
			continue;
		if (!(set[l / 64] & (UINT64_C(1) << (l % 64)))) {
			set[l / 64] |= UINT64_C(1) << (l % 64);
			count++;
		}
	}
	return count;
}

unsigned int
pcc_engine_txq_needed(const struct pcc_engine_conf *conf, uint16_t port_id)
{
	uint64_t set[LCORE_SET_WORDS];

	return port_lcores(conf->rxq, conf->nb_rxq_conf, port_id, set);
}

/* TX queue of lcore on port: rank of the lcore among those polling it. */
static int
txq_rank(const struct pcc_engine_conf *conf, uint16_t port_id, unsigned int lcore_id)
{
	uint64_t set[LCORE_SET_WORDS];
	unsigned int l;
	int rank = 0;

	port_lcores(conf->rxq, conf->nb_rxq_conf, port_id, set);
	if (lcore_id >= RTE_MAX_LCORE || !(set[lcore_id / 64] & (UINT64_C(1) << (lcore_id % 64))))
		return -ENOENT;
	for (l = 0; l < lcore_id; l++)
		if (set[l / 64] & (UINT64_C(1) << (l % 64)))
			rank++;
	return rank;
}

static int
conf_check_gen(const struct pcc_engine_conf *c, unsigned int nb_rp)
{
	const struct pcc_engine_gen_conf *g = &c->gen;

	if (g->nb_flows == 0)
		return 0;
	if (g->nb_flows > PCC_ENGINE_GEN_FLOWS_MAX) {
		ENG_LOG(ERR, "%u generator flows, at most %u", g->nb_flows,
				PCC_ENGINE_GEN_FLOWS_MAX);
		return -EINVAL;
	}
	if (nb_rp == 0) {
		ENG_LOG(ERR, "the generator needs an RP port");
		return -EINVAL;
	}
	if (g->qpn_base < 2 || g->qpn_base + (uint64_t)g->nb_flows - 1 > PCC_QPN_MASK) {
		ENG_LOG(ERR, "generator QPNs %u..%u outside 2..%u", g->qpn_base,
				g->qpn_base + g->nb_flows - 1, PCC_QPN_MASK);
		return -EINVAL;
	}
	if (g->payload_len > PCC_ENGINE_GEN_PAYLOAD_MAX || g->dscp > 63 || g->ce_ppm > 1000000) {
		ENG_LOG(ERR, "generator payload %u (max %u), DSCP %u or CE %u ppm out of range",
				g->payload_len, PCC_ENGINE_GEN_PAYLOAD_MAX, g->dscp, g->ce_ppm);
		return -EINVAL;
	}
	return 0;
}

static int
conf_check(const struct pcc_engine_conf *c)
{
	unsigned int nb_rp = 0, nb_ports = 0;
	uint32_t i, j;
	uint16_t pid;

	if (c->burst == 0 || c->burst > PCC_ENGINE_BURST_MAX) {
		ENG_LOG(ERR, "burst %u outside 1..%u", c->burst, PCC_ENGINE_BURST_MAX);
		return -EINVAL;
	}
	if (c->nb_rxq == 0 || c->nb_rxd == 0 || c->nb_txd == 0) {
		ENG_LOG(ERR, "RX queues and descriptor counts must be > 0");
		return -EINVAL;
	}
	if (c->np.cnp_dscp > 63 || c->np.sqpn_offset > PCC_QPN_MASK) {
		ENG_LOG(ERR, "CNP DSCP %u or sender QPN offset %u out of range", c->np.cnp_dscp,
				c->np.sqpn_offset);
		return -EINVAL;
	}
	for (i = 0; i < c->nb_rxq_conf; i++) {
		const struct pcc_engine_rxq_conf *q = &c->rxq[i];

		if (q->port_id >= RTE_MAX_ETHPORTS || c->port[q->port_id].roles == 0) {
			ENG_LOG(ERR, "(%u,%u,%u): port %u has no role", q->port_id, q->queue_id,
					q->lcore_id, q->port_id);
			return -EINVAL;
		}
		if (q->queue_id >= c->nb_rxq) {
			ENG_LOG(ERR, "(%u,%u,%u): RX queue %u, ports have %u", q->port_id,
					q->queue_id, q->lcore_id, q->queue_id, c->nb_rxq);
			return -EINVAL;
		}
		if (q->lcore_id >= RTE_MAX_LCORE || !rte_lcore_is_enabled(q->lcore_id)) {
			ENG_LOG(ERR, "(%u,%u,%u): lcore %u is not enabled", q->port_id, q->queue_id,
					q->lcore_id, q->lcore_id);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (c->rxq[j].port_id == q->port_id && c->rxq[j].queue_id == q->queue_id) {
				ENG_LOG(ERR, "port %u RX queue %u is polled twice", q->port_id,
						q->queue_id);
				return -EINVAL;
			}
		}
	}
	for (pid = 0; pid < RTE_MAX_ETHPORTS; pid++) {
		unsigned int need;
		bool polled = false;

		if (c->port[pid].roles == 0)
			continue;
		if (!rte_eth_dev_is_valid_port(pid)) {
			ENG_LOG(ERR, "port %u does not exist", pid);
			return -EINVAL;
		}
		nb_ports++;
		if (c->port[pid].roles & PCC_ENGINE_ROLE_RP)
			nb_rp++;
		for (i = 0; i < c->nb_rxq_conf; i++)
			if (c->rxq[i].port_id == pid && c->rxq[i].queue_id == 0)
				polled = true;
		if (!polled) {
			ENG_LOG(ERR, "port %u has a role but no lcore polls its RX queue 0", pid);
			return -EINVAL;
		}
		need = pcc_engine_txq_needed(c, pid);
		if (c->nb_txq != 0 && c->nb_txq < need) {
			ENG_LOG(ERR,
					"port %u is polled by %u lcores, each needs a TX queue of "
					"its own, but only %u TX queues are configured",
					pid, need, c->nb_txq);
			return -EINVAL;
		}
	}
	if (nb_ports == 0) {
		ENG_LOG(ERR, "no port has a role");
		return -EINVAL;
	}
	return conf_check_gen(c, nb_rp);
}

/* Allocate lcore contexts and their RX queue lists. */
static int
lcores_setup(struct pcc_engine *e)
{
	const struct pcc_engine_conf *c = &e->conf;
	uint32_t i;

	for (i = 0; i < c->nb_rxq_conf; i++) {
		const struct pcc_engine_rxq_conf *rq = &c->rxq[i];
		struct eng_port *p = &e->ports[e->pidx[rq->port_id]];
		unsigned int l = rq->lcore_id;
		int socket = (int)rte_lcore_to_socket_id(l);
		struct eng_lcore *lc = e->lcores[l];
		struct eng_rxq *q;

		if (lc == NULL) {
			lc = rte_zmalloc_socket(
					"pcc_lcore", sizeof(*lc), RTE_CACHE_LINE_SIZE, socket);
			if (lc == NULL)
				return -ENOMEM;
			e->lcores[l] = lc;
			lc->e = e;
			lc->lcore_id = l;
			lc->pctr = rte_zmalloc_socket("pcc_lcore_ctr",
					sizeof(*lc->pctr) * e->nb_ports, RTE_CACHE_LINE_SIZE,
					socket);
			if (lc->pctr == NULL)
				return -ENOMEM;
		}
		if (lc->nb_rxq >= PCC_ENGINE_LCORE_RXQ_MAX) {
			ENG_LOG(ERR, "lcore %u polls more than %u RX queues", l,
					PCC_ENGINE_LCORE_RXQ_MAX);
			return -EINVAL;
		}
		if (p->nb_flows > 0 && lc->fctr == NULL) {
			lc->fctr = rte_zmalloc_socket("pcc_flow_ctr",
					sizeof(*lc->fctr) * e->nb_flows, RTE_CACHE_LINE_SIZE,
					socket);
			if (lc->fctr == NULL)
				return -ENOMEM;
		}
		q = &lc->rxq[lc->nb_rxq++];
		q->port_id = rq->port_id;
		q->queue_id = rq->queue_id;
		q->tx_queue = (uint16_t)txq_rank(c, rq->port_id, l);
		q->pidx = (uint16_t)e->pidx[rq->port_id];
		q->roles = p->roles;
		q->mp = p->mp;
		if (rq->queue_id == 0 && p->nb_flows > 0) {
			q->gen = eng_gen_create(e, p, socket);
			if (q->gen == NULL)
				return -ENOMEM;
		}
		ENG_LOG(INFO, "lcore %u polls port %u RX queue %u, transmits on TX queue %u%s", l,
				q->port_id, q->queue_id, q->tx_queue,
				q->gen != NULL ? ", runs the generator" : "");
	}
	return 0;
}

struct pcc_engine *
pcc_engine_create(const struct pcc_engine_conf *conf)
{
	struct pcc_engine *e;
	uint16_t pid;
	int ret;

	if (conf == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	ret = conf_check(conf);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	e = rte_zmalloc("pcc_engine", sizeof(*e), RTE_CACHE_LINE_SIZE);
	if (e == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	e->conf = *conf;
	e->rxq_conf = rte_malloc(
			"pcc_rxq_conf", sizeof(*e->rxq_conf) * RTE_MAX(conf->nb_rxq_conf, 1u), 0);
	if (e->rxq_conf == NULL) {
		rte_free(e);
		rte_errno = ENOMEM;
		return NULL;
	}
	memcpy(e->rxq_conf, conf->rxq, sizeof(*e->rxq_conf) * conf->nb_rxq_conf);
	e->conf.rxq = e->rxq_conf;
	pcc_parse_opts_default(&e->popts);
	e->tsc_hz = rte_get_tsc_hz();

	if (conf->gen.nb_flows > 0) {
		ret = eng_gen_frame_len(&conf->gen);
		if (ret < 0) {
			ENG_LOG(ERR, "cannot build generator packets: %s", pcc_proto_strerror(ret));
			ret = -EINVAL;
			goto fail;
		}
		e->gen_frame_len = (uint32_t)ret;
	}

	for (pid = 0; pid < RTE_MAX_ETHPORTS; pid++) {
		struct eng_port *p;

		e->pidx[pid] = -1;
		if (conf->port[pid].roles == 0)
			continue;
		p = &e->ports[e->nb_ports];
		e->pidx[pid] = (int16_t)e->nb_ports++;
		p->port_id = pid;
		p->roles = conf->port[pid].roles;
		p->nb_rxq = conf->nb_rxq;
		p->nb_txq = conf->nb_txq != 0 ?
				conf->nb_txq :
				(uint16_t)RTE_MAX(pcc_engine_txq_needed(conf, pid), 1u);
		if ((p->roles & PCC_ENGINE_ROLE_RP) && conf->gen.nb_flows > 0) {
			p->flow_base = e->nb_flows;
			p->nb_flows = conf->gen.nb_flows;
			e->nb_flows += p->nb_flows;
		}
	}

	ret = eng_ports_setup(e);
	if (ret < 0)
		goto fail;
	ret = lcores_setup(e);
	if (ret < 0)
		goto fail;
	return e;
fail:
	pcc_engine_destroy(e);
	rte_errno = -ret;
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
		if (tick != NULL && tick(arg) != 0) {
			pcc_engine_stop(e);
			break;
		}
		rte_delay_us_sleep(tick_us);
	}
	return 0;
}

void
pcc_engine_stop(struct pcc_engine *e)
{
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELEASE);
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
	uint32_t i;

	if (e == NULL)
		return;
	pcc_engine_stop(e);
	pcc_engine_wait(e);
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		struct eng_lcore *lc = e->lcores[l];

		if (lc == NULL)
			continue;
		for (i = 0; i < lc->nb_rxq; i++)
			rte_free(lc->rxq[i].gen);
		rte_free(lc->fctr);
		rte_free(lc->pctr);
		rte_free(lc);
	}
	eng_ports_close(e);
	rte_free(e->rxq_conf);
	rte_free(e);
}

int
pcc_engine_tx_queue(const struct pcc_engine *e, uint16_t port_id, unsigned int lcore_id)
{
	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return -ENOENT;
	return txq_rank(&e->conf, port_id, lcore_id);
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
