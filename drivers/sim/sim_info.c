/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * What the sim tells its user (pcc_sim.h): the ports, flows, algorithm
 * slots and NP settings to configure the engine with, injection, and the
 * statistics getters (read field by field, from any lcore).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "sim_internal.h"

/* ---- Getters ------------------------------------------------------------------------ */

int
pcc_sim_np_info_get(const struct pcc_sim *sim, struct pcc_sim_np_info *info)
{
	const struct sim_host_conf *hc;

	if (sim == NULL || info == NULL)
		return -EINVAL;
	hc = &sim->scn->host;
	memset(info, 0, sizeof(*info));
	info->engine = hc->np == SIM_NP_ENGINE;
	info->cnp_gap_ns = hc->cnp_gap_ns;
	info->cnp_dscp = hc->cnp_dscp;
	info->turnaround_ns = hc->np_turnaround_ns;
	info->app = hc->np_app;
	info->mailbox = hc->np_mailbox;
	info->mailbox_len = hc->np_mailbox_len;
	return 0;
}

uint16_t
pcc_sim_port_count(const struct pcc_sim *sim)
{
	return sim != NULL ? sim->nb_eth : 0;
}

int
pcc_sim_port_info_get(const struct pcc_sim *sim, uint16_t idx, struct pcc_sim_port_info *info)
{
	const struct sim_host *ho;

	if (sim == NULL || info == NULL || idx >= sim->nb_eth)
		return -ENOENT;
	ho = &sim->hosts[sim->eth_hosts[idx]];
	memset(info, 0, sizeof(*info));
	info->port_id = (uint16_t)ho->eth_port;
	info->host = (uint16_t)sim->eth_hosts[idx];
	info->nb_hosts = ho->eth_share;
	snprintf(info->host_name, sizeof(info->host_name), "%s", ho->name);
	snprintf(info->dev_name, sizeof(info->dev_name), "%s", ho->dev_name);
	info->roles = ho->eth_roles;
	memcpy(info->mac, ho->mac, 6);
	memcpy(info->peer_mac, ho->gw_mac, 6);
	info->ipv4 = ho->ip;
	info->line_rate_bps = sim->ports[ho->port].rate_bps;
	return 0;
}

uint32_t
pcc_sim_flow_count(const struct pcc_sim *sim)
{
	return sim != NULL ? sim->nb_flows : 0;
}

uint32_t
pcc_sim_flows(const struct pcc_sim *sim, struct pcc_sim_flow_info *out, uint32_t n)
{
	uint32_t i;

	if (sim == NULL || out == NULL)
		return 0;
	for (i = 0; i < n && i < sim->nb_flows; i++) {
		const struct sim_flow *f = &sim->flows[i];
		const struct sim_host *src = &sim->hosts[f->c.src], *dst = &sim->hosts[f->c.dst];
		struct pcc_sim_flow_info *o = &out[i];

		memset(o, 0, sizeof(*o));
		o->idx = i;
		snprintf(o->name, sizeof(o->name), "f%u", i);
		o->src_host = f->c.src;
		o->dst_host = f->c.dst;
		o->source = f->c.source;
		o->src_port_id = f->c.source == PCC_SIM_SRC_ENGINE ? src->eth_port : -1;
		o->dst_port_id = (dst->roles & PCC_SIM_ROLE_NP) ? dst->eth_port : -1;
		o->slot = f->c.slot;
		o->int_hdr = f->int_hdr;
		o->qpn = f->c.qpn;
		o->dst_qpn = f->c.dst_qpn;
		o->udp_sport = f->sport;
		memcpy(o->src_mac, src->mac, 6);
		memcpy(o->dst_mac, dst->mac, 6);
		o->src_ip = src->ip;
		o->dst_ip = dst->ip;
		o->size = f->c.size;
		o->start_ns = f->c.start_ns;
		o->rate_bps = f->c.rate_bps != 0 ? f->c.rate_bps : sim->ports[src->port].rate_bps;
		o->payload_len = f->c.payload;
		o->base_rtt_ns = f->base_rtt_ns;
	}
	return i;
}

uint32_t
pcc_sim_algos(const struct pcc_sim *sim, const struct pcc_sim_algo **out)
{
	if (sim == NULL || out == NULL)
		return 0;
	*out = sim->algos;
	return sim->nb_algos;
}

uint32_t
pcc_sim_mbufs_hint(const struct pcc_sim *sim)
{
	uint64_t frame = UINT64_MAX, n = 0;
	uint32_t i;

	if (sim == NULL)
		return 0;
	for (i = 0; i < sim->nb_flows; i++)
		frame = RTE_MIN(frame, (uint64_t)sim->flows[i].c.payload + 78);
	if (frame == UINT64_MAX)
		frame = 1078;
	for (i = 0; i < sim->nb_nodes; i++)
		if (sim->nodes[i].sw)
			n += sim->nodes[i].buf_size / frame + 1;
	for (i = 0; i < sim->nb_ports; i++)
		n += sim->ports[i].rate_bps / 8 * sim->ports[i].delay_ns / SIM_NS_PER_S / frame + 2;
	n += (uint64_t)sim->nb_eth * 2 * sim->scn->res.ring_size;
	return (uint32_t)RTE_MIN(n, (uint64_t)UINT32_MAX);
}

int
pcc_sim_inject(struct pcc_sim *sim, uint16_t host, struct rte_mbuf *m)
{
	if (sim == NULL || m == NULL)
		return -EINVAL;
	if (host >= sim->nb_hosts || sim->done) {
		rte_pktmbuf_free(m);
		return -ENOENT;
	}
	return sim_host_ingress(sim, host, m);
}

int
pcc_sim_host_find(const struct pcc_sim *sim, const char *name)
{
	uint32_t i;

	if (sim == NULL || name == NULL)
		return -ENOENT;
	for (i = 0; i < sim->nb_hosts; i++)
		if (strcmp(sim->hosts[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

int
pcc_sim_host_port_id(const struct pcc_sim *sim, uint16_t host)
{
	if (sim == NULL || host >= sim->nb_hosts || sim->hosts[host].eth_port < 0)
		return -ENOENT;
	return sim->hosts[host].eth_port;
}

int
pcc_sim_stats_get(const struct pcc_sim *sim, struct pcc_sim_stats *st)
{
	if (sim == NULL || st == NULL)
		return -EINVAL;
	*st = sim->st;
	st->now_ns = sim_now(sim);
	st->end_ns = sim->end;
	return 0;
}

uint32_t
pcc_sim_queue_count(const struct pcc_sim *sim)
{
	return sim != NULL ? sim->nb_queues : 0;
}

/* p's tx counts, with a frame that has ended and is not settled yet */
static void
port_tx(const struct pcc_sim *sim, const struct sim_port *p, uint64_t *pkts, uint64_t *bytes)
{
	bool ended = sim_port_lazy_ended(sim, p);

	*pkts = p->tx_pkts + (ended ? 1 : 0);
	*bytes = p->tx_bytes + (ended ? p->lazy_len : 0);
}

int
pcc_sim_queue_stats_get(const struct pcc_sim *sim, uint32_t idx, struct pcc_sim_queue_stats *st)
{
	const struct sim_port *p;

	if (sim == NULL || st == NULL || idx >= sim->nb_queues)
		return -ENOENT;
	p = &sim->ports[sim->queues[idx]];
	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", p->name);
	st->rate_bps = p->rate_bps;
	st->delay_ns = p->delay_ns;
	st->depth_bytes = p->q_bytes;
	st->depth_max = p->q_max;
	st->enq_pkts = p->enq_pkts;
	st->enq_bytes = p->enq_bytes;
	port_tx(sim, p, &st->tx_pkts, &st->tx_bytes);
	st->drops = p->drops;
	st->drop_bytes = p->drop_bytes;
	st->marks = p->marks;
	st->int_hops = p->int_hops;
	st->ifa_hops = p->ifa_hops;
	st->busy_ns = p->busy_ns;
	return 0;
}

uint32_t
pcc_sim_link_count(const struct pcc_sim *sim)
{
	return sim != NULL ? sim->nb_ports : 0;
}

int
pcc_sim_link_stats_get(const struct pcc_sim *sim, uint32_t idx, struct pcc_sim_link_stats *st)
{
	const struct sim_port *p;
	const struct sim_node *n;

	if (sim == NULL || st == NULL || idx >= sim->nb_ports)
		return -ENOENT;
	p = &sim->ports[idx];
	n = &sim->nodes[p->node];
	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", p->name);
	st->rate_bps = p->rate_bps;
	st->delay_ns = p->delay_ns;
	port_tx(sim, p, &st->tx_pkts, &st->tx_bytes);
	st->busy_ns = p->busy_ns;
	st->backlog_max = n->sw ? p->q_max : sim->hosts[n->host].backlog_max;
	return 0;
}

int
pcc_sim_flow_stats_get(const struct pcc_sim *sim, uint32_t idx, struct pcc_sim_flow_stats *st)
{
	if (sim == NULL || st == NULL || idx >= sim->nb_flows)
		return -ENOENT;
	*st = sim->flows[idx].st;
	return 0;
}

const char *
pcc_sim_output_dir(const struct pcc_sim *sim)
{
	return sim != NULL ? sim->outdir : "";
}
