/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the RP runner's pure parts (lib/engine/rp_ev.c,
 * engine_ev.h): event records from classified packets (CNP, ACK, NACK
 * subtypes, HPCC INT), coalescing, lib/dev events, TX coalescing by
 * bytes, by time and for a new flow, timer events, the window model.
 * The owner path is in test_engine_rp_owner.c.  EAL without hugepages.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_log.h>
#include <rte_malloc.h>

#include "engine_internal.h"
#include "pcc_dev.h"
#include "pcc_pacer_drivers.h"
#include "test_eal.h"
#include "test_engine_rp.h"

/* ---- Packet -> event record ------------------------------------------------- */

static void
test_ev_from_pkt(void **state)
{
	struct pcc_pkt_info info;
	uint8_t int_raw[PCC_INT_HDR_LEN];
	struct eng_ev ev;

	(void)state;
	info_init(&info, PCC_PKT_CNP, 0x1234, 0);
	assert_int_equal(eng_ev_from_pkt(&info, NULL, 3, 1000, &ev), 0);
	assert_int_equal(ev.type, PCC_DEV_EVENT_CNP);
	assert_int_equal(ev.key.port_id, 3);
	assert_int_equal(ev.key.type, PCC_ENGINE_FLOW_QP);
	assert_int_equal(ev.key.qpn, 0x1234);
	assert_int_equal(ev.sig, eng_flow_hash(&ev.key));
	assert_int_equal(ev.count, 1);
	assert_int_equal(ev.ts_ns, 1000);

	info_init(&info, PCC_PKT_ROCE_ACK, 0x10, 77);
	info.aeth_syndrome = 0x1f; /* ACK, credits */
	assert_int_equal(eng_ev_from_pkt(&info, NULL, 0, 5, &ev), 0);
	assert_int_equal(ev.type, PCC_DEV_EVENT_ACK);
	assert_int_equal(ev.sn, 77);
	assert_int_equal(ev.first_sn, 77);
	assert_int_equal(ev.has_int, 0);

	/* RNR NAK -> RNR; NAK PSN sequence error -> OOS; other NAKs -> 0 */
	info_init(&info, PCC_PKT_ROCE_NAK, 0x10, 9);
	info.aeth_syndrome = (PCC_AETH_RNR_NAK << 5) | 0x0e;
	assert_int_equal(eng_ev_from_pkt(&info, NULL, 0, 5, &ev), 0);
	assert_int_equal(ev.type, PCC_DEV_EVENT_NACK);
	assert_int_equal(ev.subtype, PCC_DEV_NACK_RNR);
	info.aeth_syndrome = (PCC_AETH_NAK << 5) | PCC_NAK_PSN_SEQ_ERR;
	assert_int_equal(eng_ev_from_pkt(&info, NULL, 0, 5, &ev), 0);
	assert_int_equal(ev.subtype, PCC_DEV_NACK_OOS);
	info.aeth_syndrome = (PCC_AETH_NAK << 5) | PCC_NAK_REMOTE_ACCESS;
	assert_int_equal(eng_ev_from_pkt(&info, NULL, 0, 5, &ev), 0);
	assert_int_equal(ev.subtype, 0);

	/* INT only on ACKs with the INT bit */
	memset(int_raw, 0x5a, sizeof(int_raw));
	info_init(&info, PCC_PKT_ROCE_ACK, 0x10, 1);
	assert_int_equal(eng_ev_from_pkt(&info, int_raw, 0, 5, &ev), 0);
	assert_int_equal(ev.has_int, 0);
	info.bth_flags = PCC_BTH_INT;
	assert_int_equal(eng_ev_from_pkt(&info, int_raw, 0, 5, &ev), 0);
	assert_int_equal(ev.has_int, 1);
	assert_memory_equal(ev.int_raw, int_raw, sizeof(int_raw));

	/* not CC packets */
	info_init(&info, PCC_PKT_ROCE_DATA, 0x10, 1);
	assert_int_equal(eng_ev_from_pkt(&info, NULL, 0, 5, &ev), -1);
	info_init(&info, PCC_PKT_PROBE_RESP, 0x10, 1);
	assert_int_equal(eng_ev_from_pkt(&info, NULL, 0, 5, &ev), -1);
}

static void
test_ev_merge(void **state)
{
	struct pcc_pkt_info info;
	struct eng_ev a, b;

	(void)state;
	info_init(&info, PCC_PKT_ROCE_ACK, 0x10, 5);
	eng_ev_from_pkt(&info, NULL, 0, 100, &a);
	info.psn = 9;
	eng_ev_from_pkt(&info, NULL, 0, 200, &b);
	assert_true(eng_ev_merge(&a, &b));
	assert_int_equal(a.count, 2);
	assert_int_equal(a.first_sn, 5);
	assert_int_equal(a.sn, 9);
	assert_int_equal(a.first_ts_ns, 100);
	assert_int_equal(a.ts_ns, 200);
	/* another flow, another type, an ACK with INT: no merge */
	info.dqpn = 0x11;
	eng_ev_from_pkt(&info, NULL, 0, 300, &b);
	assert_false(eng_ev_merge(&a, &b));
	info_init(&info, PCC_PKT_CNP, 0x10, 0);
	eng_ev_from_pkt(&info, NULL, 0, 300, &b);
	assert_false(eng_ev_merge(&a, &b));
	info_init(&info, PCC_PKT_ROCE_ACK, 0x10, 10);
	info.bth_flags = PCC_BTH_INT;
	eng_ev_from_pkt(&info, (uint8_t[PCC_INT_HDR_LEN]){ 0 }, 0, 300, &b);
	assert_false(eng_ev_merge(&a, &b));
	/* CNPs merge */
	info_init(&info, PCC_PKT_CNP, 0x10, 0);
	eng_ev_from_pkt(&info, NULL, 0, 1, &a);
	eng_ev_from_pkt(&info, NULL, 0, 2, &b);
	assert_true(eng_ev_merge(&a, &b));
	assert_true(eng_ev_merge(&a, &b));
	assert_int_equal(a.count, 3);
	/* NACKs never */
	info_init(&info, PCC_PKT_ROCE_NAK, 0x10, 0);
	info.aeth_syndrome = (PCC_AETH_NAK << 5);
	eng_ev_from_pkt(&info, NULL, 0, 1, &a);
	eng_ev_from_pkt(&info, NULL, 0, 2, &b);
	assert_false(eng_ev_merge(&a, &b));
}

/* merging a packet without its record does what merging its record does */
static void
test_ev_merge_pkt(void **state)
{
	static const struct {
		uint8_t kind, syn, bth_flags;
		uint16_t port;
		uint32_t dqpn;
	} pk[] = {
		{ PCC_PKT_CNP, 0, 0, 0, 0x10 },
		{ PCC_PKT_CNP, 0, 0, 1, 0x10 },
		{ PCC_PKT_CNP, 0, 0, 0, 0x11 },
		{ PCC_PKT_ROCE_ACK, 0x1f, 0, 0, 0x10 },
		{ PCC_PKT_ROCE_ACK, 0x1f, PCC_BTH_INT, 0, 0x10 },
		{ PCC_PKT_ROCE_NAK, PCC_AETH_NAK << 5, 0, 0, 0x10 },
	};
	uint8_t int_raw[PCC_INT_HDR_LEN] = { 0 };
	struct pcc_pkt_info ia, ib;
	unsigned int i, j;

	(void)state;
	for (i = 0; i < RTE_DIM(pk); i++)
		for (j = 0; j < RTE_DIM(pk); j++) {
			struct eng_ev a, a2, b;
			uint8_t type, subtype;
			bool m1, m2;

			info_init(&ia, pk[i].kind, pk[i].dqpn, 5);
			ia.aeth_syndrome = pk[i].syn;
			ia.bth_flags = pk[i].bth_flags;
			info_init(&ib, pk[j].kind, pk[j].dqpn, 9);
			ib.aeth_syndrome = pk[j].syn;
			ib.bth_flags = pk[j].bth_flags;
			ib.ttl = 3;
			assert_int_equal(eng_ev_from_pkt(&ia, int_raw, pk[i].port, 100, &a), 0);
			a2 = a;
			assert_int_equal(eng_ev_from_pkt(&ib, int_raw, pk[j].port, 200, &b), 0);
			m1 = eng_ev_merge(&a, &b);
			type = (uint8_t)eng_ev_type_of(&ib, &subtype);
			m2 = eng_ev_merge_pkt(&a2, type, eng_flow_hash_qp(pk[j].port, pk[j].dqpn),
					eng_flow_key_qp_word(pk[j].port, pk[j].dqpn),
					eng_ev_pkt_has_int(type, ib.bth_flags, int_raw), ib.psn,
					ib.ttl, 200);
			assert_int_equal(m1, m2);
			assert_memory_equal(&a, &a2, offsetof(struct eng_ev, int_raw));
		}
}

static void
test_ev_to_dev(void **state)
{
	struct pcc_int_hdr h, parsed;
	struct pcc_dev_event ev;
	struct pcc_pkt_info info;
	uint8_t raw[PCC_INT_HDR_LEN];
	struct eng_flow f;
	struct eng_ev r;

	(void)state;
	/* a record's union is written only for INT and RTT samples */
	memset(&r, 0, sizeof(r));
	memset(&f, 0, sizeof(f));
	f.dev_port = 2;
	f.tag = 0x77;
	info_init(&info, PCC_PKT_ROCE_ACK, 0x77, 40);
	eng_ev_from_pkt(&info, NULL, 0, 0x100000005ull, &r);
	r.count = 3;
	r.first_sn = 38;
	r.first_ts_ns = 0x100000001ull;
	eng_ev_to_dev(&r, &f, &ev, &parsed);
	assert_int_equal(ev.type, PCC_DEV_EVENT_ACK);
	assert_int_equal(ev.port, 2);
	assert_int_equal(ev.flow_tag, 0x77);
	assert_int_equal(ev.sn, 40);
	assert_int_equal(ev.ts, 5); /* 32 bits of ns */
	assert_int_equal(ev.ack.first_ts, 1);
	assert_int_equal(ev.ack.first_sn, 38);
	assert_int_equal(ev.ack.coalesced, 3);
	assert_null(ev.ack.int_hdr);

	/* an INT header is decoded for the algorithm */
	memset(&h, 0, sizeof(h));
	h.n_hops = 2;
	h.hop[0].rate_code = PCC_INT_RATE_100G;
	h.hop[0].time_ns = 1234;
	h.hop[0].tx_bytes = 99;
	h.hop[0].qlen = 5;
	h.hop[1].rate_code = PCC_INT_RATE_25G;
	assert_int_equal(pcc_int_build(raw, sizeof(raw), &h), PCC_INT_HDR_LEN);
	info.bth_flags = PCC_BTH_INT;
	eng_ev_from_pkt(&info, raw, 0, 10, &r);
	eng_ev_to_dev(&r, &f, &ev, &parsed);
	assert_ptr_equal(ev.ack.int_hdr, &parsed);
	assert_int_equal(parsed.n_hops, 2);
	assert_int_equal(parsed.hop[0].time_ns, 1234);
	assert_int_equal(parsed.hop[0].qlen, 5);

	/* RTT: the four times, truncated to 32 bits, and the user bytes */
	memset(&r, 0, sizeof(r));
	r.type = PCC_DEV_EVENT_RTT;
	r.ts_ns = 5000;
	r.rtt.req_send_ns = 1000;
	r.rtt.req_recv_ns = 0x200000002ull;
	r.rtt.resp_send_ns = 0x200000003ull;
	memcpy(r.rtt.user, "abcdefghijkl", 12);
	eng_ev_to_dev(&r, &f, &ev, NULL);
	assert_int_equal(ev.rtt.req_send_ts, 1000);
	assert_int_equal(ev.rtt.req_recv_ts, 2);
	assert_int_equal(ev.rtt.resp_send_ts, 3);
	assert_int_equal(ev.rtt.resp_recv_ts, 5000);
	assert_memory_equal(ev.rtt.user, "abcdefghijkl", 12);
}

/* ---- TX coalescing, timers, window -------------------------------------------- */

static void
test_txc(void **state)
{
	const struct eng_rp_conf c = { .txc_bytes = 4000, .txc_ns = 10000, .timer_ns = 0 };
	struct pcc_dev_event ev;
	struct eng_flow f;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.tag = 0x42;
	f.key.qpn = 0x42;
	/* a new flow's first packet: an event at once */
	assert_true(eng_txc_add(&f, &c, 1000, 0, true, 100, &ev));
	assert_int_equal(ev.type, PCC_DEV_EVENT_TX);
	assert_int_equal(ev.tx.sent_pkts, 1);
	assert_int_equal(ev.tx.sent_32b, (1000 + 31) / 32);
	assert_int_equal(ev.flow_qpn, 0x42);
	assert_int_equal(ev.flags, PCC_DEV_TX_F_ACK_EXPECTED);
	assert_int_equal(ev.tx.first_ts, 100);
	/* then by bytes: 4 x 1000 */
	assert_false(eng_txc_add(&f, &c, 1000, 1, false, 200, &ev));
	assert_false(eng_txc_add(&f, &c, 1000, 2, false, 300, &ev));
	f.txc_flags |= PCC_DEV_TX_F_RTT_REQ_SENT;
	assert_false(eng_txc_add(&f, &c, 1000, 3, false, 400, &ev));
	assert_true(eng_txc_add(&f, &c, 1000, 4, false, 500, &ev));
	assert_int_equal(ev.tx.sent_pkts, 4);
	assert_int_equal(ev.tx.sent_32b, 125);
	assert_int_equal(ev.sn, 4);
	assert_int_equal(ev.tx.first_ts, 200);
	assert_int_equal(ev.ts, 500);
	assert_int_equal(ev.flags, PCC_DEV_TX_F_RTT_REQ_SENT);
	assert_int_equal(f.txc_pkts, 0);
	assert_int_equal(f.txc_flags, 0);
	/* by time: 10 us after the first packet */
	assert_false(eng_txc_add(&f, &c, 100, 5, false, 1000, &ev));
	assert_false(eng_txc_add(&f, &c, 100, 6, false, 10999, &ev));
	assert_true(eng_txc_add(&f, &c, 100, 7, false, 11000, &ev));
	assert_int_equal(ev.tx.sent_pkts, 3);
	assert_int_equal(ev.sn, 7);
	/* flush of what is left (the housekeeping path) */
	assert_false(eng_txc_add(&f, &c, 64, 8, false, 12000, &ev));
	eng_txc_flush(&f, 30000, &ev);
	assert_int_equal(ev.tx.sent_pkts, 1);
	assert_int_equal(ev.tx.sent_32b, 2);
	assert_int_equal(ev.ts, 30000);
	assert_int_equal(ev.tx.first_ts, 12000);
	/* saturation of the 16-bit fields */
	f.txc_bytes = 10u << 20;
	f.txc_pkts = 100000;
	eng_txc_flush(&f, 1, &ev);
	assert_int_equal(ev.tx.sent_32b, UINT16_MAX);
	assert_int_equal(ev.tx.sent_pkts, UINT16_MAX);
}

static void
test_txc_zero_thresholds(void **state)
{
	const struct eng_rp_conf c = { .txc_bytes = 0, .txc_ns = 1000000, .timer_ns = 0 };
	struct pcc_dev_event ev;
	struct eng_flow f;
	unsigned int i;

	(void)state;
	memset(&f, 0, sizeof(f));
	/* 0 bytes: one event per packet */
	for (i = 0; i < 5; i++)
		assert_true(eng_txc_add(&f, &c, 64, i, false, i, &ev));
}

static void
test_timer_ev(void **state)
{
	const struct eng_rp_conf c = { .txc_bytes = 1, .txc_ns = 1, .timer_ns = 250000 };
	struct pcc_dev_event ev;
	struct eng_flow f;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.tag = 9;
	f.dev_port = 1;
	eng_timer_ev(&f, &c, 0x300000007ull, &ev);
	assert_int_equal(ev.type, PCC_DEV_EVENT_TIMER);
	assert_int_equal(ev.timer.period_us, 250);
	assert_int_equal(ev.ts, 7);
	assert_int_equal(ev.flow_tag, 9);
	assert_int_equal(ev.port, 1);
}

static void
test_window_rate(void **state)
{
	struct eng_flow f;

	(void)state;
	memset(&f, 0, sizeof(f));
	/* no window, or no ACK yet: always */
	assert_true(eng_window_ok(&f, 1000, 1024));
	f.window = 4096;
	assert_true(eng_window_ok(&f, 1000, 1024));
	f.flags = ENG_FLOW_F_ACKED;
	f.una_psn = 10;
	assert_true(eng_window_ok(&f, 13, 1024));
	assert_false(eng_window_ok(&f, 14, 1024));
	f.credits = 1024;
	assert_true(eng_window_ok(&f, 14, 1024));
	assert_false(eng_window_ok(&f, 15, 1024));
	/* PSN wrap */
	f.una_psn = PCC_PSN_MASK;
	f.credits = 0;
	assert_true(eng_window_ok(&f, 2, 1024));
	assert_false(eng_window_ok(&f, 3, 1024));

	assert_int_equal(eng_rate_bps(0, 100000000000ull), 0);
	assert_int_equal(eng_rate_bps(PCC_DEV_MAX_RATE, 100000000000ull), 0);
	assert_int_equal(eng_rate_bps(PCC_DEV_MAX_RATE / 4, 100000000000ull), 25000000000ull);
	assert_int_equal(eng_rate_bps(PCC_DEV_DEFAULT_RATE, 100000000000ull), 390625000ull);
}

static int
group_setup(void **state)
{
	(void)state;
	return rp_group_setup("test_engine_rp");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ev_from_pkt),
		cmocka_unit_test(test_ev_merge),
		cmocka_unit_test(test_ev_merge_pkt),
		cmocka_unit_test(test_ev_to_dev),
		cmocka_unit_test(test_txc),
		cmocka_unit_test(test_txc_zero_thresholds),
		cmocka_unit_test(test_timer_ev),
		cmocka_unit_test(test_window_rate),
	};

	return cmocka_run_group_tests(tests, group_setup, test_eal_group_teardown);
}
