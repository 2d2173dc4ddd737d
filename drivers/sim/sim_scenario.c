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

#include "pcc_file.h"
#include "sim_yaml_internal.h"

/* ---- Sections -------------------------------------------------------------- */

static int
f_link(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "rate", sy_f_rate, OFF(struct sim_link_conf, rate_bps), MIN_RATE, MAX_RATE, false,
				false, NULL },
		{ "delay", sy_f_time, OFF(struct sim_link_conf, delay_ns), 0, MAX_DELAY, false,
				false, NULL },
	};

	return sy_parse_map(c, v, f->key, fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

const char *const sim_topo_names[] = { "dumbbell", "incast", "leaf-spine", NULL };

static int
f_topology(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "type", sy_f_enum, OFF(struct sim_topo_conf, type), 0, 0, true, false,
				sim_topo_names },
		{ "senders", sy_f_u32, OFF(struct sim_topo_conf, senders), 1, 1024, false, false,
				NULL },
		{ "receivers", sy_f_u32, OFF(struct sim_topo_conf, receivers), 1, 1024, false,
				false, NULL },
		{ "leaves", sy_f_u32, OFF(struct sim_topo_conf, leaves), 1, 64, false, false,
				NULL },
		{ "spines", sy_f_u32, OFF(struct sim_topo_conf, spines), 1, 64, false, false,
				NULL },
		{ "hosts_per_leaf", sy_f_u32, OFF(struct sim_topo_conf, hosts_per_leaf), 1, 256,
				false, false, NULL },
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
					strcmp(sy_scalar(kn), "type") == 0) {
				if (sy_get_enum(c, vn, "type", sim_topo_names, &t->type) != 0)
					return -1;
				if (t->type == SIM_TOPO_INCAST)
					t->senders = 8;
			}
		}
	}
	if (sy_parse_map(c, v, "topology", fields, RTE_DIM(fields), t) != 0)
		return -1;
	return 0;
}

static const char *const ecn_names[] = { "red", "step", "off", NULL };

static int
f_ecn(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "mode", sy_f_enum, OFF(struct sim_ecn_conf, mode), 0, 0, false, false,
				ecn_names },
		{ "kmin", sy_f_size, OFF(struct sim_ecn_conf, kmin), 1, 1ull << 32, false, false,
				NULL },
		{ "kmax", sy_f_size, OFF(struct sim_ecn_conf, kmax), 1, 1ull << 32, false, false,
				NULL },
		{ "pmax", sy_f_frac, OFF(struct sim_ecn_conf, pmax), 0, 1000000, false, false,
				NULL },
		{ "k", sy_f_size, OFF(struct sim_ecn_conf, k), 1, 1ull << 32, false, false, NULL },
	};

	return sy_parse_map(c, v, "switch.ecn", fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

static const char *const ifa2_profile_names[] = { "dpdk-pcc", "doca", NULL };

/* Switch j of the topology named by sy_scalar n. */
static int
switch_lookup(struct yctx *c, const yaml_node_t *n, const char *key, uint32_t *j)
{
	const struct sim_topo_conf *t = &c->s->topo;
	uint32_t nsw = sim_topo_nb_switches(t);
	char name[PCC_SIM_NAME_LEN], last[PCC_SIM_NAME_LEN];

	for (*j = 0; *j < nsw; (*j)++) {
		sim_topo_switch_name(t, *j, name, sizeof(name));
		if (strcmp(name, sy_scalar(n)) == 0)
			return 0;
	}
	sim_topo_switch_name(t, 0, name, sizeof(name));
	sim_topo_switch_name(t, nsw - 1, last, sizeof(last));
	return sy_yerr(c, n, "'%s': no switch '%s' in this %s topology (switches %s .. %s)", key,
			sy_scalar(n), sim_topo_names[t->type], name, last);
}

/* switch.ifa2_profiles: {SWITCH: PROFILE, ...} */
static int
f_ifa2_profiles(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	uint8_t *prof = FIELD_PTR(obj, f, uint8_t);
	yaml_node_pair_t *pr;
	uint32_t j;

	if (v->type != YAML_MAPPING_NODE)
		return sy_yerr(c, v, "'%s' must be a mapping (switch: profile), not %s", f->key,
				sy_node_kind(v));
	for (pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);

		if (kn == NULL || vn == NULL || kn->type != YAML_SCALAR_NODE)
			return sy_yerr(c, v, "%s: keys must be switch names", f->key);
		if (switch_lookup(c, kn, f->key, &j) != 0)
			return -1;
		if (prof[j] != SIM_IFA2_PROFILE_UNSET)
			return sy_yerr(c, kn, "duplicate key '%s' in switch.%s", sy_scalar(kn),
					f->key);
		if (sy_get_enum(c, vn, sy_scalar(kn), ifa2_profile_names, &prof[j]) != 0)
			return -1;
	}
	return 0;
}

static int
f_switch(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "buffer", sy_f_size, OFF(struct sim_switch_conf, buffer), 10000, 1ull << 34,
				false, false, NULL },
		{ "port_buffer", sy_f_size, OFF(struct sim_switch_conf, port_buffer), 0, 1ull << 34,
				false, false, NULL },
		{ "ecn", f_ecn, OFF(struct sim_switch_conf, ecn), 0, 0, false, false, NULL },
		{ "int", sy_f_bool, OFF(struct sim_switch_conf, int_enabled), 0, 0, false, false,
				NULL },
		{ "ifa2", sy_f_bool, OFF(struct sim_switch_conf, ifa2), 0, 0, false, false, NULL },
		{ "ifa2_proto", sy_f_u8, OFF(struct sim_switch_conf, ifa2_proto), 1, 255, false,
				false, NULL },
		{ "ifa2_profile", sy_f_enum, OFF(struct sim_switch_conf, ifa2_profile), 0, 0, false,
				false, ifa2_profile_names },
		{ "ifa2_profiles", f_ifa2_profiles, OFF(struct sim_switch_conf, ifa2_profiles), 0,
				0, false, false, NULL },
	};

	return sy_parse_map(c, v, "switch", fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

static const char *const np_names[] = { "hw", "engine", NULL };
static const char *const np_rx_names[] = { "cc", "all", NULL };

/* A file path: as given when absolute, else next to the scenario file. */
static int
resolve_path(struct yctx *c, const yaml_node_t *n, const char *key, char *out, size_t len)
{
	const char *p = sy_scalar(n), *slash = strrchr(c->name, '/');
	int w;

	if (p[0] == '\0')
		return sy_yerr(c, n, "'%s': an empty path", key);
	if (p[0] == '/' || slash == NULL)
		w = snprintf(out, len, "%s", p);
	else
		w = snprintf(out, len, "%.*s/%s", (int)(slash - c->name), c->name, p);
	if (w < 0 || (size_t)w >= len)
		return sy_yerr(c, n, "'%s': path too long", key);
	return 0;
}

/* hosts.np_app: a plug-in path (resolved against the scenario's
 * directory), or a loaded plug-in's name (no '/', not ending in .so),
 * kept as written */
static int
f_np_app(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	const char *p;
	size_t n;

	if (sy_get_scalar(c, v, f->key) != 0)
		return -1;
	p = sy_scalar(v);
	n = strlen(p);
	if (strchr(p, '/') == NULL && (n <= 3 || strcmp(p + n - 3, ".so") != 0)) {
		if (n >= PATH_MAX)
			return sy_yerr(c, v, "'%s': name too long", f->key);
		memcpy(FIELD_PTR(obj, f, char), p, n + 1);
		return 0;
	}
	return resolve_path(c, v, f->key, FIELD_PTR(obj, f, char), PATH_MAX);
}

static int
hex_digit(char x)
{
	if (x >= '0' && x <= '9')
		return x - '0';
	if (x >= 'a' && x <= 'f')
		return x - 'a' + 10;
	if (x >= 'A' && x <= 'F')
		return x - 'A' + 10;
	return -1;
}

/* hosts.np_mailbox: bytes in hex ("fe000000"), 1..SIM_MAILBOX_MAX */
static int
f_mailbox(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	struct sim_host_conf *h = obj;
	const char *p;
	size_t n, i;

	RTE_SET_USED(f);
	if (sy_get_scalar(c, v, "np_mailbox") != 0)
		return -1;
	p = sy_scalar(v);
	if (strncmp(p, "0x", 2) == 0)
		p += 2;
	n = strlen(p);
	if (n == 0 || n % 2 != 0 || n / 2 > SIM_MAILBOX_MAX)
		return sy_yerr(c, v, "'np_mailbox': '%s' is not 1..%u bytes in hex", sy_scalar(v),
				SIM_MAILBOX_MAX);
	for (i = 0; i < n / 2; i++) {
		int hi = hex_digit(p[2 * i]), lo = hex_digit(p[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return sy_yerr(c, v, "'np_mailbox': '%s' is not hex", sy_scalar(v));
		h->np_mailbox[i] = (uint8_t)(hi << 4 | lo);
	}
	h->np_mailbox_len = (uint16_t)(n / 2);
	return 0;
}

/* plugins: a list of plug-in paths */
static int
f_plugins(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	yaml_node_item_t *it;
	yaml_node_t *n;

	RTE_SET_USED(obj);
	RTE_SET_USED(f);
	if (v->type != YAML_SEQUENCE_NODE)
		return sy_yerr(c, v, "'plugins' must be a list of paths, not %s", sy_node_kind(v));
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		n = yaml_document_get_node(c->doc, *it);
		if (n == NULL || sy_get_scalar(c, n, "plugins") != 0)
			return -1;
		if (c->s->nb_plugins == SIM_PLUGINS_MAX)
			return sy_yerr(c, n, "more than %u plug-ins", SIM_PLUGINS_MAX);
		if (resolve_path(c, n, "plugins", c->s->plugins[c->s->nb_plugins], PATH_MAX) != 0)
			return -1;
		c->s->nb_plugins++;
	}
	return 0;
}

/* hosts.cnp_gap: also records that it was given (profiles check it). */
static int
f_cnp_gap(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	struct sim_host_conf *h = obj;

	if (sy_f_time(c, v, obj, f) != 0)
		return -1;
	h->cnp_gap_set = true;
	return 0;
}

/* base_rtt: auto (from the topology) or a time. */
static int
f_base_rtt(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	if (v->type == YAML_SCALAR_NODE && strcmp(sy_scalar(v), "auto") == 0) {
		*FIELD_PTR(obj, f, uint64_t) = 0;
		return 0;
	}
	return sy_get_u64(c, v, f->key, PCC_UNIT_TIME, "'auto' or " WHAT_TIME, f->min, f->max,
			FIELD_PTR(obj, f, uint64_t));
}

static int
f_hosts(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "np", sy_f_enum, OFF(struct sim_host_conf, np), 0, 0, false, false, np_names },
		{ "np_rx", sy_f_enum, OFF(struct sim_host_conf, np_rx), 0, 0, false, false,
				np_rx_names },
		{ "ack_every", sy_f_u32, OFF(struct sim_host_conf, ack_every), 1, 65536, false,
				false, NULL },
		{ "ack_timeout", sy_f_time, OFF(struct sim_host_conf, ack_timeout_ns), 0, MAX_DELAY,
				false, false, NULL },
		{ "cnp_gap", f_cnp_gap, OFF(struct sim_host_conf, cnp_gap_ns), 0, MAX_DELAY, false,
				true, NULL },
		{ "cnp_dscp", sy_f_u8, OFF(struct sim_host_conf, cnp_dscp), 0, 63, false, false,
				NULL },
		{ "np_turnaround", sy_f_time, OFF(struct sim_host_conf, np_turnaround_ns), 0,
				MAX_DELAY, false, false, NULL },
		{ "probe_ts_size", sy_f_u8, OFF(struct sim_host_conf, probe_ts_size), 0, 32, false,
				false, NULL },
		{ "probe_ts_shift", sy_f_u8, OFF(struct sim_host_conf, probe_ts_shift), 0, 63,
				false, false, NULL },
		{ "np_app", f_np_app, OFF(struct sim_host_conf, np_app), 0, 0, false, false, NULL },
		{ "np_mailbox", f_mailbox, 0, 0, 0, false, false, NULL },
	};

	return sy_parse_map(c, v, "hosts", fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

static int
f_res(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "mbufs", sy_f_u32, OFF(struct sim_res_conf, mbufs), 255, 1u << 24, false, false,
				NULL },
		{ "packets", sy_f_u32, OFF(struct sim_res_conf, packets), 255, 1u << 26, false,
				false, NULL },
		{ "ring_size", sy_f_u32, OFF(struct sim_res_conf, ring_size), 64, 1u << 20, false,
				false, NULL },
		{ "tx_queues", sy_f_u16, OFF(struct sim_res_conf, tx_queues), 1, 16, false, false,
				NULL },
		{ "hosts_per_port", sy_f_u16, OFF(struct sim_res_conf, hosts_per_port), 1,
				SIM_HOSTS_PER_PORT_MAX, false, false, NULL },
		{ "qpn_base", sy_f_u32, OFF(struct sim_res_conf, qpn_base), 2, PCC_QPN_MASK, false,
				false, NULL },
		{ "end_on_completion", sy_f_bool, OFF(struct sim_res_conf, end_on_completion), 0, 0,
				false, false, NULL },
	};

	return sy_parse_map(c, v, "sim", fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

static int
f_output(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	static const struct yfield fields[] = {
		{ "dir", sy_f_str, OFF(struct sim_out_conf, dir), 0, PATH_MAX, false, true, NULL },
		{ "sample", sy_f_time, OFF(struct sim_out_conf, sample_ns), 100, 1000 * MS, false,
				true, NULL },
		{ "window", sy_f_frac, OFF(struct sim_out_conf, window), 1, 1000000, false, true,
				NULL },
		{ "plots", sy_f_bool, OFF(struct sim_out_conf, plots), 0, 0, false, true, NULL },
		{ "progress", sy_f_bool, OFF(struct sim_out_conf, progress), 0, 0, false, true,
				NULL },
	};

	return sy_parse_map(c, v, "output", fields, RTE_DIM(fields), FIELD_PTR(obj, f, void));
}

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
	{ "name", sy_f_str, S_OFF(name), 0, sizeof(((struct pcc_sim_scenario *)0)->name), false,
			false, NULL },
	{ "description", sy_f_str, S_OFF(description), 0,
			sizeof(((struct pcc_sim_scenario *)0)->description), false, false, NULL },
	{ "seed", sy_f_u64, S_OFF(seed), 0, UINT64_MAX - 1, false, true, NULL },
	{ "duration", sy_f_time, S_OFF(duration_ns), 1000, 1000000 * MS, false, true, NULL },
	{ "quantum", sy_f_time, S_OFF(quantum_ns), 1, 1000 * MS, false, true, NULL },
	{ "topology", f_skip, SIZE_MAX, 0, 0, true, false, NULL },
	{ "switch", f_switch, S_OFF(sw), 0, 0, false, false, NULL },
	{ "base_rtt", f_base_rtt, S_OFF(base_rtt_ns), 100, 100 * MS, false, true, NULL },
	{ "hosts", f_hosts, S_OFF(host), 0, 0, false, true, NULL },
	{ "plugins", f_plugins, 0, 0, 0, false, false, NULL },
	{ "algorithms", sy_f_algos, 0, 0, 0, false, false, NULL },
	{ "flows", sy_f_flows, 0, 0, 0, true, false, NULL },
	{ "sim", f_res, S_OFF(res), 0, 0, false, false, NULL },
	{ "output", f_output, S_OFF(out), 0, 0, false, true, NULL },
};

/* ---- Entry points ------------------------------------------------------------------ */

static int
parse_root(struct yctx *c, yaml_node_t *root)
{
	static const struct yfield topo_field = { "topology", f_topology, S_OFF(topo), 0, 0, true,
		false, NULL };
	yaml_node_pair_t *pr;
	bool have_topo = false;

	if (root == NULL)
		return sy_yerr(c, NULL, "empty scenario");
	if (root->type != YAML_MAPPING_NODE)
		return sy_yerr(c, root, "a scenario must be a mapping, not %s", sy_node_kind(root));
	for (pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);

		if (kn != NULL && vn != NULL && kn->type == YAML_SCALAR_NODE &&
				strcmp(sy_scalar(kn), "topology") == 0 && !have_topo) {
			have_topo = true;
			if (f_topology(c, vn, c->s, &topo_field) != 0)
				return -1;
		}
	}
	if (!have_topo)
		return sy_yerr(c, root, "the scenario: missing required key 'topology'");
	if (sy_parse_map(c, root, "the scenario", root_fields, RTE_DIM(root_fields), c->s) != 0)
		return -1;
	return sy_validate(c, root);
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
	int ret;

	if (pcc_flowspec_yaml_load(text, len, c->name, &c->docbuf, c->err, c->errlen) != 0)
		return -1;
	c->doc = &c->docbuf;
	ret = parse_root(c, yaml_document_get_root_node(c->doc));
	yaml_document_delete(c->doc);
	c->doc = NULL;
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
	sy_defaults(s);
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
	/* the name is a directory under sim-out/: one path component */
	if (s->name[0] == '\0' || strchr(s->name, '/') != NULL || strcmp(s->name, ".") == 0 ||
			strcmp(s->name, "..") == 0) {
		snprintf(err, errlen,
				"%s: name '%s': one file name, not a path (no '/', not . or ..)",
				name, s->name);
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
	char why[PCC_FILE_WHY_LEN];
	struct pcc_sim_scenario *s;
	char *text = NULL;
	size_t len = 0, cap = 0;
	FILE *f;

	if (path == NULL) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "no scenario file");
		return NULL;
	}
	/* a regular file of bounded size: no FIFO, no device (pcc_file.h) */
	f = pcc_file_fopen_input(path, PCC_FILE_INPUT_MAX, why, sizeof(why));
	if (f == NULL) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "%s", why);
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
pcc_sim_scenario_check(const struct pcc_sim_scenario *s, char *err, size_t errlen)
{
	char why[PCC_FILE_WHY_LEN];

	if (s == NULL || s->out.dir[0] == '\0')
		return 0;
	if (pcc_file_dir_usable(s->out.dir, why, sizeof(why)) < 0) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "output.dir: %s", why);
		return -1;
	}
	return 0;
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
		return sy_yerr(&c, NULL, "cannot initialise the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	if (!yaml_parser_load(&parser, &doc)) {
		yaml_parser_delete(&parser);
		return sy_yerr(&c, NULL, "bad key '%s'", key);
	}
	c.doc = &doc;
	ret = sy_parse_map(&c, yaml_document_get_root_node(&doc), "overrides", root_fields,
			RTE_DIM(root_fields), s);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (ret != 0)
		return -1;
	if (strcmp(s->out.dir, "none") == 0)
		s->out.dir[0] = '\0';
	if (s->quantum_ns > s->duration_ns)
		return sy_yerr(&c, NULL, "quantum is longer than the duration");
	return 0;
}
