/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef MANGO_RT_H
#define MANGO_RT_H

/*
 * The libmango runtime: what runs an algorithm on the QPs of a device
 * inside a lib/dev algorithm.  Shared by the handle API (libpcc_mango:
 * one runtime per handle) and the plug-in glue (pcc_mango_plugin: one
 * per logical port and slot the plug-in's algorithm is bound to).
 *
 * A QP is a flow of the engine with a QPN.  Its entry is found through a
 * lock-free table (QPN -> entry), filled by the workers when a QP first
 * has an event and never emptied; the flow's lib/dev context remembers
 * its entry.  Each entry has one writer on the fast path (the worker that
 * owns the flow); the control thread reads the views and writes only the
 * baselines and the QP's slot.
 *
 * Internal to lib/compat/mango.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_log.h>

#include "libmango.h"
#include "pcc_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

extern int mango_logtype;
#define MANGO_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, mango_logtype, "pcc.mango: " fmt "\n", ##__VA_ARGS__)

/* Slot of a QP that runs no algorithm. */
#define MANGO_RT_NO_SLOT 0xffu
/* Hash of QPNs: twice the entries, a power of two. */
#define MANGO_RT_HASH (2u * MANGO_PCC_MAX_QPS)

/* lib/dev counters of a mango algorithm (per logical port and slot). */
enum mango_rt_counter {
	MANGO_CTR_CALLS = 0,   /* algorithm calls */
	MANGO_CTR_CNP,         /* CNPs received */
	MANGO_CTR_RTT,         /* RTT samples */
	MANGO_CTR_WIN_UPDATES, /* window updates */
	MANGO_CTR_PROBES,      /* RTT probes requested */
	MANGO_CTR_QPS,         /* QPs that appeared */
	MANGO_CTR_UNTRACKED,   /* flows not followed: table full */
	MANGO_CTR_NB
};
extern const struct pcc_dev_counter_desc mango_rt_counters[MANGO_CTR_NB];

/* A registered parameter. */
struct mango_param {
	char name[MANGO_PCC_PARAM_NAME_MAX];
	mango_pcc_param_type_e type;
	size_t offset;
};

/* An algorithm in a slot, with every QP's copy of its parameters. */
struct mango_algo {
	mango_pcc_algo_fn *fn;
	mango_pcc_algo_event_fn *efn;
	uint32_t metrics;
	size_t size;     /* parameter struct bytes (0: none) */
	size_t stride;   /* bytes per QP copy (size rounded up to 16) */
	uint8_t *init;   /* initial values, copied to a QP at its first call */
	uint8_t *copies; /* MANGO_PCC_MAX_QPS * stride */
	struct mango_param params[MANGO_PCC_MAX_PARAMS];
	uint32_t nb_params;
	struct mango_algo *retired_next; /* freed once no worker can run it */
};

/* A QP. */
struct mango_qp {
	uint32_t qpn;
	uint32_t flows;       /* its flows in the engine's tables (atomic) */
	uint32_t window;      /* bytes (owner writes) */
	uint32_t cnp_pending; /* CNPs since its last call (owner) */
	uint64_t cnp_total;   /* CNPs since it appeared (owner writes) */
	uint64_t cnp_base;    /* baseline of the views (control writes) */
	uint32_t sel;         /* slot it runs | changes << 8 (control writes) */
	uint32_t win_sel;     /* sel the updates below were made under (owner) */
	uint32_t win_updates; /* window updates under win_sel (owner writes) */
	uint32_t rtt_ns;      /* latest RTT sample */
	uint32_t inited;      /* bit s: its copy of slot s's parameters is set */
	uint16_t poller;      /* thread rank that ran it last */
	uint8_t rtt_new;      /* a sample arrived since its last call */
	uint8_t ready;        /* the entry is filled (release) */
};

struct mango_rt {
	uint32_t gen;         /* contexts of another generation are stale */
	uint32_t nb_qps;      /* entries handed out (atomic; may exceed MAX) */
	uint32_t active;      /* QPs with a flow (atomic) */
	uint8_t default_slot; /* slot a new QP runs (atomic), MANGO_RT_NO_SLOT */
	uint64_t untracked;   /* flows not followed (table full) */
	char name[48];        /* for log lines */
	struct mango_algo *algo[MANGO_PCC_MAX_SLOTS]; /* published with release */
	uint32_t keys[MANGO_RT_HASH];                 /* QPN + 1; 0 = free */
	uint32_t vals[MANGO_RT_HASH];                 /* entry + 1; 0 = being filled */
	struct mango_qp qp[MANGO_PCC_MAX_QPS];
	struct mango_rt *retired_next; /* freed once no worker can run it */
};

/* Per-flow context the runtime keeps in the lib/dev context. */
struct mango_flow {
	uint32_t gen;
	uint32_t idx1;  /* entry + 1, 0: none */
	uint32_t flags; /* MANGO_FLOW_* */
	uint32_t reserved;
};
#define MANGO_FLOW_UNTRACKED (1u << 0) /* no entry: the table was full */

/* Create (zeroed tables, no algorithm); NULL when out of memory. */
struct mango_rt *mango_rt_create(const char *name);
/* Forget every QP (contexts become stale); algorithms stay. */
void mango_rt_reset(struct mango_rt *rt);
/* Free rt and its algorithms (no worker may use them). */
void mango_rt_free(struct mango_rt *rt);

/*
 * An algorithm for a slot: one of fn / efn, the initial parameters (size
 * bytes, copied).  NULL with the reason in err when out of memory.
 */
struct mango_algo *mango_rt_algo_new(mango_pcc_algo_fn *fn, mango_pcc_algo_event_fn *efn,
		uint32_t metrics, const void *init, size_t size);
void mango_rt_algo_free(struct mango_algo *a);
/* Publish a in slot (NULL empties it); returns what was there.  QPs lose
 * their copies of the slot's parameters. */
struct mango_algo *mango_rt_algo_swap(struct mango_rt *rt, unsigned int slot, struct mango_algo *a);

/* ---- Fast path (the lib/dev algorithm's callbacks) ------------------------- */

void mango_rt_event(struct mango_rt *rt, void *ctx, const struct pcc_dev_event *ev,
		const struct pcc_dev_attr *attr, struct pcc_dev_results *res);
void mango_rt_flow_end(struct mango_rt *rt, void *ctx);
/* lib/dev init: events the runtime does not need are masked. */
void mango_rt_disable_mask(uint32_t *mask);

/* ---- Control thread ---------------------------------------------------------- */

/* The entry of qpn, or NULL. */
struct mango_qp *mango_rt_find(struct mango_rt *rt, uint32_t qpn);
/* Entries filled (<= MANGO_PCC_MAX_QPS); entry i is qp[i] when ready. */
uint32_t mango_rt_count(const struct mango_rt *rt);
/* QPNs of the active QPs into out (MANGO_PCC_MAX_QPS); returns how many. */
uint32_t mango_rt_active_list(const struct mango_rt *rt, uint32_t *out);
/* Baseline of every QP's CNP count: now. */
void mango_rt_baseline(struct mango_rt *rt);
/* Slot QP q runs, MANGO_RT_NO_SLOT for none. */
static inline uint8_t
mango_rt_qp_slot(const struct mango_qp *q)
{
	return (uint8_t)__atomic_load_n(&q->sel, __ATOMIC_RELAXED);
}
/* QP q runs slot from now (its window update count restarts on a change). */
void mango_rt_apply(struct mango_rt *rt, struct mango_qp *q, uint8_t slot);
/* Whether a QP runs slot. */
bool mango_rt_slot_used(const struct mango_rt *rt, unsigned int slot);
/* CNPs since the baseline; window updates since the last slot change. */
uint64_t mango_rt_qp_cnp(const struct mango_qp *q);
uint32_t mango_rt_qp_win_count(const struct mango_qp *q);
uint32_t mango_rt_qp_window(const struct mango_qp *q);
/* Copy of slot's parameters of entry i (NULL if it has none yet). */
uint8_t *mango_rt_qp_params(const struct mango_rt *rt, const struct mango_algo *a, uint32_t i,
		unsigned int slot);

/* Size and alignment of a parameter type; 0 for an unknown one. */
size_t mango_param_size(mango_pcc_param_type_e type);
const char *mango_param_type_name(mango_pcc_param_type_e type);

#ifdef __cplusplus
}
#endif

#endif /* MANGO_RT_H */
