/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_PROTO_TLM_H
#define PCC_PROTO_TLM_H

/**
 * @file
 * In-band telemetry headers: IFA 2.0, IFA 1.0 (our documented layout) and
 * HPCC-style INT.  Same conventions as pcc_proto.h: bounds-checked parsers
 * returning 0 or a negative enum pcc_proto_err; builders returning bytes
 * written or a negative error.  Byte layouts: doc/wire.md.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- IFA 2.0 ------------------------------------------------------ */

/*
 * IP | IFA hdr (4 B) | UDP | IFA metadata hdr (4 B) | hop stack | payload.
 * The IP protocol is configurable (PCC_IFA2_PROTO_DEFAULT); NextHdr keeps
 * the original protocol (17).  Newest hop is nearest the metadata header.
 */
#define PCC_IFA2_PROTO_DEFAULT 253
#define PCC_IFA2_VERSION 2
#define PCC_IFA2_HDR_LEN 4
#define PCC_IFA2_MD_HDR_LEN 4
#define PCC_IFA2_HOP_LEN 32
#define PCC_IFA2_GNS_DEFAULT 0xF
#define PCC_IFA2_HOP_LIMIT_DEFAULT 0xFE

/* IFA header flags */
#define PCC_IFA2_F_MF 0x10
#define PCC_IFA2_F_TS 0x08
#define PCC_IFA2_F_I 0x04
#define PCC_IFA2_F_TA 0x02
#define PCC_IFA2_F_C 0x01
/* metadata header action vector */
#define PCC_IFA2_AV_L 0x80
#define PCC_IFA2_AV_C 0x40

struct pcc_ifa2_hdr {
	uint8_t ver;      /**< 4 bit, must be 2 */
	uint8_t gns;      /**< 4 bit */
	uint8_t next_hdr; /**< original IP protocol (17) */
	uint8_t flags;    /**< PCC_IFA2_F_* */
	uint8_t max_len;  /**< metadata stack limit, 4-byte units */
};

struct pcc_ifa2_md_hdr {
	uint8_t req_vector;
	uint8_t action_vector; /**< PCC_IFA2_AV_* */
	uint8_t hop_limit;
	uint8_t cur_len; /**< metadata stack length, 4-byte units */
};

/** One hop's 32-byte metadata (decoded). */
struct pcc_ifa2_hop {
	uint8_t lns;        /**< 4 bit */
	uint32_t device_id; /**< 20 bit */
	uint8_t ttl;
	uint8_t port_speed; /**< 4 bit: 0=10G 1=25G 2=40G 3=50G 4=100G 5=200G 6=400G */
	uint8_t congestion; /**< 2 bit */
	uint8_t queue_id;   /**< 6 bit */
	uint32_t rx_sec;    /**< 20 bit */
	uint16_t egress_port;
	uint16_t ingress_port;
	uint32_t rx_ns;
	uint32_t residence_ns;
	uint8_t profile[12]; /**< profile-specific, raw */
};

/** Port speed code (PCC_IFA2 hop port_speed) for Gb/s, or -1. */
int pcc_ifa2_speed_code(uint32_t gbps);
/** Gb/s for a port speed code, or 0 for an unknown code. */
uint32_t pcc_ifa2_speed_gbps(uint8_t code);

int pcc_ifa2_hdr_parse(const void *buf, uint32_t len, struct pcc_ifa2_hdr *h);
int pcc_ifa2_hdr_build(void *buf, uint32_t cap, const struct pcc_ifa2_hdr *h);
int pcc_ifa2_md_hdr_parse(const void *buf, uint32_t len, struct pcc_ifa2_md_hdr *m);
int pcc_ifa2_md_hdr_build(void *buf, uint32_t cap, const struct pcc_ifa2_md_hdr *m);
int pcc_ifa2_hop_parse(const void *buf, uint32_t len, struct pcc_ifa2_hop *hop);
int pcc_ifa2_hop_build(void *buf, uint32_t cap, const struct pcc_ifa2_hop *hop);

/** A parsed IFA2 packet: offsets from the frame start and decoded headers. */
struct pcc_ifa2_info {
	struct pcc_ifa2_hdr hdr;
	struct pcc_ifa2_md_hdr md;
	uint16_t ifa_off;     /**< IFA header */
	uint16_t udp_off;     /**< UDP header */
	uint16_t md_off;      /**< metadata header */
	uint16_t stack_off;   /**< first (newest) hop */
	uint16_t n_hops;      /**< cur_len * 4 / 32 */
	uint16_t payload_off; /**< after the stack */
};

/**
 * Parse an IFA2 frame (Ethernet, optional VLAN, IPv4/IPv6 with protocol
 * ifa_proto).  The IP length must cover the stack; cur_len must be a
 * multiple of 8 (32 bytes) and not exceed max_len.
 */
int pcc_ifa2_parse(const void *frame, uint32_t len, uint8_t ifa_proto, struct pcc_ifa2_info *info);

/** Decode hop i (0 = newest) of a parsed IFA2 frame. */
int pcc_ifa2_get_hop(const void *frame, uint32_t len, const struct pcc_ifa2_info *info,
		unsigned int i, struct pcc_ifa2_hop *hop);

/**
 * Insert the IFA header and metadata header into a plain UDP/IP frame
 * in place (frame has cap bytes of room; *len is updated): IP protocol
 * becomes ifa_proto, IP lengths and IPv4 checksum are fixed.
 */
int pcc_ifa2_insert(void *frame, uint32_t *len, uint32_t cap, uint8_t ifa_proto,
		const struct pcc_ifa2_hdr *h, const struct pcc_ifa2_md_hdr *m);

/**
 * Push one hop's metadata (a switch's action): inserts 32 bytes before the
 * current newest hop, decrements hop_limit, grows cur_len and the IP/UDP
 * lengths.  Returns 0, PCC_PROTO_ERR_NO_SPACE if cap is too small, or
 * PCC_PROTO_ERR_BAD_LENGTH if max_len would be exceeded or hop_limit is 0
 * (then the frame is unchanged).
 */
int pcc_ifa2_push_hop(void *frame, uint32_t *len, uint32_t cap, uint8_t ifa_proto,
		const struct pcc_ifa2_hop *hop);

/** NP-side selection: (gns & mask) == (value & mask). */
static inline int
pcc_ifa2_gns_match(uint8_t gns, uint8_t mask, uint8_t value)
{
	return (gns & mask & 0xF) == (value & mask & 0xF);
}

/* ---- IFA 1.0 (marker-based; our documented layout) ----------------- */

/*
 * Located at the start of the UDP payload of a UDP 4791 datagram (where a
 * BTH would be).  28-byte header (cur_len starts at 28), then hop records
 * of PCC_IFA2_HOP_LEN bytes appended in arrival order.
 */
#define PCC_IFA1_MARKER_DEFAULT 0xAAAAAAAABBBBBBBBull
#define PCC_IFA1_VERSION 1
#define PCC_IFA1_HDR_LEN 28

struct pcc_ifa1_hdr {
	uint64_t marker; /**< MSB must be set */
	uint8_t ver;     /**< 4 bit, 1 */
	uint8_t mtype;   /**< 4 bit */
	uint8_t rep;     /**< 2 bit */
	uint8_t c;       /**< 1 bit */
	uint8_t e;       /**< 1 bit */
	uint8_t flag;    /**< 4 bit */
	uint8_t ctrl;
	uint16_t tlm_request;
	uint16_t tlm_action;
	uint8_t hop_limit;
	uint8_t hop_count;
	uint8_t max_len; /**< bytes (header + hops) */
	uint8_t cur_len; /**< bytes (header + hops), >= 28 */
	uint32_t sender;
	uint32_t seq;
};

/**
 * Parse an IFA1 header at buf (the UDP payload).  Returns
 * PCC_PROTO_ERR_BAD_FIELD if the marker differs from `marker` (or its MSB
 * is clear), PCC_PROTO_ERR_BAD_VERSION, PCC_PROTO_ERR_BAD_LENGTH if cur_len
 * < 28, exceeds max_len or len, or is not 28 + k*32.
 */
int pcc_ifa1_parse(const void *buf, uint32_t len, uint64_t marker, struct pcc_ifa1_hdr *h);
int pcc_ifa1_build(void *buf, uint32_t cap, const struct pcc_ifa1_hdr *h);

/**
 * Append one hop record after the current stack of an IFA1 header at buf
 * (len bytes valid, cap room): increments hop_count, decrements hop_limit,
 * grows cur_len.  The caller fixes outer IP/UDP lengths.
 */
int pcc_ifa1_push_hop(void *buf, uint32_t *len, uint32_t cap, uint64_t marker,
		const struct pcc_ifa2_hop *hop);

/* ---- HPCC INT ----------------------------------------------------- */

/*
 * As in the HPCC reference simulator: per hop one 64-bit big-endian word
 * lineRate(3) time(24, ns) bytes(20, txBytes/128) qlen(17, qlen/80);
 * header = 5 hop words + u16 hop count = 42 bytes.  Carried right after
 * the BTH extension headers of data packets and echoed in ACKs; present
 * when BTH byte 4 has PCC_BTH_INT (a reserved bit, masked by the ICRC).
 */
#define PCC_INT_MAX_HOPS 5
#define PCC_INT_HOP_LEN 8
#define PCC_INT_HDR_LEN (PCC_INT_MAX_HOPS * PCC_INT_HOP_LEN + 2)
#define PCC_BTH_INT 0x20 /**< dpdk-pcc extension bit in BTH byte 4 */
#define PCC_INT_BYTES_UNIT 128
#define PCC_INT_QLEN_UNIT 80

/** lineRate codes. */
enum pcc_int_rate {
	PCC_INT_RATE_25G = 0,
	PCC_INT_RATE_50G = 1,
	PCC_INT_RATE_100G = 2,
	PCC_INT_RATE_200G = 3,
	PCC_INT_RATE_400G = 4,
};

struct pcc_int_hop {
	uint8_t rate_code; /**< enum pcc_int_rate */
	uint32_t time_ns;  /**< 24 bit, wraps */
	uint32_t tx_bytes; /**< 20 bit, units of 128 bytes, wraps */
	uint32_t qlen;     /**< 17 bit, units of 80 bytes, saturates */
};

struct pcc_int_hdr {
	uint16_t n_hops; /**< 0..PCC_INT_MAX_HOPS */
	struct pcc_int_hop hop[PCC_INT_MAX_HOPS];
};

/** Gb/s for a rate code, 0 if unknown; code for Gb/s, or -1. */
uint32_t pcc_int_rate_gbps(uint8_t code);
int pcc_int_rate_code(uint32_t gbps);

/** Parse 42 bytes at buf; PCC_PROTO_ERR_BAD_LENGTH if n_hops > 5. */
int pcc_int_parse(const void *buf, uint32_t len, struct pcc_int_hdr *h);
int pcc_int_build(void *buf, uint32_t cap, const struct pcc_int_hdr *h);

/**
 * Switch action on an INT header in place: append one hop (n_hops++).
 * Values are encoded (time mod 2^24, bytes/128 mod 2^20, qlen/80
 * saturated at 2^17-1).  PCC_PROTO_ERR_BAD_LENGTH when already 5 hops.
 */
int pcc_int_push_hop(void *buf, uint32_t len, uint8_t rate_code, uint64_t time_ns,
		uint64_t tx_bytes, uint64_t qlen_bytes);

#ifdef __cplusplus
}
#endif

#endif /* PCC_PROTO_TLM_H */
