/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_HOST_H
#define PCC_HOST_H

/**
 * @file
 * Host API of dpdk-pcc: what DOCA PCC's host library gives its users,
 * on DPDK facilities.  Guide: doc/host.md; telemetry: doc/telemetry.md.
 *
 *   ctx = pcc_host_rp_create(port_id);     (or pcc_host_np_create)
 *   pcc_host_set_app(ctx, "dcqcn");        built-in name or plug-in .so
 *   pcc_host_set_threads(ctx, 1, 4);  pcc_host_set_affinity(ctx, lcores, n);
 *   pcc_host_start(ctx);                   engine provider ops->start
 *   while (pcc_host_wait(ctx, 1000) ...)   state changes, or timeout
 *   pcc_host_stop(ctx);  pcc_host_destroy(ctx);
 *
 * lib/host does not link the engine: the engine (or the application)
 * registers a provider, struct pcc_host_engine_ops, through which contexts
 * start and stop it and telemetry reads flows and statistics.  The worker
 * loop calls pcc_host_mailbox_poll() once per round and arms the crash
 * guard (PCC_HOST_WORKER_GUARD) before it.
 *
 * Errors: negative errno; every failure also leaves a one-line message in
 * pcc_host_last_error() (per thread) and logs it (rte_log type pcc.host).
 * -EBUSY: the call is not allowed in the context's state (e.g. set app
 * after start); -EINVAL: bad argument; -ERANGE: value out of range;
 * -ENOENT: unknown name; -ENOTSUP: not for this role / no provider.
 */

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pcc_dev.h"
#include "pcc_dev_mgmt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Process state (DOCA values) ---------------------------------------- */

enum pcc_host_process_state {
	PCC_HOST_PS_ACTIVE = 0,
	PCC_HOST_PS_STANDBY = 1,
	PCC_HOST_PS_DEACTIVATED = 2,
	PCC_HOST_PS_ERROR = 3,
};

/** Process state: STANDBY until a context starts (or HA decides). */
enum pcc_host_process_state pcc_host_process_state(void);
/** Name: "active", "standby", "deactivated", "error". */
const char *pcc_host_process_state_name(int st);
/**
 * Set the process state (HA and the crash handler do; the application may
 * set ERROR).  Wakes every pcc_host_wait().  0 or -EINVAL.
 */
int pcc_host_process_state_set(enum pcc_host_process_state st);

/** Last error message of the calling thread ("" when none). */
const char *pcc_host_last_error(void);

/* ---- Engine provider ------------------------------------------------------ */

struct pcc_host_ctx;

/** A flow key, as the engine's (QP flows: type 0, qpn). */
struct pcc_host_flow_key {
	uint16_t port_id;
	uint8_t type; /**< 0 QP, 1 IPv4 5-tuple, 2 IPv6 5-tuple */
	uint8_t proto;
	uint32_t qpn;
	uint16_t sport;
	uint16_t dport;
	uint8_t src[16];
	uint8_t dst[16];
};

/** One flow as telemetry shows it. */
struct pcc_host_flow {
	struct pcc_host_flow_key key;
	uint32_t lcore_id;
	uint8_t dev_port;
	uint8_t slot;
	uint32_t rate; /**< 20-bit fixed point fraction of line rate */
	uint64_t rate_bps;
	uint32_t window;
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t cnp_rx;
	uint64_t ack_rx;
	uint64_t nack_rx;
	uint64_t probe_tx;
	uint64_t rtt_ns;
	uint64_t idle_ns;
};

/** One named statistic. */
struct pcc_host_stat {
	char name[48];
	uint64_t value;
};

/** NP capabilities (pcc_host_np_caps). */
struct pcc_host_np_caps {
	uint8_t resp_ts_size_max; /**< response timestamp bits */
	uint8_t resp_ts_res_max;  /**< resolution shift (ns >> res) */
	uint32_t ts_sources;      /**< bit per enum pcc_host_ts_src */
	uint8_t resp_user_max;    /**< user bytes per response */
	uint8_t probe_slots;
	uint16_t probe_custom_max; /**< CCMAD custom header bytes */
	uint32_t probe_formats;    /**< bit per enum pcc_host_probe_fmt */
};

/**
 * What the engine provides.  Every member may be NULL (the matching host
 * call then returns -ENOTSUP, telemetry reports 0/empty).  Called from the
 * control thread (start/stop/port_dev/np_caps) and from the telemetry
 * thread (flows_*, stats_get): the latter must be safe while workers run.
 */
struct pcc_host_engine_ops {
	/** A context starts: read its configuration (pcc_host_ctx_*_get)
	 *  and start the engine (the first time).  0 or negative errno. */
	int (*start)(void *arg, struct pcc_host_ctx *ctx);
	/** A context stops (the engine stops with the last one). */
	int (*stop)(void *arg, struct pcc_host_ctx *ctx);
	/** Ask every worker to return; async-signal-safe (crash handler). */
	void (*stop_async)(void *arg);
	/** lib/dev logical port of ethdev port_id (0 or -ENOENT). */
	int (*port_dev)(void *arg, uint16_t port_id, uint8_t *dev_port);
	uint32_t (*flows_count)(void *arg);
	int (*flow_get)(void *arg, const struct pcc_host_flow_key *key, struct pcc_host_flow *f);
	/** Up to n flows by decreasing rate_bps; returns how many. */
	uint32_t (*flows_top)(void *arg, struct pcc_host_flow *out, uint32_t n);
	/** Statistics of port_id (-1: engine-wide): fills up to n, returns
	 *  the count or a negative errno. */
	int (*stats_get)(void *arg, int port_id, struct pcc_host_stat *st, uint32_t n);
	/** NP capabilities of port_id (overrides the built-in defaults). */
	int (*np_caps)(void *arg, uint16_t port_id, struct pcc_host_np_caps *caps);
};

/** Register (copied) or remove (NULL) the provider.  arg is passed back. */
void pcc_host_engine_register(const struct pcc_host_engine_ops *ops, void *arg);

/* ---- Contexts ----------------------------------------------------------------- */

enum pcc_host_role {
	PCC_HOST_ROLE_RP = 0,
	PCC_HOST_ROLE_NP = 1,
};

/** Context states. */
enum pcc_host_ctx_state {
	PCC_HOST_CTX_CREATED = 0, /**< configurable */
	PCC_HOST_CTX_RUNNING = 1, /**< started */
	PCC_HOST_CTX_STOPPED = 2, /**< stopped; configurable again */
	PCC_HOST_CTX_ERROR = 3,   /**< a worker faulted (crash report) */
};

#define PCC_HOST_MAX_CTX 16
#define PCC_HOST_MAX_LCORES 128

/** Create a context on ethdev port_id (one per port and role).  NULL on
 *  error (-EEXIST, -ENOSPC, -EINVAL in pcc_host_last_error()). */
struct pcc_host_ctx *pcc_host_rp_create(uint16_t port_id);
struct pcc_host_ctx *pcc_host_np_create(uint16_t port_id);
/** Stop (if running) and free.  NULL allowed. */
void pcc_host_destroy(struct pcc_host_ctx *ctx);

enum pcc_host_ctx_state pcc_host_ctx_state(const struct pcc_host_ctx *ctx);
const char *pcc_host_ctx_state_name(int st);
enum pcc_host_role pcc_host_ctx_role(const struct pcc_host_ctx *ctx);
uint16_t pcc_host_ctx_port(const struct pcc_host_ctx *ctx);
/** lib/dev logical port (provider's port_dev, else port_id). */
uint8_t pcc_host_ctx_dev_port(const struct pcc_host_ctx *ctx);

/**
 * Application: a registered algorithm name (placed in slot 0), or the path
 * of a plug-in .so (contains '/' or ends in ".so"): checked in a child
 * process, then loaded; its default layout is applied at start.  RP only.
 */
int pcc_host_set_app(struct pcc_host_ctx *ctx, const char *app);
/** The application: name, and whether it is a plug-in (its name). */
const char *pcc_host_app(const struct pcc_host_ctx *ctx, bool *plugin);

/** Worker threads: 1 <= min <= max <= PCC_HOST_MAX_LCORES. */
int pcc_host_set_threads(struct pcc_host_ctx *ctx, uint32_t min, uint32_t max);
void pcc_host_threads(const struct pcc_host_ctx *ctx, uint32_t *min, uint32_t *max);
/**
 * Worker lcores: n in [min, max], distinct, < RTE_MAX_LCORE, and enabled
 * in the EAL when it is initialised.  -ERANGE count, -EINVAL bad lcore.
 */
int pcc_host_set_affinity(struct pcc_host_ctx *ctx, const uint32_t *lcores, uint32_t n);
/** Fills up to n lcores, returns the count. */
uint32_t pcc_host_affinity(const struct pcc_host_ctx *ctx, uint32_t *lcores, uint32_t n);

/* probe formats (per probe slot, RP) */
enum pcc_host_probe_fmt {
	PCC_HOST_PROBE_CCMAD = 0,
	PCC_HOST_PROBE_IFA1 = 1,
	PCC_HOST_PROBE_IFA2 = 2,
	PCC_HOST_PROBE_FMT_MAX,
};

#define PCC_HOST_PROBE_SLOTS 8
#define PCC_HOST_PROBE_CUSTOM_MAX 64

struct pcc_host_probe_conf {
	uint8_t format;        /**< enum pcc_host_probe_fmt */
	bool hw_np;            /**< CCMAD: answered by the remote hardware-NP model */
	uint8_t custom_len;    /**< CCMAD custom header bytes, 0..64 */
	uint8_t custom_offset; /**< its location: bytes after the probe body */
	uint32_t custom_pattern;
	uint64_t ifa1_marker;  /**< IFA1 (MSB set), 0 = default */
	uint8_t ifa_hop_limit; /**< IFA1/IFA2, 0 = 0xFE */
	uint8_t ifa2_gns;      /**< IFA2, 0..15 */
};

/** Probe format of probe slot 0..7 (RP).  -ERANGE for bad fields. */
int pcc_host_set_probe(struct pcc_host_ctx *ctx, uint8_t slot, const struct pcc_host_probe_conf *p);
int pcc_host_probe(const struct pcc_host_ctx *ctx, uint8_t slot, struct pcc_host_probe_conf *p);

/* NP response timestamps */
enum pcc_host_ts_src {
	PCC_HOST_TS_PORT = 0,     /**< the port's clock */
	PCC_HOST_TS_REALTIME = 1, /**< CLOCK_REALTIME */
};

/** Capabilities (provider's np_caps, else the engine's documented ones). */
int pcc_host_np_caps(const struct pcc_host_ctx *ctx, struct pcc_host_np_caps *caps);
/** NP: response timestamp bits and resolution (ns >> res); checked
 *  against the capabilities (-ERANGE). */
int pcc_host_np_set_resp_ts(struct pcc_host_ctx *ctx, uint8_t size_bits, uint8_t res_shift);
/** NP: timestamp source (-ENOTSUP when not in caps.ts_sources). */
int pcc_host_np_set_ts_src(struct pcc_host_ctx *ctx, enum pcc_host_ts_src src);
/** NP: IFA2 packets handled when (GNS & mask) == (value & mask); 4 bits. */
int pcc_host_np_set_gns_filter(struct pcc_host_ctx *ctx, uint8_t mask, uint8_t value);

/** NP settings as configured. */
struct pcc_host_np_conf {
	uint8_t resp_ts_size;
	uint8_t resp_ts_res;
	uint8_t ts_src;
	uint8_t gns_mask;
	uint8_t gns_value;
};
int pcc_host_np_conf_get(const struct pcc_host_ctx *ctx, struct pcc_host_np_conf *c);

/** Start: tracer/logger service, engine provider start; state RUNNING
 *  and, without HA, process state ACTIVE.  -EBUSY when running. */
int pcc_host_start(struct pcc_host_ctx *ctx);
/** Stop: provider stop; state STOPPED.  -EBUSY when not running. */
int pcc_host_stop(struct pcc_host_ctx *ctx);
/**
 * Wait until the context's or the process state changes, or timeout_ms
 * passes (condition variable; -1 = forever).  0 on a change, -ETIMEDOUT.
 */
int pcc_host_wait(struct pcc_host_ctx *ctx, int timeout_ms);

/* ---- Mailbox ---------------------------------------------------------------- */

#define PCC_HOST_MAILBOX_MAX (64u * 1024u)
#define PCC_HOST_MAILBOX_WORKERS PCC_DEV_MAX_THREADS

/** Request and response buffer sizes (1..PCC_HOST_MAILBOX_MAX), before
 *  start.  Default 0/0: no mailbox. */
int pcc_host_mailbox_set_size(struct pcc_host_ctx *ctx, uint32_t req_size, uint32_t resp_size);
/** Worker (thread rank) that runs the handler; default 0. */
int pcc_host_mailbox_set_worker(struct pcc_host_ctx *ctx, uint16_t rank);
/** The buffers (NULL before set_size); *size if not NULL. */
void *pcc_host_mailbox_req_buf(struct pcc_host_ctx *ctx, uint32_t *size);
void *pcc_host_mailbox_resp_buf(struct pcc_host_ctx *ctx, uint32_t *size);
/**
 * Run the mailbox handler of the algorithm at slot (0..7, 0xF) of the
 * context's port on its worker with req_len bytes of the request buffer;
 * wait up to timeout_ms (> 0).  On 0, *resp_len = bytes written to the
 * response buffer and *handler_rc = the handler's return (negative errno
 * from the handler is passed there, not as the result).
 * -EMSGSIZE req_len > request size, -EAGAIN not running, -ENOENT slot
 * unbound, -ENOTSUP no handler, -ETIMEDOUT no answer (the request is
 * cancelled if not yet taken; if the handler is running, the next send
 * returns -EBUSY until it completes).
 */
int pcc_host_mailbox_send(struct pcc_host_ctx *ctx, uint8_t slot, uint32_t req_len,
		uint32_t *resp_len, int *handler_rc, int timeout_ms);
/**
 * Engine side: run pending mailbox requests for the calling worker (its
 * lib/dev thread rank).  Call once per poll round; a few loads when idle.
 * Returns the number of requests run.
 */
unsigned int pcc_host_mailbox_poll(void);

/* ---- Crash report ----------------------------------------------------------- */

/**
 * Report file (a path; "" disables).  Installs SIGSEGV, SIGBUS, SIGFPE
 * and SIGILL handlers (on an alternate stack) the first time.
 */
int pcc_host_crash_set_file(const char *path);

/** The calling worker's jump buffer (a sigjmp_buf), for the guard. */
void *pcc_host_worker_jmpbuf(void);
/** Thread prologue: alternate signal stack, guard armed.  0 or -errno. */
int pcc_host_worker_init(void);
/**
 * After a guarded fault (the guard returned non-zero): disarm, wake
 * waiters, return -EFAULT.
 */
int pcc_host_worker_fault_resume(void);
/** Disarm the guard and free the stack (the worker leaves its loop). */
void pcc_host_worker_fini(void);

/**
 * Fault guard of a worker, in the function that runs its loop:
 *
 *   pcc_host_worker_init();
 *   if (PCC_HOST_WORKER_GUARD() != 0)
 *           return pcc_host_worker_fault_resume();   // -EFAULT
 *   while (running) { ... pcc_dev_dispatch() ...; pcc_host_mailbox_poll(); }
 *   pcc_host_worker_fini();
 *
 * A fault inside an algorithm's on_event (pcc_dev_dispatch_current()->
 * active) writes the crash report, sets the process state ERROR, calls
 * the provider's stop_async and jumps back here (the guard returns 1).
 * A fault anywhere else still writes the report, then takes the default
 * action (core dump).  sigsetjmp() rules apply: use the macro only as the
 * whole operand of a comparison with a constant in an if statement.
 */
#define PCC_HOST_WORKER_GUARD() sigsetjmp(*(sigjmp_buf *)pcc_host_worker_jmpbuf(), 1)

/** Faults handled since start (for tests). */
uint64_t pcc_host_crash_count(void);

/* ---- Parameters with a journal ---------------------------------------------- */

/**
 * Set a parameter by name on (dev port, slot) (pcc_dev_param_set_str)
 * and, when this process is the HA ACTIVE with a journal, append the
 * change to the journal so standbys replay it on takeover.
 */
int pcc_host_param_set(uint8_t port, uint8_t slot, const char *name, const char *value);

/**
 * Run a register-style management command (pcc_dev_mgmt.h) on the
 * device state; parameter sets (PCC_MGMT_PARAM_SET, PCC_MGMT_PARAMS_SET)
 * are journaled as pcc_host_param_set() does.  Returns resp->status; on
 * an error pcc_host_last_error() has resp->err.
 */
int pcc_host_ppcc(const struct pcc_dev_mgmt_req *req, struct pcc_dev_mgmt_resp *resp);

/* ---- Algorithms ---------------------------------------------------------------- */

/**
 * Register the built-in algorithms (pcc_algos.h) with lib/dev, once;
 * lib/host does it before it needs them.  0 or a negative errno.
 */
int pcc_host_algos_register(void);

/**
 * Check an algorithm name and one NAME=VALUE parameter against the
 * registered algorithms (lib/host registers the built-ins on its first
 * use; plug-ins add theirs when loaded), without the EAL or lib/dev
 * state: unknown algorithm, unknown parameter, not a number, outside
 * [min, max], read-only.  algo NULL or "" means the default algorithm
 * ("rtt").  name NULL checks the algorithm only.  0, or -1 with one line
 * in why.
 */
int pcc_host_algo_check(
		const char *algo, const char *name, const char *value, char *why, size_t whylen);

/* ---- Telemetry --------------------------------------------------------------- */

/** Register the /pcc/ commands with rte_telemetry (idempotent). */
int pcc_host_telemetry_register(void);

#ifdef __cplusplus
}
#endif

#endif /* PCC_HOST_H */
