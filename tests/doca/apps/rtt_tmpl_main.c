/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * rtt_tmpl's DOCA entry points: memory declaration, initialisation (one
 * algorithm in slot 0 of every port, a printf and a trace record), the
 * dispatch by slot, parameter changes, port information (speed, NIC TX
 * byte counters) and a mailbox that reports them.
 */

#include <doca_pcc_dev.h>
#include <doca_pcc_dev_algo_access.h>
#include <doca_pcc_dev_event.h>
#include <doca_pcc_dev_services.h>

#include "rtt_tmpl.h"

#define TRACE_INIT 0
#define MBOX_INFO 1
#define MBOX_NIC_TX 2

static uint32_t port_info_calls;
static uint32_t port_speed_gbps[DOCA_PCC_DEV_MAX_NUM_PORTS];
static uint32_t tx_counter_ids[DOCA_PCC_DEV_MAX_NUM_PORTS];
static uint32_t tx_bytes[DOCA_PCC_DEV_MAX_NUM_PORTS];

void
doca_pcc_dev_user_declare_memory(void)
{
	uint32_t port;

	doca_pcc_dev_declare_algo(RTT_TMPL_ALGO_IDX, RTT_TMPL_PARAM_NUM, RTT_TMPL_COUNTER_NUM);
	for (port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++)
		doca_pcc_dev_declare_slot_algo(port, RTT_TMPL_SLOT, RTT_TMPL_ALGO_IDX);
	doca_pcc_dev_declare_num_counter_groups(2);
	doca_pcc_dev_declare_num_of_histograms(0);
	doca_pcc_dev_declare_threads_per_counter_set(1);
}

void
doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
	uint32_t port;

	rtt_tmpl_init(RTT_TMPL_ALGO_IDX);
	for (port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++) {
		doca_pcc_dev_init_algo_slot(port, RTT_TMPL_SLOT, RTT_TMPL_ALGO_IDX, 1);
		tx_counter_ids[port] = DOCA_PCC_DEV_GET_PORT_COUNTER_ID(
				port, DOCA_PCC_DEV_NIC_COUNTER_TYPE_TX_BYTES, 0);
	}
	/* every event: the probe bookkeeping runs on all of them */
	*disable_event_bitmask = 0;
	doca_pcc_dev_trace_5(TRACE_INIT, RTT_TMPL_ID, RTT_TMPL_PARAM_NUM, RTT_TMPL_COUNTER_NUM,
			RTT_TMPL_SLOT, 0);
	doca_pcc_dev_printf("rtt_tmpl: algorithm 0x%x in slot %u, %u parameters, %u counters\n",
			RTT_TMPL_ID, RTT_TMPL_SLOT, RTT_TMPL_PARAM_NUM, RTT_TMPL_COUNTER_NUM);
	doca_pcc_dev_trace_flush();
}

void
doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
		const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
	uint32_t port = doca_pcc_dev_get_ev_attr(event).port_num;
	uint32_t *param = doca_pcc_dev_get_algo_params(port, attr->algo_slot);
	uint32_t *counter = doca_pcc_dev_get_counters(port, attr->algo_slot);

	switch (attr->algo_slot) {
	case RTT_TMPL_SLOT:
		rtt_tmpl_algo(event, param, counter, algo_ctxt, results);
		break;
	default:
		doca_pcc_dev_default_internal_algo(algo_ctxt, event, attr, results);
		break;
	}
}

doca_pcc_dev_error_t
doca_pcc_dev_user_set_algo_params(uint32_t port_num, uint32_t algo_slot, uint32_t param_id_base,
		uint32_t param_num, const uint32_t *new_param_values, uint32_t *params)
{
	if (algo_slot != RTT_TMPL_SLOT ||
			doca_pcc_dev_get_algo_index(port_num, algo_slot) != RTT_TMPL_ALGO_IDX)
		return DOCA_PCC_DEV_STATUS_FAIL;
	return rtt_tmpl_set_algo_params(param_id_base, param_num, new_param_values, params);
}

/* At start for every port and on every link change: the speed and the
 * TX byte counters of the ports there are. */
void
doca_pcc_dev_user_port_info_changed(uint32_t portid)
{
	uint32_t ports = doca_pcc_dev_fls(doca_pcc_dev_get_logical_ports());

	port_info_calls++;
	if (portid < DOCA_PCC_DEV_MAX_NUM_PORTS)
		port_speed_gbps[portid] = doca_pcc_dev_get_port_speed(portid);
	doca_pcc_dev_nic_counters_config(tx_counter_ids, ports, tx_bytes);
	doca_pcc_dev_printf("rtt_tmpl: port %u info: %u Gb/s\n", portid,
			doca_pcc_dev_get_port_speed(portid));
}

/*
 * Request: a 32-bit operation.  MBOX_INFO: algorithm id, port_info calls,
 * port 0's speed (Gb/s), logical ports.  MBOX_NIC_TX: port 0's TX bytes.
 */
doca_pcc_dev_error_t
doca_pcc_dev_user_mailbox_handle(void *request, uint32_t request_size, uint32_t max_response_size,
		void *response, uint32_t *response_size)
{
	uint32_t *out = response;

	if (request_size < sizeof(uint32_t) || max_response_size < 4 * sizeof(uint32_t))
		return DOCA_PCC_DEV_STATUS_FAIL;
	switch (*(const uint32_t *)request) {
	case MBOX_INFO:
		out[0] = RTT_TMPL_ID;
		out[1] = port_info_calls;
		out[2] = port_speed_gbps[0];
		out[3] = doca_pcc_dev_get_logical_ports();
		*response_size = 4 * sizeof(uint32_t);
		return DOCA_PCC_DEV_STATUS_OK;
	case MBOX_NIC_TX:
		doca_pcc_dev_nic_counters_sample();
		out[0] = tx_bytes[0];
		*response_size = sizeof(uint32_t);
		return DOCA_PCC_DEV_STATUS_OK;
	default:
		return DOCA_PCC_DEV_STATUS_FAIL;
	}
}
