/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Ports and mbuf pools: one pool per socket, ports configured from what
 * each PMD reports (rte_eth_dev_info), started, closed at the end.  Each
 * port's clock (clock.c) and line rate are fixed here:
 *
 *   line rate = conf.port[].line_rate_bps if set; else
 *   conf.rp.line_rate_gbps if set; else 100 Gb/s for a
 *   virtual device (bus "vdev": net_ring, net_pcap, net_tap... report a
 *   made-up speed); else the link speed, 100 Gb/s when down or unknown.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "engine_internal.h"

#define POOL_CACHE 256
#define POOL_MIN 4095u
#define POOL_MAX (1u << 24)
#define POOL_FWD_EXTRA 16384u

static int
port_socket(uint16_t port_id)
{
	int s = rte_eth_dev_socket_id(port_id);

	if (s < 0 || s >= RTE_MAX_NUMA_NODES)
		s = (int)rte_socket_id();
	return s;
}

/* mbufs a socket needs: every descriptor filled, plus the bursts each
 * lcore holds, plus slack; at least POOL_MIN. */
static uint32_t
pool_size(const struct pcc_engine *e, int socket)
{
	const struct pcc_engine_conf *c = &e->conf;
	uint64_t n = 1024;
	unsigned int l;
	uint16_t i;

	for (i = 0; i < e->nb_ports; i++) {
		const struct eng_port *p = &e->ports[i];

		if (p->socket == socket)
			n += (uint64_t)p->nb_rxq * c->nb_rxd + (uint64_t)p->nb_txq * c->nb_txd;
	}
	for (l = 0; l < RTE_MAX_LCORE; l++)
		if (rte_lcore_is_enabled(l))
			n += 3u * c->burst + POOL_CACHE;
	/* packets waiting in pacers: generator flows, forwarded flows */
	n += (uint64_t)e->gen_planned * e->gen_max_queued;
	if (c->fwd.enabled)
		n += POOL_FWD_EXTRA;
	/* what the caller knows it holds beyond that (a simulator's fabric) */
	n += c->nb_mbufs_extra;
	return (uint32_t)RTE_MIN(RTE_MAX(n, (uint64_t)POOL_MIN), (uint64_t)POOL_MAX);
}

static int
pools_create(struct pcc_engine *e)
{
	uint32_t room = RTE_MBUF_DEFAULT_DATAROOM;
	uint16_t i;

	if (e->gen_frame_len > room)
		room = e->gen_frame_len;
	room += RTE_PKTMBUF_HEADROOM;
	for (i = 0; i < e->nb_ports; i++) {
		struct eng_port *p = &e->ports[i];
		char name[RTE_MEMPOOL_NAMESIZE];
		uint32_t n;

		if (e->pools[p->socket] != NULL) {
			p->mp = e->pools[p->socket];
			continue;
		}
		n = e->conf.nb_mbufs != 0 ? e->conf.nb_mbufs : pool_size(e, p->socket);
		snprintf(name, sizeof(name), "pcc_mbuf%u_s%d", e->id, p->socket);
		e->pools[p->socket] = rte_pktmbuf_pool_create(name, n,
				RTE_MIN((uint32_t)POOL_CACHE, n / 2), 0, (uint16_t)room, p->socket);
		if (e->pools[p->socket] == NULL) {
			ENG_LOG(ERR,
					"cannot create a pool of %u mbufs of %u bytes on socket "
					"%d: %s",
					n, room, p->socket, rte_strerror(rte_errno));
			return -rte_errno;
		}
		ENG_LOG(INFO, "pool %s: %u mbufs of %u bytes", name, n, room);
		p->mp = e->pools[p->socket];
	}
	return 0;
}

static bool
port_is_virtual(const struct rte_eth_dev_info *info)
{
	const struct rte_bus *bus = info->device != NULL ? rte_dev_bus(info->device) : NULL;

	return bus != NULL && strcmp(rte_bus_name(bus), "vdev") == 0;
}

static uint64_t
port_line_bps(const struct pcc_engine *e, const struct eng_port *p,
		const struct rte_eth_dev_info *info)
{
	struct rte_eth_link link;

	if (e->conf.port[p->port_id].line_rate_bps != 0)
		return e->conf.port[p->port_id].line_rate_bps;
	if (e->conf.rp.line_rate_gbps != 0)
		return (uint64_t)e->conf.rp.line_rate_gbps * 1000000000u;
	if (port_is_virtual(info))
		return UINT64_C(100) * 1000000000u;
	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(p->port_id, &link) != 0 || link.link_speed == 0 ||
			link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN)
		return UINT64_C(100) * 1000000000u;
	return (uint64_t)link.link_speed * 1000000u;
}

/* Choose the port's time source and say which (one line). */
static void
port_clock(struct eng_port *p, const char *name)
{
	struct eng_clock_ops ops;
	pcc_engine_clock_fn reg;
	uint64_t ts_flag = 0;
	int ts_off = -1;
	void *reg_arg = NULL;

	eng_clock_ops_default(&ops);
	if (p->hw_ts && rte_mbuf_dyn_rx_timestamp_register(&ts_off, &ts_flag) != 0) {
		ENG_LOG(WARNING, "port %u (%s): no RX timestamp dynfield: %s", p->port_id, name,
				rte_strerror(rte_errno));
		p->hw_ts = false;
	}
	reg = eng_clock_registered(p->port_id, &reg_arg);
	eng_clock_setup(&p->clk, p->port_id, p->hw_ts, ts_off, ts_flag, reg, reg_arg, &ops);
	if (p->clk.calibrated)
		ENG_LOG(INFO, "port %u (%s): clock %s, device clock %.3f MHz", p->port_id, name,
				pcc_engine_clock_src_name(p->clk.src), (double)p->clk.dev_hz / 1e6);
	else
		ENG_LOG(INFO, "port %u (%s): clock %s", p->port_id, name,
				pcc_engine_clock_src_name(p->clk.src));
}

static int
port_setup(struct pcc_engine *e, struct eng_port *p, uint16_t mtu)
{
	const struct pcc_engine_conf *c = &e->conf;
	uint16_t pid = p->port_id, nb_rxd = c->nb_rxd, nb_txd = c->nb_txd;
	char name[RTE_ETH_NAME_MAX_LEN] = "?";
	struct rte_eth_dev_info info;
	struct rte_eth_conf pconf;
	uint16_t q;
	int ret;

	rte_eth_dev_get_name_by_port(pid, name);
	ret = rte_eth_dev_info_get(pid, &info);
	if (ret != 0) {
		ENG_LOG(ERR, "port %u (%s): cannot get device info: %s", pid, name,
				rte_strerror(-ret));
		return ret;
	}
	if (p->nb_rxq > info.max_rx_queues) {
		ENG_LOG(ERR, "port %u (%s): %u RX queues asked for, the port has at most %u", pid,
				name, p->nb_rxq, info.max_rx_queues);
		return -ENOTSUP;
	}
	if (p->nb_txq > info.max_tx_queues) {
		ENG_LOG(ERR,
				"port %u (%s): %u TX queues needed (one per lcore polling the "
				"port, or --txq), the port has at most %u",
				pid, name, p->nb_txq, info.max_tx_queues);
		return -ENOTSUP;
	}

	memset(&pconf, 0, sizeof(pconf));
	if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP) {
		pconf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_TIMESTAMP;
		p->hw_ts = true;
	}
	if (p->nb_rxq > 1) {
		uint64_t hf = eng_steer_rss_hf(info.flow_type_rss_offloads);

		if (hf != 0) {
			pconf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
			pconf.rx_adv_conf.rss_conf.rss_hf = hf;
		} else {
			ENG_LOG(NOTICE,
					"port %u (%s): no RSS; the PMD decides which RX queue a "
					"packet reaches",
					pid, name);
		}
	}
	if (mtu > RTE_ETHER_MTU) {
		if (mtu > info.max_mtu) {
			ENG_LOG(ERR,
					"port %u (%s): generated frames need MTU %u, the port "
					"allows at most %u",
					pid, name, mtu, info.max_mtu);
			return -ENOTSUP;
		}
		pconf.rxmode.mtu = mtu;
	}
	ret = rte_eth_dev_configure(pid, p->nb_rxq, p->nb_txq, &pconf);
	if (ret != 0) {
		ENG_LOG(ERR, "port %u (%s): configure with %u RX / %u TX queues failed: %s", pid,
				name, p->nb_rxq, p->nb_txq, rte_strerror(-ret));
		return ret;
	}
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(pid, &nb_rxd, &nb_txd);
	if (ret != 0) {
		ENG_LOG(ERR, "port %u (%s): descriptor counts: %s", pid, name, rte_strerror(-ret));
		return ret;
	}
	for (q = 0; q < p->nb_rxq; q++) {
		ret = rte_eth_rx_queue_setup(pid, q, nb_rxd, p->socket, NULL, p->mp);
		if (ret != 0) {
			ENG_LOG(ERR, "port %u (%s): RX queue %u setup: %s", pid, name, q,
					rte_strerror(-ret));
			return ret;
		}
	}
	for (q = 0; q < p->nb_txq; q++) {
		ret = rte_eth_tx_queue_setup(pid, q, nb_txd, p->socket, NULL);
		if (ret != 0) {
			ENG_LOG(ERR, "port %u (%s): TX queue %u setup: %s", pid, name, q,
					rte_strerror(-ret));
			return ret;
		}
	}
	ret = rte_eth_dev_start(pid);
	if (ret != 0) {
		ENG_LOG(ERR, "port %u (%s): start failed: %s", pid, name, rte_strerror(-ret));
		return ret;
	}
	p->started = true;
	ret = rte_eth_promiscuous_enable(pid);
	if (ret != 0 && ret != -ENOTSUP)
		ENG_LOG(WARNING, "port %u (%s): promiscuous mode: %s", pid, name,
				rte_strerror(-ret));
	ret = rte_eth_macaddr_get(pid, &p->mac);
	if (ret != 0)
		memset(&p->mac, 0, sizeof(p->mac));
	port_clock(p, name);
	p->line_bps = port_line_bps(e, p, &info);
	ENG_LOG(INFO, "port %u (%s): %u RX queues, %u TX queues, %u/%u descriptors, socket %d", pid,
			name, p->nb_rxq, p->nb_txq, nb_rxd, nb_txd, p->socket);
	return 0;
}

int
eng_ports_setup(struct pcc_engine *e)
{
	uint16_t mtu = 0;
	uint16_t i;
	int ret;

	for (i = 0; i < e->nb_ports; i++)
		e->ports[i].socket = port_socket(e->ports[i].port_id);
	ret = pools_create(e);
	if (ret < 0)
		return ret;
	/* receivers of generated frames need an MTU that fits them */
	if (e->gen_frame_len > 0)
		mtu = (uint16_t)(e->gen_frame_len - RTE_ETHER_HDR_LEN);
	for (i = 0; i < e->nb_ports; i++) {
		e->ports[i].configured = true;
		ret = port_setup(e, &e->ports[i], mtu);
		if (ret != 0)
			return ret < 0 ? ret : -EIO;
	}
	return 0;
}

void
eng_ports_close(struct pcc_engine *e)
{
	unsigned int s;
	uint16_t i;
	int ret;

	eng_steer_teardown(e);
	for (i = 0; i < e->nb_ports; i++) {
		uint16_t pid = e->ports[i].port_id;

		if (!e->ports[i].configured)
			continue;
		ret = e->ports[i].started ? rte_eth_dev_stop(pid) : 0;
		if (ret != 0)
			ENG_LOG(WARNING, "port %u: stop: %s", pid, rte_strerror(-ret));
		ret = rte_eth_dev_close(pid);
		if (ret != 0)
			ENG_LOG(WARNING, "port %u: close: %s", pid, rte_strerror(-ret));
		e->ports[i].configured = false;
		e->ports[i].started = false;
	}
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		rte_mempool_free(e->pools[s]);
		e->pools[s] = NULL;
	}
}
