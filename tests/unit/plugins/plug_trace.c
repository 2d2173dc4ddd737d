/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Test plug-in: an algorithm that traces.  Its init names its records
 * (pcc_dev_trace_fmt_set); on a CNP it halves the flow's rate, writes a
 * record "cnp: rate OLD -> NEW" and asks for an RTT probe; on an RTT
 * sample it writes "rtt: N ns" and adds 1/16 of the line rate back.
 * dpdk-pcc-trace must show CNP -> record -> rate change -> probe (DTS
 * test_host.test_trace_reader).
 */

#include <errno.h>

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>
#include <pcc_dev_svc.h>

PCC_PLUGIN_DECLARE(plug_trace);

#define TR_CNP 1
#define TR_RTT 2

struct tr_flow {
	uint32_t rate;
};

static void
tr_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	struct tr_flow *f = ctx;
	uint32_t old;

	(void)attr;
	if (f->rate == 0)
		f->rate = PCC_DEV_MAX_RATE;
	old = f->rate;
	if (ev->type == PCC_DEV_EVENT_CNP) {
		f->rate = f->rate / 2 > 1024 ? f->rate / 2 : 1024;
		pcc_dev_trace_5(TR_CNP, old, f->rate, 0, 0, 0);
		res->rtt_req = 1;
	} else if (ev->type == PCC_DEV_EVENT_RTT) {
		pcc_dev_trace_5(TR_RTT, ev->ts - ev->rtt.req_send_ts, 0, 0, 0, 0);
		f->rate = f->rate + PCC_DEV_MAX_RATE / 16 < PCC_DEV_MAX_RATE ?
				f->rate + PCC_DEV_MAX_RATE / 16 :
				PCC_DEV_MAX_RATE;
	}
	res->rate = f->rate;
}

static const struct pcc_dev_algo_ops tr_ops = {
	.name = "plug_trace_algo",
	.id = 0x1007,
	.major = 1,
	.desc = "test plug-in algorithm that traces",
	.ctx_size = sizeof(struct tr_flow),
	.on_event = tr_on_event,
};

PCC_PLUGIN_EXPORT int
pcc_plugin_init(struct pcc_plugin *pl)
{
	int rc = pcc_plugin_add_algo(pl, &tr_ops);

	/* the plug-in names its own records (a process without a format
	 * table, -ENOTSUP, runs it unnamed) */
	if (rc == 0 && pcc_dev_trace_fmt_set(TR_CNP, "cnp: rate %u -> %u") == -EINVAL)
		rc = -EINVAL;
	if (rc == 0 && pcc_dev_trace_fmt_set(TR_RTT, "rtt: %u ns") == -EINVAL)
		rc = -EINVAL;
	return rc;
}

PCC_PLUGIN_EXPORT void
pcc_plugin_fini(void)
{
}
