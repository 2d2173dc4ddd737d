/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * pcc-host-example: a host program written against lib/host/pcc_host.h
 * alone, the way DOCA PCC's host guide sets up a PCC context (open the
 * device, create the context, set app, threads, affinity, probe format,
 * GNS ignore, mailbox, start, mailbox send, wait, stop, destroy).  The DTS
 * suite tests/dts/suites/test_host_api.py runs it on a veth pair and
 * checks on the wire and in /pcc/ telemetry that every setting took
 * effect (doc/host.md, "A host program").
 *
 *   pcc-host-example [EAL options] -- --rp-port P --np-port P
 *           --rp-lcore L --np-lcore L --algo NAME --np-app PLUGIN.so
 *           --gns-ignore MASK:VALUE --gns-answered G [--gen-flows N]
 *           [--gen-rate MBPS] [--idle-sleep US] [--count N] [--timeout S]
 *
 * Port rp-port gets an RP context (algorithm NAME, CCMAD probes in probe
 * slot 0, the generator's flows), np-port an NP context (the plug-in's NP
 * handler, the IFA2 GNS ignore rule); each context's one thread is pinned
 * to its lcore.  Progress is one JSON object per line on stdout.  The
 * program waits for a line on stdin twice: after the start ("started";
 * the engine runs as configured, nothing changed yet) and before the stop
 * ("done").  In between, each phase waits (bounded by --timeout) until
 * the counters show count more probes of its kind:
 *
 *   ccmad      CCMAD probes answered by the NP (its handler's data)
 *   mailbox    NP mailbox: the handler's setting becomes 0x5a, then count
 *              more answers (they carry it); RP mailbox: echo and info
 *   ignored    probe slot 0 becomes IFA2 with GNS = the ignored value: the
 *              NP ignores count of them (no answer)
 *   ifa2       IFA2 with GNS = gns-answered: count answers
 *
 * Exit status 0, 1 on a failed call or phase (the message names it), 2 on
 * bad usage.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>

#include "pcc_host.h"

#define EXIT_USAGE 2
#define NP_SETTING 0x5a
#define MB_ECHO 0x01 /* built-in algorithms' mailbox (doc/algorithms.md) */
#define MB_INFO 0x02
#define MAX_STATS 128

struct example_args {
	uint16_t rp_port;
	uint16_t np_port;
	uint32_t rp_lcore;
	uint32_t np_lcore;
	const char *algo;
	const char *np_app;
	uint8_t ign_mask;
	uint8_t ign_value;
	uint8_t gns_answered;
	const char *gen_flows;
	const char *gen_rate;
	const char *idle_sleep;
	uint64_t count;
	int timeout_s;
};

static void __attribute__((format(printf, 1, 2))) out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* A failed call: its name, return value and the host library's reason. */
static int
fail(const char *what, int rc)
{
	const char *why = pcc_host_last_error();

	fprintf(stderr, "pcc-host-example: %s: %d (%s)\n", what, rc,
			why != NULL && why[0] != '\0' ? why : strerror(rc < 0 ? -rc : rc));
	return 1;
}

static int
usage(const char *msg)
{
	if (msg != NULL)
		fprintf(stderr, "pcc-host-example: %s\n", msg);
	fprintf(stderr,
			"usage: pcc-host-example [EAL options] -- --rp-port P --np-port P\n"
			"        --rp-lcore L --np-lcore L --algo NAME --np-app PLUGIN.so\n"
			"        --gns-ignore MASK:VALUE --gns-answered G [--gen-flows N]\n"
			"        [--gen-rate MBPS] [--idle-sleep US] [--count N] [--timeout S]\n");
	return EXIT_USAGE;
}

static int
num(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return errno != 0 || end == s || *end != '\0' || *s == '-' || *v > max ? -1 : 0;
}

static int
args_parse(int argc, char **argv, struct example_args *a)
{
	static const struct option lo[] = {
		{ "rp-port", required_argument, NULL, 'r' },
		{ "np-port", required_argument, NULL, 'n' },
		{ "rp-lcore", required_argument, NULL, 'R' },
		{ "np-lcore", required_argument, NULL, 'N' },
		{ "algo", required_argument, NULL, 'a' },
		{ "np-app", required_argument, NULL, 'p' },
		{ "gns-ignore", required_argument, NULL, 'g' },
		{ "gns-answered", required_argument, NULL, 'G' },
		{ "gen-flows", required_argument, NULL, 'f' },
		{ "gen-rate", required_argument, NULL, 'b' },
		{ "idle-sleep", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v, w;
	char *colon;
	int c, seen = 0;

	memset(a, 0, sizeof(*a));
	a->gen_flows = "4";
	a->gen_rate = "100";
	a->idle_sleep = "50";
	a->count = 50;
	a->timeout_s = 30;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'r':
		case 'n':
			if (num(optarg, UINT16_MAX, &v) != 0)
				return usage("bad port id");
			*(c == 'r' ? &a->rp_port : &a->np_port) = (uint16_t)v;
			seen |= c == 'r' ? 1 : 2;
			break;
		case 'R':
		case 'N':
			if (num(optarg, UINT32_MAX, &v) != 0)
				return usage("bad lcore id");
			*(c == 'R' ? &a->rp_lcore : &a->np_lcore) = (uint32_t)v;
			seen |= c == 'R' ? 4 : 8;
			break;
		case 'a':
			a->algo = optarg;
			break;
		case 'p':
			a->np_app = optarg;
			break;
		case 'g':
			colon = strchr(optarg, ':');
			if (colon == NULL)
				return usage("--gns-ignore: MASK:VALUE");
			*colon = '\0';
			if (num(optarg, 0xf, &v) != 0 || num(colon + 1, 0xf, &w) != 0)
				return usage("--gns-ignore: MASK and VALUE are 0..0xf");
			a->ign_mask = (uint8_t)v;
			a->ign_value = (uint8_t)w;
			seen |= 16;
			break;
		case 'G':
			if (num(optarg, 0xf, &v) != 0)
				return usage("--gns-answered: 0..0xf");
			a->gns_answered = (uint8_t)v;
			seen |= 32;
			break;
		case 'f':
			a->gen_flows = optarg;
			break;
		case 'b':
			a->gen_rate = optarg;
			break;
		case 's':
			a->idle_sleep = optarg;
			break;
		case 'c':
			if (num(optarg, 1000000, &v) != 0 || v == 0)
				return usage("--count: 1..1000000");
			a->count = v;
			break;
		case 't':
			if (num(optarg, 3600, &v) != 0 || v == 0)
				return usage("--timeout: 1..3600 seconds");
			a->timeout_s = (int)v;
			break;
		default:
			return usage(NULL);
		}
	}
	if (optind != argc)
		return usage("unexpected argument");
	if (seen != 63 || a->algo == NULL || a->np_app == NULL)
		return usage("missing option");
	if ((a->gns_answered & a->ign_mask) == (a->ign_value & a->ign_mask))
		return usage("--gns-answered is ignored by --gns-ignore");
	return 0;
}

/* One named statistic of a port (pcc_host_stats_get). */
static uint64_t
stat(uint16_t port, const char *name)
{
	struct pcc_host_stat st[MAX_STATS];
	int n = pcc_host_stats_get(port, st, MAX_STATS), i;

	for (i = 0; i < n; i++)
		if (strcmp(st[i].name, name) == 0)
			return st[i].value;
	return 0;
}

static void
stats_print(uint16_t port)
{
	struct pcc_host_stat st[MAX_STATS];
	int n = pcc_host_stats_get(port, st, MAX_STATS), i;

	printf("{\"event\": \"stats\", \"port\": %u, \"stats\": {", port);
	for (i = 0; i < n; i++)
		printf("%s\"%s\": %" PRIu64, i > 0 ? ", " : "", st[i].name, st[i].value);
	out("}}");
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Wait until stat(port, name) reaches target; pcc_host_wait() returns on
 * a context state change or after 10 ms (a bounded wait on the counter,
 * not a sleep in its place).  The RP context going to ERROR ends it.
 */
static int
wait_stat(struct pcc_host_ctx *rp, uint16_t port, const char *name, uint64_t target, int timeout_s,
		const char *phase)
{
	double deadline = now_s() + timeout_s;
	uint64_t v;

	while ((v = stat(port, name)) < target) {
		if (pcc_host_ctx_state(rp) != PCC_HOST_CTX_RUNNING || now_s() > deadline) {
			fprintf(stderr,
					"pcc-host-example: phase %s: %s of port %u is %" PRIu64
					", waited for %" PRIu64 " (context %s)\n",
					phase, name, port, v, target,
					pcc_host_ctx_state_name(pcc_host_ctx_state(rp)));
			return -1;
		}
		pcc_host_wait(rp, 10);
	}
	out("{\"event\": \"phase\", \"phase\": \"%s\", \"port\": %u, \"%s\": %" PRIu64 "}", phase,
			port, name, v);
	return 0;
}

/* Wait for a line on stdin (the test's go-ahead); EOF is a go-ahead too. */
static void
wait_line(const char *event)
{
	char line[64];

	out("{\"event\": \"%s\"}", event);
	if (fgets(line, sizeof(line), stdin) == NULL)
		return;
}

static int
set_probe(struct pcc_host_ctx *rp, uint8_t fmt, uint8_t gns)
{
	struct pcc_host_probe_conf pc;
	int rc;

	memset(&pc, 0, sizeof(pc));
	pc.format = fmt;
	pc.ifa2_gns = gns;
	rc = pcc_host_set_probe(rp, 0, &pc);
	if (rc != 0)
		return fail("pcc_host_set_probe", rc);
	out("{\"event\": \"probe\", \"slot\": 0, \"format\": %u, \"gns\": %u}", fmt, gns);
	return 0;
}

/* The built-in algorithm's mailbox: echo, then info (id, version, rank). */
static int
rp_mailbox(struct pcc_host_ctx *rp)
{
	uint8_t *req = pcc_host_mailbox_req_buf(rp, NULL);
	uint8_t *resp = pcc_host_mailbox_resp_buf(rp, NULL);
	uint32_t len = 0;
	int rc, hrc = 0;

	req[0] = MB_ECHO;
	memcpy(req + 1, "hello", 5);
	rc = pcc_host_mailbox_send(rp, 0, 6, &len, &hrc, 1000);
	if (rc != 0)
		return fail("pcc_host_mailbox_send (RP echo)", rc);
	out("{\"event\": \"rp_mailbox\", \"op\": \"echo\", \"handler_rc\": %d, \"resp\": \"%.*s\"}",
			hrc, (int)(len < 5 ? len : 5), (const char *)resp);
	req[0] = MB_INFO;
	rc = pcc_host_mailbox_send(rp, 0, 1, &len, &hrc, 1000);
	if (rc != 0)
		return fail("pcc_host_mailbox_send (RP info)", rc);
	if (hrc < 0 || len < 11)
		return fail("RP mailbox info: short answer", hrc < 0 ? hrc : -EPROTO);
	resp[len - 1] = '\0';
	out("{\"event\": \"rp_mailbox\", \"op\": \"info\", \"handler_rc\": %d, \"id\": %u, "
	    "\"major\": %u, \"minor\": %u, \"rank\": %u, \"name\": \"%s\"}",
			hrc,
			(unsigned int)(resp[0] | resp[1] << 8 | resp[2] << 16 |
					(uint32_t)resp[3] << 24),
			resp[4] | resp[5] << 8, resp[6] | resp[7] << 8, resp[8] | resp[9] << 8,
			(const char *)resp + 10);
	return 0;
}

/* The NP application's mailbox: one byte, its new setting; answer: its
 * tag and the old setting (tests/unit/plugins/plug_np.c). */
static int
np_mailbox(struct pcc_host_ctx *np, uint8_t setting)
{
	uint8_t *req = pcc_host_mailbox_req_buf(np, NULL);
	uint8_t *resp = pcc_host_mailbox_resp_buf(np, NULL);
	uint32_t len = 0;
	int rc, hrc = 0;

	req[0] = setting;
	rc = pcc_host_mailbox_send(np, 0, 1, &len, &hrc, 1000);
	if (rc != 0)
		return fail("pcc_host_mailbox_send (NP)", rc);
	out("{\"event\": \"np_mailbox\", \"handler_rc\": %d, \"len\": %u, \"tag\": %u, "
	    "\"old\": %u, \"new\": %u}",
			hrc, len, len > 0 ? resp[0] : 0, len > 1 ? resp[1] : 0, setting);
	return hrc == 2 ? 0 : fail("NP mailbox answer", hrc);
}

/* Contexts, as DOCA's host guide orders the calls. */
static int
configure(const struct example_args *a, struct pcc_host_ctx **rpp, struct pcc_host_ctx **npp)
{
	struct pcc_host_ctx *rp, *np;
	struct pcc_host_probe_conf pc;
	int rc;

	out("{\"event\": \"caps\", \"min_threads\": %u, \"max_threads\": %u, "
	    "\"rp_supported\": %d, \"np_supported\": %d}",
			pcc_host_min_threads(), pcc_host_max_threads(),
			pcc_host_rp_supported(a->rp_port), pcc_host_np_supported(a->np_port));
	*rpp = rp = pcc_host_rp_create(a->rp_port);
	if (rp == NULL)
		return fail("pcc_host_rp_create", -1);
	*npp = np = pcc_host_np_create(a->np_port);
	if (np == NULL)
		return fail("pcc_host_np_create", -1);

	rc = pcc_host_set_app(rp, a->algo);
	if (rc == 0)
		rc = pcc_host_set_threads(rp, 1, 1);
	if (rc == 0)
		rc = pcc_host_set_affinity(rp, &a->rp_lcore, 1);
	if (rc != 0)
		return fail("RP context: app, threads, affinity", rc);
	memset(&pc, 0, sizeof(pc));
	pc.format = PCC_HOST_PROBE_CCMAD;
	rc = pcc_host_set_probe(rp, 0, &pc);
	if (rc == 0)
		rc = pcc_host_mailbox_set_size(rp, 64, 64);
	if (rc != 0)
		return fail("RP context: probe, mailbox", rc);

	rc = pcc_host_set_app(np, a->np_app);
	if (rc == 0)
		rc = pcc_host_set_threads(np, 1, 1);
	if (rc == 0)
		rc = pcc_host_set_affinity(np, &a->np_lcore, 1);
	if (rc != 0)
		return fail("NP context: app, threads, affinity", rc);
	rc = pcc_host_np_set_ifa2_gns_ignore(np, a->ign_mask, a->ign_value);
	if (rc == 0)
		rc = pcc_host_mailbox_set_size(np, 64, 64);
	if (rc != 0)
		return fail("NP context: GNS ignore, mailbox", rc);

	/* engine options without a DOCA call, by name */
	rc = pcc_host_opt_set(NULL, "gen-flows", a->gen_flows);
	if (rc == 0)
		rc = pcc_host_opt_set(NULL, "gen-rate", a->gen_rate);
	if (rc == 0)
		rc = pcc_host_opt_set(NULL, "idle-sleep", a->idle_sleep);
	if (rc != 0)
		return fail("pcc_host_opt_set", rc);
	rc = pcc_host_telemetry_register();
	if (rc != 0)
		return fail("pcc_host_telemetry_register", rc);
	return 0;
}

static int
run(const struct example_args *a, struct pcc_host_ctx *rp, struct pcc_host_ctx *np)
{
	uint64_t n = a->count;
	int rc;

	rc = pcc_host_start(rp);
	if (rc != 0)
		return fail("pcc_host_start (RP)", rc);
	rc = pcc_host_start(np);
	if (rc != 0)
		return fail("pcc_host_start (NP)", rc);
	wait_line("started");

	if (wait_stat(rp, a->np_port, "np_probe_ccmad", n, a->timeout_s, "ccmad") != 0)
		return 1;
	if (np_mailbox(np, NP_SETTING) != 0)
		return 1;
	if (wait_stat(rp, a->np_port, "np_probe_ccmad", stat(a->np_port, "np_probe_ccmad") + n,
			    a->timeout_s, "mailbox") != 0)
		return 1;
	if (rp_mailbox(rp) != 0)
		return 1;
	if (set_probe(rp, PCC_HOST_PROBE_IFA2, a->ign_value) != 0)
		return 1;
	if (wait_stat(rp, a->np_port, "np_ifa2_ignored", stat(a->np_port, "np_ifa2_ignored") + n,
			    a->timeout_s, "ignored") != 0)
		return 1;
	if (set_probe(rp, PCC_HOST_PROBE_IFA2, a->gns_answered) != 0)
		return 1;
	if (wait_stat(rp, a->np_port, "np_probe_ifa2", stat(a->np_port, "np_probe_ifa2") + n,
			    a->timeout_s, "ifa2") != 0)
		return 1;
	stats_print(a->rp_port);
	stats_print(a->np_port);
	wait_line("done");

	rc = pcc_host_stop(rp);
	if (rc == 0)
		rc = pcc_host_stop(np);
	if (rc != 0)
		return fail("pcc_host_stop", rc);
	out("{\"event\": \"stopped\", \"rp\": \"%s\", \"np\": \"%s\"}",
			pcc_host_ctx_state_name(pcc_host_ctx_state(rp)),
			pcc_host_ctx_state_name(pcc_host_ctx_state(np)));
	return 0;
}

int
main(int argc, char **argv)
{
	struct pcc_host_ctx *rp = NULL, *np = NULL;
	struct example_args a;
	int n, rc;

	n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "pcc-host-example: rte_eal_init failed\n");
		return 1;
	}
	argv[n] = argv[0];
	rc = args_parse(argc - n, argv + n, &a);
	if (rc == 0) {
		rc = configure(&a, &rp, &np);
		if (rc == 0)
			rc = run(&a, rp, np);
	}
	pcc_host_destroy(rp);
	pcc_host_destroy(np);
	rte_eal_cleanup();
	return rc;
}
