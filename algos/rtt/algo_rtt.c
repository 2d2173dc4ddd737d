/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * rtt: the behaviour of DOCA PCC's default "RTT template" algorithm (id
 * 0xBFFF, v0.1), the engine's default in slot 0xF.
 *
 * Per flow it keeps the rate, the smallest RTT seen and whether a CNP or a
 * NACK arrived since the last RTT sample.  An RTT probe is requested on a
 * flow's first event and again on every answer; an unanswered probe is
 * re-requested after 300 us << retries.  On each RTT sample:
 *
 *   NACK seen and rtt >= MAX_DELAY   rate *= 1 - 5 * UPDATE_FACTOR
 *   CNP seen or rtt >= MAX_DELAY     rate *= 1 - 2 * UPDATE_FACTOR
 *   rtt - min_rtt > BASE_RELATIVE_RTT rate *= 1 - UPDATE_FACTOR
 *   otherwise                        rate += AI
 *
 * then clamp to [MIN_RATE, line rate].  Parameter names are DOCA's.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pcc_dev.h>

#include "algo_common.h"
#include "pcc_algos.h"

enum {
	RTT_P_UPDATE_FACTOR,
	RTT_P_AI,
	RTT_P_BASE_RELATIVE_RTT,
	RTT_P_NEW_FLOW_RATE,
	RTT_P_MIN_RATE,
	RTT_P_MAX_DELAY,
	RTT_P_NUM,
};

static const struct pcc_dev_param_desc rtt_params[RTT_P_NUM] = {
	{ RTT_P_UPDATE_FACTOR, "UPDATE_FACTOR", 6553, 0, 13107, PCC_DEV_PERM_RW,
			"multiplicative decrease unit, 16-bit fixed point (6553 = 0.1)" },
	{ RTT_P_AI, "AI", 52428, 0, PCC_DEV_MAX_RATE, PCC_DEV_PERM_RW,
			"additive increase, 20-bit fixed point of line rate (52428 = 5%)" },
	{ RTT_P_BASE_RELATIVE_RTT, "BASE_RELATIVE_RTT", 13000, 0, UINT32_MAX, PCC_DEV_PERM_RW,
			"rtt - min_rtt above this (ns) decreases by UPDATE_FACTOR" },
	{ RTT_P_NEW_FLOW_RATE, "NEW_FLOW_RATE", PCC_DEV_MAX_RATE, 1, PCC_DEV_MAX_RATE,
			PCC_DEV_PERM_RW, "rate of a new flow, 20-bit fixed point of line rate" },
	{ RTT_P_MIN_RATE, "MIN_RATE", 64, 1, PCC_DEV_MAX_RATE, PCC_DEV_PERM_RW,
			"lowest rate, 20-bit fixed point of line rate" },
	{ RTT_P_MAX_DELAY, "MAX_DELAY", 150000, 0, UINT32_MAX, PCC_DEV_PERM_RW,
			"rtt (ns) at or above which the flow is congested" },
};

enum {
	RTT_C_RTT_EVENTS,
	RTT_C_CNP_EVENTS,
	RTT_C_NACK_EVENTS,
	RTT_C_DEC_NACK,
	RTT_C_DEC_CNP,
	RTT_C_DEC_RTT,
	RTT_C_INC,
	RTT_C_PROBE_RETRIES,
	RTT_C_RTT_MAX,
	RTT_C_NUM,
};

static const uint8_t rtt_units[RTT_C_NUM] = {
	[RTT_C_RTT_MAX] = PCC_DEV_UNIT_NS,
};

static const struct pcc_dev_counter_desc rtt_counters[RTT_C_NUM] = {
	{ RTT_C_RTT_EVENTS, "rtt_events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"RTT samples" },
	{ RTT_C_CNP_EVENTS, "cnp_events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"CNP events" },
	{ RTT_C_NACK_EVENTS, "nack_events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"NACK events" },
	{ RTT_C_DEC_NACK, "dec_nack", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"decreases by 5 UPDATE_FACTOR (NACK and MAX_DELAY)" },
	{ RTT_C_DEC_CNP, "dec_cnp", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"decreases by 2 UPDATE_FACTOR (CNP or MAX_DELAY)" },
	{ RTT_C_DEC_RTT, "dec_rtt", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"decreases by UPDATE_FACTOR (rtt - min_rtt > BASE_RELATIVE_RTT)" },
	{ RTT_C_INC, "inc", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW, "additive increases" },
	{ RTT_C_PROBE_RETRIES, "probe_retries", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"RTT probes re-requested after a timeout" },
	{ RTT_C_RTT_MAX, "rtt_max_ns", 0, PCC_DEV_COUNTER_MAX, PCC_DEV_PERM_RW,
			"largest RTT sample, ns" },
};

/* Per-flow state: fits DOCA's 48-byte context. */
struct rtt_ctx {
	uint32_t rate;    /**< 20-bit fixed point of line rate */
	uint32_t min_rtt; /**< ns; valid with RTT_F_MIN */
	struct algo_probe probe;
	uint8_t flags;
	uint8_t pad[3];
};

#define RTT_F_INIT 0x01
#define RTT_F_CNP 0x02  /* CNP since the last RTT sample */
#define RTT_F_NACK 0x04 /* NACK since the last RTT sample */
#define RTT_F_MIN 0x08  /* min_rtt valid */

#define RTT_CTX_SIZE PCC_DEV_CTX_SIZE
_Static_assert(sizeof(struct rtt_ctx) <= RTT_CTX_SIZE, "rtt context too large");

/* Derived configuration per (port, slot). */
struct rtt_cfg {
	uint32_t valid;
	uint32_t f_dec5; /**< 1 - 5 UF, 16-bit fixed point */
	uint32_t f_dec2; /**< 1 - 2 UF */
	uint32_t f_dec1; /**< 1 - UF */
	uint32_t ai;
	uint32_t base_rtt;
	uint32_t new_rate;
	uint32_t min_rate;
	uint32_t max_delay;
};

static void
rtt_cfg_compute(struct rtt_cfg *c, uint8_t port, const uint32_t *p)
{
	(void)port;
	uint32_t uf = p[RTT_P_UPDATE_FACTOR];

	c->f_dec5 = 5 * uf < PCC_DEV_FXP16_ONE ? PCC_DEV_FXP16_ONE - 5 * uf : 0;
	c->f_dec2 = PCC_DEV_FXP16_ONE - 2 * uf;
	c->f_dec1 = PCC_DEV_FXP16_ONE - uf;
	c->ai = p[RTT_P_AI];
	c->base_rtt = p[RTT_P_BASE_RELATIVE_RTT];
	c->new_rate = p[RTT_P_NEW_FLOW_RATE];
	c->min_rate = p[RTT_P_MIN_RATE];
	c->max_delay = p[RTT_P_MAX_DELAY];
	__atomic_store_n(&c->valid, 1, __ATOMIC_RELEASE);
}

ALGO_CFG_CACHE(rtt, RTT_P_NUM, algo_params_ok)

static void
rtt_on_rtt(struct rtt_ctx *f, const struct rtt_cfg *c, const struct pcc_dev_event *ev,
		struct algo_cnt *k)
{
	uint32_t rtt = algo_rtt_sample(ev);
	uint64_t rate = f->rate;
	uint32_t cid;

	if (!(f->flags & RTT_F_MIN) || rtt < f->min_rtt) {
		f->min_rtt = rtt;
		f->flags |= RTT_F_MIN;
	}
	if ((f->flags & RTT_F_NACK) && rtt >= c->max_delay) {
		rate = pcc_dev_fxp_mult(f->rate, c->f_dec5);
		cid = RTT_C_DEC_NACK;
	} else if ((f->flags & RTT_F_CNP) || rtt >= c->max_delay) {
		rate = pcc_dev_fxp_mult(f->rate, c->f_dec2);
		cid = RTT_C_DEC_CNP;
	} else if (rtt - f->min_rtt > c->base_rtt) {
		rate = pcc_dev_fxp_mult(f->rate, c->f_dec1);
		cid = RTT_C_DEC_RTT;
	} else {
		rate += c->ai;
		cid = RTT_C_INC;
	}
	f->rate = algo_rate_clamp(rate, c->min_rate);
	f->flags &= (uint8_t) ~(RTT_F_CNP | RTT_F_NACK);
	algo_cnt_add(k, cid, 1);
	algo_cnt_add(k, RTT_C_RTT_EVENTS, 1);
	algo_cnt_max(k, RTT_C_RTT_MAX, rtt);
}

static void
rtt_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	struct rtt_ctx *f = ctx;
	const struct rtt_cfg *c = rtt_cfg_get(attr->port, attr->algo_slot);
	struct algo_cnt k = ALGO_CNT_INIT(attr);

	if (ALGO_UNLIKELY(!(f->flags & RTT_F_INIT))) {
		f->rate = algo_rate_clamp(c->new_rate, c->min_rate);
		f->flags = RTT_F_INIT;
		algo_probe_request(&f->probe, ev->ts, res);
	}
	switch (ev->type) {
	case PCC_DEV_EVENT_RTT:
		rtt_on_rtt(f, c, ev, &k);
		algo_probe_on_rtt(&f->probe, ev, res);
		break;
	case PCC_DEV_EVENT_CNP:
		f->flags |= RTT_F_CNP;
		algo_cnt_add(&k, RTT_C_CNP_EVENTS, 1);
		break;
	case PCC_DEV_EVENT_NACK:
		f->flags |= RTT_F_NACK;
		algo_cnt_add(&k, RTT_C_NACK_EVENTS, 1);
		break;
	default:
		break;
	}
	if (ev->type != PCC_DEV_EVENT_RTT && algo_probe_tick(&f->probe, ev, res))
		algo_cnt_add(&k, RTT_C_PROBE_RETRIES, 1);
	res->rate = f->rate;
}

ALGO_MAILBOX(rtt)

const struct pcc_dev_algo_ops pcc_algo_rtt_ops = {
	.name = "rtt",
	.id = PCC_ALGO_RTT_ID,
	.major = 0,
	.minor = 1,
	.desc = "DOCA RTT template: rate from RTT probes, CNP and NACK",
	.ctx_size = RTT_CTX_SIZE,
	.params = rtt_params,
	.n_params = RTT_P_NUM,
	.counters = rtt_counters,
	.n_counters = RTT_C_NUM,
	.counter_units = rtt_units,
	.init = rtt_init,
	.on_event = rtt_on_event,
	.mailbox = rtt_mailbox,
	.set_params = rtt_set_params,
	.port_info_changed = rtt_port_info_changed,
};
