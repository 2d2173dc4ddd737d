/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * lib/file (pcc_file.h): private directories, files created O_EXCL |
 * O_NOFOLLOW 0600, existing files kept only when they are ours alone,
 * input files that are regular and bounded.  Ownership by another user is
 * made with chown (the tests run as root; skipped otherwise).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pcc_file.h"

#define OTHER_UID 65534 /* nobody */

static char top[64];

static const char *
p(const char *name)
{
	static char buf[4][160];
	static unsigned int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", top, name);
	return buf[k];
}

static unsigned int
mode_of(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return 0xffff;
	return (unsigned int)(st.st_mode & 07777);
}

static void
write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/pcc-file-XXXXXX");
	return mkdtemp(top) != NULL ? 0 : -1;
}

static int
teardown(void **state)
{
	char cmd[96];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_split(void **state)
{
	char dir[32];
	const char *base;

	(void)state;
	assert_int_equal(pcc_file_split("/a/b/c", dir, sizeof(dir), &base), 0);
	assert_string_equal(dir, "/a/b");
	assert_string_equal(base, "c");
	assert_int_equal(pcc_file_split("/c", dir, sizeof(dir), &base), 0);
	assert_string_equal(dir, "/");
	assert_int_equal(pcc_file_split("c", dir, sizeof(dir), &base), 0);
	assert_string_equal(dir, ".");
	assert_int_equal(pcc_file_split("a/", dir, sizeof(dir), &base), -EINVAL);
	assert_int_equal(pcc_file_split("a/..", dir, sizeof(dir), &base), -EINVAL);
	assert_int_equal(pcc_file_split("a/.", dir, sizeof(dir), &base), -EINVAL);
	assert_int_equal(pcc_file_split("", dir, sizeof(dir), &base), -EINVAL);
	assert_int_equal(pcc_file_split("/a/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/c", dir, 8, &base),
			-ENAMETOOLONG);
}

static void
test_dirs(void **state)
{
	char why[PCC_FILE_WHY_LEN];
	int fd;

	(void)state;
	/* the test's own mkdtemp directory is private */
	fd = pcc_file_dir_open(top, why, sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	/* shared, or someone else's: refused with the reason */
	assert_int_equal(pcc_file_dir_open("/tmp", why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "/tmp is writable by others (mode 1777)"));
	assert_int_equal(mkdir(p("g"), 0770), 0);
	assert_int_equal(chmod(p("g"), 0770), 0);
	assert_int_equal(pcc_file_dir_open(p("g"), why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "writable by its group (mode 0770)"));
	assert_int_equal(pcc_file_dir_open(p("none"), why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "No such file"));
	write_file(p("f"), "x", 0600);
	assert_int_equal(pcc_file_dir_open(p("f"), why, sizeof(why)), -ENOTDIR);
	/* made 0700, parents too; strict refuses an existing 0755 */
	fd = pcc_file_dir_make(p("m/n"), true, why, sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mode_of(p("m")), 0700);
	assert_int_equal(mode_of(p("m/n")), 0700);
	assert_int_equal(mkdir(p("o"), 0755), 0);
	assert_int_equal(chmod(p("o"), 0755), 0);
	fd = pcc_file_dir_make(p("o"), false, why, sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mode_of(p("o")), 0755);
	fd = pcc_file_dir_make(p("o"), true, why, sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mode_of(p("o")), 0700);
	/* usable: exists and private, or creatable under a directory */
	assert_int_equal(pcc_file_dir_usable(top, why, sizeof(why)), 0);
	assert_int_equal(pcc_file_dir_usable(p("new/a/b"), why, sizeof(why)), 0);
	assert_int_equal(access(p("new"), F_OK), -1);
	assert_int_equal(pcc_file_dir_usable(p("f/x"), why, sizeof(why)), -ENOTDIR);
	assert_non_null(strstr(why, "/f is not a directory"));
	assert_int_equal(pcc_file_dir_usable("/etc/passwd/x", why, sizeof(why)), -ENOTDIR);
	assert_non_null(strstr(why, "/etc/passwd is not a directory"));
	assert_int_equal(pcc_file_dir_usable("/tmp", why, sizeof(why)), -EPERM);
	if (geteuid() != 0)
		return;
	assert_int_equal(mkdir(p("theirs"), 0700), 0);
	assert_int_equal(chown(p("theirs"), OTHER_UID, OTHER_UID), 0);
	assert_int_equal(pcc_file_dir_make(p("theirs"), true, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "owned by uid 65534"));
}

static void
test_create(void **state)
{
	char why[PCC_FILE_WHY_LEN], buf[16];
	const char *base;
	int dfd, fd;

	(void)state;
	/* new file 0600 even with a permissive umask */
	umask(0);
	fd = pcc_file_create(p("new"), O_WRONLY, why, sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	umask(022);
	assert_int_equal(mode_of(p("new")), 0600);
	/* an existing file is replaced, not truncated through */
	write_file(p("old"), "old", 0644);
	fd = pcc_file_create(p("old"), O_WRONLY, why, sizeof(why));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "new", 3), 3);
	close(fd);
	assert_int_equal(mode_of(p("old")), 0600);
	/* a link is refused by the target check ... */
	write_file(p("victim"), "secret", 0600);
	assert_int_equal(symlink(p("victim"), p("link")), 0);
	assert_int_equal(pcc_file_create(p("link"), O_WRONLY, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "symbolic link"));
	/* ... and a link planted after it is replaced, its target untouched */
	dfd = pcc_file_target(p("late"), &base, why, sizeof(why));
	assert_true(dfd >= 0);
	assert_string_equal(base, "late");
	assert_int_equal(symlink(p("victim"), p("late")), 0);
	assert_int_equal(pcc_file_create_at(dfd, base, O_WRONLY, false, why, sizeof(why)), -EEXIST);
	fd = pcc_file_create_at(dfd, base, O_WRONLY, true, NULL, 0);
	assert_true(fd >= 0);
	close(fd);
	close(dfd);
	fd = open(p("victim"), O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf)), 6);
	close(fd);
	assert_int_equal(mode_of(p("late")), 0600);
	/* a directory, or a file in a shared directory */
	assert_int_equal(mkdir(p("d"), 0700), 0);
	assert_int_equal(pcc_file_create(p("d"), O_WRONLY, why, sizeof(why)), -EISDIR);
	/* others may write into it: refused without the sticky bit */
	assert_int_equal(mkdir(p("open"), 0700), 0);
	assert_int_equal(chmod(p("open"), 0777), 0);
	assert_int_equal(pcc_file_create(p("open/x"), O_WRONLY, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "writable by others (mode 0777) without the sticky bit"));
	assert_null(pcc_file_fcreate(p("open/x"), "w", why, sizeof(why)));
	assert_int_equal(errno, EPERM);
	/* with it (as /tmp): a fresh 0600 file; a link planted there refused */
	assert_int_equal(chmod(p("open"), 01777), 0);
	fd = pcc_file_create(p("open/x"), O_WRONLY, why, sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mode_of(p("open/x")), 0600);
	assert_int_equal(symlink(p("victim"), p("open/l")), 0);
	assert_int_equal(pcc_file_create(p("open/l"), O_WRONLY, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "symbolic link"));
	assert_int_equal(unlink(p("open/l")), 0);
	assert_int_equal(unlink(p("open/x")), 0);
	assert_int_equal(rmdir(p("open")), 0);
	if (geteuid() != 0)
		return;
	write_file(p("theirs.txt"), "x", 0600);
	assert_int_equal(chown(p("theirs.txt"), OTHER_UID, OTHER_UID), 0);
	assert_int_equal(pcc_file_create(p("theirs.txt"), O_WRONLY, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "owned by uid 65534"));
}

static void
test_open_existing(void **state)
{
	char why[PCC_FILE_WHY_LEN];
	bool created;
	int dfd, fd;
	FILE *f;

	(void)state;
	dfd = pcc_file_dir_open(top, why, sizeof(why));
	assert_true(dfd >= 0);
	assert_int_equal(pcc_file_open_at(dfd, "missing", O_RDONLY, why, sizeof(why)), -ENOENT);
	fd = pcc_file_open_or_create_at(dfd, "lock", O_RDWR, &created, why, sizeof(why));
	assert_true(fd >= 0 && created);
	close(fd);
	fd = pcc_file_open_or_create_at(dfd, "lock", O_RDWR, &created, why, sizeof(why));
	assert_true(fd >= 0 && !created);
	close(fd);
	/* open to others, linked twice, a link, not a file */
	write_file(p("wide"), "x", 0644);
	assert_int_equal(pcc_file_open_at(dfd, "wide", O_RDONLY, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "mode 0644"));
	assert_int_equal(link(p("lock"), p("lock2")), 0);
	assert_int_equal(pcc_file_open_at(dfd, "lock", O_RDONLY, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "2 links"));
	assert_int_equal(unlink(p("lock2")), 0);
	assert_int_equal(symlink(p("lock"), p("sl")), 0);
	assert_int_equal(pcc_file_open_at(dfd, "sl", O_RDONLY, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "symbolic link"));
	assert_int_equal(mkfifo(p("fifo"), 0600), 0);
	assert_int_equal(pcc_file_open_at(dfd, "fifo", O_RDONLY, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "not a regular file"));
	/* appending keeps what is there */
	f = pcc_file_fappend(p("lock"), why, sizeof(why));
	assert_non_null(f);
	fputs("a", f);
	fclose(f);
	f = pcc_file_fappend(p("lock"), why, sizeof(why));
	assert_non_null(f);
	fputs("b", f);
	fclose(f);
	assert_int_equal(mode_of(p("lock")), 0600);
	assert_null(pcc_file_fappend(p("wide"), why, sizeof(why)));
	close(dfd);
}

static void
test_input(void **state)
{
	char why[PCC_FILE_WHY_LEN];
	FILE *f;
	int fd;

	(void)state;
	write_file(p("in.yaml"), "a: 1\n", 0644);
	fd = pcc_file_open_input(p("in.yaml"), 100, why, sizeof(why));
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);
	assert_int_equal(pcc_file_open_input(p("in.yaml"), 4, why, sizeof(why)), -EFBIG);
	assert_non_null(strstr(why, "5 bytes, more than the 4 read"));
	/* a FIFO without a writer: refused at once, no hang */
	assert_int_equal(mkfifo(p("in.fifo"), 0600), 0);
	assert_int_equal(pcc_file_open_input(p("in.fifo"), 100, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "is not a regular file (a FIFO)"));
	assert_int_equal(pcc_file_open_input("/dev/zero", 100, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "/dev/zero is not a regular file (a character device)"));
	assert_int_equal(pcc_file_open_input(top, 100, why, sizeof(why)), -EISDIR);
	assert_int_equal(pcc_file_open_input(p("nope"), 100, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "No such file"));
	f = pcc_file_fopen_input(p("in.yaml"), 100, why, sizeof(why));
	assert_non_null(f);
	fclose(f);
	assert_null(pcc_file_fopen_input("/dev/zero", 100, why, sizeof(why)));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_dirs),
		cmocka_unit_test(test_create),
		cmocka_unit_test(test_open_existing),
		cmocka_unit_test(test_input),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
