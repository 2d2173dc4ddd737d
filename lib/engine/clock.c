/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Per-port time source, chosen once when the engine is created:
 *
 *   1. hardware RX timestamp (RTE_ETH_RX_OFFLOAD_TIMESTAMP, mbuf dynfield)
 *      when the port offers it; "now" from rte_eth_read_clock();
 *   2. rte_eth_read_clock() when the PMD implements it;
 *   3. a function registered for the port (pcc_engine_port_clock_register:
 *      the simulator's virtual time);
 *   4. the TSC.
 *
 * Device clocks count ticks of an unknown frequency: the engine reads the
 * device clock and the TSC, waits ENG_CLOCK_CALIB_US, reads both again and
 * derives ticks per second; from then on ticks become ns with one 64x64
 * multiply (32.32 fixed point), anchored at the TSC time of calibration so
 * device and TSC ports share one time base.  A hardware timestamp port
 * whose read_clock does not work keeps timestamps as they are (taken as
 * ns, e.g. mlx5 in real-time mode) and its "now" from the TSC.
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "engine_internal.h"

static struct {
	pcc_engine_clock_fn fn;
	void *arg;
} clock_reg[RTE_MAX_ETHPORTS];

int
pcc_engine_port_clock_register(uint16_t port_id, pcc_engine_clock_fn fn, void *arg)
{
	if (port_id >= RTE_MAX_ETHPORTS)
		return -EINVAL;
	clock_reg[port_id].arg = fn != NULL ? arg : NULL;
	__atomic_store_n(&clock_reg[port_id].fn, fn, __ATOMIC_RELEASE);
	return 0;
}

pcc_engine_clock_fn
eng_clock_registered(uint16_t port_id, void **arg)
{
	pcc_engine_clock_fn fn;

	if (port_id >= RTE_MAX_ETHPORTS)
		return NULL;
	fn = __atomic_load_n(&clock_reg[port_id].fn, __ATOMIC_ACQUIRE);
	*arg = clock_reg[port_id].arg;
	return fn;
}

const char *
pcc_engine_clock_src_name(enum pcc_engine_clock_src src)
{
	switch (src) {
	case PCC_ENGINE_CLOCK_HW_RX_TS:
		return "hw-rx-timestamp";
	case PCC_ENGINE_CLOCK_READ_CLOCK:
		return "read-clock";
	case PCC_ENGINE_CLOCK_REGISTERED:
		return "registered";
	case PCC_ENGINE_CLOCK_TSC:
		return "tsc";
	default:
		return "?";
	}
}

static uint64_t
tsc_read(void)
{
	return rte_rdtsc();
}

static void
delay_us(unsigned int us)
{
	rte_delay_us_block(us);
}

void
eng_clock_ops_default(struct eng_clock_ops *ops)
{
	ops->read_clock = rte_eth_read_clock;
	ops->tsc = tsc_read;
	ops->tsc_hz = rte_get_tsc_hz();
	ops->delay_us = delay_us;
}

/* ns per unit (hz units per second) in 32.32 fixed point. */
static uint64_t
ns_mult(uint64_t hz)
{
	return (uint64_t)(((unsigned __int128)NS_PER_S << 32) / hz);
}

/*
 * Measure the device clock against the TSC.  True when it works and
 * advances; sets the conversion.
 */
static bool
calibrate(struct eng_clock *c)
{
	const struct eng_clock_ops *o = &c->ops;
	uint64_t d0, d1, t0, t1;

	if (o->read_clock == NULL || o->read_clock(c->port_id, &d0) != 0)
		return false;
	t0 = o->tsc();
	o->delay_us(ENG_CLOCK_CALIB_US);
	if (o->read_clock(c->port_id, &d1) != 0)
		return false;
	t1 = o->tsc();
	if (d1 <= d0 || t1 <= t0)
		return false;
	c->dev_hz = (uint64_t)(((unsigned __int128)(d1 - d0) * o->tsc_hz) / (t1 - t0));
	if (c->dev_hz == 0)
		return false;
	c->dev_mult = ns_mult(c->dev_hz);
	c->dev_tick0 = d1;
	c->dev_ns0 = eng_clock_tsc_ns(c, t1);
	c->calibrated = true;
	return true;
}

void
eng_clock_setup(struct eng_clock *c, uint16_t port_id, bool hw_ts, int ts_off, uint64_t ts_flag,
		pcc_engine_clock_fn reg, void *reg_arg, const struct eng_clock_ops *ops)
{
	memset(c, 0, sizeof(*c));
	c->port_id = port_id;
	c->ops = *ops;
	c->ts_off = -1;
	c->tsc_mult = ns_mult(ops->tsc_hz != 0 ? ops->tsc_hz : 1);
	if (hw_ts && ts_off >= 0 && ts_flag != 0) {
		c->src = PCC_ENGINE_CLOCK_HW_RX_TS;
		c->ts_off = ts_off;
		c->ts_flag = ts_flag;
		calibrate(c);
		return;
	}
	if (calibrate(c)) {
		c->src = PCC_ENGINE_CLOCK_READ_CLOCK;
		return;
	}
	if (reg != NULL) {
		c->src = PCC_ENGINE_CLOCK_REGISTERED;
		c->fn = reg;
		c->fn_arg = reg_arg;
		return;
	}
	c->src = PCC_ENGINE_CLOCK_TSC;
}
