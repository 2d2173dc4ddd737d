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
#include "pcc_host.h"

extern int host_logtype;

#define HOST_LOG(level, ...) rte_log(RTE_LOG_##level, host_logtype, "pcc.host: " __VA_ARGS__)

/* Record the message as the thread's last error, log it, return rc. */
int host_err(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Clear the thread's last error. */
void host_err_clear(void);

/* The engine provider. */
struct host_engine {
	struct pcc_host_engine_ops ops;
	void *arg;
};
extern struct host_engine host_engine;

/* One lock and condition for contexts and states; generation bumps on
 * every state change (pcc_host_wait). */
extern pthread_mutex_t host_lock;
void host_notify_locked(void);
void host_notify(void);
/* Process state without notification (signal handler). */
void host_process_state_store(enum pcc_host_process_state st);

/* Mailbox request of a context (one in flight). */
struct host_mbox_req {
	int st; /* enum host_mbox_st, atomic */
	int (*fn)(const void *req, uint32_t req_len, void *resp, uint32_t resp_cap);
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
	int state; /* enum pcc_host_ctx_state */
	char app[PCC_DEV_PLUGIN_PATH_MAX];
	bool plugin;
	char plugin_name[PCC_DEV_NAME_MAX];
	uint32_t min_threads;
	uint32_t max_threads;
	uint32_t lcores[PCC_HOST_MAX_LCORES];
	uint32_t n_lcores;
	struct pcc_host_probe_conf probe[PCC_HOST_PROBE_SLOTS];
	struct pcc_host_np_conf np;
	/* mailbox */
	pthread_mutex_t mbox_lock; /* one send at a time */
	void *mbox_req;
	void *mbox_resp;
	uint32_t mbox_req_size;
	uint32_t mbox_resp_size;
	uint16_t mbox_worker;
	struct host_mbox_req *mbox;
};

void host_mbox_ctx_free(struct pcc_host_ctx *ctx);
/* A worker faulted: running contexts go to ERROR, waiters wake. */
void host_ctx_fault(void);

/* Contexts (index 0..PCC_HOST_MAX_CTX-1); NULL when unused.  host_lock. */
struct pcc_host_ctx *host_ctx_at(unsigned int i);

/* Tracer/logger service for pcc_host_start(). */
int host_svc_autostart(void);

/* HA: journal a parameter change if active with a journal. */
int host_ha_journal(uint8_t port, uint8_t slot, const char *name, const char *value);

/* Crash: one-time handler installation (idempotent). */
int host_crash_install(void);

#endif /* HOST_INTERNAL_H */
