/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * DOCA PCC host contexts on lib/host (doca_pcc.h): create, application,
 * threads, start, stop, wait, state, mailbox, capabilities.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include <doca_pcc.h>

#include "doca_pcc_internal.h"
#include "pcc_dev.h"

/* A DOCA mailbox request is blocking: at most this long, ms. */
#define MAILBOX_TIMEOUT_MS 5000

static doca_error_t
host_fail(const char *call, struct doca_pcc *pcc, int rc)
{
	RTE_SET_USED(pcc);
	return doca_host_fail(doca_error_from_errno(rc), call, "%s", pcc_host_last_error());
}

/* A local device of the environment, or the reason. */
static doca_error_t
local_dev(const char *call, const struct doca_devinfo *d)
{
	if (d == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, call, "NULL device");
	if (d->remote)
		return doca_host_fail(DOCA_ERROR_NOT_SUPPORTED, call,
				"%s is a port of the dpdk-pcc PCC_TELEMETRY_PREFIX names: PCC "
				"contexts run in their own process (unset PCC_TELEMETRY_PREFIX)",
				d->name);
	if (d->port < 0)
		return doca_host_fail(DOCA_ERROR_NOT_FOUND, call, "%s has no port", d->name);
	return DOCA_SUCCESS;
}

/* ---- Capabilities ----------------------------------------------------------- */

doca_error_t
doca_devinfo_get_is_pcc_supported(const struct doca_devinfo *devinfo)
{
	doca_error_t e = local_dev(__func__, devinfo);

	if (e != DOCA_SUCCESS)
		return e;
	if (pcc_host_rp_supported((uint16_t)devinfo->port) != 1)
		return doca_host_fail(DOCA_ERROR_NOT_SUPPORTED, __func__, "%s: %s", devinfo->name,
				pcc_host_last_error());
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_np_cap_is_supported(const struct doca_devinfo *devinfo)
{
	doca_error_t e = local_dev(__func__, devinfo);

	if (e != DOCA_SUCCESS)
		return e;
	if (pcc_host_np_supported((uint16_t)devinfo->port) != 1)
		return doca_host_fail(DOCA_ERROR_NOT_SUPPORTED, __func__, "%s: %s", devinfo->name,
				pcc_host_last_error());
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_cap_is_ccmad_custom_header_supported(const struct doca_devinfo *devinfo)
{
	/* every RP port builds probes with a custom header (0..64 bytes) */
	return doca_devinfo_get_is_pcc_supported(devinfo);
}

doca_error_t
doca_pcc_cap_is_probe_priority_change_supported(const struct doca_devinfo *devinfo)
{
	/* a flow's probes take the DSCP the algorithm sets (probe_prio_set) */
	return doca_devinfo_get_is_pcc_supported(devinfo);
}

/* ---- Contexts --------------------------------------------------------------- */

static doca_error_t
ctx_create(const char *call, struct doca_dev *dev, struct doca_pcc **pcc, enum pcc_host_role role)
{
	struct pcc_host_ctx *ctx;
	struct doca_pcc *p;
	doca_error_t e;

	if (dev == NULL || pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, call, "NULL argument");
	e = local_dev(call, &dev->info);
	if (e != DOCA_SUCCESS)
		return e;
	if (!compat_env_ready() && compat_env_init("doca") < 0)
		return doca_host_fail(DOCA_ERROR_INITIALIZATION, call, "%s", compat_env_error());
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ctx = compat_ctx_get((uint16_t)dev->info.port, role);
	if (ctx == NULL) {
		free(p);
		return doca_host_fail(DOCA_ERROR_NOT_SUPPORTED, call, "%s: %s", dev->info.name,
				compat_env_error());
	}
	p->ctx = ctx;
	p->dev = dev;
	p->role = role;
	dev->users++;
	*pcc = p;
	DOCA_HOST_LOG(DEBUG, "%s: %s context on %s (port %u)", call,
			role == PCC_HOST_ROLE_RP ? "RP" : "NP", dev->info.name, dev->info.port);
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_create(struct doca_dev *doca_dev, struct doca_pcc **pcc)
{
	return ctx_create(__func__, doca_dev, pcc, PCC_HOST_ROLE_RP);
}

doca_error_t
doca_pcc_np_create(struct doca_dev *doca_dev, struct doca_pcc **pcc)
{
	return ctx_create(__func__, doca_dev, pcc, PCC_HOST_ROLE_NP);
}

doca_error_t
doca_pcc_destroy(struct doca_pcc *pcc)
{
	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	doca_pcc_trace_release(pcc);
	compat_ctx_put(pcc->ctx);
	pcc->dev->users--;
	free(pcc);
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_get_min_num_threads(struct doca_pcc *pcc, uint32_t *min_num_threads)
{
	if (pcc == NULL || min_num_threads == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	*min_num_threads = pcc_host_min_threads();
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_get_max_num_threads(struct doca_pcc *pcc, uint32_t *max_num_threads)
{
	if (pcc == NULL || max_num_threads == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	*max_num_threads = pcc_host_max_threads();
	return DOCA_SUCCESS;
}

/* Not after start (DOCA: DOCA_ERROR_BAD_STATE). */
static doca_error_t
configurable(const char *call, const struct doca_pcc *pcc)
{
	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, call, "NULL context");
	if (compat_ctx_started(pcc->ctx))
		return doca_host_fail(DOCA_ERROR_BAD_STATE, call,
				"the context has started: set it before doca_pcc_start()");
	return DOCA_SUCCESS;
}

/* The plug-in path of app: absolute, PCC_APP_DIR/path, or path. */
static void
plugin_path(const char *path, char *out, size_t len)
{
	const char *dir = getenv("PCC_APP_DIR");

	if (path[0] != '/' && dir != NULL && dir[0] != '\0') {
		snprintf(out, len, "%s/%s", dir, path);
		if (access(out, R_OK) == 0)
			return;
	}
	snprintf(out, len, "%s", path);
}

doca_error_t
doca_pcc_set_app(struct doca_pcc *pcc, struct doca_pcc_app *app)
{
	char path[PATH_MAX];
	doca_error_t e = configurable(__func__, pcc);
	int rc;

	if (e != DOCA_SUCCESS)
		return e;
	if (app == NULL || app->path == NULL || app->path[0] == '\0')
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__,
				"no application (DOCA_PCC_APP_DEFINE(symbol, \"plugin.so\"))");
	plugin_path(app->path, path, sizeof(path));
	if (strchr(path, '/') == NULL && strstr(path, ".so") == NULL)
		snprintf(path + strlen(path), sizeof(path) - strlen(path), ".so");
	rc = pcc_host_set_app(pcc->ctx, path);
	if (rc < 0)
		return doca_host_fail(doca_error_from_errno(rc), __func__, "%s (%s): %s",
				app->name != NULL ? app->name : "?", path, pcc_host_last_error());
	pcc->app = app;
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_set_thread_affinity(struct doca_pcc *pcc, uint32_t num_threads, uint32_t *affinity_configs)
{
	uint32_t workers[RTE_MAX_LCORE], lcores[RTE_MAX_LCORE];
	uint32_t nw, i, k, n = 0;
	doca_error_t e = configurable(__func__, pcc);
	int rc;

	if (e != DOCA_SUCCESS)
		return e;
	if (affinity_configs == NULL || num_threads < pcc_host_min_threads() ||
			num_threads > pcc_host_max_threads())
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__,
				"%u threads (%u..%u: doca_pcc_get_min/max_num_threads)",
				num_threads, pcc_host_min_threads(), pcc_host_max_threads());
	nw = compat_env_lcores(workers, RTE_DIM(workers));
	for (i = 0; i < num_threads; i++) {
		uint32_t id = affinity_configs[i], l = workers[id % nw];

		for (k = 0; k < nw; k++)
			if (workers[k] == id)
				l = id;
		for (k = 0; k < n && lcores[k] != l; k++)
			;
		if (k == n)
			lcores[n++] = l;
	}
	if (compat_env_sim()) {
		/* a simulator run polls every port on one lcore (determinism) */
		DOCA_HOST_LOG(NOTICE,
				"%s: %u threads checked; a simulator run polls every port on its "
				"one lcore",
				__func__, num_threads);
		pcc->threads = num_threads;
		return DOCA_SUCCESS;
	}
	rc = pcc_host_set_threads(pcc->ctx, n, n);
	if (rc == 0)
		rc = pcc_host_set_affinity(pcc->ctx, lcores, n);
	if (rc < 0)
		return host_fail(__func__, pcc, rc);
	pcc->threads = num_threads;
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_start(struct doca_pcc *pcc)
{
	int rc;

	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	if (compat_ctx_started(pcc->ctx))
		return doca_host_fail(DOCA_ERROR_BAD_STATE, __func__, "already started");
	rc = doca_pcc_trace_apply(pcc);
	if (rc == 0)
		rc = compat_ctx_start(pcc->ctx);
	if (rc < 0)
		return doca_host_fail(
				doca_error_from_errno(rc), __func__, "%s", compat_env_error());
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_stop(struct doca_pcc *pcc)
{
	int rc;

	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	if (!compat_ctx_started(pcc->ctx))
		return doca_host_fail(DOCA_ERROR_BAD_STATE, __func__, "not started");
	rc = compat_ctx_stop(pcc->ctx);
	if (rc < 0)
		return doca_host_fail(
				doca_error_from_errno(rc), __func__, "%s", compat_env_error());
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_wait(struct doca_pcc *pcc, int wait_time)
{
	int ms;

	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	if (!compat_ctx_started(pcc->ctx))
		return doca_host_fail(DOCA_ERROR_BAD_STATE, __func__, "not started");
	ms = wait_time < 0 ? -1 : (wait_time > INT_MAX / 1000 ? INT_MAX : wait_time * 1000);
	compat_wait(pcc->ctx, ms);
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_get_process_state(const struct doca_pcc *pcc, doca_pcc_process_state_t *process_state)
{
	if (pcc == NULL || process_state == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	compat_poll();
	/* a context stopped by a fault is ERROR whatever the process says */
	if (pcc_host_ctx_state(pcc->ctx) == PCC_HOST_CTX_ERROR)
		*process_state = DOCA_PCC_PS_ERROR;
	else
		*process_state = (doca_pcc_process_state_t)pcc_host_process_state();
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_enable_debug(struct doca_pcc *pcc, bool enable)
{
	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	pcc_host_debug_enable(enable);
	rte_log_set_level(doca_host_logtype, enable ? RTE_LOG_DEBUG : RTE_LOG_INFO);
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_dump_debug(struct doca_pcc *pcc)
{
	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	if (pcc_host_debug_dump(stdout) < 0)
		return host_fail(__func__, pcc, -EIO);
	fflush(stdout);
	return DOCA_SUCCESS;
}

/* ---- Mailbox ----------------------------------------------------------------- */

doca_error_t
doca_pcc_set_mailbox(struct doca_pcc *pcc, uint32_t max_request_size, uint32_t max_response_size)
{
	doca_error_t e = configurable(__func__, pcc);
	int rc;

	if (e != DOCA_SUCCESS)
		return e;
	rc = pcc_host_mailbox_set_size(pcc->ctx, max_request_size, max_response_size);
	if (rc < 0)
		return host_fail(__func__, pcc, rc);
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_mailbox_get_request_buffer(struct doca_pcc *pcc, void **request_buffer)
{
	uint32_t size;

	if (pcc == NULL || request_buffer == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	*request_buffer = pcc_host_mailbox_req_buf(pcc->ctx, &size);
	if (*request_buffer == NULL)
		return doca_host_fail(DOCA_ERROR_BAD_STATE, __func__,
				"no mailbox (doca_pcc_set_mailbox)");
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_mailbox_get_response_buffer(struct doca_pcc *pcc, void **response_buffer)
{
	uint32_t size;

	if (pcc == NULL || response_buffer == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	*response_buffer = pcc_host_mailbox_resp_buf(pcc->ctx, &size);
	if (*response_buffer == NULL)
		return doca_host_fail(DOCA_ERROR_BAD_STATE, __func__,
				"no mailbox (doca_pcc_set_mailbox)");
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_mailbox_send(struct doca_pcc *pcc, uint32_t request_size, uint32_t *response_size,
		uint32_t *cb_ret_val)
{
	uint8_t slot = 0;
	int rc, hrc = 0;

	if (pcc == NULL || response_size == NULL || cb_ret_val == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	if (pcc->role == PCC_HOST_ROLE_RP)
		slot = pcc_dev_slot_active(pcc_host_ctx_dev_port(pcc->ctx));
	rc = pcc_host_mailbox_send(
			pcc->ctx, slot, request_size, response_size, &hrc, MAILBOX_TIMEOUT_MS);
	if (rc < 0)
		return host_fail(__func__, pcc, rc);
	/* the handler's doca_pcc_dev_error_t: FAIL reaches lib/host as -EIO */
	*cb_ret_val = hrc < 0 ? 1 : 0;
	if (hrc < 0)
		*response_size = 0;
	return DOCA_SUCCESS;
}
