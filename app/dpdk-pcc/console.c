/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Console lifecycle: the command context (every group's instances), the
 * script runner (--cmdline-file, each command echoed before its output)
 * and the interactive prompt (cmdline_stdin_new + cmdline_interact), plus
 * the helpers the command groups share.  doc/console.md.
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_rdline.h>
#include <cmdline_socket.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "console.h"
#include "pcc_file.h"
#include "host.h"
#include "pcc_dev.h"
#include "pcc_host.h"

#define CON_PROMPT "pcc> "
#define CON_CMDS_MAX 128
#define CON_LINE_MAX 1024

struct app_console app_con;

static cmdline_parse_inst_t *con_ctx[CON_CMDS_MAX];
static volatile sig_atomic_t con_signal;

void
con_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	app_con.failed = true;
}

static int
con_parse_ulong(const char *tok, unsigned long *v)
{
	char *end;

	if (tok == NULL || tok[0] == '\0' || tok[0] == '-' || tok[0] == '+')
		return -1;
	errno = 0;
	*v = strtoul(tok, &end, 0);
	if (errno != 0 || *end != '\0')
		return -1;
	return 0;
}

int
con_port(const char *tok, uint16_t *port)
{
	uint16_t n = rte_eth_dev_count_avail();
	unsigned long v;

	if (con_parse_ulong(tok, &v) < 0 || v >= n || !rte_eth_dev_is_valid_port((uint16_t)v)) {
		con_err("Bad port '%s': %u ports (0-%u)", tok, n, n > 0 ? n - 1 : 0);
		return -1;
	}
	*port = (uint16_t)v;
	return 0;
}

int
con_rp_port(const char *tok, uint16_t *port, uint8_t *dev_port)
{
	uint8_t slot;

	if (con_port(tok, port) < 0)
		return -1;
	if (pcc_engine_port_dev(app_con.e, *port, dev_port, &slot) != 0) {
		con_err("Bad port '%s': not a reaction point (no algorithm slots)", tok);
		return -1;
	}
	return 0;
}

int
con_slot(const char *tok, uint8_t *slot)
{
	unsigned long v;

	if (con_parse_ulong(tok, &v) < 0 || v >= PCC_ENGINE_SLOTS) {
		con_err("Bad slot '%s': slots 0-%u", tok, PCC_ENGINE_SLOTS - 1);
		return -1;
	}
	*slot = (uint8_t)v;
	return 0;
}

int
con_u32(const char *tok, const char *what, uint32_t min, uint32_t max, uint32_t *v)
{
	unsigned long x;

	if (con_parse_ulong(tok, &x) < 0 || x < min || x > max) {
		con_err("Bad %s '%s': %u..%u", what, tok, min, max);
		return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

int
con_need_stopped(const char *op)
{
	if (app_con.running) {
		con_err("Engine is running: 'stop' before '%s'", op);
		return -1;
	}
	return 0;
}

/* ---- Dynamic token: algorithm names ----------------------------------- */

static int
tok_algo_parse(cmdline_parse_token_hdr_t *tk, const char *buf, void *res, unsigned int ressize)
{
	unsigned int len = 0;

	(void)tk;
	if (buf == NULL)
		return -1;
	while (!cmdline_isendoftoken(buf[len]))
		len++;
	if (len == 0 || len >= PCC_DEV_NAME_MAX + 64)
		return -1;
	if (res != NULL) {
		if (ressize < len + 1)
			return -1;
		memcpy(res, buf, len);
		((char *)res)[len] = '\0';
	}
	return (int)len;
}

static int
tok_algo_nb(cmdline_parse_token_hdr_t *tk)
{
	(void)tk;
	return (int)pcc_dev_algo_list(NULL, 0);
}

static int
tok_algo_elt(cmdline_parse_token_hdr_t *tk, int idx, char *dst, unsigned int size)
{
	const struct pcc_dev_algo_ops *ops[PCC_DEV_MAX_REGISTERED];
	unsigned int n;

	(void)tk;
	n = pcc_dev_algo_list(ops, RTE_DIM(ops));
	if (idx < 0 || (unsigned int)idx >= n || idx >= (int)RTE_DIM(ops))
		return -1;
	if (strlen(ops[idx]->name) + 1 > size)
		return -1;
	strcpy(dst, ops[idx]->name);
	return 0;
}

static int
tok_algo_help(cmdline_parse_token_hdr_t *tk, char *dst, unsigned int size)
{
	(void)tk;
	snprintf(dst, size, "algorithm name");
	return 0;
}

struct cmdline_token_ops con_token_algo_ops = {
	.parse = tok_algo_parse,
	.complete_get_nb = tok_algo_nb,
	.complete_get_elt = tok_algo_elt,
	.get_help = tok_algo_help,
};

/* ---- Lifecycle ---------------------------------------------------- */

static void
con_ctx_build(void)
{
	cmdline_parse_inst_t **lists[] = { cmds_flow_list, cmds_main_list, cmds_algo_list,
		cmds_host_list };
	unsigned int i, j, n = 0;

	for (i = 0; i < RTE_DIM(lists); i++)
		for (j = 0; lists[i][j] != NULL && n < CON_CMDS_MAX - 1; j++)
			con_ctx[n++] = lists[i][j];
	con_ctx[n] = NULL;
}

static void
con_on_signal(int sig)
{
	con_signal = sig;
}

/* Signals end the prompt: read() returns EINTR (no SA_RESTART). */
static void
con_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = con_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* One line of a script: echo, run, report parse errors.  0 or -1. */
static int
con_script_line(struct cmdline *cl, const char *line)
{
	char buf[CON_LINE_MAX + 2];
	int ret;

	printf("%s%s\n", CON_PROMPT, line);
	snprintf(buf, sizeof(buf), "%s\n", line);
	app_con.failed = false;
	app_con.cl = cl;
	ret = cmdline_parse(cl, buf);
	if (ret == CMDLINE_PARSE_AMBIGUOUS)
		con_err("Ambiguous command");
	else if (ret == CMDLINE_PARSE_NOMATCH)
		con_err("Command not found");
	else if (ret == CMDLINE_PARSE_BAD_ARGS)
		con_err("Bad arguments");
	fflush(stdout);
	return app_con.failed ? -1 : 0;
}

static int
con_script(const char *path, bool strict)
{
	char line[CON_LINE_MAX + 2], why[PCC_FILE_WHY_LEN];
	struct cmdline *cl;
	unsigned int lineno = 0, failed = 0;
	FILE *f;
	int fd;

	f = pcc_file_fopen_input(path, PCC_FILE_INPUT_MAX, why, sizeof(why));
	if (f == NULL) {
		printf("Cannot open --cmdline-file: %s\n", why);
		return -1;
	}
	fd = open("/dev/null", O_RDWR);
	cl = fd >= 0 ? cmdline_new(con_ctx, CON_PROMPT, fd, fd) : NULL;
	if (cl == NULL) {
		printf("Cannot create the command line for '%s'\n", path);
		fclose(f);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (!app_con.quit && con_signal == 0 && fgets(line, sizeof(line), f) != NULL) {
		char *s = line, *end;

		lineno++;
		s[strcspn(s, "\r\n")] = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		end = s + strlen(s);
		while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (*s == '\0' || *s == '#')
			continue;
		if (con_script_line(cl, s) < 0) {
			failed++;
			if (strict) {
				printf("%s:%u: command failed (--cmdline-strict): stopping\n", path,
						lineno);
				break;
			}
		}
	}
	fflush(stdout);
	cmdline_free(cl);
	close(fd);
	fclose(f);
	return failed > 0 ? -1 : 0;
}

static void
con_interact(void)
{
	struct cmdline *cl;

	cl = cmdline_stdin_new(con_ctx, CON_PROMPT);
	if (cl == NULL) {
		printf("Cannot create the interactive command line\n");
		return;
	}
	app_con.cl = cl;
	cmdline_interact(cl);
	cmdline_stdin_exit(cl);
	app_con.cl = NULL;
	printf("\n");
}

int
app_console_run(const struct app_console_conf *cc)
{
	struct pcc_engine *e = pcc_host_engine();
	int rc = 0;

	memset(&app_con, 0, sizeof(app_con));
	app_con.e = e;
	app_con.conf = pcc_engine_conf_get(e);
	app_con.running = true;
	app_con.start_tsc = rte_get_tsc_cycles();
	setvbuf(stdout, NULL, _IOLBF, 0);
	con_ctx_build();
	con_signals();
	if (pcc_engine_lcore_stats_get(
			    e, rte_get_main_lcore(), &(struct pcc_engine_lcore_stats){ 0 }) == 0)
		printf("Note: the main lcore polls queues and runs the console: traffic "
		       "stops while it waits for input (give the EAL a worker lcore: -l 0-1)\n");
	if (cc->file != NULL && con_script(cc->file, cc->strict) < 0 && cc->strict)
		rc = 1;
	if (cc->interactive && !app_con.quit && con_signal == 0 && !(rc != 0 && cc->strict))
		con_interact();
	if (app_con.running) {
		app_host_stop();
		app_con.running = false;
	}
	fflush(stdout);
	return rc;
}
