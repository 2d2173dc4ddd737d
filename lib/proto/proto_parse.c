/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Frame parser (Ethernet / VLAN / IPv4 / IPv6 / UDP / RoCEv2), single
 * header parsers, the BTH opcode table and the ECN/DSCP helpers.
 * Byte layouts and the errors returned: doc/wire.md sections 1-7.
 */

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_mbuf.h>

#include "pcc_proto_tlm.h"
#include "proto_internal.h"

/* The chain path of pcc_parse_mbuf() relies on this. */
_Static_assert(PROTO_PARSE_HDR_MAX <= PROTO_PARSE_LINEAR,
		"parser headers must fit in the linearised prefix");
/* proto_parse_core() clears the descriptor in two parts: up to src, then
 * src and dst together. */
_Static_assert(offsetof(struct pcc_pkt_info, dst) == offsetof(struct pcc_pkt_info, src) + 16 &&
				sizeof(struct pcc_pkt_info) ==
						offsetof(struct pcc_pkt_info, dst) + 16,
		"the addresses end the packet descriptor");

/* ---- BTH opcode table --------------------------------------------- */

/*
 * InfiniBand Architecture Specification Vol. 1 rel. 1.4, table 38 (opcodes)
 * and section 9.2 (which extension headers each one carries), for the
 * transports RoCEv2 carries: RC, UC, UD; plus the RoCEv2 CNP (Annex A17).
 * RD (0x40-0x5F) and XRC (0xA0-0xBF) are not supported, nor the IBA 1.5
 * additions FLUSH (0x1C) and ATOMIC_WRITE (0x1D).
 */
struct op_ent {
	const char *name;
	uint8_t ext; /* PCC_EXT_* */
	uint8_t len; /* bytes of extension headers */
	uint8_t valid;
};

#define EXT_LEN(m)                                                                           \
	((((m)&PCC_EXT_RETH) ? PCC_RETH_LEN : 0) + (((m)&PCC_EXT_AETH) ? PCC_AETH_LEN : 0) + \
			(((m)&PCC_EXT_DETH) ? PCC_DETH_LEN : 0) +                            \
			(((m)&PCC_EXT_IMMDT) ? PCC_IMMDT_LEN : 0) +                          \
			(((m)&PCC_EXT_IETH) ? PCC_IETH_LEN : 0) +                            \
			(((m)&PCC_EXT_ATOMICETH) ? PCC_ATOMICETH_LEN : 0) +                  \
			(((m)&PCC_EXT_ATOMICACKETH) ? PCC_ATOMICACKETH_LEN : 0))

#define OP(code, nm, m) [code] = { .name = nm, .ext = (m), .len = EXT_LEN(m), .valid = 1 }

#define R PCC_EXT_RETH
#define A PCC_EXT_AETH
#define D PCC_EXT_DETH
#define I PCC_EXT_IMMDT
#define IE PCC_EXT_IETH

static const struct op_ent op_tab[256] = {
	/* RC */
	OP(0x00, "RC_SEND_FIRST", 0),
	OP(0x01, "RC_SEND_MIDDLE", 0),
	OP(0x02, "RC_SEND_LAST", 0),
	OP(0x03, "RC_SEND_LAST_WITH_IMMEDIATE", I),
	OP(0x04, "RC_SEND_ONLY", 0),
	OP(0x05, "RC_SEND_ONLY_WITH_IMMEDIATE", I),
	OP(0x06, "RC_RDMA_WRITE_FIRST", R),
	OP(0x07, "RC_RDMA_WRITE_MIDDLE", 0),
	OP(0x08, "RC_RDMA_WRITE_LAST", 0),
	OP(0x09, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", I),
	OP(0x0A, "RC_RDMA_WRITE_ONLY", R),
	OP(0x0B, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", R | I),
	OP(0x0C, "RC_RDMA_READ_REQUEST", R),
	OP(0x0D, "RC_RDMA_READ_RESPONSE_FIRST", A),
	OP(0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", 0),
	OP(0x0F, "RC_RDMA_READ_RESPONSE_LAST", A),
	OP(0x10, "RC_RDMA_READ_RESPONSE_ONLY", A),
	OP(0x11, "RC_ACKNOWLEDGE", A),
	OP(0x12, "RC_ATOMIC_ACKNOWLEDGE", A | PCC_EXT_ATOMICACKETH),
	OP(0x13, "RC_COMPARE_SWAP", PCC_EXT_ATOMICETH),
	OP(0x14, "RC_FETCH_ADD", PCC_EXT_ATOMICETH),
	OP(0x16, "RC_SEND_LAST_WITH_INVALIDATE", IE),
	OP(0x17, "RC_SEND_ONLY_WITH_INVALIDATE", IE),
	/* UC */
	OP(0x20, "UC_SEND_FIRST", 0),
	OP(0x21, "UC_SEND_MIDDLE", 0),
	OP(0x22, "UC_SEND_LAST", 0),
	OP(0x23, "UC_SEND_LAST_WITH_IMMEDIATE", I),
	OP(0x24, "UC_SEND_ONLY", 0),
	OP(0x25, "UC_SEND_ONLY_WITH_IMMEDIATE", I),
	OP(0x26, "UC_RDMA_WRITE_FIRST", R),
	OP(0x27, "UC_RDMA_WRITE_MIDDLE", 0),
	OP(0x28, "UC_RDMA_WRITE_LAST", 0),
	OP(0x29, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", I),
	OP(0x2A, "UC_RDMA_WRITE_ONLY", R),
	OP(0x2B, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", R | I),
	/* UD */
	OP(0x64, "UD_SEND_ONLY", D),
	OP(0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", D | I),
	/* RoCEv2 congestion notification */
	OP(0x81, "CNP", 0),
};

#undef R
#undef A
#undef D
#undef I
#undef IE
#undef OP

int
pcc_bth_opcode_ext(uint8_t opcode, uint32_t *ext_len)
{
	const struct op_ent *e = &op_tab[opcode];

	if (e->valid == 0)
		return PCC_PROTO_ERR_UNKNOWN_OPCODE;
	if (ext_len != NULL)
		*ext_len = e->len;
	return e->ext;
}

const char *
pcc_bth_opcode_name(uint8_t opcode)
{
	return op_tab[opcode].name;
}

/* ---- Single headers ----------------------------------------------- */

static inline void
bth_decode(const uint8_t *b, struct pcc_bth *bth)
{
	bth->opcode = b[0];
	bth->se = b[1] >> 7;
	bth->mig = (b[1] >> 6) & 1;
	bth->pad_cnt = (b[1] >> 4) & 3;
	bth->tver = b[1] & 0xf;
	bth->pkey = pcc_get_be16(b + 2);
	bth->flags = b[4];
	bth->dqpn = pcc_get_be24(b + 5);
	bth->ackreq = b[8] >> 7;
	bth->psn = pcc_get_be24(b + 9);
}

int
pcc_bth_parse(const void *buf, uint32_t len, struct pcc_bth *bth)
{
	if (buf == NULL || bth == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_BTH_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	bth_decode(buf, bth);
	if (bth->tver != 0)
		return PCC_PROTO_ERR_BAD_VERSION;
	if (op_tab[bth->opcode].valid == 0)
		return PCC_PROTO_ERR_UNKNOWN_OPCODE;
	return 0;
}

int
pcc_aeth_parse(const void *buf, uint32_t len, struct pcc_aeth *aeth)
{
	const uint8_t *b = buf;

	if (buf == NULL || aeth == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_AETH_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	aeth->syndrome = b[0];
	aeth->msn = pcc_get_be24(b + 1);
	if (pcc_aeth_class(aeth->syndrome) == 0x2)
		return PCC_PROTO_ERR_BAD_FIELD;
	return 0;
}

int
pcc_reth_parse(const void *buf, uint32_t len, struct pcc_reth *reth)
{
	const uint8_t *b = buf;

	if (buf == NULL || reth == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_RETH_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	reth->va = pcc_get_be64(b);
	reth->rkey = pcc_get_be32(b + 8);
	reth->dma_len = pcc_get_be32(b + 12);
	return 0;
}

int
pcc_deth_parse(const void *buf, uint32_t len, struct pcc_deth *deth)
{
	const uint8_t *b = buf;

	if (buf == NULL || deth == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_DETH_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	deth->qkey = pcc_get_be32(b);
	deth->sqpn = pcc_get_be24(b + 5);
	return 0;
}

int
pcc_mad_hdr_parse(const void *buf, uint32_t len, struct pcc_mad_hdr *mad)
{
	const uint8_t *b = buf;

	if (buf == NULL || mad == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_MAD_HDR_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	mad->base_version = b[0];
	mad->mgmt_class = b[1];
	mad->class_version = b[2];
	mad->method = b[3];
	mad->status = pcc_get_be16(b + 4);
	mad->class_specific = pcc_get_be16(b + 6);
	mad->tid = pcc_get_be64(b + 8);
	mad->attr_id = pcc_get_be16(b + 16);
	mad->attr_mod = pcc_get_be32(b + 20);
	if (mad->base_version != PCC_MAD_BASE_VERSION)
		return PCC_PROTO_ERR_BAD_VERSION;
	return 0;
}

/* ---- Whole frame -------------------------------------------------- */

static const struct pcc_parse_opts parse_defaults = {
	.check_icrc = false,
	.check_ip_csum = false,
	.ifa2_proto = PCC_IFA2_PROTO_DEFAULT,
	.ifa1_marker = PCC_IFA1_MARKER_DEFAULT,
};

void
pcc_parse_opts_default(struct pcc_parse_opts *opts)
{
	if (opts != NULL)
		*opts = parse_defaults;
}

int
proto_parse_core(const uint8_t *p, uint32_t len, const struct pcc_parse_opts *opts,
		struct pcc_pkt_info *info)
{
	const struct op_ent *op;
	const uint8_t *ip, *b, *x;
	uint32_t off, l4, l3_end, hlen, tot, rlen, need;
	uint16_t etype, udp_len;
	uint8_t proto, syn;

	/*
	 * Not a memset of the whole descriptor: for its 104 bytes gcc emits
	 * `rep stos`, whose start-up cost more than the rest of the parse of
	 * a CNP.  The fields before the addresses (72 bytes) are cleared with
	 * a few vector stores; the addresses by the path that knows what they
	 * hold.  Every field is still set on every path that returns 0.
	 */
	memset(info, 0, offsetof(struct pcc_pkt_info, src));
	info->frame_len = len;

	/* Ethernet, optional 802.1Q tag */
	if (unlikely(len < PCC_ETH_HDR_LEN))
		return PCC_PROTO_ERR_TRUNCATED;
	etype = pcc_get_be16(p + 12);
	off = PCC_ETH_HDR_LEN;
	if (etype == PCC_ETHER_TYPE_VLAN) {
		if (unlikely(len < PCC_ETH_HDR_LEN + PCC_VLAN_HDR_LEN))
			return PCC_PROTO_ERR_TRUNCATED;
		info->flags |= PCC_PKT_F_VLAN;
		info->vlan_tci = pcc_get_be16(p + 14);
		etype = pcc_get_be16(p + 16);
		off += PCC_VLAN_HDR_LEN;
	}

	ip = p + off;
	if (likely(etype == PCC_ETHER_TYPE_IPV4)) {
		if (unlikely(len - off < PCC_IPV4_HDR_LEN))
			return PCC_PROTO_ERR_TRUNCATED;
		if (unlikely((ip[0] >> 4) != 4))
			return PCC_PROTO_ERR_BAD_VERSION;
		hlen = (ip[0] & 0xf) * 4u;
		if (unlikely(hlen < PCC_IPV4_HDR_LEN))
			return PCC_PROTO_ERR_BAD_LENGTH;
		if (unlikely(len - off < hlen))
			return PCC_PROTO_ERR_TRUNCATED;
		tot = pcc_get_be16(ip + 2);
		if (unlikely(tot < hlen || tot > len - off))
			return PCC_PROTO_ERR_BAD_LENGTH;
		if (opts->check_ip_csum && proto_csum_fold(proto_csum_add(0, ip, hlen)) != 0xffff)
			return PCC_PROTO_ERR_BAD_CSUM;
		/* MF flag or a fragment offset */
		if (unlikely(pcc_get_be16(ip + 6) & 0x3fff))
			return PCC_PROTO_ERR_FRAGMENT;
		info->ecn = ip[1] & 0x3;
		info->dscp = ip[1] >> 2;
		info->ttl = ip[8];
		proto = ip[9];
		memset(&info->src, 0, sizeof(info->src) + sizeof(info->dst));
		info->src.v4 = pcc_get_be32(ip + 12);
		info->dst.v4 = pcc_get_be32(ip + 16);
		l4 = off + hlen;
		l3_end = off + tot;
	} else if (etype == PCC_ETHER_TYPE_IPV6) {
		if (unlikely(len - off < PCC_IPV6_HDR_LEN))
			return PCC_PROTO_ERR_TRUNCATED;
		if (unlikely((ip[0] >> 4) != 6))
			return PCC_PROTO_ERR_BAD_VERSION;
		tot = pcc_get_be16(ip + 4);
		if (unlikely(tot > len - off - PCC_IPV6_HDR_LEN))
			return PCC_PROTO_ERR_BAD_LENGTH;
		proto = ip[6];
		if (unlikely(proto_ipv6_is_ext_hdr(proto)) &&
				!(opts->ifa2_proto != 0 && proto == opts->ifa2_proto))
			return PCC_PROTO_ERR_FRAGMENT;
		info->flags |= PCC_PKT_F_IPV6;
		info->ecn = (ip[1] >> 4) & 0x3;
		info->dscp = ((ip[0] & 0xf) << 2) | (ip[1] >> 6);
		info->ttl = ip[7];
		memcpy(info->src.v6, ip + 8, 16);
		memcpy(info->dst.v6, ip + 24, 16);
		l4 = off + PCC_IPV6_HDR_LEN;
		l3_end = l4 + tot;
	} else {
		memset(&info->src, 0, sizeof(info->src) + sizeof(info->dst));
		return 0; /* PCC_PKT_OTHER */
	}
	info->l3_off = off;
	info->l4_off = l4;
	info->ip_proto = proto;

	/* IFA 2.0: IFA header between IP and UDP; stop after it */
	if (opts->ifa2_proto != 0 && proto == opts->ifa2_proto) {
		info->kind = PCC_PKT_IFA2;
		if (unlikely(l3_end - l4 < PCC_IFA2_HDR_LEN))
			return PCC_PROTO_ERR_TRUNCATED;
		if (unlikely((p[l4] >> 4) != PCC_IFA2_VERSION))
			return PCC_PROTO_ERR_BAD_VERSION;
		info->l4_off = l4 + PCC_IFA2_HDR_LEN;
		/* over UDP (what IFA probes and RoCEv2 use): the length fields
		 * must agree with the data, as pcc_ifa2_parse() requires, or
		 * the frame is malformed and has no kind */
		if (p[l4 + 1] == PROTO_IPPROTO_UDP) {
			uint32_t u = l4 + PCC_IFA2_HDR_LEN, cur;

			if (unlikely(l3_end - u < PCC_UDP_HDR_LEN + PCC_IFA2_MD_HDR_LEN))
				return PCC_PROTO_ERR_TRUNCATED;
			if (unlikely(pcc_get_be16(p + u + 4) != l3_end - u))
				return PCC_PROTO_ERR_BAD_LENGTH;
			cur = p[u + PCC_UDP_HDR_LEN + 3];
			if (unlikely(cur % (PCC_IFA2_HOP_LEN / 4) != 0 || cur > p[l4 + 3] ||
					    cur * 4 > l3_end - u - PCC_UDP_HDR_LEN -
									    PCC_IFA2_MD_HDR_LEN))
				return PCC_PROTO_ERR_BAD_LENGTH;
		}
		return 0;
	}
	if (proto != PROTO_IPPROTO_UDP)
		return 0;

	/* UDP */
	if (unlikely(l3_end - l4 < PCC_UDP_HDR_LEN))
		return PCC_PROTO_ERR_TRUNCATED;
	b = p + l4;
	info->udp_sport = pcc_get_be16(b);
	info->udp_dport = pcc_get_be16(b + 2);
	udp_len = pcc_get_be16(b + 4);
	if (unlikely(udp_len != l3_end - l4))
		return PCC_PROTO_ERR_BAD_LENGTH;
	if (info->udp_dport != PCC_ROCE_UDP_PORT)
		return 0;
	off = l4 + PCC_UDP_HDR_LEN;
	rlen = udp_len - PCC_UDP_HDR_LEN;
	b = p + off;

	/* IFA 1.0: marker where the BTH would be; stop there */
	if (opts->ifa1_marker != 0 && rlen >= 8 && pcc_get_be64(b) == opts->ifa1_marker) {
		uint32_t cur;

		info->kind = PCC_PKT_IFA1;
		/* the header pcc_ifa1_parse() checks: whole, version 1, its
		 * length fields in agreement with the data */
		if (unlikely(rlen < PCC_IFA1_HDR_LEN))
			return PCC_PROTO_ERR_TRUNCATED;
		if (unlikely((b[8] >> 4) != PCC_IFA1_VERSION))
			return PCC_PROTO_ERR_BAD_VERSION;
		cur = b[19];
		if (unlikely(cur < PCC_IFA1_HDR_LEN ||
				    (cur - PCC_IFA1_HDR_LEN) % PCC_IFA2_HOP_LEN || cur > b[18] ||
				    cur > rlen))
			return PCC_PROTO_ERR_BAD_LENGTH;
		return 0;
	}

	/* BTH */
	if (unlikely(rlen < PCC_BTH_LEN))
		return PCC_PROTO_ERR_TRUNCATED;
	if (unlikely(b[1] & 0xf))
		return PCC_PROTO_ERR_BAD_VERSION;
	op = &op_tab[b[0]];
	if (unlikely(op->valid == 0))
		return PCC_PROTO_ERR_UNKNOWN_OPCODE;
	info->pad_cnt = (b[1] >> 4) & 0x3;
	need = PCC_BTH_LEN + op->len + info->pad_cnt + PCC_ICRC_LEN;
	if (unlikely(rlen < need))
		return PCC_PROTO_ERR_TRUNCATED;
	info->bth_off = off;
	info->opcode = b[0];
	info->pkey = pcc_get_be16(b + 2);
	info->bth_flags = b[4];
	info->dqpn = pcc_get_be24(b + 5);
	info->ackreq = b[8] >> 7;
	info->psn = pcc_get_be24(b + 9);
	info->payload_off = off + PCC_BTH_LEN + op->len;
	info->payload_len = rlen - need;
	info->kind = PCC_PKT_ROCE_DATA;

	if (op->ext == 0) {
		if (b[0] == PCC_OP_CNP) {
			if (unlikely(info->payload_len < PCC_CNP_PAD_LEN))
				return PCC_PROTO_ERR_BAD_LENGTH;
			info->kind = PCC_PKT_CNP;
		}
		return 0;
	}

	/* Extension headers, in IBA order */
	x = b + PCC_BTH_LEN;
	if (op->ext & PCC_EXT_DETH) {
		info->flags |= PCC_PKT_F_DETH;
		info->deth_qkey = pcc_get_be32(x);
		info->deth_sqpn = pcc_get_be24(x + 5);
		x += PCC_DETH_LEN;
	}
	if (op->ext & PCC_EXT_RETH) {
		info->flags |= PCC_PKT_F_RETH;
		info->reth_va = pcc_get_be64(x);
		info->reth_rkey = pcc_get_be32(x + 8);
		info->reth_dma_len = pcc_get_be32(x + 12);
		x += PCC_RETH_LEN;
	}
	if (op->ext & PCC_EXT_ATOMICETH) {
		info->flags |= PCC_PKT_F_ATOMICETH;
		x += PCC_ATOMICETH_LEN;
	}
	if (op->ext & PCC_EXT_AETH) {
		syn = x[0];
		info->flags |= PCC_PKT_F_AETH;
		info->aeth_syndrome = syn;
		info->aeth_msn = pcc_get_be24(x + 1);
		switch (pcc_aeth_class(syn)) {
		case PCC_AETH_ACK:
			info->kind = PCC_PKT_ROCE_ACK;
			break;
		case PCC_AETH_RNR_NAK:
		case PCC_AETH_NAK:
			info->kind = PCC_PKT_ROCE_NAK;
			break;
		default:
			return PCC_PROTO_ERR_BAD_FIELD;
		}
		x += PCC_AETH_LEN;
	}
	if (op->ext & PCC_EXT_ATOMICACKETH)
		info->flags |= PCC_PKT_F_ATOMICACKETH;
	if (op->ext & PCC_EXT_IMMDT)
		info->flags |= PCC_PKT_F_IMMDT;
	if (op->ext & PCC_EXT_IETH)
		info->flags |= PCC_PKT_F_IETH;

	/* Our RTT probe: UD SEND_ONLY carrying a MAD of our class/attr */
	if (b[0] == PCC_OP_UD_SEND_ONLY && info->payload_len >= PCC_MAD_HDR_LEN) {
		x = p + info->payload_off;
		if (x[1] == PCC_MAD_CLASS && pcc_get_be16(x + 16) == PCC_MAD_ATTR_RTT) {
			if (unlikely(x[0] != PCC_MAD_BASE_VERSION || x[2] != PCC_MAD_CLASS_VERSION))
				return PCC_PROTO_ERR_BAD_VERSION;
			info->flags |= PCC_PKT_F_MAD;
			if (x[3] == PCC_MAD_METHOD_GET)
				info->kind = PCC_PKT_PROBE_REQ;
			else if (x[3] == PCC_MAD_METHOD_GET_RESP)
				info->kind = PCC_PKT_PROBE_RESP;
			else
				return 0;
			if (unlikely(info->payload_len < PCC_PROBE_MAD_LEN))
				return PCC_PROTO_ERR_TRUNCATED;
		}
	}
	return 0;
}

/* pcc_parse() of a frame in one piece, after its argument checks. */
static inline int
parse_linear(const uint8_t *frame, uint32_t len, const struct pcc_parse_opts *opts,
		struct pcc_pkt_info *info)
{
	int ret;

	ret = proto_parse_core(frame, len, opts, info);
	if (likely(ret < 0 || !opts->check_icrc || info->bth_off == 0))
		return ret;
	ret = pcc_icrc_verify(frame, info);
	if (ret < 0)
		return ret;
	info->flags |= PCC_PKT_F_ICRC_OK;
	return 0;
}

int
pcc_parse(const void *frame, uint32_t len, const struct pcc_parse_opts *opts,
		struct pcc_pkt_info *info)
{
	if (unlikely(frame == NULL || info == NULL))
		return PCC_PROTO_ERR_INVAL;
	return parse_linear(frame, len, opts != NULL ? opts : &parse_defaults, info);
}

int
pcc_parse_mbuf(const struct rte_mbuf *m, const struct pcc_parse_opts *opts,
		struct pcc_pkt_info *info)
{
	uint8_t copy[PROTO_PARSE_LINEAR];
	const uint8_t *d;
	int ret;

	if (unlikely(m == NULL || info == NULL))
		return PCC_PROTO_ERR_INVAL;
	if (opts == NULL)
		opts = &parse_defaults;
	/* one segment: pcc_parse() without a second call and its checks
	 * (the engine parses every frame it receives here) */
	if (likely(m->next == NULL))
		return parse_linear(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, opts, info);

	/*
	 * Chain: parse a linear copy of the first bytes (every header the
	 * parser reads lies within them), length checks against pkt_len.
	 */
	d = rte_pktmbuf_read(m, 0, RTE_MIN(m->pkt_len, (uint32_t)PROTO_PARSE_LINEAR), copy);
	if (unlikely(d == NULL))
		return PCC_PROTO_ERR_TRUNCATED;
	ret = proto_parse_core(d, m->pkt_len, opts, info);
	if (ret < 0 || !opts->check_icrc || info->bth_off == 0)
		return ret;
	ret = proto_icrc_verify_mbuf(m, d, info);
	if (ret < 0)
		return ret;
	info->flags |= PCC_PKT_F_ICRC_OK;
	return 0;
}

int
pcc_icrc_verify_mbuf(const struct rte_mbuf *m, const struct pcc_pkt_info *info)
{
	uint8_t copy[PROTO_PARSE_LINEAR];
	const uint8_t *d;

	if (unlikely(m == NULL || info == NULL))
		return PCC_PROTO_ERR_INVAL;
	if (likely(m->next == NULL))
		return pcc_icrc_verify(rte_pktmbuf_mtod(m, const void *), info);
	d = rte_pktmbuf_read(m, 0, RTE_MIN(m->pkt_len, (uint32_t)PROTO_PARSE_LINEAR), copy);
	if (unlikely(d == NULL))
		return PCC_PROTO_ERR_TRUNCATED;
	return proto_icrc_verify_mbuf(m, d, info);
}

/* ---- ECN / DSCP --------------------------------------------------- */

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m') for the 16-bit word at 0. */
static inline void
ipv4_word0_update(uint8_t *ip, uint8_t new_tos)
{
	uint16_t old = pcc_get_be16(ip);
	uint16_t new = (uint16_t)((ip[0] << 8) | new_tos);
	uint32_t sum;

	sum = (uint16_t)~pcc_get_be16(ip + 10);
	sum += (uint16_t)~old;
	sum += new;
	ip[1] = new_tos;
	pcc_put_be16(ip + 10, (uint16_t)~proto_csum_fold(sum));
}

/* IP version of a header at ip, checked to have its base header. */
static inline int
ip_check(const uint8_t *ip, uint32_t len)
{
	if (ip == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < 1)
		return PCC_PROTO_ERR_TRUNCATED;
	switch (ip[0] >> 4) {
	case 4:
		return len < PCC_IPV4_HDR_LEN ? PCC_PROTO_ERR_TRUNCATED : 4;
	case 6:
		return len < PCC_IPV6_HDR_LEN ? PCC_PROTO_ERR_TRUNCATED : 6;
	default:
		return PCC_PROTO_ERR_BAD_VERSION;
	}
}

int
pcc_ecn_get(const void *ip, uint32_t len)
{
	const uint8_t *b = ip;
	int v = ip_check(b, len);

	if (v < 0)
		return v;
	if (v == 4)
		return b[1] & 0x3;
	return (b[1] >> 4) & 0x3;
}

int
pcc_ecn_set(void *ip, uint32_t len, uint8_t ecn)
{
	uint8_t *b = ip;
	int v = ip_check(b, len);

	if (v < 0)
		return v;
	if (ecn > PCC_ECN_CE)
		return PCC_PROTO_ERR_INVAL;
	if (v == 4)
		ipv4_word0_update(b, (uint8_t)((b[1] & ~0x3) | ecn));
	else
		b[1] = (uint8_t)((b[1] & 0xcf) | (ecn << 4));
	return 0;
}

int
pcc_dscp_set(void *ip, uint32_t len, uint8_t dscp)
{
	uint8_t *b = ip;
	int v = ip_check(b, len);

	if (v < 0)
		return v;
	if (dscp > 63)
		return PCC_PROTO_ERR_INVAL;
	if (v == 4) {
		ipv4_word0_update(b, (uint8_t)((dscp << 2) | (b[1] & 0x3)));
	} else {
		b[0] = (uint8_t)((b[0] & 0xf0) | (dscp >> 2));
		b[1] = (uint8_t)((b[1] & 0x3f) | ((dscp & 0x3) << 6));
	}
	return 0;
}

/* Offset of the IP header of an Ethernet frame, or a negative error. */
static int
frame_l3(const uint8_t *f, uint32_t len)
{
	uint32_t off = PCC_ETH_HDR_LEN;
	uint16_t etype;

	if (f == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_ETH_HDR_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	etype = pcc_get_be16(f + 12);
	if (etype == PCC_ETHER_TYPE_VLAN) {
		if (len < PCC_ETH_HDR_LEN + PCC_VLAN_HDR_LEN)
			return PCC_PROTO_ERR_TRUNCATED;
		etype = pcc_get_be16(f + 16);
		off += PCC_VLAN_HDR_LEN;
	}
	if (etype != PCC_ETHER_TYPE_IPV4 && etype != PCC_ETHER_TYPE_IPV6)
		return PCC_PROTO_ERR_NOT_IP;
	if (len == off)
		return PCC_PROTO_ERR_TRUNCATED;
	if ((f[off] >> 4) != (etype == PCC_ETHER_TYPE_IPV4 ? 4 : 6))
		return PCC_PROTO_ERR_BAD_VERSION;
	return (int)off;
}

int
pcc_frame_ecn_get(const void *frame, uint32_t len)
{
	int off = frame_l3(frame, len);

	if (off < 0)
		return off;
	return pcc_ecn_get((const uint8_t *)frame + off, len - off);
}

int
pcc_frame_ecn_set(void *frame, uint32_t len, uint8_t ecn)
{
	int off = frame_l3(frame, len);

	if (off < 0)
		return off;
	return pcc_ecn_set((uint8_t *)frame + off, len - off, ecn);
}
