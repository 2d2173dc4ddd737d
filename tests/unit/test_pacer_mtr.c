/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the mtr pacer backend (rte_flow METER + rte_mtr trTCM)
 * through a fake struct pcc_pacer_mtr_hw that records every call: probe
 * and fallback, the policer warning, profile parameters, one rule per
 * flow, profile updates on rate changes, cleanup on reset and free, and
 * every error path.  No vdev supports meters, hence the fake.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_flow.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_mtr.h>

#include "pcc_pacer.h"
#include "pcc_pacer_drivers.h"
#include "test_eal.h"
#include "test_log_capture.h"

#define SEC 1000000000ull
#define LINE_100G 100000000000ull
#define T0 (5 * SEC)
#define PORT 7
#define N_MBUFS 1023

static struct rte_mempool *mp;

/* ---- The fake: every call recorded, any call can be made to fail -------- */

enum kind {
	K_CAPS,
	K_PROF_ADD,
	K_PROF_DEL,
	K_POL_ADD,
	K_POL_DEL,
	K_CREATE,
	K_DESTROY,
	K_PROF_UPD,
	K_FLOW_CREATE,
	K_FLOW_DESTROY,
	K_N,
};

struct call {
	enum kind kind;
	uint16_t port;
	uint32_t id;  /* profile, policy or meter id */
	uint32_t id2; /* PROF_UPD: profile */
	struct rte_mtr_meter_profile prof;
	struct rte_mtr_params params;
	int shared;
	bool green_null, yellow_null, red_drop;
	struct rte_flow_attr attr;
	const struct rte_flow_item *pattern;
	enum rte_flow_action_type act[8];
	unsigned int n_act;
	uint32_t meter_id;
	uint16_t queue;
	struct rte_flow *flow;
};

static struct call calls[256];
static unsigned int n_calls;
static int fail[K_N];
static struct rte_mtr_capabilities fake_cap;
static int live_profiles, live_meters, live_rules, live_policies;
static uintptr_t next_rule = 0x1000;

static struct call *
rec(enum kind k, uint16_t port)
{
	struct call *c;

	assert_true(n_calls < RTE_DIM(calls));
	c = &calls[n_calls++];
	memset(c, 0, sizeof(*c));
	c->kind = k;
	c->port = port;
	return c;
}

static int
failing(enum kind k)
{
	int e = fail[k];

	fail[k] = 0;
	return e;
}

static int
f_caps(uint16_t port, struct rte_mtr_capabilities *cap, struct rte_mtr_error *err)
{
	int e;

	(void)err;
	rec(K_CAPS, port);
	e = failing(K_CAPS);
	if (e != 0)
		return -e;
	*cap = fake_cap;
	return 0;
}

static int
f_prof_add(uint16_t port, uint32_t id, struct rte_mtr_meter_profile *prof,
		struct rte_mtr_error *err)
{
	struct call *c = rec(K_PROF_ADD, port);
	int e = failing(K_PROF_ADD);

	(void)err;
	c->id = id;
	c->prof = *prof;
	if (e != 0)
		return -e;
	live_profiles++;
	return 0;
}

static int
f_prof_del(uint16_t port, uint32_t id, struct rte_mtr_error *err)
{
	struct call *c = rec(K_PROF_DEL, port);

	(void)err;
	c->id = id;
	live_profiles--;
	return -failing(K_PROF_DEL);
}

static int
f_pol_add(uint16_t port, uint32_t id, struct rte_mtr_meter_policy_params *pol,
		struct rte_mtr_error *err)
{
	struct call *c = rec(K_POL_ADD, port);
	int e = failing(K_POL_ADD);

	(void)err;
	c->id = id;
	c->green_null = pol->actions[RTE_COLOR_GREEN] == NULL;
	c->yellow_null = pol->actions[RTE_COLOR_YELLOW] == NULL;
	c->red_drop = pol->actions[RTE_COLOR_RED] != NULL &&
			pol->actions[RTE_COLOR_RED][0].type == RTE_FLOW_ACTION_TYPE_DROP &&
			pol->actions[RTE_COLOR_RED][1].type == RTE_FLOW_ACTION_TYPE_END;
	if (e != 0)
		return -e;
	live_policies++;
	return 0;
}

static int
f_pol_del(uint16_t port, uint32_t id, struct rte_mtr_error *err)
{
	struct call *c = rec(K_POL_DEL, port);

	(void)err;
	c->id = id;
	live_policies--;
	return 0;
}

static int
f_create(uint16_t port, uint32_t id, struct rte_mtr_params *params, int shared,
		struct rte_mtr_error *err)
{
	struct call *c = rec(K_CREATE, port);
	int e = failing(K_CREATE);

	(void)err;
	c->id = id;
	c->params = *params;
	c->shared = shared;
	if (e != 0)
		return -e;
	live_meters++;
	return 0;
}

static int
f_destroy(uint16_t port, uint32_t id, struct rte_mtr_error *err)
{
	struct call *c = rec(K_DESTROY, port);

	(void)err;
	c->id = id;
	live_meters--;
	return 0;
}

static int
f_prof_upd(uint16_t port, uint32_t mtr_id, uint32_t prof_id, struct rte_mtr_error *err)
{
	struct call *c = rec(K_PROF_UPD, port);

	(void)err;
	c->id = mtr_id;
	c->id2 = prof_id;
	return -failing(K_PROF_UPD);
}

static struct rte_flow *
f_flow_create(uint16_t port, const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow_error *err)
{
	struct call *c = rec(K_FLOW_CREATE, port);
	int e = failing(K_FLOW_CREATE);
	unsigned int i;

	(void)err;
	c->attr = *attr;
	c->pattern = pattern;
	for (i = 0; i < RTE_DIM(c->act); i++) {
		c->act[i] = actions[i].type;
		if (actions[i].type == RTE_FLOW_ACTION_TYPE_METER)
			c->meter_id = ((const struct rte_flow_action_meter *)actions[i].conf)
						      ->mtr_id;
		if (actions[i].type == RTE_FLOW_ACTION_TYPE_QUEUE)
			c->queue = ((const struct rte_flow_action_queue *)actions[i].conf)->index;
		if (actions[i].type == RTE_FLOW_ACTION_TYPE_END)
			break;
	}
	c->n_act = i + 1;
	if (e != 0) {
		rte_errno = e;
		return NULL;
	}
	live_rules++;
	c->flow = (struct rte_flow *)next_rule;
	next_rule += 0x10;
	return c->flow;
}

static int
f_flow_destroy(uint16_t port, struct rte_flow *flow, struct rte_flow_error *err)
{
	struct call *c = rec(K_FLOW_DESTROY, port);

	(void)err;
	c->flow = flow;
	live_rules--;
	return 0;
}

static const struct pcc_pacer_mtr_hw fake_hw = {
	.capabilities_get = f_caps,
	.meter_profile_add = f_prof_add,
	.meter_profile_delete = f_prof_del,
	.meter_policy_add = f_pol_add,
	.meter_policy_delete = f_pol_del,
	.create = f_create,
	.destroy = f_destroy,
	.meter_profile_update = f_prof_upd,
	.flow_create = f_flow_create,
	.flow_destroy = f_flow_destroy,
};

static void
fake_reset(void)
{
	memset(fail, 0, sizeof(fail));
	memset(&fake_cap, 0, sizeof(fake_cap));
	fake_cap.n_max = 1024;
	fake_cap.meter_trtcm_rfc2698_n_max = 1024;
	fake_cap.trtcm_rfc2698_byte_mode_supported = 1;
	fake_cap.meter_policy_n_max = 16;
	n_calls = 0;
	live_profiles = 0;
	live_meters = 0;
	live_rules = 0;
	live_policies = 0;
	pcc_pacer_mtr_hw_set(&fake_hw);
}

static void
no_leaks(void)
{
	assert_int_equal(live_profiles, 0);
	assert_int_equal(live_meters, 0);
	assert_int_equal(live_rules, 0);
	assert_int_equal(live_policies, 0);
}

/* ---- Helpers ----------------------------------------------------------- */

static struct pcc_pacer_conf
conf_of(uint32_t max_flows)
{
	struct pcc_pacer_conf c;

	memset(&c, 0, sizeof(c));
	c.backend = "mtr";
	c.port_id = PORT;
	c.socket_id = SOCKET_ID_ANY;
	c.max_flows = max_flows;
	c.line_rate_bps = LINE_100G;
	return c;
}

static struct pcc_pacer *
mtr_new(uint32_t max_flows)
{
	struct pcc_pacer_conf c = conf_of(max_flows);
	struct pcc_pacer *p;

	c.no_fallback = true;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	assert_string_equal(pcc_pacer_backend(p), "mtr");
	n_calls = 0;
	return p;
}

/* eth / ipv4 / udp 4791 / end: the caller's match for one flow */
static const struct rte_flow_item_udp udp_spec = { .hdr.dst_port = RTE_BE16(4791) };
static const struct rte_flow_item pattern[] = {
	{ .type = RTE_FLOW_ITEM_TYPE_ETH },
	{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
	{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp_spec, .mask = &rte_flow_item_udp_mask },
	{ .type = RTE_FLOW_ITEM_TYPE_END },
};

static void
check_profile(const struct call *c, uint32_t id, uint64_t rate_bps, uint64_t burst)
{
	assert_int_equal(c->kind, K_PROF_ADD);
	assert_int_equal(c->port, PORT);
	assert_int_equal(c->id, id);
	assert_int_equal(c->prof.alg, RTE_MTR_TRTCM_RFC2698);
	assert_int_equal(c->prof.trtcm_rfc2698.cir, rate_bps / 8);
	assert_int_equal(c->prof.trtcm_rfc2698.pir, rate_bps / 8);
	assert_int_equal(c->prof.trtcm_rfc2698.cbs, burst);
	assert_int_equal(c->prof.trtcm_rfc2698.pbs, burst);
	assert_int_equal(c->prof.packet_mode, 0);
}

/* ---- Tests --------------------------------------------------------------- */

static void
test_fallback(void **state)
{
	struct pcc_pacer_conf c = conf_of(4);
	unsigned int i, lines, with;
	struct pcc_pacer *p;

	(void)state;
	for (i = 0; i < 4; i++) {
		fake_reset();
		switch (i) {
		case 0:
			fail[K_CAPS] = ENOTSUP; /* no meters at all */
			break;
		case 1:
			fake_cap.meter_trtcm_rfc2698_n_max = 0; /* srTCM only */
			break;
		case 2:
			fake_cap.trtcm_rfc2698_byte_mode_supported = 0;
			break;
		default:
			fake_cap.meter_trtcm_rfc2698_n_max = 3; /* fewer than 4 flows */
			break;
		}
		c.no_fallback = false;
		log_capture();
		p = pcc_pacer_create(&c);
		lines = log_release("falling back to wheel", &with);
		assert_non_null(p);
		assert_string_equal(pcc_pacer_backend(p), "wheel");
		assert_int_equal(lines, 1);
		assert_int_equal(with, 1);
		assert_int_equal(pcc_pacer_mtr_flow_add(p, 0, pattern), -EINVAL);
		pcc_pacer_free(p);
		if (i == 0)
			fail[K_CAPS] = ENOTSUP;
		c.no_fallback = true;
		rte_errno = 0;
		assert_null(pcc_pacer_create(&c));
		assert_int_equal(rte_errno, ENOTSUP);
		no_leaks();
	}
	/* DPDK's own calls on a port that does not exist */
	pcc_pacer_mtr_hw_set(NULL);
	c.no_fallback = true;
	assert_null(pcc_pacer_create(&c));
	assert_int_equal(rte_errno, ENOTSUP);
	fake_reset();
}

static void
test_policer_warning(void **state)
{
	struct pcc_pacer_conf c = conf_of(4);
	unsigned int lines, with;
	struct pcc_pacer *p;

	(void)state;
	fake_reset();
	log_capture();
	p = pcc_pacer_create(&c);
	lines = log_release("POLICES", &with);
	assert_non_null(p);
	assert_string_equal(pcc_pacer_backend(p), "mtr");
	assert_int_equal(lines, 1);
	assert_int_equal(with, 1);
	assert_int_equal(pcc_pacer_mem_per_flow(p), 8 + 16);
	assert_true(pcc_pacer_mem_total(p) >= 4 * 24);
	/* nothing on the NIC until a flow is added */
	assert_int_equal(calls[0].kind, K_CAPS);
	assert_int_equal(calls[n_calls - 1].kind, K_CAPS);
	pcc_pacer_free(p);
	no_leaks();
}

static void
test_flow_add(void **state)
{
	struct pcc_pacer *p;
	struct call *c;

	(void)state;
	fake_reset();
	p = mtr_new(8);
	/* a rate before the flow is metered: stored, nothing called */
	assert_int_equal(pcc_pacer_set_rate(p, 3, 1000000000), 0);
	assert_int_equal(n_calls, 0);
	assert_int_equal(pcc_pacer_get_rate(p, 3), 1000000000);

	assert_int_equal(pcc_pacer_mtr_flow_add(p, 3, pattern), 0);
	assert_int_equal(n_calls, 4);
	c = &calls[0];
	assert_int_equal(c->kind, K_POL_ADD);
	assert_int_equal(c->id, 0);
	assert_true(c->green_null && c->yellow_null && c->red_drop);
	/* 125 MB/s x 100 us = 12500 bytes: the floor of 16 KiB applies */
	check_profile(&calls[1], 6, 1000000000, 16384);
	c = &calls[2];
	assert_int_equal(c->kind, K_CREATE);
	assert_int_equal(c->id, 3);
	assert_int_equal(c->params.meter_profile_id, 6);
	assert_int_equal(c->params.meter_policy_id, 0);
	assert_int_equal(c->params.meter_enable, 1);
	assert_int_equal(c->params.use_prev_mtr_color, 0);
	assert_null(c->params.dscp_table);
	assert_int_equal(c->shared, 0);
	c = &calls[3];
	assert_int_equal(c->kind, K_FLOW_CREATE);
	assert_int_equal(c->attr.egress, 1);
	assert_int_equal(c->attr.ingress, 0);
	assert_ptr_equal(c->pattern, pattern);
	assert_int_equal(c->n_act, 2);
	assert_int_equal(c->act[0], RTE_FLOW_ACTION_TYPE_METER);
	assert_int_equal(c->meter_id, 3);
	assert_int_equal(c->act[1], RTE_FLOW_ACTION_TYPE_END);

	/* a second flow: no second policy; line rate when none was set */
	n_calls = 0;
	assert_int_equal(pcc_pacer_mtr_flow_add(p, 5, pattern), 0);
	assert_int_equal(n_calls, 3);
	/* 12.5 GB/s x 100 us */
	check_profile(&calls[0], 10, LINE_100G, 1250000);
	assert_int_equal(calls[1].kind, K_CREATE);
	assert_int_equal(calls[2].kind, K_FLOW_CREATE);

	n_calls = 0;
	assert_int_equal(pcc_pacer_mtr_flow_add(p, 3, pattern), -EEXIST);
	assert_int_equal(pcc_pacer_mtr_flow_add(p, 8, pattern), -EINVAL);
	assert_int_equal(pcc_pacer_mtr_flow_add(p, 4, NULL), -EINVAL);
	assert_int_equal(pcc_pacer_mtr_flow_add(NULL, 4, pattern), -EINVAL);
	assert_int_equal(n_calls, 0);
	/* too late to configure */
	assert_int_equal(pcc_pacer_mtr_configure(p, &(struct pcc_pacer_mtr_conf){ .burst_ns = 1 }),
			-EBUSY);
	pcc_pacer_free(p);
	no_leaks();
}

static void
test_configure(void **state)
{
	static const struct rte_flow_action_queue q = { .index = 2 };
	static const struct rte_flow_action fate[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct pcc_pacer_mtr_conf mc;
	struct pcc_pacer *p;
	struct call *c;

	(void)state;
	fake_reset();
	p = mtr_new(8);
	memset(&mc, 0, sizeof(mc));
	assert_int_equal(pcc_pacer_mtr_configure(NULL, &mc), -EINVAL);
	assert_int_equal(pcc_pacer_mtr_configure(p, NULL), -EINVAL);
	mc.mtr_id_base = UINT32_MAX - 3; /* + 7 overflows */
	assert_int_equal(pcc_pacer_mtr_configure(p, &mc), -EINVAL);
	mc.mtr_id_base = 0;
	mc.profile_id_base = UINT32_MAX - 10; /* + 15 overflows */
	assert_int_equal(pcc_pacer_mtr_configure(p, &mc), -EINVAL);

	mc.attr.ingress = 1;
	mc.attr.group = 1;
	mc.fate = fate;
	mc.mtr_id_base = 100;
	mc.profile_id_base = 1000;
	mc.policy_id = 7;
	mc.burst_ns = 1000000; /* 1 ms */
	assert_int_equal(pcc_pacer_mtr_configure(p, &mc), 0);
	assert_int_equal(pcc_pacer_set_rate(p, 2, 8000000000ull), 0);
	assert_int_equal(pcc_pacer_mtr_flow_add(p, 2, pattern), 0);
	assert_int_equal(n_calls, 4);
	assert_int_equal(calls[0].id, 7);
	check_profile(&calls[1], 1004, 8000000000ull, 1000000);
	assert_int_equal(calls[2].id, 102);
	assert_int_equal(calls[2].params.meter_profile_id, 1004);
	assert_int_equal(calls[2].params.meter_policy_id, 7);
	c = &calls[3];
	assert_int_equal(c->attr.ingress, 1);
	assert_int_equal(c->attr.egress, 0);
	assert_int_equal(c->attr.group, 1);
	assert_int_equal(c->n_act, 3);
	assert_int_equal(c->act[0], RTE_FLOW_ACTION_TYPE_METER);
	assert_int_equal(c->meter_id, 102);
	assert_int_equal(c->act[1], RTE_FLOW_ACTION_TYPE_QUEUE);
	assert_int_equal(c->queue, 2);
	assert_int_equal(c->act[2], RTE_FLOW_ACTION_TYPE_END);
	n_calls = 0;
	pcc_pacer_free(p);
	/* rule, meter, profile, then the policy */
	assert_int_equal(n_calls, 4);
	assert_int_equal(calls[0].kind, K_FLOW_DESTROY);
	assert_int_equal(calls[1].kind, K_DESTROY);
	assert_int_equal(calls[1].id, 102);
	assert_int_equal(calls[2].kind, K_PROF_DEL);
	assert_int_equal(calls[2].id, 1004);
	assert_int_equal(calls[3].kind, K_POL_DEL);
	assert_int_equal(calls[3].id, 7);
	no_leaks();
}

static void
test_set_rate_updates(void **state)
{
	struct pcc_pacer *p;

	(void)state;
	fake_reset();
	p = mtr_new(8);
	assert_int_equal(pcc_pacer_mtr_flow_add(p, 1, pattern), 0);
	n_calls = 0;
	/* new profile (the other id), meter moved to it, old one deleted */
	assert_int_equal(pcc_pacer_set_rate(p, 1, 40000000000ull), 0);
	assert_int_equal(n_calls, 3);
	check_profile(&calls[0], 3, 40000000000ull, 500000);
	assert_int_equal(calls[1].kind, K_PROF_UPD);
	assert_int_equal(calls[1].id, 1);
	assert_int_equal(calls[1].id2, 3);
	assert_int_equal(calls[2].kind, K_PROF_DEL);
	assert_int_equal(calls[2].id, 2);
	assert_int_equal(live_profiles, 1);
	/* and back again */
	n_calls = 0;
	assert_int_equal(pcc_pacer_set_rate(p, 1, 0), 0);
	assert_int_equal(n_calls, 3);
	check_profile(&calls[0], 2, LINE_100G, 1250000);
	assert_int_equal(calls[1].id2, 2);
	assert_int_equal(calls[2].id, 3);
	assert_int_equal(pcc_pacer_get_rate(p, 1), 0);

	/* profile add fails: rate unchanged, meter untouched */
	n_calls = 0;
	fail[K_PROF_ADD] = ENOSPC;
	assert_int_equal(pcc_pacer_set_rate(p, 1, 5000000000ull), -ENOSPC);
	assert_int_equal(n_calls, 1);
	assert_int_equal(pcc_pacer_get_rate(p, 1), 0);
	/* update fails: the new profile is deleted again */
	n_calls = 0;
	fail[K_PROF_UPD] = EIO;
	assert_int_equal(pcc_pacer_set_rate(p, 1, 5000000000ull), -EIO);
	assert_int_equal(n_calls, 3);
	assert_int_equal(calls[2].kind, K_PROF_DEL);
	assert_int_equal(calls[2].id, 3);
	assert_int_equal(pcc_pacer_get_rate(p, 1), 0);
	assert_int_equal(live_profiles, 1);
	/* and the next change works, from the profile still in use */
	n_calls = 0;
	assert_int_equal(pcc_pacer_set_rate(p, 1, 5000000000ull), 0);
	assert_int_equal(calls[1].id2, 3);
	assert_int_equal(calls[2].id, 2);
	assert_int_equal(pcc_pacer_get_rate(p, 1), 5000000000ull);

	/* reset: rule, meter and the profile in use go */
	n_calls = 0;
	pcc_pacer_flow_reset(p, 1);
	assert_int_equal(n_calls, 3);
	assert_int_equal(calls[0].kind, K_FLOW_DESTROY);
	assert_ptr_not_equal(calls[0].flow, NULL);
	assert_int_equal(calls[1].kind, K_DESTROY);
	assert_int_equal(calls[1].id, 1);
	assert_int_equal(calls[2].kind, K_PROF_DEL);
	assert_int_equal(calls[2].id, 3);
	assert_int_equal(pcc_pacer_get_rate(p, 1), 0);
	n_calls = 0;
	pcc_pacer_flow_reset(p, 1);
	assert_int_equal(n_calls, 0);
	/* a reset flow can be metered again */
	assert_int_equal(pcc_pacer_mtr_flow_add(p, 1, pattern), 0);
	pcc_pacer_free(p);
	no_leaks();
}

static void
test_flow_add_errors(void **state)
{
	static const enum kind kinds[] = { K_POL_ADD, K_PROF_ADD, K_CREATE, K_FLOW_CREATE };
	struct pcc_pacer *p;
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(kinds); i++) {
		fake_reset();
		p = mtr_new(8);
		fail[kinds[i]] = EIO;
		assert_int_equal(pcc_pacer_mtr_flow_add(p, 4, pattern), -EIO);
		/* whatever was made is undone */
		assert_int_equal(live_profiles, 0);
		assert_int_equal(live_meters, 0);
		assert_int_equal(live_rules, 0);
		assert_int_equal(live_policies, kinds[i] == K_POL_ADD ? 0 : 1);
		if (kinds[i] == K_FLOW_CREATE) {
			assert_int_equal(calls[n_calls - 2].kind, K_DESTROY);
			assert_int_equal(calls[n_calls - 1].kind, K_PROF_DEL);
		}
		if (kinds[i] == K_CREATE)
			assert_int_equal(calls[n_calls - 1].kind, K_PROF_DEL);
		/* then it works */
		assert_int_equal(pcc_pacer_mtr_flow_add(p, 4, pattern), 0);
		assert_int_equal(live_rules, 1);
		pcc_pacer_free(p);
		no_leaks();
	}
}

static void
test_pass_through(void **state)
{
	struct rte_mbuf *in[6], *out[8];
	struct pcc_pacer_stats st;
	struct pcc_pacer *p;
	unsigned int i;

	(void)state;
	fake_reset();
	p = mtr_new(8);
	assert_int_equal(pcc_pacer_set_rate(p, 2, 1000000), 0);
	assert_int_equal(pcc_pacer_mtr_flow_add(p, 2, pattern), 0);
	for (i = 0; i < 6; i++) {
		in[i] = rte_pktmbuf_alloc(mp);
		assert_non_null(in[i]);
		in[i]->pkt_len = 1500;
	}
	/* no shaping: the NIC polices, everything goes at once */
	assert_int_equal(pcc_pacer_enqueue(p, 2, in, 5, T0), 5);
	assert_int_equal(pcc_pacer_enqueue(p, PCC_PACER_NO_FLOW, in + 5, 1, T0), 1);
	assert_int_equal(pcc_pacer_dequeue(p, T0, out, 8), 6);
	for (i = 0; i < 6; i++)
		assert_ptr_equal(out[i], in[i]);
	for (i = 0; i < 6; i++)
		rte_pktmbuf_free(out[i]);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.enqueued, 6);
	assert_int_equal(st.dequeued, 6);
	assert_int_equal(st.dropped, 0);
	pcc_pacer_free(p);
	no_leaks();
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

static int
group_setup(void **state)
{
	(void)state;
	rte_openlog_stream(stderr);
	if (test_eal_init("test_pacer_mtr", "128", NULL) < 0)
		return -1;
	if (pcc_pacer_drivers_register() != 0)
		return -1;
	mp = rte_pktmbuf_pool_create("pacer_mtr", N_MBUFS, 0, 0, 128, SOCKET_ID_ANY);
	return mp == NULL ? -1 : 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	pcc_pacer_mtr_hw_set(NULL);
	test_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_policer_warning),
		cmocka_unit_test(test_flow_add),
		cmocka_unit_test(test_configure),
		cmocka_unit_test(test_set_rate_updates),
		cmocka_unit_test(test_flow_add_errors),
		cmocka_unit_test(test_pass_through),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
