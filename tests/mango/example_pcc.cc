// SPDX-License-Identifier: BSD-3-Clause
// Copyright(c) 2026 The dpdk-pcc authors
//
// The example at the top of libmango's RDMA PCC documentation, as given,
// with its two typos corrected ("strict" -> "struct", "algo" ->
// "my_algo") and its "..." filled in: a window algorithm (cut the window
// by a share in an interval with CNPs, add a step otherwise, within
// bounds; a per-QP interval count in the QP's own copy of the
// parameters) and, after the run, the main thread watching the per-QP
// views until every active QP has counted CNPs and window updates (at
// most 15 s; at once without a handle).  Two standard headers are added for that watching (printf,
// usleep).  Built as C and as C++ by tests/dts/suites/test_mango.py.
#include <libmango.h>
#include <stdio.h>
#include <unistd.h>

typedef struct {
	unsigned int min_window;   /* bytes */
	unsigned int max_window;   /* bytes */
	unsigned int increase;     /* bytes added in an interval without CNPs */
	unsigned int decrease_pct; /* percent of the window kept after CNPs */
	unsigned int intervals;    /* this QP's intervals so far */
} my_algo_params;

static const my_algo_params initial_params = {
	4096, 1048576, 4096, 50, 0
};

void
my_algo (void *params)
{
my_algo_params *p = (my_algo_params *) params;
unsigned int cnp = mango_pcc_event_cnp_cnt ();
unsigned int cwnd = mango_pcc_window_current ();
unsigned int nwnd;

// calculate new window size
nwnd = cnp > 0 ? cwnd / 100 * p->decrease_pct : cwnd + p->increase;
if (nwnd < p->min_window)
	nwnd = p->min_window;
if (nwnd > p->max_window)
	nwnd = p->max_window;

mango_pcc_window_update (nwnd);

if (p->intervals++ == 0)
	mango_pcc_log (MANGO_LOG_LEVEL_INFO, "first interval: %u CNPs, window %u -> %u",
			cnp, cwnd, nwnd);
}

int main() {
// Create a PCC handle
mango_pcc_h pcc;
mango_pcc_create ("roce0", &pcc);

// Configure PCC parameters
mango_pcc_config_t config;
config.option = MANGO_PCC_CONFIG_INTERVAL;
config.value.interval_us = 60;
mango_pcc_ctrl_config (pcc, &config);

// Register PCC algorithm
mango_pcc_ctrl_reg_algo (pcc, 1, my_algo, &initial_params, sizeof (initial_params));

// Run PCC engine with 4 threads
mango_pcc_ctrl_run (pcc, 4);
{
	static uint32_t qps[MAX_QPS];
	uint32_t n = 0, i, window = 0, updates = 0;
	uint64_t cnps = 0;
	int round, done = 0;

	for (round = 0; round < 150 && !done; round++) {
		usleep (100000); // a poll interval, not a synchronisation
		if (mango_pcc_active_qp_list (pcc, qps, &n) != MANGO_STATUS_SUCCESS)
			break; // no handle to watch
		if (n == 0)
			continue;
		done = 1;
		for (i = 0; i < n; i++)
			if (mango_pcc_cnp_count_by_qp (pcc, qps[i], &cnps) != MANGO_STATUS_SUCCESS ||
					mango_pcc_window_count_by_qp (pcc, qps[i], &updates) !=
							MANGO_STATUS_SUCCESS ||
					cnps == 0 || updates == 0)
				done = 0;
	}
	printf ("example: %s after %d polls: %u active QPs\n", done ? "done" : "gave up",
			round, n);
	for (i = 0; i < n; i++) {
		mango_pcc_cnp_count_by_qp (pcc, qps[i], &cnps);
		mango_pcc_window_current_by_qp (pcc, qps[i], &window);
		mango_pcc_window_count_by_qp (pcc, qps[i], &updates);
		printf ("example: qp 0x%x cnp %llu window %u updates %u\n", qps[i],
				(unsigned long long) cnps, window, updates);
	}
	fflush (stdout);
}

// Stop PCC engine
mango_pcc_ctrl_stop (pcc);
mango_pcc_destroy (pcc);

return 0;
}
