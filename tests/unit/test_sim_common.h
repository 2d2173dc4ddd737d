/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_SIM_COMMON_H
#define TEST_SIM_COMMON_H

/*
 * The simulator's tests: a simulator from a scenario's YAML text (the
 * parse or create error printed and the test failed if either refuses),
 * and its release.  Include after cmocka.h (it asserts).
 */

#include <string.h>

#include <rte_errno.h>

#include "pcc_sim.h"

static inline struct pcc_sim *
sim_from(const char *text)
{
	char err[512];
	struct pcc_sim_scenario *s;
	struct pcc_sim *sim;

	s = pcc_sim_scenario_parse(text, strlen(text), "test.yaml", err, sizeof(err));
	if (s == NULL)
		print_error("%s\n", err);
	assert_non_null(s);
	sim = pcc_sim_create(s, PCC_SIM_SEED_SCENARIO);
	pcc_sim_scenario_free(s);
	if (sim == NULL)
		print_error("pcc_sim_create: %s\n", rte_strerror(rte_errno));
	assert_non_null(sim);
	return sim;
}

static inline void
sim_free(struct pcc_sim *sim)
{
	pcc_sim_release(sim);
	pcc_sim_destroy(sim);
}

#endif /* TEST_SIM_COMMON_H */
