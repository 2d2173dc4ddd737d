/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_FLOWSPEC_H
#define PCC_FLOWSPEC_H

/**
 * @file
 * Flow groups in YAML: one schema and one parser for dpdk-pcc's
 * `--gen-file` and the simulator's scenario `flows:` (doc/flows.md).
 *
 * A flow group is a mapping:
 *
 *   - count: 4          # flows, 1..1048576 (1)
 *     qpn: 0x100        # QPN of the first, 2..0xffffff; then +1 each
 *     dst_qpn: 0x900    # DestQP of the first's data (its own QPN)
 *     size: 1MB         # bytes per message, or infinite (infinite)
 *     payload: 1KiB     # bytes per packet, 1..8192
 *     start: 2ms        # start after the run starts (0)
 *     stagger: 10us     # flow i starts at start + i * stagger (0)
 *     rate: 25G         # offered rate per flow, or line (no limit)
 *     slot: 1           # algorithm slot, 0..7 (the port's)
 *     port: 0           # live only: the RP port (every RP port)
 *     src: s0           # simulator only: source host(s), a name or list
 *     dst: r0           # simulator only: destination host
 *     source: engine    # simulator only: engine or model
 *
 * Values take units: sizes in bytes or with B KB MB GB (powers of 1000)
 * KiB MiB GiB; times in ns or with ns us ms s; rates in Gb/s or with G
 * Gbps Gb/s M Mbps Mb/s.  Fractions are allowed (1.5us); integers may be
 * hexadecimal (0x100).  Every error names FILE:LINE:COLUMN.
 *
 * Pure C over libyaml's document API: no EAL, no allocation.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Kinds of values (pcc_unit_parse()). */
enum pcc_unit {
	PCC_UNIT_PLAIN, /**< a number: decimal with fraction, or 0x hex integer */
	PCC_UNIT_SIZE,  /**< bytes: B KB MB GB KiB MiB GiB (none = bytes) */
	PCC_UNIT_TIME,  /**< ns: ns us ms s (none = ns) */
	PCC_UNIT_RATE,  /**< b/s: G Gbps Gb/s M Mbps Mb/s (none = Gb/s) */
};

/** What a value of each kind looks like, for messages. */
#define PCC_UNIT_WHAT_SIZE "a size (bytes, or with B, KB, MB, GB, KiB, MiB, GiB)"
#define PCC_UNIT_WHAT_TIME "a time (ns, or with ns, us, ms, s)"
#define PCC_UNIT_WHAT_RATE "a rate (Gb/s, or with G, Gbps, M, Mbps)"
#define PCC_UNIT_WHAT_INT "a non-negative integer"

/**
 * Parse a number with an optional unit suffix (a space may separate them).
 * Digits and one dot only: no sign, exponent, inf or nan.
 *
 * @return 0 with *out = value in the unit's base (bytes, ns, b/s), or -1.
 */
int pcc_unit_parse(const char *s, enum pcc_unit unit, double *out);

/**
 * As pcc_unit_parse(), rounded to an integer; integers of PCC_UNIT_PLAIN
 * (decimal or 0x hexadecimal) are read exactly, not through a double.
 *
 * @return 0 with *out; -EINVAL: not a value of this kind (a fraction for
 *   PCC_UNIT_PLAIN); -ERANGE: 2^64
 *   or more; -EDOM: above 0 but below 1 (*out 0)
 */
int pcc_unit_parse_u64(const char *s, enum pcc_unit unit, uint64_t *out);

/** What a value of this kind looks like (PCC_UNIT_WHAT_*). */
const char *pcc_unit_what(enum pcc_unit unit);

/** The keys of a flow group, by bit (1u << key) in the masks below. */
enum pcc_flowspec_key {
	PCC_FLOWSPEC_COUNT,
	PCC_FLOWSPEC_QPN,
	PCC_FLOWSPEC_DST_QPN,
	PCC_FLOWSPEC_SIZE,
	PCC_FLOWSPEC_PAYLOAD,
	PCC_FLOWSPEC_START,
	PCC_FLOWSPEC_STAGGER,
	PCC_FLOWSPEC_RATE,
	PCC_FLOWSPEC_SLOT,
	PCC_FLOWSPEC_PORT,
	PCC_FLOWSPEC_SRC,
	PCC_FLOWSPEC_DST,
	PCC_FLOWSPEC_SOURCE,
	PCC_FLOWSPEC_KEYS
};

#define PCC_FLOWSPEC_BIT(k) (1u << (k))
/** Keys of both uses. */
#define PCC_FLOWSPEC_COMMON (PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_PORT) - 1)
/** Keys a live run (--gen-file) takes. */
#define PCC_FLOWSPEC_LIVE (PCC_FLOWSPEC_COMMON | PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_PORT))
/** Keys a simulator scenario takes. */
#define PCC_FLOWSPEC_SIM                                            \
	(PCC_FLOWSPEC_COMMON | PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_SRC) | \
			PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_DST) |        \
			PCC_FLOWSPEC_BIT(PCC_FLOWSPEC_SOURCE))

#define PCC_FLOWSPEC_COUNT_MAX (1u << 20)
#define PCC_FLOWSPEC_SIZE_MAX (UINT64_C(1) << 50)
#define PCC_FLOWSPEC_PAYLOAD_MAX 8192u
#define PCC_FLOWSPEC_TIME_MAX (UINT64_C(1000000) * 1000000u) /**< 1000 s, in ns */
#define PCC_FLOWSPEC_RATE_MAX (UINT64_C(400) * 1000000000u)  /**< 400 Gb/s */
#define PCC_FLOWSPEC_SLOT_MAX 7u
#define PCC_FLOWSPEC_QPN_MAX 0xffffffu

/** Who sends a simulator flow's data. */
enum pcc_flowspec_source {
	PCC_FLOWSPEC_SOURCE_ENGINE, /**< the engine's generator on the source host */
	PCC_FLOWSPEC_SOURCE_MODEL,  /**< the fabric model, at the flow's rate */
};

/** One flow group, as written; absent keys have the defaults shown. */
struct pcc_flowspec {
	uint32_t seen;       /**< PCC_FLOWSPEC_BIT(key) for each key given */
	uint32_t count;      /**< 1 */
	uint32_t qpn;        /**< 0: the user's default */
	uint32_t dst_qpn;    /**< 0: each flow's own QPN */
	uint64_t size;       /**< bytes per message; 0 = infinite */
	uint32_t payload;    /**< bytes per packet; 0: the user's default */
	uint64_t start_ns;   /**< 0 */
	uint64_t stagger_ns; /**< 0 */
	uint64_t rate_bps;   /**< 0: `line`, no limit but the port's */
	uint8_t slot;        /**< valid if seen */
	uint8_t source;      /**< enum pcc_flowspec_source (engine) */
	uint16_t port;       /**< valid if seen */
	/** each given value's node (NULL if absent), for the caller's
	 *  messages; at[PCC_FLOWSPEC_SRC] (a scalar or a list of scalars) and
	 *  at[PCC_FLOWSPEC_DST] (a scalar) are host names, for the caller to
	 *  look up */
	const yaml_node_t *at[PCC_FLOWSPEC_KEYS];
};

/**
 * Parse flow group node n of doc.  Keys outside `allowed` are refused
 * with the use they belong to; keys in `required` must be given.
 * Checks each value's kind and range, and that QPNs and DestQPs stay
 * within 0xffffff.
 *
 * @param name  file name, for messages
 * @return 0, or -1 with "NAME:LINE:COLUMN: why" in err
 */
int pcc_flowspec_parse(yaml_document_t *doc, const yaml_node_t *n, uint32_t allowed,
		uint32_t required, const char *name, char *err, size_t errlen,
		struct pcc_flowspec *out);

/**
 * Load the one YAML document of text into *doc (the caller deletes it
 * with yaml_document_delete()).  A syntax error or a second document is
 * an error.
 *
 * @return 0, or -1 with "NAME:LINE:COLUMN: why" in err (and no document
 *   to delete)
 */
int pcc_flowspec_yaml_load(const char *text, size_t len, const char *name, yaml_document_t *doc,
		char *err, size_t errlen);

/** What a node is, for messages: "a scalar", "a list", "a mapping". */
const char *pcc_flowspec_node_kind(const yaml_node_t *n);

/**
 * Write "NAME:LINE:COLUMN: message" about node n (1-based; n NULL:
 * "NAME: message") into err.
 *
 * @return -1, for `return pcc_flowspec_error(...)`.
 */
int pcc_flowspec_error(char *err, size_t errlen, const char *name, const yaml_node_t *n,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#ifdef __cplusplus
}
#endif

#endif /* PCC_FLOWSPEC_H */
