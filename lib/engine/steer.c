/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Steering that follows flow ownership (steer.h, doc/engine.md,
 * "Steering").
 *
 * Why rules on the DestQP and not RSS alone: a QP flow's owner must be
 * known before any of its packets arrives (the generator builds its
 * packets on the owner), so it is a function of the QPN.  RSS hashes IP
 * addresses and L4 ports: the UDP source port of a CNP or an ACK is
 * chosen by the peer, and the QPN is no RSS input, so no RETA can follow
 * a QPN-based owner.  DPDK 22.11 has no BTH item (RTE_FLOW_ITEM_TYPE_IB_BTH
 * came in 23.07): the rules match the DestQP with a RAW item relative to
 * the UDP header or, on a PMD that parses flexible headers instead (mlx5:
 * rte_flow_flex_item_create(), no RAW), with a flex item that describes
 * the BTH (12 bytes after UDP 4791) and samples its DestQP.  mlx5 is asked
 * for the flex item first, any other PMD for RAW first; a PMD that
 * refuses both leaves the port in HANDOVER: RSS spreads the CC packets
 * and the receiving lcore hands each event to its owner (with
 * backpressure, worker.c).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_malloc.h>

#include "engine_internal.h"
#include "steer.h"

uint64_t
eng_steer_rss_hf(uint64_t flow_type_rss_offloads)
{
	return flow_type_rss_offloads & (RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP);
}

void
eng_steer_owner_table(uint16_t nb_owners, uint16_t tbl[ENG_STEER_BUCKETS])
{
	unsigned int b;

	for (b = 0; b < ENG_STEER_BUCKETS; b++)
		tbl[b] = nb_owners > 1 ? (uint16_t)(b % nb_owners) : 0;
}

/* Smallest power of two p such that bucket b and b % p go to one queue. */
static uint16_t
table_period(const uint16_t *rxq)
{
	uint16_t p;
	unsigned int b;

	for (p = 1; p < ENG_STEER_BUCKETS; p = (uint16_t)(p * 2)) {
		for (b = p; b < ENG_STEER_BUCKETS; b++)
			if (rxq[b] != rxq[b % p])
				break;
		if (b == ENG_STEER_BUCKETS)
			return p;
	}
	return ENG_STEER_BUCKETS;
}

void
eng_steer_flex_conf(struct eng_steer_flex *f)
{
	memset(f, 0, sizeof(*f));
	/* the header: 12 bytes (a fixed length: no length field) */
	f->conf.tunnel = FLEX_TUNNEL_MODE_SINGLE;
	f->conf.next_header.field_mode = FIELD_MODE_FIXED;
	f->conf.next_header.field_base = PCC_BTH_LEN * 8;
	/* no next protocol (nothing parsed after it), no output link */
	f->conf.next_protocol.field_mode = FIELD_MODE_DUMMY;
	/* one field, the BTH's second word (byte 4: FECN, BECN, reserved;
	 * bytes 5-7: the DestQP), the item's 4-byte pattern: a whole 32-bit
	 * word: mlx5 before DPDK's "fix non full word sample fields in flex
	 * item" mishandled narrower samples and matched every packet */
	f->sample.field_mode = FIELD_MODE_FIXED;
	f->sample.field_base = ENG_STEER_FLEX_WORD * 8;
	f->sample.field_size = 32;
	f->conf.sample_data = &f->sample;
	f->conf.nb_samples = 1;
	/* after UDP with destination port 4791 (the mask: that field alone) */
	f->udp_spec.hdr.dst_port = rte_cpu_to_be_16(PCC_ROCE_UDP_PORT);
	f->udp_mask.hdr.dst_port = RTE_BE16(0xffff);
	f->link.item.type = RTE_FLOW_ITEM_TYPE_UDP;
	f->link.item.spec = &f->udp_spec;
	f->link.item.mask = &f->udp_mask;
	f->conf.input_link = &f->link;
	f->conf.nb_inputs = 1;
}

/*
 * A rule: ETH / IPv4|IPv6 / UDP dst 4791 / DestQP & mask == value -> QUEUE,
 * the DestQP a RAW item (flex == NULL) or the BTH flex item's pattern.
 */
struct steer_rule {
	struct rte_flow_attr attr;
	struct rte_flow_item pattern[5];
	struct rte_flow_action actions[2];
	struct rte_flow_item_udp udp_spec, udp_mask;
	struct rte_flow_item_raw raw_spec, raw_mask;
	struct rte_flow_item_flex flex_spec, flex_mask;
	struct rte_flow_action_queue queue;
	uint8_t dqpn[3], dqpn_mask[3];
	uint8_t word[4], word_mask[4]; /* flex: the BTH's second word */
};

static void
rule_build(struct steer_rule *r, bool ipv6, struct rte_flow_item_flex_handle *flex, uint8_t value,
		uint8_t mask, uint16_t queue)
{
	memset(r, 0, sizeof(*r));
	r->attr.ingress = 1;
	r->udp_spec.hdr.dst_port = rte_cpu_to_be_16(PCC_ROCE_UDP_PORT);
	r->udp_mask.hdr.dst_port = RTE_BE16(0xffff);
	r->dqpn[2] = value;
	r->dqpn_mask[2] = mask;
	r->pattern[0].type = RTE_FLOW_ITEM_TYPE_ETH;
	r->pattern[1].type = ipv6 ? RTE_FLOW_ITEM_TYPE_IPV6 : RTE_FLOW_ITEM_TYPE_IPV4;
	r->pattern[2].type = RTE_FLOW_ITEM_TYPE_UDP;
	r->pattern[2].spec = &r->udp_spec;
	r->pattern[2].mask = &r->udp_mask;
	if (flex != NULL) {
		r->word[3] = value;
		r->word_mask[3] = mask;
		r->flex_spec.handle = flex;
		r->flex_spec.length = sizeof(r->word);
		r->flex_spec.pattern = r->word;
		r->flex_mask.handle = flex;
		r->flex_mask.length = sizeof(r->word_mask);
		r->flex_mask.pattern = r->word_mask;
		r->pattern[3].type = RTE_FLOW_ITEM_TYPE_FLEX;
		r->pattern[3].spec = &r->flex_spec;
		r->pattern[3].mask = &r->flex_mask;
	} else {
		r->raw_spec.relative = 1;
		r->raw_spec.offset = ENG_STEER_DQPN_OFF;
		r->raw_spec.length = sizeof(r->dqpn);
		r->raw_spec.pattern = r->dqpn;
		r->raw_mask.relative = 1;
		r->raw_mask.offset = -1;
		r->raw_mask.length = 0xffff;
		r->raw_mask.pattern = r->dqpn_mask;
		r->pattern[3].type = RTE_FLOW_ITEM_TYPE_RAW;
		r->pattern[3].spec = &r->raw_spec;
		r->pattern[3].mask = &r->raw_mask;
	}
	r->pattern[4].type = RTE_FLOW_ITEM_TYPE_END;
	r->queue.index = queue;
	r->actions[0].type = RTE_FLOW_ACTION_TYPE_QUEUE;
	r->actions[0].conf = &r->queue;
	r->actions[1].type = RTE_FLOW_ACTION_TYPE_END;
}

static void
reta_program(const struct eng_steer_ops *ops, const struct eng_steer_in *in,
		struct eng_steer_out *out)
{
	struct rte_eth_rss_reta_entry64 reta[ENG_STEER_RETA_MAX / RTE_ETH_RETA_GROUP_SIZE];
	unsigned int i;

	if (out->reta_size == 0 || out->reta_size > ENG_STEER_RETA_MAX || in->nb_polled == 0 ||
			in->nb_rxq < 2)
		return;
	memset(reta, 0, sizeof(reta));
	for (i = 0; i < out->reta_size; i++) {
		reta[i / RTE_ETH_RETA_GROUP_SIZE].mask |= UINT64_C(1)
				<< (i % RTE_ETH_RETA_GROUP_SIZE);
		reta[i / RTE_ETH_RETA_GROUP_SIZE].reta[i % RTE_ETH_RETA_GROUP_SIZE] =
				in->polled[i % in->nb_polled];
	}
	out->reta_set = ops->reta_update(in->port_id, reta, out->reta_size) == 0;
}

/* Append to out->why (what each way tried was refused). */
static void
why_add(struct eng_steer_out *out, const char *item, const char *what, const char *msg)
{
	size_t n = strlen(out->why);

	snprintf(out->why + n, sizeof(out->why) - n, "%s%s: %s: %s", n > 0 ? "; " : "", item, what,
			msg != NULL ? msg : "no reason given");
}

/* Validate, then create, the rules of one IP version.  0 or -1. */
static int
rules_add(const struct eng_steer_ops *ops, const struct eng_steer_in *in, struct eng_steer_out *out,
		bool ipv6)
{
	const char *item = out->flex != NULL ? "flex" : "RAW";
	struct rte_flow_error err;
	struct steer_rule r;
	char what[48];
	uint16_t v;

	rule_build(&r, ipv6, out->flex, 0, (uint8_t)(out->period - 1), in->bucket_rxq[0]);
	memset(&err, 0, sizeof(err));
	if (ops->flow_validate(in->port_id, &r.attr, r.pattern, r.actions, &err) != 0) {
		snprintf(what, sizeof(what), "%s rule refused", ipv6 ? "IPv6" : "IPv4");
		why_add(out, item, what, err.message);
		return -1;
	}
	for (v = 0; v < out->period; v++) {
		struct rte_flow *f;

		rule_build(&r, ipv6, out->flex, (uint8_t)v, (uint8_t)(out->period - 1),
				in->bucket_rxq[v]);
		memset(&err, 0, sizeof(err));
		f = ops->flow_create(in->port_id, &r.attr, r.pattern, r.actions, &err);
		if (f == NULL) {
			snprintf(what, sizeof(what), "%s rule %u not created",
					ipv6 ? "IPv6" : "IPv4", v);
			why_add(out, item, what, err.message);
			return -1;
		}
		out->flows[out->nb_flows++] = f;
	}
	return 0;
}

void
eng_steer_port_clear(const struct eng_steer_ops *ops, uint16_t port_id, struct eng_steer_out *out)
{
	struct rte_flow_error err;

	while (out->nb_flows > 0)
		ops->flow_destroy(port_id, out->flows[--out->nb_flows], &err);
	/* the flex item once no rule refers to it */
	if (out->flex != NULL && ops->flex_release != NULL) {
		memset(&err, 0, sizeof(err));
		if (ops->flex_release(port_id, out->flex, &err) != 0)
			ENG_LOG(WARNING, "port %u: steering: flex item not released: %s", port_id,
					err.message != NULL ? err.message : "no reason given");
	}
	out->flex = NULL;
	out->item = ENG_STEER_ITEM_NONE;
}

/* The rules with DestQP matched by item: IPv4, IPv6 if the PMD takes
 * them.  0, or -1 with nothing left installed. */
static int
rules_try(const struct eng_steer_ops *ops, const struct eng_steer_in *in, struct eng_steer_out *out,
		uint8_t item)
{
	if (item == ENG_STEER_ITEM_FLEX) {
		struct rte_flow_error err;
		struct eng_steer_flex f;

		if (ops->flex_create == NULL) {
			why_add(out, "flex", "item", "no flex items");
			return -1;
		}
		eng_steer_flex_conf(&f);
		memset(&err, 0, sizeof(err));
		out->flex = ops->flex_create(in->port_id, &f.conf, &err);
		if (out->flex == NULL) {
			why_add(out, "flex", "BTH item refused", err.message);
			return -1;
		}
	}
	out->item = item;
	if (rules_add(ops, in, out, false) != 0) {
		eng_steer_port_clear(ops, in->port_id, out);
		return -1;
	}
	/* IPv6 as well where the PMD takes it; IPv4 alone is still steering */
	out->ipv6 = rules_add(ops, in, out, true) == 0;
	if (!out->ipv6) {
		/* keep the IPv4 rules, drop a partial IPv6 set */
		while (out->nb_flows > out->period) {
			struct rte_flow_error err;

			ops->flow_destroy(in->port_id, out->flows[--out->nb_flows], &err);
		}
	}
	return 0;
}

int
eng_steer_port(const struct eng_steer_ops *ops, const struct eng_steer_in *in,
		struct eng_steer_out *out)
{
	struct rte_eth_dev_info info;
	bool flex_first;

	memset(out, 0, sizeof(*out));
	if (in->nb_owners < 2) {
		out->mode = PCC_ENGINE_STEER_NONE;
		return out->mode;
	}
	out->mode = PCC_ENGINE_STEER_HANDOVER;
	memset(&info, 0, sizeof(info));
	if (ops->dev_info(in->port_id, &info) != 0) {
		snprintf(out->why, sizeof(out->why), "no device info");
		return out->mode;
	}
	if (eng_steer_rss_hf(info.flow_type_rss_offloads) != 0)
		out->reta_size = info.reta_size;
	reta_program(ops, in, out);
	out->period = table_period(in->bucket_rxq);
	/* mlx5 parses the BTH through a flex item and has no RAW item: asked
	 * for the flex item first; any other PMD for RAW first */
	flex_first = info.driver_name != NULL && strncmp(info.driver_name, "mlx5", 4) == 0;
	if (rules_try(ops, in, out, flex_first ? ENG_STEER_ITEM_FLEX : ENG_STEER_ITEM_RAW) != 0 &&
			rules_try(ops, in, out,
					flex_first ? ENG_STEER_ITEM_RAW : ENG_STEER_ITEM_FLEX) != 0)
		return out->mode;
	out->mode = PCC_ENGINE_STEER_FLOW;
	return out->mode;
}

/* ---- ethdev / rte_flow ------------------------------------------------------ */

static int
ethdev_reta_update(uint16_t port_id, struct rte_eth_rss_reta_entry64 *conf, uint16_t reta_size)
{
	return rte_eth_dev_rss_reta_update(port_id, conf, reta_size);
}

const struct eng_steer_ops eng_steer_ethdev_ops = {
	.dev_info = rte_eth_dev_info_get,
	.reta_update = ethdev_reta_update,
	.flow_validate = rte_flow_validate,
	.flow_create = rte_flow_create,
	.flow_destroy = rte_flow_destroy,
	.flex_create = rte_flow_flex_item_create,
	.flex_release = rte_flow_flex_item_release,
};

/* ---- Engine ----------------------------------------------------------------- */

/* The first RX queue lc polls on port index pidx. */
static uint16_t
lcore_rxq(const struct eng_lcore *lc, uint16_t pidx)
{
	uint32_t i;

	for (i = 0; i < lc->nb_rxq; i++)
		if (lc->rxq[i].pidx == pidx)
			return lc->rxq[i].queue_id;
	return 0;
}

static const char *
steer_name(int mode)
{
	switch (mode) {
	case PCC_ENGINE_STEER_NONE:
		return "none (one lcore)";
	case PCC_ENGINE_STEER_FLOW:
		return "flow rules on the BTH DestQP";
	default:
		return "hand-over between lcores";
	}
}

int
eng_steer_setup(struct pcc_engine *e)
{
	uint16_t pidx;

	for (pidx = 0; pidx < e->nb_ports; pidx++) {
		struct eng_port *p = &e->ports[pidx];
		uint16_t polled[1024];
		struct eng_steer_in in;
		unsigned int b, k;
		uint32_t i;

		eng_steer_owner_table(p->nb_owners, p->steer_owner);
		p->steer_mode = PCC_ENGINE_STEER_NONE;
		if (p->nb_owners == 0)
			continue;
		memset(&in, 0, sizeof(in));
		in.port_id = p->port_id;
		in.nb_rxq = p->nb_rxq;
		in.nb_owners = p->nb_owners;
		for (b = 0; b < ENG_STEER_BUCKETS; b++) {
			p->steer_rxq[b] = lcore_rxq(p->owners[p->steer_owner[b]], pidx);
			in.bucket_rxq[b] = p->steer_rxq[b];
		}
		if (!(p->roles & PCC_ENGINE_ROLE_RP) || p->nb_owners < 2)
			continue;
		for (k = 0; k < p->nb_owners; k++) {
			const struct eng_lcore *lc = p->owners[k];

			for (i = 0; i < lc->nb_rxq && in.nb_polled < RTE_DIM(polled); i++)
				if (lc->rxq[i].pidx == pidx)
					polled[in.nb_polled++] = lc->rxq[i].queue_id;
		}
		in.polled = polled;
		p->steer = rte_zmalloc("pcc_steer", sizeof(*p->steer), 0);
		if (p->steer == NULL)
			return -ENOMEM;
		p->steer_mode = (uint8_t)eng_steer_port(&eng_steer_ethdev_ops, &in, p->steer);
		if (p->steer_mode == PCC_ENGINE_STEER_FLOW)
			ENG_LOG(INFO,
					"port %u: steering: %s (%s item), %u rules (%s), RETA %s: "
					"every CC packet reaches its flow's owner",
					p->port_id, steer_name(p->steer_mode),
					p->steer->item == ENG_STEER_ITEM_FLEX ? "flex" : "RAW",
					p->steer->nb_flows,
					p->steer->ipv6 ? "IPv4 and IPv6" : "IPv4 only",
					p->steer->reta_set ? "over the polled queues" : "as is");
		else
			ENG_LOG(NOTICE,
					"port %u: steering: %s (%s); RETA %s: CC packets an lcore "
					"receives for another's flow are handed over (Xring-wait, "
					"Xring-drop)",
					p->port_id, steer_name(p->steer_mode), p->steer->why,
					p->steer->reta_set ? "over the polled queues" : "as is");
	}
	return 0;
}

void
eng_steer_teardown(struct pcc_engine *e)
{
	uint16_t pidx;

	for (pidx = 0; pidx < e->nb_ports; pidx++) {
		struct eng_port *p = &e->ports[pidx];

		if (p->steer == NULL)
			continue;
		if (p->configured)
			eng_steer_port_clear(&eng_steer_ethdev_ops, p->port_id, p->steer);
		rte_free(p->steer);
		p->steer = NULL;
	}
}

int
pcc_engine_port_steer(const struct pcc_engine *e, uint16_t port_id)
{
	if (e == NULL || port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return -ENOENT;
	return e->ports[e->pidx[port_id]].steer_mode;
}

const char *
pcc_engine_steer_name(int steer)
{
	switch (steer) {
	case PCC_ENGINE_STEER_NONE:
		return "none";
	case PCC_ENGINE_STEER_FLOW:
		return "flow";
	case PCC_ENGINE_STEER_HANDOVER:
		return "handover";
	default:
		return NULL;
	}
}

int
pcc_engine_steer_rxq(const struct pcc_engine *e, uint16_t port_id, uint32_t qpn)
{
	const struct eng_port *p;

	if (e == NULL || port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return -ENOENT;
	p = &e->ports[e->pidx[port_id]];
	if (p->nb_owners == 0)
		return -ENOENT;
	return p->steer_rxq[qpn & (ENG_STEER_BUCKETS - 1)];
}
