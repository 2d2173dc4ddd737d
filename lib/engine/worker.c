/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The poll loop of a worker lcore and the RX dispatch by packet kind.
 *
 * One round: read the clock of every port the lcore works on (once), then
 * for every RX queue: receive a burst and dispatch it (unless a ring to
 * another lcore lacks room for what a burst may hand over: backpressure,
 * doc/engine.md "Steering"); take event records
 * and forwarded packets other lcores handed over; on every RP port:
 * transmit what the pacer has due, let the generator refill the flows'
 * pacer queues (and transmit at once what of it is due), and run the flow
 * housekeeping (TX-coalescing flush, timers, aging); none of this while
 * the engine is held (pcc_engine_hold).  Then run-time control, the
 * hooks' round work and the poll hook, if any, with the time until which
 * the lcore has nothing to do.
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "engine_internal.h"
#include "engine_np.h"
#include "pcc_dev_svc.h"

/* Index in parse_err[] of a pcc_parse_mbuf() error; 0 for an unknown one. */
static inline unsigned int
parse_err_idx(int err)
{
	return (err < 0 && err > PCC_PROTO_ERR_MAX) ? (unsigned int)-err : 0;
}

static inline bool
is_cc_kind(unsigned int kind)
{
	return kind == PCC_PKT_CNP || kind == PCC_PKT_ROCE_ACK || kind == PCC_PKT_ROCE_NAK ||
			kind == PCC_PKT_PROBE_RESP;
}

static inline bool
is_ifa_kind(unsigned int kind)
{
	return kind == PCC_PKT_IFA1 || kind == PCC_PKT_IFA2;
}

static inline bool
is_np_kind(unsigned int kind)
{
	return kind == PCC_PKT_ROCE_DATA || kind == PCC_PKT_PROBE_REQ || kind == PCC_PKT_IFA1 ||
			kind == PCC_PKT_IFA2;
}

/* Frames of a burst matched by pcc_cc_match_raw() at a time. */
#define CC_CHUNK 64

/* What the CC lane found in up to CC_CHUNK frames of a burst. */
struct cc_chunk {
	uint64_t lane;    /* bit j: frame j matched, into cc[] in order */
	uint64_t icrc_ok; /* bit k: cc[k]'s ICRC is right (or the port's word) */
	struct pcc_cc_frame cc[CC_CHUNK];
};

/*
 * The CNPs and RC ACK/NAKs among pkts[0..n) (n <= CC_CHUNK), recognised
 * without a parse, then their ICRCs checked together (several to a
 * vector): unless the port verified them.
 */
static inline void
cc_chunk_scan(const struct eng_rxq *q, struct rte_mbuf **pkts, unsigned int n, uint64_t ifa1_marker,
		struct cc_chunk *ch)
{
	const uint8_t *frames[CC_CHUNK];
	unsigned int j, k = 0;

	ch->lane = 0;
	for (j = 0; j < n; j++) {
		const struct rte_mbuf *m = pkts[j];
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

		if (j + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[j + 1], void *));
		if (likely(m->nb_segs == 1) &&
				pcc_cc_match_raw(p, m->data_len, ifa1_marker, &ch->cc[k])) {
			frames[k++] = p;
			ch->lane |= UINT64_C(1) << j;
		}
	}
	ch->icrc_ok = !q->icrc_sw ? UINT64_MAX : k > 0 ? pcc_cc_icrc_ok_bulk(frames, ch->cc, k) : 0;
}

/*
 * Classify a burst.  Malformed packets are counted by reason and dropped;
 * every other frame is counted once by what became of it (rx_fate[]:
 * here, or by the RP and NP runners).
 * On the host side of forward mode every packet is forwarded.  Otherwise:
 * CC packets (CNP, ACK/NAK, probe responses, and IFA probes answering ours)
 * on an RP port go to the RP runner; data and probe requests on an NP port
 * go to the NP runner (and ACK/NAKs on an NP-only port, to learn sender
 * QPNs); on the wire side of forward mode everything else goes back to
 * the host; the rest is counted by kind and freed.
 */
static void
rx_dispatch(struct eng_lcore *lc, const struct eng_rxq *q, struct rte_mbuf **pkts, uint16_t n,
		uint64_t now)
{
	const struct pcc_engine *e = lc->e;
	struct pcc_engine_port_stats *pc = &lc->pctr[q->pidx];
	struct rte_mbuf **sel = lc->burst_pkts;
	struct pcc_pkt_info *infos = lc->burst_infos;
	struct rte_mbuf *done[PCC_ENGINE_BURST_MAX];
	struct rte_mbuf *back[PCC_ENGINE_BURST_MAX];
	struct rte_mbuf *tx[PCC_ENGINE_BURST_MAX];
	const bool rp = (q->roles & PCC_ENGINE_ROLE_RP) != 0;
	const bool np = (q->roles & PCC_ENGINE_ROLE_NP) != 0;
	const bool host = (q->roles & PCC_ENGINE_ROLE_FWD) != 0;
	const bool wire = rp && e->fwd_b == (int16_t)q->pidx;
	/* CNPs and ACK/NAKs on an RP port go to the RP runner whatever its
	 * other roles (but on the host side of forward mode): the commonest
	 * are recognised without a parse */
	const bool cc_lane = rp && !host && pcc_cc_opts_ok(&e->popts);
	const uint64_t ifa1_marker = e->popts.ifa1_marker;
	const uint16_t nb_rx = n;
	uint16_t nb_done = 0, nb_sel = 0, nb_back = 0, i, ntx = 0, nb_fast = 0;
	uint64_t bytes = 0, tx_bytes = 0;
	bool has_pend = false;
	struct cc_chunk ch;
	unsigned int kc = 0;
	struct eng_ev pend;

	/* CCMAD probe requests in the RP's layout: answered at once (an
	 * answer is as long as its request: the bytes counted are also the
	 * answers') */
	if (np && !host) {
		n = eng_np_fast_rx(lc, q, pkts, n, now, tx, &ntx, &bytes);
		nb_fast = ntx;
		tx_bytes = bytes;
	}
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m;
		struct pcc_pkt_info *info;
		unsigned int kind;
		int ret, fate;

		if (cc_lane && i % CC_CHUNK == 0) {
			const unsigned int nc = RTE_MIN(n - i, CC_CHUNK);

			cc_chunk_scan(q, pkts + i, nc, ifa1_marker, &ch);
			kc = 0;
			/* all of them (the common case): in one loop */
			if (ch.lane == UINT64_MAX >> (64 - nc)) {
				bytes += eng_rp_rx_cc_burst(lc, q, pkts + i, ch.cc, nc, ch.icrc_ok,
						now, &pend, &has_pend);
				memcpy(done + nb_done, pkts + i, nc * sizeof(done[0]));
				nb_done = (uint16_t)(nb_done + nc);
				i = (uint16_t)(i + nc - 1);
				continue;
			}
		}
		m = pkts[i];
		info = &infos[nb_sel];
		bytes += m->pkt_len;
		if (cc_lane) {
			if ((ch.lane >> (i % CC_CHUNK)) & 1) {
				const struct pcc_cc_frame *cc = &ch.cc[kc];

				eng_ctr_add(&pc->rx_kind[cc->kind], 1);
				fate = eng_rp_rx_cc(lc, q, m, cc, (ch.icrc_ok >> kc) & 1, now,
						&pend, &has_pend);
				kc++;
				eng_fate(pc, (unsigned int)fate, 1);
				done[nb_done++] = m;
				continue;
			}
		} else if (i + 1 < n) {
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		}
		ret = pcc_parse_mbuf(m, &e->popts, info);
		if (ret < 0) {
			eng_ctr_add(&pc->parse_err[parse_err_idx(ret)], 1);
			done[nb_done++] = m;
			continue;
		}
		kind = info->kind < PCC_PKT_KIND_MAX ? info->kind : PCC_PKT_OTHER;
		eng_ctr_add(&pc->rx_kind[kind], 1);
		if (host) {
			sel[nb_sel++] = m;
			continue;
		}
		/* an IFA packet on a port with both roles is a request for
		 * the NP unless it is the answer to one of our probes */
		if (rp &&
				(is_cc_kind(kind) ||
						(is_ifa_kind(kind) &&
								(!np || eng_probe_is_resp(m, info))))) {
			fate = eng_rp_rx(lc, q, m, info, now, &pend, &has_pend);
			if (fate >= 0) {
				eng_fate(pc, (unsigned int)fate, 1);
				done[nb_done++] = m;
				continue;
			}
		}
		/* NP-only ports learn sender QPNs from reverse ACK/NAKs */
		if (np &&
				(is_np_kind(kind) ||
						(!rp &&
								(kind == PCC_PKT_ROCE_ACK ||
										kind == PCC_PKT_ROCE_NAK)))) {
			sel[nb_sel++] = m;
			continue;
		}
		if (wire) {
			back[nb_back++] = m;
			continue;
		}
		/* well formed, for no role of this port */
		eng_fate(pc, PCC_ENGINE_FATE_NOT_MINE, 1);
		done[nb_done++] = m;
	}
	if (has_pend)
		eng_rp_post(lc, q->pidx, &pend);
	eng_rp_flush(lc);
	if (nb_fast > 0)
		eng_fate(pc, PCC_ENGINE_FATE_NP_PROBE_ANSWERED, nb_fast);
	if (host && nb_sel > 0)
		eng_fate(pc, PCC_ENGINE_FATE_FWD_HOST, nb_sel);
	if (nb_back > 0)
		eng_fate(pc, PCC_ENGINE_FATE_FWD_BACK, nb_back);
	eng_ctr_add(&pc->rx_pkts, nb_rx);
	eng_ctr_add(&pc->rx_bytes, bytes);
	if (nb_done > 0)
		eng_rx_free(done, nb_done);
	if (nb_sel > 0 && host)
		eng_fwd_host_rx(lc, q, sel, infos, nb_sel);
	else if (nb_sel > 0)
		ntx += eng_np_rx(lc, q, sel, infos, nb_sel, now, tx + ntx,
				(uint16_t)(PCC_ENGINE_BURST_MAX - ntx));
	for (i = nb_fast; i < ntx; i++)
		tx_bytes += tx[i]->pkt_len;
	if (ntx > 0)
		eng_tx_sum(q->port_id, q->tx_queue, pc, tx, ntx, tx_bytes);
	if (nb_back > 0)
		eng_fwd_wire_rx(lc, q, back, nb_back);
}

/* The start of the lcore's run: clocks, generator start times. */
static void
loop_start(struct eng_lcore *lc)
{
	const bool abs_start = lc->e->conf.gen.abs_start;
	uint16_t i;

	pcc_dev_thread_set_rank(lc->rank);
	for (i = 0; i < lc->nb_lports; i++) {
		struct eng_lport *lp = lc->lports[i];

		lp->now = eng_clock_now(lp->clk);
		lp->start_ns = lp->now;
		if (lp->gen != NULL)
			eng_gen_arm(lp->gen, abs_start ? 0 : lp->start_ns);
	}
}

/*
 * When lc has something to do next without a packet arriving: the
 * earliest pacer departure, generator packet or flow start, TX-coalescing
 * flush, timer or aging of its ports; PCC_ENGINE_POLL_BUSY when that is
 * now (or a packet waits in a buffer or ring).
 */
static uint64_t
idle_deadline(struct eng_lcore *lc)
{
	uint64_t d = UINT64_MAX;
	uint16_t i;

	for (i = 0; i < lc->nb_lports; i++) {
		struct eng_lport *lp = lc->lports[i];
		uint64_t now = lp->now;

		if (lp->txb_n > 0)
			return PCC_ENGINE_POLL_BUSY;
		if (lp->pacer == NULL)
			continue;
		d = RTE_MIN(d, pcc_pacer_next_due(lp->pacer));
		if (lp->gen != NULL)
			d = RTE_MIN(d, eng_gen_deadline(lc, lp, now));
		d = RTE_MIN(d, eng_rp_hk_deadline(lc, lp, now));
		if (d <= now)
			return PCC_ENGINE_POLL_BUSY;
	}
	for (i = 0; i < lc->nb_xin; i++)
		if (rte_ring_count(lc->xin[lc->xin_rank[i]]) != 0)
			return PCC_ENGINE_POLL_BUSY;
	return d;
}

uint64_t
pcc_engine_idle_deadline(const struct pcc_engine *e, unsigned int lcore_id)
{
	if (e == NULL || lcore_id >= RTE_MAX_LCORE || e->lcores[lcore_id] == NULL)
		return PCC_ENGINE_POLL_BUSY;
	return idle_deadline(e->lcores[lcore_id]);
}

/*
 * After a round in which lp's pacer, generator and housekeeping did
 * nothing: the earliest port time one of them can act unless an RX event
 * changing what they act on (results applied), a rate set by the host or
 * an eviction of one of its flows comes first (those call
 * eng_lport_wake()).  The rounds before it skip them (port_skip()) with
 * the same outcome: they would have done nothing.  0 (poll the next round) for a generator whose idle rounds
 * change more than port_skip() does (eng_gen_wake()).  Forwarding is not
 * skipped (worker_loop()): it paces packets from the RX path into a wheel
 * whose cursor skipped rounds did not move.  One round's worth of
 * deadline look-ups; a port that sends every few rounds (the simulator's
 * incast senders) skips most of its rounds.
 */
static uint64_t
port_wake(struct eng_lcore *lc, struct eng_lport *lp)
{
	uint64_t now = lp->now, d;

	if (lp->txb_n > 0)
		return 0;
	d = pcc_pacer_next_due(lp->pacer);
	if (d <= now)
		return 0;
	if (lp->gen != NULL) {
		d = RTE_MIN(d, eng_gen_wake(lc, lp, now));
		if (d <= now)
			return 0;
	}
	return RTE_MIN(d, eng_rp_hk_deadline(lc, lp, now));
}

/* A new run of the loop: the ports' clocks may have changed meanwhile. */
static void
lcore_wake(struct eng_lcore *lc)
{
	uint16_t i;

	for (i = 0; i < lc->nb_lports; i++)
		eng_lport_wake(lc->lports[i]);
}

/* A round that does not poll lp's pacer, generator and housekeeping:
 * the pacer's clock as a dequeue that found nothing leaves it. */
static inline void
port_skip(struct eng_lport *lp)
{
	pcc_pacer_advance(lp->pacer, lp->now);
}

/* Most poll rounds a stopping lcore spends draining its RX queues. */
#define ENG_DRAIN_ROUNDS_MAX 64

/*
 * After the stop: no new traffic, but what is already on the wire towards
 * this lcore (CNPs answering our last packets, probe responses, the last
 * data for an NP) is still processed and counted, until two rounds in a
 * row find nothing.  On ring ports polled by one lcore that is everything;
 * across lcores or processes it is what arrived in time.
 */
static void
drain(struct eng_lcore *lc)
{
	struct rte_mbuf *pkts[PCC_ENGINE_BURST_MAX];
	const uint16_t burst = lc->e->conf.burst;
	unsigned int round, idle = 0;
	uint32_t i;

	for (round = 0; round < ENG_DRAIN_ROUNDS_MAX && idle < 2; round++) {
		uint32_t work = 0;

		for (i = 0; i < lc->nb_lports; i++) {
			struct eng_lport *lp = lc->lports[i];

			if (lp->rxq != NULL || lp->pacer != NULL)
				lp->now = eng_clock_now(lp->clk);
		}
		for (i = 0; i < lc->nb_rxq; i++) {
			const struct eng_rxq *q = &lc->rxq[i];
			uint16_t n;

			n = rte_eth_rx_burst(q->port_id, q->queue_id, pkts, burst);
			if (n > 0) {
				rx_dispatch(lc, q, pkts, n, q->lp->now);
				work += n;
			}
		}
		if (lc->nb_xin > 0)
			work += eng_rp_xring_poll(lc);
		idle = work == 0 ? idle + 1 : 0;
		eng_ctr_add(&lc->beat, 1);
	}
}

static int
worker_loop(struct eng_lcore *lc, pcc_engine_tick_t tick, void *arg, uint32_t tick_us)
{
	struct pcc_engine *e = lc->e;
	const uint16_t burst = e->conf.burst;
	const uint32_t idle_us = e->conf.idle_sleep_us;
	const uint64_t tick_cycles = e->tsc_hz * RTE_MAX(tick_us, 1u) / US_PER_S;
	const bool fwd = e->fwd_b >= 0;
	struct rte_mbuf *pkts[PCC_ENGINE_BURST_MAX];
	uint64_t tsc, next_tick;
	uint32_t i;

	if (!lc->loop_started) {
		loop_start(lc);
		lc->loop_started = true;
	}
	lcore_wake(lc);
	next_tick = rte_rdtsc() + tick_cycles;

	while (!__atomic_load_n(&e->stop, __ATOMIC_RELAXED)) {
		uint32_t work = 0, hk = 0;
		bool skip;

		for (i = 0; i < lc->nb_lports; i++) {
			struct eng_lport *lp = lc->lports[i];

			if (lp->rxq != NULL || lp->pacer != NULL)
				lp->now = eng_clock_now(lp->clk);
		}
		/* every port held (pcc_engine_hold) */
		if (unlikely(__atomic_load_n(&e->held, __ATOMIC_ACQUIRE) != 0))
			goto control;
		for (i = 0; i < lc->nb_rxq; i++) {
			const struct eng_rxq *q = &lc->rxq[i];
			uint16_t n;

			/* a stopped context's port (pcc_engine_port_pause) */
			if (unlikely(eng_port_paused(e, q->pidx)))
				continue;
			/* backpressure: no room to hand a burst over, the
			 * packets wait in the RX queue (eng_xout_room) */
			if (lc->nb_xout > 0 &&
					(q->roles & (PCC_ENGINE_ROLE_RP | PCC_ENGINE_ROLE_FWD)) &&
					unlikely(!eng_xout_room(lc, burst))) {
				eng_ctr_add(&lc->pctr[q->pidx].xring_wait, 1);
				continue;
			}
			n = rte_eth_rx_burst(q->port_id, q->queue_id, pkts, burst);
			if (n > 0) {
				rx_dispatch(lc, q, pkts, n, q->lp->now);
				work += n;
			}
		}
		if (lc->nb_xin > 0) {
			work += eng_rp_xring_poll(lc);
			if (fwd)
				work += eng_fwd_ring_poll(lc);
		}
		skip = !fwd && !__atomic_load_n(&e->no_port_skip, __ATOMIC_RELAXED);
		for (i = 0; i < lc->nb_lports; i++) {
			struct eng_lport *lp = lc->lports[i];
			uint32_t before = work + hk;

			if (lp->pacer == NULL || unlikely(eng_port_paused(e, lp->pidx)))
				continue;
			if (skip && lp->now < lp->wake) {
				port_skip(lp);
				eng_ctr_add(&lc->port_skips, 1);
				continue;
			}
			/* what is due first: it also brings the pacer's
			 * clock up to now before new packets are offered */
			work += eng_rp_pacer_run(lc, lp, lp->now);
			/* new packets that are due leave in this round */
			if (lp->gen != NULL && eng_gen_run(lc, lp, lp->now) > 0)
				work += 1 + eng_rp_pacer_run(lc, lp, lp->now);
			hk += eng_rp_housekeep(lc, lp, lp->now);
			lp->wake = skip && work + hk == before ? port_wake(lc, lp) : 0;
		}
control:
		/* run-time control requests (ctl.c) */
		if (unlikely(!rte_ring_empty(lc->ctl)))
			work += eng_ctl_poll(lc);
		/* what the layer above runs on its workers (mailboxes) */
		if (e->hooks.round != NULL)
			work += e->hooks.round(e->hooks.arg);
		eng_ctr_add(&lc->polls, 1);
		eng_ctr_add(&lc->beat, 1);
		if (work > 0)
			eng_ctr_add(&lc->busy_polls, 1);
		else if (idle_us > 0)
			rte_delay_us_sleep(idle_us);
		if (lc->hook != NULL &&
				lc->hook(lc->hook_arg,
						work + hk > 0 ? PCC_ENGINE_POLL_BUSY :
								idle_deadline(lc)) != 0)
			pcc_engine_stop(e);
		if (tick != NULL) {
			tsc = rte_rdtsc();
			if (tsc >= next_tick) {
				int r = tick(arg);

				next_tick = tsc + tick_cycles;
				if (r < 0)
					return 0; /* leave; the engine runs on */
				if (r > 0)
					pcc_engine_stop(e);
			}
		}
	}
	if (lc->hook == NULL)
		drain(lc);
	return 0;
}

/* The arguments of one worker_loop() run, for the run hook. */
struct loop_args {
	struct eng_lcore *lc;
	pcc_engine_tick_t tick;
	void *arg;
	uint32_t tick_us;
};

static int
loop_run(void *p)
{
	const struct loop_args *la = p;

	return worker_loop(la->lc, la->tick, la->arg, la->tick_us);
}

/*
 * The poll loop, through the run hook when one is installed (lib/host
 * wraps it in its fault guard: a fault inside an algorithm stops the
 * engine and the hook returns -EFAULT).
 */
int
eng_worker_loop(struct eng_lcore *lc, pcc_engine_tick_t tick, void *arg, uint32_t tick_us)
{
	const struct pcc_engine_hooks *h = &lc->e->hooks;
	struct loop_args la = { .lc = lc, .tick = tick, .arg = arg, .tick_us = tick_us };
	int ret;

	__atomic_store_n(&lc->in_loop, 1, __ATOMIC_RELEASE);
	if (h->run == NULL)
		ret = loop_run(&la);
	else
		ret = h->run(h->arg, lc->lcore_id, loop_run, &la);
	__atomic_store_n(&lc->in_loop, 0, __ATOMIC_RELEASE);
	if (ret < 0)
		ENG_LOG(ERR, "lcore %u: the poll loop ended with %s", lc->lcore_id, strerror(-ret));
	return ret;
}

int
pcc_engine_lcore_progress(
		const struct pcc_engine *e, unsigned int lcore_id, uint64_t *beat, bool *in_loop)
{
	const struct eng_lcore *lc;

	if (e == NULL || lcore_id >= RTE_MAX_LCORE || e->lcores[lcore_id] == NULL)
		return -ENOENT;
	lc = e->lcores[lcore_id];
	*in_loop = __atomic_load_n(&lc->in_loop, __ATOMIC_ACQUIRE) != 0;
	*beat = eng_ctr_read(&lc->beat);
	return 0;
}

int
eng_worker_main(void *arg)
{
	struct eng_lcore *lc = arg;

	ENG_LOG(DEBUG, "lcore %u: polling %u RX queues", lc->lcore_id, lc->nb_rxq);
	return eng_worker_loop(lc, NULL, NULL, 0);
}
