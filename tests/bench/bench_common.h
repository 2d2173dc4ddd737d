/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_BENCH_COMMON_H
#define PCC_BENCH_COMMON_H

/* What the benchmarks of tests/bench share: option values and the option
 * parser, clocks, a seeded generator, a one-queue port. */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

/* test_eal_cleanup(): the EAL stopped, its runtime directory removed */
#include "../unit/test_eal.h"

/*
 * s, the value of option --opt, as a number in [min, max] ("2", "0.5",
 * "1e-3"); false, with a message naming prog, the option and the value, if
 * it is not one.
 */
static inline bool
bench_num(const char *prog, const char *opt, const char *s, double min, double max, double *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !(x >= min && x <= max)) {
		fprintf(stderr, "%s: invalid value '%s' for --%s (expected %g..%g)\n", prog, s, opt,
				min, max);
		return false;
	}
	*v = x;
	return true;
}

/* As bench_num(), for an integer in [min, max] (decimal, or 0x hex). */
static inline bool
bench_uint(const char *prog, const char *opt, const char *s, uint64_t min, uint64_t max,
		uint64_t *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (end == s || *end != '\0' || errno != 0 || s[strspn(s, " \t")] == '-' || x < min ||
			x > max) {
		fprintf(stderr,
				"%s: invalid value '%s' for --%s (expected an integer, %" PRIu64
				"..%" PRIu64 ")\n",
				prog, s, opt, min, max);
		return false;
	}
	*v = x;
	return true;
}

/* One option of a benchmark, for bench_opts_parse(). */
enum bench_opt_kind {
	BENCH_OPT_NUM,  /* double *dst in [min, max] (bench_num()) */
	BENCH_OPT_U32,  /* uint32_t (or unsigned int) *dst in [min, max] (bench_uint()) */
	BENCH_OPT_FLAG, /* bool *dst set, no argument */
	BENCH_OPT_STR,  /* const char **dst = the argument */
	BENCH_OPT_FN,   /* fn(prog, argument): false after its own message */
};

struct bench_opt {
	const char *name;
	enum bench_opt_kind kind;
	void *dst;
	double min;
	double max;
	bool (*fn)(const char *prog, const char *arg);
};

#define BENCH_OPTS_MAX 16

/*
 * The benchmark's options after the EAL's: each of opts once as --name
 * [VALUE], and --help (usage(stdout), exit 0).  0, or -1 after a message
 * naming prog and the bad option, value or argument.
 */
static inline int
bench_opts_parse(const char *prog, int argc, char **argv, const struct bench_opt *opts,
		unsigned int n, void (*usage)(FILE *))
{
	struct option lo[BENCH_OPTS_MAX + 2];
	unsigned int i;
	uint64_t u;
	int c;

	if (n > BENCH_OPTS_MAX)
		return -1;
	for (i = 0; i < n; i++)
		lo[i] = (struct option){ opts[i].name,
			opts[i].kind == BENCH_OPT_FLAG ? no_argument : required_argument, NULL,
			256 + (int)i };
	lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n + 1] = (struct option){ NULL, 0, NULL, 0 };
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		const struct bench_opt *b;

		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c < 256 || c >= 256 + (int)n)
			return -1;
		b = &opts[c - 256];
		switch (b->kind) {
		case BENCH_OPT_NUM:
			if (!bench_num(prog, b->name, optarg, b->min, b->max, b->dst))
				return -1;
			break;
		case BENCH_OPT_U32:
			if (!bench_uint(prog, b->name, optarg, (uint64_t)b->min, (uint64_t)b->max,
					    &u))
				return -1;
			*(uint32_t *)b->dst = (uint32_t)u;
			break;
		case BENCH_OPT_FLAG:
			*(bool *)b->dst = true;
			break;
		case BENCH_OPT_STR:
			*(const char **)b->dst = optarg;
			break;
		default:
			if (!b->fn(prog, optarg))
				return -1;
			break;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", prog, argv[optind]);
		return -1;
	}
	return 0;
}

/* ns of clk (CLOCK_MONOTONIC: wall; CLOCK_THREAD_CPUTIME_ID: this thread on a CPU). */
static inline uint64_t
bench_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64: the same sequence for a seed in every run. */
static inline uint64_t
bench_rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* One RX and one TX queue of ring_size descriptors, started; errors
 * printed with prog's name.  0 or a negative errno. */
static inline int
bench_port_setup(const char *prog, uint16_t port, struct rte_mempool *mp, uint16_t ring_size)
{
	struct rte_eth_conf conf;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, ring_size, rte_socket_id(), NULL, mp);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, ring_size, rte_socket_id(), NULL);
	if (rc == 0)
		rc = rte_eth_dev_start(port);
	if (rc != 0)
		fprintf(stderr, "%s: port %u setup: %s\n", prog, port, rte_strerror(-rc));
	return rc;
}

#endif /* PCC_BENCH_COMMON_H */
