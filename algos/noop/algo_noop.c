/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * noop: sets nothing (rate 0 = keep the current rate).  The baseline of
 * the event-rate benchmark: what dispatch costs without an algorithm.
 */

#include <stdint.h>

#include <pcc_dev.h>

#include "algo_common.h"
#include "pcc_algos.h"

static void
noop_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	(void)res;
}

ALGO_MAILBOX(noop)

const struct pcc_dev_algo_ops pcc_algo_noop_ops = {
	.name = "noop",
	.id = PCC_ALGO_NOOP_ID,
	.major = 1,
	.minor = 0,
	.desc = "does nothing (benchmark baseline)",
	.ctx_size = 0,
	.on_event = noop_on_event,
	.mailbox = noop_mailbox,
};
