/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the txpp pacer backend (send on timestamp) with a fake
 * ethdev (struct pcc_pacer_txpp_hw) standing in for an mlx5 port: probe
 * and fallback, the timestamps written into the mbuf dynamic field (exact
 * departure arithmetic, the same as the wheel's), horizon refusal, clock
 * conversion modes, flag handling, reset.  Virtual time only.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>

#include "pcc_pacer.h"
#include "pcc_pacer_drivers.h"
#include "test_eal.h"
#include "test_log_capture.h"

#define SEC 1000000000ull
#define US 1000ull
#define MS 1000000ull
#define LINE_100G 100000000000ull
#define T0 (5 * SEC)
#define N_MBUFS 4095

static struct rte_mempool *mp;

#include "test_pacer_common.h"

static int ts_off = -1;
static uint64_t ts_flag;

/* ---- The fake port ------------------------------------------------------ */

static bool fake_capa = true;
static bool fake_offload_on = true;
static int fake_info_ret;
static int fake_reg_ret;
static uint64_t fake_clock;
static int fake_clock_ret;
static unsigned int clock_reads;

static int
fake_dev_info_get(uint16_t port_id, struct rte_eth_dev_info *info)
{
	(void)port_id;
	if (fake_info_ret != 0)
		return fake_info_ret;
	memset(info, 0, sizeof(*info));
	if (fake_capa)
		info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_SEND_ON_TIMESTAMP;
	return 0;
}

static int
fake_dev_conf_get(uint16_t port_id, struct rte_eth_conf *conf)
{
	(void)port_id;
	memset(conf, 0, sizeof(*conf));
	if (fake_offload_on)
		conf->txmode.offloads = RTE_ETH_TX_OFFLOAD_SEND_ON_TIMESTAMP;
	return 0;
}

static int
fake_register(int *off, uint64_t *flag)
{
	if (fake_reg_ret != 0)
		return fake_reg_ret;
	/* the real registration: it needs no NIC */
	return rte_mbuf_dyn_tx_timestamp_register(off, flag);
}

static int
fake_read_clock(uint16_t port_id, uint64_t *clock)
{
	(void)port_id;
	clock_reads++;
	if (fake_clock_ret != 0)
		return fake_clock_ret;
	*clock = fake_clock;
	return 0;
}

static const struct pcc_pacer_txpp_hw fake_hw = {
	.dev_info_get = fake_dev_info_get,
	.dev_conf_get = fake_dev_conf_get,
	.tx_timestamp_register = fake_register,
	.read_clock = fake_read_clock,
};

static void
fake_reset(void)
{
	fake_capa = true;
	fake_offload_on = true;
	fake_info_ret = 0;
	fake_reg_ret = 0;
	fake_clock = 0;
	fake_clock_ret = 0;
	clock_reads = 0;
	pcc_pacer_txpp_hw_set(&fake_hw);
}

/* ---- Helpers ----------------------------------------------------------- */

static void
free_all(struct rte_mbuf **m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_pktmbuf_free(m[i]);
}

static bool
stamped(const struct rte_mbuf *m)
{
	return (m->ol_flags & ts_flag) != 0;
}

static uint64_t
ts_of(struct rte_mbuf *m)
{
	return *RTE_MBUF_DYNFIELD(m, ts_off, uint64_t *);
}

static struct pcc_pacer *
txpp_new(uint32_t max_flows)
{
	struct pcc_pacer_conf c;
	struct pcc_pacer *p;

	memset(&c, 0, sizeof(c));
	c.backend = "txpp";
	c.port_id = 3;
	c.socket_id = SOCKET_ID_ANY;
	c.max_flows = max_flows;
	c.line_rate_bps = LINE_100G;
	c.no_fallback = true;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	assert_string_equal(pcc_pacer_backend(p), "txpp");
	return p;
}

/* ---- Tests --------------------------------------------------------------- */

static void
test_selected(void **state)
{
	struct pcc_pacer *p;

	(void)state;
	fake_reset();
	p = txpp_new(4);
	assert_int_equal(pcc_pacer_mem_per_flow(p), 8 + 24);
	assert_true(pcc_pacer_mem_total(p) >= 4 * 32);
	assert_true(ts_off >= 0 && ts_flag != 0);
	pcc_pacer_free(p);
}

static void
test_fallback(void **state)
{
	struct pcc_pacer_conf c;
	unsigned int i, lines, with;
	struct pcc_pacer *p;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.backend = "txpp";
	c.port_id = 3;
	c.max_flows = 4;
	c.line_rate_bps = LINE_100G;
	for (i = 0; i < 4; i++) {
		fake_reset();
		switch (i) {
		case 0:
			fake_capa = false; /* no SEND_ON_TIMESTAMP */
			break;
		case 1:
			fake_offload_on = false; /* port not configured with it */
			break;
		case 2:
			fake_reg_ret = -ENOMEM; /* no dynamic field */
			break;
		default:
			fake_info_ret = -ENODEV;
			break;
		}
		c.no_fallback = false;
		log_capture();
		p = pcc_pacer_create(&c);
		lines = log_release("falling back to wheel", &with);
		assert_non_null(p);
		assert_string_equal(pcc_pacer_backend(p), "wheel");
		assert_int_equal(lines, 1);
		assert_int_equal(with, 1);
		/* not a txpp pacer */
		assert_int_equal(pcc_pacer_txpp_set_clock(
						 p, PCC_PACER_TXPP_CLOCK_IDENTITY, NULL, NULL),
				-EINVAL);
		pcc_pacer_free(p);
		c.no_fallback = true;
		rte_errno = 0;
		assert_null(pcc_pacer_create(&c));
		assert_int_equal(rte_errno, i == 3 ? ENODEV : ENOTSUP);
	}
	fake_reset();
}

/* 1 Gb/s, 1000-byte frames: 1024 wire bytes, exactly 8192 ns apart */
static void
test_timestamps_exact(void **state)
{
	struct pcc_pacer *p;
	struct rte_mbuf *in[10], *out[16];
	unsigned int i, n;

	(void)state;
	fake_reset();
	p = txpp_new(4);
	assert_int_equal(pcc_pacer_set_rate(p, 1, 1000000000), 0);
	for (i = 0; i < 10; i++)
		in[i] = pkt(1, i, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 1, in, 10, T0), 10);
	/* all handed out at once: the NIC holds them */
	n = pcc_pacer_dequeue(p, T0, out, 16);
	assert_int_equal(n, 10);
	assert_false(stamped(out[0])); /* due now: sent at once */
	for (i = 1; i < n; i++) {
		assert_ptr_equal(out[i], in[i]);
		assert_true(stamped(out[i]));
		assert_int_equal(ts_of(out[i]), T0 + i * 8192);
	}
	free_all(out, n);
	pcc_pacer_free(p);
}

/* conf.depart_off: every packet carries its departure in the port's
 * clock, the one due now included (the NIC's timestamp is left off it) */
static void
test_depart_field(void **state)
{
	static const struct rte_mbuf_dynfield d = {
		.name = "test_txpp_departure",
		.size = sizeof(uint64_t),
		.align = __alignof__(uint64_t),
	};
	static const struct rte_mbuf_dynflag fl = {
		.name = "test_txpp_departure_valid",
	};
	struct pcc_pacer_conf c;
	struct pcc_pacer *p;
	struct rte_mbuf *in[4], *out[8];
	unsigned int i, n;
	uint64_t flag;
	int off, bit;

	(void)state;
	fake_reset();
	off = rte_mbuf_dynfield_register(&d);
	bit = rte_mbuf_dynflag_register(&fl);
	assert_true(off > 0 && bit >= 0);
	flag = UINT64_C(1) << bit;
	memset(&c, 0, sizeof(c));
	c.backend = "txpp";
	c.port_id = 3;
	c.socket_id = SOCKET_ID_ANY;
	c.max_flows = 4;
	c.line_rate_bps = LINE_100G;
	c.no_fallback = true;
	c.depart_off = off;
	c.depart_flag = flag;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	assert_int_equal(pcc_pacer_set_rate(p, 1, 1000000000), 0);
	for (i = 0; i < 4; i++)
		in[i] = pkt(1, i, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 1, in, 4, T0), 4);
	n = pcc_pacer_dequeue(p, T0, out, 8);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		assert_true(out[i]->ol_flags & flag);
		assert_int_equal(*RTE_MBUF_DYNFIELD(out[i], off, uint64_t *), T0 + i * 8192);
	}
	assert_false(stamped(out[0]));
	free_all(out, n);
	pcc_pacer_free(p);
}

/* 3 Gb/s and mixed sizes: floor of the exact departure, within 1 ns */
static void
test_timestamps_fractional(void **state)
{
	const uint64_t rate = 3000000000ull;
	struct rte_mbuf *in[64], *out[64];
	unsigned __int128 num = 0;
	struct pcc_pacer *p;
	unsigned int i, n;

	(void)state;
	fake_reset();
	p = txpp_new(4);
	assert_int_equal(pcc_pacer_set_rate(p, 0, rate), 0);
	for (i = 0; i < 64; i++)
		in[i] = pkt(0, i, 60 + (i * 337) % 1441);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 64, T0), 64);
	n = pcc_pacer_dequeue(p, T0, out, 64);
	assert_int_equal(n, 64);
	for (i = 0; i < n; i++) {
		uint64_t exact = T0 + (uint64_t)(num / rate);

		if (i > 0) {
			assert_true(stamped(out[i]));
			assert_true(ts_of(out[i]) >= exact);
			assert_true(ts_of(out[i]) <= exact + 1);
		}
		num += (unsigned __int128)(out[i]->pkt_len + PCC_PACER_WIRE_OVERHEAD) * 8 * SEC;
	}
	free_all(out, n);
	pcc_pacer_free(p);
}

/* the same packets through wheel and txpp: the wheel releases each in
 * the slot of the departure txpp stamps */
static void
test_same_as_wheel(void **state)
{
	enum {
		F = 4,
		PER = 30
	};
	static const uint64_t rates[F] = { 0, 1000000000ull, 2500000000ull, 40000000000ull };
	struct pcc_pacer_conf c;
	struct pcc_pacer *tx, *wh;
	uint64_t dep[F][PER];
	uint64_t t;
	struct rte_mbuf *m, *out[256];
	unsigned int f, i, k, n, seen = 0;

	(void)state;
	fake_reset();
	tx = txpp_new(F);
	memset(&c, 0, sizeof(c));
	c.max_flows = F;
	c.line_rate_bps = LINE_100G;
	c.port_id = 3;
	wh = pcc_pacer_create(&c);
	assert_non_null(wh);
	for (f = 0; f < F; f++) {
		assert_int_equal(pcc_pacer_set_rate(tx, f, rates[f]), 0);
		assert_int_equal(pcc_pacer_set_rate(wh, f, rates[f]), 0);
	}
	/* offer in three rounds at different times */
	for (k = 0; k < 3; k++) {
		uint64_t now = T0 + k * 37 * US + k * 123;

		for (f = 0; f < F; f++) {
			for (i = k * PER / 3; i < (k + 1) * PER / 3; i++) {
				uint32_t len = 64 + (f * 7 + i * 131) % 1400;

				m = pkt(f, i, len);
				assert_int_equal(pcc_pacer_enqueue(tx, f, &m, 1, now), 1);
				assert_int_equal(pcc_pacer_dequeue(tx, now, &m, 1), 1);
				dep[f][i] = stamped(m) ? ts_of(m) : now;
				m->ol_flags &= ~ts_flag;
				assert_int_equal(pcc_pacer_enqueue(wh, f, &m, 1, now), 1);
			}
		}
		/* the wheel, dequeued every 100 ns until the next round */
		for (t = now; t < T0 + (k + 1) * 37 * US + (k + 1) * 123 || k == 2; t += 100) {
			n = pcc_pacer_dequeue(wh, t, out, 256);
			for (i = 0; i < n; i++) {
				const struct tag *tg = rte_pktmbuf_mtod(out[i], const struct tag *);
				uint64_t d = dep[tg->flow][tg->seq];

				assert_true(t >= d / 500 * 500);
				assert_true(t < d / 500 * 500 + 500 + 100);
			}
			seen += n;
			free_all(out, n);
			if (k == 2 && seen == F * PER)
				break;
		}
	}
	assert_int_equal(seen, F * PER);
	pcc_pacer_free(tx);
	pcc_pacer_free(wh);
}

static void
test_horizon(void **state)
{
	struct rte_mbuf *in[10], *out[10];
	struct pcc_pacer_stats st;
	struct pcc_pacer *p;
	unsigned int i, n;

	(void)state;
	fake_reset();
	p = txpp_new(4);
	/* 10 Mb/s, 1000-byte frames: 819.2 us apart, horizon 2.1855 ms */
	assert_int_equal(pcc_pacer_set_rate(p, 0, 10000000), 0);
	for (i = 0; i < 10; i++)
		in[i] = pkt(0, i, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 10, T0), 3);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.dropped, 7);
	n = pcc_pacer_dequeue(p, T0, out, 10);
	assert_int_equal(n, 3);
	assert_int_equal(ts_of(out[2]), T0 + 2 * 819200);
	free_all(out, n);
	/* later the next fits, and keeps the schedule */
	assert_int_equal(pcc_pacer_enqueue(p, 0, in + 3, 7, T0 + 300 * US), 1);
	n = pcc_pacer_dequeue(p, T0 + 300 * US, out, 10);
	assert_int_equal(n, 1);
	assert_int_equal(ts_of(out[0]), T0 + 3 * 819200);
	free_all(out, n);
	free_all(in + 4, 6);
	pcc_pacer_free(p);
}

static uint64_t
twice_plus(void *arg, uint64_t ns)
{
	return 2 * ns + *(const uint64_t *)arg;
}

static void
test_clock_modes(void **state)
{
	static uint64_t plus = 7;
	struct rte_mbuf *in[2], *out[2];
	struct pcc_pacer *p;
	uint64_t t;

	(void)state;
	fake_reset();
	p = txpp_new(4);
	assert_int_equal(pcc_pacer_set_rate(p, 0, 1000000000), 0);
	assert_int_equal(pcc_pacer_txpp_set_clock(NULL, PCC_PACER_TXPP_CLOCK_IDENTITY, NULL, NULL),
			-EINVAL);
	assert_int_equal(pcc_pacer_txpp_set_clock(p, PCC_PACER_TXPP_CLOCK_FN, NULL, NULL), -EINVAL);
	assert_int_equal(pcc_pacer_txpp_set_clock(p, (enum pcc_pacer_txpp_clock)99, NULL, NULL),
			-EINVAL);

	/* read clock: NIC time = now + (77 s - T0) */
	fake_clock = 77 * SEC;
	assert_int_equal(pcc_pacer_txpp_set_clock(p, PCC_PACER_TXPP_CLOCK_READ_CLOCK, NULL, NULL),
			0);
	in[0] = pkt(0, 0, 1000);
	in[1] = pkt(0, 1, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 2, T0), 2);
	assert_int_equal(pcc_pacer_dequeue(p, T0, out, 2), 2);
	assert_int_equal(ts_of(out[1]), 77 * SEC + 8192);
	assert_int_equal(clock_reads, 1);
	free_all(out, 2);
	/* not read again within 100 ms */
	t = T0 + 50 * MS;
	fake_clock = 1;
	in[0] = pkt(0, 2, 1000);
	in[1] = pkt(0, 3, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 2, t), 2);
	assert_int_equal(pcc_pacer_dequeue(p, t, out, 2), 2);
	assert_int_equal(ts_of(out[1]), t + 8192 + 77 * SEC - T0);
	assert_int_equal(clock_reads, 1);
	free_all(out, 2);
	/* re-read after 100 ms */
	t = T0 + 150 * MS;
	fake_clock = 99 * SEC;
	in[0] = pkt(0, 4, 1000);
	in[1] = pkt(0, 5, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 2, t), 2);
	assert_int_equal(pcc_pacer_dequeue(p, t, out, 2), 2);
	assert_int_equal(ts_of(out[1]), 99 * SEC + 8192);
	assert_int_equal(clock_reads, 2);
	free_all(out, 2);
	/* a failing read keeps the last offset */
	t = T0 + 300 * MS;
	fake_clock_ret = -EIO;
	in[0] = pkt(0, 6, 1000);
	in[1] = pkt(0, 7, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 2, t), 2);
	assert_int_equal(pcc_pacer_dequeue(p, t, out, 2), 2);
	assert_int_equal(ts_of(out[1]), t + 8192 + 99 * SEC - (T0 + 150 * MS));
	free_all(out, 2);
	fake_clock_ret = 0;

	/* a function */
	t = T0 + 400 * MS;
	assert_int_equal(
			pcc_pacer_txpp_set_clock(p, PCC_PACER_TXPP_CLOCK_FN, twice_plus, &plus), 0);
	in[0] = pkt(0, 8, 1000);
	in[1] = pkt(0, 9, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 2, t), 2);
	assert_int_equal(pcc_pacer_dequeue(p, t, out, 2), 2);
	assert_int_equal(ts_of(out[1]), 2 * (t + 8192) + 7);
	free_all(out, 2);

	/* and back */
	t = T0 + 500 * MS;
	assert_int_equal(pcc_pacer_txpp_set_clock(p, PCC_PACER_TXPP_CLOCK_IDENTITY, NULL, NULL), 0);
	in[0] = pkt(0, 10, 1000);
	in[1] = pkt(0, 11, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 2, t), 2);
	assert_int_equal(pcc_pacer_dequeue(p, t, out, 2), 2);
	assert_int_equal(ts_of(out[1]), t + 8192);
	free_all(out, 2);
	pcc_pacer_free(p);
}

static void
test_flags_and_reset(void **state)
{
	struct rte_mbuf *in[3], *out[3];
	struct pcc_pacer *p;

	(void)state;
	fake_reset();
	p = txpp_new(4);
	assert_int_equal(pcc_pacer_set_rate(p, 2, 100000000), 0);
	in[0] = pkt(2, 0, 1000);
	in[1] = pkt(2, 1, 1000);
	/* a stale flag from an earlier use is cleared on a due packet */
	in[0]->ol_flags |= ts_flag;
	assert_int_equal(pcc_pacer_enqueue(p, 2, in, 2, T0), 2);
	assert_int_equal(pcc_pacer_dequeue(p, T0, out, 3), 2);
	assert_false(stamped(out[0]));
	assert_true(stamped(out[1]));
	assert_int_equal(ts_of(out[1]), T0 + 81920);
	free_all(out, 2);
	/* reset: the schedule and the rate start afresh */
	pcc_pacer_flow_reset(p, 2);
	assert_int_equal(pcc_pacer_get_rate(p, 2), 0);
	in[0] = pkt(2, 2, 1000);
	in[1] = pkt(2, 3, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 2, in, 2, T0 + 10), 2);
	assert_int_equal(pcc_pacer_dequeue(p, T0 + 10, out, 3), 2);
	assert_false(stamped(out[0]));
	assert_int_equal(ts_of(out[1]), T0 + 10 + 81); /* 81.92 ns at line rate */
	free_all(out, 2);
	pcc_pacer_free(p);
}

/* the pass-through FIFO (256 here) bounds what is handed out at once */
static void
test_fifo_full(void **state)
{
	struct rte_mbuf *in[300], *out[300];
	struct pcc_pacer *p;
	unsigned int i, n;

	(void)state;
	fake_reset();
	p = txpp_new(4);
	for (i = 0; i < 300; i++)
		in[i] = pkt(0, i, 64);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 300, T0), 256);
	n = pcc_pacer_dequeue(p, T0, out, 300);
	assert_int_equal(n, 256);
	free_all(out, n);
	/* the schedule went on only for the 256 taken: 88 bytes, 7.04 ns */
	assert_int_equal(pcc_pacer_enqueue(p, 0, in + 256, 1, T0), 1);
	assert_int_equal(pcc_pacer_dequeue(p, T0, out, 1), 1);
	assert_int_equal(ts_of(out[0]), T0 + 256 * 704 / 100);
	free_all(out, 1);
	free_all(in + 257, 43);
	pcc_pacer_free(p);
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

static int
group_setup(void **state)
{
	int flag_bit;

	(void)state;
	rte_openlog_stream(stderr);
	if (test_eal_init("test_pacer_txpp", "128", NULL) < 0)
		return -1;
	if (pcc_pacer_drivers_register() != 0)
		return -1;
	mp = rte_pktmbuf_pool_create("pacer_txpp", N_MBUFS, 0, 0, 128, SOCKET_ID_ANY);
	if (mp == NULL)
		return -1;
	/* what the backend registers, looked up the application's way */
	if (rte_mbuf_dyn_tx_timestamp_register(&ts_off, &ts_flag) != 0)
		return -1;
	flag_bit = rte_mbuf_dynflag_lookup(RTE_MBUF_DYNFLAG_TX_TIMESTAMP_NAME, NULL);
	if (flag_bit < 0 || ts_flag != 1ull << flag_bit)
		return -1;
	if (rte_mbuf_dynfield_lookup(RTE_MBUF_DYNFIELD_TIMESTAMP_NAME, NULL) != ts_off)
		return -1;
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	pcc_pacer_txpp_hw_set(NULL);
	test_eal_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selected),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_timestamps_exact),
		cmocka_unit_test(test_depart_field),
		cmocka_unit_test(test_timestamps_fractional),
		cmocka_unit_test(test_same_as_wheel),
		cmocka_unit_test(test_horizon),
		cmocka_unit_test(test_clock_modes),
		cmocka_unit_test(test_flags_and_reset),
		cmocka_unit_test(test_fifo_full),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
