/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef RTT_TMPL_H_
#define RTT_TMPL_H_

/*
 * rtt_tmpl: an RTT-template-style reaction point written against DOCA
 * PCC's device API, with the equations of dpdk-pcc's built-in "rtt"
 * (algos/rtt/algo_rtt.c, doc/algorithms.md) so that both give the same
 * simulator run.  Per flow: the rate, the smallest RTT, CNP/NACK seen
 * since the last sample and the outstanding probe.
 */

#include <stdint.h>

#include <doca_pcc_dev.h>
#include <doca_pcc_dev_algo_access.h>
#include <doca_pcc_dev_event.h>

#include "tmpl_util.h"

#define RTT_TMPL_ALGO_IDX 0
#define RTT_TMPL_SLOT 0
#define RTT_TMPL_ID 0xB0F1

enum {
	RTT_TMPL_UPDATE_FACTOR,
	RTT_TMPL_AI,
	RTT_TMPL_BASE_RELATIVE_RTT,
	RTT_TMPL_NEW_FLOW_RATE,
	RTT_TMPL_MIN_RATE,
	RTT_TMPL_MAX_DELAY,
	RTT_TMPL_PARAM_NUM
};

enum {
	RTT_TMPL_C_RTT,
	RTT_TMPL_C_CNP,
	RTT_TMPL_C_NACK,
	RTT_TMPL_C_DEC_NACK,
	RTT_TMPL_C_DEC_CNP,
	RTT_TMPL_C_DEC_RTT,
	RTT_TMPL_C_INC,
	RTT_TMPL_C_RETRIES,
	RTT_TMPL_C_RTT_MAX,
	RTT_TMPL_C_HDR_ECHO, /* answers that echoed this flow's custom header */
	RTT_TMPL_COUNTER_NUM
};

/* Flow context: DOCA's 48 bytes. */
typedef struct {
	uint32_t rate;
	uint32_t min_rtt;
	uint32_t probe_ts;     /* outstanding probe: requested or sent */
	uint32_t probe_req_ts; /* outstanding probe: requested */
	uint8_t probe_out;
	uint8_t retries;
	uint8_t flags;
	uint8_t reserved0;
	uint32_t reserved[7];
} rtt_tmpl_ctxt_t;

#define RTT_TMPL_F_INIT 0x01
#define RTT_TMPL_F_CNP 0x02
#define RTT_TMPL_F_NACK 0x04
#define RTT_TMPL_F_MIN 0x08

/* What echo_np answers (tests/doca/apps/echo_np.c): the request's first
 * four custom header bytes, then this magic. */
#define ECHO_NP_MAGIC 0xEC40C0DEu

void rtt_tmpl_init(uint32_t algo_idx);
void rtt_tmpl_algo(doca_pcc_dev_event_t *event, uint32_t *param, uint32_t *counter,
		doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_results_t *results);
doca_pcc_dev_error_t rtt_tmpl_set_algo_params(uint32_t param_id_base, uint32_t param_num,
		const uint32_t *new_param_values, uint32_t *params);

#endif /* RTT_TMPL_H_ */
