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

enum {
	OPT_HELP = 'h',
	OPT_VERSION = 'v',
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
	"Generator (RP ports; runs on the lcore polling the port's RX queue 0):",
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
	"      --np-sqpn-offset N  CNP DestQP = marked packet's DestQP + N, mod 2^24",
	"                          (0..0xffffff, default 0: the generator uses one",
	"                          QPN on both ends)",
	"",
	"Exit status: 0 done, 1 run-time failure (ports, memory), 2 bad arguments.",
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

/* Parse a number option into *out. */
static int
num_opt(int id, const char *val, uint64_t min, uint64_t max, uint64_t *out, char *err,
		size_t errlen)
{
	if (app_parse_u64(val, min, max, out) < 0)
		return bad_value(err, errlen, id, val);
	return APP_ARGS_OK;
}

static int
one_opt(int id, const char *val, struct app_args *a, struct seen *seen, char *err, size_t errlen)
{
	struct rte_ether_addr mac;
	char why[128];
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
	case OPT_NB_MBUFS:
		ret = num_opt(id, val, APP_MBUFS_MIN, APP_MBUFS_MAX, &v, err, errlen);
		a->nb_mbufs = (uint32_t)v;
		break;
	case OPT_IDLE_SLEEP:
		ret = num_opt(id, val, 0, APP_IDLE_SLEEP_MAX, &v, err, errlen);
		a->idle_sleep_us = (uint32_t)v;
		break;
	case OPT_GEN_FLOWS:
		ret = num_opt(id, val, 0, PCC_ENGINE_GEN_FLOWS_MAX, &v, err, errlen);
		a->gen.nb_flows = (uint32_t)v;
		break;
	case OPT_GEN_QPN:
		ret = num_opt(id, val, 2, PCC_QPN_MASK, &v, err, errlen);
		a->gen.qpn_base = (uint32_t)v;
		break;
	case OPT_GEN_SIZE:
		ret = num_opt(id, val, 0, PCC_ENGINE_GEN_PAYLOAD_MAX, &v, err, errlen);
		a->gen.payload_len = (uint32_t)v;
		break;
	case OPT_GEN_RATE:
		ret = num_opt(id, val, 0, APP_GEN_RATE_MAX, &v, err, errlen);
		a->gen.rate_mbps = (uint32_t)v;
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
	case OPT_NP_SQPN_OFFSET:
		ret = num_opt(id, val, 0, PCC_QPN_MASK, &v, err, errlen);
		a->np.sqpn_offset = (uint32_t)v;
		break;
	default:
		set_err(err, errlen, "internal error: option %d", id);
		return APP_ARGS_ERR;
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

static int
check_combinations(struct app_args *a, const struct seen *seen, char *err, size_t errlen)
{
	unsigned int i;
	int ret;

	if (a->gen.nb_flows == 0) {
		for (i = 0; i < RTE_DIM(gen_opts); i++) {
			if (seen->opt[gen_opts[i]]) {
				set_err(err, errlen,
						"invalid combination: --%s needs --gen-flows N "
						"with N > 0",
						opt_name(gen_opts[i]));
				return APP_ARGS_ERR;
			}
		}
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
		opt = getopt_long(argc, argv, "+:hv", long_opts, NULL);
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
