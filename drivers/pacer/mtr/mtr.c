/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * mtr: per-flow rte_flow rule with a METER action, and an rte_mtr trTCM
 * (RFC 2698) profile with CIR = PIR = the flow's rate.  This is a
 * POLICER: the NIC drops what exceeds the rate instead of delaying it,
 * so TCP-like or RoCE senders see losses, not pacing.  Enqueue is a pass
 * through; the rate is enforced by the NIC on the rule's traffic (egress
 * of the pacer's port by default: struct pcc_pacer_mtr_conf).
 *
 * A rate change adds the flow's other profile (ids alternate), moves the
 * meter to it (rte_mtr_meter_profile_update) and deletes the old one.
 * All rte_mtr and rte_flow calls go through struct pcc_pacer_mtr_hw.
 *
 * Memory: 16 bytes per flow here, plus the NIC's meter and rule.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_flow.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mtr.h>

#include "pcc_pacer_drivers.h"
#include "pacer_drv.h"

#define MTR_BURST_NS_DEFAULT 100000u /* 100 us */
#define MTR_BURST_MIN 16384ull       /* bytes: a few jumbo frames */
#define MTR_FATE_MAX 14              /* actions after METER */

struct mtr_flow {
	struct rte_flow *rule; /* NULL: the flow is not metered */
	uint8_t alt;           /* profile in use: profile_id_base + 2 flow + alt */
	uint8_t pad[7];
};

struct mtr {
	struct mtr_flow *flows;
	struct pcc_pacer_mtr_hw hw;
	struct pcc_pacer_mtr_conf mc;
	uint64_t line_bps;
	uint32_t max_flows;
	uint32_t n_rules;
	uint16_t port_id;
	bool policy_added;
};

static_assert(sizeof(struct mtr_flow) == 16, "16 bytes per flow");

/* The real DPDK calls (a macro: C11 cannot copy a const object in a
 * static initializer). */
#define MTR_HW_DPDK                                                                               \
	{                                                                                         \
		.capabilities_get = rte_mtr_capabilities_get,                                     \
		.meter_profile_add = rte_mtr_meter_profile_add,                                   \
		.meter_profile_delete = rte_mtr_meter_profile_delete,                             \
		.meter_policy_add = rte_mtr_meter_policy_add,                                     \
		.meter_policy_delete = rte_mtr_meter_policy_delete, .create = rte_mtr_create,     \
		.destroy = rte_mtr_destroy, .meter_profile_update = rte_mtr_meter_profile_update, \
		.flow_create = rte_flow_create, .flow_destroy = rte_flow_destroy,                 \
	}

static const struct pcc_pacer_mtr_hw mtr_hw_dpdk = MTR_HW_DPDK;

static struct pcc_pacer_mtr_hw mtr_hw = MTR_HW_DPDK;

void
pcc_pacer_mtr_hw_set(const struct pcc_pacer_mtr_hw *hw)
{
	mtr_hw = hw != NULL ? *hw : mtr_hw_dpdk;
}

static int
mtr_caps(const struct pcc_pacer_mtr_hw *hw, uint16_t port_id, struct rte_mtr_capabilities *cap)
{
	struct rte_mtr_error err;
	int ret;

	memset(cap, 0, sizeof(*cap));
	memset(&err, 0, sizeof(err));
	ret = hw->capabilities_get(port_id, cap, &err);
	if (ret < 0) {
		DRV_LOG(DEBUG, "mtr: port %u: no meters: %s", port_id,
				err.message != NULL ? err.message : rte_strerror(-ret));
		return -ENOTSUP;
	}
	if (cap->meter_trtcm_rfc2698_n_max == 0 || !cap->trtcm_rfc2698_byte_mode_supported) {
		DRV_LOG(DEBUG, "mtr: port %u: no trTCM (RFC 2698) meters in byte mode", port_id);
		return -ENOTSUP;
	}
	return 0;
}

static int
mtr_probe(uint16_t port_id)
{
	struct rte_mtr_capabilities cap;

	return mtr_caps(&mtr_hw, port_id, &cap);
}

static int
mtr_init(struct pcc_pacer *p, const struct pcc_pacer_conf *conf)
{
	struct rte_mtr_capabilities cap;
	struct mtr *m;
	int ret;

	ret = mtr_caps(&mtr_hw, conf->port_id, &cap);
	if (ret < 0)
		return ret;
	if (conf->max_flows > cap.meter_trtcm_rfc2698_n_max) {
		DRV_LOG(DEBUG, "mtr: port %u: %u flows but %u trTCM meters", conf->port_id,
				conf->max_flows, cap.meter_trtcm_rfc2698_n_max);
		return -ENOTSUP;
	}
	m = rte_zmalloc_socket("pacer_mtr", sizeof(*m), RTE_CACHE_LINE_SIZE, conf->socket_id);
	if (m == NULL)
		return -ENOMEM;
	m->flows = rte_zmalloc_socket("pacer_mtr_flows", sizeof(m->flows[0]) * conf->max_flows,
			RTE_CACHE_LINE_SIZE, conf->socket_id);
	if (m->flows == NULL) {
		rte_free(m);
		return -ENOMEM;
	}
	m->hw = mtr_hw;
	m->port_id = conf->port_id;
	m->line_bps = conf->line_rate_bps;
	m->max_flows = conf->max_flows;
	m->mc.attr.egress = 1;
	m->mc.burst_ns = MTR_BURST_NS_DEFAULT;
	pcc_pacer_set_priv(p, m);
	DRV_LOG(WARNING,
			"mtr: port %u: the mtr backend POLICES: the NIC drops packets above each "
			"flow's rate, it does not delay them",
			conf->port_id);
	return 0;
}

static struct mtr *
mtr_of(struct pcc_pacer *p)
{
	if (p == NULL || strcmp(pcc_pacer_backend(p), pacer_mtr_ops.name) != 0)
		return NULL;
	return pcc_pacer_priv(p);
}

int
pcc_pacer_mtr_configure(struct pcc_pacer *p, const struct pcc_pacer_mtr_conf *c)
{
	struct mtr *m = mtr_of(p);

	if (m == NULL || c == NULL)
		return -EINVAL;
	if (m->n_rules != 0 || m->policy_added)
		return -EBUSY;
	if ((uint64_t)c->mtr_id_base + m->max_flows - 1 > UINT32_MAX ||
			(uint64_t)c->profile_id_base + 2ull * m->max_flows - 1 > UINT32_MAX)
		return -EINVAL;
	m->mc = *c;
	if (m->mc.burst_ns == 0)
		m->mc.burst_ns = MTR_BURST_NS_DEFAULT;
	return 0;
}

/* trTCM profile for rate_bps: CIR = PIR = rate in bytes/s, CBS = PBS =
 * rate x burst time, at least MTR_BURST_MIN. */
static void
mtr_profile(const struct mtr *m, uint64_t rate_bps, struct rte_mtr_meter_profile *pr)
{
	uint64_t bytes_s, burst;

	if (rate_bps == 0 || rate_bps > m->line_bps)
		rate_bps = m->line_bps;
	bytes_s = rate_bps / 8;
	burst = (uint64_t)((unsigned __int128)bytes_s * m->mc.burst_ns / 1000000000u);
	burst = RTE_MAX(burst, MTR_BURST_MIN);
	memset(pr, 0, sizeof(*pr));
	pr->alg = RTE_MTR_TRTCM_RFC2698;
	pr->trtcm_rfc2698.cir = bytes_s;
	pr->trtcm_rfc2698.pir = bytes_s;
	pr->trtcm_rfc2698.cbs = burst;
	pr->trtcm_rfc2698.pbs = burst;
	pr->packet_mode = 0;
}

static inline uint32_t
mtr_profile_id(const struct mtr *m, uint32_t flow, unsigned int alt)
{
	return m->mc.profile_id_base + 2 * flow + alt;
}

static int
mtr_policy_add(struct mtr *m)
{
	static const struct rte_flow_action drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_mtr_meter_policy_params pol;
	struct rte_mtr_error err;
	int ret;

	memset(&pol, 0, sizeof(pol));
	memset(&err, 0, sizeof(err));
	pol.actions[RTE_COLOR_GREEN] = NULL;
	pol.actions[RTE_COLOR_YELLOW] = NULL;
	pol.actions[RTE_COLOR_RED] = drop;
	ret = m->hw.meter_policy_add(m->port_id, m->mc.policy_id, &pol, &err);
	if (ret < 0) {
		DRV_LOG(ERR, "mtr: port %u: policy %u: %s", m->port_id, m->mc.policy_id,
				err.message != NULL ? err.message : rte_strerror(-ret));
		return ret;
	}
	m->policy_added = true;
	return 0;
}

int
pcc_pacer_mtr_flow_add(struct pcc_pacer *p, uint32_t flow, const struct rte_flow_item pattern[])
{
	struct rte_flow_action actions[MTR_FATE_MAX + 2];
	struct rte_flow_action_meter meter;
	struct rte_mtr_meter_profile pr;
	struct rte_mtr_params params;
	struct rte_flow_error ferr;
	struct rte_mtr_error err;
	struct mtr *m = mtr_of(p);
	uint32_t mtr_id, prof_id;
	struct rte_flow *rule;
	unsigned int n = 0;
	int ret;

	if (m == NULL || flow >= m->max_flows || pattern == NULL)
		return -EINVAL;
	if (m->flows[flow].rule != NULL)
		return -EEXIST;
	actions[n++] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_METER,
		.conf = &meter };
	if (m->mc.fate != NULL) {
		const struct rte_flow_action *a;

		for (a = m->mc.fate; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
			if (n > MTR_FATE_MAX)
				return -EINVAL;
			actions[n++] = *a;
		}
	}
	actions[n] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_END };
	if (!m->policy_added) {
		ret = mtr_policy_add(m);
		if (ret < 0)
			return ret;
	}

	mtr_id = m->mc.mtr_id_base + flow;
	prof_id = mtr_profile_id(m, flow, 0);
	mtr_profile(m, pcc_pacer_get_rate(p, flow), &pr);
	memset(&err, 0, sizeof(err));
	ret = m->hw.meter_profile_add(m->port_id, prof_id, &pr, &err);
	if (ret < 0) {
		DRV_LOG(ERR, "mtr: port %u: flow %u: profile %u: %s", m->port_id, flow, prof_id,
				err.message != NULL ? err.message : rte_strerror(-ret));
		return ret;
	}
	memset(&params, 0, sizeof(params));
	params.meter_profile_id = prof_id;
	params.meter_enable = 1;
	params.meter_policy_id = m->mc.policy_id;
	ret = m->hw.create(m->port_id, mtr_id, &params, 0, &err);
	if (ret < 0) {
		DRV_LOG(ERR, "mtr: port %u: flow %u: meter %u: %s", m->port_id, flow, mtr_id,
				err.message != NULL ? err.message : rte_strerror(-ret));
		goto del_profile;
	}
	meter.mtr_id = mtr_id;
	memset(&ferr, 0, sizeof(ferr));
	rte_errno = 0;
	rule = m->hw.flow_create(m->port_id, &m->mc.attr, pattern, actions, &ferr);
	if (rule == NULL) {
		ret = rte_errno > 0 ? -rte_errno : -EIO;
		DRV_LOG(ERR, "mtr: port %u: flow %u: rule: %s", m->port_id, flow,
				ferr.message != NULL ? ferr.message : rte_strerror(-ret));
		m->hw.destroy(m->port_id, mtr_id, &err);
		goto del_profile;
	}
	m->flows[flow].rule = rule;
	m->flows[flow].alt = 0;
	m->n_rules++;
	return 0;

del_profile:
	m->hw.meter_profile_delete(m->port_id, prof_id, &err);
	return ret;
}

static int
mtr_set_rate(struct pcc_pacer *p, uint32_t flow, uint64_t rate_bps)
{
	struct mtr *m = pcc_pacer_priv(p);
	struct mtr_flow *mf = &m->flows[flow];
	struct rte_mtr_meter_profile pr;
	struct rte_mtr_error err;
	uint32_t old_id, new_id;
	int ret;

	if (mf->rule == NULL)
		return 0; /* applied by pcc_pacer_mtr_flow_add() */
	old_id = mtr_profile_id(m, flow, mf->alt);
	new_id = mtr_profile_id(m, flow, mf->alt ^ 1u);
	mtr_profile(m, rate_bps, &pr);
	memset(&err, 0, sizeof(err));
	ret = m->hw.meter_profile_add(m->port_id, new_id, &pr, &err);
	if (ret < 0)
		return ret;
	ret = m->hw.meter_profile_update(m->port_id, m->mc.mtr_id_base + flow, new_id, &err);
	if (ret < 0) {
		m->hw.meter_profile_delete(m->port_id, new_id, &err);
		return ret;
	}
	if (m->hw.meter_profile_delete(m->port_id, old_id, &err) < 0)
		DRV_LOG(WARNING, "mtr: port %u: flow %u: profile %u not deleted", m->port_id, flow,
				old_id);
	mf->alt ^= 1u;
	return 0;
}

static void
mtr_flow_reset(struct pcc_pacer *p, uint32_t flow)
{
	struct mtr *m = pcc_pacer_priv(p);
	struct mtr_flow *mf = &m->flows[flow];
	struct rte_flow_error ferr;
	struct rte_mtr_error err;
	uint32_t mtr_id = m->mc.mtr_id_base + flow;
	uint32_t prof_id = mtr_profile_id(m, flow, mf->alt);

	if (mf->rule == NULL)
		return;
	memset(&ferr, 0, sizeof(ferr));
	memset(&err, 0, sizeof(err));
	if (m->hw.flow_destroy(m->port_id, mf->rule, &ferr) < 0)
		DRV_LOG(WARNING, "mtr: port %u: flow %u: rule not destroyed", m->port_id, flow);
	if (m->hw.destroy(m->port_id, mtr_id, &err) < 0)
		DRV_LOG(WARNING, "mtr: port %u: flow %u: meter %u not destroyed", m->port_id, flow,
				mtr_id);
	if (m->hw.meter_profile_delete(m->port_id, prof_id, &err) < 0)
		DRV_LOG(WARNING, "mtr: port %u: flow %u: profile %u not deleted", m->port_id, flow,
				prof_id);
	mf->rule = NULL;
	mf->alt = 0;
	m->n_rules--;
}

static void
mtr_fini(struct pcc_pacer *p)
{
	struct mtr *m = pcc_pacer_priv(p);
	struct rte_mtr_error err;
	uint32_t f;

	if (m == NULL)
		return;
	for (f = 0; f < m->max_flows && m->n_rules > 0; f++)
		mtr_flow_reset(p, f);
	if (m->policy_added) {
		memset(&err, 0, sizeof(err));
		if (m->hw.meter_policy_delete(m->port_id, m->mc.policy_id, &err) < 0)
			DRV_LOG(WARNING, "mtr: port %u: policy %u not deleted", m->port_id,
					m->mc.policy_id);
	}
	rte_free(m->flows);
	rte_free(m);
	pcc_pacer_set_priv(p, NULL);
}

static uint16_t
mtr_enqueue(struct pcc_pacer *p, uint32_t flow, struct rte_mbuf **pkts, uint16_t n, uint64_t now)
{
	/* the NIC polices: nothing to hold */
	RTE_SET_USED(flow);
	RTE_SET_USED(now);
	return pcc_pacer_pass(p, pkts, n);
}

static uint16_t
mtr_dequeue(struct pcc_pacer *p, uint64_t now, struct rte_mbuf **out, uint16_t max)
{
	RTE_SET_USED(p);
	RTE_SET_USED(now);
	RTE_SET_USED(out);
	RTE_SET_USED(max);
	return 0;
}

static size_t
mtr_mem_per_flow(const struct pcc_pacer *p)
{
	RTE_SET_USED(p);
	return sizeof(struct mtr_flow);
}

static size_t
mtr_mem_total(const struct pcc_pacer *p)
{
	const struct mtr *m = pcc_pacer_priv(p);

	return sizeof(*m) + sizeof(m->flows[0]) * m->max_flows;
}

const struct pcc_pacer_ops pacer_mtr_ops = {
	.name = "mtr",
	.probe = mtr_probe,
	.init = mtr_init,
	.fini = mtr_fini,
	.set_rate = mtr_set_rate,
	.enqueue = mtr_enqueue,
	.dequeue = mtr_dequeue,
	.flow_reset = mtr_flow_reset,
	.mem_per_flow = mtr_mem_per_flow,
	.mem_total = mtr_mem_total,
};
