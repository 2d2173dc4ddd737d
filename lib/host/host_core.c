/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Errors, process state, engine provider, contexts. */

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
#include "pcc_dev_simple.h"
#include "pcc_dev_svc.h"
#include "pcc_host_ha.h"
#include "pcc_host_tp.h"

RTE_LOG_REGISTER(host_logtype, pcc.host, INFO);

struct host_engine host_engine;
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

/* ---- Engine provider ------------------------------------------------------------ */

void
pcc_host_engine_register(const struct pcc_host_engine_ops *ops, void *arg)
{
	pthread_mutex_lock(&host_lock);
	if (ops == NULL) {
		memset(&host_engine, 0, sizeof(host_engine));
	} else {
		host_engine.ops = *ops;
		host_engine.arg = arg;
	}
	pthread_mutex_unlock(&host_lock);
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
	unsigned int i, free_i = PCC_HOST_MAX_CTX;
	uint8_t dev_port;
	int rc;

	host_err_clear();
	if (port_id >= RTE_MAX_ETHPORTS) {
		host_err(-EINVAL, "port %u: not below RTE_MAX_ETHPORTS (%u)", port_id,
				RTE_MAX_ETHPORTS);
		errno = EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX; i++) {
		if (host_ctx[i] == NULL) {
			if (free_i == PCC_HOST_MAX_CTX)
				free_i = i;
			continue;
		}
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
	dev_port = port_id < PCC_DEV_MAX_PORTS ? (uint8_t)port_id : 0;
	if (host_engine.ops.port_dev != NULL) {
		rc = host_engine.ops.port_dev(host_engine.arg, port_id, &dev_port);
		if (rc < 0)
			dev_port = port_id < PCC_DEV_MAX_PORTS ? (uint8_t)port_id : 0;
	}
	ctx->dev_port = dev_port;
	ctx->state = PCC_HOST_CTX_CREATED;
	ctx->min_threads = 1;
	ctx->max_threads = PCC_HOST_MAX_LCORES;
	pthread_mutex_init(&ctx->mbox_lock, NULL);
	for (i = 0; i < PCC_HOST_PROBE_SLOTS; i++) {
		ctx->probe[i].ifa_hop_limit = 0xFE;
		ctx->probe[i].ifa2_gns = 0xF;
	}
	host_ctx[free_i] = ctx;
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
	HOST_LOG(INFO, "%s context created on port %u\n", role_name(role), port_id);
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

void
pcc_host_destroy(struct pcc_host_ctx *ctx)
{
	unsigned int i;

	if (ctx == NULL)
		return;
	if (ctx->state == PCC_HOST_CTX_RUNNING)
		pcc_host_stop(ctx);
	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX; i++)
		if (host_ctx[i] == ctx)
			host_ctx[i] = NULL;
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
	host_mbox_ctx_free(ctx);
	pthread_mutex_destroy(&ctx->mbox_lock);
	free(ctx);
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

/* Configuration calls: only in CREATED or STOPPED. */
static int
ctx_configurable(const struct pcc_host_ctx *ctx, const char *what)
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

static bool
is_plugin_path(const char *app)
{
	size_t n = strlen(app);

	return strchr(app, '/') != NULL || (n > 3 && strcmp(app + n - 3, ".so") == 0);
}

int
pcc_host_set_app(struct pcc_host_ctx *ctx, const char *app)
{
	char why[256];
	struct pcc_dev_plugin_info info[PCC_DEV_PLUGIN_MAX];
	unsigned int i, n;
	int rc;

	rc = ctx_configurable(ctx, "set app");
	if (rc < 0)
		return rc;
	if (ctx->role != PCC_HOST_ROLE_RP)
		return host_err(-ENOTSUP, "set app: the NP context of port %u takes no algorithm",
				ctx->port_id);
	if (app == NULL || app[0] == '\0')
		return host_err(-EINVAL, "set app: empty name");
	if (strlen(app) >= sizeof(ctx->app))
		return host_err(-ENAMETOOLONG, "set app: name too long");
	if (!is_plugin_path(app)) {
		if (pcc_dev_algo_find(app) == NULL)
			return host_err(-ENOENT, "set app: no registered algorithm '%s'", app);
		snprintf(ctx->app, sizeof(ctx->app), "%s", app);
		ctx->plugin = false;
		ctx->plugin_name[0] = '\0';
		return 0;
	}
	/* already loaded (e.g. by another context)? */
	n = pcc_dev_plugin_list(info, PCC_DEV_PLUGIN_MAX);
	for (i = 0; i < n && i < PCC_DEV_PLUGIN_MAX; i++)
		if (strcmp(info[i].path, app) == 0)
			break;
	if (i == n || i == PCC_DEV_PLUGIN_MAX) {
		rc = pcc_dev_plugin_check(app, why, sizeof(why));
		if (rc < 0)
			return host_err(rc, "set app: plug-in %s refused: %s", app, why);
		rc = pcc_dev_plugin_load(app, why, sizeof(why));
		if (rc < 0)
			return host_err(rc, "set app: plug-in %s: %s", app, why);
		n = pcc_dev_plugin_list(info, PCC_DEV_PLUGIN_MAX);
		for (i = 0; i < n && i < PCC_DEV_PLUGIN_MAX; i++)
			if (strcmp(info[i].path, app) == 0)
				break;
		if (i == n || i == PCC_DEV_PLUGIN_MAX)
			return host_err(-ENOENT, "set app: plug-in %s not listed after loading",
					app);
	}
	snprintf(ctx->app, sizeof(ctx->app), "%s", app);
	snprintf(ctx->plugin_name, sizeof(ctx->plugin_name), "%s", info[i].name);
	ctx->plugin = true;
	return 0;
}

const char *
pcc_host_app(const struct pcc_host_ctx *ctx, bool *plugin)
{
	if (plugin != NULL)
		*plugin = ctx->plugin;
	return ctx->plugin ? ctx->plugin_name : ctx->app;
}

int
pcc_host_set_threads(struct pcc_host_ctx *ctx, uint32_t min, uint32_t max)
{
	int rc = ctx_configurable(ctx, "set threads");

	if (rc < 0)
		return rc;
	if (min < 1 || min > max || max > PCC_HOST_MAX_LCORES)
		return host_err(-ERANGE, "set threads: need 1 <= min (%u) <= max (%u) <= %u", min,
				max, PCC_HOST_MAX_LCORES);
	if (ctx->n_lcores != 0 && (ctx->n_lcores < min || ctx->n_lcores > max))
		return host_err(-ERANGE,
				"set threads: the affinity already set has %u lcores, outside [%u, "
				"%u]",
				ctx->n_lcores, min, max);
	ctx->min_threads = min;
	ctx->max_threads = max;
	return 0;
}

void
pcc_host_threads(const struct pcc_host_ctx *ctx, uint32_t *min, uint32_t *max)
{
	if (min != NULL)
		*min = ctx->min_threads;
	if (max != NULL)
		*max = ctx->max_threads;
}

int
pcc_host_set_affinity(struct pcc_host_ctx *ctx, const uint32_t *lcores, uint32_t n)
{
	uint32_t i, j;
	int rc = ctx_configurable(ctx, "set affinity");

	if (rc < 0)
		return rc;
	if (lcores == NULL && n != 0)
		return host_err(-EINVAL, "set affinity: NULL lcore list");
	if (n < ctx->min_threads || n > ctx->max_threads)
		return host_err(-ERANGE,
				"set affinity: %u lcores, outside [min %u, max %u] threads", n,
				ctx->min_threads, ctx->max_threads);
	for (i = 0; i < n; i++) {
		if (lcores[i] >= RTE_MAX_LCORE)
			return host_err(-EINVAL,
					"set affinity: lcore %u: not below RTE_MAX_LCORE (%u)",
					lcores[i], RTE_MAX_LCORE);
		if (rte_lcore_count() > 0 && !rte_lcore_is_enabled(lcores[i]))
			return host_err(-EINVAL,
					"set affinity: lcore %u is not enabled in the EAL (-l)",
					lcores[i]);
		for (j = 0; j < i; j++)
			if (lcores[j] == lcores[i])
				return host_err(-EINVAL, "set affinity: lcore %u listed twice",
						lcores[i]);
	}
	memcpy(ctx->lcores, lcores, n * sizeof(*lcores));
	ctx->n_lcores = n;
	return 0;
}

uint32_t
pcc_host_affinity(const struct pcc_host_ctx *ctx, uint32_t *lcores, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n && i < ctx->n_lcores; i++)
		lcores[i] = ctx->lcores[i];
	return ctx->n_lcores;
}

int
pcc_host_set_probe(struct pcc_host_ctx *ctx, uint8_t slot, const struct pcc_host_probe_conf *p)
{
	int rc = ctx_configurable(ctx, "set probe");

	if (rc < 0)
		return rc;
	if (ctx->role != PCC_HOST_ROLE_RP)
		return host_err(-ENOTSUP, "set probe: probe formats are an RP setting");
	if (p == NULL)
		return host_err(-EINVAL, "set probe: NULL configuration");
	if (slot >= PCC_HOST_PROBE_SLOTS)
		return host_err(-ERANGE, "set probe: probe slot %u: not 0..%u", slot,
				PCC_HOST_PROBE_SLOTS - 1);
	if (p->format >= PCC_HOST_PROBE_FMT_MAX)
		return host_err(-ERANGE, "set probe: format %u: not ccmad (0), ifa1 (1), ifa2 (2)",
				p->format);
	if (p->custom_len > PCC_HOST_PROBE_CUSTOM_MAX ||
			(unsigned int)p->custom_offset + p->custom_len > PCC_HOST_PROBE_CUSTOM_MAX)
		return host_err(-ERANGE, "set probe: custom header %u bytes at %u: beyond %u bytes",
				p->custom_len, p->custom_offset, PCC_HOST_PROBE_CUSTOM_MAX);
	if (p->format != PCC_HOST_PROBE_CCMAD && (p->custom_len != 0 || p->hw_np))
		return host_err(-EINVAL, "set probe: custom header and hw_np are CCMAD settings");
	if (p->format == PCC_HOST_PROBE_IFA1 && p->ifa1_marker != 0 && !(p->ifa1_marker >> 63))
		return host_err(-ERANGE,
				"set probe: IFA1 marker needs its most significant bit set");
	if (p->ifa2_gns > 15)
		return host_err(-ERANGE, "set probe: IFA2 GNS %u: not 0..15", p->ifa2_gns);
	ctx->probe[slot] = *p;
	if (ctx->probe[slot].ifa_hop_limit == 0)
		ctx->probe[slot].ifa_hop_limit = 0xFE;
	return 0;
}

int
pcc_host_probe(const struct pcc_host_ctx *ctx, uint8_t slot, struct pcc_host_probe_conf *p)
{
	if (ctx == NULL || p == NULL || slot >= PCC_HOST_PROBE_SLOTS)
		return host_err(-EINVAL, "probe: bad argument");
	*p = ctx->probe[slot];
	return 0;
}

int
pcc_host_np_caps(const struct pcc_host_ctx *ctx, struct pcc_host_np_caps *caps)
{
	if (ctx == NULL || caps == NULL)
		return host_err(-EINVAL, "np caps: bad argument");
	/* the engine's NP runner as documented in pcc_engine.h */
	caps->resp_ts_size_max = 32;
	caps->resp_ts_res_max = 63;
	caps->ts_sources = (1u << PCC_HOST_TS_PORT) | (1u << PCC_HOST_TS_REALTIME);
	caps->resp_user_max = PCC_DEV_RTT_USER_LEN;
	caps->probe_slots = PCC_HOST_PROBE_SLOTS;
	caps->probe_custom_max = PCC_HOST_PROBE_CUSTOM_MAX;
	caps->probe_formats = (1u << PCC_HOST_PROBE_FMT_MAX) - 1;
	if (host_engine.ops.np_caps != NULL)
		return host_engine.ops.np_caps(host_engine.arg, ctx->port_id, caps);
	return 0;
}

static int
np_only(const struct pcc_host_ctx *ctx, const char *what)
{
	int rc = ctx_configurable(ctx, what);

	if (rc < 0)
		return rc;
	if (ctx->role != PCC_HOST_ROLE_NP)
		return host_err(-ENOTSUP, "%s: an NP setting, context on port %u is RP", what,
				ctx->port_id);
	return 0;
}

int
pcc_host_np_set_resp_ts(struct pcc_host_ctx *ctx, uint8_t size_bits, uint8_t res_shift)
{
	struct pcc_host_np_caps caps;
	int rc = np_only(ctx, "set response timestamp");

	if (rc < 0)
		return rc;
	rc = pcc_host_np_caps(ctx, &caps);
	if (rc < 0)
		return rc;
	if (size_bits > caps.resp_ts_size_max)
		return host_err(-ERANGE, "set response timestamp: %u bits, at most %u", size_bits,
				caps.resp_ts_size_max);
	if (res_shift > caps.resp_ts_res_max)
		return host_err(-ERANGE, "set response timestamp: resolution shift %u, at most %u",
				res_shift, caps.resp_ts_res_max);
	ctx->np.resp_ts_size = size_bits;
	ctx->np.resp_ts_res = res_shift;
	return 0;
}

int
pcc_host_np_set_ts_src(struct pcc_host_ctx *ctx, enum pcc_host_ts_src src)
{
	struct pcc_host_np_caps caps;
	int rc = np_only(ctx, "set timestamp source");

	if (rc < 0)
		return rc;
	if ((unsigned int)src > 31)
		return host_err(-EINVAL, "set timestamp source: %d unknown", (int)src);
	rc = pcc_host_np_caps(ctx, &caps);
	if (rc < 0)
		return rc;
	if (!(caps.ts_sources & (1u << src)))
		return host_err(-ENOTSUP, "set timestamp source: %d not supported on port %u",
				(int)src, ctx->port_id);
	ctx->np.ts_src = (uint8_t)src;
	return 0;
}

int
pcc_host_np_set_gns_filter(struct pcc_host_ctx *ctx, uint8_t mask, uint8_t value)
{
	int rc = np_only(ctx, "set GNS filter");

	if (rc < 0)
		return rc;
	if (mask > 15 || value > 15)
		return host_err(-ERANGE, "set GNS filter: mask %u / value %u: GNS is 4 bits", mask,
				value);
	ctx->np.gns_mask = mask;
	ctx->np.gns_value = value;
	return 0;
}

int
pcc_host_np_conf_get(const struct pcc_host_ctx *ctx, struct pcc_host_np_conf *c)
{
	if (ctx == NULL || c == NULL)
		return host_err(-EINVAL, "np conf: bad argument");
	*c = ctx->np;
	return 0;
}

static void
ctx_state_set(struct pcc_host_ctx *ctx, int st)
{
	pthread_mutex_lock(&host_lock);
	__atomic_store_n(&ctx->state, st, __ATOMIC_RELEASE);
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
	pcc_tp_host_state(ctx->port_id, st, (int32_t)pcc_host_process_state());
	HOST_LOG(INFO, "%s context on port %u: %s\n", role_name(ctx->role), ctx->port_id,
			pcc_host_ctx_state_name(st));
}

int
pcc_host_start(struct pcc_host_ctx *ctx)
{
	char why[256];
	int rc;

	host_err_clear();
	if (ctx == NULL)
		return host_err(-EINVAL, "start: NULL context");
	if (ctx->state == PCC_HOST_CTX_RUNNING)
		return host_err(-EBUSY, "start: context on port %u is already running",
				ctx->port_id);
	if (ctx->state == PCC_HOST_CTX_ERROR)
		return host_err(-EBUSY, "start: context on port %u is in ERROR state; destroy it",
				ctx->port_id);
	if (ctx->n_lcores != 0 &&
			(ctx->n_lcores < ctx->min_threads || ctx->n_lcores > ctx->max_threads))
		return host_err(-ERANGE, "start: affinity has %u lcores, outside [%u, %u]",
				ctx->n_lcores, ctx->min_threads, ctx->max_threads);
	if (host_engine.ops.start == NULL)
		return host_err(-ENOTSUP, "start: no engine registered (pcc_host_engine_register)");
	rc = host_svc_autostart();
	if (rc < 0)
		return rc;
	rc = host_engine.ops.start(host_engine.arg, ctx);
	if (rc < 0)
		return host_err(rc, "start: the engine refused the context on port %u",
				ctx->port_id);
	if (ctx->plugin && pcc_dev_logical_ports() != 0) {
		rc = pcc_dev_plugin_apply(ctx->plugin_name, why, sizeof(why));
		if (rc < 0) {
			if (host_engine.ops.stop != NULL)
				host_engine.ops.stop(host_engine.arg, ctx);
			return host_err(rc, "start: plug-in %s layout: %s", ctx->plugin_name, why);
		}
	}
	ctx_state_set(ctx, PCC_HOST_CTX_RUNNING);
	if (pcc_host_ha_get() == NULL && pcc_host_process_state() != PCC_HOST_PS_ACTIVE &&
			pcc_host_process_state() != PCC_HOST_PS_ERROR)
		pcc_host_process_state_set(PCC_HOST_PS_ACTIVE);
	return 0;
}

int
pcc_host_stop(struct pcc_host_ctx *ctx)
{
	int rc = 0;

	host_err_clear();
	if (ctx == NULL)
		return host_err(-EINVAL, "stop: NULL context");
	if (ctx->state != PCC_HOST_CTX_RUNNING && ctx->state != PCC_HOST_CTX_ERROR)
		return host_err(-EBUSY, "stop: context on port %u is not running", ctx->port_id);
	if (host_engine.ops.stop != NULL)
		rc = host_engine.ops.stop(host_engine.arg, ctx);
	if (ctx->state == PCC_HOST_CTX_RUNNING)
		ctx_state_set(ctx, PCC_HOST_CTX_STOPPED);
	if (rc < 0)
		return host_err(rc, "stop: the engine failed to stop port %u", ctx->port_id);
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

int
pcc_host_wait(struct pcc_host_ctx *ctx, int timeout_ms)
{
	struct timespec ts;
	uint64_t gen;
	int rc = 0;

	if (ctx == NULL)
		return host_err(-EINVAL, "wait: NULL context");
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
	gen = host_gen;
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
