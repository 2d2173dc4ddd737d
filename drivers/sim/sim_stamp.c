/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * What a switch writes into the frames it sends: the incremental ICRC
 * (sim_icrc_patch) that keeps them valid, HPCC INT hops and IFA2 hops in
 * each switch's profile (doc/wire.md 8.3, 8.3.1, 10).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "sim_internal.h"

/* ---- Incremental ICRC --------------------------------------------------------------
 *
 * A change of n ICRC-covered (and not masked) bytes updates the ICRC by
 * the CRC of old ^ new shifted by their distance to its end:
 * pcc_icrc_patch(), carry-less multiplies from a table of powers (a few ns
 * for an INT hop or a PSN); only the distance to the end matters, so the
 * frame's bytes before the IP header count as the datagram's.  Until
 * 2026-11 this was a byte-table CRC and a square-and-multiply for the
 * shift in software, about 2 800 instructions a data frame of the model's
 * sources.
 */

void
sim_icrc_patch(uint8_t *frame, uint32_t icrc_off, uint32_t off, const uint8_t *old, uint32_t n)
{
	uint32_t crc;

	crc = (uint32_t)frame[icrc_off] | (uint32_t)frame[icrc_off + 1] << 8 |
			(uint32_t)frame[icrc_off + 2] << 16 | (uint32_t)frame[icrc_off + 3] << 24;
	if (pcc_icrc_patch(&crc, icrc_off, off, old, frame + off, n) != 0)
		return;
	frame[icrc_off] = (uint8_t)crc;
	frame[icrc_off + 1] = (uint8_t)(crc >> 8);
	frame[icrc_off + 2] = (uint8_t)(crc >> 16);
	frame[icrc_off + 3] = (uint8_t)(crc >> 24);
}

void
sim_stamp_int(struct sim_port *p, struct sim_pkt *pkt, uint64_t now)
{
	uint8_t *frame = rte_pktmbuf_mtod(pkt->m, uint8_t *);
	uint8_t old[PCC_INT_HDR_LEN];

	if (p->int_code < 0)
		return;
	memcpy(old, frame + pkt->int_off, sizeof(old));
	if (pcc_int_push_hop(frame + pkt->int_off, PCC_INT_HDR_LEN, (uint8_t)p->int_code, now,
			    p->tx_bytes, p->q_bytes) != 0)
		return;
	p->int_hops++;
	/* the INT bytes are ICRC-covered (doc/wire.md section 10) */
	sim_icrc_patch(frame, pkt->icrc_off, pkt->int_off, old, PCC_INT_HDR_LEN);
}

/* doc/wire.md 8.3: queue bytes (32), reserved (16), cells (16), reserved (32) */
static void
hop_dpdk_pcc(const struct sim_ifa2_stamp *st, struct pcc_ifa2_hop *hop)
{
	uint32_t qb = (uint32_t)RTE_MIN(st->q_bytes, (uint64_t)UINT32_MAX);
	uint64_t cells = RTE_MIN((st->q_bytes + 255) / 256, (uint64_t)UINT16_MAX);

	memset(hop, 0, sizeof(*hop));
	hop->device_id = st->device_id & 0xFFFFF;
	hop->ttl = st->ttl;
	hop->port_speed = st->speed_code & 0xF;
	hop->congestion = st->congestion & 0x3;
	hop->rx_sec = (uint32_t)((st->rx_ns / SIM_NS_PER_S) & 0xFFFFF);
	hop->rx_ns = (uint32_t)(st->rx_ns % SIM_NS_PER_S);
	hop->egress_port = st->out_port;
	hop->ingress_port = st->in_port;
	hop->residence_ns = (uint32_t)RTE_MIN(st->tx_ns - st->rx_ns, (uint64_t)UINT32_MAX);
	hop->profile[0] = (uint8_t)(qb >> 24);
	hop->profile[1] = (uint8_t)(qb >> 16);
	hop->profile[2] = (uint8_t)(qb >> 8);
	hop->profile[3] = (uint8_t)qb;
	hop->profile[6] = (uint8_t)(cells >> 8);
	hop->profile[7] = (uint8_t)cells;
}

/* The marker of the vendor layout in the high half of bytes 8..11. */
#define DOCA_HOP_MARKER 0x8000u
/* Links faster than this have port type 1. */
#define DOCA_PT_FAST_BPS 25000000000ull

static void
put_be16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, v >> 16);
	put_be16(p + 2, v);
}

/* doc/wire.md 8.3.1: the 32 bytes, big endian */
static void
hop_doca_bytes(const struct sim_ifa2_stamp *st, uint8_t *b)
{
	uint64_t cells = RTE_MIN((st->q_bytes + 255) / 256, (uint64_t)UINT32_MAX);
	uint32_t pt = st->rate_bps > DOCA_PT_FAST_BPS ? 1 : 0;
	uint32_t rx_ns = (uint32_t)(st->rx_ns % SIM_NS_PER_S);

	memset(b, 0, PCC_IFA2_HOP_LEN);
	put_be32(b, ((st->device_id & 0x3FFFFFFFu) << 2) | pt);
	b[4] = st->congestion & 0x1F; /* tid (bits 7..5) 0 */
	b[5] = 0;                     /* TX bytes, high bits: unused */
	b[6] = st->ttl;
	b[7] = 0; /* queue id */
	put_be32(b + 8, (DOCA_HOP_MARKER << 16) | (uint32_t)(cells >> 16));
	put_be16(b + 12, (uint32_t)(st->rx_ns / SIM_NS_PER_S));
	put_be32(b + 14, rx_ns);
	put_be32(b + 18, (uint32_t)st->tx_ns);
	put_be16(b + 22, (uint32_t)cells);
	put_be16(b + 24, st->in_port);
	put_be16(b + 26, st->out_port);
	put_be32(b + 28, (uint32_t)st->tx_bytes);
}

void
sim_ifa2_hop(uint8_t profile, const struct sim_ifa2_stamp *st, struct pcc_ifa2_hop *hop)
{
	uint8_t b[PCC_IFA2_HOP_LEN];

	if (profile != SIM_IFA2_PROFILE_DOCA) {
		hop_dpdk_pcc(st, hop);
		return;
	}
	hop_doca_bytes(st, b);
	/* every bit of the 32 bytes is a field of the struct: a lossless trip */
	pcc_ifa2_hop_parse(b, sizeof(b), hop);
}

void
sim_stamp_ifa2(struct pcc_sim *sim, struct sim_port *p, struct sim_pkt *pkt, uint64_t now)
{
	struct rte_mbuf *m = pkt->m;
	uint8_t *frame = rte_pktmbuf_mtod(m, uint8_t *);
	const uint8_t *ip = frame + pkt->l3_off;
	struct sim_ifa2_stamp st;
	struct pcc_ifa2_hop hop;
	uint32_t len = m->data_len;

	if (m->nb_segs != 1)
		return;
	st.device_id = p->node + 1;
	st.ttl = (ip[0] >> 4) == 4 ? ip[8] : ip[7];
	st.congestion = p->q_bytes > p->kmax ? 2 : p->q_bytes > p->kmin ? 1 : 0;
	st.speed_code = (uint8_t)p->ifa_speed;
	st.rate_bps = p->rate_bps;
	st.in_port = pkt->in_port;
	st.out_port = p->local;
	st.rx_ns = pkt->t_in;
	st.tx_ns = now;
	st.q_bytes = p->q_bytes;
	st.tx_bytes = p->tx_bytes;
	sim_ifa2_hop(sim->nodes[p->node].ifa2_profile, &st, &hop);
	if (pcc_ifa2_push_hop(frame, &len, m->data_len + rte_pktmbuf_tailroom(m),
			    sim->scn->sw.ifa2_proto, &hop) != 0)
		return;
	p->ifa_hops++;
	pkt->len += len - m->data_len;
	m->pkt_len += len - m->data_len;
	m->data_len = (uint16_t)len;
}
