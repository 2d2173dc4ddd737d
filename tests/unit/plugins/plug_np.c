/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in with only an NP application: an NP handler and an NP
 * mailbox handler.  Built twice (plug_np, plug_np2 with NP_TAG 2) for two
 * NP applications in one process.
 */

#include <errno.h>
#include <string.h>

#include <pcc_dev_plugin.h>
#include <pcc_np.h>

#ifndef NP_TAG
#define NP_TAG 1
#endif

PCC_PLUGIN_DECLARE_ABI();

/* what the mailbox last set: answered in data[3] */
static uint8_t np_setting;

static int
np_handler(const struct pcc_np_pkt *in, struct pcc_np_resp *out)
{
	out->data[0] = in->l3_ttl;
	out->data[1] = in->port;
	out->data[2] = NP_TAG;
	out->data[3] = __atomic_load_n(&np_setting, __ATOMIC_RELAXED);
	out->len = 4;
	out->dscp = 0xff; /* sanitised to 6 bits by pcc_np_handle */
	out->dscp_set = 1;
	return 0;
}

/* Request: one byte, the new setting.  Answer: the tag, old setting. */
static int
np_mailbox(const void *req, uint32_t req_len, void *resp, uint32_t resp_cap)
{
	uint8_t *r = resp;

	if (req_len != 1 || resp_cap < 2)
		return -EINVAL;
	r[0] = NP_TAG;
	r[1] = __atomic_exchange_n(&np_setting, *(const uint8_t *)req, __ATOMIC_RELAXED);
	return 2;
}

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	int rc = pcc_plugin_set_np_handler(pl, np_handler);

	return rc == 0 ? pcc_plugin_set_np_mailbox(pl, np_mailbox) : rc;
}
