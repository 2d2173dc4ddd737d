/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef SIM_YAML_INTERNAL_H
#define SIM_YAML_INTERNAL_H

/*
 * The scenario parser's YAML machinery (sim_yaml.c): errors as
 * "FILE:LINE:COLUMN: message", typed scalars with units, and tables of
 * known keys (struct yfield) parsed by sy_parse_map().  The sections are
 * in sim_scenario.c and sim_scenario_flows.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include <rte_common.h>

#include "pcc_flowspec.h"
#include "sim_internal.h"

#define GBPS 1000000000ull
#define US 1000ull
#define MS 1000000ull
#define OFF(type, m) offsetof(type, m)
#define MAX_RATE (400 * GBPS)
#define MIN_RATE (10 * GBPS)
#define MAX_DELAY (1000 * MS)

/* Topology type names, by enum sim_topo_type. */
extern const char *const sim_topo_names[];

struct yctx {
	yaml_document_t *doc;
	yaml_document_t docbuf;
	const char *name;
	char *err;
	size_t errlen;
	struct pcc_sim_scenario *s;
	bool override; /* pcc_sim_scenario_set(): only some keys */
};

#define WHAT_SIZE PCC_UNIT_WHAT_SIZE
#define WHAT_TIME PCC_UNIT_WHAT_TIME
#define WHAT_RATE PCC_UNIT_WHAT_RATE
#define WHAT_INT PCC_UNIT_WHAT_INT

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

#define FIELD_PTR(obj, f, type) ((type *)(void *)((char *)(obj) + (f)->off))

int sy_yerr(struct yctx *c, const yaml_node_t *n, const char *fmt, ...) __rte_format_printf(3, 4);
const char *sy_scalar(const yaml_node_t *n);
const char *sy_node_kind(const yaml_node_t *n);
int sy_get_scalar(struct yctx *c, const yaml_node_t *n, const char *key);
int sy_get_u64(struct yctx *c, const yaml_node_t *n, const char *key, enum pcc_unit units,
		const char *what, uint64_t min, uint64_t max, uint64_t *out);
int sy_get_double(struct yctx *c, const yaml_node_t *n, const char *key, double min, double max,
		double *out);
int sy_get_bool(struct yctx *c, const yaml_node_t *n, const char *key, bool *out);
int sy_get_enum(struct yctx *c, const yaml_node_t *n, const char *key, const char *const *names,
		uint8_t *out);
int sy_get_str(struct yctx *c, const yaml_node_t *n, const char *key, char *out, size_t len);
int sy_parse_map(struct yctx *c, const yaml_node_t *n, const char *ctx, const struct yfield *fields,
		unsigned int nf, void *obj);
int sy_f_size(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_time(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_rate(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_u64(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_u32(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_u16(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_u8(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_bool(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_enum(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_str(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_frac(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);

/* A scenario's defaults and cross-section checks (sim_scenario_check.c). */
void sy_defaults(struct pcc_sim_scenario *s);
int sy_validate(struct yctx *c, const yaml_node_t *root);

/* The algorithms: and flows: sections (sim_scenario_flows.c). */
int sy_f_algos(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);
int sy_f_flows(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f);

#endif /* SIM_YAML_INTERNAL_H */
