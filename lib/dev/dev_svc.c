/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Services: trace and printf rings, clock, NIC provider, ports.
 *
 * Each thread set has one trace ring (fixed 64-byte records) and one byte
 * ring for printf messages.  Positions are free-running 64-bit counters;
 * the producer publishes its head with a release store, the drain its
 * tail.  A printf record is a 16-byte header and the message (with its
 * NUL) padded to 16 bytes; a record never wraps: when it does not fit
 * before the end of the ring a pad record fills the rest.
 */

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "dev_internal.h"
#include "dev_tp.h"

static uint32_t cfg_trace_recs = PCC_DEV_TRACE_RING_DEFAULT;
static uint32_t cfg_printf_bytes = PCC_DEV_PRINTF_RING_DEFAULT;
static uint8_t trace_on = 1;

static pcc_dev_clock_fn clock_fn;
static void *clock_arg;

static struct pcc_dev_nic_provider nic;

#define PR_HDR 16u
#define PR_F_PAD 1u

struct pr_hdr {
	uint32_t len; /* message bytes without NUL; pad: bytes to skip */
	uint16_t thread;
	uint16_t flags;
	uint64_t ts;
};

static_assert(sizeof(struct pr_hdr) == PR_HDR, "printf header is 16 bytes");
static_assert(sizeof(struct pcc_dev_trace_rec) == 64, "trace record is 64 bytes");

/*
 * Before pcc_dev_init() (plug-ins load first, and a DOCA application
 * prints and traces from doca_pcc_dev_user_init()): a small store, drained
 * before the rings by the first drain after init.  Records have thread
 * PCC_DEV_THREAD_EARLY.  Only the loading thread writes then; the lock
 * covers a drain running at the same time as a late load.
 */
#define EARLY_TRACE_RECS 64u
#define EARLY_PRINTF_BYTES 4096u

static struct {
	pthread_mutex_t lock;
	struct pcc_dev_trace_rec tr[EARLY_TRACE_RECS];
	uint32_t n_tr;
	uint64_t tr_seq;
	uint64_t tr_lost;
	uint8_t pr[EARLY_PRINTF_BYTES];
	uint32_t pr_len;
	uint64_t pr_msgs;
	uint64_t pr_lost;
} early = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* ---- Clock ----------------------------------------------------------- */

void
pcc_dev_set_clock(pcc_dev_clock_fn fn, void *arg)
{
	clock_arg = arg;
	clock_fn = fn;
}

uint64_t
pcc_dev_now(void)
{
	pcc_dev_clock_fn fn = clock_fn;

	return fn != NULL ? fn(clock_arg) : rte_rdtsc();
}

uint64_t
pcc_dev_time_us(void)
{
	pcc_dev_clock_fn fn = clock_fn;
	struct timespec ts;

	if (fn != NULL)
		return fn(clock_arg) / 1000u;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* ---- Rings ----------------------------------------------------------- */

int
pcc_dev_svc_ring_sizes(uint32_t trace_recs, uint32_t printf_bytes)
{
	int rc = 0;

	dev_lock();
	if (dev_g.init)
		rc = -EBUSY;
	else if ((trace_recs != 0 &&
				 (!rte_is_power_of_2(trace_recs) || trace_recs < 16 ||
						 trace_recs > (1u << 20))) ||
			(printf_bytes != 0 &&
					(!rte_is_power_of_2(printf_bytes) || printf_bytes < 1024 ||
							printf_bytes > (1u << 24))))
		rc = -EINVAL;
	if (rc == 0) {
		if (trace_recs != 0)
			cfg_trace_recs = trace_recs;
		if (printf_bytes != 0)
			cfg_printf_bytes = printf_bytes;
	}
	dev_unlock();
	return rc;
}

static void *
ring_alloc(size_t size)
{
	void *p = NULL;

	if (posix_memalign(&p, RTE_CACHE_LINE_SIZE, size) != 0)
		return NULL;
	memset(p, 0, size);
	return p;
}

int
dev_svc_init(void)
{
	uint32_t sets = (uint32_t)dev_g.n_threads + 1, t;

	dev_g.tset = ring_alloc(sets * sizeof(struct dev_tset));
	if (dev_g.tset == NULL)
		return -ENOMEM;
	dev_g.tset_bytes = sets * sizeof(struct dev_tset);
	for (t = 0; t < sets; t++) {
		struct dev_tset *ts = &dev_g.tset[t];

		ts->tr = ring_alloc((size_t)cfg_trace_recs * sizeof(*ts->tr));
		ts->pr = ring_alloc(cfg_printf_bytes);
		if (ts->tr == NULL || ts->pr == NULL) {
			DEV_LOG(ERR, "no memory for trace/printf rings");
			return -ENOMEM;
		}
		ts->tr_mask = cfg_trace_recs - 1;
		ts->pr_size = cfg_printf_bytes;
		dev_g.tset_bytes += (size_t)cfg_trace_recs * sizeof(*ts->tr) + cfg_printf_bytes;
	}
	return 0;
}

void
dev_svc_fini(void)
{
	uint32_t t;

	if (dev_g.tset == NULL)
		return;
	for (t = 0; t <= dev_g.n_threads; t++) {
		free(dev_g.tset[t].tr);
		free(dev_g.tset[t].pr);
	}
	free(dev_g.tset);
	dev_g.tset = NULL;
	dev_g.tset_bytes = 0;
}

/* The caller's thread set, locked when it is the shared one. */
static inline struct dev_tset *
tset_acquire(uint32_t *set)
{
	*set = dev_thread_set();
	if (unlikely(*set == dev_g.n_threads))
		rte_spinlock_lock(&dev_g.shared_lock);
	return &dev_g.tset[*set];
}

static inline void
tset_release(uint32_t set)
{
	if (unlikely(set == dev_g.n_threads))
		rte_spinlock_unlock(&dev_g.shared_lock);
}

/* ---- Trace ----------------------------------------------------------- */

static void
early_trace(uint32_t fmt_id, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	struct pcc_dev_trace_rec *r;

	pthread_mutex_lock(&early.lock);
	if (early.n_tr == EARLY_TRACE_RECS) {
		early.tr_seq++;
		early.tr_lost++;
		pthread_mutex_unlock(&early.lock);
		return;
	}
	r = &early.tr[early.n_tr++];
	r->ts = pcc_dev_now();
	r->fmt_id = fmt_id;
	r->thread = PCC_DEV_THREAD_EARLY;
	r->reserved = 0;
	r->arg[0] = a1;
	r->arg[1] = a2;
	r->arg[2] = a3;
	r->arg[3] = a4;
	r->arg[4] = a5;
	r->seq = early.tr_seq++;
	pthread_mutex_unlock(&early.lock);
}

/* The early records, then none (dev_lock held). */
static int
early_trace_drain(pcc_dev_trace_cb cb, void *arg)
{
	uint32_t i, n;

	pthread_mutex_lock(&early.lock);
	n = early.n_tr;
	for (i = 0; i < n; i++)
		cb(&early.tr[i], arg);
	early.n_tr = 0;
	pthread_mutex_unlock(&early.lock);
	return (int)n;
}

static pcc_dev_trace_fmt_fn trace_fmt_fn;

void
pcc_dev_trace_fmt_register(pcc_dev_trace_fmt_fn fn)
{
	__atomic_store_n(&trace_fmt_fn, fn, __ATOMIC_RELEASE);
}

int
pcc_dev_trace_fmt_set(uint32_t fmt_id, const char *fmt)
{
	pcc_dev_trace_fmt_fn fn = __atomic_load_n(&trace_fmt_fn, __ATOMIC_ACQUIRE);

	return fn != NULL ? fn(fmt_id, fmt) : -ENOTSUP;
}

void
pcc_dev_trace_enable(bool enable)
{
	__atomic_store_n(&trace_on, enable ? 1 : 0, __ATOMIC_RELAXED);
}

void
pcc_dev_trace_5(uint32_t fmt_id, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	struct pcc_dev_trace_rec *r;
	struct dev_tset *ts;
	uint64_t head, tail, seq;
	uint32_t set;

	dev_tp_record(fmt_id, a1, a2, a3, a4, a5);
	if (unlikely(!__atomic_load_n(&trace_on, __ATOMIC_RELAXED)))
		return;
	if (unlikely(dev_g.tset == NULL)) {
		early_trace(fmt_id, a1, a2, a3, a4, a5);
		return;
	}
	ts = tset_acquire(&set);
	head = ts->tr_head;
	tail = __atomic_load_n(&ts->tr_tail, __ATOMIC_ACQUIRE);
	seq = ts->tr_seq;
	__atomic_store_n(&ts->tr_seq, seq + 1, __ATOMIC_RELAXED);
	if (unlikely(head - tail > ts->tr_mask)) {
		__atomic_store_n(&ts->tr_lost, ts->tr_lost + 1, __ATOMIC_RELAXED);
		tset_release(set);
		return;
	}
	r = &ts->tr[head & ts->tr_mask];
	r->ts = pcc_dev_now();
	r->fmt_id = fmt_id;
	r->thread = (uint16_t)set;
	r->reserved = 0;
	r->arg[0] = a1;
	r->arg[1] = a2;
	r->arg[2] = a3;
	r->arg[3] = a4;
	r->arg[4] = a5;
	r->seq = seq;
	__atomic_store_n(&ts->tr_head, head + 1, __ATOMIC_RELEASE);
	tset_release(set);
}

void
pcc_dev_trace_flush(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

int
pcc_dev_trace_drain(pcc_dev_trace_cb cb, void *arg)
{
	uint32_t t;
	int n = 0;

	if (cb == NULL)
		return -EINVAL;
	dev_lock();
	if (!dev_g.init) {
		dev_unlock();
		return -ENODEV;
	}
	n = early_trace_drain(cb, arg);
	for (t = 0; t <= dev_g.n_threads; t++) {
		struct dev_tset *ts = &dev_g.tset[t];
		uint64_t head = __atomic_load_n(&ts->tr_head, __ATOMIC_ACQUIRE);
		uint64_t tail = ts->tr_tail;

		while (tail != head) {
			cb(&ts->tr[tail & ts->tr_mask], arg);
			tail++;
			n++;
			__atomic_store_n(&ts->tr_tail, tail, __ATOMIC_RELEASE);
		}
	}
	dev_unlock();
	return n;
}

/* ---- printf ---------------------------------------------------------- */

static int
early_printf(const char *msg, uint32_t len, uint32_t need)
{
	struct pr_hdr *h;

	pthread_mutex_lock(&early.lock);
	if (early.pr_len + need > EARLY_PRINTF_BYTES) {
		early.pr_lost++;
		pthread_mutex_unlock(&early.lock);
		return -ENOSPC;
	}
	h = (struct pr_hdr *)(early.pr + early.pr_len);
	h->len = len;
	h->thread = PCC_DEV_THREAD_EARLY;
	h->flags = 0;
	h->ts = pcc_dev_now();
	memcpy(early.pr + early.pr_len + PR_HDR, msg, len);
	memset(early.pr + early.pr_len + PR_HDR + len, 0, need - PR_HDR - len);
	early.pr_len += need;
	early.pr_msgs++;
	pthread_mutex_unlock(&early.lock);
	return (int)len;
}

static int
early_printf_drain(pcc_dev_printf_cb cb, void *arg)
{
	const struct pr_hdr *h;
	uint32_t off = 0;
	int n = 0;

	pthread_mutex_lock(&early.lock);
	while (off < early.pr_len) {
		h = (const struct pr_hdr *)(early.pr + off);
		cb(h->thread, h->ts, (const char *)(early.pr + off + PR_HDR), h->len, arg);
		off += PR_HDR + RTE_ALIGN_CEIL(h->len + 1, PR_HDR);
		n++;
	}
	early.pr_len = 0;
	pthread_mutex_unlock(&early.lock);
	return n;
}

int
pcc_dev_vprintf(const char *fmt, va_list ap)
{
	char buf[PCC_DEV_PRINTF_MAX];
	struct dev_tset *ts;
	struct pr_hdr *h;
	uint64_t head, tail;
	uint32_t len, need, pos, contig, total, set;
	bool trunc = false;
	int n;

	if (fmt == NULL)
		return -EINVAL;
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0)
		return -EINVAL;
	len = (uint32_t)n;
	if (len >= PCC_DEV_PRINTF_MAX) {
		len = PCC_DEV_PRINTF_MAX - 1;
		trunc = true;
	}
	need = PR_HDR + RTE_ALIGN_CEIL(len + 1, PR_HDR);
	if (unlikely(dev_g.tset == NULL))
		return early_printf(buf, len, need);

	ts = tset_acquire(&set);
	head = ts->pr_head;
	tail = __atomic_load_n(&ts->pr_tail, __ATOMIC_ACQUIRE);
	pos = (uint32_t)(head & (ts->pr_size - 1));
	contig = ts->pr_size - pos;
	total = contig < need ? contig + need : need;
	if (unlikely(total > ts->pr_size - (head - tail))) {
		__atomic_store_n(&ts->pr_lost, ts->pr_lost + 1, __ATOMIC_RELAXED);
		tset_release(set);
		return -ENOSPC;
	}
	if (contig < need) {
		h = (struct pr_hdr *)(ts->pr + pos);
		h->len = contig;
		h->thread = (uint16_t)set;
		h->flags = PR_F_PAD;
		h->ts = 0;
		pos = 0;
	}
	h = (struct pr_hdr *)(ts->pr + pos);
	h->len = len;
	h->thread = (uint16_t)set;
	h->flags = 0;
	h->ts = pcc_dev_now();
	memcpy(ts->pr + pos + PR_HDR, buf, len);
	ts->pr[pos + PR_HDR + len] = '\0';
	__atomic_store_n(&ts->pr_msgs, ts->pr_msgs + 1, __ATOMIC_RELAXED);
	if (trunc)
		__atomic_store_n(&ts->pr_trunc, ts->pr_trunc + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&ts->pr_head, head + total, __ATOMIC_RELEASE);
	tset_release(set);
	return (int)len;
}

int
pcc_dev_printf(const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = pcc_dev_vprintf(fmt, ap);
	va_end(ap);
	return rc;
}

int
pcc_dev_printf_drain(pcc_dev_printf_cb cb, void *arg)
{
	uint32_t t;
	int n = 0;

	if (cb == NULL)
		return -EINVAL;
	dev_lock();
	if (!dev_g.init) {
		dev_unlock();
		return -ENODEV;
	}
	n = early_printf_drain(cb, arg);
	for (t = 0; t <= dev_g.n_threads; t++) {
		struct dev_tset *ts = &dev_g.tset[t];
		uint64_t head = __atomic_load_n(&ts->pr_head, __ATOMIC_ACQUIRE);
		uint64_t tail = ts->pr_tail;

		while (tail != head) {
			uint32_t pos = (uint32_t)(tail & (ts->pr_size - 1));
			const struct pr_hdr *h = (const struct pr_hdr *)(ts->pr + pos);

			if (h->flags & PR_F_PAD) {
				tail += h->len;
			} else {
				cb(h->thread, h->ts, (const char *)(ts->pr + pos + PR_HDR), h->len,
						arg);
				n++;
				tail += PR_HDR + RTE_ALIGN_CEIL(h->len + 1, PR_HDR);
			}
			__atomic_store_n(&ts->pr_tail, tail, __ATOMIC_RELEASE);
		}
	}
	dev_unlock();
	return n;
}

int
pcc_dev_svc_stats_get(struct pcc_dev_svc_stats *st)
{
	uint32_t t;

	if (st == NULL)
		return -EINVAL;
	dev_lock();
	if (!dev_g.init) {
		dev_unlock();
		return -ENODEV;
	}
	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&early.lock);
	st->trace_recs = early.tr_seq - early.tr_lost;
	st->trace_lost = early.tr_lost;
	st->printf_msgs = early.pr_msgs;
	st->printf_lost = early.pr_lost;
	pthread_mutex_unlock(&early.lock);
	for (t = 0; t <= dev_g.n_threads; t++) {
		const struct dev_tset *ts = &dev_g.tset[t];

		st->trace_recs += __atomic_load_n(&ts->tr_head, __ATOMIC_RELAXED);
		st->trace_lost += __atomic_load_n(&ts->tr_lost, __ATOMIC_RELAXED);
		st->printf_msgs += __atomic_load_n(&ts->pr_msgs, __ATOMIC_RELAXED);
		st->printf_lost += __atomic_load_n(&ts->pr_lost, __ATOMIC_RELAXED);
		st->printf_truncated += __atomic_load_n(&ts->pr_trunc, __ATOMIC_RELAXED);
	}
	dev_unlock();
	return 0;
}

/* ---- NIC provider, ports --------------------------------------------- */

void
pcc_dev_set_nic_provider(const struct pcc_dev_nic_provider *p)
{
	dev_lock();
	if (p != NULL)
		nic = *p;
	else
		memset(&nic, 0, sizeof(nic));
	dev_unlock();
}

int
pcc_dev_nic_counters_config(const uint32_t *ids, uint32_t n, uint32_t *values)
{
	struct dev_tset *ts;
	uint32_t i, set;

	if (dev_g.tset == NULL)
		return -ENODEV;
	if (n > PCC_DEV_NIC_COUNTERS_MAX || (n > 0 && (ids == NULL || values == NULL)))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if ((ids[i] >> 8) >= dev_g.n_ports || (ids[i] & 0xff) > PCC_DEV_NIC_TX_BYTES)
			return -EINVAL;
	}
	ts = tset_acquire(&set);
	if (n > 0)
		memcpy(ts->nic_ids, ids, n * sizeof(uint32_t));
	ts->nic_n = n;
	ts->nic_values = n > 0 ? values : NULL;
	tset_release(set);
	return 0;
}

int
pcc_dev_nic_counters_sample(void)
{
	struct dev_tset *ts;
	uint32_t i, set;
	uint64_t v;
	int rc = 0, r;

	if (dev_g.tset == NULL)
		return -ENODEV;
	ts = tset_acquire(&set);
	if (ts->nic_n == 0) {
		rc = -ENOENT;
	} else if (nic.counter == NULL) {
		rc = -ENODEV;
	} else {
		for (i = 0; i < ts->nic_n; i++) {
			r = nic.counter(nic.arg, (uint8_t)(ts->nic_ids[i] >> 8),
					(uint8_t)(ts->nic_ids[i] & 0xff), &v);
			if (r < 0)
				rc = r;
			else
				ts->nic_values[i] = (uint32_t)v;
		}
	}
	tset_release(set);
	return rc;
}

uint32_t
pcc_dev_logical_ports(void)
{
	uint32_t all;

	if (!dev_g.init)
		return 0;
	all = (1u << dev_g.n_ports) - 1;
	return nic.ports_mask != NULL ? nic.ports_mask(nic.arg) & all : all;
}

uint32_t
pcc_dev_port_speed(uint8_t port)
{
	if (!dev_g.init || port >= dev_g.n_ports || nic.speed_gbps == NULL)
		return 0;
	return nic.speed_gbps(nic.arg, port);
}

int
pcc_dev_port_info_changed(uint8_t port)
{
	const struct pcc_dev_algo_ops *done[DEV_NB_SLOTS];
	uint32_t i, j, n = 0;

	dev_lock();
	if (!dev_g.init || port >= dev_g.n_ports) {
		dev_unlock();
		return dev_g.init ? -EINVAL : -ENODEV;
	}
	for (i = 0; i < DEV_NB_SLOTS; i++) {
		const struct pcc_dev_algo_ops *ops = dev_g.port[port].idx[i].ops;

		if (ops == NULL)
			continue;
		for (j = 0; j < n && done[j] != ops; j++)
			;
		if (j < n)
			continue;
		done[n++] = ops;
		if (ops->port_info_changed != NULL)
			ops->port_info_changed(port);
	}
	dev_unlock();
	return 0;
}
