/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Console commands over lib/host: the tracer (recording, flush, output
 * file) and the mailbox.  doc/console.md.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_string.h>

#include "console.h"
#include "host.h"
#include "pcc_dev.h"
#include "pcc_host.h"
#include "pcc_host_trace.h"

struct cmd_host_result {
	cmdline_fixed_string_t w0;
	cmdline_fixed_string_t w1;
	cmdline_fixed_string_t a[3];
};

struct cmd_tfmt_result {
	cmdline_fixed_string_t set;
	cmdline_fixed_string_t what;
	cmdline_fixed_string_t id;
	cmdline_multi_string_t fmt;
};

#define TRACE_PERIOD_MS 10
#define MAILBOX_TIMEOUT_MS 1000

static void
cmd_trace_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_host_result *res = parsed;
	struct pcc_host_trace_stats st;
	int ret;

	(void)cl;
	(void)data;
	if (strcmp(res->w1, "flush") == 0) {
		ret = pcc_host_trace_flush();
		if (ret < 0) {
			con_err("Cannot flush the tracer: %s", strerror(-ret));
			return;
		}
		pcc_host_trace_stats_get(&st);
		printf("Trace flushed: %lu records out, %lu lost\n", (unsigned long)st.trace_out,
				(unsigned long)st.trace_lost);
		return;
	}
	if (strcmp(res->w1, "on") == 0 && !pcc_host_svc_running()) {
		ret = pcc_host_svc_start(TRACE_PERIOD_MS);
		if (ret < 0) {
			con_err("Cannot start the tracer service: %s", strerror(-ret));
			return;
		}
	}
	pcc_host_trace_activate(strcmp(res->w1, "on") == 0);
	printf("Trace %s\n", pcc_host_trace_active() ? "on" : "off");
}

static void
cmd_trace_file_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_host_result *res = parsed;
	int ret;

	(void)cl;
	(void)data;
	ret = pcc_host_trace_to_file(res->a[0]);
	if (ret < 0) {
		con_err("Bad path '%s': %s", res->a[0], strerror(-ret));
		return;
	}
	printf("Trace output: %s\n", res->a[0]);
}

static void
cmd_tfmt_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_tfmt_result *res = parsed;
	char *end;
	unsigned long id;

	(void)cl;
	(void)data;
	id = strtoul(res->id, &end, 0);
	if (end == res->id || *end != '\0' || id >= PCC_HOST_TRACE_FMT_MAX) {
		con_err("Bad format id '%s': 0..%u", res->id, PCC_HOST_TRACE_FMT_MAX - 1);
		return;
	}
	if (pcc_host_trace_fmt_set((uint32_t)id, res->fmt) < 0) {
		con_err("Bad format: %s", pcc_host_last_error());
		return;
	}
	printf("Trace format %lu: %s\n", id, res->fmt);
}

static void
cmd_mailbox_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_host_result *res = parsed;
	const char *h = res->a[2];
	struct pcc_host_ctx *ctx;
	uint32_t cap = 0, resp_len = 0;
	uint8_t dev, slot, *req, *resp;
	uint16_t port;
	size_t i, len = strlen(h);
	int ret, hrc = 0;

	(void)cl;
	(void)data;
	if (con_port(res->w1, &port) < 0 || con_slot(res->a[0], &slot) < 0)
		return;
	/* the RP context's algorithm at slot, else the NP context's
	 * application (its NP mailbox handler; slot ignored) */
	ctx = pcc_host_ctx_find(port, PCC_HOST_ROLE_RP);
	if (ctx == NULL)
		ctx = pcc_host_ctx_find(port, PCC_HOST_ROLE_NP);
	if (ctx == NULL) {
		con_err("Bad port '%s': no context on port %u", res->w1, port);
		return;
	}
	if (strncmp(h, "0x", 2) == 0) {
		h += 2;
		len -= 2;
	}
	for (i = 0; i < len; i++)
		if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f') ||
				    (h[i] >= 'A' && h[i] <= 'F')))
			break;
	if (len == 0 || i < len || len % 2 != 0 || len / 2 > PCC_HOST_MAILBOX_MAX) {
		con_err("Bad bytes '%s': an even number of hex digits", res->a[2]);
		return;
	}
	if (pcc_host_ctx_role(ctx) == PCC_HOST_ROLE_RP) {
		dev = pcc_host_ctx_dev_port(ctx);
		if (pcc_dev_slot_algo(dev, slot, NULL) == NULL) {
			con_err("Bad slot '%s': no algorithm bound on port %u", res->a[0], port);
			return;
		}
	}
	req = pcc_host_mailbox_req_buf(ctx, &cap);
	if (req == NULL || len / 2 > cap) {
		con_err("Bad bytes '%s': at most %u bytes", res->a[2], cap);
		return;
	}
	for (i = 0; i < len / 2; i++) {
		char b[3] = { h[2 * i], h[2 * i + 1], '\0' };

		req[i] = (uint8_t)strtoul(b, NULL, 16);
	}
	ret = pcc_host_mailbox_send(
			ctx, slot, (uint32_t)(len / 2), &resp_len, &hrc, MAILBOX_TIMEOUT_MS);
	if (ret < 0) {
		con_err("Mailbox send failed: %s", pcc_host_last_error());
		return;
	}
	resp = pcc_host_mailbox_resp_buf(ctx, NULL);
	printf("Mailbox: handler returned %d%s%s%s, %u response bytes", hrc, hrc < 0 ? " (" : "",
			hrc < 0 ? strerror(-hrc) : "", hrc < 0 ? ")" : "", resp_len);
	for (i = 0; i < resp_len; i++)
		printf("%s%02x", i % 32 == 0 ? "\n  " : (i % 4 == 0 ? " " : ""), resp[i]);
	printf("\n");
}

static cmdline_parse_token_string_t t_trace =
		TOKEN_STRING_INITIALIZER(struct cmd_host_result, w0, "trace");
static cmdline_parse_token_string_t t_trace_op =
		TOKEN_STRING_INITIALIZER(struct cmd_host_result, w1, "on#off#flush");
static cmdline_parse_token_string_t t_set =
		TOKEN_STRING_INITIALIZER(struct cmd_host_result, w0, "set");
static cmdline_parse_token_string_t t_trace1 =
		TOKEN_STRING_INITIALIZER(struct cmd_host_result, w1, "trace");
static cmdline_parse_token_string_t t_file =
		TOKEN_STRING_INITIALIZER(struct cmd_host_result, a[1], "file");
static cmdline_parse_token_string_t t_a0 =
		TOKEN_STRING_INITIALIZER(struct cmd_host_result, a[0], NULL);
static cmdline_parse_token_string_t t_mailbox =
		TOKEN_STRING_INITIALIZER(struct cmd_host_result, w0, "mailbox");
static cmdline_parse_token_string_t t_send =
		TOKEN_STRING_INITIALIZER(struct cmd_host_result, a[1], "send");
static cmdline_parse_token_string_t t_w1 =
		TOKEN_STRING_INITIALIZER(struct cmd_host_result, w1, NULL);
static cmdline_parse_token_string_t t_a2 =
		TOKEN_STRING_INITIALIZER(struct cmd_host_result, a[2], NULL);

static cmdline_parse_inst_t cmd_trace = {
	.f = cmd_trace_parsed,
	.help_str = "trace on|off|flush",
	.tokens = { (void *)&t_trace, (void *)&t_trace_op, NULL },
};
static cmdline_parse_inst_t cmd_trace_file = {
	.f = cmd_trace_file_parsed,
	.help_str = "set trace file <path>",
	.tokens = { (void *)&t_set, (void *)&t_trace1, (void *)&t_file, (void *)&t_a0, NULL },
};
static cmdline_parse_token_string_t t_tfmt_set =
		TOKEN_STRING_INITIALIZER(struct cmd_tfmt_result, set, "set");
static cmdline_parse_token_string_t t_tfmt_what =
		TOKEN_STRING_INITIALIZER(struct cmd_tfmt_result, what, "trace-format");
static cmdline_parse_token_string_t t_tfmt_id =
		TOKEN_STRING_INITIALIZER(struct cmd_tfmt_result, id, NULL);
static cmdline_parse_token_string_t t_tfmt_fmt =
		TOKEN_STRING_INITIALIZER(struct cmd_tfmt_result, fmt, TOKEN_STRING_MULTI);
static cmdline_parse_inst_t cmd_tfmt = {
	.f = cmd_tfmt_parsed,
	.help_str = "set trace-format <id> <format>: the format of trace records of id "
		    "(up to 5 integer conversions)",
	.tokens = { (void *)&t_tfmt_set, (void *)&t_tfmt_what, (void *)&t_tfmt_id,
			(void *)&t_tfmt_fmt, NULL },
};
static cmdline_parse_inst_t cmd_mailbox = {
	.f = cmd_mailbox_parsed,
	.help_str = "mailbox send <port> <slot> <hex bytes>: to the algorithm at slot of an RP "
		    "port, or an NP port's application",
	.tokens = { (void *)&t_mailbox, (void *)&t_send, (void *)&t_w1, (void *)&t_a0,
			(void *)&t_a2, NULL },
};

cmdline_parse_inst_t *cmds_host_list[] = {
	&cmd_trace,
	&cmd_trace_file,
	&cmd_tfmt,
	&cmd_mailbox,
	NULL,
};
