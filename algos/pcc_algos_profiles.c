/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Named parameter profiles of the reference algorithms (pcc_algos.h,
 * doc/algorithms.md "Profiles").  Each profile is a complete set: every
 * parameter of its algorithm, with the source of its value, and what the
 * notification point must do for the profile to mean what its source
 * measured (one CNP per marked packet, or at most one per 50 us).  A
 * profile is applied whole; parameters given on top of it are the
 * user's own variation.
 *
 * Sources (doc/algorithms.md names them per parameter):
 *   ns3    the HPCC authors' ns-3 simulator (alibaba-edu/High-Precision-
 *          Congestion-Control), simulation/run.py at 100 Gb/s and the
 *          attribute defaults of rdma-hw.cc; its DCQCN is Mellanox's
 *          firmware rule set
 *   paper  the algorithm's paper (DCQCN: Zhu et al., SIGCOMM 2015, 40G
 *          setting, with the authors' simulator bobzhuyb/ns3-rdma for
 *          R_HAI); TIMELY: Mittal et al., SIGCOMM 2015 (10G)
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <pcc_dev.h>

#include "pcc_algos.h"

#define P(n, v, s)                                       \
	{                                                \
		.name = (n), .value = (v), .source = (s) \
	}
#define NS3 "ns-3 run.py"
#define NS3_ATTR "ns-3 rdma-hw.cc attribute default"
#define ENG "dpdk-pcc"

/* ---- DCQCN ---------------------------------------------------------------- */

static const struct pcc_algo_profile_param dcqcn_ns3[] = {
	P("line_rate_gbps", 0, ENG " (the port's speed)"),
	P("min_rate_mbps", 1000, NS3 " MIN_RATE 1000Mb/s"),
	P("t_alpha_ns", 1000, NS3 " ALPHA_RESUME_INTERVAL 1"),
	P("t_dec_ns", 4000, NS3 " RATE_DECREASE_INTERVAL 4"),
	P("t_inc_ns", 300000, NS3 " RP_TIMER 300"),
	P("g", 256, NS3 " EWMA_GAIN 0.00390625"),
	P("fast_recovery_steps", 1, NS3 " FAST_RECOVERY_TIMES 1"),
	P("rai_mbps", 20, NS3 " RATE_AI 5 * bw / 25 Mb/s"),
	P("rhai_mbps", 200, NS3 " RATE_HAI 50 * bw / 25 Mb/s"),
	P("byte_counter_kb", 0, NS3 " (no byte counter)"),
	P("rate_first_cnp", 65536, NS3_ATTR " RateOnFirstCnp 1.0"),
	P("clamp_target_rate", 0, NS3 " CLAMP_TARGET_RATE 0 (firmware)"),
};

static const struct pcc_algo_profile_param dcqcn_paper[] = {
	P("line_rate_gbps", 0, ENG " (the port's speed)"),
	P("min_rate_mbps", 1000, "not in the paper: ns-3's 1 Gb/s floor"),
	P("t_alpha_ns", 55000, "paper: alpha timer 55 us"),
	P("t_dec_ns", 50000, "paper: one cut per CNP, CNPs at most every 50 us"),
	P("t_inc_ns", 55000, "paper: rate increase timer 55 us"),
	P("g", 256, "paper: g = 1/256"),
	P("fast_recovery_steps", 5, "paper: F = 5"),
	P("rai_mbps", 40, "paper: R_AI 40 Mb/s"),
	P("rhai_mbps", 200, "paper authors' simulator (ns3-rdma): RATE_HAI 200Mb/s"),
	P("byte_counter_kb", 10240, "paper: byte counter 10 MB"),
	P("rate_first_cnp", 65536, "paper: no special first cut"),
	P("clamp_target_rate", 1, "paper: RT = RC on every cut"),
};

/* ---- HPCC ----------------------------------------------------------------- */

static const struct pcc_algo_profile_param hpcc_ns3[] = {
	P("line_rate_gbps", 0, ENG " (the port's speed)"),
	P("min_rate_mbps", 1000, NS3 " MIN_RATE 1000Mb/s"),
	P("eta", 62259, NS3 " U_TARGET 0.95"),
	P("max_stage", 5, NS3_ATTR " MiThresh 5 (run.py --mi, default 0 for the paper runs)"),
	P("rai_mbps", 40, NS3 " RATE_AI 10 * bw / 25 Mb/s"),
	P("base_rtt_ns", 10000,
			"ns-3 third.cc: the topology's base RTT (the simulator's; this value only "
			"without a topology)"),
	P("fast_react", 1, NS3 " FAST_REACT 1"),
	P("var_win", 1, NS3 " HAS_WIN 1, VAR_WIN 1"),
};

/* ---- DCTCP ---------------------------------------------------------------- */

static const struct pcc_algo_profile_param dctcp_ns3[] = {
	P("line_rate_gbps", 0, ENG " (the port's speed)"),
	P("min_rate_mbps", 1000, NS3 " MIN_RATE 1000Mb/s"),
	P("g", 4096, NS3 " EWMA_GAIN 0.0625"),
	P("rai_mbps", 615, NS3 " DCTCP_RATE_AI 615Mb/s"),
	P("alpha_init", 65536, NS3_ATTR " (alpha starts at 1)"),
	P("rtt_ns", 10000,
			"ns-3 third.cc: the topology's base RTT (the simulator's; this value only "
			"without a topology)"),
	P("var_win", 1, NS3 " HAS_WIN 1, VAR_WIN 1"),
};

/* ---- TIMELY --------------------------------------------------------------- */

static const struct pcc_algo_profile_param timely_ns3[] = {
	P("line_rate_gbps", 0, ENG " (the port's speed)"),
	P("min_rate_mbps", 1000, NS3 " MIN_RATE 1000Mb/s"),
	P("t_low_ns", 50000, NS3_ATTR " TimelyTLow 50000"),
	P("t_high_ns", 500000, NS3_ATTR " TimelyTHigh 500000"),
	P("beta", 52429, NS3_ATTR " TimelyBeta 0.8"),
	P("alpha", 57344, NS3_ATTR " TimelyAlpha 0.875"),
	P("min_rtt_ns", 20000, NS3_ATTR " TimelyMinRtt 20000"),
	P("delta_mbps", 0, NS3 " RATE_AI 10 * bw / 10 Mb/s (0: scaled to the line rate)"),
	P("hai_n", 5, NS3 " RATE_HAI 50 * bw / 10 Mb/s = 5 delta"),
	P("hai_thresh", 5, "ns-3 rdma-hw.cc: hyper increase from the 5th step"),
};

static const struct pcc_algo_profile_param timely_paper[] = {
	P("line_rate_gbps", 0, ENG " (the port's speed)"),
	P("min_rate_mbps", 100, ENG " (not in the paper)"),
	P("t_low_ns", 50000, "paper: T_low 50 us"),
	P("t_high_ns", 500000, "paper: T_high 500 us"),
	P("beta", 52429, "paper: beta 0.8"),
	P("alpha", 57344, "paper: alpha 0.875"),
	P("min_rtt_ns", 20000, "paper: minRTT 20 us"),
	P("delta_mbps", 10, "paper: delta 10 Mb/s (10G)"),
	P("hai_n", 5, "paper: N = 5"),
	P("hai_thresh", 5, "paper: HAI after 5 completion events"),
};

#define PROFILE(a, n, gap, d, t)                                                           \
	{                                                                                  \
		.algo = (a), .name = (n), .cnp_gap_ns = (gap), .desc = (d), .params = (t), \
		.n_params = sizeof(t) / sizeof((t)[0])                                     \
	}

static const struct pcc_algo_profile profiles[] = {
	PROFILE("dcqcn", "ns3", 0,
			"HPCC reference / Mellanox firmware at 100G: timers 1/4/300 us, F 1, "
			"R_AI 20, R_HAI 200 Mb/s, RT clamped only after an increase, a CNP "
			"per marked packet",
			dcqcn_ns3),
	PROFILE("dcqcn", "paper", 50000,
			"DCQCN paper (40G): timers 55/50/55 us, F 5, R_AI 40 Mb/s, 10 MB byte "
			"counter, RT = RC on every cut, at most one CNP per 50 us",
			dcqcn_paper),
	PROFILE("hpcc", "ns3", PCC_ALGO_PROFILE_NO_CNP,
			"HPCC reference at 100G: eta 0.95, max_stage 5, R_AI 40 Mb/s, window, "
			"fast reaction, T = the topology's base RTT",
			hpcc_ns3),
	PROFILE("dctcp", "ns3", 0,
			"HPCC reference at 100G: g 1/16, +615 Mb/s per RTT, window, a CNP "
			"(mark) per marked packet, K = 300 KB step marking",
			dctcp_ns3),
	PROFILE("timely", "ns3", PCC_ALGO_PROFILE_NO_CNP,
			"HPCC reference at 100G: delta 100 Mb/s, hyper 500 Mb/s", timely_ns3),
	PROFILE("timely", "paper", PCC_ALGO_PROFILE_NO_CNP,
			"TIMELY paper (10G): delta 10 Mb/s whatever the line rate", timely_paper),
};

const struct pcc_algo_profile *
pcc_algos_profile_find(const char *algo, const char *name)
{
	size_t i;

	if (algo == NULL)
		return NULL;
	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		if (strcmp(profiles[i].algo, algo) != 0)
			continue;
		/* the first profile of an algorithm is its default */
		if (name == NULL || name[0] == '\0' || strcmp(profiles[i].name, name) == 0)
			return &profiles[i];
	}
	return NULL;
}

unsigned int
pcc_algos_profiles(const struct pcc_algo_profile **list)
{
	if (list != NULL)
		*list = profiles;
	return (unsigned int)(sizeof(profiles) / sizeof(profiles[0]));
}

const char *
pcc_algos_base_rtt_param(const char *algo)
{
	if (algo == NULL)
		return NULL;
	if (strcmp(algo, "hpcc") == 0)
		return "base_rtt_ns";
	if (strcmp(algo, "dctcp") == 0)
		return "rtt_ns";
	return NULL;
}
