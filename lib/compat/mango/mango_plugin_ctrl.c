/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The handle calls inside a plug-in (pcc_mango_plugin): dpdk-pcc owns the
 * devices, the interval (--timer-us) and the threads, so a plug-in's code
 * shared with a libmango program gets MANGO_STATUS_NOT_SUPPORTED and a
 * log line naming the call, not an unresolved symbol at load.
 */

#include "mango_rt.h"

static mango_status_e
refuse(const char *call)
{
	MANGO_LOG(ERR,
			"%s: not in a plug-in: the program that loaded it owns the devices "
			"(doc/compat-mango.md)",
			call);
	return MANGO_STATUS_NOT_SUPPORTED;
}

mango_status_e
mango_pcc_create(const char *roce_dev_name, mango_pcc_h *pcc)
{
	(void)roce_dev_name;
	if (pcc != NULL)
		*pcc = NULL;
	return refuse(__func__);
}

mango_status_e
mango_pcc_destroy(mango_pcc_h pcc)
{
	(void)pcc;
	return refuse(__func__);
}

mango_status_e
mango_pcc_ctrl_config(mango_pcc_h pcc, const mango_pcc_config_t *config)
{
	(void)pcc;
	(void)config;
	return refuse(__func__);
}

mango_status_e
mango_pcc_ctrl_reg_algo(mango_pcc_h pcc, unsigned int slot, mango_pcc_algo_fn *algo,
		const void *initial_params, size_t param_size)
{
	(void)pcc;
	(void)slot;
	(void)algo;
	(void)initial_params;
	(void)param_size;
	return refuse(__func__);
}

mango_status_e
mango_pcc_ctrl_reg_algo_event(mango_pcc_h pcc, unsigned int slot, mango_pcc_algo_event_fn *algo,
		uint32_t required_metrics, const void *initial_params, size_t param_size)
{
	(void)pcc;
	(void)slot;
	(void)algo;
	(void)required_metrics;
	(void)initial_params;
	(void)param_size;
	return refuse(__func__);
}

mango_status_e
mango_pcc_ctrl_unreg_algo(mango_pcc_h pcc, unsigned int slot)
{
	(void)pcc;
	(void)slot;
	return refuse(__func__);
}

mango_status_e
mango_pcc_ctrl_apply_algo(mango_pcc_h pcc, unsigned int slot, const unsigned int *qp_list,
		unsigned int qp_count)
{
	(void)pcc;
	(void)slot;
	(void)qp_list;
	(void)qp_count;
	return refuse(__func__);
}

mango_status_e
mango_pcc_ctrl_run(mango_pcc_h pcc, unsigned int num_threads)
{
	(void)pcc;
	(void)num_threads;
	return refuse(__func__);
}

mango_status_e
mango_pcc_ctrl_stop(mango_pcc_h pcc)
{
	(void)pcc;
	return refuse(__func__);
}

mango_context_h
mango_pcc_get_context(mango_pcc_h pcc)
{
	(void)pcc;
	refuse(__func__);
	return NULL;
}

mango_status_e
mango_pcc_active_qp_list(mango_pcc_h pcc, uint32_t *qp_list, uint32_t *qp_count)
{
	(void)pcc;
	(void)qp_list;
	if (qp_count != NULL)
		*qp_count = 0;
	return refuse(__func__);
}

mango_status_e
mango_pcc_cnp_count_by_qp(mango_pcc_h pcc, uint32_t qp_num, uint64_t *cnp_count)
{
	(void)pcc;
	(void)qp_num;
	(void)cnp_count;
	return refuse(__func__);
}

mango_status_e
mango_pcc_window_current_by_qp(mango_pcc_h pcc, uint32_t qp_num, uint32_t *window_size)
{
	(void)pcc;
	(void)qp_num;
	(void)window_size;
	return refuse(__func__);
}

mango_status_e
mango_pcc_window_count_by_qp(mango_pcc_h pcc, uint32_t qp_num, uint32_t *count)
{
	(void)pcc;
	(void)qp_num;
	(void)count;
	return refuse(__func__);
}

mango_status_e
mango_pcc_param_register(mango_pcc_h pcc, const unsigned int slot, const char *name,
		mango_pcc_param_type_e type, size_t offset)
{
	(void)pcc;
	(void)slot;
	(void)name;
	(void)type;
	(void)offset;
	return refuse(__func__);
}

mango_status_e
mango_pcc_params_register(mango_pcc_h pcc, unsigned int slot, const mango_pcc_param_t *params,
		unsigned int nr_params)
{
	(void)pcc;
	(void)slot;
	(void)params;
	(void)nr_params;
	return refuse(__func__);
}

mango_status_e
mango_pcc_walk_params(mango_pcc_h pcc, const unsigned int slot, mango_pcc_param_walk_fn callback,
		void *user_data, unsigned int mode)
{
	(void)pcc;
	(void)slot;
	(void)callback;
	(void)user_data;
	(void)mode;
	return refuse(__func__);
}
