/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_DEV_DATA_STRUCTURES_H_
#define DOCA_PCC_DEV_DATA_STRUCTURES_H_

/**
 * @file
 * dpdk-pcc's DOCA PCC compatibility: the types a DOCA algorithm sees.
 *
 * The event is lib/dev's struct pcc_dev_event itself, in host byte order:
 * read it only through the accessors of doca_pcc_dev_event.h (as DOCA
 * recommends); its fields are not DOCA's.  The flow context is DOCA's 48
 * bytes, zeroed for a new flow.  Results are zeroed before each call.
 */

#include <stdint.h>

#include <pcc_dev.h>

#include "doca_pcc_dev_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Event types (DOCA values; lib/dev uses the same numbers). */
typedef enum {
	DOCA_PCC_DEV_EVNT_NULL = PCC_DEV_EVENT_NULL,
	DOCA_PCC_DEV_EVNT_FW = PCC_DEV_EVENT_FW,
	DOCA_PCC_DEV_EVNT_ROCE_CNP = PCC_DEV_EVENT_CNP,
	DOCA_PCC_DEV_EVNT_ROCE_TX = PCC_DEV_EVENT_TX,
	DOCA_PCC_DEV_EVNT_ROCE_ACK = PCC_DEV_EVENT_ACK,
	DOCA_PCC_DEV_EVNT_ROCE_NACK = PCC_DEV_EVENT_NACK,
	DOCA_PCC_DEV_EVNT_RTT = PCC_DEV_EVENT_RTT,
	DOCA_PCC_DEV_EVNT_ROCE_TX_FOR_ACK_NACK = PCC_DEV_EVENT_TX_FOR_ACK_NACK,
} doca_pcc_dev_event_type_enum;

/** NACK event subtypes. */
typedef enum {
	DOCA_PCC_DEV_NACK_EVNT_NULL = 0,
	DOCA_PCC_DEV_NACK_EVNT_RNR = PCC_DEV_NACK_RNR,
	DOCA_PCC_DEV_NACK_EVNT_OOS = PCC_DEV_NACK_OOS,
	DOCA_PCC_DEV_NACK_EVNT_DUP_READ = PCC_DEV_NACK_DUP_READ,
} doca_pcc_dev_nack_event_sub_type_enum;

/** TX event flags. */
#define DOCA_PCC_DEV_TX_FLAG_ACK_EXPECTED PCC_DEV_TX_F_ACK_EXPECTED
#define DOCA_PCC_DEV_TX_FLAG_OVERLOADED PCC_DEV_TX_F_OVERLOADED
#define DOCA_PCC_DEV_TX_FLAG_RTT_REQ_SENT PCC_DEV_TX_F_RTT_REQ_SENT

/** ACK/NACK TX events can be masked (always true here). */
#define DOCA_PCC_DEV_ACK_NACK_TX_EVENT_DISABLED_SUPPORTED (1)

/** Rate: 20-bit fixed point fraction of line rate. */
#define DOCA_PCC_DEV_LOG_MAX_RATE PCC_DEV_RATE_SHIFT
#define DOCA_PCC_DEV_MAX_RATE PCC_DEV_MAX_RATE
#define DOCA_PCC_DEV_DEFAULT_RATE PCC_DEV_DEFAULT_RATE

/* Limits. */
#define DOCA_PCC_DEV_MAX_NUM_USER_SLOTS PCC_DEV_MAX_SLOTS
#define DOCA_PCC_DEV_MAX_NUM_ALGOS PCC_DEV_MAX_ALGOS
#define DOCA_PCC_DEV_MAX_NUM_PARAMS_PER_ALGO PCC_DEV_MAX_PARAMS
#define DOCA_PCC_DEV_MAX_NUM_COUNTERS_PER_ALGO PCC_DEV_MAX_COUNTERS
#define DOCA_PCC_DEV_ALGO_SLOT_INTERNAL PCC_DEV_INTERNAL_SLOT
#define DOCA_PCC_DEV_ALGO_INDEX_INTERNAL PCC_DEV_INTERNAL_SLOT

/** One event: lib/dev's, read through the doca_pcc_dev_get_* accessors. */
typedef struct pcc_dev_event doca_pcc_dev_event_t;

/** Per-flow context: 12 words, zeroed for a new flow. */
typedef struct pcc_doca_algo_ctxt {
	uint32_t data[PCC_DEV_CTX_SIZE / sizeof(uint32_t)];
} doca_pcc_dev_algo_ctxt_t;

/** Attributes of a user_algo call. */
typedef struct pcc_doca_attr {
	uint32_t algo_slot : 4; /**< 0..7, or 0xF for the internal slot */
	uint32_t overload : 1;  /**< the engine is shedding load */
	uint32_t reserved : 27;
} doca_pcc_dev_attr_t;

/** What doca_pcc_dev_get_ev_attr() returns. */
typedef struct pcc_doca_event_general_attr {
	uint32_t ev_type : 8;    /**< doca_pcc_dev_event_type_enum */
	uint32_t ev_subtype : 8; /**< NACK: doca_pcc_dev_nack_event_sub_type_enum */
	uint32_t port_num : 8;   /**< logical port */
	uint32_t flags : 8;      /**< TX: DOCA_PCC_DEV_TX_FLAG_* */
	uint32_t plane_num : 4;  /**< always 0 */
	uint32_t reserved : 28;
} doca_pcc_dev_event_general_attr_t;

/** TX event counters. */
typedef struct pcc_doca_roce_tx_cntrs {
	uint32_t sent_32bytes : 16; /**< bytes sent / 32 (saturating) */
	uint32_t sent_pkts : 16;    /**< packets sent (saturating) */
} doca_pcc_dev_roce_tx_cntrs_t;

/** ACK/NACK/CNP extra information. */
typedef struct pcc_doca_ack_nack_cnp_extra {
	uint32_t num_coalesced : 16; /**< events merged into this one (saturating) */
	uint32_t reserved : 16;
} doca_pcc_dev_ack_nack_cnp_extra_t;

/** Results of a user_algo call, zeroed before the call. */
typedef struct doca_pcc_dev_results {
	uint32_t rate; /**< new rate, 20-bit fixed point; 0 keeps the current one */
	union {
		uint32_t rtt_req;   /**< non-zero: send an RTT probe */
		uint32_t probe_req; /**< same */
	};
	uint32_t probe_type_slot; /**< probe format slot of the request */
	uint32_t credits;         /**< non-zero: window-based, the flow's window in bytes */
	uint32_t reload_credits;  /**< non-zero: grant the credits now as well */
} doca_pcc_dev_results_t;

/** Description of a user algorithm (doca_pcc_dev_algo_init_metadata). */
struct doca_pcc_dev_algo_meta_data {
	uint32_t algo_id; /**< the algorithm's own identifier */
	uint32_t algo_major_version;
	uint32_t algo_minor_version;
	uint32_t algo_desc_size; /**< bytes of the description, NUL included */
	uint64_t algo_desc_addr; /**< address of the description string */
};

/** The same description, by the name DOCA's histogram guide uses. */
typedef struct doca_pcc_dev_algo_meta_data doca_pcc_dev_algo_meta_t;

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PCC_DEV_DATA_STRUCTURES_H_ */
