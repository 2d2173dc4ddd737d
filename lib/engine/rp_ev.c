/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The reaction point's pure parts (rp.c is the runner): event records
 * from CC packets and their merging, lib/dev events from records, TX
 * coalescing and timer events.  No state beyond the flow passed in.
 */

#include <string.h>

#include "engine_internal.h"

/* ---- Pure parts: records, lib/dev events, TX coalescing ------------------ */

bool
eng_ev_merge(struct eng_ev *a, const struct eng_ev *b)
{
	if (a->type != b->type || a->sig != b->sig)
		return false;
	if (a->type != PCC_DEV_EVENT_CNP &&
			(a->type != PCC_DEV_EVENT_ACK || a->has_int || b->has_int))
		return false;
	if (!eng_flow_key_eq(&a->key, &b->key))
		return false;
	a->sn = b->sn;
	a->ts_ns = b->ts_ns;
	a->ttl = b->ttl;
	a->count += b->count;
	return true;
}

void
eng_txc_flush(struct eng_flow *f, uint64_t now, struct pcc_dev_event *ev)
{
	uint64_t units = ((uint64_t)f->txc_bytes + 31) / 32;

	memset(ev, 0, sizeof(*ev));
	ev->type = PCC_DEV_EVENT_TX;
	eng_ev_flow(ev, f);
	ev->flags = f->txc_flags;
	ev->sn = f->txc_psn;
	ev->ts = (uint32_t)now;
	ev->tx.first_ts = (uint32_t)f->txc_first_ns;
	ev->tx.sent_32b = (uint16_t)RTE_MIN(units, (uint64_t)UINT16_MAX);
	ev->tx.sent_pkts = (uint16_t)RTE_MIN(f->txc_pkts, (uint32_t)UINT16_MAX);
	f->txc_bytes = 0;
	f->txc_pkts = 0;
	f->txc_flags = 0;
	f->flags |= ENG_FLOW_F_TX_SEEN;
}

bool
eng_txc_add(struct eng_flow *f, const struct eng_rp_conf *c, uint32_t bytes, uint32_t psn,
		bool ackreq, uint64_t now, struct pcc_dev_event *ev)
{
	if (f->txc_pkts == 0)
		f->txc_first_ns = now;
	f->txc_bytes = bytes > UINT32_MAX - f->txc_bytes ? UINT32_MAX : f->txc_bytes + bytes;
	f->txc_pkts++;
	f->txc_psn = psn;
	if (ackreq)
		f->txc_flags |= PCC_DEV_TX_F_ACK_EXPECTED;
	if ((f->flags & ENG_FLOW_F_TX_SEEN) && f->txc_bytes < c->txc_bytes &&
			now - f->txc_first_ns < c->txc_ns)
		return false;
	eng_txc_flush(f, now, ev);
	return true;
}

void
eng_timer_ev(struct eng_flow *f, const struct eng_rp_conf *c, uint64_t now,
		struct pcc_dev_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = PCC_DEV_EVENT_TIMER;
	eng_ev_flow(ev, f);
	ev->ts = (uint32_t)now;
	ev->timer.period_us = (uint32_t)(c->timer_ns / 1000);
}
