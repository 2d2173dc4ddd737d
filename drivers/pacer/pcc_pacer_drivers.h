/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_PACER_DRIVERS_H
#define PCC_PACER_DRIVERS_H

/**
 * @file
 * The pacer backends (wheel, txpp, mtr) and their backend-specific
 * settings.  See pcc_pacer.h for the front end and doc/pacer.md.
 */

#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mtr.h>

#include "pcc_pacer.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Register the backends "wheel", "txpp" and "mtr" with the front end.
 * Call once before the first pcc_pacer_create(); calling again is a
 * no-op.  Explicit (no constructor) so that linking the library is enough
 * even with --as-needed.  0 or a negative errno.
 */
int pcc_pacer_drivers_register(void);

/* ---- txpp: mlx5 send-on-timestamp -------------------------------- */

/** Conversion of a departure time (ns of the engine's port clock) to the
 * value written into the mbuf timestamp field. */
typedef uint64_t (*pcc_pacer_txpp_clock_fn)(void *arg, uint64_t ns);

enum pcc_pacer_txpp_clock {
	/** The port clock the engine passes as `now` is the NIC's (default). */
	PCC_PACER_TXPP_CLOCK_IDENTITY = 0,
	/** ns + (rte_eth_read_clock() - now), sampled at the first packet
	 * and again every 100 ms of `now`; for a NIC clock that counts ns
	 * (mlx5 under tx_pp) and an engine clock of another origin. */
	PCC_PACER_TXPP_CLOCK_READ_CLOCK,
	/** fn(arg, ns). */
	PCC_PACER_TXPP_CLOCK_FN,
};

/** Choose how a txpp pacer converts departure times (-EINVAL if p is not
 * a txpp pacer or fn is missing for PCC_PACER_TXPP_CLOCK_FN). */
int pcc_pacer_txpp_set_clock(struct pcc_pacer *p, enum pcc_pacer_txpp_clock mode,
		pcc_pacer_txpp_clock_fn fn, void *arg);

/** The ethdev and mbuf calls txpp makes, replaceable for tests or shims. */
struct pcc_pacer_txpp_hw {
	int (*dev_info_get)(uint16_t port_id, struct rte_eth_dev_info *info);
	int (*dev_conf_get)(uint16_t port_id, struct rte_eth_conf *conf);
	int (*tx_timestamp_register)(int *field_offset, uint64_t *tx_flag);
	int (*read_clock)(uint16_t port_id, uint64_t *clock);
};

/** Use hw for probes and for pacers created from now on (NULL: DPDK's). */
void pcc_pacer_txpp_hw_set(const struct pcc_pacer_txpp_hw *hw);

/* ---- mtr: rte_flow METER + rte_mtr trTCM, a policer --------------- */

/**
 * Rule layout of an mtr pacer.  Each flow gets meter object
 * mtr_id_base + flow, profiles profile_id_base + 2 flow (+ 1, the two
 * alternate on rate changes) and one rte_flow rule: attr, the flow's
 * pattern, actions METER then fate (if any) then END.  All meters share
 * policy policy_id: green and yellow pass, red DROP.
 */
struct pcc_pacer_mtr_conf {
	struct rte_flow_attr attr;          /**< default: egress */
	const struct rte_flow_action *fate; /**< actions after METER up to END, or
					      NULL; must outlive the pacer */
	uint32_t mtr_id_base;
	uint32_t profile_id_base;
	uint32_t policy_id;
	uint32_t burst_ns; /**< CBS = PBS = rate x burst_ns, at least
			     16 KiB (0 = 100 us) */
};

/** Set the rule layout of an mtr pacer before its first flow is added
 * (-EINVAL if not an mtr pacer or ids would overflow, -EBUSY after). */
int pcc_pacer_mtr_configure(struct pcc_pacer *p, const struct pcc_pacer_mtr_conf *c);

/**
 * Meter a flow: create its profile (the flow's current rate, or line
 * rate), its meter object and its rte_flow rule matching pattern.  Later
 * pcc_pacer_set_rate() calls update the profile; pcc_pacer_flow_reset()
 * and pcc_pacer_free() destroy all three.  0 or a negative errno
 * (-EEXIST if the flow already has a rule).
 */
int pcc_pacer_mtr_flow_add(
		struct pcc_pacer *p, uint32_t flow, const struct rte_flow_item pattern[]);

/** The rte_mtr/rte_flow calls mtr makes, replaceable for tests or shims. */
struct pcc_pacer_mtr_hw {
	int (*capabilities_get)(uint16_t port_id, struct rte_mtr_capabilities *cap,
			struct rte_mtr_error *error);
	int (*meter_profile_add)(uint16_t port_id, uint32_t meter_profile_id,
			struct rte_mtr_meter_profile *profile, struct rte_mtr_error *error);
	int (*meter_profile_delete)(
			uint16_t port_id, uint32_t meter_profile_id, struct rte_mtr_error *error);
	int (*meter_policy_add)(uint16_t port_id, uint32_t policy_id,
			struct rte_mtr_meter_policy_params *policy, struct rte_mtr_error *error);
	int (*meter_policy_delete)(
			uint16_t port_id, uint32_t policy_id, struct rte_mtr_error *error);
	int (*create)(uint16_t port_id, uint32_t mtr_id, struct rte_mtr_params *params, int shared,
			struct rte_mtr_error *error);
	int (*destroy)(uint16_t port_id, uint32_t mtr_id, struct rte_mtr_error *error);
	int (*meter_profile_update)(uint16_t port_id, uint32_t mtr_id, uint32_t meter_profile_id,
			struct rte_mtr_error *error);
	struct rte_flow *(*flow_create)(uint16_t port_id, const struct rte_flow_attr *attr,
			const struct rte_flow_item pattern[],
			const struct rte_flow_action actions[], struct rte_flow_error *error);
	int (*flow_destroy)(uint16_t port_id, struct rte_flow *flow, struct rte_flow_error *error);
};

/** Use hw for probes and for pacers created from now on (NULL: DPDK's). */
void pcc_pacer_mtr_hw_set(const struct pcc_pacer_mtr_hw *hw);

#ifdef __cplusplus
}
#endif

#endif /* PCC_PACER_DRIVERS_H */
