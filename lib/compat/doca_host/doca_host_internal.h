/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_HOST_INTERNAL_H
#define DOCA_HOST_INTERNAL_H

/*
 * What the DOCA host shims (doca_dev.h, doca_pcc.h) and the DOCA
 * telemetry layer share: devices (local, or a running dpdk-pcc's) and a
 * client of the DPDK telemetry socket.  Internal to lib/compat.
 */

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include <doca_dev.h>
#include <doca_error.h>

#include "compat_env_internal.h"

extern int doca_host_logtype;
#define DOCA_HOST_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, doca_host_logtype, "pcc.doca: " fmt "\n", ##__VA_ARGS__)

/* Log an error naming the call and return code. */
doca_error_t doca_host_fail(doca_error_t code, const char *call, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));

struct doca_devinfo {
	char name[COMPAT_NAME_MAX];
	char pci[COMPAT_NAME_MAX];
	char ibdev[COMPAT_NAME_MAX];
	char iface[COMPAT_NAME_MAX];
	int port;                   /* ethdev port (of the remote process when remote) */
	bool remote;                /* a port of the dpdk-pcc PCC_TELEMETRY_PREFIX names */
	char host[COMPAT_NAME_MAX]; /* simulator host, "" if none */
};

struct doca_dev {
	struct doca_devinfo info;
	uint32_t users; /* contexts on the device */
};

/* PCC_TELEMETRY_PREFIX, or NULL when unset or empty. */
const char *doca_host_remote_prefix(void);

/* ---- DPDK telemetry socket client ---------------------------------------- */

struct dtlm;

/* Connect to the telemetry socket of the DPDK process with file prefix
 * prefix (its runtime directory when dir is non-NULL).  NULL with the
 * reason in err. */
struct dtlm *dtlm_open(const char *prefix, const char *dir, char *err, size_t errlen);
/* Run cmd ("/pcc/algo,0,1"): a new reference to the reply's value, or
 * NULL with the reason in err ("... replied null" for a refusal). */
json_t *dtlm_get(struct dtlm *t, const char *cmd, char *err, size_t errlen);
/* -errno of the refusal the last dtlm_get() got ({"status", "error"}), 0 if
 * it failed otherwise or succeeded. */
int dtlm_status(const struct dtlm *t);
void dtlm_close(struct dtlm *t);

#endif /* DOCA_HOST_INTERNAL_H */
