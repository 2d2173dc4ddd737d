/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_ARGS_H
#define APP_ARGS_H

/*
 * Application arguments (after "--").  Two kinds, each stated once as
 * data: dpdk-pcc's own options (app_opts[] in args_opts.c: run time, ports and
 * roles, simulator, console, HA) and the engine options of lib/host
 * (pcc_host_opt_*: every other option, kept in command-line order and
 * applied to the process or to the contexts of their role).  Nothing here
 * needs the EAL: syntax, ranges and combinations are checked before it
 * starts (pcc_host_opts_check for the engine options); what needs the
 * ports and lcores is in wiring.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_config.h>

#include "pcc_engine.h"
#include "pcc_sim.h"

#define APP_NAME "dpdk-pcc"
#define APP_CONFIG_MAX 1024 /* --config triples */
#define APP_HOPTS_MAX 512   /* engine options on one command line */

/* Exit statuses. */
#define APP_EXIT_OK 0
#define APP_EXIT_FAIL 1  /* run-time failure */
#define APP_EXIT_USAGE 2 /* bad arguments */
#define APP_EXIT_CRASH 3 /* an algorithm faulted (--crash-file) */
#define APP_EXIT_HANG 4  /* an lcore hung (--watchdog-ms) */
/* the watchdog of dpdk-pcc unless --watchdog-ms says otherwise */
#define APP_WATCHDOG_MS_DEFAULT 2000u

#define APP_HA_NAME_MAX 64           /* --ha NAME */
#define APP_NP_CNP_GAP_MAX 10000000u /* us */

/* How the simulator's step runs (--sim-mode). */
enum app_sim_mode {
	APP_SIM_DETERMINISTIC = 0, /* between poll rounds on the polling lcore */
	APP_SIM_SERVICE = 1,       /* an rte_service on a service lcore */
};

/* One engine option as given: name without "--", value ("" for a flag). */
struct app_hopt {
	const char *name;
	const char *value;
	uint8_t scope; /* enum pcc_host_opt_scope */
};

struct app_args {
	uint64_t run_time;      /* s; 0 = until SIGINT/SIGTERM */
	uint64_t stats_period;  /* s; 0 = final statistics only */
	bool stats_set;         /* --stats-period given */
	uint8_t stats_format;   /* enum app_stats_format (stats.h) */
	const char *stats_file; /* --stats-file; NULL: stdout */
	/* ports and roles */
	bool ring_pair;
	const char *rp_list; /* --rp-ports as given, NULL if not */
	const char *np_list;
	bool rp_ports[RTE_MAX_ETHPORTS];
	bool np_ports[RTE_MAX_ETHPORTS];
	bool fwd;
	uint16_t fwd_a;
	uint16_t fwd_b;
	const char *fwd_str;
	/* --config */
	const char *config_str;
	struct pcc_engine_rxq_conf config[APP_CONFIG_MAX];
	uint32_t nb_config;
	/* simulator (--sim): the scenario, loaded and overridden here */
	const char *sim_file;
	struct pcc_sim_scenario *sim_scn;
	uint64_t sim_seed;
	bool sim_seed_set;
	const char *sim_out;
	uint64_t sim_quantum_ns; /* 0 = the scenario's */
	uint8_t sim_mode;        /* enum app_sim_mode */
	/* console (console.c, doc/console.md) */
	bool interactive;         /* -i: the pcc> prompt */
	const char *cmdline_file; /* --cmdline-file: commands to run first */
	bool cmdline_strict;      /* --cmdline-strict: a failed command fails the run */
	/* active/standby (host.c) */
	bool ha;                       /* --ha given */
	char ha_name[APP_HA_NAME_MAX]; /* --ha NAME */
	const char *ha_dir;            /* --ha NAME:DIR, NULL = default */
	uint32_t ha_heartbeat_ms;      /* 0 = lib/host's default */
	uint32_t ha_stale_ms;          /* 0 = lib/host's default */
	/* the engine options, in command-line order (lib/host) */
	struct app_hopt hopts[APP_HOPTS_MAX];
	uint32_t nb_hopts;
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

/* Free what app_args_parse() loaded (the scenario). */
void app_args_free(struct app_args *a);

/*
 * Parse application options: argv[0] is the program name, options follow.
 * Prints usage/version to stdout for -h/-v.  On error writes one line
 * (without the program name) to err.  Values point into argv.
 */
int app_args_parse(int argc, char **argv, struct app_args *a, char *err, size_t errlen);

void app_usage(FILE *f);
void app_version(FILE *f);

/* The last value of engine option name, or NULL if not given. */
const char *app_hopt(const struct app_args *a, const char *name);
/* As app_hopt() as a number (the option was checked), or def. */
uint64_t app_hopt_u64(const struct app_args *a, const char *name, uint64_t def);

/* ---- Value parsers (exported for unit tests) ----------------------- */

/* Decimal or 0x-hex unsigned integer in [min, max].  0 or -1. */
int app_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

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

/*
 * v as an error line quotes it: v itself, or when longer than 200 bytes
 * its first 120 and last 60 bytes around "...", so that the option's
 * name after it always fits the line (4 results live at once).
 */
const char *app_quote(const char *v);

#endif /* APP_ARGS_H */
