/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_DEV_MGMT_H
#define PCC_DEV_MGMT_H

/**
 * @file
 * Register-style management commands over the device state, modelled on
 * the PPCC access register of NVIDIA NICs (doc/host.md "Management
 * commands"): one request names a command type, a logical port, an
 * algorithm slot and an index (parameter, counter, histogram id or
 * counter group) and may carry a value or a block of values; the answer
 * is a status, a block of 32-bit words and, for the info commands, a
 * name and a description.  Every field is validated and a refusal comes
 * with a one-line message naming the bad field.
 *
 * Command types 0x0, 0x3-0x6, 0xA, 0xC, 0xE, 0xF, 0x10 and 0x13-0x15 are
 * the numbers public tools use; 0x1, 0x2, 0x7, 0xB, 0xD, 0x12 and 0x16
 * are dpdk-pcc's own choices for the operations whose public number is
 * unknown (REFERENCE section 2).
 *
 * Control path: callable from any thread, not from a worker's fast path.
 */

#include <stdint.h>

#include "pcc_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Command types (pcc_dev_mgmt_req.cmd_type). */
enum pcc_dev_mgmt_cmd {
	PCC_MGMT_ALGO_INFO = 0x00,        /**< words: id, major, minor; name, desc */
	PCC_MGMT_ALGO_ENABLE = 0x01,      /**< value 1/0: enable/disable the slot */
	PCC_MGMT_COUNTERS_ENABLE = 0x02,  /**< value 1/0: counters on/off */
	PCC_MGMT_ALGO_STATUS = 0x03,      /**< words: status bits (PCC_MGMT_STATUS_*) */
	PCC_MGMT_PARAMS_COUNT = 0x04,     /**< words: n_params */
	PCC_MGMT_PARAM_INFO = 0x05,       /**< index: id; words: def, min, max, perm */
	PCC_MGMT_PARAM_GET = 0x06,        /**< index: id; words: value */
	PCC_MGMT_PARAM_SET = 0x07,        /**< index: id, value; words: new value */
	PCC_MGMT_PARAMS_GET = 0x0A,       /**< words: every parameter */
	PCC_MGMT_PARAMS_SET = 0x0B,       /**< index: first id; values[0..n) */
	PCC_MGMT_COUNTERS_GET = 0x0C,     /**< index: counter group; words: the block */
	PCC_MGMT_COUNTERS_GET_CLR = 0x0D, /**< as 0x0C, then cleared */
	PCC_MGMT_COUNTERS_COUNT = 0x0E,   /**< words: n_counters, n_counter_groups */
	PCC_MGMT_COUNTER_INFO = 0x0F,     /**< index: id; words: max, type, perm */
	PCC_MGMT_ALGO_INFO_ARRAY = 0x10,  /**< words: (slot, id, major, minor) per bound slot */
	PCC_MGMT_HIST_IDS = 0x12,         /**< words: configured-ids mask, algo's ids mask */
	PCC_MGMT_HIST_DESC = 0x13,        /**< index: hist id; desc */
	PCC_MGMT_HIST_CONFIG = 0x14,      /**< index: hist id; words: see below */
	PCC_MGMT_HIST_SET = 0x15,         /**< index: hist id; value: PCC_MGMT_HIST_OP_* */
	PCC_MGMT_HIST_BINS = 0x16,        /**< index: hist id; words: the bins */
};

/** PCC_MGMT_ALGO_STATUS bits. */
#define PCC_MGMT_STATUS_BOUND (1u << 0)
#define PCC_MGMT_STATUS_ENABLED (1u << 1)
#define PCC_MGMT_STATUS_COUNTERS (1u << 2)
#define PCC_MGMT_STATUS_ACTIVE (1u << 3) /**< the slot new flows get */

/**
 * PCC_MGMT_HIST_SET operations (value).  CONFIG takes values[]: mode,
 * n_bins, min, step (LINEAR) or factor (EXPONENTIAL), then for FREE the
 * n_bins edges from values[4].  PCC_MGMT_HIST_CONFIG answers mode,
 * n_bins, enabled, counter_group, group_offset, min, step, factor, then
 * the n_bins lower edges.
 */
enum pcc_dev_mgmt_hist_op {
	PCC_MGMT_HIST_OP_CONFIG = 0,
	PCC_MGMT_HIST_OP_ENABLE = 1,
	PCC_MGMT_HIST_OP_DISABLE = 2,
	PCC_MGMT_HIST_OP_CLEAR = 3,
};

/** Words a request or an answer carries at most. */
#define PCC_MGMT_WORDS_MAX 64u

/** A request.  Fields a command does not use are ignored. */
struct pcc_dev_mgmt_req {
	uint8_t cmd_type; /**< enum pcc_dev_mgmt_cmd */
	uint8_t port;     /**< logical port, < PCC_DEV_MAX_PORTS */
	uint8_t slot;     /**< 0..7 or PCC_DEV_INTERNAL_SLOT */
	uint16_t index;   /**< parameter/counter/histogram id, counter group */
	uint32_t value;   /**< single value (set, enable, histogram op) */
	uint32_t n_values;
	uint32_t values[PCC_MGMT_WORDS_MAX];
};

/** An answer. */
struct pcc_dev_mgmt_resp {
	int status; /**< 0, or the negative errno the command returned */
	uint32_t n_words;
	uint32_t words[PCC_MGMT_WORDS_MAX];
	char name[PCC_DEV_NAME_MAX]; /**< info commands: algorithm/param/counter name */
	char desc[PCC_DEV_DESC_MAX]; /**< info commands: description */
	char err[128];               /**< when status < 0: names the bad field */
};

/**
 * Run one command.  Returns resp->status: 0, or -EINVAL (bad field:
 * type, port, slot, index, value), -ENOENT (slot unbound, histogram not
 * configured), -ERANGE (value outside the parameter's range), -EPERM
 * (read-only parameter), -EBUSY (state forbids it, e.g. clearing an
 * enabled histogram), or what the algorithm's set_params returned.
 */
int pcc_dev_mgmt_exec(const struct pcc_dev_mgmt_req *req, struct pcc_dev_mgmt_resp *resp);

/** Name of a command type ("algo_info", ...), NULL if unknown. */
const char *pcc_dev_mgmt_cmd_name(unsigned int cmd_type);

/** Command type by name or number ("param_set", "0x7"), or -EINVAL. */
int pcc_dev_mgmt_cmd_parse(const char *s);

#ifdef __cplusplus
}
#endif

#endif /* PCC_DEV_MGMT_H */
