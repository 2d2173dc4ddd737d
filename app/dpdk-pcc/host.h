/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_HOST_H
#define APP_HOST_H

/*
 * dpdk-pcc as a client of lib/host (host.c): the contexts of a run made
 * from the plan (wiring.c) or the simulator (lib/simrun), every engine
 * option handed to pcc_host_opt_set(), start and stop of every context,
 * the /pcc/ telemetry commands, active/standby (--ha).
 * doc/dpdk-pcc.md, "Host integration".
 */

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "pcc_host.h"
#include "wiring.h"

/* Request and response buffer bytes of every context's mailbox. */
#define APP_MAILBOX_SIZE 4096u

/*
 * The process's engine options (crash file, plug-ins: these load now),
 * then the contexts of plan with their RP and NP options, queue maps,
 * forward mode, peer MACs (a ring pair), mailboxes; the telemetry
 * commands.  0, or -1 with one line in err (*usage: a bad option value).
 */
int app_host_setup(const struct app_args *a, const struct app_env *env, const struct app_plan *plan,
		char *err, size_t errlen, bool *usage);

/*
 * The engine options of scope (process: ctx NULL) on ctx, in
 * command-line order.  0, or -1 with the reason in err.
 */
int app_host_opts_apply(
		const struct app_args *a, struct pcc_host_ctx *ctx, char *err, size_t errlen);

/* Add a context (the simulator's ports); NULL with the reason in err. */
struct pcc_host_ctx *app_host_ctx_new(uint16_t port, bool np, char *err, size_t errlen);

/* Every context, in port order then RP before NP. */
uint32_t app_host_ctxs(struct pcc_host_ctx **out, uint32_t n);

/* Start HA (--ha) and register the telemetry commands.  0 or -1. */
int app_host_services(const struct app_args *a, char *err, size_t errlen);

/*
 * Wait until the engine may run: at once without --ha, else until this
 * process becomes ACTIVE.  1 to run, 0 when *quit is set, the process
 * state is ERROR, or the TSC passes deadline (0: none).
 */
int app_host_wait_active(volatile sig_atomic_t *quit, uint64_t deadline);

/* Start every context (the first start creates the engine).  0 or
 * -errno with a line on stderr. */
int app_host_start(void);

/* Stop every running context (the engine's lcores return). */
void app_host_stop(void);

/* Whether HA took the ACTIVE role away during the last run. */
bool app_host_deactivated(void);

/* Stop HA, destroy every context (and the engine). */
void app_host_detach(void);

/*
 * Exit status of a finished run: rc, or APP_EXIT_CRASH with a line on
 * stderr naming the report file when the process state is ERROR.
 */
int app_host_exit_status(const struct app_args *a, int rc);

#endif /* APP_HOST_H */
