/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * hpcc: HPCC (Li et al., SIGCOMM 2019) as in its reference simulator,
 * single-rate ("aggregate") variant with fast reaction.  Feedback is the
 * INT header echoed in ACKs (ev->ack.int_hdr; struct pcc_int_hdr).
 *
 * Per ACK with INT, for every hop j whose timestamp moved:
 *
 *   u_j = txRate_j / B_j + min(qlen_j, qlen_prev_j) / (B_j T)
 *   txRate_j = (tx_bytes_j - tx_bytes_prev_j) / (time_j - time_prev_j)
 *
 * (24-bit time and 20-bit byte counters taken modulo their width), then
 * with the largest u_j and its time difference tau = min(dt, T):
 *
 *   U = (U (T - tau) + u tau) / T
 *   U / eta >= 1 or stage >= max_stage:  R = Rc / (U / eta) + R_AI, stage 0
 *   otherwise:                           R = Rc + R_AI,            stage + 1
 *
 * R is clamped to [min_rate, line rate] and applied on every ACK (fast
 * reaction; with fast_react 0 only once per RTT).  With var_win (default,
 * as the reference simulator runs HPCC) the result also carries a window
 * of R x T bytes (the BDP at R): bytes in flight are bounded by what one
 * base RTT at the current rate carries, so a rate raised on an old
 * measurement cannot put more than a BDP into the network before the next
 * one (without it, a flow at a few Gb/s that measures a low U multiplies
 * its rate by eta / U and overshoots for an RTT).  Rc and stage are
 * committed once per RTT: when the ACK's PSN reaches the next PSN to send
 * recorded at the previous commit (TX events carry the PSN of their last
 * packet in ev->sn); before the flow's first TX event, when T elapsed
 * since the previous commit.  The first ACK with INT only stores the hop
 * values.  New flows start at line rate with U = 1 (the reference
 * simulator's hp.u = 1: a new flow reacts to the first overload it
 * measures instead of waiting for the EWMA to climb from 0).
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pcc_dev.h>
#include <pcc_proto_tlm.h>

#include "algo_common.h"
#include "pcc_algos.h"

enum {
	HPCC_P_LINE_RATE,
	HPCC_P_MIN_RATE,
	HPCC_P_ETA,
	HPCC_P_MAX_STAGE,
	HPCC_P_RAI,
	HPCC_P_BASE_RTT,
	HPCC_P_FAST_REACT,
	HPCC_P_VAR_WIN,
	HPCC_P_NUM,
};

static const struct pcc_dev_param_desc hpcc_params[HPCC_P_NUM] = {
	{ HPCC_P_LINE_RATE, "line_rate_gbps", 0, 0, 1600, PCC_DEV_PERM_RW,
			"line rate, Gb/s (0: the port speed, 100 if unknown)" },
	{ HPCC_P_MIN_RATE, "min_rate_mbps", 100, 1, 1600000, PCC_DEV_PERM_RW, "lowest rate, Mb/s" },
	{ HPCC_P_ETA, "eta", 62259, 1, 65536, PCC_DEV_PERM_RW,
			"target utilisation, 16-bit fixed point (62259 = 0.95)" },
	{ HPCC_P_MAX_STAGE, "max_stage", 5, 0, 255, PCC_DEV_PERM_RW,
			"additive-only steps before a multiplicative update" },
	{ HPCC_P_RAI, "rai_mbps", 40, 0, 1600000, PCC_DEV_PERM_RW,
			"additive increase, Mb/s (40 at 100G)" },
	{ HPCC_P_BASE_RTT, "base_rtt_ns", 10000, 100, 100000000, PCC_DEV_PERM_RW,
			"T: base RTT, ns (queue term and EWMA period)" },
	{ HPCC_P_FAST_REACT, "fast_react", 1, 0, 1, PCC_DEV_PERM_RW,
			"1: apply R on every ACK; 0: once per RTT" },
	{ HPCC_P_VAR_WIN, "var_win", 1, 0, 1, PCC_DEV_PERM_RW,
			"1: also a window of R x base_rtt bytes in flight; 0: rate only" },
};

enum {
	HPCC_C_ACKS_INT,
	HPCC_C_COMMITS,
	HPCC_C_MD,
	HPCC_C_AI,
	HPCC_C_NO_INT,
	HPCC_C_U_MAX,
	HPCC_C_RATE_MIN,
	HPCC_C_NUM,
};

static const uint8_t hpcc_units[HPCC_C_NUM] = {
	[HPCC_C_U_MAX] = PCC_DEV_UNIT_FXP16,
	[HPCC_C_RATE_MIN] = PCC_DEV_UNIT_RATE,
};

static const struct pcc_dev_counter_desc hpcc_counters[HPCC_C_NUM] = {
	{ HPCC_C_ACKS_INT, "acks_int", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"ACKs with an INT header" },
	{ HPCC_C_COMMITS, "commits", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"per-RTT commits of Rc" },
	{ HPCC_C_MD, "commit_md", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"commits with a multiplicative update" },
	{ HPCC_C_AI, "commit_ai", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"commits with an additive-only update" },
	{ HPCC_C_NO_INT, "acks_no_int", 0, PCC_DEV_COUNTER_ACCUMULATE, PCC_DEV_PERM_RW,
			"ACKs without INT (ignored)" },
	{ HPCC_C_U_MAX, "u_max", 0, PCC_DEV_COUNTER_MAX, PCC_DEV_PERM_RW,
			"largest U, 16-bit fixed point" },
	{ HPCC_C_RATE_MIN, "rate_min", 0, PCC_DEV_COUNTER_MIN, PCC_DEV_PERM_RW,
			"lowest rate committed, 20-bit fixed point" },
};

struct hpcc_hop {
	uint32_t time;  /**< ns, 24 bit */
	uint32_t bytes; /**< 128-byte units, 20 bit */
	uint32_t qlen;  /**< 80-byte units */
};

/* Per-flow state: native context (88 bytes). */
struct hpcc_ctx {
	uint32_t rate;    /**< R applied, 20-bit fixed point */
	uint32_t rc;      /**< Rc committed */
	uint32_t u;       /**< U, 24-bit fixed point */
	uint32_t snd_nxt; /**< next PSN to send (HPCC_F_TX) */
	uint32_t win_end; /**< commit when an ACK reaches this PSN */
	uint32_t win_ts;  /**< time of the last commit */
	uint8_t flags;
	uint8_t stage;
	uint8_t n_hops; /**< hops stored */
	uint8_t pad;
	struct hpcc_hop hop[PCC_INT_MAX_HOPS];
};

#define HPCC_F_INIT 0x01
#define HPCC_F_TX 0x02  /* snd_nxt valid */
#define HPCC_F_INT 0x04 /* hop[] valid */
#define HPCC_F_WIN 0x08 /* win_end valid (PSN mode) */

#define HPCC_CTX_SIZE 128
_Static_assert(sizeof(struct hpcc_ctx) <= HPCC_CTX_SIZE, "hpcc context too large");
_Static_assert(HPCC_CTX_SIZE <= PCC_DEV_CTX_MAX, "hpcc context above PCC_DEV_CTX_MAX");

#define HPCC_U_SHIFT 24
#define HPCC_U_MAX (UINT32_C(255) << HPCC_U_SHIFT)
#define HPCC_TIME_MASK 0xFFFFFFu
#define HPCC_BYTES_MASK 0xFFFFFu

struct hpcc_cfg {
	uint32_t valid;
	uint32_t min_rate;
	uint32_t eta;
	uint32_t max_stage;
	uint32_t rai;
	uint32_t t;
	uint32_t fast_react;
	uint32_t var_win;
	uint64_t win_scale; /**< window bytes per 20-bit rate unit, 32.32 */
};

static void
hpcc_cfg_compute(struct hpcc_cfg *c, uint8_t port, const uint32_t *p)
{
	uint32_t line = algo_line_gbps(port, p[HPCC_P_LINE_RATE]);

	c->min_rate = pcc_dev_mbps_to_rate(p[HPCC_P_MIN_RATE], line);
	c->eta = p[HPCC_P_ETA];
	c->max_stage = p[HPCC_P_MAX_STAGE];
	c->rai = pcc_dev_mbps_to_rate(p[HPCC_P_RAI], line);
	c->t = p[HPCC_P_BASE_RTT];
	c->fast_react = p[HPCC_P_FAST_REACT];
	c->var_win = p[HPCC_P_VAR_WIN];
	/* line Gb/s x T ns / 8 bytes at line rate, per rate unit */
	c->win_scale = algo_win_scale(line, p[HPCC_P_BASE_RTT]);
	__atomic_store_n(&c->valid, 1, __ATOMIC_RELEASE);
}

ALGO_CFG_CACHE(hpcc, HPCC_P_NUM, algo_params_ok)

/* Hop line rate in Gb/s from its INT rate code, 0 if unknown. */
static uint32_t
hpcc_hop_gbps(uint8_t code)
{
	switch (code) {
	case PCC_INT_RATE_25G:
		return 25;
	case PCC_INT_RATE_50G:
		return 50;
	case PCC_INT_RATE_100G:
		return 100;
	case PCC_INT_RATE_200G:
		return 200;
	case PCC_INT_RATE_400G:
		return 400;
	default:
		return 0;
	}
}

static void
hpcc_store_hops(struct hpcc_ctx *f, const struct pcc_int_hdr *h, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		f->hop[i].time = h->hop[i].time_ns & HPCC_TIME_MASK;
		f->hop[i].bytes = h->hop[i].tx_bytes & HPCC_BYTES_MASK;
		f->hop[i].qlen = h->hop[i].qlen;
	}
	f->n_hops = (uint8_t)n;
	f->flags |= HPCC_F_INT;
}

/*
 * Largest hop utilisation (24-bit fixed point) since the stored hop
 * values, and its time difference in *tau.  0 with *tau = 0 when no hop
 * advanced.
 */
static uint64_t
hpcc_measure(const struct hpcc_ctx *f, const struct hpcc_cfg *c, const struct pcc_int_hdr *h,
		uint32_t n, uint32_t *tau)
{
	uint64_t u_max = 0, u, q;
	uint32_t i, dt, db, b;

	*tau = 0;
	for (i = 0; i < n; i++) {
		const struct pcc_int_hop *hp = &h->hop[i];

		dt = (hp->time_ns - f->hop[i].time) & HPCC_TIME_MASK;
		b = hpcc_hop_gbps(hp->rate_code);
		if (dt == 0 || b == 0)
			continue;
		db = (hp->tx_bytes - f->hop[i].bytes) & HPCC_BYTES_MASK;
		/* bytes * 8 / (dt ns * B Gb/s) */
		u = ((uint64_t)db * PCC_INT_BYTES_UNIT * 8 << HPCC_U_SHIFT) / ((uint64_t)dt * b);
		q = hp->qlen < f->hop[i].qlen ? hp->qlen : f->hop[i].qlen;
		u += (q * PCC_INT_QLEN_UNIT * 8 << HPCC_U_SHIFT) / ((uint64_t)c->t * b);
		if (u > HPCC_U_MAX)
			u = HPCC_U_MAX;
		if (u > u_max || *tau == 0) {
			u_max = u;
			*tau = dt;
		}
	}
	return u_max;
}

/* Is this ACK the end of the window (one RTT since the last commit)? */
static int
hpcc_window_end(struct hpcc_ctx *f, const struct hpcc_cfg *c, const struct pcc_dev_event *ev)
{
	if (f->flags & HPCC_F_WIN)
		return algo_psn_ge(ev->sn, f->win_end);
	return ev->ts - f->win_ts >= c->t;
}

static void
hpcc_window_start(struct hpcc_ctx *f, const struct pcc_dev_event *ev)
{
	f->win_ts = ev->ts;
	if (f->flags & HPCC_F_TX) {
		f->win_end = f->snd_nxt;
		f->flags |= HPCC_F_WIN;
	}
}

static void
hpcc_on_ack(struct hpcc_ctx *f, const struct hpcc_cfg *c, const struct pcc_dev_event *ev,
		struct algo_cnt *k)
{
	const struct pcc_int_hdr *h = ev->ack.int_hdr;
	uint32_t n, tau, stage;
	uint64_t u, r;
	int commit;

	if (h == NULL || h->n_hops == 0) {
		algo_cnt_add(k, HPCC_C_NO_INT, 1);
		return;
	}
	algo_cnt_add(k, HPCC_C_ACKS_INT, 1);
	n = h->n_hops < PCC_INT_MAX_HOPS ? h->n_hops : PCC_INT_MAX_HOPS;
	if (!(f->flags & HPCC_F_INT) || n != f->n_hops) {
		/* first feedback (or the path changed): store, start a window */
		hpcc_store_hops(f, h, n);
		hpcc_window_start(f, ev);
		return;
	}
	commit = hpcc_window_end(f, c, ev);
	if (!commit && !c->fast_react)
		return;

	u = hpcc_measure(f, c, h, n, &tau);
	hpcc_store_hops(f, h, n);
	if (tau == 0)
		goto out;
	if (tau > c->t)
		tau = c->t;
	f->u = (uint32_t)(((uint64_t)f->u * (c->t - tau) + u * tau) / c->t);

	/* U / eta >= 1  <=>  U >= eta */
	if ((uint64_t)f->u >= (uint64_t)c->eta << (HPCC_U_SHIFT - 16) || f->stage >= c->max_stage) {
		/* Rc / (U / eta) + R_AI */
		r = f->u == 0 ? PCC_DEV_MAX_RATE :
				((uint64_t)f->rc * c->eta << (HPCC_U_SHIFT - 16)) / f->u;
		r += c->rai;
		stage = 0;
	} else {
		r = (uint64_t)f->rc + c->rai;
		stage = f->stage + 1u;
	}
	f->rate = algo_rate_clamp(r, c->min_rate);
	if (commit) {
		f->rc = f->rate;
		f->stage = (uint8_t)(stage > UINT8_MAX ? UINT8_MAX : stage);
		algo_cnt_add(k, stage == 0 ? HPCC_C_MD : HPCC_C_AI, 1);
		algo_cnt_max(k, HPCC_C_U_MAX, f->u >> (HPCC_U_SHIFT - 16));
		algo_cnt_min(k, HPCC_C_RATE_MIN, f->rc);
	}
out:
	if (commit) {
		hpcc_window_start(f, ev);
		algo_cnt_add(k, HPCC_C_COMMITS, 1);
	}
}

static void
hpcc_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	struct hpcc_ctx *f = ctx;
	const struct hpcc_cfg *c = hpcc_cfg_get(attr->port, attr->algo_slot);
	struct algo_cnt k = ALGO_CNT_INIT(attr);

	if (ALGO_UNLIKELY(!(f->flags & HPCC_F_INIT))) {
		f->rate = PCC_DEV_MAX_RATE;
		f->rc = PCC_DEV_MAX_RATE;
		f->u = UINT32_C(1) << HPCC_U_SHIFT;
		f->flags = HPCC_F_INIT;
	}
	switch (ev->type) {
	case PCC_DEV_EVENT_TX:
		f->snd_nxt = (ev->sn + 1) & ALGO_PSN_MASK;
		f->flags |= HPCC_F_TX;
		break;
	case PCC_DEV_EVENT_ACK:
		hpcc_on_ack(f, c, ev, &k);
		break;
	default:
		break;
	}
	res->rate = f->rate;
	if (c->var_win) {
		/* W = B T bytes on the wire (the paper's window): counted in
		 * frames, not payload.  In payload, with our 116 bytes of
		 * headers and INT per 1000, the window was 11 % above the
		 * BDP and max_stage 0 without fast reaction kept oscillating
		 * (queue p99 15 KB); the reference's payload window with its
		 * 86 bytes of headers is 8 % above it */
		res->window = algo_rate_window(f->rate, c->win_scale);
		res->flags |= PCC_DEV_RES_F_WINDOW_WIRE;
	}
}

ALGO_MAILBOX(hpcc)

const struct pcc_dev_algo_ops pcc_algo_hpcc_ops = {
	.name = "hpcc",
	.id = PCC_ALGO_HPCC_ID,
	.major = 1,
	.minor = 0,
	.desc = "HPCC: rate from INT link utilisation, per-RTT commit, fast reaction",
	.ctx_size = HPCC_CTX_SIZE,
	.params = hpcc_params,
	.n_params = HPCC_P_NUM,
	.counters = hpcc_counters,
	.n_counters = HPCC_C_NUM,
	.counter_units = hpcc_units,
	.init = hpcc_init,
	.on_event = hpcc_on_event,
	.mailbox = hpcc_mailbox,
	.set_params = hpcc_set_params,
	.port_info_changed = hpcc_port_info_changed,
};
