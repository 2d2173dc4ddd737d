/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The NP user handlers (pcc_np.h): the process's, and one per port.
 *
 * Removal must not return while a thread still runs the old handler (its
 * code may be unmapped right after, when a plug-in is unloaded).  Each
 * caller counts itself in an in-flight counter of its thread rank (one
 * cache line each, so NP lcores do not share one) before it reads the
 * handler pointer, and out after the call.  The counter update is a
 * sequentially consistent read-modify-write and the remover stores NULL
 * with a sequentially consistent store before it reads the counters: a
 * caller either is seen in flight (and waited for) or sees NULL.
 */

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "dev_internal.h"
#include "pcc_np.h"

struct np_inflight {
	uint32_t n;
} __rte_cache_aligned;

static pcc_np_handler_t np_handler;
static pcc_np_handler_t np_port_handler[PCC_NP_MAX_PORTS];
static struct np_inflight np_inflight[PCC_DEV_MAX_THREADS];

static inline struct np_inflight *
np_slot(void)
{
	return &np_inflight[pcc_dev_thread_rank() % PCC_DEV_MAX_THREADS];
}

int
pcc_np_handler_register(pcc_np_handler_t fn)
{
	pcc_np_handler_t expected = NULL;

	if (fn == NULL)
		return -EINVAL;
	if (!__atomic_compare_exchange_n(
			    &np_handler, &expected, fn, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return -EBUSY;
	return 0;
}

static uint64_t
np_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* After a handler pointer was cleared: wait until no caller is inside. */
static void
np_wait_idle(void)
{
	uint64_t start = np_now_ms();
	bool warned = false;
	unsigned int i;

	for (i = 0; i < PCC_DEV_MAX_THREADS; i++) {
		while (__atomic_load_n(&np_inflight[i].n, __ATOMIC_SEQ_CST) != 0) {
			if (!warned && np_now_ms() - start > 1000) {
				DEV_LOG(WARNING, "NP handler still running after 1 s, waiting");
				warned = true;
			}
			sched_yield();
		}
	}
}

int
pcc_np_handler_unregister(pcc_np_handler_t fn)
{
	pcc_np_handler_t expected = fn;
	bool found;
	unsigned int p;

	if (fn == NULL)
		return -EINVAL;
	found = __atomic_compare_exchange_n(
			&np_handler, &expected, NULL, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	for (p = 0; p < PCC_NP_MAX_PORTS; p++) {
		expected = fn;
		found |= __atomic_compare_exchange_n(&np_port_handler[p], &expected, NULL, false,
				__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
	if (!found)
		return -ENOENT;
	np_wait_idle();
	return 0;
}

int
pcc_np_port_handler_set(uint16_t port, pcc_np_handler_t fn)
{
	pcc_np_handler_t old;

	if (port >= PCC_NP_MAX_PORTS)
		return -EINVAL;
	old = __atomic_exchange_n(&np_port_handler[port], fn, __ATOMIC_SEQ_CST);
	if (old != NULL && old != fn)
		np_wait_idle();
	return 0;
}

pcc_np_handler_t
pcc_np_port_handler_bound(uint16_t port)
{
	return port < PCC_NP_MAX_PORTS ? __atomic_load_n(&np_port_handler[port], __ATOMIC_ACQUIRE) :
					 NULL;
}

pcc_np_handler_t
pcc_np_port_handler_get(uint16_t port)
{
	pcc_np_handler_t fn = pcc_np_port_handler_bound(port);

	return fn != NULL ? fn : pcc_np_handler_get();
}

pcc_np_handler_t
pcc_np_handler_get(void)
{
	return __atomic_load_n(&np_handler, __ATOMIC_ACQUIRE);
}

static int
np_handle(uint16_t port, const struct pcc_np_pkt *in, struct pcc_np_resp *out)
{
	struct np_inflight *s;
	pcc_np_handler_t fn = NULL;
	int rc;

	if (in == NULL || out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	s = np_slot();
	__atomic_fetch_add(&s->n, 1, __ATOMIC_SEQ_CST);
	if (port < PCC_NP_MAX_PORTS)
		fn = __atomic_load_n(&np_port_handler[port], __ATOMIC_SEQ_CST);
	if (fn == NULL)
		fn = __atomic_load_n(&np_handler, __ATOMIC_SEQ_CST);
	if (fn == NULL) {
		__atomic_fetch_sub(&s->n, 1, __ATOMIC_RELEASE);
		return -ENOENT;
	}
	/* what this thread runs, for a crash report or the watchdog */
	dev_tls.cur.np_port = port;
	dev_tls.cur.np_fn = (const void *)(uintptr_t)fn;
	__atomic_store_n(&dev_tls.cur.np_active, 1, __ATOMIC_RELAXED);
	rc = fn(in, out);
	__atomic_store_n(&dev_tls.cur.np_active, 0, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&s->n, 1, __ATOMIC_RELEASE);
	if (out->len > PCC_NP_RESP_MAX)
		out->len = PCC_NP_RESP_MAX;
	out->dscp &= 0x3f;
	out->dscp_set = out->dscp_set != 0;
	return rc;
}

int
pcc_np_handle(const struct pcc_np_pkt *in, struct pcc_np_resp *out)
{
	return np_handle(UINT16_MAX, in, out);
}

int
pcc_np_handle_port(uint16_t port, const struct pcc_np_pkt *in, struct pcc_np_resp *out)
{
	return np_handle(port, in, out);
}
