/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PLUGIN_STAGE_H
#define PLUGIN_STAGE_H

/*
 * Test helper: copy a plug-in into a private temporary directory with a
 * chosen mode, so that the loader's permission checks see exactly what
 * the test wants whatever the build directory's umask was.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char stage_dir[PATH_MAX];

/* Copy src to <stage dir>/<as> with mode; path in out.  0 or -errno. */
static inline int
plugin_stage(const char *src, const char *as, mode_t mode, char *out, size_t outlen)
{
	char buf[65536];
	ssize_t n;
	int in, fd, rc = 0;

	if (stage_dir[0] == '\0') {
		const char *tmp = getenv("TMPDIR");

		snprintf(stage_dir, sizeof(stage_dir), "%s/pcc-plugin-XXXXXX",
				tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
		if (mkdtemp(stage_dir) == NULL) {
			stage_dir[0] = '\0';
			return -errno;
		}
	}
	snprintf(out, outlen, "%s/%s", stage_dir, as);
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	unlink(out);
	fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(fd, buf, (size_t)n) != n) {
			rc = -EIO;
			break;
		}
	}
	if (n < 0)
		rc = -errno;
	close(in);
	if (fchmod(fd, mode) < 0 && rc == 0)
		rc = -errno;
	close(fd);
	return rc;
}

/* Remove the staged files and the directory. */
static inline void
plugin_stage_cleanup(void)
{
	char cmd[PATH_MAX + 16];

	if (stage_dir[0] == '\0')
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", stage_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", stage_dir);
	stage_dir[0] = '\0';
}

#endif /* PLUGIN_STAGE_H */
