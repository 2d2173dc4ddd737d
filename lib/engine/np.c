/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Notification point: a CNP for a CE-marked RoCEv2 data packet.
 *
 * The CNP goes back to the sender: L2 and L3 addresses swapped, same VLAN
 * tag and UDP source port, DSCP np.cnp_dscp, not ECN-capable.  Its DestQP
 * must be the sender's QPN, which a data packet does not carry; the rule
 * for now is sqpn = (DestQP + np.sqpn_offset) mod 2^24 (the generator
 * uses the same QPN on both ends, so offset 0).  Every marked packet gets
 * a CNP; per-QP coalescing comes with the NP runner.
 */

#include <string.h>

#include <rte_mbuf.h>

#include "engine_internal.h"

/* Can m's buffer be overwritten in place? */
static inline bool
mbuf_reusable(const struct rte_mbuf *m)
{
	return RTE_MBUF_DIRECT(m) && m->nb_segs == 1 && rte_mbuf_refcnt_read(m) == 1;
}

struct rte_mbuf *
eng_np_cnp(const struct pcc_engine *e, const struct eng_rxq *q, struct pcc_engine_port_stats *pc,
		struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	uint8_t macs[2 * RTE_ETHER_ADDR_LEN];
	const uint8_t *l2;
	struct pcc_l3_spec l3;
	struct rte_mbuf *c;
	uint32_t dqpn;
	int len;

	l2 = rte_pktmbuf_read(m, 0, sizeof(macs), macs);
	if (l2 == NULL) {
		/* cannot happen after a successful parse */
		eng_ctr_add(&pc->build_err, 1);
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(&l3, 0, sizeof(l3));
	memcpy(l3.dst_mac, l2 + RTE_ETHER_ADDR_LEN, RTE_ETHER_ADDR_LEN);
	memcpy(l3.src_mac, l2, RTE_ETHER_ADDR_LEN);
	l3.vlan = (info->flags & PCC_PKT_F_VLAN) != 0;
	l3.vlan_tci = info->vlan_tci;
	l3.ipv6 = (info->flags & PCC_PKT_F_IPV6) != 0;
	if (l3.ipv6) {
		memcpy(l3.src.v6, info->dst.v6, sizeof(l3.src.v6));
		memcpy(l3.dst.v6, info->src.v6, sizeof(l3.dst.v6));
	} else {
		l3.src.v4 = info->dst.v4;
		l3.dst.v4 = info->src.v4;
	}
	l3.dscp = e->conf.np.cnp_dscp;
	l3.ecn = PCC_ECN_NOT_ECT;
	l3.udp_sport = info->udp_sport;
	dqpn = (info->dqpn + e->conf.np.sqpn_offset) & PCC_QPN_MASK;

	if (mbuf_reusable(m)) {
		c = m;
		rte_pktmbuf_reset(c);
	} else {
		rte_pktmbuf_free(m);
		c = rte_pktmbuf_alloc(q->mp);
		if (c == NULL) {
			eng_ctr_add(&pc->nombuf, 1);
			return NULL;
		}
	}
	len = pcc_cnp_build(rte_pktmbuf_mtod(c, void *), rte_pktmbuf_tailroom(c), &l3, dqpn);
	if (len < 0) {
		eng_ctr_add(&pc->build_err, 1);
		rte_pktmbuf_free(c);
		return NULL;
	}
	c->data_len = (uint16_t)len;
	c->pkt_len = (uint32_t)len;
	return c;
}
