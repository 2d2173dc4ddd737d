/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Fleet metrics: every /pcc/ counter in the Prometheus text format or
 * OpenMetrics, served over HTTP on one address and port
 * (pcc_host_metrics_start(), options --metrics-port/--metrics-addr;
 * doc/telemetry.md "Metrics").  One thread: it accepts a connection,
 * reads the request (2 s at most), renders and answers, closes.  The
 * values are read lock-free, as the telemetry commands read them.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "host_internal.h"
#include "pcc_dev.h"

/* Body of one scrape at most (a few hundred lines). */
#define METRICS_BUF (1024 * 1024)
#define REQ_MAX 4096

struct out {
	char *buf;
	size_t len;
	size_t used;
	bool om; /* OpenMetrics, else Prometheus text 0.0.4 */
	bool overflow;
};

static struct {
	pthread_t thread;
	bool running;
	int lfd;
	int stop_pipe[2];
	char addr[64];
	uint16_t port;
	uint64_t scrapes;
} met = { .lfd = -1, .stop_pipe = { -1, -1 } };

static void __attribute__((format(printf, 2, 3))) put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->used) {
		o->overflow = true;
		return;
	}
	o->used += (size_t)n;
}

/* A label value, escaped (backslash, quote, newline). */
static const char *
esc(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s != '\0' && o + 2 < len; s++) {
		if (*s == '\\' || *s == '"') {
			buf[o++] = '\\';
			buf[o++] = *s;
		} else if (*s == '\n') {
			buf[o++] = '\\';
			buf[o++] = 'n';
		} else {
			buf[o++] = *s;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* # TYPE and # HELP of a family; counters are named name_total in their
 * samples (and, in the 0.0.4 text format, in the TYPE line too). */
static void
family(struct out *o, const char *name, bool counter, const char *help)
{
	const char *sfx = counter && !o->om ? "_total" : "";

	put(o, "# HELP %s%s %s\n", name, sfx, help);
	put(o, "# TYPE %s%s %s\n", name, sfx, counter ? "counter" : "gauge");
}

/* Statistics of one port (pcc_host_stats_get). */
#define PORT_STATS_MAX 256

static int
stat_find(const struct pcc_host_stat *st, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(st[i].name, name) == 0)
			return i;
	return -1;
}

/* One family per statistic name, a sample per port that has it. */
static void
ports(struct out *o)
{
	char name[RTE_ETH_NAME_MAX_LEN], e[2 * RTE_ETH_NAME_MAX_LEN], fam[96];
	struct pcc_host_stat *st;
	int n[RTE_MAX_ETHPORTS], i, k;
	uint16_t p, q;

	st = calloc((size_t)RTE_MAX_ETHPORTS * PORT_STATS_MAX, sizeof(*st));
	if (st == NULL) {
		o->overflow = true;
		return;
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		n[p] = pcc_host_stats_get(p, st + (size_t)p * PORT_STATS_MAX, PORT_STATS_MAX);
		n[p] = RTE_MIN(RTE_MAX(n[p], 0), PORT_STATS_MAX);
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct pcc_host_stat *sp = st + (size_t)p * PORT_STATS_MAX;

		for (i = 0; i < n[p]; i++) {
			/* emitted with an earlier port already? */
			for (q = 0; q < p; q++)
				if (stat_find(st + (size_t)q * PORT_STATS_MAX, n[q], sp[i].name) >=
						0)
					break;
			if (q < p)
				continue;
			snprintf(fam, sizeof(fam), "pcc_port_%s", sp[i].name);
			family(o, fam, true, "engine statistic of the port (/pcc/stats)");
			for (q = p; q < RTE_MAX_ETHPORTS; q++) {
				k = stat_find(st + (size_t)q * PORT_STATS_MAX, n[q], sp[i].name);
				if (k < 0)
					continue;
				if (rte_eth_dev_get_name_by_port(q, name) != 0)
					name[0] = '\0';
				put(o, "%s_total{port=\"%u\",name=\"%s\"} %" PRIu64 "\n", fam, q,
						esc(name, e, sizeof(e)),
						st[(size_t)q * PORT_STATS_MAX + (size_t)k].value);
			}
		}
	}
	free(st);
}

static void
algos(struct out *o)
{
	char a[2 * PCC_DEV_NAME_MAX], c[2 * PCC_DEV_NAME_MAX];
	uint32_t vals[PCC_DEV_MAX_COUNTERS];
	const struct pcc_dev_algo_ops *ops;
	bool enabled, head = false;
	uint8_t port, slot;
	int n, i;

	for (port = 0; port < PCC_DEV_MAX_PORTS; port++) {
		for (slot = 0; slot <= PCC_DEV_INTERNAL_SLOT; slot++) {
			if (slot >= PCC_DEV_MAX_SLOTS && slot != PCC_DEV_INTERNAL_SLOT)
				continue;
			ops = pcc_dev_slot_algo(port, slot, &enabled);
			if (ops == NULL || ops->n_counters == 0)
				continue;
			n = pcc_dev_counters_get(port, slot, vals, RTE_DIM(vals));
			if (n <= 0)
				continue;
			if (!head) {
				family(o, "pcc_algo_value", false,
						"counter of the algorithm of a slot "
						"(/pcc/counters)");
				head = true;
			}
			esc(ops->name, a, sizeof(a));
			for (i = 0; i < n && i < (int)ops->n_counters; i++)
				put(o,
						"pcc_algo_value{port=\"%u\",slot=\"%u\",algo=\"%"
						"s\","
						"counter=\"%s\"} %u\n",
						port, slot, a,
						esc(ops->counters[i].name, c, sizeof(c)), vals[i]);
		}
	}
}

static void
lcores(struct out *o)
{
	static const struct {
		const char *name;
		const char *help;
		size_t off;
	} f[] = {
		{ "pcc_lcore_polls", "poll rounds of a polling lcore",
				offsetof(struct pcc_engine_lcore_stats, polls) },
		{ "pcc_lcore_busy_polls", "poll rounds that received or sent",
				offsetof(struct pcc_engine_lcore_stats, busy_polls) },
		{ "pcc_lcore_rx_pkts", "packets the lcore received",
				offsetof(struct pcc_engine_lcore_stats, rx_pkts) },
		{ "pcc_lcore_tx_pkts", "packets the lcore sent",
				offsetof(struct pcc_engine_lcore_stats, tx_pkts) },
		{ "pcc_lcore_port_skips", "port rounds with nothing due, skipped",
				offsetof(struct pcc_engine_lcore_stats, port_skips) },
	};
	struct pcc_engine_lcore_stats st;
	struct pcc_engine *e = pcc_host_engine();
	unsigned int i, l;

	if (e == NULL)
		return;
	for (i = 0; i < RTE_DIM(f); i++) {
		family(o, f[i].name, true, f[i].help);
		for (l = 0; l < RTE_MAX_LCORE; l++)
			if (pcc_engine_lcore_stats_get(e, l, &st) == 0)
				put(o, "%s_total{lcore=\"%u\"} %" PRIu64 "\n", f[i].name, l,
						*(const uint64_t *)((const char *)&st + f[i].off));
	}
}

int
pcc_host_metrics_render(char *buf, size_t len, bool openmetrics)
{
	struct out o = { .buf = buf, .len = len, .om = openmetrics };

	if (buf == NULL || len == 0)
		return -EINVAL;
	buf[0] = '\0';
	family(&o, "pcc_process_state", false,
			"process state: 0 active, 1 standby, 2 deactivated, 3 error");
	put(&o, "pcc_process_state %d\n", (int)pcc_host_process_state());
	family(&o, "pcc_engine_running", false, "1 when the engine exists");
	put(&o, "pcc_engine_running %d\n", pcc_host_engine() != NULL);
	family(&o, "pcc_flows", false, "flows in the engine's tables (/pcc/flows)");
	put(&o, "pcc_flows %u\n", pcc_host_flows_count());
	family(&o, "pcc_metrics_scrapes", true, "scrapes served");
	put(&o, "pcc_metrics_scrapes_total %" PRIu64 "\n",
			__atomic_load_n(&met.scrapes, __ATOMIC_RELAXED));
	if (pcc_host_engine() != NULL) {
		ports(&o);
		lcores(&o);
	}
	algos(&o);
	if (openmetrics)
		put(&o, "# EOF\n");
	return o.overflow ? -ENOSPC : (int)o.used;
}

/* ---- HTTP --------------------------------------------------------------------- */

static void
send_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void
reply(int fd, const char *status, const char *type, const char *body, size_t len)
{
	char hdr[256];
	int n;

	n = snprintf(hdr, sizeof(hdr),
			"HTTP/1.0 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
			"Connection: close\r\n\r\n",
			status, type, len);
	send_all(fd, hdr, (size_t)n);
	send_all(fd, body, len);
}

static void
serve(int fd, char *body)
{
	struct timeval tv = { .tv_sec = 2 };
	char req[REQ_MAX + 1], *end;
	size_t got = 0;
	bool om;
	int n;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	/* the request line and headers, up to the blank line */
	while (got < REQ_MAX) {
		ssize_t r = recv(fd, req + got, REQ_MAX - got, 0);

		if (r <= 0)
			return;
		got += (size_t)r;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n") != NULL || strstr(req, "\n\n") != NULL)
			break;
	}
	req[got] = '\0';
	if (strncmp(req, "GET ", 4) != 0) {
		reply(fd, "405 Method Not Allowed", "text/plain", "GET only\n", 9);
		return;
	}
	end = strchr(req + 4, ' ');
	if (end == NULL || (size_t)(end - (req + 4)) != strlen("/metrics") ||
			strncmp(req + 4, "/metrics", strlen("/metrics")) != 0) {
		reply(fd, "404 Not Found", "text/plain", "/metrics only\n", 14);
		return;
	}
	om = strstr(req, "application/openmetrics-text") != NULL;
	__atomic_fetch_add(&met.scrapes, 1, __ATOMIC_RELAXED);
	n = pcc_host_metrics_render(body, METRICS_BUF, om);
	if (n < 0) {
		reply(fd, "500 Internal Server Error", "text/plain", "too many metrics\n", 17);
		return;
	}
	reply(fd, "200 OK",
			om ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
			     "text/plain; version=0.0.4; charset=utf-8",
			body, (size_t)n);
}

static void *
metrics_main(void *arg)
{
	struct pollfd pf[2];
	char *body = malloc(METRICS_BUF);

	RTE_SET_USED(arg);
	if (body == NULL)
		return NULL;
	pf[0] = (struct pollfd){ .fd = met.lfd, .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = met.stop_pipe[0], .events = POLLIN };
	for (;;) {
		int fd;

		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents != 0)
			break;
		if (!(pf[0].revents & POLLIN))
			continue;
		fd = accept(met.lfd, NULL, NULL);
		if (fd < 0)
			continue;
		serve(fd, body);
		close(fd);
	}
	free(body);
	return NULL;
}

bool
pcc_host_metrics_running(const char **addr, uint16_t *port)
{
	if (met.running) {
		if (addr != NULL)
			*addr = met.addr;
		if (port != NULL)
			*port = met.port;
	}
	return met.running;
}

int
pcc_host_metrics_start(const char *addr, uint16_t port)
{
	struct sockaddr_storage ss;
	socklen_t slen;
	int one = 1, rc;

	if (met.running)
		return host_err(-EBUSY, "metrics: already serving on %s port %u", met.addr,
				met.port);
	if (port == 0)
		return host_err(-EINVAL, "metrics: port 0");
	if (addr == NULL || addr[0] == '\0')
		addr = "127.0.0.1";
	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, addr, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
		((struct sockaddr_in *)&ss)->sin_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_port = htons(port);
		slen = sizeof(struct sockaddr_in);
	} else if (inet_pton(AF_INET6, addr, &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1) {
		((struct sockaddr_in6 *)&ss)->sin6_family = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(port);
		slen = sizeof(struct sockaddr_in6);
	} else {
		return host_err(-EINVAL, "metrics: '%s' is not an IPv4 or IPv6 address", addr);
	}
	met.lfd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (met.lfd < 0)
		return host_err(-errno, "metrics: socket: %s", strerror(errno));
	setsockopt(met.lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(met.lfd, (struct sockaddr *)&ss, slen) != 0 || listen(met.lfd, 16) != 0) {
		rc = -errno;
		close(met.lfd);
		met.lfd = -1;
		return host_err(rc, "metrics: cannot listen on %s port %u: %s", addr, port,
				strerror(-rc));
	}
	if (pipe(met.stop_pipe) != 0) {
		rc = -errno;
		close(met.lfd);
		met.lfd = -1;
		return host_err(rc, "metrics: pipe: %s", strerror(-rc));
	}
	snprintf(met.addr, sizeof(met.addr), "%s", addr);
	met.port = port;
	rc = pthread_create(&met.thread, NULL, metrics_main, NULL);
	if (rc != 0) {
		close(met.lfd);
		close(met.stop_pipe[0]);
		close(met.stop_pipe[1]);
		met.lfd = -1;
		return host_err(-rc, "metrics: thread: %s", strerror(rc));
	}
	pthread_setname_np(met.thread, "pcc-metrics");
	met.running = true;
	HOST_LOG(INFO, "metrics: http://%s%s%s:%u/metrics\n", strchr(addr, ':') ? "[" : "", addr,
			strchr(addr, ':') ? "]" : "", port);
	return 0;
}

void
pcc_host_metrics_stop(void)
{
	if (!met.running)
		return;
	if (write(met.stop_pipe[1], "x", 1) != 1)
		HOST_LOG(WARNING, "metrics: cannot wake the server thread\n");
	pthread_join(met.thread, NULL);
	close(met.lfd);
	close(met.stop_pipe[0]);
	close(met.stop_pipe[1]);
	met.lfd = -1;
	met.running = false;
}

/* --metrics-addr / --metrics-port, in either order */
static char want_addr[64] = "127.0.0.1";
static int want_port = -1;

int
host_metrics_configure(const char *addr, int port)
{
	if (addr != NULL)
		snprintf(want_addr, sizeof(want_addr), "%s", addr);
	if (port >= 0)
		want_port = port;
	if (want_port < 0)
		return 0;
	if (met.running) {
		if (strcmp(met.addr, want_addr) == 0 && met.port == want_port)
			return 0;
		pcc_host_metrics_stop();
	}
	return pcc_host_metrics_start(want_addr, (uint16_t)want_port);
}
