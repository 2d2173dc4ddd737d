/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Option values (host_opts.c's table): the value parsers every setter
 * uses, and the setters of the process and RP options.  Each returns 0,
 * or -1 with the reason in why ("" to say only what the option expects).
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_ether.h>
#include <rte_lcore.h>

#include "host_genfile.h"
#include "host_opts_internal.h"
#include "pcc_host_trace.h"

/* ---- Value parsers -------------------------------------------------------- */

/* Decimal or 0x-hex unsigned integer of s[0..n) in [min, max].  0 or -1. */
int
host_opt_num_n(const char *s, size_t n, uint64_t min, uint64_t max, uint64_t *out)
{
	char buf[32];
	unsigned long long v;
	int base = 10;
	char *end;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!isdigit((unsigned char)buf[0]))
		return -1;
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)buf[2]))
			return -1;
	}
	errno = 0;
	v = strtoull(buf, &end, base);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
host_opt_num(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return s == NULL ? -1 : host_opt_num_n(s, strlen(s), min, max, out);
}

/* Percentage 0..100 with up to 4 decimals, as parts per million. */
int
host_opt_ppm(const char *s, uint32_t *out)
{
	uint64_t ipart = 0, frac = 0;
	unsigned int digits = 0;
	const char *p = s;

	if (s == NULL || !isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p)) {
		ipart = ipart * 10 + (uint64_t)(*p++ - '0');
		if (ipart > 100)
			return -1;
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p)) {
			if (++digits > 4)
				return -1;
			frac = frac * 10 + (uint64_t)(*p++ - '0');
		}
	}
	if (*p != '\0')
		return -1;
	while (digits++ < 4)
		frac *= 10;
	if (ipart * 10000 + frac > 1000000)
		return -1;
	*out = (uint32_t)(ipart * 10000 + frac);
	return 0;
}

/* "A:B" with A <= amax, B <= bmax. */
int
host_opt_pair(const char *s, uint64_t amax, uint64_t bmax, uint64_t *a, uint64_t *b)
{
	const char *c = strchr(s, ':');

	if (c == NULL || host_opt_num_n(s, (size_t)(c - s), 0, amax, a) < 0 ||
			host_opt_num_n(c + 1, strlen(c + 1), 0, bmax, b) < 0)
		return -1;
	return 0;
}

int
host_opt_on_off(const char *s, bool *on)
{
	if (strcmp(s, "on") == 0)
		*on = true;
	else if (strcmp(s, "off") == 0)
		*on = false;
	else
		return -1;
	return 0;
}

/* IPv4 (host order into v4) or IPv6 address; sets *v6. */
static int
ip_addr(const char *s, bool *v6, uint32_t *v4, uint8_t a6[16])
{
	struct in_addr a4;

	if (inet_pton(AF_INET, s, &a4) == 1) {
		*v6 = false;
		*v4 = ntohl(a4.s_addr);
		return 0;
	}
	if (inet_pton(AF_INET6, s, a6) == 1) {
		*v6 = true;
		return 0;
	}
	return -1;
}

const char *
host_opt_quote(const char *v)
{
	static __thread char buf[4][200];
	static __thread unsigned int k;
	size_t n = v != NULL ? strlen(v) : 0;

	if (v == NULL || n <= 200)
		return v != NULL ? v : "";
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%.120s...%s", v, v + n - 60);
	return buf[k];
}

int
host_opt_set_why(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

static void *
field(const struct opt *o, struct host_stage *st)
{
	if (o->info.scope == PCC_HOST_OPT_NP)
		return (char *)&st->np->conf + o->off;
	return (char *)st->proc + o->off;
}

/* A number of the option's range into its field. */
int
host_opt_set_num(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;
	void *f = field(o, st);

	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (host_opt_num(v, o->min, o->max, &x) < 0)
		return -1;
	if (o->width == 1)
		*(uint8_t *)f = (uint8_t)x;
	else if (o->width == 2)
		*(uint16_t *)f = (uint16_t)x;
	else if (o->width == 8)
		*(uint64_t *)f = x;
	else
		*(uint32_t *)f = (uint32_t)x;
	return 0;
}

int
host_opt_set_gen_ce(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return host_opt_ppm(v, &st->proc->gen.ce_ppm);
}

/* A flag option's value: none (on), or on/off; into *on (untouched on
 * a bad value).  0 or -1. */
static int
flag_value(const char *v, bool *on)
{
	bool b = true;

	if (v[0] != '\0' && host_opt_on_off(v, &b) < 0)
		return -1;
	*on = b;
	return 0;
}

int
host_opt_set_gen_ipv6(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return flag_value(v, &st->proc->gen.ipv6);
}

int
host_opt_set_icrc_hw(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return flag_value(v, &st->proc->icrc_hw);
}

int
host_opt_set_probe_with_data(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	bool on;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (flag_value(v, &on) < 0)
		return -1;
	st->proc->probe_unbound = !on;
	return 0;
}

int
host_opt_set_gen_ip(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	struct host_proc *p = st->proc;
	bool dst = strcmp(o->info.name, "gen-dst-ip") == 0;

	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (dst) {
		if (ip_addr(v, &p->dst_v6, &p->gen.dst_ip.v4, p->gen.dst_ip.v6) < 0)
			return -1;
		p->dst_ip_set = true;
	} else {
		if (ip_addr(v, &p->src_v6, &p->gen.src_ip.v4, p->gen.src_ip.v6) < 0)
			return -1;
		p->src_ip_set = true;
	}
	return 0;
}

int
host_opt_set_gen_dst_mac(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	struct rte_ether_addr mac;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (rte_ether_unformat_addr(v, &mac) != 0)
		return -1;
	memcpy(st->proc->gen.dst_mac, mac.addr_bytes, sizeof(st->proc->gen.dst_mac));
	st->proc->gen.dst_mac_valid = true;
	return 0;
}

int
host_opt_set_gen_file(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	struct host_gen_file gf;
	char err[384];

	RTE_SET_USED(o);
	memset(&gf, 0, sizeof(gf));
	if (strlen(v) >= sizeof(st->proc->gen_file))
		return host_opt_set_why(why, whylen, "path too long");
	if (host_gen_file_load(v, &gf, err, sizeof(err)) < 0)
		return host_opt_set_why(why, whylen, "%s", err);
	free(st->proc->groups);
	st->proc->groups = gf.groups;
	st->proc->nb_groups = gf.nb;
	gf.groups = NULL;
	host_gen_file_free(&gf);
	snprintf(st->proc->gen_file, sizeof(st->proc->gen_file), "%s", v);
	return 0;
}

int
host_opt_set_flow_full(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (strcmp(v, "evict") == 0)
		st->proc->flow.full = PCC_ENGINE_FLOW_FULL_EVICT;
	else if (strcmp(v, "refuse") == 0)
		st->proc->flow.full = PCC_ENGINE_FLOW_FULL_REFUSE;
	else
		return -1;
	return 0;
}

int
host_opt_set_pacer(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (strcmp(v, "wheel") != 0 && strcmp(v, "txpp") != 0 && strcmp(v, "mtr") != 0)
		return -1;
	snprintf(st->proc->pacer, sizeof(st->proc->pacer), "%s", v);
	return 0;
}

int
host_opt_set_qp_table(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (host_opt_num(v, PCC_ENGINE_NP_QP_TABLE_MIN, PCC_ENGINE_NP_QP_TABLE_MAX, &x) < 0 ||
			(x & (x - 1)) != 0)
		return -1;
	st->proc->np_qp_table = (uint32_t)x;
	return 0;
}

int
host_opt_set_ifa2_proto(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (host_opt_num(v, 1, 255, &x) < 0 || x == 17)
		return -1;
	st->proc->ifa2_proto = (uint8_t)x;
	return 0;
}

int
host_opt_set_ifa1_marker(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return host_opt_num(v, UINT64_C(1) << 63, UINT64_MAX, &st->proc->ifa1_marker);
}

int
host_opt_set_crash_file(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	int dfd;

	RTE_SET_USED(o);
	if (v[0] == '\0')
		return -1;
	if (!st->apply) {
		/* refused before anything starts: a missing or shared
		 * directory, a directory, a link (doc/host.md) */
		dfd = host_crash_file_check(v, why, whylen);
		if (dfd < 0)
			return -1;
		close(dfd);
		return 0;
	}
	if (pcc_host_crash_set_file(v) < 0)
		return host_opt_set_why(why, whylen, "%s", pcc_host_last_error());
	return 0;
}

int
host_opt_set_trace_format(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	char *end;
	unsigned long id;

	RTE_SET_USED(o);
	id = strtoul(v, &end, 0);
	if (end == v || *end != '=' || id >= PCC_HOST_TRACE_FMT_MAX)
		return -1;
	/* checked the way it is applied; the table is process-wide */
	if (pcc_host_trace_fmt_set((uint32_t)id, end + 1) < 0)
		return host_opt_set_why(why, whylen, "%s", pcc_host_last_error());
	RTE_SET_USED(st);
	return 0;
}

int
host_opt_set_watchdog(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t ms;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (host_opt_num(v, 0, PCC_HOST_WATCHDOG_MS_MAX, &ms) < 0 ||
			(ms != 0 && ms < PCC_HOST_WATCHDOG_MS_MIN))
		return -1;
	if (st->apply && pcc_host_watchdog_set((uint32_t)ms) < 0)
		return host_opt_set_why(why, whylen, "%s", pcc_host_last_error());
	return 0;
}

int
host_opt_set_plugin(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	char name[PCC_DEV_NAME_MAX];
	int rc;

	RTE_SET_USED(o);
	if (v[0] == '\0' || strlen(v) >= HOST_PATH_MAX)
		return -1;
	if (host_nb_plugins >= HOST_PLUGINS_MAX)
		return host_opt_set_why(why, whylen, "more than %u", HOST_PLUGINS_MAX);
	/* loaded by the check too (after its trial in a child), so that the
	 * algorithms it brings are names the checks that follow know */
	rc = host_plugin_load(v, name, sizeof(name), why, whylen);
	if (rc < 0)
		return -1;
	if (st->apply)
		snprintf(host_plugins[host_nb_plugins++], HOST_PATH_MAX, "%s", v);
	return 0;
}

/* A value checked for being there only (applied by a typed setter). */
int
host_opt_set_nonempty(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(st);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return v[0] == '\0' ? -1 : 0;
}

/* ---- RP options ---- */

int
host_opt_set_algo(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	if (pcc_host_algo_check(v, NULL, NULL, why, whylen) < 0)
		return -1;
	if (strlen(v) >= sizeof(st->rp->slot_algo[0]))
		return host_opt_set_why(why, whylen, "name too long");
	snprintf(st->rp->slot_algo[0], sizeof(st->rp->slot_algo[0]), "%s", v);
	return 0;
}

int
host_opt_set_algo_param(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	struct host_param *hp;
	const char *eq = strchr(v, '=');

	RTE_SET_USED(o);
	if (eq == NULL || eq == v || eq[1] == '\0' || (size_t)(eq - v) >= HOST_PARAM_LEN ||
			strlen(eq + 1) >= HOST_PARAM_LEN)
		return -1;
	if (st->rp->nb_params == HOST_PARAMS_MAX)
		return host_opt_set_why(why, whylen, "more than %u", HOST_PARAMS_MAX);
	hp = &st->rp->params[st->rp->nb_params++];
	hp->slot = PCC_HOST_SLOT_ACTIVE;
	memcpy(hp->name, v, (size_t)(eq - v));
	hp->name[eq - v] = '\0';
	snprintf(hp->value, sizeof(hp->value), "%s", eq + 1);
	return 0;
}

int
host_opt_set_algo_profile(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	if (v[0] == '\0')
		return -1;
	if (strlen(v) >= sizeof(st->rp->profile))
		return host_opt_set_why(why, whylen, "name too long");
	/* checked against the algorithm once every option is known */
	snprintf(st->rp->profile, sizeof(st->rp->profile), "%s", v);
	return 0;
}

int
host_opt_set_line_rate(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (host_opt_num(v, 1, 1600, &x) < 0)
		return -1;
	st->rp->line_rate_bps = x * 1000000000u;
	return 0;
}

/* One key=value of --probe into *pc; NULL or the reason it is bad. */
static const char *
probe_kv(const char *k, size_t kn, const char *v, size_t vn, struct pcc_host_probe_conf *pc)
{
	uint64_t x;

#define KEY(name) (kn == sizeof(name) - 1 && memcmp(k, name, kn) == 0)
	if (KEY("np")) {
		if (vn == 2 && memcmp(v, "hw", 2) == 0)
			pc->hw_np = true;
		else if (vn == 2 && memcmp(v, "sw", 2) == 0)
			pc->hw_np = false;
		else
			return "np is hw or sw";
	} else if (KEY("custom")) {
		if (host_opt_num_n(v, vn, 0, PCC_HOST_PROBE_CUSTOM_MAX, &x) < 0)
			return "custom is 0..64 bytes";
		pc->custom_len = (uint8_t)x;
	} else if (KEY("custom-offset")) {
		if (host_opt_num_n(v, vn, 0, PCC_HOST_PROBE_CUSTOM_MAX, &x) < 0)
			return "custom-offset is 0..64 bytes";
		pc->custom_offset = (uint8_t)x;
	} else if (KEY("pattern")) {
		if (host_opt_num_n(v, vn, 0, UINT32_MAX, &x) < 0)
			return "pattern is a 32-bit number";
		pc->custom_pattern = (uint32_t)x;
	} else if (KEY("hop-limit") && pc->format != PCC_HOST_PROBE_CCMAD) {
		if (host_opt_num_n(v, vn, 1, 255, &x) < 0)
			return "hop-limit is 1..255";
		pc->ifa_hop_limit = (uint8_t)x;
	} else if (KEY("marker") && pc->format == PCC_HOST_PROBE_IFA1) {
		if (host_opt_num_n(v, vn, 0, UINT64_MAX, &x) < 0 || !(x >> 63))
			return "marker is a 64-bit number with its top bit set";
		pc->ifa1_marker = x;
	} else if (KEY("gns") && pc->format == PCC_HOST_PROBE_IFA2) {
		if (host_opt_num_n(v, vn, 0, 0xF, &x) < 0)
			return "gns is 0..0xf";
		pc->ifa2_gns = (uint8_t)x;
	} else if (KEY("proto") && pc->format == PCC_HOST_PROBE_IFA2) {
		if (host_opt_num_n(v, vn, 1, 255, &x) < 0 || x == 17)
			return "proto is an IP protocol 1..255 but 17";
		pc->ifa2_proto = (uint8_t)x;
	} else {
		return pc->format == PCC_HOST_PROBE_CCMAD ?
				"ccmad keys: np, custom, custom-offset, pattern" :
				pc->format == PCC_HOST_PROBE_IFA1 ?
				"ifa1 keys: np, marker, hop-limit, custom, custom-offset, pattern" :
				"ifa2 keys: np, gns, hop-limit, proto, custom, custom-offset, "
				"pattern";
	}
#undef KEY
	return NULL;
}

/* SLOT:FORMAT[:KEY=VALUE,...] into the probe slot. */
int
host_opt_set_probe(const struct opt *o, const char *val, struct host_stage *st, char *why,
		size_t whylen)
{
	struct pcc_host_probe_conf pc;
	const char *p = val, *bad = NULL, *c;
	uint64_t slot;
	size_t n;
	unsigned int f;

	RTE_SET_USED(o);
	c = strchr(p, ':');
	if (c == NULL || host_opt_num_n(p, (size_t)(c - p), 0, PCC_HOST_PROBE_SLOTS - 1, &slot) < 0)
		return -1;
	p = c + 1;
	n = strcspn(p, ":");
	for (f = 0; f < PCC_HOST_PROBE_FMT_MAX; f++) {
		const char *name = pcc_engine_probe_fmt_name(f);

		if (strlen(name) == n && memcmp(p, name, n) == 0)
			break;
	}
	if (f == PCC_HOST_PROBE_FMT_MAX)
		return -1;
	memset(&pc, 0, sizeof(pc));
	pc.format = (uint8_t)f;
	pc.ifa_hop_limit = 0xFE;
	pc.ifa2_gns = 0xF;
	p += n;
	if (*p == ':') {
		p++;
		if (*p == '\0')
			bad = "no KEY=VALUE after ':'";
		while (bad == NULL && *p != '\0') {
			const char *end = p + strcspn(p, ",");
			const char *eq = memchr(p, '=', (size_t)(end - p));

			if (eq == NULL || eq == p || eq + 1 == end)
				bad = "expected KEY=VALUE";
			else
				bad = probe_kv(p, (size_t)(eq - p), eq + 1, (size_t)(end - eq - 1),
						&pc);
			p = *end == ',' ? end + 1 : end;
			if (bad == NULL && *end == ',' && *p == '\0')
				bad = "expected KEY=VALUE after ','";
		}
	}
	if (bad == NULL &&
			(unsigned int)pc.custom_offset + pc.custom_len > PCC_HOST_PROBE_CUSTOM_MAX)
		bad = "custom-offset + custom is at most 64 bytes";
	if (bad == NULL && !st->apply && (st->rp->probe_given & (1u << slot)))
		bad = "slot given twice";
	if (bad != NULL)
		return host_opt_set_why(why, whylen, "%s", bad);
	st->rp->probe[slot] = pc;
	st->rp->probe_given |= (uint8_t)(1u << slot);
	return 0;
}

int
host_opt_set_metrics_port(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t port;

	RTE_SET_USED(o);
	if (host_opt_num(v, 1, 65535, &port) < 0)
		return -1;
	if (!st->apply)
		return 0;
	if (host_metrics_configure(NULL, (int)port) < 0)
		return host_opt_set_why(why, whylen, "%s", pcc_host_last_error());
	return 0;
}

int
host_opt_set_metrics_addr(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	struct in6_addr a6;
	struct in_addr a4;

	RTE_SET_USED(o);
	if (inet_pton(AF_INET, v, &a4) != 1 && inet_pton(AF_INET6, v, &a6) != 1)
		return -1;
	if (!st->apply)
		return 0;
	if (host_metrics_configure(v, -1) < 0)
		return host_opt_set_why(why, whylen, "%s", pcc_host_last_error());
	return 0;
}
