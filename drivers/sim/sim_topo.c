/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The topology: nodes (hosts, then switches), links and their two ports,
 * shortest-path routes with ECMP sets, addresses, the event queue's size.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "sim_internal.h"

/* ---- Topology ------------------------------------------------------------------- */

struct link {
	uint32_t a;
	uint32_t b;
	struct sim_link_conf c;
};

static int
add_link(struct link *links, uint32_t *n, uint32_t cap, uint32_t a, uint32_t b,
		const struct sim_link_conf *c)
{
	if (*n >= cap)
		return -ENOSPC;
	links[*n].a = a;
	links[*n].b = b;
	links[*n].c = *c;
	(*n)++;
	return 0;
}

static void
set_mac(uint8_t *mac, uint8_t kind, uint32_t idx)
{
	mac[0] = 0x02; /* locally administered, unicast */
	mac[1] = 0x50; /* 'P' */
	mac[2] = kind;
	mac[3] = (uint8_t)(idx >> 16);
	mac[4] = (uint8_t)(idx >> 8);
	mac[5] = (uint8_t)idx;
}

/*
 * n zeroed elements of size bytes (a multiple of the cache line: the
 * structs the event loop walks), cache-line aligned; free() frees them.
 */
static void *
calloc_lines(size_t n, size_t size)
{
	void *p;

	if (n == 0)
		n = 1;
	if (size == 0 || n > SIZE_MAX / size)
		return NULL;
	p = aligned_alloc(RTE_CACHE_LINE_SIZE, n * size);
	if (p != NULL)
		memset(p, 0, n * size);
	return p;
}

/* Nodes: hosts 0..H-1, then switches.  Links from the topology. */
static int
build_nodes(struct pcc_sim *sim, struct link **out_links, uint32_t *out_n)
{
	const struct sim_topo_conf *t = &sim->scn->topo;
	uint32_t h, i, j, nsw, nl = 0, cap;
	struct link *links;
	int ret = 0;

	sim->nb_hosts = sim_topo_nb_hosts(t);
	nsw = sim_topo_nb_switches(t);
	sim->nb_nodes = sim->nb_hosts + nsw;
	sim->nodes = calloc(sim->nb_nodes, sizeof(*sim->nodes));
	/* a host's rings and staging in its first line */
	sim->hosts = calloc_lines(sim->nb_hosts, sizeof(*sim->hosts));
	cap = sim->nb_hosts + 1 + t->leaves * t->spines;
	links = calloc(cap, sizeof(*links));
	if (sim->nodes == NULL || sim->hosts == NULL || links == NULL) {
		free(links);
		return -ENOMEM;
	}
	for (i = 0; i < sim->nb_nodes; i++) {
		struct sim_node *n = &sim->nodes[i];

		n->host = SIM_NONE;
		if (i < sim->nb_hosts) {
			sim_topo_host_name(t, i, n->name, sizeof(n->name));
			n->host = i;
			continue;
		}
		n->sw = true;
		j = i - sim->nb_hosts;
		sim_topo_switch_name(t, j, n->name, sizeof(n->name));
		n->ifa2_profile = sim_switch_ifa2_profile(&sim->scn->sw, j);
		n->buf_size = sim->scn->sw.buffer;
		n->port_cap = sim->scn->sw.port_buffer;
		n->salt = (uint32_t)sim_splitmix64(&(uint64_t){ sim->seed ^ (0x51D0ull + j) });
	}
	for (h = 0; h < sim->nb_hosts && ret == 0; h++) {
		uint32_t sw;

		if (t->type == SIM_TOPO_DUMBBELL)
			sw = sim->nb_hosts + (h < t->senders ? 0 : 1);
		else if (t->type == SIM_TOPO_INCAST)
			sw = sim->nb_hosts;
		else
			sw = sim->nb_hosts + h / t->hosts_per_leaf;
		ret = add_link(links, &nl, cap, h, sw, &t->host_link);
	}
	if (ret == 0 && t->type == SIM_TOPO_DUMBBELL)
		ret = add_link(links, &nl, cap, sim->nb_hosts, sim->nb_hosts + 1, &t->bottleneck);
	if (t->type == SIM_TOPO_LEAF_SPINE)
		for (i = 0; i < t->leaves && ret == 0; i++)
			for (j = 0; j < t->spines && ret == 0; j++)
				ret = add_link(links, &nl, cap, sim->nb_hosts + i,
						sim->nb_hosts + t->leaves + j, &t->fabric);
	if (ret != 0) {
		free(links);
		return ret;
	}
	*out_links = links;
	*out_n = nl;
	return 0;
}

static int
build_ports(struct pcc_sim *sim, const struct link *links, uint32_t nl)
{
	const struct pcc_sim_scenario *s = sim->scn;
	uint32_t i, *cursor;

	cursor = calloc(sim->nb_nodes, sizeof(*cursor));
	sim->nb_ports = 2 * nl;
	/* a port's packet path in its first lines */
	sim->ports = calloc_lines(sim->nb_ports, sizeof(*sim->ports));
	if (cursor == NULL || sim->ports == NULL) {
		free(cursor);
		return -ENOMEM;
	}
	for (i = 0; i < nl; i++) {
		sim->nodes[links[i].a].nports++;
		sim->nodes[links[i].b].nports++;
	}
	for (i = 1; i < sim->nb_nodes; i++)
		sim->nodes[i].port0 = sim->nodes[i - 1].port0 + sim->nodes[i - 1].nports;
	for (i = 0; i < nl; i++) {
		uint32_t ends[2] = { links[i].a, links[i].b }, idx[2], d;

		for (d = 0; d < 2; d++) {
			struct sim_node *n = &sim->nodes[ends[d]];

			idx[d] = n->port0 + cursor[ends[d]];
			sim->ports[idx[d]].local = (uint16_t)cursor[ends[d]];
			cursor[ends[d]]++;
		}
		for (d = 0; d < 2; d++) {
			struct sim_port *p = &sim->ports[idx[d]];
			struct sim_node *n = &sim->nodes[ends[d]];

			p->node = ends[d];
			p->peer_node = ends[!d];
			p->rev = idx[!d];
			p->sw = n->sw;
			p->qidx = -1;
			p->rate_bps = links[i].c.rate_bps;
			p->delay_ns = links[i].c.delay_ns;
			snprintf(p->name, sizeof(p->name), "%.30s->%.30s", n->name,
					sim->nodes[ends[!d]].name);
			p->int_code = (p->rate_bps % 1000000000ull) == 0 ?
					pcc_int_rate_code((uint32_t)(p->rate_bps / 1000000000ull)) :
					-1;
			p->ifa_speed = (p->rate_bps % 1000000000ull) == 0 ?
					pcc_ifa2_speed_code(
							(uint32_t)(p->rate_bps / 1000000000ull)) :
					-1;
			if (p->ifa_speed < 0)
				p->ifa_speed = 15;
			if (n->sw) {
				p->ecn_mode = s->sw.ecn.mode;
				p->pmax = s->sw.ecn.pmax;
				sim_ecn_thresholds(&s->sw.ecn, p->rate_bps, &p->kmin, &p->kmax);
				sim_rng_seed(&p->rng, sim->seed, 1 + idx[d]);
			} else {
				p->ecn_mode = SIM_ECN_OFF;
				sim->hosts[n->host].port = idx[d];
			}
		}
	}
	free(cursor);
	sim->queues = calloc(sim->nb_ports, sizeof(*sim->queues));
	if (sim->queues == NULL)
		return -ENOMEM;
	for (i = 0; i < sim->nb_ports; i++) {
		struct sim_port *p = &sim->ports[i];

		if (!p->sw)
			continue;
		p->qidx = (int32_t)sim->nb_queues;
		sim->queues[sim->nb_queues++] = i;
		p->hist = calloc(SIM_HIST_N, sizeof(*p->hist));
		if (p->hist == NULL)
			return -ENOMEM;
	}
	return 0;
}

/* Shortest-path routes from every switch to every host; hosts never transit. */
static int
build_routes(struct pcc_sim *sim)
{
	uint32_t nsw = sim->nb_nodes - sim->nb_hosts, h, i, k;
	uint32_t *dist, *fifo, *list, used = 0, cap;
	int ret = 0;

	sim->routes = calloc((size_t)nsw * sim->nb_hosts, sizeof(*sim->routes));
	dist = malloc(sizeof(*dist) * sim->nb_nodes);
	fifo = malloc(sizeof(*fifo) * sim->nb_nodes);
	cap = sim->nb_ports + 16;
	list = malloc(sizeof(*list) * cap);
	if (sim->routes == NULL || dist == NULL || fifo == NULL || list == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	for (h = 0; h < sim->nb_hosts; h++) {
		uint32_t head = 0, tail = 0;

		for (i = 0; i < sim->nb_nodes; i++)
			dist[i] = UINT32_MAX;
		dist[h] = 0;
		fifo[tail++] = h;
		while (head < tail) {
			uint32_t u = fifo[head++];
			const struct sim_node *n = &sim->nodes[u];

			if (!n->sw && u != h)
				continue;
			for (k = 0; k < n->nports; k++) {
				uint32_t v = sim->ports[n->port0 + k].peer_node;

				if (dist[v] == UINT32_MAX) {
					dist[v] = dist[u] + 1;
					fifo[tail++] = v;
				}
			}
		}
		for (i = 0; i < nsw; i++) {
			uint32_t u = sim->nb_hosts + i, nc = 0;
			const struct sim_node *n = &sim->nodes[u];
			struct sim_route *r = &sim->routes[(size_t)i * sim->nb_hosts + h];
			uint32_t tmp[256];

			if (dist[u] == UINT32_MAX)
				continue;
			for (k = 0; k < n->nports && nc < RTE_DIM(tmp); k++) {
				uint32_t v = sim->ports[n->port0 + k].peer_node;

				if (dist[v] != UINT32_MAX && dist[v] + 1 == dist[u] &&
						(sim->nodes[v].sw || v == h))
					tmp[nc++] = n->port0 + k;
			}
			/* the same list as this switch's previous host: share it */
			if (h > 0) {
				const struct sim_route *pr =
						&sim->routes[(size_t)i * sim->nb_hosts + h - 1];

				if (pr->n == nc && nc > 0 &&
						memcmp(&list[pr->off], tmp, nc * sizeof(*tmp)) ==
								0) {
					*r = *pr;
					continue;
				}
			}
			if (used + nc > cap) {
				uint32_t *nl;

				cap = 2 * (used + nc);
				nl = realloc(list, sizeof(*list) * cap);
				if (nl == NULL) {
					ret = -ENOMEM;
					goto out;
				}
				list = nl;
			}
			memcpy(&list[used], tmp, nc * sizeof(*tmp));
			r->off = used;
			r->n = nc;
			used += nc;
		}
	}
	sim->route_ports = list;
	list = NULL;
out:
	free(list);
	free(dist);
	free(fifo);
	return ret;
}

int
sim_model_build(struct pcc_sim *sim)
{
	struct link *links = NULL;
	uint32_t nl = 0, h;
	int ret;

	ret = build_nodes(sim, &links, &nl);
	if (ret != 0)
		return ret;
	ret = build_ports(sim, links, nl);
	free(links);
	if (ret != 0)
		return ret;
	ret = build_routes(sim);
	if (ret != 0)
		return ret;
	for (h = 0; h < sim->nb_hosts; h++) {
		struct sim_host *ho = &sim->hosts[h];
		const struct sim_port *p = &sim->ports[ho->port];

		snprintf(ho->name, sizeof(ho->name), "%s", sim->nodes[h].name);
		ho->node = h;
		ho->eth_port = -1;
		set_mac(ho->mac, 0x00, h + 1);
		/* the gateway: the switch port facing the host */
		set_mac(ho->gw_mac, 0x01,
				((p->peer_node - sim->nb_hosts) << 8) | sim->ports[p->rev].local);
		ho->ip = (10u << 24) | (1u << 16) | (h + 1);
	}
	/* an event's object is a port, host or flow index of SIM_EV_OBJ_BITS */
	RTE_BUILD_BUG_ON(SIM_EV_WINDOW >= (1 << SIM_EV_TYPE_BITS));
	RTE_BUILD_BUG_ON(SIM_FLOWS_MAX >= SIM_EV_OBJ_MAX || SIM_HOSTS_MAX >= SIM_EV_OBJ_MAX);
	if (sim->nb_ports >= SIM_EV_OBJ_MAX)
		return -E2BIG;
	/* events: per port TX and pipe, per host delayed TX, per flow ACK
	 * timer and model source, sample, window */
	sim->run_seq = UINT64_MAX; /* between events */
	return sim_ev_init(sim, 2 * sim->nb_ports + sim->nb_hosts + 2 * sim->scn->nb_flows + 16);
}

void
sim_model_free(struct pcc_sim *sim)
{
	uint32_t i;

	if (sim->ports != NULL)
		for (i = 0; i < sim->nb_ports; i++)
			free(sim->ports[i].hist);
	free(sim->ports);
	free(sim->nodes);
	free(sim->hosts);
	free(sim->queues);
	free(sim->routes);
	free(sim->route_ports);
	sim_ev_fini(sim);
	sim->ports = NULL;
	sim->nodes = NULL;
	sim->hosts = NULL;
	sim->queues = NULL;
	sim->routes = NULL;
	sim->route_ports = NULL;
}
