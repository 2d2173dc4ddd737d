/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in that hangs, for the lcore watchdog (issue 20; DTS suite
 * host, doc/host.md "Watchdog").  Built twice:
 *  - plug_hang: an algorithm (slot 0 of every port) whose on_event never
 *    returns from the first CNP event (other events set a rate), or from
 *    the first event of any type once its mailbox got a request (so
 *    that a test chooses the moment);
 *  - plug_hang_np (-DHANG_NP): an NP application whose handler never
 *    returns from the first probe request.
 * The loop reads a volatile flag nothing sets: a busy hang, as a buggy
 * plug-in would spin.
 */

#include <string.h>

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>
#include <pcc_np.h>

#ifdef HANG_NP
PCC_PLUGIN_DECLARE_ABI();
#else
PCC_PLUGIN_DECLARE(plug_hang);
#endif

static volatile int hang_release;

static void
hang(void)
{
	while (!hang_release)
		;
}

#ifdef HANG_NP
static int
hang_np_handler(const struct pcc_np_pkt *in, struct pcc_np_resp *out)
{
	(void)in;
	(void)out;
	hang();
	return 0;
}

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	return pcc_plugin_set_np_handler(pl, hang_np_handler);
}
#else
static int hang_armed;

static void
hang_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)attr;
	if (ev->type == PCC_DEV_EVENT_CNP || __atomic_load_n(&hang_armed, __ATOMIC_RELAXED))
		hang();
	res->rate = 1u << 19;
}

/* Any request arms the hang; the answer is 'armed'. */
static int
hang_mailbox(const void *req, uint32_t req_len, void *resp, uint32_t resp_cap)
{
	(void)req;
	(void)req_len;
	__atomic_store_n(&hang_armed, 1, __ATOMIC_RELAXED);
	if (resp_cap < 5)
		return 0;
	memcpy(resp, "armed", 5);
	return 5;
}

static const struct pcc_dev_algo_ops hang_ops = {
	.name = "plug_hang_algo",
	.id = 0x4a96,
	.major = 1,
	.desc = "test plug-in whose on_event never returns from a CNP event",
	.on_event = hang_on_event,
	.mailbox = hang_mailbox,
};

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	int rc = pcc_plugin_add_algo(pl, &hang_ops);

	if (rc == 0)
		rc = pcc_plugin_add_slot(pl, PCC_PLUGIN_ALL_PORTS, 0, 0, hang_ops.name, true);
	return rc;
}
#endif
