/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_PROTO_CC_H
#define PCC_PROTO_CC_H

/**
 * @file
 * The congestion-control frames a reaction point receives most — CNPs and
 * RC ACK/NAKs over IPv4 without options, with or without one 802.1Q tag —
 * recognised in a few word loads and compares, without pcc_parse() and
 * its 104-byte descriptor.  Inline: the engine's RX path calls it on
 * every frame of an RP port.
 *
 * pcc_cc_match() answers true only for a frame pcc_parse() would parse
 * with the same options, return 0 for, and give the kind and fields
 * decoded here; for any other frame (another layout or kind, or a
 * malformed one) it answers false and the caller parses the frame with
 * pcc_parse_mbuf(), which then decides (errors included).  The ICRC is not
 * checked: pcc_cc_icrc_ok() does.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>

#include "pcc_proto.h"
#include "pcc_proto_tlm.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What pcc_cc_match() decodes of a CNP, ACK or NAK. */
struct pcc_cc_frame {
	uint32_t dqpn;     /**< BTH DestQP */
	uint32_t psn;      /**< BTH PSN */
	uint16_t l3_off;   /**< IPv4 header: 14, or 18 after a VLAN tag */
	uint16_t ip_len;   /**< IPv4 total length */
	uint8_t kind;      /**< PCC_PKT_CNP, PCC_PKT_ROCE_ACK or PCC_PKT_ROCE_NAK */
	uint8_t ttl;       /**< IPv4 TTL */
	uint8_t bth_flags; /**< BTH byte 4 (FECN, BECN, PCC_BTH_INT) */
	uint8_t syndrome;  /**< AETH syndrome (ACK, NAK); 0 for a CNP */
};

/** The 8 bytes at p as a big-endian number. */
static inline uint64_t
pcc_cc_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return rte_be_to_cpu_64(v);
}

/**
 * Can pcc_cc_match() answer true under opts (NULL: defaults)?  Not when
 * pcc_parse() would check the ICRC or the IPv4 checksum, nor when IFA 2.0
 * is taken to be IP protocol 17 (UDP).  A caller that matches many frames
 * under the same options asks once, then calls pcc_cc_match_raw().
 */
static inline bool
pcc_cc_opts_ok(const struct pcc_parse_opts *opts)
{
	return opts == NULL || !(opts->check_icrc || opts->check_ip_csum || opts->ifa2_proto == 17);
}

/**
 * pcc_cc_match() for options pcc_cc_opts_ok() accepted, whose IFA 1.0
 * marker is ifa1_marker (0: off).
 */
static inline bool
pcc_cc_match_raw(const uint8_t *p, uint32_t len, uint64_t ifa1_marker, struct pcc_cc_frame *cc)
{
	const uint8_t *q = p; /* the frame, or past its VLAN tag */
	uint32_t off = PCC_ETH_HDR_LEN, tot, need;
	uint64_t w0, w1, w2, w3, bad;
	uint8_t op, syn = 0, kind;

	/* the longest such frame's headers: Ethernet, tag, IPv4, UDP, BTH,
	 * AETH */
	if (len < PCC_ETH_HDR_LEN + PCC_VLAN_HDR_LEN + PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN +
					PCC_BTH_LEN + PCC_AETH_LEN)
		return false;
	if (unlikely(p[12] == (PCC_ETHER_TYPE_VLAN >> 8) &&
			    p[13] == (PCC_ETHER_TYPE_VLAN & 0xff))) {
		q += PCC_VLAN_HDR_LEN;
		off += PCC_VLAN_HDR_LEN;
	}
	/* EtherType, version and IHL, TOS, total length, id */
	w0 = pcc_cc_be64(q + 12);
	/* fragment bits, TTL, protocol, checksum, 2 bytes of the source */
	w1 = pcc_cc_be64(q + 20);
	/* UDP: ports, length, checksum */
	w2 = pcc_cc_be64(q + 34);
	/* BTH: opcode, SE/M/pad/TVer, P_Key, flags, DestQP */
	w3 = pcc_cc_be64(q + 42);
	tot = (uint32_t)(w0 >> 16) & 0xffff;
	/* IPv4 without options, no fragment, UDP to 4791 whose length is the
	 * IP payload's (a total length under 20 wraps: no UDP length equals
	 * it), BTH TVer 0 */
	bad = ((w0 >> 40) ^ ((uint64_t)PCC_ETHER_TYPE_IPV4 << 8 | 0x45)) |
			((w1 & UINT64_C(0x3fff00ff00000000)) ^ ((uint64_t)17 << 32)) |
			(((w2 >> 16) & 0xffffffff) ^
					((uint64_t)PCC_ROCE_UDP_PORT << 16 |
							(uint32_t)(tot - PCC_IPV4_HDR_LEN))) |
			(w3 & UINT64_C(0x000f000000000000));
	/* (no CNP or ACK is an IFA 1.0 marker, 0 included) */
	if (bad != 0 || tot > len - off || w3 == ifa1_marker)
		return false;
	/* IP and UDP headers, BTH, pad, ICRC */
	need = PCC_IPV4_HDR_LEN + PCC_UDP_HDR_LEN + PCC_BTH_LEN + ((w3 >> 52) & 0x3) + PCC_ICRC_LEN;
	op = (uint8_t)(w3 >> 56);
	if (op == PCC_OP_CNP) {
		if (tot < need + PCC_CNP_PAD_LEN)
			return false;
		kind = PCC_PKT_CNP;
	} else if (op == PCC_OP_RC_ACK) {
		if (tot < need + PCC_AETH_LEN)
			return false;
		syn = q[54];
		switch ((syn >> 5) & 0x3) {
		case PCC_AETH_ACK:
			kind = PCC_PKT_ROCE_ACK;
			break;
		case PCC_AETH_RNR_NAK:
		case PCC_AETH_NAK:
			kind = PCC_PKT_ROCE_NAK;
			break;
		default:
			return false;
		}
	} else {
		return false;
	}
	cc->dqpn = (uint32_t)w3 & PCC_QPN_MASK;
	memcpy(&cc->psn, q + 50, sizeof(cc->psn));
	cc->psn = rte_be_to_cpu_32(cc->psn) & PCC_PSN_MASK;
	cc->l3_off = (uint16_t)off;
	cc->ip_len = (uint16_t)tot;
	cc->kind = kind;
	cc->ttl = (uint8_t)(w1 >> 40);
	cc->bth_flags = (uint8_t)(w3 >> 24);
	cc->syndrome = syn;
	return true;
}

/**
 * Is the frame p[0..len) a CNP, or an RC ACKNOWLEDGE (ACK or NAK), over
 * IPv4 without options (optionally one 802.1Q tag), well formed as
 * pcc_parse() with opts checks it?  Then true, *cc filled.  opts: as for
 * pcc_parse() (NULL: defaults); with check_icrc or check_ip_csum set the
 * answer is always false.  len: the frame's length; p must hold the first
 * 62 bytes when len is at least that.
 */
static inline bool
pcc_cc_match(const uint8_t *p, uint32_t len, const struct pcc_parse_opts *opts,
		struct pcc_cc_frame *cc)
{
	return pcc_cc_opts_ok(opts) &&
			pcc_cc_match_raw(p, len,
					opts != NULL ? opts->ifa1_marker : PCC_IFA1_MARKER_DEFAULT,
					cc);
}

/**
 * Is the ICRC of a frame pcc_cc_match() accepted (p, *cc) right?  The
 * datagram is the IPv4 packet; its last 4 bytes are the ICRC.
 */
static inline bool
pcc_cc_icrc_ok(const uint8_t *p, const struct pcc_cc_frame *cc)
{
	const uint8_t *ip = p + cc->l3_off;
	uint32_t n = (uint32_t)cc->ip_len - PCC_ICRC_LEN, wire;
	int err;

	memcpy(&wire, ip + n, sizeof(wire));
	return pcc_icrc_calc(ip, n, &err) == rte_le_to_cpu_32(wire) && err == 0;
}

/**
 * pcc_cc_icrc_ok() for n frames at once (at most 64; the rest ignored):
 * frames[i] matched into cc[i].  Returns a mask, bit i set when frame i's
 * ICRC is right.  Runs of frames of one length are checked 2 or 4 to a
 * vector where the CPU (VPCLMULQDQ) and DPDK's SIMD width allow.
 */
uint64_t pcc_cc_icrc_ok_bulk(
		const uint8_t *const frames[], const struct pcc_cc_frame cc[], unsigned int n);

#ifdef __cplusplus
}
#endif

#endif /* PCC_PROTO_CC_H */
