/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Probes at the hosts: which flow an IFA probe belongs to, and the
 * hardware NP's answers (the model's RTT probe responder for CCMAD and
 * IFA probes); what the engine's NP answers is handed to its port by
 * sim_host.c.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "sim_internal.h"

/* ---- IFA probes --------------------------------------------------------------------- */

/* The probe MAD an IFA1/IFA2 frame carries (doc/wire.md 8.7, 9.4). */
struct ifa_probe {
	uint32_t ifa_off; /* IFA2 header (Flags at + 2), or IFA1 header */
	uint32_t mad_off;
	struct pcc_probe p;
};

/* PCC_PKT_PROBE_REQ or _RESP for the MAD after the IFA stack, or < 0. */
static int
ifa_probe_get(const struct pcc_sim *sim, const struct rte_mbuf *m, const struct pcc_pkt_info *info,
		struct ifa_probe *ip)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = m->data_len, off;
	struct pcc_ifa2_info ii;
	struct pcc_ifa1_hdr h;

	if (m->nb_segs != 1)
		return -EINVAL;
	if (info->kind == PCC_PKT_IFA2) {
		if (pcc_ifa2_parse(f, len, info->ip_proto, &ii) != 0)
			return -EINVAL;
		ip->ifa_off = ii.ifa_off;
		off = ii.payload_off;
	} else if (info->kind == PCC_PKT_IFA1) {
		off = (uint32_t)info->l4_off + PCC_UDP_HDR_LEN;
		if (off > len ||
				pcc_ifa1_parse(f + off, len - off, sim->popts.ifa1_marker, &h) != 0)
			return -EINVAL;
		ip->ifa_off = off;
		off += h.cur_len;
	} else {
		return -EINVAL;
	}
	if (off > len)
		return -EINVAL;
	ip->mad_off = off;
	return pcc_probe_mad_parse(f + off, len - off, &ip->p, NULL);
}

/*
 * The flow of an IFA probe entering at host h (request: h is its source;
 * response: its receiver; the MAD's flow tag is the sender's QPN), counted
 * as CCMAD probes are, and where it goes; SIM_NONE for other IFA frames.
 */
uint32_t
sim_ifa_probe_flow(struct pcc_sim *sim, uint32_t h, const struct rte_mbuf *m,
		const struct pcc_pkt_info *info, uint32_t *dst)
{
	struct ifa_probe ip;
	int kind = ifa_probe_get(sim, m, info, &ip);
	bool req = kind == PCC_PKT_PROBE_REQ;
	struct sim_flow *f;
	uint32_t fi;

	if (kind != PCC_PKT_PROBE_REQ && kind != PCC_PKT_PROBE_RESP)
		return SIM_NONE;
	fi = sim_map_get(sim, req ? SIM_MAP_SRC_QPN : SIM_MAP_DST_QPN, h, ip.p.flow_tag);
	if (fi == SIM_NONE)
		return SIM_NONE;
	f = &sim->flows[fi];
	*dst = req ? f->c.dst : f->c.src;
	if (req) {
		f->st.probe_req++;
		sim->st.probe_req++;
	} else {
		f->st.probe_resp++;
		sim->st.probe_resp++;
	}
	return fi;
}

/* ---- The hardware NP's answers ------------------------------------------------- */

void
sim_hw_probe(struct pcc_sim *sim, uint32_t h, struct sim_pkt *pkt)
{
	const struct sim_host_conf *hc = &sim->scn->host;
	struct pcc_pkt_info info;
	const uint8_t *custom = NULL;
	struct pcc_l3_spec l3;
	struct pcc_probe p;
	struct rte_mbuf *m;
	uint64_t now = sim_now(sim);

	if (pkt->m->nb_segs != 1 || pcc_parse_mbuf(pkt->m, &sim->popts, &info) != 0 ||
			pcc_probe_parse(rte_pktmbuf_mtod(pkt->m, void *), &info, &p, &custom) !=
					0) {
		sim->st.bad_pkts++;
		sim_pkt_free(sim, pkt);
		return;
	}
	p.np_recv_ts = now;
	p.np_send_ts = now + hc->np_turnaround_ns;
	memset(p.user, 0, sizeof(p.user));
	p.flags |= PCC_PROBE_F_HW_NP;
	p.resp_ts = pcc_probe_resp_ts(
			p.resp_ts, p.np_send_ts, hc->probe_ts_size, hc->probe_ts_shift);
	sim_l3_between(sim, h, pkt->src, info.udp_sport, info.dscp, PCC_ECN_NOT_ECT, &l3);
	m = sim_mbuf_alloc(sim);
	if (m != NULL &&
			sim_mbuf_build_done(sim, m,
					pcc_probe_resp_build(rte_pktmbuf_mtod(m, void *),
							rte_pktmbuf_tailroom(m), &l3,
							info.deth_sqpn, &p, custom)) == 0) {
		if (pkt->flow != SIM_NONE)
			sim->flows[pkt->flow].st.probe_resp++;
		sim->st.probe_resp++;
		sim_model_tx(sim, h, pkt->src, pkt->flow, m, PCC_PKT_PROBE_RESP, sim_l3_hash(&l3),
				hc->np_turnaround_ns);
	}
	sim_pkt_free(sim, pkt);
}

bool
sim_probe_wants_hw(const struct sim_pkt *pkt)
{
	struct pcc_probe p;
	struct pcc_pkt_info info;

	if (pkt->m->nb_segs != 1 || pcc_parse_mbuf(pkt->m, NULL, &info) != 0 ||
			pcc_probe_parse(rte_pktmbuf_mtod(pkt->m, void *), &info, &p, NULL) != 0)
		return false;
	return (p.flags & PCC_PROBE_F_HW_NP) != 0;
}

struct rte_mbuf *
sim_probe_frame_take(struct pcc_sim *sim, struct sim_pkt *pkt)
{
	struct rte_mbuf *m = pkt->m;

	if (RTE_MBUF_DIRECT(m) && rte_mbuf_refcnt_read(m) == 1) {
		pkt->m = NULL;
		return m;
	}
	m = rte_pktmbuf_copy(pkt->m, sim->mbuf_pool, 0, UINT32_MAX);
	if (m == NULL && sim_mbuf_late_flush(sim) > 0)
		m = rte_pktmbuf_copy(pkt->m, sim->mbuf_pool, 0, UINT32_MAX);
	if (m == NULL)
		sim->st.pool_empty++;
	return m;
}

/* Addresses swapped, the request's DSCP, not ECN-capable, TTL 64. */
static void
turn_ipv4(uint8_t *f, const struct pcc_pkt_info *info)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + info->l3_off);
	rte_be32_t a = ip->src_addr;
	uint8_t mac[6];

	memcpy(mac, f, 6);
	memcpy(f, f + 6, 6);
	memcpy(f + 6, mac, 6);
	ip->src_addr = ip->dst_addr;
	ip->dst_addr = a;
	ip->type_of_service &= 0xFC;
	ip->time_to_live = 64;
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

/*
 * The hardware NP's answer to an IFA probe request: the request turned
 * around in place as the engine's NP does (hop stack kept, IFA2 TA flag
 * set, MAD made a GET_RESP with the hardware NP's timestamps), sent after
 * np_turnaround.  IPv4 only (the model's hosts are IPv4).
 */
static void
hw_ifa(struct pcc_sim *sim, uint32_t h, struct sim_pkt *pkt, const struct pcc_pkt_info *info,
		struct ifa_probe *ip)
{
	const struct sim_host_conf *hc = &sim->scn->host;
	uint64_t now = sim_now(sim);
	struct rte_mbuf *m = NULL;
	uint8_t *f;

	if (!(info->flags & PCC_PKT_F_IPV6))
		m = sim_probe_frame_take(sim, pkt);
	sim_pkt_free(sim, pkt);
	if (m == NULL || m->nb_segs != 1) {
		sim->st.ifa_dropped++;
		rte_pktmbuf_free(m);
		return;
	}
	m->ol_flags = 0; /* a direct mbuf: no departure stamp, no offloads */
	f = rte_pktmbuf_mtod(m, uint8_t *);
	ip->p.np_recv_ts = now;
	ip->p.np_send_ts = now + hc->np_turnaround_ns;
	ip->p.flags |= PCC_PROBE_F_HW_NP;
	memset(ip->p.user, 0, sizeof(ip->p.user));
	ip->p.resp_ts = pcc_probe_resp_ts(
			ip->p.resp_ts, ip->p.np_send_ts, hc->probe_ts_size, hc->probe_ts_shift);
	turn_ipv4(f, info);
	if (info->kind == PCC_PKT_IFA2)
		f[ip->ifa_off + 2] |= PCC_IFA2_F_TA;
	/* the custom header stays in place */
	pcc_probe_mad_build(f + ip->mad_off, m->data_len - ip->mad_off, true, &ip->p,
			f + ip->mad_off + PCC_PROBE_CUSTOM_OFF);
	f[info->l4_off + 6] = 0; /* UDP checksum: none over IPv4 (doc/wire.md 8.4) */
	f[info->l4_off + 7] = 0;
	sim_host_ingress_at(sim, h, m, ip->p.np_send_ts);
}

/*
 * IFA at a host: a probe request for the hardware NP goes to the model's
 * answer; the rest to the engine port (RP, NP or both: the engine tells a
 * request from a response), or is dropped and counted without one.
 */
void
sim_rx_ifa(struct pcc_sim *sim, uint32_t h, struct sim_pkt *pkt)
{
	struct sim_host *ho = &sim->hosts[h];
	bool engine_np = (ho->roles & PCC_SIM_ROLE_NP) != 0;
	struct pcc_pkt_info info;
	struct ifa_probe ip;
	bool hw = false;

	if (pcc_parse_mbuf(pkt->m, &sim->popts, &info) == 0 &&
			ifa_probe_get(sim, pkt->m, &info, &ip) == PCC_PKT_PROBE_REQ)
		hw = !engine_np || (ip.p.flags & PCC_PROBE_F_HW_NP) != 0;
	if (hw) {
		hw_ifa(sim, h, pkt, &info, &ip);
		return;
	}
	if (ho->eth_port < 0) {
		sim->st.ifa_dropped++;
		sim_pkt_free(sim, pkt);
		return;
	}
	sim_to_engine(sim, ho, pkt);
}
