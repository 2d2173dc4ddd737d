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

/* The fields of an event that come from its flow. */
static inline void
eng_ev_flow(struct pcc_dev_event *ev, const struct eng_flow *f)
{
	ev->port = f->dev_port;
	ev->flow_tag = f->tag;
	ev->flow_qpn = eng_flow_qpn(f);
	ev->dscp = f->l3_dscp;
}

void
eng_ev_to_dev(const struct eng_ev *r, const struct eng_flow *f, struct pcc_dev_event *ev,
		struct pcc_int_hdr *int_buf)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = r->type;
	ev->subtype = r->subtype;
	eng_ev_flow(ev, f);
	ev->ttl = r->ttl;
	ev->sn = r->sn;
	ev->ts = (uint32_t)r->ts_ns;
	if (r->type == PCC_DEV_EVENT_RTT) {
		ev->rtt.req_send_ts = (uint32_t)r->rtt.req_send_ns;
		ev->rtt.req_recv_ts = (uint32_t)r->rtt.req_recv_ns;
		ev->rtt.resp_send_ts = (uint32_t)r->rtt.resp_send_ns;
		ev->rtt.resp_recv_ts = (uint32_t)r->ts_ns;
		memcpy(ev->rtt.user, r->rtt.user, sizeof(ev->rtt.user));
		ev->rtt.version = r->rtt.version;
		ev->rtt.np_port_type = r->rtt.np_port_type;
		ev->rtt.np_rx_bytes = r->rtt.np_rx_bytes;
		return;
	}
	ev->ack.first_ts = (uint32_t)r->first_ts_ns;
	ev->ack.first_sn = r->first_sn;
	ev->ack.coalesced = r->count;
	if (r->has_int && int_buf != NULL &&
			pcc_int_parse(r->int_raw, PCC_INT_HDR_LEN, int_buf) == 0)
		ev->ack.int_hdr = int_buf;
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
