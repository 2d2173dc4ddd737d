/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef ENGINE_CLOCK_H
#define ENGINE_CLOCK_H

/* The per-port time source (clock.c); part of engine_internal.h. */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "pcc_engine.h"

/* ---- Clock (clock.c) -------------------------------------------------- */

/* What the clock needs from the system: replaced by fakes in unit tests. */
struct eng_clock_ops {
	int (*read_clock)(uint16_t port_id, uint64_t *ticks); /* rte_eth_read_clock */
	uint64_t (*tsc)(void);                                /* rte_rdtsc */
	uint64_t tsc_hz;
	void (*delay_us)(unsigned int us); /* rte_delay_us_block */
};

/* Default ops (tsc_hz = rte_get_tsc_hz()). */
void eng_clock_ops_default(struct eng_clock_ops *ops);

/* Calibration interval of a device clock against the TSC, microseconds. */
#define ENG_CLOCK_CALIB_US 20000

/*
 * A port's time source, chosen once (eng_clock_setup).  Device ticks and
 * TSC cycles become ns as ns0 + (ticks - tick0) * mult / 2^32.
 */
struct eng_clock {
	uint8_t src;     /* enum pcc_engine_clock_src */
	bool calibrated; /* device tick -> ns conversion known */
	uint16_t port_id;
	int ts_off;       /* RX timestamp dynfield offset, -1 if none */
	uint64_t ts_flag; /* RX timestamp dynflag, 0 if none */
	pcc_engine_clock_fn fn;
	void *fn_arg;
	uint64_t tsc_mult; /* ns per TSC cycle, 32.32 fixed point */
	uint64_t dev_tick0;
	uint64_t dev_ns0;
	uint64_t dev_mult; /* ns per device tick, 32.32 fixed point */
	uint64_t dev_hz;   /* measured device clock frequency */
	struct eng_clock_ops ops;
};

/* ns0 + (t - t0) * mult / 2^32, also for t before t0. */
static inline uint64_t
eng_clock_conv(uint64_t t, uint64_t t0, uint64_t ns0, uint64_t mult)
{
	if ((int64_t)(t - t0) >= 0)
		return ns0 + (uint64_t)(((unsigned __int128)(t - t0) * mult) >> 32);
	return ns0 - (uint64_t)(((unsigned __int128)(t0 - t) * mult) >> 32);
}

static inline uint64_t
eng_clock_tsc_ns(const struct eng_clock *c, uint64_t tsc)
{
	return eng_clock_conv(tsc, 0, 0, c->tsc_mult);
}

/* Now, ns of the port's clock. */
static inline uint64_t
eng_clock_now(const struct eng_clock *c)
{
	uint64_t t;

	switch (c->src) {
	case PCC_ENGINE_CLOCK_REGISTERED:
		return c->fn(c->fn_arg);
	case PCC_ENGINE_CLOCK_READ_CLOCK:
	case PCC_ENGINE_CLOCK_HW_RX_TS:
		if (c->calibrated && c->ops.read_clock(c->port_id, &t) == 0)
			return eng_clock_conv(t, c->dev_tick0, c->dev_ns0, c->dev_mult);
		/* fall through */
	default:
		return eng_clock_tsc_ns(c, c->ops.tsc());
	}
}

/* Receive time of m, ns: its hardware timestamp if it has one, else now. */
static inline uint64_t
eng_clock_rx(const struct eng_clock *c, const struct rte_mbuf *m, uint64_t now)
{
	uint64_t t;

	if (c->src != PCC_ENGINE_CLOCK_HW_RX_TS || !(m->ol_flags & c->ts_flag))
		return now;
	t = *RTE_MBUF_DYNFIELD(m, c->ts_off, const rte_mbuf_timestamp_t *);
	return c->calibrated ? eng_clock_conv(t, c->dev_tick0, c->dev_ns0, c->dev_mult) : t;
}

/*
 * Choose c's source for port_id: hw_ts (the RX timestamp offload is on and
 * its dynfield at ts_off/ts_flag), else ops->read_clock if it works and
 * advances, else reg (a registered function), else the TSC.  Device
 * clocks are calibrated against the TSC over ENG_CLOCK_CALIB_US.
 */
void eng_clock_setup(struct eng_clock *c, uint16_t port_id, bool hw_ts, int ts_off,
		uint64_t ts_flag, pcc_engine_clock_fn reg, void *reg_arg,
		const struct eng_clock_ops *ops);

/* Registered function of port_id (pcc_engine_port_clock_register). */
pcc_engine_clock_fn eng_clock_registered(uint16_t port_id, void **arg);

#endif /* ENGINE_CLOCK_H */
