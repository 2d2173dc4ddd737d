/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_DEV_EVENT_H_
#define DOCA_PCC_DEV_EVENT_H_

/**
 * @file
 * dpdk-pcc's DOCA PCC compatibility: event accessors.
 *
 * On DOCA the event record is big-endian words that these accessors
 * decode; lib/dev's event is already in host order, so they only read it.
 * Times are nanoseconds, 32 bits (they wrap: subtract in uint32_t).
 * Accessors take a const pointer, so DOCA's non-const calls compile as is.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "doca_pcc_dev_common.h"
#include "doca_pcc_dev_data_structures.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Type, subtype, port and flags of any event. */
FORCE_INLINE doca_pcc_dev_event_general_attr_t
doca_pcc_dev_get_ev_attr(const doca_pcc_dev_event_t *event)
{
	doca_pcc_dev_event_general_attr_t a;

	memset(&a, 0, sizeof(a));
	a.ev_type = event->type;
	a.ev_subtype = event->subtype;
	a.port_num = event->port;
	a.flags = event->flags;
	return a;
}

/** Flow identifier of any event. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_flowtag(const doca_pcc_dev_event_t *event)
{
	return event->flow_tag;
}

/** Sequence number of any event. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_sn(const doca_pcc_dev_event_t *event)
{
	return event->sn;
}

/** Time of any event, ns. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_timestamp(const doca_pcc_dev_event_t *event)
{
	return event->ts;
}

/** CNP/ACK/NACK/RTT: IPv4 TTL / IPv6 hop limit of the received packet
 *  (the last one of coalesced events); TX: 0. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_ttl_hoplimit(const doca_pcc_dev_event_t *event)
{
	return event->ttl;
}

/** QPN of the event's flow, every event type (0 for a non-RoCE flow). */
FORCE_INLINE uint32_t
doca_pcc_dev_get_flow_qpn(const doca_pcc_dev_event_t *event)
{
	return event->flow_qpn;
}

/** FW event data: FW events never occur here, 0. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_fw_settings(const doca_pcc_dev_event_t *event, int n)
{
	(void)event;
	(void)n;
	return 0;
}

/** TX/ACK/NACK/CNP: time of the first coalesced event, ns. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_roce_first_timestamp(const doca_pcc_dev_event_t *event)
{
	return event->type == PCC_DEV_EVENT_TX ? event->tx.first_ts : event->ack.first_ts;
}

/** TX: bytes (in 32-byte units) and packets sent. */
FORCE_INLINE doca_pcc_dev_roce_tx_cntrs_t
doca_pcc_dev_get_roce_tx_cntrs(const doca_pcc_dev_event_t *event)
{
	doca_pcc_dev_roce_tx_cntrs_t c;

	memset(&c, 0, sizeof(c));
	c.sent_32bytes = event->tx.sent_32b;
	c.sent_pkts = event->tx.sent_pkts;
	return c;
}

/** ACK/NACK/CNP: sequence number of the first coalesced event. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_roce_ack_first_sn(const doca_pcc_dev_event_t *event)
{
	return event->ack.first_sn;
}

/** ACK/NACK/CNP: number of coalesced events (saturating at 0xFFFF). */
FORCE_INLINE doca_pcc_dev_ack_nack_cnp_extra_t
doca_pcc_dev_get_ack_nack_cnp_extra(const doca_pcc_dev_event_t *event)
{
	doca_pcc_dev_ack_nack_cnp_extra_t x;

	memset(&x, 0, sizeof(x));
	x.num_coalesced = event->ack.coalesced > 0xffffu ? 0xffffu : event->ack.coalesced;
	return x;
}

/** RTT: when the request left the reaction point, ns (RP clock). */
FORCE_INLINE uint32_t
doca_pcc_dev_get_rtt_req_send_timestamp(const doca_pcc_dev_event_t *event)
{
	return event->rtt.req_send_ts;
}

/** RTT: when the notification point received the request, ns (NP clock). */
FORCE_INLINE uint32_t
doca_pcc_dev_get_rtt_req_recv_timestamp(const doca_pcc_dev_event_t *event)
{
	return event->rtt.req_recv_ts;
}

/** RTT: when the notification point sent the response, ns (NP clock). */
FORCE_INLINE uint32_t
doca_pcc_dev_get_rtt_resp_send_timestamp(const doca_pcc_dev_event_t *event)
{
	return event->rtt.resp_send_ts;
}

/** RTT: the NP handler's response bytes, as received (no byte swap). */
FORCE_INLINE unsigned char *
doca_pcc_dev_get_rtt_raw_data(const doca_pcc_dev_event_t *event)
{
	return (unsigned char *)(uintptr_t)event->rtt.user;
}

/** RTT: size of the NP handler's response bytes. */
FORCE_INLINE size_t
doca_pcc_dev_get_rtt_raw_data_size(const doca_pcc_dev_event_t *event)
{
	(void)event;
	return PCC_DEV_RTT_USER_LEN;
}

/** RTT response version: 1 when the NP added its port RX byte counter
 *  and port type (the NP's np-resp-ext setting), else 0. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_rtt_resp_version(const doca_pcc_dev_event_t *event)
{
	return event->rtt.version;
}

/** Version >= 1: the NP port's received bytes, low 32 bits, when it sent
 *  the response. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_rtt_np_rx_byte_counter(const doca_pcc_dev_event_t *event)
{
	return event->rtt.np_rx_bytes;
}

/** Version >= 1: the NP port's type, 0 for links up to 25 Gb/s, 1 for
 *  faster ones. */
FORCE_INLINE uint32_t
doca_pcc_dev_get_rtt_resp_port_type(const doca_pcc_dev_event_t *event)
{
	return event->rtt.np_port_type;
}

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PCC_DEV_EVENT_H_ */
