/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * bench_pacer: cost per packet (enqueue + dequeue) of the wheel pacer and
 * its memory per flow at 1 Ki, 64 Ki and 1 Mi active flows, against an
 * rte_ring (single producer/consumer, burst calls) moving the same
 * packets in the same pattern in the same run; then the achieved-rate
 * error of 8 backlogged flows paced amid random traffic over all flows.
 *
 * Cost: each round, R flows picked at random (among --flows N, so at 1 Mi
 * every visit touches a cold flow) each offer a burst of B packets
 * (--burst, default 8) of --size bytes (default 1000) at --rate (default
 * 5 Gb/s per flow, line 100 Gb/s); virtual time then advances by the time
 * the line takes to send the round's packets, and everything due is
 * dequeued.  The ring runs the same loop (enqueue each burst, dequeue
 * everything).  ns/packet = loop time on the thread's CPU clock
 * (CLOCK_THREAD_CPUTIME_ID) / packets through; best of --runs after one
 * warm-up run, and the range of the ratio over the runs.  Packets the wheel refuses (none in this
 * workload) are counted and offered to the next flow.
 *
 * Built with meson's erpc_dir option (devtools/bench-pacer.sh, ERPC_DIR),
 * eRPC's timing wheel runs the same rounds too, after the ring in each run
 * (bench_pacer_erpc.h): columns eRPC ns and x eRPC (its ns over ours), and
 * a line of its counts: packets in and out of each run must match and none
 * may leave more than a slot before its due time (checked in the warm-up
 * run), else bench_pacer exits 1.
 *
 * Rate error: flows at 1 M, 10 M, 100 M, 1 G, 5 G, 10 G, 20 G and 40 Gb/s
 * (random indexes among N), kept backlogged for 12 ms of virtual time
 * while bursts to random flows add 20 Gb/s; dequeue every 250 ns; each
 * flow's rate over the 10 ms from 1 ms on = bytes between its first and
 * last departure in the window over the time between them.
 *
 * Not a test: run it with devtools/bench-pacer.sh.
 *
 *   bench_pacer [--flows N]... [--burst B] [--size BYTES] [--rate BPS]
 *               [--packets N] [--runs N] [--prefetch N] [--bulk]
 *
 * --bulk: ours gets each round's R bursts in one pcc_pacer_enqueue_bulk()
 * call (which fetches the R flows' state together) instead of R calls of
 * pcc_pacer_enqueue(); the ring and eRPC's wheel run as without it.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include <pcc_pacer.h>
#include <pcc_pacer_drivers.h>

#include "bench_common.h"
#include "bench_pacer_erpc.h"

#define LINE 100000000000ull
#define R_FLOWS 4 /* flows per round */
#define MAX_OUT 256
#define N_MBUFS 65535
#define MAX_SIZES 8

struct opts {
	uint32_t flows[MAX_SIZES];
	unsigned int n_flows;
	uint32_t burst;
	uint32_t size;
	uint64_t rate;
	uint64_t packets;
	unsigned int runs;
	unsigned int prefetch;
	bool bulk;
};

struct bench {
	struct rte_mbuf **stack; /* free packets */
	uint32_t top;
	uint32_t *seq; /* flow of each visit */
	uint32_t n_seq;
	uint32_t capacity; /* packets in all */
};

/* Offer the burst on top of the free stack; what is refused stays free. */
static inline uint16_t
offer(struct pcc_pacer *p, struct bench *b, uint32_t flow, uint32_t burst, uint64_t t)
{
	struct rte_mbuf **pkts = &b->stack[b->top - burst];
	uint16_t k = pcc_pacer_enqueue(p, flow, pkts, (uint16_t)burst, t);

	if (unlikely(k < burst))
		memmove(pkts, pkts + k, (burst - k) * sizeof(pkts[0]));
	b->top -= k;
	return k;
}

/*
 * Offer a round's bursts (the next R_FLOWS flows of the sequence) in one
 * pcc_pacer_enqueue_bulk() call; what is refused stays free.
 */
static inline uint32_t
offer_bulk(struct pcc_pacer *p, struct bench *b, const struct opts *o, uint32_t *v, uint64_t t)
{
	const uint32_t all = R_FLOWS * o->burst;
	struct rte_mbuf **pkts = &b->stack[b->top - all];
	uint32_t flows[R_FLOWS], k, j, q, left;
	uint16_t counts[R_FLOWS];

	for (j = 0; j < R_FLOWS; j++) {
		flows[j] = b->seq[*v];
		*v = *v + 1 == b->n_seq ? 0 : *v + 1;
		if (o->prefetch != 0)
			pcc_pacer_prefetch(p, b->seq[(*v + o->prefetch) & (b->n_seq - 1)]);
		counts[j] = (uint16_t)o->burst;
	}
	k = pcc_pacer_enqueue_bulk(p, flows, pkts, counts, R_FLOWS, t);
	if (unlikely(k < all)) {
		/* the refused ones to the bottom of the block, still free */
		for (j = 0, left = 0; j < R_FLOWS; j++)
			for (q = counts[j]; q < o->burst; q++) {
				struct rte_mbuf *m = pkts[j * o->burst + q];

				pkts[j * o->burst + q] = pkts[left];
				pkts[left++] = m;
			}
	}
	b->top -= k;
	return all - k;
}

struct result {
	double ns_pkt;
	uint64_t through;
	uint64_t refused;
	uint64_t bypassed;
};

/* One run of the round loop through the pacer (not inlined: callgrind's
 * --toggle-collect=run_pacer counts the loop alone). */
static __rte_noinline struct result
run_pacer(struct pcc_pacer *p, struct bench *b, const struct opts *o, uint64_t *now)
{
	const uint64_t round_ns = (uint64_t)R_FLOWS * o->burst *
			(o->size + PCC_PACER_WIRE_OVERHEAD) * 8 * 1000000000ull / LINE;
	struct pcc_pacer_stats st0, st1;
	uint64_t t = *now, through = 0, refused = 0, start, end;
	uint32_t v = 0;
	struct result r;

	pcc_pacer_stats_get(p, &st0);
	start = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	while (through < o->packets) {
		unsigned int i;
		uint16_t n;

		for (i = 0; i < R_FLOWS && !o->bulk; i++) {
			uint32_t f = b->seq[v++];

			if (v == b->n_seq)
				v = 0;
			if (o->prefetch != 0)
				pcc_pacer_prefetch(p, b->seq[(v + o->prefetch) & (b->n_seq - 1)]);
			refused += o->burst - offer(p, b, f, o->burst, t);
		}
		if (o->bulk)
			refused += offer_bulk(p, b, o, &v, t);
		t += round_ns;
		/* straight onto the free stack, as eRPC's driver walks its
		 * ready queue onto it: every packet not on the stack is in
		 * the pacer, so there is room */
		do {
			n = pcc_pacer_dequeue(p, t, &b->stack[b->top], MAX_OUT);
			b->top += n;
			through += n;
		} while (n == MAX_OUT);
	}
	end = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	pcc_pacer_stats_get(p, &st1);
	*now = t;
	r.ns_pkt = (double)(end - start) / (double)through;
	r.through = through;
	r.refused = refused;
	r.bypassed = st1.bypassed - st0.bypassed;
	return r;
}

/* The same loop through an rte_ring. */
static __rte_noinline struct result
run_ring(struct rte_ring *ring, struct bench *b, const struct opts *o)
{
	uint64_t through = 0, start, end;
	struct result r;

	start = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	while (through < o->packets) {
		unsigned int i, n;

		for (i = 0; i < R_FLOWS; i++) {
			unsigned int k;

			k = rte_ring_sp_enqueue_burst(ring, (void **)&b->stack[b->top - o->burst],
					o->burst, NULL);
			b->top -= k;
		}
		do {
			n = rte_ring_sc_dequeue_burst(
					ring, (void **)&b->stack[b->top], MAX_OUT, NULL);
			b->top += n;
			through += n;
		} while (n == MAX_OUT);
	}
	end = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	memset(&r, 0, sizeof(r));
	r.ns_pkt = (double)(end - start) / (double)through;
	r.through = through;
	return r;
}

struct acc_flow {
	uint32_t flow;
	uint64_t rate;
	struct rte_mbuf *held;
	uint64_t ta, tb, bytes, last;
	uint64_t n;
};

/* Max |achieved / set - 1| of 8 backlogged flows amid random traffic. */
static double
run_accuracy(struct pcc_pacer *p, struct bench *b, const struct opts *o, uint32_t n_flows,
		uint64_t t0)
{
	static const uint64_t rates[] = { 1000000ull, 10000000ull, 100000000ull, 1000000000ull,
		5000000000ull, 10000000000ull, 20000000000ull, 40000000000ull };
	const uint64_t step = 250, w0 = t0 + 1000000, w1 = t0 + 11000000;
	const uint64_t burst_bytes = (uint64_t)o->burst * (o->size + PCC_PACER_WIRE_OVERHEAD);
	struct acc_flow af[RTE_DIM(rates)];
	struct rte_mbuf *out[MAX_OUT];
	uint64_t seed = 7, t, budget = 0;
	double worst = 0;
	unsigned int i;
	uint32_t v = 0;

	for (i = 0; i < RTE_DIM(rates); i++) {
		memset(&af[i], 0, sizeof(af[i]));
		af[i].flow = (uint32_t)(bench_rng(&seed) % n_flows);
		af[i].rate = rates[i];
		pcc_pacer_flow_reset(p, af[i].flow);
		pcc_pacer_set_rate(p, af[i].flow, rates[i]);
	}
	for (t = t0; t < t0 + 12000000; t += step) {
		uint16_t n, k;

		for (i = 0; i < RTE_DIM(rates); i++) {
			for (;;) {
				if (af[i].held == NULL) {
					af[i].held = b->stack[--b->top];
					/* 64..1500 bytes; 64..127 below 100 Mb/s, for
					 * enough packets in 10 ms */
					af[i].held->pkt_len = 64 +
							(uint32_t)(bench_rng(&seed) %
									(af[i].rate < 100000000 ? 64 :
												  1437));
					af[i].held->hash.usr = i + 1;
				}
				if (pcc_pacer_enqueue(p, af[i].flow, &af[i].held, 1, t) == 0)
					break;
				af[i].held = NULL;
			}
		}
		/* background: 20 Gb/s of bursts to random flows */
		budget += 20000000000ull / 8 * step / 1000000000ull;
		while (budget >= burst_bytes) {
			uint32_t f = b->seq[v];

			v = v + 1 == b->n_seq ? 0 : v + 1;
			for (i = 0; i < RTE_DIM(rates); i++)
				if (af[i].flow == f)
					break;
			if (i == RTE_DIM(rates))
				offer(p, b, f, o->burst, t);
			budget -= burst_bytes;
		}
		do {
			n = pcc_pacer_dequeue(p, t, out, MAX_OUT);
			for (k = 0; k < n; k++) {
				struct rte_mbuf *m = out[k];

				/* hash.usr: 1 + index of the backlogged flow */
				if (m->hash.usr != 0 && t >= w0 && t < w1) {
					struct acc_flow *a = &af[m->hash.usr - 1];

					if (a->n++ == 0)
						a->ta = t;
					a->tb = t;
					a->bytes += m->pkt_len + PCC_PACER_WIRE_OVERHEAD;
					a->last = m->pkt_len + PCC_PACER_WIRE_OVERHEAD;
				}
				m->hash.usr = 0;
				m->pkt_len = o->size;
				b->stack[b->top++] = m;
			}
		} while (n == MAX_OUT);
	}
	for (i = 0; i < RTE_DIM(rates); i++) {
		if (af[i].held != NULL) {
			af[i].held->hash.usr = 0;
			af[i].held->pkt_len = o->size;
			b->stack[b->top++] = af[i].held;
		}
	}
	for (i = 0; i < RTE_DIM(rates); i++) {
		struct acc_flow *a = &af[i];
		double bps, err;

		if (a->n < 3 || a->tb == a->ta) {
			fprintf(stderr, "# flow %u at %" PRIu64 " b/s: %" PRIu64 " packets\n",
					a->flow, a->rate, a->n);
			return INFINITY;
		}
		bps = (double)(a->bytes - a->last) * 8e9 / (double)(a->tb - a->ta);
		err = bps / (double)a->rate - 1;
		if (getenv("BENCH_PACER_VERBOSE") != NULL)
			fprintf(stderr,
					"# flow %u: %" PRIu64 " b/s set, %.0f achieved, %" PRIu64
					" packets\n",
					a->flow, a->rate, bps, a->n);
		if (fabs(err) > worst)
			worst = fabs(err);
	}
	return worst;
}

static int
bench_one(const struct opts *o, uint32_t n_flows, struct rte_ring *ring, struct bench *b)
{
	struct pcc_pacer_conf c;
	struct result rp, rr, best_p, best_r;
	double x_lo = 0, x_hi = 0;
	struct bench_erpc_result re, sum_e;
	double best_e = 0, xe_lo = 0, xe_hi = 0, xe_run[100] = { 0 };
	struct bench_erpc *e = NULL;
	struct bench_erpc_work ew;
	uint64_t e_bad = 0;
	char err[256];
	struct pcc_pacer *p;
	uint64_t seed = n_flows, now = 1000000000ull;
	unsigned int run;
	double rate_err;
	uint32_t f;

	/* the visit sequence: random flows */
	for (f = 0; f < b->n_seq; f++)
		b->seq[f] = (uint32_t)(bench_rng(&seed) % n_flows);
	memset(&c, 0, sizeof(c));
	c.backend = "wheel";
	c.max_flows = n_flows;
	c.line_rate_bps = LINE;
	c.socket_id = SOCKET_ID_ANY;
	p = pcc_pacer_create(&c);
	if (p == NULL) {
		fprintf(stderr, "bench_pacer: pcc_pacer_create(%u flows): %s\n", n_flows,
				rte_strerror(rte_errno));
		return -1;
	}
	for (f = 0; f < n_flows; f++)
		pcc_pacer_set_rate(p, f, o->rate);
	memset(&ew, 0, sizeof(ew));
	if (BENCH_ERPC) {
		e = bench_erpc_create(n_flows, o->rate, rte_get_tsc_hz(), err, sizeof(err));
		if (e == NULL) {
			fprintf(stderr, "bench_pacer: %s\n", err);
			pcc_pacer_free(p);
			return -1;
		}
		ew = (struct bench_erpc_work){
			.stack = (void **)b->stack,
			.top = &b->top,
			.seq = b->seq,
			.n_seq = b->n_seq,
			.capacity = b->capacity,
			.per_round = R_FLOWS,
			.burst = o->burst,
			.len_off = offsetof(struct rte_mbuf, pkt_len),
			.overhead = PCC_PACER_WIRE_OVERHEAD,
			.prefetch = o->prefetch,
			.round_ns = (uint64_t)R_FLOWS * o->burst *
					(o->size + PCC_PACER_WIRE_OVERHEAD) * 8 * 1000000000ull /
					LINE,
			.packets = o->packets,
		};
	}

	memset(&best_p, 0, sizeof(best_p));
	memset(&best_r, 0, sizeof(best_r));
	memset(&sum_e, 0, sizeof(sum_e));
	memset(&re, 0, sizeof(re));
	for (run = 0; run <= o->runs; run++) {
		rp = run_pacer(p, b, o, &now);
		rr = run_ring(ring, b, o);
		if (e != NULL) {
			/* the warm-up run checks departures against due times */
			if (bench_erpc_run(e, &ew, run == 0, &re, err, sizeof(err)) < 0) {
				fprintf(stderr, "bench_pacer: %u flows: %s\n", n_flows, err);
				e_bad++;
				break;
			}
			if (re.in != re.out) {
				fprintf(stderr,
						"bench_pacer: %u flows: eRPC wheel, run %u: "
						"%" PRIu64 " packets in, %" PRIu64 " out\n",
						n_flows, run, re.in, re.out);
				e_bad++;
			}
			sum_e.in += re.in;
			sum_e.out += re.out;
			sum_e.refused += re.refused;
			sum_e.checked += re.checked;
			sum_e.early += re.early;
			if (re.late_ns_max > sum_e.late_ns_max)
				sum_e.late_ns_max = re.late_ns_max;
		}
		if (run == 0)
			continue; /* warm-up */
		if (e != NULL) {
			xe_run[run - 1] = re.ns_pkt / rp.ns_pkt;
			if (xe_hi == 0 || re.ns_pkt / rp.ns_pkt < xe_lo)
				xe_lo = re.ns_pkt / rp.ns_pkt;
			if (re.ns_pkt / rp.ns_pkt > xe_hi)
				xe_hi = re.ns_pkt / rp.ns_pkt;
			if (best_e == 0 || re.ns_pkt < best_e)
				best_e = re.ns_pkt;
		}
		/* the ratio of each run: the two loops ran back to back */
		if (x_hi == 0 || rp.ns_pkt / rr.ns_pkt < x_lo)
			x_lo = rp.ns_pkt / rr.ns_pkt;
		if (rp.ns_pkt / rr.ns_pkt > x_hi)
			x_hi = rp.ns_pkt / rr.ns_pkt;
		if (best_p.through == 0 || rp.ns_pkt < best_p.ns_pkt)
			best_p = rp;
		if (best_r.through == 0 || rr.ns_pkt < best_r.ns_pkt)
			best_r = rr;
	}
	/* drain what is left */
	now += 100000000ull;
	for (;;) {
		struct rte_mbuf *out[MAX_OUT];
		uint16_t n = pcc_pacer_dequeue(p, now, out, MAX_OUT);

		memcpy(&b->stack[b->top], out, n * sizeof(out[0]));
		b->top += n;
		if (n < MAX_OUT)
			break;
	}
	rate_err = run_accuracy(p, b, o, n_flows, now + 1000000000ull);
	printf("%8u %5u %10.1f %10.1f %7.2f %8.1f %8zu %10.1f %9.2f %10.4f", n_flows, o->burst,
			best_p.ns_pkt, best_r.ns_pkt, best_p.ns_pkt / best_r.ns_pkt,
			100.0 * (double)best_p.bypassed / (double)best_p.through,
			pcc_pacer_mem_per_flow(p), (double)pcc_pacer_mem_total(p) / n_flows,
			(double)pcc_pacer_mem_total(p) / 1048576.0, 100.0 * rate_err);
	if (e != NULL)
		printf(" %10.1f %7.2f", best_e, best_e / best_p.ns_pkt);
	printf("\n# %u flows: x ring over the %u runs %.2f-%.2f\n", n_flows, o->runs, x_lo, x_hi);
	if (e != NULL) {
		printf("# %u flows: x eRPC (eRPC ns / ns) over the %u runs %.2f-%.2f; each:",
				n_flows, o->runs, xe_lo, xe_hi);
		for (run = 0; run < o->runs; run++)
			printf(" %.2f", xe_run[run]);
		printf("\n");
		printf("# %u flows: eRPC wheel: %" PRIu64 " packets in, %" PRIu64
		       " out over the %u runs and the warm-up, %" PRIu64
		       " refused; warm-up run: %" PRIu64 " departures checked, %" PRIu64
		       " more than a slot early, latest %.1f us after due;"
		       " %.2f MiB of wheel and buckets, %zu B/flow of driver state\n",
				n_flows, sum_e.in, sum_e.out, o->runs, sum_e.refused, sum_e.checked,
				sum_e.early, (double)sum_e.late_ns_max / 1000.0,
				(double)bench_erpc_mem_wheel(e) / 1048576.0,
				bench_erpc_mem_flows(e) / n_flows);
		if (sum_e.early != 0 || sum_e.checked == 0)
			e_bad++;
	}
	if (best_p.refused != 0)
		printf("# %u flows: %" PRIu64 " packets refused in the best run\n", n_flows,
				best_p.refused);
	fflush(stdout);
	pcc_pacer_free(p);
	bench_erpc_free(e);
	if (e_bad != 0) {
		fprintf(stderr, "bench_pacer: %u flows: the eRPC wheel peer failed its checks\n",
				n_flows);
		return -1;
	}
	return 0;
}

static void
usage(FILE *out)
{
	fprintf(out,
			"usage: bench_pacer [--flows N]... [--burst B] [--size BYTES] "
			"[--rate BPS] [--packets N] [--runs N] [--prefetch N] [--bulk]\n");
}

static int
parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "flows", required_argument, NULL, 'f' },
		{ "burst", required_argument, NULL, 'b' },
		{ "size", required_argument, NULL, 's' },
		{ "rate", required_argument, NULL, 'r' },
		{ "packets", required_argument, NULL, 'p' },
		{ "runs", required_argument, NULL, 'n' },
		{ "prefetch", required_argument, NULL, 'x' },
		{ "bulk", no_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->burst = 8;
	o->size = 1000;
	o->rate = 5000000000ull;
	o->packets = 4000000;
	o->runs = 3;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		uint64_t v;

		switch (c) {
		case 'f':
			if (o->n_flows == MAX_SIZES) {
				fprintf(stderr, "bench_pacer: more than %d --flows\n", MAX_SIZES);
				return -1;
			}
			if (!bench_uint("bench_pacer", "flows", optarg, 1, PCC_PACER_MAX_FLOWS, &v))
				return -1;
			o->flows[o->n_flows++] = (uint32_t)v;
			break;
		case 'b':
			if (!bench_uint("bench_pacer", "burst", optarg, 1, 64, &v))
				return -1;
			o->burst = (uint32_t)v;
			break;
		case 's':
			if (!bench_uint("bench_pacer", "size", optarg, 60, 9600, &v))
				return -1;
			o->size = (uint32_t)v;
			break;
		case 'r':
			if (!bench_uint("bench_pacer", "rate", optarg, 1000, 400000000000ull, &v))
				return -1;
			o->rate = v;
			break;
		case 'p':
			if (!bench_uint("bench_pacer", "packets", optarg, 1000, UINT32_MAX, &v))
				return -1;
			o->packets = v;
			break;
		case 'n':
			if (!bench_uint("bench_pacer", "runs", optarg, 1, 100, &v))
				return -1;
			o->runs = (unsigned int)v;
			break;
		case 'x':
			if (!bench_uint("bench_pacer", "prefetch", optarg, 0, 64, &v))
				return -1;
			o->prefetch = (unsigned int)v;
			break;
		case 'B':
			o->bulk = true;
			break;
		case 'h':
			return 1;
		default:
			return -1;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "bench_pacer: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (o->n_flows == 0) {
		o->flows[0] = 1024;
		o->flows[1] = 65536;
		o->flows[2] = 1048576;
		o->n_flows = 3;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	char prefix[64];
	char *eal_argv[] = { argv[0], "--no-huge", "-m", "1024", "--no-pci", "--no-shconf",
		"--no-telemetry", "--file-prefix", prefix, "--log-level", "lib.*:error", NULL };
	struct rte_mempool *mp;
	struct rte_ring *ring;
	struct bench b;
	struct opts o;
	unsigned int i;

	i = (unsigned int)parse(argc, argv, &o);
	if (i != 0) {
		usage(i == 1 ? stdout : stderr);
		return i == 1 ? 0 : 2;
	}
	snprintf(prefix, sizeof(prefix), "bench-pacer-%d", (int)getpid());
	rte_openlog_stream(stderr);
	if (rte_eal_init((int)RTE_DIM(eal_argv) - 1, eal_argv) < 0) {
		fprintf(stderr, "bench_pacer: rte_eal_init failed\n");
		return 1;
	}
	if (pcc_pacer_drivers_register() != 0)
		return 1;
	mp = rte_pktmbuf_pool_create("bench_pacer", N_MBUFS, 0, 0, 128, SOCKET_ID_ANY);
	ring = rte_ring_create("bench_pacer", 65536, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	memset(&b, 0, sizeof(b));
	b.capacity = N_MBUFS;
	b.stack = malloc(sizeof(b.stack[0]) * N_MBUFS);
	b.n_seq = 1u << 22;
	b.seq = malloc(sizeof(b.seq[0]) * b.n_seq);
	if (mp == NULL || ring == NULL || b.stack == NULL || b.seq == NULL) {
		fprintf(stderr, "bench_pacer: out of memory\n");
		return 1;
	}
	for (b.top = 0; b.top < N_MBUFS; b.top++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(mp);

		if (m == NULL)
			return 1;
		m->pkt_len = o.size;
		m->hash.usr = 0;
		b.stack[b.top] = m;
	}
	printf("# wheel (500 ns slots, 2.19 ms horizon, 64 queued per flow) vs rte_ring SP/SC%s;"
	       " %u flows x %u packets of %u bytes per round, %" PRIu64 " b/s per flow,"
	       " line %" PRIu64 " b/s, best of %u runs of %" PRIu64 " packets%s\n",
			BENCH_ERPC ? " and eRPC's TimingWheel (ERPC_DIR)" : "", R_FLOWS, o.burst,
			o.size, o.rate, (uint64_t)LINE, o.runs, o.packets,
			o.bulk ? "; ours: a round's bursts per pcc_pacer_enqueue_bulk()" : "");
	printf("# %6s %5s %10s %10s %7s %8s %8s %10s %9s %10s", "flows", "burst", "ns/pkt",
			"ring ns", "x ring", "bypass%", "B/flow", "B/flow all", "total MB",
			"rate err%");
	if (BENCH_ERPC)
		printf(" %10s %7s", "eRPC ns", "x eRPC");
	printf("\n");
	for (i = 0; i < o.n_flows; i++)
		if (bench_one(&o, o.flows[i], ring, &b) < 0)
			break;
	free(b.seq);
	free(b.stack);
	test_eal_cleanup();
	return i == o.n_flows ? 0 : 1;
}
