/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * PCC_HA=NAME[:DIR]: processes started with the same NAME serve the same
 * ports, one ACTIVE, the others STANDBY (lib/host's active/standby,
 * doc/host.md).  The HA thread only flags the change; the program's main
 * thread starts or stops its contexts (compat_ha_poll, from compat_wait
 * and compat_poll), as the engine's lcores are launched from the main
 * lcore.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "compat_env_priv.h"

static int
ha_become_active(void *arg)
{
	RTE_SET_USED(arg);
	__atomic_store_n(&compat.ha_go, 1, __ATOMIC_RELEASE);
	return 0;
}

static int
ha_deactivate(void *arg)
{
	RTE_SET_USED(arg);
	__atomic_store_n(&compat.ha_go, 0, __ATOMIC_RELEASE);
	pcc_host_engine_stop_async();
	return 0;
}

int
compat_ha_start(void)
{
	struct pcc_host_ha_conf hc;
	char name[PATH_MAX], *colon;

	if (compat.ha != NULL || compat.set.ha[0] == '\0')
		return 0;
	snprintf(name, sizeof(name), "%s", compat.set.ha);
	memset(&hc, 0, sizeof(hc));
	colon = strchr(name, ':');
	if (colon != NULL) {
		*colon = '\0';
		hc.dir = colon + 1;
	}
	hc.name = name;
	hc.become_active = ha_become_active;
	hc.deactivate = ha_deactivate;
	hc.journal = true;
	compat.ha = pcc_host_ha_start(&hc);
	if (compat.ha == NULL)
		return compat_env_fail(
				-EINVAL, "PCC_HA %s: %s", compat.set.ha, pcc_host_last_error());
	COMPAT_LOG(INFO, "PCC_HA %s: lock file %s", compat.set.ha, pcc_host_ha_path(compat.ha));
	return 0;
}

void
compat_ha_poll(void)
{
	uint32_t i;
	int rc;

	if (compat.ha == NULL)
		return;
	if (__atomic_load_n(&compat.ha_go, __ATOMIC_ACQUIRE) != 0 && !compat.ha_started) {
		compat.ha_started = true;
		for (i = 0; i < compat.nb_ctx; i++) {
			if (!compat.ctx[i].start_asked)
				continue;
			rc = pcc_host_start(compat.ctx[i].ctx);
			if (rc < 0)
				COMPAT_LOG(ERR, "PCC_HA: ACTIVE, but port %u does not start: %s",
						pcc_host_ctx_port(compat.ctx[i].ctx),
						pcc_host_last_error());
		}
		COMPAT_LOG(INFO, "PCC_HA %s: ACTIVE (generation %lu): contexts started",
				compat.set.ha, (unsigned long)pcc_host_ha_generation(compat.ha));
	} else if (__atomic_load_n(&compat.ha_go, __ATOMIC_ACQUIRE) == 0 && compat.ha_started) {
		compat.ha_started = false;
		for (i = 0; i < compat.nb_ctx; i++)
			if (pcc_host_ctx_state(compat.ctx[i].ctx) == PCC_HOST_CTX_RUNNING)
				pcc_host_stop(compat.ctx[i].ctx);
		COMPAT_LOG(INFO, "PCC_HA %s: DEACTIVATED: contexts stopped", compat.set.ha);
	}
}
