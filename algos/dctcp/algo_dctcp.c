/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * dctcp: DCTCP (Alizadeh et al., SIGCOMM 2010) in rate form, as in the
 * HPCC reference simulator.  A CNP stands for one ECN-marked packet (the
 * NP must then send a CNP per marked packet, not one per 50 us), an ACK's
 * PSN advance for the packets delivered.
 *
 *   per window (RTT):  alpha = (1 - g) alpha + g min(1, marked / acked);
 *                      rate += R_AI unless in CWR
 *   CNP, not in CWR:   rate = max(min, rate (1 - alpha / 2)); enter CWR
 *                      until an ACK reaches the next PSN to send at the cut
 *
 * A window ends when an ACK reaches the next PSN to send recorded at its
 * start (TX events carry the PSN of their last packet in ev->sn); before
 * the flow's first TX event windows and CWR last rtt_ns.  The first window
 * only starts the count.  New flows start at line rate with alpha_init.
 *
 * With var_win (default, as the reference simulator runs DCTCP) the
 * result also carries a window of rate x rtt_ns bytes: the flow is ACK
 * clocked like window DCTCP, so a standing queue slows it and the queue
 * grows by about one AI step per RTT past K instead of by the rate excess
 * the additive increases accumulated while the queue was below K.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pcc_dev.h>

#include "algo_common.h"
#include "pcc_algos.h"

enum {
	DCTCP_P_LINE_RATE,
	DCTCP_P_MIN_RATE,
	DCTCP_P_G,
	DCTCP_P_RAI,
	DCTCP_P_ALPHA_INIT,
	DCTCP_P_RTT,
	DCTCP_P_VAR_WIN,
	DCTCP_P_NUM,
};

static const struct pcc_dev_param_desc dctcp_params[DCTCP_P_NUM] = {
	{ DCTCP_P_LINE_RATE, "line_rate_gbps", 0, 0, 1600, PCC_DEV_PERM_RW,
			"line rate, Gb/s (0: the port speed, 100 if unknown)" },
	{ DCTCP_P_MIN_RATE, "min_rate_mbps", 100, 1, 1600000, PCC_DEV_PERM_RW,
			"lowest rate, Mb/s" },
	{ DCTCP_P_G, "g", 4096, 1, 65536, PCC_DEV_PERM_RW,
			"alpha gain, 16-bit fixed point (4096 = 1/16)" },
	{ DCTCP_P_RAI, "rai_mbps", 615, 0, 1600000, PCC_DEV_PERM_RW,
			"additive increase per window, Mb/s (615 at 100G)" },
	{ DCTCP_P_ALPHA_INIT, "alpha_init", 65536, 0, 65536, PCC_DEV_PERM_RW,
			"alpha of a new flow, 16-bit fixed point" },
	{ DCTCP_P_RTT, "rtt_ns", 10000, 100, 100000000, PCC_DEV_PERM_RW,
			"base RTT, ns: window length before the first TX event, var_win window" },
	{ DCTCP_P_VAR_WIN, "var_win", 1, 0, 1, PCC_DEV_PERM_RW,
			"1: also a window of rate x rtt_ns bytes in flight; 0: rate only" },
};

enum {
	DCTCP_C_CNP,
	DCTCP_C_CUT,
	DCTCP_C_WINDOWS,
	DCTCP_C_INC,
	DCTCP_C_ALPHA_MAX,
	DCTCP_C_RATE_MIN,
	DCTCP_C_NUM,
};

static const uint8_t dctcp_units[DCTCP_C_NUM] = {
	[DCTCP_C_ALPHA_MAX] = PCC_DEV_UNIT_FXP16,
	[DCTCP_C_RATE_MIN] = PCC_DEV_UNIT_RATE,
};

static const struct pcc_dev_counter_desc dctcp_counters[DCTCP_C_NUM] = {
	{ DCTCP_C_CNP, "cnp_events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"CNP events (marked packets)" },
	{ DCTCP_C_CUT, "rate_cut", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"rate cuts (at most one per window)" },
	{ DCTCP_C_WINDOWS, "windows", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"alpha updates (windows ended)" },
	{ DCTCP_C_INC, "rate_inc", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"additive increases" },
	{ DCTCP_C_ALPHA_MAX, "alpha_max", 0, PCC_DEV_COUNTER_MAX, PCC_DEV_PERM_RW,
			"largest alpha, 16-bit fixed point" },
	{ DCTCP_C_RATE_MIN, "rate_min", 0, PCC_DEV_COUNTER_MIN, PCC_DEV_PERM_RW,
			"lowest rate set, 20-bit fixed point" },
};

/* Per-flow state: fits DOCA's 48-byte context. */
struct dctcp_ctx {
	uint32_t rate;        /**< 20-bit fixed point of line rate */
	uint32_t alpha;       /**< 16-bit fixed point */
	uint32_t snd_nxt;     /**< next PSN to send (DCTCP_F_TX) */
	uint32_t win_end;     /**< window ends at this PSN (DCTCP_F_WIN_PSN) */
	uint32_t win_ts;      /**< window start */
	uint32_t cwr_end;     /**< CWR ends at this PSN (DCTCP_F_CWR_PSN) */
	uint32_t cwr_ts;      /**< CWR start */
	uint32_t last_ack_sn; /**< DCTCP_F_ACK */
	uint32_t marked;      /**< marked packets in the window */
	uint32_t acked;       /**< packets acknowledged in the window */
	uint8_t flags;
	uint8_t pad[3];
};

#define DCTCP_F_INIT 0x01
#define DCTCP_F_TX 0x02
#define DCTCP_F_ACK 0x04
#define DCTCP_F_WIN 0x08 /* a window is open */
#define DCTCP_F_WIN_PSN 0x10
#define DCTCP_F_CWR 0x20
#define DCTCP_F_CWR_PSN 0x40

#define DCTCP_CTX_SIZE PCC_DEV_CTX_SIZE
_Static_assert(sizeof(struct dctcp_ctx) <= DCTCP_CTX_SIZE, "dctcp context too large");

struct dctcp_cfg {
	uint32_t valid;
	uint32_t min_rate;
	uint32_t g;
	uint32_t rai;
	uint32_t alpha_init;
	uint32_t rtt;
	uint32_t var_win;
	uint64_t win_scale; /**< window bytes per 20-bit rate unit, 32.32 */
};

static void
dctcp_cfg_compute(struct dctcp_cfg *c, uint8_t port, const uint32_t *p)
{
	uint32_t line = algo_line_gbps(port, p[DCTCP_P_LINE_RATE]);

	c->min_rate = pcc_dev_mbps_to_rate(p[DCTCP_P_MIN_RATE], line);
	c->g = p[DCTCP_P_G];
	c->rai = pcc_dev_mbps_to_rate(p[DCTCP_P_RAI], line);
	c->alpha_init = p[DCTCP_P_ALPHA_INIT];
	c->rtt = p[DCTCP_P_RTT];
	c->var_win = p[DCTCP_P_VAR_WIN];
	c->win_scale = algo_win_scale(line, p[DCTCP_P_RTT]);
	__atomic_store_n(&c->valid, 1, __ATOMIC_RELEASE);
}

ALGO_CFG_CACHE(dctcp, DCTCP_P_NUM, algo_params_ok)

static void
dctcp_window_start(struct dctcp_ctx *f, uint32_t ts)
{
	f->win_ts = ts;
	f->marked = 0;
	f->acked = 0;
	f->flags |= DCTCP_F_WIN;
	if (f->flags & DCTCP_F_TX) {
		f->win_end = f->snd_nxt;
		f->flags |= DCTCP_F_WIN_PSN;
	} else {
		f->flags &= (uint8_t)~DCTCP_F_WIN_PSN;
	}
}

static void
dctcp_on_cnp(struct dctcp_ctx *f, const struct dctcp_cfg *c, const struct pcc_dev_event *ev,
		struct algo_cnt *k)
{
	f->marked += ev->ack.coalesced > 1 ? ev->ack.coalesced : 1;
	algo_cnt_add(k, DCTCP_C_CNP, 1);
	if (f->flags & DCTCP_F_CWR)
		return;
	/* rate (1 - alpha / 2) */
	f->rate = algo_rate_clamp(((uint64_t)f->rate * ((2u << 16) - f->alpha)) >> 17, c->min_rate);
	f->flags |= DCTCP_F_CWR;
	f->cwr_ts = ev->ts;
	if (f->flags & DCTCP_F_TX) {
		f->cwr_end = f->snd_nxt;
		f->flags |= DCTCP_F_CWR_PSN;
	} else {
		f->flags &= (uint8_t)~DCTCP_F_CWR_PSN;
	}
	algo_cnt_add(k, DCTCP_C_CUT, 1);
	algo_cnt_min(k, DCTCP_C_RATE_MIN, f->rate);
}

static void
dctcp_on_ack(struct dctcp_ctx *f, const struct dctcp_cfg *c, const struct pcc_dev_event *ev,
		struct algo_cnt *k)
{
	uint32_t acked = 1, frac;
	int end;

	if (f->flags & DCTCP_F_ACK) {
		acked = algo_psn_diff(ev->sn, f->last_ack_sn);
		if (acked > ALGO_MAX_ACKED_PKTS)
			acked = 1;
	}
	f->last_ack_sn = ev->sn;
	f->flags |= DCTCP_F_ACK;

	if (!(f->flags & DCTCP_F_WIN)) {
		dctcp_window_start(f, ev->ts); /* first window: count only */
		return;
	}
	f->acked += acked;
	if (f->flags & DCTCP_F_WIN_PSN)
		end = algo_psn_ge(ev->sn, f->win_end);
	else
		end = ev->ts - f->win_ts >= c->rtt;
	if (end) {
		if (f->marked >= f->acked)
			frac = f->marked != 0 ? PCC_DEV_FXP16_ONE : 0;
		else
			frac = (uint32_t)(((uint64_t)f->marked << 16) / f->acked);
		/* alpha = (1 - g) alpha + g frac */
		f->alpha = (uint32_t)(((uint64_t)f->alpha * (PCC_DEV_FXP16_ONE - c->g) +
						      (uint64_t)frac * c->g) >>
				16);
		dctcp_window_start(f, ev->ts);
		algo_cnt_add(k, DCTCP_C_WINDOWS, 1);
		algo_cnt_max(k, DCTCP_C_ALPHA_MAX, f->alpha);
	}
	if (f->flags & DCTCP_F_CWR) {
		if (f->flags & DCTCP_F_CWR_PSN) {
			if (algo_psn_ge(ev->sn, f->cwr_end))
				f->flags &= (uint8_t)~DCTCP_F_CWR;
		} else if (ev->ts - f->cwr_ts >= c->rtt) {
			f->flags &= (uint8_t)~DCTCP_F_CWR;
		}
	}
	if (end && !(f->flags & DCTCP_F_CWR)) {
		f->rate = algo_rate_clamp((uint64_t)f->rate + c->rai, c->min_rate);
		algo_cnt_add(k, DCTCP_C_INC, 1);
	}
}

static void
dctcp_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	struct dctcp_ctx *f = ctx;
	const struct dctcp_cfg *c = dctcp_cfg_get(attr->port, attr->algo_slot);
	struct algo_cnt k = ALGO_CNT_INIT(attr);

	if (ALGO_UNLIKELY(!(f->flags & DCTCP_F_INIT))) {
		f->rate = PCC_DEV_MAX_RATE;
		f->alpha = c->alpha_init;
		f->flags = DCTCP_F_INIT;
	}
	switch (ev->type) {
	case PCC_DEV_EVENT_TX:
		f->snd_nxt = (ev->sn + 1) & ALGO_PSN_MASK;
		f->flags |= DCTCP_F_TX;
		break;
	case PCC_DEV_EVENT_ACK:
		dctcp_on_ack(f, c, ev, &k);
		break;
	case PCC_DEV_EVENT_CNP:
		dctcp_on_cnp(f, c, ev, &k);
		break;
	default:
		break;
	}
	res->rate = f->rate;
	if (c->var_win)
		res->window = algo_rate_window(f->rate, c->win_scale);
}

ALGO_MAILBOX(dctcp)

const struct pcc_dev_algo_ops pcc_algo_dctcp_ops = {
	.name = "dctcp",
	.id = PCC_ALGO_DCTCP_ID,
	.major = 1,
	.minor = 0,
	.desc = "DCTCP, rate form: marked-fraction alpha from CNPs, one cut per window",
	.ctx_size = DCTCP_CTX_SIZE,
	.params = dctcp_params,
	.n_params = DCTCP_P_NUM,
	.counters = dctcp_counters,
	.n_counters = DCTCP_C_NUM,
	.counter_units = dctcp_units,
	.init = dctcp_init,
	.on_event = dctcp_on_event,
	.mailbox = dctcp_mailbox,
	.set_params = dctcp_set_params,
	.port_info_changed = dctcp_port_info_changed,
};
