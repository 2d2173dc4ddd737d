/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef HOST_INTERNAL_H
#define HOST_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_log.h>

#include "pcc_dev.h"
#include "pcc_dev_plugin.h"
#include "pcc_engine.h"
#include "pcc_host.h"

extern int host_logtype;

#define HOST_LOG(level, ...) rte_log(RTE_LOG_##level, host_logtype, "pcc.host: " __VA_ARGS__)

/* Record the message as the thread's last error, log it, return rc. */
int host_err(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Clear the thread's last error. */
void host_err_clear(void);

/* The metrics server's address (NULL: keep) and port (< 0: keep): it
 * (re)starts when both are known (host_metrics.c).  0 or -errno. */
int host_metrics_configure(const char *addr, int port);
/* pcc_host_debug_enable(): DEBUG lines of state changes, setup, mailbox. */
extern bool host_debug;
#define HOST_DBG(...)                                 \
	do {                                          \
		if (host_debug)                       \
			HOST_LOG(DEBUG, __VA_ARGS__); \
	} while (0)

/* One lock and condition for contexts and states; generation bumps on
 * every state change (pcc_host_wait). */
extern pthread_mutex_t host_lock;
void host_notify_locked(void);
void host_notify(void);
/* The state generation (bumped on every change), and a wait for the
 * next change (0) or timeout_ms (-ETIMEDOUT; -1 forever). */
uint64_t host_generation(void);
int host_wait_gen(uint64_t gen, int timeout_ms);
/* Process state without notification (signal handler). */
void host_process_state_store(enum pcc_host_process_state st);

/* ---- Settings (host_opts.c) ---------------------------------------------- */

#define HOST_PATH_MAX 1024
#define HOST_PARAMS_MAX PCC_ENGINE_ALGO_PARAMS_MAX
#define HOST_PARAM_LEN 96
#define HOST_PLUGINS_MAX 16

/* Process-wide engine settings: the named options of scope PROCESS and
 * what pcc_host_gen_groups_set() gives. */
struct host_proc {
	uint16_t rxq; /* RX queues per port; 0 = 1, or what affinities need */
	uint16_t txq; /* 0 = as needed */
	uint16_t rxd;
	uint16_t txd;
	uint16_t burst;
	uint32_t nb_mbufs;
	uint32_t nb_mbufs_extra;
	uint32_t idle_sleep_us;
	struct pcc_engine_gen_conf gen; /* groups below */
	struct pcc_engine_gen_group *groups;
	uint32_t nb_groups;
	char gen_file[HOST_PATH_MAX]; /* "" = groups from the API, or none */
	struct pcc_engine_flow_conf flow;
	uint32_t txc_bytes;
	uint32_t txc_us;
	uint32_t timer_us;
	uint32_t pace_ahead_ns;
	char pacer[16];
	uint32_t pacer_queue;
	bool tx_stamp;
	bool icrc_hw;       /* every port's hardware verifies the ICRC (--icrc-hw) */
	bool probe_unbound; /* --probe-with-data off */
	uint32_t np_qp_table;
	uint8_t ifa2_proto;
	uint64_t ifa1_marker;
	/* the generator's addresses as given (for the IPv6 defaults) */
	bool src_ip_set, dst_ip_set, src_v6, dst_v6;
};

/* One parameter of an RP context, before the engine exists. */
struct host_param {
	uint8_t slot; /* 0..7, PCC_HOST_SLOT_ACTIVE */
	char name[HOST_PARAM_LEN];
	char value[HOST_PARAM_LEN];
};

/* RP settings of a context. */
struct host_rp {
	char slot_algo[PCC_ENGINE_SLOTS][PCC_DEV_NAME_MAX]; /* "" = none */
	char profile[HOST_PARAM_LEN];                       /* --algo-profile: "" = none */
	struct host_param params[HOST_PARAMS_MAX];
	uint32_t nb_params;
	struct pcc_host_probe_conf probe[PCC_HOST_PROBE_SLOTS];
	uint8_t probe_given; /* slots given by the "probe" option (a check) */
	uint64_t line_rate_bps;
	bool dev_port_set;
	uint8_t dev_port;
	int32_t fwd_from;                            /* forward mode host port, -1 = none */
	uint32_t fwd_rxq_lcore[PCC_HOST_MAX_LCORES]; /* its queue map */
	uint16_t nb_fwd_rxq_lcore;                   /* 0 = the context's */
};

/* NP settings of a context. */
struct host_np {
	struct pcc_engine_np_conf conf; /* sqpn_map -> map */
	struct pcc_engine_np_sqpn *map; /* malloc'ed */
	uint32_t nb_map;
};

/* Which options were given (combination checks). */
struct host_seen {
	uint8_t opt[128];
};

/* Where an option's setter writes: rp/np NULL for a process option. */
struct host_stage {
	struct host_proc *proc;
	struct host_rp *rp;
	struct host_np *np;
	struct host_seen *seen;
	bool apply; /* the EAL runs: plug-ins load, files open (else: check) */
};

void host_proc_default(struct host_proc *p);
void host_rp_default(struct host_rp *rp);
void host_np_default(struct host_np *np);
void host_np_free(struct host_np *np);
/* The process's settings (host_lock for writers); host_proc_ensure()
 * gives them their defaults on first use. */
void host_proc_ensure(void);
extern struct host_proc host_proc;
extern struct host_seen host_proc_seen;
/* Combinations of a stage's options (as pcc_host_opts_check).  0 or -1
 * with one line in why. */
int host_stage_check(const struct host_stage *st, char *why, size_t whylen);
/* The process's --plugin list (loaded when set with the EAL up). */
extern char host_plugins[HOST_PLUGINS_MAX][HOST_PATH_MAX];
extern uint32_t host_nb_plugins;
/* Load a plug-in (checked in a child first), or find it loaded; its name
 * in name.  0 or a negative errno with the reason in why. */
int host_plugin_load(const char *path, char *name, size_t namelen, char *why, size_t whylen);
/* Is app a plug-in path (contains '/' or ends in .so)? */
bool host_is_plugin_path(const char *app);

/* ---- Contexts ------------------------------------------------------------ */

/* Mailbox request of a context (one in flight). */
struct host_mbox_req {
	int st; /* enum host_mbox_st, atomic */
	pcc_dev_mailbox_fn fn;
	const void *req;
	uint32_t req_len;
	void *resp;
	uint32_t resp_cap;
	int rc;
	pthread_mutex_t m;
	pthread_cond_t c;
};

enum host_mbox_st {
	HOST_MBOX_FREE = 0,
	HOST_MBOX_PENDING,
	HOST_MBOX_RUNNING,
	HOST_MBOX_DONE,
	HOST_MBOX_CANCELLED,
};

struct pcc_host_ctx {
	bool used;
	uint8_t role;
	uint16_t port_id;
	uint8_t dev_port;
	int state;      /* enum pcc_host_ctx_state */
	bool in_engine; /* its port has its role in the engine */
	char app[PCC_DEV_PLUGIN_PATH_MAX];
	bool plugin;
	char plugin_name[PCC_DEV_NAME_MAX];
	uint32_t min_threads;
	uint32_t max_threads;
	uint32_t lcores[PCC_HOST_MAX_LCORES]; /* affinity (distinct) */
	uint32_t n_lcores;
	uint32_t rxq_lcore[PCC_HOST_MAX_LCORES]; /* explicit queue map */
	uint16_t nb_rxq_lcore;                   /* 0 = from the affinity */
	uint64_t affinity_seq;                   /* when set (the last wins) */
	bool peer_mac_valid;
	uint8_t peer_mac[6];
	struct host_rp rp;
	struct host_np np;
	struct host_seen seen;
	/* mailbox */
	pthread_mutex_t mbox_lock; /* one send at a time */
	void *mbox_req;
	void *mbox_resp;
	uint32_t mbox_req_size;
	uint32_t mbox_resp_size;
	bool mbox_worker_set;
	uint16_t mbox_worker;
	struct host_mbox_req *mbox;
};

void host_mbox_ctx_free(struct pcc_host_ctx *ctx);
/* A worker faulted: running contexts go to ERROR, waiters wake. */
void host_ctx_fault(void);

/* Contexts (index 0..PCC_HOST_MAX_CTX-1); NULL when unused.  host_lock. */
struct pcc_host_ctx *host_ctx_at(unsigned int i);

/* Configuration calls: -EBUSY while the context runs or is in ERROR. */
int host_ctx_configurable(const struct pcc_host_ctx *ctx, const char *what);
/* Settings fixed when the engine is created: -EBUSY once it exists. */
int host_before_engine(const struct pcc_host_ctx *ctx, const char *what);

/* ---- The engine (host_engine.c) --------------------------------------------- */

/* The engine, NULL before the first start. */
extern struct pcc_engine *host_e;
/* What lib/host keeps beside it (host_engine.c, host_run.c). */
struct host_engine_state {
	pcc_engine_poll_hook_t hook; /* installed at creation */
	void *hook_arg;
	bool hold;      /* the engine is created held (pcc_host_set_poll_hold) */
	bool abs_start; /* generator groups: absolute start times */
	bool launched;  /* lcores launched (pcc_engine_start) */
};
extern struct host_engine_state host_eng;
/* The service thread, every period: port link changes to the algorithms
 * (pcc_engine_port_info_poll); skipped while host_lock is busy. */
void host_engine_port_watch(void);
/* Create it from the contexts and settings (host_lock not held). */
int host_engine_create(void);
/* Destroy it (every context gone). */
void host_engine_destroy(void);
/* Resume / pause ctx's port, launch / stop the lcores as needed. */
int host_engine_ctx_start(struct pcc_host_ctx *ctx);
int host_engine_ctx_stop(struct pcc_host_ctx *ctx);
/* An RP context's slot algorithm on the engine's lib/dev state. */
int host_engine_slot_app(
		struct pcc_host_ctx *ctx, uint8_t slot, const char *algo, char *why, size_t whylen);
/* An NP context's settings on the engine (stopped). */
int host_engine_np_apply(struct pcc_host_ctx *ctx);
/* An NP context's application on its port (NULL handler: unbind). */
int host_engine_np_app_bind(struct pcc_host_ctx *ctx);
/* Engine probe conf of a host one. */
void host_probe_to_engine(const struct pcc_host_probe_conf *h, struct pcc_engine_probe_conf *e);
/* Rank of the first lcore polling port_id, or -1. */
int host_engine_port_rank(uint16_t port_id);

/* /pcc/config (host_config.c). */
struct rte_tel_data;
int host_tlm_config(const char *cmd, const char *params, struct rte_tel_data *d);
/* Telemetry helpers (host_tlm.c): "a,b,c" into up to n numbers (count,
 * -EINVAL), a u64 array, an array put in a dict (freed on failure). */
int host_tlm_args(const char *params, uint32_t *v, int n, const char **rest);
struct rte_tel_data *host_tlm_arr_u64(void);
/* An error reply {"status": rc, "error": "<reason>"}; returns 0 (DPDK
 * would answer a negative return with a bare null). */
int host_tlm_fail(struct rte_tel_data *d, int rc, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));
void host_tlm_dict_arr(struct rte_tel_data *d, const char *name, struct rte_tel_data *a);
/* The engine's telemetry (host_tlm_engine.c). */
int host_tlm_flows(const char *cmd, const char *params, struct rte_tel_data *d);
int host_tlm_flow(const char *cmd, const char *params, struct rte_tel_data *d);
int host_tlm_flows_top(const char *cmd, const char *params, struct rte_tel_data *d);
int host_tlm_stats(const char *cmd, const char *params, struct rte_tel_data *d);
int host_tlm_lcores(const char *cmd, const char *params, struct rte_tel_data *d);
int host_tlm_mempools(const char *cmd, const char *params, struct rte_tel_data *d);

/* Tracer/logger service for pcc_host_start(). */
int host_svc_autostart(void);

/* HA: journal a parameter change if active with a journal. */
int host_ha_journal(uint8_t port, uint8_t slot, const char *name, const char *value);

/* Crash: one-time handler installation (idempotent). */
int host_crash_install(void);
/* Check a crash report path (private directory, no link, ours if it
 * exists): the directory's fd (close it), or <0 with the reason in why. */
int host_crash_file_check(const char *path, char *why, size_t len);
/* The watchdog's report of a hung thread t (NULL: unknown): the crash file
 * (else stderr), the thread's own part written by itself from a signal
 * handler within wait_ms; head goes after the title.  Returns where it
 * went ("in PATH", "on stderr"). */
const char *host_crash_watchdog_report(const pthread_t *t, const char *head, uint32_t wait_ms);

/* host_watchdog.c */
/* The polling thread of lcore_id is the caller (on), or gone (off). */
void host_watchdog_thread_set(unsigned int lcore_id, bool on);
/* The engine to watch (NULL when it is destroyed). */
void host_watchdog_attach(struct pcc_engine *e);
/* Stop the watchdog thread. */
void host_watchdog_fini(void);

/*
 * The profile name of algorithm algo (NULL or "": the default, rtt), or
 * NULL with the --algo-profile error in why (host_algo.c).
 */
struct pcc_algo_profile;
const struct pcc_algo_profile *host_algo_profile(
		const char *algo, const char *name, char *why, size_t whylen);

#endif /* HOST_INTERNAL_H */
