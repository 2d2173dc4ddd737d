/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_DEV_H_
#define DOCA_PCC_DEV_H_

/**
 * @file
 * dpdk-pcc's DOCA PCC compatibility: the reaction point (RP) device API.
 *
 * Including this header gives the whole RP API (events, algorithm access,
 * utilities, services), so any include order of DOCA's device headers
 * works.  The application provides the callbacks declared below; the glue
 * in pcc_doca_compat turns them into lib/dev algorithms:
 *
 *   doca_pcc_dev_user_init        once, when the plug-in is loaded
 *   doca_pcc_dev_user_algo        on_event of every algorithm it described
 *   doca_pcc_dev_user_set_algo_params   set_params (after the range check)
 *   doca_pcc_dev_user_mailbox_handle    mailbox (optional)
 *   doca_pcc_dev_user_port_info_changed port_info_changed (optional)
 *   doca_pcc_dev_user_declare_memory    declare_memory (optional)
 *
 * Write the event through nothing: it is read-only here (lib/dev passes it
 * const; DOCA's prototypes are kept for source compatibility).
 */

#include <stdint.h>

#include "doca_pcc_dev_common.h"
#include "doca_pcc_dev_data_structures.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One event of one flow.  algo_ctxt: the flow's 48-byte context (zeroed
 * for a new flow); attr->algo_slot: the flow's slot; results: zeroed, to
 * be filled (rate, rtt_req).
 */
void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
		const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results);

/**
 * Once at load: describe the algorithms (doca_pcc_dev_algo_init_*), map
 * slots (doca_pcc_dev_init_algo_slot), and set *disable_event_bitmask
 * (bit 1 << event type) for events never to be delivered.
 */
void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask);

/**
 * New values for parameters param_id_base .. param_id_base + param_num -
 * 1 of (port_num, algo_slot), already within their [min, max].  params
 * points at the first of them in a working copy; assign the accepted
 * values there (values left untouched are assigned by the glue) and
 * return OK, or return FAIL to change nothing.
 */
doca_pcc_dev_error_t doca_pcc_dev_user_set_algo_params(uint32_t port_num, uint32_t algo_slot,
		uint32_t param_id_base, uint32_t param_num, const uint32_t *new_param_values,
		uint32_t *params);

/**
 * Run the engine's default algorithm (the one at slot 0xF of the event's
 * port) on this flow.  When that is not possible (none, or it is this
 * plug-in's, or its context is larger than 48 bytes) the results are left
 * zero: the flow keeps its rate.
 */
void doca_pcc_dev_default_internal_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt,
		doca_pcc_dev_event_t *event, const doca_pcc_dev_attr_t *attr,
		doca_pcc_dev_results_t *results);

/**
 * From doca_pcc_dev_user_algo(): the custom header of this flow's probes
 * from its next probe on: header_size bytes (<= 64) of header, as they lie
 * in memory, written at the start of the probe slot's custom header area
 * (its size and location are the host's: pcc_host_set_probe custom_len,
 * custom_offset; bytes beyond that size are not sent).  size 0 goes back
 * to the slot's pattern.  FAIL outside user_algo or above 64 bytes.
 * wait_completed changes nothing: the header is set before the call's
 * results are applied.
 */
doca_pcc_dev_error_t doca_pcc_dev_custom_header_set(doca_pcc_dev_algo_ctxt_t *algo_ctxt,
		doca_pcc_dev_event_t *event, uint32_t *header, uint32_t header_size,
		uint32_t wait_completed);

/**
 * From doca_pcc_dev_user_algo(): the priority of this flow's probes, as
 * the IP DSCP (0..63) of every probe it sends from now on; use_custom_prio
 * 0 goes back to the flow's own DSCP.  FAIL outside user_algo or for a
 * priority above 63.
 */
doca_pcc_dev_error_t doca_pcc_dev_probe_prio_set(doca_pcc_dev_algo_ctxt_t *algo_ctxt,
		doca_pcc_dev_event_t *event, uint32_t use_custom_prio, uint32_t prio,
		uint32_t wait_completed);

/** DSCP of the event's flow (its data packets' IP DSCP). */
FORCE_INLINE uint32_t
doca_pcc_dev_get_dscp(const doca_pcc_dev_event_t *event)
{
	return event->dscp;
}

#ifdef __cplusplus
}
#endif

#include "doca_pcc_dev_event.h"
#include "doca_pcc_dev_algo_access.h"
#include "doca_pcc_dev_utils.h"
#include "doca_pcc_dev_services.h"

#endif /* DOCA_PCC_DEV_H_ */
