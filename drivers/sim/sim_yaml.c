/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * YAML machinery of the scenario parser (libyaml document API): every
 * mapping is checked against a table of known keys; unknown keys,
 * duplicates, wrong node types, values out of range and missing required
 * keys are errors reported as "FILE:LINE:COLUMN: message" (1-based).
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_debug.h>

#include "sim_yaml_internal.h"

int __rte_format_printf(3, 4) sy_yerr(struct yctx *c, const yaml_node_t *n, const char *fmt, ...)
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

const char *
sy_scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

const char *
sy_node_kind(const yaml_node_t *n)
{
	return pcc_flowspec_node_kind(n);
}

/* ---- Typed scalars (units: pcc_unit_parse(), lib/flowspec) ---------------- */

int
sy_get_scalar(struct yctx *c, const yaml_node_t *n, const char *key)
{
	if (n->type != YAML_SCALAR_NODE)
		return sy_yerr(c, n, "'%s' must be a scalar, not %s", key, sy_node_kind(n));
	return 0;
}

int
sy_get_u64(struct yctx *c, const yaml_node_t *n, const char *key, enum pcc_unit units,
		const char *what, uint64_t min, uint64_t max, uint64_t *out)
{
	int rc;

	if (sy_get_scalar(c, n, key) != 0)
		return -1;
	/* integers exactly (a seed in hex), the rest rounded */
	rc = pcc_unit_parse_u64(sy_scalar(n), units, out);
	if (rc == -EINVAL)
		return sy_yerr(c, n, "'%s': '%s' is not %s", key, sy_scalar(n), what);
	if (rc == -ERANGE || *out < min || *out > max)
		return sy_yerr(c, n, "'%s': %s is out of range [%" PRIu64 ", %" PRIu64 "]", key,
				sy_scalar(n), min, max);
	return 0;
}

int
sy_get_double(struct yctx *c, const yaml_node_t *n, const char *key, double min, double max,
		double *out)
{
	double v;

	if (sy_get_scalar(c, n, key) != 0)
		return -1;
	if (pcc_unit_parse(sy_scalar(n), PCC_UNIT_PLAIN, &v) != 0)
		return sy_yerr(c, n, "'%s': '%s' is not a number", key, sy_scalar(n));
	if (v < min || v > max)
		return sy_yerr(c, n, "'%s': %s is out of range [%g, %g]", key, sy_scalar(n), min,
				max);
	*out = v;
	return 0;
}

int
sy_get_bool(struct yctx *c, const yaml_node_t *n, const char *key, bool *out)
{
	static const char *const t[] = { "true", "yes", "on", "1", "True", "TRUE" };
	static const char *const f[] = { "false", "no", "off", "0", "False", "FALSE" };
	unsigned int i;

	if (sy_get_scalar(c, n, key) != 0)
		return -1;
	for (i = 0; i < RTE_DIM(t); i++) {
		if (strcmp(sy_scalar(n), t[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcmp(sy_scalar(n), f[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return sy_yerr(c, n, "'%s': '%s' is not a boolean (true/false)", key, sy_scalar(n));
}

int
sy_get_enum(struct yctx *c, const yaml_node_t *n, const char *key, const char *const *names,
		uint8_t *out)
{
	char list[256] = "";
	unsigned int i;

	if (sy_get_scalar(c, n, key) != 0)
		return -1;
	for (i = 0; names[i] != NULL; i++) {
		if (strcmp(sy_scalar(n), names[i]) == 0) {
			*out = (uint8_t)i;
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
				names[i]);
	}
	return sy_yerr(c, n, "'%s': '%s' is not one of: %s", key, sy_scalar(n), list);
}

int
sy_get_str(struct yctx *c, const yaml_node_t *n, const char *key, char *out, size_t len)
{
	if (sy_get_scalar(c, n, key) != 0)
		return -1;
	if (strlen(sy_scalar(n)) >= len)
		return sy_yerr(c, n, "'%s': longer than %zu characters", key, len - 1);
	snprintf(out, len, "%s", sy_scalar(n));
	return 0;
}

/* ---- Mappings -------------------------------------------------------------- */

int
sy_parse_map(struct yctx *c, const yaml_node_t *n, const char *ctx, const struct yfield *fields,
		unsigned int nf, void *obj)
{
	bool seen[32] = { false };
	yaml_node_pair_t *pr;
	unsigned int i;

	RTE_VERIFY(nf <= RTE_DIM(seen));
	if (n->type != YAML_MAPPING_NODE)
		return sy_yerr(c, n, "%s must be a mapping, not %s", ctx, sy_node_kind(n));
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, pr->value);

		if (kn == NULL || vn == NULL)
			return sy_yerr(c, n, "%s: malformed entry", ctx);
		if (kn->type != YAML_SCALAR_NODE)
			return sy_yerr(c, kn, "%s: keys must be scalars", ctx);
		for (i = 0; i < nf; i++)
			if (strcmp(sy_scalar(kn), fields[i].key) == 0)
				break;
		if (i == nf || (c->override && !fields[i].override)) {
			char list[512] = "";
			unsigned int k;

			for (k = 0; k < nf; k++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
						k ? ", " : "", fields[k].key);
			if (i < nf)
				return sy_yerr(c, kn, "'%s' cannot be overridden", sy_scalar(kn));
			return sy_yerr(c, kn, "unknown key '%s' in %s (known: %s)", sy_scalar(kn),
					ctx, list);
		}
		if (seen[i])
			return sy_yerr(c, kn, "duplicate key '%s' in %s", sy_scalar(kn), ctx);
		seen[i] = true;
		if (fields[i].fn(c, vn, obj, &fields[i]) != 0)
			return -1;
	}
	if (c->override)
		return 0;
	for (i = 0; i < nf; i++)
		if (fields[i].required && !seen[i])
			return sy_yerr(c, n, "%s: missing required key '%s'", ctx, fields[i].key);
	return 0;
}

int
sy_f_size(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return sy_get_u64(c, v, f->key, PCC_UNIT_SIZE, WHAT_SIZE, f->min, f->max,
			FIELD_PTR(obj, f, uint64_t));
}

int
sy_f_time(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return sy_get_u64(c, v, f->key, PCC_UNIT_TIME, WHAT_TIME, f->min, f->max,
			FIELD_PTR(obj, f, uint64_t));
}

int
sy_f_rate(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return sy_get_u64(c, v, f->key, PCC_UNIT_RATE, WHAT_RATE, f->min, f->max,
			FIELD_PTR(obj, f, uint64_t));
}

int
sy_f_u64(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return sy_get_u64(c, v, f->key, PCC_UNIT_PLAIN, WHAT_INT, f->min, f->max,
			FIELD_PTR(obj, f, uint64_t));
}

int
sy_f_u32(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	uint64_t x;

	if (sy_get_u64(c, v, f->key, PCC_UNIT_PLAIN, WHAT_INT, f->min, f->max, &x) != 0)
		return -1;
	*FIELD_PTR(obj, f, uint32_t) = (uint32_t)x;
	return 0;
}

int
sy_f_u16(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	uint64_t x;

	if (sy_get_u64(c, v, f->key, PCC_UNIT_PLAIN, WHAT_INT, f->min, f->max, &x) != 0)
		return -1;
	*FIELD_PTR(obj, f, uint16_t) = (uint16_t)x;
	return 0;
}

int
sy_f_u8(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	uint64_t x;

	if (sy_get_u64(c, v, f->key, PCC_UNIT_PLAIN, WHAT_INT, f->min, f->max, &x) != 0)
		return -1;
	*FIELD_PTR(obj, f, uint8_t) = (uint8_t)x;
	return 0;
}

int
sy_f_bool(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return sy_get_bool(c, v, f->key, FIELD_PTR(obj, f, bool));
}

int
sy_f_enum(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return sy_get_enum(c, v, f->key, f->arg, FIELD_PTR(obj, f, uint8_t));
}

/* f->max is the buffer size */
int
sy_f_str(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return sy_get_str(c, v, f->key, FIELD_PTR(obj, f, char), (size_t)f->max);
}

/* probability / fraction in [min/1e6, max/1e6] */
int
sy_f_frac(struct yctx *c, const yaml_node_t *v, void *obj, const struct yfield *f)
{
	return sy_get_double(c, v, f->key, (double)f->min / 1e6, (double)f->max / 1e6,
			FIELD_PTR(obj, f, double));
}
