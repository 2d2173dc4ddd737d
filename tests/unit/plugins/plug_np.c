/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in with only an NP handler.  Built twice (plug_np, plug_np2)
 * to check that a second handler is refused.
 */

#include <pcc_dev_plugin.h>
#include <pcc_np.h>

PCC_PLUGIN_DECLARE_ABI();

static int
np_handler(const struct pcc_np_pkt *in, struct pcc_np_resp *out)
{
	out->data[0] = in->l3_ttl;
	out->data[1] = in->port;
	out->len = 2;
	out->dscp = 0xff; /* sanitised to 6 bits by pcc_np_handle */
	out->dscp_set = 1;
	return 0;
}

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	return pcc_plugin_set_np_handler(pl, np_handler);
}
