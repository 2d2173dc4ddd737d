/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_PROTO_INTERNAL_H
#define PCC_PROTO_INTERNAL_H

/*
 * Helpers shared by the lib/proto sources.  Not installed; nothing outside
 * lib/proto may include this file.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_mbuf.h>

#include "pcc_proto.h"

/* Unaligned big-endian loads and stores: wire data has no alignment. */
static inline uint16_t
pcc_get_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t
pcc_get_be24(const uint8_t *p)
{
	return ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
}

static inline uint32_t
pcc_get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static inline uint64_t
pcc_get_be64(const uint8_t *p)
{
	return ((uint64_t)pcc_get_be32(p) << 32) | pcc_get_be32(p + 4);
}

static inline void
pcc_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static inline void
pcc_put_be24(uint8_t *p, uint32_t v)
{
	p[0] = (v >> 16) & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = v & 0xff;
}

static inline void
pcc_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = (v >> 16) & 0xff;
	p[2] = (v >> 8) & 0xff;
	p[3] = v & 0xff;
}

static inline void
pcc_put_be64(uint8_t *p, uint64_t v)
{
	pcc_put_be32(p, (uint32_t)(v >> 32));
	pcc_put_be32(p + 4, (uint32_t)v);
}

/* ---- RoCEv2 core internals (proto_parse.c, proto_build.c, proto_icrc.c,
 * proto_probe.c).  Internal symbols use the proto_ prefix so that the
 * version map (pcc_*) keeps them local.
 */

#define PROTO_IPV4_HDR_MAX 60
#define PROTO_IPPROTO_UDP 17
/* Largest IP+UDP+BTH header block the ICRC masks (IPv4 with options). */
#define PROTO_ICRC_HDR_MAX (PROTO_IPV4_HDR_MAX + PCC_UDP_HDR_LEN + PCC_BTH_LEN)

/** Where proto_frame_begin() put things (offsets from the frame start). */
struct proto_frame {
	uint8_t *buf;
	uint32_t l3_off;      /**< IP header */
	uint32_t l4_off;      /**< UDP header */
	uint32_t bth_off;     /**< UDP payload = BTH */
	uint32_t payload_off; /**< after the extension headers */
	uint32_t payload_len;
	uint32_t pad_cnt;
	uint32_t icrc_off;
	uint32_t frame_len; /**< including the ICRC */
	uint32_t zero_off;  /**< bytes from here to the ICRC are zero; 0: not known */
	bool ipv6;
};

/*
 * Write Ethernet (+VLAN), IP, UDP, BTH and the extension headers the
 * opcode needs for a RoCEv2 packet with payload_len payload bytes; the
 * payload area (fr->payload_off, payload_len bytes) is left for the
 * caller.  PadCnt in the BTH is computed (roce->bth.pad_cnt ignored);
 * roce->payload is not used.  Returns 0 or a negative pcc_proto_err.
 */
int proto_frame_begin(void *buf, uint32_t cap, const struct pcc_l3_spec *l3,
		const struct pcc_roce_spec *roce, struct proto_frame *fr);

/* Zero the pad, store the ICRC (from the headers and the zeros' length
 * when fr->zero_off says the payload is zero) and (IPv6) the UDP
 * checksum. */
void proto_frame_end(const struct proto_frame *fr);

/*
 * Copy the IP+UDP+BTH headers of the datagram at ip (len bytes, ICRC
 * excluded) into out with the ICRC's invariant fields set to all ones.
 * Returns the number of bytes copied or a negative pcc_proto_err.
 */
int proto_icrc_mask_hdrs(const uint8_t *ip, uint32_t len, uint8_t out[PROTO_ICRC_HDR_MAX]);

/* CRC-32 of the 8-byte 0xFF pseudo header followed by the masked headers. */
uint32_t proto_icrc_start(const uint8_t *masked, uint32_t n);

/*
 * ICRC of the datagram at ip (len bytes, ICRC excluded) whose bytes from
 * offset data on are all zero, without reading them (proto_icrc_zero.c):
 * *icrc, or a negative pcc_proto_err (headers not whole, data past len or
 * inside the IP/UDP/BTH headers).
 */
int proto_icrc_zero_tail(const uint8_t *ip, uint32_t data, uint32_t len, uint32_t *icrc);

/* pcc_icrc_patch() multiplies with PCLMULQDQ when the CPU has it (the
 * default), else in software; false forces software (unit tests). */
void proto_icrc_patch_use_clmul(bool on);

/*
 * The ICRC of datagrams (IP header to ICRC, exclusive) of up to
 * PROTO_ICRC_REG_MAX bytes, computed in XMM registers from the frame
 * (proto_icrc.c, "Short datagrams in registers"): on after
 * pcc_proto_crc_init() when the CPU has PCLMULQDQ and SSE4.1.
 * proto_icrc_reg_use(false) goes back to the older paths (rte_net_crc
 * over a masked copy, or zlib), true turns it on where the CPU allows
 * (unit tests, the micro-benchmark); returns whether it is on.
 */
#define PROTO_ICRC_REG_MAX 512
bool proto_icrc_reg_use(bool on);

/*
 * Its constants, computed from the polynomial at first use.  Reflected
 * as the CRC register: bit i of a 32-bit value stands for x^(31 - i), of
 * a 64-bit one for x^(63 - i).  The unit tests check them and change
 * them, through proto_icrc_reg_consts().
 */
struct proto_icrc_reg_k {
	/* k[d]: for the 16-byte block followed by d bytes of the datagram,
	 * x^(8 (d + 12) - 1) mod P (for its first 8 bytes) and
	 * x^(8 (d + 4) - 1) mod P (its last 8) */
	uint64_t k[PROTO_ICRC_REG_MAX - 15][2] __rte_aligned(16);
	uint64_t mu[2]; /* floor(x^96 / P) without its x^64 term; 0 */
	uint64_t pl[2]; /* P without its x^32 term, times x; times x^2 */
	/* fin[len]: the complement of the CRC register after the 8 bytes of
	 * ones and len zero bytes (the ICRC of len zero bytes), xored into
	 * the CRC of the unmasked datagram without them */
	uint32_t fin[PROTO_ICRC_REG_MAX + 1];
};
struct proto_icrc_reg_k *proto_icrc_reg_consts(void);

/* The bytes the register ICRC ORs into the datagram's first
 * 96 bytes (80 may be masked, and a block read from there): ihl 0 IPv6,
 * 5..15 IPv4 by IHL. */
const uint8_t *proto_icrc_reg_or(unsigned int ihl);

/* pcc_cc_icrc_ok_bulk()'s vector width (at first use the widest the CPU
 * has within DPDK's SIMD limit): set to the widest of bits (0, 256, 512)
 * the CPU has, 0 one frame at a time; returns it (unit tests). */
unsigned int proto_icrc_bulk_width(unsigned int bits);

/* pcc_probe_fast_reflect_mbufs(): may m be answered in place (one
 * direct, unshared segment)?  And an answered one's metadata reset. */
static inline bool
proto_fast_mbuf_ok(const struct rte_mbuf *m)
{
	return RTE_MBUF_DIRECT(m) && m->nb_segs == 1 && rte_mbuf_refcnt_read(m) == 1 &&
			m->data_len == m->pkt_len;
}

static inline void
proto_fast_mbuf_answered(struct rte_mbuf *m)
{
	m->port = RTE_MBUF_PORT_INVALID;
	/* direct (proto_fast_mbuf_ok()): a store, not a read-modify-write */
	m->ol_flags = 0;
	m->packet_type = 0;
	m->vlan_tci = 0;
	m->vlan_tci_outer = 0;
}

/*
 * The CCMAD probe fast path's vector answer to IPv4 requests
 * (proto_probe_fast_x86.c): set up, true if the CPU has AVX-512 VL, BW,
 * VBMI and VPCLMULQDQ and DPDK allows 256-bit vectors; then the answer,
 * as pcc_probe_fast_answer() (arguments checked, layout not _V6), and
 * pcc_probe_fast_reflect() and pcc_probe_fast_reflect_mbufs() (arguments
 * checked).
 * proto_probe_fast_use_vector(false) makes pcc_probe_fast_answer() use
 * the scalar answer (unit tests); returns whether the vector one is used.
 * The burst takes 512-bit vectors for its carry-less products and
 * reductions when DPDK's SIMD width is 512 at set-up
 * (--force-max-simd-bitwidth=512); proto_probe_fast_v_width(256 or 512),
 * after set-up, chooses (unit tests) and returns the width in use (0 on
 * other CPU architectures).
 */
bool proto_probe_fast_v_init(void);
int proto_probe_fast_answer_v4(uint8_t *f, int layout, const struct pcc_probe_fast_ans *a);
uint64_t proto_probe_fast_reflect_v(void *const *frames, const uint16_t *lens, unsigned int n,
		struct pcc_probe_fast_ans *a);
uint64_t proto_probe_fast_reflect_mbufs_v(struct rte_mbuf *const *pkts, unsigned int n,
		struct pcc_probe_fast_ans *a, uint64_t *bytes);
bool proto_probe_fast_use_vector(bool on);
unsigned int proto_probe_fast_v_width(unsigned int bits);

/* x^(8 s) mod P in the reflected form pcc_icrc_patch() multiplies by.
 * Also sets up proto_icrc_tbl and the PCLMULQDQ choice. */
uint32_t proto_icrc_xpow(uint32_t s);

/* Whether the ICRC multiplies use PCLMULQDQ (proto_icrc_patch_use_clmul()). */
bool proto_icrc_clmul(void);

/* A sum of 64 x 32 carry-less products, 128 bits (proto_icrc.c: bit k of
 * the product stands for x^(94 - k)). */
struct proto_icrc_acc {
	uint64_t lo, hi;
};

/* CRC-32 slicing tables: byte followed by k zero bytes (set up by
 * proto_icrc_xpow()). */
extern uint32_t proto_icrc_tbl[8][256];

/* The 32-bit CRC value of a sum of products. */
static inline uint32_t
proto_icrc_reduce(uint64_t alo, uint64_t ahi)
{
	uint64_t lo = alo << 1, hi = (ahi << 1) | (alo >> 63);
	uint32_t m = (uint32_t)(lo >> 32), l = (uint32_t)lo;

	return (uint32_t)hi ^ proto_icrc_tbl[3][m & 0xff] ^ proto_icrc_tbl[2][(m >> 8) & 0xff] ^
			proto_icrc_tbl[1][(m >> 16) & 0xff] ^ proto_icrc_tbl[0][m >> 24] ^
			proto_icrc_tbl[7][l & 0xff] ^ proto_icrc_tbl[6][(l >> 8) & 0xff] ^
			proto_icrc_tbl[5][(l >> 16) & 0xff] ^ proto_icrc_tbl[4][l >> 24];
}

/* acc += d * x, 64 x 32 carry-less, in software */
static inline void
proto_clmul_sw(struct proto_icrc_acc *acc, uint64_t d, uint32_t x)
{
	unsigned int i;

	for (i = 0; i < 32; i++) {
		uint64_t m = 0 - (uint64_t)((x >> i) & 1);

		acc->lo ^= (d << i) & m;
		acc->hi ^= (i != 0 ? d >> (64 - i) : 0) & m;
	}
}

/*
 * The ICRC change of a datagram whose 8-byte words d[i] (little endian:
 * the first byte in the low bits; changed bits set, bytes the ICRC masks
 * cleared) are followed by s_i bytes, k[i] = proto_icrc_xpow(s_i + 4):
 * xor it into the old ICRC (pcc_icrc_patch() with the words chosen by the
 * caller).  PCLMULQDQ or software as pcc_icrc_patch().  Call
 * proto_icrc_xpow() first (it sets up the tables this uses).
 */
uint32_t proto_icrc_words(const uint64_t *d, const uint32_t *k, unsigned int n);

/*
 * Parse core shared by pcc_parse() and pcc_parse_mbuf(): p holds at least
 * min(len, PROTO_PARSE_LINEAR) valid bytes; len is the real frame length.
 * No header the parser reads lies beyond PROTO_PARSE_HDR_MAX bytes.
 * The ICRC is not checked here.
 */
#define PROTO_PARSE_LINEAR 256
#define PROTO_PARSE_HDR_MAX                                                                        \
	(PCC_ETH_HDR_LEN + PCC_VLAN_HDR_LEN + PROTO_IPV4_HDR_MAX + PCC_UDP_HDR_LEN + PCC_BTH_LEN + \
			PCC_ATOMICETH_LEN + PCC_MAD_HDR_LEN)
int proto_parse_core(const uint8_t *p, uint32_t len, const struct pcc_parse_opts *opts,
		struct pcc_pkt_info *info);

/*
 * Check a chained mbuf's ICRC: hdr holds the frame's first bytes (at least
 * through the BTH), info comes from proto_parse_core() on it.  The rest of
 * the datagram is read from the segments.  0, PCC_PROTO_ERR_BAD_ICRC or
 * another negative error.
 */
int proto_icrc_verify_mbuf(
		const struct rte_mbuf *m, const uint8_t *hdr, const struct pcc_pkt_info *info);

/* Ones'-complement sum of len bytes (odd length padded with zero). */
static inline uint32_t
proto_csum_add(uint32_t sum, const uint8_t *p, uint32_t len)
{
	uint32_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)((p[i] << 8) | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

/* Fold a 32-bit ones'-complement sum to 16 bits (not inverted). */
static inline uint16_t
proto_csum_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* IPv4 header checksum field value for a header of hlen bytes. */
static inline uint16_t
proto_ipv4_csum(const uint8_t *ip, uint32_t hlen)
{
	uint32_t sum = proto_csum_add(0, ip, 10);

	sum = proto_csum_add(sum, ip + 12, hlen - 12);
	return (uint16_t)~proto_csum_fold(sum);
}

/*
 * UDP checksum field value for a UDP datagram over IPv6 (RFC 8200 8.1):
 * pseudo header from the IPv6 header at ip6 with next header 17, then the
 * UDP header (its checksum field counted as zero) and data.  A computed 0
 * is sent as 0xFFFF.
 */
static inline uint16_t
proto_udp6_csum(const uint8_t *ip6, const uint8_t *udp, uint32_t udp_len)
{
	uint32_t sum = proto_csum_add(0, ip6 + 8, 32);
	uint16_t c;

	sum += udp_len >> 16;
	sum += udp_len & 0xffff;
	sum += 17;
	sum = proto_csum_add(sum, udp, 6);
	sum = proto_csum_add(sum, udp + 8, udp_len - 8);
	c = (uint16_t)~proto_csum_fold(sum);
	return c != 0 ? c : 0xffff;
}

/*
 * IPv6 extension headers the parsers refuse with PCC_PROTO_ERR_FRAGMENT
 * (it does not walk them): Hop-by-Hop 0, Routing 43, Fragment 44, AH 51,
 * Destination Options 60, Mobility 135, HIP 139, Shim6 140.  ESP (50) and
 * the experimental 253/254 are treated as an ordinary upper protocol.
 */
static inline bool
proto_ipv6_is_ext_hdr(uint8_t nh)
{
	const uint64_t low =
			(1ull << 0) | (1ull << 43) | (1ull << 44) | (1ull << 51) | (1ull << 60);

	if (nh < 64)
		return (low >> nh) & 1;
	return nh == 135 || nh == 139 || nh == 140;
}

/* Store v least-significant byte first (the ICRC's wire order). */
static inline void
proto_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

#endif /* PCC_PROTO_INTERNAL_H */
