/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * RTT probe formats, per probe slot (conf.probe[], doc/engine.md "NP
 * runner and probes", layouts in doc/wire.md):
 *
 *   ccmad  RoCEv2 UD SEND_ONLY to QP1 carrying the 256-byte probe MAD
 *          (section 7);
 *   ifa1   UDP 4791: IFA 1.0 header (configurable marker), hop records,
 *          the probe MAD (section 9.4);
 *   ifa2   IFA 2.0 (configurable GNS, hop limit, IP protocol): IP | IFA
 *          header | UDP 4791 | metadata header | hop stack | the probe MAD
 *          (section 8.7).
 *
 * Every format carries the same MAD, so requests and responses decode the
 * same way; the NP answers the IFA formats by turning the packet around
 * with its telemetry (np.c).
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "engine_internal.h"
#include "engine_np.h"
#include "np_internal.h"

/* Largest frame decoded as a response (IFA2 with 31 hops is ~1.4 KB). */
#define PROBE_LINEAR_MAX 2048
/* IFA hop stack room in requests: IFA2 MaxLength 248 words (31 hops);
 * IFA1 MaxLength 252 bytes (the header and 7 hops). */
#define PROBE_IFA2_MAX_LEN 248
#define PROBE_IFA1_MAX_LEN (PCC_IFA1_HDR_LEN + 7 * PCC_IFA2_HOP_LEN)
#define PROBE_HOP_LIMIT_DEFAULT 0xFE

static const char *const fmt_names[PCC_ENGINE_PROBE_FMT_MAX] = {
	[PCC_ENGINE_PROBE_CCMAD] = "ccmad",
	[PCC_ENGINE_PROBE_IFA1] = "ifa1",
	[PCC_ENGINE_PROBE_IFA2] = "ifa2",
};

const char *
pcc_engine_probe_fmt_name(unsigned int fmt)
{
	return fmt < PCC_ENGINE_PROBE_FMT_MAX ? fmt_names[fmt] : NULL;
}

void
pcc_engine_probe_conf_default(struct pcc_engine_probe_conf *p, enum pcc_engine_probe_fmt fmt)
{
	memset(p, 0, sizeof(*p));
	p->format = (uint8_t)fmt;
	p->ifa1_marker = PCC_IFA1_MARKER_DEFAULT;
	p->ifa_hop_limit = PROBE_HOP_LIMIT_DEFAULT;
	p->ifa2_gns = PCC_IFA2_GNS_DEFAULT;
	p->ifa2_proto = PCC_IFA2_PROTO_DEFAULT;
}

void
eng_probe_resolve(struct pcc_engine_probe_conf *pc)
{
	if (pc->ifa1_marker == 0)
		pc->ifa1_marker = PCC_IFA1_MARKER_DEFAULT;
	if (pc->ifa_hop_limit == 0)
		pc->ifa_hop_limit = PROBE_HOP_LIMIT_DEFAULT;
	if (pc->ifa2_proto == 0)
		pc->ifa2_proto = PCC_IFA2_PROTO_DEFAULT;
}

/* The format of slot on lp (slots past the table: CCMAD), defaults
 * resolved. */
static void
probe_conf(const struct eng_lport *lp, uint8_t slot, struct pcc_engine_probe_conf *pc)
{
	if (slot < PCC_ENGINE_PROBE_SLOTS)
		*pc = lp->probe[slot]; /* this lcore's copy (ctl.c) */
	else
		memset(pc, 0, sizeof(*pc));
	eng_probe_resolve(pc);
}

static inline void
put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

const uint8_t *
eng_probe_linear(const struct rte_mbuf *m, uint8_t *buf, uint32_t cap, uint32_t *len)
{
	uint32_t n;

	if (m->nb_segs == 1) {
		*len = m->data_len;
		return rte_pktmbuf_mtod(m, const uint8_t *);
	}
	n = RTE_MIN(m->pkt_len, cap);
	*len = n;
	return rte_pktmbuf_read(m, 0, n, buf);
}

int
eng_probe_ifa_mad_off(const uint8_t *frame, uint32_t len, const struct pcc_pkt_info *info,
		uint32_t *ifa_off)
{
	struct pcc_ifa2_info ii;
	struct pcc_ifa1_hdr h;
	uint32_t off;
	int ret;

	if (info->kind == PCC_PKT_IFA2) {
		ret = pcc_ifa2_parse(frame, len, info->ip_proto, &ii);
		if (ret < 0)
			return ret;
		*ifa_off = ii.ifa_off;
		off = ii.payload_off;
	} else if (info->kind == PCC_PKT_IFA1) {
		off = (uint32_t)info->l4_off + PCC_UDP_HDR_LEN;
		if (off + PCC_IFA1_HDR_LEN > len)
			return PCC_PROTO_ERR_TRUNCATED;
		/* the classifier matched the marker: take it from the wire */
		ret = pcc_ifa1_parse(frame + off, len - off, pcc_cc_be64(frame + off), &h);
		if (ret < 0)
			return ret;
		*ifa_off = off;
		off += h.cur_len;
	} else {
		return PCC_PROTO_ERR_INVAL;
	}
	if (off > len || len - off < PCC_PROBE_MAD_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	return (int)off;
}

/* ---- Requests ------------------------------------------------------------------ */

/*
 * Ethernet (+ VLAN), IP and UDP (dport 4791) headers of a plain UDP
 * datagram with payload_len bytes, from l3; IPv4 checksum computed, UDP
 * checksum 0 (IPv6: probe_udp_end()).  Returns the payload offset or <0.
 */
static int
probe_udp_begin(uint8_t *b, uint32_t cap, const struct pcc_l3_spec *l3, uint32_t payload_len)
{
	uint32_t l3_off = RTE_ETHER_HDR_LEN + (l3->vlan ? PCC_VLAN_HDR_LEN : 0);
	uint32_t l4_off = l3_off + (l3->ipv6 ? PCC_IPV6_HDR_LEN : PCC_IPV4_HDR_LEN);
	uint32_t udp_len = PCC_UDP_HDR_LEN + payload_len;
	uint8_t tos = (uint8_t)((l3->dscp << 2) | (l3->ecn & 3));
	struct rte_udp_hdr *u;
	uint8_t *x = b + 12;

	if (l4_off + udp_len > cap)
		return PCC_PROTO_ERR_NO_SPACE;
	if (udp_len + PCC_IPV4_HDR_LEN > UINT16_MAX || l3->dscp > 63)
		return PCC_PROTO_ERR_INVAL;
	memcpy(b, l3->dst_mac, RTE_ETHER_ADDR_LEN);
	memcpy(b + RTE_ETHER_ADDR_LEN, l3->src_mac, RTE_ETHER_ADDR_LEN);
	if (l3->vlan) {
		put_be16(x, PCC_ETHER_TYPE_VLAN);
		put_be16(x + 2, l3->vlan_tci);
		x += PCC_VLAN_HDR_LEN;
	}
	put_be16(x, l3->ipv6 ? PCC_ETHER_TYPE_IPV6 : PCC_ETHER_TYPE_IPV4);
	if (l3->ipv6) {
		struct rte_ipv6_hdr *h = (struct rte_ipv6_hdr *)(b + l3_off);

		h->vtc_flow = rte_cpu_to_be_32(
				(6u << 28) | ((uint32_t)tos << 20) | (l3->flow_label & 0xFFFFF));
		h->payload_len = rte_cpu_to_be_16((uint16_t)udp_len);
		h->proto = IPPROTO_UDP;
		h->hop_limits = l3->ttl != 0 ? l3->ttl : 64;
		memcpy(h->src_addr, l3->src.v6, 16);
		memcpy(h->dst_addr, l3->dst.v6, 16);
	} else {
		struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)(b + l3_off);

		h->version_ihl = 0x45;
		h->type_of_service = tos;
		h->total_length = rte_cpu_to_be_16((uint16_t)(PCC_IPV4_HDR_LEN + udp_len));
		h->packet_id = rte_cpu_to_be_16(l3->ip_id);
		h->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
		h->time_to_live = l3->ttl != 0 ? l3->ttl : 64;
		h->next_proto_id = IPPROTO_UDP;
		h->src_addr = rte_cpu_to_be_32(l3->src.v4);
		h->dst_addr = rte_cpu_to_be_32(l3->dst.v4);
		h->hdr_checksum = 0;
		h->hdr_checksum = rte_ipv4_cksum(h);
	}
	u = (struct rte_udp_hdr *)(b + l4_off);
	u->src_port = rte_cpu_to_be_16(l3->udp_sport != 0 ? l3->udp_sport : 0xC000);
	u->dst_port = rte_cpu_to_be_16(PCC_ROCE_UDP_PORT);
	u->dgram_len = rte_cpu_to_be_16((uint16_t)udp_len);
	u->dgram_cksum = 0;
	return (int)(l4_off + PCC_UDP_HDR_LEN);
}

/* The IPv6 UDP checksum of a frame probe_udp_begin() wrote. */
static void
probe_udp_end(uint8_t *b, const struct pcc_l3_spec *l3)
{
	uint32_t l3_off = RTE_ETHER_HDR_LEN + (l3->vlan ? PCC_VLAN_HDR_LEN : 0);
	struct rte_ipv6_hdr *h = (struct rte_ipv6_hdr *)(b + l3_off);
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(h + 1);

	if (!l3->ipv6)
		return;
	u->dgram_cksum = 0;
	u->dgram_cksum = rte_ipv6_udptcp_cksum(h, u);
}

/* The custom header of a request: pattern (big endian) repeated, or zeros. */
static void
probe_custom(uint8_t *c, uint32_t len, uint32_t pattern)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		c[i] = (uint8_t)(pattern >> (24 - 8 * (i & 3)));
}

static int
probe_build_ifa1(uint8_t *b, uint32_t cap, const struct pcc_l3_spec *l3,
		const struct pcc_engine_probe_conf *pc, const struct pcc_probe *p,
		const uint8_t *custom)
{
	struct pcc_ifa1_hdr h;
	int off, ret;

	off = probe_udp_begin(b, cap, l3, PCC_IFA1_HDR_LEN + PCC_PROBE_MAD_LEN);
	if (off < 0)
		return off;
	memset(&h, 0, sizeof(h));
	h.marker = pc->ifa1_marker;
	h.ver = PCC_IFA1_VERSION;
	h.tlm_request = 0xFFFF; /* every item a hop can give */
	h.hop_limit = pc->ifa_hop_limit;
	h.max_len = PROBE_IFA1_MAX_LEN;
	h.cur_len = PCC_IFA1_HDR_LEN;
	h.sender = p->flow_tag;
	h.seq = (uint32_t)p->tid;
	ret = pcc_ifa1_build(b + off, PCC_IFA1_HDR_LEN, &h);
	if (ret < 0)
		return ret;
	ret = pcc_probe_mad_build(b + off + PCC_IFA1_HDR_LEN, PCC_PROBE_MAD_LEN, false, p, custom);
	if (ret < 0)
		return ret;
	probe_udp_end(b, l3);
	return off + PCC_IFA1_HDR_LEN + PCC_PROBE_MAD_LEN;
}

static int
probe_build_ifa2(uint8_t *b, uint32_t cap, const struct pcc_l3_spec *l3,
		const struct pcc_engine_probe_conf *pc, const struct pcc_probe *p,
		const uint8_t *custom)
{
	struct pcc_ifa2_md_hdr md;
	struct pcc_ifa2_hdr h;
	uint32_t len;
	int off, ret;

	off = probe_udp_begin(b, cap, l3, PCC_PROBE_MAD_LEN);
	if (off < 0)
		return off;
	ret = pcc_probe_mad_build(b + off, PCC_PROBE_MAD_LEN, false, p, custom);
	if (ret < 0)
		return ret;
	len = (uint32_t)off + PCC_PROBE_MAD_LEN;
	memset(&h, 0, sizeof(h));
	h.ver = PCC_IFA2_VERSION;
	h.gns = pc->ifa2_gns;
	h.next_hdr = IPPROTO_UDP;
	h.max_len = PROBE_IFA2_MAX_LEN;
	memset(&md, 0, sizeof(md));
	md.req_vector = 0xFF;
	md.hop_limit = pc->ifa_hop_limit;
	/* IP protocol, lengths and checksums (IPv6 UDP too) are fixed here */
	ret = pcc_ifa2_insert(b, &len, cap, pc->ifa2_proto, &h, &md);
	if (ret < 0)
		return ret;
	return (int)len;
}

int
eng_probe_build(struct eng_lcore *lc, const struct eng_rxq *q, const struct eng_flow *f,
		uint8_t slot, uint64_t now_ns, struct rte_mbuf **out)
{
	struct pcc_engine_port_stats *pc = &lc->pctr[q->pidx];
	static RTE_DEFINE_PER_LCORE(uint64_t, tid);
	uint8_t custom[PCC_PROBE_CUSTOM_MAX];
	const struct eng_pcust *pcust;
	struct pcc_engine_probe_conf conf;
	struct pcc_l3_spec l3;
	struct pcc_probe p;
	struct rte_mbuf *m;
	uint8_t *b;
	uint32_t cap;
	int len;

	if (f->l3 == NULL || f->key.type != PCC_ENGINE_FLOW_QP)
		return -ENOTSUP;
	probe_conf(lc->lports[f->lp], slot, &conf);
	m = rte_pktmbuf_alloc(q->mp);
	if (m == NULL) {
		eng_ctr_add(&pc->nombuf, 1);
		return -ENOMEM;
	}
	l3 = *f->l3;
	l3.ecn = PCC_ECN_NOT_ECT;
	if (f->probe_dscp != 0)
		l3.dscp = (uint8_t)(f->probe_dscp - 1);
	memset(&p, 0, sizeof(p));
	p.tid = ++RTE_PER_LCORE(tid);
	p.flow_tag = f->tag;
	p.slot = slot;
	p.flags = conf.hw_np ? PCC_PROBE_F_HW_NP : 0;
	p.req_send_ts = now_ns;
	/* the custom header at its location: custom_offset zero bytes
	 * after the probe body, then custom_len bytes of the pattern */
	p.custom_len = (uint8_t)(conf.custom_offset + conf.custom_len);
	memset(custom, 0, conf.custom_offset);
	probe_custom(custom + conf.custom_offset, conf.custom_len, conf.custom_pattern);
	/* the flow's own header (its algorithm's) over the slot's pattern */
	pcust = eng_flow_pcust(&lc->ft, f);
	if (pcust != NULL)
		memcpy(custom + conf.custom_offset, pcust->hdr,
				RTE_MIN((uint32_t)pcust->len, (uint32_t)conf.custom_len));
	b = rte_pktmbuf_mtod(m, uint8_t *);
	cap = rte_pktmbuf_tailroom(m);
	switch (conf.format) {
	case PCC_ENGINE_PROBE_IFA1:
		len = probe_build_ifa1(b, cap, &l3, &conf, &p, custom);
		break;
	case PCC_ENGINE_PROBE_IFA2:
		len = probe_build_ifa2(b, cap, &l3, &conf, &p, custom);
		break;
	default:
		len = pcc_probe_req_build(b, cap, &l3, f->key.qpn, &p, custom);
		break;
	}
	if (len < 0) {
		eng_ctr_add(&pc->build_err, 1);
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	*out = m;
	return 0;
}

/* ---- Responses ------------------------------------------------------------------ */

int
eng_probe_resp_parse(
		const struct rte_mbuf *m, const struct pcc_pkt_info *info, struct eng_rtt_sample *s)
{
	uint8_t buf[PROBE_LINEAR_MAX];
	const uint8_t *frame;
	struct pcc_probe p;
	uint32_t len, ifa_off;
	int off;

	if (info->kind != PCC_PKT_PROBE_RESP && info->kind != PCC_PKT_IFA1 &&
			info->kind != PCC_PKT_IFA2)
		return -EINVAL;
	frame = eng_probe_linear(m, buf, sizeof(buf), &len);
	if (frame == NULL || len != m->pkt_len)
		return -EINVAL;
	if (info->kind == PCC_PKT_PROBE_RESP) {
		if (pcc_probe_parse(frame, info, &p, NULL) != 0)
			return -EINVAL;
	} else {
		off = eng_probe_ifa_mad_off(frame, len, info, &ifa_off);
		if (off < 0 ||
				pcc_probe_mad_parse(frame + off, len - (uint32_t)off, &p, NULL) !=
						PCC_PKT_PROBE_RESP)
			return -EINVAL;
	}
	memset(s, 0, sizeof(*s));
	s->req_send_ns = p.req_send_ts;
	s->req_recv_ns = p.np_recv_ts;
	s->resp_send_ns = p.np_send_ts;
	s->flow_tag = p.flow_tag;
	s->slot = p.slot;
	s->user_len = PCC_PROBE_USER_LEN;
	memcpy(s->user, p.user, sizeof(s->user));
	if ((p.flags & PCC_PROBE_F_EXT) && p.ext_version == PCC_PROBE_EXT_VERSION) {
		s->version = p.ext_version;
		s->np_port_type = p.np_port_type;
		s->np_rx_bytes = p.np_rx_bytes;
	}
	return 0;
}

bool
eng_probe_is_resp(const struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	uint8_t tmp[PCC_MAD_HDR_LEN];
	const uint8_t *x;
	uint32_t off;

	if (info->kind == PCC_PKT_PROBE_RESP)
		return true;
	off = (uint32_t)info->l4_off + PCC_UDP_HDR_LEN;
	if (info->kind == PCC_PKT_IFA2) {
		/* metadata header after UDP: CurrentLength in 4-byte units */
		x = rte_pktmbuf_read(m, off, PCC_IFA2_MD_HDR_LEN, tmp);
		if (x == NULL)
			return false;
		off += PCC_IFA2_MD_HDR_LEN + 4u * x[3];
	} else if (info->kind == PCC_PKT_IFA1) {
		/* CurrentLength (bytes, header included) at offset 19 */
		x = rte_pktmbuf_read(m, off, PCC_IFA1_HDR_LEN, tmp);
		if (x == NULL)
			return false;
		off += x[19];
	} else {
		return false;
	}
	if (off + PCC_PROBE_MAD_LEN > m->pkt_len)
		return false;
	x = rte_pktmbuf_read(m, off, PCC_MAD_HDR_LEN, tmp);
	return x != NULL && x[0] == PCC_MAD_BASE_VERSION && x[1] == PCC_MAD_CLASS &&
			x[3] == PCC_MAD_METHOD_GET_RESP &&
			((uint32_t)x[16] << 8 | x[17]) == PCC_MAD_ATTR_RTT;
}
