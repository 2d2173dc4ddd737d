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
#include "pcc_host_ha.h"
#include "pcc_host_tp.h"

#define HA_MAGIC UINT64_C(0x314b4c4148434350) /* "PCCHALK1" */
#define HA_LOCK_BASE 4096

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
	char path[PATH_MAX];
	char jpath[PATH_MAX + 16];
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
	uint64_t g;
	FILE *f;

	ha->replayed = 0;
	f = fopen(ha->jpath, "r");
	if (f == NULL)
		return;
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
	if (!__atomic_compare_exchange_n(&ha->hdr->gen, &expect, g + 1, false, __ATOMIC_ACQ_REL,
			    __ATOMIC_ACQUIRE)) {
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

struct pcc_host_ha *
pcc_host_ha_start(const struct pcc_host_ha_conf *conf)
{
	struct pcc_host_ha *ha;
	pthread_condattr_t a;
	const char *dir;
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
	dir = conf->dir;
	if (dir == NULL) {
		dir = "/run/dpdk-pcc";
		if (mkdir(dir, 0755) != 0 && errno != EEXIST)
			dir = "/tmp";
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		free(ha);
		host_err(-ENOENT, "HA: lock directory %s does not exist", dir);
		return NULL;
	}
	snprintf(ha->path, sizeof(ha->path), "%s/pcc-ha-%s.lock", dir, conf->name);
	snprintf(ha->jpath, sizeof(ha->jpath), "%s.journal", ha->path);
	snprintf(ha->name, sizeof(ha->name), "%s", conf->name);
	ha->conf.name = ha->name; /* the caller's string is not kept */
	ha->fd = open(ha->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (ha->fd < 0) {
		rc = -errno;
		free(ha);
		host_err(rc, "HA: cannot open %s", ha->path);
		return NULL;
	}
	if (fstat(ha->fd, &st) == 0 && st.st_size < (off_t)sizeof(struct ha_hdr) &&
			ftruncate(ha->fd, sizeof(struct ha_hdr)) != 0) {
		rc = -errno;
		close(ha->fd);
		free(ha);
		host_err(rc, "HA: cannot size %s", ha->path);
		return NULL;
	}
	ha->hdr = mmap(NULL, sizeof(struct ha_hdr), PROT_READ | PROT_WRITE, MAP_SHARED, ha->fd, 0);
	if (ha->hdr == MAP_FAILED) {
		rc = -errno;
		close(ha->fd);
		free(ha);
		host_err(rc, "HA: cannot map %s", ha->path);
		return NULL;
	}
	if (!__atomic_compare_exchange_n(&ha->hdr->magic, &zero, HA_MAGIC, false, __ATOMIC_ACQ_REL,
			    __ATOMIC_ACQUIRE) &&
			zero != HA_MAGIC) {
		munmap(ha->hdr, sizeof(struct ha_hdr));
		close(ha->fd);
		free(ha);
		host_err(-EINVAL, "HA: %s is not a dpdk-pcc lock file", ha->path);
		return NULL;
	}
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
		munmap(ha->hdr, sizeof(struct ha_hdr));
		close(ha->fd);
		free(ha);
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
	pthread_mutex_lock(&ha->m);
	ha->stop = true;
	pthread_cond_broadcast(&ha->c);
	pthread_mutex_unlock(&ha->m);
	pthread_join(ha->thread, NULL);
	if (ha->my_gen != 0)
		ofd_lock(ha->fd, leader_byte(ha->my_gen), false);
	munmap(ha->hdr, sizeof(struct ha_hdr));
	close(ha->fd);
	if (ha_instance == ha)
		ha_instance = NULL;
	pthread_mutex_destroy(&ha->m);
	pthread_cond_destroy(&ha->c);
	free(ha);
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
	char line[256];
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
	fd = open(ha->jpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return host_err(-errno, "HA journal: cannot open %s", ha->jpath);
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
