/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_DEV_SIMPLE_H
#define PCC_DEV_SIMPLE_H

/**
 * @file
 * Simple ("snapshot") algorithms and named, typed parameters.
 *
 * A simple algorithm is one step function.  The framework wraps it into a
 * normal struct pcc_dev_algo_ops: it owns the per-flow context (snapshot
 * accumulators followed by the algorithm's own state_size bytes), reads
 * the events, computes RTT samples from probe responses, counts CNPs,
 * calls step() on the events the algorithm asked for, applies its answer
 * (clamped) to the results, and collects only the metrics the algorithm
 * declared, exported as the slot's counters.
 *
 * Per-flow context layout (ops->ctx_size = PCC_DEV_SIMPLE_HDR_SIZE +
 * state_size rounded up to 8): a 16-byte header, then the state (zeroed
 * for a new flow, 16-byte aligned relative to the context).
 *
 * Parameters are declared by name, type and offset in the algorithm's
 * parameter struct (params_size bytes, one copy per slot, handed to step()
 * read-only).  They are also exposed as ordinary pcc_dev parameters
 * (u32 words, see pcc_dev_params_set): a U32 or I32 parameter is one word
 * (I32 as its two's complement bits); a U64 parameter is two words, the
 * low one named like the parameter and the high one "<name>.hi".  Typed
 * min/max are enforced on every path (-ERANGE, nothing applied).
 *
 * The named-parameter functions at the end work for every algorithm: a
 * native algorithm's parameters are all U32, one per id.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pcc_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PCC_DEV_SIMPLE_HDR_SIZE 16
#define PCC_DEV_SIMPLE_STATE_MAX (PCC_DEV_CTX_MAX - PCC_DEV_SIMPLE_HDR_SIZE)
#define PCC_DEV_SIMPLE_PARAMS_MAX 1024 /**< parameter struct bytes */

/* ---- Named, typed parameters ------------------------------------------- */

enum pcc_dev_param_type {
	PCC_DEV_PARAM_U32 = 0,
	PCC_DEV_PARAM_U64 = 1,
	PCC_DEV_PARAM_I32 = 2,
};

/** A value: .u for U32/U64, .i for I32. */
union pcc_dev_param_val {
	uint64_t u;
	int64_t i;
};

/** Declaration of one parameter of a simple algorithm. */
struct pcc_dev_named_param {
	const char *name; /**< [A-Za-z0-9_], < PCC_DEV_NAME_MAX - 3 */
	const char *desc;
	uint8_t type;    /**< enum pcc_dev_param_type */
	uint8_t perm;    /**< PCC_DEV_PERM_RO / _RW */
	uint32_t offset; /**< offsetof() in the parameter struct, aligned */
	union pcc_dev_param_val def, min, max;
};

/** One parameter as listed for (port, slot). */
struct pcc_dev_param_info {
	const char *name;
	const char *desc;
	uint32_t id; /**< first u32 word id (pcc_dev_params_set) */
	uint8_t type;
	uint8_t perm;
	union pcc_dev_param_val def, min, max, cur;
};

/** Number of named parameters of the algorithm bound at (port, slot). */
int pcc_dev_param_count(uint8_t port, uint8_t slot);
/** Fill up to n infos in declaration order; returns the total count. */
int pcc_dev_param_list(uint8_t port, uint8_t slot, struct pcc_dev_param_info *info, uint32_t n);
/** One parameter by name.  -ENOENT unknown name. */
int pcc_dev_param_get_by_name(
		uint8_t port, uint8_t slot, const char *name, struct pcc_dev_param_info *info);
/**
 * Set one parameter by name: -ENOENT unknown, -EPERM read-only, -ERANGE
 * outside [min, max] (nothing applied), else as pcc_dev_params_set.
 */
int pcc_dev_param_set_by_name(
		uint8_t port, uint8_t slot, const char *name, union pcc_dev_param_val v);
/**
 * As above from text (console): decimal, 0x hex or 0 octal, a leading '-'
 * only for I32.  -EINVAL when the text is not a number of the type.
 */
int pcc_dev_param_set_str(uint8_t port, uint8_t slot, const char *name, const char *value);

/* ---- Simple algorithms -------------------------------------------------- */

/** What the wrapper controls. */
enum pcc_dev_simple_mode {
	PCC_DEV_SIMPLE_RATE = 0,   /**< rate, fraction of line rate (1 << 20) */
	PCC_DEV_SIMPLE_WINDOW = 1, /**< congestion window, bytes */
};

/** Read-only snapshot handed to step(). */
struct pcc_dev_simple_in {
	uint32_t rate;      /**< current rate (RATE mode), else 0 */
	uint32_t window;    /**< current window (WINDOW mode), else 0 */
	uint32_t cnp_count; /**< CNPs since the previous call (saturating) */
	uint32_t rtt_ns;    /**< latest RTT sample, ns; 0 before the first */
	uint8_t rtt_new;    /**< 1: rtt_ns arrived since the previous call */
	uint8_t event;      /**< event type that triggered this call */
	uint8_t port;
	uint8_t slot;
	uint32_t active_flows; /**< pcc_dev_active_flows(port, slot) */
	uint32_t now;          /**< event time, ns (32 bits, wraps) */
	const void *params;    /**< the slot's parameter struct, or NULL */
};

/** Answer of step(), zeroed before the call. */
struct pcc_dev_simple_out {
	uint32_t rate;   /**< new rate, 0 = keep; clamped to [1, MAX_RATE] */
	uint32_t window; /**< new window bytes, 0 = keep; >= min_window */
	uint8_t rtt_req; /**< 1: send an RTT probe */
};

/** Built-in metrics the framework can collect (only when declared). */
enum pcc_dev_simple_metric_src {
	PCC_DEV_SIMPLE_M_CUSTOM = 0,      /**< the algorithm updates it itself */
	PCC_DEV_SIMPLE_M_CALLS = 1,       /**< step() calls (ACCUMULATE) */
	PCC_DEV_SIMPLE_M_CNP = 2,         /**< CNP events (ACCUMULATE) */
	PCC_DEV_SIMPLE_M_RTT_SAMPLES = 3, /**< RTT samples (ACCUMULATE) */
	PCC_DEV_SIMPLE_M_RTT_MIN = 4,     /**< smallest RTT, ns (MIN) */
	PCC_DEV_SIMPLE_M_RTT_MAX = 5,     /**< largest RTT, ns (MAX) */
	PCC_DEV_SIMPLE_M_PROBES = 6,      /**< probes requested (ACCUMULATE) */
	PCC_DEV_SIMPLE_M_DECREASES = 7,   /**< rate/window decreases */
	PCC_DEV_SIMPLE_M_INCREASES = 8,   /**< rate/window increases */
	PCC_DEV_SIMPLE_M_NEW_FLOWS = 9,   /**< flows seen (ACCUMULATE) */
	PCC_DEV_SIMPLE_M_COUNT
};

/**
 * A declared metric: counter id = its index in the list.  Built-in ones
 * have their type implied; a CUSTOM one uses type/max and is updated by
 * the algorithm with pcc_dev_counter_add/_update(in->port, in->slot, id).
 */
struct pcc_dev_simple_metric {
	const char *name;
	uint8_t src;  /**< enum pcc_dev_simple_metric_src */
	uint8_t type; /**< CUSTOM: enum pcc_dev_counter_type */
	uint32_t max; /**< CUSTOM: saturation (0 = UINT32_MAX) */
	const char *desc;
};

/** step(): state is the flow's own state (state_size bytes). */
typedef void (*pcc_dev_simple_step_fn)(
		const struct pcc_dev_simple_in *in, void *state, struct pcc_dev_simple_out *out);

/**
 * A simple algorithm.  name and step are required; tables live as long
 * as the registration.
 */
struct pcc_dev_simple_algo {
	const char *name; /**< as pcc_dev_algo_ops.name */
	uint32_t id;
	uint16_t major;
	uint16_t minor;
	const char *desc;
	uint8_t mode; /**< enum pcc_dev_simple_mode */
	/**
	 * Events that call step() (PCC_DEV_EVENT_BIT); 0 = RTT and TIMER.
	 * CNP and RTT events are always read (counted / sampled); all other
	 * events not listed are masked off.
	 */
	uint32_t call_on;
	uint32_t initial_rate;   /**< RATE: new flow's rate; 0 = MAX_RATE */
	uint32_t initial_window; /**< WINDOW: bytes; 0 = 65536 */
	uint32_t min_window;     /**< WINDOW: floor, bytes; 0 = 1 */
	uint32_t state_size;     /**< per-flow state, <= SIMPLE_STATE_MAX */
	pcc_dev_simple_step_fn step;
	const struct pcc_dev_named_param *params;
	uint32_t n_params;    /**< total words <= PCC_DEV_MAX_PARAMS */
	uint32_t params_size; /**< parameter struct bytes */
	const struct pcc_dev_simple_metric *metrics;
	uint32_t n_metrics;      /**< <= PCC_DEV_MAX_COUNTERS */
	const uint8_t *hist_ids; /**< as pcc_dev_algo_ops */
	uint32_t n_hist_ids;
};

/**
 * Build the wrapper ops and register it under sa->name.  0, -EINVAL (bad
 * description; logged), -EEXIST, -ENOSPC, -ENOMEM.  Unregister with
 * pcc_dev_algo_unregister(), which frees the wrapper.
 */
int pcc_dev_simple_register(const struct pcc_dev_simple_algo *sa);
/** The wrapper ops of a registered simple algorithm (NULL if none). */
const struct pcc_dev_algo_ops *pcc_dev_simple_ops(const char *name);

/** Register at load time. */
#define PCC_DEV_SIMPLE_REGISTER(sa)                                                   \
	static void __attribute__((constructor, used)) pcc_dev_simple_ctor_##sa(void) \
	{                                                                             \
		pcc_dev_simple_register(&(sa));                                       \
	}

#ifdef __cplusplus
}
#endif

#endif /* PCC_DEV_SIMPLE_H */
