/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * dcqcn: DCQCN reaction point (Zhu et al., SIGCOMM 2015), with the
 * defaults of the HPCC reference simulator's 100G profile.
 *
 * State per flow: current rate RC, target rate RT, alpha, increase stage
 * counters, and the start of the current alpha / decrease / increase timer
 * periods.  All timers run on event timestamps: every event (of any type,
 * PCC_DEV_EVENT_TIMER included) first accounts for the timer periods that
 * elapsed since the last one, so the algorithm needs no timer event but
 * reacts earlier when the engine delivers them.
 *
 *   first CNP        alpha = 1, alpha timer starts, RC = RT = RC * rate_first_cnp
 *   alpha timer      alpha = (1 - g) alpha + g [CNP in the period]
 *   CNP              decrease now if t_dec elapsed since the last decrease
 *                    (or none yet), else once the period ends:
 *                    RT = RC (clamp_target_rate 1, or an increase step
 *                    since the last cut), RC = max(min, RC (1 - alpha / 2)),
 *                    stages = 0, increase timer restarts
 *   increase step    (every t_inc, and every byte_counter bytes sent if set)
 *                    max(T, B) < F: fast recovery    RC = (RC + RT) / 2
 *                    min(T, B) > F: hyper increase   RT += R_HAI, then as above
 *                    otherwise:     additive increase RT += R_AI, then as above
 *                    (T, B: timer and byte counter steps since the last
 *                    decrease; B = T without a byte counter)
 *
 * The increase timer stops once RC = RT = line rate.  Elapsed periods are
 * 32-bit nanosecond differences: a flow idle for more than 4.29 s sees the
 * time modulo 2^32 ns.  At most DCQCN_MAX_STEPS increase steps are applied
 * per event.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pcc_dev.h>

#include "algo_common.h"
#include "pcc_algos.h"

enum {
	DCQCN_P_LINE_RATE,
	DCQCN_P_MIN_RATE,
	DCQCN_P_T_ALPHA,
	DCQCN_P_T_DEC,
	DCQCN_P_T_INC,
	DCQCN_P_G,
	DCQCN_P_F,
	DCQCN_P_RAI,
	DCQCN_P_RHAI,
	DCQCN_P_BYTE_COUNTER,
	DCQCN_P_RATE_FIRST_CNP,
	DCQCN_P_CLAMP_TARGET,
	DCQCN_P_NUM,
};

static const struct pcc_dev_param_desc dcqcn_params[DCQCN_P_NUM] = {
	{ DCQCN_P_LINE_RATE, "line_rate_gbps", 0, 0, 1600, PCC_DEV_PERM_RW,
			"line rate, Gb/s (0: the port speed, 100 if unknown)" },
	{ DCQCN_P_MIN_RATE, "min_rate_mbps", 1000, 1, 1600000, PCC_DEV_PERM_RW,
			"lowest rate, Mb/s" },
	{ DCQCN_P_T_ALPHA, "t_alpha_ns", 1000, 100, 100000000, PCC_DEV_PERM_RW,
			"alpha update period, ns" },
	{ DCQCN_P_T_DEC, "t_dec_ns", 4000, 0, 100000000, PCC_DEV_PERM_RW,
			"at most one rate decrease per period, ns (0: every CNP)" },
	{ DCQCN_P_T_INC, "t_inc_ns", 300000, 1000, 1000000000, PCC_DEV_PERM_RW,
			"rate increase timer period, ns" },
	{ DCQCN_P_G, "g", 256, 1, 65535, PCC_DEV_PERM_RW,
			"alpha gain, 16-bit fixed point (256 = 1/256)" },
	{ DCQCN_P_F, "fast_recovery_steps", 1, 0, 254, PCC_DEV_PERM_RW,
			"F: increase steps of fast recovery before additive increase" },
	{ DCQCN_P_RAI, "rai_mbps", 20, 0, 1600000, PCC_DEV_PERM_RW,
			"additive increase of the target rate, Mb/s" },
	{ DCQCN_P_RHAI, "rhai_mbps", 200, 0, 1600000, PCC_DEV_PERM_RW,
			"hyper increase of the target rate, Mb/s" },
	{ DCQCN_P_BYTE_COUNTER, "byte_counter_kb", 0, 0, 1048576, PCC_DEV_PERM_RW,
			"increase step every this many KiB sent (0: off; paper 10240)" },
	{ DCQCN_P_RATE_FIRST_CNP, "rate_first_cnp", 65536, 1, 65536, PCC_DEV_PERM_RW,
			"rate factor on a flow's first CNP, 16-bit fixed point" },
	{ DCQCN_P_CLAMP_TARGET, "clamp_target_rate", 0, 0, 1, PCC_DEV_PERM_RW,
			"1: RT = RC on every cut (paper text); 0: only if the rate "
			"increased since the last cut (firmware, ns-3)" },
};

enum {
	DCQCN_C_CNP,
	DCQCN_C_DEC,
	DCQCN_C_DEC_DEFERRED,
	DCQCN_C_INC_FR,
	DCQCN_C_INC_AI,
	DCQCN_C_INC_HAI,
	DCQCN_C_INC_BYTE,
	DCQCN_C_AT_MIN,
	DCQCN_C_RATE_MIN,
	DCQCN_C_NUM,
};

static const uint8_t dcqcn_units[DCQCN_C_NUM] = {
	[DCQCN_C_RATE_MIN] = PCC_DEV_UNIT_RATE,
};

static const struct pcc_dev_counter_desc dcqcn_counters[DCQCN_C_NUM] = {
	{ DCQCN_C_CNP, "cnp_events", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW, "CNP events" },
	{ DCQCN_C_DEC, "rate_dec", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"rate decreases" },
	{ DCQCN_C_DEC_DEFERRED, "rate_dec_deferred", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"decreases applied at the end of a t_dec period" },
	{ DCQCN_C_INC_FR, "inc_fast_recovery", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"fast recovery steps" },
	{ DCQCN_C_INC_AI, "inc_additive", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"additive increase steps" },
	{ DCQCN_C_INC_HAI, "inc_hyper", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"hyper increase steps" },
	{ DCQCN_C_INC_BYTE, "inc_byte_counter", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"increase steps triggered by the byte counter" },
	{ DCQCN_C_AT_MIN, "dec_at_min_rate", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"decreases clamped at min_rate" },
	{ DCQCN_C_RATE_MIN, "rate_min", 0, PCC_DEV_COUNTER_MIN, PCC_DEV_PERM_RW,
			"lowest rate set, 20-bit fixed point" },
};

/* Per-flow state: fits DOCA's 48-byte context. */
struct dcqcn_ctx {
	uint32_t rc;       /**< current rate, 20-bit fixed point */
	uint32_t rt;       /**< target rate */
	uint32_t alpha;    /**< 24-bit fixed point, 1.0 = 1 << 24 */
	uint32_t alpha_ts; /**< start of the current alpha period */
	uint32_t dec_ts;   /**< time of the last decrease */
	uint32_t inc_ts;   /**< start of the current increase period */
	uint32_t bytes;    /**< bytes sent since the last byte counter step */
	uint8_t flags;
	uint8_t t_stage; /**< timer steps since the last decrease (saturates) */
	uint8_t b_stage; /**< byte counter steps since the last decrease */
	uint8_t pad;
};

#define DCQCN_F_INIT 0x01
#define DCQCN_F_ALPHA 0x02     /* alpha timer running (a CNP was seen) */
#define DCQCN_F_ALPHA_CNP 0x04 /* CNP in the current alpha period */
#define DCQCN_F_DEC_PEND 0x08  /* CNP waiting for the end of t_dec */
#define DCQCN_F_INC 0x10       /* increase timer running */
#define DCQCN_F_DECD 0x20      /* dec_ts valid */

#define DCQCN_CTX_SIZE PCC_DEV_CTX_SIZE
_Static_assert(sizeof(struct dcqcn_ctx) <= DCQCN_CTX_SIZE, "dcqcn context too large");

#define DCQCN_ALPHA_SHIFT 24
#define DCQCN_ALPHA_ONE (1u << DCQCN_ALPHA_SHIFT)
/* alpha decay over e periods from DCQCN_NIB 4-bit digits of e (e < 2^20) */
#define DCQCN_NIB 5
#define DCQCN_Q30_HALF (UINT64_C(1) << 29)

/** Increase steps applied at most per event (RC reaches line rate before). */
#define DCQCN_MAX_STEPS 1024

struct dcqcn_cfg {
	uint32_t valid;
	uint32_t min_rate;
	uint32_t t_alpha;
	uint32_t t_alpha_inv; /**< algo_div_inv(t_alpha) */
	uint32_t t_dec;
	uint32_t t_inc;
	uint32_t t_inc_inv;
	uint32_t g;
	uint32_t alpha_zero_n; /**< quiet periods after which alpha is 0 */
	uint32_t f;
	uint32_t rai;
	uint32_t rhai;
	uint32_t bc_bytes;
	uint32_t first_cnp;
	uint32_t clamp;                 /**< RT = RC on every cut, not only after an increase */
	uint64_t decay[32];             /**< (1 - g)^(2^i), 30-bit fixed point */
	uint32_t decay4[DCQCN_NIB][16]; /**< (1 - g)^(k 16^j), 30-bit fixed point */
};

static void
dcqcn_cfg_compute(struct dcqcn_cfg *c, uint8_t port, const uint32_t *p)
{
	uint32_t line = algo_line_gbps(port, p[DCQCN_P_LINE_RATE]);
	uint64_t b;
	uint32_t i;

	c->min_rate = pcc_dev_mbps_to_rate(p[DCQCN_P_MIN_RATE], line);
	c->t_alpha = p[DCQCN_P_T_ALPHA];
	c->t_alpha_inv = algo_div_inv(c->t_alpha);
	c->t_dec = p[DCQCN_P_T_DEC];
	c->t_inc = p[DCQCN_P_T_INC];
	c->t_inc_inv = algo_div_inv(c->t_inc);
	c->g = p[DCQCN_P_G];
	/* (1 - g)^(2^i) by repeated squaring, rounded; alpha (<= 2^24) is 0
	 * once the product drops below 2^6 (2^-24 of 2^30) */
	b = (uint64_t)(PCC_DEV_FXP16_ONE - c->g) << 14;
	c->alpha_zero_n = UINT32_MAX;
	for (i = 0; i < 32; i++) {
		c->decay[i] = b;
		if (b < 64 && c->alpha_zero_n == UINT32_MAX)
			c->alpha_zero_n = 1u << i;
		b = (b * b + DCQCN_Q30_HALF) >> 30;
	}
	/* decay4[j][k] = (1 - g)^(k 16^j) = decay[4j]^k */
	for (i = 0; i < DCQCN_NIB; i++) {
		uint64_t x = UINT64_C(1) << 30;
		uint32_t k;

		for (k = 0; k < 16; k++) {
			c->decay4[i][k] = (uint32_t)x;
			x = (x * c->decay[4 * i] + DCQCN_Q30_HALF) >> 30;
		}
	}
	c->f = p[DCQCN_P_F];
	c->rai = pcc_dev_mbps_to_rate(p[DCQCN_P_RAI], line);
	c->rhai = pcc_dev_mbps_to_rate(p[DCQCN_P_RHAI], line);
	c->bc_bytes = p[DCQCN_P_BYTE_COUNTER] * 1024;
	c->first_cnp = p[DCQCN_P_RATE_FIRST_CNP];
	c->clamp = p[DCQCN_P_CLAMP_TARGET];
	__atomic_store_n(&c->valid, 1, __ATOMIC_RELEASE);
}

ALGO_CFG_CACHE(dcqcn, DCQCN_P_NUM, algo_params_ok)

/* (1 - g)^e, 30-bit fixed point */
static inline uint64_t
dcqcn_decay(const struct dcqcn_cfg *c, uint32_t e)
{
	uint64_t p01, p23, p;
	uint32_t i;

	if (e >= c->alpha_zero_n)
		return 0;
	if (ALGO_LIKELY(e < (1u << (4 * DCQCN_NIB)))) {
		/* 5 table entries, multiplied as a tree */
		p01 = ((uint64_t)c->decay4[0][e & 15] * c->decay4[1][(e >> 4) & 15] +
				      DCQCN_Q30_HALF) >>
				30;
		p23 = ((uint64_t)c->decay4[2][(e >> 8) & 15] * c->decay4[3][(e >> 12) & 15] +
				      DCQCN_Q30_HALF) >>
				30;
		p = (p01 * p23 + DCQCN_Q30_HALF) >> 30;
		return (p * c->decay4[4][e >> 16] + DCQCN_Q30_HALF) >> 30;
	}
	p = UINT64_C(1) << 30;
	for (i = 0; e != 0 && p != 0; i++, e >>= 1)
		if (e & 1)
			p = (p * c->decay[i] + DCQCN_Q30_HALF) >> 30;
	return p;
}

/* n alpha periods ended; the first one saw a CNP if ALPHA_CNP. */
static void
dcqcn_alpha_periods(struct dcqcn_ctx *f, const struct dcqcn_cfg *c, uint32_t n)
{
	uint64_t a = f->alpha;

	a -= (a * c->g) >> 16;
	if (f->flags & DCQCN_F_ALPHA_CNP)
		a += (uint64_t)c->g << (DCQCN_ALPHA_SHIFT - 16);
	if (n > 1)
		a = (a * dcqcn_decay(c, n - 1) + DCQCN_Q30_HALF) >> 30;
	f->alpha = a > DCQCN_ALPHA_ONE ? DCQCN_ALPHA_ONE : (uint32_t)a;
	f->flags &= (uint8_t)~DCQCN_F_ALPHA_CNP;
}

static void
dcqcn_decrease(struct dcqcn_ctx *f, const struct dcqcn_cfg *c, uint32_t t, struct algo_cnt *k)
{
	uint64_t r = ((uint64_t)f->rc * ((2ull << DCQCN_ALPHA_SHIFT) - f->alpha)) >>
			(DCQCN_ALPHA_SHIFT + 1);

	/* the target takes the old rate on every cut (clamp_target_rate 1,
	 * the paper's text), or only when an increase step raised the rate
	 * since the last cut (Mellanox firmware, the HPCC reference's
	 * CLAMP_TARGET_RATE 0): back-to-back cuts then keep the target of
	 * before the first one, so a flow cut more often than its peer does
	 * not also lose its way back, and two flows converge */
	if (c->clamp || f->t_stage != 0 || f->b_stage != 0)
		f->rt = f->rc;
	if (r <= c->min_rate) {
		r = c->min_rate;
		algo_cnt_add(k, DCQCN_C_AT_MIN, 1);
	}
	f->rc = algo_rate_clamp(r, c->min_rate);
	f->t_stage = 0;
	f->b_stage = 0;
	f->bytes = 0;
	f->dec_ts = t;
	f->inc_ts = t;
	f->flags = (uint8_t)((f->flags | DCQCN_F_INC | DCQCN_F_DECD) & ~DCQCN_F_DEC_PEND);
	algo_cnt_add(k, DCQCN_C_DEC, 1);
	algo_cnt_min(k, DCQCN_C_RATE_MIN, f->rc);
}

/* The counter of each kind of increase step (dcqcn_inc_kind()). */
static const uint8_t dcqcn_kind_ctr[3] = { DCQCN_C_INC_FR, DCQCN_C_INC_AI, DCQCN_C_INC_HAI };

/* The kind of an increase step at stages t and b: 0 fast recovery, 1
 * additive, 2 hyper. */
static inline uint32_t
dcqcn_inc_kind(const struct dcqcn_cfg *c, uint32_t t, uint32_t b)
{
	uint32_t hi = t > b ? t : b, lo = t > b ? b : t;

	if (hi < c->f)
		return 0;
	return lo > c->f ? 2 : 1;
}

static inline uint32_t
dcqcn_stage_add(uint32_t s, uint32_t m)
{
	return s + m > UINT8_MAX ? UINT8_MAX : s + m;
}

/*
 * Up to n (>= 1) steps of one kind, a rate step of a each, applied at
 * once as the step loop would apply them; returns how many it took (at
 * least 1).  A step sets RT = min(RT + a, max), RC = (RC + RT + 1) / 2.
 * With D = RT - RC and E = a - D, a step while RT + a stays within max
 * makes E = ceil(E / 2) (and ceil(ceil(x / 2) / 2) = ceil(x / 4)): after
 * m steps RT has grown by m a and D = a - ceil(E / 2^m).  At max, a step
 * adds nothing (a = 0 there, D >> m), and the loop's last is the one that
 * brings D to 0.  A single step, and the step that crosses max, are
 * taken as the equations say (the unit test holds runs against them).
 */
static inline uint32_t
dcqcn_inc_run(struct dcqcn_ctx *f, uint32_t a, uint32_t n)
{
	int64_t e;
	uint64_t rt;
	uint32_t d, m, sh;

	if (n == 1 || (f->rt < PCC_DEV_MAX_RATE && (uint64_t)f->rt + a > PCC_DEV_MAX_RATE)) {
		rt = (uint64_t)f->rt + a;
		f->rt = rt > PCC_DEV_MAX_RATE ? PCC_DEV_MAX_RATE : (uint32_t)rt;
		f->rc = (f->rc + f->rt + 1) >> 1;
		return 1;
	}
	if (f->rt >= PCC_DEV_MAX_RATE) {
		/* the first m >= 1 with D >> m = 0 */
		d = f->rt - f->rc;
		m = d > 1 ? 32 - (uint32_t)__builtin_clz(d) : 1;
		m = m < n ? m : n;
		f->rc = PCC_DEV_MAX_RATE - (d >> m);
		return m;
	}
	m = a != 0 ? (PCC_DEV_MAX_RATE - f->rt) / a : n;
	m = m < n ? m : n;
	/* E within (-2^32, 2^32): past 33 halvings it is 1 or 0 */
	e = (int64_t)a - ((int64_t)f->rt - (int64_t)f->rc);
	sh = m < 34 ? m : 34;
	e = e >= 0 ? (e + (INT64_C(1) << sh) - 1) >> sh : -((-e) >> sh);
	f->rt += m * a;
	f->rc = (uint32_t)((int64_t)f->rt - ((int64_t)a - e));
	return m;
}

/*
 * n increase steps (a timer step each, or a byte counter step each if
 * byte), at most DCQCN_MAX_STEPS: in runs of one kind, each applied at
 * once by dcqcn_inc_run().  The kind can change only where the stage that
 * moves reaches F and F + 1 (the other stays), so a run ends there; a
 * flow idle for a long time takes a few runs, not n steps.
 */
static void
dcqcn_increase_steps(struct dcqcn_ctx *f, const struct dcqcn_cfg *c, uint32_t n, int byte,
		struct algo_cnt *k)
{
	const uint32_t inc[3] = { 0, c->rai, c->rhai };
	uint32_t cnt[3] = { 0, 0, 0 };
	uint32_t t, b, s, kind, m;

	if (n > DCQCN_MAX_STEPS)
		n = DCQCN_MAX_STEPS;
	while (n > 0) {
		t = f->t_stage;
		b = c->bc_bytes != 0 ? f->b_stage : t;
		kind = dcqcn_inc_kind(c, t, b);
		s = byte ? b : t;
		m = s < c->f ? c->f - s : s == c->f ? 1 : n;
		m = dcqcn_inc_run(f, inc[kind], m < n ? m : n);
		n -= m;
		cnt[kind] += m;
		if (byte)
			f->b_stage = (uint8_t)dcqcn_stage_add(f->b_stage, m);
		else
			f->t_stage = (uint8_t)dcqcn_stage_add(f->t_stage, m);
		if (f->rc >= PCC_DEV_MAX_RATE && f->rt >= PCC_DEV_MAX_RATE) {
			f->rc = PCC_DEV_MAX_RATE;
			f->flags &= (uint8_t)~DCQCN_F_INC;
			break;
		}
	}
	for (kind = 0; kind < 3; kind++)
		if (cnt[kind] != 0)
			algo_cnt_add(k, dcqcn_kind_ctr[kind], cnt[kind]);
	if (byte)
		algo_cnt_add(k, DCQCN_C_INC_BYTE, cnt[0] + cnt[1] + cnt[2]);
}

/*
 * dcqcn_increase_steps(), inline for a flow at line rate already (a cut
 * that took nothing: alpha had decayed to 0): its first step keeps RT and
 * RC at the maximum and ends the increase, whatever its kind.  So a flow
 * at line rate that sees a CNP now and then pays no step loop.
 */
static inline void
dcqcn_increase(struct dcqcn_ctx *f, const struct dcqcn_cfg *c, uint32_t n, int byte,
		struct algo_cnt *k)
{
	uint32_t t = f->t_stage;

	if (!(f->rc >= PCC_DEV_MAX_RATE && f->rt >= PCC_DEV_MAX_RATE && n != 0)) {
		dcqcn_increase_steps(f, c, n, byte, k);
		return;
	}
	algo_cnt_add(k, dcqcn_kind_ctr[dcqcn_inc_kind(c, t, c->bc_bytes != 0 ? f->b_stage : t)], 1);
	if (byte) {
		f->b_stage = (uint8_t)dcqcn_stage_add(f->b_stage, 1);
		algo_cnt_add(k, DCQCN_C_INC_BYTE, 1);
	} else {
		f->t_stage = (uint8_t)dcqcn_stage_add(t, 1);
	}
	f->rc = PCC_DEV_MAX_RATE;
	f->rt = PCC_DEV_MAX_RATE;
	f->flags &= (uint8_t)~DCQCN_F_INC;
}

/* Account for the timer periods that ended by time ts. */
static void
dcqcn_timers(struct dcqcn_ctx *f, const struct dcqcn_cfg *c, uint32_t ts, struct algo_cnt *k)
{
	uint32_t el, n;

	if (f->flags & DCQCN_F_ALPHA) {
		el = ts - f->alpha_ts;
		if (el >= c->t_alpha) {
			n = algo_div(el, c->t_alpha, c->t_alpha_inv);
			dcqcn_alpha_periods(f, c, n);
			f->alpha_ts += n * c->t_alpha;
		}
	}
	if ((f->flags & DCQCN_F_DEC_PEND) && ts - f->dec_ts >= c->t_dec) {
		dcqcn_decrease(f, c, f->dec_ts + c->t_dec, k);
		algo_cnt_add(k, DCQCN_C_DEC_DEFERRED, 1);
	}
	if (f->flags & DCQCN_F_INC) {
		el = ts - f->inc_ts;
		if (el >= c->t_inc) {
			n = algo_div(el, c->t_inc, c->t_inc_inv);
			f->inc_ts += n * c->t_inc;
			dcqcn_increase(f, c, n, 0, k);
		}
	}
}

static void
dcqcn_cnp(struct dcqcn_ctx *f, const struct dcqcn_cfg *c, uint32_t ts, struct algo_cnt *k)
{
	if (!(f->flags & DCQCN_F_ALPHA)) {
		f->alpha = DCQCN_ALPHA_ONE;
		f->alpha_ts = ts;
		f->flags |= DCQCN_F_ALPHA;
		f->rc = algo_rate_clamp(pcc_dev_fxp_mult(f->rc, c->first_cnp), c->min_rate);
		f->rt = f->rc;
	} else {
		f->flags |= DCQCN_F_ALPHA_CNP;
	}
	if (!(f->flags & DCQCN_F_DECD) || ts - f->dec_ts >= c->t_dec)
		dcqcn_decrease(f, c, ts, k);
	else
		f->flags |= DCQCN_F_DEC_PEND;
	algo_cnt_add(k, DCQCN_C_CNP, 1);
}

static void
dcqcn_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	struct dcqcn_ctx *f = ctx;
	const struct dcqcn_cfg *c = dcqcn_cfg_get(attr->port, attr->algo_slot);
	struct algo_cnt k = ALGO_CNT_INIT(attr);
	uint32_t n;

	if (ALGO_UNLIKELY(!(f->flags & DCQCN_F_INIT))) {
		f->rc = PCC_DEV_MAX_RATE;
		f->rt = PCC_DEV_MAX_RATE;
		f->flags = DCQCN_F_INIT;
	}
	if (f->flags & (DCQCN_F_ALPHA | DCQCN_F_INC))
		dcqcn_timers(f, c, ev->ts, &k);
	switch (ev->type) {
	case PCC_DEV_EVENT_CNP:
		dcqcn_cnp(f, c, ev->ts, &k);
		break;
	case PCC_DEV_EVENT_TX:
		if (c->bc_bytes != 0 && (f->flags & DCQCN_F_INC)) {
			f->bytes += (uint32_t)ev->tx.sent_32b * 32;
			if (f->bytes >= c->bc_bytes) {
				n = f->bytes / c->bc_bytes;
				f->bytes -= n * c->bc_bytes;
				dcqcn_increase(f, c, n, 1, &k);
			}
		}
		break;
	default:
		break;
	}
	res->rate = f->rc;
}

ALGO_MAILBOX(dcqcn)

const struct pcc_dev_algo_ops pcc_algo_dcqcn_ops = {
	.name = "dcqcn",
	.id = PCC_ALGO_DCQCN_ID,
	.major = 1,
	.minor = 0,
	.desc = "DCQCN reaction point: CNP-driven rate with alpha and increase timers",
	.ctx_size = DCQCN_CTX_SIZE,
	.params = dcqcn_params,
	.n_params = DCQCN_P_NUM,
	.counters = dcqcn_counters,
	.n_counters = DCQCN_C_NUM,
	.counter_units = dcqcn_units,
	.init = dcqcn_init,
	.on_event = dcqcn_on_event,
	.mailbox = dcqcn_mailbox,
	.set_params = dcqcn_set_params,
	.port_info_changed = dcqcn_port_info_changed,
};
