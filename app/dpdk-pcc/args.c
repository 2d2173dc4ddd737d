/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Application options: getopt_long, value parsers, usage and version. */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_version.h>

#include "args.h"
#include "pcc_host.h"

enum {
	OPT_HELP = 'h',
	OPT_VERSION = 'v',
	OPT_INTERACTIVE = 'i',
	OPT_LONG_MIN = 256,
	OPT_HELP_EAL = OPT_LONG_MIN,
	OPT_RUN_TIME,
	OPT_STATS_PERIOD,
	OPT_RING_PAIR,
	OPT_RP_PORTS,
	OPT_NP_PORTS,
	OPT_CONFIG,
	OPT_RXQ,
	OPT_TXQ,
	OPT_RXD,
	OPT_TXD,
	OPT_BURST,
	OPT_NB_MBUFS,
	OPT_IDLE_SLEEP,
	OPT_GEN_FLOWS,
	OPT_GEN_QPN,
	OPT_GEN_SIZE,
	OPT_GEN_RATE,
	OPT_GEN_CE,
	OPT_GEN_IPV6,
	OPT_GEN_DSCP,
	OPT_GEN_SRC_IP,
	OPT_GEN_DST_IP,
	OPT_GEN_DST_MAC,
	OPT_NP_CNP,
	OPT_NP_CNP_DSCP,
	OPT_NP_SQPN_OFFSET,
	/* NP runner and probe formats (np.c, probe.c): np_opt() */
	OPT_NP_SQPN,
	OPT_NP_CNP_GAP,
	OPT_NP_CNP_PCP,
	OPT_NP_LEARN,
	OPT_NP_PROBE_FAST,
	OPT_NP_QP_TABLE,
	OPT_NP_MARK_CE,
	OPT_NP_RESP_TS,
	OPT_NP_TS_SOURCE,
	OPT_NP_RESP_DSCP,
	OPT_NP_HW_PROBES,
	OPT_NP_IFA2_GNS,
	OPT_NP_IFA2_PROTO,
	OPT_NP_IFA1_MARKER,
	OPT_PROBE,
	/* end of the NP block */
	OPT_FLOWS,
	OPT_FLOW_IDLE,
	OPT_FLOW_FULL,
	OPT_ALGO,
	OPT_ALGO_PARAM,
	OPT_TXC_BYTES,
	OPT_TXC_US,
	OPT_TIMER_US,
	OPT_LINE_RATE,
	OPT_PACER,
	OPT_PACER_QUEUE,
	OPT_GEN_FILE,
	OPT_FORWARD,
	/* simulator */
	OPT_SIM,
	OPT_SEED,
	OPT_SIM_OUT,
	OPT_SIM_QUANTUM,
	OPT_SIM_MODE,
	/* console */
	OPT_CMDLINE_FILE,
	OPT_CMDLINE_STRICT,
	/* lib/host (host.c) */
	OPT_CRASH_FILE,
	OPT_PLUGIN,
	OPT_HA,
	OPT_HA_HEARTBEAT,
	OPT_HA_STALE,
	OPT_MAX,
};

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "help-eal", no_argument, NULL, OPT_HELP_EAL },
	{ "run-time", required_argument, NULL, OPT_RUN_TIME },
	{ "stats-period", required_argument, NULL, OPT_STATS_PERIOD },
	{ "ring-pair", no_argument, NULL, OPT_RING_PAIR },
	{ "rp-ports", required_argument, NULL, OPT_RP_PORTS },
	{ "np-ports", required_argument, NULL, OPT_NP_PORTS },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "rxq", required_argument, NULL, OPT_RXQ },
	{ "txq", required_argument, NULL, OPT_TXQ },
	{ "rxd", required_argument, NULL, OPT_RXD },
	{ "txd", required_argument, NULL, OPT_TXD },
	{ "burst", required_argument, NULL, OPT_BURST },
	{ "nb-mbufs", required_argument, NULL, OPT_NB_MBUFS },
	{ "idle-sleep", required_argument, NULL, OPT_IDLE_SLEEP },
	{ "gen-flows", required_argument, NULL, OPT_GEN_FLOWS },
	{ "gen-qpn", required_argument, NULL, OPT_GEN_QPN },
	{ "gen-size", required_argument, NULL, OPT_GEN_SIZE },
	{ "gen-rate", required_argument, NULL, OPT_GEN_RATE },
	{ "gen-ce", required_argument, NULL, OPT_GEN_CE },
	{ "gen-ipv6", no_argument, NULL, OPT_GEN_IPV6 },
	{ "gen-dscp", required_argument, NULL, OPT_GEN_DSCP },
	{ "gen-src-ip", required_argument, NULL, OPT_GEN_SRC_IP },
	{ "gen-dst-ip", required_argument, NULL, OPT_GEN_DST_IP },
	{ "gen-dst-mac", required_argument, NULL, OPT_GEN_DST_MAC },
	{ "np-cnp", required_argument, NULL, OPT_NP_CNP },
	{ "np-cnp-dscp", required_argument, NULL, OPT_NP_CNP_DSCP },
	{ "np-sqpn-offset", required_argument, NULL, OPT_NP_SQPN_OFFSET },
	/* NP runner and probe formats */
	{ "np-sqpn", required_argument, NULL, OPT_NP_SQPN },
	{ "np-cnp-gap-us", required_argument, NULL, OPT_NP_CNP_GAP },
	{ "np-cnp-pcp", required_argument, NULL, OPT_NP_CNP_PCP },
	{ "np-learn", required_argument, NULL, OPT_NP_LEARN },
	{ "np-probe-fast", required_argument, NULL, OPT_NP_PROBE_FAST },
	{ "np-qp-table", required_argument, NULL, OPT_NP_QP_TABLE },
	{ "np-mark-ce", required_argument, NULL, OPT_NP_MARK_CE },
	{ "np-resp-ts", required_argument, NULL, OPT_NP_RESP_TS },
	{ "np-ts-source", required_argument, NULL, OPT_NP_TS_SOURCE },
	{ "np-resp-dscp", required_argument, NULL, OPT_NP_RESP_DSCP },
	{ "np-hw-probes", required_argument, NULL, OPT_NP_HW_PROBES },
	{ "np-ifa2-gns", required_argument, NULL, OPT_NP_IFA2_GNS },
	{ "np-ifa2-proto", required_argument, NULL, OPT_NP_IFA2_PROTO },
	{ "np-ifa1-marker", required_argument, NULL, OPT_NP_IFA1_MARKER },
	{ "probe", required_argument, NULL, OPT_PROBE },
	{ "flows", required_argument, NULL, OPT_FLOWS },
	{ "flow-idle-ms", required_argument, NULL, OPT_FLOW_IDLE },
	{ "flow-full", required_argument, NULL, OPT_FLOW_FULL },
	{ "algo", required_argument, NULL, OPT_ALGO },
	{ "algo-param", required_argument, NULL, OPT_ALGO_PARAM },
	{ "tx-coalesce-bytes", required_argument, NULL, OPT_TXC_BYTES },
	{ "tx-coalesce-us", required_argument, NULL, OPT_TXC_US },
	{ "timer-us", required_argument, NULL, OPT_TIMER_US },
	{ "line-rate", required_argument, NULL, OPT_LINE_RATE },
	{ "pacer", required_argument, NULL, OPT_PACER },
	{ "pacer-queue", required_argument, NULL, OPT_PACER_QUEUE },
	{ "gen-file", required_argument, NULL, OPT_GEN_FILE },
	{ "forward", required_argument, NULL, OPT_FORWARD },
	{ "sim", required_argument, NULL, OPT_SIM },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "sim-out", required_argument, NULL, OPT_SIM_OUT },
	{ "sim-quantum", required_argument, NULL, OPT_SIM_QUANTUM },
	{ "sim-mode", required_argument, NULL, OPT_SIM_MODE },
	{ "interactive", no_argument, NULL, OPT_INTERACTIVE },
	{ "cmdline-file", required_argument, NULL, OPT_CMDLINE_FILE },
	{ "cmdline-strict", no_argument, NULL, OPT_CMDLINE_STRICT },
	{ "crash-file", required_argument, NULL, OPT_CRASH_FILE },
	{ "plugin", required_argument, NULL, OPT_PLUGIN },
	{ "ha", required_argument, NULL, OPT_HA },
	{ "ha-heartbeat-ms", required_argument, NULL, OPT_HA_HEARTBEAT },
	{ "ha-stale-ms", required_argument, NULL, OPT_HA_STALE },
	{ NULL, 0, NULL, 0 },
};

/* What each option with an argument accepts, for error messages. */
static const char *
opt_expect(int id)
{
	switch (id) {
	case OPT_RUN_TIME:
		return "seconds, 0..31536000";
	case OPT_STATS_PERIOD:
		return "seconds, 0..86400";
	case OPT_RP_PORTS:
	case OPT_NP_PORTS:
		return "port ids like 0,2-3";
	case OPT_CONFIG:
		return "(port,queue,lcore)[,(port,queue,lcore)...]";
	case OPT_RXQ:
		return "queues per port, 1..1024";
	case OPT_TXQ:
		return "queues per port, 1..1024";
	case OPT_RXD:
	case OPT_TXD:
		return "descriptors per queue, 16..32768";
	case OPT_BURST:
		return "packets, 1..512";
	case OPT_NB_MBUFS:
		return "mbufs per socket, 1024..16777216";
	case OPT_IDLE_SLEEP:
		return "microseconds, 0..1000000";
	case OPT_GEN_FLOWS:
		return "flows per RP port, 0..4096";
	case OPT_GEN_QPN:
		return "QPN, 2..16777215 or 0x2..0xffffff";
	case OPT_GEN_SIZE:
		return "payload bytes, 0..8192";
	case OPT_GEN_RATE:
		return "Mbit/s per flow, 0..400000";
	case OPT_GEN_CE:
		return "percent, 0..100, up to 4 decimals";
	case OPT_GEN_DSCP:
	case OPT_NP_CNP_DSCP:
		return "DSCP, 0..63";
	case OPT_GEN_SRC_IP:
	case OPT_GEN_DST_IP:
		return "IPv4 or IPv6 address";
	case OPT_GEN_DST_MAC:
		return "MAC like 02:00:00:00:00:01";
	case OPT_NP_CNP:
		return "on or off";
	case OPT_NP_SQPN_OFFSET:
		return "0..16777215 or 0x0..0xffffff";
	/* NP runner and probe formats */
	case OPT_NP_SQPN:
		return "DQPN=SQPN[,DQPN=SQPN...], QPNs 0..0xffffff, up to 4096";
	case OPT_NP_CNP_GAP:
		return "microseconds, 0..10000000";
	case OPT_NP_CNP_PCP:
		return "802.1Q priority, 0..7";
	case OPT_NP_LEARN:
	case OPT_NP_PROBE_FAST:
		return "on or off";
	case OPT_NP_QP_TABLE:
		return "entries, a power of two 1024..16777216";
	case OPT_NP_MARK_CE:
		return "percent, 0..100, up to 4 decimals";
	case OPT_NP_RESP_TS:
		return "SIZE:RES, SIZE 0..32 bits, RES 0..63";
	case OPT_NP_TS_SOURCE:
		return "port or realtime";
	case OPT_NP_RESP_DSCP:
		return "DSCP 0..63, or request";
	case OPT_NP_HW_PROBES:
		return "answer or drop";
	case OPT_NP_IFA2_GNS:
		return "MASK:VALUE, each 0..0xf";
	case OPT_NP_IFA2_PROTO:
		return "IP protocol, 1..255 but 17";
	case OPT_NP_IFA1_MARKER:
		return "a 64-bit number with the top bit set, e.g. 0xaaaaaaaabbbbbbbb";
	case OPT_PROBE:
		return "SLOT:FORMAT[:KEY=VALUE,...] with SLOT 0..7, FORMAT ccmad, ifa1 or ifa2";
	case OPT_FLOWS:
		return "flows in all, 64..67108864";
	case OPT_FLOW_IDLE:
		return "milliseconds, 0..86400000";
	case OPT_FLOW_FULL:
		return "evict or refuse";
	case OPT_ALGO:
		return "a registered algorithm: rtt, dcqcn, timely, swift, hpcc, dctcp, noop";
	case OPT_ALGO_PARAM:
		return "NAME=VALUE, a parameter of the algorithm";
	case OPT_TXC_BYTES:
		return "bytes, 0..1073741824";
	case OPT_TXC_US:
		return "microseconds, 0..1000000";
	case OPT_TIMER_US:
		return "microseconds, 0..10000000";
	case OPT_LINE_RATE:
		return "Gbit/s, 1..1600";
	case OPT_PACER:
		return "wheel, txpp or mtr";
	case OPT_PACER_QUEUE:
		return "packets per flow, 1..65535";
	case OPT_GEN_FILE:
		return "a YAML file of flow groups";
	case OPT_FORWARD:
		return "two different port ids A,B";
	case OPT_SIM:
		return "a simulator scenario (YAML), e.g. config/scenarios/hpcc.yaml";
	case OPT_SEED:
		return "0..18446744073709551614";
	case OPT_SIM_OUT:
		return "a directory, or none";
	case OPT_CMDLINE_FILE:
		return "a file of console commands";
	case OPT_SIM_QUANTUM:
		return "nanoseconds, 1..1000000000";
	case OPT_SIM_MODE:
		return "deterministic or service";
	case OPT_CRASH_FILE:
		return "a file path for the crash report";
	case OPT_PLUGIN:
		return "a plug-in shared object (.so), up to 16";
	case OPT_HA:
		return "NAME[:DIR], NAME of 1..63 characters [A-Za-z0-9_.-]";
	case OPT_HA_HEARTBEAT:
	case OPT_HA_STALE:
		return "milliseconds, 1..60000";
	default:
		return "?";
	}
}

static const char *
opt_name(int id)
{
	const struct option *o;

	for (o = long_opts; o->name != NULL; o++)
		if (o->val == id)
			return o->name;
	return "?";
}

static void
set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- Value parsers ----------------------------------------------- */

int
app_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	int base = 10;
	char *end;

	if (s == NULL || !isdigit((unsigned char)s[0]))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)s[2]))
			return -1;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
app_parse_ppm(const char *s, uint32_t *ppm)
{
	uint64_t ipart = 0, frac = 0;
	unsigned int digits = 0;
	const char *p = s;

	if (s == NULL || !isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p)) {
		ipart = ipart * 10 + (uint64_t)(*p++ - '0');
		if (ipart > 100)
			return -1;
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p)) {
			if (++digits > 4)
				return -1;
			frac = frac * 10 + (uint64_t)(*p++ - '0');
		}
	}
	if (*p != '\0')
		return -1;
	while (digits++ < 4)
		frac *= 10;
	if (ipart * 10000 + frac > 1000000)
		return -1;
	*ppm = (uint32_t)(ipart * 10000 + frac);
	return 0;
}

/* Leading decimal number of *s below max; advances *s.  0 or -1. */
static int
parse_num(const char **s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = *s;

	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (uint64_t)(*p++ - '0');
		if (v > max)
			return -1;
	}
	*s = p;
	*out = v;
	return 0;
}

int
app_parse_id_list(const char *s, unsigned int max, bool *set)
{
	const char *p = s;
	int count = 0;

	if (s == NULL || max == 0)
		return -1;
	memset(set, 0, sizeof(*set) * max);
	for (;;) {
		uint64_t lo, hi, i;

		if (parse_num(&p, max - 1, &lo) < 0)
			return -1;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_num(&p, max - 1, &hi) < 0 || hi < lo)
				return -1;
		}
		for (i = lo; i <= hi; i++) {
			if (!set[i])
				count++;
			set[i] = true;
		}
		if (*p == '\0')
			return count;
		if (*p++ != ',')
			return -1;
	}
}

static void
skip_space(const char **p)
{
	while (isspace((unsigned char)**p))
		(*p)++;
}

int
app_parse_config(const char *s, struct pcc_engine_rxq_conf *out, uint32_t max, char *why,
		size_t whylen)
{
	static const char *const field[] = { "port", "queue", "lcore" };
	const uint64_t lim[] = { RTE_MAX_ETHPORTS - 1, UINT16_MAX, RTE_MAX_LCORE - 1 };
	const char *p = s;
	uint32_t n = 0;

	if (s == NULL)
		return -1;
	for (;;) {
		uint64_t v[3];
		unsigned int k;

		skip_space(&p);
		if (*p++ != '(') {
			set_err(why, whylen, "triple %u: expected '('", n + 1);
			return -1;
		}
		for (k = 0; k < 3; k++) {
			skip_space(&p);
			if (parse_num(&p, lim[k], &v[k]) < 0) {
				set_err(why, whylen, "triple %u: %s must be a number 0..%" PRIu64,
						n + 1, field[k], lim[k]);
				return -1;
			}
			skip_space(&p);
			if (*p++ != (k < 2 ? ',' : ')')) {
				set_err(why, whylen, "triple %u: expected '%c' after the %s", n + 1,
						k < 2 ? ',' : ')', field[k]);
				return -1;
			}
		}
		if (n == max) {
			set_err(why, whylen, "more than %u triples", max);
			return -1;
		}
		out[n].port_id = (uint16_t)v[0];
		out[n].queue_id = (uint16_t)v[1];
		out[n].lcore_id = (uint32_t)v[2];
		n++;
		skip_space(&p);
		if (*p == '\0')
			return (int)n;
		if (*p++ != ',') {
			set_err(why, whylen, "triple %u: expected ',' or the end", n);
			return -1;
		}
	}
}

int
app_parse_ip(const char *s, bool *ipv6, uint32_t *v4, uint8_t v6[16])
{
	struct in_addr a4;

	if (s == NULL)
		return -1;
	if (inet_pton(AF_INET, s, &a4) == 1) {
		*ipv6 = false;
		*v4 = ntohl(a4.s_addr);
		return 0;
	}
	if (inet_pton(AF_INET6, s, v6) == 1) {
		*ipv6 = true;
		return 0;
	}
	return -1;
}

/* ---- Usage ------------------------------------------------------- */

void
app_version(FILE *f)
{
	fprintf(f, "%s %s (%s)\n", APP_NAME, PCC_VERSION, rte_version());
}

static const char *const usage_lines[] = {
	"Usage: " APP_NAME " [EAL options] -- [options]",
	"",
	"Programmable congestion control engine for RoCEv2 on DPDK ports.",
	"EAL options go before '--' (list: '" APP_NAME " --help-eal'); these go after it.",
	"",
	"General:",
	"  -h, --help              show this help and exit",
	"  -v, --version           show the version and exit",
	"      --help-eal          show the EAL options and exit",
	"      --run-time SEC      stop after SEC seconds; 0 = run until SIGINT or",
	"                          SIGTERM (0..31536000, default 0)",
	"      --stats-period SEC  print statistics every SEC seconds; 0 = only at",
	"                          exit (0..86400, default 1)",
	"",
	"Ports and roles:",
	"      --ring-pair         create two ports from rte_rings, cross-connected:",
	"                          what one sends the other receives (no --vdev)",
	"      --rp-ports LIST     ports with the reaction-point (sender) role,",
	"                          e.g. 0,2-3",
	"      --np-ports LIST     ports with the notification-point (receiver) role",
	"                          A port may have both roles.  Default: with",
	"                          --ring-pair its first port is RP and its second NP",
	"                          (other ports unused); otherwise every port is RP",
	"                          and NP.  Given either option, a port in neither",
	"                          list is not used.",
	"",
	"Lcores and queues:",
	"      --config (PORT,QUEUE,LCORE)[,(PORT,QUEUE,LCORE)...]",
	"                          which worker lcore polls which RX queue (default:",
	"                          every RX queue of every used port, round-robin",
	"                          over the worker lcores; with a single lcore, -l 0,",
	"                          the main lcore polls)",
	"      --rxq N             RX queues per port (1..1024, default 1)",
	"      --txq N             TX queues per port (1..1024); every lcore polling a",
	"                          port sends on a TX queue of its own, so N must be",
	"                          at least their number (default: exactly that)",
	"      --rxd N             RX descriptors per queue, ring size with",
	"                          --ring-pair (16..32768, default 1024)",
	"      --txd N             TX descriptors per queue (16..32768, default 1024)",
	"      --burst N           RX/TX burst (1..512, default 32)",
	"      --nb-mbufs N        mbufs per socket (1024..16777216; default: enough",
	"                          for every descriptor and burst, at least 4095)",
	"      --idle-sleep US     sleep US microseconds after a poll round with no",
	"                          work; 0 = busy poll (0..1000000, default 0)",
	"",
	"Generator (RP ports; each flow is generated by the lcore that owns it):",
	"      --gen-flows N       RoCEv2 flows per RP port, 0 = off (0..4096,",
	"                          default 0)",
	"      --gen-qpn BASE      flow i uses QPN BASE+i on both ends (2..0xffffff,",
	"                          default 256)",
	"      --gen-size BYTES    RDMA WRITE payload per packet (0..8192,",
	"                          default 1024)",
	"      --gen-rate MBPS     per flow, Mbit/s of Ethernet frames; 0 = as fast",
	"                          as the port takes (0..400000, default 1000)",
	"      --gen-ce PERCENT    send this share of packets with ECN CE, evenly",
	"                          spaced, not random, to emulate a congested path",
	"                          (0..100, up to 4 decimals, default 0)",
	"      --gen-ipv6          send over IPv6 (default IPv4)",
	"      --gen-dscp N        DSCP of data packets (0..63, default 26)",
	"      --gen-src-ip ADDR   source address (default 10.0.0.1, fd00::1 with",
	"                          --gen-ipv6)",
	"      --gen-dst-ip ADDR   destination address (default 10.0.0.2, fd00::2)",
	"      --gen-dst-mac MAC   destination MAC (default: the other port of",
	"                          --ring-pair, else ff:ff:ff:ff:ff:ff)",
	"",
	"Notification point (NP ports):",
	"      --np-cnp on|off     answer RoCEv2 data marked ECN CE with a CNP to",
	"                          its sender (default on)",
	"      --np-cnp-dscp N     DSCP of CNPs (0..63, default 48)",
	"      --np-cnp-pcp N      802.1Q priority of CNPs to VLAN-tagged data, VID",
	"                          kept (0..7, default 6)",
	"      --np-cnp-gap-us US  at most one CNP per QP every US microseconds;",
	"                          0 = one for every marked packet (0..10000000,",
	"                          default 50)",
	"      --np-sqpn DQPN=SQPN[,DQPN=SQPN...]",
	"                          CNPs for data to QP DQPN go to the sender QP",
	"                          SQPN (repeatable, up to 4096 QPs; wins over",
	"                          learning)",
	"      --np-learn on|off   learn sender QPNs from RoCEv2 traffic the other",
	"                          way (same addresses and UDP source port; default",
	"                          on)",
	"      --np-probe-fast on|off",
	"                          answer CCMAD probe requests in the RP's layout",
	"                          through the fast path (default on; off: the",
	"                          generic path, same bytes)",
	"      --np-sqpn-offset N  senders neither mapped nor learned: CNP DestQP =",
	"                          marked packet's DestQP + N, mod 2^24",
	"                          (0..0xffffff, default 0: the generator uses one",
	"                          QPN on both ends)",
	"      --np-qp-table N     entries of the NP QP tables (CNP gap per lcore,",
	"                          learned QPNs), a power of two (1024..16777216,",
	"                          default 65536)",
	"      --np-resp-ts SIZE:RES",
	"                          probe responses carry (NP send time in ns >> RES)",
	"                          in the low SIZE bits of their last dword (SIZE",
	"                          0..32, RES 0..63; default 0:0, none)",
	"      --np-ts-source port|realtime",
	"                          NP timestamps from the port clock (free running;",
	"                          default) or CLOCK_REALTIME",
	"      --np-resp-dscp N|request",
	"                          DSCP of probe responses (0..63) unless the NP",
	"                          handler sets one (default: the request's)",
	"      --np-hw-probes answer|drop",
	"                          requests for the hardware-NP model: answer as the",
	"                          model, without the handler (default), or drop",
	"      --np-ifa2-gns MASK:VALUE",
	"                          IFA2 packets with GNS & MASK == VALUE & MASK are",
	"                          probes for the NP (each 0..0xf; default 0:0, all)",
	"      --np-ifa2-proto N   IP protocol of IFA2 (1..255 but 17; default: that",
	"                          of the --probe ifa2 slots, else 253)",
	"      --np-ifa1-marker M  IFA1 marker, top bit set (default: that of the",
	"                          --probe ifa1 slots, else 0xaaaaaaaabbbbbbbb)",
	"      --np-mark-ce PERCENT",
	"                          test knob: mark this share of the RoCEv2 data",
	"                          received CE before the NP sees it, evenly",
	"                          spaced (0..100, up to 4 decimals, default 0)",
	"",
	"Probes (RTT probes the RP sends, by the algorithm's probe slot):",
	"      --probe SLOT:FORMAT[:KEY=VALUE,...]",
	"                          format of probe slot SLOT (0..7; repeatable):",
	"                          ccmad (default) a RoCEv2 MAD to QP1; ifa1, keys",
	"                          marker (default 0xaaaaaaaabbbbbbbb), hop-limit",
	"                          (default 254); ifa2, keys gns (0..0xf, default",
	"                          0xf), hop-limit (default 254), proto (default",
	"                          253).  Every format: np=sw|hw (answered by the",
	"                          NP's software handler, default, or by its",
	"                          hardware-NP model), custom=BYTES (0..64 bytes",
	"                          after the probe body), pattern=N (32-bit fill",
	"                          of those bytes, default 0).  E.g. --probe",
	"                          0:ccmad:np=sw --probe 1:ifa2:gns=0xf,hop-limit=0xfe",
	"",
	"Reaction point (RP ports):",
	"      --algo NAME         congestion control algorithm of new flows, loaded",
	"                          in slot 0 of every RP port (rtt, dcqcn, timely,",
	"                          swift, hpcc, dctcp, noop; default: none, the",
	"                          default algorithm rtt of slot 0xF)",
	"      --algo-param NAME=VALUE",
	"                          set a parameter of that algorithm (repeatable)",
	"      --tx-coalesce-bytes N",
	"                          a flow's TX event covers up to N bytes sent ...",
	"                          (0..1073741824, default 65536)",
	"      --tx-coalesce-us US ... or its packets of US microseconds, whichever",
	"                          comes first (0..1000000, default 20)",
	"      --timer-us US       timer event for every flow every US microseconds;",
	"                          0 = off (0..10000000, default 0)",
	"      --line-rate GBPS    line rate the algorithms' rates are a fraction of",
	"                          (1..1600; default: link speed, 100 for virtual",
	"                          ports)",
	"      --pacer NAME        rate limiter: wheel, txpp (mlx5 send on",
	"                          timestamp) or mtr (rte_mtr, a policer: drops above",
	"                          the rate); default wheel, the fallback when a port",
	"                          cannot do the others",
	"      --pacer-queue N     packets queued per flow in the pacer (1..65535,",
	"                          default 64)",
	"",
	"Flow table (one per polling lcore):",
	"      --flows N           flows in all, split over the lcores polling RP ports",
	"                          (64..67108864, default 1048576)",
	"      --flow-idle-ms MS   remove flows idle this long; 0 = never",
	"                          (0..86400000, default 10000)",
	"      --flow-full evict|refuse",
	"                          new flow with a full table: evict the",
	"                          longest-idle flow, or refuse the new one",
	"                          (default evict)",
	"",
	"Traffic sources:",
	"      --gen-file FILE     generator flows from a YAML file (count, qpn,",
	"                          port, size, payload, start_us, rate_mbps per",
	"                          group; see doc/dpdk-pcc.md); the --gen-* options",
	"                          give the defaults; not with --gen-flows",
	"      --forward A,B       bump in the wire: packets from port A are paced",
	"                          per flow and sent out of port B; CNPs, ACKs and",
	"                          probe responses from B are consumed, the rest",
	"                          goes to A (A and B are then the only ports used)",
	"",
	"Simulator (no NIC needed; doc/simulator.md):",
	"      --sim FILE          run the engine on the fabric simulator with the",
	"                          scenario FILE (YAML, e.g. config/scenarios/",
	"                          hpcc.yaml): its ports, roles, flows and",
	"                          algorithms replace --ring-pair, --rp-ports,",
	"                          --np-ports, --config, --rxq, --txq, --gen-*,",
	"                          --algo, --algo-param, --line-rate and the CNP",
	"                          options (refused with --sim); the run ends at the",
	"                          scenario's end and prints its summary",
	"      --seed N            random seed of the scenario (RED, ECMP; default:",
	"                          the file's seed, 1 if it has none)",
	"      --sim-out DIR       run directory for CSVs, summary.json and plots",
	"                          (default: the scenario's output.dir,",
	"                          sim-out/NAME); none = no files",
	"      --sim-quantum NS    virtual time the simulator advances per step",
	"                          while the engine is busy (1..1000000000, default:",
	"                          the scenario's quantum, 250)",
	"      --sim-mode MODE     deterministic (default): the engine runs on one",
	"                          lcore (the first worker, or -l 0 alone) and the",
	"                          simulator steps between its poll rounds, jumping",
	"                          over idle time: one seed, one result.  service:",
	"                          the step is an rte_service on a service lcore",
	"                          (EAL -s, else the last worker), free-running and",
	"                          not reproducible",
	"",
	"Console (doc/console.md):",
	"  -i, --interactive       open the pcc> prompt once the engine runs (after",
	"                          --cmdline-file); 'quit' ends the run",
	"      --cmdline-file FILE run the console commands in FILE, each echoed",
	"                          before its output; without -i the run ends after",
	"                          the file",
	"      --cmdline-strict    a failed command of --cmdline-file stops the file",
	"                          and makes the exit status 1",
	"",
	"Host integration (lib/host; doc/host.md, doc/telemetry.md):",
	"      --crash-file PATH   write a crash report to PATH when an algorithm",
	"                          faults on a worker (state ERROR, exit status 3)",
	"      --plugin PATH       load the plug-in PATH (checked in a child",
	"                          process first) and apply its slot layout before",
	"                          the engine starts; repeatable (up to 16)",
	"      --ha NAME[:DIR]     active/standby: processes with the same NAME",
	"                          share the lock DIR/pcc-ha-NAME.lock (default",
	"                          /run/dpdk-pcc, else /tmp); the engine runs only",
	"                          while this process is ACTIVE",
	"      --ha-heartbeat-ms MS",
	"                          HA heartbeat period (1..60000, default 50)",
	"      --ha-stale-ms MS    heartbeat age that means the ACTIVE hangs",
	"                          (1..60000, more than the period; default 5",
	"                          periods)",
	"  The /pcc/ telemetry commands are always registered (dpdk-telemetry.py",
	"  -f PREFIX); they need the EAL's telemetry socket (not --no-shconf).",
	"",
	"Exit status: 0 done, 1 run-time failure (ports, memory), 2 bad arguments,",
	"3 an algorithm faulted (crash report).",
	"Guide: doc/dpdk-pcc.md.",
};

void
app_usage(FILE *f)
{
	size_t i;

	for (i = 0; i < RTE_DIM(usage_lines); i++)
		fprintf(f, "%s\n", usage_lines[i]);
}

/* ---- Pre-EAL scan ------------------------------------------------ */

int
app_args_split(int argc, char *const argv[])
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	return argc;
}

enum app_early
app_args_early(int argc, char *const argv[])
{
	int dd = app_args_split(argc, argv);
	int i;

	for (i = 1; i < argc; i++) {
		const char *s = argv[i];
		bool app = i > dd;

		if (i == dd)
			continue;
		if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0)
			return app ? APP_EARLY_HELP : APP_EARLY_HELP_TOP;
		if (strcmp(s, "--help-eal") == 0)
			return APP_EARLY_HELP_EAL;
		if (strcmp(s, "--version") == 0 || (app && strcmp(s, "-v") == 0))
			return APP_EARLY_VERSION;
	}
	return APP_EARLY_NONE;
}

/* ---- Option parsing ---------------------------------------------- */

void
app_args_default(struct app_args *a)
{
	struct pcc_engine_conf c;

	memset(a, 0, sizeof(*a));
	pcc_engine_conf_default(&c);
	a->run_time = 0;
	a->stats_period = 1;
	a->rxq = c.nb_rxq;
	a->txq = c.nb_txq;
	a->rxd = c.nb_rxd;
	a->txd = c.nb_txd;
	a->burst = c.burst;
	a->nb_mbufs = c.nb_mbufs;
	a->idle_sleep_us = c.idle_sleep_us;
	a->gen = c.gen;
	a->np = c.np;
	a->flows = c.flow.capacity;
	a->flow_idle_ms = c.flow.idle_ms;
	a->flow_full = c.flow.full;
	a->txc_bytes = c.rp.tx_coalesce_bytes;
	a->txc_us = c.rp.tx_coalesce_us;
	a->timer_us = c.rp.timer_us;
	a->line_rate_gbps = c.rp.line_rate_gbps;
	a->pacer = c.rp.pacer;
	a->pacer_queue = c.rp.pacer_queue;
}

void
app_args_free(struct app_args *a)
{
	app_gen_file_free(&a->genf);
	pcc_sim_scenario_free(a->sim_scn);
	a->sim_scn = NULL;
}

/* Name of an option as the user wrote it (argv entry, up to '='). */
static void
user_opt(const char *arg, char *buf, size_t len)
{
	size_t n = strcspn(arg, "=");

	if (n >= len)
		n = len - 1;
	memcpy(buf, arg, n);
	buf[n] = '\0';
}

/* Number of long options "--prefix" abbreviates. */
static unsigned int
opt_matches(const char *arg)
{
	size_t n;
	const struct option *o;
	unsigned int count = 0;

	if (strncmp(arg, "--", 2) != 0)
		return 0;
	arg += 2;
	n = strcspn(arg, "=");
	for (o = long_opts; o->name != NULL; o++)
		if (strncmp(o->name, arg, n) == 0)
			count++;
	return count;
}

/* Options seen, for the combination checks. */
struct seen {
	bool opt[OPT_MAX];
	const char *src_ip;
	const char *dst_ip;
	bool src_v6;
	bool dst_v6;
};

static int
bad_value(char *err, size_t errlen, int id, const char *val)
{
	set_err(err, errlen, "invalid value '%s' for --%s (expected %s)", val, opt_name(id),
			opt_expect(id));
	return APP_ARGS_ERR;
}

/* --ha NAME[:DIR] */
static int
ha_opt(int id, const char *val, struct app_args *a, char *err, size_t errlen)
{
	const char *colon = strchr(val, ':');
	size_t i, n = colon != NULL ? (size_t)(colon - val) : strlen(val);

	if (n == 0 || n >= APP_HA_NAME_MAX || (colon != NULL && colon[1] == '\0'))
		return bad_value(err, errlen, id, val);
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)val[i]) && val[i] != '_' && val[i] != '.' &&
				val[i] != '-')
			return bad_value(err, errlen, id, val);
	memcpy(a->ha_name, val, n);
	a->ha_name[n] = '\0';
	a->ha_dir = colon != NULL ? colon + 1 : NULL;
	a->ha = true;
	return APP_ARGS_OK;
}

/* Parse a number option into *out. */
static int
num_opt(int id, const char *val, uint64_t min, uint64_t max, uint64_t *out, char *err,
		size_t errlen)
{
	if (app_parse_u64(val, min, max, out) < 0)
		return bad_value(err, errlen, id, val);
	return APP_ARGS_OK;
}

/* "A,B": two different port ids.  0 or -1. */
static int
parse_pair(const char *s, uint16_t *a, uint16_t *b)
{
	const char *p = s;
	uint64_t x, y;

	if (parse_num(&p, RTE_MAX_ETHPORTS - 1, &x) < 0 || *p++ != ',' ||
			parse_num(&p, RTE_MAX_ETHPORTS - 1, &y) < 0 || *p != '\0' || x == y)
		return -1;
	*a = (uint16_t)x;
	*b = (uint16_t)y;
	return 0;
}

/* --algo-param NAME=VALUE: stored; checked against the algorithm later. */
static int
param_opt(const char *val, struct app_args *a, char *err, size_t errlen)
{
	struct pcc_engine_algo_param *ap;
	char *s, *eq;

	eq = strchr(val, '=');
	if (eq == NULL || eq == val || eq[1] == '\0' || strlen(val) >= APP_PARAM_LEN) {
		set_err(err, errlen, "invalid value '%s' for --algo-param (expected %s)", val,
				opt_expect(OPT_ALGO_PARAM));
		return APP_ARGS_ERR;
	}
	if (a->nb_params == PCC_ENGINE_ALGO_PARAMS_MAX) {
		set_err(err, errlen, "invalid value '%s' for --algo-param (more than %u)", val,
				PCC_ENGINE_ALGO_PARAMS_MAX);
		return APP_ARGS_ERR;
	}
	s = a->param_store[a->nb_params];
	snprintf(s, APP_PARAM_LEN, "%s", val);
	eq = strchr(s, '=');
	*eq = '\0';
	ap = &a->params[a->nb_params++];
	ap->name = s;
	ap->value = eq + 1;
	return APP_ARGS_OK;
}

/* ---- NP and probe options (--np-*, --probe; lib/engine np.c, probe.c) ---- */

/* A number of s[0..n) (decimal or 0x hex) in [0, max].  0 or -1. */
static int
np_num(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	char buf[32];

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return app_parse_u64(buf, 0, max, out);
}

/* "A:B" with A <= amax, B <= bmax.  0 or -1. */
static int
np_pair(const char *s, uint64_t amax, uint64_t bmax, uint64_t *a, uint64_t *b)
{
	const char *c = strchr(s, ':');

	if (c == NULL || np_num(s, (size_t)(c - s), amax, a) < 0 ||
			np_num(c + 1, strlen(c + 1), bmax, b) < 0)
		return -1;
	return 0;
}

/* --np-sqpn DQPN=SQPN[,DQPN=SQPN...]: appended to a->sqpn_map. */
static int
np_sqpn_opt(const char *val, struct app_args *a, char *err, size_t errlen)
{
	const char *p = val;
	uint32_t i;

	while (*p != '\0') {
		const char *end = p + strcspn(p, ",");
		const char *eq = memchr(p, '=', (size_t)(end - p));
		uint64_t d, s;

		if (eq == NULL || np_num(p, (size_t)(eq - p), PCC_QPN_MASK, &d) < 0 ||
				np_num(eq + 1, (size_t)(end - eq - 1), PCC_QPN_MASK, &s) < 0)
			return bad_value(err, errlen, OPT_NP_SQPN, val);
		for (i = 0; i < a->np.nb_sqpn_map; i++) {
			if (a->sqpn_map[i].dqpn == d) {
				set_err(err, errlen,
						"invalid value '%s' for --np-sqpn (DestQP %#" PRIx64
						" mapped twice)",
						val, d);
				return APP_ARGS_ERR;
			}
		}
		if (a->np.nb_sqpn_map == PCC_ENGINE_NP_SQPN_MAP_MAX) {
			set_err(err, errlen, "invalid value '%s' for --np-sqpn (more than %u QPs)",
					val, PCC_ENGINE_NP_SQPN_MAP_MAX);
			return APP_ARGS_ERR;
		}
		a->sqpn_map[a->np.nb_sqpn_map].dqpn = (uint32_t)d;
		a->sqpn_map[a->np.nb_sqpn_map].sqpn = (uint32_t)s;
		a->np.nb_sqpn_map++;
		p = *end == ',' ? end + 1 : end;
		if (*end == ',' && *p == '\0')
			return bad_value(err, errlen, OPT_NP_SQPN, val);
	}
	if (a->np.nb_sqpn_map == 0)
		return bad_value(err, errlen, OPT_NP_SQPN, val);
	a->np.sqpn_map = a->sqpn_map;
	return APP_ARGS_OK;
}

/* One key=value of --probe into *pc; NULL or the reason it is bad. */
static const char *
probe_kv(const char *k, size_t kn, const char *v, size_t vn, struct pcc_engine_probe_conf *pc)
{
	uint64_t x;

#define KEY(name) (kn == sizeof(name) - 1 && memcmp(k, name, kn) == 0)
	if (KEY("np")) {
		if (vn == 2 && memcmp(v, "hw", 2) == 0)
			pc->hw_np = true;
		else if (vn == 2 && memcmp(v, "sw", 2) == 0)
			pc->hw_np = false;
		else
			return "np is hw or sw";
	} else if (KEY("custom")) {
		if (np_num(v, vn, PCC_PROBE_CUSTOM_MAX, &x) < 0)
			return "custom is 0..64 bytes";
		pc->custom_len = (uint8_t)x;
	} else if (KEY("pattern")) {
		if (np_num(v, vn, UINT32_MAX, &x) < 0)
			return "pattern is a 32-bit number";
		pc->custom_pattern = (uint32_t)x;
	} else if (KEY("hop-limit") && pc->format != PCC_ENGINE_PROBE_CCMAD) {
		if (np_num(v, vn, 255, &x) < 0 || x == 0)
			return "hop-limit is 1..255";
		pc->ifa_hop_limit = (uint8_t)x;
	} else if (KEY("marker") && pc->format == PCC_ENGINE_PROBE_IFA1) {
		if (np_num(v, vn, UINT64_MAX, &x) < 0 || !(x >> 63))
			return "marker is a 64-bit number with its top bit set";
		pc->ifa1_marker = x;
	} else if (KEY("gns") && pc->format == PCC_ENGINE_PROBE_IFA2) {
		if (np_num(v, vn, 0xF, &x) < 0)
			return "gns is 0..0xf";
		pc->ifa2_gns = (uint8_t)x;
	} else if (KEY("proto") && pc->format == PCC_ENGINE_PROBE_IFA2) {
		if (np_num(v, vn, 255, &x) < 0 || x == 0 || x == 17)
			return "proto is an IP protocol 1..255 but 17";
		pc->ifa2_proto = (uint8_t)x;
	} else {
		return pc->format == PCC_ENGINE_PROBE_CCMAD ?
				"ccmad keys: np, custom, pattern" :
				pc->format == PCC_ENGINE_PROBE_IFA1 ?
				"ifa1 keys: np, marker, hop-limit, custom, pattern" :
				"ifa2 keys: np, gns, hop-limit, proto, custom, pattern";
	}
#undef KEY
	return NULL;
}

/* --probe SLOT:FORMAT[:KEY=VALUE,...] */
static int
probe_opt(const char *val, struct app_args *a, char *err, size_t errlen)
{
	struct pcc_engine_probe_conf pc;
	const char *p = val, *why = NULL, *c;
	uint64_t slot;
	size_t n;
	unsigned int f;

	c = strchr(p, ':');
	if (c == NULL || np_num(p, (size_t)(c - p), PCC_ENGINE_PROBE_SLOTS - 1, &slot) < 0)
		return bad_value(err, errlen, OPT_PROBE, val);
	p = c + 1;
	n = strcspn(p, ":");
	for (f = 0; f < PCC_ENGINE_PROBE_FMT_MAX; f++) {
		const char *name = pcc_engine_probe_fmt_name(f);

		if (strlen(name) == n && memcmp(p, name, n) == 0)
			break;
	}
	if (f == PCC_ENGINE_PROBE_FMT_MAX)
		return bad_value(err, errlen, OPT_PROBE, val);
	if (a->probe_set[slot]) {
		set_err(err, errlen,
				"invalid value '%s' for --probe (slot %" PRIu64 " given twice)",
				val, slot);
		return APP_ARGS_ERR;
	}
	pcc_engine_probe_conf_default(&pc, (enum pcc_engine_probe_fmt)f);
	p += n;
	if (*p == ':') {
		p++;
		if (*p == '\0')
			why = "no KEY=VALUE after ':'";
		while (why == NULL && *p != '\0') {
			const char *end = p + strcspn(p, ",");
			const char *eq = memchr(p, '=', (size_t)(end - p));

			if (eq == NULL || eq == p || eq + 1 == end)
				why = "expected KEY=VALUE";
			else
				why = probe_kv(p, (size_t)(eq - p), eq + 1, (size_t)(end - eq - 1),
						&pc);
			p = *end == ',' ? end + 1 : end;
			if (why == NULL && *end == ',' && *p == '\0')
				why = "expected KEY=VALUE after ','";
		}
	}
	if (why != NULL) {
		set_err(err, errlen, "invalid value '%s' for --probe (%s; expected %s)", val, why,
				opt_expect(OPT_PROBE));
		return APP_ARGS_ERR;
	}
	a->probe[slot] = pc;
	a->probe_set[slot] = true;
	return APP_ARGS_OK;
}

/* The --np-* options but --np-cnp, --np-cnp-dscp, --np-sqpn-offset. */
static int
np_opt(int id, const char *val, struct app_args *a, char *err, size_t errlen)
{
	uint64_t v = 0, w = 0;

	switch (id) {
	case OPT_NP_SQPN:
		return np_sqpn_opt(val, a, err, errlen);
	case OPT_NP_CNP_GAP:
		if (app_parse_u64(val, 0, APP_NP_CNP_GAP_MAX, &v) < 0)
			return bad_value(err, errlen, id, val);
		a->np.cnp_gap_us = v == 0 ? PCC_ENGINE_NP_NO_GAP : (uint32_t)v;
		break;
	case OPT_NP_CNP_PCP:
		if (app_parse_u64(val, 0, 7, &v) < 0)
			return bad_value(err, errlen, id, val);
		a->np.cnp_pcp_set = true;
		a->np.cnp_pcp = (uint8_t)v;
		break;
	case OPT_NP_LEARN:
		if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0)
			return bad_value(err, errlen, id, val);
		a->np.learn_off = strcmp(val, "off") == 0;
		break;
	case OPT_NP_PROBE_FAST:
		if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0)
			return bad_value(err, errlen, id, val);
		a->np.probe_fast_off = strcmp(val, "off") == 0;
		break;
	case OPT_NP_QP_TABLE:
		if (app_parse_u64(val, PCC_ENGINE_NP_QP_TABLE_MIN, PCC_ENGINE_NP_QP_TABLE_MAX, &v) <
						0 ||
				(v & (v - 1)) != 0)
			return bad_value(err, errlen, id, val);
		a->np.qp_table = (uint32_t)v;
		break;
	case OPT_NP_MARK_CE:
		if (app_parse_ppm(val, &a->np.mark_ce_ppm) < 0)
			return bad_value(err, errlen, id, val);
		break;
	case OPT_NP_RESP_TS:
		if (np_pair(val, PCC_ENGINE_NP_RESP_TS_SIZE_MAX, PCC_ENGINE_NP_RESP_TS_RES_MAX, &v,
				    &w) < 0)
			return bad_value(err, errlen, id, val);
		a->np.resp_ts_size = (uint8_t)v;
		a->np.resp_ts_res = (uint8_t)w;
		break;
	case OPT_NP_TS_SOURCE:
		if (strcmp(val, "port") == 0)
			a->np.ts_src = PCC_ENGINE_NP_TS_PORT;
		else if (strcmp(val, "realtime") == 0)
			a->np.ts_src = PCC_ENGINE_NP_TS_REALTIME;
		else
			return bad_value(err, errlen, id, val);
		break;
	case OPT_NP_RESP_DSCP:
		if (strcmp(val, "request") == 0) {
			a->np.resp_dscp_set = false;
			break;
		}
		if (app_parse_u64(val, 0, 63, &v) < 0)
			return bad_value(err, errlen, id, val);
		a->np.resp_dscp_set = true;
		a->np.resp_dscp = (uint8_t)v;
		break;
	case OPT_NP_HW_PROBES:
		if (strcmp(val, "answer") == 0)
			a->np.hw_probes = PCC_ENGINE_NP_HW_ANSWER;
		else if (strcmp(val, "drop") == 0)
			a->np.hw_probes = PCC_ENGINE_NP_HW_DROP;
		else
			return bad_value(err, errlen, id, val);
		break;
	case OPT_NP_IFA2_GNS:
		if (np_pair(val, 0xF, 0xF, &v, &w) < 0)
			return bad_value(err, errlen, id, val);
		a->np.ifa2_gns_mask = (uint8_t)v;
		a->np.ifa2_gns_value = (uint8_t)w;
		break;
	case OPT_NP_IFA2_PROTO:
		if (app_parse_u64(val, 1, 255, &v) < 0 || v == 17)
			return bad_value(err, errlen, id, val);
		a->np.ifa2_proto = (uint8_t)v;
		break;
	case OPT_NP_IFA1_MARKER:
		if (app_parse_u64(val, UINT64_C(1) << 63, UINT64_MAX, &v) < 0)
			return bad_value(err, errlen, id, val);
		a->np.ifa1_marker = v;
		break;
	case OPT_PROBE:
		return probe_opt(val, a, err, errlen);
	default:
		set_err(err, errlen, "internal error: option %d", id);
		return APP_ARGS_ERR;
	}
	return APP_ARGS_OK;
}

/*
 * NP and probe combinations: CNP options need CNPs; the classifier knows
 * one IFA1 marker and one IFA2 protocol per process.
 */
static int
np_check(const struct app_args *a, const struct seen *seen, char *err, size_t errlen)
{
	static const int cnp_opts[] = { OPT_NP_SQPN, OPT_NP_CNP_GAP, OPT_NP_CNP_PCP };
	uint64_t marker = a->np.ifa1_marker;
	uint8_t proto = a->np.ifa2_proto;
	unsigned int i;

	for (i = 0; i < RTE_DIM(cnp_opts); i++) {
		if (!a->np.cnp && seen->opt[cnp_opts[i]]) {
			set_err(err, errlen, "invalid combination: --%s with --np-cnp off",
					opt_name(cnp_opts[i]));
			return APP_ARGS_ERR;
		}
	}
	for (i = 0; i < PCC_ENGINE_PROBE_SLOTS; i++) {
		const struct pcc_engine_probe_conf *p = &a->probe[i];

		if (!a->probe_set[i])
			continue;
		if (p->format == PCC_ENGINE_PROBE_IFA1) {
			if (marker == 0)
				marker = p->ifa1_marker;
			if (p->ifa1_marker != marker) {
				set_err(err, errlen,
						"invalid combination: --probe %u:ifa1 marker "
						"%#" PRIx64 " and %s %#" PRIx64
						" (one IFA1 marker per process)",
						i, p->ifa1_marker,
						a->np.ifa1_marker != 0 ? "--np-ifa1-marker" :
									 "another slot's",
						marker);
				return APP_ARGS_ERR;
			}
		}
		if (p->format == PCC_ENGINE_PROBE_IFA2) {
			if (proto == 0)
				proto = p->ifa2_proto;
			if (p->ifa2_proto != proto) {
				set_err(err, errlen,
						"invalid combination: --probe %u:ifa2 proto %u and "
						"%s %u "
						"(one IFA2 protocol per process)",
						i, p->ifa2_proto,
						a->np.ifa2_proto != 0 ? "--np-ifa2-proto" :
									"another slot's",
						proto);
				return APP_ARGS_ERR;
			}
		}
	}
	return APP_ARGS_OK;
}

/* Options whose value is one uint32_t of struct app_args, in [min, max]. */
static const struct {
	int id;
	uint32_t min;
	uint32_t max;
	size_t off;
} u32_opts[] = {
	{ OPT_NB_MBUFS, APP_MBUFS_MIN, APP_MBUFS_MAX, offsetof(struct app_args, nb_mbufs) },
	{ OPT_IDLE_SLEEP, 0, APP_IDLE_SLEEP_MAX, offsetof(struct app_args, idle_sleep_us) },
	{ OPT_GEN_FLOWS, 0, PCC_ENGINE_GEN_FLOWS_MAX, offsetof(struct app_args, gen.nb_flows) },
	{ OPT_GEN_QPN, 2, PCC_QPN_MASK, offsetof(struct app_args, gen.qpn_base) },
	{ OPT_GEN_SIZE, 0, PCC_ENGINE_GEN_PAYLOAD_MAX, offsetof(struct app_args, gen.payload_len) },
	{ OPT_GEN_RATE, 0, APP_GEN_RATE_MAX, offsetof(struct app_args, gen.rate_mbps) },
	{ OPT_NP_SQPN_OFFSET, 0, PCC_QPN_MASK, offsetof(struct app_args, np.sqpn_offset) },
	{ OPT_FLOWS, APP_FLOWS_MIN, PCC_ENGINE_FLOWS_MAX, offsetof(struct app_args, flows) },
	{ OPT_FLOW_IDLE, 0, APP_FLOW_IDLE_MAX, offsetof(struct app_args, flow_idle_ms) },
	{ OPT_TXC_BYTES, 0, APP_TXC_BYTES_MAX, offsetof(struct app_args, txc_bytes) },
	{ OPT_TXC_US, 0, APP_TXC_US_MAX, offsetof(struct app_args, txc_us) },
	{ OPT_TIMER_US, 0, APP_TIMER_US_MAX, offsetof(struct app_args, timer_us) },
	{ OPT_LINE_RATE, 1, APP_LINE_RATE_MAX, offsetof(struct app_args, line_rate_gbps) },
	{ OPT_PACER_QUEUE, 1, APP_PACER_QUEUE_MAX, offsetof(struct app_args, pacer_queue) },
	{ OPT_HA_HEARTBEAT, 1, APP_HA_MS_MAX, offsetof(struct app_args, ha_heartbeat_ms) },
	{ OPT_HA_STALE, 1, APP_HA_MS_MAX, offsetof(struct app_args, ha_stale_ms) },
};

/* An option of u32_opts[] into its field. */
static int
u32_opt(int id, const char *val, struct app_args *a, char *err, size_t errlen)
{
	unsigned int i;
	uint64_t v;
	int ret;

	for (i = 0; i < RTE_DIM(u32_opts); i++) {
		if (u32_opts[i].id != id)
			continue;
		ret = num_opt(id, val, u32_opts[i].min, u32_opts[i].max, &v, err, errlen);
		if (ret == APP_ARGS_OK)
			*(uint32_t *)(void *)((char *)a + u32_opts[i].off) = (uint32_t)v;
		return ret;
	}
	set_err(err, errlen, "internal error: option %d", id);
	return APP_ARGS_ERR;
}

static int
one_opt(int id, const char *val, struct app_args *a, struct seen *seen, char *err, size_t errlen)
{
	struct rte_ether_addr mac;
	char why[384];
	uint64_t v = 0;
	int ret = APP_ARGS_OK;
	int n;

	switch (id) {
	case OPT_RUN_TIME:
		ret = num_opt(id, val, 0, APP_RUN_TIME_MAX, &a->run_time, err, errlen);
		break;
	case OPT_STATS_PERIOD:
		ret = num_opt(id, val, 0, APP_STATS_PERIOD_MAX, &a->stats_period, err, errlen);
		break;
	case OPT_RING_PAIR:
		a->ring_pair = true;
		break;
	case OPT_RP_PORTS:
	case OPT_NP_PORTS:
		n = app_parse_id_list(val, RTE_MAX_ETHPORTS,
				id == OPT_RP_PORTS ? a->rp_ports : a->np_ports);
		if (n <= 0)
			return bad_value(err, errlen, id, val);
		if (id == OPT_RP_PORTS)
			a->rp_list = val;
		else
			a->np_list = val;
		break;
	case OPT_CONFIG:
		n = app_parse_config(val, a->config, APP_CONFIG_MAX, why, sizeof(why));
		if (n <= 0) {
			set_err(err, errlen, "invalid value '%s' for --config (%s; expected %s)",
					val, why, opt_expect(id));
			return APP_ARGS_ERR;
		}
		a->nb_config = (uint32_t)n;
		a->config_str = val;
		break;
	case OPT_RXQ:
	case OPT_TXQ:
		ret = num_opt(id, val, 1, APP_QUEUES_MAX, &v, err, errlen);
		if (id == OPT_RXQ)
			a->rxq = (uint16_t)v;
		else
			a->txq = (uint16_t)v;
		break;
	case OPT_RXD:
	case OPT_TXD:
		ret = num_opt(id, val, APP_DESC_MIN, APP_DESC_MAX, &v, err, errlen);
		if (id == OPT_RXD)
			a->rxd = (uint16_t)v;
		else
			a->txd = (uint16_t)v;
		break;
	case OPT_BURST:
		ret = num_opt(id, val, 1, PCC_ENGINE_BURST_MAX, &v, err, errlen);
		a->burst = (uint16_t)v;
		break;
	case OPT_GEN_CE:
		if (app_parse_ppm(val, &a->gen.ce_ppm) < 0)
			return bad_value(err, errlen, id, val);
		break;
	case OPT_GEN_IPV6:
		a->gen.ipv6 = true;
		break;
	case OPT_GEN_DSCP:
	case OPT_NP_CNP_DSCP:
		ret = num_opt(id, val, 0, 63, &v, err, errlen);
		if (id == OPT_GEN_DSCP)
			a->gen.dscp = (uint8_t)v;
		else
			a->np.cnp_dscp = (uint8_t)v;
		break;
	case OPT_GEN_SRC_IP:
		if (app_parse_ip(val, &seen->src_v6, &a->gen.src_ip.v4, a->gen.src_ip.v6) < 0)
			return bad_value(err, errlen, id, val);
		seen->src_ip = val;
		break;
	case OPT_GEN_DST_IP:
		if (app_parse_ip(val, &seen->dst_v6, &a->gen.dst_ip.v4, a->gen.dst_ip.v6) < 0)
			return bad_value(err, errlen, id, val);
		seen->dst_ip = val;
		break;
	case OPT_GEN_DST_MAC:
		if (rte_ether_unformat_addr(val, &mac) != 0)
			return bad_value(err, errlen, id, val);
		memcpy(a->gen.dst_mac, mac.addr_bytes, sizeof(a->gen.dst_mac));
		a->gen.dst_mac_valid = true;
		break;
	case OPT_NP_CNP:
		if (strcmp(val, "on") == 0)
			a->np.cnp = true;
		else if (strcmp(val, "off") == 0)
			a->np.cnp = false;
		else
			return bad_value(err, errlen, id, val);
		break;
	/* NP runner and probe formats */
	case OPT_NP_SQPN:
	case OPT_NP_CNP_GAP:
	case OPT_NP_CNP_PCP:
	case OPT_NP_LEARN:
	case OPT_NP_PROBE_FAST:
	case OPT_NP_QP_TABLE:
	case OPT_NP_MARK_CE:
	case OPT_NP_RESP_TS:
	case OPT_NP_TS_SOURCE:
	case OPT_NP_RESP_DSCP:
	case OPT_NP_HW_PROBES:
	case OPT_NP_IFA2_GNS:
	case OPT_NP_IFA2_PROTO:
	case OPT_NP_IFA1_MARKER:
	case OPT_PROBE:
		ret = np_opt(id, val, a, err, errlen);
		break;
	case OPT_FLOW_FULL:
		if (strcmp(val, "evict") == 0)
			a->flow_full = PCC_ENGINE_FLOW_FULL_EVICT;
		else if (strcmp(val, "refuse") == 0)
			a->flow_full = PCC_ENGINE_FLOW_FULL_REFUSE;
		else
			return bad_value(err, errlen, id, val);
		break;
	case OPT_ALGO:
		if (pcc_host_algo_check(val, NULL, NULL, why, sizeof(why)) < 0) {
			set_err(err, errlen, "invalid value '%s' for --algo (%s)", val, why);
			return APP_ARGS_ERR;
		}
		a->algo = val;
		break;
	case OPT_ALGO_PARAM:
		ret = param_opt(val, a, err, errlen);
		break;
	case OPT_PACER:
		if (strcmp(val, "wheel") != 0 && strcmp(val, "txpp") != 0 &&
				strcmp(val, "mtr") != 0)
			return bad_value(err, errlen, id, val);
		a->pacer = val;
		break;
	case OPT_GEN_FILE:
		app_gen_file_free(&a->genf);
		if (app_gen_file_load(val, &a->genf, why, sizeof(why)) < 0) {
			set_err(err, errlen, "invalid --gen-file: %s", why);
			return APP_ARGS_ERR;
		}
		a->gen_file = val;
		break;
	case OPT_FORWARD:
		if (parse_pair(val, &a->fwd_a, &a->fwd_b) < 0)
			return bad_value(err, errlen, id, val);
		a->fwd = true;
		a->fwd_str = val;
		break;
	case OPT_SIM:
		pcc_sim_scenario_free(a->sim_scn);
		a->sim_scn = pcc_sim_scenario_load(val, why, sizeof(why));
		if (a->sim_scn == NULL) {
			set_err(err, errlen, "invalid --sim: %s", why);
			return APP_ARGS_ERR;
		}
		a->sim_file = val;
		break;
	case OPT_SEED:
		ret = num_opt(id, val, 0, UINT64_MAX - 1, &a->sim_seed, err, errlen);
		a->sim_seed_set = true;
		break;
	case OPT_SIM_OUT:
		if (val[0] == '\0')
			return bad_value(err, errlen, id, val);
		a->sim_out = val;
		break;
	case OPT_SIM_QUANTUM:
		ret = num_opt(id, val, 1, APP_SIM_QUANTUM_MAX, &a->sim_quantum_ns, err, errlen);
		break;
	case OPT_INTERACTIVE:
		a->interactive = true;
		break;
	case OPT_CMDLINE_FILE:
		if (val[0] == '\0')
			return bad_value(err, errlen, id, val);
		a->cmdline_file = val;
		break;
	case OPT_CMDLINE_STRICT:
		a->cmdline_strict = true;
		break;
	case OPT_CRASH_FILE:
		if (val[0] == '\0')
			return bad_value(err, errlen, id, val);
		a->crash_file = val;
		break;
	case OPT_PLUGIN:
		if (val[0] == '\0' || a->nb_plugins >= APP_PLUGINS_MAX)
			return bad_value(err, errlen, id, val);
		a->plugins[a->nb_plugins++] = val;
		break;
	case OPT_HA:
		ret = ha_opt(id, val, a, err, errlen);
		break;
	case OPT_SIM_MODE:
		if (strcmp(val, "deterministic") == 0)
			a->sim_mode = APP_SIM_DETERMINISTIC;
		else if (strcmp(val, "service") == 0)
			a->sim_mode = APP_SIM_SERVICE;
		else
			return bad_value(err, errlen, id, val);
		break;
	default:
		ret = u32_opt(id, val, a, err, errlen);
		break;
	}
	if (ret == APP_ARGS_OK && id < OPT_MAX)
		seen->opt[id] = true;
	return ret;
}

/* Generator options that only make sense with --gen-flows. */
static const int gen_opts[] = {
	OPT_GEN_QPN,
	OPT_GEN_SIZE,
	OPT_GEN_RATE,
	OPT_GEN_CE,
	OPT_GEN_IPV6,
	OPT_GEN_DSCP,
	OPT_GEN_SRC_IP,
	OPT_GEN_DST_IP,
	OPT_GEN_DST_MAC,
};

/* Options the scenario replaces: refused with --sim. */
static const int sim_refused[] = {
	OPT_RING_PAIR,
	OPT_RP_PORTS,
	OPT_NP_PORTS,
	OPT_CONFIG,
	OPT_RXQ,
	OPT_TXQ,
	OPT_FORWARD,
	OPT_GEN_FILE,
	OPT_GEN_FLOWS,
	OPT_GEN_QPN,
	OPT_GEN_SIZE,
	OPT_GEN_RATE,
	OPT_GEN_CE,
	OPT_GEN_IPV6,
	OPT_GEN_DSCP,
	OPT_GEN_SRC_IP,
	OPT_GEN_DST_IP,
	OPT_GEN_DST_MAC,
	OPT_ALGO,
	OPT_ALGO_PARAM,
	OPT_LINE_RATE,
	OPT_NP_CNP,
	OPT_NP_CNP_DSCP,
	OPT_NP_CNP_GAP,
	OPT_NP_SQPN,
	OPT_NP_SQPN_OFFSET,
	OPT_INTERACTIVE,
	OPT_CMDLINE_FILE,
	OPT_CMDLINE_STRICT,
};

/* What replaces a refused option, for the message. */
static const char *
sim_replacement(int id)
{
	switch (id) {
	case OPT_RING_PAIR:
	case OPT_RP_PORTS:
	case OPT_NP_PORTS:
	case OPT_FORWARD:
		return "the scenario's hosts are the ports and give their roles";
	case OPT_CONFIG:
	case OPT_RXQ:
	case OPT_TXQ:
		return "the simulator's ports have one RX queue, polled by one lcore";
	case OPT_ALGO:
	case OPT_ALGO_PARAM:
		return "the scenario's algorithms: section sets them per slot";
	case OPT_LINE_RATE:
		return "each port's line rate is its host link's";
	case OPT_NP_CNP:
	case OPT_NP_CNP_DSCP:
	case OPT_NP_CNP_GAP:
	case OPT_NP_SQPN:
	case OPT_NP_SQPN_OFFSET:
		return "the scenario's hosts: section sets the NP";
	case OPT_INTERACTIVE:
	case OPT_CMDLINE_FILE:
	case OPT_CMDLINE_STRICT:
		return "the lcore that runs the console polls the simulator; a run ends with its "
		       "scenario";
	default:
		return "the scenario's flows: section lists the flows";
	}
}

/* --sim: refused options, overrides, algorithm names and parameters. */
static int
check_sim(struct app_args *a, const struct seen *seen, char *err, size_t errlen)
{
	static const int sim_only[] = { OPT_SEED, OPT_SIM_OUT, OPT_SIM_QUANTUM, OPT_SIM_MODE };
	struct pcc_sim_algo algo;
	char why[384], buf[32];
	unsigned int i;
	uint32_t k;

	a->stats_set = seen->opt[OPT_STATS_PERIOD];
	a->flows_set = seen->opt[OPT_FLOWS];
	if (a->sim_scn == NULL) {
		for (i = 0; i < RTE_DIM(sim_only); i++) {
			if (seen->opt[sim_only[i]]) {
				set_err(err, errlen, "invalid combination: --%s needs --sim",
						opt_name(sim_only[i]));
				return APP_ARGS_ERR;
			}
		}
		return APP_ARGS_OK;
	}
	for (i = 0; i < RTE_DIM(sim_refused); i++) {
		if (seen->opt[sim_refused[i]]) {
			set_err(err, errlen, "invalid combination: --%s with --sim (%s)",
					opt_name(sim_refused[i]), sim_replacement(sim_refused[i]));
			return APP_ARGS_ERR;
		}
	}
	if (a->sim_seed_set) {
		snprintf(buf, sizeof(buf), "%" PRIu64, a->sim_seed);
		if (pcc_sim_scenario_set(a->sim_scn, "seed", buf, why, sizeof(why)) < 0)
			goto bad;
	}
	if (a->sim_quantum_ns != 0) {
		snprintf(buf, sizeof(buf), "%" PRIu64 "ns", a->sim_quantum_ns);
		if (pcc_sim_scenario_set(a->sim_scn, "quantum", buf, why, sizeof(why)) < 0)
			goto bad;
	}
	if (a->sim_out != NULL &&
			pcc_sim_scenario_set(
					a->sim_scn, "output.dir", a->sim_out, why, sizeof(why)) < 0)
		goto bad;
	for (k = 0; pcc_sim_scenario_algo_get(a->sim_scn, k, &algo) == 0; k++) {
		if (pcc_host_algo_check(algo.name, NULL, NULL, why, sizeof(why)) < 0) {
			set_err(err, errlen, "invalid --sim: %s: slot %u: %s", a->sim_file,
					algo.slot, why);
			return APP_ARGS_ERR;
		}
		for (i = 0; i < algo.nb_params; i++) {
			if (pcc_host_algo_check(algo.name, algo.params[i].name,
					    algo.params[i].value, why, sizeof(why)) < 0) {
				set_err(err, errlen, "invalid --sim: %s: slot %u: %s", a->sim_file,
						algo.slot, why);
				return APP_ARGS_ERR;
			}
		}
	}
	return APP_ARGS_OK;
bad:
	set_err(err, errlen, "invalid --sim: %s: %s", a->sim_file, why);
	return APP_ARGS_ERR;
}

static int
check_ip_family(const char *val, bool is_v6, bool want_v6, int id, char *err, size_t errlen)
{
	if (val == NULL || is_v6 == want_v6)
		return APP_ARGS_OK;
	set_err(err, errlen, "invalid combination: --%s '%s' is an %s address but %s", opt_name(id),
			val, is_v6 ? "IPv6" : "IPv4",
			want_v6 ? "--gen-ipv6 is given" : "--gen-ipv6 is not given");
	return APP_ARGS_ERR;
}

/* --ha, --ha-*-ms, --plugin */
static int
check_host(struct app_args *a, const struct seen *seen, char *err, size_t errlen)
{
	static const int ha_only[] = { OPT_HA_HEARTBEAT, OPT_HA_STALE };
	uint32_t hb, stale;
	unsigned int i;

	for (i = 0; i < RTE_DIM(ha_only); i++) {
		if (seen->opt[ha_only[i]] && !a->ha) {
			set_err(err, errlen, "invalid combination: --%s needs --ha",
					opt_name(ha_only[i]));
			return APP_ARGS_ERR;
		}
	}
	if (a->sim_scn != NULL && (a->ha || a->nb_plugins != 0 || a->crash_file != NULL)) {
		const char *what = "crash-file";

		if (a->ha)
			what = "ha";
		else if (a->nb_plugins != 0)
			what = "plugin";
		set_err(err, errlen, "invalid combination: --%s with --sim (not supported)", what);
		return APP_ARGS_ERR;
	}
	hb = a->ha_heartbeat_ms != 0 ? a->ha_heartbeat_ms : 50;
	stale = a->ha_stale_ms != 0 ? a->ha_stale_ms : 5 * hb;
	if (a->ha && stale <= hb) {
		set_err(err, errlen,
				"invalid combination: --ha-stale-ms %u must exceed the heartbeat "
				"(%u ms)",
				stale, hb);
		return APP_ARGS_ERR;
	}
	return APP_ARGS_OK;
}

static int
check_combinations(struct app_args *a, const struct seen *seen, char *err, size_t errlen)
{
	unsigned int i;
	int ret;

	ret = check_sim(a, seen, err, errlen);
	if (ret != APP_ARGS_OK)
		return ret;
	ret = check_host(a, seen, err, errlen);
	if (ret != APP_ARGS_OK)
		return ret;
	if (a->gen_file != NULL && seen->opt[OPT_GEN_FLOWS]) {
		set_err(err, errlen,
				"invalid combination: --gen-file and --gen-flows (the file lists "
				"the flows)");
		return APP_ARGS_ERR;
	}
	if (a->gen.nb_flows == 0 && a->gen_file == NULL) {
		for (i = 0; i < RTE_DIM(gen_opts); i++) {
			if (seen->opt[gen_opts[i]]) {
				set_err(err, errlen,
						"invalid combination: --%s needs --gen-flows N "
						"with N > 0, or --gen-file",
						opt_name(gen_opts[i]));
				return APP_ARGS_ERR;
			}
		}
	}
	for (i = 0; i < a->nb_params; i++) {
		char why[384];

		if (pcc_host_algo_check(a->algo, a->params[i].name, a->params[i].value, why,
				    sizeof(why)) < 0) {
			set_err(err, errlen, "invalid value '%s=%s' for --algo-param (%s)",
					a->params[i].name, a->params[i].value, why);
			return APP_ARGS_ERR;
		}
	}
	if (a->fwd && (a->rp_list != NULL || a->np_list != NULL)) {
		set_err(err, errlen,
				"invalid combination: --forward sets the port roles; drop "
				"--%s",
				a->rp_list != NULL ? "rp-ports" : "np-ports");
		return APP_ARGS_ERR;
	}
	if (a->gen.nb_flows > 0 && a->gen.qpn_base + (uint64_t)a->gen.nb_flows - 1 > PCC_QPN_MASK) {
		set_err(err, errlen,
				"invalid combination: --gen-qpn %u with --gen-flows %u goes past "
				"QPN 0xffffff",
				a->gen.qpn_base, a->gen.nb_flows);
		return APP_ARGS_ERR;
	}
	ret = check_ip_family(seen->src_ip, seen->src_v6, a->gen.ipv6, OPT_GEN_SRC_IP, err, errlen);
	if (ret != APP_ARGS_OK)
		return ret;
	ret = check_ip_family(seen->dst_ip, seen->dst_v6, a->gen.ipv6, OPT_GEN_DST_IP, err, errlen);
	if (ret != APP_ARGS_OK)
		return ret;
	if (a->gen.ipv6) {
		static const uint8_t src6[16] = { 0xfd, [15] = 1 };
		static const uint8_t dst6[16] = { 0xfd, [15] = 2 };

		if (seen->src_ip == NULL)
			memcpy(a->gen.src_ip.v6, src6, sizeof(src6));
		if (seen->dst_ip == NULL)
			memcpy(a->gen.dst_ip.v6, dst6, sizeof(dst6));
	}
	if (!a->np.cnp && (seen->opt[OPT_NP_CNP_DSCP] || seen->opt[OPT_NP_SQPN_OFFSET])) {
		set_err(err, errlen, "invalid combination: --%s with --np-cnp off",
				seen->opt[OPT_NP_CNP_DSCP] ? "np-cnp-dscp" : "np-sqpn-offset");
		return APP_ARGS_ERR;
	}
	ret = np_check(a, seen, err, errlen);
	if (ret != APP_ARGS_OK)
		return ret;
	if (a->ring_pair &&
			(a->rxq > RTE_PMD_RING_MAX_RX_RINGS ||
					a->txq > RTE_PMD_RING_MAX_TX_RINGS)) {
		set_err(err, errlen,
				"invalid combination: --ring-pair ports have at most %u RX and %u "
				"TX queues (--rxq %u, --txq %u)",
				RTE_PMD_RING_MAX_RX_RINGS, RTE_PMD_RING_MAX_TX_RINGS, a->rxq,
				a->txq);
		return APP_ARGS_ERR;
	}
	return APP_ARGS_OK;
}

static int
parse_opts(int argc, char **argv, struct app_args *a, struct seen *seen, char *err, size_t errlen)
{
	const char *bad;
	char name[64];
	int opt, ret;

	for (;;) {
		opt = getopt_long(argc, argv, "+:hvi", long_opts, NULL);
		if (opt == -1)
			break;
		switch (opt) {
		case OPT_HELP:
			app_usage(stdout);
			return APP_ARGS_EXIT;
		case OPT_VERSION:
			app_version(stdout);
			return APP_ARGS_EXIT;
		case OPT_HELP_EAL:
			set_err(err, errlen, "--help-eal must be used alone");
			return APP_ARGS_ERR;
		case ':':
			if (optopt >= OPT_LONG_MIN)
				set_err(err, errlen, "option '--%s' requires an argument (%s)",
						opt_name(optopt), opt_expect(optopt));
			else
				set_err(err, errlen, "option requires an argument -- '%c'", optopt);
			return APP_ARGS_ERR;
		case '?':
			/* optopt: 0 for an unknown long option, the option's
			 * value for a flag given an argument (--ring-pair=x),
			 * else the unknown short option */
			bad = argv[optind - 1];
			if (optopt != 0 && (optopt < OPT_LONG_MIN && strncmp(bad, "--", 2) != 0)) {
				set_err(err, errlen, "invalid option -- '%c'", optopt);
				return APP_ARGS_ERR;
			}
			user_opt(bad, name, sizeof(name));
			if (optopt != 0)
				set_err(err, errlen, "option '%s' takes no argument", name);
			else if (opt_matches(bad) > 1)
				set_err(err, errlen, "option '%s' is ambiguous", name);
			else
				set_err(err, errlen, "unrecognized option '%s'", name);
			return APP_ARGS_ERR;
		default:
			ret = one_opt(opt, optarg, a, seen, err, errlen);
			if (ret != APP_ARGS_OK)
				return ret;
			break;
		}
	}
	if (optind < argc) {
		set_err(err, errlen, "unexpected argument '%s'", argv[optind]);
		return APP_ARGS_ERR;
	}
	return APP_ARGS_OK;
}

int
app_args_parse(int argc, char **argv, struct app_args *a, char *err, size_t errlen)
{
	int saved_opterr = opterr;
	struct seen seen;
	int ret;

	memset(&seen, 0, sizeof(seen));
	optind = 0; /* full re-initialisation (glibc) */
	opterr = 0; /* the messages are ours */
	ret = parse_opts(argc, argv, a, &seen, err, errlen);
	opterr = saved_opterr;
	optind = 0; /* leave getopt fresh for the EAL */
	if (ret != APP_ARGS_OK)
		return ret;
	return check_combinations(a, &seen, err, errlen);
}
