/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Active/standby: OFD locks + heartbeat + generation (pcc_host_ha.h). */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host_internal.h"
#include "pcc_dev_simple.h"
#include "pcc_file.h"
#include "pcc_host_ha.h"
#include "pcc_host_tp.h"

#define HA_MAGIC UINT64_C(0x314b4c4148434350) /* "PCCHALK1" */
#define HA_LOCK_BASE 4096
#define HA_RUN_DIR "/run/dpdk-pcc"

/* Shared header at the start of the lock file. */
struct ha_hdr {
	uint64_t magic;
	uint64_t gen;      /* generation of the current (or last) active */
	uint64_t hb_ns;    /* its heartbeat, CLOCK_MONOTONIC */
	uint64_t hb_count; /* heartbeats written */
	int32_t pid;       /* its pid */
	int32_t reserved;
};

struct pcc_host_ha {
	struct pcc_host_ha_conf conf;
	char name[72];
	char dir[PATH_MAX];
	char path[PATH_MAX + 96];
	char jpath[PATH_MAX + 112];
	char lname[96];  /* lock file name in dir */
	char jname[112]; /* journal name in dir */
	int dfd;         /* the private directory (pcc_file.h) */
	int fd;
	struct ha_hdr *hdr;
	uint64_t my_gen;
	int state; /* the HA thread's view */
	int role;  /* announced (waiters, pcc_host_ha_state) */
	uint32_t replayed;
	pthread_t thread;
	pthread_mutex_t m;
	pthread_cond_t c;
	bool stop;
};

static struct pcc_host_ha *ha_instance;
/* pcc_host_ha_shutdown(): this process never takes over any more */
static volatile int ha_leaving;

static bool
leaving(void)
{
	return __atomic_load_n(&ha_leaving, __ATOMIC_ACQUIRE) != 0;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static off_t
leader_byte(uint64_t g)
{
	return (off_t)(HA_LOCK_BASE + 2 * (g & ((UINT64_C(1) << 40) - 1)));
}

static off_t
takeover_byte(uint64_t g)
{
	return leader_byte(g) + 1;
}

static int
ofd_lock(int fd, off_t off, bool lock)
{
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = lock ? F_WRLCK : F_UNLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = off;
	fl.l_len = 1;
	return fcntl(fd, F_OFD_SETLK, &fl) == 0 ? 0 : -errno;
}

static void
ha_set_state(struct pcc_host_ha *ha, int st)
{
	/* process state first: whoever pcc_host_ha_wait() wakes must see it */
	pcc_host_process_state_set((enum pcc_host_process_state)st);
	pthread_mutex_lock(&ha->m);
	ha->state = st;
	__atomic_store_n(&ha->role, st, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&ha->c);
	pthread_mutex_unlock(&ha->m);
	pcc_tp_host_ha(st, ha->my_gen, (int32_t)getpid());
	HOST_LOG(INFO, "HA %s: %s (generation %" PRIu64 ")\n", ha->conf.name,
			pcc_host_process_state_name(st), ha->my_gen);
}

static int
default_apply(uint8_t port, uint8_t slot, const char *name, const char *value, void *arg)
{
	RTE_SET_USED(arg);
	return pcc_dev_param_set_str(port, slot, name, value);
}

static void
journal_replay(struct pcc_host_ha *ha)
{
	pcc_host_ha_apply_cb apply = ha->conf.apply != NULL ? ha->conf.apply : default_apply;
	char line[512], name[PCC_DEV_NAME_MAX + 8], value[64];
	unsigned int port, slot;
	char why[PCC_FILE_WHY_LEN];
	uint64_t g;
	FILE *f;
	int fd;

	ha->replayed = 0;
	fd = pcc_file_open_at(ha->dfd, ha->jname, O_RDONLY, why, sizeof(why));
	if (fd == -ENOENT)
		return;
	if (fd < 0 || (f = fdopen(fd, "r")) == NULL) {
		HOST_LOG(ERR, "HA journal %s not replayed: %s\n", ha->jpath,
				fd < 0 ? why : strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%" SCNu64 " %u %u %39s %63s", &g, &port, &slot, name, value) !=
				5) {
			HOST_LOG(WARNING, "HA journal: bad line skipped: %s", line);
			continue;
		}
		if (apply((uint8_t)port, (uint8_t)slot, name, value, ha->conf.apply_arg) < 0)
			HOST_LOG(WARNING, "HA journal: %s=%s on port %u slot %u not applied\n",
					name, value, port, slot);
		else
			ha->replayed++;
	}
	fclose(f);
	HOST_LOG(INFO, "HA journal: %u changes replayed\n", ha->replayed);
}

/* Won LEADER(g) or TAKEOVER(g): become the leader of g + 1. */
static void
become(struct pcc_host_ha *ha, uint64_t g, off_t held)
{
	uint64_t expect = g;
	int rc;

	if (ofd_lock(ha->fd, leader_byte(g + 1), true) < 0) {
		ofd_lock(ha->fd, held, false);
		return;
	}
	/* a process shutting down never takes over (checked again after
	 * the lock: the signal may have come in between) */
	if (leaving() ||
			!__atomic_compare_exchange_n(&ha->hdr->gen, &expect, g + 1, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		ofd_lock(ha->fd, leader_byte(g + 1), false);
		ofd_lock(ha->fd, held, false);
		return;
	}
	__atomic_store_n(&ha->hdr->hb_ns, now_ns(), __ATOMIC_RELEASE);
	__atomic_add_fetch(&ha->hdr->hb_count, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&ha->hdr->pid, (int32_t)getpid(), __ATOMIC_RELEASE);
	ofd_lock(ha->fd, held, false);
	ha->my_gen = g + 1;
	/* leader now; announced ACTIVE once configured and replayed */
	__atomic_store_n(&ha->state, PCC_HOST_PS_ACTIVE, __ATOMIC_RELEASE);
	if (ha->conf.become_active != NULL) {
		rc = ha->conf.become_active(ha->conf.cb_arg);
		if (rc != 0) {
			HOST_LOG(ERR, "HA %s: become_active callback failed (%d)\n", ha->conf.name,
					rc);
			pcc_host_process_state_set(PCC_HOST_PS_ERROR);
			return;
		}
	}
	if (ha->conf.journal)
		journal_replay(ha);
	ha_set_state(ha, PCC_HOST_PS_ACTIVE);
}

static void
try_acquire(struct pcc_host_ha *ha)
{
	uint64_t g = __atomic_load_n(&ha->hdr->gen, __ATOMIC_ACQUIRE);
	uint64_t hb = __atomic_load_n(&ha->hdr->hb_ns, __ATOMIC_ACQUIRE);
	uint64_t t = now_ns();

	if (leaving())
		return;
	if (ofd_lock(ha->fd, leader_byte(g), true) == 0) {
		/* the leader of g died (the kernel dropped its lock), or none yet */
		become(ha, g, leader_byte(g));
		return;
	}
	if (hb != 0 && t > hb && t - hb > (uint64_t)ha->conf.stale_ms * 1000000ull &&
			ofd_lock(ha->fd, takeover_byte(g), true) == 0) {
		if (__atomic_load_n(&ha->hdr->gen, __ATOMIC_ACQUIRE) == g) {
			HOST_LOG(WARNING,
					"HA %s: active pid %d silent for %" PRIu64
					" ms: taking over\n",
					ha->conf.name, ha->hdr->pid, (t - hb) / 1000000);
			become(ha, g, takeover_byte(g));
		} else {
			ofd_lock(ha->fd, takeover_byte(g), false);
		}
	}
}

static void
tick(struct pcc_host_ha *ha)
{
	uint64_t g;

	switch (ha->state) {
	case PCC_HOST_PS_ACTIVE:
		g = __atomic_load_n(&ha->hdr->gen, __ATOMIC_ACQUIRE);
		if (g != ha->my_gen) {
			/* we hung and a standby took over */
			ofd_lock(ha->fd, leader_byte(ha->my_gen), false);
			HOST_LOG(WARNING,
					"HA %s: generation %" PRIu64 " overtaken by %" PRIu64
					": deactivated\n",
					ha->conf.name, ha->my_gen, g);
			ha->my_gen = 0;
			ha_set_state(ha, PCC_HOST_PS_DEACTIVATED);
			if (ha->conf.deactivate != NULL)
				ha->conf.deactivate(ha->conf.cb_arg);
			return;
		}
		if (pcc_host_process_state() == PCC_HOST_PS_ERROR) {
			/* hand over: stop the heartbeat, drop the lock */
			ofd_lock(ha->fd, leader_byte(ha->my_gen), false);
			ha->my_gen = 0;
			ha_set_state(ha, PCC_HOST_PS_ERROR);
			return;
		}
		__atomic_store_n(&ha->hdr->hb_ns, now_ns(), __ATOMIC_RELEASE);
		__atomic_add_fetch(&ha->hdr->hb_count, 1, __ATOMIC_RELEASE);
		break;
	case PCC_HOST_PS_STANDBY:
		try_acquire(ha);
		break;
	default:
		break;
	}
}

static void *
ha_main(void *arg)
{
	struct pcc_host_ha *ha = arg;
	struct timespec ts;

	pthread_mutex_lock(&ha->m);
	while (!ha->stop) {
		pthread_mutex_unlock(&ha->m);
		tick(ha);
		pthread_mutex_lock(&ha->m);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += (long)ha->conf.heartbeat_ms * 1000000L;
		while (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (!ha->stop)
			pthread_cond_timedwait(&ha->c, &ha->m, &ts);
	}
	pthread_mutex_unlock(&ha->m);
	return NULL;
}

static bool
name_ok(const char *n)
{
	if (n == NULL || n[0] == '\0' || strlen(n) > 64)
		return false;
	for (; *n != '\0'; n++)
		if (!((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') ||
				    (*n >= '0' && *n <= '9') || *n == '_' || *n == '.' ||
				    *n == '-'))
			return false;
	return true;
}

static void
ha_free(struct pcc_host_ha *ha)
{
	if (ha->hdr != NULL)
		munmap(ha->hdr, sizeof(struct ha_hdr));
	if (ha->fd >= 0)
		close(ha->fd);
	if (ha->dfd >= 0)
		close(ha->dfd);
	free(ha);
}

/* How the directory is named in a message. */
static const char *
ha_dir_shown(const char *dir)
{
	return dir != NULL ? dir : "the default lock directory";
}

/* host_err() code of a refused directory: -ENOENT stays, refusals -EPERM. */
static int
ha_dfd_err(int rc)
{
	return rc == -ENOENT || rc == -ENOTDIR ? -ENOENT : rc;
}

/*
 * The private lock directory (doc/host.md, "Files and the local threat
 * model"): dir when given (checked: owned by this user, writable by no
 * one else); else /run/dpdk-pcc (root), $XDG_RUNTIME_DIR/dpdk-pcc, or
 * /tmp/dpdk-pcc-<uid>, made 0700, and refused when it exists with another
 * owner or other permissions (nobody else's directory is ever used).
 */
static int
ha_dir_open(const char *dir, char *out, size_t outlen, char *why, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (dir != NULL) {
		snprintf(out, outlen, "%s", dir);
		return pcc_file_dir_open(dir, why, len);
	}
	if (geteuid() == 0)
		snprintf(out, outlen, "%s", HA_RUN_DIR);
	else if (xdg != NULL && xdg[0] == '/')
		snprintf(out, outlen, "%s/dpdk-pcc", xdg);
	else
		snprintf(out, outlen, "/tmp/dpdk-pcc-%u", (unsigned int)geteuid());
	return pcc_file_dir_make(out, true, why, len);
}

struct pcc_host_ha *
pcc_host_ha_start(const struct pcc_host_ha_conf *conf)
{
	char why[PCC_FILE_WHY_LEN + 64];
	struct pcc_host_ha *ha;
	pthread_condattr_t a;
	struct stat st;
	uint64_t zero = 0;
	int rc;

	host_err_clear();
	if (conf == NULL || !name_ok(conf->name)) {
		host_err(-EINVAL, "HA: name must be 1..64 of [A-Za-z0-9_.-]");
		return NULL;
	}
	if (ha_instance != NULL) {
		host_err(-EEXIST, "HA: already started in this process");
		return NULL;
	}
	ha = calloc(1, sizeof(*ha));
	if (ha == NULL) {
		host_err(-ENOMEM, "HA: no memory");
		return NULL;
	}
	ha->conf = *conf;
	ha->fd = -1;
	ha->dfd = -1;
	if (ha->conf.heartbeat_ms == 0)
		ha->conf.heartbeat_ms = 50;
	if (ha->conf.stale_ms == 0)
		ha->conf.stale_ms = 5 * ha->conf.heartbeat_ms;
	if (ha->conf.stale_ms <= ha->conf.heartbeat_ms) {
		host_err(-EINVAL, "HA: stale_ms (%u) must exceed heartbeat_ms (%u)",
				ha->conf.stale_ms, ha->conf.heartbeat_ms);
		free(ha);
		return NULL;
	}
	ha->dfd = ha_dir_open(conf->dir, ha->dir, sizeof(ha->dir), why, sizeof(why));
	if (ha->dfd < 0) {
		rc = ha_dfd_err(ha->dfd);
		free(ha);
		host_err(rc, "HA: %s", why);
		return NULL;
	}
	snprintf(ha->lname, sizeof(ha->lname), "pcc-ha-%s.lock", conf->name);
	snprintf(ha->jname, sizeof(ha->jname), "%s.journal", ha->lname);
	snprintf(ha->path, sizeof(ha->path), "%s/%s", ha->dir, ha->lname);
	snprintf(ha->jpath, sizeof(ha->jpath), "%s/%s", ha->dir, ha->jname);
	snprintf(ha->name, sizeof(ha->name), "%s", conf->name);
	ha->conf.name = ha->name; /* the caller's string is not kept */
	ha->fd = pcc_file_open_or_create_at(ha->dfd, ha->lname, O_RDWR, NULL, why, sizeof(why));
	if (ha->fd < 0) {
		rc = ha->fd;
		ha_free(ha);
		host_err(rc, "HA: lock file in %s: %s", ha_dir_shown(conf->dir), why);
		return NULL;
	}
	if (fstat(ha->fd, &st) == 0 && st.st_size < (off_t)sizeof(struct ha_hdr) &&
			ftruncate(ha->fd, sizeof(struct ha_hdr)) != 0) {
		rc = -errno;
		ha_free(ha);
		host_err(rc, "HA: cannot size %s", ha->path);
		return NULL;
	}
	ha->hdr = mmap(NULL, sizeof(struct ha_hdr), PROT_READ | PROT_WRITE, MAP_SHARED, ha->fd, 0);
	if (ha->hdr == MAP_FAILED) {
		rc = -errno;
		ha->hdr = NULL;
		ha_free(ha);
		host_err(rc, "HA: cannot map %s", ha->path);
		return NULL;
	}
	if (!__atomic_compare_exchange_n(&ha->hdr->magic, &zero, HA_MAGIC, false, __ATOMIC_ACQ_REL,
			    __ATOMIC_ACQUIRE) &&
			zero != HA_MAGIC) {
		ha_free(ha);
		host_err(-EINVAL, "HA: %s is not a dpdk-pcc lock file", ha->path);
		return NULL;
	}
	/* the journal is checked now, not at the first change */
	rc = pcc_file_open_or_create_at(
			ha->dfd, ha->jname, O_WRONLY | O_APPEND, NULL, why, sizeof(why));
	if (rc < 0) {
		ha_free(ha);
		host_err(rc, "HA: journal in %s: %s", ha_dir_shown(conf->dir), why);
		return NULL;
	}
	close(rc);
	__atomic_store_n(&ha_leaving, 0, __ATOMIC_RELEASE);
	pthread_mutex_init(&ha->m, NULL);
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&ha->c, &a);
	pthread_condattr_destroy(&a);
	ha->state = PCC_HOST_PS_STANDBY;
	ha->role = PCC_HOST_PS_STANDBY;
	pcc_host_process_state_set(PCC_HOST_PS_STANDBY);
	ha_instance = ha;
	rc = pthread_create(&ha->thread, NULL, ha_main, ha);
	if (rc != 0) {
		ha_instance = NULL;
		pthread_mutex_destroy(&ha->m);
		pthread_cond_destroy(&ha->c);
		ha_free(ha);
		host_err(-rc, "HA: thread not created");
		return NULL;
	}
	pthread_setname_np(ha->thread, "pcc-host-ha");
	HOST_LOG(INFO, "HA: lock file %s, heartbeat %u ms, stale after %u ms\n", ha->path,
			ha->conf.heartbeat_ms, ha->conf.stale_ms);
	return ha;
}

void
pcc_host_ha_stop(struct pcc_host_ha *ha)
{
	if (ha == NULL)
		return;
	pcc_host_ha_shutdown();
	pthread_mutex_lock(&ha->m);
	ha->stop = true;
	pthread_cond_broadcast(&ha->c);
	pthread_mutex_unlock(&ha->m);
	pthread_join(ha->thread, NULL);
	if (ha->my_gen != 0)
		ofd_lock(ha->fd, leader_byte(ha->my_gen), false);
	if (ha_instance == ha)
		ha_instance = NULL;
	pthread_mutex_destroy(&ha->m);
	pthread_cond_destroy(&ha->c);
	ha_free(ha);
}

void
pcc_host_ha_shutdown(void)
{
	__atomic_store_n(&ha_leaving, 1, __ATOMIC_RELEASE);
}

struct pcc_host_ha *
pcc_host_ha_get(void)
{
	return ha_instance;
}

enum pcc_host_process_state
pcc_host_ha_state(const struct pcc_host_ha *ha)
{
	return (enum pcc_host_process_state)__atomic_load_n(&ha->role, __ATOMIC_ACQUIRE);
}

uint64_t
pcc_host_ha_generation(const struct pcc_host_ha *ha)
{
	return ha->my_gen;
}

const char *
pcc_host_ha_path(const struct pcc_host_ha *ha)
{
	return ha->path;
}

int
pcc_host_ha_wait(struct pcc_host_ha *ha, enum pcc_host_process_state from, int timeout_ms)
{
	struct timespec ts;
	int st;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&ha->m);
	while (ha->role == (int)from)
		if (pthread_cond_timedwait(&ha->c, &ha->m, &ts) == ETIMEDOUT)
			break;
	st = ha->role;
	pthread_mutex_unlock(&ha->m);
	return st == (int)from ? -ETIMEDOUT : st;
}

int
pcc_host_ha_journal_add(struct pcc_host_ha *ha, uint8_t port, uint8_t slot, const char *name,
		const char *value)
{
	char line[256], why[PCC_FILE_WHY_LEN];
	int fd, n;
	ssize_t w;

	if (ha == NULL || name == NULL || value == NULL)
		return host_err(-EINVAL, "HA journal: bad argument");
	if (!ha->conf.journal)
		return host_err(-ENOTSUP, "HA journal: not enabled");
	if (pcc_host_ha_state(ha) != PCC_HOST_PS_ACTIVE)
		return host_err(-EPERM, "HA journal: only the active process journals");
	if (strpbrk(name, " \t\n") != NULL || strpbrk(value, " \t\n") != NULL ||
			strlen(name) >= PCC_DEV_NAME_MAX + 8 || strlen(value) >= 64)
		return host_err(-EINVAL, "HA journal: name/value with blanks or too long");
	n = snprintf(line, sizeof(line), "%" PRIu64 " %u %u %s %s\n", ha->my_gen, port, slot, name,
			value);
	fd = pcc_file_open_or_create_at(
			ha->dfd, ha->jname, O_WRONLY | O_APPEND, NULL, why, sizeof(why));
	if (fd < 0)
		return host_err(fd, "HA journal %s: %s", ha->jpath, why);
	w = write(fd, line, (size_t)n);
	if (w != n) {
		close(fd);
		return host_err(-EIO, "HA journal: short write to %s", ha->jpath);
	}
	if (fdatasync(fd) != 0) {
		close(fd);
		return host_err(-errno, "HA journal: fdatasync %s", ha->jpath);
	}
	close(fd);
	return 0;
}

uint32_t
pcc_host_ha_replayed(const struct pcc_host_ha *ha)
{
	return ha->replayed;
}

int
host_ha_journal(uint8_t port, uint8_t slot, const char *name, const char *value)
{
	struct pcc_host_ha *ha = ha_instance;

	if (ha == NULL || !ha->conf.journal || pcc_host_ha_state(ha) != PCC_HOST_PS_ACTIVE)
		return 0;
	return pcc_host_ha_journal_add(ha, port, slot, name, value);
}
