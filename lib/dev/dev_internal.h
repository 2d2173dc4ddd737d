/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DEV_INTERNAL_H
#define DEV_INTERNAL_H

/*
 * lib/dev internals shared by dev_registry.c (algorithm registry, control
 * lock), dev_core.c (device state, slots, dispatch, memory),
 * dev_params.c (parameters), dev_counters.c (counters), dev_hist.c
 * (histograms), dev_svc.c (trace, printf, NIC provider) and dev_simple.c
 * (simple-algorithm wrapper, named parameters).  Nothing here is
 * exported: the version map exports pcc_* only, and every internal name
 * starts with dev_.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include "pcc_dev.h"
#include "pcc_dev_hist.h"
#include "pcc_dev_simple.h"
#include "pcc_dev_svc.h"

extern int dev_logtype;

#define DEV_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, dev_logtype, "pcc.dev: " fmt "\n", ##__VA_ARGS__)

/* Slots are indexed by their number: 0..7 and 0xF; 8..14 never valid. */
#define DEV_NB_SLOTS 16
#define DEV_VALID_SLOTS 0x80ffu
#define DEV_ALL_EVENTS 0xffffffffu

static inline bool
dev_slot_valid(uint8_t slot)
{
	return slot < DEV_NB_SLOTS && ((DEV_VALID_SLOTS >> slot) & 1u);
}

static inline bool
dev_idx_valid(uint8_t idx)
{
	return idx < PCC_DEV_MAX_ALGOS || idx == PCC_DEV_INTERNAL_SLOT;
}

/* ---- Registry ------------------------------------------------------ */

struct dev_simple; /* dev_simple.c */

/* Control lock (recursive: algorithm init callbacks may call back in). */
void dev_lock(void);
void dev_unlock(void);

/* Registered algorithm; simple != NULL for a pcc_dev_simple wrapper. */
struct dev_entry {
	const struct pcc_dev_algo_ops *ops;
	struct dev_simple *simple;
};

/* Under the lock.  NULL when unknown. */
const struct dev_entry *dev_registry_find(const char *name);
/* Validate and add (lock taken inside). */
int dev_registry_add(const struct pcc_dev_algo_ops *ops, struct dev_simple *simple);
/* Name charset check shared with the simple wrapper. */
bool dev_name_ok(const char *name, size_t max_len, bool upper_ok);

/* ---- Device state ---------------------------------------------------- */

struct dev_tls {
	uint16_t rank1;    /* rank + 1; 0 = never set */
	uint8_t overload;  /* attr->overload of this thread's dispatches */
	uint32_t cset;     /* dev_counter_set(), valid while cset_gen = dev_gen */
	uint32_t cset_gen; /* 0: not computed */
	/* what pcc_dev_dispatch() is running now (crash reports) */
	struct pcc_dev_dispatch_cur cur;
};

extern __thread struct dev_tls dev_tls __attribute__((tls_model("initial-exec")));

struct dev_slot {
	/* fast path, first cache line */
	void (*on_event)(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
			struct pcc_dev_results *res);
	uint32_t disable_mask;
	struct pcc_dev_attr attr; /* algo_slot, port, algo_idx preset */
	uint32_t *ctrs;           /* thread set 0's block; set t at t * stride */
	uint32_t stride;          /* words per thread set */
	uint32_t g0_size;         /* words of group 0 in a block */
	uint8_t n_groups;
	uint8_t counters_on;
	uint16_t hist_allowed; /* bit h: may update histogram h */
	uint32_t n_counters;
	uint32_t *params;
	void *priv; /* simple wrapper: the parameter struct */
	const struct dev_simple *simple;
	uint32_t active_flows;
	void (*on_flow_end)(void *ctx, const struct pcc_dev_attr *attr);
	/* control path */
	const struct pcc_dev_algo_ops *ops;
	uint32_t n_params; /* words allocated (declared) */
	uint8_t bound;
	uint8_t enabled;
	uint8_t ctr_type[PCC_DEV_MAX_COUNTERS];
	uint32_t ctr_max[PCC_DEV_MAX_COUNTERS];
	struct pcc_dev_mem_usage mem;
} __rte_cache_aligned;

struct dev_index {
	const struct pcc_dev_algo_ops *ops;
	struct dev_simple *simple;
};

struct dev_hist {
	uint8_t configured;
	uint8_t enabled;
	uint8_t mode;
	uint8_t n_bins;
	uint8_t lin_shift; /* LINEAR with a power-of-two step: log2(step) */
	uint32_t min;
	uint32_t step;
	uint32_t factor;
	uint32_t edges[PCC_DEV_HIST_MAX_BINS];
	char desc[PCC_DEV_DESC_MAX];
};

struct dev_port {
	struct dev_slot slot[DEV_NB_SLOTS];
	struct dev_index idx[DEV_NB_SLOTS];
	struct dev_hist hist[PCC_DEV_MAX_HISTS];
	uint32_t enabled_mask;                      /* bit s: user slot s enabled */
	uint64_t hist_err[PCC_DEV_MAX_THREADS + 1]; /* per thread set */
};

/* Per thread set: trace ring, printf ring, NIC counter config. */
struct dev_tset {
	/* producer side */
	struct pcc_dev_trace_rec *tr;
	uint32_t tr_mask;
	uint64_t tr_head;
	uint64_t tr_seq;
	uint64_t tr_lost;
	uint8_t *pr;
	uint32_t pr_size;
	uint64_t pr_head;
	uint64_t pr_msgs;
	uint64_t pr_lost;
	uint64_t pr_trunc;
	uint32_t nic_ids[PCC_DEV_NIC_COUNTERS_MAX];
	uint32_t nic_n;
	uint32_t *nic_values;
	/* consumer side */
	uint64_t tr_tail __rte_cache_aligned;
	uint64_t pr_tail;
} __rte_cache_aligned;

struct dev_state {
	uint8_t init;
	uint8_t n_ports;
	uint8_t n_groups;
	uint16_t n_threads;
	char default_algo[PCC_DEV_NAME_MAX];
	struct dev_tset *tset;      /* n_threads + 1 */
	size_t tset_bytes;          /* rings and tsets */
	rte_spinlock_t shared_lock; /* producers on the shared set */
	struct dev_port port[PCC_DEV_MAX_PORTS];
};

extern struct dev_state dev_g;

/* Thread set of the caller: its rank, or n_threads (shared) if none. */
static inline uint32_t
dev_thread_set(void)
{
	uint32_t r = (uint32_t)dev_tls.rank1 - 1u;

	return r < dev_g.n_threads ? r : dev_g.n_threads;
}

/* Worker threads sharing one counter set (pcc_dev_threads_per_counter_set). */
extern uint32_t dev_tpcs;

/* Bumped by pcc_dev_init() and pcc_dev_fini(): n_threads changes only
 * there, dev_tpcs only while the device is not made.  A thread's cached
 * counter set is good while its cset_gen equals it (never 0).  Relaxed:
 * no thread dispatches while the device is made or unmade (the counters
 * themselves are freed and allocated then). */
extern uint32_t dev_gen;

/* dev_counter_set() computed and kept in the calling thread's dev_tls. */
uint32_t dev_counter_set_fill(void);
/* Under the lock: every thread's cached counter set is stale. */
void dev_gen_bump(void);

/*
 * Counter set of the caller: its rank rounded down to a multiple of the
 * threads sharing a set (so they increment one array, as on DOCA), or the
 * shared set of threads without a rank.  Kept per thread (an algorithm's
 * counters are fetched on every event).
 */
static inline uint32_t
dev_counter_set(void)
{
	if (likely(dev_tls.cset_gen == __atomic_load_n(&dev_gen, __ATOMIC_RELAXED)))
		return dev_tls.cset;
	return dev_counter_set_fill();
}

/* The caller's counters of slot s (group 0; the other groups follow it),
 * NULL when it has none or they are off: pcc_dev_counters() and
 * pcc_dev_counters_group() once the slot is found. */
static inline uint32_t *
dev_slot_counters(const struct dev_slot *s)
{
	if (s->ctrs == NULL || !s->counters_on || s->n_groups == 0)
		return NULL;
	return s->ctrs + dev_counter_set() * s->stride;
}

/* Reset value of a group-0 counter: MIN counters start at their max. */
static inline uint32_t
dev_ctr_reset_value(const struct dev_slot *s, uint32_t id)
{
	return s->ctr_type[id] == PCC_DEV_COUNTER_MIN ? s->ctr_max[id] : 0;
}

/* Slot of (port, slot) or NULL; valid port and slot number only. */
static inline struct dev_slot *
dev_slot_get(uint8_t port, uint8_t slot)
{
	if (port >= dev_g.n_ports || !dev_slot_valid(slot))
		return NULL;
	return &dev_g.port[port].slot[slot];
}

/* Control-path slot lookup: 0, -ENODEV, -EINVAL or -ENOENT (unbound). */
int dev_check_slot(uint8_t port, uint8_t slot, struct dev_slot **sp);

/* Words of group g (>= 1) start at g0_size + (g - 1) * GROUP_SIZE. */
static inline uint32_t
dev_group_off(const struct dev_slot *s, uint32_t g)
{
	return g == 0 ? 0 : s->g0_size + (g - 1) * PCC_DEV_COUNTER_GROUP_SIZE;
}

/* Counter group holding histogram h, and its word offset there. */
#define DEV_HIST_GROUP(h) (1u + (uint32_t)(h) / 2u)
#define DEV_HIST_OFF(h) (((uint32_t)(h)&1u) * 32u)

static inline uint32_t
dev_ctr_read(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* Zero the bins of histogram h in every slot of port (under the lock). */
void dev_hist_clear_bins(uint8_t port, uint8_t h);

/* ---- Services -------------------------------------------------------- */

int dev_svc_init(void);
void dev_svc_fini(void);

/* ---- Simple wrapper -------------------------------------------------- */

void dev_simple_free(struct dev_simple *w);
uint32_t dev_simple_priv_size(const struct dev_simple *w);
/* Write the slot's parameter struct from its parameter words. */
void dev_simple_sync(struct dev_slot *s);

#endif /* DEV_INTERNAL_H */
