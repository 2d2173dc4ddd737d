/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Crash report ("coredump file").  The handler uses only async-signal-safe
 * calls (open, write, close, backtrace_symbols_fd after a warm-up call of
 * backtrace(), sigaction, raise, siglongjmp) and formats numbers itself.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "host_internal.h"
#include "pcc_dev_svc.h"
#include "pcc_file.h"

#define ALTSTACK_SIZE (64u * 1024u)

struct host_worker {
	sigjmp_buf jb;
	void *altstack;
	int armed;
};

static __thread struct host_worker host_w __attribute__((tls_model("initial-exec")));

static char crash_path[PATH_MAX];
/* the report's private directory (opened, checked) and name in it */
static int crash_dfd = -1;
static char crash_base[NAME_MAX + 1];
static int crash_installed;
static uint64_t crash_count;
static const int crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };

/* ---- async-signal-safe output ------------------------------------------------- */

struct out {
	int fd;
	char buf[512];
	size_t n;
};

static void
o_flush(struct out *o)
{
	size_t off = 0;
	ssize_t w;

	while (off < o->n) {
		w = write(o->fd, o->buf + off, o->n - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	o->n = 0;
}

static void
o_str(struct out *o, const char *s)
{
	while (s != NULL && *s != '\0') {
		if (o->n == sizeof(o->buf))
			o_flush(o);
		o->buf[o->n++] = *s++;
	}
}

static void
o_u64(struct out *o, uint64_t v)
{
	char t[24];
	int i = 23;

	t[i] = '\0';
	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	o_str(o, t + i);
}

static void
o_hex(struct out *o, uint64_t v, int digits)
{
	static const char hx[] = "0123456789abcdef";
	char t[19];
	int i;

	t[0] = '0';
	t[1] = 'x';
	for (i = 0; i < digits; i++)
		t[2 + i] = hx[(v >> (4 * (digits - 1 - i))) & 0xf];
	t[2 + digits] = '\0';
	o_str(o, t);
}

static void
o_kv(struct out *o, const char *k, uint64_t v)
{
	o_str(o, k);
	o_u64(o, v);
	o_str(o, "\n");
}

static void
o_bytes(struct out *o, const void *p, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	const uint8_t *b = p;
	char t[4];
	size_t i;

	for (i = 0; i < n; i++) {
		t[0] = hx[b[i] >> 4];
		t[1] = hx[b[i] & 0xf];
		t[2] = (i % 16 == 15 || i + 1 == n) ? '\n' : ' ';
		t[3] = '\0';
		if (i % 16 == 0)
			o_str(o, "  ");
		o_str(o, t);
	}
}

/* The watchdog's signal: the hung thread writes its part of the report. */
static int
wd_sig(void)
{
	return SIGRTMIN + 7;
}

static const char *
sig_name(int sig)
{
	if (sig == wd_sig())
		return "SIGRTMIN+7 (the watchdog's)";
	switch (sig) {
	case SIGSEGV:
		return "SIGSEGV";
	case SIGBUS:
		return "SIGBUS";
	case SIGFPE:
		return "SIGFPE";
	case SIGILL:
		return "SIGILL";
	default:
		return "signal";
	}
}

static const char *
ev_name(unsigned int t)
{
	static const char *const n[] = { "NULL", "FW", "CNP", "TX", "ACK", "NACK", "RTT", "TIMER" };

	if (t < 8)
		return n[t];
	return t == PCC_DEV_EVENT_TX_FOR_ACK_NACK ? "TX_FOR_ACK_NACK" : "?";
}

static void
o_regs(struct out *o, const ucontext_t *uc)
{
#if defined(__x86_64__)
	static const struct {
		const char *n;
		int r;
	} regs[] = {
		{ "rip", REG_RIP },
		{ "rsp", REG_RSP },
		{ "rbp", REG_RBP },
		{ "rax", REG_RAX },
		{ "rbx", REG_RBX },
		{ "rcx", REG_RCX },
		{ "rdx", REG_RDX },
		{ "rsi", REG_RSI },
		{ "rdi", REG_RDI },
		{ "r8", REG_R8 },
		{ "r9", REG_R9 },
		{ "r10", REG_R10 },
		{ "r11", REG_R11 },
		{ "r12", REG_R12 },
		{ "r13", REG_R13 },
		{ "r14", REG_R14 },
		{ "r15", REG_R15 },
		{ "eflags", REG_EFL },
		{ "err", REG_ERR },
		{ "trapno", REG_TRAPNO },
	};
	unsigned int i;

	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		o_str(o, "  ");
		o_str(o, regs[i].n);
		o_str(o, " ");
		o_hex(o, (uint64_t)uc->uc_mcontext.gregs[regs[i].r], 16);
		o_str(o, "\n");
	}
#elif defined(__aarch64__)
	unsigned int i;

	o_str(o, "  pc ");
	o_hex(o, uc->uc_mcontext.pc, 16);
	o_str(o, "\n  sp ");
	o_hex(o, uc->uc_mcontext.sp, 16);
	o_str(o, "\n  pstate ");
	o_hex(o, uc->uc_mcontext.pstate, 16);
	o_str(o, "\n");
	for (i = 0; i < 31; i++) {
		o_str(o, "  x");
		o_u64(o, i);
		o_str(o, " ");
		o_hex(o, uc->uc_mcontext.regs[i], 16);
		o_str(o, "\n");
	}
#else
	RTE_SET_USED(uc);
	o_str(o, "  (registers not decoded on this architecture)\n");
#endif
}

static void
report(int fd, const char *title, const char *head, int sig, const siginfo_t *si,
		const ucontext_t *uc, const struct pcc_dev_dispatch_cur *cur, bool in_algo)
{
	struct out o = { .fd = fd };
	void *bt[64];
	int n;

	o_str(&o, title);
	o_str(&o, head);
	o_str(&o, "signal: ");
	o_str(&o, sig_name(sig));
	o_str(&o, " (");
	o_u64(&o, (uint64_t)sig);
	o_str(&o, ")\n");
	if (sig != wd_sig()) {
		o_kv(&o, "si_code: ", (uint64_t)(int64_t)si->si_code);
		o_str(&o, "fault_addr: ");
		o_hex(&o, (uint64_t)(uintptr_t)si->si_addr, 16);
		o_str(&o, "\n");
	}
	o_kv(&o, "pid: ", (uint64_t)getpid());
	o_kv(&o, "tid: ", (uint64_t)syscall(SYS_gettid));
	o_kv(&o, "thread_rank: ", pcc_dev_thread_rank());
	o_str(&o, in_algo ? "in_algorithm: yes\n" : "in_algorithm: no\n");
	if (in_algo) {
		o_str(&o, "algorithm: ");
		o_str(&o, cur->ops != NULL ? cur->ops->name : "?");
		o_str(&o, "\nalgorithm_id: ");
		o_hex(&o, cur->ops != NULL ? cur->ops->id : 0, 8);
		o_str(&o, "\n");
		if (cur->ops != NULL) {
			o_kv(&o, "algorithm_major: ", cur->ops->major);
			o_kv(&o, "algorithm_minor: ", cur->ops->minor);
		}
		o_kv(&o, "port: ", cur->port);
		o_kv(&o, "slot: ", cur->slot);
		o_kv(&o, "algo_idx: ", cur->algo_idx);
		if (cur->ev != NULL) {
			o_kv(&o, "flow_tag: ", cur->ev->flow_tag);
			o_str(&o, "event: ");
			o_str(&o, ev_name(cur->ev->type));
			o_str(&o, "\n");
			o_kv(&o, "event_type: ", cur->ev->type);
			o_kv(&o, "event_subtype: ", cur->ev->subtype);
			o_kv(&o, "event_flags: ", cur->ev->flags);
			o_kv(&o, "event_port: ", cur->ev->port);
			o_kv(&o, "event_sn: ", cur->ev->sn);
			o_kv(&o, "event_ts: ", cur->ev->ts);
			o_str(&o, "event_bytes:\n");
			o_bytes(&o, cur->ev, sizeof(*cur->ev));
		}
		if (cur->ctx != NULL) {
			o_str(&o, "flow_context:\n");
			o_bytes(&o, cur->ctx, PCC_DEV_CTX_SIZE);
		}
	}
	if (cur->np_active) {
		o_str(&o, "in_np_handler: yes\nnp_port: ");
		if (cur->np_port == UINT16_MAX)
			o_str(&o, "any (the process-wide handler)");
		else
			o_u64(&o, cur->np_port);
		o_str(&o, "\nnp_handler: ");
		o_hex(&o, (uint64_t)(uintptr_t)cur->np_fn, 16);
		o_str(&o, "\n");
	} else {
		o_str(&o, "in_np_handler: no\n");
	}
	o_str(&o, "registers:\n");
	o_regs(&o, uc);
	o_str(&o, "backtrace:\n");
	o_flush(&o);
	n = backtrace(bt, 64);
	backtrace_symbols_fd(bt, n, fd);
	o_str(&o, "end\n");
	o_flush(&o);
}

static void
crash_handler(int sig, siginfo_t *si, void *ucv)
{
	struct pcc_dev_dispatch_cur *cur =
			(struct pcc_dev_dispatch_cur *)(uintptr_t)pcc_dev_dispatch_current();
	bool in_algo = cur->active && host_w.armed;
	int fd = -1;

	/* a new 0600 file in the directory checked when the path was set:
	 * never through a symbolic link, never someone else's file */
	if (crash_dfd >= 0)
		fd = pcc_file_create_at(crash_dfd, crash_base, O_WRONLY, true, NULL, 0);
	if (fd >= 0) {
		report(fd, "dpdk-pcc crash report\n", "", sig, si, ucv, cur, in_algo);
		close(fd);
	} else {
		report(STDERR_FILENO, "dpdk-pcc crash report\n", "", sig, si, ucv, cur, in_algo);
	}
	__atomic_add_fetch(&crash_count, 1, __ATOMIC_RELAXED);
	host_process_state_store(PCC_HOST_PS_ERROR);
	if (in_algo) {
		__atomic_store_n(&cur->active, 0, __ATOMIC_RELAXED);
		host_w.armed = 0;
		pcc_host_engine_stop_async();
		siglongjmp(host_w.jb, 1);
	}
	/* not an algorithm's fault: default action (core dump) */
	signal(sig, SIG_DFL);
	if (si->si_code <= 0)
		raise(sig);
}

/* ---- The watchdog's report ---------------------------------------------------- */

static int wd_fd = -1;
static const char *wd_head;
static int wd_done;
static int wd_installed;

/* On the hung thread: its part of the report (async-signal-safe). */
static void
wd_handler(int sig, siginfo_t *si, void *ucv)
{
	const struct pcc_dev_dispatch_cur *cur = pcc_dev_dispatch_current();
	int fd = __atomic_load_n(&wd_fd, __ATOMIC_ACQUIRE);

	if (fd >= 0)
		report(fd, "dpdk-pcc watchdog report\n", wd_head, sig, si, ucv, cur,
				cur->active != 0);
	__atomic_store_n(&wd_done, 1, __ATOMIC_RELEASE);
}

static int
wd_install(void)
{
	struct sigaction sa;

	if (__atomic_load_n(&wd_installed, __ATOMIC_ACQUIRE))
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = wd_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(wd_sig(), &sa, NULL) != 0)
		return -errno;
	__atomic_store_n(&wd_installed, 1, __ATOMIC_RELEASE);
	return 0;
}

const char *
host_crash_watchdog_report(const pthread_t *t, const char *head, uint32_t wait_ms)
{
	static char where[PATH_MAX + 16];
	struct timespec ms1 = { .tv_sec = 0, .tv_nsec = 1000000 };
	struct out o;
	uint32_t waited;
	int fd = -1;

	if (crash_dfd >= 0)
		fd = pcc_file_create_at(crash_dfd, crash_base, O_WRONLY, true, NULL, 0);
	if (fd >= 0)
		snprintf(where, sizeof(where), "in %s", crash_path);
	else
		snprintf(where, sizeof(where), "on stderr");
	if (fd < 0)
		fd = STDERR_FILENO;
	wd_head = head;
	__atomic_store_n(&wd_done, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&wd_fd, fd, __ATOMIC_RELEASE);
	if (t != NULL && wd_install() == 0 && pthread_kill(*t, wd_sig()) == 0)
		for (waited = 0; waited < wait_ms && !__atomic_load_n(&wd_done, __ATOMIC_ACQUIRE);
				waited++)
			nanosleep(&ms1, NULL);
	__atomic_store_n(&wd_fd, -1, __ATOMIC_RELEASE);
	if (!__atomic_load_n(&wd_done, __ATOMIC_ACQUIRE)) {
		/* the thread did not answer (signal blocked, or unknown) */
		memset(&o, 0, sizeof(o));
		o.fd = fd;
		o_str(&o, "dpdk-pcc watchdog report\n");
		o_str(&o, head);
		o_str(&o,
				"thread: no answer to the watchdog's signal: no registers, no "
				"backtrace\nend\n");
		o_flush(&o);
	}
	if (fd != STDERR_FILENO)
		close(fd);
	return where;
}

int
host_crash_install(void)
{
	struct sigaction sa;
	void *bt[2];
	unsigned int i;

	if (!crash_installed)
		(void)backtrace(bt, 2); /* loads libgcc now, not in the handler */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = crash_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	/* (again) wherever another handler took the signal since */
	for (i = 0; i < sizeof(crash_sigs) / sizeof(crash_sigs[0]); i++) {
		struct sigaction cur;

		if (sigaction(crash_sigs[i], NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
				cur.sa_sigaction == crash_handler)
			continue;
		if (sigaction(crash_sigs[i], &sa, NULL) != 0)
			return host_err(-errno, "crash handler: sigaction(%d) failed",
					crash_sigs[i]);
	}
	crash_installed = 1;
	return 0;
}

int
host_crash_file_check(const char *path, char *why, size_t len)
{
	const char *base;
	int dfd;

	if (path == NULL)
		return -EINVAL;
	if (strlen(path) >= sizeof(crash_path)) {
		snprintf(why, len, "path too long");
		return -ENAMETOOLONG;
	}
	dfd = pcc_file_target(path, &base, why, len);
	if (dfd < 0)
		return dfd;
	if (strlen(base) >= sizeof(crash_base)) {
		close(dfd);
		snprintf(why, len, "file name too long");
		return -ENAMETOOLONG;
	}
	return dfd;
}

int
pcc_host_crash_set_file(const char *path)
{
	char why[PCC_FILE_WHY_LEN];
	int dfd, old;

	host_err_clear();
	if (path == NULL)
		return host_err(-EINVAL, "crash file: NULL path");
	if (path[0] == '\0') {
		old = crash_dfd;
		crash_dfd = -1;
		crash_path[0] = '\0';
		if (old >= 0)
			close(old);
		return 0;
	}
	dfd = host_crash_file_check(path, why, sizeof(why));
	if (dfd < 0)
		return host_err(dfd, "crash file: %s", why);
	/* the handler reads these: the path and name first, then the fd */
	old = crash_dfd;
	__atomic_store_n(&crash_dfd, -1, __ATOMIC_SEQ_CST);
	if (old >= 0)
		close(old);
	snprintf(crash_path, sizeof(crash_path), "%s", path);
	snprintf(crash_base, sizeof(crash_base), "%s",
			strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path);
	__atomic_store_n(&crash_dfd, dfd, __ATOMIC_SEQ_CST);
	return host_crash_install();
}

void *
pcc_host_worker_jmpbuf(void)
{
	return &host_w.jb;
}

int
pcc_host_worker_init(void)
{
	stack_t ss;
	int rc;

	rc = host_crash_install();
	if (rc < 0)
		return rc;
	if (host_w.altstack == NULL) {
		host_w.altstack = malloc(ALTSTACK_SIZE);
		if (host_w.altstack == NULL)
			return host_err(-ENOMEM, "worker: no memory for the signal stack");
		memset(&ss, 0, sizeof(ss));
		ss.ss_sp = host_w.altstack;
		ss.ss_size = ALTSTACK_SIZE;
		if (sigaltstack(&ss, NULL) != 0) {
			free(host_w.altstack);
			host_w.altstack = NULL;
			return host_err(-errno, "worker: sigaltstack failed");
		}
	}
	host_w.armed = 1;
	return 0;
}

int
pcc_host_worker_fault_resume(void)
{
	host_w.armed = 0;
	HOST_LOG(ERR, "worker (rank %u) left its loop after a fault in algorithm code%s%s\n",
			pcc_dev_thread_rank(), crash_path[0] != '\0' ? "; report in " : "",
			crash_path);
	host_ctx_fault();
	pcc_host_process_state_set(PCC_HOST_PS_ERROR);
	return -EFAULT;
}

void
pcc_host_worker_fini(void)
{
	stack_t ss;

	host_w.armed = 0;
	if (host_w.altstack != NULL) {
		memset(&ss, 0, sizeof(ss));
		ss.ss_flags = SS_DISABLE;
		sigaltstack(&ss, NULL);
		free(host_w.altstack);
		host_w.altstack = NULL;
	}
}

uint64_t
pcc_host_crash_count(void)
{
	return __atomic_load_n(&crash_count, __ATOMIC_RELAXED);
}
