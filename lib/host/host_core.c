/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Errors, process state, the contexts' lifecycle. */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_lcore.h>
#include <rte_log.h>

#include "host_internal.h"
#include "pcc_dev_plugin.h"
#include "pcc_dev_svc.h"
#include "pcc_host_ha.h"
#include "pcc_host_tp.h"

RTE_LOG_REGISTER(host_logtype, pcc.host, INFO);

bool host_debug;
pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t host_cond;
static pthread_once_t host_cond_once = PTHREAD_ONCE_INIT;
static uint64_t host_gen;
static int host_ps = PCC_HOST_PS_STANDBY;
static struct pcc_host_ctx *host_ctx[PCC_HOST_MAX_CTX];

static __thread char host_errbuf[256];

/* ---- Errors -------------------------------------------------------------- */

int
host_err(int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(host_errbuf, sizeof(host_errbuf), fmt, ap);
	va_end(ap);
	HOST_LOG(ERR, "%s (%s)\n", host_errbuf, strerror(-rc));
	return rc;
}

void
host_err_clear(void)
{
	host_errbuf[0] = '\0';
}

const char *
pcc_host_last_error(void)
{
	return host_errbuf;
}

/* ---- Process state and notification ------------------------------------------ */

static void
host_cond_init(void)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&host_cond, &a);
	pthread_condattr_destroy(&a);
}

void
host_notify_locked(void)
{
	pthread_once(&host_cond_once, host_cond_init);
	host_gen++;
	pthread_cond_broadcast(&host_cond);
}

void
host_notify(void)
{
	pthread_mutex_lock(&host_lock);
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
}

void
host_process_state_store(enum pcc_host_process_state st)
{
	__atomic_store_n(&host_ps, (int)st, __ATOMIC_RELEASE);
}

enum pcc_host_process_state
pcc_host_process_state(void)
{
	return (enum pcc_host_process_state)__atomic_load_n(&host_ps, __ATOMIC_ACQUIRE);
}

const char *
pcc_host_process_state_name(int st)
{
	static const char *const names[] = { "active", "standby", "deactivated", "error" };

	return st >= 0 && st <= PCC_HOST_PS_ERROR ? names[st] : "unknown";
}

int
pcc_host_process_state_set(enum pcc_host_process_state st)
{
	if ((int)st < PCC_HOST_PS_ACTIVE || st > PCC_HOST_PS_ERROR)
		return host_err(-EINVAL, "process state %d: not 0..3", (int)st);
	pthread_mutex_lock(&host_lock);
	if (pcc_host_process_state() != st) {
		host_process_state_store(st);
		pcc_tp_host_state(UINT16_MAX, -1, (int32_t)st);
		HOST_LOG(INFO, "process state %s\n", pcc_host_process_state_name((int)st));
	}
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
	return 0;
}

/* ---- Contexts ------------------------------------------------------------------ */

struct pcc_host_ctx *
host_ctx_at(unsigned int i)
{
	return i < PCC_HOST_MAX_CTX ? host_ctx[i] : NULL;
}

static const char *
role_name(int role)
{
	return role == PCC_HOST_ROLE_RP ? "RP" : "NP";
}

static struct pcc_host_ctx *
ctx_create(uint8_t role, uint16_t port_id)
{
	struct pcc_host_ctx *ctx;
	unsigned int i, free_i = PCC_HOST_MAX_CTX, n_rp = 0;

	host_err_clear();
	if (port_id >= RTE_MAX_ETHPORTS) {
		host_err(-EINVAL, "port %u: not below RTE_MAX_ETHPORTS (%u)", port_id,
				RTE_MAX_ETHPORTS);
		errno = EINVAL;
		return NULL;
	}
	if (pcc_host_algos_register() < 0) {
		errno = EINVAL;
		return NULL;
	}
	host_proc_ensure();
	pthread_mutex_lock(&host_lock);
	if (host_e != NULL) {
		pthread_mutex_unlock(&host_lock);
		host_err(-EBUSY,
				"port %u: the engine exists (created at the first start): "
				"create every context before it",
				port_id);
		errno = EBUSY;
		return NULL;
	}
	for (i = 0; i < PCC_HOST_MAX_CTX; i++) {
		if (host_ctx[i] == NULL) {
			if (free_i == PCC_HOST_MAX_CTX)
				free_i = i;
			continue;
		}
		if (host_ctx[i]->role == PCC_HOST_ROLE_RP && host_ctx[i]->port_id < port_id)
			n_rp++;
		if (host_ctx[i]->port_id == port_id && host_ctx[i]->role == role) {
			pthread_mutex_unlock(&host_lock);
			host_err(-EEXIST, "an %s context exists on port %u", role_name(role),
					port_id);
			errno = EEXIST;
			return NULL;
		}
	}
	if (free_i == PCC_HOST_MAX_CTX) {
		pthread_mutex_unlock(&host_lock);
		host_err(-ENOSPC, "%u contexts exist already", PCC_HOST_MAX_CTX);
		errno = ENOSPC;
		return NULL;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (ctx == NULL) {
		pthread_mutex_unlock(&host_lock);
		host_err(-ENOMEM, "no memory for a context");
		errno = ENOMEM;
		return NULL;
	}
	ctx->used = true;
	ctx->role = role;
	ctx->port_id = port_id;
	/* the engine numbers RP ports in port id order (its dev_port) */
	ctx->dev_port = (uint8_t)(n_rp % PCC_ENGINE_DEV_PORTS);
	ctx->state = PCC_HOST_CTX_CREATED;
	ctx->min_threads = 1;
	ctx->max_threads = PCC_HOST_MAX_LCORES;
	host_rp_default(&ctx->rp);
	host_np_default(&ctx->np);
	pthread_mutex_init(&ctx->mbox_lock, NULL);
	host_ctx[free_i] = ctx;
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
	HOST_LOG(DEBUG, "%s context created on port %u\n", role_name(role), port_id);
	return ctx;
}

struct pcc_host_ctx *
pcc_host_rp_create(uint16_t port_id)
{
	return ctx_create(PCC_HOST_ROLE_RP, port_id);
}

struct pcc_host_ctx *
pcc_host_np_create(uint16_t port_id)
{
	return ctx_create(PCC_HOST_ROLE_NP, port_id);
}

struct pcc_host_ctx *
pcc_host_ctx_find(uint16_t port_id, enum pcc_host_role role)
{
	struct pcc_host_ctx *ctx = NULL;
	unsigned int i;

	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX && ctx == NULL; i++)
		if (host_ctx[i] != NULL && host_ctx[i]->port_id == port_id &&
				host_ctx[i]->role == (uint8_t)role)
			ctx = host_ctx[i];
	pthread_mutex_unlock(&host_lock);
	return ctx;
}

void
pcc_host_destroy(struct pcc_host_ctx *ctx)
{
	unsigned int i;
	bool last = true;

	if (ctx == NULL)
		return;
	if (ctx->state == PCC_HOST_CTX_RUNNING || ctx->state == PCC_HOST_CTX_ERROR)
		pcc_host_stop(ctx);
	if (ctx->role == PCC_HOST_ROLE_NP && ctx->plugin && ctx->in_engine)
		pcc_np_port_handler_set(ctx->port_id, NULL);
	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX; i++) {
		if (host_ctx[i] == ctx)
			host_ctx[i] = NULL;
		else if (host_ctx[i] != NULL)
			last = false;
	}
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
	host_mbox_ctx_free(ctx);
	pthread_mutex_destroy(&ctx->mbox_lock);
	host_np_free(&ctx->np);
	HOST_LOG(DEBUG, "%s context on port %u destroyed\n", role_name(ctx->role), ctx->port_id);
	free(ctx);
	if (last)
		host_engine_destroy();
}

enum pcc_host_ctx_state
pcc_host_ctx_state(const struct pcc_host_ctx *ctx)
{
	return ctx == NULL ?
			PCC_HOST_CTX_ERROR :
			(enum pcc_host_ctx_state)__atomic_load_n(&ctx->state, __ATOMIC_ACQUIRE);
}

const char *
pcc_host_ctx_state_name(int st)
{
	static const char *const names[] = { "created", "running", "stopped", "error" };

	return st >= 0 && st <= PCC_HOST_CTX_ERROR ? names[st] : "unknown";
}

enum pcc_host_role
pcc_host_ctx_role(const struct pcc_host_ctx *ctx)
{
	return (enum pcc_host_role)ctx->role;
}

uint16_t
pcc_host_ctx_port(const struct pcc_host_ctx *ctx)
{
	return ctx->port_id;
}

uint8_t
pcc_host_ctx_dev_port(const struct pcc_host_ctx *ctx)
{
	return ctx->dev_port;
}

int
host_ctx_configurable(const struct pcc_host_ctx *ctx, const char *what)
{
	int st;

	host_err_clear();
	if (ctx == NULL)
		return host_err(-EINVAL, "%s: NULL context", what);
	st = pcc_host_ctx_state(ctx);
	if (st == PCC_HOST_CTX_RUNNING)
		return host_err(-EBUSY,
				"%s: not allowed after start (context on port %u is running; stop "
				"it first)",
				what, ctx->port_id);
	if (st == PCC_HOST_CTX_ERROR)
		return host_err(-EBUSY, "%s: context on port %u is in ERROR state; destroy it",
				what, ctx->port_id);
	return 0;
}

int
host_before_engine(const struct pcc_host_ctx *ctx, const char *what)
{
	int rc = host_ctx_configurable(ctx, what);

	if (rc < 0)
		return rc;
	if (host_e != NULL)
		return host_err(-EBUSY,
				"%s: the engine exists (created at the first start); this is "
				"fixed then",
				what);
	return 0;
}

/* A fault put the process in ERROR: running contexts follow. */
void
host_ctx_fault(void)
{
	unsigned int i;

	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX; i++)
		if (host_ctx[i] != NULL && host_ctx[i]->state == PCC_HOST_CTX_RUNNING)
			__atomic_store_n(&host_ctx[i]->state, PCC_HOST_CTX_ERROR, __ATOMIC_RELEASE);
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
}

uint64_t
host_generation(void)
{
	uint64_t g;

	pthread_mutex_lock(&host_lock);
	g = host_gen;
	pthread_mutex_unlock(&host_lock);
	return g;
}

int
host_wait_gen(uint64_t gen, int timeout_ms)
{
	struct timespec ts;
	int rc = 0;

	pthread_once(&host_cond_once, host_cond_init);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (timeout_ms >= 0) {
		ts.tv_sec += timeout_ms / 1000;
		ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
	}
	pthread_mutex_lock(&host_lock);
	while (host_gen == gen && rc == 0) {
		if (timeout_ms < 0)
			rc = pthread_cond_wait(&host_cond, &host_lock);
		else
			rc = pthread_cond_timedwait(&host_cond, &host_lock, &ts);
	}
	rc = host_gen != gen ? 0 : -ETIMEDOUT;
	pthread_mutex_unlock(&host_lock);
	return rc;
}

void
pcc_host_debug_enable(bool on)
{
	host_debug = on;
	if (on)
		rte_log_set_level(host_logtype, RTE_LOG_DEBUG);
	HOST_LOG(INFO, "debug %s\n", on ? "on" : "off");
}

bool
pcc_host_debug_enabled(void)
{
	return host_debug;
}

/* ---- Parameters ----------------------------------------------------------------- */

int
pcc_host_param_set(uint8_t port, uint8_t slot, const char *name, const char *value)
{
	int rc;

	host_err_clear();
	if (name == NULL || value == NULL)
		return host_err(-EINVAL, "param set: NULL name or value");
	rc = pcc_dev_param_set_str(port, slot, name, value);
	if (rc < 0)
		return host_err(rc, "param set: %s=%s on port %u slot %u refused", name, value,
				port, slot);
	rc = host_ha_journal(port, slot, name, value);
	if (rc < 0)
		return host_err(rc, "param set: %s applied but not journaled", name);
	return 0;
}

int
pcc_host_ppcc(const struct pcc_dev_mgmt_req *req, struct pcc_dev_mgmt_resp *resp)
{
	const struct pcc_dev_algo_ops *ops;
	char val[16];
	uint32_t i;
	int rc;

	host_err_clear();
	rc = pcc_dev_mgmt_exec(req, resp);
	if (rc < 0)
		return host_err(rc, "ppcc 0x%x: %s", req != NULL ? req->cmd_type : 0,
				resp != NULL ? resp->err : "no answer buffer");
	if (req->cmd_type != PCC_MGMT_PARAM_SET && req->cmd_type != PCC_MGMT_PARAMS_SET)
		return 0;
	/* the values applied are in the answer, from the first id on */
	ops = pcc_dev_slot_algo(req->port, req->slot, NULL);
	for (i = 0; ops != NULL && i < resp->n_words; i++) {
		snprintf(val, sizeof(val), "%u", resp->words[i]);
		rc = host_ha_journal(req->port, req->slot, ops->params[req->index + i].name, val);
		if (rc < 0)
			return host_err(rc, "ppcc: parameter %u applied but not journaled",
					req->index + i);
	}
	return 0;
}
