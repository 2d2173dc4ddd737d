/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Base RTTs from the topology (doc/simulator.md, "Base RTT"): per flow,
 * the propagation delay of every link both ways, plus one data frame
 * serialized on every hop of the way there and one ACK on every hop of
 * the way back, no queueing.  The HPCC reference (third.cc) computes its
 * T the same way from its topology, with the payload for the frame and
 * no ACK (6.24 us on the dumbbell, ours 6.27 us, 6.29 us with INT).
 */

#include <stdint.h>

#include <pcc_proto.h>

#include "sim_internal.h"

/* ETH + IPv4 + UDP + BTH + RETH + ICRC around the payload of a data
 * frame (1000 B of payload: 1074 B), and an ACK (BTH + AETH). */
#define SIM_DATA_OVERHEAD (14 + 20 + 8 + PCC_BTH_LEN + PCC_RETH_LEN + PCC_ICRC_LEN)
#define SIM_ACK_LEN (14 + 20 + 8 + PCC_BTH_LEN + PCC_AETH_LEN + PCC_ICRC_LEN)
#define SIM_RTT_MAX_HOPS 64

/* One way from host src to host dst with frames of bytes, in ps; 0 if
 * there is no path.  ECMP ties: the first next hop (all are as long). */
static uint64_t
one_way_ps(const struct pcc_sim *sim, uint32_t src, uint32_t dst, uint64_t bytes)
{
	uint32_t port = sim->hosts[src].port, node, hops;
	uint64_t ps = 0;

	for (hops = 0; hops < SIM_RTT_MAX_HOPS; hops++) {
		const struct sim_port *p = &sim->ports[port];
		const struct sim_route *r;

		ps += p->delay_ns * 1000 +
				(bytes * 8 * UINT64_C(1000000000000) + p->rate_bps / 2) /
						p->rate_bps;
		node = p->peer_node;
		if (node == sim->hosts[dst].node)
			return ps;
		if (!sim->nodes[node].sw)
			return 0;
		r = &sim->routes[(size_t)(node - sim->nb_hosts) * sim->nb_hosts + dst];
		if (r->n == 0)
			return 0;
		port = sim->route_ports[r->off];
	}
	return 0;
}

void
sim_base_rtt_init(struct pcc_sim *sim)
{
	uint32_t i;

	for (i = 0; i < sim->nb_flows; i++) {
		struct sim_flow *f = &sim->flows[i];
		uint64_t intl = f->int_hdr ? PCC_INT_HDR_LEN : 0;
		uint64_t there = one_way_ps(
				sim, f->c.src, f->c.dst, f->c.payload + SIM_DATA_OVERHEAD + intl);
		uint64_t back = one_way_ps(sim, f->c.dst, f->c.src, SIM_ACK_LEN + intl);

		f->base_rtt_ns = there == 0 || back == 0 ? 0 : (there + back + 500) / 1000;
	}
}

uint64_t
pcc_sim_base_rtt_ns(const struct pcc_sim *sim, uint8_t slot)
{
	uint64_t m = 0;
	uint32_t i;

	if (sim == NULL)
		return 0;
	if (sim->scn->base_rtt_ns != 0)
		return sim->scn->base_rtt_ns;
	for (i = 0; i < sim->nb_flows; i++)
		if (sim->flows[i].c.slot == slot && sim->flows[i].base_rtt_ns > m)
			m = sim->flows[i].base_rtt_ns;
	return m;
}
