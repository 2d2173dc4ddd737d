/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Base RTTs from the topology (pcc_sim_flow_info.base_rtt_ns,
 * pcc_sim_base_rtt_ns()): propagation both ways, one data frame
 * serialized on every hop there and one ACK back.  On the 100G dumbbell
 * with 1 us links (three links each way): 6 us + 3 x 85.92 ns (1074-byte
 * frames) + 3 x 4.96 ns (62-byte ACKs) = 6272.6 ns; with the 42-byte
 * HPCC INT header on both, 6292.8 ns (the HPCC reference's formula,
 * payload only and no ACK, gives 6240 ns).  A scenario's base_rtt
 * overrides; a slot takes the largest of its flows.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "pcc_sim.h"
#include "test_sim_common.h"
#include "test_eal.h"

#define COMMON                                                  \
	"sim: {mbufs: 4095, packets: 16383, ring_size: 1024}\n" \
	"output: {dir: none, progress: false, plots: false}\n"

static uint64_t
flow_rtt(struct pcc_sim *sim, uint32_t idx)
{
	struct pcc_sim_flow_info fi[8];

	assert_true(pcc_sim_flows(sim, fi, 8) > idx);
	return fi[idx].base_rtt_ns;
}

static void
test_dumbbell(void **state)
{
	struct pcc_sim *sim = sim_from("topology: {type: dumbbell, senders: 2}\n"
				       "flows:\n  - {src: [s0, s1], dst: r0}\n" COMMON);

	(void)state;
	assert_int_equal(flow_rtt(sim, 0), 6273);
	assert_int_equal(flow_rtt(sim, 1), 6273);
	assert_int_equal(pcc_sim_base_rtt_ns(sim, 0), 6273);
	assert_int_equal(pcc_sim_base_rtt_ns(sim, 3), 0); /* no flow in slot 3 */
	sim_free(sim);
	/* with INT: 3 x 89.28 + 3 x 8.32 ns of serialization */
	sim = sim_from("topology: {type: dumbbell, senders: 2}\n"
		       "switch: {int: true, ecn: {mode: off}}\n"
		       "flows:\n  - {src: [s0, s1], dst: r0}\n" COMMON);
	assert_int_equal(pcc_sim_base_rtt_ns(sim, 0), 6293);
	sim_free(sim);
}

static void
test_rates_sizes_and_slots(void **state)
{
	/* incast: one switch, two links each way; 25G hosts, 4000-byte
	 * payloads: 2 x (1 us + 4074 B at 25G) + 2 x (1 us + 62 B at 25G) */
	struct pcc_sim *sim = sim_from(
			"topology: {type: incast, senders: 2, host_link: {rate: 25G, delay: 1us}}\n"
			"algorithms:\n  - {slot: 0, name: dcqcn}\n  - {slot: 1, name: hpcc}\n"
			"flows:\n  - {src: s0, dst: r0, payload: 4000}\n"
			"  - {src: s1, dst: r0, payload: 1000, slot: 1}\n" COMMON);

	(void)state;
	/* 4000 + 2 x 1303.68 + 2 x 19.84 */
	assert_int_equal(flow_rtt(sim, 0), 6647);
	/* 4000 + 2 x 343.68 + 2 x 19.84 */
	assert_int_equal(flow_rtt(sim, 1), 4727);
	assert_int_equal(pcc_sim_base_rtt_ns(sim, 0), 6647);
	assert_int_equal(pcc_sim_base_rtt_ns(sim, 1), 4727);
	sim_free(sim);
	/* leaf-spine: h0 -> leaf0 -> spine -> leaf1 -> h4: 4 links each
	 * way, 500 ns of delay each */
	sim = sim_from("topology: {type: leaf-spine, host_link: {rate: 100G, delay: 500ns},\n"
		       "  fabric_link: {rate: 100G, delay: 500ns}}\n"
		       "flows:\n  - {src: h0, dst: h4}\n  - {src: h0, dst: h1}\n" COMMON);
	/* 4000 + 4 x 85.92 + 4 x 4.96 */
	assert_int_equal(flow_rtt(sim, 0), 4364);
	/* same leaf: 2000 + 2 x 85.92 + 2 x 4.96 */
	assert_int_equal(flow_rtt(sim, 1), 2182);
	assert_int_equal(pcc_sim_base_rtt_ns(sim, 0), 4364); /* the largest */
	sim_free(sim);
}

static void
test_explicit(void **state)
{
	struct pcc_sim *sim = sim_from("topology: {type: dumbbell}\nbase_rtt: 8us\n"
				       "flows:\n  - {src: s0, dst: r0}\n" COMMON);

	(void)state;
	assert_int_equal(pcc_sim_base_rtt_ns(sim, 0), 8000);
	assert_int_equal(flow_rtt(sim, 0), 6273); /* the path's own stays */
	sim_free(sim);
}

static int
group_setup(void **state)
{
	(void)state;
	rte_openlog_stream(stderr);
	return test_eal_init("test_sim_rtt", "512", "--log-level", "pcc.sim:warning", NULL) < 0 ?
			-1 :
			0;
}

static int
group_teardown(void **state)
{
	(void)state;
	test_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dumbbell),
		cmocka_unit_test(test_rates_sizes_and_slots),
		cmocka_unit_test(test_explicit),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
