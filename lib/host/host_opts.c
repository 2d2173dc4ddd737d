/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Engine options by name (pcc_host_opt_*): every option is one entry of
 * host_opts[] (name, argument, scope, what it accepts, usage text, setter),
 * the only place it is stated.  dpdk-pcc builds its command line from the
 * table; a program calls pcc_host_opt_set().  A setter writes a stage: the
 * process's settings, or a context's RP or NP settings; pcc_host_opts_check()
 * runs them on a scratch stage without the EAL.
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_ether.h>
#include <rte_lcore.h>

#include "host_genfile.h"
#include "host_internal.h"

struct host_proc host_proc;
struct host_seen host_proc_seen;
static pthread_once_t host_proc_once = PTHREAD_ONCE_INIT;

static void
host_proc_init(void)
{
	host_proc_default(&host_proc);
}

void
host_proc_ensure(void)
{
	pthread_once(&host_proc_once, host_proc_init);
}
char host_plugins[HOST_PLUGINS_MAX][HOST_PATH_MAX];
uint32_t host_nb_plugins;

/* ---- Defaults ----------------------------------------------------------- */

void
host_proc_default(struct host_proc *p)
{
	struct pcc_engine_conf c;

	pcc_engine_conf_default(&c);
	free(p->groups);
	memset(p, 0, sizeof(*p));
	p->rxq = 0;
	p->txq = c.nb_txq;
	p->rxd = c.nb_rxd;
	p->txd = c.nb_txd;
	p->burst = c.burst;
	p->nb_mbufs = c.nb_mbufs;
	p->idle_sleep_us = c.idle_sleep_us;
	p->gen = c.gen;
	p->flow = c.flow;
	p->txc_bytes = c.rp.tx_coalesce_bytes;
	p->txc_us = c.rp.tx_coalesce_us;
	p->timer_us = c.rp.timer_us;
	snprintf(p->pacer, sizeof(p->pacer), "%s", c.rp.pacer != NULL ? c.rp.pacer : "wheel");
	p->pacer_queue = c.rp.pacer_queue;
	p->np_qp_table = c.np.qp_table;
}

void
host_rp_default(struct host_rp *rp)
{
	unsigned int i;

	memset(rp, 0, sizeof(*rp));
	rp->fwd_from = -1;
	for (i = 0; i < PCC_HOST_PROBE_SLOTS; i++) {
		rp->probe[i].ifa_hop_limit = 0xFE;
		rp->probe[i].ifa2_gns = 0xF;
	}
}

void
host_np_default(struct host_np *np)
{
	struct pcc_engine_conf c;

	pcc_engine_conf_default(&c);
	host_np_free(np);
	memset(np, 0, sizeof(*np));
	np->conf = c.np;
	np->conf.sqpn_map = NULL;
	np->conf.nb_sqpn_map = 0;
}

void
host_np_free(struct host_np *np)
{
	free(np->map);
	np->map = NULL;
	np->nb_map = 0;
	np->conf.sqpn_map = NULL;
	np->conf.nb_sqpn_map = 0;
}

/* ---- Value parsers -------------------------------------------------------- */

/* Decimal or 0x-hex unsigned integer of s[0..n) in [min, max].  0 or -1. */
static int
num_n(const char *s, size_t n, uint64_t min, uint64_t max, uint64_t *out)
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

static int
num(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return s == NULL ? -1 : num_n(s, strlen(s), min, max, out);
}

/* Percentage 0..100 with up to 4 decimals, as parts per million. */
static int
ppm(const char *s, uint32_t *out)
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
static int
pair(const char *s, uint64_t amax, uint64_t bmax, uint64_t *a, uint64_t *b)
{
	const char *c = strchr(s, ':');

	if (c == NULL || num_n(s, (size_t)(c - s), 0, amax, a) < 0 ||
			num_n(c + 1, strlen(c + 1), 0, bmax, b) < 0)
		return -1;
	return 0;
}

static int
on_off(const char *s, bool *on)
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

/* ---- The table ------------------------------------------------------------- */

struct opt;
/* Set the option's value in st; 0, or -1 with the reason in why ("" to
 * say only what the option expects). */
typedef int (*opt_set_t)(const struct opt *o, const char *v, struct host_stage *st, char *why,
		size_t whylen);

struct opt {
	struct pcc_host_opt_info info;
	opt_set_t set;
	/* numbers: range and field (offset in struct host_proc, or in
	 * struct pcc_engine_np_conf for NP options), 2 or 4 bytes */
	uint64_t min;
	uint64_t max;
	size_t off;
	uint8_t width;
};

static int
set_why(char *why, size_t whylen, const char *fmt, ...)
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
static int
set_num(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;
	void *f = field(o, st);

	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (num(v, o->min, o->max, &x) < 0)
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

static int
set_gen_ce(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return ppm(v, &st->proc->gen.ce_ppm);
}

static int
set_gen_ipv6(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	bool on = true;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (v[0] != '\0' && on_off(v, &on) < 0)
		return -1;
	st->proc->gen.ipv6 = on;
	return 0;
}

static int
set_gen_ip(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
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

static int
set_gen_dst_mac(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
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

static int
set_gen_file(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	struct host_gen_file gf;
	char err[384];

	RTE_SET_USED(o);
	memset(&gf, 0, sizeof(gf));
	if (strlen(v) >= sizeof(st->proc->gen_file))
		return set_why(why, whylen, "path too long");
	if (host_gen_file_load(v, &gf, err, sizeof(err)) < 0)
		return set_why(why, whylen, "%s", err);
	free(st->proc->groups);
	st->proc->groups = gf.groups;
	st->proc->nb_groups = gf.nb;
	gf.groups = NULL;
	host_gen_file_free(&gf);
	snprintf(st->proc->gen_file, sizeof(st->proc->gen_file), "%s", v);
	return 0;
}

static int
set_flow_full(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
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

static int
set_pacer(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (strcmp(v, "wheel") != 0 && strcmp(v, "txpp") != 0 && strcmp(v, "mtr") != 0)
		return -1;
	snprintf(st->proc->pacer, sizeof(st->proc->pacer), "%s", v);
	return 0;
}

static int
set_qp_table(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (num(v, PCC_ENGINE_NP_QP_TABLE_MIN, PCC_ENGINE_NP_QP_TABLE_MAX, &x) < 0 ||
			(x & (x - 1)) != 0)
		return -1;
	st->proc->np_qp_table = (uint32_t)x;
	return 0;
}

static int
set_ifa2_proto(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (num(v, 1, 255, &x) < 0 || x == 17)
		return -1;
	st->proc->ifa2_proto = (uint8_t)x;
	return 0;
}

static int
set_ifa1_marker(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return num(v, UINT64_C(1) << 63, UINT64_MAX, &st->proc->ifa1_marker);
}

static int
set_crash_file(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	if (v[0] == '\0')
		return -1;
	if (!st->apply)
		return 0;
	if (pcc_host_crash_set_file(v) < 0)
		return set_why(why, whylen, "%s", pcc_host_last_error());
	return 0;
}

static int
set_plugin(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	char name[PCC_DEV_NAME_MAX];
	int rc;

	RTE_SET_USED(o);
	if (v[0] == '\0' || strlen(v) >= HOST_PATH_MAX)
		return -1;
	if (host_nb_plugins >= HOST_PLUGINS_MAX)
		return set_why(why, whylen, "more than %u", HOST_PLUGINS_MAX);
	if (!st->apply)
		return 0;
	rc = host_plugin_load(v, name, sizeof(name), why, whylen);
	if (rc < 0)
		return -1;
	snprintf(host_plugins[host_nb_plugins++], HOST_PATH_MAX, "%s", v);
	return 0;
}

/* A value checked for being there only (applied by a typed setter). */
static int
set_nonempty(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(st);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return v[0] == '\0' ? -1 : 0;
}

/* ---- RP options ---- */

static int
set_algo(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	if (pcc_host_algo_check(v, NULL, NULL, why, whylen) < 0)
		return -1;
	if (strlen(v) >= sizeof(st->rp->slot_algo[0]))
		return set_why(why, whylen, "name too long");
	snprintf(st->rp->slot_algo[0], sizeof(st->rp->slot_algo[0]), "%s", v);
	return 0;
}

static int
set_algo_param(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	struct host_param *hp;
	const char *eq = strchr(v, '=');

	RTE_SET_USED(o);
	if (eq == NULL || eq == v || eq[1] == '\0' || (size_t)(eq - v) >= HOST_PARAM_LEN ||
			strlen(eq + 1) >= HOST_PARAM_LEN)
		return -1;
	if (st->rp->nb_params == HOST_PARAMS_MAX)
		return set_why(why, whylen, "more than %u", HOST_PARAMS_MAX);
	hp = &st->rp->params[st->rp->nb_params++];
	hp->slot = PCC_HOST_SLOT_ACTIVE;
	memcpy(hp->name, v, (size_t)(eq - v));
	hp->name[eq - v] = '\0';
	snprintf(hp->value, sizeof(hp->value), "%s", eq + 1);
	return 0;
}

static int
set_line_rate(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (num(v, 1, 1600, &x) < 0)
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
		if (num_n(v, vn, 0, PCC_HOST_PROBE_CUSTOM_MAX, &x) < 0)
			return "custom is 0..64 bytes";
		pc->custom_len = (uint8_t)x;
	} else if (KEY("custom-offset")) {
		if (num_n(v, vn, 0, PCC_HOST_PROBE_CUSTOM_MAX, &x) < 0)
			return "custom-offset is 0..64 bytes";
		pc->custom_offset = (uint8_t)x;
	} else if (KEY("pattern")) {
		if (num_n(v, vn, 0, UINT32_MAX, &x) < 0)
			return "pattern is a 32-bit number";
		pc->custom_pattern = (uint32_t)x;
	} else if (KEY("hop-limit") && pc->format != PCC_HOST_PROBE_CCMAD) {
		if (num_n(v, vn, 1, 255, &x) < 0)
			return "hop-limit is 1..255";
		pc->ifa_hop_limit = (uint8_t)x;
	} else if (KEY("marker") && pc->format == PCC_HOST_PROBE_IFA1) {
		if (num_n(v, vn, 0, UINT64_MAX, &x) < 0 || !(x >> 63))
			return "marker is a 64-bit number with its top bit set";
		pc->ifa1_marker = x;
	} else if (KEY("gns") && pc->format == PCC_HOST_PROBE_IFA2) {
		if (num_n(v, vn, 0, 0xF, &x) < 0)
			return "gns is 0..0xf";
		pc->ifa2_gns = (uint8_t)x;
	} else if (KEY("proto") && pc->format == PCC_HOST_PROBE_IFA2) {
		if (num_n(v, vn, 1, 255, &x) < 0 || x == 17)
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
static int
set_probe(const struct opt *o, const char *val, struct host_stage *st, char *why, size_t whylen)
{
	struct pcc_host_probe_conf pc;
	const char *p = val, *bad = NULL, *c;
	uint64_t slot;
	size_t n;
	unsigned int f;

	RTE_SET_USED(o);
	c = strchr(p, ':');
	if (c == NULL || num_n(p, (size_t)(c - p), 0, PCC_HOST_PROBE_SLOTS - 1, &slot) < 0)
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
		return set_why(why, whylen, "%s", bad);
	st->rp->probe[slot] = pc;
	st->rp->probe_given |= (uint8_t)(1u << slot);
	return 0;
}

/* ---- NP options ---- */

static int
set_np_cnp(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return on_off(v, &st->np->conf.cnp);
}

static int
set_np_learn(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	bool on;

	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (on_off(v, &on) < 0)
		return -1;
	if (strcmp(o->info.name, "np-learn") == 0)
		st->np->conf.learn_off = !on;
	else
		st->np->conf.probe_fast_off = !on;
	return 0;
}

static int
set_np_sqpn(const struct opt *o, const char *val, struct host_stage *st, char *why, size_t whylen)
{
	struct host_np *np = st->np;
	struct pcc_engine_np_sqpn *m;
	const char *p = val;
	uint32_t i, n = 0;

	RTE_SET_USED(o);
	if (*p == '\0')
		return -1;
	m = realloc(np->map, sizeof(*m) * PCC_ENGINE_NP_SQPN_MAP_MAX);
	if (m == NULL)
		return set_why(why, whylen, "out of memory");
	np->map = m;
	n = np->nb_map;
	while (*p != '\0') {
		const char *end = p + strcspn(p, ",");
		const char *eq = memchr(p, '=', (size_t)(end - p));
		uint64_t d, s;

		if (eq == NULL || num_n(p, (size_t)(eq - p), 0, PCC_QPN_MASK, &d) < 0 ||
				num_n(eq + 1, (size_t)(end - eq - 1), 0, PCC_QPN_MASK, &s) < 0)
			return -1;
		for (i = 0; i < n; i++)
			if (m[i].dqpn == d)
				return set_why(why, whylen, "DestQP %#" PRIx64 " mapped twice", d);
		if (n == PCC_ENGINE_NP_SQPN_MAP_MAX)
			return set_why(why, whylen, "more than %u QPs", PCC_ENGINE_NP_SQPN_MAP_MAX);
		m[n].dqpn = (uint32_t)d;
		m[n].sqpn = (uint32_t)s;
		n++;
		p = *end == ',' ? end + 1 : end;
		if (*end == ',' && *p == '\0')
			return -1;
	}
	np->nb_map = n;
	np->conf.sqpn_map = np->map;
	np->conf.nb_sqpn_map = n;
	return 0;
}

static int
set_np_cnp_gap(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (num(v, 0, 10000000u, &x) < 0)
		return -1;
	st->np->conf.cnp_gap_us = x == 0 ? PCC_ENGINE_NP_NO_GAP : (uint32_t)x;
	return 0;
}

static int
set_np_cnp_pcp(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (num(v, 0, 7, &x) < 0)
		return -1;
	st->np->conf.cnp_pcp_set = true;
	st->np->conf.cnp_pcp = (uint8_t)x;
	return 0;
}

static int
set_np_mark_ce(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	return ppm(v, &st->np->conf.mark_ce_ppm);
}

static int
set_np_resp_ts(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t a, b;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (pair(v, PCC_ENGINE_NP_RESP_TS_SIZE_MAX, PCC_ENGINE_NP_RESP_TS_RES_MAX, &a, &b) < 0)
		return -1;
	st->np->conf.resp_ts_size = (uint8_t)a;
	st->np->conf.resp_ts_res = (uint8_t)b;
	return 0;
}

static int
set_np_ts_source(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (strcmp(v, "port") == 0)
		st->np->conf.ts_src = PCC_ENGINE_NP_TS_PORT;
	else if (strcmp(v, "realtime") == 0)
		st->np->conf.ts_src = PCC_ENGINE_NP_TS_REALTIME;
	else
		return -1;
	return 0;
}

static int
set_np_resp_dscp(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t x;

	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (strcmp(v, "request") == 0) {
		st->np->conf.resp_dscp_set = false;
		return 0;
	}
	if (num(v, 0, 63, &x) < 0)
		return -1;
	st->np->conf.resp_dscp_set = true;
	st->np->conf.resp_dscp = (uint8_t)x;
	return 0;
}

static int
set_np_hw_probes(
		const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	RTE_SET_USED(o);
	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (strcmp(v, "answer") == 0)
		st->np->conf.hw_probes = PCC_ENGINE_NP_HW_ANSWER;
	else if (strcmp(v, "drop") == 0)
		st->np->conf.hw_probes = PCC_ENGINE_NP_HW_DROP;
	else
		return -1;
	return 0;
}

static int
set_np_gns(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)
{
	uint64_t m, x;

	RTE_SET_USED(why);
	RTE_SET_USED(whylen);
	if (pair(v, 0xF, 0xF, &m, &x) < 0)
		return -1;
	if (strcmp(o->info.name, "np-ifa2-gns-ignore") == 0) {
		st->np->conf.ifa2_gns_ignore = true;
		st->np->conf.ifa2_gns_ignore_mask = (uint8_t)m;
		st->np->conf.ifa2_gns_ignore_value = (uint8_t)x;
	} else {
		st->np->conf.ifa2_gns_select_mask = (uint8_t)m;
		st->np->conf.ifa2_gns_select_value = (uint8_t)x;
	}
	return 0;
}

#define NUM_P(nm, a, sc, exp, grp, hlp, lo, hi, fld)                                          \
	{                                                                                     \
		.info = { .name = nm,                                                         \
			.arg = a,                                                             \
			.expect = exp,                                                        \
			.group = grp,                                                         \
			.help = hlp,                                                          \
			.scope = sc },                                                        \
		.set = set_num, .min = lo, .max = hi, .off = offsetof(struct host_proc, fld), \
		.width = sizeof(((struct host_proc *)0)->fld)                                 \
	}
#define NUM_NP(nm, a, exp, hlp, lo, hi, fld)                           \
	{                                                              \
		.info = { .name = nm,                                  \
			.arg = a,                                      \
			.expect = exp,                                 \
			.group = G_NP,                                 \
			.help = hlp,                                   \
			.scope = PCC_HOST_OPT_NP },                    \
		.set = set_num, .min = lo, .max = hi,                  \
		.off = offsetof(struct pcc_engine_np_conf, fld),       \
		.width = sizeof(((struct pcc_engine_np_conf *)0)->fld) \
	}
#define OPT(nm, a, sc, exp, grp, hlp, fn) \
	{                                 \
		.info = { .name = nm,     \
			.arg = a,         \
			.expect = exp,    \
			.group = grp,     \
			.help = hlp,      \
			.scope = sc },    \
		.set = fn                 \
	}
#define OPT_R(nm, a, sc, exp, grp, hlp, fn) \
	{                                   \
		.info = { .name = nm,       \
			.arg = a,           \
			.expect = exp,      \
			.group = grp,       \
			.help = hlp,        \
			.scope = sc,        \
			.repeat = true },   \
		.set = fn                   \
	}

#define G_Q "Lcores and queues"
#define G_GEN "Generator (RP ports; each flow is generated by the lcore that owns it)"
#define G_NP "Notification point (NP ports)"
#define G_PROBE "Probes (RTT probes the RP sends, by the algorithm's probe slot)"
#define G_RP "Reaction point (RP ports)"
#define G_FLOW "Flow table (one per polling lcore)"
#define G_SRC "Traffic sources"
#define G_HOST "Host integration (lib/host; doc/host.md, doc/telemetry.md)"

#define P PCC_HOST_OPT_PROCESS
#define RP PCC_HOST_OPT_RP

static const struct opt host_opts[] = {
	/* lcores and queues */
	NUM_P("rxq", "N", P, "queues per port, 1..1024", G_Q,
			"RX queues per port (1..1024, default 1, or as many as the\n"
			"largest thread affinity)",
			1, 1024, rxq),
	NUM_P("txq", "N", P, "queues per port, 1..1024", G_Q,
			"TX queues per port (1..1024); every lcore polling a\n"
			"port sends on a TX queue of its own, so N must be\n"
			"at least their number (default: exactly that)",
			1, 1024, txq),
	NUM_P("rxd", "N", P, "descriptors per queue, 16..32768", G_Q,
			"RX descriptors per queue, ring size with\n"
			"--ring-pair (16..32768, default 1024)",
			16, 32768, rxd),
	NUM_P("txd", "N", P, "descriptors per queue, 16..32768", G_Q,
			"TX descriptors per queue (16..32768, default 1024)", 16, 32768, txd),
	NUM_P("burst", "N", P, "packets, 1..512", G_Q, "RX/TX burst (1..512, default 32)", 1,
			PCC_ENGINE_BURST_MAX, burst),
	NUM_P("nb-mbufs", "N", P, "mbufs per socket, 1024..16777216", G_Q,
			"mbufs per socket (1024..16777216; default: enough\n"
			"for every descriptor and burst, at least 4095)",
			1024, 1u << 24, nb_mbufs),
	NUM_P("idle-sleep", "US", P, "microseconds, 0..1000000", G_Q,
			"sleep US microseconds after a poll round with no\n"
			"work; 0 = busy poll (0..1000000, default 0)",
			0, 1000000, idle_sleep_us),
	/* generator */
	NUM_P("gen-flows", "N", P, "flows per RP port, 0..4096", G_GEN,
			"RoCEv2 flows per RP port, 0 = off (0..4096,\n"
			"default 0)",
			0, PCC_ENGINE_GEN_FLOWS_MAX, gen.nb_flows),
	NUM_P("gen-qpn", "BASE", P, "QPN, 2..16777215 or 0x2..0xffffff", G_GEN,
			"flow i uses QPN BASE+i on both ends (2..0xffffff,\n"
			"default 256)",
			2, PCC_QPN_MASK, gen.qpn_base),
	NUM_P("gen-size", "BYTES", P, "payload bytes, 0..8192", G_GEN,
			"RDMA WRITE payload per packet (0..8192,\n"
			"default 1024)",
			0, PCC_ENGINE_GEN_PAYLOAD_MAX, gen.payload_len),
	NUM_P("gen-rate", "MBPS", P, "Mbit/s per flow, 0..400000", G_GEN,
			"per flow, Mbit/s of Ethernet frames; 0 = as fast\n"
			"as the port takes (0..400000, default 1000)",
			0, 400000, gen.rate_mbps),
	OPT("gen-ce", "PERCENT", P, "percent, 0..100, up to 4 decimals", G_GEN,
			"send this share of packets with ECN CE, evenly\n"
			"spaced, not random, to emulate a congested path\n"
			"(0..100, up to 4 decimals, default 0)",
			set_gen_ce),
	OPT("gen-ipv6", NULL, P, "no value, on or off", G_GEN, "send over IPv6 (default IPv4)",
			set_gen_ipv6),
	NUM_P("gen-dscp", "N", P, "DSCP, 0..63", G_GEN, "DSCP of data packets (0..63, default 26)",
			0, 63, gen.dscp),
	OPT("gen-src-ip", "ADDR", P, "IPv4 or IPv6 address", G_GEN,
			"source address (default 10.0.0.1, fd00::1 with\n"
			"--gen-ipv6)",
			set_gen_ip),
	OPT("gen-dst-ip", "ADDR", P, "IPv4 or IPv6 address", G_GEN,
			"destination address (default 10.0.0.2, fd00::2)", set_gen_ip),
	OPT("gen-dst-mac", "MAC", P, "MAC like 02:00:00:00:00:01", G_GEN,
			"destination MAC (default: the other port of\n"
			"--ring-pair, else ff:ff:ff:ff:ff:ff)",
			set_gen_dst_mac),
	/* notification point */
	OPT("np-cnp", "on|off", PCC_HOST_OPT_NP, "on or off", G_NP,
			"answer RoCEv2 data marked ECN CE with a CNP to\n"
			"its sender (default on)",
			set_np_cnp),
	NUM_NP("np-cnp-dscp", "N", "DSCP, 0..63", "DSCP of CNPs (0..63, default 48)", 0, 63,
			cnp_dscp),
	OPT("np-cnp-pcp", "N", PCC_HOST_OPT_NP, "802.1Q priority, 0..7", G_NP,
			"802.1Q priority of CNPs to VLAN-tagged data, VID\n"
			"kept (0..7, default 6)",
			set_np_cnp_pcp),
	OPT("np-cnp-gap-us", "US", PCC_HOST_OPT_NP, "microseconds, 0..10000000", G_NP,
			"at most one CNP per QP every US microseconds;\n"
			"0 = one for every marked packet (0..10000000,\n"
			"default 50)",
			set_np_cnp_gap),
	OPT_R("np-sqpn", "DQPN=SQPN[,DQPN=SQPN...]", PCC_HOST_OPT_NP,
			"DQPN=SQPN[,DQPN=SQPN...], QPNs 0..0xffffff, up to 4096", G_NP,
			"CNPs for data to QP DQPN go to the sender QP\n"
			"SQPN (repeatable, up to 4096 QPs; wins over\n"
			"learning)",
			set_np_sqpn),
	OPT("np-learn", "on|off", PCC_HOST_OPT_NP, "on or off", G_NP,
			"learn sender QPNs from RoCEv2 traffic the other\n"
			"way (same addresses and UDP source port; default\n"
			"on)",
			set_np_learn),
	OPT("np-probe-fast", "on|off", PCC_HOST_OPT_NP, "on or off", G_NP,
			"answer CCMAD probe requests in the RP's layout\n"
			"through the fast path (default on; off: the\n"
			"generic path, same bytes)",
			set_np_learn),
	NUM_NP("np-sqpn-offset", "N", "0..16777215 or 0x0..0xffffff",
			"senders neither mapped nor learned: CNP DestQP =\n"
			"marked packet's DestQP + N, mod 2^24\n"
			"(0..0xffffff, default 0: the generator uses one\n"
			"QPN on both ends)",
			0, PCC_QPN_MASK, sqpn_offset),
	OPT("np-qp-table", "N", P, "entries, a power of two 1024..16777216", G_NP,
			"entries of the NP QP tables (CNP gap per lcore,\n"
			"learned QPNs), a power of two (1024..16777216,\n"
			"default 65536)",
			set_qp_table),
	OPT("np-resp-ts", "SIZE:RES", PCC_HOST_OPT_NP, "SIZE:RES, SIZE 0..32 bits, RES 0..63", G_NP,
			"probe responses carry (NP send time in ns >> RES)\n"
			"in the low SIZE bits of their last dword (SIZE\n"
			"0..32, RES 0..63; default 0:0, none)",
			set_np_resp_ts),
	OPT("np-ts-source", "port|realtime", PCC_HOST_OPT_NP, "port or realtime", G_NP,
			"NP timestamps from the port clock (free running;\n"
			"default) or CLOCK_REALTIME",
			set_np_ts_source),
	OPT("np-resp-dscp", "N|request", PCC_HOST_OPT_NP, "DSCP 0..63, or request", G_NP,
			"DSCP of probe responses (0..63) unless the NP\n"
			"handler sets one (default: the request's)",
			set_np_resp_dscp),
	OPT("np-hw-probes", "answer|drop", PCC_HOST_OPT_NP, "answer or drop", G_NP,
			"requests for the hardware-NP model: answer as the\n"
			"model, without the handler (default), or drop",
			set_np_hw_probes),
	OPT("np-ifa2-gns-ignore", "MASK:VALUE", PCC_HOST_OPT_NP, "MASK:VALUE, each 0..0xf", G_NP,
			"IFA2 packets with GNS & MASK == VALUE & MASK are\n"
			"not the NP's: no probe answer (DOCA's\n"
			"np_set_ifa2_gns_ignore; default: none ignored)",
			set_np_gns),
	OPT("np-ifa2-gns-select", "MASK:VALUE", PCC_HOST_OPT_NP, "MASK:VALUE, each 0..0xf", G_NP,
			"only IFA2 packets with GNS & MASK == VALUE & MASK\n"
			"are the NP's (each 0..0xf; default 0:0, all)",
			set_np_gns),
	OPT("np-ifa2-proto", "N", P, "IP protocol, 1..255 but 17", G_NP,
			"IP protocol of IFA2 (1..255 but 17; default: that\n"
			"of the --probe ifa2 slots, else 253)",
			set_ifa2_proto),
	OPT("np-ifa1-marker", "M", P,
			"a 64-bit number with the top bit set, e.g. 0xaaaaaaaabbbbbbbb", G_NP,
			"IFA1 marker, top bit set (default: that of the\n"
			"--probe ifa1 slots, else 0xaaaaaaaabbbbbbbb)",
			set_ifa1_marker),
	OPT("np-mark-ce", "PERCENT", PCC_HOST_OPT_NP, "percent, 0..100, up to 4 decimals", G_NP,
			"test knob: mark this share of the RoCEv2 data\n"
			"received CE before the NP sees it, evenly\n"
			"spaced (0..100, up to 4 decimals, default 0)",
			set_np_mark_ce),
	OPT("np-app", "PLUGIN", PCC_HOST_OPT_NP,
			"a plug-in (.so path, or a loaded plug-in's name) with an NP handler", G_NP,
			"the NP application: the plug-in's NP handler\n"
			"answers this port's probes and its NP mailbox\n"
			"handler serves the console's 'mailbox send'\n"
			"(default: the process's NP handler, if any)",
			set_nonempty),
	/* probes */
	OPT_R("probe", "SLOT:FORMAT[:KEY=VALUE,...]", RP,
			"SLOT:FORMAT[:KEY=VALUE,...] with SLOT 0..7, FORMAT ccmad, ifa1 or ifa2",
			G_PROBE,
			"format of probe slot SLOT (0..7; repeatable):\n"
			"ccmad (default) a RoCEv2 MAD to QP1; ifa1, keys\n"
			"marker (default 0xaaaaaaaabbbbbbbb), hop-limit\n"
			"(default 254); ifa2, keys gns (0..0xf, default\n"
			"0xf), hop-limit (default 254), proto (default\n"
			"253).  Every format: np=sw|hw (answered by the\n"
			"NP's software handler, default, or by its\n"
			"hardware-NP model), custom=BYTES (0..64 bytes\n"
			"after the probe body), custom-offset=BYTES (its\n"
			"location: zeros before it; offset + custom <=\n"
			"64), pattern=N (32-bit fill of those bytes,\n"
			"default 0).  E.g. --probe 0:ccmad:np=sw --probe\n"
			"1:ifa2:gns=0xf,hop-limit=0xfe",
			set_probe),
	/* reaction point */
	OPT("algo", "NAME", RP,
			"a registered algorithm: rtt, dcqcn, timely, swift, hpcc, dctcp, noop",
			G_RP,
			"congestion control algorithm of new flows, loaded\n"
			"in slot 0 of every RP port (rtt, dcqcn, timely,\n"
			"swift, hpcc, dctcp, noop, or a loaded plug-in's;\n"
			"default: none, the default algorithm rtt of slot\n"
			"0xF)",
			set_algo),
	OPT_R("algo-param", "NAME=VALUE", RP, "NAME=VALUE, a parameter of the algorithm", G_RP,
			"set a parameter of that algorithm (repeatable)", set_algo_param),
	NUM_P("tx-coalesce-bytes", "N", P, "bytes, 0..1073741824", G_RP,
			"a flow's TX event covers up to N bytes sent ...\n"
			"(0..1073741824, default 65536)",
			0, 1u << 30, txc_bytes),
	NUM_P("tx-coalesce-us", "US", P, "microseconds, 0..1000000", G_RP,
			"... or its packets of US microseconds, whichever\n"
			"comes first (0..1000000, default 20)",
			0, 1000000, txc_us),
	NUM_P("timer-us", "US", P, "microseconds, 0..10000000", G_RP,
			"timer event for every flow every US microseconds;\n"
			"0 = off (0..10000000, default 0)",
			0, 10000000, timer_us),
	OPT("line-rate", "GBPS", RP, "Gbit/s, 1..1600", G_RP,
			"line rate the algorithms' rates are a fraction of\n"
			"(1..1600; default: link speed, 100 for virtual\n"
			"ports)",
			set_line_rate),
	OPT("pacer", "NAME", P, "wheel, txpp or mtr", G_RP,
			"rate limiter: wheel, txpp (mlx5 send on\n"
			"timestamp) or mtr (rte_mtr, a policer: drops above\n"
			"the rate); default wheel, the fallback when a port\n"
			"cannot do the others",
			set_pacer),
	NUM_P("pacer-queue", "N", P, "packets per flow, 1..65535", G_RP,
			"packets queued per flow in the pacer (1..65535,\n"
			"default 64)",
			1, 65535, pacer_queue),
	/* flow table */
	NUM_P("flows", "N", P, "flows in all, 64..67108864", G_FLOW,
			"flows in all, split over the lcores polling RP ports\n"
			"(64..67108864, default 1048576)",
			PCC_ENGINE_FLOWS_LCORE_MIN, PCC_ENGINE_FLOWS_MAX, flow.capacity),
	NUM_P("flow-idle-ms", "MS", P, "milliseconds, 0..86400000", G_FLOW,
			"remove flows idle this long; 0 = never\n"
			"(0..86400000, default 10000)",
			0, 86400000u, flow.idle_ms),
	OPT("flow-full", "evict|refuse", P, "evict or refuse", G_FLOW,
			"new flow with a full table: evict the\n"
			"longest-idle flow, or refuse the new one\n"
			"(default evict)",
			set_flow_full),
	/* traffic sources */
	OPT("gen-file", "FILE", P, "a YAML file of flow groups", G_SRC,
			"generator flows from a YAML file (count, qpn,\n"
			"port, size, payload, start_us, rate_mbps per\n"
			"group; see doc/dpdk-pcc.md); the --gen-* options\n"
			"give the defaults; not with --gen-flows",
			set_gen_file),
	/* host integration */
	OPT("crash-file", "PATH", P, "a file path for the crash report", G_HOST,
			"write a crash report to PATH when an algorithm\n"
			"faults on a worker (state ERROR, exit status 3)",
			set_crash_file),
	OPT_R("plugin", "PATH", P, "a plug-in shared object (.so), up to 16", G_HOST,
			"load the plug-in PATH (checked in a child\n"
			"process first) and apply its slot layout before\n"
			"the engine starts; repeatable (up to 16)",
			set_plugin),
};

#undef P
#undef RP

#define NB_OPTS RTE_DIM(host_opts)
_Static_assert(RTE_DIM(host_opts) <= sizeof(((struct host_seen *)0)->opt),
		"host_seen has a flag per option");

unsigned int
pcc_host_opt_count(void)
{
	return NB_OPTS;
}

const struct pcc_host_opt_info *
pcc_host_opt_at(unsigned int i)
{
	return i < NB_OPTS ? &host_opts[i].info : NULL;
}

static int
opt_index(const char *name)
{
	unsigned int i;

	for (i = 0; name != NULL && i < NB_OPTS; i++)
		if (strcmp(host_opts[i].info.name, name) == 0)
			return (int)i;
	return -1;
}

const struct pcc_host_opt_info *
pcc_host_opt_find(const char *name)
{
	int i = opt_index(name);

	return i < 0 ? NULL : &host_opts[i].info;
}

/* Index of an option by name, for the combination checks. */
#define IDX(name) opt_index(name)

static bool
seen(const struct host_stage *st, const char *name)
{
	int i = IDX(name);

	return i >= 0 && st->seen != NULL && st->seen->opt[i];
}

/* Run option i's setter on st; the error line in why. */
static int
opt_apply(unsigned int i, const char *value, struct host_stage *st, char *why, size_t whylen)
{
	const struct opt *o = &host_opts[i];
	char reason[384];

	if (value == NULL)
		value = "";
	reason[0] = '\0';
	if (o->info.arg != NULL && value[0] == '\0')
		return set_why(why, whylen, "invalid value '' for --%s (expected %s)", o->info.name,
				o->info.expect);
	if (o->set(o, value, st, reason, sizeof(reason)) < 0) {
		if (strcmp(o->info.name, "gen-file") == 0)
			return set_why(why, whylen, "invalid --gen-file: %s", reason);
		if (reason[0] != '\0' && strcmp(o->info.name, "algo") == 0)
			return set_why(why, whylen, "invalid value '%s' for --%s (%s)", value,
					o->info.name, reason);
		if (reason[0] != '\0')
			return set_why(why, whylen, "invalid value '%s' for --%s (%s; expected %s)",
					value, o->info.name, reason, o->info.expect);
		return set_why(why, whylen, "invalid value '%s' for --%s (expected %s)", value,
				o->info.name, o->info.expect);
	}
	if (st->seen != NULL)
		st->seen->opt[i] = true;
	return 0;
}

/* ---- Combinations ------------------------------------------------------------ */

/* Generator options that only make sense with gen-flows or gen-file. */
static const char *const gen_opts[] = {
	"gen-qpn",
	"gen-size",
	"gen-rate",
	"gen-ce",
	"gen-ipv6",
	"gen-dscp",
	"gen-src-ip",
	"gen-dst-ip",
	"gen-dst-mac",
};

/* NP options that need CNPs. */
static const char *const cnp_opts[] = {
	"np-sqpn",
	"np-cnp-gap-us",
	"np-cnp-pcp",
	"np-cnp-dscp",
	"np-sqpn-offset",
};

static int
check_ip_family(const struct host_proc *p, bool dst, char *why, size_t whylen)
{
	bool set = dst ? p->dst_ip_set : p->src_ip_set;
	bool v6 = dst ? p->dst_v6 : p->src_v6;
	char buf[INET6_ADDRSTRLEN];
	uint32_t a4;

	if (!set || v6 == p->gen.ipv6)
		return 0;
	if (v6) {
		inet_ntop(AF_INET6, dst ? p->gen.dst_ip.v6 : p->gen.src_ip.v6, buf, sizeof(buf));
	} else {
		a4 = htonl(dst ? p->gen.dst_ip.v4 : p->gen.src_ip.v4);
		inet_ntop(AF_INET, &a4, buf, sizeof(buf));
	}
	return set_why(why, whylen, "invalid combination: --%s '%s' is an %s address but %s",
			dst ? "gen-dst-ip" : "gen-src-ip", buf, v6 ? "IPv6" : "IPv4",
			p->gen.ipv6 ? "--gen-ipv6 is given" : "--gen-ipv6 is not given");
}

/* Probe slots: one IFA1 marker and one IFA2 protocol per process. */
static int
check_probes(const struct host_stage *st, char *why, size_t whylen)
{
	uint64_t marker = st->proc->ifa1_marker;
	uint8_t proto = st->proc->ifa2_proto;
	unsigned int i;

	for (i = 0; st->rp != NULL && i < PCC_HOST_PROBE_SLOTS; i++) {
		const struct pcc_host_probe_conf *p = &st->rp->probe[i];
		uint64_t mk = p->ifa1_marker != 0 ? p->ifa1_marker : PCC_IFA1_MARKER_DEFAULT;
		uint8_t pr = p->ifa2_proto != 0 ? p->ifa2_proto : PCC_IFA2_PROTO_DEFAULT;

		if (p->format == PCC_HOST_PROBE_IFA1) {
			if (marker == 0)
				marker = mk;
			if (mk != marker)
				return set_why(why, whylen,
						"invalid combination: --probe %u:ifa1 marker "
						"%#" PRIx64 " and %s %#" PRIx64
						" (one IFA1 marker per process)",
						i, mk,
						st->proc->ifa1_marker != 0 ? "--np-ifa1-marker" :
									     "another slot's",
						marker);
		}
		if (p->format == PCC_HOST_PROBE_IFA2) {
			if (proto == 0)
				proto = pr;
			if (pr != proto)
				return set_why(why, whylen,
						"invalid combination: --probe %u:ifa2 proto %u and "
						"%s %u (one IFA2 protocol per process)",
						i, pr,
						st->proc->ifa2_proto != 0 ? "--np-ifa2-proto" :
									    "another slot's",
						proto);
		}
	}
	return 0;
}

int
host_stage_check(const struct host_stage *st, char *why, size_t whylen)
{
	const struct host_proc *p = st->proc;
	unsigned int i;

	if (p->gen_file[0] != '\0' && seen(st, "gen-flows"))
		return set_why(why, whylen,
				"invalid combination: --gen-file and --gen-flows (the file lists "
				"the flows)");
	if (p->gen.nb_flows == 0 && p->gen_file[0] == '\0') {
		for (i = 0; i < RTE_DIM(gen_opts); i++)
			if (seen(st, gen_opts[i]))
				return set_why(why, whylen,
						"invalid combination: --%s needs --gen-flows N "
						"with N > 0, or --gen-file",
						gen_opts[i]);
	}
	if (p->gen.nb_flows > 0 && p->gen.qpn_base + (uint64_t)p->gen.nb_flows - 1 > PCC_QPN_MASK)
		return set_why(why, whylen,
				"invalid combination: --gen-qpn %u with --gen-flows %u goes past "
				"QPN 0xffffff",
				p->gen.qpn_base, p->gen.nb_flows);
	if (check_ip_family(p, false, why, whylen) < 0 || check_ip_family(p, true, why, whylen) < 0)
		return -1;
	if (st->rp != NULL) {
		const char *algo = st->rp->slot_algo[0][0] != '\0' ? st->rp->slot_algo[0] : NULL;

		for (i = 0; i < st->rp->nb_params; i++) {
			const struct host_param *hp = &st->rp->params[i];
			char w[384];

			if (hp->slot != PCC_HOST_SLOT_ACTIVE)
				continue;
			if (pcc_host_algo_check(algo, hp->name, hp->value, w, sizeof(w)) < 0)
				return set_why(why, whylen,
						"invalid value '%s=%s' for --algo-param (%s)",
						hp->name, hp->value, w);
		}
	}
	if (st->np != NULL && !st->np->conf.cnp) {
		for (i = 0; i < RTE_DIM(cnp_opts); i++)
			if (seen(st, cnp_opts[i]))
				return set_why(why, whylen,
						"invalid combination: --%s with --np-cnp off",
						cnp_opts[i]);
	}
	return check_probes(st, why, whylen);
}

/* ---- API ----------------------------------------------------------------------- */

/* A scratch stage with the defaults (what pcc_host_opt*_check use). */
struct scratch {
	struct host_proc proc;
	struct host_rp rp;
	struct host_np np;
	struct host_seen seen;
};

int
pcc_host_opt_check(const char *name, const char *value, char *why, size_t whylen)
{
	struct scratch *x;
	struct host_stage st;
	int i, rc;

	i = opt_index(name);
	if (i < 0)
		return set_why(why, whylen, "unrecognized option '--%s'", name != NULL ? name : "");
	x = calloc(1, sizeof(*x));
	if (x == NULL)
		return set_why(why, whylen, "out of memory");
	host_proc_default(&x->proc);
	host_rp_default(&x->rp);
	host_np_default(&x->np);
	st = (struct host_stage){ .proc = &x->proc, .rp = &x->rp, .np = &x->np, .seen = &x->seen };
	rc = opt_apply((unsigned int)i, value, &st, why, whylen);
	free(x->proc.groups);
	host_np_free(&x->np);
	free(x);
	return rc;
}

int
pcc_host_opts_check(const char *const *names, const char *const *values, unsigned int n, char *why,
		size_t whylen)
{
	struct host_proc *proc = calloc(1, sizeof(*proc));
	struct host_rp *rp = calloc(1, sizeof(*rp));
	struct host_np *np = calloc(1, sizeof(*np));
	struct host_seen *sn = calloc(1, sizeof(*sn));
	struct host_stage st = { .proc = proc, .rp = rp, .np = np, .seen = sn, .apply = false };
	unsigned int k;
	int i, rc = 0;

	if (proc == NULL || rp == NULL || np == NULL || sn == NULL) {
		rc = set_why(why, whylen, "out of memory");
		goto out;
	}
	host_proc_default(proc);
	host_rp_default(rp);
	host_np_default(np);
	for (k = 0; k < n && rc == 0; k++) {
		i = opt_index(names[k]);
		if (i < 0) {
			rc = set_why(why, whylen, "unrecognized option '--%s'",
					names[k] != NULL ? names[k] : "");
			break;
		}
		rc = opt_apply((unsigned int)i, values[k], &st, why, whylen);
	}
	if (rc == 0)
		rc = host_stage_check(&st, why, whylen);
out:
	if (proc != NULL)
		free(proc->groups);
	if (np != NULL)
		host_np_free(np);
	free(proc);
	free(rp);
	free(np);
	free(sn);
	return rc;
}

int
pcc_host_opt_set(struct pcc_host_ctx *ctx, const char *name, const char *value)
{
	char why[512];
	struct host_stage st;
	const struct opt *o;
	int i, rc;

	host_err_clear();
	i = opt_index(name);
	if (i < 0)
		return host_err(-ENOENT, "unknown option '%s'", name != NULL ? name : "");
	o = &host_opts[i];
	host_proc_ensure();
	memset(&st, 0, sizeof(st));
	st.apply = rte_lcore_count() > 0; /* the EAL runs */
	if (o->info.scope == PCC_HOST_OPT_PROCESS) {
		if (ctx != NULL)
			return host_err(-EINVAL, "--%s is a process option: no context", name);
		if (host_e != NULL && !o->info.runtime && strcmp(name, "crash-file") != 0)
			return host_err(-EBUSY,
					"--%s: the engine exists; it takes effect only before the "
					"first start",
					name);
		st.proc = &host_proc;
		st.seen = &host_proc_seen;
	} else {
		if (ctx == NULL ||
				ctx->role !=
						(o->info.scope == PCC_HOST_OPT_RP ?
										PCC_HOST_ROLE_RP :
										PCC_HOST_ROLE_NP))
			return host_err(-EINVAL, "--%s is an %s option: it needs an %s context",
					name, o->info.scope == PCC_HOST_OPT_RP ? "RP" : "NP",
					o->info.scope == PCC_HOST_OPT_RP ? "RP" : "NP");
		/* the typed setters apply what may change after the engine exists */
		if (strcmp(name, "np-app") == 0)
			return pcc_host_set_app(ctx, value);
		if (strcmp(name, "algo") == 0) {
			if (pcc_host_algo_check(value, NULL, NULL, why, sizeof(why)) < 0)
				return host_err(-EINVAL, "invalid value '%s' for --algo (%s)",
						value != NULL ? value : "", why);
			return pcc_host_set_app(ctx, value);
		}
		/* parameters and probe formats may change while it runs */
		if (host_e != NULL && strcmp(name, "algo-param") != 0 &&
				strcmp(name, "probe") != 0) {
			rc = host_ctx_configurable(ctx, name);
			if (rc < 0)
				return rc;
		} else if (host_e == NULL) {
			rc = host_ctx_configurable(ctx, name);
			if (rc < 0)
				return rc;
		}
		if (host_e != NULL && ctx->role == PCC_HOST_ROLE_RP &&
				strcmp(name, "algo-param") != 0 && strcmp(name, "probe") != 0)
			return host_err(-EBUSY,
					"--%s: the engine exists; it takes effect only before the "
					"first start",
					name);
		st.proc = &host_proc;
		st.rp = ctx->role == PCC_HOST_ROLE_RP ? &ctx->rp : NULL;
		st.np = ctx->role == PCC_HOST_ROLE_NP ? &ctx->np : NULL;
		st.seen = &ctx->seen;
		if (host_e != NULL && strcmp(name, "algo-param") == 0) {
			/* the running engine: at once */
			const char *eq = value != NULL ? strchr(value, '=') : NULL;
			char pname[HOST_PARAM_LEN];

			if (eq == NULL || eq == value || (size_t)(eq - value) >= sizeof(pname))
				return host_err(-EINVAL,
						"invalid value '%s' for --algo-param "
						"(expected %s)",
						value != NULL ? value : "", o->info.expect);
			memcpy(pname, value, (size_t)(eq - value));
			pname[eq - value] = '\0';
			return pcc_host_set_param(ctx, PCC_HOST_SLOT_ACTIVE, pname, eq + 1);
		}
		if (host_e != NULL && strcmp(name, "probe") == 0) {
			struct host_rp tmp = ctx->rp;
			struct host_stage ts = st;
			unsigned int s;

			ts.rp = &tmp;
			if (opt_apply((unsigned int)i, value, &ts, why, sizeof(why)) < 0)
				return host_err(-EINVAL, "%s", why);
			for (s = 0; s < PCC_HOST_PROBE_SLOTS; s++)
				if (memcmp(&tmp.probe[s], &ctx->rp.probe[s],
						    sizeof(tmp.probe[s])) != 0)
					return pcc_host_set_probe(ctx, (uint8_t)s, &tmp.probe[s]);
			return 0;
		}
		if (host_e != NULL && ctx->role == PCC_HOST_ROLE_NP) {
			/* a stopped engine takes NP settings at once: on a copy,
			 * kept when the engine accepts it */
			struct host_np saved = ctx->np;

			ctx->np.map = NULL;
			if (saved.nb_map > 0) {
				ctx->np.map = malloc(sizeof(*saved.map) * saved.nb_map);
				if (ctx->np.map == NULL) {
					ctx->np = saved;
					return host_err(-ENOMEM, "--%s: out of memory", name);
				}
				memcpy(ctx->np.map, saved.map, sizeof(*saved.map) * saved.nb_map);
			}
			ctx->np.conf.sqpn_map = ctx->np.map;
			rc = opt_apply((unsigned int)i, value, &st, why, sizeof(why));
			if (rc < 0)
				rc = host_err(-EINVAL, "%s", why);
			else
				rc = host_engine_np_apply(ctx);
			if (rc < 0) {
				free(ctx->np.map);
				ctx->np = saved;
				return rc;
			}
			free(saved.map);
			return 0;
		}
	}
	if (opt_apply((unsigned int)i, value, &st, why, sizeof(why)) < 0)
		return host_err(-EINVAL, "%s", why);
	return 0;
}
