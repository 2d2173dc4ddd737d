/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_EAL_H
#define TEST_EAL_H

/*
 * Start and stop the EAL the way the unit tests do: small, private to the
 * process, quiet.
 */

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>

/* the most extra arguments test_eal_init() takes */
#define TEST_EAL_MAX_EXTRA 8

/*
 * rte_eal_init() with
 *
 *   name --no-huge -m mem_mb --no-pci --no-shconf --no-telemetry
 *        --file-prefix name-<pid> --log-level lib.*:error  extra...
 *
 * where extra is a NULL-terminated list of further arguments, passed as
 * given (e.g. "-l", "0", "--log-level", "pcc.*:warning", NULL).  The file
 * prefix holds the process id, so tests running in parallel never share
 * one.  Returns what rte_eal_init() returns (< 0 on failure, rte_errno
 * set); -1 with rte_errno E2BIG for more than TEST_EAL_MAX_EXTRA extras.
 */
static inline int test_eal_init(const char *name, const char *mem_mb, ...)
		__attribute__((sentinel));

static inline int
test_eal_init(const char *name, const char *mem_mb, ...)
{
	static char prefix[64];
	char *argv[11 + TEST_EAL_MAX_EXTRA + 1] = {
		(char *)(uintptr_t)name,
		(char *)(uintptr_t) "--no-huge",
		(char *)(uintptr_t) "-m",
		(char *)(uintptr_t)mem_mb,
		(char *)(uintptr_t) "--no-pci",
		(char *)(uintptr_t) "--no-shconf",
		(char *)(uintptr_t) "--no-telemetry",
		(char *)(uintptr_t) "--file-prefix",
		prefix,
		(char *)(uintptr_t) "--log-level",
		(char *)(uintptr_t) "lib.*:error",
	};
	const char *arg;
	int argc = 11; /* the arguments above */
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s-%d", name, (int)getpid());
	va_start(ap, mem_mb);
	while ((arg = va_arg(ap, const char *)) != NULL) {
		if (argc == (int)RTE_DIM(argv) - 1) {
			va_end(ap);
			rte_errno = E2BIG;
			return -1;
		}
		argv[argc++] = (char *)(uintptr_t)arg;
	}
	va_end(ap);
	argv[argc] = NULL;
	return rte_eal_init(argc, argv);
}

/*
 * rte_eal_cleanup(), then remove the EAL's runtime directory
 * (/var/run/dpdk/<prefix>: with --no-shconf only this process's telemetry
 * socket in it), which the EAL leaves behind: one per test or benchmark
 * run otherwise.  tests/bench use it too.
 */
static inline void
test_eal_cleanup(void)
{
	char dir[PATH_MAX], sock[PATH_MAX + 32];

	snprintf(dir, sizeof(dir), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	if (dir[0] == '\0')
		return;
	/* the telemetry socket (without --no-telemetry) is unlinked only by
	 * an exit handler */
	snprintf(sock, sizeof(sock), "%s/dpdk_telemetry.v2", dir);
	unlink(sock);
	rmdir(dir);
}

/* A cmocka group teardown that only stops the EAL (test_eal_cleanup()). */
static inline int
test_eal_group_teardown(void **state)
{
	(void)state;
	test_eal_cleanup();
	return 0;
}

#endif /* TEST_EAL_H */
