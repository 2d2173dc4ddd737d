/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_DEV_COMMON_H_
#define DOCA_PCC_DEV_COMMON_H_

/**
 * @file
 * dpdk-pcc's DOCA PCC source compatibility: common definitions.
 *
 * Written from NVIDIA's public DOCA PCC API documentation; not NVIDIA's
 * header.  Maps the DOCA device API onto lib/dev (pcc_dev*.h).  What is
 * supported and what is not: doc/doca-compat.md.
 *
 * A DOCA PCC application (user_init, user_algo, user_set_algo_params, and
 * optionally the mailbox, port-info and NP callbacks) compiles unchanged
 * against these headers and is linked with the static library
 * pcc_doca_compat into a dpdk-pcc plug-in (pcc_dev_plugin.h).
 */

#include <stddef.h>
#include <stdint.h>

#include <pcc_dev.h>
#include <pcc_dev_hist.h>
#include <pcc_dev_svc.h>

#include "doca_pcc_dev_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** DOCA's marker for device code; defined for source compatibility. */
#ifndef DOCA_DPA_DEVICE
#define DOCA_DPA_DEVICE
#endif

/** API stability annotations of DOCA: no effect here. */
#ifndef DOCA_STABLE
#define DOCA_STABLE
#endif
#ifndef DOCA_EXPERIMENTAL
#define DOCA_EXPERIMENTAL
#endif
#ifndef DOCA_DEPRECATED
#define DOCA_DEPRECATED
#endif

/*
 * ALWAYS_INLINE carries "inline": an application header that defines a
 * non-static ALWAYS_INLINE function (as DOCA's samples do) then holds a
 * C99 inline definition, always inlined, that several sources may include
 * and that a PIC build (a plug-in) cannot interpose, so gcc does not
 * refuse to inline it.  pcc-doca.pc adds -fno-semantic-interposition for
 * such functions declared with other macros.
 */
#ifndef ALWAYS_INLINE
#define ALWAYS_INLINE inline __attribute__((always_inline))
#endif
#ifndef FORCE_INLINE
#define FORCE_INLINE static ALWAYS_INLINE
#endif

/** Status of the API calls and of the user callbacks. */
typedef enum {
	DOCA_PCC_DEV_STATUS_OK = 0,
	DOCA_PCC_DEV_STATUS_FAIL = 1,
} doca_pcc_dev_error_t;

/** NP handler status names used in DOCA's NP documentation. */
#define DOCA_PCC_NP_DEV_STATUS_OK DOCA_PCC_DEV_STATUS_OK
#define DOCA_PCC_NP_DEV_STATUS_FAIL DOCA_PCC_DEV_STATUS_FAIL

/** Logical ports (dpdk-pcc supports the larger of DOCA's two limits). */
#define DOCA_PCC_DEV_MAX_NUM_PORTS PCC_DEV_MAX_PORTS

/** NIC byte counter types (DOCA values). */
typedef enum {
	DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES = 0x1,
	DOCA_PCC_DEV_NIC_COUNTER_TYPE_TX_BYTES = 0x2,
} doca_pcc_dev_nic_port_counter_types_t;

/** The name of the same enum before DOCA 2.9. */
typedef doca_pcc_dev_nic_port_counter_types_t doca_pcc_dev_nic_counter_ids_t;

/**
 * Counter id of a port's byte counter for doca_pcc_dev_nic_counters_config().
 * Ids are opaque to applications; here they are lib/dev's
 * PCC_DEV_NIC_COUNTER_ID (the plane is ignored: one plane per port).
 */
#define DOCA_PCC_DEV_GET_PORT_COUNTER_ID(port, type, plane)                 \
	(PCC_DEV_NIC_COUNTER_ID((port)&0xF,                                 \
			 (type) == DOCA_PCC_DEV_NIC_COUNTER_TYPE_TX_BYTES ? \
					 PCC_DEV_NIC_TX_BYTES :             \
					 PCC_DEV_NIC_RX_BYTES) |            \
			(0u * (uint32_t)(plane)))

/* Counter groups and histograms (lib/dev limits, DOCA names). */
#define DOCA_PCC_DEV_MAX_NUM_COUNTER_GROUP PCC_DEV_MAX_COUNTER_GROUPS
#define DOCA_PCC_DEV_MIN_NUM_COUNTER_GROUP 1
#define DOCA_PCC_DEV_DEFAULT_NUM_COUNTER_GROUP PCC_DEV_DEFAULT_COUNTER_GROUPS
#define DOCA_PCC_DEV_DEFAULT_COUNTER_GROUP_ID 0
#define DOCA_PCC_DEV_MAX_NUM_HISTOGRAMS PCC_DEV_MAX_HISTS
#define DOCA_PCC_DEV_DEFAULT_NUM_HISTOGRAMS 0
#define DOCA_PCC_DEV_HISTOGRAM_MAX_BINS PCC_DEV_HIST_MAX_BINS

/** How counter sets of threads combine when read. */
#define DOCA_PCC_DEV_COUNTER_TYPE_ACCUMULATE ((uint32_t)PCC_DEV_COUNTER_ACCUMULATE)
#define DOCA_PCC_DEV_COUNTER_TYPE_MIN ((uint32_t)PCC_DEV_COUNTER_MIN)
#define DOCA_PCC_DEV_COUNTER_TYPE_MAX ((uint32_t)PCC_DEV_COUNTER_MAX)

/* ---- Ports ------------------------------------------------------------------ */

/** Bitmask of the logical ports that exist. */
static inline uint32_t
doca_pcc_dev_get_logical_ports(void)
{
	return pcc_dev_logical_ports();
}

/** Planes of a port: always 1 here. */
static inline uint32_t
doca_pcc_dev_get_port_planes(uint32_t portid)
{
	(void)portid;
	return 1;
}

/** Port speed in Gb/s (0 when unknown). */
static inline uint32_t
doca_pcc_dev_get_port_speed(uint32_t portid)
{
	return portid < PCC_DEV_MAX_PORTS ? pcc_dev_port_speed((uint8_t)portid) : 0;
}

/**
 * Remember counter_ids (num_counters of them) and the values array that
 * doca_pcc_dev_nic_counters_sample() fills.  Process-wide, as DOCA's; the
 * arrays must stay valid (global or heap memory).
 */
void doca_pcc_dev_nic_counters_config(
		uint32_t *counter_ids, uint32_t num_counters, uint32_t *values);
/** Read the configured counters (low 32 bits of the byte counts). */
void doca_pcc_dev_nic_counters_sample(void);

/** Optional user callback: a port's speed or state changed. */
void doca_pcc_dev_user_port_info_changed(uint32_t portid) __attribute__((weak));

/*
 * Every source of a DOCA application includes this header: the reference
 * below makes the linker take the glue (which holds the plug-in entry
 * point, pcc_plugin_init) out of the static library pcc_doca_compat.
 * Code that uses the inline helpers outside a plug-in (tests) defines
 * PCC_DOCA_NO_LINK_ANCHOR.
 */
#ifndef PCC_DOCA_NO_LINK_ANCHOR
struct pcc_plugin;
extern int pcc_plugin_init(struct pcc_plugin *pl);
static int (*const pcc_doca_link_anchor)(struct pcc_plugin *)
		__attribute__((used)) = pcc_plugin_init;
#endif

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PCC_DEV_COMMON_H_ */
