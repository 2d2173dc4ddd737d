/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_NP_DEV_H_
#define DOCA_PCC_NP_DEV_H_

/**
 * @file
 * dpdk-pcc's DOCA PCC compatibility: the notification point (NP) device
 * API, mapped onto pcc_np.h.
 *
 * The application provides doca_pcc_dev_np_user_packet_handler(); the glue
 * installs it as the process's NP handler when the plug-in loads.  The
 * request is a view of the probe packet (struct pcc_np_pkt); the response
 * carries DOCA's 12 bytes of user data, zeroed before the call, and an
 * optional DSCP.  Returning FAIL sends no response.
 */

#include <stddef.h>
#include <stdint.h>

#include <pcc_np.h>

#include "doca_pcc_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The request: opaque to applications. */
struct doca_pcc_np_dev_request_packet {
	struct pcc_np_pkt pkt;
};

/** The response (size, data and in are DOCA's public fields). */
struct doca_pcc_np_dev_response_packet {
	size_t size;                               /**< bytes of data: 12 */
	uint8_t *data;                             /**< the user data to fill */
	struct doca_pcc_np_dev_request_packet *in; /**< the request */
	struct pcc_np_resp *pcc_resp;              /**< dpdk-pcc: native response */
};

/** The application's handler (declared by DOCA with the same prototype). */
doca_pcc_dev_error_t doca_pcc_dev_np_user_packet_handler(struct doca_pcc_np_dev_request_packet *in,
		struct doca_pcc_np_dev_response_packet *out);

/** Packet from its Ethernet header (no byte swap). */
FORCE_INLINE uint8_t *
doca_pcc_np_dev_get_raw_packet(const struct doca_pcc_np_dev_request_packet *input)
{
	return (uint8_t *)(uintptr_t)input->pkt.frame;
}

/** Bytes from the Ethernet header to the end of the packet. */
FORCE_INLINE size_t
doca_pcc_np_dev_get_raw_packet_size(const struct doca_pcc_np_dev_request_packet *input)
{
	return input->pkt.frame_len;
}

/** IPv4 TTL or IPv6 hop limit of the request. */
FORCE_INLINE uint8_t
doca_pcc_np_dev_get_l3_ttl(const struct doca_pcc_np_dev_request_packet *input)
{
	return input->pkt.l3_ttl;
}

/** The UDP header, followed by the rest of the packet (no byte swap). */
FORCE_INLINE uint8_t *
doca_pcc_np_dev_get_l4_header(const struct doca_pcc_np_dev_request_packet *input)
{
	return (uint8_t *)(uintptr_t)input->pkt.l4;
}

/** Bytes from the UDP header to the end. */
FORCE_INLINE size_t
doca_pcc_np_dev_get_l4_size(const struct doca_pcc_np_dev_request_packet *input)
{
	return input->pkt.l4_len;
}

/** The probe payload after the MAD header (no byte swap). */
FORCE_INLINE uint8_t *
doca_pcc_np_dev_get_payload(const struct doca_pcc_np_dev_request_packet *input)
{
	return (uint8_t *)(uintptr_t)input->pkt.payload;
}

/** Bytes of payload after the MAD header. */
FORCE_INLINE size_t
doca_pcc_np_dev_get_payload_size(const struct doca_pcc_np_dev_request_packet *input)
{
	return input->pkt.payload_len;
}

/** Logical port the request arrived on. */
FORCE_INLINE uint8_t
doca_pcc_np_dev_get_port_num(const struct doca_pcc_np_dev_request_packet *input)
{
	return input->pkt.port;
}

/** Plane of that port. */
FORCE_INLINE uint8_t
doca_pcc_np_dev_get_plane_num(const struct doca_pcc_np_dev_request_packet *input)
{
	return input->pkt.plane;
}

/** VLAN tag removed from the request: presence and TCI (big-endian, as DOCA). */
FORCE_INLINE void
doca_pcc_np_dev_get_vlan_tci(const struct doca_pcc_np_dev_request_packet *input,
		uint8_t *vlan_present, uint16_t *vlan_tci)
{
	uint16_t tci = input->pkt.vlan_tci;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	tci = __builtin_bswap16(tci);
#endif
	if (vlan_present != NULL)
		*vlan_present = input->pkt.vlan_present;
	if (vlan_tci != NULL)
		*vlan_tci = input->pkt.vlan_present ? tci : 0;
}

/** Probe format slot the request matched. */
FORCE_INLINE uint8_t
doca_pcc_np_dev_get_packet_probe_type_slot(const struct doca_pcc_np_dev_request_packet *input)
{
	return input->pkt.probe_slot;
}

/** NP receive time of the request, ns, 30 bits. */
FORCE_INLINE uint32_t
doca_pcc_np_dev_get_t2_ns(const struct doca_pcc_np_dev_request_packet *input)
{
	return input->pkt.t2_ns & PCC_NP_T2_MASK;
}

/** Bytes of response data the handler may write (12). */
FORCE_INLINE size_t
doca_pcc_np_dev_get_max_response_size(struct doca_pcc_np_dev_response_packet *out)
{
	return out->size;
}

/** DSCP (0..63) of the response packet. */
FORCE_INLINE void
doca_pcc_np_dev_set_response_prio(struct doca_pcc_np_dev_response_packet *out, uint32_t prio)
{
	if (out->pcc_resp == NULL)
		return;
	out->pcc_resp->dscp = (uint8_t)(prio & 0x3f);
	out->pcc_resp->dscp_set = 1;
}

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PCC_NP_DEV_H_ */
