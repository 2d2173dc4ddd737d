/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_CONSOLE_H
#define APP_CONSOLE_H

/*
 * testpmd-style console of dpdk-pcc (librte_cmdline): an interactive
 * "pcc> " prompt (-i) and script mode (--cmdline-file).  Commands and
 * their output: doc/console.md.  console.c holds the lifecycle and the
 * helpers below; cmds_*.c hold the command groups.
 */

#include <stdbool.h>
#include <stdint.h>

#include <cmdline_parse.h>

#include "pcc_engine.h"

/* What main.c asks of the console. */
struct app_console_conf {
	bool interactive; /* -i: prompt (after the script, if any) */
	const char *file; /* --cmdline-file: commands to run first, or NULL */
	bool strict;      /* --cmdline-strict: a failed command fails the run */
};

/*
 * Run the console on the calling (main) lcore with the contexts started
 * (lib/host's engine): the script, then the prompt when interactive.
 * Returns 0, or 1 when strict and a command of the script failed.  Every
 * context is left stopped on return.
 */
int app_console_run(const struct app_console_conf *cc);

/* ---- For the command groups (cmds_*.c) --------------------------------- */

struct app_console {
	struct pcc_engine *e;               /* lib/host's (read only) */
	const struct pcc_engine_conf *conf; /* its configuration */
	bool running;                       /* workers launched */
	bool quit;                          /* `quit` was entered */
	struct cmdline *cl;                 /* the cmdline running commands now */
	bool failed;                        /* the current command failed */
	uint64_t start_tsc;
};

extern struct app_console app_con;

/* NULL-terminated command lists of each group. */
extern cmdline_parse_inst_t *cmds_flow_list[];
extern cmdline_parse_inst_t *cmds_main_list[];
extern cmdline_parse_inst_t *cmds_algo_list[];
extern cmdline_parse_inst_t *cmds_host_list[];

/* Print an error line (and mark the command failed). */
void con_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Token parsers: 0, or -1 after printing an error naming the token. */
int con_port(const char *tok, uint16_t *port);
int con_rp_port(const char *tok, uint16_t *port, uint8_t *dev_port);
int con_slot(const char *tok, uint8_t *slot);
int con_u32(const char *tok, const char *what, uint32_t min, uint32_t max, uint32_t *v);
/* The engine must be stopped for op ("set slot", ...): 0 or -1. */
int con_need_stopped(const char *op);
/* The probe table's header and the row of probe slot s (cmds_main.c). */
void con_probe_header(void);
void con_probe_row(uint8_t s);

/* Dynamic token: a registered algorithm name (completion lists them). */
struct con_token_algo {
	struct cmdline_token_hdr hdr;
};
extern struct cmdline_token_ops con_token_algo_ops;
#define CON_TOKEN_ALGO_INITIALIZER(structure, field)          \
	{                                                     \
		.hdr = {                                      \
			.ops = &con_token_algo_ops,           \
			.offset = offsetof(structure, field), \
		},                                            \
	}

#endif /* APP_CONSOLE_H */
