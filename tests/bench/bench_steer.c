/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * bench_steer: RP events per lcore with 1 and 2 engine lcores, CC packets
 * steered as RSS would (hash of the IP addresses and UDP ports, Toeplitz
 * with the common 40-byte key, queue = hash % queues) or as the engine's
 * steering does (pcc_engine_steer_rxq(): the queue of the flow's owner,
 * where its rte_flow rules put them on a NIC), in one run.
 *
 * Each phase builds a dpdk-pcc engine with one RP port, side A of a ring
 * pair with one RX queue per engine lcore, and --flows flows (one 64-byte
 * message each, then nothing to send).  The engine lcores are worker
 * lcores; the main lcore only sets up and samples (it sleeps between
 * samples).  Once the flows exist the port is paused, side B fills every
 * RX queue of side A with --events CNPs in all (round robin over the
 * flows, one event each: no two of a queue's consecutive CNPs are for one
 * flow), the port resumes and the lcores run flat out until the rings are
 * empty.  No generator runs while the engine works: the figure is the
 * engine's alone.
 *
 * ns/event of an lcore = its on-CPU time (its thread's CPU-time clock)
 * over the events it dispatched (CNPs received less those handed over,
 * plus those handed to it), between the samples (every 100 us) where it
 * had dispatched 10 % and 80 % of its own: it has packets all along.
 * Mev/s: all events over the wall time until the last one (the 2 CPUs of
 * a shared machine make it the least stable figure).  "x 1-lcore" is that over the 1-lcore phase's.
 * Xring-out: records handed to the other lcore; Xring-drop: lost (must
 * be 0); Xring-wait: RX bursts deferred for room (backpressure).
 *
 * Not a test: run it with devtools/bench-steer.sh (EAL --lcores puts the
 * main lcore, which mostly sleeps, beside engine lcore 1).
 *
 *   bench_steer [EAL options] -- [--flows N] [--events N] [--burst N]
 *               [--algo NAME] [--repeat N]
 */

#include <dirent.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_thash.h>

#include <pcc_dev.h>
#include <pcc_engine.h>
#include <pcc_proto.h>

#include "bench_common.h"
#include "pcc_algos.h"

#define QPN_BASE 0x100
#define CNP_LEN_MAX 128
#define MAX_LC 2
#define SAMPLES_MAX 100000
#define SAMPLE_NS 100000

struct opts {
	uint32_t flows;
	uint32_t events;
	unsigned int burst;
	const char *algo;
	unsigned int repeat;
};

static struct opts o = {
	.flows = 1024,
	.events = 1u << 19,
	.burst = 32,
	.algo = "noop",
	.repeat = 3,
};

/* one sample: events dispatched and on-CPU ns of each lcore */
struct sample {
	uint64_t tsc;
	uint64_t ev[MAX_LC];
	uint64_t cpu[MAX_LC];
};

struct result {
	double ns_ev[MAX_LC];
	double med_ns_ev[MAX_LC]; /* median over the sampling intervals */
	double mev_s;             /* all lcores, per wall second in the window */
	uint64_t events, xring_out, xring_drop, xring_wait, no_flow, refused;
};

static struct sample *samples;
static double *costs;

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Median of lcore k's on-CPU ns/event over the intervals between samples
 * s10 and s80 in which it ran at least half the interval: robust to the
 * moments another process on a shared CPU evicts its caches.
 */
static double
median_cost(unsigned int k, unsigned int s10, unsigned int s80)
{
	unsigned int j, n = 0;

	for (j = s10; j < s80; j++) {
		uint64_t dev = samples[j + 1].ev[k] - samples[j].ev[k];
		uint64_t dcpu = samples[j + 1].cpu[k] - samples[j].cpu[k];
		uint64_t dwall =
				(samples[j + 1].tsc - samples[j].tsc) * NS_PER_S / rte_get_tsc_hz();

		if (dev > 0 && 2 * dcpu >= dwall)
			costs[n++] = (double)dcpu / (double)dev;
	}
	if (n == 0)
		return 0;
	qsort(costs, n, sizeof(*costs), cmp_double);
	return costs[n / 2];
}

/* RSS as a NIC would hash a CNP: Toeplitz over IPv4 src, dst, UDP ports. */
static const uint8_t rss_key[40] = {
	0x6d,
	0x5a,
	0x56,
	0xda,
	0x25,
	0x5b,
	0x0e,
	0xc2,
	0x41,
	0x67,
	0x25,
	0x3d,
	0x43,
	0xa3,
	0x8f,
	0xb0,
	0xd0,
	0xca,
	0x2b,
	0xcb,
	0xae,
	0x7b,
	0x30,
	0xb4,
	0x77,
	0xcb,
	0x2d,
	0xa3,
	0x80,
	0x30,
	0xf2,
	0x0c,
	0x6a,
	0x42,
	0xb7,
	0x3b,
	0xbe,
	0xac,
	0x01,
	0xfa,
};

static uint32_t
rss_hash(const struct pcc_l3_spec *l3, uint16_t sport)
{
	uint32_t t[3];

	t[0] = l3->src.v4;
	t[1] = l3->dst.v4;
	t[2] = ((uint32_t)sport << 16) | PCC_ROCE_UDP_PORT;
	return rte_softrss(t, 3, rss_key);
}

/*
 * On-CPU ns of another thread of the process, up to date (the kernel adds
 * the running slice; /proc/.../schedstat would lag by up to a tick): its
 * CPU-time clock, made from its thread id as glibc's
 * pthread_getcpuclockid() does (CPUCLOCK_SCHED | CPUCLOCK_PERTHREAD_MASK).
 */
static uint64_t
task_cpu_ns(int tid)
{
	clockid_t clk = (clockid_t)((~(unsigned int)tid) << 3) | 6;
	struct timespec ts;

	if (clock_gettime(clk, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* Thread id of an EAL worker lcore (named rte-worker-N). */
static int
lcore_tid(unsigned int lcore)
{
	char want[32], path[300], name[64];
	struct dirent *d;
	DIR *dir;
	int tid = -1;

	snprintf(want, sizeof(want), "rte-worker-%u", lcore);
	dir = opendir("/proc/self/task");
	if (dir == NULL)
		return -1;
	while ((d = readdir(dir)) != NULL && tid < 0) {
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(name, sizeof(name), f) != NULL) {
			name[strcspn(name, "\n")] = '\0';
			if (strcmp(name, want) == 0)
				tid = atoi(d->d_name);
		}
		fclose(f);
	}
	closedir(dir);
	return tid;
}

static void
sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	nanosleep(&ts, NULL);
}

/* Events an lcore dispatched: each CNP it received is one (no two are
 * coalesced), processed there or handed over; plus those handed to it. */
static uint64_t
lcore_events(struct pcc_engine *e, unsigned int lcore)
{
	struct pcc_engine_lcore_stats ls;

	if (pcc_engine_lcore_stats_get(e, lcore, &ls) != 0)
		return 0;
	return ls.rx_pkts - ls.xring_out + ls.xring_in;
}

static unsigned int pair_seq;

/*
 * One phase: nl engine lcores (worker lcores lcores[]), steer: the
 * engine's steering, else RSS.
 */
static int
run_phase(unsigned int nl, const unsigned int *lcores, bool steer, struct result *r)
{
	static struct pcc_engine_conf conf;
	const uint32_t ring = rte_align32pow2(o.events + o.flows + 1024);
	struct pcc_engine_rxq_conf rxq[MAX_LC];
	struct pcc_engine_lcore_stats ls;
	struct pcc_engine_port_stats st;
	struct pcc_engine_gen_group grp;
	struct pcc_engine *e = NULL;
	struct rte_mempool *mp;
	struct pcc_ring_pair *rp;
	struct pcc_l3_spec l3;
	struct rte_eth_conf ec;
	int tid[MAX_LC];
	uint64_t ev0[MAX_LC], t0, total;
	unsigned int k, j, ns = 0;
	uint16_t pa, pb, q;
	uint32_t i;
	char name[32];
	int rc = -1;

	memset(r, 0, sizeof(*r));
	/* a pool of its own: its mbufs in address order, as in the first
	 * phase (a pool a phase left scrambled costs TLB misses on 4 KiB
	 * pages) */
	snprintf(name, sizeof(name), "bstp%u", pair_seq);
	mp = rte_pktmbuf_pool_create(name, o.events + 4096, 256, 0,
			RTE_PKTMBUF_HEADROOM + CNP_LEN_MAX, (int)rte_socket_id());
	if (mp == NULL) {
		fprintf(stderr, "bench_steer: mbuf pool: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	snprintf(name, sizeof(name), "bst%u", pair_seq++);
	rp = pcc_ring_pair_create(name, (uint16_t)nl, (uint16_t)nl, ring, (int)rte_socket_id());
	if (rp == NULL) {
		fprintf(stderr, "bench_steer: ring pair: %s\n", rte_strerror(rte_errno));
		rte_mempool_free(mp);
		return -1;
	}
	pa = pcc_ring_pair_port(rp, 0);
	pb = pcc_ring_pair_port(rp, 1);
	memset(&ec, 0, sizeof(ec));
	if (rte_eth_dev_configure(pb, (uint16_t)nl, (uint16_t)nl, &ec) != 0)
		goto out;
	for (q = 0; q < nl; q++)
		if (rte_eth_rx_queue_setup(pb, q, 1024, rte_socket_id(), NULL, mp) != 0 ||
				rte_eth_tx_queue_setup(pb, q, 1024, rte_socket_id(), NULL) != 0)
			goto out;
	if (rte_eth_dev_start(pb) != 0)
		goto out;

	pcc_engine_conf_default(&conf);
	conf.port[pa].roles = PCC_ENGINE_ROLE_RP;
	conf.port[pa].icrc_hw = true; /* as a NIC that verified it */
	for (k = 0; k < nl; k++) {
		rxq[k].port_id = pa;
		rxq[k].queue_id = (uint16_t)k;
		rxq[k].lcore_id = lcores[k];
	}
	conf.rxq = rxq;
	conf.nb_rxq_conf = nl;
	conf.nb_rxq = (uint16_t)nl;
	conf.nb_rxd = 1024;
	conf.nb_txd = 1024;
	conf.nb_mbufs = 4 * o.flows + 16384;
	conf.burst = (uint16_t)o.burst;
	conf.flow.capacity = RTE_MAX(4 * o.flows, 2048u);
	conf.flow.idle_ms = 0;
	memset(&grp, 0, sizeof(grp));
	grp.port_id = pa;
	grp.count = o.flows;
	grp.qpn_base = QPN_BASE;
	grp.payload_len = 64;
	grp.size = 64;
	grp.unpaced = true;
	conf.gen.groups = &grp;
	conf.gen.nb_groups = 1;
	conf.gen.payload_len = 64;
	conf.rp.algo = o.algo;
	e = pcc_engine_create(&conf);
	if (e == NULL) {
		fprintf(stderr, "bench_steer: engine: %s\n", rte_strerror(rte_errno));
		goto out;
	}
	if (pcc_engine_start(e) != 0)
		goto out;
	for (k = 0; k < nl; k++) {
		tid[k] = lcore_tid(lcores[k]);
		if (tid[k] < 0) {
			fprintf(stderr, "bench_steer: no thread for lcore %u\n", lcores[k]);
			goto stop;
		}
	}
	while (pcc_engine_flow_count(e) < o.flows)
		sleep_ns(1000000);
	/* the rings filled while nobody polls them (what an lcore still took
	 * while the pause reached it counts: side A receives nothing else) */
	pcc_engine_port_pause(e, pa, true);
	for (k = 0; k < nl; k++)
		ev0[k] = lcore_events(e, lcores[k]);
	memset(&l3, 0, sizeof(l3));
	memcpy(l3.dst_mac, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(l3.src_mac, "\x02\x00\x00\x00\x00\x02", 6);
	l3.src.v4 = RTE_IPV4(10, 0, 0, 2);
	l3.dst.v4 = RTE_IPV4(10, 0, 0, 1);
	l3.dscp = 48;
	/* each queue's CNPs from consecutive mbufs (a NIC fills a queue from
	 * its own descriptors): one queue's packets interleaved with the
	 * other's would touch twice the pages per event */
	for (q = 0; q < nl; q++) {
		for (i = 0; i < o.events; i++) {
			uint32_t qpn = QPN_BASE + i % o.flows;
			struct rte_mbuf *m;
			uint16_t sport = pcc_roce_udp_sport(qpn, qpn);
			uint16_t qi;
			int len;

			if (nl == 1)
				qi = 0;
			else if (steer)
				qi = (uint16_t)pcc_engine_steer_rxq(e, pa, qpn);
			else
				qi = (uint16_t)(rss_hash(&l3, sport) % nl);
			if (qi != q)
				continue;
			m = rte_pktmbuf_alloc(mp);
			if (m == NULL) {
				fprintf(stderr, "bench_steer: out of mbufs\n");
				goto stop;
			}
			l3.udp_sport = sport;
			len = pcc_cnp_build(rte_pktmbuf_mtod(m, uint8_t *), CNP_LEN_MAX, &l3, qpn);
			if (len < 0) {
				rte_pktmbuf_free(m);
				goto stop;
			}
			m->data_len = (uint16_t)len;
			m->pkt_len = (uint32_t)len;
			if (rte_eth_tx_burst(pb, q, &m, 1) != 1) {
				rte_pktmbuf_free(m);
				r->refused++;
			}
		}
	}
	total = o.events - r->refused;
	t0 = rte_rdtsc();
	pcc_engine_port_pause(e, pa, false);
	for (;;) {
		struct sample *s = &samples[ns];
		uint64_t sum = 0;

		s->tsc = rte_rdtsc();
		for (k = 0; k < nl; k++) {
			s->cpu[k] = task_cpu_ns(tid[k]);
			s->ev[k] = lcore_events(e, lcores[k]) - ev0[k];
			sum += s->ev[k];
		}
		if (ns + 1 < SAMPLES_MAX)
			ns++;
		if (sum >= total || rte_rdtsc() - t0 > 60 * rte_get_tsc_hz())
			break;
		sleep_ns(SAMPLE_NS);
	}
	/* each lcore between 10 % and 80 % of its own events: it has packets
	 * all along */
	for (k = 0; k < nl; k++) {
		uint64_t fin = samples[ns - 1].ev[k], dev, dcpu;
		unsigned int s10 = ns, s80 = ns;

		for (j = 0; j < ns; j++) {
			if (s10 == ns && samples[j].ev[k] * 10 >= fin)
				s10 = j;
			if (s80 == ns && samples[j].ev[k] * 10 >= fin * 8)
				s80 = j;
		}
		if (s80 >= ns || s80 <= s10) {
			/* the sampler did not run in time (it shares a CPU) */
			rc = 1;
			goto stop;
		}
		dev = samples[s80].ev[k] - samples[s10].ev[k];
		dcpu = samples[s80].cpu[k] - samples[s10].cpu[k];
		r->ns_ev[k] = (double)dcpu / (double)dev;
		r->med_ns_ev[k] = median_cost(k, s10, s80);
		r->events += fin;
	}
	r->mev_s = (double)r->events /
			((double)(samples[ns - 1].tsc - t0) / (double)rte_get_tsc_hz()) / 1e6;
	rc = 0;
stop:
	pcc_engine_port_pause(e, pa, false);
	pcc_engine_stop(e);
	pcc_engine_wait(e);
	pcc_engine_port_stats_get(e, pa, &st);
	r->xring_drop = st.xring_drop;
	r->xring_wait = st.xring_wait;
	r->no_flow = st.rp_no_flow;
	for (k = 0; k < nl; k++)
		if (pcc_engine_lcore_stats_get(e, lcores[k], &ls) == 0)
			r->xring_out += ls.xring_out;
out:
	pcc_engine_destroy(e);
	rte_eth_dev_stop(pb);
	pcc_ring_pair_free(rp);
	rte_mempool_free(mp);
	return rc;
}

static void
usage(FILE *out)
{
	fprintf(out,
			"usage: bench_steer [EAL options] -- [--flows N] [--events N] [--burst N]\n"
			"                   [--algo NAME] [--repeat N]\n");
}

static int
parse_args(int argc, char **argv)
{
	const struct bench_opt opts[] = {
		{ "flows", BENCH_OPT_U32, &o.flows, 64, 1u << 18, NULL },
		{ "events", BENCH_OPT_U32, &o.events, 1u << 16, 1u << 22, NULL },
		{ "burst", BENCH_OPT_U32, &o.burst, 1, PCC_ENGINE_BURST_MAX, NULL },
		{ "algo", BENCH_OPT_STR, &o.algo, 0, 0, NULL },
		{ "repeat", BENCH_OPT_U32, &o.repeat, 1, 100, NULL },
	};

	return bench_opts_parse("bench_steer", argc, argv, opts, RTE_DIM(opts), usage);
}

static void
print_row(const char *what, unsigned int nl, const struct result *r, const struct result *one)
{
	double worst = RTE_MAX(r->ns_ev[0], nl > 1 ? r->ns_ev[1] : 0);
	double mworst = RTE_MAX(r->med_ns_ev[0], nl > 1 ? r->med_ns_ev[1] : 0);

	printf("%-7s %2u %8.1f %8.1f %7.2f %8.1f %8.1f %7.2f %6.2f %8" PRIu64 " %9" PRIu64
	       " %10" PRIu64 " %10" PRIu64 " %7" PRIu64 "\n",
			what, nl, r->ns_ev[0], nl > 1 ? r->ns_ev[1] : 0.0, worst / one->ns_ev[0],
			r->med_ns_ev[0], nl > 1 ? r->med_ns_ev[1] : 0.0, mworst / one->med_ns_ev[0],
			r->mev_s, r->events, r->xring_out, r->xring_drop, r->xring_wait,
			r->no_flow);
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	unsigned int lcores[MAX_LC], n = 0, l, k;
	struct result r1, rr, re;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "bench_steer: EAL init failed\n");
		return 1;
	}
	if (pcc_algos_register_builtin() < 0)
		return 1;
	argc -= ret;
	argv += ret;
	if (parse_args(argc, argv) != 0) {
		usage(stderr);
		return 2;
	}
	RTE_LCORE_FOREACH_WORKER(l)
	{
		if (n < MAX_LC)
			lcores[n++] = l;
	}
	if (n < MAX_LC) {
		fprintf(stderr, "bench_steer: needs 2 worker lcores (e.g. --lcores 0@0,1@0,2@1)\n");
		return 2;
	}
	samples = calloc(SAMPLES_MAX, sizeof(*samples));
	costs = calloc(SAMPLES_MAX, sizeof(*costs));
	if (samples == NULL || costs == NULL)
		return 1;
	rte_log_set_level_pattern("pcc.*", RTE_LOG_WARNING);
	printf("# %s, %u flows, %u CNP events per phase (one per CNP), burst %u; ns/event "
	       "on-CPU per lcore between 10%% and 80%% of its events\n",
			o.algo, o.flows, o.events, o.burst);
	printf("# ns/ev-K: lcore K over the window; med-K: median over 100 us intervals; "
	       "x 1-lc: the worse lcore over the 1-lcore phase\n");
	printf("%-7s %2s %8s %8s %7s %8s %8s %7s %6s %8s %9s %10s %10s %7s\n", "steer", "lc",
			"ns/ev-0", "ns/ev-1", "x 1-lc", "med-0", "med-1", "x 1-lc", "Mev/s",
			"events", "xring-out", "xring-drop", "xring-wait", "no-flow");
	for (k = 0; k < o.repeat; k++) {
		int r;

		r = run_phase(1, lcores, false, &r1);
		if (r == 0)
			r = run_phase(2, lcores, false, &rr);
		if (r == 0)
			r = run_phase(2, lcores, true, &re);
		if (r < 0)
			return 1;
		if (r > 0) {
			printf("# run %u left out: a phase's lcore did 10-80 %% of its events "
			       "between two samples (the sampler was not scheduled)\n",
					k);
			continue;
		}
		print_row("-", 1, &r1, &r1);
		print_row("rss", 2, &rr, &r1);
		print_row("engine", 2, &re, &r1);
	}
	free(samples);
	free(costs);
	test_eal_cleanup();
	return 0;
}
