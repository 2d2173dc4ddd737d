/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * libmango plug-ins for test_mango_plugin.c, one source built once per
 * loader check (PLUG_* below), linked with the glue (pcc_mango_plugin).
 * The good one: a window-style algorithm (halve on CNPs, else add
 * `step`), a per-QP call count in its parameters, and the handle calls a
 * plug-in cannot make, whose status it logs.
 */

#include <stdlib.h>
#include <string.h>

#include <libmango.h>

struct plug_params {
	uint32_t step;
	uint32_t calls;
};

static __attribute__((unused)) void *
plug_init_params(size_t *size)
{
	struct plug_params *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return NULL;
	p->step = 500;
	*size = sizeof(*p);
#ifdef PLUG_BIGPARAMS
	*size = MANGO_PCC_PARAMS_SIZE_MAX + 1;
#endif
#ifdef PLUG_NULLPARAMS
	free(p);
	*size = 8;
	return NULL;
#endif
	return p;
}

static __attribute__((unused)) void
plug_destroy_params(void *params)
{
	mango_pcc_log(MANGO_LOG_LEVEL_WARNING, "plug: parameters destroyed");
	free(params);
}

static __attribute__((unused)) void
plug_algo(void *params)
{
	struct plug_params *p = params;
	unsigned int w = mango_pcc_window_current();
	mango_pcc_h h = NULL;

	if (p->calls++ == 0)
		mango_pcc_log(MANGO_LOG_LEVEL_WARNING, "plug: handle call gave %d",
				(int)mango_pcc_create("roce0", &h));
	mango_pcc_window_update(mango_pcc_event_cnp_cnt() > 0 ? w / 2 : w + p->step);
}

#ifndef PLUG_NOOBJ
const mango_pcc_algo_plugin_t mango_pcc_algo_plugin = {
#ifdef PLUG_BADNAME
	.name = "Bad-Name",
#else
	.name = "mango_plug",
#endif
	.desc = "a test plug-in",
	.init_params = plug_init_params,
	.destroy_params = plug_destroy_params,
#ifndef PLUG_NOFN
	.algo_fn = plug_algo,
#endif
	.algo_event_fn = NULL,
#ifdef PLUG_BADMETRICS
	.required_metrics = 0x80,
#else
	.required_metrics = 0,
#endif
};
#endif
