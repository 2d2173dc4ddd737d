/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Algorithm registry and the control lock.  Registration usually happens
 * in constructors (PCC_DEV_ALGO_REGISTER), before main() and before EAL:
 * the registry is static memory and needs nothing initialised.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "dev_internal.h"

RTE_LOG_REGISTER(dev_logtype, pcc.dev, NOTICE);

static pthread_mutex_t dev_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static struct dev_entry registry[PCC_DEV_MAX_REGISTERED];
static unsigned int registry_n;

void
dev_lock(void)
{
	pthread_mutex_lock(&dev_mutex);
}

void
dev_unlock(void)
{
	pthread_mutex_unlock(&dev_mutex);
}

/* 1..max_len-1 characters of [a-z0-9_] (plus [A-Z.] when upper_ok). */
bool
dev_name_ok(const char *name, size_t max_len, bool upper_ok)
{
	size_t i;

	if (name == NULL || name[0] == '\0')
		return false;
	for (i = 0; name[i] != '\0'; i++) {
		char c = name[i];

		if (i + 1 >= max_len)
			return false;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')
			continue;
		if (upper_ok && ((c >= 'A' && c <= 'Z') || c == '.'))
			continue;
		return false;
	}
	return true;
}

static int
validate_params(const struct pcc_dev_algo_ops *ops)
{
	uint32_t i, j;

	if (ops->n_params > PCC_DEV_MAX_PARAMS) {
		DEV_LOG(ERR, "%s: %u parameters, at most %u", ops->name, ops->n_params,
				PCC_DEV_MAX_PARAMS);
		return -EINVAL;
	}
	if (ops->n_params > 0 && ops->params == NULL) {
		DEV_LOG(ERR, "%s: n_params %u but no parameter table", ops->name, ops->n_params);
		return -EINVAL;
	}
	for (i = 0; i < ops->n_params; i++) {
		const struct pcc_dev_param_desc *p = &ops->params[i];

		if (p->id != i) {
			DEV_LOG(ERR, "%s: parameter %u has id %u (ids must be dense, 0-based)",
					ops->name, i, p->id);
			return -EINVAL;
		}
		if (!dev_name_ok(p->name, PCC_DEV_NAME_MAX, true)) {
			DEV_LOG(ERR, "%s: parameter %u: bad name", ops->name, i);
			return -EINVAL;
		}
		if (p->min > p->max || p->def < p->min || p->def > p->max) {
			DEV_LOG(ERR, "%s: parameter %s: default %u not within [%u, %u]", ops->name,
					p->name, p->def, p->min, p->max);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (strcmp(ops->params[j].name, p->name) == 0) {
				DEV_LOG(ERR, "%s: parameter name %s used twice", ops->name,
						p->name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int
validate_counters(const struct pcc_dev_algo_ops *ops)
{
	uint32_t i;

	if (ops->n_counters > PCC_DEV_MAX_COUNTERS) {
		DEV_LOG(ERR, "%s: %u counters, at most %u", ops->name, ops->n_counters,
				PCC_DEV_MAX_COUNTERS);
		return -EINVAL;
	}
	if (ops->n_counters > 0 && ops->counters == NULL) {
		DEV_LOG(ERR, "%s: n_counters %u but no counter table", ops->name, ops->n_counters);
		return -EINVAL;
	}
	for (i = 0; i < ops->n_counters; i++) {
		const struct pcc_dev_counter_desc *c = &ops->counters[i];

		if (c->id != i) {
			DEV_LOG(ERR, "%s: counter %u has id %u (ids must be dense, 0-based)",
					ops->name, i, c->id);
			return -EINVAL;
		}
		if (!dev_name_ok(c->name, PCC_DEV_NAME_MAX, true)) {
			DEV_LOG(ERR, "%s: counter %u: bad name", ops->name, i);
			return -EINVAL;
		}
		if (c->type > PCC_DEV_COUNTER_MAX) {
			DEV_LOG(ERR, "%s: counter %s: bad type %u", ops->name, c->name, c->type);
			return -EINVAL;
		}
	}
	return 0;
}

static int
validate_ops(const struct pcc_dev_algo_ops *ops)
{
	uint32_t i;
	int rc;

	if (ops == NULL)
		return -EINVAL;
	if (!dev_name_ok(ops->name, PCC_DEV_NAME_MAX, false)) {
		DEV_LOG(ERR, "algorithm name %s%s%s: must be 1..%u characters of [a-z0-9_]",
				ops->name ? "\"" : "", ops->name ? ops->name : "(null)",
				ops->name ? "\"" : "", PCC_DEV_NAME_MAX - 1);
		return -EINVAL;
	}
	if (ops->on_event == NULL) {
		DEV_LOG(ERR, "%s: on_event is required", ops->name);
		return -EINVAL;
	}
	if (ops->ctx_size > PCC_DEV_CTX_MAX) {
		DEV_LOG(ERR, "%s: ctx_size %u above %u", ops->name, ops->ctx_size, PCC_DEV_CTX_MAX);
		return -EINVAL;
	}
	rc = validate_params(ops);
	if (rc < 0)
		return rc;
	rc = validate_counters(ops);
	if (rc < 0)
		return rc;
	if (ops->n_hist_ids > PCC_DEV_MAX_HISTS || (ops->n_hist_ids > 0 && ops->hist_ids == NULL)) {
		DEV_LOG(ERR, "%s: bad histogram id list (%u ids)", ops->name, ops->n_hist_ids);
		return -EINVAL;
	}
	for (i = 0; i < ops->n_hist_ids; i++) {
		if (ops->hist_ids[i] >= PCC_DEV_MAX_HISTS) {
			DEV_LOG(ERR, "%s: histogram id %u above %u", ops->name, ops->hist_ids[i],
					PCC_DEV_MAX_HISTS - 1);
			return -EINVAL;
		}
	}
	return 0;
}

const struct dev_entry *
dev_registry_find(const char *name)
{
	unsigned int i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < registry_n; i++)
		if (strcmp(registry[i].ops->name, name) == 0)
			return &registry[i];
	return NULL;
}

int
dev_registry_add(const struct pcc_dev_algo_ops *ops, struct dev_simple *simple)
{
	int rc;

	rc = validate_ops(ops);
	if (rc < 0)
		return rc;
	dev_lock();
	if (dev_registry_find(ops->name) != NULL) {
		dev_unlock();
		DEV_LOG(ERR, "%s: already registered", ops->name);
		return -EEXIST;
	}
	if (registry_n == PCC_DEV_MAX_REGISTERED) {
		dev_unlock();
		DEV_LOG(ERR, "%s: registry full (%u algorithms)", ops->name,
				PCC_DEV_MAX_REGISTERED);
		return -ENOSPC;
	}
	registry[registry_n].ops = ops;
	registry[registry_n].simple = simple;
	registry_n++;
	dev_unlock();
	DEV_LOG(DEBUG, "registered %s (id 0x%x v%u.%u)", ops->name, ops->id, ops->major,
			ops->minor);
	return 0;
}

int
pcc_dev_algo_register(const struct pcc_dev_algo_ops *ops)
{
	return dev_registry_add(ops, NULL);
}

static bool
loaded_anywhere(const struct pcc_dev_algo_ops *ops)
{
	unsigned int p, i;

	if (!dev_g.init)
		return false;
	for (p = 0; p < dev_g.n_ports; p++)
		for (i = 0; i < DEV_NB_SLOTS; i++)
			if (dev_g.port[p].idx[i].ops == ops)
				return true;
	return false;
}

int
pcc_dev_algo_unregister(const char *name)
{
	const struct dev_entry *e;
	struct dev_simple *simple;
	unsigned int i;

	if (name == NULL)
		return -EINVAL;
	dev_lock();
	e = dev_registry_find(name);
	if (e == NULL) {
		dev_unlock();
		return -ENOENT;
	}
	if (loaded_anywhere(e->ops)) {
		dev_unlock();
		DEV_LOG(ERR, "%s: still loaded, unload it first", name);
		return -EBUSY;
	}
	simple = e->simple;
	i = (unsigned int)(e - registry);
	memmove(&registry[i], &registry[i + 1], (registry_n - i - 1) * sizeof(registry[0]));
	registry_n--;
	memset(&registry[registry_n], 0, sizeof(registry[0]));
	dev_unlock();
	if (simple != NULL)
		dev_simple_free(simple);
	return 0;
}

const struct pcc_dev_algo_ops *
pcc_dev_algo_find(const char *name)
{
	const struct dev_entry *e;
	const struct pcc_dev_algo_ops *ops;

	dev_lock();
	e = dev_registry_find(name);
	ops = e != NULL ? e->ops : NULL;
	dev_unlock();
	return ops;
}

unsigned int
pcc_dev_algo_list(const struct pcc_dev_algo_ops **ops, unsigned int n)
{
	unsigned int i, total;

	dev_lock();
	total = registry_n;
	for (i = 0; ops != NULL && i < n && i < total; i++)
		ops[i] = registry[i].ops;
	dev_unlock();
	return total;
}
