/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in: an algorithm that counts port_info_changed calls per port;
 * its mailbox answers them (one 32-bit count per logical port, 8 ports).
 */

#include <errno.h>
#include <string.h>

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_portinfo);

static uint32_t calls[PCC_DEV_MAX_PORTS];

static void
pi_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	res->rate = PCC_DEV_MAX_RATE;
}

static void
pi_changed(uint8_t port)
{
	if (port < PCC_DEV_MAX_PORTS)
		__atomic_fetch_add(&calls[port], 1, __ATOMIC_RELAXED);
}

static int
pi_mailbox(const void *req, uint32_t req_len, void *resp, uint32_t resp_cap)
{
	uint32_t i, *out = resp;

	(void)req;
	(void)req_len;
	if (resp_cap < sizeof(calls))
		return -ENOSPC;
	for (i = 0; i < PCC_DEV_MAX_PORTS; i++)
		out[i] = __atomic_load_n(&calls[i], __ATOMIC_RELAXED);
	return (int)sizeof(calls);
}

static const struct pcc_dev_algo_ops pi_ops = {
	.name = "portinfo",
	.on_event = pi_event,
	.mailbox = pi_mailbox,
	.port_info_changed = pi_changed,
};

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	return pcc_plugin_add_algo(pl, &pi_ops);
}
