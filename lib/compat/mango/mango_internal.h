/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef MANGO_INTERNAL_H
#define MANGO_INTERNAL_H

/*
 * Handles of libpcc_mango (mango_ctrl.c, mango_views.c): a handle is a
 * device (ethdev port) with its lib/host RP context and its runtime.
 * Every control call takes one recursive lock (a parameter walk's
 * callback may call the API again).  Internal to lib/compat/mango.
 */

#include <stdbool.h>
#include <stdint.h>

#include "compat_env_internal.h"
#include "mango_rt.h"

/* The lib/dev algorithm every handle's flows run (slots 0..7 of its port). */
#define MANGO_ALGO_NAME "mango"

struct mango_h {
	uint32_t magic;
	char dev[COMPAT_NAME_MAX]; /* as the program named it */
	uint16_t port;             /* ethdev port */
	int dev_port;              /* lib/dev port it is published on, -1 */
	struct pcc_host_ctx *ctx;
	struct mango_rt *rt;
	bool running;
	uint32_t interval_us; /* configured, 0: default */
	uint32_t threads;     /* of its first run (the engine fixes them) */
};

#define MANGO_MAGIC 0x4d414e47u

void mango_lock(void);
void mango_unlock(void);

/*
 * The handle pcc (under the lock), or NULL after logging "call: not a
 * handle" (the caller returns MANGO_STATUS_INVALID_HANDLE).
 */
struct mango_h *mango_h_get(mango_pcc_h pcc, const char *call);

/* Log "call: message" at ERR and return st. */
mango_status_e mango_fail(mango_status_e st, const char *call, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));

/* The algorithm of slot (NULL if none; slot checked by the caller). */
static inline struct mango_algo *
mango_h_algo(const struct mango_h *h, unsigned int slot)
{
	return __atomic_load_n(&h->rt->algo[slot], __ATOMIC_ACQUIRE);
}

/* Free what workers may still run once the engine is gone. */
void mango_retire_algo(struct mango_algo *a);

#endif /* MANGO_INTERNAL_H */
