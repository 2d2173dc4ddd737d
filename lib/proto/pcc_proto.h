/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_PROTO_H
#define PCC_PROTO_H

/**
 * @file
 * dpdk-pcc wire formats: parse and build RoCEv2 congestion-control packets.
 *
 * Every parser takes the real data length and never reads past it; it
 * returns 0 on success or a negative enum pcc_proto_err.  Every builder
 * takes the capacity of the output buffer and returns the number of bytes
 * written, or a negative enum pcc_proto_err (PCC_PROTO_ERR_NO_SPACE when the
 * buffer is too small; nothing useful is left in it then).
 *
 * Multi-byte wire fields are big endian.  The "info" structures hold
 * decoded values in host byte order.  Byte-by-byte layouts: doc/wire.md.
 *
 * Telemetry headers (IFA 2.0, IFA 1.0, HPCC INT) are in pcc_proto_tlm.h.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_mbuf;

/** Typed parse/build errors (negative return values). */
enum pcc_proto_err {
	PCC_PROTO_OK = 0,
	PCC_PROTO_ERR_TRUNCATED = -1,      /**< data ends inside a header */
	PCC_PROTO_ERR_BAD_VERSION = -2,    /**< IP version, BTH TVer, MAD/IFA version */
	PCC_PROTO_ERR_BAD_LENGTH = -3,     /**< a length field disagrees with the data */
	PCC_PROTO_ERR_UNKNOWN_OPCODE = -4, /**< BTH opcode not defined for RoCEv2 */
	PCC_PROTO_ERR_NOT_IP = -5,         /**< EtherType is not IPv4/IPv6 */
	PCC_PROTO_ERR_NOT_UDP = -6,        /**< L4 protocol is not UDP (nor IFA2) */
	PCC_PROTO_ERR_NOT_ROCE = -7,       /**< UDP destination port is not 4791 */
	PCC_PROTO_ERR_BAD_CSUM = -8,       /**< IPv4 header checksum mismatch */
	PCC_PROTO_ERR_BAD_ICRC = -9,       /**< RoCEv2 invariant CRC mismatch */
	PCC_PROTO_ERR_FRAGMENT = -10,      /**< IPv4 fragment or IPv6 ext header */
	PCC_PROTO_ERR_BAD_MAD = -11,       /**< MAD class/attribute not ours */
	PCC_PROTO_ERR_BAD_FIELD = -12,     /**< a field holds a forbidden value */
	PCC_PROTO_ERR_NO_SPACE = -13,      /**< builder: output buffer too small */
	PCC_PROTO_ERR_INVAL = -14,         /**< bad argument (NULL, out of range) */
	PCC_PROTO_ERR_MAX = -15,
};

/** Static string for an error code (also accepts 0 and positive values). */
const char *pcc_proto_strerror(int err);
/** A short identifier of an error ("truncated", "bad_length", ...; "ok"
 *  for 0, "unknown" outside the enum), for counter names. */
const char *pcc_proto_err_name(int err);

/* ---- Constants ------------------------------------------------------ */

#define PCC_ROCE_UDP_PORT 4791
#define PCC_ETHER_TYPE_VLAN 0x8100
#define PCC_ETHER_TYPE_IPV4 0x0800
#define PCC_ETHER_TYPE_IPV6 0x86DD

#define PCC_ETH_HDR_LEN 14
#define PCC_VLAN_HDR_LEN 4
#define PCC_IPV4_HDR_LEN 20 /**< without options */
#define PCC_IPV6_HDR_LEN 40
#define PCC_UDP_HDR_LEN 8
#define PCC_BTH_LEN 12
#define PCC_AETH_LEN 4
#define PCC_RETH_LEN 16
#define PCC_DETH_LEN 8
#define PCC_IMMDT_LEN 4
#define PCC_IETH_LEN 4
#define PCC_ATOMICETH_LEN 28
#define PCC_ATOMICACKETH_LEN 8
#define PCC_ICRC_LEN 4
#define PCC_CNP_PAD_LEN 16 /**< zero bytes after the CNP's BTH */

/** BTH opcodes used by the engine (full table in doc/wire.md). */
#define PCC_OP_RC_SEND_FIRST 0x00
#define PCC_OP_RC_SEND_ONLY 0x04
#define PCC_OP_RC_RDMA_WRITE_FIRST 0x06
#define PCC_OP_RC_RDMA_WRITE_ONLY 0x0A
#define PCC_OP_RC_RDMA_READ_REQ 0x0C
#define PCC_OP_RC_ACK 0x11
#define PCC_OP_UD_SEND_ONLY 0x64
#define PCC_OP_CNP 0x81

/** BTH transport (opcode bits 7..5). */
#define PCC_BTH_TRANSPORT_RC 0x0
#define PCC_BTH_TRANSPORT_UC 0x1
#define PCC_BTH_TRANSPORT_UD 0x3
#define PCC_BTH_TRANSPORT_CNP 0x4

#define PCC_BTH_FECN 0x80 /**< BTH byte 4 */
#define PCC_BTH_BECN 0x40 /**< BTH byte 4 */
#define PCC_BTH_PKEY_DEFAULT 0xFFFF
#define PCC_QPN_MASK 0xFFFFFF
#define PCC_PSN_MASK 0xFFFFFF
#define PCC_GSI_QPN 1
#define PCC_GSI_QKEY 0x80010000u

/** AETH syndrome classes (syndrome bits 6..5). */
#define PCC_AETH_ACK 0x0
#define PCC_AETH_RNR_NAK 0x1
#define PCC_AETH_NAK 0x3
/** NAK codes (syndrome bits 4..0 when the class is NAK). */
#define PCC_NAK_PSN_SEQ_ERR 0
#define PCC_NAK_INVALID_REQ 1
#define PCC_NAK_REMOTE_ACCESS 2
#define PCC_NAK_REMOTE_OP 3
#define PCC_NAK_INVALID_RD_REQ 4

/** ECN codepoints (low 2 bits of IPv4 TOS / IPv6 traffic class). */
#define PCC_ECN_NOT_ECT 0x0
#define PCC_ECN_ECT1 0x1
#define PCC_ECN_ECT0 0x2
#define PCC_ECN_CE 0x3

/* ---- Parsed-packet descriptor ------------------------------------ */

/** What a packet is, for the engine's classifier. */
enum pcc_pkt_kind {
	PCC_PKT_OTHER = 0,  /**< IP/UDP but not RoCEv2, or not IP at all */
	PCC_PKT_ROCE_DATA,  /**< RoCEv2 request (SEND/WRITE/READ req/...) */
	PCC_PKT_ROCE_ACK,   /**< AETH ACK (incl. RDMA READ responses with ACK) */
	PCC_PKT_ROCE_NAK,   /**< AETH NAK or RNR NAK */
	PCC_PKT_CNP,        /**< BTH opcode 0x81 */
	PCC_PKT_PROBE_REQ,  /**< our RTT probe request MAD (doc/wire.md) */
	PCC_PKT_PROBE_RESP, /**< our RTT probe response MAD */
	PCC_PKT_IFA2,       /**< IP protocol is the configured IFA2 protocol */
	PCC_PKT_IFA1,       /**< UDP 4791 payload starts with the IFA1 marker */
	PCC_PKT_KIND_MAX,
};

/** Names for enum pcc_pkt_kind ("other", "roce_data", "ack", ...). */
const char *pcc_pkt_kind_name(enum pcc_pkt_kind kind);

/* pcc_pkt_info.flags */
#define PCC_PKT_F_VLAN (1u << 0)
#define PCC_PKT_F_IPV6 (1u << 1)
#define PCC_PKT_F_AETH (1u << 2)
#define PCC_PKT_F_RETH (1u << 3)
#define PCC_PKT_F_DETH (1u << 4)
#define PCC_PKT_F_IMMDT (1u << 5)
#define PCC_PKT_F_IETH (1u << 6)
#define PCC_PKT_F_ATOMICETH (1u << 7)
#define PCC_PKT_F_ATOMICACKETH (1u << 8)
#define PCC_PKT_F_MAD (1u << 9)
#define PCC_PKT_F_ICRC_OK (1u << 10) /**< set only when ICRC was checked */

/**
 * Result of pcc_parse(): offsets (from the start of the frame) and decoded
 * fields in host order.  Fields of headers that are absent are zero; a
 * header's presence is given by flags.  Fits in two cache lines.
 */
struct pcc_pkt_info {
	uint32_t frame_len;   /**< bytes the parser was given */
	uint32_t payload_len; /**< RoCE payload bytes (excl. pad and ICRC) */
	uint16_t l3_off;      /**< IPv4/IPv6 header */
	uint16_t l4_off;      /**< UDP header (after IFA2 hdr if any) */
	uint16_t bth_off;     /**< BTH (0 if not RoCEv2) */
	uint16_t payload_off; /**< first byte after BTH extension headers */
	uint16_t flags;       /**< PCC_PKT_F_* */
	uint16_t vlan_tci;    /**< host order, valid with PCC_PKT_F_VLAN */
	uint8_t kind;         /**< enum pcc_pkt_kind */
	uint8_t ecn;          /**< PCC_ECN_* */
	uint8_t dscp;         /**< 6-bit DSCP */
	uint8_t ttl;          /**< IPv4 TTL / IPv6 hop limit */
	uint8_t ip_proto;     /**< IPv4 protocol / IPv6 next header */
	uint8_t opcode;       /**< BTH opcode */
	uint8_t pad_cnt;      /**< BTH PadCnt */
	uint8_t bth_flags;    /**< BTH byte 4 as on the wire (FECN/BECN) */
	uint16_t udp_sport;
	uint16_t udp_dport;
	uint16_t pkey;
	uint8_t ackreq;        /**< BTH AckReq bit (0/1) */
	uint8_t aeth_syndrome; /**< whole 8-bit syndrome */
	uint32_t dqpn;         /**< BTH DestQP (24 bit) */
	uint32_t psn;          /**< BTH PSN (24 bit) */
	uint32_t aeth_msn;     /**< AETH MSN (24 bit) */
	uint32_t deth_qkey;
	uint32_t deth_sqpn; /**< DETH SrcQP (24 bit) */
	uint32_t reth_rkey;
	uint32_t reth_dma_len;
	uint64_t reth_va;
	union {
		uint32_t v4;    /**< host order */
		uint8_t v6[16]; /**< network order */
	} src, dst;
};

/* ---- Whole-frame parsing ------------------------------------------ */

/** Options for pcc_parse(); NULL means all defaults (below). */
struct pcc_parse_opts {
	bool check_icrc;      /**< verify RoCEv2 ICRC (default false) */
	bool check_ip_csum;   /**< verify the IPv4 header checksum (default false) */
	uint8_t ifa2_proto;   /**< IP protocol of IFA2 (default 253; 0 = off) */
	uint64_t ifa1_marker; /**< IFA1 marker (default PCC_IFA1_MARKER_DEFAULT;
	                       *   0 = IFA1 detection off) */
};

/** Fills *opts with the defaults. */
void pcc_parse_opts_default(struct pcc_parse_opts *opts);

/**
 * Parse an Ethernet frame (optionally one 802.1Q tag) down to the RoCEv2
 * payload.  A frame that is valid but not RoCEv2 (not IP, not UDP, not
 * port 4791) returns 0 with kind PCC_PKT_OTHER and offsets filled as far
 * as parsed; a frame that claims to be something and is broken returns a
 * negative pcc_proto_err and *info is unspecified.
 *
 * A RoCEv2 frame must hold at least BTH + its extension headers + pad +
 * ICRC; IPv4 total length / IPv6 payload length and UDP length must agree
 * with the data (trailing Ethernet padding after the IP datagram is allowed).
 */
int pcc_parse(const void *frame, uint32_t len, const struct pcc_parse_opts *opts,
		struct pcc_pkt_info *info);

/**
 * As pcc_parse() on an mbuf.  Single-segment mbufs are parsed in place;
 * for chains the first 256 bytes are linearised (payload offsets stay
 * valid relative to the frame).
 */
int pcc_parse_mbuf(const struct rte_mbuf *m, const struct pcc_parse_opts *opts,
		struct pcc_pkt_info *info);

/* ---- Single headers on plain buffers ------------------------------ */

/** Decoded BTH. */
struct pcc_bth {
	uint8_t opcode;
	uint8_t se;      /**< 0/1 */
	uint8_t mig;     /**< 0/1 */
	uint8_t pad_cnt; /**< 0..3 */
	uint8_t tver;    /**< must be 0 */
	uint8_t flags;   /**< byte 4: PCC_BTH_FECN | PCC_BTH_BECN */
	uint8_t ackreq;  /**< 0/1 */
	uint16_t pkey;
	uint32_t dqpn; /**< 24 bit */
	uint32_t psn;  /**< 24 bit */
};

int pcc_bth_parse(const void *buf, uint32_t len, struct pcc_bth *bth);
int pcc_bth_build(void *buf, uint32_t cap, const struct pcc_bth *bth);

/** Bitmask of extension headers that follow the BTH for an opcode. */
#define PCC_EXT_RETH (1u << 0)
#define PCC_EXT_AETH (1u << 1)
#define PCC_EXT_DETH (1u << 2)
#define PCC_EXT_IMMDT (1u << 3)
#define PCC_EXT_IETH (1u << 4)
#define PCC_EXT_ATOMICETH (1u << 5)
#define PCC_EXT_ATOMICACKETH (1u << 6)

/**
 * Extension headers for a BTH opcode (PCC_EXT_* mask, >= 0) or
 * PCC_PROTO_ERR_UNKNOWN_OPCODE.  *ext_len (if not NULL) gets their length.
 */
int pcc_bth_opcode_ext(uint8_t opcode, uint32_t *ext_len);

/** Name of a BTH opcode ("RC_SEND_ONLY", "CNP", ...) or NULL. */
const char *pcc_bth_opcode_name(uint8_t opcode);

struct pcc_aeth {
	uint8_t syndrome;
	uint32_t msn; /**< 24 bit */
};
int pcc_aeth_parse(const void *buf, uint32_t len, struct pcc_aeth *aeth);
int pcc_aeth_build(void *buf, uint32_t cap, const struct pcc_aeth *aeth);
/** Syndrome helpers. */
static inline uint8_t
pcc_aeth_class(uint8_t syndrome)
{
	return (syndrome >> 5) & 0x3;
}
static inline uint8_t
pcc_aeth_code(uint8_t syndrome)
{
	return syndrome & 0x1f;
}

struct pcc_reth {
	uint64_t va;
	uint32_t rkey;
	uint32_t dma_len;
};
int pcc_reth_parse(const void *buf, uint32_t len, struct pcc_reth *reth);
int pcc_reth_build(void *buf, uint32_t cap, const struct pcc_reth *reth);

struct pcc_deth {
	uint32_t qkey;
	uint32_t sqpn; /**< 24 bit */
};
int pcc_deth_parse(const void *buf, uint32_t len, struct pcc_deth *deth);
int pcc_deth_build(void *buf, uint32_t cap, const struct pcc_deth *deth);

/* ---- L2/L3/L4 specification for builders --------------------------- */

/**
 * Addresses and header values a builder writes below the BTH.
 * Builders write: Ethernet (+ VLAN if vlan), IPv4 (DF, no options, checksum
 * computed) or IPv6 (no ext headers), UDP (dport 4791, checksum 0 on IPv4;
 * on IPv6 the UDP checksum is computed).
 */
struct pcc_l3_spec {
	uint8_t dst_mac[6];
	uint8_t src_mac[6];
	bool vlan;
	uint16_t vlan_tci; /**< PCP/DEI/VID, host order */
	bool ipv6;
	union {
		uint32_t v4;    /**< host order */
		uint8_t v6[16]; /**< network order */
	} src, dst;
	uint8_t dscp;        /**< 6 bit */
	uint8_t ecn;         /**< PCC_ECN_* */
	uint8_t ttl;         /**< 0 means 64 */
	uint16_t ip_id;      /**< IPv4 identification */
	uint32_t flow_label; /**< IPv6, 20 bit */
	uint16_t udp_sport;  /**< 0 means 0xC000 */
};

/** Linux/rxe UDP source port for a QP pair (0xC000..0xFFFF, REFERENCE §1). */
uint16_t pcc_roce_udp_sport(uint32_t lqpn, uint32_t rqpn);

/** Everything of a RoCEv2 packet above UDP, for pcc_roce_build(). */
struct pcc_roce_spec {
	struct pcc_bth bth;   /**< pad_cnt is computed from payload length */
	struct pcc_aeth aeth; /**< written when the opcode has AETH */
	struct pcc_reth reth; /**< written when the opcode has RETH */
	struct pcc_deth deth; /**< written when the opcode has DETH */
	uint32_t immdt;       /**< ImmDt/IETH value when the opcode has one */
	const void *payload;  /**< may be NULL: payload_len zero bytes */
	uint32_t payload_len;
};

/**
 * Build a complete RoCEv2 frame: L2/L3/UDP from *l3, BTH and the extension
 * headers the opcode requires, payload, pad to 4 bytes, ICRC.
 * Returns the frame length or a negative pcc_proto_err.
 */
int pcc_roce_build(void *buf, uint32_t cap, const struct pcc_l3_spec *l3,
		const struct pcc_roce_spec *roce);

/**
 * Build a CNP (REFERENCE §1): BTH opcode 0x81, P_Key 0xFFFF, BECN set,
 * PSN 0, DestQP dqpn, 16 zero bytes, ICRC.  IPv4 total length is 60.
 */
int pcc_cnp_build(void *buf, uint32_t cap, const struct pcc_l3_spec *l3, uint32_t dqpn);

/* ---- ICRC --------------------------------------------------------- */

/**
 * Compute the RoCEv2 ICRC over an IP datagram starting at the IP header
 * (ip points at IPv4/IPv6 header; len covers up to, not including, the
 * ICRC).  Masking per REFERENCE §1.  Returns the CRC value such that the
 * wire bytes are its little-endian encoding.  Returns 0 with *err set
 * negative on a malformed datagram when err is not NULL.
 */
uint32_t pcc_icrc_calc(const void *ip, uint32_t len, int *err);

/**
 * Use vector CRCs for ICRCs from now on, when the CPU has them and the EAL
 * allows 128-bit vectors: datagrams of up to 512 bytes with IPv4 or IPv6
 * headers (CNPs, ACKs, probes) computed in registers (PCLMULQDQ, SSE4.1),
 * longer ones with DPDK's rte_net_crc (SSE4.2/PCLMULQDQ).  Call once
 * after rte_eal_init(), before workers start.  Returns 1 when a fast path
 * is on, 0 when zlib stays in use (the default: same results).
 */
int pcc_proto_crc_init(void);

/**
 * Check the ICRC of a parsed frame.  0 if it matches, PCC_PROTO_ERR_BAD_ICRC
 * if not, another negative error if the frame is not RoCEv2.
 */
int pcc_icrc_verify(const void *frame, const struct pcc_pkt_info *info);
/** As pcc_icrc_verify() on an mbuf (chains too) parsed as info. */
int pcc_icrc_verify_mbuf(const struct rte_mbuf *m, const struct pcc_pkt_info *info);

/** Recompute and store the ICRC of a parsed RoCEv2 frame in place. */
int pcc_icrc_update(void *frame, const struct pcc_pkt_info *info);

/**
 * Incremental ICRC: bytes [off, off + n) of an IP datagram of len bytes
 * (IP header up to, not including, the ICRC, as for pcc_icrc_calc())
 * changed from old_bytes to new_bytes; *icrc, the datagram's ICRC before
 * the change, becomes its ICRC after it.  By the CRC's linearity (for
 * messages of equal length, crc(A) ^ crc(B) = crc(A ^ B) ^ crc(0...0)),
 * only the changed bytes are read: 8 bytes at a time, each word that
 * changed multiplied by x^(8 * bytes after it) mod P (carry-less
 * multiply, PCLMULQDQ when the CPU has it, from a table of powers) and
 * summed, with one reduction at the end — a few ns for a probe response's
 * headers, where a full recompute reads the whole datagram.
 *
 * Bytes the ICRC masks (IPv4 TOS, TTL, header checksum; IPv6 traffic
 * class, flow label, hop limit; UDP checksum; BTH byte 4) must be equal
 * in old_bytes and new_bytes: set them alike, their real change does not
 * change the ICRC.  The result is right only if *icrc was (a corrupt ICRC
 * stays corrupt).  old_bytes and new_bytes may be the same buffer only for
 * bytes that did not change.  0, or PCC_PROTO_ERR_INVAL (NULL pointer, or
 * the range is not inside len bytes; *icrc is then unchanged).
 */
int pcc_icrc_patch(uint32_t *icrc, uint32_t len, uint32_t off, const void *old_bytes,
		const void *new_bytes, uint32_t n);

/**
 * A UDP checksum after a change (RFC 1624 eqn. 3, HC' = ~(~HC + ~m + m')):
 * the checksum field's value once the n bytes old_bytes of the datagram
 * have become new_bytes, csum its value before (a number: the field read
 * big-endian).  The bytes start at an even offset from the UDP header;
 * they are summed as big-endian 16-bit words (an odd n's last byte as
 * the high byte of one).  A result of 0 is returned as 0xFFFF, as a
 * computed UDP checksum is sent.  Ranges apart: one call each, chained.
 * NULL bytes change nothing (csum is returned).  Over IPv6 RoCEv2 the
 * checksum covers what the ICRC does (pcc_icrc_patch()) and more.
 */
uint16_t pcc_udp_csum_patch(
		uint16_t csum, const void *old_bytes, const void *new_bytes, uint32_t n);

/* ---- ECN / DSCP --------------------------------------------------- */

/** ECN of the IP header at ip (IPv4 or IPv6, by version nibble), or <0. */
int pcc_ecn_get(const void *ip, uint32_t len);

/**
 * Set ECN (and fix the IPv4 header checksum incrementally).  The ICRC is
 * unaffected by design.  Returns 0 or a negative error.
 */
int pcc_ecn_set(void *ip, uint32_t len, uint8_t ecn);

/** Set DSCP (keeping ECN; fixes the IPv4 checksum).  0 or <0. */
int pcc_dscp_set(void *ip, uint32_t len, uint8_t dscp);

/** ECN on a frame from the Ethernet header (handles one VLAN tag). */
int pcc_frame_ecn_get(const void *frame, uint32_t len);
int pcc_frame_ecn_set(void *frame, uint32_t len, uint8_t ecn);

/* ---- RTT probe (CCMAD-style, our layout; doc/wire.md) -------------- */

/*
 * A probe is a RoCEv2 UD SEND_ONLY (0x64) with DETH (Q_Key 0x80010000),
 * carrying one 256-byte MAD (a full IB MAD, what QP1 receivers and
 * dissectors expect): the 24-byte MAD common header, a 48-byte probe body,
 * an optional custom header of custom_len (0..64) bytes (opaque to the
 * library), then zeros up to byte 256 of the MAD.
 *   request:  DestQP 1, DETH SrcQP = flow QPN, Method GET (0x01)
 *   response: DestQP = request's DETH SrcQP, DETH SrcQP 1,
 *             Method GET_RESP (0x81), TID and body fields echoed/filled.
 * MgmtClass PCC_MAD_CLASS (vendor range), ClassVersion 1, AttrID
 * PCC_MAD_ATTR_RTT.  The same MAD is the payload of the IFA probes of the
 * engine (doc/wire.md sections 8.7 and 9.4).
 */
#define PCC_MAD_HDR_LEN 24
#define PCC_PROBE_BODY_LEN 48
#define PCC_PROBE_MAD_LEN 256 /**< the whole MAD, padding included */
#define PCC_MAD_BASE_VERSION 1
#define PCC_MAD_CLASS 0x0A /**< vendor-specific class range 1 */
#define PCC_MAD_CLASS_VERSION 1
#define PCC_MAD_METHOD_GET 0x01
#define PCC_MAD_METHOD_GET_RESP 0x81
#define PCC_MAD_ATTR_RTT 0xFF10
#define PCC_PROBE_USER_LEN 12
#define PCC_PROBE_CUSTOM_MAX 64
/** Offset of the custom header in the MAD (after header and body). */
#define PCC_PROBE_CUSTOM_OFF (PCC_MAD_HDR_LEN + PCC_PROBE_BODY_LEN)

/** Decoded MAD common header. */
struct pcc_mad_hdr {
	uint8_t base_version;
	uint8_t mgmt_class;
	uint8_t class_version;
	uint8_t method; /**< R bit is 0x80 */
	uint16_t status;
	uint16_t class_specific;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
};
int pcc_mad_hdr_parse(const void *buf, uint32_t len, struct pcc_mad_hdr *mad);
int pcc_mad_hdr_build(void *buf, uint32_t cap, const struct pcc_mad_hdr *mad);

/** Probe body (request and response share it). */
struct pcc_probe {
	uint64_t tid;                     /**< MAD TID: probe sequence, echoed */
	uint32_t flow_tag;                /**< RP flow tag, echoed */
	uint8_t slot;                     /**< RP algorithm slot, echoed */
	uint8_t flags;                    /**< PCC_PROBE_F_* */
	uint16_t custom_len;              /**< bytes of custom header after the body */
	uint64_t req_send_ts;             /**< ns, RP clock, echoed */
	uint64_t np_recv_ts;              /**< ns, NP clock (0 in a request) */
	uint64_t np_send_ts;              /**< ns, NP clock (0 in a request) */
	uint8_t user[PCC_PROBE_USER_LEN]; /**< NP handler data */
	uint32_t resp_ts;                 /**< last dword: injected response timestamp */
	/* response with PCC_PROBE_F_EXT (doc/wire.md 7.6) */
	uint8_t ext_version;  /**< 1 (parse: as found) */
	uint8_t np_port_type; /**< the NP port's type: 0 up to 25 Gb/s, 1 faster */
	uint32_t np_rx_bytes; /**< the NP port's received bytes, low 32 bits */
};
#define PCC_PROBE_F_RESPONSE 0x01
/** Request: asks for the hardware-NP model; response: answered by it. */
#define PCC_PROBE_F_HW_NP 0x02
/** Response: carries the NP extension at PCC_PROBE_EXT_OFF (doc/wire.md 7.6). */
#define PCC_PROBE_F_EXT 0x04
/** MAD offset of the response extension: after the largest custom header. */
#define PCC_PROBE_EXT_OFF (PCC_PROBE_CUSTOM_OFF + PCC_PROBE_CUSTOM_MAX)
#define PCC_PROBE_EXT_LEN 8
#define PCC_PROBE_EXT_VERSION 1

/**
 * Build a probe request frame (L2..ICRC).  p->tid, flow_tag, slot, flags
 * (PCC_PROBE_F_RESPONSE is cleared), req_send_ts, custom_len are used;
 * custom (may be NULL = zeros) supplies custom_len bytes.  sqpn is the
 * flow's QPN (DETH SrcQP).
 */
int pcc_probe_req_build(void *buf, uint32_t cap, const struct pcc_l3_spec *l3, uint32_t sqpn,
		const struct pcc_probe *p, const void *custom);

/**
 * Build a probe response to a request: dqpn is the request's DETH SrcQP.
 * All body fields of *p are written as given (the caller fills
 * np_recv_ts, np_send_ts, user, resp_ts), except that flags always gets
 * PCC_PROBE_F_RESPONSE.  custom may point into buf (a response built over
 * its request).
 */
int pcc_probe_resp_build(void *buf, uint32_t cap, const struct pcc_l3_spec *l3, uint32_t dqpn,
		const struct pcc_probe *p, const void *custom);

/**
 * Turn a probe request into its response in place.  frame (cap bytes of
 * buffer) holds the request, parsed as info (kind PCC_PKT_PROBE_REQ, IPv4
 * without options or IPv6, a MAD of exactly PCC_PROBE_MAD_LEN bytes).
 * Writes what pcc_probe_resp_build() writes with the request's addresses
 * swapped, DSCP dscp, ECN not-ECT, TTL 64, IPv4 ID 0, IPv6 flow label 0,
 * the request's VLAN tag and UDP source port, dqpn = the request's DETH
 * SrcQP and the body *p (flags get PCC_PROBE_F_RESPONSE), but only the
 * headers, the MAD header and the body: the custom header and the rest of
 * the MAD stay where they are (a request carries zeros after its custom
 * header, wire.md section 7; other bytes there are echoed).  The ICRC is
 * the request's, patched for the bytes that changed (pcc_icrc_patch()),
 * not recomputed: a corrupt request ICRC stays corrupt; so is an IPv6 UDP
 * checksum (RFC 1624), but a request without one (0) gets it computed.
 * Returns the response's frame length (bytes after it in the buffer are
 * not part of it), or PCC_PROTO_ERR_INVAL (arguments, or a request this
 * cannot turn around: use pcc_probe_resp_build()), leaving frame
 * untouched.
 */
int pcc_probe_resp_inplace(void *frame, uint32_t cap, const struct pcc_pkt_info *info, uint8_t dscp,
		const struct pcc_probe *p);

/*
 * CCMAD probe fast path (the NP's): a request in the layout
 * pcc_probe_req_build() writes is recognised without pcc_parse() and
 * answered in place, byte for byte as pcc_probe_resp_inplace() answers it.
 */

/** pcc_probe_fast_match(): a request the fast path answers ... */
#define PCC_PROBE_FAST_OK 0x1
/** ... over IPv6 (else IPv4) ... */
#define PCC_PROBE_FAST_V6 0x2
/** ... with one 802.1Q tag. */
#define PCC_PROBE_FAST_VLAN 0x4

/**
 * Is the frame (len bytes, linear) a CCMAD probe request the fast path
 * answers?  Exactly: what pcc_parse() classifies as PCC_PKT_PROBE_REQ and
 * pcc_probe_resp_inplace() answers, of the exact length, with Ethernet
 * and at most one VLAN tag, IPv4 without options (no fragment) or IPv6
 * without extension headers, UDP with a source port other than 0 (over
 * IPv6 with a checksum), BTH UD SEND_ONLY with TVer and PadCnt 0, a
 * 256-byte MAD of our class, attribute and method GET, custom header
 * length at most PCC_PROBE_CUSTOM_MAX, and not asking for the hardware-NP
 * model (PCC_PROBE_F_HW_NP).  Returns the layout (PCC_PROBE_FAST_OK and
 * maybe _V6, _VLAN) for pcc_probe_fast_answer(), or 0 (then use the
 * generic path).  Reads the headers only, writes nothing.
 */
int pcc_probe_fast_match(const void *frame, uint32_t len);

/**
 * What the NP answers: the fields pcc_probe_resp_inplace() takes from p.
 * Zero the whole struct once (memo), then set the fields before each
 * answer; answers with the same fields in a row (a burst answered at one
 * time) share the ICRC work for them.
 */
struct pcc_probe_fast_ans {
	uint64_t np_recv_ts;
	uint64_t np_send_ts;
	uint8_t user[PCC_PROBE_USER_LEN];
	uint32_t resp_ts;
	int16_t dscp; /**< 0..63; -1: the request's */
	/** private to pcc_probe_fast_answer(): the ICRC of the body words
	 *  above, for the values in w[] */
	struct {
		uint64_t w[4];
		uint32_t crc;
		bool valid;
	} memo;
};

/**
 * Turn a request pcc_probe_fast_match() returned layout for into its
 * response in place: the same bytes pcc_probe_resp_inplace() writes with
 * the request's body but a's times, user data and last dword, and DSCP
 * a->dscp (or the request's).  The ICRC is the request's patched (not
 * checked), as there.  Returns the frame length (the request's), or
 * PCC_PROTO_ERR_INVAL.
 */
int pcc_probe_fast_answer(void *frame, int layout, struct pcc_probe_fast_ans *a);

/** Most frames pcc_probe_fast_reflect() takes at once. */
#define PCC_PROBE_FAST_BURST 64

/**
 * pcc_probe_fast_match() and pcc_probe_fast_answer() on a burst: the n
 * frames (n <= PCC_PROBE_FAST_BURST; frames[i] of lens[i] bytes, linear)
 * that are requests the fast path answers are answered in place, all with
 * a's fields; the others are left untouched.  Bit i of the result is set
 * if frames[i] was answered (its length is unchanged).  On x86 CPUs with
 * AVX-512 (VL, BW, VBMI) and VPCLMULQDQ, IPv4 and IPv6 requests are
 * matched and answered with 256-bit vectors (512-bit for the ICRC sums
 * when DPDK's SIMD width allows) from constants set up once a burst.
 * 0 if an argument is bad.
 */
uint64_t pcc_probe_fast_reflect(void *const *frames, const uint16_t *lens, unsigned int n,
		struct pcc_probe_fast_ans *a);

/**
 * pcc_probe_fast_reflect() on a burst of received mbufs (n <=
 * PCC_PROBE_FAST_BURST), in one pass: those of one direct, unshared
 * segment that are requests the fast path answers are answered in place
 * and made ready to send back (length and data offset kept; port
 * RTE_MBUF_PORT_INVALID; ol_flags, packet_type and the VLAN TCIs 0; no
 * other field is read by a PMD without a flag in ol_flags); the others
 * are left untouched.  Bit i of the result is set if pkts[i] was
 * answered; *bytes gets the answers' bytes.  0 if an argument is bad.
 */
uint64_t pcc_probe_fast_reflect_mbufs(struct rte_mbuf *const *pkts, unsigned int n,
		struct pcc_probe_fast_ans *a, uint64_t *bytes);

/**
 * Decode the probe body of a frame pcc_parse() classified as PROBE_REQ or
 * PROBE_RESP.  *custom (if not NULL) points at the custom header in frame.
 */
int pcc_probe_parse(const void *frame, const struct pcc_pkt_info *info, struct pcc_probe *p,
		const uint8_t **custom);

/**
 * The probe MAD alone (PCC_PROBE_MAD_LEN bytes at buf): header, body,
 * custom header, zero padding; a request (method GET) or, with resp, a
 * response (GET_RESP), fields as pcc_probe_req_build() /
 * pcc_probe_resp_build() write them.  custom may be buf +
 * PCC_PROBE_CUSTOM_OFF (left in place).  Returns PCC_PROBE_MAD_LEN,
 * PCC_PROTO_ERR_INVAL or PCC_PROTO_ERR_NO_SPACE.
 */
int pcc_probe_mad_build(
		void *buf, uint32_t cap, bool resp, const struct pcc_probe *p, const void *custom);

/**
 * Decode a probe MAD at buf (len bytes available).  Returns
 * PCC_PKT_PROBE_REQ (method GET) or PCC_PKT_PROBE_RESP (GET_RESP), or a
 * negative error: TRUNCATED (len < 24, or < PCC_PROBE_MAD_LEN for a
 * probe), BAD_VERSION, BAD_MAD (class, attribute or method not a probe's),
 * BAD_FIELD (custom_len > 64).  *custom as for pcc_probe_parse().
 */
int pcc_probe_mad_parse(const void *buf, uint32_t len, struct pcc_probe *p, const uint8_t **custom);

/**
 * Response timestamp injection: the low ts_size bits (0..32) of the
 * response's last dword carry (ts_ns >> resolution).  Returns the dword.
 */
static inline uint32_t
pcc_probe_resp_ts(
		uint32_t last_dword, uint64_t ts_ns, unsigned int ts_size, unsigned int resolution)
{
	uint32_t mask;

	if (ts_size == 0)
		return last_dword;
	mask = ts_size >= 32 ? UINT32_MAX : ((1u << ts_size) - 1);
	if (resolution > 63)
		resolution = 63;
	return (last_dword & ~mask) | ((uint32_t)(ts_ns >> resolution) & mask);
}

#ifdef __cplusplus
}
#endif

#include "pcc_proto_tlm.h"

#endif /* PCC_PROTO_H */
