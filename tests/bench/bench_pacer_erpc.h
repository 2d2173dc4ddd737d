/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_BENCH_PACER_ERPC_H
#define PCC_BENCH_PACER_ERPC_H

/*
 * bench_pacer's second peer: eRPC's timing wheel (src/cc/timing_wheel.h of
 * an eRPC checkout, never part of this tree) driven through the same
 * rounds as the pacer by bench_pacer_erpc.cc.  Built when meson's
 * erpc_dir option names the checkout (devtools/bench-pacer.sh sets it from
 * ERPC_DIR): then PCC_BENCH_ERPC is defined and BENCH_ERPC is 1.  Without
 * it BENCH_ERPC is 0 and the functions below are stubs never called.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bench_erpc;

/* The rounds of one run, made as bench_pacer's run_pacer() makes them. */
struct bench_erpc_work {
	void **stack;        /* free packets: each visit offers the top burst */
	uint32_t *top;       /* packets on the stack */
	const uint32_t *seq; /* flow of each visit */
	uint32_t n_seq;      /* visits in seq, a power of two */
	uint32_t capacity;   /* packets in all (stack size) */
	uint32_t per_round;  /* flows visited per round */
	uint32_t burst;      /* packets per visit */
	uint32_t len_off;    /* offset in a packet of its uint32_t length */
	uint32_t overhead;   /* wire bytes of a packet = its length + overhead */
	uint32_t prefetch;   /* prefetch the flow this many visits ahead (0: none) */
	uint64_t round_ns;   /* virtual time a round lasts */
	uint64_t packets;    /* a run ends once this many were handed out */
};

/* One run; every count is of that run only. */
struct bench_erpc_result {
	double ns_pkt;        /* loop time (thread CPU clock) / packets out in the loop */
	uint64_t in;          /* inserted into the wheel */
	uint64_t out;         /* handed out: in the loop, then drained after it */
	uint64_t refused;     /* due beyond the wheel's horizon: not inserted */
	uint64_t checked;     /* departures compared with their due time */
	uint64_t early;       /* of those, handed out more than a slot before due */
	uint64_t late_ns_max; /* of those, the latest after its due time */
};

#ifdef PCC_BENCH_ERPC
#define BENCH_ERPC 1

/*
 * A wheel, its bucket pool and the per-flow departure state of n_flows
 * flows at rate_bps each; virtual time converted to TSC at tsc_hz.  NULL,
 * with why in err, on failure.
 */
struct bench_erpc *bench_erpc_create(
		uint32_t n_flows, uint64_t rate_bps, uint64_t tsc_hz, char *err, size_t errlen);

/*
 * One run of w's rounds, timed; then, untimed, everything still in the
 * wheel drained so that r->out counts every packet r->in counts.  With
 * check, every departure is compared with its due time (the entries then
 * point to records: use it for an untimed run).  0, or -1 with why in err.
 */
int bench_erpc_run(struct bench_erpc *e, const struct bench_erpc_work *w, bool check,
		struct bench_erpc_result *r, char *err, size_t errlen);

/* Bytes: the wheel and its bucket pool, and the driver's flow state. */
size_t bench_erpc_mem_wheel(const struct bench_erpc *e);
size_t bench_erpc_mem_flows(const struct bench_erpc *e);

void bench_erpc_free(struct bench_erpc *e);

#else /* !PCC_BENCH_ERPC */
#define BENCH_ERPC 0

static inline struct bench_erpc *
bench_erpc_create(uint32_t n_flows, uint64_t rate_bps, uint64_t tsc_hz, char *err, size_t errlen)
{
	(void)n_flows;
	(void)rate_bps;
	(void)tsc_hz;
	(void)err;
	(void)errlen;
	return NULL;
}

static inline int
bench_erpc_run(struct bench_erpc *e, const struct bench_erpc_work *w, bool check,
		struct bench_erpc_result *r, char *err, size_t errlen)
{
	(void)e;
	(void)w;
	(void)check;
	(void)r;
	(void)err;
	(void)errlen;
	return -1;
}

static inline size_t
bench_erpc_mem_wheel(const struct bench_erpc *e)
{
	(void)e;
	return 0;
}

static inline size_t
bench_erpc_mem_flows(const struct bench_erpc *e)
{
	(void)e;
	return 0;
}

static inline void
bench_erpc_free(struct bench_erpc *e)
{
	(void)e;
}
#endif /* PCC_BENCH_ERPC */

#ifdef __cplusplus
}
#endif

#endif /* PCC_BENCH_PACER_ERPC_H */
