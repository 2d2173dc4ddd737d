/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PACER_DRV_H
#define PACER_DRV_H

/*
 * What the pacer backends share: the log type and the per-flow departure
 * arithmetic, so that wheel and txpp compute identical departure times.
 */

#include <stdint.h>

#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "pcc_pacer.h"

extern int pacer_drv_logtype;

#define DRV_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pacer_drv_logtype, "pcc.pacer: " fmt "\n", ##__VA_ARGS__)

extern const struct pcc_pacer_ops pacer_wheel_ops;
extern const struct pcc_pacer_ops pacer_txpp_ops;
extern const struct pcc_pacer_ops pacer_mtr_ops;

/* Rates below this are paced at this (a 1500-byte frame every 12 s). */
#define PACER_RATE_MIN 1000ull

/*
 * A flow's schedule, 24 bytes.  next is the earliest departure of the
 * flow's next packet, in ns with a 32-bit binary fraction: the fraction
 * keeps the rate exact at 100 Gb/s, where a 64-byte frame lasts 7.04 ns.
 */
struct pacer_tb {
	uint64_t next_ns;
	uint64_t cost;      /* ns per wire byte, 32.32 fixed point */
	uint32_t next_frac; /* 2^-32 ns */
	uint16_t aux;       /* the backend's (wheel: packets queued) */
	uint16_t last_wire; /* wire bytes of the last packet scheduled (0: none),
	                     * pacer_wire_enc() */
};

/*
 * The last packet's wire bytes in 16 bits: below 32 Ki exact, else in
 * units of 32 bytes, rounded down (up to 1 MiB; larger is taken as 1 MiB).
 * pacer_rescale() takes the gap after the packet as these bytes at the
 * old rate: never more than the gap itself, and off by less than 32
 * bytes' worth for a packet of 32 Ki or more (a TSO or multi-segment
 * frame; before 2026-11-28 such a packet counted as 65535 bytes, and a
 * rate raised in its gap kept most of the old one).
 */
#define PACER_WIRE_EXACT 0x8000u
#define PACER_WIRE_SHIFT 5

static inline uint16_t
pacer_wire_enc(uint32_t wire)
{
	if (wire < PACER_WIRE_EXACT)
		return (uint16_t)wire;
	wire >>= PACER_WIRE_SHIFT;
	return (uint16_t)(PACER_WIRE_EXACT |
			(wire < PACER_WIRE_EXACT ? wire : PACER_WIRE_EXACT - 1));
}

static inline uint32_t
pacer_wire_dec(uint16_t v)
{
	if (v < PACER_WIRE_EXACT)
		return v;
	return (uint32_t)(v & (PACER_WIRE_EXACT - 1)) << PACER_WIRE_SHIFT;
}

/* ns per wire byte in 32.32 fixed point, rounded up (never faster than
 * the rate); 0 or above line rate = line rate. */
static inline uint64_t
pacer_cost(uint64_t rate_bps, uint64_t line_bps)
{
	if (rate_bps == 0 || rate_bps > line_bps)
		rate_bps = line_bps;
	if (rate_bps < PACER_RATE_MIN)
		rate_bps = PACER_RATE_MIN;
	return (uint64_t)((((unsigned __int128)8000000000ull << 32) + rate_bps - 1) / rate_bps);
}

/* Departure of the flow's next packet if it is offered at now:
 * max(previous departure + previous size / rate, now). */
static inline uint64_t
pacer_depart(const struct pacer_tb *f, uint64_t now, uint32_t *frac)
{
	if (f->next_ns < now) {
		*frac = 0;
		return now;
	}
	*frac = f->next_frac;
	return f->next_ns;
}

/* The departure pacer_depart() would give, without its fraction. */
static inline uint64_t
pacer_next(const struct pacer_tb *f, uint64_t now)
{
	return f->next_ns < now ? now : f->next_ns;
}

/* The packet of wire bytes leaves at (dep, frac): the next one may leave
 * wire x 8 / rate later. */
static inline void
pacer_advance(struct pacer_tb *f, uint64_t dep, uint32_t frac, uint32_t wire)
{
	unsigned __int128 d = (unsigned __int128)wire * f->cost + frac;

	f->next_ns = dep + (uint64_t)(d >> 32);
	f->next_frac = (uint32_t)d;
	f->last_wire = pacer_wire_enc(wire);
}

/* Write the departure dep into m when the pacer was asked to
 * (pcc_pacer_conf.depart_off). */
static inline void
pacer_stamp(struct rte_mbuf *m, int off, uint64_t flag, uint64_t dep)
{
	if (off > 0) {
		*RTE_MBUF_DYNFIELD(m, off, uint64_t *) = dep;
		m->ol_flags |= flag;
	}
}

/*
 * A new cost for a flow: the gap after its last scheduled packet takes
 * the new rate, next = last departure + last size / new rate, as the HPCC
 * reference's ChangeRate moves m_nextAvail.  Packets already scheduled
 * (queued in the backend, or handed out and waiting in a NIC for their
 * departure) keep their departures, and next never moves before the last
 * of them: no reordering.  A rate cut thus reaches the very next packet
 * not yet scheduled, and a flow slowed to a trickle that waits long for
 * its next departure leaves at once at a higher rate.
 */
static inline void
pacer_rescale(struct pacer_tb *f, uint64_t now, uint64_t cost)
{
	unsigned __int128 next, d_old, d_new;

	if (f->last_wire != 0 && f->cost != 0 && cost != f->cost && f->next_ns > now) {
		next = ((unsigned __int128)f->next_ns << 32) + f->next_frac;
		d_old = (unsigned __int128)pacer_wire_dec(f->last_wire) * f->cost;
		d_new = (unsigned __int128)pacer_wire_dec(f->last_wire) * cost;
		next = next - d_old + d_new; /* next >= d_old: advanced by it */
		if ((uint64_t)(next >> 32) < now) {
			f->next_ns = now;
			f->next_frac = 0;
		} else {
			f->next_ns = (uint64_t)(next >> 32);
			f->next_frac = (uint32_t)next;
		}
	}
	f->cost = cost;
}

#endif /* PACER_DRV_H */
