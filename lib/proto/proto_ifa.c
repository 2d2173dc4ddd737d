/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * IFA 2.0 (headers, per-hop metadata, whole-frame parse, insert, push) and
 * IFA 1.0 (dpdk-pcc layout).  Byte layouts: doc/wire.md sections 8 and 9.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto_internal.h"

#define IFA_IPPROTO_UDP 17

/* ---- L2/L3 walk shared by parse, insert and push ------------------ */

struct ifa_l3 {
	uint32_t l3_off; /* IP header */
	uint32_t l4_off; /* first byte after the IP header */
	uint32_t ip_end; /* end of the IP datagram (<= frame length) */
	uint8_t proto;   /* IPv4 protocol / IPv6 next header */
	bool ipv6;
};

/*
 * Walk Ethernet, an optional 802.1Q tag and IPv4/IPv6 up to the L4 header.
 * Checks the IP version, header length, that the IP length fits the data
 * (trailing Ethernet padding is allowed) and that IPv4 is not a fragment.
 * want is the protocol the caller expects: an IPv6 extension header in its
 * place is reported as PCC_PROTO_ERR_FRAGMENT, another protocol as
 * PCC_PROTO_ERR_NOT_UDP.
 */
static int
ifa_l3_walk(const uint8_t *p, uint32_t len, uint8_t want, struct ifa_l3 *l3)
{
	uint32_t off = PCC_ETH_HDR_LEN;
	uint16_t etype;

	if (len < PCC_ETH_HDR_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	etype = pcc_get_be16(p + 12);
	if (etype == PCC_ETHER_TYPE_VLAN) {
		if (len < off + PCC_VLAN_HDR_LEN)
			return PCC_PROTO_ERR_TRUNCATED;
		etype = pcc_get_be16(p + off + 2);
		off += PCC_VLAN_HDR_LEN;
	}
	l3->l3_off = off;
	if (etype == PCC_ETHER_TYPE_IPV4) {
		uint32_t ihl, tot;

		if (len < off + PCC_IPV4_HDR_LEN)
			return PCC_PROTO_ERR_TRUNCATED;
		if ((p[off] >> 4) != 4)
			return PCC_PROTO_ERR_BAD_VERSION;
		ihl = (uint32_t)(p[off] & 0xf) * 4;
		if (ihl < PCC_IPV4_HDR_LEN)
			return PCC_PROTO_ERR_BAD_LENGTH;
		if (len < off + ihl)
			return PCC_PROTO_ERR_TRUNCATED;
		tot = pcc_get_be16(p + off + 2);
		if (tot < ihl)
			return PCC_PROTO_ERR_BAD_LENGTH;
		if (len < off + tot)
			return PCC_PROTO_ERR_TRUNCATED;
		if (pcc_get_be16(p + off + 6) & 0x3fff)
			return PCC_PROTO_ERR_FRAGMENT;
		l3->ipv6 = false;
		l3->proto = p[off + 9];
		l3->l4_off = off + ihl;
		l3->ip_end = off + tot;
	} else if (etype == PCC_ETHER_TYPE_IPV6) {
		uint32_t plen;

		if (len < off + PCC_IPV6_HDR_LEN)
			return PCC_PROTO_ERR_TRUNCATED;
		if ((p[off] >> 4) != 6)
			return PCC_PROTO_ERR_BAD_VERSION;
		plen = pcc_get_be16(p + off + 4);
		if (len < off + PCC_IPV6_HDR_LEN + plen)
			return PCC_PROTO_ERR_TRUNCATED;
		l3->ipv6 = true;
		l3->proto = p[off + 6];
		l3->l4_off = off + PCC_IPV6_HDR_LEN;
		l3->ip_end = l3->l4_off + plen;
	} else {
		return PCC_PROTO_ERR_NOT_IP;
	}
	if (l3->proto != want) {
		if (l3->ipv6 && proto_ipv6_is_ext_hdr(l3->proto))
			return PCC_PROTO_ERR_FRAGMENT;
		return PCC_PROTO_ERR_NOT_UDP;
	}
	return 0;
}

/*
 * Grow the IP datagram by add bytes (lengths only) and optionally set a new
 * protocol; recompute the IPv4 header checksum.  The caller has checked
 * that the lengths do not overflow (ifa_ip_can_grow).
 */
static void
ifa_ip_grow(uint8_t *p, const struct ifa_l3 *l3, uint32_t add, uint8_t proto)
{
	uint8_t *ip = p + l3->l3_off;

	if (l3->ipv6) {
		pcc_put_be16(ip + 4, (uint16_t)(pcc_get_be16(ip + 4) + add));
		ip[6] = proto;
	} else {
		pcc_put_be16(ip + 2, (uint16_t)(pcc_get_be16(ip + 2) + add));
		ip[9] = proto;
		pcc_put_be16(ip + 10, proto_ipv4_csum(ip, l3->l4_off - l3->l3_off));
	}
}

static bool
ifa_ip_can_grow(const struct ifa_l3 *l3, uint32_t add)
{
	uint32_t cur = l3->ip_end - (l3->ipv6 ? l3->l4_off : l3->l3_off);

	return cur + add <= UINT16_MAX;
}

/* After a change of the UDP datagram: IPv4 checksum 0, IPv6 recomputed. */
static void
ifa_udp_csum_fix(uint8_t *p, const struct ifa_l3 *l3, uint32_t udp_off)
{
	uint8_t *udp = p + udp_off;

	if (l3->ipv6) {
		pcc_put_be16(udp + 6, proto_udp6_csum(p + l3->l3_off, udp, pcc_get_be16(udp + 4)));
	} else {
		udp[6] = 0;
		udp[7] = 0;
	}
}

/* ---- IFA 2.0: code tables ----------------------------------------- */

static const uint32_t ifa2_speed_gbps[] = { 10, 25, 40, 50, 100, 200, 400 };

int
pcc_ifa2_speed_code(uint32_t gbps)
{
	unsigned int i;

	for (i = 0; i < sizeof(ifa2_speed_gbps) / sizeof(ifa2_speed_gbps[0]); i++)
		if (ifa2_speed_gbps[i] == gbps)
			return (int)i;
	return -1;
}

uint32_t
pcc_ifa2_speed_gbps(uint8_t code)
{
	if (code >= sizeof(ifa2_speed_gbps) / sizeof(ifa2_speed_gbps[0]))
		return 0;
	return ifa2_speed_gbps[code];
}

/* ---- IFA 2.0: single headers -------------------------------------- */

int
pcc_ifa2_hdr_parse(const void *buf, uint32_t len, struct pcc_ifa2_hdr *h)
{
	const uint8_t *p = buf;

	if (buf == NULL || h == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_IFA2_HDR_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	h->ver = p[0] >> 4;
	h->gns = p[0] & 0xf;
	h->next_hdr = p[1];
	h->flags = p[2];
	h->max_len = p[3];
	if (h->ver != PCC_IFA2_VERSION)
		return PCC_PROTO_ERR_BAD_VERSION;
	return 0;
}

int
pcc_ifa2_hdr_build(void *buf, uint32_t cap, const struct pcc_ifa2_hdr *h)
{
	uint8_t *p = buf;

	if (buf == NULL || h == NULL || h->ver > 0xf || h->gns > 0xf)
		return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_IFA2_HDR_LEN)
		return PCC_PROTO_ERR_NO_SPACE;
	p[0] = (uint8_t)((h->ver << 4) | h->gns);
	p[1] = h->next_hdr;
	p[2] = h->flags;
	p[3] = h->max_len;
	return PCC_IFA2_HDR_LEN;
}

int
pcc_ifa2_md_hdr_parse(const void *buf, uint32_t len, struct pcc_ifa2_md_hdr *m)
{
	const uint8_t *p = buf;

	if (buf == NULL || m == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_IFA2_MD_HDR_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	m->req_vector = p[0];
	m->action_vector = p[1];
	m->hop_limit = p[2];
	m->cur_len = p[3];
	/* the stack is made of whole 32-byte (8-unit) hop records */
	if (m->cur_len % (PCC_IFA2_HOP_LEN / 4))
		return PCC_PROTO_ERR_BAD_LENGTH;
	return 0;
}

int
pcc_ifa2_md_hdr_build(void *buf, uint32_t cap, const struct pcc_ifa2_md_hdr *m)
{
	uint8_t *p = buf;

	if (buf == NULL || m == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_IFA2_MD_HDR_LEN)
		return PCC_PROTO_ERR_NO_SPACE;
	p[0] = m->req_vector;
	p[1] = m->action_vector;
	p[2] = m->hop_limit;
	p[3] = m->cur_len;
	return PCC_IFA2_MD_HDR_LEN;
}

int
pcc_ifa2_hop_parse(const void *buf, uint32_t len, struct pcc_ifa2_hop *hop)
{
	const uint8_t *p = buf;
	uint32_t w;

	if (buf == NULL || hop == NULL)
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_IFA2_HOP_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	w = pcc_get_be32(p);
	hop->lns = (uint8_t)(w >> 28);
	hop->device_id = (w >> 8) & 0xfffff;
	hop->ttl = (uint8_t)w;
	w = pcc_get_be32(p + 4);
	hop->port_speed = (uint8_t)(w >> 28);
	hop->congestion = (w >> 26) & 0x3;
	hop->queue_id = (w >> 20) & 0x3f;
	hop->rx_sec = w & 0xfffff;
	hop->egress_port = pcc_get_be16(p + 8);
	hop->ingress_port = pcc_get_be16(p + 10);
	hop->rx_ns = pcc_get_be32(p + 12);
	hop->residence_ns = pcc_get_be32(p + 16);
	memcpy(hop->profile, p + 20, sizeof(hop->profile));
	return 0;
}

static bool
ifa2_hop_valid(const struct pcc_ifa2_hop *hop)
{
	return hop->lns <= 0xf && hop->device_id <= 0xfffff && hop->port_speed <= 0xf &&
			hop->congestion <= 0x3 && hop->queue_id <= 0x3f && hop->rx_sec <= 0xfffff;
}

/* Write a validated hop record (32 bytes at p). */
static void
ifa2_hop_write(uint8_t *p, const struct pcc_ifa2_hop *hop)
{
	pcc_put_be32(p, ((uint32_t)hop->lns << 28) | (hop->device_id << 8) | hop->ttl);
	pcc_put_be32(p + 4,
			((uint32_t)hop->port_speed << 28) | ((uint32_t)hop->congestion << 26) |
					((uint32_t)hop->queue_id << 20) | hop->rx_sec);
	pcc_put_be16(p + 8, hop->egress_port);
	pcc_put_be16(p + 10, hop->ingress_port);
	pcc_put_be32(p + 12, hop->rx_ns);
	pcc_put_be32(p + 16, hop->residence_ns);
	memcpy(p + 20, hop->profile, sizeof(hop->profile));
}

int
pcc_ifa2_hop_build(void *buf, uint32_t cap, const struct pcc_ifa2_hop *hop)
{
	if (buf == NULL || hop == NULL || !ifa2_hop_valid(hop))
		return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_IFA2_HOP_LEN)
		return PCC_PROTO_ERR_NO_SPACE;
	ifa2_hop_write(buf, hop);
	return PCC_IFA2_HOP_LEN;
}

/* ---- IFA 2.0: whole frames ---------------------------------------- */

static int
ifa2_parse(const uint8_t *p, uint32_t len, uint8_t ifa_proto, struct pcc_ifa2_info *info,
		struct ifa_l3 *l3)
{
	uint32_t off, udp_len, stack_len;
	int rc;

	if (ifa_proto == 0)
		return PCC_PROTO_ERR_INVAL;
	rc = ifa_l3_walk(p, len, ifa_proto, l3);
	if (rc < 0)
		return rc;

	/* IFA header; ifa_l3_walk guarantees ip_end <= len */
	off = l3->l4_off;
	if (off + PCC_IFA2_HDR_LEN > l3->ip_end)
		return PCC_PROTO_ERR_BAD_LENGTH;
	rc = pcc_ifa2_hdr_parse(p + off, PCC_IFA2_HDR_LEN, &info->hdr);
	if (rc < 0)
		return rc;
	if (info->hdr.next_hdr != IFA_IPPROTO_UDP)
		return PCC_PROTO_ERR_NOT_UDP;
	info->ifa_off = (uint16_t)off;
	off += PCC_IFA2_HDR_LEN;

	/* UDP: its length covers md header + stack + payload */
	if (off + PCC_UDP_HDR_LEN + PCC_IFA2_MD_HDR_LEN > l3->ip_end)
		return PCC_PROTO_ERR_BAD_LENGTH;
	udp_len = pcc_get_be16(p + off + 4);
	if (udp_len != l3->ip_end - off)
		return PCC_PROTO_ERR_BAD_LENGTH;
	info->udp_off = (uint16_t)off;
	off += PCC_UDP_HDR_LEN;

	/* metadata header and stack */
	rc = pcc_ifa2_md_hdr_parse(p + off, PCC_IFA2_MD_HDR_LEN, &info->md);
	if (rc < 0)
		return rc;
	if (info->md.cur_len > info->hdr.max_len)
		return PCC_PROTO_ERR_BAD_LENGTH;
	info->md_off = (uint16_t)off;
	off += PCC_IFA2_MD_HDR_LEN;
	stack_len = (uint32_t)info->md.cur_len * 4;
	if (off + stack_len > l3->ip_end)
		return PCC_PROTO_ERR_BAD_LENGTH;
	info->stack_off = (uint16_t)off;
	info->n_hops = (uint16_t)(stack_len / PCC_IFA2_HOP_LEN);
	info->payload_off = (uint16_t)(off + stack_len);
	return 0;
}

int
pcc_ifa2_parse(const void *frame, uint32_t len, uint8_t ifa_proto, struct pcc_ifa2_info *info)
{
	struct ifa_l3 l3;

	if (frame == NULL || info == NULL)
		return PCC_PROTO_ERR_INVAL;
	return ifa2_parse(frame, len, ifa_proto, info, &l3);
}

int
pcc_ifa2_get_hop(const void *frame, uint32_t len, const struct pcc_ifa2_info *info, unsigned int i,
		struct pcc_ifa2_hop *hop)
{
	uint32_t off;

	if (frame == NULL || info == NULL || hop == NULL || i >= info->n_hops)
		return PCC_PROTO_ERR_INVAL;
	off = (uint32_t)info->stack_off + i * PCC_IFA2_HOP_LEN;
	if (off > len)
		return PCC_PROTO_ERR_TRUNCATED;
	return pcc_ifa2_hop_parse((const uint8_t *)frame + off, len - off, hop);
}

int
pcc_ifa2_insert(void *frame, uint32_t *len, uint32_t cap, uint8_t ifa_proto,
		const struct pcc_ifa2_hdr *h, const struct pcc_ifa2_md_hdr *m)
{
	const uint32_t add = PCC_IFA2_HDR_LEN + PCC_IFA2_MD_HDR_LEN;
	uint8_t *p = frame;
	struct ifa_l3 l3;
	uint32_t udp_off, udp_len;
	int rc;

	if (frame == NULL || len == NULL || h == NULL || m == NULL || ifa_proto == 0 ||
			ifa_proto == IFA_IPPROTO_UDP || h->ver != PCC_IFA2_VERSION ||
			h->gns > 0xf || m->cur_len != 0 || *len > cap)
		return PCC_PROTO_ERR_INVAL;
	rc = ifa_l3_walk(p, *len, IFA_IPPROTO_UDP, &l3);
	if (rc < 0)
		return rc;
	udp_off = l3.l4_off;
	if (udp_off + PCC_UDP_HDR_LEN > l3.ip_end)
		return PCC_PROTO_ERR_BAD_LENGTH;
	udp_len = pcc_get_be16(p + udp_off + 4);
	if (udp_len != l3.ip_end - udp_off)
		return PCC_PROTO_ERR_BAD_LENGTH;
	if (!ifa_ip_can_grow(&l3, add))
		return PCC_PROTO_ERR_BAD_LENGTH;
	if (l3.ip_end + add > cap)
		return PCC_PROTO_ERR_NO_SPACE;

	/* UDP payload moves by 8, UDP header by 4; Ethernet padding is dropped */
	memmove(p + udp_off + add + PCC_UDP_HDR_LEN, p + udp_off + PCC_UDP_HDR_LEN,
			l3.ip_end - udp_off - PCC_UDP_HDR_LEN);
	memmove(p + udp_off + PCC_IFA2_HDR_LEN, p + udp_off, PCC_UDP_HDR_LEN);
	p[udp_off] = (uint8_t)((PCC_IFA2_VERSION << 4) | h->gns);
	p[udp_off + 1] = IFA_IPPROTO_UDP; /* NextHdr: the original protocol */
	p[udp_off + 2] = h->flags;
	p[udp_off + 3] = h->max_len;
	pcc_ifa2_md_hdr_build(
			p + udp_off + PCC_IFA2_HDR_LEN + PCC_UDP_HDR_LEN, PCC_IFA2_MD_HDR_LEN, m);

	udp_off += PCC_IFA2_HDR_LEN;
	pcc_put_be16(p + udp_off + 4, (uint16_t)(udp_len + PCC_IFA2_MD_HDR_LEN));
	ifa_ip_grow(p, &l3, add, ifa_proto);
	ifa_udp_csum_fix(p, &l3, udp_off);
	*len = l3.ip_end + add;
	return 0;
}

int
pcc_ifa2_push_hop(void *frame, uint32_t *len, uint32_t cap, uint8_t ifa_proto,
		const struct pcc_ifa2_hop *hop)
{
	uint8_t *p = frame;
	struct pcc_ifa2_info info;
	struct ifa_l3 l3;
	uint32_t stack_off, md_off, udp_off;
	int rc;

	if (frame == NULL || len == NULL || hop == NULL || *len > cap || !ifa2_hop_valid(hop))
		return PCC_PROTO_ERR_INVAL;
	rc = ifa2_parse(p, *len, ifa_proto, &info, &l3);
	if (rc < 0)
		return rc;
	if (info.md.hop_limit == 0 ||
			(uint32_t)info.md.cur_len + PCC_IFA2_HOP_LEN / 4 > info.hdr.max_len ||
			!ifa_ip_can_grow(&l3, PCC_IFA2_HOP_LEN))
		return PCC_PROTO_ERR_BAD_LENGTH;
	if (l3.ip_end + PCC_IFA2_HOP_LEN > cap)
		return PCC_PROTO_ERR_NO_SPACE;

	stack_off = info.stack_off;
	md_off = info.md_off;
	udp_off = info.udp_off;
	/* newest hop goes nearest the metadata header; padding is dropped */
	memmove(p + stack_off + PCC_IFA2_HOP_LEN, p + stack_off, l3.ip_end - stack_off);
	ifa2_hop_write(p + stack_off, hop);
	p[md_off + 2] = info.md.hop_limit - 1;
	p[md_off + 3] = info.md.cur_len + PCC_IFA2_HOP_LEN / 4;
	pcc_put_be16(p + udp_off + 4, (uint16_t)(pcc_get_be16(p + udp_off + 4) + PCC_IFA2_HOP_LEN));
	ifa_ip_grow(p, &l3, PCC_IFA2_HOP_LEN, ifa_proto);
	ifa_udp_csum_fix(p, &l3, udp_off);
	*len = l3.ip_end + PCC_IFA2_HOP_LEN;
	return 0;
}

/* ---- IFA 1.0 (dpdk-pcc layout) ------------------------------------ */

#define IFA1_MARKER_MSB (1ull << 63)

int
pcc_ifa1_parse(const void *buf, uint32_t len, uint64_t marker, struct pcc_ifa1_hdr *h)
{
	const uint8_t *p = buf;

	if (buf == NULL || h == NULL || !(marker & IFA1_MARKER_MSB))
		return PCC_PROTO_ERR_INVAL;
	if (len < PCC_IFA1_HDR_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	h->marker = pcc_get_be64(p);
	if (h->marker != marker || !(h->marker & IFA1_MARKER_MSB))
		return PCC_PROTO_ERR_BAD_FIELD;
	h->ver = p[8] >> 4;
	h->mtype = p[8] & 0xf;
	h->rep = p[9] >> 6;
	h->c = (p[9] >> 5) & 1;
	h->e = (p[9] >> 4) & 1;
	h->flag = p[9] & 0xf;
	h->ctrl = p[10];
	/* p[11] is reserved: written as 0, ignored on receive */
	h->tlm_request = pcc_get_be16(p + 12);
	h->tlm_action = pcc_get_be16(p + 14);
	h->hop_limit = p[16];
	h->hop_count = p[17];
	h->max_len = p[18];
	h->cur_len = p[19];
	h->sender = pcc_get_be32(p + 20);
	h->seq = pcc_get_be32(p + 24);
	if (h->ver != PCC_IFA1_VERSION)
		return PCC_PROTO_ERR_BAD_VERSION;
	if (h->cur_len < PCC_IFA1_HDR_LEN || (h->cur_len - PCC_IFA1_HDR_LEN) % PCC_IFA2_HOP_LEN ||
			h->cur_len > h->max_len || h->cur_len > len)
		return PCC_PROTO_ERR_BAD_LENGTH;
	return 0;
}

int
pcc_ifa1_build(void *buf, uint32_t cap, const struct pcc_ifa1_hdr *h)
{
	uint8_t *p = buf;

	if (buf == NULL || h == NULL || !(h->marker & IFA1_MARKER_MSB) || h->ver > 0xf ||
			h->mtype > 0xf || h->rep > 0x3 || h->c > 1 || h->e > 1 || h->flag > 0xf)
		return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_IFA1_HDR_LEN)
		return PCC_PROTO_ERR_NO_SPACE;
	pcc_put_be64(p, h->marker);
	p[8] = (uint8_t)((h->ver << 4) | h->mtype);
	p[9] = (uint8_t)((h->rep << 6) | (h->c << 5) | (h->e << 4) | h->flag);
	p[10] = h->ctrl;
	p[11] = 0;
	pcc_put_be16(p + 12, h->tlm_request);
	pcc_put_be16(p + 14, h->tlm_action);
	p[16] = h->hop_limit;
	p[17] = h->hop_count;
	p[18] = h->max_len;
	p[19] = h->cur_len;
	pcc_put_be32(p + 20, h->sender);
	pcc_put_be32(p + 24, h->seq);
	return PCC_IFA1_HDR_LEN;
}

int
pcc_ifa1_push_hop(void *buf, uint32_t *len, uint32_t cap, uint64_t marker,
		const struct pcc_ifa2_hop *hop)
{
	uint8_t *p = buf;
	struct pcc_ifa1_hdr h;
	uint32_t end;
	int rc;

	if (buf == NULL || len == NULL || hop == NULL || *len > cap || !ifa2_hop_valid(hop))
		return PCC_PROTO_ERR_INVAL;
	rc = pcc_ifa1_parse(p, *len, marker, &h);
	if (rc < 0)
		return rc;
	end = h.cur_len;
	if (h.hop_limit == 0 || end + PCC_IFA2_HOP_LEN > h.max_len)
		return PCC_PROTO_ERR_BAD_LENGTH;
	if (*len + PCC_IFA2_HOP_LEN > cap)
		return PCC_PROTO_ERR_NO_SPACE;

	/* hops in arrival order: the new one goes after the last; data after
	 * the stack (if any) moves up */
	memmove(p + end + PCC_IFA2_HOP_LEN, p + end, *len - end);
	ifa2_hop_write(p + end, hop);
	p[16] = h.hop_limit - 1;
	if (h.hop_count < UINT8_MAX)
		p[17] = h.hop_count + 1;
	p[19] = (uint8_t)(end + PCC_IFA2_HOP_LEN);
	*len += PCC_IFA2_HOP_LEN;
	return 0;
}
