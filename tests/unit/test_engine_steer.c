/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Steering that follows flow ownership (lib/engine/steer.c).
 *
 * The decision against a fake PMD (struct eng_steer_ops): RSS hash fields
 * offered or not, RETA sizes, rte_flow rules on the BTH DestQP validated
 * or refused (IPv4, IPv6), refused at create; the DestQP matched by a RAW
 * item or by a flex item (mlx5: asked first, its configuration checked
 * against mlx5's limits; released after its rules); the rules matched,
 * as a NIC's parser would, against CNPs from pcc_cnp_build(): each QPN's
 * reaches its owner's queue, by one rule per IP version.  The hand-over rings' size
 * from the line rate, and the backpressure predicate (room for a burst).
 *
 * Then an engine with 2 lcores on a ring pair (2 RX queues): its flows'
 * CNPs sent to the queue pcc_engine_steer_rxq() names (what the rules do
 * on a NIC) are all handled where they arrive, by their owner: no record
 * crosses lcores, none is lost; sent all to queue 0 (no steering), every
 * record of lcore 1's flows is handed over and none is lost either
 * (backpressure).  No timing: the peer waits for counters to reach what
 * is expected.  EAL "-l 0-1" without hugepages.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "engine_internal.h"
#include "pcc_algos.h"
#include "pcc_proto.h"
#include "test_eal.h"
#include "test_engine_peer.h"

/* ---- Fake PMD ------------------------------------------------------------------ */

/* A rule as the fake NIC keeps it: what its parser compares. */
struct fake_rule {
	bool ipv6;
	bool flex;       /* the DestQP in the flex item's pattern, else RAW */
	int32_t raw_off; /* RAW: bytes after the UDP header */
	uint8_t len;     /* pattern bytes */
	uint8_t pat[4], msk[4];
	uint16_t queue;
	bool live;
};

/* A flex item as the fake NIC's parser would run it. */
struct fake_flex {
	bool live;
	uint16_t udp_port; /* after UDP to this destination port */
	uint32_t hdr_bits; /* the header's length */
	int32_t base;      /* the sampled field: bit offset, width */
	uint32_t size;
};

static struct fake_pmd {
	const char *driver; /* dev_info's driver_name */
	uint16_t reta_size;
	uint64_t rss_offloads;
	bool flow_ok;    /* validate RAW rules, IPv4 */
	bool flow_v6_ok; /* validate RAW rules, IPv6 */
	bool flex_ok;    /* flex items: create, validate FLEX rules (IPv4) */
	bool flex_v6_ok; /* validate FLEX rules, IPv6 */
	int create_fail; /* create fails at this rule (1-based), 0 never */
	int flex_fail;   /* ... at this rule with the flex item */
	int reta_calls;
	uint16_t reta[ENG_STEER_RETA_MAX];
	int nb_rules, nb_created, nb_destroyed, nb_flex;
	int validated_raw, validated_flex;
	int flex_created, flex_released;
	bool release_fail; /* flex item release refused */
	struct fake_flex fx;
	struct fake_rule rules[ENG_STEER_RULES_MAX];
} pmd;

static int
fake_dev_info(uint16_t port_id, struct rte_eth_dev_info *info)
{
	(void)port_id;
	memset(info, 0, sizeof(*info));
	info->driver_name = pmd.driver;
	info->reta_size = pmd.reta_size;
	info->flow_type_rss_offloads = pmd.rss_offloads;
	return 0;
}

static int
fake_reta_update(uint16_t port_id, struct rte_eth_rss_reta_entry64 *conf, uint16_t reta_size)
{
	unsigned int i;

	(void)port_id;
	assert_int_equal(reta_size, pmd.reta_size);
	pmd.reta_calls++;
	for (i = 0; i < reta_size; i++) {
		const struct rte_eth_rss_reta_entry64 *g = &conf[i / RTE_ETH_RETA_GROUP_SIZE];

		assert_true(g->mask & (UINT64_C(1) << (i % RTE_ETH_RETA_GROUP_SIZE)));
		pmd.reta[i] = g->reta[i % RTE_ETH_RETA_GROUP_SIZE];
	}
	return 0;
}

/*
 * The flex item, checked as mlx5 checks one (drivers/net/mlx5, DPDK
 * 22.11: a fixed header length, byte aligned, no length field; no next
 * protocol without output links; fixed sample fields; one input link, UDP
 * with the destination port alone in its mask; a single, non-tunnel
 * header): a configuration mlx5 would refuse fails the test.
 */
static struct rte_flow_item_flex_handle *
fake_flex_create(uint16_t port_id, const struct rte_flow_item_flex_conf *c,
		struct rte_flow_error *err)
{
	const struct rte_flow_item_udp full = { .hdr.dst_port = RTE_BE16(0xffff) };
	const struct rte_flow_item_udp *spec;

	(void)port_id;
	if (!pmd.flex_ok) {
		err->message = "flex parser not enabled in firmware";
		return NULL;
	}
	assert_false(pmd.fx.live); /* one item, released before another */
	assert_int_equal(c->tunnel, FLEX_TUNNEL_MODE_SINGLE);
	assert_int_equal(c->next_header.field_mode, FIELD_MODE_FIXED);
	assert_int_equal(c->next_header.field_size, 0);
	assert_int_equal(c->next_header.offset_mask, 0);
	assert_int_equal(c->next_header.offset_shift, 0);
	assert_true(c->next_header.field_base > 0 && c->next_header.field_base % 8 == 0);
	assert_int_equal(c->next_protocol.field_mode, FIELD_MODE_DUMMY);
	assert_int_equal(c->nb_outputs, 0);
	assert_int_equal(c->nb_samples, 1);
	assert_int_equal(c->sample_data[0].field_mode, FIELD_MODE_FIXED);
	assert_int_equal(c->sample_data[0].offset_shift, 0);
	assert_true(c->sample_data[0].field_base >= 0 && c->sample_data[0].field_size > 0);
	assert_true((uint32_t)c->sample_data[0].field_base + c->sample_data[0].field_size <=
			(uint32_t)c->next_header.field_base);
	assert_int_equal(c->nb_inputs, 1);
	assert_int_equal(c->input_link[0].item.type, RTE_FLOW_ITEM_TYPE_UDP);
	assert_non_null(c->input_link[0].item.spec);
	assert_non_null(c->input_link[0].item.mask);
	assert_null(c->input_link[0].item.last);
	assert_memory_equal(c->input_link[0].item.mask, &full, sizeof(full));
	spec = c->input_link[0].item.spec;
	pmd.fx.live = true;
	pmd.fx.udp_port = rte_be_to_cpu_16(spec->hdr.dst_port);
	pmd.fx.hdr_bits = (uint32_t)c->next_header.field_base;
	pmd.fx.base = c->sample_data[0].field_base;
	pmd.fx.size = c->sample_data[0].field_size;
	pmd.flex_created++;
	return (struct rte_flow_item_flex_handle *)&pmd.fx;
}

static int
fake_flex_release(uint16_t port_id, const struct rte_flow_item_flex_handle *h,
		struct rte_flow_error *err)
{
	int i;

	(void)port_id;
	assert_ptr_equal(h, &pmd.fx);
	assert_true(pmd.fx.live);
	if (pmd.release_fail) {
		err->message = "flex item release failure";
		return -EBUSY;
	}
	for (i = 0; i < pmd.nb_rules; i++) {
		if (pmd.rules[i].live && pmd.rules[i].flex) {
			err->message = "flex item has flow references";
			return -EBUSY;
		}
	}
	pmd.fx.live = false;
	pmd.flex_released++;
	return 0;
}

/* The rule as a NIC would read it; asserts its shape. */
static void
rule_read(const struct rte_flow_attr *attr, const struct rte_flow_item *p,
		const struct rte_flow_action *a, struct fake_rule *r)
{
	const struct rte_flow_item_udp *udp;

	memset(r, 0, sizeof(*r));
	assert_int_equal(attr->ingress, 1);
	assert_int_equal(p[0].type, RTE_FLOW_ITEM_TYPE_ETH);
	assert_true(p[1].type == RTE_FLOW_ITEM_TYPE_IPV4 || p[1].type == RTE_FLOW_ITEM_TYPE_IPV6);
	r->ipv6 = p[1].type == RTE_FLOW_ITEM_TYPE_IPV6;
	assert_int_equal(p[2].type, RTE_FLOW_ITEM_TYPE_UDP);
	udp = p[2].spec;
	assert_int_equal(rte_be_to_cpu_16(udp->hdr.dst_port), PCC_ROCE_UDP_PORT);
	if (p[3].type == RTE_FLOW_ITEM_TYPE_FLEX) {
		const struct rte_flow_item_flex *fs = p[3].spec, *fm = p[3].mask;

		assert_true(pmd.fx.live);
		assert_ptr_equal(fs->handle, &pmd.fx);
		assert_ptr_equal(fm->handle, &pmd.fx);
		/* the pattern: the sampled field's bits, in bytes; a whole
		 * 32-bit word (mlx5 without its fix for non-full-word samples
		 * matched every packet with a narrower field) */
		assert_int_equal(pmd.fx.size, 32);
		assert_int_equal(pmd.fx.base % 32, 0);
		assert_int_equal(fs->length, (pmd.fx.size + 7) / 8);
		assert_int_equal(fm->length, fs->length);
		r->flex = true;
		r->len = (uint8_t)fs->length;
		memcpy(r->pat, fs->pattern, r->len);
		memcpy(r->msk, fm->pattern, r->len);
	} else {
		const struct rte_flow_item_raw *raw = p[3].spec, *rawm = p[3].mask;

		assert_int_equal(p[3].type, RTE_FLOW_ITEM_TYPE_RAW);
		assert_int_equal(raw->relative, 1);
		assert_int_equal(raw->length, 3);
		r->raw_off = raw->offset;
		r->len = 3;
		memcpy(r->pat, raw->pattern, 3);
		memcpy(r->msk, rawm->pattern, 3);
	}
	assert_int_equal(p[4].type, RTE_FLOW_ITEM_TYPE_END);
	assert_int_equal(a[0].type, RTE_FLOW_ACTION_TYPE_QUEUE);
	r->queue = ((const struct rte_flow_action_queue *)a[0].conf)->index;
	assert_int_equal(a[1].type, RTE_FLOW_ACTION_TYPE_END);
}

static int
fake_validate(uint16_t port_id, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct rte_flow_error *err)
{
	struct fake_rule r;

	(void)port_id;
	rule_read(attr, pattern, actions, &r);
	if (r.flex) {
		pmd.validated_flex++;
		if (r.ipv6 ? pmd.flex_v6_ok : pmd.flex_ok)
			return 0;
		err->message = "flex rule not supported";
		return -ENOTSUP;
	}
	pmd.validated_raw++;
	if (r.ipv6 ? pmd.flow_v6_ok : pmd.flow_ok)
		return 0;
	err->message = "RAW item not supported";
	return -ENOTSUP;
}

static struct rte_flow *
fake_create(uint16_t port_id, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct rte_flow_error *err)
{
	struct fake_rule *r = &pmd.rules[pmd.nb_rules];

	(void)port_id;
	if (pmd.create_fail != 0 && pmd.nb_created + 1 == pmd.create_fail) {
		err->message = "no room";
		return NULL;
	}
	rule_read(attr, pattern, actions, r);
	if (r->flex && pmd.flex_fail != 0 && pmd.nb_flex + 1 == pmd.flex_fail) {
		err->message = "no room";
		return NULL;
	}
	r->live = true;
	pmd.nb_rules++;
	pmd.nb_created++;
	pmd.nb_flex += r->flex;
	return (struct rte_flow *)r;
}

static int
fake_destroy(uint16_t port_id, struct rte_flow *flow, struct rte_flow_error *err)
{
	struct fake_rule *r = (struct fake_rule *)flow;

	(void)port_id;
	(void)err;
	assert_true(r->live);
	r->live = false;
	pmd.nb_destroyed++;
	return 0;
}

static const struct eng_steer_ops fake_ops = {
	.dev_info = fake_dev_info,
	.reta_update = fake_reta_update,
	.flow_validate = fake_validate,
	.flow_create = fake_create,
	.flow_destroy = fake_destroy,
	.flex_create = fake_flex_create,
	.flex_release = fake_flex_release,
};

/* Does live rule r take this frame (Ethernet, IPv4 or IPv6, UDP)? As the
 * NIC parses it: the UDP header, then the RAW bytes after it, or the
 * flex item's header and its sampled bits. */
static bool
rule_match(const struct fake_rule *r, const uint8_t *f, uint32_t len)
{
	uint16_t et = (uint16_t)(f[12] << 8 | f[13]);
	uint32_t l4, i;
	uint8_t got[4];
	const uint8_t *bth;

	if (et == 0x0800) {
		if (r->ipv6 || f[14 + 9] != 17)
			return false;
		l4 = 14 + (uint32_t)(f[14] & 0xf) * 4;
	} else {
		assert_int_equal(et, 0x86dd);
		if (!r->ipv6 || f[14 + 6] != 17)
			return false;
		l4 = 14 + 40;
	}
	assert_true(l4 + 8 + PCC_BTH_LEN <= len);
	if ((f[l4 + 2] << 8 | f[l4 + 3]) != PCC_ROCE_UDP_PORT)
		return false;
	bth = f + l4 + 8;
	if (r->flex) {
		/* the item's input link, then its field's bits, first bit first */
		if (pmd.fx.udp_port != PCC_ROCE_UDP_PORT)
			return false;
		memset(got, 0, sizeof(got));
		for (i = 0; i < pmd.fx.size && i < 32; i++) {
			uint32_t b = (uint32_t)pmd.fx.base + i;

			if (bth[b / 8] & (0x80 >> (b % 8)))
				got[i / 8] |= (uint8_t)(0x80 >> (i % 8));
		}
	} else {
		memcpy(got, bth + r->raw_off, 3);
	}
	for (i = 0; i < r->len; i++)
		if ((got[i] & r->msk[i]) != (r->pat[i] & r->msk[i]))
			return false;
	return true;
}

static struct eng_steer_out out;

/* nb_owners owners, owner k polls queue 2k+1 (queue 2k is not polled). */
static void
in_init(struct eng_steer_in *in, uint16_t nb_owners, uint16_t *polled)
{
	uint16_t tbl[ENG_STEER_BUCKETS];
	unsigned int b, k;

	memset(in, 0, sizeof(*in));
	in->port_id = 0;
	in->nb_rxq = (uint16_t)(2 * nb_owners);
	in->nb_owners = nb_owners;
	eng_steer_owner_table(nb_owners, tbl);
	for (b = 0; b < ENG_STEER_BUCKETS; b++)
		in->bucket_rxq[b] = (uint16_t)(2 * tbl[b] + 1);
	for (k = 0; k < nb_owners; k++)
		polled[k] = (uint16_t)(2 * k + 1);
	in->nb_polled = nb_owners;
	in->polled = polled;
}

/* The live rules send every QPN's CNPs, as pcc_cnp_build() makes them,
 * to its owner's queue: one rule takes each, per IP version (none of
 * IPv6 without IPv6 rules). */
static void
check_rules_follow_owner(const struct eng_steer_in *in, bool ipv6)
{
	uint16_t tbl[ENG_STEER_BUCKETS];
	struct pcc_l3_spec l3;
	uint8_t frame[128];
	uint32_t qpn;
	int i, v, len;

	eng_steer_owner_table(in->nb_owners, tbl);
	for (v = 0; v < 2; v++) {
		memset(&l3, 0, sizeof(l3));
		l3.ipv6 = v == 1;
		if (l3.ipv6) {
			l3.src.v6[15] = 1;
			l3.dst.v6[15] = 2;
		} else {
			l3.src.v4 = 0x0a000001;
			l3.dst.v4 = 0x0a000002;
		}
		for (qpn = 0; qpn < 4096; qpn += 7) {
			int hits = 0;

			len = pcc_cnp_build(frame, sizeof(frame), &l3, qpn | 0xab0000);
			assert_true(len > 0);
			for (i = 0; i < pmd.nb_rules; i++) {
				const struct fake_rule *r = &pmd.rules[i];

				if (!r->live || !rule_match(r, frame, (uint32_t)len))
					continue;
				assert_int_equal(r->queue, 2 * tbl[qpn & 0xFF] + 1);
				hits++;
			}
			assert_int_equal(hits, v == 0 || ipv6 ? 1 : 0);
		}
	}
}

static void
pmd_reset(void)
{
	memset(&pmd, 0, sizeof(pmd));
}

static void
test_steer_hash_fields(void **state)
{
	(void)state;
	assert_int_equal(eng_steer_rss_hf(0), 0);
	assert_int_equal(eng_steer_rss_hf(RTE_ETH_RSS_L2_PAYLOAD), 0);
	assert_int_equal(eng_steer_rss_hf(RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_L2_PAYLOAD),
			RTE_ETH_RSS_IPV4);
	assert_int_equal(eng_steer_rss_hf(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP),
			RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP);
}

static void
test_steer_owner_table(void **state)
{
	uint16_t tbl[ENG_STEER_BUCKETS];
	unsigned int b, n[3] = { 0 };

	(void)state;
	eng_steer_owner_table(1, tbl);
	for (b = 0; b < ENG_STEER_BUCKETS; b++)
		assert_int_equal(tbl[b], 0);
	eng_steer_owner_table(3, tbl);
	for (b = 0; b < ENG_STEER_BUCKETS; b++)
		n[tbl[b]]++;
	/* balanced within one bucket */
	assert_true(n[0] - n[2] <= 1 && n[1] - n[2] <= 1);
}

static void
test_steer_one_owner(void **state)
{
	struct eng_steer_in in;
	uint16_t polled[1];

	(void)state;
	pmd_reset();
	pmd.flow_ok = true;
	pmd.reta_size = 64;
	pmd.rss_offloads = RTE_ETH_RSS_IP;
	in_init(&in, 1, polled);
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_NONE);
	assert_int_equal(pmd.nb_created, 0);
	assert_int_equal(pmd.reta_calls, 0);
}

/* rte_flow yes, power-of-two owners: one rule per owner and IP version;
 * RETA over the polled queues only. */
static void
test_steer_flow_pow2(void **state)
{
	struct eng_steer_in in;
	uint16_t polled[4];
	unsigned int i;

	(void)state;
	pmd_reset();
	pmd.flow_ok = pmd.flow_v6_ok = true;
	pmd.reta_size = 128;
	pmd.rss_offloads = RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP;
	in_init(&in, 4, polled);
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_FLOW);
	assert_int_equal(out.period, 4);
	assert_true(out.ipv6);
	assert_int_equal(out.nb_flows, 8);
	assert_int_equal(pmd.nb_created, 8);
	check_rules_follow_owner(&in, true);
	assert_true(out.reta_set);
	assert_int_equal(out.reta_size, 128);
	for (i = 0; i < 128; i++)
		assert_int_equal(pmd.reta[i] % 2, 1); /* polled queues only */
	eng_steer_port_clear(&fake_ops, 0, &out);
	assert_int_equal(pmd.nb_destroyed, 8);
	assert_int_equal(out.nb_flows, 0);
}

/* 3 owners: the table's period is the whole byte, 256 rules per version;
 * no IPv6 rules: IPv4 alone still steers; no RETA: RSS left alone. */
static void
test_steer_flow_3_v4_only(void **state)
{
	struct eng_steer_in in;
	uint16_t polled[3];

	(void)state;
	pmd_reset();
	pmd.flow_ok = true;
	pmd.reta_size = 0;
	pmd.rss_offloads = RTE_ETH_RSS_IP;
	in_init(&in, 3, polled);
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_FLOW);
	assert_int_equal(out.period, ENG_STEER_BUCKETS);
	assert_false(out.ipv6);
	assert_int_equal(out.nb_flows, ENG_STEER_BUCKETS);
	check_rules_follow_owner(&in, false);
	assert_false(out.reta_set);
	assert_int_equal(pmd.reta_calls, 0);
	eng_steer_port_clear(&fake_ops, 0, &out);
}

/* rte_flow no (net_ring, or mlx5 on 22.11 refusing RAW): hand-over; the
 * RETA still covers only polled queues; with no RSS hash field offered
 * the RETA is not touched. */
static void
test_steer_no_flow(void **state)
{
	struct eng_steer_in in;
	uint16_t polled[2];
	unsigned int i;

	(void)state;
	pmd_reset();
	pmd.reta_size = 64;
	pmd.rss_offloads = RTE_ETH_RSS_IPV4;
	in_init(&in, 2, polled);
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_HANDOVER);
	assert_int_equal(pmd.nb_created, 0);
	assert_non_null(strstr(out.why, "RAW item not supported"));
	assert_true(out.reta_set);
	for (i = 0; i < 64; i++)
		assert_int_equal(pmd.reta[i], polled[i % 2]);

	pmd_reset();
	pmd.reta_size = 64;
	pmd.rss_offloads = RTE_ETH_RSS_L2_PAYLOAD;
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_HANDOVER);
	assert_int_equal(pmd.reta_calls, 0);
	assert_false(out.reta_set);
}

/* Validated but refused at create: nothing left behind, hand-over. */
static void
test_steer_create_fails(void **state)
{
	struct eng_steer_in in;
	uint16_t polled[2];

	(void)state;
	pmd_reset();
	pmd.flow_ok = pmd.flow_v6_ok = true;
	pmd.create_fail = 2;
	in_init(&in, 2, polled);
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_HANDOVER);
	assert_int_equal(pmd.nb_created, 1);
	assert_int_equal(pmd.nb_destroyed, 1);
	assert_int_equal(out.nb_flows, 0);

	/* an IPv6 rule refused at create: the IPv4 rules stay */
	pmd_reset();
	pmd.flow_ok = pmd.flow_v6_ok = true;
	pmd.create_fail = 4;
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_FLOW);
	assert_false(out.ipv6);
	assert_int_equal(out.nb_flows, 2);
	assert_int_equal(pmd.nb_destroyed, 1);
	check_rules_follow_owner(&in, false);
	eng_steer_port_clear(&fake_ops, 0, &out);
}

/* mlx5: the flex item first (no RAW rule even asked), rules on it for
 * both IP versions that take every QPN's CNPs to its owner; cleared, the
 * rules go before the item is released. */
static void
test_steer_flex_mlx5(void **state)
{
	struct eng_steer_in in;
	uint16_t polled[4];

	(void)state;
	pmd_reset();
	pmd.driver = "mlx5_pci";
	pmd.flow_ok = pmd.flow_v6_ok = true; /* RAW would do: flex still first */
	pmd.flex_ok = pmd.flex_v6_ok = true;
	in_init(&in, 4, polled);
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_FLOW);
	assert_int_equal(out.item, ENG_STEER_ITEM_FLEX);
	assert_int_equal(pmd.flex_created, 1);
	assert_int_equal(pmd.validated_raw, 0);
	assert_true(out.ipv6);
	assert_int_equal(out.nb_flows, 8);
	check_rules_follow_owner(&in, true);
	eng_steer_port_clear(&fake_ops, 0, &out);
	assert_int_equal(pmd.nb_destroyed, 8);
	assert_int_equal(pmd.flex_released, 1);
	assert_null(out.flex);

	/* a release the PMD refuses: logged, the port's state cleared all
	 * the same (the rules are gone) */
	pmd_reset();
	pmd.driver = "mlx5_pci";
	pmd.flex_ok = true;
	pmd.release_fail = true;
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_FLOW);
	eng_steer_port_clear(&fake_ops, 0, &out);
	assert_int_equal(pmd.flex_released, 0);
	assert_null(out.flex);
	assert_int_equal(out.nb_flows, 0);
	assert_int_equal(out.item, ENG_STEER_ITEM_NONE);

	/* 3 owners, IPv4 only */
	pmd_reset();
	pmd.driver = "mlx5_pci";
	pmd.flex_ok = true;
	in_init(&in, 3, polled);
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_FLOW);
	assert_int_equal(out.item, ENG_STEER_ITEM_FLEX);
	assert_false(out.ipv6);
	assert_int_equal(out.nb_flows, ENG_STEER_BUCKETS);
	check_rules_follow_owner(&in, false);
	eng_steer_port_clear(&fake_ops, 0, &out);
	assert_int_equal(pmd.flex_released, 1);
}

/* Another PMD: RAW first; refused, the flex item. */
static void
test_steer_flex_after_raw(void **state)
{
	struct eng_steer_in in;
	uint16_t polled[2];

	(void)state;
	pmd_reset();
	pmd.driver = "net_other";
	pmd.flex_ok = true;
	in_init(&in, 2, polled);
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_FLOW);
	assert_int_equal(out.item, ENG_STEER_ITEM_FLEX);
	assert_int_equal(pmd.validated_raw, 1);
	assert_true(pmd.validated_flex > 0);
	check_rules_follow_owner(&in, false);
	eng_steer_port_clear(&fake_ops, 0, &out);
	assert_int_equal(pmd.flex_released, 1);
}

/* mlx5 without the flex parser (firmware) and without RAW: hand-over,
 * both refusals named; the item refused at rule creation is released
 * and RAW tried after it. */
static void
test_steer_flex_refused(void **state)
{
	struct eng_steer_in in;
	uint16_t polled[2];

	(void)state;
	pmd_reset();
	pmd.driver = "mlx5_pci";
	in_init(&in, 2, polled);
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_HANDOVER);
	assert_non_null(strstr(out.why, "flex parser not enabled"));
	assert_non_null(strstr(out.why, "RAW item not supported"));
	assert_int_equal(pmd.nb_created, 0);
	assert_int_equal(pmd.flex_created, 0);

	/* the item made, its second rule refused: rules and item gone, then
	 * RAW, which the PMD takes */
	pmd_reset();
	pmd.driver = "mlx5_pci";
	pmd.flex_ok = true;
	pmd.flow_ok = true;
	pmd.flex_fail = 2;
	assert_int_equal(eng_steer_port(&fake_ops, &in, &out), PCC_ENGINE_STEER_FLOW);
	assert_int_equal(out.item, ENG_STEER_ITEM_RAW);
	assert_int_equal(pmd.flex_created, 1);
	assert_int_equal(pmd.flex_released, 1);
	assert_non_null(strstr(out.why, "flex: IPv4 rule 1 not created: no room"));
	check_rules_follow_owner(&in, false);
	eng_steer_port_clear(&fake_ops, 0, &out);
}

static void
test_xring_size(void **state)
{
	(void)state;
	assert_int_equal(eng_xring_size(UINT64_C(100) * 1000000000, 32), 4096);
	assert_int_equal(eng_xring_size(UINT64_C(400) * 1000000000, 32), 16384);
	assert_int_equal(eng_xring_size(UINT64_C(10) * 1000000000, 32), ENG_XRING_MIN);
	assert_int_equal(eng_xring_size(UINT64_C(10) * 1000000000, 512), 2048);
	assert_int_equal(eng_xring_size(UINT64_C(3200) * 1000000000, 32), ENG_XRING_MAX);
}

/* Backpressure: an RX burst goes ahead only with room for a whole burst
 * in every hand-over ring (records and, in forward mode, mbufs). */
static void
test_xout_room(void **state)
{
	static struct eng_lcore lc;
	struct eng_ev ev[64];
	struct rte_ring *x, *f;
	void *objs[64];

	(void)state;
	memset(&lc, 0, sizeof(lc));
	memset(ev, 0, sizeof(ev));
	memset(objs, 0, sizeof(objs));
	assert_true(eng_xout_room(&lc, 32)); /* hands nothing over */
	x = rte_ring_create_elem("steer_x", sizeof(struct eng_ev), 64, SOCKET_ID_ANY,
			RING_F_SP_ENQ | RING_F_SC_DEQ);
	f = rte_ring_create("steer_f", 64, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	assert_non_null(x);
	assert_non_null(f);
	lc.xout[1] = x;
	lc.xout_rank[lc.nb_xout++] = 1;
	assert_true(eng_xout_room(&lc, 32)); /* 63 free */
	assert_int_equal(rte_ring_enqueue_burst_elem(x, ev, sizeof(ev[0]), 31, NULL), 31);
	assert_true(eng_xout_room(&lc, 32)); /* 32 free: exactly a burst */
	assert_int_equal(rte_ring_enqueue_burst_elem(x, ev, sizeof(ev[0]), 1, NULL), 1);
	assert_false(eng_xout_room(&lc, 32));
	assert_true(eng_xout_room(&lc, 31));
	assert_int_equal(rte_ring_dequeue_burst_elem(x, ev, sizeof(ev[0]), 32, NULL), 32);
	assert_true(eng_xout_room(&lc, 32));
	/* the forwarded-mbuf ring of the same pair counts too */
	lc.fout[1] = f;
	assert_int_equal(rte_ring_enqueue_burst(f, objs, 40, NULL), 40);
	assert_false(eng_xout_room(&lc, 32));
	assert_true(eng_xout_room(&lc, 23));
	rte_ring_free(x);
	rte_ring_free(f);
}

/* ---- Two lcores on a ring pair ------------------------------------------------ */

/* lcore 1's half, handed over when not steered, is more than a ring holds */
#define NB_FLOWS 12288
#define QPN_BASE 0x100
#define RING_SIZE 16384

static struct rte_mempool *mp;

struct peer {
	struct pcc_engine *e;
	uint16_t pa, pb;
	bool steer; /* send each CNP to pcc_engine_steer_rxq(), else queue 0 */
	uint32_t next;
	bool sent_all, done, timeout;
	uint64_t deadline;
	uint8_t cnp[128];
	int cnp_len;
	struct pcc_l3_spec l3;
};

static uint64_t
cnp_events(struct peer *p)
{
	struct pcc_engine_port_stats st;

	pcc_engine_port_stats_get(p->e, p->pa, &st);
	return st.ev[PCC_DEV_EVENT_CNP];
}

/* Main lcore's tick: wait for the flows, send a CNP to each, wait for
 * their events. */
static int
peer_tick(void *arg)
{
	struct peer *p = arg;
	unsigned int k;

	peer_drain(p->pb, 2);
	if (rte_rdtsc() > p->deadline) {
		p->timeout = true;
		return 1;
	}
	if (!p->sent_all) {
		if (pcc_engine_flow_count(p->e) < NB_FLOWS)
			return 0;
		for (k = 0; k < 64 && p->next < NB_FLOWS; k++) {
			uint32_t qpn = QPN_BASE + p->next;
			struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
			int q = p->steer ? pcc_engine_steer_rxq(p->e, p->pa, qpn) : 0;

			if (m == NULL)
				break; /* the engine frees what it took: next tick */
			assert_true(q >= 0);
			p->l3.udp_sport = pcc_roce_udp_sport(qpn, qpn);
			p->cnp_len = pcc_cnp_build(
					rte_pktmbuf_mtod(m, uint8_t *), 128, &p->l3, qpn);
			assert_true(p->cnp_len > 0);
			m->data_len = m->pkt_len = (uint32_t)p->cnp_len;
			/* side B's TX queue q fills side A's RX queue q; the
			 * ring holds them all */
			assert_int_equal(rte_eth_tx_burst(p->pb, (uint16_t)q, &m, 1), 1);
			p->next++;
		}
		p->sent_all = p->next == NB_FLOWS;
		return 0;
	}
	if (cnp_events(p) < NB_FLOWS)
		return 0;
	p->done = true;
	return 1;
}

static void
run_two_lcores(bool steer)
{
	static struct pcc_engine_conf conf;
	static struct peer p;
	struct pcc_engine_lcore_stats ls[2];
	struct pcc_engine_port_stats st;
	struct pcc_engine_gen_group grp;
	struct pcc_engine_rxq_conf rxq[2];
	struct pcc_ring_pair *rp;
	unsigned int lcores[2], k;
	uint32_t i, owned1 = 0;

	lcores[0] = rte_get_main_lcore();
	lcores[1] = rte_get_next_lcore(lcores[0], 1, 0);
	assert_true(lcores[1] < RTE_MAX_LCORE);
	rp = pcc_ring_pair_create(
			steer ? "st_on" : "st_off", 2, 2, RING_SIZE, (int)rte_socket_id());
	assert_non_null(rp);
	memset(&p, 0, sizeof(p));
	p.steer = steer;
	p.pa = pcc_ring_pair_port(rp, 0);
	p.pb = pcc_ring_pair_port(rp, 1);
	peer_port_start(p.pb, 2, RING_SIZE, mp);

	pcc_engine_conf_default(&conf);
	conf.port[p.pa].roles = PCC_ENGINE_ROLE_RP;
	for (k = 0; k < 2; k++) {
		rxq[k].port_id = p.pa;
		rxq[k].queue_id = (uint16_t)k;
		rxq[k].lcore_id = lcores[k];
	}
	conf.rxq = rxq;
	conf.nb_rxq_conf = 2;
	conf.nb_rxq = 2;
	conf.nb_rxd = 1024; /* the ring pair's rings hold RING_SIZE */
	conf.nb_txd = 1024;
	conf.nb_mbufs = 2 * NB_FLOWS + 8192;
	conf.flow.capacity = 4 * NB_FLOWS;
	conf.flow.idle_ms = 0;
	peer_gen_flows(&conf, &grp, p.pa, NB_FLOWS, QPN_BASE);
	peer_l3_init(&p.l3);
	p.deadline = rte_rdtsc() + 60 * rte_get_tsc_hz(); /* a hang, not a timing */
	p.e = pcc_engine_create(&conf);
	assert_non_null(p.e);
	/* a ring pair has no rte_flow: the peer steers (pcc_engine_steer_rxq) */
	assert_int_equal(pcc_engine_port_steer(p.e, p.pa), PCC_ENGINE_STEER_HANDOVER);
	assert_int_equal(pcc_engine_start(p.e), 0);
	pcc_engine_main_loop(p.e, peer_tick, &p, 10);
	pcc_engine_stop(p.e);
	pcc_engine_wait(p.e);

	assert_false(p.timeout);
	assert_true(p.done);
	pcc_engine_port_stats_get(p.e, p.pa, &st);
	assert_int_equal(st.ev[PCC_DEV_EVENT_CNP], NB_FLOWS);
	assert_int_equal(st.rp_no_flow, 0);
	assert_int_equal(st.xring_drop, 0);
	for (k = 0; k < 2; k++)
		assert_int_equal(pcc_engine_lcore_stats_get(p.e, lcores[k], &ls[k]), 0);
	/* every flow: its CNP handled once, by the owner the steering names */
	for (i = 0; i < NB_FLOWS; i++) {
		struct pcc_engine_flow_info fi;
		struct pcc_engine_flow_key key;
		int q1 = pcc_engine_steer_rxq(p.e, p.pa, QPN_BASE + i);

		pcc_engine_flow_key_qp(&key, p.pa, QPN_BASE + i);
		assert_int_equal(pcc_engine_flow_get(p.e, &key, &fi), 0);
		assert_int_equal(fi.cnp_rx, 1);
		assert_int_equal(fi.lcore_id, lcores[q1]);
		owned1 += q1 == 1;
	}
	assert_int_equal(owned1, NB_FLOWS / 2);
	if (steer) {
		/* nothing crossed lcores */
		assert_int_equal(ls[0].xring_out + ls[1].xring_out, 0);
		assert_int_equal(ls[0].xring_in + ls[1].xring_in, 0);
	} else {
		/* lcore 0 received all: lcore 1's flows' records handed over */
		assert_int_equal(ls[0].xring_out, owned1);
		assert_int_equal(ls[1].xring_in, owned1);
	}
	pcc_engine_destroy(p.e);
	rte_eth_dev_stop(p.pb);
	pcc_ring_pair_free(rp);
}

static void
test_two_lcores_steered(void **state)
{
	(void)state;
	run_two_lcores(true);
}

static void
test_two_lcores_handover(void **state)
{
	(void)state;
	run_two_lcores(false);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steer_hash_fields),
		cmocka_unit_test(test_steer_owner_table),
		cmocka_unit_test(test_steer_one_owner),
		cmocka_unit_test(test_steer_flow_pow2),
		cmocka_unit_test(test_steer_flow_3_v4_only),
		cmocka_unit_test(test_steer_no_flow),
		cmocka_unit_test(test_steer_create_fails),
		cmocka_unit_test(test_steer_flex_mlx5),
		cmocka_unit_test(test_steer_flex_after_raw),
		cmocka_unit_test(test_steer_flex_refused),
		cmocka_unit_test(test_xring_size),
		cmocka_unit_test(test_xout_room),
		cmocka_unit_test(test_two_lcores_steered),
		cmocka_unit_test(test_two_lcores_handover),
	};
	int ret;

	mp = peer_env_init("test_engine_steer", "0-1", "steer_peer", 16383);
	if (mp == NULL)
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	rte_mempool_free(mp);
	test_eal_cleanup();
	return ret;
}
