/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * telem_rp: a switch-telemetry reaction point (DOCA device API only), the
 * partner of telem_np.  Its flows probe with IFA2 (the host's probe
 * format); every answer with valid telemetry (telem.h) gives the most
 * congested hop's queue and its egress TX rate:
 *
 *   queue > BASE_QLEN bytes          rate *= 1 - UPDATE_FACTOR
 *   TX rate < 80 % of the port speed rate += HAI
 *   otherwise                        rate += AI
 *
 * then clamp to [MIN_RATE, line rate].  An answer without telemetry keeps
 * the rate.  Probes as rtt_tmpl: one outstanding, requested again after
 * 300 us << retries.
 */

#include <doca_pcc_dev.h>
#include <doca_pcc_dev_algo_access.h>
#include <doca_pcc_dev_event.h>
#include <doca_pcc_dev_services.h>

#include "telem.h"

#define ALGO_IDX 0
#define ALGO_SLOT 0
#define ALGO_ID 0xB1E1
#define FXP16_ONE (1u << 16)
#define UTIL_LOW ((FXP16_ONE * 8u) / 10u)
#define PROBE_TIMEOUT_NS 300000u

enum {
	P_UPDATE_FACTOR,
	P_AI,
	P_HAI,
	P_BASE_QLEN,
	P_NEW_FLOW_RATE,
	P_MIN_RATE,
	P_NUM
};

enum {
	C_RTT,
	C_VALID,
	C_DEC_QLEN,
	C_INC_HAI,
	C_INC_AI,
	C_RETRIES,
	C_QLEN_MAX,
	C_NUM
};

typedef struct {
	uint32_t rate;
	uint32_t probe_ts;
	uint8_t probe_out;
	uint8_t retries;
	uint8_t init;
	uint8_t reserved0;
	uint32_t reserved[9];
} telem_ctxt_t;

static const char algo_desc[] = "telem_rp: rate from IFA2 switch telemetry";
static const volatile char d_uf[] = "UPDATE_FACTOR, decrease unit (fxp16)";
static const volatile char d_ai[] = "AI, additive increase (fxp20)";
static const volatile char d_hai[] = "HAI, increase below 80% utilisation (fxp20)";
static const volatile char d_qlen[] = "BASE_QLEN, queue bytes above which to decrease";
static const volatile char d_nfr[] = "NEW_FLOW_RATE, rate of a new flow (fxp20)";
static const volatile char d_min[] = "MIN_RATE, lowest rate (fxp20)";
static const volatile char d_c_rtt[] = "RTT_EVENTS, answers";
static const volatile char d_c_valid[] = "VALID, answers with telemetry";
static const volatile char d_c_dec[] = "DEC_QLEN, decreases for a long queue";
static const volatile char d_c_hai[] = "INC_HAI, increases at low utilisation";
static const volatile char d_c_ai[] = "INC_AI, additive increases";
static const volatile char d_c_retry[] = "PROBE_RETRIES, probes requested again";
static const volatile char d_c_qmax[] = "QLEN_MAX, largest queue reported (bytes)";

static uint32_t port_gbps[DOCA_PCC_DEV_MAX_NUM_PORTS];

static void
describe(void)
{
	doca_pcc_dev_algo_meta_t def = { 0 };

	def.algo_id = ALGO_ID;
	def.algo_minor_version = 1;
	def.algo_desc_size = sizeof(algo_desc);
	def.algo_desc_addr = (uint64_t)algo_desc;
	doca_pcc_dev_algo_init_metadata(ALGO_IDX, &def, P_NUM, C_NUM);
	doca_pcc_dev_algo_init_param(
			ALGO_IDX, P_UPDATE_FACTOR, 6553, 32768, 1, 1, sizeof(d_uf), (uint64_t)d_uf);
	doca_pcc_dev_algo_init_param(ALGO_IDX, P_AI, 5243, DOCA_PCC_DEV_MAX_RATE, 0, 1,
			sizeof(d_ai), (uint64_t)d_ai);
	doca_pcc_dev_algo_init_param(ALGO_IDX, P_HAI, 52428, DOCA_PCC_DEV_MAX_RATE, 0, 1,
			sizeof(d_hai), (uint64_t)d_hai);
	doca_pcc_dev_algo_init_param(ALGO_IDX, P_BASE_QLEN, 50000, UINT32_MAX, 0, 1, sizeof(d_qlen),
			(uint64_t)d_qlen);
	doca_pcc_dev_algo_init_param(ALGO_IDX, P_NEW_FLOW_RATE, DOCA_PCC_DEV_MAX_RATE,
			DOCA_PCC_DEV_MAX_RATE, 1, 1, sizeof(d_nfr), (uint64_t)d_nfr);
	doca_pcc_dev_algo_init_param(ALGO_IDX, P_MIN_RATE, 64, DOCA_PCC_DEV_MAX_RATE, 1, 1,
			sizeof(d_min), (uint64_t)d_min);
	doca_pcc_dev_algo_init_counter(
			ALGO_IDX, C_RTT, UINT32_MAX, 2, sizeof(d_c_rtt), (uint64_t)d_c_rtt);
	doca_pcc_dev_algo_init_counter(
			ALGO_IDX, C_VALID, UINT32_MAX, 2, sizeof(d_c_valid), (uint64_t)d_c_valid);
	doca_pcc_dev_algo_init_counter(
			ALGO_IDX, C_DEC_QLEN, UINT32_MAX, 2, sizeof(d_c_dec), (uint64_t)d_c_dec);
	doca_pcc_dev_algo_init_counter(
			ALGO_IDX, C_INC_HAI, UINT32_MAX, 2, sizeof(d_c_hai), (uint64_t)d_c_hai);
	doca_pcc_dev_algo_init_counter(
			ALGO_IDX, C_INC_AI, UINT32_MAX, 2, sizeof(d_c_ai), (uint64_t)d_c_ai);
	doca_pcc_dev_algo_init_counter(
			ALGO_IDX, C_RETRIES, UINT32_MAX, 2, sizeof(d_c_retry), (uint64_t)d_c_retry);
	doca_pcc_dev_algo_init_counter(
			ALGO_IDX, C_QLEN_MAX, UINT32_MAX, 2, sizeof(d_c_qmax), (uint64_t)d_c_qmax);
	doca_pcc_dev_set_counter_type(ALGO_IDX, C_QLEN_MAX, DOCA_PCC_DEV_COUNTER_TYPE_MAX);
}

void
doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
	uint32_t port;

	describe();
	for (port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++)
		doca_pcc_dev_init_algo_slot(port, ALGO_SLOT, ALGO_IDX, 1);
	/* ACKs tell nothing here */
	*disable_event_bitmask = 1u << DOCA_PCC_DEV_EVNT_ROCE_ACK;
	doca_pcc_dev_printf("telem_rp: algorithm 0x%x in slot %u\n", ALGO_ID, ALGO_SLOT);
}

void
doca_pcc_dev_user_port_info_changed(uint32_t portid)
{
	if (portid < DOCA_PCC_DEV_MAX_NUM_PORTS)
		port_gbps[portid] = doca_pcc_dev_get_port_speed(portid);
}

FORCE_INLINE void
probe(telem_ctxt_t *c, uint32_t ts, doca_pcc_dev_results_t *results)
{
	results->rtt_req = 1;
	c->probe_out = 1;
	c->probe_ts = ts;
}

/* The egress TX rate of the hop as a fxp16 fraction of speed_gbps. */
FORCE_INLINE uint32_t
utilisation(uint32_t bytes, uint32_t ns, uint32_t speed_gbps)
{
	uint64_t u;

	if (ns == 0 || speed_gbps == 0)
		return FXP16_ONE;
	/* bits per ns is Gb/s */
	u = ((uint64_t)bytes * 8u * FXP16_ONE) / ((uint64_t)ns * speed_gbps);
	return u > FXP16_ONE ? FXP16_ONE : (uint32_t)u;
}

static void
on_answer(telem_ctxt_t *c, doca_pcc_dev_event_t *event, const uint32_t *p, uint32_t *counter)
{
	const uint8_t *raw = doca_pcc_dev_get_rtt_raw_data(event);
	uint32_t port = doca_pcc_dev_get_ev_attr(event).port_num;
	uint32_t qbytes, util;
	uint64_t rate = c->rate;

	counter[C_RTT]++;
	if (!(raw[3] & TELEM_F_VALID))
		return;
	counter[C_VALID]++;
	qbytes = tmpl_be16(raw) * TELEM_CELL_BYTES;
	if (qbytes > counter[C_QLEN_MAX])
		counter[C_QLEN_MAX] = qbytes;
	util = utilisation(tmpl_be32(raw + 4), tmpl_be32(raw + 8),
			port < DOCA_PCC_DEV_MAX_NUM_PORTS ? port_gbps[port] : 0);
	if (qbytes > p[P_BASE_QLEN]) {
		rate = doca_pcc_dev_fxp_mult(c->rate, FXP16_ONE - p[P_UPDATE_FACTOR]);
		counter[C_DEC_QLEN]++;
	} else if (util < UTIL_LOW) {
		rate += p[P_HAI];
		counter[C_INC_HAI]++;
	} else {
		rate += p[P_AI];
		counter[C_INC_AI]++;
	}
	c->rate = tmpl_rate_clamp(rate, p[P_MIN_RATE]);
}

static void
telem_algo(doca_pcc_dev_event_t *event, const uint32_t *p, uint32_t *counter, telem_ctxt_t *c,
		doca_pcc_dev_results_t *results)
{
	doca_pcc_dev_event_general_attr_t attr = doca_pcc_dev_get_ev_attr(event);
	uint32_t ts = doca_pcc_dev_get_timestamp(event);

	if (unlikely(!c->init)) {
		c->init = 1;
		c->rate = tmpl_rate_clamp(p[P_NEW_FLOW_RATE], p[P_MIN_RATE]);
		probe(c, ts, results);
	} else if (attr.ev_type == DOCA_PCC_DEV_EVNT_RTT) {
		on_answer(c, event, p, counter);
		c->probe_out = 0;
		c->retries = 0;
		probe(c, ts, results);
	} else if (c->probe_out) {
		if (attr.ev_type == DOCA_PCC_DEV_EVNT_ROCE_TX &&
				(attr.flags & DOCA_PCC_DEV_TX_FLAG_RTT_REQ_SENT)) {
			c->probe_ts = ts;
		} else if (tmpl_elapsed32(ts, c->probe_ts) > PROBE_TIMEOUT_NS
						<< (c->retries < 13 ? c->retries : 13)) {
			c->retries += c->retries < UINT8_MAX;
			counter[C_RETRIES]++;
			probe(c, ts, results);
		}
	}
	results->rate = c->rate;
}

void
doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
		const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
	uint32_t port = doca_pcc_dev_get_ev_attr(event).port_num;
	uint32_t *param = doca_pcc_dev_get_algo_params(port, attr->algo_slot);
	uint32_t *counter = doca_pcc_dev_get_counters(port, attr->algo_slot);

	if (attr->algo_slot == ALGO_SLOT)
		telem_algo(event, param, counter, (telem_ctxt_t *)algo_ctxt, results);
	else
		doca_pcc_dev_default_internal_algo(algo_ctxt, event, attr, results);
}

doca_pcc_dev_error_t
doca_pcc_dev_user_set_algo_params(uint32_t port_num, uint32_t algo_slot, uint32_t param_id_base,
		uint32_t param_num, const uint32_t *new_param_values, uint32_t *params)
{
	uint32_t i;

	if (algo_slot != ALGO_SLOT ||
			doca_pcc_dev_get_algo_index(port_num, algo_slot) != ALGO_IDX ||
			param_id_base >= P_NUM || param_num > P_NUM - param_id_base)
		return DOCA_PCC_DEV_STATUS_FAIL;
	for (i = 0; i < param_num; i++)
		params[i] = new_param_values[i];
	return DOCA_PCC_DEV_STATUS_OK;
}
