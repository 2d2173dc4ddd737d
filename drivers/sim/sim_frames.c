/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The frames a receiver's model sends back for a flow: ACK/NAK and the
 * hardware NP's CNP.  Everything of them but the PSN, the AETH and the
 * echoed INT header is the flow's, so each flow keeps the last one it
 * built as a template: the next is the template with those bytes
 * rewritten and its ICRC patched for them (pcc_icrc_patch), the same
 * bytes pcc_roce_build() would write, for a copy and a few multiplies
 * instead of a build and a CRC of the datagram.  A CNP does not change
 * at all.  A template is rebuilt when what it was built with (the DSCP,
 * whether an INT header is echoed) changes.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "sim_internal.h"

/* ACK/NAK: BTH byte 8 (AckReq, 0 in an ACK) to the end of the AETH, then
 * the INT header when one is echoed: what changes from one to the next */
#define ACK_VAR_OFF (SIM_TMPL_BTH_OFF + 8)
#define ACK_VAR_LEN (8 + PCC_INT_HDR_LEN)

struct sim_flow_frames {
	uint8_t ack[SIM_TMPL_BTH_OFF + PCC_BTH_LEN + PCC_AETH_LEN + PCC_INT_HDR_LEN + PCC_ICRC_LEN];
	uint8_t cnp[SIM_TMPL_BTH_OFF + PCC_BTH_LEN + PCC_CNP_PAD_LEN + PCC_ICRC_LEN];
	uint16_t ack_len; /* 0: none yet */
	uint16_t cnp_len;
	uint8_t ack_dscp; /* what the ACK template was built with */
	bool ack_int;
};

int
sim_frames_init(struct pcc_sim *sim)
{
	struct pcc_l3_spec l3;
	uint32_t i;

	sim->frames = calloc(RTE_MAX(sim->nb_flows, 1u), sizeof(*sim->frames));
	if (sim->frames == NULL)
		return -ENOMEM;
	for (i = 0; i < sim->nb_flows; i++) {
		struct sim_flow *f = &sim->flows[i];

		/* what the hash reads of an ACK's or CNP's: addresses, ports */
		sim_l3_between(sim, f->c.dst, f->c.src, f->sport, 0, PCC_ECN_NOT_ECT, &l3);
		f->back_hash = sim_l3_hash(&l3);
	}
	return 0;
}

void
sim_frames_free(struct pcc_sim *sim)
{
	free(sim->frames);
	sim->frames = NULL;
}

static inline uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static int
ack_full(struct pcc_sim *sim, uint32_t fi, bool nak, uint32_t psn, bool with_int, void *buf,
		uint32_t cap)
{
	const struct sim_flow *f = &sim->flows[fi];
	struct pcc_roce_spec r;
	struct pcc_l3_spec l3;

	sim_l3_between(sim, f->c.dst, f->c.src, f->sport, f->dscp, PCC_ECN_NOT_ECT, &l3);
	memset(&r, 0, sizeof(r));
	r.bth.opcode = PCC_OP_RC_ACK;
	r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r.bth.dqpn = f->c.qpn;
	r.bth.psn = psn & PCC_PSN_MASK;
	r.aeth.syndrome = nak ? (uint8_t)((PCC_AETH_NAK << 5) | PCC_NAK_PSN_SEQ_ERR) : 0x1F;
	r.aeth.msn = f->msn;
	if (with_int) {
		r.bth.flags = PCC_BTH_INT;
		r.payload = f->int_echo;
		r.payload_len = PCC_INT_HDR_LEN;
	}
	return pcc_roce_build(buf, cap, &l3, &r);
}

int
sim_ack_build(struct pcc_sim *sim, uint32_t fi, bool nak, uint32_t psn, void *buf, uint32_t cap)
{
	const struct sim_flow *f = &sim->flows[fi];
	struct sim_flow_frames *fr = &sim->frames[fi];
	bool with_int = !nak && f->has_int;
	uint8_t var[ACK_VAR_LEN], *b = buf;
	uint32_t n = with_int ? ACK_VAR_LEN : 8, icrc_off, icrc;
	int len;

	if (fr->ack_len == 0 || fr->ack_dscp != f->dscp || fr->ack_int != with_int) {
		len = ack_full(sim, fi, nak, psn, with_int, buf, cap);
		if (len > 0 && (uint32_t)len <= sizeof(fr->ack) &&
				(uint32_t)len == ACK_VAR_OFF + n + PCC_ICRC_LEN) {
			memcpy(fr->ack, buf, (size_t)len);
			fr->ack_len = (uint16_t)len;
			fr->ack_dscp = f->dscp;
			fr->ack_int = with_int;
		} else {
			fr->ack_len = 0;
		}
		return len;
	}
	len = fr->ack_len;
	if ((uint32_t)len > cap)
		return PCC_PROTO_ERR_NO_SPACE;
	psn &= PCC_PSN_MASK;
	var[0] = fr->ack[ACK_VAR_OFF]; /* AckReq 0, reserved */
	var[1] = (uint8_t)(psn >> 16);
	var[2] = (uint8_t)(psn >> 8);
	var[3] = (uint8_t)psn;
	var[4] = nak ? (uint8_t)((PCC_AETH_NAK << 5) | PCC_NAK_PSN_SEQ_ERR) : 0x1F;
	var[5] = (uint8_t)(f->msn >> 16);
	var[6] = (uint8_t)(f->msn >> 8);
	var[7] = (uint8_t)f->msn;
	if (with_int)
		memcpy(var + 8, f->int_echo, PCC_INT_HDR_LEN);
	icrc_off = (uint32_t)len - PCC_ICRC_LEN;
	icrc = get_le32(fr->ack + icrc_off);
	if (pcc_icrc_patch(&icrc, icrc_off - PCC_ETH_HDR_LEN, ACK_VAR_OFF - PCC_ETH_HDR_LEN,
			    fr->ack + ACK_VAR_OFF, var, n) != 0)
		return ack_full(sim, fi, nak, psn, with_int, buf, cap);
	memcpy(b, fr->ack, ACK_VAR_OFF);
	memcpy(b + ACK_VAR_OFF, var, n);
	put_le32(b + icrc_off, icrc);
	return len;
}

int
sim_cnp_build(struct pcc_sim *sim, uint32_t fi, void *buf, uint32_t cap)
{
	const struct sim_flow *f = &sim->flows[fi];
	struct sim_flow_frames *fr = &sim->frames[fi];
	struct pcc_l3_spec l3;
	int len;

	if (fr->cnp_len != 0 && fr->cnp_len <= cap) {
		memcpy(buf, fr->cnp, fr->cnp_len);
		return fr->cnp_len;
	}
	sim_l3_between(sim, f->c.dst, f->c.src, f->sport, sim->scn->host.cnp_dscp, PCC_ECN_NOT_ECT,
			&l3);
	len = pcc_cnp_build(buf, cap, &l3, f->c.qpn);
	if (len > 0 && (uint32_t)len <= sizeof(fr->cnp)) {
		memcpy(fr->cnp, buf, (size_t)len);
		fr->cnp_len = (uint16_t)len;
	}
	return len;
}
