/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_DEV_H
#define PCC_DEV_H

/**
 * @file
 * The algorithm-facing ("device") API of dpdk-pcc: what a congestion
 * control algorithm is written against.  It mirrors the programming model
 * of DOCA PCC's device API (events, results, 48-byte per-flow context,
 * algorithm slots, parameters, counters) with DPDK-style names.
 *
 * An algorithm is one struct pcc_dev_algo_ops registered by name.  The
 * engine calls ops->on_event() for every event of a flow, on the worker
 * lcore that owns the flow, with that flow's context and a zeroed result.
 *
 * Related headers: pcc_dev_fxp.h (fixed point), pcc_dev_hist.h
 * (histograms), pcc_dev_svc.h (trace, printf, thread rank, NIC counters,
 * ports), pcc_dev_simple.h (snapshot-style algorithms and named
 * parameters).  Guide: doc/algorithms.md.
 *
 * Errors: functions returning int return 0 (or a count) on success and a
 * negative errno otherwise: -ENODEV before pcc_dev_init(), -EINVAL for a
 * bad argument (port >= n_ports, slot not 0..7/0xF, NULL pointer, id out
 * of range), -ENOENT for an unbound slot / empty index / unknown name,
 * -EBUSY when the state forbids the call.  Pointer getters return NULL
 * instead.  Control-path calls (everything but dispatch, counters,
 * counter updates and pcc_dev_params()) are serialised by one lock.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Limits ------------------------------------------------------- */

#define PCC_DEV_MAX_PORTS 8       /**< logical ports */
#define PCC_DEV_MAX_SLOTS 8       /**< user algorithm slots per port */
#define PCC_DEV_MAX_ALGOS 8       /**< algorithm indexes per port */
#define PCC_DEV_INTERNAL_SLOT 0xF /**< slot/index of the default algorithm */
#define PCC_DEV_MAX_PARAMS 44     /**< parameters per algorithm */
#define PCC_DEV_MAX_COUNTERS 63   /**< counters per algorithm */
#define PCC_DEV_MAX_COUNTER_GROUPS 15
#define PCC_DEV_DEFAULT_COUNTER_GROUPS 2
#define PCC_DEV_CTX_SIZE 48 /**< DOCA-style per-flow context */
#define PCC_DEV_CTX_MAX 256 /**< largest native per-flow context */
#define PCC_DEV_NAME_MAX 32
#define PCC_DEV_DESC_MAX 128
#define PCC_DEV_MAX_THREADS 128   /**< worker threads (counter sets) */
#define PCC_DEV_MAX_REGISTERED 64 /**< registered algorithms */
/** 32-bit words per counter group per thread (group 0 uses n_counters). */
#define PCC_DEV_COUNTER_GROUP_SIZE 64

/** Rate: 20-bit fixed point fraction of line rate. */
#define PCC_DEV_RATE_SHIFT 20
#define PCC_DEV_MAX_RATE (1u << PCC_DEV_RATE_SHIFT)
#define PCC_DEV_DEFAULT_RATE (PCC_DEV_MAX_RATE >> 8)

/* ---- Events -------------------------------------------------------- */

/** Event types (values as DOCA PCC's). */
enum pcc_dev_event_type {
	PCC_DEV_EVENT_NULL = 0,
	PCC_DEV_EVENT_FW = 1,
	PCC_DEV_EVENT_CNP = 2,
	PCC_DEV_EVENT_TX = 3,
	PCC_DEV_EVENT_ACK = 4,
	PCC_DEV_EVENT_NACK = 5,
	PCC_DEV_EVENT_RTT = 6,
	PCC_DEV_EVENT_TIMER = 7, /**< dpdk-pcc: per-flow timer expired */
	PCC_DEV_EVENT_TX_FOR_ACK_NACK = 31,
};

/** Bit of an event type in a disable mask. */
#define PCC_DEV_EVENT_BIT(type) (1u << (type))

/** NACK subtypes. */
enum pcc_dev_nack_subtype {
	PCC_DEV_NACK_RNR = 1,
	PCC_DEV_NACK_OOS = 2,
	PCC_DEV_NACK_DUP_READ = 3,
};

/** TX event flags. */
#define PCC_DEV_TX_F_ACK_EXPECTED (1u << 0)
#define PCC_DEV_TX_F_OVERLOADED (1u << 1)
#define PCC_DEV_TX_F_RTT_REQ_SENT (1u << 2)

#define PCC_DEV_RTT_USER_LEN 12

struct pcc_int_hdr; /* pcc_proto_tlm.h: HPCC INT, when the ACK carried one */

/**
 * One event.  Times are nanoseconds of the port's clock, truncated to 32
 * bits as DOCA's (they wrap every 4.29 s; compute differences in uint32_t).
 * Algorithms should read it through the accessors below.
 */
struct pcc_dev_event {
	uint8_t type;      /**< enum pcc_dev_event_type */
	uint8_t subtype;   /**< NACK: enum pcc_dev_nack_subtype */
	uint8_t port;      /**< logical port */
	uint8_t flags;     /**< TX: PCC_DEV_TX_F_* */
	uint32_t flow_tag; /**< engine's flow identifier */
	uint32_t sn;       /**< sequence number (PSN for ACK/NACK/CNP) */
	uint32_t ts;       /**< event time, ns */
	uint32_t flow_qpn; /**< the flow's QPN (RoCEv2 flows; 0 for others) */
	uint8_t ttl;       /**< CNP/ACK/NACK/RTT: IP TTL / hop limit of the
	                    *   received packet (last coalesced); else 0 */
	uint8_t dscp;      /**< DSCP of the flow's packets */
	uint8_t reserved[2];
	union {
		struct {
			uint32_t first_ts;  /**< first coalesced TX, ns */
			uint16_t sent_32b;  /**< bytes sent / 32 (saturates) */
			uint16_t sent_pkts; /**< packets sent (saturates) */
		} tx;
		struct {
			uint32_t first_ts; /**< first coalesced event, ns */
			uint32_t first_sn;
			uint32_t coalesced;                /**< events merged into this one */
			const struct pcc_int_hdr *int_hdr; /**< NULL if none */
		} ack;                                     /**< ACK, NACK and CNP */
		struct {
			uint32_t req_send_ts;               /**< RP clock */
			uint32_t req_recv_ts;               /**< NP clock */
			uint32_t resp_send_ts;              /**< NP clock */
			uint32_t resp_recv_ts;              /**< RP clock (= ts) */
			uint8_t user[PCC_DEV_RTT_USER_LEN]; /**< raw NP bytes */
			/** response version: 0, or 1 when the NP added its port
			 *  counter and type (PCC_PROBE_F_EXT, doc/wire.md 7.6) */
			uint8_t version;
			uint8_t np_port_type; /**< v1: NP port type (0: <= 25G) */
			uint16_t reserved;
			uint32_t np_rx_bytes; /**< v1: NP port RX bytes, low 32 bits */
		} rtt;
		struct {
			uint32_t period_us; /**< the timer's period */
		} timer;
	};
};

static inline uint8_t
pcc_dev_event_type(const struct pcc_dev_event *ev)
{
	return ev->type;
}

static inline uint32_t
pcc_dev_event_ts(const struct pcc_dev_event *ev)
{
	return ev->ts;
}

/* ---- Per-call attributes, results, context ------------------------- */

/** Attributes of the call. */
struct pcc_dev_attr {
	uint8_t algo_slot; /**< 0..7 or PCC_DEV_INTERNAL_SLOT */
	uint8_t overload;  /**< engine is shedding load (0/1) */
	uint8_t port;
	uint8_t algo_idx; /**< algorithm index the slot maps to */
	/** The calling thread's counters of the slot, what
	 *  pcc_dev_counters(port, algo_slot) returns, set by
	 *  pcc_dev_dispatch() when the algorithm has counters and they are
	 *  on; NULL: ask pcc_dev_counters() (which says NULL when off). */
	uint32_t *counters;
};

/*
 * Results flags (pcc_dev_results.flags): CREDITS_RELOAD grants the credits
 * now; PROBE_CUSTOM sets the flow's probe custom header (custom_hdr);
 * PROBE_DSCP sets its probes' DSCP (probe_dscp); PROBE_DSCP_OFF goes back
 * to the flow's own DSCP.  WINDOW_WIRE (with a window): the window counts
 * the frames' bytes on the wire, not their payload (HPCC's W = B x T).
 */
#define PCC_DEV_RES_F_CREDITS_RELOAD (1u << 0)
#define PCC_DEV_RES_F_PROBE_CUSTOM (1u << 1)
#define PCC_DEV_RES_F_PROBE_DSCP (1u << 2)
#define PCC_DEV_RES_F_PROBE_DSCP_OFF (1u << 3)
#define PCC_DEV_RES_F_WINDOW_WIRE (1u << 4)

/** Longest per-flow probe custom header (the probe format's limit). */
#define PCC_DEV_PROBE_CUSTOM_MAX 64

/**
 * Results of a call, zeroed before each call.  rate == 0 means "keep the
 * current rate" (a DOCA algorithm always writes it); window == 0 means the
 * algorithm is not window-based.  The probe requests (flags) are applied
 * by the engine after the call, before this flow's next probe.
 */
struct pcc_dev_results {
	uint32_t rate;      /**< 1..PCC_DEV_MAX_RATE (values above are clamped) */
	uint8_t rtt_req;    /**< 1: send an RTT probe for this flow */
	uint8_t probe_slot; /**< probe format slot (0 = the flow's slot) */
	uint8_t flags;      /**< PCC_DEV_RES_F_* */
	uint8_t probe_dscp; /**< with PCC_DEV_RES_F_PROBE_DSCP: 0..63 */
	uint32_t window;    /**< window-based: congestion window, bytes */
	uint32_t credits;   /**< window-based: extra send credits, bytes */
	/** with PCC_DEV_RES_F_PROBE_CUSTOM: custom_len bytes (<= 64) for the
	 *  custom header of this flow's probes; valid until the call returns */
	const uint8_t *custom_hdr;
	uint8_t custom_len;
};

/** DOCA-sized per-flow context; native algorithms may use up to CTX_MAX. */
struct pcc_dev_ctx {
	uint32_t data[PCC_DEV_CTX_SIZE / sizeof(uint32_t)];
};

/* ---- Algorithm description ------------------------------------------ */

/**
 * Parameter/counter permissions: 0 read-only, any other value writable
 * (DOCA passes 1 or 2; the value is kept as given and reported).
 */
#define PCC_DEV_PERM_RO 0
#define PCC_DEV_PERM_RW 1
/** Is permission value p writable? */
#define PCC_DEV_PERM_WRITABLE(p) ((p) != PCC_DEV_PERM_RO)

struct pcc_dev_param_desc {
	uint32_t id; /**< 0-based, dense: id == index in the table */
	const char *name;
	uint32_t def;
	uint32_t min;
	uint32_t max;
	uint8_t perm; /**< PCC_DEV_PERM_RO, or writable (non-zero) */
	const char *desc;
};

enum pcc_dev_counter_type {
	PCC_DEV_COUNTER_ACCUMULATE = 0,
	PCC_DEV_COUNTER_MIN = 1,
	PCC_DEV_COUNTER_MAX = 2,
};

/** What a counter's value is, for display (the value itself is raw). */
enum pcc_dev_unit {
	PCC_DEV_UNIT_NONE = 0,  /**< a count */
	PCC_DEV_UNIT_RATE = 1,  /**< 20-bit fraction of the port's line rate */
	PCC_DEV_UNIT_NS = 2,    /**< nanoseconds */
	PCC_DEV_UNIT_FXP16 = 3, /**< 16.16 fixed point (1.0 = 65536) */
	PCC_DEV_UNIT_BYTES = 4, /**< bytes */
};

struct pcc_dev_counter_desc {
	uint32_t id; /**< 0-based, dense */
	const char *name;
	uint32_t max; /**< saturation value (0 = UINT32_MAX) */
	uint8_t type; /**< enum pcc_dev_counter_type */
	uint8_t perm;
	const char *desc;
};

/** Name of a unit ("count", "rate", "ns", "fxp16", "bytes"). */
const char *pcc_dev_unit_name(uint8_t unit);
/**
 * value in its unit, as text: "3.20 Gb/s" (rate, at line_gbps), "12.064
 * ms" (ns), "0.9508" (fxp16), "1.50 MB" (bytes), the number (count).
 * Returns buf.
 */
char *pcc_dev_unit_format(uint8_t unit, uint64_t value, uint32_t line_gbps, char *buf, size_t len);

/** What an algorithm needs, so the engine sizes memory to what is used. */
struct pcc_dev_mem_decl {
	uint32_t n_slots; /**< slots it may occupy at once */
	uint32_t n_params;
	uint32_t n_counters;
	uint32_t n_counter_groups;
	uint32_t n_histograms;
	uint32_t ctx_size; /**< per-flow context bytes */
};

/**
 * A mailbox handler: runs a host request on a worker; fills resp (at most
 * resp_cap bytes) and returns the bytes written, or a negative errno.
 */
typedef int (*pcc_dev_mailbox_fn)(const void *req, uint32_t req_len, void *resp, uint32_t resp_cap);

/**
 * An algorithm: one ops struct, registered by name.  on_event and name are
 * required; everything else optional.  Tables live as long as the ops.
 */
struct pcc_dev_algo_ops {
	const char *name; /**< unique, [a-z0-9_], < PCC_DEV_NAME_MAX */
	uint32_t id;      /**< user-defined algorithm id (DOCA's) */
	uint16_t major;
	uint16_t minor;
	const char *desc;
	uint32_t ctx_size; /**< 0 means PCC_DEV_CTX_SIZE; <= CTX_MAX */
	const struct pcc_dev_param_desc *params;
	uint32_t n_params;
	const struct pcc_dev_counter_desc *counters;
	uint32_t n_counters;
	const uint8_t *hist_ids; /**< histogram ids this algorithm updates */
	uint32_t n_hist_ids;

	/**
	 * Once per port and slot when the algorithm is placed there.  May
	 * set bits in *disable_mask (PCC_DEV_EVENT_BIT) for events it never
	 * wants.  Return 0 or a negative errno to refuse the slot.
	 */
	int (*init)(uint8_t port, uint8_t slot, uint32_t *disable_mask);

	/** Per event: fast path.  ctx is zeroed for a new flow. */
	void (*on_event)(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
			struct pcc_dev_results *res);

	/**
	 * Validate and apply num new values for parameters id_base..
	 * id_base+num-1 of (port, slot); params is a copy of the slot's whole
	 * current array, committed to the slot only when 0 is returned.
	 * Return 0, or a negative errno such as -EINVAL (nothing applied)
	 * when a value is out of the algorithm's own rules.  Range [min, max]
	 * from the table is checked by the library before this is called.
	 * NULL: copy.
	 */
	int (*set_params)(uint8_t port, uint8_t slot, uint32_t id_base, uint32_t num,
			const uint32_t *new_values, uint32_t *params);

	/** Mailbox request from the host; fills response, returns >= 0 bytes
	 *  written or a negative errno. */
	int (*mailbox)(const void *req, uint32_t req_len, void *resp, uint32_t resp_cap);

	/** Called when a port's speed or state changed. */
	void (*port_info_changed)(uint8_t port);

	/** Fill what the algorithm needs (defaults derive from the tables). */
	void (*declare_memory)(struct pcc_dev_mem_decl *decl);

	/** Per counter (n_counters entries), its enum pcc_dev_unit, for
	 *  display; NULL: every counter is a count. */
	const uint8_t *counter_units;
	/**
	 * The flow whose context is ctx has ended: the engine removed it
	 * from its table (idle too long, or evicted for a new flow), on the
	 * worker that owned it (pcc_dev_flow_end).  ctx is not used again;
	 * per-flow accounting kept outside it (active flows) is undone here.
	 * Optional.
	 */
	void (*on_flow_end)(void *ctx, const struct pcc_dev_attr *attr);
};

/** The unit of counter id of ops (PCC_DEV_UNIT_NONE when not given). */
static inline uint8_t
pcc_dev_counter_unit(const struct pcc_dev_algo_ops *ops, uint32_t id)
{
	return ops != NULL && ops->counter_units != NULL && id < ops->n_counters ?
			ops->counter_units[id] :
			PCC_DEV_UNIT_NONE;
}

/** Register an algorithm by name.  0, -EEXIST, -EINVAL (bad ops), -ENOSPC. */
int pcc_dev_algo_register(const struct pcc_dev_algo_ops *ops);
/** Remove a registered algorithm (not while loaded at an index: -EBUSY). */
int pcc_dev_algo_unregister(const char *name);
/** Look up by name; NULL if unknown. */
const struct pcc_dev_algo_ops *pcc_dev_algo_find(const char *name);
/** Registered algorithms: fills up to n pointers, returns the total. */
unsigned int pcc_dev_algo_list(const struct pcc_dev_algo_ops **ops, unsigned int n);

/** Register at load time (built-ins and plug-ins). */
#define PCC_DEV_ALGO_REGISTER(ops)                                                   \
	static void __attribute__((constructor, used)) pcc_dev_algo_ctor_##ops(void) \
	{                                                                            \
		pcc_dev_algo_register(&(ops));                                       \
	}

/* ---- The device state: ports, algorithm indexes, slots --------------- */

struct pcc_dev_conf {
	uint8_t n_ports;          /**< 1..PCC_DEV_MAX_PORTS */
	uint16_t n_threads;       /**< worker threads (counter sets) */
	uint8_t n_counter_groups; /**< 1..15, 0 = default 2 */
	const char *default_algo; /**< for slot 0xF; NULL = "rtt" */
};

/** Create the device state (one per process).  0 or negative errno. */
int pcc_dev_init(const struct pcc_dev_conf *conf);
/** Free it. */
void pcc_dev_fini(void);

/**
 * Place algorithm `name` at algorithm index idx of port (0..7, or 0xF).
 * -EBUSY if a slot is bound to idx, except idx 0xF: loading there replaces
 * the default algorithm and rebinds the internal slot 0xF to it.
 */
int pcc_dev_algo_load(uint8_t port, uint8_t idx, const char *name);
/**
 * Empty index idx of port: slots bound to it are unbound (-EBUSY if one is
 * enabled).  Unloading 0xF leaves slot 0xF unbound (dispatch: -ENOENT).
 */
int pcc_dev_algo_unload(uint8_t port, uint8_t idx);
/**
 * Bind slot (0..7) of port to algorithm index idx and run its init;
 * parameters get their defaults, counters zero.  Disabled until enabled.
 */
int pcc_dev_slot_bind(uint8_t port, uint8_t slot, uint8_t idx);
/** Unbind slot (0..7) and free its memory; -EBUSY while enabled. */
int pcc_dev_slot_unbind(uint8_t port, uint8_t slot);
/** Enable a bound slot (0..7) for new flows (-ENOENT if unbound). */
int pcc_dev_slot_enable(uint8_t port, uint8_t slot, bool enable);
/** Slot a new flow on port gets: lowest enabled, else PCC_DEV_INTERNAL_SLOT. */
uint8_t pcc_dev_slot_active(uint8_t port);
/** Algorithm at a slot (NULL if unbound); *enabled if not NULL. */
const struct pcc_dev_algo_ops *pcc_dev_slot_algo(uint8_t port, uint8_t slot, bool *enabled);
/** Disable mask of a slot (events not delivered). */
uint32_t pcc_dev_slot_event_mask(uint8_t port, uint8_t slot);

/**
 * Deliver one event: zeroes *res, honours the slot's disable mask (returns
 * 1 without calling when masked), calls on_event.  0 when called, negative
 * errno for a bad port/slot/event type (-EINVAL) or an unbound slot
 * (-ENOENT).  Enabled or not does not matter here: enabling only decides
 * which slot new flows get.  attr->overload is the calling thread's flag
 * (pcc_dev_thread_set_overload).  This is the engine's fast path.
 */
int pcc_dev_dispatch(uint8_t port, uint8_t slot, void *ctx, const struct pcc_dev_event *ev,
		struct pcc_dev_results *res);

/**
 * A flow of (port, slot) ended (the engine removed it from its table):
 * calls the slot algorithm's on_flow_end with the flow's context, on the
 * worker that owned the flow.  0 when done (also when the algorithm has
 * no on_flow_end), -EINVAL for a bad port/slot or NULL ctx, -ENOENT for
 * an unbound slot.  The engine calls it; lock-free as pcc_dev_dispatch().
 */
int pcc_dev_flow_end(uint8_t port, uint8_t slot, void *ctx);

/* ---- Parameters ------------------------------------------------------ */

/** Current parameter array of (port, slot) (for the algorithm). */
uint32_t *pcc_dev_params(uint8_t port, uint8_t slot);
/**
 * Set num values from id_base: range-checked against the table (-ERANGE,
 * nothing applied), read-only params refused (-EPERM), then set_params.
 */
int pcc_dev_params_set(
		uint8_t port, uint8_t slot, uint32_t id_base, uint32_t num, const uint32_t *values);
int pcc_dev_params_get(
		uint8_t port, uint8_t slot, uint32_t id_base, uint32_t num, uint32_t *values);
/** Parameter id by name, or -ENOENT. */
int pcc_dev_param_id(uint8_t port, uint8_t slot, const char *name);

/* ---- Counters -------------------------------------------------------- */

/**
 * This thread's counter array for (port, slot), group 0 (the algorithm's
 * declared counters).  Index = counter id.  NULL when counters are
 * disabled for the slot: algorithms must check.
 */
uint32_t *pcc_dev_counters(uint8_t port, uint8_t slot);
/**
 * As above for a counter group.  Groups 1..n_groups-1 hold
 * PCC_DEV_COUNTER_GROUP_SIZE words each: the bins of histograms 2(g-1)
 * (words 0..31) and 2(g-1)+1 (words 32..63), see pcc_dev_hist.h; words of
 * histograms nobody configured are free for the algorithm's own use.
 */
uint32_t *pcc_dev_counters_group(uint8_t port, uint8_t slot, uint8_t group);
/**
 * Worker threads sharing one counter set (1..PCC_DEV_MAX_THREADS, default
 * 1): threads of ranks k*n .. k*n+n-1 get the same arrays from
 * pcc_dev_counters() and increment them together (unsynchronised, as
 * DOCA's shared sets; totals read the same either way).  Before
 * pcc_dev_init() (a plug-in's load): -EBUSY after it unless n is the
 * current value, -EINVAL out of range.
 */
int pcc_dev_threads_per_counter_set(uint32_t n);
uint32_t pcc_dev_threads_per_counter_set_get(void);
/**
 * Update helpers honouring the counter's type and saturation (max):
 * _add: ACCUMULATE += v (saturating at max); MIN/MAX as _update.
 * _update: ACCUMULATE = min(v, max); MIN = min(cur, v); MAX =
 * max(cur, min(v, max)).  MIN counters start (and clear) at max, so a MIN
 * counter without samples reads max.  No-op when disabled or invalid.
 */
void pcc_dev_counter_add(uint8_t port, uint8_t slot, uint32_t id, uint32_t v);
void pcc_dev_counter_update(uint8_t port, uint8_t slot, uint32_t id, uint32_t v);

int pcc_dev_counters_enable(uint8_t port, uint8_t slot, bool enable);
bool pcc_dev_counters_enabled(uint8_t port, uint8_t slot);
/**
 * Combined values (sum / min / max over thread sets per counter type) of
 * group 0 as one block of n (<= n_counters) values.  Returns the number
 * written or a negative errno.  _and_clear resets after reading.
 */
int pcc_dev_counters_get(uint8_t port, uint8_t slot, uint32_t *values, uint32_t n);
int pcc_dev_counters_get_and_clear(uint8_t port, uint8_t slot, uint32_t *values, uint32_t n);
/** Counter groups of a bound slot (1..15), or a negative errno. */
int pcc_dev_counter_groups(uint8_t port, uint8_t slot);
/**
 * Group g of (port, slot) combined over thread sets as one block: group 0
 * as pcc_dev_counters_get; groups >= 1 summed (saturating at UINT32_MAX),
 * up to PCC_DEV_COUNTER_GROUP_SIZE words.  Returns the number written.
 * _and_clear refuses (-EBUSY) a group holding an enabled histogram.
 */
int pcc_dev_counters_group_get(
		uint8_t port, uint8_t slot, uint8_t group, uint32_t *values, uint32_t n);
int pcc_dev_counters_group_get_and_clear(
		uint8_t port, uint8_t slot, uint8_t group, uint32_t *values, uint32_t n);

/* ---- Memory ---------------------------------------------------------- */

/** What a bound slot holds, sized from the algorithm's declaration. */
struct pcc_dev_mem_usage {
	uint32_t n_params;   /**< parameter words */
	uint32_t n_counters; /**< group-0 counters */
	uint32_t n_counter_groups;
	uint32_t n_histograms;  /**< histogram ids it may update */
	uint32_t n_thread_sets; /**< n_threads + 1 (shared set) */
	uint32_t ctx_size;      /**< per-flow context bytes (engine side) */
	size_t params_bytes;
	size_t counters_bytes; /**< all groups, all thread sets */
	size_t priv_bytes;     /**< library-private per-slot state */
	size_t total_bytes;    /**< params + counters + priv */
};

/** Memory of a bound slot.  0 or negative errno. */
int pcc_dev_mem_usage(uint8_t port, uint8_t slot, struct pcc_dev_mem_usage *u);
/** Bytes held by the device state: all slots plus trace/printf rings. */
size_t pcc_dev_mem_total(void);

/* ---- Engine-side hooks ---------------------------------------------- */

/**
 * Thread rank of the calling worker (set by the engine, 0 elsewhere).
 * Ranks 0..n_threads-1 own a counter set and trace/printf rings; a thread
 * that never set a rank (or set one >= n_threads) uses one shared extra
 * set (not safe for concurrent writers; rings are locked).
 */
void pcc_dev_thread_set_rank(uint16_t rank);
/** Overload flag passed as attr->overload on this thread's dispatches. */
void pcc_dev_thread_set_overload(bool overload);

#ifdef __cplusplus
}
#endif

#endif /* PCC_DEV_H */
