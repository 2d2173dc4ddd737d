/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef APP_ARGS_INTERNAL_H
#define APP_ARGS_INTERNAL_H

/*
 * dpdk-pcc's own option table (args_opts.c), for the parser and usage
 * text (args.c).  The engine options are lib/host's table.
 */

#include <stddef.h>
#include <stdint.h>

#include "args.h"

struct app_opt;
/* Set o's value in a: 0, or -1 (why: "" to say what o expects). */
typedef int (*app_set_t)(const struct app_opt *o, const char *v, struct app_args *a, char *why,
		size_t whylen);

struct app_opt {
	const char *name;
	char short_name;    /* 0: none */
	const char *arg;    /* NULL: a flag */
	const char *expect; /* for error messages */
	const char *group;
	const char *help;
	app_set_t set;
	uint64_t min, max; /* numbers */
	size_t off;        /* numbers: uint64_t/uint32_t field */
	uint8_t width;
};

#define G_GEN "General"
#define G_PORTS "Ports and roles"
#define G_Q "Lcores and queues"
#define G_SRC "Traffic sources"
#define G_SIM "Simulator (no NIC needed; doc/simulator.md)"
#define G_CON "Console (doc/console.md)"
#define G_HOST "Host integration (lib/host; doc/host.md, doc/telemetry.md)"

/* Room for dpdk-pcc's own options (checked at build time). */
#define APP_OPTS_MAX 64

extern const struct app_opt app_opts[];
extern const unsigned int app_nb_opts;
/* Usage sections in order; the engine options' groups are among them. */
extern const char *const app_opt_groups[];
extern const unsigned int app_nb_opt_groups;

/* Index of the option called name in app_opts[], -1 if none. */
int app_opt_index(const char *name);
/* printf into err. */
void app_set_err(char *err, size_t errlen, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));

#endif /* APP_ARGS_INTERNAL_H */
