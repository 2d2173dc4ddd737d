/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * libmango handles on lib/host (doc/compat-mango.md): a handle is the RP
 * context of a device the compatibility environment names (lib/compat/
 * env); its QPs run the lib/dev algorithm "mango", bound in every slot
 * of the port, which hands each QP's events to the handle's runtime
 * (mango_rt.c).  The interval is the engine's per-flow timer; run starts
 * the context on as many worker lcores as asked.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mango_internal.h"
#include "pcc_host.h"

static pthread_mutex_t lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;
static struct mango_h *live[RTE_MAX_ETHPORTS];
/* the runtime each lib/dev port's flows go to (read by the workers) */
static struct mango_rt *rt_of_port[PCC_DEV_MAX_PORTS];
/* what a worker may still use: freed when the engine is gone */
static struct mango_rt *retired_rts;
static struct mango_algo *retired_algos;

static void
lock_init(void)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&lock, &a);
	pthread_mutexattr_destroy(&a);
}

void
mango_lock(void)
{
	pthread_once(&lock_once, lock_init);
	pthread_mutex_lock(&lock);
}

void
mango_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

mango_status_e
mango_fail(mango_status_e st, const char *call, const char *fmt, ...)
{
	char msg[640];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	MANGO_LOG(ERR, "%s: %s", call, msg);
	return st;
}

struct mango_h *
mango_h_get(mango_pcc_h pcc, const char *call)
{
	unsigned int i;

	for (i = 0; pcc != NULL && i < RTE_DIM(live); i++)
		if (live[i] == pcc)
			return live[i];
	mango_fail(MANGO_STATUS_INVALID_HANDLE, call,
			"%p is not a handle of this library (never created, or destroyed)", pcc);
	return NULL;
}

/* ---- Retired memory ---------------------------------------------------------- */

/* Workers run nothing of a handle once the engine is gone. */
static void
reclaim(void)
{
	if (pcc_host_engine() != NULL)
		return;
	while (retired_rts != NULL) {
		struct mango_rt *rt = retired_rts;

		retired_rts = rt->retired_next;
		mango_rt_free(rt);
	}
	while (retired_algos != NULL) {
		struct mango_algo *a = retired_algos;

		retired_algos = a->retired_next;
		mango_rt_algo_free(a);
	}
}

void
mango_retire_algo(struct mango_algo *a)
{
	if (a == NULL)
		return;
	a->retired_next = retired_algos;
	retired_algos = a;
	reclaim();
}

static void
retire_rt(struct mango_rt *rt)
{
	rt->retired_next = retired_rts;
	retired_rts = rt;
	reclaim();
}

/* ---- The lib/dev algorithm of the handles ---------------------------------------- */

static struct mango_rt *
rt_of(uint8_t port)
{
	return port < PCC_DEV_MAX_PORTS ? __atomic_load_n(&rt_of_port[port], __ATOMIC_ACQUIRE) :
					  NULL;
}

static int
h_init(uint8_t port, uint8_t slot, uint32_t *disable_mask)
{
	RTE_SET_USED(port);
	RTE_SET_USED(slot);
	mango_rt_disable_mask(disable_mask);
	return 0;
}

static void
h_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	struct mango_rt *rt = rt_of(attr->port);

	if (rt != NULL)
		mango_rt_event(rt, ctx, ev, attr, res);
}

static void
h_on_flow_end(void *ctx, const struct pcc_dev_attr *attr)
{
	struct mango_rt *rt = rt_of(attr->port);

	if (rt != NULL)
		mango_rt_flow_end(rt, ctx);
}

static const struct pcc_dev_algo_ops mango_ops = {
	.name = MANGO_ALGO_NAME,
	.desc = "libmango PCC algorithms of a mango_pcc handle (lib/compat/mango)",
	.ctx_size = sizeof(struct mango_flow),
	.counters = mango_rt_counters,
	.n_counters = MANGO_CTR_NB,
	.init = h_init,
	.on_event = h_on_event,
	.on_flow_end = h_on_flow_end,
};

static void
publish(struct mango_h *h, int dev_port)
{
	if (h->dev_port >= 0)
		__atomic_store_n(&rt_of_port[h->dev_port], NULL, __ATOMIC_RELEASE);
	h->dev_port = dev_port;
	if (dev_port >= 0)
		__atomic_store_n(&rt_of_port[dev_port], h->rt, __ATOMIC_RELEASE);
}

/* ---- Create, destroy, configure ---------------------------------------------------- */

mango_status_e
mango_pcc_create(const char *roce_dev_name, mango_pcc_h *pcc)
{
	const struct compat_dev *d;
	struct mango_h *h = NULL;
	char known[512];
	unsigned int i, s;
	mango_status_e st;
	int rc;

	if (pcc != NULL)
		*pcc = NULL;
	if (roce_dev_name == NULL || pcc == NULL)
		return mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "NULL %s",
				roce_dev_name == NULL ? "device name" : "handle pointer");
	mango_lock();
	reclaim();
	rc = compat_env_init("libmango");
	if (rc < 0) {
		st = mango_fail(MANGO_STATUS_ERROR, __func__, "the environment did not start: %s",
				compat_env_error());
		goto out;
	}
	d = compat_dev_find(roce_dev_name);
	if (d == NULL || d->port < 0) {
		st = mango_fail(MANGO_STATUS_NOT_FOUND, __func__,
				"no device '%s' (known: %s; "
				"PCC_DEVICES=NAME=port:N|ETHDEV|sim:HOST "
				"names more)",
				roce_dev_name, compat_dev_known(known, sizeof(known)));
		goto out;
	}
	for (i = 0; i < RTE_DIM(live); i++) {
		if (live[i] != NULL && live[i]->port == d->port) {
			st = mango_fail(MANGO_STATUS_ALREADY_OPENED, __func__,
					"device '%s' (port %u) has a handle already (as '%s')",
					roce_dev_name, d->port, live[i]->dev);
			goto out;
		}
	}
	rc = pcc_dev_algo_find(MANGO_ALGO_NAME) == &mango_ops ? 0 :
								pcc_dev_algo_register(&mango_ops);
	if (rc < 0) {
		st = mango_fail(MANGO_STATUS_ERROR, __func__,
				"cannot register the lib/dev algorithm '%s': %s (a plug-in of that "
				"name?)",
				MANGO_ALGO_NAME, strerror(-rc));
		goto out;
	}
	h = calloc(1, sizeof(*h));
	if (h == NULL) {
		st = mango_fail(MANGO_STATUS_NO_MEMORY, __func__, "out of memory");
		goto out;
	}
	h->magic = MANGO_MAGIC;
	h->port = (uint16_t)d->port;
	h->dev_port = -1;
	snprintf(h->dev, sizeof(h->dev), "%s", roce_dev_name);
	h->rt = mango_rt_create(roce_dev_name);
	if (h->rt == NULL) {
		st = mango_fail(MANGO_STATUS_NO_MEMORY, __func__, "out of memory");
		goto out;
	}
	h->ctx = compat_ctx_get(h->port, PCC_HOST_ROLE_RP);
	if (h->ctx == NULL) {
		st = mango_fail(MANGO_STATUS_ERROR, __func__, "device '%s': %s", roce_dev_name,
				compat_env_error());
		goto out;
	}
	/* whatever slot a flow of the port gets, it runs the handle's QPs */
	for (s = 0; s < PCC_ENGINE_SLOTS; s++) {
		if (pcc_host_set_slot_app(h->ctx, (uint8_t)s, MANGO_ALGO_NAME) < 0) {
			st = mango_fail(MANGO_STATUS_ERROR, __func__, "device '%s': slot %u: %s",
					roce_dev_name, s, pcc_host_last_error());
			compat_ctx_put(h->ctx);
			h->ctx = NULL;
			goto out;
		}
	}
	for (i = 0; i < RTE_DIM(live) && live[i] != NULL; i++)
		;
	live[i] = h; /* a port has one handle: there is room */
	*pcc = h;
	MANGO_LOG(INFO, "%s: device '%s' is port %u%s%s", __func__, roce_dev_name, h->port,
			d->host[0] != '\0' ? ", simulator host " : "", d->host);
	h = NULL;
	st = MANGO_STATUS_SUCCESS;
out:
	if (h != NULL) {
		mango_rt_free(h->rt);
		free(h);
	}
	mango_unlock();
	return st;
}

/*
 * A simulator run starts when every context the program holds has been
 * started: once a handle that never ran is gone, the others that did may
 * be all there is.
 */
static void
sim_start_pending(void)
{
	unsigned int i;

	for (i = 0; compat_env_sim() && i < RTE_DIM(live); i++) {
		struct mango_h *o = live[i];

		if (o == NULL || !o->running || pcc_host_ctx_state(o->ctx) != PCC_HOST_CTX_CREATED)
			continue;
		if (compat_ctx_start(o->ctx) < 0)
			MANGO_LOG(WARNING, "device '%s': the simulator run did not start: %s",
					o->dev, compat_env_error());
		return; /* one start checks them all */
	}
}

static void
handle_remove(struct mango_h *h)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(live); i++)
		if (live[i] == h)
			live[i] = NULL;
}

mango_status_e
mango_pcc_destroy(mango_pcc_h pcc)
{
	struct mango_h *h;

	mango_lock();
	h = mango_h_get(pcc, __func__);
	if (h == NULL) {
		mango_unlock();
		return MANGO_STATUS_INVALID_HANDLE;
	}
	if (h->running && mango_pcc_ctrl_stop(h) != MANGO_STATUS_SUCCESS)
		MANGO_LOG(WARNING, "%s: device '%s': stopping failed; destroyed anyway", __func__,
				h->dev);
	publish(h, -1);
	compat_ctx_put(h->ctx);
	handle_remove(h);
	retire_rt(h->rt);
	h->magic = 0;
	free(h);
	sim_start_pending();
	mango_unlock();
	return MANGO_STATUS_SUCCESS;
}

mango_context_h
mango_pcc_get_context(mango_pcc_h pcc)
{
	struct mango_h *h;
	mango_context_h c;

	mango_lock();
	h = mango_h_get(pcc, __func__);
	c = h != NULL ? (mango_context_h)(void *)h->ctx : NULL;
	mango_unlock();
	return c;
}

/* Set the engine's timer (before the engine exists). */
static mango_status_e
interval_set(struct mango_h *h, uint32_t us, const char *call)
{
	char v[16];

	snprintf(v, sizeof(v), "%u", us);
	if (pcc_host_opt_set(NULL, "timer-us", v) < 0)
		return mango_fail(MANGO_STATUS_ERROR, call, "device '%s': interval %u us: %s",
				h->dev, us, pcc_host_last_error());
	return MANGO_STATUS_SUCCESS;
}

mango_status_e
mango_pcc_ctrl_config(mango_pcc_h pcc, const mango_pcc_config_t *config)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_h *h;
	uint32_t us;

	mango_lock();
	h = mango_h_get(pcc, __func__);
	if (h == NULL) {
		st = MANGO_STATUS_INVALID_HANDLE;
		goto out;
	}
	if (config == NULL) {
		st = mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "NULL config");
		goto out;
	}
	if (config->option != MANGO_PCC_CONFIG_INTERVAL) {
		st = mango_fail(MANGO_STATUS_INVALID_ARG, __func__,
				"option %d is not a mango_pcc_config_option_e (only "
				"MANGO_PCC_CONFIG_INTERVAL, 0)",
				(int)config->option);
		goto out;
	}
	us = config->value.interval_us;
	if (us == 0 || us > MANGO_PCC_INTERVAL_MAX_US) {
		st = mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "interval %u us: not 1..%u", us,
				MANGO_PCC_INTERVAL_MAX_US);
		goto out;
	}
	if (pcc_host_engine() != NULL) {
		if (us != h->interval_us)
			st = mango_fail(MANGO_STATUS_INVALID_STATE, __func__,
					"interval %u us: the engine runs with %u us, fixed when it "
					"was created (configure before the first run)",
					us,
					h->interval_us != 0 ? h->interval_us :
							      MANGO_PCC_INTERVAL_DEFAULT_US);
		goto out;
	}
	st = interval_set(h, us, __func__);
	if (st == MANGO_STATUS_SUCCESS)
		h->interval_us = us;
out:
	mango_unlock();
	return st;
}

/* ---- Algorithms --------------------------------------------------------------------- */

static mango_status_e
reg(mango_pcc_h pcc, unsigned int slot, mango_pcc_algo_fn *fn, mango_pcc_algo_event_fn *efn,
		uint32_t metrics, const void *init, size_t size, const char *call)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_algo *a;
	struct mango_h *h;

	mango_lock();
	h = mango_h_get(pcc, call);
	if (h == NULL) {
		st = MANGO_STATUS_INVALID_HANDLE;
		goto out;
	}
	if (slot >= MANGO_PCC_MAX_SLOTS)
		st = mango_fail(MANGO_STATUS_INVALID_ARG, call, "slot %u: not 0..%u", slot,
				MANGO_PCC_MAX_SLOTS - 1);
	else if (fn == NULL && efn == NULL)
		st = mango_fail(MANGO_STATUS_INVALID_ARG, call, "slot %u: NULL algorithm", slot);
	else if (metrics & ~(uint32_t)MANGO_PCC_METRIC_ALL)
		st = mango_fail(MANGO_STATUS_INVALID_ARG, call,
				"slot %u: metrics 0x%x: unknown bits 0x%x "
				"(mango_pcc_metric_flags_e)",
				slot, metrics, metrics & ~(uint32_t)MANGO_PCC_METRIC_ALL);
	else if (size > MANGO_PCC_PARAMS_SIZE_MAX)
		st = mango_fail(MANGO_STATUS_INVALID_ARG, call,
				"slot %u: parameters of %zu bytes, at most %u", slot, size,
				MANGO_PCC_PARAMS_SIZE_MAX);
	else if (size > 0 && init == NULL)
		st = mango_fail(MANGO_STATUS_INVALID_ARG, call,
				"slot %u: NULL initial parameters of %zu bytes", slot, size);
	else if (mango_h_algo(h, slot) != NULL)
		st = mango_fail(MANGO_STATUS_ALREADY_OPENED, call,
				"slot %u has an algorithm (mango_pcc_ctrl_unreg_algo it first)",
				slot);
	if (st != MANGO_STATUS_SUCCESS)
		goto out;
	a = mango_rt_algo_new(fn, efn, metrics, init, size);
	if (a == NULL) {
		st = mango_fail(MANGO_STATUS_NO_MEMORY, call, "slot %u: out of memory", slot);
		goto out;
	}
	mango_rt_algo_swap(h->rt, slot, a);
	MANGO_LOG(INFO, "%s: device '%s': slot %u: %s algorithm, %zu bytes of parameters", call,
			h->dev, slot, efn != NULL ? "an event-style" : "a window-style", size);
out:
	mango_unlock();
	return st;
}

mango_status_e
mango_pcc_ctrl_reg_algo(mango_pcc_h pcc, unsigned int slot, mango_pcc_algo_fn *algo,
		const void *initial_params, size_t param_size)
{
	if (algo == NULL)
		return mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "slot %u: NULL algorithm",
				slot);
	return reg(pcc, slot, algo, NULL, 0, initial_params, param_size, __func__);
}

mango_status_e
mango_pcc_ctrl_reg_algo_event(mango_pcc_h pcc, unsigned int slot, mango_pcc_algo_event_fn *algo,
		uint32_t required_metrics, const void *initial_params, size_t param_size)
{
	if (algo == NULL)
		return mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "slot %u: NULL algorithm",
				slot);
	return reg(pcc, slot, NULL, algo, required_metrics, initial_params, param_size, __func__);
}

mango_status_e
mango_pcc_ctrl_unreg_algo(mango_pcc_h pcc, unsigned int slot)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_h *h;
	uint32_t i, n;

	mango_lock();
	h = mango_h_get(pcc, __func__);
	if (h == NULL) {
		st = MANGO_STATUS_INVALID_HANDLE;
		goto out;
	}
	if (slot >= MANGO_PCC_MAX_SLOTS) {
		st = mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "slot %u: not 0..%u", slot,
				MANGO_PCC_MAX_SLOTS - 1);
		goto out;
	}
	if (mango_h_algo(h, slot) == NULL) {
		st = mango_fail(MANGO_STATUS_NOT_FOUND, __func__, "slot %u has no algorithm", slot);
		goto out;
	}
	if (h->running && mango_rt_slot_used(h->rt, slot)) {
		st = mango_fail(MANGO_STATUS_BUSY, __func__,
				"slot %u: QPs run it (mango_pcc_ctrl_apply_algo another slot to "
				"them, and to all for new QPs, first)",
				slot);
		goto out;
	}
	/* stopped: its QPs run nothing until a slot is applied to them */
	if (h->rt->default_slot == slot)
		__atomic_store_n(&h->rt->default_slot, MANGO_RT_NO_SLOT, __ATOMIC_RELEASE);
	n = mango_rt_count(h->rt);
	for (i = 0; i < n; i++)
		if (mango_rt_qp_slot(&h->rt->qp[i]) == slot)
			mango_rt_apply(h->rt, &h->rt->qp[i], MANGO_RT_NO_SLOT);
	mango_retire_algo(mango_rt_algo_swap(h->rt, slot, NULL));
out:
	mango_unlock();
	return st;
}

mango_status_e
mango_pcc_ctrl_apply_algo(mango_pcc_h pcc, unsigned int slot, const unsigned int *qp_list,
		unsigned int qp_count)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_h *h;
	uint32_t i, n;

	mango_lock();
	h = mango_h_get(pcc, __func__);
	if (h == NULL) {
		st = MANGO_STATUS_INVALID_HANDLE;
		goto out;
	}
	if (slot >= MANGO_PCC_MAX_SLOTS) {
		st = mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "slot %u: not 0..%u", slot,
				MANGO_PCC_MAX_SLOTS - 1);
		goto out;
	}
	if (mango_h_algo(h, slot) == NULL) {
		st = mango_fail(MANGO_STATUS_NOT_FOUND, __func__, "slot %u has no algorithm", slot);
		goto out;
	}
	if (qp_list == NULL) {
		/* every QP, and those that appear later */
		__atomic_store_n(&h->rt->default_slot, (uint8_t)slot, __ATOMIC_RELEASE);
		n = mango_rt_count(h->rt);
		for (i = 0; i < n; i++)
			if (__atomic_load_n(&h->rt->qp[i].ready, __ATOMIC_ACQUIRE))
				mango_rt_apply(h->rt, &h->rt->qp[i], (uint8_t)slot);
		goto out;
	}
	if (qp_count == 0) {
		st = mango_fail(MANGO_STATUS_INVALID_ARG, __func__,
				"slot %u: an empty QP list (NULL applies to all)", slot);
		goto out;
	}
	for (i = 0; i < qp_count; i++) {
		if (mango_rt_find(h->rt, qp_list[i]) == NULL) {
			st = mango_fail(MANGO_STATUS_NOT_FOUND, __func__,
					"QP 0x%x (entry %u): not a QP of device '%s' (nothing "
					"applied)",
					qp_list[i], i, h->dev);
			goto out;
		}
	}
	for (i = 0; i < qp_count; i++)
		mango_rt_apply(h->rt, mango_rt_find(h->rt, qp_list[i]), (uint8_t)slot);
out:
	mango_unlock();
	return st;
}

/* ---- Run and stop --------------------------------------------------------------------- */

/* Threads: the first n worker lcores poll the context's port. */
static mango_status_e
threads_set(struct mango_h *h, unsigned int n, const char *call)
{
	uint32_t lcores[PCC_HOST_MAX_LCORES];

	compat_env_lcores(lcores, RTE_DIM(lcores));
	if (pcc_host_set_threads(h->ctx, n, n) < 0 || pcc_host_set_affinity(h->ctx, lcores, n) < 0)
		return mango_fail(MANGO_STATUS_ERROR, call, "device '%s': %u threads: %s", h->dev,
				n, pcc_host_last_error());
	return MANGO_STATUS_SUCCESS;
}

mango_status_e
mango_pcc_ctrl_run(mango_pcc_h pcc, unsigned int num_threads)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	unsigned int s, avail;
	struct mango_h *h;
	bool engine;
	int rc;

	mango_lock();
	h = mango_h_get(pcc, __func__);
	if (h == NULL) {
		st = MANGO_STATUS_INVALID_HANDLE;
		goto out;
	}
	avail = compat_env_lcores(NULL, 0);
	engine = pcc_host_engine() != NULL;
	if (h->running)
		st = mango_fail(MANGO_STATUS_INVALID_STATE, __func__, "device '%s' runs already",
				h->dev);
	else if (num_threads == 0)
		st = mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "0 threads");
	else if (num_threads > avail)
		st = mango_fail(MANGO_STATUS_NO_RESOURCE, __func__,
				"%u threads, the EAL has %u worker lcores (PCC_EAL_ARGS: -l, "
				"--lcores)",
				num_threads, avail);
	else if (engine && h->threads != 0 && num_threads != h->threads && !compat_env_sim())
		st = mango_fail(MANGO_STATUS_INVALID_STATE, __func__,
				"%u threads: the engine runs device '%s' with %u, fixed at its "
				"first run",
				num_threads, h->dev, h->threads);
	if (st != MANGO_STATUS_SUCCESS)
		goto out;
	for (s = 0; s < MANGO_PCC_MAX_SLOTS && mango_h_algo(h, s) == NULL; s++)
		;
	if (s == MANGO_PCC_MAX_SLOTS) {
		st = mango_fail(MANGO_STATUS_INVALID_STATE, __func__,
				"device '%s': no algorithm registered (mango_pcc_ctrl_reg_algo)",
				h->dev);
		goto out;
	}
	if (h->rt->default_slot == MANGO_RT_NO_SLOT)
		__atomic_store_n(&h->rt->default_slot, (uint8_t)s, __ATOMIC_RELEASE);
	if (!engine) {
		/* a simulator run polls every port on the scenario's lcore */
		if (!compat_env_sim())
			st = threads_set(h, num_threads, __func__);
		if (st == MANGO_STATUS_SUCCESS)
			st = interval_set(h,
					h->interval_us != 0 ? h->interval_us :
							      MANGO_PCC_INTERVAL_DEFAULT_US,
					__func__);
		if (st != MANGO_STATUS_SUCCESS)
			goto out;
		h->threads = num_threads;
	}
	s = pcc_host_ctx_dev_port(h->ctx);
	if (rt_of(s) != NULL && rt_of(s) != h->rt) {
		st = mango_fail(MANGO_STATUS_INVALID_STATE, __func__,
				"device '%s' shares lib/dev port %u with another handle's device "
				"(more than %u sender hosts)",
				h->dev, s, PCC_DEV_MAX_PORTS);
		goto out;
	}
	/* the counts of this run start now */
	mango_rt_baseline(h->rt);
	publish(h, (int)s);
	rc = compat_ctx_start(h->ctx);
	if (rc < 0) {
		st = mango_fail(MANGO_STATUS_ERROR, __func__, "device '%s': %s", h->dev,
				compat_env_error());
		goto out;
	}
	/* the engine decides the logical port once it exists */
	if (pcc_host_engine() != NULL && pcc_host_ctx_dev_port(h->ctx) != s)
		publish(h, pcc_host_ctx_dev_port(h->ctx));
	h->running = true;
	MANGO_LOG(INFO, "%s: device '%s' runs: %u threads, slot %u for new QPs", __func__, h->dev,
			num_threads, h->rt->default_slot);
out:
	mango_unlock();
	return st;
}

mango_status_e
mango_pcc_ctrl_stop(mango_pcc_h pcc)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_h *h;
	int rc;

	mango_lock();
	h = mango_h_get(pcc, __func__);
	if (h == NULL) {
		st = MANGO_STATUS_INVALID_HANDLE;
		goto out;
	}
	if (!h->running) {
		st = mango_fail(MANGO_STATUS_INVALID_STATE, __func__, "device '%s' does not run",
				h->dev);
		goto out;
	}
	/* a simulator run is a scenario: it ends when the scenario does */
	while (compat_env_sim() && pcc_host_ctx_state(h->ctx) == PCC_HOST_CTX_RUNNING)
		compat_wait(h->ctx, 100);
	rc = compat_ctx_stop(h->ctx);
	if (rc < 0 && !(compat_env_sim() && pcc_host_ctx_state(h->ctx) != PCC_HOST_CTX_RUNNING)) {
		st = mango_fail(MANGO_STATUS_ERROR, __func__, "device '%s': %s", h->dev,
				compat_env_error());
		goto out;
	}
	h->running = false;
	MANGO_LOG(INFO, "%s: device '%s' stopped", __func__, h->dev);
out:
	mango_unlock();
	return st;
}
