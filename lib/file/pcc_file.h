/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_FILE_H
#define PCC_FILE_H

/**
 * @file
 * Files dpdk-pcc writes or trusts (doc/host.md, "Files and the local
 * threat model").  Every file the engine, lib/host, the simulator or
 * dpdk-pcc creates (HA lock and journal, crash report, trace and log
 * files, simulator outputs) lives in a *private directory*: a directory
 * owned by the effective user that nobody else may write into (no group
 * or other write permission); directories made here are 0700.  Output
 * files (pcc_file_target()) may also go to a sticky shared directory
 * such as /tmp, where DOCA's PCC application puts its coredump file.  Files are
 * created with O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600, relative to a
 * descriptor of the checked directory (what was checked is what is
 * written into, whatever happens to the path); an existing file is
 * opened with O_NOFOLLOW and kept only when it is a regular file with one
 * link, owned by the effective user, with no group or other permission.
 * Files read as input (scenarios, command files, flow files) must be
 * regular files of bounded size: a FIFO, a device or a directory is
 * refused before it is read.
 *
 * Every function returns a negative errno on failure and leaves a
 * one-line reason naming the path in why (may be NULL).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Room for a reason. */
#define PCC_FILE_WHY_LEN 256

/**
 * Is the directory open at dfd private: a directory owned by the
 * effective user, writable by no one else?  path only names it in why.
 * 0, -ENOTDIR, -EPERM.
 */
int pcc_file_dir_check(int dfd, const char *path, char *why, size_t len);

/** Open the directory path (O_PATH) and check it is private: fd or <0. */
int pcc_file_dir_open(const char *path, char *why, size_t len);

/**
 * Make path a private directory: created 0700 (with its missing parents,
 * 0700 too) unless it exists, then opened and checked as
 * pcc_file_dir_open() does; with strict (a directory dpdk-pcc owns, e.g.
 * /run/dpdk-pcc), an existing one that passes those checks but gives
 * read or search permission to others is made 0700.  fd or <0.
 */
int pcc_file_dir_make(const char *path, bool strict, char *why, size_t len);

/**
 * Would pcc_file_dir_make(path, false) succeed?  path exists and is a
 * private directory, or the nearest existing ancestor is a directory
 * this process may create entries in (nothing is created).  0 or <0.
 */
int pcc_file_dir_usable(const char *path, char *why, size_t len);

/**
 * The directory part of path in dir ("." when path has no '/') and its
 * last component in *base (a pointer into path).  -EINVAL for an empty
 * last component, "." or "..", -ENAMETOOLONG.
 */
int pcc_file_split(const char *path, char *dir, size_t dirlen, const char **base);

/**
 * Create name in the directory dfd: O_CREAT | O_EXCL | O_NOFOLLOW |
 * O_CLOEXEC | flags (O_WRONLY or O_RDWR, O_APPEND), mode 0600.  With
 * replace, an existing entry of that name is removed first (the entry,
 * never what a symbolic link points to; dfd is private, so it is ours).
 * Async-signal-safe when why is NULL.  fd or <0.
 */
int pcc_file_create_at(int dfd, const char *name, int flags, bool replace, char *why, size_t len);

/**
 * Open the existing file name in dfd with O_NOFOLLOW | O_CLOEXEC | flags
 * and check it: a regular file with one link, owned by the effective
 * user, no group or other permission.  fd or <0 (-ENOENT when missing).
 */
int pcc_file_open_at(int dfd, const char *name, int flags, char *why, size_t len);

/**
 * Open name in dfd as pcc_file_open_at() does, or create it (0600) when
 * it does not exist; *created tells which (may be NULL).  fd or <0.
 */
int pcc_file_open_or_create_at(
		int dfd, const char *name, int flags, bool *created, char *why, size_t len);

/**
 * The target of an output file: path's directory opened and checked
 * private, or a shared sticky directory such as /tmp (mode +t, owned by
 * root or the effective user: others can neither remove nor rename our
 * entries there), the returned fd; path's last component in *base.  An
 * existing entry of that name must be a regular file owned by the
 * effective user (a symbolic link, a directory or someone else's file is
 * refused); files are always created anew (O_EXCL | O_NOFOLLOW, 0600).
 * fd or <0.
 */
int pcc_file_target(const char *path, const char **base, char *why, size_t len);

/**
 * pcc_file_target() then pcc_file_create_at(.., replace = true): a new
 * 0600 file at path in a private directory.  fd or <0.
 */
int pcc_file_create(const char *path, int flags, char *why, size_t len);

/** As pcc_file_create(), as a stdio stream opened with mode ("w", "a"). */
FILE *pcc_file_fcreate(const char *path, const char *mode, char *why, size_t len);

/**
 * A stream appending to path: an existing file is kept when it passes
 * pcc_file_open_at()'s checks, else refused; a missing one is created
 * 0600; the directory is checked private.  NULL, errno set.
 */
FILE *pcc_file_fappend(const char *path, char *why, size_t len);

/**
 * Open an input file for reading: it must be a regular file (not a
 * FIFO, device, socket or directory: opened without blocking, checked
 * before anything is read) of at most max_bytes.  fd or <0.
 */
int pcc_file_open_input(const char *path, uint64_t max_bytes, char *why, size_t len);

/** As pcc_file_open_input(), as a stdio stream ("r"); NULL, errno set. */
FILE *pcc_file_fopen_input(const char *path, uint64_t max_bytes, char *why, size_t len);

/** Largest input file read by default (scenarios, command files): 16 MiB. */
#define PCC_FILE_INPUT_MAX (16u << 20)

#ifdef __cplusplus
}
#endif

#endif /* PCC_FILE_H */
