/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* --gen-file parser (see genfile.h): libyaml document API. */

#include <assert.h>
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
#include "pcc_flowspec.h"
#include "pcc_file.h"

#define COUNT_MAX PCC_ENGINE_GEN_FLOWS_TOTAL_MAX

struct ctx {
	const char *name;
	char *err;
	size_t errlen;
};

static int __rte_format_printf(3, 4)
		fail(const struct ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return pcc_flowspec_error(c->err, c->errlen, c->name, n, "%s", why);
}

/* Offered rate in the engine's unit: whole Mb/s, at least 1. */
static uint32_t
rate_mbps(uint64_t bps)
{
	uint64_t m = (bps + 500000) / 1000000;

	return m == 0 ? 1 : (uint32_t)RTE_MIN(m, (uint64_t)UINT32_MAX);
}

static int
parse_entry(const struct ctx *c, yaml_document_t *doc, const yaml_node_t *n,
		struct pcc_engine_gen_group *g)
{
	const uint32_t required =
			PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_COUNT) | PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_QPN);
	struct pcc_flowspec fs;

	if (pcc_flowspec_parse(doc, n, PCC_FLOWSPEC_LIVE, required, c->name, c->err, c->errlen,
			    &fs) != 0)
		return -1;
	if ((fs.seen & PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_PORT)) && fs.port >= RTE_MAX_ETHPORTS)
		return fail(c, fs.at[PCC_FLOWSPEC_PORT], "'port': %u is out of range [0, %u]",
				fs.port, RTE_MAX_ETHPORTS - 1);
	/* the schema's payload range is the generator's */
	RTE_BUILD_BUG_ON(PCC_FLOWSPEC_PAYLOAD_MAX > PCC_ENGINE_GEN_PAYLOAD_MAX);
	memset(g, 0, sizeof(*g));
	g->count = fs.count;
	g->qpn_base = fs.qpn;
	g->dst_qpn_base = fs.dst_qpn;
	g->port_id = (fs.seen & PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_PORT)) ? (int32_t)fs.port : -1;
	g->size = fs.size;
	g->payload_len = fs.payload;
	g->start_ns = fs.start_ns;
	g->stagger_ns = fs.stagger_ns;
	if (fs.seen & PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_RATE)) {
		g->unpaced = fs.rate_bps == 0;
		g->rate_mbps = g->unpaced ? 0 : rate_mbps(fs.rate_bps);
	}
	if (fs.seen & PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_SLOT)) {
		g->slot_set = true;
		g->slot = fs.slot;
	}
	return 0;
}

/* Two groups whose flows could share a (port, QPN). */
/* A file's groups (its QPN ranges are checked pairwise). */
#define GENFILE_GROUPS_MAX 1024
static_assert(GENFILE_GROUPS_MAX <= PCC_ENGINE_GEN_GROUPS_MAX, "a file's groups fit the engine");

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
		snprintf(c->err, c->errlen,
				"%s:1:1: empty file: expected 'flows:' and a list of flow groups",
				c->name);
		return -1;
	}
	if (root->type == YAML_MAPPING_NODE) {
		yaml_node_pair_t *pr;

		list = NULL;
		for (pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
			yaml_node_t *kn = yaml_document_get_node(doc, pr->key);

			if (kn == NULL || kn->type != YAML_SCALAR_NODE ||
					strcmp((const char *)kn->data.scalar.value, "flows") != 0)
				return fail(c, kn != NULL ? kn : root,
						"unknown top-level key (expected 'flows')");
			if (list != NULL)
				return fail(c, kn, "'flows' given twice");
			list = yaml_document_get_node(doc, pr->value);
		}
		if (list == NULL)
			return fail(c, root, "no 'flows' list");
	}
	if (list->type != YAML_SEQUENCE_NODE)
		return fail(c, list, "'flows' must be a list of flow groups");
	n = (uint32_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	if (n == 0)
		return fail(c, list, "no flow groups");
	if (n > GENFILE_GROUPS_MAX)
		return fail(c, list, "%u flow groups, at most %u", n, GENFILE_GROUPS_MAX);
	out->groups = calloc(n, sizeof(*out->groups));
	out->lines = calloc(n, sizeof(*out->lines));
	if (out->groups == NULL || out->lines == NULL)
		return fail(c, list, "out of memory");
	i = 0;
	for (it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++, i++) {
		yaml_node_t *en = yaml_document_get_node(doc, *it);
		uint64_t total = 0;

		if (en == NULL || parse_entry(c, doc, en, &out->groups[i]) < 0)
			return -1;
		out->lines[i] = (uint32_t)en->start_mark.line + 1;
		for (j = 0; j < i; j++) {
			if (overlap(&out->groups[j], &out->groups[i]))
				return fail(c, en, "QPNs overlap those of the group at line %u",
						out->lines[j]);
		}
		for (j = 0; j <= i; j++)
			total += out->groups[j].count;
		if (total > COUNT_MAX)
			return fail(c, en, "more than %u flows in all", COUNT_MAX);
	}
	out->nb = n;
	return 0;
}

int
host_gen_file_parse(const char *text, size_t len, const char *name, struct host_gen_file *out,
		char *err, size_t errlen)
{
	struct ctx c = { .name = name, .err = err, .errlen = errlen };
	yaml_document_t doc;
	int ret;

	memset(out, 0, sizeof(*out));
	if (pcc_flowspec_yaml_load(text, len, name, &doc, err, errlen) != 0)
		return -1;
	ret = parse_doc(&c, &doc, out);
	yaml_document_delete(&doc);
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
