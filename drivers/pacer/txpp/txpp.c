/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * txpp: send on timestamp (mlx5 tx_pp, ConnectX-6 Dx and later).
 *
 * Each packet's departure is computed exactly as the wheel computes it
 * (pacer_drv.h); a packet due later than now gets the departure, converted
 * to the NIC's clock, in the mbuf timestamp dynamic field and the
 * timestamp dynamic flag, and every packet is handed out by the next
 * dequeue: the NIC holds it until its time.  A TX queue is FIFO, so a
 * stamped packet delays everything behind it on that queue: departures
 * beyond the horizon are refused as the wheel refuses them.
 *
 * Usable when the port reports RTE_ETH_TX_OFFLOAD_SEND_ON_TIMESTAMP, the
 * port is configured with it, and the dynamic field and flag can be
 * registered (they must be before rte_eth_dev_start() for mlx5 to use
 * them).  All ethdev and mbuf calls go through struct pcc_pacer_txpp_hw.
 *
 * Memory: 24 bytes per flow (struct pacer_tb).
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_prefetch.h>

#include "pcc_pacer_drivers.h"
#include "pacer_drv.h"

#define TXPP_RESYNC_NS 100000000ull /* READ_CLOCK: re-read every 100 ms */

struct txpp {
	struct pacer_tb *flows;
	struct pcc_pacer_txpp_hw hw;
	uint64_t line_bps;
	uint64_t horizon_ns;
	uint64_t ts_flag;
	uint64_t depart_flag;
	int ts_off;
	int depart_off;
	uint16_t port_id;
	uint32_t max_flows;
	enum pcc_pacer_txpp_clock mode;
	pcc_pacer_txpp_clock_fn fn;
	void *fn_arg;
	uint64_t offset; /* READ_CLOCK: NIC clock - now, modulo 2^64 */
	uint64_t next_sync;
	bool synced;
	bool sync_warned;
};

/* The real DPDK calls (a macro: C11 cannot copy a const object in a
 * static initializer). */
#define TXPP_HW_DPDK                                                                        \
	{                                                                                   \
		.dev_info_get = rte_eth_dev_info_get, .dev_conf_get = rte_eth_dev_conf_get, \
		.tx_timestamp_register = rte_mbuf_dyn_tx_timestamp_register,                \
		.read_clock = rte_eth_read_clock,                                           \
	}

static const struct pcc_pacer_txpp_hw txpp_hw_dpdk = TXPP_HW_DPDK;

static struct pcc_pacer_txpp_hw txpp_hw = TXPP_HW_DPDK;

void
pcc_pacer_txpp_hw_set(const struct pcc_pacer_txpp_hw *hw)
{
	if (hw == NULL) {
		txpp_hw = txpp_hw_dpdk;
		return;
	}
	txpp_hw.dev_info_get =
			hw->dev_info_get != NULL ? hw->dev_info_get : txpp_hw_dpdk.dev_info_get;
	txpp_hw.dev_conf_get =
			hw->dev_conf_get != NULL ? hw->dev_conf_get : txpp_hw_dpdk.dev_conf_get;
	txpp_hw.tx_timestamp_register = hw->tx_timestamp_register != NULL ?
			hw->tx_timestamp_register :
			txpp_hw_dpdk.tx_timestamp_register;
	txpp_hw.read_clock = hw->read_clock != NULL ? hw->read_clock : txpp_hw_dpdk.read_clock;
}

static int
txpp_probe(uint16_t port_id)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	uint64_t flag;
	int ret, off;

	memset(&info, 0, sizeof(info));
	ret = txpp_hw.dev_info_get(port_id, &info);
	if (ret < 0)
		return ret;
	if ((info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_SEND_ON_TIMESTAMP) == 0) {
		DRV_LOG(DEBUG, "txpp: port %u: no RTE_ETH_TX_OFFLOAD_SEND_ON_TIMESTAMP", port_id);
		return -ENOTSUP;
	}
	memset(&conf, 0, sizeof(conf));
	ret = txpp_hw.dev_conf_get(port_id, &conf);
	if (ret < 0 || (conf.txmode.offloads & RTE_ETH_TX_OFFLOAD_SEND_ON_TIMESTAMP) == 0) {
		DRV_LOG(DEBUG, "txpp: port %u: not configured with SEND_ON_TIMESTAMP", port_id);
		return -ENOTSUP;
	}
	ret = txpp_hw.tx_timestamp_register(&off, &flag);
	if (ret < 0) {
		DRV_LOG(DEBUG, "txpp: timestamp dynamic field/flag: %s", rte_strerror(-ret));
		return -ENOTSUP;
	}
	return 0;
}

static int
txpp_init(struct pcc_pacer *p, const struct pcc_pacer_conf *conf)
{
	struct txpp *t;
	uint64_t flag;
	uint32_t i;
	int ret, off;

	ret = txpp_hw.tx_timestamp_register(&off, &flag);
	if (ret < 0)
		return -ENOTSUP;
	t = rte_zmalloc_socket("pacer_txpp", sizeof(*t), RTE_CACHE_LINE_SIZE, conf->socket_id);
	if (t == NULL)
		return -ENOMEM;
	t->flows = rte_malloc_socket("pacer_txpp_flows", sizeof(t->flows[0]) * conf->max_flows,
			RTE_CACHE_LINE_SIZE, conf->socket_id);
	if (t->flows == NULL) {
		rte_free(t);
		return -ENOMEM;
	}
	t->hw = txpp_hw;
	t->ts_off = off;
	t->ts_flag = flag;
	t->port_id = conf->port_id;
	t->line_bps = conf->line_rate_bps;
	t->horizon_ns = conf->horizon_ns;
	t->max_flows = conf->max_flows;
	t->depart_off = conf->depart_off;
	t->depart_flag = conf->depart_flag;
	t->mode = PCC_PACER_TXPP_CLOCK_IDENTITY;
	for (i = 0; i < conf->max_flows; i++) {
		t->flows[i].next_ns = 0;
		t->flows[i].next_frac = 0;
		t->flows[i].aux = 0;
		t->flows[i].last_wire = 0;
		t->flows[i].cost = pacer_cost(0, t->line_bps);
	}
	pcc_pacer_set_priv(p, t);
	return 0;
}

static void
txpp_fini(struct pcc_pacer *p)
{
	struct txpp *t = pcc_pacer_priv(p);

	if (t == NULL)
		return;
	rte_free(t->flows);
	rte_free(t);
	pcc_pacer_set_priv(p, NULL);
}

int
pcc_pacer_txpp_set_clock(struct pcc_pacer *p, enum pcc_pacer_txpp_clock mode,
		pcc_pacer_txpp_clock_fn fn, void *arg)
{
	struct txpp *t;

	if (p == NULL || strcmp(pcc_pacer_backend(p), pacer_txpp_ops.name) != 0)
		return -EINVAL;
	if (mode != PCC_PACER_TXPP_CLOCK_IDENTITY && mode != PCC_PACER_TXPP_CLOCK_READ_CLOCK &&
			mode != PCC_PACER_TXPP_CLOCK_FN)
		return -EINVAL;
	if (mode == PCC_PACER_TXPP_CLOCK_FN && fn == NULL)
		return -EINVAL;
	t = pcc_pacer_priv(p);
	t->mode = mode;
	t->fn = fn;
	t->fn_arg = arg;
	t->synced = false;
	t->next_sync = 0;
	return 0;
}

static void
txpp_sync(struct txpp *t, uint64_t now)
{
	uint64_t nic;

	t->next_sync = now + TXPP_RESYNC_NS;
	if (t->hw.read_clock(t->port_id, &nic) == 0) {
		t->offset = nic - now;
		t->synced = true;
	} else if (!t->sync_warned) {
		t->sync_warned = true;
		DRV_LOG(WARNING, "txpp: port %u: rte_eth_read_clock failed: %s", t->port_id,
				t->synced ? "keeping the last offset" : "no offset");
	}
}

/* Departure time (ns of the port clock) to the value the NIC expects. */
static inline uint64_t
txpp_to_nic(struct txpp *t, uint64_t ns, uint64_t now)
{
	switch (t->mode) {
	case PCC_PACER_TXPP_CLOCK_READ_CLOCK:
		if (now >= t->next_sync)
			txpp_sync(t, now);
		return ns + t->offset;
	case PCC_PACER_TXPP_CLOCK_FN:
		return t->fn(t->fn_arg, ns);
	case PCC_PACER_TXPP_CLOCK_IDENTITY:
	default:
		return ns;
	}
}

static uint16_t
txpp_enqueue(struct pcc_pacer *p, uint32_t flow, struct rte_mbuf **pkts, uint16_t n, uint64_t now)
{
	struct txpp *t = pcc_pacer_priv(p);
	struct pacer_tb *f = &t->flows[flow];
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t wire = m->pkt_len + PCC_PACER_WIRE_OVERHEAD;
		uint32_t frac;
		uint64_t dep = pacer_depart(f, now, &frac);

		if (dep - now >= t->horizon_ns)
			break;
		pacer_stamp(m, t->depart_off, t->depart_flag, dep);
		if (dep > now) {
			*RTE_MBUF_DYNFIELD(m, t->ts_off, uint64_t *) = txpp_to_nic(t, dep, now);
			m->ol_flags |= t->ts_flag;
		} else {
			m->ol_flags &= ~t->ts_flag;
		}
		if (pcc_pacer_pass(p, &pkts[i], 1) == 0)
			break;
		pacer_advance(f, dep, frac, wire);
	}
	return i;
}

static uint16_t
txpp_dequeue(struct pcc_pacer *p, uint64_t now, struct rte_mbuf **out, uint16_t max)
{
	/* everything went out through the pass-through FIFO */
	RTE_SET_USED(p);
	RTE_SET_USED(now);
	RTE_SET_USED(out);
	RTE_SET_USED(max);
	return 0;
}

static int
txpp_set_rate(struct pcc_pacer *p, uint32_t flow, uint64_t rate_bps)
{
	struct txpp *t = pcc_pacer_priv(p);

	pacer_rescale(&t->flows[flow], pcc_pacer_last_now(p), pacer_cost(rate_bps, t->line_bps));
	return 0;
}

static void
txpp_flow_reset(struct pcc_pacer *p, uint32_t flow)
{
	struct txpp *t = pcc_pacer_priv(p);
	struct pacer_tb *f = &t->flows[flow];

	/* nothing is held here: the NIC has the flow's packets */
	f->next_ns = 0;
	f->next_frac = 0;
	f->last_wire = 0;
	f->cost = pacer_cost(0, t->line_bps);
}

static void
txpp_prefetch(const struct pcc_pacer *p, uint32_t flow)
{
	const struct txpp *t = pcc_pacer_priv(p);

	rte_prefetch0(&t->flows[flow]);
}

static size_t
txpp_mem_per_flow(const struct pcc_pacer *p)
{
	RTE_SET_USED(p);
	return sizeof(struct pacer_tb);
}

static size_t
txpp_mem_total(const struct pcc_pacer *p)
{
	const struct txpp *t = pcc_pacer_priv(p);

	return sizeof(*t) + sizeof(t->flows[0]) * t->max_flows;
}

static uint64_t
txpp_flow_next(const struct pcc_pacer *p, uint32_t flow, uint64_t now)
{
	const struct txpp *t = pcc_pacer_priv(p);

	return pacer_next(&t->flows[flow], now);
}

const struct pcc_pacer_ops pacer_txpp_ops = {
	.name = "txpp",
	.probe = txpp_probe,
	.init = txpp_init,
	.fini = txpp_fini,
	.set_rate = txpp_set_rate,
	.enqueue = txpp_enqueue,
	.dequeue = txpp_dequeue,
	.flow_reset = txpp_flow_reset,
	.mem_per_flow = txpp_mem_per_flow,
	.mem_total = txpp_mem_total,
	.prefetch = txpp_prefetch,
	.flow_next = txpp_flow_next,
};
