/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * What the pacer tests share: packets tagged with their flow and sequence
 * number, allocated from the including test's pool (its static mp,
 * declared before this header is included).
 */

#ifndef TEST_PACER_COMMON_H
#define TEST_PACER_COMMON_H

#include <stdint.h>

#include <rte_mbuf.h>

struct tag {
	uint32_t flow;
	uint32_t seq;
};

/* A packet of flow, number seq, len bytes long (pkt_len), from mp. */
static inline struct rte_mbuf *
pkt(uint32_t flow, uint32_t seq, uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	struct tag *t;

	assert_non_null(m);
	t = rte_pktmbuf_mtod(m, struct tag *);
	t->flow = flow;
	t->seq = seq;
	m->data_len = sizeof(*t);
	m->pkt_len = len;
	return m;
}

static inline const struct tag *
tag_of(const struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod(m, const struct tag *);
}

#endif /* TEST_PACER_COMMON_H */
