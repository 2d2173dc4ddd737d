/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * echo_np: a notification point application (DOCA device API only).  It
 * answers every probe request with 12 bytes: the request's first four
 * custom header bytes (rtt_tmpl puts its flow's QPN there), a magic, and
 * a tag the host sets through the NP mailbox.  The mailbox request is the
 * new tag (32 bits); the answer is the old tag and the requests seen.
 */

#include <string.h>

#include <doca_pcc_dev_services.h>
#include <doca_pcc_np_dev.h>

#include "rtt_tmpl.h"

/* the probe body before the custom header (doc/wire.md 7.3) */
#define PROBE_BODY_LEN 48

static volatile uint32_t np_tag;
static uint32_t np_requests;

doca_pcc_dev_error_t
doca_pcc_dev_np_user_packet_handler(struct doca_pcc_np_dev_request_packet *in,
		struct doca_pcc_np_dev_response_packet *out)
{
	const uint8_t *payload = doca_pcc_np_dev_get_payload(in);
	uint8_t *data = (uint8_t *)out->data;

	__atomic_fetch_add(&np_requests, 1, __ATOMIC_RELAXED);
	if (doca_pcc_np_dev_get_payload_size(in) >= PROBE_BODY_LEN + 4)
		memcpy(data, payload + PROBE_BODY_LEN, 4);
	tmpl_put_be32(data + 4, ECHO_NP_MAGIC);
	tmpl_put_be32(data + 8, np_tag);
	return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t
doca_pcc_dev_user_mailbox_handle(void *request, uint32_t request_size, uint32_t max_response_size,
		void *response, uint32_t *response_size)
{
	uint32_t *out = response;

	if (request_size != sizeof(uint32_t) || max_response_size < 2 * sizeof(uint32_t))
		return DOCA_PCC_DEV_STATUS_FAIL;
	out[0] = np_tag;
	out[1] = __atomic_load_n(&np_requests, __ATOMIC_RELAXED);
	np_tag = *(const uint32_t *)request;
	__dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W);
	*response_size = 2 * sizeof(uint32_t);
	doca_pcc_dev_printf("echo_np: tag 0x%x\n", np_tag);
	return DOCA_PCC_DEV_STATUS_OK;
}
