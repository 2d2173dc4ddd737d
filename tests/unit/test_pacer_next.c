/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Wheel pacer: when the next packet is due (pcc_pacer_next_due(), what a
 * poll loop may sleep or a simulator skip until) and how a rate change
 * moves a waiting flow's next departure.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "pcc_pacer.h"
#include "pcc_pacer_drivers.h"
#include "test_eal.h"

#define LINE 100000000000ull
#define FRAME 1226 /* + 24 bytes of wire overhead: 1250 bytes, 100 ns at line rate */

static struct rte_mempool *mp;

static struct rte_mbuf *
pkt(void)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);

	assert_non_null(m);
	m->data_len = 64;
	m->pkt_len = FRAME;
	return m;
}

static struct pcc_pacer *
wheel(void)
{
	struct pcc_pacer_conf c;
	struct pcc_pacer *p;

	memset(&c, 0, sizeof(c));
	c.backend = "wheel";
	c.port_id = UINT16_MAX - 1;
	c.socket_id = SOCKET_ID_ANY;
	c.max_flows = 16;
	c.line_rate_bps = LINE;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	return p;
}

static void
test_next_due(void **state)
{
	struct pcc_pacer *p = wheel();
	struct rte_mbuf *m[4], *out[8];

	(void)state;
	assert_true(pcc_pacer_next_due(p) == UINT64_MAX); /* empty */
	/* 10 Gb/s: 1000 ns per packet; the first goes at once (pass-through) */
	assert_int_equal(pcc_pacer_set_rate(p, 3, LINE / 10), 0);
	m[0] = pkt();
	m[1] = pkt();
	m[2] = pkt();
	assert_int_equal(pcc_pacer_enqueue(p, 3, m, 3, 10000), 3);
	assert_int_equal(pcc_pacer_next_due(p), 10000);
	assert_int_equal(pcc_pacer_dequeue(p, 10000, out, 8), 1);
	rte_pktmbuf_free(out[0]);
	/* then the slot (500 ns) holding 11000 ns */
	assert_int_equal(pcc_pacer_next_due(p), 11000);
	assert_int_equal(pcc_pacer_dequeue(p, 10999, out, 8), 0);
	assert_int_equal(pcc_pacer_dequeue(p, 11000, out, 8), 1);
	rte_pktmbuf_free(out[0]);
	assert_int_equal(pcc_pacer_next_due(p), 12000);
	assert_int_equal(pcc_pacer_dequeue(p, 12400, out, 8), 1);
	rte_pktmbuf_free(out[0]);
	assert_true(pcc_pacer_next_due(p) == UINT64_MAX);
	pcc_pacer_free(p);
}

static void
test_rate_change_moves_next_departure(void **state)
{
	struct pcc_pacer *p = wheel();
	struct rte_mbuf *m, *out[8];

	(void)state;
	/* 1 Gb/s: a packet then 10 us until the next may leave */
	assert_int_equal(pcc_pacer_set_rate(p, 1, LINE / 100), 0);
	m = pkt();
	assert_int_equal(pcc_pacer_enqueue(p, 1, &m, 1, 100000), 1);
	assert_int_equal(pcc_pacer_dequeue(p, 100000, out, 8), 1);
	rte_pktmbuf_free(out[0]);
	/* 2 us later the rate goes to 100 Gb/s: the 8 us left at 1 Gb/s
	 * become 80 ns, so the next packet leaves right away */
	assert_int_equal(pcc_pacer_dequeue(p, 102000, out, 8), 0);
	assert_int_equal(pcc_pacer_set_rate(p, 1, LINE), 0);
	m = pkt();
	assert_int_equal(pcc_pacer_enqueue(p, 1, &m, 1, 102000), 1);
	assert_int_equal(pcc_pacer_next_due(p), 102000);
	assert_int_equal(pcc_pacer_dequeue(p, 102080, out, 8), 1);
	rte_pktmbuf_free(out[0]);
	/* a cut applies to the wait the same way: 100 ns left at 100G are
	 * 10 us at 1 Gb/s */
	assert_int_equal(pcc_pacer_set_rate(p, 1, LINE / 100), 0);
	m = pkt();
	assert_int_equal(pcc_pacer_enqueue(p, 1, &m, 1, 102080), 1);
	assert_int_equal(pcc_pacer_next_due(p), 112000); /* slot of 112080 */
	assert_int_equal(pcc_pacer_dequeue(p, 111999, out, 8), 0);
	assert_int_equal(pcc_pacer_dequeue(p, 112080, out, 8), 1);
	rte_pktmbuf_free(out[0]);
	pcc_pacer_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next_due),
		cmocka_unit_test(test_rate_change_moves_next_departure),
	};

	if (test_eal_init("test_pacer_next", "128", "-l", "0", NULL) < 0)
		return 1;
	if (pcc_pacer_drivers_register() != 0)
		return 1;
	mp = rte_pktmbuf_pool_create("pacer_next", 1023, 0, 0, 256, SOCKET_ID_ANY);
	if (mp == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, test_eal_group_teardown);
}
