/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * bench_algos: events per second per core of each reference algorithm,
 * against the noop algorithm measured in the same run.
 *
 * A synthetic event stream (default 1 Mi events: 40% TX, 40% ACK with an
 * HPCC INT header, 10% CNP, 10% RTT) over the contexts of 64 Ki flows is
 * delivered through pcc_dev_dispatch(), the engine's fast path, on the
 * calling thread.  Event time advances 10 ns per event (100 M events/s of
 * simulated time), so each flow sees an event every ~650 us on average
 * and timer-driven algorithms do real work.  Every algorithm starts from
 * zeroed contexts and runs the same stream; the best of --runs runs is
 * reported, and the worst run's ns/event beside it (the range), timed on
 * the thread's on-CPU clock (CLOCK_THREAD_CPUTIME_ID), so that time the
 * thread spent preempted is not counted.  Not a test: run it with
 * devtools/bench-algos.sh.
 *
 * The context of the event 8 places ahead is prefetched (--prefetch N,
 * 0 turns it off), as an engine handling a burst of events would.
 *
 *   bench_algos [--events N] [--flows N] [--passes N] [--runs N]
 *               [--prefetch N] [--algo NAME]...
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pcc_dev.h>
#include <pcc_proto_tlm.h>
#include <pcc_algos.h>

#include "bench_common.h"

#define N_INT 1024
#define MAX_ALGOS 16

struct stream {
	uint32_t n;
	uint32_t *flow;
	uint8_t *type;
	uint32_t *rtt;
	struct pcc_int_hdr ints[N_INT];
};

static int
stream_make(struct stream *st, uint32_t n, uint32_t flows)
{
	uint64_t seed = 42;
	uint32_t i, x;

	st->n = n;
	st->flow = malloc(n * sizeof(*st->flow));
	st->type = malloc(n);
	st->rtt = malloc(n * sizeof(*st->rtt));
	if (st->flow == NULL || st->type == NULL || st->rtt == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		uint64_t r = bench_rng(&seed);

		st->flow[i] = (uint32_t)(r % flows);
		x = (uint32_t)(r >> 32) % 100;
		st->type[i] = x < 40   ? PCC_DEV_EVENT_TX :
				x < 80 ? PCC_DEV_EVENT_ACK :
				x < 90 ? PCC_DEV_EVENT_CNP :
					 PCC_DEV_EVENT_RTT;
		st->rtt[i] = 5000 + (uint32_t)(r >> 48) % 45000; /* 5..50 us */
	}
	/* INT of one 100G hop, time and bytes advancing, queue varying */
	for (i = 0; i < N_INT; i++) {
		memset(&st->ints[i], 0, sizeof(st->ints[i]));
		st->ints[i].n_hops = 1;
		st->ints[i].hop[0].rate_code = PCC_INT_RATE_100G;
		st->ints[i].hop[0].time_ns = (i * 1000u) & 0xFFFFFF;
		st->ints[i].hop[0].tx_bytes = (i * 700u) & 0xFFFFF;
		st->ints[i].hop[0].qlen = (uint32_t)(bench_rng(&seed) % 2000);
	}
	return 0;
}

/*
 * One pass over the stream for slot `slot`; returns the rate checksum.
 * With prefetch, the context of the event `prefetch` places ahead is
 * prefetched, as an engine handling a burst would.
 */
static uint64_t
run_pass(const struct stream *st, uint8_t slot, uint8_t *ctx, uint32_t ctx_size, uint32_t *ts,
		uint32_t prefetch)
{
	struct pcc_dev_event ev;
	struct pcc_dev_results res;
	uint64_t sum = 0;
	uint32_t i;

	memset(&ev, 0, sizeof(ev));
	for (i = 0; i < st->n; i++) {
		uint32_t f = st->flow[i];

		if (prefetch != 0 && i + prefetch < st->n) {
			const uint8_t *p = ctx + (size_t)st->flow[i + prefetch] * ctx_size;

			__builtin_prefetch(p, 1);
			__builtin_prefetch(p + ctx_size - 1, 1);
		}
		*ts += 10;
		ev.type = st->type[i];
		ev.ts = *ts;
		ev.sn = i & 0xFFFFFF;
		ev.flow_tag = f;
		switch (ev.type) {
		case PCC_DEV_EVENT_TX:
			ev.tx.first_ts = *ts;
			ev.tx.sent_32b = 128;
			ev.tx.sent_pkts = 1;
			ev.flow_qpn = f;
			break;
		case PCC_DEV_EVENT_ACK:
		case PCC_DEV_EVENT_CNP:
			ev.ack.first_ts = *ts;
			ev.ack.first_sn = ev.sn;
			ev.ack.coalesced = 1;
			ev.ack.int_hdr = ev.type == PCC_DEV_EVENT_ACK ? &st->ints[i & (N_INT - 1)] :
									NULL;
			break;
		default:
			ev.rtt.req_send_ts = *ts - st->rtt[i];
			ev.rtt.req_recv_ts = 0;
			ev.rtt.resp_send_ts = 0;
			ev.rtt.resp_recv_ts = *ts;
			break;
		}
		pcc_dev_dispatch(0, slot, ctx + (size_t)f * ctx_size, &ev, &res);
		sum += res.rate + res.window;
	}
	return sum;
}

static void
usage(const char *prog)
{
	fprintf(stderr,
			"usage: %s [--events N] [--flows N] [--passes N] [--runs N] "
			"[--prefetch N] [--algo NAME]...\n",
			prog);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "events", required_argument, NULL, 'e' },
		{ "flows", required_argument, NULL, 'f' },
		{ "passes", required_argument, NULL, 'p' },
		{ "runs", required_argument, NULL, 'r' },
		{ "algo", required_argument, NULL, 'a' },
		{ "prefetch", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *names[MAX_ALGOS] = { "noop", "rtt", "dcqcn", "timely", "swift", "hpcc",
		"dctcp" };
	unsigned int n_names = 7, user_names = 0, a;
	uint32_t n_events = 1u << 20, flows = 1u << 16, passes = 4, runs = 3, prefetch = 8;
	struct pcc_dev_conf conf = { .n_ports = 1, .n_threads = 1 };
	double ns[MAX_ALGOS];
	uint64_t checksum = 0;
	struct stream st;
	uint8_t *ctx;
	uint64_t v;
	int c, rc;

	while ((c = getopt_long(argc, argv, "e:f:p:r:a:P:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (!bench_uint("bench_algos", "events", optarg, 1, 1u << 24, &v))
				return 2;
			n_events = (uint32_t)v;
			break;
		case 'f':
			if (!bench_uint("bench_algos", "flows", optarg, 1, 1u << 22, &v))
				return 2;
			flows = (uint32_t)v;
			break;
		case 'p':
			if (!bench_uint("bench_algos", "passes", optarg, 1, 1000, &v))
				return 2;
			passes = (uint32_t)v;
			break;
		case 'r':
			if (!bench_uint("bench_algos", "runs", optarg, 1, 100, &v))
				return 2;
			runs = (uint32_t)v;
			break;
		case 'P':
			if (!bench_uint("bench_algos", "prefetch", optarg, 0, 64, &v))
				return 2;
			prefetch = (uint32_t)v;
			break;
		case 'a':
			if (user_names == 0)
				n_names = 1; /* keep noop first */
			if (n_names < MAX_ALGOS && strcmp(optarg, "noop") != 0)
				names[n_names++] = optarg;
			user_names++;
			break;
		default:
			usage(argv[0]);
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "bench_algos: unexpected argument '%s'\n", argv[optind]);
		usage(argv[0]);
		return 2;
	}
	rc = pcc_algos_register_builtin();
	if (rc == 0)
		rc = pcc_dev_init(&conf);
	if (rc != 0) {
		fprintf(stderr, "bench_algos: init failed: %s\n", strerror(-rc));
		return 1;
	}
	pcc_dev_thread_set_rank(0);
	ctx = aligned_alloc(64, (size_t)flows * PCC_DEV_CTX_MAX);
	if (ctx == NULL || stream_make(&st, n_events, flows) != 0) {
		fprintf(stderr, "bench_algos: out of memory\n");
		return 1;
	}

	printf("bench_algos: %u events x %u passes, %u flows, best of %u runs, prefetch %u ahead\n",
			n_events, passes, flows, runs, prefetch);
	printf("%-8s %5s %10s %10s %8s %10s\n", "algo", "ctx", "ns/event", "Mevents/s", "x noop",
			"worst ns");
	for (a = 0; a < n_names; a++) {
		const struct pcc_dev_algo_ops *ops = pcc_dev_algo_find(names[a]);
		uint32_t ctx_size, ts = 1000, p, r;
		uint64_t sum = 0, t0, best = UINT64_MAX, worst = 0;

		if (ops == NULL || pcc_dev_algo_load(0, (uint8_t)a, names[a]) != 0 ||
				pcc_dev_slot_bind(0, (uint8_t)a, (uint8_t)a) != 0) {
			fprintf(stderr, "bench_algos: cannot load %s\n", names[a]);
			return 1;
		}
		ctx_size = ops->ctx_size != 0 ? ops->ctx_size : PCC_DEV_CTX_SIZE;
		for (r = 0; r < runs; r++) {
			memset(ctx, 0, (size_t)flows * ctx_size);
			/* warm-up pass: new flows, caches */
			sum += run_pass(&st, (uint8_t)a, ctx, ctx_size, &ts, prefetch);
			t0 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
			for (p = 0; p < passes; p++)
				sum += run_pass(&st, (uint8_t)a, ctx, ctx_size, &ts, prefetch);
			t0 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
			if (t0 < best)
				best = t0;
			if (t0 > worst)
				worst = t0;
		}
		ns[a] = (double)best / ((double)n_events * passes);
		/* the best run's figures, then the worst run's ns/event (the range) */
		printf("%-8s %5u %10.2f %10.1f %8.2f %10.2f\n", names[a], ctx_size, ns[a],
				1e3 / ns[a], ns[a] / ns[0],
				(double)worst / ((double)n_events * passes));
		checksum += sum;
		fflush(stdout);
	}
	printf("(rate checksum %" PRIx64 ")\n", checksum);
	pcc_dev_fini();
	free(ctx);
	free(st.flow);
	free(st.type);
	free(st.rtt);
	return 0;
}
