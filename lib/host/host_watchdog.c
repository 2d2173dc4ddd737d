/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The lcore watchdog (pcc_host_watchdog_set(), doc/host.md "Watchdog").
 *
 * A thread looks at every polling lcore's progress every quarter of the
 * limit (pcc_engine_lcore_progress(): poll rounds, and whether it is in
 * its loop).  An lcore in its loop whose round count has not moved for
 * the limit is hung: most likely an algorithm's on_event or an NP handler
 * that never returns.  The watchdog then has the hung thread itself write
 * a report, crash-report style, from a signal handler (its registers,
 * backtrace, and the algorithm, flow and event, or the NP handler, it is
 * in), sets the process state ERROR (an HA ACTIVE gives up leadership:
 * the STANDBY takes over), stops the engine and calls the application's
 * callback (dpdk-pcc exits with status 4).  The hung lcore itself cannot
 * be stopped: the application decides what to do with the process.
 *
 * The watchdog does not judge time it did not see: when its own wake-ups
 * are late (the process was stopped, SIGSTOP, or starved), it starts
 * again from what it sees then.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_lcore.h>

#include "host_internal.h"

#define WD_PERIOD_MIN_MS 5u
#define WD_PERIOD_MAX_MS 250u
/* how long the hung thread has to write its part of the report */
#define WD_REPORT_WAIT_MS 1000u

static struct {
	pthread_mutex_t m;
	pthread_cond_t c;
	pthread_t thread;
	bool running;
	bool stop;
	uint32_t ms;             /* limit; 0 = off */
	struct pcc_engine *e;    /* the engine being watched, or NULL */
	pcc_host_watchdog_cb cb; /* the application's, or NULL */
	void *cb_arg;
	int fired; /* hung lcore + 1, 0 = none */
	uint64_t beat[RTE_MAX_LCORE];
	uint64_t since[RTE_MAX_LCORE]; /* ns of the last change of beat */
	bool seen[RTE_MAX_LCORE];
	/* the polling threads, by lcore (hook_run) */
	pthread_t lthread[RTE_MAX_LCORE];
	uint8_t lthread_set[RTE_MAX_LCORE];
} wd = { .m = PTHREAD_MUTEX_INITIALIZER };

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void
host_watchdog_thread_set(unsigned int lcore_id, bool on)
{
	if (lcore_id >= RTE_MAX_LCORE)
		return;
	pthread_mutex_lock(&wd.m);
	if (on)
		wd.lthread[lcore_id] = pthread_self();
	wd.lthread_set[lcore_id] = on;
	pthread_mutex_unlock(&wd.m);
}

void
host_watchdog_attach(struct pcc_engine *e)
{
	pthread_mutex_lock(&wd.m);
	wd.e = e;
	if (e != NULL)
		wd.fired = 0;
	memset(wd.seen, 0, sizeof(wd.seen));
	pthread_mutex_unlock(&wd.m);
}

/* lcore l is hung (called with wd.m held; returns with it held). */
static void
fire(unsigned int l, uint64_t idle_ms)
{
	char head[256];
	pthread_t t = wd.lthread[l];
	bool have_thread = wd.lthread_set[l] != 0;
	pcc_host_watchdog_cb cb = wd.cb;
	void *arg = wd.cb_arg;
	const char *where;

	wd.fired = (int)l + 1;
	snprintf(head, sizeof(head),
			"watchdog: lcore %u made no poll round for %llu ms (limit %u ms)\n"
			"lcore: %u\n",
			l, (unsigned long long)idle_ms, wd.ms, l);
	pthread_mutex_unlock(&wd.m);
	where = host_crash_watchdog_report(have_thread ? &t : NULL, head, WD_REPORT_WAIT_MS);
	HOST_LOG(ERR, "watchdog: lcore %u made no poll round for %llu ms: hung (report %s)\n", l,
			(unsigned long long)idle_ms, where);
	/* as after a fault: ERROR (an HA ACTIVE hands over), the engine told
	 * to stop (the hung lcore will not), waiters woken */
	pcc_host_process_state_set(PCC_HOST_PS_ERROR);
	host_ctx_fault();
	pcc_host_engine_stop_async();
	if (cb != NULL)
		cb(l, arg);
	pthread_mutex_lock(&wd.m);
}

/* One look at every lcore (wd.m held). */
static void
check(uint64_t now)
{
	const uint64_t limit = (uint64_t)wd.ms * 1000000ull;
	unsigned int l;

	if (wd.e == NULL || wd.fired != 0 || pcc_engine_stopping(wd.e))
		return;
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		uint64_t beat;
		bool in_loop;

		if (pcc_engine_lcore_progress(wd.e, l, &beat, &in_loop) != 0 || !in_loop) {
			wd.seen[l] = false;
			continue;
		}
		if (!wd.seen[l] || beat != wd.beat[l]) {
			wd.seen[l] = true;
			wd.beat[l] = beat;
			wd.since[l] = now;
			continue;
		}
		if (now - wd.since[l] >= limit) {
			fire(l, (now - wd.since[l]) / 1000000ull);
			return;
		}
	}
}

static void *
wd_main(void *arg)
{
	uint64_t last = mono_ns(), now, period_ns;
	struct timespec ts;

	RTE_SET_USED(arg);
	pthread_mutex_lock(&wd.m);
	while (!wd.stop) {
		period_ns = (uint64_t)RTE_MIN(RTE_MAX(wd.ms / 4, WD_PERIOD_MIN_MS),
					    WD_PERIOD_MAX_MS) *
				1000000ull;
		now = mono_ns();
		/* a late wake-up (process stopped, starved): time not seen is
		 * not judged, every lcore starts again from now */
		if (now - last > period_ns + (uint64_t)wd.ms * 500000ull)
			memset(wd.seen, 0, sizeof(wd.seen));
		last = now;
		if (wd.ms != 0)
			check(now);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += (time_t)(period_ns / 1000000000ull);
		ts.tv_nsec += (long)(period_ns % 1000000000ull);
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (!wd.stop)
			pthread_cond_timedwait(&wd.c, &wd.m, &ts);
	}
	pthread_mutex_unlock(&wd.m);
	return NULL;
}

int
pcc_host_watchdog_set(uint32_t ms)
{
	pthread_condattr_t a;
	int rc = 0;

	host_err_clear();
	if (ms != 0 && ms < PCC_HOST_WATCHDOG_MS_MIN)
		return host_err(-ERANGE, "watchdog: %u ms: 0 (off) or at least %u", ms,
				PCC_HOST_WATCHDOG_MS_MIN);
	if (ms > PCC_HOST_WATCHDOG_MS_MAX)
		return host_err(-ERANGE, "watchdog: %u ms: at most %u", ms,
				PCC_HOST_WATCHDOG_MS_MAX);
	pthread_mutex_lock(&wd.m);
	wd.ms = ms;
	memset(wd.seen, 0, sizeof(wd.seen));
	if (ms != 0 && !wd.running) {
		pthread_condattr_init(&a);
		pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
		pthread_cond_init(&wd.c, &a);
		pthread_condattr_destroy(&a);
		wd.stop = false;
		rc = pthread_create(&wd.thread, NULL, wd_main, NULL);
		if (rc == 0) {
			wd.running = true;
			pthread_setname_np(wd.thread, "pcc-host-wd");
		}
	}
	if (wd.running)
		pthread_cond_broadcast(&wd.c);
	pthread_mutex_unlock(&wd.m);
	if (rc != 0)
		return host_err(-rc, "watchdog: thread not created");
	if (ms == 0)
		host_watchdog_fini();
	return 0;
}

uint32_t
pcc_host_watchdog_ms(void)
{
	return __atomic_load_n(&wd.ms, __ATOMIC_RELAXED);
}

void
pcc_host_watchdog_on_hang(pcc_host_watchdog_cb cb, void *arg)
{
	pthread_mutex_lock(&wd.m);
	wd.cb = cb;
	wd.cb_arg = arg;
	pthread_mutex_unlock(&wd.m);
}

int
pcc_host_watchdog_fired(void)
{
	int f;

	pthread_mutex_lock(&wd.m);
	f = wd.fired;
	pthread_mutex_unlock(&wd.m);
	return f - 1;
}

void
host_watchdog_fini(void)
{
	pthread_t t;
	bool join;

	pthread_mutex_lock(&wd.m);
	join = wd.running;
	t = wd.thread;
	wd.stop = true;
	wd.running = false;
	if (join)
		pthread_cond_broadcast(&wd.c);
	pthread_mutex_unlock(&wd.m);
	if (join)
		pthread_join(t, NULL);
}
