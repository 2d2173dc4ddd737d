/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Hosts: what enters the fabric from a host (the engine's TX ring, or the
 * model's own sources and answers) and what a host does with what
 * arrives: the receiver's RC transport (ACK per packet or coalesced, NAK
 * on a PSN gap, INT echoed), its NP (the hardware-NP model: CNP on CE with
 * a per-QP minimum gap, RTT probe responder for CCMAD and IFA probes; or
 * the engine's NP runner on the host's port), and hand-over of everything
 * else, IFA answers included, to the host's engine port.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "sim_internal.h"

/* ---- Addressing --------------------------------------------------------------- */

/* The host of address ip (10.1.0.0 + index + 1), SIM_NONE if none. */
static uint32_t
host_by_ip(const struct pcc_sim *sim, const struct pcc_pkt_info *info, uint32_t ip)
{
	if ((info->flags & PCC_PKT_F_IPV6) || (ip & 0xFFFF0000u) != 0x0A010000u)
		return SIM_NONE;
	ip &= 0xFFFF;
	return ip >= 1 && ip <= sim->nb_hosts ? ip - 1 : SIM_NONE;
}

/* Which host of the shared port led by `lead` sent a frame: its source
 * address's, if that host is on the port; SIM_NONE if not. */
static uint32_t
shared_port_src(const struct pcc_sim *sim, uint32_t lead, const struct pcc_pkt_info *info)
{
	uint32_t h = host_by_ip(sim, info, info->src.v4);

	if (h == SIM_NONE || sim->hosts[h].eth_port < 0 || sim->hosts[h].eth_lead != lead)
		return SIM_NONE;
	return h;
}

static uint32_t
host_by_mac(const struct pcc_sim *sim, const struct rte_mbuf *m)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t idx;

	if (m->data_len < 6 || d[0] != 0x02 || d[1] != 0x50 || d[2] != 0x00)
		return SIM_NONE;
	idx = ((uint32_t)d[3] << 16) | ((uint32_t)d[4] << 8) | d[5];
	return idx >= 1 && idx <= sim->nb_hosts ? idx - 1 : SIM_NONE;
}

void
sim_l3_between(const struct pcc_sim *sim, uint32_t from, uint32_t to, uint16_t sport, uint8_t dscp,
		uint8_t ecn, struct pcc_l3_spec *l3)
{
	memset(l3, 0, sizeof(*l3));
	memcpy(l3->src_mac, sim->hosts[from].mac, 6);
	memcpy(l3->dst_mac, sim->hosts[to].mac, 6);
	l3->src.v4 = sim->hosts[from].ip;
	l3->dst.v4 = sim->hosts[to].ip;
	l3->dscp = dscp;
	l3->ecn = ecn;
	l3->ttl = 64;
	l3->udp_sport = sport;
}

uint32_t
sim_l3_hash(const struct pcc_l3_spec *l3)
{
	struct pcc_pkt_info info;

	memset(&info, 0, sizeof(info));
	info.src.v4 = l3->src.v4;
	info.dst.v4 = l3->dst.v4;
	return sim_tuple_hash(&info, l3->udp_sport, PCC_ROCE_UDP_PORT);
}

/* ---- Into the fabric ------------------------------------------------------------ */

/*
 * Into host h's NIC queue at max(now, not_before): a frame stamped with a
 * later departure (PCC_SIM_TX_DEPART_NAME) waits for it, and what comes
 * after it waits behind it (the NIC's send queue is FIFO).
 */
static void
host_send(struct pcc_sim *sim, uint32_t h, struct sim_pkt *pkt, uint64_t not_before)
{
	struct sim_host *ho = &sim->hosts[h];
	uint64_t now = sim_now(sim), t = not_before > now ? not_before : now;

	if (ho->delayed.tail != NULL && ho->delayed.tail->t > t)
		t = ho->delayed.tail->t;
	if (t == now && ho->delayed.head == NULL) {
		sim_port_send(sim, ho->port, pkt);
		return;
	}
	pkt->t = t;
	sim_fifo_push(&ho->delayed, pkt);
	if (!ho->delayed_ev) {
		ho->delayed_ev = true;
		sim_ev_push(sim, ho->delayed.head->t, SIM_EV_HOST_DELAYED, h);
	}
}

/* Whether m, entering the model, is the sim's pool's and held by nobody
 * else (its packet then SIM_PKT_F_OWN): the model's own frames, and the
 * engine's made from them (an answer in place), once transmitted. */
static inline bool
sim_mbuf_own(const struct pcc_sim *sim, const struct rte_mbuf *m)
{
	return m->pool == sim->mbuf_pool && RTE_MBUF_DIRECT(m) && rte_mbuf_refcnt_read(m) == 1;
}

/* m into the model at host h; by_src: h leads a shared port, and m is
 * the host's of the port its source address names */
static int
host_ingress(struct pcc_sim *sim, uint32_t h, struct rte_mbuf *m, uint64_t not_before, bool by_src)
{
	struct pcc_pkt_info info;
	uint32_t flow = SIM_NONE, dst = SIM_NONE;
	struct sim_pkt *pkt;
	uint16_t sport, dport;

	if (pcc_parse_mbuf(m, &sim->popts, &info) != 0) {
		sim->st.bad_pkts++;
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	if (by_src) {
		/* a port several hosts share: the frame's source address says
		 * whose NIC sends it */
		h = shared_port_src(sim, h, &info);
		if (h == SIM_NONE) {
			sim->st.unroutable++;
			rte_pktmbuf_free(m);
			return -EHOSTUNREACH;
		}
	}
	switch (info.kind) {
	case PCC_PKT_ROCE_DATA:
		flow = sim_map_get(sim, SIM_MAP_SRC_DQPN, h, info.dqpn);
		if (flow == SIM_NONE)
			break;
		dst = sim->flows[flow].c.dst;
		sim->flows[flow].st.tx_pkts++;
		sim->flows[flow].st.tx_bytes += m->pkt_len;
		break;
	case PCC_PKT_PROBE_REQ:
		flow = sim_map_get(sim, SIM_MAP_SRC_QPN, h, info.deth_sqpn);
		if (flow == SIM_NONE)
			break;
		dst = sim->flows[flow].c.dst;
		sim->flows[flow].st.probe_req++;
		sim->st.probe_req++;
		break;
	case PCC_PKT_ROCE_ACK:
	case PCC_PKT_ROCE_NAK:
	case PCC_PKT_CNP:
	case PCC_PKT_PROBE_RESP:
		flow = sim_map_get(sim, SIM_MAP_DST_QPN, h, info.dqpn);
		if (flow != SIM_NONE) {
			struct sim_flow *f = &sim->flows[flow];

			dst = f->c.src;
			if (info.kind == PCC_PKT_CNP) {
				f->st.cnps++;
				sim->st.cnps++;
				sim_out_cnp(sim, flow, true);
			} else if (info.kind == PCC_PKT_PROBE_RESP) {
				f->st.probe_resp++;
				sim->st.probe_resp++;
			}
		}
		break;
	case PCC_PKT_IFA1:
	case PCC_PKT_IFA2:
		flow = sim_ifa_probe_flow(sim, h, m, &info, &dst);
		break;
	default:
		break;
	}
	if (flow == SIM_NONE &&
			(info.kind == PCC_PKT_ROCE_DATA || info.kind == PCC_PKT_PROBE_REQ)) {
		sim->st.unknown_flow++;
		rte_pktmbuf_free(m);
		return -ENOENT;
	}
	if (dst == SIM_NONE)
		dst = host_by_ip(sim, &info, info.dst.v4);
	if (dst == SIM_NONE)
		dst = host_by_mac(sim, m);
	if (dst == SIM_NONE || dst == h) {
		sim->st.unroutable++;
		rte_pktmbuf_free(m);
		return -EHOSTUNREACH;
	}
	pkt = sim_pkt_alloc(sim);
	if (pkt == NULL) {
		rte_pktmbuf_free(m);
		return -ENOBUFS;
	}
	pkt->m = m;
	pkt->len = m->pkt_len;
	pkt->kind = info.kind;
	if (sim_mbuf_own(sim, m))
		pkt->flags |= SIM_PKT_F_OWN;
	pkt->flow = flow;
	pkt->src = (uint16_t)h;
	pkt->dst = (uint16_t)dst;
	pkt->l3_off = info.l3_off;
	if (info.ecn == PCC_ECN_ECT0 || info.ecn == PCC_ECN_ECT1)
		pkt->flags |= SIM_PKT_F_ECT;
	if (info.kind == PCC_PKT_ROCE_DATA) {
		/* for the receiver: no second parse */
		pkt->data.psn = info.psn;
		pkt->data.payload_len = info.payload_len;
		pkt->data.payload_off = info.payload_off;
		pkt->data.opcode = info.opcode;
		pkt->data.ecn = info.ecn;
		pkt->data.dscp = info.dscp;
		pkt->data.bth_flags = info.bth_flags;
		pkt->data.ackreq = info.ackreq;
	}
	if (info.kind == PCC_PKT_ROCE_DATA && (info.bth_flags & PCC_BTH_INT) && m->nb_segs == 1 &&
			info.payload_len >= PCC_INT_HDR_LEN) {
		pkt->int_off = info.payload_off;
		pkt->icrc_off = (uint16_t)(info.payload_off + info.payload_len + info.pad_cnt);
		if ((uint32_t)pkt->icrc_off + PCC_ICRC_LEN <= m->data_len)
			pkt->flags |= SIM_PKT_F_INT;
	}
	sport = info.udp_sport;
	dport = info.udp_dport;
	if (info.kind == PCC_PKT_IFA2) {
		if (m->nb_segs == 1)
			pkt->flags |= SIM_PKT_F_IFA2;
		if ((uint32_t)info.l4_off + 4 <= m->data_len) {
			const uint8_t *u = rte_pktmbuf_mtod_offset(m, const uint8_t *, info.l4_off);

			sport = (uint16_t)((u[0] << 8) | u[1]);
			dport = (uint16_t)((u[2] << 8) | u[3]);
		}
	}
	pkt->hash = sim_tuple_hash(&info, sport, dport);
	sim->st.pkts_in++;
	host_send(sim, h, pkt, not_before);
	return 0;
}

int
sim_host_ingress_at(struct pcc_sim *sim, uint32_t h, struct rte_mbuf *m, uint64_t not_before)
{
	return host_ingress(sim, h, m, not_before, false);
}

/* the departure time the engine asked for (send-on-timestamp), else 0 */
static inline uint64_t
depart_of(const struct pcc_sim *sim, const struct rte_mbuf *m)
{
	return (m->ol_flags & sim->depart_flag) ?
			*RTE_MBUF_DYNFIELD(m, sim->depart_off, uint64_t *) :
			0;
}

int
sim_host_ingress(struct pcc_sim *sim, uint32_t h, struct rte_mbuf *m)
{
	return host_ingress(sim, h, m, depart_of(sim, m), false);
}

int
sim_host_from_engine(struct pcc_sim *sim, uint32_t lead, struct rte_mbuf *m)
{
	return host_ingress(sim, lead, m, depart_of(sim, m), sim->hosts[lead].eth_share > 1);
}

/* A packet the model built at host `from` for flow fi, sent now or later;
 * hash: its 5-tuple's (sim_l3_hash()). */
void
sim_model_tx(struct pcc_sim *sim, uint32_t from, uint32_t to, uint32_t fi, struct rte_mbuf *m,
		uint8_t kind, uint32_t hash, uint64_t delay)
{
	struct sim_host *ho = &sim->hosts[from];
	struct sim_pkt *pkt = sim_pkt_alloc(sim);

	if (pkt == NULL) {
		rte_pktmbuf_free(m);
		return;
	}
	pkt->m = m;
	pkt->len = m->pkt_len;
	pkt->kind = kind;
	pkt->flow = fi;
	pkt->src = (uint16_t)from;
	pkt->dst = (uint16_t)to;
	pkt->l3_off = PCC_ETH_HDR_LEN;
	pkt->hash = hash;
	if (sim_mbuf_own(sim, m))
		pkt->flags |= SIM_PKT_F_OWN;
	sim->st.pkts_in++;
	if (delay == 0) {
		sim_port_send(sim, ho->port, pkt);
		return;
	}
	pkt->t = sim_now(sim) + delay;
	sim_fifo_push(&ho->delayed, pkt);
	if (!ho->delayed_ev) {
		ho->delayed_ev = true;
		sim_ev_push(sim, pkt->t, SIM_EV_HOST_DELAYED, from);
	}
}

void
sim_host_delayed(struct pcc_sim *sim, uint32_t h)
{
	struct sim_host *ho = &sim->hosts[h];
	uint64_t now = sim_now(sim);

	ho->delayed_ev = false;
	while (ho->delayed.head != NULL && ho->delayed.head->t <= now)
		sim_port_send(sim, ho->port, sim_fifo_pop(&ho->delayed));
	if (ho->delayed.head != NULL) {
		ho->delayed_ev = true;
		sim_ev_push(sim, ho->delayed.head->t, SIM_EV_HOST_DELAYED, h);
	}
}

struct rte_mbuf *
sim_mbuf_alloc(struct pcc_sim *sim)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(sim->mbuf_pool);

	if (m == NULL && sim_mbuf_late_flush(sim) > 0)
		m = rte_pktmbuf_alloc(sim->mbuf_pool);
	if (m == NULL)
		sim->st.pool_empty++;
	return m;
}

int
sim_mbuf_build_done(struct pcc_sim *sim, struct rte_mbuf *m, int len)
{
	if (len < 0) {
		/* mbufs are sized for every packet the model builds */
		SIM_LOG(ERR, "cannot build a packet: %s", pcc_proto_strerror(len));
		rte_pktmbuf_free(m);
		return -1;
	}
	RTE_SET_USED(sim);
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	return 0;
}

/* ---- Receiver: RC transport and the hardware NP ------------------------------------ */

static void
send_ack(struct pcc_sim *sim, uint32_t fi, bool nak, uint32_t psn)
{
	struct sim_flow *f = &sim->flows[fi];
	struct rte_mbuf *m;

	if (!nak) {
		f->unacked = 0;
		f->st.acks++;
		sim->st.acks++;
	} else {
		f->st.naks++;
		sim->st.naks++;
	}
	m = sim_mbuf_alloc(sim);
	if (m == NULL)
		return;
	if (sim_mbuf_build_done(sim, m,
			    sim_ack_build(sim, fi, nak, psn, rte_pktmbuf_mtod(m, void *),
					    rte_pktmbuf_tailroom(m))) != 0)
		return;
	sim_model_tx(sim, f->c.dst, f->c.src, fi, m, nak ? PCC_PKT_ROCE_NAK : PCC_PKT_ROCE_ACK,
			f->back_hash, 0);
}

static void
send_cnp(struct pcc_sim *sim, uint32_t fi)
{
	struct sim_flow *f = &sim->flows[fi];
	struct rte_mbuf *m;

	f->cnp_any = true;
	f->last_cnp_ns = sim_now(sim);
	f->st.cnps++;
	sim->st.cnps++;
	sim_out_cnp(sim, fi, false);
	m = sim_mbuf_alloc(sim);
	if (m == NULL)
		return;
	if (sim_mbuf_build_done(sim, m,
			    sim_cnp_build(sim, fi, rte_pktmbuf_mtod(m, void *),
					    rte_pktmbuf_tailroom(m))) != 0)
		return;
	sim_model_tx(sim, f->c.dst, f->c.src, fi, m, PCC_PKT_CNP, f->back_hash, 0);
}

void
sim_flow_ack_timer(struct pcc_sim *sim, uint32_t fi)
{
	struct sim_flow *f = &sim->flows[fi];
	uint64_t due = f->ack_first_ns + sim->scn->host.ack_timeout_ns;

	f->ack_timer = false;
	if (f->unacked == 0)
		return;
	if (sim_now(sim) >= due) {
		send_ack(sim, fi, false, f->last_psn);
		return;
	}
	f->ack_timer = true;
	sim_ev_push(sim, due, SIM_EV_ACK_TIMER, fi);
}

/* RC opcodes that end a message (SEND/RDMA WRITE LAST and ONLY). */
static bool
msg_end(uint8_t opcode)
{
	uint8_t t = opcode >> 5, op = opcode & 0x1F;

	if (t != PCC_BTH_TRANSPORT_RC && t != PCC_BTH_TRANSPORT_UC)
		return false;
	return op == 0x02 || op == 0x03 || op == 0x04 || op == 0x05 || op == 0x08 || op == 0x09 ||
			op == 0x0A || op == 0x0B || op == 0x16 || op == 0x17;
}

static void
flow_done(struct pcc_sim *sim, struct sim_flow *f, uint64_t now)
{
	f->st.done = true;
	f->st.fct_ns = now > f->c.start_ns ? now - f->c.start_ns : 0;
	if (sim->flows_finite_left != SIM_NONE && sim->flows_finite_left > 0 &&
			--sim->flows_finite_left == 0 && sim->scn->res.end_on_completion &&
			now < sim->end)
		sim->end = now;
}

void
sim_to_engine(struct pcc_sim *sim, struct sim_host *ho, struct sim_pkt *pkt)
{
	if (ho->eth_port < 0) {
		sim_pkt_free(sim, pkt);
		return;
	}
	pkt->t = sim_now(sim);
	/* a shared port's frames wait in its lead's staging, in arrival order */
	sim_fifo_push(&sim->hosts[ho->eth_lead].rx_stage, pkt);
}

static void
rx_data(struct pcc_sim *sim, uint32_t h, struct sim_pkt *pkt)
{
	const struct sim_host_conf *hc = &sim->scn->host;
	struct sim_host *ho = &sim->hosts[h];
	const struct sim_data_info *info = &pkt->data;
	uint64_t now = sim_now(sim);
	struct sim_flow *f;
	uint32_t fi = pkt->flow, d, payload;
	bool ce, engine_np = (ho->roles & PCC_SIM_ROLE_NP) != 0, ack;

	/* what its parse at ingress found (the ECN as the switches left it) */
	if (fi == SIM_NONE) {
		sim->st.bad_pkts++;
		sim_pkt_free(sim, pkt);
		return;
	}
	f = &sim->flows[fi];
	ce = info->ecn == PCC_ECN_CE;
	payload = info->payload_len;
	if ((info->bth_flags & PCC_BTH_INT) && payload >= PCC_INT_HDR_LEN) {
		const void *src = rte_pktmbuf_read(
				pkt->m, info->payload_off, PCC_INT_HDR_LEN, f->int_echo);

		if (src != NULL && src != f->int_echo)
			memcpy(f->int_echo, src, PCC_INT_HDR_LEN);
		f->has_int = true;
		payload -= PCC_INT_HDR_LEN;
	} else {
		f->has_int = false;
	}
	f->st.rx_pkts++;
	f->st.rx_bytes += pkt->len;
	f->st.rx_payload += payload;
	if (ce)
		f->st.ce_rx++;
	if (f->st.first_rx_ns == 0)
		f->st.first_rx_ns = now;
	f->st.last_rx_ns = now;
	f->dscp = info->dscp;
	/* PSN: resynchronise after a gap (NAK once), ignore duplicates */
	if (!f->psn_valid) {
		f->psn_valid = true;
		f->exp_psn = info->psn;
	}
	d = (info->psn - f->exp_psn) & PCC_PSN_MASK;
	if (d != 0 && d < (1u << 23))
		send_ack(sim, fi, true, f->exp_psn);
	if (d < (1u << 23))
		f->exp_psn = (info->psn + 1) & PCC_PSN_MASK;
	f->last_psn = info->psn;
	if (msg_end(info->opcode))
		f->msn = (f->msn + 1) & PCC_QPN_MASK;
	if (f->c.size != 0 && !f->st.done && f->st.rx_payload >= f->c.size)
		flow_done(sim, f, now);
	/* NP first: the CNP leaves no later than the ACK */
	if (ce && !engine_np && (!f->cnp_any || now - f->last_cnp_ns >= hc->cnp_gap_ns))
		send_cnp(sim, fi);
	f->unacked++;
	if (f->unacked == 1)
		f->ack_first_ns = now;
	ack = f->unacked >= hc->ack_every || info->ackreq || f->st.done;
	if (ack)
		send_ack(sim, fi, false, f->last_psn);
	else if (hc->ack_timeout_ns > 0 && !f->ack_timer) {
		f->ack_timer = true;
		sim_ev_push(sim, f->ack_first_ns + hc->ack_timeout_ns, SIM_EV_ACK_TIMER, fi);
	}
	if (engine_np && (ce || hc->np_rx == SIM_NP_RX_ALL))
		sim_to_engine(sim, ho, pkt);
	else
		sim_pkt_free(sim, pkt);
}

void
sim_host_rx(struct pcc_sim *sim, uint32_t h, struct sim_pkt *pkt)
{
	struct sim_host *ho = &sim->hosts[h];
	bool engine_np = (ho->roles & PCC_SIM_ROLE_NP) != 0;

	switch (pkt->kind) {
	case PCC_PKT_ROCE_DATA:
		rx_data(sim, h, pkt);
		return;
	case PCC_PKT_PROBE_REQ:
		if (!engine_np || sim_probe_wants_hw(pkt))
			sim_hw_probe(sim, h, pkt);
		else
			sim_to_engine(sim, ho, pkt);
		return;
	case PCC_PKT_IFA1:
	case PCC_PKT_IFA2:
		sim_rx_ifa(sim, h, pkt);
		return;
	default:
		sim_to_engine(sim, ho, pkt);
		return;
	}
}

/* ---- Model sources --------------------------------------------------------------- */

void
sim_flow_src(struct pcc_sim *sim, uint32_t fi)
{
	struct sim_flow *f = &sim->flows[fi];
	uint64_t rate = f->c.rate_bps != 0 ? f->c.rate_bps :
					     sim->ports[sim->hosts[f->c.src].port].rate_bps;
	uint32_t payload = f->c.payload, len;
	struct pcc_roce_spec r;
	struct pcc_l3_spec l3;
	struct rte_mbuf *m;
	bool first, last;

	if (f->c.size != 0 && f->src_sent >= f->c.size)
		return;
	if (f->c.size != 0 && f->c.size - f->src_sent < payload)
		payload = (uint32_t)(f->c.size - f->src_sent);
	first = f->src_sent == 0;
	last = f->c.size != 0 && f->src_sent + payload >= f->c.size;
	memset(&r, 0, sizeof(r));
	if (f->c.size == 0 || (first && last))
		r.bth.opcode = PCC_OP_RC_SEND_ONLY;
	else if (first)
		r.bth.opcode = PCC_OP_RC_SEND_FIRST;
	else if (last)
		r.bth.opcode = 0x02; /* RC SEND_LAST */
	else
		r.bth.opcode = 0x01; /* RC SEND_MIDDLE */
	r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r.bth.dqpn = f->c.dst_qpn;
	r.bth.psn = f->src_psn;
	r.bth.ackreq = last ? 1 : 0;
	r.payload_len = payload;
	if (f->int_hdr) {
		r.bth.flags = PCC_BTH_INT;
		r.payload_len += PCC_INT_HDR_LEN; /* zeros: an INT header with no hop */
	}
	f->src_psn = (f->src_psn + 1) & PCC_PSN_MASK;
	f->src_sent += payload;
	len = 0;
	m = sim_mbuf_alloc(sim);
	if (m != NULL && payload == f->c.payload && f->tmpl != NULL) {
		/* the flow's template with opcode, AckReq and PSN patched (ICRC too) */
		uint8_t *b = rte_pktmbuf_mtod(m, uint8_t *), old[12];

		memcpy(b, f->tmpl, f->tmpl_len);
		memcpy(old, b + SIM_TMPL_BTH_OFF, sizeof(old));
		b[SIM_TMPL_BTH_OFF] = r.bth.opcode;
		b[SIM_TMPL_BTH_OFF + 8] = (uint8_t)(r.bth.ackreq << 7);
		b[SIM_TMPL_BTH_OFF + 9] = (uint8_t)(r.bth.psn >> 16);
		b[SIM_TMPL_BTH_OFF + 10] = (uint8_t)(r.bth.psn >> 8);
		b[SIM_TMPL_BTH_OFF + 11] = (uint8_t)r.bth.psn;
		sim_icrc_patch(b, f->tmpl_len - PCC_ICRC_LEN, SIM_TMPL_BTH_OFF, old, sizeof(old));
		m->data_len = (uint16_t)f->tmpl_len;
		m->pkt_len = f->tmpl_len;
		len = m->pkt_len;
		sim_host_ingress(sim, f->c.src, m);
	} else if (m != NULL) {
		sim_l3_between(sim, f->c.src, f->c.dst, f->sport, 26, PCC_ECN_ECT0, &l3);
		if (sim_mbuf_build_done(sim, m,
				    pcc_roce_build(rte_pktmbuf_mtod(m, void *),
						    rte_pktmbuf_tailroom(m), &l3, &r)) == 0) {
			len = m->pkt_len;
			if (payload == f->c.payload && f->tmpl == NULL) {
				f->tmpl = malloc(len);
				if (f->tmpl != NULL) {
					memcpy(f->tmpl, rte_pktmbuf_mtod(m, void *), len);
					f->tmpl_len = len;
				}
			}
			sim_host_ingress(sim, f->c.src, m);
		}
	}
	if (len == 0)
		len = payload + 64;
	if (f->c.size == 0 || f->src_sent < f->c.size)
		sim_ev_push(sim, sim_now(sim) + sim_ser_ns(len, rate, &f->src_rem), SIM_EV_SRC, fi);
}
