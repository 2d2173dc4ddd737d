/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * RTT probe MADs (doc/wire.md section 7): UD SEND_ONLY + DETH, then a
 * 256-byte MAD (a full IB MAD, as QP1 receivers and dissectors expect):
 * the 24-byte MAD common header (TID = probe sequence), the 48-byte body
 *
 *   off size field           off size field
 *    0   4   flow_tag         16   8   np_recv_ts
 *    4   1   slot             24   8   np_send_ts
 *    5   1   flags            32  12   user
 *    6   2   custom_len       44   4   resp_ts (the body's last dword)
 *    8   8   req_send_ts
 *
 * then custom_len (0..64) bytes of custom header and zeros up to byte 256
 * of the MAD; then the ICRC (256 is a multiple of 4: no BTH pad).
 */

#include "proto_internal.h"

#define BODY_FLOW_TAG 0
#define BODY_SLOT 4
#define BODY_FLAGS 5
#define BODY_CUSTOM_LEN 6
#define BODY_REQ_SEND_TS 8
#define BODY_NP_RECV_TS 16
#define BODY_NP_SEND_TS 24
#define BODY_USER 32
#define BODY_RESP_TS 44

_Static_assert(BODY_RESP_TS + 4 == PCC_PROBE_BODY_LEN, "probe body layout");
_Static_assert(PCC_PROBE_CUSTOM_OFF + PCC_PROBE_CUSTOM_MAX <= PCC_PROBE_MAD_LEN,
		"the custom header fits in the MAD");
_Static_assert((PCC_PROBE_MAD_LEN & 3) == 0, "no BTH pad after a probe MAD");

int
pcc_probe_mad_build(
		void *buf, uint32_t cap, bool resp, const struct pcc_probe *p, const void *custom)
{
	struct pcc_mad_hdr mad;
	uint8_t *m = buf, *body;

	if (buf == NULL || p == NULL || p->custom_len > PCC_PROBE_CUSTOM_MAX)
		return PCC_PROTO_ERR_INVAL;
	if (cap < PCC_PROBE_MAD_LEN)
		return PCC_PROTO_ERR_NO_SPACE;

	memset(&mad, 0, sizeof(mad));
	mad.base_version = PCC_MAD_BASE_VERSION;
	mad.mgmt_class = PCC_MAD_CLASS;
	mad.class_version = PCC_MAD_CLASS_VERSION;
	mad.method = resp ? PCC_MAD_METHOD_GET_RESP : PCC_MAD_METHOD_GET;
	mad.tid = p->tid;
	mad.attr_id = PCC_MAD_ATTR_RTT;
	/* the custom header may be in buf itself (a response built over its
	 * request): move it first, the header and body do not overlap it */
	if (custom != NULL)
		memmove(m + PCC_PROBE_CUSTOM_OFF, custom, p->custom_len);
	else
		memset(m + PCC_PROBE_CUSTOM_OFF, 0, p->custom_len);
	memset(m + PCC_PROBE_CUSTOM_OFF + p->custom_len, 0,
			PCC_PROBE_MAD_LEN - PCC_PROBE_CUSTOM_OFF - p->custom_len);
	pcc_mad_hdr_build(m, PCC_MAD_HDR_LEN, &mad);

	body = m + PCC_MAD_HDR_LEN;
	pcc_put_be32(body + BODY_FLOW_TAG, p->flow_tag);
	body[BODY_SLOT] = p->slot;
	pcc_put_be16(body + BODY_CUSTOM_LEN, p->custom_len);
	pcc_put_be64(body + BODY_REQ_SEND_TS, p->req_send_ts);
	if (resp) {
		body[BODY_FLAGS] = p->flags | PCC_PROBE_F_RESPONSE;
		pcc_put_be64(body + BODY_NP_RECV_TS, p->np_recv_ts);
		pcc_put_be64(body + BODY_NP_SEND_TS, p->np_send_ts);
		memcpy(body + BODY_USER, p->user, PCC_PROBE_USER_LEN);
		pcc_put_be32(body + BODY_RESP_TS, p->resp_ts);
		if (p->flags & PCC_PROBE_F_EXT) {
			m[PCC_PROBE_EXT_OFF] = PCC_PROBE_EXT_VERSION;
			m[PCC_PROBE_EXT_OFF + 1] = p->np_port_type;
			pcc_put_be32(m + PCC_PROBE_EXT_OFF + 4, p->np_rx_bytes);
		}
	} else {
		body[BODY_FLAGS] = p->flags & ~PCC_PROBE_F_RESPONSE;
		memset(body + BODY_NP_RECV_TS, 0, PCC_PROBE_BODY_LEN - BODY_NP_RECV_TS);
	}
	return PCC_PROBE_MAD_LEN;
}

int
pcc_probe_mad_parse(const void *buf, uint32_t len, struct pcc_probe *p, const uint8_t **custom)
{
	const uint8_t *m = buf, *body;
	struct pcc_mad_hdr mad;
	int ret, kind;

	if (buf == NULL || p == NULL)
		return PCC_PROTO_ERR_INVAL;
	ret = pcc_mad_hdr_parse(m, len, &mad);
	if (ret < 0)
		return ret;
	if (mad.mgmt_class != PCC_MAD_CLASS || mad.attr_id != PCC_MAD_ATTR_RTT)
		return PCC_PROTO_ERR_BAD_MAD;
	if (mad.class_version != PCC_MAD_CLASS_VERSION)
		return PCC_PROTO_ERR_BAD_VERSION;
	if (mad.method == PCC_MAD_METHOD_GET)
		kind = PCC_PKT_PROBE_REQ;
	else if (mad.method == PCC_MAD_METHOD_GET_RESP)
		kind = PCC_PKT_PROBE_RESP;
	else
		return PCC_PROTO_ERR_BAD_MAD;
	if (len < PCC_PROBE_MAD_LEN)
		return PCC_PROTO_ERR_TRUNCATED;

	body = m + PCC_MAD_HDR_LEN;
	p->tid = mad.tid;
	p->flow_tag = pcc_get_be32(body + BODY_FLOW_TAG);
	p->slot = body[BODY_SLOT];
	p->flags = body[BODY_FLAGS];
	p->custom_len = pcc_get_be16(body + BODY_CUSTOM_LEN);
	p->req_send_ts = pcc_get_be64(body + BODY_REQ_SEND_TS);
	p->np_recv_ts = pcc_get_be64(body + BODY_NP_RECV_TS);
	p->np_send_ts = pcc_get_be64(body + BODY_NP_SEND_TS);
	memcpy(p->user, body + BODY_USER, PCC_PROBE_USER_LEN);
	p->resp_ts = pcc_get_be32(body + BODY_RESP_TS);
	p->ext_version = 0;
	p->np_port_type = 0;
	p->np_rx_bytes = 0;
	if (kind == PCC_PKT_PROBE_RESP && (p->flags & PCC_PROBE_F_EXT)) {
		p->ext_version = m[PCC_PROBE_EXT_OFF];
		p->np_port_type = m[PCC_PROBE_EXT_OFF + 1];
		p->np_rx_bytes = pcc_get_be32(m + PCC_PROBE_EXT_OFF + 4);
	}
	if (p->custom_len > PCC_PROBE_CUSTOM_MAX)
		return PCC_PROTO_ERR_BAD_FIELD;
	if (custom != NULL)
		*custom = p->custom_len != 0 ? m + PCC_PROBE_CUSTOM_OFF : NULL;
	return kind;
}

static int
probe_build(void *buf, uint32_t cap, const struct pcc_l3_spec *l3, uint32_t dqpn, uint32_t sqpn,
		bool resp, const struct pcc_probe *p, const void *custom)
{
	struct pcc_roce_spec rs;
	struct proto_frame fr;
	uint8_t mad[PCC_PROBE_MAD_LEN];
	int ret;

	if (p == NULL || p->custom_len > PCC_PROBE_CUSTOM_MAX)
		return PCC_PROTO_ERR_INVAL;
	/* custom may point into buf (a response built over its request):
	 * build the MAD aside first */
	ret = pcc_probe_mad_build(mad, sizeof(mad), resp, p, custom);
	if (ret < 0)
		return ret;
	memset(&rs, 0, sizeof(rs));
	rs.bth.opcode = PCC_OP_UD_SEND_ONLY;
	rs.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	rs.bth.dqpn = dqpn;
	rs.bth.psn = (uint32_t)p->tid & PCC_PSN_MASK;
	rs.deth.qkey = PCC_GSI_QKEY;
	rs.deth.sqpn = sqpn;
	rs.payload_len = PCC_PROBE_MAD_LEN;
	ret = proto_frame_begin(buf, cap, l3, &rs, &fr);
	if (ret < 0)
		return ret;
	memcpy(fr.buf + fr.payload_off, mad, PCC_PROBE_MAD_LEN);
	proto_frame_end(&fr);
	return (int)fr.frame_len;
}

int
pcc_probe_req_build(void *buf, uint32_t cap, const struct pcc_l3_spec *l3, uint32_t sqpn,
		const struct pcc_probe *p, const void *custom)
{
	return probe_build(buf, cap, l3, PCC_GSI_QPN, sqpn, false, p, custom);
}

int
pcc_probe_resp_build(void *buf, uint32_t cap, const struct pcc_l3_spec *l3, uint32_t dqpn,
		const struct pcc_probe *p, const void *custom)
{
	return probe_build(buf, cap, l3, dqpn, PCC_GSI_QPN, true, p, custom);
}

/* Largest span pcc_probe_resp_inplace() rewrites: IPv6 header to the end
 * of the probe body. */
#define INPLACE_SPAN_MAX \
	(PCC_IPV6_HDR_LEN + PCC_UDP_HDR_LEN + PCC_BTH_LEN + PCC_DETH_LEN + PCC_PROBE_CUSTOM_OFF)

/*
 * Ones'-complement sum of the 16-bit big-endian words of p (len even),
 * folded to 16 bits: summed in native order 8 bytes at a time and swapped
 * at the end (RFC 1071: the sum does not depend on the byte order).
 */
static uint16_t
inplace_csum(const uint8_t *p, uint32_t len)
{
	uint64_t sum = 0, w;
	uint32_t i = 0;
	uint16_t h;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		sum += (w & 0xffffffffu) + (w >> 32);
	}
	for (; i + 2 <= len; i += 2) {
		memcpy(&h, p + i, 2);
		sum += h;
	}
	while (sum >> 32)
		sum = (sum & 0xffffffffu) + (sum >> 32);
	h = proto_csum_fold((uint32_t)sum);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	h = (uint16_t)((h << 8) | (h >> 8));
#endif
	return h;
}

int
pcc_probe_resp_inplace(void *frame, uint32_t cap, const struct pcc_pkt_info *info, uint8_t dscp,
		const struct pcc_probe *p)
{
	uint8_t old[INPLACE_SPAN_MAX], cur[INPLACE_SPAN_MAX], mac[6];
	uint8_t *f = frame, *ip, *udp, *bth, *mad, *body;
	uint32_t hl, span, dlen, icrc, tmp;
	uint16_t sport, udp_ck = 0, udp_old = 0, udp_new;
	bool v6;

	if (frame == NULL || info == NULL || p == NULL || dscp > 63 ||
			p->custom_len > PCC_PROBE_CUSTOM_MAX || info->kind != PCC_PKT_PROBE_REQ)
		return PCC_PROTO_ERR_INVAL;
	v6 = (info->flags & PCC_PKT_F_IPV6) != 0;
	hl = v6 ? PCC_IPV6_HDR_LEN : PCC_IPV4_HDR_LEN;
	/* the layout pcc_probe_resp_build() writes, and nothing else */
	if (info->l4_off != info->l3_off + hl || info->bth_off != info->l4_off + PCC_UDP_HDR_LEN ||
			info->payload_off != info->bth_off + PCC_BTH_LEN + PCC_DETH_LEN ||
			info->payload_len != PCC_PROBE_MAD_LEN || info->pad_cnt != 0 ||
			(uint32_t)info->payload_off + PCC_PROBE_MAD_LEN + PCC_ICRC_LEN > cap ||
			info->frame_len > cap ||
			(uint32_t)info->payload_off + PCC_PROBE_MAD_LEN + PCC_ICRC_LEN >
					info->frame_len)
		return PCC_PROTO_ERR_INVAL;
	ip = f + info->l3_off;
	udp = ip + hl;
	bth = udp + PCC_UDP_HDR_LEN;
	mad = f + info->payload_off;
	body = mad + PCC_MAD_HDR_LEN;
	if (!v6 && ip[0] != 0x45)
		return PCC_PROTO_ERR_INVAL;
	span = (uint32_t)(body + PCC_PROBE_BODY_LEN - ip);
	dlen = (uint32_t)(mad + PCC_PROBE_MAD_LEN - ip);
	memcpy(old, ip, span);
	/* IPv6: the request's UDP checksum and the sum of the words it
	 * covers that may change (UDP header but the checksum, BTH, DETH, MAD
	 * header and body, ICRC), to update it for them (RFC 1624); the
	 * pseudo header does not change (addresses swapped, same length) */
	if (v6) {
		udp_ck = pcc_get_be16(udp + 6);
		udp_old = inplace_csum(udp, 6);
		udp_old = proto_csum_fold((uint32_t)udp_old +
				inplace_csum(udp + PCC_UDP_HDR_LEN, span - hl - PCC_UDP_HDR_LEN) +
				inplace_csum(mad + PCC_PROBE_MAD_LEN, PCC_ICRC_LEN));
	}
	icrc = (uint32_t)mad[PCC_PROBE_MAD_LEN] | ((uint32_t)mad[PCC_PROBE_MAD_LEN + 1] << 8) |
			((uint32_t)mad[PCC_PROBE_MAD_LEN + 2] << 16) |
			((uint32_t)mad[PCC_PROBE_MAD_LEN + 3] << 24);

	/* Ethernet: back to the sender; the VLAN tag stays */
	memcpy(mac, f, 6);
	memcpy(f, f + 6, 6);
	memcpy(f + 6, mac, 6);

	/* IP: addresses swapped, DSCP, not-ECT, TTL 64 */
	if (v6) {
		uint8_t a[16];

		pcc_put_be32(ip, (6u << 28) | ((uint32_t)dscp << 22));
		pcc_put_be16(ip + 4, (uint16_t)(dlen + PCC_ICRC_LEN - hl));
		ip[6] = PROTO_IPPROTO_UDP;
		ip[7] = 64;
		memcpy(a, ip + 8, 16);
		memcpy(ip + 8, ip + 24, 16);
		memcpy(ip + 24, a, 16);
	} else {
		ip[1] = (uint8_t)(dscp << 2);
		pcc_put_be16(ip + 2, (uint16_t)(dlen + PCC_ICRC_LEN));
		pcc_put_be16(ip + 4, 0);
		pcc_put_be16(ip + 6, 0x4000); /* DF */
		ip[8] = 64;
		ip[9] = PROTO_IPPROTO_UDP;
		memcpy(&tmp, ip + 12, 4);
		memcpy(ip + 12, ip + 16, 4);
		memcpy(ip + 16, &tmp, 4);
		pcc_put_be16(ip + 10, proto_ipv4_csum(ip, PCC_IPV4_HDR_LEN));
	}

	/* UDP: source port kept, checksum below */
	sport = pcc_get_be16(udp);
	pcc_put_be16(udp, sport != 0 ? sport : 0xc000);
	pcc_put_be16(udp + 2, PCC_ROCE_UDP_PORT);
	pcc_put_be16(udp + 4, (uint16_t)(dlen + PCC_ICRC_LEN - hl));
	pcc_put_be16(udp + 6, 0);

	/* BTH: UD SEND_ONLY to the requester's QP; DETH: from QP1 */
	bth[0] = PCC_OP_UD_SEND_ONLY;
	bth[1] = 0;
	pcc_put_be16(bth + 2, PCC_BTH_PKEY_DEFAULT);
	bth[4] = 0;
	pcc_put_be24(bth + 5, info->deth_sqpn);
	bth[8] = 0;
	pcc_put_be24(bth + 9, (uint32_t)p->tid & PCC_PSN_MASK);
	pcc_put_be32(bth + PCC_BTH_LEN, PCC_GSI_QKEY);
	bth[PCC_BTH_LEN + 4] = 0;
	pcc_put_be24(bth + PCC_BTH_LEN + 5, PCC_GSI_QPN);

	/* MAD header and body */
	mad[0] = PCC_MAD_BASE_VERSION;
	mad[1] = PCC_MAD_CLASS;
	mad[2] = PCC_MAD_CLASS_VERSION;
	mad[3] = PCC_MAD_METHOD_GET_RESP;
	memset(mad + 4, 0, 4); /* status, class specific */
	pcc_put_be64(mad + 8, p->tid);
	pcc_put_be16(mad + 16, PCC_MAD_ATTR_RTT);
	memset(mad + 18, 0, 6); /* reserved, attribute modifier */
	pcc_put_be32(body + BODY_FLOW_TAG, p->flow_tag);
	body[BODY_SLOT] = p->slot;
	body[BODY_FLAGS] = p->flags | PCC_PROBE_F_RESPONSE;
	pcc_put_be16(body + BODY_CUSTOM_LEN, p->custom_len);
	pcc_put_be64(body + BODY_REQ_SEND_TS, p->req_send_ts);
	pcc_put_be64(body + BODY_NP_RECV_TS, p->np_recv_ts);
	pcc_put_be64(body + BODY_NP_SEND_TS, p->np_send_ts);
	memcpy(body + BODY_USER, p->user, PCC_PROBE_USER_LEN);
	pcc_put_be32(body + BODY_RESP_TS, p->resp_ts);

	/* the masked fields do not count: alike in old and new */
	if (v6) {
		memcpy(old, ip, 4);
		old[7] = ip[7];
	} else {
		old[1] = ip[1];
		old[8] = ip[8];
		old[10] = ip[10];
		old[11] = ip[11];
	}
	old[hl + 6] = udp[6];
	old[hl + 7] = udp[7];
	old[hl + PCC_UDP_HDR_LEN + 4] = bth[4];
	/* the fields were written a byte or two at a time: read them back in
	 * a few wide loads (one store-forwarding stall each) rather than in
	 * the patch's 8-byte steps (one per step) */
	memcpy(cur, ip, span);
	pcc_icrc_patch(&icrc, dlen, 0, old, cur, span);
	proto_put_le32(mad + PCC_PROBE_MAD_LEN, icrc);
	/* the ICRC masks the UDP checksum: it can come last.  A request
	 * without one (0) gets it computed over the datagram. */
	if (v6 && udp_ck == 0) {
		pcc_put_be16(udp + 6, proto_udp6_csum(ip, udp, dlen + PCC_ICRC_LEN - hl));
	} else if (v6) {
		udp_new = proto_csum_fold((uint32_t)inplace_csum(cur + hl, 6) +
				inplace_csum(cur + hl + PCC_UDP_HDR_LEN,
						span - hl - PCC_UDP_HDR_LEN) +
				inplace_csum(mad + PCC_PROBE_MAD_LEN, PCC_ICRC_LEN));
		udp_ck = (uint16_t)~proto_csum_fold(
				(uint32_t)(uint16_t)~udp_ck + udp_new + (uint16_t)~udp_old);
		pcc_put_be16(udp + 6, udp_ck != 0 ? udp_ck : 0xffff);
	}
	return (int)(info->payload_off + PCC_PROBE_MAD_LEN + PCC_ICRC_LEN);
}

int
pcc_probe_parse(const void *frame, const struct pcc_pkt_info *info, struct pcc_probe *p,
		const uint8_t **custom)
{
	int ret;

	if (frame == NULL || info == NULL || p == NULL)
		return PCC_PROTO_ERR_INVAL;
	if ((info->kind != PCC_PKT_PROBE_REQ && info->kind != PCC_PKT_PROBE_RESP) ||
			!(info->flags & PCC_PKT_F_MAD))
		return PCC_PROTO_ERR_BAD_MAD;
	if (info->payload_len < PCC_PROBE_MAD_LEN)
		return PCC_PROTO_ERR_TRUNCATED;
	if (info->payload_off + info->payload_len > info->frame_len)
		return PCC_PROTO_ERR_BAD_LENGTH;
	ret = pcc_probe_mad_parse(
			(const uint8_t *)frame + info->payload_off, info->payload_len, p, custom);
	if (ret < 0)
		return ret;
	if (ret != info->kind)
		return PCC_PROTO_ERR_BAD_MAD;
	return 0;
}
