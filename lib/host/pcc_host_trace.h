/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_HOST_TRACE_H
#define PCC_HOST_TRACE_H

/**
 * @file
 * Tracer and logger: a control thread drains lib/dev's per-thread trace
 * and printf rings (pcc_dev_trace_drain / pcc_dev_printf_drain) every
 * period; the fast path never blocks (a full ring drops and counts).
 *
 * Tracer: a format table (id -> printf-style string with up to five
 * integer conversions, %s not allowed) set before the service starts;
 * records are formatted as "<ts> [<thread>] <text>" and written to one
 * output: stdout, a file, a user buffer, or a callback receiving batches.
 * Every record is also emitted as the rte_trace tracepoint pcc.dev.trace
 * (CTF; EAL --trace=pcc.*), printf messages as pcc.dev.printf.
 *
 * Logger: printf ring size (before pcc_dev_init) and output file.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PCC_HOST_TRACE_FMT_MAX 256  /**< format ids 0..255 */
#define PCC_HOST_TRACE_FMT_LEN 128  /**< bytes per format incl. NUL */
#define PCC_HOST_TRACE_TEXT_MAX 256 /**< formatted record incl. NUL */

/** Set the format of fmt_id (NULL removes), before or while the tracer
 *  runs (a record formatted while its format changes gets the old or the
 *  new one); emitted as a pcc.dev.trace_fmt trace event for trace readers.
 *  -EINVAL bad id, -ENAMETOOLONG, -EINVAL more than 5 conversions or a
 *  %s/%n. */
int pcc_host_trace_fmt_set(uint32_t fmt_id, const char *fmt);

/** Format one record with the table (unknown id: "fmt#<id> a1 .. a5").
 *  Returns the length written (truncated to len - 1). */
int pcc_host_trace_format(uint32_t fmt_id, const uint64_t args[5], char *buf, size_t len);

/** One record handed to a batch callback. */
struct pcc_host_trace_msg {
	uint64_t ts;
	uint64_t seq;
	uint32_t fmt_id;
	uint16_t thread;
	uint64_t args[5];
	const char *text; /**< formatted, valid during the callback */
};

typedef void (*pcc_host_trace_batch_cb)(
		const struct pcc_host_trace_msg *msgs, uint32_t n, void *arg);

/** Outputs (one at a time; default stdout).  Set before or after start. */
int pcc_host_trace_to_stdout(void);
/** Append to path (opened now).  -errno of fopen. */
int pcc_host_trace_to_file(const char *path);
/** Append text lines into buf (len bytes, NUL-terminated); when full,
 *  records are counted in buf_overflow and dropped. */
int pcc_host_trace_to_buffer(char *buf, size_t len);
/** Batches of up to batch records (1..1024). */
int pcc_host_trace_to_callback(pcc_host_trace_batch_cb cb, void *arg, uint32_t batch);
/** Bytes used in the user buffer. */
size_t pcc_host_trace_buffer_used(void);
/** The trace file (DOCA's trace_file_get): its path, NULL when the output
 *  is not a file. */
const char *pcc_host_trace_file(void);
/** The user buffer (DOCA's trace_buf_get) and its length, NULL when the
 *  output is not a buffer. */
char *pcc_host_trace_buffer(size_t *len);

/** Activate/deactivate recording (pcc_dev_trace_enable) at run time. */
void pcc_host_trace_activate(bool on);
bool pcc_host_trace_active(void);

/** Logger: printf ring bytes per thread (power of two, 1024..2^24), for
 *  the next pcc_dev_init().  -EBUSY after it. */
int pcc_host_log_set_buffer_size(uint32_t bytes);
/** Logger output file (NULL: stdout). */
int pcc_host_log_to_file(const char *path);
/** The logger's file (DOCA's log_file_get), NULL for stdout. */
const char *pcc_host_log_file(void);

/** Service thread: start (period_ms 1..1000, 0 = 10) / stop (drains). */
int pcc_host_svc_start(uint32_t period_ms);
void pcc_host_svc_stop(void);
bool pcc_host_svc_running(void);
/** Drain both rings now and flush the outputs. */
int pcc_host_trace_flush(void);

struct pcc_host_trace_stats {
	uint64_t trace_out;    /**< records delivered to the output */
	uint64_t trace_lost;   /**< dropped by lib/dev (ring full) */
	uint64_t buf_overflow; /**< dropped: user buffer full */
	uint64_t log_out;      /**< printf messages written */
	uint64_t log_lost;     /**< printf messages dropped by lib/dev */
};
void pcc_host_trace_stats_get(struct pcc_host_trace_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* PCC_HOST_TRACE_H */
