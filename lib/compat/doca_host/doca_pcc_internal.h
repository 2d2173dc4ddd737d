/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_INTERNAL_H
#define DOCA_PCC_INTERNAL_H

/* A DOCA PCC host context (doca_pcc.h) over a lib/host context. */

#include <stdio.h>

#include <doca_pcc.h>

#include "doca_host_internal.h"
#include "pcc_host.h"

/* Trace records a handler gets at once. */
#define DOCA_PCC_TRACE_BATCH 64

struct doca_pcc {
	struct pcc_host_ctx *ctx;
	struct doca_dev *dev;
	enum pcc_host_role role;
	struct doca_pcc_app *app;
	uint32_t threads;
	/* tracer outputs this context set (the tracer is the process's) */
	char *trace_buf;
	FILE *trace_file;
	doca_pcc_trace_handler_cb handler;
	void *handler_ctx;
	struct doca_pcc_bin_report reports[DOCA_PCC_TRACE_BATCH];
};

/* At doca_pcc_start(): what the tracer settings need then.  0 or -errno. */
int doca_pcc_trace_apply(struct doca_pcc *pcc);
/* At doca_pcc_destroy(): the tracer stops writing into this context's
 * buffer, file or handler. */
void doca_pcc_trace_release(struct doca_pcc *pcc);

#endif /* DOCA_PCC_INTERNAL_H */
