/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * bench_pacer's eRPC peer: eRPC's Carousel-style timing wheel
 * (erpc::TimingWheel, src/cc/timing_wheel.h of ERPC_DIR, included at build
 * time only) driven through bench_pacer's rounds; see bench_pacer_erpc.h
 * and doc/perf-pacer.md ("eRPC's wheel as a peer").
 *
 * eRPC's wheel keeps no per-flow state: eRPC's paced sender computes each
 * packet's departure from its session's Timely rate
 * (Session::cc_getupdate_tx_tsc(): the previous departure plus the
 * packet's time at the rate, or now if later) and inserts the packet
 * there.  This driver does the same, with a departure and a rate per flow
 * in one array, the packet's size read from the packet (where eRPC reads
 * its msgbuf), and inserts every packet, the ones due at once too, as eRPC
 * does for a paced session.  As eRPC's Rpc does around its wheel
 * (Rpc::enqueue_wheel_req_st(), Rpc::process_wheel_st()), it counts each
 * flow's packets in the wheel, one up per insert and one down per packet
 * out of the ready queue (SSlot::client_info_.wheel_count_, which eRPC's
 * wheel bypass reads, as our pacer keeps its own count): 24 bytes a flow,
 * and the entry names the flow (ent_of()).  With bench_pacer's
 * --prefetch N the driver prefetches its flow state N visits ahead, as
 * pcc_pacer_prefetch() does for ours.  Each round then reaps
 * the wheel at the round's end and walks the ready queue, as eRPC's
 * Rpc::process_wheel_st() does.  Wheel entries hold the packet pointers
 * (where eRPC puts SSlot pointers) and the packet's index in its burst.
 *
 * eRPC's wheel reads time as TSC cycles: its slots start at rdtsc() when
 * it is built, and then it only sees the TSC values it is given (insert()'s
 * reference and due time, reap()'s now).  The driver gives it a virtual
 * TSC: that first rdtsc() plus bench_pacer's virtual ns times the TSC
 * rate.
 */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <exception>
#include <vector>

#include "cc/timing_wheel.h"

#include "bench_pacer_erpc.h"

namespace
{
/* What eRPC's session keeps for pacing, for one flow. */
struct erpc_flow {
	size_t prev_desired_tx_tsc; /* Session::client_info_.cc_.prev_desired_tx_tsc_ */
	double rate;                /* Timely::rate_, bytes per second */
	size_t wheel_count;         /* SSlot::client_info_.wheel_count_ */
};

/*
 * A wheel entry names the packet and its flow, as eRPC's names the SSlot
 * (the flow's state, from which eRPC finds the packet): the packet's
 * address (64-byte aligned) in sslot_ with the flow's bits 16-21 in its
 * low 6 bits, bits 0-15 in pkt_num_.
 */
constexpr uint32_t kFlowsMax = 1u << 22;

inline erpc::wheel_ent_t
ent_of(void *pkt, uint32_t flow)
{
	uintptr_t a = reinterpret_cast<uintptr_t>(pkt) | (flow >> 16);

	return erpc::wheel_ent_t(reinterpret_cast<erpc::SSlot *>(a), flow & 0xffff);
}

inline void *
ent_pkt(const erpc::wheel_ent_t &ent)
{
	return reinterpret_cast<void *>(static_cast<uintptr_t>(ent.sslot_) & ~uintptr_t{ 63 });
}

inline uint32_t
ent_flow(const erpc::wheel_ent_t &ent)
{
	return static_cast<uint32_t>(((ent.sslot_ & 63) << 16) | ent.pkt_num_);
}

/* An entry's packet and due time, for a checked run (aligned as a
 * packet: ent_of()). */
struct alignas(64) due_rec {
	void *pkt;
	size_t due_tsc;
};

uint64_t
thread_ns()
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

void
say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
} // namespace

struct bench_erpc {
	erpc::HugeAlloc alloc;
	erpc::TimingWheel *wheel = nullptr;
	std::vector<erpc_flow> flows;
	double freq_ghz = 0;
	size_t slot_tsc = 0;    /* the wheel's slot width */
	size_t horizon_tsc = 0; /* the wheel's horizon */
	size_t tsc0 = 0;        /* virtual TSC at now_ns0 */
	uint64_t now_ns0 = 0;
	uint64_t now_ns = 0; /* virtual time, carried from run to run */
	std::vector<due_rec> recs;
	std::vector<uint32_t> free_recs;

	size_t vtsc(uint64_t ns) const
	{
		return tsc0 + static_cast<size_t>(static_cast<double>(ns - now_ns0) * freq_ghz);
	}
};

namespace
{
/* A packet's departure as eRPC's Session::cc_getupdate_tx_tsc() gives it. */
inline size_t
depart(erpc_flow *f, size_t ref_tsc, size_t pkt_size, double freq_ghz)
{
	double ns_delta = 1000000000 * (static_cast<double>(pkt_size) / f->rate);
	double cycle_delta = static_cast<double>(erpc::ns_to_cycles(ns_delta, freq_ghz));
	size_t desired_tx_tsc = f->prev_desired_tx_tsc + static_cast<size_t>(cycle_delta);

	return desired_tx_tsc > ref_tsc ? desired_tx_tsc : ref_tsc;
}

/* Hand out what the ready queue holds at virtual TSC now. */
template <bool kCheck>
inline uint64_t
walk_ready(bench_erpc *e, const bench_erpc_work *w, size_t now, bench_erpc_result *r)
{
	std::queue<erpc::wheel_ent_t> &q = e->wheel->ready_queue_;
	erpc_flow *flows = e->flows.data();
	size_t n = q.size();
	uint32_t top = *w->top;

	for (size_t i = 0; i < n; i++) {
		const erpc::wheel_ent_t &ent = q.front();
		void *pkt = ent_pkt(ent);

		if (kCheck) {
			due_rec *d = static_cast<due_rec *>(pkt);

			r->checked++;
			if (d->due_tsc > now + e->slot_tsc) {
				r->early++;
			} else if (now > d->due_tsc) {
				uint64_t late = static_cast<uint64_t>(
						static_cast<double>(now - d->due_tsc) /
						e->freq_ghz);

				if (late > r->late_ns_max)
					r->late_ns_max = late;
			}
			pkt = d->pkt;
			e->free_recs.push_back(static_cast<uint32_t>(d - e->recs.data()));
		}
		w->stack[top++] = pkt;
		/* Rpc::process_wheel_st(): sslot->client_info_.wheel_count_-- */
		flows[ent_flow(ent)].wheel_count--;
		q.pop();
	}
	*w->top = top;
	return n;
}

/* The rounds of one run: bench_pacer's run_pacer() loop (not inlined:
 * callgrind's --toggle-collect counts the loop alone). */
template <bool kCheck>
__attribute__((noinline)) uint64_t
run_rounds(bench_erpc *e, const bench_erpc_work *w, bench_erpc_result *r)
{
	erpc::TimingWheel *wheel = e->wheel;
	erpc_flow *flows = e->flows.data();
	const double freq_ghz = e->freq_ghz;
	uint64_t t = e->now_ns, out = 0;
	uint32_t v = 0;

	while (out < w->packets) {
		const size_t ref_tsc = e->vtsc(t);

		for (uint32_t i = 0; i < w->per_round; i++) {
			const uint32_t fi = w->seq[v++];
			erpc_flow *f = &flows[fi];
			void **pkts = &w->stack[*w->top - w->burst];
			uint32_t k;

			if (v == w->n_seq)
				v = 0;
			if (w->prefetch != 0)
				__builtin_prefetch(
						&flows[w->seq[(v + w->prefetch) & (w->n_seq - 1)]]);
			for (k = 0; k < w->burst; k++) {
				void *ent = pkts[k];
				uint32_t len;
				size_t due;

				memcpy(&len, static_cast<char *>(ent) + w->len_off, sizeof(len));
				due = depart(f, ref_tsc, len + w->overhead, freq_ghz);

				if (unlikely(due - ref_tsc > e->horizon_tsc))
					break;
				f->prev_desired_tx_tsc = due;
				if (kCheck) {
					uint32_t ri = e->free_recs.back();

					e->free_recs.pop_back();
					e->recs[ri].pkt = pkts[k];
					e->recs[ri].due_tsc = due;
					ent = &e->recs[ri];
				}
				wheel->insert(ent_of(ent, fi), ref_tsc, due);
				/* Rpc::enqueue_wheel_req_st(): wheel_count_++ */
				f->wheel_count++;
			}
			if (unlikely(k < w->burst)) {
				memmove(pkts, pkts + k, (w->burst - k) * sizeof(pkts[0]));
				r->refused += w->burst - k;
			}
			*w->top -= k;
			r->in += k;
		}
		t += w->round_ns;
		const size_t now = e->vtsc(t);

		wheel->reap(now);
		out += walk_ready<kCheck>(e, w, now, r);
	}
	e->now_ns = t;
	return out;
}

template <bool kCheck>
void
run_one(bench_erpc *e, const bench_erpc_work *w, bench_erpc_result *r)
{
	uint64_t start = thread_ns();
	uint64_t out = run_rounds<kCheck>(e, w, r);
	uint64_t end = thread_ns();

	r->ns_pkt = static_cast<double>(end - start) / static_cast<double>(out);
	r->out = out;
	/* untimed: past the horizon everything left is due (its lateness is
	 * the drain's, not the wheel's) */
	e->now_ns += static_cast<uint64_t>(erpc::kWheelHorizonUs * 1000) + 2000;
	const size_t now = e->vtsc(e->now_ns);
	const uint64_t late_ns_max = r->late_ns_max;

	e->wheel->reap(now);
	r->out += walk_ready<kCheck>(e, w, now, r);
	r->late_ns_max = late_ns_max;
}
} // namespace

extern "C" struct bench_erpc *
bench_erpc_create(uint32_t n_flows, uint64_t rate_bps, uint64_t tsc_hz, char *err, size_t errlen)
{
	bench_erpc *e = nullptr;

	if (n_flows > kFlowsMax) {
		say(err, errlen, "eRPC wheel: %u flows, at most %u", n_flows, kFlowsMax);
		return nullptr;
	}
	try {
		e = new bench_erpc;
		e->freq_ghz = static_cast<double>(tsc_hz) / 1e9;
		e->slot_tsc = erpc::us_to_cycles(erpc::kWheelSlotWidthUs, e->freq_ghz);
		e->horizon_tsc = erpc::us_to_cycles(erpc::kWheelHorizonUs, e->freq_ghz);
		e->wheel = new erpc::TimingWheel(
				erpc::timing_wheel_args_t{ e->freq_ghz, &e->alloc });
		/* the wheel's slots start at the rdtsc() it read: virtual time
		 * starts just after */
		e->tsc0 = erpc::rdtsc();
		e->now_ns0 = 1000000000ull;
		e->now_ns = e->now_ns0;
		e->flows.assign(n_flows, erpc_flow{ e->tsc0, static_cast<double>(rate_bps) / 8, 0 });
		return e;
	} catch (const std::exception &x) {
		say(err, errlen, "eRPC wheel: %s", x.what());
	}
	if (e != nullptr)
		delete e->wheel;
	delete e;
	return nullptr;
}

extern "C" int
bench_erpc_run(struct bench_erpc *e, const struct bench_erpc_work *w, bool check,
		struct bench_erpc_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	for (uint32_t i = 0; i < *w->top; i++) {
		if ((reinterpret_cast<uintptr_t>(w->stack[i]) & 63) != 0) {
			say(err, errlen, "eRPC wheel: packet %p not 64-byte aligned", w->stack[i]);
			return -1;
		}
	}
	try {
		if (check) {
			e->recs.resize(w->capacity);
			e->free_recs.clear();
			for (uint32_t i = w->capacity; i > 0; i--)
				e->free_recs.push_back(i - 1);
			run_one<true>(e, w, r);
		} else {
			run_one<false>(e, w, r);
		}
	} catch (const std::exception &x) {
		say(err, errlen, "eRPC wheel: %s", x.what());
		return -1;
	}
	if (!e->wheel->ready_queue_.empty()) {
		say(err, errlen, "eRPC wheel: %zu entries left in the ready queue",
				e->wheel->ready_queue_.size());
		return -1;
	}
	/* all out: every flow's count is back to 0 (the entries named their
	 * flows right) */
	for (size_t i = 0; i < e->flows.size(); i++) {
		if (e->flows[i].wheel_count != 0) {
			say(err, errlen, "eRPC wheel: flow %zu: wheel count %zu after the drain",
					i, e->flows[i].wheel_count);
			return -1;
		}
	}
	return 0;
}

extern "C" size_t
bench_erpc_mem_wheel(const struct bench_erpc *e)
{
	return e->alloc.bytes();
}

extern "C" size_t
bench_erpc_mem_flows(const struct bench_erpc *e)
{
	return e->flows.size() * sizeof(erpc_flow);
}

extern "C" void
bench_erpc_free(struct bench_erpc *e)
{
	if (e == nullptr)
		return;
	delete e->wheel;
	delete e;
}
