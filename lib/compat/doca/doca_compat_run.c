/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * DOCA calls an algorithm makes while it runs: its parameters and
 * counters, the algorithm of a slot, the default algorithm, per-flow probe
 * settings, printf and NIC counters.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "doca_compat_internal.h"

static uint32_t doca_zero_params[PCC_DEV_MAX_PARAMS];
static __thread uint32_t doca_scratch_counters[PCC_DEV_MAX_COUNTERS];

/* NIC counters: DOCA's configuration is process-wide, lib/dev's per thread. */
static uint32_t *doca_nic_ids;
static uint32_t *doca_nic_values;
static uint32_t doca_nic_n;
static uint32_t doca_nic_gen;
static __thread uint32_t doca_nic_tls_gen;

/* ---- Run-time access -------------------------------------------------------------- */

doca_pcc_dev_error_t
doca_pcc_dev_set_slot_counter_group(
		uint32_t port_num, uint32_t algo_slot, uint32_t counter_group_id)
{
	uint8_t slot;

	if (port_num >= PCC_DEV_MAX_PORTS || !doca_rp_slot(algo_slot, &slot) ||
			counter_group_id >= DOCA_PCC_DEV_MAX_NUM_COUNTER_GROUP)
		return DOCA_PCC_DEV_STATUS_FAIL;
	return pcc_dev_counters_enable((uint8_t)port_num, slot, true) == 0 ?
			DOCA_PCC_DEV_STATUS_OK :
			DOCA_PCC_DEV_STATUS_FAIL;
}

uint32_t *
doca_pcc_dev_get_algo_params(uint32_t port_num, uint32_t algo_slot)
{
	uint32_t *p = NULL;
	uint8_t slot;

	if (port_num < PCC_DEV_MAX_PORTS && doca_rp_slot(algo_slot, &slot))
		p = pcc_dev_params((uint8_t)port_num, slot);
	return p != NULL ? p : doca_zero_params;
}

uint32_t
doca_pcc_dev_get_algo_params_num(uint32_t port_num, uint32_t algo_slot)
{
	const struct pcc_dev_algo_ops *ops = NULL;
	uint8_t slot;

	if (port_num < PCC_DEV_MAX_PORTS && doca_rp_slot(algo_slot, &slot))
		ops = pcc_dev_slot_algo((uint8_t)port_num, slot, NULL);
	return ops != NULL ? ops->n_params : 0;
}

uint32_t *
doca_pcc_dev_get_counters(uint32_t port_num, uint32_t algo_slot)
{
	uint32_t *c = NULL;
	uint8_t slot;

	if (port_num < PCC_DEV_MAX_PORTS && doca_rp_slot(algo_slot, &slot))
		c = pcc_dev_counters((uint8_t)port_num, slot);
	return c != NULL ? c : doca_scratch_counters;
}

uint32_t
doca_pcc_dev_get_counters_num(uint32_t port_num, uint32_t algo_slot)
{
	const struct pcc_dev_algo_ops *ops = NULL;
	uint8_t slot;

	if (port_num < PCC_DEV_MAX_PORTS && doca_rp_slot(algo_slot, &slot))
		ops = pcc_dev_slot_algo((uint8_t)port_num, slot, NULL);
	return ops != NULL ? ops->n_counters : 0;
}

uint32_t
doca_pcc_dev_get_algo_index(uint32_t port_num, uint32_t algo_slot)
{
	const struct pcc_dev_algo_ops *ops = NULL;
	uint32_t i;
	uint8_t slot;

	if (port_num < PCC_DEV_MAX_PORTS && doca_rp_slot(algo_slot, &slot))
		ops = pcc_dev_slot_algo((uint8_t)port_num, slot, NULL);
	for (i = 0; ops != NULL && i < PCC_DEV_MAX_ALGOS; i++)
		if (doca_algos[i].registered && ops == &doca_algos[i].ops)
			return i;
	return DOCA_PCC_DEV_ALGO_INDEX_INTERNAL;
}

void
doca_pcc_dev_default_internal_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
		const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
	const struct pcc_dev_algo_ops *ops;
	struct pcc_dev_results res;
	struct pcc_dev_attr pa;

	RTE_SET_USED(attr);
	if (event->port >= PCC_DEV_MAX_PORTS)
		return;
	ops = pcc_dev_slot_algo(event->port, PCC_DEV_INTERNAL_SLOT, NULL);
	if (ops == NULL || ops->on_event == doca_op_on_event || ops->ctx_size > PCC_DEV_CTX_SIZE)
		return;
	memset(&pa, 0, sizeof(pa));
	memset(&res, 0, sizeof(res));
	pa.algo_slot = PCC_DEV_INTERNAL_SLOT;
	pa.algo_idx = PCC_DEV_INTERNAL_SLOT;
	pa.port = event->port;
	pa.overload = attr != NULL ? attr->overload : 0;
	ops->on_event(algo_ctxt, event, &pa, &res);
	results->rate = res.rate;
	results->rtt_req = res.rtt_req;
	results->probe_type_slot = res.probe_slot;
	/* lib/dev's window is DOCA's credits; extra credits are a reload */
	results->credits = res.window;
	results->reload_credits = res.window != 0 && res.credits != 0;
}

/* A per-flow call: only from doca_pcc_dev_user_algo(), for its own flow. */
static bool
doca_flow_call(const char *what)
{
	if (!doca_cur.in_algo) {
		DOCA_LOG(ERR, "%s: only from doca_pcc_dev_user_algo() (FAIL)", what);
		return false;
	}
	return true;
}

doca_pcc_dev_error_t
doca_pcc_dev_custom_header_set(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
		uint32_t *header, uint32_t header_size, uint32_t wait_completed)
{
	RTE_SET_USED(algo_ctxt);
	RTE_SET_USED(event);
	/* applied before this flow's next probe: waiting changes nothing */
	RTE_SET_USED(wait_completed);
	if (!doca_flow_call(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	if ((header == NULL && header_size != 0) || header_size > PCC_DEV_PROBE_CUSTOM_MAX) {
		DOCA_LOG(ERR, "%s: %u bytes (at most %u)", __func__, header_size,
				PCC_DEV_PROBE_CUSTOM_MAX);
		return DOCA_PCC_DEV_STATUS_FAIL;
	}
	if (header_size > 0)
		memcpy(doca_cur.custom, header, header_size);
	doca_cur.custom_len = (uint8_t)header_size;
	doca_cur.res_flags |= PCC_DEV_RES_F_PROBE_CUSTOM;
	return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t
doca_pcc_dev_probe_prio_set(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
		uint32_t use_custom_prio, uint32_t prio, uint32_t wait_completed)
{
	RTE_SET_USED(algo_ctxt);
	RTE_SET_USED(event);
	RTE_SET_USED(wait_completed);
	if (!doca_flow_call(__func__))
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (use_custom_prio != 0 && prio > 63) {
		DOCA_LOG(ERR, "%s: priority %u, a DSCP 0..63", __func__, prio);
		return DOCA_PCC_DEV_STATUS_FAIL;
	}
	doca_cur.res_flags &= (uint8_t) ~(PCC_DEV_RES_F_PROBE_DSCP | PCC_DEV_RES_F_PROBE_DSCP_OFF);
	if (use_custom_prio != 0) {
		doca_cur.res_flags |= PCC_DEV_RES_F_PROBE_DSCP;
		doca_cur.probe_dscp = (uint8_t)prio;
	} else {
		doca_cur.res_flags |= PCC_DEV_RES_F_PROBE_DSCP_OFF;
	}
	return DOCA_PCC_DEV_STATUS_OK;
}

/* ---- Services --------------------------------------------------------------------- */

void
doca_pcc_dev_printf(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	pcc_dev_vprintf(format, ap);
	va_end(ap);
}

void
doca_pcc_dev_nic_counters_config(uint32_t *counter_ids, uint32_t num_counters, uint32_t *values)
{
	int rc;

	if (num_counters > PCC_DEV_NIC_COUNTERS_MAX ||
			(num_counters > 0 && (counter_ids == NULL || values == NULL))) {
		DOCA_LOG(ERR, "%s: %u counters (<= %u) or NULL arrays: ignored", __func__,
				num_counters, PCC_DEV_NIC_COUNTERS_MAX);
		return;
	}
	doca_nic_ids = counter_ids;
	doca_nic_values = values;
	doca_nic_n = num_counters;
	doca_nic_tls_gen = __atomic_add_fetch(&doca_nic_gen, 1, __ATOMIC_RELEASE);
	rc = pcc_dev_nic_counters_config(counter_ids, num_counters, values);
	if (rc < 0)
		DOCA_LOG(ERR, "%s: %s", __func__, strerror(-rc));
}

void
doca_pcc_dev_nic_counters_sample(void)
{
	uint32_t gen = __atomic_load_n(&doca_nic_gen, __ATOMIC_ACQUIRE);

	if (gen == 0)
		return;
	if (doca_nic_tls_gen != gen) {
		/* first sample on this thread since the configuration */
		if (pcc_dev_nic_counters_config(doca_nic_ids, doca_nic_n, doca_nic_values) < 0)
			return;
		doca_nic_tls_gen = gen;
	}
	pcc_dev_nic_counters_sample();
}

void
doca_nic_reset(void)
{
	doca_nic_ids = NULL;
	doca_nic_values = NULL;
	doca_nic_n = 0;
	doca_nic_gen = 0;
}
