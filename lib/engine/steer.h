/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef ENGINE_STEER_H
#define ENGINE_STEER_H

/*
 * Steering that follows flow ownership (steer.c, doc/engine.md,
 * "Steering").  The owner of a QP flow is a function of its QPN's low
 * byte (the "bucket"): owner index = steer_owner[qpn & 0xFF].  The port's
 * CC packets name that QPN in the BTH DestQP, so a port that can match the
 * DestQP's low byte delivers them to the owner's RX queue: one rte_flow
 * rule per distinct value of the table's period (ETH / IPV4|IPV6 /
 * UDP dst 4791 / DestQP, 3 bytes, masked -> QUEUE), the DestQP matched by
 * a RAW item (5 bytes into the UDP payload) or, where the PMD takes flex
 * items instead (mlx5), by a flex item describing the BTH.  The PMD is
 * asked through a small ops struct so that the decision is unit-tested
 * with fakes (tests/unit/test_engine_steer.c).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_flow.h>

#define ENG_STEER_BUCKETS 256 /* the QPN's low byte */
/* RETA entries programmed at most (RTE_ETH_RSS_RETA_SIZE_512) */
#define ENG_STEER_RETA_MAX 512
/* rules at most: a bucket per rule, IPv4 and IPv6 */
#define ENG_STEER_RULES_MAX (2 * ENG_STEER_BUCKETS)
/* BTH DestQP: bytes 5..7 of the BTH, i.e. of the UDP payload */
#define ENG_STEER_DQPN_OFF 5
/* the flex item's sample: the BTH's 32-bit word at byte 4 (DestQP's) */
#define ENG_STEER_FLEX_WORD 4

/* How a rule matches the DestQP (eng_steer_out.item). */
enum eng_steer_item {
	ENG_STEER_ITEM_NONE,
	ENG_STEER_ITEM_RAW,  /* RAW, relative to the UDP header */
	ENG_STEER_ITEM_FLEX, /* a flex item: the BTH after UDP 4791 (mlx5) */
};

/* What the engine asks of a PMD (ethdev and rte_flow in production). */
struct eng_steer_ops {
	int (*dev_info)(uint16_t port_id, struct rte_eth_dev_info *info);
	int (*reta_update)(uint16_t port_id, struct rte_eth_rss_reta_entry64 *conf,
			uint16_t reta_size);
	int (*flow_validate)(uint16_t port_id, const struct rte_flow_attr *attr,
			const struct rte_flow_item pattern[],
			const struct rte_flow_action actions[], struct rte_flow_error *err);
	struct rte_flow *(*flow_create)(uint16_t port_id, const struct rte_flow_attr *attr,
			const struct rte_flow_item pattern[],
			const struct rte_flow_action actions[], struct rte_flow_error *err);
	int (*flow_destroy)(uint16_t port_id, struct rte_flow *flow, struct rte_flow_error *err);
	/* flex items (NULL: none); rte_flow_flex_item_create()/release() */
	struct rte_flow_item_flex_handle *(*flex_create)(uint16_t port_id,
			const struct rte_flow_item_flex_conf *conf, struct rte_flow_error *err);
	int (*flex_release)(uint16_t port_id, const struct rte_flow_item_flex_handle *handle,
			struct rte_flow_error *err);
};

/* rte_eth_dev_info_get(), rte_eth_dev_rss_reta_update(), rte_flow_*(). */
extern const struct eng_steer_ops eng_steer_ethdev_ops;

/* One port's steering problem. */
struct eng_steer_in {
	uint16_t port_id;
	uint16_t nb_rxq;    /* RX queues configured */
	uint16_t nb_owners; /* lcores polling the port */
	/* RX queue the owner of each bucket polls (its first on the port) */
	uint16_t bucket_rxq[ENG_STEER_BUCKETS];
	/* queues some lcore polls (RSS must not reach any other) */
	uint16_t nb_polled;
	const uint16_t *polled; /* [nb_polled] */
};

/* What was done. */
struct eng_steer_out {
	uint8_t mode;                           /* enum pcc_engine_steer */
	bool reta_set;                          /* RETA programmed over the polled queues */
	uint16_t reta_size;                     /* the PMD's, 0 if none */
	uint16_t period;                        /* buckets per distinct rule (power of two) */
	bool ipv6;                              /* IPv6 rules too */
	uint16_t nb_flows;                      /* rules installed */
	uint8_t item;                           /* enum eng_steer_item of the rules */
	struct rte_flow_item_flex_handle *flex; /* ITEM_FLEX: the BTH item */
	struct rte_flow *flows[ENG_STEER_RULES_MAX];
	char why[192]; /* HANDOVER: what the PMD refused, each way tried */
};

/* The flex item of the BTH (12 bytes after UDP 4791, its second word
 * sampled: the item's pattern is that word, the DestQP its last 3 bytes),
 * as steer.c creates it. */
struct eng_steer_flex {
	struct rte_flow_item_flex_conf conf;
	struct rte_flow_item_flex_field sample;
	struct rte_flow_item_flex_link link;
	struct rte_flow_item_udp udp_spec, udp_mask;
};

void eng_steer_flex_conf(struct eng_steer_flex *f);

/* RSS hash fields the engine asks for, of those the PMD offers. */
uint64_t eng_steer_rss_hf(uint64_t flow_type_rss_offloads);

/* Bucket -> owner index table of a port with nb_owners (>= 1) owners. */
void eng_steer_owner_table(uint16_t nb_owners, uint16_t tbl[ENG_STEER_BUCKETS]);

/*
 * Decide and program one port: with fewer than two owners nothing
 * (PCC_ENGINE_STEER_NONE); else the RETA over the polled queues (when the
 * PMD has one), then the DestQP rules when the PMD validates them
 * (PCC_ENGINE_STEER_FLOW), else PCC_ENGINE_STEER_HANDOVER.  A rule the
 * PMD validated but would not create: those created are destroyed,
 * HANDOVER.  Returns out->mode.
 */
int eng_steer_port(const struct eng_steer_ops *ops, const struct eng_steer_in *in,
		struct eng_steer_out *out);

/* Destroy out's rules. */
void eng_steer_port_clear(
		const struct eng_steer_ops *ops, uint16_t port_id, struct eng_steer_out *out);

#endif /* ENGINE_STEER_H */
