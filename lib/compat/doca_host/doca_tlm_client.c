/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A client of the DPDK telemetry socket (SOCK_SEQPACKET, JSON replies;
 * doc/telemetry.md), for devices and counters of a running dpdk-pcc.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "doca_host_internal.h"

/* DPDK 22.11's telemetry replies are at most 16 KiB. */
#define DTLM_BUF (64 * 1024)
/* A reply that does not come within this is a hung process. */
#define DTLM_TIMEOUT_S 5

struct dtlm {
	int fd;
	char path[PATH_MAX];
	char *buf;
	int status; /* the last reply's refusal status, 0 if none */
};

static void
runtime_dir(const char *prefix, char *out, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (getuid() == 0)
		snprintf(out, len, "/var/run/dpdk/%s", prefix);
	else if (xdg != NULL && xdg[0] != '\0')
		snprintf(out, len, "%s/dpdk/%s", xdg, prefix);
	else
		snprintf(out, len, "/tmp/dpdk/%s", prefix);
}

struct dtlm *
dtlm_open(const char *prefix, const char *dir, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	struct timeval tv = { .tv_sec = DTLM_TIMEOUT_S };
	char rdir[PATH_MAX];
	struct dtlm *t;
	ssize_t n;

	t = calloc(1, sizeof(*t));
	if (t == NULL || (t->buf = malloc(DTLM_BUF)) == NULL) {
		free(t);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (dir != NULL)
		snprintf(rdir, sizeof(rdir), "%s", dir);
	else
		runtime_dir(prefix, rdir, sizeof(rdir));
	if ((size_t)snprintf(t->path, sizeof(t->path), "%s/dpdk_telemetry.v2", rdir) >=
			sizeof(sun.sun_path)) {
		snprintf(err, errlen, "%s/dpdk_telemetry.v2: path too long", rdir);
		goto fail;
	}
	t->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (t->fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		goto fail;
	}
	setsockopt(t->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, t->path, strlen(t->path) + 1);
	if (connect(t->fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		snprintf(err, errlen,
				"cannot connect to %s: %s (is the dpdk-pcc with "
				"--file-prefix %s running, without --no-telemetry?)",
				t->path, strerror(errno), prefix != NULL ? prefix : "?");
		close(t->fd);
		goto fail;
	}
	/* the server's greeting: {"version": ..., "pid": ..., "max_output_len": ...} */
	n = recv(t->fd, t->buf, DTLM_BUF - 1, 0);
	if (n <= 0) {
		snprintf(err, errlen, "%s: no greeting: %s", t->path,
				n == 0 ? "closed" : strerror(errno));
		close(t->fd);
		goto fail;
	}
	return t;
fail:
	free(t->buf);
	free(t);
	return NULL;
}

json_t *
dtlm_get(struct dtlm *t, const char *cmd, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root, *v;
	const char *key;
	ssize_t n;

	if (t == NULL || cmd == NULL) {
		snprintf(err, errlen, "no telemetry connection");
		return NULL;
	}
	t->status = 0;
	if (send(t->fd, cmd, strlen(cmd), 0) < 0) {
		snprintf(err, errlen, "%s: send %s: %s", t->path, cmd, strerror(errno));
		return NULL;
	}
	n = recv(t->fd, t->buf, DTLM_BUF - 1, 0);
	if (n <= 0) {
		snprintf(err, errlen, "%s: no reply to %s: %s", t->path, cmd,
				n == 0 ? "closed" : strerror(errno));
		return NULL;
	}
	t->buf[n] = '\0';
	root = json_loads(t->buf, 0, &je);
	if (root == NULL || !json_is_object(root)) {
		snprintf(err, errlen, "%s: reply to %s is not JSON: %s", t->path, cmd, je.text);
		json_decref(root);
		return NULL;
	}
	/* {"<cmd without params>": value} */
	v = NULL;
	json_object_foreach(root, key, v)
	{
		break;
	}
	(void)key;
	if (v == NULL || json_is_null(v)) {
		snprintf(err, errlen, "%s replied null", cmd);
		json_decref(root);
		return NULL;
	}
	/* a refusal: {"status": -errno, "error": "<reason>"} */
	if (json_is_object(v) && json_is_string(json_object_get(v, "error")) &&
			json_is_integer(json_object_get(v, "status"))) {
		snprintf(err, errlen, "%s: %s", cmd,
				json_string_value(json_object_get(v, "error")));
		t->status = (int)json_integer_value(json_object_get(v, "status"));
		json_decref(root);
		return NULL;
	}
	json_incref(v);
	json_decref(root);
	return v;
}

int
dtlm_status(const struct dtlm *t)
{
	return t != NULL ? t->status : 0;
}

void
dtlm_close(struct dtlm *t)
{
	if (t == NULL)
		return;
	close(t->fd);
	free(t->buf);
	free(t);
}
