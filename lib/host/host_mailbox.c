/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Mailbox: one single-producer/single-consumer ring of request pointers
 * per worker rank.  The sender (control thread; producers of one ring are
 * serialised by its lock) publishes a request PENDING and pushes it; the
 * worker's pcc_host_mailbox_poll() pops it, claims it PENDING -> RUNNING,
 * runs the handler, marks it DONE and signals the sender's condition.  A
 * sender that times out cancels a PENDING request (the worker then skips
 * it); a RUNNING one keeps the context's mailbox busy until it is DONE.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_lcore.h>

#include "host_internal.h"
#include "pcc_dev_plugin.h"
#include "pcc_dev_svc.h"
#include "pcc_host_tp.h"

#define MBOX_RING 16u
/* a sender waits in slices this long, to see the engine stop */
#define MBOX_WAIT_SLICE_NS 10000000L

struct mbox_ring {
	uint32_t head; /* producer */
	uint32_t tail; /* consumer */
	struct host_mbox_req *slot[MBOX_RING];
	pthread_mutex_t prod;
} __attribute__((aligned(64)));

static struct mbox_ring mbox_rings[PCC_HOST_MAILBOX_WORKERS];
static pthread_once_t mbox_once = PTHREAD_ONCE_INIT;

static void
mbox_init(void)
{
	unsigned int i;

	for (i = 0; i < PCC_HOST_MAILBOX_WORKERS; i++)
		pthread_mutex_init(&mbox_rings[i].prod, NULL);
}

static int
mbox_configurable(struct pcc_host_ctx *ctx, const char *what)
{
	host_err_clear();
	if (ctx == NULL)
		return host_err(-EINVAL, "%s: NULL context", what);
	if (pcc_host_ctx_state(ctx) == PCC_HOST_CTX_RUNNING)
		return host_err(-EBUSY, "%s: not allowed after start", what);
	return 0;
}

int
pcc_host_mailbox_set_size(struct pcc_host_ctx *ctx, uint32_t req_size, uint32_t resp_size)
{
	void *req, *resp;
	int rc = mbox_configurable(ctx, "mailbox size");

	if (rc < 0)
		return rc;
	if (req_size < 1 || req_size > PCC_HOST_MAILBOX_MAX || resp_size < 1 ||
			resp_size > PCC_HOST_MAILBOX_MAX)
		return host_err(-ERANGE, "mailbox size: request %u / response %u: not 1..%u",
				req_size, resp_size, PCC_HOST_MAILBOX_MAX);
	if (ctx->mbox != NULL &&
			__atomic_load_n(&ctx->mbox->st, __ATOMIC_ACQUIRE) == HOST_MBOX_RUNNING)
		return host_err(-EBUSY, "mailbox size: a request is still running");
	req = calloc(1, req_size);
	resp = calloc(1, resp_size);
	if (req == NULL || resp == NULL) {
		free(req);
		free(resp);
		return host_err(-ENOMEM, "mailbox size: no memory");
	}
	if (ctx->mbox == NULL) {
		pthread_condattr_t a;

		ctx->mbox = calloc(1, sizeof(*ctx->mbox));
		if (ctx->mbox == NULL) {
			free(req);
			free(resp);
			return host_err(-ENOMEM, "mailbox size: no memory");
		}
		pthread_mutex_init(&ctx->mbox->m, NULL);
		pthread_condattr_init(&a);
		pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
		pthread_cond_init(&ctx->mbox->c, &a);
		pthread_condattr_destroy(&a);
	}
	free(ctx->mbox_req);
	free(ctx->mbox_resp);
	ctx->mbox_req = req;
	ctx->mbox_resp = resp;
	ctx->mbox_req_size = req_size;
	ctx->mbox_resp_size = resp_size;
	return 0;
}

int
pcc_host_mailbox_set_worker(struct pcc_host_ctx *ctx, uint16_t rank)
{
	int rc = mbox_configurable(ctx, "mailbox worker");

	if (rc < 0)
		return rc;
	if (rank >= PCC_HOST_MAILBOX_WORKERS)
		return host_err(-ERANGE, "mailbox worker: rank %u, not below %u", rank,
				PCC_HOST_MAILBOX_WORKERS);
	ctx->mbox_worker = rank;
	ctx->mbox_worker_set = true;
	return 0;
}

void *
pcc_host_mailbox_req_buf(struct pcc_host_ctx *ctx, uint32_t *size)
{
	if (ctx == NULL)
		return NULL;
	if (size != NULL)
		*size = ctx->mbox_req_size;
	return ctx->mbox_req;
}

void *
pcc_host_mailbox_resp_buf(struct pcc_host_ctx *ctx, uint32_t *size)
{
	if (ctx == NULL)
		return NULL;
	if (size != NULL)
		*size = ctx->mbox_resp_size;
	return ctx->mbox_resp;
}

void
host_mbox_ctx_free(struct pcc_host_ctx *ctx)
{
	struct host_mbox_req *r = ctx->mbox;
	struct timespec ts;
	int st;

	if (r != NULL) {
		/* a running handler still writes the buffers: give it 1 s */
		pthread_mutex_lock(&r->m);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += 1;
		while ((st = __atomic_load_n(&r->st, __ATOMIC_ACQUIRE)) == HOST_MBOX_RUNNING)
			if (pthread_cond_timedwait(&r->c, &r->m, &ts) != 0)
				break;
		pthread_mutex_unlock(&r->m);
		if (st == HOST_MBOX_RUNNING) {
			HOST_LOG(ERR, "mailbox handler of port %u still running; buffers leaked\n",
					ctx->port_id);
			return;
		}
		if (st == HOST_MBOX_PENDING || st == HOST_MBOX_CANCELLED) {
			/* still in a ring: cancel and leak the request (a few bytes) */
			__atomic_store_n(&r->st, HOST_MBOX_CANCELLED, __ATOMIC_RELEASE);
			return;
		}
		pthread_mutex_destroy(&r->m);
		pthread_cond_destroy(&r->c);
		free(r);
	}
	free(ctx->mbox_req);
	free(ctx->mbox_resp);
	ctx->mbox = NULL;
	ctx->mbox_req = NULL;
	ctx->mbox_resp = NULL;
}

static int
ring_push(struct mbox_ring *q, struct host_mbox_req *r)
{
	uint32_t head, tail;

	pthread_mutex_lock(&q->prod);
	head = q->head;
	tail = __atomic_load_n(&q->tail, __ATOMIC_ACQUIRE);
	if (head - tail >= MBOX_RING) {
		pthread_mutex_unlock(&q->prod);
		return -ENOBUFS;
	}
	q->slot[head & (MBOX_RING - 1)] = r;
	__atomic_store_n(&q->head, head + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&q->prod);
	return 0;
}

/*
 * Is the caller the lcore of the context's mailbox worker (the main lcore
 * polling the port, called from outside its poll loop or from its tick)?
 * Then the request runs here and now: queueing it for a loop this very
 * thread would have to run would only time out.
 */
static bool
mbox_own_lcore(const struct pcc_host_ctx *ctx)
{
	unsigned int l = rte_lcore_id();

	return l != LCORE_ID_ANY && host_e != NULL &&
			pcc_engine_lcore_rank(host_e, l) == (int)ctx->mbox_worker;
}

static int
mbox_run_here(struct pcc_host_ctx *ctx, pcc_dev_mailbox_fn fn, uint32_t req_len, uint32_t *resp_len,
		int *handler_rc)
{
	uint16_t rank = pcc_dev_thread_rank();
	int rc;

	pthread_mutex_lock(&ctx->mbox_lock);
	pcc_dev_thread_set_rank(ctx->mbox_worker);
	rc = fn(ctx->mbox_req, req_len, ctx->mbox_resp, ctx->mbox_resp_size);
	pcc_dev_thread_set_rank(rank);
	pthread_mutex_unlock(&ctx->mbox_lock);
	*handler_rc = rc;
	*resp_len = rc < 0 ? 0 : RTE_MIN((uint32_t)rc, ctx->mbox_resp_size);
	HOST_DBG("mailbox: port %u run on the calling lcore: %d\n", ctx->port_id, rc);
	return 0;
}

int
pcc_host_mailbox_send(struct pcc_host_ctx *ctx, uint8_t slot, uint32_t req_len, uint32_t *resp_len,
		int *handler_rc, int timeout_ms)
{
	const struct pcc_dev_algo_ops *ops;
	pcc_dev_mailbox_fn fn = NULL;
	struct host_mbox_req *r;
	struct timespec ts;
	bool stopped = false;
	int rc, st, expect;

	host_err_clear();
	if (ctx == NULL || resp_len == NULL || handler_rc == NULL)
		return host_err(-EINVAL, "mailbox send: NULL argument");
	if (ctx->mbox == NULL)
		return host_err(-EINVAL, "mailbox send: no mailbox (pcc_host_mailbox_set_size)");
	if (req_len > ctx->mbox_req_size)
		return host_err(-EMSGSIZE, "mailbox send: request of %u bytes, buffer holds %u",
				req_len, ctx->mbox_req_size);
	if (timeout_ms <= 0)
		return host_err(-EINVAL, "mailbox send: timeout %d ms: must be > 0", timeout_ms);
	if (pcc_host_ctx_state(ctx) != PCC_HOST_CTX_RUNNING)
		return host_err(-EAGAIN, "mailbox send: context on port %u is not running",
				ctx->port_id);
	/* no worker will take it: the engine is stopped or stopping (a
	 * fault, a watchdog, HA deactivation), whatever the context says */
	if (!host_eng.launched || pcc_engine_stopping(host_e))
		return host_err(-EAGAIN, "mailbox send: the engine is stopped");
	if (ctx->role == PCC_HOST_ROLE_NP) {
		/* the NP application's mailbox handler */
		if (!ctx->plugin)
			return host_err(-ENOENT,
					"mailbox send: the NP context of port %u has no "
					"application "
					"(pcc_host_set_app)",
					ctx->port_id);
		pcc_dev_plugin_np(ctx->plugin_name, NULL, &fn);
		if (fn == NULL)
			return host_err(-ENOTSUP,
					"mailbox send: NP application %s has no mailbox handler",
					ctx->plugin_name);
	} else {
		ops = pcc_dev_slot_algo(ctx->dev_port, slot, NULL);
		if (ops == NULL)
			return host_err(-ENOENT,
					"mailbox send: slot %u of port %u has no algorithm", slot,
					ctx->dev_port);
		if (ops->mailbox == NULL)
			return host_err(-ENOTSUP,
					"mailbox send: algorithm %s has no mailbox handler",
					ops->name);
		fn = ops->mailbox;
	}
	if (mbox_own_lcore(ctx))
		return mbox_run_here(ctx, fn, req_len, resp_len, handler_rc);
	pthread_once(&mbox_once, mbox_init);
	pthread_mutex_lock(&ctx->mbox_lock);
	r = ctx->mbox;
	st = __atomic_load_n(&r->st, __ATOMIC_ACQUIRE);
	if (st == HOST_MBOX_RUNNING || st == HOST_MBOX_PENDING) {
		pthread_mutex_unlock(&ctx->mbox_lock);
		return host_err(-EBUSY, "mailbox send: the previous request is still %s",
				st == HOST_MBOX_RUNNING ? "running" : "pending");
	}
	r->fn = fn;
	r->req = ctx->mbox_req;
	r->req_len = req_len;
	r->resp = ctx->mbox_resp;
	r->resp_cap = ctx->mbox_resp_size;
	r->rc = 0;
	__atomic_store_n(&r->st, HOST_MBOX_PENDING, __ATOMIC_RELEASE);
	rc = ring_push(&mbox_rings[ctx->mbox_worker], r);
	if (rc < 0) {
		__atomic_store_n(&r->st, HOST_MBOX_FREE, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&ctx->mbox_lock);
		return host_err(-EAGAIN, "mailbox send: ring of worker %u is full",
				ctx->mbox_worker);
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&r->m);
	for (;;) {
		struct timespec slice;

		st = __atomic_load_n(&r->st, __ATOMIC_ACQUIRE);
		if (st == HOST_MBOX_DONE)
			break;
		/* an engine that stops meanwhile ends the wait for a request
		 * no worker took (one being handled is waited for) */
		if (st == HOST_MBOX_PENDING && pcc_engine_stopping(host_e)) {
			expect = HOST_MBOX_PENDING;
			if (__atomic_compare_exchange_n(&r->st, &expect, HOST_MBOX_CANCELLED, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				stopped = true;
				break;
			}
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &slice);
		slice.tv_nsec += MBOX_WAIT_SLICE_NS;
		if (slice.tv_nsec >= 1000000000L) {
			slice.tv_sec++;
			slice.tv_nsec -= 1000000000L;
		}
		if (slice.tv_sec > ts.tv_sec ||
				(slice.tv_sec == ts.tv_sec && slice.tv_nsec >= ts.tv_nsec)) {
			if (pthread_cond_timedwait(&r->c, &r->m, &ts) == ETIMEDOUT) {
				st = __atomic_load_n(&r->st, __ATOMIC_ACQUIRE);
				break;
			}
			continue;
		}
		pthread_cond_timedwait(&r->c, &r->m, &slice);
	}
	pthread_mutex_unlock(&r->m);
	if (stopped)
		rc = host_err(-EAGAIN,
				"mailbox send: the engine stopped before worker %u took the "
				"request (cancelled)",
				ctx->mbox_worker);
	else if (st != HOST_MBOX_DONE) {
		expect = HOST_MBOX_PENDING;
		if (__atomic_compare_exchange_n(&r->st, &expect, HOST_MBOX_CANCELLED, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			rc = host_err(-ETIMEDOUT,
					"mailbox send: worker %u did not take the request in %d ms "
					"(cancelled)",
					ctx->mbox_worker, timeout_ms);
		else if (expect == HOST_MBOX_DONE)
			st = HOST_MBOX_DONE;
		else
			rc = host_err(-ETIMEDOUT, "mailbox send: handler still running after %d ms",
					timeout_ms);
	}
	if (st == HOST_MBOX_DONE) {
		if (r->rc >= 0) {
			*resp_len = (uint32_t)r->rc > r->resp_cap ? r->resp_cap : (uint32_t)r->rc;
			*handler_rc = r->rc;
		} else {
			*resp_len = 0;
			*handler_rc = r->rc;
		}
		__atomic_store_n(&r->st, HOST_MBOX_FREE, __ATOMIC_RELEASE);
		rc = 0;
	}
	pthread_mutex_unlock(&ctx->mbox_lock);
	HOST_DBG("mailbox: %s port %u slot %u: %u bytes -> %d (%u bytes back)\n",
			ctx->role == PCC_HOST_ROLE_RP ? "RP" : "NP", ctx->port_id, slot, req_len,
			rc, rc == 0 ? *resp_len : 0);
	pcc_tp_host_mailbox(ctx->port_id, slot, req_len, rc == 0 ? *resp_len : 0,
			rc == 0 ? *handler_rc : rc);
	return rc;
}

unsigned int
pcc_host_mailbox_poll(void)
{
	struct mbox_ring *q;
	struct host_mbox_req *r;
	uint32_t head, tail;
	unsigned int n = 0;
	uint16_t rank = pcc_dev_thread_rank();
	int expect;

	if (rank >= PCC_HOST_MAILBOX_WORKERS)
		return 0;
	q = &mbox_rings[rank];
	tail = q->tail;
	head = __atomic_load_n(&q->head, __ATOMIC_ACQUIRE);
	while (tail != head) {
		r = q->slot[tail & (MBOX_RING - 1)];
		tail++;
		__atomic_store_n(&q->tail, tail, __ATOMIC_RELEASE);
		expect = HOST_MBOX_PENDING;
		if (!__atomic_compare_exchange_n(&r->st, &expect, HOST_MBOX_RUNNING, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue; /* cancelled */
		r->rc = r->fn(r->req, r->req_len, r->resp, r->resp_cap);
		pthread_mutex_lock(&r->m);
		__atomic_store_n(&r->st, HOST_MBOX_DONE, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&r->c);
		pthread_mutex_unlock(&r->m);
		n++;
	}
	return n;
}
