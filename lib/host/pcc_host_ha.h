/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_HOST_HA_H
#define PCC_HOST_HA_H

/**
 * @file
 * Active/standby: several processes (each with its own --file-prefix)
 * serve the same port set; one is ACTIVE, the others STANDBY.  Design and
 * failure cases: doc/host.md, "Active/standby".
 *
 * Leadership is an OS lock plus a heartbeat, in the lock file
 * <dir>/pcc-ha-<name>.lock (0600, in a private directory: no other user
 * can open it, so none can hold a lock on it; doc/host.md):
 *  - a shared header (mmap'd) holds a generation number, the active's pid,
 *    and its heartbeat (CLOCK_MONOTONIC ns, written every period);
 *  - the active of generation g holds an open-file-description lock
 *    (F_OFD_SETLK) on byte LEADER(g); the kernel drops it when the
 *    process dies;
 *  - a standby polls every period: if LEADER(g) can be locked (the holder
 *    died), or the heartbeat is older than stale_ms (the holder hangs) and
 *    it wins the takeover lock TAKEOVER(g), it locks LEADER(g + 1),
 *    advances the generation g -> g + 1 (compare-and-swap) and becomes
 *    leader: the become_active callback runs, then the journal replays,
 *    then the role is announced ACTIVE (pcc_host_ha_wait, process state).
 *    The heartbeat is written by the HA thread, which runs the callback:
 *    it must return within stale_ms or another standby takes over;
 *  - an active whose generation was overtaken (it hung and woke up)
 *    demotes itself to DEACTIVATED and runs the deactivate callback; one
 *    whose process state is ERROR releases leadership.
 */

#include <stdbool.h>
#include <stdint.h>

#include "pcc_host.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pcc_host_ha;

/** Called from the HA thread.  Return 0; non-zero sets ERROR. */
typedef int (*pcc_host_ha_cb)(void *arg);
/** Applies one journal entry; default pcc_dev_param_set_str. */
typedef int (*pcc_host_ha_apply_cb)(
		uint8_t port, uint8_t slot, const char *name, const char *value, void *arg);

struct pcc_host_ha_conf {
	/**< lock directory, private: owned by this user, writable by no one
	 *   else (else refused); NULL = /run/dpdk-pcc (root),
	 *   $XDG_RUNTIME_DIR/dpdk-pcc or /tmp/dpdk-pcc-<uid>, made 0700 */
	const char *dir;
	const char *name;      /**< port set name, e.g. "p0_1" ([A-Za-z0-9_.-]) */
	uint32_t heartbeat_ms; /**< period; 0 = 50 */
	uint32_t stale_ms;     /**< heartbeat age that means hung; 0 = 5 periods */
	bool journal;          /**< keep a parameter journal (<lock>.journal) */
	pcc_host_ha_cb become_active;
	pcc_host_ha_cb deactivate;
	void *cb_arg;
	pcc_host_ha_apply_cb apply;
	void *apply_arg;
};

/**
 * Open the lock file and start the HA thread: the process becomes ACTIVE
 * (become_active runs) or STANDBY at its first period.  One per process.
 * NULL on error (pcc_host_last_error()).
 */
struct pcc_host_ha *pcc_host_ha_start(const struct pcc_host_ha_conf *conf);
/** Stop the thread, release leadership, close.  NULL allowed. */
void pcc_host_ha_stop(struct pcc_host_ha *ha);
/**
 * This process is shutting down: from now on it never takes over (a
 * STANDBY stays STANDBY, a takeover not yet committed is abandoned before
 * become_active).  Async-signal-safe: call it from a SIGINT/SIGTERM
 * handler.  pcc_host_ha_stop() implies it; pcc_host_ha_start() clears it.
 */
void pcc_host_ha_shutdown(void);
/** The instance of this process, NULL if none. */
struct pcc_host_ha *pcc_host_ha_get(void);
/** Current role (pcc_host_process_state() is the same). */
enum pcc_host_process_state pcc_host_ha_state(const struct pcc_host_ha *ha);
/** Generation this process leads (0 when not active). */
uint64_t pcc_host_ha_generation(const struct pcc_host_ha *ha);
/** Path of the lock file. */
const char *pcc_host_ha_path(const struct pcc_host_ha *ha);
/**
 * Wait until the role differs from `from` or timeout_ms passes.
 * Returns the new state, or -ETIMEDOUT.
 */
int pcc_host_ha_wait(struct pcc_host_ha *ha, enum pcc_host_process_state from, int timeout_ms);
/** Append a parameter change to the journal (ACTIVE only; else -EPERM). */
int pcc_host_ha_journal_add(struct pcc_host_ha *ha, uint8_t port, uint8_t slot, const char *name,
		const char *value);
/** Journal entries replayed at the last takeover. */
uint32_t pcc_host_ha_replayed(const struct pcc_host_ha *ha);

#ifdef __cplusplus
}
#endif

#endif /* PCC_HOST_HA_H */
