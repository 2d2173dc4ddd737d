/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Active/standby with real processes: forked children run lib/host's HA
 * (heartbeat 20 ms, stale after 100 ms) on one lock file and report their
 * role changes through a pipe; the parent kills (SIGKILL), hangs
 * (SIGSTOP) or errors the active one and waits, with timeouts, for the
 * standby to take over.  Failover times are printed as TAP comments.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_log.h>

#include "pcc_dev.h"
#include "pcc_dev_simple.h"
#include "pcc_host.h"
#include "pcc_host_ha.h"

#define HB_MS 20
#define STALE_MS 100

static char dir[64];

static void
noop_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	(void)res;
}

static const struct pcc_dev_param_desc ha_params[] = {
	{ 0, "GAIN", 10, 0, 100, PCC_DEV_PERM_RW, "gain" },
};

static const struct pcc_dev_algo_ops ha_ops = {
	.name = "ha_algo",
	.params = ha_params,
	.n_params = 1,
	.on_event = noop_event,
};

/* ---- Child ---------------------------------------------------------------------- */

static int child_out;
static int become_calls;

static int
child_become_active(void *arg)
{
	(void)arg;
	/* the application re-applies its own configuration and starts */
	become_calls++;
	return 0;
}

static uint32_t
gain(void)
{
	uint32_t v = 0;

	pcc_dev_params_get(0, 0, 0, 1, &v);
	return v;
}

static int
child_main(int out, int in)
{
	struct pcc_dev_conf dc = { .n_ports = 1, .n_threads = 1 };
	struct pcc_host_ha_conf conf = {
		.dir = dir,
		.name = "p0",
		.heartbeat_ms = HB_MS,
		.stale_ms = STALE_MS,
		.journal = true,
		.become_active = child_become_active,
	};
	struct pcc_host_ha *ha;
	int cur = PCC_HOST_PS_STANDBY, st;
	char c;

	child_out = out;
	rte_log_set_level_pattern("pcc.*", RTE_LOG_EMERG);
	if (pcc_dev_algo_register(&ha_ops) != 0 || pcc_dev_init(&dc) != 0 ||
			pcc_dev_algo_load(0, 0, "ha_algo") != 0 || pcc_dev_slot_bind(0, 0, 0) != 0)
		return 10;
	fcntl(in, F_SETFL, O_NONBLOCK);
	ha = pcc_host_ha_start(&conf);
	if (ha == NULL)
		return 11;
	dprintf(out, "pid=%d\n", getpid());
	for (;;) {
		st = pcc_host_ha_wait(ha, (enum pcc_host_process_state)cur, 10);
		if (st >= 0) {
			cur = st;
			dprintf(out, "state=%d replayed=%u gain=%u become=%d\n", st,
					pcc_host_ha_replayed(ha), gain(), become_calls);
		}
		if (read(in, &c, 1) != 1)
			continue;
		if (c == 'j')
			dprintf(out, "j=%d\n", pcc_host_param_set(0, 0, "GAIN", "42"));
		else if (c == 'e')
			pcc_host_process_state_set(PCC_HOST_PS_ERROR);
		else if (c == 's')
			pcc_host_ha_shutdown(); /* what dpdk-pcc's SIGINT handler does */
		else if (c == 'p')
			dprintf(out, "ps=%d\n", (int)pcc_host_process_state());
		else if (c == 'w') /* ten periods in which a takeover would show */
			dprintf(out, "w=%d\n",
					pcc_host_ha_wait(ha, (enum pcc_host_process_state)cur,
							10 * HB_MS));
		else if (c == 'q')
			break;
	}
	pcc_host_ha_stop(ha);
	return 0;
}

/* ---- Parent ----------------------------------------------------------------------- */

struct proc {
	pid_t pid;
	int out; /* child's reports */
	int in;  /* commands to the child */
	char buf[4096];
	size_t n;
};

static uint64_t
mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static pid_t children[16];
static unsigned int n_children;

/* A failed assertion leaves the test early: never leave a child behind. */
static int
kill_children(void **state)
{
	unsigned int i;
	int st;

	(void)state;
	for (i = 0; i < n_children; i++) {
		if (kill(children[i], SIGKILL) == 0 || errno != ESRCH)
			waitpid(children[i], &st, 0);
	}
	n_children = 0;
	return 0;
}

static void
spawn(struct proc *p)
{
	int o[2], i[2];

	assert_int_equal(pipe(o), 0);
	assert_int_equal(pipe(i), 0);
	p->pid = fork();
	assert_true(p->pid >= 0);
	if (p->pid == 0) {
		close(o[0]);
		close(i[1]);
		_exit(child_main(o[1], i[0]));
	}
	children[n_children++ % 16] = p->pid;
	close(o[1]);
	close(i[0]);
	p->out = o[0];
	p->in = i[1];
	p->n = 0;
}

/* Wait (poll with a deadline) for a report line containing what; the
 * line is consumed, earlier lines too.  Returns the line or fails. */
static const char *
expect(struct proc *p, const char *what, int timeout_ms)
{
	static char line[512];
	uint64_t end = mono_us() + (uint64_t)timeout_ms * 1000;
	struct pollfd pf = { .fd = p->out, .events = POLLIN };
	char *nl;
	ssize_t r;
	size_t len;

	for (;;) {
		while ((nl = memchr(p->buf, '\n', p->n)) != NULL) {
			len = (size_t)(nl - p->buf);
			memcpy(line, p->buf, len < sizeof(line) - 1 ? len : sizeof(line) - 1);
			line[len < sizeof(line) - 1 ? len : sizeof(line) - 1] = '\0';
			memmove(p->buf, nl + 1, p->n - len - 1);
			p->n -= len + 1;
			if (strstr(line, what) != NULL)
				return line;
		}
		if (mono_us() >= end)
			fail_msg("pid %d: no \"%s\" within %d ms", p->pid, what, timeout_ms);
		if (poll(&pf, 1, (int)((end - mono_us()) / 1000) + 1) <= 0)
			continue;
		r = read(p->out, p->buf + p->n, sizeof(p->buf) - p->n);
		if (r <= 0)
			fail_msg("pid %d: closed while waiting for \"%s\"", p->pid, what);
		p->n += (size_t)r;
	}
	return NULL;
}

static void
cmd(struct proc *p, char c)
{
	assert_int_equal(write(p->in, &c, 1), 1);
}

static void
reap(struct proc *p, bool kill_it)
{
	int st;

	if (kill_it)
		kill(p->pid, SIGKILL);
	else
		cmd(p, 'q');
	assert_int_equal(waitpid(p->pid, &st, 0), p->pid);
	close(p->out);
	close(p->in);
}

static void
fresh_dir(void)
{
	char path[128];

	if (dir[0] != '\0') {
		snprintf(path, sizeof(path), "%s/pcc-ha-p0.lock", dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/pcc-ha-p0.lock.journal", dir);
		unlink(path);
		rmdir(dir);
	}
	snprintf(dir, sizeof(dir), "/tmp/pcc-ha-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static int
group_teardown(void **state)
{
	(void)state;
	fresh_dir();
	rmdir(dir);
	return 0;
}

static void
test_ha_kill(void **state)
{
	struct proc a, b;
	const char *l;
	uint64_t t0;

	(void)state;
	fresh_dir();
	spawn(&a);
	expect(&a, "state=0", 3000);
	spawn(&b);
	expect(&b, "pid=", 3000);
	/* b stays standby: no state line; a journals a parameter change */
	cmd(&a, 'j');
	expect(&a, "j=0", 3000);
	t0 = mono_us();
	kill(a.pid, SIGKILL);
	l = expect(&b, "state=0", 3000);
	print_message("# failover after SIGKILL: %.1f ms (heartbeat %d ms)\n",
			(double)(mono_us() - t0) / 1000.0, HB_MS);
	/* the journal replayed on takeover: no change lost */
	assert_non_null(strstr(l, "replayed=1 gain=42 become=1"));
	reap(&a, true);
	reap(&b, false);
}

/*
 * The active's heartbeat in the lock file (CLOCK_MONOTONIC ns): the third
 * 64-bit word of its header (struct ha_hdr, lib/host/host_ha.c).
 */
static uint64_t
lock_heartbeat_ns(void)
{
	char path[128];
	uint64_t hb = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/pcc-ha-p0.lock", dir);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &hb, sizeof(hb), 16), (ssize_t)sizeof(hb));
	close(fd);
	return hb;
}

static void
test_ha_hung(void **state)
{
	struct proc a, b;
	uint64_t t0, hb_a, hb_b;
	int st;

	(void)state;
	fresh_dir();
	spawn(&a);
	expect(&a, "state=0", 3000);
	spawn(&b);
	expect(&b, "pid=", 3000);
	t0 = mono_us();
	kill(a.pid, SIGSTOP);
	assert_int_equal(waitpid(a.pid, &st, WUNTRACED), a.pid);
	assert_true(WIFSTOPPED(st));
	/* a's last heartbeat: it writes no other while stopped */
	hb_a = lock_heartbeat_ns();
	expect(&b, "state=0", 3000);
	print_message("# failover after SIGSTOP: %.1f ms (stale after %d ms)\n",
			(double)(mono_us() - t0) / 1000.0, STALE_MS);
	/*
	 * Not before a's heartbeat was stale: b writes its first one when it
	 * takes over, after finding a's older than STALE_MS.  Against a's
	 * heartbeat, not against the SIGSTOP: a loaded machine may have held
	 * a's heartbeat back any time before it.
	 */
	hb_b = lock_heartbeat_ns();
	assert_true(hb_b > hb_a && hb_b - hb_a > (uint64_t)STALE_MS * 1000000);
	/* the hung active wakes up, sees a newer generation, steps down */
	kill(a.pid, SIGCONT);
	expect(&a, "state=2", 3000);
	reap(&a, false);
	reap(&b, false);
}

static void
test_ha_error(void **state)
{
	struct proc a, b;

	(void)state;
	fresh_dir();
	spawn(&a);
	expect(&a, "state=0", 3000);
	spawn(&b);
	expect(&b, "pid=", 3000);
	cmd(&a, 'e');
	expect(&a, "state=3", 3000);
	expect(&b, "state=0", 3000);
	reap(&a, false);
	reap(&b, false);
}

/* A process shutting down (SIGINT to ACTIVE and STANDBY at once) never
 * takes over: after the ACTIVE dies, a third process gets the lead. */
static void
test_ha_shutdown(void **state)
{
	struct proc a, b, c;

	(void)state;
	fresh_dir();
	spawn(&a);
	expect(&a, "state=0", 3000);
	spawn(&b);
	expect(&b, "pid=", 3000);
	cmd(&b, 's');
	cmd(&b, 'p');
	expect(&b, "ps=1", 3000);
	reap(&a, true);
	/* the lead is free: b, which polls every period, stays STANDBY */
	cmd(&b, 'w');
	expect(&b, "w=", 3000);
	cmd(&b, 'p');
	expect(&b, "ps=1", 3000);
	spawn(&c);
	expect(&c, "state=0", 3000);
	cmd(&b, 'p');
	expect(&b, "ps=1", 3000);
	reap(&b, false);
	reap(&c, false);
}

static unsigned int
mode_of(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return 0xffff;
	return (unsigned int)(st.st_mode & 07777);
}

/* Lock file and journal: 0600 in a private directory, or refused. */
static void
test_ha_files(void **state)
{
	struct pcc_host_ha_conf conf = { .dir = dir, .name = "p0", .journal = true };
	char lock[128], journal[160], other[128];
	struct pcc_host_ha *ha;
	int fd;

	(void)state;
	fresh_dir();
	rte_log_set_level_pattern("pcc.*", RTE_LOG_EMERG);
	snprintf(lock, sizeof(lock), "%s/pcc-ha-p0.lock", dir);
	snprintf(journal, sizeof(journal), "%s.journal", lock);
	snprintf(other, sizeof(other), "%s/other", dir);
	ha = pcc_host_ha_start(&conf);
	assert_non_null(ha);
	pcc_host_ha_stop(ha);
	assert_int_equal(mode_of(lock), 0600);
	assert_int_equal(mode_of(journal), 0600);
	/* a directory others may write into */
	conf.dir = "/tmp";
	assert_null(pcc_host_ha_start(&conf));
	assert_non_null(strstr(pcc_host_last_error(), "/tmp is writable by others"));
	assert_int_equal(chmod(dir, 0733), 0);
	conf.dir = dir;
	assert_null(pcc_host_ha_start(&conf));
	assert_non_null(strstr(pcc_host_last_error(), "writable by"));
	assert_int_equal(chmod(dir, 0700), 0);
	/* a lock file or journal open to others, or a link */
	assert_int_equal(chmod(lock, 0644), 0);
	assert_null(pcc_host_ha_start(&conf));
	assert_non_null(strstr(pcc_host_last_error(), "mode 0644"));
	assert_int_equal(chmod(lock, 0600), 0);
	assert_int_equal(chmod(journal, 0666), 0);
	assert_null(pcc_host_ha_start(&conf));
	assert_non_null(strstr(pcc_host_last_error(), "journal"));
	assert_int_equal(unlink(journal), 0);
	fd = open(other, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(symlink(other, journal), 0);
	assert_null(pcc_host_ha_start(&conf));
	assert_non_null(strstr(pcc_host_last_error(), "symbolic link"));
	assert_int_equal(unlink(journal), 0);
	assert_int_equal(unlink(other), 0);
	ha = pcc_host_ha_start(&conf);
	assert_non_null(ha);
	pcc_host_ha_stop(ha);
}

static void
test_ha_args(void **state)
{
	struct pcc_host_ha_conf conf = { .dir = dir, .name = "bad name" };
	struct pcc_host_ha *ha;

	(void)state;
	fresh_dir();
	rte_log_set_level_pattern("pcc.*", RTE_LOG_EMERG);
	assert_null(pcc_host_ha_start(NULL));
	assert_null(pcc_host_ha_start(&conf));
	conf.name = "p0";
	conf.heartbeat_ms = 50;
	conf.stale_ms = 50;
	assert_null(pcc_host_ha_start(&conf));
	assert_non_null(strstr(pcc_host_last_error(), "must exceed"));
	conf.dir = "/nonexistent-dir";
	conf.stale_ms = 0;
	assert_null(pcc_host_ha_start(&conf));
	conf.dir = dir;
	ha = pcc_host_ha_start(&conf);
	assert_non_null(ha);
	assert_null(pcc_host_ha_start(&conf));
	assert_int_equal(pcc_host_ha_wait(ha, PCC_HOST_PS_STANDBY, 3000), PCC_HOST_PS_ACTIVE);
	assert_int_equal(pcc_host_process_state(), PCC_HOST_PS_ACTIVE);
	assert_int_equal(pcc_host_ha_generation(ha), 1);
	assert_non_null(strstr(pcc_host_ha_path(ha), "pcc-ha-p0.lock"));
	assert_int_equal(pcc_host_ha_journal_add(ha, 0, 0, "X", "1"), -ENOTSUP);
	assert_int_equal(pcc_host_ha_wait(ha, PCC_HOST_PS_ACTIVE, 30), -ETIMEDOUT);
	assert_ptr_equal(pcc_host_ha_get(), ha);
	pcc_host_ha_stop(ha);
	assert_null(pcc_host_ha_get());
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ha_kill, kill_children),
		cmocka_unit_test_teardown(test_ha_hung, kill_children),
		cmocka_unit_test_teardown(test_ha_error, kill_children),
		cmocka_unit_test_teardown(test_ha_shutdown, kill_children),
		cmocka_unit_test_teardown(test_ha_files, kill_children),
		cmocka_unit_test_teardown(test_ha_args, kill_children),
	};

	return cmocka_run_group_tests(tests, NULL, group_teardown);
}
