/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* --gen-file parser (see genfile.h): libyaml document API. */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include <rte_common.h>

#include "host_genfile.h"
#include "pcc_file.h"

#define COUNT_MAX PCC_ENGINE_GEN_FLOWS_TOTAL_MAX
#define RATE_MAX 400000u
#define START_US_MAX (UINT64_C(31536000) * 1000000u)
#define SIZE_MAX_BYTES (UINT64_C(1) << 50)

struct ctx {
	const char *name;
	char *err;
	size_t errlen;
};

static int __rte_format_printf(3, 4)
		fail(const struct ctx *c, const yaml_mark_t *mark, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s:%zu: %s", c->name, mark->line + 1, why);
	return -1;
}

/* Key names, in the order of struct field checks below. */
enum key {
	K_COUNT,
	K_QPN,
	K_PORT,
	K_SIZE,
	K_PAYLOAD,
	K_START_US,
	K_RATE,
	K_MAX,
};

static const char *const key_names[K_MAX] = {
	"count",
	"qpn",
	"port",
	"size",
	"payload",
	"start_us",
	"rate_mbps",
};

static const uint64_t key_min[K_MAX] = { 1, 2, 0, 1, 1, 0, 0 };
static const uint64_t key_max[K_MAX] = {
	COUNT_MAX,
	PCC_QPN_MASK,
	RTE_MAX_ETHPORTS - 1,
	SIZE_MAX_BYTES,
	PCC_ENGINE_GEN_PAYLOAD_MAX,
	START_US_MAX,
	RATE_MAX,
};

/* Unsigned decimal or 0x hex of a scalar node into *v; 0 or -1. */
static int
scalar_u64(const yaml_node_t *n, uint64_t *v)
{
	const char *s = (const char *)n->data.scalar.value;
	unsigned long long x;
	char *end;
	int base = 10;

	if (n->type != YAML_SCALAR_NODE || !isdigit((unsigned char)s[0]))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)s[2]))
			return -1;
	}
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno != 0 || *end != '\0')
		return -1;
	*v = x;
	return 0;
}

static int
parse_entry(const struct ctx *c, yaml_document_t *doc, const yaml_node_t *n,
		struct pcc_engine_gen_group *g)
{
	uint64_t val[K_MAX];
	bool seen[K_MAX] = { false };
	yaml_node_pair_t *pr;
	unsigned int k;

	if (n->type != YAML_MAPPING_NODE)
		return fail(c, &n->start_mark,
				"a flow group must be a mapping (count: N, qpn: Q, ...)");
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = yaml_document_get_node(doc, pr->key);
		yaml_node_t *vn = yaml_document_get_node(doc, pr->value);
		const char *ks;

		if (kn == NULL || vn == NULL || kn->type != YAML_SCALAR_NODE)
			return fail(c, &n->start_mark, "keys must be plain words");
		ks = (const char *)kn->data.scalar.value;
		for (k = 0; k < K_MAX; k++)
			if (strcmp(ks, key_names[k]) == 0)
				break;
		if (k == K_MAX)
			return fail(c, &kn->start_mark,
					"unknown key '%s' (expected count, qpn, port, size, "
					"payload, start_us, rate_mbps)",
					ks);
		if (seen[k])
			return fail(c, &kn->start_mark, "'%s' given twice", ks);
		if (scalar_u64(vn, &val[k]) < 0 || val[k] < key_min[k] || val[k] > key_max[k])
			return fail(c, &vn->start_mark,
					"invalid value '%s' for %s (expected %" PRIu64 "..%" PRIu64
					")",
					vn->type == YAML_SCALAR_NODE ?
							(const char *)vn->data.scalar.value :
							"(not a number)",
					ks, key_min[k], key_max[k]);
		seen[k] = true;
	}
	if (!seen[K_COUNT])
		return fail(c, &n->start_mark, "flow group without 'count'");
	if (!seen[K_QPN])
		return fail(c, &n->start_mark, "flow group without 'qpn'");
	if (val[K_QPN] + val[K_COUNT] - 1 > PCC_QPN_MASK)
		return fail(c, &n->start_mark, "QPNs 0x%" PRIx64 "..0x%" PRIx64 " go past 0xffffff",
				val[K_QPN], val[K_QPN] + val[K_COUNT] - 1);
	memset(g, 0, sizeof(*g));
	g->count = (uint32_t)val[K_COUNT];
	g->qpn_base = (uint32_t)val[K_QPN];
	g->port_id = seen[K_PORT] ? (int32_t)val[K_PORT] : -1;
	g->size = seen[K_SIZE] ? val[K_SIZE] : 0;
	g->payload_len = seen[K_PAYLOAD] ? (uint32_t)val[K_PAYLOAD] : 0;
	g->start_us = seen[K_START_US] ? val[K_START_US] : 0;
	if (seen[K_RATE]) {
		g->rate_mbps = (uint32_t)val[K_RATE];
		g->unpaced = val[K_RATE] == 0;
	}
	return 0;
}

/* Two groups whose flows could share a (port, QPN). */
static bool
overlap(const struct pcc_engine_gen_group *a, const struct pcc_engine_gen_group *b)
{
	if (a->port_id >= 0 && b->port_id >= 0 && a->port_id != b->port_id)
		return false;
	return a->qpn_base < b->qpn_base + b->count && b->qpn_base < a->qpn_base + a->count;
}

static int
parse_doc(const struct ctx *c, yaml_document_t *doc, struct host_gen_file *out)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);
	yaml_node_t *list = root;
	yaml_node_item_t *it;
	uint32_t n, i, j;

	if (root == NULL) {
		static const yaml_mark_t start;

		return fail(c, &start, "empty file: expected 'flows:' and a list of flow groups");
	}
	if (root->type == YAML_MAPPING_NODE) {
		yaml_node_pair_t *pr;

		list = NULL;
		for (pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
			yaml_node_t *kn = yaml_document_get_node(doc, pr->key);

			if (kn == NULL || kn->type != YAML_SCALAR_NODE ||
					strcmp((const char *)kn->data.scalar.value, "flows") != 0)
				return fail(c, kn != NULL ? &kn->start_mark : &root->start_mark,
						"unknown top-level key (expected 'flows')");
			list = yaml_document_get_node(doc, pr->value);
		}
		if (list == NULL)
			return fail(c, &root->start_mark, "no 'flows' list");
	}
	if (list->type != YAML_SEQUENCE_NODE)
		return fail(c, &list->start_mark, "'flows' must be a list of flow groups");
	n = (uint32_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	if (n == 0)
		return fail(c, &list->start_mark, "no flow groups");
	if (n > PCC_ENGINE_GEN_GROUPS_MAX)
		return fail(c, &list->start_mark, "%u flow groups, at most %u", n,
				PCC_ENGINE_GEN_GROUPS_MAX);
	out->groups = calloc(n, sizeof(*out->groups));
	out->lines = calloc(n, sizeof(*out->lines));
	if (out->groups == NULL || out->lines == NULL)
		return fail(c, &list->start_mark, "out of memory");
	i = 0;
	for (it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++, i++) {
		yaml_node_t *en = yaml_document_get_node(doc, *it);
		uint64_t total = 0;

		if (en == NULL || parse_entry(c, doc, en, &out->groups[i]) < 0)
			return -1;
		out->lines[i] = (uint32_t)en->start_mark.line + 1;
		for (j = 0; j < i; j++) {
			if (overlap(&out->groups[j], &out->groups[i]))
				return fail(c, &en->start_mark,
						"QPNs overlap those of the group at line %u",
						out->lines[j]);
		}
		for (j = 0; j <= i; j++)
			total += out->groups[j].count;
		if (total > COUNT_MAX)
			return fail(c, &en->start_mark, "more than %u flows in all", COUNT_MAX);
	}
	out->nb = n;
	return 0;
}

int
host_gen_file_parse(const char *text, size_t len, const char *name, struct host_gen_file *out,
		char *err, size_t errlen)
{
	struct ctx c = { .name = name, .err = err, .errlen = errlen };
	yaml_parser_t parser;
	yaml_document_t doc;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err, errlen, "%s: cannot start the YAML parser", name);
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "%s:%zu: %s%s%s", name,
				(parser.problem_mark.line != 0 ? parser.problem_mark.line :
								 parser.context_mark.line) +
						1,
				parser.problem != NULL ? parser.problem : "YAML syntax error",
				parser.context != NULL ? " " : "",
				parser.context != NULL ? parser.context : "");
		yaml_parser_delete(&parser);
		return -1;
	}
	ret = parse_doc(&c, &doc, out);
	yaml_document_delete(&doc);
	/* one set of flow groups per file: a second document is an error */
	if (ret == 0 && yaml_parser_load(&parser, &doc)) {
		if (yaml_document_get_root_node(&doc) != NULL) {
			snprintf(err, errlen, "%s:%zu: a second YAML document: one per file", name,
					doc.start_mark.line + 1);
			ret = -1;
		}
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&parser);
	if (ret < 0)
		host_gen_file_free(out);
	return ret;
}

int
host_gen_file_load(const char *path, struct host_gen_file *out, char *err, size_t errlen)
{
	char *text = NULL;
	size_t cap = 0, len = 0, n;
	FILE *f;
	int ret;

	memset(out, 0, sizeof(*out));
	f = pcc_file_fopen_input(path, 64u << 20, err, errlen);
	if (f == NULL)
		return -1;
	do {
		if (len == cap) {
			char *t;

			cap = cap == 0 ? 4096 : cap * 2;
			if (cap > (64u << 20)) {
				snprintf(err, errlen, "%s: larger than 64 MiB", path);
				free(text);
				fclose(f);
				return -1;
			}
			t = realloc(text, cap);
			if (t == NULL) {
				snprintf(err, errlen, "%s: out of memory", path);
				free(text);
				fclose(f);
				return -1;
			}
			text = t;
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		free(text);
		fclose(f);
		return -1;
	}
	fclose(f);
	ret = host_gen_file_parse(text != NULL ? text : "", len, path, out, err, errlen);
	free(text);
	return ret;
}

void
host_gen_file_free(struct host_gen_file *f)
{
	free(f->groups);
	free(f->lines);
	f->groups = NULL;
	f->lines = NULL;
	f->nb = 0;
}
