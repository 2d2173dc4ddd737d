/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Tracer and logger: the control thread draining lib/dev's rings. */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host_internal.h"
#include "pcc_file.h"
#include "pcc_dev_svc.h"
#include "pcc_host_tp.h"
#include "pcc_host_trace.h"

enum trace_out {
	OUT_STDOUT = 0,
	OUT_FILE,
	OUT_BUFFER,
	OUT_CALLBACK,
};

#define BATCH_MAX 1024u

static struct {
	pthread_mutex_t lock; /* outputs, formats, drains */
	/* two copies of every format: a change while the service runs writes
	 * the one not in use, then flips cur (readers load cur, then read) */
	char fmt[2][PCC_HOST_TRACE_FMT_MAX][PCC_HOST_TRACE_FMT_LEN];
	uint8_t cur[PCC_HOST_TRACE_FMT_MAX];
	int out;
	FILE *file;
	char file_path[1024]; /* of file, for pcc_host_trace_file() */
	char *buf;
	size_t buf_len;
	size_t buf_used;
	pcc_host_trace_batch_cb cb;
	void *cb_arg;
	uint32_t batch;
	struct pcc_host_trace_msg *msgs;
	char (*texts)[PCC_HOST_TRACE_TEXT_MAX];
	uint32_t n_msgs;
	FILE *log_file;
	char log_path[1024];
	uint64_t trace_out;
	uint64_t buf_overflow;
	uint64_t log_out;
	/* service thread */
	pthread_mutex_t svc_lock;
	pthread_cond_t svc_cond;
	pthread_t thread;
	bool running;
	bool stop;
	uint32_t period_ms;
	bool active;
} tr = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.svc_lock = PTHREAD_MUTEX_INITIALIZER,
	.active = true,
};

/* ---- Formats ------------------------------------------------------------- */

/* Walk fmt: count conversions; -EINVAL for %s, %n, '*' or > 5. */
static int
fmt_check(const char *fmt)
{
	const char *p = fmt;
	int n = 0;

	while ((p = strchr(p, '%')) != NULL) {
		p++;
		if (*p == '%') {
			p++;
			continue;
		}
		p += strspn(p, "-+ #0123456789.");
		p += strspn(p, "hljzt");
		if (*p == '\0' || strchr("diuxXoc", *p) == NULL)
			return -EINVAL;
		p++;
		if (++n > 5)
			return -EINVAL;
	}
	return n;
}

int
pcc_host_trace_fmt_set(uint32_t fmt_id, const char *fmt)
{
	host_err_clear();
	if (fmt_id >= PCC_HOST_TRACE_FMT_MAX)
		return host_err(-EINVAL, "trace format %u: id not below %u", fmt_id,
				PCC_HOST_TRACE_FMT_MAX);
	if (fmt != NULL && strlen(fmt) >= PCC_HOST_TRACE_FMT_LEN)
		return host_err(-ENAMETOOLONG, "trace format %u: longer than %u bytes", fmt_id,
				PCC_HOST_TRACE_FMT_LEN - 1);
	if (fmt != NULL && fmt_check(fmt) < 0)
		return host_err(-EINVAL,
				"trace format %u: '%s': up to 5 integer conversions (diuxXoc), no "
				"%%s/%%n/*",
				fmt_id, fmt);
	pthread_mutex_lock(&tr.lock);
	{
		uint8_t next = (uint8_t)(tr.cur[fmt_id] ^ 1);

		snprintf(tr.fmt[next][fmt_id], sizeof(tr.fmt[next][fmt_id]), "%s",
				fmt != NULL ? fmt : "");
		__atomic_store_n(&tr.cur[fmt_id], next, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&tr.lock);
	/* a trace reader (tools/dpdk-pcc-trace) renders records with it */
	pcc_tp_dev_trace_fmt(fmt_id, fmt != NULL ? fmt : "");
	return 0;
}

/* Plug-ins set their formats through lib/dev (pcc_dev_trace_fmt_set). */
RTE_INIT(host_trace_fmt_hook)
{
	pcc_dev_trace_fmt_register(pcc_host_trace_fmt_set);
}

/* The format of fmt_id in use ("" = none). */
static const char *
fmt_get(uint32_t fmt_id)
{
	return tr.fmt[__atomic_load_n(&tr.cur[fmt_id], __ATOMIC_ACQUIRE)][fmt_id];
}

/* Every format set, as pcc.dev.trace_fmt events (a trace started after
 * they were set still has them). */
static void
fmt_emit_all(void)
{
	uint32_t i;

	for (i = 0; i < PCC_HOST_TRACE_FMT_MAX; i++)
		if (fmt_get(i)[0] != '\0')
			pcc_tp_dev_trace_fmt(i, fmt_get(i));
}

static int
fmt_apply(const char *fmt, const uint64_t args[5], char *buf, size_t len)
{
	const char *p = fmt, *spec;
	char one[32], conv;
	size_t o = 0, lit, sl;
	int ai = 0, w, lmod;
	uint64_t a;

	buf[0] = '\0';
	while (*p != '\0' && o + 1 < len) {
		if (*p != '%') {
			lit = strcspn(p, "%");
			if (lit > len - 1 - o)
				lit = len - 1 - o;
			memcpy(buf + o, p, lit);
			o += lit;
			buf[o] = '\0';
			p += lit;
			continue;
		}
		if (p[1] == '%') {
			buf[o++] = '%';
			buf[o] = '\0';
			p += 2;
			continue;
		}
		spec = p++;
		p += strspn(p, "-+ #0123456789.");
		lmod = 0; /* 0 int, 1 short, 2 char, 3 64-bit */
		if (p[0] == 'h' && p[1] == 'h') {
			lmod = 2;
			p += 2;
		} else if (p[0] == 'h') {
			lmod = 1;
			p++;
		} else {
			while (*p != '\0' && strchr("ljzt", *p) != NULL) {
				lmod = 3;
				p++;
			}
		}
		conv = *p++;
		/* flags and width of the spec, then "ll" and the conversion */
		sl = (size_t)(strpbrk(spec + 1, "hljztdiuxXoc") - spec);
		if (sl + 4 > sizeof(one))
			sl = sizeof(one) - 4;
		memcpy(one, spec, sl);
		a = ai < 5 ? args[ai] : 0;
		ai++;
		if (conv == 'c') {
			one[sl] = 'c';
			one[sl + 1] = '\0';
			w = snprintf(buf + o, len - o, one, (int)(unsigned char)a);
		} else {
			one[sl] = 'l';
			one[sl + 1] = 'l';
			one[sl + 2] = conv;
			one[sl + 3] = '\0';
			if (conv == 'd' || conv == 'i') {
				long long v = lmod == 3   ? (long long)(int64_t)a :
						lmod == 1 ? (long long)(int16_t)a :
						lmod == 2 ? (long long)(int8_t)a :
							    (long long)(int32_t)a;
				w = snprintf(buf + o, len - o, one, v);
			} else {
				unsigned long long v = lmod == 3 ? a :
						lmod == 1        ? (uint16_t)a :
						lmod == 2        ? (uint8_t)a :
								   (uint32_t)a;
				w = snprintf(buf + o, len - o, one, v);
			}
		}
		if (w < 0)
			break;
		o += (size_t)w;
		if (o >= len) {
			o = len - 1;
			break;
		}
	}
	buf[o] = '\0';
	return (int)o;
}

int
pcc_host_trace_format(uint32_t fmt_id, const uint64_t args[5], char *buf, size_t len)
{
	if (buf == NULL || len == 0 || args == NULL)
		return -EINVAL;
	if (fmt_id < PCC_HOST_TRACE_FMT_MAX && fmt_get(fmt_id)[0] != '\0')
		return fmt_apply(fmt_get(fmt_id), args, buf, len);
	return snprintf(buf, len,
			"fmt#%" PRIu32 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64
			" 0x%" PRIx64,
			fmt_id, args[0], args[1], args[2], args[3], args[4]);
}

/* ---- Outputs ------------------------------------------------------------------- */

static void
batch_flush_locked(void)
{
	if (tr.out == OUT_CALLBACK && tr.n_msgs > 0 && tr.cb != NULL)
		tr.cb(tr.msgs, tr.n_msgs, tr.cb_arg);
	tr.n_msgs = 0;
}

static void
out_close_locked(void)
{
	batch_flush_locked();
	if (tr.out == OUT_FILE && tr.file != NULL)
		fclose(tr.file);
	tr.file = NULL;
	tr.out = OUT_STDOUT;
}

int
pcc_host_trace_to_stdout(void)
{
	pthread_mutex_lock(&tr.lock);
	out_close_locked();
	pthread_mutex_unlock(&tr.lock);
	return 0;
}

int
pcc_host_trace_to_file(const char *path)
{
	char why[PCC_FILE_WHY_LEN];
	FILE *f;

	host_err_clear();
	if (path == NULL)
		return host_err(-EINVAL, "trace file: NULL path");
	/* a private directory, never a link, 0600 (doc/host.md) */
	f = pcc_file_fappend(path, why, sizeof(why));
	if (f == NULL)
		return host_err(-errno, "trace file: %s", why);
	pthread_mutex_lock(&tr.lock);
	out_close_locked();
	tr.file = f;
	snprintf(tr.file_path, sizeof(tr.file_path), "%s", path);
	tr.out = OUT_FILE;
	pthread_mutex_unlock(&tr.lock);
	return 0;
}

const char *
pcc_host_trace_file(void)
{
	return tr.out == OUT_FILE ? tr.file_path : NULL;
}

char *
pcc_host_trace_buffer(size_t *len)
{
	if (tr.out != OUT_BUFFER)
		return NULL;
	if (len != NULL)
		*len = tr.buf_len;
	return tr.buf;
}

const char *
pcc_host_log_file(void)
{
	return tr.log_file != NULL ? tr.log_path : NULL;
}

int
pcc_host_trace_to_buffer(char *buf, size_t len)
{
	host_err_clear();
	if (buf == NULL || len < 2)
		return host_err(-EINVAL, "trace buffer: NULL or shorter than 2 bytes");
	pthread_mutex_lock(&tr.lock);
	out_close_locked();
	tr.buf = buf;
	tr.buf_len = len;
	tr.buf_used = 0;
	buf[0] = '\0';
	tr.out = OUT_BUFFER;
	pthread_mutex_unlock(&tr.lock);
	return 0;
}

int
pcc_host_trace_to_callback(pcc_host_trace_batch_cb cb, void *arg, uint32_t batch)
{
	host_err_clear();
	if (cb == NULL || batch < 1 || batch > BATCH_MAX)
		return host_err(-EINVAL, "trace callback: NULL or batch %u not 1..%u", batch,
				BATCH_MAX);
	pthread_mutex_lock(&tr.lock);
	out_close_locked();
	if (tr.msgs == NULL) {
		tr.msgs = calloc(BATCH_MAX, sizeof(*tr.msgs));
		tr.texts = calloc(BATCH_MAX, sizeof(*tr.texts));
		if (tr.msgs == NULL || tr.texts == NULL) {
			free(tr.msgs);
			free(tr.texts);
			tr.msgs = NULL;
			tr.texts = NULL;
			pthread_mutex_unlock(&tr.lock);
			return host_err(-ENOMEM, "trace callback: no memory");
		}
	}
	tr.cb = cb;
	tr.cb_arg = arg;
	tr.batch = batch;
	tr.n_msgs = 0;
	tr.out = OUT_CALLBACK;
	pthread_mutex_unlock(&tr.lock);
	return 0;
}

size_t
pcc_host_trace_buffer_used(void)
{
	size_t n;

	pthread_mutex_lock(&tr.lock);
	n = tr.buf_used;
	pthread_mutex_unlock(&tr.lock);
	return n;
}

void
pcc_host_trace_activate(bool on)
{
	__atomic_store_n(&tr.active, on, __ATOMIC_RELAXED);
	pcc_dev_trace_enable(on);
}

bool
pcc_host_trace_active(void)
{
	return __atomic_load_n(&tr.active, __ATOMIC_RELAXED);
}

int
pcc_host_log_set_buffer_size(uint32_t bytes)
{
	int rc;

	host_err_clear();
	rc = pcc_dev_svc_ring_sizes(0, bytes);
	if (rc == -EBUSY)
		return host_err(rc,
				"log buffer size: set it before the device starts (pcc_dev_init)");
	if (rc < 0)
		return host_err(rc, "log buffer size %u: a power of two, 1024..2^24", bytes);
	return 0;
}

int
pcc_host_log_to_file(const char *path)
{
	char why[PCC_FILE_WHY_LEN];
	FILE *f = NULL;

	host_err_clear();
	if (path != NULL) {
		f = pcc_file_fappend(path, why, sizeof(why));
		if (f == NULL)
			return host_err(-errno, "log file: %s", why);
	}
	pthread_mutex_lock(&tr.lock);
	if (tr.log_file != NULL)
		fclose(tr.log_file);
	tr.log_file = f;
	snprintf(tr.log_path, sizeof(tr.log_path), "%s", path != NULL ? path : "");
	pthread_mutex_unlock(&tr.lock);
	return 0;
}

/* ---- Drain ------------------------------------------------------------------------- */

static void
trace_rec_cb(const struct pcc_dev_trace_rec *rec, void *arg)
{
	char text[PCC_HOST_TRACE_TEXT_MAX];
	char line[PCC_HOST_TRACE_TEXT_MAX + 48];
	struct pcc_host_trace_msg *m;
	size_t n;
	int len;

	RTE_SET_USED(arg);
	pcc_tp_dev_trace(rec->ts, rec->fmt_id, rec->thread, rec->arg[0], rec->arg[1], rec->arg[2],
			rec->arg[3], rec->arg[4]);
	switch (tr.out) {
	case OUT_CALLBACK:
		m = &tr.msgs[tr.n_msgs];
		m->ts = rec->ts;
		m->seq = rec->seq;
		m->fmt_id = rec->fmt_id;
		m->thread = rec->thread;
		memcpy(m->args, rec->arg, sizeof(m->args));
		pcc_host_trace_format(
				rec->fmt_id, rec->arg, tr.texts[tr.n_msgs], sizeof(tr.texts[0]));
		m->text = tr.texts[tr.n_msgs];
		if (++tr.n_msgs >= tr.batch)
			batch_flush_locked();
		tr.trace_out++;
		return;
	default:
		break;
	}
	pcc_host_trace_format(rec->fmt_id, rec->arg, text, sizeof(text));
	if (rec->thread == PCC_DEV_THREAD_EARLY) /* made while a plug-in loaded */
		len = snprintf(line, sizeof(line), "%" PRIu64 " [load] %s\n", rec->ts, text);
	else
		len = snprintf(line, sizeof(line), "%" PRIu64 " [%u] %s\n", rec->ts, rec->thread,
				text);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(line))
		len = (int)sizeof(line) - 1;
	if (tr.out == OUT_BUFFER) {
		n = (size_t)len;
		if (tr.buf_used + n + 1 > tr.buf_len) {
			tr.buf_overflow++;
			return;
		}
		memcpy(tr.buf + tr.buf_used, line, n + 1);
		tr.buf_used += n;
	} else {
		fputs(line, tr.out == OUT_FILE && tr.file != NULL ? tr.file : stdout);
	}
	tr.trace_out++;
}

static void
printf_cb(uint16_t thread, uint64_t ts, const char *msg, uint32_t len, void *arg)
{
	FILE *f = tr.log_file != NULL ? tr.log_file : stdout;

	RTE_SET_USED(arg);
	pcc_tp_dev_printf(ts, thread, msg);
	/* [thread rank], or [load]: printed by a plug-in while it loaded */
	if (thread == PCC_DEV_THREAD_EARLY)
		fprintf(f, "%" PRIu64 " [load] %.*s%s", ts, (int)len, msg,
				len > 0 && msg[len - 1] == '\n' ? "" : "\n");
	else
		fprintf(f, "%" PRIu64 " [%u] %.*s%s", ts, thread, (int)len, msg,
				len > 0 && msg[len - 1] == '\n' ? "" : "\n");
	tr.log_out++;
}

static int
drain_locked(void)
{
	int n, m;

	n = pcc_dev_trace_drain(trace_rec_cb, NULL);
	batch_flush_locked();
	m = pcc_dev_printf_drain(printf_cb, NULL);
	if (n < 0 || m < 0)
		return n < 0 ? n : m;
	return n + m;
}

int
pcc_host_trace_flush(void)
{
	int n;

	pthread_mutex_lock(&tr.lock);
	n = drain_locked();
	if (tr.out == OUT_FILE && tr.file != NULL)
		fflush(tr.file);
	else if (tr.out == OUT_STDOUT)
		fflush(stdout);
	if (tr.log_file != NULL)
		fflush(tr.log_file);
	pthread_mutex_unlock(&tr.lock);
	return n;
}

void
pcc_host_trace_stats_get(struct pcc_host_trace_stats *st)
{
	struct pcc_dev_svc_stats d;

	memset(st, 0, sizeof(*st));
	if (pcc_dev_svc_stats_get(&d) == 0) {
		st->trace_lost = d.trace_lost;
		st->log_lost = d.printf_lost;
	}
	pthread_mutex_lock(&tr.lock);
	st->trace_out = tr.trace_out;
	st->buf_overflow = tr.buf_overflow;
	st->log_out = tr.log_out;
	pthread_mutex_unlock(&tr.lock);
}

/* ---- Service thread ----------------------------------------------------------------- */

static void *
svc_main(void *arg)
{
	struct timespec ts;

	RTE_SET_USED(arg);
	pthread_mutex_lock(&tr.svc_lock);
	while (!tr.stop) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += (long)tr.period_ms * 1000000L;
		while (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&tr.svc_cond, &tr.svc_lock, &ts);
		if (tr.stop)
			break;
		pthread_mutex_unlock(&tr.svc_lock);
		pcc_host_trace_flush();
		host_engine_port_watch();
		pthread_mutex_lock(&tr.svc_lock);
	}
	pthread_mutex_unlock(&tr.svc_lock);
	pcc_host_trace_flush();
	return NULL;
}

int
pcc_host_svc_start(uint32_t period_ms)
{
	pthread_condattr_t a;
	int rc;

	host_err_clear();
	if (period_ms > 1000)
		return host_err(-ERANGE, "service period %u ms: 1..1000", period_ms);
	pthread_mutex_lock(&tr.svc_lock);
	if (tr.running) {
		pthread_mutex_unlock(&tr.svc_lock);
		return host_err(-EBUSY, "service already running");
	}
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&tr.svc_cond, &a);
	pthread_condattr_destroy(&a);
	tr.period_ms = period_ms == 0 ? 10 : period_ms;
	tr.stop = false;
	fmt_emit_all();
	pcc_dev_trace_enable(pcc_host_trace_active());
	rc = pthread_create(&tr.thread, NULL, svc_main, NULL);
	if (rc != 0) {
		pthread_mutex_unlock(&tr.svc_lock);
		return host_err(-rc, "service thread not created");
	}
	pthread_setname_np(tr.thread, "pcc-host-svc");
	tr.running = true;
	pthread_mutex_unlock(&tr.svc_lock);
	return 0;
}

void
pcc_host_svc_stop(void)
{
	pthread_mutex_lock(&tr.svc_lock);
	if (!tr.running) {
		pthread_mutex_unlock(&tr.svc_lock);
		return;
	}
	tr.stop = true;
	pthread_cond_signal(&tr.svc_cond);
	pthread_mutex_unlock(&tr.svc_lock);
	pthread_join(tr.thread, NULL);
	pthread_mutex_lock(&tr.svc_lock);
	tr.running = false;
	pthread_cond_destroy(&tr.svc_cond);
	pthread_mutex_unlock(&tr.svc_lock);
}

bool
pcc_host_svc_running(void)
{
	bool r;

	pthread_mutex_lock(&tr.svc_lock);
	r = tr.running;
	pthread_mutex_unlock(&tr.svc_lock);
	return r;
}

int
host_svc_autostart(void)
{
	int rc;

	if (pcc_host_svc_running())
		return 0;
	rc = pcc_host_svc_start(0);
	return rc == -EBUSY ? 0 : rc;
}
