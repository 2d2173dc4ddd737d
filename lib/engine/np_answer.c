/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Answers to probe requests (CCMAD, IFA1, IFA2) on the NP's slow path:
 * the request decoded, the user's NP handler (or the hardware-NP model),
 * the response built in place or anew (doc/engine.md, "NP runner and
 * probes").  The fast path for plain CCMAD requests is in np_rx.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "engine_internal.h"
#include "engine_np.h"
#include "np_internal.h"
#include "pcc_np.h"

#define NP_DEFAULT_TTL 64

/* ---- Probes -------------------------------------------------------------------- */

/* What an answer needs, taken from the request before anything runs. */
struct np_req {
	const uint8_t *frame; /* linear request */
	uint32_t len;
	uint32_t mad_off;
	uint32_t ifa_off;
	uint8_t macs[2 * RTE_ETHER_ADDR_LEN];
	struct pcc_probe p;
	uint8_t custom[PCC_PROBE_CUSTOM_MAX];
};

/* The handler's view of the request: VLAN tag removed. */
static void
np_view(struct np_burst *b, const struct np_req *r, const struct pcc_pkt_info *info, uint64_t rx_ns,
		struct pcc_np_pkt *v)
{
	const uint8_t *f = r->frame;
	uint32_t len = r->len, shift = 0;

	memset(v, 0, sizeof(*v));
	if (info->flags & PCC_PKT_F_VLAN) {
		uint8_t *s = b->nl->scratch;

		/* r->frame may be scratch itself (a linearised chain) */
		len = RTE_MIN(len - PCC_VLAN_HDR_LEN, (uint32_t)NP_SCRATCH_LEN);
		memmove(s + 2 * RTE_ETHER_ADDR_LEN, f + 2 * RTE_ETHER_ADDR_LEN + PCC_VLAN_HDR_LEN,
				len - 2 * RTE_ETHER_ADDR_LEN);
		if (s != f)
			memcpy(s, f, 2 * RTE_ETHER_ADDR_LEN);
		f = s;
		shift = PCC_VLAN_HDR_LEN;
		v->vlan_present = 1;
		v->vlan_tci = info->vlan_tci;
	}
	v->frame = f;
	v->frame_len = len;
	if (info->l4_off - shift < len) {
		v->l4 = f + info->l4_off - shift;
		v->l4_len = len - (info->l4_off - shift);
	}
	if (r->mad_off + PCC_MAD_HDR_LEN - shift < len) {
		v->payload = f + r->mad_off + PCC_MAD_HDR_LEN - shift;
		v->payload_len = len - (r->mad_off + PCC_MAD_HDR_LEN - shift);
	}
	v->t2_ns = (uint32_t)rx_ns;
	v->port = (uint8_t)b->q->port_id;
	v->plane = 0;
	v->probe_slot = r->p.slot;
	v->l3_ttl = info->ttl;
}

/* Rewrite the IP header of a turned-around frame: addresses swapped,
 * DSCP, not ECN-capable, TTL 64, IPv4 checksum. */
static void
np_turn_ip(uint8_t *f, const struct pcc_pkt_info *info, uint8_t dscp)
{
	uint8_t *ip = f + info->l3_off;
	uint8_t tmp[16];

	if (info->flags & PCC_PKT_F_IPV6) {
		struct rte_ipv6_hdr *h = (struct rte_ipv6_hdr *)ip;
		uint32_t vtc = rte_be_to_cpu_32(h->vtc_flow);

		memcpy(tmp, h->src_addr, 16);
		memcpy(h->src_addr, h->dst_addr, 16);
		memcpy(h->dst_addr, tmp, 16);
		vtc = (vtc & 0xF00FFFFFu) | ((uint32_t)(dscp << 2) << 20);
		h->vtc_flow = rte_cpu_to_be_32(vtc);
		h->hop_limits = NP_DEFAULT_TTL;
	} else {
		struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)ip;
		rte_be32_t a = h->src_addr;

		h->src_addr = h->dst_addr;
		h->dst_addr = a;
		h->type_of_service = (uint8_t)(dscp << 2);
		h->time_to_live = NP_DEFAULT_TTL;
		h->hdr_checksum = 0;
		h->hdr_checksum = rte_ipv4_cksum(h);
	}
}

/* UDP checksum of a turned-around IFA frame: 0 over IPv4; over IPv6 the
 * standard one with next header 17 (doc/wire.md 8.4), whatever the IP
 * protocol. */
static void
np_turn_udp(uint8_t *f, const struct pcc_pkt_info *info)
{
	uint8_t *udp = f + info->l4_off;
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)udp;
	struct rte_ipv6_hdr ph;
	uint16_t ck;

	u->dgram_cksum = 0;
	if (!(info->flags & PCC_PKT_F_IPV6))
		return;
	memcpy(&ph, f + info->l3_off, sizeof(ph));
	ph.proto = IPPROTO_UDP;
	ph.payload_len = u->dgram_len;
	ck = rte_ipv6_udptcp_cksum(&ph, udp);
	u->dgram_cksum = ck;
}

/* The answer to a probe request: in m's buffer (reused) or a new mbuf. */
static struct rte_mbuf *
np_answer(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info, struct np_req *r,
		uint8_t dscp, uint8_t fmt)
{
	struct pcc_l3_spec l3;
	struct rte_mbuf *c;
	uint8_t *f;
	int len;

	if (fmt == PCC_ENGINE_PROBE_CCMAD) {
		/* in place: only the headers and the body are rewritten and the
		 * ICRC patched, not recomputed (pcc_probe_resp_inplace()); the
		 * extension past the body needs the whole build */
		if (!(r->p.flags & PCC_PROBE_F_EXT) && mbuf_reusable(m) &&
				r->frame == rte_pktmbuf_mtod(m, const uint8_t *)) {
			len = pcc_probe_resp_inplace(rte_pktmbuf_mtod(m, void *),
					(uint32_t)(m->buf_len - m->data_off), info, dscp, &r->p);
			if (len > 0) {
				np_inplace_reset(m, (uint16_t)len);
				return m;
			}
		}
		np_reply_l3(r->macs, info, &l3);
		l3.dscp = dscp;
		c = np_reuse(b, m);
		if (c == NULL)
			return NULL;
		len = pcc_probe_resp_build(rte_pktmbuf_mtod(c, void *), rte_pktmbuf_tailroom(c),
				&l3, info->deth_sqpn, &r->p, r->custom);
		if (len < 0) {
			eng_ctr_add(&b->pc->build_err, 1);
			eng_ctr_add(&b->ctr->tx_err, 1);
			rte_pktmbuf_free(c);
			return NULL;
		}
		c->data_len = (uint16_t)len;
		c->pkt_len = (uint32_t)len;
		return c;
	}
	/* IFA: turn the request around in place, telemetry kept */
	c = np_writable(b, m);
	if (c == NULL)
		return NULL;
	f = rte_pktmbuf_mtod(c, uint8_t *);
	memcpy(f, r->macs + RTE_ETHER_ADDR_LEN, RTE_ETHER_ADDR_LEN);
	memcpy(f + RTE_ETHER_ADDR_LEN, r->macs, RTE_ETHER_ADDR_LEN);
	np_turn_ip(f, info, dscp);
	if (fmt == PCC_ENGINE_PROBE_IFA2)
		f[r->ifa_off + 2] |= PCC_IFA2_F_TA;
	pcc_probe_mad_build(f + r->mad_off, PCC_PROBE_MAD_LEN, true, &r->p, r->custom);
	np_turn_udp(f, info);
	return c;
}

/*
 * A probe request m whose MAD is at r->mad_off of r->frame (format fmt):
 * the answer, or NULL (dropped and counted).  Consumes m.
 */
static struct rte_mbuf *
np_probe(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info, struct np_req *r,
		uint8_t fmt)
{
	const struct pcc_engine_np_conf *c = &b->npp->conf;
	struct pcc_np_resp resp;
	struct pcc_np_pkt view;
	uint64_t recv, send;
	uint8_t dscp;
	bool hw;
	int rc;

	eng_ctr_add(&b->ctr->probe_req, 1);
	memcpy(r->macs, r->frame, sizeof(r->macs));
	if (r->p.custom_len > 0)
		memcpy(r->custom, r->frame + r->mad_off + PCC_PROBE_CUSTOM_OFF, r->p.custom_len);
	hw = (r->p.flags & PCC_PROBE_F_HW_NP) != 0;
	if (hw && c->hw_probes == PCC_ENGINE_NP_HW_DROP) {
		eng_ctr_add(&b->ctr->probe_hw_drop, 1);
		NP_FATE(b, NP_PROBE_DROPPED);
		rte_pktmbuf_free(m);
		return NULL;
	}
	np_times(b, m, &recv, &send);
	memset(&resp, 0, sizeof(resp));
	if (!hw && !b->handler) {
		/* no user handler (checked once per burst): the default */
		eng_ctr_add(&b->ctr->no_handler, 1);
	} else if (!hw) {
		np_view(b, r, info, recv, &view);
		rc = pcc_np_handle_port(b->q->port_id, &view, &resp);
		if (rc == -ENOENT) {
			/* no user handler: the default writes nothing */
			memset(&resp, 0, sizeof(resp));
			eng_ctr_add(&b->ctr->no_handler, 1);
		} else if (rc < 0) {
			eng_ctr_add(&b->ctr->handler_err, 1);
			NP_FATE(b, NP_PROBE_DROPPED);
			rte_pktmbuf_free(m);
			return NULL;
		}
	}
	dscp = resp.dscp_set ? resp.dscp : (c->resp_dscp_set ? c->resp_dscp : info->dscp);
	r->p.flags = (uint8_t)((r->p.flags & ~(PCC_PROBE_F_HW_NP | PCC_PROBE_F_EXT)) |
			(hw ? PCC_PROBE_F_HW_NP : 0));
	r->p.np_recv_ts = recv;
	r->p.np_send_ts = send;
	memset(r->p.user, 0, sizeof(r->p.user));
	memcpy(r->p.user, resp.data, RTE_MIN(resp.len, (uint8_t)PCC_PROBE_USER_LEN));
	r->p.resp_ts = pcc_probe_resp_ts(0, send, c->resp_ts_size, c->resp_ts_res);
	if (c->resp_ext) {
		/* version 1: this port's type and received bytes (this lcore's
		 * count of them) */
		r->p.flags |= PCC_PROBE_F_EXT;
		r->p.np_port_type = b->e->ports[b->q->pidx].line_bps > UINT64_C(25000000000);
		r->p.np_rx_bytes = (uint32_t)b->pc->rx_bytes;
	}
	m = np_answer(b, m, info, r, dscp, fmt);
	if (m == NULL)
		return NULL;
	NP_FATE(b, NP_PROBE_ANSWERED);
	eng_ctr_add(hw ? &b->ctr->probe_hw : &b->ctr->probe_sw, 1);
	eng_ctr_add(fmt == PCC_ENGINE_PROBE_CCMAD                    ? &b->ctr->probe_ccmad :
					fmt == PCC_ENGINE_PROBE_IFA1 ? &b->ctr->probe_ifa1 :
								       &b->ctr->probe_ifa2,
			1);
	return m;
}

/* Linear view of m for the request; NULL if it is too long to copy. */
static const uint8_t *
np_linear(struct np_burst *b, const struct rte_mbuf *m, uint32_t *len)
{
	const uint8_t *f = eng_probe_linear(m, b->nl->scratch, NP_SCRATCH_LEN, len);

	if (f == NULL || *len != m->pkt_len)
		return NULL;
	return f;
}

struct rte_mbuf *
np_probe_ccmad(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	struct np_req r;

	/* (not memset: custom[] is filled only when there is one) */
	r.mad_off = 0;
	r.ifa_off = 0;
	/* answered only when the ICRC vouches for it: the fast path (np_rx.c)
	 * patches the ICRC of what it reflects, so a corrupt request gets a
	 * corrupt answer there, which the RP drops */
	if (unlikely(!eng_icrc_ok(b->q, m, info))) {
		NP_FATE(b, ICRC_PROBE_REQ);
		rte_pktmbuf_free(m);
		return NULL;
	}
	r.frame = np_linear(b, m, &r.len);
	if (r.frame == NULL || pcc_probe_parse(r.frame, info, &r.p, NULL) != 0) {
		eng_ctr_add(&b->ctr->probe_req, 1);
		eng_ctr_add(&b->ctr->probe_bad, 1);
		NP_FATE(b, NP_PROBE_DROPPED);
		rte_pktmbuf_free(m);
		return NULL;
	}
	r.mad_off = info->payload_off;
	return np_probe(b, m, info, &r, PCC_ENGINE_PROBE_CCMAD);
}

/*
 * An IFA2 packet that is not a probe for us (not selected by the GNS, or
 * without a probe request): when it wraps RoCEv2 data marked CE, the data
 * gets its CNP (the IFA headers are telemetry on the data's path); else it
 * is consumed.
 */
struct rte_mbuf *
np_ifa2_data(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info,
		const uint8_t *f, uint32_t len)
{
	struct pcc_ifa2_info ii;
	struct pcc_pkt_info in;
	struct pcc_bth bth;
	int ext;

	if (info->ecn != PCC_ECN_CE || pcc_ifa2_parse(f, len, info->ip_proto, &ii) != 0 ||
			(uint32_t)ii.udp_off + PCC_UDP_HDR_LEN > len ||
			((uint32_t)f[ii.udp_off + 2] << 8 | f[ii.udp_off + 3]) !=
					PCC_ROCE_UDP_PORT ||
			pcc_bth_parse(f + ii.payload_off, len - ii.payload_off, &bth) != 0) {
		NP_FATE(b, NP_IFA_OTHER);
		rte_pktmbuf_free(m);
		return NULL;
	}
	ext = pcc_bth_opcode_ext(bth.opcode, NULL);
	if (ext < 0 || (ext & (PCC_EXT_AETH | PCC_EXT_ATOMICACKETH)) || bth.opcode == PCC_OP_CNP) {
		NP_FATE(b, NP_IFA_OTHER);
		rte_pktmbuf_free(m);
		return NULL;
	}
	in = *info;
	in.kind = PCC_PKT_ROCE_DATA;
	in.opcode = bth.opcode;
	in.dqpn = bth.dqpn;
	in.udp_sport = (uint16_t)((uint32_t)f[ii.udp_off] << 8 | f[ii.udp_off + 1]);
	return np_ce(b, m, &in);
}

struct rte_mbuf *
np_probe_ifa(struct np_burst *b, struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	const struct pcc_engine_np_conf *c = &b->npp->conf;
	bool ifa2 = info->kind == PCC_PKT_IFA2;
	struct np_req r;
	int off, kind;

	memset(&r, 0, sizeof(r));
	r.frame = np_linear(b, m, &r.len);
	if (r.frame == NULL) {
		eng_ctr_add(&b->ctr->ifa_other, 1);
		NP_FATE(b, NP_IFA_OTHER);
		rte_pktmbuf_free(m);
		return NULL;
	}
	if (ifa2 && info->l4_off >= PCC_IFA2_HDR_LEN) {
		uint8_t gns = r.frame[info->l4_off - PCC_IFA2_HDR_LEN] & 0xF;

		/* DOCA's GNS ignore: matching packets are not the NP's */
		if (c->ifa2_gns_ignore &&
				pcc_ifa2_gns_match(gns, c->ifa2_gns_ignore_mask,
						c->ifa2_gns_ignore_value)) {
			eng_ctr_add(&b->ctr->ifa2_ignored, 1);
			return np_ifa2_data(b, m, info, r.frame, r.len);
		}
		/* select mode: only matching packets are */
		if (!pcc_ifa2_gns_match(gns, c->ifa2_gns_select_mask, c->ifa2_gns_select_value)) {
			eng_ctr_add(&b->ctr->ifa2_unmatched, 1);
			return np_ifa2_data(b, m, info, r.frame, r.len);
		}
	}
	off = eng_probe_ifa_mad_off(r.frame, r.len, info, &r.ifa_off);
	kind = off < 0 ? off :
			 pcc_probe_mad_parse(r.frame + off, r.len - (uint32_t)off, &r.p, NULL);
	if (kind != PCC_PKT_PROBE_REQ) {
		/* telemetry on other traffic, a response, or broken */
		eng_ctr_add(&b->ctr->ifa_other, 1);
		if (ifa2)
			return np_ifa2_data(b, m, info, r.frame, r.len);
		NP_FATE(b, NP_IFA_OTHER);
		rte_pktmbuf_free(m);
		return NULL;
	}
	r.mad_off = (uint32_t)off;
	return np_probe(b, m, info, &r, ifa2 ? PCC_ENGINE_PROBE_IFA2 : PCC_ENGINE_PROBE_IFA1);
}
