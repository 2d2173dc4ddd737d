/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef COMPAT_ENV_INTERNAL_H
#define COMPAT_ENV_INTERNAL_H

/*
 * What the compatibility layers of lib/compat share (doc/compat.md):
 * programs written against libmango or DOCA's host API never call
 * rte_eal_init() and name devices their own way.  The environment starts
 * the EAL when the program has not (arguments from PCC_EAL_ARGS or the
 * PCC_COMPAT_CONF file, defaults that work off hardware), creates what
 * the settings ask for (a ring pair, a simulator run, plug-ins, engine
 * options) and maps device names to DPDK ports or simulator hosts
 * (PCC_DEVICES).  Then it keeps the program's contexts (lib/host) and
 * runs them: a simulator run starts when every context the program made
 * has started, and ends with the scenario.
 *
 * Internal to lib/compat: the layers' public headers are the original
 * APIs' (libmango.h, doca_pcc.h, ...).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_log.h>

#include "pcc_host.h"

#ifdef __cplusplus
extern "C" {
#endif

extern int compat_logtype;
#define COMPAT_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, compat_logtype, "pcc.compat: " fmt "\n", ##__VA_ARGS__)

/* Longest name a program gives a device. */
#define COMPAT_NAME_MAX 64
/* Devices the environment knows at most. */
#define COMPAT_DEV_MAX 64

/* One device as a program sees it. */
struct compat_dev {
	char name[COMPAT_NAME_MAX];   /* what the program names it */
	char pci[COMPAT_NAME_MAX];    /* PCI address ("0000:03:00.0"), "" if none */
	char ibdev[COMPAT_NAME_MAX];  /* ibdev-style name: the name unless a PCI address */
	char target[COMPAT_NAME_MAX]; /* as configured: port:N, an ethdev name, sim:HOST */
	char host[COMPAT_NAME_MAX];   /* simulator host ("" live) */
	int port;                     /* ethdev port, -1 when it does not resolve */
};

/*
 * Start the environment once per process (later calls return the first
 * result): settings from PCC_COMPAT_CONF and the environment, the EAL
 * (unless the program started it), plug-ins, process engine options, a
 * ring pair or a simulator run, the device table.  api names the caller
 * in errors ("libmango", "doca_pcc").  0, or a negative errno with one
 * line in compat_env_error() (also logged).
 */
int compat_env_init(const char *api);
/* Whether compat_env_init() succeeded. */
bool compat_env_ready(void);
/* The last error of the environment ("" if none). */
const char *compat_env_error(void);
/* Record an error (printf format) and log it; returns rc. */
int compat_env_fail(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A simulator run (PCC_SIM)? */
bool compat_env_sim(void);
/* Worker lcores polling queues, in order (the main lcore when alone). */
uint32_t compat_env_lcores(uint32_t *out, uint32_t n);

/* ---- Devices ------------------------------------------------------------ */

/* Devices of the environment (after init). */
uint32_t compat_dev_count(void);
const struct compat_dev *compat_dev_at(uint32_t i);
/* By name, PCI address or ibdev name; NULL (with the known names in
 * compat_env_error()) when none. */
const struct compat_dev *compat_dev_find(const char *name);

/* The known device names, comma separated, for error messages. */
const char *compat_dev_known(char *buf, size_t len);

/* ---- The program's contexts --------------------------------------------- */

/*
 * The program's context of role on port: the one the environment made
 * (a simulator run makes one per host and role) or a new one with the
 * RP/NP engine options of the settings.  NULL with the reason in
 * compat_env_error() (-EEXIST: the program has it already).
 */
struct pcc_host_ctx *compat_ctx_get(uint16_t port, enum pcc_host_role role);
/* The program is done with ctx: stopped, and destroyed unless the
 * simulator run owns it.  The last one ends a simulator run (outputs
 * written).  NULL allowed. */
void compat_ctx_put(struct pcc_host_ctx *ctx);
/*
 * Start ctx.  Live, at once (a ring pair's other port gets an NP context
 * if the program has none).  In a simulator run, when every context the
 * program holds has been started: then the whole run starts.  0 or a
 * negative errno (compat_env_error()).
 */
int compat_ctx_start(struct pcc_host_ctx *ctx);
/* Whether ctx counts as started (its start was asked). */
bool compat_ctx_started(const struct pcc_host_ctx *ctx);
/* Stop ctx (a simulator run: the whole run).  0 or a negative errno. */
int compat_ctx_stop(struct pcc_host_ctx *ctx);
/*
 * Wait for a state change of ctx or the process, at most timeout_ms (-1:
 * forever).  In a simulator run the end of the scenario is a change: the
 * run is stopped, its outputs written and the process state becomes
 * DEACTIVATED.  0 on a change, -ETIMEDOUT.
 */
int compat_wait(struct pcc_host_ctx *ctx, int timeout_ms);
/* Check for the end of a simulator run now (as compat_wait does). */
void compat_poll(void);

#ifdef __cplusplus
}
#endif

#endif /* COMPAT_ENV_INTERNAL_H */
