/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A notification point handler written the DOCA PCC way, against
 * <doca_pcc_np_dev.h> only.  It answers a probe request with 12 bytes:
 *
 *   bytes 0..3   big-endian flags word: bit 0 "congested" (L3 TTL below
 *                TTL_CONGESTED), bits 8..15 port, 16..23 probe slot,
 *                bit 24 VLAN tag present
 *   bytes 4..7   big-endian receive time t2 (30-bit ns)
 *   bytes 8..11  the first 4 payload bytes after the MAD header, echoed
 *
 * with DSCP RESP_DSCP.  Requests with less than 4 payload bytes, or whose
 * UDP header does not fit, get no response.
 */

#include <doca_pcc_np_dev.h>

#define TTL_CONGESTED 60
#define RESP_DSCP 26
#define UDP_HDR_LEN 8
#define RESP_LEN 12

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

doca_pcc_dev_error_t
doca_pcc_dev_np_user_packet_handler(struct doca_pcc_np_dev_request_packet *in,
		struct doca_pcc_np_dev_response_packet *out)
{
	uint8_t *payload = doca_pcc_np_dev_get_payload(in);
	uint8_t vlan_present = 0;
	uint16_t vlan_tci = 0;
	uint32_t flags = 0;

	if (doca_pcc_np_dev_get_max_response_size(out) < RESP_LEN)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (doca_pcc_np_dev_get_payload_size(in) < 4 ||
			doca_pcc_np_dev_get_l4_size(in) < UDP_HDR_LEN ||
			doca_pcc_np_dev_get_raw_packet_size(in) < doca_pcc_np_dev_get_l4_size(in) ||
			doca_pcc_np_dev_get_raw_packet(in) == NULL ||
			doca_pcc_np_dev_get_l4_header(in) == NULL)
		return DOCA_PCC_DEV_STATUS_FAIL;

	doca_pcc_np_dev_get_vlan_tci(in, &vlan_present, &vlan_tci);
	if (doca_pcc_np_dev_get_l3_ttl(in) < TTL_CONGESTED)
		flags |= 1u;
	flags |= (uint32_t)doca_pcc_np_dev_get_port_num(in) << 8;
	flags |= (uint32_t)doca_pcc_np_dev_get_packet_probe_type_slot(in) << 16;
	flags |= (uint32_t)(vlan_present != 0) << 24;
	flags |= (uint32_t)doca_pcc_np_dev_get_plane_num(in) << 28;

	put_be32(out->data, flags);
	put_be32(out->data + 4, doca_pcc_np_dev_get_t2_ns(in));
	out->data[8] = payload[0];
	out->data[9] = payload[1];
	out->data[10] = payload[2];
	out->data[11] = payload[3];
	doca_pcc_np_dev_set_response_prio(out, RESP_DSCP);
	__dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W);
	return DOCA_PCC_DEV_STATUS_OK;
}
