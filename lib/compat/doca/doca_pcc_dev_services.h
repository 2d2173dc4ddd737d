/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_DEV_SERVICES_H_
#define DOCA_PCC_DEV_SERVICES_H_

/**
 * @file
 * dpdk-pcc's DOCA PCC compatibility: printf, trace, thread rank, mailbox.
 *
 * printf and trace write into lib/dev's per-thread rings (no system call
 * on the fast path); the host drains them (pcc_dev_printf_drain,
 * pcc_dev_trace_drain), as DOCA's host library does.
 */

#include <stdint.h>

#include <pcc_dev_svc.h>

#include "doca_pcc_dev_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Formatted message to the host (lib/dev printf ring; may be dropped). */
void doca_pcc_dev_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));

/** Trace record {format_id, arg1..arg5} (lib/dev trace ring). */
FORCE_INLINE void
doca_pcc_dev_trace_5(int format_id, uint64_t arg1, uint64_t arg2, uint64_t arg3, uint64_t arg4,
		uint64_t arg5)
{
	pcc_dev_trace_5((uint32_t)format_id, arg1, arg2, arg3, arg4, arg5);
}

/** Make this thread's trace records visible to the host. */
FORCE_INLINE void
doca_pcc_dev_trace_flush(void)
{
	pcc_dev_trace_flush();
}

/** Rank of the calling worker thread, 0..N-1. */
FORCE_INLINE unsigned int
doca_pcc_dev_thread_rank(void)
{
	return pcc_dev_thread_rank();
}

/**
 * Optional user callback: a host request (pcc host mailbox).  Fill
 * response (at most max_response_size bytes), set *response_size.
 */
doca_pcc_dev_error_t doca_pcc_dev_user_mailbox_handle(void *request, uint32_t request_size,
		uint32_t max_response_size, void *response, uint32_t *response_size)
		__attribute__((weak));

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PCC_DEV_SERVICES_H_ */
