/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A reaction point algorithm written the DOCA PCC way, against the DOCA
 * device API only (no dpdk-pcc header): doca_pcc_dev_user_init() describes
 * one algorithm with parameters, counters and a histogram and maps slot 0
 * of every port to it; doca_pcc_dev_user_algo() switches on the event
 * type; doca_pcc_dev_user_set_algo_params() validates; the optional
 * mailbox and port-info callbacks are implemented too.  tests/doca/
 * test_doca.c loads it as a dpdk-pcc plug-in and checks its numbers.
 *
 * Behaviour (RTT-template-like):
 *   first event of a flow   rate = NEW_FLOW_RATE, request a probe
 *   CNP                     rate *= 1 - 2 UF
 *   NACK (out of sequence)  rate *= 1 - 5 UF
 *   RTT, NP hint bit set    rate *= 1 - 4 UF
 *   RTT, rtt - min > BASE   rate *= 1 - UF
 *   RTT, otherwise          rate += AI
 *   then clamp to [MIN_RATE, line rate]; RTT events request the next probe.
 * rtt = (now - request sent) - (NP response sent - NP request received).
 */

#include <doca_pcc_dev.h>
#include <doca_pcc_dev_event.h>
#include <doca_pcc_dev_algo_access.h>
#include <doca_pcc_dev_utils.h>
#include <doca_pcc_dev_services.h>

#define ALGO_IDX 0
#define ALGO_SLOT 0
#define ALGO_ID 0xD0CA
#define FXP_ONE (1u << 16)

#define DISABLED_EVENTS \
	((1u << DOCA_PCC_DEV_EVNT_ROCE_ACK) | (1u << DOCA_PCC_DEV_EVNT_ROCE_TX_FOR_ACK_NACK))

enum {
	P_UPDATE_FACTOR,
	P_AI,
	P_BASE_RTT,
	P_NEW_FLOW_RATE,
	P_MIN_RATE,
	P_NUM,
};

enum {
	C_TX,
	C_RTT,
	C_CNP,
	C_NACK,
	C_HINT,
	C_MAX_RTT,
	C_NUM,
};

/* trace format ids */
#define TRACE_INIT 1
#define TRACE_CNP 7

/* mailbox operations */
#define MBOX_INFO 1
#define MBOX_NIC_SAMPLE 2

static const char algo_desc[] = "DOCA-style test algorithm v1.2";
static const char p_uf_desc[] = "UPDATE_FACTOR, multiplicative decrease unit (fxp16)";
static const char p_ai_desc[] = "AI, additive increase (fraction of line rate)";
static const char p_base_desc[] = "BASE_RTT, rtt above the minimum that decreases (ns)";
static const char p_nfr_desc[] = "NEW_FLOW_RATE, rate of a new flow";
static const char p_min_desc[] = "MIN_RATE, lowest rate";
static const char c_tx_desc[] = "TX_EVENTS, TX events handled";
static const char c_rtt_desc[] = "RTT_EVENTS, RTT samples";
static const char c_cnp_desc[] = "CNP_EVENTS, CNPs";
static const char c_nack_desc[] = "NACK_EVENTS, NACKs";
static const char c_hint_desc[] = "NP_HINTS, RTT responses with the NP congestion bit";
static const char c_max_desc[] = "MAX_RTT, largest RTT sample (ns)";

/* Histogram of RTT samples on port 0: 8 bins of 5 us. */
static doca_pcc_dev_histogram_t rtt_hist;
static const uint32_t rtt_edges[9] = { 0, 5000, 10000, 15000, 20000, 25000, 30000, 35000, 40000 };

/* Port information kept for the mailbox. */
static uint32_t port_info_calls;
static uint32_t port_speed_gbps;
static uint32_t nic_counter_ids[1];
static uint32_t nic_counter_values[1];

typedef struct {
	uint32_t rate;
	uint32_t min_rtt;
	uint8_t init;
	uint8_t reserved[3];
	uint32_t unused[9];
} flow_ctx_t;

_Static_assert(sizeof(flow_ctx_t) == sizeof(doca_pcc_dev_algo_ctxt_t), "context size");

static uint32_t
be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint32_t
dec(uint32_t rate, uint32_t times, const uint32_t *param)
{
	return doca_pcc_dev_fxp_mult(rate, FXP_ONE - times * param[P_UPDATE_FACTOR]);
}

static void
handle_rtt(doca_pcc_dev_event_t *event, const uint32_t *param, uint32_t *counter, flow_ctx_t *ctx)
{
	uint32_t t1 = doca_pcc_dev_get_rtt_req_send_timestamp(event);
	uint32_t t2 = doca_pcc_dev_get_rtt_req_recv_timestamp(event);
	uint32_t t3 = doca_pcc_dev_get_rtt_resp_send_timestamp(event);
	uint32_t t4 = doca_pcc_dev_get_timestamp(event);
	unsigned char *np = doca_pcc_dev_get_rtt_raw_data(event);
	uint32_t rtt = (t4 - t1) - (t3 - t2);

	counter[C_RTT]++;
	if (rtt > counter[C_MAX_RTT])
		counter[C_MAX_RTT] = rtt;
	doca_pcc_dev_histogram_update(rtt_hist, rtt);
	if (ctx->min_rtt == 0 || rtt < ctx->min_rtt)
		ctx->min_rtt = rtt;
	if (doca_pcc_dev_get_rtt_raw_data_size(event) >= 4 && (be32(np) & 1u) != 0) {
		counter[C_HINT]++;
		ctx->rate = dec(ctx->rate, 4, param);
	} else if (rtt - ctx->min_rtt > param[P_BASE_RTT]) {
		ctx->rate = dec(ctx->rate, 1, param);
	} else {
		ctx->rate += param[P_AI];
	}
}

static void
test_algo(doca_pcc_dev_event_t *event, const uint32_t *param, uint32_t *counter,
		doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_results_t *results)
{
	flow_ctx_t *ctx = (flow_ctx_t *)algo_ctxt;
	doca_pcc_dev_event_general_attr_t ev_attr = doca_pcc_dev_get_ev_attr(event);

	if (!ctx->init) {
		uint32_t hdr[2] = { doca_pcc_dev_get_flow_qpn(event), 0xC0FFEE00u };

		ctx->init = 1;
		ctx->rate = param[P_NEW_FLOW_RATE];
		results->rate = ctx->rate;
		results->rtt_req = 1;
		/* the flow's probes: its own custom header */
		doca_pcc_dev_custom_header_set(algo_ctxt, event, hdr, sizeof(hdr), 1);
		return;
	}
	switch (ev_attr.ev_type) {
	case DOCA_PCC_DEV_EVNT_ROCE_TX:
		counter[C_TX]++;
		break;
	case DOCA_PCC_DEV_EVNT_ROCE_CNP:
		counter[C_CNP]++;
		ctx->rate = dec(ctx->rate, 2, param);
		/* congested: its probes at a higher priority */
		doca_pcc_dev_probe_prio_set(algo_ctxt, event, 1, 46, 0);
		doca_pcc_dev_trace_5(TRACE_CNP, doca_pcc_dev_get_flowtag(event), ctx->rate,
				doca_pcc_dev_get_roce_ack_first_sn(event),
				doca_pcc_dev_get_ack_nack_cnp_extra(event).num_coalesced,
				doca_pcc_dev_thread_rank());
		break;
	case DOCA_PCC_DEV_EVNT_ROCE_NACK:
		counter[C_NACK]++;
		doca_pcc_dev_probe_prio_set(algo_ctxt, event, 0, 0, 0);
		if (ev_attr.ev_subtype == DOCA_PCC_DEV_NACK_EVNT_OOS)
			ctx->rate = dec(ctx->rate, 5, param);
		doca_pcc_dev_printf("nack flow %u sn %u subtype %u\n",
				doca_pcc_dev_get_flowtag(event), doca_pcc_dev_get_sn(event),
				(unsigned int)ev_attr.ev_subtype);
		break;
	case DOCA_PCC_DEV_EVNT_RTT:
		handle_rtt(event, param, counter, ctx);
		results->rtt_req = 1;
		break;
	default:
		break;
	}
	if (ctx->rate > DOCA_PCC_DEV_MAX_RATE)
		ctx->rate = DOCA_PCC_DEV_MAX_RATE;
	if (ctx->rate < param[P_MIN_RATE])
		ctx->rate = param[P_MIN_RATE];
	results->rate = ctx->rate;
}

void
doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
		const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
	uint32_t port_num = doca_pcc_dev_get_ev_attr(event).port_num;
	uint32_t *param = doca_pcc_dev_get_algo_params(port_num, attr->algo_slot);
	uint32_t *counter = doca_pcc_dev_get_counters(port_num, attr->algo_slot);

	switch (attr->algo_slot) {
	case ALGO_SLOT:
		test_algo(event, param, counter, algo_ctxt, results);
		break;
	default:
		doca_pcc_dev_default_internal_algo(algo_ctxt, event, attr, results);
		break;
	}
}

static void
init_param(uint32_t id, uint32_t def, uint32_t max, uint32_t min, const char *desc, uint32_t size)
{
	doca_pcc_dev_algo_init_param(ALGO_IDX, id, def, max, min, 1, size, (uint64_t)desc);
}

static void
init_counter(uint32_t id, const char *desc, uint32_t size)
{
	/* 2, as DOCA's own samples pass for counters */
	doca_pcc_dev_algo_init_counter(ALGO_IDX, id, UINT32_MAX, 2, size, (uint64_t)desc);
}

void
doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
	struct doca_pcc_dev_algo_meta_data algo_def = { 0 };
	uint32_t hist_ids[1] = { 0 };

	algo_def.algo_id = ALGO_ID;
	algo_def.algo_major_version = 1;
	algo_def.algo_minor_version = 2;
	algo_def.algo_desc_size = sizeof(algo_desc);
	algo_def.algo_desc_addr = (uint64_t)algo_desc;
	doca_pcc_dev_algo_init_metadata(ALGO_IDX, &algo_def, P_NUM, C_NUM);

	init_param(P_UPDATE_FACTOR, 6553, 16383, 1, p_uf_desc, sizeof(p_uf_desc));
	init_param(P_AI, 52428, DOCA_PCC_DEV_MAX_RATE, 1, p_ai_desc, sizeof(p_ai_desc));
	init_param(P_BASE_RTT, 13000, UINT32_MAX, 0, p_base_desc, sizeof(p_base_desc));
	init_param(P_NEW_FLOW_RATE, DOCA_PCC_DEV_MAX_RATE, DOCA_PCC_DEV_MAX_RATE, 1, p_nfr_desc,
			sizeof(p_nfr_desc));
	init_param(P_MIN_RATE, 64, DOCA_PCC_DEV_MAX_RATE, 1, p_min_desc, sizeof(p_min_desc));

	init_counter(C_TX, c_tx_desc, sizeof(c_tx_desc));
	init_counter(C_RTT, c_rtt_desc, sizeof(c_rtt_desc));
	init_counter(C_CNP, c_cnp_desc, sizeof(c_cnp_desc));
	init_counter(C_NACK, c_nack_desc, sizeof(c_nack_desc));
	init_counter(C_HINT, c_hint_desc, sizeof(c_hint_desc));
	init_counter(C_MAX_RTT, c_max_desc, sizeof(c_max_desc));
	doca_pcc_dev_set_counter_type(ALGO_IDX, C_MAX_RTT, DOCA_PCC_DEV_COUNTER_TYPE_MAX);

	doca_pcc_dev_histogram_init(0, DOCA_PCC_DEV_TARGET_APP_RP, 1, 0, rtt_edges, 8,
			DOCA_PCC_DEV_HISTOGRAM_MODE_LINEAR, "RTT samples, ns", &rtt_hist);
	doca_pcc_dev_histogram_enable(rtt_hist);
	doca_pcc_dev_algo_register_hist_ids(ALGO_IDX, hist_ids, 1);

	for (uint32_t port_num = 0; port_num < DOCA_PCC_DEV_MAX_NUM_PORTS; port_num++)
		doca_pcc_dev_init_algo_slot(port_num, ALGO_SLOT, ALGO_IDX, 1);

	*disable_event_bitmask = DISABLED_EVENTS;
	doca_pcc_dev_trace_5(TRACE_INIT, ALGO_ID, P_NUM, C_NUM, DISABLED_EVENTS, 0);
	doca_pcc_dev_printf("doca test algorithm 0x%x: %u parameters\n", ALGO_ID, P_NUM);
}

doca_pcc_dev_error_t
doca_pcc_dev_user_set_algo_params(uint32_t port_num, uint32_t algo_slot, uint32_t param_id_base,
		uint32_t param_num, const uint32_t *new_param_values, uint32_t *params)
{
	uint32_t i;

	if (algo_slot != ALGO_SLOT || doca_pcc_dev_get_algo_index(port_num, algo_slot) != ALGO_IDX)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (param_id_base >= P_NUM || param_num > P_NUM - param_id_base)
		return DOCA_PCC_DEV_STATUS_FAIL;
	for (i = 0; i < param_num; i++) {
		/* 1 - 5 UF must stay positive */
		if (param_id_base + i == P_UPDATE_FACTOR && 5 * new_param_values[i] >= FXP_ONE)
			return DOCA_PCC_DEV_STATUS_FAIL;
	}
	for (i = 0; i < param_num; i++)
		params[i] = new_param_values[i];
	return DOCA_PCC_DEV_STATUS_OK;
}

void
doca_pcc_dev_user_port_info_changed(uint32_t portid)
{
	port_info_calls++;
	port_speed_gbps = doca_pcc_dev_get_port_speed(portid);
	nic_counter_ids[0] = DOCA_PCC_DEV_GET_PORT_COUNTER_ID(
			portid, DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES, 0);
	doca_pcc_dev_nic_counters_config(nic_counter_ids, 1, nic_counter_values);
}

doca_pcc_dev_error_t
doca_pcc_dev_user_mailbox_handle(void *request, uint32_t request_size, uint32_t max_response_size,
		void *response, uint32_t *response_size)
{
	uint32_t op, *out = response;

	if (request_size < sizeof(op) || max_response_size < 3 * sizeof(uint32_t))
		return DOCA_PCC_DEV_STATUS_FAIL;
	op = *(const uint32_t *)request;
	switch (op) {
	case MBOX_INFO:
		out[0] = ALGO_ID;
		out[1] = port_info_calls;
		out[2] = port_speed_gbps;
		*response_size = 3 * sizeof(uint32_t);
		return DOCA_PCC_DEV_STATUS_OK;
	case MBOX_NIC_SAMPLE:
		doca_pcc_dev_nic_counters_sample();
		out[0] = nic_counter_values[0];
		*response_size = sizeof(uint32_t);
		return DOCA_PCC_DEV_STATUS_OK;
	default:
		return DOCA_PCC_DEV_STATUS_FAIL;
	}
}
