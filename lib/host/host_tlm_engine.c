/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * /pcc/ telemetry of the engine itself (doc/telemetry.md): flows, the
 * per-port statistics and what each polling lcore does.  lib/dev's state
 * (slots, counters, parameters, histograms) is in host_tlm.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_telemetry.h>

#include <rte_mempool.h>

#include "host_internal.h"

#define TLM_FLOWS_TOP_MAX 64
#define TLM_STATS_MAX 256

int
host_tlm_flows(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "engine", pcc_host_engine() != NULL);
	rte_tel_data_add_dict_u64(d, "count", pcc_host_flows_count());
	return 0;
}

static void
flow_dict(struct rte_tel_data *d, const struct pcc_host_flow *f)
{
	rte_tel_data_add_dict_int(d, "port_id", f->key.port_id);
	rte_tel_data_add_dict_int(d, "type", f->key.type);
	rte_tel_data_add_dict_u64(d, "qpn", f->key.qpn);
	rte_tel_data_add_dict_int(d, "lcore", (int)f->lcore_id);
	rte_tel_data_add_dict_int(d, "dev_port", f->dev_port);
	rte_tel_data_add_dict_int(d, "slot", f->slot);
	rte_tel_data_add_dict_u64(d, "rate", f->rate);
	rte_tel_data_add_dict_u64(d, "rate_bps", f->rate_bps);
	rte_tel_data_add_dict_u64(d, "window", f->window);
	rte_tel_data_add_dict_u64(d, "tx_pkts", f->tx_pkts);
	rte_tel_data_add_dict_u64(d, "tx_bytes", f->tx_bytes);
	rte_tel_data_add_dict_u64(d, "cnp_rx", f->cnp_rx);
	rte_tel_data_add_dict_u64(d, "ack_rx", f->ack_rx);
	rte_tel_data_add_dict_u64(d, "nack_rx", f->nack_rx);
	rte_tel_data_add_dict_u64(d, "probe_tx", f->probe_tx);
	rte_tel_data_add_dict_u64(d, "rtt_ns", f->rtt_ns);
	rte_tel_data_add_dict_u64(d, "idle_ns", f->idle_ns);
}

int
host_tlm_flow(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct pcc_host_flow_key k;
	struct pcc_host_flow f;
	uint32_t v[2];
	int rc;

	RTE_SET_USED(cmd);
	if (host_tlm_args(params, v, 2, NULL) != 2)
		return host_tlm_fail(d, -EINVAL, "parameters '%s': expected port_id,qpn",
				params != NULL ? params : "");
	if (v[0] >= RTE_MAX_ETHPORTS)
		return host_tlm_fail(d, -EINVAL, "port_id %u: 0..%u", v[0], RTE_MAX_ETHPORTS - 1);
	if (v[1] > 0xFFFFFF)
		return host_tlm_fail(d, -EINVAL, "qpn %u: 24 bits (0..16777215)", v[1]);
	if (pcc_host_engine() == NULL)
		return host_tlm_fail(d, -ENOTSUP, "no engine: no context started yet");
	memset(&k, 0, sizeof(k));
	memset(&f, 0, sizeof(f));
	k.port_id = (uint16_t)v[0];
	k.qpn = v[1];
	rc = pcc_host_flow_get(&k, &f);
	if (rc == -ENOENT)
		return host_tlm_fail(d, rc, "no flow with port_id %u qpn %u", v[0], v[1]);
	if (rc < 0)
		return host_tlm_fail(d, rc, "port_id %u qpn %u: %s", v[0], v[1], strerror(-rc));
	rte_tel_data_start_dict(d);
	flow_dict(d, &f);
	return 0;
}

int
host_tlm_flows_top(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct pcc_host_flow *f;
	struct rte_tel_data *port, *qpn, *slot, *rate, *bps, *bytes, *rtt;
	uint32_t v[1] = { 10 }, n, i;

	RTE_SET_USED(cmd);
	if (params != NULL && *params != '\0' &&
			(host_tlm_args(params, v, 1, NULL) != 1 || v[0] < 1 ||
					v[0] > TLM_FLOWS_TOP_MAX))
		return host_tlm_fail(d, -EINVAL, "n '%s': 1..%u", params, TLM_FLOWS_TOP_MAX);
	f = calloc(v[0], sizeof(*f));
	if (f == NULL)
		return host_tlm_fail(d, -ENOMEM, "no memory for %u flows", v[0]);
	n = pcc_host_flows_top(f, v[0]);
	if (n > v[0])
		n = v[0];
	port = host_tlm_arr_u64();
	qpn = host_tlm_arr_u64();
	slot = host_tlm_arr_u64();
	rate = host_tlm_arr_u64();
	bps = host_tlm_arr_u64();
	bytes = host_tlm_arr_u64();
	rtt = host_tlm_arr_u64();
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "n", (int)n);
	for (i = 0; i < n; i++) {
		if (port != NULL)
			rte_tel_data_add_array_u64(port, f[i].key.port_id);
		if (qpn != NULL)
			rte_tel_data_add_array_u64(qpn, f[i].key.qpn);
		if (slot != NULL)
			rte_tel_data_add_array_u64(slot, f[i].slot);
		if (rate != NULL)
			rte_tel_data_add_array_u64(rate, f[i].rate);
		if (bps != NULL)
			rte_tel_data_add_array_u64(bps, f[i].rate_bps);
		if (bytes != NULL)
			rte_tel_data_add_array_u64(bytes, f[i].tx_bytes);
		if (rtt != NULL)
			rte_tel_data_add_array_u64(rtt, f[i].rtt_ns);
	}
	free(f);
	host_tlm_dict_arr(d, "port_id", port);
	host_tlm_dict_arr(d, "qpn", qpn);
	host_tlm_dict_arr(d, "slot", slot);
	host_tlm_dict_arr(d, "rate", rate);
	host_tlm_dict_arr(d, "rate_bps", bps);
	host_tlm_dict_arr(d, "tx_bytes", bytes);
	host_tlm_dict_arr(d, "rtt_ns", rtt);
	return 0;
}

/*
 * With /pcc/stats,<port>,xstats: what /ethdev/xstats gives for the port
 * (the PMD's xstats names and values), before the engine's statistics,
 * which are then named pcc_<name>: one flat dictionary, so a tool that
 * reads /ethdev/xstats reads the engine's counters the same way.  (DPDK
 * 22.11's telemetry takes 64 commands in all: a parameter, not a command.)
 */
static void
add_ethdev_xstats(struct rte_tel_data *d, uint16_t port)
{
	struct rte_eth_xstat_name *names = NULL;
	struct rte_eth_xstat *xs = NULL;
	int nx, i;

	nx = rte_eth_xstats_get_names(port, NULL, 0);
	if (nx > 0) {
		names = calloc((size_t)nx, sizeof(*names));
		xs = calloc((size_t)nx, sizeof(*xs));
		if (names != NULL && xs != NULL &&
				rte_eth_xstats_get_names(port, names, (unsigned int)nx) == nx &&
				rte_eth_xstats_get(port, xs, (unsigned int)nx) == nx)
			for (i = 0; i < nx; i++)
				rte_tel_data_add_dict_u64(d, names[i].name, xs[i].value);
	}
	free(names);
	free(xs);
}

int
host_tlm_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char name[RTE_TEL_MAX_STRING_LEN], arg[32];
	struct pcc_host_stat *st;
	const char *xs = NULL;
	uint32_t v[1];
	int port = -1, n, i;

	RTE_SET_USED(cmd);
	if (params != NULL && *params != '\0') {
		xs = strstr(params, ",xstats");
		if (xs != NULL && strcmp(xs, ",xstats") != 0)
			xs = NULL;
		snprintf(arg, sizeof(arg), "%.*s",
				(int)(xs != NULL ? xs - params : (ptrdiff_t)strlen(params)),
				params);
		if (host_tlm_args(arg, v, 1, NULL) != 1 || v[0] >= RTE_MAX_ETHPORTS)
			return host_tlm_fail(d, -EINVAL, "port_id '%s': 0..%u", arg,
					RTE_MAX_ETHPORTS - 1);
		port = (int)v[0];
	}
	if (pcc_host_engine() == NULL)
		return host_tlm_fail(d, -ENOTSUP, "no engine: no context started yet");
	st = calloc(TLM_STATS_MAX, sizeof(*st));
	if (st == NULL)
		return host_tlm_fail(d, -ENOMEM, "no memory for the statistics");
	n = pcc_host_stats_get(port, st, TLM_STATS_MAX);
	if (n < 0) {
		free(st);
		if (n == -ENOENT || n == -EINVAL)
			return host_tlm_fail(d, n, "port_id %d: not a port of the engine", port);
		return host_tlm_fail(d, n, "statistics: %s", strerror(-n));
	}
	if (n > TLM_STATS_MAX)
		n = TLM_STATS_MAX;
	rte_tel_data_start_dict(d);
	if (xs != NULL)
		add_ethdev_xstats(d, (uint16_t)port);
	for (i = 0; i < n; i++) {
		st[i].name[sizeof(st[i].name) - 1] = '\0';
		snprintf(name, sizeof(name), "%s%s", xs != NULL ? "pcc_" : "", st[i].name);
		rte_tel_data_add_dict_u64(d, name, st[i].value);
	}
	free(st);
	return 0;
}

/*
 * /pcc/lcores: per polling lcore, its rank (lib/dev thread), the RX queues
 * it polls ("port:queue,...") and its counters.  Parallel arrays, one
 * entry per lcore, in lcore order.
 */
int
host_tlm_lcores(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *id, *rank, *polls, *busy, *rx, *tx, *qs;
	struct pcc_engine_lcore_stats st;
	const struct pcc_engine_conf *c;
	char buf[RTE_TEL_MAX_STRING_LEN];
	unsigned int l;
	uint32_t i;
	size_t off;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	if (host_e == NULL)
		return host_tlm_fail(d, -ENOTSUP, "no engine: no context started yet");
	c = pcc_engine_conf_get(host_e);
	id = host_tlm_arr_u64();
	rank = host_tlm_arr_u64();
	polls = host_tlm_arr_u64();
	busy = host_tlm_arr_u64();
	rx = host_tlm_arr_u64();
	tx = host_tlm_arr_u64();
	qs = rte_tel_data_alloc();
	if (qs != NULL)
		rte_tel_data_start_array(qs, RTE_TEL_STRING_VAL);
	rte_tel_data_start_dict(d);
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		if (pcc_engine_lcore_stats_get(host_e, l, &st) != 0)
			continue;
		off = 0;
		buf[0] = '\0';
		for (i = 0; i < c->nb_rxq_conf && off < sizeof(buf); i++)
			if (c->rxq[i].lcore_id == l)
				off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%u:%u",
						off > 0 ? "," : "", c->rxq[i].port_id,
						c->rxq[i].queue_id);
		if (id != NULL)
			rte_tel_data_add_array_u64(id, l);
		if (rank != NULL)
			rte_tel_data_add_array_u64(
					rank, (uint64_t)pcc_engine_lcore_rank(host_e, l));
		if (polls != NULL)
			rte_tel_data_add_array_u64(polls, st.polls);
		if (busy != NULL)
			rte_tel_data_add_array_u64(busy, st.busy_polls);
		if (rx != NULL)
			rte_tel_data_add_array_u64(rx, st.rx_pkts);
		if (tx != NULL)
			rte_tel_data_add_array_u64(tx, st.tx_pkts);
		if (qs != NULL)
			rte_tel_data_add_array_string(qs, buf);
	}
	host_tlm_dict_arr(d, "lcore", id);
	host_tlm_dict_arr(d, "rank", rank);
	host_tlm_dict_arr(d, "rxqs", qs);
	host_tlm_dict_arr(d, "polls", polls);
	host_tlm_dict_arr(d, "busy_polls", busy);
	host_tlm_dict_arr(d, "rx_pkts", rx);
	host_tlm_dict_arr(d, "tx_pkts", tx);
	return 0;
}

/* ---- /pcc/mempools ---------------------------------------------------------------- */

/* Arrays the walk fills, one entry per pool. */
struct mp_walk {
	struct rte_tel_data *name, *size, *in_use, *avail, *cache, *socket;
};

static void
mp_one(struct rte_mempool *mp, void *arg)
{
	struct mp_walk *w = arg;

	if (w->name != NULL)
		rte_tel_data_add_array_string(w->name, mp->name);
	if (w->size != NULL)
		rte_tel_data_add_array_u64(w->size, mp->size);
	if (w->in_use != NULL)
		rte_tel_data_add_array_u64(w->in_use, rte_mempool_in_use_count(mp));
	if (w->avail != NULL)
		rte_tel_data_add_array_u64(w->avail, rte_mempool_avail_count(mp));
	if (w->cache != NULL)
		rte_tel_data_add_array_u64(w->cache, mp->cache_size);
	if (w->socket != NULL)
		rte_tel_data_add_array_u64(w->socket, (uint64_t)(int64_t)mp->socket_id);
}

/*
 * /pcc/mempools: every mempool of the process (the engine's mbuf pools,
 * the simulator's, the ring pair's...), with what DPDK 22.11's
 * /mempool/info lacks: objects in use (taken from the pool, not in a
 * lcore cache) and available.  A leak shows as in_use that does not come
 * back down when the traffic stops.  Parallel arrays, one entry per pool.
 */
int
host_tlm_mempools(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct mp_walk w;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	w.name = rte_tel_data_alloc();
	if (w.name != NULL)
		rte_tel_data_start_array(w.name, RTE_TEL_STRING_VAL);
	w.size = host_tlm_arr_u64();
	w.in_use = host_tlm_arr_u64();
	w.avail = host_tlm_arr_u64();
	w.cache = host_tlm_arr_u64();
	w.socket = host_tlm_arr_u64();
	rte_tel_data_start_dict(d);
	rte_mempool_walk(mp_one, &w);
	host_tlm_dict_arr(d, "name", w.name);
	host_tlm_dict_arr(d, "size", w.size);
	host_tlm_dict_arr(d, "in_use", w.in_use);
	host_tlm_dict_arr(d, "avail", w.avail);
	host_tlm_dict_arr(d, "cache_size", w.cache);
	host_tlm_dict_arr(d, "socket", w.socket);
	return 0;
}
