/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of the wheel backend's slot layout and of
 * pcc_pacer_enqueue_bulk(): a slot's inline entries overflowing into
 * chunks, handed out in several dequeues with inserts in between, a flow
 * reset among chunk entries, the horizon to the nanosecond, many
 * revolutions of a small wheel against a reference model, and the bulk
 * enqueue giving exactly what single enqueues give.  Virtual time only.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>

#include "pcc_pacer.h"
#include "pcc_pacer_drivers.h"
#include "test_eal.h"

#define LINE 100000000000ull
#define FRAME 1226             /* + 24 bytes of wire overhead: 1250 bytes, 100 ns at line rate */
#define T0 (7 * 1000000000ull) /* a multiple of every slot width used */
#define N_MBUFS 4095

static struct rte_mempool *mp;

#include "test_pacer_common.h"

static struct pcc_pacer *
wheel(uint32_t max_flows, uint32_t slot_ns, uint32_t horizon_ns, uint32_t max_queued)
{
	struct pcc_pacer_conf c;
	struct pcc_pacer *p;

	memset(&c, 0, sizeof(c));
	c.backend = "wheel";
	c.port_id = UINT16_MAX - 1;
	c.socket_id = SOCKET_ID_ANY;
	c.max_flows = max_flows;
	c.line_rate_bps = LINE;
	c.slot_ns = slot_ns;
	c.horizon_ns = horizon_ns;
	c.max_queued = max_queued;
	p = pcc_pacer_create(&c);
	assert_non_null(p);
	return p;
}

/* Dequeue at now, up to max, and check the packets against want[]. */
static unsigned int
expect(struct pcc_pacer *p, uint64_t now, uint16_t max, const struct tag *want, unsigned int n)
{
	struct rte_mbuf *out[64];
	unsigned int i, k = pcc_pacer_dequeue(p, now, out, max);

	assert_true(k <= n);
	for (i = 0; i < k; i++) {
		assert_int_equal(tag_of(out[i])->flow, want[i].flow);
		assert_int_equal(tag_of(out[i])->seq, want[i].seq);
		rte_pktmbuf_free(out[i]);
	}
	return k;
}

/*
 * 30 flows at 10 Gb/s each offer 2 packets at T0: the first ones skip the
 * wheel, the second ones (1 us later) go to one slot; a line-rate flow
 * adds 2 there at T0 + 500 and 2 more once the slot is the cursor's and
 * partly handed out: 34 entries, 9 inline and 25 in 5 chunks, handed out
 * 7 at a time, in FIFO order.
 */
static void
test_inline_to_chunks(void **state)
{
	enum {
		F = 30,
		L = 42 /* the line-rate flow */
	};
	struct pcc_pacer *p = wheel(64, 0, 0, 0);
	struct tag want[F + 4];
	struct pcc_pacer_stats st;
	struct rte_mbuf *m[8];
	unsigned int f, i, k, got = 0;

	(void)state;
	for (f = 0; f < F; f++) {
		assert_int_equal(pcc_pacer_set_rate(p, f, LINE / 10), 0);
		m[0] = pkt(f, 0, FRAME);
		m[1] = pkt(f, 1, FRAME);
		assert_int_equal(pcc_pacer_enqueue(p, f, m, 2, T0), 2);
		want[f] = (struct tag){ f, 0 };
	}
	assert_int_equal(expect(p, T0, 64, want, F), F);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.flows_active, F);
	/* line rate, 100 ns apart: 5 due in T0 + 500's slot skip the wheel,
	 * 2 go to T0 + 1000's */
	for (i = 0; i < 7; i++) {
		m[i] = pkt(L, i, FRAME);
		want[i] = (struct tag){ L, i };
	}
	assert_int_equal(pcc_pacer_enqueue(p, L, m, 7, T0 + 500), 7);
	assert_int_equal(expect(p, T0 + 500, 64, want, 5), 5);
	assert_int_equal(pcc_pacer_next_due(p), T0 + 1000);
	for (f = 0; f < F; f++)
		want[f] = (struct tag){ f, 1 };
	for (i = 0; i < 4; i++)
		want[F + i] = (struct tag){ L, 5 + i };
	assert_int_equal(expect(p, T0 + 999, 64, want, F), 0); /* not yet */
	got = expect(p, T0 + 1000, 7, want, F);
	assert_int_equal(got, 7);
	/* the flow has 2 waiting: its next 2 (1200, 1300 ns) go behind them
	 * in the cursor's slot */
	m[0] = pkt(L, 7, FRAME);
	m[1] = pkt(L, 8, FRAME);
	assert_int_equal(pcc_pacer_enqueue(p, L, m, 2, T0 + 1000), 2);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.bypassed, F + 5);
	while (got < F + 4) {
		k = expect(p, T0 + 1000, 7, want + got, F + 4 - got);
		assert_true(k > 0);
		got += k;
	}
	assert_int_equal(expect(p, T0 + 1000, 7, want, 0), 0);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.flows_active, 0);
	assert_true(pcc_pacer_next_due(p) == UINT64_MAX);
	/* the chunks are back in the pool: the slot fills again */
	for (f = 0; f < F; f++) {
		m[0] = pkt(f, 2, FRAME);
		m[1] = pkt(f, 3, FRAME);
		assert_int_equal(pcc_pacer_enqueue(p, f, m, 2, T0 + 50000), 2);
	}
	pcc_pacer_free(p);
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

/* A flow reset among inline and chunk entries: the others come out. */
static void
reset_in_chunks(uint32_t max_flows)
{
	enum {
		F = 24
	};
	struct pcc_pacer *p = wheel(max_flows, 0, 0, 0);
	struct rte_mbuf *m[2], *out[64];
	unsigned int f, i, n, avail = rte_mempool_avail_count(mp);

	for (f = 0; f < F; f++) {
		assert_int_equal(pcc_pacer_set_rate(p, f, LINE / 10), 0);
		m[0] = pkt(f, 0, FRAME);
		m[1] = pkt(f, 1, FRAME);
		assert_int_equal(pcc_pacer_enqueue(p, f, m, 2, T0), 2);
	}
	n = pcc_pacer_dequeue(p, T0, out, 64);
	assert_int_equal(n, F);
	for (i = 0; i < n; i++)
		rte_pktmbuf_free(out[i]);
	/* flows 3 (inline) and 17 (in a chunk) go */
	pcc_pacer_flow_reset(p, 3);
	pcc_pacer_flow_reset(p, 17);
	assert_int_equal(rte_mempool_avail_count(mp), avail - F + 2);
	n = pcc_pacer_dequeue(p, T0 + 1000, out, 64);
	assert_int_equal(n, F - 2);
	for (i = 0, f = 0; i < n; i++, f++) {
		if (f == 3 || f == 17)
			f++;
		assert_int_equal(tag_of(out[i])->flow, f);
		rte_pktmbuf_free(out[i]);
	}
	assert_true(pcc_pacer_next_due(p) == UINT64_MAX);
	pcc_pacer_free(p);
	assert_int_equal(rte_mempool_avail_count(mp), avail);
}

/* Also with the flow state too big to be taken as cached (2^18 flows, 6
 * MiB): dequeue then prefetches the flows a block ahead. */
static void
test_reset_in_chunks(void **state)
{
	(void)state;
	reset_in_chunks(64);
	reset_in_chunks(1u << 18);
}

/*
 * The horizon counts from the start of the cursor's slot: 8 slots of
 * 1 us.  At 1.25 Gb/s a 1250-byte frame lasts 8000 ns: the next packet is
 * 8 slots ahead, refused; after a 1249-byte one it is 7993 ns ahead, in
 * the last slot, taken.
 */
static void
test_horizon_edge(void **state)
{
	struct pcc_pacer *p = wheel(4, 1000, 8000, 0);
	struct rte_mbuf *m[2], *out[4];
	struct pcc_pacer_stats st;

	(void)state;
	assert_int_equal(pcc_pacer_set_rate(p, 0, 1250000000), 0);
	assert_int_equal(pcc_pacer_set_rate(p, 1, 1250000000), 0);
	assert_int_equal(pcc_pacer_dequeue(p, T0, out, 4), 0); /* cursor at T0 */
	m[0] = pkt(0, 0, FRAME);
	m[1] = pkt(0, 1, FRAME);
	assert_int_equal(pcc_pacer_enqueue(p, 0, m, 2, T0), 1);
	rte_pktmbuf_free(m[1]);
	m[0] = pkt(1, 0, FRAME - 1);
	m[1] = pkt(1, 1, FRAME);
	assert_int_equal(pcc_pacer_enqueue(p, 1, m, 2, T0), 2);
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.dropped, 1);
	assert_int_equal(pcc_pacer_next_due(p), T0); /* the two first ones */
	assert_int_equal(pcc_pacer_dequeue(p, T0, out, 4), 2);
	rte_pktmbuf_free(out[0]);
	rte_pktmbuf_free(out[1]);
	assert_int_equal(pcc_pacer_next_due(p), T0 + 7000);
	assert_int_equal(pcc_pacer_dequeue(p, T0 + 7000, out, 4), 1);
	assert_int_equal(tag_of(out[0])->flow, 1);
	assert_int_equal(tag_of(out[0])->seq, 1);
	rte_pktmbuf_free(out[0]);
	/* offered 300 ns into the cursor's slot, 7993 ns is 8 slots ahead */
	assert_int_equal(pcc_pacer_dequeue(p, T0 + 100000, out, 4), 0);
	m[0] = pkt(1, 2, FRAME - 1);
	m[1] = pkt(1, 3, FRAME);
	assert_int_equal(pcc_pacer_enqueue(p, 1, m, 2, T0 + 100300), 1);
	rte_pktmbuf_free(m[1]);
	assert_int_equal(pcc_pacer_dequeue(p, T0 + 100300, out, 4), 1);
	rte_pktmbuf_free(out[0]);
	pcc_pacer_free(p);
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

struct model_flow {
	uint32_t seq, out; /* next sequence number to give, to see out */
};

/*
 * A wheel of 8 slots of 1 us turned about 7 500 times: 6 flows at rates
 * from 1 to 100 Gb/s offer bursts (half through pcc_pacer_enqueue_bulk()),
 * often beyond the horizon or the queue limit of 16, time moving by up to
 * 3 us.  Every packet taken comes out once, in its flow's order.
 */
static void
test_revolutions(void **state)
{
	enum {
		F = 6,
		STEPS = 40000
	};
	static const uint64_t rates[F] = { LINE, LINE / 3, LINE / 10, LINE / 40, LINE / 100,
		LINE / 7 };
	struct pcc_pacer *p = wheel(F, 1000, 8000, 16);
	static struct model_flow fl[F];
	struct rte_mbuf *in[24], *out[64];
	uint64_t t = T0, seed = 99;
	unsigned int s, f, i, n, total = 0;

	(void)state;
	memset(fl, 0, sizeof(fl));
	for (f = 0; f < F; f++)
		assert_int_equal(pcc_pacer_set_rate(p, f, rates[f]), 0);
	for (s = 0; s < STEPS; s++) {
		uint32_t flows[4];
		uint16_t counts[4], nb = 0, j;
		unsigned int off = 0;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		for (j = 0; j < 1 + (seed >> 60) % 4; j++) {
			flows[j] = (uint32_t)((seed >> (8 * j + 4)) % F);
			counts[j] = (uint16_t)(1 + (seed >> (8 * j + 12)) % 6);
			for (i = 0; i < counts[j]; i++) {
				f = flows[j];
				in[off + i] = pkt(f, 0, 64 + (uint32_t)((seed >> (i + 20)) % 1400));
			}
			off += counts[j];
			nb++;
		}
		/* sequence numbers to what was taken */
		for (j = 0, off = 0; j < nb; j++) {
			uint16_t c = counts[j], k;

			if (s % 2 == 0) {
				k = pcc_pacer_enqueue(p, flows[j], in + off, c, t);
			} else {
				k = c;
				if (pcc_pacer_enqueue_bulk(p, &flows[j], in + off, &k, 1, t) != k)
					fail();
			}
			for (i = 0; i < c; i++) {
				struct tag *tg = rte_pktmbuf_mtod(in[off + i], struct tag *);
				struct model_flow *o = &fl[flows[j]];

				if (i >= k) {
					rte_pktmbuf_free(in[off + i]);
					continue;
				}
				tg->seq = o->seq;
				o->seq++;
			}
			off += c;
		}
		t += (seed >> 30) % 3000;
		n = pcc_pacer_dequeue(p, t, out, 64);
		for (i = 0; i < n; i++) {
			const struct tag *tg = tag_of(out[i]);

			assert_int_equal(tg->seq, fl[tg->flow].out);
			fl[tg->flow].out++;
			rte_pktmbuf_free(out[i]);
		}
		total += n;
	}
	t += 20000;
	while ((n = pcc_pacer_dequeue(p, t, out, 64)) > 0) {
		for (i = 0; i < n; i++) {
			const struct tag *tg = tag_of(out[i]);

			assert_int_equal(tg->seq, fl[tg->flow].out);
			fl[tg->flow].out++;
			rte_pktmbuf_free(out[i]);
		}
		total += n;
	}
	for (f = 0; f < F; f++)
		assert_int_equal(fl[f].out, fl[f].seq);
	assert_true(total > 50000);
	pcc_pacer_free(p);
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

/*
 * pcc_pacer_enqueue_bulk() against the same bursts through
 * pcc_pacer_enqueue() on a twin pacer: the same counts, stats, departure
 * stamps and packets out, with PCC_PACER_NO_FLOW and an invalid flow
 * among the bursts now and then (the front end's one-at-a-time path).
 */
static void
test_bulk_twin(void **state)
{
	enum {
		F = 12,
		STEPS = 3000
	};
	struct pcc_pacer *a = wheel(F, 0, 0, 8), *b = wheel(F, 0, 0, 8);
	struct rte_mbuf *ia[32], *ib[32], *oa[64], *ob[64];
	struct pcc_pacer_stats sa, sb;
	uint64_t t = T0, seed = 7;
	unsigned int s, f, i;

	(void)state;
	for (f = 0; f < F; f++) {
		uint64_t r = LINE / (1 + f * 7);

		assert_int_equal(pcc_pacer_set_rate(a, f, r), 0);
		assert_int_equal(pcc_pacer_set_rate(b, f, r), 0);
	}
	for (s = 0; s < STEPS; s++) {
		uint32_t flows[4];
		uint16_t orig[4], counts[4], nb, j, k;
		unsigned int off = 0, na, nbk;
		uint32_t taken = 0;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		nb = (uint16_t)(1 + (seed >> 62));
		for (j = 0; j < nb; j++) {
			uint64_t r = seed >> (8 * j + 3);

			flows[j] = (uint32_t)(r % F);
			if (r % 37 == 0)
				flows[j] = PCC_PACER_NO_FLOW;
			else if (r % 41 == 0)
				flows[j] = F + 5; /* invalid: refused */
			orig[j] = (uint16_t)(1 + (r >> 8) % 8);
			counts[j] = orig[j];
			for (i = 0; i < orig[j]; i++) {
				uint32_t len = 64 + (uint32_t)((r >> (i + 12)) % 1400);

				ia[off + i] = pkt(flows[j], s * 32 + off + i, len);
				ib[off + i] = pkt(flows[j], s * 32 + off + i, len);
			}
			off += orig[j];
		}
		for (j = 0, off = 0; j < nb; j++) {
			k = pcc_pacer_enqueue(a, flows[j], ia + off, orig[j], t);
			taken += k;
			for (i = k; i < orig[j]; i++)
				rte_pktmbuf_free(ia[off + i]);
			off += orig[j];
			orig[j] = k;
		}
		assert_int_equal(pcc_pacer_enqueue_bulk(b, flows, ib, counts, nb, t), taken);
		for (j = 0, off = 0; j < nb; j++) {
			uint16_t c = (uint16_t)(1 + ((seed >> (8 * j + 3)) >> 8) % 8);

			assert_int_equal(counts[j], orig[j]);
			for (i = counts[j]; i < c; i++)
				rte_pktmbuf_free(ib[off + i]);
			off += c;
		}
		t += (seed >> 20) % 4000;
		na = pcc_pacer_dequeue(a, t, oa, 64);
		nbk = pcc_pacer_dequeue(b, t, ob, 64);
		assert_int_equal(na, nbk);
		for (i = 0; i < na; i++) {
			assert_int_equal(tag_of(oa[i])->flow, tag_of(ob[i])->flow);
			assert_int_equal(tag_of(oa[i])->seq, tag_of(ob[i])->seq);
			rte_pktmbuf_free(oa[i]);
			rte_pktmbuf_free(ob[i]);
		}
		for (f = 0; f < F; f++)
			assert_true(pcc_pacer_flow_next(a, f, t) == pcc_pacer_flow_next(b, f, t));
	}
	pcc_pacer_stats_get(a, &sa);
	pcc_pacer_stats_get(b, &sb);
	assert_true(sa.enqueued > 1000);
	assert_int_equal(sa.enqueued, sb.enqueued);
	assert_int_equal(sa.dropped, sb.dropped);
	assert_int_equal(sa.bypassed, sb.bypassed);
	assert_int_equal(sa.dequeued, sb.dequeued);
	assert_int_equal(sa.flows_active, sb.flows_active);
	pcc_pacer_free(a);
	pcc_pacer_free(b);
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

/*
 * The pass-through FIFO full (64 flows x 4 queued: 256 entries): packets
 * that would skip the wheel are refused, the flow's schedule untouched;
 * what was taken comes out, the FIFO's first.
 */
static void
test_pass_fifo_full(void **state)
{
	struct pcc_pacer *p = wheel(64, 0, 0, 4);
	struct rte_mbuf *m[8], *out[64];
	struct pcc_pacer_stats st;
	unsigned int i, n, k, got = 0;

	(void)state;
	/* line rate, 100 ns apart: 5 of each burst of 8 are due in now's
	 * slot, 3 wait: 51 flows fill 255 places, the 52nd gets one */
	for (i = 0; i < 64; i++) {
		for (k = 0; k < 8; k++)
			m[k] = pkt(i, k, FRAME);
		n = pcc_pacer_enqueue(p, i, m, 8, T0);
		assert_int_equal(n, i < 51 ? 8 : i == 51 ? 1 : 0);
		if (n == 0) /* refused at once: the schedule did not move */
			assert_true(pcc_pacer_flow_next(p, i, T0) == T0);
		for (k = n; k < 8; k++)
			rte_pktmbuf_free(m[k]);
		got += n;
	}
	pcc_pacer_stats_get(p, &st);
	assert_int_equal(st.bypassed, 256);
	assert_int_equal(st.enqueued, got);
	assert_int_equal(st.dropped, 64 * 8 - got);
	assert_int_equal(st.flows_active, 51);
	/* out in order: the 256 first, then the wheel's */
	for (i = 0, n = 0; i < 64; i++) {
		unsigned int j, q = pcc_pacer_dequeue(p, T0 + 1000000, out, 64);

		for (j = 0; j < q; j++) {
			if (n < 256)
				assert_int_equal(tag_of(out[j])->seq % 8 < 5, 1);
			rte_pktmbuf_free(out[j]);
		}
		n += q;
		if (q == 0)
			break;
	}
	assert_int_equal(n, got);
	pcc_pacer_free(p);
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

/* The departure arithmetic, as pacer_drv.h has it: ns per wire byte in
 * 32.32, rounded up, the rate within 1 kb/s and the line. */
static uint64_t
ref_cost(uint64_t rate)
{
	if (rate == 0 || rate > LINE)
		rate = LINE;
	if (rate < 1000)
		rate = 1000;
	return (uint64_t)((((unsigned __int128)8000000000ull << 32) + rate - 1) / rate);
}

struct ref_flow {
	uint64_t next_ns, cost;
	uint32_t next_frac, seq, out;
	uint64_t dep[64];  /* by seq % 64: the model's departure */
	uint32_t step[64]; /* and the step that offered it */
};

/* Dequeue everything due at t (step s) and check it against the model. */
static void
model_drain(struct pcc_pacer *p, struct ref_flow *rf, uint64_t t, uint64_t t_prev, uint32_t s,
		uint64_t slot, int off)
{
	struct rte_mbuf *out[64];
	unsigned int i, n;

	while ((n = pcc_pacer_dequeue(p, t, out, 64)) > 0) {
		for (i = 0; i < n; i++) {
			const struct tag *tg = tag_of(out[i]);
			struct ref_flow *r = &rf[tg->flow];
			uint64_t dep = r->dep[tg->seq % 64], start = dep - dep % slot;

			assert_int_equal(tg->seq, r->out);
			r->out++;
			if (off > 0)
				assert_true(*RTE_MBUF_DYNFIELD(out[i], off, uint64_t *) == dep);
			/* not before its departure's slot, nor after the first
			 * dequeue since it was offered that reached that slot */
			assert_true(start <= t);
			if (r->step[tg->seq % 64] != s)
				assert_true(start > t_prev);
			rte_pktmbuf_free(out[i]);
		}
	}
	/* nothing due is left */
	assert_true(pcc_pacer_next_due(p) > t);
}

/*
 * Every departure against the arithmetic done apart in 128 bits (next =
 * max(next, now), then + wire x cost in 32.32): 8 flows from 1 kb/s to
 * line rate, frames of 64-1500 bytes and now and then of 64-70 KiB (wire
 * of 2^16 bytes or more), with and without departure stamps
 * (conf.depart_off), on the default wheel, on one of 4000 slots of 2^20
 * ns (a horizon of 4.19 s, next - base up to 2^32 ns, where a slow flow's
 * next departure is 2^32 ns or more past the cursor) and on one of 4000
 * slots of 2^20 + 1 ns (where the slot is not the 32-bit reciprocal's:
 * div32_ok false).  Each packet taken leaves in its departure's slot, at
 * the first dequeue that reaches it, in its flow's order, carrying its
 * departure if asked; the first one refused is stamped too; the flow's
 * next departure is the model's.
 */
static void
test_departure_model(void **state)
{
	enum {
		F = 8,
		STEPS = 6000,
		CFGS = 4
	};
	static const struct rte_mbuf_dynfield dyn = {
		.name = "test_pacer_wheel_departure",
		.size = sizeof(uint64_t),
		.align = __alignof__(uint64_t),
	};
	static const struct rte_mbuf_dynflag dfl = {
		.name = "test_pacer_wheel_departure_valid",
	};
	static const uint64_t rates[F] = { 1000, 1000000, 10000000, 100000000, 1000000000,
		10000000000ull, 33000000000ull, LINE };
	static const uint32_t slot_ns[CFGS] = { 500, 500, 1u << 20, (1u << 20) + 1 };
	static const uint32_t horizon_ns[CFGS] = { 0, 0, 4000u << 20, 4000u * ((1u << 20) + 1) };
	static const bool stamps[CFGS] = { true, false, true, false };
	static struct ref_flow rf[F];
	struct rte_mbuf *in[6];
	unsigned int cfg, s, f, i, slow = 0, far = 0;
	int off, bit;

	(void)state;
	off = rte_mbuf_dynfield_register(&dyn);
	bit = rte_mbuf_dynflag_register(&dfl);
	assert_true(off > 0);
	assert_true(bit >= 0);
	for (cfg = 0; cfg < CFGS; cfg++) {
		const uint64_t slot = slot_ns[cfg];
		const int soff = stamps[cfg] ? off : 0;
		struct pcc_pacer_conf c;
		struct pcc_pacer *p;
		uint64_t t = T0, seed = 31 + cfg;

		memset(&c, 0, sizeof(c));
		c.backend = "wheel";
		c.port_id = UINT16_MAX - 1;
		c.socket_id = SOCKET_ID_ANY;
		c.max_flows = F;
		c.line_rate_bps = LINE;
		c.slot_ns = slot_ns[cfg];
		c.horizon_ns = horizon_ns[cfg];
		c.max_queued = 16;
		if (stamps[cfg]) {
			c.depart_off = off;
			c.depart_flag = UINT64_C(1) << bit;
		}
		p = pcc_pacer_create(&c);
		assert_non_null(p);
		memset(rf, 0, sizeof(rf));
		for (f = 0; f < F; f++) {
			assert_int_equal(pcc_pacer_set_rate(p, f, rates[f]), 0);
			rf[f].cost = ref_cost(rates[f]);
		}
		for (s = 0; s < STEPS; s++) {
			struct ref_flow *r;
			uint64_t t0 = t;
			uint16_t cnt, k;

			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			f = (unsigned int)((seed >> 33) % F);
			r = &rf[f];
			cnt = (uint16_t)(1 + (seed >> 40) % RTE_DIM(in));
			for (i = 0; i < cnt; i++) {
				uint32_t len = 64 + (uint32_t)((seed >> (i + 7)) % 1437);

				if ((seed >> (i + 20)) % 16 == 0)
					len = 65536 + (uint32_t)((seed >> (i + 3)) % 6000);
				in[i] = pkt(f, r->seq + i, len);
				*RTE_MBUF_DYNFIELD(in[i], off, uint64_t *) = 0;
			}
			k = pcc_pacer_enqueue(p, f, in, cnt, t);
			if (r->next_ns < t) {
				r->next_ns = t;
				r->next_frac = 0;
			}
			for (i = 0; i < cnt && i <= k; i++) {
				uint64_t got = *RTE_MBUF_DYNFIELD(in[i], off, uint64_t *);
				uint32_t wire = in[i]->pkt_len + PCC_PACER_WIRE_OVERHEAD;
				unsigned __int128 d;

				/* taken, or the first refused: stamped */
				if (stamps[cfg])
					assert_true(got == r->next_ns);
				if (i == k)
					break;
				r->dep[(r->seq + i) % 64] = r->next_ns;
				r->step[(r->seq + i) % 64] = s;
				d = (unsigned __int128)wire * r->cost + r->next_frac;
				slow += wire >= (1u << 16);
				far += (uint64_t)(d >> 32) >= (1ull << 32);
				r->next_ns += (uint64_t)(d >> 32);
				r->next_frac = (uint32_t)d;
			}
			for (i = k; i < cnt; i++)
				rte_pktmbuf_free(in[i]);
			r->seq += k;
			assert_true(pcc_pacer_flow_next(p, f, t) ==
					(r->next_ns > t ? r->next_ns : t));
			/* time moves on by up to 2 slots, or (1 in 8) up to 2^32 ns */
			t += (seed >> 12) % 8 == 0 ? (seed >> 16) % (1ull << 32) :
						     (seed >> 16) % (2 * slot);
			model_drain(p, rf, t, t0, s, slot, soff);
		}
		/* past the horizon: the rest */
		model_drain(p, rf, t + 4000ull * slot + 4400ull * 500, t, STEPS, slot, soff);
		for (f = 0; f < F; f++)
			assert_int_equal(rf[f].out, rf[f].seq);
		pcc_pacer_free(p);
	}
	printf("# %u taken of 2^16 wire bytes or more, %u followed by a gap of 2^32 ns or more\n",
			slow, far);
	/* both sides of the 64-bit shortcut were taken */
	assert_true(slow > 100);
	assert_true(far > 10);
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

/*
 * A packet due at the first or last ns of a slot goes to that slot, far
 * into the horizon too (the slot number by reciprocal, wheel_fill()):
 * one flow's second packet at exactly D = now + its first one's wire x 8
 * / rate, D = m x slot_ns or m x slot_ns - 1, for distances from a few
 * slots to the whole horizon, on the default wheel (500 ns slots: the
 * 32-bit reciprocal) and on 4000 slots of 2^20 + 1 ns (the slot by
 * wheel_div(): the reciprocal would be off by one).  It comes out at the
 * dequeue at its slot's start, not at the one a ns before.
 */
static void
test_slot_edges(void **state)
{
	static const uint32_t slot_ns[2] = { 500, (1u << 20) + 1 };
	static const uint32_t horizon_ns[2] = { 0, 4000u * ((1u << 20) + 1) };
	/* ns per wire byte, exactly: 10 Mb/s, 1 kb/s */
	static const uint64_t rates[2] = { 10000000, 1000 };
	static const uint32_t ns_byte[2] = { 800, 8000000 };
	struct rte_mbuf *m[2], *out[4];
	unsigned int cfg, w, e, checked = 0;

	(void)state;
	for (cfg = 0; cfg < 2; cfg++) {
		const uint64_t d = slot_ns[cfg];
		struct pcc_pacer *p = wheel(4, slot_ns[cfg], horizon_ns[cfg], 0);
		uint64_t now = T0, span = cfg == 0 ? 4371 * 500ull : horizon_ns[1];

		assert_int_equal(pcc_pacer_set_rate(p, 0, rates[cfg]), 0);
		for (w = 1; w <= 64; w++) {
			/* gaps of 1/64 to 64/64 of the horizon, less a slot */
			uint64_t gap = (span - 2 * d) * w / 64 / ns_byte[cfg] * ns_byte[cfg];
			uint32_t wire = (uint32_t)(gap / ns_byte[cfg]);

			if (wire < 64 + PCC_PACER_WIRE_OVERHEAD)
				continue;
			for (e = 0; e < 2; e++) {
				/* D: the next slot boundary after now + gap, or 1 ns before */
				uint64_t bnd = (now + gap + 2 * d) / d * d, dep = bnd - e;
				uint64_t start = dep / d * d;

				now = dep - gap;
				assert_int_equal(pcc_pacer_dequeue(p, now, out, 4), 0);
				m[0] = pkt(0, 0, wire - PCC_PACER_WIRE_OVERHEAD);
				m[1] = pkt(0, 1, FRAME);
				assert_int_equal(pcc_pacer_enqueue(p, 0, m, 2, now), 2);
				assert_true(pcc_pacer_flow_next(p, 0, now) ==
						dep +
								(uint64_t)(FRAME +
										PCC_PACER_WIRE_OVERHEAD) *
										ns_byte[cfg]);
				assert_int_equal(pcc_pacer_dequeue(p, now, out, 4), 1);
				assert_int_equal(tag_of(out[0])->seq, 0);
				rte_pktmbuf_free(out[0]);
				assert_int_equal(pcc_pacer_dequeue(p, start - 1, out, 4), 0);
				assert_int_equal(pcc_pacer_dequeue(p, start, out, 4), 1);
				assert_int_equal(tag_of(out[0])->seq, 1);
				rte_pktmbuf_free(out[0]);
				/* the flow's schedule starts again from now */
				pcc_pacer_flow_reset(p, 0);
				assert_int_equal(pcc_pacer_set_rate(p, 0, rates[cfg]), 0);
				now = start;
				checked++;
			}
		}
		pcc_pacer_free(p);
	}
	assert_true(checked > 200);
	assert_int_equal(rte_mempool_avail_count(mp), N_MBUFS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inline_to_chunks),
		cmocka_unit_test(test_reset_in_chunks),
		cmocka_unit_test(test_horizon_edge),
		cmocka_unit_test(test_revolutions),
		cmocka_unit_test(test_bulk_twin),
		cmocka_unit_test(test_pass_fifo_full),
		cmocka_unit_test(test_departure_model),
		cmocka_unit_test(test_slot_edges),
	};

	if (test_eal_init("test_pacer_wheel", "256", "-l", "0", NULL) < 0)
		return 1;
	if (pcc_pacer_drivers_register() != 0)
		return 1;
	mp = rte_pktmbuf_pool_create("pacer_wheel", N_MBUFS, 0, 0, 256, SOCKET_ID_ANY);
	if (mp == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, test_eal_group_teardown);
}
