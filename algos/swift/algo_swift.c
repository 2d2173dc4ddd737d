/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * swift: Swift (Kumar et al., SIGCOMM 2020), window-based.  The result
 * is a congestion window in bytes (results.window); below one packet the
 * flow is paced at cwnd / rtt (results.rate), else results.rate is line
 * rate and the window limits it.
 *
 * Delay samples come from RTT probe events (one outstanding probe per
 * flow, requested on the first event and on every answer, re-requested
 * after 300 us << retries).  With the latest delay d:
 *
 *   target = base_target + hops * hop_scale
 *            + clamp(fs_alpha / sqrt(cwnd) + fs_beta, 0, fs_range)
 *   ACK, d < target:   cwnd += ai * acked / cwnd   (cwnd >= 1 packet)
 *                      cwnd += ai * acked          (cwnd < 1 packet)
 *   RTT, d >= target:  at most once per RTT
 *                      cwnd *= max(1 - beta (d - target) / d, 1 - max_mdf)
 *   NACK:              at most once per RTT  cwnd *= 1 - max_mdf
 *
 * clamped to [min_cwnd, max_cwnd].  acked = packets the ACK's PSN
 * advanced (1 for a flow's first ACK).  hops come from the ACK's INT
 * header when there is one, else from the hops parameter.  fs_alpha and
 * fs_beta make the flow-scaling term fs_range at fs_min_cwnd and 0 at
 * fs_max_cwnd (fs_range 0 turns flow scaling off).
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pcc_dev.h>
#include <pcc_proto_tlm.h>

#include "algo_common.h"
#include "pcc_algos.h"

enum {
	SWIFT_P_LINE_RATE,
	SWIFT_P_BASE_TARGET,
	SWIFT_P_HOP_SCALE,
	SWIFT_P_HOPS,
	SWIFT_P_FS_RANGE,
	SWIFT_P_FS_MIN_CWND,
	SWIFT_P_FS_MAX_CWND,
	SWIFT_P_AI,
	SWIFT_P_BETA,
	SWIFT_P_MAX_MDF,
	SWIFT_P_MSS,
	SWIFT_P_INIT_CWND,
	SWIFT_P_MIN_CWND,
	SWIFT_P_MAX_CWND,
	SWIFT_P_NUM,
};

static const struct pcc_dev_param_desc swift_params[SWIFT_P_NUM] = {
	{ SWIFT_P_LINE_RATE, "line_rate_gbps", 0, 0, 1600, PCC_DEV_PERM_RW,
			"line rate, Gb/s (0: the port speed, 100 if unknown)" },
	{ SWIFT_P_BASE_TARGET, "base_target_ns", 20000, 1, 100000000, PCC_DEV_PERM_RW,
			"base delay target, ns" },
	{ SWIFT_P_HOP_SCALE, "hop_scale_ns", 0, 0, 1000000, PCC_DEV_PERM_RW,
			"target increment per hop, ns" },
	{ SWIFT_P_HOPS, "hops", 0, 0, 64, PCC_DEV_PERM_RW, "hops when ACKs carry no INT header" },
	{ SWIFT_P_FS_RANGE, "fs_range_ns", 0, 0, 100000000, PCC_DEV_PERM_RW,
			"flow scaling range, ns (0: off)" },
	{ SWIFT_P_FS_MIN_CWND, "fs_min_cwnd_mpkt", 100, 1, 1000000, PCC_DEV_PERM_RW,
			"window (1/1000 packet) at which flow scaling adds fs_range" },
	{ SWIFT_P_FS_MAX_CWND, "fs_max_cwnd_pkt", 100, 1, 65536, PCC_DEV_PERM_RW,
			"window (packets) at which flow scaling adds 0" },
	{ SWIFT_P_AI, "ai_mpkt", 1000, 0, 1000000, PCC_DEV_PERM_RW,
			"additive increase per window, 1/1000 packet" },
	{ SWIFT_P_BETA, "beta", 52429, 0, 65536, PCC_DEV_PERM_RW,
			"multiplicative decrease, 16-bit fixed point (52429 = 0.8)" },
	{ SWIFT_P_MAX_MDF, "max_mdf", 32768, 0, 65536, PCC_DEV_PERM_RW,
			"largest decrease per RTT, 16-bit fixed point (32768 = 0.5)" },
	{ SWIFT_P_MSS, "mss_bytes", 4096, 64, 65536, PCC_DEV_PERM_RW, "packet size, bytes" },
	{ SWIFT_P_INIT_CWND, "init_cwnd_bytes", 250000, 1, 16000000, PCC_DEV_PERM_RW,
			"window of a new flow, bytes (BDP of 100G x 20 us)" },
	{ SWIFT_P_MIN_CWND, "min_cwnd_mpkt", 1, 1, 1000000, PCC_DEV_PERM_RW,
			"smallest window, 1/1000 packet" },
	{ SWIFT_P_MAX_CWND, "max_cwnd_bytes", 1000000, 1, 16000000, PCC_DEV_PERM_RW,
			"largest window, bytes" },
};

enum {
	SWIFT_C_RTT_EVENTS,
	SWIFT_C_INC,
	SWIFT_C_DEC_DELAY,
	SWIFT_C_DEC_CAPPED,
	SWIFT_C_DEC_NACK,
	SWIFT_C_PACED,
	SWIFT_C_PROBE_RETRIES,
	SWIFT_C_CWND_MIN,
	SWIFT_C_NUM,
};

static const uint8_t swift_units[SWIFT_C_NUM] = {
	[SWIFT_C_CWND_MIN] = PCC_DEV_UNIT_BYTES,
};

static const struct pcc_dev_counter_desc swift_counters[SWIFT_C_NUM] = {
	{ SWIFT_C_RTT_EVENTS, "rtt_events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"delay samples" },
	{ SWIFT_C_INC, "inc", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"ACKs that grew the window" },
	{ SWIFT_C_DEC_DELAY, "dec_delay", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"decreases on delay above target" },
	{ SWIFT_C_DEC_CAPPED, "dec_capped", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"decreases capped at max_mdf" },
	{ SWIFT_C_DEC_NACK, "dec_nack", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"decreases on NACK" },
	{ SWIFT_C_PACED, "paced", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"results with a window below one packet (paced)" },
	{ SWIFT_C_PROBE_RETRIES, "probe_retries", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"RTT probes re-requested after a timeout" },
	{ SWIFT_C_CWND_MIN, "cwnd_min", 0, PCC_DEV_COUNTER_MIN, PCC_DEV_PERM_RW,
			"smallest window set, bytes" },
};

/* Per-flow state: fits DOCA's 48-byte context. */
struct swift_ctx {
	uint32_t cwnd;        /**< bytes, 8 fractional bits */
	uint32_t delay;       /**< latest delay sample, ns (SWIFT_F_DELAY) */
	uint32_t last_dec_ts; /**< time of the last decrease (SWIFT_F_DECD) */
	uint32_t last_ack_sn; /**< PSN of the last ACK (SWIFT_F_ACK) */
	struct algo_probe probe;
	uint8_t flags;
	uint8_t hops; /**< from INT (SWIFT_F_HOPS) */
	uint8_t pad[2];
};

#define SWIFT_F_INIT 0x01
#define SWIFT_F_DELAY 0x02
#define SWIFT_F_DECD 0x04
#define SWIFT_F_ACK 0x08
#define SWIFT_F_HOPS 0x10

#define SWIFT_CTX_SIZE PCC_DEV_CTX_SIZE
_Static_assert(sizeof(struct swift_ctx) <= SWIFT_CTX_SIZE, "swift context too large");

#define SWIFT_CWND_SHIFT 8

struct swift_cfg {
	uint32_t valid;
	uint32_t line_gbps;
	uint32_t base_target;
	uint32_t hop_scale;
	uint32_t hops;
	uint32_t fs_range;
	uint32_t fs_x_min; /**< 1/sqrt(fs_min_cwnd), 16-bit fixed point */
	uint32_t fs_x_max; /**< 1/sqrt(fs_max_cwnd) */
	uint32_t ai;       /**< increase per acked packet, bytes << 8 */
	uint32_t beta;
	uint32_t f_max_mdf; /**< 1 - max_mdf */
	uint32_t mss;
	uint32_t init_cwnd; /**< bytes << 8 */
	uint32_t min_cwnd;
	uint32_t max_cwnd;
};

static uint32_t
swift_isqrt(uint64_t v)
{
	uint64_t r = 0, bit = UINT64_C(1) << 62;

	while (bit > v)
		bit >>= 2;
	while (bit != 0) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (uint32_t)r;
}

/* 1/sqrt(p) in 16-bit fixed point, p packets in 16-bit fixed point. */
static uint32_t
swift_inv_sqrt(uint64_t p_q16)
{
	uint32_t s = swift_isqrt(p_q16 << 16); /* sqrt(p) << 16 */
	uint64_t x;

	if (s == 0)
		return UINT32_MAX;
	x = (UINT64_C(1) << 32) / s;
	return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

static void
swift_cfg_compute(struct swift_cfg *c, uint8_t port, const uint32_t *p)
{
	uint64_t mss = p[SWIFT_P_MSS];
	uint64_t v;

	c->line_gbps = algo_line_gbps(port, p[SWIFT_P_LINE_RATE]);
	c->base_target = p[SWIFT_P_BASE_TARGET];
	c->hop_scale = p[SWIFT_P_HOP_SCALE];
	c->hops = p[SWIFT_P_HOPS];
	c->fs_range = p[SWIFT_P_FS_RANGE];
	c->fs_x_min = swift_inv_sqrt(((uint64_t)p[SWIFT_P_FS_MIN_CWND] << 16) / 1000);
	c->fs_x_max = swift_inv_sqrt((uint64_t)p[SWIFT_P_FS_MAX_CWND] << 16);
	c->ai = (uint32_t)(((uint64_t)p[SWIFT_P_AI] * mss << SWIFT_CWND_SHIFT) / 1000);
	c->beta = p[SWIFT_P_BETA];
	c->f_max_mdf = PCC_DEV_FXP16_ONE - p[SWIFT_P_MAX_MDF];
	c->mss = (uint32_t)mss;
	c->max_cwnd = p[SWIFT_P_MAX_CWND] << SWIFT_CWND_SHIFT;
	v = ((uint64_t)p[SWIFT_P_MIN_CWND] * mss << SWIFT_CWND_SHIFT) / 1000;
	c->min_cwnd = v == 0 ? 1 : v > c->max_cwnd ? c->max_cwnd : (uint32_t)v;
	v = (uint64_t)p[SWIFT_P_INIT_CWND] << SWIFT_CWND_SHIFT;
	c->init_cwnd = v < c->min_cwnd ? c->min_cwnd : v > c->max_cwnd ? c->max_cwnd : (uint32_t)v;
	__atomic_store_n(&c->valid, 1, __ATOMIC_RELEASE);
}

/* Combinations [min, max] cannot express: flow scaling needs
 * fs_min_cwnd < fs_max_cwnd, and min_cwnd must not exceed max_cwnd. */
static int
swift_params_check(const uint32_t *p)
{
	if ((uint64_t)p[SWIFT_P_FS_MIN_CWND] >= (uint64_t)p[SWIFT_P_FS_MAX_CWND] * 1000)
		return -EINVAL;
	if ((uint64_t)p[SWIFT_P_MIN_CWND] * p[SWIFT_P_MSS] > (uint64_t)p[SWIFT_P_MAX_CWND] * 1000)
		return -EINVAL;
	return 0;
}

ALGO_CFG_CACHE(swift, SWIFT_P_NUM, swift_params_check)

static uint32_t
swift_cwnd_clamp(const struct swift_cfg *c, uint64_t w)
{
	if (w < c->min_cwnd)
		return c->min_cwnd;
	if (w > c->max_cwnd)
		return c->max_cwnd;
	return (uint32_t)w;
}

/* Delay target for the current window, ns. */
static uint32_t
swift_target(const struct swift_ctx *f, const struct swift_cfg *c)
{
	uint64_t t = c->base_target;
	uint32_t hops = (f->flags & SWIFT_F_HOPS) ? f->hops : c->hops;
	uint64_t x;

	t += (uint64_t)hops * c->hop_scale;
	if (c->fs_range != 0 && c->fs_x_min > c->fs_x_max) {
		/* cwnd in packets, 16-bit fixed point */
		x = swift_inv_sqrt(((uint64_t)f->cwnd << (16 - SWIFT_CWND_SHIFT)) / c->mss);
		if (x > c->fs_x_max) {
			if (x > c->fs_x_min)
				x = c->fs_x_min;
			t += (x - c->fs_x_max) * c->fs_range / (c->fs_x_min - c->fs_x_max);
		}
	}
	return t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

/* At most one decrease per RTT (the latest delay, else the base target). */
static int
swift_can_decrease(const struct swift_ctx *f, const struct swift_cfg *c, uint32_t ts)
{
	uint32_t rtt = (f->flags & SWIFT_F_DELAY) ? f->delay : c->base_target;

	return !(f->flags & SWIFT_F_DECD) || ts - f->last_dec_ts >= rtt;
}

static void
swift_decreased(struct swift_ctx *f, uint32_t ts, struct algo_cnt *k, uint32_t cid)
{
	f->last_dec_ts = ts;
	f->flags |= SWIFT_F_DECD;
	algo_cnt_add(k, cid, 1);
	algo_cnt_min(k, SWIFT_C_CWND_MIN, f->cwnd >> SWIFT_CWND_SHIFT);
}

static void
swift_on_rtt(struct swift_ctx *f, const struct swift_cfg *c, uint32_t ts, uint32_t d,
		struct algo_cnt *k)
{
	uint32_t target, m, cid = SWIFT_C_DEC_DELAY;

	f->delay = d;
	f->flags |= SWIFT_F_DELAY;
	algo_cnt_add(k, SWIFT_C_RTT_EVENTS, 1);
	target = swift_target(f, c);
	if (d < target || !swift_can_decrease(f, c, ts))
		return;
	/* 1 - beta (d - target) / d, floored at 1 - max_mdf */
	m = PCC_DEV_FXP16_ONE - (uint32_t)(((uint64_t)c->beta * (d - target)) / (d != 0 ? d : 1));
	if (m < c->f_max_mdf) {
		m = c->f_max_mdf;
		cid = SWIFT_C_DEC_CAPPED;
	}
	f->cwnd = swift_cwnd_clamp(c, ((uint64_t)f->cwnd * m) >> 16);
	swift_decreased(f, ts, k, cid);
}

static void
swift_on_ack(struct swift_ctx *f, const struct swift_cfg *c, const struct pcc_dev_event *ev,
		struct algo_cnt *k)
{
	uint32_t acked = 1;
	uint64_t inc, w = f->cwnd;

	if (ev->ack.int_hdr != NULL) {
		f->hops = (uint8_t)ev->ack.int_hdr->n_hops;
		f->flags |= SWIFT_F_HOPS;
	}
	if (f->flags & SWIFT_F_ACK) {
		acked = algo_psn_diff(ev->sn, f->last_ack_sn);
		if (acked > ALGO_MAX_ACKED_PKTS)
			acked = 1;
	}
	f->last_ack_sn = ev->sn;
	f->flags |= SWIFT_F_ACK;
	if (acked == 0 || !(f->flags & SWIFT_F_DELAY) || f->delay >= swift_target(f, c))
		return;
	inc = (uint64_t)c->ai * acked;
	if (w >= (uint64_t)c->mss << SWIFT_CWND_SHIFT)
		inc = inc * ((uint64_t)c->mss << SWIFT_CWND_SHIFT) / w;
	f->cwnd = swift_cwnd_clamp(c, w + inc);
	algo_cnt_add(k, SWIFT_C_INC, 1);
}

static void
swift_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	struct swift_ctx *f = ctx;
	const struct swift_cfg *c = swift_cfg_get(attr->port, attr->algo_slot);
	struct algo_cnt k = ALGO_CNT_INIT(attr);
	uint32_t rtt;
	uint64_t r;

	if (ALGO_UNLIKELY(!(f->flags & SWIFT_F_INIT))) {
		f->cwnd = c->init_cwnd;
		f->flags = SWIFT_F_INIT;
		algo_probe_request(&f->probe, ev->ts, res);
	}
	switch (ev->type) {
	case PCC_DEV_EVENT_RTT:
		swift_on_rtt(f, c, ev->ts, algo_rtt_sample(ev), &k);
		algo_probe_on_rtt(&f->probe, ev, res);
		break;
	case PCC_DEV_EVENT_ACK:
		swift_on_ack(f, c, ev, &k);
		break;
	case PCC_DEV_EVENT_NACK:
		if (swift_can_decrease(f, c, ev->ts)) {
			f->cwnd = swift_cwnd_clamp(c, ((uint64_t)f->cwnd * c->f_max_mdf) >> 16);
			swift_decreased(f, ev->ts, &k, SWIFT_C_DEC_NACK);
		}
		break;
	default:
		break;
	}
	if (ev->type != PCC_DEV_EVENT_RTT && algo_probe_tick(&f->probe, ev, res))
		algo_cnt_add(&k, SWIFT_C_PROBE_RETRIES, 1);

	res->window = f->cwnd >> SWIFT_CWND_SHIFT;
	if (res->window == 0)
		res->window = 1;
	if (f->cwnd >= c->mss << SWIFT_CWND_SHIFT) {
		res->rate = PCC_DEV_MAX_RATE;
		return;
	}
	/* below one packet: pace at cwnd / rtt, i.e. one packet per rtt * mss / cwnd */
	rtt = (f->flags & SWIFT_F_DELAY) && f->delay != 0 ? f->delay : c->base_target;
	r = ((uint64_t)f->cwnd << (PCC_DEV_RATE_SHIFT + 3 - SWIFT_CWND_SHIFT)) /
			((uint64_t)rtt * c->line_gbps);
	res->rate = algo_rate_clamp(r, 1);
	algo_cnt_add(&k, SWIFT_C_PACED, 1);
}

ALGO_MAILBOX(swift)

const struct pcc_dev_algo_ops pcc_algo_swift_ops = {
	.name = "swift",
	.id = PCC_ALGO_SWIFT_ID,
	.major = 1,
	.minor = 0,
	.desc = "Swift: delay-target congestion window (bytes), paced below one packet",
	.ctx_size = SWIFT_CTX_SIZE,
	.params = swift_params,
	.n_params = SWIFT_P_NUM,
	.counters = swift_counters,
	.n_counters = SWIFT_C_NUM,
	.counter_units = swift_units,
	.init = swift_init,
	.on_event = swift_on_event,
	.mailbox = swift_mailbox,
	.set_params = swift_set_params,
	.port_info_changed = swift_port_info_changed,
};
