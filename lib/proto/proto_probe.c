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
