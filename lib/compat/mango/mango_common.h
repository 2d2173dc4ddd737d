/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef MANGO_COMMON_H
#define MANGO_COMMON_H

/**
 * @file
 * What libmango's PCC API (libmango.h) takes from the rest of libmango:
 * status codes, log levels and the context handle.  libmango is not
 * public; the API documentation names these types without their values,
 * so dpdk-pcc chose them (doc/compat-mango.md, "Values chosen").
 */

#ifdef __cplusplus
extern "C" {
#endif

/** Status of a libmango call: 0 on success, a negative value otherwise. */
typedef enum _mango_status {
	MANGO_STATUS_SUCCESS = 0,
	/** the environment or the engine failed (the log line says why) */
	MANGO_STATUS_ERROR = -1,
	/** a NULL pointer, a value out of range, an unknown enum value */
	MANGO_STATUS_INVALID_ARG = -2,
	/** not a live handle of this library (never created, or destroyed) */
	MANGO_STATUS_INVALID_HANDLE = -3,
	/** unknown device name, empty slot, unknown QP, unknown parameter */
	MANGO_STATUS_NOT_FOUND = -4,
	/** the device has a handle already, the slot an algorithm, the slot
	 *  a parameter of that name */
	MANGO_STATUS_ALREADY_OPENED = -5,
	/** not in this state: running (or not), the engine fixed it */
	MANGO_STATUS_INVALID_STATE = -6,
	/** in use: QPs run the slot's algorithm */
	MANGO_STATUS_BUSY = -7,
	/** more threads than worker lcores, a table is full */
	MANGO_STATUS_NO_RESOURCE = -8,
	/** not available here (an event type, an option, inside a plug-in) */
	MANGO_STATUS_NOT_SUPPORTED = -9,
	/** out of memory */
	MANGO_STATUS_NO_MEMORY = -10,
} mango_status_e;

/** Log levels of mango_pcc_log() (rte_log levels CRIT .. DEBUG). */
typedef enum _mango_log_level {
	MANGO_LOG_LEVEL_CRITICAL = 1,
	MANGO_LOG_LEVEL_ERROR = 2,
	MANGO_LOG_LEVEL_WARNING = 3,
	MANGO_LOG_LEVEL_INFO = 4,
	MANGO_LOG_LEVEL_DEBUG = 5,
} mango_log_level_e;

/**
 * A libmango context: in dpdk-pcc the handle's lib/host RP context, a
 * `struct pcc_host_ctx *` for a program that also uses pcc_host.h.  It
 * belongs to the PCC handle (mango_pcc_get_context()).
 */
typedef struct mango_context *mango_context_h;

#ifdef __cplusplus
}
#endif

#endif /* MANGO_COMMON_H */
