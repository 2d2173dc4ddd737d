/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * telem_np: a switch-telemetry notification point (DOCA device API only).
 * The host sets, through the NP mailbox, the hop limit the reaction
 * points' IFA2 probes start with (a 32-bit request, its first byte; as
 * DOCA's switch-telemetry sample takes it); until then requests are
 * answered with no telemetry.  Each answer (telem.h) describes the hop of
 * the largest queue among those the request crossed, with the deltas of
 * that hop's TX byte counter and TX time since the previous request that
 * crossed it.
 */

#include <doca_pcc_dev_services.h>
#include <doca_pcc_np_dev.h>

#include "telem.h"

#define DB_SIZE 1024u

struct hop_sample {
	uint32_t tx_bytes;
	uint32_t tx_ts;
	uint32_t valid;
};

static struct hop_sample db[DB_SIZE];
static volatile uint32_t max_hop_limit;
static volatile uint32_t mailbox_done;
static uint32_t answered_valid;

FORCE_INLINE uint32_t
hop_key(const uint8_t *hop)
{
	uint32_t device = tmpl_be32(hop) >> 2;
	uint32_t egress = tmpl_be16(hop + TELEM_HOP_EGRESS_OFF);

	return (device * 64u + egress) % DB_SIZE;
}

FORCE_INLINE uint32_t
hop_qlen(const uint8_t *hop)
{
	return ((uint32_t)tmpl_be16(hop + TELEM_HOP_QHI_OFF) << 16) |
			tmpl_be16(hop + TELEM_HOP_QLO_OFF);
}

/* The hop of the largest queue among n at md; -1 if none is ours. */
static int
worst_hop(const uint8_t *hops, uint32_t n)
{
	uint32_t i, best_q = 0;
	int best = -1;

	for (i = 0; i < n; i++) {
		const uint8_t *h = hops + i * TELEM_HOP_LEN;

		if (tmpl_be16(h + TELEM_HOP_MARKER_OFF) != TELEM_HOP_MARKER)
			continue;
		if (best < 0 || hop_qlen(h) > best_q) {
			best = (int)i;
			best_q = hop_qlen(h);
		}
	}
	return best;
}

doca_pcc_dev_error_t
doca_pcc_dev_np_user_packet_handler(struct doca_pcc_np_dev_request_packet *in,
		struct doca_pcc_np_dev_response_packet *out)
{
	const uint8_t *l4 = doca_pcc_np_dev_get_l4_header(in);
	uint32_t l4_len = (uint32_t)doca_pcc_np_dev_get_l4_size(in);
	uint8_t *data = (uint8_t *)out->data;
	const uint8_t *md, *hops, *h;
	struct hop_sample *s, prev;
	uint32_t n, qlen, dt;
	int best;

	if (!mailbox_done || l4_len < TELEM_UDP_LEN + TELEM_MD_LEN)
		return DOCA_PCC_DEV_STATUS_OK; /* no telemetry yet: zeros */
	md = l4 + TELEM_UDP_LEN;
	hops = md + TELEM_MD_LEN;
	/* hops traversed: the starting limit minus what is left, bounded by
	 * the stack and the packet */
	n = max_hop_limit > md[2] ? max_hop_limit - md[2] : 0;
	if (n > md[3] / 8u)
		n = md[3] / 8u;
	if (n > (l4_len - TELEM_UDP_LEN - TELEM_MD_LEN) / TELEM_HOP_LEN)
		n = (l4_len - TELEM_UDP_LEN - TELEM_MD_LEN) / TELEM_HOP_LEN;
	best = worst_hop(hops, n);
	if (best < 0)
		return DOCA_PCC_DEV_STATUS_OK;
	h = hops + (uint32_t)best * TELEM_HOP_LEN;
	s = &db[hop_key(h)];
	prev = *s;
	s->tx_bytes = tmpl_be32(h + TELEM_HOP_TXBYTES_OFF);
	s->tx_ts = tmpl_be32(h + TELEM_HOP_TXTS_OFF);
	s->valid = 1;
	qlen = hop_qlen(h) > UINT16_MAX ? UINT16_MAX : hop_qlen(h);
	tmpl_put_be16(data, (uint16_t)qlen);
	data[2] = (uint8_t)best;
	data[3] = (uint8_t)((tmpl_be32(h) & 3u) << 1);
	dt = tmpl_elapsed32(s->tx_ts, prev.tx_ts);
	if (prev.valid && dt > 0 && dt < 2000000000u) {
		data[3] |= TELEM_F_VALID;
		tmpl_put_be32(data + 4, tmpl_elapsed32(s->tx_bytes, prev.tx_bytes));
		tmpl_put_be32(data + 8, dt);
		__atomic_fetch_add(&answered_valid, 1, __ATOMIC_RELAXED);
	}
	return DOCA_PCC_DEV_STATUS_OK;
}

/* Request: 32 bits, the first byte the probes' starting hop limit.
 * Answer: the hop limit and the answers with valid telemetry so far. */
doca_pcc_dev_error_t
doca_pcc_dev_user_mailbox_handle(void *request, uint32_t request_size, uint32_t max_response_size,
		void *response, uint32_t *response_size)
{
	uint32_t *out = response;

	if (request_size != sizeof(uint32_t) || max_response_size < 2 * sizeof(uint32_t))
		return DOCA_PCC_DEV_STATUS_FAIL;
	max_hop_limit = *(const uint8_t *)request;
	mailbox_done = 1;
	__dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W);
	out[0] = max_hop_limit;
	out[1] = __atomic_load_n(&answered_valid, __ATOMIC_RELAXED);
	*response_size = 2 * sizeof(uint32_t);
	doca_pcc_dev_printf("telem_np: hop limit %u\n", max_hop_limit);
	return DOCA_PCC_DEV_STATUS_OK;
}
