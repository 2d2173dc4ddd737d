/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in whose algorithm faults: its on_event writes through a NULL
 * pointer on an RTT or CNP event (other events set a rate), for the crash
 * report (tests/dts/suites/test_host.py).  Layout: slot 0 of every port.
 */

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>

PCC_PLUGIN_DECLARE(plug_fault);

/* volatile: the compiler must emit the store, not a trap */
static volatile uint32_t *volatile fault_ptr;

static void
fault_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)attr;
	if (ev->type == PCC_DEV_EVENT_RTT || ev->type == PCC_DEV_EVENT_CNP)
		*fault_ptr = 0xdead;
	res->rate = 1u << 19;
}

static const struct pcc_dev_algo_ops fault_ops = {
	.name = "plug_fault_algo",
	.id = 0xfa17,
	.major = 1,
	.desc = "test plug-in that faults on RTT and CNP events",
	.on_event = fault_on_event,
};

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	int rc = pcc_plugin_add_algo(pl, &fault_ops);

	if (rc == 0)
		rc = pcc_plugin_add_slot(pl, PCC_PLUGIN_ALL_PORTS, 0, 0, fault_ops.name, true);
	return rc;
}
