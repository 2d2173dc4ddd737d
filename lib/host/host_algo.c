/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The algorithms an application can name: the built-ins, registered by
 * lib/host (the engine registers none), and those of loaded plug-ins.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "host_internal.h"
#include "pcc_algos.h"

int
pcc_host_algos_register(void)
{
	static int done;
	int rc;

	if (__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		return 0;
	rc = pcc_algos_register_builtin();
	if (rc < 0)
		return host_err(rc, "registering the built-in algorithms failed");
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	return 0;
}

static int
why_fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

int
pcc_host_algo_check(const char *algo, const char *name, const char *value, char *why, size_t whylen)
{
	const struct pcc_dev_algo_ops *list[PCC_DEV_MAX_REGISTERED];
	const struct pcc_dev_algo_ops *ops;
	const struct pcc_dev_param_desc *pd = NULL;
	char names[512];
	unsigned long long v;
	unsigned int n, i;
	size_t off = 0;
	char *end;

	pcc_host_algos_register();
	if (algo == NULL || algo[0] == '\0')
		algo = "rtt";
	ops = pcc_dev_algo_find(algo);
	if (ops == NULL) {
		n = RTE_MIN(pcc_dev_algo_list(list, RTE_DIM(list)), (unsigned int)RTE_DIM(list));
		names[0] = '\0';
		for (i = 0; i < n && off < sizeof(names); i++)
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
					i > 0 ? ", " : "", list[i]->name);
		return why_fail(why, whylen, "unknown algorithm '%s' (known: %s)", algo, names);
	}
	if (name == NULL)
		return 0;
	for (i = 0; i < ops->n_params; i++)
		if (ops->params[i].name != NULL && strcmp(ops->params[i].name, name) == 0)
			pd = &ops->params[i];
	if (pd == NULL) {
		names[0] = '\0';
		for (i = 0; i < ops->n_params && off < sizeof(names); i++)
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
					i > 0 ? ", " : "", ops->params[i].name);
		return why_fail(why, whylen, "algorithm %s has no parameter '%s' (it has: %s)",
				ops->name, name, names);
	}
	if (value == NULL || value[0] == '\0' || value[0] == '-' || value[0] == '+')
		return why_fail(why, whylen, "%s: '%s' is not a number", name,
				value != NULL ? value : "");
	errno = 0;
	v = strtoull(value, &end, 0);
	if (errno != 0 || *end != '\0')
		return why_fail(why, whylen, "%s: '%s' is not a number", name, value);
	if (v < pd->min || v > pd->max)
		return why_fail(why, whylen, "%s of %s is %u..%u, not %s", name, ops->name, pd->min,
				pd->max, value);
	if (!PCC_DEV_PERM_WRITABLE(pd->perm))
		return why_fail(why, whylen, "%s of %s is read-only", name, ops->name);
	return 0;
}

const struct pcc_algo_profile *
host_algo_profile(const char *algo, const char *name, char *why, size_t whylen)
{
	const struct pcc_algo_profile *list, *pr;
	char names[128];
	unsigned int n, i;
	size_t off = 0;

	if (algo == NULL || algo[0] == '\0')
		algo = "rtt";
	pr = pcc_algos_profile_find(algo, name);
	if (pr != NULL)
		return pr;
	names[0] = '\0';
	n = pcc_algos_profiles(&list);
	for (i = 0; i < n && off < sizeof(names); i++)
		if (strcmp(list[i].algo, algo) == 0)
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
					off > 0 ? ", " : "", list[i].name);
	if (off == 0)
		why_fail(why, whylen,
				"invalid value '%s' for --algo-profile (algorithm %s has no "
				"profiles)",
				name, algo);
	else
		why_fail(why, whylen,
				"invalid value '%s' for --algo-profile (algorithm %s has no "
				"profile '%s' (profiles: %s))",
				name, algo, name, names);
	return NULL;
}
