/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_LOG_H_
#define DOCA_LOG_H_

/**
 * @file
 * dpdk-pcc's DOCA compatibility: DOCA's logging macros on rte_log
 * (doc/compat-doca-host.md).  DOCA_LOG_REGISTER(SOURCE) registers the
 * rte_log type "doca.<source>" (lower case, "::" -> "."); the application
 * backends set those types' level, the SDK backend the level of
 * dpdk-pcc's own types (pcc.*).  Messages go where rte_log writes
 * (stderr, or rte_openlog_stream()).
 */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

/** DOCA log levels (numeric values as DOCA's). */
enum doca_log_level {
	DOCA_LOG_LEVEL_DISABLE = 10,
	DOCA_LOG_LEVEL_CRIT = 20,
	DOCA_LOG_LEVEL_ERROR = 30,
	DOCA_LOG_LEVEL_WARNING = 40,
	DOCA_LOG_LEVEL_INFO = 50,
	DOCA_LOG_LEVEL_DEBUG = 60,
	DOCA_LOG_LEVEL_TRACE = 70,
};

/** A logging backend (opaque). */
struct doca_log_backend;

/** Register a source: its rte_log type id, or a negative errno. */
int doca_log_source_register(const char *source_name);

/** Write one message of source at level (the macros' target). */
void doca_log(enum doca_log_level level, int source, const char *file, int line, const char *func,
		const char *format, ...) __attribute__((format(printf, 6, 7)));

/** The standard backend: application messages to stderr, at the global
 *  lower limit. */
DOCA_STABLE
doca_error_t doca_log_backend_create_standard(void);
/** Application messages to fptr (rte_openlog_stream()). */
DOCA_STABLE
doca_error_t doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend);
/** SDK (dpdk-pcc's own) messages to fptr. */
DOCA_STABLE
doca_error_t doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend);
/** Lowest level of application messages a backend writes. */
DOCA_STABLE
doca_error_t doca_log_backend_set_level_lower_limit(
		struct doca_log_backend *backend, uint32_t level);
/** Level of SDK messages an SDK backend writes. */
DOCA_STABLE
doca_error_t doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level);
/** Lowest level of application messages for every backend. */
DOCA_STABLE
doca_error_t doca_log_level_set_global_lower_limit(uint32_t level);
/** The global lower limit. */
DOCA_STABLE
uint32_t doca_log_level_get_global_lower_limit(void);
/** Level of SDK messages for every backend. */
DOCA_STABLE
doca_error_t doca_log_level_set_global_sdk_limit(uint32_t level);

/** Register the calling file's source (once per file, at file scope). */
#define DOCA_LOG_REGISTER(SOURCE)                                             \
	static int log_source = -1;                                           \
	__attribute__((constructor)) static void doca_log_register_src_(void) \
	{                                                                     \
		log_source = doca_log_source_register(#SOURCE);               \
	}

#define DOCA_LOG(level, format, ...)                                                       \
	doca_log(DOCA_LOG_LEVEL_##level, log_source, __FILE__, __LINE__, __func__, format, \
			##__VA_ARGS__)
#define DOCA_LOG_CRIT(format, ...) DOCA_LOG(CRIT, format, ##__VA_ARGS__)
#define DOCA_LOG_ERR(format, ...) DOCA_LOG(ERROR, format, ##__VA_ARGS__)
#define DOCA_LOG_WARN(format, ...) DOCA_LOG(WARNING, format, ##__VA_ARGS__)
#define DOCA_LOG_INFO(format, ...) DOCA_LOG(INFO, format, ##__VA_ARGS__)
#define DOCA_LOG_DBG(format, ...) DOCA_LOG(DEBUG, format, ##__VA_ARGS__)
#define DOCA_LOG_TRC(format, ...) DOCA_LOG(TRACE, format, ##__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* DOCA_LOG_H_ */
