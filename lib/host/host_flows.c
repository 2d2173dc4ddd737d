/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* The engine's flows and statistics as lib/host shows them (telemetry). */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "host_internal.h"

static void
flow_conv(const struct pcc_engine_flow_info *in, struct pcc_host_flow *out)
{
	memset(out, 0, sizeof(*out));
	out->key.port_id = in->key.port_id;
	out->key.type = in->key.type;
	out->key.proto = in->key.proto;
	out->key.qpn = in->key.qpn;
	out->key.sport = in->key.sport;
	out->key.dport = in->key.dport;
	memcpy(out->key.src, in->key.src, sizeof(out->key.src));
	memcpy(out->key.dst, in->key.dst, sizeof(out->key.dst));
	out->lcore_id = in->lcore_id;
	out->dev_port = in->dev_port;
	out->slot = in->slot;
	out->rate = in->rate;
	out->rate_bps = in->rate_bps;
	out->window = in->window;
	out->tx_pkts = in->tx_pkts;
	out->tx_bytes = in->tx_bytes;
	out->cnp_rx = in->cnp_rx;
	out->ack_rx = in->ack_rx;
	out->nack_rx = in->nack_rx;
	out->probe_tx = in->probe_tx;
	out->rtt_ns = in->rtt_ns;
	out->idle_ns = in->idle_ns;
}

uint32_t
pcc_host_flows_count(void)
{
	return host_e != NULL ? pcc_engine_flow_count(host_e) : 0;
}

int
pcc_host_flow_get(const struct pcc_host_flow_key *key, struct pcc_host_flow *f)
{
	struct pcc_engine_flow_info info;
	struct pcc_engine_flow_key k;
	int ret;

	if (host_e == NULL)
		return -ENODEV;
	if (key == NULL || f == NULL)
		return -EINVAL;
	memset(&k, 0, sizeof(k));
	k.port_id = key->port_id;
	k.type = key->type;
	k.proto = key->proto;
	k.qpn = key->qpn;
	k.sport = key->sport;
	k.dport = key->dport;
	memcpy(k.src, key->src, sizeof(k.src));
	memcpy(k.dst, key->dst, sizeof(k.dst));
	ret = pcc_engine_flow_get(host_e, &k, &info);
	if (ret < 0)
		return ret;
	flow_conv(&info, f);
	return 0;
}

#define TOP_MAX 64

uint32_t
pcc_host_flows_top(struct pcc_host_flow *out, uint32_t n)
{
	struct pcc_engine_flow_info info[TOP_MAX];
	uint32_t i, got;

	if (host_e == NULL || out == NULL)
		return 0;
	got = pcc_engine_flows_top(host_e, info, RTE_MIN(n, (uint32_t)TOP_MAX));
	for (i = 0; i < got; i++)
		flow_conv(&info[i], &out[i]);
	return got;
}

static void
stats_add(struct pcc_engine_port_stats *sum, const struct pcc_engine_port_stats *st)
{
	const uint64_t *s = (const uint64_t *)st;
	uint64_t *d = (uint64_t *)sum;
	size_t i;

	for (i = 0; i < sizeof(*st) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

static void
np_stats_add(struct pcc_engine_np_stats *sum, const struct pcc_engine_np_stats *st)
{
	const uint64_t *s = (const uint64_t *)st;
	uint64_t *d = (uint64_t *)sum;
	size_t i;

	for (i = 0; i < sizeof(*st) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

int
pcc_host_stats_get(int port_id, struct pcc_host_stat *out, uint32_t n)
{
	const struct pcc_engine_ctr_info *ci;
	struct pcc_engine_port_stats sum, st;
	struct pcc_engine_np_stats nsum, nst;
	bool np = false;
	uint32_t k = 0;
	char nm[48];
	uint16_t p;
	int ret, i;

	if (host_e == NULL)
		return -ENODEV;
	memset(&sum, 0, sizeof(sum));
	memset(&nsum, 0, sizeof(nsum));
	if (port_id >= 0) {
		if (port_id >= RTE_MAX_ETHPORTS)
			return -ENOENT;
		ret = pcc_engine_port_stats_get(host_e, (uint16_t)port_id, &sum);
		if (ret < 0)
			return ret;
		np = pcc_engine_np_stats_get(host_e, (uint16_t)port_id, &nsum) == 0;
	} else {
		for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
			if (pcc_engine_port_roles(host_e, p) == 0)
				continue;
			if (pcc_engine_port_stats_get(host_e, p, &st) == 0)
				stats_add(&sum, &st);
			if (pcc_engine_np_stats_get(host_e, p, &nst) == 0) {
				np_stats_add(&nsum, &nst);
				np = true;
			}
		}
	}
#define STAT(nm, val)                                                         \
	do {                                                                  \
		if (k < n) {                                                  \
			snprintf(out[k].name, sizeof(out[k].name), "%s", nm); \
			out[k].value = (val);                                 \
		}                                                             \
		k++;                                                          \
	} while (0)
#define NP_FIELD(field) STAT("np_" #field, nsum.field)
	/* every scalar counter, as declared (PCC_ENGINE_PORT_CTRS) */
	for (i = 0; (ci = pcc_engine_port_ctr_at((unsigned int)i)) != NULL; i++)
		STAT(ci->name,
				*(const uint64_t *)(const void *)((const uint8_t *)&sum +
						ci->offset));
	STAT("ev_cnp", sum.ev[PCC_DEV_EVENT_CNP]);
	STAT("ev_rtt", sum.ev[PCC_DEV_EVENT_RTT]);
	STAT("parse_drops", pcc_engine_parse_drops(&sum));
	/* malformed frames by reason: parse_<reason> (pcc_proto_err_name) */
	for (i = 0; i < PCC_ENGINE_NB_PARSE_ERR; i++) {
		snprintf(nm, sizeof(nm), "parse_%s", pcc_proto_err_name(i == 0 ? -999 : -i));
		STAT(nm, sum.parse_err[i]);
	}
	/* received packets by kind: rx_<kind> (pcc_pkt_kind_name) */
	for (i = 0; i < PCC_PKT_KIND_MAX; i++) {
		snprintf(nm, sizeof(nm), "rx_%s", pcc_pkt_kind_name((enum pcc_pkt_kind)i));
		STAT(nm, sum.rx_kind[i]);
	}
	/* what became of every well-formed frame: fate_<name>; with the
	 * parse_ counters they add up to rx_pkts (rx_unaccounted 0) */
	for (i = 0; i < PCC_ENGINE_FATE_MAX; i++) {
		snprintf(nm, sizeof(nm), "fate_%s", pcc_engine_rx_fate_name((unsigned int)i));
		STAT(nm, sum.rx_fate[i]);
	}
	STAT("rx_unaccounted", (uint64_t)pcc_engine_rx_unaccounted(&sum));
	if (np) {
		NP_FIELD(probe_req);
		NP_FIELD(probe_sw);
		NP_FIELD(probe_hw);
		NP_FIELD(probe_hw_drop);
		NP_FIELD(probe_ccmad);
		NP_FIELD(probe_ifa1);
		NP_FIELD(probe_ifa2);
		NP_FIELD(probe_bad);
		NP_FIELD(handler_err);
		NP_FIELD(no_handler);
		NP_FIELD(ifa2_unmatched);
		NP_FIELD(ifa2_ignored);
		NP_FIELD(ifa_other);
		NP_FIELD(ce_marked);
		NP_FIELD(cnp_gap);
		NP_FIELD(cnp_off);
		NP_FIELD(sqpn_map);
		NP_FIELD(sqpn_learned);
		NP_FIELD(sqpn_offset);
		NP_FIELD(learned);
		NP_FIELD(qp_replaced);
		NP_FIELD(tx_err);
	}
#undef NP_FIELD
#undef STAT
	return (int)RTE_MIN(k, n);
}
