/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_DEV_SVC_H
#define PCC_DEV_SVC_H

/**
 * @file
 * Services for algorithms (DOCA PCC's device services): trace, printf,
 * thread rank, NIC byte counters, logical ports, port speed; and the
 * host/engine side of them (drain, loss counters, providers, clock).
 *
 * Trace and printf write into per-thread ring buffers allocated at
 * pcc_dev_init(): a single-producer ring per thread set (workers with a
 * rank), no system call and no allocation on the fast path.  A full ring
 * drops the record and counts the loss.  Threads without a rank share one
 * extra ring protected by a spinlock.  The host drains with
 * pcc_dev_trace_drain() / pcc_dev_printf_drain() at any time.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pcc_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Clock ------------------------------------------------------------ */

/** Timestamp source of trace/printf records and timers: nanoseconds. */
typedef uint64_t (*pcc_dev_clock_fn)(void *arg);

/**
 * Set the timestamp source (the engine registers its port clock, which in
 * a simulator run is virtual time), in nanoseconds.  NULL restores the
 * default: rte_rdtsc() (TSC cycles).  Set it before workers start.
 */
void pcc_dev_set_clock(pcc_dev_clock_fn fn, void *arg);
/** Current value of the timestamp source. */
uint64_t pcc_dev_now(void);
/**
 * Microseconds of the registered clock (DOCA's doca_pcc_dev_get_timer():
 * deterministic in a simulator run), or of CLOCK_MONOTONIC without one.
 */
uint64_t pcc_dev_time_us(void);

/* ---- Thread rank ------------------------------------------------------ */

/** Rank set by pcc_dev_thread_set_rank() on this thread, else 0. */
uint16_t pcc_dev_thread_rank(void);

/* ---- Trace ------------------------------------------------------------ */

#define PCC_DEV_TRACE_RING_DEFAULT 1024u   /**< records per thread */
#define PCC_DEV_PRINTF_RING_DEFAULT 16384u /**< bytes per thread */
#define PCC_DEV_PRINTF_MAX 256u            /**< longest message incl. NUL */

/** Thread of the records made before pcc_dev_init() (a plug-in loading). */
#define PCC_DEV_THREAD_EARLY 0xFFFFu

/** One trace record (64 bytes). */
struct pcc_dev_trace_rec {
	uint64_t ts;     /**< pcc_dev_now() at the call */
	uint32_t fmt_id; /**< the algorithm's format id */
	uint16_t thread; /**< thread set (rank; n_threads = shared set) */
	uint16_t reserved;
	uint64_t arg[5];
	uint64_t seq; /**< per thread set, counts lost records too */
};

/**
 * Set ring sizes for the next pcc_dev_init(): trace records and printf
 * bytes per thread set, powers of two (trace 16..2^20, printf 1024..2^24),
 * 0 keeps the current value.  -EBUSY after init, -EINVAL otherwise.
 */
int pcc_dev_svc_ring_sizes(uint32_t trace_recs, uint32_t printf_bytes);

/** A process's table of trace record formats (lib/host registers
 *  pcc_host_trace_fmt_set). */
typedef int (*pcc_dev_trace_fmt_fn)(uint32_t fmt_id, const char *fmt);

/** Register the format table pcc_dev_trace_fmt_set() forwards to (NULL:
 *  none). */
void pcc_dev_trace_fmt_register(pcc_dev_trace_fmt_fn fn);

/**
 * The format of this algorithm's trace records of fmt_id (up to 5 integer
 * conversions, e.g. "cnp rate=%u alpha=%u"): how a plug-in names its own
 * records, from its init or at run time.  Forwarded to the process's
 * table (pcc_host_trace_fmt_set(): dpdk-pcc's --trace-format and console
 * 'set trace-format' write the same table).  0, -ENOTSUP when no table is
 * registered, or the table's negative errno.
 */
int pcc_dev_trace_fmt_set(uint32_t fmt_id, const char *fmt);

/** Turn tracing on/off (default on); off makes pcc_dev_trace_5 a no-op. */
void pcc_dev_trace_enable(bool enable);

/**
 * Append one record {ts, thread, fmt_id, a1..a5} to the calling thread's
 * trace ring.  Dropped (and counted lost) when the ring is full; not
 * written when tracing is off.  Before pcc_dev_init() (a plug-in's load)
 * the record goes to a store of 64 records, thread PCC_DEV_THREAD_EARLY,
 * handed out first by the first drain after init.
 */
void pcc_dev_trace_5(
		uint32_t fmt_id, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5);
/**
 * Make this thread's records visible to the drain.  Records are published
 * at once by pcc_dev_trace_5, so this is only a store fence (DOCA compat).
 */
void pcc_dev_trace_flush(void);

typedef void (*pcc_dev_trace_cb)(const struct pcc_dev_trace_rec *rec, void *arg);
/**
 * Host side: hand every pending record to cb (thread set by thread set, in
 * order within a set) and free its space.  Returns the number drained or
 * -ENODEV.  Concurrent drains are serialised.
 */
int pcc_dev_trace_drain(pcc_dev_trace_cb cb, void *arg);

/* ---- printf ----------------------------------------------------------- */

/**
 * Format with vsnprintf (no system call; longer messages are truncated to
 * PCC_DEV_PRINTF_MAX - 1 bytes and counted) into the calling thread's
 * byte ring.  Returns the number of bytes stored (without NUL), -ENOSPC
 * when the ring is full (message dropped, counted lost), -EINVAL for a
 * NULL fmt.  Before pcc_dev_init() (a plug-in's load) messages go to a
 * 4 KiB store (thread PCC_DEV_THREAD_EARLY) drained first after init.
 */
int pcc_dev_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int pcc_dev_vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/** msg is NUL-terminated, len bytes without the NUL. */
typedef void (*pcc_dev_printf_cb)(
		uint16_t thread, uint64_t ts, const char *msg, uint32_t len, void *arg);
/** Host side: as pcc_dev_trace_drain for printf messages. */
int pcc_dev_printf_drain(pcc_dev_printf_cb cb, void *arg);

/** Totals since init, over all thread sets. */
struct pcc_dev_svc_stats {
	uint64_t trace_recs;       /**< records written */
	uint64_t trace_lost;       /**< records dropped (ring full) */
	uint64_t printf_msgs;      /**< messages written */
	uint64_t printf_lost;      /**< messages dropped (ring full) */
	uint64_t printf_truncated; /**< messages cut to PCC_DEV_PRINTF_MAX */
};
int pcc_dev_svc_stats_get(struct pcc_dev_svc_stats *st);

/* ---- NIC counters, ports, speed ---------------------------------------- */

enum pcc_dev_nic_counter_type {
	PCC_DEV_NIC_RX_BYTES = 0,
	PCC_DEV_NIC_TX_BYTES = 1,
};

/** Counter id of a port's byte counter, for pcc_dev_nic_counters_config. */
#define PCC_DEV_NIC_COUNTER_ID(port, type) (((uint32_t)(port) << 8) | (uint32_t)(type))
#define PCC_DEV_NIC_COUNTERS_MAX 16

/**
 * Where NIC facts come from: the engine registers one backed by ethdev
 * statistics and link state; unit tests register a fake.  Any callback may
 * be NULL.  Set before workers start.
 */
struct pcc_dev_nic_provider {
	/** Byte counter (type: enum pcc_dev_nic_counter_type) of port. */
	int (*counter)(void *arg, uint8_t port, uint8_t type, uint64_t *value);
	/** Link speed of port in Gb/s, 0 when down or unknown. */
	uint32_t (*speed_gbps)(void *arg, uint8_t port);
	/** Bitmask of logical ports that exist. */
	uint32_t (*ports_mask)(void *arg);
	void *arg;
};

/** Register (copied) or, with NULL, remove the provider.  Survives fini. */
void pcc_dev_set_nic_provider(const struct pcc_dev_nic_provider *p);

/**
 * For the calling thread: remember n (<= PCC_DEV_NIC_COUNTERS_MAX) counter
 * ids and where pcc_dev_nic_counters_sample() writes their values (the
 * caller's memory, n words).  n = 0 clears.  -EINVAL for a bad id/n/NULL,
 * -ENODEV before init.
 */
int pcc_dev_nic_counters_config(const uint32_t *ids, uint32_t n, uint32_t *values);
/**
 * Read the configured counters through the provider into the configured
 * values: the low 32 bits of the byte count (compute differences in
 * uint32_t).  0, -ENODEV (no provider/counter callback or not
 * initialised), -ENOENT (nothing configured), or the provider's error
 * (that value left unchanged, the others still sampled).
 */
int pcc_dev_nic_counters_sample(void);

/** Logical ports: the provider's mask, else ports 0..n_ports-1; 0 before init. */
uint32_t pcc_dev_logical_ports(void);
/** Port speed in Gb/s from the provider; 0 when unknown. */
uint32_t pcc_dev_port_speed(uint8_t port);
/**
 * Engine hook: the speed or state of port changed; calls
 * port_info_changed of every algorithm loaded on the port (once per
 * algorithm, however many indexes hold it).  0 or negative errno.
 */
int pcc_dev_port_info_changed(uint8_t port);

/* ---- Flow accounting (engine hook) ------------------------------------- */

/**
 * Active flows of (port, slot); pcc_dev_simple algorithms see it in their
 * snapshot.  The simple-algorithm wrapper adds one per new flow it sees
 * and takes it off again when the flow ends (the engine removed it:
 * pcc_dev_flow_end); _set overrides the figure.
 */
int pcc_dev_active_flows_set(uint8_t port, uint8_t slot, uint32_t n);
/** Current figure, 0 for a bad or unbound slot. */
uint32_t pcc_dev_active_flows(uint8_t port, uint8_t slot);

/* ---- Current dispatch (crash reports) ---------------------------------- */

/**
 * What pcc_dev_dispatch() is doing on the calling thread: filled before
 * it calls the algorithm's on_event and marked inactive when that returns
 * (a few thread-local stores).  A fault handler running on the same thread
 * (lib/host's crash report) reads it to name the algorithm, slot, flow and
 * event; active == 0 means the fault is not inside algorithm code.  The
 * event and context pointers are the caller's and valid only while active.
 */
struct pcc_dev_dispatch_cur {
	const struct pcc_dev_event *ev;     /**< event being handled (NULL:
	                                     *   on_flow_end) */
	const void *ctx;                    /**< the flow's context */
	const struct pcc_dev_algo_ops *ops; /**< the slot's algorithm */
	uint8_t port;
	uint8_t slot;
	uint8_t algo_idx;
	uint8_t active; /**< 1 while inside on_event */
	/** 1 while inside an NP handler (pcc_np_handle_port()), of np_port
	 *  (ethdev port; UINT16_MAX: the process-wide handler), np_fn */
	uint8_t np_active;
	uint16_t np_port;
	const void *np_fn;
};

/** The calling thread's record (never NULL; async-signal-safe). */
const struct pcc_dev_dispatch_cur *pcc_dev_dispatch_current(void);

#ifdef __cplusplus
}
#endif

#endif /* PCC_DEV_SVC_H */
