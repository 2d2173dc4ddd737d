/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Running the engine lib/host created: the main lcore's loop, the stop
 * request, the settings a device model or a generator file gives the
 * engine before it exists, and the capability queries (doc/host.md).
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "host_internal.h"

/* ---- Main loop, hooks, generator ---------------------------------------------- */

struct main_tick {
	pcc_host_tick_t tick;
	void *arg;
	bool left;
};

static int
main_tick(void *arg)
{
	struct main_tick *t = arg;
	int r = t->tick != NULL ? t->tick(t->arg) : 0;

	if (r < 0)
		t->left = true;
	return r;
}

int
pcc_host_main_loop(pcc_host_tick_t tick, void *arg, uint32_t tick_us)
{
	struct main_tick t = { .tick = tick, .arg = arg, .left = false };
	unsigned int i;

	host_err_clear();
	if (host_e == NULL || !host_eng.launched)
		return host_err(-ENODEV, "main loop: no running engine (pcc_host_start)");
	pcc_engine_main_loop(host_e, main_tick, &t, tick_us);
	if (t.left)
		return 0;
	/* the engine stopped (tick, a fault, HA): so do the contexts */
	pcc_engine_wait(host_e);
	host_eng.launched = false;
	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX; i++) {
		struct pcc_host_ctx *c = host_ctx_at(i);

		if (c != NULL && c->state == PCC_HOST_CTX_RUNNING) {
			__atomic_store_n(&c->state, PCC_HOST_CTX_STOPPED, __ATOMIC_RELEASE);
			pcc_engine_port_pause(host_e, c->port_id, true);
		}
	}
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
	return 0;
}

void
pcc_host_engine_stop_async(void)
{
	struct pcc_engine *e = __atomic_load_n(&host_e, __ATOMIC_ACQUIRE);

	if (e != NULL)
		pcc_engine_stop(e);
}

int
pcc_host_engine_quiesce(unsigned int timeout_ms)
{
	const struct pcc_engine *e = __atomic_load_n(&host_e, __ATOMIC_ACQUIRE);
	static uint64_t beat0[RTE_MAX_LCORE];
	static bool wait[RTE_MAX_LCORE];
	static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
	uint64_t deadline, beat;
	unsigned int l, self = rte_lcore_id(), left;
	bool in_loop;
	int rc = 0;

	if (e == NULL)
		return 0;
	pthread_mutex_lock(&qlock);
	left = 0;
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		wait[l] = l != self && pcc_engine_lcore_progress(e, l, &beat0[l], &in_loop) == 0 &&
				in_loop;
		left += wait[l];
	}
	deadline = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * timeout_ms;
	while (left > 0) {
		for (l = 0; l < RTE_MAX_LCORE; l++) {
			if (!wait[l])
				continue;
			if (pcc_engine_lcore_progress(e, l, &beat, &in_loop) != 0 || !in_loop ||
					beat != beat0[l]) {
				wait[l] = false;
				left--;
			}
		}
		if (left == 0)
			break;
		if (rte_get_timer_cycles() > deadline) {
			rc = -ETIMEDOUT;
			break;
		}
		/* a busy-polling worker finishes a round in microseconds; an
		 * idle one within its idle back-off */
		rte_delay_us_sleep(10);
	}
	pthread_mutex_unlock(&qlock);
	return rc;
}

int
pcc_host_set_poll_hook(pcc_engine_poll_hook_t fn, void *arg)
{
	host_err_clear();
	if (host_e != NULL)
		return host_err(-EBUSY,
				"poll hook: the engine exists; set it before the first "
				"start");
	host_eng.hook = fn;
	host_eng.hook_arg = fn != NULL ? arg : NULL;
	host_eng.hold = false;
	return 0;
}

int
pcc_host_set_poll_hold(bool hold)
{
	host_err_clear();
	if (host_e != NULL)
		return host_err(-EBUSY,
				"poll hold: the engine exists; set it before the first "
				"start");
	host_eng.hold = hold;
	return 0;
}

int
pcc_host_gen_groups_set(const struct pcc_engine_gen_group *g, uint32_t n, bool abs_start)
{
	struct pcc_engine_gen_group *copy = NULL;

	host_err_clear();
	host_proc_ensure();
	if (host_e != NULL)
		return host_err(-EBUSY,
				"generator groups: the engine exists; set them before the "
				"first start");
	if ((g == NULL && n != 0) || n > PCC_ENGINE_GEN_FLOWS_TOTAL_MAX)
		return host_err(-EINVAL, "generator groups: bad list (%u groups)", n);
	if (n > 0) {
		copy = malloc(sizeof(*copy) * n);
		if (copy == NULL)
			return host_err(-ENOMEM, "generator groups: out of memory");
		memcpy(copy, g, sizeof(*copy) * n);
	}
	free(host_proc.groups);
	host_proc.groups = copy;
	host_proc.nb_groups = n;
	host_proc.gen_file[0] = '\0';
	host_eng.abs_start = abs_start;
	return 0;
}

int
pcc_host_set_engine_extra(uint32_t nb_mbufs_extra, bool tx_stamp)
{
	host_err_clear();
	host_proc_ensure();
	if (host_e != NULL)
		return host_err(-EBUSY, "engine extras: the engine exists");
	host_proc.nb_mbufs_extra = nb_mbufs_extra;
	host_proc.tx_stamp = tx_stamp;
	return 0;
}

/* ---- Capabilities ------------------------------------------------------------- */

uint32_t
pcc_host_min_threads(void)
{
	return rte_lcore_count() > 0 ? 1 : 0;
}

uint32_t
pcc_host_max_threads(void)
{
	unsigned int n = rte_lcore_count();

	if (n == 0)
		return 0;
	return n > 1 ? n - 1 : 1;
}

int
pcc_host_rp_supported(uint16_t port_id)
{
	host_err_clear();
	if (port_id >= RTE_MAX_ETHPORTS || !rte_eth_dev_is_valid_port(port_id)) {
		host_err(-ENODEV, "port %u: no such ethdev port", port_id);
		return 0;
	}
	return 1;
}

int
pcc_host_np_supported(uint16_t port_id)
{
	struct rte_eth_dev_info info;

	host_err_clear();
	if (port_id >= RTE_MAX_ETHPORTS || !rte_eth_dev_is_valid_port(port_id)) {
		host_err(-ENODEV, "port %u: no such ethdev port", port_id);
		return 0;
	}
	if (rte_eth_dev_info_get(port_id, &info) != 0 || info.max_rx_queues == 0 ||
			info.max_tx_queues == 0) {
		host_err(-ENOTSUP, "port %u: the NP needs an RX and a TX queue", port_id);
		return 0;
	}
	return 1;
}

/* ---- Port state -------------------------------------------------------------- */

void
host_engine_port_watch(void)
{
	/* the service thread: skip a period rather than wait for a caller
	 * that holds the lock (it may be stopping this thread) */
	if (pthread_mutex_trylock(&host_lock) != 0)
		return;
	if (host_e != NULL && host_eng.launched)
		pcc_engine_port_info_poll(host_e);
	pthread_mutex_unlock(&host_lock);
}
