/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_ENGINE_RP_H
#define TEST_ENGINE_RP_H

/* What test_engine_rp.c and test_engine_rp_owner.c share. */

#include <stdint.h>
#include <string.h>

#include <rte_common.h>

#include "test_eal.h"
#include "pcc_pacer_drivers.h"
#include "pcc_proto.h"

/* A classified packet of kind to QP dqpn with PSN psn (IPv4, no VLAN). */
static inline void
info_init(struct pcc_pkt_info *info, uint8_t kind, uint32_t dqpn, uint32_t psn)
{
	memset(info, 0, sizeof(*info));
	info->kind = kind;
	info->dqpn = dqpn;
	info->psn = psn;
	info->bth_off = 42;
	info->payload_off = 58;
}

/* EAL without hugepages, the pacer drivers registered. */
static inline int
rp_group_setup(const char *name)
{
	if (test_eal_init(name, "256", NULL) < 0)
		return -1;
	if (pcc_pacer_drivers_register() != 0)
		return -1;
	return 0;
}

#endif /* TEST_ENGINE_RP_H */
