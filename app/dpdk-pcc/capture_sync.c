/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Capture tools that leave while traffic runs (doc/dpdk-pcc.md, "Packet
 * capture").  DPDK 22.11's pdump library removes its RX/TX callbacks
 * from the multi-process thread and answers the tool at once; the tool
 * then frees the ring and mempool the callbacks copy into, while an
 * lcore that read the callback list before the removal may still be
 * inside the callback: the primary faults in rte_pcapng_copy().  DPDK
 * fixed it in 25.11 ("pdump: fix races in callbacks").  Until the
 * distribution's DPDK has it, dpdk-pcc interposes the two removal calls:
 * the real removal, then a grace period (pcc_host_engine_quiesce()), so
 * the answer leaves only when no engine lcore can still run the removed
 * callback.  The engine's own callback removals (workers stopped) return
 * at once.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stddef.h>

#include <rte_ethdev.h>

#include "pcc_host.h"

/* A grace period is microseconds; this bounds a hung lcore's cost. */
#define CAPTURE_QUIESCE_MS 500u

typedef int (*remove_cb_fn)(uint16_t, uint16_t, const struct rte_eth_rxtx_callback *);

static int
remove_then_quiesce(const char *sym, remove_cb_fn *real, uint16_t port_id, uint16_t queue_id,
		const struct rte_eth_rxtx_callback *cb)
{
	remove_cb_fn fn = __atomic_load_n(real, __ATOMIC_ACQUIRE);
	int rc;

	if (fn == NULL) {
		fn = (remove_cb_fn)(uintptr_t)dlsym(RTLD_NEXT, sym);
		if (fn == NULL)
			return -ENOTSUP;
		__atomic_store_n(real, fn, __ATOMIC_RELEASE);
	}
	rc = fn(port_id, queue_id, cb);
	if (rc == 0)
		pcc_host_engine_quiesce(CAPTURE_QUIESCE_MS);
	return rc;
}

int
rte_eth_remove_rx_callback(
		uint16_t port_id, uint16_t queue_id, const struct rte_eth_rxtx_callback *user_cb)
{
	static remove_cb_fn real;

	return remove_then_quiesce(__func__, &real, port_id, queue_id, user_cb);
}

int
rte_eth_remove_tx_callback(
		uint16_t port_id, uint16_t queue_id, const struct rte_eth_rxtx_callback *user_cb)
{
	static remove_cb_fn real;

	return remove_then_quiesce(__func__, &real, port_id, queue_id, user_cb);
}
