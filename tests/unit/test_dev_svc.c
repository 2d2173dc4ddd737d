/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Unit tests of lib/dev services: trace and printf rings (fill, drain,
 * loss counting, wrap, truncation, per-thread rings), the clock hook,
 * thread rank, the NIC provider (a fake), logical ports, port speed,
 * port-info-changed and active flows.
 */

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_log.h>

#include "pcc_dev.h"
#include "pcc_dev_svc.h"

static uint64_t fake_time;

static uint64_t
fake_clock(void *arg)
{
	return (*(uint64_t *)arg)++;
}

static int
test_setup(void **state)
{
	(void)state;
	rte_log_set_level_pattern("pcc.dev", RTE_LOG_EMERG);
	pcc_dev_thread_set_rank(UINT16_MAX);
	fake_time = 1000;
	pcc_dev_set_clock(fake_clock, &fake_time);
	pcc_dev_trace_enable(true);
	return 0;
}

static int
test_teardown(void **state)
{
	(void)state;
	pcc_dev_fini();
	pcc_dev_set_clock(NULL, NULL);
	pcc_dev_set_nic_provider(NULL);
	assert_int_equal(pcc_dev_svc_ring_sizes(
					 PCC_DEV_TRACE_RING_DEFAULT, PCC_DEV_PRINTF_RING_DEFAULT),
			0);
	return 0;
}

static void
init_dev(uint8_t ports, uint16_t threads)
{
	struct pcc_dev_conf conf = { .n_ports = ports, .n_threads = threads };

	assert_int_equal(pcc_dev_init(&conf), 0);
}

/* ---- Trace ------------------------------------------------------------ */

#define MAX_RECS 256

static struct {
	struct pcc_dev_trace_rec rec[MAX_RECS];
	unsigned int n;
} got;

static void
trace_cb(const struct pcc_dev_trace_rec *r, void *arg)
{
	(void)arg;
	if (got.n < MAX_RECS)
		got.rec[got.n] = *r;
	got.n++;
}

static void
test_trace_fill_drain_loss(void **state)
{
	struct pcc_dev_svc_stats st;
	unsigned int i;

	(void)state;
	memset(&got, 0, sizeof(got));
	/* before init (a plug-in loading): a store of 64 records, then lost */
	for (i = 0; i < 70; i++)
		pcc_dev_trace_5(1, i, 3, 4, 5, 6);
	assert_int_equal(pcc_dev_trace_drain(trace_cb, NULL), -ENODEV);
	assert_int_equal(pcc_dev_svc_stats_get(&st), -ENODEV);
	assert_int_equal(pcc_dev_svc_ring_sizes(15, 0), -EINVAL);
	assert_int_equal(pcc_dev_svc_ring_sizes(24, 0), -EINVAL);
	assert_int_equal(pcc_dev_svc_ring_sizes(0, 1000), -EINVAL);
	assert_int_equal(pcc_dev_svc_ring_sizes(16, 1024), 0);
	init_dev(1, 2);
	assert_int_equal(pcc_dev_svc_ring_sizes(32, 0), -EBUSY);
	/* the first drain after init hands them out first */
	assert_int_equal(pcc_dev_trace_drain(trace_cb, NULL), 64);
	for (i = 0; i < 64; i++) {
		assert_int_equal(got.rec[i].thread, PCC_DEV_THREAD_EARLY);
		assert_int_equal(got.rec[i].fmt_id, 1);
		assert_int_equal(got.rec[i].arg[0], i);
		assert_int_equal(got.rec[i].seq, i);
		assert_true(got.rec[i].ts == 1000 + i); /* fake clock */
	}
	got.n = 0;
	fake_time = 1000; /* the early records took 70 ticks */

	pcc_dev_thread_set_rank(1);
	assert_int_equal(pcc_dev_thread_rank(), 1);
	for (i = 0; i < 20; i++)
		pcc_dev_trace_5(7, i, i + 1, i + 2, i + 3, UINT64_MAX - i);
	pcc_dev_trace_flush();
	assert_int_equal(pcc_dev_svc_stats_get(&st), 0);
	assert_int_equal(st.trace_recs, 64 + 16);
	assert_int_equal(st.trace_lost, 6 + 4);

	assert_int_equal(pcc_dev_trace_drain(trace_cb, NULL), 16);
	assert_int_equal(got.n, 16);
	for (i = 0; i < 16; i++) {
		assert_int_equal(got.rec[i].fmt_id, 7);
		assert_int_equal(got.rec[i].thread, 1);
		assert_int_equal(got.rec[i].seq, i);
		assert_int_equal(got.rec[i].arg[0], i);
		assert_int_equal(got.rec[i].arg[3], i + 3);
		assert_true(got.rec[i].arg[4] == UINT64_MAX - i);
		assert_true(got.rec[i].ts == 1000 + i); /* fake clock */
	}
	assert_int_equal(pcc_dev_trace_drain(trace_cb, NULL), 0);

	/* space again; seq shows the 4 lost records as a gap */
	pcc_dev_trace_5(8, 0, 0, 0, 0, 0);
	got.n = 0;
	assert_int_equal(pcc_dev_trace_drain(trace_cb, NULL), 1);
	assert_int_equal(got.rec[0].seq, 20);
	assert_int_equal(got.rec[0].fmt_id, 8);

	/* wrap many times */
	for (i = 0; i < 100; i++) {
		pcc_dev_trace_5(9, i, 0, 0, 0, 0);
		got.n = 0;
		assert_int_equal(pcc_dev_trace_drain(trace_cb, NULL), 1);
		assert_int_equal(got.rec[0].arg[0], i);
	}

	/* off: nothing written, nothing lost */
	pcc_dev_trace_enable(false);
	pcc_dev_trace_5(10, 0, 0, 0, 0, 0);
	pcc_dev_trace_enable(true);
	assert_int_equal(pcc_dev_trace_drain(trace_cb, NULL), 0);
	assert_int_equal(pcc_dev_svc_stats_get(&st), 0);
	assert_int_equal(st.trace_recs, 64 + 117);
	assert_int_equal(st.trace_lost, 6 + 4);
	assert_int_equal(pcc_dev_trace_drain(NULL, NULL), -EINVAL);
	assert_int_equal(pcc_dev_svc_stats_get(NULL), -EINVAL);
}

static void *
trace_worker(void *arg)
{
	uint16_t rank = *(uint16_t *)arg;
	unsigned int i;

	if (rank != UINT16_MAX)
		pcc_dev_thread_set_rank(rank);
	for (i = 0; i < 10; i++)
		pcc_dev_trace_5(rank, i, 0, 0, 0, 0);
	if (pcc_dev_printf("thread %u", rank) < 0)
		return (void *)1;
	return NULL;
}

static unsigned int per_thread[4];

static void
count_cb(const struct pcc_dev_trace_rec *r, void *arg)
{
	(void)arg;
	if (r->thread < 4)
		per_thread[r->thread]++;
}

static unsigned int pr_threads;

static void
pr_thread_cb(uint16_t thread, uint64_t ts, const char *msg, uint32_t len, void *arg)
{
	char want[32];

	(void)ts;
	(void)arg;
	/* ranks 0, 1 own sets 0, 1; the unranked thread writes to set 2 */
	snprintf(want, sizeof(want), "thread %u", thread == 2 ? UINT16_MAX : thread);
	if (strlen(want) == len && strcmp(msg, want) == 0)
		pr_threads |= 1u << thread;
}

static void
test_trace_threads(void **state)
{
	uint16_t ranks[3] = { 0, 1, UINT16_MAX };
	pthread_t th[3];
	void *ret;
	int i;

	(void)state;
	init_dev(1, 2);
	for (i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&th[i], NULL, trace_worker, &ranks[i]), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(pthread_join(th[i], &ret), 0);
		assert_null(ret);
	}
	memset(per_thread, 0, sizeof(per_thread));
	assert_int_equal(pcc_dev_trace_drain(count_cb, NULL), 30);
	assert_int_equal(per_thread[0], 10);
	assert_int_equal(per_thread[1], 10);
	assert_int_equal(per_thread[2], 10); /* shared set = n_threads */
	pr_threads = 0;
	assert_int_equal(pcc_dev_printf_drain(pr_thread_cb, NULL), 3);
	assert_int_equal(pr_threads, 7);
}

/* ---- printf ----------------------------------------------------------- */

#define MAX_MSGS 128

static struct {
	char msg[MAX_MSGS][PCC_DEV_PRINTF_MAX];
	uint32_t len[MAX_MSGS];
	uint16_t thread[MAX_MSGS];
	uint64_t ts[MAX_MSGS];
	unsigned int n;
} pr;

static void
pr_cb(uint16_t thread, uint64_t ts, const char *msg, uint32_t len, void *arg)
{
	(void)arg;
	if (pr.n < MAX_MSGS) {
		memcpy(pr.msg[pr.n], msg, len + 1);
		pr.len[pr.n] = len;
		pr.thread[pr.n] = thread;
		pr.ts[pr.n] = ts;
	}
	pr.n++;
}

static void
test_printf(void **state)
{
	struct pcc_dev_svc_stats st;
	char big[400];
	unsigned int i, stored;
	int rc;

	(void)state;
	memset(&pr, 0, sizeof(pr));
	/* before init (a plug-in loading): kept, handed out first after it */
	assert_int_equal(pcc_dev_printf("x%d", 1), 2);
	assert_int_equal(pcc_dev_printf_drain(pr_cb, NULL), -ENODEV);
	assert_int_equal(pcc_dev_svc_ring_sizes(0, 1024), 0);
	init_dev(1, 1);
	assert_int_equal(pcc_dev_printf_drain(pr_cb, NULL), 1);
	assert_string_equal(pr.msg[0], "x1");
	assert_int_equal(pr.thread[0], PCC_DEV_THREAD_EARLY);
	pr.n = 0;
	fake_time = 1000;
	pcc_dev_thread_set_rank(0);

	assert_int_equal(pcc_dev_printf("rate %u cnp %s", 42u, "yes"), 15);
	assert_int_equal(pcc_dev_printf("%s", ""), 0);
	assert_int_equal(pcc_dev_printf_drain(pr_cb, NULL), 2);
	assert_string_equal(pr.msg[0], "rate 42 cnp yes");
	assert_int_equal(pr.len[0], 15);
	assert_int_equal(pr.thread[0], 0);
	assert_true(pr.ts[0] == 1000);
	assert_string_equal(pr.msg[1], "");
	assert_int_equal(pr.len[1], 0);

	/* truncation to PRINTF_MAX - 1 bytes, counted */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(pcc_dev_printf("%s", big), PCC_DEV_PRINTF_MAX - 1);
	pr.n = 0;
	assert_int_equal(pcc_dev_printf_drain(pr_cb, NULL), 1);
	assert_int_equal(pr.len[0], PCC_DEV_PRINTF_MAX - 1);
	assert_int_equal(strlen(pr.msg[0]), PCC_DEV_PRINTF_MAX - 1);

	/* fill: 1024-byte ring, 48-byte records (16 + 32) */
	stored = 0;
	for (i = 0; i < 30; i++) {
		rc = pcc_dev_printf("message number %02u", i);
		if (rc == 17)
			stored++;
		else
			assert_int_equal(rc, -ENOSPC);
	}
	assert_true(stored >= 20 && stored < 30);
	assert_int_equal(pcc_dev_svc_stats_get(&st), 0);
	assert_int_equal(st.printf_lost, 30 - stored);
	assert_int_equal(st.printf_truncated, 1);
	assert_int_equal(st.printf_msgs, 1 + 3 + stored);
	pr.n = 0;
	assert_int_equal(pcc_dev_printf_drain(pr_cb, NULL), stored);
	for (i = 0; i < stored; i++) {
		char want[32];

		snprintf(want, sizeof(want), "message number %02u", i);
		assert_string_equal(pr.msg[i], want);
	}

	/* wrap with pad records: sizes that do not divide the ring */
	for (i = 0; i < 200; i++) {
		assert_int_equal(pcc_dev_printf("%.*s", (int)(i % 90) + 1, big), (int)(i % 90) + 1);
		if (i % 3 == 2) {
			pr.n = 0;
			assert_int_equal(pcc_dev_printf_drain(pr_cb, NULL), 3);
			assert_int_equal(pr.len[2], (i % 90) + 1);
		}
	}
	assert_int_equal(pcc_dev_printf(NULL), -EINVAL);
	assert_int_equal(pcc_dev_printf_drain(NULL, NULL), -EINVAL);
}

/* ---- NIC provider, ports ----------------------------------------------- */

static struct {
	uint64_t bytes[8][2];
	uint32_t speed[8];
	uint32_t mask;
	int fail_port; /* -1 none */
	unsigned int calls;
} fake;

static int
fake_counter(void *arg, uint8_t port, uint8_t type, uint64_t *value)
{
	assert_ptr_equal(arg, &fake);
	fake.calls++;
	if ((int)port == fake.fail_port)
		return -EIO;
	*value = fake.bytes[port][type];
	return 0;
}

static uint32_t
fake_speed(void *arg, uint8_t port)
{
	(void)arg;
	return fake.speed[port];
}

static uint32_t
fake_mask(void *arg)
{
	(void)arg;
	return fake.mask;
}

static void *
sample_thread(void *arg)
{
	uint16_t rank = *(uint16_t *)arg;

	if (rank != UINT16_MAX)
		pcc_dev_thread_set_rank(rank);
	return (void *)(intptr_t)pcc_dev_nic_counters_sample();
}

static void
test_nic_provider(void **state)
{
	struct pcc_dev_nic_provider p = {
		.counter = fake_counter,
		.speed_gbps = fake_speed,
		.ports_mask = fake_mask,
		.arg = &fake,
	};
	uint32_t ids[3], vals[3] = { 0 }, bad[PCC_DEV_NIC_COUNTERS_MAX + 1] = { 0 };

	(void)state;
	memset(&fake, 0, sizeof(fake));
	fake.fail_port = -1;
	ids[0] = PCC_DEV_NIC_COUNTER_ID(0, PCC_DEV_NIC_TX_BYTES);
	ids[1] = PCC_DEV_NIC_COUNTER_ID(1, PCC_DEV_NIC_RX_BYTES);
	ids[2] = PCC_DEV_NIC_COUNTER_ID(2, PCC_DEV_NIC_TX_BYTES);

	assert_int_equal(pcc_dev_nic_counters_config(ids, 3, vals), -ENODEV);
	assert_int_equal(pcc_dev_nic_counters_sample(), -ENODEV);
	assert_int_equal(pcc_dev_logical_ports(), 0);
	assert_int_equal(pcc_dev_port_speed(0), 0);
	init_dev(3, 1);

	/* no provider */
	assert_int_equal(pcc_dev_logical_ports(), 0x7);
	assert_int_equal(pcc_dev_port_speed(0), 0);
	assert_int_equal(pcc_dev_nic_counters_sample(), -ENOENT);
	assert_int_equal(pcc_dev_nic_counters_config(ids, 3, vals), 0);
	assert_int_equal(pcc_dev_nic_counters_sample(), -ENODEV);

	pcc_dev_set_nic_provider(&p);
	fake.bytes[0][PCC_DEV_NIC_TX_BYTES] = 0x100000005ull; /* low 32 bits kept */
	fake.bytes[1][PCC_DEV_NIC_RX_BYTES] = 77;
	fake.bytes[2][PCC_DEV_NIC_TX_BYTES] = 99;
	assert_int_equal(pcc_dev_nic_counters_sample(), 0);
	assert_int_equal(vals[0], 5);
	assert_int_equal(vals[1], 77);
	assert_int_equal(vals[2], 99);
	assert_int_equal(fake.calls, 3);
	fake.bytes[1][PCC_DEV_NIC_RX_BYTES] = 1077;
	fake.fail_port = 2;
	assert_int_equal(pcc_dev_nic_counters_sample(), -EIO);
	assert_int_equal(vals[1], 1077);
	assert_int_equal(vals[2], 99); /* failed one unchanged */

	/* configuration is per thread set */
	{
		uint16_t own = 0, none = UINT16_MAX;
		pthread_t th;
		void *ret;

		assert_int_equal(pthread_create(&th, NULL, sample_thread, &own), 0);
		assert_int_equal(pthread_join(th, &ret), 0);
		assert_int_equal((int)(intptr_t)ret, -ENOENT); /* rank 0: nothing configured */
		assert_int_equal(pthread_create(&th, NULL, sample_thread, &none), 0);
		assert_int_equal(pthread_join(th, &ret), 0);
		assert_int_equal((int)(intptr_t)ret, -EIO); /* unranked: the main thread's set */
	}

	/* bad config */
	assert_int_equal(pcc_dev_nic_counters_config(bad, PCC_DEV_NIC_COUNTERS_MAX + 1, vals),
			-EINVAL);
	assert_int_equal(pcc_dev_nic_counters_config(NULL, 1, vals), -EINVAL);
	assert_int_equal(pcc_dev_nic_counters_config(ids, 1, NULL), -EINVAL);
	ids[0] = PCC_DEV_NIC_COUNTER_ID(3, PCC_DEV_NIC_TX_BYTES); /* port 3 absent */
	assert_int_equal(pcc_dev_nic_counters_config(ids, 1, vals), -EINVAL);
	ids[0] = PCC_DEV_NIC_COUNTER_ID(0, 2); /* bad type */
	assert_int_equal(pcc_dev_nic_counters_config(ids, 1, vals), -EINVAL);
	assert_int_equal(pcc_dev_nic_counters_config(NULL, 0, NULL), 0); /* clear */
	assert_int_equal(pcc_dev_nic_counters_sample(), -ENOENT);

	/* ports and speed */
	fake.mask = 0xff;
	fake.speed[1] = 200;
	assert_int_equal(pcc_dev_logical_ports(), 0x7); /* limited to n_ports */
	fake.mask = 0x5;
	assert_int_equal(pcc_dev_logical_ports(), 0x5);
	assert_int_equal(pcc_dev_port_speed(1), 200);
	assert_int_equal(pcc_dev_port_speed(0), 0);
	assert_int_equal(pcc_dev_port_speed(3), 0);
	pcc_dev_set_nic_provider(NULL);
	assert_int_equal(pcc_dev_port_speed(1), 0);
	assert_int_equal(pcc_dev_logical_ports(), 0x7);
}

/* ---- Port info changed, active flows ----------------------------------- */

static unsigned int changed[4];

static void
changed_cb(uint8_t port)
{
	if (port < 4)
		changed[port]++;
}

static void
noop_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	(void)res;
}

static struct pcc_dev_algo_ops watcher_ops = {
	.name = "watcher",
	.on_event = noop_on_event,
	.port_info_changed = changed_cb,
};

static void
test_port_info_and_flows(void **state)
{
	(void)state;
	memset(changed, 0, sizeof(changed));
	assert_int_equal(pcc_dev_port_info_changed(0), -ENODEV);
	assert_int_equal(pcc_dev_algo_register(&watcher_ops), 0);
	init_dev(2, 1);
	assert_int_equal(pcc_dev_algo_load(0, 0, "watcher"), 0);
	assert_int_equal(pcc_dev_algo_load(0, 5, "watcher"), 0);
	assert_int_equal(pcc_dev_port_info_changed(0), 0);
	assert_int_equal(changed[0], 1); /* once per algorithm */
	assert_int_equal(pcc_dev_port_info_changed(1), 0);
	assert_int_equal(changed[1], 0); /* not loaded there */
	assert_int_equal(pcc_dev_port_info_changed(2), -EINVAL);

	assert_int_equal(pcc_dev_slot_bind(0, 1, 5), 0);
	assert_int_equal(pcc_dev_active_flows(0, 1), 0);
	assert_int_equal(pcc_dev_active_flows_set(0, 1, 12), 0);
	assert_int_equal(pcc_dev_active_flows(0, 1), 12);
	assert_int_equal(pcc_dev_active_flows_set(0, 2, 1), -ENOENT);
	assert_int_equal(pcc_dev_active_flows_set(0, 9, 1), -EINVAL);
	assert_int_equal(pcc_dev_active_flows_set(2, 1, 1), -EINVAL);
	assert_int_equal(pcc_dev_active_flows(0, 2), 0);
	assert_int_equal(pcc_dev_active_flows(5, 1), 0);

	assert_int_equal(pcc_dev_algo_unload(0, 0), 0);
	assert_int_equal(pcc_dev_slot_unbind(0, 1), 0);
	assert_int_equal(pcc_dev_algo_unload(0, 5), 0);
	assert_int_equal(pcc_dev_algo_unregister("watcher"), 0);
}

static void
test_rank_and_clock(void **state)
{
	(void)state;
	pcc_dev_thread_set_rank(UINT16_MAX);
	assert_int_equal(pcc_dev_thread_rank(), 0);
	pcc_dev_thread_set_rank(5);
	assert_int_equal(pcc_dev_thread_rank(), 5);
	pcc_dev_thread_set_rank(0);
	assert_int_equal(pcc_dev_thread_rank(), 0);
	assert_true(pcc_dev_now() == 1000);
	assert_true(pcc_dev_now() == 1001);
	pcc_dev_set_clock(NULL, NULL);
	assert_true(pcc_dev_now() != 0); /* TSC */
	/* a rank beyond n_threads uses the shared set: still works */
	init_dev(1, 1);
	pcc_dev_thread_set_rank(7);
	assert_int_equal(pcc_dev_printf("r7"), 2);
	pr.n = 0;
	assert_int_equal(pcc_dev_printf_drain(pr_cb, NULL), 1);
	assert_int_equal(pr.thread[0], 1);
	assert_true(pcc_dev_mem_total() > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
				test_trace_fill_drain_loss, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_trace_threads, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_printf, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_nic_provider, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(
				test_port_info_and_flows, test_setup, test_teardown),
		cmocka_unit_test_setup_teardown(test_rank_and_clock, test_setup, test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
