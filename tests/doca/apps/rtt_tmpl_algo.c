/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * rtt_tmpl's algorithm (DOCA device API only).  An RTT probe is requested
 * on a flow's first event and again on every answer; an unanswered probe
 * is requested again after 300 us << retries.  On each RTT sample:
 *
 *   NACK seen and rtt >= MAX_DELAY     rate *= 1 - 5 UPDATE_FACTOR
 *   CNP seen or rtt >= MAX_DELAY       rate *= 1 - 2 UPDATE_FACTOR
 *   rtt - min_rtt > BASE_RELATIVE_RTT  rate *= 1 - UPDATE_FACTOR
 *   otherwise                          rate += AI
 *
 * then clamp to [MIN_RATE, line rate].  The first event also gives the
 * flow's probes a custom header (its QPN), which echo_np answers with.
 */

#include <string.h>

#include "rtt_tmpl.h"

#define FXP16_ONE (1u << 16)
#define PROBE_TIMEOUT_NS 300000u
#define PROBE_MAX_SHIFT 13

static const char algo_desc[] = "rtt_tmpl: DOCA RTT template, dpdk-pcc rtt equations";
static const volatile char uf_desc[] = "UPDATE_FACTOR, multiplicative decrease unit (fxp16)";
static const volatile char ai_desc[] = "AI, additive increase (fxp20 of line rate)";
static const volatile char base_desc[] = "BASE_RELATIVE_RTT, rtt - min_rtt that decreases (ns)";
static const volatile char nfr_desc[] = "NEW_FLOW_RATE, rate of a new flow (fxp20)";
static const volatile char min_desc[] = "MIN_RATE, lowest rate (fxp20)";
static const volatile char delay_desc[] = "MAX_DELAY, rtt at which the flow is congested (ns)";
static const volatile char c_rtt_desc[] = "RTT_EVENTS, RTT samples";
static const volatile char c_cnp_desc[] = "CNP_EVENTS, CNPs";
static const volatile char c_nack_desc[] = "NACK_EVENTS, NACKs";
static const volatile char c_dnack_desc[] = "DEC_NACK, decreases by 5 UPDATE_FACTOR";
static const volatile char c_dcnp_desc[] = "DEC_CNP, decreases by 2 UPDATE_FACTOR";
static const volatile char c_drtt_desc[] = "DEC_RTT, decreases by UPDATE_FACTOR";
static const volatile char c_inc_desc[] = "INC, additive increases";
static const volatile char c_retry_desc[] = "PROBE_RETRIES, probes requested again";
static const volatile char c_max_desc[] = "RTT_MAX, largest RTT sample (ns)";
static const volatile char c_echo_desc[] = "HDR_ECHO, answers that echoed the custom header";

static void
param(uint32_t idx, uint32_t id, uint32_t def, uint32_t max, uint32_t min, const volatile char *d,
		uint32_t size)
{
	doca_pcc_dev_algo_init_param(idx, id, def, max, min, 1, size, (uint64_t)d);
}

static void
counter(uint32_t idx, uint32_t id, const volatile char *d, uint32_t size)
{
	/* 2, as DOCA's samples pass for counters */
	doca_pcc_dev_algo_init_counter(idx, id, UINT32_MAX, 2, size, (uint64_t)d);
}

void
rtt_tmpl_init(uint32_t algo_idx)
{
	struct doca_pcc_dev_algo_meta_data def = { 0 };

	def.algo_id = RTT_TMPL_ID;
	def.algo_major_version = 0;
	def.algo_minor_version = 1;
	def.algo_desc_size = sizeof(algo_desc);
	def.algo_desc_addr = (uint64_t)algo_desc;
	doca_pcc_dev_algo_init_metadata(algo_idx, &def, RTT_TMPL_PARAM_NUM, RTT_TMPL_COUNTER_NUM);

	param(algo_idx, RTT_TMPL_UPDATE_FACTOR, 6553, 13107, 0, uf_desc, sizeof(uf_desc));
	param(algo_idx, RTT_TMPL_AI, 52428, DOCA_PCC_DEV_MAX_RATE, 0, ai_desc, sizeof(ai_desc));
	param(algo_idx, RTT_TMPL_BASE_RELATIVE_RTT, 13000, UINT32_MAX, 0, base_desc,
			sizeof(base_desc));
	param(algo_idx, RTT_TMPL_NEW_FLOW_RATE, DOCA_PCC_DEV_MAX_RATE, DOCA_PCC_DEV_MAX_RATE, 1,
			nfr_desc, sizeof(nfr_desc));
	param(algo_idx, RTT_TMPL_MIN_RATE, 64, DOCA_PCC_DEV_MAX_RATE, 1, min_desc,
			sizeof(min_desc));
	param(algo_idx, RTT_TMPL_MAX_DELAY, 150000, UINT32_MAX, 0, delay_desc, sizeof(delay_desc));

	counter(algo_idx, RTT_TMPL_C_RTT, c_rtt_desc, sizeof(c_rtt_desc));
	counter(algo_idx, RTT_TMPL_C_CNP, c_cnp_desc, sizeof(c_cnp_desc));
	counter(algo_idx, RTT_TMPL_C_NACK, c_nack_desc, sizeof(c_nack_desc));
	counter(algo_idx, RTT_TMPL_C_DEC_NACK, c_dnack_desc, sizeof(c_dnack_desc));
	counter(algo_idx, RTT_TMPL_C_DEC_CNP, c_dcnp_desc, sizeof(c_dcnp_desc));
	counter(algo_idx, RTT_TMPL_C_DEC_RTT, c_drtt_desc, sizeof(c_drtt_desc));
	counter(algo_idx, RTT_TMPL_C_INC, c_inc_desc, sizeof(c_inc_desc));
	counter(algo_idx, RTT_TMPL_C_RETRIES, c_retry_desc, sizeof(c_retry_desc));
	counter(algo_idx, RTT_TMPL_C_RTT_MAX, c_max_desc, sizeof(c_max_desc));
	counter(algo_idx, RTT_TMPL_C_HDR_ECHO, c_echo_desc, sizeof(c_echo_desc));
	doca_pcc_dev_set_counter_type(algo_idx, RTT_TMPL_C_RTT_MAX, DOCA_PCC_DEV_COUNTER_TYPE_MAX);
}

FORCE_INLINE void
probe_request(rtt_tmpl_ctxt_t *c, uint32_t ts, doca_pcc_dev_results_t *results)
{
	results->rtt_req = 1;
	c->probe_out = 1;
	c->probe_ts = ts;
	c->probe_req_ts = ts;
}

/* Every event but RTT: the probe left (restart its clock), or it is late. */
FORCE_INLINE int
probe_tick(rtt_tmpl_ctxt_t *c, doca_pcc_dev_event_t *event, doca_pcc_dev_results_t *results)
{
	doca_pcc_dev_event_general_attr_t attr = doca_pcc_dev_get_ev_attr(event);
	uint32_t ts = doca_pcc_dev_get_timestamp(event);
	uint32_t shift;

	if (!c->probe_out)
		return 0;
	if (attr.ev_type == DOCA_PCC_DEV_EVNT_ROCE_TX &&
			(attr.flags & DOCA_PCC_DEV_TX_FLAG_RTT_REQ_SENT)) {
		c->probe_ts = ts;
		return 0;
	}
	shift = c->retries < PROBE_MAX_SHIFT ? c->retries : PROBE_MAX_SHIFT;
	if (tmpl_elapsed32(ts, c->probe_ts) < (PROBE_TIMEOUT_NS << shift))
		return 0;
	if (c->retries < UINT8_MAX)
		c->retries++;
	probe_request(c, ts, results);
	return 1;
}

/* An answer: the next probe, unless a retry superseded the probe it answers. */
FORCE_INLINE void
probe_answered(rtt_tmpl_ctxt_t *c, doca_pcc_dev_event_t *event, doca_pcc_dev_results_t *results)
{
	uint32_t sent = doca_pcc_dev_get_rtt_req_send_timestamp(event);

	if (c->probe_out && (int32_t)(sent - c->probe_req_ts) < 0)
		return;
	c->probe_out = 0;
	c->retries = 0;
	probe_request(c, doca_pcc_dev_get_timestamp(event), results);
}

/* Network RTT: total minus the NP's turnaround when that is smaller. */
FORCE_INLINE uint32_t
rtt_sample(doca_pcc_dev_event_t *event)
{
	uint32_t total = tmpl_elapsed32(doca_pcc_dev_get_timestamp(event),
			doca_pcc_dev_get_rtt_req_send_timestamp(event));
	uint32_t np = tmpl_elapsed32(doca_pcc_dev_get_rtt_resp_send_timestamp(event),
			doca_pcc_dev_get_rtt_req_recv_timestamp(event));

	return np < total ? total - np : total;
}

static void
on_rtt(rtt_tmpl_ctxt_t *c, doca_pcc_dev_event_t *event, const uint32_t *p, uint32_t *counter)
{
	uint32_t uf = p[RTT_TMPL_UPDATE_FACTOR];
	uint32_t rtt = rtt_sample(event);
	const unsigned char *raw = doca_pcc_dev_get_rtt_raw_data(event);
	uint32_t qpn = doca_pcc_dev_get_flow_qpn(event);
	uint64_t rate = c->rate;

	if (!(c->flags & RTT_TMPL_F_MIN) || rtt < c->min_rtt) {
		c->min_rtt = rtt;
		c->flags |= RTT_TMPL_F_MIN;
	}
	if ((c->flags & RTT_TMPL_F_NACK) && rtt >= p[RTT_TMPL_MAX_DELAY]) {
		rate = doca_pcc_dev_fxp_mult(c->rate, 5 * uf < FXP16_ONE ? FXP16_ONE - 5 * uf : 0);
		counter[RTT_TMPL_C_DEC_NACK]++;
	} else if ((c->flags & RTT_TMPL_F_CNP) || rtt >= p[RTT_TMPL_MAX_DELAY]) {
		rate = doca_pcc_dev_fxp_mult(c->rate, FXP16_ONE - 2 * uf);
		counter[RTT_TMPL_C_DEC_CNP]++;
	} else if (rtt - c->min_rtt > p[RTT_TMPL_BASE_RELATIVE_RTT]) {
		rate = doca_pcc_dev_fxp_mult(c->rate, FXP16_ONE - uf);
		counter[RTT_TMPL_C_DEC_RTT]++;
	} else {
		rate += p[RTT_TMPL_AI];
		counter[RTT_TMPL_C_INC]++;
	}
	c->rate = tmpl_rate_clamp(rate, p[RTT_TMPL_MIN_RATE]);
	c->flags &= (uint8_t) ~(RTT_TMPL_F_CNP | RTT_TMPL_F_NACK);
	counter[RTT_TMPL_C_RTT]++;
	if (rtt > counter[RTT_TMPL_C_RTT_MAX])
		counter[RTT_TMPL_C_RTT_MAX] = rtt;
	if (doca_pcc_dev_get_rtt_raw_data_size(event) >= 8 && tmpl_be32(raw + 4) == ECHO_NP_MAGIC &&
			memcmp(raw, &qpn, sizeof(qpn)) == 0)
		counter[RTT_TMPL_C_HDR_ECHO]++;
}

void
rtt_tmpl_algo(doca_pcc_dev_event_t *event, uint32_t *param, uint32_t *counter,
		doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_results_t *results)
{
	rtt_tmpl_ctxt_t *c = (rtt_tmpl_ctxt_t *)algo_ctxt;
	uint32_t ev_type = doca_pcc_dev_get_ev_attr(event).ev_type;
	uint32_t ts = doca_pcc_dev_get_timestamp(event);

	if (unlikely(!(c->flags & RTT_TMPL_F_INIT))) {
		uint32_t hdr = doca_pcc_dev_get_flow_qpn(event);

		c->rate = tmpl_rate_clamp(param[RTT_TMPL_NEW_FLOW_RATE], param[RTT_TMPL_MIN_RATE]);
		c->flags = RTT_TMPL_F_INIT;
		probe_request(c, ts, results);
		/* this flow's probes carry its QPN in their custom header */
		doca_pcc_dev_custom_header_set(algo_ctxt, event, &hdr, sizeof(hdr), 0);
	}
	switch (ev_type) {
	case DOCA_PCC_DEV_EVNT_RTT:
		on_rtt(c, event, param, counter);
		probe_answered(c, event, results);
		break;
	case DOCA_PCC_DEV_EVNT_ROCE_CNP:
		c->flags |= RTT_TMPL_F_CNP;
		counter[RTT_TMPL_C_CNP]++;
		break;
	case DOCA_PCC_DEV_EVNT_ROCE_NACK:
		c->flags |= RTT_TMPL_F_NACK;
		counter[RTT_TMPL_C_NACK]++;
		break;
	default:
		break;
	}
	if (ev_type != DOCA_PCC_DEV_EVNT_RTT && probe_tick(c, event, results))
		counter[RTT_TMPL_C_RETRIES]++;
	results->rate = c->rate;
}

doca_pcc_dev_error_t
rtt_tmpl_set_algo_params(uint32_t param_id_base, uint32_t param_num,
		const uint32_t *new_param_values, uint32_t *params)
{
	uint32_t i;

	if (param_id_base >= RTT_TMPL_PARAM_NUM || param_num > RTT_TMPL_PARAM_NUM - param_id_base ||
			new_param_values == NULL || params == NULL)
		return DOCA_PCC_DEV_STATUS_FAIL;
	for (i = 0; i < param_num; i++)
		params[i] = new_param_values[i];
	return DOCA_PCC_DEV_STATUS_OK;
}
