/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * bench_icrc: ns per pcc_icrc_calc() of the datagrams of CC packets, the
 * ICRC computed in registers (lib/proto/proto_icrc.c, "Short datagrams in
 * registers") against the path before it (rte_net_crc over a masked
 * copy), both in one process, alternately.
 *
 *   bench_icrc [EAL options] -- [--calls N] [--rounds N]
 *
 * Datagrams: a CNP (56 bytes, IPv4), an RC ACK over IPv4 (44) and over
 * IPv6 (64), a CCMAD probe request (IPv4).  Per round, for each datagram,
 * mode and path in turn, N calls timed on CLOCK_THREAD_CPUTIME_ID:
 *  - lat: each call's datagram address depends on the last call's result
 *    (an opaque zero mask), so calls do not overlap: the latency;
 *  - tput: independent calls, results xored: what the CPU overlaps.
 * Prints best and range over the rounds.  doc/perf-rp.md, "ICRC
 * verification", has the figures.  Not a test.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "bench_common.h"
#include "pcc_proto.h"
#include "proto_internal.h"

#define N_DG 4
#define MAX_ROUNDS 50

static struct {
	uint32_t calls;
	uint32_t rounds;
} o = { 2000000, 5 };

struct dg {
	const char *name;
	uint8_t frame[512];
	const uint8_t *ip;
	uint32_t len;
};

static struct dg dgs[N_DG];

/* read once, never known to be zero: the latency chain's address mask */
static volatile uint32_t opaque_zero;

static int
build(void)
{
	struct pcc_l3_spec l3 = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
		.src_mac = { 2, 0, 0, 0, 0, 1 },
		.src.v4 = 0x0a000001,
		.dst.v4 = 0x0a000002 };
	struct pcc_roce_spec ack = {
		.bth = { .opcode = PCC_OP_RC_ACK, .pkey = 0xffff, .dqpn = 0x123, .psn = 77 },
		.aeth = { .msn = 5 }
	};
	struct pcc_probe p = { .tid = 1, .flow_tag = 2 };
	struct pcc_pkt_info info;
	int n[N_DG], i;

	dgs[0].name = "CNP v4";
	n[0] = pcc_cnp_build(dgs[0].frame, sizeof(dgs[0].frame), &l3, 0x123);
	dgs[1].name = "ACK v4";
	n[1] = pcc_roce_build(dgs[1].frame, sizeof(dgs[1].frame), &l3, &ack);
	dgs[3].name = "probe v4";
	n[3] = pcc_probe_req_build(dgs[3].frame, sizeof(dgs[3].frame), &l3, 0x55, &p, NULL);
	l3.ipv6 = true;
	memset(&l3.src, 0, sizeof(l3.src));
	memset(&l3.dst, 0, sizeof(l3.dst));
	l3.src.v6[0] = l3.dst.v6[0] = 0xfd;
	l3.src.v6[15] = 1;
	l3.dst.v6[15] = 2;
	dgs[2].name = "ACK v6";
	n[2] = pcc_roce_build(dgs[2].frame, sizeof(dgs[2].frame), &l3, &ack);
	for (i = 0; i < N_DG; i++) {
		if (n[i] < 0 || pcc_parse(dgs[i].frame, (uint32_t)n[i], NULL, &info) != 0) {
			fprintf(stderr, "bench_icrc: %s not built\n", dgs[i].name);
			return -1;
		}
		dgs[i].ip = dgs[i].frame + info.l3_off;
		dgs[i].len = (uint32_t)n[i] - info.l3_off - PCC_ICRC_LEN;
	}
	return 0;
}

/* ns per call, n calls, each on the last one's result */
static double
run_lat(const struct dg *d, uint32_t n, uint32_t *sink)
{
	uint32_t c = 0, zero = opaque_zero, i;
	uint64_t t0;

	t0 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (i = 0; i < n; i++)
		c = pcc_icrc_calc(d->ip + (c & zero), d->len, NULL);
	*sink ^= c;
	return (double)(bench_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / n;
}

/* ns per call, n independent calls */
static double
run_tput(const struct dg *d, uint32_t n, uint32_t *sink)
{
	uint32_t c = 0, i;
	uint64_t t0;

	t0 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (i = 0; i < n; i++)
		c ^= pcc_icrc_calc(d->ip, d->len, NULL);
	*sink ^= c;
	return (double)(bench_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / n;
}

static void
usage(FILE *out)
{
	fprintf(out, "usage: bench_icrc [EAL options] -- [--calls N] [--rounds N]\n");
}

int
main(int argc, char **argv)
{
	const struct bench_opt opts[] = {
		{ "calls", BENCH_OPT_U32, &o.calls, 1000, 1e9, NULL },
		{ "rounds", BENCH_OPT_U32, &o.rounds, 1, MAX_ROUNDS, NULL },
	};
	static const char *const path_name[2] = { "old", "new" };
	static const char *const mode_name[2] = { "lat", "tput" };
	static double ns[N_DG][2][2][MAX_ROUNDS]; /* datagram, mode, path, round */
	uint32_t sink = 0, c[2];
	unsigned int r, i, m, p;
	double best, worst;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "bench_icrc: EAL init failed\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (bench_opts_parse("bench_icrc", argc, argv, opts, RTE_DIM(opts), usage) != 0) {
		usage(stderr);
		return 2;
	}
	if (pcc_proto_crc_init() == 0 || build() != 0) {
		fprintf(stderr, "bench_icrc: no vector CRC on this CPU\n");
		return 1;
	}
	/* the two paths agree, and the new one is there */
	for (i = 0; i < N_DG; i++) {
		for (p = 0; p < 2; p++) {
			if (proto_icrc_reg_use(p == 1) != (p == 1)) {
				fprintf(stderr, "bench_icrc: no PCLMULQDQ/SSE4.1\n");
				return 1;
			}
			c[p] = pcc_icrc_calc(dgs[i].ip, dgs[i].len, NULL);
		}
		if (c[0] != c[1]) {
			fprintf(stderr, "bench_icrc: %s: %08x, %08x\n", dgs[i].name, c[0], c[1]);
			return 1;
		}
	}
	printf("# pcc_icrc_calc(), %u calls per figure, %u rounds; old: rte_net_crc over a "
	       "masked copy, new: in registers\n",
			o.calls, o.rounds);
	for (r = 0; r < o.rounds; r++)
		for (i = 0; i < N_DG; i++)
			for (m = 0; m < 2; m++)
				for (p = 0; p < 2; p++) {
					proto_icrc_reg_use(p == 1);
					ns[i][m][p][r] = m == 0 ? run_lat(&dgs[i], o.calls, &sink) :
								  run_tput(&dgs[i], o.calls, &sink);
				}
	printf("%-9s %5s %-5s %-4s %7s %15s %9s\n", "datagram", "bytes", "mode", "path", "best",
			"range (ns)", "old/new");
	for (i = 0; i < N_DG; i++) {
		for (m = 0; m < 2; m++) {
			double b[2];

			for (p = 0; p < 2; p++) {
				best = worst = ns[i][m][p][0];
				for (r = 1; r < o.rounds; r++) {
					best = RTE_MIN(best, ns[i][m][p][r]);
					worst = RTE_MAX(worst, ns[i][m][p][r]);
				}
				b[p] = best;
				printf("%-9s %5u %-5s %-4s %7.2f %7.2f-%-7.2f", dgs[i].name,
						dgs[i].len, mode_name[m], path_name[p], best, best,
						worst);
				if (p == 1)
					printf(" %9.2f", b[0] / b[1]);
				printf("\n");
			}
		}
	}
	printf("# (sink %08x)\n", sink);
	test_eal_cleanup();
	return 0;
}
