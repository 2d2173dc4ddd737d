/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#include <errno.h>
#include <stddef.h>

#include <pcc_dev.h>

#include "pcc_algos.h"

static const struct pcc_dev_algo_ops *const builtin[] = {
	&pcc_algo_rtt_ops,
	&pcc_algo_dcqcn_ops,
	&pcc_algo_timely_ops,
	&pcc_algo_swift_ops,
	&pcc_algo_hpcc_ops,
	&pcc_algo_dctcp_ops,
	&pcc_algo_noop_ops,
};

#define N_BUILTIN (sizeof(builtin) / sizeof(builtin[0]))

const struct pcc_dev_algo_ops *const *
pcc_algos_builtin(unsigned int *n)
{
	if (n != NULL)
		*n = N_BUILTIN;
	return builtin;
}

int
pcc_algos_register_builtin(void)
{
	unsigned int i;
	int ret = 0;
	int rc;

	for (i = 0; i < N_BUILTIN; i++) {
		if (pcc_dev_algo_find(builtin[i]->name) == builtin[i])
			continue; /* already there: quietly */
		rc = pcc_dev_algo_register(builtin[i]);
		if (rc < 0 && rc != -EEXIST && ret == 0)
			ret = rc;
	}
	return ret;
}
