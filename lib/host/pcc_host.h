/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_HOST_H
#define PCC_HOST_H

/**
 * @file
 * Host API of dpdk-pcc: what DOCA PCC's host library gives its users,
 * on DPDK facilities, and the one path through which the engine is
 * configured and run.  Guide: doc/host.md; telemetry: doc/telemetry.md.
 *
 *   rte_eal_init(argc, argv);              ports come from the EAL
 *   rp = pcc_host_rp_create(0);            one context per port and role
 *   np = pcc_host_np_create(1);
 *   pcc_host_set_app(rp, "dcqcn");         built-in name or plug-in .so
 *   pcc_host_set_app(np, "my_np.so");      NP: a plug-in's NP handler
 *   pcc_host_set_threads(rp, 1, 4);  pcc_host_set_affinity(rp, lcores, n);
 *   pcc_host_set_probe(rp, 0, &probe);     RP probe formats
 *   pcc_host_np_set_ifa2_gns_ignore(np, 0xf, 0x3);
 *   pcc_host_opt_set(NULL, "gen-flows", "4");   engine options by name
 *   pcc_host_start(rp);  pcc_host_start(np);    the engine is created at
 *                                          the first start from every
 *                                          context, then runs
 *   while (pcc_host_wait(rp, 1000) ...)    state changes, or timeout
 *   pcc_host_destroy(rp);  pcc_host_destroy(np);
 *
 * lib/host links the engine and registers the built-in algorithms; the
 * engine knows nothing of it: lib/host installs its fault guard and
 * mailbox polling as the engine's worker hooks (pcc_engine_set_hooks).
 * dpdk-pcc's options and console commands call these functions; a
 * program that calls them gets the same engine (doc/host.md).
 *
 * Errors: negative errno; every failure also leaves a one-line message in
 * pcc_host_last_error() (per thread) and logs it (rte_log type pcc.host).
 * -EBUSY: the call is not allowed in the context's state (e.g. set app
 * after start, a setting the engine fixes at its creation once it
 * exists); -EINVAL: bad argument; -ERANGE: value out of range; -ENOENT:
 * unknown name; -ENOTSUP: not for this role.
 */

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pcc_dev.h"
#include "pcc_dev_mgmt.h"
#include "pcc_engine.h"

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

/* ---- Flows and statistics (telemetry) -------------------------------------- */

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

/** Flows in the engine's tables (0 before it exists). */
uint32_t pcc_host_flows_count(void);
/** One flow: 0, -ENOENT, -ENODEV (no engine). */
int pcc_host_flow_get(const struct pcc_host_flow_key *key, struct pcc_host_flow *f);
/** Up to n flows by decreasing rate_bps; returns how many. */
uint32_t pcc_host_flows_top(struct pcc_host_flow *out, uint32_t n);
/**
 * Engine statistics of port_id (-1: every port), named as the fields of
 * struct pcc_engine_port_stats: fills up to n, returns the count, or
 * -ENOENT (port without a role), -ENODEV (no engine).
 */
int pcc_host_stats_get(int port_id, struct pcc_host_stat *st, uint32_t n);

/**
 * The engine lib/host runs (NULL before the first start), for reading
 * its counters and state (pcc_engine.h getters).  Configure and run it
 * through lib/host only (devtools/check-layers.sh checks it).
 */
struct pcc_engine *pcc_host_engine(void);

/**
 * A grace period: wait until every engine lcore inside its poll loop has
 * finished the poll round it was in (its beat moved, or it left the
 * loop), so that nothing it read before the call (an ethdev RX/TX
 * callback just removed, say) is still in use.  The calling lcore is not
 * waited for.  0 (also without an engine), or -ETIMEDOUT after
 * timeout_ms (an lcore that makes no progress: the watchdog's case).
 */
int pcc_host_engine_quiesce(unsigned int timeout_ms);

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

/** Contexts at once: an RP and an NP context on every port. */
#define PCC_HOST_MAX_CTX (2 * RTE_MAX_ETHPORTS)
#define PCC_HOST_MAX_LCORES 128

/**
 * Create a context on ethdev port_id (one per port and role).  Contexts
 * must exist before the first pcc_host_start(): the engine is created
 * then, with a role on the port of every context.  NULL on error
 * (-EEXIST, -ENOSPC, -EINVAL, -EBUSY (the engine exists) in
 * pcc_host_last_error()).
 */
struct pcc_host_ctx *pcc_host_rp_create(uint16_t port_id);
struct pcc_host_ctx *pcc_host_np_create(uint16_t port_id);
/** Stop (if running) and free; the last one destroys the engine (its
 *  ports are closed).  NULL allowed. */
void pcc_host_destroy(struct pcc_host_ctx *ctx);
/** The context of port_id and role, NULL if none. */
struct pcc_host_ctx *pcc_host_ctx_find(uint16_t port_id, enum pcc_host_role role);

enum pcc_host_ctx_state pcc_host_ctx_state(const struct pcc_host_ctx *ctx);
const char *pcc_host_ctx_state_name(int st);
enum pcc_host_role pcc_host_ctx_role(const struct pcc_host_ctx *ctx);
uint16_t pcc_host_ctx_port(const struct pcc_host_ctx *ctx);
/** lib/dev logical port of an RP context (the engine's, once it exists;
 *  before, the one it will get if nothing else decides). */
uint8_t pcc_host_ctx_dev_port(const struct pcc_host_ctx *ctx);

/**
 * Application.  RP: a registered algorithm name (loaded and bound in slot
 * 0, the slot new flows get), or the path of a plug-in .so (contains '/'
 * or ends in ".so"): checked in a child process, then loaded; its default
 * slot layout is applied at start.  NP: a plug-in (path, or the name of a
 * loaded one) with an NP handler: bound to the context's port, and its NP
 * mailbox handler serves the context's mailbox.  Before start (-EBUSY
 * while running); on a stopped context the engine takes it at once.
 */
int pcc_host_set_app(struct pcc_host_ctx *ctx, const char *app);
/**
 * Load a plug-in (checked in a child process first) without applying its
 * slot layout: its algorithms become names set_app / set_slot_app and the
 * options accept, its NP handler an NP application.  Loading a path (or
 * name) already loaded gives its name again.  0 with the plug-in's name
 * in name, or a negative errno (reason in pcc_host_last_error()).
 */
int pcc_host_plugin_load(const char *path, char *name, size_t namelen);
/** The application: name, and whether it is a plug-in (its name); "" if
 *  none. */
const char *pcc_host_app(const struct pcc_host_ctx *ctx, bool *plugin);
/** RP: the algorithm of slot (0..7), as set_app does for slot 0 (NULL or
 *  "" clears a slot set this way).  Same rules as pcc_host_set_app().
 *  Before the engine exists, replacing a slot's algorithm by another (or
 *  clearing it) drops the parameters set for that slot so far: they were
 *  the previous algorithm's. */
int pcc_host_set_slot_app(struct pcc_host_ctx *ctx, uint8_t slot, const char *algo);
/**
 * RP: parameter NAME=VALUE of slot's algorithm (slot 0..7, or
 * PCC_HOST_SLOT_ACTIVE: the slot new flows get).  Before the engine
 * exists it is checked against the slot's algorithm and applied at start;
 * after, at once (and journaled for HA standbys: pcc_host_param_set()).
 */
int pcc_host_set_param(struct pcc_host_ctx *ctx, uint8_t slot, const char *name, const char *value);
#define PCC_HOST_SLOT_ACTIVE 0xFF

/** Worker threads: 1 <= min <= max <= PCC_HOST_MAX_LCORES. */
int pcc_host_set_threads(struct pcc_host_ctx *ctx, uint32_t min, uint32_t max);
void pcc_host_threads(const struct pcc_host_ctx *ctx, uint32_t *min, uint32_t *max);
/**
 * Worker lcores polling the context's port (its flows are owned by them):
 * n in [min, max], distinct, < RTE_MAX_LCORE, and enabled in the EAL when
 * it is initialised.  RX queue q of the port is polled by lcores[q % n]
 * (the port gets at least n RX queues unless the "rxq" option fixes their
 * number).  A port with an RP and an NP context: the last one set wins.
 * Default: every port's queues round-robin over the worker lcores (or the
 * main lcore alone).  -ERANGE count, -EINVAL bad lcore, -EBUSY once the
 * engine exists.
 */
int pcc_host_set_affinity(struct pcc_host_ctx *ctx, const uint32_t *lcores, uint32_t n);
/** Fills up to n lcores, returns the count (0: default). */
uint32_t pcc_host_affinity(const struct pcc_host_ctx *ctx, uint32_t *lcores, uint32_t n);
/**
 * The lcore polling each RX queue of the port: lcore_of_queue[q] for q <
 * nb (= the "rxq" option, RX queues per port); lcores may repeat.  As
 * set_affinity otherwise (the affinity becomes the distinct lcores).
 */
int pcc_host_set_rxq_lcores(struct pcc_host_ctx *ctx, const uint32_t *lcore_of_queue, uint16_t nb);

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
	uint8_t format;          /**< enum pcc_host_probe_fmt */
	bool hw_np;              /**< answered by the remote hardware-NP model
	                        *   (DOCA: not rp_set_ccmad_remote_sw_handler) */
	uint8_t custom_len;      /**< custom header bytes, 0..64 */
	uint8_t custom_offset;   /**< its location: bytes after the probe body
	                        *   (zeros before it); offset + len <= 64 */
	uint32_t custom_pattern; /**< 32-bit big-endian fill of the header */
	uint64_t ifa1_marker;    /**< IFA1 (MSB set), 0 = default */
	uint8_t ifa_hop_limit;   /**< IFA1/IFA2, 0 = 0xFE */
	uint8_t ifa2_gns;        /**< IFA2, 0..15 */
	uint8_t ifa2_proto;      /**< IFA2 IP protocol, 0 = 253 */
};

/**
 * Probe format of probe slot 0..7 (RP); before start or while running
 * (probes sent after the call use it).  -ERANGE for bad fields, -EPROTO
 * for an IFA2 protocol or IFA1 marker other than the engine's classifier
 * recognises (fixed when it is created).
 */
int pcc_host_set_probe(struct pcc_host_ctx *ctx, uint8_t slot, const struct pcc_host_probe_conf *p);
int pcc_host_probe(const struct pcc_host_ctx *ctx, uint8_t slot, struct pcc_host_probe_conf *p);

/** RP: line rate of the port, bit/s (0: the link speed, 100G for virtual
 *  ports); the algorithms' rates are fractions of it.  Before the engine
 *  exists. */
int pcc_host_set_line_rate(struct pcc_host_ctx *ctx, uint64_t bps);
/** MAC of the port at the other end of the port's link (the generator's
 *  default destination).  Before the engine exists. */
int pcc_host_set_peer_mac(struct pcc_host_ctx *ctx, const uint8_t mac[6]);
/** RP: forward mode, port_a (host side) -> paced -> this port (wire side);
 *  port_a gets no other role.  Before the engine exists. */
int pcc_host_rp_set_forward(struct pcc_host_ctx *ctx, uint16_t port_a);
/** RP in forward mode: the lcore polling each RX queue of the host side
 *  (port_a), as pcc_host_set_rxq_lcores() does for the context's port
 *  (default: the context's lcores).  Before the engine exists. */
int pcc_host_rp_set_forward_rxq_lcores(
		struct pcc_host_ctx *ctx, const uint32_t *lcore_of_queue, uint16_t nb);
/** RP: share lib/dev logical port dev_port (its slots, parameters,
 *  counters) with other RP contexts, so more than 8 RP ports can run;
 *  sharing ports need one line rate.  Before the engine exists. */
int pcc_host_rp_set_dev_port(struct pcc_host_ctx *ctx, uint8_t dev_port);

/* NP response timestamps */
enum pcc_host_ts_src {
	PCC_HOST_TS_PORT = 0,     /**< the port's clock */
	PCC_HOST_TS_REALTIME = 1, /**< CLOCK_REALTIME */
};

/** Capabilities of the context's port (the engine's documented ones
 *  before it exists). */
int pcc_host_np_caps(const struct pcc_host_ctx *ctx, struct pcc_host_np_caps *caps);
/** NP: response timestamp bits and resolution (ns >> res); checked
 *  against the capabilities (-ERANGE). */
int pcc_host_np_set_resp_ts(struct pcc_host_ctx *ctx, uint8_t size_bits, uint8_t res_shift);
/** NP: timestamp source (-ENOTSUP when not in caps.ts_sources). */
int pcc_host_np_set_ts_src(struct pcc_host_ctx *ctx, enum pcc_host_ts_src src);
/**
 * NP (DOCA's np_set_ifa2_gns_ignore): IFA2 packets with (GNS & mask) ==
 * (value & mask) are not the NP's (no probe answer; counted
 * ifa2_ignored); 4 bits each.  Off until set.
 */
int pcc_host_np_set_ifa2_gns_ignore(struct pcc_host_ctx *ctx, uint8_t mask, uint8_t value);
/** NP, select mode (dpdk-pcc's own): only IFA2 packets with (GNS & mask)
 *  == (value & mask) are the NP's; 0/0 (default) selects all. */
int pcc_host_np_set_ifa2_gns_select(struct pcc_host_ctx *ctx, uint8_t mask, uint8_t value);
/** NP: static sender-QPN map for CNPs (copied; n <= 4096; NULL/0 clears). */
int pcc_host_np_set_sqpn_map(
		struct pcc_host_ctx *ctx, const struct pcc_engine_np_sqpn *map, uint32_t n);

/**
 * NP settings of an NP context (named options np-*, the typed setters
 * above); sqpn_map is the context's copy.  The NP settings take effect at
 * start; on a stopped context at once; -EBUSY while it runs.
 */
int pcc_host_np_conf_get(const struct pcc_host_ctx *ctx, struct pcc_engine_np_conf *c);

/**
 * Start: the first start creates the engine from every context (its
 * ports, roles, lcores, applications, probes, NP settings, the engine
 * options), registers the tracer/logger service and launches the lcores;
 * later starts resume the context's port.  State RUNNING and, without
 * HA, process state ACTIVE.  -EBUSY when running, or for a context
 * created after the engine; the engine's refusal as its errno (reason in
 * pcc_host_last_error()).
 */
int pcc_host_start(struct pcc_host_ctx *ctx);
/**
 * Create the engine from every context now, as the first start would,
 * without starting any: a warm STANDBY (its ports configured, algorithms
 * loaded, parameters readable and journal replayable) that starts fast
 * when it becomes ACTIVE.  0 (also when it exists), or as pcc_host_start().
 */
int pcc_host_prepare(void);
/** Stop: the context's port is paused (not polled); the engine's lcores
 *  stop with the last running context.  State STOPPED.  -EBUSY when not
 *  running. */
int pcc_host_stop(struct pcc_host_ctx *ctx);
/**
 * Wait until the context's or the process state changes, or timeout_ms
 * passes (-1 = forever).  When the main lcore polls queues (it is in an
 * affinity, or the only lcore), the wait runs its share of the engine.
 * 0 on a change, -ETIMEDOUT.
 */
int pcc_host_wait(struct pcc_host_ctx *ctx, int timeout_ms);

/** Called by pcc_host_main_loop(): 0 go on, > 0 stop every context, < 0
 *  leave (the engine runs on). */
typedef int (*pcc_host_tick_t)(void *arg);
/**
 * Run the main lcore's share until every context stops or tick says
 * otherwise: the poll loop when the main lcore polls queues, else sleep;
 * tick (may be NULL) about every tick_us.  0, or -ENODEV (no engine).
 */
int pcc_host_main_loop(pcc_host_tick_t tick, void *arg, uint32_t tick_us);

/** Ask the engine's lcores to return (every running context stops; the
 *  main loop returns).  Async-signal-safe. */
void pcc_host_engine_stop_async(void);

/** Engine extras a device model needs (a simulator): mbufs beyond the
 *  computed pool, and departure-time stamps on paced packets
 *  (PCC_ENGINE_TX_DEPART_NAME).  Before the engine exists. */
int pcc_host_set_engine_extra(uint32_t nb_mbufs_extra, bool tx_stamp);

/**
 * A poll hook for the engine (pcc_engine_set_poll_hook(): a simulator
 * stepping between poll rounds), installed when the engine is created.
 * Before the engine exists.
 */
int pcc_host_set_poll_hook(pcc_engine_poll_hook_t fn, void *arg);

/**
 * Create the engine held (pcc_engine_hold(): its rounds leave every port
 * alone) for the poll hook to release (pcc_engine_hold(e, false) from
 * the hook, once the caller says every context runs): lib/simrun's
 * deterministic mode.  pcc_host_set_poll_hook() clears it: set it after
 * the hook.  Before the engine exists.
 */
int pcc_host_set_poll_hold(bool hold);

/** Generator flow groups (copied), for every RP port the group names;
 *  abs_start: start times are absolute port-clock times.  Before the
 *  engine exists; NULL/0 clears. */
int pcc_host_gen_groups_set(const struct pcc_engine_gen_group *g, uint32_t n, bool abs_start);

/* ---- Engine options, stated once as data ------------------------------------ */

/**
 * Every engine setting that is not a DOCA-style call above has a name:
 * the dpdk-pcc option without its "--" (doc/dpdk-pcc.md lists them).
 * Process options apply to the engine as a whole; RP and NP options to a
 * context of that role.  dpdk-pcc's command line is these names.
 */
enum pcc_host_opt_scope {
	PCC_HOST_OPT_PROCESS = 0,
	PCC_HOST_OPT_RP = 1,
	PCC_HOST_OPT_NP = 2,
};

struct pcc_host_opt_info {
	const char *name;   /**< "gen-rate" */
	const char *arg;    /**< "MBPS"; NULL for a flag (value "" or "on") */
	const char *expect; /**< what it accepts, for error messages */
	const char *group;  /**< usage section */
	const char *help;   /**< usage text, lines separated by '\n' */
	uint8_t scope;      /**< enum pcc_host_opt_scope */
	bool repeat;        /**< may be given more than once (adds) */
	bool runtime;       /**< may change while the engine runs */
};

/** Number of options; the i-th (NULL past the end); by name (NULL). */
unsigned int pcc_host_opt_count(void);
const struct pcc_host_opt_info *pcc_host_opt_at(unsigned int i);
const struct pcc_host_opt_info *pcc_host_opt_find(const char *name);

/**
 * Whether option name sets the generated flows' packets (gen-qpn,
 * gen-size, ...): such an option needs gen-flows or gen-file, and a
 * simulator scenario, whose flows section lists the flows, replaces it.
 */
bool pcc_host_opt_is_gen(const char *name);

/**
 * Set option name to value: ctx NULL for a process option, a context of
 * the option's role otherwise.  The value's syntax and range are checked
 * (one line in pcc_host_last_error() naming the value: "invalid value
 * 'x' for --gen-rate (expected ...)").  -ENOENT unknown name, -EINVAL
 * bad value or scope, -EBUSY (the engine exists and the option is not
 * runtime).
 */
int pcc_host_opt_set(struct pcc_host_ctx *ctx, const char *name, const char *value);

/** Check one option's value (as pcc_host_opt_set) without the EAL, a
 *  context or the engine ("plugin" loads the plug-in, after its trial in a
 *  child, so that its algorithms are known).  0, or -1 with one line in
 *  why. */
int pcc_host_opt_check(const char *name, const char *value, char *why, size_t whylen);

/**
 * Check a whole set of options without the EAL, contexts or engine:
 * each value (as pcc_host_opt_set), then their combinations (e.g.
 * --gen-size needs --gen-flows or --gen-file; --np-cnp-gap-us with
 * --np-cnp off).  Plug-ins ("plugin") are loaded first, so --algo and
 * --algo-param may name their algorithms.  0, or -1 with one line in why.
 */
int pcc_host_opts_check(const char *const *names, const char *const *values, unsigned int n,
		char *why, size_t whylen);

/* ---- Metrics (Prometheus / OpenMetrics over HTTP) --------------------------- */

/**
 * Serve every /pcc/ counter at http://addr:port/metrics (addr an IPv4 or
 * IPv6 literal, NULL = 127.0.0.1): engine statistics per port, lcore
 * counters, algorithm counters per port and slot, process state, flows.
 * The Prometheus text format (0.0.4), or OpenMetrics when the scraper asks
 * for it (Accept: application/openmetrics-text).  One thread; -EBUSY when
 * already serving, -errno of bind/listen (reason in pcc_host_last_error()).
 * doc/telemetry.md "Metrics".
 */
int pcc_host_metrics_start(const char *addr, uint16_t port);
/** Stop serving (no-op when not serving). */
void pcc_host_metrics_stop(void);
/** Whether serving, and where. */
bool pcc_host_metrics_running(const char **addr, uint16_t *port);
/** What a scrape returns, into buf: its length, or -ENOSPC, -EINVAL. */
int pcc_host_metrics_render(char *buf, size_t len, bool openmetrics);

/* ---- Capabilities and debugging (DOCA counterparts in doc/host.md) --------- */

/** Worker threads a context can have: min 1; max the lcores the EAL
 *  gives (workers, or the main lcore alone).  0 before rte_eal_init(). */
uint32_t pcc_host_min_threads(void);
uint32_t pcc_host_max_threads(void);
/** Can port_id take an RP / NP context (a valid ethdev port, and for the
 *  NP its classifier's needs)?  1 yes, 0 no (reason in
 *  pcc_host_last_error()). */
int pcc_host_rp_supported(uint16_t port_id);
int pcc_host_np_supported(uint16_t port_id);

/** DOCA's enable_debug: log every context state change, engine setup and
 *  mailbox request at DEBUG level on pcc.host (and raise it). */
void pcc_host_debug_enable(bool on);
bool pcc_host_debug_enabled(void);
/**
 * DOCA's dump_debug: write the process state, every context (role, port,
 * state, app, lcores, probes, NP settings, mailbox), the engine's
 * effective configuration and its counters to f.  0 or -EINVAL.
 */
int pcc_host_debug_dump(FILE *f);
/**
 * The engine's effective configuration as JSON text (what /pcc/config
 * returns): process options, and per port its roles, lcores, queues,
 * algorithms, parameters, probes and NP settings.  The same settings give
 * the same text.  Returns the length (written up to len - 1), -ENODEV
 * before the engine exists.
 */
int pcc_host_config_json(char *buf, size_t len);

/* ---- Mailbox ---------------------------------------------------------------- */

#define PCC_HOST_MAILBOX_MAX (64u * 1024u)
#define PCC_HOST_MAILBOX_WORKERS PCC_DEV_MAX_THREADS

/** Request and response buffer sizes (1..PCC_HOST_MAILBOX_MAX), before
 *  start.  Default 0/0: no mailbox.  RP and NP contexts alike. */
int pcc_host_mailbox_set_size(struct pcc_host_ctx *ctx, uint32_t req_size, uint32_t resp_size);
/** Worker (thread rank) that runs the handler; default: the first
 *  lcore polling the context's port. */
int pcc_host_mailbox_set_worker(struct pcc_host_ctx *ctx, uint16_t rank);
/** The buffers (NULL before set_size); *size if not NULL. */
void *pcc_host_mailbox_req_buf(struct pcc_host_ctx *ctx, uint32_t *size);
void *pcc_host_mailbox_resp_buf(struct pcc_host_ctx *ctx, uint32_t *size);
/**
 * Run the mailbox handler on the context's worker with req_len bytes of
 * the request buffer: for an RP context the one of the algorithm at slot
 * (0..7, 0xF) of its port, for an NP context its application's NP mailbox
 * handler (slot ignored);
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
 * Worker side: run pending mailbox requests for the calling worker (its
 * lib/dev thread rank).  lib/host's round hook calls it once per poll
 * round; a few loads when idle.  Returns the number of requests run.
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
 * Fault guard of a worker, in the function that runs its loop (lib/host's
 * run hook does this for every engine lcore; a program running a loop of
 * its own may do the same):
 *
 *   pcc_host_worker_init();
 *   if (PCC_HOST_WORKER_GUARD() != 0)
 *           return pcc_host_worker_fault_resume();   // -EFAULT
 *   while (running) { ... pcc_dev_dispatch() ...; pcc_host_mailbox_poll(); }
 *   pcc_host_worker_fini();
 *
 * A fault inside an algorithm's on_event (pcc_dev_dispatch_current()->
 * active) writes the crash report, sets the process state ERROR, stops
 * the engine and jumps back here (the guard returns 1).
 * A fault anywhere else still writes the report, then takes the default
 * action (core dump).  sigsetjmp() rules apply: use the macro only as the
 * whole operand of a comparison with a constant in an if statement.
 */
#define PCC_HOST_WORKER_GUARD() sigsetjmp(*(sigjmp_buf *)pcc_host_worker_jmpbuf(), 1)

/** Faults handled since start (for tests). */
uint64_t pcc_host_crash_count(void);

/* ---- Watchdog (doc/host.md, "Watchdog") ---------------------------------- */

#define PCC_HOST_WATCHDOG_MS_MIN 10u
#define PCC_HOST_WATCHDOG_MS_MAX 3600000u

/** Called from the watchdog's thread when lcore_id hung (see below). */
typedef void (*pcc_host_watchdog_cb)(unsigned int lcore_id, void *arg);

/**
 * Watch the polling lcores: one that is in its poll loop and completes no
 * round for ms milliseconds (an algorithm's on_event or an NP handler
 * that does not return) is reported, crash-report style, to the crash
 * file (pcc_host_crash_set_file(); else stderr) by the hung thread
 * itself (registers, backtrace, the algorithm, flow and event or the NP
 * handler it is in); the process state becomes ERROR (an HA ACTIVE hands
 * over), the engine is told to stop and the callback of
 * pcc_host_watchdog_on_hang() runs.  0 = off (the default);
 * PCC_HOST_WATCHDOG_MS_MIN..PCC_HOST_WATCHDOG_MS_MAX, else -ERANGE.
 */
int pcc_host_watchdog_set(uint32_t ms);
/** The limit set, 0 when off. */
uint32_t pcc_host_watchdog_ms(void);
/** What to do when an lcore hung (NULL: nothing more). */
void pcc_host_watchdog_on_hang(pcc_host_watchdog_cb cb, void *arg);
/** The lcore the watchdog found hung since the engine was created, or -1. */
int pcc_host_watchdog_fired(void);

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
