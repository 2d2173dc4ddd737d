/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef ENGINE_EV_H
#define ENGINE_EV_H

/*
 * Event records of the reaction point (rp.c, rp_ev.c); part of
 * engine_internal.h.  The builders are inline: the RX path builds a record
 * per CC packet in registers, with no call and no copy of its key.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine_flow.h"
#include "pcc_dev.h"
#include "pcc_proto.h"
#include "pcc_proto_tlm.h"

/* ---- Events (rp.c) ---------------------------------------------------- */

/*
 * A compact event record: what the RX lcore learnt from one (or several
 * coalesced) CC packets, for the flow's owner.  Carried through the
 * inter-lcore rings, so it holds no pointer.
 */
struct eng_ev {
	struct pcc_engine_flow_key key;
	uint32_t sig;      /* eng_flow_hash(&key) */
	uint8_t type;      /* PCC_DEV_EVENT_CNP, _ACK, _NACK, _RTT */
	uint8_t subtype;   /* NACK: enum pcc_dev_nack_subtype; 0 = fatal code */
	uint8_t has_int;   /* ACK: int_raw holds an HPCC INT header */
	uint8_t ttl;       /* IP TTL / hop limit of the last packet */
	uint32_t sn;       /* PSN of the last packet */
	uint32_t first_sn; /* PSN of the first coalesced packet */
	uint32_t count;    /* packets coalesced */
	uint32_t reserved2;
	uint64_t ts_ns;       /* receive time of the last packet */
	uint64_t first_ts_ns; /* receive time of the first */
	union {
		uint8_t int_raw[PCC_INT_HDR_LEN + 6];
		struct {
			uint64_t req_send_ns;
			uint64_t req_recv_ns;
			uint64_t resp_send_ns;
			uint32_t flow_tag;
			uint8_t slot;
			uint8_t user_len;
			uint8_t user[PCC_DEV_RTT_USER_LEN];
			uint8_t version;      /* 1: the NP's extension (7.6) */
			uint8_t np_port_type; /* v1 */
			uint32_t np_rx_bytes; /* v1 */
		} rtt;
	};
};

/* TX coalescing and timer settings (from conf.rp). */
struct eng_rp_conf {
	bool tx_stamp; /* write departure times (PCC_ENGINE_TX_DEPART_NAME) */
	uint32_t txc_bytes;
	uint64_t txc_ns;
	uint64_t timer_ns;      /* 0 = off */
	uint64_t pace_ahead_ns; /* generator look-ahead */
};

/*
 * The event type (PCC_DEV_EVENT_CNP, _ACK, _NACK) of a classified CC
 * packet and, for a NACK, its subtype in *subtype (0: a fatal code, not
 * congestion); -1 if the packet is no event (not a CC kind, or a probe
 * response).
 */
static inline int
eng_ev_type_of_kind(uint8_t kind, uint8_t syndrome, uint8_t *subtype)
{
	*subtype = 0;
	switch (kind) {
	case PCC_PKT_CNP:
		return PCC_DEV_EVENT_CNP;
	case PCC_PKT_ROCE_ACK:
		return PCC_DEV_EVENT_ACK;
	case PCC_PKT_ROCE_NAK:
		if (pcc_aeth_class(syndrome) == PCC_AETH_RNR_NAK)
			*subtype = PCC_DEV_NACK_RNR;
		else if (pcc_aeth_code(syndrome) == PCC_NAK_PSN_SEQ_ERR)
			*subtype = PCC_DEV_NACK_OOS;
		return PCC_DEV_EVENT_NACK;
	default:
		return -1;
	}
}

/* eng_ev_type_of_kind() of a parsed packet. */
static inline int
eng_ev_type_of(const struct pcc_pkt_info *info, uint8_t *subtype)
{
	return eng_ev_type_of_kind(info->kind, info->aeth_syndrome, subtype);
}

/* Does the packet of type, BTH byte 4 bth_flags, carry an INT header the
 * record keeps? */
static inline bool
eng_ev_pkt_has_int(uint8_t type, uint8_t bth_flags, const void *int_hdr)
{
	return type == PCC_DEV_EVENT_ACK && int_hdr != NULL && (bth_flags & PCC_BTH_INT);
}

/*
 * Build in *ev the record of a CC packet of type/subtype (BTH DestQP qpn,
 * PSN psn, BTH byte 4 bth_flags, IP TTL ttl) on port_id (sig:
 * eng_flow_hash_qp() of its flow) received at ts: every field before
 * int_raw stored once from registers (no memset, no key copied), int_raw
 * when the ACK carries INT.
 */
static inline void
eng_ev_fill(struct eng_ev *ev, uint8_t type, uint8_t subtype, uint16_t port_id, uint32_t sig,
		uint32_t qpn, uint32_t psn, uint8_t bth_flags, uint8_t ttl, const void *int_hdr,
		uint64_t ts)
{
	eng_flow_key_qp(&ev->key, port_id, qpn);
	ev->sig = sig;
	ev->type = type;
	ev->subtype = subtype;
	ev->has_int = 0;
	ev->ttl = ttl;
	ev->sn = psn;
	ev->first_sn = psn;
	ev->count = 1;
	ev->reserved2 = 0;
	ev->ts_ns = ts;
	ev->first_ts_ns = ts;
	if (eng_ev_pkt_has_int(type, bth_flags, int_hdr)) {
		memcpy(ev->int_raw, int_hdr, PCC_INT_HDR_LEN);
		ev->has_int = 1;
	}
}

/*
 * Event record of one classified CC packet on port_id received at ts
 * (CNP, ACK, NAK; not probe responses).  int_hdr: the PCC_INT_HDR_LEN
 * bytes at info->payload_off when the ACK has PCC_BTH_INT, else NULL.
 * 0, or -1 if the packet is no event (not a CC kind).
 */
static inline int
eng_ev_from_pkt(const struct pcc_pkt_info *info, const void *int_hdr, uint16_t port_id, uint64_t ts,
		struct eng_ev *ev)
{
	uint8_t subtype;
	int type = eng_ev_type_of(info, &subtype);

	if (type < 0)
		return -1;
	eng_ev_fill(ev, (uint8_t)type, subtype, port_id, eng_flow_hash_qp(port_id, info->dqpn),
			info->dqpn, info->psn, info->bth_flags, info->ttl, int_hdr, ts);
	return 0;
}

/*
 * Merge the CC packet of type (eng_ev_type_of(); has_int: its INT kept;
 * PSN psn, IP TTL ttl) of the QP flow with hash sig and first key word w0
 * into record a when eng_ev_merge() would merge its record, without
 * building that record.
 */
static inline bool
eng_ev_merge_pkt(struct eng_ev *a, uint8_t type, uint32_t sig, uint64_t w0, bool has_int,
		uint32_t psn, uint8_t ttl, uint64_t ts)
{
	if (a->type != type || a->sig != sig)
		return false;
	if (type != PCC_DEV_EVENT_CNP && (type != PCC_DEV_EVENT_ACK || a->has_int || has_int))
		return false;
	if (!eng_flow_key_is_qp(&a->key, w0))
		return false;
	a->sn = psn;
	a->ts_ns = ts;
	a->ttl = ttl;
	a->count++;
	return true;
}

/* *d = *s, the union only when it holds something (INT, RTT sample). */
static inline void
eng_ev_copy(struct eng_ev *d, const struct eng_ev *s)
{
	memcpy(d, s, offsetof(struct eng_ev, int_raw));
	if (s->has_int || s->type == PCC_DEV_EVENT_RTT)
		memcpy(d->int_raw, s->int_raw, sizeof(*d) - offsetof(struct eng_ev, int_raw));
}

/* Merge b into a when both are CNPs, or ACKs without INT, of one flow. */
bool eng_ev_merge(struct eng_ev *a, const struct eng_ev *b);

/* The fields of an event that come from its flow's header line 0. */
static inline void
eng_ev_flow_hot(struct pcc_dev_event *ev, const struct eng_flow *f)
{
	ev->port = f->dev_port;
	ev->flow_tag = f->tag;
	ev->dscp = f->l3_dscp;
}

/* The fields of an event that come from its flow. */
static inline void
eng_ev_flow(struct pcc_dev_event *ev, const struct eng_flow *f)
{
	eng_ev_flow_hot(ev, f);
	ev->flow_qpn = eng_flow_qpn(f);
}

/*
 * lib/dev event of record r for flow f: ev and, for an ACK with INT, the
 * decoded header in *int_buf (ev->ack.int_hdr points at it).
 */
static inline void
eng_ev_to_dev(const struct eng_ev *r, const struct eng_flow *f, struct pcc_dev_event *ev,
		struct pcc_int_hdr *int_buf)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = r->type;
	ev->subtype = r->subtype;
	/* the QPN from the record's key, which is the flow's: the flow's
	 * own key lies in a line an event does not otherwise touch */
	eng_ev_flow_hot(ev, f);
	ev->flow_qpn = r->key.type == PCC_ENGINE_FLOW_QP ? r->key.qpn : 0;
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

/*
 * Account one transmitted packet of f (bytes, psn, AckReq) at now.  When
 * the accumulated TX reaches c->txc_bytes, or c->txc_ns passed since its
 * first packet, or it is the flow's first TX: fills *ev with the TX event,
 * resets the accumulator and returns true.
 */
bool eng_txc_add(struct eng_flow *f, const struct eng_rp_conf *c, uint32_t bytes, uint32_t psn,
		bool ackreq, uint64_t now, struct pcc_dev_event *ev);

/* TX event of what f accumulated (txc_pkts > 0), reset. */
void eng_txc_flush(struct eng_flow *f, uint64_t now, struct pcc_dev_event *ev);

/* Timer event of f at now (period from c). */
void eng_timer_ev(struct eng_flow *f, const struct eng_rp_conf *c, uint64_t now,
		struct pcc_dev_event *ev);

#endif /* ENGINE_EV_H */
