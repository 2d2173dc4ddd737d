/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Resources file (libyaml, event parser; errors as file:line:column). */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include <rte_lcore.h>

#include "host_internal.h"
#include "pcc_file.h"
#include "pcc_host_res.h"

struct res_app {
	char name[PCC_DEV_NAME_MAX * 2];
	int count; /* -1: not given */
	uint32_t n_lcores;
	uint32_t lcores[PCC_HOST_MAX_LCORES];
};

struct pcc_host_res {
	uint32_t n_apps;
	struct res_app app[PCC_HOST_RES_APPS_MAX];
};

struct res_parser {
	const char *path;
	yaml_parser_t p;
	yaml_event_t ev;
	bool have_ev;
	char *errbuf;
	size_t errlen;
	int rc;
};

static int
perr(struct res_parser *rp, const yaml_mark_t *m, int rc, const char *fmt, ...)
{
	char msg[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rp->rc == 0) {
		if (rp->errbuf != NULL && rp->errlen > 0)
			snprintf(rp->errbuf, rp->errlen, "%s:%zu:%zu: %s", rp->path,
					m != NULL ? m->line + 1 : 0, m != NULL ? m->column + 1 : 0,
					msg);
		host_err(rc, "%s:%zu:%zu: %s", rp->path, m != NULL ? m->line + 1 : 0,
				m != NULL ? m->column + 1 : 0, msg);
		rp->rc = rc;
	}
	return rc;
}

static int
next(struct res_parser *rp)
{
	if (rp->have_ev)
		yaml_event_delete(&rp->ev);
	rp->have_ev = false;
	if (!yaml_parser_parse(&rp->p, &rp->ev)) {
		yaml_mark_t m = rp->p.problem_mark;

		return perr(rp, &m, -EINVAL, "YAML syntax: %s",
				rp->p.problem != NULL ? rp->p.problem : "error");
	}
	rp->have_ev = true;
	return 0;
}

static const char *
scalar(const yaml_event_t *ev)
{
	return (const char *)ev->data.scalar.value;
}

static int
parse_uint(struct res_parser *rp, const char *what, uint32_t max, uint32_t *out)
{
	const char *s = scalar(&rp->ev);
	char *end;
	unsigned long v;

	if (rp->ev.type != YAML_SCALAR_EVENT)
		return perr(rp, &rp->ev.start_mark, -EINVAL, "%s: expected a number", what);
	errno = 0;
	v = strtoul(s, &end, 0);
	if (s[0] == '\0' || s[0] == '-' || *end != '\0' || errno != 0)
		return perr(rp, &rp->ev.start_mark, -EINVAL, "%s: '%s' is not a number", what, s);
	if (v > max)
		return perr(rp, &rp->ev.start_mark, -ERANGE, "%s: %lu is above %u", what, v, max);
	*out = (uint32_t)v;
	return 0;
}

static int
add_lcore(struct res_parser *rp, struct res_app *a, uint32_t l, const yaml_mark_t *m)
{
	uint32_t i;

	if (l >= RTE_MAX_LCORE)
		return perr(rp, m, -ERANGE, "lcore %u: not below RTE_MAX_LCORE (%u)", l,
				RTE_MAX_LCORE);
	for (i = 0; i < a->n_lcores; i++)
		if (a->lcores[i] == l)
			return perr(rp, m, -EINVAL, "lcore %u listed twice for %s", l, a->name);
	if (a->n_lcores >= PCC_HOST_MAX_LCORES)
		return perr(rp, m, -ERANGE, "more than %u lcores for %s", PCC_HOST_MAX_LCORES,
				a->name);
	a->lcores[a->n_lcores++] = l;
	return 0;
}

/* "1-3,5" */
static int
parse_lcore_string(struct res_parser *rp, struct res_app *a)
{
	const char *s = scalar(&rp->ev);
	yaml_mark_t m = rp->ev.start_mark;
	unsigned long lo, hi, l;
	char *end;

	while (*s != '\0') {
		errno = 0;
		lo = strtoul(s, &end, 10);
		if (end == s || errno != 0)
			return perr(rp, &m, -EINVAL, "lcores: '%s' is not a list like 1-3,5",
					scalar(&rp->ev));
		hi = lo;
		s = end;
		if (*s == '-') {
			s++;
			hi = strtoul(s, &end, 10);
			if (end == s || hi < lo)
				return perr(rp, &m, -EINVAL, "lcores: bad range in '%s'",
						scalar(&rp->ev));
			s = end;
		}
		for (l = lo; l <= hi; l++)
			if (add_lcore(rp, a, l > UINT32_MAX ? UINT32_MAX : (uint32_t)l, &m) < 0)
				return rp->rc;
		if (*s == ',')
			s++;
		else if (*s != '\0')
			return perr(rp, &m, -EINVAL, "lcores: unexpected '%c' in '%s'", *s,
					scalar(&rp->ev));
	}
	return 0;
}

static int
parse_app(struct res_parser *rp, struct res_app *a)
{
	yaml_mark_t start = rp->ev.start_mark;
	uint32_t v;
	char key[32];

	if (rp->ev.type != YAML_MAPPING_START_EVENT)
		return perr(rp, &rp->ev.start_mark, -EINVAL,
				"application %s: expected a mapping with count and lcores",
				a->name);
	a->count = -1;
	for (;;) {
		if (next(rp) < 0)
			return rp->rc;
		if (rp->ev.type == YAML_MAPPING_END_EVENT)
			break;
		if (rp->ev.type != YAML_SCALAR_EVENT)
			return perr(rp, &rp->ev.start_mark, -EINVAL, "expected a key");
		snprintf(key, sizeof(key), "%s", scalar(&rp->ev));
		if (next(rp) < 0)
			return rp->rc;
		if (strcmp(key, "count") == 0) {
			if (parse_uint(rp, "count", PCC_HOST_MAX_LCORES, &v) < 0)
				return rp->rc;
			if (v == 0)
				return perr(rp, &rp->ev.start_mark, -ERANGE, "count: must be >= 1");
			a->count = (int)v;
		} else if (strcmp(key, "lcores") == 0) {
			if (rp->ev.type == YAML_SCALAR_EVENT) {
				if (parse_lcore_string(rp, a) < 0)
					return rp->rc;
			} else if (rp->ev.type == YAML_SEQUENCE_START_EVENT) {
				for (;;) {
					if (next(rp) < 0)
						return rp->rc;
					if (rp->ev.type == YAML_SEQUENCE_END_EVENT)
						break;
					if (parse_uint(rp, "lcore", UINT32_MAX, &v) < 0 ||
							add_lcore(rp, a, v, &rp->ev.start_mark) < 0)
						return rp->rc;
				}
			} else {
				return perr(rp, &rp->ev.start_mark, -EINVAL,
						"lcores: expected a list [1, 2] or a string "
						"\"1-3,5\"");
			}
		} else {
			return perr(rp, &rp->ev.start_mark, -EINVAL,
					"unknown key '%s' (count, lcores)", key);
		}
	}
	if (a->n_lcores == 0)
		return perr(rp, &start, -EINVAL, "application %s: no lcores", a->name);
	if (a->count < 0)
		a->count = (int)a->n_lcores;
	if ((uint32_t)a->count > a->n_lcores)
		return perr(rp, &start, -ERANGE, "application %s: count %d but only %u lcores",
				a->name, a->count, a->n_lcores);
	return 0;
}

static int
parse_doc(struct res_parser *rp, struct pcc_host_res *r)
{
	uint32_t i;
	struct res_app *a;

	/* stream start, document start, mapping */
	if (next(rp) < 0 || next(rp) < 0)
		return rp->rc;
	if (rp->ev.type == YAML_STREAM_END_EVENT)
		return perr(rp, &rp->ev.start_mark, -EINVAL, "empty file");
	if (next(rp) < 0)
		return rp->rc;
	if (rp->ev.type != YAML_MAPPING_START_EVENT)
		return perr(rp, &rp->ev.start_mark, -EINVAL,
				"expected a mapping with the key 'applications'");
	for (;;) {
		if (next(rp) < 0)
			return rp->rc;
		if (rp->ev.type == YAML_MAPPING_END_EVENT)
			break;
		if (rp->ev.type != YAML_SCALAR_EVENT ||
				strcmp(scalar(&rp->ev), "applications") != 0)
			return perr(rp, &rp->ev.start_mark, -EINVAL,
					"unknown top-level key (expected 'applications')");
		if (next(rp) < 0)
			return rp->rc;
		if (rp->ev.type != YAML_MAPPING_START_EVENT)
			return perr(rp, &rp->ev.start_mark, -EINVAL,
					"applications: expected a mapping of application names");
		for (;;) {
			if (next(rp) < 0)
				return rp->rc;
			if (rp->ev.type == YAML_MAPPING_END_EVENT)
				break;
			if (rp->ev.type != YAML_SCALAR_EVENT)
				return perr(rp, &rp->ev.start_mark, -EINVAL,
						"expected an application name");
			if (strlen(scalar(&rp->ev)) >= sizeof(r->app[0].name))
				return perr(rp, &rp->ev.start_mark, -ENAMETOOLONG,
						"application name too long");
			for (i = 0; i < r->n_apps; i++)
				if (strcmp(r->app[i].name, scalar(&rp->ev)) == 0)
					return perr(rp, &rp->ev.start_mark, -EEXIST,
							"application %s defined twice",
							scalar(&rp->ev));
			if (r->n_apps >= PCC_HOST_RES_APPS_MAX)
				return perr(rp, &rp->ev.start_mark, -ENOSPC,
						"more than %u applications", PCC_HOST_RES_APPS_MAX);
			a = &r->app[r->n_apps++];
			snprintf(a->name, sizeof(a->name), "%s", scalar(&rp->ev));
			if (next(rp) < 0 || parse_app(rp, a) < 0)
				return rp->rc;
		}
	}
	return 0;
}

/* Parse with rp's parser set up; the result or NULL (rp.rc). */
static struct pcc_host_res *
res_parse(struct res_parser *rp)
{
	struct pcc_host_res *r = calloc(1, sizeof(*r));

	if (r == NULL) {
		perr(rp, NULL, -ENOMEM, "no memory");
		return NULL;
	}
	parse_doc(rp, r);
	if (rp->have_ev)
		yaml_event_delete(&rp->ev);
	if (rp->rc != 0) {
		free(r);
		return NULL;
	}
	return r;
}

struct pcc_host_res *
pcc_host_res_load(const char *path, char *errbuf, size_t errlen)
{
	struct res_parser rp = { .path = path, .errbuf = errbuf, .errlen = errlen };
	char why[PCC_FILE_WHY_LEN];
	struct pcc_host_res *r;
	FILE *f;

	host_err_clear();
	if (errbuf != NULL && errlen > 0)
		errbuf[0] = '\0';
	if (path == NULL) {
		rp.path = "(null)";
		perr(&rp, NULL, -EINVAL, "NULL path");
		return NULL;
	}
	f = pcc_file_fopen_input(path, PCC_FILE_INPUT_MAX, why, sizeof(why));
	if (f == NULL) {
		perr(&rp, NULL, -errno, "cannot open: %s", why);
		return NULL;
	}
	if (!yaml_parser_initialize(&rp.p)) {
		fclose(f);
		perr(&rp, NULL, -ENOMEM, "no memory");
		return NULL;
	}
	yaml_parser_set_input_file(&rp.p, f);
	r = res_parse(&rp);
	yaml_parser_delete(&rp.p);
	fclose(f);
	return r;
}

struct pcc_host_res *
pcc_host_res_parse(const char *text, size_t len, const char *name, char *errbuf, size_t errlen)
{
	struct res_parser rp = {
		.path = name != NULL ? name : "resources", .errbuf = errbuf, .errlen = errlen
	};
	struct pcc_host_res *r;

	host_err_clear();
	if (errbuf != NULL && errlen > 0)
		errbuf[0] = '\0';
	if (text == NULL) {
		perr(&rp, NULL, -EINVAL, "NULL text");
		return NULL;
	}
	if (!yaml_parser_initialize(&rp.p)) {
		perr(&rp, NULL, -ENOMEM, "no memory");
		return NULL;
	}
	yaml_parser_set_input_string(&rp.p, (const unsigned char *)text, len);
	r = res_parse(&rp);
	yaml_parser_delete(&rp.p);
	return r;
}

void
pcc_host_res_free(struct pcc_host_res *r)
{
	free(r);
}

uint32_t
pcc_host_res_apps(const struct pcc_host_res *r)
{
	return r == NULL ? 0 : r->n_apps;
}

const char *
pcc_host_res_app_name(const struct pcc_host_res *r, uint32_t i)
{
	return r == NULL || i >= r->n_apps ? NULL : r->app[i].name;
}

static const struct res_app *
find(const struct pcc_host_res *r, const char *app)
{
	uint32_t i;

	if (r == NULL || app == NULL)
		return NULL;
	for (i = 0; i < r->n_apps; i++)
		if (strcmp(r->app[i].name, app) == 0)
			return &r->app[i];
	return NULL;
}

int
pcc_host_res_count(const struct pcc_host_res *r, const char *app)
{
	const struct res_app *a = find(r, app);

	if (a == NULL)
		return host_err(-ENOENT, "resources: no application '%s'", app ? app : "(null)");
	return a->count;
}

int
pcc_host_res_lcores(const struct pcc_host_res *r, const char *app, uint32_t *lcores, uint32_t n)
{
	const struct res_app *a = find(r, app);
	uint32_t i;

	if (a == NULL)
		return host_err(-ENOENT, "resources: no application '%s'", app ? app : "(null)");
	for (i = 0; i < n && i < a->n_lcores && lcores != NULL; i++)
		lcores[i] = a->lcores[i];
	return (int)a->n_lcores;
}

int
pcc_host_res_apply(const struct pcc_host_res *r, const char *app, struct pcc_host_ctx *ctx)
{
	const struct res_app *a = find(r, app);
	uint32_t saved_n, saved_min, saved_max;
	int rc;

	if (a == NULL)
		return host_err(-ENOENT, "resources: no application '%s'", app ? app : "(null)");
	if (ctx == NULL)
		return host_err(-EINVAL, "resources: NULL context");
	/* the new thread range replaces the affinity, unless running; a
	 * refusal leaves the context as it was */
	saved_n = ctx->n_lcores;
	saved_min = ctx->min_threads;
	saved_max = ctx->max_threads;
	if (pcc_host_ctx_state(ctx) == PCC_HOST_CTX_CREATED ||
			pcc_host_ctx_state(ctx) == PCC_HOST_CTX_STOPPED)
		ctx->n_lcores = 0;
	rc = pcc_host_set_threads(ctx, (uint32_t)a->count, (uint32_t)a->count);
	if (rc == 0)
		rc = pcc_host_set_affinity(ctx, a->lcores, (uint32_t)a->count);
	if (rc < 0) {
		ctx->n_lcores = saved_n;
		ctx->min_threads = saved_min;
		ctx->max_threads = saved_max;
	}
	return rc;
}
