/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The simulator object: engine ports (rte_eth_from_rings), pools, the step
 * function and its service, the flow map, the public getters.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_service_component.h>

#include "sim_internal.h"

RTE_LOG_REGISTER(pcc_sim_logtype, pcc.sim, INFO);

#define DRAIN_BURST 64
#define MBUF_ROOM_MIN 2048

/*
 * Object tables for rte_ring are uintptr_t arrays, not arrays of mbuf
 * pointers: the ring copies 8-byte elements as uint64_t, and with strict
 * aliasing a compiler may take stores of pointers and those loads for
 * independent (clang 14 dropped the stores of deliver()'s table: the
 * engine dequeued NULLs).  uintptr_t is the ring's own type on 64-bit.
 */
typedef uintptr_t sim_obj_t;

static uint32_t sim_instances;

/* ---- Flow map ------------------------------------------------------------------- */

static inline uint64_t
map_key(uint32_t tag, uint32_t host, uint32_t qpn)
{
	return ((uint64_t)tag << 56) | ((uint64_t)host << 24) | (qpn & PCC_QPN_MASK);
}

static inline uint32_t
map_slot(uint64_t k, uint32_t mask)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (uint32_t)k & mask;
}

uint32_t
sim_map_get(const struct pcc_sim *sim, uint32_t tag, uint32_t host, uint32_t qpn)
{
	uint64_t k = map_key(tag, host, qpn);
	uint32_t i = map_slot(k, sim->map_mask);

	while (sim->map_keys[i] != 0) {
		if (sim->map_keys[i] == k)
			return sim->map_vals[i];
		i = (i + 1) & sim->map_mask;
	}
	return SIM_NONE;
}

int
sim_map_put(struct pcc_sim *sim, uint32_t tag, uint32_t host, uint32_t qpn, uint32_t flow)
{
	uint64_t k = map_key(tag, host, qpn);
	uint32_t i = map_slot(k, sim->map_mask);

	while (sim->map_keys[i] != 0) {
		if (sim->map_keys[i] == k)
			return -EEXIST;
		i = (i + 1) & sim->map_mask;
	}
	sim->map_keys[i] = k;
	sim->map_vals[i] = flow;
	return 0;
}

/* ---- Create ------------------------------------------------------------------------ */

static int
flows_init(struct pcc_sim *sim)
{
	const struct pcc_sim_scenario *s = sim->scn;
	uint32_t i, cap = 16;
	bool infinite = false;

	sim->nb_flows = s->nb_flows;
	sim->flows = calloc(RTE_MAX(sim->nb_flows, 1u), sizeof(*sim->flows));
	/* three keys a flow, five when hosts share ports */
	while (cap < (s->res.hosts_per_port > 1 ? 16u : 8u) * (sim->nb_flows + 1))
		cap <<= 1;
	sim->map_keys = calloc(cap, sizeof(*sim->map_keys));
	sim->map_vals = calloc(cap, sizeof(*sim->map_vals));
	if (sim->flows == NULL || sim->map_keys == NULL || sim->map_vals == NULL)
		return -ENOMEM;
	sim->map_mask = cap - 1;
	for (i = 0; i < sim->nb_flows; i++) {
		struct sim_flow *f = &sim->flows[i];

		f->c = s->flows[i];
		f->st.cnp_gap_min_ns = UINT64_MAX;
		f->sport = pcc_roce_udp_sport(f->c.qpn, f->c.dst_qpn);
		f->int_hdr = s->sw.int_enabled;
		if (f->c.size == 0)
			infinite = true;
		if (sim_map_put(sim, SIM_MAP_SRC_DQPN, f->c.src, f->c.dst_qpn, i) != 0 ||
				sim_map_put(sim, SIM_MAP_SRC_QPN, f->c.src, f->c.qpn, i) != 0 ||
				sim_map_put(sim, SIM_MAP_DST_QPN, f->c.dst, f->c.qpn, i) != 0) {
			SIM_LOG(ERR, "flow %u: QPN 0x%x clashes with another flow's", i, f->c.qpn);
			return -EINVAL;
		}
		if (f->c.source == PCC_SIM_SRC_ENGINE)
			sim->hosts[f->c.src].roles |= PCC_SIM_ROLE_RP;
		if (s->host.np == SIM_NP_ENGINE)
			sim->hosts[f->c.dst].roles |= PCC_SIM_ROLE_NP;
	}
	sim->flows_finite_left = infinite ? SIM_NONE : sim->nb_flows;
	return 0;
}

static int depart_register(struct pcc_sim *sim);

static int
pools_init(struct pcc_sim *sim)
{
	const struct pcc_sim_scenario *s = sim->scn;
	char name[RTE_MEMPOOL_NAMESIZE];
	uint32_t i, room = MBUF_ROOM_MIN;

	for (i = 0; i < sim->nb_flows; i++)
		if (sim->flows[i].c.source == PCC_SIM_SRC_MODEL)
			room = RTE_MAX(room, sim->flows[i].c.payload + PCC_INT_HDR_LEN + 256);
	sim->mbuf_room = room;
	snprintf(name, sizeof(name), "sim%u_pkt", sim->inst);
	sim->pkt_pool = rte_mempool_create(name, s->res.packets, sizeof(struct sim_pkt), 0, 0, NULL,
			NULL, NULL, NULL, (int)rte_socket_id(),
			RTE_MEMPOOL_F_SP_PUT | RTE_MEMPOOL_F_SC_GET);
	if (sim->pkt_pool == NULL) {
		SIM_LOG(ERR, "packet pool (%u): %s", s->res.packets, rte_strerror(rte_errno));
		return -rte_errno;
	}
	snprintf(name, sizeof(name), "sim%u_mb", sim->inst);
	/* per-lcore caches: the engine frees what it receives on its lcores */
	sim->mbuf_pool = rte_pktmbuf_pool_create(name, s->res.mbufs,
			RTE_MIN(256u, s->res.mbufs / 4), 0, (uint16_t)(RTE_PKTMBUF_HEADROOM + room),
			(int)rte_socket_id());
	if (sim->mbuf_pool == NULL) {
		SIM_LOG(ERR, "mbuf pool (%u): %s", s->res.mbufs, rte_strerror(rte_errno));
		return -rte_errno;
	}
	if (rte_mbuf_dyn_rx_timestamp_register(&sim->ts_off, &sim->ts_flag) != 0) {
		SIM_LOG(ERR, "RX timestamp dynfield: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	return depart_register(sim);
}

/* The departure-time field the host NICs honour (pcc_sim.h). */
static int
depart_register(struct pcc_sim *sim)
{
	static const struct rte_mbuf_dynfield d = {
		.name = PCC_SIM_TX_DEPART_NAME,
		.size = sizeof(uint64_t),
		.align = __alignof__(uint64_t),
	};
	static const struct rte_mbuf_dynflag fl = {
		.name = PCC_SIM_TX_DEPART_FLAG_NAME,
	};
	int bit;

	sim->depart_off = rte_mbuf_dynfield_register(&d);
	bit = sim->depart_off >= 0 ? rte_mbuf_dynflag_register(&fl) : -1;
	if (sim->depart_off < 0 || bit < 0) {
		SIM_LOG(ERR, "departure-time dynfield: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	sim->depart_flag = UINT64_C(1) << bit;
	return 0;
}

/* Flows a and b clash on QPN qpn of the port led by host lead. */
static int
shared_qpn_clash(const struct pcc_sim *sim, uint32_t a, uint32_t b, uint32_t qpn, uint32_t lead)
{
	SIM_LOG(ERR,
			"flows f%u (line %u) and f%u (line %u): QPN 0x%x on both, and their "
			"hosts share the engine port of %s (sim.hosts_per_port)",
			a, sim->flows[a].c.line, b, sim->flows[b].c.line, qpn,
			sim->hosts[lead].name);
	return -EINVAL;
}

/*
 * Flows on one shared port must not share a QPN the engine keys on: the
 * RP its flows by their QPN, the NP the data it answers by DestQP.  The
 * answers to a model source's flows reach the engine too, and must not
 * land on an engine flow's QPN (two model flows' may be equal: the RP
 * knows neither).  Each host's own QPNs are checked with the scenario;
 * this checks across the hosts of a port.
 */
static int
shared_qpns_check(struct pcc_sim *sim)
{
	uint32_t i, k, pass, o;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < sim->nb_flows; i++) {
			const struct sim_flow_conf *c = &sim->flows[i].c;
			bool model = c->source != PCC_SIM_SRC_ENGINE;

			for (k = 0; k < 2; k++) {
				const struct sim_host *ho = &sim->hosts[k == 0 ? c->src : c->dst];
				uint32_t qpn = k == 0 ? c->qpn : c->dst_qpn;

				if (ho->eth_port < 0 || sim->hosts[ho->eth_lead].eth_share < 2 ||
						(k == 1 && !(ho->roles & PCC_SIM_ROLE_NP)))
					continue;
				/* pass 0: engine senders' QPNs and NP DestQPs in;
				 * pass 1: model senders' QPNs against them */
				if (pass != (k == 0 && model ? 1u : 0u))
					continue;
				if (pass == 1) {
					o = sim_map_get(sim, SIM_MAP_PORT_QPN, ho->eth_lead, qpn);
					if (o != SIM_NONE)
						return shared_qpn_clash(
								sim, o, i, qpn, ho->eth_lead);
				} else if (sim_map_put(sim, SIM_MAP_PORT_QPN + k, ho->eth_lead, qpn,
							   i) != 0) {
					o = sim_map_get(sim, SIM_MAP_PORT_QPN + k, ho->eth_lead,
							qpn);
					return shared_qpn_clash(sim, o, i, qpn, ho->eth_lead);
				}
			}
		}
	}
	return 0;
}

/*
 * The engine-driven hosts in ports: up to sim.hosts_per_port consecutive
 * ones (in host order) of one link rate share a port.  lead[h] is the
 * first host of h's port (SIM_NONE: no port); the number of ports.
 */
static uint32_t
ports_group(const struct pcc_sim *sim, uint32_t *lead)
{
	uint32_t h, n = 0, cur = SIM_NONE, in = 0, hpp = sim->scn->res.hosts_per_port;

	for (h = 0; h < sim->nb_hosts; h++) {
		lead[h] = SIM_NONE;
		if (sim->hosts[h].roles == 0)
			continue;
		if (cur == SIM_NONE || in == hpp ||
				sim->ports[sim->hosts[h].port].rate_bps !=
						sim->ports[sim->hosts[cur].port].rate_bps) {
			cur = h;
			in = 0;
			n++;
		}
		lead[h] = cur;
		in++;
	}
	return n;
}

/*
 * One ethdev port for each group of ports_group(): its rings and port are
 * the first (lead) host's, and every host of the group points at them.
 */
static int
ports_init(struct pcc_sim *sim)
{
	const struct pcc_sim_scenario *s = sim->scn;
	struct rte_ring *tx[RTE_PMD_RING_MAX_TX_RINGS];
	char name[RTE_RING_NAMESIZE];
	uint32_t h, q, need, *lead;
	int ret = 0;

	sim->eth_hosts = calloc(RTE_MAX(sim->nb_hosts, 1u), sizeof(*sim->eth_hosts));
	lead = calloc(RTE_MAX(sim->nb_hosts, 1u), sizeof(*lead));
	if (sim->eth_hosts == NULL || lead == NULL) {
		free(lead);
		return -ENOMEM;
	}
	need = ports_group(sim, lead);
	if (need > RTE_MAX_ETHPORTS - (uint32_t)rte_eth_dev_count_total()) {
		SIM_LOG(ERR,
				"the engine-driven hosts need %u ethdev ports "
				"(sim.hosts_per_port: %u); this DPDK has %u (RTE_MAX_ETHPORTS), "
				"%u in use: raise sim.hosts_per_port",
				need, s->res.hosts_per_port, RTE_MAX_ETHPORTS,
				rte_eth_dev_count_total());
		free(lead);
		return -ENOSPC;
	}
	for (h = 0; h < sim->nb_hosts && ret == 0; h++) {
		struct sim_host *ho = &sim->hosts[h], *ld;

		if (lead[h] == SIM_NONE)
			continue;
		if (lead[h] != h) {
			ld = &sim->hosts[lead[h]];
			ho->rxr = ld->rxr;
			ho->txr = ld->txr;
			ho->eth_port = ld->eth_port;
			ho->eth_lead = lead[h];
			memcpy(ho->dev_name, ld->dev_name, sizeof(ho->dev_name));
			ld->eth_share++;
			ld->eth_roles |= ho->roles;
			continue;
		}
		snprintf(name, sizeof(name), "sim%u_%.12s_rx", sim->inst, ho->name);
		ho->rxr = rte_ring_create(name, s->res.ring_size, (int)rte_socket_id(),
				RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(name, sizeof(name), "sim%u_%.12s_tx", sim->inst, ho->name);
		ho->txr = rte_ring_create(
				name, s->res.ring_size, (int)rte_socket_id(), RING_F_SC_DEQ);
		if (ho->rxr == NULL || ho->txr == NULL) {
			SIM_LOG(ERR, "rings of %s: %s", ho->name, rte_strerror(rte_errno));
			ret = -rte_errno;
			break;
		}
		for (q = 0; q < s->res.tx_queues; q++)
			tx[q] = ho->txr;
		snprintf(name, sizeof(name), "sim%u_%.12s", sim->inst, ho->name);
		ret = rte_eth_from_rings(name, &ho->rxr, 1, tx, s->res.tx_queues,
				(unsigned int)rte_socket_id());
		if (ret < 0) {
			SIM_LOG(ERR, "port of %s: %s", ho->name, rte_strerror(rte_errno));
			ret = -rte_errno;
			break;
		}
		ho->eth_port = ret;
		ret = 0;
		ho->eth_lead = h;
		ho->eth_share = 1;
		ho->eth_roles = ho->roles;
		snprintf(ho->dev_name, sizeof(ho->dev_name), "net_ring_%s", name);
		sim->eth_hosts[sim->nb_eth++] = h;
		sim->has_engine = true;
	}
	free(lead);
	if (ret == 0 && s->res.hosts_per_port > 1)
		ret = shared_qpns_check(sim);
	return ret;
}

struct pcc_sim *
pcc_sim_create(const struct pcc_sim_scenario *s, uint64_t seed)
{
	struct pcc_sim *sim;
	uint32_t i;
	int ret;

	if (s == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	sim = calloc(1, sizeof(*sim));
	if (sim == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	sim->inst = __atomic_fetch_add(&sim_instances, 1, __ATOMIC_RELAXED);
	sim->scn = sim_scenario_dup(s);
	if (sim->scn == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	sim->seed = seed == PCC_SIM_SEED_SCENARIO ? s->seed : seed;
	sim->quantum = s->quantum_ns;
	sim->end = s->duration_ns;
	pcc_parse_opts_default(&sim->popts);
	if (s->sw.ifa2)
		sim->popts.ifa2_proto = s->sw.ifa2_proto;
	ret = sim_model_build(sim);
	if (ret == 0)
		ret = flows_init(sim);
	if (ret == 0)
		ret = sim_frames_init(sim);
	if (ret == 0) {
		sim_base_rtt_init(sim);
		ret = pools_init(sim);
	}
	if (ret == 0)
		ret = ports_init(sim);
	if (ret != 0)
		goto fail;
	sim->nb_algos = s->nb_algos;
	for (i = 0; i < s->nb_algos; i++) {
		sim->algos[i].slot = sim->scn->algos[i].slot;
		memcpy(sim->algos[i].name, sim->scn->algos[i].name, sizeof(sim->algos[i].name));
		memcpy(sim->algos[i].profile, sim->scn->algos[i].profile,
				sizeof(sim->algos[i].profile));
		sim->algos[i].params = sim->scn->algos[i].params;
		sim->algos[i].nb_params = sim->scn->algos[i].nb_params;
	}
	/* slot order */
	for (i = 1; i < sim->nb_algos; i++) {
		uint32_t j = i;

		while (j > 0 && sim->algos[j - 1].slot > sim->algos[j].slot) {
			struct pcc_sim_algo t = sim->algos[j];

			sim->algos[j] = sim->algos[j - 1];
			sim->algos[j - 1] = t;
			j--;
		}
	}
	ret = sim_out_open(sim);
	if (ret != 0)
		goto fail;
	for (i = 0; i < sim->nb_flows; i++)
		if (sim->flows[i].c.source == PCC_SIM_SRC_MODEL)
			sim_ev_push(sim, sim->flows[i].c.start_ns, SIM_EV_SRC, i);
	SIM_LOG(INFO, "%s: %u hosts, %u switches, %u flows, %u engine ports, seed %" PRIu64,
			s->name, sim->nb_hosts, sim->nb_nodes - sim->nb_hosts, sim->nb_flows,
			sim->nb_eth, sim->seed);
	return sim;
fail:
	pcc_sim_destroy(sim);
	rte_errno = -ret;
	return NULL;
}

/* ---- Step ---------------------------------------------------------------------------- */

static uint32_t
drain(struct pcc_sim *sim)
{
	sim_obj_t objs[DRAIN_BURST];
	uint32_t i, total = 0;
	unsigned int n, k;

	for (i = 0; i < sim->nb_eth; i++) {
		uint32_t h = sim->eth_hosts[i];
		struct sim_host *ho = &sim->hosts[h];

		/* most ports sent nothing since the last step: no dequeue */
		if (rte_ring_empty(ho->txr))
			continue;
		do {
			n = rte_ring_sc_dequeue_burst(ho->txr, (void **)objs, DRAIN_BURST, NULL);
			for (k = 0; k < n; k++) {
				ho->from_engine++;
				sim_host_from_engine(sim, h, (struct rte_mbuf *)objs[k]);
			}
			total += n;
		} while (n == DRAIN_BURST);
	}
	return total;
}

static bool
rx_pending(const struct pcc_sim *sim)
{
	uint32_t i;

	for (i = 0; i < sim->nb_eth; i++) {
		const struct sim_host *ho = &sim->hosts[sim->eth_hosts[i]];

		if (ho->rx_stage.head != NULL || rte_ring_count(ho->rxr) != 0)
			return true;
	}
	return false;
}

static void
deliver(struct pcc_sim *sim)
{
	sim_obj_t objs[DRAIN_BURST];
	struct sim_pkt *p[DRAIN_BURST];
	uint32_t i;
	unsigned int n, k, sent;

	for (i = 0; i < sim->nb_eth; i++) {
		struct sim_host *ho = &sim->hosts[sim->eth_hosts[i]];

		while (ho->rx_stage.head != NULL) {
			struct sim_pkt *q = ho->rx_stage.head;

			for (n = 0; n < DRAIN_BURST && q != NULL; n++, q = q->next) {
				struct rte_mbuf *m = q->m;

				p[n] = q;
				*RTE_MBUF_DYNFIELD(m, sim->ts_off, rte_mbuf_timestamp_t *) = q->t;
				m->ol_flags |= sim->ts_flag;
				m->port = (uint16_t)ho->eth_port;
				objs[n] = (sim_obj_t)m;
			}
			sent = rte_ring_sp_enqueue_burst(ho->rxr, (void **)objs, n, NULL);
			for (k = 0; k < sent; k++) {
				sim_fifo_pop(&ho->rx_stage);
				p[k]->m = NULL;
				sim_pkt_free(sim, p[k]);
			}
			ho->to_engine += sent;
			sim->st.pkts_out += sent;
			if (sent < n) {
				if (ho->rx_stage.n > sim->st.rx_backlog_max)
					sim->st.rx_backlog_max = ho->rx_stage.n;
				break;
			}
		}
	}
}

/* Something waits to be handed to an engine port. */
static bool
staged(const struct pcc_sim *sim)
{
	uint32_t i;

	for (i = 0; i < sim->nb_eth; i++)
		if (sim->hosts[sim->eth_hosts[i]].rx_stage.head != NULL)
			return true;
	return false;
}

static int
step(struct pcc_sim *sim, bool force_idle, uint64_t cap)
{
	uint64_t now, target, next, deadline = UINT64_MAX;
	uint32_t drained;
	bool jump, hinted = false;

	if (sim->done)
		return 1;
	sim->st.steps++;
	drained = drain(sim);
	now = sim_now(sim);
	target = now + sim->quantum;
	if (force_idle)
		jump = true;
	else if (!sim->has_engine)
		jump = true;
	else
		jump = __atomic_load_n(&sim->idle_valid, __ATOMIC_ACQUIRE) && drained == 0 &&
				!rx_pending(sim);
	if (!force_idle && sim->has_engine && jump) {
		deadline = __atomic_load_n(&sim->idle_deadline, __ATOMIC_RELAXED);
		hinted = true;
	}
	__atomic_store_n(&sim->idle_valid, false, __ATOMIC_RELAXED);
	if (jump) {
		if (!sim_ev_next_time(sim, &next))
			next = UINT64_MAX;
		next = RTE_MIN(next, deadline);
		if (next > target)
			target = next;
	}
	if (target > cap)
		target = RTE_MAX(cap, now);
	if (target > sim->end)
		target = sim->end;
	sim_run_events(sim, target);
	if (target > sim->end)
		target = sim->end;
	if (target > sim_now(sim))
		sim_set_now(sim, target);
	/*
	 * The engine has nothing to do before its deadline unless a packet
	 * reaches it: go on, event time by event time, until one does (or the
	 * deadline), instead of one engine poll round per model event.
	 */
	while (hinted && !staged(sim) && target < deadline && target < cap && target < sim->end) {
		if (!sim_ev_next_time(sim, &next))
			next = UINT64_MAX;
		target = RTE_MIN(RTE_MIN(next, deadline), RTE_MIN(cap, sim->end));
		sim_run_events(sim, target);
		if (target > sim->end)
			target = sim->end;
		if (target > sim_now(sim))
			sim_set_now(sim, target);
	}
	deliver(sim);
	if (sim_now(sim) >= sim->end)
		sim->done = true;
	if (sim->scn->out.progress)
		sim_out_progress(sim, false);
	return sim->done ? 1 : 0;
}

int
pcc_sim_step(struct pcc_sim *sim)
{
	if (sim == NULL)
		return -EINVAL;
	return step(sim, false, UINT64_MAX);
}

int
pcc_sim_step_hook(void *arg)
{
	return pcc_sim_step(arg);
}

void
pcc_sim_engine_idle(struct pcc_sim *sim, uint64_t next_deadline_ns)
{
	if (sim == NULL)
		return;
	__atomic_store_n(&sim->idle_deadline, next_deadline_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&sim->idle_valid, true, __ATOMIC_RELEASE);
}

int
pcc_sim_run(struct pcc_sim *sim, uint64_t until_ns)
{
	int ret = 0;

	if (sim == NULL)
		return -EINVAL;
	while (!sim->done && sim_now(sim) < until_ns) {
		ret = step(sim, true, until_ns);
		if (ret < 0)
			return ret;
	}
	return sim->done ? 1 : ret;
}

bool
pcc_sim_done(const struct pcc_sim *sim)
{
	return sim == NULL || sim->done;
}

uint64_t
pcc_sim_now(const struct pcc_sim *sim)
{
	return sim != NULL ? sim_now(sim) : 0;
}

/* the engine reads it for every port every poll round: no second call */
uint64_t
pcc_sim_clock(void *arg)
{
	const struct pcc_sim *sim = arg;

	return sim != NULL ? sim_now(sim) : 0;
}

static int32_t
service_cb(void *arg)
{
	struct pcc_sim *sim = arg;

	step(sim, false, UINT64_MAX);
	return 0;
}

int
pcc_sim_service_register(struct pcc_sim *sim, uint32_t *service_id)
{
	struct rte_service_spec spec;
	uint32_t id;
	int ret;

	if (sim == NULL || service_id == NULL)
		return -EINVAL;
	if (sim->service)
		return -EEXIST;
	memset(&spec, 0, sizeof(spec));
	snprintf(spec.name, sizeof(spec.name), "pcc_sim%u", sim->inst);
	spec.callback = service_cb;
	spec.callback_userdata = sim;
	spec.capabilities = 0; /* not MT-safe: one lcore at a time */
	spec.socket_id = (int)rte_socket_id();
	ret = rte_service_component_register(&spec, &id);
	if (ret != 0)
		return ret;
	ret = rte_service_component_runstate_set(id, 1);
	if (ret != 0) {
		rte_service_component_unregister(id);
		return ret;
	}
	sim->service = true;
	sim->service_id = id;
	*service_id = id;
	return 0;
}

int
pcc_sim_service_unregister(struct pcc_sim *sim)
{
	int ret;

	if (sim == NULL || !sim->service)
		return -EINVAL;
	rte_service_component_runstate_set(sim->service_id, 0);
	ret = rte_service_component_unregister(sim->service_id);
	if (ret == 0)
		sim->service = false;
	return ret;
}

/* ---- Finish, release, destroy ------------------------------------------------------- */

int
pcc_sim_finish(struct pcc_sim *sim, FILE *out)
{
	if (sim == NULL)
		return -EINVAL;
	if (sim->finished)
		return 0;
	sim->finished = true;
	return sim_out_finish(sim, out);
}

static void
free_fifo(struct pcc_sim *sim, struct sim_fifo *f)
{
	struct sim_pkt *p;

	while ((p = sim_fifo_pop(f)) != NULL)
		sim_pkt_free(sim, p);
}

static void
free_ring(struct rte_ring *r)
{
	sim_obj_t o;

	if (r == NULL)
		return;
	while (rte_ring_dequeue(r, (void **)&o) == 0)
		rte_pktmbuf_free((struct rte_mbuf *)o);
}

void
pcc_sim_release(struct pcc_sim *sim)
{
	uint32_t i;

	if (sim == NULL || sim->released)
		return;
	sim->released = true;
	if (sim->pkt_pool == NULL)
		return;
	if (sim->ports != NULL) {
		for (i = 0; i < sim->nb_ports; i++) {
			struct sim_port *p = &sim->ports[i];

			free_fifo(sim, &p->q);
			free_fifo(sim, &p->pipe);
			if (p->cur != NULL)
				sim_pkt_free(sim, p->cur);
			p->cur = NULL;
			p->q_bytes = 0;
		}
	}
	if (sim->hosts != NULL) {
		for (i = 0; i < sim->nb_hosts; i++) {
			free_fifo(sim, &sim->hosts[i].rx_stage);
			free_fifo(sim, &sim->hosts[i].delayed);
			free_ring(sim->hosts[i].rxr);
			free_ring(sim->hosts[i].txr);
		}
	}
	sim_mbuf_late_flush(sim);
	sim_ev_clear(sim);
	sim->done = true;
}

void
pcc_sim_destroy(struct pcc_sim *sim)
{
	uint32_t i;

	if (sim == NULL)
		return;
	if (sim->service)
		pcc_sim_service_unregister(sim);
	pcc_sim_release(sim);
	sim_out_close(sim);
	if (sim->out.has_dfd)
		close(sim->out.dfd);
	if (sim->hosts != NULL) {
		for (i = 0; i < sim->nb_hosts; i++) {
			struct sim_host *ho = &sim->hosts[i];

			if (ho->eth_port >= 0 && ho->eth_lead != i)
				continue; /* the lead's port and rings */
			if (ho->eth_port >= 0)
				rte_vdev_uninit(ho->dev_name);
			rte_ring_free(ho->rxr);
			rte_ring_free(ho->txr);
		}
	}
	rte_mempool_free(sim->mbuf_pool);
	rte_mempool_free(sim->pkt_pool);
	sim->pkt_free = NULL;
	sim_model_free(sim);
	if (sim->flows != NULL)
		for (i = 0; i < sim->nb_flows; i++)
			free(sim->flows[i].tmpl);
	free(sim->flows);
	sim_frames_free(sim);
	free(sim->map_keys);
	free(sim->map_vals);
	free(sim->eth_hosts);
	pcc_sim_scenario_free(sim->scn);
	free(sim);
}
