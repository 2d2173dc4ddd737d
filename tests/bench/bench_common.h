/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_BENCH_COMMON_H
#define PCC_BENCH_COMMON_H

/* What the benchmarks of tests/bench share: option values, clocks, a
 * seeded generator, a one-queue port. */

#include <errno.h>
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
