/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_HOST_H
#define APP_HOST_H

/*
 * Glue between dpdk-pcc and lib/host (host.c): the engine as lib/host's
 * provider, /pcc/ telemetry, the crash report file, --plugin and
 * active/standby (--ha).  doc/dpdk-pcc.md, "Host integration".
 */

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "pcc_engine.h"
#include "pcc_host.h"

/* Check (in a child) and load every --plugin, before the engine exists.
 * 0, or -1 with one line in err naming the file. */
int app_host_plugins_load(const struct app_args *a, char *err, size_t errlen);

/*
 * After pcc_engine_create(): apply the plug-ins' slot layouts, register
 * the engine as provider, the telemetry commands and the crash file,
 * create the process's context and, with --ha, start the HA thread.
 * 0, or -1 with one line in err.
 */
int app_host_attach(struct pcc_engine *e, const struct app_args *a, char *err, size_t errlen);

/* Request and response buffer bytes of the process context's mailbox. */
#define APP_MAILBOX_SIZE 4096u

/* The process's context (on the first RP port, else the first port with
 * a role), NULL before app_host_attach(). */
struct pcc_host_ctx *app_host_ctx(void);

/*
 * Wait until the engine may run: at once without --ha, else until this
 * process becomes ACTIVE.  1 to run, 0 when *quit is set, the process
 * state is ERROR, or the TSC passes deadline (0: none).
 */
int app_host_wait_active(volatile sig_atomic_t *quit, uint64_t deadline);

/* Start the engine through the context (pcc_host_start).  0 or -errno. */
int app_host_start(void);

/* Stop the engine through the context and wait for its lcores. */
void app_host_stop(void);

/* Whether HA took the ACTIVE role away during the last run. */
bool app_host_deactivated(void);

/* Stop HA, destroy the context, unregister the provider. */
void app_host_detach(void);

/*
 * Exit status of a finished run: rc, or APP_EXIT_CRASH with a line on
 * stderr naming the report file when the process state is ERROR.
 */
int app_host_exit_status(int rc);

#endif /* APP_HOST_H */
