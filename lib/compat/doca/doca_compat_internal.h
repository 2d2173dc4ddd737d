/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_COMPAT_INTERNAL_H
#define DOCA_COMPAT_INTERNAL_H

/*
 * State of the DOCA glue (lib/compat/doca), shared by its files and hidden
 * in the plug-in: doca_compat.c (the plug-in entry point and the lib/dev
 * callbacks), doca_compat_desc.c (description and memory declaration
 * calls), doca_compat_hist.c (histograms), doca_compat_run.c (run-time
 * access and services).  Each plug-in has its own copy (static library,
 * objects loaded RTLD_LOCAL).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_log.h>

#include <pcc_dev_plugin.h>

#include "doca_pcc_dev.h"
#include "doca_pcc_np_dev.h"

#define DOCA_HIDDEN __attribute__((visibility("hidden")))

#define DOCA_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, doca_logtype, "pcc.doca: " fmt "\n", ##__VA_ARGS__)

enum doca_phase {
	DOCA_PHASE_RUN = 0, /* after load: description calls refused */
	DOCA_PHASE_DECLARE, /* doca_pcc_dev_user_declare_memory() */
	DOCA_PHASE_INIT,    /* doca_pcc_dev_user_init() */
};

struct doca_algo {
	bool described;
	bool registered;
	bool declared; /* doca_pcc_dev_declare_algo */
	uint32_t decl_params;
	uint32_t decl_counters;
	uint16_t decl_slot_mask[PCC_DEV_MAX_PORTS]; /* doca_pcc_dev_declare_slot_algo */
	char name[PCC_DEV_NAME_MAX];
	char desc[PCC_DEV_DESC_MAX];
	struct pcc_dev_param_desc params[PCC_DEV_MAX_PARAMS];
	char pname[PCC_DEV_MAX_PARAMS][PCC_DEV_NAME_MAX];
	char pdesc[PCC_DEV_MAX_PARAMS][PCC_DEV_DESC_MAX];
	struct pcc_dev_counter_desc counters[PCC_DEV_MAX_COUNTERS];
	char cname[PCC_DEV_MAX_COUNTERS][PCC_DEV_NAME_MAX];
	char cdesc[PCC_DEV_MAX_COUNTERS][PCC_DEV_DESC_MAX];
	uint8_t hist_ids[PCC_DEV_MAX_HISTS];
	uint32_t n_hist_ids;
	struct pcc_dev_algo_ops ops;
};

struct doca_slot_map {
	uint8_t used;
	uint8_t idx;
	uint8_t enable;
};

struct pcc_doca_histogram {
	uint8_t used;
	uint8_t pending;        /* configured before the device existed */
	uint8_t enable_pending; /* enable once applied */
	uint8_t port;
	uint8_t id;
	uint32_t edges[PCC_DEV_HIST_MAX_BINS];
	struct pcc_dev_hist_conf conf;
	char desc[PCC_DEV_DESC_MAX];
};

/* The user_algo call in progress on this thread, and what it asked for
 * its flow's probes (copied into the results after the call). */
struct doca_cur {
	uint8_t in_algo;
	uint8_t port;
	uint8_t slot;
	uint8_t res_flags;  /* PCC_DEV_RES_F_PROBE_* */
	uint8_t probe_dscp; /* with PCC_DEV_RES_F_PROBE_DSCP */
	uint8_t custom_len; /* with PCC_DEV_RES_F_PROBE_CUSTOM */
	uint8_t custom[PCC_DEV_PROBE_CUSTOM_MAX];
};

extern DOCA_HIDDEN int doca_logtype;
extern DOCA_HIDDEN enum doca_phase doca_phase;
extern DOCA_HIDDEN int doca_err;
extern DOCA_HIDDEN char doca_errmsg[256];
extern DOCA_HIDDEN struct doca_algo doca_algos[PCC_DEV_MAX_ALGOS];
extern DOCA_HIDDEN struct doca_slot_map doca_layout[PCC_DEV_MAX_PORTS][PCC_DEV_MAX_SLOTS];
extern DOCA_HIDDEN uint32_t doca_decl_groups;
extern DOCA_HIDDEN uint32_t doca_decl_hists;
extern DOCA_HIDDEN struct pcc_doca_histogram doca_hists[PCC_DEV_MAX_PORTS][PCC_DEV_MAX_HISTS];
extern DOCA_HIDDEN __thread struct doca_cur doca_cur;

/* A failed description call: its message (the load's error when made from
 * user_init/declare_memory), logged; returns FAIL. */
DOCA_HIDDEN doca_pcc_dev_error_t doca_fail(const char *fmt, ...)
		__attribute__((format(printf, 1, 2)));
/* Description calls are allowed only while the plug-in loads. */
DOCA_HIDDEN bool doca_describing(const char *what);
/* Algorithm index described by doca_pcc_dev_algo_init_metadata(), or NULL. */
DOCA_HIDDEN struct doca_algo *doca_described(uint32_t algo_idx, const char *what);
/* Slot argument: plain, or DOCA_PCC_DEV_ALGO_SLOT(RP, slot). */
DOCA_HIDDEN bool doca_rp_slot(uint32_t algo_slot, uint8_t *slot);
/* on_event of every algorithm the glue registers. */
DOCA_HIDDEN void doca_op_on_event(void *ctx, const struct pcc_dev_event *ev,
		const struct pcc_dev_attr *attr, struct pcc_dev_results *res);
/* pcc_dev_plugin_apply(): histograms configured before the device existed. */
DOCA_HIDDEN int doca_hist_apply(void *arg);
/* Forget the NIC counter configuration (a new load). */
DOCA_HIDDEN void doca_nic_reset(void);

#endif /* DOCA_COMPAT_INTERNAL_H */
