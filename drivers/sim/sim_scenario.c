/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Scenario files (YAML, libyaml document API).  Every mapping is checked
 * against a table of known keys: unknown keys, duplicates, wrong node
 * types, values out of range and missing required keys are errors reported
 * as "FILE:LINE:COLUMN: message" (1-based).  Reference: doc/simulator.md.
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include <rte_common.h>
#include <rte_debug.h>

#include "sim_internal.h"

#define GBPS 1000000000ull
#define US 1000ull
#define MS 1000000ull

struct yctx {
	yaml_document_t *doc;
	yaml_document_t docbuf;
	const char *name;
	char *err;
	size_t errlen;
	struct pcc_sim_scenario *s;
	bool override; /* pcc_sim_scenario_set(): only some keys */
};

static int __rte_format_printf(3, 4)
		yerr(struct yctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	char why[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (c->err != NULL && c->errlen > 0) {
		if (n != NULL)
			snprintf(c->err, c->errlen, "%s:%zu:%zu: %s", c->name,
					n->start_mark.line + 1, n->start_mark.column + 1, why);
		else
			snprintf(c->err, c->errlen, "%s: %s", c->name, why);
	}
	return -1;
}

static const char *
scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static const char *
node_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "empty";
	}
}

/* ---- Typed scalars -------------------------------------------------------- */

struct unit {
	const char *sfx;
	double mult;
};

static const struct unit size_units[] = {
	{ "", 1 },
	{ "B", 1 },
	{ "KB", 1e3 },
	{ "MB", 1e6 },
	{ "GB", 1e9 },
	{ "KiB", 1024.0 },
	{ "MiB", 1048576.0 },
	{ "GiB", 1073741824.0 },
	{ NULL, 0 },
};

static const struct unit time_units[] = {
	{ "", 1 },
	{ "ns", 1 },
	{ "us", 1e3 },
	{ "ms", 1e6 },
	{ "s", 1e9 },
	{ NULL, 0 },
};

static const struct unit rate_units[] = {
	{ "", 1e9 },
	{ "G", 1e9 },
	{ "Gbps", 1e9 },
	{ "Gb/s", 1e9 },
	{ "M", 1e6 },
	{ "Mbps", 1e6 },
	{ "Mb/s", 1e6 },
	{ NULL, 0 },
};

static const struct unit plain_units[] = {
	{ "", 1 },
	{ NULL, 0 },
};

/*
 * A non-negative decimal number (or 0x hex integer when units is
 * plain_units), optional fraction, optional unit suffix: value * unit.
 */
static int
parse_number(const char *s, const struct unit *units, double *out)
{
	const struct unit *u;
	char *end;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	if (units == plain_units && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		unsigned long long x;

		if (!isxdigit((unsigned char)s[2]))
			return -1;
		errno = 0;
		x = strtoull(s, &end, 16);
		if (errno != 0 || *end != '\0')
			return -1;
		*out = (double)x;
		return 0;
	}
	if (!isdigit((unsigned char)s[0]) && !(s[0] == '.' && isdigit((unsigned char)s[1])))
		return -1;
	/* no exponents, hex floats, inf or nan: digits and one dot only */
	for (end = (char *)(uintptr_t)s; isdigit((unsigned char)*end) || *end == '.'; end++)
		;
	{
		char num[64];
		size_t n = (size_t)(end - s);
		char *e2;

		if (n >= sizeof(num))
			return -1;
		memcpy(num, s, n);
		num[n] = '\0';
		if (strchr(num, '.') != strrchr(num, '.'))
			return -1;
		errno = 0;
		v = strtod(num, &e2);
		if (errno != 0 || *e2 != '\0')
			return -1;
	}
	while (isspace((unsigned char)*end))
		end++;
	for (u = units; u->sfx != NULL; u++) {
		if (strcmp(end, u->sfx) == 0) {
			*out = v * u->mult;
			return 0;
		}
	}
	return -1;
}

static int
get_scalar(struct yctx *c, const yaml_node_t *n, const char *key)
{
	if (n->type != YAML_SCALAR_NODE)
		return yerr(c, n, "'%s' must be a scalar, not %s", key, node_kind(n));
	return 0;
}

static int
get_u64(struct yctx *c, const yaml_node_t *n, const char *key, const struct unit *units,
		const char *what, uint64_t min, uint64_t max, uint64_t *out)
{
	double v;

	if (get_scalar(c, n, key) != 0)
		return -1;
	if (parse_number(scalar(n), units, &v) != 0 ||
			(units == plain_units && strchr(scalar(n), '.') != NULL))
		return yerr(c, n, "'%s': '%s' is not %s", key, scalar(n), what);
	if (v > 9.2e18)
		return yerr(c, n, "'%s': %s is out of range [%" PRIu64 ", %" PRIu64 "]", key,
				scalar(n), min, max);
	*out = (uint64_t)llround(v);
	if (*out < min || *out > max)
		return yerr(c, n, "'%s': %s is out of range [%" PRIu64 ", %" PRIu64 "]", key,
				scalar(n), min, max);
	return 0;
}

#define WHAT_SIZE "a size (bytes, or with B, KB, MB, GB, KiB, MiB, GiB)"
#define WHAT_TIME "a time (ns, or with ns, us, ms, s)"
#define WHAT_RATE "a rate (Gb/s, or with G, Gbps, M, Mbps)"
#define WHAT_INT "a non-negative integer"

static int
get_double(struct yctx *c, const yaml_node_t *n, const char *key, double min, double max,
		double *out)
{
	double v;

	if (get_scalar(c, n, key) != 0)
		return -1;
	if (parse_number(scalar(n), plain_units, &v) != 0)
		return yerr(c, n, "'%s': '%s' is not a number", key, scalar(n));
	if (v < min || v > max)
		return yerr(c, n, "'%s': %s is out of range [%g, %g]", key, scalar(n), min, max);
	*out = v;
	return 0;
}

static int
get_bool(struct yctx *c, const yaml_node_t *n, const char *key, bool *out)
{
	static const char *const t[] = { "true", "yes", "on", "1", "True", "TRUE" };
	static const char *const f[] = { "false", "no", "off", "0", "False", "FALSE" };
	unsigned int i;

	if (get_scalar(c, n, key) != 0)
		return -1;
	for (i = 0; i < RTE_DIM(t); i++) {
		if (strcmp(scalar(n), t[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcmp(scalar(n), f[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return yerr(c, n, "'%s': '%s' is not a boolean (true/false)", key, scalar(n));
}

static int
get_enum(struct yctx *c, const yaml_node_t *n, const char *key, const char *const *names,
		uint8_t *out)
{
	char list[256] = "";
	unsigned int i;

	if (get_scalar(c, n, key) != 0)
		return -1;
	for (i = 0; names[i] != NULL; i++) {
		if (strcmp(scalar(n), names[i]) == 0) {
			*out = (uint8_t)i;
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
				names[i]);
	}
	return yerr(c, n, "'%s': '%s' is not one of: %s", key, scalar(n), list);
}

static int
get_str(struct yctx *c, const yaml_node_t *n, const char *key, char *out, size_t len)
{
	if (get_scalar(c, n, key) != 0)
		return -1;
	if (strlen(scalar(n)) >= len)
		return yerr(c, n, "'%s': longer than %zu characters", key, len - 1);
	snprintf(out, len, "%s", scalar(n));
	return 0;
}

/* ---- Mappings -------------------------------------------------------------- */

struct yfield;
typedef int (*yfn_t)(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);

struct yfield {
	const char *key;
	yfn_t fn;
	size_t off;
	uint64_t min;
	uint64_t max;
	bool required;
	bool override;   /* settable through pcc_sim_scenario_set() */
	const void *arg; /* enum names, units */
};

static int
parse_map(struct yctx *c, const yaml_node_t *n, const char *ctx, const struct yfield *fields,
		unsigned int nf, void *obj)
{
	bool seen[32] = { false };
	yaml_node_pair_t *pr;
	unsigned int i;

	RTE_VERIFY(nf <= RTE_DIM(seen));
	if (n->type != YAML_MAPPING_NODE)
		return yerr(c, n, "%s must be a mapping, not %s", ctx, node_kind(n));
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);

		if (kn == NULL || vn == NULL)
			return yerr(c, n, "%s: malformed entry", ctx);
		if (kn->type != YAML_SCALAR_NODE)
			return yerr(c, kn, "%s: keys must be scalars", ctx);
		for (i = 0; i < nf; i++)
			if (strcmp(scalar(kn), fields[i].key) == 0)
				break;
		if (i == nf || (c->override && !fields[i].override)) {
			char list[512] = "";
			unsigned int k;

			for (k = 0; k < nf; k++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
						k ? ", " : "", fields[k].key);
			if (i < nf)
				return yerr(c, kn, "'%s' cannot be overridden", scalar(kn));
			return yerr(c, kn, "unknown key '%s' in %s (known: %s)", scalar(kn), ctx,
					list);
		}
		if (seen[i])
			return yerr(c, kn, "duplicate key '%s' in %s", scalar(kn), ctx);
		seen[i] = true;
		if (fields[i].fn(c, vn, obj, &fields[i]) != 0)
			return -1;
	}
	if (c->override)
		return 0;
	for (i = 0; i < nf; i++)
		if (fields[i].required && !seen[i])
			return yerr(c, n, "%s: missing required key '%s'", ctx, fields[i].key);
	return 0;
}

#define FIELD_PTR(obj, f, type) ((type *)(void *)((char *)(obj) + (f)->off))

static int
f_size(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return get_u64(c, v, f->key, size_units, WHAT_SIZE, f->min, f->max,
			FIELD_PTR(obj, f, uint64_t));
}

static int
f_time(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return get_u64(c, v, f->key, time_units, WHAT_TIME, f->min, f->max,
			FIELD_PTR(obj, f, uint64_t));
}

static int
f_rate(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return get_u64(c, v, f->key, rate_units, WHAT_RATE, f->min, f->max,
			FIELD_PTR(obj, f, uint64_t));
}

static int
f_u64(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return get_u64(c, v, f->key, plain_units, WHAT_INT, f->min, f->max,
			FIELD_PTR(obj, f, uint64_t));
}

static int
f_u32(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	uint64_t x;

	if (get_u64(c, v, f->key, plain_units, WHAT_INT, f->min, f->max, &x) != 0)
		return -1;
	*FIELD_PTR(obj, f, uint32_t) = (uint32_t)x;
	return 0;
}

static int
f_u16(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	uint64_t x;

	if (get_u64(c, v, f->key, plain_units, WHAT_INT, f->min, f->max, &x) != 0)
		return -1;
	*FIELD_PTR(obj, f, uint16_t) = (uint16_t)x;
	return 0;
}

static int
f_u8(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	uint64_t x;

	if (get_u64(c, v, f->key, plain_units, WHAT_INT, f->min, f->max, &x) != 0)
		return -1;
	*FIELD_PTR(obj, f, uint8_t) = (uint8_t)x;
	return 0;
}

static int
f_bool(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return get_bool(c, v, f->key, FIELD_PTR(obj, f, bool));
}

static int
f_enum(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return get_enum(c, v, f->key, f->arg, FIELD_PTR(obj, f, uint8_t));
}

/* f->max is the buffer size */
static int
f_str(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return get_str(c, v, f->key, FIELD_PTR(obj, f, char), (size_t)f->max);
}

/* probability / fraction in [min/1e6, max/1e6] */
static int
f_frac(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return get_double(c, v, f->key, (double)f->min / 1e6, (double)f->max / 1e6,
			FIELD_PTR(obj, f, double));
}

#define OFF(type, m) offsetof(type, m)
#define MAX_RATE (400 * GBPS)
#define MIN_RATE (10 * GBPS)
#define MAX_DELAY (1000 * MS)

/* ---- Sections -------------------------------------------------------------- */

static int
f_link(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "rate", f_rate, OFF(struct sim_link_conf, rate_bps), MIN_RATE, MAX_RATE, false,
				false, NULL },
		{ "delay", f_time, OFF(struct sim_link_conf, delay_ns), 0, MAX_DELAY, false, false,
				NULL },
	};

	return parse_map(c, v, f->key, fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

static const char *const topo_names[] = { "dumbbell", "incast", "leaf-spine", NULL };

static int
f_topology(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "type", f_enum, OFF(struct sim_topo_conf, type), 0, 0, true, false, topo_names },
		{ "senders", f_u32, OFF(struct sim_topo_conf, senders), 1, 1024, false, false,
				NULL },
		{ "receivers", f_u32, OFF(struct sim_topo_conf, receivers), 1, 1024, false, false,
				NULL },
		{ "leaves", f_u32, OFF(struct sim_topo_conf, leaves), 1, 64, false, false, NULL },
		{ "spines", f_u32, OFF(struct sim_topo_conf, spines), 1, 64, false, false, NULL },
		{ "hosts_per_leaf", f_u32, OFF(struct sim_topo_conf, hosts_per_leaf), 1, 256, false,
				false, NULL },
		{ "host_link", f_link, OFF(struct sim_topo_conf, host_link), 0, 0, false, false,
				NULL },
		{ "bottleneck", f_link, OFF(struct sim_topo_conf, bottleneck), 0, 0, false, false,
				NULL },
		{ "fabric_link", f_link, OFF(struct sim_topo_conf, fabric), 0, 0, false, false,
				NULL },
	};
	struct sim_topo_conf *t = FIELD_PTR(obj, f, struct sim_topo_conf);
	yaml_node_pair_t *pr;

	/* the defaults depend on the type: find it first */
	if (v->type == YAML_MAPPING_NODE) {
		for (pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
			yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
			yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);

			if (kn != NULL && vn != NULL && kn->type == YAML_SCALAR_NODE &&
					strcmp(scalar(kn), "type") == 0) {
				if (get_enum(c, vn, "type", topo_names, &t->type) != 0)
					return -1;
				if (t->type == SIM_TOPO_INCAST)
					t->senders = 8;
			}
		}
	}
	if (parse_map(c, v, "topology", fields, RTE_DIM(fields), t) != 0)
		return -1;
	return 0;
}

static const char *const ecn_names[] = { "red", "step", "off", NULL };

static int
f_ecn(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "mode", f_enum, OFF(struct sim_ecn_conf, mode), 0, 0, false, false, ecn_names },
		{ "kmin", f_size, OFF(struct sim_ecn_conf, kmin), 1, 1ull << 32, false, false,
				NULL },
		{ "kmax", f_size, OFF(struct sim_ecn_conf, kmax), 1, 1ull << 32, false, false,
				NULL },
		{ "pmax", f_frac, OFF(struct sim_ecn_conf, pmax), 0, 1000000, false, false, NULL },
		{ "k", f_size, OFF(struct sim_ecn_conf, k), 1, 1ull << 32, false, false, NULL },
	};

	return parse_map(c, v, "switch.ecn", fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

static const char *const ifa2_profile_names[] = { "dpdk-pcc", "doca", NULL };

/* Switch j of the topology named by scalar n. */
static int
switch_lookup(struct yctx *c, const yaml_node_t *n, const char *key, uint32_t *j)
{
	const struct sim_topo_conf *t = &c->s->topo;
	uint32_t nsw = sim_topo_nb_switches(t);
	char name[PCC_SIM_NAME_LEN], last[PCC_SIM_NAME_LEN];

	for (*j = 0; *j < nsw; (*j)++) {
		sim_topo_switch_name(t, *j, name, sizeof(name));
		if (strcmp(name, scalar(n)) == 0)
			return 0;
	}
	sim_topo_switch_name(t, 0, name, sizeof(name));
	sim_topo_switch_name(t, nsw - 1, last, sizeof(last));
	return yerr(c, n, "'%s': no switch '%s' in this %s topology (switches %s .. %s)", key,
			scalar(n), topo_names[t->type], name, last);
}

/* switch.ifa2_profiles: {SWITCH: PROFILE, ...} */
static int
f_ifa2_profiles(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	uint8_t *prof = FIELD_PTR(obj, f, uint8_t);
	yaml_node_pair_t *pr;
	uint32_t j;

	if (v->type != YAML_MAPPING_NODE)
		return yerr(c, v, "'%s' must be a mapping (switch: profile), not %s", f->key,
				node_kind(v));
	for (pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);

		if (kn == NULL || vn == NULL || kn->type != YAML_SCALAR_NODE)
			return yerr(c, v, "%s: keys must be switch names", f->key);
		if (switch_lookup(c, kn, f->key, &j) != 0)
			return -1;
		if (prof[j] != SIM_IFA2_PROFILE_UNSET)
			return yerr(c, kn, "duplicate key '%s' in switch.%s", scalar(kn), f->key);
		if (get_enum(c, vn, scalar(kn), ifa2_profile_names, &prof[j]) != 0)
			return -1;
	}
	return 0;
}

static int
f_switch(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "buffer", f_size, OFF(struct sim_switch_conf, buffer), 10000, 1ull << 34, false,
				false, NULL },
		{ "port_buffer", f_size, OFF(struct sim_switch_conf, port_buffer), 0, 1ull << 34,
				false, false, NULL },
		{ "ecn", f_ecn, OFF(struct sim_switch_conf, ecn), 0, 0, false, false, NULL },
		{ "int", f_bool, OFF(struct sim_switch_conf, int_enabled), 0, 0, false, false,
				NULL },
		{ "ifa2", f_bool, OFF(struct sim_switch_conf, ifa2), 0, 0, false, false, NULL },
		{ "ifa2_proto", f_u8, OFF(struct sim_switch_conf, ifa2_proto), 1, 255, false, false,
				NULL },
		{ "ifa2_profile", f_enum, OFF(struct sim_switch_conf, ifa2_profile), 0, 0, false,
				false, ifa2_profile_names },
		{ "ifa2_profiles", f_ifa2_profiles, OFF(struct sim_switch_conf, ifa2_profiles), 0,
				0, false, false, NULL },
	};

	return parse_map(c, v, "switch", fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

static const char *const np_names[] = { "hw", "engine", NULL };
static const char *const np_rx_names[] = { "cc", "all", NULL };

static int
f_hosts(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "np", f_enum, OFF(struct sim_host_conf, np), 0, 0, false, false, np_names },
		{ "np_rx", f_enum, OFF(struct sim_host_conf, np_rx), 0, 0, false, false,
				np_rx_names },
		{ "ack_every", f_u32, OFF(struct sim_host_conf, ack_every), 1, 65536, false, false,
				NULL },
		{ "ack_timeout", f_time, OFF(struct sim_host_conf, ack_timeout_ns), 0, MAX_DELAY,
				false, false, NULL },
		{ "cnp_gap", f_time, OFF(struct sim_host_conf, cnp_gap_ns), 0, MAX_DELAY, false,
				false, NULL },
		{ "cnp_dscp", f_u8, OFF(struct sim_host_conf, cnp_dscp), 0, 63, false, false,
				NULL },
		{ "np_turnaround", f_time, OFF(struct sim_host_conf, np_turnaround_ns), 0,
				MAX_DELAY, false, false, NULL },
		{ "probe_ts_size", f_u8, OFF(struct sim_host_conf, probe_ts_size), 0, 32, false,
				false, NULL },
		{ "probe_ts_shift", f_u8, OFF(struct sim_host_conf, probe_ts_shift), 0, 63, false,
				false, NULL },
	};

	return parse_map(c, v, "hosts", fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

static int
f_res(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "mbufs", f_u32, OFF(struct sim_res_conf, mbufs), 255, 1u << 24, false, false,
				NULL },
		{ "packets", f_u32, OFF(struct sim_res_conf, packets), 255, 1u << 26, false, false,
				NULL },
		{ "ring_size", f_u32, OFF(struct sim_res_conf, ring_size), 64, 1u << 20, false,
				false, NULL },
		{ "tx_queues", f_u16, OFF(struct sim_res_conf, tx_queues), 1, 16, false, false,
				NULL },
		{ "qpn_base", f_u32, OFF(struct sim_res_conf, qpn_base), 2, PCC_QPN_MASK, false,
				false, NULL },
		{ "end_on_completion", f_bool, OFF(struct sim_res_conf, end_on_completion), 0, 0,
				false, false, NULL },
	};

	return parse_map(c, v, "sim", fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

static int
f_output(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "dir", f_str, OFF(struct sim_out_conf, dir), 0, PATH_MAX, false, true, NULL },
		{ "sample", f_time, OFF(struct sim_out_conf, sample_ns), 100, 1000 * MS, false,
				true, NULL },
		{ "window", f_frac, OFF(struct sim_out_conf, window), 1, 1000000, false, true,
				NULL },
		{ "plots", f_bool, OFF(struct sim_out_conf, plots), 0, 0, false, true, NULL },
		{ "progress", f_bool, OFF(struct sim_out_conf, progress), 0, 0, false, true, NULL },
	};

	return parse_map(c, v, "output", fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

/* ---- Algorithms ---------------------------------------------------------- */

static int
algo_params(struct yctx *c, const yaml_node_t *v, struct sim_algo_conf *a)
{
	yaml_node_pair_t *pr;

	if (v->type != YAML_MAPPING_NODE)
		return yerr(c, v, "'params' must be a mapping (name: value), not %s", node_kind(v));
	for (pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);
		uint32_t i;

		if (kn == NULL || vn == NULL || kn->type != YAML_SCALAR_NODE)
			return yerr(c, v, "params: keys must be scalars");
		if (vn->type != YAML_SCALAR_NODE)
			return yerr(c, vn, "parameter '%s' must be a scalar, not %s", scalar(kn),
					node_kind(vn));
		for (i = 0; i < a->nb_params; i++)
			if (strcmp(a->params[i].name, scalar(kn)) == 0)
				return yerr(c, kn, "duplicate parameter '%s'", scalar(kn));
		if (a->nb_params >= PCC_SIM_ALGO_PARAMS_MAX)
			return yerr(c, kn, "more than %u parameters", PCC_SIM_ALGO_PARAMS_MAX);
		a->params[a->nb_params].name = strdup(scalar(kn));
		a->params[a->nb_params].value = strdup(scalar(vn));
		if (a->params[a->nb_params].name == NULL || a->params[a->nb_params].value == NULL)
			return yerr(c, kn, "out of memory");
		a->nb_params++;
	}
	return 0;
}

static int
algo_entry(struct yctx *c, const yaml_node_t *n, struct sim_algo_conf *a)
{
	bool seen_slot = false, seen_name = false, seen_params = false;
	yaml_node_pair_t *pr;
	uint64_t x;

	if (n->type != YAML_MAPPING_NODE)
		return yerr(c, n, "an algorithm must be a mapping (slot, name, params), not %s",
				node_kind(n));
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);
		bool *seen;

		if (kn == NULL || vn == NULL || kn->type != YAML_SCALAR_NODE)
			return yerr(c, n, "algorithms: keys must be scalars");
		if (strcmp(scalar(kn), "slot") == 0)
			seen = &seen_slot;
		else if (strcmp(scalar(kn), "name") == 0)
			seen = &seen_name;
		else if (strcmp(scalar(kn), "params") == 0)
			seen = &seen_params;
		else
			return yerr(c, kn,
					"unknown key '%s' in an algorithm (known: slot, name, "
					"params)",
					scalar(kn));
		if (*seen)
			return yerr(c, kn, "duplicate key '%s'", scalar(kn));
		*seen = true;
		if (seen == &seen_slot) {
			if (get_u64(c, vn, "slot", plain_units, WHAT_INT, 0, PCC_SIM_SLOTS_MAX - 1,
					    &x) != 0)
				return -1;
			a->slot = (uint8_t)x;
		} else if (seen == &seen_name) {
			if (get_str(c, vn, "name", a->name, sizeof(a->name)) != 0)
				return -1;
			if (a->name[0] == '\0')
				return yerr(c, vn, "'name' is empty");
		} else if (algo_params(c, vn, a) != 0) {
			return -1;
		}
	}
	if (!seen_name)
		return yerr(c, n, "algorithm: missing required key 'name'");
	return 0;
}

static int
f_algos(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	struct pcc_sim_scenario *s = obj;
	yaml_node_item_t *it;
	uint32_t i;

	RTE_SET_USED(f);
	if (v->type != YAML_SEQUENCE_NODE)
		return yerr(c, v, "'algorithms' must be a list, not %s", node_kind(v));
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		yaml_node_t *en = yaml_document_get_node(c->doc, *it);
		struct sim_algo_conf *a;

		if (en == NULL)
			return yerr(c, v, "algorithms: malformed entry");
		if (s->nb_algos >= PCC_SIM_SLOTS_MAX)
			return yerr(c, en, "more than %u algorithms", PCC_SIM_SLOTS_MAX);
		a = &s->algos[s->nb_algos];
		memset(a, 0, sizeof(*a));
		a->slot = (uint8_t)s->nb_algos;
		s->nb_algos++;
		if (algo_entry(c, en, a) != 0)
			return -1;
		for (i = 0; i + 1 < s->nb_algos; i++)
			if (s->algos[i].slot == a->slot)
				return yerr(c, en, "slot %u is configured twice", a->slot);
	}
	return 0;
}

/* ---- Flows ------------------------------------------------------------------ */

static int
host_lookup(struct yctx *c, const yaml_node_t *n, const char *key, uint16_t *out)
{
	const struct sim_topo_conf *t = &c->s->topo;
	uint32_t i, nh = sim_topo_nb_hosts(t);
	char name[PCC_SIM_NAME_LEN];

	if (get_scalar(c, n, key) != 0)
		return -1;
	for (i = 0; i < nh; i++) {
		sim_topo_host_name(t, i, name, sizeof(name));
		if (strcmp(name, scalar(n)) == 0) {
			*out = (uint16_t)i;
			return 0;
		}
	}
	sim_topo_host_name(t, 0, name, sizeof(name));
	{
		char last[PCC_SIM_NAME_LEN];

		sim_topo_host_name(t, nh - 1, last, sizeof(last));
		return yerr(c, n, "'%s': no host '%s' in this %s topology (hosts %s .. %s)", key,
				scalar(n), topo_names[t->type], name, last);
	}
}

static const char *const source_names[] = { "engine", "model", NULL };

static int
flow_entry(struct yctx *c, const yaml_node_t *n)
{
	struct pcc_sim_scenario *s = c->s;
	enum {
		K_SRC,
		K_DST,
		K_COUNT,
		K_SIZE,
		K_START,
		K_STAGGER,
		K_RATE,
		K_PAYLOAD,
		K_SLOT,
		K_QPN,
		K_DST_QPN,
		K_SOURCE,
		K_MAX
	};
	static const char *const keys[K_MAX] = { "src", "dst", "count", "size", "start", "stagger",
		"rate", "payload", "slot", "qpn", "dst_qpn", "source" };
	const yaml_node_t *vals[K_MAX] = { NULL };
	uint16_t srcs[SIM_HOSTS_MAX];
	uint32_t nsrc = 0, i, k;
	struct sim_flow_conf base;
	uint64_t count = 1, stagger = 0, x;
	yaml_node_pair_t *pr;

	if (n->type != YAML_MAPPING_NODE)
		return yerr(c, n, "a flow must be a mapping (src, dst, size, start, ...), not %s",
				node_kind(n));
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);

		if (kn == NULL || vn == NULL || kn->type != YAML_SCALAR_NODE)
			return yerr(c, n, "flows: keys must be scalars");
		for (k = 0; k < K_MAX; k++)
			if (strcmp(scalar(kn), keys[k]) == 0)
				break;
		if (k == K_MAX)
			return yerr(c, kn,
					"unknown key '%s' in a flow (known: src, dst, count, size, "
					"start, stagger, rate, payload, slot, qpn, dst_qpn, "
					"source)",
					scalar(kn));
		if (vals[k] != NULL)
			return yerr(c, kn, "duplicate key '%s'", scalar(kn));
		vals[k] = vn;
	}
	if (vals[K_SRC] == NULL)
		return yerr(c, n, "flow: missing required key 'src'");
	if (vals[K_DST] == NULL)
		return yerr(c, n, "flow: missing required key 'dst'");
	memset(&base, 0, sizeof(base));
	base.payload = 1000;
	base.line = (uint32_t)n->start_mark.line + 1;
	if (vals[K_SRC]->type == YAML_SEQUENCE_NODE) {
		yaml_node_item_t *it;

		for (it = vals[K_SRC]->data.sequence.items.start;
				it < vals[K_SRC]->data.sequence.items.top; it++) {
			yaml_node_t *en = yaml_document_get_node(c->doc, *it);

			if (en == NULL || nsrc >= RTE_DIM(srcs))
				return yerr(c, vals[K_SRC], "src: bad list");
			if (host_lookup(c, en, "src", &srcs[nsrc]) != 0)
				return -1;
			nsrc++;
		}
		if (nsrc == 0)
			return yerr(c, vals[K_SRC], "src: empty list");
	} else {
		if (host_lookup(c, vals[K_SRC], "src", &srcs[0]) != 0)
			return -1;
		nsrc = 1;
	}
	if (host_lookup(c, vals[K_DST], "dst", &base.dst) != 0)
		return -1;
	if (vals[K_COUNT] != NULL &&
			get_u64(c, vals[K_COUNT], "count", plain_units, WHAT_INT, 1, 4096,
					&count) != 0)
		return -1;
	if (vals[K_SIZE] != NULL) {
		if (vals[K_SIZE]->type == YAML_SCALAR_NODE &&
				(strcmp(scalar(vals[K_SIZE]), "infinite") == 0 ||
						strcmp(scalar(vals[K_SIZE]), "inf") == 0))
			base.size = 0;
		else if (get_u64(c, vals[K_SIZE], "size", size_units, WHAT_SIZE " or 'infinite'", 0,
					 1ull << 50, &base.size) != 0)
			return -1;
	}
	if (vals[K_START] != NULL &&
			get_u64(c, vals[K_START], "start", time_units, WHAT_TIME, 0, 1000000 * MS,
					&base.start_ns) != 0)
		return -1;
	if (vals[K_STAGGER] != NULL &&
			get_u64(c, vals[K_STAGGER], "stagger", time_units, WHAT_TIME, 0,
					1000000 * MS, &stagger) != 0)
		return -1;
	if (vals[K_RATE] != NULL &&
			get_u64(c, vals[K_RATE], "rate", rate_units, WHAT_RATE, 0, MAX_RATE,
					&base.rate_bps) != 0)
		return -1;
	if (vals[K_PAYLOAD] != NULL) {
		if (get_u64(c, vals[K_PAYLOAD], "payload", size_units, WHAT_SIZE, 1, 8192, &x) != 0)
			return -1;
		base.payload = (uint32_t)x;
	}
	if (vals[K_SLOT] != NULL) {
		if (get_u64(c, vals[K_SLOT], "slot", plain_units, WHAT_INT, 0,
				    PCC_SIM_SLOTS_MAX - 1, &x) != 0)
			return -1;
		base.slot = (uint8_t)x;
	}
	if (vals[K_QPN] != NULL) {
		if (get_u64(c, vals[K_QPN], "qpn", plain_units, WHAT_INT, 2, PCC_QPN_MASK, &x) != 0)
			return -1;
		base.qpn = (uint32_t)x;
	}
	if (vals[K_DST_QPN] != NULL) {
		if (get_u64(c, vals[K_DST_QPN], "dst_qpn", plain_units, WHAT_INT, 2, PCC_QPN_MASK,
				    &x) != 0)
			return -1;
		base.dst_qpn = (uint32_t)x;
	}
	if (vals[K_SOURCE] != NULL &&
			get_enum(c, vals[K_SOURCE], "source", source_names, &base.source) != 0)
		return -1;
	if ((uint64_t)nsrc * count + s->nb_flows > SIM_FLOWS_MAX)
		return yerr(c, n, "more than %u flows", SIM_FLOWS_MAX);
	{
		struct sim_flow_conf *nf = realloc(
				s->flows, sizeof(*nf) * (s->nb_flows + nsrc * (uint32_t)count));

		if (nf == NULL)
			return yerr(c, n, "out of memory");
		s->flows = nf;
	}
	for (i = 0; i < nsrc; i++) {
		for (k = 0; k < count; k++) {
			struct sim_flow_conf *fc = &s->flows[s->nb_flows];
			uint32_t j = i * (uint32_t)count + k;

			*fc = base;
			fc->src = srcs[i];
			fc->start_ns = base.start_ns + stagger * j;
			if (base.qpn != 0)
				fc->qpn = base.qpn + j;
			if (base.dst_qpn != 0)
				fc->dst_qpn = base.dst_qpn + j;
			if ((fc->qpn & ~PCC_QPN_MASK) || (fc->dst_qpn & ~PCC_QPN_MASK))
				return yerr(c, n, "QPNs beyond 0xFFFFFF");
			if (fc->src == fc->dst)
				return yerr(c, vals[K_DST], "a flow from a host to itself");
			s->nb_flows++;
		}
	}
	return 0;
}

static int
f_flows(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	yaml_node_item_t *it;

	RTE_SET_USED(obj);
	RTE_SET_USED(f);
	if (v->type != YAML_SEQUENCE_NODE)
		return yerr(c, v, "'flows' must be a list, not %s", node_kind(v));
	if (v->data.sequence.items.start == v->data.sequence.items.top)
		return yerr(c, v, "'flows' is empty");
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		yaml_node_t *en = yaml_document_get_node(c->doc, *it);

		if (en == NULL)
			return yerr(c, v, "flows: malformed entry");
		if (flow_entry(c, en) != 0)
			return -1;
	}
	return 0;
}

/* topology is parsed before everything else (flows name its hosts) */
static int
f_skip(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	RTE_SET_USED(c);
	RTE_SET_USED(v);
	RTE_SET_USED(obj);
	RTE_SET_USED(f);
	return 0;
}

#define S_OFF(m) offsetof(struct pcc_sim_scenario, m)

static const struct yfield root_fields[] = {
	{ "name", f_str, S_OFF(name), 0, sizeof(((struct pcc_sim_scenario *)0)->name), false, false,
			NULL },
	{ "description", f_str, S_OFF(description), 0,
			sizeof(((struct pcc_sim_scenario *)0)->description), false, false, NULL },
	{ "seed", f_u64, S_OFF(seed), 0, UINT64_MAX - 1, false, true, NULL },
	{ "duration", f_time, S_OFF(duration_ns), 1000, 1000000 * MS, false, true, NULL },
	{ "quantum", f_time, S_OFF(quantum_ns), 1, 1000 * MS, false, true, NULL },
	{ "topology", f_skip, SIZE_MAX, 0, 0, true, false, NULL },
	{ "switch", f_switch, S_OFF(sw), 0, 0, false, false, NULL },
	{ "hosts", f_hosts, S_OFF(host), 0, 0, false, false, NULL },
	{ "algorithms", f_algos, 0, 0, 0, false, false, NULL },
	{ "flows", f_flows, 0, 0, 0, true, false, NULL },
	{ "sim", f_res, S_OFF(res), 0, 0, false, false, NULL },
	{ "output", f_output, S_OFF(out), 0, 0, false, true, NULL },
};

/* ---- Topology helpers -------------------------------------------------------- */

uint32_t
sim_topo_nb_hosts(const struct sim_topo_conf *t)
{
	switch (t->type) {
	case SIM_TOPO_DUMBBELL:
	case SIM_TOPO_INCAST:
		return t->senders + t->receivers;
	default:
		return t->leaves * t->hosts_per_leaf;
	}
}

void
sim_topo_host_name(const struct sim_topo_conf *t, uint32_t i, char *buf, size_t len)
{
	if (t->type == SIM_TOPO_LEAF_SPINE)
		snprintf(buf, len, "h%u", i);
	else if (i < t->senders)
		snprintf(buf, len, "s%u", i);
	else
		snprintf(buf, len, "r%u", i - t->senders);
}

uint32_t
sim_topo_nb_switches(const struct sim_topo_conf *t)
{
	switch (t->type) {
	case SIM_TOPO_DUMBBELL:
		return 2;
	case SIM_TOPO_INCAST:
		return 1;
	default:
		return t->leaves + t->spines;
	}
}

void
sim_topo_switch_name(const struct sim_topo_conf *t, uint32_t j, char *buf, size_t len)
{
	if (t->type == SIM_TOPO_LEAF_SPINE && j < t->leaves)
		snprintf(buf, len, "leaf%u", j);
	else if (t->type == SIM_TOPO_LEAF_SPINE)
		snprintf(buf, len, "spine%u", j - t->leaves);
	else
		snprintf(buf, len, "sw%u", j);
}

uint8_t
sim_switch_ifa2_profile(const struct sim_switch_conf *sw, uint32_t j)
{
	if (j < SIM_SWITCHES_MAX && sw->ifa2_profiles[j] != SIM_IFA2_PROFILE_UNSET)
		return sw->ifa2_profiles[j];
	return sw->ifa2_profile;
}

void
sim_ecn_thresholds(const struct sim_ecn_conf *e, uint64_t rate_bps, uint64_t *kmin, uint64_t *kmax)
{
	uint64_t gbps = rate_bps / GBPS;

	if (gbps == 0)
		gbps = 1;
	if (e->mode == SIM_ECN_STEP) {
		/* DCTCP: K = 30 * bw / 10 KB, i.e. 3 KB per Gb/s */
		*kmin = e->k != 0 ? e->k : gbps * 3000;
		*kmax = *kmin;
		return;
	}
	/* RED: 25G 100/400 KB, 50G 200/800, 100G 400/1600: 4 and 16 KB per Gb/s */
	*kmin = e->kmin != 0 ? e->kmin : gbps * 4000;
	*kmax = e->kmax != 0 ? e->kmax : gbps * 16000;
}

/* ---- Defaults, validation ------------------------------------------------------ */

static void
defaults(struct pcc_sim_scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->seed = 1;
	s->duration_ns = 10 * MS;
	s->quantum_ns = 250;
	s->topo.type = SIM_TOPO_DUMBBELL;
	s->topo.senders = 2;
	s->topo.receivers = 1;
	s->topo.leaves = 2;
	s->topo.spines = 2;
	s->topo.hosts_per_leaf = 4;
	s->topo.host_link.rate_bps = 100 * GBPS;
	s->topo.host_link.delay_ns = 1000;
	s->topo.bottleneck = s->topo.host_link;
	s->topo.fabric = s->topo.host_link;
	s->sw.buffer = 32000000;
	s->sw.ecn.mode = SIM_ECN_RED;
	s->sw.ecn.pmax = 0.2;
	s->sw.ifa2_proto = PCC_IFA2_PROTO_DEFAULT;
	s->sw.ifa2_profile = SIM_IFA2_PROFILE_DPDK_PCC;
	memset(s->sw.ifa2_profiles, SIM_IFA2_PROFILE_UNSET, sizeof(s->sw.ifa2_profiles));
	s->host.np = SIM_NP_HW;
	s->host.np_rx = SIM_NP_RX_CC;
	s->host.ack_every = 1;
	s->host.ack_timeout_ns = 10 * US;
	s->host.cnp_gap_ns = 50 * US;
	s->host.cnp_dscp = 48;
	s->res.mbufs = 32767;
	s->res.packets = 262143;
	s->res.ring_size = 4096;
	s->res.tx_queues = 4;
	s->res.qpn_base = 0x100;
	s->res.end_on_completion = true;
	s->out.sample_ns = 10 * US;
	s->out.window = 0.5;
	s->out.plots = true;
	s->out.progress = true;
}

static bool
int_rate_ok(uint64_t rate_bps)
{
	return rate_bps % GBPS == 0 && pcc_int_rate_code((uint32_t)(rate_bps / GBPS)) >= 0;
}

static int
validate(struct yctx *c, const yaml_node_t *root)
{
	struct pcc_sim_scenario *s = c->s;
	const struct sim_topo_conf *t = &s->topo;
	uint32_t i, j, next = s->res.qpn_base;

	if (s->quantum_ns > s->duration_ns)
		return yerr(c, root, "quantum (%" PRIu64 " ns) is longer than the duration",
				s->quantum_ns);
	if (sim_topo_nb_hosts(t) > SIM_HOSTS_MAX)
		return yerr(c, root, "topology: more than %u hosts", SIM_HOSTS_MAX);
	if (s->sw.ecn.mode == SIM_ECN_RED && s->sw.ecn.kmin != 0 && s->sw.ecn.kmax != 0 &&
			s->sw.ecn.kmin > s->sw.ecn.kmax)
		return yerr(c, root, "switch.ecn: kmin is larger than kmax");
	if (s->sw.int_enabled) {
		if (!int_rate_ok(t->host_link.rate_bps) ||
				(t->type == SIM_TOPO_DUMBBELL &&
						!int_rate_ok(t->bottleneck.rate_bps)) ||
				(t->type == SIM_TOPO_LEAF_SPINE &&
						!int_rate_ok(t->fabric.rate_bps)))
			return yerr(c, root,
					"switch.int needs link rates HPCC INT can encode "
					"(25, 50, 100, 200 or 400 G)");
	}
	if (s->sw.ifa2 && s->sw.ifa2_proto == 17)
		return yerr(c, root, "switch.ifa2_proto cannot be 17 (UDP)");
	for (i = 0; i < s->nb_flows; i++) {
		struct sim_flow_conf *f = &s->flows[i];
		bool found = s->nb_algos == 0 && f->slot == 0;

		for (j = 0; j < s->nb_algos; j++)
			if (s->algos[j].slot == f->slot)
				found = true;
		if (!found) {
			snprintf(c->err, c->errlen,
					"%s:%u: flow uses algorithm slot %u, which "
					"'algorithms' does not configure",
					c->name, f->line, f->slot);
			return -1;
		}
	}
	/* QPNs: explicit ones stay; the others are assigned from qpn_base */
	for (i = 0; i < s->nb_flows; i++) {
		struct sim_flow_conf *f = &s->flows[i];

		if (f->qpn != 0)
			continue;
		for (;;) {
			bool used = false;

			for (j = 0; j < s->nb_flows && !used; j++)
				used = s->flows[j].qpn == next || s->flows[j].dst_qpn == next;
			if (!used)
				break;
			next++;
		}
		if (next > PCC_QPN_MASK) {
			snprintf(c->err, c->errlen, "%s:%u: out of QPNs", c->name, f->line);
			return -1;
		}
		f->qpn = next++;
	}
	for (i = 0; i < s->nb_flows; i++)
		if (s->flows[i].dst_qpn == 0)
			s->flows[i].dst_qpn = s->flows[i].qpn;
	for (i = 0; i < s->nb_flows; i++) {
		const struct sim_flow_conf *a = &s->flows[i];

		for (j = 0; j < i; j++) {
			const struct sim_flow_conf *b = &s->flows[j];

			if ((a->src == b->src && (a->qpn == b->qpn || a->dst_qpn == b->dst_qpn)) ||
					(a->dst == b->dst &&
							(a->qpn == b->qpn ||
									a->dst_qpn == b->dst_qpn))) {
				snprintf(c->err, c->errlen,
						"%s:%u: QPN 0x%x / 0x%x clashes with the flow at "
						"line %u on the same host",
						c->name, a->line, a->qpn, a->dst_qpn, b->line);
				return -1;
			}
		}
	}
	return 0;
}

/* ---- Entry points ------------------------------------------------------------------ */

static int
parse_root(struct yctx *c, yaml_node_t *root)
{
	static const struct yfield topo_field = { "topology", f_topology, S_OFF(topo), 0, 0, true,
		false, NULL };
	yaml_node_pair_t *pr;
	bool have_topo = false;

	if (root == NULL)
		return yerr(c, NULL, "empty scenario");
	if (root->type != YAML_MAPPING_NODE)
		return yerr(c, root, "a scenario must be a mapping, not %s", node_kind(root));
	for (pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);

		if (kn != NULL && vn != NULL && kn->type == YAML_SCALAR_NODE &&
				strcmp(scalar(kn), "topology") == 0 && !have_topo) {
			have_topo = true;
			if (f_topology(c, vn, c->s, &topo_field) != 0)
				return -1;
		}
	}
	if (!have_topo)
		return yerr(c, root, "the scenario: missing required key 'topology'");
	if (parse_map(c, root, "the scenario", root_fields, RTE_DIM(root_fields), c->s) != 0)
		return -1;
	return validate(c, root);
}

static void
base_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b != NULL ? b + 1 : path;
	n = strlen(b);
	if (n > 5 && strcmp(b + n - 5, ".yaml") == 0)
		n -= 5;
	else if (n > 4 && strcmp(b + n - 4, ".yml") == 0)
		n -= 4;
	if (n >= len)
		n = len - 1;
	memcpy(out, b, n);
	out[n] = '\0';
}

static int
load_text(struct yctx *c, const char *text, size_t len)
{
	yaml_parser_t parser;
	int ret;

	if (!yaml_parser_initialize(&parser))
		return yerr(c, NULL, "cannot initialise the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &c->docbuf)) {
		const yaml_mark_t *m =
				parser.problem_mark.line != 0 || parser.problem_mark.column != 0 ?
				&parser.problem_mark :
				&parser.context_mark;

		snprintf(c->err, c->errlen, "%s:%zu:%zu: YAML syntax error: %s", c->name,
				m->line + 1, m->column + 1,
				parser.problem != NULL ? parser.problem : "?");
		yaml_parser_delete(&parser);
		return -1;
	}
	c->doc = &c->docbuf;
	ret = parse_root(c, yaml_document_get_root_node(c->doc));
	yaml_document_delete(c->doc);
	c->doc = NULL;
	yaml_parser_delete(&parser);
	return ret;
}

struct pcc_sim_scenario *
pcc_sim_scenario_parse(const char *text, size_t len, const char *name, char *err, size_t errlen)
{
	struct pcc_sim_scenario *s;
	struct yctx c;
	char dummy[8];

	if (err == NULL || errlen == 0) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	err[0] = '\0';
	if (name == NULL)
		name = "<scenario>";
	if (text == NULL) {
		snprintf(err, errlen, "%s: no text", name);
		return NULL;
	}
	s = malloc(sizeof(*s));
	if (s == NULL) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	defaults(s);
	snprintf(s->file, sizeof(s->file), "%s", name);
	base_name(name, s->name, sizeof(s->name));
	memset(&c, 0, sizeof(c));
	c.name = name;
	c.err = err;
	c.errlen = errlen;
	c.s = s;
	if (load_text(&c, text, len) != 0) {
		pcc_sim_scenario_free(s);
		return NULL;
	}
	if (s->out.dir[0] == '\0')
		snprintf(s->out.dir, sizeof(s->out.dir), "sim-out/%s", s->name);
	else if (strcmp(s->out.dir, "none") == 0)
		s->out.dir[0] = '\0';
	return s;
}

struct pcc_sim_scenario *
pcc_sim_scenario_load(const char *path, char *err, size_t errlen)
{
	struct pcc_sim_scenario *s;
	char *text = NULL;
	size_t len = 0, cap = 0;
	FILE *f;

	if (path == NULL) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "no scenario file");
		return NULL;
	}
	f = fopen(path, "r");
	if (f == NULL) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *t = realloc(text, cap + 65536);

			if (t == NULL) {
				free(text);
				fclose(f);
				if (err != NULL && errlen > 0)
					snprintf(err, errlen, "%s: out of memory", path);
				return NULL;
			}
			text = t;
			cap += 65536;
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(text);
		fclose(f);
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "%s: read error", path);
		return NULL;
	}
	fclose(f);
	s = pcc_sim_scenario_parse(text, len, path, err, errlen);
	free(text);
	return s;
}

int
pcc_sim_scenario_set(struct pcc_sim_scenario *s, const char *key, const char *value, char *err,
		size_t errlen)
{
	char text[2 * PATH_MAX + 256], esc[2 * PATH_MAX + 64];
	const char *dot;
	struct yctx c;
	size_t i, o = 0;
	yaml_parser_t parser;
	yaml_document_t doc;
	int ret;

	if (s == NULL || key == NULL || value == NULL || strlen(value) > PATH_MAX ||
			strlen(key) > 64) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "bad override");
		return -1;
	}
	for (i = 0; value[i] != '\0' && o + 2 < sizeof(esc); i++) {
		if (value[i] == '"' || value[i] == '\\')
			esc[o++] = '\\';
		esc[o++] = value[i];
	}
	esc[o] = '\0';
	dot = strchr(key, '.');
	if (dot != NULL)
		snprintf(text, sizeof(text), "%.*s:\n  %s: \"%s\"\n", (int)(dot - key), key,
				dot + 1, esc);
	else
		snprintf(text, sizeof(text), "%s: \"%s\"\n", key, esc);
	memset(&c, 0, sizeof(c));
	c.name = "override";
	c.err = err;
	c.errlen = errlen;
	c.s = s;
	c.override = true;
	if (!yaml_parser_initialize(&parser))
		return yerr(&c, NULL, "cannot initialise the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	if (!yaml_parser_load(&parser, &doc)) {
		yaml_parser_delete(&parser);
		return yerr(&c, NULL, "bad key '%s'", key);
	}
	c.doc = &doc;
	ret = parse_map(&c, yaml_document_get_root_node(&doc), "overrides", root_fields,
			RTE_DIM(root_fields), s);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (ret != 0)
		return -1;
	if (strcmp(s->out.dir, "none") == 0)
		s->out.dir[0] = '\0';
	if (s->quantum_ns > s->duration_ns)
		return yerr(&c, NULL, "quantum is longer than the duration");
	return 0;
}

const char *
pcc_sim_scenario_name(const struct pcc_sim_scenario *s)
{
	return s != NULL ? s->name : NULL;
}

uint32_t
pcc_sim_scenario_algo_count(const struct pcc_sim_scenario *s)
{
	return s != NULL ? s->nb_algos : 0;
}

int
pcc_sim_scenario_algo_get(const struct pcc_sim_scenario *s, uint32_t idx, struct pcc_sim_algo *out)
{
	if (s == NULL || out == NULL || idx >= s->nb_algos)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->slot = s->algos[idx].slot;
	memcpy(out->name, s->algos[idx].name, sizeof(out->name));
	out->params = s->algos[idx].params;
	out->nb_params = s->algos[idx].nb_params;
	return 0;
}

static void
free_params(struct pcc_sim_scenario *s)
{
	uint32_t i, j;

	for (i = 0; i < s->nb_algos; i++) {
		for (j = 0; j < s->algos[i].nb_params; j++) {
			free((void *)(uintptr_t)s->algos[i].params[j].name);
			free((void *)(uintptr_t)s->algos[i].params[j].value);
		}
	}
}

void
pcc_sim_scenario_free(struct pcc_sim_scenario *s)
{
	if (s == NULL)
		return;
	free_params(s);
	free(s->flows);
	free(s);
}

struct pcc_sim_scenario *
sim_scenario_dup(const struct pcc_sim_scenario *s)
{
	struct pcc_sim_scenario *d = malloc(sizeof(*d));
	uint32_t i, j;

	if (d == NULL)
		return NULL;
	*d = *s;
	d->flows = NULL;
	for (i = 0; i < d->nb_algos; i++)
		for (j = 0; j < d->algos[i].nb_params; j++)
			d->algos[i].params[j].name = d->algos[i].params[j].value = NULL;
	d->flows = malloc(sizeof(*d->flows) * (s->nb_flows > 0 ? s->nb_flows : 1));
	if (d->flows == NULL)
		goto fail;
	memcpy(d->flows, s->flows, sizeof(*d->flows) * s->nb_flows);
	for (i = 0; i < d->nb_algos; i++) {
		for (j = 0; j < d->algos[i].nb_params; j++) {
			d->algos[i].params[j].name = strdup(s->algos[i].params[j].name);
			d->algos[i].params[j].value = strdup(s->algos[i].params[j].value);
			if (d->algos[i].params[j].name == NULL ||
					d->algos[i].params[j].value == NULL)
				goto fail;
		}
	}
	return d;
fail:
	pcc_sim_scenario_free(d);
	return NULL;
}
