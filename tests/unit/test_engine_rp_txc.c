/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the RP owner's housekeeping (lib/engine/rp_tx.c) against
 * a scripted algorithm (test_engine_rp_fix.h): timers and TX coalescing
 * through a table that evicts, a busy or flushed flow that must not hold
 * back the flows behind it, and which events bring the port's next round
 * forward.  EAL without hugepages.
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
#include "test_engine_rp_fix.h"

/* The flow of qpn on port 0 of the owner's table, or NULL. */
static struct eng_flow *
owner_flow(uint32_t qpn)
{
	struct pcc_engine_flow_key k;

	pcc_engine_flow_key_qp(&k, 0, qpn);
	return eng_flow_lookup(&lc->ft, &k, eng_flow_hash(&k));
}

/* Queue f's TX bytes, accumulated since t (as tx_account() does). */
static void
owner_txc(struct eng_flow *f, uint64_t t)
{
	f->txc_pkts = 1;
	f->txc_bytes = 1000;
	f->txc_first_ns = t;
	eng_txc_append(&lc->ft, f, eng_flow_idx(&lc->ft, f));
}

/* An ACK of QP qpn for PSN psn, received at t, through the owner path. */
static void
owner_ack(uint32_t qpn, uint32_t psn, uint64_t t)
{
	struct pcc_pkt_info info;
	struct eng_ev r;

	info_init(&info, PCC_PKT_ROCE_ACK, qpn, psn);
	eng_ev_from_pkt(&info, NULL, 0, t, &r);
	eng_rp_event(lc, &r);
}

/* Whether lport's TX coalescing list is empty. */
static bool
txc_empty(void)
{
	return lc->ft.lists[lport.idx].txc_head == ENG_NONE;
}

/*
 * Timers and TX coalescing through a table that evicts (64 entries, 1 us
 * timer period, 20 us coalescing).  Timers: 64 flows queued at 0; at
 * 0.5 us a 65th takes the longest idle's entry; the 63 left are due at
 * 1 us, the new flow at 1.5 us.  TX coalescing: the 64 flows' bytes
 * queued at 1.5 us; at 2 us a 66th takes the longest idle's entry and
 * sends; the 63 others flush at 21.5 us, the new one at 22 us.  (The
 * entry's old place in a FIFO, kept by the new flow with its later time,
 * used to hold back all 63; the evicted flow leaves the list.)
 */
static void
test_timer_reuse(void **state)
{
	struct pcc_engine_flow_key k;
	struct eng_flow *f;
	unsigned int i;

	(void)state;
	memset(&script, 0, sizeof(script));
	eng_ftable_fini(&lc->ft);
	assert_int_equal(owner_table(true), 0);
	eng.rp.timer_ns = 1000;
	for (i = 0; i < 64; i++)
		assert_non_null(new_flow(0x800 + i));
	pcc_engine_flow_key_qp(&k, 0, 0x900);
	f = eng_rp_flow_get(lc, &lport, &k, eng_flow_hash(&k), NULL, NULL, 500);
	assert_non_null(f);
	assert_int_equal(lc->ft.ctr.evicted, 1);
	assert_null(owner_flow(0x800));
	/* the timer FIFO's head is stale: due at once, then the 63 at 1 us */
	assert_true(eng_rp_hk_deadline(lc, &lport, 600) <= 1000);
	for (i = 0; i < 4; i++)
		eng_rp_housekeep(lc, &lport, 1000);
	assert_int_equal(lc->ctr.timer_events, 63);
	assert_int_equal(f->timer_ns, 500); /* not fired (the script masks timer events) */
	eng_rp_housekeep(lc, &lport, 1500);
	assert_int_equal(lc->ctr.timer_events, 64);
	assert_int_equal(f->timer_ns, 1500);

	eng.rp.timer_ns = 0; /* TX coalescing alone */
	for (i = 1; i < 64; i++)
		owner_txc(owner_flow(0x800 + i), 1500);
	owner_txc(f, 1500);
	pcc_engine_flow_key_qp(&k, 0, 0x901);
	f = eng_rp_flow_get(lc, &lport, &k, eng_flow_hash(&k), NULL, NULL, 2000);
	assert_non_null(f);
	assert_int_equal(lc->ft.ctr.evicted, 2);
	assert_null(owner_flow(0x801));
	owner_txc(f, 2000);
	/* the 63 first, at 21.5 us */
	assert_int_equal(eng_rp_hk_deadline(lc, &lport, 2100), 21500);
	calls = 0;
	for (i = 0; i < 4; i++)
		eng_rp_housekeep(lc, &lport, 21500);
	assert_int_equal(calls, 63);
	assert_int_equal(f->txc_pkts, 1);
	eng_rp_housekeep(lc, &lport, 22000);
	assert_int_equal(calls, 64);
	assert_int_equal(f->txc_pkts, 0);
}

/*
 * A busy flow at the head of the TX coalescing list does not hold back
 * the flows behind it: A is queued at 1 ns, B at 2 ns; every 10 us A's
 * bytes are evented outside housekeeping — by an ACK (RX before TX), or
 * by reaching the byte count — and A sends again.  B's bytes are
 * flushed by housekeeping once 20 us old (at 30 us), not left waiting
 * behind A's ever-fresh accumulation (found by review: 1 ms, no event).
 */
static void
test_txc_busy_head(void **state)
{
	struct eng_flow *a, *b;
	unsigned int by_bytes;
	uint64_t t;

	(void)state;
	memset(&script, 0, sizeof(script));
	for (by_bytes = 0; by_bytes < 2; by_bytes++) {
		a = new_flow(0xa00 + by_bytes);
		b = new_flow(0xb00 + by_bytes);
		assert_non_null(a);
		assert_non_null(b);
		/* a flow's first packet is evented at once */
		eng_rp_tx_bytes(lc, &lport, a, 1000, 0, false, 0);
		eng_rp_tx_bytes(lc, &lport, b, 1000, 0, false, 0);
		assert_int_equal(a->txc_pkts + b->txc_pkts, 0);
		eng_rp_tx_bytes(lc, &lport, a, 1000, 1, false, 1);
		eng_rp_tx_bytes(lc, &lport, b, 1000, 1, false, 2);
		assert_int_equal(b->txc_pkts, 1);
		for (t = 10000; t <= 100000; t += 10000) {
			uint32_t psn = (uint32_t)(t / 10000);

			if (by_bytes) {
				eng_rp_tx_bytes(lc, &lport, a, eng.rp.txc_bytes, psn, false, t);
			} else {
				owner_ack(0xa00, psn, t);
			}
			assert_int_equal(a->txc_pkts, 0);
			eng_rp_tx_bytes(lc, &lport, a, 1000, psn + 1, false, t);
			eng_rp_housekeep(lc, &lport, t);
			if (t < 30000)
				assert_int_equal(b->txc_pkts, 1);
			else
				assert_int_equal(b->txc_pkts, 0);
		}
		/* and A's last bytes, once 20 us old, by housekeeping too */
		assert_int_equal(a->txc_pkts, 1);
		eng_rp_housekeep(lc, &lport, 120000);
		assert_int_equal(a->txc_pkts, 0);
	}
}

/*
 * W, X and Y queued for TX coalescing in that order; an ACK events X's
 * bytes while W is the head, and X sends again.  Y, due before X's new
 * bytes, is flushed by housekeeping once due, not held back by X in its
 * old place (found by review: Y waited until X was due); X's bytes are
 * flushed once due, from the tail, where they queued again.  Then X is
 * flushed twice while behind W, with Y and Z queued between: Z is
 * flushed once due, not held back until X's next bytes are (found by
 * review: the FIFO that kept one old entry a flow left X's second one in
 * place, 36 us late in the reviewer's model).
 */
static void
test_txc_mid_flush(void **state)
{
	struct eng_flow *w, *x, *y, *z;

	(void)state;
	memset(&script, 0, sizeof(script));
	w = new_flow(0xc01);
	x = new_flow(0xc02);
	y = new_flow(0xc03);
	z = new_flow(0xc04);
	assert_true(w != NULL && x != NULL && y != NULL && z != NULL);
	eng_rp_tx_bytes(lc, &lport, w, 1000, 0, false, 0);
	eng_rp_tx_bytes(lc, &lport, x, 1000, 0, false, 0);
	eng_rp_tx_bytes(lc, &lport, y, 1000, 0, false, 0);
	eng_rp_tx_bytes(lc, &lport, z, 1000, 0, false, 0);
	eng_rp_tx_bytes(lc, &lport, w, 1000, 1, false, 1);
	eng_rp_tx_bytes(lc, &lport, x, 1000, 1, false, 2);
	eng_rp_tx_bytes(lc, &lport, y, 1000, 1, false, 3);
	owner_ack(0xc02, 1, 5000);
	assert_int_equal(x->txc_pkts, 0);
	assert_false(x->flags & ENG_FLOW_F_TXC_Q);
	eng_rp_tx_bytes(lc, &lport, x, 1000, 2, false, 5000);
	assert_true(x->flags & ENG_FLOW_F_TXC_Q);
	/* W's bytes evented by an ACK too: Y is the first due, at 20003 */
	owner_ack(0xc01, 1, 6000);
	assert_int_equal(w->txc_pkts, 0);
	assert_int_equal(eng_rp_hk_deadline(lc, &lport, 6000), 20003);
	/* Y due at 20003, X at 25000 */
	eng_rp_housekeep(lc, &lport, 20003);
	assert_int_equal(w->txc_pkts, 0);
	assert_int_equal(y->txc_pkts, 0);
	assert_int_equal(x->txc_pkts, 1);
	assert_int_equal(eng_rp_hk_deadline(lc, &lport, 20003), 25000);
	eng_rp_housekeep(lc, &lport, 24999);
	assert_int_equal(x->txc_pkts, 1);
	eng_rp_housekeep(lc, &lport, 25000);
	assert_int_equal(x->txc_pkts, 0);
	assert_true(txc_empty());

	/* W, X, Y queued; X flushed, sends (behind Y), Z queued; X flushed
	 * again and sends at 40000: W, Y and Z flush when due (50000,
	 * 50002, 50005), X at 60000 */
	eng_rp_tx_bytes(lc, &lport, w, 1000, 2, false, 30000);
	eng_rp_tx_bytes(lc, &lport, x, 1000, 3, false, 30001);
	eng_rp_tx_bytes(lc, &lport, y, 1000, 2, false, 30002);
	owner_ack(0xc02, 3, 30003);
	eng_rp_tx_bytes(lc, &lport, x, 1000, 4, false, 30004);
	eng_rp_tx_bytes(lc, &lport, z, 1000, 1, false, 30005);
	owner_ack(0xc02, 4, 30006);
	assert_int_equal(x->txc_pkts, 0);
	assert_false(x->flags & ENG_FLOW_F_TXC_Q);
	eng_rp_tx_bytes(lc, &lport, x, 1000, 5, false, 40000);
	assert_int_equal(eng_rp_hk_deadline(lc, &lport, 40000), 50000);
	eng_rp_housekeep(lc, &lport, 50002);
	assert_int_equal(w->txc_pkts + y->txc_pkts, 0);
	assert_int_equal(eng_rp_hk_deadline(lc, &lport, 50002), 50005);
	eng_rp_housekeep(lc, &lport, 50005);
	assert_int_equal(z->txc_pkts, 0);
	assert_int_equal(x->txc_pkts, 1);
	assert_int_equal(eng_rp_hk_deadline(lc, &lport, 50005), 60000);
	eng_rp_housekeep(lc, &lport, 60000);
	assert_int_equal(x->txc_pkts, 0);
	assert_true(txc_empty());
}

/*
 * Which events bring the port's next round forward (lport.wake = 0):
 * results applied (a new rate, a probe); not an ACK or NAK that changes
 * nothing else (with a window too: a flow due while its window is closed
 * keeps its port polled, eng_gen_wake()), nor a record of no flow, nor a
 * coalesced TX event flushed before an RX event, whether other flows
 * wait in the TX coalescing list or not (the port's housekeeping
 * deadline can only move later).  The skipped rounds would do nothing
 * (worker.c, port_wake()).
 */
static void
test_wake(void **state)
{
	const uint64_t later = 123456789;
	struct pcc_pkt_info info;
	struct eng_flow *f, *g;
	struct eng_ev r;

	(void)state;
	memset(&script, 0, sizeof(script));
	f = new_flow(0x700);
	g = new_flow(0x702);
	assert_non_null(f);
	assert_non_null(g);
	/* no such flow */
	lport.wake = later;
	info_init(&info, PCC_PKT_CNP, 0x701, 0);
	eng_ev_from_pkt(&info, NULL, 0, 10, &r);
	eng_rp_event(lc, &r);
	assert_int_equal(lport.wake, later);
	/* an ACK, no window, no results */
	info_init(&info, PCC_PKT_ROCE_ACK, 0x700, 5);
	eng_ev_from_pkt(&info, NULL, 0, 20, &r);
	eng_rp_event(lc, &r);
	assert_int_equal(f->una_psn, 6);
	assert_int_equal(lport.wake, later);
	/* the same ACK with a new rate */
	script.rate = PCC_DEV_MAX_RATE / 2;
	eng_rp_event(lc, &r);
	assert_int_equal(f->rate, PCC_DEV_MAX_RATE / 2);
	assert_int_equal(lport.wake, 0);
	/* the same rate again: nothing applied */
	lport.wake = later;
	eng_rp_event(lc, &r);
	assert_int_equal(lport.wake, later);
	/* a CNP whose results ask for a probe */
	memset(&script, 0, sizeof(script));
	script.rtt_req = 1;
	info_init(&info, PCC_PKT_CNP, 0x700, 0);
	eng_ev_from_pkt(&info, NULL, 0, 30, &r);
	eng_rp_event(lc, &r);
	assert_int_equal(lport.wake, 0);
	/* with a window, an ACK and a NAK that change nothing else */
	memset(&script, 0, sizeof(script));
	f->window = 4096;
	lport.wake = later;
	owner_ack(0x700, 7, 40);
	assert_int_equal(f->una_psn, 8);
	info_init(&info, PCC_PKT_ROCE_NAK, 0x700, 8);
	info.aeth_syndrome = (PCC_AETH_NAK << 5) | PCC_NAK_PSN_SEQ_ERR;
	eng_ev_from_pkt(&info, NULL, 0, 50, &r);
	eng_rp_event(lc, &r);
	assert_int_equal(f->nack_rx, 1);
	assert_int_equal(lport.wake, later);
	f->window = 0;
	/* a coalesced TX event flushed first, the list left empty */
	owner_txc(f, 45);
	owner_ack(0x700, 9, 60);
	assert_int_equal(f->txc_pkts, 0);
	assert_true(txc_empty());
	assert_int_equal(lport.wake, later);
	/* the same with g behind f: g's deadline is later than f's was */
	owner_txc(f, 65);
	owner_txc(g, 66);
	owner_ack(0x700, 9, 70);
	assert_int_equal(f->txc_pkts, 0);
	assert_false(txc_empty());
	assert_int_equal(lport.wake, later);
	/* f flushed again while g is the head */
	owner_txc(f, 75);
	owner_ack(0x700, 9, 80);
	assert_int_equal(f->txc_pkts, 0);
	assert_int_equal(lport.wake, later);
	eng_flow_del(&lc->ft, f);
	eng_flow_del(&lc->ft, g);
}

static int
group_setup(void **state)
{
	(void)state;
	return rp_group_setup("test_engine_rp_txc");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_timer_reuse, owner_setup, owner_teardown),
		cmocka_unit_test_setup_teardown(test_txc_busy_head, owner_setup, owner_teardown),
		cmocka_unit_test_setup_teardown(test_txc_mid_flush, owner_setup, owner_teardown),
		cmocka_unit_test_setup_teardown(test_wake, owner_setup, owner_teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, test_eal_group_teardown);
}
