/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef COMPAT_ENV_PRIV_H
#define COMPAT_ENV_PRIV_H

/* State of the compatibility environment, shared by its own files only. */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "compat_env_internal.h"
#include "pcc_engine.h"
#include "pcc_host_ha.h"
#include "pcc_sim.h"
#include "pcc_simrun.h"

/* Settings: PCC_<KEY> in the environment, <KEY> = value in the file. */
struct compat_settings {
	char eal_args[1024];
	char devices[2048];
	char sim[PATH_MAX];
	char sim_out[PATH_MAX];
	char sim_seed[32];
	char sim_mode[32];
	char ring_pair[16];
	char engine_opts[2048];
	char plugins[2048];
	char ha[PATH_MAX];
};

/* A context the program holds. */
struct compat_ctx {
	struct pcc_host_ctx *ctx;
	bool start_asked; /* the program started it */
	bool ours;        /* the environment created it (destroy it at put) */
};

struct compat_state {
	bool init_done;
	int init_rc;
	char init_err[512];
	bool eal_ours;
	struct compat_settings set;
	/* ring pair (PCC_RING_PAIR) */
	struct pcc_ring_pair *rp;
	uint16_t ring_port[2];
	/* simulator run (PCC_SIM) */
	struct pcc_sim_scenario *scn;
	struct pcc_simrun *run;
	bool run_started;
	bool run_ended;
	/* active/standby (PCC_HA) */
	struct pcc_host_ha *ha;
	uint32_t ha_go;  /* set by become_active, cleared by deactivate */
	bool ha_started; /* the program's contexts run */
	/* devices */
	struct compat_dev dev[COMPAT_DEV_MAX];
	uint32_t nb_dev;
	/* the program's contexts */
	struct compat_ctx ctx[PCC_HOST_MAX_CTX];
	uint32_t nb_ctx;
};

extern struct compat_state compat;

/* Words of s into argv (buffer buf); count, -E2BIG or -EINVAL. */
int compat_split(const char *s, char *buf, size_t len, char **argv, int max);
/* PCC_ENGINE_OPTS of scope on ctx (NULL: process options). */
int compat_opts_apply(struct pcc_host_ctx *ctx, enum pcc_host_opt_scope scope);
/* Build the device table (after the EAL, ring pair and simulator). */
int compat_dev_table(void);
/* PCC_HA: the program's first start registers with the other processes. */
int compat_ha_start(void);
/* PCC_HA: start or stop the contexts as the role changes (main thread). */
void compat_ha_poll(void);

#endif /* COMPAT_ENV_PRIV_H */
