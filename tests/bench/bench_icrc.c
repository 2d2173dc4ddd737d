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
 * Prints best and range over the rounds.
 *
 * Then bursts: 32 CNPs (and 32 ACKs) of different flows, each in its own
 * buffer, their ICRCs checked frame by frame (pcc_cc_icrc_ok()) against
 * pcc_cc_icrc_ok_bulk() at each vector width the CPU has (0: one frame at
 * a time, 256, 512), alternately, --calls / 32 bursts per figure.
 * doc/perf-icrc.md, "ICRC verification", has the figures.  Not a test.
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
#include "pcc_proto_cc.h"
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

#define BURST 32
#define N_BULK 4 /* frame by frame; bulk at 0, 256, 512 bits */

struct burst {
	const char *name;
	uint8_t buf[BURST][256];
	const uint8_t *frames[BURST];
	struct pcc_cc_frame cc[BURST];
};

static struct burst bursts[2];

/* 32 CNPs (b 0) or ACKs (b 1) of flows 0x100 + i, matched */
static int
burst_build(unsigned int b)
{
	struct pcc_l3_spec l3 = { .src.v4 = 0x0a000001, .dst.v4 = 0x0a000002 };
	struct pcc_roce_spec ack = { .bth = { .opcode = PCC_OP_RC_ACK, .pkey = 0xffff, .psn = 77 },
		.aeth = { .msn = 5 } };
	struct burst *u = &bursts[b];
	unsigned int i;
	int n;

	u->name = b == 0 ? "CNP v4" : "ACK v4";
	for (i = 0; i < BURST; i++) {
		ack.bth.dqpn = 0x100 + i;
		n = b == 0 ? pcc_cnp_build(u->buf[i], sizeof(u->buf[i]), &l3, 0x100 + i) :
			     pcc_roce_build(u->buf[i], sizeof(u->buf[i]), &l3, &ack);
		if (n < 0 || !pcc_cc_match(u->buf[i], (uint32_t)n, NULL, &u->cc[i]) ||
				!pcc_cc_icrc_ok(u->buf[i], &u->cc[i]))
			return -1;
		u->frames[i] = u->buf[i];
	}
	return 0;
}

/* ns per frame: n / BURST bursts checked by way w (0: frame by frame,
 * else bulk at bits 0, 256, 512); -1 if the CPU lacks the width */
static double
run_burst(const struct burst *u, unsigned int w, uint32_t n, uint32_t *sink)
{
	static const unsigned int bits[N_BULK] = { 0, 0, 256, 512 };
	uint64_t ok = 0, t0;
	uint32_t k, i;

	if (w > 0 && proto_icrc_bulk_width(bits[w]) != bits[w])
		return -1;
	t0 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (k = 0; k < n / BURST; k++) {
		if (w == 0)
			for (i = 0; i < BURST; i++)
				ok += pcc_cc_icrc_ok(u->frames[i], &u->cc[i]);
		else
			ok += pcc_cc_icrc_ok_bulk(u->frames, u->cc, BURST);
	}
	*sink ^= (uint32_t)ok;
	return (double)(bench_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (n / BURST * BURST);
}

/* The bursts' figures: best and range per way, and frame-by-frame / way. */
static void
bursts_run(uint32_t *sink)
{
	static const char *const way[N_BULK] = { "each", "bulk-0", "bulk-256", "bulk-512" };
	static double ns[2][N_BULK][MAX_ROUNDS];
	unsigned int b, w, r;

	for (r = 0; r < o.rounds; r++)
		for (b = 0; b < 2; b++)
			for (w = 0; w < N_BULK; w++)
				ns[b][w][r] = run_burst(&bursts[b], w, o.calls, sink);
	printf("# bursts of %u frames: pcc_cc_icrc_ok() each, pcc_cc_icrc_ok_bulk() at 0, "
	       "256, 512 bits\n",
			BURST);
	printf("%-9s %-9s %7s %15s %9s\n", "frames", "way", "best", "range (ns)", "each/way");
	for (b = 0; b < 2; b++) {
		double best[N_BULK], worst[N_BULK];

		for (w = 0; w < N_BULK; w++) {
			best[w] = worst[w] = ns[b][w][0];
			for (r = 1; r < o.rounds; r++) {
				best[w] = RTE_MIN(best[w], ns[b][w][r]);
				worst[w] = RTE_MAX(worst[w], ns[b][w][r]);
			}
			if (best[w] < 0)
				continue;
			printf("%-9s %-9s %7.2f %7.2f-%-7.2f %9.2f\n", bursts[b].name, way[w],
					best[w], best[w], worst[w], best[0] / best[w]);
		}
	}
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
	if (burst_build(0) != 0 || burst_build(1) != 0) {
		fprintf(stderr, "bench_icrc: bursts not built\n");
		return 1;
	}
	bursts_run(&sink);
	printf("# (sink %08x)\n", sink);
	test_eal_cleanup();
	return 0;
}
