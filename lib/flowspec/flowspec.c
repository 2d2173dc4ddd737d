/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Flow groups in YAML (pcc_flowspec.h, doc/flows.md). */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "pcc_flowspec.h"

/* ---- Units ------------------------------------------------------------------ */

struct unit {
	const char *sfx;
	double mult;
};

static const struct unit plain_units[] = { { "", 1 }, { NULL, 0 } };

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

static const struct unit *const units_of[] = {
	[PCC_UNIT_PLAIN] = plain_units,
	[PCC_UNIT_SIZE] = size_units,
	[PCC_UNIT_TIME] = time_units,
	[PCC_UNIT_RATE] = rate_units,
};

static const char *const what_of[] = {
	[PCC_UNIT_PLAIN] = PCC_UNIT_WHAT_INT,
	[PCC_UNIT_SIZE] = PCC_UNIT_WHAT_SIZE,
	[PCC_UNIT_TIME] = PCC_UNIT_WHAT_TIME,
	[PCC_UNIT_RATE] = PCC_UNIT_WHAT_RATE,
};

const char *
pcc_unit_what(enum pcc_unit unit)
{
	return (unsigned int)unit < RTE_DIM(what_of) ? what_of[unit] : "a number";
}

int
pcc_unit_parse(const char *s, enum pcc_unit unit, double *out)
{
	const struct unit *u;
	const char *end;
	char num[64], *e2;
	size_t n;
	double v;

	if (s == NULL || (unsigned int)unit >= RTE_DIM(units_of))
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		unsigned long long x;

		/* hexadecimal: integers without a unit */
		if (unit != PCC_UNIT_PLAIN || !isxdigit((unsigned char)s[2]))
			return -1;
		errno = 0;
		x = strtoull(s, &e2, 16);
		if (errno != 0 || *e2 != '\0')
			return -1;
		*out = (double)x;
		return 0;
	}
	if (!isdigit((unsigned char)s[0]) && !(s[0] == '.' && isdigit((unsigned char)s[1])))
		return -1;
	/* no exponents, hex floats, inf or nan: digits and one dot only */
	for (end = s; isdigit((unsigned char)*end) || *end == '.'; end++)
		;
	n = (size_t)(end - s);
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
	while (isspace((unsigned char)*end))
		end++;
	for (u = units_of[unit]; u->sfx != NULL; u++) {
		if (strcmp(end, u->sfx) == 0) {
			*out = v * u->mult;
			return 0;
		}
	}
	return -1;
}

int
pcc_unit_parse_u64(const char *s, enum pcc_unit unit, uint64_t *out)
{
	unsigned long long x;
	char *end;
	double d;

	if (s == NULL)
		return -EINVAL;
	while (isspace((unsigned char)*s))
		s++;
	if (unit == PCC_UNIT_PLAIN && isdigit((unsigned char)s[0])) {
		/* integers exactly (hexadecimal too), not through a double */
		int base = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;

		if (base == 16 && !isxdigit((unsigned char)s[2]))
			return -EINVAL;
		errno = 0;
		x = strtoull(s, &end, base);
		if (*end == '\0') {
			if (errno == ERANGE)
				return -ERANGE;
			*out = x;
			return 0;
		}
		if (base == 16)
			return -EINVAL;
	}
	/* integers have no fraction */
	if (pcc_unit_parse(s, unit, &d) != 0 || (unit == PCC_UNIT_PLAIN && strchr(s, '.') != NULL))
		return -EINVAL;
	if (d >= 18446744073709549568.0) /* the largest double below 2^64 */
		return -ERANGE;
	if (d > 0 && d < 1) {
		*out = 0;
		return -EDOM;
	}
	*out = (uint64_t)llround(d);
	return 0;
}

/* ---- Errors ----------------------------------------------------------------- */

int
pcc_flowspec_error(char *err, size_t errlen, const char *name, const yaml_node_t *n,
		const char *fmt, ...)
{
	char why[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (err == NULL || errlen == 0)
		return -1;
	if (n != NULL)
		snprintf(err, errlen, "%s:%zu:%zu: %s", name, n->start_mark.line + 1,
				n->start_mark.column + 1, why);
	else
		snprintf(err, errlen, "%s: %s", name, why);
	return -1;
}

/* ---- Documents ------------------------------------------------------------- */

static int
syntax_error(yaml_parser_t *p, const char *text, size_t len, const char *name, char *err,
		size_t errlen)
{
	yaml_mark_t m = p->problem_mark.line != 0 || p->problem_mark.column != 0 ? p->problem_mark :
										   p->context_mark;
	size_t i;

	if (p->error == YAML_READER_ERROR) {
		/* bad encoding or a control character: libyaml gives only the
		 * byte offset */
		m.line = 0;
		m.column = 0;
		for (i = 0; i < p->problem_offset && i < len; i++) {
			if (text[i] == '\n') {
				m.line++;
				m.column = 0;
			} else {
				m.column++;
			}
		}
	}

	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s:%zu:%zu: YAML syntax error: %s%s%s", name, m.line + 1,
				m.column + 1, p->problem != NULL ? p->problem : "?",
				p->context != NULL ? " " : "",
				p->context != NULL ? p->context : "");
	return -1;
}

int
pcc_flowspec_yaml_load(const char *text, size_t len, const char *name, yaml_document_t *doc,
		char *err, size_t errlen)
{
	yaml_document_t next;
	yaml_parser_t parser;
	int ret = 0;

	if (!yaml_parser_initialize(&parser))
		return pcc_flowspec_error(err, errlen, name, NULL, "cannot start the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, doc)) {
		syntax_error(&parser, text, len, name, err, errlen);
		yaml_parser_delete(&parser);
		return -1;
	}
	/* one document per file: a second one is an error, not ignored */
	if (!yaml_parser_load(&parser, &next)) {
		ret = syntax_error(&parser, text, len, name, err, errlen);
	} else {
		if (yaml_document_get_root_node(&next) != NULL) {
			if (err != NULL && errlen > 0)
				snprintf(err, errlen,
						"%s:%zu:%zu: a second YAML document: one per file",
						name, next.start_mark.line + 1,
						next.start_mark.column + 1);
			ret = -1;
		}
		yaml_document_delete(&next);
	}
	yaml_parser_delete(&parser);
	if (ret != 0)
		yaml_document_delete(doc);
	return ret;
}

/* ---- Flow groups ------------------------------------------------------------ */

static const char *const key_names[PCC_FLOWSPEC_KEYS] = {
	[PCC_FLOWSPEC_COUNT] = "count",
	[PCC_FLOWSPEC_QPN] = "qpn",
	[PCC_FLOWSPEC_DST_QPN] = "dst_qpn",
	[PCC_FLOWSPEC_SIZE] = "size",
	[PCC_FLOWSPEC_PAYLOAD] = "payload",
	[PCC_FLOWSPEC_START] = "start",
	[PCC_FLOWSPEC_STAGGER] = "stagger",
	[PCC_FLOWSPEC_RATE] = "rate",
	[PCC_FLOWSPEC_SLOT] = "slot",
	[PCC_FLOWSPEC_PORT] = "port",
	[PCC_FLOWSPEC_SRC] = "src",
	[PCC_FLOWSPEC_DST] = "dst",
	[PCC_FLOWSPEC_SOURCE] = "source",
};

/* How each key's value reads: unit and range (src, dst, source: own rules). */
static const struct {
	enum pcc_unit unit;
	uint64_t min;
	uint64_t max;
} key_range[PCC_FLOWSPEC_KEYS] = {
	[PCC_FLOWSPEC_COUNT] = { PCC_UNIT_PLAIN, 1, PCC_FLOWSPEC_COUNT_MAX },
	[PCC_FLOWSPEC_QPN] = { PCC_UNIT_PLAIN, 2, PCC_FLOWSPEC_QPN_MAX },
	[PCC_FLOWSPEC_DST_QPN] = { PCC_UNIT_PLAIN, 2, PCC_FLOWSPEC_QPN_MAX },
	[PCC_FLOWSPEC_SIZE] = { PCC_UNIT_SIZE, 0, PCC_FLOWSPEC_SIZE_MAX },
	[PCC_FLOWSPEC_PAYLOAD] = { PCC_UNIT_SIZE, 1, PCC_FLOWSPEC_PAYLOAD_MAX },
	[PCC_FLOWSPEC_START] = { PCC_UNIT_TIME, 0, PCC_FLOWSPEC_TIME_MAX },
	[PCC_FLOWSPEC_STAGGER] = { PCC_UNIT_TIME, 0, PCC_FLOWSPEC_TIME_MAX },
	[PCC_FLOWSPEC_RATE] = { PCC_UNIT_RATE, 0, PCC_FLOWSPEC_RATE_MAX },
	[PCC_FLOWSPEC_SLOT] = { PCC_UNIT_PLAIN, 0, PCC_FLOWSPEC_SLOT_MAX },
	[PCC_FLOWSPEC_PORT] = { PCC_UNIT_PLAIN, 0, 65535 },
};

/* Spellings of earlier --gen-file versions, refused with the new one:
 * the key and the unit its bare numbers had. */
static const struct {
	const char *old;
	const char *now;
	const char *unit;
} renamed[] = {
	{ "start_us", "start", "us" },
	{ "rate_mbps", "rate", "M" },
};

static const char *
scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

const char *
pcc_flowspec_node_kind(const yaml_node_t *n)
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

/* The keys of mask, "a, b, c", into buf. */
static const char *
key_list(uint32_t mask, char *buf, size_t len)
{
	unsigned int k;
	size_t o = 0;

	buf[0] = '\0';
	for (k = 0; k < PCC_FLOWSPEC_KEYS; k++)
		if (mask & PCC_FLOWSPEC_BIT(k))
			o += (size_t)snprintf(buf + RTE_MIN(o, len - 1), len - RTE_MIN(o, len - 1),
					"%s%s", o != 0 ? ", " : "", key_names[k]);
	return buf;
}

/* Why key k is not taken here. */
static const char *
not_here(unsigned int k)
{
	if (k == PCC_FLOWSPEC_PORT)
		return "names a DPDK port: --gen-file only; a scenario's flows name hosts "
		       "(src, dst)";
	return "simulator scenarios only: a live run's flows leave from RP ports "
	       "('port')";
}

static int
value(const char *name, char *err, size_t errlen, unsigned int k, const yaml_node_t *v,
		uint64_t *out)
{
	enum pcc_unit u = key_range[k].unit;
	const char *s;
	int rc;

	if (v->type != YAML_SCALAR_NODE)
		return pcc_flowspec_error(err, errlen, name, v, "'%s' must be a scalar, not %s",
				key_names[k], pcc_flowspec_node_kind(v));
	s = scalar(v);
	if (k == PCC_FLOWSPEC_SIZE && (strcmp(s, "infinite") == 0 || strcmp(s, "inf") == 0)) {
		*out = 0;
		return 0;
	}
	if (k == PCC_FLOWSPEC_RATE && strcmp(s, "line") == 0) {
		*out = 0;
		return 0;
	}
	rc = pcc_unit_parse_u64(s, u, out);
	if (rc == -EINVAL)
		return pcc_flowspec_error(err, errlen, name, v, "'%s': '%s' is not %s%s",
				key_names[k], s, pcc_unit_what(u),
				k == PCC_FLOWSPEC_SIZE                 ? " or 'infinite'" :
						k == PCC_FLOWSPEC_RATE ? " or 'line'" :
									 "");
	if (rc == -EDOM)
		/* 0 means infinite or line: a tiny value is not that */
		return pcc_flowspec_error(err, errlen, name, v,
				"'%s': %s is above 0 but below 1 %s", key_names[k], s,
				u == PCC_UNIT_SIZE                 ? "byte" :
						u == PCC_UNIT_RATE ? "b/s" :
						u == PCC_UNIT_TIME ? "ns" :
								     "");
	if (rc != 0 || *out < key_range[k].min || *out > key_range[k].max)
		return pcc_flowspec_error(err, errlen, name, v,
				"'%s': %s is out of range [%" PRIu64 ", %" PRIu64 "]%s",
				key_names[k], s, key_range[k].min, key_range[k].max,
				k == PCC_FLOWSPEC_SIZE                 ? " bytes" :
						k == PCC_FLOWSPEC_RATE ? " b/s" :
						u == PCC_UNIT_TIME     ? " ns" :
									 "");
	return 0;
}

static int
host_names(const char *name, char *err, size_t errlen, unsigned int k, const yaml_node_t *v,
		yaml_document_t *doc)
{
	yaml_node_item_t *it;

	if (v->type == YAML_SCALAR_NODE)
		return 0;
	if (k != PCC_FLOWSPEC_SRC || v->type != YAML_SEQUENCE_NODE)
		return pcc_flowspec_error(err, errlen, name, v,
				"'%s' must be a host name%s, not %s", key_names[k],
				k == PCC_FLOWSPEC_SRC ? " or a list of them" : "",
				pcc_flowspec_node_kind(v));
	if (v->data.sequence.items.start == v->data.sequence.items.top)
		return pcc_flowspec_error(err, errlen, name, v, "'src': empty list");
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		yaml_node_t *e = yaml_document_get_node(doc, *it);

		if (e == NULL || e->type != YAML_SCALAR_NODE)
			return pcc_flowspec_error(err, errlen, name, e != NULL ? e : v,
					"'src': a list of host names");
	}
	return 0;
}

int
pcc_flowspec_parse(yaml_document_t *doc, const yaml_node_t *n, uint32_t allowed, uint32_t required,
		const char *name, char *err, size_t errlen, struct pcc_flowspec *out)
{
	char list[160];
	yaml_node_pair_t *pr;
	unsigned int k, i;
	uint64_t x = 0;

	memset(out, 0, sizeof(*out));
	out->count = 1;
	if (n == NULL || n->type != YAML_MAPPING_NODE)
		return pcc_flowspec_error(err, errlen, name, n,
				"a flow group must be a mapping (%s), not %s",
				key_list(allowed, list, sizeof(list)),
				n != NULL ? pcc_flowspec_node_kind(n) : "empty");
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(doc, pr->value);

		if (kn == NULL || vn == NULL || kn->type != YAML_SCALAR_NODE)
			return pcc_flowspec_error(
					err, errlen, name, n, "a flow group's keys must be words");
		for (k = 0; k < PCC_FLOWSPEC_KEYS; k++)
			if (strcmp(scalar(kn), key_names[k]) == 0)
				break;
		if (k == PCC_FLOWSPEC_KEYS) {
			for (i = 0; i < RTE_DIM(renamed); i++)
				if (strcmp(scalar(kn), renamed[i].old) == 0)
					return pcc_flowspec_error(err, errlen, name, kn,
							"'%s' is --gen-file's earlier spelling: "
							"write %s: %s%s (values take a unit)",
							renamed[i].old, renamed[i].now,
							vn->type == YAML_SCALAR_NODE ? scalar(vn) :
										       "N",
							renamed[i].unit);
			return pcc_flowspec_error(err, errlen, name, kn,
					"unknown key '%s' in a flow group (known: %s)", scalar(kn),
					key_list(allowed, list, sizeof(list)));
		}
		if (!(allowed & PCC_FLOWSPEC_BIT(k)))
			return pcc_flowspec_error(err, errlen, name, kn, "'%s'%s%s", key_names[k],
					k == PCC_FLOWSPEC_PORT ? " " : ": ", not_here(k));
		if (out->seen & PCC_FLOWSPEC_BIT(k))
			return pcc_flowspec_error(
					err, errlen, name, kn, "duplicate key '%s'", key_names[k]);
		out->seen |= PCC_FLOWSPEC_BIT(k);
		out->at[k] = vn;
		switch (k) {
		case PCC_FLOWSPEC_SRC:
		case PCC_FLOWSPEC_DST:
			if (host_names(name, err, errlen, k, vn, doc) != 0)
				return -1;
			continue;
		case PCC_FLOWSPEC_SOURCE:
			if (vn->type != YAML_SCALAR_NODE)
				return pcc_flowspec_error(err, errlen, name, vn,
						"'source' must be a scalar, not %s",
						pcc_flowspec_node_kind(vn));
			if (strcmp(scalar(vn), "engine") != 0 && strcmp(scalar(vn), "model") != 0)
				return pcc_flowspec_error(err, errlen, name, vn,
						"'source': '%s' is not one of: engine, model",
						scalar(vn));
			out->source = strcmp(scalar(vn), "model") == 0 ? PCC_FLOWSPEC_SOURCE_MODEL :
									 PCC_FLOWSPEC_SOURCE_ENGINE;
			continue;
		default:
			break;
		}
		if (value(name, err, errlen, k, vn, &x) != 0)
			return -1;
		switch (k) {
		case PCC_FLOWSPEC_COUNT:
			out->count = (uint32_t)x;
			break;
		case PCC_FLOWSPEC_QPN:
			out->qpn = (uint32_t)x;
			break;
		case PCC_FLOWSPEC_DST_QPN:
			out->dst_qpn = (uint32_t)x;
			break;
		case PCC_FLOWSPEC_SIZE:
			out->size = x;
			break;
		case PCC_FLOWSPEC_PAYLOAD:
			out->payload = (uint32_t)x;
			break;
		case PCC_FLOWSPEC_START:
			out->start_ns = x;
			break;
		case PCC_FLOWSPEC_STAGGER:
			out->stagger_ns = x;
			break;
		case PCC_FLOWSPEC_RATE:
			out->rate_bps = x;
			break;
		case PCC_FLOWSPEC_SLOT:
			out->slot = (uint8_t)x;
			break;
		default: /* PCC_FLOWSPEC_PORT */
			out->port = (uint16_t)x;
			break;
		}
	}
	for (k = 0; k < PCC_FLOWSPEC_KEYS; k++)
		if ((required & PCC_FLOWSPEC_BIT(k)) && !(out->seen & PCC_FLOWSPEC_BIT(k)))
			return pcc_flowspec_error(err, errlen, name, n,
					"flow group: missing required key '%s'", key_names[k]);
	if (out->qpn != 0 && (uint64_t)out->qpn + out->count - 1 > PCC_FLOWSPEC_QPN_MAX)
		return pcc_flowspec_error(err, errlen, name, out->at[PCC_FLOWSPEC_QPN],
				"QPNs 0x%x..0x%" PRIx64 " go past 0xffffff", out->qpn,
				(uint64_t)out->qpn + out->count - 1);
	if (out->dst_qpn != 0 && (uint64_t)out->dst_qpn + out->count - 1 > PCC_FLOWSPEC_QPN_MAX)
		return pcc_flowspec_error(err, errlen, name, out->at[PCC_FLOWSPEC_DST_QPN],
				"DestQPs 0x%x..0x%" PRIx64 " go past 0xffffff", out->dst_qpn,
				(uint64_t)out->dst_qpn + out->count - 1);
	if (out->stagger_ns != 0 && out->count > 1 &&
			out->stagger_ns >
					(PCC_FLOWSPEC_TIME_MAX - out->start_ns) / (out->count - 1))
		return pcc_flowspec_error(err, errlen, name, out->at[PCC_FLOWSPEC_STAGGER],
				"the last flow would start after %" PRIu64 " s",
				PCC_FLOWSPEC_TIME_MAX / 1000000000u);
	return 0;
}
