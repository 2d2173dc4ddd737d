/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_ARGS_H
#define APP_ARGS_H

/*
 * Application arguments (after "--"): syntax, ranges and combinations.
 * Nothing here needs the EAL; checks against the ports and lcores that
 * exist are in wiring.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_config.h>

#include "genfile.h"
#include "pcc_engine.h"
#include "pcc_sim.h"

#define APP_NAME "dpdk-pcc"
#define APP_CONFIG_MAX 1024 /* --config triples */

/* Exit statuses. */
#define APP_EXIT_OK 0
#define APP_EXIT_FAIL 1  /* run-time failure */
#define APP_EXIT_USAGE 2 /* bad arguments */
#define APP_EXIT_CRASH 3 /* an algorithm faulted (--crash-file) */

/* Ranges of the numeric options. */
#define APP_RUN_TIME_MAX 31536000u
#define APP_STATS_PERIOD_MAX 86400u
#define APP_QUEUES_MAX 1024u
#define APP_DESC_MIN 16u
#define APP_DESC_MAX 32768u
#define APP_MBUFS_MIN 1024u
#define APP_MBUFS_MAX (1u << 24)
#define APP_IDLE_SLEEP_MAX 1000000u
#define APP_GEN_RATE_MAX 400000u
#define APP_FLOWS_MIN PCC_ENGINE_FLOWS_LCORE_MIN
#define APP_FLOW_IDLE_MAX 86400000u /* ms */
#define APP_TXC_BYTES_MAX (1u << 30)
#define APP_TXC_US_MAX 1000000u
#define APP_TIMER_US_MAX 10000000u
#define APP_LINE_RATE_MAX 1600u /* Gb/s */
#define APP_PACER_QUEUE_MAX 65535u
#define APP_PARAM_LEN 96                /* NAME=VALUE */
#define APP_NP_CNP_GAP_MAX 10000000u    /* us */
#define APP_SIM_QUANTUM_MAX 1000000000u /* ns */
#define APP_PLUGINS_MAX 16              /* --plugin */
#define APP_HA_NAME_MAX 64              /* --ha NAME */
#define APP_HA_MS_MAX 60000u            /* --ha-heartbeat-ms, --ha-stale-ms */

/* How the simulator's step runs (--sim-mode). */
enum app_sim_mode {
	APP_SIM_DETERMINISTIC = 0, /* between poll rounds on the polling lcore */
	APP_SIM_SERVICE = 1,       /* an rte_service on a service lcore */
};

struct app_args {
	uint64_t run_time;     /* s; 0 = until SIGINT/SIGTERM */
	uint64_t stats_period; /* s; 0 = final statistics only */
	bool ring_pair;
	const char *rp_list; /* --rp-ports as given, NULL if not */
	const char *np_list;
	bool rp_ports[RTE_MAX_ETHPORTS];
	bool np_ports[RTE_MAX_ETHPORTS];
	const char *config_str; /* --config as given, NULL if not */
	struct pcc_engine_rxq_conf config[APP_CONFIG_MAX];
	uint32_t nb_config;
	uint16_t rxq;
	uint16_t txq; /* 0 = one per polling lcore */
	uint16_t rxd;
	uint16_t txd;
	uint16_t burst;
	uint32_t nb_mbufs; /* 0 = computed by the engine */
	uint32_t idle_sleep_us;
	struct pcc_engine_gen_conf gen;
	struct pcc_engine_np_conf np;
	/* NP and probe formats (--np-*, --probe); np.sqpn_map -> sqpn_map */
	struct pcc_engine_np_sqpn sqpn_map[PCC_ENGINE_NP_SQPN_MAP_MAX];
	struct pcc_engine_probe_conf probe[PCC_ENGINE_PROBE_SLOTS];
	bool probe_set[PCC_ENGINE_PROBE_SLOTS];
	/* flow table */
	uint32_t flows;
	uint32_t flow_idle_ms;
	uint8_t flow_full;
	/* reaction point */
	const char *algo; /* NULL: the default algorithm */
	struct pcc_engine_algo_param params[PCC_ENGINE_ALGO_PARAMS_MAX];
	char param_store[PCC_ENGINE_ALGO_PARAMS_MAX][APP_PARAM_LEN];
	uint32_t nb_params;
	uint32_t txc_bytes;
	uint32_t txc_us;
	uint32_t timer_us;
	uint32_t line_rate_gbps;
	const char *pacer;
	uint32_t pacer_queue;
	/* traffic sources */
	const char *gen_file;
	struct app_gen_file genf; /* loaded from gen_file */
	bool fwd;
	uint16_t fwd_a;
	uint16_t fwd_b;
	const char *fwd_str;
	/* simulator (--sim): the scenario, loaded and overridden here */
	const char *sim_file;
	struct pcc_sim_scenario *sim_scn;
	uint64_t sim_seed;
	bool sim_seed_set;
	const char *sim_out;
	uint64_t sim_quantum_ns; /* 0 = the scenario's */
	uint8_t sim_mode;        /* enum app_sim_mode */
	bool stats_set;          /* --stats-period given */
	bool flows_set;          /* --flows given */
	/* console (console.c, doc/console.md) */
	bool interactive;         /* -i: the pcc> prompt */
	const char *cmdline_file; /* --cmdline-file: commands to run first */
	bool cmdline_strict;      /* --cmdline-strict: a failed command fails the run */
	/* lib/host (host.c) */
	const char *crash_file;               /* --crash-file */
	const char *plugins[APP_PLUGINS_MAX]; /* --plugin, in order */
	uint32_t nb_plugins;
	bool ha;                       /* --ha given */
	char ha_name[APP_HA_NAME_MAX]; /* --ha NAME */
	const char *ha_dir;            /* --ha NAME:DIR, NULL = default */
	uint32_t ha_heartbeat_ms;      /* 0 = lib/host's default */
	uint32_t ha_stale_ms;          /* 0 = lib/host's default */
};

/* Result of app_args_parse(). */
#define APP_ARGS_OK 0
#define APP_ARGS_EXIT 1   /* help or version printed: exit 0 */
#define APP_ARGS_ERR (-1) /* err holds one line */

/* What the command line asks for before the EAL starts (app_args_early). */
enum app_early {
	APP_EARLY_NONE = 0,
	APP_EARLY_HELP,     /* --help after "--": application usage */
	APP_EARLY_HELP_TOP, /* --help among EAL args: usage + EAL hint */
	APP_EARLY_HELP_EAL, /* --help-eal: the EAL's own usage */
	APP_EARLY_VERSION,
};

/*
 * Look for -h/--help, --help-eal and --version anywhere (and -v after
 * "--"; before it, -v is the EAL's "show version at start"), so they work
 * without initialising the EAL.
 */
enum app_early app_args_early(int argc, char *const argv[]);

/* Index of the first "--" in argv, or argc if there is none. */
int app_args_split(int argc, char *const argv[]);

void app_args_default(struct app_args *a);

/* Free what app_args_parse() loaded (the --gen-file groups, the scenario). */
void app_args_free(struct app_args *a);

/*
 * Parse application options: argv[0] is the program name, options follow.
 * Prints usage/version to stdout for -h/-v.  On error writes one line
 * (without the program name) to err.
 */
int app_args_parse(int argc, char **argv, struct app_args *a, char *err, size_t errlen);

void app_usage(FILE *f);
void app_version(FILE *f);

/* ---- Value parsers (exported for unit tests) ----------------------- */

/* Decimal or 0x-hex unsigned integer in [min, max].  0 or -1. */
int app_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Percentage 0..100 with up to 4 decimals, as parts per million. 0/-1. */
int app_parse_ppm(const char *s, uint32_t *ppm);

/*
 * Id list "0,2-3" with ids < max into set[max] (set is cleared first).
 * Returns the number of distinct ids, or -1.
 */
int app_parse_id_list(const char *s, unsigned int max, bool *set);

/*
 * "(port,queue,lcore)[,(port,queue,lcore)...]" into out[max].  Returns the
 * number of triples, or -1 with a reason in why.
 */
int app_parse_config(const char *s, struct pcc_engine_rxq_conf *out, uint32_t max, char *why,
		size_t whylen);

/* IPv4 (host order into v4) or IPv6 address; sets *ipv6.  0 or -1. */
int app_parse_ip(const char *s, bool *ipv6, uint32_t *v4, uint8_t v6[16]);

#endif /* APP_ARGS_H */
