/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Names of the parser's errors and of the packet kinds (pcc_proto.h).
 */

#include "proto_internal.h"

const char *
pcc_proto_strerror(int err)
{
	static const char *const str[] = {
		[0] = "success",
		[-PCC_PROTO_ERR_TRUNCATED] = "data ends inside a header",
		[-PCC_PROTO_ERR_BAD_VERSION] = "bad version (IP, BTH TVer, MAD or IFA)",
		[-PCC_PROTO_ERR_BAD_LENGTH] = "length field disagrees with the data",
		[-PCC_PROTO_ERR_UNKNOWN_OPCODE] = "unknown BTH opcode",
		[-PCC_PROTO_ERR_NOT_IP] = "not IPv4/IPv6",
		[-PCC_PROTO_ERR_NOT_UDP] = "not UDP",
		[-PCC_PROTO_ERR_NOT_ROCE] = "not RoCEv2",
		[-PCC_PROTO_ERR_BAD_CSUM] = "IPv4 header checksum mismatch",
		[-PCC_PROTO_ERR_BAD_ICRC] = "RoCEv2 ICRC mismatch",
		[-PCC_PROTO_ERR_FRAGMENT] = "IPv4 fragment or IPv6 extension header",
		[-PCC_PROTO_ERR_BAD_MAD] = "MAD class or attribute not ours",
		[-PCC_PROTO_ERR_BAD_FIELD] = "field holds a forbidden value",
		[-PCC_PROTO_ERR_NO_SPACE] = "output buffer too small",
		[-PCC_PROTO_ERR_INVAL] = "invalid argument",
	};

	if (err >= 0)
		return str[0];
	if (err <= PCC_PROTO_ERR_MAX)
		return "unknown error";
	return str[-err];
}

const char *
pcc_proto_err_name(int err)
{
	static const char *const names[] = {
		[0] = "ok",
		[-PCC_PROTO_ERR_TRUNCATED] = "truncated",
		[-PCC_PROTO_ERR_BAD_VERSION] = "bad_version",
		[-PCC_PROTO_ERR_BAD_LENGTH] = "bad_length",
		[-PCC_PROTO_ERR_UNKNOWN_OPCODE] = "unknown_opcode",
		[-PCC_PROTO_ERR_NOT_IP] = "not_ip",
		[-PCC_PROTO_ERR_NOT_UDP] = "not_udp",
		[-PCC_PROTO_ERR_NOT_ROCE] = "not_roce",
		[-PCC_PROTO_ERR_BAD_CSUM] = "bad_csum",
		[-PCC_PROTO_ERR_BAD_ICRC] = "bad_icrc",
		[-PCC_PROTO_ERR_FRAGMENT] = "fragment",
		[-PCC_PROTO_ERR_BAD_MAD] = "bad_mad",
		[-PCC_PROTO_ERR_BAD_FIELD] = "bad_field",
		[-PCC_PROTO_ERR_NO_SPACE] = "no_space",
		[-PCC_PROTO_ERR_INVAL] = "inval",
	};

	if (err >= 0)
		return names[0];
	if (err <= PCC_PROTO_ERR_MAX)
		return "unknown";
	return names[-err];
}

const char *
pcc_pkt_kind_name(enum pcc_pkt_kind kind)
{
	static const char *const names[PCC_PKT_KIND_MAX] = {
		[PCC_PKT_OTHER] = "other",
		[PCC_PKT_ROCE_DATA] = "roce_data",
		[PCC_PKT_ROCE_ACK] = "ack",
		[PCC_PKT_ROCE_NAK] = "nak",
		[PCC_PKT_CNP] = "cnp",
		[PCC_PKT_PROBE_REQ] = "probe_req",
		[PCC_PKT_PROBE_RESP] = "probe_resp",
		[PCC_PKT_IFA2] = "ifa2",
		[PCC_PKT_IFA1] = "ifa1",
	};

	if ((unsigned int)kind >= PCC_PKT_KIND_MAX)
		return "unknown";
	return names[kind];
}
