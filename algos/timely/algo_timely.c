/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * timely: TIMELY (Mittal et al., SIGCOMM 2015), as in the HPCC reference
 * simulator.  RTT samples come from RTT probe events, one outstanding
 * probe per flow (requested on the first event, again on every answer,
 * re-requested after 300 us << retries), so the update runs once per RTT.
 * A flow's first sample only primes prev_rtt.  On every later sample:
 *
 *   diff = (1 - alpha) diff + alpha (rtt - prev_rtt);  g = diff / min_rtt
 *   rtt < t_low          rate += delta (hai_n * delta after hai_thresh steps)
 *   rtt > t_high         rate *= 1 - beta (1 - t_high / rtt)
 *   g <= 0               rate += delta (as above)
 *   otherwise            rate *= max(0, 1 - beta g)
 *
 * clamped to [min_rate, line rate]; a decrease resets the increase steps.
 * New flows start at line rate.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pcc_dev.h>

#include "algo_common.h"
#include "pcc_algos.h"

enum {
	TIMELY_P_LINE_RATE,
	TIMELY_P_MIN_RATE,
	TIMELY_P_T_LOW,
	TIMELY_P_T_HIGH,
	TIMELY_P_BETA,
	TIMELY_P_ALPHA,
	TIMELY_P_MIN_RTT,
	TIMELY_P_DELTA,
	TIMELY_P_HAI_N,
	TIMELY_P_HAI_THRESH,
	TIMELY_P_NUM,
};

static const struct pcc_dev_param_desc timely_params[TIMELY_P_NUM] = {
	{ TIMELY_P_LINE_RATE, "line_rate_gbps", 0, 0, 1600, PCC_DEV_PERM_RW,
			"line rate, Gb/s (0: the port speed, 100 if unknown)" },
	{ TIMELY_P_MIN_RATE, "min_rate_mbps", 100, 1, 1600000, PCC_DEV_PERM_RW,
			"lowest rate, Mb/s" },
	{ TIMELY_P_T_LOW, "t_low_ns", 50000, 0, 100000000, PCC_DEV_PERM_RW,
			"below this RTT (ns) always increase" },
	{ TIMELY_P_T_HIGH, "t_high_ns", 500000, 1, 100000000, PCC_DEV_PERM_RW,
			"above this RTT (ns) decrease by beta (1 - t_high / rtt)" },
	{ TIMELY_P_BETA, "beta", 52429, 0, 65536, PCC_DEV_PERM_RW,
			"multiplicative decrease, 16-bit fixed point (52429 = 0.8)" },
	{ TIMELY_P_ALPHA, "alpha", 57344, 1, 65536, PCC_DEV_PERM_RW,
			"EWMA weight of a new RTT difference, 16-bit fixed point (0.875)" },
	{ TIMELY_P_MIN_RTT, "min_rtt_ns", 20000, 1, 100000000, PCC_DEV_PERM_RW,
			"gradient normalisation, ns" },
	{ TIMELY_P_DELTA, "delta_mbps", 0, 0, 1600000, PCC_DEV_PERM_RW,
			"additive increase, Mb/s (0: 1 Mb/s per Gb/s of line rate: "
			"10 at 10G as the paper, 100 at 100G as the HPCC reference)" },
	{ TIMELY_P_HAI_N, "hai_n", 5, 1, 1000, PCC_DEV_PERM_RW,
			"hyper additive increase multiplier N" },
	{ TIMELY_P_HAI_THRESH, "hai_thresh", 5, 0, 255, PCC_DEV_PERM_RW,
			"consecutive increases before hyper additive increase" },
};

enum {
	TIMELY_C_RTT_EVENTS,
	TIMELY_C_INC_LOW,
	TIMELY_C_DEC_HIGH,
	TIMELY_C_INC_GRAD,
	TIMELY_C_DEC_GRAD,
	TIMELY_C_HAI,
	TIMELY_C_PROBE_RETRIES,
	TIMELY_C_RATE_MIN,
	TIMELY_C_NUM,
};

static const uint8_t timely_units[TIMELY_C_NUM] = {
	[TIMELY_C_RATE_MIN] = PCC_DEV_UNIT_RATE,
};

static const struct pcc_dev_counter_desc timely_counters[TIMELY_C_NUM] = {
	{ TIMELY_C_RTT_EVENTS, "rtt_events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"RTT samples" },
	{ TIMELY_C_INC_LOW, "inc_below_t_low", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"increases with rtt < t_low" },
	{ TIMELY_C_DEC_HIGH, "dec_above_t_high", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"decreases with rtt > t_high" },
	{ TIMELY_C_INC_GRAD, "inc_gradient", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"increases on a non-positive gradient" },
	{ TIMELY_C_DEC_GRAD, "dec_gradient", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"decreases on a positive gradient" },
	{ TIMELY_C_HAI, "hai_steps", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"hyper additive increases" },
	{ TIMELY_C_PROBE_RETRIES, "probe_retries", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"RTT probes re-requested after a timeout" },
	{ TIMELY_C_RATE_MIN, "rate_min", 0, PCC_DEV_COUNTER_MIN, PCC_DEV_PERM_RW,
			"lowest rate set, 20-bit fixed point" },
};

/* Per-flow state: fits DOCA's 48-byte context. */
struct timely_ctx {
	uint32_t rate;     /**< 20-bit fixed point of line rate */
	uint32_t prev_rtt; /**< ns */
	int32_t rtt_diff;  /**< EWMA of RTT differences, ns */
	struct algo_probe probe;
	uint8_t flags;
	uint8_t inc_stage; /**< consecutive increases (saturates) */
	uint8_t pad[2];
};

#define TIMELY_F_INIT 0x01
#define TIMELY_F_PREV 0x02 /* prev_rtt valid */

/* Gradient cap (16-bit fixed point) keeping beta * g within 64 bits. */
#define TIMELY_G_MAX (INT64_C(1) << 40)

#define TIMELY_CTX_SIZE PCC_DEV_CTX_SIZE
_Static_assert(sizeof(struct timely_ctx) <= TIMELY_CTX_SIZE, "timely context too large");

struct timely_cfg {
	uint32_t valid;
	uint32_t min_rate;
	uint32_t t_low;
	uint32_t t_high;
	uint32_t beta;
	uint32_t alpha;
	uint32_t min_rtt;
	uint32_t delta;
	uint32_t hai;
	uint32_t hai_thresh;
};

static void
timely_cfg_compute(struct timely_cfg *c, uint8_t port, const uint32_t *p)
{
	uint32_t line = algo_line_gbps(port, p[TIMELY_P_LINE_RATE]);
	uint64_t hai;

	c->min_rate = pcc_dev_mbps_to_rate(p[TIMELY_P_MIN_RATE], line);
	c->t_low = p[TIMELY_P_T_LOW];
	c->t_high = p[TIMELY_P_T_HIGH];
	c->beta = p[TIMELY_P_BETA];
	c->alpha = p[TIMELY_P_ALPHA];
	c->min_rtt = p[TIMELY_P_MIN_RTT];
	/* the paper's 10 Mb/s is for 10 Gb/s links; the HPCC reference
	 * scales it with the line rate (run.py: 10 * bw / 10 Mb/s) */
	c->delta = pcc_dev_mbps_to_rate(p[TIMELY_P_DELTA] != 0 ? p[TIMELY_P_DELTA] : line, line);
	hai = (uint64_t)c->delta * p[TIMELY_P_HAI_N];
	c->hai = hai > PCC_DEV_MAX_RATE ? PCC_DEV_MAX_RATE : (uint32_t)hai;
	c->hai_thresh = p[TIMELY_P_HAI_THRESH];
	__atomic_store_n(&c->valid, 1, __ATOMIC_RELEASE);
}

/* T_low must stay below T_high. */
static int
timely_params_check(const uint32_t *p)
{
	return p[TIMELY_P_T_LOW] < p[TIMELY_P_T_HIGH] ? 0 : -EINVAL;
}

ALGO_CFG_CACHE(timely, TIMELY_P_NUM, timely_params_check)

static void
timely_on_rtt(struct timely_ctx *f, const struct timely_cfg *c, uint32_t rtt, struct algo_cnt *k)
{
	int64_t diff, g;
	uint64_t rate = f->rate;
	int64_t m = -1; /* multiplicative factor, 16-bit fixed point; < 0: increase */
	uint32_t cid;

	algo_cnt_add(k, TIMELY_C_RTT_EVENTS, 1);
	if (!(f->flags & TIMELY_F_PREV)) {
		f->prev_rtt = rtt;
		f->flags |= TIMELY_F_PREV;
		return;
	}
	diff = ((int64_t)f->rtt_diff * (int64_t)(PCC_DEV_FXP16_ONE - c->alpha) +
			       ((int64_t)rtt - (int64_t)f->prev_rtt) * (int64_t)c->alpha) /
			(int64_t)PCC_DEV_FXP16_ONE;
	if (diff > INT32_MAX)
		diff = INT32_MAX;
	if (diff < INT32_MIN)
		diff = INT32_MIN;
	f->rtt_diff = (int32_t)diff;
	f->prev_rtt = rtt;

	if (rtt < c->t_low) {
		cid = TIMELY_C_INC_LOW;
	} else if (rtt > c->t_high) {
		/* 1 - beta (1 - t_high / rtt) */
		m = (int64_t)PCC_DEV_FXP16_ONE -
				(int64_t)pcc_dev_fxp_mult(PCC_DEV_FXP16_ONE -
								(((uint64_t)c->t_high << 16) / rtt),
						c->beta);
		cid = TIMELY_C_DEC_HIGH;
	} else if (diff <= 0) {
		cid = TIMELY_C_INC_GRAD;
	} else {
		g = (diff * (int64_t)PCC_DEV_FXP16_ONE) / c->min_rtt;
		if (g > TIMELY_G_MAX)
			g = TIMELY_G_MAX;
		m = (int64_t)PCC_DEV_FXP16_ONE - ((g * (int64_t)c->beta) >> 16);
		if (m < 0)
			m = 0;
		cid = TIMELY_C_DEC_GRAD;
	}
	if (m < 0) {
		if (f->inc_stage < c->hai_thresh) {
			rate += c->delta;
		} else {
			rate += c->hai;
			algo_cnt_add(k, TIMELY_C_HAI, 1);
		}
		if (f->inc_stage < UINT8_MAX)
			f->inc_stage++;
		f->rate = algo_rate_clamp(rate, c->min_rate);
	} else {
		f->rate = algo_rate_clamp(pcc_dev_fxp_mult(f->rate, (uint32_t)m), c->min_rate);
		f->inc_stage = 0;
		algo_cnt_min(k, TIMELY_C_RATE_MIN, f->rate);
	}
	algo_cnt_add(k, cid, 1);
}

static void
timely_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	struct timely_ctx *f = ctx;
	const struct timely_cfg *c = timely_cfg_get(attr->port, attr->algo_slot);
	struct algo_cnt k = ALGO_CNT_INIT(attr);

	if (ALGO_UNLIKELY(!(f->flags & TIMELY_F_INIT))) {
		f->rate = PCC_DEV_MAX_RATE;
		f->flags = TIMELY_F_INIT;
		algo_probe_request(&f->probe, ev->ts, res);
	}
	if (ev->type == PCC_DEV_EVENT_RTT) {
		timely_on_rtt(f, c, algo_rtt_sample(ev), &k);
		algo_probe_on_rtt(&f->probe, ev, res);
	} else if (algo_probe_tick(&f->probe, ev, res)) {
		algo_cnt_add(&k, TIMELY_C_PROBE_RETRIES, 1);
	}
	res->rate = f->rate;
}

ALGO_MAILBOX(timely)

const struct pcc_dev_algo_ops pcc_algo_timely_ops = {
	.name = "timely",
	.id = PCC_ALGO_TIMELY_ID,
	.major = 1,
	.minor = 0,
	.desc = "TIMELY: rate from the RTT gradient of probe samples",
	.ctx_size = TIMELY_CTX_SIZE,
	.params = timely_params,
	.n_params = TIMELY_P_NUM,
	.counters = timely_counters,
	.n_counters = TIMELY_C_NUM,
	.counter_units = timely_units,
	.init = timely_init,
	.on_event = timely_on_event,
	.mailbox = timely_mailbox,
	.set_params = timely_set_params,
	.port_info_changed = timely_port_info_changed,
};
