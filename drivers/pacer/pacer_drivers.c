/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Registration of the pacer backends with the front end (lib/pacer). */

#include <errno.h>
#include <stddef.h>

#include <rte_common.h>
#include <rte_log.h>

#include "pcc_pacer_drivers.h"
#include "pacer_drv.h"

RTE_LOG_REGISTER(pacer_drv_logtype, pcc.pacer.drv, INFO);

int
pcc_pacer_drivers_register(void)
{
	static const struct pcc_pacer_ops *const all[] = {
		&pacer_wheel_ops,
		&pacer_txpp_ops,
		&pacer_mtr_ops,
	};
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(all); i++) {
		const struct pcc_pacer_ops *found = pcc_pacer_backend_find(all[i]->name);

		if (found == all[i])
			continue;
		if (found != NULL)
			return -EEXIST; /* another backend took the name */
		ret = pcc_pacer_backend_register(all[i]);
		if (ret < 0)
			return ret;
	}
	return 0;
}
