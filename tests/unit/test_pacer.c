/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of lib/pacer (front end) and the wheel backend: registry,
 * conf validation, pass-through, bypass, per-flow order against a
 * reference model of the departure formula, horizon and queue limits,
 * pool exhaustion, rate accuracy within 1 % over 10 ms from 1 Mb/s to
 * line rate, rate changes, time going backwards, huge time jumps, reset
 * and free returning every mbuf, 1 Mi flows, and fallback of txpp and mtr
 * on a port without the capability (a net_ring port).  Virtual time only.
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
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "pcc_pacer.h"
#include "pcc_pacer_drivers.h"
#include "test_eal.h"
#include "test_log_capture.h"

#define SEC 1000000000ull
#define US 1000ull
#define MS 1000000ull
#define LINE_100G 100000000000ull
#define T0 (5 * SEC) /* virtual time starts here, not at 0 */
#define N_MBUFS 16383

static struct rte_mempool *mp;

#include "test_pacer_common.h"

static uint16_t ring_port = UINT16_MAX;

static struct pcc_pacer_conf
conf_of(uint32_t max_flows, uint64_t line)
{
	struct pcc_pacer_conf c;

	memset(&c, 0, sizeof(c));
	c.backend = "wheel";
	c.port_id = UINT16_MAX - 1; /* no such port */
	c.socket_id = SOCKET_ID_ANY;
	c.max_flows = max_flows;
	c.line_rate_bps = line;
	return c;
}

static struct pcc_pacer *
wheel_new(uint32_t max_flows, uint64_t line)
{
	struct pcc_pacer_conf c = conf_of(max_flows, line);
	struct pcc_pacer *p = pcc_pacer_create(&c);

	assert_non_null(p);
	assert_string_equal(pcc_pacer_backend(p), "wheel");
	return p;
}

static void
free_all(struct rte_mbuf **m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_pktmbuf_free(m[i]);
}

/* ---- Reference model of the departure formula ------------------------ */

struct ref {
	uint64_t next_ns;
	uint32_t frac;
	uint64_t cost;
};

static void
ref_rate(struct ref *r, uint64_t rate, uint64_t line)
{
	if (rate == 0 || rate > line)
		rate = line;
	r->cost = (uint64_t)((((unsigned __int128)8 * SEC << 32) + rate - 1) / rate);
}

/* departure of a packet of wire bytes offered at now */
static uint64_t
ref_depart(struct ref *r, uint64_t now, uint32_t wire)
{
	uint64_t dep = r->next_ns;
	uint32_t frac = r->frac;
	unsigned __int128 d;

	if (dep < now) {
		dep = now;
		frac = 0;
	}
	d = (unsigned __int128)wire * r->cost + frac;
	r->next_ns = dep + (uint64_t)(d >> 32);
	r->frac = (uint32_t)d;
	return dep;
}

/* ---- Registry and conf ------------------------------------------------- */

static int
dummy_init(struct pcc_pacer *p, const struct pcc_pacer_conf *c)
{
	(void)p;
	(void)c;
	return 0;
}

static void
dummy_fini(struct pcc_pacer *p)
{
	(void)p;
}

static int
dummy_set_rate(struct pcc_pacer *p, uint32_t f, uint64_t r)
{
	(void)p;
	(void)f;
	(void)r;
	return 0;
}

static uint16_t
dummy_enqueue(struct pcc_pacer *p, uint32_t f, struct rte_mbuf **m, uint16_t n, uint64_t now)
{
	(void)f;
	(void)now;
	return pcc_pacer_pass(p, m, n);
}

static uint16_t
dummy_dequeue(struct pcc_pacer *p, uint64_t now, struct rte_mbuf **m, uint16_t n)
{
	(void)p;
	(void)now;
	(void)m;
	(void)n;
	return 0;
}

static void
dummy_reset(struct pcc_pacer *p, uint32_t f)
{
	(void)p;
	(void)f;
}

static size_t
dummy_mem(const struct pcc_pacer *p)
{
	(void)p;
	return 4;
}

static int probe_ret;
static int init_ret;

static int
cfg_probe(uint16_t port)
{
	(void)port;
	return probe_ret;
}

static int
cfg_init(struct pcc_pacer *p, const struct pcc_pacer_conf *c)
{
	(void)p;
	(void)c;
	return init_ret;
}

static const struct pcc_pacer_ops cfg_ops = {
	.name = "cfg",
	.probe = cfg_probe,
	.init = cfg_init,
	.fini = dummy_fini,
	.set_rate = dummy_set_rate,
	.enqueue = dummy_enqueue,
	.dequeue = dummy_dequeue,
	.flow_reset = dummy_reset,
	.mem_per_flow = dummy_mem,
};

static void
test_registry(void **state)
{
	static const char *const names[] = { "d0", "d1", "d2", "d3", "d4", "d5", "d6" };
	static struct pcc_pacer_ops d[RTE_DIM(names)];
	struct pcc_pacer_ops bad;
	unsigned int i;
	int ret = 0;

	(void)state;
	assert_non_null(pcc_pacer_backend_find("wheel"));
	assert_non_null(pcc_pacer_backend_find("txpp"));
	assert_non_null(pcc_pacer_backend_find("mtr"));
	assert_null(pcc_pacer_backend_find("nope"));
	assert_null(pcc_pacer_backend_find(NULL));
	/* registering again is a no-op */
	assert_int_equal(pcc_pacer_drivers_register(), 0);
	assert_int_equal(pcc_pacer_drivers_register(), 0);

	assert_int_equal(pcc_pacer_backend_register(NULL), -EINVAL);
	bad = cfg_ops;
	bad.name = "";
	assert_int_equal(pcc_pacer_backend_register(&bad), -EINVAL);
	bad = cfg_ops;
	bad.enqueue = NULL;
	assert_int_equal(pcc_pacer_backend_register(&bad), -EINVAL);
	bad = cfg_ops;
	bad.name = "wheel";
	assert_int_equal(pcc_pacer_backend_register(&bad), -EEXIST);
	assert_int_equal(pcc_pacer_backend_register(&cfg_ops), 0);
	assert_ptr_equal(pcc_pacer_backend_find("cfg"), &cfg_ops);

	/* 4 registered; fill the table (8) and one more */
	for (i = 0; i < RTE_DIM(names); i++) {
		d[i] = cfg_ops;
		d[i].name = names[i];
		d[i].probe = NULL;
		d[i].init = dummy_init;
		ret = pcc_pacer_backend_register(&d[i]);
		if (ret != 0)
			break;
	}
	assert_int_equal(i, 4);
	assert_int_equal(ret, -ENOSPC);
}

static void
test_conf_validation(void **state)
{
	struct pcc_pacer_conf c;
	struct pcc_pacer *p;

	(void)state;
	rte_errno = 0;
	assert_null(pcc_pacer_create(NULL));
	assert_int_equal(rte_errno, EINVAL);

	c = conf_of(0, LINE_100G);
	assert_null(pcc_pacer_create(&c));
	assert_int_equal(rte_errno, EINVAL);
	c = conf_of(PCC_PACER_MAX_FLOWS + 1, LINE_100G);
	assert_null(pcc_pacer_create(&c));
	assert_int_equal(rte_errno, EINVAL);
	c = conf_of(4, LINE_100G);
	c.max_queued = 65536;
	assert_null(pcc_pacer_create(&c));
	assert_int_equal(rte_errno, EINVAL);
	c = conf_of(4, LINE_100G);
	c.slot_ns = 1000;
	c.horizon_ns = 1000; /* one slot */
	assert_null(pcc_pacer_create(&c));
	assert_int_equal(rte_errno, EINVAL);
	c = conf_of(4, LINE_100G);
	c.slot_ns = 1;
	c.horizon_ns = 2000000; /* 2 M slots */
	assert_null(pcc_pacer_create(&c));
	assert_int_equal(rte_errno, EINVAL);
	c = conf_of(4, LINE_100G);
	c.backend = "nope";
	assert_null(pcc_pacer_create(&c));
	assert_int_equal(rte_errno, ENOENT);

	/* all defaults: wheel, 8 + 24 bytes per flow */
	memset(&c, 0, sizeof(c));
	c.max_flows = 10;
	c.port_id = UINT16_MAX - 1;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	assert_string_equal(pcc_pacer_backend(p), "wheel");
	assert_int_equal(pcc_pacer_mem_per_flow(p), 32);
	assert_true(pcc_pacer_mem_total(p) >= 10 * 32 + 4371 * 12);
	pcc_pacer_free(p);
	pcc_pacer_free(NULL);
	assert_null(pcc_pacer_backend(NULL));
}

/* front-end paths with a configurable backend */
static void
test_probe_init_paths(void **state)
{
	struct pcc_pacer_conf c = conf_of(4, LINE_100G);
	struct pcc_pacer *p;
	unsigned int lines, with;

	(void)state;
	if (pcc_pacer_backend_find("cfg") == NULL)
		assert_int_equal(pcc_pacer_backend_register(&cfg_ops), 0);
	c.backend = "cfg";
	probe_ret = 0;
	init_ret = 0;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	assert_string_equal(pcc_pacer_backend(p), "cfg");
	assert_int_equal(pcc_pacer_mem_per_flow(p), 8 + 4);
	/* no mem_total op: per flow x flows */
	assert_true(pcc_pacer_mem_total(p) >= 4 * 12);
	pcc_pacer_free(p);

	/* probe says no: wheel, one log line */
	probe_ret = -ENOTSUP;
	log_capture();
	p = pcc_pacer_create(&c);
	lines = log_release("falling back to wheel", &with);
	assert_non_null(p);
	assert_string_equal(pcc_pacer_backend(p), "wheel");
	assert_int_equal(lines, 1);
	assert_int_equal(with, 1);
	pcc_pacer_free(p);
	c.no_fallback = true;
	rte_errno = 0;
	assert_null(pcc_pacer_create(&c));
	assert_int_equal(rte_errno, ENOTSUP);
	c.no_fallback = false;

	/* probe passes, init finds the port short: falls back too */
	probe_ret = 0;
	init_ret = -ENOTSUP;
	log_capture();
	p = pcc_pacer_create(&c);
	lines = log_release("falling back to wheel", &with);
	assert_non_null(p);
	assert_string_equal(pcc_pacer_backend(p), "wheel");
	assert_int_equal(lines, 1);
	assert_int_equal(with, 1);
	pcc_pacer_free(p);

	/* any other init failure is a failure */
	init_ret = -EIO;
	rte_errno = 0;
	assert_null(pcc_pacer_create(&c));
	assert_int_equal(rte_errno, EIO);
	init_ret = 0;
}

/* txpp and mtr on a port without the capability, with DPDK's calls */
static void
test_fallback_ring_port(void **state)
{
	static const char *const be[] = { "txpp", "mtr" };
	struct pcc_pacer_conf c = conf_of(4, LINE_100G);
	unsigned int i, lines, with;
	struct pcc_pacer *p;

	(void)state;
	assert_true(ring_port != UINT16_MAX);
	c.port_id = ring_port;
	for (i = 0; i < RTE_DIM(be); i++) {
		c.backend = be[i];
		c.no_fallback = false;
		log_capture();
		p = pcc_pacer_create(&c);
		lines = log_release("falling back to wheel", &with);
		assert_non_null(p);
		assert_string_equal(pcc_pacer_backend(p), "wheel");
		assert_int_equal(lines, 1);
		assert_int_equal(with, 1);
		pcc_pacer_free(p);

		c.no_fallback = true;
		rte_errno = 0;
		assert_null(pcc_pacer_create(&c));
		assert_int_equal(rte_errno, ENOTSUP);
	}
}

/* ---- Rates, pass-through, bypass --------------------------------------- */

static void
test_rates(void **state)
{
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	struct rte_mbuf *m = pkt(9, 0, 100);

	(void)state;
	assert_int_equal(pcc_pacer_get_rate(p, 0), 0);
	assert_int_equal(pcc_pacer_set_rate(p, 0, 123456789), 0);
	assert_int_equal(pcc_pacer_get_rate(p, 0), 123456789);
	assert_int_equal(pcc_pacer_set_rate(p, 3, 0), 0);
	assert_int_equal(pcc_pacer_set_rate(p, 4, 1000), -EINVAL);
	assert_int_equal(pcc_pacer_set_rate(p, PCC_PACER_NO_FLOW, 1000), -EINVAL);
	assert_int_equal(pcc_pacer_set_rate(NULL, 0, 1000), -EINVAL);
	assert_int_equal(pcc_pacer_get_rate(p, 4), 0);
	assert_int_equal(pcc_pacer_get_rate(NULL, 0), 0);
	/* above line rate: kept as set, paced at line rate */
	assert_int_equal(pcc_pacer_set_rate(p, 1, 4 * LINE_100G), 0);
	assert_int_equal(pcc_pacer_get_rate(p, 1), 4 * LINE_100G);
	/* a flow out of range is refused and counted */
	assert_int_equal(pcc_pacer_enqueue(p, 4, &m, 1, T0), 0);
	assert_int_equal(pcc_pacer_enqueue(NULL, 0, &m, 1, T0), 0);
	rte_pktmbuf_free(m);
	pcc_pacer_flow_reset(p, 0);
	assert_int_equal(pcc_pacer_get_rate(p, 0), 0);
	pcc_pacer_flow_reset(p, 99); /* ignored */
	/* prefetch hints: any flow, any pacer */
	pcc_pacer_prefetch(p, 0);
	pcc_pacer_prefetch(p, 3);
	pcc_pacer_prefetch(p, 4);
	pcc_pacer_prefetch(NULL, 0);
	pcc_pacer_free(p);
}

static void
test_no_flow_passthrough(void **state)
{
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	struct rte_mbuf *in[300], *out[300];
	struct pcc_pacer_stats st;
	unsigned int i, n;

	(void)state;
	/* a slow paced flow with one packet waiting in the wheel */
	assert_int_equal(pcc_pacer_set_rate(p, 0, 10000000), 0);
	in[0] = pkt(0, 0, 1000);
	in[1] = pkt(0, 1, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 2, T0), 2);
	n = pcc_pacer_dequeue(p, T0, out, 8);
	assert_int_equal(n, 1); /* the first was due */
	rte_pktmbuf_free(out[0]);

	for (i = 0; i < 300; i++)
		in[i] = pkt(PCC_PACER_NO_FLOW, i, 64);
	/* 4 flows x 64 queued: FIFO of 256 */
	n = pcc_pacer_enqueue(p, PCC_PACER_NO_FLOW, in, 300, T0 + 1);
	assert_int_equal(n, 256);
	free_all(in + 256, 44);
	n = pcc_pacer_dequeue(p, T0 + 2, out, 100);
	assert_int_equal(n, 100);
	for (i = 0; i < n; i++)
		assert_int_equal(tag_of(out[i])->seq, i);
	free_all(out, n);
	n = pcc_pacer_dequeue(p, T0 + 2, out, 300);
	assert_int_equal(n, 156);
	for (i = 0; i < n; i++)
		assert_int_equal(tag_of(out[i])->seq, 100 + i);
	free_all(out, n);
	/* the paced packet is still waiting (819.2 us) */
	assert_int_equal(pcc_pacer_dequeue(p, T0 + 800 * US, out, 8), 0);
	n = pcc_pacer_dequeue(p, T0 + 900 * US, out, 8);
	assert_int_equal(n, 1);
	assert_int_equal(tag_of(out[0])->seq, 1);
	free_all(out, n);

	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.enqueued, 2 + 256);
	assert_int_equal(st.dropped, 44);
	assert_int_equal(st.dequeued, 2 + 256);
	assert_int_equal(st.bypassed, 1);
	assert_int_equal(st.flows_active, 0);
	pcc_pacer_stats_get(NULL, &st);
	assert_int_equal(st.enqueued, 0);
	pcc_pacer_free(p);
}

static void
test_bypass(void **state)
{
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	struct rte_mbuf *in[32], *out[64];
	struct pcc_pacer_stats st;
	unsigned int i, n, got = 0;
	uint64_t t;

	(void)state;
	/* an idle paced flow: its packet is due, it skips the wheel */
	assert_int_equal(pcc_pacer_set_rate(p, 1, 10000000000ull), 0);
	in[0] = pkt(1, 0, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 1, in, 1, T0), 1);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.bypassed, 1);
	assert_int_equal(st.flows_active, 0);
	assert_int_equal(pcc_pacer_dequeue(p, T0, out, 64), 1);
	rte_pktmbuf_free(out[0]);

	/* a line-rate burst: what fits in the current slot (500 ns of
	 * 1024-byte frames at 100 Gb/s: 81.92 ns each) goes at once, the
	 * rest is paced at line rate */
	for (i = 0; i < 32; i++)
		in[i] = pkt(0, i, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 32, T0 + 10 * US), 32);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.bypassed, 1 + 7); /* 0, 82, .. 492 ns */
	assert_int_equal(st.flows_active, 1);
	for (t = T0 + 10 * US; got < 32; t += 100) {
		n = pcc_pacer_dequeue(p, t, out, 64);
		for (i = 0; i < n; i++) {
			uint32_t seq = tag_of(out[i])->seq;
			uint64_t dep = T0 + 10 * US + seq * 8192 / 100;

			assert_int_equal(seq, got + i);
			/* released within the departure's slot, at a 100 ns step */
			assert_true(t >= dep / 500 * 500);
			assert_true(t < dep / 500 * 500 + 500 + 100);
		}
		got += n;
		free_all(out, n);
	}
	assert_true(t - (T0 + 10 * US) >= 2500); /* 31 x 81.92 ns */
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.flows_active, 0);
	pcc_pacer_free(p);
}

/* ---- Order, against the reference model -------------------------------- */

struct order_flow {
	struct ref ref;
	uint32_t next_seq; /* to offer */
	uint32_t next_out; /* expected out */
	uint64_t deps[512];
	struct rte_mbuf *held;
};

static void
test_per_flow_order(void **state)
{
	enum {
		F = 16,
		STEPS = 20000
	};
	static struct order_flow fl[F];
	struct pcc_pacer *p = wheel_new(F, LINE_100G);
	struct rte_mbuf *out[128];
	uint64_t t = T0, seed = 12345;
	unsigned int s, i, f, n, total = 0;

	(void)state;
	memset(fl, 0, sizeof(fl));
	for (f = 0; f < F; f++) {
		static const uint64_t rates[] = { 0, 1000000, 50000000, 333333333, 1000000000,
			7000000000ull, 25000000000ull, 99999999999ull };
		uint64_t r = rates[f % RTE_DIM(rates)];

		assert_int_equal(pcc_pacer_set_rate(p, f, r), 0);
		ref_rate(&fl[f].ref, r, LINE_100G);
	}
	for (s = 0; s < STEPS; s++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		f = (seed >> 33) % F;
		for (i = 0; i < (seed >> 40) % 6; i++) {
			struct order_flow *o = &fl[f];
			uint32_t len = 60 + (uint32_t)((seed >> (8 + i)) % 1440);
			struct rte_mbuf *m;
			uint64_t dep;
			struct ref save = o->ref;

			if (o->next_seq - o->next_out >= 512)
				break;
			m = o->held != NULL ? o->held : pkt(f, o->next_seq, len);
			len = m->pkt_len;
			dep = ref_depart(&o->ref, t, len + PCC_PACER_WIRE_OVERHEAD);
			if (pcc_pacer_enqueue(p, f, &m, 1, t) == 0) {
				o->ref = save; /* refused: no state change */
				o->held = m;
				break;
			}
			o->held = NULL;
			o->deps[o->next_seq % 512] = dep;
			o->next_seq++;
		}
		/* time moves by 0..2 us, now and then by a lot */
		t += (seed >> 20) % 2000;
		if ((seed >> 50) % 997 == 0)
			t += 3 * MS;
		n = pcc_pacer_dequeue(p, t, out, (uint16_t)(1 + (seed >> 44) % 127));
		for (i = 0; i < n; i++) {
			const struct tag *tg = tag_of(out[i]);
			struct order_flow *o = &fl[tg->flow];
			uint64_t dep = o->deps[tg->seq % 512];

			assert_int_equal(tg->seq, o->next_out);
			o->next_out++;
			/* never before its departure's slot */
			assert_true(t >= dep / 500 * 500);
		}
		total += n;
		free_all(out, n);
	}
	/* drain */
	t += 10 * MS;
	while ((n = pcc_pacer_dequeue(p, t, out, 128)) > 0) {
		for (i = 0; i < n; i++) {
			const struct tag *tg = tag_of(out[i]);

			assert_int_equal(tg->seq, fl[tg->flow].next_out);
			fl[tg->flow].next_out++;
		}
		total += n;
		free_all(out, n);
	}
	for (f = 0; f < F; f++) {
		assert_int_equal(fl[f].next_out, fl[f].next_seq);
		rte_pktmbuf_free(fl[f].held);
	}
	assert_true(total > 10000);
	pcc_pacer_free(p);
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

/* ---- Limits ------------------------------------------------------------ */

static void
test_horizon_refusal(void **state)
{
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	struct rte_mbuf *in[10], *out[10];
	struct pcc_pacer_stats st;
	unsigned int i, n;

	(void)state;
	/* 10 Mb/s, 1000-byte frames: 819.2 us apart; horizon 2.1855 ms */
	assert_int_equal(pcc_pacer_set_rate(p, 2, 10000000), 0);
	for (i = 0; i < 10; i++)
		in[i] = pkt(2, i, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 2, in, 10, T0), 3);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.dropped, 7);
	assert_int_equal(st.enqueued, 3);
	/* refused packets are the caller's: offer them again later */
	n = pcc_pacer_dequeue(p, T0 + 820 * US, out, 10);
	assert_int_equal(n, 2);
	assert_int_equal(tag_of(out[1])->seq, 1);
	free_all(out, n);
	assert_int_equal(pcc_pacer_enqueue(p, 2, in + 3, 7, T0 + 820 * US), 1);
	n = pcc_pacer_dequeue(p, T0 + 10 * MS, out, 10);
	assert_int_equal(n, 2);
	assert_int_equal(tag_of(out[0])->seq, 2);
	assert_int_equal(tag_of(out[1])->seq, 3);
	free_all(out, n);
	free_all(in + 4, 6);
	pcc_pacer_free(p);
}

/* other slot widths and horizons: the horizon is a whole number of slots */
static void
test_custom_slots(void **state)
{
	struct pcc_pacer_conf c = conf_of(4, LINE_100G);
	struct rte_mbuf *in[200], *out[200];
	struct pcc_pacer *p;
	unsigned int i, n, got = 0;
	uint64_t t;

	(void)state;
	c.slot_ns = 1000;
	c.horizon_ns = 99500; /* 100 slots of 1 us */
	c.max_queued = 1000;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	/* 1 Gb/s, 1000-byte frames: 8.192 us apart; 8.192 k us < 100 us for
	 * k <= 12, and the 13th is beyond */
	assert_int_equal(pcc_pacer_set_rate(p, 0, 1000000000), 0);
	for (i = 0; i < 200; i++)
		in[i] = pkt(0, i, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 200, T0), 13);
	free_all(in + 13, 187);
	/* released in 1 us slots */
	for (t = T0; got < 13; t += 100) {
		n = pcc_pacer_dequeue(p, t, out, 200);
		for (i = 0; i < n; i++) {
			uint64_t dep = T0 + (got + i) * 8192;

			assert_int_equal(tag_of(out[i])->seq, got + i);
			assert_true(t >= dep / 1000 * 1000);
			assert_true(t < dep / 1000 * 1000 + 100);
		}
		got += n;
		free_all(out, n);
	}
	pcc_pacer_free(p);
}

static void
test_queue_full(void **state)
{
	struct pcc_pacer_conf c = conf_of(4, LINE_100G);
	struct rte_mbuf *in[10], *out[10];
	struct pcc_pacer_stats st;
	struct pcc_pacer *p;
	unsigned int i, n;

	(void)state;
	c.max_queued = 4;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	assert_int_equal(pcc_pacer_set_rate(p, 0, 1000000000), 0);
	for (i = 0; i < 10; i++)
		in[i] = pkt(0, i, 1000);
	/* one due at once, 4 waiting */
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 10, T0), 5);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.dropped, 5);
	assert_int_equal(st.flows_active, 1);
	/* another flow is not affected */
	assert_int_equal(pcc_pacer_set_rate(p, 1, 1000000000), 0);
	assert_int_equal(pcc_pacer_enqueue(p, 1, in + 5, 5, T0), 5);
	n = pcc_pacer_dequeue(p, T0 + MS, out, 10);
	assert_int_equal(n, 10);
	free_all(out, n);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.flows_active, 0);
	pcc_pacer_free(p);
}

static void
test_pool_exhaustion(void **state)
{
	enum {
		F = 1000
	};
	struct pcc_pacer_conf c = conf_of(F, 100000000ull);
	struct rte_mbuf *in[64], *out[256];
	struct pcc_pacer_stats st;
	unsigned int f, i, n, taken = 0, avail;
	struct pcc_pacer *p;

	(void)state;
	/* 100 Mb/s line: the pool holds 2 x 1e8 x 2.1855 ms / (88 x 8) = 620
	 * packets (in 124 + 620 chunks of 5), not 1000 x 64 */
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	avail = rte_mempool_avail_count(mp);
	for (f = 0; f < F; f++) {
		assert_int_equal(pcc_pacer_set_rate(p, f, 0), 0);
		for (i = 0; i < 64; i++)
			in[i] = pkt(f, i, 64);
		n = pcc_pacer_enqueue(p, f, in, 64, T0);
		taken += n;
		free_all(in + n, 64 - n);
	}
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.enqueued, taken);
	assert_int_equal(st.dropped, F * 64 - taken);
	/* at least 620 and at most 744 x 5 waited; the bypassed ones do not
	 * count against the pool */
	assert_true(st.dropped > 0);
	assert_true(taken - st.bypassed >= 620);
	assert_true(taken - st.bypassed <= 744 * 5);
	/* everything comes back out, nothing leaks */
	for (n = 0, i = 0; i < 1000; i++) {
		unsigned int k = pcc_pacer_dequeue(p, T0 + 100 * MS, out, 256);

		free_all(out, k);
		n += k;
		if (k == 0)
			break;
	}
	assert_int_equal(n, taken);
	assert_int_equal(rte_mempool_avail_count(mp), avail);
	pcc_pacer_free(p);
}

/* ---- Rate accuracy ------------------------------------------------------ */

struct rec {
	uint64_t t;
	uint32_t wire;
	uint32_t flow;
};

/*
 * Keep flows [0, nf) backlogged from T0 for 12 ms, dequeuing every step
 * ns; rate of each flow over the 10 ms from T0 + 1 ms: the bytes between
 * the first and the last departure in the window over the time between
 * them.
 */
static void
run_accuracy(struct pcc_pacer *p, unsigned int nf, const uint64_t *rates, uint32_t min_len,
		uint32_t max_len, uint64_t step, double *err)
{
	const uint64_t w0 = T0 + MS, w1 = T0 + 11 * MS;
	size_t cap = 2000000, nrec = 0;
	struct rec *r = malloc(sizeof(*r) * cap);
	struct rte_mbuf *held[8] = { NULL }, *out[512];
	uint32_t seq[8] = { 0 };
	unsigned int f, i, n;
	uint64_t t;

	assert_non_null(r);
	assert_true(nf <= 8);
	for (f = 0; f < nf; f++)
		assert_int_equal(pcc_pacer_set_rate(p, f, rates[f]), 0);
	for (t = T0; t < T0 + 12 * MS; t += step) {
		for (f = 0; f < nf; f++) {
			for (;;) {
				if (held[f] == NULL) {
					uint32_t len = min_len +
							(seq[f] * 7919u) % (max_len - min_len + 1);

					held[f] = pkt(f, seq[f]++, len);
				}
				if (pcc_pacer_enqueue(p, f, &held[f], 1, t) == 0)
					break;
				held[f] = NULL;
			}
		}
		while ((n = pcc_pacer_dequeue(p, t, out, 512)) > 0) {
			for (i = 0; i < n; i++) {
				assert_true(nrec < cap);
				r[nrec].t = t;
				r[nrec].wire = out[i]->pkt_len + PCC_PACER_WIRE_OVERHEAD;
				r[nrec].flow = tag_of(out[i])->flow;
				nrec++;
			}
			free_all(out, n);
		}
	}
	for (f = 0; f < nf; f++) {
		uint64_t bytes = 0, ta = 0, tb = 0, last_wire = 0;
		size_t k, cnt = 0;
		double bps;

		for (k = 0; k < nrec; k++) {
			if (r[k].flow != f || r[k].t < w0 || r[k].t >= w1)
				continue;
			if (cnt == 0)
				ta = r[k].t;
			tb = r[k].t;
			bytes += r[k].wire;
			last_wire = r[k].wire;
			cnt++;
		}
		assert_true(cnt >= 3);
		bps = (double)(bytes - last_wire) * 8 * SEC / (double)(tb - ta);
		err[f] = bps / (double)(rates[f] != 0 ? rates[f] : LINE_100G) - 1;
		print_message("# flow %u: %.6g b/s set, %.6g b/s achieved (%+.4f %%, %zu pkts)\n",
				f, (double)(rates[f] != 0 ? rates[f] : LINE_100G), bps,
				100 * err[f], cnt);
	}
	for (f = 0; f < nf; f++)
		rte_pktmbuf_free(held[f]);
	free(r);
}

static void
test_rate_accuracy_single(void **state)
{
	static const struct {
		uint64_t rate;
		uint32_t min_len, max_len;
	} cases[] = {
		{ 1000000ull, 64, 200 }, { 100000000ull, 64, 1500 }, { 10000000000ull, 64, 1500 },
		{ 100000000000ull, 64, 1500 }, /* = line rate */
		{ 0, 1000, 1000 },             /* line rate */
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct pcc_pacer *p = wheel_new(4, LINE_100G);
		double err;

		run_accuracy(p, 1, &cases[i].rate, cases[i].min_len, cases[i].max_len, 100, &err);
		assert_true(err < 0.01 && err > -0.01);
		pcc_pacer_free(p);
	}
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

static void
test_rate_accuracy_mixed(void **state)
{
	static const uint64_t rates[] = { 1000000ull, 100000000ull, 10000000000ull,
		40000000000ull };
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	double err[4];
	unsigned int f;

	(void)state;
	run_accuracy(p, 4, rates, 64, 200, 250, err);
	for (f = 0; f < 4; f++)
		assert_true(err[f] < 0.01 && err[f] > -0.01);
	pcc_pacer_free(p);
}

/* line rate from the port's link speed: net_ring says 10 Gb/s */
static void
test_line_rate_from_link(void **state)
{
	struct pcc_pacer_conf c = conf_of(4, 0);
	static const uint64_t rate = 0;
	struct pcc_pacer *p;
	double err;

	(void)state;
	c.port_id = ring_port;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	run_accuracy(p, 1, &rate, 1000, 1000, 100, &err);
	/* err is against 100 Gb/s: 10 Gb/s is -90 % */
	assert_true(err < -0.899 && err > -0.901);
	pcc_pacer_free(p);
}

static void
test_rate_change(void **state)
{
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	struct rte_mbuf *m, *out[64];
	uint64_t t, first_new = 0, last_old = 0, last_new = 0;
	uint32_t seq = 0, switch_seq = UINT32_MAX, n_old = 0, n_new = 0, i, n;
	uint32_t first_old_seen = 0;
	uint64_t first_old = 0;

	(void)state;
	/* 1 Gb/s, 1000-byte frames (8192 ns); at 5 ms: 100 Mb/s (81920 ns) */
	assert_int_equal(pcc_pacer_set_rate(p, 0, 1000000000), 0);
	m = NULL;
	for (t = T0; t < T0 + 20 * MS; t += 100) {
		if (t == T0 + 5 * MS) {
			assert_int_equal(pcc_pacer_set_rate(p, 0, 100000000), 0);
			switch_seq = seq; /* from here on the new rate */
		}
		for (;;) {
			if (m == NULL)
				m = pkt(0, seq, 1000);
			if (pcc_pacer_enqueue(p, 0, &m, 1, t) == 0)
				break;
			m = NULL;
			seq++;
		}
		n = pcc_pacer_dequeue(p, t, out, 64);
		for (i = 0; i < n; i++) {
			uint32_t s = tag_of(out[i])->seq;

			if (s < switch_seq) {
				if (first_old_seen++ == 0)
					first_old = t;
				last_old = t;
				n_old++;
			} else {
				if (n_new++ == 0)
					first_new = t;
				last_new = t;
			}
		}
		free_all(out, n);
	}
	rte_pktmbuf_free(m);
	/* before: 8192 ns apart; after: 81920 ns apart */
	assert_true(n_old > 100 && n_new > 100);
	assert_true(llabs((int64_t)((last_old - first_old) / (n_old - 1)) - 8192) <= 10);
	assert_true(llabs((int64_t)((last_new - first_new) / (n_new - 1)) - 81920) <= 100);
	/* the packets queued before the change kept their times, and the gap
	 * after the last of them is the new rate's (the HPCC reference's
	 * ChangeRate): the first new packet 81920 ns after it, not 8192 */
	assert_true(llabs((int64_t)(first_new - last_old) - 81920) <= 600);
	pcc_pacer_free(p);
}

/*
 * A rate raised in the gap after a large frame (a TSO or multi-segment
 * mbuf): the gap takes the new rate.  At 1 Mb/s (8000 ns a byte) a frame
 * leaves at T0; raised to line rate 1 us in, the next is due one line-rate
 * frame time after T0 (a 100 000-byte frame: 8002 ns), or now if that has
 * passed.  Exact below 32 KiB on the wire; above, the size is kept to 32
 * bytes, so the gap is off by less than 32 bytes at the old rate (256 us
 * here); past 1 MiB it is taken as 1 MiB, and the next departure is no
 * later than the old rate's.  Before the size kept more than 16 bits, a
 * 100 000-byte frame gave T0 + 275.9 ms.
 */
static void
test_rate_change_jumbo(void **state)
{
	static const uint32_t lens[] = { 100000, 9000, 32743, 32744, 40000, 2000000 };
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	struct rte_mbuf *m, *out[4];
	unsigned int i, n;

	(void)state;
	for (i = 0; i < RTE_DIM(lens); i++) {
		uint64_t t0 = T0 + i * 100 * SEC, wire = lens[i] + PCC_PACER_WIRE_OVERHEAD;
		uint64_t want, old, next;
		struct ref r;

		/* the line rate's gap, as the pacer computes it (32.32 ns) */
		ref_rate(&r, LINE_100G, LINE_100G);
		want = t0 + (uint64_t)(((unsigned __int128)wire * r.cost) >> 32);

		assert_int_equal(pcc_pacer_set_rate(p, 1, 1000000), 0);
		m = pkt(1, i, lens[i]);
		assert_int_equal(pcc_pacer_enqueue(p, 1, &m, 1, t0), 1);
		n = pcc_pacer_dequeue(p, t0 + US, out, 4);
		assert_int_equal(n, 1);
		free_all(out, n);
		old = pcc_pacer_flow_next(p, 1, t0 + US);
		assert_true(old >= t0 + wire * 8000);
		assert_int_equal(pcc_pacer_set_rate(p, 1, LINE_100G), 0);
		next = pcc_pacer_flow_next(p, 1, t0 + US);
		want = RTE_MAX(want, t0 + US);
		if (wire < 32768)
			assert_int_equal(next, want);
		else if (wire < (1u << 20))
			assert_true(next >= want && next < want + 32 * 8000);
		else
			assert_true(next >= want && next <= old);
	}
	pcc_pacer_free(p);
}

/* ---- Time ---------------------------------------------------------------- */

static void
test_time_backwards(void **state)
{
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	struct rte_mbuf *in[4], *out[8];
	unsigned int n;

	(void)state;
	assert_int_equal(pcc_pacer_set_rate(p, 0, 1000000000), 0);
	in[0] = pkt(0, 0, 1000);
	in[1] = pkt(0, 1, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 2, T0 + 10 * MS), 2);
	/* an earlier now is taken as the latest one */
	n = pcc_pacer_dequeue(p, T0, out, 8);
	assert_int_equal(n, 1);
	assert_int_equal(tag_of(out[0])->seq, 0);
	free_all(out, n);
	assert_int_equal(pcc_pacer_dequeue(p, T0 + 5 * MS, out, 8), 0);
	/* another flow offered "in the past" leaves at the latest now */
	in[2] = pkt(1, 0, 1000);
	assert_int_equal(pcc_pacer_set_rate(p, 1, 1000000000), 0);
	assert_int_equal(pcc_pacer_enqueue(p, 1, &in[2], 1, 1), 1);
	n = pcc_pacer_dequeue(p, 2, out, 8);
	assert_int_equal(n, 1);
	assert_int_equal(tag_of(out[0])->flow, 1);
	free_all(out, n);
	n = pcc_pacer_dequeue(p, T0 + 10 * MS + 8192, out, 8);
	assert_int_equal(n, 1);
	assert_int_equal(tag_of(out[0])->seq, 1);
	free_all(out, n);
	pcc_pacer_free(p);
}

static void
test_huge_jump(void **state)
{
	enum {
		F = 8,
		PER = 40
	};
	struct pcc_pacer *p = wheel_new(F, LINE_100G);
	struct rte_mbuf *in[PER], *out[1024];
	struct pcc_pacer_stats st;
	uint32_t next[F] = { 0 };
	unsigned int f, i, n, total = 0, taken = 0;
	uint64_t t;

	(void)state;
	for (f = 0; f < F; f++) {
		assert_int_equal(pcc_pacer_set_rate(p, f, 200000000ull * (f + 1)), 0);
		for (i = 0; i < PER; i++)
			in[i] = pkt(f, i, 1000);
		n = pcc_pacer_enqueue(p, f, in, PER, T0);
		taken += n;
		free_all(in + n, PER - n);
	}
	/* an hour later: everything is due, handed out in order */
	t = T0 + 3600 * SEC;
	while ((n = pcc_pacer_dequeue(p, t, out, 7)) > 0) {
		for (i = 0; i < n; i++) {
			const struct tag *tg = tag_of(out[i]);

			assert_int_equal(tg->seq, next[tg->flow]);
			next[tg->flow]++;
		}
		total += n;
		free_all(out, n);
	}
	assert_int_equal(total, taken);
	pcc_pacer_stats_get(p, &st);
	assert_true(st.late_ns_max >= 3599 * SEC);
	assert_int_equal(st.flows_active, 0);
	/* and on from there: a jump over an empty wheel, then pacing again */
	t += 7 * 24 * 3600 * SEC;
	assert_int_equal(pcc_pacer_dequeue(p, t, out, 8), 0);
	for (i = 0; i < 3; i++)
		in[i] = pkt(0, 100 + i, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 3, t), 3);
	assert_int_equal(pcc_pacer_dequeue(p, t, out, 8), 1);
	rte_pktmbuf_free(out[0]);
	/* 200 Mb/s: 40.96 us apart */
	assert_int_equal(pcc_pacer_dequeue(p, t + 40 * US, out, 8), 0);
	assert_int_equal(pcc_pacer_dequeue(p, t + 41 * US, out, 8), 1);
	rte_pktmbuf_free(out[0]);
	assert_int_equal(pcc_pacer_dequeue(p, t + 82 * US, out, 8), 1);
	rte_pktmbuf_free(out[0]);
	pcc_pacer_free(p);
}

static void
test_late_stat(void **state)
{
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	struct rte_mbuf *in[2], *out[4];
	struct pcc_pacer_stats st;

	(void)state;
	assert_int_equal(pcc_pacer_set_rate(p, 0, 1000000000), 0);
	in[0] = pkt(0, 0, 1000);
	in[1] = pkt(0, 1, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 2, T0), 2);
	/* the second is due at T0 + 8192 ns, slot T0 + 8000 */
	assert_int_equal(pcc_pacer_dequeue(p, T0 + 50 * US, out, 4), 2);
	free_all(out, 2);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.late_ns_max, 50 * US - 8000);
	pcc_pacer_free(p);
}

/*
 * With conf.depart_off the wheel writes each packet's departure, exact to
 * the ns, whatever slot hands it out: a packet that skips the wheel gets
 * now, the others previous + wire bytes x 8 / rate (10 Gb/s: 819.2 ns per
 * 1024-byte wire frame).  Without it, nothing is written.
 */
static void
test_depart_stamp(void **state)
{
	static const struct rte_mbuf_dynfield d = {
		.name = "test_pacer_departure",
		.size = sizeof(uint64_t),
		.align = __alignof__(uint64_t),
	};
	static const struct rte_mbuf_dynflag fl = {
		.name = "test_pacer_departure_valid",
	};
	struct pcc_pacer_conf c = conf_of(4, LINE_100G);
	struct rte_mbuf *in[5], *out[8];
	struct pcc_pacer *p;
	uint64_t flag, t;
	unsigned int i, n, got = 0;
	int off, bit;

	(void)state;
	off = rte_mbuf_dynfield_register(&d);
	bit = rte_mbuf_dynflag_register(&fl);
	assert_true(off > 0);
	assert_true(bit >= 0);
	flag = UINT64_C(1) << bit;
	/* an offset without a flag, or a negative one, is refused */
	c.depart_off = off;
	assert_null(pcc_pacer_create(&c));
	assert_int_equal(rte_errno, EINVAL);
	c.depart_off = -1;
	c.depart_flag = flag;
	assert_null(pcc_pacer_create(&c));
	c.depart_off = off;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	assert_int_equal(pcc_pacer_set_rate(p, 2, 10000000000ull), 0);
	for (i = 0; i < 5; i++) {
		in[i] = pkt(2, i, 1000);
		in[i]->ol_flags &= ~flag;
	}
	assert_int_equal(pcc_pacer_enqueue(p, 2, in, 5, T0 + 7), 5);
	for (t = T0 + 7; got < 5; t += 250) {
		n = pcc_pacer_dequeue(p, t, out, 8);
		for (i = 0; i < n; i++) {
			uint32_t seq = tag_of(out[i])->seq;
			uint64_t want = T0 + 7 + seq * 8192 / 10;

			assert_int_equal(seq, got + i);
			assert_true(out[i]->ol_flags & flag);
			assert_int_equal(*RTE_MBUF_DYNFIELD(out[i], off, uint64_t *), want);
			/* handed out no later than its departure's slot */
			assert_true(t <= want + 500);
		}
		got += n;
		free_all(out, n);
	}
	pcc_pacer_free(p);
	/* without depart_off: no flag */
	p = wheel_new(4, LINE_100G);
	in[0] = pkt(0, 0, 1000);
	in[0]->ol_flags &= ~flag;
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 1, T0), 1);
	assert_int_equal(pcc_pacer_dequeue(p, T0, out, 8), 1);
	assert_false(out[0]->ol_flags & flag);
	rte_pktmbuf_free(out[0]);
	pcc_pacer_free(p);
}

/* ---- Reset, free, memory ------------------------------------------------ */

static void
test_flow_reset_frees(void **state)
{
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	struct rte_mbuf *in[20], *out[64];
	struct pcc_pacer_stats st;
	unsigned int i, n, avail = rte_mempool_avail_count(mp);
	uint32_t next2 = 0;

	(void)state;
	assert_int_equal(pcc_pacer_set_rate(p, 1, 1000000000), 0);
	assert_int_equal(pcc_pacer_set_rate(p, 2, 1000000000), 0);
	for (i = 0; i < 20; i++)
		in[i] = pkt(i % 2 ? 2 : 1, i / 2, 1000);
	/* interleave the two flows in the same slots */
	for (i = 0; i < 20; i++)
		assert_int_equal(pcc_pacer_enqueue(p, i % 2 ? 2 : 1, &in[i], 1, T0), 1);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.flows_active, 2);
	/* hand out part of a slot, then reset flow 1: its 9 waiting go */
	n = pcc_pacer_dequeue(p, T0, out, 1);
	assert_int_equal(n, 1);
	free_all(out, n);
	n = pcc_pacer_dequeue(p, T0, out, 1);
	assert_int_equal(n, 1);
	free_all(out, n);
	assert_int_equal(rte_mempool_avail_count(mp), avail - 18);
	/* the 9 freed are counted, and returned */
	assert_int_equal(pcc_pacer_flow_reset(p, 1), 9);
	assert_int_equal(rte_mempool_avail_count(mp), avail - 9);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.flushed, 9);
	assert_int_equal(st.enqueued, st.dequeued + st.flushed + 9);
	assert_int_equal(pcc_pacer_get_rate(p, 1), 0);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.flows_active, 1);
	assert_int_equal(pcc_pacer_flow_reset(p, 3), 0); /* idle: nothing happens */
	/* flow 2's remain, in order */
	next2 = 1;
	for (i = 0; i < 100 && next2 < 10; i++) {
		unsigned int k;

		n = pcc_pacer_dequeue(p, T0 + i * 8192, out, 64);
		for (k = 0; k < n; k++) {
			assert_int_equal(tag_of(out[k])->flow, 2);
			assert_int_equal(tag_of(out[k])->seq, next2);
			next2++;
		}
		free_all(out, n);
	}
	assert_int_equal(next2, 10);
	assert_int_equal(rte_mempool_avail_count(mp), avail);
	/* flow 1 starts afresh at line rate */
	in[0] = pkt(1, 0, 1000);
	in[1] = pkt(1, 1, 1000);
	assert_int_equal(pcc_pacer_enqueue(p, 1, in, 2, T0 + MS), 2);
	assert_int_equal(pcc_pacer_dequeue(p, T0 + MS, out, 64), 2);
	free_all(out, 2);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.flows_active, 0);
	pcc_pacer_free(p);
}

static void
test_free_frees(void **state)
{
	struct pcc_pacer *p = wheel_new(4, LINE_100G);
	struct rte_mbuf *in[40];
	unsigned int i, avail = rte_mempool_avail_count(mp);

	(void)state;
	assert_int_equal(pcc_pacer_set_rate(p, 0, 1000000), 0);
	for (i = 0; i < 40; i++)
		in[i] = pkt(i < 30 ? 0 : PCC_PACER_NO_FLOW, i, 64);
	/* 1 Mb/s, 88 wire bytes: 704 us apart, 4 fit the horizon */
	assert_int_equal(pcc_pacer_enqueue(p, 0, in, 30, T0), 4);
	free_all(in + 4, 26);
	assert_int_equal(pcc_pacer_enqueue(p, PCC_PACER_NO_FLOW, in + 30, 10, T0), 10);
	assert_int_equal(rte_mempool_avail_count(mp), avail - 14);
	pcc_pacer_free(p);
	assert_int_equal(rte_mempool_avail_count(mp), avail);
}

static void
test_million_flows(void **state)
{
	struct pcc_pacer *p = wheel_new(1u << 20, LINE_100G);
	static const uint32_t flows[] = { 0, 1, 524287, 1000000, (1u << 20) - 1 };
	struct rte_mbuf *m[2], *out[16];
	unsigned int i, n, total = 0;
	size_t total_mem;

	(void)state;
	assert_int_equal(pcc_pacer_mem_per_flow(p), 32);
	total_mem = pcc_pacer_mem_total(p);
	print_message("# 1 Mi flows: %zu bytes per flow, %zu bytes in all\n",
			pcc_pacer_mem_per_flow(p), total_mem);
	assert_true(total_mem >= (size_t)32 << 20);
	assert_true(total_mem < (size_t)48 << 20);
	for (i = 0; i < RTE_DIM(flows); i++) {
		assert_int_equal(pcc_pacer_set_rate(p, flows[i], 1000000000), 0);
		m[0] = pkt(flows[i], 0, 1000);
		m[1] = pkt(flows[i], 1, 1000);
		assert_int_equal(pcc_pacer_enqueue(p, flows[i], m, 2, T0), 2);
	}
	n = pcc_pacer_dequeue(p, T0 + 10 * US, out, 16);
	total = n;
	free_all(out, n);
	assert_int_equal(total, 2 * RTE_DIM(flows));
	pcc_pacer_free(p);
}

/* ---- Setup -------------------------------------------------------------- */

static int
group_setup(void **state)
{
	struct rte_ring *rx, *tx;
	int ret;

	(void)state;
	rte_openlog_stream(stderr);
	if (test_eal_init("test_pacer", "256", NULL) < 0)
		return -1;
	ret = pcc_pacer_drivers_register();
	if (ret != 0)
		return -1;
	mp = rte_pktmbuf_pool_create("pacer_test", N_MBUFS, 0, 0, 128, SOCKET_ID_ANY);
	if (mp == NULL)
		return -1;
	rx = rte_ring_create("pacer_rx", 64, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	tx = rte_ring_create("pacer_tx", 64, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (rx == NULL || tx == NULL)
		return -1;
	ret = rte_eth_from_rings("pacer_ring", &rx, 1, &tx, 1, SOCKET_ID_ANY);
	if (ret < 0)
		return -1;
	ring_port = (uint16_t)ret;
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_conf_validation),
		cmocka_unit_test(test_probe_init_paths),
		cmocka_unit_test(test_fallback_ring_port),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_no_flow_passthrough),
		cmocka_unit_test(test_bypass),
		cmocka_unit_test(test_per_flow_order),
		cmocka_unit_test(test_horizon_refusal),
		cmocka_unit_test(test_custom_slots),
		cmocka_unit_test(test_queue_full),
		cmocka_unit_test(test_pool_exhaustion),
		cmocka_unit_test(test_rate_accuracy_single),
		cmocka_unit_test(test_rate_accuracy_mixed),
		cmocka_unit_test(test_line_rate_from_link),
		cmocka_unit_test(test_rate_change),
		cmocka_unit_test(test_rate_change_jumbo),
		cmocka_unit_test(test_time_backwards),
		cmocka_unit_test(test_huge_jump),
		cmocka_unit_test(test_late_stat),
		cmocka_unit_test(test_depart_stamp),
		cmocka_unit_test(test_flow_reset_frees),
		cmocka_unit_test(test_free_frees),
		cmocka_unit_test(test_million_flows),
	};

	return cmocka_run_group_tests(tests, group_setup, test_eal_group_teardown);
}
