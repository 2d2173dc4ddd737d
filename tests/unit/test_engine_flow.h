/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_ENGINE_FLOW_H
#define TEST_ENGINE_FLOW_H

/*
 * What test_engine_flow.c and test_engine_flow_queues.c share: the table
 * under test (ft, one per test binary), its making, and adding and
 * looking up QP flows of port 0.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "engine_internal.h"

#define MS 1000000ull
#define CAP 64

static struct eng_ftable ft;
static unsigned int table_seq;
static unsigned int evictions;
static uint32_t last_evicted;

static inline void
evict_cb(struct eng_flow *f, uint32_t idx, void *arg)
{
	(void)arg;
	(void)f;
	evictions++;
	last_evicted = idx;
}

/* A fresh table of cap flows, lists 0 .. nb_lists - 1 (at most 16),
 * 48-byte contexts. */
static inline void
table_new_lists(uint32_t cap, uint8_t full, uint64_t idle_ns, uint16_t nb_lists)
{
	struct eng_ftable_conf c;
	char name[32];

	snprintf(name, sizeof(name), "ft_test_%u", table_seq++);
	memset(&c, 0, sizeof(c));
	c.name = name;
	c.cap = cap;
	c.ctx_size = 48;
	c.full = full;
	c.idle_ns = idle_ns;
	c.nb_lists = nb_lists;
	c.list_mask = (UINT64_C(1) << nb_lists) - 1;
	c.timer_fifo = true;
	c.socket = SOCKET_ID_ANY;
	assert_int_equal(eng_ftable_init(&ft, &c), 0);
	evictions = 0;
	last_evicted = ENG_NONE;
}

/* A fresh table of cap flows, two lists (0 and 1), 48-byte contexts. */
static inline void
table_new(uint32_t cap, uint8_t full, uint64_t idle_ns)
{
	table_new_lists(cap, full, idle_ns, 2);
}

static inline struct eng_flow *
add(uint32_t qpn, uint16_t lp, uint64_t now, bool *created)
{
	struct pcc_engine_flow_key k;
	struct eng_flow_init init = { .lp = lp, .dev_port = 0, .slot = 3 };
	uint64_t nows[16];
	unsigned int i;
	bool c;

	for (i = 0; i < RTE_DIM(nows); i++)
		nows[i] = now;

	pcc_engine_flow_key_qp(&k, 0, qpn);
	return eng_flow_add(&ft, &k, eng_flow_hash(&k), &init, now, nows, evict_cb, NULL,
			created != NULL ? created : &c);
}

static inline struct eng_flow *
lookup(uint32_t qpn)
{
	struct pcc_engine_flow_key k;

	pcc_engine_flow_key_qp(&k, 0, qpn);
	return eng_flow_lookup(&ft, &k, eng_flow_hash(&k));
}

#endif /* TEST_ENGINE_FLOW_H */
