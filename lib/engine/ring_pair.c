/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* Two cross-connected ethdev ports built from rte_rings. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "engine_internal.h"

struct pcc_ring_pair {
	uint16_t port[2];
	bool created[2];
	char vdev[2][RTE_ETH_NAME_MAX_LEN];
	uint16_t nb_rxq;
	/* ring[d][q]: RX queue q of side d (filled by side !d) */
	struct rte_ring *ring[2][RTE_PMD_RING_MAX_RX_RINGS];
};

struct pcc_ring_pair *
pcc_ring_pair_create(const char *name, uint16_t nb_rxq, uint16_t nb_txq, unsigned int ring_size,
		int socket)
{
	struct rte_ring *tx[RTE_PMD_RING_MAX_TX_RINGS];
#define VDEV_PREFIX "net_ring_"
	char pname[RTE_ETH_NAME_MAX_LEN - sizeof(VDEV_PREFIX) + 1];
	char rname[RTE_RING_NAMESIZE];
	struct pcc_ring_pair *rp;
	unsigned int d, q;
	int ret;

	if (name == NULL || strlen(name) + 4 > sizeof(pname) || strlen(name) + 4 > sizeof(rname) ||
			nb_rxq == 0 || nb_rxq > RTE_PMD_RING_MAX_RX_RINGS || nb_txq == 0 ||
			nb_txq > RTE_PMD_RING_MAX_TX_RINGS || ring_size == 0) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (socket < 0)
		socket = (int)rte_socket_id();
	rp = rte_zmalloc("pcc_ring_pair", sizeof(*rp), 0);
	if (rp == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	rp->nb_rxq = nb_rxq;
	for (d = 0; d < 2; d++) {
		for (q = 0; q < nb_rxq; q++) {
			snprintf(rname, sizeof(rname), "%s%c%u", name, 'A' + d, q);
			/* one consumer (the RX queue), any number of producers */
			rp->ring[d][q] = rte_ring_create(
					rname, ring_size, socket, RING_F_SC_DEQ | RING_F_EXACT_SZ);
			if (rp->ring[d][q] == NULL) {
				ENG_LOG(ERR, "ring %s: %s", rname, rte_strerror(rte_errno));
				goto fail;
			}
		}
	}
	for (d = 0; d < 2; d++) {
		for (q = 0; q < nb_txq; q++)
			tx[q] = rp->ring[!d][q % nb_rxq];
		snprintf(pname, sizeof(pname), "%s%c", name, 'A' + d);
		ret = rte_eth_from_rings(
				pname, rp->ring[d], nb_rxq, tx, nb_txq, (unsigned int)socket);
		if (ret < 0) {
			ENG_LOG(ERR, "ring port %s: %s", pname, rte_strerror(rte_errno));
			goto fail;
		}
		rp->port[d] = (uint16_t)ret;
		rp->created[d] = true;
		snprintf(rp->vdev[d], sizeof(rp->vdev[d]), VDEV_PREFIX "%s", pname);
	}
	return rp;
fail:
	ret = rte_errno;
	pcc_ring_pair_free(rp);
	rte_errno = ret != 0 ? ret : EINVAL;
	return NULL;
}

uint16_t
pcc_ring_pair_port(const struct pcc_ring_pair *rp, unsigned int side)
{
	return rp->port[side != 0];
}

void
pcc_ring_pair_free(struct pcc_ring_pair *rp)
{
	unsigned int d, q;

	if (rp == NULL)
		return;
	/* removes the vdev; closes the port unless the engine already did */
	for (d = 0; d < 2; d++)
		if (rp->created[d])
			rte_vdev_uninit(rp->vdev[d]);
	for (d = 0; d < 2; d++)
		for (q = 0; q < rp->nb_rxq; q++)
			rte_ring_free(rp->ring[d][q]);
	rte_free(rp);
}
