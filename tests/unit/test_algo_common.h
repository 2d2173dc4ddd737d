/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_ALGO_COMMON_H
#define TEST_ALGO_COMMON_H

/*
 * Harness shared by the reference algorithm tests (test_algo_*.c): one
 * port, the algorithm under test loaded at index 0 and bound to slot 0,
 * events built by hand and delivered through pcc_dev_dispatch() to a
 * caller-owned context.  Include after <cmocka.h>.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <pcc_dev.h>
#include <pcc_algos.h>

#define T_PORT 0
#define T_SLOT 0
#define T_MAX_RATE ((double)PCC_DEV_MAX_RATE)

/* ns */
#define US(x) ((uint32_t)(x)*1000u)

/* Place algorithm name at index 0 of port 0, bind slot 0, enable it. */
static inline int
t_setup_algo(const char *name)
{
	struct pcc_dev_conf conf = { .n_ports = 1, .n_threads = 1 };
	int rc;

	rc = pcc_algos_register_builtin();
	if (rc != 0)
		return rc;
	rc = pcc_dev_init(&conf);
	if (rc != 0)
		return rc;
	rc = pcc_dev_algo_load(T_PORT, 0, name);
	if (rc == 0)
		rc = pcc_dev_slot_bind(T_PORT, T_SLOT, 0);
	if (rc == 0)
		rc = pcc_dev_slot_enable(T_PORT, T_SLOT, true);
	if (rc != 0)
		pcc_dev_fini();
	return rc;
}

static inline int
t_teardown(void **state)
{
	(void)state;
	pcc_dev_fini();
	return 0;
}

/* Set one parameter of slot 0 by name. */
static inline int
t_param(const char *name, uint32_t v)
{
	int id = pcc_dev_param_id(T_PORT, T_SLOT, name);

	if (id < 0)
		return id;
	return pcc_dev_params_set(T_PORT, T_SLOT, (uint32_t)id, 1, &v);
}

/* Counter of slot 0 by id (combined over thread sets). */
static inline uint32_t
t_counter(uint32_t id)
{
	uint32_t v[PCC_DEV_MAX_COUNTERS];
	int n = pcc_dev_counters_get(T_PORT, T_SLOT, v, id + 1);

	return n > (int)id ? v[id] : UINT32_MAX;
}

/* Counter id by name in the slot's algorithm table, or UINT32_MAX. */
static inline uint32_t
t_counter_id(const char *name)
{
	const struct pcc_dev_algo_ops *ops = pcc_dev_slot_algo(T_PORT, T_SLOT, NULL);
	uint32_t i;

	for (i = 0; ops != NULL && i < ops->n_counters; i++)
		if (strcmp(ops->counters[i].name, name) == 0)
			return ops->counters[i].id;
	return UINT32_MAX;
}

static inline uint32_t
t_counter_by_name(const char *name)
{
	uint32_t id = t_counter_id(name);

	return id == UINT32_MAX ? UINT32_MAX : t_counter(id);
}

/* Deliver ev to ctx; returns the results (asserts the call happened). */
static inline struct pcc_dev_results
t_send(void *ctx, const struct pcc_dev_event *ev)
{
	struct pcc_dev_results res;

	memset(&res, 0xA5, sizeof(res)); /* dispatch must zero it */
	assert_int_equal(pcc_dev_dispatch(T_PORT, T_SLOT, ctx, ev, &res), 0);
	return res;
}

static inline struct pcc_dev_event
t_ev(uint8_t type, uint32_t ts)
{
	struct pcc_dev_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.port = T_PORT;
	ev.ts = ts;
	return ev;
}

static inline struct pcc_dev_results
t_tx(void *ctx, uint32_t ts, uint32_t last_psn, uint32_t bytes)
{
	struct pcc_dev_event ev = t_ev(PCC_DEV_EVENT_TX, ts);

	ev.sn = last_psn;
	ev.tx.first_ts = ts;
	ev.tx.sent_32b = (uint16_t)(bytes / 32 > UINT16_MAX ? UINT16_MAX : bytes / 32);
	ev.tx.sent_pkts = 1;
	return t_send(ctx, &ev);
}

static inline struct pcc_dev_results
t_cnp(void *ctx, uint32_t ts)
{
	struct pcc_dev_event ev = t_ev(PCC_DEV_EVENT_CNP, ts);

	ev.ack.first_ts = ts;
	ev.ack.coalesced = 1;
	return t_send(ctx, &ev);
}

static inline struct pcc_dev_results
t_ack(void *ctx, uint32_t ts, uint32_t psn, const struct pcc_int_hdr *h)
{
	struct pcc_dev_event ev = t_ev(PCC_DEV_EVENT_ACK, ts);

	ev.sn = psn;
	ev.ack.first_ts = ts;
	ev.ack.first_sn = psn;
	ev.ack.coalesced = 1;
	ev.ack.int_hdr = h;
	return t_send(ctx, &ev);
}

static inline struct pcc_dev_results
t_nack(void *ctx, uint32_t ts)
{
	struct pcc_dev_event ev = t_ev(PCC_DEV_EVENT_NACK, ts);

	ev.subtype = PCC_DEV_NACK_OOS;
	ev.ack.coalesced = 1;
	return t_send(ctx, &ev);
}

static inline struct pcc_dev_results
t_timer(void *ctx, uint32_t ts)
{
	struct pcc_dev_event ev = t_ev(PCC_DEV_EVENT_TIMER, ts);

	ev.timer.period_us = 1;
	return t_send(ctx, &ev);
}

/* RTT probe answer received at ts for a probe sent rtt ns earlier; the
 * NP's turnaround (1 us on its own clock) is not part of the RTT. */
static inline struct pcc_dev_results
t_rtt(void *ctx, uint32_t ts, uint32_t rtt)
{
	struct pcc_dev_event ev = t_ev(PCC_DEV_EVENT_RTT, ts);

	ev.rtt.req_send_ts = ts - rtt - 1000;
	ev.rtt.req_recv_ts = 5000000;
	ev.rtt.resp_send_ts = 5001000;
	ev.rtt.resp_recv_ts = ts;
	return t_send(ctx, &ev);
}

/* rate as a fraction of line rate */
static inline double
t_frac(uint32_t rate)
{
	return rate / T_MAX_RATE;
}

#define assert_near(a, b, tol)                                                                   \
	do {                                                                                     \
		double a_ = (a), b_ = (b);                                                       \
		if (fabs(a_ - b_) > (tol))                                                       \
			fail_msg("%s = %.9g, expected %.9g +- %.3g", #a, a_, b_, (double)(tol)); \
	} while (0)

#endif /* TEST_ALGO_COMMON_H */
