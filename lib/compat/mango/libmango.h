/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef LIBMANGO_H
#define LIBMANGO_H

/**
 * @file
 * libmango's "RDMA PCC" API on dpdk-pcc: configure user congestion
 * control algorithms and their parameters for an RDMA device.  A program
 * written against libmango builds unchanged against this header (pkg-config
 * pcc-mango) and runs on a DPDK port, a ring pair or a simulator host.
 * Guide, call by call: doc/compat-mango.md.
 *
 *   mango_pcc_create("roce0", &pcc);            a device (PCC_DEVICES)
 *   mango_pcc_ctrl_config(pcc, &config);        the algorithm interval
 *   mango_pcc_ctrl_reg_algo(pcc, 1, my_algo, &params, sizeof(params));
 *   mango_pcc_ctrl_run(pcc, 4);                 4 worker lcores
 *   ... per-QP views: mango_pcc_active_qp_list(), _cnp_count_by_qp() ...
 *   mango_pcc_ctrl_stop(pcc);
 *   mango_pcc_destroy(pcc);
 *
 * Every interval the framework calls the algorithm of each active QP on
 * the worker lcore that owns the QP; inside, mango_pcc_window_current(),
 * mango_pcc_event_cnp_cnt(), mango_pcc_window_update() and
 * mango_pcc_event_get_val() / _request() are about that QP.  Windows are
 * in bytes (the engine's window model, doc/engine.md).
 *
 * Where libmango leaves values open (status codes, enum values, limits,
 * the REGISTER_*_PARAM macros, the plug-in callbacks' signatures), they
 * are chosen here and listed in doc/compat-mango.md, "Values chosen".
 */

#include <stddef.h>
#include <stdint.h>

#include "mango_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
#define MANGO_PCC_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define MANGO_PCC_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif

/* ---- Limits and defaults ------------------------------------------------- */

/** QPs a handle follows; the size of mango_pcc_active_qp_list()'s buffer. */
#define MANGO_PCC_MAX_QPS 4096u
#ifndef MAX_QPS
#define MAX_QPS MANGO_PCC_MAX_QPS
#endif
/** Algorithm slots of a handle: 0 .. MANGO_PCC_MAX_SLOTS - 1. */
#define MANGO_PCC_MAX_SLOTS 8u
/** Largest parameter structure, bytes. */
#define MANGO_PCC_PARAMS_SIZE_MAX 1024u
/** Parameters registered per slot. */
#define MANGO_PCC_MAX_PARAMS 64u
/** Longest parameter name, with its NUL. */
#define MANGO_PCC_PARAM_NAME_MAX 32u
/** Window of a QP before its algorithm sets one, bytes. */
#define MANGO_PCC_WINDOW_INIT 65536u
/** Smallest window: smaller values are raised to it (one packet in flight). */
#define MANGO_PCC_WINDOW_MIN 1u
/** Interval when the program configures none, microseconds. */
#define MANGO_PCC_INTERVAL_DEFAULT_US 100u
/** Largest interval, microseconds (the engine's timer). */
#define MANGO_PCC_INTERVAL_MAX_US 10000000u

/* ---- Datatypes ----------------------------------------------------------- */

/** A handle of mango pcc. */
typedef void *mango_pcc_h;

/** User-provided CC algorithm function: params is the QP's own copy. */
typedef void mango_pcc_algo_fn(void *params);

/** PCC configuration options. */
typedef enum _mango_pcc_config_option {
	MANGO_PCC_CONFIG_INTERVAL = 0, /**< algorithm execution interval */
} mango_pcc_config_option_e;

/** PCC configuration value type. */
typedef struct _mango_pcc_config {
	mango_pcc_config_option_e option; /**< PCC configuration option */
	union {
		uint32_t interval_us; /**< microseconds, 1..MANGO_PCC_INTERVAL_MAX_US */
	} value;
} mango_pcc_config_t;

/** Metric selection bitmask for mango_pcc_ctrl_reg_algo_event(). */
typedef enum _mango_pcc_metric_flags {
	MANGO_PCC_METRIC_NONE = 0,
	MANGO_PCC_METRIC_CNP = 1u << 0, /**< cnp_delta */
	MANGO_PCC_METRIC_RTT = 1u << 1, /**< latest_rtt_ns, rtt_updated */
	MANGO_PCC_METRIC_ALL = (1u << 0) | (1u << 1),
} mango_pcc_metric_flags_e;

/**
 * Snapshot handed to an event-style algorithm.  sizeof is fixed at 64
 * bytes; a value of 0 in any reserved slot means "not provided".
 */
typedef struct _mango_pcc_context {
	uint32_t current_window;  /**< current QP congestion window, bytes */
	uint32_t cnp_delta;       /**< CNPs since the last call (0 without METRIC_CNP) */
	uint64_t latest_rtt_ns;   /**< most recent RTT, ns (0 if unavailable) */
	uint32_t rtt_updated;     /**< 1 if a new RTT measurement arrived this cycle */
	uint32_t active_qp_count; /**< active QPs on the device */
	uint8_t _reserved[40];    /**< always zero */
} mango_pcc_context_t;

MANGO_PCC_STATIC_ASSERT(sizeof(mango_pcc_context_t) == 64, "mango_pcc_context_t is 64 bytes");

/**
 * What an event-style algorithm returns.  sizeof is fixed at 32 bytes; 0
 * in any reserved slot means "no action".
 */
typedef struct _mango_pcc_result {
	uint32_t new_window;        /**< new window, bytes (current_window or 0: unchanged) */
	uint32_t request_rtt_probe; /**< non-zero: send an RTT probe for the QP */
	uint8_t _reserved[24];      /**< the algorithm leaves it zero */
} mango_pcc_result_t;

MANGO_PCC_STATIC_ASSERT(sizeof(mango_pcc_result_t) == 32, "mango_pcc_result_t is 32 bytes");

/** Event-style algorithm: snapshot in, desired outcome out. */
typedef mango_pcc_result_t mango_pcc_algo_event_fn(void *params, const mango_pcc_context_t *ctx);

/** Event types of mango_pcc_event_get_val() and mango_pcc_event_request(). */
typedef enum _mango_pcc_event {
	MANGO_PCC_EVENT_CNP = 0,         /**< CNPs since the previous call */
	MANGO_PCC_EVENT_RTT = 1,         /**< latest RTT, ns; request: send a probe */
	MANGO_PCC_EVENT_RTT_UPDATED = 2, /**< 1 if a new RTT arrived since the previous call */
	MANGO_PCC_EVENT_ACTIVE_QPS = 3,  /**< active QPs of the device */
	MANGO_PCC_EVENT_QP_NUM = 4,      /**< the QP's number */
	MANGO_PCC_EVENT_POLLER = 5,      /**< index of the poller thread running it */
	MANGO_PCC_EVENT_MAX
} mango_pcc_event_e;

/** Parameter types of mango_pcc_param_register() and mango_pcc_walk_params(). */
typedef enum _mango_pcc_param_type {
	MANGO_PCC_PARAM_UINT8 = 0,
	MANGO_PCC_PARAM_UINT16 = 1,
	MANGO_PCC_PARAM_UINT32 = 2,
	MANGO_PCC_PARAM_UINT64 = 3,
	MANGO_PCC_PARAM_INT8 = 4,
	MANGO_PCC_PARAM_INT16 = 5,
	MANGO_PCC_PARAM_INT32 = 6,
	MANGO_PCC_PARAM_INT64 = 7,
	MANGO_PCC_PARAM_FLOAT = 8,
	MANGO_PCC_PARAM_DOUBLE = 9,
	MANGO_PCC_PARAM_TYPE_MAX
} mango_pcc_param_type_e;

/** One parameter descriptor for mango_pcc_params_register(). */
typedef struct _mango_pcc_param {
	const char *name;            /**< parameter name */
	mango_pcc_param_type_e type; /**< parameter type */
	size_t offset;               /**< offset of the field in the user's struct */
} mango_pcc_param_t;

/*
 * Descriptor of field `field` of struct type `type`; the field's size
 * must match the type (a compile-time error otherwise).
 */
/* clang-format off */
#define MANGO_PCC_FIELD_SIZE_IS_(type, field, size) \
	(0 * sizeof(char[sizeof(((type *)0)->field) == (size) ? 1 : -1]))
#define MANGO_PCC_PARAM_DESC_(type, field, ptype, size) \
	{ #field, ptype, offsetof(type, field) + MANGO_PCC_FIELD_SIZE_IS_(type, field, size) }
#define REGISTER_U8_PARAM(type, field) MANGO_PCC_PARAM_DESC_(type, field, MANGO_PCC_PARAM_UINT8, 1)
#define REGISTER_U16_PARAM(type, field) MANGO_PCC_PARAM_DESC_(type, field, MANGO_PCC_PARAM_UINT16, 2)
#define REGISTER_U32_PARAM(type, field) MANGO_PCC_PARAM_DESC_(type, field, MANGO_PCC_PARAM_UINT32, 4)
#define REGISTER_U64_PARAM(type, field) MANGO_PCC_PARAM_DESC_(type, field, MANGO_PCC_PARAM_UINT64, 8)
#define REGISTER_I8_PARAM(type, field) MANGO_PCC_PARAM_DESC_(type, field, MANGO_PCC_PARAM_INT8, 1)
#define REGISTER_I16_PARAM(type, field) MANGO_PCC_PARAM_DESC_(type, field, MANGO_PCC_PARAM_INT16, 2)
#define REGISTER_I32_PARAM(type, field) MANGO_PCC_PARAM_DESC_(type, field, MANGO_PCC_PARAM_INT32, 4)
#define REGISTER_I64_PARAM(type, field) MANGO_PCC_PARAM_DESC_(type, field, MANGO_PCC_PARAM_INT64, 8)
#define REGISTER_FLOAT_PARAM(type, field) MANGO_PCC_PARAM_DESC_(type, field, MANGO_PCC_PARAM_FLOAT, 4)
#define REGISTER_DOUBLE_PARAM(type, field) MANGO_PCC_PARAM_DESC_(type, field, MANGO_PCC_PARAM_DOUBLE, 8)
/* clang-format on */

/** Callback of mango_pcc_walk_params(). */
typedef void (*mango_pcc_param_walk_fn)(
		const char *name, mango_pcc_param_type_e type, void *value_ptr, void *user_data);

/**
 * A PCC algorithm plug-in: a shared object exporting
 * `mango_pcc_algo_plugin_t mango_pcc_algo_plugin` (const allowed), built
 * with pkg-config pcc-mango-plugin and loaded by dpdk-pcc --plugin; it
 * becomes the algorithm `name`.
 */
typedef struct _mango_pcc_algo_plugin {
	const char *name; /**< algorithm name: [a-z0-9_], 1..31 characters */
	const char *desc; /**< algorithm description (may be NULL) */
	/** initial parameters (allocated) and their size; NULL: none */
	void *(*init_params)(size_t *param_size);
	/** frees what init_params returned (may be NULL) */
	void (*destroy_params)(void *params);
	mango_pcc_algo_fn *algo_fn;             /**< legacy algorithm function */
	mango_pcc_algo_event_fn *algo_event_fn; /**< event-style (NULL for legacy) */
	uint32_t required_metrics;              /**< mango_pcc_metric_flags_e bitmask */
} mango_pcc_algo_plugin_t;

/* ---- Handles and the control loop ----------------------------------------- */

/** Create a PCC handle for a device (a DPDK port or a simulator host). */
mango_status_e mango_pcc_create(const char *roce_dev_name, mango_pcc_h *pcc);
/** Destroy a PCC handle (stopped first if running). */
mango_status_e mango_pcc_destroy(mango_pcc_h pcc);
/** Set a PCC configuration value (before the first run). */
mango_status_e mango_pcc_ctrl_config(mango_pcc_h pcc, const mango_pcc_config_t *config);
/** Register a window-style algorithm at slot. */
mango_status_e mango_pcc_ctrl_reg_algo(mango_pcc_h pcc, unsigned int slot, mango_pcc_algo_fn *algo,
		const void *initial_params, size_t param_size);
/** Register an event-style algorithm at slot. */
mango_status_e mango_pcc_ctrl_reg_algo_event(mango_pcc_h pcc, unsigned int slot,
		mango_pcc_algo_event_fn *algo, uint32_t required_metrics,
		const void *initial_params, size_t param_size);
/** Unregister the algorithm of slot. */
mango_status_e mango_pcc_ctrl_unreg_algo(mango_pcc_h pcc, unsigned int slot);
/** Apply slot's algorithm to the listed QPs, or to all (qp_list NULL). */
mango_status_e mango_pcc_ctrl_apply_algo(mango_pcc_h pcc, unsigned int slot,
		const unsigned int *qp_list, unsigned int qp_count);
/** Start the control loop with num_threads poller threads (worker lcores). */
mango_status_e mango_pcc_ctrl_run(mango_pcc_h pcc, unsigned int num_threads);
/** Stop the control loop. */
mango_status_e mango_pcc_ctrl_stop(mango_pcc_h pcc);
/** The handle's context (do not destroy it); NULL for a bad handle. */
mango_context_h mango_pcc_get_context(mango_pcc_h pcc);

/* ---- Per-QP views (control thread) ------------------------------------------ */

/** Active QPs: qp_list holds at least MAX_QPS entries. */
mango_status_e mango_pcc_active_qp_list(mango_pcc_h pcc, uint32_t *qp_list, uint32_t *qp_count);
/** CNPs of a QP since its baseline (its first appearance, or the last run). */
mango_status_e mango_pcc_cnp_count_by_qp(mango_pcc_h pcc, uint32_t qp_num, uint64_t *cnp_count);
/** Current window of a QP, bytes. */
mango_status_e mango_pcc_window_current_by_qp(
		mango_pcc_h pcc, uint32_t qp_num, uint32_t *window_size);
/** Window updates of a QP since its slot was last changed. */
mango_status_e mango_pcc_window_count_by_qp(mango_pcc_h pcc, uint32_t qp_num, uint32_t *count);

/* ---- Parameters ------------------------------------------------------------- */

/** Register one parameter of slot's parameter struct. */
mango_status_e mango_pcc_param_register(mango_pcc_h pcc, const unsigned int slot, const char *name,
		mango_pcc_param_type_e type, size_t offset);
/** Register an array of parameters. */
mango_status_e mango_pcc_params_register(mango_pcc_h pcc, unsigned int slot,
		const mango_pcc_param_t *params, unsigned int nr_params);
/** Walk slot's parameters: mode 0 reads the first QP's, 1 writes every QP's. */
mango_status_e mango_pcc_walk_params(mango_pcc_h pcc, const unsigned int slot,
		mango_pcc_param_walk_fn callback, void *user_data, unsigned int mode);

/* ---- Inside the algorithm (the current QP) ---------------------------------- */

/** Current window of the QP, bytes. */
unsigned int mango_pcc_window_current(void);
/** Set the QP's window, bytes. */
void mango_pcc_window_update(unsigned int new_window);
/** CNPs of the QP since the previous call. */
unsigned int mango_pcc_event_cnp_cnt(void);
/** Value of an event of the QP (0 if not available). */
unsigned int mango_pcc_event_get_val(mango_pcc_event_e event);
/** Request an event-specific action for the QP (MANGO_PCC_EVENT_RTT: a probe). */
mango_status_e mango_pcc_event_request(mango_pcc_event_e event);

/** Log with the poller index and QP number (rte_log type pcc.mango). */
void mango_pcc_log(mango_log_level_e level, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif

#endif /* LIBMANGO_H */
