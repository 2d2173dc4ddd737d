/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Private directories and files (pcc_file.h). */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcc_file.h"

static int
fail(char *why, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL && len > 0) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return rc;
}

static const char *
who_writes(mode_t m)
{
	return (m & S_IWOTH) != 0 ? "others" : "its group";
}

int
pcc_file_dir_check(int dfd, const char *path, char *why, size_t len)
{
	struct stat st;

	if (fstat(dfd, &st) != 0)
		return fail(why, len, -errno, "directory %s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fail(why, len, -ENOTDIR, "%s is not a directory", path);
	if (st.st_uid != geteuid())
		return fail(why, len, -EPERM,
				"directory %s is owned by uid %u, not by uid %u running dpdk-pcc: "
				"refused (a private directory is needed)",
				path, (unsigned int)st.st_uid, (unsigned int)geteuid());
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return fail(why, len, -EPERM,
				"directory %s is writable by %s (mode %04o): refused (a private "
				"directory is needed)",
				path, who_writes(st.st_mode), (unsigned int)(st.st_mode & 07777));
	return 0;
}

int
pcc_file_dir_open(const char *path, char *why, size_t len)
{
	int fd, rc;

	if (path == NULL || path[0] == '\0')
		return fail(why, len, -EINVAL, "empty directory name");
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		return fail(why, len, rc, "directory %s: %s", path, strerror(-rc));
	}
	rc = pcc_file_dir_check(fd, path, why, len);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

int
pcc_file_dir_make(const char *path, bool strict, char *why, size_t len)
{
	char tmp[PATH_MAX];
	struct stat st;
	size_t i, n;
	int fd;

	if (path == NULL || path[0] == '\0')
		return fail(why, len, -EINVAL, "empty directory name");
	n = strlen(path);
	if (n >= sizeof(tmp))
		return fail(why, len, -ENAMETOOLONG, "directory name too long");
	memcpy(tmp, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (tmp[i] != '/' && tmp[i] != '\0')
			continue;
		tmp[i] = '\0';
		if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
			return fail(why, len, -errno, "cannot create directory %s: %s", tmp,
					strerror(errno));
		tmp[i] = path[i];
	}
	fd = pcc_file_dir_open(path, why, len);
	if (fd < 0 || !strict)
		return fd;
	/* ours and writable by no one else (checked): nobody else can have
	 * put anything in it, so tightening it to 0700 is safe */
	if (fstat(fd, &st) == 0 && (st.st_mode & 077) != 0) {
		int rd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (rd < 0 || fchmod(rd, 0700) != 0) {
			if (rd >= 0)
				close(rd);
			close(fd);
			return fail(why, len, -EPERM,
					"directory %s has mode %04o and cannot be made 0700: "
					"refused",
					path, (unsigned int)(st.st_mode & 07777));
		}
		close(rd);
	}
	return fd;
}

int
pcc_file_dir_usable(const char *path, char *why, size_t len)
{
	char tmp[PATH_MAX];
	struct stat st;
	char *slash;
	int fd;

	if (path == NULL || path[0] == '\0')
		return fail(why, len, -EINVAL, "empty directory name");
	if (strlen(path) >= sizeof(tmp))
		return fail(why, len, -ENAMETOOLONG, "directory name too long");
	if (stat(path, &st) == 0) {
		fd = pcc_file_dir_open(path, why, len);
		if (fd < 0)
			return fd;
		close(fd);
		return 0;
	}
	if (errno == ENOTDIR)
		goto notdir;
	if (errno != ENOENT)
		return fail(why, len, -errno, "directory %s: %s", path, strerror(errno));
	/* the nearest ancestor that exists */
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (;;) {
		slash = strrchr(tmp, '/');
		if (slash == NULL) {
			snprintf(tmp, sizeof(tmp), ".");
		} else {
			while (slash > tmp && slash[-1] == '/')
				slash--;
			if (slash == tmp)
				slash++;
			*slash = '\0';
		}
		if (stat(tmp, &st) == 0)
			break;
		if (errno == ENOTDIR)
			goto notdir;
		if (errno != ENOENT || slash == NULL)
			return fail(why, len, -errno, "directory %s: %s", tmp, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return fail(why, len, -ENOTDIR, "directory %s: %s is not a directory", path, tmp);
	if (access(tmp, W_OK | X_OK) != 0)
		return fail(why, len, -errno, "directory %s: cannot create it in %s: %s", path, tmp,
				strerror(errno));
	return 0;
notdir:
	/* a component is a file: name it */
	snprintf(tmp, sizeof(tmp), "%s", path);
	while ((slash = strrchr(tmp, '/')) != NULL && slash != tmp) {
		*slash = '\0';
		if (stat(tmp, &st) == 0 && !S_ISDIR(st.st_mode))
			return fail(why, len, -ENOTDIR, "directory %s: %s is not a directory", path,
					tmp);
	}
	return fail(why, len, -ENOTDIR, "directory %s: not a directory", path);
}

int
pcc_file_split(const char *path, char *dir, size_t dirlen, const char **base)
{
	const char *slash;
	size_t n;

	if (path == NULL || path[0] == '\0')
		return -EINVAL;
	slash = strrchr(path, '/');
	*base = slash != NULL ? slash + 1 : path;
	if ((*base)[0] == '\0' || strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0)
		return -EINVAL;
	if (slash == NULL) {
		n = 1;
		path = ".";
	} else {
		n = slash == path ? 1 : (size_t)(slash - path);
	}
	if (n >= dirlen)
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return 0;
}

/* An open file's type, links, owner and mode: ours alone? */
static int
own_file_check(int fd, const char *name, char *why, size_t len)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return fail(why, len, -errno, "%s: %s", name, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(why, len, -EINVAL, "%s is not a regular file: refused", name);
	if (st.st_uid != geteuid())
		return fail(why, len, -EPERM, "%s is owned by uid %u, not by uid %u: refused", name,
				(unsigned int)st.st_uid, (unsigned int)geteuid());
	if ((st.st_mode & 077) != 0)
		return fail(why, len, -EPERM,
				"%s has mode %04o (open to others): refused; remove it, it is "
				"made again 0600",
				name, (unsigned int)(st.st_mode & 07777));
	if (st.st_nlink != 1)
		return fail(why, len, -EPERM, "%s has %u links: refused", name,
				(unsigned int)st.st_nlink);
	return 0;
}

int
pcc_file_create_at(int dfd, const char *name, int flags, bool replace, char *why, size_t len)
{
	int fd, rc;

	flags |= O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	fd = openat(dfd, name, flags, 0600);
	if (fd < 0 && errno == EEXIST && replace) {
		if (unlinkat(dfd, name, 0) != 0 && errno != ENOENT) {
			rc = -errno;
			if (why != NULL)
				fail(why, len, rc, "cannot replace %s: %s", name, strerror(-rc));
			return rc;
		}
		fd = openat(dfd, name, flags, 0600);
	}
	if (fd < 0) {
		rc = -errno;
		if (why != NULL)
			fail(why, len, rc, "cannot create %s: %s", name, strerror(-rc));
		return rc;
	}
	return fd;
}

int
pcc_file_open_at(int dfd, const char *name, int flags, char *why, size_t len)
{
	int fd, rc;

	fd = openat(dfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		rc = -errno;
		if (rc == -ELOOP)
			return fail(why, len, -EPERM, "%s is a symbolic link: refused", name);
		return fail(why, len, rc, "cannot open %s: %s", name, strerror(-rc));
	}
	rc = own_file_check(fd, name, why, len);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	/* a regular file: blocking is meaningless, keep the caller's flags */
	if ((flags & O_NONBLOCK) == 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int
pcc_file_open_or_create_at(
		int dfd, const char *name, int flags, bool *created, char *why, size_t len)
{
	unsigned int tries;
	int fd = -ENOENT;

	if (created != NULL)
		*created = false;
	/* another process may create it between the two: open again */
	for (tries = 0; tries < 3; tries++) {
		fd = pcc_file_open_at(dfd, name, flags, why, len);
		if (fd != -ENOENT)
			return fd;
		fd = pcc_file_create_at(dfd, name, flags, false, why, len);
		if (fd >= 0) {
			if (created != NULL)
				*created = true;
			return fd;
		}
		if (fd != -EEXIST)
			return fd;
	}
	return fd;
}

/*
 * The directory of an output file: private, or a shared sticky one (/tmp:
 * S_ISVTX, owned by root or the effective user), where nobody else can
 * remove or rename our entries and what we create is O_EXCL | O_NOFOLLOW.
 */
static int
output_dir_open(const char *path, char *why, size_t len)
{
	struct stat st;
	int fd, rc;

	fd = pcc_file_dir_open(path, why, len);
	if (fd != -EPERM)
		return fd;
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail(why, len, -errno, "directory %s: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		rc = -errno;
		close(fd);
		return fail(why, len, rc, "directory %s: %s", path, strerror(-rc));
	}
	if ((st.st_mode & S_ISVTX) != 0 && (st.st_uid == 0 || st.st_uid == geteuid()))
		return fd;
	close(fd);
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return fail(why, len, -EPERM,
				"directory %s is owned by uid %u, not by uid %u running dpdk-pcc: "
				"refused (a private directory, or a sticky one like /tmp, is "
				"needed)",
				path, (unsigned int)st.st_uid, (unsigned int)geteuid());
	return fail(why, len, -EPERM,
			"directory %s is writable by %s (mode %04o) without the sticky bit: "
			"refused (a private directory, or a sticky one like /tmp, is needed)",
			path, who_writes(st.st_mode), (unsigned int)(st.st_mode & 07777));
}

int
pcc_file_target(const char *path, const char **base, char *why, size_t len)
{
	char dir[PATH_MAX];
	struct stat st;
	int dfd, rc;

	if (path == NULL || path[0] == '\0')
		return fail(why, len, -EINVAL, "empty file name");
	rc = pcc_file_split(path, dir, sizeof(dir), base);
	if (rc == -ENAMETOOLONG)
		return fail(why, len, rc, "%s: name too long", path);
	if (rc < 0)
		return fail(why, len, rc, "%s does not name a file", path);
	dfd = output_dir_open(dir, why, len);
	if (dfd < 0)
		return dfd;
	if (fstatat(dfd, *base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		rc = 0;
		if (S_ISLNK(st.st_mode))
			rc = fail(why, len, -EPERM, "%s is a symbolic link: refused", path);
		else if (S_ISDIR(st.st_mode))
			rc = fail(why, len, -EISDIR, "%s is a directory", path);
		else if (!S_ISREG(st.st_mode))
			rc = fail(why, len, -EINVAL, "%s is not a regular file", path);
		else if (st.st_uid != geteuid())
			rc = fail(why, len, -EPERM, "%s is owned by uid %u, not by uid %u: refused",
					path, (unsigned int)st.st_uid, (unsigned int)geteuid());
		if (rc < 0) {
			close(dfd);
			return rc;
		}
	} else if (errno != ENOENT) {
		rc = -errno;
		close(dfd);
		return fail(why, len, rc, "%s: %s", path, strerror(-rc));
	}
	return dfd;
}

int
pcc_file_create(const char *path, int flags, char *why, size_t len)
{
	const char *base;
	int dfd, fd;

	dfd = pcc_file_target(path, &base, why, len);
	if (dfd < 0)
		return dfd;
	fd = pcc_file_create_at(dfd, base, flags, true, why, len);
	close(dfd);
	if (fd < 0 && why != NULL)
		fail(why, len, fd, "cannot create %s: %s", path, strerror(-fd));
	return fd;
}

FILE *
pcc_file_fcreate(const char *path, const char *mode, char *why, size_t len)
{
	int flags = O_WRONLY | (mode != NULL && mode[0] == 'a' ? O_APPEND : 0);
	FILE *f;
	int fd;

	fd = pcc_file_create(path, flags, why, len);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, mode != NULL ? mode : "w");
	if (f == NULL) {
		fail(why, len, -errno, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

FILE *
pcc_file_fappend(const char *path, char *why, size_t len)
{
	const char *base;
	int dfd, fd;
	FILE *f;

	dfd = pcc_file_target(path, &base, why, len);
	if (dfd < 0) {
		errno = -dfd;
		return NULL;
	}
	fd = pcc_file_open_or_create_at(dfd, base, O_WRONLY | O_APPEND, NULL, why, len);
	close(dfd);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "a");
	if (f == NULL) {
		fail(why, len, -errno, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

int
pcc_file_open_input(const char *path, uint64_t max_bytes, char *why, size_t len)
{
	struct stat st;
	int fd, rc;

	if (path == NULL || path[0] == '\0')
		return fail(why, len, -EINVAL, "empty file name");
	/* O_NONBLOCK: opening a FIFO with no writer must not hang */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		rc = -errno;
		return fail(why, len, rc, "%s: %s", path, strerror(-rc));
	}
	rc = 0;
	if (fstat(fd, &st) != 0)
		rc = fail(why, len, -errno, "%s: %s", path, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		rc = fail(why, len, -EISDIR, "%s is a directory", path);
	else if (!S_ISREG(st.st_mode))
		rc = fail(why, len, -EINVAL, "%s is not a regular file (%s)", path,
				S_ISFIFO(st.st_mode)                 ? "a FIFO" :
						S_ISCHR(st.st_mode)  ? "a character device" :
						S_ISBLK(st.st_mode)  ? "a block device" :
						S_ISSOCK(st.st_mode) ? "a socket" :
								       "not a file");
	else if ((uint64_t)st.st_size > max_bytes)
		rc = fail(why, len, -EFBIG, "%s is %llu bytes, more than the %llu read", path,
				(unsigned long long)st.st_size, (unsigned long long)max_bytes);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

FILE *
pcc_file_fopen_input(const char *path, uint64_t max_bytes, char *why, size_t len)
{
	FILE *f;
	int fd;

	fd = pcc_file_open_input(path, max_bytes, why, len);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (f == NULL) {
		fail(why, len, -errno, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}
