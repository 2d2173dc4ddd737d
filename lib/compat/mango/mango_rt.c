/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The libmango runtime (mango_rt.h): QP entries, the events of their
 * flows, the algorithm call every interval and the calls an algorithm
 * makes about its current QP.  Built into libpcc_mango and, with hidden
 * symbols, into every plug-in (pcc_mango_plugin).
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_log.h>

#include "mango_rt.h"
#include "pcc_dev_svc.h"

RTE_LOG_REGISTER(mango_logtype, pcc.mango, INFO);

const struct pcc_dev_counter_desc mango_rt_counters[MANGO_CTR_NB] = {
	{ .id = MANGO_CTR_CALLS, .name = "calls", .desc = "algorithm calls" },
	{ .id = MANGO_CTR_CNP, .name = "cnp", .desc = "CNPs received" },
	{ .id = MANGO_CTR_RTT, .name = "rtt_samples", .desc = "RTT samples" },
	{ .id = MANGO_CTR_WIN_UPDATES, .name = "window_updates", .desc = "window updates" },
	{ .id = MANGO_CTR_PROBES, .name = "rtt_probes", .desc = "RTT probes requested" },
	{ .id = MANGO_CTR_QPS, .name = "qps", .desc = "QPs that appeared" },
	{ .id = MANGO_CTR_UNTRACKED,
			.name = "untracked",
			.desc = "flows not followed: no QPN, or the QP table was full" },
};

/* A lib/dev counter of this thread (c may be NULL: counters disabled). */
static inline void
ctr_add(uint32_t *c, unsigned int id, uint32_t v)
{
	if (c != NULL)
		c[id] = c[id] > UINT32_MAX - v ? UINT32_MAX : c[id] + v;
}

/* What the algorithm running on this thread is about. */
struct mango_cur {
	struct mango_rt *rt;
	struct mango_qp *qp;
	uint32_t cnp;     /* CNPs for this call */
	uint32_t window;  /* the QP's window, as updated in this call */
	uint32_t updates; /* mango_pcc_window_update() calls */
	uint16_t poller;
	uint8_t in_algo;
	uint8_t rtt_req;
};

static __thread struct mango_cur cur;

/* Generations: never 0, so that a zeroed context is never current. */
static uint32_t gen_next = 1;

static uint32_t
gen_new(void)
{
	uint32_t g;

	do
		g = __atomic_fetch_add(&gen_next, 1, __ATOMIC_RELAXED);
	while (g == 0);
	return g;
}

/* ---- Runtime and algorithms ------------------------------------------------- */

struct mango_rt *
mango_rt_create(const char *name)
{
	struct mango_rt *rt = calloc(1, sizeof(*rt));

	if (rt == NULL)
		return NULL;
	rt->gen = gen_new();
	rt->default_slot = MANGO_RT_NO_SLOT;
	snprintf(rt->name, sizeof(rt->name), "%s", name != NULL ? name : "");
	return rt;
}

void
mango_rt_reset(struct mango_rt *rt)
{
	unsigned int s;

	rt->gen = gen_new();
	__atomic_store_n(&rt->nb_qps, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rt->active, 0, __ATOMIC_RELAXED);
	rt->untracked = 0;
	memset(rt->keys, 0, sizeof(rt->keys));
	memset(rt->vals, 0, sizeof(rt->vals));
	memset(rt->qp, 0, sizeof(rt->qp));
	for (s = 0; s < MANGO_PCC_MAX_SLOTS; s++)
		if (rt->algo[s] != NULL && rt->algo[s]->copies != NULL)
			memset(rt->algo[s]->copies, 0, MANGO_PCC_MAX_QPS * rt->algo[s]->stride);
}

void
mango_rt_free(struct mango_rt *rt)
{
	unsigned int s;

	if (rt == NULL)
		return;
	for (s = 0; s < MANGO_PCC_MAX_SLOTS; s++)
		mango_rt_algo_free(rt->algo[s]);
	free(rt);
}

struct mango_algo *
mango_rt_algo_new(mango_pcc_algo_fn *fn, mango_pcc_algo_event_fn *efn, uint32_t metrics,
		const void *init, size_t size)
{
	struct mango_algo *a = calloc(1, sizeof(*a));

	if (a == NULL)
		return NULL;
	a->fn = fn;
	a->efn = efn;
	a->metrics = metrics;
	a->size = size;
	if (size > 0) {
		a->stride = RTE_ALIGN_CEIL(size, (size_t)16);
		a->init = calloc(1, a->stride);
		/* untouched pages of the copies cost nothing */
		a->copies = calloc(MANGO_PCC_MAX_QPS, a->stride);
		if (a->init == NULL || a->copies == NULL) {
			mango_rt_algo_free(a);
			return NULL;
		}
		memcpy(a->init, init, size);
	}
	return a;
}

void
mango_rt_algo_free(struct mango_algo *a)
{
	if (a == NULL)
		return;
	free(a->init);
	free(a->copies);
	free(a);
}

struct mango_algo *
mango_rt_algo_swap(struct mango_rt *rt, unsigned int slot, struct mango_algo *a)
{
	struct mango_algo *old;
	uint32_t i, n = mango_rt_count(rt);

	old = __atomic_exchange_n(&rt->algo[slot], a, __ATOMIC_ACQ_REL);
	for (i = 0; i < n; i++)
		__atomic_fetch_and(&rt->qp[i].inited, ~(1u << slot), __ATOMIC_RELEASE);
	return old;
}

/* ---- QP entries --------------------------------------------------------------- */

static inline uint32_t
qpn_hash(uint32_t qpn)
{
	/* multiplicative: consecutive QPNs land on distinct buckets */
	return (qpn * 0x9E3779B1u) & (MANGO_RT_HASH - 1);
}

static void
qp_fill(struct mango_rt *rt, struct mango_qp *q, uint32_t qpn)
{
	q->qpn = qpn;
	q->window = MANGO_PCC_WINDOW_INIT;
	q->sel = __atomic_load_n(&rt->default_slot, __ATOMIC_ACQUIRE);
	q->win_sel = q->sel;
	__atomic_store_n(&q->ready, 1, __ATOMIC_RELEASE);
}

/*
 * The entry of qpn, made when it is new (*created).  NULL when another
 * worker is filling it (the next event finds it) or, with *full, when the
 * table is full.
 */
static struct mango_qp *
qp_get(struct mango_rt *rt, uint32_t qpn, uint32_t *idx, bool *created, bool *full)
{
	uint32_t key = qpn + 1, h = qpn_hash(qpn), i;

	for (i = 0; i < MANGO_RT_HASH; i++) {
		uint32_t pos = (h + i) & (MANGO_RT_HASH - 1);
		uint32_t k = __atomic_load_n(&rt->keys[pos], __ATOMIC_ACQUIRE), v;

		if (k == 0) {
			if (__atomic_load_n(&rt->nb_qps, __ATOMIC_RELAXED) >= MANGO_PCC_MAX_QPS)
				break;
			if (__atomic_compare_exchange_n(&rt->keys[pos], &k, key, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				uint32_t e = __atomic_fetch_add(&rt->nb_qps, 1, __ATOMIC_RELAXED);

				if (e >= MANGO_PCC_MAX_QPS) {
					__atomic_store_n(&rt->vals[pos], UINT32_MAX,
							__ATOMIC_RELEASE);
					break;
				}
				qp_fill(rt, &rt->qp[e], qpn);
				__atomic_store_n(&rt->vals[pos], e + 1, __ATOMIC_RELEASE);
				*idx = e;
				*created = true;
				return &rt->qp[e];
			}
			/* another worker took the bucket: k is its key now */
		}
		if (k != key)
			continue;
		v = __atomic_load_n(&rt->vals[pos], __ATOMIC_ACQUIRE);
		if (v == 0)
			return NULL;
		if (v == UINT32_MAX)
			break;
		*idx = v - 1;
		return &rt->qp[v - 1];
	}
	*full = true;
	return NULL;
}

struct mango_qp *
mango_rt_find(struct mango_rt *rt, uint32_t qpn)
{
	uint32_t key = qpn + 1, h = qpn_hash(qpn), i;

	if (qpn == UINT32_MAX)
		return NULL;
	for (i = 0; i < MANGO_RT_HASH; i++) {
		uint32_t pos = (h + i) & (MANGO_RT_HASH - 1);
		uint32_t k = __atomic_load_n(&rt->keys[pos], __ATOMIC_ACQUIRE), v;

		if (k == 0)
			return NULL;
		if (k != key)
			continue;
		v = __atomic_load_n(&rt->vals[pos], __ATOMIC_ACQUIRE);
		if (v == 0 || v == UINT32_MAX ||
				!__atomic_load_n(&rt->qp[v - 1].ready, __ATOMIC_ACQUIRE))
			return NULL;
		return &rt->qp[v - 1];
	}
	return NULL;
}

uint32_t
mango_rt_count(const struct mango_rt *rt)
{
	return RTE_MIN(__atomic_load_n(&rt->nb_qps, __ATOMIC_ACQUIRE), MANGO_PCC_MAX_QPS);
}

/* Count a flow of q in (the QP is active with its first flow). */
static void
qp_flow_in(struct mango_rt *rt, struct mango_qp *q)
{
	if (__atomic_fetch_add(&q->flows, 1, __ATOMIC_RELAXED) == 0)
		__atomic_fetch_add(&rt->active, 1, __ATOMIC_RELAXED);
}

static void
dec_floor(uint32_t *p, uint32_t *old)
{
	uint32_t n = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (n > 0 &&
			!__atomic_compare_exchange_n(
					p, &n, n - 1, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	*old = n;
}

/* The QP of a flow's event: its context's entry, or a new one. */
static struct mango_qp *
flow_qp(struct mango_rt *rt, struct mango_flow *fl, const struct pcc_dev_event *ev, uint32_t *c,
		uint32_t *idx)
{
	bool created = false, full = false;
	struct mango_qp *q;

	if (likely(fl->gen == rt->gen)) {
		if (fl->idx1 == 0)
			return NULL; /* untracked */
		*idx = fl->idx1 - 1;
		return &rt->qp[fl->idx1 - 1];
	}
	/* a new flow (zeroed context), or one of an earlier generation */
	q = NULL;
	if (ev->flow_qpn != 0)
		q = qp_get(rt, ev->flow_qpn, idx, &created, &full);
	else
		full = true; /* not a RoCE flow */
	if (q == NULL) {
		if (!full)
			return NULL; /* another worker is filling it: next event */
		fl->gen = rt->gen;
		fl->idx1 = 0;
		fl->flags = MANGO_FLOW_UNTRACKED;
		if (__atomic_fetch_add(&rt->untracked, 1, __ATOMIC_RELAXED) == 0)
			MANGO_LOG(WARNING, "%s: flow of QP 0x%x not followed (%s; at most %u QPs)",
					rt->name, ev->flow_qpn,
					ev->flow_qpn == 0 ? "not a RoCE flow" :
							    "the QP table is full",
					MANGO_PCC_MAX_QPS);
		ctr_add(c, MANGO_CTR_UNTRACKED, 1);
		return NULL;
	}
	fl->gen = rt->gen;
	fl->idx1 = *idx + 1;
	fl->flags = 0;
	qp_flow_in(rt, q);
	if (created)
		ctr_add(c, MANGO_CTR_QPS, 1);
	return q;
}

/* ---- The algorithm call ------------------------------------------------------- */

static uint32_t
window_clamp(uint64_t w)
{
	return w < MANGO_PCC_WINDOW_MIN ? MANGO_PCC_WINDOW_MIN :
			w > UINT32_MAX  ? UINT32_MAX :
					  (uint32_t)w;
}

static void
run_algo(struct mango_rt *rt, struct mango_qp *q, uint32_t idx, struct pcc_dev_results *res,
		uint32_t *c)
{
	uint32_t sel = __atomic_load_n(&q->sel, __ATOMIC_ACQUIRE);
	uint8_t slot = (uint8_t)sel;
	const struct mango_algo *a;
	void *params = NULL;
	uint32_t old;

	if (slot >= MANGO_PCC_MAX_SLOTS)
		return;
	a = __atomic_load_n(&rt->algo[slot], __ATOMIC_ACQUIRE);
	if (a == NULL)
		return;
	if (a->size > 0) {
		params = a->copies + (size_t)idx * a->stride;
		if (!(__atomic_load_n(&q->inited, __ATOMIC_ACQUIRE) & (1u << slot))) {
			memcpy(params, a->init, a->size);
			__atomic_fetch_or(&q->inited, 1u << slot, __ATOMIC_RELEASE);
		}
	}
	cur.rt = rt;
	cur.qp = q;
	cur.cnp = q->cnp_pending;
	cur.window = q->window;
	cur.updates = 0;
	cur.rtt_req = 0;
	cur.poller = pcc_dev_thread_rank();
	cur.in_algo = 1;
	if (a->efn != NULL) {
		mango_pcc_context_t mc;
		mango_pcc_result_t r;

		memset(&mc, 0, sizeof(mc));
		mc.current_window = q->window;
		if (a->metrics & MANGO_PCC_METRIC_CNP)
			mc.cnp_delta = q->cnp_pending;
		if (a->metrics & MANGO_PCC_METRIC_RTT) {
			mc.latest_rtt_ns = q->rtt_ns;
			mc.rtt_updated = q->rtt_new;
		}
		mc.active_qp_count = __atomic_load_n(&rt->active, __ATOMIC_RELAXED);
		r = a->efn(params, &mc);
		if (r.new_window != 0 && r.new_window != mc.current_window) {
			cur.window = window_clamp(r.new_window);
			cur.updates++;
		}
		if (r.request_rtt_probe != 0)
			cur.rtt_req = 1;
	} else {
		a->fn(params);
	}
	cur.in_algo = 0;
	q->cnp_pending = 0;
	q->rtt_new = 0;
	q->poller = cur.poller;
	if (cur.updates > 0) {
		/*
		 * The count restarts here, not in mango_rt_apply(): a call
		 * that began under the old slot counts for the old slot.
		 */
		old = q->win_sel == sel ? q->win_updates : 0;
		__atomic_store_n(&q->window, cur.window, __ATOMIC_RELAXED);
		__atomic_store_n(&q->win_updates, old + cur.updates, __ATOMIC_RELAXED);
		__atomic_store_n(&q->win_sel, sel, __ATOMIC_RELEASE);
		ctr_add(c, MANGO_CTR_WIN_UPDATES, cur.updates);
	}
	if (cur.rtt_req) {
		res->rtt_req = 1;
		ctr_add(c, MANGO_CTR_PROBES, 1);
	}
	ctr_add(c, MANGO_CTR_CALLS, 1);
}

void
mango_rt_event(struct mango_rt *rt, void *ctx, const struct pcc_dev_event *ev,
		const struct pcc_dev_attr *attr, struct pcc_dev_results *res)
{
	uint32_t *c = pcc_dev_counters(attr->port, attr->algo_slot);
	struct mango_qp *q;
	uint32_t idx = 0, n, rtt, total, np;

	q = flow_qp(rt, ctx, ev, c, &idx);
	if (q == NULL)
		return;
	switch (ev->type) {
	case PCC_DEV_EVENT_CNP:
		n = ev->ack.coalesced > 0 ? ev->ack.coalesced : 1;
		q->cnp_pending = q->cnp_pending > UINT32_MAX - n ? UINT32_MAX : q->cnp_pending + n;
		__atomic_store_n(&q->cnp_total, q->cnp_total + n, __ATOMIC_RELAXED);
		ctr_add(c, MANGO_CTR_CNP, n);
		break;
	case PCC_DEV_EVENT_RTT:
		/* network RTT: the NP's turnaround taken out when smaller */
		total = ev->ts - ev->rtt.req_send_ts;
		np = ev->rtt.resp_send_ts - ev->rtt.req_recv_ts;
		rtt = np < total ? total - np : total;
		q->rtt_ns = rtt;
		q->rtt_new = 1;
		ctr_add(c, MANGO_CTR_RTT, 1);
		break;
	case PCC_DEV_EVENT_TIMER:
		run_algo(rt, q, idx, res, c);
		break;
	default:
		break;
	}
	res->window = q->window;
}

void
mango_rt_flow_end(struct mango_rt *rt, void *ctx)
{
	struct mango_flow *fl = ctx;
	uint32_t old;

	if (fl->gen != rt->gen || fl->idx1 == 0 || fl->idx1 > MANGO_PCC_MAX_QPS)
		return;
	dec_floor(&rt->qp[fl->idx1 - 1].flows, &old);
	if (old == 1)
		dec_floor(&rt->active, &old);
	memset(fl, 0, sizeof(*fl));
}

void
mango_rt_disable_mask(uint32_t *mask)
{
	*mask |= ~(PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_CNP) | PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_RTT) |
			PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_TIMER));
}

/* ---- Control-thread views ------------------------------------------------------ */

uint32_t
mango_rt_active_list(const struct mango_rt *rt, uint32_t *out)
{
	uint32_t i, k = 0, n = mango_rt_count(rt);

	for (i = 0; i < n; i++) {
		const struct mango_qp *q = &rt->qp[i];

		if (__atomic_load_n(&q->ready, __ATOMIC_ACQUIRE) &&
				__atomic_load_n(&q->flows, __ATOMIC_RELAXED) > 0)
			out[k++] = q->qpn;
	}
	return k;
}

void
mango_rt_baseline(struct mango_rt *rt)
{
	uint32_t i, n = mango_rt_count(rt);

	for (i = 0; i < n; i++)
		rt->qp[i].cnp_base = __atomic_load_n(&rt->qp[i].cnp_total, __ATOMIC_RELAXED);
}

void
mango_rt_apply(struct mango_rt *rt, struct mango_qp *q, uint8_t slot)
{
	uint32_t sel = __atomic_load_n(&q->sel, __ATOMIC_RELAXED);

	RTE_SET_USED(rt);
	if ((uint8_t)sel == slot)
		return;
	/* a new change number: the owner restarts the update count */
	__atomic_store_n(&q->sel, ((sel >> 8) + 1) << 8 | slot, __ATOMIC_RELEASE);
}

bool
mango_rt_slot_used(const struct mango_rt *rt, unsigned int slot)
{
	uint32_t i, n = mango_rt_count(rt);

	if (__atomic_load_n(&rt->default_slot, __ATOMIC_RELAXED) == slot)
		return true;
	for (i = 0; i < n; i++)
		if (__atomic_load_n(&rt->qp[i].ready, __ATOMIC_ACQUIRE) &&
				mango_rt_qp_slot(&rt->qp[i]) == slot)
			return true;
	return false;
}

uint64_t
mango_rt_qp_cnp(const struct mango_qp *q)
{
	uint64_t t = __atomic_load_n(&q->cnp_total, __ATOMIC_RELAXED);

	return t >= q->cnp_base ? t - q->cnp_base : 0;
}

uint32_t
mango_rt_qp_win_count(const struct mango_qp *q)
{
	uint32_t sel = __atomic_load_n(&q->sel, __ATOMIC_RELAXED);

	/* nothing yet under the current slot when the owner's count is older */
	if (__atomic_load_n(&q->win_sel, __ATOMIC_ACQUIRE) != sel)
		return 0;
	return __atomic_load_n(&q->win_updates, __ATOMIC_RELAXED);
}

uint32_t
mango_rt_qp_window(const struct mango_qp *q)
{
	return __atomic_load_n(&q->window, __ATOMIC_RELAXED);
}

uint8_t *
mango_rt_qp_params(const struct mango_rt *rt, const struct mango_algo *a, uint32_t i,
		unsigned int slot)
{
	if (a == NULL || a->size == 0 || i >= mango_rt_count(rt) ||
			!(__atomic_load_n(&rt->qp[i].inited, __ATOMIC_ACQUIRE) & (1u << slot)))
		return NULL;
	return a->copies + (size_t)i * a->stride;
}

/* ---- Parameter types ------------------------------------------------------------ */

size_t
mango_param_size(mango_pcc_param_type_e type)
{
	static const uint8_t size[MANGO_PCC_PARAM_TYPE_MAX] = { 1, 2, 4, 8, 1, 2, 4, 8, 4, 8 };

	return (unsigned int)type < MANGO_PCC_PARAM_TYPE_MAX ? size[type] : 0;
}

const char *
mango_param_type_name(mango_pcc_param_type_e type)
{
	static const char *const names[MANGO_PCC_PARAM_TYPE_MAX] = { "uint8", "uint16", "uint32",
		"uint64", "int8", "int16", "int32", "int64", "float", "double" };

	return (unsigned int)type < MANGO_PCC_PARAM_TYPE_MAX ? names[type] : "?";
}

/* ---- Inside the algorithm ------------------------------------------------------- */

static bool
in_algo(const char *call)
{
	if (likely(cur.in_algo))
		return true;
	MANGO_LOG(ERR, "%s: called outside a PCC algorithm (no current QP)", call);
	return false;
}

unsigned int
mango_pcc_window_current(void)
{
	return in_algo(__func__) ? cur.window : 0;
}

void
mango_pcc_window_update(unsigned int new_window)
{
	if (!in_algo(__func__))
		return;
	cur.window = window_clamp(new_window);
	cur.updates++;
}

unsigned int
mango_pcc_event_cnp_cnt(void)
{
	return in_algo(__func__) ? cur.cnp : 0;
}

unsigned int
mango_pcc_event_get_val(mango_pcc_event_e event)
{
	if (!in_algo(__func__))
		return 0;
	switch (event) {
	case MANGO_PCC_EVENT_CNP:
		return cur.cnp;
	case MANGO_PCC_EVENT_RTT:
		return cur.qp->rtt_ns;
	case MANGO_PCC_EVENT_RTT_UPDATED:
		return cur.qp->rtt_new;
	case MANGO_PCC_EVENT_ACTIVE_QPS:
		return __atomic_load_n(&cur.rt->active, __ATOMIC_RELAXED);
	case MANGO_PCC_EVENT_QP_NUM:
		return cur.qp->qpn;
	case MANGO_PCC_EVENT_POLLER:
		return cur.poller;
	default:
		MANGO_LOG(ERR, "%s: event %d is not a mango_pcc_event_e (0..%d)", __func__,
				(int)event, MANGO_PCC_EVENT_MAX - 1);
		return 0;
	}
}

mango_status_e
mango_pcc_event_request(mango_pcc_event_e event)
{
	if ((unsigned int)event >= MANGO_PCC_EVENT_MAX) {
		MANGO_LOG(ERR, "%s: event %d is not a mango_pcc_event_e (0..%d)", __func__,
				(int)event, MANGO_PCC_EVENT_MAX - 1);
		return MANGO_STATUS_INVALID_ARG;
	}
	if (!in_algo(__func__))
		return MANGO_STATUS_INVALID_STATE;
	if (event != MANGO_PCC_EVENT_RTT) {
		MANGO_LOG(ERR, "%s: event %d has no action (only MANGO_PCC_EVENT_RTT: a probe)",
				__func__, (int)event);
		return MANGO_STATUS_NOT_SUPPORTED;
	}
	cur.rtt_req = 1;
	return MANGO_STATUS_SUCCESS;
}

void
mango_pcc_log(mango_log_level_e level, const char *fmt, ...)
{
	uint32_t lvl;
	char msg[512];
	va_list ap;
	size_t n;

	switch (level) {
	case MANGO_LOG_LEVEL_CRITICAL:
		lvl = RTE_LOG_CRIT;
		break;
	case MANGO_LOG_LEVEL_ERROR:
		lvl = RTE_LOG_ERR;
		break;
	case MANGO_LOG_LEVEL_WARNING:
		lvl = RTE_LOG_WARNING;
		break;
	case MANGO_LOG_LEVEL_INFO:
		lvl = RTE_LOG_INFO;
		break;
	case MANGO_LOG_LEVEL_DEBUG:
		lvl = RTE_LOG_DEBUG;
		break;
	default:
		MANGO_LOG(ERR,
				"mango_pcc_log: level %d is not a mango_log_level_e (1..5): logged "
				"as an error",
				(int)level);
		lvl = RTE_LOG_ERR;
		break;
	}
	if (fmt == NULL) {
		MANGO_LOG(ERR, "mango_pcc_log: NULL format");
		return;
	}
	if (!rte_log_can_log(mango_logtype, lvl))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	n = strlen(msg);
	while (n > 0 && msg[n - 1] == '\n')
		msg[--n] = '\0';
	if (cur.in_algo)
		rte_log(lvl, mango_logtype, "pcc.mango[poller %u qp 0x%x]: %s\n", cur.poller,
				cur.qp->qpn, msg);
	else
		rte_log(lvl, mango_logtype, "pcc.mango[main]: %s\n", msg);
}
