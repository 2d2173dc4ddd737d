/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Builders: BTH and extension headers, MAD header, whole RoCEv2 frames
 * (Ethernet / VLAN / IPv4 or IPv6 / UDP / BTH / ... / ICRC) and CNPs.
 * Byte layouts: doc/wire.md sections 1-6.
 */

#include "proto_internal.h"

/* Zero payloads from this length on take proto_icrc_zero_tail(): below it
 * reading the zeros (the register ICRC up to 512 bytes) costs less than
 * combining. */
#define ZERO_TAIL_MIN 256

/* ---- Single headers ----------------------------------------------- */

int
pcc_bth_build(void *buf, uint32_t cap, const struct pcc_bth *bth)
{
	uint8_t *b = buf;

	if (buf == NULL || bth == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (bth->se > 1 || bth->mig > 1 || bth->ackreq > 1 || bth->pad_cnt > 3 || bth->tver > 0xf ||
			bth->dqpn > PCC_QPN_MASK || bth->psn > PCC_PSN_MASK)
		return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_BTH_LEN)
		return PCC_PROTO_ERR_NO_SPACE;
	b[0] = bth->opcode;
	b[1] = (uint8_t)((bth->se << 7) | (bth->mig << 6) | (bth->pad_cnt << 4) | bth->tver);
	pcc_put_be16(b + 2, bth->pkey);
	b[4] = bth->flags;
	pcc_put_be24(b + 5, bth->dqpn);
	b[8] = (uint8_t)(bth->ackreq << 7);
	pcc_put_be24(b + 9, bth->psn);
	return PCC_BTH_LEN;
}

int
pcc_aeth_build(void *buf, uint32_t cap, const struct pcc_aeth *aeth)
{
	uint8_t *b = buf;

	if (buf == NULL || aeth == NULL || aeth->msn > 0xffffff)
		return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_AETH_LEN)
		return PCC_PROTO_ERR_NO_SPACE;
	b[0] = aeth->syndrome;
	pcc_put_be24(b + 1, aeth->msn);
	return PCC_AETH_LEN;
}

int
pcc_reth_build(void *buf, uint32_t cap, const struct pcc_reth *reth)
{
	uint8_t *b = buf;

	if (buf == NULL || reth == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_RETH_LEN)
		return PCC_PROTO_ERR_NO_SPACE;
	pcc_put_be64(b, reth->va);
	pcc_put_be32(b + 8, reth->rkey);
	pcc_put_be32(b + 12, reth->dma_len);
	return PCC_RETH_LEN;
}

int
pcc_deth_build(void *buf, uint32_t cap, const struct pcc_deth *deth)
{
	uint8_t *b = buf;

	if (buf == NULL || deth == NULL || deth->sqpn > PCC_QPN_MASK)
		return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_DETH_LEN)
		return PCC_PROTO_ERR_NO_SPACE;
	pcc_put_be32(b, deth->qkey);
	b[4] = 0;
	pcc_put_be24(b + 5, deth->sqpn);
	return PCC_DETH_LEN;
}

int
pcc_mad_hdr_build(void *buf, uint32_t cap, const struct pcc_mad_hdr *mad)
{
	uint8_t *b = buf;

	if (buf == NULL || mad == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_MAD_HDR_LEN)
		return PCC_PROTO_ERR_NO_SPACE;
	b[0] = mad->base_version;
	b[1] = mad->mgmt_class;
	b[2] = mad->class_version;
	b[3] = mad->method;
	pcc_put_be16(b + 4, mad->status);
	pcc_put_be16(b + 6, mad->class_specific);
	pcc_put_be64(b + 8, mad->tid);
	pcc_put_be16(b + 16, mad->attr_id);
	pcc_put_be16(b + 18, 0);
	pcc_put_be32(b + 20, mad->attr_mod);
	return PCC_MAD_HDR_LEN;
}

/* ---- UDP source port ---------------------------------------------- */

uint16_t
pcc_roce_udp_sport(uint32_t lqpn, uint32_t rqpn)
{
	/* Linux rdma_calc_flow_label() + rdma_flow_label_to_udp_sport() */
	uint64_t v = (uint64_t)lqpn * rqpn;
	uint32_t fl;

	v ^= v >> 20;
	v ^= v >> 40;
	fl = (uint32_t)(v & 0xfffff);
	return (uint16_t)(((fl & 0x3fff) ^ ((fl & 0xfc000) >> 14)) | 0xc000);
}

/* ---- Whole frames ------------------------------------------------- */

int
proto_frame_begin(void *buf, uint32_t cap, const struct pcc_l3_spec *l3,
		const struct pcc_roce_spec *roce, struct proto_frame *fr)
{
	struct pcc_bth bth;
	uint8_t *b = buf, *ip, *x;
	uint32_t ext_len, udp_len, off;
	int ext, ret;
	uint8_t tos;

	if (buf == NULL || l3 == NULL || roce == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (l3->dscp > 63 || l3->ecn > PCC_ECN_CE || l3->flow_label > 0xfffff ||
			roce->payload_len > UINT16_MAX)
		return PCC_PROTO_ERR_INVAL;
	ext = pcc_bth_opcode_ext(roce->bth.opcode, &ext_len);
	if (ext < 0)
		return ext;

	memset(fr, 0, sizeof(*fr));
	fr->buf = b;
	fr->zero_off = 0;
	fr->ipv6 = l3->ipv6;
	fr->payload_len = roce->payload_len;
	fr->pad_cnt = (4 - (roce->payload_len & 3)) & 3;
	udp_len = PCC_UDP_HDR_LEN + PCC_BTH_LEN + ext_len + roce->payload_len + fr->pad_cnt +
			PCC_ICRC_LEN;
	/* IPv4 total length / IPv6 payload length are 16 bit */
	if (udp_len + (l3->ipv6 ? 0 : PCC_IPV4_HDR_LEN) > UINT16_MAX)
		return PCC_PROTO_ERR_INVAL;
	fr->l3_off = PCC_ETH_HDR_LEN + (l3->vlan ? PCC_VLAN_HDR_LEN : 0);
	fr->l4_off = fr->l3_off + (l3->ipv6 ? PCC_IPV6_HDR_LEN : PCC_IPV4_HDR_LEN);
	fr->bth_off = fr->l4_off + PCC_UDP_HDR_LEN;
	fr->payload_off = fr->bth_off + PCC_BTH_LEN + ext_len;
	fr->icrc_off = fr->payload_off + fr->payload_len + fr->pad_cnt;
	fr->frame_len = fr->icrc_off + PCC_ICRC_LEN;
	if (fr->frame_len > cap)
		return PCC_PROTO_ERR_NO_SPACE;

	/* BTH first: it validates the caller's fields */
	bth = roce->bth;
	bth.pad_cnt = (uint8_t)fr->pad_cnt;
	ret = pcc_bth_build(b + fr->bth_off, PCC_BTH_LEN, &bth);
	if (ret < 0)
		return ret;

	/* Ethernet */
	memcpy(b, l3->dst_mac, 6);
	memcpy(b + 6, l3->src_mac, 6);
	off = 12;
	if (l3->vlan) {
		pcc_put_be16(b + off, PCC_ETHER_TYPE_VLAN);
		pcc_put_be16(b + off + 2, l3->vlan_tci);
		off += PCC_VLAN_HDR_LEN;
	}
	pcc_put_be16(b + off, l3->ipv6 ? PCC_ETHER_TYPE_IPV6 : PCC_ETHER_TYPE_IPV4);

	/* IP */
	ip = b + fr->l3_off;
	tos = (uint8_t)((l3->dscp << 2) | l3->ecn);
	if (!l3->ipv6) {
		ip[0] = 0x45;
		ip[1] = tos;
		pcc_put_be16(ip + 2, (uint16_t)(PCC_IPV4_HDR_LEN + udp_len));
		pcc_put_be16(ip + 4, l3->ip_id);
		pcc_put_be16(ip + 6, 0x4000); /* DF */
		ip[8] = l3->ttl != 0 ? l3->ttl : 64;
		ip[9] = PROTO_IPPROTO_UDP;
		pcc_put_be32(ip + 12, l3->src.v4);
		pcc_put_be32(ip + 16, l3->dst.v4);
		pcc_put_be16(ip + 10, proto_ipv4_csum(ip, PCC_IPV4_HDR_LEN));
	} else {
		pcc_put_be32(ip, (6u << 28) | ((uint32_t)tos << 20) | l3->flow_label);
		pcc_put_be16(ip + 4, (uint16_t)udp_len);
		ip[6] = PROTO_IPPROTO_UDP;
		ip[7] = l3->ttl != 0 ? l3->ttl : 64;
		memcpy(ip + 8, l3->src.v6, 16);
		memcpy(ip + 24, l3->dst.v6, 16);
	}

	/* UDP; the IPv6 checksum is filled in by proto_frame_end() */
	x = b + fr->l4_off;
	pcc_put_be16(x, l3->udp_sport != 0 ? l3->udp_sport : 0xc000);
	pcc_put_be16(x + 2, PCC_ROCE_UDP_PORT);
	pcc_put_be16(x + 4, (uint16_t)udp_len);
	pcc_put_be16(x + 6, 0);

	/* Extension headers, in IBA order */
	x = b + fr->bth_off + PCC_BTH_LEN;
	if (ext & PCC_EXT_DETH) {
		ret = pcc_deth_build(x, PCC_DETH_LEN, &roce->deth);
		if (ret < 0)
			return ret;
		x += PCC_DETH_LEN;
	}
	if (ext & PCC_EXT_RETH) {
		pcc_reth_build(x, PCC_RETH_LEN, &roce->reth);
		x += PCC_RETH_LEN;
	}
	if (ext & PCC_EXT_ATOMICETH) {
		memset(x, 0, PCC_ATOMICETH_LEN);
		x += PCC_ATOMICETH_LEN;
	}
	if (ext & PCC_EXT_AETH) {
		ret = pcc_aeth_build(x, PCC_AETH_LEN, &roce->aeth);
		if (ret < 0)
			return ret;
		x += PCC_AETH_LEN;
	}
	if (ext & PCC_EXT_ATOMICACKETH) {
		memset(x, 0, PCC_ATOMICACKETH_LEN);
		x += PCC_ATOMICACKETH_LEN;
	}
	if (ext & (PCC_EXT_IMMDT | PCC_EXT_IETH)) {
		pcc_put_be32(x, roce->immdt);
		x += PCC_IMMDT_LEN;
	}
	return 0;
}

uint16_t
pcc_udp_csum_patch(uint16_t csum, const void *old_bytes, const void *new_bytes, uint32_t n)
{
	const uint8_t *o = old_bytes, *nw = new_bytes;
	uint64_t sum = (uint16_t)~csum;
	uint32_t i;
	uint16_t c;

	if (o == NULL || nw == NULL || n == 0)
		return csum;
	for (i = 0; i + 1 < n; i += 2)
		sum += (uint16_t)~pcc_get_be16(o + i) + (uint32_t)pcc_get_be16(nw + i);
	if (n & 1)
		sum += (uint16_t) ~((uint32_t)o[n - 1] << 8) + ((uint32_t)nw[n - 1] << 8);
	while (sum >> 16 != 0)
		sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	return c != 0 ? c : 0xffff;
}

void
proto_frame_end(const struct proto_frame *fr)
{
	uint8_t *b = fr->buf;
	uint8_t *ip = b + fr->l3_off;
	uint8_t *udp = b + fr->l4_off;
	uint32_t crc;

	memset(b + fr->payload_off + fr->payload_len, 0, fr->pad_cnt);
	if (fr->zero_off == 0 || fr->icrc_off - fr->zero_off < ZERO_TAIL_MIN ||
			proto_icrc_zero_tail(ip, fr->zero_off - fr->l3_off,
					fr->icrc_off - fr->l3_off, &crc) != 0)
		crc = pcc_icrc_calc(ip, fr->icrc_off - fr->l3_off, NULL);
	proto_put_le32(b + fr->icrc_off, crc);

	/* ICRC masks the UDP checksum, so it can be filled in afterwards. */
	if (fr->ipv6)
		pcc_put_be16(udp + 6, proto_udp6_csum(ip, udp, fr->frame_len - fr->l4_off));
}

int
pcc_roce_build(void *buf, uint32_t cap, const struct pcc_l3_spec *l3,
		const struct pcc_roce_spec *roce)
{
	struct proto_frame fr;
	int ret;

	ret = proto_frame_begin(buf, cap, l3, roce, &fr);
	if (ret < 0)
		return ret;
	if (roce->payload != NULL) {
		memcpy(fr.buf + fr.payload_off, roce->payload, fr.payload_len);
	} else {
		/* a zero payload (a generator's data frames): its ICRC from
		 * the headers and the zeros' length */
		memset(fr.buf + fr.payload_off, 0, fr.payload_len);
		fr.zero_off = fr.payload_off;
	}
	proto_frame_end(&fr);
	return (int)fr.frame_len;
}

int
pcc_cnp_build(void *buf, uint32_t cap, const struct pcc_l3_spec *l3, uint32_t dqpn)
{
	struct pcc_roce_spec rs;

	memset(&rs, 0, sizeof(rs));
	rs.bth.opcode = PCC_OP_CNP;
	rs.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	rs.bth.flags = PCC_BTH_BECN;
	rs.bth.dqpn = dqpn;
	rs.payload_len = PCC_CNP_PAD_LEN;
	return pcc_roce_build(buf, cap, l3, &rs);
}
