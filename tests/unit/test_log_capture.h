/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_LOG_CAPTURE_H
#define TEST_LOG_CAPTURE_H

/*
 * Capture what rte_log writes during a test, to count log lines (e.g. the
 * one line a pacer fallback promises).  Include after cmocka.h.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_log.h>

static char *log_buf;
static size_t log_len;
static FILE *log_f;

/* Start capturing rte_log output. */
static void
log_capture(void)
{
	log_f = open_memstream(&log_buf, &log_len);
	assert_non_null(log_f);
	rte_openlog_stream(log_f);
}

/*
 * Stop capturing; echo each line as a TAP comment; return the number of
 * lines logged and, in *with, how many contain needle.
 */
static unsigned int
log_release(const char *needle, unsigned int *with)
{
	unsigned int lines = 0;
	char *s, *save = NULL;

	rte_openlog_stream(stderr);
	fclose(log_f);
	*with = 0;
	for (s = strtok_r(log_buf, "\n", &save); s != NULL; s = strtok_r(NULL, "\n", &save)) {
		fprintf(stderr, "# log: %s\n", s);
		lines++;
		if (strstr(s, needle) != NULL)
			(*with)++;
	}
	free(log_buf);
	log_buf = NULL;
	return lines;
}

#endif /* TEST_LOG_CAPTURE_H */
