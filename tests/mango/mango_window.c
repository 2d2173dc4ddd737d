/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A libmango algorithm plug-in (event-style): halve the window in an
 * interval with CNPs, take an eighth off when the RTT is above target,
 * else add a step shared by the active QPs; an RTT probe every fourth
 * interval.  Built out of tree with pkg-config pcc-mango-plugin by
 * tests/dts/suites/test_mango.py and loaded by dpdk-pcc --plugin; the
 * algorithm is "mango_window".
 */

#include <stdlib.h>
#include <string.h>

#include <libmango.h>

struct win_params {
	uint32_t min_window;    /* bytes */
	uint32_t max_window;    /* bytes */
	uint32_t step;          /* bytes per interval, shared by the QPs */
	uint32_t target_rtt_ns; /* above it the window shrinks */
	uint32_t calls;         /* this QP's calls */
};

static void *
win_init_params(size_t *param_size)
{
	struct win_params *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return NULL;
	p->min_window = 2048;
	p->max_window = 1u << 20;
	p->step = 8192;
	p->target_rtt_ns = 50000;
	*param_size = sizeof(*p);
	return p;
}

static void
win_destroy_params(void *params)
{
	free(params);
}

static mango_pcc_result_t
win_event(void *params, const mango_pcc_context_t *ctx)
{
	struct win_params *p = params;
	uint32_t w = ctx->current_window;
	mango_pcc_result_t r;

	memset(&r, 0, sizeof(r));
	if (ctx->cnp_delta > 0)
		w /= 2;
	else if (ctx->rtt_updated && ctx->latest_rtt_ns > p->target_rtt_ns)
		w -= w / 8;
	else
		w += p->step / (ctx->active_qp_count > 0 ? ctx->active_qp_count : 1);
	if (w < p->min_window)
		w = p->min_window;
	if (w > p->max_window)
		w = p->max_window;
	r.new_window = w;
	r.request_rtt_probe = p->calls % 4 == 0;
	if (p->calls++ == 0)
		mango_pcc_log(MANGO_LOG_LEVEL_INFO,
				"mango_window: first call: window %u, %u active QPs",
				ctx->current_window, ctx->active_qp_count);
	return r;
}

const mango_pcc_algo_plugin_t mango_pcc_algo_plugin = {
	.name = "mango_window",
	.desc = "window AIMD on CNPs and RTT (a libmango plug-in)",
	.init_params = win_init_params,
	.destroy_params = win_destroy_params,
	.algo_fn = NULL,
	.algo_event_fn = win_event,
	.required_metrics = MANGO_PCC_METRIC_CNP | MANGO_PCC_METRIC_RTT,
};
