/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Reaction point setup (rp.c is the runner): lib/dev's ports and
 * providers, the algorithms and slots of the configuration, their
 * parameters, link changes (port_info_changed), and the getters.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "engine_internal.h"
#include "engine_np.h"
#include "pcc_dev_simple.h"
#include "pcc_dev_svc.h"
#include "pcc_pacer_drivers.h"

/* ---- Setup: lib/dev, algorithms, providers ------------------------------------ */

static const struct eng_port *
dev_port_of(const struct pcc_engine *e, uint8_t dev_port)
{
	uint16_t i;

	for (i = 0; i < e->nb_ports; i++)
		if (e->ports[i].dev_port == dev_port)
			return &e->ports[i];
	return NULL;
}

static int
nic_counter(void *arg, uint8_t port, uint8_t type, uint64_t *value)
{
	const struct eng_port *p = dev_port_of(arg, port);
	struct rte_eth_stats st;
	int ret;

	if (p == NULL)
		return -EINVAL;
	ret = rte_eth_stats_get(p->port_id, &st);
	if (ret != 0)
		return ret;
	*value = type == PCC_DEV_NIC_RX_BYTES ? st.ibytes : st.obytes;
	return 0;
}

static uint32_t
nic_speed(void *arg, uint8_t port)
{
	const struct eng_port *p = dev_port_of(arg, port);

	return p != NULL ? (uint32_t)(p->line_bps / 1000000000u) : 0;
}

static uint32_t
nic_ports_mask(void *arg)
{
	const struct pcc_engine *e = arg;

	return (uint32_t)((UINT64_C(1) << e->nb_dev_ports) - 1);
}

static uint64_t
dev_clock(void *arg)
{
	const struct eng_port *p = arg;

	return eng_clock_now(&p->clk);
}

static int
load_algo(struct pcc_engine *e)
{
	uint8_t d;
	int ret;

	for (d = 0; d < e->nb_dev_ports; d++) {
		ret = pcc_dev_algo_load(d, 0, e->algo);
		if (ret == 0)
			ret = pcc_dev_slot_bind(d, 0, 0);
		if (ret == 0)
			ret = pcc_dev_slot_enable(d, 0, true);
		if (ret < 0) {
			ENG_LOG(ERR, "port %u: cannot load algorithm %s into slot 0: %s",
					dev_port_of(e, d)->port_id, e->algo, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* Load the configured slots' algorithms (index = slot) and bind them. */
static int
load_slots(struct pcc_engine *e)
{
	uint8_t d, s;
	int ret;

	for (s = 0; s < PCC_ENGINE_SLOTS; s++) {
		if (e->slot_algo[s][0] == '\0')
			continue;
		for (d = 0; d < e->nb_dev_ports; d++) {
			ret = pcc_dev_algo_load(d, s, e->slot_algo[s]);
			if (ret == 0)
				ret = pcc_dev_slot_bind(d, s, s);
			if (ret == 0)
				ret = pcc_dev_slot_enable(d, s, true);
			if (ret < 0) {
				ENG_LOG(ERR, "port %u: cannot load algorithm %s into slot %u: %s",
						dev_port_of(e, d)->port_id, e->slot_algo[s], s,
						strerror(-ret));
				return ret;
			}
		}
	}
	return 0;
}

/* Parameters of the configured slots, on every RP port. */
static int
slot_params(struct pcc_engine *e)
{
	uint32_t i;
	uint8_t d, s;
	int ret;

	for (s = 0; s < PCC_ENGINE_SLOTS; s++) {
		const struct pcc_engine_slot_conf *sc = &e->slot_conf[s];

		for (i = 0; e->slot_algo[s][0] != '\0' && i < sc->nb_params; i++) {
			for (d = 0; d < e->nb_dev_ports; d++) {
				ret = pcc_dev_param_set_str(
						d, s, sc->params[i].name, sc->params[i].value);
				if (ret < 0) {
					ENG_LOG(ERR, "slot %u (%s): parameter %s=%s: %s", s,
							e->slot_algo[s], sc->params[i].name,
							sc->params[i].value, strerror(-ret));
					return -EINVAL;
				}
			}
		}
	}
	return 0;
}

/* Largest per-flow context of the algorithms bound now (slots, 0xF). */
static uint32_t
bound_ctx_size(const struct pcc_engine *e)
{
	struct pcc_dev_mem_usage u;
	uint32_t max = 0;
	uint8_t d, s;

	for (d = 0; d < e->nb_dev_ports; d++) {
		if (pcc_dev_mem_usage(d, PCC_DEV_INTERNAL_SLOT, &u) == 0)
			max = RTE_MAX(max, u.ctx_size);
		for (s = 0; s < PCC_ENGINE_SLOTS; s++)
			if (pcc_dev_mem_usage(d, s, &u) == 0)
				max = RTE_MAX(max, u.ctx_size);
	}
	return max;
}

int
eng_rp_setup(struct pcc_engine *e)
{
	struct pcc_dev_nic_provider nic;
	struct pcc_dev_conf dc;
	uint32_t i;
	int ret;

	ret = pcc_pacer_drivers_register();
	if (ret < 0) {
		ENG_LOG(ERR, "registering the pacer backends: %s", strerror(-ret));
		return ret;
	}
	if (e->nb_dev_ports == 0)
		return 0;
	memset(&dc, 0, sizeof(dc));
	dc.n_ports = (uint8_t)e->nb_dev_ports;
	dc.n_threads = e->nb_lcores;
	ret = pcc_dev_init(&dc);
	if (ret == -EBUSY) {
		ENG_LOG(NOTICE, "lib/dev was initialised by the application: using its state");
	} else if (ret < 0) {
		ENG_LOG(ERR, "lib/dev initialisation: %s", strerror(-ret));
		return ret;
	} else {
		e->dev_owned = true;
	}
	memset(&nic, 0, sizeof(nic));
	nic.counter = nic_counter;
	nic.speed_gbps = nic_speed;
	nic.ports_mask = nic_ports_mask;
	nic.arg = e;
	pcc_dev_set_nic_provider(&nic);
	pcc_dev_set_clock(dev_clock, (void *)(uintptr_t)dev_port_of(e, 0));

	if (e->algo[0] != '\0') {
		ret = load_algo(e);
		if (ret < 0)
			return ret;
	}
	ret = load_slots(e);
	if (ret < 0)
		return ret;
	ret = slot_params(e);
	if (ret < 0)
		return ret;
	for (i = 0; i < e->conf.rp.nb_params; i++) {
		const struct pcc_engine_algo_param *ap = &e->algo_params[i];

		ret = pcc_engine_algo_param_set(e, ap->name, ap->value);
		if (ret < 0) {
			ENG_LOG(ERR, "algorithm parameter %s=%s: %s", ap->name, ap->value,
					strerror(-ret));
			return -EINVAL;
		}
	}
	e->ctx_size = RTE_MAX(bound_ctx_size(e), (uint32_t)e->conf.flow.ctx_size);
	if (e->ctx_size == 0)
		e->ctx_size = PCC_DEV_CTX_SIZE;
	if (e->ctx_size > PCC_DEV_CTX_MAX) {
		ENG_LOG(ERR, "per-flow context of %u bytes, at most %u", e->ctx_size,
				PCC_DEV_CTX_MAX);
		return -EINVAL;
	}
	return 0;
}

/* The link of port p as ethdev reports it now; true if it changed. */
static bool
link_changed(struct eng_port *p)
{
	struct rte_eth_link link;
	uint8_t up;

	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(p->port_id, &link) != 0)
		return false;
	up = link.link_status == RTE_ETH_LINK_UP;
	if (up == p->link_up && link.link_speed == p->link_mbps)
		return false;
	p->link_up = up;
	p->link_mbps = link.link_speed;
	return true;
}

/* The algorithms' port_info_changed on every RP logical port in mask. */
static void
port_info_notify(const struct pcc_engine *e, uint64_t dev_mask)
{
	uint8_t d;

	for (d = 0; d < e->nb_dev_ports; d++)
		if (dev_mask & (UINT64_C(1) << d))
			pcc_dev_port_info_changed(d);
}

void
eng_rp_port_info_start(struct pcc_engine *e)
{
	uint64_t mask = 0;
	uint16_t k;

	for (k = 0; k < e->nb_ports; k++) {
		if (e->ports[k].dev_port == ENG_NO_DEV_PORT)
			continue;
		link_changed(&e->ports[k]);
		mask |= UINT64_C(1) << e->ports[k].dev_port;
	}
	port_info_notify(e, mask);
}

int
pcc_engine_port_info_poll(struct pcc_engine *e)
{
	uint64_t mask = 0;
	uint16_t k;
	int n = 0;

	if (e == NULL)
		return -EINVAL;
	for (k = 0; k < e->nb_ports; k++) {
		struct eng_port *p = &e->ports[k];

		if (p->dev_port == ENG_NO_DEV_PORT || !link_changed(p))
			continue;
		ENG_LOG(INFO, "port %u: link %s, %u Mb/s: port_info_changed", p->port_id,
				p->link_up ? "up" : "down", p->link_mbps);
		mask |= UINT64_C(1) << p->dev_port;
		n++;
	}
	port_info_notify(e, mask);
	return n;
}

/* At start: the slot new flows get on each RP port (what the user of the
 * engine bound after it was created). */
void
eng_rp_log_slots(const struct pcc_engine *e)
{
	uint16_t k;

	for (k = 0; k < e->nb_ports; k++) {
		const struct eng_port *p = &e->ports[k];
		const struct pcc_dev_algo_ops *ops;
		uint8_t slot;

		if (p->dev_port == ENG_NO_DEV_PORT)
			continue;
		slot = pcc_dev_slot_active(p->dev_port);
		ops = pcc_dev_slot_algo(p->dev_port, slot, NULL);
		ENG_LOG(INFO, "port %u: new flows get slot %u (%s), line rate %" PRIu64 " Gb/s",
				p->port_id, slot, ops != NULL ? ops->name : "none",
				p->line_bps / 1000000000u);
	}
}

void
eng_rp_teardown(struct pcc_engine *e)
{
	if (e->nb_dev_ports == 0)
		return;
	pcc_dev_set_nic_provider(NULL);
	pcc_dev_set_clock(NULL, NULL);
	if (e->dev_owned) {
		pcc_dev_fini();
		e->dev_owned = false;
	}
}

int
pcc_engine_algo_param_set(struct pcc_engine *e, const char *name, const char *value)
{
	uint8_t d;
	int ret;

	if (e == NULL || name == NULL || value == NULL)
		return -EINVAL;
	for (d = 0; d < e->nb_dev_ports; d++) {
		ret = pcc_dev_param_set_str(d, pcc_dev_slot_active(d), name, value);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int
pcc_engine_port_dev(const struct pcc_engine *e, uint16_t port_id, uint8_t *dev_port, uint8_t *slot)
{
	const struct eng_port *p;

	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0)
		return -ENOENT;
	p = &e->ports[e->pidx[port_id]];
	if (p->dev_port == ENG_NO_DEV_PORT)
		return -ENOENT;
	if (dev_port != NULL)
		*dev_port = p->dev_port;
	if (slot != NULL)
		*slot = pcc_dev_slot_active(p->dev_port);
	return 0;
}

uint32_t
pcc_engine_flow_ctx_size(const struct pcc_engine *e)
{
	return e->ctx_size;
}
