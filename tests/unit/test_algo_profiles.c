/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The algorithms' named profiles (pcc_algos_profile_find()): each one is
 * a complete set (every parameter of its algorithm once, within range,
 * with a source), applies cleanly through lib/dev, and the DCQCN
 * profiles are the two FIDELITY.md describes and never a mix: the ns-3 /
 * firmware one with a CNP per marked packet, the paper's with one per
 * 50 us.  The default profile is the first; DCQCN's parameter defaults
 * are its ns-3 profile.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_algo_common.h"

static uint32_t
pval(const struct pcc_algo_profile *pr, const char *name)
{
	unsigned int i;

	for (i = 0; i < pr->n_params; i++)
		if (strcmp(pr->params[i].name, name) == 0)
			return pr->params[i].value;
	fail_msg("profile %s/%s has no %s", pr->algo, pr->name, name);
	return 0;
}

static void
test_complete_sets(void **state)
{
	const struct pcc_algo_profile *list;
	unsigned int n, i, k, j;

	(void)state;
	assert_int_equal(pcc_algos_register_builtin(), 0);
	n = pcc_algos_profiles(&list);
	assert_true(n >= 6);
	for (i = 0; i < n; i++) {
		const struct pcc_algo_profile *pr = &list[i];
		const struct pcc_dev_algo_ops *ops = pcc_dev_algo_find(pr->algo);

		assert_non_null(ops);
		assert_non_null(pr->desc);
		if (pr->n_params != ops->n_params)
			fail_msg("profile %s/%s: %u parameters, the algorithm has %u", pr->algo,
					pr->name, pr->n_params, ops->n_params);
		for (k = 0; k < ops->n_params; k++) {
			const struct pcc_dev_param_desc *d = &ops->params[k];
			uint32_t found = 0, v = 0;

			for (j = 0; j < pr->n_params; j++)
				if (strcmp(pr->params[j].name, d->name) == 0) {
					found++;
					v = pr->params[j].value;
					assert_non_null(pr->params[j].source);
					assert_true(strlen(pr->params[j].source) > 3);
				}
			if (found != 1)
				fail_msg("profile %s/%s: parameter %s listed %u times", pr->algo,
						pr->name, d->name, found);
			if (v < d->min || v > d->max)
				fail_msg("profile %s/%s: %s = %u outside %u..%u", pr->algo,
						pr->name, d->name, v, d->min, d->max);
		}
		/* the first profile of its algorithm is the default */
		for (j = 0; j < i && strcmp(list[j].algo, pr->algo) != 0; j++)
			;
		assert_ptr_equal(pcc_algos_profile_find(pr->algo, NULL), &list[j]);
		assert_ptr_equal(pcc_algos_profile_find(pr->algo, pr->name), pr);
	}
	assert_null(pcc_algos_profile_find("dcqcn", "nosuch"));
	assert_null(pcc_algos_profile_find("noop", NULL));
}

/* Every profile applies through lib/dev as one set (set_params accepts it). */
static void
test_apply(void **state)
{
	const struct pcc_algo_profile *list;
	unsigned int n, i, k;

	(void)state;
	n = pcc_algos_profiles(&list);
	for (i = 0; i < n; i++) {
		assert_int_equal(t_setup_algo(list[i].algo), 0);
		for (k = 0; k < list[i].n_params; k++)
			assert_int_equal(t_param(list[i].params[k].name, list[i].params[k].value),
					0);
		pcc_dev_fini();
	}
}

static void
test_dcqcn_profiles_not_mixed(void **state)
{
	const struct pcc_algo_profile *ns3 = pcc_algos_profile_find("dcqcn", NULL);
	const struct pcc_algo_profile *paper = pcc_algos_profile_find("dcqcn", "paper");
	unsigned int k;

	(void)state;
	assert_non_null(ns3);
	assert_non_null(paper);
	assert_string_equal(ns3->name, "ns3");
	/* ns-3 / firmware: 1 us alpha timer with a CNP per marked packet */
	assert_int_equal(pval(ns3, "t_alpha_ns"), 1000);
	assert_int_equal(pval(ns3, "t_dec_ns"), 4000);
	assert_int_equal(pval(ns3, "t_inc_ns"), 300000);
	assert_int_equal(pval(ns3, "fast_recovery_steps"), 1);
	assert_int_equal(pval(ns3, "rai_mbps"), 20);
	assert_int_equal(pval(ns3, "clamp_target_rate"), 0);
	assert_int_equal(ns3->cnp_gap_ns, 0);
	/* the paper: 55 us timers with one CNP per 50 us */
	assert_int_equal(pval(paper, "t_alpha_ns"), 55000);
	assert_int_equal(pval(paper, "t_inc_ns"), 55000);
	assert_int_equal(pval(paper, "fast_recovery_steps"), 5);
	assert_int_equal(pval(paper, "rai_mbps"), 40);
	assert_int_equal(pval(paper, "byte_counter_kb"), 10240);
	assert_int_equal(paper->cnp_gap_ns, 50000);
	/* DCQCN's parameter defaults are its default profile */
	for (k = 0; k < pcc_algo_dcqcn_ops.n_params; k++)
		assert_int_equal(pcc_algo_dcqcn_ops.params[k].def,
				pval(ns3, pcc_algo_dcqcn_ops.params[k].name));
	/* the algorithms without CNPs say so; base RTT parameters */
	assert_int_equal(pcc_algos_profile_find("hpcc", NULL)->cnp_gap_ns, PCC_ALGO_PROFILE_NO_CNP);
	assert_string_equal(pcc_algos_base_rtt_param("hpcc"), "base_rtt_ns");
	assert_string_equal(pcc_algos_base_rtt_param("dctcp"), "rtt_ns");
	assert_null(pcc_algos_base_rtt_param("dcqcn"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_complete_sets),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_dcqcn_profiles_not_mixed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
