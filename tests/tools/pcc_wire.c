/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * pcc-wire: bridge between lib/proto and external packet tools.
 *
 *   pcc-wire parse FILE.pcap [--icrc] [--ip-csum] [--ifa2-proto N]
 *                  [--ifa1-marker HEX] [--hex]
 *       One JSON object per packet (one per line) with the pcc_parse()
 *       result and the decoded probe / MAD / IFA2 / IFA1 / INT details.
 *
 *   pcc-wire build -o OUT.pcap [--match GLOB]... [--time SEC] [--list]
 *       Writes a catalog of frames built by lib/proto and prints a JSON
 *       manifest (one object per packet, same order as the pcap) of the
 *       values that were set.
 *
 * Exit status: 0 on success, 1 on a runtime error (unreadable or
 * unwritable file, builder failure), 2 on bad usage.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "pcc_proto.h"

#define EXIT_USAGE 2
#define FRAME_CAP 2048
#define SNAPLEN 65535
/* 2026-01-01T00:00:00Z: default timestamp of the first built packet */
#define DEFAULT_TIME 1767225600L

/* ---- Minimal JSON line writer --------------------------------------- */

#define JSON_MAX_DEPTH 8

struct jw {
	FILE *f;
	int depth;
	unsigned int n[JSON_MAX_DEPTH]; /* members written at each depth */
};

static void
jw_sep(struct jw *w)
{
	if (w->n[w->depth]++ != 0)
		fputs(", ", w->f);
}

static void
jw_key(struct jw *w, const char *key)
{
	jw_sep(w);
	if (key != NULL)
		fprintf(w->f, "\"%s\": ", key);
}

static void
jw_open(struct jw *w, const char *key, char c)
{
	if (w->depth >= 0)
		jw_key(w, key);
	fputc(c, w->f);
	w->depth++;
	w->n[w->depth] = 0;
}

static void
jw_close(struct jw *w, char c)
{
	fputc(c, w->f);
	w->depth--;
	if (w->depth < 0)
		fputc('\n', w->f);
}

static void
jw_begin(struct jw *w, FILE *f)
{
	w->f = f;
	w->depth = -1;
	jw_open(w, NULL, '{');
}

static void
jw_end(struct jw *w)
{
	jw_close(w, '}');
	fflush(w->f);
}

static void
jw_obj(struct jw *w, const char *key)
{
	jw_open(w, key, '{');
}

static void
jw_obj_end(struct jw *w)
{
	jw_close(w, '}');
}

static void
jw_arr(struct jw *w, const char *key)
{
	jw_open(w, key, '[');
}

static void
jw_arr_end(struct jw *w)
{
	jw_close(w, ']');
}

static void
jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

static void
jw_i64(struct jw *w, const char *key, int64_t v)
{
	jw_key(w, key);
	fprintf(w->f, "%" PRId64, v);
}

static void
jw_bool(struct jw *w, const char *key, bool v)
{
	jw_key(w, key);
	fputs(v ? "true" : "false", w->f);
}

static void
jw_null(struct jw *w, const char *key)
{
	jw_key(w, key);
	fputs("null", w->f);
}

static void
jw_str(struct jw *w, const char *key, const char *s)
{
	const unsigned char *p;

	if (s == NULL) {
		jw_null(w, key);
		return;
	}
	jw_key(w, key);
	fputc('"', w->f);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(w->f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(w->f, "\\u%04x", *p);
		else
			fputc(*p, w->f);
	}
	fputc('"', w->f);
}

static void
jw_hex(struct jw *w, const char *key, const uint8_t *buf, size_t len)
{
	size_t i;

	jw_key(w, key);
	fputc('"', w->f);
	for (i = 0; i < len; i++)
		fprintf(w->f, "%02x", buf[i]);
	fputc('"', w->f);
}

static void
jw_rc(struct jw *w, int rc)
{
	jw_i64(w, "rc", rc);
	jw_str(w, "error", pcc_proto_strerror(rc));
}

/* ---- Helpers ---------------------------------------------------------- */

static const char *progname = "pcc-wire";

static void
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FAILURE);
}

static void
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", progname);
	exit(EXIT_USAGE);
}

static void
usage(FILE *f)
{
	fprintf(f,
			"Usage: %s parse FILE.pcap [--icrc] [--ip-csum] [--ifa2-proto N]\n"
			"                 [--ifa1-marker HEX] [--hex]\n"
			"       %s build -o OUT.pcap [--match GLOB]... [--time SEC] [--list]\n"
			"       %s --help\n"
			"\n"
			"parse: decode every packet of a pcap (Ethernet) with pcc_parse()\n"
			"       and print one JSON object per line.\n"
			"  --icrc            verify the RoCEv2 ICRC\n"
			"  --ip-csum         verify the IPv4 header checksum\n"
			"  --ifa2-proto N    IP protocol of IFA 2.0 (0 = off, default 253)\n"
			"  --ifa1-marker HEX IFA 1.0 marker (0 = off)\n"
			"  --hex             include the frame bytes\n"
			"build: write the catalog of frames built by lib/proto and print\n"
			"       one JSON manifest object per frame.\n"
			"  -o, --output FILE pcap to write (required unless --list)\n"
			"  -m, --match GLOB  only frames whose name matches (repeatable)\n"
			"  --time SEC        timestamp of the first frame (default %ld)\n"
			"  --list            print the names of matching frames only\n",
			progname, progname, progname, DEFAULT_TIME);
}

static uint64_t
parse_uint(const char *opt, const char *s, int base, uint64_t max)
{
	unsigned long long v;
	char *end;

	if (s == NULL || *s == '\0' || *s == '-')
		usage_error("%s: expected a number, got '%s'", opt, s == NULL ? "" : s);
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno != 0 || *end != '\0' || v > max)
		usage_error("%s: invalid value '%s'", opt, s);
	return v;
}

static void
addr_str(bool ipv6, const void *addr, char *out, size_t size)
{
	if (ipv6) {
		if (inet_ntop(AF_INET6, addr, out, size) == NULL)
			snprintf(out, size, "?");
	} else {
		uint32_t a = htonl(*(const uint32_t *)addr);

		if (inet_ntop(AF_INET, &a, out, size) == NULL)
			snprintf(out, size, "?");
	}
}

static uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void
wr16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* ---- parse ---------------------------------------------------------- */

static const char *const flag_names[] = {
	"vlan",
	"ipv6",
	"aeth",
	"reth",
	"deth",
	"immdt",
	"ieth",
	"atomiceth",
	"atomicacketh",
	"mad",
	"icrc_ok",
};

static void
print_ifa2_hop(struct jw *w, const struct pcc_ifa2_hop *h)
{
	jw_u64(w, "lns", h->lns);
	jw_u64(w, "device_id", h->device_id);
	jw_u64(w, "ttl", h->ttl);
	jw_u64(w, "port_speed", h->port_speed);
	jw_u64(w, "port_speed_gbps", pcc_ifa2_speed_gbps(h->port_speed));
	jw_u64(w, "congestion", h->congestion);
	jw_u64(w, "queue_id", h->queue_id);
	jw_u64(w, "rx_sec", h->rx_sec);
	jw_u64(w, "egress_port", h->egress_port);
	jw_u64(w, "ingress_port", h->ingress_port);
	jw_u64(w, "rx_ns", h->rx_ns);
	jw_u64(w, "residence_ns", h->residence_ns);
	jw_hex(w, "profile", h->profile, sizeof(h->profile));
}

static void
print_probe(struct jw *w, const uint8_t *buf, uint32_t len, const struct pcc_pkt_info *info)
{
	struct pcc_probe p;
	const uint8_t *custom = NULL;
	int rc;

	memset(&p, 0, sizeof(p));
	rc = pcc_probe_parse(buf, info, &p, &custom);
	jw_obj(w, "probe");
	jw_rc(w, rc);
	if (rc == 0) {
		jw_u64(w, "tid", p.tid);
		jw_u64(w, "flow_tag", p.flow_tag);
		jw_u64(w, "slot", p.slot);
		jw_u64(w, "flags", p.flags);
		jw_bool(w, "response", (p.flags & PCC_PROBE_F_RESPONSE) != 0);
		jw_bool(w, "hw_np", (p.flags & PCC_PROBE_F_HW_NP) != 0);
		jw_u64(w, "custom_len", p.custom_len);
		jw_u64(w, "req_send_ts", p.req_send_ts);
		jw_u64(w, "np_recv_ts", p.np_recv_ts);
		jw_u64(w, "np_send_ts", p.np_send_ts);
		jw_hex(w, "user", p.user, sizeof(p.user));
		jw_u64(w, "resp_ts", p.resp_ts);
		if (custom == NULL) {
			jw_null(w, "custom");
		} else if (custom < buf || custom > buf + len ||
				p.custom_len > (size_t)(buf + len - custom)) {
			/* would be a library bug: never read out of bounds */
			jw_str(w, "custom", "OUT_OF_BOUNDS");
		} else {
			jw_u64(w, "custom_off", (uint64_t)(custom - buf));
			jw_hex(w, "custom", custom, p.custom_len);
		}
	}
	jw_obj_end(w);
}

static void
print_mad(struct jw *w, const uint8_t *buf, uint32_t len, const struct pcc_pkt_info *info)
{
	struct pcc_mad_hdr m;
	int rc;

	jw_obj(w, "mad");
	if (info->payload_off > len) {
		jw_rc(w, PCC_PROTO_ERR_TRUNCATED);
		jw_obj_end(w);
		return;
	}
	memset(&m, 0, sizeof(m));
	rc = pcc_mad_hdr_parse(buf + info->payload_off, len - info->payload_off, &m);
	jw_rc(w, rc);
	if (rc == 0) {
		jw_u64(w, "base_version", m.base_version);
		jw_u64(w, "mgmt_class", m.mgmt_class);
		jw_u64(w, "class_version", m.class_version);
		jw_u64(w, "method", m.method);
		jw_u64(w, "status", m.status);
		jw_u64(w, "class_specific", m.class_specific);
		jw_u64(w, "tid", m.tid);
		jw_u64(w, "attr_id", m.attr_id);
		jw_u64(w, "attr_mod", m.attr_mod);
	}
	jw_obj_end(w);
}

static void
print_ifa2(struct jw *w, const uint8_t *buf, uint32_t len, uint8_t proto)
{
	struct pcc_ifa2_info ii;
	struct pcc_ifa2_hop hop;
	unsigned int i;
	int rc;

	memset(&ii, 0, sizeof(ii));
	rc = pcc_ifa2_parse(buf, len, proto, &ii);
	jw_obj(w, "ifa2");
	jw_rc(w, rc);
	if (rc == 0) {
		jw_u64(w, "ver", ii.hdr.ver);
		jw_u64(w, "gns", ii.hdr.gns);
		jw_u64(w, "next_hdr", ii.hdr.next_hdr);
		jw_u64(w, "flags", ii.hdr.flags);
		jw_u64(w, "max_len", ii.hdr.max_len);
		jw_u64(w, "req_vector", ii.md.req_vector);
		jw_u64(w, "action_vector", ii.md.action_vector);
		jw_u64(w, "hop_limit", ii.md.hop_limit);
		jw_u64(w, "cur_len", ii.md.cur_len);
		jw_u64(w, "ifa_off", ii.ifa_off);
		jw_u64(w, "udp_off", ii.udp_off);
		jw_u64(w, "md_off", ii.md_off);
		jw_u64(w, "stack_off", ii.stack_off);
		jw_u64(w, "n_hops", ii.n_hops);
		jw_u64(w, "payload_off", ii.payload_off);
		jw_arr(w, "hops");
		for (i = 0; i < ii.n_hops; i++) {
			memset(&hop, 0, sizeof(hop));
			rc = pcc_ifa2_get_hop(buf, len, &ii, i, &hop);
			jw_obj(w, NULL);
			jw_rc(w, rc);
			if (rc == 0)
				print_ifa2_hop(w, &hop);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

static void
print_ifa1(struct jw *w, const uint8_t *buf, uint32_t len, const struct pcc_pkt_info *info,
		uint64_t marker)
{
	struct pcc_ifa1_hdr h;
	struct pcc_ifa2_hop hop;
	uint32_t off = (uint32_t)info->l4_off + PCC_UDP_HDR_LEN;
	uint32_t hoff;
	int rc;

	jw_obj(w, "ifa1");
	if (off > len) {
		jw_rc(w, PCC_PROTO_ERR_TRUNCATED);
		jw_obj_end(w);
		return;
	}
	memset(&h, 0, sizeof(h));
	rc = pcc_ifa1_parse(buf + off, len - off, marker, &h);
	jw_rc(w, rc);
	if (rc == 0) {
		jw_u64(w, "off", off);
		jw_u64(w, "marker", h.marker);
		jw_u64(w, "ver", h.ver);
		jw_u64(w, "mtype", h.mtype);
		jw_u64(w, "rep", h.rep);
		jw_u64(w, "c", h.c);
		jw_u64(w, "e", h.e);
		jw_u64(w, "flag", h.flag);
		jw_u64(w, "ctrl", h.ctrl);
		jw_u64(w, "tlm_request", h.tlm_request);
		jw_u64(w, "tlm_action", h.tlm_action);
		jw_u64(w, "hop_limit", h.hop_limit);
		jw_u64(w, "hop_count", h.hop_count);
		jw_u64(w, "max_len", h.max_len);
		jw_u64(w, "cur_len", h.cur_len);
		jw_u64(w, "sender", h.sender);
		jw_u64(w, "seq", h.seq);
		jw_arr(w, "hops");
		for (hoff = PCC_IFA1_HDR_LEN; hoff + PCC_IFA2_HOP_LEN <= h.cur_len &&
				off + hoff + PCC_IFA2_HOP_LEN <= len;
				hoff += PCC_IFA2_HOP_LEN) {
			memset(&hop, 0, sizeof(hop));
			rc = pcc_ifa2_hop_parse(buf + off + hoff, len - off - hoff, &hop);
			jw_obj(w, NULL);
			jw_rc(w, rc);
			if (rc == 0)
				print_ifa2_hop(w, &hop);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

static void
print_int(struct jw *w, const uint8_t *buf, uint32_t len, const struct pcc_pkt_info *info)
{
	struct pcc_int_hdr h;
	unsigned int i;
	int rc;

	jw_obj(w, "int");
	if (info->payload_off > len) {
		jw_rc(w, PCC_PROTO_ERR_TRUNCATED);
		jw_obj_end(w);
		return;
	}
	memset(&h, 0, sizeof(h));
	rc = pcc_int_parse(buf + info->payload_off, len - info->payload_off, &h);
	jw_rc(w, rc);
	if (rc == 0) {
		jw_u64(w, "n_hops", h.n_hops);
		jw_arr(w, "hops");
		for (i = 0; i < h.n_hops && i < PCC_INT_MAX_HOPS; i++) {
			jw_obj(w, NULL);
			jw_u64(w, "rate_code", h.hop[i].rate_code);
			jw_u64(w, "rate_gbps", pcc_int_rate_gbps(h.hop[i].rate_code));
			jw_u64(w, "time_ns", h.hop[i].time_ns);
			jw_u64(w, "tx_bytes", h.hop[i].tx_bytes);
			jw_u64(w, "qlen", h.hop[i].qlen);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

static void
print_info(struct jw *w, const uint8_t *buf, uint32_t len, const struct pcc_parse_opts *opts,
		const struct pcc_pkt_info *info)
{
	bool ipv6 = (info->flags & PCC_PKT_F_IPV6) != 0;
	char addr[INET6_ADDRSTRLEN];
	unsigned int i;

	jw_str(w, "kind", pcc_pkt_kind_name((enum pcc_pkt_kind)info->kind));
	jw_u64(w, "kind_id", info->kind);
	jw_u64(w, "frame_len", info->frame_len);
	jw_u64(w, "payload_len", info->payload_len);
	jw_u64(w, "l3_off", info->l3_off);
	jw_u64(w, "l4_off", info->l4_off);
	jw_u64(w, "bth_off", info->bth_off);
	jw_u64(w, "payload_off", info->payload_off);
	jw_u64(w, "flags", info->flags);
	jw_arr(w, "flag_names");
	for (i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if (info->flags & (1u << i))
			jw_str(w, NULL, flag_names[i]);
	jw_arr_end(w);
	jw_bool(w, "vlan", (info->flags & PCC_PKT_F_VLAN) != 0);
	jw_u64(w, "vlan_tci", info->vlan_tci);
	jw_bool(w, "ipv6", ipv6);
	addr_str(ipv6, ipv6 ? (const void *)info->src.v6 : (const void *)&info->src.v4, addr,
			sizeof(addr));
	jw_str(w, "src", addr);
	addr_str(ipv6, ipv6 ? (const void *)info->dst.v6 : (const void *)&info->dst.v4, addr,
			sizeof(addr));
	jw_str(w, "dst", addr);
	jw_u64(w, "ecn", info->ecn);
	jw_u64(w, "dscp", info->dscp);
	jw_u64(w, "ttl", info->ttl);
	jw_u64(w, "ip_proto", info->ip_proto);
	jw_u64(w, "udp_sport", info->udp_sport);
	jw_u64(w, "udp_dport", info->udp_dport);
	jw_u64(w, "opcode", info->opcode);
	jw_str(w, "opcode_name", info->bth_off != 0 ? pcc_bth_opcode_name(info->opcode) : NULL);
	jw_u64(w, "pad_cnt", info->pad_cnt);
	jw_u64(w, "bth_flags", info->bth_flags);
	jw_bool(w, "fecn", (info->bth_flags & PCC_BTH_FECN) != 0);
	jw_bool(w, "becn", (info->bth_flags & PCC_BTH_BECN) != 0);
	jw_bool(w, "int_flag", (info->bth_flags & PCC_BTH_INT) != 0);
	jw_u64(w, "pkey", info->pkey);
	jw_u64(w, "dqpn", info->dqpn);
	jw_u64(w, "psn", info->psn);
	jw_u64(w, "ackreq", info->ackreq);
	jw_u64(w, "aeth_syndrome", info->aeth_syndrome);
	jw_u64(w, "aeth_class", pcc_aeth_class(info->aeth_syndrome));
	jw_u64(w, "aeth_code", pcc_aeth_code(info->aeth_syndrome));
	jw_u64(w, "aeth_msn", info->aeth_msn);
	jw_u64(w, "deth_qkey", info->deth_qkey);
	jw_u64(w, "deth_sqpn", info->deth_sqpn);
	jw_u64(w, "reth_va", info->reth_va);
	jw_u64(w, "reth_rkey", info->reth_rkey);
	jw_u64(w, "reth_dma_len", info->reth_dma_len);
	if ((info->flags & (PCC_PKT_F_IMMDT | PCC_PKT_F_IETH)) && info->payload_off >= 4 &&
			info->payload_off <= len) {
		const uint8_t *p = buf + info->payload_off - 4;

		jw_u64(w, "immdt",
				(uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
						p[3]);
	}
	if (opts->check_icrc)
		jw_bool(w, "icrc_ok", (info->flags & PCC_PKT_F_ICRC_OK) != 0);

	if (info->kind == PCC_PKT_PROBE_REQ || info->kind == PCC_PKT_PROBE_RESP)
		print_probe(w, buf, len, info);
	if (info->flags & PCC_PKT_F_MAD)
		print_mad(w, buf, len, info);
	if (info->kind == PCC_PKT_IFA2)
		print_ifa2(w, buf, len, opts->ifa2_proto);
	if (info->kind == PCC_PKT_IFA1)
		print_ifa1(w, buf, len, info, opts->ifa1_marker);
	if (info->bth_off != 0 && (info->bth_flags & PCC_BTH_INT))
		print_int(w, buf, len, info);
}

static int
cmd_parse(int argc, char **argv)
{
	enum {
		OPT_ICRC = 256,
		OPT_IP_CSUM,
		OPT_IFA2,
		OPT_IFA1,
		OPT_HEX
	};
	static const struct option longopts[] = {
		{ "icrc", no_argument, NULL, OPT_ICRC },
		{ "ip-csum", no_argument, NULL, OPT_IP_CSUM },
		{ "ifa2-proto", required_argument, NULL, OPT_IFA2 },
		{ "ifa1-marker", required_argument, NULL, OPT_IFA1 },
		{ "hex", no_argument, NULL, OPT_HEX },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcc_parse_opts opts;
	struct pcc_pkt_info info;
	struct pcap_pkthdr *hdr;
	const u_char *data;
	const char *file;
	bool hex = false;
	uint64_t index = 0;
	pcap_t *pc;
	uint8_t *buf;
	struct jw w;
	int c, rc;

	pcc_parse_opts_default(&opts);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ICRC:
			opts.check_icrc = true;
			break;
		case OPT_IP_CSUM:
			opts.check_ip_csum = true;
			break;
		case OPT_IFA2:
			opts.ifa2_proto = (uint8_t)parse_uint("--ifa2-proto", optarg, 0, UINT8_MAX);
			break;
		case OPT_IFA1:
			opts.ifa1_marker = parse_uint("--ifa1-marker", optarg, 16, UINT64_MAX);
			break;
		case OPT_HEX:
			hex = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		default:
			usage_error("parse: bad option");
		}
	}
	if (optind + 1 != argc)
		usage_error("parse: expected exactly one pcap file");
	file = argv[optind];

	pc = pcap_open_offline(file, errbuf);
	if (pc == NULL)
		die("%s: %s", file, errbuf);
	if (pcap_datalink(pc) != DLT_EN10MB)
		die("%s: link type %d is not Ethernet (DLT_EN10MB)", file, pcap_datalink(pc));

	while ((rc = pcap_next_ex(pc, &hdr, &data)) == 1) {
		/*
		 * Copy to a buffer of exactly caplen bytes so that a sanitizer
		 * build catches any read past the end.
		 */
		buf = malloc(hdr->caplen > 0 ? hdr->caplen : 1);
		if (buf == NULL)
			die("out of memory");
		memcpy(buf, data, hdr->caplen);
		memset(&info, 0, sizeof(info));
		rc = pcc_parse(buf, hdr->caplen, &opts, &info);

		jw_begin(&w, stdout);
		jw_u64(&w, "index", index);
		jw_u64(&w, "caplen", hdr->caplen);
		jw_u64(&w, "wire_len", hdr->len);
		jw_rc(&w, rc);
		if (rc == 0)
			print_info(&w, buf, hdr->caplen, &opts, &info);
		if (hex)
			jw_hex(&w, "hex", buf, hdr->caplen);
		jw_end(&w);
		free(buf);
		index++;
	}
	if (rc == PCAP_ERROR) {
		fprintf(stderr, "%s: %s: %s\n", progname, file, pcap_geterr(pc));
		pcap_close(pc);
		return EXIT_FAILURE;
	}
	pcap_close(pc);
	return EXIT_SUCCESS;
}

/* ---- build ---------------------------------------------------------- */

enum l3_variant {
	L3_V4,
	L3_V4_VLAN,
	L3_V6,
	L3_V6_VLAN,
	L3_MAX,
};

static const char *const l3_names[L3_MAX] = {
	"v4",
	"v4-vlan",
	"v6",
	"v6-vlan",
};

enum entry_type {
	E_CNP,
	E_RC_SEND_ONLY,
	E_RC_WRITE_ONLY,
	E_ACK,
	E_RNR_NAK,
	E_NAK_PSN_SEQ,
	E_NAK_INVALID_REQ,
	E_NAK_REMOTE_ACCESS,
	E_NAK_REMOTE_OP,
	E_NAK_INVALID_RD_REQ,
	E_UD_SEND_ONLY,
	E_RC_SEND_IMM,
	E_RC_WRITE_IMM,
	E_RC_READ_REQ,
	E_RC_READ_RESP_ONLY,
	E_RC_SEND_INV,
	E_UD_SEND_IMM,
	E_RC_FETCH_ADD,
	E_RC_ATOMIC_ACK,
	E_UC_SEND_ONLY,
	E_PROBE_REQ,
	E_PROBE_REQ_CUSTOM,
	E_PROBE_RESP,
	E_INT,
	E_IFA2,
	E_IFA1,
	E_MAX,
};

static const char *const entry_names[E_MAX] = {
	"cnp",
	"rc-send-only",
	"rc-write-only",
	"ack",
	"rnr-nak",
	"nak-psn-seq",
	"nak-invalid-req",
	"nak-remote-access",
	"nak-remote-op",
	"nak-invalid-rd-req",
	"ud-send-only",
	"rc-send-imm",
	"rc-write-imm",
	"rc-read-req",
	"rc-read-resp-only",
	"rc-send-inv",
	"ud-send-imm",
	"rc-fetch-add",
	"rc-atomic-ack",
	"uc-send-only",
	"probe-req",
	"probe-req-custom",
	"probe-resp",
	"int",
	"ifa2",
	"ifa1",
};

struct build_ctx {
	const char *name;
	unsigned int seq; /* index of the frame in the catalog */
	uint8_t buf[FRAME_CAP];
	int len;
};

static void
fill_pattern(uint8_t *p, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

static void
make_l3(struct pcc_l3_spec *l3, enum l3_variant v, unsigned int seq)
{
	static const uint8_t v6_src[16] = { 0xfd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0, 0, 0,
		0, 0, 0, 0, 0x01 };
	static const uint8_t v6_dst[16] = { 0xfd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0, 0, 0,
		0, 0, 0, 0, 0x02 };
	static const uint8_t dmac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
	static const uint8_t smac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

	memset(l3, 0, sizeof(*l3));
	memcpy(l3->dst_mac, dmac, sizeof(dmac));
	memcpy(l3->src_mac, smac, sizeof(smac));
	l3->vlan = v == L3_V4_VLAN || v == L3_V6_VLAN;
	/* PCP 3, DEI 0, VID 100 + variant */
	l3->vlan_tci = l3->vlan ? (uint16_t)(0x6000 | (100 + v)) : 0;
	l3->ipv6 = v == L3_V6 || v == L3_V6_VLAN;
	if (l3->ipv6) {
		memcpy(l3->src.v6, v6_src, 16);
		memcpy(l3->dst.v6, v6_dst, 16);
	} else {
		l3->src.v4 = 0xc0a80101; /* 192.168.1.1 */
		l3->dst.v4 = 0xc0a80102; /* 192.168.1.2 */
	}
	l3->dscp = 26;
	l3->ecn = PCC_ECN_ECT0;
	l3->ttl = (uint8_t)(32 + seq);
	l3->ip_id = (uint16_t)(0x1000 + seq);
	l3->flow_label = (0x12340 + seq) & 0xfffff;
	l3->udp_sport = pcc_roce_udp_sport(0x11 + seq, 0x22 + seq);
}

static void
manifest_l3(struct jw *w, const struct pcc_l3_spec *l3)
{
	char addr[INET6_ADDRSTRLEN];

	jw_bool(w, "vlan", l3->vlan);
	jw_u64(w, "vlan_tci", l3->vlan_tci);
	jw_bool(w, "ipv6", l3->ipv6);
	addr_str(l3->ipv6, l3->ipv6 ? (const void *)l3->src.v6 : (const void *)&l3->src.v4, addr,
			sizeof(addr));
	jw_str(w, "src", addr);
	addr_str(l3->ipv6, l3->ipv6 ? (const void *)l3->dst.v6 : (const void *)&l3->dst.v4, addr,
			sizeof(addr));
	jw_str(w, "dst", addr);
	jw_hex(w, "src_mac", l3->src_mac, 6);
	jw_hex(w, "dst_mac", l3->dst_mac, 6);
	jw_u64(w, "dscp", l3->dscp);
	jw_u64(w, "ecn", l3->ecn);
	jw_u64(w, "ttl", l3->ttl == 0 ? 64 : l3->ttl);
	if (l3->ipv6)
		jw_u64(w, "flow_label", l3->flow_label);
	else
		jw_u64(w, "ip_id", l3->ip_id);
	jw_u64(w, "ip_proto", 17);
	jw_u64(w, "udp_sport", l3->udp_sport == 0 ? 0xC000 : l3->udp_sport);
	jw_u64(w, "udp_dport", PCC_ROCE_UDP_PORT);
}

/* Extension headers as pcc-wire parse's flag_names spells them. */
static void
manifest_ext(struct jw *w, uint32_t ext)
{
	static const struct {
		uint32_t ext;
		const char *name;
	} names[] = {
		{ PCC_EXT_AETH, "aeth" },
		{ PCC_EXT_RETH, "reth" },
		{ PCC_EXT_DETH, "deth" },
		{ PCC_EXT_IMMDT, "immdt" },
		{ PCC_EXT_IETH, "ieth" },
		{ PCC_EXT_ATOMICETH, "atomiceth" },
		{ PCC_EXT_ATOMICACKETH, "atomicacketh" },
	};
	size_t i;

	jw_arr(w, "ext");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (ext & names[i].ext)
			jw_str(w, NULL, names[i].name);
	jw_arr_end(w);
}

static void
manifest_bth(struct jw *w, const struct pcc_bth *b)
{
	jw_u64(w, "opcode", b->opcode);
	jw_u64(w, "se", b->se);
	jw_u64(w, "mig", b->mig);
	jw_u64(w, "pkey", b->pkey);
	jw_u64(w, "bth_flags", b->flags);
	jw_bool(w, "fecn", (b->flags & PCC_BTH_FECN) != 0);
	jw_bool(w, "becn", (b->flags & PCC_BTH_BECN) != 0);
	jw_u64(w, "dqpn", b->dqpn);
	jw_u64(w, "psn", b->psn);
	jw_u64(w, "ackreq", b->ackreq);
}

static void
manifest_hop(struct jw *w, const struct pcc_ifa2_hop *h)
{
	jw_obj(w, NULL);
	print_ifa2_hop(w, h);
	jw_obj_end(w);
}

static void
make_hop(struct pcc_ifa2_hop *h, unsigned int n)
{
	memset(h, 0, sizeof(*h));
	h->lns = (uint8_t)(1 + n);
	h->device_id = 0xabc00 + n;
	h->ttl = (uint8_t)(64 - n);
	h->port_speed = (uint8_t)(4 + n % 3); /* 100G, 200G, 400G */
	h->congestion = (uint8_t)(n & 3);
	h->queue_id = (uint8_t)(3 + n);
	h->rx_sec = 0x12345 + n;
	h->egress_port = (uint16_t)(10 + n);
	h->ingress_port = (uint16_t)(20 + n);
	h->rx_ns = 123456789 + n;
	h->residence_ns = 1500 + 100 * n;
	fill_pattern(h->profile, sizeof(h->profile), (uint8_t)(0x40 + n));
}

static void
fix_udp6_csum(uint8_t *f, int len, const struct pcc_l3_spec *l3)
{
	uint32_t l3_off = PCC_ETH_HDR_LEN + (l3->vlan ? PCC_VLAN_HDR_LEN : 0);
	uint8_t *ip = f + l3_off;
	uint8_t *udp = ip + PCC_IPV6_HDR_LEN;
	uint32_t ulen, sum = 0, i;

	if (!l3->ipv6 || ip[6] != 17)
		return;
	ulen = rd16(ip + 4);
	if (l3_off + PCC_IPV6_HDR_LEN + ulen > (uint32_t)len)
		return;
	wr16(udp + 6, 0);
	for (i = 0; i < 32; i += 2)
		sum += rd16(ip + 8 + i);
	sum += 17 + ulen;
	for (i = 0; i + 1 < ulen; i += 2)
		sum += rd16(udp + i);
	if (ulen & 1)
		sum += (uint32_t)udp[ulen - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	wr16(udp + 6, sum == 0 ? 0xffff : (uint16_t)sum);
}

/* Re-parse a frame modified in place and fix its ICRC. */
static void
refresh_icrc(struct build_ctx *b)
{
	struct pcc_pkt_info info;
	int rc;

	rc = pcc_parse(b->buf, (uint32_t)b->len, NULL, &info);
	if (rc < 0)
		die("%s: re-parse: %s", b->name, pcc_proto_strerror(rc));
	rc = pcc_icrc_update(b->buf, &info);
	if (rc < 0)
		die("%s: pcc_icrc_update: %s", b->name, pcc_proto_strerror(rc));
}

static void
check_built(const struct build_ctx *b, const char *fn)
{
	if (b->len < 0)
		die("%s: %s: %s", b->name, fn, pcc_proto_strerror(b->len));
}

static void
build_roce_entry(struct jw *w, struct build_ctx *b, enum entry_type t, struct pcc_l3_spec *l3)
{
	static const uint8_t nak_syndrome[] = {
		[E_ACK] = (PCC_AETH_ACK << 5) | 0x1f,
		[E_RNR_NAK] = (PCC_AETH_RNR_NAK << 5) | 0x0e,
		[E_NAK_PSN_SEQ] = (PCC_AETH_NAK << 5) | PCC_NAK_PSN_SEQ_ERR,
		[E_NAK_INVALID_REQ] = (PCC_AETH_NAK << 5) | PCC_NAK_INVALID_REQ,
		[E_NAK_REMOTE_ACCESS] = (PCC_AETH_NAK << 5) | PCC_NAK_REMOTE_ACCESS,
		[E_NAK_REMOTE_OP] = (PCC_AETH_NAK << 5) | PCC_NAK_REMOTE_OP,
		[E_NAK_INVALID_RD_REQ] = (PCC_AETH_NAK << 5) | PCC_NAK_INVALID_RD_REQ,
	};
	uint8_t payload[256];
	struct pcc_roce_spec r;
	const char *kind = "roce_data";
	uint32_t ext = 0;

	memset(&r, 0, sizeof(r));
	r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r.bth.dqpn = 0x000100 + b->seq;
	r.bth.psn = 0xabc000 + b->seq;
	switch (t) {
	case E_RC_SEND_ONLY:
		l3->ecn = PCC_ECN_CE;
		r.bth.opcode = PCC_OP_RC_SEND_ONLY;
		r.bth.se = 1;
		r.bth.ackreq = 1;
		r.payload_len = 13; /* odd: exercises PadCnt 3 */
		break;
	case E_RC_WRITE_ONLY:
		l3->ecn = PCC_ECN_CE;
		l3->dscp = 46;
		r.bth.opcode = PCC_OP_RC_RDMA_WRITE_ONLY;
		r.bth.mig = 1;
		r.payload_len = 64;
		r.reth.va = 0x00007f1234567000ull + b->seq;
		r.reth.rkey = 0x1234abcd;
		r.reth.dma_len = r.payload_len;
		ext = PCC_EXT_RETH;
		break;
	case E_ACK:
	case E_RNR_NAK:
	case E_NAK_PSN_SEQ:
	case E_NAK_INVALID_REQ:
	case E_NAK_REMOTE_ACCESS:
	case E_NAK_REMOTE_OP:
	case E_NAK_INVALID_RD_REQ:
		l3->ecn = t == E_ACK ? PCC_ECN_NOT_ECT : PCC_ECN_ECT1;
		l3->ttl = 0; /* builder default: 64 */
		r.bth.opcode = PCC_OP_RC_ACK;
		r.bth.flags = t == E_ACK ? PCC_BTH_FECN : 0;
		r.aeth.syndrome = nak_syndrome[t];
		r.aeth.msn = 0x123400 + b->seq;
		ext = PCC_EXT_AETH;
		kind = t == E_ACK ? "ack" : "nak";
		break;
	case E_UD_SEND_ONLY:
		l3->udp_sport = 0; /* builder default: 0xC000 */
		r.bth.opcode = PCC_OP_UD_SEND_ONLY;
		r.bth.dqpn = 0x000456;
		r.deth.qkey = 0x11223344;
		r.deth.sqpn = 0x000789;
		r.payload_len = 20;
		ext = PCC_EXT_DETH;
		break;
	/* the extension headers each opcode carries: IBA vol. 1, 9.2 */
	case E_RC_SEND_IMM:
		r.bth.opcode = 0x05;
		r.immdt = 0xdeadbeef;
		r.payload_len = 8;
		ext = PCC_EXT_IMMDT;
		break;
	case E_RC_WRITE_IMM:
		r.bth.opcode = 0x0b;
		r.reth.va = 0x1000;
		r.reth.rkey = 0x77;
		r.reth.dma_len = 17;
		r.immdt = 0x01020304;
		r.payload_len = 17;
		ext = PCC_EXT_RETH | PCC_EXT_IMMDT;
		break;
	case E_RC_READ_REQ:
		r.bth.opcode = PCC_OP_RC_RDMA_READ_REQ;
		r.reth.va = 0xffff800000000000ull;
		r.reth.rkey = 0xabcdef01;
		r.reth.dma_len = 1 << 20;
		ext = PCC_EXT_RETH;
		break;
	case E_RC_READ_RESP_ONLY:
		r.bth.opcode = 0x10;
		r.aeth.syndrome = 0x05;
		r.aeth.msn = 0x000042;
		r.payload_len = 32;
		ext = PCC_EXT_AETH;
		kind = "ack";
		break;
	case E_RC_SEND_INV:
		r.bth.opcode = 0x17;
		r.immdt = 0x55aa55aa; /* R_Key to invalidate */
		r.payload_len = 4;
		ext = PCC_EXT_IETH;
		break;
	case E_UD_SEND_IMM:
		r.bth.opcode = 0x65;
		r.deth.qkey = 0x22222222;
		r.deth.sqpn = 0x000333;
		r.immdt = 0xcafef00d;
		r.payload_len = 6;
		ext = PCC_EXT_DETH | PCC_EXT_IMMDT;
		break;
	case E_RC_FETCH_ADD:
		r.bth.opcode = 0x14;
		ext = PCC_EXT_ATOMICETH;
		break;
	case E_RC_ATOMIC_ACK:
		r.bth.opcode = 0x12;
		r.aeth.syndrome = 0x00;
		r.aeth.msn = 0x000043;
		ext = PCC_EXT_AETH | PCC_EXT_ATOMICACKETH;
		kind = "ack";
		break;
	case E_UC_SEND_ONLY:
		r.bth.opcode = 0x24;
		r.payload_len = 1;
		break;
	default:
		die("internal: bad entry %d", t);
	}
	fill_pattern(payload, r.payload_len, (uint8_t)b->seq);
	r.payload = r.payload_len != 0 ? payload : NULL;

	b->len = pcc_roce_build(b->buf, sizeof(b->buf), l3, &r);
	check_built(b, "pcc_roce_build");

	manifest_l3(w, l3);
	r.bth.pad_cnt = (uint8_t)((4 - (r.payload_len & 3)) & 3);
	manifest_bth(w, &r.bth);
	jw_u64(w, "pad_cnt", r.bth.pad_cnt);
	jw_str(w, "kind", kind);
	jw_u64(w, "payload_len", r.payload_len);
	jw_hex(w, "payload", payload, r.payload_len);
	if (ext & PCC_EXT_AETH) {
		jw_u64(w, "aeth_syndrome", r.aeth.syndrome);
		jw_u64(w, "aeth_class", pcc_aeth_class(r.aeth.syndrome));
		jw_u64(w, "aeth_code", pcc_aeth_code(r.aeth.syndrome));
		jw_u64(w, "aeth_msn", r.aeth.msn);
	}
	if (ext & PCC_EXT_RETH) {
		jw_u64(w, "reth_va", r.reth.va);
		jw_u64(w, "reth_rkey", r.reth.rkey);
		jw_u64(w, "reth_dma_len", r.reth.dma_len);
	}
	if (ext & PCC_EXT_DETH) {
		jw_u64(w, "deth_qkey", r.deth.qkey);
		jw_u64(w, "deth_sqpn", r.deth.sqpn);
	}
	if (ext & (PCC_EXT_IMMDT | PCC_EXT_IETH))
		jw_u64(w, "immdt", r.immdt);
	manifest_ext(w, ext);
}

static void
manifest_probe(struct jw *w, const struct pcc_probe *p, const uint8_t *custom)
{
	jw_obj(w, "probe");
	jw_u64(w, "tid", p->tid);
	jw_u64(w, "flow_tag", p->flow_tag);
	jw_u64(w, "slot", p->slot);
	jw_u64(w, "flags", p->flags);
	jw_u64(w, "custom_len", p->custom_len);
	jw_u64(w, "req_send_ts", p->req_send_ts);
	jw_u64(w, "np_recv_ts", p->np_recv_ts);
	jw_u64(w, "np_send_ts", p->np_send_ts);
	jw_hex(w, "user", p->user, sizeof(p->user));
	jw_u64(w, "resp_ts", p->resp_ts);
	if (p->custom_len != 0)
		jw_hex(w, "custom", custom, p->custom_len);
	jw_obj_end(w);
}

static void
build_probe_entry(struct jw *w, struct build_ctx *b, enum entry_type t, struct pcc_l3_spec *l3)
{
	uint8_t custom[PCC_PROBE_CUSTOM_MAX];
	bool resp = t == E_PROBE_RESP;
	uint32_t flow_qpn = 0x000300 + b->seq;
	struct pcc_probe p;

	memset(&p, 0, sizeof(p));
	p.tid = 0x1122334455660000ull + b->seq;
	p.flow_tag = 0xf00d0000u + b->seq;
	p.slot = (uint8_t)(b->seq % 16);
	p.req_send_ts = 1000000000ull * 1767225600ull + b->seq;
	if (t == E_PROBE_REQ_CUSTOM) {
		/* also the request flag: ask for the hardware-NP model */
		p.custom_len = 16;
		p.flags = PCC_PROBE_F_HW_NP;
	}
	fill_pattern(custom, sizeof(custom), 0xc0);
	l3->dscp = 48;
	l3->ecn = PCC_ECN_NOT_ECT;
	if (resp) {
		p.flags = PCC_PROBE_F_RESPONSE | PCC_PROBE_F_HW_NP;
		p.np_recv_ts = p.req_send_ts + 5000;
		p.np_send_ts = p.req_send_ts + 7000;
		fill_pattern(p.user, sizeof(p.user), 0x90);
		p.resp_ts = pcc_probe_resp_ts(0xdead0000, p.np_send_ts, 16, 4);
		b->len = pcc_probe_resp_build(b->buf, sizeof(b->buf), l3, flow_qpn, &p, NULL);
		check_built(b, "pcc_probe_resp_build");
	} else {
		b->len = pcc_probe_req_build(b->buf, sizeof(b->buf), l3, flow_qpn, &p,
				p.custom_len != 0 ? custom : NULL);
		check_built(b, "pcc_probe_req_build");
	}

	manifest_l3(w, l3);
	jw_str(w, "kind", resp ? "probe_resp" : "probe_req");
	jw_u64(w, "opcode", PCC_OP_UD_SEND_ONLY);
	jw_u64(w, "dqpn", resp ? flow_qpn : PCC_GSI_QPN);
	jw_u64(w, "deth_qkey", PCC_GSI_QKEY);
	jw_u64(w, "deth_sqpn", resp ? PCC_GSI_QPN : flow_qpn);
	/* always a full 256-byte MAD (doc/wire.md 7) */
	jw_u64(w, "payload_len", PCC_PROBE_MAD_LEN);
	manifest_ext(w, PCC_EXT_DETH);
	jw_obj(w, "mad");
	jw_u64(w, "base_version", PCC_MAD_BASE_VERSION);
	jw_u64(w, "mgmt_class", PCC_MAD_CLASS);
	jw_u64(w, "class_version", PCC_MAD_CLASS_VERSION);
	jw_u64(w, "method", resp ? PCC_MAD_METHOD_GET_RESP : PCC_MAD_METHOD_GET);
	jw_u64(w, "tid", p.tid);
	jw_u64(w, "attr_id", PCC_MAD_ATTR_RTT);
	jw_obj_end(w);
	manifest_probe(w, &p, custom);
}

/* RC SEND_ONLY carrying an HPCC INT header with two hops. */
static void
build_int_entry(struct jw *w, struct build_ctx *b, struct pcc_l3_spec *l3)
{
	static const struct {
		uint8_t rate;
		uint64_t time, bytes, qlen;
	} push[] = {
		{ PCC_INT_RATE_100G, 0x123456789ull, 1000000, 8000 },
		{ PCC_INT_RATE_400G, 0xabcdef, 128ull << 20, 80ull << 20 },
	};
	uint8_t payload[PCC_INT_HDR_LEN + 6];
	struct pcc_int_hdr ih;
	struct pcc_roce_spec r;
	unsigned int i;
	int rc;

	memset(&ih, 0, sizeof(ih));
	memset(payload, 0, sizeof(payload));
	rc = pcc_int_build(payload, sizeof(payload), &ih);
	if (rc != PCC_INT_HDR_LEN)
		die("%s: pcc_int_build: %d", b->name, rc);
	fill_pattern(payload + PCC_INT_HDR_LEN, 6, 0x33);

	memset(&r, 0, sizeof(r));
	r.bth.opcode = PCC_OP_RC_SEND_ONLY;
	r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r.bth.flags = PCC_BTH_INT;
	r.bth.dqpn = 0x000100 + b->seq;
	r.bth.psn = 0xabc000 + b->seq;
	r.payload = payload;
	r.payload_len = sizeof(payload);
	b->len = pcc_roce_build(b->buf, sizeof(b->buf), l3, &r);
	check_built(b, "pcc_roce_build");

	/* the payload starts right after the BTH (RC SEND has no ext hdr) */
	for (i = 0; i < 2; i++) {
		uint32_t off = PCC_ETH_HDR_LEN + (l3->vlan ? PCC_VLAN_HDR_LEN : 0) +
				(l3->ipv6 ? PCC_IPV6_HDR_LEN : PCC_IPV4_HDR_LEN) + PCC_UDP_HDR_LEN +
				PCC_BTH_LEN;

		rc = pcc_int_push_hop(b->buf + off, PCC_INT_HDR_LEN, push[i].rate, push[i].time,
				push[i].bytes, push[i].qlen);
		if (rc != 0)
			die("%s: pcc_int_push_hop: %s", b->name, pcc_proto_strerror(rc));
	}
	refresh_icrc(b);
	fix_udp6_csum(b->buf, b->len, l3);

	manifest_l3(w, l3);
	manifest_bth(w, &r.bth);
	jw_u64(w, "pad_cnt", (4 - (r.payload_len & 3)) & 3);
	jw_str(w, "kind", "roce_data");
	jw_u64(w, "payload_len", r.payload_len);
	manifest_ext(w, 0);
	jw_obj(w, "int");
	jw_u64(w, "n_hops", 2);
	jw_arr(w, "hops");
	for (i = 0; i < 2; i++) {
		uint64_t q = push[i].qlen / PCC_INT_QLEN_UNIT;

		jw_obj(w, NULL);
		jw_u64(w, "rate_code", push[i].rate);
		jw_u64(w, "time_ns", push[i].time & 0xffffff);
		jw_u64(w, "tx_bytes", (push[i].bytes / PCC_INT_BYTES_UNIT) & 0xfffff);
		jw_u64(w, "qlen", q > 0x1ffff ? 0x1ffff : q);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

/* RC SEND_ONLY with IFA 2.0 inserted and two hops pushed. */
static void
build_ifa2_entry(struct jw *w, struct build_ctx *b, struct pcc_l3_spec *l3)
{
	struct pcc_ifa2_hop hop[2];
	struct pcc_ifa2_md_hdr md;
	struct pcc_ifa2_hdr h;
	struct pcc_roce_spec r;
	uint8_t payload[24];
	uint32_t len;
	unsigned int i;
	int rc;

	memset(&r, 0, sizeof(r));
	r.bth.opcode = PCC_OP_RC_SEND_ONLY;
	r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r.bth.dqpn = 0x000100 + b->seq;
	r.bth.psn = 0xabc000 + b->seq;
	fill_pattern(payload, sizeof(payload), 0x55);
	r.payload = payload;
	r.payload_len = sizeof(payload);
	b->len = pcc_roce_build(b->buf, sizeof(b->buf), l3, &r);
	check_built(b, "pcc_roce_build");

	memset(&h, 0, sizeof(h));
	h.ver = PCC_IFA2_VERSION;
	h.gns = PCC_IFA2_GNS_DEFAULT;
	h.next_hdr = 17;
	h.flags = PCC_IFA2_F_TS;
	h.max_len = 64; /* 256 bytes = 8 hops */
	memset(&md, 0, sizeof(md));
	md.req_vector = 0xff;
	md.action_vector = PCC_IFA2_AV_L;
	md.hop_limit = PCC_IFA2_HOP_LIMIT_DEFAULT;
	md.cur_len = 0;

	len = (uint32_t)b->len;
	rc = pcc_ifa2_insert(b->buf, &len, sizeof(b->buf), PCC_IFA2_PROTO_DEFAULT, &h, &md);
	if (rc != 0)
		die("%s: pcc_ifa2_insert: %s", b->name, pcc_proto_strerror(rc));
	for (i = 0; i < 2; i++) {
		make_hop(&hop[i], i);
		rc = pcc_ifa2_push_hop(
				b->buf, &len, sizeof(b->buf), PCC_IFA2_PROTO_DEFAULT, &hop[i]);
		if (rc != 0)
			die("%s: pcc_ifa2_push_hop: %s", b->name, pcc_proto_strerror(rc));
	}
	b->len = (int)len;

	manifest_l3(w, l3);
	jw_str(w, "kind", "ifa2");
	jw_obj(w, "ifa2");
	jw_u64(w, "ip_proto", PCC_IFA2_PROTO_DEFAULT);
	jw_u64(w, "ver", h.ver);
	jw_u64(w, "gns", h.gns);
	jw_u64(w, "next_hdr", h.next_hdr);
	jw_u64(w, "flags", h.flags);
	jw_u64(w, "max_len", h.max_len);
	jw_u64(w, "req_vector", md.req_vector);
	jw_u64(w, "action_vector", md.action_vector);
	jw_u64(w, "hop_limit", md.hop_limit - 2);
	jw_u64(w, "cur_len", 2 * PCC_IFA2_HOP_LEN / 4);
	jw_u64(w, "n_hops", 2);
	jw_arr(w, "hops"); /* newest first */
	manifest_hop(w, &hop[1]);
	manifest_hop(w, &hop[0]);
	jw_arr_end(w);
	jw_obj_end(w);
	jw_obj(w, "inner");
	manifest_bth(w, &r.bth);
	jw_hex(w, "payload", payload, sizeof(payload));
	jw_obj_end(w);
}

/*
 * IFA 1.0: UDP 4791 whose payload is an IFA1 header and one hop record.
 * Built as an RC SEND_ONLY of the right size whose UDP payload is then
 * overwritten (lengths stay valid).
 */
static void
build_ifa1_entry(struct jw *w, struct build_ctx *b, struct pcc_l3_spec *l3)
{
	const uint32_t udp_payload = PCC_IFA1_HDR_LEN + PCC_IFA2_HOP_LEN;
	struct pcc_ifa1_hdr h;
	struct pcc_ifa2_hop hop;
	struct pcc_roce_spec r;
	uint32_t off, len;
	int rc;

	memset(&r, 0, sizeof(r));
	r.bth.opcode = PCC_OP_RC_SEND_ONLY;
	r.bth.pkey = PCC_BTH_PKEY_DEFAULT;
	r.payload_len = udp_payload - PCC_BTH_LEN - PCC_ICRC_LEN;
	b->len = pcc_roce_build(b->buf, sizeof(b->buf), l3, &r);
	check_built(b, "pcc_roce_build");

	off = PCC_ETH_HDR_LEN + (l3->vlan ? PCC_VLAN_HDR_LEN : 0) +
			(l3->ipv6 ? PCC_IPV6_HDR_LEN : PCC_IPV4_HDR_LEN) + PCC_UDP_HDR_LEN;
	if (off + udp_payload != (uint32_t)b->len)
		die("%s: unexpected frame length %d", b->name, b->len);
	memset(b->buf + off, 0, udp_payload);

	memset(&h, 0, sizeof(h));
	h.marker = PCC_IFA1_MARKER_DEFAULT;
	h.ver = PCC_IFA1_VERSION;
	h.mtype = 1;
	h.rep = 2;
	h.c = 1;
	h.e = 0;
	h.flag = 5;
	h.ctrl = 0x3c;
	h.tlm_request = 0xbeef;
	h.tlm_action = 0x0102;
	h.hop_limit = 8;
	h.hop_count = 0;
	h.max_len = PCC_IFA1_HDR_LEN + 4 * PCC_IFA2_HOP_LEN;
	h.cur_len = PCC_IFA1_HDR_LEN;
	h.sender = 0x0a000001;
	h.seq = 0x01020304 + b->seq;
	rc = pcc_ifa1_build(b->buf + off, udp_payload, &h);
	if (rc != PCC_IFA1_HDR_LEN)
		die("%s: pcc_ifa1_build: %d", b->name, rc);
	make_hop(&hop, 7);
	len = PCC_IFA1_HDR_LEN;
	rc = pcc_ifa1_push_hop(b->buf + off, &len, udp_payload, PCC_IFA1_MARKER_DEFAULT, &hop);
	if (rc != 0 || len != udp_payload)
		die("%s: pcc_ifa1_push_hop: %d", b->name, rc);
	fix_udp6_csum(b->buf, b->len, l3);

	manifest_l3(w, l3);
	jw_str(w, "kind", "ifa1");
	jw_obj(w, "ifa1");
	jw_u64(w, "off", off);
	jw_u64(w, "marker", h.marker);
	jw_u64(w, "ver", h.ver);
	jw_u64(w, "mtype", h.mtype);
	jw_u64(w, "rep", h.rep);
	jw_u64(w, "c", h.c);
	jw_u64(w, "e", h.e);
	jw_u64(w, "flag", h.flag);
	jw_u64(w, "ctrl", h.ctrl);
	jw_u64(w, "tlm_request", h.tlm_request);
	jw_u64(w, "tlm_action", h.tlm_action);
	jw_u64(w, "hop_limit", h.hop_limit - 1);
	jw_u64(w, "hop_count", h.hop_count + 1);
	jw_u64(w, "max_len", h.max_len);
	jw_u64(w, "cur_len", h.cur_len + PCC_IFA2_HOP_LEN);
	jw_u64(w, "sender", h.sender);
	jw_u64(w, "seq", h.seq);
	jw_arr(w, "hops");
	manifest_hop(w, &hop);
	jw_arr_end(w);
	jw_obj_end(w);
}

static bool
name_matches(const char *name, char **globs, int n_globs)
{
	int i;

	if (n_globs == 0)
		return true;
	for (i = 0; i < n_globs; i++)
		if (fnmatch(globs[i], name, 0) == 0)
			return true;
	return false;
}

static int
cmd_build(int argc, char **argv)
{
	enum {
		OPT_TIME = 256,
		OPT_LIST
	};
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "match", required_argument, NULL, 'm' },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct build_ctx b;
	struct pcc_l3_spec l3;
	struct pcap_pkthdr ph;
	pcap_dumper_t *dump = NULL;
	const char *out = NULL;
	char **globs;
	int n_globs = 0;
	uint64_t t0 = DEFAULT_TIME;
	unsigned int seq = 0, v, e;
	bool list = false;
	pcap_t *pc = NULL;
	char name[64];
	struct jw w;
	int c;

	globs = calloc((size_t)argc, sizeof(*globs));
	if (globs == NULL)
		die("out of memory");
	while ((c = getopt_long(argc, argv, "ho:m:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'm':
			globs[n_globs++] = optarg;
			break;
		case OPT_TIME:
			t0 = parse_uint("--time", optarg, 10, INT32_MAX);
			break;
		case OPT_LIST:
			list = true;
			break;
		case 'h':
			usage(stdout);
			free(globs);
			return EXIT_SUCCESS;
		default:
			usage_error("build: bad option");
		}
	}
	if (optind != argc)
		usage_error("build: unexpected argument '%s'", argv[optind]);
	if (out == NULL && !list)
		usage_error("build: -o OUT.pcap is required");

	if (!list) {
		pc = pcap_open_dead(DLT_EN10MB, SNAPLEN);
		if (pc == NULL)
			die("pcap_open_dead failed");
		dump = pcap_dump_open(pc, out);
		if (dump == NULL)
			die("%s: %s", out, pcap_geterr(pc));
	}

	for (v = 0; v < L3_MAX; v++) {
		for (e = 0; e < E_MAX; e++) {
			snprintf(name, sizeof(name), "%s-%s", entry_names[e], l3_names[v]);
			if (!name_matches(name, globs, n_globs))
				continue;
			if (list) {
				printf("%s\n", name);
				continue;
			}
			memset(&b, 0, sizeof(b));
			b.name = name;
			b.seq = seq;
			make_l3(&l3, (enum l3_variant)v, seq);

			jw_begin(&w, stdout);
			jw_u64(&w, "index", seq);
			jw_str(&w, "name", name);
			switch ((enum entry_type)e) {
			case E_CNP:
				l3.ecn = PCC_ECN_NOT_ECT;
				b.len = pcc_cnp_build(b.buf, sizeof(b.buf), &l3, 0x000200 + seq);
				check_built(&b, "pcc_cnp_build");
				manifest_l3(&w, &l3);
				jw_str(&w, "kind", "cnp");
				jw_u64(&w, "opcode", PCC_OP_CNP);
				jw_u64(&w, "pkey", PCC_BTH_PKEY_DEFAULT);
				jw_u64(&w, "bth_flags", PCC_BTH_BECN);
				jw_bool(&w, "fecn", false);
				jw_bool(&w, "becn", true);
				jw_u64(&w, "dqpn", 0x000200 + seq);
				jw_u64(&w, "psn", 0);
				jw_u64(&w, "se", 0);
				jw_u64(&w, "mig", 0);
				jw_u64(&w, "ackreq", 0);
				jw_u64(&w, "pad_cnt", 0);
				jw_u64(&w, "cnp_pad_len", PCC_CNP_PAD_LEN);
				manifest_ext(&w, 0);
				break;
			case E_PROBE_REQ:
			case E_PROBE_REQ_CUSTOM:
			case E_PROBE_RESP:
				build_probe_entry(&w, &b, (enum entry_type)e, &l3);
				break;
			case E_INT:
				build_int_entry(&w, &b, &l3);
				break;
			case E_IFA2:
				build_ifa2_entry(&w, &b, &l3);
				break;
			case E_IFA1:
				build_ifa1_entry(&w, &b, &l3);
				break;
			default:
				build_roce_entry(&w, &b, (enum entry_type)e, &l3);
				break;
			}
			jw_u64(&w, "len", (uint64_t)b.len);
			jw_end(&w);

			memset(&ph, 0, sizeof(ph));
			ph.ts.tv_sec = (time_t)(t0 + seq / 1000);
			ph.ts.tv_usec = (suseconds_t)((seq % 1000) * 1000);
			ph.caplen = (bpf_u_int32)b.len;
			ph.len = (bpf_u_int32)b.len;
			pcap_dump((u_char *)dump, &ph, b.buf);
			seq++;
		}
	}

	free(globs);
	if (dump != NULL) {
		if (pcap_dump_flush(dump) != 0)
			die("%s: write failed", out);
		pcap_dump_close(dump);
	}
	if (pc != NULL)
		pcap_close(pc);
	return EXIT_SUCCESS;
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		usage_error("missing command");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
			strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_SUCCESS;
	}
	if (strcmp(argv[1], "parse") == 0)
		return cmd_parse(argc - 1, argv + 1);
	if (strcmp(argv[1], "build") == 0)
		return cmd_build(argc - 1, argv + 1);
	usage_error("unknown command '%s'", argv[1]);
	return EXIT_USAGE;
}
