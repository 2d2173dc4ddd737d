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

/* ---- Lcores -------------------------------------------------------------- */

static struct eng_lcore *
lcore_get(struct pcc_engine *e, unsigned int l)
{
	struct eng_lcore *lc = e->lcores[l];
	int socket = (int)rte_lcore_to_socket_id(l);
	unsigned int p;

	if (lc != NULL)
		return lc;
	lc = rte_zmalloc_socket("pcc_lcore", sizeof(*lc), RTE_CACHE_LINE_SIZE, socket);
	if (lc == NULL)
		return NULL;
	e->lcores[l] = lc;
	lc->e = e;
	lc->lcore_id = l;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		lc->lport_of[p] = ENG_NO_LPORT;
	lc->pctr = rte_zmalloc_socket("pcc_lcore_ctr", sizeof(*lc->pctr) * e->nb_ports,
			RTE_CACHE_LINE_SIZE, socket);
	if (lc->pctr == NULL)
		return NULL;
	return lc;
}

/* lc's lport for port index pidx, created if needed. */
static struct eng_lport *
lport_get(struct pcc_engine *e, struct eng_lcore *lc, uint16_t pidx)
{
	struct eng_port *p = &e->ports[pidx];
	struct eng_lport *lp;
	int txq;

	if (lc->lport_of[pidx] != ENG_NO_LPORT)
		return lc->lports[lc->lport_of[pidx]];
	txq = eng_txq_rank(&e->conf, p->port_id, lc->lcore_id);
	if (txq < 0)
		return NULL;
	lp = rte_zmalloc_socket("pcc_lport", sizeof(*lp), RTE_CACHE_LINE_SIZE,
			(int)rte_lcore_to_socket_id(lc->lcore_id));
	if (lp == NULL)
		return NULL;
	lp->port_id = p->port_id;
	lp->pidx = pidx;
	lp->tx_queue = (uint16_t)txq;
	lp->idx = lc->nb_lports;
	lp->roles = p->roles;
	lp->dev_port = p->dev_port;
	lp->clk = &p->clk;
	lp->mp = p->mp;
	lp->line_bps = p->line_bps;
	lc->lport_of[pidx] = (uint8_t)lc->nb_lports;
	lc->lports[lc->nb_lports++] = lp;
	return lp;
}

/* Lcore contexts, their RX queues and lports; owners of each port. */
static int
lcores_setup(struct pcc_engine *e)
{
	const struct pcc_engine_conf *c = &e->conf;
	unsigned int l;
	uint32_t i;
	uint16_t k;

	for (i = 0; i < c->nb_rxq_conf; i++) {
		const struct pcc_engine_rxq_conf *rq = &c->rxq[i];
		uint16_t pidx = (uint16_t)e->pidx[rq->port_id];
		struct eng_port *p = &e->ports[pidx];
		struct eng_lcore *lc = lcore_get(e, rq->lcore_id);
		struct eng_lport *lp;
		struct eng_rxq *q;

		if (lc == NULL)
			return -ENOMEM;
		if (lc->nb_rxq >= PCC_ENGINE_LCORE_RXQ_MAX) {
			ENG_LOG(ERR, "lcore %u polls more than %u RX queues", rq->lcore_id,
					PCC_ENGINE_LCORE_RXQ_MAX);
			return -EINVAL;
		}
		lp = lport_get(e, lc, pidx);
		if (lp == NULL)
			return -ENOMEM;
		q = &lc->rxq[lc->nb_rxq++];
		q->port_id = rq->port_id;
		q->queue_id = rq->queue_id;
		q->tx_queue = lp->tx_queue;
		q->pidx = pidx;
		q->roles = p->roles;
		q->icrc_sw = !p->icrc_hw;
		q->mp = p->mp;
		q->clk = &p->clk;
		q->lp = lp;
		if (lp->rxq == NULL)
			lp->rxq = q;
		ENG_LOG(INFO, "lcore %u polls port %u RX queue %u, transmits on TX queue %u",
				rq->lcore_id, q->port_id, q->queue_id, q->tx_queue);
	}
	/* ranks, owners */
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		struct eng_lcore *lc = e->lcores[l];

		if (lc == NULL)
			continue;
		lc->rank = e->nb_lcores;
		e->by_rank[e->nb_lcores++] = lc;
		for (i = 0; i < lc->nb_rxq; i++) {
			struct eng_port *p = &e->ports[lc->rxq[i].pidx];

			if (p->nb_owners == 0 || p->owners[p->nb_owners - 1] != lc)
				p->owners[p->nb_owners++] = lc;
		}
	}
	/* forward mode: the wire side's pollers transmit on the host side */
	if (e->fwd_a >= 0) {
		for (k = 0; k < e->nb_lcores; k++) {
			struct eng_lcore *lc = e->by_rank[k];

			if (lc->lport_of[e->fwd_b] != ENG_NO_LPORT &&
					lport_get(e, lc, (uint16_t)e->fwd_a) == NULL)
				return -ENOMEM;
		}
	}
	return 0;
}

/* Bytes allocated from the socket's heap (rte_malloc). */
static uint64_t
heap_bytes(int socket)
{
	struct rte_malloc_socket_stats st;

	if (socket < 0 || rte_malloc_get_socket_stats(socket, &st) != 0)
		return 0;
	return st.heap_allocsz_bytes;
}

/* Flow table, pacers of RP lports, forward-mode probe headers. */
static int
lcore_flows_setup(struct pcc_engine *e, struct eng_lcore *lc)
{
	const struct pcc_engine_conf *c = &e->conf;
	int socket = (int)rte_lcore_to_socket_id(lc->lcore_id);
	uint32_t cap = c->flow.capacity != 0 ? c->flow.capacity : PCC_ENGINE_FLOWS_DEFAULT;
	struct eng_ftable_conf fc;
	char name[RTE_HASH_NAMESIZE];
	uint64_t mask = 0, heap_used;
	uint16_t i;
	int ret;

	for (i = 0; i < lc->nb_lports; i++)
		if (lc->lports[i]->roles & PCC_ENGINE_ROLE_RP)
			mask |= UINT64_C(1) << i;
	memset(&fc, 0, sizeof(fc));
	snprintf(name, sizeof(name), "pcc_fl%u_%u", e->id, lc->lcore_id);
	fc.name = name;
	/* the capacity is shared by the lcores that own flows (poll an RP
	 * port); the others get the smallest table */
	fc.cap = mask != 0 ? RTE_MAX(cap / RTE_MAX(e->nb_flow_lcores, 1u),
					     (uint32_t)PCC_ENGINE_FLOWS_LCORE_MIN) :
			     PCC_ENGINE_FLOWS_LCORE_MIN;
	fc.ctx_size = e->ctx_size;
	fc.full = c->flow.full;
	fc.idle_ns = (uint64_t)c->flow.idle_ms * 1000000u;
	fc.nb_lists = lc->nb_lports;
	fc.list_mask = mask;
	fc.timer_fifo = e->rp.timer_ns != 0;
	fc.socket = socket;
	heap_used = heap_bytes(socket);
	ret = eng_ftable_init(&lc->ft, &fc);
	if (ret < 0)
		return ret;
	heap_used = heap_bytes(socket) - heap_used;
	ENG_LOG(INFO,
			"lcore %u: flow table of %u flows, %u bytes per entry (%u of algorithm "
			"context): %.1f MiB with the hash, QP index and event queues",
			lc->lcore_id, lc->ft.cap, lc->ft.stride, lc->ft.stride - ENG_FLOW_HDR,
			(double)heap_used / (1 << 20));
	for (i = 0; i < lc->nb_lports; i++) {
		struct eng_lport *lp = lc->lports[i];
		struct pcc_pacer_conf pc;

		if (!(lp->roles & PCC_ENGINE_ROLE_RP))
			continue;
		memset(&pc, 0, sizeof(pc));
		pc.backend = e->pacer;
		pc.port_id = lp->port_id;
		pc.queue_id = lp->tx_queue;
		pc.socket_id = socket;
		pc.max_flows = lc->ft.cap;
		pc.line_rate_bps = lp->line_bps;
		pc.max_queued = c->rp.pacer_queue;
		pc.horizon_ns = ENG_PACER_HORIZON_NS;
		if (c->rp.tx_stamp) {
			/* the departure the pacer computed, exactly: the engine's
			 * own estimate (pace_ns) only bounds the look-ahead */
			pc.depart_off = eng_depart_off;
			pc.depart_flag = eng_depart_flag;
		}
		lp->pacer = pcc_pacer_create(&pc);
		if (lp->pacer == NULL) {
			ENG_LOG(ERR, "lcore %u port %u: pacer %s: %s", lc->lcore_id, lp->port_id,
					e->pacer, rte_strerror(rte_errno));
			return -rte_errno;
		}
		ENG_LOG(INFO, "lcore %u port %u: pacer %s, %zu bytes per flow, %.1f MiB",
				lc->lcore_id, lp->port_id, pcc_pacer_backend(lp->pacer),
				pcc_pacer_mem_per_flow(lp->pacer),
				(double)pcc_pacer_mem_total(lp->pacer) / (1 << 20));
		if (e->fwd_b == (int16_t)lp->pidx) {
			lc->fwd_l3 = rte_zmalloc_socket("pcc_fwd_l3",
					sizeof(*lc->fwd_l3) * lc->ft.cap, RTE_CACHE_LINE_SIZE,
					socket);
			if (lc->fwd_l3 == NULL)
				return -ENOMEM;
		}
	}
	return 0;
}

/* Does producer a hand anything to consumer b (a shares a port b owns)? */
static bool
lcores_talk(const struct pcc_engine *e, const struct eng_lcore *a, const struct eng_lcore *b)
{
	uint32_t i;
	uint16_t o;

	for (i = 0; i < a->nb_rxq; i++) {
		uint16_t pidx = a->rxq[i].pidx;
		const struct eng_port *p;

		/* forward mode: host-side packets go to the wire side's owners */
		if (e->fwd_a == (int16_t)pidx)
			pidx = (uint16_t)e->fwd_b;
		p = &e->ports[pidx];
		if (!(p->roles & PCC_ENGINE_ROLE_RP))
			continue;
		for (o = 0; o < p->nb_owners; o++)
			if (p->owners[o] == b)
				return true;
	}
	return false;
}

/* Fastest port whose packets producer a hands over (ring sizes). */
static uint64_t
xring_bps(const struct pcc_engine *e, const struct eng_lcore *a)
{
	uint64_t bps = 0;
	uint32_t i;

	for (i = 0; i < a->nb_rxq; i++)
		bps = RTE_MAX(bps, e->ports[a->rxq[i].pidx].line_bps);
	return bps;
}

static int
rings_setup(struct pcc_engine *e)
{
	uint32_t size;
	uint16_t a, b;

	for (a = 0; a < e->nb_lcores; a++) {
		for (b = 0; b < e->nb_lcores; b++) {
			struct eng_lcore *pa = e->by_rank[a], *pb = e->by_rank[b];
			char name[RTE_RING_NAMESIZE];
			int socket = (int)rte_lcore_to_socket_id(pb->lcore_id);
			struct rte_ring *r;

			if (a == b || !lcores_talk(e, pa, pb))
				continue;
			size = eng_xring_size(xring_bps(e, pa), e->conf.burst);
			snprintf(name, sizeof(name), "pcc_ev%u_%u_%u", e->id, pa->lcore_id,
					pb->lcore_id);
			r = rte_ring_create_elem(name, sizeof(struct eng_ev), size, socket,
					RING_F_SP_ENQ | RING_F_SC_DEQ);
			if (r == NULL) {
				ENG_LOG(ERR, "ring %s: %s", name, rte_strerror(rte_errno));
				return -rte_errno;
			}
			pa->xout[b] = r;
			pa->xout_rank[pa->nb_xout++] = b;
			pb->xin[a] = r;
			pb->xin_rank[pb->nb_xin++] = a;
			if (e->fwd_a < 0)
				continue;
			snprintf(name, sizeof(name), "pcc_fw%u_%u_%u", e->id, pa->lcore_id,
					pb->lcore_id);
			r = rte_ring_create(name, size, socket, RING_F_SP_ENQ | RING_F_SC_DEQ);
			if (r == NULL) {
				ENG_LOG(ERR, "ring %s: %s", name, rte_strerror(rte_errno));
				return -rte_errno;
			}
			pa->fout[b] = r;
			pb->fin[a] = r;
		}
	}
	return 0;
}

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
	ret = lcores_setup(e);
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
		ret = lcore_flows_setup(e, e->by_rank[k]);
		if (ret < 0)
			goto fail;
	}
	ret = rings_setup(e);
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

/* A flow of a table going away ends for its algorithm (active flows). */
static void
flow_gone(struct eng_flow *f, uint32_t idx, void *arg)
{
	RTE_SET_USED(idx);
	RTE_SET_USED(arg);
	pcc_dev_flow_end(f->dev_port, f->slot, eng_flow_ctx(f));
}

static void
lcore_free(struct eng_lcore *lc)
{
	unsigned int k;
	uint16_t i;

	eng_flow_foreach(&lc->ft, flow_gone, NULL);

	for (i = 0; i < lc->nb_lports; i++) {
		struct eng_lport *lp = lc->lports[i];

		if (lp->txb_n > 0)
			rte_pktmbuf_free_bulk(lp->txb, lp->txb_n);
		if (lp->pacer != NULL) {
			struct pcc_pacer_stats ps;

			pcc_pacer_stats_get(lp->pacer, &ps);
			ENG_LOG(INFO,
					"lcore %u port %u: pacer %s: %" PRIu64 " enqueued, %" PRIu64
					" dequeued, %" PRIu64 " bypassed the wheel, %" PRIu64
					" dropped, worst lateness %.1f us",
					lc->lcore_id, lp->port_id, pcc_pacer_backend(lp->pacer),
					ps.enqueued, ps.dequeued, ps.bypassed, ps.dropped,
					(double)ps.late_ns_max / 1e3);
		}
		pcc_pacer_free(lp->pacer);
		rte_free(lp);
	}
	for (k = 0; k < RTE_MAX_LCORE; k++) {
		struct rte_mbuf *m;

		/* each ring is freed once, by its consumer */
		rte_ring_free(lc->xin[k]);
		if (lc->fin[k] != NULL) {
			while (rte_ring_sc_dequeue(lc->fin[k], (void **)&m) == 0)
				rte_pktmbuf_free(m);
			rte_ring_free(lc->fin[k]);
		}
	}
	eng_ftable_fini(&lc->ft);
	rte_free(lc->fwd_l3);
	rte_free(lc->pctr);
	rte_free(lc);
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
		lcore_free(e->lcores[l]);
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
