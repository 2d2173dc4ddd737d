/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * first_algo: the smallest useful congestion control algorithm, built out
 * of tree as a dpdk-pcc plug-in (doc/algorithms.md, "Plug-ins").
 *
 * A new flow starts at line rate.  Every TX event adds AI to the rate
 * (additive increase); every CNP multiplies it by MD (multiplicative
 * decrease); the rate never goes below MIN_RATE nor above line rate.
 * Rates are 20-bit fixed point fractions of line rate (1 << 20 = line
 * rate); MD is 16-bit fixed point (65536 = 1.0).
 */

#include <stdint.h>

#include <pcc_dev.h>
#include <pcc_dev_fxp.h>
#include <pcc_dev_plugin.h>

/* Exports the ABI version and names the plug-in "first_algo". */
PCC_PLUGIN_DECLARE(first_algo);

enum {
	P_AI,
	P_MD,
	P_MIN_RATE,
	P_NUM
};
enum {
	C_CNP,
	C_INC,
	C_NUM
};

static const struct pcc_dev_param_desc params[P_NUM] = {
	{ P_AI, "AI", 10486, 0, PCC_DEV_MAX_RATE, PCC_DEV_PERM_RW,
			"additive increase per TX event (10486 = 1% of line rate)" },
	{ P_MD, "MD", 32768, 1, 65535, PCC_DEV_PERM_RW,
			"multiplicative decrease per CNP, 16-bit fixed point (32768 = 0.5)" },
	{ P_MIN_RATE, "MIN_RATE", 1024, 1, PCC_DEV_MAX_RATE, PCC_DEV_PERM_RW,
			"lowest rate (1024 = 0.1% of line rate)" },
};

static const struct pcc_dev_counter_desc counters[C_NUM] = {
	{ C_CNP, "cnp", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW, "CNPs received" },
	{ C_INC, "increases", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"additive increases" },
};

/* Per-flow state: at most PCC_DEV_CTX_SIZE (48) bytes, zeroed for a new flow. */
struct flow {
	uint32_t rate; /* 0: the flow has not been seen yet */
};

static void
first_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	const uint32_t *p = pcc_dev_params(attr->port, attr->algo_slot);
	struct flow *f = ctx;

	if (p == NULL)
		return; /* results stay zero: the flow keeps its rate */
	if (f->rate == 0)
		f->rate = PCC_DEV_MAX_RATE;
	switch (ev->type) {
	case PCC_DEV_EVENT_CNP:
		f->rate = pcc_dev_fxp_mult(f->rate, p[P_MD]);
		pcc_dev_counter_add(attr->port, attr->algo_slot, C_CNP, 1);
		break;
	case PCC_DEV_EVENT_TX:
		f->rate += p[P_AI];
		pcc_dev_counter_add(attr->port, attr->algo_slot, C_INC, 1);
		break;
	default:
		break;
	}
	if (f->rate > PCC_DEV_MAX_RATE)
		f->rate = PCC_DEV_MAX_RATE;
	if (f->rate < p[P_MIN_RATE])
		f->rate = p[P_MIN_RATE];
	res->rate = f->rate;
}

/* Only CNP and TX events matter: mask the others. */
static int
first_init(uint8_t port, uint8_t slot, uint32_t *disable_mask)
{
	(void)port;
	(void)slot;
	*disable_mask = ~(
			PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_CNP) | PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_TX));
	return 0;
}

static const struct pcc_dev_algo_ops first_algo_ops = {
	.name = "first_algo",
	.id = 0x7001,
	.major = 1,
	.minor = 0,
	.desc = "AIMD: +AI per TX event, x MD per CNP",
	.params = params,
	.n_params = P_NUM,
	.counters = counters,
	.n_counters = C_NUM,
	.init = first_init,
	.on_event = first_on_event,
};

/* The entry point the loader calls: registers first_algo_ops. */
PCC_PLUGIN_ALGOS(&first_algo_ops)
