/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the --gen-file parser (lib/host/host_genfile.c over
 * lib/flowspec): a good file, defaults, both layouts, the scenario's units
 * and keys, and every error with its FILE:LINE:COLUMN.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "host_genfile.h"

static char err[512];
static struct host_gen_file gf;

static int
parse(const char *text)
{
	host_gen_file_free(&gf);
	err[0] = '\0';
	return host_gen_file_parse(text, strlen(text), "t.yaml", &gf, err, sizeof(err));
}

/* parse fails with a message starting with prefix and containing what */
static void
expect_err(const char *text, const char *prefix, const char *what)
{
	assert_int_equal(parse(text), -1);
	if (strncmp(err, prefix, strlen(prefix)) != 0 || strstr(err, what) == NULL)
		fail_msg("for:\n%s\ngot: %s\nexpected: %s ... %s", text, err, prefix, what);
	assert_int_equal(gf.nb, 0);
	assert_null(gf.groups);
}

static void
test_good(void **state)
{
	(void)state;
	assert_int_equal(parse("# flows\n"
			       "flows:\n"
			       "  - count: 4\n"
			       "    qpn: 0x100\n"
			       "  - count: 2\n"
			       "    qpn: 512\n"
			       "    port: 1\n"
			       "    size: 1MiB\n"
			       "    payload: 4KiB\n"
			       "    start: 2.5ms\n"
			       "    rate: line\n"),
			0);
	assert_int_equal(gf.nb, 2);
	assert_int_equal(gf.groups[0].count, 4);
	assert_int_equal(gf.groups[0].qpn_base, 0x100);
	assert_int_equal(gf.groups[0].port_id, -1);
	assert_int_equal(gf.groups[0].size, 0); /* infinite */
	assert_int_equal(gf.groups[0].payload_len, 0);
	assert_int_equal(gf.groups[0].rate_mbps, 0);
	assert_false(gf.groups[0].unpaced);
	assert_false(gf.groups[0].slot_set);
	assert_int_equal(gf.lines[0], 3);
	assert_int_equal(gf.groups[1].port_id, 1);
	assert_int_equal(gf.groups[1].size, 1048576);
	assert_int_equal(gf.groups[1].payload_len, 4096);
	assert_int_equal(gf.groups[1].start_ns, 2500000);
	assert_true(gf.groups[1].unpaced);
	assert_int_equal(gf.lines[1], 5);
	/* the list alone, flow style; the scenario's units and keys */
	assert_int_equal(parse("- {count: 3, qpn: 2, rate: 300M, size: 1MB, start: 10us, "
			       "stagger: 2us, slot: 3, dst_qpn: 0x900}\n"),
			0);
	assert_int_equal(gf.nb, 1);
	assert_int_equal(gf.groups[0].rate_mbps, 300);
	assert_false(gf.groups[0].unpaced);
	assert_int_equal(gf.groups[0].size, 1000000);
	assert_int_equal(gf.groups[0].start_ns, 10000);
	assert_int_equal(gf.groups[0].stagger_ns, 2000);
	assert_true(gf.groups[0].slot_set);
	assert_int_equal(gf.groups[0].slot, 3);
	assert_int_equal(gf.groups[0].dst_qpn_base, 0x900);
	/* a bare rate is Gb/s, as in scenarios; rates go in whole Mb/s */
	assert_int_equal(parse("- {count: 1, qpn: 2, rate: 25}\n"), 0);
	assert_int_equal(gf.groups[0].rate_mbps, 25000);
	assert_int_equal(parse("- {count: 1, qpn: 2, rate: 0.4M}\n"), 0);
	assert_int_equal(gf.groups[0].rate_mbps, 1);
	assert_int_equal(parse("- {count: 1, qpn: 2, rate: 0, size: infinite}\n"), 0);
	assert_true(gf.groups[0].unpaced);
	assert_int_equal(gf.groups[0].size, 0);
	/* same QPNs on two different ports */
	assert_int_equal(parse("- {count: 4, qpn: 10, port: 0}\n- {count: 4, qpn: 10, port: 1}\n"),
			0);
}

static void
test_errors(void **state)
{
	(void)state;
	expect_err("", "t.yaml:1:1:", "empty file");
	expect_err("flows: [\n", "t.yaml:2:", "YAML syntax error");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n   bad indent: 1\n", "t.yaml:", "");
	expect_err("flows:\n  - {count: 1, qpn: 2}\n---\n- {count: 1, qpn: 9}\n",
			"t.yaml:3:", "a second YAML document");
	expect_err("flow:\n  - {count: 1, qpn: 2}\n", "t.yaml:1:1:", "expected 'flows'");
	expect_err("flows: 3\n", "t.yaml:1:8:", "must be a list");
	expect_err("flows: []\n", "t.yaml:1:8:", "no flow groups");
	expect_err("flows:\n  - 5\n", "t.yaml:2:5:", "must be a mapping");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    colour: red\n", "t.yaml:4:5:",
			"unknown key 'colour' in a flow group (known: count, qpn, "
			"dst_qpn, size, payload, start, stagger, rate, slot, port)");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    count: 3\n",
			"t.yaml:4:5:", "duplicate key 'count'");
	expect_err("flows:\n  - qpn: 2\n", "t.yaml:2:5:", "missing required key 'count'");
	expect_err("flows:\n  - count: 2\n", "t.yaml:2:5:", "missing required key 'qpn'");
	expect_err("flows:\n  - count: 0\n    qpn: 2\n",
			"t.yaml:2:12:", "'count': 0 is out of range [1, 1048576]");
	expect_err("flows:\n  - count: 1\n    qpn: 1\n",
			"t.yaml:3:10:", "'qpn': 1 is out of range [2, 16777215]");
	expect_err("flows:\n  - count: 1\n    qpn: 0x1000000\n", "t.yaml:3:", "'qpn'");
	expect_err("flows:\n  - count: 16\n    qpn: 0xfffff8\n", "t.yaml:3:", "go past 0xffffff");
	expect_err("flows:\n  - count: 1\n    qpn: two\n",
			"t.yaml:3:10:", "'qpn': 'two' is not a non-negative integer");
	expect_err("flows:\n  - count: 1\n    qpn: -5\n", "t.yaml:3:", "'qpn'");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    payload: 9000\n",
			"t.yaml:4:", "'payload': 9000 is out of range [1, 8192]");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    rate: 401G\n",
			"t.yaml:4:", "'rate': 401G is out of range");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    rate: fast\n", "t.yaml:4:",
			"'rate': 'fast' is not a rate (Gb/s, or with G, Gbps, M, Mbps) "
			"or 'line'");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    start: 3 parsecs\n",
			"t.yaml:4:", "'start': '3 parsecs' is not a time");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    port: 32\n", "t.yaml:4:", "'port'");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    slot: 8\n", "t.yaml:4:", "'slot'");
	expect_err("flows:\n  - count: 1\n    qpn: [2]\n",
			"t.yaml:3:", "'qpn' must be a scalar, not a list");
	expect_err("flows:\n  - count: 3\n    qpn: 2\n    dst_qpn: 0xfffffe\n",
			"t.yaml:4:", "DestQPs 0xfffffe..0x1000000 go past 0xffffff");
	expect_err("flows:\n  - count: 3\n    qpn: 2\n    start: 999s\n    stagger: 1s\n",
			"t.yaml:5:", "start after 1000 s");
	/* a scenario's keys: simulator only */
	expect_err("flows:\n  - {count: 1, qpn: 2, src: s0}\n",
			"t.yaml:2:24:", "'src': simulator scenarios only");
	expect_err("flows:\n  - {count: 1, qpn: 2, source: model}\n",
			"t.yaml:2:", "'source': simulator scenarios only");
	/* the spellings of earlier versions, with the new one */
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    rate_mbps: 300\n", "t.yaml:4:5:",
			"'rate_mbps' is --gen-file's earlier spelling: write rate: 300M (values "
			"take a unit)");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    start_us: 500\n", "t.yaml:4:5:",
			"'start_us' is --gen-file's earlier spelling: write start: 500us");
	/* found in review: positions of encoding errors, tiny values that
	 * would read as 'infinite' or 'line', fractions of integers, a
	 * second flows: list */
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    size: \xff\xfe\n",
			"t.yaml:4:11:", "YAML syntax error: invalid leading UTF-8 octet");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    size: 0.4\n",
			"t.yaml:4:11:", "'size': 0.4 is above 0 but below 1 byte");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    rate: 0.0000000004\n",
			"t.yaml:4:", "below 1 b/s");
	expect_err("flows:\n  - count: 1\n    qpn: 2\n    payload: 0.5\n",
			"t.yaml:4:", "'payload': 0.5 is above 0 but below 1 byte");
	expect_err("flows:\n  - count: 1.5\n    qpn: 2\n",
			"t.yaml:2:12:", "'count': '1.5' is not a non-negative integer");
	expect_err("flows:\n  - {count: 1, qpn: 2}\nflows:\n  - {count: 1, qpn: 9}\n",
			"t.yaml:3:1:", "'flows' given twice");
	/* overlapping QPNs on a common port: the second group's line */
	expect_err("flows:\n  - {count: 10, qpn: 100}\n  - {count: 1, qpn: 105, port: 2}\n",
			"t.yaml:3:", "overlap those of the group at line 2");
	expect_err("flows:\n  - {count: 10, qpn: 100, port: 1}\n  - {count: 10, qpn: 95, port: "
		   "1}\n",
			"t.yaml:3:", "overlap");
}

static void
test_file(void **state)
{
	char path[] = "/tmp/pcc_genfile_XXXXXX";
	FILE *f;
	int fd;

	(void)state;
	assert_int_equal(host_gen_file_load("/nonexistent/x.yaml", &gf, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x.yaml: "));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("flows:\n  - count: 3\n    qpn: 7\n  - count: 1\n    qpn: 7\n", f);
	fclose(f);
	assert_int_equal(host_gen_file_load(path, &gf, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":4:5: QPNs overlap"));
	assert_true(strncmp(err, path, strlen(path)) == 0);
	unlink(path);
	host_gen_file_free(&gf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
